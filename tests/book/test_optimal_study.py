"""Tests of pdtbook.optimal_study, greedy pruning against optimal trees (Chapter 10)."""

import math

import numpy as np
import pandas as pd
import pytest

import pdtbook.optimal_study as os_
from pdtbook.runner import load_dataset, read_results
from pdtbook.study import STUDY_DATASETS
from pdtbook.results import results_path

SLICE = "dnf-m1000-noise0.1"
FAST = ["error/2/0.001", "error/3/0.005", "pessimistic/2/0"]


def split_data(name, split):
    X, y = load_dataset(STUDY_DATASETS[name])
    return (*os_._train_test(X, y, split), int(y.max()) + 1, split)


@pytest.fixture(scope="module")
def fast_rows():
    return os_.run_split(*split_data(SLICE, 0), FAST)


def test_the_optimum_is_never_above_the_greedy_pruning(fast_rows):
    # the prunings of the greedy tree are trees of the same depth on the same features
    assert [row["status"] for row in fast_rows] == ["optimal"] * len(FAST)
    for row in fast_rows:
        assert row["optimal_risk"] <= row["greedy_risk"] + 1e-12, row["setting"]
        assert row["optimal_leaves"] >= 1 and row["greedy_leaves"] >= 1
    # at depth 3 the optimum is strictly better here: the gap is measured, not assumed
    (depth_3,) = [row for row in fast_rows if row["setting"] == "error/3/0.005"]
    assert depth_3["optimal_risk"] < depth_3["greedy_risk"] - 1e-3


def test_the_risks_are_cost_complexity_in_its_units(fast_rows):
    (row,) = [row for row in fast_rows if row["setting"] == "error/2/0.001"]
    # R_alpha = training error rate + alpha per leaf, for both contestants
    assert row["greedy_risk"] == pytest.approx(
        row["greedy_train_error"] + row["alpha"] * row["greedy_leaves"])
    assert row["optimal_risk"] == pytest.approx(
        row["optimal_train_error"] + row["alpha"] * row["optimal_leaves"])


def test_a_timeout_is_recorded_and_the_deeper_solves_are_skipped():
    rows = os_.run_split(*split_data(SLICE, 0), ["pessimistic/3/0", "pessimistic/2/0"],
                         time_limit=1e-9)
    assert [(r["setting"], r["status"]) for r in rows] == [
        ("pessimistic/2/0", "timeout"), ("pessimistic/3/0", "skipped")]
    assert rows[0]["optimal_seconds"] >= 0 and math.isnan(rows[1]["optimal_seconds"])
    assert all(math.isnan(r["optimal_risk"]) and r["optimal_leaves"] == -1 for r in rows)
    assert all(r["greedy_risk"] > 0 for r in rows)          # greedy is still measured


def test_a_streed_timeout_keeps_its_best_tree_found():
    # breast cancer at depth 4: STreeD cannot prove its tree optimal in 0.3 s, but has one
    rows = os_.run_split(*split_data("breast-cancer", 0), ["error/4/0.001"], time_limit=0.3)
    (row,) = rows
    assert row["status"] == "timeout" and row["optimal_leaves"] >= 1
    assert row["optimal_risk"] == pytest.approx(
        row["optimal_train_error"] + row["alpha"] * row["optimal_leaves"])
    assert row["optimal_wall_seconds"] >= 0.3 and row["optimal_seconds"] > 0


def test_the_ablation_finds_one_value_with_every_switch(tmp_path):
    out = tmp_path / "ablation.csv"
    rows = os_.ablation(cases=[("streed", SLICE, 3, 0.005), ("dp", SLICE, 2, 0.005)],
                        out=out, progress=False)
    frame = read_results(out)
    assert list(frame.columns) == list(os_.ABLATION_COLUMNS)
    assert frame["switched_off"].tolist() == list(os_.ABLATION_SWITCHES["streed"]) + list(
        os_.ABLATION_SWITCHES["dp"])
    assert (frame["status"] == "optimal").all()
    for _, case in frame.groupby("solver"):
        assert np.allclose(case["optimal_risk"], case["optimal_risk"].iloc[0])
    work = dict(zip(zip(frame["solver"], frame["switched_off"]), frame["work"]))
    assert work["streed", "none"] > 0 and work["streed", "use_terminal_solver"] == 0
    assert 0 < work["dp", "none"] <= work["dp", "leaf_bound"]
    assert rows[0]["n_binary"] == 16


