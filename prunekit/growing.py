"""Growing decision trees (Chapter 1).

Shalev-Shwartz & Ben-David (2014), ch. 18: the three gain measures of Sec. 18.2.1, ID3
on binary features, and threshold splits for real-valued features found with one sort per
feature (Sec. 18.2.3, O(d m log m)). The generic pruning procedure of their Sec. 18.2.2 is in
:mod:`prunekit.bottom_up_pruning`.

A grower's impurity function is its ``criterion``, with scikit-learn's values (``"gini"``,
``"entropy"`` and its synonym ``"log_loss"``) and the book's ``"train_error"``, or a callable
(:data:`IMPURITY_FUNCTIONS`). Until 0.4 the former keyword ``measure=`` and the former value
``"information"`` (the entropy) still work, with a ``DeprecationWarning``.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Callable

import numpy as np
from sklearn.utils.multiclass import type_of_target

from prunekit._deprecation import REMOVAL, moved_names, renamed_parameter
from prunekit.validation import (
    as_array,
    check_count,
    check_labels,
    check_numbers,
    check_sample_and_labels,
    is_binary,
)
from prunekit.impurity import (
    _RENAMED_CRITERIA,
    _renamed_criterion,
    class_proportions,
    entropy,
    gini,
    train_error_impurity,
    unchecked,
)
from prunekit.tree import Tree, check_tree

__all__ = [
    "train_error_impurity", "entropy", "gini", "IMPURITY_FUNCTIONS", "gain", "id3",
    "Split", "best_threshold_split", "best_split_by_sorting", "best_squared_error_split",
    "best_candidate", "midpoints", "grow_tree",
    "SplitAgreement", "compare_splits",
]

# The pruning template moved to prunekit.bottom_up_pruning; it stays here, deprecated, until
# version 0.4.
__getattr__ = moved_names("prunekit.growing", {"bottom_up_prune": "prunekit.bottom_up_pruning",
                                               "TemplateStep": "prunekit.bottom_up_pruning"})


# ---------------------------------------------------------------------- gain measures
class _ImpurityFunctions(dict):
    """A dict whose former key ``"information"`` still reads the entropy's function, with a
    ``DeprecationWarning``, until 0.4 (it is not listed: iteration gives the criteria)."""

    def __missing__(self, key):
        if isinstance(key, str) and key in _RENAMED_CRITERIA:
            new = _RENAMED_CRITERIA[key]
            warnings.warn(f"IMPURITY_FUNCTIONS[{key!r}] is deprecated; write "
                          f"IMPURITY_FUNCTIONS[{new!r}]. {key!r} will stop working in "
                          f"{REMOVAL}.", DeprecationWarning, stacklevel=2)
            return self[new]
        raise KeyError(key)


IMPURITY_FUNCTIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = _ImpurityFunctions({
    "train_error": train_error_impurity,
    "entropy": entropy,
    "gini": gini,
})
"""The functions C of the three gain measures of Shalev-Shwartz & Ben-David (2014), Sec. 18.2.1,
by ``criterion``: the training error, the entropy (whose gain is the information gain) and the
Gini index. The growers also take ``"log_loss"``, scikit-learn's synonym of ``"entropy"``."""

# Other names of the functions of IMPURITY_FUNCTIONS, as scikit-learn accepts them.
_CRITERION_SYNONYMS = {"log_loss": "entropy"}


def _criterion_function(criterion) -> Callable[[np.ndarray], np.ndarray]:
    """The function C for ``criterion``: the library's own without re-validating the
    proportions it computes, a user's callable with its results checked."""
    if callable(criterion):
        return unchecked(criterion) or _checked_criterion(criterion)
    criterion = _renamed_criterion(criterion)
    if isinstance(criterion, str):
        criterion = _CRITERION_SYNONYMS.get(criterion, criterion)
    if not isinstance(criterion, str) or criterion not in IMPURITY_FUNCTIONS:
        names = sorted([*IMPURITY_FUNCTIONS, *_CRITERION_SYNONYMS])
        raise ValueError(f"criterion must be one of {names} or a callable, got {criterion!r}.")
    return unchecked(IMPURITY_FUNCTIONS[criterion])


