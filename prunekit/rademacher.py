"""Rademacher penalties of classes of prunings (Chapter 6).

Kääriäinen, Malinen & Elomaa (2004) bound the error of a pruning chosen on a pruning sample of
size n by its pruning-set error plus twice the Rademacher penalty of the class of prunings
(Lemma 3),

    R_n(H) = sup_{h in H} | (1/n) sum_i r_i l(h(x_i), y_i) |,

with independent signs r_i = +1 or -1. Their Sec. 2 computes the supremum by empirical risk
minimisation on relabelled data: relabel the examples with r_i = +1 to the complement class
ybar_i ("every class but y_i"), find the pruning h1 with the fewest errors on the relabelled
sample and the pruning h2 with the fewest errors on the opposite relabelling; then

    R_n(H) = max( |{i : r_i = +1}| / n - err(h1),  |{i : r_i = -1}| / n - err(h2) ).

For the class of all prunings the minimiser is reduced-error pruning (REP), one bottom-up pass;
for the prunings with at most k growing-set errors it is k-REP (Definition 4, Theorem 5,
Algorithm 6; :mod:`prunekit.k_reduced_error_pruning`), computed with per-node Pareto frontiers
merged level by level. :class:`RademacherBoundPruner` chooses, for
:class:`~prunekit.PrunedTreeClassifier`, the k-REP pruning whose bound (Lemma 3) is smallest.

Conventions: leaf labels are the tree's (the majority class of the growing counts), growing
errors are counted with the tree's ``counts``, and the loss is the 0/1 loss.
"""

from __future__ import annotations

import numpy as np

from prunekit._deprecation import moved_names
from prunekit._min_plus import _k_rep_values
from prunekit._parameters import constraint
from prunekit.validation import (check_count, check_probability, check_random_state,
                                 encode_labels)
from prunekit.bounds import rademacher as rademacher_bound
from prunekit import k_reduced_error_pruning as _k_rep
from prunekit.pruner import HoldoutPruner
from prunekit.reduced_error_pruning import best_subtree_errors
from prunekit.tree import Pruning, Tree, check_tree

__all__ = ["draw_signs", "signed_class_sums", "relabelled_leaf_errors", "rademacher_penalty",
           "growing_errors", "RademacherBoundPruner"]

# The names k-REP took to prunekit.k_reduced_error_pruning; they stay here, deprecated, until
# version 0.4.
__getattr__ = moved_names("prunekit.rademacher", {
    name: "prunekit.k_reduced_error_pruning" for name in (
        "growing_errors_of_tree", "growing_error_budget", "min_plus_merge", "k_reduced_error",
        "k_reduced_error_frontier")})


# ---------------------------------------------------------------------- signs
def draw_signs(n: int, random_state=None, n_draws: int | None = None) -> np.ndarray:
    """Independent Rademacher signs: +1 or -1, each with probability 1/2.

    Parameters
    ----------
    n : int
        Number of examples.
    random_state : None, int, numpy.random.RandomState or numpy.random.Generator
        The source of the signs (:func:`prunekit.validation.check_random_state`): an integer
        seed draws from ``numpy.random.default_rng(seed)``.
    n_draws : int, optional
        Number of independent draws. Without it, one draw of shape ``(n,)``; the draw equals
        the first row of ``draw_signs(n, random_state, 1)`` for the same seed.

    Returns
    -------
    ndarray of int8, shape (n,) or (n_draws, n)

    Examples
    --------
    >>> draw_signs(6, random_state=0).tolist()
    [1, 1, 1, -1, -1, -1]
    >>> draw_signs(6, random_state=0, n_draws=3).shape
    (3, 6)
    """
    n = check_count(n, "n", minimum=1)
    generator = check_random_state(random_state)
    rows = 1 if n_draws is None else check_count(n_draws, "n_draws", minimum=1)
    signs = (2 * generator.integers(0, 2, size=(rows, n)) - 1).astype(np.int8)
    return signs[0] if n_draws is None else signs


