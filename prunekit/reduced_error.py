"""Reduced-error pruning (Chapter 3): the most accurate pruning on a separate pruning sample.

Quinlan's REP, analysed as empirical risk minimisation over the prunings of a tree by
Kääriäinen, Malinen & Elomaa (2004, Sec. 3): among all prunings of T, return one with the fewest
errors on the pruning sample -- the smallest such pruning. Errors add up over leaves, so one
bottom-up pass finds it: at each node, compare the errors the node would make as a leaf with the
errors of the best pruning of its subtree, and collapse the node when the leaf is at least as
good.
"""

from __future__ import annotations

import numpy as np

from prunekit.tree import Pruning, Tree

__all__ = ["LABELS", "leaf_errors", "pruning_labels", "best_subtree_errors", "reduced_error"]

LABELS = ("growing", "pruning")


def _check_tree(tree) -> Tree:
    if not isinstance(tree, Tree):
        raise TypeError(f"tree must be a prunekit Tree, got {type(tree).__name__}.")
    return tree


def leaf_errors(counts: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Errors every node makes as a leaf: the examples reaching it not of its label."""
    nodes = np.arange(len(labels))
    return counts.sum(axis=1) - counts[nodes, labels]


def pruning_labels(tree: Tree, counts: np.ndarray, labels: str) -> np.ndarray:
    """Leaf labels: the tree's (majority of the growing sample) or the pruning sample's.

    With ``labels="pruning"`` a node takes the majority class of the pruning examples that
    reach it (ties to the smallest class index); a node no pruning example reaches keeps its
    growing label.
    """
    if labels not in LABELS:
        raise ValueError(f"labels must be one of {LABELS}, got {labels!r}.")
    if labels == "growing":
        return tree.labels
    reached = counts.sum(axis=1) > 0
    return np.where(reached, np.argmax(counts, axis=1), tree.labels)


def best_subtree_errors(tree: Tree, errors_as_leaf: np.ndarray):
    """Bottom-up pass: fewest errors of a pruning of every subtree, and where to collapse.

    Returns
    -------
    best : ndarray of shape (n_nodes,)
        Fewest errors of any pruning of T_v.
    collapse : ndarray of bool, shape (n_nodes,)
        Whether the smallest such pruning makes v a leaf: the leaf is at least as accurate as
        the best pruning below it (ties go to the leaf, which has fewer nodes).
    """
    best = np.asarray(errors_as_leaf, dtype=np.int64).copy()
    collapse = tree.is_leaf.copy()
    for level in reversed(tree.levels[:-1]):
        inner = level[~tree.is_leaf[level]]
        below = best[tree.left[inner]] + best[tree.right[inner]]
        as_leaf = best[inner]
        collapse[inner] = as_leaf <= below
        best[inner] = np.minimum(as_leaf, below)
    return best, collapse


def reduced_error(tree: Tree, X_prune, y_prune, labels: str = "growing") -> Pruning:
    """Reduced-error pruning: the smallest pruning with the fewest errors on ``(X_prune, y_prune)``.

    One top-down pass counts the pruning examples at every node (:meth:`Tree.node_counts`), one
    bottom-up pass compares each node as a leaf with the best pruning below it
    (Kääriäinen, Malinen & Elomaa 2004, Sec. 3): O(n_nodes + m depth) in all.

    Parameters
    ----------
    tree : Tree
    X_prune, y_prune : array-like
        The pruning sample, independent of the growing sample; its labels must be classes the
        tree knows.
    labels : {"growing", "pruning"}, default "growing"
        Leaf labels: the majority class of the growing sample (the tree's labels, the usual
        REP), or of the pruning sample (then the best leaf at every node; nodes no pruning
        example reaches keep their growing label).

    Returns
    -------
    Pruning
        Nodes that no pruning example reaches make no pruning errors either way, so the
        smallest most accurate pruning collapses them: REP removes every part of the tree the
        pruning sample does not visit.
    """
    _check_tree(tree)
    counts = tree.node_counts(X_prune, y_prune)
    leaf_labels = pruning_labels(tree, counts, labels)
    _, collapse = best_subtree_errors(tree, leaf_errors(counts, leaf_labels))
    return Pruning.from_collapsed(tree, collapse, labels=leaf_labels)
