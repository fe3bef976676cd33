"""The PDF edition (`make pdf`) against the HTML book it is built from.

`make test` builds both HTML editions and the PDF before this test. The PDF is compared with
the student edition's HTML (the PDF leaves out the solutions as it does): every chapter and
every numbered result, exercise and figure of the pages the PDF holds is there under the same
number, no reference is left unresolved ("??"), every explorer shows a figure instead of a
Python repr, on the page of its note, every font is embedded, no word lies outside the text
block or over another word, each proof opens with "Proof." and ends with its square, the
index lists each term once in the text face, the title page gives the book's title, authors
and date, and the HTML's download menu links to the PDF. Reads the PDF with poppler's
pdftotext, pdffonts and pdfimages (`make texlive`).
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
LATEX_DIR = ROOT / "_build" / "pdf" / "_build" / "latex"
LATEX_LOG = LATEX_DIR / PDF_NAME.replace(".pdf", ".log")
LATEX_TEX = LATEX_DIR / PDF_NAME.replace(".pdf", ".tex")
HTML_EDITIONS = {"full": ROOT / "_build" / "html",
                 "student": ROOT / "_build" / "student" / "_build" / "html"}
PAGES = (200, 600)             # a sane length: about 330 pages with nine chapters
EDGE = 18                      # no text closer to the paper's edge than this (pt, 1/4 in)
TOLERANCE = 1.0                # a word may pass the text block's side by this much (pt)
DESCENT = 4.0                  # below the footer's baseline, the depth of its letters (pt)
PROOF_END = "\u25a1"          # the square that ends a proof (book/latex/pdfedition.sty)
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


@lru_cache(maxsize=None)
def pdf_words() -> list[list[tuple[float, float, float, float, str]]]:
    """Every page's words, each as (x_min, y_min, x_max, y_max, text), in pt from the top
    left corner of the page."""
    boxes = _poppler("pdftotext", "-bbox", str(_needs(PDF, "make pdf")), "-")
    return [[(float(x0), float(y0), float(x1), float(y1), html.unescape(word))
             for x0, y0, x1, y1, word in re.findall(
                 r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">'
                 r"(.*?)</word>", page)]
            for page in boxes.split("<page ")[1:]]


@lru_cache(maxsize=None)
def text_block() -> dict:
    """The text block as LaTeX set it (book/latex/pdfedition.sty writes it to the log), in
    PDF points: odd, even (left edges), width, top, height, head and foot (the bands of the
    running head above it and of the footer below it)."""
    log = _needs(LATEX_LOG, "make pdf").read_text(encoding="utf-8", errors="replace")
    found = re.search(r"pdfedition text block \(pt\):(.*?)\.\s", log.replace("\n", ""))
    assert found, f"{LATEX_LOG.name} does not give the text block (book/latex/pdfedition.sty)"
    return {name: float(value) * 72 / 72.27
            for name, value in re.findall(r"(\w+)=([\d.]+)pt", found.group(1))}


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
    explorers = sum(html_page(page).count('<figure class="explorer"') for page in pdf_pages())
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


def test_no_word_outside_the_text_block():
    """No word runs into the margin (a formula, a line of code or an address too long for
    its line, a table too wide): every word of every page lies within the text block, across,
    and between the running head and the footer, down."""
    block = text_block()
    left = min(block["odd"], block["even"]) - TOLERANCE
    right = max(block["odd"], block["even"]) + block["width"] + TOLERANCE
    top = block["top"] - block["head"] - TOLERANCE
    bottom = block["top"] + block["height"] + block["foot"] + DESCENT
    outside = [(number, word, round(x0, 1), round(x1, 1))
               for number, words in enumerate(pdf_words(), start=1)
               for x0, y0, x1, y1, word in words
               if x0 < left or x1 > right or y0 < top or y1 > bottom]
    assert not outside, f"words outside the text block (page, word, x from, x to): {outside[:20]}"


def _printed_over(words: list) -> list:
    """The pairs of words of a page that are printed over each other: on the same line and
    overlapping by more than 2 pt across (a formula or code running into the next cell of a
    table, a caption into the footer). Math signs whose boxes poppler draws too wide (the
    radical, combining accents) are not compared."""
    words = sorted(w for w in words if len(w[4]) > 1 and any(c.isalnum() for c in w[4])
                   and not re.search("[\u221a\u0300-\u036f]", w[4]))
    found = []
    for i, (x0, y0, x1, y1, word) in enumerate(words):
        for a0, b0, a1, b1, other in words[i + 1:]:
            if a0 >= x1 - 2:
                break
            shared = min(y1, b1) - max(y0, b0)
            if min(x1, a1) - a0 > 2 and shared > 0.6 * min(y1 - y0, b1 - b0):
                found.append((word, other))
    return found


def test_no_word_is_printed_over_another():
    over = [(number, pair) for number, words in enumerate(pdf_words(), start=1)
            for pair in _printed_over(words)]
    assert not over, f"words printed over each other (page, words): {over[:20]}"


def _proofs_in_html() -> int:
    return sum(html_page(page).count('<div class="proof admonition"') for page in pdf_pages())


def test_each_proof_opens_with_its_heading_and_ends_with_its_square():
    """As in the HTML, a proof starts with "Proof." (once, as its heading) and, as in print,
    ends with a square: in the PDF's text the headings and the squares alternate."""
    proofs = _proofs_in_html()
    assert proofs >= 20, "the HTML pages hold too few proofs to compare"
    marks = re.findall(rf"(?m)^Proof\.|{PROOF_END}", pdf_text())
    headings = marks.count("Proof.")
    assert headings == proofs, f"{headings} proof headings in the PDF, {proofs} proofs in the HTML"
    assert marks == ["Proof.", PROOF_END] * proofs, "a proof without its square, or a stray one"


