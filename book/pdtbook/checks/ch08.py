"""Checks for the exercises of Chapter 8: the classic pruning heuristics.

Each ``check_*`` function takes the student's function, runs it on fixed cases and compares the
answers with the library: :func:`prunekit.error_based_pruning.upper_confidence_limit` (C4.5's upper
confidence limit U_CF(e, N) as Weka's J48 computes it, Quinlan 1993, Ch. 4),
:func:`prunekit.pessimistic_pruning.pessimistic_errors` (Quinlan's 1987 pessimistic pruning) and
:func:`prunekit.minimum_error_pruning.m_estimate_error` (Cestnik & Bratko's 1991 m-estimate). When an
answer is wrong, the usual mistakes are recomputed on the same case; if one of them reproduces
the student's answer, the hint names it.

The two exercises worked by hand (U_CF for one leaf, one PEP decision) never show the worked
answer when an answer is wrong: the failure names what is wrong and gives a hint. The worked
computation is printed by :func:`explain_ucf_by_hand` and :func:`explain_pep_test`, which the
notebook calls after a passing check (and a student can call whenever they ask for it).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from scipy.stats import beta, norm

from prunekit.datasets import cube, dnf_labels, make_boolean_dnf
from prunekit.growing import id3
from prunekit.error_based_pruning import upper_confidence_limit
from prunekit.minimum_error_pruning import m_estimate_error
from prunekit.pessimistic_pruning import pessimistic_errors
from prunekit.tree import leaf_errors
from prunekit.tree import Tree

from pdtbook.checks import Checker, close, describe, fail, float_answer, number_answer

__all__ = [
    "check_ucf_by_hand", "explain_ucf_by_hand", "check_upper_limit", "check_pep_test",
    "explain_pep_test", "check_m_error", "check_coverage", "upper_limit_cases", "m_error_cases",
    "coverage_cases", "pep_tree", "leaf_true_error_rates", "BY_HAND", "BY_HAND_TOLERANCE",
    "LOWER_END_HINT", "FIXED_Z_HINT", "PEP_NODES", "COVERAGE_FEATURES", "COVERAGE_TERMS",
    "COVERAGE_NOISE",
]

def _explaining_hint(answers: list, variants: list[list[tuple[float | None, str]]],
                     expected: list[float], tol: float) -> str | None:
    """The hint of the first mistake that reproduces the student's answers on every case.

    ``answers[i]`` is the student's value on case i (``None`` if it raised), ``variants[i]``
    the ``(wrong value, hint)`` pairs of the mistakes on that case, in the same order on every
    case, and ``expected[i]`` the right value. A mistake explains the answers if it agrees with
    every answer the student gave (where the mistake is defined) and differs from the right
    value on at least one of them.
    """
    for index, (_, hint) in enumerate(variants[0]):
        explains, differs = True, False
        for answer, case, right in zip(answers, variants, expected):
            wrong = case[index][0]
            if answer is None or wrong is None or (isinstance(wrong, float) and math.isnan(wrong)):
                continue
            if not close(answer, wrong, tol):
                explains = False
                break
            differs = differs or not close(wrong, right, tol)
        if explains and differs:
            return hint
    return None


def _answers(student: Callable, cases: list[tuple]) -> list[float | None]:
    """The student's numbers on every case (``None`` where it raised or gave no number)."""
    answers = []
    for args in cases:
        try:
            with np.errstate(all="ignore"):
                answers.append(float(student(*[a.copy() if isinstance(a, np.ndarray) else a
                                               for a in args])))
        except Exception:
            answers.append(None)
    return answers


def _matching_hint(value: float, mistakes, expected: float, tol: float) -> str | None:
    """The hint of the first mistake whose value ``value`` reproduces (and that differs from
    the right answer ``expected``); ``mistakes`` yields ``(wrong value, hint)`` pairs."""
    for wrong, hint in mistakes:
        if wrong is not None and close(value, wrong, tol) and not close(wrong, expected, tol):
            return hint
    return None


# ---------------------------------------------------------------------- Exercise 8.1
BY_HAND = (2, 10, 0.25)      # U_CF(e, N) of Exercise 8.1 (a): e = 2 errors of N = 10, CF = 25%
# Exercise 8.1 (a) accepts answers this close to U_0.25(2, 10): z read from a two-decimal
# table as 0.67 or 0.68 moves the answer by less than 0.001, the usual slips by more.
BY_HAND_TOLERANCE = 1e-3

LOWER_END_HINT = (
    "that is the lower end of Wilson's interval, (f + z^2/(2N) - z s) / (1 + z^2/N). The upper "
    "limit adds z s, with z = Phi^(-1)(1 - CF) > 0 (0.6745 for CF = 0.25): look for a minus "
    "sign before z s, or a negative z, Phi^(-1)(CF), which gives the same value.")
