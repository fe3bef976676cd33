"""What book/_ext/accessibility.py mends in the HTML of a page's body: the bibliography's
entries become items of its list, and empty header cells (pandas' corner above the index)
plain cells. The built pages are checked with axe-core by the browser test
(tests/browser/accessibility_checks.py)."""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "book" / "_ext"))

import accessibility  # noqa: E402

BIBLIOGRAPHY = """<div role="list" class="citation-list">
<div class="citation" id="id32" role="doc-biblioentry">
<span class="label"><span class="fn-bracket">[</span>ATR+22<span class="fn-bracket">]</span></span>
<p>Abhineet Agarwal and others. Hierarchical shrinkage. 2022.</p>
</div>
<div class="citation" id="id52" role="doc-biblioentry">
<p>Gaël Aglin and others. Learning optimal decision trees. 2020.</p>
</div>
</div>"""

# as pandas writes a frame with a named index and two header rows
TABLE = """<table border="1" class="dataframe">
  <thead>
    <tr style="text-align: right;">
      <th></th>
      <th>error</th>
      <th class="col_heading level0 col1" >&nbsp;</th>
    </tr>
    <tr>
      <th>step</th>
      <th> </th>
      <th></th>
    </tr>
  </thead>
  <tbody>
    <tr><th>0</th><td>0.25</td><td></td></tr>
  </tbody>
</table>"""


def test_bibliography_entries_become_list_items():
    mended = accessibility.mend_body(BIBLIOGRAPHY)
    assert "doc-biblioentry" not in mended
    assert mended.count('role="listitem"') == 2
    assert mended.count('role="list"') == 1


def test_empty_header_cells_become_plain_cells_and_others_stay():
    mended = accessibility.mend_body(TABLE)
    assert "<th></th>" not in mended and "<th> </th>" not in mended
    assert '<td class="col_heading level0 col1" ></td>' in mended
    for kept in ("<th>error</th>", "<th>step</th>", "<th>0</th>", "<td>0.25</td>", "<td></td>"):
        assert kept in mended
    assert len(re.findall(r"<th[\s>]", mended)) == 3


def test_a_markdown_tables_empty_corner_becomes_a_plain_cell():
    row = '<tr class="row-odd"><th class="head"><p></p></th>\n<th class="head"><p>x</p></th>'
    assert accessibility.mend_body(row) == (
        '<tr class="row-odd"><td class="head"></td>\n<th class="head"><p>x</p></th>')


def test_the_handler_mends_a_pages_body_and_leaves_other_context_alone():
    context = {"body": BIBLIOGRAPHY + TABLE, "title": "<th></th>"}
    accessibility.mend_page(None, "book/bibliography", "page.html", context, None)
    assert context["body"] == accessibility.mend_body(BIBLIOGRAPHY + TABLE)
    assert context["title"] == "<th></th>"
    empty = {"body": None}
    accessibility.mend_page(None, "genindex", "genindex.html", empty, None)
    assert empty == {"body": None}


# a header cell of Chapter 1's table, once its formula is typeset (the
# CHTML shortened)
FORMULA_HEADER = (
    '<th class="head"><p><span class="math notranslate nohighlight">'
    '<mjx-container class="MathJax" jax="CHTML">'
    '<mjx-math data-latex="C(a)" aria-hidden="true"><mjx-mi>C</mjx-mi>'
    '</mjx-math><mjx-assistive-mml display="inline">'
    '<math xmlns="http://www.w3.org/1998/Math/MathML">'
    '<mi>C</mi><mo stretchy="false">(</mo><mi>a</mi>'
    '<mo stretchy="false">)</mo></math></mjx-assistive-mml>'
    '</mjx-container></span></p></th>')


def test_a_header_cell_holding_only_a_formula_names_its_mathml():
    row = f"<tr>{FORMULA_HEADER}<th>x</th></tr>"
    mended = accessibility.name_formula_headers(row)
    assert mended.count('<math xmlns="http://www.w3.org/1998/Math/MathML" '
                        'aria-label="C(a)">') == 1
    assert mended.replace(' aria-label="C(a)"', "") == row
    relation = FORMULA_HEADER.replace(
        '<mo stretchy="false">(</mo><mi>a</mi><mo stretchy="false">)</mo>',
        "<mo>=</mo><mn>1</mn>")
    named = accessibility.name_formula_headers(relation)
    assert 'aria-label="C = 1"' in named


def test_header_cells_with_text_and_formulas_in_body_cells_stay_as_they_are():
    with_text = FORMULA_HEADER.replace("<p>", "<p>gain ")
    body_cell = FORMULA_HEADER.replace("<th", "<td").replace("</th>",
                                                             "</td>")
    for page in (with_text, body_cell, "<th>x</th>"):
        assert accessibility.name_formula_headers(page) == page
    named = accessibility.name_formula_headers(FORMULA_HEADER)
    assert accessibility.name_formula_headers(named) == named
