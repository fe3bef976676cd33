"""Which pruner? Every pruning method of the book on the same splits of many data sets (Chapter 9).

The study compares the pruners of Chapters 2-8 with each other and with the alternatives a
practitioner reaches for (scikit-learn's ``ccp_alpha`` tuned by ``GridSearchCV``, a depth limit
tuned by cross-validation, hierarchical shrinkage, a random forest) and with an optimal tree
of bounded depth (Chapter 10), in the spirit of Esposito, Malerba & Semeraro (1997), and
analyses the results as Demšar (2006) recommends: average ranks, the Friedman test, the
Nemenyi post-hoc test and its critical-difference diagram.

Protocol (one *split*, seeded by its index ``i``)
-------------------------------------------------
1. Permute the examples with ``numpy.random.default_rng(i)``. The first
   ``round(STUDY_TEST_FRACTION * n)`` examples form the test part (at most :data:`MAX_TEST` of
   them are used), the others the training part (at most :data:`MAX_TRAIN` of them are used)
   (:func:`pdtbook.runner.split_indices`).
2. Methods that prune with a separate sample (cost-complexity on a hold-out set, REP, k-REP,
   Nobel's independent-sample penalty, critical-value pruning) grow their tree on the first
   two thirds of the training part and prune with the last third; every other method grows
   (and tunes, by cross-validation when it tunes anything) on the whole training part. So every
   method sees the same examples.
3. Every tree is grown by ``DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2,
   random_state=i)``, the grower of Chapter 7; cross-validation folds are stratified and
   shuffled with the seed ``i``.
4. Each method's test error, number of leaves and nodes, depth, and the CPU time of growing and
   of pruning (its tuning included) are recorded.

The optimal tree (``"optimal-cv"``, Chapter 10) is not grown greedily: on the training part,
:func:`prunekit.optimal_tree` (STreeD) finds a tree of smallest R_alpha among all trees of depth
at most :data:`OPT_DEPTHS` on :data:`OPT_THRESHOLDS` thresholds per feature, with the depth limit
and alpha chosen by :data:`OPT_FOLDS`-fold cross-validation over :data:`OPT_DEPTHS` x
:data:`OPT_ALPHAS`. Every fit may take :data:`OPT_TIME_LIMIT` seconds of wall-clock time; STreeD
returns no tree it has not proved optimal, so a fit that runs out drops its depth limit (and
the deeper ones) from the grid, and a refit that runs out falls back to the next candidate
(``_optimal_cv``). The limit is wall-clock time, so on a heavily loaded machine more fits
run out than on an idle one: its rows were therefore computed with every fit on a core of its
own (at most one process per core, at a higher scheduling priority than anything else on the
machine). The cache keeps the number of fits that ran out and the depth limit chosen
(``out_of_time``, ``depth_limit``) for every split.

The results of Chapter 9 were produced, from the repository's root, by::

    nice python -m pdtbook.study --all --data ../shared/data/uci \\
        --out prunekit/data/study.csv --cache /tmp/prunekit-study --n-jobs 2

and the optimal tree's rows replaced by those of::

    python -m pdtbook.study --all --data ../shared/data/uci \\
        --methods optimal-cv --out /tmp/optimal-cv.csv \\
        --cache /tmp/prunekit-optimal-cv --n-jobs 2

Finished splits are cached as one JSON file per (data set, split), with one row per method,
so an interrupted run resumes, and a method added later is run on the cached splits alone.
Splits run in parallel through :mod:`joblib`; ``--dask-scheduler ADDRESS`` runs the same
code on a Dask cluster through joblib's ``dask`` backend (:mod:`pdtbook.runner`, which
the rerun of Chapter 7 shares). The chapter's figures of the results are in
:mod:`pdtbook.figures.ch09`; R's rpart is compared in :mod:`pdtbook.rpart`.
"""

from __future__ import annotations

import math
import sys
import time
import warnings
from dataclasses import dataclass
from functools import cached_property, partial
from pathlib import Path

import numpy as np
from joblib import delayed
from sklearn.base import clone
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.tree import DecisionTreeClassifier
from tqdm.auto import tqdm

from prunekit.validation import check_count
from prunekit.cost_complexity_pruning import (
    cost_complexity, cross_validate_alpha, holdout_alpha,
)
from prunekit.datasets import UCI_DATASETS, make_boolean_dnf
from prunekit.critical_value_pruning import critical_value
from prunekit.error_based_pruning import error_based, error_based_raising
from prunekit.minimum_error_pruning import minimum_error
from prunekit.pessimistic_pruning import pessimistic
from prunekit.kearns_mansour_pruning import kearns_mansour
from prunekit.nobel_pruning import nobel
from prunekit.optimal import OutOfTimeError, optimal_tree
from prunekit.k_reduced_error_pruning import (growing_error_budget,
                                              growing_errors_of_tree,
                                              k_reduced_error)
from prunekit.reduced_error_pruning import reduced_error
from prunekit.tree import Pruning, Tree

from pdtbook._extras import installed, missing_error, require
from pdtbook.rpart import compare_rpart, grow_rpart, rpart_example, rpart_frame
from pdtbook.runner import (
    N_SPLITS, PRUNE_FRACTION, Cache, Dataset, check_keys, check_splits,
    command_docstring, command_line, growing_size, led24_dataset, load_dataset,
    parse_arguments, run_command, run_splits, split_indices, uci_dataset,
    write_results, run_docstring, write_run_record,
)

