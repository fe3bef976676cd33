"""Generate the student exercise notebooks from their solution sources.

For every ``exercises/solutions/NN-name.ipynb`` this writes ``exercises/NN-name.ipynb``,
following nbgrader's conventions, so the solution notebooks can also be used with nbgrader as
they are:

* in code cells, the lines from ``### BEGIN SOLUTION`` to ``### END SOLUTION`` become
  ``# YOUR CODE HERE`` and ``raise NotImplementedError()``, indented like the first marker;
* in markdown cells, the same region becomes ``YOUR ANSWER HERE``;
* all outputs and execution counts are cleared, and so is the execution-timing metadata
  a notebook runner records; cell metadata (nbgrader's, tags) is kept;
* the notebook metadata keeps only the kernel and the language name.

The output is a deterministic function of the solution notebook (nbformat's JSON, sorted keys,
trailing newline), so the committed student notebooks can be compared byte for byte.

Usage::

    python exercises/make_student.py            # (re)generate every student notebook
    python exercises/make_student.py --check    # exit 1, naming the files, if any is stale
    python exercises/make_student.py exercises/solutions/01-decision-trees.ipynb
"""

from __future__ import annotations

import argparse
import copy
import sys
from pathlib import Path

import nbformat

EXERCISES = Path(__file__).resolve().parent
SOLUTIONS = EXERCISES / "solutions"

BEGIN = "### BEGIN SOLUTION"
END = "### END SOLUTION"
CODE_STUB = ("# YOUR CODE HERE", "raise NotImplementedError()")
ANSWER_STUB = ("YOUR ANSWER HERE",)


class SolutionMarkerError(ValueError):
    """A cell's solution markers are unbalanced."""


def replace_solutions(source: str, stub: tuple[str, ...], where: str = "cell") -> str:
    """Replace every region from a BEGIN to an END marker line by ``stub``, indented like BEGIN."""
    lines = source.split("\n")
    result: list[str] = []
    inside = False
    for number, line in enumerate(lines, start=1):
        marker = line.strip()
        if marker == BEGIN:
            if inside:
                raise SolutionMarkerError(f"{where}, line {number}: {BEGIN!r} inside a solution region.")
            inside = True
            indent = line[: len(line) - len(line.lstrip())]
            result.extend(indent + text for text in stub)
        elif marker == END:
            if not inside:
                raise SolutionMarkerError(f"{where}, line {number}: {END!r} without {BEGIN!r}.")
            inside = False
        elif not inside:
            result.append(line)
    if inside:
        raise SolutionMarkerError(f"{where}: {BEGIN!r} is never closed by {END!r}.")
    return "\n".join(result)


def student_notebook(solution: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The student version of a solution notebook (a new notebook; the input is unchanged)."""
    nb = copy.deepcopy(solution)
    metadata = {}
    if "kernelspec" in nb.metadata:
        metadata["kernelspec"] = nb.metadata.kernelspec
    if "name" in nb.metadata.get("language_info", {}):
        metadata["language_info"] = {"name": nb.metadata.language_info.name}
    nb.metadata = nbformat.NotebookNode(metadata)
    for index, cell in enumerate(nb.cells):
        where = f"cell {index} ({cell.get('id', 'no id')})"
        if cell.cell_type == "code":
            cell.source = replace_solutions(cell.source, CODE_STUB, where)
            cell.outputs = []
            cell.execution_count = None
        elif cell.cell_type == "markdown":
            cell.source = replace_solutions(cell.source, ANSWER_STUB, where)
        cell.metadata.pop("execution", None)
        cell.metadata.pop("collapsed", None)
        cell.metadata.pop("scrolled", None)
    nbformat.validate(nb)
    return nb


def student_text(solution_path: Path) -> str:
    """The exact text of the student notebook generated from ``solution_path``."""
    solution = nbformat.read(solution_path, as_version=4)
    text = nbformat.writes(student_notebook(solution), version=4)
    return text if text.endswith("\n") else text + "\n"


def student_path(solution_path: Path) -> Path:
    """Where the student notebook of ``solution_path`` goes: ``exercises/<same name>``."""
    return EXERCISES / solution_path.name


def solution_notebooks() -> list[Path]:
    """Every solution source, in name order."""
    return sorted(SOLUTIONS.glob("*.ipynb"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("solutions", nargs="*", type=Path,
                        help="solution notebooks (default: every exercises/solutions/*.ipynb)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a student notebook differs from what "
                             "would be generated")
    args = parser.parse_args(argv)
    paths = [p.resolve() for p in args.solutions] or solution_notebooks()
    stale = []
    for path in paths:
        target = student_path(path)
        text = student_text(path)
        current = target.read_bytes() if target.exists() else None
        if current == text.encode("utf-8"):
            continue
        if args.check:
            stale.append(f"{target.relative_to(EXERCISES.parent)} (from "
                         f"{path.relative_to(EXERCISES.parent)}): "
                         + ("missing" if current is None else "differs"))
        else:
            target.write_bytes(text.encode("utf-8"))
            print(f"wrote {target.relative_to(EXERCISES.parent)}")
    if args.check and not args.solutions:
        sources = {p.name for p in paths}
        for orphan in sorted(EXERCISES.glob("*.ipynb")):
            if orphan.name not in sources:
                stale.append(f"{orphan.relative_to(EXERCISES.parent)}: no solution source "
                             f"exercises/solutions/{orphan.name}")
    if stale:
        print("Student notebooks out of date (run python exercises/make_student.py):",
              *stale, sep="\n  ", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
