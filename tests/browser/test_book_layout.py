"""The built book around its pages: pages light enough for a phone, none with Jupyter's
widget manager, an index, a list of results, search snippets without TeX, a student edition
without solutions and a Library reference that documents every public name.

(Every page, at 1280 and at 390 px, is checked in test_book_pages.py.) Needs the built book,
both editions (`make test` builds them), and Chromium.
"""

from __future__ import annotations

import re

import pytest
from conftest import ROOT, book_pages
from layout import MAX_PAGE_BYTES, WAIT_MS, page_weight, widget_manager_scripts

pytestmark = pytest.mark.browser

STUDENT_BUILD = ROOT / "_build" / "student" / "_build" / "html"
# A widget's view or state, as myst-nb writes them into a page for the widget manager
WIDGET_DATA = re.compile(r'<script type="application/vnd\.jupyter\.widget-(view|state)\+json"')


def test_pages_are_light(built_book):
    """No page, with everything it loads and every frame of its explorers, weighs more than
    3 MB."""
    heavy = {name: weight for name in book_pages()
             if (weight := page_weight(built_book, name)) > MAX_PAGE_BYTES}
    assert not heavy, f"pages over {MAX_PAGE_BYTES} bytes: {heavy}"


def test_no_page_loads_the_widget_manager(built_book):
    """The explorers are HTML written when the book is built: no page names the widget
    manager's scripts (embed-amd.js, require.js) nor holds a widget view or widget state."""
    found = {}
    for name in book_pages():
        html = (built_book / f"{name}.html").read_text(encoding="utf8")
        scripts = widget_manager_scripts(re.findall(r'<script[^>]+src="([^"]+)"', html))
        widgets = [f"a widget {kind}" for kind in WIDGET_DATA.findall(html)]
        if scripts or widgets:
            found[name] = scripts + widgets
    assert not found, found


def test_the_index_lists_the_books_terms(built_book):
    """genindex.html is useful: the glossary's terms and the chapters' index entries."""
    index = (built_book / "genindex.html").read_text(encoding="utf8")
    entries = re.findall(r'<li>(?:<a href="[^"]+">)?(?:<strong>)?([^<]+)', index)
    assert len(entries) >= 60, f"only {len(entries)} index entries"
    for term in ["pruning", "cost-complexity pruning", "reduced-error pruning"]:
        assert any(entry.strip().lower().startswith(term) for entry in entries), term


def test_the_proof_index_names_results_by_number_and_title(built_book):
    index = (built_book / "prf-prf.html").read_text(encoding="utf8")
    names = re.findall(r'<a href="[^"]+"><code class="xref">([^<]+)</code></a>', index)
    assert len(names) >= 40, names[:5]
    assert all(re.match(r"[A-Z][a-z]+ (\d+|A)\.\d+( — .+)?$", name) for name in names), names
    assert any(name.startswith("Theorem A.") for name in names)


def test_search_snippets_show_no_tex(browser, book_url):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{book_url}/search.html?q=penalty", wait_until="load")
        page.wait_for_selector("#search-results li p.context", timeout=WAIT_MS)
        page.wait_for_timeout(1000)
        snippets = page.locator("#search-results li p.context").all_text_contents()
    finally:
        context.close()
    assert snippets
    raw = [s for s in snippets if re.search(r"\\\(|\\\[|\$\$|\\[a-zA-Z]+", s)]
    assert not raw, raw[:3]


def _solutions(html_file):
    return len(re.findall(r'class="solution[ "]', html_file.read_text(encoding="utf8")))


def test_the_student_edition_has_no_solutions(built_book):
    """`make book EDITION=student`: the same pages, every exercise, no solution."""
    if not (STUDENT_BUILD / "index.html").is_file():
        pytest.fail(f"{STUDENT_BUILD} is missing: run `make book EDITION=student`",
                    pytrace=False)
    pages = [name for name in book_pages() if name.startswith("chapters/")]
    with_solutions = [name for name in pages if _solutions(built_book / f"{name}.html")]
    assert len(with_solutions) >= 6, "the full edition lost its solutions"
    for name in pages:
        student = (STUDENT_BUILD / f"{name}.html").read_text(encoding="utf8")
        full = (built_book / f"{name}.html").read_text(encoding="utf8")
        assert _solutions(STUDENT_BUILD / f"{name}.html") == 0, name
        exercises = len(re.findall(r'class="exercise[ "]', full))
        assert len(re.findall(r'class="exercise[ "]', student)) == exercises, name


def test_the_full_edition_keeps_solutions_collapsed(built_book):
    for name in book_pages():
        html = (built_book / f"{name}.html").read_text(encoding="utf8")
        for tag in re.findall(r'<div class="solution[^"]*"', html):
            assert "dropdown" in tag, f"{name}: {tag}"


def test_the_library_reference_documents_every_public_name(built_book):
    """Every name of ``prunekit.__all__`` and every public function of the book layer has an
    entry, with its parameters, in the Library reference."""
    import importlib
    import inspect
    import pkgutil

    import prunekit

    html = "".join(path.read_text(encoding="utf8")
                   for path in (built_book / "book" / "reference").glob("*.html"))
    ids = set(re.findall(r'<dt class="sig sig-object py" id="([^"]+)"', html))
    wanted = {f"{getattr(prunekit, name).__module__}.{name}" for name in prunekit.__all__
              if not inspect.ismodule(getattr(prunekit, name))}
    for info in pkgutil.walk_packages(prunekit.__path__, "prunekit."):
        if info.name.startswith("pdtbook") and "._" not in info.name:
            module = importlib.import_module(info.name)
            wanted |= {f"{info.name}.{name}" for name, value in vars(module).items()
                       if not name.startswith("_") and inspect.isfunction(value)
                       and value.__module__ == info.name}
    missing = sorted(wanted - ids)
    assert not missing, f"not in the Library reference: {missing[:10]}"
    assert "Parameters" in html
