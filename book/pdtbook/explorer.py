"""Explorers that work without a kernel: every frame drawn in advance.

An explorer shows one figure per value of a slider (or per pair of values of two sliders).
:func:`explorer` draws every frame once, while the notebook runs, and keeps the frames in an
``ipywidgets.Stack``; the slider's position is linked to the Stack's ``selected_index`` with
``ipywidgets.jslink``. A link made with ``jslink`` runs in the browser, so the explorer works
without a kernel in any page that draws the saved widget state, as well as in a live
notebook; the book's web pages draw it without a widget manager, as HTML written from that
state when the book is built (``book/_ext/static_explorers.py``). Each frame is a PNG image
of the figure, under the text the drawing function printed, if any. Frames are drawn at twice
their pixels (192 dpi) and shown at the size they were drawn at (96 dpi), as the book's other
figures: sharp on a phone's screen and in the book's full-size view. Frames drawn ahead are
all the size of the largest (the smaller ones padded with white below and at the sides), so
that the page does not jump while a slider moves.

Drawing every frame takes a while (half a second a frame; Chapter 4's explorer has 50). Where
a kernel stays behind the page, as in Jupyter, ``frames="on-demand"`` (or the environment
variable ``PRUNEKIT_EXPLORER_FRAMES=on-demand``) draws only the frame the sliders start at and
each other frame when the sliders first reach it; a notebook saved that way keeps only the frames
drawn, so the book's notebooks are run with every frame drawn ahead.

Example::

    def draw(depth):
        tree = pk.id3(X, y, max_depth=depth)
        pk.plot_tree(tree)

    explorer(draw, {"depth": range(13)}, value={"depth": 3})
"""

from __future__ import annotations

import contextlib
import html
import io
import itertools
import os
import re
from collections.abc import Callable, Mapping, Sequence

from pdtbook._extras import require

__all__ = ["explorer", "frame_png", "pad_png", "png_size"]

DPI = 96
#: Frames are drawn at this many times their pixels and shown at the size drawn at ``DPI``.
SCALE = 2
#: The palette of a frame: a figure of lines, text and a few fills needs no more colours (the
#: frames of Chapter 4's explorer, 50 of them at 2x, then keep its page under 3 MB).
COLORS = 64
#: How an explorer draws its frames: every one when it is made, or each when first shown.
FRAME_MODES = ("ahead", "on-demand")
#: The environment variable that chooses the mode when ``explorer`` is not told.
FRAMES_VARIABLE = "PRUNEKIT_EXPLORER_FRAMES"
# The padding of an exponent as Python's format "g" writes it ("1e-06", "2.5e+07")
_EXPONENT = re.compile(r"e(-?)\+?0*(?=\d)")


def frame_png(figure, dpi: int = DPI, colors: int | None = COLORS,
              scale: int = SCALE) -> bytes:
    """The PNG bytes of a matplotlib figure, as a notebook shows it inline.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
        The figure to save.
    dpi : int, default 96
        Pixels per inch of the size the figure is shown at (the book shows figures at 96, so a
        7-inch figure is 672 px wide).
    colors : int or None, default 64
        The number of colours of the palette the image is reduced to (a figure of lines and
        dots loses nothing visible, and the file shrinks by about two thirds); None keeps
        the full colour image.
    scale : int, default 2
        The image has ``scale`` times the pixels of the size it is shown at (it is saved at
        ``scale * dpi``), so that it stays sharp on screens of high density.

    Returns
    -------
    bytes
        The PNG file, cropped to the drawing (``bbox_inches="tight"``, as the inline backend
        does), without a time stamp or software version, so the same figure always gives the
        same bytes.
    """
    if colors is not None and not 2 <= colors <= 256:
        raise ValueError(f"colors must be between 2 and 256 (or None), not {colors}")
    if not isinstance(scale, int) or scale < 1:
        raise ValueError(f"scale must be a positive integer, not {scale!r}")
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi * scale, bbox_inches="tight",
                   metadata={"Software": None})
    if colors is None:
        return buffer.getvalue()
    return _reduced(_open_rgb(buffer.getvalue()), colors)


