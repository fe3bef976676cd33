"""The experiments of Section 6 of Kääriäinen, Malinen & Elomaa (2004), rerun (Chapter 7).

Protocol (Sec. 6.1 of the paper): for each data set and each of 10 random splits, 10 % of the
examples are set aside for testing and the rest is divided 2:1 into a growing and a pruning
set; an unpruned binary C4.5-type tree is grown on the growing set; it is pruned by REP and by
k-REP with k = floor(c x errors of the unpruned tree on the growing set), c = 1.1
(:func:`growing_error_budget`); each pruning gets
the Rademacher bound of Lemma 3, eq. (1), with one draw of the signs on the pruning set, and
the REP pruning the Occam's-razor comparison of Sec. 6.1 (d/4 bits for a d-node tree) and the
Occam bound with log2 of the exact number of prunings, which holds for every pruning;
delta = 0.01 throughout. LED 24-10 is
300,000 examples of :func:`prunekit.datasets.make_led24` with 10 % attribute noise.

The paper grows its trees with Weka's C4.5 (J48) with binary splits; here the grower is
scikit-learn's ``DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2,
random_state=split)`` on one-hot encoded nominal attributes, which also makes binary
"value versus the rest" splits. Split ``i`` draws its permutation, its tree's random state
and its Rademacher signs from the seed ``i``, so every row can be regenerated on its own.

The results of Chapter 7 were produced, from the repository's root, by::

    nice python -m prunekit.book.experiments --all --data ../shared/data/uci \\
        --out prunekit/data/kaariainen2004_reproduction.csv --cache /tmp/prunekit-cache --n-jobs 2

and the effect of c by::

    nice python -m prunekit.book.experiments adult letter --data ../shared/data/uci \\
        --c 1.0 1.1 1.2 1.3 1.4 1.5 1.75 2.0 --out prunekit/data/kaariainen2004_c_effect.csv \\
        --cache /tmp/prunekit-cache --n-jobs 2

Finished splits are stored as one small JSON file per (data set, c, delta, split) in the
cache directory, so an interrupted run resumes where it stopped. Splits run in parallel
through :mod:`joblib`; wrapping the call in ``joblib.parallel_backend("dask")`` (or ray's
backend) runs them on a cluster unchanged.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import numbers
import os
import sys
import time
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed
from sklearn.tree import DecisionTreeClassifier
from tqdm.auto import tqdm

from prunekit._validation import check_count, check_probability
from prunekit import bounds
from prunekit.datasets import UCI_DATASETS, load_uci, make_led24, results_path, uci_available
from prunekit.rademacher import (
    draw_signs, growing_errors_of_tree, k_reduced_error, rademacher_penalty,
)
from prunekit.reduced_error_pruning import reduced_error
from prunekit.tree import Pruning, Tree, count_prunings

__all__ = ["DELTA", "C", "N_SPLITS", "TEST_FRACTION", "LED_NAME", "LED_SAMPLES", "DATASETS",
           "COLUMNS", "growing_error_budget", "load_dataset", "available_datasets", "split_indices", "grow_unpruned",
           "run_split", "run_dataset", "run", "write_results", "read_results", "main"]

DELTA = 0.01            # Sec. 6.2: "In all bounds, we set delta = 0.01"
C = 1.1                 # Sec. 6.1: k = 1.1 x the growing errors of the unpruned tree
N_SPLITS = 10           # Sec. 6.2: "over 10 random splits"
TEST_FRACTION = 0.1     # Sec. 6.1: "10 percent of the data for testing", the rest 2:1
LED_NAME = "led24"
LED_SAMPLES = 300_000   # Sec. 6.1: "300,000 instances with 10 percent attribute noise"
LED_NOISE = 0.1
LED_SEED = 0
#: Every data set of the paper's Table 1, in its order: the UCI names and LED 24-10.
DATASETS = ("adult", "anneal", "census", "connect-4", "cover", "isolet", "krkopt", LED_NAME,
            "letter", "mushroom", "musk", "nursery", "optdigits", "page-blocks", "pendigits")
#: The columns of the results file, one row per (data set, c, split).
COLUMNS = ("dataset", "paper_name", "split", "c", "delta", "n_samples", "n_classes", "n_grow",
           "n_prune", "n_test", "unpruned_nodes", "unpruned_grow_errors", "unpruned_test_error",
           "k", "rep_nodes", "rep_prune_error", "rep_test_error", "rep_penalty", "rep_bound",
           "krep_nodes", "krep_prune_error", "krep_test_error", "krep_penalty", "krep_bound",
           "occam_bound", "log2_prunings", "occam_count_bound", "eta", "seconds")
_CACHE_VERSION = 2


# ---------------------------------------------------------------------- inputs
def _check_budget_factor(c) -> float:
    """k-REP's budget factor c of k = c x (growing errors of the unpruned tree): a real >= 1."""
    if isinstance(c, bool) or not isinstance(c, numbers.Real) or not np.isfinite(c):
        raise TypeError(f"c must be a real number, got {c!r}.")
    if c < 1:
        raise ValueError(
            f"c must be at least 1, got {c}: k = c x (growing errors of the unpruned tree), and "
            "no pruning makes fewer growing errors than the unpruned tree."
        )
    return float(c)


