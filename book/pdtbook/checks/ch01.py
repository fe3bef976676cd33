"""Checks for the exercises of Chapter 1: gains, threshold splits, the MDL bound, the template.

Each ``check_*`` function takes the student's function, runs it on fixed cases (hand-made
ones, edge cases, and seeded random ones) and compares the answers with the library:
:func:`prunekit.growing.gain`, :func:`prunekit.growing.best_threshold_split`,
:func:`prunekit.bounds.mdl` and :func:`prunekit.bottom_up_prune`. When an answer is wrong,
the usual mistakes are recomputed on the same case; if one of them reproduces the student's
answer, the hint names it.

All equations are from Shalev-Shwartz & Ben-David (2014), ch. 18.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from prunekit.bounds import mdl
from prunekit.datasets import make_boolean_dnf
from prunekit.bottom_up_pruning import bottom_up_prune
from prunekit.growing import best_threshold_split, gain, id3
from prunekit.tree import Tree

from pdtbook.checks import (
    Checker, close, describe, expect_close_float, explaining_mistake, fail, float_answer,
    mistake_variants,
)

__all__ = [
    "check_information_gain", "check_best_threshold", "check_mdl_bound", "check_tree_bounds",
    "check_template_choice", "explain_template_choice", "information_gain_cases",
    "best_threshold_cases", "mdl_bound_cases", "tree_bound_deltas", "tree_bound_cases",
    "template_options", "TEMPLATE_TIE_HINT", "SORT_ONCE_HINT", "TREE_BOUNDS_GIVEN_HINT",
]


# ---------------------------------------------------------------------- Exercise 1.1
def _c_entropy(a: float, log=math.log) -> float:
    if a <= 0.0 or a >= 1.0:
        return 0.0
    return -a * log(a) - (1.0 - a) * log(1.0 - a)


def _c_gini(a: float) -> float:
    return 2.0 * a * (1.0 - a)


def _c_train(a: float) -> float:
    return min(a, 1.0 - a)


def _sides(x: np.ndarray, y: np.ndarray):
    """(n, p, [(n_side, p_side, ones_side) for x_j = 1 and x_j = 0]), p_side None on an empty
    side."""
    n = len(y)
    sides = []
    for value in (1, 0):
        on = x == value
        n_side = int(on.sum())
        sides.append((n_side, float(y[on].mean()) if n_side else None, int(y[on].sum())))
    return n, float(y.mean()), sides


def _binary_gain(x, y, C=_c_entropy, weights="proportion", parent=True, children=True,
                 joint=False, sign=1) -> float:
    """Gain(S) for a binary feature, or one of its usual wrong variants (``sign=-1``: negated)."""
    n, p, sides = _sides(x, y)
    (n1, p1, o1), (n0, p0, o0) = sides
    terms = []
    for n_side, p_side, ones, other in ((n1, p1, o1, n0), (n0, p0, o0, n1)):
        if not n_side:
            continue
        weight = {"proportion": n_side / n, "counts": n_side, "none": 1.0, "half": 0.5,
                  "swapped": other / n}[weights]
        terms.append(weight * C(ones / n if joint else p_side))
    value = (C(p) if parent else 0.0) - (sum(terms) if children else 0.0)
    return -value if sign < 0 else value


LOG2_HINT = ("your value is 1/ln 2 ≈ 1.443 times the gain, so you used log2 (bits). This exercise "
             "uses the natural logarithm: np.log.")

_GAIN_MISTAKES = [
    (dict(C=lambda a: _c_entropy(a, math.log2)), LOG2_HINT),
    (dict(C=lambda a: _c_entropy(a, math.log10)),
     "your value is ln 10 ≈ 2.303 times too small: you used log10; use the natural logarithm, "
     "np.log."),
    (dict(weights="none"),
     "it looks as if you subtracted C on each side without weighting: multiply each side's "
     "C by the fraction of examples on that side, P_S[x_j = 1] and P_S[x_j = 0]."),
    (dict(weights="half"),
     "it looks as if you averaged the two sides' C with equal weights 1/2: weight each side "
     "by the fraction of examples on it, P_S[x_j = 1] and P_S[x_j = 0]."),
    (dict(weights="counts"),
     "it looks as if you weighted each side by its number of examples: use the fraction "
     "of examples on that side, P_S[x_j = 1] = (number with x_j = 1) / m."),
    (dict(weights="swapped"),
     "the weights are swapped: C(P_S[y = 1 | x_j = 1]) is weighted by P_S[x_j = 1], the "
     "fraction of examples with x_j = 1 (and likewise for x_j = 0)."),
    (dict(joint=True),
     "P_S[y = 1 | x_j = 1] is a conditional probability: the fraction of label 1 among the "
     "examples with x_j = 1, not among all m examples (and likewise for x_j = 0)."),
    (dict(parent=False),
     "you returned minus the weighted entropy after the split; the gain subtracts it from "
     "the entropy before the split, C(P_S[y = 1])."),
    (dict(parent=False, sign=-1),
     "you returned the weighted entropy after the split; the gain is the entropy before "
     "the split, C(P_S[y = 1]), minus that."),
    (dict(children=False),
     "you returned the entropy before the split, C(P_S[y = 1]); subtract the weighted "
     "entropy of the two sides from it."),
    (dict(sign=-1),
     "the sign is reversed: the gain is C before the split minus the weighted C after it."),
    (dict(C=_c_gini),
     "this is the gain for the Gini index C(a) = 2a(1 - a); the information gain uses the "
     "entropy C(a) = -a log a - (1 - a) log(1 - a)."),
    (dict(C=_c_train),
     "this is the train-error gain C(a) = min(a, 1 - a); the information gain uses the "
     "entropy C(a) = -a log a - (1 - a) log(1 - a)."),
]


def information_gain_cases() -> list[tuple[str, np.ndarray, np.ndarray]]:
    """The cases of :func:`check_information_gain`: (description, x, y)."""
    a = np.array
    rng = np.random.default_rng(2014)
    x_random = rng.integers(0, 2, size=100)
    y_random = (x_random ^ (rng.random(100) < 0.3)).astype(np.int64)
    return [
        ("a small sample", a([1, 1, 1, 1, 0, 0, 0, 0, 0, 0]), a([1, 1, 1, 0, 0, 0, 0, 0, 1, 1])),
        ("a feature that predicts y perfectly", a([0, 0, 1, 1, 1]), a([0, 0, 1, 1, 1])),
        ("a feature independent of y", a([0, 1, 0, 1]), a([0, 0, 1, 1])),
        ("a pure sample (every label is 1)", a([0, 1, 1, 0, 1]), a([1, 1, 1, 1, 1])),
        ("an empty side (no example has x_j = 1)", a([0, 0, 0, 0]), a([0, 1, 1, 0])),
        ("an empty side (no example has x_j = 0)", a([1, 1, 1]), a([1, 0, 0])),
        ("two examples, one of each class", a([0, 1]), a([0, 1])),
        ("a seeded random sample of m = 100", x_random, y_random),
    ]


def check_information_gain(information_gain: Callable) -> None:
    """Check Exercise 1.1, ``information_gain(x, y)``, against :func:`prunekit.growing.gain`."""
    __tracebackhide__ = True
    check = Checker("information_gain", information_gain)
    for description, x, y in information_gain_cases():
        expect_close_float(check, (x, y), f"information_gain(x={describe(x)}, y={describe(y)})",
                           "the gain, a float", _reference_gain, "the gain", description,
                           lambda value: _information_gain_hint(value, x, y, information_gain))
    check.passed()


def _reference_gain(x, y) -> float:
    left = np.bincount(y[x == 0], minlength=2)
    right = np.bincount(y[x == 1], minlength=2)
    return float(gain(left, right, "entropy"))


def _information_gain_hint(value: float, x, y, student: Callable) -> str:
    if math.isnan(value):
        if not (x == 1).any() or not (x == 0).any():
            return ("one side of the split is empty here. Its weight P_S[x_j = ...] is 0 and it "
                    "contributes nothing, but P_S[y = 1 | x_j = ...] on an empty side divides 0 "
                    "by 0: skip a side that has no examples.")
        return ("C(0) = C(1) = 0 by the convention 0 log 0 = 0, but np.log(0) is -inf and "
                "0 * -inf is nan: return 0 for a = 0 and a = 1 before taking logarithms.")
    if math.isinf(value):
        return "a logarithm of 0 slipped through: C(0) = C(1) = 0 (the convention 0 log 0 = 0)."
    cases = [(x_, y_) for _, x_, y_ in information_gain_cases()]
    hint = explaining_mistake(student, cases, mistake_variants(_binary_gain, _GAIN_MISTAKES),
                              _reference_gain)
    if hint is not None:
        return hint
    return ("compute p = P_S[y = 1], the fraction q = P_S[x_j = 1], and the label proportions "
            "p1 = P_S[y = 1 | x_j = 1], p0 = P_S[y = 1 | x_j = 0]; the gain is "
            "C(p) - (q C(p1) + (1 - q) C(p0)) with the natural logarithm.")


# ---------------------------------------------------------------------- Exercise 1.2
LARGE_M = 1_000_000
"""Size of the largest case of Exercise 1.2: a sort-once scan takes about a second on it, one
pass over the sample per threshold about m times longer (weeks in pure Python, tens of minutes
with NumPy), far beyond the check's time limit."""

