"""Speed and peak memory of k-REP and of Rademacher penalties.

Two parts, both on trees of ``make_classification(n_features=20, n_informative=8, flip_y=0.3,
random_state=0)`` grown to purity by ``DecisionTreeClassifier(random_state=0)`` on the first n
examples of a draw of 1.5 n, the other n / 2 being the pruning sample.

* Speed (n = 20,000 and 40,000; trees of about 5,000 and 10,000 nodes): seconds, and multiples
  of one ``clf.predict`` on the pruning sample measured in the same run (best of several
  calls). The penalties are computed for 100 sign draws at once; with a budget k, every draw
  runs k-REP twice (once per sign).
* Scale (n = 200,000 and 500,000; trees of about 53,000 and 131,000 nodes, the size of the
  benchmark tree of ``bench_cost_complexity.py``): ``k_reduced_error`` for budgets from 0 to n,
  including the largest budget below the growing errors of REP's pruning (above it the answer
  is REP's), and ``rademacher_penalty`` with a budget. Every case runs alone in a fresh Python
  process that loads the tree from a file; the table gives the wall time of the call, the
  process's resident memory before the call and its peak (``ru_maxrss``, which includes the
  interpreter, the libraries and the data: the honest figure for what the call needs), and the
  answer (pruning errors, nodes, growing errors) so that two versions can be compared. A case
  that exceeds ``--memory-limit`` GB of address space fails with MemoryError.

    python benchmarks/bench_rademacher.py             # both parts
    python benchmarks/bench_rademacher.py --scale     # only the scale table
    python benchmarks/bench_rademacher.py --speed     # only the speed table

The tables are printed and written to ``benchmarks/results/rademacher.txt`` and
``benchmarks/results/rademacher_scale.txt``.
"""

import argparse
import json
import pathlib
import pickle
import re
import resource
import subprocess
import sys
import tempfile
import time

from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

import prunekit as pk
from prunekit.k_reduced_error_pruning import growing_errors_of_tree
from timing import best_time

RESULTS = pathlib.Path(__file__).parent / "results"
N_DRAWS = 100
SPEED_SIZES = (20_000, 40_000)
SCALE_SIZES = (200_000, 500_000)
SCALE_DRAWS = 10


def grow(n_grow):
    """The tree grown on n_grow examples, its estimator, and the pruning sample (n_grow / 2)."""
    X, y = make_classification(n_samples=n_grow + n_grow // 2, n_features=20, n_informative=8,
                               flip_y=0.3, random_state=0)
    X_grow, y_grow, X_prune, y_prune = X[:n_grow], y[:n_grow], X[n_grow:], y[n_grow:]
    clf = DecisionTreeClassifier(random_state=0).fit(X_grow, y_grow)
    return pk.Tree.from_sklearn(clf, X_grow, y_grow), clf, X_prune, y_prune


# ---------------------------------------------------------------------- speed
def speed_cases(tree, X_prune, y_prune):
    n_grow = tree.n_samples
    cases = [
        ("reduced_error", lambda: pk.reduced_error(tree, X_prune, y_prune), 5),
    ]
    for k in (100, 1_000, 3_000, n_grow):
        cases.append((f"k_reduced_error, k = {k:,}",
                      lambda k=k: pk.k_reduced_error(tree, X_prune, y_prune, k), 3))
    cases.append((f"rademacher_penalty, {N_DRAWS} draws",
                  lambda: pk.rademacher_penalty(tree, X_prune, y_prune, random_state=0,
                                                n_draws=N_DRAWS), 5))
    for k in (100, 1_000):
        cases.append((f"rademacher_penalty, {N_DRAWS} draws, k = {k:,}",
                      lambda k=k: pk.rademacher_penalty(tree, X_prune, y_prune, random_state=0,
                                                        n_draws=N_DRAWS, k=k), 2))
    return cases


def measure_speed(n_grow):
    tree, clf, X_prune, y_prune = grow(n_grow)
    predict = best_time(lambda: clf.predict(X_prune), 20)
    lines = [f"tree: {tree.n_nodes:,} nodes, depth {tree.max_depth}, grown on {n_grow:,} "
             f"examples ({growing_errors_of_tree(tree)} growing errors); "
             f"pruning sample {len(y_prune):,}; one scikit-learn predict on it: "
             f"{predict:.5f} s",
             f"{'':<46}{'seconds':>9}{'predicts':>10}"]
    for name, function, repeats in speed_cases(tree, X_prune, y_prune):
        seconds = best_time(function, repeats)
        lines.append(f"{name:<46}{seconds:>9.4f}{seconds / predict:>10.1f}")
    return lines


