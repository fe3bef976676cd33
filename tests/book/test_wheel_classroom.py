"""The notebooks as a classroom gets them: prunekit installed from its wheel, the notebooks in an
empty folder, nothing of the repository in reach.

The wheel is built from a copy of the package's files, installed (without its dependencies) into
a fresh virtual environment, and every chapter and exercise solution is copied alone into an
empty temporary folder and run there with nbval, which compares every stored output with the
fresh run: this is the only run of the notebooks in ``make test``. The environment finds the third-party packages (numpy, scikit-learn,
nbval, ...) of the interpreter running the tests through a path entry, which adds their folder
to ``sys.path`` but runs none of its ``.pth`` files, so the repository's editable prunekit is
not visible: prunekit comes from the wheel or not at all. A notebook that read a file of the
repository (``chapters/data/...``, ``../prunekit/...``) fails here.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import nbformat
import pytest

from test_packaging import copy_package_source

# ``make test`` runs these tests as its notebook step (``-m notebooks``): every chapter and
# every exercise solution runs here, once, and its stored outputs are compared with the run.
pytestmark = pytest.mark.notebooks

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "chapters").glob("*.ipynb")) \
    + sorted((ROOT / "exercises" / "solutions").glob("*.ipynb"))


def _run(args, cwd: Path, env=None, timeout=900) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture(scope="module")
def classroom(tmp_path_factory):
    """A virtual environment with prunekit from its wheel, and an empty folder to work in."""
    source = copy_package_source(tmp_path_factory.mktemp("source"))
    built = _run([sys.executable, "-m", "build", "--wheel", "--outdir", "dist", "."], source)
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = (source / "dist").glob("*.whl")

    env_dir = tmp_path_factory.mktemp("venv")
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    purelib = Path(_run([str(python), "-c", "import sysconfig; "
                         "print(sysconfig.get_paths()['purelib'])"], env_dir).stdout.strip())
    # the test interpreter's packages, as a plain path entry (its .pth files are not run)
    (purelib / "_classroom_packages.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    installed = _run([sys.executable, "-m", "pip", "--python", str(python), "install",
                      "--no-deps", "--no-index", str(wheel)], env_dir)
    assert installed.returncode == 0, installed.stdout[-2000:] + installed.stderr[-2000:]
    folder = tmp_path_factory.mktemp("classroom")
    # no path into the repository, and no UCI folder
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "PRUNEKIT_DATA")}
    env["PATH"] = f"{env_dir / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return python, folder, env


def test_prunekit_comes_from_the_wheel(classroom):
    python, folder, env = classroom
    where = _run([str(python), "-c", "import prunekit, prunekit.datasets as d; "
                  "print(prunekit.__file__); print(len(d.load_results('study')))"],
                 folder, env)
    assert where.returncode == 0, where.stderr
    module, rows = where.stdout.split()
    assert Path(module).is_relative_to(python.parent.parent)
    assert not Path(module).is_relative_to(ROOT)
    assert int(rows) > 0


def _nbval(classroom, notebook: Path, name: str) -> subprocess.CompletedProcess:
    """nbval on ``notebook``, copied alone into a new folder ``name`` of the classroom."""
    python, folder, env = classroom
    work = folder / name
    work.mkdir()
    shutil.copy(notebook, work)
    shutil.copy(ROOT / "tests" / "nbval_sanitize.cfg", work)
    return _run([str(python), "-m", "pytest", "-p", "no:cacheprovider", "-q", "--nbval",
                 "--nbval-current-env", "--nbval-sanitize-with", "nbval_sanitize.cfg",
                 "--rootdir", str(work), notebook.name], work, env)


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_notebook_runs_with_nothing_but_the_wheel(classroom, notebook):
    result = _nbval(classroom, notebook, f"{notebook.parent.name}-{notebook.stem}")
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]


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
    result = _nbval(classroom, path, "reads-the-repository")
    assert result.returncode != 0 and "FileNotFoundError" in result.stdout
