"""Rademacher penalties of the class of prunings, and k-REP (Chapter 6).

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
Algorithm 6), implemented here with per-node Pareto frontiers merged level by level.

Conventions: leaf labels are the tree's (the majority class of the growing counts), growing
errors are counted with the tree's ``counts``, and the loss is the 0/1 loss.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from prunekit._validation import check_count, check_real, encode_labels
from prunekit.reduced_error_pruning import best_subtree_errors
from prunekit.tree import Pruning, Tree, check_tree

__all__ = [
    "draw_signs", "signed_class_sums", "relabelled_leaf_errors", "rademacher_penalty",
    "growing_errors", "growing_errors_of_tree", "growing_error_budget", "min_plus_merge", "k_reduced_error",
    "k_reduced_error_frontier",
]

# Most problems (draws x signs) solved together by one k-REP pass, and the number of window
# cells such a pass aims at (fewer problems at a time on large trees).
_CHUNK = 64
_CELLS_PER_PASS = 2**21
# Pairs of frontier points formed at once when merging children.
_PAIRS_PER_CHUNK = 2**20
# Estimated cost (nanoseconds) of one pair, of one window cell of a contiguous pass, and of
# starting one such pass: decides between the two merges of _merge_children.
_PAIR_COST, _ELEMENT_COST, _PASS_COST = 60, 2, 10_000
# A window cell with no candidate; the largest encoded offer of _merge_by_slices.
_EMPTY = np.iinfo(np.int64).max
_OFFER_LIMIT = 2**62
# Largest value the shifted running minimum of the frontier filter may reach in int64.
_SHIFT_LIMIT = 2**62


# ---------------------------------------------------------------------- signs
def draw_signs(n: int, random_state, n_draws: int | None = None) -> np.ndarray:
    """Independent Rademacher signs: +1 or -1, each with probability 1/2.

    Parameters
    ----------
    n : int
        Number of examples.
    random_state : int or numpy.random.Generator
        Seed or generator.
    n_draws : int, optional
        Number of independent draws. Without it, one draw of shape ``(n,)``; the draw equals
        the first row of ``draw_signs(n, random_state, 1)`` for the same seed.

    Returns
    -------
    ndarray of int8, shape (n,) or (n_draws, n)
    """
    n = check_count(n, "n", minimum=1)
    rng = _check_generator(random_state)
    rows = 1 if n_draws is None else check_count(n_draws, "n_draws", minimum=1)
    signs = (2 * rng.integers(0, 2, size=(rows, n)) - 1).astype(np.int8)
    return signs[0] if n_draws is None else signs


def _check_generator(random_state) -> np.random.Generator:
    """Validate ``random_state``: a numpy Generator, or a non-negative integer seed for one."""
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        if random_state < 0:
            raise ValueError(f"random_state must be a non-negative seed, got {random_state}.")
        return np.random.default_rng(int(random_state))
    raise TypeError(f"random_state must be an int seed or a numpy.random.Generator, got "
                    f"{type(random_state).__name__}.")


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
    check_tree(tree)
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
    :func:`k_reduced_error` (Algorithm 6), run for all draws and both signs together; a draw
    and sign whose cheapest pruning (fewest relabelled errors, then fewest growing errors)
    is within the budget takes that pruning's value without it. Time and memory per draw
    and sign are those of :func:`k_reduced_error`.

    Parameters
    ----------
    tree : Tree
    X_prune, y_prune : array-like
        The pruning sample (n examples).
    signs : array-like of +1/-1, shape (n,) or (n_draws, n), optional
        Explicit signs; a 2-D array evaluates every row at once.
    random_state : int or numpy.random.Generator, optional
        Draw the signs from this seed or generator instead (:func:`draw_signs`).
    k : int, optional
        Restrict H to the prunings with at most k errors on the growing sample.
    n_draws : int, optional
        With ``random_state``: number of independent draws.

    Returns
    -------
    float, or ndarray of shape (n_draws,) for 2-D ``signs`` or ``n_draws``.

    Raises
    ------
    ValueError
        If the k-REP class is empty (every pruning makes more than k growing errors), or the
        signs are not +-1 of the right length.
    """
    check_tree(tree)
    if k is not None:
        k = check_count(k, "k")
    if signs is None:
        if random_state is None:
            raise ValueError("give signs (an array of +1/-1) or random_state (a seed or "
                             "Generator).")
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