def _criterion_name(criterion) -> str:
    """The name a grown tree keeps of its criterion (:attr:`Tree.criterion`): the string
    given (the former ``"information"`` as ``"entropy"``), or a callable's name."""
    if isinstance(criterion, str):
        return _RENAMED_CRITERIA.get(criterion, criterion)
    return getattr(criterion, "__name__", "custom")


def _checked_criterion(function):
    """Wrap a user's C so that a result of the wrong shape, or NaN, names ``criterion``."""
    def C(p):
        try:
            value = np.asarray(function(p), dtype=np.float64)
        except (TypeError, ValueError) as error:
            raise TypeError(f"criterion must return numbers, one per row of proportions; it "
                            f"failed or returned something else ({error}).") from None
        if value.shape != p.shape[:-1]:
            raise ValueError(f"criterion must return one value per row of proportions: given "
                             f"shape {p.shape}, it returned shape {value.shape}.")
        if np.any(np.isnan(value)):
            raise ValueError("criterion returned NaN; it must return a number for every row of "
                             "proportions (including all-zero rows, the empty side of a split).")
        return value
    C.__name__ = getattr(function, "__name__", "custom")
    return C


# The growers' impurity, formerly "measure" (removed in 0.4).
_renamed_measure = renamed_parameter("measure", "criterion")


@_renamed_measure
def gain(left_counts, right_counts, criterion="entropy") -> np.ndarray:
    """Gain(S, i) of a split, from the class counts on its two sides (Sec. 18.2.1).

    Gain = C(P_S[y]) - (P_S[left] C(P_S[y | left]) + P_S[right] C(P_S[y | right])).

    Parameters
    ----------
    left_counts, right_counts : array-like of shape (..., K)
        Class counts of the examples sent to each side; leading axes broadcast, so all the
        candidate splits of a node are scored in one call.
    criterion : {"entropy", "log_loss", "gini", "train_error"} or callable, default "entropy"
        The function C (:data:`IMPURITY_FUNCTIONS`), applied to class proportions along the
        last axis: the default gives the information gain, in nats.

    Returns
    -------
    ndarray of shape (...)

    Examples
    --------
    A split into pure sides gains the node's whole entropy, log 2:

    >>> import prunekit as pk
    >>> round(float(pk.growing.gain([4, 0], [0, 4])), 4)
    0.6931
    >>> left, right = [[4, 0], [3, 1]], [[0, 4], [1, 3]]   # two splits
    >>> pk.growing.gain(left, right, criterion="gini").tolist()
    [0.5, 0.125]
    """
    C = _criterion_function(criterion)
    left_counts = _class_counts(left_counts, "left_counts")
    right_counts = _class_counts(right_counts, "right_counts")
    try:
        np.broadcast_shapes(left_counts.shape, right_counts.shape)
    except ValueError:
        raise ValueError(f"left_counts and right_counts must have shapes that broadcast "
                         f"together, with the classes on the last axis; got "
                         f"{left_counts.shape} and {right_counts.shape}.") from None
    if left_counts.shape[-1] != right_counts.shape[-1]:
        raise ValueError(f"right_counts must have as many classes (last axis) as "
                         f"left_counts, got {right_counts.shape[-1]} and "
                         f"{left_counts.shape[-1]}.")
    return _gain(left_counts, right_counts, C)


def _gain(left_counts: np.ndarray, right_counts: np.ndarray, C,
          total: np.ndarray | None = None) -> np.ndarray:
    """:func:`gain` of class counts the library computed itself, with the function C of
    :func:`_criterion_function`: nothing is checked (the growers call it for every node they
    split).

    ``total``, the class counts of the node when every candidate split divides the same
    node (``left_counts + right_counts`` equal to it on every row), lets C(P_S[y]) be
    computed once instead of once per candidate; the gains are the same numbers.
    """
    left_counts = left_counts.astype(np.float64, copy=False)
    right_counts = right_counts.astype(np.float64, copy=False)
    n_left = left_counts.sum(axis=-1)
    n_right = right_counts.sum(axis=-1)
    n = np.maximum(n_left + n_right, 1)
    if total is None:
        total = left_counts + right_counts
    parent = C(class_proportions(np.asarray(total, dtype=np.float64)))
    children = (n_left * C(class_proportions(left_counts))
                + n_right * C(class_proportions(right_counts))) / n
    return parent - children


