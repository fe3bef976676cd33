"""The book on a phone: a 390 x 844 CSS px screen, device scale 3, touch (an iPhone's), and a
tablet's 800 px where the sidebars are dialogs too.

* figures keep their proportions (Sphinx writes the size a figure was drawn at as the
  ``<img>``'s width and height; the theme caps the width at the column), and a tapped figure
  opens centred on the screen, its top (the title) in view;
* the menu button ("Contents", top left) opens the table of contents, at 390 and at 800 px,
  and leads to every chapter and the Library reference;
* formulas are typeset when the book is built (book/_ext/prerender_math.py): no page loads
  MathJax, a display wider than the phone's column is shown as drawn broken across lines for
  it, and MathJax's fonts load from the book;
* formulas are not Tab stops (MathJax 4 makes each one a stop unless told otherwise), and
  screen readers still get each one as hidden MathML;
* headings are in proportion to the column, and the page never scrolls sideways;
* the Library reference's signatures break between names, never inside one.

test_book_pages.py checks every page at 390 px as well (overflow, scroll cues, figure text
size); these checks look at one page each where every page shares the cause. Needs the built
book (`make book`) and Chromium.
"""

from __future__ import annotations

import pytest
from layout import POLL_MS, WAIT_MS, browser_typesetting, wait_until_typeset

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
TABLET_WIDTH = 800
# The smallest a figure's view may shrink it (its text from 12 px to 9 px, book/js/reading.js).
SMALLEST_ZOOM = 9 / 12


def _open(browser, book_url, page_name, width=PHONE["width"], phone=True):
    """A page opened on a phone (touch, device scale 3) ``width`` px wide, typeset and with
    its images loaded; or, with ``phone=False``, in a laptop's window."""
    if phone:
        context = browser.new_context(viewport={"width": width, "height": PHONE["height"]},
                                      device_scale_factor=3, is_mobile=True, has_touch=True)
    else:
        context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.goto(f"{book_url}/{page_name}.html", wait_until="load")
    wait_until_typeset(page)
    return page


@pytest.fixture(scope="module")
def phone_pages(browser, book_url):
    """Opens a page on a phone once per test module (for checks that only read the page)."""
    pages = {}

    def open_page(page_name):
        if page_name not in pages:
            pages[page_name] = _open(browser, book_url, page_name)
        return pages[page_name]

    yield open_page
    for page in pages.values():
        page.context.close()


# ---- 1. Figures ------------------------------------------------------------------------------

_RATIOS_JS = """
() => Array.from(document.querySelectorAll('article img'))
  .filter(img => img.naturalWidth > 0 && img.offsetParent !== null)
  .map(img => {
    const box = img.getBoundingClientRect();
    return {src: (img.getAttribute('src') || '').slice(-30), width: box.width,
            shown: box.width / box.height, natural: img.naturalWidth / img.naturalHeight};
  })
"""


def test_figures_keep_their_proportions(phone_pages):
    """Every image of a chapter is shown with its own width/height ratio, within 2 %."""
    page = phone_pages("chapters/04-kearns-mansour")
    images = page.evaluate(_RATIOS_JS)
    assert len(images) >= 5, images
    assert any(image["width"] < 380 for image in images), "no figure is narrowed on a phone"
    squashed = [f"{image['src']}: {image['shown']:.2f} shown, {image['natural']:.2f} drawn"
                for image in images if abs(image["shown"] / image["natural"] - 1) > 0.02]
    assert not squashed, squashed


_VIEW_JS = """
() => {
  const view = document.querySelector('.figure-zoom');
  const img = view && view.querySelector('img');
  if (!img || !img.complete) return null;
  const box = img.getBoundingClientRect();
  return {left: box.left, right: box.right, top: box.top, bottom: box.bottom,
          width: box.width, screen: view.clientWidth, height: view.clientHeight};
}
"""


