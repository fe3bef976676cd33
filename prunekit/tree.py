"""The data model: an immutable array-based :class:`Tree` and a :class:`Pruning` of it.

A :class:`Tree` stores a binary classification tree in the flat layout scikit-learn uses
(one array entry per node, children by index, ``-1`` at leaves) together with ``counts``, the
per-node class counts of the sample the tree was grown on. A :class:`Pruning` is a subtree
sharing the root, stored as a boolean mask over the tree's nodes -- "superimposed" on the tree,
as Kearns & Mansour (1998) put it. Per-node class counts are the only statistics most pruning
algorithms need, and :meth:`Tree.node_counts` computes them for any sample in one pass.

Conventions
-----------
* A sample goes to the left child when ``x[feature] <= threshold`` (scikit-learn's rule).
* The label of a node is the majority class of its growing counts, ties to the smallest class
  index (``numpy.argmax``); a node that no growing example reaches therefore gets class 0.
* ``n_nodes`` counts all nodes (Kearns & Mansour's s, Nobel's |T|, Shalev-Shwartz &
  Ben-David's n); ``n_leaves`` is CART's number of terminal nodes |T~|.
* Labels at pruning time that the growing sample never had: :meth:`Tree.node_counts` rejects
  them with a ``ValueError`` (counts have no column for them), while :meth:`Tree.error` and
  :meth:`Pruning.error` count such examples as misclassified, since no pruning can predict them.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterator

import numpy as np
from sklearn.base import clone, is_classifier, is_regressor
from sklearn.utils.validation import check_is_fitted

from prunekit.impurity import _renamed_criterion
from prunekit.validation import (
    as_array,
    check_bool,
    check_count,
    check_index_array,
    check_sample_and_labels,
    check_sample_weight,
    check_samples,
    encode_labels,
)

__all__ = ["BinaryTree", "Tree", "Pruning", "all_prunings", "count_prunings", "postorder", "check_tree",
           "leaf_errors"]

_INT64_MAX = int(np.iinfo(np.int64).max)


class _ReadOnlyBuffer:
    """Exposes an object array's memory as read-only, so a view of it cannot be made writable."""

    def __init__(self, array: np.ndarray):
        self._owner = array
        interface = dict(array.__array_interface__)
        interface["data"] = (interface["data"][0], True)
        self.__array_interface__ = interface


def _frozen(array) -> np.ndarray:
    """A read-only copy of ``array`` whose memory cannot be made writable again.

    Setting ``flags.writeable = True`` is refused by numpy for an array whose memory belongs
    to a read-only buffer. Numeric data is therefore copied into an immutable ``bytes``
    object; object arrays (e.g. string class labels held as Python objects) are exposed
    through a read-only array interface over a private copy.
    """
    array = np.asarray(array)
    if array.dtype.hasobject:
        owner = np.array(array, copy=True)
        owner.flags.writeable = False
        return np.asarray(_ReadOnlyBuffer(owner))
    return np.frombuffer(np.ascontiguousarray(array).tobytes(), dtype=array.dtype).reshape(
        array.shape)


class _ArrayAttribute:
    """A read-only array attribute backed by a private slot (``_`` + its name).

    Every access returns a new view of the privately held array: its values cannot be changed
    (the memory is read-only for good, see :func:`_frozen`), and neither can the stored array's
    shape or dtype, since only a view is ever handed out.
    """

    __slots__ = ("slot",)

    def __set_name__(self, owner, name):
        self.slot = "_" + name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        value = getattr(obj, self.slot)
        return None if value is None else value.view()


class ReadOnlyArrays:
    """Mixin for the frozen dataclasses that hold results: array fields are stored read-only
    (:func:`_frozen`) and every access returns a new view, as for :class:`Tree`."""

    def __post_init__(self):
        for field in dataclasses.fields(self):
            value = object.__getattribute__(self, field.name)
            if isinstance(value, np.ndarray):
                object.__setattr__(self, field.name, _frozen(value))

    def __getattribute__(self, name):
        value = object.__getattribute__(self, name)
        return value.view() if type(value) is np.ndarray else value

    def __setstate__(self, state):
        for name, value in state.items():
            object.__setattr__(self, name, _frozen(value) if isinstance(value, np.ndarray)
                               else value)


class _Immutable:
    """Attributes are set once, in the constructor; arrays are stored read-only."""

    __slots__ = ()

    def __setattr__(self, name, value):
        raise AttributeError(f"a {type(self).__name__} is immutable; build a new one instead.")

    def __delattr__(self, name):
        raise AttributeError(f"a {type(self).__name__} is immutable.")

    def __getstate__(self):
        return {name: getattr(self, name) for name in _all_slots(type(self))}

    def __setstate__(self, state):
        _restore(self, state)


def _as_feature_names(feature_names, n_features) -> tuple[str, ...] | None:
    """Validate feature names: ``None``, or one string per feature, as a tuple."""
    if feature_names is None:
        return None
    if isinstance(feature_names, (str, bytes)) or not hasattr(feature_names, "__len__"):
        raise TypeError(f"feature_names must be a sequence of strings, one per feature, got "
                        f"{type(feature_names).__name__}.")
    names = list(feature_names)
    if n_features is None:
        raise ValueError("feature_names needs split rules: give feature and threshold too.")
    if len(names) != n_features:
        raise ValueError(f"feature_names must have one name per feature ({n_features}), got "
                         f"{len(names)}.")
    if not all(isinstance(name, str) for name in names):
        kinds = sorted({type(name).__name__ for name in names if not isinstance(name, str)})
        raise TypeError(f"feature_names must all be strings, got {', '.join(kinds)}.")
    return tuple(names)


def _sklearn_feature_names(estimator, X) -> tuple[str, ...] | None:
    """The feature names of a fitted scikit-learn estimator, or of a DataFrame ``X``."""
    fitted = getattr(estimator, "feature_names_in_", None)
    columns = getattr(X, "columns", None)
    if columns is not None and len(columns) and all(isinstance(c, str) for c in columns):
        columns = tuple(columns)
        if fitted is not None and tuple(fitted) != columns:
            raise ValueError("X's column names differ from the estimator's feature_names_in_; "
                             "pass the DataFrame the estimator was fitted on.")
    else:
        columns = None
    return tuple(str(name) for name in fitted) if fitted is not None else columns


