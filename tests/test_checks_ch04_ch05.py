"""The checks of Chapters 4 and 5's exercises: correct answers pass with one line, typical
mistakes get the hint that names them, and missing or crashing functions get a clear message.

The correct answers follow the solution notebooks (``exercises/solutions/04-kearns-mansour.ipynb``
and ``05-nobel.ipynb``); each takes keyword switches that turn it into one of the usual mistakes.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import prunekit as pk
from prunekit.checks import CheckFailed
from prunekit.checks import ch04, ch05
from prunekit.datasets import cube, dnf_labels, dnf_true_error, make_boolean_dnf
from prunekit.kearns_mansour import penalty
from prunekit.nobel import merge_tables
from prunekit.tree import postorder
from checking import failure_message as _message




def _todo(*args, **kwargs):
    raise NotImplementedError()


# ====================================================================== Chapter 4
# ---------------------------------------------------------------------- Exercise 4.1
def km_penalty(m_v, s_v, l_v, delta, m, d, c=1.0, *, log=np.log, confidence="m/delta",
               denominator="m_v", brackets=True, cap=True, c_inside=False, root=True,
               guard=True):
    """Penalty (3), capped at 1, or one of the usual wrong variants."""
    if guard and m_v == 0:
        return 1.0 if c > 0 else 0.0
    complexity = (l_v + s_v) * log(d) if brackets else l_v + s_v * log(d)
    conf = log(m / delta) if confidence == "m/delta" else log(1 / delta)
    under = (complexity + conf) / (m_v if denominator == "m_v" else m)
    inner = math.sqrt(under) if root else under
    value = math.sqrt(c * under) if c_inside else c * inner
    return float(min(1.0, value)) if cap else float(value)


def test_km_penalty_passes(capsys):
    ch04.check_km_penalty(km_penalty)
    # The library's penalty, with NumPy scalars, passes as well.
    ch04.check_km_penalty(lambda m_v, s_v, l_v, delta, m, d, c=1.0: penalty(
        m_v, s_v, l_v, delta, m, c=c, n_features=d))
    assert capsys.readouterr().out == "✓ km_penalty: all 9 checks passed.\n" * 2


@pytest.mark.parametrize("changes, hint", [
    (dict(log=np.log2), "not log2"),
    (dict(confidence="1/delta"), "log(m / delta), with the sample size m inside"),
    (dict(denominator="m"), "divide by m_v, the number of examples that reach the node"),
    (dict(brackets=False), "mind the brackets"),
    (dict(cap=False), "cap the penalty at 1"),
    (dict(c_inside=True), "the constant c multiplies the square root"),
    (dict(root=False), "the penalty is a square root"),
])
def test_km_penalty_hints(changes, hint):
    with np.errstate(all="ignore"):
        assert hint in _message(ch04.check_km_penalty, lambda *args: km_penalty(*args, **changes))


def test_km_penalty_without_the_m_v_zero_case():
    # NumPy divides by zero silently: inf is capped to 1 for c > 0, but c = 0 gives nan, not 0.
    def unguarded(m_v, s_v, l_v, delta, m, d, c=1.0):
        with np.errstate(all="ignore"):
            value = c * np.sqrt(((l_v + s_v) * np.log(d) + np.log(m / delta)) / np.float64(m_v))
        return float(min(1.0, value)) if not np.isnan(value) else float(value)

    message = _message(ch04.check_km_penalty, unguarded)
    assert "km_penalty(0, 1, 1, 0.05, 100, 8, 0)" in message
    assert "Handle m_v = 0 before dividing" in message
    # Python's division raises instead; the message names the call and the exception.
    message = _message(ch04.check_km_penalty,
                       lambda *args: km_penalty(*args, guard=False, log=math.log))
    assert "km_penalty(0, 3, 2, 0.05, 500, 16, 1) raised ZeroDivisionError" in message


def test_km_penalty_not_implemented_crashing_and_wrong_type():
    assert _message(ch04.check_km_penalty, _todo) == (
        "✗ km_penalty is not implemented yet: replace `raise NotImplementedError()` with your code.")
    with pytest.raises(CheckFailed) as info:
        ch04.check_km_penalty(lambda *args: [][0])
    assert "km_penalty(50, 5, 2, 0.05, 1000, 16, 1) raised IndexError" in str(info.value)
    assert isinstance(info.value.__cause__, IndexError)       # the student's traceback is kept
    assert "return a single number" in _message(
        ch04.check_km_penalty, lambda *args: np.array([km_penalty(*args)]))
    assert "not a function" in _message(ch04.check_km_penalty, 0.3)


# ---------------------------------------------------------------------- Exercise 4.2
@pytest.fixture(scope="module")
def tree_42():
    """The tree of Exercise 4.2 (as in the exercise notebook): m = 295, d = 16."""
    return pk.Tree.from_arrays(
        left=[1, 3, 7, 5, -1, -1, -1, 9, -1, -1, -1],
        right=[2, 4, 8, 6, -1, -1, -1, 10, -1, -1, -1],
        counts=[[150, 145], [100, 120], [50, 25], [90, 20], [10, 100], [15, 10], [75, 10],
                [50, 20], [0, 5], [35, 15], [15, 5]],
        feature=[0, 1, 2, 3, -1, -1, -1, 4, -1, -1, -1],
        threshold=[0.5, 0.5, 0.5, 0.5, np.nan, np.nan, np.nan, 0.5, np.nan, np.nan, np.nan],
        n_features=16,
    )


DECISIONS_42 = {3: "prune", 1: "keep", 7: "prune", 2: "prune", 0: "keep"}


def test_the_hand_decisions_give_the_library_pruning(tree_42):
    pruning = pk.kearns_mansour(tree_42, 0.05, 1.0)
    assert np.flatnonzero(pruning.kept).tolist() == [0, 1, 2, 3, 4]
    assert [s.node for s in ch04.km_steps(tree_42)] == [3, 1, 7, 2, 0]


def test_km_decisions_pass(tree_42, capsys):
    ch04.check_km_decisions(DECISIONS_42.__getitem__, tree_42, delta=0.05, c=1.0)
    # Case and surrounding spaces do not matter.
    ch04.check_km_decisions(lambda v: f" {DECISIONS_42[v].upper()} ", tree_42, delta=0.05, c=1.0)
    assert capsys.readouterr().out == "✓ km_decision: all 5 checks passed.\n" * 2


def test_km_decisions_judged_with_the_grown_subtree(tree_42):
    # Judging T_1 (5 nodes) instead of T_1* (3 nodes) prunes node 1.
    message = _message(ch04.check_km_decisions, {**DECISIONS_42, 1: "prune"}.__getitem__, tree_42)
    assert "km_decision(1) returned 'prune' but rule (1) says 'keep' at node 1." in message
    assert "T_v* has the nodes [1, 3, 4] (s_v = 3)" in message
    assert "rule (1) in counts: 30 + 65.96 = 95.96 < 100  ->  keep" in message
    assert "you seem to have judged the grown subtree T_v" in message


def test_km_decisions_other_mistakes(tree_42):
    message = _message(ch04.check_km_decisions, {**DECISIONS_42, 3: "keep"}.__getitem__, tree_42)
    assert "km_decision(3) returned 'keep' but rule (1) says 'prune'" in message
    assert "rule (1) prunes when errors(T_v*) + alpha m_v >= errors of the best leaf" in message
    message = _message(ch04.check_km_decisions, lambda v: DECISIONS_42[v] == "prune", tree_42)
    assert "it should return 'prune' or 'keep'" in message
    assert "km_decision is not implemented yet" in _message(ch04.check_km_decisions, _todo, tree_42)
    message = _message(ch04.check_km_decisions, lambda v: {}[v], tree_42)
    assert "km_decision(3) raised KeyError" in message


# ---------------------------------------------------------------------- Exercise 4.3
def differing_tree():
    return pk.Tree.from_arrays(left=[1, -1, -1], right=[2, -1, -1],
                               counts=[[50, 50], [35, 15], [15, 35]])


def test_differing_tree_passes(capsys):
    ch04.check_differing_tree(differing_tree, delta=0.05, c=1.0, n_features=16)
    assert capsys.readouterr().out == "✓ differing_tree: all 1 checks passed.\n"


def test_differing_tree_hints():
    # A perfect split is kept by both rules; a useless one is pruned by both.
    for counts in ([[50, 50], [50, 0], [0, 50]], [[50, 50], [25, 25], [25, 25]]):
        stump = pk.Tree.from_arrays(left=[1, -1, -1], right=[2, -1, -1], counts=counts)
        message = _message(ch04.check_differing_tree, lambda: stump)
        assert "both rules return the same pruning of your tree" in message
        assert "consider a stump with the m = 100 examples of your tree" in message
    message = _message(ch04.check_differing_tree, lambda: [[50, 50], [35, 15], [15, 35]])
    assert "it should return a prunekit Tree" in message
    assert "differing_tree is not implemented yet" in _message(ch04.check_differing_tree, _todo)


# ---------------------------------------------------------------------- Exercise 4.4
TERMS = ((0, 1), (2, 3, 4))


def excess_error(m, seed, c, delta=0.05, *, mistake=None):
    """The exact excess error L_D(P_KM) - eps_opt, or one of the usual wrong variants."""
    X, y = make_boolean_dnf(m, n_features=12, terms=TERMS, noise=0.1, random_state=seed)
    tree = pk.id3(X, y)
    pruned = (pk.kearns_mansour(tree, c, delta) if mistake == "swapped"
              else pk.kearns_mansour(tree, delta, c))
    points = cube(12)
    best = (pk.reduced_error(tree, X, y) if mistake == "rep on S"
            else pk.reduced_error(tree, points, dnf_labels(points, TERMS)))

    def true(model):
        return dnf_true_error(model.predict, 12, TERMS, 0.1)

    if mistake == "no subtraction":
        return true(pruned)
    if mistake == "reversed":
        return true(best) - true(pruned)
    if mistake == "training":
        return pruned.error(X, y) - best.error(X, y)
    return true(pruned) - true(best)


def test_excess_error_passes(capsys):
    ch04.check_excess_error(excess_error)
    assert capsys.readouterr().out == "✓ excess_error: all 5 checks passed.\n"


@pytest.mark.parametrize("mistake, hint", [
    ("no subtraction", "subtract eps_opt, the true error of the best pruning"),
    ("reversed", "the sign is reversed"),
    ("rep on S", "reduced-error pruning on the whole cube labelled by the formula"),
    ("training", "the exercise asks for true errors"),
])
def test_excess_error_hints(mistake, hint):
    message = _message(ch04.check_excess_error, lambda *args: excess_error(*args, mistake=mistake))
    assert "excess_error(m=300, seed=0, c=1, delta=0.05) returned" in message
    assert hint in message


def test_excess_error_with_swapped_arguments_fails():
    # The first case has c = 1, which the library rejects as a confidence: the message says so.
    message = _message(ch04.check_excess_error, lambda *args: excess_error(*args, mistake="swapped"))
    assert "excess_error(m=300, seed=0, c=1, delta=0.05) raised ValueError" in message
    assert "delta must lie in (0, 1), got 1.0" in message


def test_excess_error_not_implemented_and_wrong_type():
    assert "excess_error is not implemented yet" in _message(ch04.check_excess_error, _todo)
    message = _message(ch04.check_excess_error, lambda *args: "0.01")
    assert "it should return the excess error, a number" in message


# ====================================================================== Chapter 5
# ---------------------------------------------------------------------- Exercise 5.1
def delta(k, m, d, *, log=np.log, constant=32.0, size_term=2.0, outside=False):
    inner = (k * d * log(m) + k * log(2) + size_term * log(k)) / m
    return float(constant * np.sqrt(inner) if outside else np.sqrt(constant * inner))


def delta_prime(k, m, *, log=np.log, constant=1.0, size_term=1.0, per_node=1.0):
    return float(np.sqrt(constant * (per_node * k * log(2) + size_term * log(k)) / m))


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
    ch05.check_largest_size(lambda m, d: float(largest_size(m, d)))   # 3.0 is accepted as 3
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


@pytest.mark.parametrize("changes, hint", [
    (dict(log=np.log2), "not log2"),
    (dict(constant=1.0), "eq. (4) has the constant 32 under the square root"),
    (dict(outside=True), "the constant 32 is under the square root, not in front of it"),
    (dict(size_term=1.0), "the last term of eq. (4) is 2 log k, not log k"),
    (dict(size_term=0.0), "you left out the term 2 log k of eq. (4)"),
])
def test_delta_hints(changes, hint):
    assert hint in _message(ch05.check_delta, lambda k, m, d: delta(k, m, d, **changes))


@pytest.mark.parametrize("changes, hint", [
    (dict(log=np.log10), "not log10"),
    (dict(constant=32.0), "eq. (7) has no constant 32"),
    (dict(size_term=2.0), "the last term of eq. (7) is log k, not 2 log k"),
    (dict(per_node=2.0), "the first term of eq. (7) is k log 2"),
])
def test_delta_prime_hints(changes, hint):
    assert hint in _message(ch05.check_delta_prime, lambda k, m: delta_prime(k, m, **changes))


@pytest.mark.parametrize("changes, hint", [
    (dict(base=False), "compare Delta(k, m) with 1/2 + Delta(1, m), not with 1/2"),
    (dict(budget=1.0), "errs on at most half of the sample"),
])
def test_largest_size_hints(changes, hint):
    assert hint in _message(ch05.check_largest_size, lambda m, d: largest_size(m, d, **changes))


def test_largest_size_parity_hint():
    # A search over all k, odd and even, must fail: the check has cases where the two differ.
    assert (largest_size(20000, 12), largest_size(20000, 12, step=1)) == (3, 4)
    message = _message(ch05.check_largest_size, lambda m, d: largest_size(m, d, step=1))
    assert "largest_size(m=20000, d=12) returned 4" in message
    assert "return the largest odd k" in message


def test_largest_size_off_by_one_and_types():
    message = _message(ch05.check_largest_size, lambda m, d: largest_size(m, d) + 2)
    assert "largest_size(m=1000, d=12) returned 3 but the largest possible size is 1 node." in message
    assert "one odd size off" in message
    message = _message(ch05.check_largest_size, lambda m, d: largest_size(m, d) + 0.5)
    assert "it should return a number of nodes, an integer" in message


def test_chapter_5_penalties_not_implemented_and_crashing():
    for check in (ch05.check_delta, ch05.check_delta_prime, ch05.check_largest_size):
        assert "is not implemented yet: replace `raise NotImplementedError()`" in _message(check, _todo)
    message = _message(ch05.check_delta, lambda k, m, d: math.log(k - 1))
    assert "delta(1, 1000, 12) raised ValueError: math domain error" in message
    message = _message(ch05.check_delta_prime, lambda k, m: np.array([delta_prime(k, m)]))
    assert "return a single number" in message


# ---------------------------------------------------------------------- Exercise 5.2
def merge(left, right, *, largest=False, one_based=True, extra=False):
    """Min-plus convolution (the solution notebook's loop), or a usual wrong variant."""
    p, q = len(left), len(right)
    best = np.full(p + q - 1 + int(extra), -np.inf if largest else np.inf)
    split = np.zeros(p + q - 1 + int(extra), dtype=int)
    for a in range(1, p + 1):
        candidate = left[a - 1] + right
        window = slice(a - 1, a - 1 + q)
        better = candidate > best[window] if largest else candidate < best[window]
        best[window] = np.where(better, candidate, best[window])
        split[window] = np.where(better, a if one_based else a - 1, split[window])
    return best, split


def test_merge_passes(capsys):
    ch05.check_merge(merge)
    ch05.check_merge(merge_tables)
    ch05.check_merge(lambda left, right: list(merge(left, right)))    # a list is a pair too
    assert capsys.readouterr().out == "✓ merge: all 9 checks passed.\n" * 3


@pytest.mark.parametrize("wrong, hint", [
    (lambda l, r: merge(l, r, largest=True), "you took the largest sum"),
    (lambda l, r: merge(l, r, extra=True), "the result should have p + q - 1 = 1 entries"),
    (lambda l, r: merge(l, r, one_based=False), "split holds numbers of leaves, counted from 1"),
    (lambda l, r: merge(l, r)[0], "it should return a pair (best, split)"),
    (lambda l, r: (merge(l, r)[0], merge(l, r)[1][:-1]), "one number of leaves a for the left child"),
])
def test_merge_hints(wrong, hint):
    assert hint in _message(ch05.check_merge, wrong)


def test_merge_not_implemented_and_crashing():
    assert "merge is not implemented yet" in _message(ch05.check_merge, _todo)
    message = _message(ch05.check_merge, lambda left, right: left[5])
    assert "merge(left=[3], right=[5]) raised IndexError" in message


# ---------------------------------------------------------------------- Exercise 5.3
def prunings_by_size(tree, *, kind=list, itself=True):
    """Exact numbers of prunings with 1, 2, ... leaves (the solution notebook's recursion).

    ``kind=float`` returns the counts as floats (they round); ``itself=False`` forgets the
    pruning that makes the node a leaf.
    """
    tables = {}
    for v in postorder(tree):
        if tree.is_leaf[v]:
            tables[v] = [1]
            continue
        left, right = tables.pop(int(tree.left[v])), tables.pop(int(tree.right[v]))
        table = [int(itself)] + [0] * (len(left) + len(right) - 1)
        for a, x in enumerate(left, start=1):
            for b, y in enumerate(right, start=1):
                table[a + b - 1] += x * y
        tables[v] = table if kind is list else [kind(t) for t in np.array(table, dtype=object)]
    result = tables[0]
    return result if kind is list else np.array(result, dtype=kind)


def test_prunings_by_size_passes(capsys):
    ch05.check_prunings_by_size(prunings_by_size)
    ch05.check_prunings_by_size(lambda tree: np.array(prunings_by_size(tree), dtype=object))
    assert capsys.readouterr().out == "✓ prunings_by_size: all 9 checks passed.\n" * 2


def test_prunings_by_size_hints():
    message = _message(ch05.check_prunings_by_size, lambda tree: prunings_by_size(tree, kind=float))
    assert "they should be integers" in message and "return exact integers" in message
    message = _message(ch05.check_prunings_by_size, lambda tree: prunings_by_size(tree, itself=False))
    assert "there is exactly one pruning with one leaf: the root alone" in message
    message = _message(ch05.check_prunings_by_size,
                       lambda tree: prunings_by_size(tree) + [0] * (tree.n_nodes - tree.n_leaves))
    assert "not one per number of nodes" in message
    message = _message(ch05.check_prunings_by_size, lambda tree: [0] + prunings_by_size(tree))
    assert "do not add an entry for zero leaves" in message


def test_prunings_by_size_with_64_bit_integers():
    def wrapping(tree):
        # Python's arbitrary-precision counts reduced to what int64 arithmetic would hold.
        return [(c + 2 ** 63) % 2 ** 64 - 2 ** 63 for c in prunings_by_size(tree)]

    message = _message(ch05.check_prunings_by_size, wrapping)
    assert "prunings_by_size(<the complete tree of depth 8 (its counts exceed 2^63)>)" in message
    assert "the first difference is at L = 46 leaves: -2811782247880488360" in message
    assert "exceed 2^63, the largest NumPy 64-bit integer, and yours wrapped around" in message


def test_prunings_by_size_not_implemented_and_crashing():
    assert "prunings_by_size is not implemented yet" in _message(ch05.check_prunings_by_size, _todo)
    message = _message(ch05.check_prunings_by_size, lambda tree: tree.no_such_attribute)
    assert "prunings_by_size(<a single leaf>) raised AttributeError" in message
    message = _message(ch05.check_prunings_by_size, lambda tree: 1)
    assert "it should return a list of counts" in message


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


def test_counterexample_hints():
    tree = _counterexample_tree()
    message = _message(ch05.check_counterexample, lambda: (tree, lambda k: math.sqrt(k) / 8))
    assert "the penalty is not convex" in message and "concave penalties" in message
    message = _message(ch05.check_counterexample, lambda: (tree, lambda k: -k / 100))
    assert "the penalty must be non-decreasing" in message
    # A convex penalty that does not make the off-hull size win.
    message = _message(ch05.check_counterexample, lambda: (tree, lambda k: k / 100))
    assert "a tree of the cost-complexity path minimises the objective" in message
    assert "(at 2 leaves)" in message and "now choose the penalty so that this size wins" in message
    # A tree whose profile is convex: no penalty can work.
    stump = pk.Tree.from_arrays(left=[1, -1, -1], right=[2, -1, -1], counts=[[5, 5], [4, 1], [1, 4]])
    message = _message(ch05.check_counterexample, lambda: (stump, lambda k: (k - 1) ** 2 / 32))
    assert "lies on its lower convex hull" in message


def test_counterexample_shapes_and_errors():
    message = _message(ch05.check_counterexample, _counterexample_tree)
    assert "it should return a pair (tree, penalty)" in message
    message = _message(ch05.check_counterexample, lambda: ([[10, 10]], lambda k: k))
    assert "it should be a prunekit Tree" in message
    message = _message(ch05.check_counterexample, lambda: (_counterexample_tree(), lambda k: 1 / 0))
    assert "penalty(1) raised ZeroDivisionError" in message
    assert "counterexample is not implemented yet" in _message(ch05.check_counterexample, _todo)
