"""The theme's icons from its icon font, without Font Awesome's 1.5 MB script.

pydata-sphinx-theme draws its icons (menu, search, GitHub, download, colour mode) twice over:
its stylesheet has Font Awesome's icon-font rules and @font-face (the woff2 fonts it ships),
and every page also loads ``scripts/fontawesome.js``, which replaces each ``<i class="fa-...">``
with an inline SVG: 1.5 MB of JavaScript (540 kB compressed) that a phone parses and runs on
every page, for the same icons. The script is there "so that users can add custom icons"; the
book has none, so it is taken out of the pages once they are written, and the icons are drawn
by the font. (The theme writes the script into its page template, not through Sphinx's list of
scripts, so it is removed from the written HTML.)
"""

from __future__ import annotations

import re
from pathlib import Path

from sphinx.application import Sphinx

_SCRIPT = re.compile(
    r'[ \t]*<script defer src="[^"]*_static/scripts/fontawesome\.js(?:\?[^"]*)?"></script>\n?')


def drop_icon_script(app: Sphinx, exception: Exception | None) -> None:
    """Remove Font Awesome's script from every page written by an HTML build."""
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    for page in outdir.rglob("*.html"):
        if "_static" in page.relative_to(outdir).parts:
            continue
        html = page.read_text(encoding="utf8")
        kept = _SCRIPT.sub("", html)
        if kept != html:
            page.write_text(kept, encoding="utf8")


def setup(app: Sphinx) -> dict:
    app.connect("build-finished", drop_icon_script)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
