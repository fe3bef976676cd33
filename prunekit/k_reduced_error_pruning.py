"""k-REP, the k-optimal reduced-error pruning of Kääriäinen, Malinen & Elomaa (2004).

Chapter 6 of the book. Among the prunings that make at most k errors on the growing sample,
k-REP takes the one with the fewest errors on an independent pruning sample, and among those
the smallest (the paper's Definition 4). The class of such prunings grows with k, from the
grown tree alone to every pruning; its Rademacher penalty (:mod:`prunekit.rademacher`) is
what Chapter 6 bounds the chosen pruning's error with. Theorem 5 says the best pruning of a
node within a budget combines the best prunings of its children within budgets that add up to
it; Algorithm 6 runs that recursion bottom-up for every budget up to k
(:func:`min_plus_merge`, and the frontier kernel behind :func:`k_reduced_error`). The paper's
budget (Sec. 6.1) is c = 1.1 times the growing errors of the grown tree
(:func:`growing_error_budget`). :class:`KReducedErrorPruner` is the method for
:class:`~prunekit.PrunedTreeClassifier`.
"""

from __future__ import annotations

import math

import numpy as np

from prunekit._min_plus import _empty_class_message, _frontier_pass, min_plus_merge
from prunekit._parameters import check_parameters, constraint, optional
from prunekit.validation import check_count, check_real
from prunekit.pruner import HoldoutPruner, pruning_sample_counts
from prunekit.reduced_error_pruning import best_subtree_errors
from prunekit.tree import Pruning, Tree, check_tree

__all__ = ["growing_errors_of_tree", "growing_error_budget", "min_plus_merge",
           "k_reduced_error_frontier", "k_reduced_error", "KReducedErrorPruner"]


def _check_factor(c, name: str = "c") -> float:
    """The factor c of the paper's budget, at least 1 (no pruning makes fewer growing errors
    than the unpruned tree)."""
    return check_real(c, name, minimum=1)


#: The checks of the parameters of :func:`k_reduced_error`, which :class:`KReducedErrorPruner`
#: shares.
_KREP_PARAMETERS = {"k": constraint(check_count)}


def growing_errors_of_tree(tree: Tree) -> int:
    """Growing-set errors of the unpruned tree (the fewest of any pruning with majority labels).

    The :meth:`Pruning.errors <prunekit.Pruning.errors>` of the whole tree, under the name
    k-REP's budget gives it.
    """
    return Pruning.full(check_tree(tree)).errors()


def growing_error_budget(grow_errors: int, c: float = 1.1) -> int:
    """k-REP's budget: k = floor(c x growing errors of the unpruned tree), Sec. 4 and 6.1.

    Kääriäinen, Malinen & Elomaa (2004) keep the prunings that make "at most k mistakes" on
    the growing set, with k "1.1 times the training error of the unpruned tree". Mistakes
    are whole numbers, so "at most c e mistakes" is "at most floor(c e) mistakes": the floor
    gives exactly the paper's class, and the ceiling would admit prunings with more than
    c e mistakes. A tolerance of 1e-9 keeps a product that is a whole number in exact
    arithmetic from being rounded down by floating point.

    Parameters
    ----------
    grow_errors : int
        Mistakes of the unpruned tree on its growing set, at least 0
        (:func:`growing_errors_of_tree`).
    c : float, default 1.1
        At least 1: no pruning makes fewer growing errors than the unpruned tree.

    Returns
    -------
    int

    Examples
    --------
    >>> growing_error_budget(20), growing_error_budget(20, c=1.5)
    (22, 30)
    """
    grow_errors = check_count(grow_errors, "grow_errors")
    c = _check_factor(c)
    return int(math.floor(c * grow_errors + 1e-9))


def k_reduced_error_frontier(tree: Tree, X_prune, y_prune, k: int):
    """The root's k-REP frontier: growing errors, pruning errors and sizes of its points.

    Point j is the best pruning (fewest pruning errors, then fewest nodes) among those with
    at most ``growing[j]`` growing errors, for each budget at which the best improves
    (Kääriäinen, Malinen & Elomaa 2004, Definition 4); for a budget between two points the
    earlier one is the answer. The last point is REP's pruning when k allows it. Cost: as
    :func:`k_reduced_error` without its shortcut to REP.

    Returns
    -------
    growing, pruning, n_nodes : ndarray of int, sorted by growing errors
    """
    check_tree(tree).require_unweighted("k-REP")
    k = check_count(k, "k")
    errors = tree.leaf_errors(pruning_sample_counts(tree, X_prune, y_prune))
    grow = tree.leaf_errors()
    root = _frontier_pass(tree, grow, tree.sum_over_leaves(grow), errors[None, :], k,
                          size_weight=1, keep_all=False)[0]
    scale = tree.n_nodes + 1
    return root["g"], root["key"] // scale, root["key"] % scale


