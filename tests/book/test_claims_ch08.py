"""Claims chapter 8 and its exercises make about the classic heuristics, checked on the library.

* PEP's two orders: neither prunes at least as much as the other on every tree (a five-node
  counterexample each way, found by the search below, and both cases on random ID3 trees);
  five nodes is the fewest on which they can differ.
* Without its standard error, bottom-up PEP is cost complexity at alpha = 1/(2m); top-down it
  can prune more.
* The m-estimate with a non-uniform prior: the class with the largest estimate need not be the
  majority class, which is the label prunekit keeps.
* C4.5 (release 8, as listed in Quinlan 1993) and J48: the differences the chapter lists.
* The prices of PEP's standard error and of EBP grow like sqrt(N) on impure leaves; what they
  lack, next to Kearns and Mansour's penalty, is a factor that grows with the number of
  candidate subtrees.
* The coverage of U_CF at leaves with N >= 10 training examples is 0 by construction.
* Exercises 8.1 (a) and 8.2 print the worked numbers only once the answer passes.
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import norm

import prunekit as pk
from prunekit.datasets import make_boolean_dnf
from prunekit.error_based_pruning import (estimated_errors,
                                          upper_confidence_limit)
from prunekit.minimum_error_pruning import m_estimate_error
from prunekit.pessimistic_pruning import pessimistic_standard_error
from prunekit.kearns_mansour_pruning import penalty
from prunekit.tree import leaf_errors

from pdtbook.checks import CheckFailed, ch08

ROOT = Path(__file__).resolve().parents[2]
D, TERMS, NOISE = 10, ((0, 1), (2, 3, 4)), 0.15


# ---------------------------------------------------------------------- PEP's two orders
def five_nodes(leaf, left, right):
    """A root with a leaf ``leaf`` (node 1) and a node (2) split into ``left`` (3) and
    ``right`` (4): the smallest tree with two internal nodes."""
    node = np.add(left, right)
    return pk.Tree.from_arrays(left=[1, -1, 3, -1, -1], right=[2, -1, 4, -1, -1],
                               counts=[np.add(leaf, node), leaf, node, left, right])


def _quinlan_test(leaf, subtree, n):
    """e'(v) <= e'(T) + SE, in floating point (the library decides it in integers)."""
    return leaf <= subtree + math.sqrt(max(subtree * (n - subtree) / n, 0.0))


def _pep_by_hand(tree, order, se=True):
    """The kept nodes of PEP computed from the definitions, independently of the library."""
    errors = leaf_errors(tree.counts, tree.labels).astype(float)
    n = tree.counts.sum(axis=1).astype(float)

    def grown(v):                                  # (e(T_v), number of leaves)
        if tree.is_leaf[v]:
            return errors[v], 1
        (a, k), (b, j) = grown(tree.left[v]), grown(tree.right[v])
        return a + b, k + j

    def test(v, e_below, n_leaves):
        corrected = e_below + 0.5 * n_leaves
        if not se:
            return errors[v] + 0.5 <= corrected
        return _quinlan_test(errors[v] + 0.5, corrected, n[v])

    collapsed = set()
    if order == "top-down":
        stack = [0]
        while stack:
            v = stack.pop()
            if tree.is_leaf[v]:
                continue
            if test(v, *grown(v)):
                collapsed.add(v)
            else:
                stack += [tree.left[v], tree.right[v]]
    else:
        def pruned(v):                             # (e(Q_v), leaves of Q_v), bottom-up
            if tree.is_leaf[v]:
                return errors[v], 1
            (a, k), (b, j) = pruned(tree.left[v]), pruned(tree.right[v])
            if test(v, a + b, k + j):
                collapsed.add(v)
                return errors[v], 1
            return a + b, k + j
        pruned(0)
    return pk.Pruning.from_collapsed(tree, np.isin(np.arange(tree.n_nodes), list(collapsed)))


def _kept(tree, order):
    return np.flatnonzero(pk.pessimistic(tree, order=order).kept).tolist()


def test_top_down_can_prune_more_than_bottom_up():
    # the split of node 2 saves one error for one more leaf: top-down the root is compared
    # with all three grown leaves and collapses; bottom-up node 2 goes first and the root stays
    tree = five_nodes([0, 2], [1, 0], [2, 1])
    assert tree.counts.tolist() == [[3, 3], [0, 2], [3, 1], [1, 0], [2, 1]]
    assert _kept(tree, "top-down") == [0]
    assert _kept(tree, "bottom-up") == [0, 1, 2]
    # the numbers of the exercise's solution
    assert _quinlan_test(3.5, 2.5, 6) and round(2.5 + math.sqrt(2.5 * 3.5 / 6), 2) == 3.71
    assert _quinlan_test(1.5, 2.0, 4) and round(2 + math.sqrt(2 * 2 / 4), 2) == 3.0
    assert not _quinlan_test(3.5, 2.0, 6) and round(2 + math.sqrt(2 * 4 / 6), 2) == 3.15
    assert round(math.sqrt(2 * 4 / 6), 2) == 1.15


def test_bottom_up_can_prune_more_than_top_down():
    # collapsing node 2 gives back the error its split saved: what is left below the root
    # counts more corrected errors, with a larger standard error, and the root now collapses
    tree = five_nodes([0, 1], [0, 1], [2, 0])
    assert tree.counts.tolist() == [[2, 2], [0, 1], [2, 1], [0, 1], [2, 0]]
    assert _kept(tree, "top-down") == [0, 1, 2]
    assert _kept(tree, "bottom-up") == [0]
    assert not _quinlan_test(2.5, 1.5, 4) and round(1.5 + math.sqrt(1.5 * 2.5 / 4), 2) == 2.47
    assert _quinlan_test(1.5, 1.0, 3)
    assert _quinlan_test(2.5, 2.0, 4) and 2 + math.sqrt(2 * 2 / 4) == 3.0


@pytest.mark.parametrize("counts", [([0, 2], [1, 0], [2, 1]), ([0, 1], [0, 1], [2, 0]),
                                    ([0, 2], [3, 1], [1, 1])])
def test_the_counterexamples_by_the_definitions(counts):
    tree = five_nodes(*counts)
    for order in pk.pessimistic_pruning.PEP_ORDERS:
        assert _pep_by_hand(tree, order) == pk.pessimistic(tree, order=order)


def _compositions(total, leaves=3):
    """Every way to give ``leaves`` leaves non-empty two-class counts summing to ``total``."""
    vectors = [(a, b) for a in range(total + 1) for b in range(total + 1) if 0 < a + b]
    return [c for c in itertools.product(vectors, repeat=leaves)
            if sum(a + b for a, b in c) == total]


def _direction(tree):
    top, bottom = (pk.pessimistic(tree, order=o) for o in pk.pessimistic_pruning.PEP_ORDERS)
    if top == bottom:
        return None
    if np.all(bottom.kept[top.kept]):
        return "top-down prunes more"
    if np.all(top.kept[bottom.kept]):
        return "bottom-up prunes more"
    return "incomparable"


def test_one_internal_node_never_distinguishes_the_orders():
    # with a single internal node both orders make the same single test: the counterexamples
    # need two internal nodes, so five nodes are the fewest possible
    for total in range(2, 13):
        for a, b in _compositions(total, leaves=2):
            tree = pk.Tree.from_arrays(left=[1, -1, -1], right=[2, -1, -1],
                                       counts=[np.add(a, b), a, b])
            assert _direction(tree) is None


def test_smallest_counterexamples_by_examples():
    """Among five-node two-class trees without empty nodes: the fewest examples on which
    bottom-up prunes more is 4; on which top-down prunes more, 6 when every split node is
    impure (as a grower leaves it) and 5 when a pure node may be split. Exercise 8.5's old
    example ([4, 4], 8 examples) was smallest by nodes only."""
    smallest = {}
    for total in range(3, 7):
        for leaf, left, right in _compositions(total):
            tree = five_nodes(leaf, left, right)
            direction = _direction(tree)
            if direction is None:
                continue
            impure = bool(np.all(np.count_nonzero(tree.counts[~tree.is_leaf], axis=1) == 2))
            for key in ((direction, "any"), (direction, "impure")) if impure else \
                    ((direction, "any"),):
                smallest.setdefault(key, (total, tree.counts.tolist()))
    assert smallest[("bottom-up prunes more", "any")][0] == 4
    assert smallest[("bottom-up prunes more", "impure")][0] == 4
    assert smallest[("top-down prunes more", "any")] == (
        5, [[3, 2], [0, 2], [3, 0], [1, 0], [2, 0]])
    assert smallest[("top-down prunes more", "impure")][0] == 6
    assert _direction(five_nodes([0, 1], [0, 1], [2, 0])) == "bottom-up prunes more"
    assert _direction(five_nodes([0, 2], [1, 0], [2, 1])) == "top-down prunes more"
    assert _direction(five_nodes([0, 2], [3, 1], [1, 1])) == "top-down prunes more"


def _random_trees(n_trees=150):
    for seed in range(n_trees):
        X, y = make_boolean_dnf(100, n_features=D, terms=TERMS, noise=NOISE,
                                random_state=seed)
        yield pk.id3(X, y)


def test_on_random_trees_either_order_can_prune_more():
    found = {}
    for tree in _random_trees():
        direction = _direction(tree)
        found[direction] = found.get(direction, 0) + 1
    assert found["top-down prunes more"] > 0 and found["bottom-up prunes more"] > 0
    assert found["incomparable"] > 0 and found[None] > 0


# ---------------------------------------------------------------------- PEP without the SE
def test_bottom_up_pep_without_its_standard_error_is_cost_complexity():
    # compares each node with the best pruning below it at half an error per leaf
    trees = list(_random_trees(100))
    trees += [five_nodes(*c) for total in (3, 4, 5) for c in _compositions(total)]
    for tree in trees:
        half = pk.cost_complexity(tree, 1 / (2 * tree.n_samples))
        assert _pep_by_hand(tree, "bottom-up", se=False) == half


def test_top_down_pep_without_its_standard_error_can_prune_more():
    # root [2, 1]: the pure node [2, 0] split in two costs half an error and saves none;
    # against the grown subtree the root ties (1.5 <= 1.5) and collapses, while cost
    # complexity first drops the useless split and keeps the root's
    tree = five_nodes([0, 1], [1, 0], [1, 0])
    half = pk.cost_complexity(tree, 1 / (2 * tree.n_samples))
    top_down = _pep_by_hand(tree, "top-down", se=False)
    assert np.flatnonzero(half.kept).tolist() == [0, 1, 2]
    assert top_down.n_nodes == 1
    differ = 0
    for tree in _random_trees(100):
        half = pk.cost_complexity(tree, 1 / (2 * tree.n_samples))
        top_down = _pep_by_hand(tree, "top-down", se=False)
        assert np.all(half.kept[top_down.kept])          # never larger than T(1/(2m))
        differ += top_down != half
    assert differ > 0


# ---------------------------------------------------------------------- the m-estimate's label
def test_with_a_non_uniform_prior_the_largest_estimate_can_be_another_class():
    counts, prior, m = np.array([8, 2]), np.array([0.3, 0.7]), 100.0
    p = (counts + m * prior) / (counts.sum() + m)
    assert np.argmax(counts) == 0 and np.argmax(p) == 1
    # prunekit charges the majority's estimate, larger than 1 - max_y p(y)
    assert m_estimate_error(counts, m, prior) == pytest.approx(1 - p[0])
    assert m_estimate_error(counts, m, prior) > 1 - p.max()
    # with the Laplace estimate or a uniform prior the majority has the largest estimate
    for weight in (0.5, 2.0, 100.0):
        uniform = (counts + weight * 0.5) / (counts.sum() + weight)
        assert np.argmax(uniform) == 0


def test_minimum_error_keeps_the_majority_labels():
    X, y = make_boolean_dnf(100, n_features=D, terms=TERMS, noise=NOISE, random_state=0)
    tree = pk.id3(X, y, max_depth=4)
    prior = tree.counts[0] / tree.n_samples
    for m in (1.0, 10.0, 100.0):
        pruning = pk.minimum_error(tree, m=m, prior=prior)
        leaves = pruning.leaves
        assert np.array_equal(pruning.labels[leaves], tree.labels[leaves])


# ---------------------------------------------------------------------- C4.5 and J48
_C45_CF = (0, 0.001, 0.005, 0.01, 0.05, 0.10, 0.20, 0.40, 1.00)
_C45_Z = (4.0, 3.09, 2.58, 2.33, 1.65, 1.28, 0.84, 0.25, 0.00)


def _c45_z(cf):
    """C4.5's z: linear interpolation in its table of confidence levels (stats.c)."""
    i = next(i for i, value in enumerate(_C45_CF) if cf <= value)
    return _C45_Z[i - 1] + (_C45_Z[i] - _C45_Z[i - 1]) * (cf - _C45_CF[i - 1]) \
        / (_C45_CF[i] - _C45_CF[i - 1])


