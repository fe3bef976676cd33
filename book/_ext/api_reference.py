"""The Library reference: public names, the papers' notation, and prunekit's own members.

The reference pages (``book/reference/``) are written by autodoc from prunekit's numpy-style
docstrings, which are written for the reader of the code; three adjustments make them read well
in the book.

* **Public names.** Docstrings refer to ``prunekit.Tree``, what a user types; the reference
  documents it where it is defined (``prunekit.tree.Tree``). A reference to a name that
  ``prunekit`` (or one of its modules) re-exports is resolved to the object's own documented
  path, and a reference relative to the package (``Tree.node_counts``) is read as
  ``prunekit.Tree.node_counts``. Without this every such reference would be a broken link,
  which the nitpicky build (``-n``) reports as an error.
* **The papers' notation.** Docstrings write ``|T|`` and ``n_+`` as the papers do; in
  reStructuredText ``|...|`` is a substitution and a trailing underscore makes a word a
  reference. Both are escaped outside literals, roles, literal blocks and directives, and every
  "Chapter N" becomes a link to the chapter.
* **The book's own members.** Members a class of prunekit or pdtbook (the book's own code)
  inherits from another library (scikit-learn's ``set_params``, ``set_fit_request``; a named
  tuple's field getters, which the class's Attributes section already describes) are left out
  of the reference.
"""

from __future__ import annotations

import re

from sphinx.application import Sphinx

# The packages the reference documents: the library and the book's own code.
OWN_PACKAGES = ("prunekit", "pdtbook")


def _defining_path(target: str) -> str | None:
    """``prunekit.Tree`` -> ``prunekit.tree.Tree``: where a re-exported name is defined, or
    ``None`` when ``target`` is not a prunekit (or pdtbook) name that can be found that way."""
    import importlib

    parts = target.split(".")
    if parts[0] not in OWN_PACKAGES:
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
    """Leave out of the reference the members a prunekit or pdtbook class inherits from
    another library (scikit-learn's ``set_params``, ``set_fit_request``, ...; a named tuple's
    field getters, which its docstring's Attributes section already describes)."""
    if what != "class":
        return None
    target = getattr(obj, "fget", obj)                 # a property: its getter
    home = getattr(target, "__module__", None)
    if home is None or home.split(".")[0] not in OWN_PACKAGES:
        return True
    return None


def setup(app: Sphinx) -> dict:
    app.connect("missing-reference", resolve_public_names)
    app.connect("autodoc-skip-member", skip_foreign_members)
    app.connect("autodoc-process-docstring", escape_docstring_notation)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
