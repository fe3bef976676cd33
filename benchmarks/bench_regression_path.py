"""The cost-complexity path of a large regression tree: prunekit against scikit-learn.

A ``DecisionTreeRegressor(min_samples_leaf=2, random_state=0)`` is grown on Friedman's
first regression problem (``make_friedman1(n, noise=1.0, random_state=0)``), about 50,000
nodes for the default n. In the same run:

* scikit-learn: ``cost_complexity_pruning_path(X, y)`` of the fitted regressor, which
  grows the tree again before it computes the path, and its private path routine alone,
  ``sklearn.tree._tree.ccp_pruning_path(reg.tree_)`` (what the public method calls after
  growing), the like-for-like reference;
* prunekit: ``RegressionTree.from_sklearn`` (which routes the sample to count its moments)
  and ``cost_complexity_path``, separately and together.

Each is the best of ``--repeats`` calls (CPU time, ``time.process_time``, beside wall
time); memory is the peak traced by ``tracemalloc`` during one call. Also checked: the two
paths have the same distinct alphas.

    python benchmarks/bench_regression_path.py [--rows 60000] [--repeats 5]

Run it on a quiet machine: the wall-clock figures measure the load as much as the method.
"""

import argparse
import time
import tracemalloc

import numpy as np
from sklearn.datasets import make_friedman1
from sklearn.tree import DecisionTreeRegressor

import prunekit as pk


def measured(function, repeats):
    """(best CPU seconds, best wall seconds, peak traced MB, result) of ``function()``."""
    cpu, wall = [], []
    for _ in range(repeats):
        start_cpu, start = time.process_time(), time.perf_counter()
        result = function()
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start)
    tracemalloc.start()
    function()
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return min(cpu), min(wall), peak, result


def measured_table(rows, repeats):
    """Measure every ``rows[name]()`` and print a line each; return ``{name: result,
    name + " cpu": best CPU seconds}``."""
    results = {}
    print(f"{'':45} {'CPU s':>8} {'wall s':>8} {'peak MB':>8}")
    for name, function in rows.items():
        cpu, wall, peak, results[name] = measured(function, repeats)
        results[name + " cpu"] = cpu
        print(f"{name:45} {cpu:8.3f} {wall:8.3f} {peak:8.1f}")
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=60_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    X, y = make_friedman1(args.rows, noise=1.0, random_state=0)
    reg = DecisionTreeRegressor(min_samples_leaf=2, random_state=0).fit(X, y)
    print(f"{args.rows} rows, tree of {reg.tree_.node_count} nodes")
    tree = pk.RegressionTree.from_sklearn(reg, X, y)
    from sklearn.tree._tree import ccp_pruning_path

    rows = {
        "scikit-learn cost_complexity_pruning_path": lambda: np.unique(
            reg.cost_complexity_pruning_path(X, y).ccp_alphas),
        "scikit-learn ccp_pruning_path (path only)": lambda: np.unique(
            ccp_pruning_path(reg.tree_)["ccp_alphas"]),
        "prunekit RegressionTree.from_sklearn": lambda: pk.RegressionTree.from_sklearn(
            reg, X, y),
        "prunekit cost_complexity_path": lambda: pk.cost_complexity_path(tree).alphas,
        "prunekit both": lambda: pk.cost_complexity_path(
            pk.RegressionTree.from_sklearn(reg, X, y)).alphas,
    }
    results = measured_table(rows, args.repeats)
    theirs = results["scikit-learn cost_complexity_pruning_path"]
    ours = results["prunekit cost_complexity_path"]
    same = len(theirs) == len(ours) and np.allclose(theirs, ours, rtol=1e-9, atol=1e-12)
    print(f"same distinct alphas: {same} ({len(ours)} and {len(theirs)})")
    for ours_name, theirs_name in (
            ("prunekit both", "scikit-learn cost_complexity_pruning_path"),
            ("prunekit cost_complexity_path", "scikit-learn ccp_pruning_path (path only)")):
        ratio = results[ours_name + " cpu"] / results[theirs_name + " cpu"]
        print(f"{ours_name} / {theirs_name}, CPU: {ratio:.2f}")


if __name__ == "__main__":
    main()
