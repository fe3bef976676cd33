"""Input validation shared by the whole library, and by code built on it (the book's package).

Every public function validates its input here, with scikit-learn's helpers, so that bad
input fails early with a ``ValueError`` or ``TypeError`` that names the argument and says
what was wrong. Messages from inside numpy or scikit-learn (which do not know the argument's
name) are rephrased before they reach the user.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
from sklearn.utils import check_random_state as _sklearn_random_state
from sklearn.utils.validation import check_array, check_consistent_length, column_or_1d

__all__ = [
    "OutOfRangeError", "as_array", "check_samples", "check_labels", "check_sample_and_labels",
    "encode_labels", "check_probability", "check_count", "check_real", "check_bool",
    "check_choice", "check_callable", "check_random_state", "random_state_for_scikit_learn",
    "check_seed", "check_index_array", "check_broadcastable", "check_numbers", "check_title",
    "check_names", "check_sample_weight", "weight_unit",
]


class OutOfRangeError(ValueError, IndexError):
    """An index argument outside its range: a ``ValueError`` that is also an ``IndexError``
    (as numpy's ``AxisError`` is), so that sequence-style code catching ``IndexError`` works."""


# ---------------------------------------------------------------------- arrays
def _shape_words(array: np.ndarray) -> str:
    if array.ndim == 0:
        return f"a scalar ({array.item()!r})"
    return f"a {array.ndim}-D array of shape {array.shape}"


def _rephrase(name: str, error: Exception) -> str:
    """A message naming ``name`` for an error raised while converting it to an array."""
    text = str(error).split("\n")[0]
    if "could not convert" in text or "bytes/strings" in text or "invalid literal" in text:
        return f"{name} must hold numbers ({text})."
    if "Complex data" in text or "complex" in text.lower():
        return f"{name} holds complex numbers; it must hold real numbers."
    if "inhomogeneous" in text or "sequence" in text:
        return f"{name} is ragged: its rows must all have the same length ({text})."
    if "Sparse" in text or "sparse" in text:
        return f"{name} is a sparse matrix; pass a dense array ({text})."
    return f"{name} is not a valid array: {text}"


def as_array(value, name: str, *, ndim: int, dtype="numeric", finite: bool = True,
             allow_nan: bool = False, min_length: int = 1,
             what: str | None = None) -> np.ndarray:
    """Convert ``value`` to an ``ndim``-dimensional numpy array, with messages naming ``name``.

    Parameters
    ----------
    value : array-like
    name : str
        The argument's name, used in error messages.
    ndim : int
        The number of dimensions required.
    dtype : str, numpy dtype or None
        Passed to :func:`sklearn.utils.check_array` (``"numeric"``: any numeric dtype,
        converting strings is refused; ``None``: keep the dtype).
    finite : bool
        Refuse NaN and infinity.
    allow_nan : bool
        With ``finite``, accept NaN (a missing value) and refuse infinity only.
    min_length : int
        The smallest length of the first axis.
    what : str, optional
        What the array holds, for the messages (e.g. "(n_samples, n_features)").

    Returns
    -------
    numpy.ndarray

    Examples
    --------
    >>> from prunekit.validation import as_array
    >>> as_array([[1, 2], [3, 4]], "X", ndim=2).shape
    (2, 2)
    >>> as_array([1.0, float("nan")], "y", ndim=1)
    Traceback (most recent call last):
    ...
    ValueError: y contains NaN or infinity; every value must be finite.
    """
    shape_hint = f" of shape {what}" if what else ""
    if value is None:
        raise ValueError(f"{name} is required: give a {ndim}-D array{shape_hint}, not None.")
    if isinstance(value, (str, bytes, dict, set)) or np.isscalar(value):
        raise TypeError(f"{name} must be a {ndim}-D array{shape_hint}, got "
                        f"{type(value).__name__} {value!r}.")
    if dtype is not None:
        kind = getattr(getattr(value, "dtype", None), "kind", None)
        if kind is None and isinstance(value, (list, tuple)):
            try:
                kind = np.asarray(value).dtype.kind
            except (ValueError, TypeError):
                kind = None                       # ragged: check_array reports it below
        if kind in ("U", "S"):
            raise TypeError(f"{name} must hold numbers, got strings; convert them first.")
        if kind == "c":
            raise TypeError(f"{name} holds complex numbers; it must hold real numbers.")
    if type(value) is np.ndarray and (
            value.dtype == dtype if isinstance(dtype, type) or isinstance(dtype, np.dtype)
            else value.dtype.kind in ("biuf" if dtype == "numeric" else "biufUSO")):
        array = value                  # already an array of the right kind: no conversion
    elif (type(value) is np.ndarray and value.dtype.kind in "biu"
          and dtype in (np.float32, np.float64)):
        # integers (e.g. binary features) to floats: numpy's own cast, which is what
        # check_array does, and the result cannot hold NaN or infinity
        array, finite = value.astype(dtype), False
    else:
        try:
            array = check_array(value, dtype=dtype, ensure_2d=False, allow_nd=True,
                                ensure_all_finite=False, ensure_min_samples=0,
                                ensure_min_features=0, input_name=name)
        except (ValueError, TypeError) as error:
            raise type(error)(_rephrase(name, error)) from None
    if array.dtype.kind == "c":
        raise TypeError(f"{name} holds complex numbers; it must hold real numbers.")
    if array.ndim != ndim:
        hint = ""
        if ndim == 2 and array.ndim == 1:
            hint = (f" Use {name}.reshape(-1, 1) if it has a single feature, or "
                    f"{name}.reshape(1, -1) if it is a single sample.")
        raise ValueError(f"{name} must be a {ndim}-D array{shape_hint}, got "
                         f"{_shape_words(array)}.{hint}")
    if array.shape[0] < min_length:
        unit = "samples" if what and "n_samples" in what else "entries"
        raise ValueError(f"{name} has {array.shape[0]} {unit} (shape {array.shape}); at least "
                         f"{min_length} {'is' if min_length == 1 else 'are'} needed.")
    if finite and array.dtype.kind == "f":
        if allow_nan and np.isinf(array).any():
            raise ValueError(f"{name} contains infinity; every value must be finite or NaN "
                             "(a missing value).")
        if not allow_nan and not np.all(np.isfinite(array)):
            raise ValueError(f"{name} contains NaN or infinity; every value must be finite.")
    return array


def check_samples(X, n_features: int, *, name: str = "X", dtype=np.float64,
                  allow_nan: bool = False) -> np.ndarray:
    """Validate a 2-D sample matrix for a tree grown on ``n_features`` features.

    Parameters
    ----------
    X : array-like of shape (m, d)
        The sample. Must be finite (NaN allowed with ``allow_nan``) and have at least one
        row.
    n_features : int
        The number of features the tree expects.
    name : str
        Name of the argument, used in error messages.
    dtype : numpy dtype
        The dtype the tree compares thresholds in.
    allow_nan : bool, default False
        Accept NaN, a missing value (a tree routes it by its ``missing_go_to_left``);
        infinity is refused either way.

    Returns
    -------
    numpy.ndarray of shape (m, n_features)

    Examples
    --------
    >>> from prunekit.validation import check_samples
    >>> check_samples([[0, 1], [1, 1]], n_features=2).dtype
    dtype('float64')
    >>> check_samples([[0, 1, 1]], n_features=2)
    Traceback (most recent call last):
    ...
    ValueError: X has 3 features, but the tree was grown on 2 features.
    """
    n_features = check_count(n_features, "n_features", minimum=1)
    X = as_array(X, name, ndim=2, dtype=dtype, what="(n_samples, n_features)",
                 allow_nan=allow_nan)
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

    Examples
    --------
    >>> from prunekit.validation import check_labels
    >>> check_labels([[0], [1]], n_samples=2).tolist()      # flattened
    [0, 1]
    >>> check_labels(["a", "b"], n_samples=3)
    Traceback (most recent call last):
    ...
    ValueError: X and y have different lengths: X has 3 rows, ...
    """
    n_samples = check_count(n_samples, "n_samples")
    if y is None:
        raise ValueError(f"{name} is required, got None.")
    if isinstance(y, (str, bytes)) or np.ndim(y) == 0:
        raise TypeError(f"{name} must be a 1-D array of labels, got {type(y).__name__} {y!r}.")
    try:
        y = column_or_1d(y, warn=False)
    except ValueError:
        raise ValueError(f"{name} must be a 1-D array of labels, got shape "
                         f"{np.shape(y)}.") from None
    if y.dtype.kind == "c":
        raise TypeError(f"{name} holds complex numbers, which cannot be class labels.")
    if y.dtype.kind == "f" and not np.all(np.isfinite(y)):
        raise ValueError(f"{name} contains NaN or infinity.")
    if y.dtype.kind == "O" and any(label is None for label in y.tolist()):
        raise ValueError(f"{name} contains None; every example needs a class label.")
    if len(y) != n_samples:
        raise ValueError(
            f"X and {name} have different lengths: X has {n_samples} rows, {name} has "
            f"{len(y)} labels."
        )
    return y


def check_sample_and_labels(X, y, n_features: int, *, dtype=np.float64, names=("X", "y"),
                            allow_nan: bool = False):
    """Validate a labelled sample ``(X, y)`` for a tree grown on ``n_features`` features.

    ``names`` are the two arguments' names in the caller, used in the messages (e.g.
    ``("X_prune", "y_prune")``).

    Examples
    --------
    >>> from prunekit.validation import check_sample_and_labels
    >>> X, y = check_sample_and_labels([[0, 1], [1, 1]], [0, 1], 2)
    >>> X.shape, y.tolist()
    ((2, 2), [0, 1])
    >>> names = ("X_prune", "y_prune")
    >>> check_sample_and_labels([[0, 1]], [0, 1], 2, names=names)
    Traceback (most recent call last):
    ...
    ValueError: X_prune and y_prune have different lengths: ...
    """
    x_name, y_name = names
    if y is not None and X is not None and np.ndim(y) > 0:
        try:
            check_consistent_length(X, y)
        except (ValueError, TypeError):
            n_x = len(X) if hasattr(X, "__len__") else "?"
            n_y = len(y) if hasattr(y, "__len__") else "?"
            if n_x != n_y:
                raise ValueError(
                    f"{x_name} and {y_name} have different lengths: {x_name} has {n_x} rows, "
                    f"{y_name} has {n_y} labels."
                ) from None
    X = check_samples(X, n_features, name=x_name, dtype=dtype, allow_nan=allow_nan)
    y = check_labels(y, X.shape[0], name=y_name)
    return X, y


def check_sample_weight(sample_weight, n_samples: int, *,
                        name: str = "sample_weight") -> np.ndarray | None:
    """Check per-example weights; ``None`` (every example counts once) stays ``None``.

    Parameters
    ----------
    sample_weight : array-like of shape (n_samples,) or None
        Non-negative finite numbers, as scikit-learn's trees take them: an example of
        weight w counts as w examples in every class count (an integer weight w is the same
        as repeating the example w times). Weights that are not all whole numbers are
        rounded to multiples of :func:`weight_unit` of their total (about 1e-15 of it): every
        sum of them that a tree forms is then exact, whatever the order of the additions,
        so that equal sums of weights compare equal as counts do.
    n_samples : int
        The number of examples the weights belong to.
    name : str, default "sample_weight"
        The argument's name, used in error messages.

    Returns
    -------
    ndarray of float64, shape (n_samples,), or None

    Examples
    --------
    >>> from prunekit.validation import check_sample_weight
    >>> check_sample_weight([1, 2.5], 2).tolist()
    [1.0, 2.5]
    >>> check_sample_weight([1, -1], 2)
    Traceback (most recent call last):
    ...
    ValueError: sample_weight must be non-negative, got -1.0 at example 1.
    """
    if sample_weight is None:
        return None
    weights = as_array(sample_weight, name, ndim=1, dtype=np.float64, min_length=0,
                       what="(n_samples,)")
    if weights.shape != (n_samples,):
        raise ValueError(f"{name} must have one weight per example ({n_samples}), got "
                         f"{weights.shape[0]}.")
    negative = np.flatnonzero(weights < 0)
    if negative.size:
        raise ValueError(f"{name} must be non-negative, got {weights[negative[0]]} at "
                         f"example {negative[0]}.")
    if np.all(weights == np.round(weights)):
        return weights.copy()
    unit = weight_unit(weights.sum())
    return np.rint(weights / unit) * unit


def weight_unit(total: float) -> float:
    """The power of two that weights of this ``total`` are multiples of
    (:func:`check_sample_weight`): 2^-50 of the total, rounded down to a power of two, so
    that any sum of them up to the total is a whole number of units below 2^51, exact in
    float64.

    Examples
    --------
    >>> from prunekit.validation import weight_unit
    >>> weight_unit(1.0) == 2.0**-49, weight_unit(3.0) == 2.0**-48
    (True, True)
    """
    if not total >= 0 or not math.isfinite(total):
        raise ValueError(f"total must be a non-negative finite weight, got {total!r}.")
    return 2.0 ** (math.floor(math.log2(total)) + 1 - 50) if total > 0 else 1.0


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

    Examples
    --------
    >>> import numpy as np
    >>> from prunekit.validation import encode_labels
    >>> classes = np.array(["a", "b"])
    >>> encode_labels(np.array(["b", "a", "b"]), classes).tolist()
    [1, 0, 1]
    >>> encode_labels(np.array(["c"]), classes)
    Traceback (most recent call last):
    ...
    ValueError: y contains labels ['c'] that the tree never saw ...
    """
    classes = np.asarray(classes)
    if classes.ndim != 1 or classes.size == 0:
        raise ValueError(f"classes must be a non-empty 1-D array of labels, got shape "
                         f"{classes.shape}.")
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


