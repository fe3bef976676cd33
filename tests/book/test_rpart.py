"""Tests of pdtbook.rpart: R's rpart trees rebuilt in prunekit, and its cp table and
prune() against the exact weakest-link sequence (Chapter 9)."""

import numpy as np
import pandas as pd
import pytest

import pdtbook.rpart as rp
import pdtbook.study as st
from pdtbook.results import results_path

RPART_CP = results_path("rpart_cp")
RPART_EXAMPLE = results_path("rpart_example")
needs_r = pytest.mark.skipif(not rp.rpart_available(),
                             reason="R with the rpart package is not installed (make rpart)")


@pytest.fixture(scope="module")
def rpart_example():
    from prunekit.datasets import make_boolean_dnf

    X, y = make_boolean_dnf(**rp.RPART_EXAMPLE)
    fit = rp.rpart_tree_from_frame(pd.read_csv(RPART_EXAMPLE), X.shape[1])
    assert np.array_equal(fit.tree.node_counts(X, y), fit.tree.counts)
    return fit


def test_rpart_prune_misses_the_minimiser_on_the_stored_tree(rpart_example):
    import prunekit as pk

    fit, tree = rpart_example, rpart_example.tree
    n, root = tree.n_samples, fit.root_errors
    assert (tree.n_nodes, n, root) == (11, 200, 84)
    # rpart puts node 2's split at cp = 3.5 / 84; the weakest link is g = 4 errors per leaf
    two = int(np.flatnonzero(fit.node == 2)[0])
    assert fit.complexity[two] == pytest.approx(3.5 / 84)
    assert fit.exact_complexity()[two] == pytest.approx(4 / 84)
    misses = [cp for cp in fit.cptable if fit.prune(cp) != fit.smallest_minimiser(cp)]
    assert misses == [pytest.approx(3.5 / 84)]
    cp = misses[0]
    # brute force over every pruning: the exact answer is the smallest minimiser of R_alpha
    prunings = list(pk.all_prunings(tree))
    costs = np.array([fit.cost(p, cp) for p in prunings])
    best = min((p for p, c in zip(prunings, costs) if c <= costs.min() + 1e-12),
               key=lambda p: p.n_nodes)
    assert best == fit.smallest_minimiser(cp) == pk.cost_complexity(tree, cp * root / n)
    rpart_pruning = fit.prune(cp)
    assert (rpart_pruning.n_leaves, rpart_pruning.errors()) == (3, 49)
    assert (best.n_leaves, best.errors()) == (6, 37)
    assert fit.cost(rpart_pruning, cp) - fit.cost(best, cp) == pytest.approx(
        (49 - 37 + cp * root * (3 - 6)) / root)
    assert fit.cost(rpart_pruning, cp) > costs.min() + 1e-9
    comparison = rp.compare_rpart(fit)
    assert comparison["prune_differs"] == comparison["prune_not_minimal"] == 1
    assert comparison["splits_differ"] == 3


def test_smallest_minimiser_agrees_with_cost_complexity_between_breakpoints(rpart_example):
    import prunekit as pk

    fit, tree = rpart_example, rpart_example.tree
    cps = np.sort(fit.exact_cptable())
    for cp in np.append((cps[:-1] + cps[1:]) / 2, cps[-1] * 1.5):
        alpha = cp * fit.root_errors / tree.n_samples
        assert fit.smallest_minimiser(cp) == pk.cost_complexity(tree, alpha)


def test_stored_rpart_frame_round_trips(rpart_example):
    again = rp.rpart_tree_from_frame(rp.rpart_frame(rpart_example), 16)
    assert np.array_equal(again.tree.counts, rpart_example.tree.counts)
    assert np.array_equal(again.tree.threshold, rpart_example.tree.threshold, equal_nan=True)
    assert np.array_equal(again.complexity, rpart_example.complexity)


@needs_r
def test_rpart_regenerates_the_committed_comparison():
    fit = rp.rpart_example()
    stored = pd.read_csv(RPART_EXAMPLE)
    pd.testing.assert_frame_equal(rp.rpart_frame(fit), stored, check_dtype=False)
    assert np.allclose(fit.cptable, [17.5 / 84, 3.5 / 84, 0.0])
    names = ["iris", "led24"]
    rows = pd.DataFrame(st.rpart_study(names, progress=False), columns=st.RPART_COLUMNS)
    committed = pd.read_csv(RPART_CP).set_index("dataset").loc[names].reset_index()
    pd.testing.assert_frame_equal(rows, committed, check_dtype=False)


# ---------------------------------------------------------------------- rpart's anova trees
def _anova(name):
    from sklearn.datasets import load_diabetes, make_friedman1

    if name == "diabetes":
        return load_diabetes(return_X_y=True)
    if name == "friedman1":
        return make_friedman1(300, noise=1.0, random_state=0)
    rng = np.random.default_rng(0)                  # repeated targets: tied weakest links
    X = rng.integers(0, 4, (200, 3)).astype(float)
    return X, np.round(X[:, 0] + rng.normal(size=200))


