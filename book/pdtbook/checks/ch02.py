"""Checks for the exercises of Chapter 2: cost-complexity pruning.

Each ``check_*`` function takes the student's function, runs it on fixed cases and compares the
answers with exact reference values: the weakest-link ratios g(v) are computed from the
integer class counts with :class:`fractions.Fraction`, so that tied weakest links are exactly
tied, and the choice of alpha is that of :func:`prunekit.cross_validate_alpha`. When an answer
is wrong, the usual mistakes are recomputed on the same case; if one of them reproduces the
student's answer, the hint names it.

Notation of the book (Breiman et al.'s t is v): R(v) = r(v) p(v) is the misclassification
risk of node v as a leaf, a fraction of the whole growing sample; P_v is the branch of the
current pruning P below v, and g(v) = (R(v) - R(P_v)) / (|P_v~| - 1) with |P_v~| its number of
leaves.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Mapping
from fractions import Fraction

import numpy as np

from prunekit.cost_complexity_pruning import choose_steps, cost_complexity_path, cross_validate_alpha
from prunekit.datasets import make_boolean_dnf
from prunekit.tree import leaf_errors
from prunekit.tree import Pruning, Tree, all_prunings
from prunekit.validation import check_random_state

from pdtbook.checks import (
    Checker, close, describe, distinct, fail, float_answer, is_python_int, python_ints,
    random_tree,
)

__all__ = [
    "check_g_values", "check_weakest_link", "check_choose_alpha", "check_first_tree_claim",
    "notes_tree", "branch_table", "exact_g", "exact_weakest_link", "g_variant",
    "g_value_trees", "weakest_link_cases", "choose_alpha_cases", "first_tree_claim",
]


# ---------------------------------------------------------------------- trees and exact g
def notes_tree() -> Tree:
    """The 16-record tree of Breiman's lecture notes: root (8, 8) -> leaf (4, 0) and t2 (4, 8);
    t2 -> leaf (0, 6) and t3 (4, 2); t3 -> leaves (4, 0) and (0, 2)."""
    return Tree.from_arrays([1, -1, 3, -1, 5, -1, -1], [2, -1, 4, -1, 6, -1, -1],
                            [[8, 8], [4, 0], [4, 8], [0, 6], [4, 2], [4, 0], [0, 2]])


def branch_table(pruning: Pruning) -> dict[int, tuple[int, int, int, int, int]]:
    """For every internal node v of ``pruning``: the integers behind g(v).

    Returns ``{v: (errors of v as a leaf, errors of the branch P_v, leaves of P_v, nodes of P_v,
    examples reaching v)}``, where P_v is the part of the pruning below v (Breiman's T_v of the
    current tree).
    """
    tree = pruning.tree
    as_leaf = leaf_errors(tree.counts, tree.labels).astype(np.int64)
    reached = tree.counts.sum(axis=1)
    table = {}
    for t in np.flatnonzero(pruning.kept & ~pruning.is_leaf).tolist():
        below = tree.subtree(t)
        below = below[pruning.kept[below]]
        leaves = below[pruning.is_leaf[below]]
        table[t] = (int(as_leaf[t]), int(as_leaf[leaves].sum()), int(leaves.size),
                    int(below.size), int(reached[t]))
    return table


def exact_g(pruning: Pruning) -> dict[int, Fraction]:
    """g(v) = (R(v) - R(P_v)) / (|P_v~| - 1) for every internal node v of ``pruning``, exactly."""
    m = pruning.tree.n_samples
    return {t: Fraction(e - s, m * (leaves - 1))
            for t, (e, s, leaves, _, _) in branch_table(pruning).items()}


def exact_weakest_link(pruning: Pruning) -> tuple[list[int], Fraction]:
    """The weakest links of ``pruning`` (all internal nodes with the smallest g) and that g."""
    g = exact_g(pruning)
    if not g:
        raise ValueError("the pruning is a single leaf: it has no weakest link.")
    smallest = min(g.values())
    return sorted(t for t, value in g.items() if value == smallest), smallest


def _fraction(value: Fraction) -> str:
    """``1/8 = 0.125``, or ``0`` for a whole number."""
    if value.denominator == 1:
        return str(value)
    return f"{value} = {describe(float(value))}"


# ---------------------------------------------------------------------- Exercise 2.1
def g_value_trees() -> list[tuple[str, Tree]]:
    """The cases of :func:`check_g_values`: (description, tree)."""
    rng = np.random.default_rng(21)
    cases = [
        ("the 16-record tree of the notes", notes_tree()),
        ("a stump whose split fixes no error (g = 0)",
         Tree.from_arrays([1, -1, -1], [2, -1, -1], [[5, 3], [3, 1], [2, 2]])),
        ("a three-class tree with impure leaves",
         Tree.from_arrays([1, 3, -1, -1, -1], [2, 4, -1, -1, -1],
                          [[9, 7, 6], [7, 2, 5], [2, 5, 1], [6, 1, 1], [1, 1, 4]])),
    ]
    for n_leaves in (4, 6, 9):
        cases.append((f"a random two-class tree with {n_leaves} leaves", random_tree(rng, n_leaves)))
    cases.append(("a random three-class tree with 7 leaves", random_tree(rng, 7, n_classes=3)))
    return cases


def _impurity_risk(tree: Tree, kind: str) -> np.ndarray:
    """p(v) times the Gini index or the entropy of v: an impurity in place of r(v)."""
    counts = tree.counts.astype(float)
    reached = counts.sum(axis=1)
    with np.errstate(all="ignore"):
        share = np.where(reached[:, None] > 0, counts / np.maximum(reached, 1)[:, None], 0.0)
        if kind == "gini":
            impurity = 1.0 - (share ** 2).sum(axis=1)
        else:
            impurity = -np.where(share > 0, share * np.log(np.where(share > 0, share, 1)), 0.0).sum(axis=1)
    return impurity * reached / max(tree.n_samples, 1)


def g_variant(pruning: Pruning, mistake: str | None = None) -> dict[int, float]:
    """g(v) over the internal nodes of ``pruning``, as floats, or with one of the usual
    mistakes:

    ``"leaves"`` divides by |P_v~| instead of |P_v~| - 1; ``"nodes"`` by the number of nodes
    minus 1; ``"no branch"`` leaves out R(P_v); ``"counts"`` does not divide the errors by m;
    ``"m_v"`` divides them by m_v; ``"sign"`` computes R(P_v) - R(v); ``"gini"`` and
    ``"entropy"`` use p(v) times an impurity for R(v); ``"full branch"`` takes P_v from the
    grown tree instead of the pruning.
    """
    tree = pruning.tree
    m = tree.n_samples
    as_leaf = leaf_errors(tree.counts, tree.labels).astype(float)
    reached = tree.counts.sum(axis=1)
    if mistake in ("gini", "entropy"):
        risk = _impurity_risk(tree, mistake)
    else:
        risk = as_leaf / ({"counts": 1.0}.get(mistake, m))
    result = {}
    for t in np.flatnonzero(pruning.kept & ~pruning.is_leaf).tolist():
        below = tree.subtree(t)
        if mistake == "full branch":
            nodes, leaves = below, below[tree.is_leaf[below]]
        else:
            nodes = below[pruning.kept[below]]
            leaves = nodes[pruning.is_leaf[nodes]]
        r_t, r_branch = risk[t], risk[leaves].sum()
        if mistake == "m_v":
            r_t, r_branch = as_leaf[t] / reached[t], as_leaf[leaves].sum() / reached[t]
        saved = {"no branch": r_t, "sign": r_branch - r_t}.get(mistake, r_t - r_branch)
        size = {"leaves": len(leaves), "nodes": len(nodes) - 1}.get(mistake, len(leaves) - 1)
        result[t] = float(saved / size)
    return result


_G_HINTS = {
    "gini": "R(v) is the misclassification risk, the errors of v's majority label divided by m; "
            "you used the Gini index (an impurity) instead.",
    "entropy": "R(v) is the misclassification risk, the errors of v's majority label divided by "
               "m; you used the entropy (an impurity) instead.",
    "leaves": "divide by |P_v~| - 1, the number of leaves the collapse removes, not by |P_v~|.",
    "nodes": "|P_v~| counts the leaves of the branch P_v, not all its nodes.",
    "no branch": "the numerator is R(v) - R(P_v): subtract the risk of the branch, the sum of R "
                 "over its leaves.",
    "counts": "R(v) is a fraction of the whole sample: divide the error counts by m, the number "
              "of examples at the root.",
    "m_v": "R(v) = r(v) p(v) is weighted by p(v) = m_v / m, so divide the error counts by m, "
           "not by m_v, the number of examples that reach v.",
    "sign": "the sign is reversed: g(v) = (R(v) - R(P_v)) / (|P_v~| - 1) is never negative "
            "(R(v) counts errors, not correct answers).",
}


def _explaining_g_mistake(answer: dict[int, float], pruning: Pruning) -> str | None:
    """The hint of the mistake whose g values are the student's at every internal node."""
    expected = g_variant(pruning)
    for mistake, hint in _G_HINTS.items():
        wrong = g_variant(pruning, mistake)
        if wrong.keys() == answer.keys() and all(close(answer[t], wrong[t], 1e-6) for t in wrong) \
                and not all(close(wrong[t], expected[t], 1e-9) for t in wrong):
            return hint
    return None


