"""Checks for the exercises of Chapter 5: Nobel's square-root penalties and the size-indexed
dynamic programme.

Each ``check_*`` function takes the student's function, runs it on fixed cases and compares the
answers with the library: :func:`prunekit.bounds.nobel_delta`,
:func:`prunekit.bounds.nobel_delta_independent`, :func:`prunekit.nobel_pruning.merge_tables` and
brute-force enumeration with :func:`prunekit.all_prunings`. When an answer is wrong, the usual
mistakes are recomputed on the same case; if one of them reproduces the student's answer, the
hint names it.

Equation numbers refer to Nobel (2002); his sample size n is the book's m.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable

import numpy as np

from prunekit.bounds import nobel_delta, nobel_delta_independent
from prunekit.cost_complexity_pruning import cost_complexity_path
from prunekit.nobel_pruning import best_pruning_by_size, merge_tables
from prunekit.tree import Tree, all_prunings, count_prunings

from pdtbook.checks import (
    Checker, CheckFailed, close, describe, expect_close_float, explaining_mistake, fail,
    int_answer, mistake_variants, number_answer, random_tree,
)

__all__ = [
    "check_delta", "check_delta_prime", "check_largest_size", "check_merge",
    "check_prunings_by_size", "check_counterexample", "delta_cases", "delta_prime_cases", "largest_size_cases",
    "merge_cases", "largest_size_reference", "prunings_by_size_reference", "counting_trees",
]


# ---------------------------------------------------------------------- Exercise 5.1 (a)
def delta_cases() -> list[tuple[str, tuple[int, int, int]]]:
    """The cases of :func:`check_delta`: (description, (k, m, d))."""
    return [
        ("a single leaf (log k = 0)", (1, 1000, 12)),
        ("a 15-node pruning", (15, 1000, 12)),
        ("the smallest sample the paper allows", (3, 4, 1)),
        ("a large sample in two dimensions", (63, 1_000_000, 2)),
        ("a large tree", (501, 100_000, 5)),
    ]


def delta_prime_cases() -> list[tuple[str, tuple[int, int]]]:
    """The cases of :func:`check_delta_prime`: (description, (k, m))."""
    return [
        ("a single leaf (log k = 0)", (1, 1000)),
        ("a 15-node pruning", (15, 1000)),
        ("the smallest sample the paper allows", (3, 4)),
        ("a large sample", (63, 1_000_000)),
        ("a large tree", (501, 5000)),
    ]


def _delta_formula(k, m, d, *, log=math.log, constant=32.0, per_node=None, size_term=None,
                   denominator=None, root=math.sqrt, outside=False) -> float:
    per_node = per_node or (lambda k, m, d: k * d * log(m) + k * log(2))
    size_term = size_term or (lambda k: 2 * log(k))
    denominator = denominator or (lambda m: m)
    inner = (per_node(k, m, d) + size_term(k)) / denominator(m)
    if outside:
        return constant * root(inner)
    return root(constant * inner)


_DELTA_MISTAKES = [
    (dict(log=math.log2), "use the natural logarithm (np.log) throughout, not log2."),
    (dict(log=math.log10), "use the natural logarithm (np.log) throughout, not log10."),
    (dict(constant=1.0), "eq. (4) has the constant 32 under the square root: "
                         "sqrt(32 (k d log m + k log 2 + 2 log k) / m)."),
    (dict(outside=True), "the constant 32 is under the square root, not in front of it."),
    (dict(root=lambda v: v), "the penalty is a square root: sqrt(32 (k d log m + k log 2 + 2 log k) / m)."),
    (dict(size_term=lambda k: math.log(k)), "the last term of eq. (4) is 2 log k, not log k."),
    (dict(size_term=lambda k: 0.0), "you left out the term 2 log k of eq. (4)."),
    (dict(per_node=lambda k, m, d: k * d * math.log(m)), "you left out the term k log 2 of eq. (4)."),
    (dict(per_node=lambda k, m, d: k * math.log(m) + k * math.log(2)),
     "the first term of eq. (4) is k d log m: the dimension d multiplies it."),
    (dict(per_node=lambda k, m, d: d * math.log(m) + k * math.log(2)),
     "the first term of eq. (4) is k d log m: the number of nodes k multiplies it."),
    (dict(per_node=lambda k, m, d: k * d * math.log(m) + math.log(2)),
     "the second term of eq. (4) is k log 2, one bit per node."),
    (dict(denominator=lambda m: 2 * m), "eq. (4) divides by m, not 2m."),
]


def _formula_hint(student: Callable, cases: list[tuple], formula: Callable, mistakes: list,
                  reference: Callable, fallback: str) -> str:
    """The hint of the mistake (``changes`` to ``formula``) that explains the student's answers
    on every case, or ``fallback``."""
    return (explaining_mistake(student, cases, mistake_variants(formula, mistakes), reference)
            or fallback)


def _delta_hint(student: Callable) -> str:
    return _formula_hint(
        student, [args for _, args in delta_cases()], _delta_formula, _DELTA_MISTAKES,
        lambda *a: float(nobel_delta(*a)),
        "eq. (4): Delta(k, m) = sqrt(32 * (k * d * log(m) + k * log(2) + 2 * log(k)) / m), with "
        "the natural logarithm np.log.")


def check_delta(delta: Callable) -> None:
    """Check Exercise 5.1 (a), ``delta(k, m, d)``: Nobel's penalty (4) for growing and pruning on
    the same sample, against :func:`prunekit.bounds.nobel_delta`."""
    __tracebackhide__ = True
    check = Checker("delta", delta)
    for description, args in delta_cases():
        expect_close_float(check, args, f"delta{describe(args)}", "the penalty, a float",
                           lambda *a: float(nobel_delta(*a)), "Delta", description,
                           lambda value: _delta_hint(delta))
    check.passed()


# ---------------------------------------------------------------------- Exercise 5.1 (a')
def _delta_prime_formula(k, m, *, log=math.log, constant=1.0, size_term=None, per_node=None,
                         root=math.sqrt, denominator=None) -> float:
    size_term = size_term or (lambda k: log(k))
    per_node = per_node or (lambda k: k * log(2))
    denominator = denominator or (lambda m: m)
    return root(constant * (per_node(k) + size_term(k)) / denominator(m))


_DELTA_PRIME_MISTAKES = [
    (dict(log=math.log2), "use the natural logarithm (np.log), not log2."),
    (dict(log=math.log10), "use the natural logarithm (np.log), not log10."),
    (dict(constant=32.0), "eq. (7) has no constant 32: that belongs to eq. (4), the same-sample case."),
    (dict(root=lambda v: v), "the penalty is a square root: sqrt((k log 2 + log k) / m)."),
    (dict(size_term=lambda k: 2 * math.log(k)), "the last term of eq. (7) is log k, not 2 log k "
                                                "(2 log k belongs to eq. (4))."),
    (dict(size_term=lambda k: 0.0), "you left out the term log k of eq. (7)."),
    (dict(per_node=lambda k: math.log(2)), "the first term of eq. (7) is k log 2, one bit per node."),
    (dict(per_node=lambda k: 2 * k * math.log(2)),
     "the first term of eq. (7) is k log 2 (the factor 2^(2k) of the union bound is balanced by "
     "the 2 in Hoeffding's exp(-2 m s^2))."),
    (dict(denominator=lambda m: 2 * m), "eq. (7) divides by m, not 2m."),
]


def _delta_prime_hint(student: Callable) -> str:
    return _formula_hint(
        student, [args for _, args in delta_prime_cases()], _delta_prime_formula,
        _DELTA_PRIME_MISTAKES, lambda *a: float(nobel_delta_independent(*a)),
        "eq. (7): Delta'(k, m) = sqrt((k * log(2) + log(k)) / m), with the natural logarithm "
        "np.log.")


def check_delta_prime(delta_prime: Callable) -> None:
    """Check Exercise 5.1 (a), ``delta_prime(k, m)``: Nobel's penalty (7) for an independent
    pruning sample, against :func:`prunekit.bounds.nobel_delta_independent`."""
    __tracebackhide__ = True
    check = Checker("delta_prime", delta_prime)
    for description, args in delta_prime_cases():
        expect_close_float(check, args, f"delta_prime{describe(args)}", "the penalty, a float",
                           lambda *a: float(nobel_delta_independent(*a)), "Delta'",
                           description, lambda value: _delta_prime_hint(delta_prime))
    check.passed()


# ---------------------------------------------------------------------- Exercise 5.1 (b)
def largest_size_cases() -> list[tuple[int, int]]:
    """The cases of :func:`check_largest_size`: (m, d)."""
    return [(1000, 12), (20_000, 12), (100_000, 12), (300_000, 4), (1_000_000, 2),
            (10_000_000, 12), (10_000_000, 1)]


def _largest(m: int, d: int, budget: float = 0.5, base: bool = True, parity: bool = True) -> int:
    """Largest k (odd if ``parity``) with Delta(k, m) <= budget + Delta(1, m) (without the
    Delta(1, m) if not ``base``); 1 if no k qualifies (a scan that starts at the root)."""
    limit = budget + (float(nobel_delta(1, m, d)) if base else 0.0)

    def fits(k: int) -> bool:
        return float(nobel_delta(k, m, d)) <= limit

    if not fits(1):
        return 1
    low, high = 1, 3
    while fits(high):          # Delta grows without bound in k, so this ends
        low, high = high, 2 * high + 1
    step = 2 if parity else 1
    while high - low > step:   # fits(low) and not fits(high); both odd when parity
        mid = (low + high) // 2
        if parity and mid % 2 == 0:
            mid += 1
        if fits(mid):
            low = mid
        else:
            high = mid
    return low


def largest_size_reference(m: int, d: int) -> int:
    """The largest odd k with Delta(k, m) <= 1/2 + Delta(1, m): no pruning with more nodes can
    be Nobel's choice (same sample, two classes), whatever the data."""
    return _largest(m, d)


