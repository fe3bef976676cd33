"""Navigation aids of the built book: generated pages in the sidebar, bibliography labels
that read as the names do, and links from every reference back to where it is cited.

* **Generated pages in the sidebar.** The index (``genindex``) and the list of results
  (sphinx-proof's ``prf-prf``) are written by Sphinx, not read from a file, so _toc.yml cannot
  name them (a ``file:`` must exist, a ``url:`` must be absolute, which breaks offline).
  ``toc_generated_pages`` maps a part's caption in _toc.yml to the generated pages added at
  its end, e.g. ``{"Back matter": ["genindex", "prf-prf"]}``.
* **Bibliography labels.** pybtex's ``alpha`` labels are cut from the raw BibTeX names, so
  ``Dem{\\v{s}}ar`` gives "Demvsar06" and ``Gy{\\"o}rfi`` "DGyorfiL96". The ``alpha_plain``
  style decodes the LaTeX accents and drops them first, and uses the last names without
  their "von" part: "Dem06", "DGL96", "LWD23" (van der Linden, de Weerdt and Demirović).
* **Cited in.** sphinxcontrib-bibtex links a bibliography entry back to its citations only
  when they are on the same page. Every entry gets a "Cited in" line linking each citation in
  the book, grouped by page ("Chapter 2 (1, 2)").
* **Previous and Next in reading order.** Sphinx links each page to the one before and after
  it in the table of contents, where the exercise pages form a part of their own after the
  chapters (a part of their own keeps the chapters' numbers, see _toc.yml); but the chapters
  send the reader on to their exercises first ("Next: Exercises for Chapter 2, then Chapter
  3"). ``read_after`` maps a folder to another, e.g. ``{"exercises/": "chapters/"}``: a page of
  the first comes right after the page of the same name in the second, for the Previous and
  Next buttons and the page's ``<link rel="prev/next">``; the sidebar keeps the toc's order.
"""

from __future__ import annotations

import codecs
import unicodedata
from collections import defaultdict

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.domains.std import StandardDomain

# Generated pages a toc part may list, with the title the sidebar shows.
GENERATED_TITLES = {"genindex": "Index", "prf-prf": "List of results"}


def plain_name(latex: str) -> str:
    """A BibTeX name as plain ASCII letters: ``Gy{\\"o}rfi`` -> ``Gyorfi``."""
    import latexcodec  # noqa: F401, PLC0415 - registers the "ulatex" codec

    text = codecs.decode(latex, "ulatex").replace("{", "").replace("}", "")
    return "".join(c for c in unicodedata.normalize("NFKD", text)
                   if not unicodedata.combining(c))


def register_plain_alpha_style() -> None:
    """Register the pybtex formatting style ``alpha_plain`` (alpha, with plain names)."""
    from pybtex.database import Person  # noqa: PLC0415
    from pybtex.plugin import register_plugin  # noqa: PLC0415
    from pybtex.style.formatting.alpha import Style as AlphaStyle  # noqa: PLC0415
    from pybtex.style.labels.alpha import LabelStyle as AlphaLabelStyle  # noqa: PLC0415

    class PlainAlphaLabelStyle(AlphaLabelStyle):
        """pybtex's alpha labels, computed from the names without LaTeX accents."""

        def format_lab_names(self, persons):
            # the last names alone, as the labels are read ("van der Linden" gives L)
            return super().format_lab_names(
                [Person(last=plain_name(" ".join(p.last_names))) for p in persons])

    class PlainAlphaStyle(AlphaStyle):
        default_label_style = "alpha_plain"

    register_plugin("pybtex.style.labels", "alpha_plain", PlainAlphaLabelStyle, force=True)
    register_plugin("pybtex.style.formatting", "alpha_plain", PlainAlphaStyle, force=True)


def register_plain_text_backend() -> None:
    """Register pybtex's plain-text backend as a runtime plugin, the same class its entry
    point names. sphinxcontrib-bibtex looks the backend up at every citation, and pybtex finds
    an installed plugin by reading every package's entry points, about 10 ms a time (the book
    cites about 275 times); a runtime plugin is found first, at once."""
    from pybtex.backends.plaintext import Backend  # noqa: PLC0415
    from pybtex.plugin import register_plugin  # noqa: PLC0415

    register_plugin("pybtex.backends", "plaintext", Backend, force=True)


def add_generated_pages(app: Sphinx, doctree: nodes.document) -> None:
    """Append the pages of ``toc_generated_pages`` to their parts of the root toctree."""
    if app.env.docname != app.config.root_doc:
        return
    wanted = dict(app.config.toc_generated_pages)
    for toctree in doctree.findall(addnodes.toctree):
        for docname in wanted.pop(toctree.get("caption"), []):
            if docname not in GENERATED_TITLES:
                raise ValueError(f"toc_generated_pages: unknown generated page {docname!r}; "
                                 f"known: {sorted(GENERATED_TITLES)}")
            toctree["entries"].append((GENERATED_TITLES[docname], docname))
    if wanted:
        raise ValueError(f"toc_generated_pages: no toc part with caption {sorted(wanted)}")


