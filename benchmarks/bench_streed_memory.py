"""STreeD's peak memory against the number of binary features: the constant of
``prunekit.optimal.STREED_BYTES_PER_PAIR``.

Each problem is solved in a new process (``pk.optimal_tree``, alpha = 0.01, the memory check
off), whose peak resident memory (``ru_maxrss``) is compared with that of a process that does
everything but the solve; the difference, divided by F^2 K (F binary features, K classes), is
the bytes per pair of features and per class. Breast cancer (K = 2) and digits (K = 10), at
depths 1 and 2, with a few numbers of thresholds per feature.

    python benchmarks/bench_streed_memory.py

prints one line per problem. The problems take about 30 s in all.
"""

import json
import subprocess
import sys

PROBLEMS = [("breast cancer", 2, 32), ("breast cancer", 2, 64), ("breast cancer", 1, 64),
            ("digits", 2, 4), ("digits", 2, 8)]

CHILD = """
import json, resource, sys
import numpy as np
import prunekit as pk
from sklearn.datasets import load_breast_cancer, load_digits
name, depth, thresholds, solve = json.loads(sys.argv[1])
X, y = (load_breast_cancer if name == "breast cancer" else load_digits)(return_X_y=True)
binarization = pk.binarize(X, max_thresholds=thresholds)
if solve:
    pk.optimal_tree(X, y, max_depth=depth, alpha=0.01, binarization=binarization,
                    time_limit=600, memory_limit=None)
print(json.dumps([binarization.n_binary, len(np.unique(y)),
                  resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024]))
"""


def peak(problem, solve: bool):
    """(binary features, classes, peak bytes) of one process."""
    out = subprocess.run([sys.executable, "-c", CHILD, json.dumps([*problem, solve])],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    print(f"{'data set':<14} {'depth':>5} {'F':>6} {'K':>3} {'above base':>11} "
          f"{'bytes/(F^2 K)':>14}")
    for problem in PROBLEMS:
        _, _, base = peak(problem, solve=False)
        n_binary, n_classes, solved = peak(problem, solve=True)
        extra = solved - base
        print(f"{problem[0]:<14} {problem[1]:>5} {n_binary:>6} {n_classes:>3} "
              f"{extra / 2**20:>8.0f} MB {extra / (n_binary ** 2 * n_classes):>14.0f}")


if __name__ == "__main__":
    main()
