"""The notebooks as a classroom gets them: a bare Python environment, the notebook runner, and
what the notebooks' install cell brings, prunekit and pdtbook (the book's package); the
notebooks in an empty folder, nothing of the repository in reach.

The classroom is a new virtual environment (``python -m venv``, which sees none of the test
interpreter's packages) where pip installs, from the package index, the notebook runner alone
(nbval and ipykernel: what ``pip install jupyterlab`` gives a student, less the user interface),
and then the wheels of prunekit and pdtbook built from copies of their files, with every
dependency, as the install cell's ``pip install`` would. Every chapter, practitioners' page
(``practice/``) and exercise solution is copied alone into an empty temporary folder and run
there with nbval, which compares every
stored output with the fresh run: this is the only run of the notebooks in ``make test``
(an explorer draws only its first frame there: ``frames="on-demand"``). The
environment is built once per test run (the workers of ``pytest -n`` share it), and
``classroom.json`` in pytest's temporary folder records how long that took.

One more notebook runs where the book's code is not installed: in the classroom with prunekit
and pdtbook uninstalled (their dependencies stay, as pip installed them from the index for the
wheels), the install cell every notebook starts with, pointed at a local clone of the
repository (``git+file://localhost/...``), installs both with a real ``pip install`` from git,
and a second cell imports them and every dependency of pdtbook (what any notebook may import:
``tests/test_packaging.py``); the wheels are then put back. It runs no chapter, so every
chapter still runs once.

A notebook that read a file of the repository (``chapters/data/...``, ``../prunekit/...``), or
imported a package that neither prunekit nor pdtbook declares, fails here.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest

from test_install_cell import install_cell
from test_packaging import BOOK, LIBRARY, copy_package_source

from pdtbook._extras import DEPENDENCIES
from pdtbook.explorer import FRAMES_VARIABLE

# ``make test`` runs these tests in two parts. Beside the library tests (``-m classroom``,
# one process): the classroom is built, checked, and the install cell runs from a clone; the
# waits of pip for the disk then overlap with the library's work. The notebook step (``-m
# notebooks``): every chapter and every exercise solution runs here, once, and its stored
# outputs are compared with the run. With ``PRUNEKIT_CLASSROOM`` set to a folder, the
# classroom is built there once and the second part reuses it (``make test`` empties the
# folder first, so the wheel is always that of the work tree).
classroom_test = pytest.mark.classroom
notebook_test = pytest.mark.notebooks

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "chapters").glob("*.ipynb")) \
    + sorted((ROOT / "practice").glob("*.ipynb")) \
    + sorted((ROOT / "exercises" / "solutions").glob("*.ipynb"))
#: What runs the notebooks: the one thing a classroom installs before the install cell.
RUNNER = ["nbval", "ipykernel"]
#: The extras of pdtbook that some notebook's install cell installs.
CLASSROOM_EXTRAS = sorted({extra for path in NOTEBOOKS for extra in
                           nbformat.read(path, as_version=4).metadata.get(
                               "prunekit", {}).get("extras", [])})
#: pip's option for the classroom's installs: a module is compiled when a notebook first imports
#: it, not every module of every package ahead (most are never imported here).
NO_COMPILE = ["--no-compile"]
#: Packages of the development environment that neither prunekit nor pdtbook declares.
NOT_IN_THE_CLASSROOM = ["imodels", "distributed", "nbgrader", "hypothesis"]


def _run(args, cwd: Path, env=None, timeout=900) -> subprocess.CompletedProcess:
    return subprocess.run([str(arg) for arg in args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout)


def _check(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return result.stdout


def _environment(env_dir: Path) -> dict:
    """The process environment of the virtual environment ``env_dir``: nothing points into the
    repository, at the test interpreter's packages or at the UCI files."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PRUNEKIT_DATA")}
    env["PATH"] = f"{env_dir / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def bare_environment(env_dir: Path) -> tuple[Path, dict]:
    """A new virtual environment with the notebook runner alone, from the package index;
    its python and its process environment."""
    _check(_run([sys.executable, "-m", "venv", env_dir], env_dir.parent))
    python = env_dir / "bin" / "python"
    env = _environment(env_dir)
    _check(_run([python, "-m", "pip", "install", "-q", *NO_COMPILE, *RUNNER], env_dir, env))
    return python, env


@contextmanager
def _locked(path: Path):
    with path.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _build_wheel(folder: Path, distribution) -> Path:
    """The wheel of ``distribution``, built from a copy of its files in ``folder``."""
    folder.mkdir(parents=True)
    source = copy_package_source(folder, distribution)
    _check(_run([sys.executable, "-m", "build", "--wheel", "--outdir", "dist", "."], source))
    (wheel,) = (source / "dist").glob("*.whl")
    return wheel


