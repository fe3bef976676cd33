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
    "plot_tree_figure", "plot_growth", "plot_growth_explorer",
    # chapter 2
    "plot_alpha_selection",
    "plot_path_explorer",
    # chapter 3
    "plot_pruning_share",
    # chapter 4
    "plot_excess_error",
    # chapter 5
    "plot_partitions", "plot_size_profile", "plot_excess_risk", "plot_chosen_prunings",
    # chapter 6
    "plot_penalty_budget", "plot_bounds_by_data_set",
    # chapter 7
    "plot_c_effect",
    # chapter 8
    "plot_leaf_prices",
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


def _drawn_tree(model, pruning) -> Tree:
    """The tree :func:`plot_tree` draws: ``model`` itself, or the pruned tree of a fitted
    :class:`~prunekit.PrunedTreeClassifier`."""
    from sklearn.utils.validation import check_is_fitted

    from prunekit.estimator import PrunedTreeClassifier

    if not isinstance(model, PrunedTreeClassifier):
        return check_tree(model)
    check_is_fitted(model)
    if pruning is not None:
        raise ValueError("pruning must be None when a PrunedTreeClassifier is drawn: the "
                         "classifier is drawn as its own pruned tree.")
    return model.pruning_.to_tree()


def plot_tree(tree, pruning: Pruning | None = None, *, ax=None, counts: bool = True,
              rules: bool = True, highlight=None, feature_names=None, class_names=None,
              max_labelled_nodes: int = 63, title: str | None = None):
    """Draw ``tree``; with ``pruning``, grey out what the pruning removes.

    Parameters
    ----------
    tree : Tree or fitted PrunedTreeClassifier
        A :class:`~prunekit.PrunedTreeClassifier` is drawn as its pruned tree alone: the
        kept part of its ``pruning_`` (:meth:`Pruning.to_tree`), without the nodes the
        pruning removed. Node numbers (``highlight``) are then those of that tree.
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

    tree = _drawn_tree(tree, pruning)
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
            tree.check_node(node, "highlight")
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


def _check_pruning_of(tree: Tree, pruning) -> None:
    """``tree`` is a Tree and ``pruning`` one of its prunings (errors name the argument)."""
    check_tree(tree)
    if not isinstance(pruning, Pruning) or pruning.tree is not tree:
        raise ValueError("pruning must be a Pruning of tree.")


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

    _check_pruning_of(tree, pruning)
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
# A tree drawn at the width of the text column; the errors of a tree as it grows (Chapter 1).
# Figures are at most 7 in wide, with every text at least ``fontsize`` points.

_PLOT_TREE_OPTIONS = ("counts", "rules", "highlight", "feature_names", "class_names",
                      "max_labelled_nodes")


def plot_tree_figure(tree: Tree, pruning: Pruning | None = None, *, width: float = 7.0,
                     height: float | None = None, fontsize: float = 9,
                     title: str | None = None, **options):
    """Draw ``tree`` (with ``pruning`` greyed out) in a figure the width of the text column.

    :func:`plot_tree` sizes its own figure by the number of leaves (up to 16 inches wide,
    which the page then shrinks); this draws the same picture ``width`` inches wide with every
    text at least ``fontsize`` points. Chapter 1 uses it for the ID3 trees grown on the Boolean
    cube and for the trees returned by the bottom-up pruning template of Shalev-Shwartz and
    Ben-David (2014), Sec. 18.2.2.

    Parameters
    ----------
    tree : Tree
    pruning : Pruning, optional
        A pruning of ``tree``; the part it removes is drawn in grey.
    width : float, default 7.0
        Figure width in inches, at most 7.
    height : float, optional
        Figure height in inches; default from the depth of the tree.
    fontsize : float, default 9
        Smallest font size in points, at least 9.
    title : str, optional
    **options
        ``counts``, ``rules``, ``highlight``, ``feature_names``, ``class_names`` and
        ``max_labelled_nodes``, passed to :func:`plot_tree`.

    Returns
    -------
    matplotlib Figure
    """
    import matplotlib.pyplot as plt

    check_tree(tree)
    _check_drawing_size(width, fontsize)
    _check_title(title)
    unknown = sorted(set(options) - set(_PLOT_TREE_OPTIONS))
    if unknown:
        raise TypeError(f"unknown option(s) {unknown}; plot_tree_figure passes only "
                        f"{list(_PLOT_TREE_OPTIONS)} to plot_tree.")
    if height is None:
        limit = options.get("max_labelled_nodes", 63)
        labelled = isinstance(limit, (int, np.integer)) and tree.n_nodes <= limit
        height = min(9.0, 0.3 + (0.75 if labelled else 0.4) * (tree.max_depth + 1)
                     + 0.3 * bool(title))
    height = check_real(height, "height", minimum=0, strict=True)
    fig, ax = plt.subplots(figsize=(width, height))
    try:
        plot_tree(tree, pruning, ax=ax, title=title, **options)
    except Exception:
        plt.close(fig)
        raise
    _raise_font_sizes(ax, fontsize)
    fig.tight_layout()
    return fig


_GROWTH_MARKERS = ("o-", "s-", "^-", "D-", "v-", "P-")


def _check_growth(n_nodes, curves):
    """The node counts (positive, non-decreasing) and the curves (one value per count)."""
    n_nodes = as_array(n_nodes, "n_nodes", ndim=1, dtype=np.float64).astype(float)
    if len(n_nodes) < 2 or np.any(n_nodes < 1) or np.any(np.diff(n_nodes) < 0):
        raise ValueError("n_nodes must be at least two non-decreasing node counts, each >= 1.")
    if not isinstance(curves, dict) or not curves:
        raise TypeError(f"curves must be a non-empty dict mapping labels to error curves, got "
                        f"{type(curves).__name__}.")
    checked = {}
    for label, curve in curves.items():
        if not isinstance(label, str):
            raise TypeError(f"curves must have string labels, got {type(label).__name__}.")
        curve = as_array(curve, f"curves[{label!r}]", ndim=1, dtype=np.float64).astype(float)
        if curve.shape != n_nodes.shape:
            raise ValueError(f"curves[{label!r}] must have one entry per tree "
                             f"({len(n_nodes)}), got {len(curve)}.")
        checked[label] = curve
    return n_nodes, checked


def plot_growth(n_nodes, curves, *, bayes_risk: float | None = None,
                current: float | None = None, ax=None, width: float = 7.0,
                height: float = 3.8, fontsize: float = 9, title: str | None = None):
    """Errors of a tree grown to increasing depth, against its number of nodes (log axis).

    The overfitting figure of Chapter 1: one line per curve, typically the training error
    L_S, the exact true error L_D and the MDL bound of Shalev-Shwartz and Ben-David (2014),
    eq. (18.1), of ID3 trees grown to depth 0, 1, 2, ...; the Bayes risk as a dotted line; the
    tree currently shown by an explorer as a vertical line.

    Parameters
    ----------
    n_nodes : array-like of shape (k,)
        Number of nodes of each tree, positive and non-decreasing.
    curves : dict of str to array-like of shape (k,)
        Error curves by label.
    bayes_risk : float, optional
        Drawn as a dotted horizontal line.
    current : float, optional
        The number of nodes of a tree to mark with a vertical line.
    ax : matplotlib Axes, optional
        Draw into it (its figure keeps its size); otherwise a new ``width`` x ``height`` figure.
    width : float, default 7.0
        Figure width in inches, at most 7.
    height : float, default 3.8
        Figure height in inches.
    fontsize : float, default 9
        Smallest font size in points, at least 9.
    title : str, optional

    Returns
    -------
    matplotlib Figure
    """
    import matplotlib.pyplot as plt

    _check_drawing_size(width, fontsize)
    height = check_real(height, "height", minimum=0, strict=True)
    _check_title(title)
    if ax is not None and not (hasattr(ax, "plot") and hasattr(ax, "figure")):
        raise TypeError(f"ax must be a matplotlib Axes or None, got {type(ax).__name__}.")
    n_nodes, curves = _check_growth(n_nodes, curves)
    if bayes_risk is not None:
        bayes_risk = check_real(bayes_risk, "bayes_risk", minimum=0)
    if current is not None:
        current = check_real(current, "current", minimum=0, strict=True)
    with plt.rc_context({"font.size": fontsize}):
        if ax is None:
            _, ax = plt.subplots(figsize=(width, height))
        for k, (label, curve) in enumerate(curves.items()):
            ax.plot(n_nodes, curve, _GROWTH_MARKERS[k % len(_GROWTH_MARKERS)],
                    color=_PALETTE[k % len(_PALETTE)], label=label)
        if bayes_risk is not None:
            ax.axhline(bayes_risk, color="grey", ls=":", label="Bayes risk")
        if current is not None:
            ax.axvline(current, color=_NOTE_COLOUR, lw=1.2, label="the tree shown")
        ax.set_xscale("log")
        ax.set_xlabel("number of nodes |T| (log scale)")
        ax.set_ylabel("error")
        top = max(1.0, max(float(np.max(curve)) for curve in curves.values()))
        ax.set_ylim(0, 1.1 * top)
        ax.legend(loc="upper left")
        if title:
            ax.set_title(title)
        _raise_font_sizes(ax, fontsize)
        ax.figure.tight_layout()
    return ax.figure


def plot_growth_explorer(tree: Tree, n_nodes, curves, *, bayes_risk: float | None = None,
                         max_labelled_nodes: int = 15, title: str | None = None,
                         width: float = 7.0, fontsize: float = 9):
    """One grown tree above the errors of all trees grown to increasing depth.

    The view of Chapter 1's explorer: the top panel draws ``tree`` (with its class counts
    while it has at most ``max_labelled_nodes`` nodes, as dots beyond), the bottom panel is
    :func:`plot_growth` with ``tree`` marked by a vertical line at its number of nodes.

    Parameters
    ----------
    tree : Tree
    n_nodes, curves, bayes_risk
        Passed to :func:`plot_growth`.
    max_labelled_nodes : int, default 15
        Above this many nodes the tree is drawn as dots.
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
    _check_drawing_size(width, fontsize)
    _check_title(title)
    max_labelled_nodes = check_count(max_labelled_nodes, "max_labelled_nodes")
    _check_growth(n_nodes, curves)
    labelled = tree.n_nodes <= max_labelled_nodes
    tree_height = min(5.0, 0.3 + (0.75 if labelled else 0.35) * (tree.max_depth + 1))
    with plt.rc_context({"font.size": fontsize}):
        fig, (ax_tree, ax_growth) = plt.subplots(
            2, 1, figsize=(width, tree_height + 3.4), height_ratios=[tree_height, 3.4])
        plot_tree(tree, ax=ax_tree, counts=labelled, max_labelled_nodes=max_labelled_nodes,
                  title=title)
        _raise_font_sizes(ax_tree, fontsize)
        plot_growth(n_nodes, curves, bayes_risk=bayes_risk, current=tree.n_nodes,
                    ax=ax_growth, width=width, fontsize=fontsize)
    return fig


