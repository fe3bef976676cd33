"""Optimal trees against greedy growth and pruning, on the book's data sets (Chapter 10).

Pruning minimises cost complexity R_alpha(T) = R(T) + alpha |T~| over the prunings of one
greedily grown tree (Breiman et al. 1984); :func:`prunekit.optimal_tree` minimises the same
R_alpha over *every* tree of bounded depth on the same binary features (van der Linden et
al. 2023, STreeD). This runner measures the gap between the two, and what closing it costs.

The comparison on one split (seeded by its index ``i``)
-------------------------------------------------------
1. The examples are permuted as in Chapter 9 (:func:`pdtbook.runner.split_indices`
   with the study's test fraction, at most :data:`GAP_MAX_TRAIN` training and
   :data:`GAP_MAX_TEST` test examples).
2. The training part is binarised once, :func:`prunekit.binarize` with at most
   :data:`GAP_MAX_THRESHOLDS` thresholds per feature; both contestants see these binary
   features only.
3. For every depth D of :data:`GAP_DEPTHS` and every alpha of :data:`GAP_ALPHAS` (objective
   ``"error"``): *greedy* is ``DecisionTreeClassifier(criterion="entropy", max_depth=D,
   random_state=i)`` grown on the binary features and pruned by
   :func:`prunekit.cost_complexity` at alpha (the pruning of smallest R_alpha);
   *optimal* is :func:`prunekit.optimal_tree` with STreeD, ``time_limit``
   :data:`GAP_TIME_LIMIT` seconds.
4. For every depth of :data:`GAP_PESSIMISTIC_DEPTHS` (objective ``"pessimistic"``, C4.5's
   estimated errors at CF = 0.25, alpha = 0): *greedy* is the same tree pruned by
   :func:`prunekit.error_based` (J48's EBP without raising); *optimal* is
   :func:`prunekit.optimal_tree` with ``solver="dp"``, the same time limit.
5. Each row holds both objectives (:func:`prunekit.penalized_risk`, in the same units),
   training and test errors, leaves, the CPU seconds of growing and pruning and the CPU and
   wall-clock seconds of the solver, and log2 of the number of prunings of the greedy tree
   (the class pruning searches). A solve that does not prove its tree optimal in time is
   recorded with ``status="timeout"``; STreeD's best tree found by then is scored in the
   ``optimal_*`` columns all the same (not proven optimal; the dynamic program keeps no
   tree, so its columns stay empty). The deeper solves of the same objective and alpha on
   that split are not tried (``status="skipped"``).

:func:`solver_times` measures STreeD's time as the depth grows, one split, until a solve
does not finish within :data:`CURVE_TIME_LIMIT` seconds. :func:`ablation` switches STreeD's
bounds and depth-two solver off one at a time, and the dynamic program's leaf bound, on the
same problems, and records the work (STreeD's calls of its depth-two solver, the dynamic
program's subproblems) and the seconds.

The solvers' time limits are on the wall clock. So that a limit means the same CPU time for
every solve, the tables are produced with at most one solve per core (``--n-jobs 2`` on two
cores) at a higher scheduling priority than anything else on the machine, and every row
records both the CPU and the wall-clock seconds: where they are close, the solve had its core
to itself.

The results of Chapter 10 were produced, from the repository's root, on a two-core machine,
by::

    python -m pdtbook.optimal_study --all --data ../shared/data/uci \\
        --cache /tmp/prunekit-optimal --n-jobs 2
    python -m pdtbook.optimal_study --curve breast-cancer led24
    python -m pdtbook.optimal_study --ablation --data ../shared/data/uci

(the last two side by side, one process each), which write ``optimal_gap.csv``,
``optimal_times.csv`` and ``optimal_ablation.csv`` in ``prunekit/data``. Splits are cached, run
in parallel and written as in Chapter 9's study (:mod:`pdtbook.runner`).
"""

from __future__ import annotations

import contextlib
import io
import math
import os
import re
import sys
import tempfile
import time
from functools import partial

import numpy as np
from joblib import delayed
from tqdm.auto import tqdm
from sklearn.tree import DecisionTreeClassifier

