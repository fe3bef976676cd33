"""Checks for the exercises of Chapter 8: the classic pruning heuristics.

Each ``check_*`` function takes the student's function, runs it on fixed cases and compares the
answers with the library: :func:`prunekit.heuristics.upper_confidence_limit` (C4.5's upper
confidence limit U_CF(e, N) as Weka's J48 computes it, Quinlan 1993, Ch. 4),
:func:`prunekit.heuristics.pessimistic_errors` (Quinlan's 1987 pessimistic pruning) and
:func:`prunekit.heuristics.m_estimate_error` (Cestnik & Bratko's 1991 m-estimate). When an
answer is wrong, the usual mistakes are recomputed on the same case; if one of them reproduces
the student's answer, the hint names it.

The two exercises worked by hand (U_CF for one leaf, one PEP decision) never show the worked
answer on a first wrong attempt: the first failure names what is wrong and gives a hint, and
only a repeated failure on the same question prints the computation.
"""

from __future__ import annotations

import copy
import math
from collections import Counter
from collections.abc import Callable

import numpy as np
from scipy.stats import beta, norm

from prunekit.checks import Checker, as_number, close, describe, fail
from prunekit.datasets import cube, dnf_labels, make_boolean_dnf
from prunekit.growing import id3
from prunekit.heuristics import m_estimate_error, pessimistic_errors, upper_confidence_limit
from prunekit.reduced_error import leaf_errors
from prunekit.tree import Tree

__all__ = [
    "check_ucf_by_hand", "check_upper_limit", "check_pep_test", "check_m_error",
    "check_coverage", "upper_limit_cases", "m_error_cases", "coverage_cases", "pep_tree",
    "leaf_true_error_rates", "reset_attempts",
    "BY_HAND", "PEP_NODES", "COVERAGE_FEATURES", "COVERAGE_TERMS", "COVERAGE_NOISE",
]

# How many times each hand-worked question has been answered wrongly in this session.
_ATTEMPTS: Counter = Counter()


def reset_attempts() -> None:
    """Forget the wrong attempts counted so far (the worked answers are hidden again)."""
    _ATTEMPTS.clear()


def _wrong_again(key) -> bool:
    """Count one wrong attempt at ``key``; True from the second one on."""
    _ATTEMPTS[key] += 1
    return _ATTEMPTS[key] > 1


def _call_unmutated(check: Checker, args: tuple, label: str, names: tuple[str, ...]):
    """Call the student's function on ``args`` themselves and fail if it changed one of them.

    :meth:`Checker.call` works on copies, which hides a function that modifies its input; here
    the function receives the objects the check keeps, and they are compared afterwards.
    """
    __tracebackhide__ = True
    kept = copy.deepcopy(args)
    student = check.func
    check.func = lambda *ignored: student(*args)
    try:
        answer = check.call(*args, label=label)
    finally:
        check.func = student
    for name, before, after in zip(names, kept, args):
        if isinstance(before, np.ndarray) and not np.array_equal(before, after):
            fail(f"{label} changed its argument {name}: it was {describe(before)} and is "
                 f"{describe(after)} after the call.",
                 f"do not modify {name} in place; compute with new arrays (or "
                 f"{name}.copy()).")
    return answer


def _matching_hint(value: float, mistakes, expected: float, tol: float) -> str | None:
    """The hint of the first mistake whose value ``value`` reproduces (and that differs from
    the right answer ``expected``); ``mistakes`` yields ``(wrong value, hint)`` pairs."""
    for wrong, hint in mistakes:
        if wrong is not None and close(value, wrong, tol) and not close(wrong, expected, tol):
            return hint
    return None


# ---------------------------------------------------------------------- Exercise 8.1
BY_HAND = (2, 10, 0.25)      # U_CF(e, N) of Exercise 8.1 (a): e = 2 errors of N = 10, CF = 25%


def _wilson(e: float, n: float, z: float, correction: float = 0.5) -> float:
    f = (e + correction) / n
    return ((f + z * z / (2 * n) + z * math.sqrt(max(f / n - f * f / n + z * z / (4 * n * n), 0)))
            / (1 + z * z / n))


