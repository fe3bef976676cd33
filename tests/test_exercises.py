"""The exercise notebooks and their automatic checks.

* Every committed student notebook is exactly what ``exercises/make_student.py`` generates.
* Run untouched, a student notebook fails every check cell with ``CheckFailed`` (and nothing
  else fails); the solution notebook passes every check.
* ``prunekit.checks``: wrong implementations get a ``CheckFailed`` whose hint names the
  mistake, and the claims of the proof exercises hold numerically.

Every notebook in ``exercises/solutions/`` is covered automatically.
"""

from __future__ import annotations

import importlib.util
import math
import signal
import sys
import time
from pathlib import Path

import nbformat
import numpy as np
import pytest
from nbclient import NotebookClient

import prunekit as pk
from prunekit.checks import CheckFailed, Checker, TimeLimitExceeded, describe, time_limit
from prunekit.checks import ch01
from prunekit.growing import gain
from checking import failure_message as _message

ROOT = Path(__file__).resolve().parents[1]
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


# ---------------------------------------------------------------------- (b), (c) execution
def _execute(path: Path, cwd: Path) -> nbformat.NotebookNode:
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=300, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(cwd)}})
    client.execute()
    return nb


def _is_check(cell) -> bool:
    grading = cell.get("metadata", {}).get("nbgrader", {})
    return cell.cell_type == "code" and grading.get("grade", False) and not grading.get("solution", False)


def _errors(cell):
    return [o for o in cell.get("outputs", []) if o.output_type == "error"]


@pytest.fixture(scope="module", params=SOLUTIONS, ids=lambda p: p.stem)
def executed(request):
    solution = request.param
    student = make_student.student_path(solution)
    return (_execute(student, EXERCISES), _execute(solution, solution.parent))


def test_untouched_student_notebook_fails_every_check(executed):
    student, _ = executed
    checks = [cell for cell in student.cells if _is_check(cell)]
    assert checks, "the notebook has no check cells (nbgrader grade: true code cells)"
    for cell in student.cells:
        errors = _errors(cell)
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", cell.get("id"))
        if _is_check(cell):
            assert errors, f"check cell {grade_id} passed on the untouched student notebook"
            assert errors[0].ename == "CheckFailed", (
                f"check cell {grade_id} raised {errors[0].ename}: {errors[0].evalue}")
        else:
            assert not errors, (
                f"cell {grade_id} fails in the student notebook: {errors[0].ename}: "
                f"{errors[0].evalue}; only check cells may fail")


def test_solution_notebook_passes_every_check(executed):
    _, solution = executed
    for cell in solution.cells:
        errors = _errors(cell)
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", cell.get("id"))
        assert not errors, f"cell {grade_id} of the solution: {errors[0].ename}: {errors[0].evalue}"
        if _is_check(cell):
            text = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
            assert text.startswith("✓ "), f"check cell {grade_id} printed {text!r}"


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


# ---------------------------------------------------------------------- (d) the checks


def _entropy(a, log=np.log):
    return 0.0 if a in (0, 1) else -a * log(a) - (1 - a) * log(1 - a)


def information_gain(x, y, log=np.log, weighted=True):
    result = _entropy(np.mean(y), log)
    for side in (0, 1):
        on = x == side
        if on.any():
            result -= (np.mean(on) if weighted else 1.0) * _entropy(np.mean(y[on]), log)
    return float(result)


def naive_information_gain(x, y):
    def entropy(a):
        return -a * np.log(a) - (1 - a) * np.log(1 - a)
    q = np.mean(x)
    with np.errstate(all="ignore"):
        return entropy(np.mean(y)) - q * entropy(np.mean(y[x == 1])) - (1 - q) * entropy(np.mean(y[x == 0]))


