"""The checks of Chapter 5's exercises: correct answers pass with one line; wrong solutions
(mutants: the usual mistakes, an argument ignored, an input changed in place, a wrong type) are
rejected, each with the hint that names its mistake and no other.

The correct answers follow ``exercises/solutions/05-nobel.ipynb``; each takes keyword switches
that turn it into one of the usual mistakes.
"""

from __future__ import annotations

import math
import time

import numpy as np
import pytest

import prunekit as pk
from prunekit.nobel_pruning import merge_tables
from prunekit.tree import postorder
from checking import (
    assert_hint, assert_one_type_policy, failure, failure_message, ignoring,
    not_implemented,
)

from pdtbook.checks import ARRAY_HINT, ch05

DELTA_HINTS = [hint for _, hint in ch05._DELTA_MISTAKES]
DELTA_PRIME_HINTS = [hint for _, hint in ch05._DELTA_PRIME_MISTAKES]
LARGEST_HINTS = [hint for _, hint in ch05._LARGEST_MISTAKES]


# ---------------------------------------------------------------------- Exercise 5.1
def delta(k, m, d, *, log=np.log, constant=32.0, first="kd", bit=1.0, size_term=2.0,
          outside=False, root=True, twice=1):
    per_node = {"kd": k * d * log(m), "k": k * log(m), "d": d * log(m)}[first]
    per_node += (k * log(2) if bit == 1.0 else bit * log(2))
    inner = (per_node + size_term * log(k)) / (twice * m)
    if not root:
        return float(constant * inner)
    return float(constant * np.sqrt(inner) if outside else np.sqrt(constant * inner))


def delta_prime(k, m, *, log=np.log, constant=1.0, size_term=1.0, per_node=1.0, bits="k",
                root=True, twice=1):
    first = per_node * k * log(2) if bits == "k" else log(2)
    inner = constant * (first + size_term * log(k)) / (twice * m)
    return float(np.sqrt(inner) if root else inner)


def largest_size(m, d, *, step=2, budget=0.5, base=True):
    limit = budget + (delta(1, m, d) if base else 0.0)
    k = 1
    while delta(k + step, m, d) <= limit:
        k += step
    return k


def test_chapter_5_penalties_pass(capsys):
    ch05.check_delta(delta)
    ch05.check_delta_prime(delta_prime)
    ch05.check_largest_size(largest_size)
    ch05.check_largest_size(lambda m, d: np.int64(largest_size(m, d)))
    ch05.check_delta(pk.bounds.nobel_delta)
    ch05.check_delta_prime(pk.bounds.nobel_delta_independent)
    assert capsys.readouterr().out == (
        "✓ delta: all 5 checks passed.\n"
        "✓ delta_prime: all 5 checks passed.\n"
        "✓ largest_size: all 7 checks passed.\n"
        "✓ largest_size: all 7 checks passed.\n"
        "✓ delta: all 5 checks passed.\n"
        "✓ delta_prime: all 5 checks passed.\n"
    )


@pytest.mark.parametrize("changes, hint", list(zip([
    dict(log=np.log2), dict(log=np.log10), dict(constant=1.0), dict(outside=True),
    dict(root=False), dict(size_term=1.0), dict(size_term=0.0), dict(bit=0.0),
    dict(first="k"), dict(first="d"), dict(bit=1.0 + 1e-300), dict(twice=2),
], DELTA_HINTS)), ids=lambda v: str(v)[:25])
def test_delta_mistakes_get_their_hint(changes, hint):
    if changes == dict(bit=1.0 + 1e-300):       # one bit in all, not one per node
        wrong = lambda k, m, d: float(np.sqrt(32 * (k * d * np.log(m) + np.log(2)
                                                    + 2 * np.log(k)) / m))
    else:
        wrong = lambda k, m, d: delta(k, m, d, **changes)
    assert_hint(ch05.check_delta, wrong, hint)


