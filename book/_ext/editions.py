"""The book's two editions: the full edition and the student edition, without solutions.

``BOOK_EDITION=student`` (``make book EDITION=student``) builds the student edition:
sphinx-exercise drops every solution (its ``hide_solutions`` setting), so a teacher can publish
the book during a course without the answers. The default edition, ``full``, keeps them,
collapsed. The edition is the configuration value ``book_edition``, and the page templates
see it as ``book_edition``. Any other value of ``BOOK_EDITION`` stops the build.
"""

from __future__ import annotations

import os

from sphinx.application import Sphinx

EDITIONS = ("full", "student")


def choose_edition(app: Sphinx, config) -> None:
    """``BOOK_EDITION=student``: build without solutions."""
    edition = os.environ.get("BOOK_EDITION", "full") or "full"
    if edition not in EDITIONS:
        raise ValueError(f"BOOK_EDITION must be one of {EDITIONS}, got {edition!r}")
    config.book_edition = edition
    if edition == "student":
        config.hide_solutions = True


def add_edition_to_context(app, pagename, templatename, context, doctree) -> None:
    """Tell the templates which edition this is."""
    context["book_edition"] = app.config.book_edition


def setup(app: Sphinx) -> dict:
    app.add_config_value("book_edition", "full", "env")
    app.connect("config-inited", choose_edition)
    app.connect("html-page-context", add_edition_to_context)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