class BinaryTree(_Immutable):
    """What every prunekit tree has, whatever it predicts: its nodes, split rules and levels.

    A binary tree in the flat layout scikit-learn uses (one array entry per node, children
    by index, ``-1`` at leaves), which routes samples to its nodes. :class:`Tree` (class
    counts) and :class:`~prunekit.RegressionTree` (sums of squares) add the statistics of
    the growing sample that their leaf errors are computed from; the prunings, the routing
    and every bottom-up pass need only what is here.

    Attributes
    ----------
    left, right : ndarray of shape (n_nodes,)
        Child indices, ``-1`` at leaves. Node 0 is the root.
    feature : ndarray of shape (n_nodes,)
        Feature tested at each internal node, ``-1`` at leaves.
    threshold : ndarray of shape (n_nodes,)
        A sample goes left when ``x[feature] <= threshold``; ``nan`` at leaves.
    missing_go_to_left : ndarray of bool, shape (n_nodes,)
        Where a sample whose ``x[feature]`` is missing (NaN) goes at each internal node, as
        in scikit-learn's trees (``False`` at leaves): what the grower learnt when it saw
        missing values, and otherwise the child more growing examples reached.
    parent : ndarray of shape (n_nodes,)
        Parent index, ``-1`` at the root.
    depth : ndarray of shape (n_nodes,)
        Depth of each node; the root has depth 0.
    is_leaf : ndarray of bool, shape (n_nodes,)
    weighted : bool
        Whether the growing statistics are sums of example weights rather than counts of
        examples.
    n_features : int or None
        Number of input features (None for a tree without split rules).
    feature_names : tuple of str or None
        The name of every input feature (``feature_names[j]`` names ``x[j]``), when the tree
        was grown on data with named columns such as a pandas DataFrame; otherwise ``None``.
    criterion : str or None
        Split criterion of the grower ("gini", "squared_error", ...), when known.
    impurity : ndarray of shape (n_nodes,) or None
        The grower's impurity at each node, when known.
    """

    __slots__ = (
        "_left", "_right", "_feature", "_threshold", "_parent", "_depth", "n_features",
        "feature_names", "criterion", "_impurity", "_is_leaf", "_levels", "_inner_levels",
        "_dtype", "_compiled", "_missing_go_to_left", "weighted",
    )
    left = _ArrayAttribute()
    right = _ArrayAttribute()
    feature = _ArrayAttribute()
    threshold = _ArrayAttribute()
    parent = _ArrayAttribute()
    depth = _ArrayAttribute()
    impurity = _ArrayAttribute()
    is_leaf = _ArrayAttribute()
    missing_go_to_left = _ArrayAttribute()

    def _set_structure(self, left, right, reached, *, feature, threshold, n_features,
                       criterion, impurity, dtype, compiled, feature_names,
                       missing_go_to_left, weighted) -> None:
        """Check and store the structure; ``left`` and ``right`` come from
        :func:`_as_children`, ``reached`` is the growing weight of every node (it sends a
        missing value towards the heavier child by default)."""
        parent, depth, levels = _check_binary_tree(left, right)
        is_leaf = left == -1
        feature, threshold, n_features = _as_split_rules(feature, threshold, n_features,
                                                         is_leaf)
        missing_go_to_left = _as_missing_directions(missing_go_to_left, reached, left, right,
                                                    is_leaf)
        feature_names = _as_feature_names(feature_names, n_features)
        impurity = _as_impurity(impurity, len(left))
        if criterion is not None and not isinstance(criterion, str):
            raise TypeError(f"criterion must be a string or None, got {type(criterion).__name__}.")
        criterion = _renamed_criterion(criterion)     # "information" is now "entropy"
        if dtype not in (np.float32, np.float64):
            raise ValueError(f"dtype must be numpy.float32 or numpy.float64 (the precision the "
                             f"thresholds are compared in), got {dtype!r}.")
        if compiled is not None:
            _check_compiled(compiled, left, right)
        values = dict(left=left, right=right, feature=feature, threshold=threshold,
                      parent=parent, depth=depth, impurity=impurity, is_leaf=is_leaf,
                      missing_go_to_left=missing_go_to_left)
        for name, value in values.items():
            object.__setattr__(self, "_" + name, None if value is None else _frozen(value))
        object.__setattr__(self, "n_features", n_features)
        object.__setattr__(self, "weighted", weighted)
        object.__setattr__(self, "feature_names", feature_names)
        object.__setattr__(self, "criterion", criterion)
        object.__setattr__(self, "_levels", tuple(_frozen(level) for level in levels))
        # internal nodes level by level, deepest first: the order of every bottom-up pass
        object.__setattr__(self, "_inner_levels", tuple(
            _frozen(level[~is_leaf[level]]) for level in reversed(levels)
            if (~is_leaf[level]).any()))
        object.__setattr__(self, "_dtype", np.dtype(dtype).type)
        # scikit-learn's compiled tree with the same nodes, when the tree came from one: it
        # routes samples to the leaves in C (see _route)
        object.__setattr__(self, "_compiled", compiled)

    def to_sklearn(self):
        """This tree as a fitted scikit-learn tree: a ``DecisionTreeClassifier`` for a
        :class:`Tree`, a ``DecisionTreeRegressor`` for a regression tree
        (:func:`prunekit.export.to_sklearn`).

        Examples
        --------
        >>> import prunekit as pk
        >>> t = pk.Tree.from_arrays(
        ...     [1, -1, -1], [2, -1, -1], [[3, 2], [3, 0], [0, 2]],
        ...     feature=[0, -1, -1], threshold=[0.5, 0, 0])
        >>> t.to_sklearn().predict([[0.0], [1.0]]).tolist()
        [0, 1]
        """
        from prunekit.export import to_sklearn

        return to_sklearn(self)

    def __eq__(self, other) -> bool:
        """Two trees are equal when they are of one kind and have the same shape, split
        rules, growing statistics (a :class:`Tree`'s counts, leaf labels and classes; a
        regression tree's moments) and feature names (a copy or an unpickled tree equals
        its original); the grower's criterion and impurities are not compared."""
        if self is other:
            return True
        if not isinstance(other, BinaryTree):
            return NotImplemented
        return (type(self) is type(other)
                and self.n_features == other.n_features
                and self.feature_names == other.feature_names
                and self.weighted == other.weighted
                and all(np.array_equal(a, b, equal_nan=a.dtype.kind == "f")
                        for a, b in zip(self._compared_arrays(), other._compared_arrays())))

    def __hash__(self) -> int:
        left, statistics = self._compared_arrays()[:2]
        return hash((self.n_nodes, statistics.tobytes(), left.tobytes()))

    def _compared_arrays(self) -> tuple[np.ndarray, ...]:
        """The arrays :meth:`__eq__` compares: the children's ``left`` and the growing
        statistics first (:meth:`__hash__` hashes them), then the rest."""
        raise NotImplementedError

    def with_feature_names(self, feature_names) -> "Tree":
        """The same tree with other feature names (``None`` removes them); ``self`` is unchanged.

        Parameters
        ----------
        feature_names : sequence of str or None
            One name per input feature (``n_features`` of them).

        Examples
        --------
        >>> import prunekit as pk
        >>> t = pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
        ...     [[4, 4], [3, 1], [1, 3], [1, 0], [0, 3]],
        ...     feature=[0, -1, 1, -1, -1], threshold=[0.5, 0, 0.5, 0, 0])
        >>> t.with_feature_names(["smoker", "over_60"]).feature_names
        ('smoker', 'over_60')
        """
        feature_names = _as_feature_names(feature_names, self.n_features)
        renamed = copy.copy(self)
        object.__setattr__(renamed, "feature_names", feature_names)
        return renamed

    # ------------------------------------------------------------------ sizes
    @property
    def n_nodes(self) -> int:
        """Number of nodes, internal and leaves."""
        return len(self._left)

    @property
    def n_leaves(self) -> int:
        """Number of leaves."""
        return int(self._is_leaf.sum())

    @property
    def max_depth(self) -> int:
        """Depth of the deepest node (a single leaf has depth 0)."""
        return len(self._levels) - 1

    @property
    def levels(self) -> tuple[np.ndarray, ...]:
        """Node indices grouped by depth: ``levels[k]`` holds the nodes at depth k."""
        return tuple(level.view() for level in self._levels)

    @property
    def inner_levels(self) -> tuple[np.ndarray, ...]:
        """Internal nodes grouped by depth, deepest first: the order of a bottom-up pass."""
        return tuple(level.view() for level in self._inner_levels)

    @property
    def has_split_rules(self) -> bool:
        """Whether the tree carries features and thresholds, so that it can route samples."""
        return self.n_features is not None

    @property
    def dtype(self) -> type:
        """The precision samples are compared with the thresholds in: ``numpy.float32`` for
        a tree from scikit-learn or :func:`~prunekit.growing.grow_tree` (as scikit-learn
        compares), ``numpy.float64`` unless the constructor was told otherwise."""
        return self._dtype

    def subtree(self, node: int) -> np.ndarray:
        """Indices of the nodes of the subtree rooted at ``node`` (including it), top-down.

        Examples
        --------
        >>> import prunekit as pk
        >>> t = pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
        ...                         [[4, 4], [3, 1], [1, 3], [1, 0], [0, 3]])
        >>> t.subtree(2).tolist()
        [2, 3, 4]
        """
        node = self.check_node(node)
        found, frontier = [], np.array([node])
        while frontier.size:
            found.append(frontier)
            inner = frontier[~self._is_leaf[frontier]]
            frontier = np.concatenate([self._left[inner], self._right[inner]])
        return np.concatenate(found)

    # ------------------------------------------------------------------ checking arguments
    # Every function that takes a tree checks the arguments that refer to it with these.
    def check_node(self, node, name: str = "node") -> int:
        """Check that ``node`` is a node of this tree, an integer in [0, n_nodes); return it.

        Parameters
        ----------
        node : int
        name : str, default "node"
            The argument's name, used in error messages.
        """
        node = check_count(node, name)
        if node >= self.n_nodes:
            raise ValueError(f"{name} must be a node of the tree, in [0, {self.n_nodes}), "
                             f"got {node}.")
        return node

    def require_unweighted(self, method: str) -> None:
        """Raise a ``ValueError`` when the tree is :attr:`weighted`, for a method whose
        bound counts examples (``method`` names it in the message)."""
        if self.weighted:
            raise ValueError(
                f"{method} does not take weights: its bound is stated for a number of "
                "examples, and this tree's counts are sums of sample or class weights. Grow "
                "the tree without weights, or prune with a method defined for weighted "
                "counts (cost complexity, reduced error, PEP, MEP, CVP, error-based)."
            )

    def require_split_rules(self) -> None:
        """Raise a ``ValueError`` when the tree has no split rules to route samples with."""
        if not self.has_split_rules:
            raise ValueError(
                "this tree has no split rules (it was built from counts only), so it cannot "
                "route samples; pass feature and threshold to Tree.from_arrays."
            )

    # ------------------------------------------------------------------ routing samples
    def _route(self, X, stop: np.ndarray) -> np.ndarray:
        """Send each row of a validated ``X`` down from the root until a node in ``stop``.

        ``stop`` must contain every leaf. A tree converted from scikit-learn finds each row's
        leaf with scikit-learn's compiled routine and maps it to the highest ``stop`` node
        above it; other trees take one vectorised step per level, in which the rows still
        travelling look up their node's test in the flattened sample, move to a child, and
        leave the active set once they stop.
        """
        if self._compiled is not None:
            leaf = self._compiled.apply(np.ascontiguousarray(X, dtype=np.float32))
            return leaf if self._stops_at_leaves(stop) else self.highest_marked(stop)[leaf]
        X = np.ascontiguousarray(X)
        n_rows, n_columns = X.shape
        flat = X.ravel()
        reached = np.zeros(n_rows, dtype=np.intp)
        active = np.arange(n_rows)
        current = np.zeros(n_rows, dtype=np.intp)
        while active.size:
            done = stop[current]
            if done.any():
                reached[active[done]] = current[done]
                active, current = active[~done], current[~done]
                if not active.size:
                    break
            value = flat[active * n_columns + self._feature[current]]
            goes_left = (value <= self._threshold[current]) | (
                np.isnan(value) & self._missing_go_to_left[current])
            current = np.where(goes_left, self._left[current], self._right[current])
        return reached

    def _stops_at_leaves(self, stop) -> bool:
        """Whether ``stop`` is (a view of) the tree's own leaf mask, which is immutable."""
        return stop is self._is_leaf or (
            isinstance(stop, np.ndarray) and stop.shape == self._is_leaf.shape
            and stop.strides == self._is_leaf.strides
            and stop.__array_interface__["data"][0] == self._is_leaf.__array_interface__["data"][0])

    def highest_marked(self, marked: np.ndarray) -> np.ndarray:
        """For every node v, the highest node u on the path from the root to v with
        ``marked[u]``, or v itself when no node on the path is marked.

        With ``marked`` the leaves of a pruning (and the tree's leaves), this maps each leaf
        of the tree to the leaf of the pruning above it. O(n_nodes).

        Parameters
        ----------
        marked : ndarray of bool, shape (n_nodes,)
        """
        if (not isinstance(marked, np.ndarray) or marked.dtype != bool
                or marked.shape != (self.n_nodes,)):
            raise ValueError(f"marked must be a boolean mask with one entry per node "
                             f"({self.n_nodes}), got {type(marked).__name__} of shape "
                             f"{np.shape(marked)} and dtype {np.asarray(marked).dtype}.")
        highest = np.arange(self.n_nodes)
        for level in self._levels[1:]:
            above = highest[self._parent[level]]
            highest[level] = np.where(marked[above], above, level)
        return highest

    def _check_X(self, X, name="X"):
        self.require_split_rules()
        return check_samples(X, self.n_features, name=name, dtype=self._dtype, allow_nan=True)

    def apply(self, X, check_input: bool = True) -> np.ndarray:
        """Index of the leaf each row of ``X`` reaches.

        Parameters
        ----------
        X : array-like of shape (m, n_features)
        check_input : bool, default True
            ``False`` skips the check of ``X``, for a sample already checked by the
            tree's ``check_sample``; as in scikit-learn, do not use it otherwise.

        Examples
        --------
        >>> import prunekit as pk
        >>> t = pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
        ...     [[4, 4], [3, 1], [1, 3], [1, 0], [0, 3]],
        ...     feature=[0, -1, 1, -1, -1], threshold=[0.5, 0, 0.5, 0, 0])
        >>> t.apply([[0, 0], [1, 0], [1, 1]]).tolist()
        [1, 3, 4]
        """
        return self._route(self._check_X(X) if check_input else X, self._is_leaf)

    def sum_over_leaves(self, values: np.ndarray) -> np.ndarray:
        """Give every internal node the sum of ``values`` over the leaves below it.

        Parameters
        ----------
        values : ndarray of shape (n_nodes, ...)
            Values at the leaves; entries at internal nodes are overwritten.

        Returns
        -------
        ndarray
            A new array: leaves keep their values, internal nodes get their subtree's sum.

        Examples
        --------
        The number of leaves below every node:

        >>> import prunekit as pk
        >>> t = pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
        ...                         [[4, 4], [3, 1], [1, 3], [1, 0], [0, 3]])
        >>> t.sum_over_leaves(t.is_leaf.astype(int)).tolist()
        [3, 1, 2, 1, 1]
        """
        if values is None or isinstance(values, (str, bytes)) or np.ndim(values) == 0:
            raise TypeError(f"values must be an array with one entry (or row) per node, got "
                            f"{type(values).__name__}.")
        values = np.array(values, copy=True)
        if values.shape[0] != self.n_nodes:
            raise ValueError(f"values must have one entry (or row) per node ({self.n_nodes}), "
                             f"got shape {values.shape}.")
        return self._sum_over_leaves(values)

    def _sum_over_leaves(self, values: np.ndarray) -> np.ndarray:
        for inner in self._inner_levels:
            values[inner] = values[self._left[inner]] + values[self._right[inner]]
        return values


