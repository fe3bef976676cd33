"""What the book's Sphinx extensions (``book/_ext/``) assume of Sphinx and sphinx-proof beyond
their documented interfaces, checked here so that an upgrade of either fails a test that says
what to do, instead of silently breaking or slowing the book's build.

* ``numref_pages.py`` overrides the public ``StandardDomain.resolve_xref`` and relies on
  Sphinx's numref resolution reading the target page through ``env.get_doctree``: a small
  book is built with and without it, and the target page must be read once with it, once per
  reference without it.
* ``book_navigation.py`` lists sphinx-proof's index (``prf-prf``) among the pages Sphinx
  generates, in the private ``StandardDomain._virtual_doc_names``.
* ``latex_numbers.py`` replaces sphinx-proof's private ``sphinx_proof.nodes.find_parent``,
  which its LaTeX visitors look up by name when they label and number a result.

The pinned versions these were written against: Sphinx 7.4.7 (what jupyter-book 1.0.4.post1
resolves to), sphinx-proof 0.4.0.
"""

from __future__ import annotations

import inspect
import io
import sys
from collections import Counter
from pathlib import Path

import pytest
from sphinx.application import Sphinx
from sphinx.domains.std import StandardDomain
from sphinx.environment import BuildEnvironment

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "book" / "_ext"))

_GET_DOCTREE = BuildEnvironment.get_doctree
N_REFERENCES = 5
PAGES = {
    "index.rst": "Book\n====\n\n.. toctree::\n   :numbered:\n\n   target\n   source\n",
    "target.rst": "Target\n======\n\n.. _fig-tree:\n\n.. figure:: tree.png\n\n   A tree.\n",
    "source.rst": "Source\n======\n\n" + "".join(
        f"Reference {i}: :numref:`fig-tree`.\n\n" for i in range(N_REFERENCES)),
}


def _build(tmp_path: Path, extensions: list[str], monkeypatch) -> tuple[Counter, str]:
    """Build the small book into ``tmp_path``; how often each page's doctree was read from
    disk, and the HTML of the page that refers to the figure."""
    src = tmp_path / "src"
    src.mkdir(parents=True)
    (src / "conf.py").write_text(f"extensions = {extensions!r}\nnumfig = True\n")
    for name, text in PAGES.items():
        (src / name).write_text(text)
    (src / "tree.png").write_bytes(b"")
    reads: Counter = Counter()

    def counting(env, docname):
        reads[docname] += 1
        return _GET_DOCTREE(env, docname)

    monkeypatch.setattr(BuildEnvironment, "get_doctree", counting)
    app = Sphinx(str(src), str(src), str(tmp_path / "html"), str(tmp_path / "doctrees"),
                 "html", status=None, warning=io.StringIO(), freshenv=True)
    app.build()
    return reads, (tmp_path / "html" / "source.html").read_text(encoding="utf-8")


def test_numref_pages_reads_each_target_page_once(tmp_path, monkeypatch):
    with_it, page = _build(tmp_path / "with", ["numref_pages"], monkeypatch)
    assert page.count("Fig. 1") == N_REFERENCES, (
        "{numref} no longer resolves with book/_ext/numref_pages.py: Sphinx's "
        "StandardDomain.resolve_xref has changed; compare it with Sphinx 7.4.7's and adapt "
        "numref_pages.StandardDomain.resolve_xref, or remove numref_pages from _config.yml")
    without, plain = _build(tmp_path / "without", [], monkeypatch)
    assert plain == page, "numref_pages.py changes the built page; it must only save time"
    assert without["target"] >= N_REFERENCES, (
        "Sphinx no longer reads the target page for every {numref}: book/_ext/numref_pages.py "
        "saves nothing; remove it (and its line in _config.yml)")
    assert with_it["target"] <= without["target"] - N_REFERENCES + 1, (
        f"with numref_pages.py the target page was read {with_it['target']} times "
        f"(without it {without['target']}): Sphinx's numref resolution no longer reads it "
        "through the environment it is given; adapt book/_ext/numref_pages.py to the new "
        "Sphinx or remove it")


def test_resolve_xref_takes_the_arguments_numref_pages_passes():
    parameters = list(inspect.signature(StandardDomain.resolve_xref).parameters)
    assert parameters == ["self", "env", "fromdocname", "builder", "typ", "target", "node",
                          "contnode"], (
        f"Sphinx's StandardDomain.resolve_xref now takes {parameters}: adapt the override in "
        "book/_ext/numref_pages.py (written for Sphinx 7.4.7's)")


def test_generated_page_names_are_where_book_navigation_adds_one():
    names = getattr(StandardDomain, "_virtual_doc_names", None)
    assert isinstance(names, dict) and "genindex" in names, (
        "Sphinx's private StandardDomain._virtual_doc_names (the pages Sphinx generates, "
        "which a toctree may name) is gone or changed: find where the new Sphinx lists them "
        "and adapt book_navigation.setup, which adds sphinx-proof's prf-prf to it")


def test_sphinx_proof_looks_up_find_parent_by_name():
    nodes = pytest.importorskip("sphinx_proof.nodes")
    finder = getattr(nodes, "find_parent", None)
    assert finder is not None and list(inspect.signature(finder).parameters) == [
        "env", "node", "parent_tag"], (
        "sphinx_proof.nodes.find_parent is gone or takes other arguments: "
        "book/_ext/latex_numbers.py replaces it (results' LaTeX labels and numbers); adapt it "
        "to the new sphinx-proof (written for sphinx-proof 0.4.0)")
    for visitor in (nodes.visit_enumerable_node, nodes.visit_unenumerable_node,
                    nodes.get_node_number):
        assert "find_parent" in visitor.__code__.co_names, (
            f"sphinx_proof.nodes.{visitor.__name__} no longer calls find_parent: replacing it "
            "in book/_ext/latex_numbers.py has no effect; adapt it to the new sphinx-proof")
