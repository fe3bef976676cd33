"""The core's drawing (prunekit.plotting): several prunings of one tree stacked, at any size.

The book's style rule (at most 7 inches wide, no text under 9 points) is the book's and is
tested with its figures (tests/book/test_figures_chNN.py); the core draws at the size asked.
"""

from __future__ import annotations

import numpy as np
import pytest

import prunekit as pk
from prunekit.plotting import plot_prunings, tree_layout
from figure_checks import smallest_font


@pytest.fixture
def tree():
    # 0: x0 <= 0.5 ? 1 : 2;  2: x1 <= 0.5 ? 3 : 4
    return pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
                               [[6, 4], [5, 1], [1, 3], [1, 0], [0, 3]],
                               [0, -1, 1, -1, -1], [0.5, np.nan, 0.5, np.nan, np.nan])


def test_plot_prunings_stacks_one_panel_per_pruning(tree):
    prunings = [pk.Pruning.full(tree), pk.Pruning.from_collapsed(tree, [2])]
    fig = plot_prunings(tree, prunings, titles=["grown", "collapsed"],
                        notes=[None, {2: "1.5 vs 2.0"}], highlight=[None, 2])
    assert len(fig.axes) == 2
    width, height = fig.get_size_inches()
    assert width == 7.0 and height > 2
    top, bottom = fig.axes
    assert top.get_title() == "grown" and bottom.get_title() == "collapsed"
    assert top.get_position().y0 > bottom.get_position().y1          # stacked vertically
    texts = [t.get_text() for t in bottom.texts]
    assert "1.5 vs 2.0" in texts                                       # the note
    assert [str(v) for v in range(tree.n_nodes)] == [t for t in texts if t.isdigit()]
    assert "1.5 vs 2.0" not in [t.get_text() for t in top.texts]
    assert smallest_font(fig) >= 9


def test_plot_prunings_without_ids_and_a_single_pruning(tree):
    fig = plot_prunings(tree, pk.Pruning.root_only(tree), node_ids=False, width=5,
                        fontsize=10, panel_height=2.0)
    assert len(fig.axes) == 1
    assert tuple(fig.get_size_inches()) == (5.0, 2.0)
    assert not any(t.get_text().isdigit() for t in fig.axes[0].texts)
    assert smallest_font(fig) >= 10


def test_plot_prunings_rejects_bad_arguments(tree):
    full = pk.Pruning.full(tree)
    other = pk.Tree.from_arrays([1, -1, -1], [2, -1, -1], [[1, 1], [1, 0], [0, 1]])
    with pytest.raises(TypeError, match="tree must be a prunekit Tree"):
        plot_prunings("tree", [full])
    with pytest.raises(ValueError, match=r"prunings\[1\] must be a Pruning of tree"):
        plot_prunings(tree, [full, pk.Pruning.full(other)])
    with pytest.raises(ValueError, match="at least one Pruning"):
        plot_prunings(tree, [])
    with pytest.raises(ValueError, match="titles must have one entry per pruning"):
        plot_prunings(tree, [full], titles=["a", "b"])
    with pytest.raises(ValueError, match=r"notes\[0\] names nodes outside \[0, 5\)"):
        plot_prunings(tree, [full], notes=[{7: "x"}])
    with pytest.raises(TypeError, match=r"notes\[0\] must be a dict"):
        plot_prunings(tree, [full], notes=["x"])
    with pytest.raises(ValueError, match="width must be > 0"):
        plot_prunings(tree, [full], width=0)
    with pytest.raises(ValueError, match="fontsize must be > 0"):
        plot_prunings(tree, [full], fontsize=-1)
    with pytest.raises(ValueError, match="panel_height must be a positive number"):
        plot_prunings(tree, [full], panel_height=0)
    big = pk.id3(*pk.datasets.make_boolean_dnf(400, n_features=8, random_state=0))
    assert big.n_nodes > 63
    with pytest.raises(ValueError, match="at most 63 nodes"):
        plot_prunings(big, [pk.Pruning.full(big)])


def test_plot_prunings_draws_wide_figures_and_small_text(tree):
    # no refusal of a figure wider than the book's column or of text under 9 points
    fig = plot_prunings(tree, [pk.Pruning.full(tree)], width=12, fontsize=6)
    assert fig.get_size_inches()[0] == 12.0
    ids = [t for t in fig.axes[0].texts if t.get_text().isdigit()]
    assert ids and {t.get_fontsize() for t in ids} == {6}


def test_plot_tree_sizes_its_own_figure_beyond_the_column():
    X, y = pk.datasets.make_boolean_dnf(400, n_features=8, random_state=0)
    ax = pk.plot_tree(pk.id3(X, y))
    assert ax.figure.get_size_inches()[0] > 7


def test_plot_tree_never_rescales_the_axes_while_it_adds_nodes(monkeypatch):
    import matplotlib.pyplot as plt
    from matplotlib.axes import Axes

    from prunekit.datasets import make_boolean_dnf

    X, y = make_boolean_dnf(400, 8, noise=0.2, random_state=0)
    big = pk.id3(X, y)
    rescaled = []
    autoscale_view = Axes.autoscale_view

    def watched(self, *args, **kwargs):
        rescaled.append(self.get_autoscalex_on() or self.get_autoscaley_on())
        return autoscale_view(self, *args, **kwargs)

    monkeypatch.setattr(Axes, "autoscale_view", watched)
    ax = pk.plot_tree(big)
    assert big.n_nodes > 63 and not any(rescaled)
    xy = tree_layout(big)
    assert ax.get_xlim() == (xy[:, 0].min() - 0.7, xy[:, 0].max() + 0.7)
    assert ax.get_ylim() == (xy[:, 1].min() - 0.6, 0.6)
    plt.close(ax.figure)
