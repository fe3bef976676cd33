"""Figures of Chapter 3: REP against the share of the data used for pruning.

Every figure is drawn at most 7 inches wide with no text under 9 points (the book's rule,
``_check_drawing_size`` (the book's style rule)).
"""

from __future__ import annotations

import numpy as np

from prunekit.validation import as_array
from prunekit.plotting import PALETTE

from pdtbook.figures._style import (
    _check_drawing_size, _figure_docstring, _mean_and_standard_error,
)

__all__ = ["plot_pruning_share"]


@_figure_docstring
def plot_pruning_share(results, fractions, *, width: float = 7.0, row_height: float = 2.0,
                       fontsize: float = 9):
    """REP's test error and size against the pruning share, one row per data set (Chapter 3).

    Draws the results of :func:`pdtbook.experiments.pruning_share_experiment`:
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
    row_height : float, default 2.0
        Height of each row in inches.
    {width_fontsize_returns}
    """
    import matplotlib.pyplot as plt

    row_height = _check_drawing_size(width, fontsize, row_height, "row_height")
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
                          color=PALETTE[0], label="REP (mean ± s.e.)")
            left.axhline(row["ccp_error"].mean(), color=PALETTE[1], ls="--",
                         label="cost-complexity, cross-validated α")
            left.axhline(row["unpruned_error"].mean(), color=PALETTE[2], ls=":",
                         label="unpruned, all training data")
            right.errorbar(share, nodes, yerr=nodes_se, fmt="o-", ms=4, capsize=3,
                           color=PALETTE[0])
            right.axhline(row["ccp_nodes"].mean(), color=PALETTE[1], ls="--")
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
