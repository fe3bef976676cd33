"""prunekit.book.explorer: frames drawn in advance, one per slider value, linked in the
browser."""

import ipywidgets as widgets
import matplotlib.pyplot as plt
import pytest

from prunekit.book.explorer import explorer, frame_png

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
    from PIL import Image
    import io

    fig, ax = plt.subplots(figsize=(3, 2))
    ax.imshow([[0, 1], [2, 3]], cmap="viridis")
    ax.plot([0, 1], [0, 1], "o-")
    full = frame_png(fig, colors=None)
    small = frame_png(fig)
    plt.close(fig)
    assert Image.open(io.BytesIO(full)).mode == "RGBA"
    assert Image.open(io.BytesIO(small)).mode == "P"
    assert Image.open(io.BytesIO(small)).size == Image.open(io.BytesIO(full)).size


@pytest.mark.parametrize("colors", [0, 1, 300])
def test_a_palette_size_out_of_range_is_refused(colors):
    with pytest.raises(ValueError, match="colors must be between 2 and 256"):
        explorer(draw_line, {"slope": [1]}, colors=colors)
