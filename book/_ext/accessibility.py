"""Pages that assistive technology reads as they look: roles, names and table headers.

The browser test runs axe-core on every page and fails on a critical or serious violation of
the accessibility rules it checks (tests/browser/accessibility_checks.py). What the extensions
the book is built with write, and this module mends, in the HTML of each page's body:

* The bibliography (sphinxcontrib-bibtex, through docutils) is a ``role="list"`` whose entries
  have the role ``doc-biblioentry``, which ARIA 1.2 deprecates and does not allow on a ``div``:
  a list of no list items (axe's critical ``aria-required-children``). Each entry becomes a
  ``listitem`` of its list.
* pandas writes a table's empty corner (above the index) and the empty cells of its index
  names' row as header cells without text (as does a Markdown table with an empty corner),
  which a screen reader announces as unnamed column headers (axe's ``empty-table-header``).
  They become ordinary empty cells.
* A header cell that holds a formula and no text ("$C(a)$") has no name
  for axe either: the hidden MathML that screen readers read is embedded
  content, which axe leaves out of a cell's text. Once the formulas are
  typeset (prerender_math.py, at the end of the build), the formula's
  MathML is named by its text (``<math aria-label="C(a)">``), which is
  what a screen reader reads out and what names the column.

What the themes' templates or scripts write is mended in the browser, by
``book/js/accessibility.js``, loaded on every page: the names of the search and colour-mode
buttons, of the solutions' toggle buttons ("Solution of Exercise 2.3"), and the landmark of
the book's title in the sidebar. The explorers' sliders are native range inputs with a
label, written when the book is built (static_explorers.py).
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from sphinx.application import Sphinx

_BIBLIOENTRY = 'role="doc-biblioentry"'
_LISTITEM = 'role="listitem"'
# a header cell with no text: <th>, <th class="...">, with nothing but white space or an empty
# paragraph (a Markdown table's empty corner) inside
_EMPTY_HEADER = re.compile(r"<th(\s[^>]*)?>(\s|&nbsp;|<p>\s*</p>)*</th>")
# a header cell and its content; a typeset formula in it, with its MathML
_HEADER = re.compile(r"(<th(?:\s[^>]*)?>)(.*?)</th>", re.S)
_FORMULA = re.compile(r"<mjx-container\b.*?</mjx-container>", re.S)
_MATHML = re.compile(r"<math\b([^>]*)>(.*?)</math>", re.S)
# relations and operators, which the name gives with spaces ("i = 1")
_SPACED = re.compile(r"\s*([=<>≤≥≠≈∈∉⊂⊆⪯→+−×])\s*")


def _text(markup: str) -> str:
    """The text of some HTML or MathML, its white space collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def _named_math(found: re.Match) -> str:
    """A ``<math>`` element named by its text, unless it has a name.

    Parameters
    ----------
    found : re.Match
        A match of ``_MATHML``: the element's attributes and content.

    Returns
    -------
    str
        The element, with an ``aria-label``.
    """
    attributes, content = found.groups()
    if "aria-label=" in attributes:
        return found.group(0)
    name = _SPACED.sub(r" \1 ", "".join(_text(content).split())).strip()
    return (f'<math{attributes} aria-label="{html.escape(name)}">'
            f"{content}</math>")


def name_formula_headers(page: str) -> str:
    """Name the formulas of the header cells that hold no text.

    Parameters
    ----------
    page : str
        The HTML of a page whose formulas are typeset.

    Returns
    -------
    str
        The page, the MathML of every header cell that holds formulas and
        no text named by its text (see the module's docstring).
    """
    def mend(found: re.Match) -> str:
        content = found.group(2)
        if ("<mjx-assistive-mml" not in content
                or _text(_FORMULA.sub("", content))):
            return found.group(0)
        return found.group(1) + _MATHML.sub(_named_math, content) + "</th>"

    return _HEADER.sub(mend, page)


def name_formula_headers_of_pages(app: Sphinx,
                                  exception: Exception | None) -> None:
    """Name the header cells' formulas in the written pages.

    Runs once they are typeset, after prerender_math's ``build-finished``
    handler.

    Parameters
    ----------
    app : sphinx.application.Sphinx
        The build.
    exception : Exception or None
        The build's error, if it failed (then nothing is done).
    """
    if exception is not None or app.builder.format != "html":
        return
    for path in Path(app.outdir).rglob("*.html"):
        page = path.read_text(encoding="utf8")
        if "<th" not in page or "<mjx-assistive-mml" not in page:
            continue
        mended = name_formula_headers(page)
        if mended != page:
            path.write_text(mended, encoding="utf8")


def mend_body(body: str) -> str:
    """The HTML of a page's body with the bibliography's roles and the empty table headers
    mended (see the module's docstring)."""
    body = body.replace(_BIBLIOENTRY, _LISTITEM)
    return _EMPTY_HEADER.sub(lambda found: f"<td{found.group(1) or ''}></td>", body)


def mend_page(app: Sphinx, pagename: str, templatename: str, context: dict,
              doctree) -> None:
    """Mend the body of every HTML page as it is written."""
    if isinstance(context.get("body"), str):
        context["body"] = mend_body(context["body"])


def setup(app: Sphinx) -> dict:
    app.connect("html-page-context", mend_page)
    # after prerender_math's typesetting (priority 500), which writes the
    # MathML
    app.connect("build-finished", name_formula_headers_of_pages,
                priority=600)
    app.add_js_file("accessibility.js")
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
