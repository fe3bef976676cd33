"""The classic pruning heuristics: PEP, MEP, CVP and C4.5's error-based pruning.

Chapter 8 of the book. Every function here maps a grown :class:`~prunekit.Tree` to a
:class:`~prunekit.Pruning` (subtree raising, which leaves the class of prunings, returns a new
:class:`~prunekit.Tree`).
"""

from __future__ import annotations

import math
import numbers
import warnings
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from prunekit._validation import check_broadcastable, check_numbers, encode_labels
from prunekit.impurity import GROWER_CRITERIA, counts_impurity
from prunekit.path import PruningPath, leaf_intervals, sum_per_step
from prunekit.tree import Pruning, Tree, check_tree

__all__ = [
    "upper_confidence_limit", "estimated_errors", "collapse", "error_based",
    "error_based_raising",
    "PEP_ORDERS", "PessimisticErrors", "pessimistic_errors", "pessimistic_standard_error",
    "pessimistic",
    "MinimumErrorEstimates", "m_estimate_error", "minimum_error_estimates", "minimum_error",
    "SELECTION_MEASURES", "split_measure", "CriticalValuePath", "critical_value_path",
    "critical_value",
]

# ---------------------------------------------------------------------------------------------
# Error-based pruning (C4.5 / Weka J48)
#
# Everything below mirrors Weka 3.6.14 (Debian's ``weka`` package), class by class:
#   weka.classifiers.trees.j48.Stats.addErrs                  -> _added_errors
#   weka.core.Statistics.normalInverse                         -> _normal_inverse
#   weka.core.Utils.SMALL / eq / smOrEq / grOrEq               -> _SMALL, _sm_or_eq
#   C45PruneableClassifierTree.collapse                        -> collapse
#   C45PruneableClassifierTree.prune (-S: no raising)          -> error_based
#   C45PruneableClassifierTree.prune, getEstimatedErrorsForBranch, newDistribution
#                                                              -> error_based_raising

# weka.core.Utils.SMALL, the tolerance of Utils.eq, smOrEq and grOrEq.
_SMALL = 1e-6
# C45PruneableClassifierTree.collapse: a subtree is collapsed when its training errors are not
# below the node's own by more than this.
_COLLAPSE_TOLERANCE = 1e-3
# C45PruneableClassifierTree.prune: a leaf (or the largest branch) is preferred when its
# estimated errors exceed the alternative's by at most this many examples.
_PRUNE_TOLERANCE = 0.1

# The rational approximations of Moshier's Cephes ``ndtri``, which Weka's
# Statistics.normalInverse implements: (P0, Q0) for |y - 1/2| <= 1/2 - exp(-2), (P1, Q1) and
# (P2, Q2) for the tails with sqrt(-2 log y) below and above 8.
_NDTRI_P0 = (-59.96335010141079, 98.00107541859997, -56.67628574690703, 13.931260938727968,
             -1.2391658386738125)
_NDTRI_Q0 = (1.9544885833814176, 4.676279128988815, 86.36024213908905, -225.46268785411937,
             200.26021238006066, -82.03722561683334, 15.90562251262117, -1.1833162112133)
_NDTRI_P1 = (4.0554489230596245, 31.525109459989388, 57.16281922464213, 44.08050738932008,
             14.684956192885803, 2.1866330685079025, -0.1402560791713545,
             -0.03504246268278482, -8.574567851546854e-4)
_NDTRI_Q1 = (15.779988325646675, 45.39076351288792, 41.3172038254672, 15.04253856929075,
             2.504649462083094, -0.14218292285478779, -0.03808064076915783,
             -9.332594808954574e-4)
_NDTRI_P2 = (3.2377489177694603, 6.915228890689842, 3.9388102529247444, 1.3330346081580755,
             0.20148538954917908, 0.012371663481782003, 3.0158155350823543e-4,
             2.6580697468673755e-6, 6.239745391849833e-9)
_NDTRI_Q2 = (6.02427039364742, 3.6798356385616087, 1.3770209948908132, 0.21623699359449663,
             0.013420400608854318, 3.2801446468212774e-4, 2.8924786474538068e-6,
             6.790194080099813e-9)
_EXP_MINUS_2 = 0.1353352832366127


def _horner(x: float, coefficients, leading_one: bool = False) -> float:
    """A polynomial in x by Horner's rule, highest power first (Cephes' polevl and p1evl).

    With ``leading_one`` the polynomial has an implicit leading coefficient 1, as in p1evl.
    """
    value = x + coefficients[0] if leading_one else coefficients[0]
    for c in coefficients[1:]:
        value = value * x + c
    return value


def _normal_inverse(y0: float) -> float:
    """The standard normal quantile z with Phi(z) = y0, computed as Weka computes it.

    Weka's ``weka.core.Statistics.normalInverse`` is Moshier's Cephes ``ndtri``: a rational
    function of y - 1/2 in the central range y in (e^-2, 1 - e^-2), and of 1/x with
    x = sqrt(-2 log y) in the tails (with x0 = x - log(x)/x as the leading term). The
    arithmetic here is done in Weka's order, so the result has Weka's last digits;
    ``scipy.special.ndtri`` differs from it in the last bit for about half of all arguments.
    """
    if not 0.0 < y0 < 1.0:
        raise ValueError(f"the normal quantile needs a probability in (0, 1), got {y0!r}.")
    y, negate = y0, True
    if y > 1.0 - _EXP_MINUS_2:
        y, negate = 1.0 - y, False
    if y > _EXP_MINUS_2:
        y = y - 0.5
        y2 = y * y
        x = y + y * (y2 * _horner(y2, _NDTRI_P0) / _horner(y2, _NDTRI_Q0, True))
        return x * math.sqrt(2.0 * math.pi)
    x = math.sqrt(-2.0 * math.log(y))
    x0 = x - math.log(x) / x
    z = 1.0 / x
    p, q = (_NDTRI_P1, _NDTRI_Q1) if x < 8.0 else (_NDTRI_P2, _NDTRI_Q2)
    x = x0 - z * _horner(z, p) / _horner(z, q, True)
    return -x if negate else x


def _check_confidence(confidence) -> np.float32:
    """Validate C4.5's confidence factor CF; return it as the float32 J48 stores it."""
    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real):
        raise TypeError(f"confidence must be a real number in (0, 1), got "
                        f"{type(confidence).__name__}.")
    cf = np.float32(confidence)
    if not (0.0 < float(confidence) < 1.0 and 0.0 < float(cf) < 1.0):
        raise ValueError(
            f"confidence must lie in (0, 1), got {confidence!r}. It is C4.5's confidence "
            "factor CF (J48's -C): the upper limit U_CF(e, N) is the error rate p at which "
            "seeing e or fewer errors in N has probability CF, so smaller values prune more. "
            "J48 itself accepts values up to 1, but above 0.5 it prints 'confidence value for "
            "pruning too high' and adds no errors at all, pruning on training errors alone "
            "(prunekit does the same for confidence in (0.5, 1), with a warning)."
        )
    if float(cf) > 0.5:
        warnings.warn(
            f"confidence={confidence!r} is above 0.5: as in J48, no errors are added to the "
            "training errors (the upper limit U_CF(e, N) is then e/N).",
            UserWarning, stacklevel=3,
        )
    return cf