HARD_CODED_HINT = ("your function gives the same dict for this tree as for the notes' tree: "
                   "it does not compute g from the tree it receives. Work from tree.counts, "
                   "tree.is_leaf and tree.subtree(v) of the argument; the values 1/6, 1/8, "
                   "1/8 of the statement are only for checking.")


def _hard_coded(answer: dict, tree: Tree, student: Callable) -> bool:
    """Whether the student's dict for ``tree`` is the one it gives for the notes' tree, a
    different tree with other values (an answer written in rather than computed)."""
    notes = notes_tree()
    if tree == notes:
        return False
    try:
        for_notes = student(notes_tree())
        return (isinstance(for_notes, dict) and answer.keys() == for_notes.keys()
                and all(close(answer[t], float(for_notes[t]), 1e-12) for t in answer)
                and {t: float(g) for t, g in exact_g(Pruning.full(tree)).items()} != answer)
    except Exception:
        return False


def _g_keys_hint(answer: dict, tree: Tree, inner: list[int], student: Callable) -> str:
    leaves = set(answer) - set(inner)
    missing = set(inner) - set(answer)
    if _hard_coded(answer, tree, student):
        return HARD_CODED_HINT
    strangers = sorted(t for t in leaves if not 0 <= t < tree.n_nodes)
    if strangers:
        return (f"this tree has {tree.n_nodes} nodes, 0 to {tree.n_nodes - 1}, so "
                f"{describe(strangers)} are not nodes of it: take the keys from the tree you "
                f"receive, np.flatnonzero(~tree.is_leaf).")
    if leaves and not missing:
        return "leaves have no g (nothing to collapse): leave them out."
    return "give g(v) for every internal node (tree.is_leaf[v] is False), and only for them."


