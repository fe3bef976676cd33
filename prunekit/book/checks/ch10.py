"""Checks for the exercises of Chapter 10: optimal trees of bounded depth.

Each ``check_*`` function runs the student's function (or reads the student's numbers) on fixed
cases and compares the answers with the library: the optimum of cost complexity

    R_alpha(T) = e(T) / m + alpha |T~|

over every tree of depth at most d on binary features (:func:`prunekit.optimal_tree`'s
objective, :func:`prunekit.optimal.dynamic_program_optimal_tree`, the recursion of DL8 and
STreeD: Nijssen & Fromont 2007; van der Linden, de Weerdt & Demirović 2023), and the number of
such trees (:func:`prunekit.optimal.count_trees`). When an answer is wrong, the usual mistakes
are recomputed on the same cases, and a hint names one only when it reproduces the student's
answers (:func:`prunekit.book.checks.explaining_mistake`).

The dynamic program worked by hand (Exercise 10.1 (a)) never shows the worked answer on a
wrong attempt; :func:`explain_dp_by_hand` prints it, and the notebook calls it after a passing
check.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from prunekit.book.checks import (
    Checker, as_float, as_int, close, describe, explaining_mistake, fail, mistake_variants,
)
from prunekit.optimal import count_trees, dynamic_program_optimal_tree, penalized_risk

__all__ = [
    "DP_TABLE_X", "DP_TABLE_Y", "DP_ALPHA", "DP_SUBPROBLEMS", "dp_table", "dp_cost",
    "check_dp_by_hand", "explain_dp_by_hand", "optimal_cost_cases", "check_optimal_cost",
    "count_cases", "log_count_cases", "check_n_trees", "check_log_n_trees",
    "labelled_trees_cases", "check_labelled_trees", "TABLE_HINT", "LEAF_HINT", "EXACT_LOG_HINT",
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


def _leaf_errors(y: np.ndarray) -> int:
    """Training errors of a leaf predicting the majority class of its labels ``y``."""
    return int(len(y) - np.bincount(y).max()) if len(y) else 0


def dp_cost(X, y, depth: int, alpha: float, *, m: int | None = None, leaf_cost: str = "leaf",
            units: str = "m", may_stop: bool = True, greedy: bool = False) -> float:
    """The smallest cost complexity of a tree of depth <= ``depth`` on the examples (X, y),
    by the recursion of the dynamic program, or one of its usual wrong variants.

    With the defaults: B(S, 0) = e(S)/m + alpha and, for d > 0,
    B(S, d) = min(e(S)/m + alpha, min_j B(S_j0, d-1) + B(S_j1, d-1)), where e(S) counts the
    errors of S's majority class and m is the size of the whole sample (``m``, default
    ``len(y)``). The switches: ``leaf_cost`` "branch" (alpha per branch node: the value minus
    alpha) or "none" (no alpha); ``units`` "subset" (errors divided by |S|) or "errors" (m times
    the value); ``may_stop=False`` (a branch with depth left must split); ``greedy`` (the split
    of fewest errors with leaf children, then the recursion below it).
    """
    X, y = np.asarray(X), np.asarray(y)
    m = len(y) if m is None else m
    per_leaf = 0.0 if leaf_cost == "none" else alpha

    def leaf(rows):
        share = max(len(rows), 1) if units == "subset" else m
        return _leaf_errors(y[rows]) / share + per_leaf

    def best(rows, d):
        if d == 0:
            return leaf(rows)
        splits = [(rows[X[rows, j] == 0], rows[X[rows, j] == 1]) for j in range(X.shape[1])]
        if greedy:
            errors = [_leaf_errors(y[a]) + _leaf_errors(y[b]) for a, b in splits]
            splits = [splits[int(np.argmin(errors))]]
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
     "errors: compare B(x_j = 0) + B(x_j = 1) for all three j."),
]


def check_dp_by_hand(dp_by_hand: Callable) -> None:
    """Check Exercise 10.1 (a): ``dp_by_hand()`` returns a dict mapping each branch
    ``(j, b)`` (the examples with x_j = b, one more split allowed) and ``"root"`` (depth 2) to
    the smallest R_alpha of a tree on it, in the units of the whole sample (alpha = 1/16,
    m = 8). Numbers (int or float) within 1e-6 are accepted. A wrong value is named with its
    key and a hint, but the right value is not shown: :func:`explain_dp_by_hand` prints it.
    """
    __tracebackhide__ = True
    check = Checker("dp_by_hand", dp_by_hand)
    answer = check.call(label="dp_by_hand()")
    if not isinstance(answer, dict) or set(answer) != set(DP_SUBPROBLEMS):
        fail(f"dp_by_hand() returned {describe(answer)}; it should map each subproblem to "
             f"its cost.", TABLE_HINT)
    for key in DP_SUBPROBLEMS:
        shown = f"dp_by_hand()[{key!r}]"
        value = float(as_int(answer[key], shown, "a number")) \
            if isinstance(answer[key], (int, np.integer)) else \
            as_float(answer[key], shown, "a number (a float or an int)")
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
    print("subproblem      leaf    best split   B")
    for key in DP_SUBPROBLEMS:
        depth, rows = (2, np.ones(len(y), bool)) if key == "root" else (1, X[:, key[0]] == key[1])
        as_leaf = _leaf_errors(y[rows]) / len(y) + DP_ALPHA
        split = dp_cost(X[rows], y[rows], depth, DP_ALPHA, m=len(y), may_stop=False)
        name = "root (d = 2)" if key == "root" else f"x{key[0]} = {key[1]} (d = 1)"
        print(f"{name:<14} {as_leaf:.4f}   {split:.4f}      {min(as_leaf, split):.4f}")


def optimal_cost_cases() -> list[tuple[str, tuple]]:
    """The cases of :func:`check_optimal_cost`: (description, (X, y, depth, alpha))."""
    rng = np.random.default_rng(10)
    X, y = dp_table()
    cases = [("the table of part (a)", (X, y, 2, DP_ALPHA)),
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
    cases.append(("one class only", (X, np.zeros(8, int), 2, 0.1)))
    return cases


def _optimal_value(X, y, depth, alpha) -> float:
    """The library's optimum: the dynamic program's tree, scored by penalized_risk."""
    tree = dynamic_program_optimal_tree(X, y, max_depth=depth, alpha=alpha)
    return float(penalized_risk(tree, alpha))


def check_optimal_cost(optimal_cost: Callable) -> None:
    """Check Exercise 10.1 (b): ``optimal_cost(X, y, depth, alpha)`` returns, as a float, the
    smallest R_alpha of a tree of depth <= depth on the binary features X (labels 0..k-1),
    against :func:`prunekit.optimal.dynamic_program_optimal_tree` (tolerance 1e-9)."""
    __tracebackhide__ = True
    check = Checker("optimal_cost", optimal_cost)
    cases = optimal_cost_cases()
    mistakes = mistake_variants(dp_cost, _DP_MISTAKES)
    for description, (X, y, depth, alpha) in cases:
        call = f"optimal_cost(X, y, {depth}, {alpha:g})"
        value = as_float(check.call(X, y, depth, alpha, label=f"{call} ({description})",
                                    seconds=30), call, "the smallest R_alpha, a float",
                         array_ok=False)
        expected = _optimal_value(X, y, depth, alpha)
        check.expect(
            close(value, expected),
            f"{call} returned {describe(value)} but the smallest R_alpha is "
            f"{describe(expected)} ({description}).",
            lambda: explaining_mistake(optimal_cost, [args for _, args in cases], mistakes,
                                       _optimal_value) or
            "write the recursion B(S, d) = min(leaf cost, min_j B(S_j0, d-1) + B(S_j1, d-1)) "
            "with B(S, 0) the leaf cost e(S)/m + alpha, m the size of the whole sample.")
    check.passed()


# ---------------------------------------------------------------------- Exercise 10.2
LEAF_HINT = ("a tree of depth <= d may also be a single leaf: N(d) = 1 + p N(d-1)^2, and the "
             "'1 +' counts it (without it only the complete trees of depth exactly d are "
             "counted).")
EXACT_LOG_HINT = ("N(d) has about 2^d log10(p) digits: for d = 40 no computer holds it. Work "
                  "in logarithms: ln N(d) = ln p + 2 ln N(d-1) + ln(1 + 1/(p N(d-1)^2)), the "
                  "last term with math.log1p(math.exp(-(ln p + 2 ln N(d-1)))).")


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
        value = as_int(check.call(p, d, label=call, seconds=10), call,
                       "the number of trees, an int", numpy_ok=False)
        expected = count_trees(p, d)
        check.expect(value == expected,
                     f"{call} returned {describe(value)} but there are {describe(expected)} "
                     f"trees of depth <= {d} over {p} binary features.",
                     lambda: explaining_mistake(n_trees, count_cases(), mistakes, count_trees,
                                                agree=lambda a, b: a == b) or
                     "a tree of depth <= d is a leaf, or a split on one of the p features "
                     "with a tree of depth <= d-1 on each side.")
    check.passed()


def log_count_cases() -> list[tuple[int, int]]:
    """The (p, d) cases of :func:`check_log_n_trees`: small ones, and d = 40."""
    return [(3, 2), (1, 1), (1, 3), (90, 3), (16, 6), (2, 20), (90, 40), (1, 40)]


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


def check_log_n_trees(log_n_trees: Callable) -> None:
    """Check Exercise 10.2 (b): ``log_n_trees(p, d)``, ln N(d) as a float for p >= 1, also
    for d = 40 (relative tolerance 1e-9; each call has 10 seconds)."""
    __tracebackhide__ = True
    check = Checker("log_n_trees", log_n_trees)
    mistakes = mistake_variants(_log_count, _LOG_MISTAKES)
    for p, d in log_count_cases():
        call = f"log_n_trees({p}, {d})"
        value = as_float(check.call(p, d, label=call, seconds=10, slow_hint=EXACT_LOG_HINT),
                         call, "ln N(d), a float", array_ok=False)
        expected = _log_count(p, d)
        check.expect(close(value, expected),
                     f"{call} returned {describe(value)} but ln N({d}) = {describe(expected)} "
                     f"for p = {p}.",
                     lambda: explaining_mistake(log_n_trees, log_count_cases()[:6], mistakes,
                                                _log_count) or EXACT_LOG_HINT)
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
        value = as_int(check.call(p, d, k, label=call, seconds=10), call,
                       "the number of labelled trees, an int", numpy_ok=False)
        expected = _labelled(p, d, k)
        check.expect(value == expected,
                     f"{call} returned {describe(value)} but there are {describe(expected)} "
                     f"labelled trees.",
                     lambda: explaining_mistake(labelled_trees, labelled_trees_cases(),
                                                mistakes, _labelled,
                                                agree=lambda a, b: a == b) or
                     "a labelled tree is a labelled leaf (k of them) or a split with a "
                     "labelled tree of depth <= d-1 on each side.")
    check.passed()
