"""The chapters' explorers work on the static page: moving a slider changes the figure; and on
a phone, a thumb can use them.

Every explorer (``pdtbook.explorer``) is written into its page when the book is built
(book/_ext/static_explorers.py): a ``figure.explorer`` with a range input a slider, whose
frames book/js/explorers.js fetches and shows. test_book_pages.py moves each slider of a page
with the keyboard (focus its input, press End, Home, then ArrowRight until the figure changes;
the other way round for a slider that starts at its last value), at 1280 px and at 390 px, and
fails unless each move changes the readout (and the input's ``aria-valuetext`` with it, to
the position's label) and the frame shown under it: the frame the figure's ``data-frames``
gives for the sliders' positions, its image loaded, its bytes and the text printed above it
not those of the frame before (:func:`slider_problems`). At 390 px it then checks each slider
for a thumb (:func:`phone_problems`): a track at least 80 % of the column wide, a handle of
at least 28 px, "−" and "+" buttons of 44 px; stepping with "+" through every value (and back
one with "−") moves the slider, the frames keep one height (the page does not jump under the
reader's thumb), and every frame's image has at least twice the pixels of the width it is
shown at (sharp on a phone's screen).
"""

from layout import POLL_MS, WAIT_MS

# page -> number of sliders of its explorer
EXPLORERS = {
    "chapters/01-decision-trees": 1,
    "chapters/02-cost-complexity": 1,
    "chapters/03-reduced-error": 1,
    "chapters/04-kearns-mansour": 2,
    "chapters/05-nobel": 1,
    "chapters/06-rademacher": 1,
    "chapters/08-classic-heuristics": 1,
    "chapters/11-regression-trees": 1,
}

SLIDERS = "figure.explorer input.explorer-range"
# How long the frame shown may stay the one before after the readout moved before the move
# counts as not changing the figure (the frame is shown once its image has loaded).
SAME_FRAME_MS = 2000

# What the explorer of a slider's input shows: its readout, the input's aria-valuetext and the
# label of its position, and the frame (a hash of the shown image's bytes, with the text
# printed above it), or null until the frame of the sliders' positions (the figure's
# data-frames) is shown, its image loaded.
_STATE_JS = """
async (input) => {
  const figure = input.closest('figure.explorer');
  const slider = input.closest('.explorer-slider');
  const inputs = Array.from(figure.querySelectorAll('input.explorer-range'));
  const index = inputs.reduce((at, i) => at * (Number(i.max) + 1) + Number(i.value), 0);
  const frames = JSON.parse(figure.dataset.frames);
  const img = figure.querySelector('img.explorer-frame');
  const state = {readout: slider.querySelector('.explorer-readout').textContent,
                 valuetext: input.getAttribute('aria-valuetext'),
                 label: JSON.parse(input.dataset.labels)[Number(input.value)], frame: null,
                 images: Array.from(figure.querySelectorAll('img'))
                   .filter(i => i.offsetWidth > 0 && i.offsetHeight > 0).length};
  if (state.images !== 1 || !img.complete || !(img.naturalWidth > 0)
      || new URL(img.src, location).href !== new URL(frames[index][0], location).href) {
    return state;
  }
  const bytes = new Uint8Array(await (await fetch(img.src)).arrayBuffer());
  let hash = 0;
  for (const b of bytes) hash = (hash * 31 + b) | 0;
  const text = Array.from(figure.querySelectorAll('pre'))
    .filter(p => p.offsetWidth > 0).map(p => p.textContent).join('|');
  state.frame = bytes.length + ':' + hash + ':' + text;
  return state;
}
"""


def _state(slider):
    return slider.evaluate(_STATE_JS)


