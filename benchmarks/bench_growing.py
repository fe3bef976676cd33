"""Speed of prunekit's threshold-split search and tree grower against scikit-learn.

Both run on the same data in the same process; the figure reported is the ratio
prunekit time / scikit-learn time (best of several repeats).

    python benchmarks/bench_growing.py
"""

import numpy as np
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

import prunekit as pk
from timing import best_time
from prunekit.growing import best_threshold_split



def main():
    print("Root split (one best-split search over all features and thresholds)")
    print(f"{'m':>8}{'d':>4}{'prunekit s':>12}{'sklearn s':>11}{'ratio':>8}")
    for m in (1_000, 10_000, 100_000):
        X, y = make_classification(m, 20, n_informative=8, flip_y=0.3, random_state=0)
        ours = best_time(lambda: best_threshold_split(X, y, "gini"))
        ref = best_time(lambda: DecisionTreeClassifier(max_depth=1, random_state=0).fit(X, y))
        print(f"{m:>8}{20:>4}{ours:>12.4f}{ref:>11.4f}{ours / ref:>8.1f}")

    print("\nWhole tree grown to purity")
    print(f"{'m':>8}{'nodes':>7}{'prunekit s':>12}{'sklearn s':>11}{'ratio':>8}")
    for m in (1_000, 5_000, 20_000):
        X, y = make_classification(m, 20, n_informative=8, flip_y=0.3, random_state=0)
        tree = pk.grow_tree(X, y)
        ours = best_time(lambda: pk.grow_tree(X, y), repeats=2)
        ref = best_time(lambda: DecisionTreeClassifier(random_state=0).fit(X, y), repeats=2)
        print(f"{m:>8}{tree.n_nodes:>7}{ours:>12.4f}{ref:>11.4f}{ours / ref:>8.1f}")


if __name__ == "__main__":
    main()