def _g_hint(answer: dict[int, float], tree: Tree, student: Callable | None = None) -> str:
    if student is not None and _hard_coded(answer, tree, student):
        return HARD_CODED_HINT
    hint = _explaining_g_mistake(answer, Pruning.full(tree))
    if hint is not None:
        return hint
    return ("g(v) = (R(v) - R(P_v)) / (|P_v~| - 1), with R(v) the errors of v as a leaf divided by "
            "m and R(P_v) the errors of the leaves below v divided by m.")


def _as_node_mapping(answer, call: str) -> dict[int, float]:
    __tracebackhide__ = True
    if not isinstance(answer, dict):
        fail(f"{call} returned {describe(answer)} (of type {type(answer).__name__}); it should "
             f"return a dict mapping every internal node to its g(v).",
             "build a dict, e.g. {t: g for t, g in ...}, with node indices as keys.")
    result = {}
    for key, value in answer.items():
        if isinstance(key, (bool, np.bool_)) or not isinstance(key, numbers.Integral):
            fail(f"{call} has the key {describe(key)}; the keys should be node indices (ints).",
                 "use the node index t as the key, e.g. int(t).")
        if not is_python_int(key):
            fail(f"{call} has the key {describe(key)} of type numpy.{type(key).__name__}; the "
                 f"keys should be node indices as Python ints.",
                 "np.flatnonzero and indexing give NumPy integers (numpy.int64), a different "
                 "type from Python's int: use int(v) as the key.")
        result[key] = float_answer(value, f"{call}[{key}]", "g(v), a float")
    return result