def _limit_formula(e: int, n: int, cf: float, *, z=None, correction: float = 0.5,
                   zero_case: bool = True, top_case: bool = True, count: bool = False) -> float:
    """U_CF(e, N) by the cases of C4.5 in double precision, or one of its usual wrong variants."""
    z = norm.ppf(1 - cf) if z is None else z
    if zero_case and e == 0:
        value = 1 - cf ** (1 / n)
    elif top_case and e + 0.5 >= n:
        value = 1.0
    else:
        value = _wilson(e, n, z, correction)
    return value * n if count else value


def _limit_mistakes(e: int, n: int, cf: float) -> list[tuple[float, str]]:
    mistakes = [
        (_limit_formula(e, n, cf, z=norm.ppf(cf)),
         "z is the upper quantile of the normal distribution, z = Phi^(-1)(1 - CF), a positive "
         "number (0.6745 for CF = 0.25); you used Phi^(-1)(CF)."),
        (_limit_formula(e, n, cf, z=norm.ppf(1 - cf / 2)),
         "the limit is one-sided: z = Phi^(-1)(1 - CF), not the two-sided Phi^(-1)(1 - CF/2)."),
        (_limit_formula(e, n, cf, correction=0.0),
         "C4.5 applies a continuity correction: f = (e + 1/2) / N, not e / N."),
        (_limit_formula(e, n, cf, count=True),
         "return the limit as a rate, U_CF(e, N); N U_CF(e, N) is the number of estimated "
         "errors."),
        (float(beta.ppf(1 - cf, e + 1, n - e)) if e < n else 1.0,
         "that is the exact (Clopper-Pearson) binomial limit; C4.5 uses it only for e = 0 and "
         "the normal approximation (Wilson's interval with the continuity correction) "
         "otherwise."),
        (e / n, "that is the training error rate e / N; the upper limit is larger."),
        ((e + 0.5) / n, "that is only the corrected rate f = (e + 1/2) / N; the upper limit "
                        "adds z times a standard error and divides by 1 + z^2 / N."),
        (_limit_formula(e, n, cf, zero_case=False),
         "for e = 0 C4.5 uses the exact limit 1 - CF^(1/N), not the normal approximation."),
        (_limit_formula(e, n, cf, top_case=False),
         "when e + 1/2 >= N the corrected rate is at least 1, and C4.5 sets U_CF(e, N) = 1."),
    ]
    if e == 0:
        mistakes.append((1 - (1 - cf) ** (1 / n),
                         "for e = 0 the limit solves (1 - U)^N = CF: U = 1 - CF^(1/N)."))
    return mistakes


def _limit_hint(value: float, e: int, n: int, cf: float, expected: float) -> str | None:
    return _matching_hint(value, _limit_mistakes(e, n, cf), expected, 2e-4)


def check_ucf_by_hand(ucf_by_hand: Callable) -> None:
    """Check Exercise 8.1 (a): ``ucf_by_hand()`` returns U_0.25(2, 10), worked out by hand.

    A value read with a four-digit normal table is accepted (absolute tolerance 5e-4). The
    worked computation is printed only after a second wrong answer.
    """
    __tracebackhide__ = True
    e, n, cf = BY_HAND
    check = Checker("ucf_by_hand", ucf_by_hand)
    value = as_number(check.call(label="ucf_by_hand()"), "ucf_by_hand()",
                      "the upper limit, a number")
    expected = float(upper_confidence_limit(e, n, cf))
    if abs(value - expected) > 5e-4:
        hint = _limit_hint(value, e, n, cf, expected) or (
            "case 4 of the definition applies (e = 2 is neither 0 nor close to N = 10): "
            "compute z and f = (e + 1/2) / N first, then the formula.")
        what = f"ucf_by_hand() returned {describe(value)}, which is not U_0.25(2, 10)."
        if _wrong_again("ucf_by_hand"):
            z = norm.ppf(1 - cf)
            f = (e + 0.5) / n
            what += (f"\n  worked: z = Phi^(-1)(0.75) = {z:.4f}, f = 2.5 / 10 = {f:.2f};\n"
                     f"  U = ({f:.2f} + {z * z / (2 * n):.5f} + {z:.4f} sqrt({f / n:.4f} - "
                     f"{f * f / n:.5f} + {z * z / (4 * n * n):.6f})) / (1 + {z * z / n:.5f})"
                     f" = {expected:.4f}")
        fail(what, hint)
    check.expect(True)
    check.passed()


