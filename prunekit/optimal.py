"""Optimal decision trees: the pruning objectives minimised over every tree of bounded depth.

Pruning searches the prunings of one greedily grown tree; an optimal tree algorithm searches
*every* tree of depth at most D over a fixed set of binary features
(Aglin, Nijssen & Schaus 2020, DL8.5; Demirović et al. 2022, MurTree; van der Linden,
de Weerdt & Demirović 2023, STreeD). The objective here is Breiman et al.'s cost-complexity

    R_alpha(T) = R(T) + alpha |T~|,

with R(T) the training errors of T's leaves divided by the sample size m, in exactly the units
of :func:`prunekit.cost_complexity` (``risk="error"``), so the optimum over all trees and the
best pruning of a greedy tree can be compared number for number (:func:`penalized_risk`
computes both). ``risk="pessimistic"`` replaces each leaf's errors by C4.5's pessimistic
estimate N U_CF(e, N) (:func:`prunekit.error_based_pruning.estimated_errors`, J48's formula).

Real features are first turned into binary ones, ``1[x_j > theta]``, one per candidate
threshold of Chapter 1's split search (:func:`binarize`); the :class:`Binarization` records
them, so a tree on the binary features converts back to a :class:`~prunekit.Tree` with
thresholds on the original features (:meth:`Binarization.to_original`).

Three solvers find the optimum:

* :func:`optimal_tree` with ``solver="streed"`` calls STreeD (``pip install pystreed``);
* :func:`dynamic_program_optimal_tree`, a dynamic program over the subsets of the sample that
  the tree's branches select (the recursion of DL8 and STreeD without their bounds), in pure
  Python for small problems and for reading;
* :func:`exhaustive_optimal_tree` enumerates every tree, the referee of the tests.
"""

from __future__ import annotations

import math
import time
import warnings
from dataclasses import dataclass

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from prunekit.validation import (
    as_array,
    check_choice,
    check_count,
    check_real,
    check_samples,
)
from prunekit._deprecation import moved_names, renamed_parameter
from prunekit._parameters import checked_where_used, constraint, optional, validate_parameters
from prunekit.cost_complexity_pruning import leaf_risks
from prunekit.growing import _check_growing_data, _TreeBuilder, midpoints
from prunekit.error_based_pruning import check_confidence, estimated_errors
from prunekit.tree import Pruning, ReadOnlyArrays, Tree, _sklearn_feature_names, check_tree

__all__ = ["OPTIMAL_RISKS", "SOLVERS", "STREED_BYTES_PER_PAIR", "DEFAULT_MEMORY_LIMIT",
           "OutOfTimeError", "Binarization", "binarize", "streed_memory",
           "penalized_risk", "optimal_tree", "OptimalTreeClassifier",
           "dynamic_program_optimal_tree",
           "exhaustive_optimal_tree", "count_trees", "count_branches"]

OPTIMAL_RISKS = ("error", "pessimistic")
SOLVERS = ("streed", "dp")

#: Bytes STreeD (pystreed 1.4.0) takes per pair of binary features and per class, at any
#: depth >= 1: its depth-two solver counts every pair. The peak memory of a solve above that
#: of the same process without it, over F^2 K, was 83 and 77 on breast cancer (K = 2,
#: F = 960 and 1,920) and 74 and 53 on digits (K = 10, F = 182 and 319), measured by
#: ``python benchmarks/bench_streed_memory.py``; 96 bounds them all.
STREED_BYTES_PER_PAIR = 96
#: The default ``memory_limit`` of :func:`optimal_tree`: 4 GiB.
DEFAULT_MEMORY_LIMIT = 4 * 2**30

# Renamed in 0.3 (removed in 0.4): the leaf risk was called "objective", as a leaf's risk is
# "risk" in cost-complexity pruning.
__getattr__ = moved_names("prunekit.optimal", {"OBJECTIVES": "prunekit.optimal:OPTIMAL_RISKS"})
_renamed_objective = renamed_parameter("objective", "risk")


class OutOfTimeError(ValueError):
    """A solver did not prove a tree optimal within its ``time_limit`` (wall-clock seconds).

    A ``ValueError``, so code that catches bad requests catches it too; the runners of the
    book catch it alone to record a time-out.

    Attributes
    ----------
    tree : Tree or None
        The best tree the solver had found when it stopped, *not proven optimal* (STreeD's
        search keeps one; the pure-Python dynamic program does not, and gives None).
    """

    def __init__(self, message: str, tree: Tree | None = None):
        super().__init__(message)
        self.tree = tree


# STreeD's largest depth (pystreed checks max_depth <= 20).
_MAX_DEPTH = 20


