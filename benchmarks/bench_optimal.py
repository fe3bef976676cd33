"""The optimal tree against greedy growing plus cost-complexity pruning, on the same features.

On the breast-cancer data (569 examples, 30 features) the features are binarised once
(``pk.binarize(X, max_thresholds=THRESHOLDS)``). For each depth D, a greedy tree (Gini, depth
<= D) is grown on those binary features and pruned at ALPHA (``pk.cost_complexity``), and
STreeD finds the tree of depth <= D of smallest R_alpha on the same features
(``pk.optimal_tree``). Both are scored with ``pk.penalized_risk``, in the units of
``pk.cost_complexity``: training errors / m + alpha * leaves. The seconds are STreeD's (best of
REPEATS runs), the greedy tree's growing and pruning, and, at depth <= 2, the pure-Python
dynamic program's (one run).

    python benchmarks/bench_optimal.py [--thresholds 5] [--alpha 0.005] [--time-limit 600]
                                       [--repeats 3]

prints the table.
"""

import argparse

from sklearn.datasets import load_breast_cancer

import prunekit as pk
from timing import best_time

DEPTHS = (2, 3, 4)
THRESHOLDS = 5
ALPHA = 0.005
REPEATS = 3


def measure(X, y, b, depth, alpha, time_limit, repeats=REPEATS):
    B = b.transform(X)
    greedy = pk.cost_complexity(pk.grow_tree(B, y, max_depth=depth), alpha)
    greedy_seconds = best_time(
        lambda: pk.cost_complexity(pk.grow_tree(B, y, max_depth=depth), alpha), repeats)
    best = pk.optimal_tree(X, y, max_depth=depth, alpha=alpha, binarization=b,
                           time_limit=time_limit)
    seconds = best_time(lambda: pk.optimal_tree(X, y, max_depth=depth, alpha=alpha,
                                                binarization=b, time_limit=time_limit),
                        repeats)
    dp_seconds = None
    if depth <= 2:
        dp_seconds = best_time(lambda: pk.optimal_tree(
            X, y, max_depth=depth, alpha=alpha, binarization=b, solver="dp",
            time_limit=time_limit), 1)
    return greedy, best, greedy_seconds, seconds, dp_seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--thresholds", type=int, default=THRESHOLDS)
    parser.add_argument("--alpha", type=float, default=ALPHA)
    parser.add_argument("--time-limit", type=float, default=600.0)
    parser.add_argument("--repeats", type=int, default=REPEATS)
    args = parser.parse_args()
    X, y = load_breast_cancer(return_X_y=True)
    b = pk.binarize(X, max_thresholds=args.thresholds)
    print(f"breast cancer: {len(y)} examples, {b.n_binary} binary features "
          f"({args.thresholds} thresholds per feature), alpha = {args.alpha}")
    print(f"{'depth':>5} {'greedy+CCP R':>13} {'leaves':>6} {'errors':>6} "
          f"{'optimal R':>10} {'leaves':>6} {'errors':>6} {'greedy s':>9} {'STreeD s':>9} "
          f"{'DP s':>7}")
    for depth in DEPTHS:
        greedy, best, greedy_s, streed_s, dp_s = measure(X, y, b, depth, args.alpha,
                                                         args.time_limit, args.repeats)
        errors = pk.Pruning.full(best).errors()
        dp = f"{dp_s:7.2f}" if dp_s is not None else f"{'-':>7}"
        print(f"{depth:>5} {pk.penalized_risk(greedy, args.alpha):>13.5f} "
              f"{greedy.n_leaves:>6} {greedy.errors():>6} "
              f"{pk.penalized_risk(best, args.alpha):>10.5f} {best.n_leaves:>6} {errors:>6} "
              f"{greedy_s:>9.3f} {streed_s:>9.3f} {dp}")


if __name__ == "__main__":
    main()
