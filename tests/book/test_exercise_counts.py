"""The pages that say which chapters have an exercise notebook name exactly the chapters of
the notebooks in ``exercises/`` ("Chapters 1 to 6, 8 and 10 each have an exercise notebook").

The sentence is read in each page's source, where the book writes chapter numbers as
``{numref}`Chapters %s <chapter-1>``` and README.md writes them out; a notebook added to (or
removed from) ``exercises/`` fails this test until every page says so.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["book/intro.md", "book/how-to-use.md", "book/teaching.md", "README.md"]
EXERCISE_CHAPTERS = sorted(int(path.name[:2])
                           for path in (ROOT / "exercises").glob("[0-9][0-9]-*.ipynb"))

# {numref}`Chapters %s <chapter-1>` -> "Chapters 1"; {numref}`%s <chapter-6>` -> "6"
_NUMREF = re.compile(r"\{numref\}`([^`<]*)<chapter-(\d+)>`")
# "Chapters 1 to 6, 8 and 10": the list after "Chapters"
_CHAPTER_LIST = re.compile(r"\bChapters\s+(\d+(?:\s*(?:,|to|and|,\s*and)\s*\d+)*)")


def _plain(text: str) -> str:
    """The page's text with chapter references written as their numbers, on one line."""
    text = _NUMREF.sub(lambda m: m.group(1).replace("%s", m.group(2)).strip(), text)
    return re.sub(r"\s+", " ", text)


def _chapters(listed: str) -> list[int]:
    """ "1 to 6, 8 and 10" -> [1, 2, 3, 4, 5, 6, 8, 10]"""
    chapters = []
    for part in re.split(r"\s*(?:,\s*and|,|and)\s*", listed):
        first, _, last = part.partition(" to ")
        chapters.extend(range(int(first), int(last or first) + 1))
    return sorted(chapters)


def exercise_claims(text: str) -> list[list[int]]:
    """The chapters named by each sentence of ``text`` that says they have exercise notebooks."""
    claims = []
    for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z{*])", _plain(text)):
        if "exercise notebook" not in sentence:
            continue
        for match in _CHAPTER_LIST.finditer(sentence):
            claims.append(_chapters(match.group(1)))
    return claims


def test_the_parser_reads_the_book_s_way_of_listing_chapters():
    text = ("{numref}`Chapters %s <chapter-1>` to {numref}`%s <chapter-6>`, "
            "{numref}`%s <chapter-8>` and\n{numref}`%s <chapter-10>`\n"
            "each have an exercise notebook in `exercises/`.")
    assert exercise_claims(text) == [[1, 2, 3, 4, 5, 6, 8, 10]]
    assert exercise_claims("Chapters 1 to 6 and 8 each have an exercise notebook.") == [
        [1, 2, 3, 4, 5, 6, 8]]


@pytest.mark.parametrize("page", PAGES)
def test_the_page_names_every_chapter_with_an_exercise_notebook(page):
    assert len(EXERCISE_CHAPTERS) >= 8
    claims = exercise_claims((ROOT / page).read_text(encoding="utf-8"))
    assert claims, f"{page} no longer says which chapters have an exercise notebook"
    for chapters in claims:
        assert chapters == EXERCISE_CHAPTERS, (
            f"{page} says chapters {chapters} have exercise notebooks; exercises/ has "
            f"{EXERCISE_CHAPTERS}")
