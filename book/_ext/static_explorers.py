"""The chapters' explorers on the web page, drawn when the book is built.

An explorer (``pdtbook.explorer``) is a widget: sliders over a figure, every position drawn in
advance and stored in the notebook's widget state. Jupyter's widget manager could draw it on
the static page, but it weighs 0.9 MB compressed, brings RequireJS, reads every frame from the
page's widget state (base64 in the HTML) and keeps a phone busy for seconds before the page
can be used. For the HTML builder, each explorer's output becomes plain HTML instead:

* a ``<figure class="explorer">`` holding, for each slider, a visible ``<label>`` with the
  slider's description, a "−" and a "+" button of 44 px that step it to the previous or next
  value (a step of a slider over 20 values is a few pixels on a phone), a readout of the
  value's label (the option labels of the widget: "0.0156", "1e-6") and a native
  ``<input type="range">`` over the positions, whose ``aria-valuetext`` is that label;
* the text the frame prints, if any, in a ``<pre class="explorer-text">`` above the figure;
* the frame the sliders start at, an ``<img>`` with its width and height (half its pixels:
  frames are drawn at 2x), so that nothing moves when it loads.

Every frame is an image file of its own, named after the hash of its bytes, that Sphinx copies
into ``_images`` (the images of the explorer's node); the figure's ``data-frames`` lists the
frame of every combination of positions, the first slider's positions outermost
(:func:`read_explorer` finds it as the browser would: each slider's position is given to the
Stacks it is linked to, and the widget is walked from its model id). The page's HTML no longer
holds the widget state, nor loads the widget manager: ``book/js/explorers.js``, a few kB,
loaded only on the pages with an explorer, fetches a frame when the sliders reach it (and the
frames next to it ahead) and shows it. book.css lays the sliders out.

A widget output that is not an explorer (no selection slider, or no image where its sliders
start) is shown by its next MIME type (its text: a progress bar's last state); an explorer
that lacks a frame (a notebook saved with its frames drawn on demand) is shown by the PNG of
its first frame (``explorer_frames``), with a warning. The LaTeX builder never picks a widget
output: the PDF edition keeps the PNG of ``explorer_frames``. The frames' URIs on the page are
those Sphinx's own HTML translator gives an image (``builder.images`` and ``imgpath``).
"""

from __future__ import annotations

import html
import itertools
import json
import posixpath
import struct
import urllib.parse
from dataclasses import dataclass, field

from docutils import nodes
from explorer_frames import (_MODEL_ID, WIDGET_STATE, WIDGET_VIEW, _child, _widget_state,
                             frame_uri, html_text, image_bytes, readable_label, visible_models)
from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

SCRIPT = "explorers.js"
#: The links that tie a slider's position to the Stacks of frames (``ipywidgets.jslink``).
LINKS = ("LinkModel", "DirectionalLinkModel")
MINUS = "\u2212"


@dataclass
class Slider:
    """One slider of an explorer: its model id, description, option labels and position."""

    model_id: str
    description: str
    labels: list[str]
    start: int


@dataclass
class Frame:
    """What an explorer shows at one position: the image, its size as shown, the text."""

    png: bytes
    width: int | None
    height: int | None
    text: str = ""


@dataclass
class Explorer:
    """An explorer read from a widget state: its sliders and the frame of every combination of
    their positions, the first slider's outermost (None where the state holds no frame)."""

    sliders: list[Slider]
    frames: list[Frame | None] = field(default_factory=list)

    @property
    def start(self) -> int:
        """The index in ``frames`` of the position the sliders start at."""
        return frame_index(self.sliders, [slider.start for slider in self.sliders])


def frame_index(sliders: list, position: list[int]) -> int:
    """The index of a combination of positions among all of them, the first outermost."""
    index = 0
    for slider, at in zip(sliders, position):
        index = index * len(slider.labels) + at
    return index


def _png_pixels(png: bytes) -> tuple[int, int] | None:
    """The width and height in pixels a PNG file's header gives (None if not a PNG)."""
    if png[:8] != b"\x89PNG\r\n\x1a\n" or len(png) < 24:
        return None
    return struct.unpack(">II", png[16:24])


def _shown_size(model: dict, png: bytes) -> tuple[int | None, int | None]:
    """The size an Image widget shows its image at: its width and height (in px), else the
    image's pixels."""
    values = model["state"]
    try:
        return int(values.get("width")), int(values.get("height"))
    except (TypeError, ValueError):
        return _png_pixels(png) or (None, None)


