"""The formulas typeset when the book is built, not in the reader's browser.

MathJax in the browser took 27 s to typeset Chapter 4's 645 formulas on a mid-range phone
(4x CPU throttling), after 5 s of showing the TeX source. Here MathJax 4 runs once, in Node,
at the end of an HTML build: ``prerender_math.mjs`` (next to this file) replaces the TeX of
every formula in the written pages with the CHTML MathJax draws in a browser, keeping the
hidden MathML that screen readers read (formulas are not Tab stops), and writes one
stylesheet, ``_static/mathjax-chtml.css``, with the @font-face rules of the woff2 fonts the
book serves (``mathjax_prerender_fonts``, a folder of ``_static``).

No page loads MathJax: a page with formulas gets the stylesheet in place of MathJax's script
and its inline configuration. The configuration MathJax reads is still ``mathjax3_config``
(``tex`` macros and packages, ``output``); MathJax's menu (zoom, show the TeX, speech) is
not on the pages, and screen readers read the MathML directly.

Punctuation right after an in-line formula ("," "." ";" ":" ")") is moved
into the formula's container, so that no line starts with it, nor is it
left at the end of the line before when MathJax breaks the formula
(``prerender_math.mjs`` says why a span around both does not do).

Display equations are broken across lines for a phone's column (``mathjax_prerender_widths``)
when they are wider than it, and drawn unbroken for wider columns (the stylesheet picks one
with a container query). Set ``mathjax_prerender: false`` (or ``BOOK_MATH=browser`` in the
environment) to typeset in the browser as before. Other builders (the PDF edition's LaTeX)
are not touched. Needs Node.js and the npm packages of package.json (``mathjax``,
``@mathjax/mathjax-newcm-font``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.util import logging

logger = logging.getLogger(__name__)

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "prerender_math.mjs"
STYLESHEET = "mathjax-chtml.css"
NODE_MODULES = HERE.parents[1] / "node_modules"


def _enabled(app: Sphinx) -> bool:
    return (app.builder.format == "html" and app.config.mathjax_prerender
            and os.environ.get("BOOK_MATH", "") != "browser"
            and getattr(app.builder, "math_renderer_name", None) == "mathjax")


def _is_mathjax(script, app: Sphinx) -> bool:
    """MathJax's own script, or the inline ``window.MathJax = {...}`` that configures it."""
    if script.filename:
        # the builder names a local script by its place in the output: _static/<mathjax_path>
        name = str(script.filename).split("?")[0]
        return name in (app.config.mathjax_path, f"_static/{app.config.mathjax_path}")
    return not script.filename and str(script.attributes.get("body", "")).startswith(
        "window.MathJax =")


def swap_mathjax_for_stylesheet(app: Sphinx, pagename, templatename, context, doctree):
    """A page with formulas loads the typeset formulas' stylesheet instead of MathJax.

    (Runs after sphinx.ext.mathjax has added MathJax's scripts to the pages with math.)
    """
    if not _enabled(app):
        return
    scripts = context.get("script_files")
    if not isinstance(scripts, list):
        return
    kept = [script for script in scripts if not _is_mathjax(script, app)]
    if len(kept) != len(scripts):
        scripts[:] = kept
        app.add_css_file(STYLESHEET)


def typeset(app: Sphinx, exception: Exception | None) -> None:
    """Typeset every formula of the written pages, in one Node process."""
    if exception is not None or not _enabled(app):
        return
    node = shutil.which("node")
    if node is None:
        raise ExtensionError("prerender_math: Node.js (`node`) is needed to typeset the "
                             "formulas; or set BOOK_MATH=browser to typeset them in the browser")
    outdir = Path(app.outdir)
    static = outdir / "_static"
    widths = app.config.mathjax_prerender_widths
    job = {
        "files": sorted(str(path) for path in outdir.rglob("*.html")
                        if "_static" not in path.relative_to(outdir).parts),
        "stylesheet": str(static / STYLESHEET),
        "fontURL": app.config.mathjax_prerender_fonts,
        "mathjax": app.config.mathjax3_config or {},
        "node_modules": str(NODE_MODULES),
        "em": 16,
        "scale": app.config.mathjax_prerender_scale,
        "wide": widths["wide"],
        "narrow": widths["narrow"],
        "step": 8,
    }
    fonts = static / app.config.mathjax_prerender_fonts
    if not fonts.is_dir():
        raise ExtensionError(f"prerender_math: no fonts in {fonts} (is book/_vendor copied?)")
    logger.info("typesetting the formulas with MathJax in Node... ", nonl=True)
    done = subprocess.run([node, str(SCRIPT)], input=json.dumps(job), capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        raise ExtensionError(f"prerender_math: {SCRIPT.name} failed:\n{done.stderr[-3000:]}")
    stats = json.loads(done.stdout.strip().splitlines()[-1])
    logger.info(f"{stats['formulas']} formulas on {stats['pages']} pages "
                f"({stats['twice']} displays also broken for a phone)")
    for error in stats["errors"]:
        logger.warning(f"MathJax could not typeset a formula: {error}", type="prerender_math")


def setup(app: Sphinx) -> dict:
    app.add_config_value("mathjax_prerender", True, "html")
    # The CHTML font files, relative to _static (where the stylesheet is).
    app.add_config_value("mathjax_prerender_fonts",
                         "mathjax-fonts/mathjax-newcm-font/chtml/woff2", "html")
    # The formulas' size against the text's (MathJax in the browser matches the x-heights: the
    # book's font in Chromium on Debian gives 127.3 %).
    app.add_config_value("mathjax_prerender_scale", 1.273, "html")
    # Display equations fit `wide` px (the column at 1280 px); those wider than `narrow` px
    # are also drawn broken across lines for it: a proof's or an exercise's box on a 390 px
    # phone (291 px; the text column is 358 px there, 328 px on a 360 px phone).
    app.add_config_value("mathjax_prerender_widths", {"wide": 688, "narrow": 280}, "html")
    app.connect("html-page-context", swap_mathjax_for_stylesheet, priority=600)
    app.connect("build-finished", typeset)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
