"""The exercise notebooks in an nbgrader course, as a teacher runs them.

A temporary course directory gets one assignment per exercise notebook, with the solution
source from ``exercises/solutions/`` as its ``source``. ``nbgrader generate_assignment`` makes
the student versions, and ``nbgrader autograde`` grades two submissions of every assignment:
the generated student notebook left untouched (no automatic points) and the solution source
handed in as it is (every automatic point). The points are read from nbgrader's gradebook and
compared with the table of book/teaching.md.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

pytest.importorskip("nbgrader")
from nbgrader.api import Gradebook  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = sorted((ROOT / "exercises" / "solutions").glob("*.ipynb"))
PAGE = ROOT / "book" / "teaching.md"
UNTOUCHED, SOLVED = "untouched", "solved"


def assignment_name(notebook: Path) -> str:
    """The assignment of an exercise notebook: ``ch`` and the chapter number (``ch01``)."""
    return "ch" + notebook.name[:2]


def nbgrader(course: Path, *args: str) -> None:
    """Run an nbgrader command in ``course``, failing with its output if it fails."""
    env = dict(os.environ)
    # the kernels nbgrader starts must be this environment's Python, where prunekit is
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    result = subprocess.run([sys.executable, "-m", "nbgrader", *args, "--force"], cwd=course,
                            env=env, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, f"nbgrader {' '.join(args)} failed:\n{result.stderr[-4000:]}"


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    """A course directory with every assignment generated and both submissions autograded."""
    course = tmp_path_factory.mktemp("course")
    (course / "nbgrader_config.py").write_text(
        "c = get_config()\n"
        "c.CourseDirectory.course_id = 'pruning-decision-trees'\n"
        "c.ExecutePreprocessor.timeout = 600\n")
    for solution in SOLUTIONS:
        source = course / "source" / assignment_name(solution)
        source.mkdir(parents=True)
        shutil.copy(solution, source)
    nbgrader(course, "generate_assignment", "*")
    for solution in SOLUTIONS:
        name = assignment_name(solution)
        for student, notebook in ((UNTOUCHED, course / "release" / name / solution.name),
                                  (SOLVED, solution)):
            folder = course / "submitted" / student / name
            folder.mkdir(parents=True)
            shutil.copy(notebook, folder)
    nbgrader(course, "autograde", "*")
    return course


@pytest.fixture(scope="module")
def scores(course) -> dict:
    """``{(notebook stem, student): submission notebook scores}`` from the gradebook."""
    result = {}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        for solution in SOLUTIONS:
            for student in (UNTOUCHED, SOLVED):
                notebook = gradebook.find_submission_notebook(
                    solution.stem, assignment_name(solution), student)
                result[solution.stem, student] = dict(
                    code=notebook.code_score, max_code=notebook.max_code_score,
                    written=notebook.written_score, max_written=notebook.max_written_score,
                    failed=notebook.failed_tests, manual=notebook.needs_manual_grade)
    return result


def page_table() -> dict:
    """The point table of book/teaching.md: ``{notebook stem: (automatic, by hand, total)}``."""
    rows = {}
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        match = re.fullmatch(r"\|\s*`exercises/(\d\d-[a-z-]+)\.ipynb`\s*\|\s*(\d+)\s*\|\s*(\d+)"
                             r"\s*\|\s*(\d+)\s*\|", line.strip())
        if match:
            rows[match.group(1)] = tuple(int(match.group(k)) for k in (2, 3, 4))
    return rows


def test_there_are_seven_exercise_notebooks():
    assert [p.stem[:2] for p in SOLUTIONS] == ["01", "02", "03", "04", "05", "06", "08"]


def test_generated_student_notebooks_are_the_committed_ones(course):
    """nbgrader's release and make_student.py blank out the same solutions."""
    for solution in SOLUTIONS:
        released = nbformat.read(course / "release" / assignment_name(solution) / solution.name,
                                 as_version=4)
        committed = nbformat.read(ROOT / "exercises" / solution.name, as_version=4)
        assert [(c.cell_type, c.source) for c in released.cells] == \
            [(c.cell_type, c.source) for c in committed.cells], solution.name


def test_untouched_student_notebooks_get_no_points(scores):
    for solution in SOLUTIONS:
        score = scores[solution.stem, UNTOUCHED]
        assert score["max_code"] > 0, solution.name
        assert score["code"] == 0 and score["failed"], (solution.name, score)
        assert score["written"] == 0, (solution.name, score)


def test_solutions_get_every_automatic_point(scores):
    for solution in SOLUTIONS:
        score = scores[solution.stem, SOLVED]
        assert score["code"] == score["max_code"] > 0, (solution.name, score)
        assert not score["failed"], (solution.name, score)
        # the written answers are left for the teacher
        assert score["max_written"] > 0 and score["manual"], (solution.name, score)


def test_teaching_page_states_nbgrader_s_points(scores):
    table = page_table()
    assert sorted(table) == [p.stem for p in SOLUTIONS]
    for stem, (automatic, by_hand, total) in table.items():
        score = scores[stem, SOLVED]
        assert (automatic, by_hand) == (score["max_code"], score["max_written"]), stem
        assert total == automatic + by_hand, stem
    totals = re.search(r"\|\s*\*\*all seven\*\*\s*\|\s*\*\*(\d+)\*\*\s*\|\s*\*\*(\d+)\*\*\s*\|"
                       r"\s*\*\*(\d+)\*\*\s*\|", PAGE.read_text(encoding="utf-8"))
    assert totals, "the table's total row is missing"
    assert tuple(int(v) for v in totals.groups()) == tuple(
        sum(row[k] for row in table.values()) for k in range(3))
