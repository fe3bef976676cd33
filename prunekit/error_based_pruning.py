"""C4.5's error-based pruning (EBP), with and without subtree raising, as Weka's J48 does it.

Chapter 8 of the book. Quinlan (1993, *C4.5: Programs for Machine Learning*, Ch. 4) charges a
leaf with N training examples, e of them misclassified, N U_CF(e, N) errors, where U_CF is the
upper limit of the binomial confidence interval of its error rate at confidence CF
(:func:`upper_confidence_limit`, :func:`estimated_errors`). From the leaves up, a subtree is
replaced by a leaf when the leaf's estimated errors do not exceed the subtree's
(:func:`error_based`), or, with subtree raising, by its largest branch when that branch does
better (:func:`error_based_raising`, J48's default). Every number follows Weka 3.6.14's J48 to
the last bit. Esposito, Malerba & Semeraro (1997) compare EBP with the other classic methods
(:mod:`prunekit.pessimistic_pruning`, :mod:`prunekit.minimum_error_pruning`,
:mod:`prunekit.critical_value_pruning`).

:func:`error_based` returns a :class:`~prunekit.Pruning` of the tree; subtree raising, which
leaves the class of prunings, returns a new :class:`~prunekit.Tree`. :class:`ErrorBasedPruner`
is the method for :class:`~prunekit.PrunedTreeClassifier`.
"""

from __future__ import annotations

import math
import numbers
import warnings

import numpy as np

from prunekit._parameters import check_parameters, describe
from prunekit.validation import (
    check_broadcastable,
    check_numbers,
    check_sample_weight,
    encode_labels,
)
from prunekit.pruner import Pruner
from prunekit.tree import Pruning, Tree, check_tree

__all__ = ["check_confidence", "upper_confidence_limit", "estimated_errors", "sm_or_eq",
           "collapse", "error_based", "error_based_raising", "ErrorBasedPruner"]


# Error-based pruning (C4.5 / Weka J48)
#
# Everything below mirrors Weka 3.6.14 (Debian's ``weka`` package), class by class:
#   weka.classifiers.trees.j48.Stats.addErrs                  -> _added_errors
#   weka.core.Statistics.normalInverse                         -> _normal_inverse
#   weka.core.Utils.SMALL / eq / smOrEq / grOrEq               -> _SMALL, sm_or_eq
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


def _confidence_factor(confidence, name: str = "confidence") -> np.float32:
    """Check C4.5's confidence factor CF; return it as the float32 J48 stores it."""
    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real):
        raise TypeError(f"{name} must be a real number in (0, 1), got "
                        f"{type(confidence).__name__}.")
    cf = np.float32(confidence)
    if not (0.0 < float(confidence) < 1.0 and 0.0 < float(cf) < 1.0):
        raise ValueError(
            f"{name} must lie in (0, 1), got {confidence!r}. It is C4.5's confidence "
            "factor CF (J48's -C): the upper limit U_CF(e, N) is the error rate p at which "
            "seeing e or fewer errors in N has probability CF, so smaller values prune more. "
            "J48 itself accepts values up to 1, but above 0.5 it prints 'confidence value for "
            "pruning too high' and adds no errors at all, pruning on training errors alone "
            "(prunekit does the same for confidence in (0.5, 1), with a warning)."
        )
    return cf


#: The checks of the parameters of :func:`error_based` and :func:`error_based_raising`,
#: which :class:`ErrorBasedPruner` shares.
_EBP_PARAMETERS = {"confidence": _confidence_factor}


def check_confidence(confidence) -> np.float32:
    """Validate C4.5's confidence factor CF; return it as the float32 J48 stores it.

    A CF above 0.5 is accepted with a warning, addressed to the caller of the function that
    validates it.
    """
    (cf,) = check_parameters(_EBP_PARAMETERS, confidence=confidence)
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
    cf = check_confidence(confidence)
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
    cf = check_confidence(confidence)
    e, n_array = _as_error_counts(errors, n)
    if np.any(n_array <= 0):
        raise ValueError("n must be positive: the upper limit is a rate over n examples.")
    value = (e + _added_errors(n_array, e, cf)) / n_array
    return _scalar_or_array(value, errors, n)