# ----------------------------------------------------------------------------- chapter 2
# Cost-complexity paths (Breiman et al. 1984, Sec. 3.3-3.4): the path against alpha, the choice
# of alpha by cross-validation, and one step of the path drawn as a tree.


def _check_selection(selection) -> None:
    from prunekit.cost_complexity_pruning import AlphaSelection

    if not isinstance(selection, AlphaSelection):
        raise TypeError(f"selection must be a prunekit AlphaSelection (from cross_validate_alpha "
                        f"or holdout_alpha), got {type(selection).__name__}.")


def _check_step_curve(values, selection, name: str) -> np.ndarray | None:
    """None, or one error rate per step of ``selection``'s path."""
    if values is None:
        return None
    values = as_array(values, name, ndim=1, dtype=np.float64).astype(float)
    if values.shape != (len(selection.path),):
        raise ValueError(f"{name} must have one value per step of the path "
                         f"({len(selection.path)}), got {values.shape[0]}.")
    return values


def _alpha_axis(ax, alphas: np.ndarray) -> np.ndarray:
    """Set the alpha axis of a path plot; return the alphas with one more value, 2 alpha^K,
    so that the last step is drawn as a segment too.

    The axis is linear from 0 to alpha^2 and logarithmic above (the path's alphas spread
    over orders of magnitude, and alpha^1 = 0 has no logarithm).
    """
    extended = np.append(alphas, 2 * alphas[-1] if alphas[-1] > 0 else 1.0)
    if len(alphas) > 1:
        ax.set_xscale("symlog", linthresh=alphas[1])
        ax.set_xlabel(r"$\alpha$ (linear up to $\alpha^2$, logarithmic above)")
    else:
        ax.set_xlabel(r"$\alpha$")
    ax.set_xlim(0, extended[-1])
    return extended


def _steps(ax, x: np.ndarray, values, **style):
    return ax.step(x, np.append(values, values[-1]), where="post", **style)


def _error_curves(ax, selection, test_error, test_label: str, bars: bool = True) -> None:
    """Training, estimated and (optionally) test error of every step against alpha."""
    path = selection.path
    x = _alpha_axis(ax, path.alphas)
    _steps(ax, x, path.risks, color=_PALETTE[0], label="training error")
    estimated = f"{selection.method} error"
    if bars:
        _steps(ax, x, selection.error, color=_PALETTE[1])
        ax.errorbar(path.alphas, selection.error, yerr=selection.standard_error, fmt="o", ms=3,
                    capsize=2, color=_PALETTE[1], label=estimated + " ± 1 SE")
    else:
        _steps(ax, x, selection.error, color=_PALETTE[1], label=estimated)
    if test_error is not None:
        _steps(ax, x, test_error, color=_PALETTE[2], label=test_label)
    ax.set_ylabel("error rate")


def plot_alpha_selection(selection, test_error=None, *, test_label: str = "test error",
                         title: str | None = None, width: float = 7.0, fontsize: float = 9):
    """A cost-complexity path and the choice of alpha on it, in two panels stacked.

    Top panel: the training error R(T^k) (left axis) and the number of leaves of T^k (right
    axis, log scale) of every tree of the path against alpha. Bottom panel: the training
    error, the estimated error with one standard error, an optional test error, the line
    "minimum estimated error + 1 SE", and the 0-SE and 1-SE choices as vertical lines. This is
    Breiman et al.'s (1984, Sec. 3.4) choice of alpha by cross-validation, drawn in Chapter 2
    for :func:`prunekit.cross_validate_alpha`.

    Parameters
    ----------
    selection : AlphaSelection
        From :func:`prunekit.cross_validate_alpha` or :func:`prunekit.holdout_alpha`.
    test_error : array-like of shape (n_steps,), optional
        An error rate of every step's tree, e.g. on a test set or the exact true error.
    test_label : str, default "test error"
        Legend label of ``test_error``.
    title : str, optional
        Prefix of the panels' titles (e.g. the data set's name).
    width : float, default 7.0
        Figure width in inches, at most 7.
    fontsize : float, default 9
        Smallest font size in points, at least 9.

    Returns
    -------
    matplotlib Figure
    """
    import matplotlib.pyplot as plt

    _check_selection(selection)
    test_error = _check_step_curve(test_error, selection, "test_error")
    _check_title(test_label, "test_label")
    _check_title(title)
    _check_drawing_size(width, fontsize)
    path = selection.path
    prefix = f"{title}: " if title else ""
    with plt.rc_context({"font.size": fontsize}):
        fig, (ax_risk, ax_err) = plt.subplots(2, 1, figsize=(width, 7.0), layout="constrained",
                                              height_ratios=[1, 1.5])
        x = _alpha_axis(ax_risk, path.alphas)
        _steps(ax_risk, x, path.risks, color=_PALETTE[0])
        ax_risk.set_ylabel("training error $R(T^k)$", color=_PALETTE[0])
        ax_leaves = ax_risk.twinx()
        _steps(ax_leaves, x, path.n_leaves, color=_PALETTE[1])
        ax_leaves.set_ylabel("leaves of $T^k$ (log scale)", color=_PALETTE[1])
        ax_leaves.set_yscale("log")
        ax_risk.set_title(prefix + "the path")
        _error_curves(ax_err, selection, test_error, test_label)
        best, one_se = selection.best, selection.one_se
        ax_err.axhline(selection.error[best] + selection.standard_error[best], color="grey",
                       ls=":", lw=1, label=f"minimum {selection.method} error + 1 SE")
        rules = ([("0-SE and 1-SE", best, "--")] if best == one_se
                 else [("0-SE", best, "--"), ("1-SE", one_se, "-.")])
        for (rule, k, style), marker in zip(rules, "ds"):
            ax_err.axvline(path.alphas[k], color="k", ls=style, lw=1, marker=marker, ms=7,
                           markevery=[0], clip_on=False,
                           label=(f"{rule}: $\\alpha$ = {path.alphas[k]:.4g}, "
                                  f"{path.n_leaves[k]} leaves"))
        ax_err.set_title(prefix + r"choosing $\alpha$")
        ax_err.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, frameon=False)
    return fig


