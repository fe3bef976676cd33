"""prunekit as a package index gets it: ``python -m build`` makes an sdist and a wheel that pass
``twine check``, with complete metadata, and the wheel holds the package and nothing else.

The build runs on a copy of what the package is made of (pyproject.toml, the README, any licence
file and prunekit/), so it leaves no build files in the repository, and a package that needed
another file of the repository would fail here.
"""

from __future__ import annotations

import ast
import email
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import nbformat
import pytest
import yaml
from packaging.requirements import Requirement

import prunekit
from prunekit.book._extras import EXTRAS

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
VERSION = PYPROJECT["project"]["version"]
#: The core's dependencies (pyproject.toml), each with the module it is imported as; the
#: extras' are prunekit.book._extras.EXTRAS.
CORE = {"numpy": "numpy", "scipy": "scipy", "scikit-learn": "sklearn",
        "matplotlib": "matplotlib", "pandas": "pandas"}
#: The extras that run the book layer's runners, so install prunekit[book] too.
ON_THE_BOOK_LAYER = {"study", "cluster"}


def package_files() -> list[str]:
    """Every file of the prunekit source tree (bytecode aside), as paths like prunekit/tree.py."""
    return sorted(str(path.relative_to(ROOT)) for path in (ROOT / "prunekit").rglob("*")
                  if path.is_file() and "__pycache__" not in path.parts
                  and path.suffix != ".pyc")


def copy_package_source(source: Path) -> Path:
    """Copy what the package is made of (pyproject.toml, the README, the licence file and
    prunekit/) into the folder ``source``, and return it."""
    for name in ["pyproject.toml", "README.md", *(p.name for p in ROOT.glob("LICEN[CS]E*"))]:
        shutil.copy(ROOT / name, source)
    for name in package_files():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, source / name)
    return source


def run(*args: str, cwd: Path) -> str:
    result = subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, f"{' '.join(args)} failed:\n{result.stdout[-3000:]}" \
                                   f"\n{result.stderr[-3000:]}"
    return result.stdout


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    """The folder holding the sdist and the wheel built from a copy of the package's files."""
    source = copy_package_source(tmp_path_factory.mktemp("source"))
    run("-m", "build", "--outdir", "dist", ".", cwd=source)
    return source / "dist"


@pytest.fixture(scope="module")
def wheel(dist) -> Path:
    (path,) = dist.glob("*.whl")
    return path


@pytest.fixture(scope="module")
def sdist(dist) -> Path:
    (path,) = dist.glob("*.tar.gz")
    return path


def test_build_makes_one_sdist_and_one_wheel_of_this_version(dist, wheel, sdist):
    assert sorted(p.name for p in dist.iterdir()) == [
        f"prunekit-{VERSION}-py3-none-any.whl", f"prunekit-{VERSION}.tar.gz"]


def test_twine_check_passes(wheel, sdist):
    output = run("-m", "twine", "check", "--strict", str(sdist), str(wheel), cwd=wheel.parent)
    assert output.count("PASSED") == 2, output


def test_the_wheel_holds_the_package_and_nothing_else(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    info = f"prunekit-{VERSION}.dist-info/"
    assert sorted(n for n in names if not n.startswith(info)) == package_files()
    assert "prunekit/book/rpart_export.R" in names               # package data
    assert "prunekit/data/study.csv" in names               # the tables the chapters read
    assert {n for n in names if n.startswith(info)} >= {info + "METADATA", info + "RECORD"}
    assert info + "licenses/LICENSE" in names               # the licence text
    # no folder of the repository at the top of the wheel (prunekit/book/ is the package's)
    for folder in ("tests/", "chapters/", "book/", "exercises/", "benchmarks/"):
        assert not any(n.startswith(folder) for n in names), folder
    assert "prunekit/book/checks/ch01.py" in names          # the exercises' checks


def test_the_sdist_holds_the_package_and_its_readme(sdist):
    top = f"prunekit-{VERSION}/"
    names = set(tarfile.open(sdist).getnames())
    assert {top + "pyproject.toml", top + "README.md", top + "PKG-INFO"} <= names
    assert {top + name for name in package_files()} <= names


def test_metadata_is_complete(wheel):
    with zipfile.ZipFile(wheel) as archive:
        metadata = email.message_from_bytes(
            archive.read(f"prunekit-{VERSION}.dist-info/METADATA"))
    assert metadata["Name"] == "prunekit" and metadata["Version"] == VERSION
    assert metadata["License-Expression"] == PYPROJECT["project"]["license"] == "MIT"
    assert metadata["Summary"] and metadata["Requires-Python"] == ">=3.11"
    assert metadata["Description-Content-Type"] == "text/markdown"
    assert metadata.get_payload().startswith("# Pruning Decision Trees")
    classifiers = metadata.get_all("Classifier")
    assert "Programming Language :: Python :: 3.11" in classifiers
    assert any(c.startswith("Intended Audience :: Education") for c in classifiers)
    required = [Requirement(r) for r in metadata.get_all("Requires-Dist")]
    assert {r.name for r in required if r.marker is None} == set(CORE)
    assert set(metadata.get_all("Provides-Extra")) == set(EXTRAS)
    for extra, modules in EXTRAS.items():
        names = {r.name for r in required
                 if r.marker and r.marker.evaluate({"extra": extra})}
        assert names - {"prunekit"} == set(modules), extra
        assert ("prunekit" in names) == (extra in ON_THE_BOOK_LAYER), extra
    urls = dict(u.split(", ", 1) for u in metadata.get_all("Project-URL"))
    assert set(urls) == {"Homepage", "Source", "Issues"}


def test_project_urls_are_the_book_s_repository():
    """The package index links to the address the book's launch buttons use."""
    repository = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))["repository"]
    url = repository["url"].rstrip("/")
    urls = PYPROJECT["project"]["urls"]
    assert urls["Homepage"] == urls["Source"] == url
    assert urls["Issues"] == url + "/issues"