__all__ = [
    "STUDY_TEST_FRACTION", "MAX_TRAIN", "MAX_TEST", "STUDY_LED_SAMPLES", "METHOD_LABELS",
    "STUDY_METHODS", "STUDY_DATASETS", "STUDY_COLUMNS", "DETERMINISTIC_COLUMNS",
    "USES_PRUNING_SET", "NEEDS", "available_methods", "run_split", "run", "mean_table", "ranks",
    "average_ranks", "FriedmanResult", "friedman_test", "nemenyi", "critical_difference",
    "paired_comparison", "paired_comparisons", "ccp_alpha_grid", "pareto_front",
    "synthetic_parameters", "time_table",
    "RPART_COLUMNS", "rpart_study", "main",
]

#: The share of a data set held out for testing (its first examples in a split's order).
STUDY_TEST_FRACTION = 0.25
#: Training examples used per split at most (the rest of the training part is left out).
MAX_TRAIN = 5000
#: Test examples used per split at most.
MAX_TEST = 10000
CV_FOLDS = 10            # cost-complexity and Kearns-Mansour constant, as Breiman et al.
GRID_FOLDS = 5           # GridSearchCV's default, for the scikit-learn baselines
HS_FOLDS = 3             # imodels' HSTreeClassifierCV default
KREP_C = 1.1             # Kääriäinen et al. (2004), Sec. 6.1
KM_DELTA = 0.05
#: Kearns & Mansour's constant in the study: with the accounting of Chapter 4, penalty (3)
#: then covers one deviation of local uniform convergence. The paper asks only c > 1; the
#: proof of its Theorem 5 needs two deviations covered, which takes 2 sqrt(2).
KM_PAPER_C = math.sqrt(2)
#: Candidate constants for Kearns-Mansour with c chosen by cross-validation.
KM_C_GRID = (0.0, 0.025, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1.0, math.sqrt(2))
#: Number of ccp_alpha values (evenly spaced along scikit-learn's path) GridSearchCV tries.
CCP_GRID_SIZE = 20
DEPTH_GRID = (1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20, None)
#: imodels' HSTreeClassifierCV default grid of the shrinkage parameter lambda.
HS_REG_PARAMS = (0.0, 0.1, 1.0, 10.0, 50.0, 100.0, 500.0)
RF_TREES = 100
#: Optimal trees (Chapter 10): the depth limits and costs per leaf alpha (in the units of
#: prunekit.cost_complexity) that cross-validation chooses from, the thresholds per real
#: feature of the binarisation, the folds, and the seconds (wall clock) STreeD may take per fit.
OPT_DEPTHS = (2, 3)
OPT_ALPHAS = (0.001, 0.005, 0.02)
OPT_THRESHOLDS = 2
OPT_FOLDS = 3
OPT_TIME_LIMIT = 10.0
EBP_CONFIDENCE = 0.25    # J48's default -C 0.25
#: Examples of LED 24-10 in the study.
STUDY_LED_SAMPLES = 20_000
SYNTHETIC_TRAIN = (200, 1000, 5000)
SYNTHETIC_NOISE = (0.0, 0.1, 0.2, 0.3)
SYNTHETIC_FEATURES = 16

#: Method keys in the order of the tables, with the labels used in tables and figures.
METHOD_LABELS = {
    "unpruned": "unpruned",
    "ccp-cv": "CCP, CV 0-SE",
    "ccp-cv-1se": "CCP, CV 1-SE",
    "ccp-holdout": "CCP, hold-out",
    "rep": "REP",
    "krep": "k-REP",
    "km-paper": "KM, c = √2",
    "km-cv": "KM, c by CV",
    "nobel-same": "Nobel, same",
    "nobel-indep": "Nobel, indep.",
    "pep": "PEP",
    "mep": "MEP",
    "cvp": "CVP",
    "ebp": "EBP",
    "ebp-raising": "EBP + raising",
    "sklearn-ccp": "sklearn ccp_alpha",
    "depth-cv": "max_depth by CV",
    "optimal-cv": "optimal tree, CV",
    "hs-cv": "shrinkage (HS)",
    "forest": "random forest",
}
#: The method keys of the study, in the order of the tables.
STUDY_METHODS = tuple(METHOD_LABELS)
#: The columns of the results file, one row per (data set, split, method).
STUDY_COLUMNS = ("dataset", "group", "n_features", "n_classes", "split", "method", "n_train",
                 "n_grow", "n_prune", "n_test", "parameter", "test_error", "n_leaves",
                 "n_nodes", "depth", "grow_seconds", "prune_seconds")
#: The columns a rerun reproduces exactly (everything but the times).
DETERMINISTIC_COLUMNS = STUDY_COLUMNS[:-2]


# ---------------------------------------------------------------------- data sets
def _synthetic_name(m: int, noise: float) -> str:
    return f"dnf-m{m}-noise{noise:g}"


def _scikit_learn(name: str, data_home=None):
    import sklearn.datasets as skd

    loader = {"iris": skd.load_iris, "wine": skd.load_wine,
              "breast-cancer": skd.load_breast_cancer, "digits": skd.load_digits}[name]
    return loader(return_X_y=True)


def _boolean_dnf(m: int, noise: float, data_home=None):
    """:func:`prunekit.datasets.make_boolean_dnf` on 16 features with label noise ``noise``
    and m / (1 - STUDY_TEST_FRACTION) examples (seed 0), so that its training part has m."""
    n = int(round(m / (1 - STUDY_TEST_FRACTION)))
    return make_boolean_dnf(n, SYNTHETIC_FEATURES, noise=noise, random_state=0)


