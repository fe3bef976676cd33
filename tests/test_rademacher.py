"""Rademacher penalties of prunings and k-REP: brute force, sanity relations, bad input."""

import contextlib
import math
import re
from fractions import Fraction
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

import prunekit as pk
import prunekit._min_plus as min_plus
import prunekit.rademacher as rademacher
from prunekit import bounds
from prunekit.bounds import eta
from prunekit.k_reduced_error_pruning import (
    growing_error_budget,
    growing_errors_of_tree,
    k_reduced_error_frontier,
    min_plus_merge,
)
from prunekit.rademacher import draw_signs, relabelled_leaf_errors
from prunekit.tree import leaf_errors
from strategies import random_trees

binary_trees = random_trees(max_leaves=7, max_classes=2)
multiclass_trees = random_trees(max_leaves=7, max_classes=4).filter(lambda t: t.n_classes >= 3)
any_trees = st.one_of(binary_trees, multiclass_trees)


# The two exact merges of k-REP's frontier programme: chosen per node by estimated cost, or
# forced (pairs in tiny chunks; contiguous passes for every node).
MERGES = {
    "estimated": {},
    "pairs": dict(_PAIR_COST=0, _PAIRS_PER_CHUNK=5),
    "slices": dict(_PAIR_COST=10**9, _ELEMENT_COST=0, _PASS_COST=0),
}


@contextlib.contextmanager
def merge_by(mode, **more):
    settings = {**MERGES[mode], **more}
    with mock.patch.multiple(min_plus, **settings) if settings else contextlib.nullcontext():
        yield


def random_sample(tree, seed, size=24):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1.5, 1.5, size=(size, tree.n_features))
    y = rng.integers(0, tree.n_classes, size=size)
    return X, y


def losses_and_growing_errors(tree, X, y):
    """0/1 losses on (X, y) and growing errors of every pruning, by enumeration."""
    prunings = list(pk.all_prunings(tree))
    losses = np.array([(p.predict(X) != y) for p in prunings], dtype=float)
    return prunings, losses, np.array([p.errors() for p in prunings])


def brute_penalty(losses, growing, signs, k=None):
    allowed = np.ones(len(growing), dtype=bool) if k is None else growing <= k
    return np.abs(np.atleast_2d(signs) @ losses[allowed].T / losses.shape[1]).max(axis=1)


# ---------------------------------------------------------------------- the penalty
@settings(deadline=None)
@given(any_trees, st.integers(0, 2**31 - 1))
def test_penalty_is_the_largest_correlation_over_all_prunings(tree, seed):
    X, y = random_sample(tree, seed)
    _, losses, growing = losses_and_growing_errors(tree, X, y)
    signs = draw_signs(len(y), seed, n_draws=20)
    got = pk.rademacher_penalty(tree, X, y, signs=signs)
    np.testing.assert_allclose(got, brute_penalty(losses, growing, signs), atol=1e-12)


@pytest.mark.parametrize("merge", list(MERGES))
@settings(deadline=None)
@given(any_trees, st.integers(0, 2**31 - 1), st.lists(st.integers(0, 25), min_size=1, max_size=4))
def test_penalty_with_k_is_the_largest_correlation_over_the_k_rep_class(merge, tree, seed,
                                                                        budgets):
    X, y = random_sample(tree, seed)
    _, losses, growing = losses_and_growing_errors(tree, X, y)
    signs = draw_signs(len(y), seed + 1, n_draws=15)
    for k in budgets:
        with merge_by(merge, _CELLS_PER_PASS=1 if merge == "pairs" else 2**21):
            if k < growing.min():
                with pytest.raises(ValueError, match="k-REP class is empty"):
                    pk.rademacher_penalty(tree, X, y, signs=signs, k=k)
                continue
            got = pk.rademacher_penalty(tree, X, y, signs=signs, k=k)
        np.testing.assert_allclose(got, brute_penalty(losses, growing, signs, k), atol=1e-12)