def test_a_tapped_figure_opens_centred(browser, book_url):
    """A figure wider than the screen (7 in, 662 px) opens centred, its top in view, at a size
    where its text stays readable; it closes with Escape."""
    page = _open(browser, book_url, "chapters/02-cost-complexity")
    try:
        figure = page.locator("article figure img.zoomable").first
        drawn = figure.evaluate("img => parseFloat(img.style.width) || img.naturalWidth")
        assert drawn > PHONE["width"], "the first figure fits a phone: pick a wider one"
        figure.tap()
        page.wait_for_function(f"() => !!({_VIEW_JS})()", timeout=WAIT_MS, polling=POLL_MS)
        view = page.evaluate(_VIEW_JS)
        middle = (view["left"] + view["right"]) / 2
        assert abs(middle - view["screen"] / 2) <= 2, f"figure not centred: {view}"
        assert 0 <= view["top"] < view["height"] / 2, f"the figure's top is not in view: {view}"
        assert view["width"] >= SMALLEST_ZOOM * drawn - 1, view
        if view["width"] <= view["screen"]:
            assert view["left"] >= 0 and view["right"] <= view["screen"], view
        page.keyboard.press("Escape")
        assert page.locator(".figure-zoom").count() == 0
    finally:
        page.context.close()


# ---- 2. The menu button ----------------------------------------------------------------------

# The table of contents (the sidebar's navigation, wherever the theme puts it when it opens):
# shown, and within the screen.
_TOC_SHOWN_JS = """
() => {
  const nav = Array.from(document.querySelectorAll('nav.bd-docs-nav'))
    .find(n => n.offsetParent !== null);
  if (!nav) return false;
  const box = nav.getBoundingClientRect();
  return box.width > 150 && box.left >= 0 && box.right <= window.innerWidth
    && box.top < window.innerHeight && getComputedStyle(nav).visibility === 'visible';
}
"""


@pytest.mark.parametrize("width", [PHONE["width"], TABLET_WIDTH])
def test_the_menu_button_opens_the_table_of_contents(browser, book_url, width):
    page = _open(browser, book_url, "book/intro", width=width)
    try:
        buttons = page.locator(".primary-toggle:visible")
        assert buttons.count() == 1, f"{buttons.count()} menu buttons shown"
        buttons.tap()
        page.wait_for_function(_TOC_SHOWN_JS, timeout=WAIT_MS, polling=POLL_MS)
        nav = page.locator("nav.bd-docs-nav:visible")
        reference = nav.locator('a[href$="reference/index.html"]')
        assert reference.count() == 1 and reference.is_visible(), "no Library reference link"
        chapter = nav.locator('a[href$="chapters/07-reproduction.html"]')
        assert chapter.count() == 1
        chapter.tap()
        page.wait_for_url("**/chapters/07-reproduction.html", timeout=WAIT_MS)
    finally:
        page.context.close()


# ---- 3. Formulas typeset when the book is built --------------------------------------------

# The display equations drawn twice (for a laptop's column and broken for a phone's): which
# of each pair is shown, whether it is broken, and whether it fits the column. The fonts
# MathJax's stylesheet declares, and those that failed to load.
_DISPLAYS_JS = """
() => {
  const shown = e => e.offsetParent !== null && getComputedStyle(e).display !== 'none';
  const pairs = Array.from(document.querySelectorAll('div.math'))
    .filter(d => d.querySelector(':scope > mjx-container.mjx-narrow'))
    .map(d => {
      const wide = d.querySelector(':scope > mjx-container.mjx-wide');
      const narrow = d.querySelector(':scope > mjx-container.mjx-narrow');
      const visible = [wide, narrow].filter(shown);
      const math = visible.length === 1 ? visible[0].querySelector('mjx-math') : null;
      return {shown: visible.map(v => v.classList.contains('mjx-narrow') ? 'narrow' : 'wide'),
              broken: !!(math && math.querySelector('mjx-linebox')),
              fits: !!math
                && math.getBoundingClientRect().right <= d.getBoundingClientRect().right + 1};
    });
  const fonts = Array.from(document.fonts).filter(f => /^MJX/.test(f.family));
  return {pairs, mjx: fonts.filter(f => f.status === 'loaded').length,
          failed: fonts.filter(f => f.status === 'error').map(f => f.family)};
}
"""


def test_formulas_are_typeset_when_the_book_is_built(phone_pages):
    """Chapter 4 on a phone: no MathJax; of each display drawn twice, the one shown fits the
    column (the unbroken one where it fits, else the one broken for a phone)."""
    page = phone_pages("chapters/04-kearns-mansour")
    assert browser_typesetting(page) == [], "the page typesets its formulas in the browser"
    assert page.locator("span.math:not(:has(mjx-container))").count() == 0
    found = page.evaluate(_DISPLAYS_JS)
    pairs = found["pairs"]
    assert len(pairs) >= 5, f"{len(pairs)} displays drawn for a phone's column: {found}"
    assert all(len(pair["shown"]) == 1 and pair["fits"] for pair in pairs), pairs
    assert all(pair["broken"] == (pair["shown"] == ["narrow"]) for pair in pairs), pairs
    assert sum(pair["shown"] == ["narrow"] for pair in pairs) >= 5, pairs
    assert found["mjx"] >= 1 and not found["failed"], found


