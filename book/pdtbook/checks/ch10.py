"""Checks for the exercises of Chapter 10: optimal trees of bounded depth.

Each ``check_*`` function runs the student's function (or reads the student's numbers) on fixed
cases and compares the answers with the library: the optimum of cost complexity

    R_alpha(T) = e(T) / m + alpha |T~|

over every tree of depth at most d on binary features (:func:`prunekit.optimal_tree`'s
objective, :func:`prunekit.optimal.dynamic_program_optimal_tree`, the recursion of DL8 and
STreeD: Nijssen & Fromont 2007; van der Linden, de Weerdt & Demirović 2023), and the number of
such trees (:func:`prunekit.optimal.count_trees`). When an answer is wrong, the usual mistakes
are recomputed on the same cases, and a hint names one only when it reproduces the student's
answers (:func:`pdtbook.checks.explaining_mistake`).

The dynamic program worked by hand (Exercise 10.1 (a)) never shows the worked answer on a
wrong attempt; :func:`explain_dp_by_hand` prints it, and the notebook calls it after a passing
check.
"""

from __future__ import annotations

import copy
import math
import sys
import types
from collections.abc import Callable

import numpy as np

from prunekit.optimal import count_trees, dynamic_program_optimal_tree, penalized_risk

from pdtbook.checks import (
    Checker, TimeLimitExceeded, close, describe, explaining_mistake, fail, float_answer,
    int_answer, mistake_variants, number_answer, time_limit,
)

__all__ = [
    "DP_TABLE_X", "DP_TABLE_Y", "DP_ALPHA", "DP_SUBPROBLEMS", "dp_table", "dp_cost",
    "check_dp_by_hand", "explain_dp_by_hand", "optimal_cost_cases", "check_optimal_cost",
    "count_cases", "log_count_cases", "check_n_trees", "check_log_n_trees",
    "labelled_trees_cases", "check_labelled_trees", "TABLE_HINT", "LEAF_HINT", "EXACT_LOG_HINT",
    "STOP_HINT", "LABELS_HINT", "STALE_MEMO_HINT", "DEPTH_MEMO_HINT", "FLOAT_COUNT_HINT",
    "DEPTH_ZERO_HINT", "DOUBLE_RECURSION_HINT",
]

# ---------------------------------------------------------------------- Exercise 10.1
#: The table of Exercise 10.1: eight examples, three binary features, y = x0 XOR x1.
DP_TABLE_X = ((0, 0, 0), (0, 0, 0), (0, 1, 1), (0, 1, 1),
              (1, 0, 1), (1, 0, 0), (1, 1, 0), (1, 1, 1))
DP_TABLE_Y = (0, 0, 1, 1, 1, 1, 0, 0)
#: The cost per leaf of Exercise 10.1: half an error of the eight.
DP_ALPHA = 1 / 16
#: The subproblems of Exercise 10.1 (a): the branches x_j = b with depth 1 left, and the root.
DP_SUBPROBLEMS = tuple((j, b) for j in range(3) for b in (0, 1)) + ("root",)

TABLE_HINT = ("return a dict with the seven keys (0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1) "
              "and \"root\", each mapped to a number.")


def dp_table() -> tuple[np.ndarray, np.ndarray]:
    """The binary features and labels of Exercise 10.1, as arrays."""
    return np.array(DP_TABLE_X), np.array(DP_TABLE_Y)


def _leaf_errors(y: np.ndarray, *, two_labels: bool = False) -> int:
    """Training errors of a leaf predicting the majority class of its labels ``y``.

    With ``two_labels`` (a usual mistake), only the labels 0 and 1 are counted as the
    majority: every label above 1 is an error.
    """
    if not len(y):
        return 0
    counts = np.bincount(y, minlength=2)
    return int(len(y) - (counts[:2].max() if two_labels else counts.max()))


