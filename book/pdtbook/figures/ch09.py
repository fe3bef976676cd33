"""Figures of Chapter 9: the study of every pruner, as Demšar (2006) analyses it: critical-
difference diagrams, size against error with the Pareto front, ranks per data set, and the
synthetic family against its label noise.

The figures are drawn 7 inches wide with 9-point text; their statistics are those of
:mod:`pdtbook.study`.
"""

from __future__ import annotations

import numpy as np

from pdtbook._extras import require
from pdtbook.study import (
    METHOD_LABELS, STUDY_DATASETS, _frame, average_ranks, mean_table,
    pareto_front, ranks, synthetic_parameters,
)

__all__ = ["plot_critical_difference", "plot_pareto", "plot_ranks", "plot_noise"]


def plot_critical_difference(results, value: str = "test_error", methods=None, *, ax=None,
                             alpha: float = 0.05, title=None, labels=None):
    """Critical-difference diagram (Demšar 2006, Fig. 1) drawn by
    :func:`scikit_posthocs.critical_difference_diagram`: the average ranks, with the methods
    the Nemenyi test cannot tell apart at level ``alpha`` joined by a bar. ``labels`` maps a
    method to the name shown (default :data:`pdtbook.study.METHOD_LABELS`). Returns the
    axes."""
    import matplotlib.pyplot as plt

    scikit_posthocs = require("scikit_posthocs", "the critical-difference diagram")
    table = mean_table(results, value, methods)
    average = table.rank(axis=1, method="average").mean(axis=0)
    labels = METHOD_LABELS if labels is None else labels
    average.index = [labels.get(m, m) for m in average.index]
    pvalues = scikit_posthocs.posthoc_nemenyi_friedman(table)
    pvalues.index = pvalues.columns = average.index
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.2))
    scikit_posthocs.critical_difference_diagram(
        average, pvalues, ax=ax, alpha=alpha, label_props={"fontsize": 9})
    ax.tick_params(labelsize=9)
    if title:
        ax.set_title(title, fontsize=10)
    return ax


def plot_pareto(results, dataset=None, *, size: str = "n_leaves", methods=None, ax=None,
                title=None, label: str = "all", numbers: bool = False,
                value: str = "test_error", labels=None):
    """Size against error, one point per method, the Pareto front joined by a line.

    With ``dataset`` the means over the splits of one data set (size on a log scale);
    without it the average ranks over all data sets of the size and of the error, the
    column ``value`` (``"relative_error"`` for the regression study).
    ``label`` is ``"all"`` to label every point or ``"front"`` to label the Pareto-optimal
    ones only. ``labels`` maps a method to the name shown (default
    :data:`pdtbook.study.METHOD_LABELS`). With ``numbers`` a point is labelled by the
    method's number (its position in ``labels``, from 1) and a key to the right of the
    axes names the labelled methods, so that close points stay readable. Returns the axes.
    """
    if label not in ("all", "front"):
        raise ValueError(f"label must be 'all' or 'front', got {label!r}.")
    import matplotlib.pyplot as plt

    frame = _frame(results)
    if dataset is not None:
        frame = frame[frame["dataset"] == dataset]
        if frame.empty:
            raise ValueError(f"no results for the data set {dataset!r}.")
        x = mean_table(frame, size, methods).iloc[0]
        y = mean_table(frame, value, methods).iloc[0]
        xlabel, ylabel = f"mean {size.replace('n_', 'number of ')}", \
            f"mean {value.replace('_', ' ')}"
    else:
        x = average_ranks(frame, size, methods)
        y = average_ranks(frame, value, methods).reindex(x.index)
        xlabel, ylabel = f"average rank of {size.replace('n_', 'number of ')}", \
            f"average rank of {value.replace('_', ' ')}"
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4.5))
    front = pareto_front(x.to_numpy(), y.to_numpy())
    order = np.argsort(x.to_numpy()[front])
    ax.plot(x.to_numpy()[front][order], y.to_numpy()[front][order], "-", color="0.6",
            zorder=1, label="Pareto front")
    ax.scatter(x[~front], y[~front], color="tab:blue", zorder=2)
    ax.scatter(x[front], y[front], color="tab:red", zorder=2)
    labels = METHOD_LABELS if labels is None else labels
    number = {m: i + 1 for i, m in enumerate(list(labels) + [m for m in x.index
                                                            if m not in labels])}
    shown = [m for m, on_front in zip(x.index, front) if on_front or label == "all"]
    for method in shown:
        text = str(number[method]) if numbers else labels.get(method, method)
        ax.annotate(text, (x[method], y[method]), fontsize=9, xytext=(3, 3),
                    textcoords="offset points")
    if numbers:
        key = "\n".join(f"{number[m]:>2}  {labels.get(m, m)}"
                        for m in sorted(shown, key=number.get))
        ax.text(1.03, 1.0, key, transform=ax.transAxes, va="top", ha="left", fontsize=9,
                family="monospace")
    if dataset is not None:
        ax.set_xscale("log")
    ax.set_xlabel(xlabel, fontsize=10)
    ax.set_ylabel(ylabel, fontsize=10)
    ax.tick_params(labelsize=9)
    ax.legend(fontsize=9, loc="best")
    ax.set_title(title if title is not None else (dataset or "all data sets"), fontsize=10)
    return ax