#: The data sets of the study by name (:func:`pdtbook.runner.load_dataset` loads one):
#: the UCI sets of Table 1 of Kääriäinen et al., LED 24-10, four of scikit-learn's bundled
#: sets, and the synthetic family ``dnf-m<m>-noise<p>`` (a DNF on 16 Boolean features, m
#: training examples, label noise p).
STUDY_DATASETS = {d.name: d for d in (
    [uci_dataset(name) for name in UCI_DATASETS]
    + [led24_dataset(STUDY_LED_SAMPLES, f"LED 24-10, {STUDY_LED_SAMPLES:,} examples")]
    + [Dataset(name, "scikit-learn", f"load_{name.replace('-', '_')}",
               partial(_scikit_learn, name))
       for name in ("iris", "wine", "breast-cancer", "digits")]
    + [Dataset(_synthetic_name(m, noise), "synthetic",
               f"DNF on {{0,1}}^{SYNTHETIC_FEATURES}, {m} training examples, "
               f"label noise {noise:g}", partial(_boolean_dnf, m, noise))
       for noise in SYNTHETIC_NOISE for m in SYNTHETIC_TRAIN])}


def _check_names(names) -> list[str]:
    return check_keys(names, list(STUDY_DATASETS), "data set name")


# ---------------------------------------------------------------------- one split
def _grower(seed: int, **params) -> DecisionTreeClassifier:
    return DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2, random_state=seed,
                                  **params)


class _Split:
    """The data of one split, and the trees and folds several methods share (grown once)."""

    def __init__(self, X_train, y_train, X_test, y_test, n_grow, n_classes, seed):
        self.X, self.y = X_train, y_train
        self.X_test, self.y_test = X_test, y_test
        self.X_grow, self.y_grow = X_train[:n_grow], y_train[:n_grow]
        self.X_prune, self.y_prune = X_train[n_grow:], y_train[n_grow:]
        self.classes = np.arange(n_classes)
        self.seed = seed

    def grow(self, X, y):
        """A prunekit Tree over all classes, and the CPU seconds it took."""
        start = time.thread_time()
        tree = Tree.from_sklearn(_grower(self.seed).fit(X, y), X, y, classes=self.classes)
        return tree, time.thread_time() - start

    @cached_property
    def full(self):
        return self.grow(self.X, self.y)

    @cached_property
    def part(self):
        return self.grow(self.X_grow, self.y_grow)

    @cached_property
    def cv_selection(self):
        """Cost-complexity's 10-fold cross-validation (shared by the 0-SE and 1-SE rules)."""
        return _timed(cross_validate_alpha, self.X, self.y, _grower(self.seed),
                      cv=self.folds(CV_FOLDS), random_state=self.seed)

    def folds(self, n_folds: int):
        return StratifiedKFold(n_folds, shuffle=True, random_state=self.seed)


def _result(model, tree_or_pruning, grow_seconds, prune_seconds, parameter=math.nan):
    return dict(model=model, size=tree_or_pruning, grow_seconds=grow_seconds,
                prune_seconds=prune_seconds, parameter=float(parameter))


def _timed(function, *args, **kwargs):
    start = time.thread_time()
    value = function(*args, **kwargs)
    return value, time.thread_time() - start


# Each method maps a _Split to a result: the fitted model (anything with predict), what its
# size is read from (a Pruning, a Tree or a fitted scikit-learn estimator), the times, and the
# parameter it chose (nan when it chooses none).
def _unpruned(s):
    tree, seconds = s.full
    return _result(tree, tree, seconds, 0.0)


def _ccp_cv(s, rule):
    selection, seconds = s.cv_selection
    tree, grow_seconds = s.full
    alpha = selection.alpha_best if rule == "0-SE" else selection.alpha_one_se
    pruning = cost_complexity(tree, alpha)
    return _result(pruning, pruning, grow_seconds, seconds, alpha)


def _ccp_holdout(s):
    tree, grow_seconds = s.part
    selection, seconds = _timed(holdout_alpha, tree, s.X_prune, s.y_prune)
    pruning = cost_complexity(tree, selection.alpha_best)
    return _result(pruning, pruning, grow_seconds, seconds, selection.alpha_best)


def _krep(s):
    tree, grow_seconds = s.part
    start = time.thread_time()
    k = growing_error_budget(growing_errors_of_tree(tree), KREP_C)
    pruning = k_reduced_error(tree, s.X_prune, s.y_prune, k)
    return _result(pruning, pruning, grow_seconds, time.thread_time() - start, k)


def _km_cv(s):
    tree, grow_seconds = s.full
    start = time.thread_time()
    errors = np.zeros(len(KM_C_GRID))
    for train, test in s.folds(CV_FOLDS).split(s.X, s.y):
        fold_tree, _ = s.grow(s.X[train], s.y[train])
        counts = fold_tree.node_counts(s.X[test], s.y[test])
        errors += [kearns_mansour(fold_tree, delta=KM_DELTA, c=c).errors(counts) for c in KM_C_GRID]
    c = KM_C_GRID[int(np.flatnonzero(errors == errors.min())[-1])]   # ties: the larger c
    pruning = kearns_mansour(tree, delta=KM_DELTA, c=c)
    return _result(pruning, pruning, grow_seconds, time.thread_time() - start, c)


def _one_call(tree: str, prune, *, sample: bool = False, parameter=math.nan):
    """A method that prunes the tree grown on the training part (``tree="full"``) or on the
    growing part (``"part"``) with one call, ``prune(tree)`` or, with ``sample``,
    ``prune(tree, X_prune, y_prune)``."""
    def runner(s):
        grown, grow_seconds = getattr(s, tree)
        extra = (s.X_prune, s.y_prune) if sample else ()
        pruning, seconds = _timed(prune, grown, *extra)
        return _result(pruning, pruning, grow_seconds, seconds, parameter)
    return runner


def _nobel_independent(tree, X, y):
    return nobel(tree, case="independent", X_prune=X, y_prune=y)


def _ebp_raising(s):
    tree, grow_seconds = s.full
    raised, seconds = _timed(error_based_raising, tree, s.X, s.y, EBP_CONFIDENCE)
    return _result(raised, raised, grow_seconds, seconds, EBP_CONFIDENCE)


