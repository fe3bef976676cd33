"""Pessimistic error pruning (PEP): Quinlan (1987).

Chapter 8 of the book. Quinlan ("Simplifying decision trees", 1987, the section on pessimistic
pruning) makes the training errors pessimistic by a continuity correction of 1/2 per leaf and
replaces a subtree T_t by a leaf when the leaf's corrected errors are within one standard
error of the subtree's,

    n'(t) <= n'(T_t) + SE(n'(T_t)),   SE(n'(T_t)) = sqrt(n'(T_t) (N(t) - n'(T_t)) / N(t)),

visiting the nodes from the root down (:func:`pessimistic`). Esposito, Malerba & Semeraro
(1997) restate the rule and compare it with the other classic methods
(:mod:`prunekit.minimum_error_pruning`, :mod:`prunekit.critical_value_pruning`,
:mod:`prunekit.error_based_pruning`). :class:`PessimisticPruner` is the method for
:class:`~prunekit.PrunedTreeClassifier`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from prunekit._parameters import check_parameters
from prunekit.validation import check_numbers
from prunekit.pruner import Pruner
from prunekit.tree import Pruning, Tree, check_tree

__all__ = ["PEP_ORDERS", "PessimisticErrors", "pessimistic_errors",
           "pessimistic_standard_error", "pessimistic", "PessimisticPruner"]

#: Quinlan's top-down visit, and the same test applied bottom-up.
PEP_ORDERS = ("top-down", "bottom-up")


def _check_order(order, name: str = "order") -> str:
    if order not in PEP_ORDERS:
        raise ValueError(f"{name} must be one of {PEP_ORDERS}, got {order!r}.")
    return order


#: The checks of the parameters of :func:`pessimistic`, which :class:`PessimisticPruner`
#: shares.
_PEP_PARAMETERS = {"order": _check_order}


def _exact_integers(*arrays):
    """The arrays as int64, or as Python integers when int64 could overflow in a cube of them;
    weighted counts (floats) stay float64."""
    if any(np.asarray(a).dtype.kind == "f" for a in arrays):
        return tuple(np.asarray(a, dtype=np.float64) for a in arrays)
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

    Examples
    --------
    >>> round(pessimistic_standard_error(4.5, 50), 4)
    2.0236
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

    Examples
    --------
    At the root of a tree grown to pure leaves: 212 errors plus 1/2 as a leaf, against 1/2
    for each of the 22 leaves below it:

    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> errors = pessimistic_errors(pk.grow_tree(X, y))
    >>> print(errors.as_leaf[0], errors.subtree[0])
    212.5 11.0
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

    A :attr:`weighted <prunekit.Tree.weighted>` tree's N(t) and e(t) are sums of weights, as
    C4.5 counts fractional cases; the correction stays 1/2 per leaf, so an integer weight w
    is the same as w copies of the example. The test is then decided in floating point.

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

    Examples
    --------
    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> tree = pk.grow_tree(X, y)
    >>> tree.n_leaves, pk.pessimistic(tree).n_leaves
    (22, 9)
    >>> pk.pessimistic(tree, order="bottom-up").n_leaves
    8
    """
    check_tree(tree)
    (order,) = check_parameters(_PEP_PARAMETERS, order=order)
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



# ---------------------------------------------------------------------------------------------
# The pruner of PrunedTreeClassifier

class PessimisticPruner(Pruner):
    """Quinlan's (1987) pessimistic error pruning (see :func:`prunekit.pessimistic`).

    Parameters
    ----------
    order : {"top-down", "bottom-up"}, default "top-down"
        Quinlan's top-down visit, or the same test applied bottom-up.

    Examples
    --------
    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> pruner = pk.PessimisticPruner(order="top-down")
    >>> clf = pk.PrunedTreeClassifier(pruner=pruner, random_state=0)
    >>> clf = clf.fit(X, y)
    >>> clf.tree_.n_leaves, clf.get_n_leaves()
    (22, 9)
    """

    _function = staticmethod(pessimistic)
    _parameter_checks = _PEP_PARAMETERS

    def __init__(self, *, order="top-down"):
        self.order = order

    def prune(self, tree: Tree, X_prune=None, y_prune=None, sample_weight=None) -> Pruning:
        """Prune ``tree`` from its growing counts (weighted, for a tree grown with weights);
        the sample is not needed."""
        self._check_parameters()
        return pessimistic(tree, order=self.order)
