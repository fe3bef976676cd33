"""Speed and memory of the classic pruners against one scikit-learn predict.

The tree is the ~53,000-node tree of the cost-complexity benchmark
(``make_classification(n_samples=200_000, n_features=20, n_informative=8, flip_y=0.3,
random_state=0)``, ``DecisionTreeClassifier(random_state=0)``); the pruning sample of
critical-value pruning is another 200,000 examples drawn with another seed, and subtree raising
re-routes the 200,000 growing examples. Each pruner is reported as a multiple of the time of
one ``clf.predict`` on 200,000 rows measured in the same run (best of five), with the peak of
the memory it allocates (``tracemalloc``, measured in a separate call).

    python benchmarks/bench_heuristics.py
"""

import tracemalloc


import prunekit as pk
from timing import best_time, big_tree


def peak_megabytes(function):
    """Peak memory traced while ``function()`` runs, in MB."""
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def main():
    clf, tree, (X, y), (X_prune, y_prune) = big_tree()
    predict = best_time(lambda: clf.predict(X_prune))
    cases = [
        ("pessimistic (top-down)", lambda: pk.pessimistic(tree)),
        ("pessimistic (bottom-up)", lambda: pk.pessimistic(tree, order="bottom-up")),
        ("minimum_error (Laplace)", lambda: pk.minimum_error(tree)),
        ("minimum_error (m=2)", lambda: pk.minimum_error(tree, m=2)),
        ("critical_value_path (entropy)", lambda: pk.critical_value_path(tree)),
        ("critical_value (200,000 pruning examples)",
         lambda: pk.critical_value(tree, X_prune, y_prune)),
        ("error_based (CF 0.25)", lambda: pk.error_based(tree, 0.25)),
        ("error_based_raising (200,000 examples)",
         lambda: pk.error_based_raising(tree, X, y, 0.25)),
    ]
    print(f"tree: {tree.n_nodes} nodes, depth {tree.max_depth}; "
          f"one scikit-learn predict on 200,000 examples: {predict:.4f} s")
    print(f"{'':<44}{'seconds':>9}{'predicts':>10}{'peak MB':>9}")
    for name, function in cases:
        seconds = best_time(function)
        print(f"{name:<44}{seconds:>9.4f}{seconds / predict:>10.2f}"
              f"{peak_megabytes(function):>9.1f}")


if __name__ == "__main__":
    main()
