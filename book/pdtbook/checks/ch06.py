"""Checks for the exercises of Chapter 6: Rademacher penalties of prunings and k-REP.

Each ``check_*`` function takes the student's answer (a number or a function), runs it on fixed
cases and compares with the library: :func:`prunekit.rademacher_penalty`,
:func:`prunekit.rademacher.relabelled_leaf_errors`, :func:`prunekit.k_reduced_error_pruning.min_plus_merge`,
:func:`prunekit.bounds.eta` and brute force over :func:`prunekit.all_prunings`. When an answer is
wrong, the usual mistakes are recomputed on the same case; if one of them reproduces the
student's answer, the hint names it.

Equation and algorithm numbers refer to Kääriäinen, Malinen & Elomaa (2004).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from prunekit.bounds import eta
from prunekit.k_reduced_error_pruning import min_plus_merge
from prunekit.rademacher import draw_signs

from pdtbook.checks import (
    Checker, close, describe, expect_close_float, explaining_mistake, fail, float_answer,
    int_answer, number_answer,
)

__all__ = [
    "BY_HAND_LOSSES", "BY_HAND_SIGNS", "check_penalty_by_hand", "explain_penalty_by_hand",
    "check_empirical_penalty",
    "check_flip", "check_relabelled_errors", "check_k_rep_table", "check_mcdiarmid_deviation",
    "empirical_penalty_reference", "relabelled_errors_reference", "k_rep_table_reference",
    "mcdiarmid_deviation_reference", "penalty_cases", "relabel_cases", "k_rep_cases",
    "mcdiarmid_cases",
]

# ---------------------------------------------------------------------- Exercise 6.1
BY_HAND_LOSSES = np.array([[1, 0, 0, 1, 0, 1],
                           [0, 0, 1, 1, 1, 0],
                           [1, 1, 0, 0, 0, 0]])
BY_HAND_SIGNS = np.array([-1, -1, 1, 1, -1, -1])
# The signs do not sum to 0 and the largest |signed sum| is a negative one (h3's, -2), so each
# usual mistake of part (a) gives its own value: 1/3 is right, 1/6 leaves out the absolute
# value, 2 the division by m, 2/9 takes the mean, 1/2 counts the correct predictions.


def empirical_penalty_reference(losses, signs) -> float:
    """max over the rows h of |(1/m) sum_i sigma_i l_h(i)|, the penalty of a finite class."""
    losses, signs = np.asarray(losses, dtype=float), np.asarray(signs, dtype=float)
    return float(np.abs(losses @ signs / losses.shape[1]).max())


def _penalty_variants(losses, signs):
    losses, signs = np.asarray(losses, dtype=float), np.asarray(signs, dtype=float)
    n = losses.shape[1]
    sums = losses @ signs
    return [
        (float(sums.max() / n), "the penalty takes the absolute value before the maximum: "
                                "max over h of |(1/m) sum_i sigma_i l_i|, so a large negative "
                                "correlation counts too."),
        (float(np.abs(sums).max()), "divide the sum by m: the penalty is a mean, "
                                    "(1/m) sum_i sigma_i l_i."),
        (float(np.abs(sums).mean() / n), "take the maximum over the classifiers (the rows), "
                                         "not the mean."),
        (float(np.abs((1 - losses) @ signs).max() / n),
         "the losses are 1 where a classifier errs; you used the correct predictions instead."),
    ]


def check_penalty_by_hand(penalty_by_hand: Callable) -> None:
    """Check Exercise 6.1 (a), ``penalty_by_hand()``: it returns the penalty of the
    three-classifier class of the statement, worked out by hand.

    A wrong answer gets a hint about its mistake but not the worked sums, which give the answer
    away; :func:`explain_penalty_by_hand` prints those.
    """
    __tracebackhide__ = True
    check = Checker("penalty_by_hand", penalty_by_hand)
    value = number_answer(check.call(), "penalty_by_hand()", "the penalty, a number",
                          fractions=True)
    expected = empirical_penalty_reference(BY_HAND_LOSSES, BY_HAND_SIGNS)
    if not close(value, expected, 1e-6):
        what = (f"penalty_by_hand() returned {describe(value)}, which is not the penalty of the "
                f"class. (explain_penalty_by_hand() prints the signed sums worked out, and with "
                f"them the answer.)")
        for wrong, hint in _penalty_variants(BY_HAND_LOSSES, BY_HAND_SIGNS):
            if close(value, wrong, 1e-6) and not close(wrong, expected, 1e-6):
                fail(what, hint)
        fail(what, "for each classifier add sigma_i over the examples it gets wrong, divide by "
                   "m = 6, take absolute values and then the largest.")
    check.expect(True)
    check.passed()


def explain_penalty_by_hand() -> None:
    """Print the worked solution of Exercise 6.1 (a): each classifier's signed sum, its mean
    and absolute value, and the largest."""
    losses, signs = BY_HAND_LOSSES, BY_HAND_SIGNS
    m = losses.shape[1]
    for h, row in enumerate(losses, start=1):
        terms = " ".join(f"{'+' if sigma > 0 else '-'}1" for loss, sigma in zip(row, signs) if loss)
        total = int(row @ signs)
        shown = f"{total:+d}" if total else "0"
        print(f"h{h}: wrong on i = {[i + 1 for i in np.flatnonzero(row).tolist()]}, signed sum "
              f"{terms} = {shown}, |{shown}| / {m} = {abs(total) / m:.4f}")
    print(f"penalty: the largest, {empirical_penalty_reference(losses, signs):.4f}")


def penalty_cases() -> list[tuple[str, np.ndarray, np.ndarray]]:
    """The cases of :func:`check_empirical_penalty`: (description, losses, signs)."""
    rng = np.random.default_rng(61)
    cases = [
        ("the class of Exercise 6.1 (a)", BY_HAND_LOSSES, BY_HAND_SIGNS),
        ("one classifier", np.array([[1, 0, 1, 1]]), np.array([1, 1, -1, 1])),
        ("a negative correlation wins", np.array([[1, 1, 0, 0], [0, 0, 0, 1]]),
         np.array([-1, -1, 1, 1])),
        ("a classifier that is never wrong", np.array([[0, 0, 0], [0, 1, 0]]),
         np.array([1, -1, 1])),
    ]
    for n_h, n in ((5, 20), (40, 300)):
        cases.append((f"a random class of {n_h} classifiers on {n} examples",
                      rng.integers(0, 2, (n_h, n)), draw_signs(n, rng)))
    return cases


def _empirical_penalty_hint(student: Callable) -> str:
    cases = [(losses, signs) for _, losses, signs in penalty_cases()]
    names = [hint for _, hint in _penalty_variants(*cases[0])]
    mistakes = [(lambda losses, signs, i=i: _penalty_variants(losses, signs)[i][0], hint)
                for i, hint in enumerate(names)]
    hint = explaining_mistake(student, cases, mistakes, empirical_penalty_reference)
    if hint is not None:
        return hint
    return "R_m = max over the rows h of |(1/m) sum_i signs[i] * losses[h, i]|."


def check_empirical_penalty(empirical_penalty: Callable) -> None:
    """Check Exercise 6.1 (b), ``empirical_penalty(losses, signs)``."""
    __tracebackhide__ = True
    check = Checker("empirical_penalty", empirical_penalty)
    for description, losses, signs in penalty_cases():
        expect_close_float(
            check, (losses, signs),
            f"empirical_penalty(losses={describe(losses.tolist())}, signs={describe(signs)})",
            "the penalty, a float", empirical_penalty_reference, "the penalty", description,
            lambda value: _empirical_penalty_hint(empirical_penalty))
    check.passed()


# ---------------------------------------------------------------------- Exercise 6.2
def relabelled_errors_reference(predictions, y, signs) -> int:
    """Errors of ``predictions`` on the relabelled sample z: z_i = complement of y_i if sigma_i = +1.

    A prediction errs on (x_i, ybar_i) when it equals y_i and on (x_i, y_i) when it differs.
    """
    predictions, y, signs = (np.asarray(a) for a in (predictions, y, signs))
    return int(np.sum(np.where(signs == 1, predictions == y, predictions != y)))


def relabel_cases() -> list[tuple[str, np.ndarray, np.ndarray, np.ndarray]]:
    """The cases of :func:`check_flip` and :func:`check_relabelled_errors`:
    (description, predictions, y, signs); the first four have two classes."""
    rng = np.random.default_rng(62)
    cases = [
        ("mixed signs", np.array([1, 1, 0, 0, 1]), np.array([1, 0, 0, 1, 0]),
         np.array([1, -1, 1, -1, -1])),
        ("all signs +1", np.array([0, 1, 1, 0]), np.array([0, 1, 0, 0]), np.array([1, 1, 1, 1])),
        ("all signs -1", np.array([0, 1, 1, 0]), np.array([0, 1, 0, 0]),
         np.array([-1, -1, -1, -1])),
    ]
    y = rng.integers(0, 2, 50)
    cases.append(("50 random binary examples", rng.integers(0, 2, 50), y, draw_signs(50, rng)))
    cases.append(("three classes", np.array([0, 2, 1, 1, 2, 0]), np.array([0, 1, 1, 2, 2, 2]),
                  np.array([1, 1, -1, 1, -1, -1])))
    y = rng.integers(0, 4, 80)
    cases.append(("80 random examples of four classes", rng.integers(0, 4, 80), y,
                  draw_signs(80, rng)))
    return cases


def check_flip(flip: Callable) -> None:
    """Check Exercise 6.2 (a), ``flip(y, signs)``: z for two classes {0, 1}, as an integer
    NumPy array; ``y`` and ``signs`` must be left as they were."""
    __tracebackhide__ = True
    check = Checker("flip", flip)
    for description, _, y, signs in relabel_cases()[:4]:
        call = f"flip(y={describe(y)}, signs={describe(signs)})"
        z = check.call(y, signs, label=call)
        if not isinstance(z, np.ndarray):
            fail(f"{call} returned {describe(z)} (of type {type(z).__name__}); it should return "
                 f"a NumPy array.", "np.where(...) builds the array in one step.")
        if z.shape != y.shape:
            fail(f"{call} returned {describe(z)}; it should return one label per example.",
                 "return an array of the same length as y.")
        if z.dtype.kind not in "iu":
            fail(f"{call} returned an array of dtype {z.dtype}; the labels should be integers, "
                 f"like y.", "compute z from y with integer arithmetic, e.g. 1 - y.")
        expected = np.where(signs == 1, 1 - y, y)
        if np.array_equal(z, np.where(signs == -1, 1 - y, y)) and not np.array_equal(z, expected):
            hint = "flip the labels where the sign is +1 (sigma_i = +1 asks h to err on example i)."
        elif np.array_equal(z, 1 - y):
            hint = "flip only where signs == 1; keep y where signs == -1."
        else:
            hint = "z_i = 1 - y_i where signs[i] == 1, and z_i = y_i otherwise."
        check.expect(np.array_equal(z, expected),
                     f"{call} returned {describe(z)} but z is {describe(expected)} "
                     f"({description}).",
                     hint)
    check.passed()


def _two_class_complement_errors(predictions, y, signs) -> int:
    predictions, y, signs = (np.asarray(a) for a in (predictions, y, signs))
    return int(np.sum(predictions != np.where(signs == 1, 1 - y, y)))


_RELABEL_MISTAKES = [
    (lambda p, y, r: relabelled_errors_reference(p, y, -np.asarray(r)),
     "you relabelled where sigma_i = -1; the complement class goes to the examples with "
     "sigma_i = +1."),
    (_two_class_complement_errors,
     "with more than two classes the complement of y_i is not 1 - y_i: it stands for 'any "
     "class but y_i', and a prediction errs on (x_i, complement of y_i) exactly when it equals "
     "y_i."),
    (lambda p, y, r: int(np.sum(np.asarray(p) != np.asarray(y))),
     "you counted the ordinary errors; count them on the relabelled sample z."),
    (lambda p, y, r: int(np.sum((np.asarray(r) == 1) & (np.asarray(p) == np.asarray(y)))),
     "you counted only the examples with sigma_i = +1; those with sigma_i = -1 keep their label "
     "y_i, and a prediction errs on them when it differs from y_i."),
    (lambda p, y, r: int(np.sum((np.asarray(r) == -1) & (np.asarray(p) != np.asarray(y)))),
     "you counted only the examples with sigma_i = -1; on those with sigma_i = +1 a prediction "
     "errs when it equals y_i."),
]


def check_relabelled_errors(relabelled_errors: Callable) -> None:
    """Check Exercise 6.2 (b), ``relabelled_errors(predictions, y, signs)``: an int."""
    __tracebackhide__ = True
    check = Checker("relabelled_errors", relabelled_errors)
    cases = [(p, y, r) for _, p, y, r in relabel_cases()]
    for description, predictions, y, signs in relabel_cases():
        call = (f"relabelled_errors(predictions={describe(predictions)}, y={describe(y)}, "
                f"signs={describe(signs)})")
        value = int_answer(check.call(predictions, y, signs, label=call), call,
                           "a number of errors, an int", numpy_ok=False)
        expected = relabelled_errors_reference(predictions, y, signs)

        def hint():
            found = explaining_mistake(relabelled_errors, cases, _RELABEL_MISTAKES,
                                       relabelled_errors_reference, agree=lambda a, b: a == b)
            return found or ("count the examples with sigma_i = +1 and prediction == y_i, plus "
                             "those with sigma_i = -1 and prediction != y_i.")

        check.expect(value == expected,
                     f"{call} returned {describe(value)} but the relabelled sample has "
                     f"{expected} errors ({description}).", hint)
    check.passed()


# ---------------------------------------------------------------------- Exercise 6.3
def k_rep_table_reference(left, right, leaf_growing: int, leaf_pruning: float,
                          k: int) -> np.ndarray:
    """Algorithm 6 without sizes: the node's table for budgets 0..k (``inf`` where undefined).

    ``left`` and ``right`` are ``None`` at a leaf of the tree.
    """
    table = np.full(k + 1, np.inf)
    if left is not None:
        table = min_plus_merge(left, right, k)
    if leaf_growing <= k:
        table[leaf_growing:] = np.minimum(table[leaf_growing:], leaf_pruning)
    return table


def k_rep_cases():
    """The cases of :func:`check_k_rep_table`: (description, left, right, leaf_growing,
    leaf_pruning, k)."""
    inf = np.inf
    rng = np.random.default_rng(63)
    cases = [
        ("a leaf of the tree within budget", None, None, 1, 4.0, 3),
        ("a leaf of the tree over budget", None, None, 5, 4.0, 3),
        ("two leaves below, the node as a leaf is worse", np.array([inf, 2.0, 2.0, 2.0]),
         np.array([1.0, 1.0, 1.0, 1.0]), 2, 5.0, 3),
        ("the node as a leaf wins from its growing errors on", np.array([3.0, 3.0, 3.0, 3.0, 3.0]),
         np.array([inf, 4.0, 4.0, 4.0, 4.0]), 3, 2.0, 4),
        ("children whose tables improve with the budget", np.array([9.0, 7.0, 4.0, 4.0, 1.0, 1.0]),
         np.array([inf, 8.0, 5.0, 3.0, 3.0, 2.0]), 4, 6.0, 5),
        ("a budget of 0", np.array([2.0]), np.array([3.0]), 0, 6.0, 0),
    ]
    for k in (8, 20):
        budget = np.arange(k + 1)
        left = np.minimum.accumulate(np.where(budget < 2, inf, rng.integers(0, 30, k + 1)))
        right = np.minimum.accumulate(np.where(budget < 1, inf, rng.integers(0, 30, k + 1)))
        cases.append((f"random children's tables with k = {k}", left, right,
                      int(rng.integers(2, k)), float(rng.integers(10, 40)), k))
    return cases


def _k_rep_variant(left, right, g: int, e: float, k: int, mistake: str) -> np.ndarray:
    """The table of one of the usual wrong steps (see :data:`_K_REP_HINTS`)."""
    merged = np.full(k + 1, np.inf) if left is None else min_plus_merge(left, right, k)
    if mistake == "leaf everywhere":
        return np.minimum(merged, e)
    if mistake == "no leaf":
        return merged if left is not None else np.full(k + 1, np.inf)
    if mistake == "leaf only at g":
        table = merged.copy()
        if g <= k:
            table[g] = min(table[g], e)
        return table
    if mistake == "sum not min":
        table = np.full(k + 1, np.inf)
        if left is not None:
            table = np.array([left[i] + right[i] for i in range(k + 1)], dtype=float)
        if g <= k:
            table[g:] = np.minimum(table[g:], e)
        return table
    raise ValueError(mistake)


_K_REP_HINTS = {
    "leaf everywhere": "the node as a leaf makes leaf_growing growing errors, so it is a "
                       "candidate only for budgets i >= leaf_growing.",
    "no leaf": "you left out step 3: from budget leaf_growing on, the node as a leaf "
               "(leaf_pruning errors) is a candidate too.",
    "leaf only at g": "the node as a leaf is a candidate for every budget i >= leaf_growing, not "
                      "only for i = leaf_growing: a budget allows at most i growing errors.",
    "sum not min": "table[i] is the minimum over all splits u + w = i of left[u] + right[w], "
                   "not left[i] + right[i]: the budget i is shared between the two children.",
}


def check_k_rep_table(k_rep_table: Callable) -> None:
    """Check Exercise 6.3, ``k_rep_table(left, right, leaf_growing, leaf_pruning, k)``: a NumPy
    array of length k + 1; ``left`` and ``right`` must be left as they were."""
    __tracebackhide__ = True
    check = Checker("k_rep_table", k_rep_table)
    cases = [case[1:] for case in k_rep_cases()]
    for description, left, right, leaf_growing, leaf_pruning, k in k_rep_cases():
        call = (f"k_rep_table(left={describe(left)}, right={describe(right)}, "
                f"leaf_growing={leaf_growing}, leaf_pruning={describe(leaf_pruning)}, k={k})")
        answer = check.call(left, right, leaf_growing, leaf_pruning, k, label=call)
        if not isinstance(answer, np.ndarray) or answer.dtype.kind not in "iuf":
            fail(f"{call} returned {describe(answer)} (of type {type(answer).__name__}); it "
                 f"should return a NumPy array of numbers.", "start from np.full(k + 1, np.inf).")
        expected = k_rep_table_reference(left, right, leaf_growing, leaf_pruning, k)
        if answer.shape != expected.shape:
            fail(f"{call} returned {describe(answer)}; it should return k + 1 = {k + 1} numbers, "
                 "one per budget 0, ..., k.", "start from np.full(k + 1, np.inf).")

        def hint():
            mistakes = [(lambda *a, mistake=mistake: _k_rep_variant(*a, mistake), text)
                        for mistake, text in _K_REP_HINTS.items()]
            found = explaining_mistake(
                k_rep_table, cases, mistakes, k_rep_table_reference,
                agree=lambda a, b: np.array_equal(np.asarray(a, dtype=float), b))
            return found or ("table[i] = min(min over u + w = i of left[u] + right[w], and "
                             "leaf_pruning if i >= leaf_growing).")

        check.expect(np.array_equal(answer, expected),
                     f"{call} returned {describe(answer)} but the table is {describe(expected)} "
                     f"({description}).", hint)
    check.passed()


# ---------------------------------------------------------------------- Exercise 6.4
def mcdiarmid_deviation_reference(delta: float, c) -> float:
    """The epsilon with exp(-2 epsilon^2 / sum c_i^2) = delta / 2."""
    c = np.asarray(c, dtype=float)
    return float(math.sqrt(math.log(2 / delta) * float(np.sum(c ** 2)) / 2))


def mcdiarmid_cases() -> list[tuple[float, np.ndarray]]:
    """The cases of :func:`check_mcdiarmid_deviation`: (delta, c)."""
    return [(0.05, np.array([1.0])), (0.01, np.array([0.5, 0.25, 0.25])),
            (0.1, np.full(10, 0.1)), (0.01, np.full(1000, 2 / 1000)),
            (0.01, np.full(1000, 1 / 1000)), (0.2, np.full(250, 2 / 250)),
            (0.3, np.array([0.5, 0.1, 0.9, 0.3]))]


def _squares(c) -> float:
    return float(np.sum(np.asarray(c, dtype=float) ** 2))


_MCDIARMID_MISTAKES = [
    (lambda delta, c: math.sqrt(math.log(1 / delta) * _squares(c) / 2),
     "each tail gets delta / 2, so the logarithm is log(2 / delta)."),
    (lambda delta, c: math.sqrt(math.log(2 / delta) * _squares(c)),
     "solve exp(-2 eps^2 / sum c_i^2) = delta / 2: the factor 2 divides."),
    (lambda delta, c: math.sqrt(math.log(2 / delta) * _squares(c) ** 0.5 / 2),
     "the denominator of the exponent is the sum of the squares c_i^2, not its square root."),
    (lambda delta, c: math.sqrt(math.log(2 / delta) * float(np.sum(c)) / 2),
     "the denominator of the exponent is the sum of the squares c_i^2, not the sum of the c_i."),
    (lambda delta, c: math.log(2 / delta) * _squares(c) / 2,
     "solve for eps, not eps^2: take the square root at the end."),
]


def check_mcdiarmid_deviation(mcdiarmid_deviation: Callable) -> None:
    """Check Exercise 6.4 (b), ``mcdiarmid_deviation(delta, c)`` (a float), and the two
    deviations of Lemma 3's proof: 2 eta(delta, m) for c_i = 2/m and eta(delta, m) for
    c_i = 1/m."""
    __tracebackhide__ = True
    check = Checker("mcdiarmid_deviation", mcdiarmid_deviation)
    for delta, c in mcdiarmid_cases():
        call = f"mcdiarmid_deviation({delta}, c={describe(c)})"
        value = float_answer(check.call(delta, c, label=call), call, "a deviation, a float")
        expected = mcdiarmid_deviation_reference(delta, c)

        def hint():
            found = explaining_mistake(mcdiarmid_deviation, mcdiarmid_cases(),
                                       _MCDIARMID_MISTAKES, mcdiarmid_deviation_reference)
            return found or "eps = sqrt(log(2 / delta) * sum_i c_i^2 / 2)."

        check.expect(close(value, expected),
                     f"{call} returned {describe(value)} but the deviation is "
                     f"{describe(expected)}.",
                     hint)
    for n in (100, 6000):
        for factor, multiple in ((2, 2.0), (1, 1.0)):
            call = f"mcdiarmid_deviation(0.01, c=[{factor}/{n}] * {n})"
            value = float_answer(check.call(0.01, np.full(n, factor / n), label=call), call,
                                 "a deviation, a float")
            check.expect(close(value, multiple * eta(n, 0.01)),
                         f"with c_i = {factor}/m and m = {n} the deviation should be "
                         f"{multiple:g} eta(0.01, m) = {describe(multiple * eta(n, 0.01))}, "
                         f"got {describe(value)}.",
                         "eps = sqrt(log(2 / delta) * sum_i c_i^2 / 2).")
    check.passed()
