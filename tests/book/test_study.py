"""Tests of pdtbook.study, the comparison of every pruner of the book (Chapter 9)."""

import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from prunekit.optimal import OutOfTimeError

import pdtbook.study as st
from pdtbook.results import results_path
from pdtbook.runner import (
    N_SPLITS, available_datasets, load_dataset, read_results, split_indices,
)

ROOT = Path(__file__).resolve().parents[2]
RESULTS = results_path("study")


def same_rows(first, second):
    """Rows equal in every column a rerun reproduces (nan equal to nan)."""
    def equal(a, b):
        return a == b or (isinstance(a, float) and isinstance(b, float)
                          and math.isnan(a) and math.isnan(b))
    return len(first) == len(second) and all(
        equal(a[k], b[k]) for a, b in zip(first, second) for k in st.DETERMINISTIC_COLUMNS)


@pytest.fixture(scope="module")
def iris_rows():
    return st.run(["iris"], splits=2, progress=False)


# ---------------------------------------------------------------------- protocol
def split(n_samples, index, **caps):
    return split_indices(n_samples, index, st.STUDY_TEST_FRACTION, **caps)


def test_split_indices_partition_and_cap():
    train, test, n_grow = split(1000, 3)
    assert len(test) == 250 and len(train) == 750 and n_grow == 500
    assert len(np.intersect1d(train, test)) == 0
    assert np.array_equal(np.sort(np.concatenate([train, test])), np.arange(1000))
    again = split(1000, 3)
    assert np.array_equal(again.train, train) and np.array_equal(again.test, test)
    assert np.array_equal(again.grow, train[:500]) and np.array_equal(again.prune, train[500:])
    assert not np.array_equal(split(1000, 4).train, train)
    train, test, n_grow = split(1000, 3, max_train=90, max_test=40)
    assert (len(train), len(test), n_grow) == (90, 40, 60)


def test_every_method_on_tiny_data(iris_rows):
    methods = st.available_methods()
    assert methods == st.STUDY_METHODS    # chapter 8's pruners are all there
    assert len(iris_rows) == 2 * len(methods)
    assert [row["method"] for row in iris_rows[:len(methods)]] == list(methods)
    for split in (0, 1):
        rows = {row["method"]: row for row in iris_rows if row["split"] == split}
        unpruned = rows["unpruned"]
        for method, row in rows.items():
            assert list(row) == list(st.STUDY_COLUMNS)
            assert row["dataset"] == "iris" and row["group"] == "scikit-learn"
            assert (row["n_features"], row["n_classes"]) == (4, 3)
            assert row["n_train"] == 112 and row["n_test"] == 38
            if method in st.USES_PRUNING_SET:
                assert (row["n_grow"], row["n_prune"]) == (75, 37)
            else:
                assert (row["n_grow"], row["n_prune"]) == (112, 0)
            assert 0 <= row["test_error"] <= 1
            assert row["n_nodes"] == 2 * row["n_leaves"] - 1 or method == "forest"
            assert row["grow_seconds"] >= 0 and row["prune_seconds"] >= 0
            if method not in ("forest", "sklearn-ccp", "depth-cv", "hs-cv", "optimal-cv") \
                    and method not in st.USES_PRUNING_SET:
                # a pruning of the unpruned tree (raising never adds nodes either)
                assert row["n_nodes"] <= unpruned["n_nodes"]
        assert rows["ccp-cv-1se"]["n_leaves"] <= rows["ccp-cv"]["n_leaves"]
        # shrinkage keeps every node of the tree grown on the same data
        assert rows["hs-cv"]["n_nodes"] == unpruned["n_nodes"]
        assert rows["hs-cv"]["parameter"] in st.HS_REG_PARAMS
        assert rows["km-cv"]["parameter"] in st.KM_C_GRID
        assert rows["forest"]["n_leaves"] > unpruned["n_leaves"]
        # an optimal tree of the grid: a depth and an alpha cross-validation chose from
        assert rows["optimal-cv"]["parameter"] in st.OPT_ALPHAS
        assert 1 <= rows["optimal-cv"]["depth"] <= max(st.OPT_DEPTHS)


