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


# ---------------------------------------------------------------------- regression trees
@pytest.fixture
def regression_tree():
    # y = 1, 1, 2, 5, 7, 9 (mean 25/6, mse 341/36); x0 <= 0.3 holds 1, 1, 2 (mean 4/3,
    # mse 2/9), x1 <= 0.7 splits the rest 5 | 7, 9 (mean 7, mse 8/3)
    X = [[0, 0], [0, 1], [0, 0], [1, 0], [1, 1], [1, 1]]
    return pk.RegressionTree.from_arrays(
        [1, -1, 3, -1, -1], [2, -1, 4, -1, -1], feature=[0, -1, 1, -1, -1],
        threshold=[0.3, 0, 0.7, 0, 0], X=X, y=[1, 1, 2, 5, 7, 9],
        feature_names=["dose", "age"])


def test_plot_tree_writes_a_regression_leaf_s_mean_size_and_error(regression_tree):
    from matplotlib.colors import to_rgb

    pruning = pk.Pruning.from_collapsed(regression_tree, [2])
    ax = pk.plot_tree(regression_tree, pruning)
    texts = [t.get_text() for t in ax.texts]
    assert texts == ["dose ≤ 0.3?\nn=6\nmse=9.472", "→ 1.333\nn=3\nmse=0.2222",
                     "→ 7\nn=3\nmse=2.667", "n=1\nmse=0", "n=2\nmse=1"]
    # a higher mean is drawn darker; removed nodes in grey
    faces = [to_rgb(t.get_bbox_patch().get_facecolor()) for t in ax.texts]
    assert sum(faces[2]) < sum(faces[0]) < sum(faces[1])
    assert [t.get_color() for t in ax.texts[3:]] == ["#AAAAAA"] * 2
    ax = pk.plot_tree(regression_tree, counts=False, rules=False)
    assert [t.get_text() for t in ax.texts] == ["0", "→ 1.333", "2", "→ 5", "→ 8"]
    ax = pk.plot_tree(regression_tree, max_labelled_nodes=0)          # dots, no text
    assert not ax.texts and len(ax.collections) == regression_tree.n_nodes
    with pytest.raises(ValueError, match="class_names must be None for a regression tree"):
        pk.plot_tree(regression_tree, class_names=["low", "high"])


def test_plot_tree_writes_a_weighted_regression_tree_s_weights():
    tree = pk.RegressionTree.from_arrays(
        [1, -1, -1], [2, -1, -1], feature=[0, -1, -1], threshold=[0.5, 0, 0],
        X=[[0], [0], [1]], y=[1, 3, 5], sample_weight=[0.5, 1.5, 2.25])
    texts = [t.get_text() for t in pk.plot_tree(tree).texts]
    assert texts[1:] == ["→ 2.5\nn=2\nmse=0.75", "→ 5\nn=2.25\nmse=0"]


def test_plot_tree_draws_a_regressor_s_kept_tree():
    from sklearn.datasets import load_diabetes

    X, y = load_diabetes(return_X_y=True)
    reg = pk.PrunedTreeRegressor(pruner=pk.CostComplexityPruner(alpha=300.0),
                                 random_state=0).fit(X, y)
    ax = pk.plot_tree(reg)
    leaves = [t.get_text() for t in ax.texts if t.get_text().startswith("→")]
    assert len(ax.texts) == reg.pruning_.n_nodes < reg.tree_.n_nodes
    assert len(leaves) == reg.get_n_leaves()
    values = reg.tree_.value[reg.pruning_.leaves]
    assert (sorted(text.split("\n")[0] for text in leaves)
            == sorted(f"→ {v:.4g}" for v in values))
    with pytest.raises(ValueError, match="pruning must be None when a PrunedTreeRegressor"):
        pk.plot_tree(reg, reg.pruning_)


def test_plot_prunings_stacks_a_regression_tree_s_prunings(regression_tree):
    prunings = [pk.Pruning.full(regression_tree), pk.Pruning.root_only(regression_tree)]
    fig = plot_prunings(regression_tree, prunings, titles=["grown", "root"])
    assert len(fig.axes) == 2 and smallest_font(fig) >= 9
    texts = [t.get_text() for t in fig.axes[1].texts]
    assert "→ 4.167\nn=6\nmse=9.472" in texts                     # the root as a leaf
    assert [str(v) for v in range(regression_tree.n_nodes)] == [t for t in texts if t.isdigit()]
