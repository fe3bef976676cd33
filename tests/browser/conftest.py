"""Fixtures for the browser test: the built book served over HTTP, and headless Chromium.

The book must have been built first (`make book`); `make test` does that before this test.
The browser is Debian's chromium (`make chromium`), driven by Playwright; set the CHROMIUM
environment variable to use another Chromium binary.
"""

import os
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
BUILD_DIR = ROOT / "_build" / "html"
SCREENSHOTS = ROOT / "_build" / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _toc_files(entry):
    """Every `file:` (and the `root:`) named in a _toc.yml structure, in order."""
    if isinstance(entry, dict):
        for key, value in entry.items():
            if key in ("root", "file"):
                yield str(value)
            else:
                yield from _toc_files(value)
    elif isinstance(entry, list):
        for item in entry:
            yield from _toc_files(item)


def book_pages():
    """The pages of the book as listed in _toc.yml, e.g. "book/intro", "chapters/01-...".

    Only the pages in the table of contents are built, so this is every page a reader can reach
    (the generated genindex.html and search.html are not part of it).
    """
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf8"))
    pages = []
    for name in _toc_files(toc):
        name = os.path.splitext(name)[0]
        if name not in pages:
            pages.append(name)
    return pages


def pytest_generate_tests(metafunc):
    if "page_name" in metafunc.fixturenames:
        metafunc.parametrize("page_name", book_pages())


@pytest.fixture(scope="session")
def built_book():
    if not (BUILD_DIR / "index.html").is_file():
        pytest.fail(f"{BUILD_DIR} does not exist or is incomplete: run `make book` first",
                    pytrace=False)
    return BUILD_DIR


@pytest.fixture(scope="session")
def titles(built_book):
    """The book's chapter and section titles (what a cross-reference must not bare)."""
    from layout import titles_of

    return titles_of(built_book)


def save_screenshot(page, page_name, width):
    """With BOOK_SCREENSHOTS=1 in the environment, keep a full-page screenshot in
    _build/screenshots/<width>/, to look at after a change (a long page takes seconds)."""
    if os.environ.get("BOOK_SCREENSHOTS") != "1":
        return
    shot = SCREENSHOTS / str(width) / f"{page_name.replace('/', '__')}.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shot), full_page=True)


@pytest.fixture(scope="session")
def book_url(built_book):
    """Base URL of a local HTTP server on a free port serving _build/html."""
    from layout import serve

    server, url = serve(built_book)
    yield url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser():
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"no Chromium at {CHROMIUM}: run `make chromium` (or set CHROMIUM)",
                    pytrace=False)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        yield browser
        browser.close()


def pytest_terminal_summary(terminalreporter):
    """After the run, the moderate and minor axe-core violations the page visits counted
    (test_book_pages.py fails on critical and serious ones only), summed over the pages, with
    the first pages they were found on."""
    totals, pages = {}, {}
    for outcome in ("passed", "failed"):
        for report in terminalreporter.stats.get(outcome, []):
            for name, counts in getattr(report, "user_properties", []):
                if name != "axe_counts":
                    continue
                page = report.nodeid.partition("[")[2].rstrip("]")
                for key, count in counts.items():
                    totals[key] = totals.get(key, 0) + count
                    pages.setdefault(key, []).append(page)
    if not totals:
        return
    terminalreporter.section("axe-core: moderate and minor violations (not failed)")
    for key in sorted(totals):
        found = sorted(pages[key])
        more = f" and {len(found) - 3} more" if len(found) > 3 else ""
        terminalreporter.write_line(f"{key}: {totals[key]} node(s) on {len(found)} page(s): "
                                    f"{', '.join(found[:3])}{more}")
