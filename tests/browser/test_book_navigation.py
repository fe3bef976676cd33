"""The built book's navigation, read from the HTML files (no browser needed):

* the sidebar of every page lists the index and the list of results;
* every page has a favicon that exists, and a default colour mode (an empty one makes pydata's
  theme log "Got invalid theme mode" as a console error; test_book_pages.py fails on that);
* the footer names the authors once;
* the bibliography's labels are plain alpha labels, and every entry links back to each place
  that cites it;
* the exercise pages link each exercise to a section of its chapter, the chapters link each
  exercise on the exercise page, and both anchors exist;
* every chapter links glossary terms;
* Previous and Next follow the reading order the chapters state ("Next: Exercises for Chapter
  2, then Chapter 3"): chapter n, its exercise page when it has one, chapter n + 1;
* the landing page links every chapter and every exercise page (on a phone, where the sidebar
  is behind the menu button, it is the way in).

Needs the built book (`make book`).
"""

from __future__ import annotations

import html as htmllib
import re
from pathlib import Path

import pytest
from conftest import book_pages

pytestmark = pytest.mark.browser

PAGES = book_pages()
CHAPTERS = [name for name in PAGES if name.startswith("chapters/")]
EXERCISES = [name for name in PAGES if name.startswith("exercises/")]
_ANCHOR_CACHE: dict[Path, set[str]] = {}


def _read(built_book: Path, name: str) -> str:
    return (built_book / f"{name}.html").read_text(encoding="utf8")


def _ids(path: Path) -> set[str]:
    if path not in _ANCHOR_CACHE:
        _ANCHOR_CACHE[path] = set(re.findall(r'\sid="([^"]+)"',
                                             path.read_text(encoding="utf8")))
    return _ANCHOR_CACHE[path]


def _target_exists(page_file: Path, href: str) -> bool:
    """Whether a relative link from ``page_file`` leads to an existing file and anchor."""
    path, _, anchor = htmllib.unescape(href).partition("#")
    target = (page_file.parent / path).resolve() if path else page_file
    return target.is_file() and (not anchor or anchor in _ids(target))


def _sidebar(source: str) -> str:
    match = re.search(r'<nav class="[^"]*bd-docs-nav[^"]*".*?</nav>', source, flags=re.S)
    assert match, "no sidebar navigation"
    return match.group(0)


@pytest.mark.parametrize("name", ["book/intro", "chapters/02-cost-complexity",
                                  "exercises/02-cost-complexity", "book/glossary"])
def test_the_sidebar_lists_the_index_and_the_list_of_results(built_book, name):
    sidebar = _sidebar(_read(built_book, name))
    links = dict((text.strip(), href) for href, text in
                 re.findall(r'<a class="reference internal" href="([^"]+)">([^<]+)</a>',
                            sidebar))
    assert "Index" in links and "List of results" in links, sorted(links)
    page_file = built_book / f"{name}.html"
    assert Path(links["Index"].split("#")[0]).name == "genindex.html"
    assert Path(links["List of results"].split("#")[0]).name == "prf-prf.html"
    assert _target_exists(page_file, links["Index"])
    assert _target_exists(page_file, links["List of results"])


def test_every_page_has_a_favicon_and_a_default_mode(built_book):
    for name in PAGES + ["genindex", "prf-prf", "search"]:
        source = _read(built_book, name)
        icons = re.findall(r'<link rel="(?:shortcut )?icon" href="([^"]+)"', source)
        assert icons, f"{name}: no favicon"
        assert all(_target_exists(built_book / f"{name}.html", href) for href in icons), name
        assert re.search(r'<body data-default-mode="(light|dark|auto)"', source), (
            f"{name}: no default colour mode")


def _footer(source: str) -> str:
    match = re.search(r'<footer class="bd-footer-content.*?</footer>', source, flags=re.S)
    assert match, "no footer"
    return re.sub(r"<[^>]+>", " ", match.group(0))


@pytest.mark.parametrize("name", ["book/intro", "chapters/01-decision-trees"])
def test_the_footer_names_the_authors_once(built_book, name):
    text = re.sub(r"\s+", " ", _footer(_read(built_book, name)))
    assert len(re.findall(r"\bby the pruning decision trees authors\b", text, flags=re.I)) == 1
    assert "MIT licence" in text


def _bibliography_entries(built_book: Path) -> list[tuple[str, str]]:
    """(label, the rest of the entry's HTML) for every entry of the bibliography."""
    source = _read(built_book, "book/bibliography")
    entries = re.findall(r'<div class="citation" id="[^"]+" role="listitem">\s*'
                         r'<span class="label"><span class="fn-bracket">\[</span>([^<]+)'
                         r'<span class="fn-bracket">\]</span></span>(.*?)</div>',
                         source, flags=re.S)
    assert len(entries) >= 40
    return entries


def test_the_bibliography_labels_are_plain(built_book):
    labels = {label for label, _ in _bibliography_entries(built_book)}
    garbled = sorted(label for label in labels
                     if not re.fullmatch(r"[A-Za-z]{1,4}\+?(\d\d)?[a-z]?", label))
    assert not garbled, garbled
    assert {"Dem06", "DGL96", "KME04", "BFOS84"} <= labels