@settings(deadline=None)
@given(any_trees, st.integers(0, 2**31 - 1), st.booleans())
def test_many_draws_at_once_equal_one_at_a_time(tree, seed, restricted):
    X, y = random_sample(tree, seed)
    k = tree.n_samples if restricted else None
    signs = draw_signs(len(y), seed, n_draws=8)
    together = pk.rademacher_penalty(tree, X, y, signs=signs, k=k)
    one_by_one = [pk.rademacher_penalty(tree, X, y, signs=s, k=k) for s in signs]
    assert isinstance(one_by_one[0], float)
    np.testing.assert_array_equal(together, one_by_one)
    drawn = pk.rademacher_penalty(tree, X, y, random_state=seed, n_draws=8, k=k)
    np.testing.assert_array_equal(drawn, together)
    assert pk.rademacher_penalty(tree, X, y, random_state=seed, k=k) == together[0]


@settings(deadline=None)
@given(any_trees, st.integers(0, 2**31 - 1))
def test_penalty_grows_with_the_budget_and_reaches_the_unrestricted_one(tree, seed):
    X, y = random_sample(tree, seed)
    signs = draw_signs(len(y), seed, n_draws=10)
    start = growing_errors_of_tree(tree)
    values = [pk.rademacher_penalty(tree, X, y, signs=signs, k=k)
              for k in range(start, tree.n_samples + 1)]
    assert np.all(np.diff(values, axis=0) >= 0)
    np.testing.assert_array_equal(values[-1], pk.rademacher_penalty(tree, X, y, signs=signs))
    assert np.all((0 <= values[-1]) & (values[-1] <= 1))


@settings(deadline=None)
@given(any_trees, st.integers(0, 2**31 - 1))
def test_relabelled_errors_are_the_errors_on_the_relabelled_sample(tree, seed):
    """z_i = complement of y_i where r_i = +1: a leaf labelled c errs on it when c = y_i."""
    X, y = random_sample(tree, seed)
    signs = draw_signs(len(y), seed)
    errors_z, errors_zbar = relabelled_leaf_errors(tree, X, y, signs)
    reached = tree.apply(X)
    for v in range(tree.n_nodes):
        through = np.isin(reached, tree.subtree(v))
        right = tree.labels[v] == y
        assert errors_z[v] == np.sum(through & np.where(signs == 1, right, ~right))
        assert errors_zbar[v] == np.sum(through & np.where(signs == -1, right, ~right))
    if tree.n_classes == 2:  # the complement class is the other class: flip the label
        flipped = np.where(signs == 1, 1 - y, y)
        counts = tree.node_counts(X, flipped)
        assert np.array_equal(errors_z, leaf_errors(counts, tree.labels))


def test_penalty_for_fixed_signs_on_a_stump_by_hand():
    # a stump: left leaf says 0, right leaf says 1; four pruning examples
    tree = pk.Tree.from_arrays([1, -1, -1], [2, -1, -1], [[3, 2], [3, 0], [0, 2]],
                               [0, -1, -1], [0.0, 0, 0])
    X = np.array([[-1.0], [-1.0], [1.0], [1.0]])
    y = np.array([0, 1, 1, 0])
    r = np.array([1, 1, -1, 1])
    # losses: stump (0, 1, 0, 1); root leaf labelled 0: (0, 1, 1, 0)
    # sums r*l: stump 0 + 1 + 0 + 1 = 2; leaf 0 + 1 - 1 + 0 = 0  ->  R = 2/4
    assert pk.rademacher_penalty(tree, X, y, signs=r) == 0.5
    assert pk.rademacher_penalty(tree, X, y, signs=r, k=2) == 0.5
    assert pk.rademacher_penalty(tree, X, y, signs=-r) == 0.5
    assert pk.rademacher_penalty(tree, X, y, signs=np.array([1, -1, 1, -1])) == 0.5


def test_signs_are_fair_coins():
    signs = draw_signs(10_000, 0)
    assert set(np.unique(signs)) == {-1, 1}
    assert abs(signs.mean()) < 0.05
    assert draw_signs(50, 3, n_draws=4).shape == (4, 50)
    rng = np.random.default_rng(1)
    assert not np.array_equal(draw_signs(50, rng), draw_signs(50, rng))


