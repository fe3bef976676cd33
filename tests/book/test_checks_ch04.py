"""The checks of Chapter 4's exercises: correct answers pass with one line; wrong solutions
(mutants: the usual mistakes, an argument ignored, a wrong type) are rejected, each with the
hint that names its mistake and no other; a wrong answer to a hand exercise does not show the
worked numbers; and the tree of Exercise 4.5 is a counterexample to monotonicity in c.

The correct answers follow ``exercises/solutions/04-kearns-mansour.ipynb``; each takes keyword
switches that turn it into one of the usual mistakes.
"""

from __future__ import annotations

import math

import nbformat
import numpy as np
import pytest

import prunekit as pk
from prunekit.datasets import cube, dnf_labels, dnf_true_error, make_boolean_dnf
from prunekit.kearns_mansour_pruning import penalty
from prunekit.tree import postorder
from checking import (
    assert_hint, failure, failure_message, ignoring, not_implemented, retyped,
)

from pdtbook.checks import ARRAY_HINT, CheckFailed
from pdtbook.checks import ch04

PENALTY_HINTS = [hint for _, hint in ch04._PENALTY_MISTAKES]


# ---------------------------------------------------------------------- Exercise 4.1
def km_penalty(m_v, s_v, l_v, delta, m, d, c=1.0, *, log=np.log, confidence="m/delta",
               denominator="m_v", complexity="both", root=True, constant="outside", cap=True,
               guard=True):
    """Penalty (3), capped at 1, or one of the usual wrong variants."""
    if guard and m_v == 0:
        return 1.0 if c > 0 else 0.0
    paths = {"both": (l_v + s_v) * log(d), "brackets": l_v + s_v * log(d),
             "size": s_v * log(d), "depth": l_v * log(d), "no log": (l_v + s_v) * d}[complexity]
    conf = {"m/delta": log(m / delta), "1/delta": log(1 / delta),
            "quotient": log(m) / delta}[confidence]
    under = (paths + conf) / (m_v if denominator == "m_v" else m)
    inner = math.sqrt(under) if root else under
    if cap == "root":                   # c * min(1, sqrt(...))
        return float(c * min(1.0, inner))
    value = {"outside": c * inner, "inside": math.sqrt(c * under),
             "squared": c * c * inner}[constant]
    return float(min(1.0, value)) if cap else float(value)


def test_km_penalty_passes(capsys):
    ch04.check_km_penalty(km_penalty)
    ch04.check_km_penalty(lambda m_v, s_v, l_v, delta, m, d, c=1.0: penalty(
        m_v, s_v, l_v, delta, m, c=c, n_features=d))
    assert capsys.readouterr().out == "✓ km_penalty: all 10 checks passed.\n" * 2


@pytest.mark.parametrize("changes, hint", list(zip([
    dict(log=np.log2), dict(log=np.log10), dict(confidence="1/delta"),
    dict(confidence="quotient"), dict(denominator="m"), dict(complexity="brackets"),
    dict(complexity="size"), dict(complexity="depth"), dict(complexity="no log"),
    dict(root=False), dict(constant="inside"), dict(constant="squared"), dict(cap=False),
    dict(cap="root"),
], PENALTY_HINTS)), ids=lambda v: str(v)[:25])
def test_km_penalty_mistakes_get_their_hint(changes, hint):
    with np.errstate(all="ignore"):
        assert_hint(ch04.check_km_penalty, lambda *args: km_penalty(*args, **changes), hint)


@pytest.mark.parametrize("position", range(7))
def test_km_penalty_uses_every_argument(position):
    first = ch04.km_penalty_cases()[0][1]
    failure(ch04.check_km_penalty, ignoring(km_penalty, position, first[position]))


def test_km_penalty_without_the_m_v_zero_case():
    # NumPy divides by zero silently: inf is capped to 1 for c > 0, but c = 0 gives nan, not 0.
    def unguarded(m_v, s_v, l_v, delta, m, d, c=1.0):
        with np.errstate(all="ignore"):
            value = c * np.sqrt(((l_v + s_v) * np.log(d) + np.log(m / delta)) / np.float64(m_v))
        return float(min(1.0, value)) if not np.isnan(value) else float(value)

    message = failure_message(ch04.check_km_penalty, unguarded)
    assert "km_penalty(0, 1, 1, 0.05, 100, 8, 0)" in message
    assert "Handle m_v = 0 before dividing" in message
    message = failure_message(ch04.check_km_penalty,
                              lambda *args: km_penalty(*args, guard=False, log=math.log))
    assert "km_penalty(0, 3, 2, 0.05, 500, 16, 1) raised ZeroDivisionError" in message


