"""Figures of the page "Using prunekit with scikit-learn": a pruned tree, exported to
scikit-learn, drawn by scikit-learn's ``plot_tree`` at the book's type size.

Every figure is drawn at most 7 inches wide with no text under 9 points (the book's rule,
``_check_drawing_size``).
"""

from __future__ import annotations

import numpy as np

from pdtbook.figures._style import _check_drawing_size, _figure_docstring

__all__ = ["plot_sklearn_tree"]

#: Space between two boxes side by side, between two levels, and around the drawing (in).
_GAP, _LEVEL_GAP, _MARGIN = 0.12, 0.4, 0.05


@_figure_docstring
def plot_sklearn_tree(estimator, *, feature_names=None, class_names=None, max_depth=None,
                      width: float = 7.0, fontsize: float = 9):
    """Draw a fitted scikit-learn tree with ``sklearn.tree.plot_tree``, its boxes spaced so
    that none overlaps another at the book's type size.

    ``plot_tree`` puts neighbouring nodes one unit apart, whatever their boxes' widths: with
    a font size given, the boxes of a tree of several classes overlap in a figure 7 inches
    wide after a level or two. This draws ``plot_tree``'s own boxes, texts and arrows
    (without the impurity) and moves them: each subtree stands as close to its left
    neighbour as their boxes allow on every level they share, each parent above the middle
    of its children, and the figure is as tall as its levels need (rounded up to a tenth of
    an inch). The levels below ``max_depth`` are ``plot_tree``'s grey "(...)" boxes;
    ``sklearn.tree.export_text`` writes the whole tree.

    Parameters
    ----------
    estimator : fitted DecisionTreeClassifier
        E.g. the pruned tree of a :class:`prunekit.PrunedTreeClassifier`, as
        :func:`prunekit.to_sklearn` gives it.
    feature_names, class_names : sequence of str, optional
        As ``plot_tree`` takes them.
    max_depth : int or None, default None
        The deepest level drawn (the root is level 0); None draws every level.
    {width_fontsize_returns}

    Raises
    ------
    ValueError
        If the levels drawn need more than ``width`` inches at ``fontsize`` points: draw
        fewer of them (``max_depth``).
    """
    import matplotlib.pyplot as plt
    from sklearn.tree import plot_tree

    _check_drawing_size(width, fontsize)
    fig, ax = plt.subplots(figsize=(width, 4.0))
    try:
        _draw(fig, ax, plot_tree(estimator, feature_names=feature_names,
                                 class_names=class_names, max_depth=max_depth,
                                 impurity=False, rounded=True, fontsize=fontsize, ax=ax),
              width, fontsize, max_depth)
    except Exception:
        plt.close(fig)
        raise
    return fig


def _draw(fig, ax, drawn: list, width: float, fontsize: float, max_depth) -> None:
    """Move the boxes, arrows and edge labels ``plot_tree`` drew (``drawn``) apart."""
    boxes = [a for a in drawn if a.get_bbox_patch() is not None]
    edge_labels = [a for a in drawn if a.get_bbox_patch() is None]   # True, False
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    extents = [a.get_bbox_patch().get_window_extent(renderer) for a in boxes]
    sizes = np.array([(e.width, e.height) for e in extents]) / fig.dpi       # inches
    # plot_tree points every node's arrow at its parent's position (the root's at itself)
    own = np.array([a.xyann for a in boxes])
    points_at = np.array([a.xy for a in boxes])
    parent = [None if np.allclose(points_at[i], own[i]) else
              int(np.flatnonzero(np.isclose(own, points_at[i]).all(axis=1))[0])
              for i in range(len(boxes))]
    children = [sorted((j for j, p in enumerate(parent) if p == i), key=lambda j: own[j, 0])
                for i in range(len(boxes))]
    root = parent.index(None)
    depth = np.zeros(len(boxes), dtype=int)
    for i in _preorder(root, children):
        if parent[i] is not None:
            depth[i] = depth[parent[i]] + 1

    offset, contour = _tidy(root, children, sizes[:, 0], depth)
    left = min(edges[0] for edges in contour.values())
    needed = max(edges[1] for edges in contour.values()) - left
    if needed + 2 * _MARGIN > width:
        drawn_to = "every level" if max_depth is None else f"max_depth={max_depth}"
        raise ValueError(
            f"the tree drawn to {drawn_to} needs {needed + 2 * _MARGIN:.1f} inches at "
            f"{fontsize:g} points, more than width={width:g}: draw fewer levels "
            "(max_depth).")
    x = np.array([offset[i] for i in range(len(boxes))]) - left + (width - needed) / 2
    rows = [sizes[depth == d, 1].max() for d in range(depth.max() + 1)]
    tops = _MARGIN + np.concatenate([[0], np.cumsum(np.array(rows[:-1]) + _LEVEL_GAP)])
    # a tenth of an inch more at most, so that a font's slightly different metrics give the
    # same figure
    height = np.ceil((tops[-1] + rows[-1] + _MARGIN) * 10) / 10
    y = tops[depth] + np.array(rows)[depth] / 2
    fig.set_size_inches(width, height)
    ax.set_position([0, 0, 1, 1])
    at = np.column_stack([x / width, 1 - y / height])
    for i, box in enumerate(boxes):
        box.xyann = tuple(at[i])
        box.xy = tuple(at[i if parent[i] is None else parent[i]])
    for label in edge_labels:     # beside the middle of the root's arrow to its child
        child = children[root][0 if label.get_text().strip() == "True" else -1]
        label.xy = label.xyann = tuple((at[root] + at[child]) / 2)


def _preorder(node: int, children: list):
    yield node
    for child in children[node]:
        yield from _preorder(child, children)


def _tidy(node: int, children: list, widths: np.ndarray, depth: np.ndarray):
    """Lay out ``node``'s subtree: each child's subtree as close to its left sibling's as
    their boxes allow on every level they share, the node above the middle of its first
    and last child. Returns the centre of every box of the subtree relative to ``node``'s
    and, for every level, the left and right edges of its boxes (inches)."""
    half = widths[node] / 2
    offset, contour = {}, {}
    shifts = []
    for kid in children[node]:
        below, edges = _tidy(kid, children, widths, depth)
        shift = max((contour[d][1] + _GAP - edges[d][0] for d in edges if d in contour),
                    default=0.0)
        offset.update({n: x + shift for n, x in below.items()})
        for d, (lo, hi) in edges.items():
            lo, hi = lo + shift, hi + shift
            contour[d] = (min(contour[d][0], lo), max(contour[d][1], hi)) if d in contour \
                else (lo, hi)
        shifts.append(shift)
    middle = (shifts[0] + shifts[-1]) / 2 if shifts else 0.0
    offset = {n: x - middle for n, x in offset.items()}
    contour = {d: (lo - middle, hi - middle) for d, (lo, hi) in contour.items()}
    offset[node] = 0.0
    contour[depth[node]] = (-half, half)
    return offset, contour
