"""Figures of Chapter 1: a tree drawn at the width of the text column, and the errors of a tree as
it grows.

Every figure is drawn at most 7 inches wide with no text under 9 points (the book's rule,
``_check_drawing_size`` (the book's style rule)).
"""

from __future__ import annotations

import numpy as np

from prunekit.validation import as_array, check_count, check_real, check_title
from prunekit.plotting import NOTE_COLOUR, PALETTE, plot_tree, raise_font_sizes
from prunekit.tree import Pruning, Tree, check_tree

from pdtbook.figures._style import _check_drawing_size, _figure_docstring

__all__ = ["plot_tree_figure", "plot_growth", "plot_growth_explorer"]


_PLOT_TREE_OPTIONS = ("counts", "rules", "highlight", "feature_names", "class_names",
                      "max_labelled_nodes")


@_figure_docstring
def plot_tree_figure(tree: Tree, pruning: Pruning | None = None, *, width: float = 7.0,
                     height: float | None = None, fontsize: float = 9,
                     title: str | None = None, **options):
    """Draw ``tree`` (with ``pruning`` greyed out) in a figure the width of the text column.

    :func:`prunekit.plot_tree` sizes its own figure by the number of leaves (up to 16 inches
    wide, which the page then shrinks); this draws the same picture ``width`` inches wide with
    every text at least ``fontsize`` points. Chapter 1 uses it for the ID3 trees grown on the
    Boolean cube and for the trees returned by the bottom-up pruning template of
    Shalev-Shwartz and Ben-David (2014), Sec. 18.2.2.

    Parameters
    ----------
    tree : Tree
    pruning : Pruning, optional
        A pruning of ``tree``; the part it removes is drawn in grey.
    height : float, optional
        Figure height in inches; default from the depth of the tree.
    title : str, optional
    **options
        ``counts``, ``rules``, ``highlight``, ``feature_names``, ``class_names`` and
        ``max_labelled_nodes``, passed to :func:`prunekit.plot_tree`.
    {width_fontsize_returns}
    """
    import matplotlib.pyplot as plt

    check_tree(tree)
    _check_drawing_size(width, fontsize)
    check_title(title)
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
    raise_font_sizes(ax, fontsize)
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


@_figure_docstring
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
    height : float, default 3.8
        Figure height in inches.
    title : str, optional
    {width_fontsize_returns}
    """
    import matplotlib.pyplot as plt

    height = _check_drawing_size(width, fontsize, height)
    check_title(title)
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
                    color=PALETTE[k % len(PALETTE)], label=label)
        if bayes_risk is not None:
            ax.axhline(bayes_risk, color="grey", ls=":", label="Bayes risk")
        if current is not None:
            ax.axvline(current, color=NOTE_COLOUR, lw=1.2, label="the tree shown")
        ax.set_xscale("log")
        ax.set_xlabel("number of nodes |T| (log scale)")
        ax.set_ylabel("error")
        top = max(1.0, max(float(np.max(curve)) for curve in curves.values()))
        ax.set_ylim(0, 1.1 * top)
        ax.legend(loc="upper left")
        if title:
            ax.set_title(title)
        raise_font_sizes(ax, fontsize)
        ax.figure.tight_layout()
    return ax.figure


@_figure_docstring
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
    {width_fontsize_returns}
    """
    import matplotlib.pyplot as plt

    check_tree(tree)
    _check_drawing_size(width, fontsize)
    check_title(title)
    max_labelled_nodes = check_count(max_labelled_nodes, "max_labelled_nodes")
    _check_growth(n_nodes, curves)
    labelled = tree.n_nodes <= max_labelled_nodes
    tree_height = min(5.0, 0.3 + (0.75 if labelled else 0.35) * (tree.max_depth + 1))
    with plt.rc_context({"font.size": fontsize}):
        fig, (ax_tree, ax_growth) = plt.subplots(
            2, 1, figsize=(width, tree_height + 3.4), height_ratios=[tree_height, 3.4])
        plot_tree(tree, ax=ax_tree, counts=labelled, max_labelled_nodes=max_labelled_nodes,
                  title=title)
        raise_font_sizes(ax_tree, fontsize)
        plot_growth(n_nodes, curves, bayes_risk=bayes_risk, current=tree.n_nodes,
                    ax=ax_growth, width=width, fontsize=fontsize)
    return fig