# ---------------------------------------------------------------------- binary features
@dataclass(frozen=True, eq=False)
class Binarization(ReadOnlyArrays):
    """Binary features ``1[x[feature[j]] > threshold[j]]``, one per column j.

    A tree on the binary features sends a sample left when column j is 0, that is when
    ``x[feature[j]] <= threshold[j]``: prunekit's (and scikit-learn's) rule on the original
    feature, so :meth:`to_original` only renames the splits. The arrays are read-only.

    Attributes
    ----------
    feature : ndarray of int, shape (n_binary,)
        The original feature each binary column tests.
    threshold : ndarray of float, shape (n_binary,)
        Its threshold, increasing within each feature.
    n_features : int
        Number of original features.
    feature_names : tuple of str or None
        Names of the original features (a DataFrame's columns), when known.
    """

    feature: np.ndarray
    threshold: np.ndarray
    n_features: int
    feature_names: tuple | None = None

    @property
    def n_binary(self) -> int:
        """Number of binary features."""
        return len(self.feature)

    def names(self) -> list[str]:
        """The binary features as text, e.g. ``"x[3] > 0.5"`` or ``"age > 40.5"``."""
        def name(j):
            return f"x[{j}]" if self.feature_names is None else self.feature_names[j]
        return [f"{name(j)} > {t:g}" for j, t in zip(self.feature.tolist(),
                                                     self.threshold.tolist())]

    def transform(self, X) -> np.ndarray:
        """The binary features of the rows of ``X``: an (n_samples, n_binary) array of 0/1.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Finite numbers, the original features.

        Returns
        -------
        ndarray of uint8, shape (n_samples, n_binary)
        """
        X = check_samples(X, self.n_features)
        return (X[:, self.feature] > self.threshold).astype(np.uint8)

    def to_original(self, tree: Tree) -> Tree:
        """A tree on the binary features, as a tree on the original features.

        Parameters
        ----------
        tree : Tree
            A tree whose feature j is binary column j (grown on :meth:`transform`'s output,
            e.g. by :func:`prunekit.id3`, :func:`prunekit.grow_tree` or the solvers here),
            with thresholds in [0, 1) so that 0 goes left.

        Returns
        -------
        Tree
            The same nodes, counts, labels and classes; node v tests
            ``x[feature[f]] <= threshold[f]`` where the given tree tests column f.
        """
        check_tree(tree)
        tree.require_split_rules()
        if tree.n_features != self.n_binary:
            raise ValueError(f"tree must be a tree on the {self.n_binary} binary features, got "
                             f"a tree on {tree.n_features} features.")
        inner = ~tree.is_leaf
        if np.any((tree.threshold[inner] < 0) | (tree.threshold[inner] >= 1)):
            raise ValueError("tree must split its binary features between 0 and 1 (a threshold "
                             "in [0, 1), 0 going left).")
        return self._original_tree(tree.left, tree.right, tree.counts, tree.feature,
                                   tree.classes_, labels=tree.labels, criterion=tree.criterion)

    def _original_tree(self, left, right, counts, column, classes, *, labels=None,
                       criterion=None) -> Tree:
        """The :class:`Tree` of the given nodes on the original features: node v, split on
        binary column ``column[v]`` (``-1`` at leaves), tests
        ``x[feature[column[v]]] <= threshold[column[v]]``."""
        inner = np.asarray(left) != -1
        column = np.where(inner, column, 0)
        return Tree(left, right, counts, feature=np.where(inner, self.feature[column], -1),
                    threshold=np.where(inner, self.threshold[column], np.nan), labels=labels,
                    classes=classes, n_features=self.n_features, criterion=criterion,
                    feature_names=self.feature_names)


def binarize(X, *, max_thresholds=None) -> Binarization:
    """The binary features of Chapter 1's threshold splits: ``1[x_j > theta]``.

    Every candidate threshold of the split search (Shalev-Shwartz & Ben-David 2014,
    Sec. 18.2.3) -- halfway between two consecutive distinct values of a feature -- gives
    one binary feature. A tree on all of them can make every split a threshold tree can.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Finite numbers; constant features give no binary feature.
    max_thresholds : int or None, default None
        Keep at most this many thresholds per feature: the candidates nearest to the
        quantiles k / (max_thresholds + 1), k = 1, ..., max_thresholds, of the feature's
        values (a subset of the candidates, so a tree on them is still a tree chapter 1's
        search could grow). None keeps every candidate.

    Returns
    -------
    Binarization

    Examples
    --------
    >>> b = binarize([[1.0, 5.0], [2.0, 5.0], [4.0, 5.0]])
    >>> b.names()
    ['x[0] > 1.5', 'x[0] > 3']
    >>> b.transform([[3.0, 0.0]]).tolist()
    [[1, 0]]
    """
    names = _sklearn_feature_names(None, X)
    X = as_array(X, "X", ndim=2, dtype=np.float64, what="(n_samples, n_features)")
    if max_thresholds is not None:
        max_thresholds = check_count(max_thresholds, "max_thresholds", minimum=1)
    features, thresholds = [], []
    for j in range(X.shape[1]):
        column = np.sort(X[:, j])
        values = np.unique(column)
        candidates = midpoints(values[:-1], values[1:])     # as best_threshold_split
        if max_thresholds is not None and len(candidates) > max_thresholds:
            # examples at or below each candidate, against the quantiles' targets
            below = np.searchsorted(column, values[:-1], side="right")
            targets = np.arange(1, max_thresholds + 1) * len(column) / (max_thresholds + 1)
            nearest = np.abs(below[None, :] - targets[:, None]).argmin(axis=1)
            candidates = candidates[np.unique(nearest)]
        features.append(np.full(len(candidates), j))
        thresholds.append(candidates)
    if X.shape[1] == 0 or not sum(len(t) for t in thresholds):
        raise ValueError("X has no binary feature: every feature is constant, so no threshold "
                         "splits the sample and the only tree is a single leaf.")
    return Binarization(np.concatenate(features).astype(np.intp), np.concatenate(thresholds),
                        X.shape[1], names)


