"""Tables in the PDF edition: columns as wide as their content needs, long tables broken.

Sphinx's LaTeX writer sets a table with ``tabulary``, which shares the width out in proportion
to each column's natural width. A narrow first column (a symbol, a name) next to a column of
long explanations then gets too little room: its words are hyphenated ("sym-bol"), and a
formula or a line of code that cannot be broken runs into the next column or the margin. A
table of more than 30 rows becomes a ``longtable`` with ``l`` columns (one line per cell,
however long), and a shorter one cannot break across pages, so a long one is pushed whole to
the next page and leaves a blank. For the LaTeX builder only, each table that gives no widths
of its own gets them here (a ``tabularcolumns`` spec):

* every column is at least as wide as the widest thing in it that cannot be broken (a word,
  a formula between the places TeX can break it, a piece of code between its spaces and
  punctuation), and at most as wide as its longest cell on one line;
* what is left of the text width goes to the columns that can use it, in proportion to their
  mean length of text;
* narrow columns are set ragged right, so their words are never hyphenated;
* a table at the top level of a page whose rows fill more than a third of a page becomes a
  ``longtable``, which breaks across pages.

The widths are estimates from the text (the mean advance of a character in each face, a
formula's visible characters), generous by a few points.
"""

from __future__ import annotations

import re
from collections import defaultdict

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx

LONGTABLE_ROWS = 30        # Sphinx's LaTeX writer sets a table of more rows as a longtable
TEXT_WIDTH = 468.0         # the text block of a letter page with 1 in margins (pt)
PADDING = 12.0             # \tabcolsep on each side of a cell (pt)
PAGE_LINES = 54            # lines of table text on a page
BREAK_PAGE_LINES = PAGE_LINES // 3   # a table longer than this is allowed to break
RAGGED = 0.4               # columns narrower than this share of the width are ragged right
# The mean advance of a character (pt) in each face at 10 pt: FreeSerif text, a column's
# heading (FreeSans bold), FreeMono code, and a formula's visible characters.
ADVANCE = {"text": 5.0, "heading": 6.2, "code": 6.0, "math": 5.6}
SLACK = 4.0                # added to every unbreakable piece (pt)
# Where TeX may break a formula in running text: after a relation or a binary operator at its
# top level.
_MATH_BREAKS = re.compile(r"(=|<|>|\\le(?:q)?\b|\\ge(?:q)?\b|\\preceq\b|\\subseteq\b|"
                          r"\\in\b|\\to\b|\\neq?\b|\\approx\b|\\sim\b|\+|-)")
_MATH_NAMED = re.compile(r"\\(?:operatorname|mathrm|text|textrm|mathbf|mathit|mathsf|"
                         r"texttt)\s*\{([^{}]*)\}")
_MATH_OPERATORS = re.compile(r"\\(log|ln|exp|Pr|max|min|arg|sup|inf|lim|det|sqrt)(?![a-zA-Z])")
_MATH_SILENT = re.compile(r"\\(?:left|right|[bB]igg?[lr]?|mathcal|mathbb|mathscr|hat|tilde|"
                          r"widehat|widetilde|bar|overline|boldsymbol|displaystyle|,|;|!|:)"
                          r"(?![a-zA-Z])")


def math_length(tex: str) -> float:
    """The number of characters a formula shows, roughly: each command one glyph, names kept
    ("\\log", "depth"), sub- and superscripts at 70 %."""
    tex = _MATH_NAMED.sub(r"\1", tex)
    tex = _MATH_OPERATORS.sub(r"\1", tex)
    tex = _MATH_SILENT.sub("", tex)
    tex = re.sub(r"\\[a-zA-Z]+|\\.", "x", tex)
    length, depth, script = 0.0, 0, []
    for position, char in enumerate(tex):
        if char in "_^":
            script.append(depth)
            continue
        if char == "{":
            depth += 1
            continue
        if char == "}":
            depth -= 1
            while script and script[-1] >= depth:
                script.pop()
            continue
        if char.isspace():
            continue
        length += 0.7 if script else 1.0
        if script and script[-1] == depth:   # a one-character script (x_1)
            script.pop()
    return length


def _math_pieces(tex: str) -> list[str]:
    """A formula cut where TeX may break it: after a relation or a binary operator at its top
    level (not inside braces)."""
    pieces, depth, start = [], 0, 0
    for match in re.finditer(r"[{}]|" + _MATH_BREAKS.pattern, tex):
        token = match.group(0)
        if token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
        elif depth == 0:
            pieces.append(tex[start:match.end()])
            start = match.end()
    pieces.append(tex[start:])
    return [piece for piece in pieces if piece.strip()]