def test_every_reference_links_back_to_where_it_is_cited(built_book):
    page_file = built_book / "book" / "bibliography.html"
    for label, entry in _bibliography_entries(built_book):
        cited = re.search(r'<p class="cited-in">(.*?)</p>', entry, flags=re.S)
        assert cited, f"[{label}] has no 'Cited in' line"
        hrefs = re.findall(r'href="([^"]+)"', cited.group(1))
        assert hrefs, f"[{label}]: 'Cited in' links nothing"
        broken = [href for href in hrefs if not _target_exists(page_file, href)]
        assert not broken, f"[{label}]: links to missing places {broken}"
    # a book cited in many chapters links each of them
    (breiman,) = [entry for label, entry in _bibliography_entries(built_book)
                  if label == "BFOS84"]
    assert {"Chapter 1", "Chapter 2"} <= set(re.findall(r">(Chapter \d+)<", breiman))


def _links(source: str) -> list[tuple[str, str]]:
    """(href, text) of every internal link of the page's article."""
    start = source.find('<article class="bd-article"')
    article = source[max(start, 0):]
    return [(href, re.sub(r"<[^>]+>", "", text).strip()) for href, text in re.findall(
        r'<a class="reference internal" href="([^"]+)"[^>]*>(.*?)</a>', article, flags=re.S)]


@pytest.mark.parametrize("name", EXERCISES)
def test_each_exercise_links_a_section_of_its_chapter(built_book, name):
    number = int(Path(name).name[:2])
    source = _read(built_book, name)
    page_file = built_book / f"{name}.html"
    exercises = re.findall(rf'<span id="(ex-{number}-\d+)"></span><h2>', source)
    assert exercises, "no exercise has its ex-N-k anchor"
    for anchor in exercises:
        body = source[source.index(f'<span id="{anchor}">'):]
        body = body[:min(body.index("</section>"), body.find("<section") % len(body))]
        sections = [(href, text) for href, text in _links(body)
                    if f"chapters/{Path(name).name}.html#" in href]
        assert sections, f"{anchor} links no section of Chapter {number}"
        for href, text in sections:
            assert re.fullmatch(rf"Section {number}\.\d+", text), text
            assert _target_exists(page_file, href), href
    back = [text for href, text in _links(source)
            if href.split("#")[0].endswith(f"chapters/{Path(name).name}.html")]
    assert f"Chapter {number}" in back


@pytest.mark.parametrize("name", [f"chapters/{Path(page).name}" for page in EXERCISES])
def test_the_chapter_links_each_exercise_on_the_exercise_page(built_book, name):
    number = int(Path(name).name[:2])
    source = _read(built_book, name)
    page_file = built_book / f"{name}.html"
    to_page = [(href, text) for href, text in _links(source)
               if f"exercises/{Path(name).name}.html" in href]
    anchors = [href.partition("#")[2] for href, _ in to_page]
    assert anchors.count("") >= 3, "the exercise page is not linked at the top, in the " \
                                   "exercise section and at the end"
    exercises = sorted({a for a in anchors if a.startswith(f"ex-{number}-")})
    assert len(exercises) >= 4
    assert all(_target_exists(page_file, href) for href, _ in to_page)


@pytest.mark.parametrize("name", CHAPTERS)
def test_the_chapter_links_glossary_terms(built_book, name):
    terms = [href for href, _ in _links(_read(built_book, name))
             if "glossary.html#term-" in href]
    assert len(terms) >= 5
    assert len(terms) == len(set(terms)), "a term is linked more than once"


def _reading_order() -> list[str]:
    """The pages in the order the book reads: the table of contents, with each exercise page
    right after its chapter."""
    order = [name for name in PAGES if not name.startswith("exercises/")]
    for name in EXERCISES:
        order.insert(order.index(f"chapters/{Path(name).name}") + 1, name)
    return order


def _previous_next(source: str) -> tuple[str | None, str | None]:
    """The pages the Previous and Next buttons lead to (hrefs as written)."""
    start = source.find('<div class="prev-next-area">')
    assert start >= 0, "no Previous/Next buttons"
    area = source[start:start + 3000]
    links = dict(re.findall(r'<a class="(left-prev|right-next)"\s+href="([^"]+)"', area))
    return links.get("left-prev"), links.get("right-next")


def _page_of(built_book: Path, name: str, href: str | None) -> str | None:
    if href is None:
        return None
    target = (built_book / name).parent / href.split("#")[0]
    return target.resolve().relative_to(built_book.resolve()).with_suffix("").as_posix()


@pytest.mark.parametrize("name", CHAPTERS + EXERCISES)
def test_previous_and_next_follow_the_reading_order(built_book, name):
    order = _reading_order()
    index = order.index(name)
    source = _read(built_book, name)
    previous, following = _previous_next(source)
    assert _page_of(built_book, name, previous) == order[index - 1]
    assert _page_of(built_book, name, following) == order[index + 1]
    head = re.search(r'<link rel="next"[^>]*href="([^"]+)"', source)
    assert head and _page_of(built_book, name, head.group(1)) == order[index + 1]


def test_the_landing_page_links_every_chapter_and_exercise_page(built_book):
    page_file = built_book / "book" / "intro.html"
    linked = {_page_of(built_book, "book/intro", href)
              for href, _ in _links(_read(built_book, "book/intro"))
              if _target_exists(page_file, href)}
    missing = [name for name in CHAPTERS + EXERCISES if name not in linked]
    assert not missing, f"not linked from the landing page: {missing}"
