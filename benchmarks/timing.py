"""Shared helpers of the benchmark scripts: timing and the benchmarks' big tree."""

import time

from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

import prunekit as pk


def best_time(function, repeats=5):
    """Smallest wall time of ``repeats`` calls of ``function()``, in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def big_tree(n_samples=200_000):
    """The ~53,000-node benchmark tree and a second sample of the same distribution.

    ``make_classification(n_samples, n_features=20, n_informative=8, flip_y=0.3)`` with seed 0
    grows the tree (``DecisionTreeClassifier(random_state=0)``), seed 1 draws the second
    sample (for pruning or for timing ``predict``).

    Returns
    -------
    clf, tree, (X, y), (X_other, y_other)
    """
    def draw(seed):
        return make_classification(n_samples=n_samples, n_features=20, n_informative=8,
                                   flip_y=0.3, random_state=seed)

    X, y = draw(0)
    clf = DecisionTreeClassifier(random_state=0).fit(X, y)
    return clf, pk.Tree.from_sklearn(clf, X, y), (X, y), draw(1)
