"""Nested sequences of prunings, one step per value of a parameter: the shared path class.

Cost-complexity pruning (:class:`~prunekit.CostComplexityPath`, Chapter 2) and critical-value
pruning (:class:`~prunekit.CriticalValuePath`, Chapter 8) both give a nested sequence of
prunings, from a large one down to the root alone, one step per distinct value of their
parameter (alpha, or the critical value). Both describe it with one number per node, the
parameter value at which the node stops being internal: node t is a leaf of step k's pruning,
or cut away, exactly when its value is at most the step's threshold. :class:`PruningPath`
holds what follows from that and is the same for both: indexing and iteration, the steps'
prunings, the step for a parameter value, and sums over every step's leaves.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from prunekit.validation import OutOfRangeError, as_array, check_real
from prunekit.tree import Pruning, ReadOnlyArrays, check_tree

__all__ = ["PruningPath", "leaf_intervals", "sum_per_step"]


def leaf_intervals(tree, node_values: np.ndarray, thresholds: np.ndarray):
    """For every node, the range of steps [first, last) in which it is a leaf of the path
    given by its arrays (see :meth:`PruningPath.leaf_intervals`).

    Parameters
    ----------
    tree : Tree
    node_values : ndarray of shape (n_nodes,)
        Every node's value (``inf`` or ``-inf`` at the tree's leaves).
    thresholds : ndarray of shape (n_steps,)
        The steps' thresholds, increasing.

    Returns
    -------
    first, last : ndarray of int, shape (n_nodes,)
    """
    own = np.where(tree.is_leaf, -np.inf, node_values)
    parent = np.where(tree.parent >= 0, node_values[np.maximum(tree.parent, 0)], np.inf)
    first = np.searchsorted(thresholds, own, side="left")
    last = np.searchsorted(thresholds, parent, side="left")
    return first, np.maximum(first, last)


def sum_per_step(intervals, values: np.ndarray, n_steps: int) -> np.ndarray:
    """Add each node's value to every step of its interval: a difference array and a
    cumulative sum, O(n_nodes + n_steps).

    Parameters
    ----------
    intervals : (ndarray, ndarray)
        Every node's steps [first, last), from :func:`leaf_intervals`.
    values : ndarray of float, shape (n_nodes,)
    n_steps : int

    Examples
    --------
    Node 0, worth 1, is a leaf in steps 0 and 1; node 1, worth 10, in steps 1 and 2:

    >>> import numpy as np
    >>> from prunekit.path import sum_per_step
    >>> first, last = np.array([0, 1]), np.array([2, 3])
    >>> sum_per_step((first, last), np.array([1.0, 10.0]), 3).tolist()
    [1.0, 11.0, 10.0]
    """
    first, last = intervals
    change = np.zeros(n_steps + 1)
    np.add.at(change, first, values)
    np.add.at(change, last, -values)
    return np.cumsum(change[:-1])


class PruningPath(ReadOnlyArrays, Sequence):
    """A nested sequence of prunings of ``tree``, built step by step on demand.

    The path is a sequence of ``(threshold, Pruning)`` pairs: ``path[k]`` is step k's
    threshold (the smallest parameter value for which its pruning is the answer) and its
    pruning, ``path[-1]`` the root alone; ``len(path)`` is the number of steps. It stores
    one number per node and never materialises the prunings.

    Attributes
    ----------
    tree : Tree
    n_leaves : ndarray of shape (n_steps,)
        Number of leaves of each step's pruning.

    Notes
    -----
    A subclass is a frozen dataclass (``eq=False, repr=False``) with the fields ``tree`` and
    ``n_leaves`` and two arrays, and names them in class attributes:

    * ``_NODE_VALUES``: the field holding every node's value, ``inf`` or ``-inf`` at the
      tree's leaves and for an internal node the parameter value from which on it is no
      longer internal;
    * ``_STEP_VALUES``: the field holding the steps' thresholds, increasing;
    * ``_PARAMETER``, ``_PARAMETER_MINIMUM``, ``_PARAMETER_FINITE``: the parameter's name in
      messages, its smallest valid value (or ``None``) and whether infinity is refused;
    * ``_DESCRIBED_BY``: the field shown in the ``repr`` next to the number of steps.

    Examples
    --------
    The cost-complexity path of a tree with 3 leaves, one step per distinct alpha:

    >>> import prunekit as pk
    >>> t = pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
    ...                         [[4, 4], [3, 1], [1, 3], [1, 0], [0, 3]])
    >>> path = pk.cost_complexity_path(t)
    >>> [(alpha, pruning.n_leaves) for alpha, pruning in path]
    [(0.0, 3), (0.125, 2), (0.25, 1)]
    """

    _NODE_VALUES: ClassVar[str]
    _STEP_VALUES: ClassVar[str]
    _PARAMETER: ClassVar[str]
    _PARAMETER_MINIMUM: ClassVar[float | None] = None
    _PARAMETER_FINITE: ClassVar[bool] = False
    _DESCRIBED_BY: ClassVar[str]

    def __post_init__(self):
        super().__post_init__()
        tree = check_tree(self.tree, regression=True)
        if np.shape(self.node_values) != (tree.n_nodes,):
            raise ValueError(f"{self._NODE_VALUES} must have one value per node "
                             f"({tree.n_nodes}), got shape {np.shape(self.node_values)}.")
        if np.ndim(self.thresholds) != 1 or np.shape(self.n_leaves) != (len(self),):
            raise ValueError(f"{self._STEP_VALUES} and n_leaves must have one value per "
                             f"step, got shapes {np.shape(self.thresholds)} and "
                             f"{np.shape(self.n_leaves)}.")

    # ------------------------------------------------------------------ the two arrays
    @property
    def node_values(self) -> np.ndarray:
        """Every node's value: the parameter value from which on it is no longer internal
        (the field named by ``_NODE_VALUES``)."""
        return getattr(self, self._NODE_VALUES)

    @property
    def thresholds(self) -> np.ndarray:
        """The steps' thresholds, increasing (the field named by ``_STEP_VALUES``)."""
        return getattr(self, self._STEP_VALUES)

    # ------------------------------------------------------------------ the sequence
    def __len__(self) -> int:
        return len(self.thresholds)

    def __getitem__(self, step):
        """``(threshold, Pruning)`` of step ``step``; a list of them for a slice."""
        if isinstance(step, slice):
            return [self[k] for k in range(*step.indices(len(self)))]
        step = self._check_step(step)
        return float(self.thresholds[step]), self.pruning(step)

    def __iter__(self):
        return (self[k] for k in range(len(self)))

    def _check_step(self, step) -> int:
        """A step index in [-len(path), len(path)), as a non-negative int."""
        if isinstance(step, (bool, np.bool_)) or not isinstance(step, numbers.Integral):
            raise TypeError(f"step must be an integer, got {type(step).__name__} {step!r}.")
        if not -len(self) <= step < len(self):
            raise OutOfRangeError(f"step must be in [{-len(self)}, {len(self)}), got {step}.")
        return int(step) % len(self)

    # ------------------------------------------------------------------ steps and prunings
    def pruning(self, step: int) -> Pruning:
        """The pruning of step ``step`` (0 the first, -1 the root alone).

        Raises
        ------
        IndexError
            For a step outside [-len(path), len(path)); the error (``OutOfRangeError``) is
            also a ``ValueError``.

        Examples
        --------
        >>> import prunekit as pk
        >>> t = pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
        ...                         [[4, 4], [3, 1], [1, 3], [1, 0], [0, 3]])
        >>> path = pk.cost_complexity_path(t)
        >>> path.pruning(1).leaves.tolist(), path.pruning(-1).n_leaves
        ([1, 2], 1)
        """
        step = self._check_step(step)
        return Pruning.from_collapsed(self.tree, self.node_values <= self.thresholds[step])

    def step(self, value) -> int:
        """Index of the step whose pruning is the one for the parameter ``value``: the last
        step whose threshold is at most ``value``.

        Examples
        --------
        >>> import prunekit as pk
        >>> t = pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
        ...                         [[4, 4], [3, 1], [1, 3], [1, 0], [0, 3]])
        >>> path = pk.cost_complexity_path(t)  # thresholds 0, 0.125, 0.25
        >>> path.step(0.1), path.step(0.125), path.step(1.0)
        (0, 1, 2)
        """
        value = check_real(value, self._PARAMETER, minimum=self._PARAMETER_MINIMUM,
                           finite=self._PARAMETER_FINITE)
        return int(np.searchsorted(self.thresholds, value, side="right") - 1)

    def pruning_at(self, value) -> Pruning:
        """The pruning for the parameter ``value``: ``pruning(step(value))``.

        Examples
        --------
        >>> import prunekit as pk
        >>> t = pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
        ...                         [[4, 4], [3, 1], [1, 3], [1, 0], [0, 3]])
        >>> path = pk.cost_complexity_path(t)
        >>> path.pruning_at(0.2).leaves.tolist()
        [1, 2]
        """
        return self.pruning(self.step(value))

    # ------------------------------------------------------------------ sums over the steps
    def leaf_intervals(self) -> tuple[np.ndarray, np.ndarray]:
        """For every node, the range of steps [first, last) in which it is a leaf.

        A node is a leaf of step k's pruning when it is no longer internal (its value is at
        most the step's threshold, always true for the tree's leaves) while its parent still
        is.

        Examples
        --------
        >>> import prunekit as pk
        >>> t = pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
        ...                         [[4, 4], [3, 1], [1, 3], [1, 0], [0, 3]])
        >>> first, last = pk.cost_complexity_path(t).leaf_intervals()
        >>> first.tolist(), last.tolist()  # node 2: a leaf in step 1 only
        ([2, 0, 1, 0, 0], [3, 2, 2, 1, 1])
        """
        return leaf_intervals(self.tree, self.node_values, self.thresholds)

    def per_step(self, node_values) -> np.ndarray:
        """Sum of ``node_values`` over the leaves of every step's pruning, in
        O(n_nodes + n_steps).

        For example, ``per_step(errors)`` with ``errors[v]`` the errors node v makes as a leaf
        on some sample gives every step's number of errors on that sample.

        Parameters
        ----------
        node_values : array-like of shape (n_nodes,)
            Finite numbers, one per node.

        Examples
        --------
        >>> import prunekit as pk
        >>> t = pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
        ...                         [[4, 4], [3, 1], [1, 3], [1, 0], [0, 3]])
        >>> path = pk.cost_complexity_path(t)
        >>> path.per_step(t.leaf_errors()).tolist()    # training errors
        [1.0, 2.0, 4.0]
        """
        node_values = as_array(node_values, "node_values", ndim=1, dtype=np.float64,
                               what="(n_nodes,)").astype(float)
        if node_values.shape != (self.tree.n_nodes,):
            raise ValueError(f"node_values must have one value per node ({self.tree.n_nodes}), "
                             f"got {node_values.shape[0]}.")
        return sum_per_step(self.leaf_intervals(), node_values, len(self))

    def errors(self, counts) -> np.ndarray:
        """Number of errors of every step's pruning on a sample with per-node ``counts``.

        Parameters
        ----------
        counts : array-like of shape (n_nodes, n_classes)
            E.g. ``tree.node_counts(X_test, y_test)``: non-negative integers, every internal
            node's the sum of its children's (:meth:`~prunekit.Tree.check_sample_counts`), or
            sums of weights (``node_counts(..., sample_weight=w)``), which give the weight of
            the misclassified examples (floats).

        Examples
        --------
        Every step's errors on 200 test examples; the fifth step errs least:

        >>> import prunekit as pk
        >>> X, y = pk.datasets.make_boolean_dnf(400, random_state=0)
        >>> tree = pk.id3(X[:200], y[:200])
        >>> path = pk.cost_complexity_path(tree)
        >>> path.errors(tree.node_counts(X[200:], y[200:])).tolist()
        [41, 38, 38, 24, 14, 17, 28, 83]
        """
        tree = self.tree
        counts = tree._checked_statistics(counts)
        errors = self.per_step(tree.leaf_errors(counts))
        if counts.dtype.kind == "f":            # sums of weights
            return errors
        return np.rint(errors).astype(np.int64)

    def __repr__(self) -> str:
        return (f"{type(self).__name__}({self._DESCRIBED_BY}="
                f"{getattr(self, self._DESCRIBED_BY)!r}, n_steps={len(self)}, "
                f"n_leaves {self.n_leaves[0]} -> {self.n_leaves[-1]})")