def _sklearn_search(s, estimator, grid, n_folds, scoring=None):
    """GridSearchCV on the training part, then the chosen estimator refitted on all of it."""
    start = time.thread_time()
    search = GridSearchCV(estimator, grid, cv=s.folds(n_folds), scoring=scoring, refit=False,
                          error_score="raise").fit(s.X, s.y)
    search_seconds = time.thread_time() - start
    final, grow_seconds = _timed(clone(estimator).set_params(**search.best_params_).fit, s.X, s.y)
    return final, search.best_params_, grow_seconds, search_seconds


def ccp_alpha_grid(alphas, size: int) -> np.ndarray:
    """At most ``size`` of the alphas of a cost-complexity path, evenly spread over its
    steps (the first and the last always among them), as the grid of scikit-learn's
    ``ccp_alpha`` that ``GridSearchCV`` searches.

    Parameters
    ----------
    alphas : array-like
        The path's alphas in increasing order, e.g. scikit-learn's
        ``cost_complexity_pruning_path(X, y).ccp_alphas``.
    size : int
        The most alphas to keep.

    Returns
    -------
    ndarray
        The chosen alphas, increasing and distinct.

    Examples
    --------
    >>> ccp_alpha_grid([0.0, 0.1, 0.2, 0.3, 0.5], 3).tolist()
    [0.0, 0.2, 0.5]
    """
    alphas = np.asarray(alphas, dtype=float)
    if alphas.ndim != 1 or len(alphas) == 0:
        raise ValueError("alphas must be a non-empty 1-d array.")
    size = check_count(size, "size", minimum=1)
    steps = np.linspace(0, len(alphas) - 1, min(size, len(alphas)))
    return np.unique(alphas[steps.round().astype(int)])


def _sklearn_ccp(s):
    start = time.thread_time()
    path = _grower(s.seed).cost_complexity_pruning_path(s.X, s.y).ccp_alphas
    path_seconds = time.thread_time() - start
    grid = ccp_alpha_grid(path, CCP_GRID_SIZE)
    final, best, grow_seconds, seconds = _sklearn_search(
        s, _grower(s.seed), {"ccp_alpha": grid.tolist()}, GRID_FOLDS)
    return _result(final, final, grow_seconds, path_seconds + seconds, best["ccp_alpha"])


def _depth_cv(s):
    final, best, grow_seconds, seconds = _sklearn_search(
        s, _grower(s.seed), {"max_depth": list(DEPTH_GRID)}, GRID_FOLDS)
    depth = best["max_depth"]
    return _result(final, final, grow_seconds, seconds, math.inf if depth is None else depth)


def _optimal_fit(X, y, depth: int, alpha: float):
    """An optimal tree of depth <= ``depth`` on :data:`OPT_THRESHOLDS` thresholds per feature
    (:func:`prunekit.optimal_tree`, STreeD); :class:`prunekit.optimal.OutOfTimeError` when
    STreeD cannot prove a tree optimal within :data:`OPT_TIME_LIMIT` seconds."""
    return optimal_tree(X, y, max_depth=depth, alpha=alpha, time_limit=OPT_TIME_LIMIT,
                        max_thresholds=OPT_THRESHOLDS)


def _optimal_cv_errors(s) -> tuple[dict, int]:
    """Cross-validated errors of every (depth, alpha) of the grid, and the fits out of time.

    Depths are tried in increasing order; the first fit that runs out of time drops its depth
    and every larger one (a deeper search is never faster), so every candidate kept was
    fitted on every fold."""
    errors, folds = {}, list(s.folds(OPT_FOLDS).split(s.X, s.y))
    for depth in OPT_DEPTHS:
        found = np.zeros(len(OPT_ALPHAS))
        try:
            for train, test in folds:
                for i, alpha in enumerate(OPT_ALPHAS):
                    tree = _optimal_fit(s.X[train], s.y[train], depth, alpha)
                    found[i] += np.sum(tree.predict(s.X[test]) != s.y[test])
        except OutOfTimeError:
            return errors, 1
        errors.update({(depth, alpha): e for alpha, e in zip(OPT_ALPHAS, found)})
    return errors, 0


def _optimal_cv(s):
    """Chapter 10's optimal tree, depth and alpha chosen by cross-validation.

    The candidate of fewest cross-validated errors (ties: the smaller depth, then the larger
    alpha) is refitted on the training part; if that fit runs out of time, the next candidate
    in the same order is. The parameter recorded is the chosen alpha; the fits that ran out
    of time are counted in the cached row (``out_of_time``), not in the results file."""
    start = time.thread_time()
    errors, out_of_time = _optimal_cv_errors(s)
    for depth, alpha in sorted(errors, key=lambda c: (errors[c], c[0], -c[1])):
        try:
            tree = _optimal_fit(s.X, s.y, depth, alpha)
        except OutOfTimeError:
            out_of_time += 1
            continue
        result = _result(tree, tree, 0.0, time.thread_time() - start, alpha)
        return dict(result, extra=dict(out_of_time=out_of_time, depth_limit=depth))
    raise RuntimeError(f"every optimal tree of the grid ran out of time_limit="
                       f"{OPT_TIME_LIMIT:g} seconds on the training part.")


def _mean_log_likelihood(estimator, X, y) -> float:
    """Mean log-probability of the true class (classes the estimator never saw get 1e-15).

    The fold scorer for hierarchical shrinkage: log loss, but defined when a fold lacks some
    classes, which scikit-learn's ``log_loss`` (and so ``HSTreeClassifierCV``) refuses."""
    proba = estimator.predict_proba(X)
    known = estimator.classes_
    where = np.minimum(np.searchsorted(known, y), len(known) - 1)
    p = np.where(known[where] == y, proba[np.arange(len(y)), where], 0.0)
    return float(np.mean(np.log(np.clip(p, 1e-15, 1.0))))


