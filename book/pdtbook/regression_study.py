"""Which pruner for regression trees? The pruners of Chapter 11 on the same splits of many
regression data sets.

The regression twin of :mod:`pdtbook.study` (Chapter 9): cost complexity with alpha chosen by
10-fold cross-validation and the 0-SE or 1-SE rule (Breiman et al. 1984, ch. 8), reduced-error
pruning on a third of the training part, the fixed penalty c sigma^2 |T| log(n) / n with the
noise variance estimated from the grown tree (Gey & Nedelec 2005; :func:`prunekit.gey_nedelec`),
scikit-learn's ``ccp_alpha`` chosen by ``GridSearchCV``, and the unpruned tree, on eleven data
sets available offline: ISLR's Hitters, Boston and Carseats (shipped with the book), scikit-learn's
diabetes, Friedman's three functions (Friedman 1991) simulated by scikit-learn, and four data
sets bundled with statsmodels. The results are analysed with :mod:`pdtbook.study`'s statistics
(average ranks, the Friedman test, the Nemenyi test; Demšar 2006) on the relative test error.

The protocol of a regression split
----------------------------------
1. The split of :func:`pdtbook.runner.split_indices`: a third of the examples to test (at most
   :data:`MAX_TEST`), the rest to train (at most :data:`MAX_TRAIN`); reduced-error pruning
   grows on the first two thirds of the training part and prunes with the last third, every
   other method grows (and tunes) on the whole training part.
2. Every tree is grown by ``DecisionTreeRegressor(min_samples_leaf=5, random_state=i)``:
   leaves of five examples or more, so that the grown tree leaves a residual from which the
   penalty estimates the noise variance (:func:`prunekit.residual_variance`; a leaf of one
   example has none). Folds are ``KFold(10, shuffle=True, random_state=i)``.
3. Each method's test mean squared error, its *relative test error* (the test MSE over the
   variance of the test targets, so that data sets of different scales compare: 1 is the
   error of predicting the test mean), its number of leaves and the CPU seconds it takes to
   prune (its tuning included) are recorded.

The table the book reads was produced, from the repository's root, by::

    nice python -m pdtbook.regression_study --all --n-jobs 2 \\
        --cache /tmp/prunekit-regression-study

Finished splits are cached as in :mod:`pdtbook.study`, and ``--dask-scheduler ADDRESS`` runs
the splits on a Dask cluster through :mod:`pdtbook.runner`.
"""

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
    Cache, check_keys, check_splits, command_docstring, command_line, parse_arguments,
    run_command, run_splits, split_indices, write_results,
)

__all__ = ["REGRESSION_DATASETS", "REGRESSION_METHODS", "REGRESSION_LABELS", "load_regression",
           "run_split", "run", "main"]

#: Splits per data set, the test fraction, and the caps on the training and test parts.
N_SPLITS, TEST_FRACTION, MAX_TRAIN, MAX_TEST = 10, 1 / 3, 2000, 5000
#: Folds of the cross-validated methods, and examples per leaf of the grower.
CV_FOLDS, MIN_SAMPLES_LEAF = 10, 5
#: Alphas of scikit-learn's grid search: this many, evenly spread over the path's.
SKLEARN_GRID_SIZE = 30
#: Examples drawn from each of Friedman's functions, and their noise levels.
FRIEDMAN_SAMPLES = 1000
FRIEDMAN_NOISE = {1: 1.0, 2: 125.0, 3: 0.1}

#: The methods, in the order of the tables.
REGRESSION_METHODS = ("unpruned", "ccp-cv-0se", "ccp-cv-1se", "rep", "gey-nedelec",
                      "sklearn-ccp")
#: How the book names each method.
REGRESSION_LABELS = {"unpruned": "unpruned", "ccp-cv-0se": "CCP, CV 0-SE",
                 "ccp-cv-1se": "CCP, CV 1-SE", "rep": "REP",
                 "gey-nedelec": "Gey-Nedelec penalty", "sklearn-ccp": "sklearn GridSearchCV"}
COLUMNS = ("dataset", "split", "method", "n_train", "n_features", "test_mse",
           "relative_error", "n_leaves", "prune_seconds")


def _islr(name: str, target: str, transform=None):
    import pandas as pd

    from pdtbook.islr import load_islr

    frame = load_islr(name, dropna=True)
    X = pd.get_dummies(frame.drop(columns=target), drop_first=True, dtype=float)
    y = frame[target].to_numpy(dtype=float)
    return X.to_numpy(dtype=float), (transform(y) if transform else y)