def best_threshold(x, y, measure=None, on_point=False, equal_values=False):
    order = np.argsort(x, kind="stable")
    xs, ys = x[order], y[order]
    m = len(xs)
    n_left = np.arange(1, m)
    n_right = m - n_left
    ones_left = np.cumsum(ys)[:-1]
    ones_right = ys.sum() - ones_left
    C = measure or (lambda a: 2 * a * (1 - a))
    gains = C(ys.mean()) - (n_left * C(ones_left / n_left) + n_right * C(ones_right / n_right)) / m
    valid = np.ones(m - 1, bool) if equal_values else xs[1:] > xs[:-1]
    if not valid.any():
        return None, 0.0
    i = int(np.argmax(np.where(valid, gains, -np.inf)))
    threshold = xs[i] if on_point else (xs[i] + xs[i + 1]) / 2
    return float(threshold), float(gains[i])


def quadratic_best_threshold(x, y):
    x, y = x.tolist(), y.tolist()
    best, best_gain = None, -1.0

    def C(labels):
        a = sum(labels) / len(labels)
        return 2 * a * (1 - a)

    values = sorted(set(x))
    for a, b in zip(values, values[1:]):
        theta = (a + b) / 2
        left = [label for value, label in zip(x, y) if value <= theta]
        right = [label for value, label in zip(x, y) if value > theta]
        g = C(y) - (len(left) * C(left) + len(right) * C(right)) / len(y)
        if g > best_gain + 1e-12:
            best, best_gain = theta, g
    return (best, best_gain) if best is not None else (None, 0.0)


def mdl_bound(e, n, d, m, delta=0.05, plus=1, bits_log=math.log2, conf_log=math.log):
    return e + math.sqrt(((n + plus) * bits_log(d + 3) + conf_log(2 / delta)) / (2 * m))


def test_correct_implementations_pass_with_one_line(capsys):
    ch01.check_information_gain(information_gain)
    ch01.check_best_threshold(best_threshold)
    ch01.check_mdl_bound(mdl_bound)
    assert capsys.readouterr().out == (
        "✓ information_gain: all 8 checks passed.\n"
        "✓ best_threshold: all 10 checks passed.\n"
        "✓ mdl_bound: all 5 checks passed.\n"
    )


def test_not_implemented_and_crashing_functions():
    def todo(*args):
        raise NotImplementedError()

    message = _message(ch01.check_information_gain, todo)
    assert message == ("✗ information_gain is not implemented yet: replace "
                       "`raise NotImplementedError()` with your code.")
    message = _message(ch01.check_mdl_bound, lambda *args: 1 / 0)
    assert "mdl_bound(0.1, 7, 10, 300, 0.05) raised ZeroDivisionError" in message
    with pytest.raises(CheckFailed) as info:
        ch01.check_best_threshold(lambda x, y: [][0])
    assert isinstance(info.value.__cause__, IndexError)      # the student's traceback is kept
    assert "best_threshold(x=[3, 1, 6, 4, 2, 5], y=[0, 0, 1, 1, 0, 1]) raised IndexError" in str(info.value)
    assert "not a function" in _message(ch01.check_information_gain, 0.5)


@pytest.mark.parametrize("wrong, hint", [
    (lambda x, y: information_gain(x, y, log=np.log2), "1/ln 2"),
    (lambda x, y: information_gain(x, y, weighted=False), "fraction of examples on that side"),
    (naive_information_gain, "0 log 0 = 0"),
    (lambda x, y: information_gain(x, y) if x.any() and not x.all() else float("nan"), "empty"),
    (lambda x, y: -information_gain(x, y), "sign is reversed"),
    (lambda x, y: np.array([information_gain(x, y)]), "return a single number"),
    (lambda x, y: str(information_gain(x, y)), "should return the gain, a number"),
])
def test_information_gain_hints(wrong, hint):
    assert hint in _message(ch01.check_information_gain, wrong)


@pytest.mark.parametrize("wrong, hint", [
    (lambda x, y: best_threshold(x, y, on_point=True), "on a data point"),
    (lambda x, y: best_threshold(x, y, equal_values=True), "between two equal values is not a split"),
    (lambda x, y: best_threshold(x, y, measure=lambda a: a * (1 - a)), "factor 2"),
    (lambda x, y: best_threshold(x, y, measure=np.vectorize(_entropy)), "information gain"),
    (lambda x, y: (None, 0.0) if len(x) < 2 else best_threshold(x, y)[:1], "pair (threshold, gain)"),
    (lambda x, y: (float(x[0]), 0.0) if len(set(x.tolist())) < 2 else best_threshold(x, y), "(None, 0.0)"),
])
def test_best_threshold_hints(wrong, hint):
    with np.errstate(all="ignore"):
        assert hint in _message(ch01.check_best_threshold, wrong)


