"""The regression study of Chapter 11: its data sets load offline, a split's rows are a
function of its index, the cache resumes, a Dask cluster gives the serial rows, and the shipped
table has every data set, split and method."""

import numpy as np
import pandas as pd
import pytest

from pdtbook import regression_study as rs
from pdtbook.results import load_results

SMALL = ["engel", "hitters"]


@pytest.fixture(scope="module")
def rows():
    return rs.run(SMALL, splits=1, progress=False)


def test_every_data_set_loads_offline_with_numeric_finite_values():
    for name in rs.REGRESSION_DATASETS:
        X, y = rs.load_regression(name)
        assert X.ndim == 2 and len(X) == len(y) >= 200, name
        assert np.isfinite(X).all() and np.isfinite(y).all(), name
        assert np.unique(y).size > 20, name            # a quantity, not a few classes


def test_a_split_gives_one_row_per_method_with_sane_values(rows):
    assert [(r["dataset"], r["method"]) for r in rows] == [
        (name, method) for name in SMALL for method in rs.REGRESSION_METHODS]
    for row in rows:
        assert row["test_mse"] > 0 and row["n_leaves"] >= 1
        assert row["relative_error"] == pytest.approx(
            row["test_mse"] / np.var(_test_targets(row["dataset"])))
    by = {(r["dataset"], r["method"]): r for r in rows}
    for name in SMALL:       # the 1-SE tree is never larger than the 0-SE tree
        assert by[name, "ccp-cv-1se"]["n_leaves"] <= by[name, "ccp-cv-0se"]["n_leaves"]
        assert by[name, "unpruned"]["n_leaves"] == max(
            by[name, m]["n_leaves"] for m in rs.REGRESSION_METHODS if m != "rep")


def _test_targets(name):
    X, y = rs.load_regression(name)
    _, test, _ = rs.split_indices(len(y), 0, rs.TEST_FRACTION, rs.MAX_TRAIN, rs.MAX_TEST)
    return y[test]


def _numbers(rows):
    return [{k: v for k, v in row.items() if k != "prune_seconds"} for row in rows]


def test_the_rows_are_a_function_of_the_split_and_the_cache_resumes(rows, tmp_path,
                                                                   monkeypatch):
    again = rs.run(SMALL, splits=1, methods=["unpruned", "gey-nedelec"], cache=tmp_path,
                   progress=False)
    assert _numbers(again) == _numbers([r for r in rows
                                        if r["method"] in ("unpruned", "gey-nedelec")])
    monkeypatch.setitem(rs._PRUNERS, "gey-nedelec",
                        lambda *args: pytest.fail("a cached method was run again"))
    resumed = rs.run(SMALL, splits=1, methods=["unpruned", "gey-nedelec"], cache=tmp_path,
                     progress=False)
    assert _numbers(resumed) == _numbers(again)


def test_the_same_rows_on_a_dask_cluster(rows):
    distributed = pytest.importorskip("distributed")
    from joblib import parallel_config

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster), parallel_config(backend="dask"):
        on_cluster = rs.run(SMALL, splits=1, progress=False)
    assert _numbers(on_cluster) == _numbers(rows)


def test_bad_names_are_refused():
    with pytest.raises(ValueError, match="data set"):
        rs.run(["no-such-set"], progress=False)
    with pytest.raises(ValueError, match="method"):
        rs.run(["engel"], methods=["magic"], progress=False)


def test_the_shipped_table_has_every_data_set_split_and_method():
    table = load_results("regression_study")
    counts = table.groupby(["dataset", "method"]).size()
    assert set(table["dataset"]) == set(rs.REGRESSION_DATASETS)
    assert set(table["method"]) == set(rs.REGRESSION_METHODS)
    assert (counts == rs.N_SPLITS).all() and len(counts) == (
        len(rs.REGRESSION_DATASETS) * len(rs.REGRESSION_METHODS))
    assert isinstance(table, pd.DataFrame) and table["relative_error"].gt(0).all()
