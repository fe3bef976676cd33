"""Write the install cell into every chapter, practitioners' page and exercise notebook, from
``_config.yml``.

A notebook opened where the book's code is missing (Colab, a fresh JupyterHub image, a bare
local JupyterLab) needs it before its first import. The first code cell of every notebook
therefore installs, quietly, from the book's repository, the two packages the notebooks
import: ``prunekit`` (the library, at the top of the repository) and ``pdtbook`` (the book's
own code, in ``book/``, which brings the packages the notebooks import beside prunekit:
ipywidgets, scikit-posthocs, statsmodels, ...). It does so when any of them is missing, and
does nothing where they are all installed (under ``make test``, or after a ``pip install``
of both). The cell is tagged ``remove-cell``, so the HTML book does not show it.

A notebook that needs an extra of pdtbook says so in its metadata, ``"prunekit": {"extras":
["optimal"]}`` (Chapter 10 runs STreeD, the ``optimal`` extra; the page on scikit-learn
runs SHAP, the ``explain`` extra): its cell also checks the modules of those extras and
installs ``pdtbook[optimal]``.

The repository and branch come from ``_config.yml`` (``repository.url`` and
``repository.branch``), the same setting the launch buttons use: when the book is published
from another repository, change it there and run ::

    python book/install_cell.py            # rewrite the cell in every notebook
    python book/install_cell.py --check    # exit 1, naming the files, if any cell is stale

The student exercise notebooks are regenerated from their solution sources
(``exercises/make_student.py``), so they carry the same cell.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import textwrap
from pathlib import Path

import nbformat
import yaml

ROOT = Path(__file__).resolve().parents[1]
CELL_ID = "install-prunekit"
TAG = "remove-cell"
#: A code line's length at most (tests/book/test_notebook_style.py).
MAX_LINE = 77
#: The first line of the cell's code, by which a copy of the cell under another id is known.
HEADER = "# Installs prunekit, the book's library, and pdtbook, the code of its"


def repository(config_path: Path = ROOT / "_config.yml") -> tuple[str, str]:
    """The book's repository URL (without a trailing slash) and branch, from ``_config.yml``."""
    config = yaml.safe_load(config_path.read_text(encoding="utf-8"))
    setting = config.get("repository") or {}
    url, branch = setting.get("url"), setting.get("branch")
    if not isinstance(url, str) or not url.startswith("https://"):
        raise ValueError(f"{config_path}: repository.url must be an https:// address, "
                         f"got {url!r}.")
    if not isinstance(branch, str) or not branch or any(c.isspace() for c in branch):
        raise ValueError(f"{config_path}: repository.branch must be a branch name, "
                         f"got {branch!r}.")
    return url.rstrip("/"), branch


def _requirements():
    """The book package's ``_extras`` module (its dependencies and extras)."""
    return _load("_extras", ROOT / "book" / "pdtbook" / "_extras.py")


def _extras_table() -> dict:
    return _requirements().EXTRAS


def notebook_extras(nb: nbformat.NotebookNode) -> list[str]:
    """The extras of pdtbook that the notebook ``nb`` declares in its metadata
    (``"prunekit": {"extras": [...]}``), checked against ``book/pdtbook/_extras.py``."""
    extras = list(nb.metadata.get("prunekit", {}).get("extras", []))
    unknown = [extra for extra in extras if extra not in _extras_table()]
    if unknown:
        raise ValueError(f"unknown extras {unknown!r} in a notebook's metadata; choose from "
                         f"{sorted(_extras_table())}.")
    return extras


def needed_modules(extras=()) -> list[str]:
    """What a notebook imports beyond the standard library: prunekit, pdtbook and the
    modules of pdtbook's dependencies (``book/pdtbook/_extras.py``), and of the ``extras``
    it needs."""
    requirements = _requirements()
    return ["prunekit", "pdtbook", *requirements.DEPENDENCIES.values(),
            *(module for extra in extras for module in requirements.EXTRAS[extra].values())]


