"""The checks of Chapter 3's exercises: correct answers pass with one line; wrong solutions
(mutants: the usual mistakes, an argument ignored, an input changed in place, a wrong type, the
same pruning twice) are rejected, each with the hint that names its mistake and no other; and
the claim of the proof exercise holds on random trees."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import prunekit as pk
from prunekit.reduced_error_pruning import best_subtree_errors, reduced_error_steps
from prunekit.tree import leaf_errors
from prunekit.tree import postorder
from checking import (
    assert_hint, assert_one_type_policy, failure, failure_message, ignoring, mutating,
    not_implemented,
)
from strategies import random_trees

from pdtbook.checks import ch03

COLLAPSE_HINTS = ch03._COLLAPSE_HINTS
REMOVED_HINTS = ch03._REMOVED_HINTS


# ---------------------------------------------------------------------- Exercise 3.1
def rep_collapse(tree, errors_as_leaf, *, strict=False, one_level=False, top_down=False,
                 whole=False, growing=False, in_place=False, index_order=False):
    """The bottom-up pass of the solution notebook, or one of the usual wrong variants."""
    if growing:
        errors_as_leaf = tree.counts.sum(axis=1) - tree.counts.max(axis=1)
    best = errors_as_leaf if in_place else np.array(errors_as_leaf, dtype=np.int64)
    collapse = tree.is_leaf.copy()
    visits = range(tree.n_nodes - 1, -1, -1) if index_order else postorder(tree)
    order = [v for v in visits if not tree.is_leaf[v]]
    for v in order[::-1] if top_down else order:
        left, right = tree.left[v], tree.right[v]
        if one_level:
            below = errors_as_leaf[left] + errors_as_leaf[right]
        elif whole:
            nodes = tree.subtree(v)
            below = errors_as_leaf[nodes[tree.is_leaf[nodes]]].sum()
        else:
            below = best[left] + best[right]
        collapse[v] = best[v] < below if strict else best[v] <= below
        best[v] = min(best[v], below)
    return collapse


def test_rep_collapse_passes(capsys):
    ch03.check_rep_collapse(rep_collapse)
    assert capsys.readouterr().out == "✓ rep_collapse: all 9 checks passed.\n"


@pytest.mark.parametrize("changes, hint", [
    (dict(strict=True), COLLAPSE_HINTS["strict"]),
    (dict(one_level=True), COLLAPSE_HINTS["one level"]),
    (dict(whole=True), COLLAPSE_HINTS["whole subtree"]),
    (dict(top_down=True), COLLAPSE_HINTS["one level"]),   # the same decisions
    (dict(growing=True), COLLAPSE_HINTS["growing"]),
    # nodes visited from n - 1 down to 0: a postorder on every tree numbered parents first
    (dict(index_order=True), COLLAPSE_HINTS["index order"]),
], ids=lambda v: str(v)[:20])
def test_rep_collapse_mistakes_get_their_hint(changes, hint):
    assert_hint(ch03.check_rep_collapse, lambda t, e: rep_collapse(t, e, **changes), hint)


def test_rep_collapse_inverted_types_and_inputs():
    check = ch03.check_rep_collapse
    assert_hint(check, lambda t, e: ~rep_collapse(t, e), COLLAPSE_HINTS["inverted"])
    assert "one entry per node" in failure_message(check, lambda t, e: rep_collapse(t, e)[:-1])
    # node indices, a list of booleans, ints 0/1: the statement asks for a boolean array
    as_indices = lambda t, e: np.flatnonzero(rep_collapse(t, e))
    assert "it should return a boolean NumPy array" in failure_message(check, as_indices)
    assert "it should return a boolean NumPy array" in failure_message(
        check, lambda t, e: rep_collapse(t, e).tolist())
    assert "an array of dtype int64" in failure_message(
        check, lambda t, e: rep_collapse(t, e).astype(np.int64))
    # best = errors_as_leaf, then writing into it: the caller's errors change
    def in_place(tree, errors_as_leaf):
        return rep_collapse(tree, errors_as_leaf, in_place=True)

    message = failure_message(check, in_place)
    assert "changed its argument `errors_as_leaf` in place" in message
    case = ch03.rep_collapse_cases()[2]
    failure(check, ignoring(rep_collapse, 1, case[2]))     # errors of another case


def test_rep_collapse_cases_vary_the_errors_on_one_tree():
    cases = ch03.rep_collapse_cases()
    same_tree = [(t, e) for _, t, e in cases if t.n_nodes == cases[-1][1].n_nodes]
    (tree_a, errors_a), (tree_b, errors_b) = same_tree
    assert np.array_equal(tree_a.counts, tree_b.counts) and not np.array_equal(errors_a, errors_b)
    assert (pk.Pruning.from_collapsed(tree_a, best_subtree_errors(tree_a, errors_a)[1])
            != pk.Pruning.from_collapsed(tree_a, best_subtree_errors(tree_a, errors_b)[1]))


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
    ch03.check_removed_by_rep(lambda: frozenset(np.array([10, 9, 8, 7])))
    assert capsys.readouterr().out == "✓ removed_by_rep: all 1 checks passed.\n" * 2


@pytest.mark.parametrize("answer, hint", [
    (set(), REMOVED_HINTS["strict"]),
    ({7, 8}, REMOVED_HINTS["unreached"]),
    ({4, 5, 7, 8, 9, 10}, REMOVED_HINTS["leaves"]),
    ({0, 1, 2, 3, 4, 5, 6}, REMOVED_HINTS["kept"]),
    ({9, 10}, "work bottom-up from the pruning sample's counts printed above: at every internal "
              "node compare its errors as a leaf with the fewest errors of the subtrees below "
              "it."),
])
def test_removed_by_rep_mistakes_get_their_hint(answer, hint):
    error = assert_hint(ch03.check_removed_by_rep, lambda: answer, hint)
    assert "explain_removed_by_rep()" in str(error)
    assert "e(v)" not in str(error) and "<=" not in str(error)      # no worked pass


def test_removed_by_rep_pruning_labels_hint():
    tree, X, y = ch03.hand_tree()
    by_pruning_labels = ch03._removed_variants(tree, X, y)["pruning labels"]
    assert by_pruning_labels != {7, 8, 9, 10}
    assert_hint(ch03.check_removed_by_rep, lambda: by_pruning_labels,
                REMOVED_HINTS["pruning labels"])


@pytest.mark.parametrize("answer, text", [
    ([7, 8, 9, 10], "it should return a set of node indices"),
    ([7, 7, 8, 9, 10], "it should return a set of node indices"),
    (np.array([7, 8, 9, 10]), "it should return a set of node indices"),
    (7, "it should return a set of node indices"),
    ({"7", "8"}, "should contain node indices"),
])
def test_removed_by_rep_types(answer, text):
    assert text in failure_message(ch03.check_removed_by_rep, lambda: answer)


def test_removed_by_rep_explanation(capsys):
    ch03.explain_removed_by_rep()
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["node", "e(v)", "fewest", "below", "decision"]
    assert [line.split()[0] for line in out[1:-1]] == ["4", "1", "5", "2", "0"]
    assert sum("(a tie)" in line for line in out) == 2 and out[-1] == "removed: [7, 8, 9, 10]"


def test_both_collapses_of_the_hand_tree_are_ties():
    """Exercise 3.2's remark: every removal comes from a tie (node 4: no pruning error fixed;
    node 5: no pruning example)."""
    tree, X, y = ch03.hand_tree()
    counts = tree.node_counts(X, y)
    steps = {s.node: s for s in reduced_error_steps(tree, X, y)}
    collapsed = [v for v, s in steps.items() if s.prune]
    assert collapsed == [4, 5]
    assert all(steps[v].errors_as_leaf == steps[v].errors_below for v in collapsed)
    assert counts[5].sum() == 0 and counts[4].sum() > 0
    assert not any(steps[v].prune for v in (0, 1, 2))
    strict = pk.Pruning.from_collapsed(
        tree, ch03._collapse_variant(tree, leaf_errors(counts, tree.labels), "strict"))
    assert strict.n_nodes == tree.n_nodes                       # nothing removed
    assert strict.errors(counts) == pk.reduced_error(tree, X, y).errors(counts)


# ---------------------------------------------------------------------- Exercise 3.3
def minimisers(tree, X, y, *, on_growing=False, only_one=False, twice=False):
    prunings = list(pk.all_prunings(tree))
    errors = [p.errors() if on_growing else int(np.sum(p.predict(X) != y)) for p in prunings]
    found = [p for p, e in zip(prunings, errors) if e == min(errors)]
    return found[:1] if only_one else found + found[:1] if twice else found


def test_minimisers_pass(capsys):
    ch03.check_minimisers(minimisers)
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "✓ minimisers: all 7 checks passed."
    assert out[1].startswith("  on these 7 cases, the ") and out[1].endswith("pk.reduced_error.")


@pytest.mark.parametrize("wrong, hint", [
    (lambda t, X, y: minimisers(t, X, y, on_growing=True),
     "count the errors on the pruning sample (X_prune, y_prune), e.g. np.sum(p.predict(X_prune) "
     "!= y_prune); p.errors() without arguments counts them on the growing sample."),
    (lambda t, X, y: minimisers(t, X, y, only_one=True),
     "return every pruning with the fewest errors, not only one of them."),
    (lambda t, X, y: list(pk.all_prunings(t)),
     "keep only the prunings whose number of pruning errors equals the minimum over all "
     "prunings."),
], ids=["growing sample", "only one", "all prunings"])
def test_minimisers_mistakes_get_their_hint(wrong, hint):
    assert_hint(ch03.check_minimisers, wrong, hint)


def test_minimisers_types_duplicates_and_arguments():
    check = ch03.check_minimisers
    message = failure_message(check, lambda t, X, y: minimisers(t, X, y, twice=True))
    assert "lists the same pruning more than once" in message
    assert "should return a list of prunings" in failure_message(check, lambda t, X, y: 3)
    assert "should return a list of prunings" in failure_message(
        check, lambda t, X, y: tuple(minimisers(t, X, y)))
    assert "prunekit Pruning objects" in failure_message(
        check, lambda t, X, y: [p.kept for p in minimisers(t, X, y)])
    other = pk.Tree.from_arrays([1, -1, -1], [2, -1, -1], [[3, 2], [3, 0], [0, 2]])
    assert "a pruning of another tree" in failure_message(
        check, lambda t, X, y: [pk.Pruning.full(other)])
    cases = ch03.minimiser_cases()
    same = [i for i, case in enumerate(cases) if "another pruning sample" in case[0]]
    assert same, "a tree appears with two pruning samples"
    tree, X_a, y_a = cases[same[0] - 1][1:]
    X_b, y_b = cases[same[0]][2:]
    assert minimisers(tree, X_a, y_a) != minimisers(tree, X_b, y_b)
    for position in (1, 2):          # a function ignoring X_prune or y_prune fails
        failure(check, ignoring(minimisers, position, cases[same[0] - 1][position + 1]))
    assert "changed its argument `y` in place" in failure_message(check, mutating(minimisers, 2))


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
    assert capsys.readouterr().out == "✓ rep_test_error: all 7 checks passed.\n"


@pytest.mark.parametrize("changes, hint", [
    (dict(swap=True), "the pruning sample is the part of size `fraction`"),
    (dict(stratify=False), "stratify both splits"),
    (dict(measure_on="prune"), "not on the pruning sample"),
    (dict(grown_on_all=True), "grow the tree on the growing part only"),
    (dict(size="leaves"), "not only its leaves"),
    (dict(labels="pruning"), "labels='growing'"),
])
def test_rep_test_error_mistakes_get_their_hint(changes, hint):
    wrong = lambda f, s: ch03.rep_experiment(f, s, **changes)
    error = failure(ch03.check_rep_test_error, wrong)
    assert hint in error.hint
    others = [text for c, text in ch03._EXPERIMENT_MISTAKES if c != changes]
    assert not any(text == error.hint for text in others)


def test_rep_test_error_shapes_types_and_arguments():
    check = ch03.check_rep_test_error
    assert "a pair" in failure_message(check, lambda f, s: ch03.rep_experiment(f, s)[0])
    assert "a pair" in failure_message(check, lambda f, s: list(ch03.rep_experiment(f, s)))
    accuracy = lambda f, s: (1 - ch03.rep_experiment(f, s)[0], ch03.rep_experiment(f, s)[1])
    assert "you returned the accuracy" in failure(check, accuracy).hint
    counted = lambda f, s: (171 * ch03.rep_experiment(f, s)[0], ch03.rep_experiment(f, s)[1])
    assert "you returned the number of test errors" in failure(check, counted).hint
    as_float = lambda f, s: (ch03.rep_experiment(f, s)[0], float(ch03.rep_experiment(f, s)[1]))
    assert "a pair whose number of nodes is an int" in failure_message(check, as_float)
    for position, value in ((0, 0.1), (1, 0)):     # a fixed fraction, or a fixed seed
        failure(check, ignoring(lambda f, s: ch03.rep_experiment(f, s), position, value))


def test_pruning_labels_differ_somewhere_in_the_cases():
    """The labels hint can fire: on some case the pruning sample's labels change the result."""
    assert any(ch03.rep_experiment(f, s, labels="pruning") != ch03.rep_experiment(f, s)
               for f, s in ch03.rep_test_error_cases())


def test_every_check_rejects_a_missing_function():
    for check in (ch03.check_rep_collapse, ch03.check_removed_by_rep, ch03.check_minimisers,
                  ch03.check_rep_test_error):
        assert "is not implemented yet" in failure_message(check, not_implemented)


# ---------------------------------------------------------------------- one type policy
def _rep_test_error(fraction, seed):
    return ch03.rep_experiment(fraction, seed)


TYPED = {
    "3.4 error": (ch03.check_rep_test_error, _rep_test_error, 0, np.float64, ()),
    "3.4 nodes": (ch03.check_rep_test_error, _rep_test_error, 1, np.int64, ()),
}


@pytest.mark.parametrize("exercise", TYPED)
def test_a_0d_array_is_refused_and_a_numpy_scalar_accepted(exercise, capsys):
    """One policy in every check: NumPy scalars are numbers, 0-d arrays are not."""
    assert_one_type_policy(capsys, *TYPED[exercise])
