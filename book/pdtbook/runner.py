"""What the book's runners share: data sets, random splits, a cache, parallel runs, CSV files.

:mod:`pdtbook.experiments` (Chapter 7) and :mod:`pdtbook.study` (Chapter 9) compute
their result tables the same way, with the pieces of this module:

* a data set is a :class:`Dataset`: a name, a group (``"UCI"``, ``"LED"``, ``"scikit-learn"``,
  ``"synthetic"``), a description and how to load it; :func:`load_dataset` gives its examples
  as float64 attributes and labels coded 0..K-1, and :func:`available_datasets` the ones that
  can be loaded (the UCI ones need their files);
* split ``i`` of a data set is a function of ``i`` alone (:func:`split_indices`): a test part,
  and a training part whose first two thirds grow a tree and whose last third prunes it;
* :func:`run_splits` runs every (data set, split) pair the cache lacks through
  :mod:`joblib`, so that the same call runs serially, on local processes, or on a Dask
  cluster inside ``joblib.parallel_config(backend="dask")``; finished splits are stored as
  they arrive (:class:`Cache`), so an interrupted run resumes where it stopped;
* :func:`write_results` writes the rows as CSV, floats in full precision, and
  :func:`read_results` reads them back as a :class:`pandas.DataFrame`;
* :func:`command_line`, :func:`parse_arguments` and :func:`run_command` give both runners the
  same options (``--all``, ``--data``, ``--splits``, ``--n-jobs``, ``--dask-scheduler``,
  ``--cache``, ``--out``, which writes by default the table the book reads).
"""

from __future__ import annotations

import argparse
import csv
import json
import numbers
import os
import sys
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Callable, NamedTuple

import numpy as np
from joblib import Parallel, delayed, parallel_config
from tqdm.auto import tqdm

from prunekit.validation import check_count
from prunekit.datasets import ENV_VAR, UCI_DATASETS, load_uci, make_led24, uci_available

from pdtbook._docstrings import shared_sections
from pdtbook._extras import require
from pdtbook.results import read_results_csv, results_path

__all__ = [
    "N_SPLITS", "PRUNE_FRACTION", "LED_NAME", "Dataset", "uci_dataset", "led24_dataset",
    "load_dataset", "available_datasets", "check_keys", "check_splits", "SplitIndices",
    "growing_size", "split_indices", "Cache", "run_splits", "write_results",
    "read_results", "command_line", "parse_arguments", "run_command",
    "write_run_record", "command_docstring",
]

#: Random splits per data set in both runners.
N_SPLITS = 10
#: The share of the training part that prunes (the last third; the first two thirds grow).
PRUNE_FRACTION = 1 / 3
#: The name of LED 24-10 in both runners.
LED_NAME = "led24"
LED_NOISE = 0.1
_CACHE_VERSION = 3


# ---------------------------------------------------------------------- data sets
@dataclass(frozen=True)
class Dataset:
    """One data set of a runner.

    Attributes
    ----------
    name : str
        Its key in the runner's table of data sets (``"adult"``, ``"led24"``, ``"iris"``).
    group : str
        ``"UCI"`` (read from the UCI files), ``"LED"``, ``"scikit-learn"`` or ``"synthetic"``.
    description : str
        For the UCI sets the name in Table 1 of Kääriäinen, Malinen & Elomaa (2004).
    load : callable
        ``load(data_home)`` returns ``(X, y)``; :func:`load_dataset` calls it.
    """

    name: str
    group: str
    description: str
    load: Callable = field(repr=False, compare=False)


def uci_dataset(name: str) -> Dataset:
    """The UCI data set ``name`` of :data:`prunekit.datasets.UCI_DATASETS`, read by
    :func:`prunekit.datasets.load_uci` from the folder of the UCI files."""
    return Dataset(name, "UCI", UCI_DATASETS[name].paper_name, partial(load_uci, name))


def _led24(n_samples: int, data_home=None):
    return make_led24(n_samples, noise=LED_NOISE, random_state=0)


def led24_dataset(n_samples: int, description: str) -> Dataset:
    """LED 24-10: ``n_samples`` examples of :func:`prunekit.datasets.make_led24` with 10 %
    attribute noise (seed 0)."""
    return Dataset(LED_NAME, "LED", description, partial(_led24, n_samples))