def _move(page, slider, key, press=None):
    """Press ``key`` on the slider's input (or call ``press()`` instead, which moves the
    slider another way); return the state before and after.

    "After" is once the readout has changed and the frame of the new position is shown (which
    may draw the same figure as the one before: two neighbouring values may), or once the
    frame shown has stayed the one before for ``SAME_FRAME_MS`` after the readout changed; a
    page that never gets there is reported as it is after ``WAIT_MS``.
    """
    before = _state(slider)
    if press is None:
        slider.focus()
        page.keyboard.press(key)
    else:
        press()
    after, waited, same_for = _state(slider), 0, 0
    while waited < WAIT_MS:
        moved = after["readout"] != before["readout"]
        if moved and (after["frame"] is not None or same_for >= SAME_FRAME_MS):
            break
        same_for = same_for + 100 if moved else 0
        page.wait_for_timeout(100)
        waited += 100
        after = _state(slider)
    return before, after


def _said(where, state):
    """The slider's readout and aria-valuetext against its position's label."""
    if state["readout"] != state["label"] or state["valuetext"] != state["label"]:
        return [f"{where}: the readout says {state['readout']!r} and aria-valuetext "
                f"{state['valuetext']!r} at the position labelled {state['label']!r}"]
    return []


def slider_problems(page, page_name):
    """Move every slider of the page's explorer (End, Home, then ArrowRight until the figure
    changes; Home, End, then ArrowLeft for a slider that starts at its last value) in the
    window as it is; the moves that did not change the figure under it."""
    expected = EXPLORERS.get(page_name, 0)
    sliders = page.locator(SLIDERS)
    if sliders.count() != expected:
        return [f"{sliders.count()} explorer sliders, expected {expected} (EXPLORERS)"]
    problems = []
    for i in range(sliders.count()):
        slider = sliders.nth(i)
        slider.scroll_into_view_if_needed()
        # a slider that starts at its last value is moved the other way round
        at_end = slider.evaluate("i => i.value === i.max")
        keys = ("Home", "End", "ArrowLeft") if at_end else ("End", "Home", "ArrowRight")
        for key in keys:
            before, after = _move(page, slider, key)
            # Two neighbouring values may legitimately draw the same figure (both
            # scales prune to the root, say): step on until the figure changes.
            last = before
            while (key == keys[-1] and after["frame"] == before["frame"]
                   and after["readout"] != last["readout"]):
                last, after = _move(page, slider, key)
            where = f"slider {i + 1}, {key}"
            problems += _said(where, after)
            if before["frame"] is None or after["frame"] is None:
                problems.append(f"{where}: not the frame of the sliders' positions, loaded, "
                                f"alone ({before['images']} then {after['images']} images)")
            elif after["readout"] == before["readout"]:
                problems.append(f"{where}: the readout stayed {before['readout']!r}")
            elif after["frame"] == before["frame"]:
                problems.append(f"{where}: the readout went from {before['readout']!r} "
                                f"to {after['readout']!r} but the figure did not change")
    return problems


# On a phone
#: The least share of the column a slider's track takes, the least size of its handle, and of
#: its step buttons.
MIN_TRACK_SHARE = 0.8
MIN_HANDLE_PX = 28
MIN_BUTTON_PX = 44
#: The least ratio of a frame image's pixels to the width it is shown at.
MIN_PIXEL_RATIO = 2

