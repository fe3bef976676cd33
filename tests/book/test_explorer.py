"""pdtbook.explorer: frames drawn in advance, one per slider value, linked in the
browser (or drawn on demand in a live kernel), at 2x and all of one size; the chapters' stored
explorers hold every frame, so drawn.
"""

import base64
import io
import json
from pathlib import Path

import ipywidgets as widgets
import matplotlib.pyplot as plt
import pytest

from PIL import Image

from pdtbook.explorer import explorer, frame_png, pad_png, png_size

PNG = b"\x89PNG\r\n\x1a\n"


def draw_line(slope, shift=0):
    print(f"slope {slope}")
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.plot([0, 1], [shift, slope + shift])
    ax.set_title(f"slope {slope}, shift {shift}")


def _stack(box):
    return box.children[-1]


def test_one_slider_has_one_frame_per_value_and_starts_at_value():
    box = explorer(draw_line, {"slope": [0.5, 1.0, 2.0]}, value={"slope": 1.0})
    slider, stack = box.children
    assert isinstance(slider, widgets.SelectionSlider)
    assert isinstance(stack, widgets.Stack)
    assert len(stack.children) == 3
    assert slider.index == stack.selected_index == 1
    assert slider.label == "1"
    assert plt.get_fignums() == []  # every frame's figure is closed


def test_frames_are_images_under_the_printed_text_and_differ():
    box = explorer(draw_line, {"slope": [1, 2]})
    frames = _stack(box).children
    texts = [frame.children[0].value for frame in frames]
    assert "slope 1" in texts[0] and "slope 2" in texts[1]
    images = [bytes(frame.children[1].value) for frame in frames]
    assert all(image.startswith(PNG) for image in images)
    assert images[0] != images[1]


def test_a_frame_without_printed_text_is_an_image():
    def quiet(k):
        plt.figure(figsize=(2, 2)).gca().plot([0, k])

    frames = _stack(explorer(quiet, {"k": range(4)})).children
    assert len(frames) == 4
    assert all(isinstance(frame, widgets.Image) for frame in frames)


def test_the_slider_index_is_jslinked_to_the_stack():
    box = explorer(draw_line, {"slope": [1, 2]})
    slider, stack = box.children
    (link,) = box.links
    assert type(link).__name__ == "Link"  # made by jslink
    assert link.source == (slider, "index")
    assert link.target == (stack, "selected_index")


def test_two_sliders_nest_stacks_and_link_every_inner_stack():
    box = explorer(draw_line, {"slope": [1, 2, 3], "shift": [0, 1]},
                   value={"slope": 2, "shift": 1},
                   descriptions={"slope": "a", "shift": "b"})
    first, second, outer = box.children
    assert (first.description, second.description) == ("a", "b")
    assert len(outer.children) == 3
    assert all(len(inner.children) == 2 for inner in outer.children)
    assert outer.selected_index == 1
    assert all(inner.selected_index == 1 for inner in outer.children)
    assert len(box.links) == 1 + 3
    assert box.links[0].target == (outer, "selected_index")
    assert {link.target[0] for link in box.links[1:]} == set(outer.children)
    assert all(link.source == (second, "index") for link in box.links[1:])
    label = outer.children[2].children[0].children[0].value
    assert "slope 3" in label


def test_labels_may_be_given():
    box = explorer(draw_line, {"slope": [("one", 1), ("two", 2)]}, value={"slope": 2})
    assert box.children[0].label == "two"


def test_a_float_is_labelled_in_six_digits_its_exponent_unpadded():
    box = explorer(draw_line, {"slope": [1e-6, 0.0156, 1.0, 2.5e7, 0.1234567]})
    assert box.children[0].options == (("1e-6", 0), ("0.0156", 1), ("1", 2), ("2.5e7", 3),
                                       ("0.123457", 4))


def test_frame_png_is_deterministic():
    fig, ax = plt.subplots(figsize=(2, 2))
    ax.plot([0, 1])
    assert frame_png(fig) == frame_png(fig)
    assert frame_png(fig).startswith(PNG)
    plt.close(fig)


