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

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1,
                                  processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client, \
            distributed.get_task_stream(client) as stream, \
            parallel_config(backend="dask"):
        on_cluster = rs.run(SMALL, splits=1, progress=False)
    assert len(stream.data) >= len(SMALL)    # the splits ran as cluster tasks
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


# ----------------------------------------------------------------- the methods
def _split(name="engel", split=0):
    X, y = rs.load_regression(name)
    train, test, n_grow = rs.split_indices(len(y), split, rs.TEST_FRACTION,
                                           rs.MAX_TRAIN, rs.MAX_TEST)
    return X[train], y[train], X[test], y[test], n_grow


def test_each_method_is_the_pruning_it_names(rows, monkeypatch):
    """The penalty is cost complexity at Gey and Nedelec's alpha on the tree
    of the whole training part; REP prunes the tree of its first two thirds
    with the rest; both CCP rules read one cross-validation (fewer folds
    here)."""
    import prunekit as pk
    from sklearn.model_selection import KFold

    monkeypatch.setattr(rs, "CV_FOLDS", 3)
    X, y, X_test, y_test, n_grow = _split()
    assert rs.growing_size(len(y)) == n_grow
    by = {r["method"]: r for r in rs.run_split(X, y, X_test, y_test, 0)}
    assert list(by) == list(rs.REGRESSION_METHODS)
    grower = rs._grower(0)
    tree = pk.RegressionTree.from_sklearn(grower.fit(X, y), X, y)
    alpha = pk.gey_nedelec_alpha(len(y), pk.residual_variance(tree))
    penalised = pk.cost_complexity(tree, alpha)
    assert by["gey-nedelec"]["n_leaves"] == penalised.n_leaves
    assert by["gey-nedelec"]["test_mse"] == pytest.approx(
        penalised.error(X_test, y_test))
    part = pk.RegressionTree.from_sklearn(
        rs._grower(0).fit(X[:n_grow], y[:n_grow]), X[:n_grow], y[:n_grow])
    rep = pk.reduced_error(part, X[n_grow:], y[n_grow:])
    assert by["rep"]["n_leaves"] == rep.n_leaves
    selection = pk.cross_validate_alpha(X, y, rs._grower(0),
                                        cv=KFold(3, shuffle=True,
                                                 random_state=0))
    for method, step in (("ccp-cv-0se", selection.best),
                         ("ccp-cv-1se", selection.one_se)):
        assert by[method]["n_leaves"] == selection.path.pruning(step).n_leaves
    # one cross-validation, timed once, serves both rules
    assert by["ccp-cv-0se"]["prune_seconds"] == \
        by["ccp-cv-1se"]["prune_seconds"]
    assert by["unpruned"]["n_leaves"] == tree.n_leaves
    for row in by.values():
        assert row["prune_seconds"] >= 0
        assert row["relative_error"] == pytest.approx(
            row["test_mse"] / np.var(y_test))


def test_loaders_give_the_documented_targets():
    X, y = rs.load_regression("hitters")
    assert X.shape == (263, 19) and y.min() > 0 and y.max() < 10  # log salary
    X, y = rs.load_regression("friedman1")
    assert X.shape == (rs.FRIEDMAN_SAMPLES, 10)
    again_X, again_y = rs.load_regression("friedman1")   # seeded simulation
    assert np.array_equal(X, again_X) and np.array_equal(y, again_y)
    X, y = rs.load_regression("star98")
    assert ((0 < y) & (y < 1)).all()                     # a share of pupils
    X, y = rs.load_regression("engel")
    assert X.shape == (235, 1)


def test_command_line_writes_the_table_and_the_run_record(tmp_path):
    out = tmp_path / "rows.csv"
    assert rs.main(["engel", "--splits", "1", "--methods", "unpruned",
                    "gey-nedelec", "--out", str(out),
                    "--cache", str(tmp_path / "cache")]) == 0
    table = pd.read_csv(out)
    assert list(table.columns) == list(rs.COLUMNS)
    assert table["method"].tolist() == ["unpruned", "gey-nedelec"]
    record = pd.read_csv(tmp_path / "rows_run.csv")
    counts = record.loc[0, ["datasets", "splits", "methods"]].tolist()
    assert counts == [1, 1, 2]
    assert record.loc[0, "wall_seconds"] > 0
    # a rerun that reads every split from the cache keeps the record
    (tmp_path / "rows_run.csv").unlink()
    assert rs.main(["engel", "--splits", "1", "--methods", "unpruned",
                    "gey-nedelec", "--out", str(out),
                    "--cache", str(tmp_path / "cache")]) == 0
    assert not (tmp_path / "rows_run.csv").exists()
    assert pd.read_csv(out).equals(table)


# ------------------------------------------------------------------ statistics
def test_the_study_statistics_compare_the_regression_pruners():
    """Chapter 9's statistics, on the column ``relative_error``, in the order
    of the regression methods; Wilcoxon's tests adjusted by Holm's method."""
    from scipy import stats
    from statsmodels.stats.multitest import multipletests

    from pdtbook import study

    table = load_results("regression_study")
    methods = list(rs.REGRESSION_METHODS)
    means = study.mean_table(table, "relative_error", methods)
    assert list(means.columns) == methods
    assert means.shape == (len(rs.REGRESSION_DATASETS), len(methods))
    average = study.average_ranks(table, "relative_error", methods)
    k = len(methods)
    assert average.sum() == pytest.approx(k * (k + 1) / 2)
    friedman = study.friedman_test(table, "relative_error", methods)
    chi2, p = stats.friedmanchisquare(*(means[m] for m in methods))
    assert (friedman.statistic, friedman.pvalue) == pytest.approx((chi2, p))
    pairs = [("ccp-cv-1se", "gey-nedelec"), ("ccp-cv-1se", "ccp-cv-0se")]
    tests = study.paired_comparisons(table, pairs, "relative_error")
    assert list(zip(tests["first"], tests["second"])) == pairs
    raw = [study.paired_comparison(table, a, b, "relative_error")["pvalue"]
           for a, b in pairs]
    assert tests["pvalue"].tolist() == raw
    assert tests["holm_pvalue"].tolist() == pytest.approx(
        multipletests(raw, method="holm")[1])
    # the 1-SE trees are the smallest on every data set
    leaves = study.mean_table(table, "n_leaves", methods)
    assert (leaves["ccp-cv-1se"] <= leaves.min(axis=1)).all()
    seconds = study.time_table(table)
    assert list(seconds.columns) == ["prune_seconds", "total_seconds"]
    assert set(seconds.index) == set(methods)
    run = load_results("regression_study_run")
    assert run.loc[0, ["datasets", "splits", "methods"]].tolist() == [
        len(rs.REGRESSION_DATASETS), len(rs.REGRESSION_DATASETS) * rs.N_SPLITS,
        len(methods)]
