"""The exercise notebooks in an nbgrader course, as a teacher runs them.

A temporary course directory gets one assignment per exercise notebook, with the solution
source from ``exercises/solutions/`` as its ``source``. ``nbgrader generate_assignment`` makes
the student versions, and ``nbgrader autograde`` grades two submissions of every assignment:
the generated student notebook left untouched (no automatic points) and the solution source
handed in as it is (every automatic point). The points are read from nbgrader's gradebook and
compared with the table of book/teaching.md.

Each notebook runs once per ``make test``:

* autograding runs every untouched student notebook, and the executed notebooks nbgrader keeps
  in ``autograded/`` show that, run untouched, a student notebook fails every check cell with
  ``CheckFailed`` and nothing else fails;
* the solutions are graded from the outputs stored in them (``nbgrader autograde
  --no-execute``): nbval (``make test``, step 2) runs every solution and compares a fresh run
  with those outputs, and tests/test_exercises.py checks they are a run that passes every
  check. One solution (``RERUN``), the quickest, is also run by nbgrader, handed in by a third
  student, and must earn the same points.

The course is built once per test session, also when pytest-xdist spreads these tests over
several workers: the first worker builds it, the others wait for it and read it.
"""

from __future__ import annotations

import fcntl
import json
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

ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS = sorted((ROOT / "exercises" / "solutions").glob("*.ipynb"))
PAGE = ROOT / "book" / "teaching.md"
UNTOUCHED, SOLVED, RERUN = "untouched", "solved", "rerun"
# the solution autograded from a run by nbgrader as well (the quickest to run)
RERUN_NOTEBOOK = "05-nobel"


def assignment_name(notebook: Path) -> str:
    """The assignment of an exercise notebook: ``ch`` and the chapter number (``ch01``)."""
    return "ch" + notebook.name[:2]


def nbgrader(course: Path, *args: str) -> None:
    """Run an nbgrader command in ``course``, failing with its output if it fails."""
    env = dict(os.environ)
    # the kernels nbgrader starts must be this environment's Python, where prunekit is
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    result = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=course,
                            env=env, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, f"nbgrader {' '.join(args)} failed:\n{result.stderr[-4000:]}"


def build_course(course: Path) -> None:
    """Generate every assignment in the empty folder ``course``, autograde the submissions and
    write their scores (see :func:`read_scores`) to ``scores.json``."""
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
        submissions = [(UNTOUCHED, course / "release" / name / solution.name),
                       (SOLVED, solution)]
        if solution.stem == RERUN_NOTEBOOK:
            submissions.append((RERUN, solution))
        for student, notebook in submissions:
            folder = course / "submitted" / student / name
            folder.mkdir(parents=True)
            shutil.copy(notebook, folder)
    # the solutions as handed in, graded from their stored outputs
    nbgrader(course, "autograde", "*", f"--student={SOLVED}", "--no-execute")
    # the untouched student notebooks and the solution handed in again, run by nbgrader
    nbgrader(course, "autograde", "*", f"--CourseDirectory.student_id_exclude={SOLVED}")
    (course / "scores.json").write_text(json.dumps(read_scores(course)), encoding="utf-8")