@pytest.mark.parametrize("draw, sliders, options, error, message", [
    (draw_line, {"slope": []}, {}, ValueError, "'slope'] is empty"),
    (draw_line, {}, {}, ValueError, "one or two sliders, not 0"),
    (draw_line, {"a": [1], "b": [1], "c": [1]}, {}, ValueError, "one or two sliders, not 3"),
    ("draw", {"slope": [1]}, {}, TypeError, "draw must be a function"),
    (draw_line, [1, 2], {}, TypeError, "sliders must be a mapping"),
    (draw_line, {"slope": 3}, {}, TypeError, "must be a sequence of values"),
    (draw_line, {"slope": "abc"}, {}, TypeError, "must be a sequence of values"),
    (draw_line, {"slope": [1, 2]}, {"value": {"slope": 5}}, ValueError,
     "is not one of the slider's values"),
    (draw_line, {"slope": [1, 2]}, {"value": {"slant": 1}}, ValueError, "names no slider"),
    (draw_line, {"slope": [1, 2]}, {"descriptions": {"x": "x"}}, ValueError,
     "names no slider"),
    (draw_line, {"slope": [1.0, 1.0000001]}, {}, ValueError, "the same label"),
    (lambda k: None, {"k": [1]}, {}, ValueError, "drew no new figure"),
])
def test_bad_input_is_refused(draw, sliders, options, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(").replace("[", r"\[")):
        explorer(draw, sliders, **options)


def test_a_figure_left_by_a_failing_draw_is_closed():
    def failing(k):
        plt.figure()
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        explorer(failing, {"k": [1]})
    assert plt.get_fignums() == []


def test_frames_are_reduced_to_a_palette_unless_asked_not_to():
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.imshow([[0, 1], [2, 3]], cmap="viridis")
    ax.plot([0, 1], [0, 1], "o-")
    full = frame_png(fig, colors=None)
    small = frame_png(fig)
    plt.close(fig)
    assert Image.open(io.BytesIO(full)).mode == "RGBA"
    assert Image.open(io.BytesIO(small)).mode == "P"
    assert Image.open(io.BytesIO(small)).size == Image.open(io.BytesIO(full)).size


def test_frames_have_twice_the_pixels_of_the_size_they_are_shown_at():
    box = explorer(draw_line, {"slope": [1, 2]})
    for frame in _stack(box).children:
        image = frame.children[-1]
        width, height = png_size(bytes(image.value))
        assert (int(image.width), int(image.height)) == (width // 2, height // 2)
        # 3 x 2 inches at 96 dpi, cropped to the drawing
        assert 0.8 * 3 * 96 <= int(image.width) <= 3 * 96
        assert image.layout.max_width == "100%" and image.layout.height == "auto"


def test_frames_drawn_ahead_have_one_size_however_large_each_figure():
    def growing(k):
        plt.subplots(figsize=(2 + k, 1 + 2 * k))[1].plot([0, k])

    box = explorer(growing, {"k": range(3)}, value={"k": 1})
    sizes = {png_size(bytes(image.value)) for image in _stack(box).children}
    assert len(sizes) == 1
    (size,) = sizes
    largest = explorer(growing, {"k": [2]})
    assert size == png_size(bytes(_stack(largest).children[0].value))


def test_two_sliders_frames_have_one_size():
    def grid(a, b):
        plt.subplots(figsize=(1 + a, 1 + b))[1].plot([0, a + b])

    box = explorer(grid, {"a": [0, 2], "b": [0, 1, 3]})
    images = [image for inner in _stack(box).children for image in inner.children]
    assert len({png_size(bytes(image.value)) for image in images}) == 1


def _png(width, height, color):
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), color).save(buffer, format="PNG")
    return buffer.getvalue()


def test_pad_png_centres_across_and_keeps_the_top():
    padded = Image.open(io.BytesIO(pad_png(_png(4, 2, "black"), (8, 6)))).convert("RGB")
    assert padded.size == (8, 6)
    dark = {(x, y) for x in range(8) for y in range(6) if padded.getpixel((x, y)) == (0, 0, 0)}
    assert dark == {(x, y) for x in range(2, 6) for y in range(2)}
    assert padded.getpixel((0, 5)) == (255, 255, 255)
    same = _png(8, 6, "red")
    assert pad_png(same, (8, 6)) is same
    with pytest.raises(ValueError, match="does not fit a 3x6 canvas"):
        pad_png(same, (3, 6))


@pytest.mark.parametrize("colors", [0, 1, 300])
def test_a_palette_size_out_of_range_is_refused(colors):
    with pytest.raises(ValueError, match="colors must be between 2 and 256"):
        explorer(draw_line, {"slope": [1]}, colors=colors)


def _counting(drawn):
    def draw(a, b=0):
        drawn.append((a, b))
        draw_line(a, b)
    return draw


def test_on_demand_draws_a_frame_when_the_sliders_first_reach_it():
    drawn = []
    box = explorer(_counting(drawn), {"a": [1, 2, 3]}, value={"a": 2}, frames="on-demand")
    slider, stack = box.children
    assert drawn == [(2, 0)]
    assert isinstance(stack.children[1], widgets.VBox)
    assert stack.children[0] is stack.children[2]           # one placeholder, not drawn
    slider.index = 0
    slider.index = 1
    slider.index = 0
    assert drawn == [(2, 0), (1, 0)]                          # each frame drawn once
    assert isinstance(stack.children[0], widgets.VBox)
    assert stack.children[2] is not stack.children[0]
    assert plt.get_fignums() == []


def test_on_demand_with_two_sliders_draws_in_the_inner_stack_shown():
    drawn = []
    box = explorer(_counting(drawn), {"a": [1, 2], "b": [0, 5, 9]}, frames="on-demand")
    first, second, stack = box.children
    second.index = 2
    first.index = 1
    assert drawn == [(1, 0), (1, 9), (2, 9)]
    assert isinstance(stack.children[1].children[2], widgets.VBox)
    assert not isinstance(stack.children[1].children[0], widgets.VBox)


def test_the_environment_variable_chooses_the_mode(monkeypatch):
    drawn = []
    monkeypatch.setenv("PRUNEKIT_EXPLORER_FRAMES", "on-demand")
    explorer(_counting(drawn), {"a": [1, 2, 3]})
    assert drawn == [(1, 0)]
    explorer(_counting(drawn), {"a": [1, 2]}, frames="ahead")
    assert drawn == [(1, 0), (1, 0), (2, 0)]
    monkeypatch.setenv("PRUNEKIT_EXPLORER_FRAMES", "lazy")
    with pytest.raises(ValueError, match="PRUNEKIT_EXPLORER_FRAMES must be one of"):
        explorer(_counting(drawn), {"a": [1, 2]})
    monkeypatch.delenv("PRUNEKIT_EXPLORER_FRAMES")
    with pytest.raises(ValueError, match="frames must be one of"):
        explorer(_counting(drawn), {"a": [1, 2]}, frames="some")


# The notebook step of ``make test`` runs the chapters with the frames drawn on demand (nbval
# compares no frame); the book's pages show the frames stored in the notebooks, which must
# therefore be complete.
ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = sorted((ROOT / "chapters").glob("*.ipynb"))


def _stored_explorers(path):
    """``(sliders' label lists, frames)`` of every explorer shown in a stored notebook, where
    frames nest like the Stacks: a list per slider, innermost a frame's PNG bytes and the
    width and height the page shows it at."""
    notebook = json.loads(path.read_text(encoding="utf8"))
    state = notebook["metadata"].get("widgets", {}).get(
        "application/vnd.jupyter.widget-state+json", {}).get("state", {})

    def model(ref):
        return state[ref.removeprefix("IPY_MODEL_")]

    def frames(stack):
        if stack["model_name"] == "StackModel":
            return [frames(model(child)) for child in stack["state"]["children"]]
        if stack["model_name"] == "VBoxModel":              # printed text above the image
            stack = model(stack["state"]["children"][-1])
        assert stack["model_name"] == "ImageModel", stack["model_name"]
        (buffer,) = stack["buffers"]
        shown = (int(stack["state"].get("width") or 0), int(stack["state"].get("height") or 0))
        return base64.b64decode(buffer["data"]), shown

    for cell in notebook["cells"]:
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get("application/vnd.jupyter.widget-view+json")
            if view is None:
                continue
            *sliders, stack = model(view["model_id"])["state"]["children"]
            sliders = [model(ref) for ref in sliders]
            assert all(s["model_name"] == "SelectionSliderModel" for s in sliders)
            yield [s["state"]["_options_labels"] for s in sliders], frames(model(stack))


def test_chapters_store_explorers():
    assert sum(len(list(_stored_explorers(path))) for path in CHAPTERS) >= 7


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_a_stored_explorer_holds_every_frame_at_2x_and_one_size(path):
    for labels, frames in _stored_explorers(path):
        assert len(frames) == len(labels[0])
        if len(labels) == 2:
            assert all(len(inner) == len(labels[1]) for inner in frames)
            frames = [frame for inner in frames for frame in inner]
        assert all(isinstance(png, bytes) and png.startswith(PNG) for png, _ in frames)
        sizes = {png_size(png) for png, _ in frames}
        assert len(sizes) == 1, f"frames of {len(sizes)} sizes: {sorted(sizes)[:4]}"
        (width, height), = sizes
        assert {shown for _, shown in frames} == {(width // 2, height // 2)}
