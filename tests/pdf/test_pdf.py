"""The PDF edition (`make pdf`) against the HTML book it is built from.

`make test` builds both HTML editions and the PDF before this test. The PDF is compared with
the student edition's HTML (the PDF leaves out the solutions as it does): every chapter and
every numbered result, exercise and figure of the pages the PDF holds is there under the same
number, no reference is left unresolved ("??"), every explorer shows a figure instead of a
Python repr, every font is embedded, no text runs off the paper, and the HTML's download
menu links to the PDF. Reads the PDF with poppler's pdftotext and pdffonts (`make texlive`).
"""

import html
import re
import shutil
import subprocess
import sys
import unicodedata
from functools import lru_cache
from pathlib import Path
from urllib.parse import urljoin, urlparse

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
PDF_NAME = "pruning-decision-trees.pdf"
PDF = ROOT / "_build" / "pdf" / PDF_NAME
PDF_TOC = ROOT / "_build" / "pdf" / "_toc.yml"
HTML_EDITIONS = {"full": ROOT / "_build" / "html",
                 "student": ROOT / "_build" / "student" / "_build" / "html"}
PAGES = (200, 600)             # a sane length: about 330 pages with nine chapters
EDGE = 18                      # no text closer to the paper's edge than this (pt, 1/4 in)
RESULT_KINDS = ("Theorem", "Lemma", "Corollary", "Proposition", "Definition", "Algorithm",
                "Remark", "Example", "Exercise", "Fig.", "Table")

pytestmark = pytest.mark.pdf

sys.path.insert(0, str(ROOT / "book" / "latex"))
from pdf_toc import LEFT_OUT  # noqa: E402


def _needs(path: Path, how: str) -> Path:
    if not path.exists():
        pytest.fail(f"{path.relative_to(ROOT)} is missing: run `{how}` first", pytrace=False)
    return path


def _poppler(tool: str, *args: str) -> str:
    if shutil.which(tool) is None:
        pytest.fail(f"{tool} is missing: run `make texlive` (poppler-utils)", pytrace=False)
    return subprocess.run([tool, *args], check=True, capture_output=True, text=True).stdout


def normalise(text: str) -> str:
    """Text as a reader sees it: ligatures and math letters as plain letters (NFKC), every
    run of white space one space."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip()


@lru_cache(maxsize=None)
def pdf_text() -> str:
    return _poppler("pdftotext", str(_needs(PDF, "make pdf")), "-")


def pdf_pages() -> list[str]:
    """The PDF edition's pages, as in its table of contents (_build/pdf/_toc.yml)."""
    toc = yaml.safe_load(_needs(PDF_TOC, "make pdf").read_text(encoding="utf-8"))
    return [toc["root"]] + [chapter["file"] for part in toc["parts"]
                            for chapter in part["chapters"]]


def html_page(page: str, edition: str = "student") -> str:
    path = _needs(HTML_EDITIONS[edition] / f"{page}.html", "make test (both editions)")
    return path.read_text(encoding="utf-8")


def _plain(fragment: str) -> str:
    return normalise(html.unescape(re.sub(r"<[^>]+>", "", fragment)))


@lru_cache(maxsize=None)
def html_chapters() -> dict:
    """Every page's number ("4", "A" or "") and title, as the HTML's sidebar lists them."""
    root = pdf_pages()[0]
    chapters = {}
    for href, text in re.findall(r'<a class="reference internal" href="([^"#]+)">(.*?)</a>',
                                 html_page(root), re.S):
        page = urlparse(urljoin(f"/{root}.html", href)).path.lstrip("/").removesuffix(".html")
        match = re.match(r"(?:([0-9]+|[A-Z])\. )?(.*)", _plain(text))
        chapters.setdefault(page, (match.group(1) or "", match.group(2)))
    return chapters


def html_numbers(page: str) -> list[str]:
    """Every numbered result, exercise and figure of a page: "Theorem 4.1", "Fig. 1.2"."""
    found = []
    titles = re.findall(r'<p class="admonition-title"[^>]*>(.*?)</p>', html_page(page), re.S)
    captions = re.findall(r'<span class="caption-number">(.*?)</span>', html_page(page), re.S)
    for fragment in titles + captions:
        match = re.match(r"(\S+) ([0-9A-Z]+(?:\.[0-9]+)+)", _plain(fragment))
        if match and match.group(1) in RESULT_KINDS:
            found.append(f"{match.group(1)} {match.group(2)}")
    return found


