"""The chapter 1 figures: a tree drawn at the column width, and the errors of a growing tree.

Every figure is drawn at most 7 inches wide, with no text smaller than 9 points, and bad
arguments get an error that names them.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest

import prunekit as pk
from figure_checks import smallest_font

from pdtbook.figures import (
    plot_growth,
    plot_growth_explorer,
    plot_tree_figure,
)


@pytest.fixture
def tree():
    # 0: x0 <= 0.5 ? 1 : 2;  2: x1 <= 0.5 ? 3 : 4
    return pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
                               [[6, 4], [5, 1], [1, 3], [1, 0], [0, 3]],
                               [0, -1, 1, -1, -1], [0.5, np.nan, 0.5, np.nan, np.nan])


@pytest.fixture
def growth():
    n_nodes = [1, 3, 7, 15, 31, 31]
    curves = {"training": [0.4, 0.3, 0.2, 0.1, 0.0, 0.0],
              "true": [0.4, 0.32, 0.25, 0.27, 0.3, 0.3],
              "bound": [0.5, 0.45, 0.5, 0.7, 1.2, 1.2]}
    return n_nodes, curves


def test_plot_tree_figure_fits_the_column(tree):
    fig = plot_tree_figure(tree, title="a tree")
    assert fig.get_size_inches()[0] == 7.0
    (ax,) = fig.axes
    assert ax.get_title() == "a tree"
    texts = [t.get_text() for t in ax.texts]
    assert len(texts) == tree.n_nodes                      # one box per node
    assert "x0 = 0?\n[6, 4]" in texts
    assert smallest_font(fig) >= 9


def test_plot_tree_figure_with_a_pruning_and_options(tree):
    pruning = pk.Pruning.from_collapsed(tree, [2])
    fig = plot_tree_figure(tree, pruning, width=5, height=2.5, fontsize=11, counts=False,
                           feature_names=["a", "b"], class_names=["no", "yes"])
    assert tuple(fig.get_size_inches()) == (5.0, 2.5)
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert "a = 0?" in texts and "→ yes" in texts           # node 2 is a leaf of the pruning
    assert smallest_font(fig) >= 11


def test_plot_tree_figure_draws_large_trees_as_dots():
    big = pk.id3(*pk.datasets.make_boolean_dnf(400, n_features=8, random_state=0))
    fig = plot_tree_figure(big, max_labelled_nodes=15)
    ax = fig.axes[0]
    assert not ax.texts and len(ax.collections) == big.n_nodes
    assert fig.get_size_inches()[0] <= 7


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(width=8), ValueError, r"width must be a number of inches in \(0, 7\]"),
    (dict(fontsize=8), ValueError, "fontsize must be a number of points of at least 9"),
    (dict(height=0), ValueError, "height must be > 0"),
    (dict(title=3), TypeError, "title must be a string"),
    (dict(ax="axes"), TypeError, r"unknown option\(s\) \['ax'\]"),
    (dict(counts="yes"), TypeError, "counts must be True or False"),
])
def test_plot_tree_figure_rejects_bad_arguments(tree, kwargs, error, message):
    with pytest.raises(error, match=message):
        plot_tree_figure(tree, **kwargs)
    with pytest.raises(TypeError, match="tree must be a prunekit Tree"):
        plot_tree_figure("tree")


def test_plot_growth_draws_one_line_per_curve_on_a_log_axis(growth):
    n_nodes, curves = growth
    fig = plot_growth(n_nodes, curves, bayes_risk=0.25, title="growth")
    (ax,) = fig.axes
    assert tuple(fig.get_size_inches()) == (7.0, 3.8)
    assert ax.get_xscale() == "log" and ax.get_title() == "growth"
    labels = [line.get_label() for line in ax.lines]
    assert labels == ["training", "true", "bound", "Bayes risk"]
    x, values = ax.lines[1].get_data()
    assert np.array_equal(x, n_nodes) and np.allclose(values, curves["true"])
    assert ax.lines[3].get_ydata()[0] == 0.25
    assert ax.get_ylim()[1] >= 1.2                          # the vacuous bound stays visible
    assert [t.get_text() for t in ax.get_legend().get_texts()] == labels
    assert smallest_font(fig) >= 9


def test_plot_growth_into_given_axes_marks_the_current_tree(growth):
    fig, ax = plt.subplots(figsize=(6, 3))
    assert plot_growth(*growth, current=7, ax=ax) is fig
    assert ax.lines[-1].get_label() == "the tree shown"
    assert ax.lines[-1].get_xdata()[0] == 7
    assert smallest_font(fig) >= 9


@pytest.mark.parametrize("change, error, message", [
    (dict(n_nodes=[1, 3, 2, 4, 5, 6]), ValueError, "n_nodes must be at least two non-decreasing"),
    (dict(n_nodes=[0, 3, 7, 15, 31, 31]), ValueError, "n_nodes must be at least two"),
    (dict(n_nodes="nodes"), TypeError, "n_nodes must be a 1-D array"),
    (dict(curves=[0.1, 0.2]), TypeError, "curves must be a non-empty dict"),
    (dict(curves={}), TypeError, "curves must be a non-empty dict"),
    (dict(curves={"a": [0.1, 0.2]}), ValueError, r"curves\['a'\] must have one entry per tree"),
    (dict(curves={1: [0] * 6}), TypeError, "curves must have string labels"),
    (dict(bayes_risk="low"), TypeError, "bayes_risk must be a real number"),
    (dict(current=0), ValueError, "current must be > 0"),
    (dict(ax=3), TypeError, "ax must be a matplotlib Axes"),
    (dict(width=7.5), ValueError, "width must be"),
    (dict(height=-1), ValueError, "height must be > 0"),
    (dict(title=["a"]), TypeError, "title must be a string"),
])
def test_plot_growth_rejects_bad_arguments(growth, change, error, message):
    arguments = dict(n_nodes=growth[0], curves=growth[1])
    arguments.update(change)
    with pytest.raises(error, match=message):
        plot_growth(**arguments)


def test_plot_growth_explorer_stacks_the_tree_above_the_curves(tree, growth):
    fig = plot_growth_explorer(tree, *growth, bayes_risk=0.25, title="depth 2")
    ax_tree, ax_growth = fig.axes
    assert fig.get_size_inches()[0] == 7.0
    assert ax_tree.get_position().y0 > ax_growth.get_position().y1   # stacked vertically
    assert ax_tree.get_title() == "depth 2"
    assert len(ax_tree.texts) == tree.n_nodes                       # labelled: 5 <= 15 nodes
    assert ax_growth.lines[-1].get_xdata()[0] == tree.n_nodes        # the tree is marked
    assert ax_growth.get_xscale() == "log"
    assert smallest_font(fig) >= 9
    fig = plot_growth_explorer(tree, *growth, max_labelled_nodes=3)
    assert not fig.axes[0].texts                                    # dots beyond 3 nodes


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(width=9), ValueError, "width must be"),
    (dict(fontsize=6), ValueError, "fontsize must be"),
    (dict(max_labelled_nodes=-1), ValueError, "max_labelled_nodes"),
    (dict(title=1), TypeError, "title must be a string"),
])
def test_plot_growth_explorer_rejects_bad_arguments(tree, growth, kwargs, error, message):
    with pytest.raises(error, match=message):
        plot_growth_explorer(tree, *growth, **kwargs)
    with pytest.raises(TypeError, match="tree must be a prunekit Tree"):
        plot_growth_explorer(None, *growth)
    with pytest.raises(ValueError, match=r"curves\['x'\] must have one entry per tree"):
        plot_growth_explorer(tree, growth[0], {"x": [0.1]})
