"""``{numref}`` cross-references resolved with each target page read once per build.

Sphinx's standard domain resolves a ``{numref}`` by reading the whole doctree of the page
that holds the target from disk (``BuildEnvironment.get_doctree`` unpickles it) to find the
target's node and its number. The book has over 400 of them, aimed at a few dozen pages, so
an HTML build spent about 22 of its 51 seconds unpickling the same doctrees again. This
domain gives Sphinx's resolution an environment whose ``get_doctree`` reads each page once
and keeps it for the build; everything else is Sphinx's. The built pages are unchanged, byte
for byte.

Only public interfaces are used: the domain replaces Sphinx's standard domain
(``Sphinx.add_domain(..., override=True)``) and overrides ``Domain.resolve_xref``, the method
every domain implements, for the ``numref`` role alone; every other role goes to Sphinx's
``resolve_xref`` with the environment untouched. Should a later Sphinx stop reading the
target page through ``env.get_doctree``, the references still resolve, only without the
saving; ``tests/book/test_sphinx_private.py`` builds a small book and fails if a target page
is read more than once.

The kept doctrees are only read (the target node's type, ids and number); a page read again
(``clear_doc``) is dropped from the cache.
"""

from __future__ import annotations

from sphinx.application import Sphinx
from sphinx.domains import std


class _EnvironmentReadingPagesOnce:
    """A build environment whose ``get_doctree`` keeps each page's doctree in ``doctrees``;
    every other attribute is the environment's."""

    def __init__(self, env, doctrees: dict):
        self._env = env
        self._doctrees = doctrees

    def get_doctree(self, docname: str):
        if docname not in self._doctrees:
            self._doctrees[docname] = self._env.get_doctree(docname)
        return self._doctrees[docname]

    def __getattr__(self, name: str):
        return getattr(self._env, name)


class StandardDomain(std.StandardDomain):
    """Sphinx's standard domain; a ``{numref}`` reads its target page from disk once."""

    def __init__(self, env) -> None:
        super().__init__(env)
        self._target_doctrees: dict = {}

    def clear_doc(self, docname: str) -> None:
        super().clear_doc(docname)
        self._target_doctrees.pop(docname, None)

    def resolve_xref(self, env, fromdocname, builder, typ, target, node, contnode):
        if typ == "numref":
            env = _EnvironmentReadingPagesOnce(env, self._target_doctrees)
        return super().resolve_xref(env, fromdocname, builder, typ, target, node, contnode)


def setup(app: Sphinx) -> dict:
    app.add_domain(StandardDomain, override=True)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