def _c45_added_errors(n, e, cf):
    """C4.5's AddErrs(N, e) for e = 0 or e >= 1 (Quinlan 1993, the program's stats.c)."""
    if e == 0:
        return n * (1 - math.exp(math.log(cf) / n))
    if e + 0.5 >= n:
        return 0.67 * (n - e)
    c = _c45_z(cf) ** 2
    rate = (e + 0.5 + c / 2 + math.sqrt(c * ((e + 0.5) * (1 - (e + 0.5) / n) + c / 4))) \
        / (n + c)
    return n * rate - e


def test_c45_reads_z_from_a_table():
    assert len(_C45_CF) == len(_C45_Z) == 9                 # nine confidence levels
    assert _c45_z(0.25) == pytest.approx(0.6925)
    assert norm.ppf(0.75) == pytest.approx(0.6745, abs=5e-5)
    # where z enters, the two differ; at e = 0 both use the exact limit
    assert _c45_added_errors(10, 2, 0.25) > estimated_errors(2, 10, 0.25) - 2 + 0.01
    assert _c45_added_errors(6, 0, 0.25) == pytest.approx(estimated_errors(0, 6, 0.25))


def test_c45_charges_less_in_case_three():
    # case 3 (e + 1/2 >= N): C4.5 adds 0.67 (N - e), J48 N - e; integer counts reach it only
    # at e = N, where both add nothing, weighted counts also between N - 1/2 and N
    assert estimated_errors(3, 3, 0.25) == 3 and _c45_added_errors(3, 3, 0.25) == 0
    assert estimated_errors(2, 3, 0.25) < 3                  # e = N - 1: Wilson's case
    assert estimated_errors(2.7, 3, 0.25) == pytest.approx(3.0)
    assert 2.7 + _c45_added_errors(3, 2.7, 0.25) == pytest.approx(2.7 + 0.67 * 0.3)


