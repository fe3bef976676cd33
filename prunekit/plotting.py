"""Drawing trees, with a pruning superimposed, and several prunings of one tree side by side.

Leaves are spread left to right in their left-to-right order, each internal node centred above
its children; the class counts of the growing sample are written at each node (for a regression
tree, its number of examples and their mean squared error); the part a pruning removes is drawn
in grey. The figures of the book's chapters are in :mod:`pdtbook.figures`.
"""

from __future__ import annotations

import numpy as np

from prunekit.export import _mean_squared_errors
from prunekit.validation import (check_bool, check_count, check_names, check_probability,
                                 check_real, check_title)
from prunekit.tree import BinaryTree, Pruning, Tree, check_tree

__all__ = ["tree_layout", "plot_tree", "plot_prunings", "raise_font_sizes", "tint",
           "PALETTE", "NOTE_COLOUR"]

#: The colours of the classes, in class order (the first ten of seaborn's "deep" palette).
PALETTE = ("#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860", "#DA8BC3",
           "#8C8C8C", "#CCB974", "#64B5CD")

#: The colour of a regression tree's nodes, lighter for lower predicted values.
VALUE_COLOUR = PALETTE[0]


def tint(colour: str, strength: float = 0.35):
    """An opaque, lighter version of ``colour`` (so edges do not show through boxes): each
    RGB channel ``c`` becomes ``strength * c + (1 - strength)``, a mix with white.

    Examples
    --------
    >>> import prunekit as pk
    >>> pk.plotting.tint("black", strength=0.5)
    (0.5, 0.5, 0.5)
    """
    from matplotlib.colors import is_color_like, to_rgb

    if not is_color_like(colour):
        raise ValueError(f"colour must be a matplotlib colour, got {colour!r}.")
    strength = check_probability(strength, "strength", open_interval=False)
    return tuple(strength * c + (1 - strength) for c in to_rgb(colour))


def tree_layout(tree: BinaryTree) -> np.ndarray:
    """Coordinates (x, y) of every node: leaves at x = 0, 1, 2, ... from left to right,
    internal nodes halfway between their children, y = -depth.

    Examples
    --------
    >>> import prunekit as pk
    >>> t = pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
    ...                         [[4, 4], [3, 1], [1, 3], [1, 0], [0, 3]])
    >>> pk.plotting.tree_layout(t).tolist()
    [[0.75, 0.0], [0.0, -1.0], [1.5, -1.0], [1.0, -2.0], [2.0, -2.0]]
    """
    check_tree(tree, regression=True)
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


def _rule(tree: BinaryTree, v: int, feature_names) -> str:
    name = feature_names[tree.feature[v]] if feature_names is not None else f"x{tree.feature[v]}"
    if tree.threshold[v] == 0.5:
        return f"{name} = 0?"
    return f"{name} ≤ {tree.threshold[v]:.3g}?"


def _drawn_tree(model, pruning) -> BinaryTree:
    """The tree :func:`plot_tree` draws: ``model`` itself, or the pruned tree of a fitted
    :class:`~prunekit.PrunedTreeClassifier` or :class:`~prunekit.PrunedTreeRegressor`."""
    from sklearn.utils.validation import check_is_fitted

    from prunekit.estimator import PrunedTreeClassifier
    from prunekit.regression_estimator import PrunedTreeRegressor

    if not isinstance(model, (PrunedTreeClassifier, PrunedTreeRegressor)):
        return check_tree(model, regression=True)
    check_is_fitted(model)
    name = type(model).__name__
    if pruning is not None:
        raise ValueError(f"pruning must be None when a {name} is drawn: the estimator is "
                         "drawn as its own pruned tree.")
    return model.pruning_.to_tree()


def _short(x: float) -> str:
    """A number in at most four significant digits, as a box has room for."""
    return f"{x:.4g}"


def _node_texts(tree: BinaryTree, labels, class_names):
    """Every node's colour, what it predicts as a leaf ("→ label" or "→ mean") and its
    growing statistics (class counts, or "n=..." and "mse=..." on two lines), for
    :func:`plot_tree`.

    A class has its colour of :data:`PALETTE`; a regression node has
    :data:`VALUE_COLOUR`, lighter the lower its mean is among the tree's.
    """
    if isinstance(tree, Tree):
        names = class_names if class_names is not None else [str(c) for c in tree.classes_]
        colours = [PALETTE[label % len(PALETTE)] for label in labels]
        predictions = [f"→ {names[label]}" for label in labels]
        return colours, predictions, [str(row.tolist()) for row in tree.counts]
    if class_names is not None:
        raise ValueError("class_names must be None for a regression tree: its leaves "
                         "predict values, not classes.")
    weight, mean = tree.moments[:, 0], tree.moments[:, 1]
    spread = np.ptp(mean)
    shade = (mean - mean.min()) / spread if spread > 0 else np.full(tree.n_nodes, 0.5)
    colours = [tint(VALUE_COLOUR, 0.2 + 0.8 * s) for s in shade]
    mse = _mean_squared_errors(tree)
    n = [_short(w) if tree.weighted else f"{w:.0f}" for w in weight]
    statistics = [f"n={n[v]}\nmse={_short(mse[v])}" for v in range(tree.n_nodes)]
    return colours, [f"→ {_short(m)}" for m in mean], statistics