# ---------------------------------------------------------------------- scale
def scale_cases(tree, X_prune, y_prune):
    """(label, function name, k) of the scale table for one tree."""
    n = tree.n_samples
    rep_growing = pk.reduced_error(tree, X_prune, y_prune).errors()
    cases = [("k = 0", "k_reduced_error", 0), ("k = 1", "k_reduced_error", 1),
             ("k = 10", "k_reduced_error", 10), ("k = 100", "k_reduced_error", 100),
             ("k = n/100", "k_reduced_error", n // 100), ("k = n/20", "k_reduced_error", n // 20),
             ("k = REP's - 1", "k_reduced_error", rep_growing - 1),
             ("k = n/2", "k_reduced_error", n // 2), ("k = n", "k_reduced_error", n)]
    cases += [(f"penalty, {SCALE_DRAWS} draws, k = n/100", "rademacher_penalty", n // 100),
              (f"penalty, {SCALE_DRAWS} draws, k = n/20", "rademacher_penalty", n // 20)]
    return cases


def current_rss_mb():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() / 2**20


def run_case(path, function, k):
    """Child process: load the tree, call ``function`` once, print time, memory and answer."""
    with open(path, "rb") as handle:
        tree, X_prune, y_prune = pickle.load(handle)
    before = current_rss_mb()
    start = time.perf_counter()
    if function == "k_reduced_error":
        pruning = pk.k_reduced_error(tree, X_prune, y_prune, k)
    else:
        value = pk.rademacher_penalty(tree, X_prune, y_prune, random_state=0, n_draws=SCALE_DRAWS, k=k)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if function == "k_reduced_error":
        answer = ("none" if pruning is None else
                  f"{pruning.errors(tree.node_counts(X_prune, y_prune))} / {pruning.n_nodes} / "
                  f"{pruning.errors()}")
    else:
        answer = f"mean {value.mean():.6f}"
    print(json.dumps(dict(seconds=seconds, before=before, peak=peak, answer=answer)))


def limit_memory(gigabytes):
    def apply():
        limit = int(gigabytes * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return apply


def measure_scale(n_grow, memory_limit, timeout):
    tree, _, X_prune, y_prune = grow(n_grow)
    lines = [f"tree: {tree.n_nodes:,} nodes, depth {tree.max_depth}, grown on n = {n_grow:,} "
             f"examples; pruning sample {len(y_prune):,}; REP's pruning makes "
             f"{pk.reduced_error(tree, X_prune, y_prune).errors():,} growing errors",
             f"{'case':<32}{'k':>9}{'seconds':>9}{'MB before':>11}{'peak MB':>9}  answer"]
    print("\n".join(lines), flush=True)
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "tree.pkl"
        with open(path, "wb") as handle:
            pickle.dump((tree, X_prune, y_prune), handle)
        for label, function, k in scale_cases(tree, X_prune, y_prune):
            command = [sys.executable, __file__, "--case", str(path), function, str(k)]
            try:
                done = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                                      preexec_fn=limit_memory(memory_limit))
            except subprocess.TimeoutExpired:
                lines.append(f"{label:<32}{k:>9,}  more than {timeout} s")
                print(lines[-1], flush=True)
                continue
            if done.returncode != 0:
                error = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
                error = re.sub(r"^[\w.]*\.(?=\w+: )", "", error)     # drop the module path
                lines.append(f"{label:<32}{k:>9,}  failed (limit {memory_limit:g} GB): "
                             f"{error[:70]}")
            else:
                row = json.loads(done.stdout.strip().splitlines()[-1])
                lines.append(f"{label:<32}{k:>9,}{row['seconds']:>9.2f}{row['before']:>11.0f}"
                             f"{row['peak']:>9.0f}  {row['answer']}")
            print(lines[-1], flush=True)
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--speed", action="store_true", help="only the speed table")
    parser.add_argument("--scale", action="store_true", help="only the scale table")
    parser.add_argument("--memory-limit", type=float, default=12.0,
                        help="address-space limit of every scale case, in GB (default 12)")
    parser.add_argument("--timeout", type=int, default=900,
                        help="time limit of every scale case, in seconds (default 900)")
    parser.add_argument("--case", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case:
        run_case(args.case[0], args.case[1], int(args.case[2]))
        return
    RESULTS.mkdir(exist_ok=True)
    both = args.speed == args.scale
    if args.speed or both:
        report = []
        for n_grow in SPEED_SIZES:
            lines = measure_speed(n_grow)
            print("\n".join(lines) + "\n", flush=True)
            report += lines + [""]
        (RESULTS / "rademacher.txt").write_text("\n".join(report))
        print(f"table: {RESULTS / 'rademacher.txt'}\n")
    if args.scale or both:
        report = ["answer: pruning errors / nodes / growing errors of the k-REP pruning ('none': "
                  "no pruning within the budget); for the penalty, the mean over the draws", ""]
        for n_grow in SCALE_SIZES:
            report += measure_scale(n_grow, args.memory_limit, args.timeout) + [""]
            print(flush=True)
        (RESULTS / "rademacher_scale.txt").write_text("\n".join(report))
        print(f"table: {RESULTS / 'rademacher_scale.txt'}")

if __name__ == "__main__":
    main()
