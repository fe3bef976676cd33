"""The result tables the chapters read: what the book's long runs computed, shipped with the
book's package so that a notebook prints them without rerunning hours of experiments.

Each table is written by the program named in :data:`RESULTS` (a runner of this package or
a benchmark of the repository) and read back with :func:`load_results`.
"""

from __future__ import annotations

import os
from pathlib import Path

RESULTS_DIR = Path(__file__).resolve().parent / "data"

#: The result tables that ship with the package (``pdtbook/data/<name>.csv``), by name, with
#: the program that writes each one. The chapters read them with :func:`load_results`, so a
#: notebook needs nothing but the book's package installed.
RESULTS = {
    "cost_complexity_timings": "Chapter 2: seconds for the whole cost-complexity path, prunekit "
                               "and scikit-learn (benchmarks/bench_cost_complexity.py)",
    "kaariainen2004_reproduction": "Chapter 7: REP, k-REP and their bounds on each split "
                                   "(python -m pdtbook.experiments --all)",
    "kaariainen2004_c_effect": "Chapter 7: k-REP for several values of c on adult and letter "
                               "(python -m pdtbook.experiments adult letter --c ...)",
    "j48_agreement": "Chapter 8: Weka J48's pruned trees against prunekit's "
                     "(python -m pdtbook.weka)",
    "study": "Chapter 9: test error and size of every pruner on every split "
             "(python -m pdtbook.study --all)",
    "study_run": "Chapter 9: the wall time of the study's run (written with study)",
    "rpart_cp": "Chapter 9: rpart's cp table against the exact one "
                "(python -m pdtbook.study --rpart --all)",
    "rpart_example": "Chapter 9: the frame of rpart's tree on the small example "
                     "(written with rpart_cp)",
    "regression_study": "Chapter 11: test error and size of the regression pruners on every "
                        "split (python -m pdtbook.regression_study --all)",
    "regression_study_run": "Chapter 11: the wall time of the regression study's run "
                            "(written with regression_study)",
    "optimal_gap": "Chapter 10: greedy growth and pruning against optimal trees of the same "
                   "depth (python -m pdtbook.optimal_study --all)",
    "optimal_times": "Chapter 10: STreeD's seconds as the depth grows "
                     "(python -m pdtbook.optimal_study --curve ...)",
    "optimal_ablation": "Chapter 10: the solvers' bounds switched off one at a time "
                        "(python -m pdtbook.optimal_study --ablation)",
}

# Columns read as text even where a value looks like a number or is empty.
_TEXT_COLUMNS = ("dataset", "paper_name", "group", "method", "weka_version", "pruning",
                 "setting", "risk", "status",
                 "j48_options", "backend", "var")


def results_path(name: str) -> Path:
    """The file of the result table ``name`` inside the package (see :data:`RESULTS`).

    The programs that compute a table (:mod:`pdtbook.experiments`,
    :mod:`pdtbook.study`, :mod:`pdtbook.weka`, the cost-complexity benchmark) write
    it here by default, so that :func:`load_results` reads what they wrote.

    Raises
    ------
    TypeError
        ``name`` is not a string.
    ValueError
        ``name`` is not a key of :data:`RESULTS`; the message lists the available names.
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a string, got {type(name).__name__}.")
    if name not in RESULTS:
        raise ValueError(f"unknown result table name {name!r}; the available names are "
                         f"{', '.join(sorted(RESULTS))}.")
    return RESULTS_DIR / f"{name}.csv"


def read_results_csv(path):
    """Read a result table from the CSV file ``path`` into a :class:`pandas.DataFrame`.

    Only an empty field and ``nan`` are missing values (a data set called ``NA`` stays a
    name); the text columns (data set, method, ...) stay strings. pandas parses floats exactly,
    so a value written with ``repr`` reads back as the same float.
    """
    import pandas as pd

    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a file path (str or os.PathLike), got "
                        f"{type(path).__name__}.")
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"path: no result table at {str(path)!r}.")
    header = pd.read_csv(path, nrows=0).columns
    return pd.read_csv(path, keep_default_na=False, na_values=["", "nan"],
                       dtype={column: str for column in _TEXT_COLUMNS if column in header})


def load_results(name: str):
    """One of the result tables the book's chapters read, as a :class:`pandas.DataFrame`.

    The tables ship inside the package (``pdtbook/data``), so this works wherever the book's
    package is installed: Colab, Binder, a school's JupyterHub. :data:`RESULTS` lists the names and the
    program that computes each table; the chapters say how to rerun it.

    Parameters
    ----------
    name : str
        A key of :data:`RESULTS`, e.g. ``"kaariainen2004_reproduction"`` (the rows of the
        reproduction of Kääriäinen, Malinen & Elomaa 2004, Sec. 6, in Chapter 7) or
        ``"study"`` (Chapter 9's comparison of pruners).

    Returns
    -------
    pandas.DataFrame
        One row per line of the table, columns as in its header (see
        :func:`read_results_csv` for how values are parsed).

    Raises
    ------
    TypeError
        ``name`` is not a string.
    ValueError
        ``name`` is not a known table; the message lists the available names.

    Examples
    --------
    >>> from pdtbook.results import load_results
    >>> load_results("cost_complexity_timings").columns.tolist()
    ['samples', 'nodes', 'prunekit_seconds', 'sklearn_seconds']
    """
    return read_results_csv(results_path(name))
