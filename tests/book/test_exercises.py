"""The exercise notebooks and their automatic checks.

* Every committed student notebook is exactly what ``exercises/make_student.py`` generates.
* The solution notebook stores a run in which every check passes and nothing fails.
* The notebooks' code lines are at most 79 characters, and a hand exercise's worked solution
  is printed only in its check cell, after the check has passed.
* The toolkit of ``pdtbook.checks`` (types, copies, in-place changes, time limit, hints
  that must explain every case), and the claims of Chapter 1's proof exercise. The checks of
  each chapter are tested with wrong solutions in ``tests/book/test_checks_chNN.py``.

Every notebook in ``exercises/solutions/`` is covered automatically. No test here runs a
notebook: each is run once per ``make test``. nbval (step 2) runs every solution and compares
its outputs with the stored ones, which the test here checks are those of a passing run; the
nbgrader course of ``tests/test_nbgrader.py`` runs every untouched student notebook, and its
tests check that the notebook fails every check cell with ``CheckFailed`` (and nothing else).
"""

from __future__ import annotations

import importlib.util
import signal
import sys
from pathlib import Path

import nbformat
import numpy as np
import pytest

import prunekit as pk
from prunekit.growing import gain

from pdtbook.checks import (
    CheckFailed,
    Checker,
    TimeLimitExceeded,
    as_float,
    as_int,
    describe,
    distinct,
    explaining_mistake,
    time_limit,
)

ROOT = Path(__file__).resolve().parents[2]
EXERCISES = ROOT / "exercises"
SOLUTIONS = sorted((EXERCISES / "solutions").glob("*.ipynb"))


def _load_make_student():
    spec = importlib.util.spec_from_file_location("make_student", EXERCISES / "make_student.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("make_student", module)
    spec.loader.exec_module(module)
    return module


make_student = _load_make_student()


def test_there_are_exercise_notebooks():
    assert SOLUTIONS, "no solution notebooks found in exercises/solutions/"


# ---------------------------------------------------------------------- (a) generation
@pytest.mark.parametrize("solution", SOLUTIONS, ids=lambda p: p.stem)
def test_student_notebook_is_generated_from_its_solution(solution):
    target = make_student.student_path(solution)
    assert target.exists(), f"{target.name} is missing: run python exercises/make_student.py"
    assert target.read_bytes() == make_student.student_text(solution).encode("utf-8"), (
        f"{target.name} differs from what exercises/make_student.py generates from "
        f"solutions/{solution.name}: run python exercises/make_student.py"
    )


def test_make_student_check_reports_stale_and_orphan_notebooks(tmp_path, monkeypatch, capsys):
    solutions = tmp_path / "solutions"
    solutions.mkdir()
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("def f(x):\n    ### BEGIN SOLUTION\n    return 2 * x\n    ### END SOLUTION"),
        nbformat.v4.new_markdown_cell("Answer:\n### BEGIN SOLUTION\nBecause.\n### END SOLUTION"),
    ])
    for i, cell in enumerate(nb.cells):
        cell.id = f"cell-{i}"
    nbformat.write(nb, solutions / "01-demo.ipynb")
    monkeypatch.setattr(make_student, "EXERCISES", tmp_path)
    monkeypatch.setattr(make_student, "SOLUTIONS", solutions)

    assert make_student.main(["--check"]) == 1
    assert "01-demo.ipynb" in capsys.readouterr().err
    assert make_student.main([]) == 0
    first = (tmp_path / "01-demo.ipynb").read_bytes()
    assert make_student.main(["--check"]) == 0
    assert make_student.main([]) == 0
    assert (tmp_path / "01-demo.ipynb").read_bytes() == first       # reproducible
    assert first.endswith(b"\n")
    student = nbformat.reads(first.decode(), as_version=4)
    assert student.cells[0].source == "def f(x):\n    # YOUR CODE HERE\n    raise NotImplementedError()"
    assert student.cells[1].source == "Answer:\nYOUR ANSWER HERE"

    (tmp_path / "01-demo.ipynb").write_text("{}")
    (tmp_path / "02-orphan.ipynb").write_text("{}")
    capsys.readouterr()
    assert make_student.main(["--check"]) == 1
    err = capsys.readouterr().err
    assert "01-demo.ipynb" in err and "02-orphan.ipynb" in err


def test_unbalanced_solution_markers_are_rejected():
    with pytest.raises(make_student.SolutionMarkerError):
        make_student.replace_solutions("### BEGIN SOLUTION\nx = 1", make_student.CODE_STUB)
    with pytest.raises(make_student.SolutionMarkerError):
        make_student.replace_solutions("x = 1\n### END SOLUTION", make_student.CODE_STUB)


# ---------------------------------------------------------------------- (b) the stored run
def _is_check(cell) -> bool:
    grading = cell.get("metadata", {}).get("nbgrader", {})
    return cell.cell_type == "code" and grading.get("grade", False) and not grading.get("solution", False)


def _errors(cell):
    return [o for o in cell.get("outputs", []) if o.output_type == "error"]