from prunekit.validation import check_count, check_real
from prunekit.cost_complexity_pruning import cost_complexity
from prunekit.error_based_pruning import error_based
from prunekit.optimal import (
    OutOfTimeError, binarize, dynamic_program_optimal_tree, optimal_tree, penalized_risk,
)
from prunekit.tree import Tree, count_prunings

from pdtbook.runner import (
    Cache, check_keys, check_splits, command_docstring, command_line, load_dataset,
    parse_arguments, run_command, run_splits, split_indices, write_results,
)
from pdtbook.study import STUDY_DATASETS, STUDY_TEST_FRACTION

__all__ = ["GAP_DATASETS", "GAP_DEPTHS", "GAP_ALPHAS", "GAP_PESSIMISTIC_DEPTHS",
           "GAP_CONFIDENCE", "GAP_MAX_THRESHOLDS", "GAP_TIME_LIMIT", "GAP_MAX_TRAIN",
           "GAP_MAX_TEST", "GAP_SPLITS", "GAP_COLUMNS",
           "GAP_DETERMINISTIC_COLUMNS", "CURVE_DEPTHS", "CURVE_ALPHA", "CURVE_TIME_LIMIT",
           "CURVE_COLUMNS", "ABLATION_CASES", "ABLATION_SWITCHES", "ABLATION_TIME_LIMIT",
           "ABLATION_REPEATS",
           "ABLATION_COLUMNS", "settings", "run_split", "run", "solver_times", "ablation",
           "main"]

#: The data sets of the comparison, keys of :data:`pdtbook.study.STUDY_DATASETS`:
#: six UCI sets of Chapter 7, breast cancer, LED 24-10 and two members of the synthetic DNF
#: family.
GAP_DATASETS = ("breast-cancer", "mushroom", "nursery", "page-blocks", "pendigits",
                    "adult", "led24", "dnf-m1000-noise0.1", "dnf-m1000-noise0.2")
#: Depths of the error objective.
GAP_DEPTHS = (2, 3, 4)
#: Costs per leaf of the error objective.
GAP_ALPHAS = (0.001, 0.005, 0.02)
#: Depths of the pessimistic objective (the pure-Python dynamic program).
GAP_PESSIMISTIC_DEPTHS = (2, 3)
#: C4.5's CF of the pessimistic objective (J48's default).
GAP_CONFIDENCE = 0.25
#: Thresholds per feature kept by the binarisation.
GAP_MAX_THRESHOLDS = 8
#: Seconds per solve.
GAP_TIME_LIMIT = 20.0
#: Training and test examples per split at most.
GAP_MAX_TRAIN = 2000
GAP_MAX_TEST = 5000
#: Random splits per data set.
GAP_SPLITS = 5
#: The columns of ``optimal_gap.csv``, one row per (data set, split, setting).
GAP_COLUMNS = ("dataset", "group", "split", "setting", "risk", "max_depth", "alpha",
               "n_train", "n_test", "n_binary", "n_classes", "status", "greedy_risk",
               "optimal_risk", "greedy_train_error", "optimal_train_error", "greedy_test_error",
               "optimal_test_error", "greedy_leaves", "optimal_leaves",
               "greedy_log2_prunings", "greedy_seconds", "optimal_seconds",
               "optimal_wall_seconds")
#: The columns a rerun reproduces exactly (all but the times; the status and the scores of
#: a best tree found too, where no solve is near its time limit).
GAP_DETERMINISTIC_COLUMNS = GAP_COLUMNS[:-3]
#: Depths of the solver-time curve.
CURVE_DEPTHS = (1, 2, 3, 4, 5, 6)
CURVE_ALPHA = 0.005
CURVE_TIME_LIMIT = 600.0
#: The columns of ``optimal_times.csv``, one row per (data set, depth).
CURVE_COLUMNS = ("dataset", "max_depth", "alpha", "n_train", "n_binary", "status",
                 "optimal_risk", "optimal_leaves", "seconds", "wall_seconds", "time_limit")
