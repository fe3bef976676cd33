"""The folding of code cells on the web page.

Which cells book/fold_code.py folds (tagged ``fold-code`` in the chapters'
notebooks) and the one-line summary book/_ext/code_folds.py gives a cell's
code. The built pages are checked in the browser at 390 px
(tests/browser/test_book_phone.py).
"""

import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "book"))
sys.path.insert(0, str(ROOT / "book" / "_ext"))

import code_folds  # noqa: E402
import fold_code  # noqa: E402

CHAPTERS = fold_code.chapter_notebooks()


def _figure_output():
    data = {"image/png": "iVBOR", "text/plain": "<Figure>"}
    return nbformat.v4.new_output("display_data", data=data)


def _notebook(*cells):
    return nbformat.v4.new_notebook(cells=list(cells))


def test_the_chapters_cells_to_fold_are_tagged():
    """`make check-generated` runs book/fold_code.py --check; so does this
    test."""
    stale = {path.name: fold_code.untagged(nbformat.read(path,
                                                         as_version=4))
             for path in CHAPTERS}
    assert not any(stale.values()), stale


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda path: path.stem)
def test_every_chapter_folds_its_set_up_cell(path):
    nb = nbformat.read(path, as_version=4)
    folded = fold_code.folded_cells(nb)
    shown = [index for index, cell in enumerate(nb.cells)
             if cell.cell_type == "code"
             and "remove-cell" not in cell.metadata.get("tags", [])]
    assert folded and folded[0] == shown[0], folded


def test_the_rule_folds_the_set_up_and_long_plotting_cells_only():
    long_plot = "\n".join(f"ax.plot({k})"
                          for k in range(fold_code.MIN_LINES))
    cells = [
        nbformat.v4.new_code_cell("%pip install x",
                                  metadata={"tags": ["remove-cell"]}),
        nbformat.v4.new_code_cell("import numpy as np\nx = 1"),
        nbformat.v4.new_code_cell(long_plot, outputs=[_figure_output()]),
        nbformat.v4.new_code_cell("plt.plot(x)\nplt.show()",
                                  outputs=[_figure_output()]),
        nbformat.v4.new_code_cell(long_plot, outputs=[
            _figure_output(),
            nbformat.v4.new_output("stream", text="printed")]),
        nbformat.v4.new_code_cell("import pandas as pd\npd.DataFrame()"),
        nbformat.v4.new_code_cell(long_plot),
    ]
    assert fold_code.folded_cells(_notebook(*cells)) == [1, 2]
    # a plot, the first cell shown
    assert fold_code.folded_cells(_notebook(*cells[2:])) == [0]
    cells[2].metadata["tags"] = ["fold-code"]
    assert fold_code.untagged(_notebook(*cells)) == [1]


@pytest.mark.parametrize("source, figure, first, summary", [
    ("x = 1", "Fig. 4.2", False, "Code of Fig. 4.2"),
    ("import numpy as np\n\nnp.set_printoptions(precision=4)", None, True,
     "Set-up: imports and settings"),
    ("import numpy as np\nnp.zeros(3)", None, False, "Code"),
    ("# Width after the union bound\nx = 1", None, False,
     "Width after the union bound"),
    ("def nested_tree(spec):\n    return spec\n\n\nclass Box:\n    pass\n",
     None, False, "Defines nested_tree, Box"),
    ("%time x = f(\n", None, False, "Code"),
])
def test_the_summary_says_what_the_code_is(source, figure, first, summary):
    assert code_folds.summary_of(source, figure, first) == summary
