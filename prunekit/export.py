"""A pruned tree out of prunekit: as text, or as a scikit-learn tree.

:func:`export_text` writes the kept part of a :class:`~prunekit.Pruning` (or a whole
:class:`~prunekit.Tree` or :class:`~prunekit.RegressionTree`, or the pruned tree of a fitted
:class:`~prunekit.PrunedTreeClassifier` or :class:`~prunekit.PrunedTreeRegressor`) in the
layout of ``sklearn.tree.export_text``, so that a pruned model can be read, diffed, pasted
into a report or reimplemented elsewhere. :func:`to_sklearn` makes it a fitted
``sklearn.tree.DecisionTreeClassifier`` (or ``DecisionTreeRegressor``), for the tools that
take one: scikit-learn's ``plot_tree`` and exports, SHAP, ONNX converters, dtreeviz.
"""

from __future__ import annotations

import numpy as np

from prunekit._sklearn_tree import compiled_tree
from prunekit.impurity import GROWER_CRITERIA, class_proportions, counts_impurity
from prunekit.regression_tree import RegressionTree
from prunekit.validation import check_bool, check_count
from prunekit.tree import BinaryTree, Pruning, Tree

__all__ = ["export_text", "to_sklearn"]

#: The criteria of a ``DecisionTreeRegressor`` whose impurity is the mean squared error.
SQUARED_ERROR_CRITERIA = ("squared_error", "friedman_mse")


def _as_pruning(model) -> tuple[Pruning, object]:
    """The pruning a model predicts with, and the estimator when it is one."""
    from sklearn.utils.validation import check_is_fitted

    from prunekit.estimator import PrunedTreeClassifier
    from prunekit.regression_estimator import PrunedTreeRegressor

    if isinstance(model, (PrunedTreeClassifier, PrunedTreeRegressor)):
        check_is_fitted(model)
        return model.pruning_, model
    if isinstance(model, BinaryTree):
        return Pruning.full(model), None
    if isinstance(model, Pruning):
        return model, None
    raise TypeError(f"model must be a prunekit Pruning, Tree or fitted "
                    f"PrunedTreeClassifier, or a RegressionTree or fitted "
                    f"PrunedTreeRegressor, got {type(model).__name__}.")


def _kept_tree(model, what: str = "rules to write") -> BinaryTree:
    """The stand-alone tree to write: a tree, a Pruning's kept part, or an estimator's."""
    tree = _as_pruning(model)[0].to_tree()
    if not tree.has_split_rules:
        raise ValueError(f"model has no split rules (its tree was built from counts or "
                         f"moments only), so it has no {what}; build it with feature and "
                         "threshold.")
    return tree


def _names(values, default, needed: int, name: str) -> list[str]:
    if values is None:
        return list(default)
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
        raise TypeError(f"{name} must be a sequence of strings, got {type(values).__name__}.")
    if len(values) != needed:
        raise ValueError(f"{name} must have {needed} entries, got {len(values)}.")
    return [str(value) for value in values]


def _heights(tree: BinaryTree) -> np.ndarray:
    """Levels of the subtree below every node (1 at a leaf), as scikit-learn counts depth."""
    height = np.ones(tree.n_nodes, dtype=np.int64)
    for inner in tree.inner_levels:
        height[inner] = 1 + np.maximum(height[tree.left[inner]], height[tree.right[inner]])
    return height


def _leaf_texts(tree: BinaryTree, class_names, decimals: int,
                show_counts: bool) -> list[str]:
    """What :func:`export_text` writes after the indentation of every node as a leaf.

    A classification leaf gives `` class: label``, after its growing counts with
    ``show_counts``; a regression leaf gives `` value: [mean]`` as scikit-learn writes it,
    after its growing number of examples (or weight) and mean squared error with
    ``show_counts``.
    """
    if isinstance(tree, Tree):
        names = _names(class_names, [str(c) for c in tree.classes_], tree.n_classes,
                       "class_names")
        counts = [f" counts: {row.tolist()}" if show_counts else "" for row in tree.counts]
        return [f"{shown} class: {names[label]}" for shown, label in zip(counts, tree.labels)]
    if class_names is not None:
        raise ValueError("class_names must be None for a regression tree: its leaves "
                         "predict values, not classes.")
    weight, mean = tree.moments[:, 0], tree.moments[:, 1]
    shown = [""] * tree.n_nodes
    if show_counts:
        digits = decimals if tree.weighted else 0     # a number of examples, or a weight
        shown = [f" n: {w:.{digits}f}, mse: {e:.{decimals}f},"
                 for w, e in zip(weight, _mean_squared_errors(tree))]
    return [f"{s} value: [{m:.{decimals}f}]" for s, m in zip(shown, mean)]


def _mean_squared_errors(tree: RegressionTree) -> np.ndarray:
    """Every node's sum of squared deviations over its growing weight (0 where none)."""
    weight, squared = tree.moments[:, 0], tree.moments[:, 2]
    return np.divide(squared, weight, out=np.zeros(tree.n_nodes), where=weight > 0)