_LARGEST_MISTAKES = [
    (dict(parity=False), "prunings of a binary tree have an odd number of nodes, 2L - 1 for L "
                         "leaves: return the largest odd k."),
    (dict(base=False), "the root's objective is its error (at most 1/2) plus its own penalty "
                       "Delta(1, m): compare Delta(k, m) with 1/2 + Delta(1, m), not with 1/2."),
    (dict(budget=1.0), "with two classes the root's majority label errs on at most half of the "
                       "sample: the budget is 1/2 + Delta(1, m), not 1 + Delta(1, m)."),
]


def _largest_hint(value: int, m: int, d: int, student: Callable) -> str:
    expected = largest_size_reference(m, d)
    hint = explaining_mistake(student, list(largest_size_cases()),
                              mistake_variants(_largest, _LARGEST_MISTAKES),
                              largest_size_reference, agree=lambda a, b: a == b)
    if hint is not None:
        return hint
    if value in (expected + 2, expected - 2):
        return ("you are one odd size off: the answer is the largest odd k with "
                "Delta(k, m) <= 1/2 + Delta(1, m); check the last step of your search.")
    return ("search k = 1, 3, 5, ... for the last k with Delta(k, m) <= 1/2 + Delta(1, m); "
            "Delta grows with k, so you can stop at the first k that fails.")


