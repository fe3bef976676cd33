"""The parts of the PDF edition that need no TeX: the explorer's static frame read from the
widget state a notebook stores, the PDF's table of contents, its file name, and the column
widths of tables, and the LaTeX of proofs, explorer frames, glossary index entries and the title
page (book/_ext/explorer_frames.py, pdf_link.py, long_tables.py, latex_pages.py;
book/latex/pdf_toc.py). The PDF itself is checked by tests/pdf/test_pdf.py after `make pdf`."""

import base64
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from docutils import nodes
from sphinx import addnodes

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "book" / "_ext"), str(ROOT / "book" / "latex")]

import explorer_frames  # noqa: E402
import latex_pages  # noqa: E402
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


def _table(rows, header=("symbol", "meaning")):
    """A docutils table of two columns: a heading row, then ``rows`` of (math, text)."""
    table = nodes.table()
    group = nodes.tgroup(cols=2)
    group += [nodes.colspec(), nodes.colspec()]
    head = nodes.thead()
    head += nodes.row("", *[nodes.entry("", nodes.paragraph(text=text)) for text in header])
    body = nodes.tbody()
    for formula, text in rows:
        body += nodes.row("", nodes.entry("", nodes.paragraph("", "", nodes.math(text=formula))),
                          nodes.entry("", nodes.paragraph(text=text)))
    group += [head, body]
    table += group
    return table


def test_a_narrow_column_holds_its_widest_formula_and_word():
    """The first column gets room for its widest formula (cut where TeX may break it) and for
    "symbol", and is set ragged right; the explanations take the rest of the line."""
    table = _table([(r"\mathrm{TREES}(\mathcal T, d)", "trees with tests " * 12),
                    (r"S = ((x_1,y_1),\dots,(x_m,y_m))", "a sample")])
    widths, lines = long_tables.column_widths(table)
    formula = long_tables.math_length(r"\mathrm{TREES}(\mathcal T, d)")
    assert formula == 10
    assert widths[0] >= formula * long_tables.ADVANCE["math"]
    assert widths[0] >= len("symbol") * long_tables.ADVANCE["heading"]
    assert abs(sum(widths) + 2 * long_tables.PADDING - long_tables.TEXT_WIDTH) < 1
    assert lines >= 3
    spec = long_tables.colspec(widths)
    assert spec.startswith(r">{\raggedright\arraybackslash}\X{") and spec.count(r"\X{") == 2


def test_long_tables_break_across_pages_and_short_ones_keep_their_widths():
    document = nodes.document(None, None)
    section = nodes.section()
    long_table = _table([("x", "an explanation that takes a whole line " * 3)] * 20)
    short_table = _table([("x", "short")])
    section += [long_table, short_table]
    document += section
    app = SimpleNamespace(builder=SimpleNamespace(format="latex"))
    long_tables.set_table_columns(app, document, "page")
    assert "longtable" in long_table["classes"] and "longtable" not in short_table["classes"]
    specs = [node for node in section.children if isinstance(node, addnodes.tabular_col_spec)]
    assert len(specs) == 2 and section.index(specs[0]) == section.index(long_table) - 1


def _latex_of(node):
    return [child.astext() for child in node.findall(nodes.raw)]


def test_a_proof_gets_its_heading_and_square_instead_of_an_untitled_box():
    from sphinx_proof.nodes import proof_node

    box = nodes.admonition("", nodes.paragraph(text="Proof. Give the tree a weight."),
                           nodes.math_block(text="x = 1"), classes=["proof"])
    proof = proof_node("", box)
    document = nodes.document(None, None)
    document += proof
    assert latex_pages.set_proofs(document) == 1
    assert not list(document.findall(nodes.admonition))
    assert proof[0].astext() == r"\begin{bookproof}" and proof[-1].astext() == r"\end{bookproof}"
    first = proof[1]
    assert first[0].astext() == r"\bookproofname{}" and first.astext().endswith("a weight.")
    assert "Proof." not in first.astext()
    assert _latex_of(proof[-2]) == [r"\bookqed{}"]         # after the display, a line of its own


def test_a_glossary_term_is_indexed_at_the_start_of_its_definition():
    entry = addnodes.index(entries=[("single", "0-SE rule", "term-0", "main", None)])
    term = nodes.term("", "0-SE rule", entry)
    definition = nodes.definition("", nodes.paragraph(text="The smallest estimated error."))
    document = nodes.document(None, None)
    document += nodes.definition_list("", nodes.definition_list_item("", term, definition))
    latex_pages.index_glossary_in_definitions(document)
    assert not list(term.findall(addnodes.index))
    assert definition[0][0] is entry and entry["inline"]


def test_an_explorer_frame_is_wrapped_with_its_size(tmp_path):
    from PIL import Image

    Image.new("RGB", (600, 300)).save(tmp_path / "frame.png")
    output = nodes.container(mime_type="image/png")
    output += [nodes.paragraph(text="Explorer shown at depth = 1."),
               nodes.literal_block("a\nb", "a\nb"), nodes.image(uri="/frame.png")]
    plain = nodes.container("", nodes.image(uri="/frame.png"), mime_type="image/png")
    document = nodes.document(None, None)
    document += [output, plain]
    app = SimpleNamespace(srcdir=str(tmp_path))
    assert latex_pages.keep_explorer_frames(app, document) == 1
    latex = _latex_of(output)
    assert latex[0] == r"\bookexplorerframe{6\baselineskip}{600.0bp}{300.0bp}"
    assert latex[1:] == [r"\nobreak", r"\nobreak", r"\bookexplorerframeend"]
    assert not _latex_of(plain)


def test_the_title_page_takes_the_books_own_words(tmp_path):
    (tmp_path / "intro.md").write_text("(intro)=\n# A Title\n\n*A subtitle & more*\n\nText.\n")
    config = SimpleNamespace(root_doc="intro", copyright="2025\u20132026",
                             html_theme_options={"repository_url": "https://example.org/x"})
    values = latex_pages.title_page_values(SimpleNamespace(srcdir=str(tmp_path), config=config))
    assert values["date"] == "2025\u20132026"
    assert r"\renewcommand\booksubtitle{A subtitle \& more}" in values["preamble"]
    assert r"\url{https://example.org/x}" in values["preamble"]
