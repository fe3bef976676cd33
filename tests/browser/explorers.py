"""The chapters' explorers work on the static page: moving a slider changes the figure.

Every explorer (``pdtbook.explorer``) holds its frames, drawn in advance, in a Stack
linked to its sliders in the browser. test_book_pages.py moves each slider of a page with the
keyboard (focus its handle, press End, Home, then ArrowRight until the figure changes), at
1280 px and at 390 px, and fails unless each move changes the frame shown under it (the bytes
of the visible image and the text printed above it), not only the slider's readout.
"""

from layout import POLL_MS, WAIT_MS, WIDGET_VIEWS_JS

# page -> number of sliders of its explorer
EXPLORERS = {
    "chapters/01-decision-trees": 1,
    "chapters/02-cost-complexity": 1,
    "chapters/03-reduced-error": 1,
    "chapters/04-kearns-mansour": 2,
    "chapters/05-nobel": 1,
    "chapters/06-rademacher": 1,
    "chapters/08-classic-heuristics": 1,
}

HANDLES = ".widget-hslider .noUi-handle"
# How long the image shown may stay the same element after the readout moved before the
# move counts as not changing the figure (the Stack shows a newly selected frame a moment
# after the readout changes, in a new element).
SAME_FRAME_MS = 2000

# What the explorer of a slider handle shows: its slider's readout, and the visible frame
# (a hash of the shown image's bytes, with the text printed above it), or null when no
# image is visible; the shown image is marked so that a new one (the Stack shows only its
# selected frame) can be told from it even when it draws the same figure.
_STATE_JS = """
async (handle) => {
  const slider = handle.closest('.widget-hslider');
  const box = slider.closest('.widget-vbox');
  const readout = slider.querySelector('.widget-readout');
  const imgs = Array.from(box.querySelectorAll('img'))
    .filter(img => img.offsetWidth > 0 && img.offsetHeight > 0);
  if (imgs.length !== 1) return {readout: readout && readout.textContent, frame: null,
                                 images: imgs.length};
  if (!imgs[0].dataset.shown) imgs[0].dataset.shown = String(Math.random());
  const bytes = new Uint8Array(await (await fetch(imgs[0].src)).arrayBuffer());
  let hash = 0;
  for (const b of bytes) hash = (hash * 31 + b) | 0;
  const text = Array.from(box.querySelectorAll('pre'))
    .filter(p => p.offsetWidth > 0).map(p => p.textContent).join('|');
  return {readout: readout && readout.textContent, images: 1, element: imgs[0].dataset.shown,
          frame: bytes.length + ':' + hash + ':' + text};
}
"""


def _state(handle):
    return handle.evaluate(_STATE_JS)


def _move(page, handle, key):
    """Press ``key`` on the slider handle; return the state before and after.

    "After" is once the readout has changed and another frame is shown under it (the Stack
    shows a newly selected frame a moment later), which may draw the same figure as the one
    before (two neighbouring values may); or once the frame shown has stayed the one before
    for ``SAME_FRAME_MS`` after the readout changed; a page that never gets there is
    reported as it is after ``WAIT_MS``.
    """
    before = _state(handle)
    handle.focus()
    page.keyboard.press(key)
    after, waited, same_for = _state(handle), 0, 0
    while waited < WAIT_MS:
        moved = after["readout"] != before["readout"] and after["frame"] is not None
        if moved and (after["element"] != before.get("element")
                      or same_for >= SAME_FRAME_MS):
            break
        same_for = same_for + 100 if moved else 0
        page.wait_for_timeout(100)
        waited += 100
        after = _state(handle)
    return before, after


def slider_problems(page, page_name):
    """Move every slider of the page's explorer (End, Home, then ArrowRight until the figure
    changes) in the window as it is; the moves that did not change the figure under it."""
    expected = EXPLORERS.get(page_name, 0)
    if expected:
        page.wait_for_function(
            f"() => {{ const [n, drawn] = ({WIDGET_VIEWS_JS})(); return n > 0 && drawn === n; }}",
            timeout=WAIT_MS, polling=POLL_MS)
        page.wait_for_function(
            f"() => document.querySelectorAll('{HANDLES}').length >= {expected}",
            timeout=WAIT_MS, polling=POLL_MS)
    handles = page.locator(HANDLES)
    if handles.count() != expected:
        return [f"{handles.count()} explorer sliders, expected {expected} (EXPLORERS)"]
    problems = []
    for i in range(handles.count()):
        handle = handles.nth(i)
        handle.scroll_into_view_if_needed()
        for key in ("End", "Home", "ArrowRight"):
            before, after = _move(page, handle, key)
            # Two neighbouring values may legitimately draw the same figure (both
            # scales prune to the root, say): step on until the figure changes.
            last = before
            while (key == "ArrowRight" and after["frame"] == before["frame"]
                   and after["readout"] != last["readout"]):
                last, after = _move(page, handle, key)
            where = f"slider {i + 1}, {key}"
            if before["frame"] is None or after["frame"] is None:
                problems.append(f"{where}: no single visible figure "
                                f"({before['images']} then {after['images']} images)")
            elif after["readout"] == before["readout"]:
                problems.append(f"{where}: the readout stayed {before['readout']!r}")
            elif after["frame"] == before["frame"]:
                problems.append(f"{where}: the readout went from {before['readout']!r} "
                                f"to {after['readout']!r} but the figure did not change")
    return problems