def plot_path_explorer(selection, step: int, test_error=None, *,
                       test_label: str = "test error", max_labelled_leaves: int = 12,
                       width: float = 7.0, fontsize: float = 9):
    """One tree of a cost-complexity path above the errors along the path.

    The view of Chapter 2's explorer. Top panel: the tree T^k of ``step`` drawn on its own
    (:meth:`Pruning.to_tree`), with its split rules and class counts when it has at most
    ``max_labelled_leaves`` leaves, as dots coloured by their label otherwise. Bottom panel:
    the training error, the estimated error and an optional test error of every step against
    alpha, with the interval [alpha^k, alpha^{k+1}) of the step shaded.

    Parameters
    ----------
    selection : AlphaSelection
        From :func:`prunekit.cross_validate_alpha` or :func:`prunekit.holdout_alpha`.
    step : int
        The step of the path to draw (0 is T^1).
    test_error : array-like of shape (n_steps,), optional
        An error rate of every step's tree, e.g. the exact true error.
    test_label : str, default "test error"
    max_labelled_leaves : int, default 12
        Largest tree, in leaves, drawn with its rules and counts.
    width : float, default 7.0
        Figure width in inches, at most 7.
    fontsize : float, default 9
        Smallest font size in points, at least 9.

    Returns
    -------
    matplotlib Figure
    """
    import matplotlib.pyplot as plt

    _check_selection(selection)
    path = selection.path
    step = check_count(step, "step", maximum=len(path) - 1)
    test_error = _check_step_curve(test_error, selection, "test_error")
    _check_title(test_label, "test_label")
    max_labelled_leaves = check_count(max_labelled_leaves, "max_labelled_leaves", minimum=1)
    _check_drawing_size(width, fontsize)
    drawn = path.pruning(step).to_tree()
    labelled = drawn.n_leaves <= max_labelled_leaves
    levels = drawn.max_depth + 1
    tree_height = min(6.0, 0.2 + levels * (0.8 if labelled else 0.3))
    upper = (f"{path.alphas[step + 1]:.4g})" if step + 1 < len(path) else r"$\infty$)")
    title = (f"$T^{{{step + 1}}}$, $\\alpha$ in [{path.alphas[step]:.4g}, {upper}: "
             f"{drawn.n_leaves} of {path.tree.n_leaves} leaves")
    with plt.rc_context({"font.size": fontsize}):
        fig, (ax_tree, ax_err) = plt.subplots(
            2, 1, figsize=(width, tree_height + 3.2), layout="constrained",
            height_ratios=[tree_height, 3.2])
        plot_tree(drawn, ax=ax_tree, counts=labelled, rules=labelled,
                  max_labelled_nodes=2 * max_labelled_leaves - 1, title=title)
        _raise_font_sizes(ax_tree, fontsize)
        _error_curves(ax_err, selection, test_error, test_label, bars=False)
        upper_alpha = path.alphas[step + 1] if step + 1 < len(path) else ax_err.get_xlim()[1]
        ax_err.axvspan(path.alphas[step], upper_alpha, color=_NOTE_COLOUR, alpha=0.15, lw=0,
                       label="this step")
        ax_err.legend(loc="upper center", bbox_to_anchor=(0.5, 1.2), ncol=4, frameon=False)
    return fig


# ----------------------------------------------------------------------------- chapter 3

def _mean_and_standard_error(values: np.ndarray):
    """Mean over the seeds (axis 0) and its standard error (0 with a single seed)."""
    n = values.shape[0]
    spread = values.std(axis=0, ddof=1) if n > 1 else np.zeros(values.shape[1:])
    return values.mean(axis=0), spread / np.sqrt(n)


def plot_pruning_share(results, fractions, *, width: float = 7.0, row_height: float = 2.0,
                       fontsize: float = 9):
    """REP's test error and size against the pruning share, one row per data set (Chapter 3).

    Draws the results of :func:`prunekit.reduced_error_pruning.pruning_share_experiment`:
    for every data set a row of two panels, the mean test error of reduced-error pruning
    (left) and the mean number of nodes of its pruning (right) against the share of the
    training data used for pruning, with one standard error over the seeds as error bars.
    The left panel adds the mean test error of cost-complexity pruning with a cross-validated
    alpha (dashed) and of the unpruned tree grown on all the training data (dotted); the right
    panel the size of the cost-complexity tree (dashed).

    Parameters
    ----------
    results : dict of str to dict
        Per data set (the row's title), the dictionary returned by ``pruning_share_experiment``;
        its ``"rep_error"`` and ``"rep_nodes"`` have shape (n_seeds, n_fractions), its
        ``"ccp_error"``, ``"ccp_nodes"`` and ``"unpruned_error"`` shape (n_seeds,).
    fractions : sequence of float in (0, 1)
        The pruning shares of the experiment, increasing.
    width : float, default 7.0
        Figure width in inches, at most 7.
    row_height : float, default 2.0
        Height of each row in inches.
    fontsize : float, default 9
        Smallest font size in points, at least 9.

    Returns
    -------
    matplotlib Figure
    """
    import matplotlib.pyplot as plt

    _check_drawing_size(width, fontsize)
    row_height = check_real(row_height, "row_height", minimum=0, strict=True)
    fractions = as_array(fractions, "fractions", ndim=1, dtype=np.float64).astype(float)
    if np.any((fractions <= 0) | (fractions >= 1)) or np.any(np.diff(fractions) <= 0):
        raise ValueError(f"fractions must be increasing numbers in (0, 1), got "
                         f"{fractions.tolist()}.")
    if not isinstance(results, dict) or not results:
        raise TypeError("results must be a non-empty dict mapping data set names to the "
                        "results of pruning_share_experiment.")
    shapes = {"rep_error": 2, "rep_nodes": 2, "ccp_error": 1, "ccp_nodes": 1,
              "unpruned_error": 1}
    rows = {}
    for name, runs in results.items():
        if not isinstance(name, str):
            raise TypeError(f"results must be keyed by data set names (strings), got "
                            f"{type(name).__name__} {name!r}.")
        if not isinstance(runs, dict):
            raise TypeError(f"results[{name!r}] must be a dict of arrays, got "
                            f"{type(runs).__name__}.")
        row = {}
        for key, ndim in shapes.items():
            if key not in runs:
                raise ValueError(f"results[{name!r}] has no {key!r}: pass the dict returned "
                                 f"by pruning_share_experiment.")
            row[key] = as_array(runs[key], f"results[{name!r}][{key!r}]", ndim=ndim,
                                dtype=np.float64).astype(float)
        n_seeds = row["rep_error"].shape[0]
        for key, values in row.items():
            expected = (n_seeds, len(fractions)) if shapes[key] == 2 else (n_seeds,)
            if values.shape != expected:
                raise ValueError(f"results[{name!r}][{key!r}] must have shape {expected} (one "
                                 f"row per seed, one column per fraction), got {values.shape}.")
        rows[name] = row
    share = 100 * fractions
    with plt.rc_context({"font.size": fontsize}):
        fig, axes = plt.subplots(len(rows), 2, figsize=(width, 0.8 + len(rows) * row_height),
                                 sharex=True, squeeze=False)
        for (name, row), (left, right) in zip(rows.items(), axes):
            error, error_se = _mean_and_standard_error(row["rep_error"])
            nodes, nodes_se = _mean_and_standard_error(row["rep_nodes"])
            left.errorbar(share, error, yerr=error_se, fmt="o-", ms=4, capsize=3,
                          color=_PALETTE[0], label="REP (mean ± s.e.)")
            left.axhline(row["ccp_error"].mean(), color=_PALETTE[1], ls="--",
                         label="cost-complexity, cross-validated α")
            left.axhline(row["unpruned_error"].mean(), color=_PALETTE[2], ls=":",
                         label="unpruned, all training data")
            right.errorbar(share, nodes, yerr=nodes_se, fmt="o-", ms=4, capsize=3,
                           color=_PALETTE[0])
            right.axhline(row["ccp_nodes"].mean(), color=_PALETTE[1], ls="--")
            left.set_title(name, loc="left", fontsize=fontsize + 1)
            left.set_ylabel("test error")
            right.set_ylabel("nodes")
        for ax in axes[-1]:
            ax.set_xlabel("pruning share (%)")
        handles, labels = axes[0, 0].get_legend_handles_labels()
        order = sorted(range(len(labels)), key=lambda k: not labels[k].startswith("REP"))
        fig.legend([handles[k] for k in order], [labels[k] for k in order],
                   loc="upper center", ncol=2, frameon=False)
        fig.tight_layout(rect=(0, 0, 1, 1 - 0.55 / fig.get_size_inches()[1]))
    return fig