def _class_counts(counts, name: str) -> np.ndarray:
    """Class counts along the last axis: finite numbers >= 0, at least one axis."""
    if isinstance(counts, (bool, np.bool_)) or np.ndim(counts) == 0:
        raise TypeError(f"{name} must be an array of class counts of shape (..., K), got "
                        f"{type(counts).__name__} {counts!r}.")
    counts = as_array(counts, name, ndim=np.ndim(counts), dtype=np.float64, min_length=0,
                      what="(..., K)")
    if counts.size and counts.min() < 0:
        raise ValueError(f"{name} must be non-negative class counts.")
    return counts


# ---------------------------------------------------------------------- building trees
class _TreeBuilder:
    """Collects nodes in preorder (left subtree first) and returns a :class:`Tree`."""

    def __init__(self, n_classes: int):
        self.n_classes = n_classes
        self.left, self.right, self.feature, self.threshold, self.counts = [], [], [], [], []

    def add(self, counts=()) -> int:
        """A new leaf with the class ``counts`` (none for a regression tree); its index."""
        self.left.append(-1)
        self.right.append(-1)
        self.feature.append(-1)
        self.threshold.append(np.nan)
        self.counts.append(counts)
        return len(self.left) - 1

    def split(self, node: int, feature: int, threshold: float, left: int, right: int):
        self.feature[node], self.threshold[node] = feature, threshold
        self.left[node], self.right[node] = left, right

    def tree(self, classes, n_features, criterion, dtype=np.float64) -> Tree:
        counts = np.array(self.counts, dtype=np.int64).reshape(-1, self.n_classes)
        return Tree(self.left, self.right, counts, feature=self.feature,
                    threshold=self.threshold, classes=classes, n_features=n_features,
                    criterion=criterion, dtype=dtype)


def _check_growing_data(X, y, dtype=np.float64):
    X = _check_growing_sample(X, dtype)
    y = check_labels(y, X.shape[0])
    kind = type_of_target(y)
    if kind not in ("binary", "multiclass"):
        raise ValueError(f"y must hold class labels, but its values look {kind} "
                         f"(e.g. {y[:3].tolist()!r}); grow a regression tree with "
                         f"criterion=\"squared_error\".")
    classes, codes = np.unique(y, return_inverse=True)
    return X, codes, classes


def _check_growing_sample(X, dtype) -> np.ndarray:
    """A sample prunekit's growers split: finite numbers, at least one feature."""
    X = as_array(X, "X", ndim=2, dtype=dtype, what="(n_samples, n_features)", finite=False)
    if X.dtype.kind == "f" and np.isnan(X).any():
        raise ValueError("X contains NaN (a missing value); prunekit's own growers split on "
                         "numbers only. Grow with scikit-learn, which learns where missing "
                         "values go (PrunedTreeClassifier does, or Tree.from_sklearn of a "
                         "fitted DecisionTreeClassifier), or impute them first.")
    if X.dtype.kind == "f" and np.isinf(X).any():
        raise ValueError("X contains infinity; every value must be finite.")
    if X.shape[1] == 0:
        raise ValueError("X has 0 features; at least one is needed to grow a tree.")
    return X


def _max_depth(max_depth):
    return np.inf if max_depth is None else check_count(max_depth, "max_depth")