def _added_errors(n: np.ndarray, e: np.ndarray, cf: np.float32) -> np.ndarray:
    """Weka's ``Stats.addErrs(N, e, CF)``, elementwise: N U_CF(e, N) - e.

    ``n`` must be positive; the caller handles N = 0.
    """
    if float(cf) > 0.5:
        return np.zeros(np.broadcast(n, e).shape)
    # J48 keeps CF as a float: 1 - CF is a float subtraction, widened to double afterwards.
    z = _normal_inverse(float(np.float32(1.0) - cf))
    n, e = (np.array(a, dtype=float) for a in np.broadcast_arrays(n, e))
    with np.errstate(divide="ignore", invalid="ignore"):
        def wilson(errors):
            f = (errors + 0.5) / n
            spread = np.sqrt(f / n - f * f / n + z * z / (4.0 * n * n))
            rate = (f + z * z / (2.0 * n) + z * spread) / (1.0 + z * z / n)
            return rate * n - errors

        def general(errors):
            return np.where(errors + 0.5 >= n, np.maximum(n - errors, 0.0), wilson(errors))

        result = general(e)
        small = e < 1
        if np.any(small):
            n_small, e_small = n[small], e[small]
            # Java's Math.pow and the C library's pow agree to the last bit far more often
            # than numpy's vectorised power does.
            unique_n, where = np.unique(n_small, return_inverse=True)
            powers = np.array([math.pow(float(cf), 1.0 / v) for v in unique_n.tolist()])
            base = n_small * (1.0 - powers[where.ravel()])
            one = general(1.0)[small]
            result[small] = np.where(e_small == 0, base, base + e_small * (one - base))
        return result


def _as_error_counts(errors, n):
    """Errors e and examples N of leaves, broadcast together, with e <= N."""
    errors = check_numbers(errors, "errors", minimum=0)
    n = check_numbers(n, "n", minimum=0)
    check_broadcastable(errors=errors, n=n)
    errors, n = np.broadcast_arrays(errors, n)
    if np.any(errors > n):
        raise ValueError("errors must not exceed n: a node cannot misclassify more examples "
                         "than reach it.")
    return errors, n


def _scalar_or_array(value: np.ndarray, *inputs):
    return float(value) if all(np.ndim(x) == 0 for x in inputs) else value


def estimated_errors(errors, n, confidence=0.25):
    """C4.5's pessimistic error count of a leaf: N U_CF(e, N), exactly as Weka's J48 computes it.

    A leaf with N training examples, e of them misclassified, is charged
    ``e + addErrs(N, e, CF)`` errors (Quinlan 1993, Ch. 4; Weka's
    ``C45PruneableClassifierTree.getEstimatedErrorsForDistribution``), where
    ``Stats.addErrs`` computes N U_CF(e, N) - e by these cases, in this order:

    * CF > 0.5: 0 (J48 warns and adds nothing);
    * e < 1: with B = N (1 - CF^(1/N)), the exact binomial limit for e = 0
      ((1 - U)^N = CF), the value is B at e = 0 and B + e (addErrs(N, 1) - B) for 0 < e < 1;
    * e + 1/2 >= N: max(N - e, 0), i.e. U = 1;
    * otherwise the Wilson score upper limit of the rate f = (e + 1/2)/N (a continuity
      correction of 1/2) at z = Phi^{-1}(1 - CF):

          U = (f + z^2/(2N) + z sqrt(f/N - f^2/N + z^2/(4N^2))) / (1 + z^2/N).

    J48 stores CF as a 32-bit float; it is used as such here (``numpy.float32(confidence)``),
    including the float subtraction 1 - CF before the normal quantile, which follows Weka's
    ``Statistics.normalInverse`` (Cephes' ``ndtri``) digit for digit.

    Parameters
    ----------
    errors : float or array-like
        e, the training errors of the leaf (N minus the count of its majority class).
    n : float or array-like
        N, the training examples at the leaf. N = 0 gives 0 (J48's rule for an empty leaf:
        ``Utils.eq(total, 0)``, i.e. N < 1e-6).
    confidence : float in (0, 1), default 0.25
        CF (J48's ``-C``). Above 0.5 J48 adds no errors, and neither does this function
        (with a warning); values outside (0, 1) raise ``ValueError``.

    Returns
    -------
    float or ndarray
        e + addErrs(N, e, CF), broadcast over ``errors`` and ``n``.

    Notes
    -----
    Quinlan's own C4.5 (release 8, ``stats.c``) computes the same limit with two
    differences: z is interpolated linearly in a nine-entry table of CF (z = 0.6925 at
    CF = 0.25, where the exact quantile is 0.6745), and the case e + 1/2 >= N adds
    0.67 (N - e). J48, and prunekit, use the exact quantile and the rules above.

    Examples
    --------
    Six examples, none misclassified: 6 (1 - 0.25^(1/6)) errors.

    >>> round(estimated_errors(0, 6), 4)
    1.2378
    >>> round(estimated_errors(1, 16), 4)
    2.4757
    """
    cf = _check_confidence(confidence)
    e, n_array = _as_error_counts(errors, n)
    empty = np.abs(n_array) < _SMALL
    safe_n = np.where(empty, 1.0, n_array)
    value = np.where(empty, 0.0, e + _added_errors(safe_n, e, cf))
    return _scalar_or_array(value, errors, n)


def upper_confidence_limit(errors, n, confidence=0.25):
    """C4.5's upper confidence limit U_CF(e, N) of a leaf's error rate, as J48 computes it.

    Quinlan (1993, Ch. 4) treats the e errors among the N training examples of a leaf as a
    binomial sample and takes as its error rate the upper limit U_CF(e, N): the rate p at which
    e or fewer errors would be observed with probability CF. J48 approximates it by the
    Wilson score bound with a continuity correction; this function returns
    ``estimated_errors(errors, n, confidence) / n`` (see :func:`estimated_errors` for the
    formula and its special cases).

    Parameters
    ----------
    errors : float or array-like
        e, the training errors (0 <= e <= N).
    n : float or array-like
        N > 0, the training examples.
    confidence : float in (0, 1), default 0.25
        CF; above 0.5 J48 adds no errors and U_CF(e, N) = e/N (with a warning).

    Returns
    -------
    float or ndarray
        U_CF(e, N), a rate in [e/N, 1].

    Examples
    --------
    >>> round(upper_confidence_limit(0, 6), 4)
    0.2063
    """
    cf = _check_confidence(confidence)
    e, n_array = _as_error_counts(errors, n)
    if np.any(n_array <= 0):
        raise ValueError("n must be positive: the upper limit is a rate over n examples.")
    value = (e + _added_errors(n_array, e, cf)) / n_array
    return _scalar_or_array(value, errors, n)


def _sm_or_eq(a, b):
    """Weka's ``Utils.smOrEq(a, b)``: a - b < 1e-6 or a <= b."""
    return (a - b < _SMALL) | (a <= b)


def _node_estimates(counts: np.ndarray, cf: np.float32) -> np.ndarray:
    """J48's estimated errors of every row of ``counts`` taken as a leaf (0 for empty rows)."""
    counts = np.asarray(counts, dtype=float)
    n = counts.sum(axis=1)
    e = n - counts.max(axis=1)
    empty = n < _SMALL
    safe_n = np.where(empty, 1.0, n)
    return np.where(empty, 0.0, e + _added_errors(safe_n, e, cf))


def _collapse_mask(tree: Tree) -> np.ndarray:
    """Internal nodes J48's collapse turns into leaves (the test on the unpruned tree)."""
    counts = tree.counts.astype(float)
    as_leaf = counts.sum(axis=1) - counts.max(axis=1)
    below = tree.sum_over_leaves(as_leaf)
    return ~tree.is_leaf & (below >= as_leaf - _COLLAPSE_TOLERANCE)


def collapse(tree: Tree) -> Pruning:
    """J48's collapse: cut every subtree that does not reduce the training error.

    Weka's ``C45PruneableClassifierTree.collapse`` visits the tree from the root down and
    makes a node t a leaf when the training errors of the leaves below it are not smaller
    than t's own by more than 10^-3,

        sum over the leaves s of T_t of e(s)  >=  e(t) - 0.001,

    where e is the number of training examples outside a node's majority class; the nodes
    below a collapsed node are not visited. With majority labels the left side is never
    larger than e(t), so the test asks whether the split's subtree fixes no training error.
    J48 runs it before pruning, and also when pruning is off (``-U``) in Weka 3.6: its
    unpruned trees are collapsed trees.

    Parameters
    ----------
    tree : Tree
        Its growing counts are the training counts.

    Returns
    -------
    Pruning
        The collapsed tree; its leaves predict the majority class of their counts.

    Notes
    -----
    The test reads only the original subtree of each node, so one bottom-up sum of leaf
    errors decides every node and :meth:`Pruning.from_collapsed` applies the top-down rule:
    O(n_nodes).
    """
    tree = check_tree(tree)
    return Pruning.from_collapsed(tree, _collapse_mask(tree), np.argmax(tree.counts, axis=1))