def test_optimal_trees_need_pystreed(monkeypatch):
    """Without STreeD (``pdtbook[optimal]``) the optimal tree is left out of the default
    methods, and asking for it names the extra."""
    monkeypatch.setitem(sys.modules, "pystreed", None)
    assert "optimal-cv" not in st.available_methods()
    with pytest.raises(ModuleNotFoundError, match=r'pip install "pdtbook\[optimal\]"'):
        st.run(["iris"], splits=1, methods=["optimal-cv"], progress=False)


def _iris_split():
    X, y = load_dataset(st.STUDY_DATASETS["iris"])
    train, test, _ = split(len(y), 0)
    return X[train], y[train], X[test], y[test], 3, 0


def _running_out(monkeypatch, when):
    """Make every optimal_tree call for which ``when(X, max_depth)`` holds run out of time,
    as STreeD does when it cannot prove a tree optimal within its limit."""
    solve = st.optimal_tree

    def limited(X, y, **kwargs):
        if when(X, kwargs["max_depth"]):
            raise OutOfTimeError("STreeD did not prove a tree optimal within "
                                 "time_limit=10 seconds")
        return solve(X, y, **kwargs)
    monkeypatch.setattr(st, "optimal_tree", limited)


def test_optimal_tree_out_of_time_drops_the_depth_and_is_counted(monkeypatch):
    base = st.run_split(*_iris_split(), methods=["optimal-cv"])[0]
    assert base["out_of_time"] == 0 and base["depth_limit"] in st.OPT_DEPTHS
    _running_out(monkeypatch, lambda X, depth: depth >= 3)
    row = st.run_split(*_iris_split(), methods=["optimal-cv"])[0]
    assert (row["out_of_time"], row["depth_limit"]) == (1, 2) and row["depth"] <= 2
    assert row["parameter"] in st.OPT_ALPHAS


def test_optimal_tree_refit_out_of_time_takes_the_next_candidate(monkeypatch):
    chosen = st.run_split(*_iris_split(), methods=["optimal-cv"])[0]
    n_train = len(_iris_split()[1])
    refits = []

    def first_refit(X, depth):
        if len(X) == n_train:
            refits.append(depth)
            return len(refits) == 1
        return False
    _running_out(monkeypatch, first_refit)
    row = st.run_split(*_iris_split(), methods=["optimal-cv"])[0]
    assert len(refits) == 2 and refits[0] == chosen["depth_limit"]
    assert row["out_of_time"] == 1 and row["depth_limit"] == refits[1]


def test_optimal_tree_out_of_time_everywhere_is_an_error(monkeypatch):
    _running_out(monkeypatch, lambda X, depth: True)
    with pytest.raises(RuntimeError, match="every optimal tree of the grid ran out"):
        st.run_split(*_iris_split(), methods=["optimal-cv"])


def test_a_method_whose_package_is_missing_is_not_available(monkeypatch):
    """Without imodels (``pdtbook[study]``), hierarchical shrinkage is left out of the
    default methods, and asking for it says which extra installs it."""
    monkeypatch.setitem(sys.modules, "imodels", None)        # import imodels fails
    methods = st.available_methods()
    assert methods == tuple(m for m in st.STUDY_METHODS if m != "hs-cv")
    rows = st.run(["iris"], splits=1, progress=False)
    assert [row["method"] for row in rows] == list(methods)
    message = r"method 'hs-cv' needs imodels.*pip install \"pdtbook\[study\]\""
    with pytest.raises(ModuleNotFoundError, match=message):
        st.run(["iris"], splits=1, methods=["unpruned", "hs-cv"], progress=False)
    with pytest.raises(ModuleNotFoundError, match=message):
        st._RUNNERS["hs-cv"](None)
    with pytest.raises(ValueError, match="unknown method"):
        st.run(["iris"], methods=["magic"], progress=False)


