"""The chapter 2 figures: a cost-complexity path and the choice of alpha, one step explored.

Every figure is drawn at most 7 inches wide, with no text smaller than 9 points, and bad
arguments get an error that names them.
"""

from __future__ import annotations

import numpy as np
import pytest

import prunekit as pk
from prunekit.datasets import make_boolean_dnf
from figure_checks import smallest_font

from pdtbook.figures import plot_alpha_selection, plot_path_explorer


@pytest.fixture(scope="module")
def selection():
    X, y = make_boolean_dnf(300, n_features=8, noise=0.1, random_state=0)
    return pk.cross_validate_alpha(X, y, cv=5, random_state=0)


def test_plot_alpha_selection_stacks_the_path_above_the_choice(selection):
    path = selection.path
    test = np.linspace(0.3, 0.1, len(path))
    fig = plot_alpha_selection(selection, test, test_label="exact", title="Example")
    ax_risk, ax_err, ax_leaves = fig.axes
    assert fig.get_size_inches()[0] <= 7
    assert ax_risk.get_position().y0 > ax_err.get_position().y1        # stacked vertically
    assert ax_risk.get_title() == "Example: the path"
    assert ax_err.get_xscale() == "symlog" and ax_leaves.get_yscale() == "log"
    # the steps of R(T^k) and of the leaves, with the last step drawn as a segment
    alphas, risks = ax_risk.lines[0].get_data()
    assert np.allclose(alphas[:-1], path.alphas) and np.allclose(risks[:-1], path.risks)
    assert np.allclose(ax_leaves.lines[0].get_ydata()[:-1], path.n_leaves)
    labels = [t.get_text() for t in ax_err.get_legend().get_texts()]
    assert "exact" in labels and "training error" in labels
    assert any(label.startswith(("0-SE", "1-SE")) for label in labels)
    rules = [line for line in ax_err.lines
             if len(set(line.get_xdata())) == 1 and line.get_linestyle() in ("--", "-.")]
    assert sorted({line.get_xdata()[0] for line in rules}) == sorted(
        {path.alphas[selection.best], path.alphas[selection.one_se]})
    assert smallest_font(fig) >= 9


def test_plot_path_explorer_labels_small_trees_only(selection):
    path = selection.path
    small = len(path) - 2                                   # a few leaves: rules and counts
    fig = plot_path_explorer(selection, small, max_labelled_leaves=path.n_leaves[small])
    ax_tree, ax_err = fig.axes
    assert fig.get_size_inches()[0] <= 7
    boxes = [t.get_text() for t in ax_tree.texts]
    assert len(boxes) == 2 * path.n_leaves[small] - 1
    assert sum(text.startswith("→") for text in boxes) == path.n_leaves[small]
    assert f"{path.n_leaves[small]} of {path.tree.n_leaves} leaves" in ax_tree.get_title()
    assert smallest_font(fig) >= 9
    big = plot_path_explorer(selection, 0, max_labelled_leaves=2)
    assert not big.axes[0].texts                            # dots
    assert len(big.axes[0].collections) == 2 * path.n_leaves[0] - 1


@pytest.mark.parametrize("call, error, message", [
    (lambda s: plot_alpha_selection(s.path), TypeError, "selection must be a prunekit"),
    (lambda s: plot_alpha_selection(s, [0.1]), ValueError, "test_error must have one value"),
    (lambda s: plot_alpha_selection(s, title=3), TypeError, "title must be a string"),
    (lambda s: plot_alpha_selection(s, width=8), ValueError, "width must be"),
    (lambda s: plot_path_explorer(s, -1), ValueError, "step must be at least 0"),
    (lambda s: plot_path_explorer(s, len(s.path)), ValueError, "step must be at most"),
    (lambda s: plot_path_explorer(s, 0, fontsize=7), ValueError, "fontsize must be"),
    (lambda s: plot_path_explorer(s, 0, max_labelled_leaves=0), ValueError,
     "max_labelled_leaves must be at least 1"),
])
def test_bad_arguments_are_refused(selection, call, error, message):
    with pytest.raises(error, match=message):
        call(selection)