# ---------------------------------------------------------------------- k-REP
@pytest.mark.parametrize("merge", list(MERGES))
@settings(deadline=None)
@given(any_trees, st.integers(0, 2**31 - 1), st.lists(st.integers(0, 25), min_size=1, max_size=4))
def test_k_rep_is_the_smallest_most_accurate_pruning_within_budget(merge, tree, seed, budgets):
    X, y = random_sample(tree, seed)
    prunings, losses, growing = losses_and_growing_errors(tree, X, y)
    errors = losses.sum(axis=1).astype(int)
    for k in budgets:
        allowed = growing <= k
        if not allowed.any():
            with merge_by(merge), pytest.raises(ValueError, match="k-REP class is empty"):
                pk.k_reduced_error(tree, X, y, k)
            continue
        with merge_by(merge):
            result = pk.k_reduced_error(tree, X, y, k)
        best = min((e, p.n_nodes) for e, p, ok in zip(errors, prunings, allowed) if ok)
        assert result.errors() <= k
        assert (int(np.sum(result.predict(X) != y)), result.n_nodes) == best


@settings(deadline=None)
@given(any_trees, st.integers(0, 2**31 - 1))
def test_k_rep_with_an_unlimited_budget_is_rep(tree, seed):
    X, y = random_sample(tree, seed)
    assert pk.k_reduced_error(tree, X, y, tree.n_samples) == pk.reduced_error(tree, X, y)


@settings(deadline=None)
@given(any_trees, st.integers(0, 2**31 - 1), st.integers(0, 30))
def test_k_rep_from_the_growing_errors_of_rep_on_is_rep(tree, seed, extra):
    """REP's pruning is the only one with its pruning errors and size: within budget, it wins."""
    X, y = random_sample(tree, seed)
    prunings, losses, growing = losses_and_growing_errors(tree, X, y)
    rep = pk.reduced_error(tree, X, y)
    for k in (rep.errors() + extra, int(growing.max()) + extra, 10**30):
        assert pk.k_reduced_error(tree, X, y, k) == rep
    g, e, size = k_reduced_error_frontier(tree, X, y, rep.errors() + extra)
    assert g[-1] == rep.errors()
    assert (e[-1], size[-1]) == (rep.errors(tree.node_counts(X, y)), rep.n_nodes)
    if rep.errors() == growing.min():       # no pruning has fewer growing errors
        if rep.errors():
            with pytest.raises(ValueError, match="k-REP class is empty"):
                pk.k_reduced_error(tree, X, y, rep.errors() - 1)
    else:
        below = pk.k_reduced_error(tree, X, y, rep.errors() - 1)  # one error short of REP's, the best pruning is strictly worse than REP's
        errors_below = int(np.sum(below.predict(X) != y))
        assert (errors_below, below.n_nodes) > (int(np.sum(rep.predict(X) != y)), rep.n_nodes)


@pytest.mark.parametrize("merge", list(MERGES))
@settings(deadline=None)
@given(any_trees, st.integers(0, 2**31 - 1))
def test_frontier_lists_the_best_pruning_of_every_budget(merge, tree, seed):
    X, y = random_sample(tree, seed)
    prunings, losses, growing = losses_and_growing_errors(tree, X, y)
    errors = losses.sum(axis=1).astype(int)
    with merge_by(merge):
        g, e, size = k_reduced_error_frontier(tree, X, y, tree.n_samples)
    assert np.all(np.diff(g) > 0)
    keys = list(zip(e.tolist(), size.tolist()))
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == len(keys)
    for budget in range(tree.n_samples + 1):
        allowed = growing <= budget
        if not allowed.any():
            assert budget < g[0]
            continue
        best = min((err, p.n_nodes) for err, p, ok in zip(errors, prunings, allowed) if ok)
        assert keys[np.searchsorted(g, budget, side="right") - 1] == best


