"""Claims the chapters make about the algorithms, checked on the library.

Chapter 4 says that Kearns and Mansour's pass is *not* monotone in its constant c and shows a
five-node tree on which c = 0.560 keeps one node and c = 0.562 keeps three (delta = 0.05,
penalty (3) with d = 16). The tree was found by the seeded random search reproduced below.
"""

import math

import numpy as np
import pytest

import prunekit as pk
from prunekit.kearns_mansour_pruning import penalty
from prunekit.tree import leaf_errors

LEFT, RIGHT = [1, 3, -1, -1, -1], [2, 4, -1, -1, -1]
# root -> (node 1 -> leaves 3, 4), leaf 2; the counts of chapter 4's example
COUNTS = [[189557, 139900], [246, 1856], [189311, 138044], [168, 35], [78, 1821]]
DELTA, D = 0.05, 16


def _tree(counts=COUNTS):
    return pk.Tree.from_arrays(LEFT, RIGHT, counts, feature=[0, 1, -1, -1, -1],
                               threshold=[0.5, 0.5, np.nan, np.nan, np.nan], n_features=D)


def test_a_larger_c_can_keep_more_nodes():
    tree = _tree()
    small_c = pk.kearns_mansour(tree, delta=DELTA, c=0.560)
    large_c = pk.kearns_mansour(tree, delta=DELTA, c=0.562)
    assert small_c.n_nodes == 1
    assert large_c.n_nodes == 3 and large_c.leaves.tolist() == [1, 2]


def test_the_root_survives_because_its_penalty_fell():
    tree = _tree()
    errors = leaf_errors(tree.counts, tree.labels)
    m, m_1 = tree.n_samples, int(tree.counts[1].sum())
    below_1 = errors[3] + errors[4]
    for c, keeps_node_1 in ((0.560, True), (0.562, False)):
        # rule (1) at node 1 (depth 1, s_v = 3): a larger c collapses it ...
        alpha_1 = penalty(m_1, 3, 1, DELTA, m, c=c, n_features=D)
        assert (below_1 + alpha_1 * m_1 < errors[1]) == keeps_node_1
    # ... which shrinks T_r* at the root from 5 nodes to 3, and its penalty with it
    alpha_5 = penalty(m, 5, 0, DELTA, m, c=0.560, n_features=D)
    alpha_3 = penalty(m, 3, 0, DELTA, m, c=0.562, n_features=D)
    assert alpha_3 < alpha_5
    assert errors[2] + below_1 + alpha_5 * m >= errors[0]            # pruned at c = 0.560
    assert errors[2] + errors[1] + alpha_3 * m < errors[0]           # kept at c = 0.562


def _rule_one(c, leaf2, leaf3, leaf4):
    """Nodes kept by the pass on many five-node trees of the shape above at once."""
    node1, root = leaf3 + leaf4, leaf3 + leaf4 + leaf2
    err = lambda n: n.sum(axis=1) - n.max(axis=1)          # majority leaf, two classes
    m, m_1 = root.sum(axis=1), node1.sum(axis=1)

    def alpha(m_v, s_v, l_v):
        return np.minimum(1.0, c * np.sqrt(((l_v + s_v) * np.log(D) + np.log(m / DELTA)) / m_v))

    below_1 = err(leaf3) + err(leaf4)
    prune_1 = below_1 + alpha(m_1, 3, 1) * m_1 >= err(node1)
    below = np.where(prune_1, err(node1), below_1) + err(leaf2)
    prune_root = below + alpha(m, np.where(prune_1, 3, 5), 0) * m >= err(root)
    return np.where(prune_root, 1, np.where(prune_1, 3, 5))


def _draw(rng, n):
    """Random five-node trees: a large sample, a small node 1 whose two leaves have opposite
    majorities (the only way node 1's saving can pay for its split), a large leaf 2."""
    m = np.floor(10 ** rng.uniform(4.5, 6, n)).astype(np.int64)
    m_1 = np.floor(10 ** rng.uniform(2, np.log10(m / 20))).astype(np.int64)
    n3 = np.floor(m_1 * rng.uniform(0.02, 0.5, n)).astype(np.int64)
    n4 = m_1 - n3
    k3 = np.floor(n3 * rng.uniform(0, 0.3, n)).astype(np.int64)
    k4 = np.floor(n4 * rng.uniform(0, 0.3, n)).astype(np.int64)
    rest = m - m_1
    k2 = np.floor(rest * rng.uniform(0, 0.5, n)).astype(np.int64)
    return (np.stack([rest - k2, k2], 1), np.stack([n3 - k3, k3], 1),
            np.stack([k4, n4 - k4], 1))