SORT_ONCE_HINT = ("sort once, then get the class counts on both sides of every boundary from one "
                  "cumulative sum (np.cumsum) of the sorted labels. Recomputing the sides over "
                  "the whole sample for every threshold makes best_threshold quadratic in m: "
                  "about a million passes over a million examples here.")


def best_threshold_cases() -> list[tuple[str, np.ndarray, np.ndarray]]:
    """The cases of :func:`check_best_threshold`: (description, x, y)."""
    a = np.array
    rng = np.random.default_rng(18)
    x_normal = rng.normal(size=50)
    y_normal = ((x_normal + 0.8 * rng.normal(size=50)) > 0.2).astype(np.int64)
    x_ties = rng.integers(0, 20, size=300) / 4.0
    y_ties = ((x_ties + rng.normal(scale=1.5, size=300)) > 2.0).astype(np.int64)
    x_rounded = np.round(rng.normal(size=20_000), 3)
    y_rounded = ((x_rounded + rng.normal(size=20_000)) > 0.3).astype(np.int64)
    x_large = rng.normal(size=LARGE_M)
    y_large = ((x_large + rng.normal(size=LARGE_M)) > 0.3).astype(np.int64)
    return [
        ("a sample with a perfect split", a([3.0, 1.0, 6.0, 4.0, 2.0, 5.0]), a([0, 0, 1, 1, 0, 1])),
        ("a sample without a perfect split", a([0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5]),
         a([0, 0, 1, 0, 1, 1, 1, 0])),
        ("duplicated feature values", a([1.0, 2.0, 2.0, 2.0, 2.0, 3.0, 3.0]),
         a([0, 0, 0, 1, 1, 1, 1])),
        ("a pure sample (every label is 1; all gains are 0)", a([0.3, 0.1, 0.2, 0.4]),
         a([1, 1, 1, 1])),
        ("a constant feature (every split leaves one side empty)", a([2.0, 2.0, 2.0]),
         a([0, 1, 1])),
        ("a single example", a([1.0]), a([1])),
        ("two examples, one of each class", a([1.0, 0.0]), a([0, 1])),
        ("two thresholds tie for the best gain", a([5.0, 2.0, 6.0, 3.0, 1.0, 4.0]),
         a([0, 0, 0, 1, 0, 1])),
        ("a seeded random sample of m = 50", x_normal, y_normal),
        ("a seeded random sample of m = 300 with many equal values", x_ties, y_ties),
        ("a seeded random sample of m = 20000 with many equal values", x_rounded, y_rounded),
        (f"a seeded random sample of m = {LARGE_M:,} distinct values", x_large, y_large),
    ]


