"""A scikit-learn classifier that grows a tree and prunes it with any prunekit pruner.

``PrunedTreeClassifier()`` grows a scikit-learn ``DecisionTreeClassifier`` and prunes it the
way the book recommends: cost-complexity pruning with alpha chosen by 10-fold
cross-validation, the tree of smallest cross-validated error (the 0-SE rule,
:class:`~prunekit.CrossValidatedCostComplexityPruner`).
``PrunedTreeClassifier(pruner=CostComplexityPruner(alpha=0.01))`` prunes at a fixed alpha
instead; every pruner of the book has such a class, in the module of its method, beside its
function (:class:`~prunekit.Pruner` and :class:`~prunekit.HoldoutPruner`, their base
classes, are in :mod:`prunekit.pruner`). Pruners are small estimator-like objects with their
own parameters, so model selection reaches them with scikit-learn's nested-parameter syntax,
e.g. ``GridSearchCV(PrunedTreeClassifier(pruner=CostComplexityPruner()),
{"pruner__alpha": [0.001, 0.01]})`` or
``GridSearchCV(PrunedTreeClassifier(), {"pruner__rule": ["0-SE", "1-SE"]})``.

A pruner that needs an independent pruning sample (a :class:`~prunekit.HoldoutPruner`) makes
the classifier split its training data, stratified and seeded, into a growing part and a
pruning part of ``prune_size``; it grows the tree on the first and hands the pruner the
second, ``X_prune, y_prune``.
"""

from __future__ import annotations

import numbers

import numpy as np
from scipy import sparse
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from prunekit._deprecation import moved_names
from prunekit._parameters import checked_where_used, describe, validate_parameters
from prunekit.cost_complexity_pruning import CrossValidatedCostComplexityPruner as _DefaultPruner
from prunekit.cost_complexity_pruning import _check_grower, leaf_risks
from prunekit.impurity import class_proportions
from prunekit.pruner import Pruner as _Pruner
from prunekit.pruner import _check_takes_weights, pruning_sample_counts
from prunekit.tree import Pruning, Tree, _estimator_weights, _grow
from prunekit.validation import check_random_state

__all__ = ["PrunedTreeClassifier"]

# The pruners, and what they shared, left for the modules of their methods; they stay here,
# deprecated, until version 0.4.
__getattr__ = moved_names("prunekit.estimator", {
    "Pruner": "prunekit.pruner", "HoldoutPruner": "prunekit.pruner",
    "CostComplexityPruner": "prunekit.cost_complexity_pruning",
    "CrossValidatedCostComplexityPruner": "prunekit.cost_complexity_pruning",
    "RULES": "prunekit.cost_complexity_pruning",
    "KearnsMansourPruner": "prunekit.kearns_mansour_pruning",
    "NobelPruner": "prunekit.nobel_pruning",
    "KReducedErrorPruner": "prunekit.k_reduced_error_pruning",
    "RademacherBoundPruner": "prunekit.rademacher",
    "PessimisticPruner": "prunekit.pessimistic_pruning",
    "MinimumErrorPruner": "prunekit.minimum_error_pruning",
    "ErrorBasedPruner": "prunekit.error_based_pruning",
    "CriticalValuePruner": "prunekit.critical_value_pruning",
    "ReducedErrorPruner": "prunekit.reduced_error_pruning",
})

# Largest number of matrix cells densified at once when a sparse sample is routed.
_BLOCK_CELLS = 2**22


def _check_pruner(pruner, name: str):
    """A prunekit Pruner object, or None for the default."""
    if pruner is None:
        return None
    if isinstance(pruner, type) and issubclass(pruner, _Pruner):
        raise TypeError(f"{name} must be a Pruner object, got the class {pruner.__name__}; "
                        f"pass {pruner.__name__}() instead.")
    if not isinstance(pruner, _Pruner):
        raise TypeError(f"{name} must be a prunekit Pruner (e.g. CostComplexityPruner()), "
                        f"got {type(pruner).__name__}.")
    return pruner


