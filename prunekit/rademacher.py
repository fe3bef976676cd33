"""Rademacher penalties of the class of prunings, and k-REP (Chapter 6).

Kääriäinen, Malinen & Elomaa (2004) bound the error of a pruning chosen on a pruning sample of
size n by its pruning-set error plus twice the Rademacher penalty of the class of prunings
(Lemma 3),

    R_n(H) = sup_{h in H} | (1/n) sum_i r_i l(h(x_i), y_i) |,

with independent signs r_i = +1 or -1. Their Section 2 computes the supremum by empirical risk
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

import numbers

import numpy as np

from prunekit._validation import check_count, check_sample_and_labels, encode_labels
from prunekit.reduced_error import _check_tree, best_subtree_errors, leaf_errors
from prunekit.tree import Pruning, Tree

__all__ = [
    "draw_signs", "signed_class_sums", "relabelled_leaf_errors", "rademacher_penalty",
    "growing_errors", "growing_errors_of_tree", "min_plus_merge", "k_reduced_error",
    "k_reduced_error_frontier",
]

# Problems (draws x signs) solved together by one k-REP pass; bounds the memory of the pairs.
_CHUNK = 64
# Largest value the shifted running minimum of the frontier filter may reach in int64.
_SHIFT_LIMIT = 2**62


# ---------------------------------------------------------------------- signs
def draw_signs(n: int, rng, n_draws: int | None = None) -> np.ndarray:
    """Independent Rademacher signs: +1 or -1, each with probability 1/2.

    Parameters
    ----------
    n : int
        Number of examples.
    rng : int or numpy.random.Generator
        Seed or generator.
    n_draws : int, optional
        Number of independent draws. Without it, one draw of shape ``(n,)``; the draw equals
        the first row of ``draw_signs(n, rng, 1)`` for the same seed.

    Returns
    -------
    ndarray of int8, shape (n,) or (n_draws, n)
    """
    n = check_count(n, "n", minimum=1)
    rng = _check_rng(rng)
    rows = 1 if n_draws is None else check_count(n_draws, "n_draws", minimum=1)
    signs = (2 * rng.integers(0, 2, size=(rows, n)) - 1).astype(np.int8)
    return signs[0] if n_draws is None else signs


def _check_rng(rng) -> np.random.Generator:
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, numbers.Integral) and not isinstance(rng, bool):
        return np.random.default_rng(int(rng))
    raise TypeError(
        f"rng must be an int seed or a numpy.random.Generator, got {type(rng).__name__}."
    )


def _check_signs(signs, n: int) -> np.ndarray:
    """Validate ``signs``: +-1 values, shape (n,) or (n_draws, n); return a 2-D int64 array."""
    array = np.asarray(signs)
    if array.dtype == object or array.dtype.kind not in "iuf" or array.ndim not in (1, 2):
        raise TypeError(
            f"signs must be a numeric array of +1/-1 of shape (n,) or (n_draws, n), got "
            f"dtype {array.dtype} and {array.ndim} dimensions."
        )
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
def signed_class_sums(tree: Tree, X, y, signs) -> tuple[np.ndarray, np.ndarray]:
    """Per-node class counts of ``(X, y)`` and per-node, per-class sums of the signs.

    Every example is routed to its leaf once; the signed sums are formed at the leaves for all
    draws in one sorted pass and added up the tree level by level
    (:meth:`Tree.sum_over_leaves`), so an example contributes to every node on its
    root-to-leaf path.

    Parameters
    ----------
    tree : Tree
    X, y : array-like
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
    _check_tree(tree)
    tree._require_split_rules()
    X, y = check_sample_and_labels(X, y, tree.n_features, dtype=tree._dtype)
    signs = _check_signs(signs, len(y))
    codes = encode_labels(y, tree.classes_)
    leaf = tree._route(X, tree.is_leaf)
    K = tree.n_classes
    key = leaf * K + codes
    order = np.argsort(key, kind="stable")
    cells, starts = np.unique(key[order], return_index=True)
    at_leaves = np.zeros((tree.n_nodes * K, signs.shape[0]), dtype=np.int64)
    at_leaves[cells] = np.add.reduceat(signs[:, order], starts, axis=1).T
    sums = tree.sum_over_leaves(at_leaves.reshape(tree.n_nodes, K, -1))
    counts = tree.counts_from_leaves(leaf, codes)
    return counts, np.moveaxis(sums, -1, 0)