#: The problems of the ablation, (solver, data set, depth, alpha), split 0: STreeD where it
#: needs about a second with every bound on; the dynamic program at depth 4 and two alphas
#: (its leaf bound fires only on branches with at most alpha m errors).
ABLATION_CASES = (("streed", "breast-cancer", 3, 0.005), ("streed", "nursery", 4, 0.005),
                  ("streed", "led24", 4, 0.005), ("dp", "nursery", 4, 0.005),
                  ("dp", "nursery", 4, 0.02), ("dp", "led24", 4, 0.005),
                  ("dp", "led24", 4, 0.02), ("dp", "dnf-m1000-noise0.1", 4, 0.005),
                  ("dp", "dnf-m1000-noise0.1", 4, 0.02))
#: What is switched off, one at a time ("none": everything on). STreeD's switches are
#: pystreed's parameters; "leaf_bound" is :func:`prunekit.optimal.dynamic_program_optimal_tree`'s.
ABLATION_SWITCHES = {"streed": ("none", "use_lower_bound", "use_upper_bound",
                                "use_similarity_lower_bound", "use_task_lower_bound",
                                "use_terminal_solver"),
                     "dp": ("none", "leaf_bound")}
#: Seconds per solve of the ablation.
ABLATION_TIME_LIMIT = 120.0
#: Runs of each solve of the ablation (the median seconds are kept; a time-out is not rerun).
ABLATION_REPEATS = 3
#: The columns of ``optimal_ablation.csv``, one row per (case, switch).
ABLATION_COLUMNS = ("solver", "dataset", "max_depth", "alpha", "n_train", "n_binary",
                    "switched_off", "status", "optimal_risk", "work", "seconds",
                    "wall_seconds", "time_limit")


def settings(depths=GAP_DEPTHS, alphas=GAP_ALPHAS,
             pessimistic_depths=GAP_PESSIMISTIC_DEPTHS) -> list:
    """The settings of one split, ``"error/D/alpha"`` and ``"pessimistic/D/0"``, shallow first
    (the keys of the cache and of the column ``setting``)."""
    return ([f"error/{d}/{a:g}" for d in depths for a in alphas]
            + [f"pessimistic/{d}/0" for d in pessimistic_depths])


def _parse(setting: str):
    risk, depth, alpha = setting.split("/")
    return risk, int(depth), float(alpha)


def _check_names(names) -> list[str]:
    return check_keys(names, list(STUDY_DATASETS), "data set name")


# ---------------------------------------------------------------------- one split
def _greedy(B, y, n_classes, depth, split):
    """The entropy tree of depth <= ``depth`` on the binary features, over all classes."""
    clf = DecisionTreeClassifier(criterion="entropy", max_depth=depth, random_state=split)
    return Tree.from_sklearn(clf.fit(B, y), B, y, classes=np.arange(n_classes))


def _error_rate(model, X, y) -> float:
    return float(np.mean(model.predict(X) != y))


def _greedy_columns(data, split, risk, depth, alpha) -> dict:
    """Greedy growth to ``depth`` on the binary features, then the pruner of ``risk``."""
    B, y, B_test, y_test, n_classes = data["B"], data["y"], data["B_test"], \
        data["y_test"], data["n_classes"]
    start = time.process_time()
    tree = _greedy(B, y, n_classes, depth, split)
    pruning = (cost_complexity(tree, alpha) if risk == "error"
               else error_based(tree, GAP_CONFIDENCE))
    seconds = time.process_time() - start
    return dict(greedy_risk=penalized_risk(pruning, alpha, risk=risk),
                greedy_train_error=_error_rate(pruning, B, y),
                greedy_test_error=_error_rate(pruning, B_test, y_test),
                greedy_leaves=pruning.n_leaves,
                greedy_log2_prunings=math.log2(count_prunings(tree)),
                greedy_seconds=seconds)


