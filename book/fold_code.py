"""Fold the chapters' long plotting and set-up code on the web page.

On a phone, code took 14-17 % of a chapter page's height. Every code cell
of the HTML book can be folded (``book/_ext/code_folds.py`` puts its code
under a one-line summary that a reader opens), and the cells of two kinds
are folded when the page opens, tagged ``fold-code`` by this script:

* the chapter's **set-up** cell: the first code cell the page shows (the
  install cell before it is removed from the page), when it begins with
  the chapter's imports;
* a **plotting** cell of at least ``MIN_LINES`` lines: every output it
  has is a figure (no printed text, table or widget), so the figure under
  the fold shows what it does.

Only the tags change: a notebook's sources and outputs are left as they
are (the notebook test compares the outputs with a fresh run). A tag an
author added by hand, to fold another cell, is kept. The tag is the
book's own: myst-nb's ``hide-input`` would fold the cell too, but Jupyter
Book's LaTeX writer (sphinx-jupyterbook-latex) leaves a ``hide-input``
cell's code out of the PDF edition, which prints every ``fold-code``
cell's code.

Usage::

    python book/fold_code.py          # tag the cells the rule picks
    python book/fold_code.py --check  # exit 1, naming them, if a picked
                                      # cell is not tagged
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = ROOT / "chapters"
TAG = "fold-code"
#: A plotting cell shorter than this stays open: its summary line would
#: save little.
MIN_LINES = 6
#: The tags of a cell the page does not show.
REMOVED = {"remove-cell", "remove-input"}
#: The output types of a figure (which also carries a text/plain one).
FIGURES = ("image/png", "image/svg+xml", "image/jpeg")


def _tags(cell) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def _starts_with_import(source: str) -> bool:
    """Whether the first statement of some code is an ``import``.

    Parameters
    ----------
    source : str
        The code; IPython's ``%`` and ``!`` lines are left out.

    Returns
    -------
    bool
    """
    lines = [line for line in source.splitlines()
             if not line.lstrip().startswith(("%", "!"))]
    try:
        body = ast.parse("\n".join(lines)).body
    except SyntaxError:
        return False
    return bool(body) and isinstance(body[0], (ast.Import, ast.ImportFrom))


def only_plots(cell) -> bool:
    """Whether a cell has outputs and every one of them is a figure.

    Parameters
    ----------
    cell : nbformat.NotebookNode
        A code cell.

    Returns
    -------
    bool
    """
    outputs = cell.get("outputs", [])
    return bool(outputs) and all(
        output.get("output_type") in ("display_data", "execute_result")
        and any(kind in output.get("data", {}) for kind in FIGURES)
        for output in outputs)


def folded_cells(nb) -> list[int]:
    """The code cells of a notebook that the rule folds.

    Parameters
    ----------
    nb : nbformat.NotebookNode
        A chapter's notebook.

    Returns
    -------
    list of int
        The indices of its set-up cell and long plotting cells (see the
        module's docstring).
    """
    shown = [index for index, cell in enumerate(nb.cells)
             if cell.cell_type == "code" and not REMOVED & set(_tags(cell))]
    picked = []
    for position, index in enumerate(shown):
        cell = nb.cells[index]
        setup = position == 0 and _starts_with_import(cell.source)
        plotting = (only_plots(cell)
                    and len(cell.source.splitlines()) >= MIN_LINES)
        if setup or plotting:
            picked.append(index)
    return picked


def untagged(nb) -> list[int]:
    """The cells the rule folds that are not tagged yet.

    Parameters
    ----------
    nb : nbformat.NotebookNode
        A chapter's notebook.

    Returns
    -------
    list of int
        Their indices.
    """
    return [index for index in folded_cells(nb)
            if TAG not in _tags(nb.cells[index])]


def chapter_notebooks() -> list[Path]:
    return sorted(CHAPTERS.glob("*.ipynb"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--check", action="store_true",
        help="change nothing; exit 1 if a cell the rule folds is not tagged")
    args = parser.parse_args(argv)
    stale = []
    for path in chapter_notebooks():
        nb = nbformat.read(path, as_version=4)
        missing = untagged(nb)
        if not missing:
            continue
        stale += [f"{path.name}: cell {index}" for index in missing]
        if not args.check:
            for index in missing:
                cell = nb.cells[index]
                cell.metadata["tags"] = [*_tags(cell), TAG]
            nbformat.write(nb, path)
            print(f"{path.name}: {len(missing)} cell(s) tagged {TAG}")
    if args.check and stale:
        print(f"Cells to fold that are not tagged {TAG} "
              "(run python book/fold_code.py):",
              *stale, sep="\n  ", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
