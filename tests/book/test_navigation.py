"""The links that let a reader move between a chapter, its exercises and the glossary, checked
in the notebooks' markdown (the built pages are checked in tests/browser/test_book_navigation.py).

* every section of a chapter has a ``sec-NN-slug`` label;
* every exercise of an exercise page has an ``ex-N-k`` label and names, as a link, the section
  of its chapter that it practises; the page links back to its chapter;
* a chapter links its exercise page at the top and at the end, and each exercise it states to
  the same exercise on the exercise page;
* the first use of every glossary term in a chapter is linked to the glossary;
* a chapter's solution sketches are not in its notebook, where Jupyter and Colab would show
  them in plain text, but in ``chapters/solutions/NN-*.md``, included below each exercise.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "book"))
import link_glossary  # noqa: E402

CHAPTERS = sorted((ROOT / "chapters").glob("[0-9][0-9]-*.ipynb"))
EXERCISE_PAGES = sorted((ROOT / "exercises").glob("[0-9][0-9]-*.ipynb"))
SOLUTIONS = ROOT / "exercises" / "solutions"
_LABEL = re.compile(r"^\(([\w-]+)\)=$")


def _markdown(path: Path) -> list[str]:
    return [cell.source for cell in nbformat.read(path, as_version=4).cells
            if cell.cell_type == "markdown"]


def _chapter_of(page: Path) -> Path:
    (chapter,) = (ROOT / "chapters").glob(f"{page.name[:2]}-*.ipynb")
    return chapter


def _labels_above(lines: list[str], index: int) -> list[str]:
    """The labels on the lines right above ``lines[index]``."""
    labels = []
    while index > 0 and _LABEL.match(lines[index - 1]):
        index -= 1
        labels.append(_LABEL.match(lines[index]).group(1))
    return labels


def section_labels(chapter: Path) -> dict[str, str]:
    """Section title -> its ``sec-NN-*`` label (None when it has none), for the ## headings."""
    number = chapter.name[:2]
    found = {}
    for source in _markdown(chapter):
        lines = source.split("\n")
        for i, line in enumerate(lines):
            if line.startswith("## "):
                labels = [label for label in _labels_above(lines, i)
                          if label.startswith(f"sec-{number}-")]
                found[line[3:]] = labels[0] if labels else None
    return found


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_every_section_of_a_chapter_has_a_label(chapter):
    labels = section_labels(chapter)
    assert len(labels) >= 5
    missing = [title for title, label in labels.items() if label is None]
    assert not missing, f"sections without a sec-{chapter.name[:2]}-* label: {missing}"
    assert len(set(labels.values())) == len(labels)


def exercises_of_page(page: Path) -> list[tuple[str, str, list[str]]]:
    """(heading, its labels, the section labels it links) for every exercise of a page."""
    number = int(page.name[:2])
    found = []
    for source in _markdown(page):
        lines = source.split("\n")
        for i, line in enumerate(lines):
            if re.match(rf"## Exercise {number}\.\d+", line):
                body = "\n".join(lines[i + 1:])
                body = body.split("\n## ")[0]
                sections = re.findall(r"\{numref\}`Section %s <(sec-[\w-]+)>`", body)
                found.append((line, _labels_above(lines, i), sections))
    return found


@pytest.mark.parametrize("page", EXERCISE_PAGES, ids=lambda p: p.stem)
def test_each_exercise_links_the_section_it_practises(page):
    number = int(page.name[:2])
    sections = set(section_labels(_chapter_of(page)).values())
    exercises = exercises_of_page(page)
    assert exercises
    for k, (heading, labels, linked) in enumerate(exercises, start=1):
        assert f"ex-{number}-{k}" in labels, f"{heading}: no (ex-{number}-{k})= label"
        assert linked, f"{heading}: names no section of Chapter {number}"
        assert set(linked) <= sections, f"{heading}: {linked} are not sections of the chapter"


