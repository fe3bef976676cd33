"""The built book as a reader sees it: pages that fit their column, numbered cross-references,
an index, search snippets without TeX, and a student edition without solutions.

Every page of _toc.yml is opened at 1280 px (a laptop) and at 390 px (a phone); a full-page
screenshot of each is kept in _build/screenshots/<width>/ (look at them after a change). The
measures come from tests/browser/layout.py, which can also be run by hand on one page.

Needs the built book, both editions (`make test` builds them), and Chromium.
"""

from __future__ import annotations

import re

import pytest
from conftest import ROOT, book_pages
from layout import WAIT_MS, measure, titles_of, wait_until_typeset
from test_book_pages import _load

pytestmark = pytest.mark.browser

SCREENSHOTS = ROOT / "_build" / "screenshots"
STUDENT_BUILD = ROOT / "_build" / "student" / "_build" / "html"
# What must be empty on every page at each width. On a phone, code lines (79 characters),
# wide tables and 7-inch figures may scroll or shrink inside their boxes; the page itself and
# display equations may not overflow.
MUST_BE_EMPTY = {
    1280: ["page", "math", "broken", "code", "tables", "shrunk", "bare_refs", "unlinked",
           "paper_numbers"],
    390: ["page", "math"],
}


# The Library reference shows the docstrings, which cite the paper a function implements
# ("Kääriäinen, Malinen & Elomaa 2004, Definition 4") and then use its numbers; the book's own
# numbers ("Theorem 4.1") never appear there, so a paper's number cannot be mistaken for one.
REFERENCE = "book/reference/"


@pytest.fixture(scope="module")
def titles(built_book):
    return titles_of(built_book)


@pytest.mark.parametrize("width", sorted(MUST_BE_EMPTY, reverse=True))
def test_page_fits_its_column(browser, book_url, titles, page_name, width):
    page, seen = _load(browser, book_url, page_name, width=width)
    try:
        wait_until_typeset(page)
        found = measure(page, page_name, titles)
        shot = SCREENSHOTS / str(width) / f"{page_name.replace('/', '__')}.png"
        shot.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shot), full_page=True)
    finally:
        page.context.close()
    problems = [f"{key}: {found[key][:6]}" for key in MUST_BE_EMPTY[width] if found[key]
                and not (key == "paper_numbers" and page_name.startswith(REFERENCE))]
    if seen["errors"]:
        problems.append(f"JavaScript errors: {seen['errors']}")
    assert not problems, f"{page_name}.html at {width} px:\n  " + "\n  ".join(problems)


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
        if info.name.startswith("prunekit.book") and "._" not in info.name:
            module = importlib.import_module(info.name)
            wanted |= {f"{info.name}.{name}" for name, value in vars(module).items()
                       if not name.startswith("_") and inspect.isfunction(value)
                       and value.__module__ == info.name}
    missing = sorted(wanted - ids)
    assert not missing, f"not in the Library reference: {missing[:10]}"
    assert "Parameters" in html
