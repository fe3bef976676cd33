"""A paper's own equation number (``\\tag{18.1}``) in the PDF edition.

A few exercises quote an equation under the number its source gives it, with ``\\tag{..}``
in an unlabelled display equation (Chapter 1's exercises quote Shalev-Shwartz and
Ben-David's bound (18.1)). MathJax shows the tag on the web page. Sphinx's LaTeX writer wraps
such an equation in ``\\begin{equation*}\\begin{split} ... \\end{split}\\end{equation*}``,
where amsmath does not allow ``\\tag``, and XeLaTeX stops with an error. For the LaTeX builder
only, the tag is moved after the ``split``, inside the ``equation*``, where amsmath allows it.
"""

from __future__ import annotations

import re

from docutils import nodes
from sphinx.application import Sphinx

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


def setup(app: Sphinx) -> dict:
    app.connect("doctree-resolved", tags_outside_split)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
