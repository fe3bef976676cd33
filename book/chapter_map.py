"""The preface's map of the book: which chapter needs which, and how long each one takes.

Writes two files that the preface includes:

* ``book/_generated/chapter-map.svg``: the dependency map, a figure drawn with matplotlib at
  the width the book shows it (7 in, text at 10 pt);
* ``book/_generated/chapter-table.md``: a table with, for each chapter, the chapters it needs,
  an estimate of its reading time and its exercises.

The dependencies are an editorial statement (:data:`NEEDS`: what a reader should have read
first); each one is backed by the text, since one of the two chapters refers to the other
(``tests/test_chapter_map.py`` checks it). The reading time is computed from the notebooks:
the words of the text at :data:`WORDS_PER_MINUTE`, plus :data:`MINUTES_PER_CELL` for each code
cell a reader sees, rounded up to 5 minutes. The exercises are the ``Exercise N.k`` headings of
the chapter's exercise notebook.

Usage (after changing a chapter)::

    python book/chapter_map.py            # rewrite both files
    python book/chapter_map.py --check    # exit 1 if either file is stale
"""

from __future__ import annotations

import argparse
import io
import json
import math
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "book" / "_generated"
WORDS_PER_MINUTE = 200
MINUTES_PER_CELL = 1.0

TITLES = {
    1: "Decision trees and why they overfit",
    2: "Cost-complexity pruning",
    3: "Reduced-error pruning",
    4: "Bottom-up pruning: Kearns and Mansour",
    5: "The square-root penalty: Nobel",
    6: "Rademacher penalties and k-REP",
    7: "Reproducing Kääriäinen et al.",
    8: "The classic heuristics",
    9: "Which pruner?",
    10: "Optimal trees",
    11: "Regression trees",
}
SHORT = {1: "Trees, overfitting", 2: "Cost complexity", 3: "Reduced error",
         4: "Kearns–Mansour", 5: "Nobel", 6: "Rademacher", 7: "Reproduction",
         8: "Heuristics", 9: "Comparison", 10: "Optimal trees",
         11: "Regression trees"}
# chapter -> the chapters (and "A", the probability appendix) a reader should know first
NEEDS = {1: [], 2: [1], 3: [1], 4: [1, "A"], 5: [2, 4], 6: [3, 4], 7: [6], 8: [2, 3],
         9: [8], 10: [6, 8], 11: [5]}


def chapter_notebook(chapter: int, folder: str = "chapters") -> Path:
    """The notebook of a chapter (or of its exercises, with ``folder="exercises"``)."""
    matches = sorted((ROOT / folder).glob(f"{chapter:02d}-*.ipynb"))
    return matches[0] if matches else None


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf8"))["cells"]


def _words(markdown: str) -> int:
    """Words of running text: math, code, links' targets and directive lines left out."""
    text = re.sub(r"\$\$.*?\$\$|\$[^$]*\$|```.*?```|`[^`]*`", " ", markdown, flags=re.S)
    text = re.sub(r"\]\([^)]*\)|^\(.*\)=$|^:\w+:.*$", " ", text, flags=re.M)
    return len(re.findall(r"[A-Za-zÀ-ÿ]+", text))


def reading_minutes(chapter: int) -> int:
    """Estimated minutes to read a chapter and its code, rounded up to 5."""
    cells = _cells(chapter_notebook(chapter))
    words = sum(_words("".join(c["source"])) for c in cells if c["cell_type"] == "markdown")
    shown = [c for c in cells if c["cell_type"] == "code"
             and not {"remove-cell", "remove-input"} & set(c["metadata"].get("tags", []))]
    minutes = words / WORDS_PER_MINUTE + MINUTES_PER_CELL * len(shown)
    return 5 * math.ceil(minutes / 5)


def exercises(chapter: int) -> list[str]:
    """The numbers of the exercises of a chapter's exercise notebook ("2.1", ...)."""
    path = chapter_notebook(chapter, "exercises")
    if path is None:
        return []
    text = "\n".join("".join(c["source"]) for c in _cells(path) if c["cell_type"] == "markdown")
    return re.findall(rf"^#+ Exercise ({chapter}\.\d+)", text, flags=re.M)