def _check_signs(signs, n: int) -> np.ndarray:
    """Validate ``signs``: +-1 values, shape (n,) or (n_draws, n); return a 2-D int64 array."""
    try:
        array = np.asarray(signs)
    except ValueError:                                   # ragged nested sequences
        array = np.asarray(signs, dtype=object)
    if array.dtype == object or array.dtype.kind not in "iuf" or array.ndim not in (1, 2):
        raise TypeError(
            f"signs must be a numeric array of +1/-1 of shape (n,) or (n_draws, n), got "
            f"dtype {array.dtype} and {array.ndim} dimensions."
        )
    if array.ndim == 2 and array.shape[0] == 0:
        raise ValueError(f"signs must hold at least one draw, got shape {array.shape}.")
    if array.shape[-1] != n or array.size == 0:
        raise ValueError(
            f"signs must have one entry per example (n={n}) along its last axis, got shape "
            f"{array.shape}."
        )
    if not np.all((array == 1) | (array == -1)):
        bad = np.unique(array[(array != 1) & (array != -1)])[:5].tolist()
        raise ValueError(f"signs must hold only +1 and -1, got values {bad}.")
    return np.atleast_2d(array).astype(np.int64)


# ---------------------------------------------------------------------- node statistics
def signed_class_sums(tree: Tree, X_prune, y_prune, signs) -> tuple[np.ndarray, np.ndarray]:
    """Per-node class counts of ``(X_prune, y_prune)`` and per-node, per-class sums of the signs.

    Every example is routed to its leaf once; the signed sums are formed at the leaves for all
    draws in one sorted pass and added up the tree level by level
    (:meth:`Tree.sum_over_leaves`), so an example contributes to every node on its
    root-to-leaf path.

    Parameters
    ----------
    tree : Tree
    X_prune, y_prune : array-like
        The sample (the pruning sample of Kääriäinen et al.).
    signs : array-like of shape (n,) or (n_draws, n)
        Rademacher signs, +1 or -1.

    Returns
    -------
    counts : ndarray of shape (n_nodes, n_classes)
        ``counts[v, c]``: examples of class c through node v.
    sums : ndarray of shape (n_draws, n_nodes, n_classes)
        ``sums[d, v, c]``: sum of the signs of draw d over those examples.
    """
    check_tree(tree).require_unweighted("The Rademacher penalty")
    X, y = tree.check_sample(X_prune, y_prune, names=("X_prune", "y_prune"))
    signs = _check_signs(signs, len(y))
    codes = encode_labels(y, tree.classes_)
    leaf = tree.apply(X, check_input=False)
    K = tree.n_classes
    key = leaf * K + codes
    order = np.argsort(key, kind="stable")
    cells, starts = np.unique(key[order], return_index=True)
    at_leaves = np.zeros((tree.n_nodes * K, signs.shape[0]), dtype=np.int64)
    at_leaves[cells] = np.add.reduceat(signs[:, order], starts, axis=1).T
    sums = tree.sum_over_leaves(at_leaves.reshape(tree.n_nodes, K, -1))
    counts = tree.counts_from_leaves(leaf, codes)
    return counts, np.moveaxis(sums, -1, 0)


def relabelled_leaf_errors(tree: Tree, X_prune, y_prune,
                           signs) -> tuple[np.ndarray, np.ndarray]:
    """Errors every node makes as a leaf on the two relabelled samples.

    Kääriäinen, Malinen & Elomaa (2004), Sec. 2, with the signs sigma_i
    (the paper's r_i): z_i = ybar_i (the complement class, "any class but
    y_i") where sigma_i = +1 and z_i = y_i where sigma_i = -1; a leaf
    labelled c errs on (x_i, ybar_i) when c = y_i and on (x_i, y_i) when
    c != y_i. The opposite relabelling zbar swaps the roles of the two
    signs. With two classes ybar_i is simply the other class.

    Returns
    -------
    errors_z, errors_zbar : ndarray of int64, shape (n_nodes,) or
        (n_draws, n_nodes)
        Relabelled errors of every node as a leaf with the tree's label
        (one row per draw when ``signs`` is 2-D).
    """
    counts, sums = signed_class_sums(tree, X_prune, y_prune, signs)
    nodes = np.arange(tree.n_nodes)
    # examples of the node's label, and their signs summed
    label_count = counts[nodes, tree.labels]
    label_sum = sums[:, nodes, tree.labels]
    total, total_sum = counts.sum(axis=1), sums.sum(axis=2)
    plus_label = (label_count + label_sum) // 2
    minus_label = (label_count - label_sum) // 2
    plus_total = (total + total_sum) // 2
    minus_total = (total - total_sum) // 2
    # sigma = +1 with the node's label, or sigma = -1 without it
    errors_z = plus_label + (minus_total - minus_label)
    errors_zbar = minus_label + (plus_total - plus_label)
    if np.ndim(signs) == 1:
        return errors_z[0], errors_zbar[0]
    return errors_z, errors_zbar


