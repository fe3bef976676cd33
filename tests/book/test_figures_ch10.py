"""The chapter 10 figures: the gap between greedy pruning and the optimum, the solver's time.

The figures are drawn at most 7 inches wide, with no text smaller than 9 points, and bad
arguments get an error that names them.
"""

from __future__ import annotations

import numpy as np
import pytest

from figure_checks import smallest_font

from pdtbook.figures import plot_gap, plot_solver_times

DEPTHS = [2, 3, 4]
GAPS = {"mushroom": dict(risk=[0.0, 0.002, 0.004], test=[0.0, 0.001, -0.002]),
        "led24": dict(risk=[0.01, 0.03, np.nan], test=[0.02, 0.01, np.nan])}
CURVES = {"led24": dict(depths=[1, 2, 3, 4], seconds=[0.01, 0.1, 1.5, 30.0],
                        finished=[True, True, True, False]),
          "breast-cancer": dict(depths=[1, 2, 3], seconds=[0.02, 0.2, 2.0],
                                finished=[True, True, True])}


def test_plot_gap_draws_both_differences_in_points():
    fig = plot_gap(DEPTHS, GAPS)
    left, right = fig.axes
    assert fig.get_size_inches()[0] <= 7
    mushroom, led = left.lines
    assert np.allclose(mushroom.get_xdata(), DEPTHS)
    assert np.allclose(mushroom.get_ydata(), [0.0, 0.2, 0.4])          # percentage points
    assert np.isnan(led.get_ydata()[-1])                               # not solved: a gap
    assert np.allclose(right.lines[0].get_ydata(), [0.0, 0.1, -0.2])
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["mushroom", "led24"]
    assert smallest_font(fig) >= 9


def test_plot_solver_times_marks_the_timeout_at_the_limit():
    fig = plot_solver_times(CURVES, 100.0)
    (ax,) = fig.axes
    assert ax.get_yscale() == "log"
    led_line, cross, dotted, breast_line, key = ax.lines
    assert np.allclose(led_line.get_xdata(), [1, 2, 3])               # finished depths only
    # the cross at the seconds used before the limit stopped the solve
    assert np.allclose(cross.get_xdata(), [4]) and np.allclose(cross.get_ydata(), [30])
    assert np.allclose(dotted.get_ydata(), [1.5, 30])
    assert np.allclose(breast_line.get_ydata(), [0.02, 0.2, 2.0])
    assert len(key.get_xdata()) == 0                                 # legend entry only
    assert np.allclose(ax.get_xticks(), [1, 2, 3, 4])
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["led24", "breast-cancer", "stopped at the 100 s limit (time used)"]
    assert smallest_font(fig) >= 9 and fig.get_size_inches()[0] <= 7


def test_smaller_and_larger_type():
    fig = plot_gap(DEPTHS, {"mushroom": GAPS["mushroom"]}, width=5, fontsize=11)
    assert fig.get_size_inches()[0] == 5 and smallest_font(fig) >= 11
    fig = plot_solver_times({"led24": CURVES["led24"]}, 100, width=6, fontsize=10)
    assert fig.get_size_inches()[0] == 6 and smallest_font(fig) >= 10


@pytest.mark.parametrize("change, error, message", [
    (dict(depths=[2, 2, 4]), ValueError, "depths must be at least two increasing"),
    (dict(gaps={}), TypeError, "gaps must be a non-empty dict"),
    (dict(gaps={"a": dict(risk=[0, 0, 0])}), ValueError, r"gaps\['a'\] must be a dict"),
    (dict(gaps={"a": dict(risk=[0, 0], test=[0, 0, 0])}), ValueError,
     r"gaps\['a'\]\['risk'\] must have one value per point"),
    (dict(width=7.5), ValueError, "width must be"),
    (dict(fontsize=8), ValueError, "fontsize must be"),
])
def test_plot_gap_rejects_bad_arguments(change, error, message):
    arguments = dict(depths=DEPTHS, gaps=GAPS)
    arguments.update(change)
    with pytest.raises(error, match=message):
        plot_gap(**arguments)


@pytest.mark.parametrize("change, error, message", [
    (dict(curves=[]), TypeError, "curves must be a non-empty dict"),
    (dict(curves={"a": dict(depths=[1, 2])}), ValueError, r"curves\['a'\] must be a dict"),
    (dict(curves={"a": dict(depths=[1, 2], seconds=[1, 0], finished=[1, 1])}), ValueError,
     r"curves\['a'\]\['seconds'\] must be positive"),
    (dict(curves={"a": dict(depths=[1, 2], seconds=[1, 2], finished=[0, 1])}), ValueError,
     "False at most for the last one"),
    (dict(time_limit=0), ValueError, "time_limit"),
    (dict(width=8), ValueError, "width must be"),
])
def test_plot_solver_times_rejects_bad_arguments(change, error, message):
    arguments = dict(curves=CURVES, time_limit=100)
    arguments.update(change)
    with pytest.raises(error, match=message):
        plot_solver_times(**arguments)
