"""Weka's J48 from Python: run it, read the tree it prints, rebuild that tree in prunekit.

J48 is Weka's implementation of Quinlan's C4.5 (release 8); its pruning is what
:func:`prunekit.error_based` and :func:`prunekit.error_based_raising` reproduce. This module
runs the real program, ``java -cp weka.jar weka.classifiers.trees.J48``, on a data set written
as an ARFF file to a temporary directory, parses the tree J48 prints, and rebuilds it as a
:class:`~prunekit.Tree` with :meth:`~prunekit.Tree.from_arrays`. J48 prints each split point
rounded to six decimals and only ``(n/errors)`` at the leaves, so:

* every split point is recovered from the data: J48 sets it to a training value of the
  attribute (``C45Split.setSplitPoint``) and sends an example left when
  ``value <= split point`` within 10^-6 (``Utils.smOrEq``); the threshold stored is the largest
  training value that goes left, so that prunekit's ``x <= threshold`` routes every training
  example as J48 does;
* the class counts of every node are those of the training examples routed through the
  rebuilt tree, and each leaf's ``n`` and ``errors`` are checked against J48's printout.

Only numeric attributes without missing values can be rebuilt: J48 splits a nominal attribute
into one branch per value, which a binary :class:`~prunekit.Tree` cannot hold.

The agreement table of chapter 8 (J48's trees against prunekit's, per data set and
confidence) is regenerated with::

    python -m pdtbook.weka --data ../shared/data/uci \\
        --out prunekit/data/j48_agreement.csv

(``--data`` is the folder of the UCI files, see :func:`prunekit.datasets.load_uci`; without
it the UCI data sets are left out). It needs Java and Weka: on Debian or Ubuntu,
``sudo apt-get install weka`` (or ``make weka``) installs both, with the jar at
``/usr/share/java/weka.jar``; the environment variable ``PRUNEKIT_WEKA_JAR`` points to
another jar.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from pathlib import Path

import numpy as np

from prunekit.validation import check_count, check_sample_and_labels
from prunekit.error_based_pruning import (check_confidence, sm_or_eq,
                                          error_based, error_based_raising)
from prunekit.tree import Pruning, Tree

from pdtbook.results import results_path
from pdtbook.runner import write_results

__all__ = [
    "DEFAULT_JAR", "JAR_VARIABLE", "WekaNotFoundError", "weka_available", "weka_version",
    "j48_options", "run_j48", "parse_j48", "j48_tree", "structure", "first_difference",
    "CONFIDENCES", "agreement", "agreement_datasets", "AGREEMENT_COLUMNS", "write_agreement",
    "main",
]

DEFAULT_JAR = "/usr/share/java/weka.jar"
JAR_VARIABLE = "PRUNEKIT_WEKA_JAR"
# The confidence factors of the comparison: J48's default, two that prune more, and the
# largest one at which J48 still adds errors.
CONFIDENCES = (0.25, 0.1, 0.05, 0.5)
_DECIMALS = 6  # C45Split prints split points with Utils.doubleToString(value, 6)
# Java options for short runs: the quick (client) compiler and the serial garbage collector
# halve the processor time of a J48 run on these data sets and change nothing in its output.
_JVM_OPTIONS = ("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")


class WekaNotFoundError(RuntimeError):
    """Java or Weka's jar is not installed."""


def _jar_path(jar=None) -> Path:
    if jar is None:
        jar = os.environ.get(JAR_VARIABLE) or DEFAULT_JAR
    if not isinstance(jar, (str, os.PathLike)):
        raise TypeError(f"jar must be a path, got {type(jar).__name__}.")
    return Path(jar)


def weka_available(jar=None) -> bool:
    """Whether ``java`` is on the PATH and Weka's jar exists (``/usr/share/java/weka.jar``)."""
    return shutil.which("java") is not None and _jar_path(jar).is_file()