# ---------------------------------------------------------------------- the objective
def _leaf_risk_function(risk: str, confidence, m: int):
    """The risk of a leaf from its class counts: errors / m, or J48's estimate / m."""
    if risk == "error":
        return lambda counts: (sum(counts) - max(counts)) / m
    return lambda counts: float(estimated_errors(sum(counts) - max(counts), sum(counts),
                                                 confidence)) / m


@_renamed_objective
def penalized_risk(tree, alpha, *, risk="error", confidence=0.25) -> float:
    """R_alpha(T) = R(T) + alpha |T~| of a tree or a pruning, in :func:`cost_complexity`'s units.

    R(T) is the sum of the leaf risks over T's leaves: with ``risk="error"`` Breiman et
    al.'s R(t) = r(t) p(t), the training errors of leaf t divided by the size m of the
    growing sample (:func:`prunekit.cost_complexity_pruning.leaf_risks`, ``risk="error"``);
    with ``risk="pessimistic"`` C4.5's estimate N U_CF(e, N) / m
    (:func:`prunekit.error_based_pruning.estimated_errors`). The one function both a pruning and an
    optimal tree are scored with.

    Parameters
    ----------
    tree : Tree or Pruning
        A tree (all its leaves) or a pruning (its leaves, with its labels).
    alpha : float
        Cost per leaf, finite and >= 0 (the ``alpha`` of :func:`prunekit.cost_complexity`).
    risk : {"error", "pessimistic"}, default "error"
    confidence : float in (0, 1), default 0.25
        C4.5's CF, for ``risk="pessimistic"``.

    Returns
    -------
    float

    Examples
    --------
    The lecture notes' tree (Breiman et al.'s 16 records): 0 errors on 4 leaves.

    >>> left, right = [1, -1, 3, -1, 5, -1, -1], [2, -1, 4, -1, 6, -1, -1]
    >>> counts = [[8, 8], [4, 0], [4, 8], [0, 6], [4, 2], [4, 0], [0, 2]]
    >>> t = Tree.from_arrays(left, right, counts)
    >>> penalized_risk(t, 0.125)
    0.5
    """
    pruning = tree if isinstance(tree, Pruning) else Pruning.full(check_tree(tree))
    tree = pruning.tree
    alpha = check_real(alpha, "alpha", minimum=0)
    risk = check_choice(risk, "risk", OPTIMAL_RISKS)
    leaves = pruning.leaves
    if risk == "error" and np.array_equal(pruning.labels, tree.labels):
        per_leaf = leaf_risks(tree, "error")[leaves]
    else:
        m = max(tree.n_samples, 1)
        errors = tree.leaf_errors(labels=pruning.labels)[leaves]
        if risk == "pessimistic":
            reached = tree.counts[leaves].sum(axis=1)
            errors = np.asarray(estimated_errors(errors, reached, confidence))
        per_leaf = errors / m
    return float(per_leaf.sum() + alpha * len(leaves))


# ---------------------------------------------------------------------- checks
def _check_problem(X, y, max_depth, alpha, risk, confidence, time_limit=1.0):
    risk = check_choice(risk, "risk", OPTIMAL_RISKS)
    max_depth = check_count(max_depth, "max_depth", maximum=_MAX_DEPTH)
    alpha = check_real(alpha, "alpha", minimum=0)
    time_limit = check_real(time_limit, "time_limit", minimum=0, strict=True)
    if risk == "pessimistic":
        check_confidence(confidence)
    X, codes, classes = _check_growing_data(X, y)
    return X, codes, classes, max_depth, alpha, risk, time_limit


def _check_binary(X) -> None:
    if not np.isin(X, (0, 1)).all():
        raise ValueError("X must hold binary features (0 or 1); turn real features into "
                         "binary ones with binarize(X).transform(X), or call optimal_tree.")


class _Sample:
    """The sample as Python integers used as bit sets: bit i is example i.

    A branch of a tree selects a subset of the examples, the AND of some columns and
    complemented columns; with bit sets each is one integer operation, and a subset is
    its own dictionary key.
    """

    def __init__(self, X: np.ndarray, codes: np.ndarray, n_classes: int):
        self.n_samples = len(codes)
        self.everyone = (1 << self.n_samples) - 1
        self.ones = [_bits(X[:, j] == 1) for j in range(X.shape[1])]
        self.zeros = [self.everyone ^ column for column in self.ones]
        self.classes = [_bits(codes == k) for k in range(n_classes)]

    def counts(self, subset: int) -> tuple[int, ...]:
        return tuple((subset & members).bit_count() for members in self.classes)


def _bits(mask: np.ndarray) -> int:
    """The boolean mask as an integer, bit i set when mask[i] is true."""
    return int.from_bytes(np.packbits(mask, bitorder="little").tobytes(), "little")


