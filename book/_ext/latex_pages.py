"""The PDF edition's title page, proofs, explorer frames and index, set as a book sets them.

Sphinx's LaTeX writer, left to itself, gives the PDF edition a bare title page (title,
authors, the day of the build), sets each proof of sphinx-proof as a note with an empty title
bar and "Proof." as plain text, lets an explorer's note ("Explorer shown at ...") end a page
while its frame starts the next, and lists the glossary's terms a second time in the index
(their entries are written from inside the term's LaTeX argument, which changes their sort
key). For the LaTeX builder only, this module

* builds the title page from the book's own words: the title and authors of ``_config.yml``,
  the subtitle under the title of the landing page (``book/intro.md``), the years of its
  ``copyright`` (the date the HTML's footer gives) and the repository's address;
* sets a proof as the HTML does, under a grey rule on the left with a run-in "Proof." heading,
  and ends it with a square;
* keeps an explorer's note with its frame, scaling the frame down to what is left of the page
  when that avoids leaving half a page blank (``\\bookexplorerframe``);
* writes each glossary term's index entry at the start of its definition, where it gets the
  same sort key as the ``{index}`` entries of the chapters (one index entry per term).

The LaTeX lives in ``book/latex/pdfedition.sty``, which this module loads; the index is set in
the text face there. ``latex_numbers`` loads this module.
"""

from __future__ import annotations

import re
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util import texescape

PACKAGE = "pdfedition"          # book/latex/pdfedition.sty, copied by latex_additional_files
# After the preamble of sphinx-jupyterbook-latex, which loads unicode-math: its set minus
# (U+29F5) is not in Latin Modern Math, and "A \\setminus B" would print as "A B".
AFTER_UNICODE_MATH = "\\AtBeginDocument{\\renewcommand\\setminus{\\mathbin{\\backslash}}}\n"
PROOF_PREFIX = re.compile(r"^Proof\.\s*")
NOTE_CHARS_PER_LINE = 100       # an explorer's note, in the text face across the text block


def _subtitle(app: Sphinx) -> str:
    """The line in italics under the landing page's title (``*...*``), or ""."""
    page = Path(app.srcdir) / f"{app.config.root_doc}.md"
    if not page.exists():
        return ""
    lines = page.read_text(encoding="utf-8").splitlines()
    titles = [i for i, line in enumerate(lines) if line.startswith("# ")]
    for line in lines[titles[0] + 1:] if titles else []:
        if line.strip():
            match = re.fullmatch(r"\*([^*]+)\*", line.strip())
            return match.group(1) if match else ""
    return ""


def title_page_values(app: Sphinx) -> dict:
    """The LaTeX of the title page's date and the macros for its subtitle and address."""
    texescape.init()
    address = (app.config.html_theme_options or {}).get("repository_url", "")
    subtitle = texescape.escape(_subtitle(app), "xelatex")
    preamble = (f"\\renewcommand\\booksubtitle{{{subtitle}}}\n"
                f"\\renewcommand\\bookaddress{{\\url{{{address}}}}}\n" if address else
                f"\\renewcommand\\booksubtitle{{{subtitle}}}\n")
    return {"date": texescape.escape(str(app.config.copyright), "xelatex"),
            "preamble": preamble}


def set_title_page(app: Sphinx) -> None:
    """The title page's date (the copyright's years) and subtitle, for the LaTeX builder (and
    a set minus the math font has)."""
    if app.builder.format != "latex":
        return
    values = title_page_values(app)
    elements = dict(app.config.latex_elements)
    elements.setdefault("date", values["date"])
    elements["preamble"] = elements.get("preamble", "") + values["preamble"] + AFTER_UNICODE_MATH
    app.config.latex_elements = elements
    app.builder.context.update({"date": elements["date"], "preamble": elements["preamble"]})


def _latex(text: str) -> nodes.raw:
    """LaTeX for the LaTeX builder only (the HTML builder skips it)."""
    return nodes.raw("", text, format="latex")


