"""The chapter 7 figure: k-REP's bound and test error against the constant c.

The figure is drawn at most 7 inches wide, with no text smaller than 9 points, and bad
arguments get an error that names them.
"""

from __future__ import annotations

import numpy as np
import pytest

from figure_checks import smallest_font

from pdtbook.figures import plot_c_effect


C = [1.0, 1.1, 1.5, 2.0]
PANELS = {"ADULT": dict(bound=[0.25, 0.26, 0.266, 0.261], test=[0.18, 0.17, 0.16, 0.15],
                        rep_bound=0.258, rep_test=0.143),
          "LETTER": dict(bound=[0.26, 0.27, 0.29, 0.31], test=[0.143, 0.14, 0.144, 0.149],
                         rep_bound=0.341, rep_test=0.155)}


def test_plot_c_effect_one_stacked_panel_per_data_set():
    fig = plot_c_effect(C, PANELS)
    adult, letter = fig.axes
    assert fig.get_size_inches()[0] <= 7
    assert adult.get_position().y0 > letter.get_position().y1          # stacked
    assert [adult.get_title(), letter.get_title()] == ["ADULT", "LETTER"]
    bound, test, rep_bound, rep_test = letter.lines
    assert np.allclose(bound.get_xdata(), C)
    assert np.allclose(bound.get_ydata(), PANELS["LETTER"]["bound"])
    assert np.allclose(test.get_ydata(), PANELS["LETTER"]["test"])
    assert np.allclose(rep_bound.get_ydata(), 0.341)
    assert np.allclose(rep_test.get_ydata(), 0.155)
    assert [t.get_text() for t in fig.legends[0].get_texts()] == [
        "k-REP Rademacher bound", "k-REP test error", "REP bound", "REP test error"]
    assert smallest_font(fig) >= 9


def test_plot_c_effect_single_panel():
    fig = plot_c_effect(C, {"LETTER": PANELS["LETTER"]}, width=5, fontsize=11)
    assert len(fig.axes) == 1 and fig.get_size_inches()[0] == 5
    assert smallest_font(fig) >= 11


@pytest.mark.parametrize("change, error, message", [
    (dict(c_values=[1.0, 1.0, 1.5, 2.0]), ValueError, "c_values must be at least two"),
    (dict(c_values=[1.0]), ValueError, "c_values must be at least two"),
    (dict(panels=[]), TypeError, "panels must be a non-empty dict"),
    (dict(panels={"A": dict(bound=C)}), ValueError, r"panels\['A'\] must be a dict"),
    (dict(panels={"A": dict(PANELS["ADULT"], test=[0.1])}), ValueError,
     r"panels\['A'\]\['test'\] must have one value per point"),
    (dict(panels={"A": dict(PANELS["ADULT"], rep_bound="x")}), TypeError,
     r"panels\['A'\]\['rep_bound'\] must be a real number"),
    (dict(width=7.5), ValueError, "width must be"),
    (dict(fontsize=8), ValueError, "fontsize must be"),
])
def test_plot_c_effect_rejects_bad_arguments(change, error, message):
    arguments = dict(c_values=C, panels=PANELS)
    arguments.update(change)
    with pytest.raises(error, match=message):
        plot_c_effect(**arguments)
