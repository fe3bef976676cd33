"""Long tables in the PDF edition get column widths, so that their cells wrap.

Sphinx's LaTeX writer sets a table of more than 30 rows as a ``longtable`` (which can break
across pages) and, without given widths, sets its columns as ``l``: one line per cell, however
long. The notation page's tables, with long explanations, would run off the page. For the LaTeX
builder only, such a table gets column widths that follow the mean length of each column's
text, so its cells wrap. Shorter tables are set by ``tabulary``, which wraps by itself, and a
table whose widths the page gives is left as it is.
"""

from __future__ import annotations

from collections import defaultdict

from docutils import nodes
from sphinx.application import Sphinx

LONGTABLE_ROWS = 30        # Sphinx's LaTeX writer sets a table of more rows as a longtable


def _column_widths(table: nodes.table) -> list[int]:
    """Each column's share of the width: the mean length of its cells' text (at least 4)."""
    lengths = defaultdict(list)
    for row in table.findall(nodes.row):
        for column, entry in enumerate(row.findall(nodes.entry)):
            lengths[column].append(len(entry.astext()))
    return [max(4, round(sum(values) / len(values))) for _, values in sorted(lengths.items())]


def wrap_long_tables(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """LaTeX: a long table (a longtable) gets column widths, so its cells wrap.

    Without given widths Sphinx sets a longtable's columns as ``l`` (one line per cell), and
    a notation table with long explanations runs off the page; the widths given here follow
    the mean length of each column's text. Short tables are set by tabulary, which wraps.
    """
    if app.builder.format != "latex":
        return
    for table in doctree.findall(nodes.table):
        rows = list(table.findall(nodes.row))
        if len(rows) <= LONGTABLE_ROWS or "colwidths-given" in table["classes"]:
            continue
        colspecs = list(table.findall(nodes.colspec))
        widths = _column_widths(table)
        if len(colspecs) != len(widths):
            continue
        for colspec, width in zip(colspecs, widths):
            colspec["colwidth"] = width
        table["classes"] = [c for c in table["classes"] if c != "colwidths-auto"]
        table["classes"].append("colwidths-given")


def setup(app: Sphinx) -> dict:
    app.connect("doctree-resolved", wrap_long_tables)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