# ----------------------------------------------------------------------------- chapter 4
# Kearns and Mansour's pruning (Chapter 4): the exact experiment on the Boolean cube.

def plot_excess_error(sizes, excess, km_nodes, opt_nodes, grown_nodes, constants, *,
                      shown=None, width: float = 7.0, fontsize: float = 9):
    """Excess error and size of Kearns and Mansour's pruning against the sample size.

    The figure of Chapter 4's exact experiment on the Boolean cube. Top panel: for every
    constant c of ``shown``, the mean over the samples of the exact excess error
    L_D(P_KM) - eps_opt of the pruning of Kearns and Mansour (1998) against the best pruning,
    with one standard error, and dashed the reference rate sqrt(s_opt / m) of their
    Theorem 5 (mean over the samples). Bottom panel: the mean sizes |P_KM| for the same
    constants, s_opt = |P_opt| (dashed) and the grown tree |T| (dotted), on log-log axes.
    The sample size is on a log axis in both panels.

    Parameters
    ----------
    sizes : sequence of int
        The sample sizes m, positive and increasing.
    excess, km_nodes : array-like of shape (len(sizes), n_samples, len(constants))
        The excess errors L_D(P_KM) - eps_opt and the sizes |P_KM| of every run.
    opt_nodes, grown_nodes : array-like of shape (len(sizes), n_samples)
        The sizes of the best pruning P_opt and of the grown tree T of every sample.
    constants : sequence of float
        The constants c of the runs, non-negative.
    shown : sequence of float, optional
        The constants to draw, each one of ``constants``; default all of them.
    width : float, default 7.0
        Figure width in inches, at most 7.
    fontsize : float, default 9
        Smallest font size in points, at least 9.

    Returns
    -------
    matplotlib Figure
    """
    import matplotlib.pyplot as plt

    _check_drawing_size(width, fontsize)
    sizes = as_array(sizes, "sizes", ndim=1, dtype=np.float64).astype(float)
    if np.any(sizes <= 0) or np.any(np.diff(sizes) <= 0):
        raise ValueError(f"sizes must be positive and increasing, got {sizes.tolist()}.")
    constants = as_array(constants, "constants", ndim=1, dtype=np.float64).astype(float)
    if np.any(constants < 0):
        raise ValueError(f"constants must be non-negative, got {constants.tolist()}.")
    runs = {}
    for name, values in (("excess", excess), ("km_nodes", km_nodes)):
        runs[name] = as_array(values, name, ndim=3, dtype=np.float64).astype(float)
        if runs[name].shape[0] != len(sizes) or runs[name].shape[2] != len(constants):
            raise ValueError(f"{name} must have shape (len(sizes), n_samples, len(constants)) "
                             f"= ({len(sizes)}, n_samples, {len(constants)}), got "
                             f"{runs[name].shape}.")
    n_samples = runs["excess"].shape[1]
    if runs["km_nodes"].shape != runs["excess"].shape:
        raise ValueError(f"km_nodes must have the shape of excess, {runs['excess'].shape}, got "
                         f"{runs['km_nodes'].shape}.")
    for name, values in (("opt_nodes", opt_nodes), ("grown_nodes", grown_nodes)):
        runs[name] = as_array(values, name, ndim=2, dtype=np.float64).astype(float)
        if runs[name].shape != (len(sizes), n_samples):
            raise ValueError(f"{name} must have shape (len(sizes), n_samples) = "
                             f"({len(sizes)}, {n_samples}), got {runs[name].shape}.")
        if np.any(runs[name] < 1):
            raise ValueError(f"{name} must hold numbers of nodes (at least 1).")
    if np.any(runs["km_nodes"] < 1):
        raise ValueError("km_nodes must hold numbers of nodes (at least 1).")
    if shown is None:
        columns = list(range(len(constants)))
    else:
        if isinstance(shown, (str, bytes)) or not hasattr(shown, "__iter__"):
            raise TypeError(f"shown must be a sequence of constants or None, got "
                            f"{type(shown).__name__}.")
        columns = []
        for c in shown:
            c = check_real(c, "shown[i]")
            matches = np.flatnonzero(np.isclose(constants, c))
            if len(matches) == 0:
                raise ValueError(f"shown names the constant {c:g}, which constants does not "
                                 f"contain ({constants.tolist()}).")
            columns.append(int(matches[0]))
        if not columns:
            raise ValueError("shown must name at least one constant.")
    rate = np.sqrt(runs["opt_nodes"] / sizes[:, None]).mean(axis=1)
    markers = "os^vDP*Xph"
    with plt.rc_context({"font.size": fontsize}):
        fig, (ax_err, ax_size) = plt.subplots(2, 1, figsize=(width, 8.5), layout="constrained")
        for n, k in enumerate(columns):
            colour, marker = _PALETTE[n % len(_PALETTE)], markers[n % len(markers)]
            mean, bar = _mean_and_standard_error(runs["excess"][:, :, k].T)
            ax_err.errorbar(sizes, mean, yerr=bar, marker=marker, capsize=3, color=colour,
                            label=f"$c = {constants[k]:g}$")
            ax_size.plot(sizes, runs["km_nodes"][:, :, k].mean(axis=1), marker=marker,
                         color=colour, label=f"$|P_{{KM}}|$, $c = {constants[k]:g}$")
        ax_err.plot(sizes, rate, "k--", label=r"$\sqrt{s_{opt}/m}$")
        ax_err.set(xscale="log", xlabel="sample size $m$ (log scale)",
                   ylabel=r"$L_\mathcal{D}(P_{KM}) - \epsilon_{opt}$ (exact)",
                   title=f"Excess error over the best pruning (mean ± s.e., "
                         f"{n_samples} samples)")
        ax_err.legend()
        ax_size.plot(sizes, runs["opt_nodes"].mean(axis=1), "k--",
                     label="$s_{opt} = |P_{opt}|$")
        ax_size.plot(sizes, runs["grown_nodes"].mean(axis=1), ":", color="grey",
                     label="grown tree $|T|$")
        ax_size.set(xscale="log", yscale="log", xlabel="sample size $m$ (log scale)",
                    ylabel="number of nodes (log scale)",
                    title=f"Sizes (mean of {n_samples} samples)")
        ax_size.legend()
    return fig