def is_binary(values: np.ndarray) -> bool:
    """Whether a numeric or boolean array holds only the values 0 and 1.

    The same test as ``np.isin(values, (0, 1)).all()``, in two comparisons instead of a
    sort: ID3's binary features, the points of the cube {0,1}^d (Kearns & Mansour 1998,
    Sec. 4) and the labels predicted on them are checked this way.
    """
    return values.dtype.kind in "biuf" and bool(((values == 0) | (values == 1)).all())


def check_index_array(values, name: str, *, ndim: int = 1, minimum: int | None = None,
                      maximum: int | None = None, min_length: int = 1) -> np.ndarray:
    """An array of integers (floats must be whole numbers) in ``[minimum, maximum]``.

    Booleans are refused: a mask where indices are expected is almost always a mistake.

    Examples
    --------
    >>> from prunekit.validation import check_index_array
    >>> check_index_array([0, 2.0, 1], "nodes").tolist()
    [0, 2, 1]
    >>> check_index_array([0, 5], "nodes", minimum=0, maximum=4)
    Traceback (most recent call last):
    ...
    ValueError: nodes must hold integers in [0, 4], got 5.
    """
    array = as_array(values, name, ndim=ndim, dtype=None, min_length=min_length)
    if array.dtype.kind == "b":
        raise TypeError(f"{name} must hold integers, got booleans.")
    if array.dtype.kind == "f":
        if not np.all(np.isfinite(array)) or not np.all(array == np.round(array)):
            raise ValueError(f"{name} must hold integers, got non-integer values.")
    elif array.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold integers, got dtype {array.dtype}.")
    if array.size:
        low, high = array.min(), array.max()
        if (minimum is not None and low < minimum) or (maximum is not None and high > maximum):
            bad = low if minimum is not None and low < minimum else high
            interval = (f"[{minimum if minimum is not None else '-inf'}, "
                        f"{maximum if maximum is not None else 'inf'}]")
            raise ValueError(f"{name} must hold integers in {interval}, got {bad:g}.")
        if array.dtype.kind == "u" and high > np.iinfo(np.intp).max:
            raise ValueError(f"{name} holds integers too large for an index, got {high}.")
    return array.astype(np.intp)