def _hs_cv(s):
    HSTreeClassifier = require("imodels", "the method 'hs-cv'").HSTreeClassifier
    final, best, grow_seconds, seconds = _sklearn_search(
        s, HSTreeClassifier(estimator_=_grower(s.seed)), {"reg_param": list(HS_REG_PARAMS)},
        HS_FOLDS, scoring=_mean_log_likelihood)
    return _result(final, final.estimator_, grow_seconds, seconds, best["reg_param"])


def _forest(s):
    forest, seconds = _timed(RandomForestClassifier(RF_TREES, random_state=s.seed,
                                                    n_jobs=1).fit, s.X, s.y)
    return _result(forest, forest, seconds, 0.0)


_RUNNERS = {
    "unpruned": _unpruned,
    "ccp-cv": lambda s: _ccp_cv(s, "0-SE"),
    "ccp-cv-1se": lambda s: _ccp_cv(s, "1-SE"),
    "ccp-holdout": _ccp_holdout,
    "rep": _one_call("part", reduced_error, sample=True),
    "krep": _krep,
    "km-paper": _one_call("full", partial(kearns_mansour, delta=KM_DELTA, c=KM_PAPER_C),
                          parameter=KM_PAPER_C),
    "km-cv": _km_cv,
    "nobel-same": _one_call("full", partial(nobel, case="same")),
    "nobel-indep": _one_call("part", _nobel_independent, sample=True),
    "pep": _one_call("full", pessimistic),
    "mep": _one_call("full", minimum_error),
    "cvp": _one_call("part", critical_value, sample=True),
    "ebp": _one_call("full", partial(error_based, confidence=EBP_CONFIDENCE),
                     parameter=EBP_CONFIDENCE),
    "ebp-raising": _ebp_raising,
    "sklearn-ccp": _sklearn_ccp,
    "depth-cv": _depth_cv,
    "optimal-cv": _optimal_cv,
    "hs-cv": _hs_cv,
    "forest": _forest,
}
#: The packages a method needs beyond pdtbook's dependencies, by method: hierarchical
#: shrinkage is imodels' (``pip install "pdtbook[study]"``), optimal trees need STreeD
#: (``pip install "pdtbook[optimal]"``).
NEEDS = {"hs-cv": ("imodels",), "optimal-cv": ("pystreed",)}
#: The methods whose tree is grown on the growing part and pruned with the pruning part.
USES_PRUNING_SET = ("ccp-holdout", "rep", "krep", "nobel-indep", "cvp")


def _sizes(model) -> tuple[int, int, int]:
    """(leaves, nodes, depth) of a Pruning, a Tree, a scikit-learn tree or a forest (summed
    leaves and nodes over its trees, its deepest tree's depth)."""
    if isinstance(model, Pruning):
        return model.n_leaves, model.n_nodes, model.depth
    if isinstance(model, Tree):
        return model.n_leaves, model.n_nodes, model.max_depth
    if hasattr(model, "estimators_"):
        sizes = np.array([_sizes(tree) for tree in model.estimators_])
        return int(sizes[:, 0].sum()), int(sizes[:, 1].sum()), int(sizes[:, 2].max())
    return int(model.get_n_leaves()), int(model.tree_.node_count), int(model.get_depth())


def available_methods() -> tuple[str, ...]:
    """The keys of :data:`STUDY_METHODS` this installation can run (in the order of the
    tables): every method but those whose package (:data:`NEEDS`) is missing."""
    return tuple(key for key in STUDY_METHODS if key in _RUNNERS
                 and all(installed(module) for module in NEEDS.get(key, ())))


def _check_methods(methods) -> list[str]:
    """The methods to run: every available one for ``None``; a known method whose package
    is missing raises a ModuleNotFoundError naming the extra that installs it."""
    if methods is None:
        return list(available_methods())
    methods = check_keys(methods, STUDY_METHODS, "method")
    for method in methods:
        for module in NEEDS.get(method, ()):
            if not installed(module):
                raise missing_error(module, f"the method {method!r}")
    return methods


def run_split(X_train, y_train, X_test, y_test, n_classes: int, split: int, methods=None):
    """Run the methods of the study on one split.

    Parameters
    ----------
    X_train, y_train : ndarray
        The training part, in the split's order: its first two thirds (rounded) are the
        growing part of the methods that prune with a separate sample.
    X_test, y_test : ndarray
    n_classes : int
        The labels are 0..n_classes-1 (those of the whole data set).
    split : int
        Seeds the grower and the cross-validation folds.
    methods : list of str, optional
        Keys of :data:`STUDY_METHODS`; default every available method.

    Returns
    -------
    list of dict
        One row per method with the columns :data:`STUDY_COLUMNS` except ``dataset`` and
        ``group``; the optimal tree's row also has ``out_of_time`` and ``depth_limit``
        (``_optimal_cv``), which the results file leaves out.
    """
    methods = _check_methods(methods)
    n_grow = growing_size(len(y_train))
    s = _Split(np.asarray(X_train), np.asarray(y_train), np.asarray(X_test),
               np.asarray(y_test), n_grow, check_count(n_classes, "n_classes", minimum=1),
               check_count(split, "split"))
    rows = []
    with warnings.catch_warnings():
        # stratified folds warn about classes rarer than the number of folds
        warnings.simplefilter("ignore", UserWarning)
        for method in methods:
            result = _RUNNERS[method](s)
            leaves, nodes, depth = _sizes(result["size"])
            separate = method in USES_PRUNING_SET
            rows.append(dict(
                split=split, method=method, n_train=len(s.y),
                n_grow=len(s.y_grow) if separate else len(s.y),
                n_prune=len(s.y_prune) if separate else 0, n_test=len(s.y_test),
                parameter=result["parameter"],
                test_error=float(np.mean(result["model"].predict(s.X_test) != s.y_test)),
                n_leaves=int(leaves), n_nodes=int(nodes), depth=int(depth),
                grow_seconds=result["grow_seconds"], prune_seconds=result["prune_seconds"],
                **result.get("extra", {})))
    return rows