def load_dataset(dataset: Dataset, data_home=None):
    """The examples of ``dataset``: ``(X, y)``, X float64, y int64 coded 0..K-1.

    ``data_home`` is the folder of the UCI files (default ``$PRUNEKIT_DATA``); the other
    groups ignore it.
    """
    X, y = dataset.load(data_home)
    _, y = np.unique(y, return_inverse=True)
    return np.asarray(X, dtype=np.float64), y.astype(np.int64)


def available_datasets(datasets: dict, data_home=None) -> list[str]:
    """The names of ``datasets`` that can be loaded: every UCI set whose files are in
    ``data_home`` (or ``$PRUNEKIT_DATA``; none when neither is given), and all the others."""
    home = data_home or os.environ.get(ENV_VAR)
    return [name for name, d in datasets.items()
            if d.group != "UCI" or (home and uci_available(name, home))]


def check_keys(values, known, what: str) -> list:
    """``values`` (one string or several) as a list, each one of ``known``; ``what`` names
    them in the errors (``"data set name"``, ``"method"``)."""
    values = [values] if isinstance(values, str) else list(values)
    unknown = [value for value in values if value not in known]
    if unknown:
        raise ValueError(f"unknown {what} {unknown!r}; choose from {', '.join(known)}.")
    if not values:
        raise ValueError(f"give at least one {what}.")
    return values


def check_splits(splits) -> list[int]:
    """A number of splits (``0..splits-1``) or the split indices, as a list of indices."""
    if isinstance(splits, numbers.Integral):
        return list(range(check_count(splits, "splits", minimum=1)))
    return [check_count(split, "split") for split in splits]


# ---------------------------------------------------------------------- one split
class SplitIndices(NamedTuple):
    """The examples of one split: ``train`` (the growing part, then the pruning part),
    ``test``, and ``n_grow``, the size of the growing part."""

    train: np.ndarray
    test: np.ndarray
    n_grow: int

    @property
    def grow(self) -> np.ndarray:
        """The growing part, the first ``n_grow`` training examples."""
        return self.train[:self.n_grow]

    @property
    def prune(self) -> np.ndarray:
        """The pruning part, the training examples after the growing part."""
        return self.train[self.n_grow:]


def growing_size(n_train: int) -> int:
    """The size of the growing part of a training part of ``n_train`` examples: its first
    two thirds, rounded (the rest, :data:`PRUNE_FRACTION`, is the pruning part)."""
    return int(round((1 - PRUNE_FRACTION) * n_train))


def split_indices(n_samples: int, split: int, test_fraction: float, max_train: int | None = None,
                  max_test: int | None = None) -> SplitIndices:
    """The examples of split ``split``, from a permutation seeded by ``split`` alone.

    The first ``round(test_fraction * n_samples)`` examples of
    ``numpy.random.default_rng(split).permutation(n_samples)`` are the test part (at most
    ``max_test`` of them are used), the others the training part (at most ``max_train``);
    the first two thirds (rounded) of the training part are the growing part, the rest the
    pruning part (:data:`PRUNE_FRACTION`).
    """
    n_samples = check_count(n_samples, "n_samples", minimum=8)
    split = check_count(split, "split")
    if max_train is not None:
        max_train = check_count(max_train, "max_train", minimum=6)
    if max_test is not None:
        max_test = check_count(max_test, "max_test", minimum=1)
    order = np.random.default_rng(split).permutation(n_samples)
    n_test = int(round(test_fraction * n_samples))
    test, train = order[:n_test][:max_test], order[n_test:][:max_train]
    return SplitIndices(train, test, growing_size(len(train)))