def relabelled_leaf_errors(tree: Tree, X, y, signs) -> tuple[np.ndarray, np.ndarray]:
    """Errors every node makes as a leaf on the two relabelled samples of Section 2.

    Kääriäinen, Malinen & Elomaa (2004), Sec. 2, with the signs sigma_i (the paper's r_i):
    z_i = ybar_i (the complement class, "any class but y_i") where sigma_i = +1 and z_i = y_i
    where sigma_i = -1; a leaf labelled c errs on
    (x_i, ybar_i) when c = y_i and on (x_i, y_i) when c != y_i. The opposite relabelling zbar
    swaps the roles of the two signs. With two classes ybar_i is simply the other class.

    Returns
    -------
    errors_z, errors_zbar : ndarray of int64, shape (n_nodes,) or (n_draws, n_nodes)
        Relabelled errors of every node as a leaf with the tree's label (one row per draw when
        ``signs`` is 2-D).
    """
    counts, sums = signed_class_sums(tree, X, y, signs)
    nodes = np.arange(tree.n_nodes)
    label_count = counts[nodes, tree.labels]                 # examples of the node's label
    label_sum = sums[:, nodes, tree.labels]                  # their signs, summed
    total, total_sum = counts.sum(axis=1), sums.sum(axis=2)
    plus_label, minus_label = (label_count + label_sum) // 2, (label_count - label_sum) // 2
    plus_total, minus_total = (total + total_sum) // 2, (total - total_sum) // 2
    errors_z = plus_label + (minus_total - minus_label)      # r=+1 of the label, r=-1 not
    errors_zbar = minus_label + (plus_total - plus_label)
    if np.ndim(signs) == 1:
        return errors_z[0], errors_zbar[0]
    return errors_z, errors_zbar


def growing_errors(tree: Tree) -> np.ndarray:
    """Growing-set errors of every node as a leaf with the tree's label: eps_g(N_g)."""
    return leaf_errors(tree.counts, tree.labels)


# ---------------------------------------------------------------------- the penalty
def rademacher_penalty(tree: Tree, X, y, signs=None, rng=None, k=None, *, n_draws=None):
    """The Rademacher penalty of the class of prunings of ``tree`` on the sample ``(X, y)``.

    Kääriäinen, Malinen & Elomaa (2004), Sec. 2 and 5:

        R_n(H) = sup_{h in H} | (1/n) sum_i r_i l(h(x_i), y_i) |
               = max( n_+ / n - err_z(h1),  n_- / n - err_zbar(h2) ),

    where n_+ and n_- count the signs +1 and -1, h1 minimises the errors on the relabelled
    sample z (complement class where r_i = +1) and h2 on the opposite relabelling zbar. H is
    the class of all prunings of the tree with the tree's leaf labels, whose empirical risk
    minimiser is REP (one vectorised bottom-up pass for all draws); with ``k`` it is the k-REP
    class (prunings with at most k growing-set errors), minimised by the frontier programme of
    :func:`k_reduced_error` (Algorithm 6), run for all draws and both signs together.

    Parameters
    ----------
    tree : Tree
    X, y : array-like
        The sample, normally the pruning sample (n examples).
    signs : array-like of +1/-1, shape (n,) or (n_draws, n), optional
        Explicit signs; a 2-D array evaluates every row at once.
    rng : int or numpy.random.Generator, optional
        Draw the signs from this seed or generator instead (:func:`draw_signs`).
    k : int, optional
        Restrict H to the prunings with at most k errors on the growing sample.
    n_draws : int, optional
        With ``rng``: number of independent draws.

    Returns
    -------
    float, or ndarray of shape (n_draws,) for 2-D ``signs`` or ``n_draws``.

    Raises
    ------
    ValueError
        If the k-REP class is empty (every pruning makes more than k growing errors), or the
        signs are not +-1 of the right length.
    """
    _check_tree(tree)
    if signs is None:
        if rng is None:
            raise ValueError("give signs (an array of +1/-1) or rng (a seed or Generator).")
        n = len(y) if hasattr(y, "__len__") else None
        if n is None:
            raise TypeError("y must be an array-like of labels.")
        signs = draw_signs(max(n, 1), rng, n_draws)
    elif rng is not None or n_draws is not None:
        raise ValueError("give either signs, or rng (with n_draws), not both.")
    if k is not None:
        k = check_count(k, "k")
    errors_z, errors_zbar = relabelled_leaf_errors(tree, X, y, signs)
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


