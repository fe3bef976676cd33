"""Nobel's square-root-of-size penalty, minimised exactly (Chapter 5).

Nobel (2002) prunes by minimising R_n(T) + Delta(|T|, n) over all prunings T of the grown tree,
with a penalty that grows like the square root of the number of nodes |T| (eq. 4 when the
growing and pruning samples are the same, eq. 7 when they are independent). He notes that no
algorithm like CART's is known for such a penalty. Because the penalty depends on T only through
its size, a dynamic programme over sizes solves it exactly: for every node v and every number of
leaves L, the fewest errors of a pruning of T_v with L leaves, obtained by merging the children's
tables bottom-up (a min-plus convolution; Bohanec & Bratko's idea of optimal pruning for every
size). The paper's own approximation (10) searches the cost-complexity family instead.
:class:`NobelPruner` is the method for :class:`~prunekit.PrunedTreeClassifier`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from prunekit.validation import (
    as_array,
    check_broadcastable,
    check_choice,
    check_count,
    check_numbers,
)
from prunekit._parameters import check_parameters, constraint
from prunekit.bounds import nobel_delta, nobel_delta_independent
from prunekit.cost_complexity_pruning import cost_complexity_path
from prunekit.pruner import HoldoutPruner, pruning_sample_counts
from prunekit.reduced_error_pruning import pruning_labels
from prunekit.tree import Pruning, ReadOnlyArrays, Tree, check_tree

__all__ = ["merge_tables", "SizeProfile", "best_pruning_by_size", "nobel_objective", "nobel",
           "NobelPruner"]

CASES = ("same", "independent")
METHODS = ("exact", "ccp")

#: The checks of the parameters of :func:`nobel`, which :class:`NobelPruner` shares.
_NOBEL_PARAMETERS = {"case": constraint(check_choice, options=CASES),
                     "method": constraint(check_choice, options=METHODS)}


def merge_tables(left: np.ndarray,
                 right: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Min-plus convolution of two children's tables.

    Parameters
    ----------
    left, right : ndarray
        ``left[a - 1]`` is the fewest errors of a pruning of the left
        subtree with a leaves (likewise for the right).

    Returns
    -------
    best : ndarray of length len(left) + len(right) - 1
        ``best[L - 2]`` is the fewest errors of a pruning with L >= 2
        leaves that keeps both children: min over a + b = L of
        left[a - 1] + right[b - 1].
    split : ndarray of int, same length
        A number of leaves a for the left child that attains that minimum.
    """
    left, right = _table(left, "left"), _table(right, "right")
    p, q = len(left), len(right)
    best = np.full(p + q - 1, np.inf)
    split = np.zeros(p + q - 1, dtype=np.int64)
    if p <= q:  # loop over the shorter table, vectorise over the longer
        for a in range(p):
            candidate = left[a] + right
            window = best[a:a + q]
            better = candidate < window
            window[better] = candidate[better]
            split[a:a + q][better] = a + 1
    else:
        for b in range(q):
            candidate = left + right[b]
            window = best[b:b + p]
            better = candidate < window
            window[better] = candidate[better]
            split[b:b + p][better] = np.arange(1, p + 1)[better]
    return best, split


def _table(values, name: str) -> np.ndarray:
    """A table of fewest errors by number of leaves: non-empty, 1-D, no NaN (inf allowed:
    no pruning of that size reaches the budget). The array method ``any`` costs half of
    ``np.any`` on the small tables :func:`best_pruning_by_size` checks at every node."""
    table = as_array(values, name, ndim=1, dtype=np.float64, finite=False,
                     what="(number of leaves,)")
    if np.isnan(table).any():
        raise ValueError(f"{name} contains NaN; entries must be numbers of errors (or inf).")
    return table