class Tree(BinaryTree):
    """An immutable binary classification tree with its growing-sample class counts.

    Build one with :meth:`from_sklearn` (a fitted scikit-learn tree), :meth:`from_arrays`
    (a hand-built tree, e.g. a textbook example) or prunekit's growers
    (:func:`prunekit.growing.id3`, :func:`prunekit.growing.grow_tree`). Its structure
    (``left``, ``right``, ``feature``, ``threshold``, ``missing_go_to_left``, ``parent``,
    ``depth``, ``n_features``, ``feature_names``, ``criterion``, ``impurity``) is described in
    :class:`BinaryTree`, its base class.

    Attributes
    ----------
    counts : ndarray of shape (n_nodes, n_classes)
        Class counts of the growing sample at every node: int64, or float64 sums of weights
        for a tree grown with sample or class weights (:attr:`weighted`).
    weighted : bool
        Whether ``counts`` are sums of example weights rather than numbers of examples.
        Pruners defined for weighted counts (cost complexity, reduced error, PEP, MEP, CVP,
        C4.5's error-based pruning) use them as they are; those whose bounds count
        examples (Kearns-Mansour, Nobel, Rademacher, k-REP) refuse a weighted tree.
    labels : ndarray of shape (n_nodes,)
        Class index each node predicts when it is a leaf (majority of ``counts`` by default).
    classes_ : ndarray of shape (n_classes,)
        The class labels; ``counts`` column k counts label ``classes_[k]``.

    Notes
    -----
    The tree cannot be changed after it is built. Every array attribute is a new read-only
    view of memory the tree holds privately: numpy refuses to make it writable again
    (``flags.writeable = True`` raises ``ValueError``), and changing the view's ``shape`` or
    ``dtype`` changes only that view. Attributes cannot be rebound.

    Examples
    --------
    Node 0 sends ``x[0] <= 0.5`` to leaf 1 and the rest to node 2, which sends
    ``x[1] <= 0.5`` to leaf 3 and the rest to leaf 4; 8 growing examples, 4 of each class:

    >>> import prunekit as pk
    >>> t = pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
    ...     [[4, 4], [3, 1], [1, 3], [1, 0], [0, 3]],
    ...     feature=[0, -1, 1, -1, -1], threshold=[0.5, 0, 0.5, 0, 0])
    >>> t
    Tree(n_nodes=5, n_leaves=3, max_depth=2, n_classes=2, n_samples=8)
    >>> t.labels.tolist()              # the majority class of every node
    [0, 0, 1, 0, 1]
    """

    __slots__ = ("_counts", "_labels", "_classes_")
    counts = _ArrayAttribute()
    labels = _ArrayAttribute()
    classes_ = _ArrayAttribute()

    def __init__(self, left, right, counts, *, feature=None, threshold=None, labels=None,
                 classes=None, n_features=None, criterion=None, impurity=None,
                 dtype=np.float64, compiled=None, feature_names=None, missing_go_to_left=None,
                 weighted=False):
        left, right = _as_children(left, right)
        n_nodes = len(left)
        weighted = check_bool(weighted, "weighted")
        counts = _as_counts(counts, n_nodes, weighted=weighted)
        if weighted:
            counts = counts.astype(np.float64)
        self._set_structure(left, right, counts.sum(axis=1), feature=feature,
                            threshold=threshold, n_features=n_features, criterion=criterion,
                            impurity=impurity, dtype=dtype, compiled=compiled,
                            feature_names=feature_names,
                            missing_go_to_left=missing_go_to_left, weighted=weighted)
        _check_count_consistency(counts, left, right, self._is_leaf)
        n_classes = counts.shape[1]
        labels = (np.argmax(counts, axis=1) if labels is None
                  else _as_labels(labels, n_nodes, n_classes))
        classes = np.arange(n_classes) if classes is None else _as_classes(classes, n_classes)
        for name, value in dict(counts=counts, labels=labels, classes_=classes).items():
            object.__setattr__(self, "_" + name, _frozen(value))

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_arrays(cls, left, right, counts, feature=None, threshold=None, *, labels=None,
                    classes=None, n_features=None, feature_names=None,
                    missing_go_to_left=None, weighted=False) -> "Tree":
        """Build a tree from its arrays, e.g. a hand-built textbook example.

        Parameters
        ----------
        left, right : array-like of int, shape (n_nodes,)
            Child indices, ``-1`` at leaves; node 0 is the root. Every internal node has
            exactly two children, every other node exactly one parent, and every node is
            reachable from the root.
        counts : array-like of shape (n_nodes, n_classes)
            Non-negative integer class counts of the growing sample at every node (any
            non-negative numbers when ``weighted``); an internal node's counts are the sum of
            its children's.
        feature, threshold : array-like of shape (n_nodes,), optional
            Split rules (go left when ``x[feature] <= threshold``). Without them the tree has
            no rules to route samples with; it can still be pruned from its counts.
        labels : array-like of int, shape (n_nodes,), optional
            Class index predicted at each node when it is a leaf; default: majority of
            ``counts``, ties to the smallest index.
        classes : array-like of shape (n_classes,), optional
            Sorted class labels; default ``0, ..., n_classes - 1``.
        n_features : int, optional
            Number of input features; default ``max(feature) + 1``.
        feature_names : sequence of str, optional
            One name per input feature; needs ``feature`` and ``threshold``.
        missing_go_to_left : array-like of bool, shape (n_nodes,), optional
            Where a missing value (NaN) of an internal node's feature goes; default: to the
            child with more growing examples (the right one on ties), as scikit-learn sends
            it at a split that saw no missing value.
        weighted : bool, default False
            Whether ``counts`` are sums of example weights (:attr:`weighted`).

        Examples
        --------
        A stump with 3 examples of class 0 on the left and 2 of class 1 on the right:

        >>> t = Tree.from_arrays([1, -1, -1], [2, -1, -1],
        ...                      [[3, 2], [3, 0], [0, 2]])
        >>> t.n_nodes, t.n_leaves
        (3, 2)
        """
        return cls(left, right, counts, feature=feature, threshold=threshold, labels=labels,
                   classes=classes, n_features=n_features, feature_names=feature_names,
                   missing_go_to_left=missing_go_to_left, weighted=weighted)

    @classmethod
    def from_sklearn(cls, estimator, X, y, classes=None, *, sample_weight=None) -> "Tree":
        """Convert a fitted scikit-learn tree classifier; counts are taken from ``(X, y)``.

        Parameters
        ----------
        estimator : sklearn.tree.DecisionTreeClassifier or ExtraTreeClassifier
            A fitted single-output classification tree.
        X : array-like of shape (m, d)
            The growing sample (normally the data the estimator was fitted on); a pandas
            DataFrame works too. Missing values (NaN) go where the estimator learnt to send
            them (its ``tree_.missing_go_to_left``).
        y : array-like of shape (m,)
            Its labels; every label must be one of ``estimator.classes_``.
        classes : array-like, optional
            The labels to count, sorted; a superset of ``estimator.classes_``. Give the labels
            of the whole data set when the growing sample lacks some of them, so that pruning
            and test examples of those classes are counted (and misclassified) like any other.
            Default: ``estimator.classes_``.
        sample_weight : array-like of shape (m,), optional
            The weights the estimator was fitted with. The counts are then sums of weights
            (a :attr:`weighted` tree), multiplied by the estimator's ``class_weight`` when it
            has one, as scikit-learn weighs them.

        Raises
        ------
        ValueError
            When the estimator's class proportions at some node differ from those of
            ``(X, y)`` with its weights: it was fitted on another sample or with other
            weights. Its leaves would then predict another class than the tree's.

        Notes
        -----
        The tree's :attr:`feature_names` are the estimator's ``feature_names_in_`` (set by
        scikit-learn when it was fitted on a DataFrame with string column names), or else the
        column names of ``X`` when it is such a DataFrame; they must agree when both exist.

        Samples are compared with the thresholds in float32, as scikit-learn does, so
        :meth:`apply` and :meth:`predict` agree with the estimator exactly.

        With weights (``sample_weight``, or an estimator's ``class_weight``), every count is
        a sum of weights and a leaf predicts the class of largest weight, as the estimator
        does; an integer weight w counts an example as w copies of it. The pruners defined
        for weighted counts take such a tree; those whose bounds count examples refuse it.

        Examples
        --------
        >>> import prunekit as pk
        >>> from sklearn.datasets import load_iris
        >>> from sklearn.tree import DecisionTreeClassifier
        >>> X, y = load_iris(return_X_y=True)
        >>> clf = DecisionTreeClassifier(max_depth=2, random_state=0)
        >>> clf = clf.fit(X, y)
        >>> pk.Tree.from_sklearn(clf, X, y)
        Tree(n_nodes=5, n_leaves=3, max_depth=2, n_classes=3, n_samples=150)
        """
        if not hasattr(estimator, "fit") or not hasattr(estimator, "get_params"):
            raise TypeError(
                f"estimator must be a scikit-learn tree classifier, got {type(estimator).__name__}."
            )
        if not is_classifier(estimator):
            raise TypeError(
                f"estimator must be a classifier; {type(estimator).__name__} is not "
                "(convert a regressor with prunekit.RegressionTree.from_sklearn)."
            )
        check_is_fitted(estimator)
        if not hasattr(estimator, "tree_"):
            raise TypeError(
                f"estimator must be a single decision tree (with a tree_ attribute), "
                f"got {type(estimator).__name__}."
            )
        if getattr(estimator, "n_outputs_", 1) != 1:
            raise ValueError("estimator was fitted on several outputs; prunekit needs one.")
        sk = estimator.tree_
        is_leaf = sk.children_left == -1
        if classes is None:
            classes = estimator.classes_
        else:
            classes = as_array(classes, "classes", ndim=1, dtype=None, finite=False)
            if not np.all(np.isin(estimator.classes_, classes)):
                raise ValueError("classes must contain every label of estimator.classes_ "
                                 f"{estimator.classes_.tolist()!r}, got {classes.tolist()!r}.")
        feature_names = _sklearn_feature_names(estimator, X)
        missing_go_to_left = np.asarray(sk.missing_go_to_left, dtype=bool)
        shell = cls(
            sk.children_left, sk.children_right, np.zeros((sk.node_count, len(classes)), int),
            feature=np.where(is_leaf, -1, sk.feature),
            threshold=np.where(is_leaf, np.nan, sk.threshold),
            classes=classes, n_features=estimator.n_features_in_,
            dtype=np.float32, missing_go_to_left=missing_go_to_left,
        )
        X, y = shell.check_sample(X, y)
        weights = _estimator_weights(estimator, y, sample_weight)
        counts = shell.node_counts(X, y, sample_weight=weights)
        _check_estimator_proportions(estimator, counts, shell._classes_)
        return cls(
            shell.left, shell.right, counts, feature=shell.feature, threshold=shell.threshold,
            classes=shell.classes_, n_features=shell.n_features,
            criterion=getattr(estimator, "criterion", None), impurity=sk.impurity,
            dtype=np.float32, compiled=copy.deepcopy(sk), feature_names=feature_names,
            missing_go_to_left=missing_go_to_left, weighted=weights is not None,
        )

    def __setstate__(self, state):
        object.__setattr__(self, "feature_names", None)    # pickled before trees had names
        object.__setattr__(self, "weighted", False)         # pickled before weights
        _restore(self, state)
        if "_missing_go_to_left" not in state:             # pickled before missing values
            object.__setattr__(self, "_missing_go_to_left", _frozen(_as_missing_directions(
                None, self._counts.sum(axis=1), self._left, self._right, self._is_leaf)))

    # ------------------------------------------------------------------ sizes
    @property
    def n_classes(self) -> int:
        """Number of classes (columns of ``counts``)."""
        return self._counts.shape[1]

    @property
    def n_samples(self) -> int | float:
        """Size of the growing sample (the root's count); its total weight for a
        :attr:`weighted` tree."""
        total = self._counts[0].sum()
        return float(total) if self.weighted else int(total)

    def check_sample_counts(self, counts, name: str = "counts", *,
                            weighted: bool = False) -> np.ndarray:
        """Check per-node class counts of a sample routed through this tree; return them.

        Parameters
        ----------
        counts : array-like of shape (n_nodes, n_classes)
            E.g. from :meth:`node_counts`: non-negative integers, every internal node's
            counts the sum of its children's.
        name : str, default "counts"
            The argument's name, used in error messages.
        weighted : bool, default False
            Accept sums of example weights (any non-negative numbers), for a method defined
            for weighted counts.

        Returns
        -------
        ndarray of int64 (float64 for weighted counts), shape (n_nodes, n_classes)
            The tree's own ``counts`` are returned as they are, without a copy.
        """
        if counts is self._counts:
            return counts
        counts = _as_counts(counts, self.n_nodes, name, weighted=weighted)
        if counts.shape != self._counts.shape:
            raise ValueError(f"{name} must have shape {self._counts.shape} (one row per node, "
                             f"one column per class), got {counts.shape}.")
        _check_count_consistency(counts, self._left, self._right, self._is_leaf, name)
        return counts

    def check_leaf_labels(self, labels, name: str = "labels") -> np.ndarray:
        """Check leaf labels for this tree's nodes: one class index in [0, n_classes) per
        node, as ``labels`` holds; return them as an integer array.

        Parameters
        ----------
        labels : array-like of int, shape (n_nodes,)
        name : str, default "labels"
            The argument's name, used in error messages.
        """
        return _as_labels(labels, self.n_nodes, self.n_classes, name)

    def check_sample(self, X, y, *, names=("X", "y")) -> tuple[np.ndarray, np.ndarray]:
        """Check a labelled sample to route through this tree; return it as arrays.

        Parameters
        ----------
        X : array-like of shape (m, n_features)
            Numbers, NaN for a missing value (:attr:`missing_go_to_left`), no infinity;
            converted to the tree's :attr:`dtype`.
        y : array-like of shape (m,)
            Class labels (labels the tree never saw are allowed here; :meth:`node_counts`
            refuses them).
        names : (str, str), default ("X", "y")
            The two arguments' names in the caller, used in error messages.

        Raises
        ------
        ValueError
            When the tree has no split rules (:meth:`require_split_rules`).
        """
        self.require_split_rules()
        return check_sample_and_labels(X, y, self.n_features, dtype=self._dtype, names=names,
                                       allow_nan=True)

    # ------------------------------------------------------------------ comparison
    def _compared_arrays(self):
        return (self._left, self._counts, self._right, self._feature, self._threshold,
                self._labels, self._classes_, self._missing_go_to_left)

    def __repr__(self) -> str:
        return (f"Tree(n_nodes={self.n_nodes}, n_leaves={self.n_leaves}, "
                f"max_depth={self.max_depth}, n_classes={self.n_classes}, "
                f"n_samples={self.n_samples:.6g})")

    def predict(self, X) -> np.ndarray:
        """Predicted class label of each row of ``X``.

        Examples
        --------
        >>> import prunekit as pk
        >>> t = pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
        ...     [[4, 4], [3, 1], [1, 3], [1, 0], [0, 3]],
        ...     feature=[0, -1, 1, -1, -1], threshold=[0.5, 0, 0.5, 0, 0])
        >>> t.predict([[0, 0], [1, 0], [1, 1]]).tolist()
        [0, 0, 1]
        """
        return self.classes_[self._labels[self.apply(X)]]

    def error(self, X, y) -> float:
        """Misclassification rate on ``(X, y)``; unseen labels count as errors.

        Examples
        --------
        >>> import prunekit as pk
        >>> t = pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
        ...     [[4, 4], [3, 1], [1, 3], [1, 0], [0, 3]],
        ...     feature=[0, -1, 1, -1, -1], threshold=[0.5, 0, 0.5, 0, 0])
        >>> round(t.error([[0, 0], [1, 0], [1, 1]], [0, 1, 1]), 3)
        0.333
        >>> t.error([[1, 1]], [2])         # a label the tree never saw
        1.0
        """
        return Pruning.full(self).error(X, y)

    def node_counts(self, X, y, *, sample_weight=None, names=("X", "y")) -> np.ndarray:
        """Class counts of the sample ``(X, y)`` at every node.

        Parameters
        ----------
        X : array-like of shape (m, d)
        y : array-like of shape (m,)
            Labels; each must be one of ``classes_``.
        sample_weight : array-like of shape (m,), optional
            Non-negative weights: each count is then the sum of its examples' weights
            (float64).
        names : (str, str), default ("X", "y")
            The two arguments' names in the caller, used in error messages (a pruner
            passes ``("X_prune", "y_prune")``).

        Returns
        -------
        ndarray of shape (n_nodes, n_classes)
            ``counts[v, k]`` is the number of examples of class ``classes_[k]`` whose path
            passes through node ``v``: the statistics of Kearns & Mansour (1998), Sec. 3
            (or the sum of their weights).

        Examples
        --------
        >>> import prunekit as pk
        >>> t = pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
        ...     [[4, 4], [3, 1], [1, 3], [1, 0], [0, 3]],
        ...     feature=[0, -1, 1, -1, -1], threshold=[0.5, 0, 0.5, 0, 0])
        >>> t.node_counts([[0, 0], [1, 0], [1, 1]], [0, 1, 1]).tolist()
        [[1, 2], [1, 0], [0, 2], [0, 1], [0, 1]]
        """
        X, y = self.check_sample(X, y, names=names)
        weights = check_sample_weight(sample_weight, len(y))
        codes = encode_labels(y, self._classes_, name=names[1])
        return self._counts_from_leaves(self._route(X, self._is_leaf), codes, weights)

    def leaf_errors(self, counts=None, labels=None) -> np.ndarray:
        """Errors every node makes as a leaf: the examples reaching it not of its label.

        Parameters
        ----------
        counts : array-like of shape (n_nodes, n_classes), optional
            Per-node class counts of a sample, e.g. from :meth:`node_counts`; default the
            growing counts, giving every node's training errors.
        labels : array-like of int, shape (n_nodes,), optional
            The class index each node predicts; default the tree's ``labels``.

        Returns
        -------
        ndarray of int64, shape (n_nodes,)

        See Also
        --------
        prunekit.tree.leaf_errors : the same for counts and labels without a tree.

        Examples
        --------
        >>> import prunekit as pk
        >>> t = pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
        ...     [[4, 4], [3, 1], [1, 3], [1, 0], [0, 3]],
        ...     feature=[0, -1, 1, -1, -1], threshold=[0.5, 0, 0.5, 0, 0])
        >>> t.leaf_errors().tolist()       # on the growing sample
        [4, 1, 1, 0, 0]
        >>> t.leaf_errors(t.node_counts([[1, 0]], [1])).tolist()
        [1, 0, 0, 1, 0]
        """
        if counts is not None:
            counts = _as_counts(counts, self.n_nodes, weighted=True)
            if counts.shape[1] != self.n_classes:
                raise ValueError(f"counts must have one column per class ({self.n_classes}), "
                                 f"got {counts.shape[1]}.")
        return _leaf_errors(self._counts if counts is None else counts,
                            self._labels if labels is None else self.check_leaf_labels(labels))

    # The hooks through which a Pruning and the pruners common to classification and
    # regression trees (prunekit.RegressionTree) use a tree's statistics.
    def _reached(self) -> np.ndarray:
        """The growing weight of every node."""
        return self._counts.sum(axis=1)

    def _checked_statistics(self, statistics) -> np.ndarray:
        """A sample's statistics at every node, checked: here class counts."""
        return self.check_sample_counts(statistics, weighted=True)

    def _errors_at(self, nodes, counts, labels) -> np.ndarray:
        """:meth:`leaf_errors` of ``nodes`` only, for checked ``counts`` (None: the
        growing counts) and leaf labels."""
        counts = self._counts if counts is None else counts
        return _leaf_errors(counts[nodes], labels[nodes])

    def _predictions(self, nodes: np.ndarray, labels: np.ndarray) -> np.ndarray:
        """What each of ``nodes`` predicts as a leaf, with the leaf labels ``labels``."""
        return self._classes_[labels[nodes]]

    @staticmethod
    def _sample_error(predicted: np.ndarray, y: np.ndarray) -> float:
        """The loss of predictions on a sample: here the misclassification rate."""
        return float(np.mean(predicted != y))

    def _restricted(self, nodes, left, right, feature, threshold, labels) -> "Tree":
        """The tree of ``nodes`` only, renumbered, with these children and rules."""
        impurity = None if self._impurity is None else self._impurity[nodes]
        return Tree(left, right, self._counts[nodes], feature=feature, threshold=threshold,
                    labels=labels[nodes], classes=self._classes_,
                    n_features=self.n_features, criterion=self.criterion, impurity=impurity,
                    dtype=self._dtype,
                    feature_names=self.feature_names if self.has_split_rules else None,
                    missing_go_to_left=self._missing_go_to_left[nodes],
                    weighted=self.weighted)

    def counts_from_leaves(self, leaf, codes) -> np.ndarray:
        """Per-node class counts from each example's leaf and class index.

        Counts the examples at their leaves, then adds every level into its parents,
        deepest level first: O(m + n_nodes * n_classes).

        Parameters
        ----------
        leaf : array-like of int, shape (m,)
            The leaf of the tree each example reaches (e.g. from :meth:`apply`).
        codes : array-like of int, shape (m,)
            Each example's class index, in [0, n_classes).
        """
        leaf = check_index_array(leaf, "leaf", minimum=0, maximum=self.n_nodes - 1,
                                 min_length=0)
        codes = check_index_array(codes, "codes", minimum=0, maximum=self.n_classes - 1,
                                  min_length=0)
        if len(leaf) != len(codes):
            raise ValueError(f"leaf and codes must have the same length, got {len(leaf)} and "
                             f"{len(codes)}.")
        inner = leaf[~self._is_leaf[leaf]]
        if inner.size:
            raise ValueError(f"leaf must hold leaves of the tree, got internal node {inner[0]}.")
        return self._counts_from_leaves(leaf, codes)

    def _counts_from_leaves(self, leaf: np.ndarray, codes: np.ndarray,
                            weights: np.ndarray | None = None) -> np.ndarray:
        K = self.n_classes
        flat = np.bincount(leaf * K + codes, weights, minlength=self.n_nodes * K)
        return self._sum_over_leaves(flat.reshape(self.n_nodes, K))