def test_version_comes_from_the_installed_metadata():
    from importlib.metadata import version

    assert prunekit.__version__ == version("prunekit") == VERSION


def test_version_falls_back_to_the_source_s_without_metadata():
    """Imported from a source tree with no installed distribution, prunekit has its own version."""
    code = ("import importlib.metadata as m\n"
            "def missing(name):\n"
            "    raise m.PackageNotFoundError(name)\n"
            "m.version = missing\n"
            "import prunekit\n"
            "print(prunekit.__version__)\n")
    assert run("-c", code, cwd=ROOT).strip() == VERSION


def _third_party(modules) -> set[str]:
    return {m for m in modules if m not in sys.stdlib_module_names and m != "prunekit"}


def _imports(source: str) -> set[str]:
    """The top-level modules ``source`` imports (relative imports aside), including those
    of the book layer's ``require("module", ...)``."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name.partition(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            found.add(node.module.partition(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "require":
            found.add(node.args[0].value)
    return found


def _declared(*extras: str) -> set[str]:
    return set(CORE.values()).union(*(EXTRAS[extra].values() for extra in extras))


def _package_imports(book: bool) -> dict[str, set[str]]:
    """The third-party imports of every module of the core (or of the book layer)."""
    return {name: _third_party(_imports((ROOT / name).read_text(encoding="utf-8")))
            for name in package_files() if name.endswith(".py")
            and name.startswith("prunekit/book/") == book}


def test_pyproject_declares_the_core_and_the_extras():
    project = PYPROJECT["project"]
    assert {Requirement(r).name for r in project["dependencies"]} == set(CORE)
    extras = {extra: {Requirement(r).name for r in requirements}
              for extra, requirements in project["optional-dependencies"].items()}
    wanted = {extra: set(modules) for extra, modules in EXTRAS.items()}
    for extra in ON_THE_BOOK_LAYER:
        wanted[extra].add("prunekit")
    assert extras == wanted


def test_the_core_imports_only_its_dependencies():
    """``pip install prunekit`` brings everything the core imports, even inside a
    function, but the optional solver of ``prunekit[optimal]``."""
    undeclared = {name: modules - _declared("optimal")
                  for name, modules in _package_imports(book=False).items()}
    assert not {name: m for name, m in undeclared.items() if m}


def test_the_book_layer_imports_only_what_its_extras_bring():
    undeclared = {name: modules - _declared(*EXTRAS)
                  for name, modules in _package_imports(book=True).items()}
    assert not {name: m for name, m in undeclared.items() if m}
    imported = set().union(*_package_imports(book=True).values())
    assert {"imodels", "distributed", "scikit_posthocs"} <= imported


@pytest.mark.parametrize("path", sorted(ROOT.glob("chapters/*.ipynb"))
                         + sorted(ROOT.glob("exercises/solutions/*.ipynb")),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_a_notebook_imports_only_what_prunekit_book_brings(path):
    """The install cell installs ``prunekit[book]``: a notebook needs nothing else (the
    classroom test runs every notebook with exactly that installed)."""
    nb = nbformat.read(path, as_version=4)
    imported = set()
    for cell in nb.cells:
        if cell.cell_type == "code":
            code = "\n".join(line for line in cell.source.splitlines()
                             if not line.lstrip().startswith(("%", "!")))
            imported |= _imports(code)
    assert _third_party(imported) <= _declared("book")


def test_requirements_pin_every_dependency_and_install_every_extra():
    """requirements.txt, the pinned development environment, holds the core's dependencies
    and every extra's, and installs prunekit with every extra."""
    lines = [line.strip() for line in (ROOT / "requirements.txt").read_text(
        encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")]
    pinned = {Requirement(line).name.lower(): Requirement(line) for line in lines
              if not line.startswith("-e")}
    for name in set(CORE).union(*EXTRAS.values()):
        assert name in pinned and str(pinned[name].specifier).startswith("=="), name
    assert f"-e .[{','.join(EXTRAS)}]" in lines
