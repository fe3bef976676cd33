"""Drawing trees, with a pruning superimposed.

Every chapter draws trees the same way: leaves spread left to right in their left-to-right
order, each internal node centred above its children; the class counts of the growing sample
written at each node; the part a pruning removes drawn in grey.
"""

from __future__ import annotations

import numpy as np

from prunekit._validation import as_array, check_bool, check_count, check_real
from prunekit.tree import Pruning, Tree, check_tree

__all__ = [
    "tree_layout", "plot_tree", "plot_prunings", "plot_upper_limit",
    "plot_pruning_explorer",
    # chapter 1
    # chapter 2
    # chapter 3
    # chapter 4
    # chapter 5
    # chapter 6
    # chapter 7
    # chapter 8
    # chapter 9
]

_PALETTE = ("#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860", "#DA8BC3",
            "#8C8C8C", "#CCB974", "#64B5CD")


def _tint(colour: str, strength: float = 0.35):
    """An opaque, lighter version of ``colour`` (so edges do not show through boxes)."""
    from matplotlib.colors import to_rgb

    return tuple(strength * c + (1 - strength) for c in to_rgb(colour))


def tree_layout(tree: Tree) -> np.ndarray:
    """Coordinates (x, y) of every node: leaves at x = 0, 1, 2, ... from left to right,
    internal nodes halfway between their children, y = -depth."""
    check_tree(tree)
    xy = np.zeros((tree.n_nodes, 2))
    xy[:, 1] = -tree.depth
    next_leaf, stack = 0, [(0, False)]
    while stack:  # iterative postorder, left subtree first
        v, children_done = stack.pop()
        if tree.is_leaf[v]:
            xy[v, 0], next_leaf = next_leaf, next_leaf + 1
        elif children_done:
            xy[v, 0] = (xy[tree.left[v], 0] + xy[tree.right[v], 0]) / 2
        else:
            stack += [(v, True), (int(tree.right[v]), False), (int(tree.left[v]), False)]
    return xy


def _rule(tree: Tree, v: int, feature_names) -> str:
    name = feature_names[tree.feature[v]] if feature_names is not None else f"x{tree.feature[v]}"
    if tree.threshold[v] == 0.5:
        return f"{name} = 0?"
    return f"{name} ≤ {tree.threshold[v]:.3g}?"


def _names(values, name: str, needed: int, what: str) -> list[str] | None:
    """A sequence of at least ``needed`` names, or None."""
    if values is None:
        return None
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__") or np.ndim(values) != 1:
        raise TypeError(f"{name} must be a sequence of strings, one per {what}, got "
                        f"{type(values).__name__} {values!r}.")
    if len(values) < needed:
        raise ValueError(f"{name} must have one entry per {what} ({needed}), got {len(values)}.")
    return [str(value) for value in values]


