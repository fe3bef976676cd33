"""The checks of Chapter 10's exercises: correct answers pass with one line; wrong solutions
(mutants: the usual mistakes, an argument ignored, an input changed in place, a wrong type) are
rejected, each with the hint that names its mistake and no other; the dynamic program worked by
hand never shows the worked answer on a wrong attempt (explain_dp_by_hand prints it).

The correct answers follow the solution notebook (``exercises/solutions/10-optimal-trees.ipynb``);
each takes keyword switches that turn it into one of the usual mistakes.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction

import numpy as np
import pytest

from checking import assert_hint, failure, ignoring, mutating, retyped
from checking import failure_message as _message
from checking import not_implemented as _todo
from prunekit.optimal import count_trees, exhaustive_optimal_tree

from pdtbook.checks import ARRAY_HINT, ch10

DP_HINTS = dict((changes.get("leaf_cost") or changes.get("units") or
                 ("stop" if "may_stop" in changes else "greedy"), hint)
                for changes, hint in ch10._DP_MISTAKES)
BY_HAND = {(0, 0): 0.125, (0, 1): 0.125, (1, 0): 0.125, (1, 1): 0.125,
           (2, 0): 0.1875, (2, 1): 0.1875, "root": 0.25}


# ---------------------------------------------------------------------- Exercise 10.1 (a)
def test_dp_by_hand_passes_with_floats_and_ints(capsys):
    ch10.check_dp_by_hand(lambda: dict(BY_HAND))
    ch10.check_dp_by_hand(lambda: {k: np.float64(v) for k, v in BY_HAND.items()})
    assert capsys.readouterr().out == "✓ dp_by_hand: all 7 checks passed.\n" * 2


def test_dp_by_hand_table_is_the_library_optimum():
    X, y = ch10.dp_table()
    value, _ = exhaustive_optimal_tree(X, y, max_depth=2, alpha=ch10.DP_ALPHA)
    assert math.isclose(value, BY_HAND["root"])
    for key in ch10.DP_SUBPROBLEMS[:-1]:
        rows = X[:, key[0]] == key[1]
        # the branch's optimum in its own units, rescaled to the whole sample
        local, _ = exhaustive_optimal_tree(X[rows], y[rows], max_depth=1,
                                           alpha=ch10.DP_ALPHA * len(y) / rows.sum())
        assert math.isclose(local * rows.sum() / len(y), BY_HAND[key])
    # the greedy root (x2, two errors) is not optimal: the exercise shows the gap
    assert ch10.dp_cost(X, y, 2, ch10.DP_ALPHA, greedy=True) > BY_HAND["root"]


@pytest.mark.parametrize("mistake", ["none", "branch", "errors", "subset", "stop", "greedy"])
def test_dp_by_hand_mistakes_get_their_hint_and_no_answer(mistake):
    changes = next(c for c, hint in ch10._DP_MISTAKES if hint == DP_HINTS[mistake])
    answer = {key: ch10._subproblem(key, **changes) for key in ch10.DP_SUBPROBLEMS}
    error = assert_hint(ch10.check_dp_by_hand, lambda: answer, DP_HINTS[mistake])
    wrong_key = next(k for k in ch10.DP_SUBPROBLEMS if not math.isclose(answer[k], BY_HAND[k]))
    assert repr(wrong_key) in str(error)
    # the right value is not in the message
    assert str(BY_HAND[wrong_key]) not in str(error)


def test_dp_by_hand_accepts_fractions(capsys):
    """The statement welcomes fractions such as 3 / 16; exact Fractions are numbers too."""
    exact = {(0, 0): Fraction(1, 8), (0, 1): Fraction(1, 8), (1, 0): Fraction(1, 8),
             (1, 1): Fraction(1, 8), (2, 0): Fraction(3, 16), (2, 1): Fraction(3, 16),
             "root": Fraction(1, 4)}
    assert all(exact[key] == BY_HAND[key] for key in BY_HAND)
    ch10.check_dp_by_hand(lambda: exact)
    assert capsys.readouterr().out == "✓ dp_by_hand: all 7 checks passed.\n"


def test_dp_by_hand_rejects_a_0d_array():
    error = assert_hint(ch10.check_dp_by_hand, lambda: {**BY_HAND, "root": np.array(0.25)},
                        ARRAY_HINT)
    assert "dp_by_hand()['root']" in str(error)


def test_dp_by_hand_unexplained_value_gets_the_generic_hint():
    error = failure(ch10.check_dp_by_hand, lambda: {**BY_HAND, (2, 1): 0.3})
    assert error.hint not in DP_HINTS.values() and "bottom-up" in error.hint


@pytest.mark.parametrize("answer", [None, [0.25], {"root": 0.25},
                                    {**BY_HAND, "extra": 1.0}])
def test_dp_by_hand_rejects_a_wrong_table(answer):
    assert_hint(ch10.check_dp_by_hand, lambda: answer, ch10.TABLE_HINT)


def test_dp_by_hand_rejects_strings_and_todo():
    assert "should return a number" in _message(ch10.check_dp_by_hand,
                                                 lambda: {**BY_HAND, "root": "0.25"})
    assert "not implemented" in _message(ch10.check_dp_by_hand, _todo)


def test_explain_dp_by_hand_prints_every_subproblem(capsys):
    ch10.explain_dp_by_hand()
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 + len(ch10.DP_SUBPROBLEMS)
    assert lines[-1].split()[-1] == "0.2500" and lines[-2].split()[-1] == "0.1875"


# ---------------------------------------------------------------------- Exercise 10.1 (b)
def optimal_cost(X, y, depth, alpha, *, per_branch=False, units="m", may_stop=True,
                 greedy=False, stop_factor=None, two_labels=False):
    """The solution notebook's recursion, with the switches of the usual mistakes
    (``stop_factor``: no split when R(S) < stop_factor * alpha; ``two_labels``: the majority
    taken among the labels 0 and 1 only)."""
    m = len(y)

    def errors(rows):
        counts = np.bincount(y[rows], minlength=2)
        return len(rows) - (counts[:2] if two_labels else counts).max() if len(rows) else 0

    def leaf(rows):
        return errors(rows) / (max(len(rows), 1) if units == "subset" else m) + alpha

    def best(rows, d):
        if d == 0 or (stop_factor is not None and errors(rows) / m < stop_factor * alpha):
            return leaf(rows)
        features = range(X.shape[1])
        if greedy:
            features = [min(features, key=lambda j: sum(
                leaf(side) for side in (rows[X[rows, j] == 0], rows[X[rows, j] == 1])))]
        split = min(best(rows[X[rows, j] == 0], d - 1) + best(rows[X[rows, j] == 1], d - 1)
                    for j in features)
        return min(split, leaf(rows)) if may_stop else split

    value = best(np.arange(m), depth) - (alpha if per_branch else 0.0)
    return float(value * m if units == "errors" else value)


def memoised(key=lambda rows, d, alpha: (rows, d), memo=None):
    """The recursion with a memo of its costs, keyed by ``key(rows, d, alpha)`` (rows a
    tuple): a new dict at each call, or, given ``memo``, that dict kept across calls."""
    def optimal_cost(X, y, depth, alpha):
        m = len(y)
        costs = {} if memo is None else memo

        def best(rows, d):
            k = key(tuple(rows), d, alpha)
            if k not in costs:
                value = (len(rows) - np.bincount(y[rows]).max() if len(rows) else 0) / m + alpha
                for j in range(X.shape[1]) if d > 0 else ():
                    left, right = rows[X[rows, j] == 0], rows[X[rows, j] == 1]
                    value = min(value, best(left, d - 1) + best(right, d - 1))
                costs[k] = value
            return costs[k]

        return float(best(np.arange(m), depth))
    return optimal_cost


def default_memo():
    """The recursion with its memo in a mutable default argument, keyed by the rows, the
    depth and alpha: the memo outlives the call."""
    def optimal_cost(X, y, depth, alpha, memo={}):         # noqa: B006 (the mistake)
        return memoised(key=lambda rows, d, a: (rows, d, a), memo=memo)(X, y, depth, alpha)
    return optimal_cost


GLOBAL_MEMO = {}


def global_memo_cost(X, y, depth, alpha):
    """The recursion with its memo in a global dict, keyed by the rows and the depth."""
    return memoised(memo=GLOBAL_MEMO)(X, y, depth, alpha)


def skipping(X, y, depth, alpha):
    """The chapter's shortcuts: no split when R(S) <= alpha, no feature that does not divide
    S; and a memo keyed by (subset, depth)."""
    m, memo = len(y), {}

    def best(rows, d):
        if (rows, d) not in memo:
            errors = len(rows) - np.bincount(y[list(rows)]).max()
            value = errors / m + alpha
            if d > 0 and errors / m > alpha:
                for j in range(X.shape[1]):
                    left = frozenset(i for i in rows if X[i, j] == 0)
                    if left and left != rows:
                        value = min(value, best(left, d - 1) + best(rows - left, d - 1))
            memo[(rows, d)] = value
        return memo[(rows, d)]

    return float(best(frozenset(range(m)), depth))


def test_optimal_cost_passes(capsys):
    ch10.check_optimal_cost(optimal_cost)
    assert capsys.readouterr().out == "✓ optimal_cost: all 13 checks passed.\n"


@pytest.mark.parametrize("answer", [memoised(), skipping, lambda *a: np.float64(optimal_cost(*a))])
def test_optimal_cost_accepts_memo_shortcuts_and_numpy_floats(answer, capsys):
    ch10.check_optimal_cost(answer)
    ch10.check_optimal_cost(answer)             # a memo per call: the second run passes too
    assert capsys.readouterr().out == "✓ optimal_cost: all 13 checks passed.\n" * 2


def test_optimal_cost_cases_tell_the_memo_and_stop_mistakes():
    """The cases where the wrong stopping rule, the two-label majority and a memo without the
    depth go wrong, with the values they give."""
    one = np.array([[0], [0], [0], [1]]), np.array([0, 0, 0, 1]), 1, 0.15
    assert math.isclose(optimal_cost(*one, stop_factor=2), 0.40)
    assert math.isclose(optimal_cost(*one), 0.30)
    twos = np.array([[0, 1], [1, 0], [1, 1]]), np.array([2, 2, 2]), 0, 0.0
    assert optimal_cost(*twos, two_labels=True) == 1.0 and optimal_cost(*twos) == 0.0
    constant = np.array([[1, 1, 1], [1, 0, 0], [1, 0, 1]]), np.array([0, 0, 1]), 2, 0.05
    assert math.isclose(memoised(key=lambda rows, d, a: rows)(*constant), 0.15 + 0.7 / 3)
    assert math.isclose(optimal_cost(*constant), 0.15)
    cases = [args for _, args in ch10.optimal_cost_cases()]
    for case in (one, twos, constant):
        assert any(all(np.array_equal(a, b) for a, b in zip(case, args)) for args in cases)
        assert math.isclose(ch10._optimal_value(*case), optimal_cost(*case))


def test_optimal_cost_cases_reach_the_library_optimum_and_vary():
    cases = [args for _, args in ch10.optimal_cost_cases()]
    for X, y, depth, alpha in cases:
        assert math.isclose(ch10._optimal_value(X, y, depth, alpha),
                            ch10.dp_cost(X, y, depth, alpha))
    assert {args[2] for args in cases} == {0, 1, 2, 3}
    assert {args[3] for args in cases} >= {0.0, ch10.DP_ALPHA}
    assert max(len(np.unique(args[1])) for args in cases) == 3


@pytest.mark.parametrize("changes, mistake", [
    (dict(per_branch=True), "branch"), (dict(units="errors"), "errors"),
    (dict(units="subset"), "subset"), (dict(may_stop=False), "stop"),
    (dict(greedy=True), "greedy"),
])
def test_optimal_cost_mistakes(changes, mistake):
    assert_hint(ch10.check_optimal_cost, lambda *a: optimal_cost(*a, **changes),
                DP_HINTS[mistake])


def test_optimal_cost_no_split_below_two_alpha():
    """"A split costs at least 2 alpha" misread as "do not split when R(S) < 2 alpha"."""
    error = assert_hint(ch10.check_optimal_cost,
                        lambda *a: optimal_cost(*a, stop_factor=2), ch10.STOP_HINT)
    assert "returned 0.4 but the smallest R_alpha is 0.3" in str(error)


def test_optimal_cost_majority_of_two_labels():
    error = assert_hint(ch10.check_optimal_cost,
                        lambda *a: optimal_cost(*a, two_labels=True), ch10.LABELS_HINT)
    assert "every label is 2" in str(error)


@pytest.mark.parametrize("where", ["default argument", "default argument, without alpha",
                                   "global dict"])
def test_optimal_cost_memo_kept_across_calls(where):
    GLOBAL_MEMO.clear()
    answer = {"default argument": default_memo(),
              "default argument, without alpha": lambda X, y, depth, alpha, memo={}:  # noqa: B006
              memoised(memo=memo)(X, y, depth, alpha),
              "global dict": global_memo_cost}[where]
    assert_hint(ch10.check_optimal_cost, answer, ch10.STALE_MEMO_HINT)
    GLOBAL_MEMO.clear()


def test_optimal_cost_memo_kept_across_calls_answers_with_the_first_call():
    answer = default_memo()
    X, y = ch10.dp_table()
    assert answer(X, y, 2, ch10.DP_ALPHA) == 0.25
    assert answer(X, X[:, 2].copy(), 2, ch10.DP_ALPHA) == 0.25      # the right value: 0.125
    assert optimal_cost(X, X[:, 2].copy(), 2, ch10.DP_ALPHA) == 0.125


def test_optimal_cost_memo_without_the_depth():
    error = assert_hint(ch10.check_optimal_cost, memoised(key=lambda rows, d, alpha: rows),
                        ch10.DEPTH_MEMO_HINT)
    assert "feature x0 is constant" in str(error)


def test_optimal_cost_without_alpha():
    assert_hint(ch10.check_optimal_cost, ignoring(optimal_cost, 3, 0.0), DP_HINTS["none"])


@pytest.mark.parametrize("position, value", [(2, 2), (0, np.zeros((8, 3), int))])
def test_optimal_cost_uses_every_argument(position, value):
    failure(ch10.check_optimal_cost, ignoring(optimal_cost, position, value))


def test_optimal_cost_types_and_inputs():
    assert_hint(ch10.check_optimal_cost, retyped(optimal_cost, np.array), ARRAY_HINT)
    failure(ch10.check_optimal_cost, lambda *a: round(optimal_cost(*a)))
    assert "changed its argument" in _message(ch10.check_optimal_cost,
                                              mutating(optimal_cost, 1))


# ---------------------------------------------------------------------- Exercise 10.2
def n_trees(p, d, *, leaf=True, product=True, reuse=True, shift=0):
    d += shift
    if d < 0:
        return 0
    n = 1
    for level in range(d):
        features = p if reuse else max(p - (d - 1 - level), 0)
        n = int(leaf) + features * (n * n if product else 2 * n)
    return n


def test_n_trees_passes(capsys):
    ch10.check_n_trees(n_trees)
    assert capsys.readouterr().out == "✓ n_trees: all 9 checks passed.\n"
    assert all(n_trees(p, d) == count_trees(p, d) for p, d in ch10.count_cases())


@pytest.mark.parametrize("changes, hint", [
    (dict(leaf=False), ch10.LEAF_HINT),
    (dict(product=False), ch10._COUNT_MISTAKES[1][1]),
    (dict(reuse=False), ch10._COUNT_MISTAKES[2][1]),
    (dict(shift=1), ch10._COUNT_MISTAKES[3][1]),
    (dict(shift=-1), ch10._COUNT_MISTAKES[4][1]),
])
def test_n_trees_mistakes(changes, hint):
    assert_hint(ch10.check_n_trees, lambda p, d: n_trees(p, d, **changes), hint)


def test_n_trees_through_floats():
    """A count computed in floats and converted back is right to 16 digits only: the hint
    names the floats, not the recursion."""
    def through_floats(p, d):
        count = 1.0
        for _ in range(d):
            count = 1 + p * count ** 2
        return int(count)
    assert through_floats(3, 2) == count_trees(3, 2)
    assert through_floats(16, 6) != count_trees(16, 6)
    error = assert_hint(ch10.check_n_trees, through_floats, ch10.FLOAT_COUNT_HINT)
    assert "n_trees(16, 6)" in str(error)


def test_n_trees_types_and_arguments():
    assert "Python's int" in _message(ch10.check_n_trees,
                                      lambda p, d: np.int64(n_trees(p, d) % 2**62))
    failure(ch10.check_n_trees, lambda p, d: float(n_trees(p, d)))
    assert_hint(ch10.check_n_trees, retyped(n_trees, np.array), ARRAY_HINT)
    failure(ch10.check_n_trees, ignoring(n_trees, 0, 3))
    failure(ch10.check_n_trees, ignoring(n_trees, 1, 2))
    assert "not implemented" in _message(ch10.check_n_trees, _todo)


def log_n_trees(p, d, *, base=math.e, leaf=True):
    log = 0.0
    for _ in range(d):
        head = math.log(p) + 2 * log
        log = head + (math.log1p(math.exp(-head)) if leaf else 0.0)
    return log / math.log(base)


def log_n_trees_recursive(p, d, *, zero=0.0, calls=1):
    """ln N(d) by recursion, calling itself ``calls`` times per level; ``zero`` is ln N(0)."""
    if d == 0:
        return zero
    below = sum(log_n_trees_recursive(p, d - 1, zero=zero, calls=calls) for _ in range(calls))
    head = math.log(p) + below * (2 / calls)
    return head + math.log1p(math.exp(-head))


def test_log_n_trees_passes(capsys):
    ch10.check_log_n_trees(log_n_trees)
    ch10.check_log_n_trees(log_n_trees_recursive)
    assert capsys.readouterr().out == "✓ log_n_trees: all 9 checks passed.\n" * 2
    assert (5, 0) in ch10.log_count_cases()
    assert all(math.isclose(log_n_trees(p, d), math.log(count_trees(p, d)))
               for p, d in ch10.log_count_cases() if d <= 20)


@pytest.mark.parametrize("changes, hint", [
    (dict(base=2.0), ch10._LOG_MISTAKES[0][1]), (dict(base=10.0), ch10._LOG_MISTAKES[1][1]),
    (dict(leaf=False), ch10.LEAF_HINT),
])
def test_log_n_trees_mistakes(changes, hint):
    assert_hint(ch10.check_log_n_trees, lambda p, d: log_n_trees(p, d, **changes), hint)


def test_log_n_trees_from_the_exact_count():
    """Converting the exact count to a float overflows; a value wrong only at d = 40 is not
    blamed on a mistake that does not reproduce the small cases."""
    def through_float(p, d):
        return math.log(float(count_trees(p, d)))      # OverflowError for (2, 20)
    assert "OverflowError" in _message(ch10.check_log_n_trees, through_float)

    def wrong_at_forty(p, d):
        return math.log(count_trees(p, d)) if d <= 20 else 1e300
    assert_hint(ch10.check_log_n_trees, wrong_at_forty, ch10.EXACT_LOG_HINT)


def test_log_n_trees_types():
    failure(ch10.check_log_n_trees, lambda p, d: round(log_n_trees(p, d)))
    failure(ch10.check_log_n_trees, ignoring(log_n_trees, 0, 2))
    assert_hint(ch10.check_log_n_trees, retyped(log_n_trees, np.array), ARRAY_HINT)


def test_log_n_trees_int_zero_at_depth_zero():
    error = assert_hint(ch10.check_log_n_trees,
                        lambda p, d: log_n_trees_recursive(p, d, zero=0), ch10.DEPTH_ZERO_HINT)
    assert "log_n_trees(5, 0) returned 0, an int" in str(error)


def test_log_n_trees_double_recursion_is_named_without_waiting():
    """Two recursive calls per level work in logarithms but make 2^d calls: the hint names
    the double recursion (not the logarithms), and the check does not wait for d = 40."""
    start = time.perf_counter()
    error = assert_hint(ch10.check_log_n_trees,
                        lambda p, d: log_n_trees_recursive(p, d, calls=2),
                        ch10.DOUBLE_RECURSION_HINT)
    assert time.perf_counter() - start < 9
    assert "log_n_trees(90, 40) would not finish" in str(error)


# ---------------------------------------------------------------------- Exercise 10.4
def labelled_trees(p, d, k, *, labels="leaf"):
    if labels == "none":
        return count_trees(p, d)
    if labels == "once":
        return k * count_trees(p, d)
    if labels == "full":
        return count_trees(p, d) * k ** (2 ** d)
    n = k
    for _ in range(d):
        n = k + p * n * n
    return n


def test_labelled_trees_passes(capsys):
    ch10.check_labelled_trees(labelled_trees)
    assert capsys.readouterr().out == "✓ labelled_trees: all 6 checks passed.\n"
    # by enumeration: a leaf with k labels, or a split with a pair of subtrees
    assert labelled_trees(2, 1, 2) == 2 + 2 * 4 and labelled_trees(1, 2, 2) == 2 + 6 * 6


@pytest.mark.parametrize("labels, index", [("none", 0), ("once", 1), ("full", 2)])
def test_labelled_trees_mistakes(labels, index):
    assert_hint(ch10.check_labelled_trees, lambda p, d, k: labelled_trees(p, d, k, labels=labels),
                ch10._LABEL_MISTAKES[index][1])


def test_labelled_trees_through_floats():
    assert_hint(ch10.check_labelled_trees,
                lambda p, d, k: int(float(k) + p * float(labelled_trees(p, d - 1, k)) ** 2)
                if d else k, ch10.FLOAT_COUNT_HINT)


def test_labelled_trees_uses_every_argument_and_returns_an_int():
    for position, value in [(0, 3), (1, 2), (2, 2)]:
        failure(ch10.check_labelled_trees, ignoring(labelled_trees, position, value))
    failure(ch10.check_labelled_trees, lambda *a: float(labelled_trees(*a)))