def upper_limit_cases() -> list[tuple[str, tuple[int, int, float]]]:
    """The cases of :func:`check_upper_limit`: (description, (e, n, confidence))."""
    return [
        ("the leaf of part (a)", (2, 10, 0.25)),
        ("a pure leaf (e = 0: the exact limit)", (0, 6, 0.25)),
        ("a pure leaf, another CF", (0, 40, 0.1)),
        ("one error in 16", (1, 16, 0.25)),
        ("many examples", (30, 500, 0.05)),
        ("a smaller confidence level", (5, 20, 0.01)),
        ("CF = 0.5 (z = 0)", (3, 12, 0.5)),
        ("e + 1/2 >= N: every example an error", (4, 4, 0.25)),
        ("e = N - 1 on a small leaf", (2, 3, 0.25)),
        ("a single example, no error", (0, 1, 0.25)),
    ]


def check_upper_limit(upper_limit: Callable) -> None:
    """Check Exercise 8.1 (b), ``upper_limit(e, n, confidence)``: C4.5's U_CF(e, N) for integer
    e, against :func:`prunekit.heuristics.upper_confidence_limit` (tolerance 1e-6, since J48
    stores CF in single precision)."""
    __tracebackhide__ = True
    check = Checker("upper_limit", upper_limit)
    for description, (e, n, cf) in upper_limit_cases():
        call = f"upper_limit({e}, {n}, {cf:g})"
        value = as_number(check.call(e, n, cf, label=call), call, "the upper limit, a rate")
        expected = float(upper_confidence_limit(e, n, cf))
        check.expect(
            close(value, expected, 1e-6),
            f"{call} returned {describe(value)} but U_CF(e, N) = {describe(expected)} "
            f"({description}).",
            lambda: _limit_hint(value, e, n, cf, expected) or (
                "follow the cases of the definition in order: e = 0, then e + 1/2 >= N, then "
                "Wilson's formula with z = Phi^(-1)(1 - CF) and f = (e + 1/2) / N."))
    check.passed()


# ---------------------------------------------------------------------- Exercise 8.2
PEP_NODES = (1, 2)


def pep_tree() -> Tree:
    """The hand-built tree of Exercise 8.2: 50 examples, counts [class 0, class 1]."""
    return Tree.from_arrays(
        left=[1, 3, 5, -1, -1, 7, -1, -1, -1],
        right=[2, 4, 6, -1, -1, 8, -1, -1, -1],
        counts=[[30, 20], [25, 5], [5, 15], [22, 0], [3, 5], [4, 3], [1, 12], [4, 0],
                [0, 3]],
    )


def _pep_variants(tree: Tree, v: int) -> dict[str, tuple[float, float, float, str]]:
    """The four numbers of Exercise 8.2 at node v, and those of the usual mistakes."""
    errors = leaf_errors(tree.counts, tree.labels)
    below = tree.subtree(v)
    leaves = below[tree.is_leaf[below]]
    m_v, m = float(tree.counts[v].sum()), float(tree.n_samples)
    e_leaf, e_tree = float(errors[v]) + 0.5, float(errors[leaves].sum())

    def se(count, trials):
        return math.sqrt(max(count * (trials - count) / trials, 0.0))

    def decide(leaf, subtree, error):
        return "prune" if leaf <= subtree + error else "keep"

    right_subtree = e_tree + 0.5 * len(leaves)
    variants = {"right": (e_leaf, right_subtree, se(right_subtree, m_v))}
    variants["one half"] = (e_leaf, e_tree + 0.5, se(e_tree + 0.5, m_v))
    variants["per node"] = (e_leaf, e_tree + 0.5 * len(below), se(e_tree + 0.5 * len(below), m_v))
    variants["no correction"] = (e_leaf, e_tree, se(e_tree, m_v))
    variants["se with m"] = (e_leaf, right_subtree, se(right_subtree, m))
    variants["se of the leaf"] = (e_leaf, right_subtree, se(e_leaf, m_v))
    variants["uncorrected leaf"] = (e_leaf - 0.5, right_subtree, se(right_subtree, m_v))
    result = {name: (*numbers, decide(*numbers)) for name, numbers in variants.items()}
    leaf, subtree, error = variants["right"]
    result["no se"] = (leaf, subtree, error, decide(leaf, subtree, 0.0))
    result["reversed"] = (leaf, subtree, error, "keep" if decide(leaf, subtree, error) == "prune"
                          else "prune")
    return result