def check_g_values(g_values: Callable) -> None:
    """Check Exercise 2.1, ``g_values(tree)``: a dict {v: g(v)} over the internal nodes of the
    whole tree, with the misclassification risk R(v) = r(v) p(v)."""
    __tracebackhide__ = True
    check = Checker("g_values", g_values)
    for description, tree in g_value_trees():
        call = f"g_values(<{description}>)"
        answer = _as_node_mapping(check.call(tree, label=call), call)
        full = Pruning.full(tree)
        expected = exact_g(full)
        inner = sorted(expected)
        leaves = sorted(set(answer) - set(inner))
        missing = sorted(set(inner) - set(answer))
        check.expect(
            not leaves and not missing,
            f"{call} has the keys {sorted(answer)}, but the internal nodes are {inner}.",
            lambda: _g_keys_hint(answer, tree, inner, g_values))
        table = branch_table(full)
        for t in inner:
            check.expect(
                close(answer[t], float(expected[t])),
                f"{call}[{t}] is {describe(answer[t])} but g({t}) = {_fraction(expected[t])}. "
                f"Node {t}: {table[t][0]} errors as a leaf, {table[t][1]} errors on the "
                f"{table[t][2]} leaves below it, m = {tree.n_samples}.",
                lambda: _g_hint(answer, tree, g_values))
    check.passed()


# ---------------------------------------------------------------------- Exercise 2.2
def weakest_link_cases() -> list[tuple[str, Pruning]]:
    """The cases of :func:`check_weakest_link`: (description, current pruning)."""
    notes = notes_tree()
    cases = [
        ("the notes' tree, whole (t2 and t3 tie)", Pruning.full(notes)),
        ("the notes' tree with t3 (node 4) collapsed", Pruning.from_collapsed(notes, [4])),
        ("the notes' tree with t2 (node 2) collapsed", Pruning.from_collapsed(notes, [2])),
    ]
    three = Tree.from_arrays([1, 3, 5, -1, -1, -1, -1], [2, 4, 6, -1, -1, -1, -1],
                             [[8, 8], [6, 2], [2, 6], [6, 1], [0, 1], [1, 6], [1, 0]])
    cases.append(("a complete tree in which nodes 1 and 2 tie", Pruning.full(three)))
    cases.append(("a tree whose weakest link is the root",
                  Pruning.full(Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
                                                [[6, 6], [3, 1], [3, 5], [3, 0], [0, 5]]))))
    # g(0) = 3/44 / 3 and g(2) = 2/44 / 2: equal, but not in floating point, whichever of
    # (errors / m) / (leaves - 1) or (R(v) - sum of the leaves' R) / (leaves - 1) computes them
    cases.append(("a tree in which nodes 0 and 2 tie exactly (g = 1/44)",
                  Pruning.full(Tree.from_arrays(
                      [1, -1, 3, -1, 5, -1, -1], [2, -1, 4, -1, 6, -1, -1],
                      [[21, 23], [8, 7], [13, 16], [3, 4], [10, 12], [7, 5], [3, 7]]))))
    # m = 10,000: g(1) = 110/10000 and g(2) = 112/10000 differ only in the fourth decimal, so
    # node 2 is not a weakest link although both round to 0.011
    cases.append(("a tree of m = 10,000 in which g(1) = 0.0110 and g(2) = 0.0112 are close",
                  Pruning.full(Tree.from_arrays(
                      [1, 3, 5, -1, -1, -1, -1], [2, 4, 6, -1, -1, -1, -1],
                      [[5000, 5000], [3000, 2000], [2000, 3000], [2000, 890], [1000, 1110],
                       [1000, 888], [1000, 2112]]))))
    rng = np.random.default_rng(22)
    for n_leaves, n_classes in ((6, 2), (8, 3), (10, 2)):
        tree = random_tree(rng, n_leaves, n_classes)
        path = cost_complexity_path(tree)
        cases.append((f"a random tree with {n_leaves} leaves, whole", Pruning.full(tree)))
        if len(path) > 2:
            cases.append((f"the same tree, pruned to step 1 of its path", path.pruning(1)))
        inner = np.flatnonzero(~tree.is_leaf)
        some = rng.choice(inner[inner > 0], size=min(2, int((inner > 0).sum())), replace=False)
        cases.append((f"the same tree with nodes {sorted(some.tolist())} collapsed",
                      Pruning.from_collapsed(tree, some)))
    return [(d, p) for d, p in cases if p.n_leaves > 1]


