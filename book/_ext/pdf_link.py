"""Every page's download menu links to the PDF edition ("Book (PDF)").

``make pdf`` builds the PDF edition and copies it to the top of both HTML editions
(``_build/html/pruning-decision-trees.pdf``); each page's download menu (the theme's, which
offers the page's source and its own PDF) gets a first entry that links to it, with a path
relative to the page, so the link works offline and wherever the book is published. The file
name comes from ``latex_documents`` in ``_config.yml``. An HTML build alone (``make book``)
leaves the link without a target until ``make pdf`` has run.
"""

from __future__ import annotations

from sphinx.application import Sphinx


def pdf_name(config) -> str:
    """The PDF edition's file name, from ``latex_documents`` (``pruning-decision-trees.pdf``)."""
    documents = config.latex_documents
    name = documents[0][1] if documents else "book.tex"
    return name.removesuffix(".tex") + ".pdf"


def link_the_pdf(app, pagename, templatename, context, doctree) -> None:
    """Every page's download menu links to the PDF edition, which ``make pdf`` copies to the
    top of the built HTML (``_build/html/pruning-decision-trees.pdf``)."""
    for button in context.get("header_buttons", []):
        if button.get("label") == "download-buttons":
            button["buttons"].insert(0, {
                "type": "link",
                "url": context["pathto"](pdf_name(app.config), 1),
                "text": "Book (PDF)",
                "tooltip": "The whole book as a PDF, without the exercises' solutions",
                "icon": "fas fa-book",
                "label": "download-book-pdf-button",
            })


def setup(app: Sphinx) -> dict:
    app.connect("html-page-context", link_the_pdf, priority=600)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