def _gini_gain_at(x, y, threshold, C=_c_gini, weights="proportion") -> float:
    side = (x <= threshold).astype(np.int64)
    return _binary_gain(1 - side, y, C, weights)  # x <= threshold is the "x = 0" side


def check_best_threshold(best_threshold: Callable, time_limit: float = 30.0) -> None:
    """Check Exercise 1.2, ``best_threshold(x, y)``, against
    :func:`prunekit.growing.best_threshold_split` with the Gini measure.

    The last case has ``LARGE_M`` = one million distinct values. A sort-once implementation
    handles it in about a second with NumPy (a few seconds in a pure-Python loop after the
    sort); a scan that passes over the sample once per threshold needs about a million passes,
    tens of minutes even with NumPy. A call still running after ``time_limit`` seconds (or
    running out of memory) is stopped and gets :data:`SORT_ONCE_HINT`: the gap between the two
    is so wide that the outcome does not depend on the machine.
    """
    __tracebackhide__ = True
    check = Checker("best_threshold", best_threshold)
    for description, x, y in best_threshold_cases():
        call = f"best_threshold(x={describe(x)}, y={describe(y)})"
        answer = check.call(x, y, label=call, seconds=time_limit if len(x) > 1000 else None,
                            slow_hint=SORT_ONCE_HINT)
        threshold, value = _unpack_threshold_answer(answer, call)
        split = best_threshold_split(x[:, None], y, "gini")
        where = f" ({description})"
        if split.feature < 0:
            check.expect(
                threshold is None and close(value, 0.0),
                f"{call} returned {describe((threshold, value))} but no threshold separates this "
                f"sample: the answer is (None, 0.0){where}.",
                "with fewer than two distinct values there is no boundary between distinct "
                "values, hence no split: return (None, 0.0).")
            continue
        if threshold is None:
            fail(f"{call} returned (None, ...) but the best threshold is {describe(split.threshold)} "
                 f"with gain {describe(split.gain)}{where}.",
                 "return None only when all values of x are equal.")
        check.expect(
            close(value, split.gain),
            f"{call} returned gain {describe(value)} but the best gain is {describe(split.gain)}, "
            f"at threshold {describe(split.threshold)}{where}.",
            lambda: _threshold_gain_hint(x, y, threshold, value, split, best_threshold))
        _check_threshold(x, y, threshold, split, call, where)
    check.passed()


def _unpack_threshold_answer(answer, call):
    __tracebackhide__ = True
    if not isinstance(answer, tuple) or len(answer) != 2:
        fail(f"{call} returned {describe(answer)}; it should return a pair (threshold, gain).",
             "end your function with  return threshold, gain")
    threshold, value = answer
    value = float_answer(value, call, "a pair (threshold, gain) with a float as gain")
    if threshold is not None:
        threshold = float_answer(threshold, call,
                                 "a pair (threshold, gain) with a float or None as threshold")
    return threshold, value


def _best_over_all_boundaries(x, y) -> float:
    """The best Gini gain when every boundary between consecutive sorted examples counts,
    between equal values too (the gain such a scan reports, not a real split's)."""
    ys = y[np.argsort(x, kind="stable")].astype(float)
    m = len(ys)
    n_left = np.arange(1, m)
    ones_left = np.cumsum(ys)[:-1]
    gains = _c_gini(ys.mean()) - (n_left * _c_gini(ones_left / n_left)
                                  + (m - n_left) * _c_gini((ys.sum() - ones_left) / (m - n_left))) / m
    return float(gains.max())