@pytest.mark.parametrize("changes, hint", list(zip([
    dict(log=np.log2), dict(log=np.log10), dict(constant=32.0), dict(root=False),
    dict(size_term=2.0), dict(size_term=0.0), dict(bits="one"), dict(per_node=2.0),
    dict(twice=2),
], DELTA_PRIME_HINTS)), ids=lambda v: str(v)[:25])
def test_delta_prime_mistakes_get_their_hint(changes, hint):
    assert_hint(ch05.check_delta_prime, lambda k, m: delta_prime(k, m, **changes), hint)


@pytest.mark.parametrize("check, correct, n_args", [
    (ch05.check_delta, delta, 3), (ch05.check_delta_prime, delta_prime, 2),
    (ch05.check_largest_size, largest_size, 2)])
def test_penalties_use_every_argument(check, correct, n_args):
    cases = {ch05.check_delta: [a for _, a in ch05.delta_cases()],
             ch05.check_delta_prime: [a for _, a in ch05.delta_prime_cases()],
             ch05.check_largest_size: ch05.largest_size_cases()}[check]
    for position in range(n_args):
        failure(check, ignoring(correct, position, cases[0][position]))


@pytest.mark.parametrize("changes, hint", list(zip(
    [dict(step=1), dict(base=False), dict(budget=1.0)], LARGEST_HINTS)), ids=str)
def test_largest_size_mistakes_get_their_hint(changes, hint):
    assert_hint(ch05.check_largest_size, lambda m, d: largest_size(m, d, **changes), hint)


def test_largest_size_parity_off_by_one_and_types():
    # A search over all k, odd and even, fails: the check has cases where the two differ.
    assert (largest_size(20000, 12), largest_size(20000, 12, step=1)) == (3, 4)
    message = failure_message(ch05.check_largest_size, lambda m, d: largest_size(m, d) + 2)
    assert "largest_size(m=1000, d=12) returned 3 but the largest possible size is 1 node." in message
    assert "one odd size off" in message
    # 3.0 is not an int: the statement asks for one
    message = failure_message(ch05.check_largest_size, lambda m, d: float(largest_size(m, d)))
    assert "returned 1, a float; it should return a number of nodes, an int" in message
    message = failure_message(ch05.check_largest_size, lambda m, d: largest_size(m, d) + 0.5)
    assert "it should return a number of nodes, an int" in message


def test_chapter_5_penalties_types_not_implemented_and_crashing():
    for check in (ch05.check_delta, ch05.check_delta_prime, ch05.check_largest_size):
        assert "is not implemented yet: replace `raise NotImplementedError()`" in failure_message(
            check, not_implemented)
    message = failure_message(ch05.check_delta, lambda k, m, d: math.log(k - 1))
    assert "delta(1, 1000, 12) raised ValueError: math domain error" in message
    message = failure_message(ch05.check_delta_prime, lambda k, m: np.array([delta_prime(k, m)]))
    assert "return a single number" in message
    assert "it should return the penalty, a float" in failure_message(
        ch05.check_delta, lambda k, m, d: str(delta(k, m, d)))
    assert "returned a 0-dimensional NumPy array" in failure_message(
        ch05.check_delta_prime, lambda k, m: np.asarray(delta_prime(k, m)))


# ---------------------------------------------------------------------- Exercise 5.2
def merge(left, right, *, largest=False, one_based=True, extra=False, float_split=False,
          product=False, in_place=False):
    """Min-plus convolution (the solution notebook's loop), or a usual wrong variant."""
    if product:
        return np.convolve(left, right), np.ones(len(left) + len(right) - 1, dtype=int)
    p, q = len(left), len(right)
    best = np.full(p + q - 1 + int(extra), -np.inf if largest else np.inf)
    split = np.zeros(p + q - 1 + int(extra), dtype=float if float_split else int)
    for a in range(1, p + 1):
        candidate = left[a - 1] + right
        window = slice(a - 1, a - 1 + q)
        better = candidate > best[window] if largest else candidate < best[window]
        best[window] = np.where(better, candidate, best[window])
        split[window] = np.where(better, a if one_based else a - 1, split[window])
    if in_place:
        left -= left.min()          # "normalising" the child's table in place
    return best, split