def test_k_rep_refuses_a_budget_below_the_growing_errors_of_the_tree():
    X, y = make_classification(400, 5, flip_y=0.3, random_state=0)
    clf = DecisionTreeClassifier(max_depth=4, random_state=0).fit(X[:200], y[:200])
    tree = pk.Tree.from_sklearn(clf, X[:200], y[:200])
    floor = growing_errors_of_tree(tree)
    assert floor > 0
    with pytest.raises(ValueError, match=rf"k={floor - 1} .* k-REP class is empty: give "
                                         rf"k >= {floor}"):
        pk.k_reduced_error(tree, X[200:], y[200:], floor - 1)
    assert pk.k_reduced_error(tree, X[200:], y[200:], floor).errors() == floor


def dense_k_rep_tables(tree, costs, k):
    """Algorithm 6 with dense arrays over budgets 0..k and min_plus_merge at every node."""
    grow = rademacher.growing_errors(tree)
    best = np.full((tree.n_nodes, k + 1), np.inf)
    for level in reversed(tree.levels):
        for v in level.tolist():
            if not tree.is_leaf[v]:
                best[v] = min_plus_merge(best[tree.left[v]], best[tree.right[v]], k)
            if grow[v] <= k:
                best[v, grow[v]:] = np.minimum(best[v, grow[v]:], costs[v])
    return best


@pytest.fixture(scope="module")
def grown_problems():
    problems = []
    for n_classes in (2, 3):
        X, y = make_classification(1500, 8, n_informative=5, n_classes=n_classes, flip_y=0.2,
                                   random_state=n_classes)
        clf = DecisionTreeClassifier(min_samples_leaf=3, random_state=0).fit(X[:1000], y[:1000])
        problems.append((pk.Tree.from_sklearn(clf, X[:1000], y[:1000]), X[1000:], y[1000:]))
    return problems


@pytest.mark.parametrize("merge", list(MERGES))
def test_k_rep_on_a_grown_tree_matches_a_dense_dynamic_programme(grown_problems, merge):
    for tree, X, y in grown_problems:
        prune = leaf_errors(tree.node_counts(X, y), tree.labels)
        floor = growing_errors_of_tree(tree)
        rep_growing = pk.reduced_error(tree, X, y).errors()
        assert floor + 40 < rep_growing
        best = dense_k_rep_tables(tree, prune, rep_growing + 10)
        slices = mock.patch.object(min_plus, "_merge_by_slices",
                                   wraps=min_plus._merge_by_slices)
        with merge_by(merge), slices as spy:
            g, e, _ = k_reduced_error_frontier(tree, X, y, rep_growing + 10)
            for k in (floor, floor + 1, floor + 40, rep_growing - 1, rep_growing):
                result = pk.k_reduced_error(tree, X, y, k)
                assert result.errors() <= k
                assert result.errors(tree.node_counts(X, y)) == best[0, k]
        if merge != "estimated":  # the forced merge is the one used
            assert (spy.call_count > 0) == (merge == "slices")
        # the frontier is where the dense table drops
        drops = np.flatnonzero(best[0] < np.r_[np.inf, best[0][:-1]])
        assert np.array_equal(np.unique(g[np.r_[True, np.diff(e) < 0]]), drops)
        np.testing.assert_array_equal(best[0, g], e)


def test_long_merges_fall_back_to_pairs_when_offers_would_overflow(grown_problems):
    """Offers carry the winning point in their low digits; if that cannot fit in int64 the
    node is merged by pairs, with the same answer."""
    tree, X, y = grown_problems[1]
    k = growing_errors_of_tree(tree) + 60
    expected = pk.k_reduced_error(tree, X, y, k), k_reduced_error_frontier(tree, X, y, k)
    slices = mock.patch.object(min_plus, "_merge_by_slices", wraps=min_plus._merge_by_slices)
    for limit, used in ((2**62, True), (1, False)):
        with merge_by("slices", _OFFER_LIMIT=limit), slices as spy:
            assert pk.k_reduced_error(tree, X, y, k) == expected[0]
            assert np.array_equal(k_reduced_error_frontier(tree, X, y, k), expected[1])
        assert (spy.call_count > 0) == used