def _optimal_columns(data, risk, depth, alpha, time_limit) -> dict:
    """The optimal tree on the same binary features, or ``status="timeout"`` with STreeD's
    best tree found, when there is one; CPU and wall seconds (the solvers' time limits are
    on the wall clock)."""
    start, wall = time.process_time(), time.perf_counter()
    status = "optimal"
    try:
        tree = optimal_tree(data["X"], data["y"], max_depth=depth, alpha=alpha,
                            risk=risk,
                            solver="streed" if risk == "error" else "dp",
                            time_limit=time_limit, confidence=GAP_CONFIDENCE,
                            binarization=data["binarization"])
    except OutOfTimeError as error:
        status, tree = "timeout", error.tree
    row = dict(status=status, optimal_seconds=time.process_time() - start,
               optimal_wall_seconds=time.perf_counter() - wall)
    if tree is not None:
        row.update(optimal_risk=penalized_risk(tree, alpha, risk=risk),
                   optimal_train_error=_error_rate(tree, data["X"], data["y"]),
                   optimal_test_error=_error_rate(tree, data["X_test"], data["y_test"]),
                   optimal_leaves=tree.n_leaves)
    return row


def run_split(X_train, y_train, X_test, y_test, n_classes: int, split: int,
              keys=None, *, time_limit: float = GAP_TIME_LIMIT) -> list[dict]:
    """Every setting of one split: greedy growth and pruning against the optimal tree.

    Parameters
    ----------
    X_train, y_train, X_test, y_test : ndarray
        The split's training and test parts (labels coded 0..n_classes-1).
    n_classes : int
        Classes of the whole data set.
    split : int
        Seeds the greedy tree (``random_state``).
    keys : list of str, optional
        Settings of :func:`settings` (default all), run shallow first; once a solve times
        out, the deeper ones of the same objective and alpha are skipped.
    time_limit : float
        Seconds per solve.

    Returns
    -------
    list of dict
        One row per setting, with the columns of :data:`GAP_COLUMNS` except the data set's.
    """
    keys = settings() if keys is None else list(keys)
    binarization = binarize(X_train, max_thresholds=GAP_MAX_THRESHOLDS)
    data = dict(X=X_train, y=y_train, X_test=X_test, y_test=y_test, n_classes=n_classes,
                binarization=binarization, B=binarization.transform(X_train),
                B_test=binarization.transform(X_test))
    timed_out, rows = set(), []
    for setting in sorted(keys, key=lambda key: _parse(key)[1]):
        risk, depth, alpha = _parse(setting)
        row = dict(setting=setting, risk=risk, max_depth=depth, alpha=alpha,
                   split=split, n_train=len(y_train), n_test=len(y_test),
                   n_binary=binarization.n_binary, n_classes=n_classes,
                   status="skipped", optimal_risk=math.nan,
                   optimal_train_error=math.nan, optimal_test_error=math.nan,
                   optimal_leaves=-1, optimal_seconds=math.nan,
                   optimal_wall_seconds=math.nan)
        row.update(_greedy_columns(data, split, risk, depth, alpha))
        if (risk, alpha) not in timed_out:
            row.update(_optimal_columns(data, risk, depth, alpha, time_limit))
        if row["status"] != "optimal":
            timed_out.add((risk, alpha))
        rows.append(row)
    return rows


# ---------------------------------------------------------------------- running
def _split_data(names, data_home):
    return {name: load_dataset(STUDY_DATASETS[name], data_home) for name in names}


def _train_test(X, y, split):
    train, test, _ = split_indices(len(y), split, STUDY_TEST_FRACTION, GAP_MAX_TRAIN,
                                   GAP_MAX_TEST)
    return X[train], y[train], X[test], y[test]