# ---------------------------------------------------------------------- caching and running
class Cache:
    """Finished splits on disk: one JSON file per (data set, split), ``<name>/splitNN.json``
    in ``directory``, holding the split's rows and the ``protocol`` they were computed with.

    A row is found by its value in the column ``key`` (a method, a value of c); rows of
    another protocol (another test fraction, another delta, ...) are not read back. Files
    are replaced whole, so a killed run never leaves half a file.
    """

    def __init__(self, directory, protocol: dict, key: str):
        self.directory = Path(directory)
        self.protocol = json.loads(json.dumps(protocol))     # as it reads back
        self.key = key

    def path(self, name: str, split: int) -> Path:
        return self.directory / name / f"split{split:02d}.json"

    def read(self, name: str, split: int) -> dict:
        """The cached rows of one split by key ({} when absent or of another protocol)."""
        try:
            content = json.loads(self.path(name, split).read_text())
        except (OSError, ValueError):
            return {}
        if content.get("cache_version") != _CACHE_VERSION or \
                content.get("protocol") != self.protocol:
            return {}
        return {row[self.key]: row for row in content.get("rows", [])}

    def write(self, name: str, split: int, rows: dict) -> None:
        path = self.path(name, split)
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps(dict(cache_version=_CACHE_VERSION,
                                             protocol=self.protocol, rows=list(rows.values())),
                                        indent=1))
        os.replace(temporary, path)


def _labelled(name, split, function, args, kwargs):
    return name, split, function(*args, **kwargs)


#: The parameters that end the docstring of a study's ``run``, written once
#: (:func:`pdtbook._docstrings.shared_sections`).
run_docstring = shared_sections(run_outputs="""\
out : path-like, optional
    CSV file to write (:func:`pdtbook.runner.write_results`).
progress : bool
    Show a tqdm progress bar over the splits.
report : dict, optional
    Filled as by :func:`pdtbook.runner.run_splits`.""")


def run_splits(names, splits, keys, task, *, key: str, cache: Cache | None = None,
               n_jobs=None, progress: bool = True, report: dict | None = None) -> dict:
    """The rows of every data set, split and key: the cached ones read back, the others
    computed in parallel, a split at a time.

    Parameters
    ----------
    names : list of str
    splits : list of int
    keys : list
        The values of the column ``key`` every split needs a row for.
    task : callable
        ``task(name, split, missing)`` returns the call that computes the rows of the keys
        ``missing`` on that split, as :func:`joblib.delayed` makes it
        (``delayed(function)(*args)``); the call returns one row (a dict) per key.
    key : str
        The column that tells a split's rows apart (``"method"``, ``"c"``).
    cache : Cache, optional
        Splits are read from it, and written to it as they finish.
    n_jobs : int, optional
        joblib's ``n_jobs``; by default that of the active ``joblib.parallel_config``.
    progress : bool
        Show a tqdm progress bar over the splits.
    report : dict, optional
        Filled with ``datasets`` (their number), ``splits`` (the number of (data set, split)
        pairs), ``computed`` (how many of them had rows to compute; the others came from the
        cache) and ``wall_seconds``.

    Returns
    -------
    dict
        ``{(name, split): {key value: row}}``.
    """
    start = time.perf_counter()
    done, todo = {}, []
    for name in names:
        for split in splits:
            done[name, split] = cache.read(name, split) if cache is not None else {}
            missing = [k for k in keys if k not in done[name, split]]
            if missing:
                todo.append((name, split, missing))
    bar = tqdm(total=len(done), initial=len(done) - len(todo), desc="splits",
               disable=not progress)
    if todo:
        calls = (delayed(_labelled)(name, split, *task(name, split, missing))
                 for name, split, missing in todo)
        for name, split, rows in Parallel(n_jobs=n_jobs, return_as="generator_unordered")(
                calls):
            done[name, split].update({row[key]: row for row in rows})
            if cache is not None:
                cache.write(name, split, done[name, split])
            bar.update()
    bar.close()
    if report is not None:
        report.update(datasets=len(names), splits=len(done), computed=len(todo),
                      wall_seconds=time.perf_counter() - start)
    return done


