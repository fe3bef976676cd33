"""A scikit-learn classifier that grows a tree and prunes it with any prunekit pruner.

``PrunedTreeClassifier(pruner=CostComplexityPruner(alpha=0.01))`` grows a scikit-learn
``DecisionTreeClassifier`` and applies the pruner. Pruners are small estimator-like objects with
their own parameters, so model selection reaches them with scikit-learn's nested-parameter
syntax, e.g. ``GridSearchCV(PrunedTreeClassifier(), {"pruner__alpha": [0.001, 0.01]})``.

Two kinds of pruner exist. Most judge the tree on the sample it was grown on (cost-complexity,
pessimistic, minimum-error and error-based pruning). Those that need an independent pruning
sample (critical-value and reduced-error pruning) derive from :class:`HoldoutPruner`: the
classifier then splits its training data, seeded, into a growing part and a pruning part of
``prune_size``, grows the tree on the first and hands the pruner the second.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from prunekit.cost_complexity_pruning import cost_complexity
from prunekit.heuristics import (
    critical_value,
    error_based,
    error_based_raising,
    minimum_error,
    pessimistic,
)
from prunekit.reduced_error_pruning import reduced_error
from prunekit.tree import Pruning, Tree

__all__ = ["Pruner", "HoldoutPruner", "CostComplexityPruner", "PessimisticPruner",
           "MinimumErrorPruner", "ErrorBasedPruner", "CriticalValuePruner",
           "ReducedErrorPruner", "PrunedTreeClassifier"]


class Pruner(BaseEstimator):
    """Base class of the pruners :class:`PrunedTreeClassifier` accepts.

    A pruner's constructor takes only its parameters (so ``get_params``/``set_params`` and
    ``clone`` work), and :meth:`prune` maps a grown :class:`~prunekit.Tree` and a sample to a
    :class:`~prunekit.Pruning` of that same tree. A pruner that changes the tree itself
    (subtree raising) does so in :meth:`restructure`, which the classifier calls first.
    """

    def restructure(self, tree: Tree, X, y) -> Tree:
        """Return the tree to prune; by default ``tree`` itself.

        Parameters
        ----------
        tree : Tree
            The grown tree.
        X, y : ndarray
            Its growing sample.
        """
        return tree

    def prune(self, tree: Tree, X, y) -> Pruning:
        """Return a pruning of ``tree``.

        ``(X, y)`` is the growing sample, or for a :class:`HoldoutPruner` the pruning sample.
        """
        raise NotImplementedError(
            f"{type(self).__name__} does not define prune(tree, X, y); a Pruner subclass "
            "must return a prunekit Pruning of the tree it is given."
        )


class HoldoutPruner(Pruner):
    """Base class of the pruners that choose their pruning on a separate pruning sample.

    Parameters
    ----------
    prune_size : float in (0, 1) or int >= 1
        Share (float) or number (int) of the training examples the classifier holds out as
        the pruning sample; the tree is grown on the rest.
    random_state : int, RandomState or None
        Seeds the split; ``None`` takes the classifier's ``random_state``.
    """

    def __init__(self, prune_size=0.3, random_state=None):
        self.prune_size = prune_size
        self.random_state = random_state

    def split(self, X, y, random_state=None):
        """Split ``(X, y)`` into a growing and a pruning sample.

        Returns
        -------
        X_grow, X_prune, y_grow, y_prune : ndarray
        """
        n = len(y)
        size = self.prune_size
        if isinstance(size, bool) or not isinstance(size, numbers.Real):
            raise TypeError(
                f"prune_size must be a float in (0, 1) or an int >= 1, got {type(size).__name__}."
            )
        if isinstance(size, numbers.Integral):
            n_prune = int(size)
            if n_prune < 1:
                raise ValueError(f"prune_size must be at least 1 example, got {n_prune}.")
        else:
            if not 0 < size < 1:
                raise ValueError(f"prune_size must be a float in (0, 1) or an int >= 1, got {size!r}.")
            n_prune = math.ceil(size * n)
        if n_prune >= n:
            raise ValueError(
                f"prune_size={size!r} holds out {n_prune} of n_samples={n} examples, leaving "
                "none to grow the tree on; give more data or a smaller prune_size."
            )
        seed = random_state if self.random_state is None else self.random_state
        return train_test_split(X, y, test_size=n_prune, random_state=seed)


class CostComplexityPruner(Pruner):
    """Cost-complexity pruning at a fixed alpha (see :func:`prunekit.cost_complexity_pruning`).

    Parameters
    ----------
    alpha : float, default 0.0
        Complexity parameter; 0 gives T1, the smallest pruning with the tree's own risk.
    criterion : {"error", "impurity"}, default "error"
    """

    def __init__(self, alpha=0.0, criterion="error"):
        self.alpha = alpha
        self.criterion = criterion

    def prune(self, tree: Tree, X=None, y=None) -> Pruning:
        return cost_complexity(tree, self.alpha, self.criterion)


class PessimisticPruner(Pruner):
    """Quinlan's (1987) pessimistic error pruning (see :func:`prunekit.pessimistic`).

    Parameters
    ----------
    order : {"top-down", "bottom-up"}, default "top-down"
        Quinlan's top-down visit, or the same test applied bottom-up.
    """

    def __init__(self, order="top-down"):
        self.order = order

    def prune(self, tree: Tree, X=None, y=None) -> Pruning:
        return pessimistic(tree, order=self.order)


class MinimumErrorPruner(Pruner):
    """Minimum-error pruning (see :func:`prunekit.minimum_error`).

    Parameters
    ----------
    m : float >= 0 or None, default None
        ``None``: Niblett & Bratko's (1986) Laplace estimate; otherwise Cestnik & Bratko's
        (1991) m-estimate with this m.
    prior : array-like of shape (n_classes,) or None, default None
        Prior class probabilities of the m-estimate (default: the class frequencies of the
        growing sample). Only with ``m``.
    """

    def __init__(self, m=None, prior=None):
        self.m = m
        self.prior = prior

    def prune(self, tree: Tree, X=None, y=None) -> Pruning:
        return minimum_error(tree, m=self.m, prior=self.prior)


class ErrorBasedPruner(Pruner):
    """C4.5's error-based pruning, as Weka's J48 does it (see :func:`prunekit.error_based`).

    Parameters
    ----------
    confidence : float in (0, 1), default 0.25
        C4.5's confidence factor CF (J48's ``-C``).
    subtree_raising : bool, default True
        Also raise subtrees, J48's default: :meth:`restructure` replaces the tree by the
        raised one (:func:`prunekit.error_based_raising`, which re-routes the growing sample)
        and :meth:`prune` keeps all of it. ``False`` is J48's ``-S``: collapse and prune only.
    """

    def __init__(self, confidence=0.25, subtree_raising=True):
        self.confidence = confidence
        self.subtree_raising = subtree_raising

    def _raising(self) -> bool:
        if not isinstance(self.subtree_raising, (bool, np.bool_)):
            raise TypeError(
                f"subtree_raising must be True or False, got {self.subtree_raising!r}."
            )
        return bool(self.subtree_raising)

    def restructure(self, tree: Tree, X, y) -> Tree:
        if not self._raising():
            return tree
        return error_based_raising(tree, X, y, confidence=self.confidence)

    def prune(self, tree: Tree, X=None, y=None) -> Pruning:
        if self._raising():
            return Pruning.full(tree)
        return error_based(tree, confidence=self.confidence)


class CriticalValuePruner(HoldoutPruner):
    """Mingers' critical-value pruning with the critical value chosen on a held-out sample.

    See :func:`prunekit.critical_value`.

    Parameters
    ----------
    measure : str, default "entropy"
        The split measure; ``"criterion"`` uses the classifier's growing criterion.
    prune_size : float in (0, 1) or int >= 1, default 0.3
    random_state : int, RandomState or None, default None
        See :class:`HoldoutPruner`.
    """

    def __init__(self, measure="entropy", prune_size=0.3, random_state=None):
        super().__init__(prune_size=prune_size, random_state=random_state)
        self.measure = measure

    def prune(self, tree: Tree, X, y) -> Pruning:
        return critical_value(tree, X, y, measure=self.measure)


class ReducedErrorPruner(HoldoutPruner):
    """Reduced-error pruning on a held-out sample (see :func:`prunekit.reduced_error_pruning`).

    Parameters
    ----------
    prune_size : float in (0, 1) or int >= 1, default 0.3
    random_state : int, RandomState or None, default None
        See :class:`HoldoutPruner`.
    labels : {"growing", "pruning"}, default "growing"
        Leaf labels, as in :func:`prunekit.reduced_error_pruning`.
    """

    def __init__(self, prune_size=0.3, random_state=None, labels="growing"):
        super().__init__(prune_size=prune_size, random_state=random_state)
        self.labels = labels

    def prune(self, tree: Tree, X, y) -> Pruning:
        return reduced_error(tree, X, y, labels=self.labels)


class PrunedTreeClassifier(ClassifierMixin, BaseEstimator):
    """Grow a decision tree with scikit-learn, then prune it with a prunekit pruner.

    Parameters
    ----------
    pruner : Pruner, default None
        The pruning method; default ``CostComplexityPruner()`` (alpha = 0). A
        :class:`HoldoutPruner` makes the classifier hold out its pruning sample.
    criterion : {"gini", "entropy", "log_loss"}, default "gini"
        Split criterion of the grower.
    max_depth : int or None, default None
    min_samples_leaf : int, default 1
    random_state : int, RandomState or None, default None
        Seeds the grower's tie-breaking between equally good splits, and the split into growing
        and pruning samples when the pruner has no ``random_state`` of its own.

    Attributes
    ----------
    tree_ : Tree
        The tree the pruning refers to: the grown tree with the class counts of its growing
        sample (all the training data, or what a :class:`HoldoutPruner` leaves for growing),
        or for subtree raising the raised tree.
    pruning_ : Pruning
        The pruning of ``tree_`` the classifier predicts with.
    classes_ : ndarray
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        The column names of ``X`` when it was a DataFrame with string column names (only
        then); ``tree_.feature_names`` holds them too.
    """

    def __init__(self, pruner=None, criterion="gini", max_depth=None, min_samples_leaf=1,
                 random_state=None):
        self.pruner = pruner
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.random_state = random_state

    def fit(self, X, y):
        """Grow the tree on ``(X, y)`` (or its growing part) and prune it."""
        X, y = validate_data(self, X, y, ensure_all_finite=True)
        check_classification_targets(y)
        pruner = CostComplexityPruner() if self.pruner is None else self.pruner
        if not isinstance(pruner, Pruner):
            raise TypeError(
                f"pruner must be a prunekit Pruner (e.g. CostComplexityPruner()), got "
                f"{type(pruner).__name__}."
            )
        classes = np.unique(y)
        if isinstance(pruner, HoldoutPruner):
            X_grow, X_prune, y_grow, y_prune = pruner.split(X, y, self.random_state)
        else:
            X_grow, y_grow = X_prune, y_prune = X, y
        grower = DecisionTreeClassifier(criterion=self.criterion, max_depth=self.max_depth,
                                        min_samples_leaf=self.min_samples_leaf,
                                        random_state=self.random_state).fit(X_grow, y_grow)
        names = getattr(self, "feature_names_in_", None)       # set by validate_data
        names = None if names is None else [str(name) for name in names]
        grown = Tree.from_sklearn(grower, X_grow, y_grow, classes=classes)
        if names is not None:
            grown = grown.with_feature_names(names)
        tree = pruner.restructure(grown, X_grow, y_grow)
        name = type(pruner).__name__
        if not isinstance(tree, Tree):
            raise TypeError(f"{name}.restructure must return a prunekit Tree, got "
                            f"{type(tree).__name__}.")
        if tree is not grown and not np.array_equal(tree.classes_, classes):
            raise ValueError(f"{name}.restructure returned a tree with classes "
                             f"{tree.classes_.tolist()}, not the training classes "
                             f"{classes.tolist()}.")
        if (tree is not grown and tree.feature_names is None and names is not None
                and tree.n_features == len(names)):
            tree = tree.with_feature_names(names)
        pruning = pruner.prune(tree, X_prune, y_prune)
        if not isinstance(pruning, Pruning):
            raise TypeError(f"{name}.prune must return a prunekit Pruning, got "
                            f"{type(pruning).__name__}.")
        if pruning.tree is not tree:
            raise ValueError(f"{name}.prune returned a Pruning of another tree; it must prune "
                             "the tree it is given.")
        self.tree_ = tree
        self.pruning_ = pruning
        self.classes_ = np.array(tree.classes_)
        return self

    def predict(self, X):
        """Class labels predicted by the pruned tree."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, ensure_all_finite=True)
        return self.pruning_.predict(X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        return tags
