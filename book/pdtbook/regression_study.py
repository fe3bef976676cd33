"""Which pruner for regression trees? The pruners of Chapter 11 on the same
splits of many regression data sets.

The regression twin of :mod:`pdtbook.study` (Chapter 9), through the same
runner (:mod:`pdtbook.runner`) and the same statistics. Six ways to obtain a
tree:

* ``unpruned``: the grown tree;
* ``ccp-cv-0se`` and ``ccp-cv-1se``: cost-complexity pruning with alpha chosen
  by 10-fold cross-validation and the 0-SE or the 1-SE rule (Breiman, Friedman,
  Olshen & Stone 1984, *Classification and Regression Trees*, ch. 3 and 8;
  :func:`prunekit.cross_validate_alpha`);
* ``rep``: reduced-error pruning (:func:`prunekit.reduced_error`) of the tree
  grown on the first two thirds of the training part, with the squared errors
  of the last third;
* ``gey-nedelec``: the fixed penalty c sigma^2 |T| log(n) / n with c = 2 and
  the noise variance sigma^2 estimated from the grown tree's leaves, that is
  cost complexity at the one alpha c sigma^2 log(n) / n, without resampling
  (:func:`prunekit.gey_nedelec`). The shape of the penalty, linear in the
  number of leaves, is that of Gey & Nedelec (2005), "Model selection for CART
  regression trees", *IEEE Transactions on Information Theory* 51(2):658-670;
  Nobel (2002), "Analysis of a complexity-based pruning scheme for
  classification trees", *IEEE Transactions on Information Theory*
  48(8):2362-2368, contrasts it with the square-root penalty of classification;
* ``sklearn-ccp``: scikit-learn's ``ccp_alpha`` chosen by ``GridSearchCV`` over
  at most :data:`SKLEARN_GRID_SIZE` alphas of the grown tree's path
  (:func:`pdtbook.study.ccp_alpha_grid`), with the same 10 folds.

The data sets, all available offline (:data:`REGRESSION_DATASETS`): ISLR's
Hitters (log salary; the players without a salary dropped), Boston (``medv``)
and Carseats (``Sales``), shipped with the book
(:func:`pdtbook.islr.load_islr`; categorical features one-hot coded);
scikit-learn's diabetes; Friedman's three functions (Friedman 1991),
*simulated* by scikit-learn's ``make_friedman1/2/3`` with
:data:`FRIEDMAN_SAMPLES` examples and the noise of scikit-learn's documentation
(seeded, so always the same examples); and four data sets bundled with
statsmodels (``fair``, ``star98``, ``randhie``, ``engel``).

The results are analysed with :mod:`pdtbook.study`'s functions, on the column
``relative_error`` or ``n_leaves`` (their ``value=``): average ranks, the
Friedman test, Nemenyi's critical difference and Wilcoxon's signed-rank test
with Holm's adjustment (:func:`pdtbook.study.paired_comparisons`), as Demšar
(2006), "Statistical comparisons of classifiers over multiple data sets",
*JMLR* 7:1-30, recommends. The figures are in :mod:`pdtbook.figures.ch11`.

The protocol of a regression split
----------------------------------
1. The split of :func:`pdtbook.runner.split_indices`: a third of the examples
   to test (at most :data:`MAX_TEST`), the rest to train (at most
   :data:`MAX_TRAIN`); reduced-error pruning grows on the first two thirds of
   the training part and prunes with the last third, every other method grows
   (and tunes) on the whole training part.
2. Every tree is grown by
   ``DecisionTreeRegressor(min_samples_leaf=5, random_state=i)``: leaves of
   five examples or more, because a tree grown to leaves of one example fits
   its sample exactly, so its residual variance, from which the penalty
   estimates the noise variance (:func:`prunekit.residual_variance`), is zero.
   Folds are ``KFold(10, shuffle=True, random_state=i)``.
3. Each method's test mean squared error, its *relative test error* (the test
   MSE over the variance of the test targets, so that data sets of different
   scales compare: 1 is the error of predicting the test mean), its number of
   leaves and the CPU seconds (of its thread) it takes to prune, its tuning
   included, are recorded.

The table the book reads was produced, from the repository's root, by::

    nice python -m pdtbook.regression_study --all --n-jobs 2 \\
        --cache /tmp/prunekit-regression-study \\
        --out book/pdtbook/data/regression_study.csv

Finished splits are cached as in :mod:`pdtbook.study`, so an interrupted run
resumes; a tqdm bar shows the splits done; ``--dask-scheduler ADDRESS`` runs
the splits on a Dask cluster through joblib's ``dask`` backend
(:mod:`pdtbook.runner`). A run that computed every split writes its wall time
next to the table (``regression_study_run.csv``)."""

