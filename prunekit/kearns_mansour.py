"""Kearns & Mansour's bottom-up pruning on the training sample (Chapter 4).

Kearns & Mansour (1998) prune a tree with the *same* sample S it was grown on, in one
bottom-up pass. When every marker of the subtree below a node v has arrived at v, the subtree
T_v* that remains there is replaced by the best leaf if and only if (their rule (1))

    eps_v(T_v*) + alpha(m_v, s_v, l_v, delta) >= eps_v(empty),

where eps_v are local training error rates on the m_v examples reaching v, s_v is the number of
nodes of T_v*, l_v the depth of v, and alpha a penalty from local uniform convergence.
"""

from __future__ import annotations

import numbers
from typing import Callable

import numpy as np

from prunekit._validation import check_probability
from prunekit.reduced_error import leaf_errors, pruning_labels
from prunekit.tree import Pruning, Tree, postorder

__all__ = ["FORMS", "penalty", "kearns_mansour", "kearns_mansour_global"]

FORMS = ("boolean", "finite", "vc")


def _check_c(c) -> float:
    if isinstance(c, bool) or not isinstance(c, numbers.Real):
        raise TypeError(f"c must be a real number, got {type(c).__name__}.")
    if not np.isfinite(c) or c < 0:
        raise ValueError(f"c must be a finite number >= 0, got {c!r}.")
    return float(c)


def penalty(m_v, s_v, l_v, delta: float, m: int, *, c: float = 1.0, form: str = "boolean",
            n_features: int | None = None, log_paths: Callable | None = None,
            log_trees: Callable | None = None, vc_paths: Callable | None = None,
            vc_trees: Callable | None = None, cap: bool = True):
    """The local penalty alpha(m_v, s_v, l_v, delta) of Kearns & Mansour (1998), Sec. 3.

    Parameters
    ----------
    m_v : int or array
        Number of examples reaching the node.
    s_v : int or array
        Number of nodes of the subtree T_v* at the node.
    l_v : int or array
        Depth of the node (the root has depth 0).
    delta : float in (0, 1)
        Confidence parameter.
    m : int
        Size of the whole sample S.
    c : float >= 0, default 1.0
        The constant in front (the paper's c, or c' for form (3)).
    form : {"boolean", "finite", "vc"}, default "boolean"
        ``"boolean"``, eq. (3): single-variable tests on {0,1}^n,
        c sqrt(((l_v + s_v) log n + log(m / delta)) / m_v), with n = ``n_features``.
        ``"finite"``, eq. (2): a finite test class,
        c sqrt((log|PATHS(l_v)| + log|TREES(s_v)| + log(m / delta)) / m_v), with the two
        logarithms given by ``log_paths(l)`` and ``log_trees(s)``.
        ``"vc"``, eq. (4): c sqrt(((d_l + d_s) log(2m) + log(m / delta)) / m_v), with the VC
        dimensions d_l = ``vc_paths(l)`` of PATHS(l) and d_s = ``vc_trees(s)`` of TREES(s).
    cap : bool, default True
        Cap the penalty at 1, as the paper allows (a larger penalty prunes the same); a node
        no example reaches (m_v = 0) then gets penalty 1.

    Returns
    -------
    float or ndarray
    """
    delta = check_probability(delta, "delta")
    c = _check_c(c)
    if form not in FORMS:
        raise ValueError(f"form must be one of {FORMS}, got {form!r}.")
    m_v, s_v, l_v = (np.asarray(v, dtype=float) for v in (m_v, s_v, l_v))
    if form == "boolean":
        if n_features is None or n_features < 1:
            raise ValueError("form='boolean' needs n_features, the number n of boolean tests.")
        complexity = (l_v + s_v) * np.log(n_features)
    elif form == "finite":
        if log_paths is None or log_trees is None:
            raise ValueError("form='finite' needs log_paths(l) and log_trees(s).")
        complexity = np.vectorize(log_paths, otypes=[float])(l_v) + np.vectorize(log_trees, otypes=[float])(s_v)
    else:
        if vc_paths is None or vc_trees is None:
            raise ValueError("form='vc' needs vc_paths(l) and vc_trees(s).")
        complexity = (np.vectorize(vc_paths, otypes=[float])(l_v)
                      + np.vectorize(vc_trees, otypes=[float])(s_v)) * np.log(2 * m)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = c * np.sqrt((complexity + np.log(m / delta)) / m_v)
    value = np.where(m_v > 0, value, np.inf if c > 0 else 0.0)
    if cap:
        value = np.minimum(value, 1.0)
    return float(value) if value.ndim == 0 else value


def _sample_counts(tree: Tree, X, y) -> np.ndarray:
    if not isinstance(tree, Tree):
        raise TypeError(f"tree must be a prunekit Tree, got {type(tree).__name__}.")
    if X is None and y is None:
        return tree.counts
    if X is None or y is None:
        raise ValueError("give both X and y, or neither (then the growing counts are used).")
    return tree.node_counts(X, y)