def test_km_penalty_types_and_crashes():
    # min(1, x) gives the int 1 when the penalty is capped
    def int_cap(*args):
        value = km_penalty(*args, cap=False)
        return min(1, value)

    message = failure_message(ch04.check_km_penalty, int_cap)
    assert "returned 1, an int; it should return the penalty, a float" in message
    assert failure_message(ch04.check_km_penalty, not_implemented) == (
        "✗ km_penalty is not implemented yet: replace `raise NotImplementedError()` with your "
        "code.")
    with pytest.raises(CheckFailed) as info:
        ch04.check_km_penalty(lambda *args: [][0])
    assert "km_penalty(50, 5, 2, 0.05, 1000, 16, 1) raised IndexError" in str(info.value)
    assert isinstance(info.value.__cause__, IndexError)       # the student's traceback is kept
    assert "return a single number" in failure_message(
        ch04.check_km_penalty, lambda *args: np.array([km_penalty(*args)]))
    assert "returned a 0-dimensional NumPy array, array(0.765658); it should return the " \
        "penalty, a float." in failure_message(
            ch04.check_km_penalty, lambda *args: np.array(km_penalty(*args)))
    assert "not a function" in failure_message(ch04.check_km_penalty, 0.3)


# ---------------------------------------------------------------------- Exercise 4.2
@pytest.fixture(scope="module")
def tree_42():
    """The tree of Exercise 4.2 (as in the exercise notebook): m = 19439, d = 16."""
    nan = np.nan
    return pk.Tree.from_arrays(
        left=[1, 3, 5, -1, -1, 7, 9, 11, -1, -1, -1, -1, -1],
        right=[2, 4, 6, -1, -1, 8, 10, 12, -1, -1, -1, -1, -1],
        counts=[[9720, 9719], [7684, 3907], [2036, 5812], [5990, 1693], [1694, 2214],
                [1992, 5767], [44, 45], [1399, 5633], [593, 134], [44, 0], [0, 45],
                [1100, 4000], [299, 1633]],
        feature=[0, 1, 2, -1, -1, 3, 4, 5, -1, -1, -1, -1, -1],
        threshold=[0.5, 0.5, 0.5, nan, nan, 0.5, 0.5, 0.5, nan, nan, nan, nan, nan],
        n_features=16,
    )


P, K = "prune", "keep"
DECISIONS_42 = {1.0: {1: P, 7: P, 5: K, 6: P, 2: P, 0: K},
                0.0: {1: K, 7: P, 5: K, 6: K, 2: K, 0: K}}
# The answers of each usual mistake: what changes from the right ones, per run.
MISTAKES_42 = {
    "whole subtree": {1.0: {5: P}},
    "grown errors": {1.0: {2: K}},
    "leaves": {1.0: {1: K, 2: K}},
    "no depth": {1.0: {1: K, 6: K}},
    "rates": {1.0: {1: K, 6: K, 2: K}},
    "strict": {0.0: {7: K}},
    "m_v in log": {1.0: {6: K}},
    "majority m": {1.0: {1: K}},
}


def _answers(changes=None):
    changes = changes or {}
    return {c: {**decisions, **changes.get(c, {})} for c, decisions in DECISIONS_42.items()}


def _decision_function(answers):
    return lambda node, c: answers[c][node]


def test_the_hand_decisions_give_the_library_pruning(tree_42):
    for c, kept in ((1.0, [0, 1, 2]), (0.0, list(range(11)))):
        pruning = pk.kearns_mansour(tree_42, delta=0.05, c=c)
        assert np.flatnonzero(pruning.kept).tolist() == kept
        assert [s.node for s in ch04.km_steps(tree_42, c=c)] == [1, 7, 5, 6, 2, 0]