def test_best_threshold_stops_a_pure_python_quadratic_scan():
    handler = signal.getsignal(signal.SIGALRM)
    start = time.monotonic()
    message = _message(ch01.check_best_threshold, quadratic_best_threshold, time_limit=0.5)
    assert "was still running after 0.5 seconds" in message and "quadratic" in message
    assert time.monotonic() - start < 20
    assert signal.getsignal(signal.SIGALRM) == handler


@pytest.mark.parametrize("changes, hint", [
    (dict(plus=0), "n instead of n + 1"),
    (dict(bits_log=math.log), "description length is in bits"),
    (dict(conf_log=math.log2), "natural logarithm"),
])
def test_mdl_bound_hints(changes, hint):
    assert hint in _message(ch01.check_mdl_bound, lambda *args: mdl_bound(*args, **changes))


def test_mdl_bound_hints_for_the_square_root_and_2m():
    no_root = lambda e, n, d, m, delta: e + ((n + 1) * math.log2(d + 3) + math.log(2 / delta)) / (2 * m)
    assert "square root" in _message(ch01.check_mdl_bound, no_root)
    one_m = lambda e, n, d, m, delta: mdl_bound(e, n, d, m / 2, delta)
    assert "2m" in _message(ch01.check_mdl_bound, one_m)


@pytest.fixture(scope="module")
def dnf_trees():
    X, y = pk.datasets.make_boolean_dnf(300, n_features=10, noise=0.1, random_state=0)
    return X, y, pk.id3(X, y), pk.id3(X, y, max_depth=2)


def test_tree_bounds_check(dnf_trees, capsys):
    X, y, full, shallow = dnf_trees
    m, d = X.shape

    def bound(tree, n=None, errors=False):
        e = tree.error(X, y) * (m if errors else 1)
        return mdl_bound(e, tree.n_nodes if n is None else n, d, m)

    ch01.check_tree_bounds(lambda: (bound(full), bound(shallow)), X, y)
    assert capsys.readouterr().out == "✓ tree_bounds: all 2 checks passed.\n"
    assert "swapped" in _message(ch01.check_tree_bounds, lambda: (bound(shallow), bound(full)), X, y)
    assert "not only its leaves" in _message(
        ch01.check_tree_bounds, lambda: (bound(full, full.n_leaves), bound(shallow)), X, y)
    assert "error rate" in _message(
        ch01.check_tree_bounds, lambda: (bound(full), bound(shallow, errors=True)), X, y)
    wrong_mdl = lambda e, n, d, m, delta=0.05: mdl_bound(e, n, d, m, delta, plus=0)
    message = _message(ch01.check_tree_bounds,
                       lambda: (wrong_mdl(full.error(X, y), full.n_nodes, d, m), bound(shallow)),
                       X, y, mdl_bound=wrong_mdl)
    assert "make it pass its check first" in message


@pytest.fixture(scope="module")
def small_template_tree():
    X = np.array([[0, 0, 0], [0, 0, 1], [0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 0],
                  [0, 1, 1], [0, 1, 1], [0, 1, 1], [1, 0, 0], [1, 0, 1], [1, 1, 0],
                  [1, 1, 1], [1, 1, 0], [1, 1, 1], [1, 1, 1]], dtype=float)
    y = np.array([0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0, 1, 1, 1, 1, 1])
    tree = pk.Tree.from_arrays(
        [1, 2, -1, 4, -1, -1, -1], [6, 3, -1, 5, -1, -1, -1],
        [[7, 9], [5, 4], [4, 0], [1, 4], [0, 2], [1, 2], [2, 5]],
        feature=[0, 1, -1, 2, -1, -1, -1], threshold=[0.5, 0.5, np.nan, 0.5, np.nan, np.nan, np.nan])
    return tree, X, y