@pytest.mark.parametrize("page", EXERCISE_PAGES, ids=lambda p: p.stem)
def test_the_exercise_page_links_back_to_its_chapter_at_the_top(page):
    chapter = _chapter_of(page)
    top = _markdown(page)[0]
    assert f"[Chapter {int(page.name[:2])}](../chapters/{chapter.name})" in top


@pytest.mark.parametrize("page", EXERCISE_PAGES, ids=lambda p: p.stem)
def test_the_student_page_is_generated_from_the_linked_solution(page):
    """The links are written in the solution notebook, the source of the student page."""
    assert exercises_of_page(page) == exercises_of_page(SOLUTIONS / page.name)


@pytest.mark.parametrize("page", EXERCISE_PAGES, ids=lambda p: p.stem)
def test_the_chapter_links_its_exercises_top_end_and_one_by_one(page):
    number = int(page.name[:2])
    cells = _markdown(_chapter_of(page))
    link = f"[Exercises for Chapter {number}](../exercises/{page.name})"
    assert link in cells[0], "no link to the exercise page at the top"
    assert link in cells[-1].split("\n\n")[-1], "no link to the exercise page at the end"
    statements = re.findall(r"````\{exercise\}.*?\n````", "\n".join(cells), flags=re.S)
    assert len(statements) == len(exercises_of_page(page))
    for k, statement in enumerate(statements, start=1):
        assert f"{{ref}}`Exercise {number}.{k} <ex-{number}-{k}>`" in statement, statement[:80]


def test_the_glossary_has_its_terms():
    entries = link_glossary.glossary_entries()
    assert len(entries) >= 40
    names = {name for names in entries for name in names}
    assert {"reduced-error pruning", "REP", "weakest link", "leaf"} <= names


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_the_first_use_of_each_glossary_term_is_linked(chapter):
    entries = link_glossary.glossary_entries()
    text = "\n\n".join(_markdown(chapter))
    assert len(link_glossary.first_uses(text, entries)) >= 5
    missing = link_glossary.unlinked_first_uses(chapter, entries)
    assert not missing, ("first uses of glossary terms without a {term} link (run "
                         f"python book/link_glossary.py): {missing}")


def test_the_glossary_finder_skips_what_is_not_prose():
    entries = [["reduced-error pruning", "REP"], ["leaf"], ["k-REP"]]
    text = ("## REP\n(sec-01-rep)=\n```{index} single: REP\n```\n"
            "$REP$ and `REP` and [REP](x.md) and k-REP, then the leaves and REP.\n"
            "````{solution} x\nREP\n````\n")
    uses = link_glossary.first_uses(text, entries)
    assert sorted(text[start:end] for start, end, _ in uses.values()) == ["REP", "k-REP",
                                                                          "leaves"]
    assert text[uses[0][0] - 4:uses[0][1]] == "and REP"


_INCLUDE = re.compile(r"```\{include\} solutions/(?P<file>[\w-]+\.md)\n"
                      r":start-after: <!-- (?P<label>[\w-]+) -->\n:end-before: <!-- end -->\n```")


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_solution_sketches_are_included_not_written_in_the_notebook(chapter):
    text = "\n".join(_markdown(chapter))
    assert "{solution}" not in text, "a solution sketch written in the notebook"
    exercises = re.findall(r"````\{exercise\}[^\n]*\n:label: ([\w-]+)", text)
    included = [(m["file"], m["label"]) for m in _INCLUDE.finditer(text)]
    assert [label for _, label in included] == exercises, "one sketch below each exercise"
    if not included:
        return
    assert {name for name, _ in included} == {f"{chapter.stem}.md"}
    sketches = (ROOT / "chapters" / "solutions" / f"{chapter.stem}.md").read_text("utf8")
    blocks = re.findall(r"<!-- ([\w-]+) -->\n````\{solution\} ([\w-]+)\n.*?\n````\n"
                        r"<!-- end -->", sketches, flags=re.S)
    assert [marker for marker, _ in blocks] == exercises
    assert all(marker == label for marker, label in blocks)