def run(names, data_home=None, *, splits=GAP_SPLITS, keys=None, cache=None,
        n_jobs=None, out=None, progress: bool = True, report: dict | None = None,
        time_limit: float = GAP_TIME_LIMIT) -> list[dict]:
    """Run the comparison on several data sets; optionally write a CSV.

    Parameters
    ----------
    names : str or list of str
        Keys of :data:`pdtbook.study.STUDY_DATASETS` (the book's are
        :data:`GAP_DATASETS`).
    data_home : path-like, optional
        Directory of the UCI files (default ``$PRUNEKIT_DATA``).
    splits : int or iterable of int, default 3
        Number of splits (0..splits-1) or the split indices.
    keys : list of str, optional
        Settings (:func:`settings`); default all.
    cache : path-like, optional
        Directory of per-split JSON files (:class:`pdtbook.runner.Cache`).
    n_jobs : int, optional
        joblib's ``n_jobs``.
    out : path-like, optional
        CSV file to write (:func:`pdtbook.runner.write_results`).
    progress : bool
        Show a progress bar over the splits.
    report : dict, optional
        Filled as by :func:`pdtbook.runner.run_splits`.
    time_limit : float
        Seconds per solve.

    Returns
    -------
    list of dict
        One row per (data set, split, setting), with the columns :data:`GAP_COLUMNS`.
    """
    names = _check_names(names)
    splits = check_splits(splits)
    keys = settings() if keys is None else list(keys)
    data = _split_data(names, data_home)
    protocol = dict(runner="optimal", max_train=GAP_MAX_TRAIN, max_test=GAP_MAX_TEST,
                    max_thresholds=GAP_MAX_THRESHOLDS, time_limit=time_limit,
                    confidence=GAP_CONFIDENCE, test_fraction=STUDY_TEST_FRACTION)

    def task(name, split, missing):
        X, y = data[name]
        return delayed(run_split)(*_train_test(X, y, split), int(y.max()) + 1, split, keys,
                                  time_limit=time_limit)

    done = run_splits(names, splits, keys, task, key="setting",
                      cache=None if cache is None else Cache(cache, protocol, key="setting"),
                      n_jobs=n_jobs, progress=progress, report=report)
    rows = [dict(done[name, split][key], dataset=name, group=STUDY_DATASETS[name].group)
            for name in names for split in splits for key in keys]
    rows = [{column: row[column] for column in GAP_COLUMNS} for row in rows]
    if out is not None:
        write_results(rows, GAP_COLUMNS, out)
    return rows


def solver_times(names, data_home=None, *, depths=CURVE_DEPTHS, alpha=CURVE_ALPHA,
                 time_limit=CURVE_TIME_LIMIT, out=None) -> list[dict]:
    """STreeD's CPU and wall seconds as the depth grows, on split 0 of each data set.

    The depths are tried in increasing order until a solve does not finish within
    ``time_limit`` seconds; that depth is recorded with ``status="timeout"`` and the deeper
    ones are not tried.

    Parameters
    ----------
    names : str or list of str
        Keys of :data:`pdtbook.study.STUDY_DATASETS`.
    data_home : path-like, optional
    depths : sequence of int
    alpha : float
    time_limit : float
    out : path-like, optional
        CSV file to write.

    Returns
    -------
    list of dict
        One row per (data set, depth tried), with the columns :data:`CURVE_COLUMNS`.
    """
    names = _check_names(names)
    depths = [check_count(depth, "depth") for depth in depths]
    rows = []
    for name, (X, y) in _split_data(names, data_home).items():
        X_train, y_train, X_test, y_test = _train_test(X, y, 0)
        data = dict(X=X_train, y=y_train, X_test=X_test, y_test=y_test,
                    binarization=binarize(X_train, max_thresholds=GAP_MAX_THRESHOLDS))
        for depth in depths:
            result = _optimal_columns(data, "error", depth, alpha, time_limit)
            rows.append(dict(dataset=name, max_depth=depth, alpha=alpha,
                             n_train=len(y_train), n_binary=data["binarization"].n_binary,
                             status=result["status"],
                             optimal_risk=result.get("optimal_risk", math.nan),
                             optimal_leaves=result.get("optimal_leaves", -1),
                             seconds=result["optimal_seconds"],
                             wall_seconds=result["optimal_wall_seconds"],
                             time_limit=time_limit))
            if result["status"] != "optimal":
                break
    if out is not None:
        write_results(rows, CURVE_COLUMNS, out)
    return rows


