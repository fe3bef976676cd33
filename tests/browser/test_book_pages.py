"""Open every page of the built book in headless Chromium and check that it renders and fits
its column, on a laptop (1280 px) and on a phone (390 px).

For each page listed in _toc.yml, in one visit, 1280 px wide:

* math: every TeX formula was typeset when the book was built (an ``mjx-container``; the
  page loads no MathJax), with no MathJax error and no raw ``\\(`` / ``$$`` left in the
  visible text;
* images: every ``<img>`` loaded (``naturalWidth > 0``);
* explorers: no widget is left for a widget manager to draw (the explorers are HTML written
  when the book is built), and the page loads no widget manager;
* layout: the measures of tests/browser/layout.py listed in ``MUST_BE_EMPTY`` are empty (the
  page, display equations, code, tables and figures fit the column; cross-references are
  linked and numbered the book's way);
* explorers: each slider moves the figure under it (tests/browser/explorers.py);

then, the window narrowed to 390 px (the equations laid out again for the narrower column, as
on a page opened in it):

* phone: the measures listed in ``MUST_BE_EMPTY_ON_A_PHONE`` are empty (nothing overflows,
  boxes that scroll say so, every figure opens on a tap at a readable size);
* explorers: each slider still moves its figure, and a thumb can use it: a track of the
  column's width, a large handle, "−" and "+" buttons that step it, frames of one height (the
  page does not jump) drawn at 2x (tests/browser/explorers.py);
* solutions: every sphinx-exercise solution is collapsed and opens on a click;
* accessibility, with the solutions open: no critical or serious violation of axe-core's rules
  (light mode; the colour contrast in dark mode too), and every explorer slider, step button
  and solution button is a Tab stop named after what it sets or opens
  (tests/browser/accessibility_checks.py); moderate and minor violations are counted and
  reported at the end of the run;
* network: no request for the book's own files fails or hangs, none is for the scripts of
  Jupyter's widget manager (embed-amd.js, require.js), and no other host is contacted (the page
  is loaded with every outside request blocked, as on a machine with no network);
* no JavaScript error is thrown and nothing is logged to the console as an error (a missing
  file, or pydata's theme complaining about its colour mode).

The book as a whole (index, search, student edition, Library reference) is checked in
test_book_layout.py. With BOOK_SCREENSHOTS=1, a full-page screenshot of each page at each
width is kept in _build/screenshots/<width>/. Needs the built book (`make book`) and
Chromium (`make chromium`).
"""

import re
from urllib.parse import urlsplit

import pytest
from accessibility_checks import accessibility_problems
from conftest import save_screenshot
from explorers import phone_problems, slider_problems
from layout import (WAIT_MS, browser_typesetting, measure, measure_phone, resize,
                    wait_until_typeset, widget_manager_scripts)

pytestmark = pytest.mark.browser

WIDTH = 1280
PHONE = 390
MUST_BE_EMPTY = ["page", "math", "broken", "code", "tables", "shrunk", "bare_refs",
                 "unlinked", "paper_numbers"]
# On a phone, code lines (79 characters) and wide tables may scroll inside their boxes, but
# only with a visible cue ("cut" counts those without one), and 7-inch figures may shrink, but
# only when a tap opens them at a size where their text is readable ("figure_text"). Neither
# the page, a display equation nor an in-line formula may overflow, and no line may start
# with the punctuation that follows a formula ("orphans").
MUST_BE_EMPTY_ON_A_PHONE = ["page", "math", "cut", "inline_math", "orphans", "figure_text"]
# The Library reference shows the docstrings, which cite the paper a function implements
# ("Kääriäinen, Malinen & Elomaa 2004, Definition 4") and then use its numbers; the book's own
# numbers ("Theorem 4.1") never appear there, so a paper's number cannot be mistaken for one.
REFERENCE = "book/reference/"


# Text that must not survive in the visible page once MathJax has run (code blocks excluded).
RAW_TEX_MARKERS = ["\\(", "\\)", "\\[", "\\]", "$$"]

_VISIBLE_TEXT_JS = """
() => {
  const main = document.querySelector('main') || document.body;
  const copy = main.cloneNode(true);
  copy.querySelectorAll('pre, code, script, style, textarea, mjx-container, mjx-assistive-mml, '
                        + '.highlight, .MathJax_Preview').forEach(e => e.remove());
  return copy.textContent;
}
"""