# ----------------------------------------------------------------------------- chapter 5
# Nobel's pruning (Chapter 5): the cells of a tree and of a pruning, the size profile with
# penalised objectives, excess risks against the sample size, chosen prunings drawn alone.


def plot_partitions(tree: Tree, pruning: Pruning, X, y, *, resolution: int = 300,
                    width: float = 7.0, fontsize: float = 9):
    """A tree of two features with a pruning in colour, and the cells of both in the plane.

    Top: :func:`plot_tree` of ``tree`` with ``pruning`` in colour. Bottom, side by side: the
    leaf cells of the tree and of the pruning (Nobel 2002, Sec. 2: the partition of a pruning
    is coarser, each of its cells the cell of a node of the tree), each cell shaded by the
    label of its leaf, with the sample on top. For Chapter 5.

    Parameters
    ----------
    tree : Tree
        A tree with split rules on exactly two features.
    pruning : Pruning
        A pruning of ``tree``.
    X : array-like of shape (m, 2)
        The sample to scatter; the plotted square covers it with a margin.
    y : array-like of shape (m,)
        Its labels, among ``tree.classes_``.
    resolution : int, default 300
        Grid points per axis for the cells (at least 20).
    width : float, default 7.0
        Figure width in inches, at most 7.
    fontsize : float, default 9
        Smallest font size in points, at least 9.

    Returns
    -------
    matplotlib Figure
    """
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap

    from prunekit._validation import check_sample_and_labels, encode_labels

    _check_pruning_of(tree, pruning)
    if not tree.has_split_rules or tree.n_features != 2:
        raise ValueError("tree must have split rules on exactly two features, got "
                         f"{tree.n_features} features.")
    X, y = check_sample_and_labels(X, y, 2)
    codes = encode_labels(y, tree.classes_)
    resolution = check_count(resolution, "resolution", minimum=20)
    _check_drawing_size(width, fontsize)
    lo, hi = X.min(axis=0), X.max(axis=0)
    margin = 0.05 * np.maximum(hi - lo, 1e-9)
    xx, yy = np.meshgrid(np.linspace(lo[0] - margin[0], hi[0] + margin[0], resolution),
                         np.linspace(lo[1] - margin[1], hi[1] + margin[1], resolution))
    grid = np.c_[xx.ravel(), yy.ravel()]
    shades = ListedColormap([_tint(c, 0.3) for c in _PALETTE[:tree.n_classes]])
    with plt.rc_context({"font.size": fontsize}):
        tree_height = 0.55 * (tree.max_depth + 1) + 0.4
        fig = plt.figure(figsize=(width, tree_height + width / 2 + 0.4))
        grid_spec = fig.add_gridspec(2, 2, height_ratios=[tree_height, width / 2])
        top = fig.add_subplot(grid_spec[0, :])
        plot_tree(tree, pruning, ax=top, title="the tree, a pruning in colour")
        _raise_font_sizes(top, fontsize)
        for k, (model, name) in enumerate([(Pruning.full(tree), "the tree"),
                                           (pruning, "the pruning")]):
            ax = fig.add_subplot(grid_spec[1, k])
            cell = model.apply(grid).reshape(xx.shape)     # index of the leaf reached
            ax.pcolormesh(xx, yy, model.labels[cell], cmap=shades, shading="auto",
                          vmin=0, vmax=tree.n_classes - 1)
            ax.contour(xx, yy, cell, levels=np.arange(tree.n_nodes) + 0.5, colors="k",
                       linewidths=0.6)
            colours = np.array(_PALETTE[:tree.n_classes])
            ax.scatter(*X.T, c=colours[codes], s=5)
            ax.set_title(f"cells of {name}: {model.n_leaves}")
            ax.set_xticks([])
            ax.set_yticks([])
        fig.tight_layout()
    return fig


def _curve(values, name: str, length: int | None = None, finite: bool = True, *,
           positive: bool = False) -> np.ndarray:
    """A 1-D float array, one value per point of a plot, with errors that name ``name``.

    ``length``: the number of points it must have; ``finite``: refuse NaN and infinity;
    ``positive``: refuse values ≤ 0 (the values are drawn on a log scale).
    """
    values = as_array(values, name, ndim=1, dtype=np.float64, finite=finite).astype(float)
    if length is not None and len(values) != length:
        raise ValueError(f"{name} must have one value per point ({length}), got "
                         f"{len(values)}.")
    if positive and np.any(values <= 0):
        raise ValueError(f"{name} must be positive (it is drawn on a log scale).")
    return values


def plot_size_profile(n_nodes, errors, objectives, *, true_errors=None, path=None,
                      bayes_risk=None, titles=None, ylims=None, width: float = 7.0,
                      fontsize: float = 9):
    """The size profile of a tree and penalised objectives over it, one panel below another.

    Top panel: for every size k (number of nodes), the fewest training errors of a pruning
    with k nodes (the size profile of :func:`prunekit.nobel_pruning.best_pruning_by_size`),
    optionally the true error of that pruning, the trees of the cost-complexity path and the
    Bayes risk. Every further panel draws objectives L_S + pen(k) (Nobel 2002, eqs. 6 and 8,
    or scaled versions) with a triangle at each minimiser. Sizes are on a log axis. For
    Chapter 5.

    Parameters
    ----------
    n_nodes : array-like of shape (n,)
        The sizes k, positive and increasing.
    errors : array-like of shape (n,)
        Training error rate of the best pruning of each size.
    objectives : sequence of dict of str to array-like of shape (n,)
        One dict per lower panel, mapping a legend label to an objective curve.
    true_errors : array-like of shape (n,), optional
        True error of the best pruning of each size.
    path : (array-like, array-like), optional
        Sizes (nodes) and training error rates of the trees of the cost-complexity path.
    bayes_risk : float, optional
        Drawn as a dotted line in the top panel.
    titles : sequence of str, optional
        One title per panel (``1 + len(objectives)``).
    ylims : sequence of (float, float) or None, optional
        Vertical limits per panel; None leaves a panel's limits alone.
    width : float, default 7.0
        Figure width in inches, at most 7.
    fontsize : float, default 9
        Smallest font size in points, at least 9.

    Returns
    -------
    matplotlib Figure
    """
    import matplotlib.pyplot as plt

    _check_drawing_size(width, fontsize)
    n_nodes = _curve(n_nodes, "n_nodes")
    if np.any(n_nodes <= 0) or np.any(np.diff(n_nodes) <= 0):
        raise ValueError("n_nodes must be positive and increasing.")
    n = len(n_nodes)
    errors = _curve(errors, "errors", n)
    if isinstance(objectives, dict) or not hasattr(objectives, "__iter__"):
        raise TypeError("objectives must be a sequence of dicts, one per panel.")
    objectives = list(objectives)
    if not objectives:
        raise ValueError("objectives must hold at least one dict.")
    panels = []
    for k, panel in enumerate(objectives):
        if not isinstance(panel, dict) or not panel:
            raise TypeError(f"objectives[{k}] must be a non-empty dict of curves.")
        panels.append({label: _curve(curve, f"objectives[{k}][{label!r}]", n)
                       for label, curve in panel.items()})
    if true_errors is not None:
        true_errors = _curve(true_errors, "true_errors", n)
    if path is not None:
        if not hasattr(path, "__len__") or len(path) != 2:
            raise ValueError("path must be a pair (sizes, error rates).")
        path_sizes = _curve(path[0], "path sizes")
        path_errors = _curve(path[1], "path error rates", len(path_sizes))
    if bayes_risk is not None:
        bayes_risk = check_real(bayes_risk, "bayes_risk", minimum=0)
    n_panels = 1 + len(panels)
    titles = [None] * n_panels if titles is None else list(titles)
    if len(titles) != n_panels:
        raise ValueError(f"titles must have one entry per panel ({n_panels}), got "
                         f"{len(titles)}.")
    for k, title in enumerate(titles):
        _check_title(title, f"titles[{k}]")
    ylims = [None] * n_panels if ylims is None else list(ylims)
    if len(ylims) != n_panels or any(
            lim is not None and (len(lim) != 2 or not lim[0] < lim[1]) for lim in ylims):
        raise ValueError(f"ylims must have one entry per panel ({n_panels}), each None or "
                         f"(low, high) with low < high.")
    with plt.rc_context({"font.size": fontsize}):
        fig, axes = plt.subplots(n_panels, 1, figsize=(width, 2.6 * n_panels), sharex=True)
        top = axes[0]
        top.plot(n_nodes, errors, ".", ms=5, label="$L_S$, best pruning with $k$ nodes")
        if true_errors is not None:
            top.plot(n_nodes, true_errors, ".", ms=5,
                     label="its true error $L_\\mathcal{D}$")
        if path is not None:
            top.plot(path_sizes, path_errors, "o", mfc="none", color="k", ms=7,
                     label="trees of the cost-complexity path")
        if bayes_risk is not None:
            top.axhline(bayes_risk, color="grey", ls=":", label="Bayes risk")
        top.set_ylabel("error rate")
        for ax, panel in zip(axes[1:], panels):
            for label, curve in panel.items():
                line, = ax.plot(n_nodes, curve, label=label)
                i = int(np.argmin(curve))
                ax.plot(n_nodes[i], curve[i], "v", color=line.get_color(), ms=10, mec="k")
            ax.set_ylabel("objective")
        for ax, title, lim in zip(axes, titles, ylims):
            ax.set_xscale("log")
            if title:
                ax.set_title(title)
            if lim is not None:
                ax.set_ylim(*lim)
            ax.legend(loc="upper right")
        axes[-1].set_xlabel("$k = |P|$, number of nodes (log scale)")
        fig.tight_layout()
    return fig


