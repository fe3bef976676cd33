"""A scikit-learn regressor that grows a regression tree and prunes it under squared error.

``PrunedTreeRegressor()`` grows a scikit-learn ``DecisionTreeRegressor`` and prunes it by
cost complexity, alpha chosen by 10-fold cross-validation with the 1-SE rule (Breiman et
al. 1984, ch. 8), the regression twin of :class:`~prunekit.PrunedTreeClassifier`.
"""

from __future__ import annotations

import numpy as np
from scipy import sparse
from sklearn.base import RegressorMixin, clone, is_regressor
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeRegressor
from sklearn.utils.validation import validate_data

from prunekit._parameters import checked_where_used, validate_parameters
from prunekit.cost_complexity_pruning import CostComplexityPruner
from prunekit.cost_complexity_pruning import CrossValidatedCostComplexityPruner, _check_grower
from prunekit.gey_nedelec_pruning import GeyNedelecPruner
from prunekit.estimator import _check_pruner, _checked_pruning, _concrete_seed, _PrunedTree
from prunekit.pruner import Pruner
from prunekit.reduced_error_pruning import ReducedErrorPruner
from prunekit.tree import _grow
from prunekit.validation import check_sample_weight

__all__ = ["PrunedTreeRegressor"]

#: The pruners defined for regression trees.
REGRESSION_PRUNERS = (CostComplexityPruner, CrossValidatedCostComplexityPruner,
                      ReducedErrorPruner, GeyNedelecPruner)


def _check_regression_grower(grower, name: str = "grower"):
    """None (the default grower), or an unfitted scikit-learn tree regressor."""
    grower = _check_grower(grower, name)
    if grower is not None and not is_regressor(grower):
        raise TypeError(f"{name} must be a scikit-learn tree regressor "
                        "(DecisionTreeRegressor or ExtraTreeRegressor), got "
                        f"{type(grower).__name__}.")
    return grower


def _check_regression_pruner(pruner, name: str):
    """None, or a pruner defined for regression trees (:data:`REGRESSION_PRUNERS`)."""
    pruner = _check_pruner(pruner, name)
    if pruner is not None and not isinstance(pruner, REGRESSION_PRUNERS):
        raise TypeError(f"{name} must be a pruner defined for regression trees "
                        "(CostComplexityPruner, CrossValidatedCostComplexityPruner, "
                        "ReducedErrorPruner or GeyNedelecPruner), got "
                        f"{type(pruner).__name__}, which prunes classification trees.")
    return pruner


def _weights(weights, rows) -> dict:
    """``{"sample_weight": weights[rows]}``, or ``{}`` without weights."""
    return {} if weights is None else {"sample_weight": weights[rows]}


