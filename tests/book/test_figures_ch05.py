"""The chapter 5 figures: cells of a tree and a pruning, the size profile with penalised
objectives, excess risks against the sample size, chosen prunings drawn on their own.

Every figure is drawn at most 7 inches wide, with no text smaller than 9 points, and bad
arguments get an error that names them.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import make_moons
from sklearn.tree import DecisionTreeClassifier

import prunekit as pk
from figure_checks import smallest_font

from pdtbook.figures import (
    plot_chosen_prunings,
    plot_excess_risk,
    plot_partitions,
    plot_size_profile,
)


@pytest.fixture(scope="module")
def moons():
    X, y = make_moons(120, noise=0.3, random_state=0)
    clf = DecisionTreeClassifier(max_leaf_nodes=6, random_state=0).fit(X, y)
    return pk.Tree.from_sklearn(clf, X, y), X, y


@pytest.fixture(scope="module")
def cube_tree():
    X, y = pk.datasets.make_boolean_dnf(400, n_features=8, noise=0.1, random_state=0)
    clf = DecisionTreeClassifier(random_state=0).fit(X, y)
    return pk.Tree.from_sklearn(clf, X, y)


def _check_size(fig):
    assert fig.get_size_inches()[0] <= 7
    assert smallest_font(fig) >= 9


# ------------------------------------------------------------------ plot_partitions
def test_plot_partitions_draws_the_tree_and_both_partitions(moons):
    tree, X, y = moons
    pruning = pk.cost_complexity_path(tree).pruning(1)
    fig = plot_partitions(tree, pruning, X, y, resolution=60)
    _check_size(fig)
    top, left, right = fig.axes
    assert top.get_title() == "the tree, a pruning in colour"
    assert left.get_title() == f"cells of the tree: {tree.n_leaves}"
    assert right.get_title() == f"cells of the pruning: {pruning.n_leaves}"
    assert top.get_position().y0 > left.get_position().y1             # tree above the maps
    for ax in (left, right):
        assert len(ax.collections[-1].get_offsets()) == len(y)         # the sample


@pytest.mark.parametrize("change, error, message", [
    (dict(tree="t"), TypeError, "tree"),
    (dict(pruning="p"), ValueError, "pruning"),
    (dict(X=np.zeros((5, 3))), ValueError, "X"),
    (dict(y=np.zeros(3)), ValueError, "y"),
    (dict(resolution=5), ValueError, "resolution"),
    (dict(width=8), ValueError, "width"),
    (dict(fontsize=7), ValueError, "fontsize"),
])
def test_plot_partitions_rejects_bad_arguments(moons, change, error, message):
    tree, X, y = moons
    arguments = dict(tree=tree, pruning=pk.Pruning.full(tree), X=X, y=y)
    arguments.update(change)
    with pytest.raises(error, match=message):
        plot_partitions(**arguments)


def test_plot_partitions_needs_two_features(cube_tree):
    X, y = pk.datasets.make_boolean_dnf(50, n_features=8, random_state=0)
    with pytest.raises(ValueError, match="two features"):
        plot_partitions(cube_tree, pk.Pruning.full(cube_tree), X, y)


# ------------------------------------------------------------------ plot_size_profile
def _profile(tree):
    profile = pk.best_pruning_by_size(tree)
    k = profile.n_nodes
    train = profile.errors / tree.n_samples
    return k, train


def test_plot_size_profile_stacks_the_profile_and_the_objectives(cube_tree):
    k, train = _profile(cube_tree)
    root = train + 0.3 * np.sqrt(k) / 10
    line = train + 0.01 * k
    path = pk.cost_complexity_path(cube_tree)
    fig = plot_size_profile(k, train, [{"root": root}, {"root": root, "line": line}],
                            true_errors=train + 0.05,
                            path=(2 * path.n_leaves - 1, path.risks), bayes_risk=0.1,
                            titles=["profile", "one", "two"], ylims=[None, None, (0, 1)])
    _check_size(fig)
    top, one, two = fig.axes
    assert [ax.get_title() for ax in fig.axes] == ["profile", "one", "two"]
    assert all(ax.get_xscale() == "log" for ax in fig.axes)
    assert top.get_position().y0 > one.get_position().y1 > two.get_position().y1
    assert len(top.get_legend().get_texts()) == 4          # L_S, L_D, path, Bayes risk
    assert [t.get_text() for t in two.get_legend().get_texts()] == ["root", "line"]
    assert two.get_ylim() == (0, 1)
    # a triangle at the minimiser of every curve
    marker = [ln for ln in two.lines if ln.get_marker() == "v"]
    assert [float(ln.get_xdata()[0]) for ln in marker] == [k[np.argmin(root)],
                                                           k[np.argmin(line)]]


@pytest.mark.parametrize("change, error, message", [
    (dict(n_nodes=[3, 1, 5]), ValueError, "n_nodes"),
    (dict(errors=[0.1, 0.2]), ValueError, "errors"),
    (dict(objectives={"a": [1, 2, 3]}), TypeError, "objectives"),
    (dict(objectives=[]), ValueError, "objectives"),
    (dict(objectives=[{"a": [1, 2]}]), ValueError, "objectives"),
    (dict(true_errors=[0.1]), ValueError, "true_errors"),
    (dict(path=([1, 3],)), ValueError, "path"),
    (dict(bayes_risk=-1), ValueError, "bayes_risk"),
    (dict(titles=["a"]), ValueError, "titles"),
    (dict(titles=["a", 3]), TypeError, "titles"),
    (dict(ylims=[None, (1, 0)]), ValueError, "ylims"),
    (dict(width=7.5), ValueError, "width"),
])
def test_plot_size_profile_rejects_bad_arguments(change, error, message):
    arguments = dict(n_nodes=[1, 3, 5], errors=[0.4, 0.2, 0.1],
                     objectives=[{"a": [0.5, 0.4, 0.45]}])
    arguments.update(change)
    with pytest.raises(error, match=message):
        plot_size_profile(**arguments)


# ------------------------------------------------------------------ plot_excess_risk
@pytest.fixture
def excess():
    rng = np.random.RandomState(0)
    return {name: {size: list(rng.rand(3) / size) for size in (100, 1000)}
            for name in ("a", "b", "c")}


def test_plot_excess_risk_one_panel_per_group(excess):
    fig = plot_excess_risk([100, 1000], excess, [["a", "b"], ["c", "a"]],
                           labels={"a": "rule a"}, titles=["first", "second"])
    _check_size(fig)
    top, bottom = fig.axes
    assert top.get_title() == "first" and bottom.get_title() == "second"
    assert top.get_xscale() == "log"
    assert top.get_position().y0 > bottom.get_position().y1
    assert [t.get_text() for t in top.get_legend().get_texts()] == ["rule a", "b"]
    assert [t.get_text() for t in bottom.get_legend().get_texts()] == ["c", "rule a"]
    # the means, and the same colour for a rule in both panels
    means = top.containers[0].lines[0].get_ydata()
    assert np.allclose(means, [np.mean(excess["a"][100]), np.mean(excess["a"][1000])])
    assert top.containers[0].lines[0].get_color() == bottom.containers[1].lines[0].get_color()


@pytest.mark.parametrize("change, error, message", [
    (dict(sizes=[1000, 100]), ValueError, "sizes"),
    (dict(excess=[1, 2]), TypeError, "excess"),
    (dict(groups="ab"), TypeError, "groups"),
    (dict(groups=["ab"]), ValueError, "groups"),
    (dict(groups=[[]]), ValueError, "groups"),
    (dict(groups=[["z"]]), ValueError, "excess does not contain"),
    (dict(sizes=[100, 500]), ValueError, "excess"),
    (dict(labels=["a"]), TypeError, "labels"),
    (dict(titles=["a", "b"]), ValueError, "titles"),
    (dict(fontsize=8), ValueError, "fontsize"),
])
def test_plot_excess_risk_rejects_bad_arguments(excess, change, error, message):
    arguments = dict(sizes=[100, 1000], excess=excess, groups=[["a", "b"]])
    arguments.update(change)
    with pytest.raises(error, match=message):
        plot_excess_risk(**arguments)


def test_plot_excess_risk_needs_two_repetitions(excess):
    excess["a"][100] = [0.1]
    with pytest.raises(ValueError, match="at least two values"):
        plot_excess_risk([100, 1000], excess, [["a"]])


# ------------------------------------------------------------------ plot_chosen_prunings
def test_plot_chosen_prunings_draws_each_kept_part(cube_tree):
    path = pk.cost_complexity_path(cube_tree)
    small, large = path.pruning(len(path.alphas) - 2), pk.Pruning.full(cube_tree)
    assert small.n_leaves <= 10 < large.n_leaves
    fig = plot_chosen_prunings([small, large], ["small", "large"])
    _check_size(fig)
    top, bottom = fig.axes
    assert top.get_title() == "small" and bottom.get_title() == "large"
    # the small pruning alone: one labelled box per kept node, no grey nodes
    boxes = [t for t in top.texts if t.get_text()]
    assert len(boxes) == small.n_nodes
    assert len(bottom.texts) == 0 and len(bottom.collections) == cube_tree.n_nodes  # dots


def test_plot_chosen_prunings_keeps_the_labels_of_a_relabelled_pruning(cube_tree):
    labels = 1 - cube_tree.labels
    pruning = pk.Pruning(cube_tree, pk.Pruning.root_only(cube_tree).kept, labels)
    fig = plot_chosen_prunings(pruning)
    (ax,) = fig.axes
    assert ax.texts[0].get_text().startswith(f"→ {cube_tree.classes_[labels[0]]}")


@pytest.mark.parametrize("change, error, message", [
    (dict(prunings="p"), TypeError, "prunings"),
    (dict(prunings=[]), ValueError, "prunings"),
    (dict(prunings=[1]), TypeError, r"prunings\[0\]"),
    (dict(titles=["a", "b"]), ValueError, "titles"),
    (dict(titles=[3]), TypeError, "titles"),
    (dict(width=0), ValueError, "width"),
])
def test_plot_chosen_prunings_rejects_bad_arguments(cube_tree, change, error, message):
    arguments = dict(prunings=[pk.Pruning.root_only(cube_tree)])
    arguments.update(change)
    with pytest.raises(error, match=message):
        plot_chosen_prunings(**arguments)