_PEP_HINTS = {
    "one half": "the subtree's count gets 1/2 for every one of its leaves, "
                "e'(T_v) = e(T_v) + |leaves of T_v| / 2, not a single 1/2.",
    "per node": "the correction is 1/2 per leaf of T_v, not per node.",
    "no correction": "the subtree's count is corrected too: add 1/2 per leaf of T_v.",
    "se with m": "the standard error uses m_v, the examples at the node, not all m examples: "
                 "SE = sqrt(e'(T_v) (m_v - e'(T_v)) / m_v).",
    "se of the leaf": "the standard error is that of the subtree's count e'(T_v), not of "
                      "e'(v).",
    "uncorrected leaf": "the leaf's count is corrected as well: e'(v) = e(v) + 1/2.",
    "no se": "the test allows one standard error: prune when e'(v) <= e'(T_v) + SE.",
    "reversed": "prune when the leaf is within one standard error of the subtree, "
                "e'(v) <= e'(T_v) + SE; keep otherwise.",
}

_PEP_PARTS = ("e'(v)", "e'(T_v)", "SE", "the decision")


def check_pep_test(pep_test: Callable, tree: Tree | None = None,
                   nodes: tuple[int, ...] = PEP_NODES) -> None:
    """Check Exercise 8.2: ``pep_test(node)`` returns ``(e'(v), e'(T_v), SE, decision)`` for
    each node of ``nodes``, with decision ``"prune"`` or ``"keep"`` by Quinlan's test
    e'(v) <= e'(T_v) + SE on the grown subtree (what top-down PEP does at a node it visits).

    The numbers are compared with :func:`prunekit.heuristics.pessimistic_errors` (tolerance
    0.01, for values rounded by hand). A first wrong answer at a node names the wrong part
    and gives a hint; a second one prints the worked numbers.
    """
    __tracebackhide__ = True
    tree = pep_tree() if tree is None else tree
    check = Checker("pep_test", pep_test)
    library = pessimistic_errors(tree)
    for v in nodes:
        call = f"pep_test({v})"
        answer = check.call(v, label=call)
        if not isinstance(answer, tuple) or len(answer) != 4:
            fail(f"{call} returned {describe(answer)}; it should return a tuple of four values "
                 "(e'(v), e'(T_v), SE, decision).",
                 'e.g.  return (5.5, 4.0, 1.86, "prune")')
        numbers = [as_number(x, call, "a number for each of e'(v), e'(T_v) and SE")
                   for x in answer[:3]]
        decision = answer[3].strip().lower() if isinstance(answer[3], str) else None
        if decision not in ("prune", "keep"):
            fail(f"{call} returned the decision {describe(answer[3])}; it should be 'prune' or "
                 "'keep'.", 'return the decision as a string, e.g. "keep".')
        variants = _pep_variants(tree, v)
        right = variants["right"]
        if (not close(right[0], library.as_leaf[v], 1e-9)
                or not close(right[1], library.subtree[v], 1e-9)
                or right[3] != ("prune" if library.prune[v] else "keep")):
            raise RuntimeError("the check's PEP numbers disagree with pessimistic_errors.")
        given = (*numbers, decision)
        wrong = [k for k in range(4) if not (given[k] == right[k] if k == 3
                                             else abs(given[k] - right[k]) <= 0.01)]
        if wrong:
            what = (f"{call} returned {describe(tuple(given))}: "
                    f"{' and '.join(_PEP_PARTS[k] for k in wrong)} "
                    f"{'is' if len(wrong) == 1 else 'are'} not right at node {v}.")
            if _wrong_again(("pep_test", v)):
                what += (f"\n  worked: m_v = {tree.counts[v].sum()}, e'(v) = {right[0]:g}, "
                         f"e'(T_v) = {right[1]:g}, SE = {right[2]:.3f}; "
                         f"{right[0]:g} {'<=' if right[3] == 'prune' else '>'} "
                         f"{right[1] + right[2]:.3f}  ->  {right[3]}")
            fail(what, _pep_hint(given, variants, wrong))
        check.expect(True)
    check.passed()