def dp_cost(X, y, depth: int, alpha: float, *, m: int | None = None, leaf_cost: str = "leaf",
            units: str = "m", may_stop: bool = True, greedy: bool = False,
            stop_factor: float | None = None, two_labels: bool = False) -> float:
    """The smallest cost complexity of a tree of depth <= ``depth`` on the examples (X, y),
    by the recursion of the dynamic program, or one of its usual wrong variants.

    With the defaults: best(S, 0) = e(S)/m + alpha and, for d > 0,
    best(S, d) = min(e(S)/m + alpha, min_j best(S_j0, d-1) + best(S_j1, d-1)), where e(S)
    counts the errors of S's majority class and m is the size of the whole sample.

    Parameters
    ----------
    X, y : array-like
        Binary features (one row per example) and labels 0..k-1.
    depth : int
        The largest number of splits on a path.
    alpha : float
        The cost per leaf.
    m : int, optional
        The size of the whole sample (default ``len(y)``).
    leaf_cost : {"leaf", "branch", "none"}
        ``"branch"``: alpha per branch node (the value minus alpha); ``"none"``: no alpha.
    units : {"m", "subset", "errors"}
        ``"subset"``: errors divided by |S|; ``"errors"``: m times the value.
    may_stop : bool
        ``False``: a branch with depth left must split.
    greedy : bool
        Only the split of fewest errors with leaf children, then the recursion below it.
    stop_factor : float, optional
        A subset with e(S)/m < ``stop_factor`` alpha is not split (the right shortcut is
        e(S)/m <= alpha, which changes nothing; 2 is the usual misreading).
    two_labels : bool
        e(S) = |S| - max(#0, #1): the labels above 1 all count as errors.

    Returns
    -------
    float
        The cost.
    """
    X, y = np.asarray(X), np.asarray(y)
    m = len(y) if m is None else m
    per_leaf = 0.0 if leaf_cost == "none" else alpha

    def errors(rows):
        return _leaf_errors(y[rows], two_labels=two_labels)

    def leaf(rows):
        share = max(len(rows), 1) if units == "subset" else m
        return errors(rows) / share + per_leaf

    def best(rows, d):
        if d == 0 or (stop_factor is not None and errors(rows) / m < stop_factor * alpha):
            return leaf(rows)
        splits = [(rows[X[rows, j] == 0], rows[X[rows, j] == 1]) for j in range(X.shape[1])]
        if greedy:
            counts = [errors(a) + errors(b) for a, b in splits]
            splits = [splits[int(np.argmin(counts))]]
        value = min(best(a, d - 1) + best(b, d - 1) for a, b in splits)
        return min(value, leaf(rows)) if may_stop else value

    value = best(np.arange(len(y)), depth)
    if leaf_cost == "branch":
        value -= alpha
    return value * m if units == "errors" else value


def _subproblem(key, **mistake) -> float:
    """The value of one subproblem of Exercise 10.1 (a), right or with a mistake."""
    X, y = dp_table()
    if key == "root":
        return dp_cost(X, y, 2, DP_ALPHA, **mistake)
    j, b = key
    rows = X[:, j] == b
    return dp_cost(X[rows], y[rows], 1, DP_ALPHA, m=len(y), **mistake)


_DP_MISTAKES = [
    (dict(leaf_cost="none"),
     "every leaf costs alpha = 1/16 on top of its errors: R_alpha counts alpha per leaf."),
    (dict(leaf_cost="branch"),
     "alpha is paid per leaf, not per branch node: a tree with k branch nodes has k + 1 "
     "leaves (STreeD's cost per branch node differs from R_alpha by one alpha)."),
    (dict(units="errors"),
     "give R_alpha as a rate: the errors divided by m = 8, plus 1/16 per leaf (your value "
     "is m times that)."),
    (dict(units="subset"),
     "divide the errors by m = 8, the whole sample, not by the examples of the branch: the "
     "costs of the two branches must add up to the cost of the tree."),
    (dict(may_stop=False),
     "a branch may also stop: the cost of a subproblem is the smaller of its cost as a leaf "
     "and its best split."),
    (dict(greedy=True),
     "the dynamic program tries every feature at the root, not only the split of fewest "
     "errors: compare best(x_j = 0) + best(x_j = 1) for all three j."),
]