def _scan_gain(x, y, C=_c_gini, labels: str = "sorted", counts: str = "before") -> float | None:
    """The best gain over the boundaries between consecutive distinct sorted values, as a
    sort-once scan computes it, or as one of its usual slips computes it: ``labels="unsorted"``
    sorts the values but not the labels with them; ``counts="through"`` counts the ones left
    of the boundary after sorted position i with np.cumsum(...)[1:], one example too far."""
    order = np.argsort(x, kind="stable")
    xs = x[order]
    ys = (y[order] if labels == "sorted" else y).astype(float)
    m = len(ys)
    valid = xs[1:] > xs[:-1]
    if not valid.any():
        return None
    n_left = np.arange(1, m)
    cumulative = np.cumsum(ys)
    ones_left = cumulative[:-1] if counts == "before" else cumulative[1:]
    C = np.vectorize(C, otypes=[float])
    with np.errstate(all="ignore"):
        gains = C(ys.mean()) - (n_left * C(ones_left / n_left)
                                + (m - n_left) * C((ys.sum() - ones_left) / (m - n_left))) / m
    return float(gains[valid].max())


_THRESHOLD_GAIN_MISTAKES = [
    (dict(C=_c_entropy),
     "this is the information gain (entropy); this exercise asks for the Gini index, "
     "C(a) = 2a(1 - a)."),
    (dict(C=lambda a: a * (1.0 - a)),
     "your gain is half the right one: the Gini index is C(a) = 2a(1 - a), with the factor 2."),
    (dict(labels="unsorted"),
     "the labels were not reordered with the values: after order = np.argsort(x), take "
     "ys = y[order], so that the cumulative sum counts the labels of the examples that are "
     "left of each boundary in sorted order."),
    (dict(counts="through"),
     "the class counts are one example off: the boundary after sorted position i sends the "
     "i + 1 examples 0, ..., i left, which hold np.cumsum(ys)[i] ones, so the counts for "
     "i = 0, ..., m - 2 are np.cumsum(ys)[:-1], not np.cumsum(ys)[1:]."),
]


def _threshold_gain_mistake(student: Callable) -> str | None:
    """The hint of the slip in the scan that gives the student's gains on every small case."""
    cases = [(x, y) for _, x, y in best_threshold_cases() if len(x) <= 1000]

    def gains(x, y):
        answer = student(x, y)
        return float(answer[1]) if isinstance(answer, tuple) and len(answer) == 2 else None

    return explaining_mistake(gains, cases,
                              mistake_variants(_scan_gain, _THRESHOLD_GAIN_MISTAKES), _scan_gain)


def _threshold_gain_hint(x, y, threshold, value, split, student: Callable) -> str:
    if math.isnan(value):
        return ("a nan usually comes from 0/0: a side with no examples. Score only the m - 1 "
                "boundaries between consecutive sorted examples, where both sides are non-empty.")
    if len(np.unique(x)) < len(x) and close(value, _best_over_all_boundaries(x, y), 1e-6):
        return ("your gain is larger than any real split can give. A threshold between two equal "
                "values is not a split: x <= theta sends all copies of a value to the same side. "
                "Score only the boundaries between consecutive distinct values.")
    hint = _threshold_gain_mistake(student)
    if hint is not None:
        return hint
    for weights, hint in (
        ("none", "it looks as if the two sides' C were not weighted: multiply each by the "
                 "fraction of examples on that side."),
        ("half", "it looks as if the two sides' C were averaged with weights 1/2: weight each "
                 "side by the fraction of examples on it."),
        ("counts", "it looks as if each side's C was weighted by its number of examples: "
                   "divide by m to use the fraction of examples on that side."),
    ):
        if close(value, _gini_gain_at(x, y, threshold, weights=weights), 1e-6):
            return hint
    return ("after sorting, the boundary after sorted position i (i = 0, ..., m - 2) sends the "
            "first i + 1 examples left; a cumulative sum of the sorted labels gives the number "
            "of 1s on the left for every i at once, and the gain of each boundary follows.")


def _literal_threshold(x, y) -> float:
    """The threshold that ``np.argmax`` picks when the gains are computed with the formula of
    Exercise 1.1 as written, C(p) - (q C(p1) + (1 - q) C(p0)) with q the fraction of examples
    on the left.

    Thresholds whose gains tie exactly can differ in the last bit once computed this way (1 - q
    rounds), so ``np.argmax`` may pick another of them than the library, which computes with
    counts; both are the smallest best threshold of their own floating-point gains, and the
    library itself counts gains within 1e-12 of the best as tied
    (:func:`prunekit.growing.best_threshold_split`'s ``n_best``).
    """
    order = np.argsort(x, kind="stable")
    xs, ys = x[order], y[order].astype(float)
    m = len(xs)
    n_left = np.arange(1, m)
    ones_left = np.cumsum(ys)[:-1]
    q = n_left / m
    gains = _c_gini(ys.mean()) - (q * _c_gini(ones_left / n_left)
                                  + (1 - q) * _c_gini((ys.sum() - ones_left) / (m - n_left)))
    gains = np.where(xs[1:] > xs[:-1], gains, -np.inf)
    i = int(np.argmax(gains))
    return float((xs[i] + xs[i + 1]) / 2)


