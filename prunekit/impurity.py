"""Impurity measures of class distributions: the one implementation the library uses.

Shalev-Shwartz & Ben-David (2014), Sec. 18.2.1, score a split with a function C of the class
proportions p = (p_1, ..., p_K) of a node: the training error of a majority vote, the entropy
and the Gini index. The growers use them in natural logarithms (:mod:`prunekit.growing`); the
cost-complexity path and critical-value pruning use the impurities of the tree's grower, in
bits as scikit-learn computes them, from class counts (:func:`counts_impurity`).

A grower's impurity is its ``criterion``, named as scikit-learn names it: ``"gini"``,
``"entropy"`` and its synonym ``"log_loss"`` (prunekit's growers also take the book's
``"train_error"``). The former name of the entropy, ``"information"``, still works until 0.4,
with a ``DeprecationWarning``.
"""

from __future__ import annotations

import numpy as np

from prunekit._deprecation import renamed_parameter, warn_renamed_value
from prunekit.validation import as_array, check_choice

__all__ = ["train_error_impurity", "entropy", "gini", "unchecked", "class_proportions",
           "GROWER_CRITERIA", "counts_impurity"]

#: The impurities :func:`counts_impurity` computes, by the name of the grower's criterion
#: (scikit-learn's "gini", "entropy" and its synonym "log_loss").
GROWER_CRITERIA = {"gini": "gini", "entropy": "entropy", "log_loss": "entropy"}

# The former names of criteria: they work, with a DeprecationWarning, until 0.4.
_RENAMED_CRITERIA = {"information": "entropy"}


def _renamed_criterion(criterion, name: str = "criterion"):
    """``criterion`` itself, or the new name of a former one (``"information"`` is now
    ``"entropy"``), with a ``DeprecationWarning`` that names the caller's line.

    Parameters
    ----------
    criterion : object
        A grower's criterion, as given (anything: it is checked afterwards).
    name : str
        The argument's name, for the warning.
    """
    if isinstance(criterion, str) and criterion in _RENAMED_CRITERIA:
        return warn_renamed_value(name, criterion, _RENAMED_CRITERIA[criterion])
    return criterion


# ---------------------------------------------------------------------- the measures
def _train_error(p: np.ndarray) -> np.ndarray:
    """1 - max_k p_k along the last axis (proportions not checked)."""
    return 1.0 - np.max(p, axis=-1)


