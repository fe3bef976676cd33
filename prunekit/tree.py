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
from collections.abc import Iterator

import numpy as np
from sklearn.base import is_classifier
from sklearn.utils.validation import check_array, check_is_fitted

from prunekit._validation import (
    check_count,
    check_sample_and_labels,
    check_samples,
    encode_labels,
)

__all__ = ["Tree", "Pruning", "all_prunings", "count_prunings", "postorder"]


def _frozen(array: np.ndarray) -> np.ndarray:
    array = np.array(array, copy=True)
    array.flags.writeable = False
    return array


class _Immutable:
    """Attributes are set once, in the constructor; arrays are stored read-only."""

    __slots__ = ()

    def __setattr__(self, name, value):
        raise AttributeError(f"a {type(self).__name__} is immutable; build a new one instead.")

    def __delattr__(self, name):
        raise AttributeError(f"a {type(self).__name__} is immutable.")

    def __getstate__(self):
        return {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, state):
        _restore(self, state)


class Tree(_Immutable):
    """An immutable binary classification tree with its growing-sample class counts.

    Build one with :meth:`from_sklearn` (a fitted scikit-learn tree), :meth:`from_arrays`
    (a hand-built tree, e.g. a textbook example) or prunekit's growers
    (:func:`prunekit.growing.id3`, :func:`prunekit.growing.grow_tree`).

    Attributes
    ----------
    left, right : ndarray of shape (n_nodes,)
        Child indices, ``-1`` at leaves. Node 0 is the root.
    feature : ndarray of shape (n_nodes,)
        Feature tested at each internal node, ``-1`` at leaves.
    threshold : ndarray of shape (n_nodes,)
        A sample goes left when ``x[feature] <= threshold``; ``nan`` at leaves.
    counts : ndarray of shape (n_nodes, n_classes)
        Class counts of the growing sample at every node.
    labels : ndarray of shape (n_nodes,)
        Class index each node predicts when it is a leaf (majority of ``counts`` by default).
    parent : ndarray of shape (n_nodes,)
        Parent index, ``-1`` at the root.
    depth : ndarray of shape (n_nodes,)
        Depth of each node; the root has depth 0.
    classes_ : ndarray of shape (n_classes,)
        The class labels; ``counts`` column k counts label ``classes_[k]``.
    n_features : int
        Number of input features.
    criterion : str or None
        Split criterion of the grower ("gini", "entropy", ...), when known.
    impurity : ndarray of shape (n_nodes,) or None
        The grower's impurity at each node, when known.
    """

    __slots__ = (
        "left", "right", "feature", "threshold", "counts", "labels", "parent", "depth",
        "classes_", "n_features", "criterion", "impurity", "is_leaf", "_levels", "_inner_levels",
        "_dtype", "_compiled",
    )

    def __init__(self, left, right, counts, *, feature=None, threshold=None, labels=None,
                 classes=None, n_features=None, criterion=None, impurity=None,
                 dtype=np.float64, compiled=None):
        left = _as_index_array(left, "left")
        right = _as_index_array(right, "right")
        n_nodes = len(left)
        if len(right) != n_nodes:
            raise ValueError(
                f"left and right must have the same length, got {n_nodes} and {len(right)}."
            )
        counts = _as_counts(counts, n_nodes)
        parent, depth, levels = _check_binary_tree(left, right)
        is_leaf = left == -1
        _check_count_consistency(counts, left, right, is_leaf)
        n_classes = counts.shape[1]
        feature, threshold, n_features = _as_split_rules(feature, threshold, n_features, is_leaf)
        if labels is None:
            labels = np.argmax(counts, axis=1)
        else:
            labels = _as_index_array(labels, "labels")
            if labels.shape != (n_nodes,) or labels.min() < 0 or labels.max() >= n_classes:
                raise ValueError(
                    f"labels must hold one class index in [0, {n_classes}) per node."
                )
        if classes is None:
            classes = np.arange(n_classes)
        else:
            classes = np.asarray(classes)
            if classes.shape != (n_classes,) or np.any(classes[1:] <= classes[:-1]):
                raise ValueError(
                    f"classes must be {n_classes} sorted distinct labels, one per column of counts."
                )
        if impurity is not None:
            impurity = np.asarray(impurity, dtype=float)
            if impurity.shape != (n_nodes,):
                raise ValueError("impurity must have one value per node.")
        values = dict(
            left=left, right=right, feature=feature, threshold=threshold, counts=counts,
            labels=labels, parent=parent, depth=depth, classes_=classes, impurity=impurity,
            is_leaf=is_leaf,
        )
        for name, value in values.items():
            object.__setattr__(self, name, None if value is None else _frozen(value))
        object.__setattr__(self, "n_features", n_features)
        object.__setattr__(self, "criterion", criterion)
        object.__setattr__(self, "_levels", tuple(_frozen(level) for level in levels))
        # internal nodes level by level, deepest first: the order of every bottom-up pass
        object.__setattr__(self, "_inner_levels", tuple(
            _frozen(level[~is_leaf[level]]) for level in reversed(levels) if (~is_leaf[level]).any()))
        object.__setattr__(self, "_dtype", dtype)
        # scikit-learn's compiled tree with the same nodes, when the tree came from one: it
        # routes samples to the leaves in C (see _route)
        object.__setattr__(self, "_compiled", compiled)


    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_arrays(cls, left, right, counts, feature=None, threshold=None, *, labels=None,
                    classes=None, n_features=None) -> "Tree":
        """Build a tree from its arrays, e.g. a hand-built textbook example.

        Parameters
        ----------
        left, right : array-like of int, shape (n_nodes,)
            Child indices, ``-1`` at leaves; node 0 is the root. Every internal node has
            exactly two children, every other node exactly one parent, and every node is
            reachable from the root.
        counts : array-like of shape (n_nodes, n_classes)
            Non-negative integer class counts of the growing sample at every node; an
            internal node's counts are the sum of its children's.
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

        Examples
        --------
        A stump with 3 examples of class 0 on the left and 2 of class 1 on the right:

        >>> t = Tree.from_arrays([1, -1, -1], [2, -1, -1], [[3, 2], [3, 0], [0, 2]])
        >>> t.n_nodes, t.n_leaves
        (3, 2)
        """
        return cls(left, right, counts, feature=feature, threshold=threshold, labels=labels,
                   classes=classes, n_features=n_features)

    @classmethod
    def from_sklearn(cls, estimator, X, y, classes=None) -> "Tree":
        """Convert a fitted scikit-learn tree classifier; counts are taken from ``(X, y)``.

        Parameters
        ----------
        estimator : sklearn.tree.DecisionTreeClassifier or ExtraTreeClassifier
            A fitted single-output classification tree.
        X : array-like of shape (m, d)
            The growing sample (normally the data the estimator was fitted on).
        y : array-like of shape (m,)
            Its labels; every label must be one of ``estimator.classes_``.
        classes : array-like, optional
            The labels to count, sorted; a superset of ``estimator.classes_``. Give the labels
            of the whole data set when the growing sample lacks some of them, so that pruning
            and test examples of those classes are counted (and misclassified) like any other.
            Default: ``estimator.classes_``.

        Notes
        -----
        Samples are compared with the thresholds in float32, as scikit-learn does, so
        :meth:`apply` and :meth:`predict` agree with the estimator exactly.
        """
        if not hasattr(estimator, "fit") or not hasattr(estimator, "get_params"):
            raise TypeError(
                f"estimator must be a scikit-learn tree classifier, got {type(estimator).__name__}."
            )
        if not is_classifier(estimator):
            raise TypeError(
                f"estimator must be a classifier; {type(estimator).__name__} is not "
                "(prunekit prunes classification trees)."
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
            classes = np.asarray(classes)
            if not np.all(np.isin(estimator.classes_, classes)):
                raise ValueError("classes must contain every label of estimator.classes_.")
        shell = cls(
            sk.children_left, sk.children_right, np.zeros((sk.node_count, len(classes)), int),
            feature=np.where(is_leaf, -1, sk.feature),
            threshold=np.where(is_leaf, np.nan, sk.threshold),
            classes=classes, n_features=estimator.n_features_in_,
            dtype=np.float32,
        )
        counts = shell.node_counts(X, y)
        return cls(
            shell.left, shell.right, counts, feature=shell.feature, threshold=shell.threshold,
            classes=shell.classes_, n_features=shell.n_features,
            criterion=getattr(estimator, "criterion", None), impurity=sk.impurity,
            dtype=np.float32, compiled=copy.deepcopy(sk),
        )

    # ------------------------------------------------------------------ sizes
    @property
    def n_nodes(self) -> int:
        """Number of nodes, internal and leaves."""
        return len(self.left)

    @property
    def n_leaves(self) -> int:
        """Number of leaves."""
        return int(self.is_leaf.sum())

    @property
    def n_classes(self) -> int:
        """Number of classes (columns of ``counts``)."""
        return self.counts.shape[1]

    @property
    def max_depth(self) -> int:
        """Depth of the deepest node (a single leaf has depth 0)."""
        return len(self._levels) - 1

    @property
    def n_samples(self) -> int:
        """Size of the growing sample (the root's count)."""
        return int(self.counts[0].sum())

    @property
    def levels(self) -> tuple[np.ndarray, ...]:
        """Node indices grouped by depth: ``levels[k]`` holds the nodes at depth k."""
        return self._levels

    @property
    def inner_levels(self) -> tuple[np.ndarray, ...]:
        """Internal nodes grouped by depth, deepest first: the order of a bottom-up pass."""
        return self._inner_levels

    @property
    def has_split_rules(self) -> bool:
        """Whether the tree carries features and thresholds, so that it can route samples."""
        return self.n_features is not None

    def subtree(self, node: int) -> np.ndarray:
        """Indices of the nodes of the subtree rooted at ``node`` (including it), top-down."""
        node = check_count(node, "node")
        if node >= self.n_nodes:
            raise ValueError(f"node must be below n_nodes={self.n_nodes}, got {node}.")
        found, frontier = [], np.array([node])
        while frontier.size:
            found.append(frontier)
            inner = frontier[~self.is_leaf[frontier]]
            frontier = np.concatenate([self.left[inner], self.right[inner]])
        return np.concatenate(found)

    def __repr__(self) -> str:
        return (f"Tree(n_nodes={self.n_nodes}, n_leaves={self.n_leaves}, "
                f"max_depth={self.max_depth}, n_classes={self.n_classes}, "
                f"n_samples={self.n_samples})")

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
            return leaf if stop is self.is_leaf else self._highest_stop(stop)[leaf]
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
            goes_left = flat[active * n_columns + self.feature[current]] <= self.threshold[current]
            current = np.where(goes_left, self.left[current], self.right[current])
        return reached

    def _highest_stop(self, stop: np.ndarray) -> np.ndarray:
        """For every node, the highest node of ``stop`` on its path from the root (or itself)."""
        highest = np.arange(self.n_nodes)
        for level in self._levels[1:]:
            above = highest[self.parent[level]]
            highest[level] = np.where(stop[above], above, level)
        return highest

    def _check_X(self, X, name="X"):
        self._require_split_rules()
        return check_samples(X, self.n_features, name=name, dtype=self._dtype)

    def _require_split_rules(self):
        if not self.has_split_rules:
            raise ValueError(
                "this tree has no split rules (it was built from counts only), so it cannot "
                "route samples; pass feature and threshold to Tree.from_arrays."
            )

    def apply(self, X) -> np.ndarray:
        """Index of the leaf each row of ``X`` reaches."""
        return self._route(self._check_X(X), self.is_leaf)

    def predict(self, X) -> np.ndarray:
        """Predicted class label of each row of ``X``."""
        return self.classes_[self.labels[self.apply(X)]]

    def error(self, X, y) -> float:
        """Misclassification rate on ``(X, y)``; unseen labels count as errors."""
        return Pruning.full(self).error(X, y)

    def node_counts(self, X, y) -> np.ndarray:
        """Class counts of the sample ``(X, y)`` at every node.

        Parameters
        ----------
        X : array-like of shape (m, d)
        y : array-like of shape (m,)
            Labels; each must be one of ``classes_``.

        Returns
        -------
        ndarray of shape (n_nodes, n_classes)
            ``counts[v, k]`` is the number of examples of class ``classes_[k]`` whose path
            passes through node ``v``: the statistics of Kearns & Mansour (1998), Sec. 3.
        """
        self._require_split_rules()
        X, y = check_sample_and_labels(X, y, self.n_features, dtype=self._dtype)
        codes = encode_labels(y, self.classes_)
        return self.counts_from_leaves(self._route(X, self.is_leaf), codes)

    def counts_from_leaves(self, leaf: np.ndarray, codes: np.ndarray) -> np.ndarray:
        """Per-node class counts from each example's leaf and class index.

        Counts the examples at their leaves, then adds every level into its parents,
        deepest level first: O(m + n_nodes * n_classes).
        """
        K = self.n_classes
        flat = np.bincount(leaf * K + codes, minlength=self.n_nodes * K)
        return self.sum_over_leaves(flat.reshape(self.n_nodes, K))

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
        """
        values = np.array(values, copy=True)
        for inner in self.inner_levels:
            values[inner] = values[self.left[inner]] + values[self.right[inner]]
        return values


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
    """

    __slots__ = ("tree", "kept", "labels", "is_leaf")

    def __init__(self, tree: Tree, kept, labels=None):
        if not isinstance(tree, Tree):
            raise TypeError(f"tree must be a prunekit Tree, got {type(tree).__name__}.")
        kept = check_array(kept, ensure_2d=False, dtype=None, input_name="kept")
        if kept.dtype != bool or kept.shape != (tree.n_nodes,):
            raise ValueError(
                f"kept must be a boolean mask with one entry per node ({tree.n_nodes}), "
                f"got dtype {kept.dtype} and shape {kept.shape}."
            )
        _check_pruning_mask(tree, kept)
        if labels is None:
            labels = tree.labels
        else:
            labels = _as_index_array(labels, "labels")
            if labels.shape != (tree.n_nodes,) or labels.min() < 0 or labels.max() >= tree.n_classes:
                raise ValueError(
                    f"labels must hold one class index in [0, {tree.n_classes}) per node."
                )
        inner = ~tree.is_leaf
        is_leaf = kept.copy()
        is_leaf[inner] &= ~kept[np.where(inner, tree.left, 0)][inner]
        for name, value in dict(kept=kept, labels=labels, is_leaf=is_leaf).items():
            object.__setattr__(self, name, _frozen(value))
        object.__setattr__(self, "tree", tree)


    # ------------------------------------------------------------------ constructors
    @classmethod
    def full(cls, tree: Tree) -> "Pruning":
        """The trivial pruning that keeps the whole tree."""
        return cls(tree, np.ones(tree.n_nodes, dtype=bool))

    @classmethod
    def root_only(cls, tree: Tree) -> "Pruning":
        """The pruning that keeps only the root, as a single leaf."""
        kept = np.zeros(tree.n_nodes, dtype=bool)
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
        """
        collapsed = np.asarray(collapsed)
        if collapsed.dtype != bool:
            idx = (_as_index_array(collapsed.reshape(-1), "collapsed") if collapsed.size
                   else np.zeros(0, dtype=np.intp))
            if idx.size and (idx.min() < 0 or idx.max() >= tree.n_nodes):
                raise ValueError(f"collapsed holds node indices outside [0, {tree.n_nodes}).")
            collapsed = np.zeros(tree.n_nodes, dtype=bool)
            collapsed[idx] = True
        elif collapsed.shape != (tree.n_nodes,):
            raise ValueError(f"collapsed must have one entry per node ({tree.n_nodes}).")
        kept = np.zeros(tree.n_nodes, dtype=bool)
        kept[0] = True
        open_ = kept & ~collapsed  # kept nodes whose children are kept too
        for level in tree.levels[1:]:
            kept[level] = open_[tree.parent[level]]
            open_[level] = kept[level] & ~collapsed[level]
        return cls(tree, kept, labels)

    # ------------------------------------------------------------------ sizes
    @property
    def n_nodes(self) -> int:
        """Number of nodes of the pruning."""
        return int(self.kept.sum())

    @property
    def n_leaves(self) -> int:
        """Number of leaves of the pruning."""
        return int(self.is_leaf.sum())

    @property
    def depth(self) -> int:
        """Depth of the pruning's deepest node."""
        return int(self.tree.depth[self.kept].max())

    @property
    def leaves(self) -> np.ndarray:
        """Indices (in the tree) of the pruning's leaves."""
        return np.flatnonzero(self.is_leaf)

    # ------------------------------------------------------------------ predictions
    def apply(self, X) -> np.ndarray:
        """Index (in the tree) of the pruning leaf each row of ``X`` reaches."""
        return self.tree._route(self.tree._check_X(X), self.is_leaf)

    def predict(self, X) -> np.ndarray:
        """Predicted class label of each row of ``X``."""
        return self.tree.classes_[self.labels[self.apply(X)]]

    def error(self, X, y) -> float:
        """Misclassification rate on ``(X, y)``.

        Labels the growing sample never had are counted as errors: no pruning of the tree
        can predict them.
        """
        tree = self.tree
        tree._require_split_rules()
        X, y = check_sample_and_labels(X, y, tree.n_features, dtype=tree._dtype)
        return float(np.mean(self.predict(X) != y))

    def errors(self, counts=None) -> int:
        """Number of misclassified examples, from per-node class counts.

        Parameters
        ----------
        counts : ndarray of shape (n_nodes, n_classes), optional
            Per-node counts of a sample, e.g. from :meth:`Tree.node_counts`; default the
            growing counts, giving the number of training errors.
        """
        counts = self.tree.counts if counts is None else np.asarray(counts)
        if counts.shape != self.tree.counts.shape:
            raise ValueError(
                f"counts must have shape {self.tree.counts.shape}, got {counts.shape}."
            )
        leaves = self.leaves
        return int(counts[leaves].sum() - counts[leaves, self.labels[leaves]].sum())

    # ------------------------------------------------------------------ comparison
    def _key(self):
        return (id(self.tree), self.kept.tobytes(), self.labels[self.is_leaf].tobytes())

    def __eq__(self, other) -> bool:
        return isinstance(other, Pruning) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Pruning(n_nodes={self.n_nodes}, n_leaves={self.n_leaves}, depth={self.depth}, "
                f"of {self.tree!r})")


def _restore(obj, state: dict) -> None:
    """Set the attributes of an unpickled immutable object, freezing its arrays again."""
    for name, value in state.items():
        if isinstance(value, np.ndarray):
            value = _frozen(value)
        elif isinstance(value, tuple):
            value = tuple(_frozen(v) if isinstance(v, np.ndarray) else v for v in value)
        object.__setattr__(obj, name, value)


# ---------------------------------------------------------------------- enumeration
def postorder(tree: Tree) -> list[int]:
    """The nodes bottom-up: every node after its subtree, the left subtree before the right."""
    order, stack = [], [0]
    left, right = tree.left.tolist(), tree.right.tolist()
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
    """
    number = {}
    for level in reversed(tree.levels):
        for v in level.tolist():
            if tree.is_leaf[v]:
                number[v] = 1
            else:
                number[v] = 1 + number[int(tree.left[v])] * number[int(tree.right[v])]
    return number[node]


def all_prunings(tree: Tree, *, limit: int = 100_000) -> Iterator[Pruning]:
    """Every pruning of ``tree``, by brute-force enumeration (for tests and small examples).

    Parameters
    ----------
    tree : Tree
    limit : int
        Refuse trees with more prunings than this (the number grows exponentially).
    """
    total = count_prunings(tree)
    if total > limit:
        raise ValueError(f"the tree has {total} prunings, more than limit={limit}.")

    def node_sets(v: int) -> list[tuple[int, ...]]:
        if tree.is_leaf[v]:
            return [(v,)]
        lefts, rights = node_sets(int(tree.left[v])), node_sets(int(tree.right[v]))
        return [(v,)] + [(v,) + a + b for a in lefts for b in rights]

    for nodes in node_sets(0):
        kept = np.zeros(tree.n_nodes, dtype=bool)
        kept[list(nodes)] = True
        yield Pruning(tree, kept)


# ---------------------------------------------------------------------- validation helpers
def _as_index_array(values, name: str) -> np.ndarray:
    array = check_array(values, ensure_2d=False, dtype=None, input_name=name)
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {array.shape}.")
    if array.dtype.kind == "f":
        if not np.all(array == np.round(array)):
            raise ValueError(f"{name} must hold integers.")
    elif array.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold integers, got dtype {array.dtype}.")
    return array.astype(np.intp)


def _as_counts(counts, n_nodes: int) -> np.ndarray:
    counts = check_array(counts, dtype=None, ensure_all_finite=True, input_name="counts")
    if counts.dtype.kind not in "iuf" or (counts.dtype.kind == "f" and not np.all(counts == np.round(counts))):
        raise TypeError("counts must hold integer class counts.")
    if counts.shape[0] != n_nodes:
        raise ValueError(
            f"counts must have one row per node: shape ({n_nodes}, n_classes), got {counts.shape}."
        )
    if np.any(counts < 0):
        raise ValueError("counts must be non-negative.")
    return counts.astype(np.int64)


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


def _check_count_consistency(counts, left, right, is_leaf):
    inner = np.flatnonzero(~is_leaf)
    mismatch = inner[np.any(counts[inner] != counts[left[inner]] + counts[right[inner]], axis=1)]
    if mismatch.size:
        v = mismatch[0]
        raise ValueError(
            f"counts of internal node {v} ({counts[v].tolist()}) are not the sum of its "
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
    threshold = check_array(threshold, ensure_2d=False, dtype=np.float64,
                            ensure_all_finite=False, input_name="threshold")
    if feature.shape != (n_nodes,) or threshold.shape != (n_nodes,):
        raise ValueError(f"feature and threshold must have one entry per node ({n_nodes}).")
    inner = ~is_leaf
    if inner.any():
        if feature[inner].min() < 0:
            raise ValueError("feature must be a non-negative feature index at every internal node.")
        if not np.all(np.isfinite(threshold[inner])):
            raise ValueError("threshold must be finite at every internal node.")
    needed = int(feature[inner].max()) + 1 if inner.any() else 1
    if n_features is None:
        n_features = needed
    n_features = check_count(n_features, "n_features", minimum=1)
    if n_features < needed:
        raise ValueError(f"n_features={n_features} but feature uses index {needed - 1}.")
    feature = np.where(is_leaf, -1, feature)
    threshold = np.where(is_leaf, np.nan, threshold)
    return feature, threshold, n_features


def _check_pruning_mask(tree: Tree, kept: np.ndarray) -> None:
    if not kept[0]:
        raise ValueError("kept must keep the root (node 0).")
    inner = np.flatnonzero(~tree.is_leaf)
    kept_left, kept_right = kept[tree.left[inner]], kept[tree.right[inner]]
    half = inner[kept_left != kept_right]
    if half.size:
        raise ValueError(
            f"kept keeps exactly one child of node {half[0]}; a pruning keeps both or neither."
        )
    orphan = inner[~kept[inner] & kept_left]
    if orphan.size:
        raise ValueError(f"kept keeps the children of node {orphan[0]} but not the node itself.")
