"""A scikit-learn classifier that grows a tree and prunes it with any prunekit pruner.

``PrunedTreeClassifier(pruner=CostComplexityPruner(alpha=0.01))`` grows a scikit-learn
``DecisionTreeClassifier`` and applies the pruner. Pruners are small estimator-like objects with
their own parameters, so model selection reaches them with scikit-learn's nested-parameter
syntax, e.g. ``GridSearchCV(PrunedTreeClassifier(), {"pruner__alpha": [0.001, 0.01]})``.
"""

from __future__ import annotations

from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from prunekit.cost_complexity import cost_complexity
from prunekit.tree import Pruning, Tree

__all__ = ["Pruner", "CostComplexityPruner", "PrunedTreeClassifier"]


class Pruner(BaseEstimator):
    """Base class of the pruners :class:`PrunedTreeClassifier` accepts.

    A pruner's constructor takes only its parameters (so ``get_params``/``set_params`` and
    ``clone`` work), and :meth:`prune` maps a grown :class:`~prunekit.Tree` and its growing
    sample to a :class:`~prunekit.Pruning`.
    """

    def prune(self, tree: Tree, X, y) -> Pruning:
        """Return a pruning of ``tree``, grown on ``(X, y)``."""
        raise NotImplementedError


class CostComplexityPruner(Pruner):
    """Cost-complexity pruning at a fixed alpha (see :func:`prunekit.cost_complexity`).

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


class PrunedTreeClassifier(ClassifierMixin, BaseEstimator):
    """Grow a decision tree with scikit-learn, then prune it with a prunekit pruner.

    Parameters
    ----------
    pruner : Pruner, default None
        The pruning method; default ``CostComplexityPruner()`` (alpha = 0).
    criterion : {"gini", "entropy", "log_loss"}, default "gini"
        Split criterion of the grower.
    max_depth : int or None, default None
    min_samples_leaf : int, default 1
    random_state : int, RandomState or None, default None
        Seeds the grower's tie-breaking between equally good splits.

    Attributes
    ----------
    tree_ : Tree
        The grown tree, with the class counts of the training sample.
    pruning_ : Pruning
        The pruning the classifier predicts with.
    classes_ : ndarray
    n_features_in_ : int
    """

    def __init__(self, pruner=None, criterion="gini", max_depth=None, min_samples_leaf=1,
                 random_state=None):
        self.pruner = pruner
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.random_state = random_state

    def fit(self, X, y):
        """Grow the tree on ``(X, y)`` and prune it."""
        X, y = validate_data(self, X, y, ensure_all_finite=True)
        check_classification_targets(y)
        pruner = CostComplexityPruner() if self.pruner is None else self.pruner
        if not isinstance(pruner, Pruner):
            raise TypeError(
                f"pruner must be a prunekit Pruner (e.g. CostComplexityPruner()), got "
                f"{type(pruner).__name__}."
            )
        grower = DecisionTreeClassifier(criterion=self.criterion, max_depth=self.max_depth,
                                        min_samples_leaf=self.min_samples_leaf,
                                        random_state=self.random_state).fit(X, y)
        self.tree_ = Tree.from_sklearn(grower, X, y)
        self.pruning_ = pruner.prune(self.tree_, X, y)
        self.classes_ = grower.classes_
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

