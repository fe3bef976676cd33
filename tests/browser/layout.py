"""Measure how a built page of the book fits its column, as a reader sees it.

Used by the browser test and, from the command line, to look at a page while writing it::

    python tests/browser/layout.py chapters/04-kearns-mansour            # 1280 px
    python tests/browser/layout.py --width 390 chapters/04-kearns-mansour
    python tests/browser/layout.py --build /tmp/mybuild/_build/html --all
    python tests/browser/layout.py --all --phone --repeat 3    # what a phone loads, how fast

For each page it reports

* ``page``: the page itself wider than the window (the reader would scroll the whole page),
* ``math``: display equations wider than the text column (they would need a horizontal scroll),
* ``broken``: display equations that MathJax had to break across lines to fit the column
  (expected on a phone; at 1280 px every display should fit as written),
* ``code``: code cells and text outputs wider than their box,
* ``tables``: tables wider than the column,
* ``shrunk``: images shown at less than 95 % of the size they were drawn at (the fonts shrink
  with them; figures should be drawn at the size they are shown; a 2x PNG declares the size
  it was drawn at with its width attribute),
* ``bare_refs``: links in the text whose words are the bare title of a page or section
  (a cross-reference should read "Chapter 6" or "Section 4.6", linked; links to glossary
  terms are not cross-references),
* ``unlinked``: mentions of "Chapter N" / "Section N.M" / "Appendix" of another chapter that
  are not links,
* ``paper_numbers``: "Theorem 5"-style numbers that are not the book's (the book numbers its
  results "Theorem 4.1"; a paper's own number appears only as "Kearns and Mansour's Theorem 5"
  or "(their Theorem 5)"),
* ``errors``: JavaScript errors;

and in a window up to 600 px wide (a phone), ``cut``, ``inline_math``, ``orphans`` and
``figure_text`` (see :func:`measure_phone`).
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import os
import re
import statistics
import sys
import threading
import time
from html import unescape
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]

# The width an image was drawn at: the size a 2x PNG declares (Sphinx writes it as a style
# width or a width attribute), else its width in pixels.
_DRAWN_WIDTH_JS = (
    "img => parseFloat(/px$/.test(img.style.width) ? img.style.width"
    " : img.getAttribute('width')) || img.naturalWidth")

# Display math: MathJax draws each display as an mjx-container[display="true"]. It fits when
# it is no wider than the column (the article body) and does not scroll inside itself.
_MEASURE_JS = r"""
() => {
  const article = document.querySelector('article.bd-article') || document.querySelector('main');
  const column = article.getBoundingClientRect();
  const colRight = column.right - parseFloat(getComputedStyle(article).paddingRight) + 1;
  const short = s => s.replace(/\s+/g, ' ').trim().slice(0, 90);
  const wider = e => e.scrollWidth > e.clientWidth + 1
                     || e.getBoundingClientRect().right > colRight;
  const visible = e => e.offsetParent !== null && e.getClientRects().length > 0;
  const out = {page: [], math: [], broken: [], code: [], tables: [], shrunk: []};
  const drawnWidth = ${DRAWN};
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth + 1) {
    out.page.push('the page is ' + root.scrollWidth + 'px wide in a ' + root.clientWidth
                  + 'px window');
  }
  const texOf = new Map();
  for (const m of document.querySelectorAll('mjx-container > mjx-math[data-latex]')) {
    texOf.set(m.parentElement, m.getAttribute('data-latex'));
  }
  const tex = m => short(texOf.get(m) || '');
  for (const m of article.querySelectorAll('mjx-container[display="true"]')) {
    if (!visible(m)) continue;
    const box = m.closest('.math, .MathJax, div') || m;
    const inner = m.querySelector('mjx-math') || m;
    const w = inner.getBoundingClientRect();
    if (m.querySelector('mjx-linebox')) out.broken.push(tex(m));
    if (wider(m) || w.right > colRight || wider(box)) {
      out.math.push(Math.round(w.width) + 'px: ' + tex(m));
    }
  }
  for (const p of article.querySelectorAll('pre')) {
    if (!visible(p)) continue;
    if (p.scrollWidth > p.clientWidth + 1) {
      const longest = p.textContent.split('\n').reduce((a, b) => b.length > a.length ? b : a, '');
      out.code.push(longest.length + ' chars: ' + short(longest));
    }
  }
  for (const t of article.querySelectorAll('table')) {
    if (!visible(t) || t.closest('mjx-container')) continue;
    const box = t.parentElement;
    if (t.getBoundingClientRect().right > colRight || box.scrollWidth > box.clientWidth + 1) {
      out.tables.push(Math.round(t.getBoundingClientRect().width) + 'px: '
                      + short(t.textContent));
    }
  }
  for (const img of article.querySelectorAll('img')) {
    if (!visible(img) || !img.naturalWidth) continue;
    const shown = img.getBoundingClientRect().width;
    if (shown < 0.95 * drawnWidth(img)) {
      out.shrunk.push(drawnWidth(img) + 'px shown at ' + Math.round(shown) + 'px: '
                      + (img.getAttribute('src') || '').slice(-40));
    }
  }
  return out;
}
"""
_MEASURE_JS = _MEASURE_JS.replace("${DRAWN}", _DRAWN_WIDTH_JS)

# The phone measures (what a reader of a 390 px screen runs into):
# * cut: tables, code cells and text outputs wider than their box that scroll without a
#   visible cue (book/js/reading.js marks a box that scrolls with the class scroll-cue);
# * inline_math: in-line formulas wider than their line, or sticking out
#   of the column with the punctuation kept after them;
# * orphans: punctuation after an in-line formula that the browser put alone at the start of
#   the next line;
# * figure_text: the smallest text of each figure in px as the reader can see it, inline or
#   in the enlarged view (see figure_text_sizes): the figures are drawn with text of at least
#   9 pt at 96 dpi (pdtbook.figures._style), so at the size they were drawn at a
#   figure's smallest text is 12 px, and it shrinks with the figure.
_PHONE_JS = r"""
() => {
  const article = document.querySelector('article.bd-article') || document.querySelector('main');
  const column = article.getBoundingClientRect();
  const colRight = column.right - parseFloat(getComputedStyle(article).paddingRight) + 1;
  const short = s => Array.from(s.replace(/\s+/g, ' ').trim()).slice(0, 70).join('');
  const visible = e => e.offsetParent !== null && e.getClientRects().length > 0;
  const out = {cut: [], inline_math: [], orphans: []};
  const cued = e => !!e.closest('.scroll-cue');
  const scrolls = box => box.scrollWidth > box.clientWidth + 1;
  for (const p of article.querySelectorAll('pre')) {
    if (visible(p) && scrolls(p) && !cued(p)) {
      out.cut.push('code ' + p.scrollWidth + 'px in ' + p.clientWidth + 'px: '
                   + short(p.textContent));
    }
  }
  for (const t of article.querySelectorAll('table')) {
    if (!visible(t) || t.closest('mjx-container')) continue;
    const wide = t.getBoundingClientRect().right > colRight || scrolls(t.parentElement);
    if (wide && !cued(t)) {
      out.cut.push('table ' + Math.round(t.getBoundingClientRect().width) + 'px: '
                   + short(t.textContent));
    }
  }
  const texOf = new Map();
  for (const m of document.querySelectorAll('mjx-container > mjx-math[data-latex]')) {
    texOf.set(m.parentElement, m.getAttribute('data-latex'));
  }
  for (const m of article.querySelectorAll('mjx-container:not([display="true"])')) {
    if (!visible(m) || m.closest('table, pre, figure.explorer')) continue;
    // the formula without the punctuation kept in its container, which
    // may hang past the end of a full line (prerender_math.mjs), though
    // not out of the column
    const formula = m.querySelector(':scope > mjx-math') || m;
    const r = formula.getBoundingClientRect();
    const line = m.parentElement.getBoundingClientRect();
    const kept = m.querySelector(':scope > span.math-punct');
    const end = kept ? kept.getBoundingClientRect().right : r.right;
    if (end > colRight || r.right > line.right + 1
        || r.left < line.left - 1) {
      out.inline_math.push(Math.round(r.width) + 'px: ' + short(texOf.get(m) || ''));
      continue;
    }
    // the text right after the formula (MathJax puts it in span.math, or bare)
    const after = (m.parentElement.matches('span.math') ? m.parentElement : m).nextSibling;
    const punct = after && after.nodeType === 3 && /^\u2060?[.,;:!?)\]]/.exec(after.textContent);
    if (!punct) continue;
    const range = document.createRange();
    range.setStart(after, punct[0].length - 1);
    range.setEnd(after, punct[0].length);
    const p = range.getClientRects()[0];
    const rects = m.getClientRects();
    const last = rects[rects.length - 1];
    if (p && last && p.top > (last.top + last.bottom) / 2 && p.left < last.left) {
      out.orphans.push(short(texOf.get(m) || '') + ' | ' + short(after.textContent));
    }
  }
  return out;
}
"""

# The figures a reader may enlarge, and the size each is shown at. A figure's drawn width is
# its width attribute (a 2x PNG declares its drawn size) or else its width in pixels.
_FIGURES_JS = r"""
() => {
  const article = document.querySelector('article.bd-article') || document.querySelector('main');
  const visible = e => e.offsetParent !== null && e.getClientRects().length > 0;
  const drawnWidth = ${DRAWN};
  const found = [];
  article.querySelectorAll('img').forEach((img, index) => {
    if (!visible(img) || !img.naturalWidth) return;
    const drawn = drawnWidth(img);
    found.push({index, drawn, shown: img.getBoundingClientRect().width,
                zoom: img.matches('.zoomable'),
                name: (img.getAttribute('alt') || img.getAttribute('src') || '').slice(0, 60)});
  });
  return found;
}
"""
_FIGURES_JS = _FIGURES_JS.replace("${DRAWN}", _DRAWN_WIDTH_JS)

# Opens the enlarged view of the index-th image of the article (as a tap does) and returns the
# width the figure is shown at there, then closes it with the Escape key.
_ZOOM_JS = r"""
async (index) => {
  const article = document.querySelector('article.bd-article') || document.querySelector('main');
  const img = article.querySelectorAll('img')[index];
  img.click();
  const view = document.querySelector('.figure-zoom img');
  if (!view) return 0;
  if (!view.complete) await new Promise(done => { view.onload = done; view.onerror = done; });
  const width = view.getBoundingClientRect().width;
  document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true}));
  return document.querySelector('.figure-zoom') ? -width : width;
}
"""

#: Up to this window width the phone measures are taken too.
PHONE_WIDTH = 600
#: The smallest text of a book figure at the size it was drawn at, in px (9 pt at 96 dpi).
FIGURE_TEXT_PX = 9 * 96 / 72
#: The smallest figure text a reader may be shown, in px, inline or enlarged.
MIN_FIGURE_TEXT_PX = 9.0


def figure_text_sizes(page) -> list[str]:
    """The figures whose smallest text a reader sees under ``MIN_FIGURE_TEXT_PX``.

    The size that counts is the larger of the figure as shown in the page and as shown in its
    enlarged view (opened by clicking it, as a reader taps it); a view that does not close on
    Escape counts as missing.
    """
    small = []
    for figure in page.evaluate(_FIGURES_JS):
        scale = figure["shown"] / figure["drawn"]
        if figure["zoom"]:
            scale = max(scale, page.evaluate(_ZOOM_JS, figure["index"]) / figure["drawn"])
        if FIGURE_TEXT_PX * scale < MIN_FIGURE_TEXT_PX - 0.05:
            small.append(f"{FIGURE_TEXT_PX * scale:.1f}px: {figure['name']}")
    return small


#: The most a page of the book may weigh, in bytes transferred (compressed as a static server
#: compresses text: see :func:`transfer_size`), with everything it loads and every frame of
#: its explorers.
MAX_PAGE_BYTES = 3_000_000
#: The scripts of Jupyter's widget manager, which no page loads: the explorers are HTML
#: written when the book is built (book/_ext/static_explorers.py) and moved by a script of
#: their own (about 0.92 MB compressed spared on a page with an explorer).
WIDGET_MANAGER = ("embed-amd.js", "require.js", "jupyter-widgets-setup.js")
# The files a static server sends gzip-compressed (nginx's and most hosts' defaults); fonts,
# PNGs and JPEGs are compressed already and are sent as they are.
_COMPRESSED = (".html", ".js", ".css", ".json", ".svg", ".txt", ".map", ".xml")


def transfer_size(name: str, content: bytes) -> int:
    """Bytes a static server sends for a file: gzip (level 6) of text, the file otherwise."""
    path = urlsplit(name).path
    if path.endswith("/") or path.endswith(_COMPRESSED):
        return len(gzip.compress(content, compresslevel=6))
    return len(content)


def explorer_frames(html: str) -> list[str]:
    """The URIs of every frame of the page's explorers (their figures' ``data-frames``)."""
    found = []
    for frames in re.findall(r"<figure[^>]+data-frames='([^']+)'", html):
        found += [frame[0] for frame in json.loads(unescape(frames))]
    return found


def widget_manager_scripts(urls) -> list[str]:
    """The URLs (or paths) among ``urls`` that are scripts of the widget manager."""
    return [url for url in urls if urlsplit(url).path.endswith(WIDGET_MANAGER)]


def page_resources(build_dir: Path, page_name: str) -> list[Path]:
    """The page's HTML and the files of the book it names: scripts, stylesheets, images, and
    every frame of its explorers (fetched when the sliders reach them).

    (The fonts a stylesheet names are loaded only for the characters a page shows: they are
    counted in the browser, by ``layout.py --phone``.)
    """
    html_file = build_dir / f"{page_name}.html"
    html = html_file.read_text(encoding="utf8", errors="replace")
    names = re.findall(r'<script[^>]+src="([^"]+)"', html)
    names += re.findall(r'<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"', html)
    names += re.findall(r'<link[^>]+href="([^"]+)"[^>]+rel="stylesheet"', html)
    names += re.findall(r'<img[^>]+src="([^"]+)"', html)
    names += explorer_frames(html)
    files = [html_file]
    for name in dict.fromkeys(names):
        if "://" in name or name.startswith("data:"):
            continue
        path = (html_file.parent / urlsplit(name).path).resolve()
        if path.is_file() and path not in files:
            files.append(path)
    return files


def page_weight(build_dir: Path, page_name: str) -> int:
    """Bytes a reader with an empty cache downloads for a page once every frame of its
    explorers has been shown: its HTML, scripts, stylesheets, images and frames, each
    compressed as a static server sends it (:func:`transfer_size`)."""
    return sum(transfer_size(path.name, path.read_bytes())
               for path in page_resources(build_dir, page_name))


def measure_phone(page) -> dict:
    """The phone measures of an opened (and typeset) page: see _PHONE_JS."""
    result = page.evaluate(_PHONE_JS)
    result["figure_text"] = figure_text_sizes(page)
    return result

# The words of every link in the text, and every "Chapter N"-style mention outside a link.
_TEXT_JS = r"""
() => {
  const article = document.querySelector('article.bd-article') || document.querySelector('main');
  const skip = 'nav, .toctree-wrapper, .prev-next-area, .headerlink, h1, h2, h3, h4, h5, h6,'
               + ' .caption-number, script, style, pre, code, mjx-container, .citation,'
               + ' .footnote, .bibliography, .admonition-title';
  const links = [];
  for (const a of article.querySelectorAll('a.reference.internal')) {
    // a glossary term ("reduced-error pruning") may share its words with a title
    if (a.closest(skip) || a.querySelector('.std-term')) continue;
    links.push(a.textContent.replace(/\s+/g, ' ').trim());
  }
  const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT);
  const unlinked = [], texts = [];
  let node;
  while ((node = walker.nextNode())) {
    const parent = node.parentElement;
    if (!parent || parent.closest(skip)) continue;
    const text = node.textContent;
    texts.push(text);
    if (parent.closest('a')) continue;
    for (const m of text.matchAll(/\b(Chapters?|Sections?|Appendix)\s+([A-Z]|\d+)(\.\d+)*/g)) {
      unlinked.push(m[0]);
    }
  }
  return {links, unlinked, text: texts.join('')};
}
"""

# A book number has a dot ("Theorem 4.1", "Lemma A.3"); a bare integer is a paper's number and
# must say whose it is.
_PAPER_NUMBER = re.compile(
    r"\b(?:Theorem|Lemma|Corollary|Proposition|Definition|Algorithm|Remark)s?"
    r"\s+\(?(\d+)\b(?![.,]\d)")
_ATTRIBUTION = re.compile(r"(['’]s|\btheir|\bhis|\bher|\bpaper|\bthe article|\bof\s+\{?"
                          r"[A-Z][a-zä]+)[^.;:]{0,40}$")


def paper_numbers(text: str) -> list[str]:
    """The "Theorem 5"-style numbers in ``text`` that do not say whose numbering they use."""
    found = []
    for match in _PAPER_NUMBER.finditer(text):
        before = text[max(0, match.start() - 60):match.start()]
        if not _ATTRIBUTION.search(before):
            found.append(text[max(0, match.start() - 30):match.end()].replace("\n", " "))
    return found


def own_chapter(page_name: str) -> str | None:
    """"4" for chapters/04-... and exercises/04-...; None for other pages."""
    match = re.match(r"(?:chapters|exercises)/0*(\d+)-", page_name)
    return match.group(1) if match else None


def titles_of(build_dir: Path) -> set[str]:
    """Every chapter, appendix and section title, lower-cased, without numbers.

    (Front-matter pages such as "Notation" or "References" have no number; a link may carry
    their name.)
    """
    titles = set()
    pages = list(build_dir.glob("chapters/*.html")) + list(build_dir.glob("book/appendix*.html"))
    for html in pages:
        source = html.read_text(encoding="utf8", errors="replace")
        for heading in re.findall(r"<h[1-3][^>]*>(.*?)</h[1-3]>", source, flags=re.S):
            text = re.sub(r"<[^>]+>", "", heading)
            text = re.sub(r"\s+", " ", text.replace("#", "")).strip()
            text = re.sub(r"^[\d.]+\s+", "", text)
            if len(text) > 3 and not re.search(r"\\[(\[]|\$", text):
                titles.add(text.lower())
    return titles


def classify_text(found: dict, page_name: str, titles: set[str]) -> dict:
    """Turn the raw link texts and mentions into the three cross-reference measures."""
    own = own_chapter(page_name)
    bare = []
    for text in found["links"]:
        plain = re.sub(r"^[\d.]+\s+", "", text).strip().lower()
        if plain in titles:
            bare.append(text)
    unlinked = []
    for mention in found["unlinked"]:
        number = re.search(r"\s([A-Z]|\d+)", mention).group(1)
        if own is not None and number == own and mention.startswith(("Chapter", "Section")):
            continue
        unlinked.append(mention)
    return {"bare_refs": bare, "unlinked": unlinked,
            "paper_numbers": paper_numbers(found["text"])}


def measure(page, page_name: str, titles: set[str]) -> dict:
    """All the measures of an opened (and typeset) page."""
    result = page.evaluate(_MEASURE_JS)
    result.update(classify_text(page.evaluate(_TEXT_JS), page_name, titles))
    return result


# How long a wait may last before it fails. A page renders in about a second on a quiet machine
# and the appendix's 560 formulas take MathJax about 10 s; a loaded machine takes several times
# that. A wait ends as soon as its condition holds, so a long limit costs nothing on a page that
# renders: it only keeps a busy machine from failing a page that is fine.
WAIT_MS = 180_000
# How often a wait checks its condition, in ms. (Playwright's default checks at every animation
# frame, which keeps the browser drawing frames for as long as the wait lasts.)
POLL_MS = 100


# Every image loaded (lazy ones made eager) and the web fonts ready; returns the images that
# did not load. An image that neither loads nor fails within 60 s counts as not loaded.
_LOAD_IMAGES_JS = """
async () => {
  const images = Array.from(document.images);
  images.forEach(img => { if (img.loading === 'lazy') img.loading = 'eager'; });
  await Promise.all(images.map(img => img.complete ? null : new Promise(done => {
    img.addEventListener('load', done);
    img.addEventListener('error', done);
    setTimeout(done, 60000);
  })));
  await document.fonts.ready;
  return images.filter(img => !(img.naturalWidth > 0)).map(img => img.getAttribute('src'));
}
"""


def wait_until_typeset(page, timeout_ms: int = WAIT_MS) -> list[str]:
    """Wait for the web fonts and every image (and for MathJax, on a book built before the
    formulas were typeset at build time: the before/after measures of ``--phone``).

    Returns the ``src`` of the images that did not load.
    """
    if page.evaluate("() => !!(window.MathJax && MathJax.version)"):
        page.wait_for_function(
            "() => !!(window.MathJax && MathJax.startup && MathJax.startup.promise)",
            timeout=timeout_ms, polling=POLL_MS)
        page.evaluate("() => MathJax.startup.promise.then(() => true)")
    return page.evaluate(_LOAD_IMAGES_JS)


# What a page loads of MathJax: its scripts, and the global it defines.
_MATHJAX_LOADED_JS = """
() => {
  const found = Array.from(document.scripts)
    .map(s => s.src || (s.textContent.includes('window.MathJax') ? 'an inline configuration' : ''))
    .filter(src => /mathjax|MathJax/.test(src));
  if (window.MathJax) found.push('window.MathJax is defined');
  return found;
}
"""


def browser_typesetting(page) -> list[str]:
    """What typesets math in the browser on an opened page: MathJax's scripts or its global.

    The book's formulas are typeset when it is built (book/_ext/prerender_math.py): a page
    that loads MathJax typesets them again, slowly, on the reader's phone.
    """
    return page.evaluate(_MATHJAX_LOADED_JS)


# Display equations are broken across lines by MathJax for the width they had when typeset:
# after a change of width, measure them again (from the metrics on, keeping the parsed TeX).
_RELAYOUT_MATH_JS = """
async () => {
  if (!(window.MathJax && MathJax.startup && MathJax.startup.document)) return;
  await MathJax.startup.promise;
  await MathJax.startup.document.rerenderPromise(MathJax._.core.MathItem.STATE.METRICS);
}
"""

# book/js/reading.js has had its pass since the last change of the page: every box that
# scrolls sideways has its cue (and only those), every figure can be opened.
_READING_PASS_DONE_JS = """
() => Array.from(document.querySelectorAll('article pre, article table')).every(e => {
  const box = e.tagName === 'TABLE' ? e.parentElement : e;
  return e.closest('mjx-container') || !box.isConnected
    || box.classList.contains('scroll-cue') === (box.scrollWidth > box.clientWidth + 1);
})
"""
#: How long the reading script may take to mark a page after a change of width; a page it
#: never marks in that time is measured as it is (and the measures report what is missing).
READING_PASS_MS = 10_000


def resize(page, width: int) -> None:
    """Give an opened page a window ``width`` px wide, as if it had been opened in it: the
    display equations are laid out again for the new column and the reading script
    (scroll cues) has run."""
    page.set_viewport_size({"width": width, "height": page.viewport_size["height"]})
    page.evaluate(_RELAYOUT_MATH_JS)
    try:
        page.wait_for_function(_READING_PASS_DONE_JS, timeout=READING_PASS_MS,
                               polling=POLL_MS)
    except Exception:  # noqa: BLE001 - what is left unmarked is reported by the measures
        pass


# ---- Loading a page on a phone (``--phone``) -------------------------------------------------

#: The phone of ``--phone``: a 390 x 844 CSS px screen, device scale 3, touch, and a CPU four
#: times slower than the measuring machine's (Chromium's CPU throttling, as in its DevTools'
#: "mid-tier mobile").
PHONE_SCREEN = {"width": 390, "height": 844}
CPU_SLOWDOWN = 4

# Installed before the page's own scripts: notes when MathJax (on a book that still typesets
# in the browser) has typeset the page.
_TYPESET_CLOCK_JS = """
(() => {
  const watch = setInterval(() => {
    const promise = window.MathJax && MathJax.startup && MathJax.startup.promise;
    if (!promise || !MathJax.version) return;
    clearInterval(watch);
    promise.then(() => { window.__typesetAt = performance.now(); });
  }, 20);
})();
(() => {
  window.__longTasks = [];
  try {
    new PerformanceObserver(list => {
      for (const task of list.getEntries()) {
        window.__longTasks.push([task.startTime, task.duration]);
      }
    }).observe({type: 'longtask', buffered: true});
  } catch (error) { /* no long task timing in this browser */ }
})();
"""

#: Time to usable waits for the main thread to be quiet: the end of the
#: last long task (over 50 ms) that starts up to this long after the load
#: event (a layout or a script's work right after it), in ms.
QUIET_AFTER_LOAD_MS = 1000

# The page's times, in ms from the start of the navigation.
_TIMES_JS = """
async (quiet) => {
  const nav = performance.getEntriesByType('navigation')[0];
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    await MathJax.startup.promise;
    while (window.__typesetAt === undefined) await new Promise(r => setTimeout(r, 20));
  }
  await document.fonts.ready;
  // the long tasks that start within `quiet` ms of the load event, each
  // followed by `quiet` ms to see whether another one starts
  let end = nav.loadEventEnd;
  for (;;) {
    const wait = end + quiet - performance.now();
    if (wait > 0) await new Promise(r => setTimeout(r, wait));
    const later = window.__longTasks.filter(
      ([start, duration]) => start <= end + quiet && start + duration > end);
    if (later.length === 0) break;
    end = Math.max(...later.map(([start, duration]) => start + duration));
    if (end - nav.loadEventEnd > 60000) break;
  }
  const longAfterLoad = window.__longTasks.filter(
    ([start, duration]) => start + duration > nav.loadEventEnd).length;
  return {load: nav.loadEventEnd, text: paint ? paint.startTime : null,
          typeset: window.__typesetAt ?? null, quiet: end,
          long: longAfterLoad,
          nodes: (() => {
            const all = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
            let count = 1;
            while (all.nextNode()) count += 1;
            return count;
          })()};
}
"""


def load_on_a_phone(browser, url: str) -> dict:
    """Open ``url`` on a phone with a cold cache and a CPU ``CPU_SLOWDOWN`` times slower.

    Returns what the page cost: ``requests``, ``raw`` and ``transfer`` bytes (compressed as a
    static server sends each file: :func:`transfer_size`), and in seconds ``text`` (the first
    text or image drawn), ``usable`` and ``cpu`` (the main thread's busy time until usable).

    Usable means: the load event has ended (the HTML, its scripts, stylesheets, fonts and
    images in view loaded, the scripts run), no formula is waiting to be typeset (on a
    book that typesets in the browser: MathJax's startup promise has resolved) and the main
    thread is quiet: usable is the end of the last long task (Long Tasks API) that starts
    within ``QUIET_AFTER_LOAD_MS`` of the load event or of the end of a long task counted,
    or the load event if there is none. Also returned: ``load`` (s), ``long`` (the long
    tasks that end after the load event) and ``nodes`` (the page's DOM nodes: elements,
    text, comments). The busy time
    (Chromium's TaskDuration) counts the page's own work and is less affected than the wall
    time by other programs using the machine's CPU.
    """
    context = browser.new_context(viewport=PHONE_SCREEN, device_scale_factor=3,
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Performance.enable")
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    page.add_init_script(_TYPESET_CLOCK_JS)
    responses = []
    page.on("response", lambda response: responses.append(response))
    page.goto(url, wait_until="load")
    times = page.evaluate(_TIMES_JS, QUIET_AFTER_LOAD_MS)
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    raw = transfer = 0
    for response in responses:
        try:
            body = response.body()
        except Exception:  # noqa: BLE001 - a redirect or an aborted request has no body
            continue
        raw += len(body)
        transfer += transfer_size(response.url, body)
    context.close()
    usable = max(times["load"], times["typeset"] or 0, times["quiet"])
    return {"requests": len(responses), "raw": raw, "transfer": transfer,
            "text": (times["text"] or 0) / 1000, "usable": usable / 1000,
            "load": times["load"] / 1000, "long": times["long"],
            "nodes": times["nodes"],
            "cpu": metrics.get("TaskDuration", 0.0)}


def phone_report(browser, base: str, pages: list[str], repeat: int) -> dict:
    """:func:`load_on_a_phone` for each page, ``repeat`` times, one line printed per page.

    Bytes and requests are those of the first load; times are medians over the loads.
    """
    report = {}
    print(f"a phone ({PHONE_SCREEN['width']} px, CPU {CPU_SLOWDOWN}x slower, cold cache); "
          f"times: median of {repeat}")
    for name in pages:
        runs = [load_on_a_phone(browser, f"{base}/{name}.html") for _ in range(repeat)]
        result = dict(runs[0])
        for key in ("text", "load", "usable", "cpu"):
            result[key] = statistics.median(run[key] for run in runs)
        report[name] = result
        each = ", ".join(f"{run['usable']:.1f}" for run in runs)
        print(f"{name}: {result['transfer'] / 1e6:.2f} MB transferred "
              f"({result['raw'] / 1e6:.2f} MB uncompressed) in {result['requests']} requests; "
              f"{result['nodes']} DOM nodes; text {result['text']:.1f} s, "
              f"load {result['load']:.1f} s, usable {result['usable']:.1f} s "
              f"({result['long']} long tasks after load), "
              f"CPU {result['cpu']:.1f} s; "
              f"usable each run: {each} s")
    return report


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


def serve(build_dir: Path):
    """Serve ``build_dir`` on a free local port; returns (server, base URL)."""
    handler = functools.partial(_QuietHandler, directory=str(build_dir))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def main(argv=None) -> int:
    from conftest import CHROMIUM, CHROMIUM_ARGS, book_pages  # noqa: PLC0415

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="*", help="e.g. chapters/04-kearns-mansour")
    parser.add_argument("--all", action="store_true", help="every page in _toc.yml")
    parser.add_argument("--width", type=int, action="append",
                        help="viewport width in px (repeatable; default 1280)")
    parser.add_argument("--build", type=Path, default=ROOT / "_build" / "html")
    parser.add_argument("--screenshots", type=Path, help="save full-page PNGs here")
    parser.add_argument("--json", action="store_true", help="print the raw measures as JSON")
    parser.add_argument("--weight", action="store_true",
                        help="print each page's weight (its files, compressed) and stop")
    parser.add_argument("--phone", action="store_true",
                        help="load each page on a phone with a 4x slower CPU and a cold cache: "
                             "bytes transferred, requests, time until usable, CPU time")
    parser.add_argument("--repeat", type=int, default=1,
                        help="with --phone: loads per page (times are medians)")
    args = parser.parse_args(argv)
    sys.stdout.reconfigure(errors="replace")
    pages = book_pages() if args.all or not args.pages else args.pages
    widths = args.width or [1280]
    if args.weight:
        for name in pages:
            print(f"{name}: {page_weight(args.build, name) / 1e6:.2f} MB")
        return 0
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    server, base = serve(args.build)
    if args.phone:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            report = phone_report(browser, base, pages, args.repeat)
            browser.close()
        server.shutdown()
        if args.json:
            print(json.dumps(report, indent=1))
        return 0
    titles = titles_of(args.build)
    totals: dict[str, int] = {}
    report = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for width in widths:
            for name in pages:
                context = browser.new_context(viewport={"width": width, "height": 900})
                page = context.new_page()
                errors = []
                page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
                page.goto(f"{base}/{name}.html", wait_until="load")
                wait_until_typeset(page)
                result = measure(page, name, titles)
                if width <= PHONE_WIDTH:
                    result.update(measure_phone(page))
                result["errors"] = errors
                if args.screenshots:
                    args.screenshots.mkdir(parents=True, exist_ok=True)
                    shot = args.screenshots / f"{name.replace('/', '__')}-{width}.png"
                    page.screenshot(path=str(shot), full_page=True)
                context.close()
                report[f"{name} @{width}"] = result
                for key, values in result.items():
                    totals[f"{key}@{width}"] = totals.get(f"{key}@{width}", 0) + len(values)
                if not args.json:
                    counts = ", ".join(f"{k} {len(v)}" for k, v in result.items() if v)
                    print(f"{name} @{width}px: {counts or 'all fit'}")
                    for key, values in result.items():
                        for value in values[:12]:
                            print(f"    {key}: {value}")
        browser.close()
    server.shutdown()
    if args.json:
        print(json.dumps(report, indent=1, ensure_ascii=False))
    else:
        print("totals:", ", ".join(f"{k} {v}" for k, v in sorted(totals.items())))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    os.chdir(ROOT)
    sys.exit(main())