# The measures of a slider's explorer: the column's width, its track's width, the handle's
# size (a range input's thumb is no element: the size book.css gives it), its step buttons'
# sizes, its position (0 to last), and once the frame shown has loaded, the figure's height
# under the sliders, the image's pixels and shown width (null until loaded).
_MEASURES_JS = """
(input) => {
  const figure = input.closest('figure.explorer');
  const article = document.querySelector('article.bd-article');
  const style = getComputedStyle(article);
  const column = article.clientWidth - parseFloat(style.paddingLeft)
    - parseFloat(style.paddingRight);
  const thumb = [];
  for (const sheet of document.styleSheets) {
    let rules = [];
    try { rules = Array.from(sheet.cssRules); } catch (error) { continue; }
    for (const rule of rules) {
      const selector = rule.selectorText || '';
      if (!selector.includes('::-webkit-slider-thumb')) continue;
      const own = selector.split(',').map(s => s.trim())
        .filter(s => s.endsWith('::-webkit-slider-thumb'))
        .some(s => input.matches(s.replace(/::-webkit-slider-thumb$/, '') || '*'));
      if (own && rule.style.width) {
        thumb.splice(0, 2, parseFloat(rule.style.width), parseFloat(rule.style.height));
      }
    }
  }
  const img = figure.querySelector('img.explorer-frame');
  const loaded = img && img.complete && img.naturalWidth > 0;
  const sliders = figure.querySelector('.explorer-sliders').getBoundingClientRect();
  return {column: column, track: input.getBoundingClientRect().width,
          handle: thumb.length ? thumb : [0, 0],
          buttons: Array.from(input.closest('.explorer-slider')
            .querySelectorAll('button.explorer-step')).map(b => {
              const r = b.getBoundingClientRect();
              return Math.min(r.width, r.height);
            }),
          at: Number(input.value), last: Number(input.max),
          height: loaded ? figure.getBoundingClientRect().bottom - sliders.bottom : null,
          natural: loaded ? img.naturalWidth : null,
          shown: loaded ? img.getBoundingClientRect().width : null};
}
"""


def _measures(page, slider):
    """The measures of the slider's explorer, once its visible frame has loaded."""
    waited = 0
    found = slider.evaluate(_MEASURES_JS)
    while found["height"] is None and waited < WAIT_MS:
        page.wait_for_timeout(POLL_MS)
        waited += POLL_MS
        found = slider.evaluate(_MEASURES_JS)
    return found


def _thumb_problems(where, found):
    """A track as wide as the column, a handle and step buttons a thumb can hit."""
    problems = []
    if found["track"] < MIN_TRACK_SHARE * found["column"]:
        problems.append(f"{where}: the track is {found['track']:.0f} px wide in a column of "
                        f"{found['column']:.0f} px (under {MIN_TRACK_SHARE:.0%})")
    if min(found["handle"]) < MIN_HANDLE_PX:
        problems.append(f"{where}: the handle is {found['handle']} px "
                        f"(under {MIN_HANDLE_PX} px)")
    if len(found["buttons"]) != 2:
        problems.append(f"{where}: {len(found['buttons'])} step buttons, not 2 (- and +)")
    elif min(found["buttons"]) < MIN_BUTTON_PX - 0.5:
        problems.append(f"{where}: step buttons of {found['buttons']} px "
                        f"(under {MIN_BUTTON_PX} px)")
    return problems


def phone_problems(page, page_name):
    """At a phone's width: each slider of the page's explorer fits a thumb, and stepping it
    through every value with its "+" button keeps the frames' height, each frame sharp (see
    the module's docstring)."""
    problems = []
    sliders = page.locator(SLIDERS)
    for i in range(sliders.count() if EXPLORERS.get(page_name) else 0):
        slider = sliders.nth(i)
        slider.scroll_into_view_if_needed()
        where = f"slider {i + 1}"
        found = _measures(page, slider)
        problems += _thumb_problems(where, found)
        if len(found["buttons"]) != 2:
            continue
        box = slider.locator("xpath=..")
        minus, plus = (box.locator("button.explorer-step").nth(k) for k in (0, 1))
        if found["at"] != 0:
            _move(page, slider, "Home")
        seen = [_measures(page, slider)]
        for _ in range(found["last"]):
            before, after = _move(page, slider, None, press=plus.click)
            if after["readout"] == before["readout"]:
                problems.append(f"{where}: '+' left the readout at {before['readout']!r}")
                break
            problems += _said(f"{where}, '+'", after)
            if after["frame"] is None:
                problems.append(f"{where}: '+' to {after['readout']!r} did not show its frame")
            seen.append(_measures(page, slider))
        before, after = _move(page, slider, None, press=minus.click)
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