_UNRENDERED_MATH_JS = """
() => Array.from(document.querySelectorAll('.math.notranslate'))
  .filter(e => !e.querySelector('mjx-container'))
  .map(e => e.textContent.trim().slice(0, 80))
"""

_MATH_ERRORS_JS = """
() => Array.from(new Set(Array.from(document.querySelectorAll('mjx-merror, [data-mjx-error]'))
  .map(e => (e.getAttribute('data-mjx-error') || e.textContent).slice(0, 120))))
"""


def _is_same_origin(url, base):
    return urlsplit(url)[:2] == urlsplit(base)[:2]


def _load(browser, book_url, page_name, width=1280):
    """Open a page with outside requests blocked, in a window ``width`` px wide.

    Returns the page and what went wrong while it loaded and ran: failed requests for the book's
    own files, requests to other hosts, JavaScript errors.
    """
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    seen = {"outside": [], "failed": [], "errors": [], "console": [], "pending": set(),
            "requested": []}

    def route(route):
        url = route.request.url
        if url.startswith(("http:", "https:")) and not _is_same_origin(url, book_url):
            seen["outside"].append(url)
            route.abort()
        else:
            route.continue_()

    def on_response(response):
        if response.status >= 400 and _is_same_origin(response.url, book_url):
            seen["failed"].append(f"{response.status} {response.url}")

    def on_request_failed(request):
        if _is_same_origin(request.url, book_url) and not any(
            request.url in failure for failure in seen["failed"]
        ):
            seen["failed"].append(f"{request.failure} {request.url}")

    def on_page_error(error):
        seen["errors"].append(str(error))

    def on_console(message):
        if message.type == "error":
            seen["console"].append(message.text)

    # Only requests to other hosts are routed through this process; the browser matches the
    # pattern itself, so the book's own files load without a detour through Python.
    page.route(re.compile(f"^(?!{re.escape(book_url.rstrip('/'))}/)https?://"), route)
    page.on("request", lambda request: seen["pending"].add(request))
    page.on("request", lambda request: seen["requested"].append(request.url))
    page.on("requestfinished", lambda request: seen["pending"].discard(request))
    page.on("response", on_response)
    page.on("requestfailed", on_request_failed)
    page.on("requestfailed", lambda request: seen["pending"].discard(request))
    page.on("pageerror", on_page_error)
    page.on("console", on_console)
    page.goto(f"{book_url}/{page_name}.html", wait_until="load")
    return page, seen


def unfinished_requests(page, seen, timeout_ms=WAIT_MS):
    """Wait until every request the page made has finished or failed; returns the URLs of
    those still open after ``timeout_ms``.

    (Playwright's "networkidle" asks for 500 ms without any request, which a page that keeps
    a connection busy, or a slow machine, may never give.)
    """
    waited = 0
    while seen["pending"] and waited < timeout_ms:
        page.wait_for_timeout(200)
        waited += 200
    return sorted(request.url for request in seen["pending"])


def test_page_renders_and_fits(browser, book_url, built_book, titles, page_name,
                               record_property):
    """One visit per page: the checks at 1280 px, then the same page in a 390 px window."""
    html_file = built_book / f"{page_name}.html"
    assert html_file.is_file(), f"{page_name}.html was not built: run `make book`"
    source = html_file.read_text(encoding="utf8")

    page, seen = _load(browser, book_url, page_name, width=WIDTH)
    problems = []
    try:
        problems.extend(f"at {WIDTH} px: {problem}"
                        for problem in _laptop_problems(page, source, page_name, titles))
        problems.extend(f"at {WIDTH} px, explorer: {problem}"
                        for problem in slider_problems(page, page_name))
        resize(page, PHONE)
        problems.extend(f"at {PHONE} px: {problem}"
                        for problem in _phone_problems(page, page_name, titles))
        problems.extend(f"at {PHONE} px, explorer: {problem}"
                        for problem in slider_problems(page, page_name))
        problems.extend(f"at {PHONE} px, explorer on a phone: {problem}"
                        for problem in phone_problems(page, page_name))

        # (e) solutions collapsed until clicked
        solutions = page.locator(".solution")
        for i in range(solutions.count()):
            problems.extend(_check_solution(page, solutions.nth(i)))

        # (h) accessibility, the solutions open
        found, counts = accessibility_problems(page)
        problems.extend(f"at {PHONE} px, accessibility: {problem}" for problem in found)
        record_property("axe_counts", counts)

        # (d) network, after everything above had the chance to load
        unfinished = unfinished_requests(page, seen)
        if unfinished:
            problems.append(f"requests that never finished: {unfinished[:5]}")
        if seen["failed"]:
            problems.append(f"failed requests for the book's own files: {seen['failed']}")
        if seen["outside"]:
            problems.append(f"requests to other hosts (blocked): {seen['outside']}")
        manager = widget_manager_scripts(seen["requested"])
        if manager:
            problems.append(f"requests for the widget manager: {manager}")
        if seen["errors"]:
            problems.append(f"JavaScript errors: {seen['errors']}")
        if seen["console"]:
            problems.append(f"errors in the console: {seen['console'][:5]}")
    finally:
        page.context.close()

    assert not problems, f"{page_name}.html:\n  " + "\n  ".join(problems)


