"""The checks of Chapter 2's exercises: correct answers pass with one line; wrong solutions
(mutants: the usual mistakes, an argument ignored, an input changed in place, a wrong type) are
rejected, each with the hint that names its mistake and no other; the reference values agree
with the library, and the claims of the proof exercise hold."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import prunekit as pk
from prunekit.cost_complexity_pruning import leaf_risks
from checking import (
    assert_hint, failure, failure_message, ignoring, mutating, not_implemented, retyped,
)

from pdtbook.checks import ARRAY_HINT, ch02, random_tree

G_HINTS = ch02._G_HINTS
CHOICE_HINTS = [hint for _, hint in ch02._CHOICE_MISTAKES]


# ---------------------------------------------------------------------- solutions and mutants
def _risk(tree, kind):
    """R(v) as a student would compute it: errors / m, or p(v) times an impurity."""
    counts = tree.counts.astype(float)
    reached = counts.sum(axis=1)
    if kind == "error":
        return (reached - counts.max(axis=1)) / tree.n_samples
    share = counts / np.maximum(reached, 1)[:, None]
    if kind == "gini":
        impurity = 1 - (share ** 2).sum(axis=1)
    else:
        with np.errstate(all="ignore"):
            impurity = -np.nansum(np.where(share > 0, share * np.log(share), 0.0), axis=1)
    return impurity * reached / tree.n_samples


def _g(pruning, *, kind="error", divide="leaves_minus_one", branch=True, scale="m", sign=1,
       full_branch=False):
    """g(v) over the internal nodes of a pruning, or one of the usual wrong variants."""
    tree = pruning.tree
    m, reached = tree.n_samples, tree.counts.sum(axis=1)
    risk = _risk(tree, kind) * {"m": 1, "one": m}.get(scale, 1)
    result = {}
    for v in np.flatnonzero(pruning.kept & ~pruning.is_leaf).tolist():
        below = tree.subtree(v)
        leaves = below[tree.is_leaf[below]] if full_branch else below[pruning.is_leaf[below]]
        nodes = below if full_branch else below[pruning.kept[below]]
        saved = risk[v] - (risk[leaves].sum() if branch else 0)
        if scale == "m_v":
            saved = saved * m / reached[v]
        count = {"leaves_minus_one": len(leaves) - 1, "leaves": len(leaves),
                 "nodes_minus_one": len(nodes) - 1}[divide]
        result[v] = float(sign * saved / count)
    return result


def g_values(tree, **mistake):
    return _g(pk.Pruning.full(tree), **mistake)


def weakest_link(pruning, ties="all", **mistake):
    g = _g(pruning, **mistake)
    alpha = min(g.values())
    if ties == "exact":                 # == instead of the tolerance the statement asks for
        nodes = [v for v, value in g.items() if value == alpha]
    else:
        nodes = [v for v, value in g.items() if np.isclose(value, alpha, rtol=1e-9, atol=1e-12)]
    return (nodes[:1] if ties == "first" else nodes), alpha


def solution_weakest_link(pruning, exact=False):
    """The solution notebook's weakest_link, with == in place of np.isclose if ``exact``."""
    tree = pruning.tree
    m = tree.n_samples
    as_leaf = tree.counts.sum(axis=1) - tree.counts.max(axis=1)
    g = {}
    for v in np.flatnonzero(pruning.kept & ~pruning.is_leaf):
        below = tree.subtree(int(v))
        leaves = below[pruning.is_leaf[below]]
        saved = (as_leaf[v] - as_leaf[leaves].sum()) / m
        g[int(v)] = float(saved / (len(leaves) - 1))
    smallest = min(g.values())
    nodes = [v for v, value in g.items()
             if (value == smallest if exact
                 else np.isclose(value, smallest, rtol=1e-9, atol=1e-12))]
    return nodes, smallest


def choose_alpha(alphas, n_leaves, error, se):
    best = np.flatnonzero(error == error.min())[-1]
    one_se = np.flatnonzero(error <= error[best] + se[best])[-1]
    return float(alphas[best]), float(alphas[one_se])


def test_correct_answers_pass_with_one_line(capsys):
    ch02.check_g_values(g_values)
    ch02.check_weakest_link(weakest_link)
    ch02.check_choose_alpha(choose_alpha)
    ch02.check_weakest_link(solution_weakest_link)
    out = capsys.readouterr().out.splitlines()
    assert out == ["✓ g_values: all 35 checks passed.", "✓ weakest_link: all 15 checks passed.",
                   "✓ choose_alpha: all 9 checks passed.", "✓ weakest_link: all 15 checks passed."]