def test_a_missing_dependency_of_the_book_is_named(monkeypatch):
    results = pd.read_csv(RESULTS)
    monkeypatch.setitem(sys.modules, "scikit_posthocs", None)
    with pytest.raises(ModuleNotFoundError, match=r'pip install "pdtbook"'):
        st.nemenyi(results)


def test_a_dask_scheduler_without_distributed_names_the_extra(monkeypatch, capsys,
                                                              tmp_path):
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(SystemExit):
        st.main(["iris", "--splits", "1", "--dask-scheduler", "tcp://127.0.0.1:1",
                 "--out", str(tmp_path / "study.csv")])
    assert 'pip install "pdtbook[cluster]"' in capsys.readouterr().err


def test_a_split_is_a_function_of_its_index(iris_rows):
    X, y = load_dataset(st.STUDY_DATASETS["iris"])
    train, test, _ = split(len(y), 1)
    again = st.run_split(X[train], y[train], X[test], y[test], 3, 1)
    assert same_rows([dict(r, dataset="iris", group="scikit-learn", n_features=4, n_classes=3)
                      for r in again],
                     [r for r in iris_rows if r["split"] == 1])


def test_the_cache_resumes_and_adds_methods(tmp_path, monkeypatch):
    first = st.run(["wine"], splits=2, methods=["unpruned", "rep"], cache=tmp_path,
                   progress=False)
    assert len(list((tmp_path / "wine").glob("split*.json"))) == 2

    def fail(split):
        raise AssertionError("a cached method was run again")

    monkeypatch.setitem(st._RUNNERS, "unpruned", fail)
    monkeypatch.setitem(st._RUNNERS, "rep", fail)
    second = st.run(["wine"], splits=2, methods=["unpruned", "rep", "pep"], cache=tmp_path,
                    progress=False)
    assert [row["method"] for row in second] == ["unpruned", "rep", "pep"] * 2
    assert same_rows(first, [row for row in second if row["method"] != "pep"])
    # another protocol (a smaller training cap) does not read these files
    with pytest.raises(AssertionError, match="cached method"):
        st.run(["wine"], splits=1, methods=["rep"], cache=tmp_path, max_train=60,
               progress=False)


def test_the_same_rows_on_a_dask_cluster():
    distributed = pytest.importorskip("distributed")
    from joblib import parallel_config

    names, methods = ["iris", "dnf-m200-noise0.1"], ["unpruned", "ccp-cv", "rep", "ebp"]
    serial = st.run(names, splits=2, methods=methods, progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client, \
            distributed.get_task_stream(client) as stream, \
            parallel_config(backend="dask"):
        on_cluster = st.run(names, splits=2, methods=methods, progress=False)
    assert len(stream.data) >= 4                # the four splits ran as cluster tasks
    assert same_rows(serial, on_cluster)


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="unknown data set"):
        st.run(["no-such-set"], progress=False)
    with pytest.raises(ValueError, match="unknown method"):
        st.run(["iris"], methods=["magic"], progress=False)
    with pytest.raises(ValueError, match="splits"):
        st.run(["iris"], splits=0, progress=False)
    with pytest.raises(ValueError, match="max_train"):
        split(100, 0, max_train=2)


def test_data_sets_load_with_labels_from_zero():
    for name in ("wine", "led24", "dnf-m200-noise0.3"):
        X, y = load_dataset(st.STUDY_DATASETS[name])
        assert X.dtype == np.float64 and y.min() == 0 and len(X) == len(y)
    X, y = load_dataset(st.STUDY_DATASETS["dnf-m1000-noise0.2"])
    assert len(split(len(y), 0).train) == 1000
    assert set(available_datasets(st.STUDY_DATASETS, ROOT / "no-such-folder")) == {
        name for name, d in st.STUDY_DATASETS.items() if d.group != "UCI"}


