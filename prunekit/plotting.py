"""Drawing trees, with a pruning superimposed.

Every chapter draws trees the same way: leaves spread left to right in their left-to-right
order, each internal node centred above its children; the class counts of the growing sample
written at each node; the part a pruning removes drawn in grey.
"""

from __future__ import annotations

import numpy as np

from prunekit.tree import Pruning, Tree

__all__ = ["tree_layout", "plot_tree"]

_PALETTE = ("#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860", "#DA8BC3",
            "#8C8C8C", "#CCB974", "#64B5CD")


def _tint(colour: str, strength: float = 0.35):
    """An opaque, lighter version of ``colour`` (so edges do not show through boxes)."""
    from matplotlib.colors import to_rgb

    return tuple(strength * c + (1 - strength) for c in to_rgb(colour))


def tree_layout(tree: Tree) -> np.ndarray:
    """Coordinates (x, y) of every node: leaves at x = 0, 1, 2, ... from left to right,
    internal nodes halfway between their children, y = -depth."""
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
    max_labelled_nodes : int, default 63
        Above this many nodes the text is left out and nodes are drawn as dots.
    title : str, optional

    Returns
    -------
    matplotlib Axes
    """
    import matplotlib.pyplot as plt

    if not isinstance(tree, Tree):
        raise TypeError(f"tree must be a prunekit Tree, got {type(tree).__name__}.")
    if pruning is not None and pruning.tree is not tree:
        raise ValueError("pruning must be a pruning of the tree being drawn.")
    kept = np.ones(tree.n_nodes, bool) if pruning is None else pruning.kept
    leaf = tree.is_leaf if pruning is None else pruning.is_leaf
    labels = tree.labels if pruning is None else pruning.labels
    highlight = set(np.atleast_1d(highlight).tolist()) if highlight is not None else set()
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
