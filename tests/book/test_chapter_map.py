"""The preface's map of the book is up to date and backed by the text."""

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "book"))

import chapter_map  # noqa: E402


def _text(chapter):
    path = chapter_map.chapter_notebook(chapter)
    cells = json.loads(path.read_text(encoding="utf8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def test_the_generated_files_are_current():
    """`python book/chapter_map.py` leaves nothing to change (rerun it after editing)."""
    for path, text in chapter_map.outputs().items():
        assert path.read_text(encoding="utf8") == text, (
            f"{path.name} is stale: run python book/chapter_map.py")


@pytest.mark.parametrize("chapter", sorted(chapter_map.NEEDS))
def test_every_dependency_is_a_reference_in_the_text(chapter):
    """A chapter needs another only where one of the two refers to the other."""
    for item in chapter_map.NEEDS[chapter]:
        if item == "A":
            label = "app-"
            assert label in _text(chapter) or "appendix-probability" in _text(chapter)
            continue
        mentions = (f"chapter-{item}" in _text(chapter)
                    or f"chapter-{chapter}" in _text(item))
        assert mentions, f"Chapter {chapter} and Chapter {item} never refer to each other"


def test_each_chapter_stands_right_of_what_it_needs(monkeypatch):
    chapter_map.check_positions()
    monkeypatch.setitem(chapter_map.POSITION, 1, (2, 0))
    with pytest.raises(ValueError, match="Chapter 1 must stand left of Chapter 2"):
        chapter_map.check_positions()


def test_reading_time_counts_words_and_cells():
    """Math, code and link targets are not words; times are whole 5 minutes."""
    assert chapter_map._words("the $x^2$ word `code` [link](target.md)") == 3
    minutes = {c: chapter_map.reading_minutes(c) for c in chapter_map.TITLES}
    assert all(m % 5 == 0 and 10 <= m <= 120 for m in minutes.values()), minutes


def test_exercise_numbers_follow_the_exercise_notebooks():
    assert chapter_map.exercises(2)[0] == "2.1"
    assert chapter_map.exercises(7) == []
    assert all(re.fullmatch(r"\d+\.\d+", n) for c in chapter_map.TITLES
               for n in chapter_map.exercises(c))


def test_the_map_is_drawn_at_the_size_it_is_shown():
    import matplotlib.pyplot as plt
    from matplotlib.text import Text

    fig = chapter_map.draw_map()
    try:
        assert fig.get_figwidth() <= 7.0
        sizes = [t.get_fontsize() for t in fig.findobj(Text) if t.get_text()]
        assert sizes and min(sizes) >= 9
    finally:
        plt.close(fig)