def error_based(tree: Tree, confidence=0.25) -> Pruning:
    """C4.5's error-based pruning (EBP) without subtree raising, exactly as Weka's J48 ``-S``.

    After :func:`collapse`, the nodes are visited bottom-up (Quinlan 1993, Ch. 4; Weka's
    ``C45PruneableClassifierTree.prune``). Each node t is charged, as a leaf,
    E(t) = N(t) U_CF(e(t), N(t)) errors (:func:`estimated_errors`), and its subtree, already
    pruned below, the sum of E over its leaves, E(T_t). The node becomes a leaf when

        E(t) <= E(T_t) + 0.1,

    compared with Weka's ``Utils.smOrEq`` (a difference below 10^-6 counts as equal): a tie,
    and a leaf worse by at most 0.1 errors, go to the leaf. The sums are formed in J48's
    order (left subtree, then right), so every comparison sees J48's floating-point values.

    Parameters
    ----------
    tree : Tree
        The grown (unpruned) tree; its growing counts are the training counts J48 would have.
    confidence : float in (0, 1), default 0.25
        C4.5's confidence factor CF (J48's ``-C``); smaller values prune more. Above 0.5 J48
        adds no errors (E(t) = e(t)) and only the 0.1 tolerance prunes; this function does the
        same, with a warning.

    Returns
    -------
    Pruning
        Leaves predict the majority class of their growing counts (J48's ``maxClass``, ties
        to the smallest class index).

    See Also
    --------
    error_based_raising : J48's default, which also raises subtrees.

    Notes
    -----
    One vectorised pass over the internal nodes, level by level from the deepest:
    O(n_nodes). The tree J48 ``-S -C CF`` builds from the same data is, node for node, the
    pruning returned for the tree J48 ``-U`` builds (``tests/test_j48.py`` checks it).
    """
    tree = check_tree(tree)
    cf = _check_confidence(confidence)
    as_leaf = _node_estimates(tree.counts, cf)
    collapsed = _collapse_mask(tree)
    subtree = as_leaf.copy()
    leaf = collapsed.copy()
    for inner in tree.inner_levels:
        below = subtree[tree.left[inner]] + subtree[tree.right[inner]]
        prune = collapsed[inner] | _sm_or_eq(as_leaf[inner], below + _PRUNE_TOLERANCE)
        leaf[inner] = prune
        subtree[inner] = np.where(prune, as_leaf[inner], below)
    return Pruning.from_collapsed(tree, leaf, np.argmax(tree.counts, axis=1))