def read_scores(course: Path) -> dict:
    """``{"notebook stem/student": submission notebook scores}`` from the gradebook."""
    result = {}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        for solution in SOLUTIONS:
            students = [UNTOUCHED, SOLVED] + [RERUN] * (solution.stem == RERUN_NOTEBOOK)
            for student in students:
                notebook = gradebook.find_submission_notebook(
                    solution.stem, assignment_name(solution), student)
                result[f"{solution.stem}/{student}"] = dict(
                    code=notebook.code_score, max_code=notebook.max_code_score,
                    written=notebook.written_score, max_written=notebook.max_written_score,
                    failed=notebook.failed_tests, manual=notebook.needs_manual_grade)
    return result


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    """A course directory with every assignment generated and the submissions autograded,
    built once for all pytest-xdist workers (in their common temporary folder)."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        course = tmp_path_factory.mktemp("course")
        build_course(course)
        return course
    shared = tmp_path_factory.getbasetemp().parent
    course, failed = shared / "nbgrader-course", shared / "nbgrader-course.failed"
    with open(shared / "nbgrader-course.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if failed.exists():
                pytest.fail(f"building the course failed in another worker:\n"
                            f"{failed.read_text(encoding='utf-8')}")
            if not (course / "scores.json").exists():
                shutil.rmtree(course, ignore_errors=True)      # a worker's interrupted build
                course.mkdir()
                try:
                    build_course(course)
                except BaseException as error:
                    failed.write_text(str(error), encoding="utf-8")
                    raise
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return course


@pytest.fixture(scope="module")
def scores(course) -> dict:
    """``{(notebook stem, student): submission notebook scores}``."""
    stored = json.loads((course / "scores.json").read_text(encoding="utf-8"))
    return {tuple(key.split("/")): score for key, score in stored.items()}


def page_table() -> dict:
    """The point table of book/teaching.md: ``{notebook stem: (automatic, by hand, total)}``."""
    rows = {}
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        match = re.fullmatch(r"\|\s*`exercises/(\d\d-[a-z-]+)\.ipynb`\s*\|\s*(\d+)\s*\|\s*(\d+)"
                             r"\s*\|\s*(\d+)\s*\|", line.strip())
        if match:
            rows[match.group(1)] = tuple(int(match.group(k)) for k in (2, 3, 4))
    return rows


def test_there_are_nine_exercise_notebooks():
    assert [p.stem[:2] for p in SOLUTIONS] == ["01", "02", "03", "04", "05", "06", "08", "10",
                                               "11"]


def test_generated_student_notebooks_are_the_committed_ones(course):
    """nbgrader's release and make_student.py blank out the same solutions."""
    for solution in SOLUTIONS:
        released = nbformat.read(course / "release" / assignment_name(solution) / solution.name,
                                 as_version=4)
        committed = nbformat.read(ROOT / "exercises" / solution.name, as_version=4)
        assert [(c.cell_type, c.source) for c in released.cells] == \
            [(c.cell_type, c.source) for c in committed.cells], solution.name


def _is_check(cell) -> bool:
    grading = cell.get("metadata", {}).get("nbgrader", {})
    return cell.cell_type == "code" and grading.get("grade", False) and not grading.get("solution", False)


@pytest.mark.parametrize("solution", SOLUTIONS, ids=lambda p: p.stem)
def test_untouched_student_notebook_fails_every_check(course, solution):
    """Run as it is handed out, a student notebook fails every check cell with CheckFailed,
    and no other cell fails (the run is nbgrader's, kept in ``autograded/``)."""
    student = nbformat.read(
        course / "autograded" / UNTOUCHED / assignment_name(solution) / solution.name,
        as_version=4)
    checks = [cell for cell in student.cells if _is_check(cell)]
    assert checks, "the notebook has no check cells (nbgrader grade: true code cells)"
    for cell in student.cells:
        errors = [o for o in cell.get("outputs", []) if o.output_type == "error"]
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", cell.get("id"))
        if _is_check(cell):
            assert errors, f"check cell {grade_id} passed on the untouched student notebook"
            assert errors[0].ename == "CheckFailed", (
                f"check cell {grade_id} raised {errors[0].ename}: {errors[0].evalue}")
        else:
            assert not errors, (
                f"cell {grade_id} fails in the student notebook: {errors[0].ename}: "
                f"{errors[0].evalue}; only check cells may fail")


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


def test_a_solution_run_by_nbgrader_gets_the_points_of_its_stored_run(scores):
    assert scores[RERUN_NOTEBOOK, RERUN] == scores[RERUN_NOTEBOOK, SOLVED]


def test_teaching_page_states_nbgrader_s_points(scores):
    table = page_table()
    assert sorted(table) == [p.stem for p in SOLUTIONS]
    for stem, (automatic, by_hand, total) in table.items():
        score = scores[stem, SOLVED]
        assert (automatic, by_hand) == (score["max_code"], score["max_written"]), stem
        assert total == automatic + by_hand, stem
    totals = re.search(r"\|\s*\*\*all nine\*\*\s*\|\s*\*\*(\d+)\*\*\s*\|\s*\*\*(\d+)\*\*\s*\|"
                       r"\s*\*\*(\d+)\*\*\s*\|", PAGE.read_text(encoding="utf-8"))
    assert totals, "the table's total row is missing"
    assert tuple(int(v) for v in totals.groups()) == tuple(
        sum(row[k] for row in table.values()) for k in range(3))
