"""The layer rule (README, "The library"): the library never imports the book's package, and
the book uses only the library's public API.

``prunekit`` is the library, what a practitioner imports; ``pdtbook`` (in ``book/``) is the
book's package (chapter figures, exercise checks, the experiment and study runners, Weka and
rpart interop, the result tables), which imports the library. Three checks: importing every
module of prunekit loads no module of pdtbook; no module of prunekit imports it, not even
inside a function; and no code of the book (pdtbook, the notebooks, the book's scripts and
extensions) imports a private name of prunekit or reads a private attribute of one of its
objects.
"""

import ast
import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

import pdtbook
import prunekit

PACKAGE = Path(prunekit.__file__).resolve().parent
BOOK = Path(pdtbook.__file__).resolve().parent
ROOT = PACKAGE.parent


def _core_modules() -> dict[str, Path]:
    """Every module of the library, by dotted name."""
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def _is_book(name: str) -> bool:
    return name == "pdtbook" or name.startswith("pdtbook.")


def test_the_core_and_the_book_layer_are_both_there():
    modules = _core_modules()
    assert {"prunekit", "prunekit.tree", "prunekit.plotting", "prunekit.estimator"} <= set(modules)
    assert not any(_is_book(name) for name in modules)
    assert (BOOK / "__init__.py").is_file() and (BOOK / "figures" / "__init__.py").is_file()
    assert BOOK.parent == ROOT / "book" and not (PACKAGE / "book").exists()


def test_importing_the_core_loads_no_module_of_the_book_layer():
    names = list(_core_modules())
    script = ("import importlib, json, sys\n"
              f"for name in {names!r}:\n"
              "    importlib.import_module(name)\n"
              "print(json.dumps(sorted(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True)
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert "prunekit.tree" in loaded
    assert [name for name in loaded if _is_book(name)] == []


def _book_imports(path: Path, module: str) -> list[str]:
    """The imports of the book layer in one module's source, with their line numbers."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:                                  # a relative import
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            names = [base] + [f"{base}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Call) and node.args and \
                isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            function = node.func
            called = function.attr if isinstance(function, ast.Attribute) else \
                getattr(function, "id", "")
            if called in ("import_module", "__import__"):
                names = [node.args[0].value]
        found += [(node.lineno, name) for name in names if _is_book(name)]
    return [f"line {line}: {name}" for line, name in sorted(found)]


def test_no_core_module_imports_the_book_layer():
    offending = {module: found for module, path in _core_modules().items()
                 if (found := _book_imports(path, module))}
    assert offending == {}


def test_the_source_check_sees_every_form_of_import(tmp_path):
    source = tmp_path / "example.py"
    source.write_text("import pdtbook.study\n"
                      "from pdtbook import figures\n"
                      "def later():\n"
                      "    import importlib\n"
                      "    return importlib.import_module('pdtbook.weka')\n"
                      "from prunekit import bounds, plotting\n"
                      "import prunekit.tree\n")
    found = _book_imports(source, "prunekit.example")
    assert [line.split(":")[0] for line in found] == ["line 1", "line 2", "line 2", "line 5"]


# ---------------------------------------------------------------------- the book's side
def _book_sources():
    """Every piece of the book's code: pdtbook's modules, the book's scripts and Sphinx
    extensions, and the chapters, practitioners' pages and exercises (each notebook's code
    cells as one source, cells separated by a comment line naming the cell). The tests are
    not the book's code: white-box tests may read the library's internals (J48's bit-exact
    arithmetic, say)."""
    paths = [*BOOK.rglob("*.py"), *(ROOT / "book").glob("*.py"), *(ROOT / "book").glob("_ext/*.py")]
    for path in sorted(paths):
        yield str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")
    for path in sorted([*ROOT.glob("chapters/*.ipynb"), *ROOT.glob("practice/*.ipynb"),
                        *ROOT.glob("exercises/*.ipynb"),
                        *ROOT.glob("exercises/solutions/*.ipynb")]):
        cells = [f"# cell {index}\n" + "\n".join(
                     line for line in cell.source.splitlines()
                     if not line.lstrip().startswith(("%", "!")))
                 for index, cell in enumerate(nbformat.read(path, as_version=4).cells)
                 if cell.cell_type == "code"]
        yield str(path.relative_to(ROOT)), "\n".join(cells)


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _prunekit_names(tree: ast.AST) -> set[str]:
    """The names ``source`` binds to prunekit's modules and objects by importing them."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names
                      if alias.name.split(".")[0] == "prunekit"}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                and node.module.split(".")[0] == "prunekit":
            names |= {alias.asname or alias.name for alias in node.names}
    return names


def _root(node: ast.AST) -> str | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def private_uses(source: str) -> list[str]:
    """The private names of prunekit that ``source`` imports (``from prunekit.x import _y``,
    ``import prunekit._x``) or reads as attributes of a name it imported from prunekit
    (``growing._y``, ``pk.Tree._z``)."""
    found = []
    tree = ast.parse(source)
    imported = _prunekit_names(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                and node.module.split(".")[0] == "prunekit":
            found += [f"line {node.lineno}: from {node.module} import {alias.name}"
                      for alias in node.names if _private(alias.name)
                      or any(_private(part) for part in node.module.split("."))]
        elif isinstance(node, ast.Import):
            found += [f"line {node.lineno}: import {alias.name}" for alias in node.names
                      if alias.name.split(".")[0] == "prunekit"
                      and any(_private(part) for part in alias.name.split("."))]
        elif isinstance(node, ast.Attribute) and _private(node.attr) \
                and _root(node) in imported:
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def test_the_book_uses_only_the_public_api_of_prunekit():
    offending = {where: found for where, source in _book_sources()
                 if (found := private_uses(source))}
    assert offending == {}


def test_the_private_name_check_sees_imports_and_attributes():
    source = ("from prunekit.growing import _best_split, grow_tree\n"
              "import prunekit._validation\n"
              "from prunekit._validation import check_count\n"
              "from pdtbook.figures._style import _figure_docstring\n"
              "from prunekit import growing\n"
              "growing._midpoints\n"
              "prunekit.tree._children\n"
              "growing.__name__, self._cache\n")
    assert [use.split(":")[0] for use in private_uses(source)] == [
        "line 1", "line 2", "line 3", "line 6", "line 7"]