STOP_HINT = ("a subset S may be left unsplit only when e(S)/m <= alpha: a split costs at least "
             "2 alpha, but it competes with the leaf's e(S)/m + alpha, not with e(S)/m; with "
             "alpha < e(S)/m < 2 alpha a split into two pure leaves (2 alpha) is still cheaper "
             "than the leaf.")
LABELS_HINT = ("e(S) counts the examples outside the most frequent of all k labels, "
               "len(S) - np.bincount(y[S]).max(): counting only the labels 0 and 1 makes every "
               "label above 1 an error.")
STALE_MEMO_HINT = ("your function answers with values remembered from an earlier call: a memo "
                   "kept in a mutable default argument (memo={}) or in a global variable "
                   "outlives the call and serves another sample's costs. Create the memo "
                   "inside optimal_cost, so that every call starts with an empty one.")
DEPTH_MEMO_HINT = ("key the memo by the subset and the depth left, (S, d), not by S alone: a "
                   "feature that does not divide S (here one that is constant) brings S back "
                   "with one split less allowed, and a memo keyed by S then answers "
                   "best(S, d) with the value of best(S, d - 1).")

_COST_MISTAKES = _DP_MISTAKES + [
    (dict(stop_factor=2.0), STOP_HINT),
    (dict(two_labels=True), LABELS_HINT),
]


def check_dp_by_hand(dp_by_hand: Callable) -> None:
    """Check Exercise 10.1 (a): ``dp_by_hand()`` returns a dict mapping each branch
    ``(j, b)`` (the examples with x_j = b, one more split allowed) and ``"root"`` (depth 2) to
    the smallest R_alpha of a tree on it, in the units of the whole sample (alpha = 1/16,
    m = 8). Numbers within 1e-6 are accepted: Python or NumPy ints and floats, and
    :class:`fractions.Fraction` (the statement welcomes fractions); a 0-dimensional array is
    not a number. A wrong value is named with its key and a hint, but the right value is not
    shown: :func:`explain_dp_by_hand` prints it.
    """
    __tracebackhide__ = True
    check = Checker("dp_by_hand", dp_by_hand)
    answer = check.call(label="dp_by_hand()")
    if not isinstance(answer, dict) or set(answer) != set(DP_SUBPROBLEMS):
        fail(f"dp_by_hand() returned {describe(answer)}; it should map each subproblem to "
             f"its cost.", TABLE_HINT)
    for key in DP_SUBPROBLEMS:
        shown = f"dp_by_hand()[{key!r}]"
        value = number_answer(answer[key], shown, "a number (an int, a float or a Fraction)",
                              fractions=True)
        expected = _subproblem(key)
        mistakes = [(lambda changes=changes: _subproblem(key, **changes), hint)
                    for changes, hint in _DP_MISTAKES]
        where = ("a tree of depth <= 2 on all eight examples" if key == "root" else
                 f"a tree of depth <= 1 on the examples with x{key[0]} = {key[1]}")
        check.expect(
            close(value, expected, 1e-6),
            f"{shown} is {describe(value)}, which is not the smallest R_alpha of {where}. "
            f"(explain_dp_by_hand() prints the worked table, and with it the answers.)",
            lambda: explaining_mistake(lambda: value, [()], mistakes,
                                       lambda: expected) or
            "work bottom-up: first each branch as a leaf (errors / 8 + 1/16), then its best "
            "split (two leaves), keep the smaller; the root takes the best pair of branches.")
    check.passed()