def kearns_mansour(tree: Tree, delta: float = 0.05, c: float = 1.0, *, form: str = "boolean",
                   X=None, y=None, cap: bool = True, **penalty_args) -> Pruning:
    """Kearns & Mansour's single bottom-up pass with the local rule (1).

    Parameters
    ----------
    tree : Tree
    delta : float in (0, 1), default 0.05
    c : float >= 0, default 1.0
        With c = 0 the rule prunes whenever the best leaf is at least as accurate as T_v*:
        exactly reduced-error pruning run on the same sample.
    form : {"boolean", "finite", "vc"}, default "boolean"
        The penalty's form, eq. (3), (2) or (4); see :func:`penalty`. For ``"boolean"`` the
        number of tests n defaults to the tree's number of features.
    X, y : array-like, optional
        The sample S; by default the growing sample, through the tree's counts. With another
        sample, the "best leaf" at each node is that sample's majority class there.
    cap : bool, default True
        Cap the penalty at 1.
    **penalty_args
        ``log_paths``/``log_trees`` (form "finite") or ``vc_paths``/``vc_trees`` (form "vc").

    Returns
    -------
    Pruning
    """
    counts = _sample_counts(tree, X, y)
    labels = tree.labels if X is None else pruning_labels(tree, counts, "pruning")
    if form == "boolean" and penalty_args.get("n_features") is None:
        if tree.n_features is None:
            raise ValueError("form='boolean' needs n_features, the number n of boolean tests; "
                             "this tree has no features (built from counts only): pass n_features.")
        penalty_args["n_features"] = tree.n_features
    m = int(counts[0].sum())
    if m == 0:
        raise ValueError("the sample is empty: no example reaches the root.")
    reached = counts.sum(axis=1)
    as_leaf = leaf_errors(counts, labels)
    errors = as_leaf.astype(np.int64).copy()        # errors of T_v* on S_v, once v is done
    size = np.ones(tree.n_nodes, dtype=np.int64)    # nodes of T_v*
    collapse = tree.is_leaf.copy()
    for level in reversed(tree.levels[:-1]):
        inner = level[~tree.is_leaf[level]]
        below = errors[tree.left[inner]] + errors[tree.right[inner]]
        s_v = 1 + size[tree.left[inner]] + size[tree.right[inner]]
        alpha = penalty(reached[inner], s_v, tree.depth[inner], delta, m, c=c, form=form,
                        cap=cap, **penalty_args)
        # rule (1) in counts: errors(T_v*) + alpha m_v >= errors(best leaf)
        prune = below + alpha * reached[inner] >= as_leaf[inner]
        collapse[inner] = prune
        errors[inner] = np.where(prune, as_leaf[inner], below)
        size[inner] = np.where(prune, 1, s_v)
    return Pruning.from_collapsed(tree, collapse, labels=labels)


def kearns_mansour_global(tree: Tree, delta: float = 0.05, c: float = 1.0, *, X=None, y=None,
                          n_features: int | None = None) -> Pruning:
    """The "global" bottom-up rule that Kearns & Mansour (1998, Sec. 3) contrast with theirs.

    Visit the nodes bottom-up (children first, left subtree before right); at v, prune T_v*
    when the penalised error of the whole current tree T* does not get worse:

        eps(T* - T_v*) + beta(|T* - T_v*|) <= eps(T*) + beta(|T*|),

    with the global penalty beta(s) = c sqrt((s log n + log(m / delta)) / m), the form (3) of
    the local penalty for the root (depth 0, all m examples). The difference in penalty between
    T* and T* - T_v* shrinks as T* grows, so a large subtree can survive inside a large tree
    even when it would be pruned on its own.

    Parameters
    ----------
    tree : Tree
    delta : float in (0, 1), default 0.05
    c : float >= 0, default 1.0
    X, y : array-like, optional
        The sample; by default the growing sample.
    n_features : int, optional
        The number n of boolean tests; default the tree's number of features.

    Returns
    -------
    Pruning
    """
    delta = check_probability(delta, "delta")
    c = _check_c(c)
    counts = _sample_counts(tree, X, y)
    m = int(counts[0].sum())
    if m == 0:
        raise ValueError("the sample is empty: no example reaches the root.")
    n = n_features or tree.n_features
    if n is None:
        raise ValueError("the global penalty needs n_features, the number n of boolean tests; "
                         "this tree has no features (built from counts only): pass n_features.")

    def beta(size):
        return c * np.sqrt((size * np.log(n) + np.log(m / delta)) / m)

    labels = tree.labels if X is None else pruning_labels(tree, counts, "pruning")
    as_leaf = leaf_errors(counts, labels).tolist()
    errors, size = list(as_leaf), [1] * tree.n_nodes
    total_errors, total_size = sum(as_leaf[v] for v in np.flatnonzero(tree.is_leaf)), tree.n_nodes
    collapse = tree.is_leaf.copy()
    left, right = tree.left.tolist(), tree.right.tolist()
    for v in postorder(tree):
        if left[v] == -1:
            continue
        sub_errors = errors[left[v]] + errors[right[v]]
        sub_size = 1 + size[left[v]] + size[right[v]]
        pruned_errors = total_errors - sub_errors + as_leaf[v]
        pruned_size = total_size - sub_size + 1
        if pruned_errors / m + beta(pruned_size) <= total_errors / m + beta(total_size):
            collapse[v] = True
            errors[v], size[v] = as_leaf[v], 1
            total_errors, total_size = pruned_errors, pruned_size
        else:
            errors[v], size[v] = sub_errors, sub_size
    return Pruning.from_collapsed(tree, collapse, labels=labels)