class Pruning(_Immutable):
    """A pruning of a :class:`Tree`: a subtree that shares its root.

    Stored as a boolean mask ``kept`` over the tree's nodes. A kept node is a leaf of the
    pruning when it is a leaf of the tree or its children are not kept. The tree itself is
    never changed.

    Parameters
    ----------
    tree : Tree
    kept : array-like of bool, shape (tree.n_nodes,)
        Which nodes the pruning keeps. The root is kept; a kept internal node keeps both or
        neither of its children; a node that is not kept has no kept children.
    labels : array-like of int, shape (tree.n_nodes,), optional
        Class index predicted at each node when it is a leaf of the pruning; default the
        tree's labels (majority of the growing counts). Pruners that relabel leaves with
        another sample (e.g. Nobel's "compatible" trees) pass their own.

    Like a :class:`Tree`, a pruning cannot be changed: ``kept``, ``labels`` and ``is_leaf``
    are read-only views.

    Examples
    --------
    The tree of :class:`Tree`'s example without the children of node 2:

    >>> import prunekit as pk
    >>> t = pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
    ...                         [[4, 4], [3, 1], [1, 3], [1, 0], [0, 3]])
    >>> p = pk.Pruning(t, [True, True, True, False, False])
    >>> p.n_nodes, p.n_leaves, p.leaves.tolist()
    (3, 2, [1, 2])
    """

    __slots__ = ("tree", "_kept", "_labels", "_is_leaf")
    kept = _ArrayAttribute()
    labels = _ArrayAttribute()
    is_leaf = _ArrayAttribute()

    def __init__(self, tree: Tree, kept, labels=None):
        check_tree(tree, regression=True)
        kept = as_array(kept, "kept", ndim=1, dtype=None, min_length=0, what="(n_nodes,)")
        if kept.dtype != bool or kept.shape != (tree.n_nodes,):
            raise ValueError(
                f"kept must be a boolean mask with one entry per node ({tree.n_nodes}), "
                f"got dtype {kept.dtype} and shape {kept.shape}."
            )
        _check_pruning_mask(tree, kept)
        if labels is None:
            labels = getattr(tree, "_labels", None)   # immutable: shared, not copied
        elif not isinstance(tree, Tree):
            raise ValueError("labels must be None for a regression tree: its leaves predict "
                             "their growing means.")
        else:
            labels = _frozen(_as_labels(labels, tree.n_nodes, tree.n_classes))
        inner = ~tree._is_leaf
        is_leaf = kept.copy()
        is_leaf[inner] &= ~kept[np.where(inner, tree._left, 0)][inner]
        object.__setattr__(self, "_kept", _frozen(kept))
        object.__setattr__(self, "_labels", labels)
        object.__setattr__(self, "_is_leaf", _frozen(is_leaf))
        object.__setattr__(self, "tree", tree)


    # ------------------------------------------------------------------ constructors
    @classmethod
    def full(cls, tree: Tree) -> "Pruning":
        """The trivial pruning that keeps the whole tree.

        Examples
        --------
        >>> import prunekit as pk
        >>> t = pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
        ...                         [[4, 4], [3, 1], [1, 3], [1, 0], [0, 3]])
        >>> p = pk.Pruning.full(t)
        >>> p.n_nodes, p.errors()          # 1 training error
        (5, 1)
        """
        return cls(check_tree(tree, regression=True), np.ones(tree.n_nodes, dtype=bool))

    @classmethod
    def root_only(cls, tree: Tree) -> "Pruning":
        """The pruning that keeps only the root, as a single leaf.

        Examples
        --------
        >>> import prunekit as pk
        >>> t = pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
        ...                         [[4, 4], [3, 1], [1, 3], [1, 0], [0, 3]])
        >>> p = pk.Pruning.root_only(t)
        >>> p.n_nodes, p.errors()          # class 0 for all 8: 4 errors
        (1, 4)
        """
        kept = np.zeros(check_tree(tree, regression=True).n_nodes, dtype=bool)
        kept[0] = True
        return cls(tree, kept)

    @classmethod
    def from_collapsed(cls, tree: Tree, collapsed, labels=None) -> "Pruning":
        """The pruning in which every node of ``collapsed`` is turned into a leaf.

        Parameters
        ----------
        tree : Tree
        collapsed : array-like of bool of shape (n_nodes,), or of node indices
            Nodes whose subtrees are cut off (the node itself stays, as a leaf). Nodes below
            another collapsed node are allowed and have no further effect.

        Examples
        --------
        >>> import prunekit as pk
        >>> t = pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
        ...                         [[4, 4], [3, 1], [1, 3], [1, 0], [0, 3]])
        >>> p = pk.Pruning.from_collapsed(t, [2])     # node 2 becomes a leaf
        >>> p.kept.tolist(), p.leaves.tolist()
        ([True, True, True, False, False], [1, 2])
        """
        check_tree(tree, regression=True)
        if collapsed is None or isinstance(collapsed, (str, bytes)):
            raise TypeError("collapsed must be a boolean mask over the nodes or a list of node "
                            f"indices, got {type(collapsed).__name__}.")
        collapsed = np.asarray(collapsed)
        if collapsed.dtype != bool:
            idx = check_index_array(collapsed.reshape(-1), "collapsed", min_length=0)
            outside = idx[(idx < 0) | (idx >= tree.n_nodes)]
            if outside.size:
                raise ValueError(f"collapsed holds node index {outside[0]}, outside "
                                 f"[0, {tree.n_nodes}).")
            collapsed = np.zeros(tree.n_nodes, dtype=bool)
            collapsed[idx] = True
        elif collapsed.shape != (tree.n_nodes,):
            raise ValueError(f"collapsed must have one entry per node ({tree.n_nodes}), got "
                             f"shape {collapsed.shape}.")
        kept = np.zeros(tree.n_nodes, dtype=bool)
        kept[0] = True
        open_ = kept & ~collapsed  # kept nodes whose children are kept too
        for level in tree._levels[1:]:
            kept[level] = open_[tree._parent[level]]
            open_[level] = kept[level] & ~collapsed[level]
        return cls(tree, kept, labels)

    # ------------------------------------------------------------------ sizes
    @property
    def n_nodes(self) -> int:
        """Number of nodes of the pruning."""
        return int(self._kept.sum())

    @property
    def n_leaves(self) -> int:
        """Number of leaves of the pruning."""
        return int(self._is_leaf.sum())

    @property
    def depth(self) -> int:
        """Depth of the pruning's deepest node."""
        return int(self.tree._depth[self._kept].max())

    @property
    def leaves(self) -> np.ndarray:
        """Indices (in the tree) of the pruning's leaves."""
        return np.flatnonzero(self._is_leaf)

    # ------------------------------------------------------------------ predictions
    def apply(self, X) -> np.ndarray:
        """Index (in the tree) of the pruning leaf each row of ``X`` reaches.

        Examples
        --------
        >>> import prunekit as pk
        >>> t = pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
        ...     [[4, 4], [3, 1], [1, 3], [1, 0], [0, 3]],
        ...     feature=[0, -1, 1, -1, -1], threshold=[0.5, 0, 0.5, 0, 0])
        >>> p = pk.Pruning.from_collapsed(t, [2])
        >>> p.apply([[0, 0], [1, 0], [1, 1]]).tolist()
        [1, 2, 2]
        """
        return self.tree._route(self.tree._check_X(X), self._is_leaf)

    def predict(self, X) -> np.ndarray:
        """Predicted class label of each row of ``X``.

        Examples
        --------
        >>> import prunekit as pk
        >>> t = pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
        ...     [[4, 4], [3, 1], [1, 3], [1, 0], [0, 3]],
        ...     feature=[0, -1, 1, -1, -1], threshold=[0.5, 0, 0.5, 0, 0])
        >>> p = pk.Pruning.from_collapsed(t, [2])
        >>> p.predict([[0, 0], [1, 0], [1, 1]]).tolist()
        [0, 1, 1]
        """
        return self.tree._predictions(self.apply(X), self._labels)

    def error(self, X, y) -> float:
        """Misclassification rate on ``(X, y)``.

        Labels the growing sample never had are counted as errors: no pruning of the tree
        can predict them.

        Examples
        --------
        >>> import prunekit as pk
        >>> t = pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
        ...     [[4, 4], [3, 1], [1, 3], [1, 0], [0, 3]],
        ...     feature=[0, -1, 1, -1, -1], threshold=[0.5, 0, 0.5, 0, 0])
        >>> p = pk.Pruning.from_collapsed(t, [2])
        >>> p.error([[0, 0], [1, 0], [1, 1]], [0, 1, 1])
        0.0
        """
        X, y = self.tree.check_sample(X, y)
        return self.tree._sample_error(self.predict(X), y)

    def errors(self, counts=None) -> int | float:
        """Number of misclassified examples, from per-node class counts: the sum of
        :meth:`Tree.leaf_errors` over the pruning's leaves, with its leaf labels.

        Parameters
        ----------
        counts : ndarray of shape (n_nodes, n_classes), optional
            Per-node counts of a sample, e.g. from :meth:`Tree.node_counts`: non-negative
            integers, every internal node's the sum of its children's. Default the growing
            counts, giving the number of training errors. Weighted counts give the weight
            of the misclassified examples (a float).

        Examples
        --------
        >>> import prunekit as pk
        >>> t = pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
        ...     [[4, 4], [3, 1], [1, 3], [1, 0], [0, 3]],
        ...     feature=[0, -1, 1, -1, -1], threshold=[0.5, 0, 0.5, 0, 0])
        >>> p = pk.Pruning.from_collapsed(t, [2])
        >>> p.errors(), p.errors(t.node_counts([[0, 0], [1, 0]], [0, 0]))
        (2, 1)
        """
        tree = self.tree
        if counts is not None:
            counts = tree._checked_statistics(counts)
        total = tree._errors_at(self.leaves, counts, self._labels).sum()
        return int(total) if total.dtype.kind == "i" else float(total)

    # ------------------------------------------------------------------ conversion
    def to_tree(self) -> Tree:
        """The kept part as a tree of its own, nodes renumbered in the original order.

        Used to draw or export a pruning on its own leaves rather than on the grown tree's
        (a small pruning of a large tree can then be drawn with its rules and counts), and
        wherever a stand-alone tree is needed.

        Returns
        -------
        Tree
            The kept nodes with their growing counts, the pruning's leaf labels, and the
            tree's split rules (compared in the same precision), classes, feature names,
            criterion and impurities; the pruning's leaves are its leaves, so it predicts
            as the pruning does.

        Examples
        --------
        >>> import prunekit as pk
        >>> t = pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
        ...                         [[4, 4], [3, 1], [1, 3], [1, 0], [0, 3]])
        >>> small = pk.Pruning.from_collapsed(t, [2]).to_tree()
        >>> small.n_nodes, small.counts.tolist()
        (3, [[4, 4], [3, 1], [1, 3]])
        """
        tree = self.tree
        nodes = np.flatnonzero(self._kept)
        index = np.full(tree.n_nodes, -1)
        index[nodes] = np.arange(len(nodes))
        leaf = self._is_leaf[nodes]
        left = np.where(leaf, -1, index[np.maximum(tree._left[nodes], 0)])
        right = np.where(leaf, -1, index[np.maximum(tree._right[nodes], 0)])
        feature = threshold = None
        if tree.has_split_rules:
            feature = np.where(leaf, -1, tree._feature[nodes])
            threshold = np.where(leaf, np.nan, tree._threshold[nodes])
        return tree._restricted(nodes, left, right, feature, threshold, self._labels)

    def to_sklearn(self):
        """This pruning (its kept part) as a fitted ``sklearn.tree.DecisionTreeClassifier``
        (:func:`prunekit.export.to_sklearn`).

        Examples
        --------
        >>> import prunekit as pk
        >>> t = pk.Tree.from_arrays(
        ...     [1, -1, -1], [2, -1, -1], [[3, 2], [3, 0], [0, 2]],
        ...     feature=[0, -1, -1], threshold=[0.5, 0, 0])
        >>> pk.Pruning.full(t).to_sklearn().predict([[0.0], [1.0]]).tolist()
        [0, 1]
        """
        from prunekit.export import to_sklearn

        return to_sklearn(self)

    # ------------------------------------------------------------------ comparison
    def _key(self):
        labels = b"" if self._labels is None else self._labels[self._is_leaf].tobytes()
        return (self.tree, self._kept.tobytes(), labels)

    def __eq__(self, other) -> bool:
        """Prunings are equal when they keep the same nodes, with the same leaf labels, of
        equal trees (:meth:`Tree.__eq__`): prunings of a copy of a tree equal its own."""
        return isinstance(other, Pruning) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Pruning(n_nodes={self.n_nodes}, n_leaves={self.n_leaves}, depth={self.depth}, "
                f"of {self.tree!r})")