def plot_excess_risk(sizes, excess, groups, *, labels=None, titles=None, width: float = 7.0,
                     fontsize: float = 9):
    """Mean excess risk of several pruning rules against the sample size, with error bars.

    One panel per group of rules, stacked, sharing both axes; each rule's mean over the
    repetitions with one standard error, the sample size on a log axis. For Chapter 5's
    consistency experiment (Nobel 2002, Sec. 4: weak Bayes-risk consistency).

    Parameters
    ----------
    sizes : sequence of int
        The sample sizes, increasing.
    excess : dict of str to dict of int to sequence of float
        ``excess[rule][size]``: the excess risks of ``rule`` over the repetitions at ``size``
        (at least two each).
    groups : sequence of sequence of str
        The rules of each panel, top to bottom.
    labels : dict of str to str, optional
        Legend label of each rule (default: its key).
    titles : sequence of str, optional
        One title per panel.
    width : float, default 7.0
        Figure width in inches, at most 7.
    fontsize : float, default 9
        Smallest font size in points, at least 9.

    Returns
    -------
    matplotlib Figure
    """
    import matplotlib.pyplot as plt

    _check_drawing_size(width, fontsize)
    sizes = _curve(sizes, "sizes")
    if np.any(sizes <= 0) or np.any(np.diff(sizes) <= 0):
        raise ValueError("sizes must be positive and increasing.")
    if not isinstance(excess, dict):
        raise TypeError(f"excess must be a dict of rules, got {type(excess).__name__}.")
    if isinstance(groups, (str, bytes)) or not hasattr(groups, "__iter__"):
        raise TypeError("groups must be a sequence of sequences of rule names.")
    groups = list(groups)
    if not groups or any(isinstance(group, str) or not hasattr(group, "__iter__")
                         for group in groups):
        raise ValueError("groups must hold at least one group (a list) of rule names.")
    groups = [list(group) for group in groups]
    if any(not group for group in groups):
        raise ValueError("groups must not hold an empty group.")
    labels = {} if labels is None else labels
    if not isinstance(labels, dict):
        raise TypeError(f"labels must be a dict or None, got {type(labels).__name__}.")
    means, bars = {}, {}
    for name in {name for group in groups for name in group}:
        if name not in excess:
            raise ValueError(f"groups names {name!r}, which excess does not contain.")
        values = []
        for size in sizes:
            runs = excess[name].get(int(size)) if isinstance(excess[name], dict) else None
            if runs is None:
                raise ValueError(f"excess[{name!r}] has no values for size {int(size)}.")
            runs = _curve(runs, f"excess[{name!r}][{int(size)}]")
            if len(runs) < 2:
                raise ValueError(f"excess[{name!r}][{int(size)}] needs at least two values.")
            values.append(runs)
        means[name] = np.array([np.mean(runs) for runs in values])
        bars[name] = np.array([np.std(runs, ddof=1) / np.sqrt(len(runs)) for runs in values])
    titles = [None] * len(groups) if titles is None else list(titles)
    if len(titles) != len(groups):
        raise ValueError(f"titles must have one entry per group ({len(groups)}), got "
                         f"{len(titles)}.")
    for k, title in enumerate(titles):
        _check_title(title, f"titles[{k}]")
    order = list(dict.fromkeys(name for group in groups for name in group))
    colours = {name: _PALETTE[k % len(_PALETTE)] for k, name in enumerate(order)}
    with plt.rc_context({"font.size": fontsize}):
        fig, axes = plt.subplots(len(groups), 1, figsize=(width, 3.0 * len(groups)),
                                 sharex=True, sharey=True, squeeze=False)
        for ax, group, title in zip(axes[:, 0], groups, titles):
            for name in group:
                ax.errorbar(sizes, means[name], yerr=bars[name], marker="o", ms=4, capsize=3,
                            color=colours[name], label=labels.get(name, name))
            ax.set_xscale("log")
            ax.set_ylabel("excess risk $L_\\mathcal{D} - L^*_\\mathcal{D}$")
            if title:
                ax.set_title(title)
            ax.legend(loc="best")
        axes[-1, 0].set_xlabel("sample size $m$ (log scale)")
        fig.tight_layout()
    return fig


