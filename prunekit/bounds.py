"""Generalization bounds used to judge and prune trees.

Each function names the paper and equation it implements. Logarithms are natural unless the
paper writes log2.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from prunekit.validation import (
    check_broadcastable,
    check_choice,
    check_count,
    check_numbers,
    check_probability,
)

__all__ = ["description_length", "mdl", "nobel_delta", "nobel_delta_independent",
           "nobel_remainder", "nobel_estimation_term", "eta", "rademacher", "occam",
           "log2_prunings", "occam_prunings"]


def description_length(n_nodes, n_features: int):
    """Bits needed to encode a tree with ``n_nodes`` nodes over ``n_features`` binary features.

    Shalev-Shwartz & Ben-David (2014), Sec. 18.1: each node is one of d + 3 symbols (a
    feature index, leaf 0, leaf 1, end of code), so a tree with n nodes takes
    (n + 1) log2(d + 3) bits, a prefix-free code.

    Parameters
    ----------
    n_nodes : int or array-like of int
        Number of nodes n (internal nodes and leaves).
    n_features : int
        Number of binary features d.

    Returns
    -------
    float or ndarray

    Examples
    --------
    A tree of 7 nodes over 10 features takes 8 log2(13) bits:

    >>> import prunekit as pk
    >>> round(pk.bounds.description_length(7, n_features=10), 4)
    29.6035
    """
    n_features = check_count(n_features, "n_features", minimum=1)
    n_nodes = check_numbers(n_nodes, "n_nodes", minimum=1, whole=True)
    bits = (n_nodes + 1) * np.log2(n_features + 3)
    return _scalar(bits)


def _scalar(value):
    return float(value) if np.ndim(value) == 0 else value


def _log_counts(value, name):
    """Natural logarithms of counts >= 1 that may exceed any float (exact Python integers)."""
    items = value.tolist() if isinstance(value, np.ndarray) else value
    shape = np.shape(value) if isinstance(value, np.ndarray) else None
    if isinstance(items, (list, tuple)):
        flat = np.asarray(items, dtype=object).ravel().tolist()
        shape = np.shape(np.asarray(items, dtype=object))
    else:
        flat = [items]
    logs = []
    for item in flat:
        if isinstance(item, (bool, np.bool_)) or not isinstance(item, numbers.Integral):
            raise TypeError(f"{name} must hold integers (the number of prunings), got "
                            f"{type(item).__name__} {item!r}.")
        if item < 1:
            raise ValueError(f"{name} must be at least 1 (every tree has one pruning), "
                             f"got {item}.")
        logs.append(math.log(int(item)))
    return logs[0] if shape in (None, ()) else np.reshape(logs, shape)


def mdl(train_error, n_nodes, n_features: int, n_samples: int, delta: float = 0.05):
    """The minimum-description-length bound on the true error of a decision tree.

    Shalev-Shwartz & Ben-David (2014), eq. (18.1): with probability at least 1 - delta over
    an i.i.d. sample of size m, every tree h with n nodes over d binary features satisfies

        L_D(h) <= L_S(h) + sqrt(((n + 1) log2(d + 3) + log(2 / delta)) / (2 m)),

    with the natural logarithm in log(2 / delta) (Theorem 7.7 of the same book).

    Parameters
    ----------
    train_error : float or array-like
        Empirical error L_S(h), a rate in [0, 1].
    n_nodes : int or array-like of int
        Number of nodes n of the tree.
    n_features : int
        Number of binary features d.
    n_samples : int
        Sample size m.
    delta : float, default 0.05
        Confidence parameter in (0, 1).

    Returns
    -------
    float or ndarray
        The bound (it may exceed 1, in which case it says nothing).

    Examples
    --------
    Trees of 3, 7 and 15 nodes with 10 % training error on 1000 examples:

    >>> import prunekit as pk
    >>> bound = pk.bounds.mdl(0.1, [3, 7, 15], n_features=10,
    ...                       n_samples=1000)
    >>> bound.round(4).tolist()
    [0.1962, 0.229, 0.2773]
    """
    delta = check_probability(delta, "delta")
    n_samples = check_count(n_samples, "n_samples", minimum=1)
    train_error = check_numbers(train_error, "train_error", minimum=0, maximum=1)
    bits = description_length(n_nodes, n_features)
    check_broadcastable(train_error=train_error, n_nodes=bits)
    return _scalar(train_error + np.sqrt((bits + np.log(2 / delta)) / (2 * n_samples)))


def _sizes_and_sample(k, n_samples):
    k = check_numbers(k, "k (the number of nodes)", minimum=1, whole=True)
    n = check_count(n_samples, "n_samples", minimum=4)
    return k, n


def nobel_delta(k, n_samples: int, n_features: int):
    """Nobel's penalty for growing and pruning on the same data, eq. (4) of Nobel (2002).

        Delta(k, n) = sqrt(32 (k d log n + k log 2 + 2 log k) / n)

    Parameters
    ----------
    k : int or array
        Number of nodes |T| of the subtree.
    n_samples : int
        Sample size n (at least 4, as the paper assumes).
    n_features : int
        Dimension d of the feature space (at least 1).

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> import prunekit as pk
    >>> delta = pk.bounds.nobel_delta([1, 7, 15], 10**6, n_features=10)
    >>> delta.round(4).tolist()
    [0.0667, 0.1767, 0.2585]
    """
    k, n = _sizes_and_sample(k, n_samples)
    d = check_count(n_features, "n_features", minimum=1)
    return _scalar(np.sqrt(32 * (k * d * np.log(n) + k * np.log(2) + 2 * np.log(k)) / n))


def nobel_delta_independent(k, n_samples: int):
    """Nobel's penalty when the pruning sample is independent, eq. (7) of Nobel (2002).

        Delta'(k, n) = sqrt((k log 2 + log k) / n)

    Parameters
    ----------
    k : int or array-like of int
        Number of nodes |T| of the subtree, at least 1.
    n_samples : int
        Size n of the pruning sample (at least 4, as the paper assumes).

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> import prunekit as pk
    >>> delta = pk.bounds.nobel_delta_independent([1, 7, 15], 1000)
    >>> delta.round(4).tolist()
    [0.0263, 0.0824, 0.1145]
    """
    k, n = _sizes_and_sample(k, n_samples)
    return _scalar(np.sqrt((k * np.log(2) + np.log(k)) / n))


def nobel_remainder(n_samples: int, n_features: int | None = None, case: str = "same") -> float:
    """The remainder of Theorem 1 of Nobel (2002), as his proof supports it.

    Part (A), same data: 6 sqrt(2) / sqrt(d n log n). Part (B), independent data:
    3 / (2 sqrt(n log 2)).

    Nobel prints these terms with an extra factor 1/sqrt(k) (6 sqrt(2) / sqrt(d k n log n)
    and 3 / (2 sqrt(k n log 2))), but his proof does not give it. The remainder is the sum of
    two parts. One is Lemma 3 at the comparison size k, at most 2 sqrt(2) / (k^(5/2)
    sqrt(d n log n)) <= 2 sqrt(2) / sqrt(d n log n). The other, his eq. (18), bounds the
    expected excess of the chosen tree, whose size j is random, by the sum over *every* size
    j >= 1 of 2 sqrt(2) / (j^(5/2) sqrt(d n log n)); the sum does not depend on k and is at
    most 4 sqrt(2) / sqrt(d n log n) (Nobel uses sum_j j^(-2) <= 2). Its first term alone,
    j = 1, exceeds the printed 4 sqrt(2) / sqrt(d k n log n) once k > 4. Part (B) is the same
    calculation with his eq. (13): 1 / (2 k^(5/2) sqrt(n log 2)) plus at most
    1 / sqrt(n log 2).

    Parameters
    ----------
    n_samples : int
        Sample size n (at least 4, as the paper assumes).
    n_features : int, optional
        Dimension d of the feature space; required for ``case="same"``.
    case : {"same", "independent"}

    Examples
    --------
    >>> import prunekit as pk
    >>> round(pk.bounds.nobel_remainder(1000, n_features=10), 4)
    0.0323
    >>> round(pk.bounds.nobel_remainder(1000, case="independent"), 4)
    0.057
    """
    case = check_choice(case, "case", ("same", "independent"))
    n = check_count(n_samples, "n_samples", minimum=4)
    if case == "same":
        if n_features is None:
            raise ValueError("case='same' needs n_features, the dimension of the feature "
                             "space.")
        d = check_count(n_features, "n_features", minimum=1)
        return float(6 * np.sqrt(2) / np.sqrt(d * n * np.log(n)))
    if n_features is not None:
        check_count(n_features, "n_features", minimum=1)
    return float(3 / (2 * np.sqrt(n * np.log(2))))


def nobel_estimation_term(k, n_samples: int, n_features: int | None = None,
                          case: str = "same"):
    """The estimation part of Theorem 1's bound for a given size k (Nobel 2002).

    Part (A), same data: 2 Delta(k, n) + 6 sqrt(2) / sqrt(d n log n).
    Part (B), independent data: 2 Delta'(k, n) + 3 / (2 sqrt(n log 2)).
    The theorem adds the approximation error E[min_{|T| <= k} R(T) - R*] and minimises over k.
    The remainders are those Nobel's proof gives, without the factor 1/sqrt(k) of the printed
    theorem; see :func:`nobel_remainder`.

    Parameters
    ----------
    k : int or array-like of int
        Comparison size (number of nodes), at least 1.
    n_samples : int
        Sample size n, at least 4.
    n_features : int, optional
        Dimension d of the feature space; required for ``case="same"``.
    case : {"same", "independent"}

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> import prunekit as pk
    >>> term = pk.bounds.nobel_estimation_term(7, 10**6, n_features=10)
    >>> round(term, 4)   # 2 nobel_delta(7, ...) + nobel_remainder(...)
    0.3541
    >>> term = pk.bounds.nobel_estimation_term(7, 1000,
    ...                                         case="independent")
    >>> round(term, 4)
    0.2219
    """
    case = check_choice(case, "case", ("same", "independent"))
    remainder = nobel_remainder(n_samples, n_features, case)
    if case == "same":
        return _scalar(2 * np.asarray(nobel_delta(k, n_samples, n_features)) + remainder)
    return _scalar(2 * np.asarray(nobel_delta_independent(k, n_samples)) + remainder)


# ---------------------------------------------------------------------- Kääriäinen et al. (2004)

def eta(n_samples: int, delta: float = 0.05) -> float:
    """The class-independent term of Lemma 3 of Kääriäinen, Malinen & Elomaa (2004).

        eta(delta, n) = sqrt(ln(2 / delta) / (2 n))

    Parameters
    ----------
    n_samples : int
        Sample size n (the pruning sample), at least 1.
    delta : float, default 0.05
        Confidence parameter in (0, 1).

    Examples
    --------
    >>> import prunekit as pk
    >>> round(pk.bounds.eta(1000), 4), round(pk.bounds.eta(1000, 0.01), 4)
    (0.0429, 0.0515)
    """
    delta = check_probability(delta, "delta")
    n = check_count(n_samples, "n_samples", minimum=1)
    return float(np.sqrt(np.log(2 / delta) / (2 * n)))


def rademacher(train_error, penalty, n_samples: int, delta: float = 0.05):
    """The Rademacher bound, eq. (1) (Lemma 3) of Kääriäinen, Malinen & Elomaa (2004).

    With probability at least 1 - delta, every h in H satisfies

        eps_P(h) <= eps_hat_n(h) + 2 R_n(H) + 5 eta(delta, n),

    where eps_hat_n(h) is the error of h on the n examples on which the penalty R_n(H) was
    computed. For prunings chosen by REP or k-REP these are the pruning-set examples, which
    are independent of the tree (Sec. 5): ``train_error`` is the pruning-set error.

    Parameters
    ----------
    train_error : float or array-like
        Empirical error eps_hat_n(h), a rate in [0, 1], on the n pruning examples.
    penalty : float or array-like
        One realisation of the Rademacher penalty R_n(H), in [0, 1]
        (:func:`prunekit.rademacher_penalty`).
    n_samples : int
        Number n of pruning examples.
    delta : float, default 0.05
        Confidence parameter in (0, 1).

    Returns
    -------
    float or ndarray
        The bound (it may exceed 1, in which case it says nothing).

    Examples
    --------
    10 % pruning-set error and a penalty of 0.05 on 1000 pruning examples:

    >>> import prunekit as pk
    >>> round(pk.bounds.rademacher(0.1, penalty=0.05, n_samples=1000), 4)
    0.4147
    """
    train_error = check_numbers(train_error, "train_error", minimum=0, maximum=1)
    penalty = check_numbers(penalty, "penalty", minimum=0, maximum=1)
    check_broadcastable(train_error=train_error, penalty=penalty)
    return _scalar(train_error + 2 * penalty + 5 * eta(n_samples, delta))


def occam(train_error, n_nodes, n_samples: int, delta: float = 0.05):
    """The Occam's-razor comparison of Sec. 6.1 of Kääriäinen, Malinen & Elomaa (2004).

        eps_hat_n(h) + sqrt((ln 2 * d / 4 + ln(1 / delta)) / (2 n)),

    with d the number of nodes of the tree being pruned and n the size of the pruning set.
    The paper gives every pruning of a d-node tree a code of d/4 bits, because a balanced tree
    with d nodes has *at least* 2^(d/4) prunings, and calls the result worst-case optimistic.
    It is a comparison value, **not a guarantee**: a code of b bits for every pruning
    satisfies Kraft's inequality only if the tree has at most 2^b prunings, and many trees
    have more than 2^(d/4). The bound that holds with probability at least 1 - delta for
    every pruning is :func:`occam_prunings`, with log2 of the number of prunings as the code
    length.

    Parameters
    ----------
    train_error : float or array-like
        Pruning-set error eps_hat_n(h), a rate in [0, 1].
    n_nodes : int or array-like of int
        Number of nodes d of the tree being pruned (not of the pruning).
    n_samples : int
        Size n of the pruning set.
    delta : float, default 0.05
        Confidence parameter in (0, 1).

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> import prunekit as pk
    >>> round(pk.bounds.occam(0.1, n_nodes=31, n_samples=1000), 4)
    0.1647
    """
    d = check_numbers(n_nodes, "n_nodes", minimum=1, whole=True)
    return _occam_value(train_error, np.log(2) * d / 4, "n_nodes", n_samples, delta)


def _occam_value(train_error, nats, name, n_samples, delta):
    """eps_hat_n(h) + sqrt((nats + ln(1 / delta)) / (2 n)) for a code of ``nats`` nats."""
    train_error = check_numbers(train_error, "train_error", minimum=0, maximum=1)
    delta = check_probability(delta, "delta")
    n = check_count(n_samples, "n_samples", minimum=1)
    check_broadcastable(**{"train_error": train_error, name: nats})
    return _scalar(train_error + np.sqrt((nats + np.log(1 / delta)) / (2 * n)))


def log2_prunings(tree) -> float:
    """log2 of the number of prunings of ``tree``, the code length of a uniform code for them.

    The number comes from :func:`prunekit.count_prunings` as an exact Python integer, which
    for a large tree has far more digits than a float can hold; its logarithm is taken on the
    integer, so nothing overflows (a tree with 90,000 nodes has about 2^25,000 prunings).

    Examples
    --------
    >>> import prunekit as pk
    >>> X, y = pk.datasets.make_boolean_dnf(200, random_state=0)
    >>> tree = pk.id3(X, y)
    >>> pk.count_prunings(tree), round(pk.bounds.log2_prunings(tree), 2)
    (14535361, 23.79)
    """
    from prunekit.tree import check_tree, count_prunings

    check_tree(tree)
    return math.log2(count_prunings(tree))


def occam_prunings(train_error, n_prunings, n_samples: int, delta: float = 0.05):
    """The Occam's-razor bound over the prunings of one tree, valid for every pruning.

    Given the growing sample, the prunings P(T) of the grown tree form a fixed, finite class,
    and the pruning set of size n is an independent i.i.d. sample. A uniform code for P(T)
    has log2 |P(T)| bits and satisfies Kraft's inequality, so Hoeffding's inequality and a
    union bound give, with probability at least 1 - delta, for every pruning h of T,

        eps_P(h) <= eps_hat_n(h) + sqrt((ln |P(T)| + ln(1 / delta)) / (2 n)).

    This is the bound that the comparison of Kääriäinen, Malinen & Elomaa (2004), Sec. 6.1,
    approximates with d/4 bits (:func:`occam`); it holds for REP's and k-REP's prunings alike.

    Parameters
    ----------
    train_error, n_samples, delta
        As in :func:`occam`: the pruning-set error (a rate in [0, 1]), the size of the
        pruning set and the confidence parameter in (0, 1).
    n_prunings : int or array-like of int
        The number of prunings |P(T)| of the tree being pruned, at least 1
        (:func:`prunekit.count_prunings`); Python integers of any size are taken exactly.

    Returns
    -------
    float or ndarray

    Examples
    --------
    The prunings of a 103-node tree, with 10 % error on 1000 pruning examples:

    >>> import prunekit as pk
    >>> X, y = pk.datasets.make_boolean_dnf(200, random_state=0)
    >>> n_prunings = pk.count_prunings(pk.id3(X, y))
    >>> bound = pk.bounds.occam_prunings(0.1, n_prunings, n_samples=1000)
    >>> round(bound, 4)
    0.1987
    """
    return _occam_value(train_error, _log_counts(n_prunings, "n_prunings"), "n_prunings",
                        n_samples, delta)