def _check_threshold(x, y, threshold, split, call, where) -> None:
    """Fail unless ``threshold`` is the library's (up to rounding), with a diagnosis."""
    __tracebackhide__ = True
    best = split.threshold
    if close(threshold, best, 1e-12):
        return
    xs = np.unique(x)
    k = int(np.searchsorted(xs, best, side="right"))   # xs[k - 1] <= best < xs[k]
    low, high = xs[k - 1], xs[k]
    what = (f"{call} returned threshold {describe(threshold)} but the best threshold is "
            f"{describe(best)}{where}.")
    if np.array_equal(x <= threshold, x <= best):
        if threshold in (low, high):
            fail(what, f"your threshold is on a data point ({describe(threshold)}); put it halfway "
                       f"between the two consecutive distinct values, ({describe(low)} + "
                       f"{describe(high)}) / 2.")
        fail(what, f"your threshold splits the sample correctly but is not halfway between "
                   f"{describe(low)} and {describe(high)}: return their midpoint.")
    own_gain = _gini_gain_at(x, y, threshold)
    if split.n_best > 1 and close(own_gain, split.gain):
        if close(threshold, _literal_threshold(x, y), 1e-12):
            return
        fail(what, "several thresholds reach the best gain here; return the smallest of them.")
    if np.count_nonzero(x == threshold) > 1:
        fail(what, "your threshold equals a value that occurs several times: a boundary between "
                   "equal values is not a split. Score only the boundaries between consecutive "
                   "distinct values.")
    fail(what, f"your threshold gives the gain {describe(own_gain)}. Check the indices: the "
               f"boundary after sorted position i sends sorted positions 0, ..., i to the left, "
               f"and its threshold is halfway between sorted values i and i + 1.")


# ---------------------------------------------------------------------- Exercise 1.3
def mdl_bound_cases() -> list[tuple[float, int, int, int, float]]:
    """The cases of :func:`check_mdl_bound`: (train_error, n_nodes, n_features, n_samples, delta)."""
    return [
        (0.1, 7, 10, 300, 0.05),
        (0.0, 1, 1, 1, 0.5),
        (0.25, 15, 4, 1000, 0.01),
        (0.02, 135, 10, 300, 0.05),
        (0.0, 3, 2, 1_000_000, 0.1),
    ]


def _mdl_formula(e, n, d, m, delta, nodes=lambda n: n + 1, bits=lambda d: math.log2(d + 3),
                 conf=lambda delta: math.log(2 / delta), denominator=lambda m: 2 * m,
                 root=math.sqrt, with_error=True) -> float:
    return (e if with_error else 0.0) + root((nodes(n) * bits(d) + conf(delta)) / denominator(m))


_MDL_MISTAKES = [
    (dict(nodes=lambda n: n),
     "the description length of a tree with n nodes is (n + 1) log2(d + 3) bits: you used n "
     "instead of n + 1 (the extra symbol ends the code)."),
    (dict(bits=lambda d: math.log(d + 3)),
     "the description length is in bits, (n + 1) log2(d + 3): use log2 there (only log(2/delta) "
     "is a natural logarithm)."),
    (dict(conf=lambda delta: math.log2(2 / delta)),
     "log(2/delta) in eq. (18.1) is the natural logarithm; only the description length uses log2."),
    (dict(conf=lambda delta: math.log(1 / delta)),
     "the confidence term is log(2/delta), with a 2."),
    (dict(bits=lambda d: math.log2(d)),
     "each node is one of d + 3 symbols (d features, leaf 0, leaf 1, end of code): log2(d + 3)."),
    (dict(bits=lambda d: math.log2(d + 2)),
     "each node is one of d + 3 symbols (d features, leaf 0, leaf 1, end of code): log2(d + 3)."),
    (dict(denominator=lambda m: m),
     "the denominator under the square root is 2m."),
    (dict(root=lambda v: v),
     "the complexity term is a square root: sqrt(((n + 1) log2(d + 3) + log(2/delta)) / (2m))."),
    (dict(with_error=False),
     "the bound starts with the training error: L_S(h) + sqrt(...)."),
]


def _mdl_hint(student: Callable) -> str:
    hint = explaining_mistake(student, mdl_bound_cases(),
                              mistake_variants(_mdl_formula, _MDL_MISTAKES), mdl)
    if hint is not None:
        return hint
    return ("eq. (18.1): L_S(h) + sqrt(((n + 1) log2(d + 3) + log(2/delta)) / (2m)), with np.log2 "
            "for the bits and the natural logarithm np.log for log(2/delta).")


def check_mdl_bound(mdl_bound: Callable) -> None:
    """Check Exercise 1.3, ``mdl_bound(train_error, n_nodes, n_features, n_samples, delta)``,
    against :func:`prunekit.bounds.mdl` (eq. (18.1))."""
    __tracebackhide__ = True
    check = Checker("mdl_bound", mdl_bound)
    for args in mdl_bound_cases():
        expect_close_float(check, args, f"mdl_bound{describe(args)}", "the bound, a float",
                           mdl, "the bound", hint=lambda value: _mdl_hint(mdl_bound))
    check.passed()