FIXED_Z_HINT = (
    "z depends on the confidence level: z = Phi^(-1)(1 - CF). Your values are those of a "
    "fixed z = 0.6745, which is right only for CF = 0.25; compute z from the argument "
    "confidence, e.g. norm.ppf(1 - confidence).")


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


def _limit_mistakes(e: int, n: int, cf: float,
                    zero_extra: bool = False) -> list[tuple[float | None, str]]:
    """The values of the usual mistakes on one case, with their hints. With ``zero_extra`` the
    mistake that only exists for e = 0 is listed on every case (``None`` where e > 0)."""
    mistakes = [
        # z -> -z turns the upper end of Wilson's interval into its lower end: a minus sign
        # before z s and z = Phi^(-1)(CF) < 0 give the same numbers, so the hint names both.
        (_limit_formula(e, n, cf, z=norm.ppf(cf)), LOWER_END_HINT),
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
        # z copied from part (a), to four digits or exactly: right only where CF = 0.25
        (_limit_formula(e, n, cf, z=0.6745), FIXED_Z_HINT),
        (_limit_formula(e, n, cf, z=float(norm.ppf(0.75))), FIXED_Z_HINT),
    ]
    if e == 0 or zero_extra:
        mistakes.append((1 - (1 - cf) ** (1 / n) if e == 0 else None,
                         "for e = 0 the limit solves (1 - U)^N = CF: U = 1 - CF^(1/N)."))
    return mistakes


def _limit_hint(value: float, e: int, n: int, cf: float, expected: float) -> str | None:
    return _matching_hint(value, _limit_mistakes(e, n, cf), expected, 2e-4)


def check_ucf_by_hand(ucf_by_hand: Callable) -> None:
    """Check Exercise 8.1 (a): ``ucf_by_hand()`` returns U_0.25(2, 10), worked out by hand.

    Answers within :data:`BY_HAND_TOLERANCE` (0.001) of the exact value are accepted: that
    covers z read from a two-decimal normal table (0.67 or 0.68) as well as z = 0.6745. A
    wrong answer gets a hint about its mistake but never the worked computation, however
    often it is tried, since that gives the answer away; :func:`explain_ucf_by_hand` prints
    it, and the exercise's check cell calls it after a passing check.
    """
    __tracebackhide__ = True
    e, n, cf = BY_HAND
    check = Checker("ucf_by_hand", ucf_by_hand)
    value = number_answer(check.call(label="ucf_by_hand()"), "ucf_by_hand()",
                          "the upper limit, a number")
    expected = float(upper_confidence_limit(e, n, cf))
    if abs(value - expected) > BY_HAND_TOLERANCE:
        hint = _limit_hint(value, e, n, cf, expected) or (
            "case 4 of the definition applies (e = 2 is neither 0 nor close to N = 10): "
            "compute z and f = (e + 1/2) / N first, then the formula.")
        fail(f"ucf_by_hand() returned {describe(value)}, which is not U_0.25(2, 10). "
             f"(explain_ucf_by_hand() prints the computation worked out, and with it the "
             f"answer.)", hint)
    check.expect(True)
    check.passed()


def explain_ucf_by_hand() -> None:
    """Print the worked solution of Exercise 8.1 (a): U_0.25(2, 10) step by step."""
    e, n, cf = BY_HAND
    z = norm.ppf(1 - cf)
    f = (e + 0.5) / n
    expected = float(upper_confidence_limit(e, n, cf))
    print(f"z = Phi^(-1)({1 - cf:g}) = {z:.4f}, f = ({e} + 1/2) / {n} = {f:.2f}")
    print(f"U = ({f:.2f} + {z * z / (2 * n):.5f} + {z:.4f} sqrt({f / n:.4f} - {f * f / n:.5f} + "
          f"{z * z / (4 * n * n):.6f})) / (1 + {z * z / n:.5f}) = {expected:.4f}")


def upper_limit_cases() -> list[tuple[str, tuple[int, int, float]]]:
    """The cases of :func:`check_upper_limit`: (description, (e, n, confidence))."""
    # The first case uses Wilson's formula at CF != 0.25, so that a z copied from part (a)
    # is reported on a case where it is wrong, not on one where it is right to four digits.
    return [
        ("a smaller confidence level", (5, 20, 0.01)),
        ("the leaf of part (a)", (2, 10, 0.25)),
        ("a pure leaf (e = 0: the exact limit)", (0, 6, 0.25)),
        ("a pure leaf, another CF", (0, 40, 0.1)),
        ("one error in 16", (1, 16, 0.25)),
        ("many examples", (30, 500, 0.05)),
        ("CF = 0.5 (z = 0)", (3, 12, 0.5)),
        ("e + 1/2 >= N: every example an error", (4, 4, 0.25)),
        ("e = N - 1 on a small leaf", (2, 3, 0.25)),
        ("a single example, no error", (0, 1, 0.25)),
    ]


