"""Nobel's pruning: the size-indexed programme against brute force, the approximation, input."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

import prunekit as pk
from prunekit.bounds import nobel_delta, nobel_delta_independent, nobel_estimation_term
from prunekit.nobel_pruning import merge_tables, nobel_objective
from prunekit.reduced_error_pruning import pruning_labels
from prunekit.tree import leaf_errors
from strategies import random_trees


@given(st.lists(st.integers(0, 9), min_size=1, max_size=6),
       st.lists(st.integers(0, 9), min_size=1, max_size=6))
def test_merge_is_a_min_plus_convolution(left, right):
    best, split = merge_tables(np.array(left, float), np.array(right, float))
    for L in range(2, len(left) + len(right) + 1):
        options = [(left[a - 1] + right[L - a - 1], a) for a in range(1, L)
                   if a <= len(left) and L - a <= len(right)]
        assert best[L - 2] == min(options)[0]
        a = split[L - 2]
        assert left[a - 1] + right[L - a - 1] == best[L - 2]


@given(random_trees(max_leaves=7))
def test_size_profile_is_the_best_error_for_every_size(tree):
    profile = pk.best_pruning_by_size(tree)
    errors = leaf_errors(tree.counts, tree.labels)
    best = {}
    for p in pk.all_prunings(tree):
        e = int(errors[p.leaves].sum())
        best[p.n_leaves] = min(best.get(p.n_leaves, e), e)
    assert profile.errors.tolist() == [best[L] for L in range(1, tree.n_leaves + 1)]
    for L in range(1, tree.n_leaves + 1):
        p = profile.pruning(L)
        assert p.n_leaves == L and p.errors() == best[L]


def brute_force_nobel(tree, counts, labels, n, case, d):
    best = None
    for p in pk.all_prunings(tree):
        p = pk.Pruning(tree, p.kept, labels=labels)
        value = float(nobel_objective(p.n_nodes, p.errors(counts), n, case, d))
        key = (round(value, 12), p.n_nodes)
        if best is None or key < best[0]:
            best = (key, p)
    return best[1]


@given(random_trees(max_leaves=7), st.integers(0, 2**31 - 1))
def test_exact_method_is_the_brute_force_minimiser(tree, seed):
    if tree.n_samples >= 4:
        assert pk.nobel(tree) == brute_force_nobel(tree, tree.counts, tree.labels,
                                                   tree.n_samples, "same", tree.n_features)
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1.5, 1.5, size=(25, tree.n_features))
    y = rng.integers(0, tree.n_classes, size=25)
    counts = tree.node_counts(X, y)
    labels = pruning_labels(tree, counts, "pruning")
    assert pk.nobel(tree, case="independent", X_prune=X, y_prune=y) == brute_force_nobel(
        tree, counts, labels, 25, "independent", None)


@given(random_trees(max_leaves=10), st.integers(0, 2**31 - 1))
def test_the_approximation_is_never_better(tree, seed):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1.5, 1.5, size=(40, tree.n_features))
    y = rng.integers(0, tree.n_classes, size=40)
    counts = tree.node_counts(X, y)
    exact = pk.nobel(tree, X, y, case="independent", method="exact")
    approx = pk.nobel(tree, X, y, case="independent", method="ccp")
    value = lambda p: nobel_objective(p.n_nodes, p.errors(counts), 40, "independent")
    assert value(exact) <= value(approx) + 1e-12


def test_the_approximation_usually_finds_the_exact_minimiser_on_real_trees():
    found = 0
    for seed in range(10):
        X, y = make_classification(600, 6, flip_y=0.2, random_state=seed)
        tree = pk.Tree.from_sklearn(DecisionTreeClassifier(random_state=seed).fit(X[:300], y[:300]),
                                    X[:300], y[:300])
        exact = pk.nobel(tree, X[300:], y[300:], case="independent", method="exact")
        approx = pk.nobel(tree, X[300:], y[300:], case="independent", method="ccp")
        found += exact == approx
    assert found >= 5


def test_penalties_and_theorem_terms():
    assert nobel_delta(7, 1000, 5) == pytest.approx(
        np.sqrt(32 * (7 * 5 * np.log(1000) + 7 * np.log(2) + 2 * np.log(7)) / 1000))
    assert nobel_delta_independent(7, 1000) == pytest.approx(np.sqrt((7 * np.log(2) + np.log(7)) / 1000))
    # the remainders as Nobel's proof gives them, without the printed factor 1/sqrt(k)
    assert nobel_estimation_term(7, 1000, 5) == pytest.approx(
        2 * nobel_delta(7, 1000, 5) + 6 * np.sqrt(2) / np.sqrt(5 * 1000 * np.log(1000)))
    assert nobel_estimation_term(7, 1000, case="independent") == pytest.approx(
        2 * nobel_delta_independent(7, 1000) + 3 / (2 * np.sqrt(1000 * np.log(2))))
    with pytest.raises(ValueError, match="n_samples must be at least 4"):
        nobel_delta(3, 3, 2)
    with pytest.raises(ValueError, match="case must be"):
        nobel_estimation_term(3, 100, 2, case="other")


def test_nobel_bad_input():
    X, y = make_classification(100, 4, random_state=0)
    tree = pk.Tree.from_sklearn(DecisionTreeClassifier(random_state=0).fit(X, y), X, y)
    with pytest.raises(ValueError, match="case must be one of"):
        pk.nobel(tree, case="other")
    with pytest.raises(ValueError, match="method must be one of"):
        pk.nobel(tree, method="greedy")
    with pytest.raises(ValueError, match="needs the independent pruning sample"):
        pk.nobel(tree, case="independent")
    with pytest.raises(ValueError, match="at least 4 examples"):
        pk.nobel(tree, case="independent", X_prune=X[:3], y_prune=y[:3])
    counts_only = pk.Tree.from_arrays([1, -1, -1], [2, -1, -1], [[3, 1], [3, 0], [0, 1]])
    with pytest.raises(ValueError, match="d = 0"):
        pk.nobel(counts_only)
    with pytest.raises(ValueError, match="n_leaves must be in"):
        pk.best_pruning_by_size(tree).pruning(0)