def growing_error_budget(grow_errors: int, c: float = C) -> int:
    """k-REP's budget: k = floor(c x growing errors of the unpruned tree), Sec. 4 and 6.1.

    Kääriäinen, Malinen & Elomaa (2004) keep the prunings that make "at most k mistakes" on
    the growing set, with k "1.1 times the training error of the unpruned tree". Mistakes
    are whole numbers, so "at most c e mistakes" is "at most floor(c e) mistakes": the floor
    gives exactly the paper's class, and the ceiling would admit prunings with more than
    c e mistakes. A tolerance of 1e-9 keeps a product that is a whole number in exact
    arithmetic from being rounded down by floating point.

    Parameters
    ----------
    grow_errors : int
        Mistakes of the unpruned tree on its growing set, at least 0.
    c : float, default 1.1
        At least 1.

    Returns
    -------
    int
    """
    grow_errors = check_count(grow_errors, "grow_errors")
    c = _check_budget_factor(c)
    return int(math.floor(c * grow_errors + 1e-9))


def _check_names(names) -> list[str]:
    if isinstance(names, str):
        names = [names]
    names = list(names)
    unknown = [name for name in names if name not in DATASETS]
    if unknown or not names:
        raise ValueError(
            f"unknown data set name(s) {unknown!r}; choose from {', '.join(DATASETS)}."
            if unknown else "give at least one data set name."
        )
    return names


def load_dataset(name: str, data_home=None):
    """The examples of one data set of Table 1: ``(X, y, paper_name)``, labels coded 0..K-1.

    ``"led24"`` is generated (300,000 examples, 10 % noise, seed 0); every other name is
    read by :func:`prunekit.datasets.load_uci` from ``data_home``.
    """
    _check_names([name])
    if name == LED_NAME:
        X, y = make_led24(LED_SAMPLES, noise=LED_NOISE, random_state=LED_SEED)
        return X.astype(np.float64), y, "LED 24-10"
    X, labels = load_uci(name, data_home)
    _, y = np.unique(labels, return_inverse=True)
    return X, y.astype(np.int64), UCI_DATASETS[name].paper_name


def available_datasets(data_home) -> list[str]:
    """The names of :data:`DATASETS` whose files are in ``data_home``, and LED 24-10."""
    return [name for name in DATASETS
            if name == LED_NAME or uci_available(name, data_home)]


# ---------------------------------------------------------------------- one split
def split_indices(n_samples: int, split: int):
    """Test, growing and pruning indices of split ``split`` (seeded by the split index).

    A random permutation; the first round(0.1 n) examples are the test set, and of the rest
    two thirds (rounded) are the growing set and the remainder the pruning set (Sec. 6.1).
    """
    n_samples = check_count(n_samples, "n_samples", minimum=10)
    split = check_count(split, "split")
    order = np.random.default_rng(split).permutation(n_samples)
    n_test = int(round(TEST_FRACTION * n_samples))
    n_grow = int(round(2 * (n_samples - n_test) / 3))
    return order[n_test:n_test + n_grow], order[n_test + n_grow:], order[:n_test]


def grow_unpruned(X_grow, y_grow, n_classes: int, split: int) -> Tree:
    """The unpruned tree: a binary C4.5-type tree, as a :class:`Tree` over all classes.

    scikit-learn's ``DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2)`` stands
    in for Weka's J48 without pruning. The tree's counts get one column per class of the
    whole data set (labels 0..n_classes-1), so that pruning and test examples of a class the
    growing set lacks are counted, and misclassified, like any other.
    """
    clf = DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2, random_state=split)
    clf.fit(X_grow, y_grow)
    return Tree.from_sklearn(clf, X_grow, y_grow, classes=np.arange(n_classes))