def linked_stacks(state: dict) -> dict[str, list[str]]:
    """For each slider, the Stacks whose ``selected_index`` its ``index`` is linked to."""
    linked: dict[str, list[str]] = {}
    for model in state.values():
        if model["model_name"] not in LINKS:
            continue
        ends = [model["state"].get(end) or [None, None] for end in ("source", "target")]
        traits = {trait: _child(reference) for reference, trait in ends if reference}
        if "index" in traits and "selected_index" in traits:
            linked.setdefault(traits["index"], []).append(traits["selected_index"])
    return linked


def _frame(state: dict, model_id: str, selected: dict) -> Frame | None:
    """The frame a widget shows with its Stacks at ``selected``: its one image and the text
    above it (None when it shows no image, or more than one)."""
    shown = visible_models(state, model_id, selected)
    images = [(model, image_bytes(model)) for _, model in shown
              if model["model_name"] == "ImageModel"]
    if len(images) != 1 or images[0][1] is None:
        return None
    (model, png), = images
    texts = [html_text(model["state"]) for _, model in shown
             if model["model_name"] == "HTMLModel"]
    return Frame(png, *_shown_size(model, png), text="\n".join(t for t in texts if t))


def read_explorer(state: dict, model_id: str) -> Explorer | None:
    """The explorer a widget is, read from the widget state (None if it is not one: no
    selection slider, or no image where its sliders start).

    Each combination of the sliders' positions selects, in every Stack linked to a slider, the
    child at that slider's position (what ``jslink`` does in the browser); the frame is what
    the widget then shows.
    """
    sliders = [Slider(found, model["state"].get("description", ""),
                      [readable_label(label) for label in model["state"]["_options_labels"]],
                      model["state"].get("index") or 0)
               for found, model in visible_models(state, model_id)
               if model["model_name"] == "SelectionSliderModel"
               and model["state"].get("_options_labels")]
    if not sliders:
        return None
    links = linked_stacks(state)
    frames = []
    for position in itertools.product(*(range(len(slider.labels)) for slider in sliders)):
        selected = {stack: at for slider, at in zip(sliders, position)
                    for stack in links.get(slider.model_id, [])}
        frames.append(_frame(state, model_id, selected))
    explorer = Explorer(sliders, frames)
    return explorer if frames[explorer.start] is not None else None


# ---- HTML ---------------------------------------------------------------------------------

def _attribute(value) -> str:
    """A JSON value as the value of an HTML attribute, in single quotes (which it escapes)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return "'" + html.escape(text, quote=False).replace("'", "&#x27;") + "'"


def settings_text(sliders: list, position: list[int]) -> str:
    """The sliders' settings in words: "delta = 0.05, c = 0.25"."""
    return ", ".join(f"{slider.description} = {slider.labels[at]}"
                     for slider, at in zip(sliders, position))


def _slider_html(key: str, number: int, slider: Slider) -> str:
    """A slider: its label, "−", the readout, "+" and the range input."""
    ident = f"{key}-{number}"
    name = html.escape(slider.description or f"slider {number + 1}")
    label = html.escape(slider.labels[slider.start])
    width = max(len(label) for label in slider.labels)

    def step(sign: str, direction: int, what: str) -> str:
        return (f'<button type="button" class="explorer-step" data-step="{direction}" '
                f'aria-controls="{ident}" aria-label="{name}: {what} value">{sign}</button>')

    return (f'<div class="explorer-slider">'
            f'<label class="explorer-label" for="{ident}">{name}</label>'
            f'{step(MINUS, -1, "previous")}'
            f'<span class="explorer-readout" style="min-width: {width}ch">{label}</span>'
            f'{step("+", 1, "next")}'
            f'<input type="range" class="explorer-range" id="{ident}" min="0" '
            f'max="{len(slider.labels) - 1}" step="1" value="{slider.start}" '
            f'autocomplete="off" aria-valuetext="{label}" '
            f'data-labels={_attribute(slider.labels)}></div>')


def _size_attributes(width, height) -> str:
    return f' width="{width}" height="{height}"' if width and height else ""


def explorer_html(key: str, explorer: Explorer, uris: list[str]) -> str:
    """The HTML of an explorer whose frames are at ``uris`` (one a position, as
    ``explorer.frames``): its sliders, then the text and image of the frame it starts at.

    The figure's ``data-frames`` gives each position's frame as ``[uri, width, height]``, and
    ``data-texts`` (when a frame prints text) each position's text, for
    ``book/js/explorers.js``.
    """
    sliders, start = explorer.sliders, explorer.start
    frames = [[uri, frame.width, frame.height] for uri, frame in zip(uris, explorer.frames)]
    texts = [frame.text for frame in explorer.frames]
    where = html.escape(settings_text(sliders, [slider.start for slider in sliders]))
    first = explorer.frames[start]
    out = [f'<figure class="explorer" id="{key}" data-frames={_attribute(frames)}'
           + (f" data-texts={_attribute(texts)}>" if any(texts) else ">"),
           '<div class="explorer-sliders">',
           *(_slider_html(key, number, slider) for number, slider in enumerate(sliders)),
           "</div>"]
    if any(texts):
        hidden = "" if first.text else " hidden"
        out.append(f'<pre class="explorer-text"{hidden}>{html.escape(first.text)}</pre>')
    out.append(f'<img class="explorer-frame" src="{html.escape(uris[start])}"'
               f'{_size_attributes(first.width, first.height)} '
               f'alt="The explorer&#x27;s figure at {where}">')
    out.append("</figure>")
    return "\n".join(out) + "\n"