@pytest.fixture(scope="module")
def grown_penalty_problem(grown_problems):
    """Signs on the first grown problem and the dense tables of both relabellings."""
    tree, X, y = grown_problems[0]
    signs = draw_signs(len(y), 5, n_draws=4)
    errors_z, errors_zbar = relabelled_leaf_errors(tree, X, y, signs)
    k_max = growing_errors_of_tree(tree) + 200
    # the entries of a table up to budget i do not depend on the largest budget
    roots_z = [dense_k_rep_tables(tree, errors, k_max)[0] for errors in errors_z]
    roots_zbar = [dense_k_rep_tables(tree, errors, k_max)[0] for errors in errors_zbar]
    return tree, X, y, signs, np.array(roots_z), np.array(roots_zbar)


@pytest.mark.parametrize("merge", list(MERGES))
def test_penalty_with_k_on_a_grown_tree_matches_a_dense_dynamic_programme(grown_penalty_problem,
                                                                          merge):
    tree, X, y, signs, roots_z, roots_zbar = grown_penalty_problem
    n_plus = (signs == 1).sum(axis=1)
    floor = growing_errors_of_tree(tree)
    for k in (floor, floor + 30, floor + 200):
        expected = np.maximum(n_plus - roots_z[:, k], len(y) - n_plus - roots_zbar[:, k]) / len(y)
        with merge_by(merge, _CELLS_PER_PASS=1 if merge == "pairs" else 2**21):
            got = pk.rademacher_penalty(tree, X, y, signs=signs, k=k)
        np.testing.assert_allclose(got, expected, atol=1e-12)


def test_ranked_keys_give_the_same_frontiers(monkeypatch):
    X, y = make_classification(800, 6, flip_y=0.2, random_state=1)
    clf = DecisionTreeClassifier(min_samples_leaf=2, random_state=0).fit(X[:500], y[:500])
    tree = pk.Tree.from_sklearn(clf, X[:500], y[:500])
    signs = draw_signs(300, 0, n_draws=5)
    expected = (pk.k_reduced_error(tree, X[500:], y[500:], 30),
                pk.rademacher_penalty(tree, X[500:], y[500:], signs=signs, k=30))
    monkeypatch.setattr(min_plus, "_SHIFT_LIMIT", 1)
    assert pk.k_reduced_error(tree, X[500:], y[500:], 30) == expected[0]
    np.testing.assert_array_equal(
        pk.rademacher_penalty(tree, X[500:], y[500:], signs=signs, k=30), expected[1])


@given(st.lists(st.floats(0, 50), min_size=1, max_size=8),
       st.lists(st.floats(0, 50), min_size=1, max_size=8), st.integers(0, 12))
def test_min_plus_merge_is_the_min_over_splits_of_the_budget(left, right, k):
    left = np.minimum.accumulate(left)
    right = np.minimum.accumulate(right)
    merged = min_plus_merge(left, right, k)

    def at(values, u):
        return values[min(u, len(values) - 1)]

    for i in range(k + 1):
        assert merged[i] == min(at(left, u) + at(right, i - u) for u in range(i + 1))


# ---------------------------------------------------------------------- bounds
def test_bounds_of_lemma_3_and_section_6():
    assert eta(1000, 0.01) == pytest.approx(math.sqrt(math.log(200) / 2000))
    assert bounds.rademacher(0.1, 0.05, 1000, 0.01) == pytest.approx(
        0.1 + 0.1 + 5 * math.sqrt(math.log(200) / 2000))
    assert bounds.occam(0.1, 401, 1000, 0.01) == pytest.approx(
        0.1 + math.sqrt((math.log(2) * 401 / 4 + math.log(100)) / 2000))
    np.testing.assert_allclose(bounds.rademacher([0.1, 0.2], [0.0, 0.1], 100, 0.05),
                               np.array([0.1, 0.4]) + 5 * eta(100, 0.05))
    assert bounds.occam([0.1, 0.1], [10, 1000], 100, 0.05).shape == (2,)


@pytest.mark.parametrize("delta", [0.0, 1.0, -0.1, 1.5])
def test_bounds_reject_delta_outside_the_unit_interval(delta):
    for call in (lambda: eta(10, delta), lambda: bounds.rademacher(0.1, 0.1, 10, delta),
                 lambda: bounds.occam(0.1, 10, 10, delta)):
        with pytest.raises(ValueError, match="delta"):
            call()