# ---------------------------------------------------------------------- running
def _protocol(max_train: int, max_test: int) -> dict:
    """Everything a cached row depends on besides the data set, the split and the method."""
    return dict(runner="study", max_train=max_train, max_test=max_test,
                test_fraction=STUDY_TEST_FRACTION, prune_fraction=PRUNE_FRACTION,
                cv_folds=CV_FOLDS, grid_folds=GRID_FOLDS, hs_folds=HS_FOLDS, krep_c=KREP_C,
                km_delta=KM_DELTA, km_paper_c=KM_PAPER_C, km_c_grid=list(KM_C_GRID),
                ccp_grid_size=CCP_GRID_SIZE, depth_grid=list(DEPTH_GRID),
                hs_reg_params=list(HS_REG_PARAMS), rf_trees=RF_TREES,
                ebp_confidence=EBP_CONFIDENCE, opt_depths=list(OPT_DEPTHS),
                opt_alphas=list(OPT_ALPHAS), opt_thresholds=OPT_THRESHOLDS,
                opt_folds=OPT_FOLDS, opt_time_limit=OPT_TIME_LIMIT)


@run_docstring
def run(names, data_home=None, *, splits=N_SPLITS, methods=None, cache=None, n_jobs=None,
        max_train: int = MAX_TRAIN, max_test: int = MAX_TEST, out=None,
        progress: bool = True, report: dict | None = None) -> list[dict]:
    """Run the study: every method on every split of every data set; optionally write a CSV.

    Parameters
    ----------
    names : str or list of str
        Keys of :data:`STUDY_DATASETS`.
    data_home : path-like, optional
        Directory of the UCI files (default ``$PRUNEKIT_DATA``).
    splits : int or iterable of int, default 10
        Number of splits (0..splits-1) or the split indices.
    methods : list of str, optional
        Keys of :data:`STUDY_METHODS`; default every available method.
    cache : path-like, optional
        Directory of per-split JSON files. A split's rows are written as soon as it finishes;
        a rerun reads them back and runs only the (data set, split, method) triples missing.
    n_jobs : int, optional
        joblib's ``n_jobs``; by default that of the active ``joblib.parallel_config``, so the
        same call runs serially, on local processes, or on a Dask cluster inside
        ``joblib.parallel_config(backend="dask")``.
    max_train, max_test : int
        At most this many training and test examples per split.
    {run_outputs}

    Returns
    -------
    list of dict
        One row per (data set, split, method), in the order of ``names``, splits and
        ``methods``, with the columns :data:`STUDY_COLUMNS`.
    """
    names = _check_names(names)
    methods = _check_methods(methods)
    splits = check_splits(splits)
    protocol = _protocol(check_count(max_train, "max_train", minimum=6),
                         check_count(max_test, "max_test", minimum=1))
    data = {name: load_dataset(STUDY_DATASETS[name], data_home) for name in names}

    def task(name, split, missing):
        X, y = data[name]
        train, test, _ = split_indices(len(y), split, STUDY_TEST_FRACTION, max_train, max_test)
        return delayed(run_split)(X[train], y[train], X[test], y[test], int(y.max()) + 1,
                                  split, missing)

    done = run_splits(names, splits, methods, task, key="method",
                      cache=None if cache is None else Cache(cache, protocol, key="method"),
                      n_jobs=n_jobs, progress=progress, report=report)
    rows = [dict(done[name, split][method], dataset=name, group=STUDY_DATASETS[name].group,
                 n_features=data[name][0].shape[1], n_classes=int(data[name][1].max()) + 1)
            for name in names for split in splits for method in methods]
    rows = [{column: row[column] for column in STUDY_COLUMNS} for row in rows]
    if out is not None:
        write_results(rows, STUDY_COLUMNS, out)
    return rows


# ---------------------------------------------------------------------- statistics
def _frame(results):
    import pandas as pd

    frame = results if isinstance(results, pd.DataFrame) else pd.DataFrame(list(results))
    missing = {"dataset", "split", "method"} - set(frame.columns)
    if missing:
        raise ValueError(f"results lack the column(s) {sorted(missing)}.")
    return frame


def mean_table(results, value: str = "test_error", methods=None):
    """Mean of ``value`` over the splits: a data set x method table (methods in the order
    of :data:`STUDY_METHODS`, or of ``methods``; data sets in the order they first appear).

    Parameters
    ----------
    results : pandas.DataFrame or list of dict
        Rows with the columns :data:`STUDY_COLUMNS` (e.g. from
        :func:`pdtbook.runner.read_results`).
    value : str, default "test_error"
        A numeric column: ``test_error``, ``n_leaves``, ``n_nodes``, ``depth``, ...
    methods : list of str, optional
        The methods to keep (default all those present).
    """
    frame = _frame(results)
    if value not in frame.columns:
        raise ValueError(f"value must be a column of the results, got {value!r}.")
    present = list(dict.fromkeys(frame["method"]))
    if methods is None:
        methods = [m for m in STUDY_METHODS if m in present] + \
            [m for m in present if m not in STUDY_METHODS]
    else:
        methods = list(methods)
        absent = [m for m in methods if m not in present]
        if absent:
            raise ValueError(f"methods {absent!r} are not in the results.")
    table = frame[frame["method"].isin(methods)].pivot_table(
        index="dataset", columns="method", values=value, aggfunc="mean", sort=False)
    table = table.reindex(index=list(dict.fromkeys(frame["dataset"])), columns=methods)
    if table.isna().any().any():
        raise ValueError("every method needs results on every data set to be compared.")
    return table