def test_km_decisions_pass(tree_42, capsys):
    ch04.check_km_decisions(_decision_function(_answers()), tree_42, delta=0.05)
    ch04.check_km_decisions(lambda v, c: f" {DECISIONS_42[c][v].upper()} ", tree_42)
    assert capsys.readouterr().out == "✓ km_decision: all 12 checks passed.\n" * 2


def test_every_mistake_gives_its_own_decisions(tree_42):
    """On the tree of Exercise 4.2, with c = 1 and c = 0, each usual mistake gives decisions
    that differ from the right ones and from every other mistake's."""
    patterns = {None: _answers()}
    for mistake in ch04.KM_MISTAKES:
        patterns[mistake] = {c: _decisions(tree_42, mistake, c) for c in DECISIONS_42}
        assert patterns[mistake] == _answers(MISTAKES_42[mistake]), mistake
    assert len({repr(p) for p in patterns.values()}) == len(ch04.KM_MISTAKES) + 1
    assert set(MISTAKES_42) == set(ch04.KM_MISTAKES) == set(ch04._DECISION_HINTS)


def _decisions(tree, mistake, c):
    return {s.node: P if s.prune else K
            for s in ch04.km_steps(tree, 0.05, c, 16, mistake=mistake)}


@pytest.mark.parametrize("mistake, hint", [
    ("whole subtree", "you seem to have judged the grown subtree T_v. The pass judges T_v*, what "
                      "is left below the node after the nodes below it have made their decisions: "
                      "a collapsed child counts as one leaf, with its errors as a leaf, and s_v "
                      "counts only the nodes that are left."),
    ("grown errors", "you seem to have counted the errors of the grown leaves below the node "
                     "(those of T_v) with the size of T_v*. Rule (1) judges T_v* in both: a child "
                     "that was pruned counts with its errors as a leaf, which are more than its "
                     "grown leaves' whenever its split saved some."),
    ("leaves", "s_v = |T_v*| counts all the nodes of T_v*, internal nodes and leaves, not only its "
               "leaves."),
    ("no depth", "the penalty counts the path to the node as well: (l_v + s_v) log d, with l_v the "
                 "depth of the node in the grown tree."),
    ("rates", "rule (1) compares error rates; multiplied by m_v it compares counts: errors(T_v*) "
              "+ alpha m_v with the errors of the best leaf. You seem to have added alpha itself "
              "to a number of errors."),
    ("strict", "rule (1) prunes on a tie too: errors(T_v*) + alpha m_v >= errors of the best "
               "leaf."),
    ("m_v in log", "the confidence term is log(m / delta) with m the whole sample size, the "
                   "examples at the root, at every node; only the denominator under the square "
                   "root is m_v, the examples reaching the node."),
    ("majority m", "m in log(m / delta) is the sample size, all the examples at the root, not "
                   "the count of the root's majority class."),
])
def test_km_decision_mistakes_get_their_hint(tree_42, mistake, hint):
    error = assert_hint(ch04.check_km_decisions,
                        _decision_function(_answers(MISTAKES_42[mistake])), hint, tree_42)
    message = str(error)
    assert "explain_km_decisions" in message
    assert "rule (1) in counts" not in message and "alpha =" not in message   # no worked numbers


OTHER_HINT = ("rule (1) prunes when errors(T_v*) + alpha m_v >= errors of the best leaf, all "
              "counted on the examples reaching the node; alpha uses the depth of the node in the "
              "grown tree, s_v = |T_v*| and log(m / delta) with the whole sample size m; with "
              "c = 0, alpha = 0.")


@pytest.mark.parametrize("changes", [
    {1.0: {0: P}},
    {1.0: {5: P, 0: P}},          # the whole subtree at node 5 only, and a wrong root
    {0.0: {2: P}},
    {0.0: DECISIONS_42[1.0]},     # the decisions of c = 1 again
], ids=["root", "node 5 and root", "c = 0", "c = 1 twice"])
def test_other_wrong_decisions_get_the_general_hint(tree_42, changes):
    assert_hint(ch04.check_km_decisions, _decision_function(_answers(changes)), OTHER_HINT,
                tree_42)