def test_merge_passes(capsys):
    ch05.check_merge(merge)
    ch05.check_merge(merge_tables)
    assert capsys.readouterr().out == "✓ merge: all 9 checks passed.\n" * 2


@pytest.mark.parametrize("changes, hint", [
    (dict(largest=True), "you took the largest sum; the programme keeps the fewest errors, the "
                         "smallest sum."),
    (dict(product=True), "this is the ordinary convolution, sums of products; the programme "
                         "needs the min-plus one: the minimum over a + b = L of the sums "
                         "left[a - 1] + right[b - 1]."),
    (dict(extra=True), "the result should have p + q - 1 = 1 entries, one for each number of "
                       "leaves L = 2, ..., p + q; best[L - 2] holds L leaves."),
    (dict(one_based=False), "split holds numbers of leaves, counted from 1: a = 1 means one "
                            "leaf on the left."),
    (dict(float_split=True), "create split with an integer dtype, e.g. "
                             "np.zeros(p + q - 1, dtype=int)."),
], ids=lambda v: str(v)[:20])
def test_merge_mistakes_get_their_hint(changes, hint):
    assert_hint(ch05.check_merge, lambda l, r: merge(l, r, **changes), hint)


def test_merge_types_and_inputs():
    check = ch05.check_merge
    assert "it should return a pair (best, split)" in failure_message(
        check, lambda l, r: merge(l, r)[0])
    assert "it should return a pair (best, split)" in failure_message(
        check, lambda l, r: list(merge(l, r)))
    assert "it should be a NumPy array" in failure_message(
        check, lambda l, r: (merge(l, r)[0].tolist(), merge(l, r)[1]))
    assert "one number of leaves a for the left child" in failure_message(
        check, lambda l, r: (merge(l, r)[0], merge(l, r)[1][:-1]))

    def in_place(left, right):
        return merge(left, right, in_place=True)

    assert "changed its argument `left` in place" in failure_message(check, in_place)
    cases = ch05.merge_cases()
    for position in (0, 1):
        failure(check, ignoring(merge, position, cases[0][position + 1]))


def test_merge_not_implemented_and_crashing():
    assert "merge is not implemented yet" in failure_message(ch05.check_merge, not_implemented)
    message = failure_message(ch05.check_merge, lambda left, right: left[5])
    assert "merge(left=[3], right=[5]) raised IndexError" in message


# ---------------------------------------------------------------------- Exercise 5.3
def prunings_by_size(tree, *, kind=int, itself=True, zero=False, per_node=False,
                     combine=lambda x, y: x * y):
    """Exact numbers of prunings with 1, 2, ... leaves (the solution notebook's recursion), or
    a usual wrong variant."""
    tables = {}
    for v in postorder(tree):
        if tree.is_leaf[v]:
            tables[v] = [1]
            continue
        left, right = tables.pop(int(tree.left[v])), tables.pop(int(tree.right[v]))
        table = [int(itself)] + [0] * (len(left) + len(right) - 1)
        for a, x in enumerate(left, start=1):
            for b, y in enumerate(right, start=1):
                table[a + b - 1] += combine(x, y)
        tables[v] = table
    result = tables[0]
    if zero:
        result = [0] + result
    if per_node:
        result = result + [0] * (tree.n_nodes - tree.n_leaves)
    return [kind(c) for c in result]


def test_prunings_by_size_passes(capsys):
    ch05.check_prunings_by_size(prunings_by_size)
    assert capsys.readouterr().out == "✓ prunings_by_size: all 9 checks passed.\n"


def _wrapping(tree):
    """Python's exact counts reduced to what int64 arithmetic would hold, as Python ints."""
    return [(c + 2 ** 63) % 2 ** 64 - 2 ** 63 for c in prunings_by_size(tree)]