def ranks(results, value: str = "test_error", methods=None):
    """Rank of every method on every data set by the mean of ``value`` (1 = smallest, ties
    get the average of the ranks they span), as Demšar (2006, Sec. 3.2.2) ranks."""
    return mean_table(results, value, methods).rank(axis=1, method="average")


def average_ranks(results, value: str = "test_error", methods=None):
    """Average rank of every method over the data sets (Demšar 2006), smallest first."""
    return ranks(results, value, methods).mean(axis=0).sort_values(kind="stable")


@dataclass(frozen=True)
class FriedmanResult:
    """The Friedman test over data sets, and Iman and Davenport's F form of it.

    Attributes
    ----------
    statistic, pvalue : float
        Friedman's chi-square with k - 1 degrees of freedom and its p-value, from
        :func:`scipy.stats.friedmanchisquare`.
    f_statistic, f_pvalue : float
        Iman & Davenport's F = (N - 1) chi2 / (N (k - 1) - chi2), F-distributed with
        (k - 1, (k - 1)(N - 1)) degrees of freedom, which Demšar (2006, eq. 2) recommends as
        less conservative.
    n_datasets, n_methods : int
    """

    statistic: float
    pvalue: float
    f_statistic: float
    f_pvalue: float
    n_datasets: int
    n_methods: int


def friedman_test(results, value: str = "test_error", methods=None) -> FriedmanResult:
    """Friedman's test that all methods have the same average rank (Demšar 2006, Sec. 3.2.2).

    The blocks are the data sets, the treatments the methods, the observations the means of
    ``value`` over the splits; the chi-square statistic and its p-value come from
    :func:`scipy.stats.friedmanchisquare`.
    """
    from scipy import stats

    table = mean_table(results, value, methods)
    n, k = table.shape
    if n < 2 or k < 3:
        raise ValueError(f"the Friedman test needs at least 2 data sets and 3 methods, got "
                         f"{n} and {k}.")
    chi2, p = stats.friedmanchisquare(*(table[m].to_numpy() for m in table.columns))
    f = (n - 1) * chi2 / (n * (k - 1) - chi2) if n * (k - 1) > chi2 else math.inf
    return FriedmanResult(float(chi2), float(p), float(f),
                          float(stats.f.sf(f, k - 1, (k - 1) * (n - 1))), n, k)


def nemenyi(results, value: str = "test_error", methods=None):
    """p-values of the Nemenyi test between every pair of methods (a method x method
    table), from :func:`scikit_posthocs.posthoc_nemenyi_friedman` on the data set x method
    table of means."""
    scikit_posthocs = require("scikit_posthocs", "the Nemenyi test")
    return scikit_posthocs.posthoc_nemenyi_friedman(mean_table(results, value, methods))


def critical_difference(n_methods: int, n_datasets: int, alpha: float = 0.05) -> float:
    """Nemenyi's critical difference of average ranks, q_alpha sqrt(k (k + 1) / (6 N)).

    q_alpha is the studentized range quantile over sqrt 2 (Demšar 2006, Sec. 3.2.2), from
    :data:`scipy.stats.studentized_range`; two methods whose average ranks differ by more are
    significantly different at level alpha.
    """
    from scipy import stats

    k = check_count(n_methods, "n_methods", minimum=2)
    n = check_count(n_datasets, "n_datasets", minimum=1)
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}.")
    q = stats.studentized_range.ppf(1 - alpha, k, np.inf) / math.sqrt(2)
    return float(q * math.sqrt(k * (k + 1) / (6 * n)))


def paired_comparison(results, first: str, second: str, value: str = "test_error") -> dict:
    """Two methods compared over the data sets (Demšar 2006, Sec. 3.1).

    Returns
    -------
    dict
        ``wins``, ``ties``, ``losses`` of ``first`` against ``second`` (by the mean of
        ``value`` over the splits, smaller is better; exact ties only), ``mean_difference``
        (first - second, averaged over data sets), and the Wilcoxon signed-rank test of the
        per-data-set differences (:func:`scipy.stats.wilcoxon`, zero differences split
        between the signs as Demšar recommends): ``statistic`` and ``pvalue``.
    """
    from scipy import stats

    table = mean_table(results, value, [first, second])
    difference = (table[first] - table[second]).to_numpy()
    if np.all(difference == 0):
        statistic, pvalue = math.nan, 1.0
    else:
        test = stats.wilcoxon(difference, zero_method="zsplit")
        statistic, pvalue = float(test.statistic), float(test.pvalue)
    return dict(first=first, second=second, wins=int(np.sum(difference < 0)),
                ties=int(np.sum(difference == 0)), losses=int(np.sum(difference > 0)),
                mean_difference=float(difference.mean()), statistic=statistic, pvalue=pvalue)


def paired_comparisons(results, pairs, value: str = "test_error"):
    """Several pairs of methods compared by :func:`paired_comparison`, the p-values adjusted
    for the number of pairs by Holm's step-down method (Demšar 2006, Sec. 3.2.2).

    Parameters
    ----------
    results : pandas.DataFrame or list of dict
        Rows with the columns ``dataset``, ``split``, ``method`` and ``value``.
    pairs : list of (str, str)
        The pairs ``(first, second)`` to compare.
    value : str, default "test_error"
        The column compared (smaller is better), e.g. ``"relative_error"``.

    Returns
    -------
    pandas.DataFrame
        One row per pair, in the order of ``pairs``: the columns of
        :func:`paired_comparison` and ``holm_pvalue``, from
        ``statsmodels.stats.multitest.multipletests`` with ``method="holm"``.
    """
    import pandas as pd
    from statsmodels.stats.multitest import multipletests

    pairs = [tuple(pair) for pair in pairs]
    if not pairs or any(len(pair) != 2 for pair in pairs):
        raise ValueError("pairs must be a non-empty list of (first, second) methods.")
    frame = _frame(results)
    table = pd.DataFrame([paired_comparison(frame, first, second, value)
                          for first, second in pairs])
    table["holm_pvalue"] = multipletests(table["pvalue"], method="holm")[1]
    return table