def explain_dp_by_hand() -> None:
    """Print the worked table of Exercise 10.1 (a): each subproblem as a leaf, split, best."""
    X, y = dp_table()
    print("subproblem      leaf    best split   best")
    for key in DP_SUBPROBLEMS:
        depth, rows = (2, np.ones(len(y), bool)) if key == "root" else (1, X[:, key[0]] == key[1])
        as_leaf = _leaf_errors(y[rows]) / len(y) + DP_ALPHA
        split = dp_cost(X[rows], y[rows], depth, DP_ALPHA, m=len(y), may_stop=False)
        name = "root (d = 2)" if key == "root" else f"x{key[0]} = {key[1]} (d = 1)"
        print(f"{name:<14} {as_leaf:.4f}   {split:.4f}      {min(as_leaf, split):.4f}")


def optimal_cost_cases() -> list[tuple[str, tuple]]:
    """The cases of :func:`check_optimal_cost`: (description, (X, y, depth, alpha)).

    Besides the table and random problems: the table again with other labels and the same
    alpha (a memo kept from the call before answers it with the old costs), a subset S whose
    e(S)/m lies between alpha and 2 alpha (it must still be split), labels above 1, and a
    constant feature (it brings a subset back with less depth left).
    """
    rng = np.random.default_rng(10)
    X, y = dp_table()
    cases = [("the table of part (a)", (X, y, 2, DP_ALPHA)),
             ("the table labelled by x2, as many examples and the same alpha",
              (X, X[:, 2].copy(), 2, DP_ALPHA)),
             ("the table, depth 1", (X, y, 1, DP_ALPHA)),
             ("the table, depth 0: one leaf", (X, y, 0, DP_ALPHA)),
             ("the table, alpha = 0", (X, y, 2, 0.0))]
    for m, p, depth, classes, alpha in [(20, 3, 2, 2, 0.02), (30, 4, 3, 2, 0.01),
                                        (25, 4, 2, 3, 0.05), (12, 2, 3, 2, 0.0)]:
        Xr = rng.integers(0, 2, size=(m, p))
        yr = (Xr[:, 0] ^ Xr[:, 1]) if classes == 2 else rng.integers(0, classes, size=m)
        flip = rng.random(m) < 0.15
        yr = np.where(flip & (classes == 2), 1 - yr, yr)
        cases.append((f"random, m = {m}, p = {p}, {classes} classes", (Xr, yr, depth, alpha)))
    cases += [
        ("one class only", (X, np.zeros(8, int), 2, 0.1)),
        ("e(S)/m = 0.25, between alpha and 2 alpha",
         (np.array([[0], [0], [0], [1]]), np.array([0, 0, 0, 1]), 1, 0.15)),
        ("every label is 2", (np.array([[0, 1], [1, 0], [1, 1]]), np.array([2, 2, 2]), 0, 0.0)),
        ("feature x0 is constant",
         (np.array([[1, 1, 1], [1, 0, 0], [1, 0, 1]]), np.array([0, 0, 1]), 2, 0.05)),
    ]
    return cases


def _optimal_value(X, y, depth, alpha) -> float:
    """The library's optimum: the dynamic program's tree, scored by penalized_risk."""
    tree = dynamic_program_optimal_tree(X, y, max_depth=depth, alpha=alpha)
    return float(penalized_risk(tree, alpha))


def _answer(func: Callable, args: tuple, seconds: float = 10) -> float | None:
    """``func(*args)`` on copies of the arguments as a float, or ``None`` if it raises, runs
    out of time or returns something that is not a number."""
    try:
        with np.errstate(all="ignore"), time_limit(seconds):
            return float(func(*copy.deepcopy(args)))
    except (Exception, TimeLimitExceeded):
        return None