def test_above_one_half_c45_still_adds_errors_and_j48_adds_none():
    assert 0 < _c45_z(0.75) < _c45_z(0.5) < _c45_z(0.4) == 0.25 and _c45_z(1.0) == 0
    assert _c45_added_errors(10, 2, 0.75) > 0.1
    with pytest.warns(UserWarning, match="above 0.5"):
        assert estimated_errors(2, 10, 0.75) == 2


def _c45_collapse(tree):
    """C4.5's collapse inside its grower: bottom-up, a node whose subtree's training errors
    (its leaves', as grown) are not below its own by more than 10^-3 becomes a leaf."""
    errors = leaf_errors(tree.counts, tree.labels).astype(float)
    below = errors.copy()
    collapsed = np.zeros(tree.n_nodes, dtype=bool)
    for v in reversed(range(tree.n_nodes)):            # children have larger indices
        if not tree.is_leaf[v]:
            below[v] = below[tree.left[v]] + below[tree.right[v]]
            collapsed[v] = below[v] >= errors[v] - 1e-3
    return pk.Pruning.from_collapsed(tree, collapsed)


def test_c45_collapses_while_growing_and_j48_before_pruning_the_same_splits():
    for tree in _random_trees(100):
        assert np.all(tree.left[~tree.is_leaf] > np.flatnonzero(~tree.is_leaf))
        assert _c45_collapse(tree) == pk.error_based_pruning.collapse(tree)


