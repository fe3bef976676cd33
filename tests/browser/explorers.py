"""The chapters' explorers work on the static page: moving a slider changes the figure; and on
a phone, a thumb can use them.

Every explorer (``pdtbook.explorer``) holds its frames, drawn in advance, in a Stack
linked to its sliders in the browser. test_book_pages.py moves each slider of a page with the
keyboard (focus its handle, press End, Home, then ArrowRight until the figure changes; the
other way round for a slider that starts at its last value), at 1280 px and at 390 px, and
fails unless each move changes the frame shown under it (the bytes of the visible image and the
text printed above it), not only the slider's readout (:func:`slider_problems`). At 390 px it
then checks each slider for a thumb (:func:`phone_problems`): a track at least 80 % of the
column wide, a handle of at least 24 px, and "−" and "+" buttons (book/js/explorers.js);
stepping with "+" through every value (and back one with "−") moves the slider, the frames
keep one height (the page does not jump under the reader's thumb), and every frame's image has
at least twice the pixels of the width it is shown at (sharp on a phone's screen).
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


def _move(page, handle, key, press=None):
    """Press ``key`` on the slider handle (or call ``press()`` instead, which moves the
    slider another way); return the state before and after.

    "After" is once the readout has changed and another frame is shown under it (the Stack
    shows a newly selected frame a moment later), which may draw the same figure as the one
    before (two neighbouring values may); or once the frame shown has stayed the one before
    for ``SAME_FRAME_MS`` after the readout changed; a page that never gets there is
    reported as it is after ``WAIT_MS``.
    """
    before = _state(handle)
    if press is None:
        handle.focus()
        page.keyboard.press(key)
    else:
        press()
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
    changes; Home, End, then ArrowLeft for a slider that starts at its last value) in the
    window as it is; the moves that did not change the figure under it."""
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
        # a slider that starts at its last value is moved the other way round
        at_end = handle.evaluate("h => h.getAttribute('aria-valuenow') "
                                 "=== h.getAttribute('aria-valuemax')")
        keys = ("Home", "End", "ArrowLeft") if at_end else ("End", "Home", "ArrowRight")
        for key in keys:
            before, after = _move(page, handle, key)
            # Two neighbouring values may legitimately draw the same figure (both
            # scales prune to the root, say): step on until the figure changes.
            last = before
            while (key == keys[-1] and after["frame"] == before["frame"]
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


# On a phone
#: The least share of the column a slider's track takes, and the least size of its handle.
MIN_TRACK_SHARE = 0.8
MIN_HANDLE_PX = 24
#: The least ratio of a frame image's pixels to the width it is shown at.
MIN_PIXEL_RATIO = 2

# The measures of a slider handle's explorer: the column's width, its track's width, the
# handle's size, how many step buttons it has, its position (0 to last), and the frames' box
# (the explorer's last child) once the visible frame's image has loaded: its height, the
# image's pixels and shown width (null until loaded).
_MEASURES_JS = """
(handle) => {
  const slider = handle.closest('.widget-hslider');
  const box = slider.closest('.widget-vbox');
  const frames = box.lastElementChild;
  const article = document.querySelector('article.bd-article');
  const style = getComputedStyle(article);
  const column = article.clientWidth - parseFloat(style.paddingLeft)
    - parseFloat(style.paddingRight);
  const rect = handle.getBoundingClientRect();
  const img = Array.from(frames.querySelectorAll('img')).find(i => i.offsetWidth > 0);
  const loaded = img && img.complete && img.naturalWidth > 0;
  return {column: column, track: slider.querySelector('.noUi-target').offsetWidth,
          handle: [rect.width, rect.height],
          steppers: slider.querySelectorAll('button.explorer-step').length,
          at: Math.round(parseFloat(handle.getAttribute('aria-valuenow'))),
          last: Math.round(parseFloat(handle.getAttribute('aria-valuemax'))),
          height: loaded ? frames.getBoundingClientRect().height : null,
          natural: loaded ? img.naturalWidth : null,
          shown: loaded ? img.getBoundingClientRect().width : null};
}
"""


def _measures(page, handle):
    """The measures of the handle's explorer, once its visible frame has loaded."""
    waited = 0
    found = handle.evaluate(_MEASURES_JS)
    while found["height"] is None and waited < WAIT_MS:
        page.wait_for_timeout(POLL_MS)
        waited += POLL_MS
        found = handle.evaluate(_MEASURES_JS)
    return found


def phone_problems(page, page_name):
    """At a phone's width: each slider of the page's explorer fits a thumb, and stepping it
    through every value with its "+" button keeps the frames' height, each frame sharp (see
    the module's docstring)."""
    problems = []
    handles = page.locator(HANDLES)
    for i in range(handles.count() if EXPLORERS.get(page_name) else 0):
        handle = handles.nth(i)
        handle.scroll_into_view_if_needed()
        where = f"slider {i + 1}"
        found = _measures(page, handle)
        if found["track"] < MIN_TRACK_SHARE * found["column"]:
            problems.append(f"{where}: the track is {found['track']} px wide in a column of "
                            f"{found['column']:.0f} px (under {MIN_TRACK_SHARE:.0%})")
        if min(found["handle"]) < MIN_HANDLE_PX:
            problems.append(f"{where}: the handle is {found['handle']} px "
                            f"(under {MIN_HANDLE_PX} px)")
        if found["steppers"] != 2:
            problems.append(f"{where}: {found['steppers']} step buttons, not 2 (- and +)")
            continue
        slider = handles.nth(i).locator("xpath=ancestor::div[contains(@class, 'widget-hslider')]")
        minus, plus = (slider.locator("button.explorer-step").nth(k) for k in (0, 1))
        if found["at"] != 0:
            _move(page, handle, "Home")
        seen = [_measures(page, handle)]
        for _ in range(found["last"]):
            before, after = _move(page, handle, None, press=plus.click)
            if after["readout"] == before["readout"]:
                problems.append(f"{where}: '+' left the readout at {before['readout']!r}")
                break
            seen.append(_measures(page, handle))
        before, after = _move(page, handle, None, press=minus.click)
        if after["readout"] == before["readout"]:
            problems.append(f"{where}: '-' left the readout at {before['readout']!r}")
        heights = sorted({round(m["height"]) for m in seen if m["height"] is not None})
        if len(heights) > 1:
            problems.append(f"{where}: the frames' height changes while stepping through "
                            f"{len(seen)} values: {heights[0]} to {heights[-1]} px")
        blurred = [f"{m['natural']} px shown at {m['shown']:.0f} px" for m in seen
                   if m["natural"] is not None
                   and m["natural"] < MIN_PIXEL_RATIO * m["shown"] - 0.5]
        if blurred:
            problems.append(f"{where}: frames with fewer than {MIN_PIXEL_RATIO}x the pixels "
                            f"they are shown at: {blurred[:3]}")
        if len(seen) != found["last"] + 1 or any(m["height"] is None for m in seen):
            problems.append(f"{where}: {sum(m['height'] is not None for m in seen)} of "
                            f"{found['last'] + 1} frames were shown")
    return problems