def _pep_hint(given, variants, wrong) -> str:
    for name, hint in _PEP_HINTS.items():
        numbers = variants[name]
        if all((given[k] == numbers[k]) if k == 3 else abs(given[k] - numbers[k]) <= 0.01
               for k in range(4)) and numbers != variants["right"]:
            return hint
    for name, hint in _PEP_HINTS.items():          # a part of the answer matches a mistake
        numbers = variants[name]
        for k in wrong:
            if ((given[k] == numbers[k]) if k == 3 else abs(given[k] - numbers[k]) <= 0.01) \
                    and numbers[k] != variants["right"][k]:
                return hint
    return ("e'(v) = e(v) + 1/2; e'(T_v) = the training errors of the leaves of T_v plus 1/2 "
            "per leaf; SE = sqrt(e'(T_v) (m_v - e'(T_v)) / m_v); prune when "
            "e'(v) <= e'(T_v) + SE.")


# ---------------------------------------------------------------------- Exercise 8.3
def m_error_cases() -> list[tuple[str, np.ndarray, float, np.ndarray]]:
    """The cases of :func:`check_m_error`: (description, counts, m, prior)."""
    uniform2, uniform3 = np.full(2, 0.5), np.full(3, 1 / 3)
    return [
        ("two classes, the Laplace case m = 2 with the uniform prior",
         np.array([8, 2]), 2.0, uniform2),
        ("a skewed prior", np.array([8, 2]), 2.0, np.array([0.3, 0.7])),
        ("a larger m", np.array([8, 2]), 10.0, np.array([0.3, 0.7])),
        ("m = 0: the training error rate", np.array([5, 12]), 0.0, np.array([0.6, 0.4])),
        ("three classes", np.array([3, 9, 4]), 3.0, uniform3),
        ("three classes, a fractional m", np.array([3, 9, 4]), 0.5, np.array([0.2, 0.5, 0.3])),
        ("a tie between the classes: the smaller index predicts", np.array([3, 3]), 4.0,
         np.array([0.3, 0.7])),
        ("a tie among three classes", np.array([0, 5, 5]), 2.0, np.array([0.1, 0.3, 0.6])),
        ("a pure leaf", np.array([0, 0, 7]), 6.0, np.array([0.5, 0.25, 0.25])),
        ("a very large m: the prior dominates", np.array([40, 2]), 1000.0,
         np.array([0.2, 0.8])),
    ]


def _m_error_variants(counts, m, prior) -> list[tuple[float, str]]:
    counts, prior = np.asarray(counts, float), np.asarray(prior, float)
    n, k = counts.sum(), len(counts)
    y = int(np.argmax(counts))
    p = (counts + m * prior) / (n + m)
    return [
        (1 - float(p.max()), "predict the majority class of the counts (the smallest index "
                             "among ties), and estimate its error; the class with the largest "
                             "m-estimate can be another one when the prior is not uniform."),
        (float((n - counts[y] + m * prior[y]) / (n + m)),
         "the prior enters the error through 1 - prior[y]: E = (n - n_y + m (1 - pi_y)) / "
         "(n + m)."),
        (float((n - counts[y] + k - 1) / (n + k)),
         "that is the Laplace estimate; use the given m and prior."),
        (float((n - counts[y] + m * (1 - prior[y])) / n) if n > 0 else math.nan,
         "divide by n + m: the prior counts as m extra examples."),
        (float((n - counts[y]) / n) if n > 0 else math.nan,
         "that is the training error rate; the m-estimate adds m (1 - pi_y) errors to the "
         "numerator and m examples to the denominator."),
        (float((n - counts[y] + m * (1 - prior[y])) / (n + m * (1 - prior[y]))),
         "the denominator is n + m, the examples plus the m virtual ones."),
        (float((counts[y] + m * prior[y]) / (n + m)),
         "that is the estimated probability of the predicted class; the error is one minus it."),
    ]


def check_m_error(m_error: Callable) -> None:
    """Check Exercise 8.3, ``m_error(counts, m, prior)``: Cestnik & Bratko's m-estimate of the
    error rate of a leaf predicting its majority class (ties to the smallest index), against
    :func:`prunekit.heuristics.m_estimate_error`. The function must return a number and leave
    ``counts`` and ``prior`` unchanged."""
    __tracebackhide__ = True
    check = Checker("m_error", m_error)
    for description, counts, m, prior in m_error_cases():
        counts, prior = counts.copy(), prior.copy()
        call = f"m_error({describe(counts)}, {m:g}, {describe(prior)})"
        answer = _call_unmutated(check, (counts, m, prior), call, ("counts", "m", "prior"))
        value = as_number(answer, call, "the estimated error rate, a number")
        expected = float(m_estimate_error(counts, m, prior))
        check.expect(close(value, expected, 1e-9),
                     f"{call} returned {describe(value)} but the m-estimate of the error is "
                     f"{describe(expected)} ({description}).",
                     lambda: _m_error_hint(value, counts, m, prior, expected))
    check.passed()


