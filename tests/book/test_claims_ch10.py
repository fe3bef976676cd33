"""Claims of Chapter 10 (optimal trees), each computed again and compared with what the
chapter says and prints.

* The class of trees against the work of the dynamic program: log N(D) roughly doubles per
  level, the branches grow by at most 2p + 1 per level (and STreeD's measured time per level
  grows like the branches, not like the trees).
* The Occam bound over all trees counts the labelled trees M(D) = k + p M(D-1)^2.
* The Rademacher bounds: for the class of all trees, twice the penalty is about as large as
  5 eta at depth three and larger at depth four; on the hold-out sample 5 eta dominates.
* The ablation: the depth-two solver is the largest saving, every solve of a problem finds the
  same optimum, the leaf bound of the dynamic program saves little at alpha = 0.005.
* The gap, per data set: the optimum's test error is lower on more data sets than higher at
  every depth, significantly (signed-rank test, 5 %) at depths three and four but not two; the
  solves had a core each.
* A cost per leaf bounds the leaves of the optimum; the optima of different alphas are not
  nested.
"""

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import wilcoxon
from sklearn.datasets import load_breast_cancer

import prunekit as pk
from prunekit import bounds
from prunekit.datasets import make_boolean_dnf
from prunekit.optimal import count_branches, count_trees

from pdtbook.results import load_results

CHAPTER = Path(__file__).resolve().parents[2] / "chapters" / "10-optimal-trees.ipynb"


def _printed(cell_id: str) -> str:
    """The text a cell of the chapter printed (stream and plain-text outputs)."""
    notebook = json.loads(CHAPTER.read_text(encoding="utf8"))
    (cell,) = [c for c in notebook["cells"] if c.get("id") == cell_id]
    parts = []
    for output in cell.get("outputs", []):
        parts.append("".join(output.get("text", "")))
        parts.append("".join(output.get("data", {}).get("text/plain", "")))
    return "\n".join(parts)


def _markdown() -> str:
    notebook = json.loads(CHAPTER.read_text(encoding="utf8"))
    return "\n".join("".join(c["source"]) for c in notebook["cells"]
                     if c["cell_type"] == "markdown")


# ------------------------------------------------------------------ what grows how
def test_trees_square_and_branches_grow_by_at_most_2p_plus_1():
    for p in (16, 24, 240):
        bits = [math.log2(count_trees(p, d)) for d in range(2, 7)]
        assert all(1.9 < b / a < 2.4 for a, b in zip(bits, bits[1:]))
        for d in range(1, 7):
            assert count_branches(p, d) <= (2 * p + 1) * count_branches(p, d - 1)
    # the figures of the text: p = 24, depth 5 -> 6
    assert round(count_branches(24, 6) / count_branches(24, 5), 1) == 6.6
    printed = _printed("ch10-06")
    for depth in (1, 2, 3, 4):
        assert f"{count_branches(240, depth):,}" in printed


def test_the_solver_time_grows_like_the_branches_not_like_the_trees():
    curve = load_results("optimal_times")
    compared = 0
    for _, rows in curve.groupby("dataset"):
        rows = rows[rows["status"] == "optimal"].sort_values("max_depth")
        for (_, a), (_, b) in zip(rows.iterrows(), rows.iloc[1:].iterrows()):
            if min(a["seconds"], b["seconds"]) < 0.05:
                continue                       # too short to measure a factor
            compared += 1
            time = b["seconds"] / a["seconds"]
            branches = (count_branches(b["n_binary"], b["max_depth"])
                        / count_branches(a["n_binary"], a["max_depth"]))
            trees = count_trees(b["n_binary"], b["max_depth"]) / count_trees(
                a["n_binary"], a["max_depth"])
            assert branches / 4 < time < branches * 4 < trees
    assert compared >= 4


# ------------------------------------------------------------------ the bounds section
@pytest.fixture(scope="module")
def cube():
    X, y = make_boolean_dnf(2000, 16, noise=0.1, random_state=0)
    return X[:1000], y[:1000]


def test_the_occam_bound_counts_labelled_trees(cube):
    X, y = cube
    printed = _printed("ch10-29")
    for depth, bits in ((3, 36.2), (4, 76.4)):
        labelled = count_trees(16, depth, n_classes=2)
        assert round(math.log2(labelled), 1) == bits
        assert f"{math.log2(labelled):.3f}" in printed
        fit = pk.optimal_tree(X, y, max_depth=depth, alpha=0.005)
        occam = bounds.occam_prunings(fit.error(X, y), labelled, len(y), 0.05)
        assert f"{occam:.3f}" in printed
        # the hold-out REP bound, on a third of the sample, is still the smaller one
        n_grow = 2 * len(y) // 3
        grown = pk.id3(X[:n_grow], y[:n_grow], max_depth=depth)
        rep = pk.reduced_error(grown, X[n_grow:], y[n_grow:])
        held = bounds.occam_prunings(rep.error(X[n_grow:], y[n_grow:]),
                                     pk.count_prunings(grown), len(y) - n_grow, 0.05)
        assert held < occam


