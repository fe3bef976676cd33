"""Small Sphinx additions that make the built book read like a textbook.

* **Lettered appendices.** The appendix pages are not numbered chapters, so Sphinx would number
  their results "Theorem 1" (the same words as a chapter's "Theorem 1.1" or a paper's
  "Theorem 1"). Each page named in ``appendix_letters`` gets its letter instead: results
  "Theorem A.1", sections "A.2", and ``{numref}`Appendix %s <label>``` reads "Appendix A".
* **The proof index by title.** sphinx-proof's index lists results by their labels
  (``ch2-lem-lattice``); here it lists "Lemma 2.1 — The lattice of prunings", grouped by chapter.
* **Editions.** ``BOOK_EDITION=student`` builds the student edition: sphinx-exercise drops
  every solution (``hide_solutions``), so a teacher can publish the book during a course
  without the answers. The default edition keeps them, collapsed.
* **Public names in the Library reference.** Docstrings refer to ``prunekit.Tree`` (what a
  user types); the reference documents it where it is defined (``prunekit.tree.Tree``). A
  reference to a name that ``prunekit`` (or one of its modules) re-exports is resolved to the
  object's own documented path. Members a class inherits from another library (scikit-learn's
  ``set_params``) are left out.
* **Each script once.** sphinx-thebe and sphinx-togglebutton register their inline
  configuration twice (their handlers run on an event that fires twice), which makes every page
  throw "Identifier 'THEBE_JS_URL' has already been declared"; repeated scripts are dropped.
* **The PDF edition.** A widget cannot run on paper: each explorer (``pdtbook.explorer``)
  is given, next to its widget, the frame its sliders start at, read from the widget state the
  notebook stores, with the sliders' settings in words; the LaTeX builder picks that image,
  the HTML builder the widget. Chapters, appendix, results and exercises are numbered as in
  the HTML; long tables get column widths so that their cells wrap; SVG figures are converted
  to PDF with ``rsvg-convert``; an equation's ``\\tag{..}`` is moved out of the ``split``
  environment Sphinx wraps it in. Every page's download menu links to the PDF.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import os
import re
import shutil
import subprocess
from collections import defaultdict
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.transforms.post_transforms.images import ImageConverter

EDITIONS = ("full", "student")


def _letter_numbers(numbers: dict, letter: str) -> dict:
    """``{id: (1,)} -> {id: ("A", 1)}`` (and ``(1, 2) -> ("A", 1, 2)``)."""
    return {key: (letter, *value) for key, value in numbers.items()}


def letter_appendices(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Give every appendix page its letter in section and result numbers.

    Runs after Sphinx has numbered sections and figures (``env-get-updated``), so the numbers
    it rewrites are the final ones; returns no extra documents to write.
    """
    for docname, letter in app.config.appendix_letters.items():
        if docname not in env.found_docs:
            continue
        fignumbers = env.toc_fignumbers.get(docname, {})
        env.toc_fignumbers[docname] = {
            figtype: _letter_numbers(numbers, letter) for figtype, numbers in fignumbers.items()
        }
        env.toc_secnumbers[docname] = _section_numbers(env, docname, letter)
    return []


def _section_numbers(env: BuildEnvironment, docname: str, letter: str) -> dict:
    """"A" for the page itself and "A.1", "A.2", ... for its sections, by anchor."""
    numbers = {}
    toc = env.tocs.get(docname)
    if toc is None:
        return numbers

    def walk(node, prefix):
        count = 0
        for item in node.children:
            if not isinstance(item, nodes.list_item):
                continue
            count += 1
            reference = item.next_node(nodes.reference)
            anchor = reference["anchorname"] if reference is not None else ""
            number = prefix + (count,) if prefix else (letter,)
            numbers[anchor] = number
            reference["secnumber"] = number
            for sub in item.children:
                if isinstance(sub, nodes.bullet_list):
                    walk(sub, number)

    walk(toc, ())
    return numbers


def record_proof_titles(app: Sphinx, doctree: nodes.document) -> None:
    """Keep each sphinx-proof result's title next to its label, for the proof index."""
    proofs = getattr(app.env, "proof_list", {})
    for node in doctree.findall(nodes.Element):
        label = node.get("label") if "realtype" in node.attributes else None
        if label in proofs:
            title = str(node.get("title", "")).strip()
            proofs[label]["title"] = re.sub(r"^\((.*)\)$", r"\1", title).strip()