_GROWN = {}


def _grown(name):
    """rpart's anova tree on data set ``name`` (default control), grown once per run."""
    if name not in _GROWN:
        _GROWN[name] = rp.grow_rpart(*_anova(name), method="anova")
    return _GROWN[name]


#: Per data set: splits, entries of rpart's CP column, how many agree with the exact cps
#: (relative 1e-6), and the compare_rpart counts splits_differ, prune_differs and
#: prune_not_minimal.
ANOVA_COMPARISON = {"diabetes": (35, 29, 28, (3, 1, 1)), "friedman1": (23, 23, 23, (0, 0, 0)),
                    "rounded": (15, 14, 14, (0, 0, 0))}


@needs_r
@pytest.mark.parametrize("name", list(ANOVA_COMPARISON))
def test_rpart_anova_trees_are_prunekits_regression_trees(name):
    import prunekit as pk

    X, y = _anova(name)
    fit = _grown(name)                   # grow_rpart checks n, yval and dev node by node
    tree = fit.tree
    assert isinstance(tree, pk.RegressionTree) and tree.n_samples == len(y)
    assert np.array_equal(tree.node_moments(X, y), tree.moments)
    assert fit.root_risk == pytest.approx(np.sum((y - y.mean()) ** 2), rel=1e-12)
    assert fit.alpha(1.0) == pytest.approx(np.mean((y - y.mean()) ** 2), rel=1e-12)
    # rpart's CP column against the exact weakest-link cps, entry by entry
    splits, entries, agree, counts = ANOVA_COMPARISON[name]
    exact = fit.exact_cptable()
    assert (int((~tree.is_leaf).sum()), len(fit.cptable), len(exact)) == (splits, entries,
                                                                          entries)
    same = np.isclose(fit.cptable, exact, rtol=1e-6, atol=0)
    assert same.sum() == agree
    comparison = rp.compare_rpart(fit)
    assert comparison["cps_differ"] == entries - agree
    assert (comparison["splits_differ"], comparison["prune_differs"],
            comparison["prune_not_minimal"]) == counts
    # between the exact cps the smallest minimiser is prunekit's cost-complexity pruning
    cps = np.sort(exact)
    for cp in np.append((cps[:-1] + cps[1:]) / 2, cps[-1] * 1.5):
        assert fit.smallest_minimiser(cp) == pk.cost_complexity(tree, fit.alpha(cp))


@needs_r
@pytest.mark.parametrize("name", list(ANOVA_COMPARISON))
def test_rpart_prune_is_prunekits_cost_complexity(name):
    """prune(fit, cp) against pk.cost_complexity(tree, cp R(root) / n), at rpart's cps and
    between them."""
    import prunekit as pk

    fit = _grown(name)
    tree = fit.tree
    cps = np.sort(fit.cptable)
    # strictly between rpart's cps (and above the largest) the two always agree
    for cp in np.append((cps[:-1] + cps[1:]) / 2, cps[-1] * 1.5):
        assert fit.prune(cp) == pk.cost_complexity(tree, fit.alpha(cp))
    misses = []
    for cp in cps:
        by_rpart, best = fit.prune(cp), fit.smallest_minimiser(cp)
        # at a breakpoint cp R(root) / n may round to just below prunekit's alpha, and
        # cost_complexity then keeps the split: a larger pruning of the same R_alpha
        assert pk.cost_complexity(tree, fit.alpha(cp) * (1 + 1e-9)) == best
        plain = pk.cost_complexity(tree, fit.alpha(cp))
        assert plain == best or (plain.n_leaves > best.n_leaves and fit.cost(plain, cp)
                                 == pytest.approx(fit.cost(best, cp), rel=1e-9))
        if by_rpart != best:
            misses.append(cp)
    # everywhere but at diabetes' one cp, prune() at rpart's own cps is the minimiser
    assert len(misses) == ANOVA_COMPARISON[name][3][1]


@needs_r
def test_rpart_anova_prune_misses_the_minimiser_on_diabetes():
    fit = _grown("diabetes")
    # rpart's complexity of the chain of nodes 35, 71 and 143 is below their exact
    # weakest-link cp, so prune() at that cp cuts three leaves the minimiser keeps
    chain = np.isin(fit.node, [35, 71, 143])
    assert np.allclose(fit.complexity[chain], 0.00180357714, rtol=1e-8)
    assert np.allclose(fit.exact_complexity()[chain], 0.00181472, rtol=1e-5)
    cp = fit.complexity[chain][0]
    assert np.sum(np.isclose(fit.cptable, cp, rtol=1e-12)) == 1
    assert not np.isclose(fit.exact_cptable(), cp, rtol=1e-6).any()
    rpart_pruning, best = fit.prune(cp), fit.smallest_minimiser(cp)
    assert (rpart_pruning.n_leaves, best.n_leaves) == (32, 35)
    assert fit.cost(rpart_pruning, cp) > fit.cost(best, cp) * (1 + 1e-5)


