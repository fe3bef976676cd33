"""Reduced-error pruning and Kearns & Mansour's pruning: brute force, limits, bad input."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

import prunekit as pk
from prunekit.k_reduced_error_pruning import k_reduced_error_frontier
from prunekit.kearns_mansour_pruning import penalty
from prunekit.pruner import pruning_sample_counts
from prunekit.reduced_error_pruning import best_subtree_errors, reduced_error_steps
from prunekit.tree import leaf_errors
from strategies import random_trees


def random_sample(tree, seed, size=30):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1.5, 1.5, size=(size, tree.n_features))
    y = rng.integers(0, tree.n_classes, size=size)
    return X, y


@given(random_trees(max_leaves=7), st.integers(0, 2**31 - 1), st.sampled_from(["growing", "pruning"]))
def test_rep_is_the_smallest_most_accurate_pruning(tree, seed, labels):
    X, y = random_sample(tree, seed)
    rep = pk.reduced_error(tree, X, y, labels=labels)
    candidates = []
    for pruning in pk.all_prunings(tree):
        relabelled = pk.Pruning(tree, pruning.kept, labels=rep.labels)
        candidates.append((int(np.sum(relabelled.predict(X) != y)), pruning.n_nodes, relabelled))
    fewest = min(c[:2] for c in candidates)
    assert (int(np.sum(rep.predict(X) != y)), rep.n_nodes) == fewest
    assert [c[2] for c in candidates if c[:2] == fewest] == [rep]  # and it is unique


def test_rep_labels_by_the_pruning_sample_are_never_worse():
    X, y = make_classification(600, 6, flip_y=0.25, random_state=0)
    tree = pk.Tree.from_sklearn(DecisionTreeClassifier(random_state=0).fit(X[:300], y[:300]),
                                X[:300], y[:300])
    by_growing = pk.reduced_error(tree, X[300:], y[300:])
    by_pruning = pk.reduced_error(tree, X[300:], y[300:], labels="pruning")
    assert by_pruning.error(X[300:], y[300:]) <= by_growing.error(X[300:], y[300:])
    assert by_growing.error(X[300:], y[300:]) <= pk.Pruning.full(tree).error(X[300:], y[300:])


def test_rep_prunes_what_the_pruning_sample_never_reaches():
    tree = pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
                               [[5, 5], [5, 0], [0, 5], [0, 3], [0, 2]],
                               [0, -1, 0, -1, -1], [0.0, 0, 1.0, 0, 0])
    X = np.array([[-1.0], [-2.0], [0.5]])          # nothing goes right of 1.0
    rep = pk.reduced_error(tree, X, [0, 0, 1])
    assert rep.n_nodes == 3 and rep.is_leaf[2]


@given(random_trees(max_leaves=9))
def test_km_with_c_zero_is_rep_on_the_growing_sample(tree):
    _, collapse = best_subtree_errors(tree, leaf_errors(tree.counts, tree.labels))
    assert pk.kearns_mansour(tree, c=0.0) == pk.Pruning.from_collapsed(tree, collapse)


@given(st.integers(1, 5000), st.integers(1, 63), st.integers(0, 12), st.floats(0.01, 0.99),
       st.floats(0, 3), st.floats(0, 3))
def test_the_penalty_grows_with_c(m_v, s_v, l_v, delta, c1, c2):
    low, high = sorted((c1, c2))
    assert (penalty(m_v, s_v, l_v, delta, 5000, c=low, n_features=16)
            <= penalty(m_v, s_v, l_v, delta, 5000, c=high, n_features=16))


@given(random_trees(max_leaves=2), st.floats(0.01, 0.99), st.floats(0, 3), st.floats(0, 3))
def test_on_a_stump_a_larger_c_never_keeps_more_nodes(tree, delta, c1, c2):
    """With one decision, rule (1) is monotone in c. On deeper trees the pass is not: pruning
    a child lowers s_v at its parent (tests/book/test_claims_ch04.py has a five-node tree on which
    c = 0.560 keeps one node and c = 0.562 keeps three)."""
    low, high = sorted((c1, c2))
    assert pk.kearns_mansour(tree, delta=delta, c=high).n_nodes <= pk.kearns_mansour(tree, delta=delta, c=low).n_nodes


def km_by_recursion(tree, delta, c):
    """Rule (1) written as the paper states it, with rates and a recursive pass."""
    m, n = tree.n_samples, tree.n_features
    as_leaf = leaf_errors(tree.counts, tree.labels)
    collapsed = []

    def visit(v):
        if tree.is_leaf[v]:
            return as_leaf[v], 1
        (e_left, s_left), (e_right, s_right) = visit(tree.left[v]), visit(tree.right[v])
        errors, size, m_v = e_left + e_right, 1 + s_left + s_right, tree.counts[v].sum()
        if m_v == 0:
            collapsed.append(v)
            return as_leaf[v], 1
        alpha = min(1.0, c * np.sqrt(((tree.depth[v] + size) * np.log(n) + np.log(m / delta)) / m_v))
        if errors / m_v + alpha >= as_leaf[v] / m_v:
            collapsed.append(v)
            return as_leaf[v], 1
        return errors, size

    visit(0)
    return pk.Pruning.from_collapsed(tree, np.array(collapsed, dtype=int))


@given(random_trees(max_leaves=9), st.floats(0.01, 0.99), st.floats(0, 3))
def test_km_is_rule_one_applied_bottom_up(tree, delta, c):
    assert pk.kearns_mansour(tree, delta=delta, c=c) == km_by_recursion(tree, delta, c)


def test_penalty_forms():
    value = penalty(50, 5, 2, 0.05, 1000, c=1.0, n_features=16, cap=False)
    assert value == pytest.approx(np.sqrt((7 * np.log(16) + np.log(1000 / 0.05)) / 50))
    finite = penalty(50, 5, 2, 0.05, 1000, form="finite", log_paths=lambda l: l * np.log(16),
                     log_trees=lambda s: s * np.log(16), cap=False)
    assert finite == pytest.approx(value)
    vc = penalty(50, 5, 2, 0.05, 1000, form="vc", vc_paths=lambda l: l, vc_trees=lambda s: s,
                 cap=False)
    assert vc == pytest.approx(np.sqrt((7 * np.log(2000) + np.log(1000 / 0.05)) / 50))
    assert penalty(2, 50, 10, 0.05, 1000, n_features=16) == 1.0  # capped
    assert penalty(0, 1, 1, 0.05, 1000, n_features=4) == 1.0
    np.testing.assert_allclose(penalty(np.array([10, 40]), 3, 1, 0.1, 100, n_features=4, cap=False),
                               [np.sqrt((4 * np.log(4) + np.log(1000)) / k) for k in (10, 40)])


def test_local_and_global_rules_differ_on_a_large_tree():
    """Inside a large tree the global penalty barely changes when a subtree goes, so the
    global rule keeps subtrees that the local rule removes."""
    X, y = make_classification(3000, 10, n_informative=3, flip_y=0.35, random_state=0)
    tree = pk.Tree.from_sklearn(DecisionTreeClassifier(random_state=0).fit(X, y), X, y)
    local = pk.kearns_mansour(tree, delta=0.05, c=1.0)
    global_ = pk.kearns_mansour_global(tree, delta=0.05, c=1.0)
    assert global_.n_nodes > local.n_nodes
    assert pk.kearns_mansour_global(tree, delta=0.05, c=0.0) == pk.kearns_mansour(tree, delta=0.05, c=0.0)


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(delta=0.0), ValueError, "delta"), (dict(delta=1.0), ValueError, "delta"),
    (dict(c=-1.0), ValueError, "c must be"), (dict(c="big"), TypeError, "c must be"),
    (dict(form="huge"), ValueError, "form must be"),
    (dict(form="finite"), ValueError, "log_paths"), (dict(form="vc"), ValueError, "vc_paths"),
])
def test_km_bad_input(kwargs, error, match):
    X, y = make_classification(100, 4, random_state=0)
    tree = pk.Tree.from_sklearn(DecisionTreeClassifier(random_state=0).fit(X, y), X, y)
    with pytest.raises(error, match=match):
        pk.kearns_mansour(tree, **kwargs)


def test_pruning_sample_bad_input():
    X, y = make_classification(100, 4, random_state=0)
    tree = pk.Tree.from_sklearn(DecisionTreeClassifier(random_state=0).fit(X, y), X, y)
    with pytest.raises(ValueError, match="0 sample"):
        pk.reduced_error(tree, X[:0], y[:0])
    with pytest.raises(ValueError, match="X_prune has 3 features"):
        pk.reduced_error(tree, X[:, :3], y)
    with pytest.raises(ValueError, match="never saw"):
        pk.reduced_error(tree, X, y + 2)
    with pytest.raises(ValueError, match="labels must be one of"):
        pk.reduced_error(tree, X, y, labels="test")
    with pytest.raises(TypeError, match="prunekit Tree"):
        pk.reduced_error(None, X, y)
    with pytest.raises(ValueError, match="both X_prune and y_prune"):
        pk.kearns_mansour(tree, X_prune=X)
    with pytest.raises(ValueError, match="delta"):
        pk.kearns_mansour_global(tree, delta=2.0)


def test_km_needs_the_number_of_tests_for_counts_only_trees():
    tree = pk.Tree.from_arrays([1, -1, -1], [2, -1, -1], [[50, 50], [35, 15], [15, 35]])
    with pytest.raises(ValueError, match="pass n_features"):
        pk.kearns_mansour(tree)
    with pytest.raises(ValueError, match="pass n_features"):
        pk.kearns_mansour_global(tree)
    assert pk.kearns_mansour(tree, n_features=16).n_nodes in (1, 3)


@given(random_trees(max_leaves=9), st.integers(0, 2**31 - 1), st.sampled_from(["growing", "pruning"]))
def test_rep_steps_replay_the_pass(tree, seed, labels):
    from prunekit.reduced_error_pruning import reduced_error_steps

    X, y = random_sample(tree, seed)
    steps = reduced_error_steps(tree, X, y, labels=labels)
    assert [s.node for s in steps] == [v for v in pk.tree.postorder(tree) if not tree.is_leaf[v]]
    rep = pk.reduced_error(tree, X, y, labels=labels)
    replay = pk.Pruning.from_collapsed(tree, [s.node for s in steps if s.prune], labels=rep.labels)
    assert replay == rep
    counts = tree.node_counts(X, y)
    for s in steps:
        assert s.prune == (s.errors_as_leaf <= s.errors_below)
        assert s.reached == counts[s.node].sum()
        # errors_below is the fewest errors of a pruning that keeps the node's split
        kept_below = [pk.Pruning(tree, p.kept, labels=rep.labels) for p in pk.all_prunings(tree)
                      if p.kept[s.node] and not p.is_leaf[s.node]]
        sub = tree.subtree(s.node)
        assert s.errors_below == min(
            int(np.sum(counts[np.intersect1d(sub, p.leaves)].sum(axis=1)
                       - counts[np.intersect1d(sub, p.leaves), rep.labels[np.intersect1d(sub, p.leaves)]]))
            for p in kept_below)


# Every function that judges a tree on a pruning sample, and why it needs one when it does.
PRUNING_SAMPLE_USERS = [
    (lambda t, X, y: pk.reduced_error(t, X, y), None),
    (lambda t, X, y: reduced_error_steps(t, X, y), None),
    (lambda t, X, y: pk.k_reduced_error(t, X, y, 40), None),
    (lambda t, X, y: k_reduced_error_frontier(t, X, y, 40), None),
    (lambda t, X, y: pk.holdout_alpha(t, X, y), None),
    (lambda t, X, y: pk.critical_value(t, X, y), "critical-value pruning chooses"),
    (lambda t, X, y: pk.kearns_mansour(t, X, y), "give both X_prune and y_prune, or neither"),
    (lambda t, X, y: pk.kearns_mansour_global(t, X, y), "give both X_prune and y_prune"),
    (lambda t, X, y: pk.nobel(t, X, y, case="independent"), "case='independent' needs the"),
]


@pytest.mark.parametrize("call, why", PRUNING_SAMPLE_USERS)
def test_every_pruning_sample_is_checked_and_counted_by_one_helper(call, why, monkeypatch):
    X, y = make_classification(300, 5, flip_y=0.2, random_state=3)
    tree = pk.Tree.from_sklearn(DecisionTreeClassifier(random_state=0).fit(X[:200], y[:200]),
                                X[:200], y[:200])
    counted, node_counts = [], pk.Tree.node_counts
    monkeypatch.setattr(pk.Tree, "node_counts", lambda self, X, y, names=("X", "y"), **w:
                        counted.append(names) or node_counts(self, X, y, names=names, **w))
    call(tree, X[200:], y[200:])
    assert counted == [("X_prune", "y_prune")]
    monkeypatch.undo()
    np.testing.assert_array_equal(pruning_sample_counts(tree, X[200:], y[200:]),
                                  tree.node_counts(X[200:], y[200:]))
    with pytest.raises(ValueError, match="X_prune has 2 features"):
        call(tree, X[200:, :2], y[200:])
    with pytest.raises(ValueError, match="y_prune contains labels"):
        call(tree, X[200:], y[200:] + 2)
    with pytest.raises(ValueError, match="y_prune is required" + (f": {why}" if why else "")):
        call(tree, X[200:], None)