def growing_errors(tree: Tree) -> np.ndarray:
    """Growing-set errors of every node as a leaf with the tree's label: eps_g(N_g).

    The same as ``tree.leaf_errors()`` (:meth:`Tree.leaf_errors`), under the paper's name.
    """
    return check_tree(tree).leaf_errors()


# ---------------------------------------------------------------------- the penalty
def rademacher_penalty(tree: Tree, X_prune, y_prune, signs=None, random_state=None, k=None, *,
                       n_draws=None):
    """The Rademacher penalty of the class of prunings of ``tree`` on the pruning sample.

    Kääriäinen, Malinen & Elomaa (2004), Sec. 2 and 5:

        R_n(H) = sup_{h in H} | (1/n) sum_i r_i l(h(x_i), y_i) |
               = max( n_+ / n - err_z(h1),  n_- / n - err_zbar(h2) ),

    where n_+ and n_- count the signs +1 and -1, h1 minimises the errors on the relabelled
    sample z (complement class where r_i = +1) and h2 on the opposite relabelling zbar. H is
    the class of all prunings of the tree with the tree's leaf labels, whose empirical risk
    minimiser is REP (one vectorised bottom-up pass for all draws); with ``k`` it is the k-REP
    class (prunings with at most k growing-set errors), minimised by the frontier programme of
    :func:`~prunekit.k_reduced_error_pruning.k_reduced_error` (Algorithm 6), run for all
    draws and both signs together; a draw and sign whose cheapest pruning (fewest relabelled
    errors, then fewest growing errors) is within the budget takes that pruning's value
    without it. Time and memory per draw and sign are those of
    :func:`~prunekit.k_reduced_error_pruning.k_reduced_error`.

    Parameters
    ----------
    tree : Tree
    X_prune, y_prune : array-like
        The pruning sample (n examples).
    signs : array-like of +1/-1, shape (n,) or (n_draws, n), optional
        Explicit signs; a 2-D array evaluates every row at once.
    random_state : None, int, numpy.random.RandomState or numpy.random.Generator
        Without ``signs``, the source the signs are drawn from (:func:`draw_signs`);
        ``None``, numpy's global generator.
    k : int, optional
        Restrict H to the prunings with at most k errors on the growing sample.
    n_draws : int, optional
        Without ``signs``: number of independent draws.

    Returns
    -------
    float, or ndarray of shape (n_draws,) for 2-D ``signs`` or ``n_draws``.

    Raises
    ------
    ValueError
        If the k-REP class is empty (every pruning makes more than k growing errors), or the
        signs are not +-1 of the right length.

    Examples
    --------
    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> tree = pk.grow_tree(X[::2], y[::2])
    >>> penalty = pk.rademacher_penalty(tree, X[1::2], y[1::2],
    ...                                random_state=0)
    >>> round(penalty, 4)
    0.0211
    """
    check_tree(tree).require_unweighted("The Rademacher penalty")
    if k is not None:
        k = check_count(k, "k")
    if signs is None:
        n = len(y_prune) if hasattr(y_prune, "__len__") else None
        if n is None:
            raise TypeError("y_prune must be an array-like of labels.")
        signs = draw_signs(max(n, 1), random_state, n_draws)
    elif random_state is not None or n_draws is not None:
        raise ValueError("give either signs, or random_state (with n_draws), not both.")
    errors_z, errors_zbar = relabelled_leaf_errors(tree, X_prune, y_prune, signs)
    errors_z, errors_zbar = np.atleast_2d(errors_z), np.atleast_2d(errors_zbar)
    signs = np.asarray(signs)
    n = signs.shape[-1]
    n_plus = np.atleast_2d(signs == 1).sum(axis=1)
    if k is None:
        best_z = best_subtree_errors(tree, errors_z.T)[0][0]
        best_zbar = best_subtree_errors(tree, errors_zbar.T)[0][0]
    else:
        best = _k_rep_values(tree, np.concatenate([errors_z, errors_zbar]), k)
        best_z, best_zbar = best[:len(n_plus)], best[len(n_plus):]
    penalty = np.maximum(n_plus - best_z, (n - n_plus) - best_zbar) / n
    return float(penalty[0]) if np.ndim(signs) == 1 else penalty



