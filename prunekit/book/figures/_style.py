"""The book's style rule for its figures, and the checks the chapter figures share.

Every figure of the book is drawn at the width it is shown at, at most 7 inches (the text
column at 96 dpi), with no text under 9 points: :func:`_check_drawing_size` refuses a wider
figure or a smaller font. The rule is the book's, not the library's: the core's drawing
(:mod:`prunekit.plotting`) draws at any size.
"""

from __future__ import annotations

import numpy as np

from prunekit._validation import as_array, check_real
from prunekit.tree import Pruning, Tree, check_tree

#: The widest figure of the book, in inches (the text column at 96 dpi).
MAX_WIDTH_INCHES = 7.0
#: The smallest text of the book's figures, in points.
MIN_FONT_POINTS = 9.0


def _check_drawing_size(width: float, fontsize: float) -> None:
    if check_real(width, "width", minimum=0, strict=True) > 7:
        raise ValueError(f"width must be a number of inches in (0, 7], got {width!r}.")
    if check_real(fontsize, "fontsize") < 9:
        raise ValueError(f"fontsize must be a number of points of at least 9, got {fontsize!r}.")


def _check_pruning_of(tree: Tree, pruning) -> None:
    """``tree`` is a Tree and ``pruning`` one of its prunings (errors name the argument)."""
    check_tree(tree)
    if not isinstance(pruning, Pruning) or pruning.tree is not tree:
        raise ValueError("pruning must be a Pruning of tree.")


def _curve(values, name: str, length: int | None = None, finite: bool = True, *,
           positive: bool = False) -> np.ndarray:
    """A 1-D float array, one value per point of a plot, with errors that name ``name``.

    ``length``: the number of points it must have; ``finite``: refuse NaN and infinity;
    ``positive``: refuse values ≤ 0 (the values are drawn on a log scale).
    """
    values = as_array(values, name, ndim=1, dtype=np.float64, finite=finite).astype(float)
    if length is not None and len(values) != length:
        raise ValueError(f"{name} must have one value per point ({length}), got "
                         f"{len(values)}.")
    if positive and np.any(values <= 0):
        raise ValueError(f"{name} must be positive (it is drawn on a log scale).")
    return values


def _positive_increasing(values, name: str) -> np.ndarray:
    """A curve's x values that must be positive and increasing (e.g. sizes of trees).

    A ``ValueError`` names ``name`` if a value is not finite, is ≤ 0, or is not larger than
    the one before it.

    Parameters
    ----------
    values : sequence of float
        The x values, finite.
    name : str
        The argument's name, used in error messages.

    Returns
    -------
    ndarray
        The values, as a 1-D float array.
    """
    values = _curve(values, name)
    if np.any(values <= 0) or np.any(np.diff(values) <= 0):
        raise ValueError(f"{name} must be positive and increasing.")
    return values


def _increasing_points(values, name: str, *, positive: bool = False) -> np.ndarray:
    """A curve's x values: at least two finite numbers, each larger than the one before.

    Parameters
    ----------
    values : sequence of float
        The x values.
    name : str
        The argument's name, used in error messages.
    positive : bool, default False
        Refuse values ≤ 0 (the values are drawn on a log scale), before the other checks.

    Returns
    -------
    ndarray
        The values as a 1-D float array.

    Raises
    ------
    ValueError
        If there are fewer than two values, a value is not finite (or, with ``positive``,
        ≤ 0), or a value is not larger than the one before it.
    """
    values = _curve(values, name, positive=positive)
    if len(values) < 2 or np.any(np.diff(values) <= 0):
        raise ValueError(f"{name} must be at least two increasing numbers.")
    return values


def _mean_and_standard_error(values: np.ndarray):
    """Mean over the seeds (axis 0) and its standard error (0 with a single seed)."""
    n = values.shape[0]
    spread = values.std(axis=0, ddof=1) if n > 1 else np.zeros(values.shape[1:])
    return values.mean(axis=0), spread / np.sqrt(n)
