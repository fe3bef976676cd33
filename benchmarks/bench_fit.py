"""Time of the default ``PrunedTreeClassifier().fit``, against an earlier version of prunekit.

The default fit grows a scikit-learn tree and prunes it at the alpha that 10-fold
cross-validation chooses with the 1-SE rule (``CrossValidatedCostComplexityPruner``). Three
data sets: breast cancer (569 x 30), digits (1,797 x 64, ten classes) and
``make_classification(n_samples=20_000, n_features=20, n_informative=8, flip_y=0.3,
random_state=0)``. Every fit is timed in a new process that imports one code base and first
fits a 300-row part of the data (imports and first calls are not timed), in CPU time
(``time.process_time``) and wall time (``time.perf_counter``). The two code bases take turns,
five fits each per data set, the first of each pair alternating, so both see the same load;
the figures are the medians, and the ratio is the earlier version's over this one's.

    git worktree add /tmp/old <earlier commit>
    python benchmarks/bench_fit.py /tmp/old

Without an argument only this checkout is timed. The fitted prunings of both versions are
compared too: the ratio means something only when they prune alike.
"""

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPEATS = 5
DATA_SETS = ("breast cancer", "digits", "20k make_classification")
HERE = Path(__file__).resolve().parent


def load(name):
    from sklearn.datasets import load_breast_cancer, load_digits, make_classification

    if name == "breast cancer":
        return load_breast_cancer(return_X_y=True)
    if name == "digits":
        return load_digits(return_X_y=True)
    return make_classification(n_samples=20_000, n_features=20, n_informative=8, flip_y=0.3,
                               random_state=0)


def measure(name):
    """CPU and wall seconds of one default fit on a data set, in this process."""
    import prunekit as pk

    X, y = load(name)
    pk.PrunedTreeClassifier(random_state=0).fit(X[:300], y[:300])        # warm-up
    start_cpu, start_wall = time.process_time(), time.perf_counter()
    fitted = pk.PrunedTreeClassifier(random_state=0).fit(X, y)
    return {"cpu": time.process_time() - start_cpu, "wall": time.perf_counter() - start_wall,
            "alpha": fitted.pruner_.alpha_, "kept": fitted.pruning_.kept.tolist(),
            "library": pk.__file__}


def run(code_base, name):
    """``measure(name)`` in a new process that imports prunekit from ``code_base``."""
    environment = {**os.environ, "PYTHONPATH": str(code_base)}
    done = subprocess.run([sys.executable, __file__, "--measure", name], env=environment,
                          capture_output=True, text=True, check=True)
    result = json.loads(done.stdout)
    if Path(result["library"]).resolve().parent.parent != Path(code_base).resolve():
        raise RuntimeError(f"{code_base}: the process imported {result['library']}")
    return result


def medians(runs):
    """The median CPU and wall seconds of the runs of ``run``."""
    return {key: statistics.median(run[key] for run in runs) for key in ("cpu", "wall")}


def main(baseline=None):
    current = HERE.parent
    print(f"default PrunedTreeClassifier(random_state=0).fit, median of {REPEATS}")
    header = f"{'data set':<26}{'CPU s':>9}{'wall s':>9}"
    if baseline:
        header += f"{'old CPU s':>11}{'old wall s':>11}{'CPU ratio':>11}{'wall ratio':>11}"
    print(header)
    for name in DATA_SETS:
        times = {"new": [], "old": []}
        for repeat in range(REPEATS):
            turns = ["old", "new"] if baseline else ["new"]
            for which in turns[::-1] if repeat % 2 else turns:
                times[which].append(run(baseline if which == "old" else current, name))
        new = medians(times["new"])
        row = f"{name:<26}{new['cpu']:>9.3f}{new['wall']:>9.3f}"
        if baseline:
            old = medians(times["old"])
            prunings = {(repr(t["kept"]), t["alpha"]) for t in times["old"] + times["new"]}
            row += (f"{old['cpu']:>11.3f}{old['wall']:>11.3f}{old['cpu'] / new['cpu']:>10.2f}x"
                    f"{old['wall'] / new['wall']:>10.2f}x"
                    + ("" if len(prunings) == 1 else "  PRUNED DIFFERENTLY"))
        print(row, flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--measure"]:
        print(json.dumps(measure(sys.argv[2])))
    else:
        main(sys.argv[1] if len(sys.argv) > 1 else None)