@pytest.mark.parametrize("solution", SOLUTIONS, ids=lambda p: p.stem)
def test_solution_notebook_stores_a_run_that_passes_every_check(solution):
    """The stored outputs are those of a run that passes every check. nbval (``make test``,
    step 2) compares them with a fresh run, so a fresh run passes too; tests/test_nbgrader.py
    grades these outputs."""
    nb = nbformat.read(solution, as_version=4)
    for cell in nb.cells:
        errors = _errors(cell)
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", cell.get("id"))
        assert not errors, f"cell {grade_id} of the solution: {errors[0].ename}: {errors[0].evalue}"
        if _is_check(cell):
            text = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
            assert text.startswith("✓ "), f"check cell {grade_id} stores {text!r}"
            skipped = {"nbval-ignore-output", "nbval-skip"} & set(cell.metadata.get("tags", []))
            assert not skipped, f"nbval must compare check cell {grade_id}: it is {skipped}"


@pytest.mark.parametrize("solution", SOLUTIONS, ids=lambda p: p.stem)
def test_solution_notebook_follows_the_nbgrader_conventions(solution):
    nb = nbformat.read(solution, as_version=4)
    assert nb.metadata.kernelspec.name == "python3"
    grade_ids = []
    for cell in nb.cells:
        grading = cell.metadata.get("nbgrader")
        markers = (make_student.BEGIN in cell.source, make_student.END in cell.source)
        if grading is None:
            assert markers == (False, False)
            continue
        grade_ids.append(grading["grade_id"])
        assert grading["schema_version"] == 3
        if grading["solution"]:
            assert markers == (True, True), f"solution cell {grading['grade_id']} has no markers"
            assert not grading["locked"]
        else:
            assert markers == (False, False)
        if grading["grade"]:
            assert grading["points"] > 0
            if not grading["solution"]:
                assert grading["locked"] and cell.cell_type == "code"
    assert len(grade_ids) == len(set(grade_ids)), "grade_id values must be unique"


# ---------------------------------------------------------------------- the checks' toolkit
def test_describe_is_short_and_deterministic():
    assert describe(np.arange(20)) == "[0, 1, 2, 3, 4, 5, ..., 14, 15, 16, 17, 18, 19] (20 values)"
    assert describe((0.1 + 0.2, None, "a")) == "(0.3, None, 'a')"
    assert describe(np.float64(1) / 3) == "0.333333"
    assert describe(True) == "True"


def test_checker_counts_and_reports(capsys):
    check = Checker("double", lambda x: 2 * x)
    check.expect(check.call(2) == 4, "double(2) should be 4.")
    check.expect(check.call(3) == 6, "double(3) should be 6.")
    check.passed()
    assert capsys.readouterr().out == "✓ double: all 2 checks passed.\n"
    with pytest.raises(CheckFailed) as info:
        check.expect(False, "double(1) returned 3.", lambda: "multiply by 2.")
    assert str(info.value) == "✗ double(1) returned 3.\nHint: multiply by 2."
    assert info.value.hint == "multiply by 2."
    assert isinstance(info.value, AssertionError)


def test_checker_passes_copies_and_rejects_changes_in_place():
    data = np.array([3, 1, 2])
    with pytest.raises(CheckFailed) as info:
        Checker("sorter", lambda values: values.sort()).call(data)
    assert data.tolist() == [3, 1, 2]              # the caller's array is untouched
    assert "sorter([3, 1, 2]) changed its argument `values` in place." in str(info.value)
    assert "np.array(values) or values.copy()" in info.value.hint

    def appends(items, extra):
        extra["seen"] = True
        return len(items)

    with pytest.raises(CheckFailed, match="changed its argument `extra` in place"):
        Checker("appends", appends).call([1], {"seen": False})
    # reading, copying and returning a new array are fine; so are immutable prunekit objects
    assert Checker("reader", lambda values: np.sort(values)).call(data).tolist() == [1, 2, 3]
    tree = pk.Tree.from_arrays([1, -1, -1], [2, -1, -1], [[3, 2], [3, 0], [0, 2]])
    assert Checker("size", lambda t: t.n_nodes).call(tree) == 3
    nan_array = np.array([np.nan, 1.0])
    assert Checker("nan", lambda values: 0.0).call(nan_array) == 0.0   # nan equals nan here


def test_too_slow_and_out_of_memory_calls_get_the_given_hint():
    def slow(x):
        while True:
            pass

    with pytest.raises(CheckFailed) as info:
        Checker("slow", slow).call(1, seconds=0.05, slow_hint="sort once.")
    assert str(info.value) == "✗ slow(1) was still running after 0.05 seconds.\nHint: sort once."

    def hungry(x):
        raise MemoryError()

    with pytest.raises(CheckFailed, match="ran out of memory"):
        Checker("hungry", hungry).call(1, seconds=5)
    with pytest.raises(MemoryError):     # without a time limit it is not about speed
        Checker("hungry", hungry).call(1)


