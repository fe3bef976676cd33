"""The data sets of ISLR's tree chapter, shipped with the book's package.

James, Witten, Hastie, Tibshirani and Taylor, *An Introduction to Statistical Learning*
(2023), fit their trees on Hitters, Boston, Carseats and OJ. Their CSV files, from ISLR's
BSD-licensed Python package ``ISLP``, ship gzip-compressed in :data:`ISLR_FILES`
(``pdtbook/islr_files/SOURCES.md`` gives sources and checksums), so the chapter on
regression trees needs neither ``ISLP`` (which pulls in ``torch``) nor a network.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["ISLR_FILES", "ISLR_DATA_SETS", "load_islr"]

#: The folder of the shipped files, ``<name>.csv.gz``.
ISLR_FILES = Path(__file__).resolve().parent / "islr_files"

#: The data sets that ship, by the name ISLR gives them.
ISLR_DATA_SETS = ("Boston", "Carseats", "Hitters", "OJ")


def load_islr(name: str, *, dropna: bool = False):
    """One of ISLR's data sets as a pandas DataFrame, as ``ISLP.load_data`` gives it.

    Parameters
    ----------
    name : {"Boston", "Carseats", "Hitters", "OJ"}
    dropna : bool, default False
        Drop the rows with a missing value (Hitters' 59 players without a salary, as ISLR
        does before fitting).

    Returns
    -------
    pandas.DataFrame
        Text columns (Hitters' ``League``, Carseats' ``ShelveLoc``, ...) as pandas
        categories.

    Examples
    --------
    >>> hitters = load_islr("Hitters", dropna=True)
    >>> hitters.shape
    (263, 20)
    """
    import pandas as pd

    if name not in ISLR_DATA_SETS:
        raise ValueError(f"name must be one of {', '.join(ISLR_DATA_SETS)}, got {name!r}.")
    frame = pd.read_csv(ISLR_FILES / f"{name}.csv.gz")
    text = frame.select_dtypes(include=["object", "str"]).columns
    frame[text] = frame[text].astype("category")
    return frame.dropna().reset_index(drop=True) if dropna else frame