def plot_chosen_prunings(prunings, titles=None, *, width: float = 7.0, fontsize: float = 9):
    """Prunings drawn on their own, one panel each, stacked vertically.

    Each panel draws only the kept part of a pruning, as a tree whose leaves are the
    pruning's leaves, so that a small pruning of a large tree stays readable. A pruning with
    at most ``width / 0.7`` leaves is drawn with its split rules and class counts; a larger
    one as dots. For Chapter 5's scale explorer (Nobel 2002, eq. 6 with a scaled penalty).

    Parameters
    ----------
    prunings : Pruning or sequence of Pruning
    titles : sequence of str, optional
        One title per pruning.
    width : float, default 7.0
        Figure width in inches, at most 7.
    fontsize : float, default 9
        Smallest font size in points, at least 9.

    Returns
    -------
    matplotlib Figure
    """
    import matplotlib.pyplot as plt

    if isinstance(prunings, Pruning):
        prunings = [prunings]
    if isinstance(prunings, (str, bytes)) or not hasattr(prunings, "__iter__"):
        raise TypeError("prunings must be a Pruning or a sequence of Prunings.")
    prunings = list(prunings)
    if not prunings:
        raise ValueError("prunings must hold at least one Pruning.")
    for k, pruning in enumerate(prunings):
        if not isinstance(pruning, Pruning):
            raise TypeError(f"prunings[{k}] must be a Pruning, got {type(pruning).__name__}.")
    titles = _per_panel(titles, len(prunings), "titles")
    for k, title in enumerate(titles):
        _check_title(title, f"titles[{k}]")
    _check_drawing_size(width, fontsize)
    trees = [pruning.to_tree() for pruning in prunings]
    readable = [tree.n_leaves <= width / 0.7 for tree in trees]
    heights = [(0.75 if small else 0.3) * (tree.max_depth + 1) + 0.5
               for tree, small in zip(trees, readable)]
    with plt.rc_context({"font.size": fontsize}):
        fig, axes = plt.subplots(len(trees), 1, figsize=(width, sum(heights)),
                                 height_ratios=heights, squeeze=False)
        for ax, tree, small, title in zip(axes[:, 0], trees, readable, titles):
            plot_tree(tree, ax=ax, max_labelled_nodes=tree.n_nodes if small else 0,
                      title=title)
            _raise_font_sizes(ax, fontsize)
        fig.tight_layout()
    return fig


# ----------------------------------------------------------------------------- chapter 6
def plot_penalty_budget(budgets, penalty, penalty_all, pruning_error, bound, *,
                        budget=None, width: float = 7.0, fontsize: float = 9):
    """The k-REP class against its growing-error budget k (Chapter 6).

    Top panel: the mean Rademacher penalty of the class P_k(T) of the prunings with at most
    k growing errors against k (log scale), with the penalty of all prunings dashed.
    Bottom panel: the pruning-set error of the k-REP pruning and the Rademacher bound
    L_S + 2 R_m + 5 eta (Kääriäinen, Malinen & Elomaa 2004, eq. (1)) against k, with the
    paper's budget ``budget`` dotted.

    Parameters
    ----------
    budgets : array-like of shape (n,)
        Growing-error budgets k, positive and increasing.
    penalty : array-like of shape (n,)
        Mean penalty of P_k(T) at every budget.
    penalty_all : float
        Mean penalty of all prunings.
    pruning_error, bound : array-like of shape (n,)
        Pruning-set error rate of the k-REP pruning and its bound at every budget.
    budget : float, optional
        A budget to mark with a dotted line in the bottom panel.
    width : float, default 7.0
        Figure width in inches, at most 7.
    fontsize : float, default 9
        Smallest font size in points, at least 9.

    Returns
    -------
    matplotlib Figure
    """
    import matplotlib.pyplot as plt
    from matplotlib.ticker import NullFormatter, ScalarFormatter

    _check_drawing_size(width, fontsize)
    budgets = _curve(budgets, "budgets", positive=True)
    if len(budgets) < 2 or np.any(np.diff(budgets) <= 0):
        raise ValueError("budgets must be at least two increasing numbers.")
    n = len(budgets)
    penalty = _curve(penalty, "penalty", n)
    pruning_error = _curve(pruning_error, "pruning_error", n)
    bound = _curve(bound, "bound", n)
    penalty_all = check_real(penalty_all, "penalty_all")
    if budget is not None:
        budget = check_real(budget, "budget", minimum=0, strict=True)
    with plt.rc_context({"font.size": fontsize, "legend.fontsize": fontsize}):
        fig, (top, bottom) = plt.subplots(2, 1, figsize=(width, 6.4), sharex=True)
        top.plot(budgets, penalty, "o-", color=_PALETTE[0], label="k-REP class")
        top.axhline(penalty_all, color="k", ls="--", label="all prunings (REP class)")
        top.set_ylabel(r"mean of $\hat{\mathfrak{R}}_m$")
        top.set_title("the penalty grows with the class")
        bottom.plot(budgets, pruning_error, "o-", color=_PALETTE[1],
                    label="pruning-set error of k-REP")
        bottom.plot(budgets, bound, "s-", color=_PALETTE[3],
                    label=r"bound $L_S + 2\hat{\mathfrak{R}}_m + 5\eta$")
        if budget is not None:
            bottom.axvline(budget, color="grey", ls=":", label=f"k = {budget:g}")
        bottom.set_ylabel("error rate")
        bottom.set_xlabel("budget k (growing errors, log scale)")
        bottom.set_title("fit against penalty")
        decades = np.arange(np.floor(np.log10(budgets[0])), np.log10(budgets[-1]) + 1)
        ticks = [t for t in np.outer(10 ** decades, [1, 2, 3, 5]).ravel()
                 if budgets[0] <= t <= budgets[-1]]
        for ax in (top, bottom):
            ax.set_xscale("log")
            if len(ticks) >= 2:
                ax.set_xticks(ticks)
            ax.xaxis.set_major_formatter(ScalarFormatter())
            ax.xaxis.set_minor_formatter(NullFormatter())
            ax.legend()
        bottom.tick_params(labelbottom=True)
        fig.tight_layout()
    return fig