def _statsmodels(name: str, target=None, ratio=None):
    from statsmodels import datasets

    frame = getattr(datasets, name).load_pandas().data
    if ratio is not None:                     # star98: the share of students above the median
        above, below = ratio
        y = frame[above] / (frame[above] + frame[below])
        X = frame.drop(columns=[above, below])
    else:
        y, X = frame[target], frame.drop(columns=target)
    return X.to_numpy(dtype=float), y.to_numpy(dtype=float)


def _friedman(number: int):
    from sklearn import datasets

    make = getattr(datasets, f"make_friedman{number}")
    return make(FRIEDMAN_SAMPLES, noise=FRIEDMAN_NOISE[number], random_state=number)


def _diabetes():
    from sklearn.datasets import load_diabetes

    return load_diabetes(return_X_y=True)


#: Every data set: name -> (what it is, a loader returning X and y).
REGRESSION_DATASETS = {
    "hitters": ("ISLR: log salary of 263 baseball players",
                partial(_islr, "Hitters", "Salary", np.log)),
    "boston": ("ISLR: median home value of 506 Boston tracts", partial(_islr, "Boston", "medv")),
    "carseats": ("ISLR: car seat sales in 400 stores", partial(_islr, "Carseats", "Sales")),
    "diabetes": ("scikit-learn: disease progression of 442 patients", _diabetes),
    "friedman1": ("Friedman #1, simulated, 1000 examples", partial(_friedman, 1)),
    "friedman2": ("Friedman #2, simulated, 1000 examples", partial(_friedman, 2)),
    "friedman3": ("Friedman #3, simulated, 1000 examples", partial(_friedman, 3)),
    "fair": ("statsmodels: time in extramarital affairs of 6366 women",
             partial(_statsmodels, "fair", "affairs")),
    "star98": ("statsmodels: share of pupils above the national median in 303 school "
               "districts", partial(_statsmodels, "star98", ratio=("NABOVE", "NBELOW"))),
    "randhie": ("statsmodels: visits to a doctor of 20190 people (RAND insurance study)",
                partial(_statsmodels, "randhie", "mdvis")),
    "engel": ("statsmodels: food expenditure of 235 Belgian households by income",
              partial(_statsmodels, "engel", "foodexp")),
}


def load_regression(name: str) -> tuple[np.ndarray, np.ndarray]:
    """The features and targets of one of :data:`REGRESSION_DATASETS`.

    Examples
    --------
    >>> X, y = load_regression("boston")
    >>> X.shape
    (506, 12)
    """
    name = check_keys([name], REGRESSION_DATASETS, "data set")[0]
    X, y = REGRESSION_DATASETS[name][1]()
    return np.asarray(X, dtype=float), np.asarray(y, dtype=float)


# ---------------------------------------------------------------------- one split
def _grower(seed: int) -> DecisionTreeRegressor:
    return DecisionTreeRegressor(min_samples_leaf=MIN_SAMPLES_LEAF, random_state=seed)


def _grown(X, y, seed: int) -> pk.RegressionTree:
    return pk.RegressionTree.from_sklearn(_grower(seed).fit(X, y), X, y)


def _cross_validated(rule: str):
    def prune(tree, X, y, seed):
        selection = pk.cross_validate_alpha(X, y, _grower(seed),
                                            cv=KFold(CV_FOLDS, shuffle=True,
                                                     random_state=seed))
        step = selection.best if rule == "0-SE" else selection.one_se
        return selection.path.pruning(step)
    return prune


def _sklearn_ccp(tree, X, y, seed):
    alphas = _grower(seed).cost_complexity_pruning_path(X, y).ccp_alphas
    grid = np.unique(alphas[np.linspace(0, len(alphas) - 1, min(SKLEARN_GRID_SIZE, len(alphas)))
                            .round().astype(int)])
    search = GridSearchCV(_grower(seed), {"ccp_alpha": grid.tolist()},
                          cv=KFold(CV_FOLDS, shuffle=True, random_state=seed),
                          scoring="neg_mean_squared_error").fit(X, y)
    return search.best_estimator_


_PRUNERS = {
    "unpruned": lambda tree, X, y, seed: pk.Pruning.full(tree),
    "ccp-cv-0se": _cross_validated("0-SE"),
    "ccp-cv-1se": _cross_validated("1-SE"),
    "gey-nedelec": lambda tree, X, y, seed: pk.gey_nedelec(tree),
    "sklearn-ccp": _sklearn_ccp,
}