def _entropy(p: np.ndarray, log=np.log) -> np.ndarray:
    """-sum_k p_k log p_k along the last axis, with 0 log 0 = 0 (proportions not checked).

    ``log`` is the logarithm: ``numpy.log`` (nats) or ``numpy.log2`` (bits).
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, -p * log(p), 0.0)
    return terms.sum(axis=-1)


def _gini(p: np.ndarray) -> np.ndarray:
    """1 - sum_k p_k^2 along the last axis (proportions not checked)."""
    return 1.0 - np.sum(p * p, axis=-1)


def _check_proportions(p) -> np.ndarray:
    """Class proportions along the last axis: numbers in [0, 1] adding up to 1 (or all 0, the
    proportions of an empty side of a split)."""
    if isinstance(p, (bool, np.bool_)) or np.ndim(p) == 0:
        raise TypeError(f"p must be an array of class proportions of shape (..., K), got "
                        f"{type(p).__name__} {p!r}.")
    p = as_array(p, "p", ndim=np.ndim(p), dtype=np.float64, min_length=0,
                 what="(..., K)")
    if p.size and (p.min() < 0 or p.max() > 1):
        raise ValueError("p must hold proportions in [0, 1].")
    total = p.sum(axis=-1)
    if not np.all((np.abs(total - 1) <= 1e-6) | (total == 0)):
        raise ValueError("p must hold class proportions that add up to 1 along the last axis "
                         "(or all 0, for an empty sample).")
    return p


def train_error_impurity(p: np.ndarray) -> np.ndarray:
    """Training error of a majority vote, C(a) = min(a, 1 - a) (Sec. 18.2.1).

    Parameters
    ----------
    p : ndarray of shape (..., K)
        Class proportions along the last axis. For K = 2 and p = (1 - a, a) this is
        min(a, 1 - a); for any K it is 1 - max_k p_k.

    Examples
    --------
    >>> from prunekit.impurity import train_error_impurity
    >>> train_error_impurity([[0.5, 0.5], [0.9, 0.1]]).round(2).tolist()
    [0.5, 0.1]
    """
    return _train_error(_check_proportions(p))


def entropy(p: np.ndarray) -> np.ndarray:
    """Entropy, C(a) = -a log a - (1 - a) log(1 - a) (Sec. 18.2.1), natural logarithm.

    For K classes, -sum_k p_k log p_k, with 0 log 0 = 0.

    Parameters
    ----------
    p : ndarray of shape (..., K)
        Class proportions along the last axis.

    Examples
    --------
    >>> from prunekit.impurity import entropy
    >>> entropy([[0.5, 0.5], [1.0, 0.0]]).round(4).tolist()     # in nats
    [0.6931, 0.0]
    """
    return _entropy(_check_proportions(p))


def gini(p: np.ndarray) -> np.ndarray:
    """Gini index, C(a) = 2a(1 - a) (Sec. 18.2.1); for K classes 1 - sum_k p_k^2.

    Parameters
    ----------
    p : ndarray of shape (..., K)
        Class proportions along the last axis.

    Examples
    --------
    >>> from prunekit.impurity import gini
    >>> gini([[0.5, 0.5], [1.0, 0.0]]).tolist()
    [0.5, 0.0]
    """
    return _gini(_check_proportions(p))


_UNCHECKED = {train_error_impurity: _train_error, entropy: _entropy, gini: _gini}


@renamed_parameter("measure", "criterion")
def unchecked(criterion):
    """The same impurity function without the check of its proportions, for proportions the
    library computes itself (:func:`class_proportions`); ``None`` for a function not of this
    module.

    Parameters
    ----------
    criterion : callable
        :func:`train_error_impurity`, :func:`entropy` or :func:`gini` (a grower's criterion
        as a function), or another function.

    Examples
    --------
    >>> import numpy as np
    >>> from prunekit.impurity import gini, unchecked
    >>> float(unchecked(gini)(np.array([0.5, 0.5])))
    0.5
    >>> unchecked(len) is None
    True
    """
    return _UNCHECKED.get(criterion)


# ---------------------------------------------------------------------- from class counts
def class_proportions(counts: np.ndarray) -> np.ndarray:
    """Class counts along the last axis divided by their total (all 0 for an empty row).

    Parameters
    ----------
    counts : ndarray of shape (..., K)
        Non-negative class counts (not checked: the library passes its own).

    Examples
    --------
    >>> import numpy as np
    >>> from prunekit.impurity import class_proportions
    >>> class_proportions(np.array([[3, 1], [0, 0]])).tolist()
    [[0.75, 0.25], [0.0, 0.0]]
    """
    total = counts.sum(axis=-1, keepdims=True)
    return counts / np.maximum(total, 1)


def counts_impurity(counts: np.ndarray, criterion: str, total=None) -> np.ndarray:
    """The impurity of every row of class counts, as a tree's grower measures it.

    Parameters
    ----------
    counts : ndarray of shape (n, K)
        Non-negative integer class counts, e.g. a tree's ``counts`` (not checked: the
        library passes its own).
    criterion : {"gini", "entropy", "log_loss"}
        The grower's criterion (:data:`GROWER_CRITERIA`): the Gini index 1 - sum_k p_k^2,
        or the entropy -sum_k p_k log2 p_k in bits, as scikit-learn's trees store it.
    total : ndarray of shape (n,), optional
        The row sums of ``counts``, when the caller has them.

    Returns
    -------
    ndarray of shape (n,)
        0 for a row without examples.

    Examples
    --------
    >>> import numpy as np
    >>> from prunekit.impurity import counts_impurity
    >>> counts = np.array([[2, 2], [4, 0]])
    >>> counts_impurity(counts, "entropy").tolist()      # in bits
    [1.0, 0.0]
    >>> counts_impurity(counts, "gini").tolist()
    [0.5, 0.0]
    """
    criterion = check_choice(_renamed_criterion(criterion), "criterion", tuple(GROWER_CRITERIA))
    if total is None:
        total = np.einsum("ij->i", counts)     # exact for integers, faster than sum(axis=1)
    p = counts / np.maximum(total, 1)[:, None]
    value = _gini(p) if GROWER_CRITERIA[criterion] == "gini" else _entropy(p, np.log2)
    return np.where(total > 0, value, 0.0)