@dataclass(frozen=True, eq=False)
class SizeProfile(ReadOnlyArrays):
    """The fewest errors of a pruning with each number of leaves, and how to build it.

    Attributes
    ----------
    tree : Tree
    errors : ndarray of shape (n_leaves,)
        ``errors[L - 1]`` is the fewest errors (on the sample the profile was computed from) of
        any pruning with L leaves, that is with 2L - 1 nodes. Read-only.
    labels : ndarray
        The leaf labels the errors were counted with. Read-only.
    """

    tree: Tree
    errors: np.ndarray
    labels: np.ndarray
    _splits: dict

    @property
    def n_nodes(self) -> np.ndarray:
        """Number of nodes of the pruning with 1, 2, ... leaves: 1, 3, 5, ..."""
        return 2 * np.arange(1, len(self.errors) + 1) - 1

    def pruning(self, n_leaves: int) -> Pruning:
        """A pruning with ``n_leaves`` leaves and the fewest errors.

        Parameters
        ----------
        n_leaves : int
            In [1, number of leaves of the tree].
        """
        n_leaves = check_count(n_leaves, "n_leaves")
        if not 1 <= n_leaves <= len(self.errors):
            raise ValueError(f"n_leaves must be in [1, {len(self.errors)}], got {n_leaves}.")
        tree, collapsed, stack = self.tree, [], [(0, n_leaves)]
        left, right = tree.left, tree.right
        while stack:
            v, leaves = stack.pop()
            if leaves == 1:
                collapsed.append(v)
                continue
            a = int(self._splits[v][leaves - 2])
            stack += [(int(left[v]), a), (int(right[v]), leaves - a)]
        return Pruning.from_collapsed(tree, np.array(collapsed, dtype=int), labels=self.labels)


def best_pruning_by_size(tree: Tree, counts=None, labels=None) -> SizeProfile:
    """The size-indexed dynamic programme: the best pruning for every number of leaves.

    Bottom-up, every node v gets the table f_v with f_v[1] = errors of v as a leaf and, for
    L >= 2, f_v[L] = min over a + b = L of f_left[a] + f_right[b] (:func:`merge_tables`). The
    work is the sum over internal nodes of the product of the children's numbers of leaves:
    O(n^2) in the worst case, and the Python loop runs over the smaller table only.

    Parameters
    ----------
    tree : Tree
    counts : ndarray of shape (n_nodes, n_classes), optional
        Per-node class counts of the sample to count errors on (e.g. from
        :meth:`Tree.node_counts`); default the growing counts.
    labels : ndarray of int, shape (n_nodes,), optional
        Leaf labels, class indices in [0, n_classes); default the tree's.

    Returns
    -------
    SizeProfile

    Examples
    --------
    The fewest growing errors with 1, 2, 3 and 4 leaves:

    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> profile = pk.best_pruning_by_size(pk.grow_tree(X, y))
    >>> profile.errors[:4].tolist()
    [212, 44, 34, 23]
    >>> profile.pruning(3).n_leaves
    3
    """
    check_tree(tree).require_unweighted("The best pruning of every size")
    counts = tree.counts if counts is None else tree.check_sample_counts(counts)
    labels = tree.labels if labels is None else tree.check_leaf_labels(labels)
    as_leaf = tree.leaf_errors(counts, labels).astype(float)
    tables = {int(v): as_leaf[v:v + 1] for v in np.flatnonzero(tree.is_leaf)}
    splits = {}
    left_of, right_of = tree.left.tolist(), tree.right.tolist()
    for level in tree.inner_levels:
        for v in level.tolist():
            left, right = left_of[v], right_of[v]
            merged, split = merge_tables(tables.pop(left), tables.pop(right))
            tables[v] = np.concatenate([as_leaf[v:v + 1], merged])
            splits[v] = split
    return SizeProfile(tree, tables[0].astype(np.int64), labels, splits)


def _case_data(tree: Tree, case: str, X_prune, y_prune):
    case = check_choice(case, "case", CASES)
    if case == "same":
        if X_prune is not None or y_prune is not None:
            raise ValueError("case='same' prunes with the growing sample; do not pass X_prune "
                             "and y_prune.")
        return tree.counts, tree.labels, tree.n_samples
    counts = pruning_sample_counts(tree, X_prune, y_prune, why="case='independent' needs the "
                                   "independent pruning sample X_prune and y_prune.")
    # "Compatible" labels: the pruning sample's majority at every node; a node it does not
    # reach makes no error whatever its label and keeps its growing label.
    return counts, pruning_labels(tree, counts, "pruning"), int(counts[0].sum())