@_renamed_measure
def id3(X, y, criterion="entropy", max_depth=None) -> Tree:
    """ID3 on binary features (Shalev-Shwartz & Ben-David 2014, Sec. 18.2).

    ``ID3(S, A)`` returns a leaf when S is pure or no feature of A is left; otherwise it
    splits on ``j = argmax_{i in A} Gain(S, i)`` and recurses on both sides with A minus j.

    Parameters
    ----------
    X : array-like of shape (m, d), values in {0, 1}
    y : array-like of shape (m,)
        Class labels (two or more classes).
    criterion : {"entropy", "log_loss", "gini", "train_error"} or callable, default "entropy"
        The gain measure's function C (see :func:`gain`); the default's gain is the
        information gain.
    max_depth : int or None
        Stop splitting at this depth (None: grow until pure or out of features).

    Returns
    -------
    Tree
        A sample goes left when x_j = 0 (threshold 0.5), right when x_j = 1.

    Notes
    -----
    A feature that is constant on S cannot split it (one side would be empty), so it is not
    a candidate; if no feature of A splits S, the node is a leaf. This keeps every internal
    node with two non-empty children, as the chapter's footnote assumes. Ties in the argmax
    go to the smallest feature index.

    The tree is grown one depth at a time, every node of a depth in one pass of array
    operations; its nodes, splits and counts are those of the recursion above, numbered in
    preorder (5 times faster on 32,000 examples of 16 features than node by node).

    Examples
    --------
    The noisy formula x0 x1 or x2 x3 x4: the root splits on x0, its children on x2 and x1.

    >>> import prunekit as pk
    >>> X, y = pk.datasets.make_boolean_dnf(200, random_state=0)
    >>> tree = pk.id3(X, y, max_depth=2)
    >>> tree.feature.tolist(), tree.error(X, y)
    ([0, 2, -1, -1, 1, -1, -1], 0.195)
    """
    X, codes, classes = _check_growing_data(X, y)
    if not is_binary(X):
        raise ValueError("X must hold binary features (0 or 1) for ID3; use grow_tree for "
                         "real values.")
    C = _criterion_function(criterion)
    max_depth = _max_depth(max_depth)
    levels = _id3_levels(X == 1, codes, len(classes), C, max_depth)
    left, right, feature, counts = _preorder(*levels)
    return Tree(left, right, counts, feature=feature,
                threshold=np.where(feature >= 0, 0.5, np.nan), classes=classes,
                n_features=X.shape[1], criterion=_criterion_name(criterion))


# The class counts of at most this many (node, feature, class) triples are held at once.
_ID3_BLOCK = 1 << 21


