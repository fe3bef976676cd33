"""The two packages of the repository as a package index gets them: ``prunekit`` (the library,
``pyproject.toml`` at the top) and ``pdtbook`` (the book's code, ``book/pyproject.toml``).

``python -m build`` makes an sdist and a wheel of each that pass ``twine check``, with
complete metadata; each wheel holds its package and nothing else, so ``pip install prunekit``
brings no book code and no result table. Every import is declared: the library's in its
dependencies (pystreed in its ``optimal`` extra), the book's in pdtbook's dependencies and
extras (``book/pdtbook/_extras.py``), and a notebook imports nothing else.

Each build runs on a copy of what the package is made of (its pyproject.toml, README, licence
file and package folder), so it leaves no build files in the repository, and a package that
needed another file of the repository would fail here.
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
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest
import yaml
from packaging.requirements import Requirement

import pdtbook
import prunekit
from pdtbook._extras import DEPENDENCIES, EXTRAS

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Distribution:
    """One package of the repository: its name and the folder holding its pyproject.toml."""
    name: str
    folder: Path

    @property
    def pyproject(self) -> dict:
        return tomllib.loads((self.folder / "pyproject.toml").read_text(encoding="utf-8"))

    @property
    def version(self) -> str:
        return self.pyproject["project"]["version"]

    def files(self) -> list[str]:
        """Every file of the package's source tree (bytecode aside), relative to its folder,
        as paths like prunekit/tree.py."""
        package = self.folder / self.name
        return sorted(str(path.relative_to(self.folder)) for path in package.rglob("*")
                      if path.is_file() and "__pycache__" not in path.parts
                      and path.suffix != ".pyc")


LIBRARY = Distribution("prunekit", ROOT)
BOOK = Distribution("pdtbook", ROOT / "book")
DISTRIBUTIONS = {d.name: d for d in (LIBRARY, BOOK)}
#: The library's dependencies, each with the module it is imported as.
CORE = {"numpy": "numpy", "scipy": "scipy", "scikit-learn": "sklearn", "joblib": "joblib",
        "matplotlib": "matplotlib"}
#: The library's extras: the optional solver of prunekit.optimal, and the tools the tests hand
#: its trees to (prunekit.to_sklearn), which the library itself never imports.
LIBRARY_EXTRAS = {"optimal": {"pystreed": "pystreed"},
                  "test": {"shap": "shap", "skl2onnx": "skl2onnx", "onnxruntime": "onnxruntime",
                           "dtreeviz": "dtreeviz"}}


def copy_package_source(source: Path, distribution: Distribution = LIBRARY) -> Path:
    """Copy what ``distribution`` is made of (its pyproject.toml, README, licence file and
    package folder) into the folder ``source``, and return it."""
    folder = distribution.folder
    for name in ["pyproject.toml", "README.md", *(p.name for p in folder.glob("LICEN[CS]E*"))]:
        shutil.copy(folder / name, source)
    for name in distribution.files():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(folder / name, source / name)
    return source


def run(*args: str, cwd: Path) -> str:
    result = subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, f"{' '.join(args)} failed:\n{result.stdout[-3000:]}" \
                                   f"\n{result.stderr[-3000:]}"
    return result.stdout


@pytest.fixture(scope="module", params=list(DISTRIBUTIONS))
def built(request, tmp_path_factory):
    """A distribution and the folder holding its sdist and wheel, built from a copy."""
    distribution = DISTRIBUTIONS[request.param]
    source = copy_package_source(tmp_path_factory.mktemp(distribution.name), distribution)
    run("-m", "build", "--outdir", "dist", ".", cwd=source)
    return distribution, source / "dist"


def _archives(built):
    distribution, dist = built
    (wheel,) = dist.glob("*.whl")
    (sdist,) = dist.glob("*.tar.gz")
    return distribution, wheel, sdist


def test_build_makes_one_sdist_and_one_wheel_of_this_version(built):
    distribution, dist = built
    name, version = distribution.name, distribution.version
    assert sorted(p.name for p in dist.iterdir()) == [
        f"{name}-{version}-py3-none-any.whl", f"{name}-{version}.tar.gz"]


def test_twine_check_passes(built):
    _, wheel, sdist = _archives(built)
    output = run("-m", "twine", "check", "--strict", str(sdist), str(wheel), cwd=wheel.parent)
    assert output.count("PASSED") == 2, output


def test_the_wheel_holds_the_package_and_nothing_else(built):
    distribution, wheel, _ = _archives(built)
    names = zipfile.ZipFile(wheel).namelist()
    info = f"{distribution.name}-{distribution.version}.dist-info/"
    assert sorted(n for n in names if not n.startswith(info)) == distribution.files()
    assert {n for n in names if n.startswith(info)} >= {info + "METADATA", info + "RECORD"}
    for folder in ("tests/", "chapters/", "book/", "exercises/", "benchmarks/", "_ext/"):
        assert not any(n.startswith(folder) for n in names), folder
    if distribution is LIBRARY:
        assert info + "licenses/LICENSE" in names               # the licence text
        assert not any(n.endswith((".csv", ".R")) or "pdtbook" in n for n in names)
    else:
        assert "pdtbook/rpart_export.R" in names                 # package data
        assert "pdtbook/data/study.csv" in names                 # the tables the chapters read
        assert "pdtbook/checks/ch01.py" in names                 # the exercises' checks


def test_the_sdist_holds_the_package_and_its_readme(built):
    distribution, _, sdist = _archives(built)
    top = f"{distribution.name}-{distribution.version}/"
    names = set(tarfile.open(sdist).getnames())
    assert {top + "pyproject.toml", top + "README.md", top + "PKG-INFO"} <= names
    assert {top + name for name in distribution.files()} <= names


def _metadata(built):
    distribution, wheel, _ = _archives(built)
    with zipfile.ZipFile(wheel) as archive:
        return email.message_from_bytes(archive.read(
            f"{distribution.name}-{distribution.version}.dist-info/METADATA"))


def test_metadata_is_complete(built):
    distribution = built[0]
    metadata = _metadata(built)
    project = distribution.pyproject["project"]
    assert metadata["Name"] == distribution.name and metadata["Version"] == distribution.version
    assert metadata["License-Expression"] == project["license"] == "MIT"
    assert metadata["Summary"] and metadata["Requires-Python"] == ">=3.11"
    assert metadata["Description-Content-Type"] == "text/markdown"
    classifiers = metadata.get_all("Classifier")
    assert "Programming Language :: Python :: 3.11" in classifiers
    assert any(c.startswith("Intended Audience :: Education") for c in classifiers)
    required = [Requirement(r) for r in metadata.get_all("Requires-Dist")]
    plain = {r.name for r in required if r.marker is None}
    extras = LIBRARY_EXTRAS if distribution is LIBRARY else EXTRAS
    assert set(metadata.get_all("Provides-Extra")) == set(extras)
    if distribution is LIBRARY:
        assert metadata.get_payload().startswith("# Pruning Decision Trees")
        assert plain == set(CORE)
    else:
        assert metadata.get_payload().startswith("# pdtbook")
        assert plain == {"prunekit", *DEPENDENCIES}
        (library,) = [r for r in required if r.name == "prunekit" and r.marker is None]
        assert LIBRARY.version in library.specifier           # the library of this repository
    for extra, modules in extras.items():
        names = {r.name for r in required if r.marker and r.marker.evaluate({"extra": extra})}
        assert names == ({"prunekit"} if extra == "optimal" and distribution is BOOK
                         else set(modules)), extra
    urls = dict(u.split(", ", 1) for u in metadata.get_all("Project-URL"))
    assert set(urls) == {"Homepage", "Source", "Issues"}


@pytest.mark.parametrize("distribution", list(DISTRIBUTIONS.values()), ids=list(DISTRIBUTIONS))
def test_project_urls_are_the_book_s_repository(distribution):
    """The package index links to the address the book's launch buttons use."""
    repository = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))["repository"]
    url = repository["url"].rstrip("/")
    urls = distribution.pyproject["project"]["urls"]
    assert urls["Homepage"] == urls["Source"] == url
    assert urls["Issues"] == url + "/issues"


