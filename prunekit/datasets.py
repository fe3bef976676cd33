"""Synthetic data sets that install with the library, so the book builds anywhere offline."""

from __future__ import annotations

import numpy as np
from sklearn.utils import check_random_state

from prunekit._validation import check_count, check_probability

__all__ = ["make_boolean_dnf", "dnf_labels", "dnf_true_error", "cube"]

DEFAULT_TERMS = ((0, 1), (2, 3, 4))


def make_boolean_dnf(n_samples: int, n_features: int = 10, terms=DEFAULT_TERMS,
                     noise: float = 0.1, random_state=None):
    """Uniform points of the cube {0,1}^d labelled by a DNF formula, with label noise.

    The clean label is 1 when at least one term holds (a term is a conjunction of the listed
    features being 1); each label is then flipped independently with probability ``noise``.
    The Bayes classifier is the formula itself and the Bayes risk is exactly ``noise``.

    Parameters
    ----------
    n_samples : int
        Number of examples m.
    n_features : int, default 10
        Dimension d of the cube; features not in any term are irrelevant.
    terms : sequence of sequences of int
        The conjunctions of the formula, by feature index.
    noise : float, default 0.1
        Label-flip probability in [0, 1/2).
    random_state : int, RandomState instance or None

    Returns
    -------
    X : ndarray of shape (n_samples, n_features), values 0 and 1
    y : ndarray of shape (n_samples,), values 0 and 1
    """
    n_samples = check_count(n_samples, "n_samples", minimum=1)
    n_features = check_count(n_features, "n_features", minimum=1)
    noise = check_probability(noise, "noise", open_interval=False)
    if noise >= 0.5:
        raise ValueError(f"noise must be below 1/2, got {noise}.")
    terms = _check_terms(terms, n_features)
    rng = check_random_state(random_state)
    X = rng.randint(0, 2, size=(n_samples, n_features))
    flip = rng.random_sample(n_samples) < noise
    return X, dnf_labels(X, terms) ^ flip.astype(int)


def _check_terms(terms, n_features: int) -> list[list[int]]:
    terms = [list(map(int, term)) for term in terms]
    if not terms or any(not term or min(term) < 0 or max(term) >= n_features for term in terms):
        raise ValueError(f"terms must be non-empty lists of feature indices in [0, {n_features}).")
    return terms


def dnf_labels(X, terms=DEFAULT_TERMS) -> np.ndarray:
    """The noise-free labels of a DNF formula: 1 where at least one term has all its features 1."""
    X = np.asarray(X)
    terms = _check_terms(terms, X.shape[1])
    clean = np.zeros(X.shape[0], dtype=bool)
    for term in terms:
        clean |= X[:, term].astype(bool).all(axis=1)
    return clean.astype(int)


def cube(n_features: int) -> np.ndarray:
    """All 2^d points of {0,1}^d, one per row (d at most 20)."""
    n_features = check_count(n_features, "n_features", minimum=1)
    if n_features > 20:
        raise ValueError(f"n_features must be at most 20 to enumerate the cube, got {n_features}.")
    codes = np.arange(2 ** n_features)[:, None]
    return (codes >> np.arange(n_features)[::-1]) & 1


def dnf_true_error(predict, n_features: int = 10, terms=DEFAULT_TERMS, noise: float = 0.1) -> float:
    """Exact true error L_D(h) of a classifier under :func:`make_boolean_dnf`'s distribution.

    The distribution is uniform on the cube and flips the formula's label with probability
    ``noise``, so a classifier h that disagrees with the formula on a fraction q of the cube
    has L_D(h) = noise + (1 - 2 noise) q. The cube is enumerated, so no sampling error.

    Parameters
    ----------
    predict : callable
        Maps an (2^d, d) array of points to their predicted labels, e.g. ``tree.predict``.
    n_features, terms, noise
        The parameters the data were generated with.
    """
    noise = check_probability(noise, "noise", open_interval=False)
    points = cube(n_features)
    disagreement = np.mean(np.asarray(predict(points)) != dnf_labels(points, terms))
    return float(noise + (1 - 2 * noise) * disagreement)
