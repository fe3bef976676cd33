"""Code cells that fold: each cell's code under a one-line summary that opens and folds it.

On a phone, code took 14-17 % of a chapter page's height, with no way to put it aside. In the
HTML book the code of every notebook cell is a ``<details>`` element whose ``<summary>`` says
in one line what the code is, with its number of lines; a tap, a click, or Enter or Space on
the focused summary opens and folds it (the browser's own disclosure widget: a Tab stop, its
state told to screen readers). It is open when the page opens, unless the cell is tagged
``fold-code`` (``book/fold_code.py`` tags the chapters' set-up cells and long plotting cells,
and an author may tag any other cell) or myst-nb's ``hide-input``. The outputs (figures,
tables, printed text) stay shown.

The summary, from the cell itself:

* a cell whose outputs hold a numbered figure: "Code of Fig. 4.2";
* the page's first code cell, when it begins with imports: "Set-up: imports and settings";
* a cell that begins with a comment: the comment's first line;
* a cell that defines functions or classes: "Defines nested_tree, complete";
* any other cell: "Code".

myst-nb's own ``code_prompt_show`` (the cell's metadata ``mystnb.code_prompt_show``), when a
cell sets it, is the summary. myst-nb folds a ``hide-input`` cell too, under the same words on
every cell ("Show code cell source"); this transform runs before it and leaves it nothing to do
for the cells it folds (a cell tagged ``hide-output`` or ``hide-cell`` is left to myst-nb).
Only HTML builders fold: the PDF edition prints the code of a ``fold-code`` cell (Jupyter
Book's LaTeX writer leaves out the code of a ``hide-input`` cell).
"""

from __future__ import annotations

import ast
from html import escape

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform

#: The tag of a cell whose code is folded when the page opens (book/fold_code.py).
TAG = "fold-code"
#: The hide modes of myst-nb this transform takes over (``hide-input``, with ``hide-output``).
_TAKEN_OVER = {None: None, "input": None, "input+output": "output"}


class code_fold(nodes.General, nodes.Element):  # noqa: N801 - docutils names nodes so
    """A cell's code under a summary (``summary``, ``lines``) that opens it, ``folded`` or
    open when the page opens."""


def _statements(source: str) -> list[ast.stmt]:
    """The top-level statements of a cell (IPython's ``%`` and ``!`` lines left out)."""
    lines = [line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))]
    try:
        return ast.parse("\n".join(lines)).body
    except SyntaxError:
        return []


def summary_of(source: str, figure: str | None = None, first: bool = False) -> str:
    """The one-line summary of a cell's code ``source`` (see the module's docstring):
    ``figure`` is the number of the figure it draws ("Fig. 4.2"), ``first`` whether it is the
    page's first code cell."""
    if figure:
        return f"Code of {figure}"
    body = _statements(source)
    if first and body and isinstance(body[0], (ast.Import, ast.ImportFrom)):
        return "Set-up: imports and settings"
    first_line = source.lstrip().partition("\n")[0]
    if first_line.startswith("#"):
        return first_line.lstrip("#").strip() or "Code"
    defined = [statement.name for statement in body
               if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    if defined:
        return "Defines " + ", ".join(defined)
    return "Code"


def _figure_number(env, docname: str, cell: nodes.Element) -> str | None:
    """"Fig. 4.2" for the first numbered figure among the outputs of ``cell``."""
    numbers = env.toc_fignumbers.get(docname, {}).get("figure", {})
    for figure in cell.findall(nodes.figure):
        for figure_id in figure["ids"]:
            if figure_id in numbers:
                number = ".".join(map(str, numbers[figure_id]))
                return env.config.numfig_format.get("figure", "Fig. %s") % number
    return None


class FoldCode(SphinxPostTransform):
    """Put the code of every notebook cell of an HTML page under its summary."""

    # before myst-nb's HideInputCells (199), which would fold a hide-input cell under its
    # generic words
    default_priority = 190
    formats = ("html",)

    def run(self, **kwargs) -> None:
        first = True
        for cell in list(self.document.findall(nodes.container)):
            if cell.get("nb_element") != "cell_code" or not cell.children:
                continue
            code = cell.children[0]
            if code.get("nb_element") != "cell_code_source":
                continue
            is_first, first = first, False
            mode = cell.get("hide_mode")
            if mode not in _TAKEN_OVER:
                continue
            source = code.astext()
            metadata = cell.get("cell_metadata", {})
            prompt = metadata.get("mystnb", {}).get("code_prompt_show")
            summary = (prompt.replace("{type}", "source") if isinstance(prompt, str) else
                       summary_of(source, _figure_number(self.env, self.env.docname, cell),
                                  is_first))
            fold = code_fold(summary=summary, lines=len(source.splitlines()),
                             folded=mode is not None or TAG in metadata.get("tags", []))
            cell.replace(code, fold)
            fold.append(code)
            cell["hide_mode"] = _TAKEN_OVER[mode]


def visit_code_fold(self, node: code_fold) -> None:
    lines = node["lines"]
    count = f"{lines} line{'' if lines == 1 else 's'}"
    self.body.append(f'<details class="code-fold"{"" if node["folded"] else " open"}>\n'
                     f'<summary>{escape(node["summary"])} '
                     f'<span class="code-fold-lines">{count}</span></summary>\n')


def depart_code_fold(self, node: code_fold) -> None:
    self.body.append("</details>\n")


def setup(app: Sphinx) -> dict:
    app.add_node(code_fold, html=(visit_code_fold, depart_code_fold))
    app.add_post_transform(FoldCode)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
