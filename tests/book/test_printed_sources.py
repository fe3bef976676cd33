"""The chapters that print a library function's source print what the library holds.

A chapter shows some functions of prunekit as they are written (``inspect.getsource``), so an
edit of such a function, its docstring included (an Examples section, a reworded line),
changes the chapter's stored output, which nbval compares at the notebook step of
``make test``. This finds it in seconds, without running the notebook: every code cell that
prints a source is run alone, after the notebook's imports, and must print its stored output.
"""

import ast
import contextlib
import io
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "chapters").glob("*.ipynb")) + sorted(
    (ROOT / "exercises" / "solutions").glob("*.ipynb"))


def _calls_getsource(tree: ast.AST) -> bool:
    return any(isinstance(node, ast.Call)
               and "getsource" in (getattr(node.func, "attr", None),
                                   getattr(node.func, "id", None))
               for node in ast.walk(tree))


def _printing_cells():
    """(notebook, cell index, the imports of the cells up to it, the cell, its stored stdout)
    for every code cell that calls inspect.getsource."""
    for path in NOTEBOOKS:
        imports = []
        for index, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
            if cell["cell_type"] != "code":
                continue
            try:
                tree = ast.parse("".join(cell["source"]))
            except SyntaxError:                       # a cell with IPython syntax
                continue
            imports += [node for node in tree.body if isinstance(node, (ast.Import,
                                                                        ast.ImportFrom))]
            if _calls_getsource(tree):
                stdout = "".join("".join(output.get("text", ""))
                                 for output in cell.get("outputs", [])
                                 if output.get("name") == "stdout")
                yield path.name, index, list(imports), tree, stdout


CELLS = list(_printing_cells())


def test_the_scan_finds_the_cells_that_print_a_source():
    found = {notebook for notebook, *_ in CELLS}
    assert {"01-decision-trees.ipynb", "03-reduced-error.ipynb", "06-rademacher.ipynb"} <= found
    assert len(CELLS) >= 6


@pytest.mark.parametrize("notebook, index, imports, tree, stdout", CELLS,
                         ids=[f"{notebook}:cell {index}" for notebook, index, *_ in CELLS])
def test_a_printed_source_is_the_librarys(notebook, index, imports, tree, stdout):
    namespace = {}
    exec(compile(ast.Module(body=imports, type_ignores=[]), notebook, "exec"), namespace)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(tree, f"{notebook}, cell {index}", "exec"), namespace)
    assert printed.getvalue() == stdout, (
        f"{notebook}, cell {index}, prints the source of a library function, which has "
        f"changed since the chapter was run: keep the function (docstring included) as the "
        f"chapter prints it")
