"""What the tests of the book's figures measure: the text a reader sees, at its drawn size.

Every figure of the book is drawn at most 7 inches wide (the text column at 96 dpi) with no
text under 9 points, so that it is shown at the size it is drawn.
"""

from __future__ import annotations

MAX_WIDTH_INCHES = 7.0
MIN_FONT_POINTS = 9.0


def drawn_texts(fig) -> list:
    """Every non-empty, visible text of ``fig``: titles, axis and tick labels of the axes
    that are shown, annotations, legends (of axes and of the figure) and figure texts."""
    fig.canvas.draw()  # tick labels exist once the figure is drawn
    texts = list(fig.texts)
    if getattr(fig, "_suptitle", None) is not None:
        texts.append(fig._suptitle)
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        texts += [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label]
        texts += ax.texts
        if ax.axison:
            texts += ax.get_xticklabels() + ax.get_yticklabels()
        if ax.get_legend() is not None:
            texts += ax.get_legend().get_texts()
    for legend in fig.legends:
        texts += legend.get_texts()
    return [t for t in texts if t.get_text() and t.get_visible()]


def smallest_font(fig) -> float:
    """The smallest font size, in points, of the text a reader sees in ``fig``."""
    return min(t.get_fontsize() for t in drawn_texts(fig))


def fits_the_column(fig) -> bool:
    """Whether ``fig`` is at most 7 in wide with no text under 9 pt."""
    return (fig.get_size_inches()[0] <= MAX_WIDTH_INCHES + 1e-9
            and smallest_font(fig) >= MIN_FONT_POINTS)
