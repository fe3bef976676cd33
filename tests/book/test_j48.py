"""prunekit's error-based pruning against the real Weka J48 (Debian's weka package).

J48 grows an unpruned tree (``-U``) on each data set; prunekit rebuilds it, prunes it with
:func:`prunekit.error_based` and :func:`prunekit.error_based_raising`, and the results must be
J48's own ``-S -C cf`` and ``-C cf`` trees node for node (shape, splits, class counts). The
J48 runs happen once per test session. ``make test`` installs Weka with apt when it is
missing; without Java the comparison is skipped.
"""

import csv
import struct
import subprocess

import numpy as np
import pytest

import prunekit as pk
from prunekit import error_based_pruning as ebp
from uci import UCI_DIR, needs_uci

from pdtbook import weka
from pdtbook.results import results_path

TABLE = results_path("j48_agreement")
needs_weka = pytest.mark.skipif(
    not weka.weka_available(),
    reason="Java or Weka's weka.jar is not installed (`make weka` installs Debian's weka "
           f"package; {weka.JAR_VARIABLE} points to another jar)",
)

# J48 3.6.14's printout of the Iris tree (-U), for the parser
IRIS_PRINTOUT = """\
x3 <= 0.6: c0 (50.0)
x3 > 0.6
|   x3 <= 1.7
|   |   x2 <= 4.9: c1 (48.0/1.0)
|   |   x2 > 4.9
|   |   |   x3 <= 1.5: c2 (3.0)
|   |   |   x3 > 1.5: c1 (3.0/1.0)
|   x3 > 1.7: c2 (46.0/1.0)"""


@pytest.fixture(scope="module")
def rows():
    """Every J48 run of the comparison, once (two Java processes at a time)."""
    datasets = weka.agreement_datasets(UCI_DIR if UCI_DIR.is_dir() else None)
    return weka.agreement(datasets)


def row_id(row):
    return f"{row['dataset']}-{row['pruning'].replace(' ', '-')}-{row['confidence']}"


# ---------------------------------------------------------------------- without Java
def test_parse_j48_printout():
    tree = weka.parse_j48(IRIS_PRINTOUT)
    assert tree["left"] == [1, -1, 3, 4, -1, 6, -1, -1, -1]
    assert tree["right"] == [2, -1, 8, 5, -1, 7, -1, -1, -1]
    assert tree["feature"] == [3, -1, 3, 2, -1, 3, -1, -1, -1]
    assert tree["threshold"][:4] == ["0.6", None, "1.7", "4.9"]
    assert (tree["label"][4], tree["n"][4], tree["errors"][4]) == (1, 48.0, 1.0)
    assert (tree["label"][1], tree["n"][1], tree["errors"][1]) == (0, 50.0, 0.0)
    single = weka.parse_j48(": c1 (150.0/100.0)")
    assert single["left"] == [-1] and single["n"] == [150.0] and single["label"] == [1]


@pytest.mark.parametrize("text", [
    "x3 <= 0.6: c0 (50.0)",                                   # the right branch is missing
    "x3 <= 0.6: c0 (50.0)\nx2 > 0.6: c1 (50.0)",              # it tests another split
    "x3 <= 0.6: c0 (50.0)\n|   x3 > 0.6: c1 (50.0)",          # at the wrong depth
    "x3 <= 0.6: c0 (50.0)\nx3 > 0.6: c1 (50.0)\nx1 <= 2: c0 (1.0)",  # a line too many
    "petalwidth <= 0.6: Iris-setosa (50.0)",                  # not prunekit's names
])
def test_parse_j48_rejects_broken_printouts(text):
    with pytest.raises(ValueError):
        weka.parse_j48(text)