def tree_bound_deltas() -> list[float | None]:
    """The confidences :func:`check_tree_bounds` asks for on the exercise's own sample; ``None``
    calls ``tree_bounds`` without ``delta``, so with its default, 0.05."""
    return [None, 0.01, 0.3]


def tree_bound_cases(X, y) -> list[tuple[str, Tree, Tree, np.ndarray, np.ndarray, float | None]]:
    """The cases of :func:`check_tree_bounds`: (description, full_tree, shallow_tree, X, y,
    delta), ``delta`` ``None`` for the default.

    First the exercise's trees (``prunekit.id3(X, y)`` and its depth-2 version) on its sample
    ``(X, y)``, at the confidences of :func:`tree_bound_deltas`; then trees grown on two other
    seeded samples (other m, d and noise), so that an answer must use the trees and the sample
    it is given.
    """
    X, y = np.asarray(X), np.asarray(y)
    cases = [("the exercise's trees and sample", id3(X, y), id3(X, y, max_depth=2), X, y, delta)
             for delta in tree_bound_deltas()]
    for m, d, noise, seed, depth, delta in ((200, 6, 0.2, 3, 1, 0.1), (500, 12, 0.1, 1, 3, None)):
        X_other, y_other = make_boolean_dnf(m, n_features=d, noise=noise, random_state=seed)
        cases.append((f"a full tree and a depth-{depth} tree grown on another sample",
                      id3(X_other, y_other), id3(X_other, y_other, max_depth=depth),
                      X_other, y_other, delta))
    return cases


def _bound(tree: Tree, X, y, delta: float) -> float:
    return mdl(tree.error(X, y), tree.n_nodes, X.shape[1], len(X), delta)


def check_tree_bounds(tree_bounds: Callable, X, y, mdl_bound: Callable | None = None) -> None:
    """Check the second part of Exercise 1.3: ``tree_bounds(full_tree, shallow_tree, X, y,
    delta=0.05)`` returns the MDL bounds (eq. (18.1), confidence ``delta``) of the two trees on
    the sample ``(X, y)``, as a pair of floats.

    It is called on the cases of :func:`tree_bound_cases`: the exercise's trees (grown on
    ``(X, y)``) with the default and other confidences, then trees grown on other samples. The
    expected bounds come from :func:`prunekit.bounds.mdl`. An answer that gives the bounds of the
    exercise's trees on its sample whatever it is given (sizes and errors copied from the
    printout, or the notebook's variables read) is reported as such; with the student's
    ``mdl_bound``, a mismatch caused by it is reported as such.
    """
    __tracebackhide__ = True
    check = Checker("tree_bounds", tree_bounds)
    cases = tree_bound_cases(X, y)
    _, own_full, own_shallow, own_X, own_y, _ = cases[0]
    for description, full, shallow, X_case, y_case, delta in cases:
        m, d = X_case.shape
        own = description == cases[0][0]
        shown = ("full_tree, shallow_tree, X, y" if own else
                 f"<full tree>, <depth-{shallow.max_depth} tree>, <X: m = {m}, d = {d}>, <y>")
        if delta is not None:
            shown += f", delta={delta:g}"
        call = f"tree_bounds({shown})"
        args = (full, shallow, X_case, y_case)
        answer = (check.call(*args, label=call) if delta is None
                  else check.call(*args, delta=delta, label=call))
        delta = 0.05 if delta is None else delta
        expected = [_bound(t, X_case, y_case, delta) for t in (full, shallow)]
        if not isinstance(answer, tuple) or len(answer) != 2:
            fail(f"{call} returned {describe(answer)}; it should return a pair "
                 "(bound of full_tree, bound of shallow_tree).",
                 "end your function with  return full_bound, shallow_bound")
        values = [float_answer(v, call, "a pair of floats") for v in answer]
        where = "" if own else f" ({description})"
        if close(values[0], expected[1]) and close(values[1], expected[0]):
            fail(f"{call} returned {describe(tuple(values))} but the bounds are "
                 f"{describe(tuple(expected))}{where}.",
                 "the two bounds are swapped: return the full tree's first.")
        if not own and _uses_own_case(values, (own_full, own_shallow), (own_X, own_y),
                                      (full, shallow), (X_case, y_case), delta):
            fail(f"{call} returned {describe(tuple(values))} but the bounds are "
                 f"{describe(tuple(expected))}{where}.", TREE_BOUNDS_GIVEN_HINT)
        for value, right, name, tree in zip(values, expected, ("full_tree", "shallow_tree"),
                                            (full, shallow)):
            e, n = tree.error(X_case, y_case), tree.n_nodes
            check.expect(
                close(value, right),
                f"{call} returned {describe(value)} for {name} but its bound is "
                f"{describe(right)} ({name} has {n} nodes and training error {describe(e)} on "
                f"m = {m} examples with d = {d} features, delta = {delta:g}){where}.",
                lambda: _tree_bound_hint(value, tree, e, m, d, delta, mdl_bound))
    check.passed()