def test_bounds_reject_bad_rates_and_sizes():
    with pytest.raises(ValueError, match="train_error"):
        bounds.rademacher(1.2, 0.1, 10, 0.05)
    with pytest.raises(ValueError, match="penalty"):
        bounds.rademacher(0.1, -0.1, 10, 0.05)
    with pytest.raises(ValueError, match="n_samples must be at least 1"):
        eta(0, 0.05)
    with pytest.raises(ValueError, match="n_nodes"):
        bounds.occam(0.1, 0, 10, 0.05)
    with pytest.raises(TypeError, match="n_samples must be an integer"):
        bounds.occam(0.1, 5, 10.5, 0.05)


# ---------------------------------------------------------------------- bad input
@pytest.fixture
def small_problem():
    X, y = make_classification(120, 4, random_state=0)
    clf = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X[:60], y[:60])
    return pk.Tree.from_sklearn(clf, X[:60], y[:60]), X[60:], y[60:]


@pytest.mark.parametrize("signs, error, match", [
    (np.zeros(60), ValueError, r"signs must hold only \+1 and -1"),
    (np.full(60, 2), ValueError, r"signs must hold only \+1 and -1"),
    (np.r_[np.ones(59), np.nan], ValueError, r"only \+1 and -1, got values \[nan\]"),
    (np.r_[np.ones(59), 0.5], ValueError, r"only \+1 and -1, got values \[0.5\]"),
    (np.ones(59), ValueError, "signs must have one entry per example"),
    (np.ones((3, 61)), ValueError, "signs must have one entry per example"),
    (np.ones((0, 60)), ValueError, "signs must hold at least one draw"),
    (np.ones((2, 3, 60)), TypeError, "signs must be a numeric array"),
    (np.array(["+"] * 60), TypeError, "signs must be a numeric array"),
    (np.ones(60, dtype=bool), TypeError, "signs must be a numeric array"),
    (np.ones(60, dtype=complex), TypeError, "signs must be a numeric array"),
    ([[1] * 60, [1] * 59], TypeError, "signs must be a numeric array"),
    (1, TypeError, "signs must be a numeric array"),
])
def test_bad_signs(small_problem, signs, error, match):
    tree, X, y = small_problem
    for call in (lambda: pk.rademacher_penalty(tree, X, y, signs=signs),
                 lambda: pk.rademacher_penalty(tree, X, y, signs=signs, k=100),
                 lambda: relabelled_leaf_errors(tree, X, y, signs),
                 lambda: rademacher.signed_class_sums(tree, X, y, signs)):
        with pytest.raises(error, match=match):
            call()


def test_signs_as_lists_and_floats_are_accepted(small_problem):
    tree, X, y = small_problem
    signs = draw_signs(60, 4)
    expected = pk.rademacher_penalty(tree, X, y, signs=signs)
    assert pk.rademacher_penalty(tree, X, y, signs=signs.tolist()) == expected
    assert pk.rademacher_penalty(tree, X, y, signs=signs.astype(float)) == expected


def test_bad_sources_of_signs(small_problem):
    tree, X, y = small_problem
    with pytest.raises(ValueError, match="not both"):
        pk.rademacher_penalty(tree, X, y, signs=np.ones(60), random_state=0)
    with pytest.raises(ValueError, match="not both"):
        pk.rademacher_penalty(tree, X, y, signs=np.ones(60), n_draws=2)
    with pytest.raises(TypeError, match="tree must be a prunekit Tree"):
        pk.rademacher_penalty("tree", X, y, random_state=0)


_KINDS = ("random_state must be None, an int seed, a numpy.random.RandomState or a "
          "numpy.random.Generator, got")


@pytest.mark.parametrize("random_state, error, match", [
    (0.5, TypeError, f"{_KINDS} float 0.5"),
    ("7", TypeError, f"{_KINDS} str '7'"),
    (True, TypeError, f"{_KINDS} bool True"),
    (np.random.SeedSequence(0), TypeError, f"{_KINDS} SeedSequence"),
    (-1, ValueError, "random_state must be a non-negative seed, got -1"),
])
def test_bad_random_state(small_problem, random_state, error, match):
    tree, X, y = small_problem
    with pytest.raises(error, match=re.escape(match)):
        pk.rademacher_penalty(tree, X, y, random_state=random_state)
    with pytest.raises(error, match=re.escape(match)):
        draw_signs(10, random_state)
    with pytest.raises(ValueError):        # a wrong type is also scikit-learn's ValueError
        draw_signs(10, random_state)


