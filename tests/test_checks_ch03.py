"""The checks of Chapter 3's exercises: correct answers pass, typical mistakes get their hint,
and the claim of the proof exercise holds on random trees."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import prunekit as pk
from prunekit.checks import ch03
from prunekit.reduced_error import best_subtree_errors, reduced_error_steps
from prunekit.tree import postorder
from checking import failure_message as _message
from strategies import random_trees




# ---------------------------------------------------------------------- Exercise 3.1
def rep_collapse(tree, errors_as_leaf, *, strict=False, one_level=False, top_down=False,
                 indices=False):
    best = np.array(errors_as_leaf, dtype=np.int64)
    collapse = tree.is_leaf.copy()
    order = [v for v in postorder(tree) if not tree.is_leaf[v]]
    for v in order[::-1] if top_down else order:
        left, right = tree.left[v], tree.right[v]
        below = (errors_as_leaf[left] + errors_as_leaf[right] if one_level
                 else best[left] + best[right])
        collapse[v] = best[v] < below if strict else best[v] <= below
        best[v] = min(best[v], below)
    return np.flatnonzero(collapse).tolist() if indices else collapse


def test_rep_collapse_passes(capsys):
    ch03.check_rep_collapse(rep_collapse)
    ch03.check_rep_collapse(lambda t, e: rep_collapse(t, e, indices=True))
    assert capsys.readouterr().out == "✓ rep_collapse: all 7 checks passed.\n" * 2


@pytest.mark.parametrize("wrong, hint", [
    (lambda t, e: rep_collapse(t, e, strict=True), "ties go to the leaf"),
    (lambda t, e: rep_collapse(t, e, one_level=True), "not with the children's errors as leaves"),
    (lambda t, e: ~rep_collapse(t, e), "return True where the node becomes a leaf"),
    (lambda t, e: rep_collapse(t, e)[:-1], "one entry per node"),
    (lambda t, e: "all", "should return a boolean array"),
])
def test_rep_collapse_hints(wrong, hint):
    assert hint in _message(ch03.check_rep_collapse, wrong)


def test_rep_collapse_not_implemented():
    def todo(tree, errors):
        raise NotImplementedError()

    assert "is not implemented yet" in _message(ch03.check_rep_collapse, todo)


def test_whole_subtree_and_top_down_variants_are_recognised():
    for description, tree, errors in ch03.rep_collapse_cases():
        for mistake in ("whole subtree", "top-down"):
            ch03._collapse_variant(tree, errors, mistake)  # defined on every case
    wrong = lambda t, e: ch03._collapse_variant(t, e, "whole subtree")
    assert "not with the errors of the unpruned subtree" in _message(ch03.check_rep_collapse, wrong)


@given(random_trees(max_leaves=9), st.integers(0, 2**31 - 1))
def test_the_reference_variant_is_reduced_error(tree, seed):
    rng = np.random.default_rng(seed)
    errors = rng.integers(0, 5, size=tree.n_nodes)
    correct = ch03._collapse_variant(tree, errors, "correct")
    _, collapse = best_subtree_errors(tree, errors)
    assert pk.Pruning.from_collapsed(tree, correct) == pk.Pruning.from_collapsed(tree, collapse)


# ---------------------------------------------------------------------- Exercise 3.2
def test_removed_by_rep(capsys):
    ch03.check_removed_by_rep(lambda: {7, 8, 9, 10})
    ch03.check_removed_by_rep(lambda: np.array([10, 9, 8, 7]))
    assert capsys.readouterr().out == "✓ removed_by_rep: all 1 checks passed.\n" * 2


@pytest.mark.parametrize("answer, hint", [
    (set(), "at a tie"),
    ({7, 8}, "no pruning example reaches"),
    ({4, 5, 7, 8, 9, 10}, "stays in the pruning, as a leaf"),
    ({0, 1, 2, 3, 4, 5, 6}, "not the ones that are kept"),
    ({9, 10}, "work bottom-up"),
    (7, "should return a set of node indices"),
    (["7", "8"], "should contain node indices"),
])
def test_removed_by_rep_hints(answer, hint):
    assert hint in _message(ch03.check_removed_by_rep, lambda: answer)


def test_the_hand_tree_has_a_tie_and_an_unreached_node():
    tree, X, y = ch03.hand_tree()
    counts = tree.node_counts(X, y)
    assert counts[5].sum() == 0 and counts[0].sum() == len(y)
    steps = {s.node: s for s in reduced_error_steps(tree, X, y)}
    assert steps[4].errors_as_leaf == steps[4].errors_below and steps[4].prune
    assert not steps[2].prune and steps[5].prune


# ---------------------------------------------------------------------- Exercise 3.3
def minimisers(tree, X, y, *, on_growing=False, only_one=False):
    prunings = list(pk.all_prunings(tree))
    errors = [p.errors() if on_growing else int(np.sum(p.predict(X) != y)) for p in prunings]
    found = [p for p, e in zip(prunings, errors) if e == min(errors)]
    return found[:1] if only_one else found


def test_minimisers_pass(capsys):
    ch03.check_minimisers(minimisers)
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "✓ minimisers: all 6 checks passed."
    assert out[1].startswith("  on these 6 cases, the ") and out[1].endswith("pk.reduced_error.")


@pytest.mark.parametrize("wrong, hint", [
    (lambda t, X, y: minimisers(t, X, y, on_growing=True), "on the pruning sample"),
    (lambda t, X, y: minimisers(t, X, y, only_one=True), "return every pruning"),
    (lambda t, X, y: list(pk.all_prunings(t)), "keep only the prunings"),
    (lambda t, X, y: 3, "should return a list of prunings"),
    (lambda t, X, y: [p.kept for p in minimisers(t, X, y)], "prunekit Pruning objects"),
])
def test_minimisers_hints(wrong, hint):
    assert hint in _message(ch03.check_minimisers, wrong)


@given(random_trees(max_leaves=8), st.integers(0, 2**31 - 1), st.sampled_from(["growing", "pruning"]))
def test_rep_is_contained_in_every_minimiser(tree, seed, labels):
    """The claim of Exercise 3.3, for both leaf labellings."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1.5, 1.5, size=(int(rng.integers(1, 25)), tree.n_features))
    y = rng.integers(0, tree.n_classes, size=len(X))
    rep = pk.reduced_error(tree, X, y, labels=labels)
    prunings = [pk.Pruning(tree, p.kept, labels=rep.labels) for p in pk.all_prunings(tree)]
    errors = [int(np.sum(p.predict(X) != y)) for p in prunings]
    best = [p for p, e in zip(prunings, errors) if e == min(errors)]
    assert rep in best
    assert all(np.all(rep.kept <= p.kept) for p in best)


