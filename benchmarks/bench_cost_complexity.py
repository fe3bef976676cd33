"""Speed of the whole cost-complexity path against scikit-learn's ``ccp_pruning_path``.

Both compute the path of the same fitted tree in the same process; the figure reported is
scikit-learn time / prunekit time (best of several repeats). The headline case is the
~53,000-node tree of ``make_classification(n_samples=200_000, n_features=20, n_informative=8,
flip_y=0.3, random_state=0)``; the other sizes show how both grow with the tree.

    python benchmarks/bench_cost_complexity.py            # table, and a plot in benchmarks/results/
"""

import pathlib

import numpy as np
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier
from sklearn.tree._tree import ccp_pruning_path

import prunekit as pk
from timing import best_time

SAMPLE_SIZES = (4_000, 15_000, 50_000, 200_000, 500_000)
RESULTS = pathlib.Path(__file__).parent / "results"



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
        rows.append((nodes, ours, theirs))
        print(f"{n_samples:>8}{nodes:>8}{ours:>12.4f}{theirs:>11.4f}{theirs / ours:>9.1f}x  {same}")
    plot(np.array(rows))


def plot(rows):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    RESULTS.mkdir(exist_ok=True)
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.loglog(rows[:, 0], rows[:, 2], "o-", label="scikit-learn ccp_pruning_path")
    ax.loglog(rows[:, 0], rows[:, 1], "s-", label="prunekit cost_complexity_path")
    ax.set_xlabel("tree size (nodes)")
    ax.set_ylabel("time for the whole path (s)")
    ax.legend()
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(RESULTS / "cost_complexity.png", dpi=120)
    print(f"plot: {RESULTS / 'cost_complexity.png'}")


if __name__ == "__main__":
    main()