def test_km_decisions_types_and_explanation(tree_42, capsys):
    answers = _answers()
    message = failure_message(ch04.check_km_decisions, lambda v, c: answers[c][v] == P, tree_42)
    assert "it should return 'prune' or 'keep'" in message
    assert "km_decision is not implemented yet" in failure_message(
        ch04.check_km_decisions, not_implemented, tree_42)
    assert "km_decision(1, c=1) raised KeyError" in failure_message(
        ch04.check_km_decisions, lambda v, c: {}[v], tree_42)
    assert "km_decision(1, c=0) raised KeyError" in failure_message(
        ch04.check_km_decisions, lambda v, c: {1.0: answers[1.0]}[c][v], tree_42)
    ch04.explain_km_decisions(tree_42)
    out = capsys.readouterr().out
    assert "T_v* has the nodes [5, 7, 8] (s_v = 3)" in out
    assert "rule (1) in counts: 1533 + 455.44 = 1988.44 < 1992  ->  keep" in out
    assert out.count("->") == 6
    ch04.explain_km_decisions(tree_42, c=0.0)
    assert "rule (1) in counts: 1399 + 0.00 = 1399.00 >= 1399  ->  prune" in capsys.readouterr().out


# ---------------------------------------------------------------------- Exercise 4.3
def differing_tree():
    return pk.Tree.from_arrays(left=[1, -1, -1], right=[2, -1, -1],
                               counts=[[50, 50], [35, 15], [15, 35]])


def test_differing_tree_passes(capsys):
    ch04.check_differing_tree(differing_tree, delta=0.05, c=1.0, n_features=16)
    assert capsys.readouterr().out == "✓ differing_tree: all 1 checks passed.\n"


@pytest.mark.parametrize("counts", [
    [[50, 50], [50, 0], [0, 50]],       # a perfect split: both rules keep it
    [[50, 50], [25, 25], [25, 25]],     # a useless split: both rules prune it
    [[50, 50], [46, 4], [4, 46]],       # saves 42 errors, more than the local price
])
def test_differing_tree_mistakes_get_the_stump_hint(counts):
    stump = pk.Tree.from_arrays(left=[1, -1, -1], right=[2, -1, -1], counts=counts)
    error = failure(ch04.check_differing_tree, lambda: stump)
    assert "both rules return the same pruning of your tree" in str(error)
    assert error.hint.startswith("consider a stump with the m = 100 examples of your tree")


def test_differing_tree_types():
    message = failure_message(ch04.check_differing_tree, lambda: [[50, 50], [35, 15], [15, 35]])
    assert "it should return a prunekit Tree" in message
    assert "differing_tree is not implemented yet" in failure_message(
        ch04.check_differing_tree, not_implemented)


# ---------------------------------------------------------------------- Exercise 4.4
TERMS = ((0, 1), (2, 3, 4))


def excess_error(m, seed, c, delta=0.05, *, mistake=None, n_features=None):
    """The exact excess error L_D(P_KM) - eps_opt, or one of the usual wrong variants."""
    X, y = make_boolean_dnf(m, n_features=12, terms=TERMS, noise=0.1, random_state=seed)
    tree = pk.id3(X, y)
    used_delta = 0.05 if mistake == "default delta" else delta
    pruned = pk.kearns_mansour(tree, delta=used_delta, c=c, n_features=n_features)
    points = cube(12)
    best = (pk.reduced_error(tree, X, y) if mistake == "rep on S"
            else pk.reduced_error(tree, points, dnf_labels(points, TERMS)))

    def true(model):
        return dnf_true_error(model.predict, 12, TERMS, 0.1)

    if mistake == "swapped":
        pruned = pk.kearns_mansour(tree, delta=c, c=delta)
    if mistake == "no subtraction":
        return true(pruned)
    if mistake == "noise":
        return true(pruned) - 0.1
    if mistake == "reversed":
        return true(best) - true(pruned)
    if mistake == "training":
        return pruned.error(X, y) - best.error(X, y)
    if mistake == "disagreement":
        clean = dnf_labels(points, TERMS)
        return float(np.mean(pruned.predict(points) != clean)
                     - np.mean(best.predict(points) != clean))
    return true(pruned) - true(best)