def _k_rep_values(tree: Tree, costs: np.ndarray, k: int) -> np.ndarray:
    """Fewest cost of a pruning with at most k growing errors, for every row of ``costs``."""
    grow = growing_errors(tree)
    values = []
    for start in range(0, costs.shape[0], _CHUNK):
        block = _frontier_pass(tree, grow, costs[start:start + _CHUNK], k, size_weight=0,
                               keep_all=False)
        root = block[0]
        seg_start = root["start"]
        if np.any(seg_start[1:] == seg_start[:-1]):
            raise ValueError(
                f"no pruning makes at most k={k} errors on the growing sample (the tree itself "
                f"makes {int(growing_errors_of_tree(tree))}); the k-REP class is empty."
            )
        values.append(root["key"][seg_start[1:] - 1])          # last point: the fewest cost
    return np.concatenate(values)


def growing_errors_of_tree(tree: Tree) -> int:
    """Growing-set errors of the unpruned tree (the fewest of any pruning with majority labels)."""
    return int(growing_errors(tree)[tree.is_leaf].sum())


# ---------------------------------------------------------------------- k-REP
def min_plus_merge(left, right, k: int) -> np.ndarray:
    """One k-REP merge of two children, in the dense form of Algorithm 6 (lines 6-12).

    ``left[u]`` is the fewest pruning errors of a pruning of the left subtree with at most u
    growing errors (``inf`` where there is none), likewise ``right``; the result is

        merged[i] = min_{u + v = i} left[u] + right[v],   i = 0, ..., k,

    the min-plus convolution (Kääriäinen, Malinen & Elomaa 2004, Theorem 5). Sizes are left
    out here; :func:`k_reduced_error` breaks ties by size as Definition 4 asks.

    Parameters
    ----------
    left, right : array-like of float
        Non-increasing in u (a pruning with at most u errors also has at most u + 1).
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
    values = np.asarray(values, dtype=float)
    if values.ndim != 1 or values.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D array, got shape {values.shape}.")
    out = np.full(k + 1, values[-1])        # a larger budget allows what the last one allows
    out[:min(k + 1, values.size)] = values[:k + 1]
    return out


def _segmented_frontier(seg, g, key, n_segments):
    """Per segment, the candidates that beat every candidate with fewer growing errors.

    Each segment gets a dense window over its growing errors 0..max g; the smallest key per
    cell is found with one unbuffered minimum (no sort), and one running minimum over all
    windows -- every later window shifted below the earlier ones -- marks the cells whose
    key is smaller than every key at a smaller g.

    Returns
    -------
    chosen : ndarray of int
        Indices of the kept candidates, ordered by (segment, g): the frontier points.
    """
    if key.size == 0:
        return np.zeros(0, dtype=np.int64)
    width = np.zeros(n_segments, dtype=np.int64)
    np.maximum.at(width, seg, g + 1)
    offset = np.cumsum(width) - width
    cell = offset[seg] + g
    low = int(key.min())
    values = key - low
    empty = int(values.max()) + 1
    dense = np.full(int(width.sum()), empty, dtype=np.int64)
    np.minimum.at(dense, cell, values)
    winner = np.empty(dense.size, dtype=np.int64)
    best = values == dense[cell]
    winner[cell[best]] = np.flatnonzero(best)
    span = empty + 1
    owner = np.repeat(np.arange(n_segments), width)
    if span * n_segments >= _SHIFT_LIMIT:             # rank the keys so that the shift fits
        finite = dense < empty
        distinct, ranks = np.unique(dense[finite], return_inverse=True)
        empty, span = distinct.size, distinct.size + 1
        dense = np.full(dense.size, empty, dtype=np.int64)
        dense[finite] = ranks.reshape(-1)
    shifted = dense + (n_segments - 1 - owner) * span
    running = np.minimum.accumulate(shifted)
    keep = dense < empty
    keep[1:] &= shifted[1:] < running[:-1]
    return winner[keep]


def _frontier_pass(tree: Tree, grow: np.ndarray, costs: np.ndarray, k: int, size_weight: int,
                   keep_all: bool = True):
    """Algorithm 6 for every node and every row of ``costs``, one level at a time.

    A node's frontier lists, for increasing growing errors g <= k, the prunings of its
    subtree that beat every pruning with fewer growing errors; each is summarised by
    ``key = cost * scale + size_weight * n_nodes`` (lexicographic: cost first, then size).
    The frontier of an internal node comes from all pairs of its children's frontier points
    (the min-plus convolution of Theorem 5, with the node itself adding one node) and the
    node as a leaf; dominated points are dropped. All nodes of a level and all rows are
    merged together with array operations.

    Returns
    -------
    list of dict, one per level (root level first), each with arrays ``g``, ``key``, ``a``,
    ``b`` (chosen points of the left and right child in the next level's arrays, ``-1`` for
    the leaf option), ``start`` (segment offsets; segment = position in level * rows + row)
    and ``pos`` (position of every node of the level). With ``keep_all=False`` only the root
    level's, and the levels below are freed as soon as they are merged.
    """
    rows = costs.shape[0]
    scale = tree.n_nodes + 1 if size_weight else 1
    leaf_key = costs.astype(np.int64) * scale + size_weight         # (rows, n_nodes)
    pos = np.zeros(tree.n_nodes, dtype=np.int64)
    blocks = []
    below = None
    for level in reversed(tree.levels):
        pos[level] = np.arange(level.size)
        n_segments = level.size * rows
        # the node as a leaf
        feasible = level[grow[level] <= k]
        seg_leaf = (pos[feasible][:, None] * rows + np.arange(rows)).reshape(-1)
        g_leaf = np.repeat(grow[feasible], rows)
        key_leaf = leaf_key[:, feasible].T.reshape(-1)
        no_child = np.full(seg_leaf.size, -1)
        parts = [(seg_leaf, g_leaf, key_leaf, no_child, no_child)]
        inner = level[~tree.is_leaf[level]]
        if inner.size:
            parts.append(_pair_points(tree, inner, pos, rows, below, k, size_weight))
        seg, g, key, a, b = (np.concatenate(p) for p in zip(*parts))
        chosen = _segmented_frontier(seg, g, key, n_segments)
        seg = seg[chosen]
        block = dict(g=g[chosen], key=key[chosen], a=a[chosen], b=b[chosen],
                     start=np.searchsorted(seg, np.arange(n_segments + 1)), pos=pos[level])
        if keep_all:
            blocks.append(block)
        below = block
    if not keep_all:
        return [below]
    blocks.reverse()
    return blocks


def _pair_points(tree, inner, pos, rows, below, k, size_weight):
    """All pairs of a left and a right frontier point of every inner node, within budget k."""
    row = np.arange(rows)
    seg_out = (pos[inner][:, None] * rows + row).reshape(-1)
    seg_l = (pos[tree.left[inner]][:, None] * rows + row).reshape(-1)
    seg_r = (pos[tree.right[inner]][:, None] * rows + row).reshape(-1)
    start = below["start"]
    first_l, n_l = start[seg_l], start[seg_l + 1] - start[seg_l]
    first_r, n_r = start[seg_r], start[seg_r + 1] - start[seg_r]
    n_pairs = n_l * n_r
    total = int(n_pairs.sum())
    owner = np.repeat(np.arange(seg_out.size), n_pairs)
    offset = np.arange(total) - np.repeat(np.cumsum(n_pairs) - n_pairs, n_pairs)
    a = first_l[owner] + offset // n_r[owner]
    b = first_r[owner] + offset % n_r[owner]
    g = below["g"][a] + below["g"][b]
    ok = g <= k
    a, b, owner = a[ok], b[ok], owner[ok]
    key = below["key"][a] + below["key"][b] + size_weight
    return seg_out[owner], g[ok], key, a, b


def k_reduced_error_frontier(tree: Tree, X_prune, y_prune, k: int):
    """The root's k-REP frontier: growing errors, pruning errors and sizes of its points.

    Point j is the best pruning (fewest pruning errors, then fewest nodes) among those with
    at most ``growing[j]`` growing errors, for each budget at which the best improves
    (Kääriäinen, Malinen & Elomaa 2004, Definition 4); for a budget between two points the
    earlier one is the answer.

    Returns
    -------
    growing, pruning, n_nodes : ndarray of int, sorted by growing errors
    """
    blocks = _pruning_frontiers(tree, X_prune, y_prune, k)
    root, scale = blocks[0], tree.n_nodes + 1
    return root["g"], root["key"] // scale, root["key"] % scale


def _pruning_frontiers(tree, X_prune, y_prune, k):
    """Every node's k-REP frontier on the pruning sample, levels root first."""
    _check_tree(tree)
    k = check_count(k, "k")
    counts = tree.node_counts(X_prune, y_prune)
    pruning_errors = leaf_errors(counts, tree.labels)[None, :]
    return _frontier_pass(tree, growing_errors(tree), pruning_errors, k, size_weight=1)