def _as_nodes(answer, call: str) -> tuple[list[int], float]:
    __tracebackhide__ = True
    nodes_only = isinstance(answer, list) and all(
        isinstance(t, numbers.Integral) for t in answer)
    if not isinstance(answer, tuple) or len(answer) != 2 or nodes_only:
        fail(f"{call} returned {describe(answer)}; it should return a pair (nodes, alpha).",
             "return nodes, alpha: a list of node indices and a number.")
    nodes, alpha = answer
    if isinstance(nodes, (numbers.Integral, np.integer)):
        fail(f"{call} returned the node {describe(nodes)} alone; nodes should be a list.",
             "return a list of nodes, even when there is only one weakest link: [t].")
    if not isinstance(nodes, list):
        fail(f"{call} returned the nodes as {describe(nodes)} (of type {type(nodes).__name__}); "
             "they should be a list.", "return a list of ints, e.g. [2, 4] (list(...) converts).")
    python_ints(nodes, call, f"the nodes {describe(nodes)}", "they should be node indices.",
                "return a list of ints, e.g. [2, 4].",
                "np.flatnonzero and indexing give NumPy integers (numpy.int64), a different type "
                "from Python's int: put int(v) in the list.")
    distinct(nodes, call, "node")
    return nodes, float_answer(alpha, call, "alpha, a float, as the second item of the pair")


def _weakest_by(pruning: Pruning, mistake: str | None) -> tuple[list[int], float]:
    g = g_variant(pruning, mistake)
    low = min(g.values())
    return sorted(t for t, value in g.items() if close(value, low, 1e-9)), low


_WEAKEST_HINTS = {
    "full branch": "compute R(P_v) and |P_v~| on the current pruning: its leaves below v "
                   "(pruning.is_leaf), not the leaves of the grown tree.",
    **{k: v for k, v in _G_HINTS.items()},
}


EXACT_TIE_HINT = ("you kept only the nodes whose g equals the smallest exactly (==). Nodes that "
                  "tie exactly can differ in the last digit once g is computed in floating "
                  "point, as here: compare with a tolerance, as the statement says, "
                  "np.isclose(g, smallest, rtol=1e-9, atol=1e-12).")


def _float_g(pruning: Pruning, order: str) -> dict[int, float]:
    """g(v) as a student computes it in floating point: ``"counts"`` as (errors of v - errors
    of its leaves) / m / (leaves - 1), ``"risks"`` as (R(v) - sum of the leaves' R(u)) /
    (leaves - 1) with R = errors / m, summed by NumPy or ``"one by one"``."""
    tree = pruning.tree
    m = tree.n_samples
    as_leaf = tree.counts.sum(axis=1) - tree.counts.max(axis=1)
    risk = as_leaf / m
    result = {}
    for t in np.flatnonzero(pruning.kept & ~pruning.is_leaf).tolist():
        below = tree.subtree(t)
        leaves = below[pruning.is_leaf[below]]
        if order == "counts":
            saved = (as_leaf[t] - as_leaf[leaves].sum()) / m
        elif order == "risks":
            saved = risk[t] - risk[leaves].sum()
        else:
            saved = risk[t]
            for u in leaves.tolist():
                saved -= risk[u]
        result[t] = float(saved / (len(leaves) - 1))
    return result


def _exactly_smallest(pruning: Pruning, order: str) -> list[int]:
    g = _float_g(pruning, order)
    low = min(g.values())
    return sorted(t for t, value in g.items() if value == low)


def _compares_exactly(student: Callable) -> bool:
    """Whether the student's nodes are, on every case, those whose floating-point g equals the
    smallest exactly, for one of the usual ways of computing g, and that differs from the
    right answer somewhere."""
    answers = [None if a is None else a[0] for a in _student_weakest(student)]
    for order in ("counts", "risks", "one by one"):
        explains, differs = True, False
        for (_, pruning), answer in zip(weakest_link_cases(), answers):
            wrong = _exactly_smallest(pruning, order)
            if answer is not None and answer != wrong:
                explains = False
                break
            differs = differs or wrong != exact_weakest_link(pruning)[0]
        if explains and differs:
            return True
    return False


def _student_weakest(student: Callable) -> list[tuple[list[int], float] | None]:
    """The student's answers on every case (None where it fails or is not a pair)."""
    answers = []
    for _, pruning in weakest_link_cases():
        try:
            nodes, alpha = student(pruning)
            answers.append((sorted(int(t) for t in nodes), float(alpha)))
        except Exception:
            answers.append(None)
    return answers


def _weakest_everywhere(student: Callable, mistake: str) -> bool:
    """Whether the g mistake ``mistake`` gives the student's nodes and alpha on every case."""
    for (_, pruning), answer in zip(weakest_link_cases(), _student_weakest(student)):
        if answer is None:
            continue
        nodes, alpha = _weakest_by(pruning, mistake)
        if answer[0] != nodes or not close(answer[1], alpha, 1e-6):
            return False
    return True


