"""Hypothesis strategies for random trees, shared by the property tests."""

import numpy as np
from hypothesis import strategies as st

from prunekit import Tree


@st.composite
def random_trees(draw, max_leaves=8, max_classes=3, max_count=6, n_features=3):
    """A random binary tree with random leaf counts and split rules.

    The shape is grown by splitting a randomly chosen leaf; leaf counts are random (every leaf
    holds at least one growing example, as in a tree grown on a sample); internal counts are
    the sums of their children's.
    """
    n_leaves = draw(st.integers(1, max_leaves))
    n_classes = draw(st.integers(2, max_classes))
    left, right = [-1], [-1]
    for _ in range(n_leaves - 1):
        leaves = [v for v in range(len(left)) if left[v] == -1]
        v = draw(st.sampled_from(leaves))
        left[v], right[v] = len(left), len(left) + 1
        left += [-1, -1]
        right += [-1, -1]
    n = len(left)
    counts = np.zeros((n, n_classes), dtype=int)
    for v in range(n - 1, -1, -1):  # children have larger indices than parents
        if left[v] == -1:
            counts[v] = draw(st.lists(st.integers(0, max_count), min_size=n_classes,
                                      max_size=n_classes).filter(lambda c: sum(c) > 0))
        else:
            counts[v] = counts[left[v]] + counts[right[v]]
    feature = [draw(st.integers(0, n_features - 1)) if left[v] != -1 else -1 for v in range(n)]
    threshold = [draw(st.floats(-1, 1, allow_nan=False)) if left[v] != -1 else np.nan
                 for v in range(n)]
    return Tree.from_arrays(left, right, counts, feature, threshold, n_features=n_features)
