"""The chapter 6 figures: the k-REP class against its budget, bounds by data set.

Every figure is drawn at most 7 inches wide, with no text smaller than 9 points, and bad
arguments get an error that names them.
"""

from __future__ import annotations

import numpy as np
import pytest

from figure_checks import smallest_font

from pdtbook.figures import plot_bounds_by_data_set, plot_penalty_budget


BUDGETS = [300, 400, 600, 1000, 3000]
PENALTY = [0.01, 0.02, 0.03, 0.033, 0.034]
ERROR = [0.15, 0.13, 0.11, 0.107, 0.107]
BOUND = [0.28, 0.283, 0.28, 0.279, 0.28]


def test_plot_penalty_budget_stacks_penalty_over_fit():
    fig = plot_penalty_budget(BUDGETS, PENALTY, 0.034, ERROR, BOUND, budget=330)
    top, bottom = fig.axes
    assert fig.get_size_inches()[0] <= 7
    assert top.get_position().y0 > bottom.get_position().y1            # stacked
    assert top.get_xscale() == bottom.get_xscale() == "log"
    assert np.allclose(top.lines[0].get_ydata(), PENALTY)
    assert np.allclose(top.lines[1].get_ydata(), 0.034)                # all prunings
    assert np.allclose(bottom.lines[0].get_ydata(), ERROR)
    assert np.allclose(bottom.lines[1].get_ydata(), BOUND)
    assert bottom.lines[2].get_xdata()[0] == 330                       # the paper's k
    assert [t.get_text() for t in bottom.get_legend().get_texts()][-1] == "k = 330"
    assert smallest_font(fig) >= 9


def test_plot_penalty_budget_without_a_marked_budget():
    fig = plot_penalty_budget(BUDGETS, PENALTY, 0.034, ERROR, BOUND, width=6,
                              fontsize=10)
    assert len(fig.axes[1].lines) == 2
    assert fig.get_size_inches()[0] == 6
    assert smallest_font(fig) >= 10


@pytest.mark.parametrize("change, error, message", [
    (dict(budgets=[300, 200, 400, 500, 600]), ValueError, "budgets must be at least two"),
    (dict(budgets=[0, 1, 2, 3, 4]), ValueError, "budgets must be positive"),
    (dict(penalty=[0.1, 0.2]), ValueError, "penalty must have one value per point"),
    (dict(bound=[0.1] * 6), ValueError, "bound must have one value per point"),
    (dict(pruning_error="abc"), TypeError, "pruning_error must be a 1-D array"),
    (dict(penalty_all="x"), TypeError, "penalty_all must be a real number"),
    (dict(budget=-3), ValueError, "budget must be > 0"),
    (dict(width=8), ValueError, "width must be a number of inches"),
    (dict(fontsize=7), ValueError, "fontsize must be a number of points"),
])
def test_plot_penalty_budget_rejects_bad_arguments(change, error, message):
    arguments = dict(budgets=BUDGETS, penalty=PENALTY, penalty_all=0.034,
                     pruning_error=ERROR, bound=BOUND)
    arguments.update(change)
    with pytest.raises(error, match=message):
        plot_penalty_budget(**arguments)


def test_plot_bounds_by_data_set_one_row_per_label_one_marker_per_series():
    labels = ["breast cancer REP", "breast cancer k-REP", "digits REP"]
    values = {"test error": [0.03, 0.04, 0.17], "Rademacher bound": [0.75, 0.73, 0.64],
              "Occam bound": [0.23, 0.24, 0.33]}
    fig = plot_bounds_by_data_set(labels, values, title="delta = 0.01")
    ax = fig.axes[0]
    assert fig.get_size_inches()[0] <= 7
    assert [t.get_text() for t in ax.get_yticklabels()] == labels
    assert [tick for tick in ax.get_yticks()] == [2, 1, 0]              # top to bottom
    markers = [line for line in ax.lines if line.get_linestyle() == "None"]
    assert [line.get_label() for line in markers] == list(values)
    assert np.allclose(markers[1].get_xdata(), values["Rademacher bound"])
    assert np.allclose(markers[1].get_ydata(), [2, 1, 0])
    assert [t.get_text() for t in fig.legends[0].get_texts()] == list(values)
    assert ax.get_title() == "delta = 0.01"
    assert smallest_font(fig) >= 9


@pytest.mark.parametrize("change, error, message", [
    (dict(labels="ab"), TypeError, "labels must be a sequence of strings"),
    (dict(labels=None), TypeError, "labels must be a sequence of strings"),
    (dict(values=[0.1, 0.2]), TypeError, "values must be a non-empty dict"),
    (dict(values={}), TypeError, "values must be a non-empty dict"),
    (dict(values={"a": [0.1]}), ValueError, r"values\['a'\] must have one value per point"),
    (dict(title=3), TypeError, "title must be a string"),
    (dict(xlabel=None), TypeError, "xlabel must be a string"),
    (dict(width=0), ValueError, "width must be"),
])
def test_plot_bounds_by_data_set_rejects_bad_arguments(change, error, message):
    arguments = dict(labels=["a", "b"], values={"test": [0.1, 0.2]})
    arguments.update(change)
    with pytest.raises(error, match=message):
        plot_bounds_by_data_set(**arguments)