def check_largest_size(largest_size: Callable) -> None:
    """Check Exercise 5.1 (b), ``largest_size(m, d)``: the largest odd number of nodes k with
    Delta(k, m) <= 1/2 + Delta(1, m), as an int."""
    __tracebackhide__ = True
    check = Checker("largest_size", largest_size)
    for m, d in largest_size_cases():
        call = f"largest_size(m={m}, d={d})"
        value = int_answer(check.call(m, d, label=call), call, "a number of nodes, an int")
        expected = largest_size_reference(m, d)
        check.expect(value == expected,
                     f"{call} returned {value} but the largest possible size is {expected} "
                     f"node{'' if expected == 1 else 's'}.",
                     lambda: _largest_hint(value, m, d, largest_size))
    check.passed()


# ---------------------------------------------------------------------- Exercise 5.2
def merge_cases() -> list[tuple[str, np.ndarray, np.ndarray]]:
    """The cases of :func:`check_merge`: (description, left, right)."""
    rng = np.random.default_rng(5)
    cases = [
        ("two leaves", np.array([3.0]), np.array([5.0])),
        ("a stump on the left, a leaf on the right", np.array([4.0, 1.0]), np.array([2.0])),
        ("a leaf on the left, a longer table on the right", np.array([2.0]),
         np.array([9.0, 6.0, 5.0, 5.0])),
        ("two tables of length 3", np.array([7.0, 3.0, 2.0]), np.array([6.0, 4.0, 0.0])),
        ("ties everywhere", np.array([2.0, 2.0, 2.0]), np.array([1.0, 1.0])),
    ]
    for length in ((5, 9), (12, 4), (30, 30)):
        left = np.sort(rng.integers(0, 40, length[0]))[::-1].astype(float)
        right = np.sort(rng.integers(0, 40, length[1]))[::-1].astype(float)
        cases.append((f"random tables of lengths {length[0]} and {length[1]}", left, right))
    cases.append(("tables that are not monotone", rng.integers(0, 9, 6).astype(float),
                  rng.integers(0, 9, 7).astype(float)))
    return cases