# ---------------------------------------------------------------------- Exercise 3.4
def test_rep_test_error_passes(capsys):
    ch03.check_rep_test_error(lambda f, s: ch03.rep_experiment(f, s))
    ch03.check_rep_test_error(lambda f, s: list(ch03.rep_experiment(f, s)))
    assert capsys.readouterr().out == "✓ rep_test_error: all 7 checks passed.\n" * 2


@pytest.mark.parametrize("changes, hint", [
    (dict(swap=True), "the pruning sample is the part of size `fraction`"),
    (dict(stratify=False), "stratify both splits"),
    (dict(measure_on="prune"), "not on the pruning sample"),
    (dict(grown_on_all=True), "grow the tree on the growing part only"),
    (dict(size="leaves"), "not only its leaves"),
    (dict(labels="pruning"), "labels='growing'"),
])
def test_rep_test_error_hints(changes, hint):
    wrong = lambda f, s: ch03.rep_experiment(f, s, **changes)
    assert hint in _message(ch03.check_rep_test_error, wrong)


def test_rep_test_error_shape_hints():
    assert "a pair" in _message(ch03.check_rep_test_error, lambda f, s: ch03.rep_experiment(f, s)[0])
    accuracy = lambda f, s: (1 - ch03.rep_experiment(f, s)[0], ch03.rep_experiment(f, s)[1])
    assert "misclassification rate" in _message(ch03.check_rep_test_error, accuracy)


def test_pruning_labels_differ_somewhere_in_the_cases():
    """The labels hint can fire: on some case the pruning sample's labels change the result."""
    assert any(ch03.rep_experiment(f, s, labels="pruning") != ch03.rep_experiment(f, s)
               for f, s in ch03.rep_test_error_cases())
