"""The parts of the PDF edition that need no TeX: the explorer's static frame read from the
widget state a notebook stores, the PDF's table of contents, its file name, and the column
widths of long tables (book/_ext/explorer_frames.py, pdf_link.py, long_tables.py;
book/latex/pdf_toc.py). The PDF itself is checked by tests/pdf/test_pdf.py after `make pdf`."""

import base64
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from docutils import nodes

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "book" / "_ext"), str(ROOT / "book" / "latex")]

import explorer_frames  # noqa: E402
import long_tables  # noqa: E402
import pdf_link  # noqa: E402
import pdf_toc  # noqa: E402


def _model(name, state, buffers=()):
    return {"model_name": name, "state": state, "buffers": list(buffers)}


def _image(png):
    data = base64.b64encode(png).decode()
    return _model("ImageModel", {"format": "png"},
                  [{"path": ["value"], "encoding": "base64", "data": data}])


@pytest.fixture
def explorer_state():
    """An explorer over depth 0..2 starting at depth 1; frame 1 prints a line of text."""
    return {
        "box": _model("VBoxModel", {"children": ["IPY_MODEL_slider", "IPY_MODEL_stack"]}),
        "slider": _model("SelectionSliderModel", {
            "description": "depth", "index": 1, "_options_labels": ["0", "1", "2"]}),
        "stack": _model("StackModel", {
            "selected_index": 1,
            "children": ["IPY_MODEL_f0", "IPY_MODEL_f1", "IPY_MODEL_f2"]}),
        "f0": _image(b"zero"),
        "f1": _model("VBoxModel", {"children": ["IPY_MODEL_text", "IPY_MODEL_png1"]}),
        "text": _model("HTMLModel", {"value": '<pre class="explorer-text">3 &lt; 4</pre>'}),
        "png1": _image(b"one"),
        "f2": _image(b"two"),
    }


def test_static_frame_is_the_selected_frame_with_the_sliders_setting(explorer_state):
    settings, parts = [], []
    explorer_frames.static_frame(explorer_state, "box", settings, parts)
    assert settings == [("depth", "1")]
    assert parts == [("text", "3 < 4"), ("image", b"one")]


def test_static_frame_follows_nested_stacks(explorer_state):
    explorer_state["outer"] = _model("StackModel", {
        "selected_index": 0, "children": ["IPY_MODEL_f2", "IPY_MODEL_box"]})
    settings, parts = [], []
    explorer_frames.static_frame(explorer_state, "outer", settings, parts)
    assert parts == [("image", b"two")]
    explorer_state["outer"]["state"]["selected_index"] = 1
    explorer_frames.static_frame(explorer_state, "outer", settings, parts)
    assert parts[-1] == ("image", b"one")


def test_pdf_toc_leaves_out_only_the_library_reference():
    toc = {"format": "jb-book", "root": "book/intro", "parts": [
        {"caption": "Chapters", "numbered": True, "chapters": [{"file": "chapters/01"}]},
        {"caption": "Library reference", "chapters": [{"file": "book/reference/index"}]},
        {"caption": "Back matter", "chapters": [{"file": "book/glossary"}]}]}
    kept = pdf_toc.pdf_toc(toc)
    assert [part["caption"] for part in kept["parts"]] == ["Chapters", "Back matter"]
    assert kept["root"] == "book/intro" and len(toc["parts"]) == 3


def test_pdf_name_follows_the_latex_target():
    config = SimpleNamespace(latex_documents=[("book/intro", "pruning-decision-trees.tex")])
    assert pdf_link.pdf_name(config) == "pruning-decision-trees.pdf"


def test_long_tables_get_widths_by_the_length_of_their_text():
    table = nodes.table(classes=["colwidths-auto"])
    group = nodes.tgroup(cols=2)
    group += [nodes.colspec(), nodes.colspec()]
    body = nodes.tbody()
    for _ in range(long_tables.LONGTABLE_ROWS + 1):
        body += nodes.row("", nodes.entry("", nodes.paragraph(text="T")),
                          nodes.entry("", nodes.paragraph(text="a long explanation " * 3)))
    group += body
    table += group
    document = nodes.document(None, None)
    document += table
    app = SimpleNamespace(builder=SimpleNamespace(format="latex"))
    long_tables.wrap_long_tables(app, document, "page")
    widths = [colspec["colwidth"] for colspec in table.findall(nodes.colspec)]
    assert "colwidths-given" in table["classes"] and "colwidths-auto" not in table["classes"]
    assert widths[0] == 4 and widths[1] > 10 * widths[0]
