"""The result tables the chapters read ship inside the package and load by name; the programs
that compute them write there by default."""

from pathlib import Path

import pandas as pd
import pytest

import prunekit
from pdtbook import experiments, study, weka
from pdtbook.runner import write_results
import pdtbook
from pdtbook.results import RESULTS, RESULTS_DIR, load_results, results_path

ROOT = Path(__file__).resolve().parents[2]


def test_every_packaged_table_has_a_name_and_every_name_a_table():
    assert RESULTS_DIR == Path(pdtbook.__file__).resolve().parent / "data"
    assert sorted(p.stem for p in RESULTS_DIR.glob("*.csv")) == sorted(RESULTS)
    assert sorted(p.name for p in RESULTS_DIR.iterdir()) == sorted(f"{n}.csv" for n in RESULTS)


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_load_results_reads_the_whole_table(name):
    frame = load_results(name)
    assert isinstance(frame, pd.DataFrame)
    lines = results_path(name).read_text(encoding="utf-8").splitlines()
    assert list(frame.columns) == lines[0].split(",")
    assert len(frame) == len(lines) - 1 > 0


def test_unknown_name_lists_the_available_ones():
    with pytest.raises(ValueError, match="unknown result table name 'study.csv'") as error:
        load_results("study.csv")
    for name in RESULTS:
        assert name in str(error.value)
    with pytest.raises(TypeError, match="name must be a string"):
        load_results(Path("study"))


@pytest.mark.parametrize("name", ["kaariainen2004_reproduction", "kaariainen2004_c_effect",
                                  "study", "study_run", "rpart_cp", "j48_agreement",
                                  "optimal_gap", "optimal_times",
                                  "optimal_ablation", "regression_study",
                                  "regression_study_run"])
def test_the_runners_writer_writes_each_table_back_byte_for_byte(name, tmp_path):
    # exact floats: what the runners write with repr reads back unchanged
    frame = load_results(name)
    write_results(frame.to_dict("records"), list(frame.columns), tmp_path / "table.csv")
    assert (tmp_path / "table.csv").read_bytes() == results_path(name).read_bytes()


def test_text_columns_stay_text_and_nan_is_missing():
    frame = load_results("study")
    assert frame["parameter"].isna().any() and frame["parameter"].notna().any()
    assert frame["dataset"].map(type).eq(str).all()
    j48 = load_results("j48_agreement")
    assert j48["identical"].dtype == bool and j48["weka_version"].map(type).eq(str).all()
    example = load_results("rpart_example")
    leaves = example["var"] == "<leaf>"
    assert leaves.any() and example.loc[leaves, "ncat"].isna().all()
    assert example.loc[~leaves, "ncat"].notna().all()


def test_no_repository_file_reads_the_old_data_folder():
    assert not (ROOT / "chapters" / "data").exists()
    for path in [*ROOT.glob("chapters/*.ipynb"), *ROOT.glob("prunekit/*.py"),
                 *ROOT.glob("benchmarks/*.py"), ROOT / "README.md"]:
        assert "chapters/data" not in path.read_text(encoding="utf-8"), path


def _captured_out(monkeypatch, module, function, argv):
    seen = {}

    def record(*args, **kwargs):
        seen["out"] = kwargs.get("out")
        return []

    monkeypatch.setattr(module, function, record)
    module.main(argv)
    return Path(seen["out"])


def test_runners_write_where_the_book_reads_by_default(monkeypatch):
    assert _captured_out(monkeypatch, experiments, "run", ["iris"]) \
        == results_path("kaariainen2004_reproduction")
    assert _captured_out(monkeypatch, experiments, "run", ["adult", "--c", "1.0", "2.0"]) \
        == results_path("kaariainen2004_c_effect")
    assert _captured_out(monkeypatch, experiments, "run", ["iris", "--out", "x.csv"]) \
        == Path("x.csv")
    assert _captured_out(monkeypatch, study, "run", ["iris"]) == results_path("study")
    assert _captured_out(monkeypatch, study, "rpart_study", ["iris", "--rpart"]) \
        == results_path("rpart_cp")


def test_weka_writes_where_the_book_reads_by_default(monkeypatch):
    written = {}
    monkeypatch.setattr(weka, "agreement_datasets", lambda data_home: [])
    monkeypatch.setattr(weka, "agreement", lambda datasets, jar=None: [])
    monkeypatch.setattr(weka, "write_agreement",
                        lambda rows, path: written.setdefault("out", Path(path)))
    assert weka.main([]) == 0
    assert written["out"] == results_path("j48_agreement")
