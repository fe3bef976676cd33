"""Figures of Chapter 11's regression study (:mod:`pdtbook.regression_study`):
the critical-difference diagrams of the relative test error and of the size,
the size against the error with the Pareto front, and the ranks per data set.

They draw with Chapter 9's functions (:mod:`pdtbook.figures.ch09`), which
take the column compared (``value``) and the methods' names (``labels``), so
the classification and the regression study are drawn the same way. Every
figure is at most 7 inches wide with no text under 9 points (the book's rule,
``_check_drawing_size``). Without ``results``, a figure reads the table that
ships with the book, ``load_results("regression_study")``.
"""

from __future__ import annotations

from pdtbook.figures._style import _check_drawing_size
from pdtbook.figures.ch09 import (
    plot_critical_difference, plot_pareto, plot_ranks,
)
from pdtbook.regression_study import REGRESSION_LABELS, REGRESSION_METHODS
from pdtbook.study import _frame

__all__ = ["regression_study_critical_difference",
           "regression_study_size_error", "regression_study_ranks"]

#: The columns the figures compare by default, with their titles.
_TITLES = {"relative_error": "relative error", "n_leaves": "number of leaves",
           "test_mse": "test mean squared error"}


def _results_and_methods(results, methods):
    if results is None:
        from pdtbook.results import load_results

        results = load_results("regression_study")
    methods = list(REGRESSION_METHODS if methods is None else methods)
    return results, methods


def regression_study_critical_difference(
        results=None, methods=None, *,
        values=("relative_error", "n_leaves"), width: float = 7.0,
        panel_height: float = 3.2):
    """Critical-difference diagrams (Demšar 2006) of the regression study,
    one panel per column of ``values``, stacked.

    Each panel is :func:`pdtbook.figures.ch09.plot_critical_difference`: the
    methods' average ranks over the data sets, those the Nemenyi test cannot
    tell apart at level 0.05 joined by a bar.

    Parameters
    ----------
    results : pandas.DataFrame or list of dict, optional
        Rows with the columns of :data:`pdtbook.regression_study.COLUMNS`
        (default the shipped table).
    methods : list of str, optional
        The methods (default all of the study,
        :data:`pdtbook.regression_study.REGRESSION_METHODS`).
    values : sequence of str
        The columns ranked, smaller is better; one panel each.
    width : float, default 7.0
        Figure width in inches, at most 7.
    panel_height : float, default 3.2
        Height of one panel in inches.

    Returns
    -------
    matplotlib Figure
    """
    import matplotlib.pyplot as plt

    height = _check_drawing_size(width, 9, panel_height, "panel_height")
    values = [values] if isinstance(values, str) else list(values)
    if not values:
        raise ValueError("values must name at least one column.")
    results, methods = _results_and_methods(results, methods)
    fig, axes = plt.subplots(len(values), 1,
                             figsize=(width, height * len(values)),
                             squeeze=False)
    for ax, value in zip(axes[:, 0], values):
        plot_critical_difference(results, value, methods, ax=ax,
                                 title=_TITLES.get(value, value),
                                 labels=REGRESSION_LABELS)
    fig.subplots_adjust(left=0.25, right=0.75, top=0.95, bottom=0.03,
                        hspace=0.35)
    return fig


def regression_study_size_error(results=None, methods=None, *, dataset=None,
                                value: str = "relative_error",
                                width: float = 7.0, height: float = 4.5):
    """Size against error, one point per method of the regression study, the
    Pareto front joined by a line (:func:`pdtbook.figures.ch09.plot_pareto`).

    Parameters
    ----------
    results : pandas.DataFrame or list of dict, optional
        Rows of the regression study (default the shipped table).
    methods : list of str, optional
        The methods (default all of the study).
    dataset : str, optional
        One data set: the means over its splits, the size on a log scale.
        Default: the average ranks of the size and of the error over all data
        sets.
    value : str, default "relative_error"
        The error column.
    width : float, default 7.0
        Figure width in inches, at most 7.
    height : float, default 4.5
        Figure height in inches.

    Returns
    -------
    matplotlib Figure
    """
    import matplotlib.pyplot as plt

    height = _check_drawing_size(width, 9, height)
    results, methods = _results_and_methods(results, methods)
    fig, ax = plt.subplots(figsize=(width, height))
    plot_pareto(results, dataset, methods=methods, ax=ax, value=value,
                labels=REGRESSION_LABELS)
    fig.tight_layout()
    return fig


def regression_study_ranks(results=None, value: str = "relative_error",
                           methods=None, *, width: float = 7.0):
    """Every method's rank on every data set of the regression study (1 = the
    smallest mean ``value``) as a heat map
    (:func:`pdtbook.figures.ch09.plot_ranks`).

    Parameters
    ----------
    results : pandas.DataFrame or list of dict, optional
        Rows of the regression study (default the shipped table).
    value : str, default "relative_error"
        The column ranked.
    methods : list of str, optional
        The methods (default all of the study).
    width : float, default 7.0
        Figure width in inches, at most 7.

    Returns
    -------
    matplotlib Figure
    """
    import matplotlib.pyplot as plt

    _check_drawing_size(width, 9)
    results, methods = _results_and_methods(results, methods)
    n_datasets = _frame(results)["dataset"].nunique()
    fig, ax = plt.subplots(figsize=(width, 0.22 * n_datasets + 2.2))
    plot_ranks(results, value, methods, ax=ax, labels=REGRESSION_LABELS)
    fig.tight_layout()
    return fig