def plot_tree(tree: Tree, pruning: Pruning | None = None, *, ax=None, counts: bool = True,
              rules: bool = True, highlight=None, feature_names=None, class_names=None,
              max_labelled_nodes: int = 63, title: str | None = None):
    """Draw ``tree``; with ``pruning``, grey out what the pruning removes.

    Parameters
    ----------
    tree : Tree
    pruning : Pruning, optional
        Kept nodes are drawn in colour (a node's colour is the class it predicts), the
        pruning's leaves with a thick outline; removed nodes in light grey.
    ax : matplotlib Axes, optional
    counts : bool, default True
        Write each node's growing class counts.
    rules : bool, default True
        Write each kept internal node's split rule ("x3 = 0?" for binary features,
        "x3 ≤ 0.25?" otherwise; the left branch is "yes").
    highlight : int or sequence of int, optional
        Nodes to ring in red.
    feature_names, class_names : sequence of str, optional
        One name per feature (at least ``tree.n_features``) and one per class (at least
        ``tree.n_classes``). Without ``feature_names`` the splits are labelled with the tree's
        own :attr:`Tree.feature_names` (the column names of the DataFrame it was grown on),
        or ``x0``, ``x1``, ... when it has none.
    max_labelled_nodes : int, default 63
        Above this many nodes the text is left out and nodes are drawn as dots.
    title : str, optional

    Returns
    -------
    matplotlib Axes
    """
    import matplotlib.pyplot as plt

    check_tree(tree)
    if pruning is not None and not isinstance(pruning, Pruning):
        raise TypeError(f"pruning must be a prunekit Pruning or None, got "
                        f"{type(pruning).__name__}.")
    if pruning is not None and pruning.tree is not tree:
        raise ValueError("pruning must be a pruning of the tree being drawn.")
    if ax is not None and not (hasattr(ax, "plot") and hasattr(ax, "text")):
        raise TypeError(f"ax must be a matplotlib Axes or None, got {type(ax).__name__}.")
    counts, rules = check_bool(counts, "counts"), check_bool(rules, "rules")
    max_labelled_nodes = check_count(max_labelled_nodes, "max_labelled_nodes")
    _check_title(title)
    if feature_names is None:
        feature_names = tree.feature_names
    feature_names = _names(feature_names, "feature_names", tree.n_features or 0, "feature")
    class_names = _names(class_names, "class_names", tree.n_classes, "class")
    if highlight is None:
        highlight = set()
    else:
        nodes = np.atleast_1d(np.asarray(highlight, dtype=object)).ravel().tolist()
        for node in nodes:
            tree._check_node(node, "highlight")
        highlight = {int(node) for node in nodes}
    kept = np.ones(tree.n_nodes, bool) if pruning is None else pruning.kept
    leaf = tree.is_leaf if pruning is None else pruning.is_leaf
    labels = tree.labels if pruning is None else pruning.labels
    xy = tree_layout(tree)
    labelled = tree.n_nodes <= max_labelled_nodes
    if ax is None:
        width = min(16, max(4, 1.25 * tree.n_leaves if labelled else 0.2 * tree.n_leaves))
        height = min(10, max(2.5, (1.3 if labelled else 0.45) * (tree.max_depth + 1)))
        _, ax = plt.subplots(figsize=(width, height))
    for v in np.flatnonzero(~tree.is_leaf):
        for child in (tree.left[v], tree.right[v]):
            colour = "#444444" if kept[child] else "#DDDDDD"
            ax.plot(*xy[[v, child]].T, color=colour, lw=1.2 if kept[child] else 0.8, zorder=1)
    names = class_names if class_names is not None else [str(c) for c in tree.classes_]
    for v in range(tree.n_nodes):
        colour = _PALETTE[labels[v] % len(_PALETTE)] if kept[v] else "#EEEEEE"
        edge = "#C0392B" if v in highlight else ("#222222" if kept[v] else "#CCCCCC")
        width = 2.5 if (leaf[v] and kept[v]) or v in highlight else 0.8
        if not labelled:
            ax.scatter(*xy[v], s=30, color=colour, edgecolors=edge, linewidths=width, zorder=2)
            continue
        lines = []
        if kept[v] and not leaf[v] and rules:
            lines.append(_rule(tree, v, feature_names))
        elif kept[v] and leaf[v]:
            lines.append(f"→ {names[labels[v]]}")
        if counts:
            lines.append(str(tree.counts[v].tolist()))
        text = "\n".join(lines) if lines else str(v)
        ax.text(*xy[v], text, ha="center", va="center", fontsize=8, zorder=3,
                color="#111111" if kept[v] else "#AAAAAA",
                bbox=dict(boxstyle="round,pad=0.3", facecolor=_tint(colour) if kept[v] else "white",
                          edgecolor=edge, linewidth=width))
    ax.set_xlim(xy[:, 0].min() - 0.7, xy[:, 0].max() + 0.7)
    ax.set_ylim(xy[:, 1].min() - 0.6, 0.6)
    ax.axis("off")
    if title:
        ax.set_title(title)
    return ax


# ---------------------------------------------------------------------------------------------
# Several prunings of one tree, C4.5's upper confidence limit, a pruner against its parameter
# (Chapter 8). Figures are drawn at the width they are shown at (7 in at most) with every text
# at least ``fontsize`` points.

_NOTE_COLOUR = "#8E1B12"