def test_the_signs_take_every_random_state_of_scikit_learn(small_problem):
    """An int seeds numpy.random.default_rng, as the signs were always drawn; a Generator or
    a RandomState is drawn from (its state advances); None is numpy's global generator."""
    tree, X, y = small_problem
    expected = 2 * np.random.default_rng(5).integers(0, 2, size=(3, 60)) - 1
    np.testing.assert_array_equal(draw_signs(60, 5, 3), expected)
    np.testing.assert_array_equal(draw_signs(60, np.random.default_rng(5), 3), expected)
    legacy = np.random.RandomState(5)
    np.testing.assert_array_equal(
        draw_signs(60, legacy, 3),
        2 * np.random.Generator(np.random.RandomState(5)._bit_generator).integers(
            0, 2, size=(3, 60)) - 1)
    assert legacy.randint(10**9) == _after_draws(np.random.RandomState(5), 3 * 60)
    state = np.random.get_state()
    try:
        np.random.seed(7)
        first = pk.rademacher_penalty(tree, X, y, n_draws=4)
        np.random.seed(7)
        signs = draw_signs(60, None, 4)
        np.random.seed(7)
        assert np.array_equal(pk.rademacher_penalty(tree, X, y, random_state=None, n_draws=4),
                              first)
    finally:
        np.random.set_state(state)
    np.testing.assert_array_equal(first, pk.rademacher_penalty(tree, X, y, signs=signs))


def _after_draws(random_state, n):
    """The next number of ``random_state`` after n signs drawn from it."""
    np.random.Generator(random_state._bit_generator).integers(0, 2, size=n)
    return random_state.randint(10**9)


@pytest.mark.parametrize("n_draws, error, match", [
    (0, ValueError, "n_draws must be at least 1, got 0"),
    (-2, ValueError, "n_draws must be at least 1, got -2"),
    (2.5, TypeError, "n_draws must be an integer, got float"),
    (2.0, TypeError, "n_draws must be an integer, got float"),
    (True, TypeError, "n_draws must be an integer, got bool"),
    ("3", TypeError, "n_draws must be an integer, got str"),
])
def test_bad_numbers_of_draws(small_problem, n_draws, error, match):
    tree, X, y = small_problem
    with pytest.raises(error, match=match):
        pk.rademacher_penalty(tree, X, y, random_state=0, n_draws=n_draws)
    with pytest.raises(error, match=match):
        draw_signs(10, 0, n_draws)


@pytest.mark.parametrize("n, error, match", [
    (0, ValueError, "n must be at least 1, got 0"),
    (2.5, TypeError, "n must be an integer, got float"),
    (True, TypeError, "n must be an integer, got bool"),
])
def test_bad_numbers_of_signs(n, error, match):
    with pytest.raises(error, match=match):
        draw_signs(n, 0)


def test_numpy_integers_are_accepted(small_problem):
    tree, X, y = small_problem
    assert draw_signs(np.int64(5), np.int32(3), np.int16(2)).shape == (2, 5)
    floor = growing_errors_of_tree(tree)
    assert pk.k_reduced_error(tree, X, y, np.int64(floor)) == pk.k_reduced_error(tree, X, y, floor)
    assert (pk.rademacher_penalty(tree, X, y, random_state=0, k=np.uint16(floor))
            == pk.rademacher_penalty(tree, X, y, random_state=0, k=floor))