def _require_weka(jar=None) -> tuple[str, Path]:
    java, path = shutil.which("java"), _jar_path(jar)
    missing = [what for what, ok in (("java", java is not None), (str(path), path.is_file()))
               if not ok]
    if missing:
        raise WekaNotFoundError(
            f"running Weka's J48 needs Java and weka.jar; not found: {', '.join(missing)}. On "
            "Debian or Ubuntu, `sudo apt-get install weka` (or `make weka`) installs both; "
            f"set {JAR_VARIABLE} to use a jar elsewhere."
        )
    return java, path


def weka_version(jar=None) -> str:
    """The version of the Weka jar, as ``weka.core.Version`` prints it (e.g. ``"3.6.14"``)."""
    java, path = _require_weka(jar)
    done = subprocess.run([java, *_JVM_OPTIONS, "-cp", str(path), "weka.core.Version"],
                          capture_output=True, text=True, check=True)
    return done.stdout.split()[0]


# ---------------------------------------------------------------------------------------------
# Running J48

def j48_options(*, pruned: bool = True, confidence=0.25, subtree_raising: bool = True,
                min_leaf: int = 2) -> list[str]:
    """J48's command-line options for a tree.

    Parameters
    ----------
    pruned : bool, default True
        ``False`` gives ``-U``, J48's unpruned tree (which Weka 3.6 still collapses, see
        :func:`prunekit.error_based_pruning.collapse`).
    confidence : float in (0, 1), default 0.25
        ``-C``, the confidence factor of the pruning (ignored when not pruned).
    subtree_raising : bool, default True
        ``False`` gives ``-S``: prune without raising subtrees.
    min_leaf : int, default 2
        ``-M``, the fewest training examples a split leaves in at least two branches.
    """
    for name, value in (("pruned", pruned), ("subtree_raising", subtree_raising)):
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{name} must be True or False, got {value!r}.")
    min_leaf = check_count(min_leaf, "min_leaf", minimum=1)
    if not pruned:
        return ["-U", "-M", str(min_leaf)]
    check_confidence(confidence)
    options = ["-C", repr(float(confidence)), "-M", str(min_leaf)]
    return options if subtree_raising else ["-S"] + options


def _write_arff(path: Path, X: np.ndarray, codes: np.ndarray, n_classes: int) -> None:
    """Numeric attributes x0, x1, ... and a nominal class {c0, c1, ...} (class indices)."""
    with open(path, "w", encoding="ascii") as out:
        out.write("@relation prunekit\n")
        out.writelines(f"@attribute x{j} numeric\n" for j in range(X.shape[1]))
        out.write("@attribute class {" + ",".join(f"c{k}" for k in range(n_classes)) + "}\n")
        out.write("@data\n")
        # repr gives the shortest decimal that Java's Double.parseDouble reads back exactly
        out.writelines(",".join(map(repr, row)) + f",c{k}\n"
                       for row, k in zip(X.tolist(), codes.tolist()))


def _as_data(X, y):
    X, y = check_sample_and_labels(X, y, np.shape(X)[1] if np.ndim(X) == 2 else 0)
    classes, codes = np.unique(y, return_inverse=True)
    return X, classes, codes.ravel()


def run_j48(X, y, options=(), *, jar=None) -> str:
    """Run Weka's J48 on ``(X, y)`` and return the tree it prints.

    Parameters
    ----------
    X : array-like of shape (m, d)
        Numeric attributes, finite (J48's ARFF input gets attributes ``x0``, ``x1``, ...).
    y : array-like of shape (m,)
        Labels; the ARFF class values are ``c0``, ``c1``, ... for the sorted distinct labels.
    options : sequence of str
        J48's options, e.g. :func:`j48_options`'s.
    jar : path, optional
        Weka's jar; default ``$PRUNEKIT_WEKA_JAR``, else ``/usr/share/java/weka.jar``.

    Returns
    -------
    str
        The tree as J48 prints it (the lines between the title and "Number of Leaves").

    Raises
    ------
    WekaNotFoundError
        When Java or the jar is missing.
    """
    java, path = _require_weka(jar)
    options = [str(option) for option in options]
    X, classes, codes = _as_data(X, y)
    with tempfile.TemporaryDirectory(prefix="prunekit-j48-") as folder:
        arff = Path(folder) / "data.arff"
        _write_arff(arff, X, codes, len(classes))
        command = [java, *_JVM_OPTIONS, "-cp", str(path), "weka.classifiers.trees.J48",
                   *options, "-t", str(arff), "-no-cv", "-v"]
        done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"J48 failed ({' '.join(command)}):\n{done.stderr.strip()}")
    found = re.search(r"J48 (?:un)?pruned tree\n-+\n(.*?)\n\s*\nNumber of Leaves", done.stdout,
                      re.S)
    if found is None:
        raise RuntimeError(f"J48's output has no tree:\n{done.stdout[:2000]}")
    return found.group(1).strip("\n")