def test_scalar_types_are_enforced():
    assert as_float(np.float32(0.5), "f()") == 0.5 and as_float(np.array(2.0), "f()") == 2.0
    for value, text in ((1, "returned 1, an int"), (np.int64(0), "returned 0, an int64"),
                        ("1", "of type str"), (True, "of type bool")):
        with pytest.raises(CheckFailed, match=text):
            as_float(value, "f()")
    assert as_int(np.int64(3), "f()") == 3
    for value, text in ((3.0, "returned 3, a float"), (True, "a boolean"),
                        (np.float64(2), "a float64"), (None, "of type NoneType")):
        with pytest.raises(CheckFailed, match=text):
            as_int(value, "f()")
    distinct([1, 2, 3], "f()")
    with pytest.raises(CheckFailed, match=r"lists the same node more than once \(2\)"):
        distinct([1, 2, 2], "f()", "node")


def test_a_hint_must_explain_every_case():
    """A mistake that matches the failing case by coincidence does not name the cause."""
    cases = [(1.0,), (2.0,), (3.0,)]
    expected = lambda x: 2 * x
    doubled_plus = (lambda x: 2 * x + 1, "added 1")
    squared = (lambda x: x * x, "squared")          # agrees with 2x at x = 2 only
    student = lambda x: 2 * x + 1
    assert explaining_mistake(student, cases, [squared, doubled_plus], expected) == "added 1"
    assert explaining_mistake(lambda x: x * x, cases, [doubled_plus, squared], expected) == "squared"
    assert explaining_mistake(lambda x: x ** 3, cases, [doubled_plus, squared], expected) is None
    # cases the student's function cannot do are left out, not held against a mistake
    partial = lambda x: 2 * x + 1 if x < 3 else 1 / 0
    assert explaining_mistake(partial, cases, [doubled_plus], expected) == "added 1"


def test_time_limit_interrupts_and_restores():
    before = signal.getsignal(signal.SIGALRM)
    with pytest.raises(TimeLimitExceeded, match="still running"):
        with time_limit(0.05):
            while True:
                pass
    assert signal.getsignal(signal.SIGALRM) == before
    with time_limit(5):
        pass
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


# ---------------------------------------------------------------------- notebook conventions
@pytest.mark.parametrize("solution", SOLUTIONS, ids=lambda p: p.stem)
def test_code_lines_are_at_most_79_characters(solution):
    nb = nbformat.read(solution, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            for line in cell.source.split("\n"):
                assert len(line) <= 79, f"{cell.get('id')}: {line!r} has {len(line)} characters"


@pytest.mark.parametrize("solution", SOLUTIONS, ids=lambda p: p.stem)
def test_worked_solutions_are_printed_only_after_the_check(solution):
    """explain_* calls are in check cells, after the check: a failing check stops the cell
    before the worked solution is printed."""
    nb = nbformat.read(solution, as_version=4)
    for cell in nb.cells:
        lines = [line for line in cell.source.split("\n") if line.startswith("explain_")]
        if not lines:
            continue
        assert _is_check(cell), f"{cell.get('id')} calls {lines[0]} outside a check cell"
        first = cell.source.split("\n")[0]
        assert first.startswith("check_"), f"{cell.get('id')} does not start with its check"


# ---------------------------------------------------------------------- Exercise 1.5's claims
def _counts(x, y):
    """Class counts of the sides x = 0 and x = 1, as gain() takes them."""
    x, y = np.asarray(x), np.asarray(y)
    return np.bincount(y[x == 0], minlength=2), np.bincount(y[x == 1], minlength=2)


def test_exercise_1_5_a_and_b_train_error_gain_and_information_gain():
    rng = np.random.default_rng(15)
    for _ in range(2000):
        left = rng.integers(0, 12, size=2)
        right = rng.integers(0, 12, size=2)
        if left.sum() == 0 or right.sum() == 0:
            continue
        p0, p1 = left[1] / left.sum(), right[1] / right.sum()
        train = gain(left, right, "train_error")
        info = gain(left, right, "entropy")
        if (p0 <= 0.5 and p1 <= 0.5) or (p0 >= 0.5 and p1 >= 0.5):
            assert abs(train) < 1e-12
        assert info > -1e-12
        assert (info > 1e-12) == (p0 != p1)


def test_exercise_1_5_c_example():
    x = [1] * 5 + [0] * 5
    y = [1] * 5 + [1, 1, 1, 0, 0]
    left, right = _counts(x, y)
    assert abs(gain(left, right, "train_error")) < 1e-12
    assert gain(left, right, "entropy") == pytest.approx(0.1639, abs=1e-4)


def test_exercise_1_5_d_xor():
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
    y = X[:, 0] ^ X[:, 1]
    for j in range(2):
        left, right = _counts(X[:, j], y)
        for criterion in ("train_error", "entropy", "gini"):
            assert abs(gain(left, right, criterion)) < 1e-12
    # ID3 as written splits on the argmax even at gain 0, and reaches the perfect tree.
    for criterion in ("train_error", "entropy", "gini"):
        tree = pk.id3(X, y, criterion=criterion)
        assert tree.n_nodes == 7 and tree.max_depth == 2 and tree.error(X, y) == 0.0