def _check_drawing_size(width: float, fontsize: float) -> None:
    if check_real(width, "width", minimum=0, strict=True) > 7:
        raise ValueError(f"width must be a number of inches in (0, 7], got {width!r}.")
    if check_real(fontsize, "fontsize") < 9:
        raise ValueError(f"fontsize must be a number of points of at least 9, got {fontsize!r}.")


def _check_title(title, name: str = "title") -> None:
    if title is not None and not isinstance(title, str):
        raise TypeError(f"{name} must be a string or None, got {type(title).__name__}.")


def _raise_font_sizes(ax, fontsize: float) -> None:
    """Set every text of ``ax`` drawn smaller than ``fontsize`` points to ``fontsize``."""
    for text in ax.texts:
        if text.get_fontsize() < fontsize:
            text.set_fontsize(fontsize)
    ax.title.set_fontsize(max(ax.title.get_fontsize(), fontsize + 1))


def _per_panel(values, n_panels: int, name: str) -> list:
    if values is None:
        return [None] * n_panels
    values = list(values)
    if len(values) != n_panels:
        raise ValueError(f"{name} must have one entry per pruning ({n_panels}), got {len(values)}.")
    return values


def _text_lines(tree: Tree, pruning: Pruning, counts: bool, rules: bool) -> np.ndarray:
    """How many lines of text :func:`plot_tree` writes in each node's box."""
    inner = pruning.kept & ~pruning.is_leaf
    lines = np.full(tree.n_nodes, int(counts))
    lines[inner & rules] += 1
    lines[pruning.is_leaf] += 1
    return np.maximum(lines, 1)


def plot_prunings(tree: Tree, prunings, *, titles=None, notes=None, highlight=None,
                  node_ids: bool = True, counts: bool = True, rules: bool = True,
                  width: float = 7.0, panel_height: float | None = None, fontsize: float = 9,
                  feature_names=None, class_names=None):
    """Draw several prunings of one tree, one panel each, stacked vertically.

    Each panel is :func:`plot_tree` of one pruning (the removed part in grey) at the full
    width of the figure, so that several methods can be compared node by node without
    shrinking the drawing. Optionally every node gets its index above its box, and chosen
    nodes get a note below it (e.g. the numbers a pruning rule compared there).

    Parameters
    ----------
    tree : Tree
        At most 63 nodes, so that every node can be labelled.
    prunings : sequence of Pruning
        Prunings of ``tree``, one panel each, top to bottom.
    titles : sequence of str, optional
        One title per panel.
    notes : sequence of (dict or None), optional
        Per panel, a mapping ``node -> text`` written below that node's box.
    highlight : sequence of (int, sequence of int or None), optional
        Per panel, nodes to ring in red.
    node_ids : bool, default True
        Write each node's index above its box.
    counts, rules : bool, default True
        Passed to :func:`plot_tree`.
    width : float, default 7.0
        Width of the figure in inches, at most 7 (the width of the text column).
    panel_height : float, optional
        Height of each panel in inches; default from the depth of the tree.
    fontsize : float, default 9
        Smallest font size in points, at least 9.
    feature_names, class_names : sequence of str, optional
        Passed to :func:`plot_tree`.

    Returns
    -------
    matplotlib Figure
    """
    import matplotlib.pyplot as plt

    check_tree(tree)
    if tree.n_nodes > 63:
        raise ValueError(f"tree has {tree.n_nodes} nodes; plot_prunings labels every node and "
                         f"draws trees of at most 63 nodes.")
    if isinstance(prunings, Pruning):
        prunings = [prunings]
    prunings = list(prunings)
    if not prunings:
        raise ValueError("prunings must hold at least one Pruning.")
    for k, pruning in enumerate(prunings):
        if not isinstance(pruning, Pruning) or pruning.tree is not tree:
            raise ValueError(f"prunings[{k}] must be a Pruning of tree, got "
                             f"{type(pruning).__name__}.")
    _check_drawing_size(width, fontsize)
    node_ids = check_bool(node_ids, "node_ids")
    counts, rules = check_bool(counts, "counts"), check_bool(rules, "rules")
    n = len(prunings)
    titles = _per_panel(titles, n, "titles")
    for k, title in enumerate(titles):
        _check_title(title, f"titles[{k}]")
    notes = _per_panel(notes, n, "notes")
    highlight = _per_panel(highlight, n, "highlight")
    for k, panel_notes in enumerate(notes):
        if panel_notes is None:
            continue
        if not isinstance(panel_notes, dict):
            raise TypeError(f"notes[{k}] must be a dict mapping nodes to text or None, got "
                            f"{type(panel_notes).__name__}.")
        bad = [v for v in panel_notes if not (isinstance(v, (int, np.integer))
                                              and not isinstance(v, (bool, np.bool_))
                                              and 0 <= v < tree.n_nodes)]
        if bad:
            raise ValueError(f"notes[{k}] names nodes outside [0, {tree.n_nodes}): {bad}.")
    levels = tree.max_depth + 1
    if panel_height is None:
        per_level = (0.32 + 0.16 * (counts + rules) + 0.2 * node_ids
                     + 0.2 * any(panel is not None for panel in notes))
        panel_height = 0.5 + levels * per_level
    if (isinstance(panel_height, (bool, np.bool_)) or not isinstance(panel_height, (int, float))
            or not 0 < panel_height < np.inf):
        raise ValueError(f"panel_height must be a positive number of inches, got {panel_height!r}.")
    fig, axes = plt.subplots(n, 1, figsize=(width, n * panel_height), squeeze=False)
    xy = tree_layout(tree)
    for ax, pruning, title, panel_notes, ring in zip(axes[:, 0], prunings, titles, notes, highlight):
        plot_tree(tree, pruning, ax=ax, counts=counts, rules=rules, highlight=ring,
                  feature_names=feature_names, class_names=class_names, title=title)
        _raise_font_sizes(ax, fontsize)
        half = (_text_lines(tree, pruning, counts, rules) * 1.2 + 0.6) * fontsize / 2 + 1.5
        if node_ids:
            for v in range(tree.n_nodes):
                ax.annotate(str(v), xy[v], xytext=(0, half[v]), textcoords="offset points",
                            ha="center", va="bottom", fontsize=fontsize, zorder=4,
                            color="#555555" if pruning.kept[v] else "#AAAAAA",
                            bbox=dict(boxstyle="square,pad=0.05", facecolor="white",
                                      edgecolor="none"))
        for v, text in (panel_notes or {}).items():
            ax.annotate(text, xy[v], xytext=(0, -half[v]), textcoords="offset points",
                        ha="center", va="top", fontsize=fontsize, color=_NOTE_COLOUR, zorder=4,
                        bbox=dict(boxstyle="round,pad=0.15", facecolor="white",
                                  edgecolor=_NOTE_COLOUR, linewidth=0.6))
        ax.set_ylim(xy[:, 1].min() - 0.75, 0.75)
    fig.tight_layout()
    return fig