def plot_bounds_by_data_set(labels, values, *, xlabel: str = "error rate",
                            title: str | None = None, width: float = 7.0,
                            fontsize: float = 9):
    """Test errors and bounds side by side, one row per data set (Chapters 6 and 7).

    A dot plot: every row (a data set, or a data set and a pruning method) is a horizontal
    line on which each series (a test error, the Rademacher bound of Kääriäinen, Malinen &
    Elomaa 2004, an Occam's-razor bound, ...) is a marker of its own, so that the bounds can
    be read against the test error row by row. Rows run from top to bottom in the order of
    ``labels``; the legend sits below the plot.

    Parameters
    ----------
    labels : sequence of str
        One label per row.
    values : dict of str to array-like
        Series by legend label, one value per row.
    xlabel : str, default "error rate"
    title : str, optional
    width : float, default 7.0
        Figure width in inches, at most 7.
    fontsize : float, default 9
        Smallest font size in points, at least 9.

    Returns
    -------
    matplotlib Figure
    """
    import matplotlib.pyplot as plt

    _check_drawing_size(width, fontsize)
    labels = _names(labels, "labels", 1, "row")
    if labels is None:
        raise TypeError("labels must be a sequence of strings, one per row, got None.")
    if not isinstance(values, dict) or not values:
        raise TypeError("values must be a non-empty dict mapping series labels to values.")
    series = {str(name): _curve(v, f"values[{name!r}]", len(labels))
              for name, v in values.items()}
    _check_title(title)
    if not isinstance(xlabel, str):
        raise TypeError(f"xlabel must be a string, got {type(xlabel).__name__}.")
    markers = "os^vDP*Xh"
    n = len(labels)
    legend_height = 0.1 + 0.22 * ((len(series) + 1) // 2)
    height = 1.0 + 0.3 * n + legend_height + (0.3 if title else 0)
    with plt.rc_context({"font.size": fontsize, "legend.fontsize": fontsize}):
        fig, ax = plt.subplots(figsize=(width, height))
        rows = np.arange(n)[::-1]
        for row in rows:
            ax.axhline(row, color="#E5E5E5", lw=0.8, zorder=0)
        for k, (name, points) in enumerate(series.items()):
            ax.plot(points, rows, markers[k % len(markers)], ls="none", ms=6,
                    color=_PALETTE[k % len(_PALETTE)], label=name, alpha=0.9)
        ax.set_yticks(rows, labels)
        ax.set_ylim(-0.7, n - 0.3)
        ax.set_xlim(left=0)
        ax.set_xlabel(xlabel)
        if title:
            ax.set_title(title)
        fig.legend(*ax.get_legend_handles_labels(), loc="lower center", ncol=2,
                   frameon=False)
        fig.tight_layout(rect=(0, legend_height / height, 1, 1))
    return fig




# ----------------------------------------------------------------------------- chapter 7
def plot_c_effect(c_values, panels, *, width: float = 7.0, fontsize: float = 9):
    """k-REP's bound and test error against the constant c, one panel per data set
    (Chapter 7).

    k-REP keeps the prunings with at most k = floor(c x growing errors of the unpruned tree)
    growing errors (Kääriäinen, Malinen & Elomaa 2004, Sec. 6.2). Each panel plots the
    average Rademacher bound and test error of the k-REP pruning against c (solid) and
    REP's bound and test error, which do not depend on c (dotted). Panels are stacked
    vertically and share the c axis.

    Parameters
    ----------
    c_values : array-like of shape (n,)
        The constants c, increasing.
    panels : dict of str to dict
        Per data set (the panel's title), a dict with ``"bound"`` and ``"test"`` (k-REP's
        values, one per c) and ``"rep_bound"`` and ``"rep_test"`` (REP's values, floats).
    width : float, default 7.0
        Figure width in inches, at most 7.
    fontsize : float, default 9
        Smallest font size in points, at least 9.

    Returns
    -------
    matplotlib Figure
    """
    import matplotlib.pyplot as plt

    _check_drawing_size(width, fontsize)
    c_values = _curve(c_values, "c_values")
    if len(c_values) < 2 or np.any(np.diff(c_values) <= 0):
        raise ValueError("c_values must be at least two increasing numbers.")
    if not isinstance(panels, dict) or not panels:
        raise TypeError("panels must be a non-empty dict mapping data set names to dicts.")
    checked = {}
    for name, panel in panels.items():
        keys = {"bound", "test", "rep_bound", "rep_test"}
        if not isinstance(panel, dict) or set(panel) != keys:
            raise ValueError(f"panels[{name!r}] must be a dict with the keys "
                             f"{sorted(keys)}.")
        checked[str(name)] = dict(
            bound=_curve(panel["bound"], f"panels[{name!r}]['bound']", len(c_values)),
            test=_curve(panel["test"], f"panels[{name!r}]['test']", len(c_values)),
            rep_bound=check_real(panel["rep_bound"], f"panels[{name!r}]['rep_bound']"),
            rep_test=check_real(panel["rep_test"], f"panels[{name!r}]['rep_test']"))
    bound_colour, test_colour = _PALETTE[3], _PALETTE[0]
    with plt.rc_context({"font.size": fontsize, "legend.fontsize": fontsize}):
        height = 1.4 + 2.6 * len(checked)
        fig, axes = plt.subplots(len(checked), 1, figsize=(width, height), sharex=True,
                                 squeeze=False)
        for ax, (name, panel) in zip(axes[:, 0], checked.items()):
            ax.plot(c_values, panel["bound"], "o-", color=bound_colour,
                    label="k-REP Rademacher bound")
            ax.plot(c_values, panel["test"], "s-", color=test_colour,
                    label="k-REP test error")
            ax.axhline(panel["rep_bound"], color=bound_colour, ls=":", label="REP bound")
            ax.axhline(panel["rep_test"], color=test_colour, ls=":", label="REP test error")
            ax.set_ylabel("average over splits")
            ax.set_title(name)
            ax.tick_params(labelbottom=True)
        axes[-1, 0].set_xlabel("c  (k = c x growing errors of the unpruned tree)")
        fig.legend(*axes[0, 0].get_legend_handles_labels(), loc="lower center", ncol=2,
                   frameon=False)
        fig.tight_layout(rect=(0, 0.55 / height, 1, 1))
    return fig




# ----------------------------------------------------------------------------- chapter 8
def plot_leaf_prices(sizes, panels, *, titles=None, reference=None, width: float = 7.0,
                     panel_height: float = 3.0, fontsize: float = 9):
    """The errors that pruning rules add to a leaf's training errors, against the number of
    examples at the leaf (Chapter 8).

    The classic rules charge a leaf a bounded price: half an error for pessimistic error
    pruning (Quinlan 1987), about m(1 - pi) errors for minimum error pruning (Niblett & Bratko
    1986; Cestnik & Bratko 1991), N U_CF(e, N) - e errors for C4.5's error-based pruning
    (Quinlan 1993, Sec. 4.2). Kearns and Mansour's local penalty (1998, eq. (3)), times the N
    examples, grows like the square root of N. One panel per training error rate of the leaf,
    stacked vertically and sharing the N axis; the added errors are on a log scale.

    Parameters
    ----------
    sizes : array-like of shape (n,)
        The numbers of examples N at the leaf, positive and increasing.
    panels : sequence of dict of str to array-like
        One dict per panel, mapping a rule's label to the errors it adds, one positive value
        per size.
    titles : sequence of str, optional
        One title per panel (e.g. the leaf's training error rate).
    reference : str, optional
        The label of a curve drawn dashed in black, e.g. the guaranteed penalty; it must be a
        key of every panel.
    width : float, default 7.0
        Figure width in inches, at most 7.
    panel_height : float, default 3.0
        Height of one panel in inches.
    fontsize : float, default 9
        Smallest font size in points, at least 9.

    Returns
    -------
    matplotlib Figure
    """
    import matplotlib.pyplot as plt

    _check_drawing_size(width, fontsize)
    panel_height = check_real(panel_height, "panel_height", minimum=0, strict=True)
    sizes = _curve(sizes, "sizes", positive=True)
    if len(sizes) < 2 or np.any(np.diff(sizes) <= 0):
        raise ValueError("sizes must be at least two increasing numbers.")
    if isinstance(panels, dict) or not hasattr(panels, "__iter__"):
        raise TypeError("panels must be a sequence of dicts, one per panel.")
    panels = list(panels)
    if not panels:
        raise ValueError("panels must hold at least one dict.")
    checked = []
    for k, panel in enumerate(panels):
        if not isinstance(panel, dict) or not panel:
            raise TypeError(f"panels[{k}] must be a non-empty dict mapping labels to prices.")
        checked.append({str(label): _curve(prices, f"panels[{k}][{label!r}]", len(sizes),
                                            positive=True)
                        for label, prices in panel.items()})
    if titles is None:
        titles = [None] * len(checked)
    elif isinstance(titles, str) or not hasattr(titles, "__iter__"):
        raise TypeError("titles must be a sequence of strings, one per panel.")
    titles = list(titles)
    if len(titles) != len(checked):
        raise ValueError(f"titles must have one entry per panel ({len(checked)}), got "
                         f"{len(titles)}.")
    for title in titles:
        _check_title(title, "titles[i]")
    if reference is not None:
        _check_title(reference, "reference")
        if any(reference not in panel for panel in checked):
            raise ValueError(f"reference must be a label of every panel, got {reference!r}.")
    labels = list(dict.fromkeys(label for panel in checked for label in panel))
    others = iter(_PALETTE * (1 + len(labels) // len(_PALETTE)))
    styles = {label: dict(color="k", ls="--") if label == reference
              else dict(color=next(others)) for label in labels}
    with plt.rc_context({"font.size": fontsize, "legend.fontsize": fontsize}):
        legend_height = 0.1 + 0.2 * ((len(labels) + 1) // 2)
        height = panel_height * len(checked) + legend_height
        fig, axes = plt.subplots(len(checked), 1, figsize=(width, height), sharex=True,
                                 squeeze=False)
        for ax, panel, title in zip(axes[:, 0], checked, titles):
            for label, prices in panel.items():
                ax.plot(sizes, prices, label=label, **styles[label])
            ax.set_yscale("log")
            ax.set_ylabel("errors added")
            if title is not None:
                ax.set_title(title)
        axes[-1, 0].set_xlabel("examples at the leaf, N = m_v")
        handles = [plt.Line2D([], [], **styles[label]) for label in labels]
        fig.legend(handles, labels, loc="lower center", ncol=2, frameon=False)
        fig.tight_layout(rect=(0, legend_height / height, 1, 1))
    return fig



# ----------------------------------------------------------------------------- chapter 9