# ---- 4. Formulas and the Tab key -------------------------------------------------------------

_MATH_FOCUS_JS = """
() => {
  const focusable = 'a[href], button, input, select, textarea, [tabindex]';
  const containers = Array.from(document.querySelectorAll('mjx-container'));
  const stops = containers.filter(m => m.tabIndex >= 0
    || Array.from(m.querySelectorAll(focusable)).some(e => e.tabIndex >= 0));
  return {containers: containers.length, stops: stops.length,
          mathml: document.querySelectorAll('mjx-container mjx-assistive-mml math').length};
}
"""


def test_formulas_are_not_tab_stops(browser, book_url):
    """Chapter 2's 369 formulas: none in the Tab order, each with its hidden MathML."""
    page = _open(browser, book_url, "chapters/02-cost-complexity", width=1280, phone=False)
    try:
        found = page.evaluate(_MATH_FOCUS_JS)
    finally:
        page.context.close()
    assert found["containers"] >= 100, found
    assert found["stops"] == 0, f"{found['stops']} formulas are Tab stops"
    assert found["mathml"] == found["containers"], "formulas without assistive MathML"


# ---- 5. Headings, code and the Library reference ---------------------------------------------

# The number of lines an element's text takes (a box that starts below the bottom of the
# line before it starts a new line; the heading's "#" link, in a smaller font, does not).
_LINES_JS = """
element => {
  const range = document.createRange();
  range.selectNodeContents(element);
  const boxes = Array.from(range.getClientRects()).filter(r => r.width > 1)
    .sort((a, b) => a.top - b.top);
  let lines = 0, bottom = -Infinity;
  for (const box of boxes) {
    if (box.top >= bottom - 2) lines += 1;
    bottom = Math.max(bottom, box.bottom);
  }
  return lines;
}
"""


def test_headings_fit_a_phone(phone_pages):
    page = phone_pages("chapters/02-cost-complexity")
    size = page.evaluate("s => parseFloat(getComputedStyle(document.querySelector(s)).fontSize)",
                         "article h1")
    assert size <= 30, f"the title is {size}px"
    sizes = page.evaluate("() => Array.from(document.querySelectorAll('article h2'))"
                          ".map(h => parseFloat(getComputedStyle(h).fontSize))")
    assert sizes and max(sizes) <= 24, sizes
    section = page.locator("article h2", has_text="Breiman").first
    assert section.evaluate(_LINES_JS) <= 2, "section 2.3's title takes three lines or more"


@pytest.mark.parametrize("name", ["chapters/02-cost-complexity",
                                  "chapters/08-classic-heuristics"])
def test_the_page_never_scrolls_sideways(phone_pages, name):
    """Long code lines scroll inside their boxes; the page stays the screen's width."""
    page = phone_pages(name)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide"
    code = page.evaluate("() => Array.from(document.querySelectorAll('article pre'))"
                         ".filter(p => p.scrollWidth > p.clientWidth + 1).length")
    assert code >= 1, "no code line wider than the screen: the check checks nothing"


# Every name (letters, digits, _) of a signature whose letters lie on more than one line.
_BROKEN_NAMES_JS = """
() => {
  const broken = [];
  for (const sig of document.querySelectorAll('dl.py > dt.sig')) {
    const walker = document.createTreeWalker(sig, NodeFilter.SHOW_TEXT);
    let node;
    while ((node = walker.nextNode())) {
      for (const m of node.textContent.matchAll(/\\w+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set(Array.from(range.getClientRects())
          .filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (lines.size > 1) broken.push(sig.id + ': ' + m[0]);
      }
    }
  }
  return broken;
}
"""


@pytest.mark.parametrize("name", ["book/reference/estimator", "book/reference/book-checks"])
def test_signatures_break_between_names(phone_pages, name):
    """"PrunedTreeClassifier" is never cut into "PrunedTreeClassi" and "fier"."""
    page = phone_pages(name)
    assert page.locator("dl.py > dt.sig").count() >= 1
    broken = page.evaluate(_BROKEN_NAMES_JS)
    assert not broken, broken[:10]
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide"