def run_split(X_train, y_train, X_test, y_test, split: int, methods=None) -> list[dict]:
    """Every method on one split: one row per method (the columns of :data:`COLUMNS` but the
    data set's name)."""
    methods = check_keys(list(REGRESSION_METHODS if methods is None else methods),
                         REGRESSION_METHODS, "method")
    tree = _grown(X_train, y_train, split)
    growing = int(round(2 * len(y_train) / 3))
    half = _grown(X_train[:growing], y_train[:growing], split)
    variance = float(np.var(y_test))
    rows = []
    for method in methods:
        start = time.process_time()
        if method == "rep":
            model = pk.reduced_error(half, X_train[growing:], y_train[growing:])
        else:
            model = _PRUNERS[method](tree, X_train, y_train, split)
        seconds = time.process_time() - start
        mse = float(np.mean((model.predict(X_test) - y_test) ** 2))
        leaves = model.get_n_leaves() if hasattr(model, "get_n_leaves") else model.n_leaves
        rows.append(dict(split=split, method=method, n_train=len(y_train),
                         n_features=X_train.shape[1], test_mse=mse,
                         relative_error=mse / variance, n_leaves=int(leaves),
                         prune_seconds=seconds))
    return rows


def _protocol() -> dict:
    return dict(runner="regression_study", test_fraction=TEST_FRACTION, max_train=MAX_TRAIN,
                max_test=MAX_TEST, cv_folds=CV_FOLDS, min_samples_leaf=MIN_SAMPLES_LEAF,
                ccp_grid_size=SKLEARN_GRID_SIZE, friedman_samples=FRIEDMAN_SAMPLES,
                friedman_noise=FRIEDMAN_NOISE)


def run(names, *, splits=N_SPLITS, methods=None, cache=None, n_jobs=None, out=None,
        progress: bool = True, report: dict | None = None) -> list[dict]:
    """Run every method on every split of every data set; optionally write a CSV.

    Parameters
    ----------
    names : list of str
        Keys of :data:`REGRESSION_DATASETS`.
    splits : int or iterable of int, default 10
        Number of splits (0..splits-1) or the split indices.
    methods : list of str, optional
        Keys of :data:`REGRESSION_METHODS` (default all).
    cache : path-like, optional
        Directory of per-split JSON files (:class:`pdtbook.runner.Cache`).
    n_jobs : int, optional
        joblib's ``n_jobs``; inside ``joblib.parallel_config(backend="dask")`` the splits run
        on a Dask cluster.
    out : path-like, optional
        CSV file to write.
    progress : bool
        Show a tqdm progress bar over the splits.
    report : dict, optional
        Filled as by :func:`pdtbook.runner.run_splits`.

    Returns
    -------
    list of dict
        One row per (data set, split, method), with the columns :data:`COLUMNS`.
    """
    names = check_keys(list([names] if isinstance(names, str) else names),
                       REGRESSION_DATASETS, "data set")
    methods = check_keys(list(REGRESSION_METHODS if methods is None else methods),
                         REGRESSION_METHODS, "method")
    splits = check_splits(splits)
    data = {name: load_regression(name) for name in names}

    def task(name, split, missing):
        X, y = data[name]
        train, test, _ = split_indices(len(y), split, TEST_FRACTION, MAX_TRAIN, MAX_TEST)
        return delayed(run_split)(X[train], y[train], X[test], y[test], split, missing)

    done = run_splits(names, splits, methods, task, key="method",
                      cache=None if cache is None else Cache(cache, _protocol(),
                                                             key="method"),
                      n_jobs=n_jobs, progress=progress, report=report)
    rows = [dict(done[name, split][method], dataset=name)
            for name in names for split in splits for method in methods]
    rows = [{column: row[column] for column in COLUMNS} for row in rows]
    if out is not None:
        write_results(rows, COLUMNS, out)
    return rows


# ---------------------------------------------------------------------- command line
def _parser():
    parser = command_line(
        "python -m pdtbook.regression_study",
        "The pruners of regression trees on the same random splits of eleven regression "
        "data sets (Chapter 11).", REGRESSION_DATASETS,
        "pdtbook/data/regression_study.csv")
    parser.add_argument("--methods", nargs="+",
                        help=f"methods (default all): {', '.join(REGRESSION_METHODS)}")
    return parser


@command_docstring("python -m pdtbook.regression_study")
def main(argv=None) -> int:
    parser = _parser()
    args = parse_arguments(parser, argv, lambda args: "regression_study")
    if args.all:
        args.datasets = list(REGRESSION_DATASETS)
        args.all = False
    run_command(parser, args, REGRESSION_DATASETS,
                partial(run, splits=args.splits, methods=args.methods, cache=args.cache,
                        out=args.out))
    return 0


if __name__ == "__main__":
    # Run the importable module's main, so that joblib's workers find the tasks by name.
    from pdtbook import regression_study

    sys.exit(regression_study.main())
