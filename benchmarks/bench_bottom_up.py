"""Speed of reduced-error pruning and Kearns & Mansour's pass against one scikit-learn predict.

The tree is the ~53,000-node tree of the cost-complexity benchmark
(``make_classification(n_samples=200_000, n_features=20, n_informative=8, flip_y=0.3,
random_state=0)``, ``DecisionTreeClassifier(random_state=0)``); the pruning sample is another
200,000 examples drawn with another seed. Each pruner is reported as a multiple of the time
of one ``clf.predict`` on the pruning sample, measured in the same run (best of five).

    python benchmarks/bench_bottom_up.py
"""


import prunekit as pk
from timing import best_time, big_tree



def main():
    clf, tree, (X, y), (X_prune, y_prune) = big_tree()
    predict = best_time(lambda: clf.predict(X_prune))
    cases = [
        ("reduced_error (200,000 pruning examples)", lambda: pk.reduced_error(tree, X_prune, y_prune)),
        ("kearns_mansour on the growing counts", lambda: pk.kearns_mansour(tree, delta=0.05, c=1.0)),
        ("kearns_mansour on 200,000 examples", lambda: pk.kearns_mansour(tree, delta=0.05, c=1.0, X_prune=X_prune, y_prune=y_prune)),
        ("node_counts (the counting pass alone)", lambda: tree.node_counts(X_prune, y_prune)),
        ("for reference: scikit-learn decision_path", lambda: clf.decision_path(X_prune)),
    ]
    print(f"tree: {tree.n_nodes} nodes, depth {tree.max_depth}; "
          f"one scikit-learn predict on 200,000 examples: {predict:.4f} s")
    print(f"{'':<44}{'seconds':>9}{'predicts':>10}")
    for name, function in cases:
        seconds = best_time(function)
        print(f"{name:<44}{seconds:>9.4f}{seconds / predict:>10.2f}")


if __name__ == "__main__":
    main()