def _build(structure, sample: _Sample, classes: np.ndarray, n_features: int,
           binarization: Binarization | None = None) -> Tree:
    """The :class:`Tree` of a nested-tuple tree on binary features.

    ``structure`` is ``None`` for a leaf or ``(j, left, right)`` for a split on column j (0
    goes left); the counts of every node are those of the examples its branch selects. With
    ``binarization``, the tree is built once, on the original features: the
    :meth:`Binarization.to_original` of the tree on the binary features.
    """
    builder = _TreeBuilder(len(classes))

    def add(node, subset):
        v = builder.add(sample.counts(subset))
        if node is not None:
            j, left, right = node
            a = add(left, subset & sample.zeros[j])
            b = add(right, subset & sample.ones[j])
            builder.split(v, j, 0.5, a, b)
        return v

    add(structure, sample.everyone)
    if binarization is None:
        return builder.tree(classes, n_features, None)
    counts = np.array(builder.counts, dtype=np.int64).reshape(-1, len(classes))
    return binarization._original_tree(builder.left, builder.right, counts, builder.feature,
                                       classes)


# ---------------------------------------------------------------------- the dynamic program
@_renamed_objective
def dynamic_program_optimal_tree(X, y, *, max_depth, alpha, risk="error",
                                 confidence=0.25, time_limit=60.0, leaf_bound=True,
                                 report=None) -> Tree:
    """A tree of depth <= max_depth minimising R_alpha, by dynamic programming.

    The recursion of DL8 (Nijssen & Fromont 2007) and STreeD (van der Linden et al. 2023):
    the best tree of depth <= d for the examples S of a branch is either a leaf, or a split
    on some feature j with the best trees of depth <= d - 1 for S_{j=0} and S_{j=1} below it,

        best(S, d) = min(R(S) + alpha, min_j best(S_j0, d-1) + best(S_j1, d-1)),

    with S_j0 and S_j1 the examples of S with x_j = 0 and x_j = 1, because R_alpha adds up
    over leaves. Many branches select the same examples (x1 = 0 and
    then x2 = 1 is x2 = 1 and then x1 = 0), so best(S, d) is computed once per subset S
    and depth d and remembered. With ``risk="error"`` and ``leaf_bound`` a branch whose
    leaf risk is at most alpha is not split: a split costs at least alpha more and removes at
    most R(S) (the leaf bound of OSDT and GOSDT, Hu et al. 2019, Lin et al. 2020).

    For a fixed depth the work is polynomial: at most sum_{k <= d} C(p, k) 2^k branches
    (:func:`count_branches`), each scanning p features over at most m examples; and at
    most 3^p distinct branches whatever the depth.

    Parameters
    ----------
    X : array-like of shape (m, p), values in {0, 1}
        Binary features (see :func:`binarize`).
    y : array-like of shape (m,)
        Class labels.
    max_depth : int
        Largest depth (number of splits from the root to a leaf), at most 20.
    alpha : float
        Cost per leaf, >= 0, in :func:`prunekit.cost_complexity`'s units.
    risk : {"error", "pessimistic"}, default "error"
        The leaf risk; see :func:`penalized_risk`.
    confidence : float in (0, 1), default 0.25
        C4.5's CF, for ``risk="pessimistic"``.
    time_limit : float, default 60
        Seconds; past it the search stops with :class:`OutOfTimeError`.
    leaf_bound : bool, default True
        Do not split a branch whose leaf risk is at most alpha (``risk="error"``).
        The value found is the same either way; False measures what the rule saves.
    report : dict, optional
        Filled with ``"subproblems"``, the number of pairs (subset, depth) solved.

    Returns
    -------
    Tree
        On the binary features (feature j, threshold 0.5: 0 goes left), with the class
        counts of (X, y) at every node. On ties a leaf is preferred to a split, and the
        smallest feature index among splits.

    Examples
    --------
    The exclusive or of two features, which no greedy first split sees:

    >>> X = [[0, 0], [0, 1], [1, 0], [1, 1]]
    >>> y = [0, 1, 1, 0]
    >>> t = dynamic_program_optimal_tree(X, y, max_depth=2, alpha=0.1)
    >>> t.n_leaves, penalized_risk(t, 0.1)
    (4, 0.4)
    """
    X, codes, classes, max_depth, alpha, risk, time_limit = _check_problem(
        X, y, max_depth, alpha, risk, confidence, time_limit)
    _check_binary(X)
    sample = _Sample(X, codes, len(classes))
    if not isinstance(leaf_bound, (bool, np.bool_)):
        raise TypeError(f"leaf_bound must be True or False, got {leaf_bound!r}.")
    if report is not None and not isinstance(report, dict):
        raise TypeError(f"report must be a dict or None, got {type(report).__name__}.")
    memo = {}
    structure = _dynamic_program(sample, max_depth, alpha, risk, confidence, time_limit,
                                 leaf_bound, memo)
    if report is not None:
        report["subproblems"] = len(memo)
    return _build(structure, sample, classes, X.shape[1])