def test_answers_in_other_accepted_forms_pass(capsys):
    # NumPy float values, nodes in any order, alphas as NumPy scalars, n_leaves used.
    ch02.check_g_values(lambda tree: {v: np.float64(g) for v, g in g_values(tree).items()})
    ch02.check_weakest_link(lambda p: (weakest_link(p)[0][::-1], np.float64(weakest_link(p)[1])))

    def by_leaves(alphas, n_leaves, error, se):       # the smallest tree by n_leaves
        best = min(np.flatnonzero(error == error.min()), key=lambda k: n_leaves[k])
        within = np.flatnonzero(error <= error[best] + se[best])
        return alphas[best], alphas[min(within, key=lambda k: n_leaves[k])]

    ch02.check_choose_alpha(by_leaves)
    assert capsys.readouterr().out.count("✓") == 3


def test_unimplemented_functions_fail():
    for check in (ch02.check_g_values, ch02.check_weakest_link, ch02.check_choose_alpha):
        assert "is not implemented yet" in failure_message(check, not_implemented)


# ---------------------------------------------------------------------- Exercise 2.1
@pytest.mark.parametrize("mistake, hint", [
    (dict(divide="leaves"), G_HINTS["leaves"]),
    (dict(divide="nodes_minus_one"), G_HINTS["nodes"]),
    (dict(branch=False), G_HINTS["no branch"]),
    (dict(scale="one"), G_HINTS["counts"]),
    (dict(scale="m_v"), G_HINTS["m_v"]),
    (dict(sign=-1), G_HINTS["sign"]),
    (dict(kind="gini"), G_HINTS["gini"]),        # once told "divide by m, not by m_t"
    (dict(kind="entropy"), G_HINTS["entropy"]),
], ids=lambda v: str(v)[:30])
def test_g_values_mistakes_get_their_hint(mistake, hint):
    assert_hint(ch02.check_g_values, lambda tree: g_values(tree, **mistake), hint)


def test_g_values_keys_types_and_messages():
    check = ch02.check_g_values
    with_leaves = lambda tree: {**{int(v): 0.0 for v in np.flatnonzero(tree.is_leaf)},
                                **g_values(tree)}
    assert failure(check, with_leaves).hint == "leaves have no g (nothing to collapse): leave them out."
    root_only = lambda tree: {0: g_values(tree)[0]}
    assert "for every internal node" in failure(check, root_only).hint
    as_array = lambda tree: np.array(list(g_values(tree).values()))
    assert "should return a dict" in failure_message(check, as_array)
    as_fraction = lambda tree: {v: Fraction(g).limit_denominator() for v, g in g_values(tree).items()}
    assert "it should return g(v), a float" in failure_message(check, as_fraction)
    numpy_keys = lambda tree: {np.int64(v): g for v, g in g_values(tree).items()}
    error = assert_hint(check, numpy_keys,
                        "np.flatnonzero and indexing give NumPy integers (numpy.int64), a "
                        "different type from Python's int: use int(v) as the key.")
    assert "has the key 0 of type numpy.int64; the keys should be node indices as Python " \
           "ints." in str(error)
    assert "0-dimensional NumPy array" in failure_message(
        check, lambda tree: {v: np.array(g) for v, g in g_values(tree).items()})
    message = failure_message(check, lambda tree: g_values(tree, branch=False))
    assert "g_values(<a stump whose split fixes no error (g = 0)>)[0] is 0.375 but g(0) = 0." in message
    message = failure_message(check, lambda tree: g_values(tree, divide="leaves"))
    assert "g_values(<the 16-record tree of the notes>)[0] is 0.125 but g(0) = 1/6 = 0.166667" in message


def test_a_hard_coded_dict_gets_its_hint():
    """The notes' values written in: on the stump, keys 2 and 4 are not its internal nodes,
    but the cause is the dict that ignores its tree, not leaves given a g."""
    notes = lambda tree: {0: 1 / 6, 2: 1 / 8, 4: 1 / 8}
    error = assert_hint(ch02.check_g_values, notes, ch02.HARD_CODED_HINT)
    assert "g_values(<a stump whose split fixes no error (g = 0)>) has the keys [0, 2, 4]" in \
        str(error)
    # the notes' dict returned for every tree but the notes' own, computed, one
    computed_once = lambda tree: g_values(ch02.notes_tree())
    assert_hint(ch02.check_g_values, computed_once, ch02.HARD_CODED_HINT)
    # keys that are not nodes of the tree, from another cause
    shifted = lambda tree: {v + 100: g for v, g in g_values(tree).items()}
    assert failure(ch02.check_g_values, shifted).hint.startswith(
        "this tree has 7 nodes, 0 to 6, so [100, 102, 104] are not nodes of it")


