"""The list of results by number and title, grouped by chapter.

sphinx-proof's index (the generated page ``prf-prf``, "List of results" in the sidebar) lists
the results by their labels (``ch2-lem-lattice``), which a reader never sees. Here it lists
them as the book shows them, "Lemma 2.1 — The lattice of prunings", grouped under "Chapter 2"
or "Appendix A" and sorted by number. Proofs, and results without a label of their own, are
left out.

The title of each result is kept when its page is read (sphinx-proof does not store it), and
the numbers are read from ``env.toc_fignumbers`` when the index is written, so they include
the appendix letters (``appendix_numbers``).
"""

from __future__ import annotations

import re
from collections import defaultdict

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment


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


def setup(app: Sphinx) -> dict:
    app.connect("builder-inited", use_titled_proof_index)
    app.connect("doctree-read", record_proof_titles)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
