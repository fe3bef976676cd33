"""Choosing alpha for a regression tree by 10-fold cross-validation: prunekit against
scikit-learn's grid search, and prunekit's one-pass scoring of a path against one prediction
per step.

The data are Donoho-style smooth: x uniform on [0, 1], y = 10 x (1 - x) + N(0, 1), grown by
``DecisionTreeRegressor(min_samples_leaf=5, random_state=0)`` (about 2,600 leaves for the
default 16,000 rows, as in Chapter 11's largest simulation). In the same run:

* prunekit: ``cross_validate_alpha(X, y, grower, cv=KFold(10, shuffle=True))``, which grows a
  tree per fold and scores every step of the full tree's path (thousands of alphas);
* scikit-learn: ``GridSearchCV`` over 30 alphas spread over the same path (what Chapter 11's
  study gives it), which refits a tree per fold and alpha;
* the scoring of one fold alone: ``prunekit.cost_complexity_pruning.step_losses`` (every
  step in one pass over the examples and their ancestors) against predicting the held-out
  examples with every step's pruning (``path.pruning(k).predict``), the simple way.

Each is the best of ``--repeats`` calls (CPU time beside wall time); memory is the peak
traced by ``tracemalloc`` during one call.

    python benchmarks/bench_regression_cv.py [--rows 16000] [--repeats 3]

Run it on a quiet machine: the wall-clock figures measure the load as much as the method.
"""

import argparse

import numpy as np
from sklearn.model_selection import GridSearchCV, KFold
from sklearn.tree import DecisionTreeRegressor

import prunekit as pk
from prunekit.cost_complexity_pruning import step_losses

from bench_regression_path import measured_table


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=16_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    x = rng.uniform(size=args.rows)
    X, y = x[:, None], 10 * x * (1 - x) + rng.normal(size=args.rows)
    grower = DecisionTreeRegressor(min_samples_leaf=5, random_state=0)
    folds = KFold(10, shuffle=True, random_state=0)
    path = pk.cost_complexity_path(pk.RegressionTree.from_sklearn(grower.fit(X, y), X, y))
    grid = path.alphas[np.linspace(0, len(path) - 1, 30).round().astype(int)]
    train, test = next(folds.split(X))
    fold_tree = pk.RegressionTree.from_sklearn(grower.fit(X[train], y[train]), X[train],
                                               y[train])
    fold_path = pk.cost_complexity_path(fold_tree)
    steps = np.arange(len(fold_path))
    print(f"{args.rows} rows; tree of {path.tree.n_leaves} leaves, {len(path)} steps")

    rows = {
        "prunekit cross_validate_alpha (every step)": lambda: pk.cross_validate_alpha(
            X, y, grower, cv=folds).alpha_best,
        "scikit-learn GridSearchCV (30 alphas)": lambda: GridSearchCV(
            grower, {"ccp_alpha": grid}, cv=folds,
            scoring="neg_mean_squared_error").fit(X, y).best_params_["ccp_alpha"],
        "one fold: step_losses (one pass)": lambda: step_losses(
            fold_path, X[test], y[test], steps)[0],
        "one fold: a prediction per step": lambda: np.array([
            np.sum((fold_path.pruning(k).predict(X[test]) - y[test]) ** 2)
            for k in steps]),
    }
    results = measured_table(rows, args.repeats)
    one_pass = results["one fold: step_losses (one pass)"]
    per_step = results["one fold: a prediction per step"]
    print("same squared errors per step:", bool(np.allclose(one_pass, per_step, rtol=1e-9)))
    for ours, theirs in (("prunekit cross_validate_alpha (every step)",
                          "scikit-learn GridSearchCV (30 alphas)"),
                         ("one fold: step_losses (one pass)",
                          "one fold: a prediction per step")):
        print(f"{ours} / {theirs}, CPU: {results[ours + ' cpu'] / results[theirs + ' cpu']:.3f}")


if __name__ == "__main__":
    main()