def _merge_hint(best, left, right, expected) -> str:
    p, q = len(left), len(right)
    full = np.full(p + q, np.inf)
    for a in range(p):
        full[a:a + q] = np.minimum(full[a:a + q], left[a] + right)
    if len(best) == p + q:
        if np.allclose(best[:-1], full[:-1]) or np.allclose(best[1:], expected):
            return (f"the result should have p + q - 1 = {p + q - 1} entries, one for each number "
                    "of leaves L = 2, ..., p + q; best[L - 2] holds L leaves.")
        return (f"the result has p + q = {p + q} entries; it should have p + q - 1 = {p + q - 1}, "
                "for L = 2, ..., p + q leaves.")
    if len(best) != p + q - 1:
        return (f"the result should have p + q - 1 = {p + q - 1} entries, for L = 2, ..., p + q "
                "leaves (p and q are the lengths of the two tables).")
    largest = np.full(p + q - 1, -np.inf)
    for a in range(p):
        largest[a:a + q] = np.maximum(largest[a:a + q], left[a] + right)
    if np.allclose(best, largest):
        return "you took the largest sum; the programme keeps the fewest errors, the smallest sum."
    if np.allclose(best, np.convolve(left, right)):
        return ("this is the ordinary convolution, sums of products; the programme needs the "
                "min-plus one: the minimum over a + b = L of the sums left[a - 1] + right[b - 1].")
    return ("best[L - 2] = min over a + b = L of left[a - 1] + right[b - 1], with 1 <= a <= p and "
            "1 <= b <= q: a pruning with L leaves that keeps both children gives a leaves to the "
            "left one and b to the right one.")


def check_merge(merge: Callable) -> None:
    """Check Exercise 5.2, ``merge(left, right)`` returning ``(best, split)``: the min-plus
    convolution of two children's tables, against :func:`prunekit.nobel_pruning.merge_tables`. Any
    ``split`` that attains the minimum is accepted."""
    __tracebackhide__ = True
    check = Checker("merge", merge)
    for description, left, right in merge_cases():
        call = f"merge(left={describe(left)}, right={describe(right)})"
        answer = check.call(left, right, label=call)
        if not isinstance(answer, tuple) or len(answer) != 2:
            fail(f"{call} returned {describe(answer)}; it should return a pair (best, split).",
                 "end your function with  return best, split")
        best, split = answer
        for name, part in (("best", best), ("split", split)):
            if not isinstance(part, np.ndarray):
                fail(f"{call} returned {name} = {describe(part)} (of type "
                     f"{type(part).__name__}); it should be a NumPy array.",
                     f"build {name} as an array, e.g. with np.full or np.zeros, or convert it "
                     f"with np.array(...).")
        expected, _ = merge_tables(left, right)
        p, q = len(left), len(right)
        if best.ndim != 1 or best.dtype.kind not in "iuf":
            fail(f"{call} returned best = {describe(best)}; it should be a one-dimensional array "
                 "of numbers.", "build best with np.full(p + q - 1, np.inf) and fill it in.")
        ok = best.shape == expected.shape and np.allclose(best, expected)
        check.expect(ok, f"{call} returned best = {describe(best)} but the fewest errors for "
                         f"L = 2, ..., {p + q} leaves are {describe(expected)} ({description}).",
                     lambda: _merge_hint(best, left, right, expected))
        if split.shape != expected.shape:
            fail(f"{call} returned split = {describe(split)}; it should hold one number of leaves "
                 f"a for the left child per entry of best ({p + q - 1} integers).",
                 "record the a of the best sum when you update best[L - 2].")
        if split.dtype.kind not in "iu":
            fail(f"{call} returned split with dtype {split.dtype}; it should hold numbers of "
                 f"leaves, integers.",
                 "create split with an integer dtype, e.g. np.zeros(p + q - 1, dtype=int).")
        for index, a in enumerate(split.tolist()):
            L = index + 2
            if a != int(a) or not (1 <= a <= p and 1 <= L - a <= q):
                hint = ("split holds numbers of leaves, counted from 1: a = 1 means one leaf on "
                        "the left." if 0 <= a < p and 1 <= L - a - 1 <= q else
                        f"a must satisfy 1 <= a <= p = {p} and 1 <= L - a <= q = {q}.")
                fail(f"{call} returned split[{index}] = {describe(a)} for L = {L} leaves, which is "
                     "not a possible number of leaves of the left child.", hint)
            a = int(a)
            if not close(float(left[a - 1] + right[L - a - 1]), float(expected[index])):
                fail(f"{call}: split[{index}] = {a} gives left[{a - 1}] + right[{L - a - 1}] = "
                     f"{describe(left[a - 1] + right[L - a - 1])}, not the minimum "
                     f"{describe(expected[index])} for L = {L} leaves.",
                     "store the a of the minimum, the one whose sum you kept in best.")
    check.passed()