def install_source(url: str, branch: str, extras=()) -> str:
    """The code of the install cell for the repository ``url`` at ``branch``: it installs
    ``prunekit`` and ``pdtbook`` (``pdtbook[<extras>]``) when a module of :func:`needed_modules`
    is missing."""
    book = f"pdtbook[{','.join(extras)}]" if extras else "pdtbook"
    needed = textwrap.wrap(f"NEEDED = {needed_modules(extras)!r}".replace("'", '"'), MAX_LINE,
                           subsequent_indent=" " * len("NEEDED = ["),
                           break_long_words=False, break_on_hyphens=False)
    lines = [
        HEADER,
        "# chapters, with the packages they import, where one is missing (e.g. on",
        "# Colab); does nothing where they are installed.",
        "import importlib.util",
        "",
        *needed,
        "if not all(importlib.util.find_spec(name) for name in NEEDED):",
        f'    SOURCE = "git+{url}@{branch}"',
        '    BOOK = SOURCE + "#subdirectory=book"',
        f'    %pip install -q "prunekit @ {{SOURCE}}" "{book} @ {{BOOK}}"',
    ]
    too_long = [line for line in lines if len(line) > MAX_LINE]
    if too_long:
        raise ValueError(f"the install cell's line {too_long[0]!r} is longer than {MAX_LINE} "
                         "characters; shorten repository.url in _config.yml.")
    return "\n".join(lines)


def install_cell(source: str) -> nbformat.NotebookNode:
    """A fresh install cell (no outputs, tagged ``remove-cell``) with the code ``source``."""
    cell = nbformat.v4.new_code_cell(source, metadata={"tags": [TAG]})
    cell.id = CELL_ID
    return cell


def first_code_cell(nb: nbformat.NotebookNode):
    """The index of the first code cell of ``nb`` (``None`` without code cells)."""
    return next((i for i, cell in enumerate(nb.cells) if cell.cell_type == "code"), None)


def is_install_cell(cell: nbformat.NotebookNode) -> bool:
    """Whether ``cell`` is an install cell: the one of id ``CELL_ID``, or a copy of it under
    another id (a code cell starting with :data:`HEADER`), as a cell copied from another
    notebook becomes."""
    return cell.cell_type == "code" and (cell.get("id") == CELL_ID
                                         or cell.source.startswith(HEADER))


def with_install_cell(nb: nbformat.NotebookNode, source: str) -> nbformat.NotebookNode:
    """``nb`` with the install cell as its first code cell (replacing an existing one, and
    any copy of it)."""
    nb.cells = [cell for cell in nb.cells if not is_install_cell(cell)]
    index = first_code_cell(nb)
    nb.cells.insert(len(nb.cells) if index is None else index, install_cell(source))
    return nb


def notebooks() -> list[Path]:
    """The notebooks the cell is written into: chapters, the practitioners' pages
    (``practice/``) and exercise solution sources."""
    return sorted(ROOT.glob("chapters/*.ipynb")) + sorted(ROOT.glob("practice/*.ipynb")) \
        + sorted(ROOT.glob("exercises/solutions/*.ipynb"))


def _load(name: str, path: Path):
    """The module of the file ``path`` (which need not be importable)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a notebook's install cell is stale")
    args = parser.parse_args(argv)
    url, branch = repository()
    stale = []
    for path in notebooks():
        nb = nbformat.read(path, as_version=4)
        source = install_source(url, branch, notebook_extras(nb))
        index = first_code_cell(nb)
        current = nb.cells[index] if index is not None else None
        if (current is not None and current.get("id") == CELL_ID
                and current.source == source and TAG in current.metadata.get("tags", [])
                and sum(map(is_install_cell, nb.cells)) == 1):
            continue
        stale.append(str(path.relative_to(ROOT)))
        if not args.check:
            nbformat.write(with_install_cell(nb, source), path)
            print(f"wrote {path.relative_to(ROOT)}")
    if args.check:
        if stale:
            print("Install cells out of date (run python book/install_cell.py):", *stale,
                  sep="\n  ", file=sys.stderr)
        return 1 if stale else 0
    return _load("make_student", ROOT / "exercises" / "make_student.py").main([])


if __name__ == "__main__":
    sys.exit(main())