def _wheels(folder: Path) -> list[Path]:
    """The wheels of prunekit and pdtbook the classroom was built with."""
    return [next((folder / "source" / d.name / "dist").glob("*.whl")) for d in (LIBRARY, BOOK)]


def _build_classroom(folder: Path) -> dict:
    """Build the wheels and the classroom in ``folder``; the times it took, in seconds."""
    start = time.perf_counter()
    library, book = (_build_wheel(folder / "source" / d.name, d) for d in (LIBRARY, BOOK))
    built = time.perf_counter()
    python, env = bare_environment(folder / "venv")
    runner = time.perf_counter()
    # as the install cells do, with the dependencies of both packages and the extras some
    # notebooks declare (Chapter 10's optimal)
    extras = f"[{','.join(CLASSROOM_EXTRAS)}]" if CLASSROOM_EXTRAS else ""
    _check(_run([python, "-m", "pip", "install", "-q", *NO_COMPILE, library, f"{book}{extras}"],
                folder, env))
    _check(_run([python, "-m", "pip", "check"], folder, env))
    done = time.perf_counter()
    return {"wheel_seconds": round(built - start, 1), "runner_seconds": round(runner - built, 1),
            "prunekit_seconds": round(done - runner, 1), "total_seconds": round(done - start, 1)}


@dataclass(frozen=True)
class Classroom:
    python: Path
    env: dict            # the process environment
    folder: Path         # an empty folder to work in
    wheels: list         # the wheels of prunekit and pdtbook it has installed
    times: dict          # how long building it took, in seconds


def _classroom_home(tmp_path_factory) -> Path:
    """Where the classroom is built: ``$PRUNEKIT_CLASSROOM``, or else the run's temporary
    folder, which the workers of ``pytest -n`` share."""
    if os.environ.get("PRUNEKIT_CLASSROOM"):
        shared = Path(os.environ["PRUNEKIT_CLASSROOM"]).resolve()
        shared.mkdir(parents=True, exist_ok=True)
        return shared
    shared = tmp_path_factory.getbasetemp()
    return shared.parent if os.environ.get("PYTEST_XDIST_WORKER") else shared


@pytest.fixture(scope="session")
def classroom(tmp_path_factory) -> Classroom:
    """The classroom, built once: the first process or worker that needs it builds it while
    the others wait, and later runs with the same ``PRUNEKIT_CLASSROOM`` reuse it."""
    shared = _classroom_home(tmp_path_factory)
    folder, record = shared / "classroom", shared / "classroom.json"
    with _locked(shared / "classroom.lock"):
        if not record.exists():
            folder.mkdir(exist_ok=True)
            try:
                times = _build_classroom(folder)
            except BaseException as error:
                times = {"error": str(error)[-6000:]}
                raise
            finally:
                record.write_text(json.dumps(times), encoding="utf-8")
    times = json.loads(record.read_text(encoding="utf-8"))
    if "error" in times:
        pytest.fail(f"the classroom could not be built:\n{times['error']}", pytrace=False)
    return Classroom(folder / "venv" / "bin" / "python", _environment(folder / "venv"),
                     tmp_path_factory.mktemp("work"), _wheels(folder), times)


@classroom_test
def test_both_packages_come_from_their_wheels(classroom):
    where = _run([classroom.python, "-c", "import prunekit, pdtbook, pdtbook.results as r; "
                  "print(prunekit.__file__); print(pdtbook.__file__); "
                  "print(len(r.load_results('study')))"],
                 classroom.folder, classroom.env)
    assert where.returncode == 0, where.stderr
    *modules, rows = where.stdout.split()
    for module in modules:
        assert Path(module).is_relative_to(classroom.python.parent.parent)
        assert not Path(module).is_relative_to(ROOT)
    assert int(rows) > 0


@classroom_test
def test_the_classroom_has_nothing_of_the_test_environment(classroom):
    """No path of the test interpreter's environment, and none of the development packages
    that prunekit and pdtbook do not bring; the study's methods are those it can run."""
    code = ("import importlib.util, json, sys\n"
            "from pdtbook import study\n"
            f"names = {NOT_IN_THE_CLASSROOM!r}\n"
            "print(json.dumps([sys.path, [n for n in names if importlib.util.find_spec(n)],"
            " study.available_methods()]))\n")
    paths, found, methods = json.loads(_check(_run([classroom.python, "-c", code],
                                                    classroom.folder, classroom.env)))
    assert found == []
    assert not [p for p in paths if Path(p).is_relative_to(Path(sys.prefix))
                or Path(p).is_relative_to(ROOT)]
    assert "hs-cv" not in methods and "ccp-cv" in methods


@classroom_test
def test_the_classroom_is_built_in_a_few_minutes(classroom):
    assert classroom.times["total_seconds"] < 600, classroom.times


