"""Link the first use of each glossary term in each chapter to the glossary.

The terms are those of ``book/glossary.md``; an entry with several names ("reduced-error
pruning", "REP") counts as one, so a chapter links whichever of its names comes first. Only the
prose of markdown cells is searched: headings, labels, directive lines, code, math, links and
roles are left alone, and so are the bodies of collapsed solutions and index entries. The first
use becomes ``{term}`text <name>```; plurals ("leaves", "prunings") are found too.

Usage::

    python book/link_glossary.py            # link the first uses in chapters/*.ipynb
    python book/link_glossary.py --check    # exit 1, naming them, if a first use is not linked
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = ROOT / "book" / "glossary.md"
CHAPTERS = ROOT / "chapters"

# Directives whose whole body is not prose to link (an index entry, a collapsed solution, code).
_SKIPPED_DIRECTIVES = ("index", "solution", "code-cell", "math", "raw")
_FENCE = re.compile(r"^(`{3,}|:{3,})\s*(\{([\w:-]+)\})?")
_NOT_PROSE_LINE = re.compile(r"^\s*(#|\(.*\)=\s*$|:[\w-]+:|<|\|?\s*-{3,})")
_NOT_PROSE_INLINE = re.compile(
    r"\$\$.*?\$\$|\$[^$\n]+\$|\\begin\{(\w+\*?)\}.*?\\end\{\1\}"   # math
    r"|(\{[\w:-]+\})?(`+)[^`]*?\3"                                 # code and roles
    r"|!?\[[^\]]*\]\([^)]*\)|<[^>\n]+>"                            # links, images, HTML
    r"|https?://\S+",
    flags=re.S)
_PLURALS = {"leaf": "leaves", "penalty": "penalties", "inequality": "inequalities"}


def glossary_entries(path: Path = GLOSSARY) -> list[list[str]]:
    """The glossary's entries, each the list of its names, in the file's order."""
    text = path.read_text(encoding="utf-8")
    body = text[text.index("```{glossary}"):].split("\n")[1:]
    entries: list[list[str]] = []
    names: list[str] = []
    for line in body:
        if line.startswith("```"):
            break
        if not line.strip() or line.startswith((" ", ":")):
            if names:
                entries.append(names)
                names = []
            continue
        names.append(line.strip())
    if names:
        entries.append(names)
    return entries


def _pattern(name: str) -> str:
    """A regular expression for ``name`` in running text (capitalised, plural, ’ or ')."""
    words = name.split(" ")
    last = words[-1]
    forms = [re.escape(last), re.escape(_PLURALS.get(last, last + "s"))]
    if len(words) == 1:
        forms = [_capitalised(form) for form in forms]
    parts = [re.escape(w) for w in words[:-1]] + [f"(?:{'|'.join(forms)})"]
    if len(words) > 1:
        parts[0] = _capitalised(parts[0])
    text = r"\s".join(parts).replace("'", "['’]").replace("ization", "i[sz]ation")
    return rf"(?<![\w-]){text}(?![\w])(?!-\w)"


def _capitalised(word: str) -> str:
    """``word`` (a regular expression) that may also start with a capital."""
    if word[:1].islower():
        return f"[{word[0]}{word[0].upper()}]{word[1:]}"
    return word


def prose_mask(source: str) -> list[bool]:
    """For each character of a markdown cell, whether it is prose that may be linked."""
    mask = [False] * len(source)
    position = 0
    fences: list[tuple[str, bool]] = []        # the open fences, and whether to skip inside
    for line in source.split("\n"):
        start, end = position, position + len(line)
        position = end + 1
        fence = _FENCE.match(line)
        if fence:
            rest = line.strip()[len(fence.group(1)):].strip()
            if not rest and fences and fences[-1][0] == fence.group(1):
                fences.pop()
            else:
                name = fence.group(3)
                fences.append((fence.group(1), name is None or name in _SKIPPED_DIRECTIVES))
            continue
        if any(skip for _, skip in fences) or _NOT_PROSE_LINE.match(line):
            continue
        for i in range(start, end):
            mask[i] = True
    # fence lines are blanked so that their backticks do not open an inline code span
    plain = re.sub(r"^(`{3,}|:{3,}).*$", lambda m: " " * len(m.group()), source, flags=re.M)
    for match in _NOT_PROSE_INLINE.finditer(plain):
        for i in range(match.start(), match.end()):
            mask[i] = False
    return mask


def _linked_entries(text: str, entries: list[list[str]]) -> dict[int, int]:
    """Entry index -> position of its first ``{term}`` role in ``text``."""
    found: dict[int, int] = {}
    lookup = {name.lower(): index for index, names in enumerate(entries) for name in names}
    for match in re.finditer(r"\{term\}`([^`<]*?)(?:<([^>`]+)>)?`", text):
        target = (match.group(2) or match.group(1)).strip().lower()
        if target in lookup:
            found.setdefault(lookup[target], match.start())
    return found


def first_uses(text: str, entries: list[list[str]]) -> dict[int, tuple[int, int, str]]:
    """Entry index -> (start, end, name) of its first use in the prose of ``text``.

    Where names overlap ("pruning" inside "pruning sample"), the longest match wins.
    """
    mask = prose_mask(text)
    matches = []
    for index, names in enumerate(entries):
        for name in names:
            for match in re.finditer(_pattern(name), text):
                if all(mask[match.start():match.end()]):
                    matches.append((match.start(), -(match.end() - match.start()), index,
                                    name, match.end()))
    matches.sort()
    first: dict[int, tuple[int, int, str]] = {}
    covered = -1
    for start, _, index, name, end in matches:
        if start < covered:
            continue
        covered = end
        first.setdefault(index, (start, end, name))
    return first


def _cells(path: Path):
    notebook = nbformat.read(path, as_version=4)
    return notebook, [cell for cell in notebook.cells if cell.cell_type == "markdown"]


def unlinked_first_uses(path: Path, entries: list[list[str]]) -> list[str]:
    """The names whose first use in the chapter comes before any link to their entry."""
    _, cells = _cells(path)
    text = "\n\n".join(cell.source for cell in cells)
    linked = _linked_entries(text, entries)
    missing = []
    for index, (start, _, name) in sorted(first_uses(text, entries).items(),
                                          key=lambda item: item[1][0]):
        if linked.get(index, len(text)) > start:
            missing.append(f"{name!r} at {text[start:start + 40]!r}")
    return missing


def link_chapter(path: Path, entries: list[list[str]]) -> int:
    """Link the first use of each entry in one chapter; returns how many were linked."""
    notebook, cells = _cells(path)
    done = set(_linked_entries("\n\n".join(c.source for c in cells), entries))
    count = 0
    for cell in cells:
        uses = {index: use for index, use in first_uses(cell.source, entries).items()
                if index not in done}
        for index, (start, end, name) in sorted(uses.items(), key=lambda item: -item[1][0]):
            found = re.sub(r"\s+", " ", cell.source[start:end])
            target = entries[index][entries[index].index(name)]
            role = (f"{{term}}`{found}`" if found == target
                    else f"{{term}}`{found} <{target}>`")
            cell.source = cell.source[:start] + role + cell.source[end:]
            done.add(index)
            count += 1
    if count:
        nbformat.write(notebook, path)
    return count


def chapter_notebooks() -> list[Path]:
    return sorted(CHAPTERS.glob("[0-9][0-9]-*.ipynb"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 if a first use is not linked")
    args = parser.parse_args(argv)
    entries = glossary_entries()
    stale = []
    for path in chapter_notebooks():
        if args.check:
            stale += [f"{path.name}: {use}" for use in unlinked_first_uses(path, entries)]
        else:
            print(f"{path.name}: {link_chapter(path, entries)} terms linked")
    if stale:
        print("First uses of glossary terms not linked (run python book/link_glossary.py):",
              *stale, sep="\n  ", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
