"""Two UCI data sets that ship with the book's package: ANNEAL and PAGE-BLOCKS.

The runners read the UCI files from a folder of their own (``--data``, or
``$PRUNEKIT_DATA``), which a reader on Colab or Binder does not have. The page "Using
prunekit with scikit-learn" fits models on two of those data sets, small enough to ship
here: the UCI files themselves, gzip-compressed, in :data:`DATA_HOME`, laid out as
:func:`prunekit.datasets.load_uci` reads them (``pdtbook/uci_files/SOURCES.md`` gives their
sources, checksums and licence, CC BY 4.0).

* ``load_uci("page-blocks", DATA_HOME)`` gives PAGE-BLOCKS as numbers, ready to learn from;
  :data:`PAGE_BLOCKS_CLASSES` names its classes.
* ANNEAL is read as the table it is, with :data:`ANNEAL_COLUMNS` for its columns, to show
  what a pipeline does with text columns and missing values::

      import pandas as pd
      files = [DATA_HOME / "anneal" / f"anneal.{part}.gz"
               for part in ("data", "test")]
      steel = pd.concat([pd.read_csv(f, names=ANNEAL_COLUMNS, na_values="?")
                         for f in files], ignore_index=True)
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["DATA_HOME", "ANNEAL_COLUMNS", "PAGE_BLOCKS_CLASSES"]

#: The folder of the shipped UCI files, as :func:`prunekit.datasets.load_uci` takes it
#: (``data_home``): ``anneal/anneal.data.gz``, ``anneal/anneal.test.gz`` and
#: ``page-blocks/page-blocks.data.gz``.
DATA_HOME = Path(__file__).resolve().parent / "uci_files"

#: The columns of ANNEAL's files, as UCI's description names them: 38 attributes of a steel
#: coil and its class (``"1"``, ``"2"``, ``"3"``, ``"5"`` or ``"U"``). The files have no
#: header row and mark a value that is missing or does not apply with ``?``.
ANNEAL_COLUMNS = (
    "family", "product-type", "steel", "carbon", "hardness", "temper_rolling", "condition",
    "formability", "strength", "non-ageing", "surface-finish", "surface-quality",
    "enamelability", "bc", "bf", "bt", "bw/me", "bl", "m", "chrom", "phos", "cbond", "marvi",
    "exptl", "ferro", "corr", "blue/bright/varn/clean", "lustre", "jurofm", "s", "p", "shape",
    "thick", "width", "len", "oil", "bore", "packing", "class",
)

#: PAGE-BLOCKS's classes, by the label :func:`prunekit.datasets.load_uci` gives them (the
#: class distribution of UCI's description; 4,913 of the 5,473 blocks are text).
PAGE_BLOCKS_CLASSES = {"1": "text", "2": "horizontal line", "3": "graphic",
                       "4": "vertical line", "5": "picture"}