def k_reduced_error(tree: Tree, X_prune, y_prune, k: int) -> Pruning | None:
    """k-REP: the k-optimal REP pruning (Kääriäinen, Malinen & Elomaa 2004, Definition 4).

    Among the prunings with at most ``k`` errors on the growing sample (the tree's counts),
    the one with the fewest errors on ``(X_prune, y_prune)``, and among those the one with the
    fewest nodes. Theorem 5 says such a pruning is either the root as a leaf or the root over
    u- and v-optimal prunings of its children with u + v = k; Algorithm 6 runs that
    recursion bottom-up for every budget up to k. Here each node keeps only the budgets at
    which its best pruning improves (a Pareto frontier of growing errors against (pruning
    errors, size)); the frontiers of the two children are merged by a min-plus convolution
    over all pairs of their points, for all nodes of a level at once, and the answer is traced
    back from the root.

    Parameters
    ----------
    tree : Tree
    X_prune, y_prune : array-like
        The pruning sample.
    k : int
        Budget of growing-set errors, at least 0.

    Returns
    -------
    Pruning or None
        ``None`` when every pruning makes more than k growing errors (k below the errors of
        the unpruned tree). With k at least the growing errors of every pruning (e.g. the
        growing sample size) the answer is REP's.
    """
    blocks = _pruning_frontiers(tree, X_prune, y_prune, k)
    root = blocks[0]
    if root["start"][1] == 0:
        return None
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
