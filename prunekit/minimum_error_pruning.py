"""Minimum-error pruning (MEP): Niblett & Bratko (1986), with Cestnik & Bratko's m-estimate.

Chapter 8 of the book. Every node t gets a *static* error, the expected error rate of t as a
leaf, and a *dynamic* error, that of the best pruning below it; from the leaves up, t becomes a
leaf when the static error is not larger (:func:`minimum_error`). Niblett & Bratko (1986)
estimate the error of a leaf by Laplace's rule, (N - n_y + k - 1) / (N + k) for k classes;
Cestnik & Bratko (1991) by the m-estimate (N - n_y + m (1 - pi_y)) / (N + m) with prior
class probabilities pi (:func:`m_estimate_error`). Esposito, Malerba & Semeraro (1997)
compare MEP with the other classic methods (:mod:`prunekit.pessimistic_pruning`,
:mod:`prunekit.critical_value_pruning`, :mod:`prunekit.error_based_pruning`).
:class:`MinimumErrorPruner` is the method for :class:`~prunekit.PrunedTreeClassifier`.
"""

from __future__ import annotations

import numbers
from typing import NamedTuple

import numpy as np

from prunekit._parameters import check_parameters, checked_where_used
from prunekit.impurity import class_proportions
from prunekit.pruner import Pruner
from prunekit.tree import Pruning, Tree, check_tree

__all__ = ["MinimumErrorEstimates", "m_estimate_error", "minimum_error_estimates",
           "minimum_error", "MinimumErrorPruner"]

# Ties between a node's static and dynamic error go to the leaf; estimates that differ by less
# than this fraction are treated as tied, since both sides are sums of rounded fractions.
_MEP_TIE = 1e-12


def _check_m(m, name: str = "m"):
    if m is None:
        return None
    if isinstance(m, bool) or not isinstance(m, numbers.Real):
        hint = (" (minimum-error pruning takes no pruning sample; it estimates errors from the "
                "growing counts)" if hasattr(m, "__len__") else "")
        raise TypeError(f"{name} must be a real number >= 0 or None, got "
                        f"{type(m).__name__}{hint}.")
    m = float(m)
    if not np.isfinite(m) or m < 0:
        raise ValueError(f"{name} must be a finite number >= 0 (or None for Laplace), got "
                         f"{m!r}.")
    return m


