"""The checks of Chapter 2's exercises: correct answers pass, typical mistakes get their hint,
the reference values agree with the library, and the claims of the proof exercise hold."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import prunekit as pk
from prunekit.checks import CheckFailed, random_tree
from prunekit.checks import ch02
from prunekit.cost_complexity import leaf_risks


# ---------------------------------------------------------------------- correct answers
def _errors_as_leaf(tree):
    return tree.counts.sum(axis=1) - tree.counts.max(axis=1)


def _g(pruning, *, divide="leaves_minus_one", branch=True, scale="m", sign=1, full_branch=False):
    """g(t) over the internal nodes of a pruning, or one of the usual wrong variants."""
    tree = pruning.tree
    m, as_leaf, reached = tree.n_samples, _errors_as_leaf(tree), tree.counts.sum(axis=1)
    result = {}
    for t in np.flatnonzero(pruning.kept & ~pruning.is_leaf).tolist():
        below = tree.subtree(t)
        leaves = below[tree.is_leaf[below]] if full_branch else below[pruning.is_leaf[below]]
        nodes = below if full_branch else below[pruning.kept[below]]
        saved = as_leaf[t] - (as_leaf[leaves].sum() if branch else 0)
        count = {"leaves_minus_one": len(leaves) - 1, "leaves": len(leaves),
                 "nodes_minus_one": len(nodes) - 1}[divide]
        size = {"m": m, "one": 1, "m_t": reached[t]}[scale]
        result[t] = sign * saved / size / count
    return result


def g_values(tree, **mistake):
    return _g(pk.Pruning.full(tree), **mistake)


def weakest_link(pruning, ties="all", **mistake):
    g = _g(pruning, **mistake)
    alpha = min(g.values())
    nodes = [t for t, value in g.items() if np.isclose(value, alpha, rtol=1e-9, atol=1e-12)]
    return (nodes[:1] if ties == "first" else nodes), alpha


def choose_alpha(alphas, n_leaves, error, se):
    best = np.flatnonzero(error == error.min())[-1]
    one_se = np.flatnonzero(error <= error[best] + se[best])[-1]
    return alphas[best], alphas[one_se]


def _message(check, func, *args) -> str:
    with pytest.raises(CheckFailed) as info:
        check(func, *args)
    message = str(info.value)
    assert message.startswith("✗ ")
    return message


def test_correct_answers_pass_with_one_line(capsys):
    ch02.check_g_values(g_values)
    ch02.check_weakest_link(weakest_link)
    ch02.check_choose_alpha(choose_alpha)
    out = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in out] == ["✓ g_values", "✓ weakest_link", "✓ choose_alpha"]
    assert all(line.endswith("checks passed.") for line in out)


def test_answers_in_other_forms_pass(capsys):
    # NumPy keys and values, nodes in any order and as an array, alphas as NumPy scalars.
    ch02.check_g_values(lambda tree: {np.int64(t): np.float64(g) for t, g in g_values(tree).items()})
    ch02.check_weakest_link(lambda p: (np.array(weakest_link(p)[0][::-1]), weakest_link(p)[1]))
    ch02.check_choose_alpha(lambda *table: list(choose_alpha(*table)))
    assert capsys.readouterr().out.count("✓") == 3


def test_unimplemented_functions_fail():
    def todo(*args):
        raise NotImplementedError()

    for check in (ch02.check_g_values, ch02.check_weakest_link, ch02.check_choose_alpha):
        assert "is not implemented yet" in _message(check, todo)


# ---------------------------------------------------------------------- Exercise 2.1
@pytest.mark.parametrize("mistake, hint", [
    (dict(divide="leaves"), "not by |T_t~|"),
    (dict(divide="nodes_minus_one"), "not all its nodes"),
    (dict(branch=False), "subtract the risk of the branch"),
    (dict(scale="one"), "divide the error counts by m"),
    (dict(scale="m_t"), "not by m_t"),
    (dict(sign=-1), "the sign is reversed"),
])
def test_g_values_hints(mistake, hint):
    assert hint in _message(ch02.check_g_values, lambda tree: g_values(tree, **mistake))


def test_g_values_keys_and_types():
    with_leaves = lambda tree: {**{int(v): 0.0 for v in np.flatnonzero(tree.is_leaf)}, **g_values(tree)}
    assert "leave them out" in _message(ch02.check_g_values, with_leaves)
    root_only = lambda tree: {0: g_values(tree)[0]}
    assert "for every internal node" in _message(ch02.check_g_values, root_only)
    as_array = lambda tree: np.array(list(g_values(tree).values()))
    assert "should return a dict" in _message(ch02.check_g_values, as_array)
    message = _message(ch02.check_g_values, lambda tree: g_values(tree, branch=False))
    assert "g_values(<a stump whose split fixes no error (g = 0)>)[0] is 0.375 but g(0) = 0." in message
    message = _message(ch02.check_g_values, lambda tree: g_values(tree, divide="leaves"))
    assert "g_values(<the 16-record tree of the notes>)[0] is 0.125 but g(0) = 1/6 = 0.166667" in message


# ---------------------------------------------------------------------- Exercise 2.2
def test_weakest_link_hints():
    assert "return all of them" in _message(ch02.check_weakest_link,
                                            lambda p: weakest_link(p, ties="first"))
    assert "on the current pruning" in _message(ch02.check_weakest_link,
                                                lambda p: weakest_link(p, full_branch=True))
    assert "not by |T_t~|" in _message(ch02.check_weakest_link,
                                       lambda p: (weakest_link(p)[0],
                                                  _g(p, divide="leaves")[weakest_link(p)[0][0]]))
    every_kept = lambda p: (np.flatnonzero(p.kept).tolist(), weakest_link(p)[1])
    assert "only internal nodes of the current pruning" in _message(ch02.check_weakest_link, every_kept)
    assert "a list of nodes" in _message(ch02.check_weakest_link,
                                         lambda p: (weakest_link(p)[0][0], weakest_link(p)[1]))
    assert "a pair (nodes, alpha)" in _message(ch02.check_weakest_link, lambda p: weakest_link(p)[0])


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


# ---------------------------------------------------------------------- Exercise 2.3
@pytest.mark.parametrize("changes, hint", [
    (dict(ties="first"), "smallest of the tied trees"),
    (dict(rule="first"), "not the largest one"),
    (dict(rule="until"), "look at every row"),
    (dict(own_se=True), "each row's own standard error does not enter"),
    (dict(strict=True), "use <=, not <"),
    (dict(width=2.0), "one standard error, not two"),
])
def test_choose_alpha_hints(changes, hint):
    def wrong(alphas, n_leaves, error, se):
        best, one_se = ch02._choices(error, se, **changes)
        return alphas[best], alphas[one_se]

    assert hint in _message(ch02.check_choose_alpha, wrong)


def test_choose_alpha_shape_hints():
    def indices(alphas, n_leaves, error, se):
        best = int(np.flatnonzero(error == error.min())[-1])
        return best, int(np.flatnonzero(error <= error[best] + se[best])[-1])

    assert "not the step indices" in _message(ch02.check_choose_alpha, indices)
    assert "wrong order" in _message(ch02.check_choose_alpha, lambda *t: choose_alpha(*t)[::-1])
    assert "should return a pair" in _message(ch02.check_choose_alpha, lambda *t: choose_alpha(*t)[1])


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
        for t, g in ch02.exact_g(pk.Pruning.full(tree)).items():
            below = tree.subtree(t)
            leaves = below[tree.is_leaf[below]]
            assert float(g) == pytest.approx((risk[t] - risk[leaves].sum()) / (len(leaves) - 1))


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
    seen = ch02.first_tree_claim(n_trees=200, seed=11)
    assert seen["trees"] == 200 and seen["internal_nodes"] > 0 and seen["prunings_of_risk_R_T"] > 0
    ch02.check_first_tree_claim(n_trees=20, seed=1)
    assert capsys.readouterr().out.startswith("✓ on 20 random trees")