from __future__ import annotations

import sys
import time
from functools import partial

import numpy as np
from joblib import delayed
from sklearn.model_selection import GridSearchCV, KFold
from sklearn.tree import DecisionTreeRegressor

import prunekit as pk

from pdtbook.runner import (
    Cache, check_keys, check_splits, command_docstring, command_line,
    growing_size, parse_arguments, run_command, run_splits, split_indices,
    write_results, run_docstring, write_run_record,
)
from pdtbook.study import ccp_alpha_grid

__all__ = ["REGRESSION_DATASETS", "REGRESSION_METHODS", "REGRESSION_LABELS",
           "load_regression", "run_split", "run", "main"]

#: Splits per data set, the test fraction, and the caps on the training and
#: test parts.
N_SPLITS, TEST_FRACTION, MAX_TRAIN, MAX_TEST = 10, 1 / 3, 2000, 5000
#: Folds of the cross-validated methods, and examples per leaf of the grower.
CV_FOLDS, MIN_SAMPLES_LEAF = 10, 5
#: Alphas of scikit-learn's grid search: this many, evenly spread over the
#: path's (:func:`pdtbook.study.ccp_alpha_grid`).
SKLEARN_GRID_SIZE = 30
#: Examples drawn from each of Friedman's functions, and their noise levels.
FRIEDMAN_SAMPLES = 1000
FRIEDMAN_NOISE = {1: 1.0, 2: 125.0, 3: 0.1}

#: The methods, in the order of the tables.
REGRESSION_METHODS = ("unpruned", "ccp-cv-0se", "ccp-cv-1se", "rep",
                      "gey-nedelec", "sklearn-ccp")
#: How the book names each method.
REGRESSION_LABELS = {"unpruned": "unpruned", "ccp-cv-0se": "CCP, CV 0-SE",
                     "ccp-cv-1se": "CCP, CV 1-SE", "rep": "REP",
                     "gey-nedelec": "Gey-Nedelec penalty",
                     "sklearn-ccp": "sklearn GridSearchCV"}
#: The columns of the results file, one row per (data set, split, method).
COLUMNS = ("dataset", "split", "method", "n_train", "n_features", "test_mse",
           "relative_error", "n_leaves", "prune_seconds")


# ------------------------------------------------------------------------ data
def _islr(name: str, target: str, transform=None):
    import pandas as pd

    from pdtbook.islr import load_islr

    frame = load_islr(name, dropna=True)
    X = pd.get_dummies(frame.drop(columns=target), drop_first=True,
                       dtype=float)
    y = frame[target].to_numpy(dtype=float)
    return X.to_numpy(dtype=float), (transform(y) if transform else y)


def _statsmodels(name: str, target=None, ratio=None):
    from statsmodels import datasets

    frame = getattr(datasets, name).load_pandas().data
    if ratio is not None:      # star98: the share of pupils above the median
        above, below = ratio
        y = frame[above] / (frame[above] + frame[below])
        X = frame.drop(columns=[above, below])
    else:
        y, X = frame[target], frame.drop(columns=target)
    return X.to_numpy(dtype=float), y.to_numpy(dtype=float)


def _friedman(number: int):
    from sklearn import datasets

    make = getattr(datasets, f"make_friedman{number}")
    return make(FRIEDMAN_SAMPLES, noise=FRIEDMAN_NOISE[number],
                random_state=number)


def _diabetes():
    from sklearn.datasets import load_diabetes

    return load_diabetes(return_X_y=True)


#: Every data set: name -> (what it is, a loader returning X and y).
REGRESSION_DATASETS = {
    "hitters": ("ISLR: log salary of 263 baseball players",
                partial(_islr, "Hitters", "Salary", np.log)),
    "boston": ("ISLR: median home value of 506 Boston tracts",
               partial(_islr, "Boston", "medv")),
    "carseats": ("ISLR: car seat sales in 400 stores",
                 partial(_islr, "Carseats", "Sales")),
    "diabetes": ("scikit-learn: disease progression of 442 patients",
                 _diabetes),
    "friedman1": ("Friedman #1, simulated, 1000 examples",
                  partial(_friedman, 1)),
    "friedman2": ("Friedman #2, simulated, 1000 examples",
                  partial(_friedman, 2)),
    "friedman3": ("Friedman #3, simulated, 1000 examples",
                  partial(_friedman, 3)),
    "fair": ("statsmodels: time in extramarital affairs of 6366 women",
             partial(_statsmodels, "fair", "affairs")),
    "star98": ("statsmodels: share of pupils above the national median in "
               "303 school districts",
               partial(_statsmodels, "star98", ratio=("NABOVE", "NBELOW"))),
    "randhie": ("statsmodels: visits to a doctor of 20190 people (RAND "
                "insurance study)",
                partial(_statsmodels, "randhie", "mdvis")),
    "engel": ("statsmodels: food expenditure of 235 Belgian households by "
              "income", partial(_statsmodels, "engel", "foodexp")),
}