def _all_slots(cls) -> tuple[str, ...]:
    """The slots of ``cls`` and of its bases."""
    return tuple(name for klass in reversed(cls.__mro__)
                 for name in getattr(klass, "__slots__", ()))


def _restore(obj, state: dict) -> None:
    """Set the attributes of an unpickled immutable object, freezing its arrays again."""
    slots = _all_slots(type(obj))
    for name, value in state.items():
        if name not in slots and "_" + name in slots:     # pickled before arrays were private
            name = "_" + name
        if isinstance(value, np.ndarray):
            value = _frozen(value)
        elif isinstance(value, tuple):
            value = tuple(_frozen(v) if isinstance(v, np.ndarray) else v for v in value)
        object.__setattr__(obj, name, value)


# ---------------------------------------------------------------------- per-node errors
def leaf_errors(counts, labels) -> np.ndarray:
    """Errors every node makes as a leaf: the examples reaching it not of its label.

    :meth:`Tree.leaf_errors` gives the same for a tree's nodes, with its counts and labels
    by default.

    Parameters
    ----------
    counts : array-like of shape (n_nodes, n_classes)
        Non-negative class counts at every node (integers, or sums of weights).
    labels : array-like of int, shape (n_nodes,)
        The class index each node predicts, in [0, n_classes).

    Returns
    -------
    ndarray of int64 (float64 for weighted counts), shape (n_nodes,)

    Examples
    --------
    >>> from prunekit.tree import leaf_errors
    >>> leaf_errors([[4, 4], [3, 1], [1, 3]], [0, 0, 1]).tolist()
    [4, 1, 1]
    """
    labels = check_index_array(labels, "labels", minimum=0, min_length=0)
    rows = np.shape(counts)[0] if np.ndim(counts) == 2 else len(labels)
    counts = _as_counts(counts, rows, weighted=True)
    if len(labels) != rows:
        raise ValueError(f"labels must have one entry per node (row of counts, {rows}), got "
                         f"{len(labels)}.")
    if labels.size and labels.max() >= counts.shape[1]:
        raise ValueError(f"labels must be class indices in [0, {counts.shape[1]}) (one per "
                         f"column of counts), got {labels.max()}.")
    return _leaf_errors(counts, labels)