def _chapter_of(env: BuildEnvironment, docname: str, numbers: tuple) -> str:
    """The group a result is listed under: "Chapter 4", "Appendix A", or the page title."""
    if numbers and isinstance(numbers[0], str):
        return f"Appendix {numbers[0]}"
    if len(numbers) > 1:
        return f"Chapter {numbers[0]}"
    title = env.titles.get(docname)
    return title.astext() if title is not None else docname


def proof_index_entries(env: BuildEnvironment) -> list:
    """The proof index: (group, [entries]) sorted by chapter and number."""
    groups = defaultdict(list)
    for label, info in getattr(env, "proof_list", {}).items():
        docname = info["docname"]
        realtype = info["realtype"]
        if realtype == "proof" or label.startswith(f"{realtype}-"):
            continue  # proofs, and results without a label, are not listed
        numbers = env.toc_fignumbers.get(docname, {}).get(info["countertype"], {}).get(label, ())
        number = ".".join(map(str, numbers))
        name = f"{realtype.title()} {number}".strip()
        title = info.get("title", "")
        if title:
            name = f"{name} — {title}"
        group = _chapter_of(env, docname, numbers)
        key = tuple((0, n) if isinstance(n, int) else (1, str(n)) for n in numbers)
        groups[group].append((key, (name, 0, docname, label, "", "", realtype)))

    def group_key(item):
        entries = item[1]
        return min(key for key, _ in entries)

    return [(group, [entry for _, entry in sorted(entries)])
            for group, entries in sorted(groups.items(), key=group_key)]


def _proof_index_class():
    from sphinx_proof.domain import ProofIndex

    class TitledProofIndex(ProofIndex):
        """sphinx-proof's index, with each result's number and title instead of its label."""

        localname = "List of results"

        def generate(self, docnames=None):
            return proof_index_entries(self.domain.env), False

    return TitledProofIndex


def use_titled_proof_index(app: Sphinx) -> None:
    """Replace sphinx-proof's index (the domain object already exists at this point)."""
    app.env.get_domain("prf").indices = [_proof_index_class()]


def choose_edition(app: Sphinx, config) -> None:
    """``BOOK_EDITION=student``: build without solutions."""
    edition = os.environ.get("BOOK_EDITION", "full") or "full"
    if edition not in EDITIONS:
        raise ValueError(f"BOOK_EDITION must be one of {EDITIONS}, got {edition!r}")
    config.book_edition = edition
    if edition == "student":
        config.hide_solutions = True


def _once(entries: list, key) -> list:
    """``entries`` without repeats (by ``key``), in their order."""
    kept, seen = [], set()
    for entry in entries:
        if key(entry) not in seen:
            seen.add(key(entry))
            kept.append(entry)
    return kept


def _script_key(script) -> tuple:
    """What makes two scripts the same (an inline script's file name is None or "")."""
    return (script.filename or "", tuple(sorted(script.attributes.items())))


def each_script_once(app, pagename, templatename, context, doctree) -> None:
    """Drop repeated scripts from the page (run last: earlier handlers add scripts too)."""
    scripts = context.get("script_files")
    if isinstance(scripts, list):
        scripts[:] = _once(scripts, _script_key)


def add_edition_to_context(app, pagename, templatename, context, doctree) -> None:
    """Tell the templates which edition this is."""
    context["book_edition"] = app.config.book_edition


def _defining_path(target: str) -> str | None:
    """``prunekit.Tree`` -> ``prunekit.tree.Tree``: where a re-exported name is defined, or
    ``None`` when ``target`` is not a prunekit name that can be found that way."""
    import importlib

    parts = target.split(".")
    if parts[0] != "prunekit":
        return None
    for split in range(len(parts) - 1, 0, -1):        # the longest importable module first
        module_name = ".".join(parts[:split])
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        obj = getattr(module, parts[split], None)
        home = getattr(obj, "__module__", None)
        if home is None or home == module_name:
            return None
        return ".".join([home, *parts[split:]])
    return None


def resolve_public_names(app, env, node, contnode):
    """Resolve a Python reference to a re-exported prunekit name at its defining module; a
    reference relative to the package (``Tree.node_counts``) is read as ``prunekit.Tree...``."""
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "")
    path = _defining_path(target) or _defining_path(f"prunekit.{target}")
    if path is None:
        return None
    domain = env.get_domain("py")
    role = node.get("reftype")
    for objtype in domain.objtypes_for_role(role) or ():
        found = domain.objects.get(path)
        if found is not None and found.objtype == objtype:
            return domain.resolve_xref(env, node["refdoc"], app.builder, role, path, node,
                                       contnode)
    return None