# ---------------------------------------------------------------------- Exercise 5.3
def prunings_by_size_reference(tree: Tree) -> list[int]:
    """Number of prunings of ``tree`` with L = 1, 2, ... leaves, as exact Python integers.

    Bottom-up: a leaf has the table [1]; an internal node has one pruning with one leaf (itself)
    and, for L >= 2, the sum over a + b = L of (left count for a) times (right count for b).
    """
    tables: dict[int, list[int]] = {}
    for level in reversed(tree.levels):
        for v in level.tolist():
            if tree.is_leaf[v]:
                tables[v] = [1]
                continue
            left, right = tables.pop(int(tree.left[v])), tables.pop(int(tree.right[v]))
            merged = [0] * (len(left) + len(right) - 1)
            for a, x in enumerate(left):
                for b, y in enumerate(right):
                    merged[a + b] += x * y
            tables[v] = [1] + merged
    return tables[0]


def _complete_tree(depth: int) -> Tree:
    n = 2 ** (depth + 1) - 1
    left = [2 * v + 1 if 2 * v + 1 < n else -1 for v in range(n)]
    right = [2 * v + 2 if 2 * v + 2 < n else -1 for v in range(n)]
    counts = np.zeros((n, 2), dtype=int)
    for v in range(n - 1, -1, -1):
        counts[v] = [1, v % 2] if left[v] == -1 else counts[left[v]] + counts[right[v]]
    return Tree.from_arrays(left, right, counts)


def _caterpillar(n_leaves: int) -> Tree:
    """A tree whose internal nodes all have a leaf as their left child."""
    n = 2 * n_leaves - 1
    left, right = [-1] * n, [-1] * n
    spine = 0
    for i in range(n_leaves - 1):
        left[spine], right[spine] = 2 * i + 1, 2 * i + 2
        spine = 2 * i + 2
    counts = np.zeros((n, 2), dtype=int)
    for v in range(n - 1, -1, -1):
        counts[v] = [1, int(v % 3 == 0)] if left[v] == -1 else counts[left[v]] + counts[right[v]]
    return Tree.from_arrays(left, right, counts)


def counting_trees() -> list[tuple[str, Tree, bool]]:
    """The cases of :func:`check_prunings_by_size`: (description, tree, enumerate?)."""
    rng = np.random.default_rng(53)
    cases = [
        ("a single leaf", Tree.from_arrays([-1], [-1], [[2, 1]]), True),
        ("a stump", Tree.from_arrays([1, -1, -1], [2, -1, -1], [[3, 2], [3, 0], [0, 2]]), True),
        ("the complete tree of depth 2", _complete_tree(2), True),
        ("a caterpillar with 6 leaves (every left child is a leaf)", _caterpillar(6), True),
    ]
    for n_leaves in (5, 9, 13):
        cases.append((f"a random tree with {n_leaves} leaves", random_tree(rng, n_leaves, max_count=3), True))
    cases.append(("the complete tree of depth 4", _complete_tree(4), True))
    cases.append(("the complete tree of depth 8 (its counts exceed 2^63)", _complete_tree(8), False))
    return cases


def _by_enumeration(tree: Tree) -> list[int]:
    result = [0] * tree.n_leaves
    for pruning in all_prunings(tree):
        result[pruning.n_leaves - 1] += 1
    return result


FLOAT_COUNTS_HINT = ("your counts agree with the right ones to about 16 significant digits "
                     "but not exactly: they went through floating point (a float, np.float64, "
                     "a division /, or a NumPy array of floats), which holds 53 bits, and these "
                     "counts exceed 2^53. The recursion is right; keep the tables as lists of "
                     "Python ints from start to end, and converting with int(...) at the end "
                     "cannot restore the lost digits.")