def _empty_class_message(k: int, tree_errors: int) -> str:
    """Why the k-REP class is empty: k is below the growing errors of the unpruned tree."""
    return (f"no pruning makes at most k={k} errors on the growing sample (the tree itself "
            f"makes {tree_errors}, the fewest of any pruning); the k-REP class is empty: give "
            f"k >= {tree_errors}.")


def _k_rep_values(tree: Tree, costs: np.ndarray, k: int) -> np.ndarray:
    """Fewest cost of a pruning with at most k growing errors, for every row of ``costs``.

    A row whose cheapest pruning (fewest cost, then fewest growing errors: one bottom-up
    pass) is within the budget needs no frontier; the other rows run the frontier programme
    of :func:`_frontier_pass`, as many at a time as keep its tables near ``_CELLS_PER_PASS``
    cells.
    """
    grow = tree.leaf_errors()
    floor = tree.sum_over_leaves(grow)
    if k < floor[0]:
        raise ValueError(_empty_class_message(k, int(floor[0])))
    values, needed = _cheapest_prunings(tree, costs, grow)
    hard = np.flatnonzero(needed > k)
    if hard.size:
        widths = np.maximum(np.minimum(grow, k) - floor + 1, 0)
        widest = max(int(widths[level].sum()) for level in tree.levels)
        rows = int(np.clip(_CELLS_PER_PASS // max(widest, 1), 1, _CHUNK))
        for start in range(0, hard.size, rows):
            chosen = hard[start:start + rows]
            root = _frontier_pass(tree, grow, floor, costs[chosen], k, size_weight=0,
                                  keep_all=False)[0]
            values[chosen] = root["key"][root["start"][1:] - 1]   # last point: the fewest cost
    return values


def _cheapest_prunings(tree: Tree, costs: np.ndarray, grow: np.ndarray):
    """Per row of ``costs``: the fewest cost of any pruning, and the fewest growing errors of
    a pruning with that cost (one bottom-up pass, lexicographic in (cost, growing errors))."""
    cost = np.array(costs, dtype=np.int64).T                     # (n_nodes, rows)
    need = np.repeat(grow[:, None], cost.shape[1], axis=1)
    for inner in tree.inner_levels:
        left, right = tree.left[inner], tree.right[inner]
        cost_below, need_below = cost[left] + cost[right], need[left] + need[right]
        cost_leaf, need_leaf = cost[inner], need[inner]
        leaf = (cost_leaf < cost_below) | ((cost_leaf == cost_below) & (need_leaf <= need_below))
        cost[inner] = np.where(leaf, cost_leaf, cost_below)
        need[inner] = np.where(leaf, need_leaf, need_below)
    return cost[0], need[0]


def growing_errors_of_tree(tree: Tree) -> int:
    """Growing-set errors of the unpruned tree (the fewest of any pruning with majority labels)."""
    return int(check_tree(tree).leaf_errors()[tree.is_leaf].sum())


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
    """
    grow_errors = check_count(grow_errors, "grow_errors")
    c = check_real(c, "c", minimum=1)
    return int(math.floor(c * grow_errors + 1e-9))


# ---------------------------------------------------------------------- k-REP
def min_plus_merge(left, right, k: int) -> np.ndarray:
    """One k-REP merge of two children, dense (the paper's Algorithm 6).

    ``left[u]`` is the fewest pruning errors of a pruning of the left
    subtree with at most u growing errors (``inf`` where there is none),
    likewise ``right``; the result is the min-plus convolution

        merged[i] = min_{u + v = i} left[u] + right[v],   i = 0, ..., k

    (Kääriäinen, Malinen & Elomaa 2004; their Theorem 5). Sizes are left
    out here; :func:`k_reduced_error` breaks ties by size as their
    Definition 4 asks.

    Parameters
    ----------
    left, right : array-like of float
        Non-increasing in u (a pruning with at most u errors also has at
        most u + 1).
    k : int
        Growing-error budget; entries beyond k are ignored.

    Returns
    -------
    ndarray of float, shape (k + 1,)
    """
    k = check_count(k, "k")
    left = _dense(left, k, "left")
    right = _dense(right, k, "right")
    sums = left[:, None] + right[None, :]
    total = np.add.outer(np.arange(k + 1), np.arange(k + 1))
    merged = np.full(k + 1, np.inf)
    np.minimum.at(merged, total[total <= k], sums[total <= k])
    return merged


def _dense(values, k, name):
    """Validate a table of :func:`min_plus_merge` and extend or cut it to budgets 0..k."""
    try:
        values = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be an array of numbers (inf where undefined).") from None
    if values.ndim != 1 or values.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D array, got shape {values.shape}.")
    if np.isnan(values).any():
        raise ValueError(f"{name} contains NaN; use inf for a budget with no pruning.")
    if np.any(values[1:] > values[:-1]):
        raise ValueError(
            f"{name} must be non-increasing (a pruning within budget u is within u + 1), got "
            f"{values.tolist()[:10]}."
        )
    out = np.full(k + 1, values[-1])        # a larger budget allows what the last one allows
    out[:min(k + 1, values.size)] = values[:k + 1]
    return out


def _strict_prefix_minima(best: np.ndarray, width: np.ndarray) -> np.ndarray:
    """Mark the cells of every window whose value is below every earlier cell of the window.

    ``best`` holds consecutive windows of the given widths (one per segment), ``_EMPTY``
    where there is no candidate. One running minimum over all windows -- every later window
    shifted below the earlier ones, so that a window never sees its predecessors -- finds
    the strict prefix minima; keys are replaced by their ranks when the shift would not fit
    in ``_SHIFT_LIMIT``.
    """
    finite = best != _EMPTY
    if not finite.any():
        return finite
    n_segments = width.size
    values = best[finite]
    low = int(values.min())
    span = int(values.max()) - low + 2
    if span * n_segments >= _SHIFT_LIMIT:
        distinct, ranks = np.unique(values, return_inverse=True)
        values, span = ranks.reshape(-1), distinct.size + 1
    else:
        values = values - low
    shifted = np.full(best.size, span - 1, dtype=np.int64)      # an empty cell: above all
    shifted[finite] = values
    shifted += (n_segments - 1 - np.repeat(np.arange(n_segments), width)) * span
    running = np.minimum.accumulate(shifted)
    keep = finite
    keep[1:] &= shifted[1:] < running[:-1]
    return keep


def _frontier_pass(tree: Tree, grow: np.ndarray, floor: np.ndarray, costs: np.ndarray, k: int,
                   size_weight: int, keep_all: bool = True):
    """Algorithm 6 for every node and every row of ``costs``, one level at a time.

    A node's frontier lists, for increasing growing errors g <= k, the prunings of its
    subtree that beat every pruning with fewer growing errors; each is summarised by
    ``key = cost * scale + size_weight * size`` (size: the pruning's nodes; with
    ``size_weight=1`` the key orders by cost first, then size).
    Its points lie between ``floor[v]`` (the growing errors of the whole subtree, which every
    pruning of it makes at least) and ``min(k, grow[v])`` (no pruning of the subtree makes
    more than the node as a leaf), so a node owns one window of that many cells per row. The
    children's frontiers are combined into the window by :func:`_merge_children` (the
    min-plus convolution of Theorem 5, the node adding one node), the node as a leaf is
    offered at ``grow[v]``, and the strict prefix minima of the window are the node's
    frontier. A level's windows hold at most ``rows * (n + level size)`` cells (n: growing
    examples); the children's frontiers are dropped once merged unless ``keep_all``.

    Returns
    -------
    list of dict, one per level (root level first), each with arrays ``g``, ``key``, ``a``,
    ``b`` (chosen points of the left and right child in the next level's arrays, ``-1`` for
    the leaf option) and ``start`` (segment offsets; segment = position in level * rows +
    row). With ``keep_all=False`` only the root level's.
    """
    rows = costs.shape[0]
    k = min(k, int(grow[0]))                   # no pruning makes more growing errors
    scale = tree.n_nodes + 1 if size_weight else 1
    leaf_key = costs.astype(np.int64) * scale + size_weight         # (rows, n_nodes)
    window = np.maximum(np.minimum(grow, k) - floor + 1, 0)
    pos = np.zeros(tree.n_nodes, dtype=np.int64)
    row = np.arange(rows)
    blocks, below = [], None
    for level in reversed(tree.levels):
        pos[level] = np.arange(level.size)
        n_segments = level.size * rows
        width = np.repeat(window[level], rows)
        offset = np.cumsum(width) - width
        zero = offset - np.repeat(floor[level], rows)    # cell of g in segment s: zero[s] + g
        best = np.full(int(width.sum()), _EMPTY, dtype=np.int64)
        first = np.full(best.size, -1, dtype=np.int64)    # chosen point of the left child
        second = np.full(best.size, -1, dtype=np.int64)   # and of the right child
        inner = level[~tree.is_leaf[level]]
        if inner.size:
            _merge_children(tree, inner, pos, rows, below, k, size_weight, zero,
                            (best, first, second))
        feasible = level[grow[level] <= k]                # the node as a leaf
        seg = (pos[feasible][:, None] * rows + row).reshape(-1)
        cell = zero[seg] + np.repeat(grow[feasible], rows)
        key = leaf_key[:, feasible].T.reshape(-1)
        won = key < best[cell]
        cell = cell[won]
        best[cell], first[cell], second[cell] = key[won], -1, -1
        cells = np.flatnonzero(_strict_prefix_minima(best, width))
        owner = np.searchsorted(offset, cells, side="right") - 1
        below = dict(g=cells - zero[owner], key=best[cells], a=first[cells], b=second[cells],
                     start=np.searchsorted(owner, np.arange(n_segments + 1)))
        if keep_all:
            blocks.append(below)
    if not keep_all:
        return [below]
    blocks.reverse()
    return blocks


def _merge_children(tree, inner, pos, rows, below, k, size_weight, zero, tables):
    """Offer every combination of a left and a right frontier point of every inner node.

    The candidate of points a and b makes ``g[a] + g[b]`` growing errors (kept if <= k) and
    has key ``key[a] + key[b] + size_weight``; ``tables = (best, first, second)`` keep, per
    cell, the smallest key offered and its pair. Two exact ways compute the same minima:
    enumerating the pairs, for all nodes of the level at once in chunks of
    ``_PAIRS_PER_CHUNK`` (:func:`_merge_by_pairs`), or, for a node whose frontiers are long,
    one vectorised pass over the window per point of one child (:func:`_merge_by_slices`);
    each node takes the one with the smaller estimated cost.
    """
    row = np.arange(rows)
    seg_out = (pos[inner][:, None] * rows + row).reshape(-1)
    seg_l = (pos[tree.left[inner]][:, None] * rows + row).reshape(-1)
    seg_r = (pos[tree.right[inner]][:, None] * rows + row).reshape(-1)
    g, key, start = below["g"], below["key"], below["start"]
    first_l, n_l = start[seg_l], start[seg_l + 1] - start[seg_l]
    first_r, n_r = start[seg_r], start[seg_r + 1] - start[seg_r]
    some = np.flatnonzero((n_l > 0) & (n_r > 0))
    seg_out, seg_r, first_l, n_l, first_r, n_r = (
        x[some] for x in (seg_out, seg_r, first_l, n_l, first_r, n_r))
    span_l = g[first_l + n_l - 1] - g[first_l]
    span_r = g[first_r + n_r - 1] - g[first_r]
    low = g[first_l] + g[first_r]
    reach = np.minimum(k, low + span_l + span_r) - low + 1       # window cells the pairs reach
    left_outer = n_l * (span_r + 1) <= n_r * (span_l + 1)        # as _merge_by_slices does
    passes = np.where(left_outer, n_l, n_r)
    elements = np.where(left_outer, n_l * (span_r + 1), n_r * (span_l + 1)) + span_l + span_r
    largest = key[first_l] + key[first_r] + size_weight + 1      # the first points' keys
    by_slices = ((n_l * n_r * _PAIR_COST > elements * _ELEMENT_COST + passes * _PASS_COST)
                 & (reach > 0) & (largest < _OFFER_LIMIT // passes))
    base = zero[seg_out]
    for s in np.flatnonzero(by_slices).tolist():
        _merge_by_slices(below, k, size_weight, int(base[s]), int(first_l[s]), int(n_l[s]),
                         int(first_r[s]), int(n_r[s]), tables)
    pairs = np.flatnonzero(~by_slices & (reach > 0))
    if pairs.size:
        _merge_by_pairs(below, k, size_weight, base[pairs], first_l[pairs], n_l[pairs],
                        first_r[pairs], seg_r[pairs], tables)


def _merge_by_pairs(below, k, size_weight, base, first_l, n_l, first_r, seg_r, tables):
    """Enumerate the pairs within budget, left point by left point, a chunk at a time.

    For every left point a the right points with ``g[b] <= k - g[a]`` are a prefix of the
    right frontier, found by one binary search; the pairs of a chunk of left points are
    formed (left-major, like the nested loops of Algorithm 6), reduced into the table with an
    unbuffered minimum, and the pairs that attain the minimum recorded (on ties the later).
    """
    best, first, second = tables
    g, key, start = below["g"], below["key"], below["start"]
    n_left = int(n_l.sum())
    owner = np.repeat(np.arange(n_l.size), n_l)
    a_all = first_l[owner] + np.arange(n_left) - np.repeat(np.cumsum(n_l) - n_l, n_l)
    point_segment = np.repeat(np.arange(start.size - 1), np.diff(start))
    composite = point_segment * (k + 1) + g          # sorted: segment, then growing errors
    count = (np.searchsorted(composite, seg_r[owner] * (k + 1) + (k - g[a_all]), side="right")
             - first_r[owner])
    ends = np.cumsum(count)
    i = 0
    while i < n_left:
        done = int(ends[i - 1]) if i else 0
        stop = max(i + 1, int(np.searchsorted(ends, done + _PAIRS_PER_CHUNK, side="right")))
        c = count[i:stop]
        total = int(ends[stop - 1]) - done
        if total:
            who = np.repeat(owner[i:stop], c)
            a = np.repeat(a_all[i:stop], c)
            b = first_r[who] + np.arange(total) - np.repeat(np.cumsum(c) - c, c)
            cell = base[who] + g[a] + g[b]
            value = key[a] + key[b] + size_weight
            np.minimum.at(best, cell, value)
            hit = value == best[cell]
            first[cell[hit]], second[cell[hit]] = a[hit], b[hit]
        i = stop


def _merge_by_slices(below, k, size_weight, base, first_l, n_l, first_r, n_r, tables):
    """The min-plus convolution of two long frontiers, one window-wide pass per point.

    The inner child's frontier is spread into its staircase over the window (its best point
    with at most ``g_low + o`` growing errors, for every offset o); point j of the outer
    child then offers ``key_j + staircase[o]`` at the cells ``g_j + g_low + o``: one addition
    and one minimum over a contiguous slice. Offers carry the point's number in their low
    digits (``key * n_outer + code``), so the minimum keeps the winning point too; ties go,
    as with pairs, to the larger left point. A point's offers stop where the next point
    together with the inner child's last point beats them. The outer child is the one with
    less work. The caller makes sure that ``(largest key + 1) * n_outer < _OFFER_LIMIT``.
    """
    best, first, second = tables
    g, key = below["g"], below["key"]
    g_l, g_r = g[first_l:first_l + n_l], g[first_r:first_r + n_r]
    left_outer = n_l * (g_r[-1] - g_r[0] + 1) <= n_r * (g_l[-1] - g_l[0] + 1)
    if left_outer:
        outer, inner, g_out, g_in = first_l, first_r, g_l, g_r
    else:
        outer, inner, g_out, g_in = first_r, first_l, g_r, g_l
    n_out = g_out.size
    codes = np.arange(n_out)[::-1] if left_outer else np.arange(n_out)
    offers_of_point = (key[outer:outer + n_out] * n_out + codes).tolist()
    low = int(g_out[0] + g_in[0])
    width = min(k, int(g_out[-1] + g_in[-1])) - low + 1
    step = np.searchsorted(g_in, g_in[0] + np.arange(width), side="right") - 1
    staircase = (key[inner + step] + size_weight) * n_out
    merged = np.full(width, _EMPTY, dtype=np.int64)
    offer = np.empty(width, dtype=np.int64)
    span = int(g_in[-1] - g_in[0])
    shifts = (g_out - g_out[0]).tolist()
    for j, shift in enumerate(shifts):
        if shift >= width:
            break
        stop = width if j + 1 == n_out else min(width, shifts[j + 1] + span)
        part = offer[:stop - shift]
        np.add(staircase[:stop - shift], offers_of_point[j], out=part)
        np.minimum(merged[shift:stop], part, out=merged[shift:stop])
    reached = np.flatnonzero(merged != _EMPTY)
    code = merged[reached] % n_out
    j = n_out - 1 - code if left_outer else code
    point_out = outer + j
    point_in = inner + step[reached - (g_out[j] - g_out[0])]
    cells = base + low + reached
    best[cells] = merged[reached] // n_out
    first[cells] = point_out if left_outer else point_in
    second[cells] = point_in if left_outer else point_out


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
    check_tree(tree)
    k = check_count(k, "k")
    errors = tree.leaf_errors(tree.node_counts(X_prune, y_prune))
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
    """
    check_tree(tree)
    k = check_count(k, "k")
    errors = tree.leaf_errors(tree.node_counts(X_prune, y_prune, names=("X_prune", "y_prune")))
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