def run_split(X, y, split: int, *, c: float = C, delta: float = DELTA) -> dict:
    """One split of the protocol: the unpruned tree, REP and k-REP, and their bounds.

    Parameters
    ----------
    X : ndarray of shape (n, d)
    y : ndarray of int, labels 0..K-1
    split : int
        Split index; seeds the permutation, the tree and the Rademacher signs.
    c : float, default 1.1
        k = floor(c x growing errors of the unpruned tree), c >= 1.
    delta : float, default 0.01

    Returns
    -------
    dict
        The columns of :data:`COLUMNS` except the data set's names: sizes in nodes, error
        rates, the penalties R_m on the m pruning examples for one sign draw (the same signs for
        both classes), the Rademacher bounds eq. (1), the Occam comparison of Sec. 6.1 for the
        REP pruning (``occam_bound``: d/4 bits, d = nodes of the unpruned tree, optimistic and
        not a guarantee), log2 of the number of prunings of the unpruned tree
        (``log2_prunings``) and the Occam bound with that many bits, valid for every pruning
        (``occam_count_bound``, :func:`prunekit.bounds.occam_prunings`), and the wall time in
        seconds.
    """
    start = time.perf_counter()
    c, delta = _check_budget_factor(c), check_probability(delta, "delta")
    n_classes = int(y.max()) + 1
    grow, prune, test = split_indices(len(y), split)
    tree = grow_unpruned(X[grow], y[grow], n_classes, split)
    X_prune, y_prune = X[prune], y[prune]
    n = len(prune)
    prune_counts = tree.node_counts(X_prune, y_prune)
    test_counts = tree.node_counts(X[test], y[test])
    grow_errors = growing_errors_of_tree(tree)
    k = growing_error_budget(grow_errors, c)
    rep = reduced_error(tree, X_prune, y_prune)
    krep = k_reduced_error(tree, X_prune, y_prune, k)
    signs = draw_signs(n, split)
    row = dict(split=split, c=c, delta=delta, n_samples=len(y), n_classes=n_classes,
               n_grow=len(grow), n_prune=n, n_test=len(test), unpruned_nodes=tree.n_nodes,
               unpruned_grow_errors=grow_errors,
               unpruned_test_error=Pruning.full(tree).errors(test_counts) / len(test), k=k)
    for prefix, pruning, budget in (("rep", rep, None), ("krep", krep, k)):
        prune_error = pruning.errors(prune_counts) / n
        penalty = rademacher_penalty(tree, X_prune, y_prune, signs=signs, k=budget)
        row.update({f"{prefix}_nodes": pruning.n_nodes, f"{prefix}_prune_error": prune_error,
                    f"{prefix}_test_error": pruning.errors(test_counts) / len(test),
                    f"{prefix}_penalty": penalty,
                    f"{prefix}_bound": bounds.rademacher(prune_error, penalty, delta, n)})
    row["occam_bound"] = bounds.occam(row["rep_prune_error"], tree.n_nodes, delta, n)
    n_prunings = count_prunings(tree)                    # an exact Python integer
    row["log2_prunings"] = math.log2(n_prunings)
    row["occam_count_bound"] = bounds.occam_prunings(row["rep_prune_error"], n_prunings,
                                                     delta, n)
    row["eta"] = bounds.eta(delta, n)
    row["seconds"] = time.perf_counter() - start
    return row


# ---------------------------------------------------------------------- caching and running
def _cache_path(cache, name: str, c: float, delta: float, split: int) -> Path:
    return Path(cache) / name / f"c{c:g}_delta{delta:g}_split{split:02d}.json"


def _read_cache(path: Path, c: float, delta: float, split: int):
    try:
        row = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    ok = row.get("cache_version") == _CACHE_VERSION and row.get("c") == c \
        and row.get("delta") == delta and row.get("split") == split
    return row if ok else None


def _write_cache(path: Path, row: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(dict(row, cache_version=_CACHE_VERSION), indent=1))
    os.replace(temporary, path)                 # a killed run never leaves half a file