def _check_prior(prior, n_classes: int) -> np.ndarray:
    try:
        p = np.asarray(prior, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(
            f"prior must be an array of {n_classes} class probabilities, got "
            f"{type(prior).__name__}."
        ) from None
    if p.shape != (n_classes,):
        raise ValueError(
            f"prior must hold one probability per class ({n_classes}), got shape {p.shape}."
        )
    if not np.all(np.isfinite(p)) or np.any(p < 0) or not np.isclose(p.sum(), 1.0, atol=1e-9):
        raise ValueError(
            f"prior must be a probability vector (non-negative, summing to 1), got {p.tolist()}."
        )
    return p


def _m_and_prior(m, prior, n_classes: int, default_prior=None):
    """Resolve (m, prior): None gives Niblett & Bratko's Laplace case m = k, uniform prior."""
    m = _check_m(m)
    if m is None:
        if prior is not None:
            raise ValueError(
                "prior is used only with the m-estimate: the Laplace estimate (m=None) has the "
                "uniform prior. Give m as well, e.g. m=2."
            )
        return float(n_classes), np.full(n_classes, 1.0 / n_classes)
    if prior is None:
        if default_prior is None:
            raise ValueError("prior is required with m: the m-estimate needs prior probabilities.")
        return m, default_prior
    return m, _check_prior(prior, n_classes)


#: The checks of the parameters of :func:`minimum_error`, which :class:`MinimumErrorPruner`
#: shares; the prior is checked against the tree's classes when the tree is known.
_MEP_PARAMETERS = {"m": _check_m, "prior": checked_where_used}


def _estimated_errors(tree: Tree, m: float, prior: np.ndarray) -> np.ndarray:
    """N(t) E(t): the m-estimated error rate of every node times its number of examples."""
    n = tree.counts.sum(axis=1).astype(float)
    wrong = tree.leaf_errors() + m * (1.0 - prior[tree.labels])
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(n > 0, n * wrong / (n + m), 0.0)


def m_estimate_error(counts, m=None, prior=None, label=None):
    """Expected error rate of a leaf by the Laplace estimate or the m-estimate.

    For a leaf with N examples, n_c of them of class c, that predicts class y:

    * ``m=None``: Niblett & Bratko's (1986) Laplace estimate with k classes,
      E = (N - n_y + k - 1) / (N + k);
    * ``m >= 0``: Cestnik & Bratko's (1991) m-estimate of the class probability,
      p_y = (n_y + m pi_y) / (N + m), and E = 1 - p_y = (N - n_y + m (1 - pi_y)) / (N + m),
      with prior probabilities pi. With m = k and the uniform prior it is the Laplace estimate;
      with m = 0 it is the training error rate.

    Parameters
    ----------
    counts : array-like of shape (k,) or (n_nodes, k)
        Class counts of one node, or one row per node.
    m : float >= 0 or None, default None
    prior : array-like of shape (k,), optional
        The prior pi; required with ``m`` (:func:`minimum_error` defaults it to the class
        frequencies at the root, which a single node's counts do not know).
    label : int or array of int, optional
        Class index the leaf predicts; default the majority class (ties to the smallest
        index). For the Laplace estimate and for a uniform prior this class also maximises
        p_y, so E is Cestnik & Bratko's 1 - max_c p_c.

    Returns
    -------
    float or ndarray
        The estimated error rate; ``nan`` for an empty node with m = 0.

    Examples
    --------
    A leaf with 8 examples of its class and 2 of another: the Laplace estimate
    (10 - 8 + 1) / (10 + 2), and the m-estimate with m = 0, the training error rate:

    >>> m_estimate_error([8, 2])
    0.25
    >>> m_estimate_error([8, 2], m=0, prior=[0.5, 0.5])
    0.2
    """
    counts = np.asarray(counts)
    single = counts.ndim == 1
    counts2 = np.atleast_2d(counts)
    if counts2.ndim != 2 or counts2.shape[1] < 1:
        raise ValueError(f"counts must have shape (k,) or (n_nodes, k), got {counts.shape}.")
    if counts2.dtype.kind not in "iuf" or np.any(~np.isfinite(counts2)) or np.any(counts2 < 0):
        raise ValueError("counts must be non-negative finite class counts.")
    k = counts2.shape[1]
    m, prior = _m_and_prior(m, prior, k)
    if label is None:
        labels = np.argmax(counts2, axis=1)
    else:
        labels = np.broadcast_to(np.asarray(label), (len(counts2),))
        if labels.dtype.kind not in "iu" or labels.min() < 0 or labels.max() >= k:
            raise ValueError(f"label must be a class index in [0, {k}), got {label!r}.")
    n = counts2.sum(axis=1).astype(float)
    wrong = n - counts2[np.arange(len(counts2)), labels] + m * (1.0 - prior[labels])
    with np.errstate(divide="ignore", invalid="ignore"):
        error = wrong / (n + m)
    return float(error[0]) if single else error


class MinimumErrorEstimates(NamedTuple):
    """The numbers of minimum-error pruning at every node (see :func:`minimum_error`).

    Attributes
    ----------
    static : ndarray of shape (n_nodes,)
        E(t), the estimated error rate of t as a leaf.
    dynamic : ndarray of shape (n_nodes,)
        The backed-up error rate of the best pruning below t that keeps t's split:
        sum over the children c of N(c)/N(t) min(static(c), dynamic(c)); ``nan`` at leaves and
        at nodes no training example reaches.
    prune : ndarray of bool, shape (n_nodes,)
        static <= dynamic at the internal nodes: the bottom-up pass makes t a leaf.
    m : float
        The m used (k, the number of classes, for the Laplace estimate).
    prior : ndarray of shape (n_classes,)
        The prior used (uniform for the Laplace estimate).
    """

    static: np.ndarray
    dynamic: np.ndarray
    prune: np.ndarray
    m: float
    prior: np.ndarray


def _root_frequencies(tree: Tree) -> np.ndarray:
    """The class proportions of the growing sample (uniform when it is empty)."""
    if tree.n_samples == 0:
        return np.full(tree.n_classes, 1.0 / tree.n_classes)
    return class_proportions(tree.counts[0])


def minimum_error_estimates(tree: Tree, m=None, prior=None) -> MinimumErrorEstimates:
    """Static and dynamic error estimates of minimum-error pruning at every node.

    Parameters are those of :func:`minimum_error`.

    Returns
    -------
    MinimumErrorEstimates

    Examples
    --------
    The static and dynamic errors at the root:

    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> estimates = minimum_error_estimates(pk.grow_tree(X, y), m=10)
    >>> print(f"{estimates.static[0]:.4f} {estimates.dynamic[0]:.4f}")
    0.3726 0.0544
    """
    check_tree(tree)
    m, prior = _m_and_prior(m, prior, tree.n_classes, _root_frequencies(tree))
    as_leaf = _estimated_errors(tree, m, prior)
    best, below, collapse = _backed_up(tree, as_leaf)
    n = tree.counts.sum(axis=1).astype(float)
    static = m_estimate_error(tree.counts, m, prior, tree.labels)
    with np.errstate(divide="ignore", invalid="ignore"):
        dynamic = np.where(~tree.is_leaf & (n > 0), below / n, np.nan)
    return MinimumErrorEstimates(static, dynamic, collapse & ~tree.is_leaf, m, prior)


def _backed_up(tree: Tree, as_leaf: np.ndarray):
    """Bottom-up pass: best[t] = min(as_leaf[t], below[t]), below[t] = best[left] + best[right]."""
    best = as_leaf.copy()
    below = np.full(tree.n_nodes, np.nan)
    collapse = tree.is_leaf.copy()
    for inner in tree.inner_levels:
        split = best[tree.left[inner]] + best[tree.right[inner]]
        leaf = as_leaf[inner]
        prune = leaf <= split + _MEP_TIE * np.maximum(split, 1.0)
        below[inner] = split
        collapse[inner] = prune
        best[inner] = np.where(prune, leaf, split)
    return best, below, collapse


def minimum_error(tree: Tree, m=None, prior=None) -> Pruning:
    """Minimum-error pruning (MEP): Niblett & Bratko (1986), with Cestnik & Bratko's m-estimate.

    Every node t gets a *static* error, the expected error rate E(t) of t as a leaf (see
    :func:`m_estimate_error`), and a *dynamic* (backed-up) error, the rate of the best pruning
    below it, weighted by the children's shares of t's N(t) training examples:

        E(t) = (N(t) - n_y(t) + m (1 - pi_y)) / (N(t) + m),
        D(t) = sum over the children c of N(c)/N(t) min(E(c), D(c)).

    From the leaves up, t becomes a leaf when E(t) <= D(t) (ties prune). With ``m=None`` the
    estimate is Niblett & Bratko's (1986) Laplace rate (N - n_y + k - 1)/(N + k) for k classes
    (m = k, uniform prior); with ``m`` given it is Cestnik & Bratko's (1991) m-estimate.

    Because N(t) D(t) is a sum over the leaves below, the pass minimises sum_leaves N(s) E(s)
    exactly over all prunings of the tree and returns the smallest minimiser.

    Parameters
    ----------
    tree : Tree
        The grown tree; only its growing counts and labels are used (MEP takes no pruning
        sample).
    m : float >= 0 or None, default None
        ``None`` for the Laplace estimate; otherwise the weight of the prior, in examples.
        m = 0 is pruning on the plain training error; a large m pulls every estimate towards
        the prior and prunes more.
    prior : array-like of shape (n_classes,), optional
        Prior class probabilities pi of the m-estimate; default the class frequencies of the
        growing sample at the root, as Cestnik & Bratko (1991) use. Only with ``m``.

    Returns
    -------
    Pruning
        Leaves keep the tree's labels (majority of the growing counts). Where a non-uniform
        prior with a large m would make another class more probable than the majority at a
        node, E(t) is still the estimated error of the label the leaf predicts.

    Notes
    -----
    One bottom-up pass over the levels, O(n_nodes * n_classes). Static and dynamic errors are
    compared as counts N(t) E(t) and N(t) D(t), so nodes that no training example reaches
    weigh nothing (and are pruned); values that agree to within a relative 1e-12 are treated
    as tied.

    Examples
    --------
    A larger m prunes more:

    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> tree = pk.grow_tree(X, y)
    >>> [pk.minimum_error(tree, m=m).n_leaves for m in (None, 10, 100)]
    [18, 13, 9]
    """
    check_tree(tree)
    m, prior = check_parameters(_MEP_PARAMETERS, m=m, prior=prior)
    m, prior = _m_and_prior(m, prior, tree.n_classes, _root_frequencies(tree))
    _, _, collapse = _backed_up(tree, _estimated_errors(tree, m, prior))
    return Pruning.from_collapsed(tree, collapse)


# ---------------------------------------------------------------------------------------------
# The pruner of PrunedTreeClassifier

class MinimumErrorPruner(Pruner):
    """Minimum-error pruning (see :func:`prunekit.minimum_error`).

    Parameters
    ----------
    m : float >= 0 or None, default None
        ``None``: Niblett & Bratko's (1986) Laplace estimate; otherwise Cestnik & Bratko's
        (1991) m-estimate with this m.
    prior : array-like of shape (n_classes,) or None, default None
        Prior class probabilities of the m-estimate (default: the class frequencies of the
        growing sample). Only with ``m``.

    Examples
    --------
    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> pruner = pk.MinimumErrorPruner(m=10)
    >>> clf = pk.PrunedTreeClassifier(pruner=pruner, random_state=0)
    >>> clf = clf.fit(X, y)
    >>> clf.tree_.n_leaves, clf.get_n_leaves()
    (22, 13)
    """

    _function = staticmethod(minimum_error)
    _parameter_checks = _MEP_PARAMETERS
    _array_parameters = ("prior",)

    def __init__(self, *, m=None, prior=None):
        self.m = m
        self.prior = prior

    def prune(self, tree: Tree, X_prune=None, y_prune=None, sample_weight=None) -> Pruning:
        """Prune ``tree`` from its growing counts (weighted, for a tree grown with weights:
        N and n_c are then sums of weights); the sample is not needed."""
        self._check_parameters()
        return minimum_error(tree, m=self.m, prior=self.prior)