class _SubtreeRaising:
    """The state of J48's pruning with subtree raising on a mutable copy of a tree.

    Each node keeps its split (feature, threshold), children and a flag ``leaf``; the growing
    sample is held in one permutation ``perm`` of the example indices, ordered so that the
    examples of every node form the slice ``perm[start[v]:stop[v]]`` (a node's examples are
    its left child's followed by its right child's). ``counts`` are the class counts of
    those examples, ``as_leaf`` their estimated errors, and ``subtree`` the estimated errors
    of the node's current subtree (J48's ``getEstimatedErrors``), valid once it is pruned.

    J48 prunes recursively, and a node it raises is pruned again before its parent is
    decided. Here the internal nodes of a subtree are decided level by level from the
    deepest, every level at once (nodes of one level have disjoint subtrees, so their
    decisions are independent, as in J48's recursion); the nodes a level raises are pruned
    again, by a nested pass over their new subtrees, before the next level up. The nested
    passes are generators on an explicit stack.
    """

    def __init__(self, tree: Tree, X: np.ndarray, codes: np.ndarray, leaf: np.ndarray,
                 cf: np.float32):
        self.cf = cf
        self.flat = np.ascontiguousarray(X).ravel()
        self.n_columns = X.shape[1]
        self.codes = codes
        self.n_classes = tree.n_classes
        self.children = np.column_stack([tree.left, tree.right])
        # views: writing a node's children through left and right updates ``children``
        self.left, self.right = self.children[:, 0], self.children[:, 1]
        self.feature, self.threshold = tree.feature.copy(), tree.threshold.copy()
        self.leaf = tree.is_leaf | _collapse_mask(tree)
        n_nodes = tree.n_nodes
        self.slot = np.zeros(n_nodes, dtype=np.intp)  # scratch space of route
        self.perm = np.arange(len(codes))
        self.start = np.zeros(n_nodes, dtype=np.intp)
        self.stop = np.zeros(n_nodes, dtype=np.intp)
        self.counts = np.zeros((n_nodes, self.n_classes), dtype=np.int64)
        self.as_leaf = np.zeros(n_nodes)
        self.subtree = np.zeros(n_nodes)
        # scratch space of the branch estimates: a value and a flag per node
        self.branch = np.zeros(n_nodes)
        self.in_branch = np.zeros(n_nodes, dtype=bool)
        self.layout(0, self.perm.copy(), tree.highest_marked(self.leaf)[leaf])

    # -- the examples --------------------------------------------------------------------
    def preorder(self, node: int) -> list[int]:
        """The nodes of the current subtree of ``node``, parents before children."""
        order, stack = [], [node]
        left, right, leaf = self.left, self.right, self.leaf
        while stack:
            v = stack.pop()
            order.append(v)
            if not leaf[v]:
                stack.extend((right[v], left[v]))
        return order

    def route(self, samples: np.ndarray, start, passed=None) -> np.ndarray:
        """Send each example down the current tree from its node in ``start``.

        Returns each example's leaf. A list given as ``passed`` receives the internal nodes
        passed, one array per step (the nodes at depth k below the starting nodes at step k).
        """
        reached = np.empty(len(samples), dtype=np.intp)
        active = np.arange(len(samples))
        current = np.broadcast_to(np.asarray(start, dtype=np.intp), (len(samples),)).copy()
        row = samples * self.n_columns  # where each example's row starts in the flat sample
        while active.size:
            done = self.leaf[current]
            if done.any():
                reached[active[done]] = current[done]
                going = ~done
                active, current, row = active[going], current[going], row[going]
                if not active.size:
                    break
            if passed is not None:
                # one entry per distinct node: the last example written for a node keeps it
                self.slot[current] = np.arange(len(current))
                passed.append(current[self.slot[current] == np.arange(len(current))])
            value = self.flat[row + self.feature[current]]
            current = self.children[current, (value > self.threshold[current]).view(np.int8)]
        return reached

    def layout(self, node: int, samples: np.ndarray, reached=None) -> None:
        """Place ``samples`` (all the examples of ``node``) at the leaves of its subtree.

        Reorders them inside ``node``'s slice of ``perm`` and sets the slices, class counts
        and leaf estimates of every node of the subtree: Weka's ``newDistribution``.
        ``reached`` gives each example's leaf when it is known; by default the examples are
        routed from ``node``.
        """
        if reached is None:
            reached = self.route(samples, node)
        nodes = np.array(self.preorder(node), dtype=np.intp)
        by_index = np.argsort(nodes)
        reached_rank = by_index[np.searchsorted(nodes[by_index], reached)]  # preorder positions
        order = np.argsort(reached_rank, kind="stable")
        first = self.start[node]
        samples = samples[order]
        self.perm[first:first + len(samples)] = samples
        # slices: each leaf's examples in preorder, then parents span their children
        is_leaf = self.leaf[nodes]
        leaves = nodes[is_leaf]
        sizes = np.bincount(reached_rank, minlength=len(nodes))[is_leaf]
        ends = first + np.cumsum(sizes)
        self.start[leaves], self.stop[leaves] = ends - sizes, ends
        for v in nodes[~is_leaf][::-1].tolist():
            self.start[v], self.stop[v] = self.start[self.left[v]], self.stop[self.right[v]]
        # class counts from cumulative one-hot counts of the reordered slice
        cumulative = np.zeros((len(samples) + 1, self.n_classes), dtype=np.int64)
        np.cumsum(np.eye(self.n_classes, dtype=np.int64)[self.codes[samples]], axis=0,
                  out=cumulative[1:])
        self.counts[nodes] = (cumulative[self.stop[nodes] - first]
                              - cumulative[self.start[nodes] - first])
        self.as_leaf[nodes] = _node_estimates(self.counts[nodes], self.cf)
        self.subtree[leaves] = self.as_leaf[leaves]

    def slices(self, nodes: np.ndarray) -> np.ndarray:
        """The examples of all ``nodes``, slice after slice, as positions in ``perm``."""
        lengths = self.stop[nodes] - self.start[nodes]
        offsets = np.cumsum(lengths) - lengths
        return (np.arange(lengths.sum()) - np.repeat(offsets, lengths)
                + np.repeat(self.start[nodes], lengths))

    # -- J48's decision ------------------------------------------------------------------
    def branch_estimates(self, branches: np.ndarray, others: np.ndarray):
        """Estimated errors of each branch receiving its parent's examples.

        Returns the estimates, and the leaf each example of the siblings reaches (the
        examples in the order of :meth:`slices`).

        Weka's ``getEstimatedErrorsForBranch``: the examples of the sibling are routed
        through the (pruned) branch as well, each leaf takes the class counts of all the
        examples it receives, and the leaves' estimates are summed in the tree's order.
        Only the nodes the sibling's examples pass change; the others keep their estimates.
        """
        lengths = self.stop[others] - self.start[others]
        samples = self.perm[self.slices(others)]
        if not samples.size:
            return self.subtree[branches].copy(), np.zeros(0, dtype=np.intp)
        passed = []
        reached = self.route(samples, np.repeat(branches, lengths), passed)
        touched, where = np.unique(reached, return_inverse=True)
        extra = np.bincount(where.ravel() * self.n_classes + self.codes[samples],
                            minlength=len(touched) * self.n_classes)
        grown = self.counts[touched] + extra.reshape(len(touched), self.n_classes)
        value, flag = self.branch, self.in_branch
        value[touched] = _node_estimates(grown, self.cf)
        flag[touched] = True
        for nodes in reversed(passed):
            left, right = self.left[nodes], self.right[nodes]
            value[nodes] = (np.where(flag[left], value[left], self.subtree[left])
                            + np.where(flag[right], value[right], self.subtree[right]))
            flag[nodes] = True
        result = np.where(flag[branches], value[branches], self.subtree[branches])
        flag[touched] = False
        for nodes in passed:
            flag[nodes] = False
        return result, reached

    def decide(self, nodes: np.ndarray) -> np.ndarray:
        """J48's decision at internal nodes whose subtrees are pruned; returns those raised.

        At each node: the leaf, when its estimate is within 0.1 of both the subtree's and
        the largest branch's; else the largest branch, raised in its place, when its
        estimate is within 0.1 of the subtree's; else the subtree.
        """
        left, right = self.left[nodes], self.right[nodes]
        n_left = self.stop[left] - self.start[left]
        n_right = self.stop[right] - self.start[right]
        # Distribution.maxBag: the last bag with the largest weight (Utils.grOrEq)
        right_largest = (n_left - n_right < _SMALL) | (n_right >= n_left)
        largest, other = np.where(right_largest, right, left), np.where(right_largest, left, right)
        as_branch, reached = self.branch_estimates(largest, other)
        as_leaf = self.as_leaf[nodes]
        as_tree = self.subtree[left] + self.subtree[right]
        to_leaf = (_sm_or_eq(as_leaf, as_tree + _PRUNE_TOLERANCE)
                   & _sm_or_eq(as_leaf, as_branch + _PRUNE_TOLERANCE))
        to_raise = ~to_leaf & _sm_or_eq(as_branch, as_tree + _PRUNE_TOLERANCE)
        self.leaf[nodes[to_leaf]] = True
        self.subtree[nodes] = np.where(to_leaf, as_leaf, as_tree)
        lengths = self.stop[other] - self.start[other]
        offsets = np.cumsum(lengths) - lengths
        for i in np.flatnonzero(to_raise).tolist():
            self.raise_branch(int(nodes[i]), int(largest[i]), int(other[i]),
                              reached[offsets[i]:offsets[i] + lengths[i]])
        return nodes[to_raise]

    def raise_branch(self, v: int, branch: int, other: int, other_reached) -> None:
        """Put ``branch`` in the place of its parent ``v``, with all of ``v``'s examples.

        The examples of ``branch`` stay at their leaves; those of ``other`` go to the leaves
        :meth:`branch_estimates` routed them to.
        """
        own = np.array(self.preorder(branch), dtype=np.intp)
        own = own[self.leaf[own]]
        own_reached = np.repeat(own, self.stop[own] - self.start[own])
        samples = np.concatenate([self.perm[self.start[branch]:self.stop[branch]],
                                  self.perm[self.start[other]:self.stop[other]]])
        reached = np.concatenate([own_reached, other_reached])
        if self.leaf[branch]:
            reached[:] = v
        self.feature[v], self.threshold[v] = self.feature[branch], self.threshold[branch]
        self.left[v], self.right[v] = self.left[branch], self.right[branch]
        self.leaf[v] = self.leaf[branch]
        self.layout(v, samples, reached)

    def prune_pass(self, roots: np.ndarray):
        """Prune the subtrees of ``roots`` bottom-up; yields the nodes each level raises."""
        levels, frontier = [], roots[~self.leaf[roots]]
        while frontier.size:
            levels.append(frontier)
            children = np.concatenate([self.left[frontier], self.right[frontier]])
            frontier = children[~self.leaf[children]]
        for nodes in reversed(levels):
            raised = self.decide(nodes)
            if raised.size:
                yield raised

    def prune(self) -> None:
        """``C45PruneableClassifierTree.prune`` on the root."""
        passes = [self.prune_pass(np.array([0], dtype=np.intp))]
        while passes:
            raised = next(passes[-1], None)
            if raised is None:
                passes.pop()
            else:
                passes.append(self.prune_pass(raised))

    def result(self, tree: Tree) -> Tree:
        """The pruned tree as a new :class:`Tree`, its nodes numbered in preorder."""
        nodes = np.array(self.preorder(0), dtype=np.intp)
        number = np.full(len(self.leaf), -1, dtype=np.intp)
        number[nodes] = np.arange(len(nodes))
        inner = ~self.leaf[nodes]
        left = np.where(inner, number[self.left[nodes]], -1)
        right = np.where(inner, number[self.right[nodes]], -1)
        return Tree(left, right, self.counts[nodes],
                    feature=np.where(inner, self.feature[nodes], -1),
                    threshold=np.where(inner, self.threshold[nodes], np.nan),
                    classes=tree.classes_, n_features=tree.n_features,
                    criterion=tree.criterion, dtype=tree.dtype)


