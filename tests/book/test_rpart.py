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


@needs_r
@pytest.mark.parametrize("name", ["diabetes", "friedman1", "rounded"])
def test_rpart_anova_trees_are_prunekits_regression_trees(name):
    import prunekit as pk

    X, y = _anova(name)
    fit = rp.grow_rpart(X, y, method="anova")      # checks n, yval and dev node by node
    tree = fit.tree
    assert isinstance(tree, pk.RegressionTree) and tree.n_samples == len(y)
    assert fit.root_risk == pytest.approx(np.sum((y - y.mean()) ** 2))
    # the cp table: the same number of steps; every cp where rpart's complexity is exact
    assert len(fit.cptable) == len(fit.exact_cptable())
    comparison = rp.compare_rpart(fit)
    expected = {"diabetes": (3, 1, 1)}.get(name, (0, 0, 0))
    assert (comparison["splits_differ"], comparison["prune_differs"],
            comparison["prune_not_minimal"]) == expected
    # between the exact cps the smallest minimiser is prunekit's cost-complexity pruning
    cps = np.sort(fit.exact_cptable())
    for cp in np.append((cps[:-1] + cps[1:]) / 2, cps[-1] * 1.5):
        alpha = cp * fit.root_risk / tree.n_samples
        assert fit.smallest_minimiser(cp) == pk.cost_complexity(tree, alpha)


@needs_r
def test_rpart_anova_prune_misses_the_minimiser_on_diabetes():
    X, y = _anova("diabetes")
    fit = rp.grow_rpart(X, y, method="anova")
    # rpart's complexity of the chain of nodes 35, 71 and 143 is below their exact
    # weakest-link cp, so prune() at that cp cuts three leaves the minimiser keeps
    chain = np.isin(fit.node, [35, 71, 143])
    assert np.allclose(fit.complexity[chain], 0.00180357714, rtol=1e-8)
    assert np.allclose(fit.exact_complexity()[chain], 0.00181472, rtol=1e-5)
    cp = fit.complexity[chain][0]
    rpart_pruning, best = fit.prune(cp), fit.smallest_minimiser(cp)
    assert (rpart_pruning.n_leaves, best.n_leaves) == (32, 35)
    assert fit.cost(rpart_pruning, cp) > fit.cost(best, cp) * (1 + 1e-5)