def _nbval(python: Path, env: dict, work: Path, notebook: Path) -> subprocess.CompletedProcess:
    """nbval on ``notebook``, copied alone into the new folder ``work``."""
    work.mkdir()
    shutil.copy(notebook, work)
    shutil.copy(ROOT / "tests" / "nbval_sanitize.cfg", work)
    return _run([str(python), "-m", "pytest", "-p", "no:cacheprovider", "-q", "--nbval",
                 "--nbval-current-env", "--nbval-sanitize-with", "nbval_sanitize.cfg",
                 "--rootdir", str(work), notebook.name], work, env)


@notebook_test
@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_notebook_runs_in_the_classroom(classroom, notebook):
    # An explorer draws the frame it starts at; its other frames, which nbval does not compare
    # (the book shows the stored ones: tests/book/test_explorer.py), are drawn on demand.
    env = {**classroom.env, FRAMES_VARIABLE: "on-demand"}
    result = _nbval(classroom.python, env,
                    classroom.folder / f"{notebook.parent.name}-{notebook.stem}", notebook)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]


@classroom_test
def test_a_notebook_reading_a_repository_file_fails_here(classroom, tmp_path):
    """The check has teeth: a notebook that reads a table next to the package source, as it
    would in the repository, fails in the classroom."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(
        "from pathlib import Path\nimport prunekit\n"
        "root = Path(prunekit.__file__).resolve().parents[1]\n"
        "print(len((root / 'README.md').read_text()) > 0)")]
    nb.cells[0].outputs = [nbformat.v4.new_output("stream", name="stdout", text="True\n")]
    path = tmp_path / "reads-the-repository.ipynb"
    nbformat.write(nb, path)
    assert (ROOT / "README.md").is_file()           # in the repository it would pass
    result = _nbval(classroom.python, classroom.env,
                    classroom.folder / "reads-the-repository", path)
    assert result.returncode != 0 and "FileNotFoundError" in result.stdout


def _git(*args, cwd: Path) -> str:
    identity = ["-c", "user.name=classroom", "-c", "user.email=classroom@localhost"]
    return _check(_run(["git", *identity, *args], cwd))


def local_clone(folder: Path) -> tuple[str, str]:
    """A clone of the repository in ``folder``, its packages' files as in the work tree (the
    wheels'), committed on a branch; its ``git+`` address and the branch."""
    clone, branch = folder / "repository", "classroom-test"
    _git("clone", "-q", ROOT, clone, cwd=folder)
    for distribution in (LIBRARY, BOOK):
        place = clone / distribution.folder.relative_to(ROOT)
        shutil.rmtree(place / distribution.name, ignore_errors=True)
        copy_package_source(place, distribution)
    _git("checkout", "-q", "-B", branch, cwd=clone)
    _git("add", "-A", cwd=clone)
    if _git("status", "--porcelain", cwd=clone).strip():
        _git("commit", "-q", "-m", "The work tree's package files", cwd=clone)
    return f"file://localhost{clone}", branch


@classroom_test
def test_the_install_cell_installs_both_packages_where_they_are_missing(classroom):
    """The classroom without prunekit and pdtbook, a notebook whose install cell points at a
    local clone: the cell's ``pip install "prunekit @ git+..." "pdtbook @ git+...#subdirectory=
    book"`` brings both back, from git, and every dependency of pdtbook imports."""
    python, env = classroom.python, classroom.env
    with tempfile.TemporaryDirectory(prefix="pk-") as name:   # a short address for the cell
        folder = Path(name)
        url, branch = local_clone(folder)
        _check(_run([python, "-m", "pip", "uninstall", "-y", "-q", "prunekit", "pdtbook"],
                    folder, env))
        try:
            for package in ("prunekit", "pdtbook"):
                assert _run([python, "-c", f"import {package}"], folder, env).returncode != 0
            modules = ["prunekit", "pdtbook", *sorted(DEPENDENCIES.values())]
            imports = nbformat.v4.new_code_cell("\n".join(f"import {m}" for m in modules))
            nb = install_cell.with_install_cell(nbformat.v4.new_notebook(cells=[imports]),
                                                install_cell.install_source(url, branch))
            cell = next(c for c in nb.cells if c.get("id") == install_cell.CELL_ID)
            cell.metadata.tags.append("nbval-ignore-output")        # pip's messages
            notebook = folder / "installs-prunekit.ipynb"
            nbformat.write(nb, notebook)
            result = _nbval(python, env, folder / "run", notebook)
            assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
            for package in ("prunekit", "pdtbook"):
                origin = _check(_run([python, "-c", "import importlib.metadata as m; print(m."
                                      f"distribution('{package}').read_text('direct_url.json'))"],
                                     folder, env))
                assert json.loads(origin)["url"] == url
        finally:   # the notebooks of the next step run the wheels
            _check(_run([python, "-m", "pip", "install", "-q", "--no-deps",
                         "--force-reinstall", *classroom.wheels], folder, env))