# ---------------------------------------------------------------------- shared by both
class _PrunedTree(BaseEstimator):
    """What :class:`PrunedTreeClassifier` and :class:`~prunekit.PrunedTreeRegressor` share:
    the default pruner's parameters, the checks of the samples to predict, and the routing
    of a fitted pruning (``tree_``, ``pruning_``)."""

    @staticmethod
    def _default_pruner() -> _Pruner:
        """The pruner used when ``pruner`` is None."""
        return _DefaultPruner()

    def set_params(self, **params):
        """Set parameters; nested ``pruner__`` parameters given while ``pruner`` is None (the
        default) are set on a new default pruner (:meth:`_default_pruner`), which becomes this
        estimator's pruner."""
        if (params.get("pruner", self.pruner) is None
                and any(key.startswith("pruner__") for key in params)):
            params = {"pruner": self._default_pruner(), **params}
        return super().set_params(**params)

    def _fresh_pruner(self) -> _Pruner:
        pruner = self._default_pruner() if self.pruner is None else self.pruner
        pruner._check_parameters()
        return clone(pruner)

    def _named(self, tree: Tree) -> Tree:
        """``tree`` with the column names of the training DataFrame, when it had some."""
        names = getattr(self, "feature_names_in_", None)       # set by validate_data
        return tree if names is None else tree.with_feature_names([str(n) for n in names])

    # ------------------------------------------------------------------ predicting
    def _check_finite(self, X) -> None:
        """Refuse infinity, saying where and what to do (NaN is a missing value)."""
        values = X.data if sparse.issparse(X) else X
        if not np.isinf(values).any():
            return
        if sparse.issparse(X):
            X = X.tocsc()
            column = int(np.searchsorted(X.indptr, np.flatnonzero(np.isinf(X.data))[0],
                                         side="right") - 1)
        else:
            column = int(np.flatnonzero(np.isinf(X).any(axis=0))[0])
        names = getattr(self, "feature_names_in_", None)
        where = f"column {column}" + ("" if names is None else f" ({names[column]!r})")
        raise ValueError(f"X contains infinity in {where}; every value must be finite or NaN, "
                         "a missing value (clip or transform that column first).")

    def _samples(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, accept_sparse=("csr", "csc"),
                          ensure_all_finite=False)
        self._check_finite(X)
        return X

    def _leaves(self, X) -> np.ndarray:
        """The pruning leaf (a node of ``tree_``) each row of a validated ``X`` reaches."""
        if not sparse.issparse(X):
            return self.pruning_.apply(X)
        X = X.tocsr()
        rows = max(1, _BLOCK_CELLS // max(X.shape[1], 1))
        return np.concatenate([self.pruning_.apply(X[start:start + rows].astype(np.float32)
                                                   .toarray())
                               for start in range(0, X.shape[0], rows)])

    def apply(self, X) -> np.ndarray:
        """Index, in ``tree_``, of the pruning leaf each row of ``X`` reaches."""
        return self._leaves(self._samples(X))

    def decision_path(self, X):
        """The kept nodes of ``tree_`` each row of ``X`` passes through, root to leaf.

        Returns
        -------
        scipy.sparse.csr_matrix of shape (n_samples, tree_.n_nodes)
            Entry (i, v) is 1 when row i passes through node v and v is kept by the pruning;
            the nodes the pruning removed have no entries, as in scikit-learn's
            ``decision_path`` of the pruned tree.
        """
        return _decision_paths(self.tree_, self.apply(X))

    def get_depth(self) -> int:
        """Depth of the pruned tree (0 for a single leaf)."""
        check_is_fitted(self)
        return self.pruning_.depth

    def get_n_leaves(self) -> int:
        """Number of leaves of the pruned tree."""
        check_is_fitted(self)
        return self.pruning_.n_leaves

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.sparse = True
        return tags


# ---------------------------------------------------------------------- the classifier
class PrunedTreeClassifier(ClassifierMixin, _PrunedTree):
    """Grow a decision tree with scikit-learn, then prune it with a prunekit pruner.

    Parameters
    ----------
    pruner : Pruner or None, default None
        The pruning method. None, as scikit-learn's estimators do with their default
        objects, means a new ``CrossValidatedCostComplexityPruner()`` made at each ``fit``
        (so no classifier's default can be changed through another): cost-complexity
        pruning with alpha chosen by 10-fold cross-validation and the 0-SE rule (the book's
        recommendation, Chapter 9; ``set_params(pruner__rule="1-SE")`` for smaller trees).
        ``set_params(pruner__cv=...)`` (``pruner__rule``, ``pruner__risk``, so also
        ``GridSearchCV``) on a classifier with the default first gives it its own such
        pruner. To tune alpha yourself, pass ``CostComplexityPruner()`` and search
        ``pruner__alpha``. A pruner that uses a pruning sample makes the classifier hold one
        out (:meth:`~prunekit.HoldoutPruner.split`).
    grower : unfitted DecisionTreeClassifier or ExtraTreeClassifier, or None, default None
        How the tree is grown, with any of scikit-learn's parameters (``max_leaf_nodes``,
        ``min_samples_split``, ``max_features``, ``splitter``, ``min_impurity_decrease``,
        ``monotonic_cst``, even ``ccp_alpha``); it also grows the trees of the default
        pruner's folds. It is cloned at ``fit``; its ``random_state``, when None, is the
        classifier's; its ``class_weight``, when the classifier has none, weighs the
        examples as the classifier's would. None: ``DecisionTreeClassifier(criterion=criterion,
        max_depth=max_depth, min_samples_leaf=min_samples_leaf)``.
    criterion : {"gini", "entropy", "log_loss"}, default "gini"
        Split criterion of the grower; with ``grower``, leave it (and ``max_depth``,
        ``min_samples_leaf``) at its default and set it on the grower: the classifier
        refuses two sources of one parameter.
    max_depth : int or None, default None
    min_samples_leaf : int, default 1
    class_weight : dict, "balanced" or None, default None
        Weights of the classes, as scikit-learn's classifiers take them ("balanced": inversely
        proportional to the class frequencies of ``y`` in ``fit``); the classifier's, since
        it weighs the pruning as well as the growing (a grower's ``class_weight`` is used
        when this is None; both at once are refused). Every example of class
        k weighs ``class_weight[k]`` (times its ``sample_weight``) in growing and in
        pruning: the tree's counts are sums of weights, a leaf predicts the class of
        largest weight, and the pruner compares weighted errors. Only the pruners defined
        for weighted counts take weights (cost complexity, its cross-validated and hold-out
        choices, reduced error, PEP, MEP, CVP, C4.5's error-based pruning); those whose
        bounds count examples refuse them.
    random_state : int, RandomState or None, default None
        Seeds the grower's tie-breaking between equally good splits (unless the grower has
        a ``random_state`` of its own), and the split into growing and pruning samples, the
        folds and the Rademacher signs when the pruner has no ``random_state`` of its own.

    Attributes
    ----------
    tree_ : Tree
        The tree the pruning refers to: the grown tree with the class counts of its growing
        sample (all the training data, or what a hold-out pruner leaves for growing), or for
        subtree raising the raised tree.
    pruning_ : Pruning
        The pruning of ``tree_`` the classifier predicts with.
    pruner_ : Pruner
        The copy of ``pruner`` that pruned, with what it chose (e.g. ``alpha_``).
    classes_ : ndarray
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        The column names of ``X`` when it was a DataFrame with string column names (only
        then); ``tree_.feature_names`` holds them too.
    feature_importances_ : ndarray of shape (n_features,)
        Impurity-based importances of the pruned tree (see the property).

    Notes
    -----
    Sparse ``X`` (CSR or CSC) is accepted. For fitting it is densified in float32 (the
    precision the tree compares thresholds in), since the pruners count examples per node
    with prunekit's dense routing: m x d x 4 bytes. Predictions route it in blocks of rows.

    Missing values (NaN) are handled as scikit-learn's trees handle them: the grower learns,
    at each split, which child they go to (:attr:`Tree.missing_go_to_left
    <prunekit.Tree.missing_go_to_left>`), and the pruning sample, the folds and every
    prediction follow it; a split that saw none sends them to the child more growing
    examples reached.

    ``fit(X, y, sample_weight=w)`` weighs the examples as ``class_weight`` does; the hold-out
    pruners get the weights of their pruning sample, and the default pruner's folds those of
    each fold (its standard error takes Kish's effective number of examples).

    Examples
    --------
    >>> import prunekit as pk
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> clf = pk.PrunedTreeClassifier(random_state=0).fit(X, y)
    >>> clf.get_n_leaves(), clf.predict(X[[0, 50, 100]]).tolist()
    (7, [0, 1, 2])

    A fixed alpha tuned by a grid search, through the pruner's parameters:

    >>> from sklearn.model_selection import GridSearchCV
    >>> clf = pk.PrunedTreeClassifier(pruner=pk.CostComplexityPruner(),
    ...                               random_state=0)
    >>> search = GridSearchCV(clf, {"pruner__alpha": [0.01, 0.05]}, cv=3)
    >>> search.fit(X, y).best_params_
    {'pruner__alpha': 0.01}
    """

    # The grower's parameters are checked by the grower, scikit-learn's DecisionTreeClassifier,
    # and random_state by scikit-learn's check_random_state.
    _parameter_checks = {"pruner": _check_pruner, "grower": _check_grower,
                         "criterion": checked_where_used, "max_depth": checked_where_used,
                         "min_samples_leaf": checked_where_used, "class_weight": checked_where_used,
                         "random_state": checked_where_used}
    # The parameters a grower holds itself, with the classifier's defaults.
    _GROWER_SHORTCUTS = {"criterion": "gini", "max_depth": None, "min_samples_leaf": 1}

    def __init__(self, *, pruner=None, grower=None, criterion="gini", max_depth=None,
                 min_samples_leaf=1, class_weight=None, random_state=None):
        self.pruner = pruner
        self.grower = grower
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.class_weight = class_weight
        self.random_state = random_state

    # ------------------------------------------------------------------ fitting
    def fit(self, X, y, sample_weight=None):
        """Grow the tree on ``(X, y)`` (or its growing part) and prune it.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (m, d)
            Numbers, NaN for a missing value; a pandas DataFrame keeps its column names.
        y : array-like of shape (m,)
            Class labels.
        sample_weight : array-like of shape (m,), optional
            Non-negative example weights, multiplied by ``class_weight``'s (see there).

        Returns
        -------
        self
        """
        # the pruner, whatever it is, is described by its type, never by its repr
        validate_parameters(type(self).__name__, self._parameter_checks,
                            self.get_params(deep=False), arrays=("pruner", "grower"))
        X, y = self._training_data(X, y)
        pruner = self._fresh_pruner()
        classes = np.unique(y)
        grower = self._fresh_grower()
        weights = _estimator_weights(grower, y, sample_weight)   # class weights of all of y
        if weights is not None:
            _check_takes_weights(pruner)
            grower.set_params(class_weight=None)
        holdout = pruner.uses_pruning_sample()
        if holdout:
            grow, prune, _, _ = pruner.split(np.arange(len(y)), y, grower.random_state)
        else:
            grow = prune = np.arange(len(y))
        part = _WeightedParts(X, y, weights)
        grown = self._named(_grow(grower, *part.of(grow), classes, **part.weights(grow)))
        tree = self._restructured(pruner, grown, *part.of(grow), **part.weights(grow))
        pruning = _checked_pruning(pruner, tree, *part.of(prune), grower,
                                   **part.weights(prune))
        self.pruner_, self.tree_, self.pruning_ = pruner, tree, pruning
        self.classes_ = np.array(tree.classes_)
        self._proba = _leaf_probabilities(pruning, pruning_sample_counts(
            tree, *part.of(prune), **part.weights(prune)) if holdout else None)
        return self

    def _training_data(self, X, y):
        X, y = validate_data(self, X, y, accept_sparse=("csr", "csc"),
                             ensure_all_finite=False)
        self._check_finite(X)
        check_classification_targets(y)
        if sparse.issparse(X):
            X = X.astype(np.float32).toarray()
        return X, y

    def _fresh_grower(self):
        """The grower of this fit: a clone of ``grower`` with an integer ``random_state``
        (the classifier's when it has none), or the one the shortcut parameters make."""
        if self.grower is None:
            return DecisionTreeClassifier(criterion=self.criterion, max_depth=self.max_depth,
                                          min_samples_leaf=self.min_samples_leaf,
                                          class_weight=self.class_weight,
                                          random_state=_concrete_seed(self.random_state))
        if self.class_weight is not None and self.grower.class_weight is not None:
            raise ValueError(f"PrunedTreeClassifier got class_weight={self.class_weight!r} "
                             f"and a grower with class_weight={self.grower.class_weight!r}: "
                             "give it once, to the classifier.")
        given = {name: getattr(self, name) for name, default in self._GROWER_SHORTCUTS.items()
                 if getattr(self, name) != default}
        if given:
            settings = ", ".join(f"{name}={value!r}" for name, value in given.items())
            raise ValueError(f"PrunedTreeClassifier got a grower and {settings}: set "
                             f"{', '.join(given)} on the grower (one source for each of its "
                             "parameters), and leave the classifier's at their defaults.")
        grower = clone(self.grower)
        if self.class_weight is not None:
            grower.set_params(class_weight=self.class_weight)
        seed = grower.random_state if grower.random_state is not None else self.random_state
        return grower.set_params(random_state=_concrete_seed(seed))

    def _restructured(self, pruner: _Pruner, grown: Tree, X, y, **weights) -> Tree:
        tree = pruner.restructure(grown, X, y, **weights)
        name = type(pruner).__name__
        if not isinstance(tree, Tree):
            raise TypeError(f"{name}.restructure must return a prunekit Tree, got "
                            f"{type(tree).__name__}.")
        if tree is not grown and not np.array_equal(tree.classes_, grown.classes_):
            raise ValueError(f"{name}.restructure returned a tree with classes "
                             f"{describe(tree.classes_.tolist())}, not the training classes "
                             f"{describe(grown.classes_.tolist())}.")
        if (tree is not grown and tree.feature_names is None
                and grown.feature_names is not None and tree.n_features == grown.n_features):
            tree = tree.with_feature_names(grown.feature_names)
        return tree

    # ------------------------------------------------------------------ predicting
    def predict(self, X):
        """Class labels predicted by the pruned tree."""
        leaf = self._leaves(self._samples(X))
        return self.classes_[self.pruning_.labels[leaf]]

    def predict_proba(self, X):
        """Class probabilities: the class frequencies at the pruning leaf each row reaches.

        The frequencies are those of the growing sample. Where a pruner relabels a leaf with
        the majority of the pruning sample (Nobel's independent case, reduced-error pruning
        with ``labels="pruning"``), that leaf's frequencies are the pruning sample's, so
        that the most probable class is always the predicted one; a leaf whose label is
        the majority of neither sample (ties, empty leaves) gets probability 1 for it.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Columns in the order of ``classes_``; rows sum to 1.
        """
        leaf = self._leaves(self._samples(X))
        return self._proba[leaf]

    def predict_log_proba(self, X):
        """The logarithm of :meth:`predict_proba` (``-inf`` for probability 0)."""
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def to_sklearn(self):
        """The pruned tree as a fitted ``sklearn.tree.DecisionTreeClassifier`` that predicts
        as this classifier does (:func:`prunekit.export.to_sklearn`): for scikit-learn's
        ``plot_tree`` and exports, SHAP, ONNX converters, dtreeviz.
        """
        from prunekit.export import to_sklearn

        return to_sklearn(self)

    @property
    def feature_importances_(self) -> np.ndarray:
        """Impurity-based importances of the pruned tree, as scikit-learn defines them.

        For each feature, the total decrease of weighted impurity p(t) i(t) - p(L) i(L) -
        p(R) i(R) over the kept internal nodes t that split on it (L and R their children,
        p the share of the growing sample reaching a node), normalised to sum 1 (all zero
        for a single leaf). The impurity i is the grower's criterion (Gini by default, or
        entropy in bits) on the growing sample. On an unpruned tree it equals
        ``DecisionTreeClassifier.feature_importances_``.
        """
        check_is_fitted(self)
        return _impurity_importances(self.tree_, self.pruning_)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.poor_score = bool(getattr(self.pruner, "_poor_score", False))
        return tags


# ---------------------------------------------------------------------- classifier helpers
class _WeightedParts:
    """Rows of the training sample and of its weights (None: unweighted), by index."""

    def __init__(self, X, y, weights):
        self.X, self.y, self.w = X, y, weights

    def of(self, rows):
        """``(X, y)`` of ``rows``."""
        return self.X[rows], self.y[rows]

    def weights(self, rows) -> dict:
        """``{"sample_weight": w[rows]}``, or ``{}`` when unweighted: a pruner of one's own
        without a ``sample_weight`` parameter is called as before."""
        return {} if self.w is None else {"sample_weight": self.w[rows]}


def _concrete_seed(random_state):
    """An integer seed: ``random_state`` itself when it is one, else one drawn from it, so
    that the grower, the split and the folds of one fit agree."""
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        return random_state
    random_state = check_random_state(random_state, legacy=True)
    return int(random_state.randint(np.iinfo(np.int32).max))


def _checked_pruning(pruner: _Pruner, tree: Tree, X, y, grower, **weights) -> Pruning:
    pruning = pruner._prune_grown(tree, X, y, grower, **weights)
    name = type(pruner).__name__
    if not isinstance(pruning, Pruning):
        raise TypeError(f"{name}.prune must return a prunekit Pruning, got "
                        f"{type(pruning).__name__}.")
    if pruning.tree is not tree:
        raise ValueError(f"{name}.prune returned a Pruning of another tree; it must prune "
                         "the tree it is given.")
    return pruning


def _leaf_probabilities(pruning: Pruning, prune_counts=None) -> np.ndarray:
    """Class probabilities of every node as a leaf of ``pruning`` (see ``predict_proba``)."""
    labels = pruning.labels
    proba = class_proportions(pruning.tree.counts)
    agrees = (proba.sum(axis=1) > 0) & (np.argmax(proba, axis=1) == labels)
    if prune_counts is not None:
        other = class_proportions(prune_counts)
        use = ~agrees & (other.sum(axis=1) > 0) & (np.argmax(other, axis=1) == labels)
        proba[use] = other[use]
        agrees |= use
    proba[~agrees] = np.eye(proba.shape[1])[labels[~agrees]]
    return proba


def _decision_paths(tree: Tree, leaf: np.ndarray) -> sparse.csr_matrix:
    """CSR indicator of the nodes from the root to each ``leaf`` (scikit-learn's layout)."""
    ends, row_of = np.unique(leaf, return_inverse=True)
    depth = tree.depth[ends]
    paths = np.full((len(ends), int(depth.max()) + 1 if len(ends) else 1), -1)
    node, level, rows = ends.copy(), depth.copy(), np.arange(len(ends))
    parent = tree.parent
    while True:
        paths[rows, level] = node
        up = level > 0
        if not up.any():
            break
        node, level = np.where(up, parent[node], node), level - up
    per_row = paths[row_of]
    indices = per_row[per_row >= 0]
    indptr = np.concatenate([[0], np.cumsum(tree.depth[leaf] + 1)])
    return sparse.csr_matrix((np.ones(len(indices), dtype=np.int64), indices, indptr),
                             shape=(len(leaf), tree.n_nodes))


def _impurity_importances(tree: Tree, pruning: Pruning) -> np.ndarray:
    """Normalised weighted-impurity decrease per feature over the kept internal nodes."""
    risk = leaf_risks(tree, "impurity")                  # p(t) i(t)
    nodes = np.flatnonzero(pruning.kept & ~pruning.is_leaf)
    decrease = risk[nodes] - risk[tree.left[nodes]] - risk[tree.right[nodes]]
    importances = np.bincount(tree.feature[nodes], weights=decrease,
                              minlength=tree.n_features).astype(np.float64)
    total = importances.sum()
    return importances / total if total > 0 else importances