def run_dataset(name: str, X, y, paper_name: str, *, splits=N_SPLITS, c: float = C,
                delta: float = DELTA, cache=None, n_jobs: int = 1, progress: bool = True):
    """All splits of one data set, the cached ones read back, the others run in parallel.

    Parameters
    ----------
    name, paper_name : str
    X, y : arrays from :func:`load_dataset`
    splits : int or iterable of int
        Number of splits (0..splits-1) or the split indices.
    c, delta : float
    cache : path-like, optional
        Directory of per-split JSON files; finished splits are written as they arrive.
    n_jobs : int
        joblib's ``n_jobs`` (the active backend is used, e.g. inside
        ``joblib.parallel_backend("dask")``).
    progress : bool
        Show a tqdm progress bar.

    Returns
    -------
    list of dict, one row per split in split order, with the columns :data:`COLUMNS`.
    """
    c, delta = _check_budget_factor(c), check_probability(delta, "delta")
    splits = list(range(check_count(splits, "splits", minimum=1))) \
        if isinstance(splits, numbers.Integral) else [check_count(s, "split") for s in splits]
    rows = {}
    if cache is not None:
        for split in splits:
            cached = _read_cache(_cache_path(cache, name, c, delta, split), c, delta, split)
            if cached is not None:
                rows[split] = cached
    todo = [split for split in splits if split not in rows]
    bar = tqdm(total=len(splits), initial=len(rows), desc=name, disable=not progress,
               leave=False)
    if todo:
        jobs = Parallel(n_jobs=n_jobs, return_as="generator")(
            delayed(run_split)(X, y, split, c=c, delta=delta) for split in todo)
        for row in jobs:
            row = dict(row, dataset=name, paper_name=paper_name)
            if cache is not None:
                _write_cache(_cache_path(cache, name, c, delta, row["split"]), row)
            rows[row["split"]] = row
            bar.update()
    bar.close()
    return [{column: rows[split][column] for column in COLUMNS} for split in splits]


def run(names, data_home=None, *, splits=N_SPLITS, c_values=(C,), delta: float = DELTA,
        cache=None, n_jobs: int = 1, out=None, progress: bool = True):
    """Run the protocol on several data sets and values of c; optionally write a CSV.

    Returns
    -------
    list of dict, one row per (data set, c, split), in the order of ``names`` and ``c_values``.
    """
    names = _check_names(names)
    c_values = [_check_budget_factor(c) for c in np.atleast_1d(c_values).tolist()]
    delta = check_probability(delta, "delta")
    rows = []
    for name in tqdm(names, desc="data sets", disable=not progress):
        X, y, paper_name = load_dataset(name, data_home)
        for c in c_values:
            rows += run_dataset(name, X, y, paper_name, splits=splits, c=c, delta=delta,
                                cache=cache, n_jobs=n_jobs, progress=progress)
    if out is not None:
        write_results(rows, out)
    return rows


def write_results(rows, out) -> None:
    """Write rows as CSV with the columns :data:`COLUMNS`; floats in full precision."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: repr(v) if isinstance(v, float) else v for k, v in row.items()})


def read_results(path) -> list[dict]:
    """Read a results CSV back, numbers as int or float (the inverse of :func:`write_results`)."""
    def convert(value):
        for kind in (int, float):
            try:
                return kind(value)
            except ValueError:
                pass
        return value
    with open(path, newline="") as handle:
        return [{k: convert(v) for k, v in row.items()} for row in csv.DictReader(handle)]


# ---------------------------------------------------------------------- command line
def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m prunekit.book.experiments",
        description="Rerun Sec. 6 of Kääriäinen, Malinen & Elomaa (2004): REP and k-REP "
                    "prunings, their Rademacher bounds and the Occam bounds.")
    parser.add_argument("datasets", nargs="*", help=f"data set names: {', '.join(DATASETS)}")
    parser.add_argument("--all", action="store_true",
                        help="every data set whose files are in --data, and LED 24-10")
    parser.add_argument("--data", default=None,
                        help="directory of the UCI files (default: $PRUNEKIT_DATA)")
    parser.add_argument("--splits", type=int, default=N_SPLITS, help="random splits (10)")
    parser.add_argument("--c", type=float, nargs="+", default=[C], help="k = c x growing errors")
    parser.add_argument("--delta", type=float, default=DELTA, help="confidence parameter")
    parser.add_argument("--n-jobs", type=int, default=1, help="parallel splits (joblib)")
    parser.add_argument("--cache", default=None, help="directory of per-split results")
    parser.add_argument("--out", default=None,
                        help="CSV file to write (default: the table the book reads, "
                             "prunekit/data/kaariainen2004_reproduction.csv, or "
                             "kaariainen2004_c_effect.csv there when --c is given)")
    return parser


def main(argv=None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.all:
        home = args.data or os.environ.get("PRUNEKIT_DATA")
        if not home:
            parser.error("--all needs --data or $PRUNEKIT_DATA")
        names = available_datasets(home)
    else:
        names = args.datasets
    if args.out is None:
        args.out = results_path("kaariainen2004_reproduction" if args.c == [C]
                                else "kaariainen2004_c_effect")
    try:
        run(names, args.data, splits=args.splits, c_values=args.c, delta=args.delta,
            cache=args.cache, n_jobs=args.n_jobs, out=args.out)
    except (ValueError, TypeError, FileNotFoundError) as error:
        parser.error(str(error))
    return 0


if __name__ == "__main__":
    sys.exit(main())
