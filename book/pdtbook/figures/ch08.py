"""Figures of Chapter 8: C4.5's upper confidence limit, and the errors pruning rules add to a leaf.

Every figure is drawn at most 7 inches wide with no text under 9 points (the book's rule,
``_check_drawing_size`` (the book's style rule)).
"""

from __future__ import annotations

import numpy as np

from prunekit.validation import check_count, check_real, check_title
from prunekit.plotting import PALETTE

from pdtbook.figures._style import (
    _check_drawing_size, _figure_docstring, _curve, _increasing_points, _panel_dicts,
)

__all__ = ["plot_upper_limit", "plot_leaf_prices"]


@_figure_docstring
def plot_upper_limit(confidence: float = 0.25, errors=(0, 1, 2, 5), max_n: int = 60,
                     pairs=((0, 10), (2, 20), (10, 100)), *, width: float = 7.0,
                     fontsize: float = 9):
    """C4.5's upper confidence limit U_CF(e, N) as a function of N and of CF.

    Top panel: U_CF(e, N) at ``confidence`` against N, one curve per number of errors ``e``,
    with the exact binomial (Clopper-Pearson) upper limit dashed and the training error rate
    e / N dotted. Bottom panel: U_CF(e, N) against CF on a log scale for the (e, N) of
    ``pairs``. The values are those of :func:`prunekit.error_based_pruning.upper_confidence_limit`
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
    {width_fontsize_returns}
    """
    import matplotlib.pyplot as plt
    from scipy.stats import beta

    from prunekit.error_based_pruning import upper_confidence_limit

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
            colour = PALETTE[k % len(PALETTE)]
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
            colour = PALETTE[k % len(PALETTE)]
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


@_figure_docstring
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
    panel_height : float, default 3.0
        Height of one panel in inches.
    {width_fontsize_returns}
    """
    import matplotlib.pyplot as plt

    panel_height = _check_drawing_size(width, fontsize, panel_height, "panel_height")
    sizes = _increasing_points(sizes, "sizes", positive=True)
    checked = [{str(label): prices for label, prices in panel.items()}
               for panel in _panel_dicts(panels, "panels", "mapping labels to prices",
                                         lambda prices, name: _curve(prices, name, len(sizes),
                                                                     positive=True))]
    if titles is None:
        titles = [None] * len(checked)
    elif isinstance(titles, str) or not hasattr(titles, "__iter__"):
        raise TypeError("titles must be a sequence of strings, one per panel.")
    titles = list(titles)
    if len(titles) != len(checked):
        raise ValueError(f"titles must have one entry per panel ({len(checked)}), got "
                         f"{len(titles)}.")
    for title in titles:
        check_title(title, "titles[i]")
    if reference is not None:
        check_title(reference, "reference")
        if any(reference not in panel for panel in checked):
            raise ValueError(f"reference must be a label of every panel, got {reference!r}.")
    labels = list(dict.fromkeys(label for panel in checked for label in panel))
    others = iter(PALETTE * (1 + len(labels) // len(PALETTE)))
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
