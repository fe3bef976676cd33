"""Every chapter, practitioners' page and exercise notebook starts with the install cell of
``book/install_cell.py``, made from the repository and branch in ``_config.yml``; the cell does
nothing where prunekit, pdtbook and pdtbook's dependencies are installed, and installs prunekit
and pdtbook from that repository where one of them is missing.
(``tests/book/test_wheel_classroom.py`` runs it for real, with pip.)"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import nbformat
import pytest
import yaml
from IPython.core.inputtransformer2 import TransformerManager

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted(ROOT.glob("chapters/*.ipynb")) + sorted(ROOT.glob("practice/*.ipynb")) \
    + sorted(ROOT.glob("exercises/*.ipynb")) + sorted(ROOT.glob("exercises/solutions/*.ipynb"))
CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))


def _load_install_cell():
    spec = importlib.util.spec_from_file_location("install_cell", ROOT / "book" / "install_cell.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("install_cell", module)
    spec.loader.exec_module(module)
    return module


install_cell = _load_install_cell()
SOURCE = install_cell.install_source(*install_cell.repository())


def test_every_notebook_is_covered():
    names = {p.relative_to(ROOT).parts[0] for p in NOTEBOOKS}
    assert names == {"chapters", "practice", "exercises"} and len(NOTEBOOKS) >= 9 + 2 * 6
    assert sorted(install_cell.notebooks()) == sorted(
        p for p in NOTEBOOKS if p.parent.name != "exercises")   # the students' are generated


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_first_code_cell_is_the_install_cell_of_the_config(path):
    nb = nbformat.read(path, as_version=4)
    cell = next(c for c in nb.cells if c.cell_type == "code")
    assert cell.id == install_cell.CELL_ID
    extras = install_cell.notebook_extras(nb)
    assert cell.source == (install_cell.install_source(*install_cell.repository(), extras)
                           if extras else SOURCE)
    assert cell.metadata.get("tags") == ["remove-cell"]      # hidden in the HTML book
    assert cell.outputs == []
    assert sum(c.get("id") == install_cell.CELL_ID for c in nb.cells) == 1
    assert sum(map(install_cell.is_install_cell, nb.cells)) == 1, "a copy of the install cell"


def test_writing_the_cell_removes_a_copy_under_another_id():
    """A cell copied from another notebook gets a new id; writing the cell removes it too."""
    nb = nbformat.v4.new_notebook()
    copy = install_cell.install_cell(SOURCE)
    copy.id = "copied12"
    nb.cells = [nbformat.v4.new_markdown_cell("# Title"), install_cell.install_cell(SOURCE),
                copy, nbformat.v4.new_code_cell("import numpy as np")]
    cells = install_cell.with_install_cell(nb, SOURCE).cells
    assert [c.get("id") for c in cells if c.cell_type == "code"][0] == install_cell.CELL_ID
    assert [c.source for c in cells] == ["# Title", SOURCE, "import numpy as np"]


def test_the_cell_installs_from_the_configured_repository_and_branch():
    url = CONFIG["repository"]["url"].rstrip("/")
    branch = CONFIG["repository"]["branch"]
    python = TransformerManager().transform_cell(SOURCE)
    # IPython turns the %pip line into a magic call; {SOURCE} is expanded by the magic
    assert ("run_line_magic('pip', 'install -q "
            "\"prunekit @ {SOURCE}\" \"pdtbook @ {BOOK}\"')") in python
    assert f'SOURCE = "git+{url}@{branch}"' in python
    assert 'BOOK = SOURCE + "#subdirectory=book"' in python
    compile(python, "install cell", "exec")


def _run_the_cell() -> list:
    """The magic calls the install cell makes, run here."""
    calls = []

    class Shell:
        def run_line_magic(self, *args):
            calls.append(args)

    exec(TransformerManager().transform_cell(SOURCE), {"get_ipython": Shell})
    return calls


def test_the_cell_checks_both_packages_and_every_dependency_of_the_book():
    from pdtbook._extras import DEPENDENCIES

    assert install_cell.needed_modules() == ["prunekit", "pdtbook", *DEPENDENCIES.values()]
    for module in install_cell.needed_modules():
        assert f'"{module}"' in SOURCE


def test_the_cell_does_nothing_where_everything_is_installed():
    assert _run_the_cell() == []


@pytest.mark.parametrize("missing", install_cell.needed_modules())
def test_the_cell_installs_where_a_needed_module_is_missing(monkeypatch, missing):
    monkeypatch.setitem(sys.modules, missing, None)       # import fails, find_spec finds none
    calls = _run_the_cell()
    assert len(calls) == 1 and calls[0][0] == "pip"
    assert '"prunekit @ ' in calls[0][1] and '"pdtbook @ ' in calls[0][1]


def test_a_notebook_that_declares_an_extra_installs_it_too(monkeypatch):
    nb = nbformat.v4.new_notebook(metadata={"prunekit": {"extras": ["optimal"]}})
    assert install_cell.notebook_extras(nb) == ["optimal"]
    source = install_cell.install_source(*install_cell.repository(), ["optimal"])
    assert '"pystreed"' in source and '"statsmodels"' in source
    monkeypatch.setitem(sys.modules, "pystreed", None)
    calls = []

    class Shell:
        def run_line_magic(self, *args):
            calls.append(args)

    exec(TransformerManager().transform_cell(source), {"get_ipython": Shell})
    assert len(calls) == 1 and '"pdtbook[optimal] @ ' in calls[0][1]
    with pytest.raises(ValueError, match="unknown extras"):
        install_cell.notebook_extras(nbformat.v4.new_notebook(
            metadata={"prunekit": {"extras": ["no-such-extra"]}}))


def test_chapter_10_declares_the_optimal_extra():
    nb = nbformat.read(ROOT / "chapters" / "10-optimal-trees.ipynb", as_version=4)
    assert install_cell.notebook_extras(nb) == ["optimal"]


def test_repository_setting_is_validated(tmp_path):
    config = tmp_path / "_config.yml"
    config.write_text("repository:\n  url: github.com/x/y\n  branch: main\n", encoding="utf-8")
    with pytest.raises(ValueError, match="repository.url"):
        install_cell.repository(config)
    config.write_text("repository:\n  url: https://github.com/x/y/\n  branch: ''\n",
                      encoding="utf-8")
    with pytest.raises(ValueError, match="repository.branch"):
        install_cell.repository(config)
    config.write_text("repository:\n  url: https://github.com/x/y/\n  branch: dev\n",
                      encoding="utf-8")
    assert install_cell.repository(config) == ("https://github.com/x/y", "dev")
    with pytest.raises(ValueError, match="longer than 77"):
        install_cell.install_source("https://" + "x" * 80, "main")


def test_check_mode_finds_no_stale_notebook():
    assert install_cell.main(["--check"]) == 0


def test_jupyterhub_button_is_configured_in_one_place():
    """A school's hub is one setting; the book documents where it is."""
    assert "jupyterhub_url" in CONFIG["launch_buttons"]
    how_to = (ROOT / "book" / "how-to-use.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for text in (how_to, readme):
        assert "jupyterhub_url" in text and "repository.url" in text


def test_the_teaching_page_gives_the_one_command_a_hub_needs():
    url = CONFIG["repository"]["url"].rstrip("/")
    branch = CONFIG["repository"]["branch"]
    teaching = (ROOT / "book" / "teaching.md").read_text(encoding="utf-8")
    # the address in a variable, so that the command fits the code box
    assert (f'SOURCE=git+{url}@{branch}\n'
            'pip install "prunekit @ $SOURCE" "pdtbook @ $SOURCE#subdirectory=book"'
            ) in teaching