def write_results(rows, columns, out) -> None:
    """Write ``rows`` (dicts) as CSV with the columns ``columns`` (other keys are left out);
    floats in full precision (``repr``), so that :func:`read_results` reads them back
    exactly, and missing values as ``nan``."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({column: repr(row[column]) if isinstance(row[column], float)
                             else row[column] for column in columns})


def read_results(path):
    """Read a results CSV into a :class:`pandas.DataFrame` (the inverse of
    :func:`write_results`; :func:`pdtbook.results.read_results_csv` says how values are
    read). The committed tables are ``pdtbook.results.load_results(name)``."""
    return read_results_csv(path)


# ---------------------------------------------------------------------- command line
def command_line(prog: str, description: str, datasets: dict,
                 tables: str) -> argparse.ArgumentParser:
    """The options both runners take; a runner adds its own. ``tables`` says which result
    tables ``--out`` writes by default (:func:`parse_arguments`)."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("datasets", nargs="*", help=f"data set names: {', '.join(datasets)}")
    parser.add_argument("--all", action="store_true",
                        help="every data set (the UCI ones whose files are in --data)")
    parser.add_argument("--data", help="directory of the UCI files (default: $PRUNEKIT_DATA)")
    parser.add_argument("--splits", type=int, default=N_SPLITS,
                        help=f"random splits ({N_SPLITS})")
    parser.add_argument("--n-jobs", type=int,
                        help="parallel splits (joblib; default 1, or every Dask worker)")
    parser.add_argument("--dask-scheduler", metavar="ADDRESS",
                        help="run the splits on this Dask cluster (e.g. tcp://host:8786)")
    parser.add_argument("--cache", help="directory of per-split results")
    parser.add_argument("--out", help=f"CSV file to write (default: the table the book reads, "
                                      f"{tables})")
    return parser


def command_docstring(prog: str) -> Callable:
    """A decorator that documents a runner's ``main(argv=None) -> int``, the command ``prog``.

    Parameters
    ----------
    prog : str
        The command, e.g. ``"python -m pdtbook.study"``.

    Returns
    -------
    callable
        The decorator; it returns the function it decorates, with its docstring set.
    """
    def decorate(main: Callable) -> Callable:
        main.__doc__ = f"""The command line ``{prog}`` (``--help`` lists its options).

    Parameters
    ----------
    argv : list of str, optional
        The arguments; default ``sys.argv[1:]``.

    Returns
    -------
    int
        The exit status, 0 on success.
    """
        return main

    return decorate


def parse_arguments(parser: argparse.ArgumentParser, argv, table: Callable) -> argparse.Namespace:
    """The parsed command line; without ``--out``, the file of the result table
    ``table(args)`` (:func:`pdtbook.results.results_path`), which the book reads."""
    args = parser.parse_args(argv)
    if args.out is None:
        args.out = results_path(table(args))
    return args


def run_command(parser: argparse.ArgumentParser, args, datasets: dict, run) -> dict:
    """Run ``run(names, n_jobs=..., report=...)`` on the data sets the command line names
    (every available one with ``--all``), on the Dask cluster of ``--dask-scheduler`` when
    given; errors in the input end the program with argparse's message. Prints the wall
    time and returns the report of :func:`run_splits`."""
    names = available_datasets(datasets, args.data) if args.all else args.datasets
    report = {}
    start = time.perf_counter()
    try:
        if args.dask_scheduler:
            Client = require("distributed", "--dask-scheduler").Client
            with Client(args.dask_scheduler), parallel_config(backend="dask"):
                run(names, n_jobs=args.n_jobs, report=report)
        else:
            run(names, n_jobs=args.n_jobs or 1, report=report)
    except (ValueError, TypeError, FileNotFoundError, RuntimeError,
            ModuleNotFoundError) as error:
        parser.error(str(error))
    print(f"{len(names)} data sets in {time.perf_counter() - start:.0f} s (wall clock)",
          file=sys.stderr)
    return report


def write_run_record(args, report: dict, n_methods: int) -> bool:
    """Keep the wall time of a run from scratch next to its results.

    When the run of :func:`run_command` computed every split (none came from the cache),
    ``<out>_run.csv`` beside ``args.out`` gets one row: the numbers of data sets, splits
    and methods, the backend (``loky`` or ``dask``), ``n_jobs``, the machine's number of
    cores and the run's wall seconds. A run that read splits from the cache writes nothing.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line of a runner (:func:`command_line`).
    report : dict
        The report :func:`run_command` returned.
    n_methods : int
        The number of methods (or settings) run on every split.

    Returns
    -------
    bool
        Whether the record was written.
    """
    if not report or report["computed"] != report["splits"]:
        return False
    out = Path(args.out)
    record = dict(datasets=report["datasets"], splits=report["splits"], methods=n_methods,
                  backend="dask" if args.dask_scheduler else "loky",
                  n_jobs=args.n_jobs or (-1 if args.dask_scheduler else 1),
                  cpu_count=os.cpu_count(), wall_seconds=report["wall_seconds"])
    write_results([record], list(record), out.with_name(out.stem + "_run.csv"))
    return True
