"""Speed of the whole cost-complexity path against scikit-learn's ``ccp_pruning_path``.

Both compute the path of the same fitted tree in the same process; the figure reported is
scikit-learn time / prunekit time (best of several repeats). The headline case is the
~53,000-node tree of ``make_classification(n_samples=200_000, n_features=20, n_informative=8,
flip_y=0.3, random_state=0)``; the other sizes show how both grow with the tree.

    python benchmarks/bench_cost_complexity.py

prints the table and writes it to ``prunekit/data/cost_complexity_timings.csv``, which chapter 2
reads to draw the speed comparison (times depend on the machine, so the chapter shows the
committed measurement rather than timing anything itself).
"""

import numpy as np
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier
from sklearn.tree._tree import ccp_pruning_path

import prunekit as pk
from timing import best_time

from pdtbook.results import results_path

SAMPLE_SIZES = (4_000, 15_000, 50_000, 200_000, 500_000)
TIMINGS = results_path("cost_complexity_timings")


def measure(n_samples):
    X, y = make_classification(n_samples=n_samples, n_features=20, n_informative=8,
                               flip_y=0.3, random_state=0)
    clf = DecisionTreeClassifier(random_state=0).fit(X, y)
    tree = pk.Tree.from_sklearn(clf, X, y)
    repeats = 5 if tree.n_nodes < 60_000 else 2
    ours = best_time(lambda: pk.cost_complexity_path(tree, "impurity"), repeats)
    theirs = best_time(lambda: ccp_pruning_path(clf.tree_), repeats)
    same = len(pk.cost_complexity_path(tree, "impurity").alphas) == len(
        np.unique(ccp_pruning_path(clf.tree_)["ccp_alphas"]))
    return tree.n_nodes, ours, theirs, same


def main():
    rows = []
    print(f"{'samples':>8}{'nodes':>8}{'prunekit s':>12}{'sklearn s':>11}{'speed-up':>10}  same alphas")
    for n_samples in SAMPLE_SIZES:
        nodes, ours, theirs, same = measure(n_samples)
        rows.append(f"{n_samples},{nodes},{ours:.6f},{theirs:.6f}")
        print(f"{n_samples:>8}{nodes:>8}{ours:>12.4f}{theirs:>11.4f}{theirs / ours:>9.1f}x  {same}")
    TIMINGS.write_text("samples,nodes,prunekit_seconds,sklearn_seconds\n" + "\n".join(rows) + "\n")
    print(f"written: {TIMINGS}")


if __name__ == "__main__":
    main()