def test_split_points_are_recovered_from_the_data():
    # J48 prints 6 decimals; its split point is a training value, and values within 1e-6
    # above it still go left (Utils.smOrEq), so the threshold is the largest of those
    column = np.array([0.1, 0.25, 0.2500009, 0.3])
    assert weka._threshold(column, "0.25", 0) == 0.2500009
    assert weka._threshold(np.array([-1.5, 2.0]), "-1.5", 0) == -1.5
    with pytest.raises(ValueError, match="no training value"):
        weka._threshold(column, "0.26", 0)
    # 0.2500001 and 0.2500004 both print as 0.25, and 0.2500012 goes left of the second only
    with pytest.raises(ValueError, match="ambiguous"):
        weka._threshold(np.array([0.2500001, 0.2500004, 0.2500012]), "0.25", 0)


def test_missing_weka_is_a_clear_error(tmp_path):
    assert not weka.weka_available(tmp_path / "weka.jar")
    with pytest.raises(weka.WekaNotFoundError, match="apt-get install weka"):
        weka.run_j48([[0.0], [1.0]], [0, 1], jar=tmp_path / "weka.jar")


def test_j48_options():
    assert weka.j48_options() == ["-C", "0.25", "-M", "2"]
    assert weka.j48_options(subtree_raising=False, confidence=0.1) == \
        ["-S", "-C", "0.1", "-M", "2"]
    assert weka.j48_options(pruned=False) == ["-U", "-M", "2"]
    with pytest.raises(ValueError, match="confidence"):
        weka.j48_options(confidence=1.2)
    with pytest.raises(TypeError, match="pruned"):
        weka.j48_options(pruned="no")


def test_structure_compares_trees_and_prunings():
    tree = pk.Tree.from_arrays([1, -1, -1], [2, -1, -1], [[3, 2], [3, 0], [0, 2]],
                               [0, -1, -1], [0.5, np.nan, np.nan])
    assert weka.first_difference(tree, pk.Pruning.full(tree)) is None
    assert weka.structure(pk.Pruning.root_only(tree)) == [(0, -1, None, (3, 2))]
    assert "node 0" in weka.first_difference(tree, pk.Pruning.root_only(tree))
    with pytest.raises(TypeError, match="Tree or a Pruning"):
        weka.structure("tree")


# ---------------------------------------------------------------------- against J48
# The J48 runs happen once, in the module fixture ``rows``, so that test workers do not each
# run J48 again. Without the UCI files the comparison runs on scikit-learn's data sets only.
@needs_weka
def test_agreement_with_j48(rows):
    names = {row["dataset"] for row in rows}
    assert {"iris", "wine", "breast cancer", "digits"} <= names
    if UCI_DIR.is_dir():
        assert {"page-blocks", "pendigits"} <= names
    for name in names:
        done = {(row["pruning"], row["confidence"]) for row in rows if row["dataset"] == name}
        assert done == {(p, cf) for p in ("no raising", "raising") for cf in weka.CONFIDENCES}

    # error_based is J48 -S -C cf and error_based_raising is J48 -C cf, node for node
    different = [f"{row_id(row)}: {row['difference']}" for row in rows if not row["identical"]]
    assert not different, "\n".join(different)

    for row in rows:
        grown, ours = row["unpruned_tree"], row["prunekit_tree"]
        # Weka 3.6 collapses even with -U (C45PruneableClassifierTree.buildClassifier calls
        # collapse() unconditionally): the rebuilt unpruned trees have nothing to collapse
        assert pk.error_based_pruning.collapse(grown).n_nodes == grown.n_nodes, row_id(row)
        if row["pruning"] == "no raising":
            assert isinstance(ours, pk.Pruning) and ours.tree is grown
        else:
            assert isinstance(ours, pk.Tree) and ours.n_samples == row["n_samples"]


@needs_weka
@needs_uci
def test_raising_changes_several_trees(rows):
    # the comparison is informative: on several data sets raising gives another tree than -S
    pruned = {(row["dataset"], row["confidence"]): row["prunekit_tree"] for row in rows
              if row["pruning"] == "no raising"}
    changed = {row["dataset"] for row in rows if row["pruning"] == "raising" and
               weka.first_difference(row["prunekit_tree"],
                                     pruned[row["dataset"], row["confidence"]]) is not None}
    assert len(changed) >= 2