def _reading_order(env) -> list[str]:
    """Every document in the order of the table of contents."""
    order: list[str] = []

    def walk(docname):
        if docname in order:
            return
        order.append(docname)
        for child in env.toctree_includes.get(docname, []):
            walk(child)

    walk(env.config.root_doc)
    return order


def page_name(env, docname: str) -> str:
    """"Chapter 2", "Appendix A", or the page's title."""
    number = env.toc_secnumbers.get(docname, {}).get("")
    if number:
        kind = "Appendix" if isinstance(number[0], str) else "Chapter"
        return f"{kind} {number[0]}"
    title = env.titles.get(docname)
    return title.astext() if title is not None else docname


def _cited_in(app, docname: str, places: list[tuple[str, str]]) -> nodes.paragraph:
    """The "Cited in" line of one entry: ``places`` are (citing page, citation id)."""
    by_page = defaultdict(list)
    for page, ref_id in places:
        by_page[page].append(ref_id)
    order = _reading_order(app.env)
    pages = sorted(by_page, key=lambda p: order.index(p) if p in order else len(order))
    para = nodes.paragraph(classes=["cited-in"])
    para += nodes.Text("Cited in ")
    for i, page in enumerate(pages):
        if i:
            para += nodes.Text(", ")
        uri = app.builder.get_relative_uri(docname, page)
        ids = by_page[page]
        para += nodes.reference("", page_name(app.env, page), internal=True,
                                refuri=f"{uri}#{ids[0]}")
        if len(ids) > 1:
            para += nodes.Text(" (")
            for n, ref_id in enumerate(ids, start=1):
                if n > 1:
                    para += nodes.Text(", ")
                para += nodes.reference("", str(n), internal=True, refuri=f"{uri}#{ref_id}")
            para += nodes.Text(")")
    para += nodes.Text(".")
    return para


def add_cited_in(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Give every bibliography entry on this page its "Cited in" line (HTML only)."""
    if app.builder.format != "html":
        return
    domain = app.env.get_domain("cite")
    key_of = {citation.citation_id: citation.key for citation in domain.citations}
    places = defaultdict(list)
    for ref in domain.citation_refs:
        for target in ref.targets:
            places[target.key].append((ref.docname, ref.citation_ref_id))
    for citation in doctree.findall(nodes.citation):
        keys = [key_of[i] for i in citation["ids"] if i in key_of]
        if keys and places.get(keys[0]):
            citation += _cited_in(app, docname, places[keys[0]])


def previous_next_order(app: Sphinx) -> list[str]:
    """The pages in the order Previous and Next follow: the toc's, with each page of a folder
    of ``read_after`` moved right after the page of the same name in the folder it follows."""
    relations = app.builder.relations
    order, docname, seen = [], app.config.root_doc, set()
    while docname and docname not in seen:
        seen.add(docname)
        order.append(docname)
        docname = relations.get(docname, (None, None, None))[2]
    for folder, after in app.config.read_after.items():
        for docname in [d for d in order if d.startswith(folder)]:
            chapter = after + docname[len(folder):]
            if chapter in order:
                order.remove(docname)
                order.insert(order.index(chapter) + 1, docname)
    return order


def set_previous_next(app: Sphinx, pagename: str, templatename: str, context: dict,
                      doctree) -> None:
    """Give the page the Previous and Next of :func:`previous_next_order`."""
    relations = getattr(app.builder, "relations", {})
    if not app.config.read_after or doctree is None or pagename not in relations:
        return
    order = previous_next_order(app)
    if pagename not in order:
        return
    index = order.index(pagename)
    near = {"prev": order[index - 1] if index > 0 else None,
            "next": order[index + 1] if index + 1 < len(order) else None}
    rellinks = [link for link in context.get("rellinks", []) if link[2] not in ("N", "P")]
    for key, code, label in (("next", "N", "next"), ("prev", "P", "previous")):
        docname = near[key]
        if docname is None or docname not in app.env.titles:
            context[key] = None
            continue
        context[key] = {"link": app.builder.get_relative_uri(pagename, docname),
                        "title": app.builder.render_partial(app.env.titles[docname])["title"]}
        rellinks.append((docname, context[key]["title"], code, label))
    context["rellinks"] = rellinks


def setup(app: Sphinx) -> dict:
    app.add_config_value("toc_generated_pages", {}, "env")
    app.add_config_value("read_after", {}, "html")
    StandardDomain._virtual_doc_names.setdefault("prf-prf", ("prf-prf", "List of results"))
    register_plain_alpha_style()
    register_plain_text_backend()
    app.connect("doctree-read", add_generated_pages, priority=400)
    app.connect("doctree-resolved", add_cited_in)
    app.connect("html-page-context", set_previous_next)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