def test_the_pdf_holds_every_part_but_the_library_reference():
    pages = pdf_pages()
    assert "chapters/01-decision-trees" in pages and "book/bibliography" in pages
    assert all(not page.startswith("book/reference/") for page in pages), LEFT_OUT
    assert any(page.startswith("exercises/") for page in pages)


def test_every_chapter_title_is_in_the_pdf_with_its_number():
    text = normalise(pdf_text())
    missing = []
    chapters = html_chapters()
    assert sum(1 for number, _ in chapters.values() if number.isdigit()) >= 9
    for page in pdf_pages()[1:]:
        number, title = chapters[page]
        expected = f"{number} {title}" if number else title
        if expected not in text:
            missing.append(expected)
    assert not missing, f"chapter titles (with the HTML's number) not in the PDF: {missing}"


def test_every_numbered_result_of_the_html_is_in_the_pdf():
    text = normalise(pdf_text()).replace("Figure ", "Fig. ")
    expected = [number for page in pdf_pages() for number in html_numbers(page)]
    assert len(expected) > 50, "the HTML pages list too few numbered results to compare"
    missing = [number for number in expected if number not in text]
    assert not missing, f"numbered in the HTML but not in the PDF: {missing}"


def test_results_are_numbered_by_chapter_as_in_the_html():
    """A result numbered by section ("Theorem 4.6.1") is not what the HTML says."""
    html_text = " ".join(" ".join(html_numbers(page)) for page in pdf_pages())
    kinds = "|".join(re.escape(kind) for kind in RESULT_KINDS)
    deep = set(re.findall(rf"\b(?:{kinds}) [0-9A-Z]+\.[0-9]+\.[0-9]+\b", normalise(pdf_text())))
    assert not {number for number in deep if number not in html_text}


def test_no_unresolved_reference():
    text = pdf_text()
    where = [normalise(text[max(0, i - 60):i + 20]) for i in
             (m.start() for m in re.finditer(r"\?\?", text))]
    assert not where, f"unresolved references in the PDF: {where[:10]}"


def test_page_count_is_sane():
    info = _poppler("pdfinfo", str(_needs(PDF, "make pdf")))
    pages = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))
    assert PAGES[0] <= pages <= PAGES[1], f"{pages} pages"


def test_every_font_is_embedded():
    rows = _poppler("pdffonts", str(_needs(PDF, "make pdf"))).splitlines()[2:]
    assert rows, "pdffonts lists no font"
    not_embedded = [row for row in rows if row.split()[-5] != "yes"]
    assert not not_embedded, f"fonts not embedded: {not_embedded}"


def test_explorers_show_a_figure_not_a_repr():
    """Each explorer of the HTML shows in the PDF its first frame, with the sliders' values."""
    explorers = sum(html_page(page).count("application/vnd.jupyter.widget-view+json")
                    for page in pdf_pages())
    text = normalise(pdf_text())
    assert explorers >= 7
    assert text.count("Explorer shown at ") == explorers
    assert "VBox(" not in text and "SelectionSlider(" not in text


def test_no_text_runs_off_the_paper():
    """Long code lines and wide tables stay on the page: every word at least EDGE from
    the paper's edge."""
    boxes = _poppler("pdftotext", "-bbox", str(_needs(PDF, "make pdf")), "-")
    off = []
    for number, page in enumerate(boxes.split("<page ")[1:], start=1):
        width = float(re.match(r'width="([\d.]+)"', page).group(1))
        for x_min, x_max, word in re.findall(
                r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">(.*?)'
                r"</word>", page):
            if float(x_min) < EDGE or float(x_max) > width - EDGE:
                off.append((number, html.unescape(word)))
    assert not off, f"text too close to or off the paper's edge (page, word): {off[:20]}"


@pytest.mark.parametrize("edition", sorted(HTML_EDITIONS))
@pytest.mark.parametrize("page", ["book/intro", "chapters/04-kearns-mansour"])
def test_the_html_links_to_the_pdf(edition, page):
    """The download menu of the HTML pages leads to the PDF, which `make pdf` puts there."""
    links = [href for href in re.findall(r'href="([^"]+)"', html_page(page, edition))
             if href.endswith(PDF_NAME)]
    assert links, f"{page}.html has no link to {PDF_NAME}"
    base = HTML_EDITIONS[edition]
    for href in links:
        target = urlparse(urljoin(f"file://{base}/{page}.html", href)).path
        assert Path(target).is_file(), f"{href} from {page}.html leads nowhere"
        assert Path(target).read_bytes() == PDF.read_bytes()
