"""The book's figures in a notebook: 2x PNGs that declare the size they were drawn at."""

import base64
import io

import matplotlib.pyplot as plt
import pytest
from PIL import Image

from pdtbook.figures._style import show_inline_figures_sharp


@pytest.fixture
def shell():
    from IPython.core.interactiveshell import InteractiveShell

    yield InteractiveShell.instance()
    InteractiveShell.clear_instance()


def test_without_ipython_nothing_changes():
    assert show_inline_figures_sharp() is False


def test_a_notebooks_figures_are_2x_pngs_shown_at_the_drawn_size(shell):
    assert show_inline_figures_sharp() is True
    figure, ax = plt.subplots(figsize=(3, 2), dpi=96)
    ax.plot([0, 1], [0, 1])
    data, metadata = shell.display_formatter.format(figure)
    raw = data["image/png"]  # base64 text in IPython 9, bytes before
    png = Image.open(io.BytesIO(base64.b64decode(raw) if isinstance(raw, str) else raw))
    declared = metadata["image/png"]
    assert png.width // 2 == declared["width"] and png.height // 2 == declared["height"]
    assert 0.8 * 3 * 96 <= declared["width"] <= 3 * 96  # the drawn size, not the pixels