def load_regression(name: str) -> tuple[np.ndarray, np.ndarray]:
    """The features and targets of one of :data:`REGRESSION_DATASETS`.

    Parameters
    ----------
    name : str
        A key of :data:`REGRESSION_DATASETS`.

    Returns
    -------
    X : ndarray of shape (n, d), float64
        The features, categorical ones one-hot coded.
    y : ndarray of shape (n,), float64
        The targets.

    Examples
    --------
    >>> X, y = load_regression("boston")
    >>> X.shape
    (506, 12)
    """
    name = check_keys([name], REGRESSION_DATASETS, "data set")[0]
    X, y = REGRESSION_DATASETS[name][1]()
    return np.asarray(X, dtype=float), np.asarray(y, dtype=float)


# ------------------------------------------------------------------- one split
def _grower(seed: int) -> DecisionTreeRegressor:
    return DecisionTreeRegressor(min_samples_leaf=MIN_SAMPLES_LEAF,
                                 random_state=seed)


def _grown(X, y, seed: int) -> pk.RegressionTree:
    return pk.RegressionTree.from_sklearn(_grower(seed).fit(X, y), X, y)


def _folds(seed: int) -> KFold:
    return KFold(CV_FOLDS, shuffle=True, random_state=seed)


class _Split:
    """The training part of one split, and what several methods share: the
    tree grown on it and the tree grown on its first two thirds (both grown
    before any method's clock starts), and cost complexity's cross-validation
    (shared by the 0-SE and the 1-SE rule, and timed once)."""

    def __init__(self, X, y, n_grow: int, seed: int):
        self.X, self.y, self.n_grow, self.seed = X, y, n_grow, seed
        self.tree = _grown(X, y, seed)
        self.part = _grown(X[:n_grow], y[:n_grow], seed)
        self._selection = None

    def selection(self):
        """The cross-validated path, and the CPU seconds it took."""
        if self._selection is None:
            start = time.thread_time()
            selection = pk.cross_validate_alpha(
                self.X, self.y, _grower(self.seed), cv=_folds(self.seed))
            self._selection = selection, time.thread_time() - start
        return self._selection


def _cross_validated(rule: str):
    def prune(s):
        selection, seconds = s.selection()
        step = selection.best if rule == "0-SE" else selection.one_se
        return selection.path.pruning(step), seconds
    return prune


def _timed(prune):
    """A method that prunes in one call; its seconds are those of the call."""
    def method(s):
        start = time.thread_time()
        model = prune(s)
        return model, time.thread_time() - start
    return method


def _sklearn_ccp(s):
    path = _grower(s.seed).cost_complexity_pruning_path(s.X, s.y)
    grid = ccp_alpha_grid(path.ccp_alphas, SKLEARN_GRID_SIZE)
    search = GridSearchCV(_grower(s.seed), {"ccp_alpha": grid.tolist()},
                          cv=_folds(s.seed),
                          scoring="neg_mean_squared_error").fit(s.X, s.y)
    return search.best_estimator_


def _rep(s):
    return pk.reduced_error(s.part, s.X[s.n_grow:], s.y[s.n_grow:])


# Each method maps a _Split to the fitted model (a Pruning or a scikit-learn
# tree) and the CPU seconds of its pruning and tuning.
_PRUNERS = {
    "unpruned": _timed(lambda s: pk.Pruning.full(s.tree)),
    "ccp-cv-0se": _cross_validated("0-SE"),
    "ccp-cv-1se": _cross_validated("1-SE"),
    "rep": _timed(_rep),
    "gey-nedelec": _timed(lambda s: pk.gey_nedelec(s.tree)),
    "sklearn-ccp": _timed(_sklearn_ccp),
}


def _n_leaves(model) -> int:
    if hasattr(model, "get_n_leaves"):               # a scikit-learn tree
        return int(model.get_n_leaves())
    return int(model.n_leaves)


def _check_methods(methods) -> list[str]:
    return check_keys(list(REGRESSION_METHODS if methods is None else methods),
                      REGRESSION_METHODS, "method")