def test_seeded_search_finds_the_counterexample():
    leaf2, leaf3, leaf4 = _draw(np.random.default_rng(15), 1_000_000)
    hits = np.flatnonzero((_rule_one(0.560, leaf2, leaf3, leaf4) == 1)
                          & (_rule_one(0.562, leaf2, leaf3, leaf4) == 3))
    assert len(hits) >= 1
    i = hits[0]
    node1 = leaf3[i] + leaf4[i]
    counts = [node1 + leaf2[i], node1, leaf2[i], leaf3[i], leaf4[i]]
    assert np.array_equal(counts, COUNTS)
    # the vectorised rule agrees with the library on the hit
    tree = _tree(counts)
    assert [pk.kearns_mansour(tree, delta=DELTA, c=c).n_nodes for c in (0.560, 0.562)] == [1, 3]


@pytest.mark.parametrize("c", [0.0, 0.3, 0.560, 0.561, 0.562, 1.0, 2.0])
def test_vectorised_rule_matches_the_library(c):
    rng = np.random.default_rng(4)
    leaf2, leaf3, leaf4 = _draw(rng, 40)
    kept = _rule_one(c, leaf2, leaf3, leaf4)
    for i in range(40):
        node1 = leaf3[i] + leaf4[i]
        tree = _tree([node1 + leaf2[i], node1, leaf2[i], leaf3[i], leaf4[i]])
        assert pk.kearns_mansour(tree, delta=DELTA, c=c).n_nodes == kept[i]


# ---------------------------------------------------------------------- chapter 4: the constant c'
def _width(l_v, s_v, m_v, m, delta, d=D):
    """Lemma 1's width after the union bound over the pairs (l, s), with |PATHS| <= (2d)^l,
    |TREES| <= (d + 2)^s and confidence delta / (2 m^2) per pair (exercise km-ex-union)."""
    return np.sqrt((l_v * np.log(2 * d) + s_v * np.log(d + 2) + np.log(2 * m**2 / delta)) / m_v)


GRID = [(m, delta, l_v) for m in (10, 1000, 10**6) for delta in (0.5, 0.05, 1e-4)
        for l_v in range(0, 30)]


def _ratio(c, form="boolean", **extra):
    """Largest width / penalty over the grid; <= 1 means the penalty covers the width."""
    worst = 0.0
    s_v = np.arange(1, 60)
    for m, delta, l_v in GRID:
        pen = penalty(m, s_v, l_v, delta, m, c=c, form=form, cap=False, **extra)
        worst = max(worst, np.max(_width(l_v, s_v, m, m, delta) / pen))
    return worst


def test_penalty_three_needs_sqrt_two_at_d_16():
    # the accounting done for penalty (3) directly: c' = sqrt(2) covers every width ...
    assert _ratio(math.sqrt(2), n_features=D) <= 1 + 1e-12
    # ... and no smaller constant does for every m: at delta = 1/2, l_v = 0, s_v = 1 the
    # ratio of width to penalty / c' grows towards sqrt(2) as m grows
    ratios = [_width(0, 1, float(m), m, 0.5)
              / penalty(float(m), 1, 0, 0.5, m, n_features=D, cap=False)
              for m in (10, 10**4, 10**20, 10**100)]
    assert np.all(np.diff(ratios) > 0) and 1.40 < ratios[-1] < math.sqrt(2)


def test_converting_the_constant_of_penalty_two_costs_sqrt_of_log_2d_over_log_d():
    finite = dict(form="finite", log_paths=lambda l: l * np.log(2 * D),
                  log_trees=lambda s: s * np.log(D + 2))
    assert _ratio(math.sqrt(2), **finite) <= 1 + 1e-12          # chapter 4's exercise (c)
    factor = math.sqrt(math.log(2 * D) / math.log(D))             # 5/4 under the root at d = 16
    s_v = np.arange(1, 60)
    for m, delta, l_v in GRID:
        two = penalty(m, s_v, l_v, delta, m, c=math.sqrt(2), cap=False, **finite)
        three = penalty(m, s_v, l_v, delta, m, c=math.sqrt(2) * factor, n_features=D,
                        cap=False)
        assert np.all(two <= three * (1 + 1e-12))
    assert math.sqrt(2) * factor == pytest.approx(math.sqrt(2.5))