def nobel_objective(n_nodes, errors, n_samples: int, case: str = "same",
                    n_features: int | None = None):
    """Penalised empirical risk R_n(T) + Delta(|T|, n) of eq. (5), or with Delta' (eq. 7).

    Parameters
    ----------
    n_nodes : int or array of int
        Sizes |T| of the prunings, whole numbers >= 1.
    errors : int or array of int
        Their numbers of errors on the n examples, whole numbers in [0, n]; the same shape
        as ``n_nodes`` (or broadcastable to it).
    n_samples : int
        The sample size n, at least 4 (Nobel assumes it).
    case : {"same", "independent"}, default "same"
        Delta of eq. (4), which needs ``n_features``; or Delta' of eq. (7), which does not.
    n_features : int >= 1, optional
        Dimension d of the feature space (``case="same"`` only).

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> objective = nobel_objective([1, 3, 5], [50, 10, 5], 500,
    ...                             n_features=2)
    >>> objective.round(3)
    array([1.016, 1.651, 2.109])
    """
    case = check_choice(case, "case", CASES)
    n = check_count(n_samples, "n_samples", minimum=4)
    n_nodes = check_numbers(n_nodes, "n_nodes", minimum=1, whole=True)
    errors = check_numbers(errors, "errors", minimum=0, maximum=n, whole=True)
    check_broadcastable(n_nodes=n_nodes, errors=errors)
    if case == "same":
        if n_features is None:
            raise ValueError("case='same' needs n_features, the dimension d of the feature "
                             "space.")
        penalty = nobel_delta(n_nodes, n, check_count(n_features, "n_features", minimum=1))
    else:
        if n_features is not None:
            raise ValueError("case='independent' uses Delta' of eq. (7), which does not depend "
                             f"on d; do not pass n_features (got {n_features!r}).")
        penalty = nobel_delta_independent(n_nodes, n)
    return errors / n + penalty


def nobel(tree: Tree, X_prune=None, y_prune=None, *, case: str = "same",
          method: str = "exact") -> Pruning:
    """Nobel's pruning: the smallest pruning minimising R_n(T) + Delta(|T|, n).

    Parameters
    ----------
    tree : Tree
    X_prune, y_prune : array-like, optional
        The independent pruning sample (``case="independent"`` only).
    case : {"same", "independent"}, default "same"
        ``"same"``: the growing sample prunes, with Delta of eq. (4), d the number of features
        and n the growing sample size. ``"independent"``: the pruning sample prunes, with
        Delta' of eq. (7); the tree is relabelled to be compatible with it (majority of the
        pruning sample at every node it reaches).
    method : {"exact", "ccp"}, default "exact"
        ``"exact"``: the size-indexed dynamic programme (:func:`best_pruning_by_size`).
        ``"ccp"``: the paper's approximation (10), a search over the cost-complexity family
        (the path's trees and the trees collapsing one of the tied weakest links between two
        consecutive ones); never better than the exact method.

    Returns
    -------
    Pruning
        Ties in the objective go to the smallest pruning.

    Examples
    --------
    On the growing sample (``case="same"``) the penalty is large, and a few hundred examples
    prune to the root; an independent pruning sample prunes far less:

    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> tree = pk.grow_tree(X[::2], y[::2])
    >>> pk.nobel(tree).n_leaves
    1
    >>> pk.nobel(tree, X[1::2], y[1::2], case="independent").n_leaves
    3
    """
    check_tree(tree).require_unweighted("Nobel's pruning")
    method, case = check_parameters(_NOBEL_PARAMETERS, method=method, case=case)
    counts, labels, n = _case_data(tree, case, X_prune, y_prune)
    if n < 4:
        raise ValueError(f"Nobel's penalty needs a sample of at least 4 examples (n >= 4), got {n}.")
    d = tree.n_features if case == "same" else None
    if case == "same" and not d:
        raise ValueError("case='same' needs the dimension d of the feature space, and this tree "
                         "has no features (d = 0); build it with feature and threshold arrays.")
    if method == "exact":
        profile = best_pruning_by_size(tree, counts, labels)
        value = nobel_objective(profile.n_nodes, profile.errors, n, case, d)
        return profile.pruning(int(np.argmin(value)) + 1)
    candidates = ccp_family(tree, counts, labels)
    value = [nobel_objective(p.n_nodes, p.errors(counts), n, case, d) for p in candidates]
    best = min(range(len(candidates)), key=lambda i: (value[i], candidates[i].n_nodes))
    return candidates[best]