class PrunedTreeRegressor(RegressorMixin, _PrunedTree):
    """Grow a regression tree with scikit-learn, then prune it under squared error.

    Parameters
    ----------
    pruner : CostComplexityPruner, CrossValidatedCostComplexityPruner, ReducedErrorPruner
            or None, default None
        None means a new ``CrossValidatedCostComplexityPruner(rule="1-SE")`` at each fit:
        alpha chosen by 10-fold cross-validation, the smallest tree within one standard
        error of the least cross-validated squared error (Breiman et al. 1984, ch. 8;
        rpart's recommendation). ``set_params(pruner__rule="0-SE")`` (or a grid search over
        ``pruner__rule``) gives this estimator such a pruner of its own. A
        ``ReducedErrorPruner`` makes the regressor hold out ``prune_size`` of the rows (a
        shuffled split, seeded) and grow the tree on the rest.
    grower : unfitted DecisionTreeRegressor or ExtraTreeRegressor, or None, default None
        How the tree is grown; it also grows the trees of the folds. None:
        ``DecisionTreeRegressor(max_depth=max_depth, min_samples_leaf=min_samples_leaf)``.
    max_depth : int or None, default None
    min_samples_leaf : int, default 1
    random_state : int, RandomState or None, default None
        Seeds the grower's tie-breaking and the folds.

    Attributes
    ----------
    tree_ : RegressionTree
        The grown tree, with the moments of the training sample.
    pruning_ : Pruning
        The pruning of ``tree_`` the regressor predicts with.
    pruner_ : Pruner
        The copy of ``pruner`` that pruned, with what it chose (``alpha_``).
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Set when ``X`` was a DataFrame with string column names.

    Notes
    -----
    alpha is on the scale of the mean squared error: a branch is kept while it lowers the
    training sum of squared errors by more than alpha times the number of examples per
    extra leaf -- scikit-learn's ``ccp_alpha`` for a ``DecisionTreeRegressor``.

    Examples
    --------
    >>> import prunekit as pk
    >>> from sklearn.datasets import load_diabetes
    >>> X, y = load_diabetes(return_X_y=True)
    >>> reg = pk.PrunedTreeRegressor(random_state=0).fit(X, y)
    >>> reg.tree_.n_leaves, reg.get_n_leaves()
    (432, 4)
    """

    _parameter_checks = {"pruner": _check_regression_pruner, "grower": _check_regression_grower,
                         "max_depth": checked_where_used,
                         "min_samples_leaf": checked_where_used,
                         "random_state": checked_where_used}
    _GROWER_SHORTCUTS = {"max_depth": None, "min_samples_leaf": 1}

    def __init__(self, *, pruner=None, grower=None, max_depth=None, min_samples_leaf=1,
                 random_state=None):
        self.pruner = pruner
        self.grower = grower
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.random_state = random_state

    @staticmethod
    def _default_pruner() -> Pruner:
        return CrossValidatedCostComplexityPruner(rule="1-SE")

    def fit(self, X, y, sample_weight=None):
        """Grow the tree on ``(X, y)`` and prune it.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (m, d)
            Numbers, NaN for a missing value.
        y : array-like of shape (m,)
            Real targets.
        sample_weight : array-like of shape (m,), optional
            Non-negative example weights, for growing and for pruning.

        Returns
        -------
        self
        """
        validate_parameters(type(self).__name__, self._parameter_checks,
                            self.get_params(deep=False), arrays=("pruner", "grower"))
        X, y = validate_data(self, X, y, accept_sparse=("csr", "csc"),
                             ensure_all_finite=False, y_numeric=True)
        self._check_finite(X)
        if sparse.issparse(X):
            X = X.astype(np.float32).toarray()
        y = np.asarray(y, dtype=np.float64)
        pruner = self._fresh_pruner()
        grower = self._fresh_grower()
        weights = check_sample_weight(sample_weight, len(y))
        grow = prune = np.arange(len(y))
        if pruner.uses_pruning_sample():
            grow, prune = train_test_split(grow, test_size=pruner.prune_size,
                                           random_state=pruner._seed(grower.random_state))
            grow, prune = np.sort(grow), np.sort(prune)
        tree = self._named(_grow(grower, X[grow], y[grow], **_weights(weights, grow)))
        self.pruning_ = _checked_pruning(pruner, tree, X[prune], y[prune], grower,
                                         **_weights(weights, prune))
        self.pruner_, self.tree_ = pruner, tree
        return self

    def _fresh_grower(self):
        """A clone of ``grower`` with an integer ``random_state``, or the default one."""
        if self.grower is None:
            return DecisionTreeRegressor(max_depth=self.max_depth,
                                         min_samples_leaf=self.min_samples_leaf,
                                         random_state=_concrete_seed(self.random_state))
        given = [name for name, default in self._GROWER_SHORTCUTS.items()
                 if getattr(self, name) != default]
        if given:
            raise ValueError(f"PrunedTreeRegressor got a grower and {', '.join(given)}: set "
                             "them on the grower (one source for each of its parameters).")
        grower = clone(self.grower)
        seed = grower.random_state if grower.random_state is not None else self.random_state
        return grower.set_params(random_state=_concrete_seed(seed))

    def predict(self, X) -> np.ndarray:
        """The mean training target of the pruning leaf each row of ``X`` reaches."""
        leaf = self._leaves(self._samples(X))
        return self.tree_.value[leaf]

    def to_sklearn(self):
        """The pruned tree as a fitted ``sklearn.tree.DecisionTreeRegressor`` that predicts
        as this regressor does (:func:`prunekit.export.to_sklearn`): for scikit-learn's
        ``plot_tree`` and exports, SHAP, ONNX converters, dtreeviz.
        """
        from prunekit.export import to_sklearn

        return to_sklearn(self)
