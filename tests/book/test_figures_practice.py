"""The figure of the page "Using prunekit with scikit-learn": scikit-learn's ``plot_tree``
boxes for a pruned tree exported to scikit-learn, moved apart so that none overlaps another at
9 points in 7 inches, every arrow still joining a node to its parent.
"""

from __future__ import annotations

import itertools

import matplotlib.pyplot as plt
import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier, plot_tree

import prunekit as pk
from figure_checks import fits_the_column

from pdtbook.figures import plot_sklearn_tree

X, y = make_classification(600, 6, n_informative=4, n_classes=3, n_clusters_per_class=1,
                           random_state=0)
NAMES = [f"x{j}" for j in range(6)]
CLASSES = ["text", "graphic", "picture"]


@pytest.fixture(scope="module")
def exported():
    clf = pk.PrunedTreeClassifier(pruner=pk.CostComplexityPruner(alpha=0.01),
                                  random_state=0).fit(X, y)
    return clf.to_sklearn()


def _boxes(fig):
    (ax,) = fig.axes
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    annotations = [t for t in ax.texts if hasattr(t, "get_bbox_patch")]
    boxed = [a for a in annotations if a.get_bbox_patch() is not None]
    return boxed, [a.get_bbox_patch().get_window_extent(renderer) for a in boxed]


def _overlapping(extents) -> int:
    return sum(a.overlaps(b) for a, b in itertools.combinations(extents, 2))


def test_plot_tree_alone_overlaps_at_the_book_s_type_size(exported):
    """The reason for the helper: scikit-learn's own layout of the same levels overlaps."""
    fig, ax = plt.subplots(figsize=(7, 4))
    plot_tree(exported, feature_names=NAMES, class_names=CLASSES, max_depth=2,
              impurity=False, fontsize=9, ax=ax)
    fig.canvas.draw()
    extents = [a.get_bbox_patch().get_window_extent(fig.canvas.get_renderer())
               for a in ax.texts if getattr(a, "get_bbox_patch", lambda: None)() is not None]
    assert _overlapping(extents) > 0
    plt.close(fig)


def test_no_box_overlaps_and_the_figure_fits_the_column(exported):
    fig = plot_sklearn_tree(exported, feature_names=NAMES, class_names=CLASSES, max_depth=2)
    boxes, extents = _boxes(fig)
    assert len(boxes) > 7                                 # three levels and the "(...)" boxes
    assert _overlapping(extents) == 0
    assert all(fig.bbox.x0 <= e.x0 and e.x1 <= fig.bbox.x1 and fig.bbox.y0 <= e.y0
               and e.y1 <= fig.bbox.y1 for e in extents)
    assert fits_the_column(fig) and fig.get_size_inches()[0] == 7
    plt.close(fig)


def test_every_arrow_joins_a_node_to_its_parent_above_it(exported):
    fig = plot_sklearn_tree(exported, feature_names=NAMES, class_names=CLASSES, max_depth=2)
    boxes, _ = _boxes(fig)
    at = {tuple(np.round(b.xyann, 9)): b for b in boxes}
    roots = [b for b in boxes if np.allclose(b.xy, b.xyann)]
    assert len(roots) == 1 and "samples = 600" in roots[0].get_text()
    for box in boxes:
        if box is roots[0]:
            continue
        parent = at[tuple(np.round(box.xy, 9))]            # the arrow ends at a box
        assert parent.xyann[1] > box.xyann[1]              # above it
    texts = {t.get_text().strip(): t for t in fig.axes[0].texts if t not in boxes}
    assert texts["True"].xyann[0] < roots[0].xyann[0] < texts["False"].xyann[0]
    plt.close(fig)


def test_the_boxes_are_scikit_learn_s(exported):
    fig = plot_sklearn_tree(exported, feature_names=NAMES, class_names=CLASSES, max_depth=1)
    boxes, _ = _boxes(fig)
    root = boxes[0].get_text()
    assert root.startswith(NAMES[exported.tree_.feature[0]]) and "gini" not in root
    assert sum("(...)" in b.get_text() for b in boxes) == 4
    plt.close(fig)


def test_too_many_levels_for_the_width_is_refused_and_leaves_no_figure(exported):
    before = plt.get_fignums()
    with pytest.raises(ValueError, match="max_depth=4"):
        plot_sklearn_tree(exported, feature_names=NAMES, class_names=CLASSES, max_depth=4)
    assert plt.get_fignums() == before


def test_a_single_leaf_and_larger_type():
    stump = DecisionTreeClassifier(max_depth=1).fit(X[:20], np.zeros(20, dtype=int))
    fig = plot_sklearn_tree(stump, width=4, fontsize=11)
    boxes, _ = _boxes(fig)
    assert len(boxes) == 1 and fig.get_size_inches()[0] == 4
    assert min(t.get_fontsize() for t in fig.axes[0].texts) >= 11
    plt.close(fig)