@needs_weka
@needs_uci
def test_the_books_table_is_these_runs(rows):
    with open(TABLE, newline="", encoding="utf-8") as handle:
        table = {(r["dataset"], r["pruning"], float(r["confidence"])): r
                 for r in csv.DictReader(handle)}
    assert tuple(next(iter(table.values())).keys()) == weka.AGREEMENT_COLUMNS
    assert set(table) == {(row["dataset"], row["pruning"], row["confidence"]) for row in rows}
    for row in rows:
        stored = table[(row["dataset"], row["pruning"], row["confidence"])]
        for column in weka.AGREEMENT_COLUMNS:
            assert stored[column] == str(row[column]), (row_id(row), column)


# ---------------------------------------------------------------------- Weka's arithmetic
HARNESS = """
import java.io.*;
public class Harness {
  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    StringBuilder out = new StringBuilder();
    for (String line; (line = in.readLine()) != null; ) {
      String[] f = line.trim().split(" ");
      double n = Double.longBitsToDouble(Long.parseLong(f[0]));
      double e = Double.longBitsToDouble(Long.parseLong(f[1]));
      double value = f[2].equals("quantile")
          ? weka.core.Statistics.normalInverse(n)
          : weka.classifiers.trees.j48.Stats.addErrs(n, e, Float.parseFloat(f[2]));
      out.append(Double.doubleToRawLongBits(value)).append('\\n');
    }
    System.out.print(out);
  }
}
"""


def bits(x: float) -> int:
    return struct.unpack("<q", struct.pack("<d", x))[0]


def from_bits(b: str) -> float:
    return struct.unpack("<d", struct.pack("<q", int(b)))[0]


def run_harness(tmp_path, lines):
    source = tmp_path / "Harness.java"
    source.write_text(HARNESS)
    done = subprocess.run(["java", "-cp", str(weka._jar_path()), str(source)],
                          input="".join(lines), capture_output=True, text=True)
    if done.returncode != 0 and "compiler" in done.stderr.lower():
        pytest.skip("this Java runtime cannot run a source file (no jdk.compiler module)")
    assert done.returncode == 0, done.stderr
    return np.array([from_bits(b) for b in done.stdout.split()])


@needs_weka
def test_estimates_are_wekas_to_the_last_bit(tmp_path):
    rng = np.random.default_rng(0)
    cases = []
    for cf in ("0.25", "0.1", "0.05", "0.5", "0.01", "0.4"):
        for n in list(range(1, 80)) + rng.integers(80, 20000, 40).tolist():
            for e in {0, 1, 2, n // 2, n - 1, n, *rng.integers(0, n + 1, 4).tolist()}:
                if 0 <= e <= n:
                    cases.append((float(n), float(e), cf))
    quantiles = np.concatenate([rng.uniform(0, 1, 3000), np.logspace(-300, -1, 300),
                                1 - np.float32([0.25, 0.1, 0.05, 0.01]).astype(float)])
    lines = [f"{bits(n)} {bits(e)} {cf}\n" for n, e, cf in cases]
    lines += [f"{bits(y)} 0 quantile\n" for y in quantiles]
    java = run_harness(tmp_path, lines)
    java_added, java_quantile = java[:len(cases)], java[len(cases):]
    ours_quantile = np.array([ebp._normal_inverse(float(y)) for y in quantiles])
    assert np.array_equal(ours_quantile, java_quantile)
    ours = np.array([ebp._added_errors(np.array(n), np.array(e), np.float32(cf))
                     for n, e, cf in cases], dtype=float)
    n, e = np.array([case[0] for case in cases]), np.array([case[1] for case in cases])
    # e >= 1: the same operations in the same order, the same bits
    assert np.array_equal(ours[e >= 1], java_added[e >= 1])
    # e = 0: N (1 - CF^(1/N)), where the C library's pow and Java's Math.pow may differ in
    # the last bit of CF^(1/N), i.e. by about N 1e-16
    assert np.all(np.abs(ours - java_added)[e == 0] <= n[e == 0] * 4.5e-16)
    assert np.mean(ours[e == 0] == java_added[e == 0]) > 0.99
