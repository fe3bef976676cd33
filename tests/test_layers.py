"""The layer rule (README, "The library"): the core never imports the book layer.

``prunekit`` is the core, what a practitioner imports; ``prunekit.book`` is the book layer
(chapter figures, exercise checks, the experiment and study runners, Weka and rpart interop),
which imports the core. Two checks: importing every core module loads no module of the book
layer, and no core module's source imports it, not even inside a function.
"""

import ast
import json
import subprocess
import sys
from pathlib import Path

import prunekit

PACKAGE = Path(prunekit.__file__).resolve().parent
BOOK = PACKAGE / "book"


def _core_modules() -> dict[str, Path]:
    """Every module of the core, by dotted name: the files of prunekit/ outside prunekit/book."""
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if BOOK in path.parents:
            continue
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def _is_book(name: str) -> bool:
    return name == "prunekit.book" or name.startswith("prunekit.book.")


def test_the_core_and_the_book_layer_are_both_there():
    modules = _core_modules()
    assert {"prunekit", "prunekit.tree", "prunekit.plotting", "prunekit.estimator"} <= set(modules)
    assert not any(_is_book(name) for name in modules)
    assert (BOOK / "__init__.py").is_file() and (BOOK / "figures" / "__init__.py").is_file()


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
    source.write_text("import prunekit.book.study\n"
                      "from prunekit.book import figures\n"
                      "from prunekit import book\n"
                      "from .book.runner import run_splits\n"
                      "def later():\n"
                      "    import importlib\n"
                      "    return importlib.import_module('prunekit.book.weka')\n"
                      "from prunekit import bounds, plotting\n"
                      "import prunekit.tree\n")
    found = _book_imports(source, "prunekit.example")
    assert [line.split(":")[0] for line in found] == [
        "line 1", "line 2", "line 2", "line 3", "line 4", "line 4", "line 7"]