_LITERAL = re.compile(r"(``.*?``|:[\w:]+:`[^`]*`)")        # literals and roles
_CHAPTER = re.compile(r"\bChapter (\d+)\b")
_CHAPTERS = re.compile(r"\bChapters ((?:\d+(?:, | and |-))+\d+)\b")
_NUMBER = re.compile(r"\d+")
# A trailing underscore makes a word a reference in reStructuredText ("n_+", "R_n ..."), and
# |...| a substitution; docstrings use both as plain notation (|T|, n_+), so they are escaped
# outside literals.
_BAR = re.compile(r"\|")
_TRAILING_UNDERSCORE = re.compile(r"(?<=\w)_(?=[\s+\-,.;:)]|$)")


def _escape_notation(line: str) -> str:
    parts = _LITERAL.split(line)
    for i in range(0, len(parts), 2):            # the even parts lie outside ``literals``
        part = _BAR.sub(r"\\|", parts[i])
        part = _TRAILING_UNDERSCORE.sub(r"\\_", part)
        part = _CHAPTERS.sub(lambda m: "Chapters " + _NUMBER.sub(
            r":numref:`%s <chapter-\g<0>>`", m.group(1)), part)
        parts[i] = _CHAPTER.sub(r":numref:`Chapter %s <chapter-\1>`", part)
    return "".join(parts)


def escape_docstring_notation(app, what, name, obj, options, lines) -> None:
    """Let docstrings write |T| and n_+ as the papers do: escape them for reStructuredText,
    except in ``literals``, roles, literal blocks (after ``::``) and directives; and link
    every "Chapter N" to the chapter."""
    in_block, block_indent = False, 0
    for i, line in enumerate(lines):
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if in_block:
            if stripped and indent <= block_indent:
                in_block = False
            else:
                continue
        if stripped.endswith("::") or stripped.startswith(".. "):
            in_block, block_indent = True, indent
        lines[i] = _escape_notation(line)


def skip_foreign_members(app, what, name, obj, skip, options):
    """Leave out of the reference the members a prunekit class inherits from another library
    (scikit-learn's ``set_params``, ``set_fit_request``, ...; a named tuple's field getters,
    which its docstring's Attributes section already describes)."""
    if what != "class":
        return None
    target = getattr(obj, "fget", obj)                 # a property: its getter
    home = getattr(target, "__module__", None)
    if home is None or not home.startswith("prunekit"):
        return True
    return None


# ---------------------------------------------------------------------------------------------
# The PDF edition

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
_MODEL_ID = re.compile(r'"model_id":\s*"([0-9a-f]+)"')
_TAGS = re.compile(r"<[^>]+>")


def _widget_state(env: BuildEnvironment, docname: str) -> dict:
    """The widget models a notebook stores in its metadata, by model id ({} if none)."""
    path = Path(env.doc2path(docname))
    if path.suffix != ".ipynb":
        return {}
    metadata = json.loads(path.read_text(encoding="utf-8")).get("metadata", {})
    return metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})


def _child(reference: str) -> str:
    return reference.removeprefix("IPY_MODEL_")


def static_frame(state: dict, model_id: str, settings: list, parts: list) -> None:
    """Walk a widget from its model id as the page first shows it.

    Appends to ``settings`` each slider's ``(description, label)`` and to ``parts`` what is
    visible, in order: ``("image", png_bytes)`` and ``("text", str)``. A Stack shows only
    its selected child, a box all of its children.
    """
    model = state.get(model_id)
    if model is None:
        return
    name, values = model["model_name"], model["state"]
    if name == "StackModel":
        children = values.get("children", [])
        if children:
            index = values.get("selected_index") or 0
            static_frame(state, _child(children[index]), settings, parts)
    elif name in ("VBoxModel", "HBoxModel", "BoxModel", "GridBoxModel"):
        for child in values.get("children", []):
            static_frame(state, _child(child), settings, parts)
    elif name in ("SelectionSliderModel", "IntSliderModel", "FloatSliderModel"):
        labels = values.get("_options_labels")
        label = labels[values["index"]] if labels else values.get("value")
        settings.append((values.get("description", ""), str(label)))
    elif name == "ImageModel":
        for buffer in model.get("buffers", []):
            if buffer.get("path") == ["value"]:
                parts.append(("image", base64.b64decode(buffer["data"])))
    elif name == "HTMLModel":
        text = html.unescape(_TAGS.sub("", values.get("value", ""))).strip("\n")
        if text:
            parts.append(("text", text))