def test_excess_error_passes(capsys):
    ch04.check_excess_error(excess_error)
    ch04.check_excess_error(lambda *args: excess_error(*args, n_features=12))
    assert capsys.readouterr().out == "✓ excess_error: all 9 checks passed.\n" * 2


@pytest.mark.parametrize("mistake", ["no subtraction", "noise", "reversed", "rep on S",
                                     "training", "disagreement", "default delta", "swapped"])
def test_excess_error_mistakes_get_their_hint(mistake):
    assert_hint(ch04.check_excess_error, lambda *args: excess_error(*args, mistake=mistake),
                ch04._EXCESS_HINTS[mistake])


@pytest.mark.parametrize("n_features", [16, 1000])
def test_excess_error_with_another_number_of_features_gets_its_hint(n_features):
    """The data have 12 features; the d of the other exercises (16), or any other, is wrong."""
    error = assert_hint(ch04.check_excess_error,
                        lambda *args: excess_error(*args, n_features=n_features),
                        ch04.FEATURES_HINT)
    assert "excess_error(m=1000, seed=13, c=0.05, delta=0.05)" in str(error)


def test_excess_error_other_arguments_and_types():
    # with delta and c swapped the case with c = 1 is refused by the library, as a delta
    def swapped_c_first(m, seed, c, delta=0.05):
        return excess_error(m, seed, delta, c) if c >= 1 else excess_error(m, seed, c, delta)

    message = failure_message(ch04.check_excess_error, swapped_c_first)
    assert "excess_error(m=300, seed=0, c=1, delta=0.05)" in message
    failure(ch04.check_excess_error, ignoring(excess_error, 2, 1.0))      # c fixed at 1
    assert "excess_error is not implemented yet" in failure_message(
        ch04.check_excess_error, not_implemented)
    message = failure_message(ch04.check_excess_error, lambda *args: "0.01")
    assert "it should return the excess error, a float" in message


# ---------------------------------------------------------------------- Exercise 4.5
def km_kept(tree, c, delta=0.05, d=16, *, mistake=None):
    """The pass of the solution notebook, or one of the usual wrong variants."""
    m = tree.n_samples
    reached = tree.counts.sum(axis=1)
    as_leaf = reached - tree.counts.max(axis=1)
    errors, size = as_leaf.copy(), np.ones(tree.n_nodes, dtype=int)
    leaves = np.ones(tree.n_nodes, dtype=int)
    pruned = np.zeros(tree.n_nodes, dtype=bool)
    for v in postorder(tree):
        if tree.is_leaf[v]:
            continue
        a, b = tree.left[v], tree.right[v]
        if mistake == "whole subtree":
            nodes = tree.subtree(v)
            below = as_leaf[nodes[tree.is_leaf[nodes]]].sum()
            s_v = len(nodes)
        else:
            below, s_v = errors[a] + errors[b], 1 + size[a] + size[b]
        if mistake == "grown errors":   # the errors of T_v, the grown leaves below v
            nodes = tree.subtree(v)
            below = as_leaf[nodes[tree.is_leaf[nodes]]].sum()
        n_leaves = leaves[a] + leaves[b]
        counted = n_leaves if mistake == "leaves" else s_v
        depth = 0 if mistake == "no depth" else tree.depth[v]
        if mistake in ("m_v in log", "majority m"):
            sample = reached[v] if mistake == "m_v in log" else tree.counts[0].max()
            alpha = min(1.0, c * math.sqrt(((depth + counted) * math.log(d)
                                            + math.log(sample / delta)) / reached[v]))
        else:
            alpha = penalty(reached[v], counted, depth, delta, m, c=c, n_features=d)
        scale = 1 if mistake == "rates" else reached[v]
        total = below + alpha * scale
        if (total > as_leaf[v]) if mistake == "strict" else (total >= as_leaf[v]):
            pruned[v] = True
            errors[v], size[v], leaves[v] = as_leaf[v], 1, 1
        else:
            errors[v], size[v], leaves[v] = below, s_v, n_leaves
    if mistake == "below collapsed":
        return [v for v in range(tree.n_nodes) if tree.is_leaf[v] or not pruned[v]]
    kept, stack = [], [0]
    while stack:
        v = stack.pop()
        kept.append(v)
        if not tree.is_leaf[v] and not pruned[v]:
            stack += [int(tree.left[v]), int(tree.right[v])]
    if mistake == "without collapsed":
        kept = [v for v in kept if tree.is_leaf[v] or not pruned[v]]
    return sorted(kept)