def run_split(X_train, y_train, X_test, y_test, split: int,
              methods=None) -> list[dict]:
    """Every method on one split.

    Parameters
    ----------
    X_train, y_train : ndarray
        The training part, in the split's order: its first two thirds
        (:func:`pdtbook.runner.growing_size`) grow the tree that ``rep``
        prunes with the rest.
    X_test, y_test : ndarray
    split : int
        Seeds the grower and the folds.
    methods : list of str, optional
        Keys of :data:`REGRESSION_METHODS` (default all).

    Returns
    -------
    list of dict
        One row per method, with the columns of :data:`COLUMNS` but
        ``dataset``.
    """
    methods = _check_methods(methods)
    s = _Split(np.asarray(X_train), np.asarray(y_train),
               growing_size(len(y_train)), split)
    variance = float(np.var(y_test))
    rows = []
    for method in methods:
        model, seconds = _PRUNERS[method](s)
        mse = float(np.mean((model.predict(X_test) - y_test) ** 2))
        rows.append(dict(split=split, method=method, n_train=len(y_train),
                         n_features=X_train.shape[1], test_mse=mse,
                         relative_error=mse / variance,
                         n_leaves=_n_leaves(model), prune_seconds=seconds))
    return rows


# --------------------------------------------------------------------- running
def _protocol() -> dict:
    return dict(runner="regression_study", test_fraction=TEST_FRACTION,
                max_train=MAX_TRAIN, max_test=MAX_TEST, cv_folds=CV_FOLDS,
                min_samples_leaf=MIN_SAMPLES_LEAF,
                ccp_grid_size=SKLEARN_GRID_SIZE,
                friedman_samples=FRIEDMAN_SAMPLES,
                friedman_noise=FRIEDMAN_NOISE)


@run_docstring
def run(names, *, splits=N_SPLITS, methods=None, cache=None, n_jobs=None,
        out=None, progress: bool = True,
        report: dict | None = None) -> list[dict]:
    """Run every method on every split of every data set; optionally write a
    CSV.

    Parameters
    ----------
    names : str or list of str
        Keys of :data:`REGRESSION_DATASETS`.
    splits : int or iterable of int, default 10
        Number of splits (0..splits-1) or the split indices.
    methods : list of str, optional
        Keys of :data:`REGRESSION_METHODS` (default all).
    cache : path-like, optional
        Directory of per-split JSON files (:class:`pdtbook.runner.Cache`); a
        rerun computes only the (data set, split, method) triples missing.
    n_jobs : int, optional
        joblib's ``n_jobs``; inside ``joblib.parallel_config(backend="dask")``
        the splits run on a Dask cluster.
    {run_outputs}

    Returns
    -------
    list of dict
        One row per (data set, split, method), with the columns
        :data:`COLUMNS`.
    """
    names = check_keys([names] if isinstance(names, str) else list(names),
                       REGRESSION_DATASETS, "data set")
    methods = _check_methods(methods)
    splits = check_splits(splits)
    data = {name: load_regression(name) for name in names}

    def task(name, split, missing):
        X, y = data[name]
        train, test, _ = split_indices(len(y), split, TEST_FRACTION,
                                       MAX_TRAIN, MAX_TEST)
        return delayed(run_split)(X[train], y[train], X[test], y[test], split,
                                  missing)

    cache = None if cache is None else Cache(cache, _protocol(), key="method")
    done = run_splits(names, splits, methods, task, key="method", cache=cache,
                      n_jobs=n_jobs, progress=progress, report=report)
    rows = [dict(done[name, split][method], dataset=name)
            for name in names for split in splits for method in methods]
    rows = [{column: row[column] for column in COLUMNS} for row in rows]
    if out is not None:
        write_results(rows, COLUMNS, out)
    return rows


# ---------------------------------------------------------------- command line
def _parser():
    parser = command_line(
        "python -m pdtbook.regression_study",
        "The pruners of regression trees on the same random splits of eleven "
        "regression data sets (Chapter 11).", REGRESSION_DATASETS,
        "pdtbook/data/regression_study.csv")
    parser.add_argument("--methods", nargs="+",
                        help="methods (default all): "
                             f"{', '.join(REGRESSION_METHODS)}")
    return parser


@command_docstring("python -m pdtbook.regression_study")
def main(argv=None) -> int:
    parser = _parser()
    args = parse_arguments(parser, argv, lambda args: "regression_study")
    if args.all:               # every data set loads offline: no --data needed
        args.datasets = list(REGRESSION_DATASETS)
        args.all = False
    report = run_command(parser, args, REGRESSION_DATASETS,
                         partial(run, splits=args.splits, methods=args.methods,
                                 cache=args.cache, out=args.out))
    write_run_record(args, report, len(_check_methods(args.methods)))
    return 0


if __name__ == "__main__":
    # Run the importable module's main, so that joblib's workers find the tasks
    # by name.
    from pdtbook import regression_study

    sys.exit(regression_study.main())
