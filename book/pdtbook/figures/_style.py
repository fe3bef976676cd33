"""The book's style rule for its figures, and the checks the chapter figures share.

Every figure of the book is drawn at the width it is shown at, at most 7 inches (the text
column at 96 dpi), with no text under 9 points: :func:`_check_drawing_size` refuses a wider
figure or a smaller font. The rule is the book's, not the library's: the core's drawing
(:mod:`prunekit.plotting`) draws at any size.
"""

from __future__ import annotations

import numpy as np

from prunekit.validation import as_array, check_real, check_title
from prunekit.tree import Pruning, Tree, check_tree

from pdtbook._docstrings import shared_sections

#: The widest figure of the book, in inches (the text column at 96 dpi).
MAX_WIDTH_INCHES = 7.0
#: The smallest text of the book's figures, in points.
MIN_FONT_POINTS = 9.0

#: The end of every chapter figure's docstring: its ``width`` and ``fontsize`` (the book's
#: style rule) and the figure it returns. ``@_figure_docstring`` puts it in place of the line
#: ``{width_fontsize_returns}``.
_WIDTH_FONTSIZE_RETURNS = """\
width : float, default 7.0
    Figure width in inches, at most 7.
fontsize : float, default 9
    Smallest font size in points, at least 9.

Returns
-------
matplotlib Figure"""
_figure_docstring = shared_sections(width_fontsize_returns=_WIDTH_FONTSIZE_RETURNS)


def show_inline_figures_sharp() -> bool:
    """Show a notebook's figures as 2x PNGs at the size they were drawn at.

    In an IPython kernel, switches matplotlib's inline figures to IPython's ``retina``
    format: a PNG of twice the pixels (192 dpi) that declares the drawn size (96 dpi) as its
    width and height. Jupyter and the book's pages (myst-nb keeps the declared size) show it at
    the drawn size, sharp on high-density screens and in the book's full-size view of a
    figure, where text of 9 points is 12 px. Outside IPython nothing changes.

    Returns
    -------
    bool
        True when the inline figures were switched (an IPython shell is running).
    """
    try:
        from IPython import get_ipython
        from IPython.core.pylabtools import select_figure_formats
        from matplotlib_inline.config import InlineBackend
    except ImportError:  # no IPython: figures are saved, not shown inline
        return False
    shell = get_ipython()
    if shell is None:
        return False
    config = InlineBackend.instance()
    config.figure_formats = {"retina"}
    select_figure_formats(shell, {"retina"}, **config.print_figure_kwargs)
    return True


def _check_drawing_size(width: float, fontsize: float, height: float | None = None,
                        height_name: str = "height") -> float | None:
    """Check a figure's size against the book's style rule.

    Parameters
    ----------
    width : float
        The figure's width in inches, in (0, 7].
    fontsize : float
        Its smallest font size in points, at least 9.
    height : float, optional
        A height in inches (of the figure, or of one of its rows or panels), positive.
    height_name : str, default "height"
        The argument ``height`` was passed as, for error messages.

    Returns
    -------
    float or None
        The height as a float, or None when none was given.

    Raises
    ------
    ValueError
        If a value is out of its range (checked in the order width, fontsize, height).
    TypeError
        If a value is not a real number.
    """
    if check_real(width, "width", minimum=0, strict=True) > 7:
        raise ValueError(f"width must be a number of inches in (0, 7], got {width!r}.")
    if check_real(fontsize, "fontsize") < 9:
        raise ValueError(f"fontsize must be a number of points of at least 9, got {fontsize!r}.")
    if height is None:
        return None
    return check_real(height, height_name, minimum=0, strict=True)


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


def _panel_dicts(panels, name: str, content: str, check_curve) -> list[dict]:
    """A figure's panels, given as a sequence of non-empty dicts of curves, one per panel.

    Parameters
    ----------
    panels : sequence of dict
        One dict per panel, mapping a legend label to a curve.
    name : str
        The argument's name, used in error messages.
    content : str
        What a panel's dict holds, for the error message (e.g. ``"of curves"``).
    check_curve : callable
        ``check_curve(values, name)`` checks one curve and returns it; ``name`` is
        ``"<name>[k][<label>]"``.

    Returns
    -------
    list of dict
        Per panel, the labels mapped to the checked curves, in the given order.

    Raises
    ------
    TypeError
        If ``panels`` is a dict or not a sequence, or a panel is not a non-empty dict.
    ValueError
        If there is no panel (and whatever ``check_curve`` raises).
    """
    if isinstance(panels, dict) or not hasattr(panels, "__iter__"):
        raise TypeError(f"{name} must be a sequence of dicts, one per panel.")
    panels = list(panels)
    if not panels:
        raise ValueError(f"{name} must hold at least one dict.")
    checked = []
    for k, panel in enumerate(panels):
        if not isinstance(panel, dict) or not panel:
            raise TypeError(f"{name}[{k}] must be a non-empty dict {content}.")
        checked.append({label: check_curve(curve, f"{name}[{k}][{label!r}]")
                        for label, curve in panel.items()})
    return checked


def _panel_titles(titles, n_panels: int, per: str = "panel") -> list:
    """One title (a string or None) per panel of a figure.

    Parameters
    ----------
    titles : sequence of str or None, or None
        The titles; None gives no title to any panel.
    n_panels : int
        The number of panels.
    per : str, default "panel"
        What a panel draws, for the error message (e.g. ``"group"``).

    Returns
    -------
    list
        ``n_panels`` titles, each a string or None.

    Raises
    ------
    ValueError
        If there are not ``n_panels`` titles.
    TypeError
        If a title is neither a string nor None.
    """
    titles = [None] * n_panels if titles is None else list(titles)
    if len(titles) != n_panels:
        raise ValueError(f"titles must have one entry per {per} ({n_panels}), got "
                         f"{len(titles)}.")
    for k, title in enumerate(titles):
        check_title(title, f"titles[{k}]")
    return titles


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
