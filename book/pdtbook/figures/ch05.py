"""Figures of Chapter 5: Nobel's pruning, the cells of a tree and of a pruning, the size profile
with penalised objectives, excess risks against the sample size, chosen prunings drawn alone.

Every figure is drawn at most 7 inches wide with no text under 9 points (the book's rule,
``_check_drawing_size`` (the book's style rule)).
"""

from __future__ import annotations

import numpy as np

from prunekit.validation import check_choice, check_count, check_real
from prunekit.plotting import (
    PALETTE, raise_font_sizes, tint, plot_tree,
)
from prunekit.tree import Pruning, Tree

from pdtbook.figures._style import (
    _check_drawing_size, _figure_docstring, _check_pruning_of, _curve, _panel_dicts,
    _panel_titles, _positive_increasing,
)

__all__ = ["plot_partitions", "plot_size_profile", "plot_excess_risk", "plot_chosen_prunings"]


@_figure_docstring
def plot_partitions(tree: Tree, pruning: Pruning, X, y, *, resolution: int = 300,
                    width: float = 7.0, fontsize: float = 9):
    """A tree of two features with a pruning in colour, and the cells of both in the plane.

    Top: :func:`prunekit.plot_tree` of ``tree`` with ``pruning`` in colour. Bottom, side by
    side: the leaf cells of the tree and of the pruning (Nobel 2002, Sec. 2: the partition of a
    pruning is coarser, each of its cells the cell of a node of the tree), each cell shaded by
    the label of its leaf, with the sample on top. For Chapter 5.

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
    {width_fontsize_returns}
    """
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap

    from prunekit.validation import check_sample_and_labels, encode_labels

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
    shades = ListedColormap([tint(c, 0.3) for c in PALETTE[:tree.n_classes]])
    with plt.rc_context({"font.size": fontsize}):
        tree_height = 0.55 * (tree.max_depth + 1) + 0.4
        fig = plt.figure(figsize=(width, tree_height + width / 2 + 0.4))
        grid_spec = fig.add_gridspec(2, 2, height_ratios=[tree_height, width / 2])
        top = fig.add_subplot(grid_spec[0, :])
        plot_tree(tree, pruning, ax=top, title="the tree, a pruning in colour")
        raise_font_sizes(top, fontsize)
        for k, (model, name) in enumerate([(Pruning.full(tree), "the tree"),
                                           (pruning, "the pruning")]):
            ax = fig.add_subplot(grid_spec[1, k])
            cell = model.apply(grid).reshape(xx.shape)     # index of the leaf reached
            ax.pcolormesh(xx, yy, model.labels[cell], cmap=shades, shading="auto",
                          vmin=0, vmax=tree.n_classes - 1)
            ax.contour(xx, yy, cell, levels=np.arange(tree.n_nodes) + 0.5, colors="k",
                       linewidths=0.6)
            colours = np.array(PALETTE[:tree.n_classes])
            ax.scatter(*X.T, c=colours[codes], s=5)
            ax.set_title(f"cells of {name}: {model.n_leaves}")
            ax.set_xticks([])
            ax.set_yticks([])
        fig.tight_layout()
    return fig


@_figure_docstring
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
    {width_fontsize_returns}
    """
    import matplotlib.pyplot as plt

    _check_drawing_size(width, fontsize)
    n_nodes = _positive_increasing(n_nodes, "n_nodes")
    n = len(n_nodes)
    errors = _curve(errors, "errors", n)
    panels = _panel_dicts(objectives, "objectives", "of curves",
                          lambda curve, name: _curve(curve, name, n))
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
    titles = _panel_titles(titles, n_panels)
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


@_figure_docstring
def plot_excess_risk(sizes, excess, groups, *, labels=None, titles=None,
                     yscale: str = "linear", width: float = 7.0, fontsize: float = 9):
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
    yscale : {"linear", "log"}, default "linear"
        The scale of the excess risk's axis.
    {width_fontsize_returns}
    """
    import matplotlib.pyplot as plt

    _check_drawing_size(width, fontsize)
    yscale = check_choice(yscale, "yscale", ("linear", "log"))
    sizes = _positive_increasing(sizes, "sizes")
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
    titles = _panel_titles(titles, len(groups), per="group")
    order = list(dict.fromkeys(name for group in groups for name in group))
    colours = {name: PALETTE[k % len(PALETTE)] for k, name in enumerate(order)}
    with plt.rc_context({"font.size": fontsize}):
        fig, axes = plt.subplots(len(groups), 1, figsize=(width, 3.0 * len(groups)),
                                 sharex=True, sharey=True, squeeze=False)
        for ax, group, title in zip(axes[:, 0], groups, titles):
            for name in group:
                ax.errorbar(sizes, means[name], yerr=bars[name], marker="o", ms=4, capsize=3,
                            color=colours[name], label=labels.get(name, name))
            ax.set_xscale("log")
            ax.set_yscale(yscale)
            ax.set_ylabel("excess risk $L_\\mathcal{D} - L^*_\\mathcal{D}$")
            if title:
                ax.set_title(title)
            ax.legend(loc="best")
        axes[-1, 0].set_xlabel("sample size $m$ (log scale)")
        fig.tight_layout()
    return fig


@_figure_docstring
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
    {width_fontsize_returns}
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
    titles = _panel_titles(titles, len(prunings), per="pruning")
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
            raise_font_sizes(ax, fontsize)
        fig.tight_layout()
    return fig