def _pieces(node: nodes.Node, face: str) -> list[tuple[float, bool]]:
    """The widths (pt) of what a cell holds, each with whether a line may break after it."""
    if isinstance(node, nodes.math):
        pieces = _math_pieces(node.astext())
        return [(math_length(piece) * ADVANCE["math"] + SLACK, True) for piece in pieces]
    if isinstance(node, nodes.literal):
        chunks = re.split(r"(?<=[.,;/])|\s+", node.astext())
        return [(len(chunk) * ADVANCE["code"] + SLACK, True) for chunk in chunks if chunk]
    if isinstance(node, nodes.Text):
        text = str(node)
        words = text.split()
        out = [(len(word) * ADVANCE[face] + SLACK, True) for word in words]
        if out and not text[-1:].isspace():
            out[-1] = (out[-1][0], False)       # glued to what follows ("(x", "T)")
        return out
    if isinstance(node, (nodes.paragraph, nodes.Element)):
        out = []
        for child in node.children:
            out.extend(_pieces(child, face))
            if isinstance(child, (nodes.paragraph, nodes.bullet_list, nodes.list_item)):
                out.append((0.0, True))
        return out
    return []


def _cell_widths(entry: nodes.entry, face: str) -> tuple[float, float]:
    """A cell's widest unbreakable run and its width on one line (pt)."""
    widest, run, total = 0.0, 0.0, 0.0
    for width, breaks in _pieces(entry, face):
        run += width
        total += width + ADVANCE[face]
        if breaks:
            widest, run = max(widest, run), 0.0
    return max(widest, run), total


def column_widths(table: nodes.table) -> tuple[list[float], int] | None:
    """The width (pt, without padding) of each column of ``table``, and the lines of text its
    rows take; None for a table with merged cells."""
    columns = len(list(table.findall(nodes.colspec)))
    least, most, mass = defaultdict(float), defaultdict(float), defaultdict(list)
    rows = []
    for row in table.findall(nodes.row):
        entries = [entry for entry in row.children if isinstance(entry, nodes.entry)]
        if len(entries) != columns or any(e.get("morecols") or e.get("morerows")
                                          for e in entries):
            return None
        face = "heading" if isinstance(row.parent, nodes.thead) else "text"
        cells = []
        for column, entry in enumerate(entries):
            widest, total = _cell_widths(entry, face)
            least[column] = max(least[column], widest)
            most[column] = max(most[column], total)
            if face == "text":
                mass[column].append(total)
            cells.append(total)
        rows.append(cells)
    if not rows:
        return None
    widths = [least[c] for c in range(columns)]
    room = TEXT_WIDTH - columns * PADDING
    if sum(widths) > room:
        widths = [width * room / sum(widths) for width in widths]
    weight = {c: max(1.0, sum(mass[c]) / max(1, len(mass[c]))) for c in range(columns)}
    left = room - sum(widths)
    open_columns = {c for c in range(columns) if widths[c] < most[c]}
    while left > 0.5 and open_columns:
        total_weight = sum(weight[c] for c in open_columns)
        given = 0.0
        for c in sorted(open_columns):
            extra = min(left * weight[c] / total_weight, most[c] - widths[c])
            widths[c] += extra
            given += extra
        left -= given
        open_columns = {c for c in open_columns if widths[c] < most[c] - 0.5}
    lines = sum(max(-(-total // width) for total, width in zip(cells, widths))
                for cells in rows)
    return widths, int(lines)


def colspec(widths: list[float]) -> str:
    """The tabularcolumns spec of the given widths: ``\\X`` columns (a share of the line,
    padding included), ragged right where narrow."""
    shares = [round(1000 * (width + PADDING) / TEXT_WIDTH) for width in widths]
    ragged = r">{\raggedright\arraybackslash}"
    return "".join(f"{ragged if share < RAGGED * 1000 else ''}\\X{{{share}}}{{1000}}"
                   for share in shares)


def set_table_columns(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """LaTeX: each table's columns as wide as their content needs; long tables break.

    A table whose widths the page gives is left as it is. A table at the top level of a page
    (not in a box or a list, where LaTeX cannot break it) whose rows take more than a third of
    a page is set as a longtable.
    """
    if app.builder.format != "latex":
        return
    for table in list(doctree.findall(nodes.table)):
        if "colwidths-given" in table["classes"] or any(
                isinstance(node, nodes.table) for node in table.findall(nodes.table)
                if node is not table):
            continue
        if isinstance(table.parent, nodes.entry) or table.next_node(nodes.literal_block):
            continue
        found = column_widths(table)
        if found is None:
            continue
        widths, lines = found
        top_level = isinstance(table.parent, (nodes.section, nodes.document))
        if top_level and lines > BREAK_PAGE_LINES and "longtable" not in table["classes"]:
            table["classes"].append("longtable")
        spec = addnodes.tabular_col_spec(spec=colspec(widths))
        table.parent.insert(table.parent.index(table), spec)


def setup(app: Sphinx) -> dict:
    app.connect("doctree-resolved", set_table_columns)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