def _missing_products(tree):
    """Combines left and right counts without multiplying them."""
    return prunings_by_size(tree, combine=min)


@pytest.mark.parametrize("wrong, hint", [
    (lambda t: prunings_by_size(t, itself=False), "there is exactly one pruning with one leaf: "
                                                  "the root alone."),
    (lambda t: prunings_by_size(t, per_node=True),
     "return one count per number of leaves L = 1, ..., tree.n_leaves (the pruning with L leaves "
     "has 2L - 1 nodes), not one per number of nodes."),
    (lambda t: prunings_by_size(t, zero=True), "entry 0 is for prunings with one leaf; do not add "
                                               "an entry for zero leaves."),
    (_wrapping, "these counts exceed 2^63, the largest NumPy 64-bit integer, and yours wrapped "
                "around. Compute with Python integers in lists; they never overflow."),
    (_missing_products, "some prunings are missing. At an internal node v, the prunings of T_v "
                        "are v alone (one leaf) and, for every pair (a, b), any pruning of the "
                        "left subtree with a leaves combined with any pruning of the right "
                        "subtree with b leaves: the counts multiply and the leaves add."),
], ids=["itself", "per node", "zero", "int64", "sums"])
def test_prunings_by_size_mistakes_get_their_hint(wrong, hint):
    assert_hint(ch05.check_prunings_by_size, wrong, hint)


def test_prunings_by_size_types():
    check = ch05.check_prunings_by_size
    message = failure_message(check, lambda tree: prunings_by_size(tree, kind=float))
    assert "they should be Python integers" in message and "return exact integers" in message
    message = failure_message(check, lambda tree: prunings_by_size(tree, kind=np.int64))
    assert "return Python integers (int), not NumPy's" in message
    message = failure_message(check, lambda tree: np.array(prunings_by_size(tree), dtype=object))
    assert "it should return a list of counts" in message
    assert "it should return a list of counts" in failure_message(check, lambda tree: 1)
    message = failure_message(check, _wrapping)
    assert "prunings_by_size(<the complete tree of depth 8 (its counts exceed 2^63)>)" in message
    assert "the first difference is at L = 46 leaves: -2811782247880488360" in message


def test_prunings_by_size_not_implemented_and_crashing():
    assert "prunings_by_size is not implemented yet" in failure_message(
        ch05.check_prunings_by_size, not_implemented)
    message = failure_message(ch05.check_prunings_by_size, lambda tree: tree.no_such_attribute)
    assert "prunings_by_size(<a single leaf>) raised AttributeError" in message


# ---------------------------------------------------------------------- Exercise 5.5 (a)
def _counterexample_tree():
    # Fewest errors with 1, 2, 3 leaves: 10, 7, 1; the point (2, 7) is above the hull.
    return pk.Tree.from_arrays(left=[1, -1, 3, -1, -1], right=[2, -1, 4, -1, -1],
                               counts=[[10, 10], [4, 1], [6, 9], [6, 0], [0, 9]])


def counterexample():
    return _counterexample_tree(), lambda k: (k - 1) ** 2 / 32


def test_counterexample_passes(capsys):
    ch05.check_counterexample(counterexample)
    assert capsys.readouterr().out == "✓ counterexample: all 2 checks passed.\n"


def test_counterexample_mistakes_get_their_hint():
    tree = _counterexample_tree()
    error = failure(ch05.check_counterexample, lambda: (tree, lambda k: math.sqrt(k) / 8))
    assert "the penalty is not convex" in str(error) and "concave penalties" in error.hint
    error = failure(ch05.check_counterexample, lambda: (tree, lambda k: -k / 100))
    assert "the penalty must be non-decreasing" in str(error)
    # A convex penalty that does not make the off-hull size win.
    error = failure(ch05.check_counterexample, lambda: (tree, lambda k: k / 100))
    assert "a tree of the cost-complexity path minimises the objective" in str(error)
    assert "(at 2 leaves)" in error.hint and "now choose the penalty so that this size wins" in error.hint
    # A tree whose profile is convex: no penalty can work.
    stump = pk.Tree.from_arrays(left=[1, -1, -1], right=[2, -1, -1], counts=[[5, 5], [4, 1], [1, 4]])
    error = failure(ch05.check_counterexample, lambda: (stump, lambda k: (k - 1) ** 2 / 32))
    assert "lies on its lower convex hull" in error.hint


