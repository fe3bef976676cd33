"""Figures of Chapter 6: the k-REP class against its budget, and bounds by data set (also used in
Chapter 7).

Every figure is drawn at most 7 inches wide with no text under 9 points (the book's rule,
``_check_drawing_size`` (the book's style rule)).
"""

from __future__ import annotations

import numpy as np

from prunekit.validation import check_names, check_real, check_title
from prunekit.plotting import PALETTE

from pdtbook.figures._style import (
    _check_drawing_size, _figure_docstring, _curve, _increasing_points,
)

__all__ = ["plot_penalty_budget", "plot_bounds_by_data_set"]


@_figure_docstring
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
    {width_fontsize_returns}
    """
    import matplotlib.pyplot as plt
    from matplotlib.ticker import NullFormatter, ScalarFormatter

    _check_drawing_size(width, fontsize)
    budgets = _increasing_points(budgets, "budgets", positive=True)
    n = len(budgets)
    penalty = _curve(penalty, "penalty", n)
    pruning_error = _curve(pruning_error, "pruning_error", n)
    bound = _curve(bound, "bound", n)
    penalty_all = check_real(penalty_all, "penalty_all")
    if budget is not None:
        budget = check_real(budget, "budget", minimum=0, strict=True)
    with plt.rc_context({"font.size": fontsize, "legend.fontsize": fontsize}):
        fig, (top, bottom) = plt.subplots(2, 1, figsize=(width, 6.4), sharex=True)
        top.plot(budgets, penalty, "o-", color=PALETTE[0], label="k-REP class")
        top.axhline(penalty_all, color="k", ls="--", label="all prunings (REP class)")
        top.set_ylabel(r"mean of $\hat{\mathfrak{R}}_m$")
        top.set_title("the penalty grows with the class")
        bottom.plot(budgets, pruning_error, "o-", color=PALETTE[1],
                    label="pruning-set error of k-REP")
        bottom.plot(budgets, bound, "s-", color=PALETTE[3],
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


@_figure_docstring
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
    {width_fontsize_returns}
    """
    import matplotlib.pyplot as plt

    _check_drawing_size(width, fontsize)
    labels = check_names(labels, "labels", 1, "row")
    if labels is None:
        raise TypeError("labels must be a sequence of strings, one per row, got None.")
    if not isinstance(values, dict) or not values:
        raise TypeError("values must be a non-empty dict mapping series labels to values.")
    series = {str(name): _curve(v, f"values[{name!r}]", len(labels))
              for name, v in values.items()}
    check_title(title)
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
                    color=PALETTE[k % len(PALETTE)], label=name, alpha=0.9)
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