# ---------------------------------------------------------------------- Exercise 2.2
@pytest.mark.parametrize("wrong, hint", [
    (lambda p: weakest_link(p, full_branch=True), ch02._WEAKEST_HINTS["full branch"]),
    (lambda p: weakest_link(p, kind="gini"), G_HINTS["gini"]),
    (lambda p: weakest_link(p, divide="leaves"), G_HINTS["leaves"]),
    (lambda p: weakest_link(p, ties="first"),
     "several nodes share the smallest g: return all of them. Compare with a tolerance "
     "(np.isclose), since rounding can split exact ties."),
    (lambda p: (weakest_link(p)[0], _g(p, divide="leaves")[weakest_link(p)[0][0]]),
     "the nodes are right, but the new alpha is not g(v): " + G_HINTS["leaves"]),
    (lambda p: (weakest_link(p)[0], _g(p, scale="one")[weakest_link(p)[0][0]]),
     G_HINTS["counts"]),
    (lambda p: (np.flatnonzero(p.kept).tolist(), weakest_link(p)[1]),
     "the nodes [1, 3, 5, 6] are leaves of the current pruning; only internal nodes of the "
     "current pruning (pruning.kept[v] and not pruning.is_leaf[v]) are candidates."),
], ids=["full branch", "gini", "leaves", "one tie", "alpha", "counts", "leaves as nodes"])
def test_weakest_link_mistakes_get_their_hint(wrong, hint):
    assert_hint(ch02.check_weakest_link, wrong, hint)


def test_exact_equality_instead_of_a_tolerance_gets_its_hint():
    """The statement asks for np.isclose; == misses node 2 where rounding splits the exact
    tie g(0) = g(2) = 1/44, in each usual way of computing g."""
    error = assert_hint(ch02.check_weakest_link, lambda p: solution_weakest_link(p, exact=True),
                        ch02.EXACT_TIE_HINT)
    assert "(<a tree in which nodes 0 and 2 tie exactly (g = 1/44)>) returned ([0], " \
           "0.0227273)" in str(error)

    def risks_exact(pruning):         # R(v) - R(P_v) from the risks, compared with ==
        tree = pruning.tree
        risk = (tree.counts.sum(axis=1) - tree.counts.max(axis=1)) / tree.n_samples
        g = {}
        for v in np.flatnonzero(pruning.kept & ~pruning.is_leaf).tolist():
            below = tree.subtree(v)
            leaves = below[pruning.is_leaf[below]]
            g[v] = float((risk[v] - risk[leaves].sum()) / (len(leaves) - 1))
        return [v for v in g if g[v] == min(g.values())], min(g.values())

    assert_hint(ch02.check_weakest_link, risks_exact, ch02.EXACT_TIE_HINT)


def test_weakest_link_numpy_nodes_get_the_type_hint():
    numpy_nodes = lambda p: ([np.int64(v) for v in weakest_link(p)[0]], weakest_link(p)[1])
    error = assert_hint(ch02.check_weakest_link, numpy_nodes,
                        "np.flatnonzero and indexing give NumPy integers (numpy.int64), a "
                        "different type from Python's int: put int(v) in the list.")
    assert "among them 2 of type numpy.int64; the list should hold Python ints." in str(error)


def test_weakest_link_types_and_duplicates():
    check = ch02.check_weakest_link
    assert "a list of nodes" in failure_message(
        check, lambda p: (weakest_link(p)[0][0], weakest_link(p)[1]))
    assert "a pair (nodes, alpha)" in failure_message(check, lambda p: weakest_link(p)[0])
    assert "a pair (nodes, alpha)" in failure_message(check, lambda p: list(weakest_link(p)))
    assert "they should be a list" in failure_message(
        check, lambda p: (np.array(weakest_link(p)[0]), weakest_link(p)[1]))
    twice = lambda p: (weakest_link(p)[0] * 2, weakest_link(p)[1])
    assert "lists the same node more than once (2)" in failure_message(check, twice)
    assert "it should return alpha, a float" in failure_message(
        check, lambda p: (weakest_link(p)[0], Fraction(weakest_link(p)[1]).limit_denominator()))


