"""Reduced-error pruning (Chapter 3): the most accurate pruning on a separate pruning sample.

Quinlan's REP, analysed as empirical risk minimisation over the prunings of a tree by
Kääriäinen, Malinen & Elomaa (2004, Sec. 3): among all prunings of T, return one with the fewest
errors on the pruning sample -- the smallest such pruning. Errors add up over leaves, so one
bottom-up pass finds it: at each node, compare the errors the node would make as a leaf with the
errors of the best pruning of its subtree, and collapse the node when the leaf is at least as
good. :class:`ReducedErrorPruner` is the method for :class:`~prunekit.PrunedTreeClassifier`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from prunekit._parameters import check_parameters, constraint
from prunekit.validation import as_array, check_choice, weight_unit
from prunekit.pruner import HoldoutPruner, pruning_sample_counts
from prunekit.tree import Pruning, Tree, check_tree, postorder

__all__ = ["LABELLING_SAMPLES", "pruning_labels", "best_subtree_errors", "reduced_error",
           "REPStep", "reduced_error_steps", "ReducedErrorPruner"]

#: The samples whose majority may label the leaves (the ``labels`` argument).
LABELLING_SAMPLES = ("growing", "pruning")

#: The checks of the parameters of :func:`reduced_error`, which :class:`ReducedErrorPruner`
#: shares.
_REP_PARAMETERS = {"labels": constraint(check_choice, options=LABELLING_SAMPLES)}


def pruning_labels(tree: Tree, counts: np.ndarray, labels: str) -> np.ndarray:
    """Leaf labels: the tree's (majority of the growing sample) or the pruning sample's.

    With ``labels="pruning"`` a node takes the majority class of the pruning examples that
    reach it (ties to the smallest class index); a node no pruning example reaches keeps its
    growing label.

    Parameters
    ----------
    tree : Tree
    counts : ndarray of shape (n_nodes, n_classes)
        Per-node class counts of the pruning sample (:meth:`~prunekit.Tree.node_counts`).
    labels : {"growing", "pruning"}
    """
    check_tree(tree)
    labels = check_choice(labels, "labels", LABELLING_SAMPLES)
    counts = tree.check_sample_counts(counts, weighted=True)
    if labels == "growing":
        return tree.labels
    reached = counts.sum(axis=1) > 0
    return np.where(reached, np.argmax(counts, axis=1), tree.labels)


def _error_table(tree: Tree, errors_as_leaf) -> np.ndarray:
    """``errors_as_leaf`` checked (whole numbers, one row per node) and copied as int64."""
    check_tree(tree, regression=True)
    shape_message = (f"errors_as_leaf must have shape (n_nodes,) or (n_nodes, n_problems) with "
                     f"n_nodes={tree.n_nodes}, got {np.shape(errors_as_leaf)}.")
    if isinstance(errors_as_leaf, (str, bytes)) or np.ndim(errors_as_leaf) not in (1, 2):
        raise ValueError(shape_message)
    values = as_array(errors_as_leaf, "errors_as_leaf", ndim=np.ndim(errors_as_leaf),
                      dtype=None, min_length=0)
    if values.dtype.kind == "b" or values.dtype.kind not in "iuf":
        raise TypeError(f"errors_as_leaf must hold integers, got dtype {values.dtype}.")
    if values.dtype.kind == "f" and not np.all(values == np.round(values)):
        raise ValueError("errors_as_leaf must hold whole numbers (errors, or another integer "
                         "cost).")
    if values.shape[0] != tree.n_nodes:
        raise ValueError(shape_message)
    return np.array(values, dtype=np.int64, copy=True)


def best_subtree_errors(tree: Tree, errors_as_leaf: np.ndarray):
    """Bottom-up pass: fewest errors of a pruning of every subtree, and where to collapse.

    Parameters
    ----------
    tree : Tree
    errors_as_leaf : array-like of int, shape (n_nodes,) or (n_nodes, n_problems)
        Errors (or any additive integer cost) of every node as a leaf. With a second axis,
        the pass solves ``n_problems`` independent problems on the same tree at once (e.g. the
        relabelled samples of many Rademacher draws, :mod:`prunekit.rademacher`).

    Returns
    -------
    best : ndarray of the shape of ``errors_as_leaf``
        Fewest errors of any pruning of T_v.
    collapse : ndarray of bool, the shape of ``errors_as_leaf``
        Whether the smallest such pruning makes v a leaf: the leaf is at least as accurate as
        the best pruning below it (ties go to the leaf, which has fewer nodes).
    """
    best = _error_table(tree, errors_as_leaf)           # a validated int64 copy
    collapse = np.broadcast_to(tree.is_leaf.reshape((-1,) + (1,) * (best.ndim - 1)),
                               best.shape).copy()
    for inner in tree.inner_levels:
        below = best[tree.left[inner]] + best[tree.right[inner]]
        as_leaf = best[inner]
        collapse[inner] = as_leaf <= below
        best[inner] = np.minimum(as_leaf, below)
    return best, collapse


def _whole_units(errors: np.ndarray, total: float) -> np.ndarray:
    """Weighted errors of a sample of weight ``total`` as whole numbers, for the bottom-up
    pass, which adds integers.

    Sample weights are multiples of :func:`~prunekit.validation.weight_unit` of their total
    (:func:`~prunekit.validation.check_sample_weight`), so errors are too, and are divided
    by half that unit or less exactly. Integer errors are returned as they are.

    Examples
    --------
    >>> from prunekit.validation import check_sample_weight, weight_unit
    >>> w = check_sample_weight([0.1, 0.2, 0.3, 0.4], 4)
    >>> counts = _whole_units(w, w.sum())
    >>> bool(np.all(counts * (weight_unit(w.sum()) / 2) == w))
    True
    """
    errors = np.asarray(errors)
    if errors.dtype.kind in "iu" or np.all(errors == np.round(errors)):
        return errors.astype(np.int64)
    return np.rint(errors / (weight_unit(total) / 2)).astype(np.int64)


def reduced_error(tree: Tree, X_prune, y_prune, labels: str = "growing", *,
                  sample_weight=None) -> Pruning:
    """Reduced-error pruning: the smallest pruning with the fewest errors on ``(X_prune, y_prune)``.

    One top-down pass counts the pruning examples at every node (:meth:`~prunekit.Tree.node_counts`), one
    bottom-up pass compares each node as a leaf with the best pruning below it
    (Kääriäinen, Malinen & Elomaa 2004, Sec. 3): O(n_nodes + m depth) in all.

    Parameters
    ----------
    tree : Tree or RegressionTree
        A :class:`~prunekit.RegressionTree` is pruned under squared error: the smallest
        pruning of least squared error on the pruning sample, each leaf predicting the mean
        of its growing targets.
    X_prune, y_prune : array-like
        The pruning sample, independent of the growing sample; its labels must be classes the
        tree knows (real targets for a regression tree).
    labels : {"growing", "pruning"}, default "growing"
        Leaf labels: the majority class of the growing sample (the tree's labels, the usual
        REP; the only choice for a regression tree), or of the pruning sample (then the best leaf at every node; nodes no pruning
        example reaches keep their growing label).
    sample_weight : array-like of shape (m,), optional
        Weights of the pruning examples: the pruning of least weight of misclassified
        examples is chosen (an integer weight w counts an example w times).

    Returns
    -------
    Pruning
        Nodes that no pruning example reaches make no pruning errors either way, so the
        smallest most accurate pruning collapses them: REP removes every part of the tree the
        pruning sample does not visit.

    Examples
    --------
    Grow on half the rows, prune on the other half:

    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> tree = pk.grow_tree(X[::2], y[::2])
    >>> tree.n_leaves, pk.reduced_error(tree, X[1::2], y[1::2]).n_leaves
    (12, 5)
    """
    (labels,) = check_parameters(_REP_PARAMETERS, labels=labels)
    if not isinstance(check_tree(tree, regression=True), Tree):
        return _reduced_squared_error(tree, X_prune, y_prune, labels, sample_weight)
    counts = pruning_sample_counts(tree, X_prune, y_prune, sample_weight=sample_weight)
    leaf_labels = pruning_labels(tree, counts, labels)
    as_leaf = _whole_units(tree.leaf_errors(counts, leaf_labels), counts[0].sum())
    _, collapse = best_subtree_errors(tree, as_leaf)
    return Pruning.from_collapsed(tree, collapse, labels=leaf_labels)


def _reduced_squared_error(tree, X_prune, y_prune, labels, sample_weight) -> Pruning:
    """Reduced-error pruning of a :class:`~prunekit.RegressionTree`: the smallest pruning
    of least squared error on the pruning sample, every leaf predicting its growing mean.

    The squared errors are rounded to whole multiples of 2^-51 of their sum over all nodes
    (which bounds the error of any pruning), so that the integer bottom-up pass adds them
    exactly; errors that differ by less than that unit count as a tie, which the leaf wins.
    """
    if labels != "growing":
        raise ValueError("labels must be 'growing' for a regression tree: a leaf predicting "
                         "the pruning sample's own mean never errs more than its children, "
                         "so nothing would be pruned.")
    moments = tree.node_moments(X_prune, y_prune, sample_weight=sample_weight,
                                names=("X_prune", "y_prune"))
    errors = tree.leaf_errors(moments)
    _, collapse = best_subtree_errors(tree, _whole_units(errors, errors.sum()))
    return Pruning.from_collapsed(tree, collapse)


@dataclass(frozen=True)
class REPStep:
    """One decision of the bottom-up pass of reduced-error pruning, at an internal node.

    Attributes
    ----------
    node : int
        The internal node decided.
    reached : int
        Number of pruning examples that reach the node.
    errors_as_leaf : int
        Pruning-set errors of the node as a leaf (with the leaf labels in use).
    errors_below : int
        Fewest pruning-set errors of any pruning of the subtree below the node with the node
        kept as an internal node: the sum of the best errors of its two children.
    prune : bool
        The decision: collapse the node, since ``errors_as_leaf <= errors_below``.
    """

    node: int
    reached: int
    errors_as_leaf: int
    errors_below: int
    prune: bool


def reduced_error_steps(tree: Tree, X_prune, y_prune, labels: str = "growing") -> list[REPStep]:
    """The decisions of reduced-error pruning, one per internal node, in postorder.

    The same pass as :func:`reduced_error` (Kääriäinen, Malinen & Elomaa 2004, Sec. 3), listed
    node by node for teaching: every internal node comes after its subtree, the left subtree
    before the right one. Collapsing the nodes of the first k steps whose ``prune`` is true
    gives the state of the pass after k steps; collapsing all of them gives
    :func:`reduced_error`'s pruning.

    Parameters
    ----------
    tree : Tree
    X_prune, y_prune : array-like
        The pruning sample.
    labels : {"growing", "pruning"}, default "growing"
        Leaf labels, as in :func:`reduced_error`.

    Returns
    -------
    list of REPStep

    Examples
    --------
    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> tree = pk.grow_tree(X[::2], y[::2])
    >>> steps = reduced_error_steps(tree, X[1::2], y[1::2])
    >>> steps[0]
    REPStep(node=4, reached=5, errors_as_leaf=0, ...)
    """
    check_tree(tree)
    (labels,) = check_parameters(_REP_PARAMETERS, labels=labels)
    counts = pruning_sample_counts(tree, X_prune, y_prune)
    as_leaf = tree.leaf_errors(counts, pruning_labels(tree, counts, labels))
    best, collapse = best_subtree_errors(tree, as_leaf)
    reached = counts.sum(axis=1)
    return [REPStep(v, int(reached[v]), int(as_leaf[v]),
                    int(best[tree.left[v]] + best[tree.right[v]]), bool(collapse[v]))
            for v in postorder(tree) if not tree.is_leaf[v]]


# ---------------------------------------------------------------------- the pruner
class ReducedErrorPruner(HoldoutPruner):
    """Reduced-error pruning on a held-out sample (see :func:`prunekit.reduced_error`).

    Parameters
    ----------
    labels : {"growing", "pruning"}, default "growing"
        Leaf labels, as in :func:`prunekit.reduced_error`.
    prune_size : float in (0, 1) or int >= 1, default 0.3
    random_state : int, RandomState or None, default None
        See :class:`~prunekit.HoldoutPruner`.

    Examples
    --------
    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> pruner = pk.ReducedErrorPruner(prune_size=0.3, random_state=0)
    >>> clf = pk.PrunedTreeClassifier(pruner=pruner, random_state=0)
    >>> clf = clf.fit(X, y)
    >>> clf.tree_.n_leaves, clf.get_n_leaves()
    (19, 7)
    """

    _function = staticmethod(reduced_error)
    _parameter_checks = {**_REP_PARAMETERS, **HoldoutPruner._parameter_checks}

    def __init__(self, *, labels="growing", prune_size=0.3, random_state=None):
        super().__init__(prune_size=prune_size, random_state=random_state)
        self.labels = labels

    def prune(self, tree: Tree, X_prune, y_prune, sample_weight=None) -> Pruning:
        self._check_parameters()
        return reduced_error(tree, X_prune, y_prune, labels=self.labels,
                             sample_weight=sample_weight)