def plot_ranks(results, value: str = "test_error", methods=None, *, ax=None, title=None,
               labels=None):
    """Every method's rank on every data set (1 = smallest mean ``value``) as a heat map,
    data sets in rows, methods in columns; ``labels`` maps a method to the name shown
    (default :data:`pdtbook.study.METHOD_LABELS`). Returns the axes."""
    import matplotlib.pyplot as plt

    table = ranks(results, value, methods)
    own_figure = ax is None
    if own_figure:
        _, ax = plt.subplots(figsize=(7, 0.22 * len(table) + 2.2))
    image = ax.imshow(table.to_numpy(), aspect="auto", cmap="viridis_r")
    labels = METHOD_LABELS if labels is None else labels
    ax.set_xticks(range(table.shape[1]), [labels.get(m, m) for m in table.columns],
                  rotation=60, ha="right", fontsize=9)
    ax.set_yticks(range(table.shape[0]), table.index, fontsize=9)
    bar = ax.figure.colorbar(image, ax=ax, fraction=0.04, pad=0.02)
    bar.set_label(f"rank of {value.replace('_', ' ')} (1 = smallest)", fontsize=9)
    bar.ax.tick_params(labelsize=9)
    if title:
        ax.set_title(title, fontsize=10)
    if own_figure:
        ax.figure.tight_layout()            # the labels inside the figure's 7 inches
    return ax


def plot_noise(results, methods, *, axes=None):
    """Excess test error over the Bayes risk on the synthetic family, against the label noise
    (which is the Bayes risk), one panel per training size; returns the axes."""
    import matplotlib.pyplot as plt

    frame = _frame(results)
    frame = frame[frame["dataset"].map(lambda d: d in STUDY_DATASETS
                                       and STUDY_DATASETS[d].group == "synthetic")]
    if frame.empty:
        raise ValueError("the results have no synthetic data sets.")
    table = mean_table(frame, "test_error", methods)
    parameters = {name: synthetic_parameters(name) for name in table.index}
    sizes = sorted({m for m, _ in parameters.values()})
    if axes is None:
        _, axes = plt.subplots(1, len(sizes), figsize=(7, 3), sharey=True)
    axes = np.atleast_1d(axes)
    for ax, m in zip(axes, sizes):
        names = sorted((d for d in table.index if parameters[d][0] == m),
                       key=lambda d: parameters[d][1])
        noise = np.array([parameters[d][1] for d in names])
        for method in table.columns:
            ax.plot(noise, table.loc[names, method].to_numpy() - noise, "o-", ms=3,
                    label=METHOD_LABELS.get(method, method))
        ax.set_title(f"m = {m}", fontsize=10)
        ax.set_xlabel("label noise (Bayes risk)", fontsize=9)
        ax.tick_params(labelsize=9)
    axes[0].set_ylabel("test error - Bayes risk", fontsize=9)
    return axes