def sm_or_eq(a, b):
    """Weka's ``Utils.smOrEq(a, b)``, elementwise: ``a - b < 1e-6`` or ``a <= b`` (J48 compares
    thresholds and error estimates with this tolerance)."""
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

    Examples
    --------
    A tree stopped at depth 4 has splits that fix no training error:

    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> tree = pk.grow_tree(X, y, max_depth=4)
    >>> tree.n_leaves, collapse(tree).n_leaves
    (12, 9)
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

    Examples
    --------
    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> tree = pk.grow_tree(X, y)
    >>> tree.n_leaves, pk.error_based(tree, confidence=0.25).n_leaves
    (22, 13)
    """
    tree = check_tree(tree)
    cf = check_confidence(confidence)
    as_leaf = _node_estimates(tree.counts, cf)
    collapsed = _collapse_mask(tree)
    subtree = as_leaf.copy()
    leaf = collapsed.copy()
    for inner in tree.inner_levels:
        below = subtree[tree.left[inner]] + subtree[tree.right[inner]]
        prune = collapsed[inner] | sm_or_eq(as_leaf[inner], below + _PRUNE_TOLERANCE)
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
                 cf: np.float32, weights: np.ndarray | None = None):
        self.cf = cf
        self.weights = weights          # C4.5's fractional cases; None: each counts 1
        self.flat = np.ascontiguousarray(X).ravel()
        self.n_columns = X.shape[1]
        self.codes = codes
        self.n_classes = tree.n_classes
        self.children = np.column_stack([tree.left, tree.right])
        # views: writing a node's children through left and right updates ``children``
        self.left, self.right = self.children[:, 0], self.children[:, 1]
        self.feature, self.threshold = tree.feature.copy(), tree.threshold.copy()
        self.missing_left = tree.missing_go_to_left.copy()
        self.leaf = tree.is_leaf | _collapse_mask(tree)
        n_nodes = tree.n_nodes
        self.slot = np.zeros(n_nodes, dtype=np.intp)  # scratch space of route
        self.perm = np.arange(len(codes))
        self.start = np.zeros(n_nodes, dtype=np.intp)
        self.stop = np.zeros(n_nodes, dtype=np.intp)
        self.counts = np.zeros((n_nodes, self.n_classes),
                               dtype=np.int64 if weights is None else np.float64)
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
            goes_right = (value > self.threshold[current]) | (
                np.isnan(value) & ~self.missing_left[current])
            current = self.children[current, goes_right.view(np.int8)]
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
        cumulative = np.zeros((len(samples) + 1, self.n_classes), dtype=self.counts.dtype)
        one_hot = np.eye(self.n_classes, dtype=self.counts.dtype)[self.codes[samples]]
        if self.weights is not None:
            one_hot *= self.weights[samples, None]
        np.cumsum(one_hot, axis=0, out=cumulative[1:])
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
                            None if self.weights is None else self.weights[samples],
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
        n_left = self.counts[left].sum(axis=1)       # the weights of the examples
        n_right = self.counts[right].sum(axis=1)
        # Distribution.maxBag: the last bag with the largest weight (Utils.grOrEq)
        right_largest = (n_left - n_right < _SMALL) | (n_right >= n_left)
        largest, other = np.where(right_largest, right, left), np.where(right_largest, left, right)
        as_branch, reached = self.branch_estimates(largest, other)
        as_leaf = self.as_leaf[nodes]
        as_tree = self.subtree[left] + self.subtree[right]
        to_leaf = (sm_or_eq(as_leaf, as_tree + _PRUNE_TOLERANCE)
                   & sm_or_eq(as_leaf, as_branch + _PRUNE_TOLERANCE))
        to_raise = ~to_leaf & sm_or_eq(as_branch, as_tree + _PRUNE_TOLERANCE)
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
        self.missing_left[v] = self.missing_left[branch]
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
                    criterion=tree.criterion, dtype=tree.dtype,
                    missing_go_to_left=self.missing_left[nodes], weighted=tree.weighted)


def error_based_raising(tree: Tree, X, y, confidence=0.25, *, sample_weight=None) -> Tree:
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
    sample_weight : array-like of shape (m,), optional
        The weights a :attr:`weighted <prunekit.Tree.weighted>` tree was grown with: every
        example is then a fractional case of that weight, as C4.5 counts them, in the
        counts, the estimates and the choice of the largest branch.

    Returns
    -------
    Tree
        The pruned and raised tree, nodes numbered in preorder, ``counts`` those of the
        growing sample routed through it, leaves predicting their majority class.

    Notes
    -----
    A missing value (NaN) follows :attr:`Tree.missing_go_to_left
    <prunekit.Tree.missing_go_to_left>` when the examples are re-routed, as everywhere in
    prunekit; C4.5 and J48 instead split such an example into fractions over the branches,
    which prunekit does not do, so on data with missing values the tree is not J48's.

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

    Examples
    --------
    The result is a new tree, with the growing sample's counts routed through it:

    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> raised = pk.error_based_raising(pk.grow_tree(X, y), X, y)
    >>> raised.n_leaves, raised.n_samples
    (13, 569)
    """
    tree = check_tree(tree)
    cf = check_confidence(confidence)
    X, y = tree.check_sample(X, y)
    weights = check_sample_weight(sample_weight, len(y))
    codes = encode_labels(y, tree.classes_)
    leaf = tree.apply(X, check_input=False)
    counts = tree._counts_from_leaves(leaf, codes, weights)
    if (weights is not None) != tree.weighted or not np.allclose(counts, tree.counts,
                                                                  rtol=1e-9, atol=0):
        raise ValueError(
            "X, y and sample_weight must be the sample the tree was grown on, with its "
            "weights: their class counts differ from tree.counts (subtree raising re-routes "
            "the growing examples, so it needs exactly those)."
        )
    state = _SubtreeRaising(tree, X, codes, leaf, cf, weights)
    state.prune()
    return state.result(tree)


