"""Open every page of the built book in headless Chromium and check that it renders.

For each page listed in _toc.yml:

* math: every TeX formula is typeset by MathJax (an ``mjx-container``), with no MathJax error
  and no raw ``\\(`` / ``$$`` left in the visible text;
* images: every ``<img>`` loaded (``naturalWidth > 0``);
* widgets: every saved widget view is drawn by the widget manager;
* network: no request for the book's own files fails, and no other host is contacted
  (the page is loaded with every outside request blocked, as on a machine with no network);
* solutions: every sphinx-exercise solution is collapsed and opens on a click;
* no JavaScript error is thrown.

Needs the built book (`make book`) and Chromium (`make chromium`).
"""

from urllib.parse import urlsplit

import pytest
from layout import WAIT_MS

pytestmark = pytest.mark.browser


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

_BROKEN_IMAGES_JS = """
async () => {
  const images = Array.from(document.images);
  images.forEach(img => { if (img.loading === 'lazy') img.loading = 'eager'; });
  await Promise.all(images.map(img => img.complete ? null : new Promise(done => {
    img.addEventListener('load', done);
    img.addEventListener('error', done);
    setTimeout(done, 10000);
  })));
  return images.filter(img => !(img.naturalWidth > 0)).map(img => img.getAttribute('src'));
}
"""

# A widget view is a <script type="application/vnd.jupyter.widget-view+json"> in the page; the
# widget manager draws the widget next to it, in the same output area.
_WIDGET_VIEWS_JS = """
() => {
  const views = Array.from(document.querySelectorAll(
    'script[type="application/vnd.jupyter.widget-view+json"]'));
  const drawn = views.filter(s => s.parentElement && s.parentElement.querySelector(
    '.jupyter-widgets, [class^="widget-"], [class*=" widget-"]'));
  return [views.length, drawn.length];
}
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
    seen = {"outside": [], "failed": [], "errors": []}

    def route(route):
        url = route.request.url
        if url.startswith(("http:", "https:")) and not _is_same_origin(url, book_url):
            seen["outside"].append(url)
            route.abort()
        else:
            route.continue_()

    def on_response(response):
        # The browser asks for /favicon.ico on its own; the book need not have one.
        if urlsplit(response.url).path == "/favicon.ico":
            return
        if response.status >= 400 and _is_same_origin(response.url, book_url):
            seen["failed"].append(f"{response.status} {response.url}")

    def on_request_failed(request):
        if urlsplit(request.url).path == "/favicon.ico":
            return
        if _is_same_origin(request.url, book_url) and not any(
            request.url in failure for failure in seen["failed"]
        ):
            seen["failed"].append(f"{request.failure} {request.url}")

    def on_page_error(error):
        seen["errors"].append(str(error))

    page.route("**/*", route)
    page.on("response", on_response)
    page.on("requestfailed", on_request_failed)
    page.on("pageerror", on_page_error)
    page.goto(f"{book_url}/{page_name}.html", wait_until="load")
    return page, seen


def _wait_for_mathjax(page):
    page.wait_for_function(
        "() => !!(window.MathJax && MathJax.startup && MathJax.startup.promise)",
        timeout=WAIT_MS,
    )
    page.evaluate("() => MathJax.startup.promise.then(() => true)")


def test_page_renders(browser, book_url, built_book, page_name):
    html_file = built_book / f"{page_name}.html"
    assert html_file.is_file(), f"{page_name}.html was not built: run `make book`"
    source = html_file.read_text(encoding="utf8")

    page, seen = _load(browser, book_url, page_name)
    problems = []
    try:
        # (a) math
        if 'class="math notranslate' in source:
            try:
                _wait_for_mathjax(page)
            except Exception as exc:  # noqa: BLE001 - reported below with the page name
                problems.append(f"MathJax did not start: {exc}")
            else:
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

        # (b) images
        broken = page.evaluate(_BROKEN_IMAGES_JS)
        if broken:
            problems.append(f"images that did not load: {broken}")

        # (c) widgets
        if "application/vnd.jupyter.widget-view+json" in source:
            try:
                page.wait_for_function(
                    f"() => {{ const [n, drawn] = ({_WIDGET_VIEWS_JS})(); return drawn === n; }}",
                    timeout=WAIT_MS,
                )
            except Exception:  # noqa: BLE001 - reported below with the counts
                views, drawn = page.evaluate(_WIDGET_VIEWS_JS)
                problems.append(f"only {drawn} of {views} widget views were drawn")

        # (e) solutions collapsed until clicked
        solutions = page.locator(".solution")
        for i in range(solutions.count()):
            problems.extend(_check_solution(page, solutions.nth(i)))

        # (d) network, after everything above had the chance to load
        page.wait_for_load_state("networkidle")
        if seen["failed"]:
            problems.append(f"failed requests for the book's own files: {seen['failed']}")
        if seen["outside"]:
            problems.append(f"requests to other hosts (blocked): {seen['outside']}")
        if seen["errors"]:
            problems.append(f"JavaScript errors: {seen['errors']}")
    finally:
        page.context.close()

    assert not problems, f"{page_name}.html:\n  " + "\n  ".join(problems)


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