def test_km_kept_passes(capsys):
    ch04.check_km_kept(km_kept)
    assert capsys.readouterr().out == "✓ km_kept: all 12 checks passed.\n"


@pytest.mark.parametrize("mistake", list(ch04._KEPT_HINTS))
def test_km_kept_mistakes_get_their_hint(mistake):
    assert_hint(ch04.check_km_kept, lambda *args: km_kept(*args, mistake=mistake),
                ch04._KEPT_HINTS[mistake])


@pytest.mark.parametrize("position, value", [(2, 0.05), (3, 16)])
def test_km_kept_uses_delta_and_d(position, value):
    assert_hint(ch04.check_km_kept, ignoring(km_kept, position, value),
                "these are the nodes kept with delta = 0.05 and d = 16, but the call asked for "
                "other values: use the arguments delta and d.")


def test_km_kept_uses_the_tree_and_c_and_its_types():
    check = ch04.check_km_kept
    first = ch04.km_kept_cases()[0]
    failure(check, ignoring(km_kept, 0, first[1]))
    failure(check, ignoring(km_kept, 1, first[2]))
    assert "which is not sorted" in failure_message(check, lambda *a: km_kept(*a)[::-1])
    assert "lists the same node more than once" in failure_message(
        check, lambda *a: km_kept(*a) + km_kept(*a)[:1])
    assert "should return a list of node indices" in failure_message(
        check, lambda *a: np.array(km_kept(*a)))
    assert "should contain node indices" in failure_message(
        check, lambda *a: [float(v) for v in km_kept(*a)])


def test_km_kept_numpy_nodes_get_the_type_hint():
    error = assert_hint(ch04.check_km_kept, lambda *a: [np.int64(v) for v in km_kept(*a)],
                        "np.flatnonzero, tree.left[v] and other indexing give NumPy integers "
                        "(numpy.int64), a different type from Python's int: put int(v) in the "
                        "list, or use np.flatnonzero(mask).tolist().")
    assert "among them 0 of type numpy.int64; the list should hold Python ints." in str(error)


def test_km_kept_m_v_in_the_logarithm_is_not_blamed_on_the_depth():
    """log(m_v / delta) and a missing l_v agree on the nodes kept in most cases (at the root
    both are right); the tree with 7 leaves tells them apart."""
    assert_hint(ch04.check_km_kept, lambda *args: km_kept(*args, mistake="m_v in log"),
                ch04._KEPT_HINTS["m_v in log"])
    assert ch04._KEPT_HINTS["m_v in log"] != ch04._KEPT_HINTS["no depth"]


def test_the_kept_variants_are_the_student_mutants():
    """The check's own variants (used for hints) are what the student-like mutants return."""
    for _, tree, c, delta, d in ch04.km_kept_cases():
        for mistake in ch04._KEPT_HINTS:
            assert ch04._kept_by(tree, delta, c, d, mistake) == km_kept(tree, c, delta, d,
                                                                         mistake=mistake)


def penalty_drop(node=0, sizes=(5, 3), scale=1, order=1):
    m = 100_000
    alphas = [km_penalty(m, s, 0, 0.05, m, 16, c) * scale
              for s, c in zip(sizes, ch04.NONMONOTONE_C)]
    return (node, *alphas[::order])


def test_penalty_drop_passes(capsys):
    ch04.check_penalty_drop(penalty_drop)
    assert capsys.readouterr().out == "✓ penalty_drop: all 2 checks passed.\n"


@pytest.mark.parametrize("changes, start", [
    (dict(node=1), "node 1 goes the expected way"),
    (dict(node=2), "the node asked for is an internal node"),
    (dict(sizes=(5, 5)), "with c = 0.562 node 1 has been collapsed"),
    (dict(sizes=(3, 3)), "with c = 0.560 node 1 keeps its split"),
    (dict(sizes=(3, 5)), "the sizes are swapped"),
    (dict(scale=100_000), "return the penalty alpha itself, not alpha m_v"),
    (dict(order=-1), "the penalties are in the wrong order"),
    (dict(sizes=(4, 2)), "alpha(m_v, s_v, l_v, delta) = c sqrt("),
])
def test_penalty_drop_mistakes_get_their_hint(changes, start):
    error = failure(ch04.check_penalty_drop, lambda: penalty_drop(**changes))
    assert error.hint.startswith(start)
    assert "explain_penalty_drop()" in str(error) and "alpha m_v =" not in str(error)