def plot_upper_limit(confidence: float = 0.25, errors=(0, 1, 2, 5), max_n: int = 60,
                     pairs=((0, 10), (2, 20), (10, 100)), *, width: float = 7.0,
                     fontsize: float = 9):
    """C4.5's upper confidence limit U_CF(e, N) as a function of N and of CF.

    Top panel: U_CF(e, N) at ``confidence`` against N, one curve per number of errors ``e``,
    with the exact binomial (Clopper-Pearson) upper limit dashed and the training error rate
    e / N dotted. Bottom panel: U_CF(e, N) against CF on a log scale for the (e, N) of
    ``pairs``. The values are those of :func:`prunekit.heuristics.upper_confidence_limit`
    (Quinlan 1993, Sec. 4.2, as Weka's J48 computes them).

    Parameters
    ----------
    confidence : float, default 0.25
        CF of the top panel, in (0, 0.5].
    errors : sequence of int, default (0, 1, 2, 5)
        Numbers of errors e, one curve each in the top panel.
    max_n : int, default 60
        Largest N of the top panel.
    pairs : sequence of (e, N), default ((0, 10), (2, 20), (10, 100))
        The curves of the bottom panel.
    width : float, default 7.0
        Figure width in inches, at most 7.
    fontsize : float, default 9
        Smallest font size in points, at least 9.

    Returns
    -------
    matplotlib Figure
    """
    import matplotlib.pyplot as plt
    from scipy.stats import beta

    from prunekit.heuristics import upper_confidence_limit

    _check_drawing_size(width, fontsize)
    if not 0 < check_real(confidence, "confidence") <= 0.5:
        raise ValueError(f"confidence must be in (0, 0.5], got {confidence!r}.")
    max_n = check_count(max_n, "max_n", minimum=1)
    if isinstance(errors, (str, bytes)) or not hasattr(errors, "__iter__"):
        raise TypeError(f"errors must be a sequence of integers, got {type(errors).__name__}.")
    errors = [check_count(e, "errors[i]") for e in errors]
    if not errors or max(errors) >= max_n:
        raise ValueError(f"errors must be non-empty integers in [0, max_n), got {errors}.")
    if isinstance(pairs, (str, bytes)) or not hasattr(pairs, "__iter__"):
        raise TypeError(f"pairs must be a sequence of (e, N), got {type(pairs).__name__}.")
    pairs = [tuple(pair) for pair in pairs]
    if any(len(pair) != 2 for pair in pairs):
        raise ValueError(f"pairs must be (e, N) with 0 <= e <= N and N >= 1, got {pairs}.")
    pairs = [(check_count(e, "pairs: e"), check_count(n, "pairs: N")) for e, n in pairs]
    if any(not 0 <= e <= n or n < 1 for e, n in pairs):
        raise ValueError(f"pairs must be (e, N) with 0 <= e <= N and N >= 1, got {pairs}.")

    def exact(e, n, cf):
        return beta.ppf(1 - cf, e + 1, n - e) if e < n else 1.0

    with plt.rc_context({"font.size": fontsize}):
        fig, (top, bottom) = plt.subplots(2, 1, figsize=(width, 7.0))
        for k, e in enumerate(errors):
            colour = _PALETTE[k % len(_PALETTE)]
            sizes = np.arange(max(e, 1), max_n + 1)
            top.plot(sizes, [upper_confidence_limit(e, n, confidence) for n in sizes],
                     color=colour, label=f"$U_{{CF}}({e}, N)$")
            top.plot(sizes, [exact(e, n, confidence) for n in sizes], "--", color=colour,
                     lw=1)
            if e > 0:
                top.plot(sizes, e / sizes, ":", color=colour, lw=1)
        top.plot([], [], "--", color="grey", lw=1, label="exact binomial limit")
        top.plot([], [], ":", color="grey", lw=1, label="training rate $e/N$")
        top.set_xlabel("number of examples at the leaf, $N$")
        top.set_ylabel("upper limit of the error rate")
        top.set_title(f"CF = {confidence:g}")
        top.set_ylim(0, 1)
        top.legend(ncol=2)
        grid = np.geomspace(1e-3, 0.5, 60)
        for k, (e, n) in enumerate(pairs):
            colour = _PALETTE[k % len(_PALETTE)]
            bottom.plot(grid, [upper_confidence_limit(e, n, cf) for cf in grid], color=colour,
                        label=f"$e = {e}$, $N = {n}$")
            bottom.plot(grid, [exact(e, n, cf) for cf in grid], "--", color=colour, lw=1)
        bottom.set_xscale("log")
        bottom.set_xlabel("confidence level CF (log scale)")
        bottom.set_ylabel("$U_{CF}(e, N)$")
        bottom.set_title("the same limit as CF varies (dashed: exact binomial limit)")
        bottom.legend()
        fig.tight_layout()
    return fig