def test_the_two_packages_have_one_version():
    assert LIBRARY.version == BOOK.version


def test_version_comes_from_the_installed_metadata():
    from importlib.metadata import version

    assert prunekit.__version__ == version("prunekit") == LIBRARY.version
    assert pdtbook.__version__ == version("pdtbook") == BOOK.version


def test_version_falls_back_to_the_source_s_without_metadata():
    """Imported from a source tree with no installed distribution, prunekit has its own version."""
    code = ("import importlib.metadata as m\n"
            "def missing(name):\n"
            "    raise m.PackageNotFoundError(name)\n"
            "m.version = missing\n"
            "import prunekit\n"
            "print(prunekit.__version__)\n")
    assert run("-c", code, cwd=ROOT).strip() == LIBRARY.version


def _third_party(modules) -> set[str]:
    return {m for m in modules
            if m not in sys.stdlib_module_names and m not in ("prunekit", "pdtbook")}


def _imports(source: str) -> set[str]:
    """The top-level modules ``source`` imports (relative imports aside), including those
    of the book's ``require("module", ...)``."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name.partition(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            found.add(node.module.partition(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "require":
            found.add(node.args[0].value)
    return found


def _declared_for_the_book(*extras: str) -> set[str]:
    return set(CORE.values()) | set(DEPENDENCIES.values()) \
        | set().union(*(EXTRAS[extra].values() for extra in extras))


def _package_imports(distribution: Distribution) -> dict[str, set[str]]:
    """The third-party imports of every module of ``distribution``."""
    return {name: _third_party(_imports((distribution.folder / name).read_text(
                encoding="utf-8")))
            for name in distribution.files() if name.endswith(".py")}


def _requirement_names(requirements) -> set[str]:
    return {Requirement(r).name for r in requirements}


def test_pyproject_declares_the_dependencies_and_the_extras():
    library, book = LIBRARY.pyproject["project"], BOOK.pyproject["project"]
    assert _requirement_names(library["dependencies"]) == set(CORE)
    assert {extra: _requirement_names(r) for extra, r in
            library["optional-dependencies"].items()} == {
        extra: set(modules) for extra, modules in LIBRARY_EXTRAS.items()}
    assert _requirement_names(book["dependencies"]) == {"prunekit", *DEPENDENCIES}
    assert {extra: _requirement_names(r) for extra, r in
            book["optional-dependencies"].items()} == {
        extra: {"prunekit"} if extra == "optimal" else set(modules)
        for extra, modules in EXTRAS.items()}
    assert book["optional-dependencies"]["optimal"] == ["prunekit[optimal]"]


def test_the_library_imports_only_its_dependencies():
    """``pip install prunekit`` brings everything the library imports, even inside a
    function, but the optional solver of ``prunekit[optimal]``."""
    declared = set(CORE.values()) | set(LIBRARY_EXTRAS["optimal"].values())
    undeclared = {name: modules - declared
                  for name, modules in _package_imports(LIBRARY).items()}
    assert not {name: m for name, m in undeclared.items() if m}


def test_the_book_imports_only_what_it_declares():
    undeclared = {name: modules - _declared_for_the_book(*EXTRAS)
                  for name, modules in _package_imports(BOOK).items()}
    assert not {name: m for name, m in undeclared.items() if m}
    imported = set().union(*_package_imports(BOOK).values())
    assert {"imodels", "distributed", "scikit_posthocs", "pandas"} <= imported


@pytest.mark.parametrize("path", sorted(ROOT.glob("chapters/*.ipynb"))
                         + sorted(ROOT.glob("practice/*.ipynb"))
                         + sorted(ROOT.glob("exercises/solutions/*.ipynb")),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_a_notebook_imports_only_what_pdtbook_brings(path):
    """The install cell installs prunekit and pdtbook: a notebook needs nothing else (the
    classroom test runs every notebook with exactly that installed)."""
    nb = nbformat.read(path, as_version=4)
    imported = set()
    for cell in nb.cells:
        if cell.cell_type == "code":
            code = "\n".join(line for line in cell.source.splitlines()
                             if not line.lstrip().startswith(("%", "!")))
            imported |= _imports(code)
    extras = nb.metadata.get("prunekit", {}).get("extras", [])
    assert _third_party(imported) <= _declared_for_the_book(*extras)


def test_requirements_pin_every_dependency_and_install_every_extra():
    """requirements.txt, the pinned development environment, holds every dependency of both
    packages and their extras', and installs both, editable, with every extra."""
    lines = [line.strip() for line in (ROOT / "requirements.txt").read_text(
        encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")]
    pinned = {Requirement(line).name.lower(): Requirement(line) for line in lines
              if not line.startswith("-e")}
    wanted = set(CORE) | set(DEPENDENCIES) | set().union(
        *(modules for modules in [*EXTRAS.values(), *LIBRARY_EXTRAS.values()]))
    for name in wanted:
        assert name in pinned and str(pinned[name].specifier).startswith("=="), name
    assert f"-e .[{','.join(LIBRARY_EXTRAS)}]" in lines
    assert f"-e ./book[{','.join(EXTRAS)}]" in lines