def _small_anova():
    """70 examples on a 5 x 5 x 5 grid with targets 0..5 drawn at random: rpart's anova tree
    (minsplit 15, minbucket 5) has 13 nodes."""
    rng = np.random.default_rng(12)
    X = rng.integers(0, 5, (70, 3)).astype(float)
    return X, rng.integers(0, 6, 70).astype(float)


@needs_r
def test_rpart_anova_prune_misses_the_minimiser_on_a_small_tree():
    import prunekit as pk

    X, y = _small_anova()
    fit = rp.grow_rpart(X, y, method="anova", minsplit=15, minbucket=5)
    tree = fit.tree
    R = dict(zip(fit.node.tolist(), tree.leaf_errors()))      # rpart's dev per node number
    assert (tree.n_nodes, tree.n_samples) == (13, 70)
    assert fit.root_risk == pytest.approx(3021 / 14)          # y is integer: exact fractions
    assert [int(v) for v in fit.node[tree.is_leaf]] == [8, 9, 20, 21, 22, 23, 3]
    # rpart's partition() hands the root node 2's subtree pruned at node 2's own cp, down to
    # its children 4 and 5, although node 4's split (alpha n = 8.1186) outlives the root's:
    # rpart's cp of the root is (R(1) - R(4) - R(5) - R(3)) / 2, the exact one
    # (R(1) - R(8) - R(9) - R(5) - R(3)) / 3, and fix_cp lowers nodes 2 and 4 to rpart's
    rpart_root = (R[1] - R[4] - R[5] - R[3]) / 2
    exact_root = (R[1] - R[8] - R[9] - R[5] - R[3]) / 3
    assert (R[4] - R[8] - R[9]) == pytest.approx(8.1186274510)
    assert rpart_root < exact_root < R[4] - R[8] - R[9]
    top = np.isin(fit.node, [1, 2, 4])
    assert np.allclose(fit.complexity[top] * fit.root_risk, rpart_root, rtol=1e-9)
    assert np.allclose(fit.exact_complexity()[top] * fit.root_risk, exact_root, rtol=1e-9)
    assert fit.cptable[0] == pytest.approx(rpart_root / fit.root_risk, rel=1e-9)
    assert fit.exact_cptable()[0] == pytest.approx(exact_root / fit.root_risk, rel=1e-9)
    assert np.allclose(fit.cptable[1:], fit.exact_cptable()[1:], rtol=1e-9, atol=0)
    # at rpart's top cp prune() keeps the root alone; brute force over every pruning finds
    # the smallest minimiser of R_alpha, which keeps four leaves
    cp = fit.cptable[0]
    prunings = list(pk.all_prunings(tree))
    costs = np.array([fit.cost(p, cp) for p in prunings])
    best = min((p for p, c in zip(prunings, costs) if c <= costs.min() * (1 + 1e-12)),
               key=lambda p: p.n_nodes)
    assert best == fit.smallest_minimiser(cp) == pk.cost_complexity(tree, fit.alpha(cp))
    by_rpart = fit.prune(cp)
    assert (by_rpart.n_leaves, best.n_leaves) == (1, 4)
    assert by_rpart.errors() == pytest.approx(R[1])
    assert best.errors() == pytest.approx(R[8] + R[9] + R[5] + R[3])
    excess = fit.cost(by_rpart, cp) - fit.cost(best, cp)
    assert excess == pytest.approx((3 * exact_root - 3 * rpart_root) / fit.root_risk)
    assert excess > 1e-4
    comparison = rp.compare_rpart(fit)
    assert (comparison["splits_differ"], comparison["cps_differ"], comparison["prune_differs"],
            comparison["prune_not_minimal"]) == (3, 1, 1, 1)


def test_anova_rebuild_is_checked_against_rpart_frame():
    """grow_rpart's check of an anova tree: node sizes, means and dev must be rpart's."""
    import prunekit as pk

    X, y = _small_anova()
    tree = pk.RegressionTree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
                                         feature=[0, -1, 1, -1, -1],
                                         threshold=[1.5, np.nan, 2.5, np.nan, np.nan],
                                         X=X, y=y, n_features=3)
    frame = pd.DataFrame(dict(n=tree.moments[:, 0], yval=tree.value, dev=tree.leaf_errors()))
    rp._check_anova(tree, frame)
    for column, message in [("n", "node sizes"), ("yval", "means"), ("dev", "squared")]:
        wrong = frame.copy()
        wrong.loc[3, column] += 1
        with pytest.raises(RuntimeError, match=message):
            rp._check_anova(tree, wrong)
    close = frame.copy()
    close["dev"] *= 1 + 1e-11                       # rpart writes 15 significant digits
    rp._check_anova(tree, close)