def export_text(model, *, feature_names=None, class_names=None, max_depth: int = 10,
                spacing: int = 3, decimals: int = 2, show_counts: bool = False) -> str:
    """The rules of a pruned tree as text, in the layout of ``sklearn.tree.export_text``.

    Every internal node gives two lines, ``feature <= threshold`` before its left subtree
    and ``feature >  threshold`` before its right one (a sample goes left when
    ``x[feature] <= threshold``); every leaf gives ``class: label``, or for a regression
    tree ``value: [mean]``, the mean of its growing targets that it predicts. A pruning is
    written as the tree it keeps: its leaves are leaves, with the pruning's labels. For an
    unpruned tree converted from scikit-learn the text is scikit-learn's, character for
    character.

    Parameters
    ----------
    model : Pruning, Tree, RegressionTree, or fitted PrunedTreeClassifier or
            PrunedTreeRegressor
        An estimator is written as its pruned tree (``pruning_``).
    feature_names : sequence of str, optional
        One name per feature; default the tree's ``feature_names``, or
        ``feature_0``, ``feature_1``, ... as scikit-learn names them.
    class_names : sequence of str, optional
        One name per class, in the order of ``classes_``; default the class labels. None
        for a regression tree.
    max_depth : int >= 0, default 10
        Nodes deeper than this (the root at depth 0) are summarised as "truncated branch of
        depth n" lines, as in scikit-learn.
    spacing : int >= 1, default 3
        Width of one level of indentation.
    decimals : int >= 0, default 2
        Digits of the thresholds, and of a regression tree's values and errors.
    show_counts : bool, default False
        Write the growing-sample class counts at each leaf (``counts: [50, 0, 0]``), where
        scikit-learn's ``show_weights`` writes weighted counts; for a regression tree, the
        number of growing examples (their total weight for a :attr:`weighted
        <prunekit.RegressionTree.weighted>` tree) and their mean squared error around the
        leaf's value (``n: 20, mse: 3.50, value: [1.25]``).

    Returns
    -------
    str

    Raises
    ------
    ValueError
        When the tree has no split rules, or ``class_names`` is given for a regression
        tree.

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

    A regression tree's leaves give their means, and with ``show_counts`` their sizes and
    mean squared errors:

    >>> r = pk.RegressionTree.from_arrays(
    ...     [1, -1, -1], [2, -1, -1], feature=[0, -1, -1],
    ...     threshold=[0.5, 0, 0],
    ...     X=[[0.0], [0.0], [0.0], [1.0], [1.0]], y=[1, 1, 2, 5, 7])
    >>> text = pk.export_text(r, feature_names=["x"], show_counts=True)
    >>> print(text, end="")
    |--- x <= 0.50
    |   |--- n: 3, mse: 0.22, value: [1.33]
    |--- x >  0.50
    |   |--- n: 2, mse: 1.00, value: [6.00]
    """
    tree = _kept_tree(model)
    default = tree.feature_names or [f"feature_{j}" for j in range(tree.n_features)]
    feature_names = _names(feature_names, default, tree.n_features, "feature_names")
    max_depth = check_count(max_depth, "max_depth")
    spacing = check_count(spacing, "spacing", minimum=1)
    decimals = check_count(decimals, "decimals")
    show_counts = check_bool(show_counts, "show_counts")
    leaf_texts = _leaf_texts(tree, class_names, decimals, show_counts)
    left, right, feature, threshold = tree.left, tree.right, tree.feature, tree.threshold
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
            lines.append(indent + leaf_texts[item])
        elif depth > max_depth + 1:
            lines.append(f"{indent} truncated branch of depth {height[item]}")
        else:
            name = feature_names[feature[item]]
            value = f"{threshold[item]:.{decimals}f}"
            stack += [(right[item], depth + 1), (f"{indent} {name} >  {value}", depth),
                      (left[item], depth + 1)]
            lines.append(f"{indent} {name} <= {value}")
    return "".join(line + "\n" for line in lines)


