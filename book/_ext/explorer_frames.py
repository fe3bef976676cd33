"""The chapters' explorers on paper: the frame each one starts at, as an image.

An explorer (``pdtbook.explorer``) is a widget: sliders over a figure, every position drawn in
advance and stored in the notebook's widget state. A widget cannot run on paper, and myst-nb
gives the LaTeX builder nothing to show for it. Each explorer's output is given, next to its
widget, a PNG alternative: the frame its sliders start at, read from the widget state the
notebook stores, under a line that gives the sliders' settings in words ("Explorer shown at
alpha = 0.01. On the web page or in the notebook, its sliders show every other value.").

myst-nb keeps every MIME type of an output and lets each builder pick one: the HTML builder
still picks the widget's output, the LaTeX builder (the PDF edition) the image. A widget output
that already has a PNG, or whose state holds no image, is left as it is.

For the web page, ``static_explorers`` turns the widget's output into the explorer's HTML,
read from the same widget state (:func:`visible_models` walks a widget as the browser would
show it, at any position of its sliders).
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import os
import re
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
_MODEL_ID = re.compile(r'"model_id":\s*"([0-9a-f]+)"')
_TAGS = re.compile(r"<[^>]+>")
BOXES = ("VBoxModel", "HBoxModel", "BoxModel", "GridBoxModel")
SLIDERS = ("SelectionSliderModel", "IntSliderModel", "FloatSliderModel")
_PADDED_EXPONENT = re.compile(r"^([-+]?\d+(?:\.\d+)?)e(-?)\+?0*(\d+)$")


def _widget_state(env: BuildEnvironment, docname: str) -> dict:
    """The widget models a notebook stores in its metadata, by model id ({} if none)."""
    path = Path(env.doc2path(docname))
    if path.suffix != ".ipynb":
        return {}
    metadata = json.loads(path.read_text(encoding="utf-8")).get("metadata", {})
    return metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})


def _child(reference: str) -> str:
    return reference.removeprefix("IPY_MODEL_")


def visible_models(state: dict, model_id: str, selected: dict | None = None) -> list:
    """The models a widget shows, in order, walked from its model id.

    A Stack shows only its selected child (``selected[stack_id]`` when given, else the
    ``selected_index`` the state stores), a box all of its children; every other model is
    shown as itself. Returns ``(model_id, model)`` pairs for the models that are not boxes or
    Stacks; a model the state does not hold is left out.
    """
    model = state.get(model_id)
    if model is None:
        return []
    name, values = model["model_name"], model["state"]
    if name == "StackModel":
        children = values.get("children", [])
        if not children:
            return []
        index = (selected or {}).get(model_id, values.get("selected_index") or 0)
        return visible_models(state, _child(children[index]), selected)
    if name in BOXES:
        return [found for child in values.get("children", [])
                for found in visible_models(state, _child(child), selected)]
    return [(model_id, model)]


def readable_label(label) -> str:
    """A slider's label as pdtbook.explorer writes it: a number in Python's format "g" without
    the padding of its exponent ("1e-6", where notebooks stored before wrote "1e-06")."""
    return _PADDED_EXPONENT.sub(r"\1e\2\3", str(label))


def slider_label(values: dict) -> str:
    """The label a slider's readout shows for its position (a selection slider's option
    label, else its value)."""
    labels = values.get("_options_labels")
    return readable_label(labels[values["index"]] if labels else values.get("value"))


def image_bytes(model: dict) -> bytes | None:
    """The PNG (or other image file) an ImageModel holds, or None."""
    for buffer in model.get("buffers", []):
        if buffer.get("path") == ["value"]:
            return base64.b64decode(buffer["data"])
    return None


def html_text(values: dict) -> str:
    """The text an HTMLModel shows, without its tags."""
    return html.unescape(_TAGS.sub("", values.get("value", ""))).strip("\n")


def static_frame(state: dict, model_id: str, settings: list, parts: list) -> None:
    """Walk a widget from its model id as the page first shows it.

    Appends to ``settings`` each slider's ``(description, label)`` and to ``parts`` what is
    visible, in order: ``("image", png_bytes)`` and ``("text", str)``. A Stack shows only
    its selected child, a box all of its children.
    """
    for _, model in visible_models(state, model_id):
        name, values = model["model_name"], model["state"]
        if name in SLIDERS:
            settings.append((values.get("description", ""), slider_label(values)))
        elif name == "ImageModel":
            png = image_bytes(model)
            if png is not None:
                parts.append(("image", png))
        elif name == "HTMLModel":
            text = html_text(values)
            if text:
                parts.append(("text", text))


def frame_uri(app: Sphinx, png: bytes) -> str:
    """The image file of a frame, written once into myst-nb's output folder under the hash of
    its bytes; returns its URI for an image node (from the source folder)."""
    folder = Path(app.env.mystnb_config.output_folder)
    path = folder / f"{hashlib.sha256(png).hexdigest()}.png"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
    return "/" + os.path.relpath(path.resolve(), app.srcdir)


def _frame_nodes(app: Sphinx, settings: list, parts: list) -> list:
    """The docutils nodes of a static frame: the sliders' settings, then text and images."""
    where = ", ".join(f"{description} = {label}" for description, label in settings)
    note = nodes.paragraph()
    note += nodes.emphasis(text=f"Explorer shown at {where}. On the web page or in the "
                                "notebook, its sliders show every other value.")
    out = [note]
    for kind, content in parts:
        if kind == "text":
            out.append(nodes.literal_block(content, content))
        else:
            out.append(nodes.image(uri=frame_uri(app, content),
                                   alt=f"The explorer's figure at {where}"))
    return out


def add_static_frames(app: Sphinx, doctree: nodes.document) -> None:
    """Give every widget output a PNG alternative: the frame the widget first shows.

    myst-nb keeps every MIME type of an output and lets each builder pick one (HTML: the
    widget's, which ``static_explorers`` then draws as HTML; LaTeX: a PNG). Runs before
    Sphinx collects the images of the page.
    """
    bundles = [node for node in doctree.findall(nodes.container)
               if node.get("nb_element") == "mime_bundle"]
    state = None
    for bundle in bundles:
        types = {child.get("mime_type"): child for child in bundle.children}
        if WIDGET_VIEW not in types or "image/png" in types:
            continue
        found = _MODEL_ID.search(types[WIDGET_VIEW].astext())
        if found is None:
            continue
        if state is None:
            state = _widget_state(app.env, app.env.docname)
        settings, parts = [], []
        static_frame(state, found.group(1), settings, parts)
        if not any(kind == "image" for kind, _ in parts):
            continue
        png = nodes.container(mime_type="image/png")
        png.extend(_frame_nodes(app, settings, parts))
        bundle.append(png)


def setup(app: Sphinx) -> dict:
    app.connect("doctree-read", add_static_frames, priority=400)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