def _counting_hint(answer: list, expected: list[int], tree: Tree) -> str:
    if len(answer) == tree.n_nodes and tree.n_nodes != tree.n_leaves:
        return ("return one count per number of leaves L = 1, ..., tree.n_leaves (the pruning with "
                "L leaves has 2L - 1 nodes), not one per number of nodes.")
    if len(answer) == len(expected) + 1 and answer[1:] == expected:
        return "entry 0 is for prunings with one leaf; do not add an entry for zero leaves."
    if len(answer) != len(expected):
        return (f"return a list of length tree.n_leaves = {tree.n_leaves}: entry L - 1 counts the "
                "prunings with L leaves.")
    if max(expected) >= 2 ** 63 and all(abs(int(a)) < 2 ** 63 for a in answer):
        return ("these counts exceed 2^63, the largest NumPy 64-bit integer, and yours wrapped "
                "around. Compute with Python integers in lists; they never overflow.")
    if max(expected) > 2 ** 53 and all(
            abs(int(a) - e) <= e * 2.0 ** -50 for a, e in zip(answer, expected)):
        return FLOAT_COUNTS_HINT
    if any(int(a) < 0 for a in answer):
        return ("some counts are negative: they overflowed NumPy's 64-bit integers. Compute with "
                "Python integers in lists; they never overflow.")
    if sum(answer) == sum(expected):
        return ("the total is right but it is split over the sizes wrongly: with a leaves on the "
                "left and b on the right, the pruning has a + b leaves.")
    if answer[0] != 1:
        return "there is exactly one pruning with one leaf: the root alone."
    if all(int(a) <= int(e) for a, e in zip(answer, expected)):
        return ("some prunings are missing. At an internal node v, the prunings of T_v are v alone "
                "(one leaf) and, for every pair (a, b), any pruning of the left subtree with a "
                "leaves combined with any pruning of the right subtree with b leaves: the counts "
                "multiply and the leaves add.")
    return ("at an internal node, the number of prunings with L >= 2 leaves is the sum over "
            "a + b = L of left[a - 1] * right[b - 1]; with one leaf there is one pruning, the node "
            "itself.")


def check_prunings_by_size(prunings_by_size: Callable) -> None:
    """Check Exercise 5.3, ``prunings_by_size(tree)``: the number of prunings with L = 1, ...,
    n_leaves leaves, exactly. Small trees are checked against enumeration with
    :func:`prunekit.all_prunings`; the largest against :func:`prunings_by_size_reference` and
    :func:`prunekit.count_prunings`."""
    __tracebackhide__ = True
    check = Checker("prunings_by_size", prunings_by_size)
    for description, tree, enumerate_ in counting_trees():
        call = f"prunings_by_size(<{description}>)"
        answer = check.call(tree, label=call)
        if not isinstance(answer, list) or not answer:
            fail(f"{call} returned {describe(answer)}; it should return a list of counts, one "
                 "per number of leaves.", "return a list such as [1, 1] for a stump.")
        values = answer
        if any(type(v) is not int for v in values):
            odd = next(v for v in values if type(v) is not int)
            if isinstance(odd, np.integer):
                hint = ("return Python integers (int), not NumPy's: int64 overflows beyond 2^63, "
                        "Python's int never does. Build the tables as lists of int.")
            elif isinstance(odd, (bool, np.bool_)) or not isinstance(odd, numbers.Real):
                hint = "return a list of integers."
            else:
                hint = ("return exact integers. Floats hold only 53 bits, so large counts lose "
                        "their last digits; Python integers (int, in lists) are exact.")
            fail(f"{call} returned a value of type {type(odd).__name__} ({odd!r}) among the counts; "
                 "they should be Python integers.", hint)
        values = [int(v) for v in values]
        expected = _by_enumeration(tree) if enumerate_ else prunings_by_size_reference(tree)
        if not enumerate_ and sum(expected) != count_prunings(tree):
            raise RuntimeError("the reference count disagrees with prunekit.count_prunings.")
        what = (f"{call} returned {describe(values)} but the numbers of prunings with "
                f"1, 2, ..., {tree.n_leaves} leaves are {describe(expected)}")
        if len(values) == len(expected) and values != expected:
            L = next(i for i, (a, b) in enumerate(zip(values, expected)) if a != b) + 1
            what += (f"; the first difference is at L = {L} leaves: {values[L - 1]} instead of "
                     f"{expected[L - 1]}")
        check.expect(values == expected, what + ".", lambda: _counting_hint(values, expected, tree))
    check.passed()