def plot_tree(tree, pruning: Pruning | None = None, *, ax=None, counts: bool = True,
              rules: bool = True, highlight=None, feature_names=None, class_names=None,
              max_labelled_nodes: int = 63, title: str | None = None):
    """Draw ``tree``; with ``pruning``, grey out what the pruning removes.

    Parameters
    ----------
    tree : Tree, RegressionTree, or fitted PrunedTreeClassifier or PrunedTreeRegressor
        An estimator is drawn as its pruned tree alone: the kept part of its ``pruning_``
        (:meth:`Pruning.to_tree`), without the nodes the pruning removed. Node numbers
        (``highlight``) are then those of that tree.
    pruning : Pruning, optional
        Kept nodes are drawn in colour (a node's colour is the class it predicts, or for a
        regression tree a shade of blue, darker for a higher mean), the pruning's leaves
        with a thick outline; removed nodes in light grey. A leaf writes what it predicts:
        "→ label", or for a regression tree "→ mean", the mean of its growing targets.
    ax : matplotlib Axes, optional
    counts : bool, default True
        Write each node's growing class counts; for a regression tree, its number of
        growing examples (their total weight for a :attr:`weighted
        <prunekit.RegressionTree.weighted>` tree) and their mean squared error around the
        node's mean, on two lines ("n=20" and "mse=3.5").
    rules : bool, default True
        Write each kept internal node's split rule ("x3 = 0?" for binary features,
        "x3 ≤ 0.25?" otherwise; the left branch is "yes").
    highlight : int or sequence of int, optional
        Nodes to ring in red.
    feature_names, class_names : sequence of str, optional
        One name per feature (at least ``tree.n_features``) and one per class (at least
        ``tree.n_classes``; None for a regression tree). Without ``feature_names`` the
        splits are labelled with the tree's own :attr:`Tree.feature_names` (the column names
        of the DataFrame it was grown on), or ``x0``, ``x1``, ... when it has none.
    max_labelled_nodes : int, default 63
        Above this many nodes the text is left out and nodes are drawn as dots.
    title : str, optional

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    ID3's tree of depth 2; the part below node 1, pruned away, is drawn in grey:

    >>> import matplotlib.pyplot as plt
    >>> import prunekit as pk
    >>> X, y = pk.datasets.make_boolean_dnf(200, random_state=0)
    >>> t = pk.id3(X, y, max_depth=2)
    >>> fig, ax = plt.subplots()
    >>> pk.plot_tree(t, pk.Pruning.from_collapsed(t, [1]), ax=ax) is ax
    True
    >>> plt.close(fig)

    A pruned regression tree, each leaf with its mean, number of examples and mean squared
    error:

    >>> from sklearn.datasets import load_diabetes
    >>> X, y = load_diabetes(return_X_y=True)
    >>> reg = pk.PrunedTreeRegressor(random_state=0).fit(X, y)
    >>> ax = pk.plot_tree(reg)
    >>> print(ax.texts[1].get_text())
    x2 ≤ 0.00619?
    n=218
    mse=3241
    >>> plt.close(ax.figure)
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
    check_title(title)
    if feature_names is None:
        feature_names = tree.feature_names
    feature_names = check_names(feature_names, "feature_names", tree.n_features or 0, "feature")
    if isinstance(tree, Tree):
        class_names = check_names(class_names, "class_names", tree.n_classes, "class")
    if highlight is None:
        highlight = set()
    else:
        nodes = np.atleast_1d(np.asarray(highlight, dtype=object)).ravel().tolist()
        for node in nodes:
            tree.check_node(node, "highlight")
        highlight = {int(node) for node in nodes}
    kept = np.ones(tree.n_nodes, bool) if pruning is None else pruning.kept
    leaf = tree.is_leaf if pruning is None else pruning.is_leaf
    labels = getattr(tree, "labels", None) if pruning is None else pruning.labels
    colours, predictions, statistics = _node_texts(tree, labels, class_names)
    xy = tree_layout(tree)
    labelled = tree.n_nodes <= max_labelled_nodes
    if ax is None:
        width = min(16, max(4, 1.25 * tree.n_leaves if labelled else 0.2 * tree.n_leaves))
        height = min(10, max(2.5, (1.3 if labelled else 0.45) * (tree.max_depth + 1)))
        _, ax = plt.subplots(figsize=(width, height))
    # the limits first: with autoscaling off, adding each node's artist does not rescale
    # the axes over all the artists added before it
    ax.set_xlim(xy[:, 0].min() - 0.7, xy[:, 0].max() + 0.7)
    ax.set_ylim(xy[:, 1].min() - 0.6, 0.6)
    for v in np.flatnonzero(~tree.is_leaf):
        for child in (tree.left[v], tree.right[v]):
            colour = "#444444" if kept[child] else "#DDDDDD"
            ax.plot(*xy[[v, child]].T, color=colour, lw=1.2 if kept[child] else 0.8, zorder=1)
    for v in range(tree.n_nodes):
        colour = colours[v] if kept[v] else "#EEEEEE"
        edge = "#C0392B" if v in highlight else ("#222222" if kept[v] else "#CCCCCC")
        width = 2.5 if (leaf[v] and kept[v]) or v in highlight else 0.8
        if not labelled:
            ax.scatter(*xy[v], s=30, color=colour, edgecolors=edge, linewidths=width, zorder=2)
            continue
        lines = []
        if kept[v] and not leaf[v] and rules:
            lines.append(_rule(tree, v, feature_names))
        elif kept[v] and leaf[v]:
            lines.append(predictions[v])
        if counts:
            lines.append(statistics[v])
        text = "\n".join(lines) if lines else str(v)
        ax.text(*xy[v], text, ha="center", va="center", fontsize=8, zorder=3,
                color="#111111" if kept[v] else "#AAAAAA",
                bbox=dict(boxstyle="round,pad=0.3", facecolor=tint(colour) if kept[v] else "white",
                          edgecolor=edge, linewidth=width))
    ax.axis("off")
    if title:
        ax.set_title(title)
    return ax


# ---------------------------------------------------------------------------------------------
# Several prunings of one tree, one panel each, with node numbers and notes.

#: The colour of notes drawn on a figure (a dark red that reads as text, not as a class).
NOTE_COLOUR = "#8E1B12"


def raise_font_sizes(ax, fontsize: float) -> None:
    """Set every text of ``ax`` drawn smaller than ``fontsize`` points to ``fontsize``.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import prunekit as pk
    >>> fig, ax = plt.subplots()
    >>> label = ax.text(0, 0, "small", fontsize=6)
    >>> pk.plotting.raise_font_sizes(ax, 9)
    >>> label.get_fontsize()
    9.0
    >>> plt.close(fig)
    """
    if not hasattr(ax, "texts") or not hasattr(ax, "title"):
        raise TypeError(f"ax must be matplotlib Axes, got {type(ax).__name__}.")
    fontsize = check_real(fontsize, "fontsize", minimum=0.0)
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


def _statistics_lines(tree: BinaryTree) -> int:
    """How many lines a node's growing statistics take: class counts one, n and mse two."""
    return 1 if isinstance(tree, Tree) else 2


