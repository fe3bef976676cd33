"""A pruned tree out of prunekit: as text, or as a scikit-learn tree.

:func:`export_text` writes the kept part of a :class:`~prunekit.Pruning` (or a whole
:class:`~prunekit.Tree`, or the pruned tree of a fitted
:class:`~prunekit.PrunedTreeClassifier`) in the layout of ``sklearn.tree.export_text``, so
that a pruned model can be read, diffed, pasted into a report or reimplemented elsewhere.
:func:`to_sklearn` makes it a fitted ``sklearn.tree.DecisionTreeClassifier``, for the tools
that take one: scikit-learn's ``plot_tree`` and exports, SHAP, ONNX converters, dtreeviz.
"""

from __future__ import annotations

import numpy as np

from prunekit._sklearn_tree import compiled_tree
from prunekit.impurity import GROWER_CRITERIA, class_proportions, counts_impurity
from prunekit.validation import check_bool, check_count
from prunekit.tree import Pruning, Tree

__all__ = ["export_text", "to_sklearn"]


def _as_pruning(model) -> tuple[Pruning, object]:
    """The pruning a model predicts with, and the classifier when it is one."""
    from sklearn.utils.validation import check_is_fitted

    from prunekit.estimator import PrunedTreeClassifier

    if isinstance(model, PrunedTreeClassifier):
        check_is_fitted(model)
        return model.pruning_, model
    if isinstance(model, Tree):
        return Pruning.full(model), None
    if isinstance(model, Pruning):
        return model, None
    raise TypeError(f"model must be a prunekit Pruning, Tree or fitted "
                    f"PrunedTreeClassifier, got {type(model).__name__}.")


def _kept_tree(model, what: str = "rules to write") -> Tree:
    """The stand-alone tree to write: a Tree, a Pruning's kept part, or a classifier's."""
    tree = _as_pruning(model)[0].to_tree()
    if not tree.has_split_rules:
        raise ValueError(f"model has no split rules (its tree was built from counts only), so "
                         f"it has no {what}; build it with feature and threshold.")
    return tree


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


def _float32_thresholds(tree: Tree) -> np.ndarray:
    """Thresholds that scikit-learn, which compares samples in float32, applies as ``tree``.

    A tree converted from scikit-learn already compares in float32. For a tree that compares
    in float64, each threshold t becomes the largest float32 number t' <= t: no float32 number
    lies in (t', t], so every sample whose values are float32 numbers goes the same way.
    """
    threshold = tree.threshold.astype(np.float64)
    if tree.dtype is np.float32:
        return threshold
    rounded = threshold.astype(np.float32)
    rounded = np.where(rounded.astype(np.float64) > threshold,
                       np.nextafter(rounded, np.float32(-np.inf)), rounded)
    return rounded.astype(np.float64)