def _open_rgb(png: bytes):
    """The image of a PNG file, in RGB on white (a transparent part turns white)."""
    from PIL import Image

    image = Image.open(io.BytesIO(png))
    if image.mode in ("RGBA", "LA", "P"):
        image = image.convert("RGBA")
        white = Image.new("RGBA", image.size, "white")
        image = Image.alpha_composite(white, image)
    return image.convert("RGB")


def _reduced(image, colors: int | None) -> bytes:
    """The PNG bytes of an RGB image, its palette reduced to ``colors`` (None: kept)."""
    from PIL import Image

    if colors is not None:
        image = image.quantize(colors=colors, method=Image.Quantize.MEDIANCUT,
                               dither=Image.Dither.NONE)
    small = io.BytesIO()
    image.save(small, format="PNG", optimize=True)
    return small.getvalue()


def png_size(png: bytes) -> tuple[int, int]:
    """The ``(width, height)`` in pixels of a PNG file."""
    from PIL import Image

    return Image.open(io.BytesIO(png)).size


def pad_png(png: bytes, size: tuple[int, int], colors: int | None = COLORS) -> bytes:
    """A PNG image on a white canvas of ``size``, centred across it and at its top.

    Parameters
    ----------
    png : bytes
        The PNG file, no larger than ``size`` either way.
    size : tuple of int
        The ``(width, height)`` of the canvas, in pixels.
    colors : int or None, default 64
        The palette of the padded image (see :func:`frame_png`).

    Returns
    -------
    bytes
        ``png`` itself when it already has that size, else the padded image as PNG bytes.

    Raises
    ------
    ValueError
        If the image is larger than ``size``.
    """
    from PIL import Image

    width, height = png_size(png)
    if (width, height) == tuple(size):
        return png
    if width > size[0] or height > size[1]:
        raise ValueError(f"a {width}x{height} image does not fit a {size[0]}x{size[1]} canvas")
    canvas = Image.new("RGB", tuple(size), "white")
    canvas.paste(_open_rgb(png), ((size[0] - width) // 2, 0))
    return _reduced(canvas, colors)


def _label(value) -> str:
    """A value as its slider's readout shows it: a float in at most six significant digits,
    its exponent without padding ("1e-6", "2.5e7"), anything else as ``str`` writes it."""
    if isinstance(value, float):
        return _EXPONENT.sub(r"e\1", f"{value:g}")
    return str(value)


def _options(name, values):
    """The (label, value) pairs of one slider; a value may be given as a (label, value) pair."""
    if isinstance(values, (str, bytes)) or not isinstance(values, (Sequence, range)):
        raise TypeError(f"sliders[{name!r}] must be a sequence of values, "
                        f"not {type(values).__name__}")
    values = list(values)
    if not values:
        raise ValueError(f"sliders[{name!r}] is empty: give at least one value")
    pairs = []
    for value in values:
        if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str):
            pairs.append(value)
        else:
            pairs.append((_label(value), value))
    labels = [label for label, _ in pairs]
    if len(set(labels)) != len(labels):
        raise ValueError(f"sliders[{name!r}] has two values with the same label: {labels}")
    return pairs


def _draw_png(draw, kwargs, dpi, colors):
    """Call ``draw(**kwargs)``; return its figure's PNG bytes and the text it printed."""
    import matplotlib.pyplot as plt

    before = set(plt.get_fignums())
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            draw(**kwargs)
        new = [n for n in plt.get_fignums() if n not in before]
        if not new:
            raise ValueError(f"draw({', '.join(f'{k}={v!r}' for k, v in kwargs.items())}) "
                             "drew no new figure (it must leave its figure open: "
                             "do not call plt.show() or plt.close())")
        png = frame_png(plt.figure(new[-1]), dpi, colors)
    finally:
        for n in plt.get_fignums():
            if n not in before:
                plt.close(n)
    return png, printed.getvalue()


def _frame_widget(png, text):
    """The widget of a frame: the image, shown at the size it was drawn at (half its pixels)
    and never wider than its column, under the printed text, if any."""
    widgets = require("ipywidgets", "pdtbook.explorer")

    width, height = png_size(png)
    image = widgets.Image(value=png, format="png", width=str(width // SCALE),
                          height=str(height // SCALE),
                          layout=widgets.Layout(max_width="100%", height="auto"))
    if not text:
        return image
    pre = widgets.HTML(f'<pre class="explorer-text">{html.escape(text.rstrip())}</pre>')
    return widgets.VBox([pre, image])


def _draw_frame(draw, kwargs, dpi, colors):
    """Call ``draw(**kwargs)``; return the widget showing its figure and printed text."""
    return _frame_widget(*_draw_png(draw, kwargs, dpi, colors))


def _same_size(frames, colors):
    """The frames ``(png, text)``, each image padded to the largest width and height."""
    sizes = [png_size(png) for png, _ in frames]
    size = (max(w for w, _ in sizes), max(h for _, h in sizes))
    return [(pad_png(png, size, colors), text) for png, text in frames]


def _frame_mode(frames: str | None) -> str:
    """``frames``, or the mode the environment variable names (default ``"ahead"``)."""
    if frames is None:
        frames = os.environ.get(FRAMES_VARIABLE) or "ahead"
        where = f"the environment variable {FRAMES_VARIABLE}"
    else:
        where = "frames"
    if frames not in FRAME_MODES:
        raise ValueError(f"{where} must be one of {list(FRAME_MODES)}, not {frames!r}")
    return frames


def _draw_on_demand(controls, frame_at, stack, placeholder):
    """Draw the frame at the sliders' position when they first reach it (see
    :func:`explorer`): the placeholder in its Stack is replaced by ``frame_at(position)``."""
    def show(_change=None):
        position = tuple(control.index for control in controls)
        *outer, last = position
        holder = stack.children[outer[0]] if outer else stack
        if holder.children[last] is placeholder:
            holder.children = (*holder.children[:last], frame_at(position),
                               *holder.children[last + 1:])

    for control in controls:
        control.observe(show, names="index")
    show()


def explorer(draw: Callable[..., object], sliders: Mapping[str, Sequence], *,
             value: Mapping[str, object] | None = None,
             descriptions: Mapping[str, str] | None = None, dpi: int = DPI,
             colors: int | None = COLORS, frames: str | None = None):
    """A slider explorer whose frames are drawn in advance by default, so it needs no kernel.

    Parameters
    ----------
    draw : callable
        Called once per frame as ``draw(**{name: value, ...})``, one keyword per slider. It
        draws one matplotlib figure and leaves it open (it must not call ``plt.show()``);
        what it prints is shown above the figure.
    sliders : mapping of str to sequence
        One or two sliders: the name of ``draw``'s keyword, and the values the slider runs
        over, in order. A value may be a ``(label, value)`` pair; otherwise the slider's
        readout shows ``f"{value:g}"`` for a float, its exponent without padding ("1e-6"),
        and ``str(value)`` for anything else.
    value : mapping of str to object, optional
        The position each slider starts at (a value of its list; default: its first value).
    descriptions : mapping of str to str, optional
        The text in front of each slider (default: its name).
    dpi : int, default 96
        Pixels per inch of the size the frames are shown at; they are drawn with twice the
        pixels (see :func:`frame_png`).
    colors : int or None, default 64
        The size of the frames' palette (see :func:`frame_png`); fewer colours make smaller
        pages.
    frames : {"ahead", "on-demand"}, optional
        ``"ahead"`` draws every frame now, so the explorer works without a kernel (on the
        book's pages), every frame the size of the largest (padded with white), so that the
        page keeps its layout while a slider moves; ``"on-demand"`` draws the first frame now
        and each other one when the sliders first reach it, which needs a live kernel.
        Default: the environment variable ``PRUNEKIT_EXPLORER_FRAMES``, else ``"ahead"``.

    Returns
    -------
    ipywidgets.VBox
        The sliders (``ipywidgets.SelectionSlider``), then the frames: an ``ipywidgets.Stack``
        of frames for one slider; for two, a Stack over the first slider's values whose
        children are Stacks over the second's. Each slider's ``index`` is linked to its
        Stacks' ``selected_index`` with ``ipywidgets.jslink``. The links are in the
        attribute ``links`` of the returned box.

    Raises
    ------
    TypeError
        If ``draw`` is not callable or a slider's values are not a sequence.
    ValueError
        If there are no sliders or more than two, a slider has no values or two values with
        the same label, ``value`` names an unknown slider or a value not in its list,
        ``colors`` is not between 2 and 256, ``frames`` (or the environment variable) names
        no mode, or ``draw`` leaves no figure open.
    """
    widgets = require("ipywidgets", "pdtbook.explorer")
    mode = _frame_mode(frames)
    if colors is not None and not 2 <= colors <= 256:
        raise ValueError(f"colors must be between 2 and 256 (or None), not {colors}")
    if not callable(draw):
        raise TypeError(f"draw must be a function that draws a figure, "
                        f"not {type(draw).__name__}")
    if not isinstance(sliders, Mapping):
        raise TypeError(f"sliders must be a mapping of name to values, "
                        f"not {type(sliders).__name__}")
    if not 1 <= len(sliders) <= 2:
        raise ValueError(f"an explorer has one or two sliders, not {len(sliders)}")
    options = {name: _options(name, values) for name, values in sliders.items()}
    value = dict(value or {})
    descriptions = dict(descriptions or {})
    for given, what in ((value, "value"), (descriptions, "descriptions")):
        unknown = sorted(set(given) - set(options))
        if unknown:
            raise ValueError(f"{what} names no slider: {unknown} "
                             f"(the sliders are {list(options)})")
    start = {}
    for name, pairs in options.items():
        values = [v for _, v in pairs]
        if name not in value:
            start[name] = 0
            continue
        matches = [i for i, v in enumerate(values) if v == value[name]]
        if not matches:
            raise ValueError(f"value[{name!r}] = {value[name]!r} is not one of the "
                             f"slider's values {[label for label, _ in pairs]}")
        start[name] = matches[0]

    names = list(options)
    controls = [
        widgets.SelectionSlider(
            options=[(label, i) for i, (label, _) in enumerate(options[name])],
            index=start[name], description=descriptions.get(name, name),
            continuous_update=True, layout=widgets.Layout(width="95%"))
        for name in names
    ]

    def frame_at(position):
        kwargs = {name: options[name][i][1] for name, i in zip(names, position)}
        return _draw_frame(draw, kwargs, dpi, colors)

    placeholder = widgets.HTML("drawing…")
    sizes = [len(options[name]) for name in names]
    if mode == "ahead":
        positions = list(itertools.product(*(range(size) for size in sizes)))
        drawn = _same_size([_draw_png(draw, {name: options[name][i][1]
                                             for name, i in zip(names, position)},
                                      dpi, colors) for position in positions], colors)
        ready = dict(zip(positions, (_frame_widget(*frame) for frame in drawn)))
        frame = ready.__getitem__
    else:
        def frame(_position):
            return placeholder
    if len(names) == 1:
        stack = widgets.Stack([frame((i,)) for i in range(sizes[0])],
                              selected_index=start[names[0]])
        inner = [stack]
    else:
        inner = [widgets.Stack([frame((i, j)) for j in range(sizes[1])],
                               selected_index=start[names[1]]) for i in range(sizes[0])]
        stack = widgets.Stack(inner, selected_index=start[names[0]])
    links = [widgets.jslink((controls[0], "index"), (stack, "selected_index"))]
    if len(names) == 2:
        links += [widgets.jslink((controls[1], "index"), (s, "selected_index"))
                  for s in inner]
    if mode == "on-demand":
        _draw_on_demand(controls, frame_at, stack, placeholder)
    box = widgets.VBox([*controls, stack])
    box.links = links
    return box