def test_penalty_drop_types_and_explanation(capsys):
    check = ch04.check_penalty_drop
    assert "should return a triple" in failure_message(check, lambda: list(penalty_drop()))
    assert "the node, is an int" in failure_message(check, lambda: (0.0, *penalty_drop()[1:]))
    ch04.explain_penalty_drop()
    out = capsys.readouterr().out
    assert "c = 0.560: the pass keeps the nodes [0]" in out
    assert "c = 0.562: the pass keeps the nodes [0, 1, 2]" in out
    assert "rule (1) in counts: 8 + 943.26 = 951.26 >= 950  ->  prune" in out
    assert "rule (1) in counts: 100 + 849.09 = 949.09 < 950  ->  keep" in out


def test_a_larger_c_can_keep_more_nodes():
    """The counterexample of Exercise 4.5, with the library's pass."""
    tree = ch04.nonmonotone_tree()
    kept = {c: np.flatnonzero(pk.kearns_mansour(tree, delta=0.05, c=c, n_features=16).kept).tolist()
            for c in (0.558, 0.560, 0.562, 0.565)}
    assert kept == {0.558: [0, 1, 2, 3, 4], 0.560: [0], 0.562: [0, 1, 2], 0.565: [0]}


def test_the_notebook_builds_the_counterexample_tree():
    path = "exercises/solutions/04-kearns-mansour.ipynb"
    nb = nbformat.read(path, as_version=4)
    source = next(c.source for c in nb.cells if c.get("id") == "ex4-5-data")
    namespace = {"pk": pk, "np": np, "print": lambda *args: None}
    exec(source, namespace)
    tree = namespace["tree_45"]
    expected = ch04.nonmonotone_tree()
    for name in ("left", "right", "counts"):
        assert np.array_equal(getattr(tree, name), getattr(expected, name))


def test_every_check_rejects_a_missing_function(tree_42):
    for check, args in ((ch04.check_km_kept, ()), (ch04.check_penalty_drop, ())):
        assert "is not implemented yet" in failure_message(check, not_implemented, *args)


# ---------------------------------------------------------------------- one type policy
TYPED = {
    "4.1": (ch04.check_km_penalty, km_penalty, None, np.float64, ()),
    "4.4": (ch04.check_excess_error, excess_error, None, None, ()),     # slow: the refusal only
    "4.5 node": (ch04.check_penalty_drop, penalty_drop, 0, np.int64, ()),
    "4.5 penalty": (ch04.check_penalty_drop, penalty_drop, 1, np.float64, ()),
}


@pytest.mark.parametrize("exercise", TYPED)
def test_a_0d_array_is_refused_and_a_numpy_scalar_accepted(exercise, capsys):
    """One policy in every check: NumPy scalars are numbers, 0-d arrays are not."""
    check, correct, item, scalar, args = TYPED[exercise]
    assert_hint(check, retyped(correct, np.array, item), ARRAY_HINT, *args)
    if scalar is not None:
        check(retyped(correct, scalar, item), *args)
        assert capsys.readouterr().out.startswith("✓ ")


def test_excess_error_cases_have_eps_opt_above_the_noise():
    """Subtracting the noise level 0.1 for eps_opt is right only where the best pruning
    recovers the formula: some cases must have a larger eps_opt."""
    larger = []
    for m, seed, _, _ in ch04.excess_error_cases():
        X, y = make_boolean_dnf(m, n_features=12, terms=TERMS, noise=0.1, random_state=seed)
        points = cube(12)
        best = pk.reduced_error(pk.id3(X, y), points, dnf_labels(points, TERMS))
        larger.append(dnf_true_error(best.predict, 12, TERMS, 0.1) > 0.1 + 1e-9)
    assert sum(larger) >= 2