# ---- Sphinx -------------------------------------------------------------------------------

class explorer(nodes.General, nodes.Element):  # noqa: N801 - docutils names nodes so
    """An explorer on the web page: its image nodes are its distinct frames (which Sphinx
    copies to ``_images``), its attributes the rest (see :func:`explorer_node`)."""


def explorer_node(app: Sphinx, key: str, found: Explorer) -> explorer:
    """The node of an explorer, its frames written to files (one a distinct image)."""
    uris = [frame_uri(app, frame.png) for frame in found.frames]
    distinct = list(dict.fromkeys(uris))
    node = explorer(key=key, frame_files=[distinct.index(uri) for uri in uris],
                    sliders=[vars(slider) for slider in found.sliders],
                    frames=[[frame.width, frame.height, frame.text] for frame in found.frames])
    node.extend(nodes.image(uri=uri, alt="") for uri in distinct)
    return node


def _copied_uri(translator, uri: str) -> str:
    """Where the HTML builder copies an image of the page (into ``_images``), from the page."""
    images = translator.builder.images
    if uri not in images:
        return uri
    return posixpath.join(translator.builder.imgpath, urllib.parse.quote(images[uri]))


def visit_explorer(self, node: explorer) -> None:
    """HTML: the explorer (:func:`explorer_html`), its frames where Sphinx copies them."""
    files = [_copied_uri(self, image["uri"]) for image in node.findall(nodes.image)]
    uris = [files[index] for index in node["frame_files"]]
    found = Explorer([Slider(**slider) for slider in node["sliders"]],
                     [Frame(b"", width, height, text) for width, height, text in node["frames"]])
    self.body.append(explorer_html(node["key"], found, uris))
    raise nodes.SkipNode


def skip(self, node: nodes.Node) -> None:
    """Other builders: nothing (they never pick a widget's output)."""
    raise nodes.SkipNode


def draw_explorers(app: Sphinx, doctree: nodes.document) -> None:
    """Replace the widget of every explorer's output by its explorer node; give the other
    widget outputs their next MIME type (see the module's docstring). Runs after
    ``explorer_frames`` (which reads the widget) and before Sphinx collects the page's
    images."""
    state = None
    for bundle in list(doctree.findall(nodes.container)):
        if bundle.get("nb_element") != "mime_bundle":
            continue
        view = next((child for child in bundle.children
                     if child.get("mime_type") == WIDGET_VIEW), None)
        found = _MODEL_ID.search(view.astext()) if view is not None else None
        if found is None:
            continue
        if state is None:
            state = _widget_state(app.env, app.env.docname)
        read = read_explorer(state, found.group(1))
        if read is not None and None in read.frames:
            logger.warning(f"an explorer lacks {read.frames.count(None)} of its "
                           f"{len(read.frames)} frames (run its notebook with every frame "
                           "drawn ahead); the page shows its first frame",
                           location=bundle)
        if read is None or None in read.frames:
            bundle.remove(view)
            continue
        view.clear()
        view += explorer_node(app, f"explorer-{found.group(1)[:8]}", read)


def page_scripts(app: Sphinx, pagename: str, templatename: str, context: dict,
                 doctree: nodes.document | None) -> None:
    """The page's scripts: without the widget state myst-nb adds to a notebook's page (no
    widget is drawn in the browser), with explorers.js where the page has an explorer."""
    scripts = context.get("script_files")
    if isinstance(scripts, list):
        scripts[:] = [script for script in scripts
                      if getattr(script, "attributes", {}).get("type") != WIDGET_STATE]
    if doctree is not None and next(doctree.findall(explorer), None) is not None:
        app.add_js_file(SCRIPT, loading_method="defer")


def setup(app: Sphinx) -> dict:
    app.add_node(explorer, html=(visit_explorer, None), latex=(skip, None),
                 text=(skip, None), man=(skip, None), texinfo=(skip, None))
    app.connect("doctree-read", draw_explorers, priority=420)
    app.connect("html-page-context", page_scripts, priority=600)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