def test_command_line_writes_the_results(tmp_path):
    out = tmp_path / "rows.csv"
    assert st.main(["iris", "--splits", "1", "--methods", "unpruned", "mep",
                    "--out", str(out)]) == 0
    frame = read_results(out)
    assert list(frame.columns) == list(st.STUDY_COLUMNS)
    # a run that computed every split records its wall time next to the results
    record = pd.read_csv(tmp_path / "rows_run.csv")
    assert record.loc[0, ["datasets", "splits", "methods"]].tolist() == [1, 1, 2]
    assert record.loc[0, "wall_seconds"] > 0
    assert frame["method"].tolist() == ["unpruned", "mep"]
    assert np.isnan(frame["parameter"]).all()


# ---------------------------------------------------------------------- statistics
def _toy_results():
    """Three methods on four data sets, one split each; "a" is best on all but one."""
    errors = {"d1": (0.1, 0.2, 0.3), "d2": (0.2, 0.1, 0.3), "d3": (0.1, 0.3, 0.2),
              "d4": (0.1, 0.1, 0.4)}
    sizes = {"d1": (5, 3, 9), "d2": (5, 3, 9), "d3": (6, 3, 9), "d4": (4, 2, 9)}
    return pd.DataFrame([dict(dataset=d, split=0, method=m, test_error=errors[d][i],
                              n_leaves=sizes[d][i])
                         for d in errors for i, m in enumerate(("rep", "pep", "forest"))])


def test_average_ranks_and_friedman():
    toy = _toy_results()
    table = st.mean_table(toy)
    assert list(table.columns) == ["rep", "pep", "forest"]
    assert list(table.index) == ["d1", "d2", "d3", "d4"]
    average = st.average_ranks(toy)
    # ranks per data set: d1 1,2,3; d2 2,1,3; d3 1,3,2; d4 1.5,1.5,3
    assert average.to_dict() == pytest.approx({"rep": 5.5 / 4, "pep": 7.5 / 4, "forest": 11 / 4})
    assert list(average.index) == ["rep", "pep", "forest"]
    result = st.friedman_test(toy)
    chi2, p = stats.friedmanchisquare(table["rep"], table["pep"], table["forest"])
    assert (result.statistic, result.pvalue) == pytest.approx((chi2, p))
    n, k = 4, 3
    f = (n - 1) * chi2 / (n * (k - 1) - chi2)
    assert result.f_statistic == pytest.approx(f)
    assert result.f_pvalue == pytest.approx(stats.f.sf(f, k - 1, (k - 1) * (n - 1)))
    pvalues = st.nemenyi(toy)
    assert np.allclose(pvalues.to_numpy(), pvalues.to_numpy().T)
    assert pvalues.loc["rep", "forest"] < pvalues.loc["rep", "pep"]


def test_critical_difference_matches_demsar_table():
    # Demšar (2006), Table 5(a): q_0.05 = 2.343 for k = 3 and 3.164 for k = 10
    assert st.critical_difference(3, 1) == pytest.approx(2.343 * math.sqrt(3 * 4 / 6), abs=2e-3)
    assert st.critical_difference(10, 30) == pytest.approx(
        3.164 * math.sqrt(10 * 11 / 180), abs=2e-3)
    with pytest.raises(ValueError, match="alpha"):
        st.critical_difference(3, 5, alpha=1.5)


def test_paired_comparison_counts_and_wilcoxon():
    toy = _toy_results()
    result = st.paired_comparison(toy, "rep", "pep")
    assert (result["wins"], result["ties"], result["losses"]) == (2, 1, 1)
    difference = np.array([-0.1, 0.1, -0.2, 0.0])
    assert result["mean_difference"] == pytest.approx(difference.mean())
    assert result["pvalue"] == pytest.approx(
        stats.wilcoxon(difference, zero_method="zsplit").pvalue)
    with pytest.raises(ValueError, match="not in the results"):
        st.paired_comparison(toy, "rep", "cvp")