def _weakest_link_hint(nodes, alpha, pruning, expected, smallest, student: Callable) -> str:
    inner = set(exact_g(pruning))
    if set(nodes) - inner:
        outside = sorted(set(nodes) - inner)
        where = ("leaves of the current pruning" if all(pruning.kept[t] for t in outside)
                 else "cut away already (below a leaf of the pruning)")
        return (f"the nodes {outside} are {where}; only internal nodes of the current pruning "
                f"(pruning.kept[v] and not pruning.is_leaf[v]) are candidates.")
    for mistake, hint in _WEAKEST_HINTS.items():
        wrong_nodes, wrong_alpha = _weakest_by(pruning, mistake)
        if (sorted(nodes) == wrong_nodes and close(alpha, wrong_alpha, 1e-6)
                and not (wrong_nodes == expected and close(wrong_alpha, float(smallest), 1e-9))
                and _weakest_everywhere(student, mistake)):
            return hint
    if set(nodes) > set(expected):
        extra = sorted(set(nodes) - set(expected))
        return (f"the nodes {extra} have a g close to the smallest but larger: they are not "
                f"weakest links. Compare with a tolerance for floating-point rounding only, "
                f"np.isclose(g, smallest, rtol=1e-9, atol=1e-12), not by rounding g to a few "
                f"decimals or with a loose tolerance.")
    if set(nodes) < set(expected) and close(alpha, float(smallest)):
        if _compares_exactly(student):
            return EXACT_TIE_HINT
        return (f"several nodes share the smallest g: return all of them. Compare with a "
                f"tolerance (np.isclose), since rounding can split exact ties.")
    if sorted(nodes) == expected:
        for mistake, hint in _G_HINTS.items():
            if close(alpha, g_variant(pruning, mistake)[expected[0]], 1e-6):
                return "the nodes are right, but the new alpha is not g(v): " + hint
        return "the nodes are right; the new alpha is their common g(v)."
    return "the weakest links are the internal nodes of the current pruning with the smallest g(v)."


def check_weakest_link(weakest_link: Callable) -> None:
    """Check Exercise 2.2, ``weakest_link(pruning)``: the pair (nodes, alpha) of the list of
    internal nodes of the current pruning with the smallest g(v), each once, and that g as a
    float."""
    __tracebackhide__ = True
    check = Checker("weakest_link", weakest_link)
    for description, pruning in weakest_link_cases():
        call = f"weakest_link(<{description}>)"
        nodes, alpha = _as_nodes(check.call(pruning, label=call), call)
        expected, smallest = exact_weakest_link(pruning)
        check.expect(
            sorted(nodes) == expected and close(alpha, float(smallest)),
            f"{call} returned ({describe(sorted(nodes))}, {describe(alpha)}) but the weakest links "
            f"are {expected} with g = {_fraction(smallest)}. "
            f"g of the internal nodes: "
            + ", ".join(f"g({t}) = {g}" for t, g in sorted(exact_g(pruning).items())) + ".",
            lambda: _weakest_link_hint(nodes, alpha, pruning, expected, smallest, weakest_link))
    check.passed()


# ---------------------------------------------------------------------- Exercise 2.3
def choose_alpha_cases() -> list[tuple[str, tuple[np.ndarray, ...]]]:
    """The cases of :func:`check_choose_alpha`: (description, (alphas, n_leaves, error, se))."""
    def table(alphas, leaves, error, se):
        return tuple(np.array(v, dtype=float if i != 1 else int)
                     for i, v in enumerate((alphas, leaves, error, se)))

    cases = [
        ("a table with one clear minimum",
         table([0, .01, .02, .04, .08, .2], [20, 12, 8, 5, 3, 1],
               [.30, .25, .22, .23, .26, .45], [.02, .02, .02, .02, .05, .025])),
        ("two rows tie for the smallest error",
         table([0, .005, .01, .03, .1], [15, 9, 6, 3, 1], [.3, .2, .25, .2, .4],
               [.03, .03, .03, .03, .03])),
        ("a row exactly one standard error above the minimum",
         table([0, .125, .25, .5], [8, 4, 2, 1], [.5, .25, .375, .5], [.125, .125, .125, .125])),
        ("no smaller tree is within one standard error",
         table([0, .02, .05, .1], [7, 4, 2, 1], [.3, .2, .1, .4], [.01, .01, .01, .01])),
        ("the whole tree (alpha = 0) is best",
         table([0, .01, .05], [9, 3, 1], [.1, .2, .4], [.01, .015, .02])),
        ("a row within one standard error after a row that is not",
         table([0, .01, .02, .03, .3], [12, 8, 5, 3, 1], [.3, .2, .35, .21, .5],
               [.02, .02, .02, .02, .02])),
        ("the best row has a larger standard error than the others",
         table([0, .01, .02, .05, .1], [10, 6, 4, 2, 1], [.30, .20, .24, .26, .40],
               [.01, .05, .02, .02, .03])),
        ("two rows tie for the smallest error, with different standard errors",
         table([0, .005, .01, .02, .04, .1], [16, 11, 7, 4, 2, 1], [.3, .2, .25, .2, .24, .4],
               [.03, .06, .03, .02, .03, .03])),
    ]
    X, y = make_boolean_dnf(400, n_features=10, noise=0.15, random_state=2)
    selection = cross_validate_alpha(X, y, cv=5, random_state=0)
    cases.append(("the 5-fold CV table of a boolean sample (cross_validate_alpha)",
                  (selection.path.alphas.copy(), selection.path.n_leaves.copy(),
                   selection.error.copy(), selection.standard_error.copy())))
    return cases


