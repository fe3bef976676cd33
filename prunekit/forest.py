"""The trees of a fitted scikit-learn forest, each pruned by a prunekit pruner.

A random forest averages trees grown to purity on bootstrap samples (Breiman 2001). Pruning
them makes a smaller forest; :func:`prune_forest` prunes each tree on its own samples, with
nothing private of scikit-learn: a tree's bootstrap rows are the forest's public
``estimators_samples_``, and the rows it never saw (its *out-of-bag* examples) are an
independent pruning sample for the pruners that need one. The pruned trees go back into a
copy of the forest (:func:`prunekit.export.to_sklearn`), which then predicts as they vote.
"""

from __future__ import annotations

import copy

import numpy as np

from prunekit.export import to_sklearn
from prunekit.pruner import Pruner, _check_takes_weights
from prunekit.reduced_error_pruning import ReducedErrorPruner
from prunekit.tree import Tree
from prunekit.validation import check_labels, check_sample_weight, check_samples

__all__ = ["prune_forest"]


def _check_forest(forest):
    """A fitted single-output scikit-learn forest classifier."""
    from sklearn.ensemble import ExtraTreesClassifier, RandomForestClassifier
    from sklearn.utils.validation import check_is_fitted

    if not isinstance(forest, (RandomForestClassifier, ExtraTreesClassifier)):
        raise TypeError("forest must be a fitted scikit-learn forest classifier "
                        "(RandomForestClassifier or ExtraTreesClassifier), got "
                        f"{type(forest).__name__}.")
    check_is_fitted(forest)
    if forest.n_outputs_ != 1:
        raise ValueError("forest was fitted on several outputs; prunekit prunes trees of one.")
    return forest


def _pruning_weights(forest, y, sample_weight) -> np.ndarray | None:
    """Each example's weight in the forest's loss, for its trees' out-of-bag pruning
    samples: ``sample_weight`` times its class's weight (``compute_sample_weight``); None
    when the forest has neither.

    The trees themselves are unweighted: scikit-learn (1.9) draws each bootstrap sample with
    probabilities proportional to these weights and fits the tree on the rows drawn,
    counted, without weights. A forest whose trees are fitted with weights (no bootstrap, or
    "balanced_subsample") is refused: its weights are computed inside scikit-learn.
    """
    from sklearn.utils.class_weight import compute_sample_weight

    weighted = sample_weight is not None or forest.class_weight is not None
    if weighted and (not forest.bootstrap or forest.class_weight == "balanced_subsample"):
        raise ValueError(
            "prune_forest takes a forest fitted with weights (sample_weight or class_weight) "
            "only with bootstrap=True and a class_weight other than 'balanced_subsample': "
            "scikit-learn then draws each tree's rows by weight and fits the tree on them "
            "unweighted, while here it fits each tree with weights it computes internally. "
            "Refit the forest with bootstrap=True and class_weight='balanced'.")
    if forest.class_weight is None:
        return sample_weight
    by_class = compute_sample_weight(forest.class_weight, y)
    return by_class if sample_weight is None else by_class * sample_weight


