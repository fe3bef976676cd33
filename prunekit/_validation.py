"""Input validation shared by the whole library.

Every public function validates its input here, with scikit-learn's helpers, so that bad
input fails early with a ``ValueError`` or ``TypeError`` that names the argument.
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.utils.validation import check_array, check_consistent_length, column_or_1d


def check_samples(X, n_features: int, *, name: str = "X", dtype=np.float64) -> np.ndarray:
    """Validate a 2-D sample matrix for a tree grown on ``n_features`` features.

    Parameters
    ----------
    X : array-like of shape (m, d)
        The sample. Must be finite and have at least one row.
    n_features : int
        The number of features the tree expects.
    name : str
        Name of the argument, used in error messages.
    dtype : numpy dtype
        The dtype the tree compares thresholds in.

    Returns
    -------
    numpy.ndarray of shape (m, n_features)
    """
    X = check_array(X, dtype=dtype, ensure_all_finite=True, input_name=name)
    if X.shape[1] != n_features:
        raise ValueError(
            f"{name} has {X.shape[1]} features, but the tree was grown on {n_features} features."
        )
    return X


def check_labels(y, n_samples: int, *, name: str = "y") -> np.ndarray:
    """Validate a 1-D label vector of length ``n_samples``.

    Parameters
    ----------
    y : array-like of shape (m,)
    n_samples : int
        Number of rows of the matching sample.
    name : str
        Name of the argument, used in error messages.
    """
    if y is None:
        raise ValueError(f"{name} is required, got None.")
    y = column_or_1d(y, warn=False)
    if y.dtype.kind == "f" and not np.all(np.isfinite(y)):
        raise ValueError(f"{name} contains NaN or infinity.")
    if len(y) != n_samples:
        raise ValueError(
            f"X and {name} have different lengths: X has {n_samples} rows, {name} has {len(y)} labels."
        )
    return y


def check_sample_and_labels(X, y, n_features: int, *, dtype=np.float64):
    """Validate a labelled sample ``(X, y)`` for a tree grown on ``n_features`` features."""
    if y is not None and X is not None:
        try:
            check_consistent_length(X, y)
        except ValueError:
            n_x = len(X) if hasattr(X, "__len__") else "?"
            n_y = len(y) if hasattr(y, "__len__") else "?"
            raise ValueError(
                f"X and y have different lengths: X has {n_x} rows, y has {n_y} labels."
            ) from None
    X = check_samples(X, n_features, dtype=dtype)
    y = check_labels(y, X.shape[0])
    return X, y


def encode_labels(y: np.ndarray, classes: np.ndarray, *, name: str = "y") -> np.ndarray:
    """Map labels to indices into ``classes``; unseen labels are an error.

    Parameters
    ----------
    y : numpy.ndarray of shape (m,)
    classes : numpy.ndarray of shape (K,), sorted
        The classes of the tree's growing sample.

    Raises
    ------
    ValueError
        When ``y`` holds a label that is not in ``classes``. Per-node class counts have one
        column per class of the growing sample, so such an example cannot be counted.
    """
    try:
        idx = np.searchsorted(classes, y)
    except TypeError:
        raise TypeError(
            f"{name} holds labels of type {y.dtype} that cannot be compared with the tree's "
            f"classes {classes.tolist()!r}."
        ) from None
    idx = np.clip(idx, 0, len(classes) - 1)
    unseen = classes[idx] != y
    if np.any(unseen):
        labels = np.unique(y[unseen]).tolist()
        raise ValueError(
            f"{name} contains labels {labels!r} that the tree never saw in its growing sample "
            f"(its classes are {classes.tolist()!r}). No pruning can predict them; per-node "
            f"counts have no column for them. Drop these examples, or use error(), which counts "
            f"them as misclassified."
        )
    return idx.astype(np.intp)


def check_probability(value, name: str, *, open_interval: bool = True) -> float:
    """Check that ``value`` is a real number in (0, 1) (or [0, 1])."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}.")
    value = float(value)
    ok = 0 < value < 1 if open_interval else 0 <= value <= 1
    if not ok:
        interval = "(0, 1)" if open_interval else "[0, 1]"
        raise ValueError(f"{name} must lie in {interval}, got {value!r}.")
    return value


def check_count(value, name: str, *, minimum: int = 0) -> int:
    """Check that ``value`` is an integer at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}.")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}.")
    return int(value)
