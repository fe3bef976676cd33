"""Synthetic data sets that install with the library, so the book builds anywhere offline."""

from __future__ import annotations

import numpy as np
from sklearn.utils import check_random_state

from prunekit._validation import check_count, check_probability

__all__ = ["make_boolean_dnf"]


def make_boolean_dnf(n_samples: int, n_features: int = 10, terms=((0, 1), (2, 3, 4)),
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
    terms = [list(map(int, term)) for term in terms]
    if not terms or any(not term or min(term) < 0 or max(term) >= n_features for term in terms):
        raise ValueError(f"terms must be non-empty lists of feature indices in [0, {n_features}).")
    rng = check_random_state(random_state)
    X = rng.randint(0, 2, size=(n_samples, n_features))
    clean = np.zeros(n_samples, dtype=bool)
    for term in terms:
        clean |= X[:, term].all(axis=1)
    flip = rng.random_sample(n_samples) < noise
    return X, (clean ^ flip).astype(int)
