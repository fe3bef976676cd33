"""A pruned tree as text: its rules, one line per branch, as scikit-learn prints a tree.

:func:`export_text` writes the kept part of a :class:`~prunekit.Pruning` (or a whole
:class:`~prunekit.Tree`, or the pruned tree of a fitted
:class:`~prunekit.PrunedTreeClassifier`) in the layout of ``sklearn.tree.export_text``, so
that a pruned model can be read, diffed, pasted into a report or reimplemented elsewhere.
"""

from __future__ import annotations

import numpy as np

from prunekit.validation import check_bool, check_count
from prunekit.tree import Pruning, Tree

__all__ = ["export_text"]


def _kept_tree(model) -> Tree:
    """The stand-alone tree to write: a Tree, a Pruning's kept part, or a classifier's."""
    from sklearn.utils.validation import check_is_fitted

    from prunekit.estimator import PrunedTreeClassifier

    if isinstance(model, PrunedTreeClassifier):
        check_is_fitted(model)
        model = model.pruning_
    if isinstance(model, Pruning):
        model = model.to_tree()
    if not isinstance(model, Tree):
        raise TypeError(f"model must be a prunekit Pruning, Tree or fitted "
                        f"PrunedTreeClassifier, got {type(model).__name__}.")
    if not model.has_split_rules:
        raise ValueError("model has no split rules (its tree was built from counts only), so "
                         "it has no rules to write; build it with feature and threshold.")
    return model


def _names(values, default, needed: int, name: str) -> list[str]:
    if values is None:
        return list(default)
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
        raise TypeError(f"{name} must be a sequence of strings, got {type(values).__name__}.")
    if len(values) != needed:
        raise ValueError(f"{name} must have {needed} entries, got {len(values)}.")
    return [str(value) for value in values]


def _heights(tree: Tree) -> np.ndarray:
    """Levels of the subtree below every node (1 at a leaf), as scikit-learn counts depth."""
    height = np.ones(tree.n_nodes, dtype=np.int64)
    for inner in tree.inner_levels:
        height[inner] = 1 + np.maximum(height[tree.left[inner]], height[tree.right[inner]])
    return height


def export_text(model, *, feature_names=None, class_names=None, max_depth: int = 10,
                spacing: int = 3, decimals: int = 2, show_counts: bool = False) -> str:
    """The rules of a pruned tree as text, in the layout of ``sklearn.tree.export_text``.

    Every internal node gives two lines, ``feature <= threshold`` before its left subtree
    and ``feature >  threshold`` before its right one (a sample goes left when
    ``x[feature] <= threshold``); every leaf gives ``class: label``. A pruning is written as
    the tree it keeps: its leaves are leaves, with the pruning's labels. For an unpruned
    tree converted from scikit-learn the text is scikit-learn's, character for character.

    Parameters
    ----------
    model : Pruning, Tree or fitted PrunedTreeClassifier
        A classifier is written as its pruned tree (``pruning_``).
    feature_names : sequence of str, optional
        One name per feature; default the tree's ``feature_names``, or
        ``feature_0``, ``feature_1``, ... as scikit-learn names them.
    class_names : sequence of str, optional
        One name per class, in the order of ``classes_``; default the class labels.
    max_depth : int >= 0, default 10
        Nodes deeper than this (the root at depth 0) are summarised as "truncated branch of
        depth n" lines, as in scikit-learn.
    spacing : int >= 1, default 3
        Width of one level of indentation.
    decimals : int >= 0, default 2
        Digits of the thresholds.
    show_counts : bool, default False
        Write the growing-sample class counts at each leaf (``counts: [50, 0, 0]``), where
        scikit-learn's ``show_weights`` writes weighted counts.

    Returns
    -------
    str

    Examples
    --------
    >>> import prunekit as pk
    >>> t = pk.Tree.from_arrays(
    ...     [1, -1, -1], [2, -1, -1], [[3, 2], [3, 0], [0, 2]],
    ...     feature=[0, -1, -1], threshold=[0.5, 0, 0])
    >>> print(pk.export_text(t, feature_names=["x"]), end="")
    |--- x <= 0.50
    |   |--- class: 0
    |--- x >  0.50
    |   |--- class: 1
    """
    tree = _kept_tree(model)
    default = tree.feature_names or [f"feature_{j}" for j in range(tree.n_features)]
    feature_names = _names(feature_names, default, tree.n_features, "feature_names")
    class_names = _names(class_names, [str(c) for c in tree.classes_], tree.n_classes,
                         "class_names")
    max_depth = check_count(max_depth, "max_depth")
    spacing = check_count(spacing, "spacing", minimum=1)
    decimals = check_count(decimals, "decimals")
    show_counts = check_bool(show_counts, "show_counts")
    left, right, feature = tree.left, tree.right, tree.feature
    threshold, labels, counts = tree.threshold, tree.labels, tree.counts
    height = _heights(tree)
    lines, stack = [], [(0, 1)]              # (node or text, depth counted from 1)
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            lines.append(item)
            continue
        indent = ("|" + " " * spacing) * depth
        indent = indent[:-spacing] + "-" * spacing
        if left[item] == -1 or (depth > max_depth + 1 and height[item] == 1):
            shown = f" counts: {counts[item].tolist()}" if show_counts else ""
            lines.append(f"{indent}{shown} class: {class_names[labels[item]]}")
        elif depth > max_depth + 1:
            lines.append(f"{indent} truncated branch of depth {height[item]}")
        else:
            name = feature_names[feature[item]]
            value = f"{threshold[item]:.{decimals}f}"
            stack += [(right[item], depth + 1), (f"{indent} {name} >  {value}", depth),
                      (left[item], depth + 1)]
            lines.append(f"{indent} {name} <= {value}")
    return "".join(line + "\n" for line in lines)
