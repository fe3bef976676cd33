"""The explorers on the web page, written when the book is built (book/_ext/static_explorers.py):
each combination of slider positions shows the frame the widget shows there, the HTML names
and labels every slider, and the pages keep no widget state. The built pages are checked in a
browser by tests/browser/explorers.py."""

import base64
import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import ipywidgets as widgets
import matplotlib.pyplot as plt
import pytest
from docutils import nodes
from ipywidgets.embed import embed_data

from pdtbook.explorer import explorer, png_size

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "book" / "_ext"))

import explorer_frames  # noqa: E402
import static_explorers  # noqa: E402

CHAPTERS = sorted((ROOT / "chapters").glob("*.ipynb"))


def draw_line(slope, shift=0):
    print(f"slope {slope}, shift {shift}")
    fig, ax = plt.subplots(figsize=(2, 1.5))
    ax.plot([0, 1], [shift, slope + shift])


def _state(box):
    """The widget state a notebook would store for ``box``, by model id."""
    return embed_data(views=[box])["manager_state"]["state"]


def _frame_widget(box, position):
    """The frame widget the explorer ``box`` holds for a position of its sliders."""
    frame = box.children[-1]
    for at in position:
        frame = frame.children[at]
    return frame


def test_every_position_shows_the_frame_the_widget_shows_there():
    box = explorer(draw_line, {"slope": [1, 2, 3], "shift": [0, 1]},
                   value={"slope": 2, "shift": 1}, descriptions={"slope": "a"})
    found = static_explorers.read_explorer(_state(box), box.model_id)
    assert [(s.description, s.labels, s.start) for s in found.sliders] == [
        ("a", ["1", "2", "3"], 1), ("shift", ["0", "1"], 1)]
    assert len(found.frames) == 6 and found.start == 3
    for index, (slope, shift) in enumerate((s, t) for s in range(3) for t in range(2)):
        text, image = _frame_widget(box, (slope, shift)).children
        frame = found.frames[index]
        assert frame.png == bytes(image.value)
        assert frame.text == f"slope {slope + 1}, shift {shift}"
        assert (frame.width, frame.height) == tuple(n // 2 for n in png_size(frame.png))
    assert len({frame.png for frame in found.frames}) == 6


def test_the_frame_follows_the_links_not_the_stacks_stored_selection():
    box = explorer(draw_line, {"slope": [1, 2]}, value={"slope": 2})
    state = _state(box)
    stack = box.children[-1]
    state[stack.model_id]["state"]["selected_index"] = 0    # the link sets it in the browser
    found = static_explorers.read_explorer(state, box.model_id)
    assert [frame.png for frame in found.frames] == [
        bytes(frame.children[1].value) for frame in stack.children]


def test_labels_stored_with_a_padded_exponent_are_shown_as_pdtbook_writes_them_now():
    box = explorer(draw_line, {"slope": [1e-6, 0.05]})
    state = _state(box)
    slider = box.children[0]
    state[slider.model_id]["state"]["_options_labels"] = ["1e-06", "0.05"]
    found = static_explorers.read_explorer(state, box.model_id)
    assert found.sliders[0].labels == ["1e-6", "0.05"] == [label for label, _ in slider.options]


def test_a_widget_that_is_not_an_explorer_is_not_read_as_one():
    box = widgets.VBox([widgets.IntProgress(value=3, max=10), widgets.HTML("done")])
    assert static_explorers.read_explorer(_state(box), box.model_id) is None


def test_an_explorer_saved_with_frames_drawn_on_demand_lacks_them():
    box = explorer(draw_line, {"slope": [1, 2, 3]}, value={"slope": 2}, frames="on-demand")
    found = static_explorers.read_explorer(_state(box), box.model_id)
    assert found.frames[1] is not None
    assert found.frames[0] is None and found.frames[2] is None


class _Elements(HTMLParser):
    """The start tags of an HTML fragment, with their attributes, and its text by tag."""

    def __init__(self, text):
        super().__init__()
        self.tags, self.text, self._open = [], {}, []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._open.append(tag)

    def handle_endtag(self, tag):
        if self._open and self._open[-1] == tag:
            self._open.pop()

    def handle_data(self, data):
        if self._open and data.strip():
            self.text.setdefault(self._open[-1], []).append(data)

    def all(self, tag, **attrs):
        return [found for name, found in self.tags if name == tag
                and all(found.get(key) == value for key, value in attrs.items())]


def _two_sliders():
    sliders = [static_explorers.Slider("m1", "δ", ["1e-06", "0.05"], 1),
               static_explorers.Slider("m2", "c", ["0.1", "0.25", "1"], 2)]
    frames = [static_explorers.Frame(b"", 300, 200, f"frame {k}" if k else "")
              for k in range(6)]
    return static_explorers.Explorer(sliders, frames)


def test_the_html_labels_every_slider_and_shows_the_first_frame():
    found = _two_sliders()
    uris = [f"../_images/f{k}.png" for k in range(6)]
    page = _Elements(static_explorers.explorer_html("explorer-x", found, uris))
    (figure,) = page.all("figure")
    assert json.loads(figure["data-frames"]) == [[uri, 300, 200] for uri in uris]
    assert json.loads(figure["data-texts"])[5] == "frame 5"
    inputs = page.all("input", type="range")
    assert [(i["min"], i["max"], i["value"], i["aria-valuetext"]) for i in inputs] == [
        ("0", "1", "1", "0.05"), ("0", "2", "2", "1")]
    assert [json.loads(i["data-labels"]) for i in inputs] == [["1e-06", "0.05"],
                                                             ["0.1", "0.25", "1"]]
    labels = page.all("label")
    assert [label["for"] for label in labels] == [i["id"] for i in inputs]
    assert page.text["label"] == ["δ", "c"]
    assert page.text["span"] == ["0.05", "1"]           # the readouts
    steps = [button["aria-label"] for button in page.all("button")]
    assert steps == ["δ: previous value", "δ: next value", "c: previous value",
                     "c: next value"]
    assert page.text["button"] == ["\u2212", "+"] * 2
    (img,) = page.all("img")
    assert (img["src"], img["width"], img["height"]) == (uris[5], "300", "200")
    assert img["alt"] == "The explorer's figure at δ = 0.05, c = 1"
    assert page.text["pre"] == ["frame 5"]


def test_without_printed_text_there_is_no_text_box():
    found = _two_sliders()
    for frame in found.frames:
        frame.text = ""
    html = static_explorers.explorer_html("explorer-x", found, ["a.png"] * 6)
    assert "<pre" not in html and "data-texts" not in html


def _document(tmp_path, state, views):
    """A page of notebook outputs, one a widget view (model id) with its text alternative,
    and the app that reads it."""
    notebook = tmp_path / "page.ipynb"
    notebook.write_text(json.dumps({"metadata": {"widgets": {explorer_frames.WIDGET_STATE: {
        "state": state}}}}), encoding="utf8")
    document = nodes.document(None, None)
    for model_id in views:
        view = json.dumps({"model_id": model_id})
        document += nodes.container(
            "", nodes.container("", nodes.raw(view, view, format="html"),
                                mime_type=explorer_frames.WIDGET_VIEW),
            nodes.container("", nodes.literal_block("VBox()", "VBox()"),
                            mime_type="text/plain"),
            nb_element="mime_bundle")
    env = SimpleNamespace(docname="page", doc2path=lambda name: str(notebook),
                          mystnb_config=SimpleNamespace(output_folder=str(tmp_path / "out")))
    return document, SimpleNamespace(env=env, srcdir=str(tmp_path))


def test_a_page_gets_explorer_nodes_and_other_widgets_their_text(tmp_path):
    box = explorer(draw_line, {"slope": [1, 2, 2.5]}, value={"slope": 2})
    bar = widgets.IntProgress(value=3, max=10)
    state = {**_state(box), **_state(bar)}
    document, app = _document(tmp_path, state, [box.model_id, bar.model_id])
    static_explorers.draw_explorers(app, document)
    first, second = document.children
    (node,) = first.findall(static_explorers.explorer)
    assert node.parent["mime_type"] == explorer_frames.WIDGET_VIEW
    images = list(node.findall(nodes.image))
    assert len(images) == 3 and node["frame_files"] == [0, 1, 2]
    written = [tmp_path / image["uri"].lstrip("/") for image in images]
    assert [path.read_bytes() for path in written] == [
        bytes(frame.children[1].value) for frame in box.children[-1].children]
    assert all(re.fullmatch(r"[0-9a-f]{64}\.png", path.name) for path in written)
    assert [child["mime_type"] for child in second.children] == ["text/plain"]


def test_a_page_keeps_no_widget_state_and_loads_explorers_js_only_with_an_explorer():
    state = SimpleNamespace(filename=None, attributes={"type": explorer_frames.WIDGET_STATE})
    other = SimpleNamespace(filename="reading.js", attributes={})
    added = []
    app = SimpleNamespace(add_js_file=lambda name, **kwargs: added.append(name))
    page = nodes.document(None, None)
    context = {"script_files": [state, other]}
    static_explorers.page_scripts(app, "page", "page.html", context, page)
    assert context["script_files"] == [other] and added == []
    page += static_explorers.explorer()
    static_explorers.page_scripts(app, "page", "page.html", {"script_files": []}, page)
    assert added == [static_explorers.SCRIPT]


def _nested_frames(state, model_id):
    """The frames of a pdtbook explorer, read the way the widget nests them: the VBox's last
    child is a Stack over the first slider's values (over Stacks over the second's)."""
    def model(ref):
        return state[ref.removeprefix("IPY_MODEL_")]

    def frames(found):
        if found["model_name"] == "StackModel":
            return [frame for child in found["state"]["children"]
                    for frame in frames(model(child))]
        if found["model_name"] == "VBoxModel":              # printed text above the image
            found = model(found["state"]["children"][-1])
        return [base64.b64decode(found["buffers"][0]["data"])]

    return frames(model(state[model_id]["state"]["children"][-1]))


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_a_stored_explorer_is_drawn_with_every_frame_in_its_place(path):
    notebook = json.loads(path.read_text(encoding="utf8"))
    state = notebook["metadata"].get("widgets", {}).get(explorer_frames.WIDGET_STATE, {}).get(
        "state", {})
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get(explorer_frames.WIDGET_VIEW)
            if view is None:
                continue
            found = static_explorers.read_explorer(state, view["model_id"])
            assert found is not None and None not in found.frames
            assert [frame.png for frame in found.frames] == _nested_frames(
                state, view["model_id"])