# ---------------------------------------------------------------------- the prices of a leaf
def test_impure_prices_grow_like_the_square_root_and_differ_by_a_factor():
    """On leaves with training error rate 0.2, EBP's price and PEP's standard error grow like
    sqrt(N), as the local penalty does; divided by sqrt(N) they tend to z sqrt(f (1 - f)) and
    sqrt(f (1 - f)), constants, while the penalty's factor grows with the logarithm of the
    number of subtrees and paths (the chapter's figure: depth 3, d = 10, m = 1000)."""
    f, z = 0.2, norm.ppf(0.75)
    many = np.array([25, 100, 400, 1000, 10**4, 10**5])
    e = f * many
    # EBP adds z sqrt(N f (1 - f)) and less than one error more
    extra = estimated_errors(e, many, 0.25) - e - z * np.sqrt(many * f * (1 - f))
    assert np.all((0 < extra) & (extra < 1))
    sizes = many[:4]
    e = f * sizes
    ebp = (estimated_errors(e, sizes, 0.25) - e) / np.sqrt(sizes)
    pep = pessimistic_standard_error(e, sizes) / np.sqrt(sizes)
    km = np.array([n * penalty(n, 1, 3, 0.05, 1000, n_features=D, cap=False)
                   for n in sizes]) / np.sqrt(sizes)
    assert np.all(ebp < 0.5) and np.all(ebp > z * math.sqrt(f * (1 - f)))
    # the limit z sqrt(f (1 - f)) is at most z / 2, but a small leaf's price is above it
    assert z * math.sqrt(f * (1 - f)) <= z / 2 < ebp[0]
    assert pep == pytest.approx(math.sqrt(f * (1 - f)))
    factor = math.sqrt((3 + 1) * math.log(D) + math.log(1000 / 0.05))
    assert km == pytest.approx(factor)
    assert np.all(km > 10 * ebp) and np.all(km > 10 * pep)
    # the factor grows with the logarithm of the number of candidates: deeper, larger
    deeper = penalty(400, 5, 6, 0.05, 1000, n_features=D, cap=False) * 20
    assert deeper > km[2]