def test_template_choice_check(small_template_tree, capsys):
    tree, X, y = small_template_tree
    answers = {3: "leaf 1", 1: "keep", 0: "left subtree"}
    ch01.check_template_choice(lambda node: answers[node], tree, X, y)
    # An option tied with the template's (same f, same size) is accepted too.
    ch01.check_template_choice(lambda node: {**answers, 3: "Right  Subtree"}[node], tree, X, y)
    assert capsys.readouterr().out == "✓ template_choice: all 3 checks passed.\n" * 2

    message = _message(ch01.check_template_choice, lambda node: {**answers, 0: "keep"}[node], tree, X, y)
    assert "template_choice(0) returned 'keep' but the template takes 'left subtree'" in message
    assert "f = 1/16 + 0.01 × 3 = 0.0925   <- the template's choice" in message
    assert "f = 3/16 + 0.01 × 5 = 0.2375" in message
    assert "through that subtree" in message
    message = _message(ch01.check_template_choice, lambda node: "keep", tree, X, y)
    assert "template_choice(3)" in message and "more nodes" in message
    message = _message(ch01.check_template_choice, lambda node: "prune", tree, X, y)
    assert "'leaf 0', 'leaf 1', 'left subtree', 'right subtree', 'keep'" in message


def test_template_explanation_agrees_with_the_library():
    """The table shown for a wrong answer replays the template; its minimum is the library's step."""
    rng = np.random.default_rng(7)
    for trial in range(30):
        X = rng.integers(0, 3, size=(40, 3)).astype(float)
        y = (X[:, 0] + rng.integers(0, 2, size=40) > 1.5).astype(int)
        tree = pk.grow_tree(X, y, max_depth=int(rng.integers(2, 5)))
        if tree.n_nodes == 1:
            continue
        penalty = float(rng.choice([0.0, 0.01, 0.03, 0.1]))
        _, steps = pk.bottom_up_prune(tree, X, y, objective=lambda e, n: e + penalty * n,
                                      return_steps=True)
        for step in steps:
            rows, size, _ = ch01._template_rows(tree, X, y, steps, step.node, penalty)
            assert min(rows)[3] == step.choice
            assert next(r for r in rows if r[3] == step.choice)[1] == step.n_nodes


def test_check_cases_have_unambiguous_answers():
    """Random threshold cases have a unique best split, so every correct scan returns it."""
    for description, x, y in ch01.best_threshold_cases():
        split = pk.growing.best_threshold_split(x[:, None], y, "gini")
        if "pure" not in description and split.feature >= 0:
            assert split.n_best == 1, description


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


def test_checker_passes_copies_of_the_inputs():
    data = np.array([3, 1, 2])
    Checker("sorter", lambda x: x.sort()).call(data)
    assert data.tolist() == [3, 1, 2]


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
        info = gain(left, right, "information")
        if (p0 <= 0.5 and p1 <= 0.5) or (p0 >= 0.5 and p1 >= 0.5):
            assert abs(train) < 1e-12
        assert info > -1e-12
        assert (info > 1e-12) == (p0 != p1)


def test_exercise_1_5_c_example():
    x = [1] * 5 + [0] * 5
    y = [1] * 5 + [1, 1, 1, 0, 0]
    left, right = _counts(x, y)
    assert abs(gain(left, right, "train_error")) < 1e-12
    assert gain(left, right, "information") == pytest.approx(0.1639, abs=1e-4)


def test_exercise_1_5_d_xor():
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
    y = X[:, 0] ^ X[:, 1]
    for j in range(2):
        left, right = _counts(X[:, j], y)
        for measure in ("train_error", "information", "gini"):
            assert abs(gain(left, right, measure)) < 1e-12
    # ID3 as written splits on the argmax even at gain 0, and reaches the perfect tree.
    for measure in ("train_error", "information", "gini"):
        tree = pk.id3(X, y, measure=measure)
        assert tree.n_nodes == 7 and tree.max_depth == 2 and tree.error(X, y) == 0.0