def _dynamic_program(sample: _Sample, max_depth, alpha, risk, confidence, time_limit,
                     leaf_bound=True, memo=None):
    """The nested-tuple tree (see :func:`_build`) of :func:`dynamic_program_optimal_tree`'s
    recursion on the checked ``sample``; ``memo`` receives the subproblems solved."""
    n_features = len(sample.ones)
    leaf_risk = _leaf_risk_function(risk, confidence, sample.n_samples)
    bound = risk == "error" and bool(leaf_bound)
    deadline = time.monotonic() + time_limit
    memo = {} if memo is None else memo

    def best(subset: int, depth: int):
        key = (subset, depth)
        if key in memo:
            return memo[key]
        if len(memo) % 1024 == 0 and time.monotonic() > deadline:
            raise OutOfTimeError(f"the dynamic program did not finish within time_limit="
                             f"{time_limit:g} seconds (max_depth={max_depth}, {n_features} "
                             "binary features); raise time_limit, lower max_depth or use "
                             "fewer thresholds, or use solver='streed'.")
        as_leaf = leaf_risk(sample.counts(subset))
        answer = (as_leaf + alpha, None)
        if depth > 0 and not (bound and as_leaf <= alpha):
            seen = set()
            for j in range(n_features):
                left = subset & sample.zeros[j]
                if left == subset or left == 0 or left in seen:
                    continue              # no split, or the same split as an earlier column
                seen.add(left)
                a, b = best(left, depth - 1), best(subset & sample.ones[j], depth - 1)
                if a[0] + b[0] < answer[0] - 1e-12:
                    answer = (a[0] + b[0], (j, a[1], b[1]))
        memo[key] = answer
        return answer

    return best(sample.everyone, max_depth)[1]


# ---------------------------------------------------------------------- the referee
def count_trees(n_features, max_depth, n_classes=1) -> int:
    """Number of trees of depth <= max_depth over ``n_features`` binary features.

    With ``n_classes=1`` the shapes with their tests: N(0) = 1 (a leaf) and
    N(d) = 1 + p N(d-1)^2, a leaf or one of p splits with any tree of depth <= d - 1 on each
    side (splits that do not divide the sample included). With k = ``n_classes`` > 1 every
    leaf also carries one of k labels, M(0) = k and M(d) = k + p M(d-1)^2: the class of
    classifiers fixed before the sample is drawn, which an Occam bound counts (the leaves'
    labels are chosen from the sample).

    Parameters
    ----------
    n_features : int
        p, the number of binary features, >= 0.
    max_depth : int
        D >= 0.
    n_classes : int, default 1
        k, the labels a leaf may carry; 1 counts unlabelled trees.

    Returns
    -------
    int

    Examples
    --------
    >>> [count_trees(3, d) for d in range(4)]
    [1, 4, 49, 7204]
    >>> [count_trees(3, d, n_classes=2) for d in range(3)]
    [2, 14, 590]
    """
    n_features = check_count(n_features, "n_features")
    max_depth = check_count(max_depth, "max_depth")
    n_classes = check_count(n_classes, "n_classes", minimum=1)
    number = n_classes
    for _ in range(max_depth):
        number = n_classes + n_features * number * number
    return number


def count_branches(n_features, max_depth) -> int:
    """Number of branches of depth <= max_depth over ``n_features`` binary features.

    A branch is a set of k <= D distinct features with a value for each, sum_{k <= D}
    C(p, k) 2^k of them (the order of the tests does not matter for the examples a branch
    selects). They bound the subproblems of the dynamic program
    (:func:`dynamic_program_optimal_tree`) at each depth left, so for a fixed depth its work is
    polynomial in p, growing by at most a factor 2p + 1 per level, while the number of trees
    (:func:`count_trees`) roughly squares. Whatever the depth there are at most 3^p branches
    (each feature absent, 0 or 1).

    Examples
    --------
    >>> [count_branches(3, d) for d in range(5)]
    [1, 7, 19, 27, 27]
    """
    n_features = check_count(n_features, "n_features")
    max_depth = check_count(max_depth, "max_depth")
    return sum(math.comb(n_features, k) * 2 ** k
               for k in range(min(max_depth, n_features) + 1))


@_renamed_objective
def exhaustive_optimal_tree(X, y, *, max_depth, alpha, risk="error", confidence=0.25,
                            limit=100_000) -> tuple[float, Tree]:
    """The minimum of R_alpha over every tree of depth <= max_depth, by enumeration.

    Lists all :func:`count_trees` trees, scores each as the sum of its leaves' risks plus
    alpha per leaf, and keeps the smallest value (the fewest leaves on ties). Nothing is
    remembered or bounded: this is the referee the solvers are tested against.

    Parameters
    ----------
    X : array-like of shape (m, p), values in {0, 1}
    y : array-like of shape (m,)
    max_depth : int
    alpha : float
    risk : {"error", "pessimistic"}, default "error"
    confidence : float in (0, 1), default 0.25
    limit : int, default 100000
        Refuse problems with more trees than this.

    Returns
    -------
    (float, Tree)
        The minimum of R_alpha and a tree on the binary features attaining it.

    Examples
    --------
    The exclusive or of two features:

    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [0, 1, 1, 0]
    >>> value, tree = exhaustive_optimal_tree(X, y, max_depth=2,
    ...                                       alpha=0.1)
    >>> round(value, 4), tree.n_leaves
    (0.4, 4)
    """
    X, codes, classes, max_depth, alpha, risk, _ = _check_problem(
        X, y, max_depth, alpha, risk, confidence)
    _check_binary(X)
    limit = check_count(limit, "limit", minimum=1)
    total = count_trees(X.shape[1], max_depth)
    if total > limit:
        raise ValueError(f"there are {total} trees of depth <= {max_depth} on {X.shape[1]} "
                         f"binary features, more than limit={limit}.")
    sample = _Sample(X, codes, len(classes))
    leaf_risk = _leaf_risk_function(risk, confidence, len(codes))

    def every_tree(subset, depth):
        """(value, number of leaves, structure) of every tree below this branch."""
        yield leaf_risk(sample.counts(subset)) + alpha, 1, None
        if depth == 0:
            return
        for j in range(X.shape[1]):
            lefts = list(every_tree(subset & sample.zeros[j], depth - 1))
            rights = list(every_tree(subset & sample.ones[j], depth - 1))
            for a, leaves_a, left in lefts:
                for b, leaves_b, right in rights:
                    yield a + b, leaves_a + leaves_b, (j, left, right)

    value, _, structure = min(every_tree(sample.everyone, max_depth),
                              key=lambda t: (round(t[0], 12), t[1]))
    return value, _build(structure, sample, classes, X.shape[1])


