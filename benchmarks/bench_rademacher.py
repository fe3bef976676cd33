"""Speed of k-REP and of Rademacher penalties against one scikit-learn predict.

Two trees of ``make_classification(n_features=20, n_informative=8, flip_y=0.3,
random_state=0)`` grown by ``DecisionTreeClassifier(random_state=0)``: on 20,000 examples
(pruning sample: the next 10,000 of the same draw), and on 40,000 (pruning sample: 20,000) for
a tree of about 10,000 nodes. Each case is reported in seconds and as a multiple of one
``clf.predict`` on the pruning sample, measured in the same run (best of several calls).
The penalties are computed for 100 sign draws at once; with a budget k, every draw runs
k-REP twice (once per sign).

    python benchmarks/bench_rademacher.py       # table, also written to benchmarks/results/
"""

import pathlib

from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

import prunekit as pk
from prunekit.rademacher import growing_errors_of_tree
from timing import best_time

RESULTS = pathlib.Path(__file__).parent / "results"
N_DRAWS = 100


def cases_for(tree, X_prune, y_prune):
    n_grow = tree.n_samples
    cases = [
        ("reduced_error", lambda: pk.reduced_error(tree, X_prune, y_prune), 5),
    ]
    for k in (100, 1_000, 3_000, n_grow):
        cases.append((f"k_reduced_error, k = {k:,}",
                      lambda k=k: pk.k_reduced_error(tree, X_prune, y_prune, k), 3))
    cases.append((f"rademacher_penalty, {N_DRAWS} draws",
                  lambda: pk.rademacher_penalty(tree, X_prune, y_prune, rng=0,
                                                n_draws=N_DRAWS), 5))
    for k in (100, 1_000):
        cases.append((f"rademacher_penalty, {N_DRAWS} draws, k = {k:,}",
                      lambda k=k: pk.rademacher_penalty(tree, X_prune, y_prune, rng=0,
                                                        n_draws=N_DRAWS, k=k), 2))
    return cases


def measure(n_grow):
    X, y = make_classification(n_samples=n_grow + n_grow // 2, n_features=20, n_informative=8,
                               flip_y=0.3, random_state=0)
    X_grow, y_grow, X_prune, y_prune = X[:n_grow], y[:n_grow], X[n_grow:], y[n_grow:]
    clf = DecisionTreeClassifier(random_state=0).fit(X_grow, y_grow)
    tree = pk.Tree.from_sklearn(clf, X_grow, y_grow)
    predict = best_time(lambda: clf.predict(X_prune), 20)
    lines = [f"tree: {tree.n_nodes:,} nodes, depth {tree.max_depth}, grown on {n_grow:,} "
             f"examples ({growing_errors_of_tree(tree)} growing errors); "
             f"pruning sample {len(y_prune):,}; one scikit-learn predict on it: "
             f"{predict:.5f} s",
             f"{'':<46}{'seconds':>9}{'predicts':>10}"]
    for name, function, repeats in cases_for(tree, X_prune, y_prune):
        seconds = best_time(function, repeats)
        lines.append(f"{name:<46}{seconds:>9.4f}{seconds / predict:>10.1f}")
    return lines


def main():
    report = []
    for n_grow in (20_000, 40_000):
        lines = measure(n_grow)
        print("\n".join(lines) + "\n", flush=True)
        report += lines + [""]
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "rademacher.txt").write_text("\n".join(report))
    print(f"table: {RESULTS / 'rademacher.txt'}")


if __name__ == "__main__":
    main()