def _text_lines(tree: BinaryTree, pruning: Pruning, counts: bool, rules: bool) -> np.ndarray:
    """How many lines of text :func:`plot_tree` writes in each node's box."""
    inner = pruning.kept & ~pruning.is_leaf
    lines = np.full(tree.n_nodes, int(counts) * _statistics_lines(tree))
    lines[inner & rules] += 1
    lines[pruning.is_leaf] += 1
    return np.maximum(lines, 1)


def plot_prunings(tree: BinaryTree, prunings, *, titles=None, notes=None, highlight=None,
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
    tree : Tree or RegressionTree
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
        Width of the figure in inches.
    panel_height : float, optional
        Height of each panel in inches; default from the depth of the tree.
    fontsize : float, default 9
        Smallest font size in points.
    feature_names, class_names : sequence of str, optional
        Passed to :func:`plot_tree`.

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    All five prunings of a tree of 7 nodes, one panel each:

    >>> import matplotlib.pyplot as plt
    >>> import prunekit as pk
    >>> X, y = pk.datasets.make_boolean_dnf(200, random_state=0)
    >>> t = pk.id3(X, y, max_depth=2)
    >>> fig = pk.plotting.plot_prunings(t, pk.all_prunings(t))
    >>> len(fig.axes)
    5
    >>> plt.close(fig)
    """
    import matplotlib.pyplot as plt

    check_tree(tree, regression=True)
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
    width = check_real(width, "width", minimum=0, strict=True)
    fontsize = check_real(fontsize, "fontsize", minimum=0, strict=True)
    node_ids = check_bool(node_ids, "node_ids")
    counts, rules = check_bool(counts, "counts"), check_bool(rules, "rules")
    n = len(prunings)
    titles = _per_panel(titles, n, "titles")
    for k, title in enumerate(titles):
        check_title(title, f"titles[{k}]")
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
        per_level = (0.32 + 0.16 * (counts * _statistics_lines(tree) + rules) + 0.2 * node_ids
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
        raise_font_sizes(ax, fontsize)
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
                        ha="center", va="top", fontsize=fontsize, color=NOTE_COLOUR, zorder=4,
                        bbox=dict(boxstyle="round,pad=0.15", facecolor="white",
                                  edgecolor=NOTE_COLOUR, linewidth=0.6))
        ax.set_ylim(xy[:, 1].min() - 0.75, 0.75)
    fig.tight_layout()
    return fig