def to_sklearn(model):
    """A fitted ``sklearn.tree.DecisionTreeClassifier`` that is the pruned tree.

    Its ``tree_`` has the kept nodes of the pruning (renumbered in their order), with the
    same splits, the growing sample's counts (``n_node_samples``) and impurities, and at
    every leaf the pruning's class probabilities, so that ``predict``, ``predict_proba``,
    ``apply`` (up to the numbering), ``get_n_leaves``, ``get_depth`` and
    ``feature_importances_`` agree with prunekit's. Whatever takes a fitted scikit-learn
    tree then takes it: ``sklearn.tree.plot_tree``, ``export_graphviz`` and
    ``export_text``, SHAP's ``TreeExplainer``, skl2onnx, dtreeviz.

    Parameters
    ----------
    model : Pruning, Tree or fitted PrunedTreeClassifier
        A classifier gives its pruned tree with its own ``predict_proba`` (a leaf relabelled
        by the pruning sample has that sample's frequencies) and its grower's parameters; a
        Tree is taken whole.

    Returns
    -------
    sklearn.tree.DecisionTreeClassifier
        Fitted; ``classes_``, ``n_features_in_`` and, when the tree has feature names,
        ``feature_names_in_`` are set as a fit would set them.

    Raises
    ------
    ValueError
        When the tree has no split rules (a tree built from counts only).

    Notes
    -----
    A leaf's probabilities are its class frequencies in the growing sample. A leaf whose
    label is not the majority of those counts (a pruner that relabels leaves, or a tie
    broken otherwise) gets the frequencies of the classifier's pruning sample when that
    sample's majority is the label, and otherwise probability 1 for its label: scikit-learn
    predicts the most probable class, and so predicts the pruning's label.

    scikit-learn compares samples with thresholds in float32. A tree converted from
    scikit-learn (such as the classifier's) does too, so the two predict alike on every
    sample; a tree grown by prunekit's own growers compares in float64, and its thresholds
    are rounded down to float32, which keeps every sample of float32 numbers on its side.

    Samples with missing values (NaN) go where the tree sends them
    (:attr:`Tree.missing_go_to_left <prunekit.Tree.missing_go_to_left>`: what a
    scikit-learn grower learnt, or the child more growing examples reached). The weighted
    counts (``weighted_n_node_samples``) are the counts, or for a :attr:`weighted
    <prunekit.Tree.weighted>` tree the sums of weights, whose rounding then stands for the
    numbers of examples (``n_node_samples``), which such a tree does not keep.

    Examples
    --------
    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.tree import export_text
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> clf = pk.PrunedTreeClassifier(random_state=0).fit(X, y)
    >>> sk = pk.to_sklearn(clf)
    >>> int(sk.get_n_leaves()), clf.get_n_leaves()
    (13, 13)
    >>> bool((sk.predict_proba(X) == clf.predict_proba(X)).all())
    True
    >>> print(export_text(sk, max_depth=0))
    |--- feature_20 <= 16.80
    |   |--- truncated branch of depth 5
    |--- feature_20 >  16.80
    |   |--- truncated branch of depth 3
    <BLANKLINE>
    """
    from sklearn.tree import DecisionTreeClassifier

    from prunekit.estimator import _leaf_probabilities

    pruning, classifier = _as_pruning(model)
    tree = _kept_tree(pruning, "splits to give scikit-learn")
    nodes = np.flatnonzero(pruning.kept)
    if classifier is not None:
        probabilities = classifier._proba[nodes]
        params = dict(criterion=classifier.criterion, max_depth=classifier.max_depth,
                      min_samples_leaf=classifier.min_samples_leaf,
                      random_state=classifier.random_state)
    else:
        probabilities = _leaf_probabilities(pruning)[nodes]
        params = dict(criterion=tree.criterion if tree.criterion in GROWER_CRITERIA
                      else "gini")
    leaf = tree.is_leaf
    value = np.where(leaf[:, None], probabilities, class_proportions(tree.counts))
    if tree.impurity is not None and tree.criterion == params["criterion"]:
        impurity = tree.impurity
    else:
        impurity = counts_impurity(tree.counts, params["criterion"])
    weight = tree.counts.sum(axis=1)
    # a weighted tree keeps no numbers of examples: its weights, rounded, stand for them
    n_samples = np.rint(weight).astype(np.intp) if tree.weighted else weight
    estimator = DecisionTreeClassifier(**params)
    estimator.tree_ = compiled_tree(
        left=tree.left, right=tree.right, feature=tree.feature,
        threshold=_float32_thresholds(tree), impurity=impurity, n_samples=n_samples,
        weighted_n_samples=weight,
        missing_go_to_left=tree.missing_go_to_left, value=value, n_features=tree.n_features,
        max_depth=int(tree.depth.max()))
    estimator.classes_ = np.array(tree.classes_)
    estimator.n_classes_ = tree.n_classes
    estimator.n_features_in_ = tree.n_features
    estimator.n_outputs_ = 1
    estimator.max_features_ = tree.n_features
    if tree.feature_names is not None:
        estimator.feature_names_in_ = np.array(tree.feature_names, dtype=object)
    return estimator