def _frame_nodes(app: Sphinx, settings: list, parts: list) -> list:
    """The docutils nodes of a static frame: the sliders' settings, then text and images."""
    where = ", ".join(f"{description} = {label}" for description, label in settings)
    note = nodes.paragraph()
    note += nodes.emphasis(text=f"Explorer shown at {where}. On the web page or in the "
                                "notebook, its sliders show every other value.")
    out = [note]
    folder = Path(app.env.mystnb_config.output_folder)
    for kind, content in parts:
        if kind == "text":
            out.append(nodes.literal_block(content, content))
            continue
        path = folder / f"{hashlib.sha256(content).hexdigest()}.png"
        if not path.exists():
            folder.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
        uri = "/" + os.path.relpath(path.resolve(), app.srcdir)
        out.append(nodes.image(uri=uri, alt=f"The explorer's figure at {where}"))
    return out


def add_static_frames(app: Sphinx, doctree: nodes.document) -> None:
    """Give every widget output a PNG alternative: the frame the widget first shows.

    myst-nb keeps every MIME type of an output and lets each builder pick one (HTML: the
    widget; LaTeX: a PNG). Runs before Sphinx collects the images of the page.
    """
    bundles = [node for node in doctree.findall(nodes.container)
               if node.get("nb_element") == "mime_bundle"]
    state = None
    for bundle in bundles:
        types = {child.get("mime_type"): child for child in bundle.children}
        if WIDGET_VIEW not in types or "image/png" in types:
            continue
        found = _MODEL_ID.search(types[WIDGET_VIEW].astext())
        if found is None:
            continue
        if state is None:
            state = _widget_state(app.env, app.env.docname)
        settings, parts = [], []
        static_frame(state, found.group(1), settings, parts)
        if not any(kind == "image" for kind, _ in parts):
            continue
        png = nodes.container(mime_type="image/png")
        png.extend(_frame_nodes(app, settings, parts))
        bundle.append(png)


class SvgToPdf(ImageConverter):
    """SVG figures in the PDF edition, converted with librsvg's ``rsvg-convert`` (vector
    output; Sphinx's own converter needs ImageMagick and gives a bitmap)."""

    default_priority = 199                      # before sphinx.ext.imgconverter (200)
    conversion_rules = [("image/svg+xml", "application/pdf")]

    def is_available(self) -> bool:
        return shutil.which("rsvg-convert") is not None

    def convert(self, _from: str, _to: str) -> bool:
        subprocess.run(["rsvg-convert", "-f", "pdf", "-o", _to, _from], check=True)
        return True


_TAG = re.compile(r"\\tag\*?\{[^{}]*\}")