def ccp_family(tree: Tree, counts, labels) -> list[Pruning]:
    """The family of Nobel's approximation (10): the cost-complexity path of the sample's
    misclassification risk, plus, between consecutive trees, every tree that collapses just
    one of the weakest links the step collapses together.

    Parameters
    ----------
    tree : Tree
    counts : ndarray of shape (n_nodes, n_classes)
        Per-node class counts of the sample (e.g. ``tree.counts``).
    labels : ndarray of int, shape (n_nodes,)
        Leaf labels, class indices (e.g. ``tree.labels``).
    """
    check_tree(tree)
    counts = tree.check_sample_counts(counts)
    labels = tree.check_leaf_labels(labels)
    relabelled = Tree.from_arrays(tree.left, tree.right, counts, labels=labels)
    path = cost_complexity_path(relabelled, "error")
    family = [Pruning(tree, path.pruning(k).kept, labels=labels) for k in range(len(path))]
    alpha, parent = path.node_alpha, tree.parent
    for step in range(1, len(path)):
        before = alpha <= path.alphas[step - 1]
        links = np.flatnonzero((alpha == path.alphas[step])
                               & ((parent < 0) | (alpha[np.maximum(parent, 0)] > path.alphas[step])))
        if len(links) > 1:
            for t in links:
                collapsed = before.copy()
                collapsed[t] = True
                family.append(Pruning.from_collapsed(tree, collapsed, labels=labels))
    return family


# ---------------------------------------------------------------------- the pruner
class NobelPruner(HoldoutPruner):
    """Nobel's (2002) square-root penalty, minimised exactly (see :func:`prunekit.nobel`).

    With ``case="same"`` the growing sample prunes (Delta of his eq. 4); with
    ``case="independent"`` the pruner is a hold-out pruner: the classifier holds out a
    pruning sample, which prunes with Delta' of eq. (7) and relabels the leaves.

    Parameters
    ----------
    case : {"same", "independent"}, default "same"
    method : {"exact", "ccp"}, default "exact"
        The exact size-indexed programme, or the paper's approximation (10).
    prune_size : float in (0, 1) or int >= 1, default 0.3
        ``case="independent"`` only; see :class:`~prunekit.HoldoutPruner`.
    random_state : int, RandomState or None, default None
        ``case="independent"`` only; see :class:`~prunekit.HoldoutPruner`.

    Examples
    --------
    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> pruner = pk.NobelPruner(case="independent", random_state=0)
    >>> clf = pk.PrunedTreeClassifier(pruner=pruner, random_state=0)
    >>> clf = clf.fit(X, y)
    >>> clf.tree_.n_leaves, clf.get_n_leaves()
    (19, 3)
    """

    _weights_refused = "its bound is stated for a number of examples"
    _function = staticmethod(nobel)
    _parameter_checks = {**_NOBEL_PARAMETERS, **HoldoutPruner._parameter_checks}
    _min_prune = 4                  # Nobel assumes n >= 4

    def __init__(self, *, case="same", method="exact", prune_size=0.3, random_state=None):
        super().__init__(prune_size=prune_size, random_state=random_state)
        self.case = case
        self.method = method

    def uses_pruning_sample(self) -> bool:
        return _NOBEL_PARAMETERS["case"](self.case, "case") == "independent"

    @property
    def _poor_score(self) -> bool:
        """On small samples the same-sample penalty (eq. 4) prunes to the root: with d = 2
        and n = 300 a stump must lower the training error rate by about 0.9 to pay for its
        two extra nodes."""
        return self.case == "same"

    def prune(self, tree: Tree, X_prune=None, y_prune=None) -> Pruning:
        self._check_parameters()
        independent = self.uses_pruning_sample()
        n = len(y_prune) if independent and hasattr(y_prune, "__len__") else tree.n_samples
        if n < self._min_prune:
            raise ValueError(f"NobelPruner needs at least 4 examples (Nobel 2002 assumes "
                             f"n >= 4) in its {'pruning' if independent else 'growing'} "
                             f"sample, got n_samples={n}.")
        if not independent:
            return nobel(tree, case="same", method=self.method)
        return nobel(tree, X_prune, y_prune, case="independent", method=self.method)