def test_a_weakest_link_loop_reproduces_the_library_path():
    """Collapsing the weakest links again and again gives the library's alphas and trees."""
    rng = np.random.default_rng(5)
    for _ in range(40):
        tree = random_tree(rng, int(rng.integers(1, 12)), int(rng.integers(2, 4)))
        path = pk.cost_complexity_path(tree)
        pruning, steps = pk.Pruning.full(tree), {}
        while pruning.n_leaves > 1:
            nodes, alpha = ch02.exact_weakest_link(pruning)
            pruning = pk.Pruning.from_collapsed(tree, np.flatnonzero(pruning.is_leaf).tolist() + nodes)
            steps[alpha] = pruning
        steps.setdefault(Fraction(0), pk.Pruning.full(tree))
        alphas = sorted(steps)
        np.testing.assert_allclose([float(a) for a in alphas], path.alphas)
        assert [steps[a] for a in alphas] == [path.pruning(k) for k in range(len(path))]


def test_the_mistake_variants_are_the_student_mutants():
    """The check's own variants (used for hints) agree with independent student-like code."""
    rng = np.random.default_rng(8)
    pairs = [("leaves", dict(divide="leaves")), ("no branch", dict(branch=False)),
             ("m_v", dict(scale="m_v")), ("gini", dict(kind="gini")),
             ("full branch", dict(full_branch=True))]
    for _ in range(20):
        tree = random_tree(rng, int(rng.integers(2, 9)), int(rng.integers(2, 4)))
        pruning = pk.cost_complexity_path(tree).pruning(0)
        if pruning.n_leaves < 2:
            continue
        for name, changes in pairs:
            ours, theirs = ch02.g_variant(pruning, name), _g(pruning, **changes)
            assert ours.keys() == theirs.keys()
            assert all(np.isclose(ours[v], theirs[v]) for v in ours)


# ---------------------------------------------------------------------- Exercise 2.3
@pytest.mark.parametrize("changes, hint", list(zip(
    [dict(ties="first"), dict(rule="first"), dict(rule="until"), dict(own_se=True),
     dict(strict=True), dict(width=2.0), dict(se_row="smallest"), dict(se_row="first tie")],
    CHOICE_HINTS)), ids=lambda v: str(v)[:25])
def test_choose_alpha_mistakes_get_their_hint(changes, hint):
    def wrong(alphas, n_leaves, error, se):
        best, one_se = ch02._choices(error, se, **changes)
        return float(alphas[best]), float(alphas[one_se])

    assert_hint(ch02.check_choose_alpha, wrong, hint)


def test_choose_alpha_shapes_types_and_inputs():
    check = ch02.check_choose_alpha

    def indices(alphas, n_leaves, error, se):
        best = int(np.flatnonzero(error == error.min())[-1])
        return best, int(np.flatnonzero(error <= error[best] + se[best])[-1])

    assert failure(check, indices).hint == "return the alphas (alphas[k]), not the step indices k."
    assert "wrong order" in failure(check, lambda *t: choose_alpha(*t)[::-1]).hint
    assert "should return a pair" in failure_message(check, lambda *t: choose_alpha(*t)[1])
    assert "should return a pair" in failure_message(check, lambda *t: list(choose_alpha(*t)))

    def sorts_errors(alphas, n_leaves, error, se):
        answer = choose_alpha(alphas, n_leaves, error, se)
        error.sort()
        return answer

    assert "changed its argument `error` in place" in failure_message(check, sorts_errors)
    assert "changed its argument `se` in place" in failure_message(check, mutating(choose_alpha, 3))


@pytest.mark.parametrize("position", [0, 2, 3])
def test_choose_alpha_uses_alphas_error_and_se(position):
    """n_leaves may be left unused (the rows are sorted by alpha); the others may not."""
    first = ch02.choose_alpha_cases()[0][1]
    failure(ch02.check_choose_alpha, ignoring(choose_alpha, position, first[position]))


def test_choose_alpha_cases_agree_with_the_selection_object():
    *_, (description, (alphas, leaves, error, se)) = ch02.choose_alpha_cases()
    X, y = pk.datasets.make_boolean_dnf(400, n_features=10, noise=0.15, random_state=2)
    selection = pk.cross_validate_alpha(X, y, cv=5, random_state=0)
    assert choose_alpha(alphas, leaves, error, se) == (selection.alpha_best, selection.alpha_one_se)