def test_the_committed_ablation_covers_its_cases():
    committed = read_results(results_path("optimal_ablation"))
    assert list(committed.columns) == list(os_.ABLATION_COLUMNS)
    expected = [(*case, switch) for case in os_.ABLATION_CASES
                for switch in os_.ABLATION_SWITCHES[case[0]]]
    assert list(zip(committed["solver"], committed["dataset"], committed["max_depth"],
                    committed["alpha"], committed["switched_off"])) == expected
    # a bound prunes the search, never the answer
    solved = committed[committed["status"] == "optimal"]
    spread = solved.groupby(["solver", "dataset", "max_depth", "alpha"])[
        "optimal_risk"].agg(np.ptp)
    assert (spread < 1e-9).all()


def test_the_ablation_command_refuses_data_set_names():
    with pytest.raises(SystemExit):
        os_.main(["--ablation", SLICE])


def test_the_committed_rows_regenerate():
    committed = read_results(results_path("optimal_gap"))
    fresh = pd.DataFrame(os_.run([SLICE], splits=[0], keys=FAST, progress=False))
    mine = committed[(committed["dataset"] == SLICE) & (committed["split"] == 0)
                     & committed["setting"].isin(FAST)].reset_index(drop=True)
    columns = list(os_.GAP_DETERMINISTIC_COLUMNS)
    pd.testing.assert_frame_equal(fresh[columns], mine[columns], check_dtype=False)


def test_the_committed_gap_table_covers_the_grid():
    committed = read_results(results_path("optimal_gap"))
    assert list(committed.columns) == list(os_.GAP_COLUMNS)
    assert set(committed["dataset"]) <= set(os_.GAP_DATASETS)
    assert {"breast-cancer", "led24", SLICE} <= set(committed["dataset"])
    counts = committed.groupby("dataset").size()
    assert (counts == os_.GAP_SPLITS * len(os_.settings())).all()
    solved = committed[committed["status"] == "optimal"]
    assert (solved["optimal_risk"] <= solved["greedy_risk"] + 1e-12).all()
    assert set(committed["status"]) <= {"optimal", "timeout", "skipped"}


def test_the_committed_curve_stops_at_its_first_timeout():
    curve = read_results(results_path("optimal_times"))
    assert list(curve.columns) == list(os_.CURVE_COLUMNS)
    for _, rows in curve.groupby("dataset"):
        status = rows.sort_values("max_depth")["status"].tolist()
        assert "timeout" not in status[:-1]
        assert np.all(np.diff(rows["max_depth"]) == 1)


def test_solver_times_stop_at_the_limit(tmp_path):
    out = tmp_path / "curve.csv"
    rows = os_.solver_times([SLICE], depths=(1, 2), out=out)
    assert [r["status"] for r in rows] == ["optimal", "optimal"]
    assert rows[1]["optimal_leaves"] >= rows[0]["optimal_leaves"]
    assert list(read_results(out).columns) == list(os_.CURVE_COLUMNS)
    # a solve past its limit ends the curve
    stopped = os_.solver_times([SLICE], depths=(6, 7), time_limit=1e-9)
    assert [(r["max_depth"], r["status"]) for r in stopped] == [(6, "timeout")]


def test_the_command_line_writes_the_gap(tmp_path):
    out = tmp_path / "gap.csv"
    assert os_.main([SLICE, "--splits", "1", "--out", str(out)]) == 0
    frame = read_results(out)
    assert list(frame.columns) == list(os_.GAP_COLUMNS)
    assert frame["setting"].tolist() == os_.settings()


def test_unknown_data_sets_are_named():
    with pytest.raises(ValueError, match="unknown data set name"):
        os_.run(["no-such-set"])