def check_upper_limit(upper_limit: Callable) -> None:
    """Check Exercise 8.1 (b), ``upper_limit(e, n, confidence)``: C4.5's U_CF(e, N) for integer
    e, as a float, against :func:`prunekit.error_based_pruning.upper_confidence_limit` (tolerance 1e-6,
    since J48 stores CF in single precision)."""
    __tracebackhide__ = True
    check = Checker("upper_limit", upper_limit)
    for description, (e, n, cf) in upper_limit_cases():
        call = f"upper_limit({e}, {n}, {cf:g})"
        value = float_answer(check.call(e, n, cf, label=call), call, "the upper limit, a float")
        expected = float(upper_confidence_limit(e, n, cf))
        check.expect(
            close(value, expected, 1e-6),
            f"{call} returned {describe(value)} but U_CF(e, N) = {describe(expected)} "
            f"({description}).",
            lambda: _upper_limit_hint(upper_limit))
    check.passed()


def _upper_limit_hint(upper_limit: Callable) -> str:
    cases = [args for _, args in upper_limit_cases()]
    variants = [_limit_mistakes(*args, zero_extra=True) for args in cases]
    expected = [float(upper_confidence_limit(*args)) for args in cases]
    return _explaining_hint(_answers(upper_limit, cases), variants, expected, 1e-6) or (
        "follow the cases of the definition in order: e = 0, then e + 1/2 >= N, then "
        "Wilson's formula with z = Phi^(-1)(1 - CF) and f = (e + 1/2) / N.")


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
    children = float(errors[tree.left[v]] + errors[tree.right[v]]) + 1.0
    variants = {"right": (e_leaf, right_subtree, se(right_subtree, m_v))}
    variants["children"] = (e_leaf, children, se(children, m_v))
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
    "children": "T_v is the whole subtree grown below v, down to the leaves of the tree: sum "
                "the training errors of ITS leaves (the nodes below v without children) and "
                "add 1/2 per leaf; v's two children are leaves of T_v only when they have no "
                "children themselves.",
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

    The numbers are compared with :func:`prunekit.pessimistic_pruning.pessimistic_errors` (tolerance
    0.01, for values rounded by hand). A wrong answer at a node names the wrong part and gives
    a hint, but not the worked numbers, which give the answer away; :func:`explain_pep_test`
    prints those.
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
        numbers = [number_answer(x, call, "a number for each of e'(v), e'(T_v) and SE")
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
                    f"{'is' if len(wrong) == 1 else 'are'} not right at node {v}. "
                    f"(explain_pep_test(), called with the tree of this check, prints the test "
                    f"worked out, and with it the answers.)")
            fail(what, _pep_hint(given, variants, wrong))
        check.expect(True)
    check.passed()


def explain_pep_test(tree: Tree | None = None, nodes: tuple[int, ...] = PEP_NODES) -> None:
    """Print the worked solution of Exercise 8.2: Quinlan's test at each node of ``nodes``."""
    tree = pep_tree() if tree is None else tree
    for v in nodes:
        leaf, subtree, error, decision = _pep_variants(tree, v)["right"]
        print(f"node {v}: m_v = {tree.counts[v].sum()}, e'(v) = {leaf:g}, e'(T_v) = "
              f"{subtree:g}, SE = {error:.3f}; {leaf:g} {'<=' if decision == 'prune' else '>'} "
              f"{subtree + error:.3f}  ->  {decision}")


# The mistakes in the decision rule; the others are mistakes in the numbers.
_PEP_RULE_MISTAKES = ("no se", "reversed")