# ---------------------------------------------------------------------- ablation
def _native_output(function):
    """``function()``'s result and what it printed meanwhile, through Python's
    ``sys.stdout`` or straight on file descriptor 1 (pystreed's C++ statistics take one
    way or the other depending on how its output is redirected)."""
    sys.stdout.flush()
    saved = os.dup(1)
    with tempfile.TemporaryFile(mode="w+b") as capture, \
            contextlib.redirect_stdout(io.StringIO()) as python_side:
        os.dup2(capture.fileno(), 1)
        try:
            result = function()
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        capture.seek(0)
        return result, python_side.getvalue() + capture.read().decode(errors="replace")


def _streed_switched_off(B, y, depth, alpha, switch, time_limit) -> dict:
    """STreeD on (B, y) with ``switch`` (a pystreed parameter) off: status, R_alpha of the
    tree found, the calls of its depth-two solver, CPU and wall seconds."""
    from pystreed import STreeDClassifier

    options = {} if switch == "none" else {switch: False}
    solver = STreeDClassifier("cost-complex-accuracy", max_depth=depth, cost_complexity=alpha,
                              time_limit=time_limit, random_seed=0, verbose=True, **options)
    start, wall = time.process_time(), time.perf_counter()
    _, printed = _native_output(lambda: solver.fit(B, y))
    seconds, wall = time.process_time() - start, time.perf_counter() - wall
    calls = re.search(r"Terminal calls: (\d+)", printed)
    errors = float(np.sum(solver.predict(B) != y))
    leaves = solver.fit_result.tree_nodes() + 1       # branch nodes + 1
    return dict(status="optimal" if solver.fit_result.is_optimal() else "timeout",
                optimal_risk=errors / len(y) + alpha * leaves,
                work=int(calls.group(1)) if calls else -1, seconds=seconds, wall_seconds=wall)


def _dp_switched_off(B, y, depth, alpha, switch, time_limit) -> dict:
    """The dynamic program with or without its leaf bound: status, R_alpha, the pairs
    (subset, depth) it solved, CPU and wall seconds."""
    report = {}
    start, wall = time.process_time(), time.perf_counter()
    try:
        tree = dynamic_program_optimal_tree(B, y, max_depth=depth, alpha=alpha,
                                            time_limit=time_limit, report=report,
                                            leaf_bound=switch != "leaf_bound")
    except OutOfTimeError:
        tree = None
    return dict(status="timeout" if tree is None else "optimal",
                optimal_risk=math.nan if tree is None else penalized_risk(tree, alpha),
                work=report.get("subproblems", -1), seconds=time.process_time() - start,
                wall_seconds=time.perf_counter() - wall)


_SWITCHED_OFF = {"streed": _streed_switched_off, "dp": _dp_switched_off}