# ---------------------------------------------------------------------- Exercise 5.5 (a)
def _off_hull_sizes(errors: np.ndarray) -> list[int]:
    """Numbers of leaves L whose point (L, errors[L - 1]) lies strictly above the lower convex
    hull of the profile, up to the first size with the fewest errors."""
    last = int(np.flatnonzero(errors == errors.min())[0]) + 1
    off = []
    for L in range(2, last):
        for a in range(1, L):
            for b in range(L + 1, last + 1):
                chord = errors[a - 1] + (errors[b - 1] - errors[a - 1]) * (L - a) / (b - a)
                if errors[L - 1] > chord + 1e-12:
                    off.append(L)
                    break
            else:
                continue
            break
    return off


BEYOND_SIZES = (*range(1, 2002, 2), 10_001, 100_001, 1_000_001)
"""The numbers of nodes k at which :func:`check_counterexample` evaluates the penalty beyond
the sizes of the student's tree: the statement asks for a penalty that is non-decreasing and
convex on every k = 1, 3, 5, ..., not only on the sizes of one tree."""

def _every_k_hint(what: str) -> str:
    return ("the statement asks for a penalty that is non-decreasing and convex for every "
            f"number of nodes k = 1, 3, 5, ..., not only for the sizes of your tree: beyond "
            f"them, {what}. Define it by one formula for all k, e.g. c * (k - 1) ** 2.")


SLOW_PENALTY_HINT = ("the check evaluates the penalty for k up to a million, since the statement "
                     "asks for every k: compute it with a formula, not a loop over k.")
FALLING_HINT = _every_k_hint("yours falls")
BENDING_HINT = _every_k_hint("the increments of yours shrink (a step or a cap is not convex)")
UNDEFINED_HINT = _every_k_hint("yours is not defined")


def _penalty_beyond(pen: Checker, n_nodes: int,
                    seconds: float) -> tuple[np.ndarray, np.ndarray]:
    """The penalty at the sizes of :data:`BEYOND_SIZES` above ``n_nodes``, up to the first one
    where it overflows (an infinite penalty stays non-decreasing and convex)."""
    __tracebackhide__ = True
    sizes, values = [], []
    for k in BEYOND_SIZES:
        if k <= n_nodes:
            continue
        call = f"penalty({k})"
        try:
            value = pen.call(k, label=call, seconds=seconds, slow_hint=SLOW_PENALTY_HINT)
        except CheckFailed as error:
            if isinstance(error.__cause__, OverflowError):
                break
            if error.__cause__ is None:     # too slow
                raise
            fail(f"{str(error)[2:].splitlines()[0]}; your tree has at most {n_nodes} nodes, "
                 f"but the penalty must be defined for every k.", UNDEFINED_HINT)
        value = number_answer(value, call)
        if math.isinf(value) and value > 0:
            break
        sizes.append(k)
        values.append(value)
    return np.array(sizes, dtype=float), np.array(values, dtype=float)


def _check_every_k(pen: Checker, sizes: np.ndarray, values: np.ndarray,
                   seconds: float) -> None:
    """Fail if the penalty decreases or bends down beyond the sizes of the tree."""
    __tracebackhide__ = True
    n_nodes = int(sizes[-1])
    more_sizes, more_values = _penalty_beyond(pen, n_nodes, seconds)
    ks = np.concatenate([sizes, more_sizes]).astype(float)
    vs = np.concatenate([values, more_values])
    where = f"beyond the sizes of your tree (1 to {n_nodes} nodes)"
    for i in range(len(sizes) - 1, len(ks) - 1):
        if vs[i + 1] < vs[i] - 1e-12 * max(1.0, abs(vs[i])):
            fail(f"penalty({int(ks[i + 1])}) = {describe(vs[i + 1])} is smaller than "
                 f"penalty({int(ks[i])}) = {describe(vs[i])}, {where}: the penalty must be "
                 f"non-decreasing.", FALLING_HINT)
    slopes = np.diff(vs) / np.diff(ks)
    for i in range(max(len(sizes) - 2, 0), len(slopes) - 1):
        if slopes[i + 1] < slopes[i] - 1e-9 * max(1.0, abs(slopes[i])):
            a, b, c = (int(k) for k in ks[i:i + 3])
            if c - b == 2 and b - a == 2:
                fail(f"the penalty is not convex {where}: penalty({b}) - penalty({a}) is "
                     f"larger than penalty({c}) - penalty({b}).", BENDING_HINT)
            fail(f"the penalty is not convex {where}: from k = {a} to {b} it grows by "
                 f"{describe(2 * slopes[i])} per 2 nodes, from k = {b} to {c} by only "
                 f"{describe(2 * slopes[i + 1])} per 2 nodes on average.", BENDING_HINT)


