"""Each script once on a page.

sphinx-thebe and sphinx-togglebutton register their inline configuration twice (their
handlers run on an event that fires twice), so every page would load the same inline script
twice and throw "Identifier 'THEBE_JS_URL' has already been declared" in the browser (the
browser test fails on any JavaScript error). Repeated scripts are dropped from each page's
list, the first of each kept in place. The handler runs last (priority 999), after every other
extension has added its scripts.
"""

from __future__ import annotations

from sphinx.application import Sphinx


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


def setup(app: Sphinx) -> dict:
    app.connect("html-page-context", each_script_once, priority=999)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
