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
* a display broken for a phone keeps a function with its argument;
* the formulas far from the screen are laid out when the reader scrolls to them, not as
  the page loads (book.css);
* formulas are not Tab stops (MathJax 4 makes each one a stop unless told otherwise), and
  screen readers still get each one as hidden MathML;
* headings are in proportion to the column, and the page never scrolls sideways;
* the Library reference's signatures break between names, never inside one;
* code cells fold (book/_ext/code_folds.py): the chapters' set-up and
  long plotting cells (tagged fold-code by book/fold_code.py) and the
  hide-input cells are folded under a one-line summary that the keyboard
  opens, every other cell is open under its own;
* the punctuation after an in-line formula stays on the formula's last
  line (it is inside the formula's container, prerender_math.mjs), and
  is not clipped when it hangs past the end of a full line;
* search snippets give a formula as text ("1/16", "t_3"), not as "…";
* a table header cell that holds only a formula is named by it (axe's
  empty-table-header).

test_book_pages.py checks every page at 390 px as well (overflow, scroll cues, figure text
size); these checks look at one page each where every page shares the cause. Needs the built
book (`make book`) and Chromium.
"""

from __future__ import annotations

import json

import pytest
from accessibility_checks import axe_violations
from conftest import ROOT, book_pages
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


# The lines of the displays broken for a phone that start with a function's
# argument: a plain "(" whose line follows one that ends with a name ("pen" |
# "(P) =") or with the function application of \\operatorname. (A "(" that
# opens a fraction's numerator or a root starts no such line; a large one,
# \\Big(, groups a factor, after which a break is allowed.)
_SPLIT_CALLS_JS = r"""
() => Array.from(document.querySelectorAll('mjx-container.mjx-narrow mjx-linebox'))
  .filter(line => {
    const first = line.querySelector('mjx-c');
    if (!first || !first.classList.contains('mjx-c28')
        || Array.from(first.classList).some(name => name.startsWith('NCM-S'))) {
      return false;
    }
    const inner = first.parentElement.closest('mjx-frac, mjx-sqrt, mjx-mroot');
    if (inner && line.contains(inner)) return false;
    const before = line.previousElementSibling;
    const last = before ? Array.from(before.querySelectorAll('mjx-c')).pop() : null;
    return !!last && (last.parentElement.tagName === 'MJX-MI'
                      || last.textContent === '\u2061');
  })
  .map(line => line.closest('mjx-container').querySelector('mjx-math')
    .getAttribute('data-latex').slice(0, 80))
"""


@pytest.mark.parametrize("name", ["chapters/04-kearns-mansour",
                                  "chapters/10-optimal-trees",
                                  "book/appendix-probability"])
def test_a_function_keeps_its_argument_on_its_line(phone_pages, name):
    """A display broken for a phone is not broken between a function and
    its argument ("pen" above "(P) =", 17 such lines in the book before
    prerender_math.mjs marked the parenthesis)."""
    split = phone_pages(name).evaluate(_SPLIT_CALLS_JS)
    assert not split, split


# Chapter 4's formulas that the browser has laid out (book.css holds back the
# blocks of text far from the screen: content-visibility), and those on the
# screen (not those of a folded solution, hidden where it would open).
_DRAWN_FORMULAS_JS = """
() => {
  const all = Array.from(document.querySelectorAll('article mjx-container'));
  const drawn = all.filter(m => m.checkVisibility({contentVisibilityAuto: true}));
  const onScreen = all.filter(m => {
    const box = m.getBoundingClientRect();
    return box.bottom > 0 && box.top < innerHeight
      && m.checkVisibility({visibilityProperty: true});
  });
  return {all: all.length, drawn: drawn.length,
          onScreenDrawn: onScreen.filter(m => drawn.includes(m)).length,
          onScreen: onScreen.length};
}
"""


def test_formulas_far_from_the_screen_wait_to_be_laid_out(browser, book_url):
    """Chapter 4 on a phone: of its 650 formulas, the browser lays out
    those near the screen as the page loads and the others as the reader
    scrolls to them (at the top and at the page's last formula alike)."""
    page = _open(browser, book_url, "chapters/04-kearns-mansour")
    # the blocks that come on the screen are drawn in the next frames
    on_screen_drawn = f"""() => {{
      const found = ({_DRAWN_FORMULAS_JS})();
      return found.onScreen > 0 && found.onScreenDrawn === found.onScreen;
    }}"""
    try:
        page.wait_for_function(on_screen_drawn, polling=POLL_MS)
        top = page.evaluate(_DRAWN_FORMULAS_JS)
        page.evaluate("""() => Array.from(
          document.querySelectorAll('article mjx-container'))
          .filter(m => m.checkVisibility({visibilityProperty: true})).pop()
          .scrollIntoView({block: 'center'})""")
        page.wait_for_function(on_screen_drawn, polling=POLL_MS)
        end = page.evaluate(_DRAWN_FORMULAS_JS)
    finally:
        page.context.close()
    assert top["all"] >= 600, top
    assert top["drawn"] <= top["all"] // 5, top
    assert end["drawn"] > top["drawn"], (top, end)


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


# ---- 6. Code cells that fold ------------------------------------------

# Every notebook cell's code fold on the page: folded or open, its
# summary's text and height, whether its code is shown, and whether the
# cell is tagged to be folded.
_FOLDS_JS = """
() => Array.from(document.querySelectorAll('article div.cell'))
  .filter(c => c.querySelector(
    ':scope > details.code-fold, :scope > div.cell_input'))
  .map(cell => {
    const fold = cell.querySelector(':scope > details.code-fold');
    const summary = fold && fold.querySelector(':scope > summary');
    const code = cell.querySelector('div.cell_input');
    return {
      tagged: cell.matches('.tag_fold-code, .tag_hide-input'),
      fold: !!fold,
      open: !!(fold && fold.open),
      summary: summary ? summary.textContent.trim() : '',
      height: summary ? summary.getBoundingClientRect().height : 0,
      lineHeight: summary
        ? parseFloat(getComputedStyle(summary).lineHeight) : 0,
      shown: !!code && code.checkVisibility()};
  })
"""

# The height of the code shown on the page against the article's.
# The share of the page's height that is code, with every block laid out
# (book.css lets the browser lay out a paragraph only near the screen: until
# then it has an estimated height).
_CODE_SHARE_JS = """
() => {
  const article = document.querySelector('article.bd-article');
  const all = document.createElement('style');
  all.textContent = 'article * { content-visibility: visible !important; }';
  document.head.append(all);
  const code = Array.from(article.querySelectorAll('div.cell_input'))
    .filter(c => c.checkVisibility())
    .reduce((sum, c) => sum + c.getBoundingClientRect().height, 0);
  const share = code / article.getBoundingClientRect().height;
  all.remove();
  return share;
}
"""

_OPEN_ALL_JS = """
() => document.querySelectorAll('details.code-fold')
  .forEach(d => { d.open = true; })
"""

_FOLD_TAGGED_JS = """
() => document.querySelectorAll(
  'div.cell:is(.tag_fold-code, .tag_hide-input) > details.code-fold')
  .forEach(d => { d.open = false; })
"""

FOLDED_TAGS = {"fold-code", "hide-input"}
REMOVED_TAGS = {"remove-cell", "remove-input"}


def _tagged_cells(page_name: str) -> int:
    """The number of code cells of a chapter's notebook that the page
    shows and that are tagged to be folded."""
    path = ROOT / f"{page_name}.ipynb"
    cells = json.loads(path.read_text(encoding="utf8"))["cells"]
    return sum(1 for cell in cells if cell["cell_type"] == "code"
               and FOLDED_TAGS & set(cell["metadata"].get("tags", []))
               and not REMOVED_TAGS & set(cell["metadata"]["tags"]))


@pytest.mark.parametrize("name", ["chapters/04-kearns-mansour",
                                  "chapters/08-classic-heuristics"])
def test_set_up_and_plotting_code_is_folded(phone_pages, name):
    """The cells tagged fold-code (or hide-input) are folded under a
    one-line summary that says what the code is ("Code of Fig. 4.2",
    "Set-up: imports and settings"); every other cell is open under its
    own summary; the folds take at least a fifth of the code off the
    page."""
    page = phone_pages(name)
    folds = page.evaluate(_FOLDS_JS)
    assert folds and all(fold["fold"] for fold in folds), \
        "code cells that do not fold"
    folded = [fold for fold in folds if fold["tagged"]]
    assert len(folded) == _tagged_cells(name) >= 4, folds
    assert all(not fold["open"] and not fold["shown"]
               for fold in folded), folded
    assert all(fold["open"] and fold["shown"]
               for fold in folds if not fold["tagged"]), folds
    assert folded[0]["summary"].startswith("Set-up: imports and settings")
    assert any(fold["summary"].startswith("Code of Fig. ")
               for fold in folded), folded
    generic = [fold["summary"] for fold in folds
               if "code cell" in fold["summary"] or not fold["summary"]]
    assert not generic, generic
    # one line: no taller than its line and padding (a second line would
    # add a line height)
    tall = [fold for fold in folds
            if fold["height"] > 1.5 * fold["lineHeight"] + 16]
    assert not tall, tall
    folded_share = page.evaluate(_CODE_SHARE_JS)
    page.evaluate(_OPEN_ALL_JS)
    try:
        assert folded_share <= 0.8 * page.evaluate(_CODE_SHARE_JS)
    finally:
        page.evaluate(_FOLD_TAGGED_JS)


def test_a_folded_cell_opens_and_folds_with_the_keyboard(browser, book_url):
    page = _open(browser, book_url, "chapters/04-kearns-mansour")
    try:
        fold = page.locator(
            "div.cell.tag_fold-code > details.code-fold").nth(1)
        summary = fold.locator(":scope > summary")
        code = fold.locator("div.cell_input")
        assert not code.is_visible()
        summary.focus()
        focused = page.evaluate("() => document.activeElement.tagName")
        assert focused == "SUMMARY"
        page.keyboard.press("Enter")
        code.wait_for(state="visible", timeout=WAIT_MS)
        assert fold.evaluate("d => d.open")
        page.keyboard.press("Enter")
        code.wait_for(state="hidden", timeout=WAIT_MS)
    finally:
        page.context.close()


# ---- 7. Punctuation after a formula ------------------------------------

# In-line formulas followed by a text node that starts with punctuation
# (outside the formula's container, where the browser may break the line
# before it).
_LOOSE_PUNCTUATION_JS = r"""
() => Array.from(document.querySelectorAll('article span.math'))
  .filter(m => {
    const after = m.nextSibling;
    return after && after.nodeType === 3
      && /^[.,;:!?)\]]/.test(after.textContent);
  })
  .map(m => m.textContent.slice(0, 30) + ' | '
            + m.nextSibling.textContent.slice(0, 20))
"""

# The punctuation kept in a formula's container that is not drawn right
# after the formula's last line: on another line, away from its end (at
# the right edge of the line before), or clipped by a box it hangs out of
# (the theme's span.math, a proof's box) at the end of a line.
_PUNCTUATION_PLACES_JS = """
() => {
  const out = [];
  let checked = 0;
  const clipped = (punct, p) => {
    for (let box = punct.parentElement; box; box = box.parentElement) {
      const style = getComputedStyle(box);
      if (style.overflowX === 'visible') continue;
      const margin = style.overflowX === 'clip'
        ? parseFloat(style.overflowClipMargin) || 0 : 0;
      const right = box.getBoundingClientRect().right;
      if (p.right > right + margin + 0.5) return true;
    }
    return false;
  };
  const kept = document.querySelectorAll(
    'article mjx-container > span.math-punct');
  for (const punct of kept) {
    const math = punct.parentElement.querySelector(':scope > mjx-math');
    if (!punct.getClientRects().length
        || punct.closest('details:not([open])')) continue;
    checked += 1;
    const rects = Array.from(math.getClientRects())
      .filter(r => r.width > 0);
    const last = rects[rects.length - 1];
    const p = punct.getBoundingClientRect();
    const middle = (p.top + p.bottom) / 2;
    const after = middle > last.top && middle < last.bottom
      && Math.abs(p.left - last.right) <= 4;
    if (!after || clipped(punct, p)) {
      const tex = math.getAttribute('data-latex') || '';
      out.push(tex.slice(0, 60) + ' | ' + punct.textContent);
    }
  }
  return {checked, out};
}
"""


def test_no_formula_leaves_its_punctuation_outside(browser, book_url):
    """On every chapter page, the punctuation right after an in-line
    formula is inside the formula's container, never in the text after
    it."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=3,
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    loose = {}
    chapters = [name for name in book_pages()
                if name.startswith("chapters/")]
    try:
        for name in chapters:
            page.goto(f"{book_url}/{name}.html",
                      wait_until="domcontentloaded")
            found = page.evaluate(_LOOSE_PUNCTUATION_JS)
            if found:
                loose[name] = found[:5]
            assert page.locator("span.math-punct").count() >= 10, name
    finally:
        context.close()
    assert not loose, loose


# the proof in Chapter 1 whose formula "ε_h = √(…)." fills its last line
# in the proof's box
_MDL_PROOF = ("div.proof:has(mjx-math"
              "[data-latex^='\\\\epsilon_h=\\\\sqrt'])")


@pytest.mark.parametrize("name, where", [
    ("chapters/10-optimal-trees", "#ch10-prop-never-worse"),
    ("chapters/04-kearns-mansour", "#km-rem-proof"),
    ("chapters/01-decision-trees", _MDL_PROOF),
])
def test_punctuation_stays_with_its_formula(phone_pages, name, where):
    """Proposition 10.1's comma after a formula MathJax breaks in two,
    Remark 4.3's full stops, and the full stop that hangs past the end of a
    full line in Chapter 1's proof of the MDL bound: each on the formula's
    last line, right after it, and not clipped; and so on the whole
    page."""
    page = phone_pages(name)
    assert page.locator(f"{where} span.math-punct").count() >= 2
    found = page.evaluate(_PUNCTUATION_PLACES_JS)
    assert found["checked"] >= 50, found
    assert not found["out"], found["out"][:6]


# ---- 8. Search snippets and formulas -----------------------------------

_SNIPPETS = "#search-results li p.context"


def test_search_snippets_give_formulas_as_text(browser, book_url):
    """Searching "quotient" finds Chapter 2's "with $3 - 1$ the quotient
    would be $1/16$, and $t_3$ would be the only weakest link": the
    snippet reads the formulas."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=3,
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(f"{book_url}/search.html?q=quotient", wait_until="load")
        # each result's snippet is written once its page is fetched
        page.wait_for_function(
            "selector => Array.from(document.querySelectorAll(selector))"
            ".some(p => p.textContent.replace(/\\s+/g, ' ')"
            ".includes('quotient would be'))",
            arg=_SNIPPETS, timeout=WAIT_MS)
        snippets = page.locator(_SNIPPETS).all_text_contents()
    finally:
        context.close()
    snippet = " ".join(" ".join(snippets).split())
    assert ("3 − 1 the quotient would be 1/16, and t_3 would be"
            in snippet), snippets
    assert "…" not in snippet, snippets


# ---- 9. Table headers that hold a formula ------------------------------

def test_a_header_cell_holding_a_formula_is_named(phone_pages):
    """Chapter 1's table of gain measures heads a column with $C(a)$
    alone: its MathML is named "C(a)", and axe finds no empty table
    header."""
    page = phone_pages("chapters/01-decision-trees")
    names = page.evaluate(
        "() => Array.from(document.querySelectorAll('article th math'))"
        ".map(m => m.getAttribute('aria-label'))")
    assert "C(a)" in names, names
    empty = [violation for violation in axe_violations(page)
             if violation["id"] == "empty-table-header"]
    assert not empty, empty