@pytest.mark.parametrize("penalty, hint, what", [
    # 0, 0, 1 on the tree's sizes 1, 3, 5 is convex; the step ends at k = 7
    (lambda k: 0.0 if k <= 3 else 1.0, ch05.BENDING_HINT,
     "the penalty is not convex beyond the sizes of your tree (1 to 5 nodes): penalty(5) - "
     "penalty(3) is larger than penalty(7) - penalty(5)."),
    (lambda k: min(0.5, (k - 1) ** 2 / 32), ch05.BENDING_HINT, "penalty(7) - penalty(5)."),
    (lambda k: (k - 1) ** 2 / 32 if k <= 5 else 0.0, ch05.FALLING_HINT,
     "penalty(7) = 0 is smaller than penalty(5) = 0.5, beyond the sizes of your tree (1 to 5 "
     "nodes): the penalty must be non-decreasing."),
    (lambda k: (k - 1) ** 2 / 32 if k < 5000 else 0.0, ch05.FALLING_HINT,
     "penalty(10001) = 0 is smaller than penalty(2001) = 125000"),
    (lambda k: [0.0, 0.01, 0.5][(k - 1) // 2], ch05.UNDEFINED_HINT,
     "penalty(7) raised IndexError: list index out of range; your tree has at most 5 nodes"),
    (lambda k: (k - 1) ** 2 / 32 if k <= 2001 else 125_000 + (k - 2001), ch05.BENDING_HINT,
     "from k = 1999 to 2001 it grows by 249.875 per 2 nodes, from k = 2001 to 10001 by only 2 "
     "per 2 nodes on average."),
], ids=["step", "cap", "back to 0", "back to 0 late", "table", "linear late"])
def test_counterexample_penalty_is_checked_beyond_the_tree(penalty, hint, what):
    """The statement asks for a non-decreasing convex penalty on every k, not only on the sizes
    of the tree, on which each of these is (and makes the path miss the minimum)."""
    tree = _counterexample_tree()
    error = assert_hint(ch05.check_counterexample, lambda: (tree, penalty), hint)
    assert what in str(error)


def test_counterexample_penalties_that_overflow_are_fine(capsys):
    """A penalty that grows too fast for a float (inf, or OverflowError) beyond the tree's sizes
    is still non-decreasing and convex."""
    tree = _counterexample_tree()
    with np.errstate(over="ignore"):
        ch05.check_counterexample(lambda: (tree, lambda k: (np.exp(k) - np.exp(1)) / 200))
    ch05.check_counterexample(lambda: (tree, lambda k: (math.exp(k) - math.e) / 200))
    assert capsys.readouterr().out == "✓ counterexample: all 2 checks passed.\n" * 2


def test_counterexample_shapes_and_errors():
    message = failure_message(ch05.check_counterexample, _counterexample_tree)
    assert "it should return a pair (tree, penalty)" in message
    message = failure_message(ch05.check_counterexample, lambda: list(counterexample()))
    assert "it should return a pair (tree, penalty)" in message
    message = failure_message(ch05.check_counterexample, lambda: ([[10, 10]], lambda k: k))
    assert "it should be a prunekit Tree" in message
    message = failure_message(ch05.check_counterexample,
                              lambda: (_counterexample_tree(), lambda k: 1 / 0))
    assert "penalty(1) raised ZeroDivisionError" in message
    assert "counterexample is not implemented yet" in failure_message(
        ch05.check_counterexample, not_implemented)


def test_prunings_by_size_remaining_hints():
    check = ch05.check_prunings_by_size

    def shifted(tree):                 # every count moved one size up, the last one dropped
        counts = prunings_by_size(tree)
        return counts if len(counts) == 1 else [0] + counts[:-1]

    assert failure(check, shifted).hint == "there is exactly one pruning with one leaf: the root alone."

    def misplaced(tree):               # the right total, spread over the sizes wrongly
        counts = prunings_by_size(tree)
        return counts if len(counts) < 3 else [1, counts[2], counts[1]] + counts[3:]

    assert failure(check, misplaced).hint.startswith("the total is right but it is split")

    def negative(tree):
        counts = prunings_by_size(tree)
        return counts if len(counts) < 2 else counts[:-1] + [-counts[-1]]

    assert failure(check, negative).hint.startswith("some counts are negative")

    def too_short(tree):
        counts = prunings_by_size(tree)
        return counts if len(counts) < 2 else counts[:-1]

    assert failure(check, too_short).hint.startswith("return a list of length tree.n_leaves")


def test_counterexample_penalty_computed_by_a_slow_loop_gets_its_hint():
    tree = _counterexample_tree()

    def by_a_loop(k):                  # convex, but slow for large k
        if k > 100_000:
            time.sleep(30)
        return (k - 1) ** 2 / 32

    error = assert_hint(ch05.check_counterexample, lambda: (tree, by_a_loop),
                        ch05.SLOW_PENALTY_HINT, time_limit=0.5)
    assert "penalty(100001) was still running after 0.5 seconds" in str(error)


# ---------------------------------------------------------------------- one type policy
def _penalty(convert):
    return lambda: (_counterexample_tree(), lambda k: convert((k - 1) ** 2 / 32))


TYPED = {
    "5.1 delta": (ch05.check_delta, delta, None, np.float64, ()),
    "5.1 delta_prime": (ch05.check_delta_prime, delta_prime, None, np.float64, ()),
    "5.1 largest_size": (ch05.check_largest_size, largest_size, None, np.int64, ()),
}


@pytest.mark.parametrize("exercise", TYPED)
def test_a_0d_array_is_refused_and_a_numpy_scalar_accepted(exercise, capsys):
    """One policy in every check: NumPy scalars are numbers, 0-d arrays are not."""
    assert_one_type_policy(capsys, *TYPED[exercise])


def test_a_0d_penalty_is_refused_and_a_numpy_penalty_accepted(capsys):
    assert_hint(ch05.check_counterexample, _penalty(np.array), ARRAY_HINT)
    ch05.check_counterexample(_penalty(np.float64))
    assert capsys.readouterr().out.startswith("✓ ")


def test_prunings_by_size_through_floats_gets_the_precision_hint():
    """Products taken in floating point and turned back into ints: exact on the small trees,
    rounded where the counts exceed 2^53; the recursion is right, the precision is not."""
    through_floats = lambda tree: prunings_by_size(tree, combine=lambda x, y: float(x) * y)
    assert_hint(ch05.check_prunings_by_size, through_floats, ch05.FLOAT_COUNTS_HINT)


def test_counterexample_with_a_python_int_penalty_never_crashes(capsys):
    """2 ** (k - 3) is a Python int too large for a float at k = 1,000,001: it counts as an
    infinite penalty (non-decreasing and convex), so the check does not crash on it."""
    tree = _counterexample_tree()
    # the objective is smallest with one leaf, a tree of the path: rejected for that reason
    error = failure(ch05.check_counterexample, lambda: (tree, lambda k: 2 ** (k - 3)))
    assert "a tree of the cost-complexity path minimises the objective" in str(error)
    # an int penalty that makes the two-leaf pruning win is accepted
    ch05.check_counterexample(lambda: (tree, lambda k: (2 ** (k - 1) - 1) // 8))
    assert capsys.readouterr().out == "✓ counterexample: all 2 checks passed.\n"

