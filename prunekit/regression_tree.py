"""Regression trees: a :class:`~prunekit.tree.BinaryTree` whose leaves predict a mean.

A :class:`RegressionTree` holds, at every node t, the three numbers its squared-error risk
needs: the growing weight w(t) (the number of examples, or the sum of their weights), their
mean ybar(t), which a leaf predicts, and their sum of squared deviations from it, R(t),
the sum of w_i (y_i - ybar(t))^2 over the examples reaching t:
CART's resubstitution risk of a leaf under squared error (Breiman et al. 1984, Sec. 8.3;
scikit-learn's ``impurity`` times ``weighted_n_node_samples``). Every pruner that is
defined for an additive leaf risk -- cost complexity and its path, alpha chosen by
cross-validation or on a hold-out sample -- prunes it with the code it uses for
classification trees; only the risk changes.

The statistics are combined from the leaves upward with the pairwise update of Chan, Golub
& LeVeque (1983), never as sum(y^2) - (sum y)^2 / n, so that a pure node's risk is 0 and
small risks keep their digits.
"""

from __future__ import annotations

import copy

import numpy as np
from sklearn.base import is_regressor
from sklearn.utils.validation import check_is_fitted

from prunekit.tree import (
    BinaryTree,
    Pruning,
    _ArrayAttribute,
    _as_children,
    _frozen,
    _sklearn_feature_names,
)
from prunekit.validation import as_array, check_bool, check_sample_weight, check_samples

__all__ = ["RegressionTree", "combine_moments", "check_targets", "MOMENTS"]

#: The columns of :attr:`RegressionTree.moments`.
MOMENTS = ("weight", "mean", "squared_error")


