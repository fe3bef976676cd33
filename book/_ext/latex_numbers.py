"""The PDF edition numbers chapters, appendix, results and exercises as the HTML book does.

Sphinx's LaTeX writer numbers every chapter of the document, front matter and exercise pages
included, and Jupyter Book's LaTeX extension numbers results by section; the HTML book numbers
only the chapters of its numbered part ("Chapter 4", "Theorem 4.1"), letters its appendix
("Theorem A.1", see ``appendix_numbers``) and numbers exercises by chapter ("Exercise 5.3").
For the LaTeX builder only:

* each page's chapter heading is preceded by the LaTeX that numbers it: the first chapter of
  the numbered part restarts the count at 1, an appendix page is lettered (``\\appendix``),
  every other page (front matter, exercises, glossary) is unnumbered;
* each numbered exercise gets a LaTeX label under the name ``{numref}`` refers to, which reads
  as its number in the HTML ("Exercise 5.3"), not as the section it is in (put after the
  exercise's title, which the LaTeX writer gives its box as the title argument);
* results, exercises and figures are numbered by chapter: sphinx-jupyterbook-latex sets
  ``numfig_secnum_depth`` to 2 when the book has parts ("Theorem 4.6.1"), and the book's own
  setting, ``book_numfig_secnum_depth`` (1), is put back;
* sphinx-proof finds the page of a result (for its LaTeX label and number) by comparing the
  page title with the section's names, which fails on titles with punctuation (Chapter 8's);
  its lookup is replaced by one that walks up to the node that names its page.
"""

from __future__ import annotations

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx


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
        # after the title, which the LaTeX writer gives the box as its title argument
        titles = [i for i, child in enumerate(node.children) if isinstance(child, nodes.title)]
        node.insert(titles[0] + 1 if titles else 0,
                    nodes.raw("", "{\\expandafter\\def\\csname @currentlabel\\endcsname"
                                  f"{{{number}}}\\label{{\\detokenize{{{label}}}}}}}",
                              format="latex"))


def latex_figure_numbers(app: Sphinx) -> None:
    """Number results, exercises and figures by chapter ("Theorem 4.1"), as in the HTML.

    sphinx-jupyterbook-latex sets ``numfig_secnum_depth`` to 2 when the book has parts, which
    numbers them by section ("Theorem 4.6.1"); put back the book's own setting.
    """
    if app.builder.format == "latex":
        app.config.numfig_secnum_depth = app.config.book_numfig_secnum_depth


def setup(app: Sphinx) -> dict:
    app.setup_extension("appendix_numbers")         # the appendix_letters setting
    app.connect("doctree-resolved", latex_numbers_as_html)
    app.connect("builder-inited", latex_figure_numbers, priority=900)
    app.add_config_value("book_numfig_secnum_depth", 1, "env")
    import sphinx_proof.nodes

    sphinx_proof.nodes.find_parent = lambda env, node, tag: _proof_document(env, node)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