def _id3_levels(ones: np.ndarray, codes: np.ndarray, n_classes: int, C, max_depth):
    """ID3 grown one depth at a time: every node of a depth is split in one pass.

    ``ones`` is the boolean sample (x_j = 1) and ``codes`` the labels as 0..K-1. A node's
    gains are the numbers :func:`id3` computed node by node (the same operations on the same
    class counts, in blocks of nodes), so the splits are identical. Returns, in breadth-first
    order, each node's children (-1 at a leaf), split feature (-1 at a leaf) and class counts.
    """
    m, d = ones.shape
    K = n_classes
    node_of_row = np.zeros(m, dtype=np.intp)      # the row's node in the current depth, or -1
    free = np.ones((1, d), dtype=bool)            # the features a node may still split on
    first = 0                                     # breadth-first index of the depth's node 0
    left, right, feature, counts = [], [], [], []
    depth = 0
    while free.shape[0]:
        n = free.shape[0]
        rows = np.flatnonzero(node_of_row >= 0)
        nodes, labels = node_of_row[rows], codes[rows]
        total = np.bincount(nodes * K + labels, minlength=n * K).reshape(n, K)
        best = np.full(n, -1)
        if depth < max_depth:
            grow = np.flatnonzero((np.count_nonzero(total, axis=1) > 1) & free.any(axis=1))
            per_block = max(1, _ID3_BLOCK // (d * K))
            for block in np.array_split(grow, range(per_block, grow.size, per_block)):
                best[block] = _id3_best_features(ones, rows, nodes, labels, block,
                                                 total, free, K, C)
        split = np.flatnonzero(best >= 0)
        child = np.full(n, -1)
        child[split] = first + n + 2 * np.arange(split.size)
        left.append(child)
        right.append(np.where(child >= 0, child + 1, -1))
        feature.append(best)
        counts.append(total)
        # the rows of each split node go to its left (x_j = 0) or right child
        at = np.full(n, -1)
        at[split] = 2 * np.arange(split.size)
        node_of_row[:] = -1
        moving = at[nodes] >= 0
        rows, nodes = rows[moving], nodes[moving]
        node_of_row[rows] = at[nodes] + ones[rows, best[nodes]]
        free = np.repeat(free[split], 2, axis=0)
        free[np.arange(free.shape[0]), np.repeat(best[split], 2)] = False
        first += n
        depth += 1
    return (np.concatenate(left), np.concatenate(right), np.concatenate(feature),
            np.concatenate(counts))


def _id3_best_features(ones, rows, nodes, labels, block, total, free, K, C):
    """The feature ID3 splits each node of ``block`` on (the first of the largest gains
    among the features that split it), or -1 where none splits it."""
    d = ones.shape[1]
    position = np.full(total.shape[0], -1)
    position[block] = np.arange(block.size)
    inside = position[nodes] >= 0
    r, j = np.nonzero(ones[rows[inside]])
    key = (position[nodes[inside]][r] * d + j) * K + labels[inside][r]
    ones_counts = np.bincount(key, minlength=block.size * d * K).reshape(
        block.size, d, K).astype(np.float64)
    node_total = total[block][:, None, :]
    zeros_counts = node_total - ones_counts
    splits = free[block] & (ones_counts.sum(axis=2) > 0) & (zeros_counts.sum(axis=2) > 0)
    gains = np.where(splits, _gain(zeros_counts, ones_counts, C, node_total), -np.inf)
    return np.where(splits.any(axis=1), np.argmax(gains, axis=1), -1)


def _preorder(left, right, feature, counts):
    """Renumber a tree given in breadth-first order in preorder (left subtree first), the
    order of :class:`Tree`."""
    order, stack = [], [0]
    while stack:
        node = stack.pop()
        order.append(node)
        if left[node] >= 0:
            stack += [right[node], left[node]]
    order = np.asarray(order)
    rank = np.empty(order.size + 1, dtype=np.intp)
    rank[order] = np.arange(order.size)
    rank[-1] = -1                                   # a leaf's child -1 stays -1
    return rank[left[order]], rank[right[order]], feature[order], counts[order]


@dataclass(frozen=True)
class Split:
    """The best threshold split of a sample: go left when ``x[feature] <= threshold``.

    Attributes
    ----------
    feature : int
        Feature index, or -1 when no feature can split the sample.
    threshold : float
    gain : float
        Gain of the split (see :func:`gain`).
    n_best : int
        How many candidate splits reach that gain (1 means the split is unambiguous).
    """

    feature: int
    threshold: float
    gain: float
    n_best: int


@_renamed_measure
def best_threshold_split(X, y, criterion="gini", min_samples_leaf: int = 1) -> Split:
    """The best split ``1[x_i <= theta]`` over all features and thresholds (Sec. 18.2.3).

    Each feature is sorted once; one cumulative sum of the sorted one-hot labels then gives
    the class counts on both sides of every threshold, so all m - 1 thresholds of all d
    features are scored together: O(d m log m) time instead of the O(d m^2) of scoring each
    of the dm binary features separately.

    Thresholds lie halfway between consecutive distinct values, computed as scikit-learn
    does (``a/2 + b/2`` in double precision), so on data without ties in the gains the
    split is the one scikit-learn's best splitter chooses.

    Parameters
    ----------
    X : array-like of shape (m, d)
    y : array-like of shape (m,)
    criterion : {"gini", "entropy", "log_loss", "train_error"} or callable, default "gini"
        The function C of the gain (see :func:`gain`).
    min_samples_leaf : int, default 1
        Each side must keep at least this many examples.

    Returns
    -------
    Split

    Examples
    --------
    >>> import prunekit as pk
    >>> X = [[1.0, 5.0], [2.0, 1.0], [3.0, 4.0], [4.0, 2.0]]
    >>> pk.growing.best_threshold_split(X, ["a", "a", "b", "b"])
    Split(feature=0, threshold=2.5, gain=0.5, n_best=1)
    """
    X, codes, classes = _check_growing_data(X, y)
    min_samples_leaf = check_count(min_samples_leaf, "min_samples_leaf", minimum=1)
    return best_split_by_sorting(X, np.eye(len(classes), dtype=np.int64)[codes],
                                 _criterion_function(criterion), min_samples_leaf)


def best_split_by_sorting(X: np.ndarray, onehot: np.ndarray, C,
                          min_samples_leaf: int) -> Split:
    """The best threshold split of a node, each feature sorted once
    (Shalev-Shwartz & Ben-David 2014, Sec. 18.2.3): the core of
    :func:`best_threshold_split`.

    ``X`` is the node's (m, d) sample, ``onehot`` its (m, K) one-hot labels
    and ``C`` the impurity of a vector of class proportions; splits leaving
    fewer than ``min_samples_leaf`` examples on a side are skipped. Ties go
    to the first feature, then the first position, as a splitter scanning
    them in order would take them.
    """
    min_samples_leaf = check_count(min_samples_leaf, "min_samples_leaf",
                                   minimum=1)
    m = X.shape[0]
    order = np.argsort(X, axis=0, kind="stable")           # (m, d)
    values = np.take_along_axis(X, order, axis=0)          # sorted values
    # (m-1, d, K): class counts at or below each sorted position
    left = np.cumsum(onehot[order], axis=0)[:-1]
    right = onehot.sum(axis=0) - left
    position = np.arange(1, m)[:, None]
    valid = ((values[1:] > values[:-1])
             & (position >= min_samples_leaf)
             & (m - position >= min_samples_leaf))
    if not valid.any():
        return Split(-1, np.nan, 0.0, 0)
    gains = np.where(valid, _gain(left, right, C), -np.inf)
    return best_candidate(gains, values)


def best_candidate(gains: np.ndarray, values: np.ndarray) -> Split:
    """The split of largest gain among the candidates of a node.

    ``gains[p, j]`` is the gain of splitting feature j between its
    sorted values ``values[p, j]`` and ``values[p + 1, j]`` (-inf where
    that is not allowed). Ties go to the first feature, then the first
    position, as a splitter scanning them in order would take them; the
    threshold is the midpoint (:func:`midpoints`).

    Parameters
    ----------
    gains : ndarray of shape (m - 1, d)
    values : ndarray of shape (m, d)
        Each feature's values, sorted.

    Returns
    -------
    Split
        Feature -1 when no candidate is allowed.
    """
    gains = as_array(gains, "gains", ndim=2, dtype=np.float64,
                     what="(m - 1, d)", finite=False)
    values = as_array(values, "values", ndim=2, dtype=np.float64,
                      what="(m, d)")
    if values.shape != (gains.shape[0] + 1, gains.shape[1]):
        raise ValueError("values must have one more row than gains and "
                         "as many columns; got shapes "
                         f"{values.shape} and {gains.shape}.")
    if gains.size == 0 or not np.any(gains > -np.inf):
        return Split(-1, np.nan, 0.0, 0)
    best_gain = gains.max()
    n_best = int(np.count_nonzero(gains >= best_gain - 1e-12))
    flat = int(np.argmax(gains.T))
    feature, pos = divmod(flat, gains.shape[0])
    threshold = midpoints(values[pos, feature], values[pos + 1, feature])
    return Split(int(feature), float(threshold), float(best_gain), n_best)


def best_squared_error_split(X: np.ndarray, y: np.ndarray, min_samples_leaf: int) -> Split:
    """The threshold split of a node that most decreases its sum of squared errors.

    Breiman et al.'s (1984, ch. 8) split of a regression tree, found as
    :func:`best_split_by_sorting` finds a classification split: each feature sorted once,
    and the targets' cumulative sums give both sides' sums at every threshold. With the
    targets centred on the node's mean (which keeps the sums small), a split into sides of
    sizes n_L, n_R with sums s_L, s_R decreases the sum of squared errors by
    s_L^2 / n_L + s_R^2 / n_R (Chapter 11, Proposition 11.1); ``gain`` is that decrease over m.

    Parameters
    ----------
    X : ndarray of shape (m, d)
        The node's sample.
    y : ndarray of shape (m,)
        Its targets.
    min_samples_leaf : int
        Each side must keep at least this many examples.

    Returns
    -------
    Split
    """
    min_samples_leaf = check_count(min_samples_leaf, "min_samples_leaf", minimum=1)
    m = X.shape[0]
    order = np.argsort(X, axis=0, kind="stable")
    values = np.take_along_axis(X, order, axis=0)
    centred = y - y.mean()
    sums = np.cumsum(centred[order], axis=0)[:-1]          # (m-1, d): left sides' sums
    n_left = np.arange(1, m)[:, None]
    n_right = m - n_left
    valid = ((values[1:] > values[:-1]) & (n_left >= min_samples_leaf)
             & (n_right >= min_samples_leaf))
    if not valid.any():
        return Split(-1, np.nan, 0.0, 0)
    decrease = sums**2 / n_left + (centred.sum() - sums) ** 2 / n_right
    return best_candidate(np.where(valid, decrease / m, -np.inf), values)


def midpoints(low, high):
    """The thresholds between values ``low < high``, as scikit-learn computes
    them: ``low/2 + high/2`` in double precision, or ``low`` where that rounds
    up to ``high`` (elementwise on arrays)."""
    low, high = check_numbers(low, "low"), check_numbers(high, "high")
    middle = low / 2.0 + high / 2.0
    return np.where((middle >= high) | ~np.isfinite(middle), low, middle)


@_renamed_measure
def grow_tree(X, y, criterion="gini", max_depth=None, min_samples_leaf: int = 1) -> Tree:
    """Grow a tree with threshold splits on real-valued features (Sec. 18.2.3).

    Every node takes :func:`best_threshold_split` of the examples that reach it, until the
    node is pure, ``max_depth`` is reached, or no split keeps ``min_samples_leaf`` examples
    on each side. Features are compared in float32, as scikit-learn does, so on data
    without ties the tree equals ``DecisionTreeClassifier(criterion=...)``'s. With
    ``criterion="squared_error"`` the targets are numbers and the tree is a regression
    tree, split by :func:`best_squared_error_split` until its targets are equal, as
    ``DecisionTreeRegressor``'s.

    Parameters
    ----------
    X : array-like of shape (m, d)
    y : array-like of shape (m,)
    criterion : {"gini", "entropy", "log_loss", "train_error", "squared_error"} or callable, \
default "gini"
        The function C of the gain (see :func:`gain`), as scikit-learn's ``criterion``;
        ``"squared_error"`` grows a :class:`~prunekit.RegressionTree`.
    max_depth : int or None
    min_samples_leaf : int, default 1

    Returns
    -------
    Tree or RegressionTree

    Examples
    --------
    >>> import prunekit as pk
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> tree = pk.grow_tree(X, y, max_depth=2)
    >>> tree.n_leaves, round(tree.error(X, y), 2)
    (3, 0.04)
    """
    if isinstance(criterion, str) and criterion == "squared_error":
        return _grow_regression_tree(X, y, max_depth, min_samples_leaf)
    X, codes, classes = _check_growing_data(X, y, dtype=np.float32)
    C = _criterion_function(criterion)
    max_depth = _max_depth(max_depth)
    min_samples_leaf = check_count(min_samples_leaf, "min_samples_leaf", minimum=1)
    onehot = np.eye(len(classes), dtype=np.int64)[codes]
    builder = _TreeBuilder(len(classes))

    def add_node(rows: np.ndarray) -> tuple[int, bool]:
        total = onehot[rows].sum(axis=0)
        return builder.add(total), np.count_nonzero(total) <= 1

    def best_split(rows: np.ndarray) -> Split:
        return best_split_by_sorting(X[rows].astype(np.float64), onehot[rows], C,
                                     min_samples_leaf)

    _grow_depth_first(X, builder, add_node, best_split, max_depth, min_samples_leaf)
    return builder.tree(classes, X.shape[1], _criterion_name(criterion), dtype=np.float32)


def _grow_depth_first(X: np.ndarray, builder: _TreeBuilder, add_node, best_split,
                      max_depth, min_samples_leaf: int) -> None:
    """Grow a tree into ``builder`` from the root, depth first: the recursion of
    :func:`grow_tree`'s classification and regression growers.

    ``add_node(rows)`` adds the node of the examples ``rows`` and says whether
    it is pure; a node that is pure, at ``max_depth``, or too small for two
    leaves of ``min_samples_leaf`` examples stays a leaf, as does one where
    ``best_split(rows)`` finds no split (feature -1). Otherwise the examples
    with ``X[:, feature] <= threshold`` go to the left child.
    """
    def grow(rows: np.ndarray, depth: int) -> int:
        node, pure = add_node(rows)
        if pure or depth >= max_depth or len(rows) < 2 * min_samples_leaf:
            return node
        split = best_split(rows)
        if split.feature < 0:
            return node
        goes_left = X[rows, split.feature] <= split.threshold
        left = grow(rows[goes_left], depth + 1)
        right = grow(rows[~goes_left], depth + 1)
        builder.split(node, split.feature, split.threshold, left, right)
        return node

    grow(np.arange(X.shape[0]), 0)


def _grow_regression_tree(X, y, max_depth, min_samples_leaf: int):
    """:func:`grow_tree` with ``criterion="squared_error"``: a :class:`RegressionTree`."""
    from prunekit.regression_tree import RegressionTree, check_targets

    X = _check_growing_sample(X, np.float32)
    if len(X) == 0:
        raise ValueError("X has no samples; at least one is needed to grow a tree.")
    y = check_targets(y, len(X))
    max_depth = _max_depth(max_depth)
    min_samples_leaf = check_count(min_samples_leaf, "min_samples_leaf", minimum=1)
    builder = _TreeBuilder(0)       # the structure only: the moments come from (X, y)

    def add_node(rows: np.ndarray) -> tuple[int, bool]:
        target = y[rows]
        return builder.add(), bool(np.all(target == target[0]))

    def best_split(rows: np.ndarray) -> Split:
        return best_squared_error_split(X[rows].astype(np.float64), y[rows],
                                        min_samples_leaf)

    _grow_depth_first(X, builder, add_node, best_split, max_depth, min_samples_leaf)
    return RegressionTree.from_arrays(builder.left, builder.right, feature=builder.feature,
                                      threshold=builder.threshold, X=X, y=y,
                                      n_features=X.shape[1])


@dataclass(frozen=True)
class SplitAgreement:
    """How two trees grown on the same sample compare, node by node (see :func:`compare_splits`).

    Attributes
    ----------
    identical : bool
        Same structure, features and thresholds everywhere.
    n_agreeing : int
        Number of nodes visited (in preorder) before the first difference.
    first_difference : int or None
        Index (in the first tree) of the first node where the two disagree.
    tied : bool or None
        Whether, at that node, the best gain is reached by more than one split -- the only
        situation in which two exact best-split searches may legitimately differ.
    """

    identical: bool
    n_agreeing: int
    first_difference: int | None
    tied: bool | None


@_renamed_measure
def compare_splits(tree: Tree, other: Tree, X, y, criterion="gini",
                   min_samples_leaf: int = 1) -> SplitAgreement:
    """Walk two trees grown on ``(X, y)`` together and report where their splits first differ.

    Parameters
    ----------
    tree, other : Tree
        E.g. :func:`grow_tree`'s tree and ``Tree.from_sklearn`` of a scikit-learn tree.
    X, y : array-like
        The growing sample of both.
    criterion, min_samples_leaf
        The settings both were grown with, used to check the first differing node for ties.

    Examples
    --------
    scikit-learn's tree and :func:`grow_tree`'s differ only where two splits tie:

    >>> import prunekit as pk
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> clf = DecisionTreeClassifier().fit(X, y)
    >>> sk = pk.Tree.from_sklearn(clf, X, y)
    >>> mine = pk.grow_tree(X, y)
    >>> agreement = pk.growing.compare_splits(mine, sk, X, y)
    >>> agreement.identical or agreement.tied
    True
    """
    check_tree(tree)
    check_tree(other, "other")
    tree.require_split_rules()
    other.require_split_rules()
    if other.n_features != tree.n_features:
        raise ValueError(f"other must be grown on the same features as tree: it has "
                         f"{other.n_features} features, tree has {tree.n_features}.")
    criterion = _renamed_criterion(criterion)          # warn once, not at every node
    _criterion_function(criterion)
    min_samples_leaf = check_count(min_samples_leaf, "min_samples_leaf", minimum=1)
    X, y = check_sample_and_labels(X, y, tree.n_features, dtype=np.float32)
    stack, visited = [(0, 0, np.arange(X.shape[0]))], 0
    while stack:
        a, b, rows = stack.pop()
        same_rule = tree.feature[a] == other.feature[b] and (
            tree.is_leaf[a] or tree.threshold[a] == other.threshold[b])
        if not same_rule:
            split = best_threshold_split(X[rows], y[rows], criterion, min_samples_leaf)
            return SplitAgreement(False, visited, int(a), split.n_best > 1)
        visited += 1
        if not tree.is_leaf[a]:
            goes_left = X[rows, tree.feature[a]] <= tree.threshold[a]
            stack.append((tree.right[a], other.right[b], rows[~goes_left]))
            stack.append((tree.left[a], other.left[b], rows[goes_left]))
    return SplitAgreement(True, visited, None, None)