def pareto_front(size, error) -> np.ndarray:
    """Which points are Pareto-optimal for (size, error), both to be minimised: a point is
    on the front unless another is at most as large in both and smaller in one."""
    size, error = np.asarray(size, dtype=float), np.asarray(error, dtype=float)
    if size.shape != error.shape or size.ndim != 1:
        raise ValueError("size and error must be 1-d arrays of the same length.")
    dominated = ((size[None, :] <= size[:, None]) & (error[None, :] <= error[:, None])
                 & ((size[None, :] < size[:, None]) | (error[None, :] < error[:, None])))
    return ~dominated.any(axis=1)


def synthetic_parameters(name: str) -> tuple[int, float]:
    """The training size m and the label noise of a synthetic data set ``dnf-m<m>-noise<p>``."""
    if not (isinstance(name, str) and name.startswith("dnf-m") and "-noise" in name):
        raise ValueError(f"name must be a synthetic data set dnf-m<m>-noise<p>, got {name!r}.")
    m, noise = name[len("dnf-m"):].split("-noise")
    return int(m), float(noise)


def time_table(results):
    """CPU seconds per method, summed over every data set and split: growing, pruning (with
    any tuning), and both; methods in the order of :data:`STUDY_METHODS`, then the others
    in the order they first appear. Results without a ``grow_seconds`` column (those of
    :mod:`pdtbook.regression_study`) give the pruning seconds and their total."""
    frame = _frame(results)
    columns = [c for c in ("grow_seconds", "prune_seconds") if c in frame.columns]
    if not columns:
        raise ValueError("results lack the column(s) grow_seconds and prune_seconds.")
    table = frame.groupby("method", sort=False)[columns].sum()
    table["total_seconds"] = table.sum(axis=1)
    order = [m for m in STUDY_METHODS if m in table.index] + \
        [m for m in table.index if m not in STUDY_METHODS]
    return table.reindex(order)


# ---------------------------------------------------------------------- R's rpart
#: The columns of the rpart comparison file, one row per data set.
RPART_COLUMNS = ("dataset", "group", "n_train", "nodes", "splits", "splits_differ",
                 "rpart_cps", "exact_cps", "prune_differs", "prune_not_minimal")


def rpart_study(names, data_home=None, *, split: int = 0, max_train: int = MAX_TRAIN,
                rscript: str = "Rscript", out=None, progress: bool = True) -> list[dict]:
    """:func:`pdtbook.rpart.compare_rpart` on the training part of split ``split`` of
    every data set.

    rpart grows each tree with its default ``minsplit = 20, minbucket = 7`` down to cp = 0;
    with ``out``, the rows (columns :data:`RPART_COLUMNS`) are written as CSV and the frame
    of :func:`pdtbook.rpart.rpart_example` next to it, as ``rpart_example.csv``.
    """
    rows = []
    for name in tqdm(_check_names(names), desc="rpart", disable=not progress):
        X, y = load_dataset(STUDY_DATASETS[name], data_home)
        train = split_indices(len(y), split, STUDY_TEST_FRACTION, max_train).train
        fit = grow_rpart(X[train], y[train], rscript=rscript)
        rows.append(dict(dataset=name, group=STUDY_DATASETS[name].group, n_train=len(train),
                         **compare_rpart(fit)))
    if out is not None:
        write_results(rows, RPART_COLUMNS, out)
        rpart_frame(rpart_example(rscript)).to_csv(Path(out).parent / "rpart_example.csv",
                                                   index=False, float_format="%.17g")
    return rows


# ---------------------------------------------------------------------- command line
def _parser():
    parser = command_line(
        "python -m pdtbook.study",
        "Every pruning method of the book, and the usual alternatives, on the same random "
        "splits of many data sets (Chapter 9).", STUDY_DATASETS,
        "prunekit/data/study.csv, or rpart_cp.csv there with --rpart")
    parser.add_argument("--methods", nargs="+",
                        help=f"methods (default all): {', '.join(STUDY_METHODS)}")
    parser.add_argument("--max-train", type=int, default=MAX_TRAIN,
                        help=f"training examples per split at most ({MAX_TRAIN})")
    parser.add_argument("--max-test", type=int, default=MAX_TEST,
                        help=f"test examples per split at most ({MAX_TEST})")
    parser.add_argument("--rpart", action="store_true",
                        help="compare R's rpart cp tables with the exact weakest-link sequence "
                             "instead (needs Rscript with rpart)")
    return parser


@command_docstring("python -m pdtbook.study")
def main(argv=None) -> int:
    parser = _parser()
    args = parse_arguments(parser, argv, lambda args: "rpart_cp" if args.rpart else "study")
    if args.rpart:
        run_command(parser, args, STUDY_DATASETS,
                    lambda names, **_: rpart_study(names, args.data, max_train=args.max_train,
                                                   out=args.out))
        return 0
    report = run_command(parser, args, STUDY_DATASETS,
                         partial(run, data_home=args.data, splits=args.splits,
                                 methods=args.methods, cache=args.cache,
                                 max_train=args.max_train, max_test=args.max_test,
                                 out=args.out))
    write_run_record(args, report, len(_check_methods(args.methods)))
    return 0


if __name__ == "__main__":
    # Run the importable module's main, so that joblib's workers find the tasks by name.
    from pdtbook import study

    sys.exit(study.main())
