"""The code a reader sees fits the code box and stays short.

* Every code line in the chapters, the practitioners' pages and the exercises (student and
  solution notebooks) has at most 77 characters (within PEP 8's 79: the code box at 1280 px
  shows 77).
* A code cell shown in the book has at most 25 lines: longer plotting or experiment code lives
  in ``prunekit`` or is folded away with the ``hide-input`` tag.
* A chapter's (or practitioners' page's) first mention of a library function or module links to
  the Library reference.
"""

import importlib
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted([*ROOT.glob("chapters/*.ipynb"), *ROOT.glob("practice/*.ipynb"),
                    *ROOT.glob("exercises/*.ipynb"), *ROOT.glob("exercises/solutions/*.ipynb")])
#: The pages that teach from their text: the chapters and the practitioners' pages.
TEXT_PAGES = sorted([*ROOT.glob("chapters/*.ipynb"), *ROOT.glob("practice/*.ipynb")])
MAX_LINE = 77
MAX_VISIBLE_LINES = 25
FOLDED = {"hide-input", "remove-input", "remove-cell", "hide-cell"}


def _code_cells(path):
    notebook = json.loads(path.read_text(encoding="utf8"))
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] == "code":
            source = "".join(cell["source"])
            tags = set(cell.get("metadata", {}).get("tags", []))
            yield index, source, tags


def test_there_are_notebooks_to_check():
    assert len(NOTEBOOKS) >= 20


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_code_lines_fit_the_code_box(path):
    long_lines = [f"cell {index}: {len(line)} chars: {line[:60]}..."
                  for index, source, _ in _code_cells(path)
                  for line in source.splitlines() if len(line) > MAX_LINE]
    assert not long_lines, "\n".join(long_lines)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_visible_code_cells_are_short(path):
    long_cells = [f"cell {index}: {len(source.splitlines())} lines, starting "
                  f"{source.splitlines()[0][:50]!r}"
                  for index, source, tags in _code_cells(path)
                  if not tags & FOLDED and len(source.splitlines()) > MAX_VISIBLE_LINES]
    assert not long_cells, "\n".join(long_cells)


# A mention of a library name in a chapter's text: `pk.cost_complexity`, `pk.nobel(tree, ...)`,
# `prunekit.growing`, or a link to its reference entry ({py:obj}`pk.nobel <prunekit.nobel>`).
_MENTION = re.compile(r"(\{py:(?:obj|mod)\})?`(?:[^`<]*<)?((?:pk|prunekit)(?:\.\w+)+)[^`]*`")


def _library_name(text: str) -> str | None:
    """``prunekit.X`` for a mention of a public name or module of the library, else None."""
    name = "prunekit" + text[len("pk"):] if text.startswith("pk.") else text
    module, _, attribute = name.rpartition(".")
    try:
        return name if hasattr(importlib.import_module(module), attribute) else None
    except ImportError:
        return None


@pytest.mark.parametrize("path", TEXT_PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_chapter_links_its_first_mention_of_each_library_name(path):
    """The first time a chapter's text names a function or module of prunekit, the name links
    to its entry in the Library reference."""
    notebook = json.loads(path.read_text(encoding="utf8"))
    first = {}
    for cell in notebook["cells"]:
        if cell["cell_type"] == "markdown":
            for role, text in _MENTION.findall("".join(cell["source"])):
                name = _library_name(text)
                if name is not None:
                    first.setdefault(name, bool(role))
    assert first, "the chapter names no library function"
    unlinked = sorted(name for name, linked in first.items() if not linked)
    assert not unlinked, f"first mentions without a link to the reference: {unlinked}"