def check_counterexample(counterexample: Callable, time_limit: float = 10.0) -> None:
    """Check Exercise 5.5 (a): ``counterexample()`` returns ``(tree, penalty)``, a prunekit Tree
    and a function of the number of nodes k, non-decreasing and convex on k = 1, 3, 5, ..., such
    that no tree of the cost-complexity path minimises L_S(P) + penalty(|P|).

    The penalty is checked on the sizes of the tree and beyond them, at the sizes of
    :data:`BEYOND_SIZES`: the statement asks for it on every k. A call there still running
    after ``time_limit`` seconds gets :data:`SLOW_PENALTY_HINT`."""
    __tracebackhide__ = True
    check = Checker("counterexample", counterexample)
    answer = check.call(label="counterexample()")
    if not isinstance(answer, tuple) or len(answer) != 2:
        fail(f"counterexample() returned {describe(answer)}; it should return a pair "
             "(tree, penalty).", "end your function with  return tree, penalty")
    tree, penalty = answer
    if not isinstance(tree, Tree):
        fail(f"counterexample() returned {describe(tree)} as the tree; it should be a prunekit Tree.",
             "build it with pk.Tree.from_arrays(left, right, counts); counts alone are enough.")
    if tree.n_samples < 1:
        fail("the tree's counts are all zero; give its leaves some examples.",
             "counts[v] = [examples of class 0, examples of class 1] reaching node v.")
    pen = Checker("penalty", penalty)
    sizes = 2 * np.arange(1, tree.n_leaves + 1) - 1
    values = np.array([number_answer(pen.call(int(k), label=f"penalty({int(k)})"),
                                     f"penalty({int(k)})") for k in sizes])
    increments = np.diff(values)
    if np.any(increments < -1e-12):
        k = int(sizes[int(np.argmax(increments < -1e-12))])
        fail(f"penalty({k + 2}) = {describe(values[(k + 1) // 2])} is smaller than penalty({k}) = "
             f"{describe(values[(k - 1) // 2])}: the penalty must be non-decreasing.",
             "a penalty that rewards larger trees is not what the exercise asks for.")
    if np.any(np.diff(increments) < -1e-12):
        k = int(sizes[int(np.argmax(np.diff(increments) < -1e-12))])
        fail(f"the penalty is not convex on the sizes of your tree: penalty({k + 2}) - "
             f"penalty({k}) is larger than penalty({k + 4}) - penalty({k + 2}).",
             "concave penalties, like the square root, are always minimised on the path: that is "
             "the chapter's proposition. Make each increment at least as large as the previous "
             "one, e.g. c * (k - 1) ** 2.")
    _check_every_k(pen, sizes.astype(float), values, time_limit)
    check.expect(True)
    m = tree.n_samples
    profile = best_pruning_by_size(tree)
    path = cost_complexity_path(tree)
    exact = profile.errors / m + values
    on_path = path.errors(tree.counts) / m + values[path.n_leaves - 1]
    best = int(np.argmin(exact)) + 1
    if on_path.min() <= exact.min() + 1e-12:
        off = _off_hull_sizes(profile.errors)
        what = (f"a tree of the cost-complexity path minimises the objective: its smallest value on "
                f"the path is {describe(on_path.min())}, the exact minimum over all prunings "
                f"{describe(exact.min())} (a pruning with {best} {'leaf' if best == 1 else 'leaves'}). "
                f"Your tree's size profile "
                f"(fewest errors for 1, 2, ... leaves) is {describe(profile.errors)}, and the path "
                f"has the numbers of leaves {describe(sorted(path.n_leaves.tolist()))}.")
        if not off:
            fail(what, "every number of leaves of your tree's profile lies on its lower convex hull, "
                       "so the path reaches the minimum for every penalty. Choose counts that make "
                       "the two-leaf pruning err much more than the average of the one-leaf and the "
                       "three-leaf prunings.")
        fail(what, f"the profile has a point above its lower convex hull (at {off[0]} leaves), "
                   "which no tree of the path has; now choose the penalty so that this size wins: "
                   "nearly flat up to it and steep after it, e.g. c * (k - 1) ** 2 with a suitable c.")
    check.expect(True)
    check.passed()