def combine_moments(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """The moments of the union of two disjoint samples from the moments of each.

    Chan, Golub & LeVeque (1983), Eq. 2.1: with weights w1, w2, means m1, m2 and sums of
    squared deviations S1, S2, the union has weight w = w1 + w2, mean (w1 m1 + w2 m2) / w
    and S = S1 + S2 + (w1 w2 / w) (m1 - m2)^2.

    Parameters
    ----------
    left, right : ndarray of shape (..., 3)
        Columns weight, mean, sum of squared deviations (:data:`MOMENTS`).

    Returns
    -------
    ndarray of shape (..., 3)
        An empty union (weight 0) has mean 0 and no squared error.

    Examples
    --------
    >>> a = np.array([2.0, 1.0, 0.0])         # y = 1, 1
    >>> b = np.array([1.0, 4.0, 0.0])         # y = 4
    >>> combine_moments(a, b).tolist()        # mean 2, (1+1+4) = 6
    [3.0, 2.0, 6.0]
    """
    w1, m1, s1 = left[..., 0], left[..., 1], left[..., 2]
    w2, m2, s2 = right[..., 0], right[..., 1], right[..., 2]
    w = w1 + w2
    safe = np.where(w > 0, w, 1.0)
    mean = np.where(w > 0, (w1 * m1 + w2 * m2) / safe, 0.0)
    squared = s1 + s2 + np.where(w > 0, w1 * w2 / safe, 0.0) * (m1 - m2) ** 2
    return np.stack([w, mean, squared], axis=-1)


class RegressionTree(BinaryTree):
    """An immutable binary regression tree with its growing sample's moments at every node.

    Build one with :meth:`from_sklearn` (a fitted ``DecisionTreeRegressor``) or
    :meth:`from_arrays` (a hand-built example). It routes samples, is pruned and drawn like
    a :class:`~prunekit.Tree`; a leaf predicts the mean of its growing examples. Its
    structure (``left``, ``right``, ``feature``, ``threshold``, ``parent``, ``depth``,
    ``missing_go_to_left``, ...) is described in :class:`~prunekit.tree.BinaryTree`, its base
    class.

    Attributes
    ----------
    moments : ndarray of shape (n_nodes, 3)
        At every node, the growing sample's weight (number of examples, or sum of weights
        for a :attr:`weighted` tree), mean target and sum of squared deviations from that
        mean (:data:`MOMENTS`); an internal node's are its children's combined
        (:func:`combine_moments`).
    value : ndarray of shape (n_nodes,)
        The prediction of every node as a leaf: its growing mean.

    Examples
    --------
    A stump: x <= 0.5 holds targets 1, 1, 2 (mean 4/3), the rest 5 and 7 (mean 6):

    >>> import prunekit as pk
    >>> X = [[0.0], [0.0], [0.0], [1.0], [1.0]]
    >>> t = pk.RegressionTree.from_arrays(
    ...     [1, -1, -1], [2, -1, -1], feature=[0, -1, -1],
    ...     threshold=[0.5, 0, 0], X=X, y=[1, 1, 2, 5, 7])
    >>> t
    RegressionTree(n_nodes=3, n_leaves=2, max_depth=1, n_samples=5)
    >>> t.value.round(3).tolist()
    [3.2, 1.333, 6.0]
    >>> t.leaf_errors().round(3).tolist()    # sums of squares R(t)
    [28.8, 0.667, 2.0]
    """

    __slots__ = ("_moments",)
    moments = _ArrayAttribute()

    def __init__(self, left, right, moments, *, feature=None, threshold=None,
                 n_features=None, criterion=None, impurity=None, dtype=np.float64,
                 compiled=None, feature_names=None, missing_go_to_left=None,
                 weighted=False):
        left, right = _as_children(left, right)
        weighted = check_bool(weighted, "weighted")
        moments = _as_moments(moments, len(left))
        self._set_structure(left, right, moments[:, 0], feature=feature, threshold=threshold,
                            n_features=n_features, criterion=criterion, impurity=impurity,
                            dtype=dtype, compiled=compiled, feature_names=feature_names,
                            missing_go_to_left=missing_go_to_left, weighted=weighted)
        _check_moment_consistency(moments, left, right, self._is_leaf)
        object.__setattr__(self, "_moments", _frozen(moments))

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_arrays(cls, left, right, *, feature, threshold, X, y, sample_weight=None,
                    n_features=None, feature_names=None,
                    missing_go_to_left=None) -> "RegressionTree":
        """Build a tree from its structure and split rules, with the moments of ``(X, y)``.

        Parameters
        ----------
        left, right : array-like of int, shape (n_nodes,)
            Child indices, ``-1`` at leaves; node 0 is the root.
        feature, threshold : array-like of shape (n_nodes,)
            Split rules: go left when ``x[feature] <= threshold``.
        X : array-like of shape (m, n_features)
            The growing sample.
        y : array-like of shape (m,)
            Its real-valued targets.
        sample_weight : array-like of shape (m,), optional
            Weights of the growing examples (a :attr:`weighted` tree).
        n_features, feature_names, missing_go_to_left
            As for :meth:`prunekit.Tree.from_arrays`; missing values go by default to the
            child with more growing examples.
        """
        left, right = _as_children(left, right)
        shell = cls(left, right, np.zeros((len(left), 3)), feature=feature,
                    threshold=threshold, n_features=n_features,
                    missing_go_to_left=missing_go_to_left)
        moments = shell.node_moments(X, y, sample_weight=sample_weight)
        return cls(left, right, moments, feature=feature, threshold=threshold,
                   n_features=shell.n_features, feature_names=feature_names,
                   missing_go_to_left=missing_go_to_left, weighted=sample_weight is not None)

    @classmethod
    def from_sklearn(cls, estimator, X, y, *, sample_weight=None) -> "RegressionTree":
        """Convert a fitted scikit-learn regression tree; moments are taken from ``(X, y)``.

        Parameters
        ----------
        estimator : sklearn.tree.DecisionTreeRegressor or ExtraTreeRegressor
            A fitted single-output regression tree (any criterion: the tree is pruned under
            squared error).
        X : array-like of shape (m, d)
            The growing sample (normally the data the estimator was fitted on); a pandas
            DataFrame works too, NaN for a missing value.
        y : array-like of shape (m,)
            Its targets.
        sample_weight : array-like of shape (m,), optional
            The weights the estimator was fitted with (a :attr:`weighted` tree).

        Raises
        ------
        ValueError
            When the estimator's leaf values differ from the means of ``(X, y)``: it was
            fitted on another sample (checked for the squared-error criteria, whose leaves
            predict means).

        Examples
        --------
        >>> import prunekit as pk
        >>> from sklearn.datasets import load_diabetes
        >>> from sklearn.tree import DecisionTreeRegressor
        >>> X, y = load_diabetes(return_X_y=True)
        >>> reg = DecisionTreeRegressor(max_depth=2, random_state=0).fit(X, y)
        >>> pk.RegressionTree.from_sklearn(reg, X, y)
        RegressionTree(n_nodes=7, n_leaves=4, max_depth=2, n_samples=442)
        """
        _check_regressor(estimator)
        sk = estimator.tree_
        is_leaf = sk.children_left == -1
        missing_go_to_left = np.asarray(sk.missing_go_to_left, dtype=bool)
        shell = cls(sk.children_left, sk.children_right, np.zeros((sk.node_count, 3)),
                    feature=np.where(is_leaf, -1, sk.feature),
                    threshold=np.where(is_leaf, np.nan, sk.threshold),
                    n_features=estimator.n_features_in_, dtype=np.float32,
                    missing_go_to_left=missing_go_to_left)
        moments = shell.node_moments(X, y, sample_weight=sample_weight)
        if estimator.criterion in ("squared_error", "friedman_mse"):
            fitted = sk.value[:, 0, 0]
            reached = moments[:, 0] > 0
            scale = max(1.0, float(np.max(np.abs(fitted))))
            if not np.allclose(moments[reached, 1], fitted[reached], rtol=1e-7,
                               atol=1e-9 * scale):
                raise ValueError("the estimator's leaf values are not the means of (X, y): "
                                 "it was fitted on another sample or with other weights.")
        return cls(shell.left, shell.right, moments, feature=shell.feature,
                   threshold=shell.threshold, n_features=shell.n_features,
                   criterion=estimator.criterion, impurity=sk.impurity, dtype=np.float32,
                   compiled=copy.deepcopy(sk),
                   feature_names=_sklearn_feature_names(estimator, X),
                   missing_go_to_left=missing_go_to_left,
                   weighted=sample_weight is not None)

    def __setstate__(self, state):
        object.__setattr__(self, "feature_names", None)
        super().__setstate__(state)

    # ------------------------------------------------------------------ sizes
    @property
    def n_samples(self) -> int | float:
        """Size of the growing sample (the root's weight); its total weight for a
        :attr:`weighted` tree."""
        total = self._moments[0, 0]
        return float(total) if self.weighted else int(round(total))

    @property
    def value(self) -> np.ndarray:
        """The prediction of every node as a leaf: the mean of its growing targets."""
        return self._moments[:, 1].copy()

    def _reached(self) -> np.ndarray:
        return self._moments[:, 0]

    # ------------------------------------------------------------------ checking arguments
    def check_sample(self, X, y, *, names=("X", "y")) -> tuple[np.ndarray, np.ndarray]:
        """Check a sample with real targets to route through this tree; return arrays.

        Parameters
        ----------
        X : array-like of shape (m, n_features)
            Numbers, NaN for a missing value; converted to the tree's :attr:`dtype`.
        y : array-like of shape (m,)
            Finite real targets.
        names : (str, str), default ("X", "y")
            The two arguments' names in the caller, used in error messages.
        """
        self.require_split_rules()
        X = check_samples(X, self.n_features, name=names[0], dtype=self._dtype,
                          allow_nan=True)
        y = check_targets(y, X.shape[0], name=names[1])
        return X, y

    def check_sample_moments(self, moments, name: str = "moments") -> np.ndarray:
        """Check per-node moments of a sample routed through this tree; return them.

        Parameters
        ----------
        moments : array-like of shape (n_nodes, 3)
            E.g. from :meth:`node_moments`.
        name : str, default "moments"
            The argument's name, used in error messages.
        """
        if moments is self._moments:
            return moments
        moments = _as_moments(moments, self.n_nodes, name)
        _check_moment_consistency(moments, self._left, self._right, self._is_leaf, name)
        return moments

    def _checked_statistics(self, statistics) -> np.ndarray:
        return self.check_sample_moments(statistics)

    def _compared_arrays(self):
        return (self._left, self._moments, self._right, self._feature, self._threshold,
                self._missing_go_to_left)

    def __repr__(self) -> str:
        return (f"RegressionTree(n_nodes={self.n_nodes}, n_leaves={self.n_leaves}, "
                f"max_depth={self.max_depth}, n_samples={self.n_samples:.6g})")

    # ------------------------------------------------------------------ statistics
    def node_moments(self, X, y, *, sample_weight=None, names=("X", "y")) -> np.ndarray:
        """The moments of the sample ``(X, y)`` at every node (:attr:`moments`' columns).

        Each leaf's mean and sum of squared deviations are computed from its own examples
        (two passes), then combined upward level by level (:func:`combine_moments`):
        O(m + n_nodes).

        Parameters
        ----------
        X : array-like of shape (m, n_features)
        y : array-like of shape (m,)
        sample_weight : array-like of shape (m,), optional
        names : (str, str), default ("X", "y")
            The two arguments' names in the caller, used in error messages.

        Returns
        -------
        ndarray of float64, shape (n_nodes, 3)

        Examples
        --------
        >>> import prunekit as pk
        >>> t = pk.RegressionTree.from_arrays(
        ...     [1, -1, -1], [2, -1, -1], feature=[0, -1, -1],
        ...     threshold=[0.5, 0, 0], X=[[0.0], [1.0]], y=[1.0, 3.0])
        >>> t.node_moments([[0.0], [0.0], [1.0]], [2.0, 4.0, 3.0]).tolist()
        [[3.0, 3.0, 2.0], [2.0, 3.0, 2.0], [1.0, 3.0, 0.0]]
        """
        X, y = self.check_sample(X, y, names=names)
        weights = check_sample_weight(sample_weight, len(y))
        weights = np.ones(len(y)) if weights is None else weights
        leaf = self._route(X, self._is_leaf)
        n = self.n_nodes
        moments = np.zeros((n, 3))
        moments[:, 0] = np.bincount(leaf, weights, minlength=n)
        reached = moments[:, 0] > 0
        sums = np.bincount(leaf, weights * y, minlength=n)
        moments[reached, 1] = sums[reached] / moments[reached, 0]
        deviation = y - moments[leaf, 1]
        moments[:, 2] = np.bincount(leaf, weights * deviation**2, minlength=n)
        for inner in self._inner_levels:
            moments[inner] = combine_moments(moments[self._left[inner]],
                                             moments[self._right[inner]])
        return moments

    def leaf_errors(self, moments=None, labels=None) -> np.ndarray:
        """The squared error every node makes as a leaf predicting its growing mean.

        R(t) = sum_i w_i (y_i - ybar(t))^2 over the examples of a sample reaching t, where
        ybar(t) is the growing mean (:attr:`value`). For a sample of moments (w, m, S) at t
        it is S + w (m - ybar(t))^2.

        Parameters
        ----------
        moments : array-like of shape (n_nodes, 3), optional
            A sample's moments (:meth:`node_moments`); default the growing moments, whose
            errors are the sums of squared deviations.
        labels : None
            Accepted for the classification trees' signature; a regression leaf predicts
            its growing mean, so this must be None.

        Returns
        -------
        ndarray of float64, shape (n_nodes,)

        Examples
        --------
        >>> import prunekit as pk
        >>> t = pk.RegressionTree.from_arrays(
        ...     [1, -1, -1], [2, -1, -1], feature=[0, -1, -1],
        ...     threshold=[0.5, 0, 0], X=[[0.0], [1.0]], y=[1.0, 3.0])
        >>> t.leaf_errors(t.node_moments([[0.0]], [4.0])).tolist()
        [4.0, 9.0, 0.0]
        """
        if labels is not None:
            raise ValueError("a regression tree's leaves predict their growing means; "
                             "labels must be None.")
        if moments is None:
            return self._moments[:, 2].copy()
        moments = self.check_sample_moments(moments)
        return moments[:, 2] + moments[:, 0] * (moments[:, 1] - self._moments[:, 1]) ** 2

    # ------------------------------------------------------------------ predictions
    def predict(self, X) -> np.ndarray:
        """Predicted value of each row of ``X``: the growing mean of the leaf it reaches.

        Examples
        --------
        >>> import prunekit as pk
        >>> t = pk.RegressionTree.from_arrays(
        ...     [1, -1, -1], [2, -1, -1], feature=[0, -1, -1],
        ...     threshold=[0.5, 0, 0], X=[[0.0], [1.0]], y=[1.0, 3.0])
        >>> t.predict([[0.2], [0.9]]).tolist()
        [1.0, 3.0]
        """
        return self._moments[self.apply(X), 1]

    def error(self, X, y) -> float:
        """Mean squared error on ``(X, y)``."""
        return Pruning.full(self).error(X, y)

    def _errors_at(self, nodes, moments, labels) -> np.ndarray:
        return self.leaf_errors(moments)[nodes]

    def _predictions(self, nodes: np.ndarray, labels) -> np.ndarray:
        return self._moments[nodes, 1]

    @staticmethod
    def _sample_error(predicted: np.ndarray, y: np.ndarray) -> float:
        return float(np.mean((predicted - y) ** 2))

    def _restricted(self, nodes, left, right, feature, threshold, labels) -> "RegressionTree":
        impurity = None if self._impurity is None else self._impurity[nodes]
        return RegressionTree(
            left, right, self._moments[nodes], feature=feature, threshold=threshold,
            n_features=self.n_features, criterion=self.criterion, impurity=impurity,
            dtype=self._dtype,
            feature_names=self.feature_names if self.has_split_rules else None,
            missing_go_to_left=self._missing_go_to_left[nodes], weighted=self.weighted)


def check_targets(y, n_samples: int, *, name: str = "y") -> np.ndarray:
    """Check real-valued regression targets, one per sample; return them as float64."""
    y = as_array(y, name, ndim=1, dtype=np.float64, what="(n_samples,)")
    if len(y) != n_samples:
        raise ValueError(f"{name} must have one target per sample ({n_samples}), got "
                         f"{len(y)}.")
    return y


def _check_regressor(estimator) -> None:
    if not hasattr(estimator, "fit") or not hasattr(estimator, "get_params"):
        raise TypeError("estimator must be a scikit-learn tree regressor, got "
                        f"{type(estimator).__name__}.")
    if not is_regressor(estimator):
        raise TypeError(f"estimator must be a regressor; {type(estimator).__name__} is not "
                        "(use prunekit.Tree.from_sklearn for a classifier).")
    check_is_fitted(estimator)
    if not hasattr(estimator, "tree_"):
        raise TypeError("estimator must be a single decision tree (with a tree_ attribute), "
                        f"got {type(estimator).__name__}.")
    if getattr(estimator, "n_outputs_", 1) != 1:
        raise ValueError("estimator was fitted on several outputs; prunekit needs one.")


def _as_moments(moments, n_nodes: int, name: str = "moments") -> np.ndarray:
    moments = as_array(moments, name, ndim=2, dtype=np.float64, what="(n_nodes, 3)")
    if moments.shape != (n_nodes, 3):
        raise ValueError(f"{name} must have shape ({n_nodes}, 3) (weight, mean and squared "
                         f"error at every node), got {moments.shape}.")
    if np.any(moments[:, 0] < 0) or np.any(moments[:, 2] < -1e-9 * (1 + moments[:, 0])):
        raise ValueError(f"{name} must have non-negative weights and squared errors.")
    moments = moments.copy()
    moments[:, 2] = np.maximum(moments[:, 2], 0.0)
    return moments


def _check_moment_consistency(moments, left, right, is_leaf, name: str = "moments"):
    inner = np.flatnonzero(~is_leaf)
    combined = combine_moments(moments[left[inner]], moments[right[inner]])
    scale = 1.0 + np.abs(moments[inner])
    differs = np.any(np.abs(combined - moments[inner]) > 1e-9 * scale, axis=1)
    if differs.any():
        v = inner[np.flatnonzero(differs)[0]]
        raise ValueError(f"{name} of internal node {v} ({moments[v].tolist()}) are not its "
                         f"children's combined ({moments[left[v]].tolist()} and "
                         f"{moments[right[v]].tolist()}).")