def _float32_thresholds(tree: BinaryTree) -> np.ndarray:
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
    """A fitted ``sklearn.tree.DecisionTreeClassifier`` (or ``DecisionTreeRegressor``) that
    is the pruned tree.

    Its ``tree_`` has the kept nodes of the pruning (renumbered in their order), with the
    same splits, the growing sample's counts (``n_node_samples``) and impurities, and at
    every leaf the pruning's class probabilities, so that ``predict``, ``predict_proba``,
    ``apply`` (up to the numbering), ``get_n_leaves``, ``get_depth`` and
    ``feature_importances_`` agree with prunekit's. Whatever takes a fitted scikit-learn
    tree then takes it: ``sklearn.tree.plot_tree``, ``export_graphviz`` and
    ``export_text``, SHAP's ``TreeExplainer``, skl2onnx, dtreeviz.

    A regression tree gives a ``DecisionTreeRegressor`` whose nodes have the growing means
    as ``value``, the mean squared errors around them (sum of squared deviations over
    weight) as ``impurity``, and the growing numbers of examples, so that it predicts
    prunekit's means.

    Parameters
    ----------
    model : Pruning, Tree, RegressionTree, or fitted PrunedTreeClassifier or
            PrunedTreeRegressor
        An estimator gives its pruned tree with its own predictions (a leaf relabelled by
        a classifier's pruning sample has that sample's frequencies) and its grower's
        parameters; a tree is taken whole.

    Returns
    -------
    sklearn.tree.DecisionTreeClassifier or sklearn.tree.DecisionTreeRegressor
        Fitted; ``classes_`` (a classifier's), ``n_features_in_`` and, when the tree has
        feature names, ``feature_names_in_`` are set as a fit would set them.

    Raises
    ------
    ValueError
        When the tree has no split rules (a tree built from counts or moments only).

    Notes
    -----
    A leaf's probabilities are its class frequencies in the growing sample. A leaf whose
    label is not the majority of those counts (a pruner that relabels leaves, or a tie
    broken otherwise) gets the frequencies of the classifier's pruning sample when that
    sample's majority is the label, and otherwise probability 1 for its label: scikit-learn
    predicts the most probable class, and so predicts the pruning's label.

    A regressor's criterion is the tree's when it is ``"squared_error"`` or
    ``"friedman_mse"`` (whose impurity, the mean squared error, is then the grower's own),
    and otherwise ``"squared_error"``: a prunekit regression leaf predicts its growing
    mean, whatever criterion grew the tree.

    scikit-learn compares samples with thresholds in float32. A tree converted from
    scikit-learn (such as the estimators') does too, so the two predict alike on every
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

    A regressor:

    >>> from sklearn.datasets import load_diabetes
    >>> X, y = load_diabetes(return_X_y=True)
    >>> reg = pk.PrunedTreeRegressor(random_state=0).fit(X, y)
    >>> sk = pk.to_sklearn(reg)
    >>> type(sk).__name__, int(sk.get_n_leaves())
    ('DecisionTreeRegressor', 4)
    >>> bool((sk.predict(X) == reg.predict(X)).all())
    True
    """
    pruning, estimator = _as_pruning(model)
    tree = _kept_tree(pruning, "splits to give scikit-learn")
    if isinstance(tree, RegressionTree):
        sk, value, impurity = _regressor_parts(tree, estimator)
    else:
        sk, value, impurity = _classifier_parts(pruning, tree, estimator)
    weight = tree._reached()
    # a weighted tree keeps no numbers of examples: its weights, rounded, stand for them
    n_samples = np.rint(weight).astype(np.intp)
    sk.tree_ = compiled_tree(
        left=tree.left, right=tree.right, feature=tree.feature,
        threshold=_float32_thresholds(tree), impurity=impurity, n_samples=n_samples,
        weighted_n_samples=weight,
        missing_go_to_left=tree.missing_go_to_left, value=value, n_features=tree.n_features,
        max_depth=int(tree.depth.max()))
    sk.n_features_in_ = tree.n_features
    sk.n_outputs_ = 1
    sk.max_features_ = tree.n_features
    if tree.feature_names is not None:
        sk.feature_names_in_ = np.array(tree.feature_names, dtype=object)
    return sk


def _classifier_parts(pruning: Pruning, tree: Tree, classifier):
    """An unfitted ``DecisionTreeClassifier`` with its ``classes_``, and the values
    (class probabilities) and impurities of the nodes of ``tree``, the kept part of
    ``pruning``."""
    from sklearn.tree import DecisionTreeClassifier

    from prunekit.estimator import _leaf_probabilities

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
    value = np.where(tree.is_leaf[:, None], probabilities, class_proportions(tree.counts))
    if tree.impurity is not None and tree.criterion == params["criterion"]:
        impurity = tree.impurity
    else:
        impurity = counts_impurity(tree.counts, params["criterion"])
    estimator = DecisionTreeClassifier(**params)
    estimator.classes_ = np.array(tree.classes_)
    estimator.n_classes_ = tree.n_classes
    return estimator, value, impurity


def _regressor_parts(tree: RegressionTree, regressor):
    """An unfitted ``DecisionTreeRegressor``, and the values (growing means) and
    impurities (mean squared errors) of the nodes of ``tree``."""
    from sklearn.tree import DecisionTreeRegressor

    squared = tree.criterion in SQUARED_ERROR_CRITERIA
    params = dict(criterion=tree.criterion if squared else "squared_error")
    if regressor is not None:
        grower = regressor.grower if regressor.grower is not None else regressor
        params.update(max_depth=grower.max_depth, min_samples_leaf=grower.min_samples_leaf,
                      random_state=(regressor.random_state if grower.random_state is None
                                    else grower.random_state))
    impurity = tree.impurity if squared and tree.impurity is not None else None
    if impurity is None:
        impurity = _mean_squared_errors(tree)
    return DecisionTreeRegressor(**params), tree.value[:, None], impurity