# ---------------------------------------------------------------------- scalars
def check_probability(value, name: str, *, open_interval: bool = True) -> float:
    """Check that ``value`` is a real number in (0, 1) (or [0, 1]).

    Examples
    --------
    >>> from prunekit.validation import check_probability
    >>> check_probability(0.05, "delta")
    0.05
    >>> check_probability(1.0, "delta")
    Traceback (most recent call last):
    ...
    ValueError: delta must lie in (0, 1), got 1.0.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}.")
    value = float(value)
    ok = 0 < value < 1 if open_interval else 0 <= value <= 1
    if not ok:
        interval = "(0, 1)" if open_interval else "[0, 1]"
        raise ValueError(f"{name} must lie in {interval}, got {value!r}.")
    return value


def check_count(value, name: str, *, minimum: int = 0, maximum: int | None = None) -> int:
    """Check that ``value`` is an integer at least ``minimum`` (and at most ``maximum``).

    Examples
    --------
    >>> from prunekit.validation import check_count
    >>> check_count(3, "k", minimum=1)
    3
    >>> check_count(2.5, "k")
    Traceback (most recent call last):
    ...
    TypeError: k must be an integer, got float 2.5.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}.")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}.")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} must be at most {maximum}, got {value}.")
    return int(value)


def check_real(value, name: str, *, minimum: float | None = None, finite: bool = True,
               strict: bool = False) -> float:
    """Check that ``value`` is a real number (not a bool), finite, and at least ``minimum``
    (above it when ``strict``).

    Examples
    --------
    >>> from prunekit.validation import check_real
    >>> check_real(0, "alpha", minimum=0)
    0.0
    >>> check_real(float("inf"), "alpha")
    Traceback (most recent call last):
    ...
    ValueError: alpha must be a finite number, got inf.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__} {value!r}.")
    value = float(value)
    if np.isnan(value):
        raise ValueError(f"{name} must be a {'finite ' if finite else ''}number, not NaN.")
    if finite and not np.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value!r}.")
    if minimum is not None and (value <= minimum if strict else value < minimum):
        raise ValueError(f"{name} must be {'>' if strict else '>='} {minimum:g}, got {value!r}.")
    return value


def check_numbers(value, name: str, *, minimum: float | None = None,
                  maximum: float | None = None, whole: bool = False) -> np.ndarray:
    """Check that ``value`` is a number or an array of numbers; return it as floats.

    The validator of every argument that may be one number or one per node, tree or sample
    (sizes, depths, error counts, error rates, ...).

    Parameters
    ----------
    value : number or array-like of numbers
        Booleans, strings and ``None`` are refused, as are NaN and infinity.
    name : str
        The argument's name, used in error messages.
    minimum, maximum : float, optional
        The smallest and the largest value allowed.
    whole : bool, default False
        Require whole numbers (counts, sizes, depths); they may be given as floats.

    Returns
    -------
    numpy.ndarray of float
        Of the shape of ``value`` (0-D for a single number).

    Raises
    ------
    TypeError
        When ``value`` does not hold real numbers.
    ValueError
        When a value is not finite, not whole (with ``whole``) or out of range.

    Examples
    --------
    >>> from prunekit.validation import check_numbers
    >>> check_numbers([1, 2], "n_nodes", minimum=1, whole=True).tolist()
    [1.0, 2.0]
    >>> check_numbers(1.5, "n_nodes", whole=True)
    Traceback (most recent call last):
    ...
    ValueError: n_nodes must hold whole numbers, got 1.5.
    """
    what = "a number or an array of numbers"
    if isinstance(value, (bool, np.bool_, str, bytes)) or value is None:
        raise TypeError(f"{name} must be {what}, got {type(value).__name__} {value!r}.")
    try:
        raw = np.asarray(value)
    except (ValueError, TypeError) as error:
        raise TypeError(f"{name} must be {what} ({error}).") from None
    if raw.dtype.kind not in "iuf":
        raise TypeError(f"{name} must be {what}, got an array of dtype {raw.dtype}.")
    array = raw.astype(float)
    _refuse(array, ~np.isfinite(array), f"{name} must be finite")
    if whole:
        _refuse(array, array != np.round(array), f"{name} must hold whole numbers")
    if minimum is not None or maximum is not None:
        low = -np.inf if minimum is None else minimum
        high = np.inf if maximum is None else maximum
        _refuse(array, (array < low) | (array > high),
                f"{name} must be {_interval_words(minimum, maximum)}")
    return array


def _interval_words(minimum, maximum) -> str:
    """``"non-negative"``, ``"at least 1"``, ``"at most 1"`` or ``"in [0, 1]"``."""
    if maximum is None:
        return "non-negative" if minimum == 0 else f"at least {minimum:g}"
    if minimum is None:
        return f"at most {maximum:g}"
    return f"in [{minimum:g}, {maximum:g}]"


def _refuse(array: np.ndarray, bad, message: str) -> None:
    """Raise ``ValueError(message + ", got <first bad value>.")`` when any entry is ``bad``."""
    if np.any(bad):
        first = float(array[bad].flat[0]) if array.ndim else float(array)
        raise ValueError(f"{message}, got {first:g}.")


def check_bool(value, name: str) -> bool:
    """Check that ``value`` is True or False (a Python or numpy bool, not a string or 0/1).

    Examples
    --------
    >>> from prunekit.validation import check_bool
    >>> check_bool(1, "counts")
    Traceback (most recent call last):
    ...
    TypeError: counts must be True or False, got int 1.
    """
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__} {value!r}.")
    return bool(value)


def check_choice(value, name: str, options) -> str:
    """Check that ``value`` is one of the strings ``options``; the message lists them.

    Examples
    --------
    >>> from prunekit.validation import check_choice
    >>> check_choice("Gini", "criterion", ("gini", "entropy"))
    Traceback (most recent call last):
    ...
    ValueError: criterion must be one of 'gini', 'entropy'; got 'Gini'.
    """
    if not isinstance(value, str) or value not in options:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, options))}; got {value!r}.")
    return value


def check_callable(value, name: str, what: str = ""):
    """Check that ``value`` can be called.

    Examples
    --------
    >>> from prunekit.validation import check_callable
    >>> check_callable(None, "predict", "that maps points to labels")
    Traceback (most recent call last):
    ...
    TypeError: predict must be a callable that maps points to ...
    """
    if not callable(value):
        raise TypeError(f"{name} must be a callable{' ' + what if what else ''}, got "
                        f"{type(value).__name__} {value!r}.")
    return value


class _RandomStateTypeError(TypeError, ValueError):
    """A ``random_state`` of the wrong type: a ``TypeError``, as prunekit raises for a wrong
    type, that is also the ``ValueError`` scikit-learn's ``check_random_state`` raises."""


