"""Every student exercise notebook is a page of the book, linked from its chapter's exercise
section; the solutions are not pages."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
STUDENT = sorted((ROOT / "exercises").glob("*.ipynb"))
TOC = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))


def _toc_part(caption: str) -> list[str]:
    (part,) = [p for p in TOC["parts"] if p["caption"] == caption]
    return [entry["file"] for entry in part["chapters"]]


def test_the_exercises_part_lists_every_student_notebook_after_the_chapters():
    captions = [p["caption"] for p in TOC["parts"]]
    assert captions.index("Exercises") == captions.index("Chapters") + 1
    assert _toc_part("Exercises") == [f"exercises/{p.stem}" for p in STUDENT]


def test_solutions_stay_out_of_the_book():
    assert "exercises/solutions" in CONFIG["exclude_patterns"]
    assert "exercises" not in CONFIG["exclude_patterns"]
    files = [entry for part in TOC["parts"] for entry in _toc_part(part["caption"])]
    assert not any("solutions" in name for name in files)


@pytest.mark.parametrize("student", STUDENT, ids=lambda p: p.name)
def test_the_chapter_links_to_its_exercise_page(student):
    number = int(student.name[:2])
    (chapter,) = (ROOT / "chapters").glob(f"{student.name[:2]}-*.ipynb")
    text = "\n".join(c.source for c in nbformat.read(chapter, as_version=4).cells
                     if c.cell_type == "markdown")
    section = text[text.index("## Exercises"):]
    link = f"[Exercises for Chapter {number}](../exercises/{student.name})"
    assert link in section
    title = nbformat.read(student, as_version=4).cells[0].source.splitlines()[0]
    assert re.match(rf"# Exercises for Chapter {number}\b", title)