def _choices(error, se, *, ties="last", rule="last", own_se=False, strict=False, width=1.0,
             se_row="best"):
    best = (int(np.flatnonzero(error == error.min())[-1]) if ties == "last"
            else int(np.argmin(error)))
    # the standard error of the threshold: of the 0-SE row, the smallest of the table, or of
    # the first of the rows tied for the smallest error
    step = {"best": se[best], "smallest": se.min(), "first tie": se[int(np.argmin(error))]}[se_row]
    if own_se:
        within = error - width * se <= error[best]
    elif strict:
        within = error < error[best] + width * step
    else:
        within = error <= error[best] + width * step
    index = np.flatnonzero(within)
    if rule == "first":
        one_se = int(index[0])
    elif rule == "until":
        one_se = best
        while one_se + 1 < len(error) and within[one_se + 1]:
            one_se += 1
    else:
        one_se = int(index[-1])
    return best, one_se


_CHOICE_MISTAKES = [
    (dict(ties="first"), "on ties for the smallest error, the 0-SE choice is the smallest of the "
                         "tied trees: the largest alpha."),
    (dict(rule="first"), "the 1-SE rule takes the smallest tree (the largest alpha) whose error "
                         "is within one standard error of the minimum, not the largest one."),
    (dict(rule="until"), "look at every row: a smaller tree can be within one standard error "
                         "even after a row that is not."),
    (dict(own_se=True), "the threshold is the smallest error plus the standard error of the "
                        "best row: error[k] <= error[best] + se[best]; each row's own "
                        "standard error does not enter."),
    (dict(strict=True), "'within one standard error' includes the boundary: use <=, not <."),
    (dict(width=2.0), "one standard error, not two."),
    (dict(se_row="smallest"), "the threshold uses the standard error of the 0-SE row, "
                              "error[best] + se[best], not the smallest standard error of the "
                              "table."),
    (dict(se_row="first tie"), "the threshold uses the standard error of the 0-SE row, and on "
                               "ties that row is the last of the tied rows (the smallest tree): "
                               "error[best] + se[best] with that same best, not the standard "
                               "error of the first tied row."),
]


def _answers_match(student: Callable, changes: dict) -> bool:
    """Whether the student's function gives the answers of a mistake on every case."""
    for _, (alphas, leaves, error, se) in choose_alpha_cases():
        b, o = _choices(error, se, **changes)
        try:
            answer = student(alphas.copy(), leaves.copy(), error.copy(), se.copy())
            if not (close(float(answer[0]), alphas[b]) and close(float(answer[1]), alphas[o])):
                return False
        except Exception:
            return False
    return True


def _choose_hint(answer, alphas, error, se, student: Callable) -> str:
    best, one_se = choose_steps(error, se)
    if close(answer[0], alphas[one_se]) and close(answer[1], alphas[best]) and best != one_se:
        return "the pair is in the wrong order: (alpha of the 0-SE choice, alpha of the 1-SE choice)."
    matching = []
    for changes, hint in _CHOICE_MISTAKES:
        b, o = _choices(error, se, **changes)
        if (b, o) != (best, one_se) and close(answer[0], alphas[b]) and close(answer[1], alphas[o]):
            matching.append((changes, hint))
    # Several mistakes can give the same answer on one table: prefer the one that explains
    # the answers on every table.
    for changes, hint in matching:
        if _answers_match(student, changes):
            return hint
    return ("0-SE: the row of smallest error (the last one on ties); 1-SE: the last row with "
            "error <= smallest error + the standard error of the 0-SE row.")