# ---------------------------------------------------------------------------------------------
# The pruner of PrunedTreeClassifier

def _check_raising(value, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {describe(value)}.")
    return bool(value)


class ErrorBasedPruner(Pruner):
    """C4.5's error-based pruning, as Weka's J48 does it (see :func:`prunekit.error_based`).

    Parameters
    ----------
    confidence : float in (0, 1), default 0.25
        C4.5's confidence factor CF (J48's ``-C``).
    subtree_raising : bool, default True
        Also raise subtrees, J48's default: :meth:`restructure` replaces the tree by the
        raised one (:func:`prunekit.error_based_raising`, which re-routes the growing sample)
        and :meth:`~prunekit.Pruner.prune` keeps all of it. ``False`` is J48's ``-S``:
        collapse and prune only.

    Examples
    --------
    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> pruner = pk.ErrorBasedPruner(confidence=0.25,
    ...                              subtree_raising=False)
    >>> clf = pk.PrunedTreeClassifier(pruner=pruner, random_state=0)
    >>> clf = clf.fit(X, y)
    >>> clf.tree_.n_leaves, clf.get_n_leaves()
    (22, 13)
    """

    _function = staticmethod(error_based)
    _parameter_checks = {**_EBP_PARAMETERS, "subtree_raising": _check_raising}

    def __init__(self, *, confidence=0.25, subtree_raising=True):
        self.confidence = confidence
        self.subtree_raising = subtree_raising

    def restructure(self, tree: Tree, X, y, sample_weight=None) -> Tree:
        if not self._check_parameters()["subtree_raising"]:
            return tree
        return error_based_raising(tree, X, y, confidence=self.confidence,
                                   sample_weight=sample_weight)

    def prune(self, tree: Tree, X_prune=None, y_prune=None, sample_weight=None) -> Pruning:
        if self._check_parameters()["subtree_raising"]:
            return Pruning.full(tree)
        return error_based(tree, confidence=self.confidence)