def prune_forest(forest, X, y, *, pruner=None, sample_weight=None):
    """A copy of a fitted forest with every tree pruned by ``pruner``.

    Tree i is converted with the rows it was grown on (``forest.estimators_samples_[i]``,
    repeated as the bootstrap drew them, so its counts are the forest's) and pruned: a pruner
    that needs an independent pruning sample (a :class:`~prunekit.HoldoutPruner`) is given
    the tree's out-of-bag rows; any other is given its bootstrap rows and, when it grows
    trees of its own (:class:`~prunekit.CrossValidatedCostComplexityPruner`), the tree's own
    scikit-learn settings as its grower.

    Parameters
    ----------
    forest : RandomForestClassifier or ExtraTreesClassifier
        Fitted on ``(X, y)``. With a ``class_weight`` (or ``sample_weight``), bootstrap is
        needed: the weights chose each tree's rows, and they weigh its out-of-bag pruning
        sample.
    X : array-like of shape (m, d)
        The data the forest was fitted on.
    y : array-like of shape (m,)
        Its labels.
    pruner : Pruner or None, default None
        None: ``ReducedErrorPruner()``, reduced-error pruning on the out-of-bag rows.
    sample_weight : array-like of shape (m,), optional
        The weights the forest was fitted with; with them (or a ``class_weight``) a pruner
        that uses a pruning sample must be one that takes weights.

    Returns
    -------
    forest
        A deep copy of ``forest`` whose ``estimators_`` are the pruned trees, as fitted
        ``DecisionTreeClassifier`` objects with the original trees' parameters; its
        ``predict_proba`` is the mean of theirs, as for any forest.

    Raises
    ------
    ValueError
        For a pruner that needs a pruning sample when the forest has no out-of-bag rows
        (``bootstrap=False``, ExtraTreesClassifier's default): give a pruner that judges
        the tree on its growing sample, such as ``ErrorBasedPruner()``.

    Notes
    -----
    Cross-validation on a bootstrap sample is optimistic: a row drawn twice can fall in a
    training fold and in the test fold. For a forest, the default (the out-of-bag rows) or
    a fixed alpha (``CostComplexityPruner``) is the safer choice.

    Examples
    --------
    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.ensemble import RandomForestClassifier
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> forest = RandomForestClassifier(n_estimators=10, random_state=0)
    >>> forest = forest.fit(X, y)
    >>> pruned = pk.prune_forest(forest, X, y)
    >>> def leaves(f):
    ...     return sum(int(t.get_n_leaves()) for t in f.estimators_)
    >>> leaves(forest), leaves(pruned)
    (237, 107)
    """
    from sklearn.base import clone

    forest = _check_forest(forest)
    X = check_samples(X, forest.n_features_in_, name="X")
    y = check_labels(y, X.shape[0], name="y")
    unknown = ~np.isin(y, forest.classes_)
    if unknown.any():
        raise ValueError(f"y holds labels the forest was not fitted on, e.g. "
                         f"{y[unknown][0]!r}: give the data it was fitted on.")
    if pruner is None:
        pruner = ReducedErrorPruner()
    if not isinstance(pruner, Pruner):
        raise TypeError(f"pruner must be a prunekit Pruner (e.g. ReducedErrorPruner()), got "
                        f"{type(pruner).__name__}.")
    pruner._check_parameters()
    sample_weight = check_sample_weight(sample_weight, len(y))
    holdout = pruner.uses_pruning_sample()
    weights_of = _pruning_weights(forest, y, sample_weight)
    if holdout and weights_of is not None:
        _check_takes_weights(pruner)
    codes = np.searchsorted(forest.classes_, y).astype(np.float64)   # as the trees saw y
    pruned = copy.deepcopy(forest)
    for i, (estimator, rows) in enumerate(zip(forest.estimators_, forest.estimators_samples_)):
        X_grow, y_grow = X[rows], codes[rows]
        tree = Tree.from_sklearn(estimator, X_grow, y_grow)
        grower = clone(estimator)           # the forest's trees hold no class_weight
        tree = pruner.restructure(tree, X_grow, y_grow)
        if holdout:
            out_of_bag = np.ones(len(y), dtype=bool)
            out_of_bag[rows] = False
            if not out_of_bag.any():
                raise ValueError(
                    f"{type(pruner).__name__} prunes on a sample the tree was not grown on, "
                    f"and tree {i} of the forest saw every row (bootstrap=False, or "
                    "max_samples too large): give a pruner that judges a tree on its growing "
                    "sample, such as ErrorBasedPruner() or CostComplexityPruner(alpha=...).")
            pruning = pruner._prune_grown(
                tree, X[out_of_bag], codes[out_of_bag], grower,
                **({} if weights_of is None else {"sample_weight": weights_of[out_of_bag]}))
        else:
            pruning = pruner._prune_grown(tree, X_grow, y_grow, grower)
        replacement = to_sklearn(pruning)
        replacement.set_params(**estimator.get_params())
        pruned.estimators_[i] = replacement
    return pruned
