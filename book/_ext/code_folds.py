"""Code cells that fold: each cell's code under a one-line summary.

On a phone, code took 14-17 % of a chapter page's height, with no way to
put it aside. In the HTML book the code of every notebook cell is a
``<details>`` element whose ``<summary>`` says in one line what the code
is, with its number of lines; a tap, a click, or Enter or Space on the
focused summary opens and folds it (the browser's own disclosure widget:
a Tab stop, its state told to screen readers). It is open when the page
opens, unless the cell is tagged ``fold-code`` (``book/fold_code.py`` tags
the chapters' set-up cells and long plotting cells, and an author may tag
any other cell) or myst-nb's ``hide-input``. The outputs (figures, tables,
printed text) stay shown.

The summary, from the cell itself:

* a cell whose outputs hold a numbered figure: "Code of Fig. 4.2";
* the page's first code cell, when it begins with imports:
  "Set-up: imports and settings";
* a cell that begins with a comment: the comment's first line;
* a cell that defines functions or classes:
  "Defines nested_tree, complete";
* any other cell: "Code".

myst-nb's own ``code_prompt_show`` (the cell's metadata
``mystnb.code_prompt_show``), when a cell sets it, is the summary. myst-nb
folds a ``hide-input`` cell too, under the same words on every cell ("Show
code cell source"); this transform runs before it and leaves it nothing to
do for the cells it folds (a cell tagged ``hide-output`` or ``hide-cell``
is left to myst-nb). Only HTML builders fold: the PDF edition prints the
code of a ``fold-code`` cell (Jupyter Book's LaTeX writer leaves out the
code of a ``hide-input`` cell).
"""

from __future__ import annotations

import ast
from html import escape

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform

#: The tag of a cell whose code is folded when the page opens.
TAG = "fold-code"
#: myst-nb's hide modes this transform takes over, and what is left of
#: each for myst-nb (``hide-input``; ``hide-output`` with it).
_TAKEN_OVER = {None: None, "input": None, "input+output": "output"}


class code_fold(nodes.General, nodes.Element):  # noqa: N801
    """A cell's code under a summary that opens it.

    Its attributes: ``summary`` (the text), ``lines`` (the code's number
    of lines) and ``folded`` (folded when the page opens).
    """


def _statements(source: str) -> list[ast.stmt]:
    """The top-level statements of a cell's code.

    Parameters
    ----------
    source : str
        The cell's code; IPython's ``%`` and ``!`` lines are left out.

    Returns
    -------
    list of ast.stmt
        Its statements, or none if it is not Python.
    """
    lines = [line for line in source.splitlines()
             if not line.lstrip().startswith(("%", "!"))]
    try:
        return ast.parse("\n".join(lines)).body
    except SyntaxError:
        return []


def summary_of(source: str, figure: str | None = None,
               first: bool = False) -> str:
    """The one-line summary of a cell's code (see the module's docstring).

    Parameters
    ----------
    source : str
        The cell's code.
    figure : str, optional
        The number of the figure its outputs hold ("Fig. 4.2").
    first : bool, default False
        Whether it is the page's first code cell.

    Returns
    -------
    str
        The summary.
    """
    if figure:
        return f"Code of {figure}"
    body = _statements(source)
    if first and body and isinstance(body[0], (ast.Import, ast.ImportFrom)):
        return "Set-up: imports and settings"
    first_line = source.lstrip().partition("\n")[0]
    if first_line.startswith("#"):
        return first_line.lstrip("#").strip() or "Code"
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    defined = [statement.name for statement in body
               if isinstance(statement, kinds)]
    if defined:
        return "Defines " + ", ".join(defined)
    return "Code"


def _figure_number(env, docname: str, cell: nodes.Element) -> str | None:
    """The number ("Fig. 4.2") of the first numbered figure of a cell.

    Parameters
    ----------
    env : sphinx.environment.BuildEnvironment
        The build's environment, with the figures' numbers.
    docname : str
        The page.
    cell : docutils.nodes.Element
        The cell, with its outputs.

    Returns
    -------
    str or None
        The number, or None if no output is a numbered figure.
    """
    numbers = env.toc_fignumbers.get(docname, {}).get("figure", {})
    for figure in cell.findall(nodes.figure):
        for figure_id in figure["ids"]:
            if figure_id in numbers:
                number = ".".join(map(str, numbers[figure_id]))
                form = env.config.numfig_format.get("figure", "Fig. %s")
                return form % number
    return None


class FoldCode(SphinxPostTransform):
    """Put the code of every notebook cell of an HTML page under its
    summary."""

    # before myst-nb's HideInputCells (199), which would fold a hide-input
    # cell under its generic words
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
            if isinstance(prompt, str):
                summary = prompt.replace("{type}", "source")
            else:
                figure = _figure_number(self.env, self.env.docname, cell)
                summary = summary_of(source, figure, is_first)
            folded = mode is not None or TAG in metadata.get("tags", [])
            fold = code_fold(summary=summary,
                             lines=len(source.splitlines()), folded=folded)
            cell.replace(code, fold)
            fold.append(code)
            cell["hide_mode"] = _TAKEN_OVER[mode]


def visit_code_fold(self, node: code_fold) -> None:
    lines = node["lines"]
    count = f"{lines} line{'' if lines == 1 else 's'}"
    opened = "" if node["folded"] else " open"
    self.body.append(
        f'<details class="code-fold"{opened}>\n'
        f'<summary>{escape(node["summary"])} '
        f'<span class="code-fold-lines">{count}</span></summary>\n')


def depart_code_fold(self, node: code_fold) -> None:
    self.body.append("</details>\n")


def setup(app: Sphinx) -> dict:
    app.add_node(code_fold, html=(visit_code_fold, depart_code_fold))
    app.add_post_transform(FoldCode)
    return {"version": "1.0", "parallel_read_safe": True,
            "parallel_write_safe": True}