# ---------------------------------------------------------------------------------------------
# Reading the printed tree

_LINE = re.compile(
    r"^(?P<indent>(?:\|   )*)(?:x(?P<feature>\d+) (?P<op><=|>) (?P<threshold>-?[\d.]+))?"
    r"(?:: c(?P<label>\d+) \((?P<n>[\d.]+)(?:/(?P<errors>[\d.]+))?\))?$"
)


def parse_j48(text: str) -> dict:
    """Parse a tree printed by J48 into flat arrays (nodes in preorder, root 0).

    J48 prints an internal node as two lines at the same indentation (one ``|   `` per
    level), ``x3 <= 0.6`` for the left branch and ``x3 > 0.6`` for the right one, each
    followed either by ``: c0 (50.0)`` or ``: c1 (48.0/1.0)`` when the branch is a leaf
    (class, examples, errors) or by the branch's own lines. A tree that is a single leaf
    prints as ``: c0 (150.0/100.0)``.

    Returns
    -------
    dict
        ``left``, ``right``, ``feature`` (lists, -1 at leaves), ``threshold`` (the printed
        split points, as strings; ``None`` at leaves), and at the leaves ``label`` (class
        index), ``n`` and ``errors`` (floats; ``None`` at internal nodes).
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, got {type(text).__name__}.")
    lines = [line for line in text.strip("\n").split("\n") if line.strip()]
    parsed = []
    for number, line in enumerate(lines, 1):
        match = _LINE.match(line.rstrip())
        if match is None or (match["feature"] is None and match["label"] is None):
            raise ValueError(f"line {number} is not a line of a J48 tree: {line!r}")
        parsed.append(match)
    tree = dict(left=[], right=[], feature=[], threshold=[], label=[], n=[], errors=[])

    def new_node():
        for key in tree:
            tree[key].append(-1 if key in ("left", "right", "feature") else None)
        return len(tree["left"]) - 1

    def set_leaf(v, match):
        tree["label"][v] = int(match["label"])
        tree["n"][v] = float(match["n"])
        tree["errors"][v] = float(match["errors"] or 0.0)

    root = new_node()
    if len(parsed) == 1 and parsed[0]["feature"] is None:
        set_leaf(root, parsed[0])
        return tree
    position = 0
    tasks = [("left", root, 0)]
    while tasks:
        side, v, depth = tasks.pop()
        if position >= len(parsed):
            raise ValueError("the tree ends before every branch is printed.")
        match = parsed[position]
        position += 1
        if (len(match["indent"]) // 4 != depth or match["feature"] is None
                or match["op"] != ("<=" if side == "left" else ">")):
            raise ValueError(f"line {position} does not continue the tree: "
                             f"{lines[position - 1]!r}")
        if side == "left":
            tree["feature"][v], tree["threshold"][v] = int(match["feature"]), match["threshold"]
            tasks.append(("right", v, depth))
        elif (int(match["feature"]), match["threshold"]) != (tree["feature"][v],
                                                             tree["threshold"][v]):
            raise ValueError(f"line {position} does not match its left branch: "
                             f"{lines[position - 1]!r}")
        child = new_node()
        tree[side][v] = child
        if match["label"] is not None:
            set_leaf(child, match)
        else:
            tasks.append(("left", child, depth + 1))
    if position != len(parsed):
        raise ValueError(f"line {position + 1} is left over after the tree is complete.")
    return tree


def _java_rounded(values: np.ndarray) -> np.ndarray:
    """``Utils.doubleToString(v, 6)`` as an integer number of millionths: (long)(v 10^6 + 1/2)."""
    scaled = values * 10.0 ** _DECIMALS
    return np.where(scaled > 0, np.floor(scaled + 0.5), -np.floor(np.abs(scaled) + 0.5))


def _threshold(column: np.ndarray, printed: str, feature: int) -> float:
    """The threshold that routes the training values of one attribute as J48's split does.

    J48's split point s is a training value of the attribute that prints as ``printed``; a
    value v goes left when v - s < 1e-6 or v <= s. The threshold returned is the largest
    training value going left, so ``v <= threshold`` is the same test on the training data.
    """
    values = np.unique(column)
    target = int(Decimal(printed).scaleb(_DECIMALS))
    candidates = values[_java_rounded(values) == target]
    if not candidates.size:
        raise ValueError(f"no training value of x{feature} prints as J48's split point "
                         f"{printed}.")
    # Weka's Utils.smOrEq: J48 sends a value left when it exceeds the split point by less than
    # Utils.SMALL.
    thresholds = {float(values[sm_or_eq(values, s)].max()) for s in candidates}
    if len(thresholds) > 1:
        raise ValueError(
            f"J48's split point x{feature} <= {printed} is ambiguous: training values "
            f"{candidates.tolist()} all print as {printed} but split the data differently. "
            "Round the attribute to six decimals before running J48."
        )
    return thresholds.pop()


def j48_tree(X, y, *, pruned: bool = True, confidence=0.25, subtree_raising: bool = True,
             min_leaf: int = 2, jar=None) -> Tree:
    """Grow a tree with Weka's J48 and rebuild it as a :class:`~prunekit.Tree`.

    Parameters
    ----------
    X : array-like of shape (m, d)
        Numeric attributes without missing values.
    y : array-like of shape (m,)
    pruned, confidence, subtree_raising, min_leaf
        J48's options, see :func:`j48_options`. The defaults are J48's defaults.
    jar : path, optional
        Weka's jar (see :func:`run_j48`).

    Returns
    -------
    Tree
        J48's tree, thresholds recovered from the data, class counts those of ``(X, y)``
        routed through it; ``classes_`` are the sorted labels of ``y``.

    Raises
    ------
    RuntimeError
        When the rebuilt tree does not give some leaf J48's printed number of examples, of
        errors, or its class.
    """
    options = j48_options(pruned=pruned, confidence=confidence,
                          subtree_raising=subtree_raising, min_leaf=min_leaf)
    X, classes, codes = _as_data(X, y)
    parsed = parse_j48(run_j48(X, classes[codes], options, jar=jar))
    feature = np.array(parsed["feature"], dtype=np.intp)
    threshold = np.array([np.nan if printed is None else _threshold(X[:, f], printed, f)
                          for f, printed in zip(feature.tolist(), parsed["threshold"])])
    shell = Tree.from_arrays(parsed["left"], parsed["right"],
                             np.zeros((len(feature), len(classes)), dtype=np.int64),
                             feature, threshold, classes=classes, n_features=X.shape[1])
    counts = shell.node_counts(X, classes[codes])
    for v in np.flatnonzero(shell.is_leaf).tolist():
        n, errors = int(counts[v].sum()), int(counts[v].sum() - counts[v].max())
        label = int(np.argmax(counts[v]))
        if (n, errors, label) != (parsed["n"][v], parsed["errors"][v], parsed["label"][v]):
            raise RuntimeError(
                f"the rebuilt J48 tree ({' '.join(options)}) does not reproduce leaf {v}: J48 "
                f"prints c{parsed['label'][v]} ({parsed['n'][v]}/{parsed['errors'][v]}), the "
                f"training data routed through it give c{label} ({n}/{errors})."
            )
    return Tree.from_arrays(shell.left, shell.right, counts, shell.feature, shell.threshold,
                            classes=classes, n_features=X.shape[1])


# ---------------------------------------------------------------------------------------------
# Comparing trees

def structure(tree_or_pruning) -> list[tuple]:
    """A tree's nodes in preorder, left before right: ``(depth, feature, threshold, counts)``.

    Two trees have the same structure list exactly when they have the same shape, the same
    split at every internal node and the same class counts at every node. For a
    :class:`~prunekit.Pruning`, the nodes it keeps (its leaves as leaves). Leaves have
    feature -1 and threshold ``None``.
    """
    if isinstance(tree_or_pruning, Tree):
        tree_or_pruning = Pruning.full(tree_or_pruning)
    if not isinstance(tree_or_pruning, Pruning):
        raise TypeError(f"tree_or_pruning must be a Tree or a Pruning, got "
                        f"{type(tree_or_pruning).__name__}.")
    tree, is_leaf = tree_or_pruning.tree, tree_or_pruning.is_leaf
    entries, stack = [], [(0, 0)]
    while stack:
        v, depth = stack.pop()
        counts = tuple(int(c) for c in tree.counts[v])
        if is_leaf[v]:
            entries.append((depth, -1, None, counts))
        else:
            entries.append((depth, int(tree.feature[v]), float(tree.threshold[v]), counts))
            stack.extend(((int(tree.right[v]), depth + 1), (int(tree.left[v]), depth + 1)))
    return entries


def first_difference(a, b) -> str | None:
    """Where two trees (or prunings) first differ in :func:`structure`, or None if nowhere."""
    first, second = structure(a), structure(b)
    for position, (x, y) in enumerate(zip(first, second)):
        if x != y:
            return (f"node {position} in preorder: (depth, feature, threshold, counts) "
                    f"{x} against {y}")
    if len(first) != len(second):
        return f"{len(first)} nodes against {len(second)}"
    return None


# ---------------------------------------------------------------------------------------------
# The agreement table

AGREEMENT_COLUMNS = (
    "dataset", "n_samples", "n_features", "n_classes", "weka_version", "pruning", "confidence",
    "j48_options", "unpruned_nodes", "j48_nodes", "j48_leaves", "prunekit_nodes",
    "prunekit_leaves", "identical",
)


def agreement(datasets, confidences=CONFIDENCES, *, jar=None, workers: int = 2):
    """Compare J48's pruned trees with prunekit's, data set by data set.

    On each data set J48 grows the unpruned tree (``-U``), which is rebuilt in prunekit;
    then, at every confidence, J48 prunes without raising (``-S -C cf``), compared with
    :func:`prunekit.error_based` on the rebuilt tree, and with raising (``-C cf``, J48's
    default at 0.25), compared with :func:`prunekit.error_based_raising`. J48's trees and
    prunekit's are compared node by node (:func:`structure`).

    Parameters
    ----------
    datasets : sequence of (name, X, y)
        E.g. :func:`agreement_datasets`: numeric attributes without missing values, labels.
    confidences : sequence of float
    jar : path, optional
    workers : int, default 2
        J48 runs at the same time (each is a Java process).

    Returns
    -------
    list of dict
        One row per data set, pruning variant and confidence, with the keys of
        :data:`AGREEMENT_COLUMNS`; ``identical`` is True when the trees agree node for node.
        Each row also holds the trees (``"j48_tree"``; ``"prunekit_tree"``, a Pruning of
        ``"unpruned_tree"`` for the variant without raising) and ``"difference"``
        (:func:`first_difference`).
    """
    workers = check_count(workers, "workers", minimum=1)
    for confidence in confidences:
        check_confidence(confidence)
    variants = [dict(pruned=False)] + [dict(confidence=cf, subtree_raising=raising)
                                       for raising in (False, True) for cf in confidences]
    data = []
    for name, X, y in datasets:
        X, classes, codes = _as_data(X, y)
        data.append((name, X, classes[codes], len(classes)))
    jobs = [(X, y, variant) for _, X, y, _ in data for variant in variants]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        trees = list(pool.map(lambda job: j48_tree(job[0], job[1], jar=jar, **job[2]), jobs))
    version = weka_version(jar) if data else None
    rows = []
    for i, (name, X, y, n_classes) in enumerate(data):
        grown, *pruned = trees[i * len(variants):(i + 1) * len(variants)]
        for variant, j48 in zip(variants[1:], pruned):
            cf, raising = variant["confidence"], variant["subtree_raising"]
            ours = error_based_raising(grown, X, y, cf) if raising else error_based(grown, cf)
            difference = first_difference(j48, ours)
            rows.append(dict(
                dataset=name, n_samples=X.shape[0], n_features=X.shape[1],
                n_classes=n_classes, weka_version=version,
                pruning="raising" if raising else "no raising", confidence=cf,
                j48_options=" ".join(j48_options(**variant)), unpruned_nodes=grown.n_nodes,
                j48_nodes=j48.n_nodes, j48_leaves=j48.n_leaves, prunekit_nodes=ours.n_nodes,
                prunekit_leaves=ours.n_leaves, identical=difference is None,
                difference=difference, j48_tree=j48, prunekit_tree=ours, unpruned_tree=grown,
            ))
    return rows


def agreement_datasets(data_home=None):
    """The data sets of the J48 comparison: ``[(name, X, y), ...]``.

    Iris, wine, breast cancer (Wisconsin diagnostic) and digits from scikit-learn, and, when
    the UCI files are in ``data_home`` (default ``$PRUNEKIT_DATA``), page-blocks and
    pen-digits (:func:`prunekit.datasets.load_uci`). All attributes are numeric, none missing.
    """
    from sklearn.datasets import load_breast_cancer, load_digits, load_iris, load_wine

    from prunekit.datasets import ENV_VAR, load_uci, uci_available

    sets = []
    for name, loader in (("iris", load_iris), ("wine", load_wine),
                         ("breast cancer", load_breast_cancer), ("digits", load_digits)):
        X, y = loader(return_X_y=True)
        sets.append((name, X, y))
    if data_home is None:
        data_home = os.environ.get(ENV_VAR)
    if data_home is not None:
        for name in ("page-blocks", "pendigits"):
            if uci_available(name, data_home):
                X, y = load_uci(name, data_home)
                sets.append((name, X, y))
    return sets


def write_agreement(rows, path) -> None:
    """Write the rows of :func:`agreement` to a CSV file with :data:`AGREEMENT_COLUMNS`
    (:func:`pdtbook.runner.write_results`; the trees are left out)."""
    write_results(rows, AGREEMENT_COLUMNS, path)


def main(argv=None) -> int:
    """Command line: compute the agreement table and write it as CSV."""
    parser = argparse.ArgumentParser(
        prog="python -m pdtbook.weka",
        description="Compare Weka J48's pruned trees with prunekit's error-based pruning.")
    parser.add_argument("--out", default=None,
                        help="CSV file to write (default: the table the book reads, "
                             "prunekit/data/j48_agreement.csv)")
    parser.add_argument("--data", default=None,
                        help="folder of the UCI files (default $PRUNEKIT_DATA; "
                             "without it the UCI data sets are left out)")
    parser.add_argument("--jar", default=None, help=f"Weka's jar (default {DEFAULT_JAR})")
    args = parser.parse_args(argv)
    if args.out is None:
        args.out = results_path("j48_agreement")
    rows = agreement(agreement_datasets(args.data), jar=args.jar)
    for row in rows:
        print(f"{row['dataset']:>14} {row['pruning']:>10} CF={row['confidence']:<5} "
              f"J48 {row['j48_nodes']:>4} nodes, prunekit {row['prunekit_nodes']:>4}: "
              f"{'identical' if row['identical'] else row['difference']}")
    write_agreement(rows, args.out)
    print(f"wrote {len(rows)} rows to {args.out}")
    return 0 if all(row["identical"] for row in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