def check_random_state(random_state, name: str = "random_state", *, legacy: bool = False):
    """The random number generator that ``random_state`` names: the one way prunekit reads
    randomness.

    ``random_state`` is scikit-learn's: ``None``, an integer seed, a
    ``numpy.random.RandomState`` or a ``numpy.random.Generator``, accepted by every function
    of the library that draws at random. A generator passed in is drawn from, so its state
    advances, as scikit-learn shares a ``RandomState``.

    Parameters
    ----------
    random_state : None, int, numpy.random.RandomState or numpy.random.Generator
        ``None``: numpy's global generator (the one ``numpy.random.seed`` seeds); an integer
        >= 0: a new generator seeded with it; a ``RandomState`` or a ``Generator``: itself.
    name : str
        The argument's name, used in error messages.
    legacy : bool, default False
        Return a ``numpy.random.RandomState`` instead of a ``Generator``: for a stream that
        must stay numpy's legacy one (the data sets of :mod:`prunekit.datasets`, whose draws
        for an integer seed are those of ``RandomState(seed)``), or for an object
        scikit-learn takes (it takes no ``Generator``).

    Returns
    -------
    numpy.random.Generator or numpy.random.RandomState
        Without ``legacy``: ``numpy.random.default_rng(seed)`` for an integer (so a seed draws
        what it drew in prunekit before), the ``Generator`` itself, or a ``Generator`` on the
        bit generator of the ``RandomState`` (for ``None``, numpy's global one). With
        ``legacy``: what :func:`sklearn.utils.check_random_state` returns for ``None``, an
        integer (``RandomState(seed)``) or a ``RandomState``, and a ``RandomState`` on the
        bit generator of a ``Generator``.

    Raises
    ------
    TypeError
        For any other type, booleans included; it is also a ``ValueError``, as
        scikit-learn's check raises.
    ValueError
        For a negative seed (or, with ``legacy``, one above 2**32 - 1).

    Examples
    --------
    >>> from prunekit.validation import check_random_state
    >>> type(check_random_state(0)).__name__
    'Generator'
    >>> check_random_state(0, legacy=True).randint(10, size=3).tolist()
    [5, 0, 3]
    """
    if isinstance(random_state, np.random.Generator):
        return np.random.RandomState(random_state.bit_generator) if legacy else random_state
    if isinstance(random_state, np.random.RandomState):
        # the RandomState's own bit generator (numpy names it _bit_generator; the global
        # one's is numpy.random.get_bit_generator()), so drawing advances the RandomState
        return random_state if legacy else np.random.Generator(random_state._bit_generator)
    if random_state is None:
        if legacy:
            return _sklearn_random_state(None)
        return np.random.Generator(np.random.get_bit_generator())
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state,
                                                                      (bool, np.bool_)):
        seed = int(random_state)
        if seed < 0 or (legacy and seed > 2**32 - 1):
            kind = "a seed in [0, 2**32 - 1]" if legacy else "a non-negative seed"
            raise ValueError(f"{name} must be {kind}, got {seed}.")
        return np.random.RandomState(seed) if legacy else np.random.default_rng(seed)
    raise _RandomStateTypeError(
        f"{name} must be None, an int seed, a numpy.random.RandomState or a "
        f"numpy.random.Generator, got {type(random_state).__name__} {random_state!r}.")



