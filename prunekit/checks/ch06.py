"""Checks for the exercises of Chapter 6: Rademacher penalties of prunings and k-REP.

Each ``check_*`` function takes the student's answer (a number or a function), runs it on fixed
cases and compares with the library: :func:`prunekit.rademacher_penalty`,
:func:`prunekit.rademacher.relabelled_leaf_errors`, :func:`prunekit.rademacher.min_plus_merge`,
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
from prunekit.checks import Checker, as_number, close, describe, fail
from prunekit.rademacher import draw_signs, min_plus_merge

__all__ = [
    "BY_HAND_LOSSES", "BY_HAND_SIGNS", "check_penalty_by_hand", "check_empirical_penalty",
    "check_flip", "check_relabelled_errors", "check_k_rep_table", "check_mcdiarmid_deviation",
    "empirical_penalty_reference", "relabelled_errors_reference", "k_rep_table_reference",
    "mcdiarmid_deviation_reference", "penalty_cases", "relabel_cases", "k_rep_cases",
]

# ---------------------------------------------------------------------- Exercise 6.1
BY_HAND_LOSSES = np.array([[1, 0, 0, 1, 0, 1],
                           [0, 0, 1, 1, 1, 0],
                           [1, 1, 0, 0, 0, 0]])
BY_HAND_SIGNS = np.array([1, -1, 1, 1, -1, -1])


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
        (float(np.abs(sums.mean()) / n), "take the maximum over the classifiers (the rows), "
                                         "not the mean."),
        (float(np.abs((1 - losses) @ signs).max() / n),
         "the losses are 1 where a classifier errs; you used the correct predictions instead."),
    ]


def check_penalty_by_hand(penalty_by_hand: Callable) -> None:
    """Check Exercise 6.1 (a), ``penalty_by_hand()``: it returns the penalty of the
    three-classifier class of the statement, worked out by hand."""
    __tracebackhide__ = True
    check = Checker("penalty_by_hand", penalty_by_hand)
    value = as_number(check.call(), "penalty_by_hand()", "the penalty, a number")
    expected = empirical_penalty_reference(BY_HAND_LOSSES, BY_HAND_SIGNS)
    if not close(value, expected, 1e-6):
        for wrong, hint in _penalty_variants(BY_HAND_LOSSES, BY_HAND_SIGNS):
            if close(value, wrong, 1e-6) and not close(wrong, expected, 1e-6):
                fail(f"penalty_by_hand() returned {describe(value)}, which is not the penalty "
                     "of the class.", hint)
        fail(f"penalty_by_hand() returned {describe(value)}, which is not the penalty of the "
             "class.", "for each classifier add sigma_i over the examples it gets wrong, divide by "
                       "m = 6, take absolute values and then the largest.")
    check.expect(True)
    check.passed()


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


def check_empirical_penalty(empirical_penalty: Callable) -> None:
    """Check Exercise 6.1 (b), ``empirical_penalty(losses, signs)``."""
    __tracebackhide__ = True
    check = Checker("empirical_penalty", empirical_penalty)
    for description, losses, signs in penalty_cases():
        call = f"empirical_penalty(losses={describe(losses.tolist())}, signs={describe(signs)})"
        value = as_number(check.call(losses, signs, label=call), call, "the penalty, a number")
        expected = empirical_penalty_reference(losses, signs)

        def hint(value=value, losses=losses, signs=signs):
            for wrong, text in _penalty_variants(losses, signs):
                right = empirical_penalty_reference(losses, signs)
                if close(value, wrong) and not close(wrong, right):
                    return text
            return "R_m = max over the rows h of |(1/m) sum_i signs[i] * losses[h, i]|."

        check.expect(close(value, expected),
                     f"{call} returned {describe(value)} but the penalty is {describe(expected)} "
                     f"({description}).", hint)
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
    """Check Exercise 6.2 (a), ``flip(y, signs)``: z for two classes {0, 1}."""
    __tracebackhide__ = True
    check = Checker("flip", flip)
    for description, _, y, signs in relabel_cases()[:4]:
        call = f"flip(y={describe(y)}, signs={describe(signs)})"
        z = np.asarray(check.call(y, signs, label=call))
        expected = np.where(signs == 1, 1 - y, y)
        if z.shape != y.shape:
            fail(f"{call} returned {describe(z)}; it should return one label per example.",
                 "return an array of the same length as y.")
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


def check_relabelled_errors(relabelled_errors: Callable) -> None:
    """Check Exercise 6.2 (b), ``relabelled_errors(predictions, y, signs)``."""
    __tracebackhide__ = True
    check = Checker("relabelled_errors", relabelled_errors)
    for description, predictions, y, signs in relabel_cases():
        call = (f"relabelled_errors(predictions={describe(predictions)}, y={describe(y)}, "
                f"signs={describe(signs)})")
        value = as_number(check.call(predictions, y, signs, label=call), call,
                          "a number of errors")
        expected = relabelled_errors_reference(predictions, y, signs)

        def hint(value=value, predictions=predictions, y=y, signs=signs):
            if value == relabelled_errors_reference(predictions, y, -signs):
                return ("you relabelled where sigma_i = -1; the complement class goes to the "
                        "examples with sigma_i = +1.")
            if value == int(np.sum(predictions != y)):
                return "you counted the ordinary errors; count them on the relabelled sample z."
            if value == int(np.sum((signs == 1) & (predictions == y))):
                return ("you counted only the examples with sigma_i = +1; those with sigma_i = -1 keep "
                        "their label y_i, and a prediction errs on them when it differs from y_i.")
            if value == int(np.sum((signs == 1) & (predictions != y))
                            + np.sum((signs == -1) & (predictions != y))):
                return ("on (x_i, complement of y_i) a prediction errs exactly when it equals y_i.")
            return ("count the examples with sigma_i = +1 and prediction == y_i, plus those with "
                    "sigma_i = -1 and prediction != y_i.")

        check.expect(close(value, expected),
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


def check_k_rep_table(k_rep_table: Callable) -> None:
    """Check Exercise 6.3, ``k_rep_table(left, right, leaf_growing, leaf_pruning, k)``."""
    __tracebackhide__ = True
    check = Checker("k_rep_table", k_rep_table)
    for description, left, right, leaf_growing, leaf_pruning, k in k_rep_cases():
        call = (f"k_rep_table(left={describe(left)}, right={describe(right)}, "
                f"leaf_growing={leaf_growing}, leaf_pruning={describe(leaf_pruning)}, k={k})")
        answer = np.asarray(check.call(left, right, leaf_growing, leaf_pruning, k, label=call),
                            dtype=float)
        expected = k_rep_table_reference(left, right, leaf_growing, leaf_pruning, k)
        if answer.shape != expected.shape:
            fail(f"{call} returned {describe(answer)}; it should return k + 1 = {k + 1} numbers, "
                 "one per budget 0, ..., k.", "start from np.full(k + 1, np.inf).")

        def hint(answer=answer, left=left, right=right, g=leaf_growing, e=leaf_pruning, k=k):
            merged = np.full(k + 1, np.inf) if left is None else min_plus_merge(left, right, k)
            if np.array_equal(answer, np.minimum(merged, e)):
                return ("the node as a leaf makes leaf_growing growing errors, so it is a "
                        "candidate only for budgets i >= leaf_growing.")
            if left is not None:
                if np.array_equal(answer, merged):
                    return ("you left out step 3: from budget leaf_growing on, the node as a leaf "
                            "(leaf_pruning errors) is a candidate too.")
                if g <= k and np.array_equal(answer[g:], np.minimum(merged[g:], e)):
                    return "below leaf_growing the table is the children's merge (step 2)."
            elif np.all(np.isinf(answer)) and g <= k:
                return ("a leaf of the tree has only step 3: leaf_pruning from budget "
                        "leaf_growing on.")
            return ("table[i] = min(min over u + v = i of left[u] + right[v], and leaf_pruning if "
                    "i >= leaf_growing).")

        check.expect(np.array_equal(answer, expected),
                     f"{call} returned {describe(answer)} but the table is {describe(expected)} "
                     f"({description}).", hint)
    check.passed()


# ---------------------------------------------------------------------- Exercise 6.4
def mcdiarmid_deviation_reference(delta: float, c) -> float:
    """The epsilon with exp(-2 epsilon^2 / sum c_i^2) = delta / 2."""
    c = np.asarray(c, dtype=float)
    return float(math.sqrt(math.log(2 / delta) * float(np.sum(c ** 2)) / 2))


def check_mcdiarmid_deviation(mcdiarmid_deviation: Callable) -> None:
    """Check Exercise 6.4 (b), ``mcdiarmid_deviation(delta, c)``, and the two deviations of
    Lemma 3's proof: 2 eta(delta, m) for c_i = 2/m and eta(delta, m) for c_i = 1/m."""
    __tracebackhide__ = True
    check = Checker("mcdiarmid_deviation", mcdiarmid_deviation)
    cases = [(0.05, np.array([1.0])), (0.01, np.array([0.5, 0.25, 0.25])),
             (0.1, np.full(10, 0.1)), (0.01, np.full(1000, 2 / 1000)),
             (0.01, np.full(1000, 1 / 1000)), (0.2, np.full(250, 2 / 250))]
    for delta, c in cases:
        call = f"mcdiarmid_deviation({delta}, c={describe(c)})"
        value = as_number(check.call(delta, c, label=call), call, "a deviation, a number")
        expected = mcdiarmid_deviation_reference(delta, c)
        total = float(np.sum(c ** 2))

        def hint(value=value, delta=delta, total=total):
            if close(value, math.sqrt(math.log(1 / delta) * total / 2)):
                return "each tail gets delta / 2, so the logarithm is log(2 / delta)."
            if close(value, math.sqrt(math.log(2 / delta) * total)):
                return "solve exp(-2 eps^2 / sum c_i^2) = delta / 2: the factor 2 divides."
            if close(value, math.sqrt(math.log(2 / delta) * total ** 0.5 / 2)):
                return "the denominator of the exponent is the sum of the squares c_i^2."
            return "eps = sqrt(log(2 / delta) * sum_i c_i^2 / 2)."

        check.expect(close(value, expected),
                     f"{call} returned {describe(value)} but the deviation is "
                     f"{describe(expected)}.",
                     hint)
    for n in (100, 6000):
        for factor, multiple in ((2, 2.0), (1, 1.0)):
            value = as_number(check.call(0.01, np.full(n, factor / n)), "mcdiarmid_deviation")
            check.expect(close(value, multiple * eta(0.01, n)),
                         f"with c_i = {factor}/m and m = {n} the deviation should be "
                         f"{multiple:g} eta(0.01, m) = {describe(multiple * eta(0.01, n))}, "
                         f"got {describe(value)}.")
    check.passed()