def test_twice_the_penalty_of_all_trees_meets_five_eta(cube):
    X, y = cube
    five_eta = 5 * bounds.eta(len(y), 0.05)
    twice = {}
    for depth in (3, 4):
        signs = pk.rademacher.draw_signs(len(y), depth)
        values = []
        for flip in (signs > 0, signs < 0):
            z = np.where(flip, 1 - y, y)
            h = pk.optimal_tree(X, z, max_depth=depth, alpha=0.0)
            values.append(flip.mean() - h.error(X, z))
        twice[depth] = 2 * max(values)
    assert abs(twice[3] - five_eta) < 0.1 * five_eta < twice[4] - five_eta
    assert f"5 eta {five_eta:.3f}" in _printed("ch10-rademacher-terms")


# ------------------------------------------------------------------ the ablation
def test_the_depth_two_solver_is_the_largest_saving():
    ablation = load_results("optimal_ablation")
    for _, rows in ablation[ablation["solver"] == "streed"].groupby("dataset"):
        rows = rows.set_index("switched_off")
        slower = rows["seconds"] / rows.at["none", "seconds"]
        assert slower.idxmax() == "use_terminal_solver" and slower.max() > 10
        assert slower.drop(["none", "use_terminal_solver"]).max() < 2


def test_the_leaf_bound_saves_little_at_the_smaller_alpha():
    ablation = load_results("optimal_ablation")
    dp = ablation[ablation["solver"] == "dp"]
    for (_, alpha), rows in dp.groupby(["dataset", "alpha"]):
        rows = rows.set_index("switched_off")
        saved = 1 - rows.at["none", "work"] / rows.at["leaf_bound", "work"]
        assert 0 <= saved < (0.01 if alpha == 0.005 else 0.1)
        assert rows["optimal_risk"].nunique() == 1


# ------------------------------------------------------------------ the gap
@pytest.fixture(scope="module")
def gap():
    gap = load_results("optimal_gap")
    return gap[gap["risk"] == "error"]


def test_each_solve_had_a_core_to_itself(gap):
    ran = gap[gap["status"] != "skipped"]
    ratio = ran["optimal_seconds"] / ran["optimal_wall_seconds"]
    assert ratio.median() > 0.95
    slow = ran[ran["optimal_wall_seconds"] > 1]
    assert (slow["optimal_seconds"] / slow["optimal_wall_seconds"] > 0.9).all()


def test_per_data_set_the_optimum_predicts_better_significantly_at_depths_3_and_4(gap):
    solved = gap[gap["status"] == "optimal"]
    gain = (solved["greedy_test_error"] - solved["optimal_test_error"]).rename("gain")
    per_set = pd.concat([solved, gain], axis=1).groupby(["max_depth", "dataset"])[
        "gain"].mean().round(10)
    for depth, sets in per_set.groupby(level="max_depth"):
        assert (sets > 0).sum() > (sets < 0).sum()
        assert 0 < sets.mean() < 0.02                 # "less than two points"
        assert (wilcoxon(sets, zero_method="zsplit").pvalue < 0.05) == (depth > 2)
    assert (solved["optimal_risk"] <= solved["greedy_risk"] + 1e-12).all()


def test_some_deepest_solves_ran_out_and_had_found_good_trees(gap):
    deep = gap[gap["max_depth"] == gap["max_depth"].max()]
    assert (deep["status"] == "timeout").any()
    timeouts = gap[gap["status"] == "timeout"]
    below = timeouts["optimal_risk"] < timeouts["greedy_risk"] - 1e-9
    assert below.mean() > 0.5


# ------------------------------------------------------------------ beyond a depth limit
def test_a_cost_per_leaf_bounds_the_leaves(cube):
    X, y = cube
    root = 1 - np.bincount(y).max() / len(y)
    for alpha in (0.001, 0.005, 0.02, 0.05):
        fit = pk.optimal_tree(X, y, max_depth=4, alpha=alpha)
        assert fit.n_leaves <= 1 + (root - fit.error(X, y)) / alpha <= 1 + 0.5 / alpha


def test_the_optima_of_two_alphas_are_not_nested():
    X, y = load_breast_cancer(return_X_y=True)
    binary = pk.binarize(X, max_thresholds=8)
    small, large = (pk.optimal_tree(X, y, max_depth=3, alpha=a, binarization=binary)
                    for a in (0.005, 0.01))
    lost = (pk.penalized_risk(pk.cost_complexity(small, 0.01), 0.01)
            - pk.penalized_risk(large, 0.01))
    assert lost > 1e-3
    assert f"{lost:.4f} above" in _printed("ch10-nested")
    assert "are not nested" in _markdown()
