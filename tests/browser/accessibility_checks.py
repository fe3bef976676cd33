"""The book's pages for readers who use a screen reader or a keyboard: axe-core's rules, and
the keyboard path through the explorers and the solutions.

test_book_pages.py calls :func:`accessibility_problems` during its one visit of each page, at
390 px, once the solutions are open (so that their text is checked too). It injects axe-core
(the npm package in package.json, ``node_modules/axe-core/axe.min.js``) into the page and runs
every rule of axe's default set; a critical or serious violation is a problem, named with its
rule and the first nodes it was found on. The colour contrast is checked a second time with the
page in the dark colour mode (the book has a light/dark switch). Moderate and minor
violations are counted, not failed: the test reports their totals at the
end of the run; except those of the rules in ``FAILING_RULES``, which the
book once broke and has mended (a header cell that holds only a formula is
named by it, book/_ext/accessibility.py).

The keyboard path: every explorer slider (a range input), its "−" and "+" buttons
(book/_ext/static_explorers.py) and every solution's toggle button must be a Tab stop, and
have a name: a slider the parameter it sets (its label), a step button that parameter and
its direction ("α: next value"), a solution's button its exercise ("Solution of Exercise
2.3").
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
#: The impacts that fail the test; the others are counted.
FAILING = ("critical", "serious")
#: Rules whose violations fail the test whatever their impact.
FAILING_RULES = ("empty-table-header",)
#: How many nodes of a violation a problem names.
NODES_NAMED = 3

_RUN_AXE_JS = """
async (options) => {
  const result = await axe.run(document, options);
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.join(' '),
                              summary: (n.failureSummary || '').split('\\n').slice(1, 2)
                                .join(' ').trim()}))}));
}
"""

_DARK_JS = """
(mode) => {
  const root = document.documentElement;
  const before = root.dataset.theme;
  root.dataset.theme = mode;
  return before;
}
"""

# Tab stops that must be there, each with the name it must have (null: any non-empty name)
_KEYBOARD_JS = r"""
() => {
  const out = [];
  const tabbable = e => e.tabIndex >= 0 && !e.disabled && e.getClientRects().length > 0
    && getComputedStyle(e).visibility !== 'hidden'
    && !e.closest('[inert], [aria-hidden="true"]');
  const check = (e, what, pattern) => {
    const name = (e.getAttribute('aria-label') || (e.labels && e.labels.length
      ? e.labels[0].textContent : e.textContent) || '').trim();
    if (!tabbable(e)) out.push(what + ' "' + name + '" is not a Tab stop');
    if (!name || (pattern && !new RegExp(pattern).test(name))) {
      out.push(what + ' is named "' + name + '"' + (pattern ? ', not ' + pattern : ''));
    }
  };
  document.querySelectorAll('article figure.explorer input.explorer-range')
    .forEach(e => check(e, 'explorer slider', null));
  document.querySelectorAll('article button.explorer-step')
    .forEach(e => check(e, 'explorer step button', ': (previous|next) value$'));
  document.querySelectorAll('article .solution .toggle-button')
    .forEach(e => check(e, 'solution button', '^Solution of Exercise ([A-Z]|[0-9]+)\\.[0-9]+$'));
  return out;
}
"""


def _inject_axe(page) -> None:
    if not AXE.is_file():
        raise FileNotFoundError(f"{AXE} is missing: install the npm packages of package.json "
                                "(`make venv`, or `npm install`)")
    if not page.evaluate("() => typeof axe === 'object'"):
        page.add_script_tag(path=str(AXE))


def _described(violation: dict) -> str:
    nodes = violation["nodes"]
    named = "; ".join(f"{node['target']} ({node['summary']})" if node["summary"]
                      else node["target"] for node in nodes[:NODES_NAMED])
    more = f" and {len(nodes) - NODES_NAMED} more" if len(nodes) > NODES_NAMED else ""
    return (f"{violation['impact']} {violation['id']} ({violation['help']}), "
            f"{len(nodes)} node(s): {named}{more}")


def axe_violations(page, dark: bool = False) -> list[dict]:
    """axe-core's violations on the page as it is: every rule of its default set, or, with
    ``dark``, only the colour contrast with the page switched to the dark colour mode (and
    back to the mode it was in)."""
    _inject_axe(page)
    if not dark:
        return page.evaluate(_RUN_AXE_JS, {"resultTypes": ["violations"]})
    before = page.evaluate(_DARK_JS, "dark")
    try:
        return page.evaluate(_RUN_AXE_JS, {"resultTypes": ["violations"],
                                           "runOnly": ["color-contrast"]})
    finally:
        page.evaluate(_DARK_JS, before or "light")


def accessibility_problems(page) -> tuple[list[str], dict[str, int]]:
    """The critical and serious axe-core violations of the page (light mode, then the colour
    contrast in dark mode) and the keyboard path's problems; and the counts of moderate and
    minor violations by ``"impact rule"``, for the report."""
    problems, counts = [], {}
    for dark in (False, True):
        for violation in axe_violations(page, dark=dark):
            if (violation["impact"] in FAILING
                    or violation["id"] in FAILING_RULES):
                problems.append(("dark mode: " if dark else "") + _described(violation))
            else:
                key = f"{violation['impact']} {violation['id']}"
                counts[key] = counts.get(key, 0) + len(violation["nodes"])
    problems.extend(page.evaluate(_KEYBOARD_JS))
    return problems, counts