def check_choose_alpha(choose_alpha: Callable) -> None:
    """Check Exercise 2.3, ``choose_alpha(alphas, n_leaves, error, se)``: the pair of floats
    (alpha_0se, alpha_1se), against the choice of :func:`prunekit.cross_validate_alpha`.

    The table's ``n_leaves`` may be used or not: the rows are sorted by alpha, so the
    largest alpha is the smallest tree."""
    __tracebackhide__ = True
    check = Checker("choose_alpha", choose_alpha)
    for description, (alphas, leaves, error, se) in choose_alpha_cases():
        call = f"choose_alpha(<{description}>)"
        answer = check.call(alphas, leaves, error, se, label=call)
        if not isinstance(answer, tuple) or len(answer) != 2:
            fail(f"{call} returned {describe(answer)}; it should return a pair "
                 f"(alpha_0se, alpha_1se).", "return two numbers: return alpha_best, alpha_one_se.")
        best, one_se = choose_steps(error, se)
        if all(isinstance(a, (numbers.Integral, np.integer)) and not isinstance(a, (bool, np.bool_))
               for a in answer):
            fail(f"{call} returned {describe(answer)}, two integers; the choices are alpha = "
                 f"{describe(alphas[best])} (0-SE) and {describe(alphas[one_se])} (1-SE).",
                 "return the alphas (alphas[k]), not the step indices k.")
        values = [float_answer(a, call, "a pair of floats, the two alphas")
                  for a in answer]
        check.expect(
            close(values[0], alphas[best]) and close(values[1], alphas[one_se]),
            f"{call} returned {describe(tuple(answer))} but the choices are alpha = "
            f"{describe(alphas[best])} (0-SE, step {best}) and {describe(alphas[one_se])} "
            f"(1-SE, step {one_se}); errors {describe(error)}, standard errors {describe(se)}.",
            lambda: _choose_hint(tuple(values), alphas, error, se, choose_alpha))
    check.passed()


# ---------------------------------------------------------------------- Exercise 2.4
def first_tree_claim(n_trees: int = 300, random_state=0,
                     max_leaves: int = 9) -> dict[str, int]:
    """Test the claims of Exercise 2.4 on random trees; raise AssertionError if one fails.

    (a) R(T_v) <= R(v) at every internal node v, so g(v) >= 0; (b) collapsing every internal
    node with R(v) = R(T_v) gives T1, the first tree of the path, and T1 is contained in every
    pruning whose risk is R(T) (checked by enumerating all prunings).

    Parameters
    ----------
    n_trees : int, default 300
    random_state : None, int, numpy.random.RandomState or numpy.random.Generator, default 0
        Draws the random trees (:func:`prunekit.validation.check_random_state`).
    max_leaves : int, default 9

    Returns
    -------
    dict
        The numbers of trees, internal nodes and prunings of risk R(T) examined.
    """
    rng = check_random_state(random_state)
    seen = dict(trees=0, internal_nodes=0, prunings_of_risk_R_T=0)
    for _ in range(n_trees):
        tree = random_tree(rng, int(rng.integers(1, max_leaves + 1)), int(rng.integers(2, 4)))
        table = branch_table(Pruning.full(tree))
        for t, (e, s, *_rest) in table.items():
            assert s <= e, f"R(T_v) > R(v) at node {t}"
        equal = [t for t, (e, s, *_rest) in table.items() if s == e]
        first = Pruning.from_collapsed(tree, equal)
        assert first == cost_complexity_path(tree).pruning(0), "T1 is not the first tree"
        full_errors = Pruning.full(tree).errors()
        for pruning in all_prunings(tree):
            if pruning.errors() == full_errors:
                assert np.all(pruning.kept >= first.kept), "T1 is not contained in a pruning"
                seen["prunings_of_risk_R_T"] += 1
        seen["trees"] += 1
        seen["internal_nodes"] += len(table)
    return seen


def check_first_tree_claim(n_trees: int = 300, random_state=0) -> None:
    """Print the outcome of :func:`first_tree_claim` in one line."""
    seen = first_tree_claim(n_trees, random_state)
    print(f"✓ on {seen['trees']} random trees: R(T_v) <= R(v) at all {seen['internal_nodes']} "
          f"internal nodes; collapsing the nodes with R(v) = R(T_v) gives T1, contained in all "
          f"{seen['prunings_of_risk_R_T']} prunings of risk R(T).")