def _names(code: types.CodeType) -> set[str]:
    """The global names a code object and the functions defined in it refer to."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _names(const)
    return names


def _emptied(value):
    """A copy of a dict, list or set with nothing in it (a defaultdict keeps its factory)."""
    value = copy.copy(value)
    value.clear()
    return value


def _without_memory(func: Callable) -> Callable | None:
    """``func`` as it would run for the first time: its mutable default arguments and the
    dicts, lists and sets it reads from its global names replaced by empty ones; ``None``
    when it has none (or is not a plain Python function)."""
    if not isinstance(func, types.FunctionType):
        return None
    mutable = (dict, list, set)
    defaults = tuple(_emptied(v) if isinstance(v, mutable) else v
                     for v in func.__defaults__ or ())
    kwdefaults = {k: _emptied(v) if isinstance(v, mutable) else v
                  for k, v in (func.__kwdefaults__ or {}).items()}
    namespace = dict(func.__globals__)
    names = [name for name in _names(func.__code__)
             if isinstance(namespace.get(name), mutable)]
    for name in names:
        namespace[name] = _emptied(namespace[name])
    remembered = [v for v in (*(func.__defaults__ or ()), *(func.__kwdefaults__ or {}).values())
                  if isinstance(v, mutable)]
    if not names and not remembered:
        return None
    fresh = types.FunctionType(func.__code__, namespace, func.__name__, defaults,
                               func.__closure__)
    fresh.__kwdefaults__ = kwdefaults or None
    return fresh


def _memo_hint(optimal_cost: Callable, args: tuple, expected: float) -> str | None:
    """The hint for a memo that outlives the call or forgets the depth, if the student's
    function gets the case ``args`` right once that cause is removed."""
    fresh = _without_memory(optimal_cost)
    if fresh is not None:
        value = _answer(fresh, args)
        if value is not None and close(value, expected):
            return STALE_MEMO_HINT
    X, y, depth, alpha = args
    X = np.asarray(X)
    divides = X.min(axis=0) != X.max(axis=0)
    if not divides.all():
        # constant features never lower the optimum: the same problem without them
        value = _answer(optimal_cost, (X[:, divides], y, depth, alpha))
        if value is not None and close(value, expected):
            return DEPTH_MEMO_HINT
    return None


def check_optimal_cost(optimal_cost: Callable) -> None:
    """Check Exercise 10.1 (b): ``optimal_cost(X, y, depth, alpha)`` returns, as a float, the
    smallest R_alpha of a tree of depth <= depth on the binary features X (labels 0..k-1),
    against :func:`prunekit.optimal.dynamic_program_optimal_tree` (tolerance 1e-9).

    A wrong value is explained, where the check can tell, by a memo that outlives the call
    (the function run again with its mutable defaults and globals emptied gets it right), a
    memo without the depth (right once the constant features are dropped), or one of the
    usual mistakes of the recursion (``_COST_MISTAKES``).
    """
    __tracebackhide__ = True
    check = Checker("optimal_cost", optimal_cost)
    cases = optimal_cost_cases()
    mistakes = mistake_variants(dp_cost, _COST_MISTAKES)
    for description, (X, y, depth, alpha) in cases:
        call = f"optimal_cost(X, y, {depth}, {alpha:g})"
        value = float_answer(check.call(X, y, depth, alpha, label=f"{call} ({description})",
                                        seconds=30), call, "the smallest R_alpha, a float")
        expected = _optimal_value(X, y, depth, alpha)
        check.expect(
            close(value, expected),
            f"{call} returned {describe(value)} but the smallest R_alpha is "
            f"{describe(expected)} ({description}).",
            lambda: _memo_hint(optimal_cost, (X, y, depth, alpha), expected) or
            explaining_mistake(optimal_cost, [args for _, args in cases], mistakes,
                               _optimal_value) or
            "write the recursion best(S, d) = min(leaf cost, min_j best(S_j0, d-1) + "
            "best(S_j1, d-1)) with best(S, 0) the leaf cost e(S)/m + alpha, m the size of the "
            "whole sample.")
    check.passed()


# ---------------------------------------------------------------------- Exercise 10.2
LEAF_HINT = ("a tree of depth <= d may also be a single leaf: N(d) = 1 + p N(d-1)^2, and the "
             "'1 +' counts it (without it only the complete trees of depth exactly d are "
             "counted).")
EXACT_LOG_HINT = ("N(d) has more than (2^d - 1) log10(p) digits: for d = 40 no computer holds "
                  "it. Work in logarithms: ln N(d) = ln p + 2 ln N(d-1) + "
                  "ln(1 + 1/(p N(d-1)^2)), the last term with "
                  "math.log1p(math.exp(-(ln p + 2 ln N(d-1)))).")


def _count(p: int, d: int, *, leaf: bool = True, product: bool = True, reuse: bool = True,
           shift: int = 0, labels: int = 1) -> int:
    """N(d) = labels + p N(d-1)^2 with N(0) = labels, or one of the usual wrong counts."""
    d = d + shift
    if d < 0:
        return None
    if d == 0:
        return labels
    below = _count(p if reuse else max(p - 1, 0), d - 1, leaf=leaf, product=product,
                   reuse=reuse, labels=labels)
    pairs = below * below if product else 2 * below
    return (labels if leaf else 0) + p * pairs


_COUNT_MISTAKES = [
    (dict(leaf=False), LEAF_HINT),
    (dict(product=False),
     "the two subtrees are chosen independently: the number of pairs is N(d-1) * N(d-1), "
     "not N(d-1) + N(d-1)."),
    (dict(reuse=False),
     "a feature may be tested again deeper on the same path (such a split sends every "
     "example one way, but it is still a tree of the class): count p splits at every node."),
    (dict(shift=1), "depth counts splits on a path: a single leaf has depth 0, so N(0) = 1."),
    (dict(shift=-1), "depth counts splits on a path: a single leaf has depth 0, and N(1) = "
                     "1 + p (a leaf, or one split with two leaves)."),
]


FLOAT_COUNT_HINT = ("your count is right to about 16 significant digits but not exactly: it went "
                    "through floating point (a float such as 1.0, a division /, math.pow, ** "
                    "with a float exponent, or NumPy's floats), which keeps only about 16 "
                    "digits. Keep every step in Python ints: start from an int and only "
                    "multiply and add.")


def _float_rounded(value: int, expected: int) -> bool:
    """Whether an int count differs from the exact one only in the digits a float loses
    (a relative difference below 1e-9)."""
    return value != expected and abs(value - expected) * 10 ** 9 <= abs(expected)


def count_cases() -> list[tuple[int, int]]:
    """The (p, d) cases of :func:`check_n_trees`."""
    return [(3, 2), (3, 0), (3, 1), (1, 3), (5, 3), (0, 2), (10, 4), (90, 3), (16, 6)]


def check_n_trees(n_trees: Callable) -> None:
    """Check Exercise 10.2 (a): ``n_trees(p, d)``, the number of trees of depth <= d over p
    binary features, as a Python int (exact: the counts outgrow NumPy's integers), against
    :func:`prunekit.optimal.count_trees`."""
    __tracebackhide__ = True
    check = Checker("n_trees", n_trees)
    mistakes = mistake_variants(_count, _COUNT_MISTAKES)
    for p, d in count_cases():
        call = f"n_trees({p}, {d})"
        value = int_answer(check.call(p, d, label=call, seconds=10), call,
                           "the number of trees, an int", numpy_ok=False)
        expected = count_trees(p, d)
        check.expect(value == expected,
                     f"{call} returned {describe(value)} but there are {describe(expected)} "
                     f"trees of depth <= {d} over {p} binary features.",
                     lambda: (FLOAT_COUNT_HINT if _float_rounded(value, expected) else None) or
                     explaining_mistake(n_trees, count_cases(), mistakes, count_trees,
                                        agree=lambda a, b: a == b) or
                     "a tree of depth <= d is a leaf, or a split on one of the p features "
                     "with a tree of depth <= d-1 on each side.")
    check.passed()


def log_count_cases() -> list[tuple[int, int]]:
    """The (p, d) cases of :func:`check_log_n_trees`: small ones, and d = 40."""
    return [(3, 2), (5, 0), (1, 1), (1, 3), (90, 3), (16, 6), (2, 20), (90, 40), (1, 40)]


def _log_count(p: int, d: int, *, base: float = math.e, leaf: bool = True) -> float:
    """ln N(d) by the recursion in logarithms, or a wrong base or count."""
    log = 0.0
    for _ in range(d):
        head = math.log(p) + 2 * log
        log = head + (math.log1p(math.exp(-head)) if leaf else 0.0)
    return log / math.log(base)


_LOG_MISTAKES = [
    (dict(base=2.0), "the natural logarithm, ln N(d), not log2 (divide by log2(e), or use "
                     "math.log)."),
    (dict(base=10.0), "the natural logarithm, ln N(d), not log10."),
    (dict(leaf=False), LEAF_HINT),
]

DEPTH_ZERO_HINT = ("at depth 0 your function returns an int: ln N(0) = ln 1 is the float 0.0, "
                   "like every other value of ln N(d) (start from 0.0, not 0, or return "
                   "float(...)).")
DOUBLE_RECURSION_HINT = ("your function calls itself twice per level (as in "
                         "log_n_trees(p, d - 1) + log_n_trees(p, d - 1)), so the calls double "
                         "with every level: about 2^d of them, 2^40 for d = 40. Compute "
                         "ln N(d-1) once, keep it in a variable and use 2 * it (or loop over the "
                         "levels, from ln N(0) = 0.0 up).")


def _python_calls(func: Callable, *args) -> int | None:
    """How many Python functions ``func(*args)`` calls (itself included), counted with a
    profiling hook; ``None`` if it raises or runs for more than 10 seconds."""
    calls = 0

    def count(frame, event, arg):
        nonlocal calls
        if event == "call":
            calls += 1

    previous = sys.getprofile()
    try:
        with np.errstate(all="ignore"), time_limit(10):
            sys.setprofile(count)
            try:
                func(*args)
            finally:
                sys.setprofile(previous)
    except (Exception, TimeLimitExceeded):
        return None
    return calls


def _doubling_calls(log_n_trees: Callable) -> tuple[int, int] | None:
    """The calls ``log_n_trees`` makes at d = 10 and d = 14 for p = 3 if they grow by a factor
    of 8 or more over the four levels (a recursion that calls itself twice per level makes
    2^4 = 16 times as many), else ``None``."""
    few, many = _python_calls(log_n_trees, 3, 10), _python_calls(log_n_trees, 3, 14)
    if few is None or many is None or many < 1000 or many < 8 * few:
        return None
    return few, many


def check_log_n_trees(log_n_trees: Callable) -> None:
    """Check Exercise 10.2 (b): ``log_n_trees(p, d)``, ln N(d) as a float for p >= 1, from
    d = 0 to d = 40 (relative tolerance 1e-9; each call has 10 seconds).

    Before the cases deeper than 10, the calls the function makes are counted at two depths: a
    function that calls itself twice per level fails at once, with a hint naming the double
    recursion, instead of running out of time.
    """
    __tracebackhide__ = True
    check = Checker("log_n_trees", log_n_trees)
    mistakes = mistake_variants(_log_count, _LOG_MISTAKES)
    small = [(p, d) for p, d in log_count_cases() if d <= 20]
    deep = next(f"log_n_trees({p}, {d})" for p, d in log_count_cases() if d > 20)
    probed = False
    for p, d in log_count_cases():
        call = f"log_n_trees({p}, {d})"
        if d > 10 and not probed:
            # before the deeper cases: a double recursion takes seconds at d = 20 (more on a
            # busy machine) and would run for hours at d = 40
            probed, doubling = True, _doubling_calls(log_n_trees)
            if doubling is not None:
                fail(f"log_n_trees makes {doubling[1] / doubling[0]:.0f} times as many calls "
                     f"for d = 14 as for d = 10 ({doubling[0]:,} and {doubling[1]:,} calls of "
                     f"Python functions, p = 3), so {deep} would not finish.",
                     DOUBLE_RECURSION_HINT)
        answer = check.call(p, d, label=call, seconds=10, slow_hint=EXACT_LOG_HINT)
        if d == 0 and isinstance(answer, (int, np.integer)) and \
                not isinstance(answer, (bool, np.bool_)):
            fail(f"{call} returned {describe(answer)}, an {type(answer).__name__}; it should "
                 f"return ln N(0), a float.", DEPTH_ZERO_HINT)
        value = float_answer(answer, call, "ln N(d), a float")
        expected = _log_count(p, d)
        check.expect(close(value, expected),
                     f"{call} returned {describe(value)} but ln N({d}) = {describe(expected)} "
                     f"for p = {p}.",
                     lambda: explaining_mistake(log_n_trees, small, mistakes, _log_count) or
                     EXACT_LOG_HINT)
    check.passed()


# ---------------------------------------------------------------------- Exercise 10.4
def labelled_trees_cases() -> list[tuple[int, int, int]]:
    """The (p, d, k) cases of :func:`check_labelled_trees`."""
    return [(3, 1, 2), (3, 0, 2), (2, 2, 2), (10, 3, 2), (4, 2, 3), (16, 4, 2)]


def _labelled(p: int, d: int, k: int, *, labels: str = "leaf") -> int:
    """M(d) = k + p M(d-1)^2, or a count that labels wrongly."""
    if labels == "none":
        return count_trees(p, d)
    if labels == "once":
        return k * count_trees(p, d)
    if labels == "full":
        return count_trees(p, d) * k ** (2 ** d)
    return _count(p, d, labels=k)


_LABEL_MISTAKES = [
    (dict(labels="none"), "each leaf also carries a label, one of k: the classifiers are "
                          "(tree, labels) pairs, M(0) = k."),
    (dict(labels="once"), "each leaf has its own label: a tree with L leaves has k^L "
                          "labellings, not k; the recursion M(d) = k + p M(d-1)^2 counts them."),
    (dict(labels="full"), "N(d) k^(2^d) gives every tree the labellings of 2^d leaves, an "
                          "upper bound; count exactly with M(0) = k, M(d) = k + p M(d-1)^2."),
]


def check_labelled_trees(labelled_trees: Callable) -> None:
    """Check Exercise 10.4 (a): ``labelled_trees(p, d, k)``, the number of trees of depth <= d
    over p binary features with a label in 0..k-1 at every leaf, as a Python int."""
    __tracebackhide__ = True
    check = Checker("labelled_trees", labelled_trees)
    mistakes = mistake_variants(_labelled, _LABEL_MISTAKES)
    for p, d, k in labelled_trees_cases():
        call = f"labelled_trees({p}, {d}, {k})"
        value = int_answer(check.call(p, d, k, label=call, seconds=10), call,
                           "the number of labelled trees, an int", numpy_ok=False)
        expected = _labelled(p, d, k)
        check.expect(value == expected,
                     f"{call} returned {describe(value)} but there are {describe(expected)} "
                     f"labelled trees.",
                     lambda: (FLOAT_COUNT_HINT if _float_rounded(value, expected) else None) or
                     explaining_mistake(labelled_trees, labelled_trees_cases(),
                                        mistakes, _labelled, agree=lambda a, b: a == b) or
                     "a labelled tree is a labelled leaf (k of them) or a split with a "
                     "labelled tree of depth <= d-1 on each side.")
    check.passed()