# ---------------------------------------------------------------------- the pruner
class RademacherBoundPruner(HoldoutPruner):
    """The k-REP pruning with the smallest Rademacher bound over a range of budgets.

    Chapter 6's selection: the classes P_k of prunings with at most k growing errors grow
    with k, from the grown tree's own growing errors (the smallest non-empty class) to the
    errors of the root as a leaf (all prunings). For ``n_budgets`` budgets spaced
    geometrically over that range, the pruner takes k-REP's pruning h_k (fewest errors on the
    pruning sample within P_k) and its Rademacher bound (Kääriäinen, Malinen & Elomaa 2004,
    Lemma 3, eq. 1)

        L_S(h_k) + 2 R_m(P_k) + 5 eta(delta / n_budgets, m),

    with R_m(P_k) the mean of the Rademacher penalty over ``n_draws`` draws of the signs (the
    same draws for every k), and keeps the pruning with the smallest bound (the smallest k on
    ties). Splitting delta over the budgets (a union bound) makes the chosen pruning's bound
    hold with probability at least 1 - delta; it does not change which pruning is chosen.

    It is no function's pruner: it combines :func:`~prunekit.k_reduced_error`,
    :func:`rademacher_penalty` and :func:`prunekit.bounds.rademacher`.

    Parameters
    ----------
    n_budgets : int >= 2, default 10
    n_draws : int >= 1, default 20
    delta : float in (0, 1), default 0.01
    prune_size : float in (0, 1) or int >= 1, default 0.3
    random_state : int, RandomState or None, default None
        Seeds the split and the signs; ``None`` takes the classifier's ``random_state``.

    Attributes
    ----------
    budgets_ : ndarray of int
        The budgets k tried.
    penalties_, bounds_ : ndarray of float
        Mean Rademacher penalty and bound of each budget.
    k_ : int
        The budget chosen.
    bound_ : float
        Its bound on the true error of the chosen pruning.

    Examples
    --------
    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> pruner = pk.RademacherBoundPruner(n_draws=20, random_state=0)
    >>> clf = pk.PrunedTreeClassifier(pruner=pruner, random_state=0)
    >>> clf = clf.fit(X, y)
    >>> clf.get_n_leaves(), clf.pruner_.k_, round(clf.pruner_.bound_, 2)
    (17, 1, 0.84)
    """

    _weights_refused = "its bound is stated for a number of examples"
    _parameter_checks = {"n_budgets": constraint(check_count, minimum=2),
                         "n_draws": constraint(check_count, minimum=1),
                         "delta": constraint(check_probability),
                         **HoldoutPruner._parameter_checks}

    def __init__(self, *, n_budgets=10, n_draws=20, delta=0.01, prune_size=0.3,
                 random_state=None):
        super().__init__(prune_size=prune_size, random_state=random_state)
        self.n_budgets = n_budgets
        self.n_draws = n_draws
        self.delta = delta

    def prune(self, tree: Tree, X_prune, y_prune) -> Pruning:
        return self._select(tree, X_prune, y_prune, self.random_state)

    def _prune_grown(self, tree: Tree, X, y, grower) -> Pruning:
        return self._select(tree, X, y, self._seed(grower.random_state))

    def _select(self, tree: Tree, X_prune, y_prune, seed) -> Pruning:
        checked = self._check_parameters()
        n_budgets, n_draws, delta = (checked[name] for name in ("n_budgets", "n_draws", "delta"))
        counts = tree.node_counts(X_prune, y_prune)
        m = int(counts[0].sum())
        signs = draw_signs(m, seed, n_draws)
        budgets = _budget_grid(tree, n_budgets)
        prunings = [_k_rep.k_reduced_error(tree, X_prune, y_prune, int(k)) for k in budgets]
        errors = np.array([pruning.errors(counts) / m for pruning in prunings])
        penalties = np.array([rademacher_penalty(tree, X_prune, y_prune, signs=signs,
                                                 k=int(k)).mean() for k in budgets])
        bounds = np.asarray(rademacher_bound(errors, penalties, m, delta / len(budgets)))
        best = int(np.argmin(bounds))
        self.budgets_, self.penalties_, self.bounds_ = budgets, penalties, bounds
        self.k_, self.bound_ = int(budgets[best]), float(bounds[best])
        return prunings[best]


def _budget_grid(tree: Tree, n_budgets: int) -> np.ndarray:
    """Budgets spaced geometrically from the tree's growing errors to the root's."""
    lowest = _k_rep.growing_errors_of_tree(tree)
    highest = tree.n_samples - int(tree.counts[0].max())
    grid = np.rint(np.geomspace(lowest + 1, highest + 1, n_budgets)).astype(np.int64) - 1
    return np.unique(np.clip(grid, lowest, highest))