TREE_BOUNDS_GIVEN_HINT = ("these are the bounds of the exercise's full_tree and shallow_tree on "
                          "its sample, but the call passed other trees and another sample. The "
                          "answer must use the trees and the sample it is given: compute the "
                          "sizes and errors from the arguments (tree.n_nodes, tree.error(X, y), "
                          "X.shape) instead of copying the printed ones or reading the notebook's "
                          "variables.")


def _uses_own_case(values, own_trees, own_sample, trees, sample, delta) -> bool:
    """Whether the answers are the bounds of the exercise's trees on its sample instead of those
    of the trees and sample given. (A tree applied to a sample with another number of features
    raises in the library, which the check reports as it is.)"""
    own = [_bound(t, *own_sample, delta) for t in own_trees]
    right = [_bound(t, *sample, delta) for t in trees]
    return (all(close(v, w, 1e-6) for v, w in zip(values, own))
            and not all(close(v, w, 1e-6) for v, w in zip(values, right)))


def _tree_bound_hint(value, tree, e, m, d, delta, mdl_bound) -> str:
    n = tree.n_nodes
    if close(value, _mdl_formula(e, tree.n_leaves, d, m, delta), 1e-6):
        return "n in eq. (18.1) counts all the nodes of the tree (tree.n_nodes), not only its leaves."
    if close(value, _mdl_formula(e * m, n, d, m, delta), 1e-6):
        return "L_S(h) is an error rate (tree.error(X, y)), not a number of errors."
    if close(value, _mdl_formula(e, tree.max_depth, d, m, delta), 1e-6):
        return "n in eq. (18.1) is the number of nodes (tree.n_nodes), not the depth."
    if delta != 0.05 and close(value, mdl(e, n, d, m, 0.05), 1e-9):
        return ("this is the bound for delta = 0.05, but the call asked for another delta: pass "
                "the argument delta on to mdl_bound.")
    if mdl_bound is not None:
        try:
            mismatch = not close(float(mdl_bound(e, n, d, m, delta)), mdl(e, n, d, m, delta))
        except Exception:
            mismatch = True
        if mismatch:
            return "your mdl_bound does not agree with eq. (18.1) yet: make it pass its check first."
    return ("use the tree's number of nodes tree.n_nodes, its training error tree.error(X, y), "
            "d = X.shape[1], m = len(X) and the argument delta.")


# ---------------------------------------------------------------------- Exercise 1.4
TEMPLATE_TIE_HINT = ("your option ties with another one (same f, same number of nodes), and the "
                     "statement breaks such ties by the order leaf 0, leaf 1, left subtree, right "
                     "subtree, keep: take the first of the tied options in that order.")


def _template_steps(tree: Tree, X, y, penalty: float):
    def objective(train_error, n_nodes):
        return train_error + penalty * n_nodes

    _, steps = bottom_up_prune(tree, X, y, objective=objective, return_steps=True)
    return steps


def template_options(tree: Tree) -> list[str]:
    """The five options of the template at an internal node, in the statement's order."""
    return _template_options(tree)


def check_template_choice(template_choice: Callable, tree: Tree, X, y,
                          penalty: float = 0.01) -> None:
    """Check Exercise 1.4: ``template_choice(node)`` is the option the generic pruning
    template takes at each internal node of ``tree``.

    The template (Shalev-Shwartz & Ben-David 2014, Sec. 18.2.2) runs with
    f(T') = L_S(T') + penalty * |T'| on the sample ``(X, y)``; the expected answers are the
    steps of :func:`prunekit.bottom_up_prune`. The nodes are asked in the order of the walk.
    Ties are broken as the statement says: fewer nodes first, then the order of
    :func:`template_options`. A wrong answer gets a hint about its mistake, not the worked
    options (they give the answer away): :func:`explain_template_choice` prints those.
    """
    __tracebackhide__ = True
    check = Checker("template_choice", template_choice)
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    steps = _template_steps(tree, X, y, penalty)
    options = _template_options(tree)
    for step in steps:
        node = step.node
        call = f"template_choice({node})"
        answer = check.call(node, label=call)
        normalized = " ".join(answer.lower().split()) if isinstance(answer, str) else None
        if normalized not in options:
            fail(f"{call} returned {describe(answer)}; it should return one of "
                 f"{', '.join(repr(o) for o in options)}.",
                 'return the option as a string, e.g.  return "keep"')
        rows, _, _ = _template_rows(tree, X, y, steps, node, penalty)
        chosen = next(r for r in rows if r[3] == step.choice)
        check.expect(
            normalized == step.choice,
            f"{call} returned {answer!r}, which is not the option the template takes at node "
            f"{node}. (explain_template_choice, called with the tree, X and y of this check, "
            f"prints the five options worked out at every node, and with them the answers.)",
            lambda: _template_hint(rows, normalized, chosen, len(y), penalty))
    check.passed()