def _laptop_problems(page, source, page_name, titles):
    """(a) math, (b) images, (c) widgets left and (f) the layout of a page in a laptop
    window."""
    problems = []
    if 'class="math notranslate' in source:
        problems.extend(_math_problems(page))
    broken = wait_until_typeset(page)
    if broken:
        problems.append(f"images that did not load: {broken}")
    widgets = page.locator('script[type^="application/vnd.jupyter.widget-"]').count()
    if widgets:
        problems.append(f"{widgets} widget views or states left for a widget manager")
    found = measure(page, page_name, titles)
    problems.extend(f"{key}: {found[key][:6]}" for key in MUST_BE_EMPTY if found[key]
                    and not (key == "paper_numbers" and page_name.startswith(REFERENCE)))
    save_screenshot(page, page_name, WIDTH)
    return problems


def _phone_problems(page, page_name, titles):
    """(g) the phone measures of a page (see MUST_BE_EMPTY_ON_A_PHONE)."""
    found = measure(page, page_name, titles)
    found.update(measure_phone(page))
    save_screenshot(page, page_name, PHONE)
    return [f"{key}: {found[key][:6]}" for key in MUST_BE_EMPTY_ON_A_PHONE if found[key]]


def _math_problems(page):
    """Every formula typeset when the book was built (no MathJax in the browser), without
    MathJax errors or raw TeX left in the text."""
    problems = []
    loaded = browser_typesetting(page)
    if loaded:
        problems.append(f"MathJax is loaded to typeset in the browser: {loaded[:3]}")
    unrendered = page.evaluate(_UNRENDERED_MATH_JS)
    if unrendered:
        problems.append(f"{len(unrendered)} formula(s) not typeset: {unrendered[:5]}")
    errors = page.evaluate(_MATH_ERRORS_JS)
    if errors:
        problems.append(f"MathJax errors: {errors[:5]}")
    text = page.evaluate(_VISIBLE_TEXT_JS)
    raw = [marker for marker in RAW_TEX_MARKERS if marker in text]
    if raw:
        problems.append(f"raw TeX left in the page text: {raw}")
    if page.locator("mjx-container").count() == 0:
        problems.append("the page has TeX math but no mjx-container")
    return problems


def _check_solution(page, solution):
    """A solution is shown collapsed (title only) and opens when its title is clicked."""
    label = solution.get_attribute("id") or "a solution"
    if solution.evaluate("e => e.tagName") == "DETAILS":
        if solution.evaluate("e => e.open"):
            return [f"{label} is open on load: give it `:class: dropdown`"]
        toggle = solution.locator("summary").first
        body = solution.locator(":scope > :not(summary)").first
    else:
        # sphinx-togglebutton adds a button to the title of a dropdown admonition
        toggle = solution.locator(".toggle-button")
        if toggle.count() == 0:
            toggle = solution.locator(".admonition-title")
        toggle = toggle.first
        body = solution.locator(":scope > :not(.admonition-title):not(button)").first
    if body.count() == 0:
        return [f"{label} has no content"]
    if body.is_visible():
        return [f"{label} is not collapsed: give it `:class: dropdown`"]
    toggle.click()
    try:
        body.wait_for(state="visible", timeout=WAIT_MS)
    except Exception:  # noqa: BLE001 - reported as a page problem
        return [f"{label} does not open when clicked"]
    return []