def _leaf_errors(counts: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """:func:`leaf_errors` of checked counts and labels (one row of counts per label).

    The row sums are formed by ``einsum``, several times faster than ``sum(axis=1)`` over
    the few columns of class counts, and exact for integers.
    """
    return np.einsum("ij->i", counts) - counts[np.arange(len(labels)), labels]


# ---------------------------------------------------------------------- enumeration
def postorder(tree: Tree) -> list[int]:
    """The nodes bottom-up: every node after its subtree, the left subtree before the right.

    Examples
    --------
    >>> import prunekit as pk
    >>> from prunekit.tree import postorder
    >>> t = pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
    ...                         [[4, 4], [3, 1], [1, 3], [1, 0], [0, 3]])
    >>> postorder(t)
    [1, 3, 4, 2, 0]
    """
    check_tree(tree, regression=True)
    order, stack = [], [0]
    left, right = tree._left.tolist(), tree._right.tolist()
    while stack:
        v = stack.pop()
        order.append(v)
        if left[v] != -1:
            stack.extend((left[v], right[v]))
    return order[::-1]


def count_prunings(tree: Tree, node: int = 0) -> int:
    """Number of prunings of the subtree rooted at ``node`` (exact, as a Python int).

    A leaf has one pruning; an internal node v has 1 + N(left) N(right): either v becomes a
    leaf, or it keeps its children with any pruning of each.

    Parameters
    ----------
    tree : Tree
    node : int, default 0
        A node of the tree, in [0, n_nodes); 0 counts the prunings of the whole tree.

    Examples
    --------
    >>> import prunekit as pk
    >>> t = pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
    ...                         [[4, 4], [3, 1], [1, 3], [1, 0], [0, 3]])
    >>> pk.count_prunings(t), pk.count_prunings(t, node=2)
    (3, 2)
    """
    node = check_tree(tree, regression=True).check_node(node)
    left, right = tree._left.tolist(), tree._right.tolist()
    number = [1] * tree.n_nodes
    for level in tree._inner_levels:
        for v in level.tolist():
            number[v] = 1 + number[left[v]] * number[right[v]]
    return number[node]


def all_prunings(tree: Tree, *, limit: int = 100_000) -> Iterator[Pruning]:
    """Every pruning of ``tree``, by brute-force enumeration (for tests and small examples).

    The arguments are checked when the function is called, before the first pruning is
    produced.

    Parameters
    ----------
    tree : Tree
    limit : int
        Refuse trees with more prunings than this (the number grows exponentially).

    Returns
    -------
    iterator of Pruning

    Examples
    --------
    >>> import prunekit as pk
    >>> t = pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
    ...                         [[4, 4], [3, 1], [1, 3], [1, 0], [0, 3]])
    >>> [(p.n_leaves, p.errors()) for p in pk.all_prunings(t)]
    [(1, 4), (2, 2), (3, 1)]
    """
    check_tree(tree, regression=True)
    limit = check_count(limit, "limit", minimum=1)
    total = count_prunings(tree)
    if total > limit:
        raise ValueError(f"the tree has {total} prunings, more than limit={limit}.")
    return _enumerate_prunings(tree)


def _enumerate_prunings(tree: Tree) -> Iterator[Pruning]:
    left, right, is_leaf = tree._left.tolist(), tree._right.tolist(), tree._is_leaf.tolist()

    def node_sets(v: int) -> list[tuple[int, ...]]:
        if is_leaf[v]:
            return [(v,)]
        lefts, rights = node_sets(left[v]), node_sets(right[v])
        return [(v,)] + [(v,) + a + b for a in lefts for b in rights]

    for nodes in node_sets(0):
        kept = np.zeros(tree.n_nodes, dtype=bool)
        kept[list(nodes)] = True
        yield Pruning(tree, kept)


# ---------------------------------------------------------------------- validation helpers
def check_tree(tree, name: str = "tree", *, regression: bool = False) -> "Tree":
    """Check that ``tree`` is a prunekit :class:`Tree`, or with ``regression`` also a
    :class:`~prunekit.RegressionTree` (for a method defined for any additive leaf risk)."""
    if isinstance(tree, Tree) or (regression and isinstance(tree, BinaryTree)):
        return tree
    if isinstance(tree, BinaryTree):
        raise TypeError(
            f"{name} must be a classification Tree for this method, got a "
            f"{type(tree).__name__}; a regression tree is pruned by the methods defined for "
            "any additive leaf risk (cost complexity, its path, cross-validated and "
            "hold-out alpha, reduced error, the best pruning of every size).")
    raise TypeError(f"{name} must be a prunekit Tree, got {type(tree).__name__}.")


def _grow(grower, X, y, classes=None, sample_weight=None) -> Tree:
    """The :class:`Tree` that a copy of the unfitted scikit-learn tree classifier ``grower``
    grows on ``(X, y)`` (:meth:`Tree.from_sklearn`, with ``classes``); ``grower`` itself is
    left unfitted. The one way the library grows a tree with scikit-learn: the tree of
    :class:`~prunekit.PrunedTreeClassifier` and those of the folds of
    :func:`~prunekit.cross_validate_alpha`. With ``sample_weight``, the copy is fitted with
    them and the tree is :attr:`~Tree.weighted`."""
    fitted = clone(grower).fit(X, y, sample_weight=sample_weight)
    if is_regressor(fitted):
        from prunekit.regression_tree import RegressionTree

        return RegressionTree.from_sklearn(fitted, X, y, sample_weight=sample_weight)
    return Tree.from_sklearn(fitted, X, y, classes=classes, sample_weight=sample_weight)


def _as_index_array(values, name: str) -> np.ndarray:
    return check_index_array(values, name)


def _as_children(left, right) -> tuple[np.ndarray, np.ndarray]:
    """The child arrays as index arrays of one length (their structure is checked later)."""
    left = _as_index_array(left, "left")
    right = _as_index_array(right, "right")
    if len(right) != len(left):
        raise ValueError(
            f"left and right must have the same length, got {len(left)} and {len(right)}."
        )
    return left, right


def _as_impurity(impurity, n_nodes: int) -> np.ndarray | None:
    """The grower's impurity of every node, non-negative, or None."""
    if impurity is None:
        return None
    impurity = as_array(impurity, "impurity", ndim=1, dtype=np.float64, what="(n_nodes,)")
    if impurity.shape != (n_nodes,):
        raise ValueError(f"impurity must have one value per node ({n_nodes}), got "
                         f"{impurity.shape[0]}.")
    if np.any(impurity < -1e-6):
        raise ValueError("impurity must be non-negative at every node.")
    # a weighted fit's impurity of a pure node can be -1e-8 after rounding (weights of very
    # different sizes)
    return np.maximum(impurity, 0.0)


def _as_labels(labels, n_nodes: int, n_classes: int, name: str = "labels") -> np.ndarray:
    """One class index in [0, n_classes) per node."""
    labels = check_index_array(labels, name, minimum=0, maximum=n_classes - 1, min_length=0)
    if labels.shape != (n_nodes,):
        raise ValueError(f"{name} must hold one class index per node ({n_nodes}), got "
                         f"{labels.shape[0]}.")
    return labels


def _as_classes(classes, n_classes: int) -> np.ndarray:
    """Sorted distinct class labels, one per column of the counts."""
    classes = as_array(classes, "classes", ndim=1, dtype=None, finite=False, min_length=0)
    if classes.shape != (n_classes,):
        raise ValueError(f"classes must be {n_classes} sorted distinct labels, one per column "
                         f"of counts, got {classes.shape[0]}.")
    if classes.dtype.kind == "f" and not np.all(np.isfinite(classes)):
        raise ValueError("classes must not contain NaN or infinity.")
    try:
        increasing = bool(np.all(classes[1:] > classes[:-1]))
    except TypeError:
        raise TypeError(f"classes must be labels that can be sorted, got "
                        f"{classes.tolist()!r}.") from None
    if not increasing:
        raise ValueError(f"classes must be {n_classes} sorted distinct labels, one per column "
                         f"of counts, got {classes.tolist()!r}.")
    return classes


def _as_counts(counts, n_nodes: int, name: str = "counts", *,
               weighted: bool = False) -> np.ndarray:
    """Non-negative integer class counts, one row per node, that fit in int64; with
    ``weighted``, floats that are not integers are kept as float64 sums of weights."""
    counts = as_array(counts, name, ndim=2, dtype=None, what="(n_nodes, n_classes)")
    if (weighted and counts.dtype.kind == "f"
            and not np.all(counts == np.round(counts))):
        return _as_weighted_counts(counts, n_nodes, name)
    kind = counts.dtype.kind
    if kind == "O":
        values = counts.ravel().tolist()
        if values and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            if max(values) > _INT64_MAX or min(values) < 0:
                raise ValueError(f"{name} must be non-negative integers below 2**63, got "
                                 f"{max(values) if max(values) > _INT64_MAX else min(values)}.")
            counts = counts.astype(np.int64)
            kind = "i"
    if kind == "b":
        raise TypeError(f"{name} must hold integer class counts, got booleans.")
    if kind not in "iuf":
        raise TypeError(f"{name} must hold integer class counts, got dtype {counts.dtype}.")
    if kind == "f" and not np.all(counts == np.round(counts)):
        raise TypeError(f"{name} must hold integer class counts, got non-integer values.")
    if counts.shape[0] != n_nodes:
        raise ValueError(
            f"{name} must have one row per node: shape ({n_nodes}, n_classes), got {counts.shape}."
        )
    if counts.shape[1] == 0:
        raise ValueError(f"{name} must have at least one column (one per class), got "
                         f"shape {counts.shape}.")
    if np.any(counts < 0):
        raise ValueError(f"{name} must be non-negative.")
    if counts.size and counts.max() > _INT64_MAX:
        raise ValueError(f"{name} must be below 2**63 (int64), got {counts.max():.0f}.")
    counts = counts.astype(np.int64)
    total = sum(counts[0].tolist())
    if total > _INT64_MAX:
        raise ValueError(f"{name} add up to {total} examples at the root, more than int64 can "
                         "hold (2**63 - 1).")
    return counts


def _as_weighted_counts(counts: np.ndarray, n_nodes: int, name: str) -> np.ndarray:
    """Non-negative finite sums of weights, one row per node (float64)."""
    if counts.shape[0] != n_nodes or counts.shape[1] == 0:
        raise ValueError(f"{name} must have shape ({n_nodes}, n_classes) with at least one "
                         f"class, got {counts.shape}.")
    if np.any(counts < 0):
        raise ValueError(f"{name} must be non-negative.")
    return counts.astype(np.float64)


def _estimator_weights(estimator, y, sample_weight) -> np.ndarray | None:
    """Each example's weight in a scikit-learn tree's fit: ``sample_weight`` times its
    ``class_weight`` (as ``DecisionTreeClassifier.fit`` combines them), rounded as
    :func:`~prunekit.validation.check_sample_weight` rounds weights, or ``None`` when it has
    neither."""
    class_weight = estimator.get_params().get("class_weight")
    y = np.asarray(y)
    weights = check_sample_weight(sample_weight, len(y))
    if class_weight is None:
        return weights
    from sklearn.utils.class_weight import compute_sample_weight

    by_class = compute_sample_weight(class_weight, y)
    return check_sample_weight(by_class if weights is None else by_class * weights, len(y))


def _check_estimator_proportions(estimator, counts: np.ndarray, classes: np.ndarray) -> None:
    """Refuse an estimator whose class proportions differ from those of the counted sample.

    scikit-learn stores at every node the (weighted) class distribution of the sample it was
    fitted on; when that is not the distribution of ``counts``, its leaf labels are not the
    majority labels of ``counts`` and the tree would predict differently (see
    :meth:`Tree.from_sklearn`).
    """
    value = np.asarray(estimator.tree_.value, dtype=np.float64)[:, 0, :]
    theirs = value / np.maximum(value.sum(axis=1, keepdims=True), np.finfo(float).tiny)
    reached = counts.sum(axis=1)
    columns = np.searchsorted(classes, estimator.classes_)
    ours = counts[:, columns] / np.where(reached > 0, reached, 1)[:, None]
    differ = (reached == 0) | np.any(np.abs(ours - theirs) > 1e-9, axis=1)
    if not differ.any():
        return
    v = int(np.flatnonzero(differ)[0])
    raise ValueError(
        f"(X, y) is not the sample the estimator was fitted on, or not with the same "
        f"sample_weight: at node {v} the estimator's class proportions "
        f"{np.round(theirs[v], 4).tolist()} differ from those of (X, y) "
        f"{np.round(ours[v], 4).tolist()} (total weight {float(reached[v]):g}), so the tree's "
        "majority labels would not be the estimator's. Pass the sample the estimator was "
        "fitted on, with the sample_weight it was fitted with."
    )


def _check_compiled(compiled, left: np.ndarray, right: np.ndarray) -> None:
    """``compiled`` must be scikit-learn's tree with exactly these children."""
    from sklearn.tree._tree import Tree as CompiledTree

    if not isinstance(compiled, CompiledTree):
        raise TypeError(f"compiled must be a scikit-learn tree_ object, got "
                        f"{type(compiled).__name__}.")
    if not (np.array_equal(compiled.children_left, left)
            and np.array_equal(compiled.children_right, right)):
        raise ValueError("compiled must have the same nodes and children as left and right.")


def _check_binary_tree(left: np.ndarray, right: np.ndarray):
    """Check the child arrays describe one binary tree rooted at node 0; return parent, depth, levels."""
    n_nodes = len(left)
    one_child = np.flatnonzero((left == -1) != (right == -1))
    if one_child.size:
        raise ValueError(
            f"node {one_child[0]} has one child; every internal node of a binary tree has two "
            "(left and right are both -1 at a leaf)."
        )
    inner = np.flatnonzero(left != -1)
    children = np.concatenate([left[inner], right[inner]])
    bad = children[(children < 0) | (children >= n_nodes)]
    if bad.size:
        raise ValueError(f"child index {bad[0]} is outside [0, {n_nodes}).")
    if np.any(children == 0):
        raise ValueError("the root (node 0) appears as a child: the structure has a cycle.")
    n_parents = np.bincount(children, minlength=n_nodes)
    shared = np.flatnonzero(n_parents > 1)
    if shared.size:
        raise ValueError(f"node {shared[0]} has {n_parents[shared[0]]} parents; a tree node has one.")
    parent = np.full(n_nodes, -1, dtype=np.intp)
    parent[left[inner]] = inner
    parent[right[inner]] = inner
    depth = np.full(n_nodes, -1, dtype=np.intp)
    levels, frontier = [], np.array([0], dtype=np.intp)
    while frontier.size:
        depth[frontier] = len(levels)
        levels.append(frontier)
        frontier = frontier[left[frontier] != -1]
        frontier = np.concatenate([left[frontier], right[frontier]])
    unreachable = np.flatnonzero(depth < 0)
    if unreachable.size:
        raise ValueError(
            f"nodes {unreachable[:10].tolist()} are not reachable from the root (node 0); "
            "they are disconnected or form a cycle."
        )
    return parent, depth, levels


def _check_count_consistency(counts, left, right, is_leaf, name: str = "counts"):
    inner = np.flatnonzero(~is_leaf)
    from_left = counts[left[inner]]
    below = from_left + counts[right[inner]]
    overflow = inner[np.any(below < from_left, axis=1)]     # int64 wrapped around
    if overflow.size:
        raise ValueError(f"{name} of the children of node {overflow[0]} add up to more than "
                         "int64 can hold (2**63 - 1).")
    if counts.dtype.kind == "f":          # sums of weights: equal up to rounding
        differs = ~np.isclose(counts[inner], below, rtol=1e-9, atol=1e-12)
    else:
        differs = counts[inner] != below
    mismatch = inner[np.any(differs, axis=1)]
    if mismatch.size:
        v = mismatch[0]
        raise ValueError(
            f"{name} of internal node {v} ({counts[v].tolist()}) are not the sum of its "
            f"children's ({counts[left[v]].tolist()} + {counts[right[v]].tolist()})."
        )


def _as_split_rules(feature, threshold, n_features, is_leaf):
    n_nodes = len(is_leaf)
    if feature is None and threshold is None:
        if n_features is not None:
            raise ValueError("n_features is given but feature and threshold are not.")
        return np.full(n_nodes, -1, dtype=np.intp), np.full(n_nodes, np.nan), None
    if feature is None or threshold is None:
        raise ValueError("give both feature and threshold, or neither.")
    feature = _as_index_array(feature, "feature")
    threshold = as_array(threshold, "threshold", ndim=1, dtype=np.float64, finite=False)
    if feature.shape != (n_nodes,) or threshold.shape != (n_nodes,):
        raise ValueError(f"feature and threshold must have one entry per node ({n_nodes}).")
    inner = ~is_leaf
    if inner.any():
        if feature[inner].min() < 0:
            raise ValueError("feature must be a non-negative feature index at every internal node.")
        if np.isnan(threshold[inner]).any():
            raise ValueError("threshold must be a number at every internal node, not NaN (an "
                             "infinite one splits the missing values from the rest, as "
                             "scikit-learn does).")
    needed = int(feature[inner].max()) + 1 if inner.any() else 1
    if n_features is None:
        n_features = needed
    n_features = check_count(n_features, "n_features", minimum=1)
    if n_features < needed:
        raise ValueError(f"n_features={n_features} but feature uses index {needed - 1}.")
    feature = np.where(is_leaf, -1, feature)
    threshold = np.where(is_leaf, np.nan, threshold)
    return feature, threshold, n_features


def _as_missing_directions(missing_go_to_left, reached, left, right, is_leaf) -> np.ndarray:
    """Where a missing value goes at each internal node (False at leaves): the given
    directions, or by default the child with more growing examples, as scikit-learn sends
    missing values at a split that saw none (``n_left > n_right``)."""
    n_nodes = len(left)
    if missing_go_to_left is None:
        goes_left = np.zeros(n_nodes, dtype=bool)
        inner = ~is_leaf
        goes_left[inner] = reached[left[inner]] > reached[right[inner]]
        return goes_left
    goes_left = as_array(missing_go_to_left, "missing_go_to_left", ndim=1, dtype=None,
                         what="(n_nodes,)")
    if goes_left.dtype.kind != "b":
        raise TypeError(f"missing_go_to_left must hold booleans, got dtype {goes_left.dtype}.")
    if goes_left.shape != (n_nodes,):
        raise ValueError(f"missing_go_to_left must have one entry per node ({n_nodes}), got "
                         f"{goes_left.shape[0]}.")
    return goes_left & ~is_leaf


def _check_pruning_mask(tree: Tree, kept: np.ndarray) -> None:
    if not kept[0]:
        raise ValueError("kept must keep the root (node 0).")
    inner = np.flatnonzero(~tree._is_leaf)
    kept_left, kept_right = kept[tree._left[inner]], kept[tree._right[inner]]
    half = inner[kept_left != kept_right]
    if half.size:
        raise ValueError(
            f"kept keeps exactly one child of node {half[0]}; a pruning keeps both or neither."
        )
    orphan = inner[~kept[inner] & kept_left]
    if orphan.size:
        raise ValueError(f"kept keeps the children of node {orphan[0]} but not the node itself.")