def test_pure_prices_stay_bounded():
    sizes = np.arange(2, 10_001)
    ebp = estimated_errors(np.zeros(len(sizes)), sizes, 0.25)
    assert np.all(np.diff(ebp) > 0) and ebp[-1] < math.log(4)
    se = pessimistic_standard_error(0.5, sizes)          # a pure leaf's e' = 1/2
    assert np.all(se < math.sqrt(0.5))


# ---------------------------------------------------------------------- coverage at N >= 10
def test_a_pure_leaf_with_ten_examples_is_charged_below_the_noise():
    limits = upper_confidence_limit(np.zeros(991), np.arange(10, 1001), 0.25)
    assert np.all(np.diff(limits) < 0) and limits[0] == pytest.approx(1 - 0.25 ** 0.1)
    assert round(limits[0], 4) == 0.1294 and limits[0] < NOISE


@pytest.mark.parametrize("size", [200, 1000])
def test_the_coverage_at_ten_or_more_training_examples_is_zero(size):
    """The chapter's coverage table: on its full ID3 trees every leaf with N >= 10 training
    examples is pure (an impure leaf of a full ID3 tree holds copies of one point, and no
    point is drawn ten times), so its limit is below the noise rate and the true rate."""
    large = 0
    for seed in range(20):
        X, y = make_boolean_dnf(2 * size, n_features=D, terms=TERMS, noise=NOISE,
                                random_state=100 + seed)
        X, y = X[:size], y[:size]
        _, copies = np.unique(X, axis=0, return_counts=True)
        assert copies.max() < 10
        tree = pk.id3(X, y)
        leaves = np.flatnonzero(tree.is_leaf)
        n = tree.counts[leaves].sum(axis=1)
        e = leaf_errors(tree.counts, tree.labels)[leaves]
        impure = e > 0
        # an impure leaf of a full ID3 tree: all its examples are one point of the cube
        for v in leaves[impure]:
            assert len(np.unique(X[tree.apply(X) == v], axis=0)) == 1
        big = n >= 10
        assert np.all(e[big] == 0)
        rate = ch08.leaf_true_error_rates(tree, D, TERMS, NOISE)[leaves[big]]
        assert np.all(rate >= NOISE)
        assert np.all(rate > upper_confidence_limit(e[big], n[big], 0.25))
        large += int(big.sum())
    assert large > 0