def _pep_hint(given, variants, wrong) -> str:
    """The hint of a mistake that reproduces the answer at a node: all four parts, or else
    every wrong number (a mistake in the numbers, whatever the decision). A hint about the
    decision rule is given only when it reproduces the whole answer, so never when a number
    is wrong."""
    def agrees(numbers, k):
        return given[k] == numbers[k] if k == 3 else abs(given[k] - numbers[k]) <= 0.01

    for name, hint in _PEP_HINTS.items():
        numbers = variants[name]
        if all(agrees(numbers, k) for k in range(4)) and numbers != variants["right"]:
            return hint
    wrong_numbers = [k for k in wrong if k < 3]
    if wrong_numbers:
        for name, hint in _PEP_HINTS.items():
            if name not in _PEP_RULE_MISTAKES and all(agrees(variants[name], k)
                                                      for k in wrong_numbers):
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
    last = k - 1 - int(np.argmax(counts[::-1]))       # the largest index among tied classes
    p = (counts + m * prior) / (n + m)
    return [
        (1 - float(p.max()), "predict the majority class of the counts (the smallest index "
                             "among ties), and estimate its error; the class with the largest "
                             "m-estimate can be another one when the prior is not uniform."),
        (float((n - counts[y] + m * prior[y]) / (n + m)),
         "the prior enters the error through 1 - prior[y]: E = (m_u - m_u(y) + m (1 - pi_y)) "
         "/ (m_u + m)."),
        (float((n - counts[y] + k - 1) / (n + k)),
         "that is the Laplace estimate; use the given m and prior."),
        (float((n - counts[y] + m * (1 - prior[y])) / n) if n > 0 else math.nan,
         "divide by m_u + m: the prior counts as m extra examples."),
        (float((n - counts[y]) / n) if n > 0 else math.nan,
         "that is the training error rate; the m-estimate adds m (1 - pi_y) errors to the "
         "numerator and m examples to the denominator."),
        (float((n - counts[y] + m * (1 - prior[y])) / (n + m * (1 - prior[y]))),
         "the denominator is m_u + m, the examples plus the m virtual ones."),
        (float((counts[y] + m * prior[y]) / (n + m)),
         "that is the estimated probability of the predicted class; the error is one minus it."),
        (float((n - counts[last] + m * (1 - prior[last])) / (n + m)),
         "among tied classes the leaf predicts the one with the smallest index (np.argmax "
         "returns it); you took another one."),
    ]


def check_m_error(m_error: Callable) -> None:
    """Check Exercise 8.3, ``m_error(counts, m, prior)``: Cestnik & Bratko's m-estimate of the
    error rate of a leaf predicting its majority class (ties to the smallest index), against
    :func:`prunekit.minimum_error_pruning.m_estimate_error`. The function must return a float and leave
    ``counts`` and ``prior`` unchanged."""
    __tracebackhide__ = True
    check = Checker("m_error", m_error)
    for description, counts, m, prior in m_error_cases():
        call = f"m_error({describe(counts)}, {m:g}, {describe(prior)})"
        answer = check.call(counts, m, prior, label=call)
        value = float_answer(answer, call, "the estimated error rate, a float")
        expected = float(m_estimate_error(counts, m, prior))
        check.expect(close(value, expected, 1e-9),
                     f"{call} returned {describe(value)} but the m-estimate of the error is "
                     f"{describe(expected)} ({description}).",
                     lambda: _m_error_hint(m_error))
    check.passed()


def _m_error_hint(m_error: Callable) -> str:
    cases = [(counts, m, prior) for _, counts, m, prior in m_error_cases()]
    variants = [_m_error_variants(*args) for args in cases]
    expected = [float(m_estimate_error(*args)) for args in cases]
    return _explaining_hint(_answers(m_error, cases), variants, expected, 1e-9) or (
        "with y the majority class, E = (m_u - m_u(y) + m (1 - pi_y)) / (m_u + m), m_u the "
        "total count.")


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
    reaches, the fraction (a float) whose exact true error rate is at most U_CF(e, N), with N
    and the errors e of the leaf's label taken from ``counts``. ``counts`` must be left
    unchanged."""
    __tracebackhide__ = True
    check = Checker("coverage", coverage)
    for description, m, seed, cf, fresh in coverage_cases():
        tree, counts = _coverage_case(m, seed, fresh)
        call = (f"coverage(<tree grown on {m} examples, seed {seed}>, "
                f"<{'fresh' if fresh else 'training'} counts>, {cf:g})")
        answer = check.call(tree, counts, cf, label=call)
        value = float_answer(answer, call, "a fraction of leaves, a float")
        variants = _coverage_variants(tree, counts, cf)
        check.expect(close(value, variants["right"], 1e-9),
                     f"{call} returned {describe(value)} but the fraction of covered leaves is "
                     f"{describe(variants['right'])} ({description}, {tree.n_leaves} leaves).",
                     lambda: _coverage_hint(coverage))
    check.passed()


def _coverage_hint(coverage: Callable) -> str:
    cases, variants, expected = [], [], []
    for _, m, seed, cf, fresh in coverage_cases():
        tree, counts = _coverage_case(m, seed, fresh)
        found = _coverage_variants(tree, counts, cf)
        cases.append((tree, counts, cf))
        variants.append([(found.get(name), hint) for name, hint in _COVERAGE_HINTS.items()])
        expected.append(found["right"])
    return _explaining_hint(_answers(coverage, cases), variants, expected, 1e-9) or (
        "for every reached leaf: N and e from counts, the true rate from the cube (route "
        "cube(10) with tree.apply), and count the leaves with true rate <= "
        "upper_confidence_limit(e, N, confidence).")