# ---------------------------------------------------------------------- STreeD
_PESSIMISTIC_DIFFERS = (
    "risk='pessimistic' is not available with solver='streed': pystreed 1.4.0's "
    "'pessimistic-binomial' leaf cost is Quinlan's C4.5 (release 8) formula, not the J48 "
    "estimate prunekit's error-based pruning and penalized_risk use -- z is interpolated in "
    "C4.5's table (0.6925 at confidence=0.25, not the normal quantile 0.6745), 0.67 (N - e) "
    "errors are added instead of N - e when e + 1/2 >= N -- and it cannot add alpha per "
    "leaf; so its tree would not minimise this R_alpha. Use solver='dp'."
)


def _streed(B, codes, max_depth, alpha, time_limit):
    """STreeD's tree for the task "cost-complex-accuracy": whether STreeD found a tree,
    whether it proved it optimal, and the tree as a nested tuple.

    STreeD minimises (training errors) + cost_complexity * m * (branch nodes). A binary tree
    has one leaf more than branch nodes, so with cost_complexity = alpha this is
    m (R_alpha(T) - alpha): the same minimisers.
    """
    try:
        from pystreed import STreeDClassifier
    except ImportError:
        raise ImportError("solver='streed' needs the pystreed package: pip install pystreed "
                          "(or pip install 'prunekit[optimal]'); solver='dp' needs nothing."
                          ) from None
    if alpha >= 1 or len(np.unique(codes)) == 1:
        return True, True, None   # a split costs alpha >= 1, removes less than 1 of R
    solver = STreeDClassifier("cost-complex-accuracy", max_depth=max_depth,
                              cost_complexity=alpha, time_limit=time_limit, random_seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")           # "No feasible tree found": raised below
        solver.fit(B, codes)
    if not solver.is_fitted():
        return False, False, None

    def convert(node):
        if node.is_leaf_node():
            return None
        return (int(node.feature), convert(node.left_child), convert(node.right_child))

    return True, bool(solver.fit_result.is_optimal()), convert(solver.tree_)


def streed_memory(n_binary: int, n_classes: int) -> int:
    """Estimated bytes STreeD needs for ``n_binary`` binary features and ``n_classes``
    classes: :data:`STREED_BYTES_PER_PAIR` n_binary^2 n_classes.

    Examples
    --------
    Breast cancer with every threshold (15,310 binary features, two classes), which no
    machine of 24 GB solves, against 16 thresholds per feature:

    >>> f"{streed_memory(15_310, 2) / 2**30:.1f} GiB"
    '41.9 GiB'
    >>> f"{streed_memory(480, 2) / 2**20:.0f} MiB"
    '42 MiB'
    """
    n_binary = check_count(n_binary, "n_binary")
    n_classes = check_count(n_classes, "n_classes")
    return STREED_BYTES_PER_PAIR * n_binary * n_binary * n_classes


def _check_memory(n_binary: int, n_classes: int, memory_limit) -> None:
    """Refuse, before STreeD starts, a problem whose estimate exceeds ``memory_limit``."""
    if memory_limit is None:
        return
    memory_limit = check_real(memory_limit, "memory_limit", minimum=0)
    needed = streed_memory(n_binary, n_classes)
    if needed > memory_limit:
        raise MemoryError(
            f"STreeD would need about {needed / 2**30:.1f} GiB for {n_binary:,} binary "
            f"features and {n_classes} classes ({STREED_BYTES_PER_PAIR} bytes x features^2 x "
            f"classes), more than memory_limit={memory_limit / 2**30:.1f} GiB: lower "
            "max_thresholds (thresholds per feature) or raise memory_limit (bytes; None "
            "removes the check).")


@_renamed_objective
def optimal_tree(X, y, *, max_depth, alpha, risk="error", solver="streed",
                 time_limit=60.0, confidence=0.25, max_thresholds=None,
                 binarization=None, memory_limit=DEFAULT_MEMORY_LIMIT) -> Tree:
    """The tree of depth <= max_depth of smallest R_alpha over threshold splits of X.

    The features are binarised (:func:`binarize`), a solver finds a tree on the binary
    features minimising

        R_alpha(T) = R(T) + alpha |T~|

    in the units of :func:`prunekit.cost_complexity` (:func:`penalized_risk`), and the tree
    is returned on the original features. Its R_alpha is never above that of the best
    pruning of any tree of depth <= max_depth on the same thresholds, greedy or not.

    Parameters
    ----------
    X : array-like of shape (m, d)
        The original features, finite numbers (a DataFrame's column names are kept).
    y : array-like of shape (m,)
        Class labels, two or more.
    max_depth : int
        Largest depth, 0 to 20.
    alpha : float
        Cost per leaf, >= 0: the ``alpha`` of :func:`prunekit.cost_complexity` with
        ``risk="error"`` (not scikit-learn's ``ccp_alpha``, which weighs impurity).
        STreeD's ``cost_complexity`` (a cost per branch node, as a fraction of m) is the
        same number: errors + alpha m (|T~| - 1) = m (R_alpha(T) - alpha).
    risk : {"error", "pessimistic"}, default "error"
        The leaf risk: training errors, or C4.5's pessimistic estimate N U_CF(e, N)
        (J48's, :func:`prunekit.error_based_pruning.estimated_errors`; ``solver="dp"`` only, see
        Notes).
    solver : {"streed", "dp"}, default "streed"
        STreeD (van der Linden et al. 2023; needs ``pip install pystreed``), or
        :func:`dynamic_program_optimal_tree` (pure Python, small problems).
    time_limit : float, default 60
        Wall-clock seconds the solver may take. A solver that cannot prove its tree optimal
        in time raises :class:`OutOfTimeError` (a ``ValueError``): no tree that may not be
        optimal is returned, but STreeD's best tree found so far is the error's ``tree``.
    confidence : float in (0, 1), default 0.25
        C4.5's CF, for ``risk="pessimistic"``.
    max_thresholds : int or None, default None
        Thresholds per feature (see :func:`binarize`); None keeps every candidate.
    binarization : Binarization, optional
        Binary features to use instead (e.g. shared with a greedy tree being compared).
    memory_limit : float or None, default 4 GiB
        Bytes STreeD may take: a problem whose estimate (:func:`streed_memory`) is larger is
        refused before the solver starts, with a ``MemoryError`` that says what to lower
        (every candidate threshold of a few hundred examples easily asks for tens of GB).
        None removes the check. ``time_limit`` does not bound memory.

    Returns
    -------
    Tree
        On the original features, with the class counts of (X, y) at every node; its leaves
        predict their majority class.

    Notes
    -----
    pystreed 1.4.0 also offers a pessimistic objective (task "accuracy-flex" with
    "pessimistic-binomial"), but it is Quinlan's C4.5 formula (z from C4.5's interpolated
    table, 0.67 (N - e) added when e + 1/2 >= N) rather than J48's, and takes no cost per
    leaf, so ``solver="streed"`` refuses ``risk="pessimistic"``.

    Examples
    --------
    >>> X = [[1.0, 0.0], [2.0, 1.0], [3.0, 0.0], [4.0, 1.0]]
    >>> y = [0, 1, 1, 0]
    >>> t = optimal_tree(X, y, max_depth=2, alpha=0.1, solver="dp")
    >>> t.n_leaves, t.predict(X).tolist()
    (3, [0, 1, 1, 0])
    """
    solver = check_choice(solver, "solver", SOLVERS)
    named = X                                # a DataFrame keeps its column names
    X, codes, classes, max_depth, alpha, risk, time_limit = _check_problem(
        X, y, max_depth, alpha, risk, confidence, time_limit)
    if risk == "pessimistic" and solver == "streed":
        raise ValueError(_PESSIMISTIC_DIFFERS)
    if binarization is None:
        binarization = binarize(named, max_thresholds=max_thresholds)
    elif not isinstance(binarization, Binarization):
        raise TypeError(f"binarization must be a Binarization (from binarize), got "
                        f"{type(binarization).__name__}.")
    elif max_thresholds is not None:
        raise ValueError("give max_thresholds or binarization, not both.")
    B = binarization.transform(X)
    sample = _Sample(B, codes, len(classes))
    if solver == "dp":
        structure = _dynamic_program(sample, max_depth, alpha, risk, confidence,
                                     time_limit)
        return _build(structure, sample, classes, B.shape[1], binarization)
    _check_memory(B.shape[1], len(classes), memory_limit)
    found_any, proven, structure = _streed(B, codes, max_depth, alpha, time_limit)
    found = None
    if found_any:
        found = _build(structure, sample, classes, B.shape[1], binarization)
    if not proven:
        raise OutOfTimeError(
            f"STreeD did not prove a tree optimal within time_limit={time_limit:g} seconds "
            f"(max_depth={max_depth}, {B.shape[1]} binary features); raise time_limit, lower "
            "max_depth or use fewer thresholds (max_thresholds). The best tree found, not "
            "proven optimal, is this error's attribute tree.", tree=found)
    return found


# ---------------------------------------------------------------------- the estimator
class OptimalTreeClassifier(ClassifierMixin, BaseEstimator):
    """The tree of depth <= max_depth of smallest R_alpha, as a scikit-learn classifier.

    :func:`optimal_tree` behind scikit-learn's interface, so that pipelines, cross-validation
    and ``GridSearchCV`` (over ``alpha`` and ``max_depth``, typically) take it. Unlike
    :func:`optimal_tree`, the number of thresholds per feature has a bounded default: every
    candidate threshold of a few hundred examples makes thousands of binary features, and
    STreeD's memory grows with their square (:func:`streed_memory`).

    Parameters
    ----------
    max_depth : int, default 3
        Largest depth, 0 to 20.
    alpha : float, default 0.01
        Cost per leaf in units of the training error rate (:func:`optimal_tree`): a split is
        made only when it removes more than ``alpha`` of the training errors per leaf added.
    risk : {"error", "pessimistic"}, default "error"
        The leaf risk (``"pessimistic"`` needs ``solver="dp"``).
    solver : {"streed", "dp"}, default "streed"
        STreeD (``pip install 'prunekit[optimal]'``) or the pure-Python dynamic program.
    max_thresholds : int or None, default 16
        Thresholds per feature (:func:`binarize`); None keeps every candidate.
    time_limit : float, default 60
        Seconds the solver may take; ``fit`` raises :class:`OutOfTimeError` when it cannot
        prove a tree optimal in time.
    confidence : float, default 0.25
        C4.5's CF, for ``risk="pessimistic"``.
    memory_limit : float or None, default 4 GiB
        Bytes STreeD may take (:func:`optimal_tree`); ``fit`` refuses a larger problem with
        a ``MemoryError`` before the solver starts.

    Attributes
    ----------
    tree_ : Tree
        The optimal tree, with the class counts of the training data.
    classes_ : ndarray
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        The column names of ``X`` when it was a DataFrame with string column names.

    Examples
    --------
    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> clf = pk.OptimalTreeClassifier(max_depth=2, alpha=0.01).fit(X, y)
    >>> clf.get_n_leaves(), round(clf.score(X, y), 3)
    (3, 0.951)
    """

    _parameter_checks = {
        "max_depth": checked_where_used, "alpha": checked_where_used,
        "risk": constraint(check_choice, options=OPTIMAL_RISKS),
        "solver": constraint(check_choice, options=SOLVERS),
        "max_thresholds": optional(constraint(check_count, minimum=1)),
        "time_limit": checked_where_used, "confidence": checked_where_used,
        "memory_limit": optional(constraint(check_real, minimum=0)),
    }

    def __init__(self, *, max_depth=3, alpha=0.01, risk="error", solver="streed",
                 max_thresholds=16, time_limit=60.0, confidence=0.25,
                 memory_limit=DEFAULT_MEMORY_LIMIT):
        self.max_depth = max_depth
        self.alpha = alpha
        self.risk = risk
        self.solver = solver
        self.max_thresholds = max_thresholds
        self.time_limit = time_limit
        self.confidence = confidence
        self.memory_limit = memory_limit

    def fit(self, X, y):
        """Find the optimal tree on ``(X, y)``.

        Parameters
        ----------
        X : array-like of shape (m, d)
            Finite numbers; a pandas DataFrame keeps its column names.
        y : array-like of shape (m,)
            Class labels.

        Returns
        -------
        self
        """
        from sklearn.utils.multiclass import check_classification_targets
        from sklearn.utils.validation import validate_data

        params = validate_parameters(type(self).__name__, self._parameter_checks,
                                     self.get_params(deep=False))
        X, y = validate_data(self, X, y)
        check_classification_targets(y)
        classes = np.unique(y)
        if len(classes) == 1 or np.ptp(X, axis=0).max(initial=0) == 0:
            # one class, or no threshold splits X: the only tree is a single leaf
            counts = np.bincount(np.searchsorted(classes, y), minlength=len(classes))
            tree = Tree([-1], [-1], counts[None, :], feature=[-1], threshold=[np.nan],
                        classes=classes, n_features=X.shape[1])
        else:
            binarization = binarize(X, max_thresholds=params["max_thresholds"])
            tree = optimal_tree(X, y, max_depth=self.max_depth, alpha=self.alpha,
                                risk=params["risk"], solver=params["solver"],
                                time_limit=self.time_limit, confidence=self.confidence,
                                binarization=binarization,
                                memory_limit=params["memory_limit"])
        names = getattr(self, "feature_names_in_", None)
        self.tree_ = tree if names is None else tree.with_feature_names(
            [str(n) for n in names])
        self.classes_ = np.array(tree.classes_)
        return self

    def _checked(self, X):
        from sklearn.utils.validation import check_is_fitted, validate_data

        check_is_fitted(self)
        return validate_data(self, X, reset=False)

    def predict(self, X):
        """Class labels predicted by the tree."""
        X = self._checked(X)
        return self.tree_.predict(X)

    def predict_proba(self, X):
        """Class frequencies of the training data at the leaf each row reaches."""
        from prunekit.estimator import _leaf_probabilities

        X = self._checked(X)
        return _leaf_probabilities(Pruning.full(self.tree_))[self.tree_.apply(X)]

    def apply(self, X) -> np.ndarray:
        """Index, in ``tree_``, of the leaf each row of ``X`` reaches."""
        X = self._checked(X)
        return self.tree_.apply(X)

    def get_depth(self) -> int:
        """Depth of the tree (0 for a single leaf)."""
        from sklearn.utils.validation import check_is_fitted

        check_is_fitted(self)
        return self.tree_.max_depth

    def get_n_leaves(self) -> int:
        """Number of leaves of the tree."""
        from sklearn.utils.validation import check_is_fitted

        check_is_fitted(self)
        return self.tree_.n_leaves

    def to_sklearn(self):
        """The tree as a fitted ``sklearn.tree.DecisionTreeClassifier``
        (:func:`prunekit.export.to_sklearn`)."""
        from sklearn.utils.validation import check_is_fitted

        from prunekit.export import to_sklearn

        check_is_fitted(self)
        return to_sklearn(self.tree_)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        return tags
