"""The chapter 8 figures: C4.5's upper limit, a pruner's explorer, the prices that pruning
rules charge a leaf.

Every figure is drawn at most 7 inches wide, with no text smaller than 9 points, and bad
arguments get an error that names them.
"""

from __future__ import annotations

import numpy as np
import pytest

import prunekit as pk
from figure_checks import smallest_font

from pdtbook.figures import (
    plot_leaf_prices,
    plot_pruning_explorer,
    plot_upper_limit,
)


@pytest.fixture
def tree():
    # 0: x0 <= 0.5 ? 1 : 2;  2: x1 <= 0.5 ? 3 : 4
    return pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
                               [[6, 4], [5, 1], [1, 3], [1, 0], [0, 3]],
                               [0, -1, 1, -1, -1], [0.5, np.nan, 0.5, np.nan, np.nan])


def test_plot_upper_limit_draws_both_panels():
    from prunekit.error_based_pruning import upper_confidence_limit

    fig = plot_upper_limit(0.25, errors=(0, 2), max_n=30, pairs=((0, 10), (3, 40)))
    top, bottom = fig.axes
    assert tuple(fig.get_size_inches())[0] <= 7
    # one solid and one dashed curve per e, a dotted e/N for e > 0, two legend proxies
    solid = top.lines[0]
    n, u = solid.get_data()
    assert n[0] == 1 and n[-1] == 30
    assert np.allclose(u, [upper_confidence_limit(0, k, 0.25) for k in n])
    assert bottom.get_xscale() == "log"
    cf, u = bottom.lines[0].get_data()
    assert np.allclose(u, [upper_confidence_limit(0, 10, c) for c in cf])
    assert smallest_font(fig) >= 9


@pytest.mark.parametrize("kwargs, message", [
    (dict(confidence=0.7), r"confidence must be in \(0, 0.5\]"),
    (dict(errors=(0, 80)), r"errors must be non-empty integers in \[0, max_n\)"),
    (dict(pairs=((5, 3),)), r"pairs must be \(e, N\)"),
    (dict(width=8), "width must be"),
])
def test_plot_upper_limit_rejects_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        plot_upper_limit(**kwargs)


def test_plot_pruning_explorer(tree):
    values = [0.01, 0.1, 0.5]
    pruning = pk.Pruning.from_collapsed(tree, [2])
    fig = plot_pruning_explorer(tree, pruning, values, [3, 2, 1],
                                {"training": [0.1, 0.2, 0.4], "test": [0.3, 0.25, 0.4]}, 0.1,
                                title="CF = 0.1")
    ax_tree, ax_size, ax_err = fig.axes
    assert ax_tree.get_title() == "CF = 0.1"
    assert ax_size.get_xscale() == "log"
    assert [line.get_label() for line in ax_err.lines] == ["training", "test"]
    assert ax_size.lines[-1].get_xdata()[0] == 0.1                      # the current value
    assert fig.get_size_inches()[0] <= 7
    assert smallest_font(fig) >= 9


@pytest.mark.parametrize("change, error, message", [
    (dict(values=[0.1, 0.01, 0.5]), ValueError, "values must be at least two increasing"),
    (dict(n_leaves=[3, 2]), ValueError, "n_leaves must have one entry per value"),
    (dict(errors={"a": [1, 2]}), ValueError, r"errors\['a'\] must have one entry per value"),
    (dict(errors=[0.1, 0.2, 0.3]), TypeError, "errors must be a non-empty dict"),
    (dict(values=[0.0, 0.1, 0.5]), ValueError, "values must be positive on a log scale"),
])
def test_plot_pruning_explorer_rejects_bad_arguments(tree, change, error, message):
    arguments = dict(tree=tree, pruning=pk.Pruning.full(tree), values=[0.01, 0.1, 0.5],
                     n_leaves=[3, 2, 1], errors={"training": [0.1, 0.2, 0.4]}, current=0.1)
    arguments.update(change)
    with pytest.raises(error, match=message):
        plot_pruning_explorer(**arguments)
    other = pk.Tree.from_arrays([1, -1, -1], [2, -1, -1], [[1, 1], [1, 0], [0, 1]])
    with pytest.raises(ValueError, match="pruning must be a Pruning of tree"):
        plot_pruning_explorer(tree, pk.Pruning.full(other), [0.1, 0.2], [1, 1],
                              {"a": [0, 0]}, 0.1)


def _prices(sizes):
    return {"PEP": np.full(len(sizes), 0.5), "guaranteed": np.sqrt(sizes)}


def test_plot_leaf_prices_stacks_one_log_panel_per_rate():
    sizes = np.arange(2, 50)
    fig = plot_leaf_prices(sizes, [_prices(sizes), _prices(sizes)],
                           titles=["rate 0", "rate 0.2"], reference="guaranteed")
    top, bottom = fig.axes
    assert tuple(fig.get_size_inches())[0] == 7.0
    assert top.get_title() == "rate 0" and bottom.get_title() == "rate 0.2"
    assert top.get_position().y0 > bottom.get_position().y1          # stacked vertically
    assert top.get_yscale() == bottom.get_yscale() == "log"
    assert len(top.lines) == len(bottom.lines) == 2
    n, price = top.lines[1].get_data()
    assert np.array_equal(n, sizes) and np.allclose(price, np.sqrt(sizes))
    assert top.lines[1].get_linestyle() == "--" and top.lines[1].get_color() == "k"
    (legend,) = fig.legends                                              # one legend below
    assert [t.get_text() for t in legend.get_texts()] == ["PEP", "guaranteed"]
    assert smallest_font(fig) >= 9
    assert min(t.get_fontsize() for t in legend.get_texts()) >= 9


def test_plot_leaf_prices_one_panel_without_titles():
    sizes = [1, 10, 100]
    fig = plot_leaf_prices(sizes, [{"a": [1, 2, 3]}], width=5, fontsize=10)
    (ax,) = fig.axes
    assert fig.get_size_inches()[0] == 5.0 and ax.get_title() == ""
    assert smallest_font(fig) >= 10


@pytest.mark.parametrize("change, error, message", [
    (dict(sizes=[3, 2]), ValueError, "sizes must be at least two increasing"),
    (dict(sizes=[0, 2]), ValueError, "sizes must be positive"),
    (dict(panels={"a": [1, 2]}), TypeError, "panels must be a sequence of dicts"),
    (dict(panels=[]), ValueError, "panels must hold at least one dict"),
    (dict(panels=[[1, 2]]), TypeError, r"panels\[0\] must be a non-empty dict"),
    (dict(panels=[{"a": [1, 2, 3]}]), ValueError, r"panels\[0\]\['a'\] must have one value"),
    (dict(panels=[{"a": [1, 0]}]), ValueError, r"panels\[0\]\['a'\] must be positive"),
    (dict(titles=["x", "y"]), ValueError, "titles must have one entry per panel"),
    (dict(titles="x"), TypeError, "titles must be a sequence of strings"),
    (dict(reference="b"), ValueError, "reference must be a label of every panel"),
    (dict(width=8), ValueError, "width must be"),
    (dict(fontsize=7), ValueError, "fontsize must be"),
    (dict(panel_height=0), ValueError, "panel_height"),
])
def test_plot_leaf_prices_rejects_bad_arguments(change, error, message):
    arguments = dict(sizes=[1, 2], panels=[{"a": [1, 2]}])
    arguments.update(change)
    with pytest.raises(error, match=message):
        plot_leaf_prices(**arguments)