def random_state_for_scikit_learn(random_state, name: str = "random_state"):
    """``random_state`` checked (:func:`check_random_state`) and in a form scikit-learn takes:
    ``None``, an integer or a ``RandomState`` as given (an integer seeds in scikit-learn what
    it seeds there), a ``Generator`` as a ``RandomState`` on its bit generator.

    Examples
    --------
    >>> random_state_for_scikit_learn(3)
    3
    >>> generator = np.random.default_rng(0)
    >>> type(random_state_for_scikit_learn(generator)).__name__
    'RandomState'
    """
    checked = check_random_state(random_state, name, legacy=True)
    return checked if isinstance(random_state, np.random.Generator) else random_state

def check_seed(random_state, name: str = "random_state") -> np.random.RandomState:
    """``check_random_state(random_state, name, legacy=True)``: a ``RandomState``.

    Deprecated: call :func:`check_random_state` (with ``legacy=True`` for a
    ``RandomState``); ``check_seed`` will be removed in 0.4.
    """
    return check_random_state(random_state, name, legacy=True)


def check_broadcastable(**arrays) -> None:
    """Check that the array arguments broadcast together; the message names them.

    ``check_broadcastable(m_v=m_v, s_v=s_v)`` raises a ``ValueError`` such as "m_v, s_v must
    have shapes that broadcast together, got m_v (2,), s_v (3,)."

    Examples
    --------
    >>> from prunekit.validation import check_broadcastable
    >>> check_broadcastable(m_v=[1, 2], s_v=[[1], [2]])      # no error
    >>> check_broadcastable(m_v=[1, 2], s_v=[1, 2, 3])
    Traceback (most recent call last):
    ...
    ValueError: m_v, s_v must have shapes that broadcast together, ...
    """
    shapes = {name: np.shape(value) for name, value in arrays.items()}
    try:
        np.broadcast_shapes(*shapes.values())
    except ValueError:
        listed = ", ".join(f"{name} {shape}" for name, shape in shapes.items())
        raise ValueError(f"{', '.join(shapes)} must have shapes that broadcast together, "
                         f"got {listed}.") from None