def error_based_raising(tree: Tree, X, y, confidence=0.25) -> Tree:
    """C4.5's error-based pruning with subtree raising: Weka J48's default tree.

    The bottom-up pass of :func:`error_based` (after :func:`collapse`), with a third
    candidate at every internal node t (Quinlan 1993, Ch. 4; Weka's
    ``C45PruneableClassifierTree.prune``): the *largest branch* B, the child that receives
    more training examples (J48's ``Distribution.maxBag``; on a tie the right child). B is
    charged E_B, the estimated errors of B's pruned subtree when *all* of t's training
    examples are sent through it (``getEstimatedErrorsForBranch``: each leaf re-counts its
    classes and takes its new majority). With E(t) and E(T_t) as in :func:`error_based`:

    * if E(t) <= E(T_t) + 0.1 and E(t) <= E_B + 0.1, t becomes a leaf;
    * else if E_B <= E(T_t) + 0.1, B is *raised*: it takes t's place, t's examples are
      routed through it (``newDistribution``: every node below gets new class counts), and
      the new subtree is pruned again from its leaves up, raising included;
    * else t keeps its subtree.

    The comparisons are Weka's ``Utils.smOrEq`` (equal within 10^-6).

    Raising moves examples into nodes whose split never saw them, so the result is not a
    pruning of ``tree`` (a mask over its nodes with the same counts): it is a new tree,
    returned with its class counts.

    Parameters
    ----------
    tree : Tree
        The grown tree, with split rules.
    X : array-like of shape (m, n_features)
    y : array-like of shape (m,)
        The growing sample: the examples whose class counts ``tree.counts`` holds (checked).
        Raising needs the examples themselves, not only the counts.
    confidence : float in (0, 1), default 0.25
        C4.5's confidence factor CF (J48's ``-C``); see :func:`error_based`.

    Returns
    -------
    Tree
        The pruned and raised tree, nodes numbered in preorder, ``counts`` those of the
        growing sample routed through it, leaves predicting their majority class.

    Notes
    -----
    The decisions are J48's, in an order that gives the same tree: all internal nodes of
    one depth at once, from the deepest level up (their subtrees are disjoint), and the
    subtrees raised at a level pruned again before the level above, by nested passes kept
    on an explicit stack rather than by recursion, so deep trees are no problem. The
    examples are kept in one array, ordered so that every node's examples are a slice of
    it. At a node with m_t examples, only those of the smaller child are routed through
    the larger one, O(m_t depth) vectorised steps; a raise reuses that routing and
    reorders the node's slice, O(m_t log m_t + size of the subtree), and the raised
    subtree is pruned again (as J48 does). Without raises one pass costs O(m depth^2) at
    worst, with O(depth^2) numpy operations.
    """
    tree = check_tree(tree)
    cf = _check_confidence(confidence)
    X, y = tree.check_sample(X, y)
    codes = encode_labels(y, tree.classes_)
    leaf = tree.apply(X, check_input=False)
    counts = tree.counts_from_leaves(leaf, codes)
    if not np.array_equal(counts, tree.counts):
        raise ValueError(
            "X and y must be the sample the tree was grown on: their class counts differ from "
            "tree.counts (subtree raising re-routes the growing examples, so it needs exactly "
            "those)."
        )
    state = _SubtreeRaising(tree, X, codes, leaf, cf)
    state.prune()
    return state.result(tree)


# ---------------------------------------------------------------------------------------------
# Pessimistic, minimum-error and critical-value pruning

# -- PEP ---------------------------------------------------------------------------------------

PEP_ORDERS = ("top-down", "bottom-up")


def _exact_integers(*arrays):
    """The arrays as int64, or as Python integers when int64 could overflow in a cube of them."""
    largest = max((int(np.max(a)) if np.size(a) else 0) for a in arrays)
    dtype = np.int64 if largest < 1_000_000 else object
    return tuple(np.asarray(a).astype(dtype) for a in arrays)


def _pessimistic_test(leaf2, subtree2, n_samples):
    """Quinlan's test n'(t) <= n'(T_t) + SE(n'(T_t)), decided exactly in integers.

    With a = 2 n'(t), b = 2 n'(T_t) and N = N(t) (all integers), the test reads
    a - b <= 2 SE = sqrt(b (2N - b) / N): it holds when a <= b, and otherwise exactly when
    N (a - b)^2 <= b (2N - b).
    """
    a, b, n = _exact_integers(leaf2, subtree2, n_samples)
    gap = a - b
    return (gap <= 0) | (n * gap * gap <= b * (2 * n - b))