@pytest.mark.parametrize("k, error, match", [
    (-1, ValueError, "k must be at least 0, got -1"),
    (2.5, TypeError, "k must be an integer, got float"),
    (3.0, TypeError, "k must be an integer, got float"),
    ("3", TypeError, "k must be an integer, got str"),
    (True, TypeError, "k must be an integer, got bool"),
    (None, TypeError, "k must be an integer, got NoneType"),
    (np.float64(3), TypeError, "k must be an integer, got float64"),
])
def test_bad_budgets(small_problem, k, error, match):
    tree, X, y = small_problem
    calls = [lambda: pk.k_reduced_error(tree, X, y, k),
             lambda: k_reduced_error_frontier(tree, X, y, k),
             lambda: min_plus_merge([0.0], [0.0], k)]
    if k is not None:  # k=None is the class of all prunings
        calls.append(lambda: pk.rademacher_penalty(tree, X, y, random_state=0, k=k))
    for call in calls:
        with pytest.raises(error, match=match):
            call()


def test_huge_budgets_are_the_class_of_all_prunings(small_problem):
    tree, X, y = small_problem
    assert pk.k_reduced_error(tree, X, y, 10**30) == pk.reduced_error(tree, X, y)
    signs = draw_signs(60, 2, n_draws=3)
    np.testing.assert_array_equal(pk.rademacher_penalty(tree, X, y, signs=signs, k=2**70),
                                  pk.rademacher_penalty(tree, X, y, signs=signs))
    g, e, size = k_reduced_error_frontier(tree, X, y, 10**30)
    assert np.array_equal((g, e, size), k_reduced_error_frontier(tree, X, y, tree.n_samples))


@pytest.mark.parametrize("left, error, match", [
    (["a", "b"], TypeError, "left must be an array of numbers"),
    ([[1.0, 0.0]], ValueError, "left must be a non-empty 1-D array"),
    ([], ValueError, "left must be a non-empty 1-D array"),
    ([np.inf, np.nan], ValueError, "left contains NaN"),
    ([1.0, 2.0], ValueError, r"left must be non-increasing"),
])
def test_bad_tables_to_merge(left, error, match):
    with pytest.raises(error, match=match):
        min_plus_merge(left, [0.0], 3)
    with pytest.raises(error, match=match.replace("left", "right")):
        min_plus_merge([0.0], left, 3)


@pytest.mark.parametrize("function", [
    rademacher.growing_errors, growing_errors_of_tree,
    lambda tree: pk.k_reduced_error(tree, np.zeros((2, 4)), [0, 1], 3),
    lambda tree: k_reduced_error_frontier(tree, np.zeros((2, 4)), [0, 1], 3),
    lambda tree: relabelled_leaf_errors(tree, np.zeros((2, 4)), [0, 1], [1, -1]),
])
def test_bad_trees(small_problem, function):
    _, X, _ = small_problem
    for tree in ("tree", None, DecisionTreeClassifier()):
        with pytest.raises(TypeError, match="tree must be a prunekit Tree"):
            function(tree)


def test_bad_pruning_samples(small_problem):
    tree, X, y = small_problem
    with pytest.raises(ValueError, match="different lengths"):
        pk.k_reduced_error(tree, X, y[:-1], 3)
    with pytest.raises(ValueError, match="different lengths"):
        k_reduced_error_frontier(tree, X, y[:-1], 3)
    with pytest.raises(ValueError, match="X_prune has 3 features"):
        pk.k_reduced_error(tree, X[:, :3], y, 3)
    with pytest.raises(ValueError, match="never saw"):
        pk.rademacher_penalty(tree, X, np.full(60, 7), random_state=0)
    with pytest.raises(ValueError, match="never saw"):
        pk.rademacher_penalty(tree, X, np.full(60, 7), random_state=0, k=5)


def test_growing_error_budget_is_the_floor():
    # "at most 1.1 e mistakes", with mistakes whole numbers, is "at most floor(1.1 e)"
    assert [growing_error_budget(e) for e in range(300)] == \
        [math.floor(Fraction(11, 10) * e) for e in range(300)]
    assert growing_error_budget(278) == 305 and growing_error_budget(278, 1.0) == 278
    assert growing_error_budget(np.int64(30), 2.0) == 60
    with pytest.raises(ValueError, match="grow_errors"):
        growing_error_budget(-1)
    with pytest.raises(TypeError, match="grow_errors"):
        growing_error_budget(2.5)
    with pytest.raises(ValueError, match="c must be >= 1"):
        growing_error_budget(10, 0.9)