# ---------------------------------------------------------------------- exercise 8.4's numbers
def test_exercise_8_4_training_counts_hold_less_often_than_fresh_ones():
    X, y = make_boolean_dnf(500, n_features=D, terms=TERMS, noise=NOISE, random_state=0)
    tree = pk.id3(X, y)
    X_new, y_new = make_boolean_dnf(500, n_features=D, terms=TERMS, noise=NOISE,
                                    random_state=1)
    fresh = tree.node_counts(X_new, y_new)
    shares = {}
    for cf in (0.05, 0.25, 0.5):
        shares[cf] = [ch08._coverage_variants(tree, counts, cf)["right"]
                      for counts in (tree.counts, fresh)]
        assert shares[cf][0] < shares[cf][1]
    # at CF = 0.5 the training counts hold at more than 1 - CF of the leaves: the question
    # cannot be why they hold at fewer than 1 - CF
    assert shares[0.5][0] > 0.5
    assert shares[0.25][0] < 0.75


# ---------------------------------------------------------------------- worked numbers
def _check_cell(cell_id):
    path = ROOT / "exercises" / "solutions" / "08-classic-heuristics.ipynb"
    cells = json.loads(path.read_text(encoding="utf8"))["cells"]
    (source,) = ["".join(c["source"]) for c in cells if c.get("id") == cell_id]
    return source


def _run(source, namespace, capsys):
    namespace = {**vars(ch08), "np": np, **namespace}
    try:
        exec(source, namespace)
    except CheckFailed as error:
        return capsys.readouterr().out, error
    return capsys.readouterr().out, None


def test_exercise_8_1_a_shows_the_worked_numbers_once_the_answer_passes(capsys):
    source = _check_cell("ex8-1a-check")
    for attempt in range(3):
        out, error = _run(source, {"ucf_by_hand": lambda: 0.2}, capsys)
        assert error is not None and "z = Phi" not in out + str(error)
    out, error = _run(source, {"ucf_by_hand": lambda: 0.3519}, capsys)
    assert error is None and "z = Phi^(-1)(0.75) = 0.6745" in out


def test_exercise_8_2_shows_the_worked_numbers_once_the_answer_passes(capsys):
    source = _check_cell("ex8-2-check")
    right = {1: (5.5, 4.0, 1.86, "prune"), 2: (5.5, 2.5, 1.48, "keep")}
    wrong = {**right, 2: (5.5, 2.5, 1.48, "prune")}
    namespace = {"tree_82": ch08.pep_tree(), "pk": pk}
    for attempt in range(3):
        out, error = _run(source, {**namespace, "pep_test": wrong.__getitem__}, capsys)
        assert error is not None and "m_v = " not in out + str(error)
    out, error = _run(source, {**namespace, "pep_test": right.__getitem__}, capsys)
    assert error is None and "node 2: m_v = 20" in out


# ---------------------------------------------------------------------- U_CF's four cases
def test_u_cf_case_two_interpolates_fractional_errors():
    # case 2 of the definition (0 < e < 1) exists for weighted counts and never applies to
    # integer e, the exercise's case
    base, one = estimated_errors(0, 10, 0.25), estimated_errors(1, 10, 0.25)
    for e in (0.25, 0.5, 0.9):
        assert estimated_errors(e, 10, 0.25) == pytest.approx(base + e * (one - base))
