"""The one place prunekit writes scikit-learn's private tree structure.

A fitted ``sklearn.tree.DecisionTreeClassifier`` keeps its tree in ``tree_``, an object of
the compiled class ``sklearn.tree._tree.Tree``. scikit-learn builds it only while fitting;
the one public way in is the pickle protocol: ``Tree(n_features, n_classes, n_outputs)``
followed by ``__setstate__`` with the node table (a structured array of dtype
``sklearn.tree._tree.NODE_DTYPE``) and the values. This module fills that state from a
prunekit tree, and checks first that the installed scikit-learn has the node fields it
writes (:data:`NODE_FIELDS`; ``tests/test_export.py`` checks it against the pinned version).
"""

from __future__ import annotations

import numpy as np

#: The node fields written, in scikit-learn's order (1.3 to 1.9 at least).
NODE_FIELDS = ("left_child", "right_child", "feature", "threshold", "impurity",
               "n_node_samples", "weighted_n_node_samples", "missing_go_to_left")


def compiled_tree(*, left, right, feature, threshold, impurity, n_samples, weighted_n_samples,
                  missing_go_to_left, value, n_features: int, max_depth: int):
    """A ``sklearn.tree._tree.Tree`` with the given nodes (one output).

    Parameters
    ----------
    left, right, feature : ndarray of int, shape (n_nodes,)
        Children and split feature, -1 at leaves (scikit-learn's ``TREE_LEAF`` and
        ``TREE_UNDEFINED`` are -1 and -2: leaves get -2 as scikit-learn writes them).
    threshold, impurity : ndarray of float, shape (n_nodes,)
    n_samples : ndarray of int, shape (n_nodes,)
        Examples reaching every node.
    weighted_n_samples : ndarray of float, shape (n_nodes,)
        Their total weight (``n_samples`` when the examples have weight 1).
    missing_go_to_left : ndarray of bool, shape (n_nodes,)
    value : ndarray of float, shape (n_nodes, n_classes)
        What every node predicts: class probabilities (scikit-learn >= 1.4 stores fractions).
    n_features, max_depth : int

    Returns
    -------
    sklearn.tree._tree.Tree
    """
    from sklearn.tree._tree import NODE_DTYPE, Tree as SklearnTree

    found = tuple(NODE_DTYPE.names)
    if found != NODE_FIELDS:
        import sklearn

        raise RuntimeError(
            f"scikit-learn {sklearn.__version__} stores a tree's nodes with the fields "
            f"{found}, not {NODE_FIELDS}: this prunekit cannot write its trees; install a "
            "scikit-learn that prunekit's requirements allow.")
    n_nodes, n_classes = value.shape
    leaf = left == -1
    nodes = np.zeros(n_nodes, dtype=NODE_DTYPE)
    nodes["left_child"] = left
    nodes["right_child"] = right
    nodes["feature"] = np.where(leaf, -2, feature)
    nodes["threshold"] = np.where(leaf, -2.0, threshold)
    nodes["impurity"] = impurity
    nodes["n_node_samples"] = n_samples
    nodes["weighted_n_node_samples"] = weighted_n_samples
    nodes["missing_go_to_left"] = missing_go_to_left
    compiled = SklearnTree(n_features, np.array([n_classes], dtype=np.intp), 1)
    compiled.__setstate__({
        "max_depth": int(max_depth), "node_count": n_nodes, "nodes": nodes,
        "values": np.ascontiguousarray(value, dtype=np.float64).reshape(n_nodes, 1, n_classes),
    })
    return compiled
