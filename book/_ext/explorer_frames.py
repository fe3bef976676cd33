"""The chapters' explorers on paper: the frame each one starts at, as an image.

An explorer (``pdtbook.explorer``) is a widget: sliders over a figure, every position drawn in
advance and stored in the notebook's widget state. A widget cannot run on paper, and myst-nb
gives the LaTeX builder nothing to show for it. Each explorer's output is given, next to its
widget, a PNG alternative: the frame its sliders start at, read from the widget state the
notebook stores, under a line that gives the sliders' settings in words ("Explorer shown at
alpha = 0.01. On the web page or in the notebook, its sliders show every other value.").

myst-nb keeps every MIME type of an output and lets each builder pick one: the HTML builder
still picks the widget, the LaTeX builder (the PDF edition) the image. A widget output that
already has a PNG, or whose state holds no image, is left as it is.

On the web page, every page loads ``book/js/explorers.js``, which names each slider's handle
after its parameter and gives the slider "−" and "+" buttons that step it (a step of a slider
is a few pixels on a phone); book.css lays the sliders out at the column's width on a phone.
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


def _widget_state(env: BuildEnvironment, docname: str) -> dict:
    """The widget models a notebook stores in its metadata, by model id ({} if none)."""
    path = Path(env.doc2path(docname))
    if path.suffix != ".ipynb":
        return {}
    metadata = json.loads(path.read_text(encoding="utf-8")).get("metadata", {})
    return metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})


def _child(reference: str) -> str:
    return reference.removeprefix("IPY_MODEL_")


def static_frame(state: dict, model_id: str, settings: list, parts: list) -> None:
    """Walk a widget from its model id as the page first shows it.

    Appends to ``settings`` each slider's ``(description, label)`` and to ``parts`` what is
    visible, in order: ``("image", png_bytes)`` and ``("text", str)``. A Stack shows only
    its selected child, a box all of its children.
    """
    model = state.get(model_id)
    if model is None:
        return
    name, values = model["model_name"], model["state"]
    if name == "StackModel":
        children = values.get("children", [])
        if children:
            index = values.get("selected_index") or 0
            static_frame(state, _child(children[index]), settings, parts)
    elif name in ("VBoxModel", "HBoxModel", "BoxModel", "GridBoxModel"):
        for child in values.get("children", []):
            static_frame(state, _child(child), settings, parts)
    elif name in ("SelectionSliderModel", "IntSliderModel", "FloatSliderModel"):
        labels = values.get("_options_labels")
        label = labels[values["index"]] if labels else values.get("value")
        settings.append((values.get("description", ""), str(label)))
    elif name == "ImageModel":
        for buffer in model.get("buffers", []):
            if buffer.get("path") == ["value"]:
                parts.append(("image", base64.b64decode(buffer["data"])))
    elif name == "HTMLModel":
        text = html.unescape(_TAGS.sub("", values.get("value", ""))).strip("\n")
        if text:
            parts.append(("text", text))


def _frame_nodes(app: Sphinx, settings: list, parts: list) -> list:
    """The docutils nodes of a static frame: the sliders' settings, then text and images."""
    where = ", ".join(f"{description} = {label}" for description, label in settings)
    note = nodes.paragraph()
    note += nodes.emphasis(text=f"Explorer shown at {where}. On the web page or in the "
                                "notebook, its sliders show every other value.")
    out = [note]
    folder = Path(app.env.mystnb_config.output_folder)
    for kind, content in parts:
        if kind == "text":
            out.append(nodes.literal_block(content, content))
            continue
        path = folder / f"{hashlib.sha256(content).hexdigest()}.png"
        if not path.exists():
            folder.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
        uri = "/" + os.path.relpath(path.resolve(), app.srcdir)
        out.append(nodes.image(uri=uri, alt=f"The explorer's figure at {where}"))
    return out


def add_static_frames(app: Sphinx, doctree: nodes.document) -> None:
    """Give every widget output a PNG alternative: the frame the widget first shows.

    myst-nb keeps every MIME type of an output and lets each builder pick one (HTML: the
    widget; LaTeX: a PNG). Runs before Sphinx collects the images of the page.
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
    app.add_js_file("explorers.js")
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