def k_reduced_error(tree: Tree, X_prune, y_prune, k: int) -> Pruning:
    """k-REP: the k-optimal REP pruning (Kääriäinen, Malinen & Elomaa 2004, Definition 4).

    Among the prunings with at most ``k`` errors on the growing sample (the tree's counts),
    the one with the fewest errors on ``(X_prune, y_prune)``, and among those the one with the
    fewest nodes. Theorem 5 says such a pruning is either the root as a leaf or the root over
    u- and v-optimal prunings of its children with u + v = k; Algorithm 6 runs that
    recursion bottom-up for every budget up to k.

    Here REP's pruning (the unique smallest pruning with the fewest pruning errors) is the
    answer whenever it makes at most k growing errors, found by one bottom-up pass. Below
    that budget each node keeps only the budgets at which its best pruning improves (a
    Pareto frontier of growing errors against (pruning errors, size)), between the growing
    errors of its whole subtree and ``min(k, errors of the node as a leaf)``; the two
    children's frontiers are merged by a min-plus convolution -- over the pairs of their
    points, or, for long frontiers, one contiguous pass over the node's window per point of
    one child -- for all nodes of a level at once, and the answer is traced back from the
    root.

    Complexity, with n growing examples, N nodes, depth D and m pruning examples: time
    O(N + m D) for the counts and the REP pass. Only when k is below the growing errors of
    REP's pruning (so k < n) do the frontiers follow: time O(sum over nodes v of
    min(k, n_v)^2) <= O(D n k), n_v being the growing examples that reach v (at most n reach
    a level, so a level costs O(n k), as in Kääriäinen et al., Sec. 4); memory O(n + N)
    cells for the windows of one level, pairs formed ``_PAIRS_PER_CHUNK`` at a time, and the
    frontiers kept for the trace-back, O(sum over v of min(k, n_v) + 1) <=
    O(N + min(D n, k N)) integers.
    No table of length k + 1 is ever allocated.

    Parameters
    ----------
    tree : Tree
    X_prune, y_prune : array-like
        The pruning sample.
    k : int
        Budget of growing-set errors, at least 0.

    Returns
    -------
    Pruning
        With k at least the growing errors of REP's pruning (e.g. the growing sample size)
        the answer is REP's.

    Raises
    ------
    ValueError
        When every pruning makes more than k growing errors (k below the errors of the
        unpruned tree): the k-REP class is empty.

    Examples
    --------
    At most 6 growing errors, where REP's pruning (5 leaves) makes 7:

    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> tree = pk.grow_tree(X[::2], y[::2])
    >>> pruning = pk.k_reduced_error(tree, X[1::2], y[1::2], k=6)
    >>> pruning.n_leaves, pruning.errors()
    (6, 6)
    """
    check_tree(tree).require_unweighted("k-REP")
    (k,) = check_parameters(_KREP_PARAMETERS, k=k)
    errors = tree.leaf_errors(pruning_sample_counts(tree, X_prune, y_prune))
    rep = Pruning.from_collapsed(tree, best_subtree_errors(tree, errors)[1])
    if rep.errors() <= k:
        return rep
    grow = tree.leaf_errors()
    floor = tree.sum_over_leaves(grow)
    if k < floor[0]:
        raise ValueError(_empty_class_message(k, int(floor[0])))
    blocks = _frontier_pass(tree, grow, floor, errors[None, :], k, size_weight=1)
    root = blocks[0]
    collapsed = np.zeros(tree.n_nodes, dtype=bool)
    nodes, points = np.array([0]), np.array([root["start"][1] - 1])
    for block in blocks:
        a, b = block["a"][points], block["b"][points]
        leaf = a < 0
        collapsed[nodes[leaf]] = True
        inner = ~leaf
        if not inner.any():
            break
        nodes_inner = nodes[inner]
        nodes = np.concatenate([tree.left[nodes_inner], tree.right[nodes_inner]])
        points = np.concatenate([a[inner], b[inner]])
    return Pruning.from_collapsed(tree, collapsed)


# ---------------------------------------------------------------------- the pruner
class KReducedErrorPruner(HoldoutPruner):
    """k-REP: reduced-error pruning among the prunings with at most k growing errors
    (Kääriäinen, Malinen & Elomaa 2004, Definition 4; see :func:`prunekit.k_reduced_error`).

    Parameters
    ----------
    k : int >= 0 or None, default None
        The budget of growing-sample errors. ``None``: the paper's budget (Sec. 6.1),
        k = floor(c x the errors of the grown tree on its growing sample). The paper grows
        with at least two examples per leaf (``min_samples_leaf=2``); a tree grown to pure
        leaves makes no growing errors, and then k = 0 for every c.
    c : float >= 1, default 1.1
        The paper's factor, used when ``k`` is None (:func:`growing_error_budget`).
    prune_size : float in (0, 1) or int >= 1, default 0.3
    random_state : int, RandomState or None, default None
        See :class:`~prunekit.HoldoutPruner`.

    Attributes
    ----------
    k_ : int
        The budget of the last :meth:`~prunekit.Pruner.prune`.

    Examples
    --------
    The paper's budget, 1.1 times the growing errors of a tree grown with at least two
    examples per leaf:

    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> pruner = pk.KReducedErrorPruner(c=1.1)
    >>> clf = pk.PrunedTreeClassifier(pruner=pruner, min_samples_leaf=2,
    ...                               random_state=0).fit(X, y)
    >>> clf.tree_.n_leaves, clf.get_n_leaves(), clf.pruner_.k_
    (19, 12, 5)
    """

    _weights_refused = "its bound is stated for a number of examples"
    _function = staticmethod(k_reduced_error)
    _parameter_checks = {"k": optional(_KREP_PARAMETERS["k"]), "c": _check_factor,
                         **HoldoutPruner._parameter_checks}

    def __init__(self, *, k=None, c=1.1, prune_size=0.3, random_state=None):
        super().__init__(prune_size=prune_size, random_state=random_state)
        self.k = k
        self.c = c

    def prune(self, tree: Tree, X_prune, y_prune) -> Pruning:
        self.k_ = self._budget(tree)
        return k_reduced_error(tree, X_prune, y_prune, self.k_)

    def _budget(self, tree: Tree) -> int:
        k = self._check_parameters()["k"]
        if k is not None:
            return k
        return growing_error_budget(growing_errors_of_tree(tree), self.c)