def _m_error_hint(value, counts, m, prior, expected) -> str:
    return _matching_hint(value, _m_error_variants(counts, m, prior), expected, 1e-9) or (
        "with y the majority class, E = (n - n_y + m (1 - pi_y)) / (n + m), n the total count.")


# ---------------------------------------------------------------------- Exercise 8.4
COVERAGE_FEATURES = 10
COVERAGE_TERMS = ((0, 1), (2, 3, 4))
COVERAGE_NOISE = 0.15


def leaf_true_error_rates(tree: Tree, n_features: int = COVERAGE_FEATURES,
                          terms=COVERAGE_TERMS, noise: float = COVERAGE_NOISE) -> np.ndarray:
    """Exact true error rate of every leaf of ``tree`` on the noisy cube example.

    The points of {0,1}^d are uniform; a leaf predicting label c misclassifies a point x that
    reaches it with probability noise + (1 - 2 noise) 1[c != f(x)], f the formula. Returns an
    array over the tree's nodes, ``nan`` at internal nodes.
    """
    points = cube(n_features)
    clean = dnf_labels(points, terms)
    leaf = tree.apply(points)
    wrong = (tree.classes_[tree.labels[leaf]] != clean).astype(float)
    reach = np.bincount(leaf, minlength=tree.n_nodes)
    disagree = np.bincount(leaf, weights=wrong, minlength=tree.n_nodes)
    rates = np.full(tree.n_nodes, np.nan)
    leaves = np.flatnonzero(tree.is_leaf)
    rates[leaves] = noise + (1 - 2 * noise) * disagree[leaves] / reach[leaves]
    return rates


def coverage_cases() -> list[tuple[str, int, int, float, bool]]:
    """The cases of :func:`check_coverage`: (description, m, seed, confidence, fresh).

    The tree is ``id3`` grown on ``make_boolean_dnf(m, ..., random_state=seed)``; the counts are
    its growing counts, or (``fresh``) those of another sample of m examples.
    """
    return [
        ("300 examples, training counts, CF = 0.25", 300, 0, 0.25, False),
        ("300 examples, the counts of a fresh sample, CF = 0.25", 300, 0, 0.25, True),
        ("another tree, training counts, CF = 0.25", 300, 1, 0.25, False),
        ("1000 examples, training counts, CF = 0.1", 1000, 2, 0.1, False),
        ("600 examples, fresh counts, CF = 0.5", 600, 3, 0.5, True),
        ("200 examples, fresh counts, CF = 0.01", 200, 4, 0.01, True),
    ]


def _coverage_case(m: int, seed: int, fresh: bool) -> tuple[Tree, np.ndarray]:
    X, y = make_boolean_dnf(m, n_features=COVERAGE_FEATURES, terms=COVERAGE_TERMS,
                            noise=COVERAGE_NOISE, random_state=seed)
    tree = id3(X, y)
    if not fresh:
        return tree, np.array(tree.counts)
    X_new, y_new = make_boolean_dnf(m, n_features=COVERAGE_FEATURES, terms=COVERAGE_TERMS,
                                    noise=COVERAGE_NOISE, random_state=seed + 100)
    return tree, tree.node_counts(X_new, y_new)


