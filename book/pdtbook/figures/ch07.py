"""Figures of Chapter 7: k-REP's bound and test error against the constant c.

Every figure is drawn at most 7 inches wide with no text under 9 points (the book's rule,
``_check_drawing_size`` (the book's style rule)).
"""

from __future__ import annotations

import numpy as np

from prunekit.validation import check_real
from prunekit.plotting import PALETTE

from pdtbook.figures._style import (
    _check_drawing_size, _figure_docstring, _curve, _increasing_points,
)

__all__ = ["plot_c_effect"]


@_figure_docstring
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
    {width_fontsize_returns}
    """
    import matplotlib.pyplot as plt

    _check_drawing_size(width, fontsize)
    c_values = _increasing_points(c_values, "c_values")
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
    bound_colour, test_colour = PALETTE[3], PALETTE[0]
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
