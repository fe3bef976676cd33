"""Generate the student exercise notebooks from their solution sources, with nbgrader.

For every ``exercises/solutions/NN-name.ipynb`` this writes ``exercises/NN-name.ipynb`` with
nbgrader's own preprocessors, as ``nbgrader generate_assignment`` would, so the solution
notebooks can also be used with nbgrader as they are:

* ``ClearSolutions``: in code cells, the lines from ``### BEGIN SOLUTION`` to
  ``### END SOLUTION`` become ``# YOUR CODE HERE`` and ``raise NotImplementedError()``,
  indented like the first marker; in markdown cells, ``YOUR ANSWER HERE``. These are
  nbgrader's own stubs and markers, set here explicitly so that the output does not depend on
  an nbgrader configuration. Markers are replaced in any cell (``enforce_metadata`` is off:
  the book's notebooks carry nbgrader's metadata, which ``tests/book/test_exercises.py``
  checks, but the generation does not need it); a solution cell without markers would become
  the stub as a whole, as in nbgrader.
* ``ClearOutput``: the outputs and execution counts of code cells are cleared, with the cell
  metadata that belongs to a run (``collapsed``, ``scrolled``, and the ``execution`` timing a
  notebook runner records); the rest of the cell metadata (nbgrader's, tags) is kept.
* Before nbgrader runs, every cell's markers are checked: a ``BEGIN`` inside a solution
  region, an ``END`` without its ``BEGIN`` (which nbgrader would silently drop) or a ``BEGIN``
  never closed stops the generation with a ``SolutionMarkerError`` naming the notebook, the
  cell and the line.
* After it, the notebook metadata keeps only the kernel and the language name.

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
# Cell metadata that belongs to a run, cleared with the outputs.
RUN_METADATA = frozenset({"collapsed", "scrolled", "execution"})


class SolutionMarkerError(ValueError):
    """A cell's solution markers are unbalanced."""


def check_markers(source: str, where: str = "cell") -> None:
    """Check that the solution markers of one cell's ``source`` are balanced.

    A line is a marker where nbgrader's ``ClearSolutions`` takes it for one: where it contains
    ``BEGIN`` (or ``END``).

    Parameters
    ----------
    source : str
        The cell's source.
    where : str
        What the error message calls the cell, e.g. ``"cell 3 (ex-1-2)"``.

    Raises
    ------
    SolutionMarkerError
        On a ``BEGIN`` inside a solution region, an ``END`` outside one, or a region that is
        never closed; the message names ``where`` and the line.
    """
    inside = False
    for number, line in enumerate(source.split("\n"), start=1):
        if BEGIN in line:
            if inside:
                raise SolutionMarkerError(
                    f"{where}, line {number}: {BEGIN!r} inside a solution region.")
            inside = True
        elif END in line:
            if not inside:
                raise SolutionMarkerError(
                    f"{where}, line {number}: {END!r} without {BEGIN!r}.")
            inside = False
    if inside:
        raise SolutionMarkerError(f"{where}: {BEGIN!r} is never closed by {END!r}.")


def clear_solutions(code_stub: tuple[str, ...] = CODE_STUB):
    """nbgrader's ``ClearSolutions`` preprocessor, with the book's markers and stubs.

    Parameters
    ----------
    code_stub : tuple of str
        The lines that replace a solution region in a code cell (nbgrader's own by default).

    Returns
    -------
    nbgrader.preprocessors.ClearSolutions
    """
    from nbgrader.preprocessors import ClearSolutions  # noqa: PLC0415 - 5 s to import

    return ClearSolutions(code_stub={"python": "\n".join(code_stub)},
                          text_stub="\n".join(ANSWER_STUB),
                          begin_solution_delimeter=BEGIN, end_solution_delimeter=END,
                          enforce_metadata=False)


def clear_output():
    """nbgrader's ``ClearOutput`` preprocessor, clearing also the metadata of a run.

    Returns
    -------
    nbgrader.preprocessors.ClearOutput
    """
    from nbgrader.preprocessors import ClearOutput  # noqa: PLC0415

    return ClearOutput(remove_metadata_fields=set(RUN_METADATA))


def replace_solutions(source: str, stub: tuple[str, ...] = CODE_STUB,
                      where: str = "cell") -> str:
    """One code cell's ``source`` with every solution region replaced by ``stub``.

    Parameters
    ----------
    source : str
        The cell's source.
    stub : tuple of str
        The lines that replace each region, indented like its ``BEGIN`` marker.
    where : str
        What an error message calls the cell.

    Returns
    -------
    str
        The source as nbgrader's ``ClearSolutions`` leaves it.

    Raises
    ------
    SolutionMarkerError
        If the markers are unbalanced (see `check_markers`).
    """
    check_markers(source, where)
    cell, _ = clear_solutions(stub).preprocess_cell(
        nbformat.v4.new_code_cell(source), {"language": "python"}, 0)
    return cell.source


def student_notebook(solution: nbformat.NotebookNode,
                     where: str = "notebook") -> nbformat.NotebookNode:
    """The student version of a solution notebook.

    Parameters
    ----------
    solution : nbformat.NotebookNode
        The solution notebook; it is not changed.
    where : str
        What an error message calls the notebook.

    Returns
    -------
    nbformat.NotebookNode
        A new notebook: solutions replaced by stubs, outputs cleared, metadata trimmed.

    Raises
    ------
    SolutionMarkerError
        If a cell's markers are unbalanced.
    """
    nb = copy.deepcopy(solution)
    for index, cell in enumerate(nb.cells):
        check_markers(cell.source, f"{where}, cell {index} ({cell.get('id', 'no id')})")
    nb, resources = clear_solutions().preprocess(nb, {})
    nb, _ = clear_output().preprocess(nb, resources)
    metadata = {}
    if "kernelspec" in nb.metadata:
        metadata["kernelspec"] = nb.metadata.kernelspec
    if "name" in nb.metadata.get("language_info", {}):
        metadata["language_info"] = {"name": nb.metadata.language_info.name}
    nb.metadata = nbformat.NotebookNode(metadata)
    nbformat.validate(nb)
    return nb


def student_text(solution_path: Path) -> str:
    """The exact text of the student notebook generated from ``solution_path``."""
    solution = nbformat.read(solution_path, as_version=4)
    text = nbformat.writes(student_notebook(solution, solution_path.name), version=4)
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
    stale, broken = [], []
    for path in paths:
        target = student_path(path)
        try:
            text = student_text(path)
        except SolutionMarkerError as error:
            broken.append(str(error))
            continue
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
    if broken:
        print("Unbalanced solution markers (### BEGIN SOLUTION / ### END SOLUTION):",
              *broken, sep="\n  ", file=sys.stderr)
    if stale:
        print("Student notebooks out of date (run python exercises/make_student.py):",
              *stale, sep="\n  ", file=sys.stderr)
    return 1 if stale or broken else 0


if __name__ == "__main__":
    sys.exit(main())