def pessimistic_standard_error(subtree_errors, n_samples):
    """Quinlan's (1987) standard error of a subtree's corrected error count.

    Treating the corrected count n'(T_t) of errors among the N(t) training examples at t as
    binomial, Quinlan (1987, in the section on pessimistic pruning) takes

        SE(n'(T_t)) = sqrt(n'(T_t) (N(t) - n'(T_t)) / N(t)).

    Parameters
    ----------
    subtree_errors : float or array-like
        n'(T_t), the corrected error count (training errors plus 1/2 per leaf).
    n_samples : int or array-like
        N(t), the number of training examples at the node.

    Returns
    -------
    float or ndarray
        The standard error; 0 where N(t) = 0 or n'(T_t) >= N(t) (the binomial variance
        would be negative there, so it is clipped at 0).
    """
    e = check_numbers(subtree_errors, "subtree_errors", minimum=0)
    n = check_numbers(n_samples, "n_samples", minimum=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        variance = np.where(n > 0, e * (n - e) / n, 0.0)
    se = np.sqrt(np.maximum(variance, 0.0))
    return float(se) if se.ndim == 0 else se


class PessimisticErrors(NamedTuple):
    """The numbers of Quinlan's (1987) pessimistic pruning at every node of the full tree.

    Attributes
    ----------
    as_leaf : ndarray of shape (n_nodes,)
        n'(t) = e(t) + 1/2: training errors of t as a leaf, plus the continuity correction.
    subtree : ndarray of shape (n_nodes,)
        n'(T_t) = sum of e(s) over the leaves s of T_t, plus 1/2 per leaf (= ``as_leaf`` at a
        leaf of the tree).
    standard_error : ndarray of shape (n_nodes,)
        SE(n'(T_t)) = sqrt(n'(T_t) (N(t) - n'(T_t)) / N(t)).
    prune : ndarray of bool, shape (n_nodes,)
        Quinlan's test n'(t) <= n'(T_t) + SE(n'(T_t)) at the internal nodes (False at leaves).
    """

    as_leaf: np.ndarray
    subtree: np.ndarray
    standard_error: np.ndarray
    prune: np.ndarray


def _doubled_leaf_errors(tree: Tree) -> np.ndarray:
    """2 n'(t) = 2 e(t) + 1 at every node, in integers."""
    return 2 * tree.leaf_errors() + 1


def pessimistic_errors(tree: Tree) -> PessimisticErrors:
    """Quinlan's (1987) corrected error counts, standard errors and tests on the full tree.

    These are the numbers top-down pessimistic pruning (:func:`pessimistic`) looks at: it
    tests every node against the *unpruned* subtree below it. See :class:`PessimisticErrors`.

    Parameters
    ----------
    tree : Tree

    Returns
    -------
    PessimisticErrors
    """
    check_tree(tree)
    leaf2 = _doubled_leaf_errors(tree)
    subtree2 = tree.sum_over_leaves(leaf2)
    n_samples = tree.counts.sum(axis=1)
    prune = _pessimistic_test(leaf2, subtree2, n_samples) & ~tree.is_leaf
    subtree = subtree2 / 2
    return PessimisticErrors(leaf2 / 2, subtree, pessimistic_standard_error(subtree, n_samples),
                             np.asarray(prune, dtype=bool))


def pessimistic(tree: Tree, *, order: str = "top-down") -> Pruning:
    """Pessimistic error pruning (PEP), Quinlan (1987).

    Training errors are made pessimistic by a continuity correction of 1/2 per leaf: a node t
    with N(t) training examples and e(t) errors as a leaf counts n'(t) = e(t) + 1/2, and the
    subtree T_t below it counts n'(T_t) = sum_s e(s) + L(T_t)/2 over its L(T_t) leaves s.
    The subtree is replaced by a leaf when the leaf is within one standard error of it
    (Quinlan 1987, section on pessimistic pruning; restated by Esposito, Malerba & Semeraro
    1997):

        n'(t) <= n'(T_t) + SE(n'(T_t)),   SE(n'(T_t)) = sqrt(n'(T_t) (N(t) - n'(T_t)) / N(t)).

    Ties (equality) prune, as the "<=" of the rule says; the test is decided exactly, in
    integers (see Notes).

    Parameters
    ----------
    tree : Tree
        The grown tree; only its growing counts and leaf labels are used (PEP needs no
        pruning sample).
    order : {"top-down", "bottom-up"}, default "top-down"
        ``"top-down"`` is Quinlan's procedure: the nodes are visited from the root down, each
        tested against the whole subtree the grower built below it, and a pruned node's
        descendants are not visited -- so the result collapses the highest nodes that pass the
        test. ``"bottom-up"`` applies the same test from the leaves up against the subtree as
        already pruned below the node (fewer leaves, so a smaller correction), the traversal
        of the other error-estimating methods; it is offered for comparison.

    Returns
    -------
    Pruning
        Leaves keep the tree's labels (the majority of the growing counts).

    Notes
    -----
    With a = 2 n'(t), b = 2 n'(T_t) and N = N(t), all integers, the test is a <= b or
    N (a - b)^2 <= b (2N - b), so no rounding can move a decision. The variance is clipped
    at 0 where n'(T_t) >= N(t) (possible only for leaves of very few examples), and a node
    no training example reaches is always pruned. One pass sums the leaves' corrected errors
    into every node (``order="top-down"``) or decides level by level from the deepest
    (``"bottom-up"``); O(n_nodes) either way.
    """
    check_tree(tree)
    if order not in PEP_ORDERS:
        raise ValueError(f"order must be one of {PEP_ORDERS}, got {order!r}.")
    leaf2 = _doubled_leaf_errors(tree)
    n_samples = tree.counts.sum(axis=1)
    if order == "top-down":
        collapse = _pessimistic_test(leaf2, tree.sum_over_leaves(leaf2), n_samples)
        return Pruning.from_collapsed(tree, collapse & ~tree.is_leaf)
    subtree2 = leaf2.copy()
    collapse = np.zeros(tree.n_nodes, dtype=bool)
    for inner in tree.inner_levels:
        below = subtree2[tree.left[inner]] + subtree2[tree.right[inner]]
        prune = _pessimistic_test(leaf2[inner], below, n_samples[inner])
        collapse[inner] = prune
        subtree2[inner] = np.where(prune, leaf2[inner], below)
    return Pruning.from_collapsed(tree, collapse)


# -- MEP ---------------------------------------------------------------------------------------

# Ties between a node's static and dynamic error go to the leaf; estimates that differ by less
# than this fraction are treated as tied, since both sides are sums of rounded fractions.
_MEP_TIE = 1e-12


def _check_m(m):
    if m is None:
        return None
    if isinstance(m, bool) or not isinstance(m, numbers.Real):
        hint = (" (minimum-error pruning takes no pruning sample; it estimates errors from the "
                "growing counts)" if hasattr(m, "__len__") else "")
        raise TypeError(f"m must be a real number >= 0 or None, got {type(m).__name__}{hint}.")
    m = float(m)
    if not np.isfinite(m) or m < 0:
        raise ValueError(f"m must be a finite number >= 0 (or None for Laplace), got {m!r}.")
    return m


def _check_prior(prior, n_classes: int) -> np.ndarray:
    try:
        p = np.asarray(prior, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(
            f"prior must be an array of {n_classes} class probabilities, got "
            f"{type(prior).__name__}."
        ) from None
    if p.shape != (n_classes,):
        raise ValueError(
            f"prior must hold one probability per class ({n_classes}), got shape {p.shape}."
        )
    if not np.all(np.isfinite(p)) or np.any(p < 0) or not np.isclose(p.sum(), 1.0, atol=1e-9):
        raise ValueError(
            f"prior must be a probability vector (non-negative, summing to 1), got {p.tolist()}."
        )
    return p


def _m_and_prior(m, prior, n_classes: int, default_prior=None):
    """Resolve (m, prior): None gives Niblett & Bratko's Laplace case m = k, uniform prior."""
    m = _check_m(m)
    if m is None:
        if prior is not None:
            raise ValueError(
                "prior is used only with the m-estimate: the Laplace estimate (m=None) has the "
                "uniform prior. Give m as well, e.g. m=2."
            )
        return float(n_classes), np.full(n_classes, 1.0 / n_classes)
    if prior is None:
        if default_prior is None:
            raise ValueError("prior is required with m: the m-estimate needs prior probabilities.")
        return m, default_prior
    return m, _check_prior(prior, n_classes)


def _estimated_errors(tree: Tree, m: float, prior: np.ndarray) -> np.ndarray:
    """N(t) E(t): the m-estimated error rate of every node times its number of examples."""
    n = tree.counts.sum(axis=1).astype(float)
    wrong = tree.leaf_errors() + m * (1.0 - prior[tree.labels])
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(n > 0, n * wrong / (n + m), 0.0)


def m_estimate_error(counts, m=None, prior=None, label=None):
    """Expected error rate of a leaf by the Laplace estimate or the m-estimate.

    For a leaf with N examples, n_c of them of class c, that predicts class y:

    * ``m=None``: Niblett & Bratko's (1986) Laplace estimate with k classes,
      E = (N - n_y + k - 1) / (N + k);
    * ``m >= 0``: Cestnik & Bratko's (1991) m-estimate of the class probability,
      p_y = (n_y + m pi_y) / (N + m), and E = 1 - p_y = (N - n_y + m (1 - pi_y)) / (N + m),
      with prior probabilities pi. With m = k and the uniform prior it is the Laplace estimate;
      with m = 0 it is the training error rate.

    Parameters
    ----------
    counts : array-like of shape (k,) or (n_nodes, k)
        Class counts of one node, or one row per node.
    m : float >= 0 or None, default None
    prior : array-like of shape (k,), optional
        The prior pi; required with ``m`` (:func:`minimum_error` defaults it to the class
        frequencies at the root, which a single node's counts do not know).
    label : int or array of int, optional
        Class index the leaf predicts; default the majority class (ties to the smallest
        index). For the Laplace estimate and for a uniform prior this class also maximises
        p_y, so E is Cestnik & Bratko's 1 - max_c p_c.

    Returns
    -------
    float or ndarray
        The estimated error rate; ``nan`` for an empty node with m = 0.
    """
    counts = np.asarray(counts)
    single = counts.ndim == 1
    counts2 = np.atleast_2d(counts)
    if counts2.ndim != 2 or counts2.shape[1] < 1:
        raise ValueError(f"counts must have shape (k,) or (n_nodes, k), got {counts.shape}.")
    if counts2.dtype.kind not in "iuf" or np.any(~np.isfinite(counts2)) or np.any(counts2 < 0):
        raise ValueError("counts must be non-negative finite class counts.")
    k = counts2.shape[1]
    m, prior = _m_and_prior(m, prior, k)
    if label is None:
        labels = np.argmax(counts2, axis=1)
    else:
        labels = np.broadcast_to(np.asarray(label), (len(counts2),))
        if labels.dtype.kind not in "iu" or labels.min() < 0 or labels.max() >= k:
            raise ValueError(f"label must be a class index in [0, {k}), got {label!r}.")
    n = counts2.sum(axis=1).astype(float)
    wrong = n - counts2[np.arange(len(counts2)), labels] + m * (1.0 - prior[labels])
    with np.errstate(divide="ignore", invalid="ignore"):
        error = wrong / (n + m)
    return float(error[0]) if single else error


class MinimumErrorEstimates(NamedTuple):
    """The numbers of minimum-error pruning at every node (see :func:`minimum_error`).

    Attributes
    ----------
    static : ndarray of shape (n_nodes,)
        E(t), the estimated error rate of t as a leaf.
    dynamic : ndarray of shape (n_nodes,)
        The backed-up error rate of the best pruning below t that keeps t's split:
        sum over the children c of N(c)/N(t) min(static(c), dynamic(c)); ``nan`` at leaves and
        at nodes no training example reaches.
    prune : ndarray of bool, shape (n_nodes,)
        static <= dynamic at the internal nodes: the bottom-up pass makes t a leaf.
    m : float
        The m used (k, the number of classes, for the Laplace estimate).
    prior : ndarray of shape (n_classes,)
        The prior used (uniform for the Laplace estimate).
    """

    static: np.ndarray
    dynamic: np.ndarray
    prune: np.ndarray
    m: float
    prior: np.ndarray


def _root_frequencies(tree: Tree) -> np.ndarray:
    root = tree.counts[0].astype(float)
    total = root.sum()
    return root / total if total > 0 else np.full(tree.n_classes, 1.0 / tree.n_classes)


def minimum_error_estimates(tree: Tree, m=None, prior=None) -> MinimumErrorEstimates:
    """Static and dynamic error estimates of minimum-error pruning at every node.

    Parameters are those of :func:`minimum_error`.

    Returns
    -------
    MinimumErrorEstimates
    """
    check_tree(tree)
    m, prior = _m_and_prior(m, prior, tree.n_classes, _root_frequencies(tree))
    as_leaf = _estimated_errors(tree, m, prior)
    best, below, collapse = _backed_up(tree, as_leaf)
    n = tree.counts.sum(axis=1).astype(float)
    static = m_estimate_error(tree.counts, m, prior, tree.labels)
    with np.errstate(divide="ignore", invalid="ignore"):
        dynamic = np.where(~tree.is_leaf & (n > 0), below / n, np.nan)
    return MinimumErrorEstimates(static, dynamic, collapse & ~tree.is_leaf, m, prior)


def _backed_up(tree: Tree, as_leaf: np.ndarray):
    """Bottom-up pass: best[t] = min(as_leaf[t], below[t]), below[t] = best[left] + best[right]."""
    best = as_leaf.copy()
    below = np.full(tree.n_nodes, np.nan)
    collapse = tree.is_leaf.copy()
    for inner in tree.inner_levels:
        split = best[tree.left[inner]] + best[tree.right[inner]]
        leaf = as_leaf[inner]
        prune = leaf <= split + _MEP_TIE * np.maximum(split, 1.0)
        below[inner] = split
        collapse[inner] = prune
        best[inner] = np.where(prune, leaf, split)
    return best, below, collapse


def minimum_error(tree: Tree, m=None, prior=None) -> Pruning:
    """Minimum-error pruning (MEP): Niblett & Bratko (1986), with Cestnik & Bratko's m-estimate.

    Every node t gets a *static* error, the expected error rate E(t) of t as a leaf (see
    :func:`m_estimate_error`), and a *dynamic* (backed-up) error, the rate of the best pruning
    below it, weighted by the children's shares of t's N(t) training examples:

        E(t) = (N(t) - n_y(t) + m (1 - pi_y)) / (N(t) + m),
        D(t) = sum over the children c of N(c)/N(t) min(E(c), D(c)).

    From the leaves up, t becomes a leaf when E(t) <= D(t) (ties prune). With ``m=None`` the
    estimate is Niblett & Bratko's (1986) Laplace rate (N - n_y + k - 1)/(N + k) for k classes
    (m = k, uniform prior); with ``m`` given it is Cestnik & Bratko's (1991) m-estimate.

    Because N(t) D(t) is a sum over the leaves below, the pass minimises sum_leaves N(s) E(s)
    exactly over all prunings of the tree and returns the smallest minimiser.

    Parameters
    ----------
    tree : Tree
        The grown tree; only its growing counts and labels are used (MEP takes no pruning
        sample).
    m : float >= 0 or None, default None
        ``None`` for the Laplace estimate; otherwise the weight of the prior, in examples.
        m = 0 is pruning on the plain training error; a large m pulls every estimate towards
        the prior and prunes more.
    prior : array-like of shape (n_classes,), optional
        Prior class probabilities pi of the m-estimate; default the class frequencies of the
        growing sample at the root, as Cestnik & Bratko (1991) use. Only with ``m``.

    Returns
    -------
    Pruning
        Leaves keep the tree's labels (majority of the growing counts). Where a non-uniform
        prior with a large m would make another class more probable than the majority at a
        node, E(t) is still the estimated error of the label the leaf predicts.

    Notes
    -----
    One bottom-up pass over the levels, O(n_nodes * n_classes). Static and dynamic errors are
    compared as counts N(t) E(t) and N(t) D(t), so nodes that no training example reaches
    weigh nothing (and are pruned); values that agree to within a relative 1e-12 are treated
    as tied.
    """
    check_tree(tree)
    m, prior = _m_and_prior(m, prior, tree.n_classes, _root_frequencies(tree))
    _, _, collapse = _backed_up(tree, _estimated_errors(tree, m, prior))
    return Pruning.from_collapsed(tree, collapse)


# -- CVP ---------------------------------------------------------------------------------------

#: The names of the split-selection measures critical-value pruning thresholds
#: (:func:`split_measure`); ``"criterion"`` is the one the tree was grown with.
SELECTION_MEASURES = ("entropy", "gini", "gain_ratio", "chi2", "g_statistic", "criterion")


def _resolve_measure(tree: Tree, measure: str) -> str:
    if not isinstance(measure, str) or measure not in SELECTION_MEASURES:
        raise ValueError(f"measure must be one of {SELECTION_MEASURES}, got {measure!r}.")
    if measure != "criterion":
        return measure
    if tree.criterion not in GROWER_CRITERIA:
        raise ValueError(
            f"measure='criterion' uses the tree's growing criterion, and this tree has "
            f"{'none' if tree.criterion is None else repr(tree.criterion)} (a tree from "
            "Tree.from_sklearn with criterion 'gini', 'entropy' or 'log_loss' has one); "
            f"name a measure from {SELECTION_MEASURES[:-1]} instead."
        )
    return GROWER_CRITERIA[tree.criterion]


def split_measure(tree: Tree, measure: str = "entropy") -> np.ndarray:
    """The goodness of every internal node's split, from the growing counts.

    With N examples at node t, N_L and N_R in its children, and class counts n_c:

    * ``"entropy"``: information gain in bits, H(t) - N_L/N H(L) - N_R/N H(R), with
      H = -sum_c p_c log2 p_c (Quinlan's ID3 measure, one of Mingers' 1987 measures);
    * ``"gini"``: decrease of the Gini index 1 - sum_c p_c^2, weighted the same way (CART's);
    * ``"gain_ratio"``: information gain divided by the split information
      -(N_L/N) log2(N_L/N) - (N_R/N) log2(N_R/N) (Quinlan's C4.5); 0 when a child is empty;
    * ``"chi2"``: Pearson's chi-square statistic of the 2 x k table of children by classes,
      sum (O - E)^2 / E with E = N_child n_c / N over the cells with E > 0;
    * ``"g_statistic"``: the likelihood-ratio statistic G = 2 sum O ln(O / E) of the same
      table, which equals 2 ln(2) N times the information gain (Mingers 1987);
    * ``"criterion"``: the measure of the tree's own grower (``"gini"`` or ``"entropy"``).

    Parameters
    ----------
    tree : Tree
    measure : str, default "entropy"

    Returns
    -------
    ndarray of shape (n_nodes,)
        The measure at internal nodes, ``nan`` at leaves. Gains below 1e-12 (rounding of a
        zero gain) are set to 0, so that splits without gain tie exactly.
    """
    check_tree(tree)
    measure = _resolve_measure(tree, measure)
    inner = np.flatnonzero(~tree.is_leaf)
    values = np.full(tree.n_nodes, np.nan)
    if not inner.size:
        return values
    counts = tree.counts.astype(float)
    parent, left, right = counts[inner], counts[tree.left[inner]], counts[tree.right[inner]]
    n, n_left, n_right = parent.sum(axis=1), left.sum(axis=1), right.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        share_left = np.where(n > 0, n_left / n, 0.0)
        share_right = np.where(n > 0, n_right / n, 0.0)
    if measure == "chi2":
        result = np.zeros(len(inner))
        with np.errstate(divide="ignore", invalid="ignore"):
            for child, n_child in ((left, n_left), (right, n_right)):
                expected = n_child[:, None] * parent / n[:, None]
                cell = np.where(expected > 0, (child - expected) ** 2 / expected, 0.0)
                result += cell.sum(axis=1)
        values[inner] = result
        return values
    criterion = "gini" if measure == "gini" else "entropy"
    gain = (counts_impurity(parent, criterion, n)
            - share_left * counts_impurity(left, criterion, n_left)
            - share_right * counts_impurity(right, criterion, n_right))
    gain = np.where(gain > 1e-12, gain, 0.0)
    if measure == "gain_ratio":
        split_info = counts_impurity(np.column_stack([n_left, n_right]), "entropy", n)
        with np.errstate(divide="ignore", invalid="ignore"):
            gain = np.where(split_info > 0, gain / split_info, 0.0)
    elif measure == "g_statistic":
        gain = 2.0 * np.log(2.0) * n * gain
    values[inner] = gain
    return values


@dataclass(frozen=True, eq=False, repr=False)
class CriticalValuePath(PruningPath):
    """The nested sequence of critical-value prunings, step by step (Mingers 1987, 1989).

    At a critical value cv, an internal node stays internal exactly when its split measure or
    the measure of some internal node below it exceeds cv. Writing M*(t) for the largest
    measure in the subtree of t, the pruning at cv collapses every node with M*(t) <= cv; as
    cv grows the prunings shrink, one step per distinct value of M*, down to the root alone.

    The path is a sequence of ``(critical value, Pruning)`` pairs
    (:class:`~prunekit.path.PruningPath`, shared with :class:`~prunekit.CostComplexityPath`);
    it stores one number per node and builds each step's pruning on demand.

    Attributes
    ----------
    tree : Tree
    measure : str
        The measure used (``"criterion"`` resolved to the grower's).
    measures : ndarray of shape (n_nodes,)
        The split measure of every internal node (:func:`split_measure`), ``nan`` at leaves.
    node_value : ndarray of shape (n_nodes,)
        M*(t), the largest measure in the subtree of t; ``-inf`` at the tree's leaves.
    critical_values : ndarray of shape (n_steps,)
        ``-inf`` (the whole tree), then the distinct values of M* over the internal nodes,
        increasing. Step j's pruning is the one for every cv in
        [critical_values[j], critical_values[j + 1]); the last step is the root alone.
    n_leaves : ndarray of shape (n_steps,)
        Number of leaves of each step's pruning.

    The arrays are read-only.
    """

    _NODE_VALUES = "node_value"
    _STEP_VALUES = "critical_values"
    _PARAMETER = "critical_value"
    _DESCRIBED_BY = "measure"

    tree: Tree
    measure: str
    measures: np.ndarray
    node_value: np.ndarray
    critical_values: np.ndarray
    n_leaves: np.ndarray

    def step(self, critical_value) -> int:
        """Index of the step whose pruning is the one for ``critical_value``."""
        return super().step(critical_value)

    def pruning_at(self, critical_value) -> Pruning:
        """The pruning at a fixed critical value, e.g. a chi-square table's value (Mingers 1987)."""
        return super().pruning_at(critical_value)


def critical_value_path(tree: Tree, measure: str = "entropy") -> CriticalValuePath:
    """Mingers' (1987, 1989) critical-value pruning: the prunings for every critical value.

    Mingers prunes with a threshold on the split-selection measure: a node whose measure does
    not exceed the critical value cv is pruned, unless a node below it has a measure above cv
    (its subtree is then kept, and the node with it). With M*(t) the largest measure among
    the internal nodes of the subtree of t,

        T(cv) = the pruning that makes a leaf of every node t with M*(t) <= cv,

    and raising cv from -inf to the largest measure gives a nested sequence of prunings from
    the whole tree down to the root alone, one step per distinct M*.

    Parameters
    ----------
    tree : Tree
    measure : {"entropy", "gini", "gain_ratio", "chi2", "g_statistic", "criterion"}, default "entropy"
        The split measure (see :func:`split_measure`), computed from the growing counts.
        Mingers (1987, 1989) used several, among them information gain and the chi-square and
        G statistics; Esposito, Malerba & Semeraro (1997) used the measure the tree was grown
        with, which ``"criterion"`` selects for a tree from scikit-learn. The default is
        information gain, the measure of ID3 that Mingers' experiments grew trees with and
        one that every tree can be scored by.

    Returns
    -------
    CriticalValuePath
        A sequence of ``(critical value, Pruning)`` pairs, built lazily.

    Notes
    -----
    One bottom-up pass gives M* (a maximum over the children, level by level), a sort gives
    the distinct critical values, and each node's range of steps as a leaf gives the leaf
    counts of all steps at once: O(n_nodes log n_nodes).
    """
    check_tree(tree)
    resolved = _resolve_measure(tree, measure)
    measures = split_measure(tree, resolved)
    node_value = np.where(tree.is_leaf, -np.inf, measures)
    for inner in tree.inner_levels:
        node_value[inner] = np.maximum(node_value[inner], np.maximum(
            node_value[tree.left[inner]], node_value[tree.right[inner]]))
    critical_values = np.concatenate([[-np.inf], np.unique(node_value[~tree.is_leaf])])
    intervals = leaf_intervals(tree, node_value, critical_values)
    n_leaves = np.rint(sum_per_step(intervals, np.ones(tree.n_nodes), len(critical_values)))
    return CriticalValuePath(tree, resolved, measures, node_value, critical_values,
                             n_leaves.astype(np.int64))


def _pruning_sample(tree: Tree, X_prune, y_prune):
    """Validate a pruning sample, naming its arguments, and count it at every node."""
    if X_prune is None or y_prune is None:
        missing = "X_prune" if X_prune is None else "y_prune"
        raise ValueError(
            f"{missing} is required: critical-value pruning chooses its critical value on a "
            "pruning sample (X_prune, y_prune) independent of the growing sample."
        )
    return tree.node_counts(X_prune, y_prune, names=("X_prune", "y_prune"))


def critical_value(tree: Tree, X_prune, y_prune, measure: str = "entropy") -> Pruning:
    """Critical-value pruning (CVP) with the critical value chosen on a pruning sample.

    Builds Mingers' (1987, 1989) sequence of prunings over all critical values
    (:func:`critical_value_path`) and returns the one with the fewest errors on
    ``(X_prune, y_prune)``, the smallest among equals -- how Esposito, Malerba & Semeraro
    (1997) pick the critical value, since the method itself gives no rule for it.

    Parameters
    ----------
    tree : Tree
        Grown on a sample independent of the pruning sample.
    X_prune : array-like of shape (m, n_features)
    y_prune : array-like of shape (m,)
        The pruning sample; its labels must be classes of the tree.
    measure : str, default "entropy"
        The split measure, as in :func:`critical_value_path`.

    Returns
    -------
    Pruning

    Notes
    -----
    The pruning sample is counted at every node once (:meth:`Tree.node_counts`), and the errors
    of all steps follow from each node's range of steps as a leaf: O(m depth + n_nodes log
    n_nodes), never materialising the sequence.
    """
    check_tree(tree)
    resolved = _resolve_measure(tree, measure)
    counts = _pruning_sample(tree, X_prune, y_prune)
    path = critical_value_path(tree, resolved)
    errors = path.errors(counts)
    best = len(errors) - 1 - int(np.argmin(errors[::-1]))
    return path.pruning(best)