def test_no_proof_is_a_note_with_an_empty_title():
    """sphinx-proof's LaTeX sets a proof as a note without a title (an empty title bar):
    every admonition in the LaTeX has a title."""
    tex = _needs(LATEX_TEX, "make pdf").read_text(encoding="utf-8")
    untitled = re.findall(r"\\begin\{sphinxadmonition\}\{\w+\}(?!\{)\s*(.{0,60})", tex)
    assert not untitled, f"admonitions without a title: {untitled[:5]}"


def _index_pages() -> range:
    """The index's pages, numbered from 0: from the one that opens with its title to the end."""
    pages = pdf_text().split("\f")[:len(pdf_words())]
    first = next(number for number, page in enumerate(pages)
                 if page.lstrip().upper().startswith("INDEX"))
    return range(first, len(pages))


def index_entries() -> list[tuple[str, str]]:
    """The index's entries as (term, subterm): subterm is "" for a term; a subterm's line is
    indented under its term (read from the words' positions, column by column)."""
    block = text_block()
    middle = min(block["odd"], block["even"]) + block["width"] / 2
    entries, term = [], ""
    for number in _index_pages():
        words = [w for w in pdf_words()[number]
                 if block["top"] <= w[1] <= block["top"] + block["height"]]
        for column in (lambda w: w[0] < middle, lambda w: w[0] >= middle):
            lines = {}
            for word in filter(column, words):
                lines.setdefault(round(word[1]), []).append(word)
            if not lines:
                continue
            edge = min(word[0] for line in lines.values() for word in line)
            for y in sorted(lines):
                line = sorted(lines[y])
                text = normalise(" ".join(word[4] for word in line))
                name = re.split(r",\s*(?:\d|see\b)", text)[0].strip()
                if re.fullmatch(r"[\d,\s\u2013-]*|.|Symbols|INDEX", name):
                    continue                    # a letter's heading, a wrapped line of pages
                if line[0][0] < edge + 3:
                    term = name.casefold()
                    entries.append((term, ""))
                else:
                    entries.append((term, name.casefold()))
    return entries


def test_the_index_lists_each_term_once_in_the_text_face():
    entries = index_entries()
    assert len(entries) > 100, "the index is missing or too short"
    assert ("0-se rule", "") in entries and ("cost-complexity pruning", "") in entries
    repeated = sorted({entry for entry in entries if entries.count(entry) > 1})
    assert not repeated, f"index entries listed more than once (term, subterm): {repeated}"
    pages = _index_pages()
    fonts = _poppler("pdffonts", "-f", str(pages[0] + 1), "-l", str(pages[-1] + 1),
                     str(_needs(PDF, "make pdf")))
    assert "Mono" not in fonts, f"the index uses a typewriter face: {fonts}"


def test_the_title_page_gives_title_authors_and_date_as_the_html():
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    intro = (ROOT / "book" / "intro.md").read_text(encoding="utf-8")
    subtitle = re.search(r"^# .*\n+\*([^*]+)\*$", intro, re.M).group(1)
    first = normalise(pdf_text().split("\f")[0])
    for words in (config["title"], subtitle, config["author"], config["copyright"]):
        assert normalise(words) in first, f"the title page does not say {words!r}: {first!r}"
    footer = html_page(pdf_pages()[0])
    assert config["author"] in footer and config["copyright"] in footer


def test_each_explorer_frame_is_on_the_page_of_its_note():
    """An explorer's note ("Explorer shown at ...") is never left without its frame: the page
    of the note holds an image, and the page before it is filled at least to half."""
    pages = pdf_text().split("\f")
    listed = _poppler("pdfimages", "-list", str(_needs(PDF, "make pdf"))).splitlines()[2:]
    with_images = {int(row.split()[0]) for row in listed}
    block = text_block()
    half = block["top"] + block["height"] / 2
    notes = [number for number, page in enumerate(pages, start=1) if "Explorer shown at" in page]
    assert len(notes) >= 7
    alone = [number for number in notes if number not in with_images]
    assert not alone, f"explorer notes on pages without their frame: {alone}"
    short = [number - 1 for number in notes
             if "Explorer shown at" not in pages[number - 2]
             and max((w[3] for w in pdf_words()[number - 2]
                      if w[3] < block["top"] + block["height"]), default=0) < half]
    assert not short, f"pages left half blank before an explorer's frame: {short}"


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