# ---------------------------------------------------------------------- drawing options
def check_title(title, name: str = "title") -> None:
    """Raise a ``TypeError`` unless ``title`` is a string or ``None``."""
    if title is not None and not isinstance(title, str):
        raise TypeError(f"{name} must be a string or None, got {type(title).__name__}.")


def check_names(values, name: str, needed: int, what: str) -> list[str] | None:
    """``values`` as a list of at least ``needed`` strings (one per ``what``), or ``None``.

    Raises
    ------
    TypeError
        ``values`` is not a 1-D sequence (a string is not one).
    ValueError
        It has fewer than ``needed`` entries.

    Examples
    --------
    >>> from prunekit.validation import check_names
    >>> check_names(("age", "income"), "feature_names", 2, "feature")
    ['age', 'income']
    >>> check_names(["age"], "feature_names", 2, "feature")
    Traceback (most recent call last):
    ...
    ValueError: feature_names must have one entry per feature (2), got 1.
    """
    if values is None:
        return None
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__") \
            or np.ndim(values) != 1:
        raise TypeError(f"{name} must be a sequence of strings, one per {what}, got "
                        f"{type(values).__name__} {values!r}.")
    if len(values) < needed:
        raise ValueError(f"{name} must have one entry per {what} ({needed}), got {len(values)}.")
    return [str(value) for value in values]
