"""Critical-value pruning (CVP): Mingers (1987, 1989).

Chapter 8 of the book. Mingers prunes with a threshold on the measure that selected each
split: a node whose measure does not exceed the critical value cv is pruned, unless a node
below it has a larger measure. With M*(t) the largest measure in the subtree of t, the
pruning at cv makes a leaf of every node with M*(t) <= cv; raising cv gives a nested sequence
of prunings (:func:`critical_value_path`), and a pruning sample picks one
(:func:`critical_value`), as Esposito, Malerba & Semeraro (1997) do when they compare CVP with
the other classic methods (:mod:`prunekit.pessimistic_pruning`,
:mod:`prunekit.minimum_error_pruning`, :mod:`prunekit.error_based_pruning`). The measures are
those of :func:`split_measure`. :class:`CriticalValuePruner` is the method for
:class:`~prunekit.PrunedTreeClassifier`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from prunekit._parameters import check_parameters
from prunekit.impurity import GROWER_CRITERIA, counts_impurity
from prunekit.path import PruningPath, leaf_intervals, sum_per_step
from prunekit.pruner import HoldoutPruner, pruning_sample_counts
from prunekit.tree import Pruning, Tree, check_tree

__all__ = ["SELECTION_MEASURES", "split_measure", "CriticalValuePath", "critical_value_path",
           "critical_value", "CriticalValuePruner"]

#: The names of the split-selection measures critical-value pruning thresholds
#: (:func:`split_measure`); ``"criterion"`` is the one the tree was grown with.
SELECTION_MEASURES = ("entropy", "gini", "gain_ratio", "chi2", "g_statistic", "criterion")


def _check_measure(measure, name: str = "measure") -> str:
    if not isinstance(measure, str) or measure not in SELECTION_MEASURES:
        raise ValueError(f"{name} must be one of {SELECTION_MEASURES}, got {measure!r}.")
    return measure


#: The checks of the parameters of :func:`critical_value`, which :class:`CriticalValuePruner`
#: shares; ``"criterion"`` is resolved once the tree is known.
_CVP_PARAMETERS = {"measure": _check_measure}


def _resolve_measure(tree: Tree, measure: str) -> str:
    measure = _check_measure(measure)
    if measure != "criterion":
        return measure
    if tree.criterion not in GROWER_CRITERIA:
        raise ValueError(
            f"measure='criterion' uses the tree's growing criterion, and this tree has "
            f"{'none' if tree.criterion is None else repr(tree.criterion)} (a tree from "
            "Tree.from_sklearn with criterion 'gini', 'entropy' or 'log_loss' has one); "
            f"name a measure from {SELECTION_MEASURES[:-1]} instead."
        )
    return GROWER_CRITERIA[tree.criterion]


def split_measure(tree: Tree, measure: str = "entropy") -> np.ndarray:
    """The goodness of every internal node's split, from the growing counts.

    With N examples at node t, N_L and N_R in its children, and class counts n_c:

    * ``"entropy"``: information gain in bits, H(t) - N_L/N H(L) - N_R/N H(R), with
      H = -sum_c p_c log2 p_c (Quinlan's ID3 measure, one of Mingers' 1987 measures);
    * ``"gini"``: decrease of the Gini index 1 - sum_c p_c^2, weighted the same way (CART's);
    * ``"gain_ratio"``: information gain divided by the split information
      -(N_L/N) log2(N_L/N) - (N_R/N) log2(N_R/N) (Quinlan's C4.5); 0 when a child is empty;
    * ``"chi2"``: Pearson's chi-square statistic of the 2 x k table of children by classes,
      sum (O - E)^2 / E with E = N_child n_c / N over the cells with E > 0;
    * ``"g_statistic"``: the likelihood-ratio statistic G = 2 sum O ln(O / E) of the same
      table, which equals 2 ln(2) N times the information gain (Mingers 1987);
    * ``"criterion"``: the measure of the tree's own grower (``"gini"`` or ``"entropy"``).

    Parameters
    ----------
    tree : Tree
    measure : str, default "entropy"

    Returns
    -------
    ndarray of shape (n_nodes,)
        The measure at internal nodes, ``nan`` at leaves. Gains below 1e-12 (rounding of a
        zero gain) are set to 0, so that splits without gain tie exactly.

    Examples
    --------
    The information gain of the root's split, in bits:

    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> gain = split_measure(pk.grow_tree(X, y), measure="entropy")
    >>> round(float(gain[0]), 3)
    0.562
    """
    check_tree(tree)
    measure = _resolve_measure(tree, measure)
    inner = np.flatnonzero(~tree.is_leaf)
    values = np.full(tree.n_nodes, np.nan)
    if not inner.size:
        return values
    counts = tree.counts.astype(float)
    parent, left, right = counts[inner], counts[tree.left[inner]], counts[tree.right[inner]]
    n, n_left, n_right = parent.sum(axis=1), left.sum(axis=1), right.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        share_left = np.where(n > 0, n_left / n, 0.0)
        share_right = np.where(n > 0, n_right / n, 0.0)
    if measure == "chi2":
        result = np.zeros(len(inner))
        with np.errstate(divide="ignore", invalid="ignore"):
            for child, n_child in ((left, n_left), (right, n_right)):
                expected = n_child[:, None] * parent / n[:, None]
                cell = np.where(expected > 0, (child - expected) ** 2 / expected, 0.0)
                result += cell.sum(axis=1)
        values[inner] = result
        return values
    criterion = "gini" if measure == "gini" else "entropy"
    gain = (counts_impurity(parent, criterion, n)
            - share_left * counts_impurity(left, criterion, n_left)
            - share_right * counts_impurity(right, criterion, n_right))
    gain = np.where(gain > 1e-12, gain, 0.0)
    if measure == "gain_ratio":
        split_info = counts_impurity(np.column_stack([n_left, n_right]), "entropy", n)
        with np.errstate(divide="ignore", invalid="ignore"):
            gain = np.where(split_info > 0, gain / split_info, 0.0)
    elif measure == "g_statistic":
        gain = 2.0 * np.log(2.0) * n * gain
    values[inner] = gain
    return values


@dataclass(frozen=True, eq=False, repr=False)
class CriticalValuePath(PruningPath):
    """The nested sequence of critical-value prunings, step by step (Mingers 1987, 1989).

    At a critical value cv, an internal node stays internal exactly when its split measure or
    the measure of some internal node below it exceeds cv. Writing M*(t) for the largest
    measure in the subtree of t, the pruning at cv collapses every node with M*(t) <= cv; as
    cv grows the prunings shrink, one step per distinct value of M*, down to the root alone.

    The path is a sequence of ``(critical value, Pruning)`` pairs
    (:class:`~prunekit.path.PruningPath`, shared with :class:`~prunekit.CostComplexityPath`);
    it stores one number per node and builds each step's pruning on demand.

    Attributes
    ----------
    tree : Tree
    measure : str
        The measure used (``"criterion"`` resolved to the grower's).
    measures : ndarray of shape (n_nodes,)
        The split measure of every internal node (:func:`split_measure`), ``nan`` at leaves.
    node_value : ndarray of shape (n_nodes,)
        M*(t), the largest measure in the subtree of t; ``-inf`` at the tree's leaves.
    critical_values : ndarray of shape (n_steps,)
        ``-inf`` (the whole tree), then the distinct values of M* over the internal nodes,
        increasing. Step j's pruning is the one for every cv in
        [critical_values[j], critical_values[j + 1]); the last step is the root alone.
    n_leaves : ndarray of shape (n_steps,)
        Number of leaves of each step's pruning.

    The arrays are read-only.
    """

    _NODE_VALUES = "node_value"
    _STEP_VALUES = "critical_values"
    _PARAMETER = "critical_value"
    _DESCRIBED_BY = "measure"

    tree: Tree
    measure: str
    measures: np.ndarray
    node_value: np.ndarray
    critical_values: np.ndarray
    n_leaves: np.ndarray

    def step(self, critical_value) -> int:
        """Index of the step whose pruning is the one for ``critical_value``."""
        return super().step(critical_value)

    def pruning_at(self, critical_value) -> Pruning:
        """The pruning at a fixed critical value, e.g. a chi-square table's value (Mingers
        1987)."""
        return super().pruning_at(critical_value)


def critical_value_path(tree: Tree, measure: str = "entropy") -> CriticalValuePath:
    """Mingers' (1987, 1989) critical-value pruning: the prunings for every critical value.

    Mingers prunes with a threshold on the split-selection measure: a node whose measure does
    not exceed the critical value cv is pruned, unless a node below it has a measure above cv
    (its subtree is then kept, and the node with it). With M*(t) the largest measure among
    the internal nodes of the subtree of t,

        T(cv) = the pruning that makes a leaf of every node t with M*(t) <= cv,

    and raising cv from -inf to the largest measure gives a nested sequence of prunings from
    the whole tree down to the root alone, one step per distinct M*.

    Parameters
    ----------
    tree : Tree
    measure : {"entropy", "gini", "gain_ratio", "chi2", "g_statistic", "criterion"}, \
default "entropy"
        The split measure (see :func:`split_measure`), computed from the growing counts.
        Mingers (1987, 1989) used several, among them information gain and the chi-square and
        G statistics; Esposito, Malerba & Semeraro (1997) used the measure the tree was grown
        with, which ``"criterion"`` selects for a tree from scikit-learn. The default is
        information gain, the measure of ID3 that Mingers' experiments grew trees with and
        one that every tree can be scored by.

    Returns
    -------
    CriticalValuePath
        A sequence of ``(critical value, Pruning)`` pairs, built lazily.

    Notes
    -----
    One bottom-up pass gives M* (a maximum over the children, level by level), a sort gives
    the distinct critical values, and each node's range of steps as a leaf gives the leaf
    counts of all steps at once: O(n_nodes log n_nodes).

    Examples
    --------
    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> path = pk.critical_value_path(pk.grow_tree(X, y))
    >>> path.n_leaves.tolist()
    [22, 20, 19, 17, 13, 8, 6, 1]
    >>> path.pruning_at(0.5).n_leaves
    17
    """
    check_tree(tree)
    resolved = _resolve_measure(tree, measure)
    measures = split_measure(tree, resolved)
    node_value = np.where(tree.is_leaf, -np.inf, measures)
    for inner in tree.inner_levels:
        node_value[inner] = np.maximum(node_value[inner], np.maximum(
            node_value[tree.left[inner]], node_value[tree.right[inner]]))
    critical_values = np.concatenate([[-np.inf], np.unique(node_value[~tree.is_leaf])])
    intervals = leaf_intervals(tree, node_value, critical_values)
    n_leaves = np.rint(sum_per_step(intervals, np.ones(tree.n_nodes), len(critical_values)))
    return CriticalValuePath(tree, resolved, measures, node_value, critical_values,
                             n_leaves.astype(np.int64))


def critical_value(tree: Tree, X_prune, y_prune, measure: str = "entropy", *,
                   sample_weight=None) -> Pruning:
    """Critical-value pruning (CVP) with the critical value chosen on a pruning sample.

    Builds Mingers' (1987, 1989) sequence of prunings over all critical values
    (:func:`critical_value_path`) and returns the one with the fewest errors on
    ``(X_prune, y_prune)``, the smallest among equals -- how Esposito, Malerba & Semeraro
    (1997) pick the critical value, since the method itself gives no rule for it.

    Parameters
    ----------
    tree : Tree
        Grown on a sample independent of the pruning sample.
    X_prune : array-like of shape (m, n_features)
    y_prune : array-like of shape (m,)
        The pruning sample; its labels must be classes of the tree.
    measure : str, default "entropy"
        The split measure, as in :func:`critical_value_path`.
    sample_weight : array-like of shape (m,), optional
        Weights of the pruning examples: the step of least weight of misclassified examples
        is chosen. (The measures come from the tree's growing counts, weighted when the tree
        was grown with weights.)

    Returns
    -------
    Pruning

    Notes
    -----
    The pruning sample is counted at every node once (:meth:`Tree.node_counts`), and the errors
    of all steps follow from each node's range of steps as a leaf: O(m depth + n_nodes log
    n_nodes), never materialising the sequence.

    Examples
    --------
    Grow on half the rows; the other half chooses the critical value:

    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> tree = pk.grow_tree(X[::2], y[::2])
    >>> tree.n_leaves, pk.critical_value(tree, X[1::2], y[1::2]).n_leaves
    (12, 7)
    """
    check_tree(tree)
    (measure,) = check_parameters(_CVP_PARAMETERS, measure=measure)
    resolved = _resolve_measure(tree, measure)
    counts = pruning_sample_counts(
        tree, X_prune, y_prune, why="critical-value pruning chooses its critical value on a "
        "pruning sample (X_prune, y_prune) independent of the growing sample.",
        sample_weight=sample_weight)
    path = critical_value_path(tree, resolved)
    errors = path.errors(counts)
    best = len(errors) - 1 - int(np.argmin(errors[::-1]))
    return path.pruning(best)


# ---------------------------------------------------------------------------------------------
# The pruner of PrunedTreeClassifier

class CriticalValuePruner(HoldoutPruner):
    """Mingers' critical-value pruning with the critical value chosen on a held-out sample.

    See :func:`prunekit.critical_value`.

    Parameters
    ----------
    measure : str, default "entropy"
        The split measure; ``"criterion"`` uses the classifier's growing criterion.
    prune_size : float in (0, 1) or int >= 1, default 0.3
    random_state : int, RandomState or None, default None
        See :class:`~prunekit.HoldoutPruner`.

    Examples
    --------
    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> pruner = pk.CriticalValuePruner(measure="entropy", random_state=0)
    >>> clf = pk.PrunedTreeClassifier(pruner=pruner, random_state=0)
    >>> clf = clf.fit(X, y)
    >>> clf.tree_.n_leaves, clf.get_n_leaves()
    (19, 10)
    """

    _function = staticmethod(critical_value)
    _parameter_checks = {**_CVP_PARAMETERS, **HoldoutPruner._parameter_checks}

    def __init__(self, *, measure="entropy", prune_size=0.3, random_state=None):
        super().__init__(prune_size=prune_size, random_state=random_state)
        self.measure = measure

    def prune(self, tree: Tree, X_prune, y_prune, sample_weight=None) -> Pruning:
        self._check_parameters()
        return critical_value(tree, X_prune, y_prune, measure=self.measure,
                              sample_weight=sample_weight)