def _name(item) -> str:
    return "the appendix" if item == "A" else f"Chapter {item}"


def _link(item) -> str:
    if item == "A":
        return "{numref}`Appendix %s <appendix-probability>`"
    return f"{{numref}}`Chapter %s <chapter-{item}>`"


def chapter_table() -> str:
    """The preface's table, in MyST markdown."""
    lines = ["| chapter | read first | reading time | exercises |",
             "|---|---|---|---|"]
    for chapter, title in TITLES.items():
        needs = ", ".join(_link(item) for item in NEEDS[chapter]) or "—"
        numbers = exercises(chapter)
        work = f"{numbers[0]}–{numbers[-1]}" if numbers else "—"
        lines.append(f"| {_link(chapter)}: {title} | {needs} | "
                     f"{reading_minutes(chapter)} min | {work} |")
    return "\n".join(lines) + "\n"


# Where each box stands in the map: (column, row). Columns follow the longest chain of
# prerequisites (a chapter stands right of everything it needs); rows keep arrows short.
POSITION = {1: (0, 0.5), "A": (0, 1.7), 2: (1, 0), 3: (1, 1), 4: (1, 2), 8: (2, 0),
            5: (2, 1), 6: (2, 2), 9: (3, 0.45), 7: (3, 2), 10: (3, 1.25),
            11: (3, -0.3)}
BOX_WIDTH, BOX_HEIGHT = 0.78, 0.56


def check_positions() -> None:
    """Every chapter stands in a column right of the chapters it needs."""
    for chapter, needs in NEEDS.items():
        for item in needs:
            if POSITION[item][0] >= POSITION[chapter][0]:
                raise ValueError(f"{_name(item)} must stand left of Chapter {chapter}")


def draw_map():
    """The dependency map as a matplotlib figure, 7 in wide, text at 10 pt."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyBboxPatch

    check_positions()
    fig, ax = plt.subplots(figsize=(7.0, 3.3))
    ax.set_xlim(-0.5, 3.5)
    ax.set_ylim(2.45, -0.75)
    ax.axis("off")
    for chapter, needs in NEEDS.items():
        x, y = POSITION[chapter]
        for item in needs:
            x0, y0 = POSITION[item]
            ax.annotate("", xy=(x - BOX_WIDTH / 2, y), xytext=(x0 + BOX_WIDTH / 2, y0),
                        arrowprops=dict(arrowstyle="-|>", color="#666666", lw=1.0,
                                        shrinkA=0, shrinkB=1, mutation_scale=12))
    for item, (x, y) in POSITION.items():
        label = "Appendix A\nprobability" if item == "A" else f"{item}\n{SHORT[item]}"
        colour = "#f2f2f2" if item == "A" else "#dbe7f5"
        ax.add_patch(FancyBboxPatch((x - BOX_WIDTH / 2, y - BOX_HEIGHT / 2), BOX_WIDTH,
                                    BOX_HEIGHT, boxstyle="round,pad=0,rounding_size=0.06",
                                    facecolor=colour, edgecolor="#4C72B0", lw=1.0, zorder=2))
        ax.text(x, y, label, ha="center", va="center", fontsize=10, zorder=3)
    fig.tight_layout(pad=0.1)
    return fig


def map_svg() -> str:
    """The map as SVG text, the same bytes on every run."""
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "chapter-map"
    matplotlib.rcParams["svg.fonttype"] = "none"
    buffer = io.StringIO()
    fig = draw_map()
    fig.savefig(buffer, format="svg", metadata={"Date": None})
    import matplotlib.pyplot as plt

    plt.close(fig)
    return buffer.getvalue()


def outputs() -> dict[Path, str]:
    return {OUT / "chapter-table.md": chapter_table(), OUT / "chapter-map.svg": map_svg()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a file is stale")
    args = parser.parse_args(argv)
    stale = []
    for path, text in outputs().items():
        current = path.read_text(encoding="utf8") if path.exists() else None
        if current != text:
            stale.append(path)
            if not args.check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf8")
    if args.check and stale:
        print("stale (run python book/chapter_map.py):", *map(str, stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
