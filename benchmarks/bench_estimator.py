"""The default ``PrunedTreeClassifier`` against scikit-learn's usual recipe, in one run.

1. **Fit time on 100,000 rows** (``make_classification(100_000, 20, n_informative=8,
   flip_y=0.1, random_state=0)``): ``PrunedTreeClassifier(random_state=0)`` (10-fold
   cross-validated cost-complexity pruning, 0-SE), the same with ``n_jobs=2`` folds, and
   scikit-learn's recipe, ``GridSearchCV(DecisionTreeClassifier(random_state=0),
   {"ccp_alpha": 20 values of cost_complexity_pruning_path}, cv=5)`` (the "sklearn
   ccp_alpha" of Chapter 9, which picks the candidates the same way). Each fit once, in this
   process, with CPU time (``time.process_time``, this process only: joblib's workers are not
   counted) beside wall time, and the peak memory of the process after each.
2. **Balanced accuracy on page-blocks** (5,473 blocks, five classes, 90 % of one class), on a
   stratified 70/30 split: the default classifier, the same pruner scored by balanced
   accuracy (``pruner=CrossValidatedCostComplexityPruner(scoring="balanced_accuracy")``),
   both with ``class_weight="balanced"``, C4.5's pruning with it, and scikit-learn's recipe
   with ``scoring="balanced_accuracy"``, without and with ``class_weight="balanced"``. Needs
   the UCI files (``$PRUNEKIT_DATA`` or ``../shared/data/uci``).

    python benchmarks/bench_estimator.py [--rows 100000] [--only accuracy|time]

Run it on a quiet machine: the wall-clock figures measure the load as much as the method.
"""

import argparse
import os
import resource
import time
from pathlib import Path

import numpy as np
from sklearn.datasets import make_classification
from sklearn.metrics import balanced_accuracy_score
from sklearn.model_selection import GridSearchCV, train_test_split
from sklearn.tree import DecisionTreeClassifier

import prunekit as pk

CANDIDATES = 20


def sklearn_recipe(X, y, scoring=None, class_weight=None):
    """GridSearchCV over 20 ccp_alpha values spread over the impurity path (Chapter 9)."""
    tree = DecisionTreeClassifier(class_weight=class_weight, random_state=0)
    path = tree.cost_complexity_pruning_path(X, y)
    alphas = np.unique(path.ccp_alphas[np.linspace(0, len(path.ccp_alphas) - 2,
                                                   CANDIDATES).astype(int)])
    return GridSearchCV(tree, {"ccp_alpha": alphas}, cv=5, scoring=scoring)


def timed(name, model, X, y):
    cpu, wall = time.process_time(), time.perf_counter()
    model.fit(X, y)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    fitted = model.best_estimator_ if hasattr(model, "best_estimator_") else model
    print(f"{name:<44} {cpu:>8.1f} {wall:>8.1f} {fitted.get_n_leaves():>7} {peak:>9.0f}")
    return cpu, wall


def fit_times(rows):
    X, y = make_classification(rows, 20, n_informative=8, flip_y=0.1, random_state=0)
    print(f"== fit on {rows:,} rows x 20 features")
    print(f"{'':<44} {'CPU s':>8} {'wall s':>8} {'leaves':>7} {'peak MB':>9}")
    ours = timed("PrunedTreeClassifier()", pk.PrunedTreeClassifier(random_state=0), X, y)
    parallel = pk.CrossValidatedCostComplexityPruner(n_jobs=2)
    timed("PrunedTreeClassifier(pruner=...n_jobs=2)",
          pk.PrunedTreeClassifier(pruner=parallel, random_state=0), X, y)
    theirs = timed("GridSearchCV(ccp_alpha), 20 values, cv=5", sklearn_recipe(X, y), X, y)
    print(f"scikit-learn's recipe / PrunedTreeClassifier(): CPU {theirs[0] / ours[0]:.1f}x, "
          f"wall {theirs[1] / ours[1]:.1f}x")


def page_blocks():
    from prunekit.datasets import load_uci

    home = os.environ.get("PRUNEKIT_DATA",
                          Path(__file__).resolve().parents[2] / "shared" / "data" / "uci")
    X, y = load_uci("page-blocks", home)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y,
                                              random_state=0)
    print(f"== page-blocks, {len(y_tr)} training and {len(y_te)} test rows, classes "
          f"{np.unique(y, return_counts=True)[1].tolist()}")
    scored = pk.CrossValidatedCostComplexityPruner(scoring="balanced_accuracy")
    balanced = {"class_weight": "balanced", "random_state": 0}
    models = {
        "PrunedTreeClassifier()": pk.PrunedTreeClassifier(random_state=0),
        "... scoring='balanced_accuracy'": pk.PrunedTreeClassifier(pruner=scored,
                                                                   random_state=0),
        "... class_weight='balanced'": pk.PrunedTreeClassifier(**balanced),
        "... class_weight='balanced', scoring=...": pk.PrunedTreeClassifier(
            pruner=scored, **balanced),
        "... class_weight='balanced', C4.5's EBP": pk.PrunedTreeClassifier(
            pruner=pk.ErrorBasedPruner(), **balanced),
        "GridSearchCV(ccp_alpha), balanced_accuracy": sklearn_recipe(X_tr, y_tr,
                                                                     "balanced_accuracy"),
        "... with class_weight='balanced'": sklearn_recipe(
            X_tr, y_tr, "balanced_accuracy", class_weight="balanced"),
    }
    for name, model in models.items():
        model.fit(X_tr, y_tr)
        fitted = model.best_estimator_ if hasattr(model, "best_estimator_") else model
        score = balanced_accuracy_score(y_te, model.predict(X_te))
        print(f"{name:<44} balanced accuracy {score:.3f}, {fitted.get_n_leaves()} leaves")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--only", choices=("accuracy", "time"))
    args = parser.parse_args()
    if args.only != "time":
        page_blocks()
    if args.only != "accuracy":
        fit_times(args.rows)


if __name__ == "__main__":
    main()