# ---------------------------------------------------------------------- references
def test_exact_g_agrees_with_the_library_risks():
    rng = np.random.default_rng(3)
    for _ in range(30):
        tree = random_tree(rng, int(rng.integers(2, 10)), 3)
        risk = leaf_risks(tree)
        for v, g in ch02.exact_g(pk.Pruning.full(tree)).items():
            below = tree.subtree(v)
            leaves = below[tree.is_leaf[below]]
            assert float(g) == pytest.approx((risk[v] - risk[leaves].sum()) / (len(leaves) - 1))


def test_the_notes_example():
    tree = ch02.notes_tree()
    assert ch02.exact_g(pk.Pruning.full(tree)) == {0: Fraction(1, 6), 2: Fraction(1, 8),
                                                   4: Fraction(1, 8)}
    assert ch02.exact_weakest_link(pk.Pruning.from_collapsed(tree, [4])) == ([2], Fraction(1, 8))
    assert ch02.exact_g(pk.Pruning.from_collapsed(tree, [4]))[0] == Fraction(3, 16)
    assert ch02.exact_weakest_link(pk.Pruning.from_collapsed(tree, [2])) == ([0], Fraction(1, 4))
    with pytest.raises(ValueError, match="single leaf"):
        ch02.exact_weakest_link(pk.Pruning.root_only(tree))


# ---------------------------------------------------------------------- Exercise 2.4's claims
def test_exercise_2_4_claims_hold_on_random_trees(capsys):
    seen = ch02.first_tree_claim(n_trees=200, random_state=11)
    assert seen["trees"] == 200 and seen["internal_nodes"] > 0 and seen["prunings_of_risk_R_T"] > 0
    ch02.check_first_tree_claim(n_trees=20, random_state=1)
    assert capsys.readouterr().out.startswith("✓ on 20 random trees")


def test_weakest_link_remaining_hints():
    check = ch02.check_weakest_link

    def with_cut_away(pruning):        # every internal node of the grown tree is a candidate
        nodes, alpha = weakest_link(pruning)
        below = [v for v in range(pruning.tree.n_nodes) if not pruning.kept[v]
                 and not pruning.tree.is_leaf[v]]
        return (nodes + below[:1], alpha) if below else (nodes, alpha)

    hint = failure(check, with_cut_away).hint
    assert "are cut away already (below a leaf of the pruning)" in hint

    def alpha_off(pruning):            # the right nodes, alpha off by a tenth
        nodes, alpha = weakest_link(pruning)
        return nodes, alpha * 1.1

    assert_hint(check, alpha_off, "the nodes are right; the new alpha is their common g(v).")


# ---------------------------------------------------------------------- one type policy
def _dict_values(convert):
    return lambda tree: {v: convert(g) for v, g in g_values(tree).items()}


def _pair(convert):
    return lambda *args: tuple(convert(a) for a in choose_alpha(*args))


TYPED = {
    "2.1": (ch02.check_g_values, _dict_values(np.array), _dict_values(np.float64)),
    "2.2": (ch02.check_weakest_link, retyped(weakest_link, np.array, 1),
            retyped(weakest_link, np.float64, 1)),
    "2.3": (ch02.check_choose_alpha, _pair(np.array), _pair(np.float64)),
}


@pytest.mark.parametrize("exercise", TYPED)
def test_a_0d_array_is_refused_and_a_numpy_float_accepted(exercise, capsys):
    """One policy in every check: NumPy scalars are numbers, 0-d arrays are not."""
    check, as_array, as_numpy = TYPED[exercise]
    assert_hint(check, as_array, ARRAY_HINT)
    check(as_numpy)
    assert capsys.readouterr().out.startswith("✓ ")


def test_ties_decided_by_rounding_get_their_hint():
    """round(g, 3) makes g(1) = 0.0110 and g(2) = 0.0112 (m = 10,000) a tie; they are not."""
    def rounded(pruning):
        g = {v: float(value) for v, value in ch02.exact_g(pruning).items()}
        smallest = min(g.values())
        return [v for v in g if round(g[v], 3) == round(smallest, 3)], smallest

    error = assert_hint(ch02.check_weakest_link, rounded,
                        "the nodes [2] have a g close to the smallest but larger: they are not "
                        "weakest links. Compare with a tolerance for floating-point rounding "
                        "only, np.isclose(g, smallest, rtol=1e-9, atol=1e-12), not by rounding "
                        "g to a few decimals or with a loose tolerance.")
    assert "g(1) = 0.0110 and g(2) = 0.0112" in str(error)

