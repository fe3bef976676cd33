"""Figures of Chapter 10: optimal trees against greedy growth and pruning.

Every figure is drawn at most 7 inches wide with no text under 9 points (the book's rule,
``_check_drawing_size``).
"""

from __future__ import annotations

import numpy as np

from prunekit.validation import check_real
from prunekit.plotting import PALETTE

from pdtbook.figures._style import (
    _check_drawing_size, _curve, _figure_docstring, _increasing_points,
)

__all__ = ["plot_gap", "plot_solver_times"]

_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "h", "<")


def _named_curves(curves, name: str, length: int, keys: tuple) -> dict:
    """``{label: {key: curve}}`` with one value per point, NaN allowed (nothing to draw)."""
    if not isinstance(curves, dict) or not curves:
        raise TypeError(f"{name} must be a non-empty dict mapping data set names to dicts.")
    checked = {}
    for label, curve in curves.items():
        if not isinstance(curve, dict) or set(curve) != set(keys):
            raise ValueError(f"{name}[{label!r}] must be a dict with the keys "
                             f"{sorted(keys)}.")
        checked[str(label)] = {key: _curve(curve[key], f"{name}[{label!r}][{key!r}]",
                                           length, finite=False) for key in keys}
    return checked


@_figure_docstring
def plot_gap(depths, gaps, *, width: float = 7.0, fontsize: float = 9):
    """What the optimum over all trees gains over the best pruning of a greedy tree
    (Chapter 10).

    Left: R_alpha of the best pruning of the greedy tree minus R_alpha of the optimal tree
    of the same depth (Breiman et al.'s cost complexity, in percentage points of the
    training sample; never negative). Right: the test error of the greedy pruning minus
    that of the optimal tree (positive where the optimum predicts better). One line per
    data set against the depth; a missing value (the solver did not finish) leaves a gap.

    Parameters
    ----------
    depths : array-like of int, shape (n,)
        The depths, increasing.
    gaps : dict of str to dict
        Per data set (the legend's label), a dict with ``"risk"`` and ``"test"``, one value
        per depth (rates, e.g. 0.01 for one point; NaN where unknown).
    {width_fontsize_returns}
    """
    import matplotlib.pyplot as plt

    _check_drawing_size(width, fontsize)
    depths = _increasing_points(depths, "depths")
    checked = _named_curves(gaps, "gaps", len(depths), ("risk", "test"))
    with plt.rc_context({"font.size": fontsize, "legend.fontsize": fontsize}):
        fig, (left, right) = plt.subplots(1, 2, figsize=(width, 3.9), sharex=True)
        for k, (label, curve) in enumerate(checked.items()):
            style = dict(color=PALETTE[k % len(PALETTE)], marker=_MARKERS[k % 10])
            left.plot(depths, 100 * curve["risk"], label=label, **style)
            right.plot(depths, 100 * curve["test"], **style)
        left.set_ylabel("greedy R_α − optimal R_α (points)")
        right.set_ylabel("greedy − optimal test error (points)")
        right.axhline(0, color="0.5", lw=0.8)
        for ax in (left, right):
            ax.set_xlabel("maximum depth")
            ax.set_xticks(depths)
        left.set_title("training objective")
        right.set_title("test error")
        fig.legend(loc="lower center", ncol=3, frameon=False)
        rows = -(-len(checked) // 3)
        fig.tight_layout(rect=(0, (0.25 + 0.22 * rows) / 3.9, 1, 1))
    return fig


@_figure_docstring
def plot_solver_times(curves, time_limit, *, width: float = 7.0, fontsize: float = 9):
    """The solver's seconds against the depth, on a log scale (Chapter 10).

    One line per data set; a depth the solver did not finish within ``time_limit`` seconds
    (a limit on the wall clock) is drawn as a cross at the seconds it had used, a lower
    bound on the time it needs, and ends its line.

    Parameters
    ----------
    curves : dict of str to dict
        Per data set, a dict with ``"depths"`` (increasing), ``"seconds"`` (positive, one per
        depth) and ``"finished"`` (booleans, one per depth: False for the last depth tried
        when it hit the limit).
    time_limit : float
        The limit in seconds, positive.
    {width_fontsize_returns}
    """
    import matplotlib.pyplot as plt

    _check_drawing_size(width, fontsize)
    time_limit = check_real(time_limit, "time_limit", minimum=0, strict=True)
    if not isinstance(curves, dict) or not curves:
        raise TypeError("curves must be a non-empty dict mapping data set names to dicts.")
    with plt.rc_context({"font.size": fontsize, "legend.fontsize": fontsize}):
        fig, ax = plt.subplots(figsize=(width, 3.4))
        ticks = set()
        for k, (label, curve) in enumerate(curves.items()):
            depths, seconds, finished = _solver_curve(curve, f"curves[{label!r}]")
            ticks.update(depths.tolist())
            colour = PALETTE[k % len(PALETTE)]
            ax.plot(depths[finished], seconds[finished], marker=_MARKERS[k % 10],
                    color=colour, label=str(label))
            if not finished.all():
                ax.plot(depths[~finished], seconds[~finished], "x", color=colour, ms=10,
                        mew=2.5)
                ax.plot(depths[-2:], seconds[-2:], ":", color=colour)
        ax.plot([], [], "x", color="0.3", ms=10, mew=2.5,
                label=f"stopped at the {time_limit:g} s limit (time used)")
        ax.set_yscale("log")
        ax.set_xticks(sorted(ticks))
        ax.set_xlabel("maximum depth")
        ax.set_ylabel("CPU seconds")
        ax.legend(loc="lower right", frameon=False)
        fig.tight_layout()
    return fig


def _solver_curve(curve, name: str):
    if not isinstance(curve, dict) or set(curve) != {"depths", "seconds", "finished"}:
        raise ValueError(f"{name} must be a dict with the keys ['depths', 'finished', "
                         "'seconds'].")
    depths = _increasing_points(curve["depths"], f"{name}['depths']")
    seconds = _curve(curve["seconds"], f"{name}['seconds']", len(depths), positive=True)
    finished = np.asarray(curve["finished"], dtype=bool)
    if finished.shape != depths.shape or not finished[:-1].all():
        raise ValueError(f"{name}['finished'] must have one boolean per depth, False at "
                         "most for the last one.")
    return depths, seconds, finished
