"""Checks for the exercises of Chapter 4: Kearns & Mansour's bottom-up pruning.

Each ``check_*`` function takes the student's function, runs it on fixed cases and compares the
answers with the library: :func:`prunekit.kearns_mansour.penalty`,
:func:`prunekit.kearns_mansour`, :func:`prunekit.kearns_mansour_global` and
:func:`prunekit.reduced_error`. When an answer is wrong, the usual mistakes are recomputed on the
same case; if one of them reproduces the student's answer, the hint names it.

Equation numbers refer to Kearns & Mansour (1998).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from prunekit.checks import Checker, as_number, close, describe, fail
from prunekit.datasets import cube, dnf_labels, dnf_true_error, make_boolean_dnf
from prunekit.growing import id3
from prunekit.kearns_mansour import kearns_mansour, kearns_mansour_global, penalty
from prunekit.reduced_error import leaf_errors, reduced_error
from prunekit.tree import Pruning, Tree, postorder

__all__ = [
    "check_km_penalty", "check_km_decisions", "check_differing_tree", "check_excess_error",
    "km_penalty_cases", "excess_error_cases", "KMStep", "km_steps",
    "EXCESS_FEATURES", "EXCESS_TERMS", "EXCESS_NOISE",
]


# ---------------------------------------------------------------------- Exercise 4.1
def km_penalty_cases() -> list[tuple[str, tuple]]:
    """The cases of :func:`check_km_penalty`: (description, (m_v, s_v, l_v, delta, m, d, c))."""
    return [
        ("a node of depth 2 with a 5-node subtree", (50, 5, 2, 0.05, 1000, 16, 1.0)),
        ("a stump below the root", (400, 3, 1, 0.05, 2000, 16, 1.0)),
        ("another delta, d and c", (200, 7, 3, 0.01, 2000, 10, 0.5)),
        ("the root as a single leaf, all m examples", (2000, 1, 0, 0.05, 2000, 16, 1.0)),
        ("few examples and a large subtree (the value is capped at 1)", (10, 15, 4, 0.05, 1000, 16, 1.0)),
        ("a node that no example reaches (m_v = 0), c > 0", (0, 3, 2, 0.05, 500, 16, 1.0)),
        ("c = 0", (300, 9, 2, 0.1, 300, 4, 0.0)),
        ("a node that no example reaches (m_v = 0), c = 0", (0, 1, 1, 0.05, 100, 8, 0.0)),
        ("a large sample", (1_000_000, 31, 5, 0.001, 1_000_000, 100, 2.0)),
    ]


def _expected_penalty(m_v, s_v, l_v, delta, m, d, c) -> float:
    return float(penalty(m_v, s_v, l_v, delta, m, c=c, n_features=d))


def _penalty_formula(m_v, s_v, l_v, delta, m, d, c, *, log=math.log, confidence=None,
                     denominator=None, complexity=None, root=math.sqrt, constant=None,
                     cap=True) -> float:
    """Penalty (3) or one of its usual wrong variants (None where the variant is undefined)."""
    confidence = confidence or (lambda m, delta: log(m / delta))
    complexity = complexity or (lambda l, s, d: (l + s) * log(d))
    denominator = denominator or (lambda m_v, m: m_v)
    constant = constant or (lambda c, value: c * root(value))
    under = denominator(m_v, m)
    if under <= 0:
        return None
    value = constant(c, (complexity(l_v, s_v, d) + confidence(m, delta)) / under)
    return min(1.0, value) if cap else value


_PENALTY_MISTAKES = [
    (dict(log=math.log2), "use the natural logarithm (np.log) for both logarithms, not log2."),
    (dict(log=math.log10), "use the natural logarithm (np.log) for both logarithms, not log10."),
    (dict(confidence=lambda m, delta: math.log(1 / delta)),
     "the confidence term of penalty (3) is log(m / delta), with the sample size m inside: "
     "it pays for applying the lemma at every pair (l_v, s_v)."),
    (dict(confidence=lambda m, delta: math.log(m) / delta),
     "the confidence term is log(m / delta), the logarithm of the quotient."),
    (dict(denominator=lambda m_v, m: m),
     "divide by m_v, the number of examples that reach the node, not by the whole sample size m: "
     "this is what makes the penalty local."),
    (dict(complexity=lambda l, s, d: l + s * math.log(d)),
     "mind the brackets: (l_v + s_v) log d, both the depth and the size are multiplied by log d."),
    (dict(complexity=lambda l, s, d: s * math.log(d)),
     "the complexity term counts the path as well as the subtree: (l_v + s_v) log d."),
    (dict(complexity=lambda l, s, d: l * math.log(d)),
     "the complexity term counts the subtree as well as the path: (l_v + s_v) log d."),
    (dict(complexity=lambda l, s, d: (l + s) * d),
     "the complexity term is (l_v + s_v) log d, with the logarithm of the number of features d."),
    (dict(root=lambda x: x), "the penalty is a square root: c sqrt(((l_v + s_v) log d + log(m/delta)) / m_v)."),
    (dict(constant=lambda c, x: math.sqrt(c * x)),
     "the constant c multiplies the square root; it is not inside it."),
    (dict(constant=lambda c, x: c * c * math.sqrt(x)), "the constant c appears once, not squared."),
    (dict(cap=False), "cap the penalty at 1: return min(1, ...)."),
]


def _penalty_hint(value: float, args: tuple) -> str:
    m_v = args[0]
    if m_v == 0:
        return ("no example reaches this node, so the formula divides by m_v = 0. Handle m_v = 0 "
                "before dividing: the penalty is then 1 (the cap) when c > 0, and 0 when c = 0.")
    for changes, hint in _PENALTY_MISTAKES:
        wrong = _penalty_formula(*args, **changes)
        if wrong is not None and close(value, wrong, 1e-6) and not close(wrong, _expected_penalty(*args), 1e-6):
            return hint
    return ("penalty (3) is min(1, c * sqrt(((l_v + s_v) * log(d) + log(m / delta)) / m_v)) with the "
            "natural logarithm np.log.")


def check_km_penalty(km_penalty: Callable) -> None:
    """Check Exercise 4.1, ``km_penalty(m_v, s_v, l_v, delta, m, d, c)``: penalty (3), capped at
    1, against :func:`prunekit.kearns_mansour.penalty` with ``form="boolean"``."""
    __tracebackhide__ = True
    check = Checker("km_penalty", km_penalty)
    for description, args in km_penalty_cases():
        call = f"km_penalty{describe(args)}"
        value = as_number(check.call(*args, label=call), call, "the penalty, a number")
        expected = _expected_penalty(*args)
        check.expect(
            close(value, expected),
            f"{call} returned {describe(value)} but the penalty is {describe(expected)} ({description}).",
            lambda: _penalty_hint(value, args))
    check.passed()


# ---------------------------------------------------------------------- Exercise 4.2
@dataclass(frozen=True)
class KMStep:
    """One decision of the bottom-up pass at an internal node ``node``.

    ``subtree`` lists the nodes of T_v* (the subtree left below the node when the pass reaches
    it), ``s_v`` their number, ``errors`` the errors of T_v* on the examples reaching the node,
    ``leaf_errors`` those of the best leaf (m_v r(v)), ``alpha`` the penalty and ``prune``
    the outcome of rule (1).
    """

    node: int
    m_v: int
    depth: int
    subtree: tuple[int, ...]
    s_v: int
    errors: int
    leaf_errors: int
    alpha: float
    prune: bool


def km_steps(tree: Tree, delta: float = 0.05, c: float = 1.0, n_features: int | None = None,
             whole_subtree: bool = False) -> list[KMStep]:
    """The decisions of Kearns & Mansour's pass, node by node, in postorder (left subtree first).

    Uses the tree's growing counts and penalty (3). With ``whole_subtree=True`` every node is
    judged with the grown subtree T_v instead of T_v* (a common mistake, used for hints).
    """
    n = n_features or tree.n_features or 1
    m = tree.n_samples
    as_leaf = leaf_errors(tree.counts, tree.labels)
    reached = tree.counts.sum(axis=1)
    errors = as_leaf.astype(np.int64).copy()
    members: dict[int, tuple[int, ...]] = {}
    steps = []
    for v in postorder(tree):
        if tree.is_leaf[v]:
            members[v] = (v,)
            continue
        left, right = int(tree.left[v]), int(tree.right[v])
        if whole_subtree:
            nodes = tuple(sorted(tree.subtree(v).tolist()))
            below = int(as_leaf[[u for u in nodes if tree.is_leaf[u]]].sum())
        else:
            nodes = tuple(sorted((v,) + members[left] + members[right]))
            below = int(errors[left] + errors[right])
        alpha = float(penalty(reached[v], len(nodes), tree.depth[v], delta, m, c=c, n_features=n))
        prune = bool(below + alpha * reached[v] >= as_leaf[v])
        steps.append(KMStep(v, int(reached[v]), int(tree.depth[v]), nodes, len(nodes), below,
                            int(as_leaf[v]), alpha, prune))
        members[v] = (v,) if prune else nodes
        errors[v] = as_leaf[v] if prune else below
    return steps


def _step_text(step: KMStep, m: int, delta: float, c: float, n: int) -> str:
    rule = step.errors + step.alpha * step.m_v
    verdict = "prune" if step.prune else "keep"
    relation = ">=" if step.prune else "<"
    return (
        f"  node {step.node}: m_v = {step.m_v}, depth l_v = {step.depth}; "
        f"T_v* has the nodes {list(step.subtree)} (s_v = {step.s_v})\n"
        f"  errors of T_v* on S_v: {step.errors};  errors of the best leaf (m_v r(v)): {step.leaf_errors}\n"
        f"  alpha = {c:g} sqrt((({step.depth} + {step.s_v}) log {n} + log({m}/{delta:g})) / {step.m_v})"
        f" = {step.alpha:.4f},  alpha m_v = {step.alpha * step.m_v:.2f}\n"
        f"  rule (1) in counts: {step.errors} + {step.alpha * step.m_v:.2f} = {rule:.2f} {relation} "
        f"{step.leaf_errors}  ->  {verdict}")


def check_km_decisions(km_decision: Callable, tree: Tree, delta: float = 0.05, c: float = 1.0,
                       n_features: int | None = None) -> None:
    """Check Exercise 4.2: ``km_decision(node)`` returns ``"prune"`` or ``"keep"``, the outcome of
    rule (1) at every internal node of ``tree``, asked in the order of the bottom-up pass.

    The expected decisions come from :func:`km_steps`, which replays the pass with penalty (3);
    they are checked against :func:`prunekit.kearns_mansour` before the student is asked. A wrong
    answer gets every number of rule (1) at that node.
    """
    __tracebackhide__ = True
    check = Checker("km_decision", km_decision)
    n = n_features or tree.n_features or 1
    steps = km_steps(tree, delta, c, n)
    collapsed = tree.is_leaf.copy()
    for step in steps:
        collapsed[step.node] = step.prune
    if Pruning.from_collapsed(tree, collapsed) != kearns_mansour(tree, delta, c, n_features=n):
        raise RuntimeError("the replay of the pass disagrees with prunekit.kearns_mansour.")
    whole = {s.node: s.prune for s in km_steps(tree, delta, c, n, whole_subtree=True)}
    for step in steps:
        call = f"km_decision({step.node})"
        answer = check.call(step.node, label=call)
        normalized = answer.strip().lower() if isinstance(answer, str) else None
        if normalized not in ("prune", "keep"):
            fail(f"{call} returned {describe(answer)}; it should return 'prune' or 'keep'.",
                 'return the decision as a string, e.g.  return "keep"')
        expected = "prune" if step.prune else "keep"
        if normalized != expected:
            what = (f"{call} returned {answer!r} but rule (1) says {expected!r} at node {step.node}.\n"
                    + _step_text(step, tree.n_samples, delta, c, n))
            fail(what, _decision_hint(step, normalized, whole))
        check.expect(True)
    check.passed()


def _decision_hint(step: KMStep, answer: str, whole: dict) -> str:
    if whole[step.node] == (answer == "prune"):
        return ("you seem to have judged the grown subtree T_v. The pass judges T_v*, what is left "
                "below the node after the nodes below it have made their decisions: a collapsed "
                "child counts as one leaf, with its errors as a leaf, and s_v counts only the nodes "
                "that are left.")
    return ("rule (1) prunes when errors(T_v*) + alpha m_v >= errors of the best leaf, all counted "
            "on the examples reaching the node; alpha uses the depth of the node in the grown tree "
            "and s_v = |T_v*|.")


# ---------------------------------------------------------------------- Exercise 4.3
def _beta(s: int, m: int, delta: float, c: float, n: int) -> float:
    return float(penalty(m, s, 0, delta, m, c=c, n_features=n, cap=False))


def check_differing_tree(differing_tree: Callable, delta: float = 0.05, c: float = 1.0,
                         n_features: int = 16) -> None:
    """Check Exercise 4.3: ``differing_tree()`` returns a :class:`prunekit.Tree` on which
    :func:`prunekit.kearns_mansour` and :func:`prunekit.kearns_mansour_global` (both with
    ``delta``, ``c`` and ``n_features``) return different prunings."""
    __tracebackhide__ = True
    check = Checker("differing_tree", differing_tree)
    tree = check.call(label="differing_tree()")
    if not isinstance(tree, Tree):
        fail(f"differing_tree() returned {describe(tree)}; it should return a prunekit Tree.",
             "build one with pk.Tree.from_arrays(left, right, counts); counts alone are enough.")
    local = kearns_mansour(tree, delta, c, n_features=n_features)
    global_ = kearns_mansour_global(tree, delta, c, n_features=n_features)
    m = tree.n_samples
    if local == global_:
        b3, b1 = _beta(3, m, delta, c, n_features), _beta(1, m, delta, c, n_features)
        fail(f"both rules return the same pruning of your tree ({local.n_nodes} of "
             f"{tree.n_nodes} nodes, leaves {local.leaves.tolist()}).",
             f"consider a stump with the m = {m} examples of your tree. At the root the local rule "
             f"prunes when the split saves at most m alpha(m, 3, 0, delta) = {m * b3:.1f} errors, "
             f"the global rule only when it saves at most m (beta(3) - beta(1)) = "
             f"{m * (b3 - b1):.1f} errors. Choose the leaf counts so that the split saves a number "
             f"of errors in between.")
    check.expect(True)
    check.passed()


# ---------------------------------------------------------------------- Exercise 4.4
EXCESS_FEATURES = 12
EXCESS_TERMS = ((0, 1), (2, 3, 4))
EXCESS_NOISE = 0.1


def excess_error_cases() -> list[tuple[int, int, float, float]]:
    """The cases of :func:`check_excess_error`: (m, seed, c, delta)."""
    return [(300, 0, 1.0, 0.05), (1000, 1, 0.5, 0.05), (2000, 2, 0.25, 0.05), (500, 3, 0.0, 0.05),
            (3000, 4, 0.1, 0.5)]


def _excess_variants(m: int, seed: int, c: float, delta: float) -> dict[str, float]:
    d, terms, noise = EXCESS_FEATURES, EXCESS_TERMS, EXCESS_NOISE
    X, y = make_boolean_dnf(m, n_features=d, terms=terms, noise=noise, random_state=seed)
    tree = id3(X, y)
    points = cube(d)
    clean = dnf_labels(points, terms)

    def true(model):
        return dnf_true_error(model.predict, d, terms, noise)

    km = kearns_mansour(tree, delta, c)
    best = reduced_error(tree, points, clean)
    variants = {
        "right": true(km) - true(best),
        "no subtraction": true(km),
        "reversed": true(best) - true(km),
        "rep on S": true(km) - true(reduced_error(tree, X, y)),
        "relabelled": true(km) - true(reduced_error(tree, points, clean, labels="pruning")),
        "training": km.error(X, y) - best.error(X, y),
        "disagreement": float(np.mean(km.predict(points) != clean) - np.mean(best.predict(points) != clean)),
    }
    if 0 < c < 1:
        variants["swapped"] = true(kearns_mansour(tree, c)) - true(best)
    return variants


_EXCESS_HINTS = {
    "no subtraction": "you returned L_D(P_KM) itself; subtract eps_opt, the true error of the best "
                      "pruning.",
    "reversed": "the sign is reversed: return L_D(P_KM) - eps_opt, which is never negative.",
    "rep on S": "the best pruning is found with reduced-error pruning on the whole cube labelled by "
                "the formula (cube(12), dnf_labels(cube(12), terms)), not on the training sample.",
    "relabelled": "keep the leaves' growing labels in the best pruning (the default "
                  "labels='growing' of pk.reduced_error), as the pass of Kearns and Mansour does.",
    "training": "the exercise asks for true errors, computed exactly with dnf_true_error, not for "
                "errors on the training sample.",
    "disagreement": "the true error is noise + (1 - 2 noise) times the disagreement with the "
                    "formula: use dnf_true_error(model.predict, 12, terms, 0.1).",
    "swapped": "pk.kearns_mansour(tree, delta, c) takes delta first and the constant c second.",
}


def check_excess_error(excess_error: Callable) -> None:
    """Check Exercise 4.4: ``excess_error(m, seed, c, delta)`` is the exact excess error
    L_D(P_KM) - eps_opt on the Boolean cube {0,1}^12 (formula (x0 and x1) or (x2 and x3 and x4),
    noise 0.1), with P_opt found by reduced-error pruning on the whole cube."""
    __tracebackhide__ = True
    check = Checker("excess_error", excess_error)
    for m, seed, c, delta in excess_error_cases():
        call = f"excess_error(m={m}, seed={seed}, c={c:g}, delta={delta:g})"
        value = as_number(check.call(m, seed, c, delta, label=call, seconds=60), call,
                          "the excess error, a number")
        variants = _excess_variants(m, seed, c, delta)
        expected = variants["right"]
        check.expect(close(value, expected, 1e-9),
                     f"{call} returned {describe(value)} but the excess error is {describe(expected)}.",
                     lambda: _excess_hint(value, variants))
    check.passed()


def _excess_hint(value: float, variants: dict[str, float]) -> str:
    for name, hint in _EXCESS_HINTS.items():
        wrong = variants.get(name)
        if wrong is not None and close(value, wrong, 1e-9) and not close(wrong, variants["right"], 1e-9):
            return hint
    return ("draw the sample with make_boolean_dnf(m, n_features=12, terms=((0, 1), (2, 3, 4)), "
            "noise=0.1, random_state=seed), grow pk.id3(X, y), prune with pk.kearns_mansour(tree, "
            "delta, c), find the best pruning with pk.reduced_error(tree, cube(12), "
            "dnf_labels(cube(12), terms)), and subtract the two exact true errors.")
