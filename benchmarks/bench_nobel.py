"""Time of Nobel's exact pruning (the size-indexed dynamic programme) against tree size.

Trees are grown by scikit-learn on ``make_classification(n_features=20, n_informative=8,
flip_y=0.3, random_state=0)`` samples of increasing size; the reference in the same run is
the cost-complexity path of the same tree (the linear-penalty problem, solved by weakest links).

    python benchmarks/bench_nobel.py
"""

from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

import prunekit as pk
from timing import best_time


def main():
    print(f"{'samples':>8}{'nodes':>8}{'nobel exact s':>15}{'ccp path s':>12}{'ratio':>8}")
    previous = None
    for n_samples in (3_500, 17_000, 70_000):
        X, y = make_classification(n_samples=n_samples, n_features=20, n_informative=8,
                                   flip_y=0.3, random_state=0)
        tree = pk.Tree.from_sklearn(DecisionTreeClassifier(random_state=0).fit(X, y), X, y)
        exact = best_time(lambda: pk.nobel(tree), repeats=1 if tree.n_nodes > 10_000 else 3)
        path = best_time(lambda: pk.cost_complexity_path(tree), repeats=3)
        growth = "" if previous is None else (
            f"   time x{exact / previous[1]:.1f} for nodes x{tree.n_nodes / previous[0]:.1f}")
        print(f"{n_samples:>8}{tree.n_nodes:>8}{exact:>15.3f}{path:>12.3f}{exact / path:>8.1f}{growth}")
        previous = (tree.n_nodes, exact)


if __name__ == "__main__":
    main()