def test_paired_comparisons_adjust_by_holm():
    from statsmodels.stats.multitest import multipletests

    toy = _toy_results()
    pairs = [("rep", "pep"), ("rep", "forest"), ("pep", "forest")]
    table = st.paired_comparisons(toy, pairs)
    assert list(zip(table["first"], table["second"])) == pairs
    for row, (first, second) in zip(table.to_dict("records"), pairs):
        single = st.paired_comparison(toy, first, second)
        assert {k: row[k] for k in single} == pytest.approx(single, nan_ok=True)
    assert table["holm_pvalue"].tolist() == pytest.approx(
        multipletests(table["pvalue"], method="holm")[1])
    assert (table["holm_pvalue"] >= table["pvalue"]).all()
    with pytest.raises(ValueError, match="pairs"):
        st.paired_comparisons(toy, [])
    with pytest.raises(ValueError, match="pairs"):
        st.paired_comparisons(toy, [("rep",)])


def test_ccp_alpha_grid_spreads_over_the_path():
    path = np.array([0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
    assert st.ccp_alpha_grid(path, 3).tolist() == [0.0, 0.3, 0.6]
    assert st.ccp_alpha_grid(path, 100).tolist() == path.tolist()
    assert st.ccp_alpha_grid([0.0, 0.0, 0.2], 5).tolist() == [0.0, 0.2]
    assert st.ccp_alpha_grid(path, 1).tolist() == [0.0]
    with pytest.raises(ValueError, match="alphas"):
        st.ccp_alpha_grid([], 3)
    with pytest.raises(ValueError, match="size"):
        st.ccp_alpha_grid(path, 0)


def test_pareto_front():
    size = [1, 2, 3, 3, 5]
    error = [0.5, 0.3, 0.3, 0.4, 0.1]
    assert st.pareto_front(size, error).tolist() == [True, True, False, False, True]
    with pytest.raises(ValueError, match="same length"):
        st.pareto_front([1, 2], [0.1])


def test_time_table_sums_per_method():
    rows = pd.DataFrame([dict(dataset="a", split=s, method=m, grow_seconds=1.0 + s,
                              prune_seconds=2.0) for s in (0, 1) for m in ("rep", "unpruned")])
    table = st.time_table(rows)
    assert list(table.index) == ["unpruned", "rep"]
    assert table.loc["rep"].tolist() == [3.0, 4.0, 7.0]
    # without growing times (the regression study's rows)
    table = st.time_table(rows.drop(columns="grow_seconds"))
    assert table.loc["rep"].tolist() == [4.0, 4.0]
    with pytest.raises(ValueError, match="prune_seconds"):
        st.time_table(rows.drop(columns=["grow_seconds", "prune_seconds"]))


def test_synthetic_parameters():
    assert st.synthetic_parameters("dnf-m1000-noise0.2") == (1000, 0.2)
    with pytest.raises(ValueError, match="synthetic"):
        st.synthetic_parameters("iris")


# ---------------------------------------------------------------------- the committed results
def test_the_committed_results_cover_every_method_and_data_set():
    committed = read_results(RESULTS)
    assert list(committed.columns) == list(st.STUDY_COLUMNS)
    counts = committed.groupby(["dataset", "method"]).size()
    assert set(committed["dataset"]) == set(st.STUDY_DATASETS) - {"census", "cover", "isolet"}
    assert set(committed["method"]) == set(st.STUDY_METHODS)
    assert (counts == N_SPLITS).all() and len(counts) == 28 * len(st.STUDY_METHODS)
    # one row per run: every method but the optimal tree, then the optimal tree alone
    records = pd.read_csv(RESULTS.with_name("study_run.csv"))
    assert (records["datasets"] == 28).all() and (records["splits"] == 280).all()
    assert records["methods"].tolist() == [19, 1]
    assert records["methods"].sum() == len(st.STUDY_METHODS)


def test_two_small_data_sets_regenerate_the_committed_rows():
    names = ["iris", "wine"]
    fresh = pd.DataFrame(st.run(names, progress=False))
    committed = read_results(RESULTS)
    committed = committed[committed["dataset"].isin(names)].reset_index(drop=True)
    columns = list(st.DETERMINISTIC_COLUMNS)
    pd.testing.assert_frame_equal(fresh[columns], committed[columns], check_dtype=False)