def plot_pruning_explorer(tree: Tree, pruning: Pruning, values, n_leaves, errors, current, *,
                          parameter: str = "CF", log_scale: bool = True, counts: bool = False,
                          title: str | None = None, width: float = 7.0, fontsize: float = 9):
    """One pruning of a tree above the size and errors of a pruner along its parameter.

    The view of an interactive explorer: the top panel draws ``pruning`` on ``tree`` (removed
    part in grey); the bottom panel plots the number of leaves (left axis) and one or more
    error curves (right axis) against the pruner's parameter, with the current value marked.

    Parameters
    ----------
    tree : Tree
    pruning : Pruning
        The pruning at ``current``.
    values : array-like of shape (k,)
        The parameter values of the curves, increasing.
    n_leaves : array-like of shape (k,)
        Leaves of the pruning at every value.
    errors : dict of str to array-like of shape (k,)
        Error curves by label (e.g. training and test error rates).
    current : float
        The parameter value of ``pruning``.
    parameter : str, default "CF"
        Name of the parameter, for the axis label.
    log_scale : bool, default True
        Plot the parameter on a log scale.
    counts : bool, default False
        Write the class counts in the tree's boxes (for small trees).
    title : str, optional
        Title of the tree panel.
    width : float, default 7.0
        Figure width in inches, at most 7.
    fontsize : float, default 9
        Smallest font size in points, at least 9.

    Returns
    -------
    matplotlib Figure
    """
    import matplotlib.pyplot as plt

    check_tree(tree)
    if not isinstance(pruning, Pruning) or pruning.tree is not tree:
        raise ValueError("pruning must be a Pruning of tree.")
    _check_drawing_size(width, fontsize)
    log_scale, counts = check_bool(log_scale, "log_scale"), check_bool(counts, "counts")
    _check_title(title)
    if not isinstance(parameter, str):
        raise TypeError(f"parameter must be a string, got {type(parameter).__name__}.")
    current = check_real(current, "current")
    values = as_array(values, "values", ndim=1, dtype=np.float64).astype(float)
    n_leaves = as_array(n_leaves, "n_leaves", ndim=1, dtype=np.float64).astype(float)
    if values.ndim != 1 or len(values) < 2 or np.any(np.diff(values) <= 0):
        raise ValueError("values must be at least two increasing numbers.")
    if n_leaves.shape != values.shape:
        raise ValueError(f"n_leaves must have one entry per value ({len(values)}).")
    if not isinstance(errors, dict) or not errors:
        raise TypeError("errors must be a non-empty dict mapping labels to error curves.")
    curves = {}
    for label, curve in errors.items():
        curve = as_array(curve, f"errors[{label!r}]", ndim=1, dtype=np.float64,
                         finite=False).astype(float)
        if curve.shape != values.shape:
            raise ValueError(f"errors[{label!r}] must have one entry per value ({len(values)}).")
        curves[label] = curve
    if log_scale and values[0] <= 0:
        raise ValueError("values must be positive on a log scale.")
    with plt.rc_context({"font.size": fontsize}):
        depth_height = 0.5 * (tree.max_depth + 1) if not counts else 0.75 * (tree.max_depth + 1)
        fig, (ax_tree, ax_size) = plt.subplots(
            2, 1, figsize=(width, min(6.0, depth_height) + 3.0),
            height_ratios=[min(6.0, depth_height), 3.0])
        plot_tree(tree, pruning, ax=ax_tree, counts=counts, rules=counts, title=title)
        _raise_font_sizes(ax_tree, fontsize)
        ax_size.step(values, n_leaves, where="post", color="k", label="leaves")
        ax_size.set_ylabel("leaves of the pruning")
        ax_size.set_xlabel(parameter + (" (log scale)" if log_scale else ""))
        if log_scale:
            ax_size.set_xscale("log")
        ax_err = ax_size.twinx()
        for k, (label, curve) in enumerate(curves.items()):
            ax_err.step(values, curve, where="post", color=_PALETTE[k % len(_PALETTE)],
                        label=label)
        ax_err.set_ylabel("error rate")
        ax_size.axvline(current, color=_NOTE_COLOUR, lw=1.2)
        handles = ax_size.get_legend_handles_labels()
        more = ax_err.get_legend_handles_labels()
        ax_size.legend(handles[0] + more[0], handles[1] + more[1], loc="lower center",
                       bbox_to_anchor=(0.5, 1.0), ncol=len(curves) + 1, frameon=False)
        fig.tight_layout()
    return fig


# ----------------------------------------------------------------------------- chapter 1


# ----------------------------------------------------------------------------- chapter 2


# ----------------------------------------------------------------------------- chapter 3


# ----------------------------------------------------------------------------- chapter 4


# ----------------------------------------------------------------------------- chapter 5


# ----------------------------------------------------------------------------- chapter 6


# ----------------------------------------------------------------------------- chapter 7


# ----------------------------------------------------------------------------- chapter 8


# ----------------------------------------------------------------------------- chapter 9