def set_proofs(doctree: nodes.document) -> int:
    """Each sphinx-proof proof: a grey rule on the left, a run-in heading, a closing square.

    The proof's admonition (which the LaTeX writer sets as a note with an empty title bar) is
    replaced by its content between ``\\begin{bookproof}`` and ``\\end{bookproof}``; the
    "Proof. " sphinx-proof puts before the text becomes ``\\bookproofname``. Returns the number
    of proofs.
    """
    from sphinx_proof.nodes import proof_node

    count = 0
    for proof in list(doctree.findall(proof_node)):
        for admonition in [child for child in proof.children
                           if isinstance(child, nodes.admonition)]:
            body = list(admonition.children)
            first = body[0] if body else None
            if (isinstance(first, nodes.paragraph) and first.children
                    and isinstance(first[0], nodes.Text)
                    and PROOF_PREFIX.match(first[0].astext())):
                first.replace(first[0], nodes.Text(PROOF_PREFIX.sub("", first[0].astext())))
                first.insert(0, _latex(r"\bookproofname{}"))
            else:
                body.insert(0, nodes.paragraph("", "", _latex(r"\bookproofname{}")))
            if isinstance(body[-1], nodes.paragraph):
                body[-1].append(_latex(r"\bookqed{}"))
            else:
                body.append(nodes.paragraph("", "", _latex(r"\bookqed{}")))
            admonition.replace_self([_latex(r"\begin{bookproof}"), *body,
                                     _latex(r"\end{bookproof}")])
            count += 1
    return count


def index_glossary_in_definitions(doctree: nodes.document) -> None:
    """Move each glossary term's index entry to the start of its definition.

    In the term, the entry is written from inside the argument of ``\\sphinxlineitem``, where
    TeX adds a space after every command ("0\\sphinxhyphen {}SE rule"): makeindex then sorts it
    apart from the same term's other entries, and the index lists the term twice.
    """
    for term in list(doctree.findall(nodes.term)):
        entries = [child for child in term.children if isinstance(child, addnodes.index)]
        item = term.parent
        definitions = [child for child in item.children if isinstance(child, nodes.definition)]
        if not entries or not definitions:
            continue
        paragraph = definitions[0].next_node(nodes.paragraph)
        for entry in entries:
            term.remove(entry)
            if paragraph is not None:
                entry["inline"] = True
                paragraph.insert(0, entry)
            else:
                entry["inline"] = False
                definitions[0].insert(0, entry)


def _natural_size(app: Sphinx, image: nodes.image) -> tuple[float, float] | None:
    """An image's size in bp as XeTeX draws it: its pixels at its resolution (72 dpi if the
    file gives none), or None if the file cannot be read."""
    from PIL import Image

    path = Path(app.srcdir) / image["uri"].lstrip("/")
    try:
        with Image.open(path) as picture:
            width, height = picture.size
            dpi = picture.info.get("dpi", (72, 72))
    except OSError:
        return None
    return width * 72 / float(dpi[0] or 72), height * 72 / float(dpi[1] or 72)


def keep_explorer_frames(app: Sphinx, doctree: nodes.document) -> int:
    """Keep each explorer's note with its frame (``\\bookexplorerframe``).

    An explorer's static frame (``explorer_frames``) is a PNG output holding the note, then
    any text the frame prints, then its image. The LaTeX put before it gets the height of the
    note and the text (in lines) and the image's natural size, and decides whether the frame
    fits in what is left of the page, should be scaled to fit it, or should start the next
    page; nothing can break the page between the note and the image. Runs when the page is
    read, after ``explorer_frames`` and before myst-nb replaces each output by the content
    of the MIME type the builder takes. Returns the number of frames.
    """
    count = 0
    for output in list(doctree.findall(nodes.container)):
        children = list(output.children)
        images = [child for child in children if isinstance(child, nodes.image)]
        if (output.get("mime_type") != "image/png" or len(images) != 1
                or not isinstance(children[0], nodes.paragraph)):
            continue
        size = _natural_size(app, images[0])
        if size is None:
            continue
        lines = 1 + -(-len(children[0].astext()) // NOTE_CHARS_PER_LINE)
        for child in children:
            if isinstance(child, nodes.literal_block):
                lines += child.astext().count("\n") + 1 + 2     # its lines, its box
        output.clear()
        output.append(_latex(f"\\bookexplorerframe{{{lines}\\baselineskip}}"
                             f"{{{size[0]:.1f}bp}}{{{size[1]:.1f}bp}}"))
        for number, child in enumerate(children):
            if number:
                output.append(_latex(r"\nobreak"))
            output.append(child)
        output.append(_latex(r"\bookexplorerframeend"))
        count += 1
    return count


def keep_explorer_frames_in_latex(app: Sphinx, doctree: nodes.document) -> None:
    """LaTeX: each explorer's note kept with its frame (see keep_explorer_frames)."""
    if app.builder.format == "latex":
        keep_explorer_frames(app, doctree)


def set_latex_pages(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """LaTeX: proofs and glossary index entries set for the PDF edition."""
    if app.builder.format != "latex":
        return
    set_proofs(doctree)
    index_glossary_in_definitions(doctree)


def setup(app: Sphinx) -> dict:
    app.add_latex_package(PACKAGE)
    app.connect("builder-inited", set_title_page)
    app.connect("doctree-read", keep_explorer_frames_in_latex, priority=450)
    app.connect("doctree-resolved", set_latex_pages)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