def explain_template_choice(tree: Tree, X, y, penalty: float = 0.01,
                            node: int | None = None) -> None:
    """Print the worked solution of Exercise 1.4: at every internal node on the walk (or at
    ``node`` only), the current tree's size and errors and f for each of the five options,
    with the template's choice marked."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    steps = _template_steps(tree, X, y, penalty)
    for step in steps:
        if node is not None and step.node != node:
            continue
        rows, size, errors = _template_rows(tree, X, y, steps, step.node, penalty)
        print(f"node {step.node}: the current tree has {_plural(size, 'node')} and makes "
              f"{_plural(errors, 'training error')} on the m = {len(y)} examples.")
        print(_format_rows(rows, step.choice, len(y), penalty))


def _template_hint(rows, answer: str, chosen, m: int, penalty: float) -> str:
    mine = next(r for r in rows if r[3] == answer)
    f_mine, nodes_mine, _, _, errors_mine = mine
    f_best, nodes_best, _, option_best, errors_best = chosen
    if close(f_mine, f_best, 1e-12) and nodes_mine == nodes_best:
        return TEMPLATE_TIE_HINT
    if close(f_mine, f_best, 1e-12):
        return ("your option has the same f as an option with fewer nodes; the statement breaks "
                "ties in f towards the tree with fewer nodes.")
    if answer == "keep" and option_best.endswith("subtree") and errors_mine > errors_best:
        return ("replacing a node by one of its subtrees sends all the examples that reach the "
                "node through that subtree: count its errors on all of them, not only on the "
                "examples that reached it before.")
    if errors_mine == errors_best and nodes_mine > nodes_best:
        return ("another option makes as many training errors as yours with fewer nodes, and f "
                "charges for every node.")
    if errors_mine > errors_best and nodes_mine < nodes_best:
        return (f"your option saves nodes, but the training errors it adds cost more: each "
                f"error adds 1/m = 1/{m} to f, each node only {penalty:g}.")
    return ("work on the tree the previous steps left: for each of the five options, f = "
            "(its errors on all the examples) / m + "
            f"{penalty:g} × (the nodes of the whole tree it gives).")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _template_options(tree: Tree) -> list[str]:
    return [f"leaf {c}" for c in tree.classes_.tolist()] + ["left subtree", "right subtree", "keep"]


def _template_rows(tree: Tree, X, y, steps, node: int, penalty: float):
    """Objective of every option of the template at ``node``, given the steps taken before it.

    Replays ``steps`` (from :func:`prunekit.bottom_up_prune`) up to ``node`` on a copy of the
    tree, then evaluates each option, f = L_S + penalty * n_nodes, on the whole sample.

    Returns
    -------
    rows : list of (f, n_nodes, order, option, n_errors)
    n_nodes, n_errors : int
        Size and training errors of the current tree when the walk reaches ``node``.
    """
    codes = np.searchsorted(tree.classes_, y)
    state = _SmallTree(tree)
    for step in steps:
        if step.node == node:
            break
        state = state.replaced(step.node, step.choice)
    m = len(y)
    rows = []
    for order, option in enumerate(_template_options(tree)):
        other = state.replaced(node, option)
        n_nodes, n_errors = other.size(), other.errors(X, codes)
        rows.append((n_errors / m + penalty * n_nodes, n_nodes, order, option, n_errors))
    return rows, state.size(), state.errors(X, codes)


def _format_rows(rows, chosen: str, m: int, penalty: float) -> str:
    return "\n".join(
        f"  {option:<14}{_plural(n_errors, 'error') + ',':<11}{_plural(n_nodes, 'node') + ':':<10}"
        f"f = {n_errors}/{m} + {penalty:g} × {n_nodes} = {value:.4f}"
        + ("   <- the template's choice" if option == chosen else "")
        for value, n_nodes, _, option, n_errors in rows)


class _SmallTree:
    """The template's current tree over the original node indices (for short explanations)."""

    def __init__(self, tree: Tree, left=None, right=None, labels=None, root: int = 0):
        self.tree = tree
        self.left = list(tree.left.tolist() if left is None else left)
        self.right = list(tree.right.tolist() if right is None else right)
        self.labels = list(tree.labels.tolist() if labels is None else labels)
        self.root = root

    def replaced(self, j: int, option: str) -> "_SmallTree":
        """The tree after the template's ``option`` at node ``j``."""
        left, right, labels, root = list(self.left), list(self.right), list(self.labels), self.root
        leaves = {f"leaf {c}": k for k, c in enumerate(self.tree.classes_.tolist())}
        if option in leaves:
            left[j] = right[j] = -1
            labels[j] = leaves[option]
        elif option in ("left subtree", "right subtree"):
            child = (left if option == "left subtree" else right)[j]
            if j == root:
                root = child
            else:
                parent = next(u for u in range(len(left)) if left[u] == j or right[u] == j)
                if left[parent] == j:
                    left[parent] = child
                else:
                    right[parent] = child
        return _SmallTree(self.tree, left, right, labels, root)

    def size(self) -> int:
        count, stack = 0, [self.root]
        while stack:
            u = stack.pop()
            count += 1
            if self.left[u] != -1:
                stack += [self.left[u], self.right[u]]
        return count

    def errors(self, X: np.ndarray, codes: np.ndarray) -> int:
        wrong = 0
        for row, code in zip(X, codes):
            u = self.root
            while self.left[u] != -1:
                go_left = row[self.tree.feature[u]] <= self.tree.threshold[u]
                u = self.left[u] if go_left else self.right[u]
            wrong += int(self.labels[u] != code)
        return wrong