def _coverage_variants(tree: Tree, counts: np.ndarray, cf: float) -> dict[str, float]:
    leaves = np.flatnonzero(tree.is_leaf)
    n_all = counts[leaves].sum(axis=1)
    reached = n_all > 0
    leaves, n = leaves[reached], n_all[reached]
    e = leaf_errors(counts, tree.labels)[leaves]
    e_majority = n - counts[leaves].max(axis=1)
    true = leaf_true_error_rates(tree)[leaves]
    limit = np.asarray(upper_confidence_limit(e, n, cf), dtype=float)
    clean = (true - COVERAGE_NOISE) / (1 - 2 * COVERAGE_NOISE)
    variants = {
        "right": float(np.mean(true <= limit)),
        "training": float(np.mean(e / n <= limit)),
        "weighted": float(np.sum(n * (true <= limit)) / n.sum()),
        "strict": float(np.mean(true < limit)),
        "count": float(np.mean(true <= limit * n)),
        "no noise": float(np.mean(clean <= limit)),
        "miss": float(np.mean(true > limit)),
        "majority": float(np.mean(
            true <= np.asarray(upper_confidence_limit(e_majority, n, cf), dtype=float))),
        "growing counts": float(np.mean(
            true <= _growing_limits(tree, leaves, cf))),
    }
    if not reached.all():
        variants["unreached missed"] = float(np.sum(true <= limit) / len(n_all))
        variants["unreached covered"] = float((np.sum(true <= limit) + np.sum(~reached))
                                              / len(n_all))
    return variants


def _growing_limits(tree: Tree, leaves: np.ndarray, cf: float) -> np.ndarray:
    n = tree.counts[leaves].sum(axis=1)
    e = leaf_errors(tree.counts, tree.labels)[leaves]
    return np.asarray(upper_confidence_limit(e, n, cf), dtype=float)


_COVERAGE_HINTS = {
    "training": "compare the limit with the leaf's TRUE error rate (exact, on the cube), not "
                "with its error rate e/N on the counts, which is always below the limit.",
    "weighted": "count leaves, not examples: the fraction of the leaves whose true error rate is "
                "at most the limit.",
    "count": "U_CF(e, N) is a rate; compare rates (upper_confidence_limit, not "
             "estimated_errors).",
    "no noise": "a leaf's true error rate includes the label noise: noise + (1 - 2 noise) q, q "
                "the fraction of its cube points where its label disagrees with the formula.",
    "miss": "return the fraction of leaves whose true error rate is AT MOST the limit (the "
            "limit holds), not of those where it fails.",
    "majority": "e counts the errors of the label the leaf predicts, tree.labels[v] (the "
                "majority of the growing sample), which need not be the majority of the counts "
                "you were given: e = N - counts[v, tree.labels[v]].",
    "growing counts": "take e and N from the counts argument, not from tree.counts: the check "
                      "also passes the counts of a fresh sample.",
    "unreached missed": "leaves that no counted example reaches (N = 0) have no limit: leave "
                        "them out of the fraction altogether.",
    "unreached covered": "leaves that no counted example reaches (N = 0) have no limit: leave "
                         "them out of the fraction altogether.",
    "strict": "the limit holds when the true rate is at most U_CF(e, N) (<=).",
}


def check_coverage(coverage: Callable) -> None:
    """Check Exercise 8.4, ``coverage(tree, counts, confidence)``: among the leaves of a tree
    grown on the noisy cube example (d = 10, noise 0.15) that at least one counted example
    reaches, the fraction whose exact true error rate is at most U_CF(e, N), with N and the
    errors e of the leaf's label taken from ``counts``. ``counts`` must be left unchanged."""
    __tracebackhide__ = True
    check = Checker("coverage", coverage)
    for description, m, seed, cf, fresh in coverage_cases():
        tree, counts = _coverage_case(m, seed, fresh)
        call = (f"coverage(<tree grown on {m} examples, seed {seed}>, "
                f"<{'fresh' if fresh else 'training'} counts>, {cf:g})")
        answer = _call_unmutated(check, (tree, counts, cf), call, ("tree", "counts",
                                                                    "confidence"))
        value = as_number(answer, call, "a fraction of leaves, a number")
        variants = _coverage_variants(tree, counts, cf)
        check.expect(close(value, variants["right"], 1e-9),
                     f"{call} returned {describe(value)} but the fraction of covered leaves is "
                     f"{describe(variants['right'])} ({description}, {tree.n_leaves} leaves).",
                     lambda: _coverage_hint(value, variants))
    check.passed()


def _coverage_hint(value: float, variants: dict[str, float]) -> str:
    mistakes = ((variants.get(name), hint) for name, hint in _COVERAGE_HINTS.items())
    return _matching_hint(value, mistakes, variants["right"], 1e-9) or (
        "for every reached leaf: N and e from counts, the true rate from the cube (route "
        "cube(10) with tree.apply), and count the leaves with true rate <= "
        "upper_confidence_limit(e, N, confidence).")