def tags_outside_split(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """LaTeX: an unlabelled display equation with ``\\tag{18.1}`` (a paper's own number).

    Sphinx writes ``\\begin{equation*}\\begin{split} ... \\end{split}\\end{equation*}``, where
    amsmath does not allow ``\\tag``; the tag is moved after the ``split``.
    """
    if app.builder.format != "latex":
        return
    for node in doctree.findall(nodes.math_block):
        text = node.astext()
        tags = _TAG.findall(text)
        if node.get("nowrap") or node.get("label") or len(tags) != 1:
            continue
        body = _TAG.sub("", text).strip()
        wrapped = ("\\begin{equation*}\n\\begin{split}" + body + "\\end{split}"
                   + tags[0] + "\n\\end{equation*}")
        node.children = [nodes.Text(wrapped)]
        node["nowrap"] = True


def _proof_document(env, node):
    """The page a sphinx-proof result is on (sphinx-proof's own lookup compares the page title
    with the section's names and fails on titles with punctuation, as Chapter 8's)."""
    while node is not None:
        if node.get("docname"):
            return node["docname"]
        node = node.parent
    return None


def _latex_numbering(app: Sphinx, docname: str) -> str:
    """The LaTeX that numbers the chapters of ``docname`` as the HTML book does.

    The numbered part's pages are Chapters 1, 2, ...; the appendix pages are lettered
    (``\\appendix``); every other page (front matter, exercises, glossary) is unnumbered.
    """
    letter = app.config.appendix_letters.get(docname)
    if letter is not None:
        return (f"\\setcounter{{secnumdepth}}{{2}}\\appendix"
                f"\\setcounter{{chapter}}{{{ord(letter) - ord('A')}}}\n")
    sitemap = getattr(app.config, "external_site_map", None)
    numbered = [doc for tree in (sitemap.root.subtrees if sitemap else [])
                if tree.numbered for doc in tree.items]
    if docname not in numbered:
        return "\\setcounter{secnumdepth}{-1}\n"
    if docname == str(numbered[0]):
        return "\\setcounter{secnumdepth}{2}\\setcounter{chapter}{0}\n"
    return ""


def latex_numbers_as_html(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """LaTeX: chapters, appendices and exercises numbered as in the HTML book.

    Each page's chapter heading is preceded by the LaTeX that numbers it (or not), and each
    numbered exercise gets a LaTeX label under the name ``{numref}`` refers to, which reads
    as its number in the HTML ("Exercise 5.3"), not as the section it is in.
    """
    if app.builder.format != "latex":
        return
    for start in doctree.findall(addnodes.start_of_file):
        start.insert(0, nodes.raw("", _latex_numbering(app, start["docname"]),
                                  format="latex"))
    for node in doctree.findall(nodes.Element):
        if type(node).__name__ != "exercise_enumerable_node" or not node.get("ids"):
            continue
        page = _proof_document(app.env, node)
        numbers = app.env.toc_fignumbers.get(page, {}).get("exercise", {})
        number = ".".join(map(str, numbers.get(node["ids"][0], ())))
        label = f"{page}:{node['label']}"
        node.insert(0, nodes.raw("", "{\\expandafter\\def\\csname @currentlabel\\endcsname"
                                     f"{{{number}}}\\label{{\\detokenize{{{label}}}}}}}",
                                 format="latex"))


def latex_figure_numbers(app: Sphinx) -> None:
    """Number results, exercises and figures by chapter ("Theorem 4.1"), as in the HTML.

    sphinx-jupyterbook-latex sets ``numfig_secnum_depth`` to 2 when the book has parts, which
    numbers them by section ("Theorem 4.6.1"); put back the book's own setting.
    """
    if app.builder.format == "latex":
        app.config.numfig_secnum_depth = app.config.book_numfig_secnum_depth


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


LONGTABLE_ROWS = 30        # Sphinx's LaTeX writer sets a table of more rows as a longtable


def _column_widths(table: nodes.table) -> list[int]:
    """Each column's share of the width: the mean length of its cells' text (at least 4)."""
    lengths = defaultdict(list)
    for row in table.findall(nodes.row):
        for column, entry in enumerate(row.findall(nodes.entry)):
            lengths[column].append(len(entry.astext()))
    return [max(4, round(sum(values) / len(values))) for _, values in sorted(lengths.items())]


def wrap_long_tables(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """LaTeX: a long table (a longtable) gets column widths, so its cells wrap.

    Without given widths Sphinx sets a longtable's columns as ``l`` (one line per cell), and
    a notation table with long explanations runs off the page; the widths given here follow
    the mean length of each column's text. Short tables are set by tabulary, which wraps.
    """
    if app.builder.format != "latex":
        return
    for table in doctree.findall(nodes.table):
        rows = list(table.findall(nodes.row))
        if len(rows) <= LONGTABLE_ROWS or "colwidths-given" in table["classes"]:
            continue
        colspecs = list(table.findall(nodes.colspec))
        widths = _column_widths(table)
        if len(colspecs) != len(widths):
            continue
        for colspec, width in zip(colspecs, widths):
            colspec["colwidth"] = width
        table["classes"] = [c for c in table["classes"] if c != "colwidths-auto"]
        table["classes"].append("colwidths-given")


def setup(app: Sphinx) -> dict:
    app.add_config_value("appendix_letters", {}, "env")
    app.add_config_value("book_edition", "full", "env")
    app.connect("config-inited", choose_edition)
    app.connect("builder-inited", use_titled_proof_index)
    app.connect("doctree-read", record_proof_titles)
    app.connect("env-get-updated", letter_appendices, priority=900)
    app.connect("missing-reference", resolve_public_names)
    app.connect("autodoc-skip-member", skip_foreign_members)
    app.connect("autodoc-process-docstring", escape_docstring_notation)
    app.connect("html-page-context", add_edition_to_context)
    app.connect("html-page-context", each_script_once, priority=999)
    app.connect("html-page-context", link_the_pdf, priority=600)
    app.connect("doctree-read", add_static_frames, priority=400)
    app.connect("doctree-resolved", tags_outside_split)
    app.add_post_transform(SvgToPdf)
    app.connect("doctree-resolved", latex_numbers_as_html)
    app.connect("doctree-resolved", wrap_long_tables)
    app.connect("builder-inited", latex_figure_numbers, priority=900)
    app.add_config_value("book_numfig_secnum_depth", 1, "env")
    import sphinx_proof.nodes

    sphinx_proof.nodes.find_parent = lambda env, node, tag: _proof_document(env, node)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
