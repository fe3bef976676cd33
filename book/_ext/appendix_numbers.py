"""Lettered appendices: "Theorem A.1" and "Section A.2" rather than "Theorem 1".

The appendix pages are not numbered chapters of the table of contents, so Sphinx would number
their results "Theorem 1", the same words as a chapter's "Theorem 1.1" or a paper's own
"Theorem 1". Each page named in the configuration value ``appendix_letters`` (``{docname:
letter}``, set in ``_config.yml``) gets its letter instead: its results read "Theorem A.1",
its sections "A.1", "A.2", and ``{numref}`Appendix %s <label>``` reads "Appendix A".

The letters are written into the numbers Sphinx has computed (``env.toc_secnumbers`` and
``env.toc_fignumbers``), so every builder and every cross-reference uses them. The LaTeX
numbering of the PDF edition (``latex_numbers``) reads the same setting.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment


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


def setup(app: Sphinx) -> dict:
    app.add_config_value("appendix_letters", {}, "env")
    app.connect("env-get-updated", letter_appendices, priority=900)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
