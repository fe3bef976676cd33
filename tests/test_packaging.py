"""prunekit as a package index gets it: ``python -m build`` makes an sdist and a wheel that pass
``twine check``, with complete metadata, and the wheel holds the package and nothing else.

The build runs on a copy of what the package is made of (pyproject.toml, the README, any licence
file and prunekit/), so it leaves no build files in the repository, and a package that needed
another file of the repository would fail here.
"""

from __future__ import annotations

import email
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest
import yaml

import prunekit

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
VERSION = PYPROJECT["project"]["version"]


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
    requirements = metadata.get_all("Requires-Dist")
    assert {r.split(">")[0] for r in requirements if "extra ==" not in r} == {
        "numpy", "scikit-learn", "matplotlib", "tqdm", "pandas"}
    assert "pystreed==1.4.0; extra == \"optimal\"" in requirements
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
