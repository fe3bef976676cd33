"""The chapter 4 figure: excess error and size of Kearns and Mansour's pruning against m.

The figure is drawn at most 7 inches wide, with no text smaller than 9 points, and bad
arguments get an error that names them.
"""

from __future__ import annotations

import numpy as np
import pytest

from figure_checks import smallest_font

from pdtbook.figures import plot_excess_error


@pytest.fixture
def runs():
    # 3 sample sizes, 4 samples, 3 constants
    rng = np.random.default_rng(0)
    sizes = [250, 1000, 4000]
    excess = rng.uniform(0, 0.3, size=(3, 4, 3))
    km_nodes = rng.integers(1, 60, size=(3, 4, 3))
    opt_nodes = np.array([[20, 22, 25, 21], [40, 38, 36, 41], [65, 66, 64, 67]])
    grown_nodes = np.array([[120] * 4, [480] * 4, [1900] * 4])
    return dict(sizes=sizes, excess=excess, km_nodes=km_nodes, opt_nodes=opt_nodes,
                grown_nodes=grown_nodes, constants=[0.25, 1.0, 2.0])


def test_plot_excess_error_draws_two_stacked_panels(runs):
    fig = plot_excess_error(**runs, shown=(0.25, 2.0))
    top, bottom = fig.axes
    width, height = fig.get_size_inches()
    assert width <= 7 and height > width
    fig.canvas.draw()
    assert top.get_position().y0 > bottom.get_position().y1        # stacked vertically
    assert top.get_xscale() == "log" and bottom.get_xscale() == "log"
    assert bottom.get_yscale() == "log"
    # one error bar per shown constant, with the mean over the samples
    assert len(top.containers) == 2
    mean = top.containers[0].lines[0].get_ydata()
    assert np.allclose(mean, runs["excess"][:, :, 0].mean(axis=1))
    # the reference rate sqrt(s_opt / m), averaged over the samples
    rate = [line for line in top.lines if line.get_linestyle() == "--"][0]
    expected = np.sqrt(runs["opt_nodes"] / np.array(runs["sizes"])[:, None]).mean(axis=1)
    assert np.allclose(rate.get_ydata(), expected)
    labels = [t.get_text() for t in top.get_legend().get_texts()]
    assert "$c = 0.25$" in labels and "$c = 2$" in labels and "$c = 1$" not in labels
    # sizes: two constants, s_opt and |T|
    assert len(bottom.lines) == 4
    assert np.allclose(bottom.lines[1].get_ydata(), runs["km_nodes"][:, :, 2].mean(axis=1))
    assert smallest_font(fig) >= 9


def test_plot_excess_error_defaults_to_every_constant_and_one_sample(runs):
    one = {**runs, "excess": runs["excess"][:, :1], "km_nodes": runs["km_nodes"][:, :1],
           "opt_nodes": runs["opt_nodes"][:, :1], "grown_nodes": runs["grown_nodes"][:, :1]}
    fig = plot_excess_error(**one, width=6, fontsize=10)
    assert tuple(fig.get_size_inches())[0] == 6
    assert len(fig.axes[0].containers) == 3
    assert smallest_font(fig) >= 10


def test_plot_excess_error_rejects_bad_arguments(runs):
    with pytest.raises(ValueError, match="sizes must be positive and increasing"):
        plot_excess_error(**{**runs, "sizes": [1000, 250, 4000]})
    with pytest.raises(ValueError, match="excess must have shape"):
        plot_excess_error(**{**runs, "excess": runs["excess"][:, :, :2]})
    with pytest.raises(ValueError, match="km_nodes must have the shape of excess"):
        plot_excess_error(**{**runs, "km_nodes": runs["km_nodes"][:, :2]})
    with pytest.raises(ValueError, match="opt_nodes must have shape"):
        plot_excess_error(**{**runs, "opt_nodes": runs["opt_nodes"][:2]})
    with pytest.raises(ValueError, match="grown_nodes must hold numbers of nodes"):
        plot_excess_error(**{**runs, "grown_nodes": np.zeros((3, 4))})
    with pytest.raises(ValueError, match="constants must be non-negative"):
        plot_excess_error(**{**runs, "constants": [-1, 1, 2]})
    with pytest.raises(ValueError, match="shown names the constant 0.5"):
        plot_excess_error(**runs, shown=[0.5])
    with pytest.raises(TypeError, match="shown must be a sequence"):
        plot_excess_error(**runs, shown="all")
    with pytest.raises(ValueError, match="shown must name at least one constant"):
        plot_excess_error(**runs, shown=[])
    with pytest.raises(ValueError, match=r"width must be a number of inches in \(0, 7\]"):
        plot_excess_error(**runs, width=8)
    with pytest.raises(ValueError, match="fontsize must be a number of points of at least 9"):
        plot_excess_error(**runs, fontsize=8)
