"""The min-plus kernel of k-REP: Algorithm 6 of Kääriäinen, Malinen & Elomaa (2004).

k-REP (:mod:`prunekit.k_reduced_error_pruning`) and the Rademacher penalty of the k-REP class
(:func:`prunekit.rademacher_penalty` with ``k``) both minimise a cost over the prunings with at
most k growing-set errors. Theorem 5 of the paper reduces that to a recursion over the tree:
the best pruning of a node within budget i is the node as a leaf, or the node over the best
prunings of its children within budgets u and v with u + v = i, a min-plus convolution of the
children's tables (:func:`min_plus_merge`, the paper's dense Algorithm 6). The kernel here runs
that recursion on per-node Pareto frontiers instead of tables of length k + 1, for every node
of a level and every cost vector at once (:func:`_frontier_pass`).
"""

from __future__ import annotations

import numpy as np

from prunekit.validation import check_count
from prunekit.tree import Tree

__all__ = ["min_plus_merge"]

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


# ---------------------------------------------------------------------- fewest cost within k
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


# ---------------------------------------------------------------------- the merges
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

