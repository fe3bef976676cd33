"""ISLR's data sets shipped in pdtbook: the files ISLP ships, unchanged."""

import gzip
import hashlib
import re
from pathlib import Path

import pytest

from pdtbook.islr import ISLR_FILES, ISLR_DATA_SETS, load_islr

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "islr"


def _listed_md5() -> dict:
    text = (ISLR_FILES / "SOURCES.md").read_text()
    return dict(re.findall(r"`(\w+)\.csv\.gz` \| ([0-9a-f]{32})", text))


@pytest.mark.parametrize("name", ISLR_DATA_SETS)
def test_each_file_is_the_one_sources_md_lists(name):
    content = gzip.decompress((ISLR_FILES / f"{name}.csv.gz").read_bytes())
    assert hashlib.md5(content).hexdigest() == _listed_md5()[name]
    if SHARED.is_dir():
        assert content == (SHARED / f"{name}.csv").read_bytes()


def test_hitters_as_islr_fits_it():
    hitters = load_islr("Hitters", dropna=True)
    assert hitters.shape == (263, 20)
    assert str(hitters["League"].dtype) == "category"
    assert load_islr("Hitters")["Salary"].isna().sum() == 59
    with pytest.raises(ValueError, match="one of"):
        load_islr("Default")