def ablation(data_home=None, *, cases=ABLATION_CASES, time_limit=ABLATION_TIME_LIMIT,
             repeats=ABLATION_REPEATS, out=None, progress: bool = True) -> list[dict]:
    """What each of the solvers' bounds saves: every switch of :data:`ABLATION_SWITCHES` off
    in turn, on the same problems.

    Each case is split 0 of a data set, binarised as in the gap (:data:`GAP_MAX_THRESHOLDS`
    thresholds per feature), with the error objective at the case's alpha. The value found
    must not change (a bound only prunes the search); the work and the seconds do. The work is
    STreeD's number of calls of its depth-two solver (``verbose`` statistics; 0 with the
    solver off) or the dynamic program's number of subproblems (subset, depth). Each solve
    runs ``repeats`` times, and the median CPU and wall seconds are kept (the times of solves
    under a second vary by a tenth or more from run to run); a time-out is run once.

    Parameters
    ----------
    data_home : path-like, optional
    cases : sequence of (solver, data set, depth, alpha)
    time_limit : float
        Wall-clock seconds per solve.
    repeats : int
        Runs of each solve.
    out : path-like, optional
        CSV file to write.
    progress : bool
        Show a progress bar over the solves.

    Returns
    -------
    list of dict
        One row per (case, switch), with the columns :data:`ABLATION_COLUMNS`.
    """
    repeats = check_count(repeats, "repeats", minimum=1)
    cases = [(check_keys([solver], list(_SWITCHED_OFF), "solver")[0], name,
              check_count(depth, "depth"), check_real(alpha, "alpha", minimum=0))
             for solver, name, depth, alpha in cases]
    names = sorted({case[1] for case in cases})
    problems = {}                 # data set -> split 0's binarisation, binary features, labels
    for name, (X, y) in _split_data(_check_names(names), data_home).items():
        X_train, y_train, _, _ = _train_test(X, y, 0)
        binarization = binarize(X_train, max_thresholds=GAP_MAX_THRESHOLDS)
        problems[name] = binarization, binarization.transform(X_train), y_train
    jobs = [(*case, switch) for case in cases for switch in ABLATION_SWITCHES[case[0]]]
    rows = []
    for solver, name, depth, alpha, switch in tqdm(jobs, disable=not progress,
                                                   desc="ablation"):
        binarization, B, y_train = problems[name]
        runs = [_SWITCHED_OFF[solver](B, y_train, depth, alpha, switch, time_limit)]
        while runs[0]["status"] == "optimal" and len(runs) < repeats:
            runs.append(_SWITCHED_OFF[solver](B, y_train, depth, alpha, switch, time_limit))
        result = dict(runs[0], seconds=float(np.median([r["seconds"] for r in runs])),
                      wall_seconds=float(np.median([r["wall_seconds"] for r in runs])))
        rows.append(dict(solver=solver, dataset=name, max_depth=depth, alpha=alpha,
                         n_train=len(y_train), n_binary=binarization.n_binary,
                         switched_off=switch, time_limit=time_limit, **result))
    if out is not None:
        write_results(rows, ABLATION_COLUMNS, out)
    return rows


# ---------------------------------------------------------------------- command line
# --all: the book's data sets whose files are present
_BOOK_DATASETS = {name: STUDY_DATASETS[name] for name in GAP_DATASETS}


def _parser():
    parser = command_line(
        "python -m pdtbook.optimal_study",
        "Optimal trees (STreeD, a dynamic program) against greedy growth and pruning on the "
        "same binary features (Chapter 10).", STUDY_DATASETS,
        "prunekit/data/optimal_gap.csv, or optimal_times.csv there with --curve, "
        "optimal_ablation.csv with --ablation")
    parser.set_defaults(splits=GAP_SPLITS)
    parser.add_argument("--curve", action="store_true",
                        help="STreeD's seconds as the depth grows, instead of the gap")
    parser.add_argument("--ablation", action="store_true",
                        help="each bound of the solvers switched off in turn, on the problems "
                             "of ABLATION_CASES (no data set names)")
    parser.add_argument("--time-limit", type=float,
                        help=f"seconds per solve ({GAP_TIME_LIMIT:g}; {CURVE_TIME_LIMIT:g} "
                             f"with --curve, {ABLATION_TIME_LIMIT:g} with --ablation)")
    return parser


@command_docstring("python -m pdtbook.optimal_study")
def main(argv=None) -> int:
    parser = _parser()
    args = parse_arguments(parser, argv, lambda args: (
        "optimal_times" if args.curve else "optimal_ablation" if args.ablation
        else "optimal_gap"))
    if args.ablation:
        if args.datasets or args.all or args.curve:
            parser.error("--ablation runs the problems of ABLATION_CASES: give no data set "
                         "names, --all or --curve with it.")
        ablation(args.data, out=args.out, time_limit=args.time_limit or ABLATION_TIME_LIMIT)
        return 0
    if args.curve:
        run_command(parser, args, _BOOK_DATASETS,
                    lambda names, **_: solver_times(
                        names, args.data, out=args.out,
                        time_limit=args.time_limit or CURVE_TIME_LIMIT))
        return 0
    run_command(parser, args, _BOOK_DATASETS,
                partial(run, data_home=args.data, splits=args.splits, cache=args.cache,
                        out=args.out, time_limit=args.time_limit or GAP_TIME_LIMIT))
    return 0


if __name__ == "__main__":
    # Run the importable module's main, so that joblib's workers find the tasks by name.
    from pdtbook import optimal_study

    sys.exit(optimal_study.main())
