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

What the themes' templates or scripts write is mended in the browser, by
``book/js/accessibility.js``, loaded on every page: the names of the search and colour-mode
buttons, of the solutions' toggle buttons ("Solution of Exercise 2.3"), and the landmark of
the book's title in the sidebar. The explorers' sliders are native range inputs with a
label, written when the book is built (static_explorers.py).
"""

from __future__ import annotations

import re

from sphinx.application import Sphinx

_BIBLIOENTRY = 'role="doc-biblioentry"'
_LISTITEM = 'role="listitem"'
# a header cell with no text: <th>, <th class="...">, with nothing but white space or an empty
# paragraph (a Markdown table's empty corner) inside
_EMPTY_HEADER = re.compile(r"<th(\s[^>]*)?>(\s|&nbsp;|<p>\s*</p>)*</th>")


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
    app.add_js_file("accessibility.js")
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
