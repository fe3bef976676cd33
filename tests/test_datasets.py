"""Tests of prunekit.datasets: the LED-24 generator and the UCI loaders."""

import gzip
from pathlib import Path

import numpy as np
import pytest

from prunekit.datasets import (
    LED_SEGMENTS, UCI_DATASETS, led_bayes_error, load_uci, make_led24, uci_available,
    uci_data_home,
)
from uci import UCI_DIR, needs_uci


# (rows, attribute columns after encoding or None, class counts) from SOURCES.md / the .names files
EXPECTED = {
    "adult": (32561 + 16281, None, {"<=50K": 24720 + 12435, ">50K": 7841 + 3846}),
    "anneal": (798 + 100, None, None),
    "connect-4": (67557, 42 * 3, {"win": 44473, "loss": 16635, "draw": 6449}),
    "krkopt": (28056, None, None),
    "letter": (20000, 16, None),
    "mushroom": (8124, None, {"e": 4208, "p": 3916}),
    "musk": (6598, 166, {"0": 5581, "1": 1017}),
    "nursery": (12960, None, {"not_recom": 4320, "priority": 4266, "spec_prior": 4044,
                              "very_recom": 328, "recommend": 2}),
    "optdigits": (3823 + 1797, 64, None),
    "page-blocks": (5473, 10, {"1": 4913, "2": 329, "3": 28, "4": 88, "5": 115}),
    "pendigits": (7494 + 3498, 16, None),
}


# ---------------------------------------------------------------------- LED-24
def test_led_shapes_and_values():
    X, y = make_led24(1000, random_state=0)
    assert X.shape == (1000, 24) and y.shape == (1000,)
    assert set(np.unique(X)) <= {0, 1} and set(np.unique(y)) <= set(range(10))


def test_led_is_seeded():
    a, b = make_led24(50, random_state=3), make_led24(50, random_state=3)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


def test_led_statistics():
    noise = 0.1
    X, y = make_led24(200_000, noise=noise, random_state=1)
    # uniform digits
    assert np.allclose(np.bincount(y, minlength=10) / len(y), 0.1, atol=0.005)
    # each segment differs from the digit's pattern with probability noise
    flipped = X[:, :7] != LED_SEGMENTS[y]
    assert np.allclose(flipped.mean(axis=0), noise, atol=0.005)
    # irrelevant attributes: fair coins, independent of the digit
    assert np.allclose(X[:, 7:].mean(axis=0), 0.5, atol=0.01)
    assert abs(X[y == 0, 10].mean() - X[y == 9, 10].mean()) < 0.02
    # the Bayes rule (nearest pattern, ties to the smallest digit) attains the Bayes risk
    distance = (X[:, None, :7] != LED_SEGMENTS[None]).sum(axis=2)
    error = np.mean(distance.argmin(axis=1) != y)
    assert abs(error - led_bayes_error(noise)) < 0.005


def test_led_bayes_error_values():
    assert led_bayes_error(0.0) == pytest.approx(0.0)
    assert led_bayes_error(0.1) == pytest.approx(0.26, abs=0.005)   # Breiman et al. 1984


def test_led_noise_zero_gives_clean_segments():
    X, y = make_led24(500, noise=0.0, random_state=0)
    assert np.array_equal(X[:, :7], LED_SEGMENTS[y])


@pytest.mark.parametrize("kwargs, error", [
    (dict(n_samples=0), ValueError), (dict(n_samples=10, noise=0.5), ValueError),
    (dict(n_samples=10, noise=-0.1), ValueError), (dict(n_samples=2.5), TypeError),
])
def test_led_bad_input(kwargs, error):
    with pytest.raises(error):
        make_led24(**kwargs)


# ---------------------------------------------------------------------- the registry and errors
def test_registry_covers_the_papers_uci_sets():
    papers = {spec.paper_name for spec in UCI_DATASETS.values()}
    assert papers == {"ADULT", "ANNEAL", "CENSUS", "CONNECT", "COVER", "ISOLET", "KROPT",
                      "LETTER", "MUSHROOM", "MUSK", "NURSERY", "OPTDIGITS", "PAGE-BLOCKS",
                      "PEN-DIGITS"}


def test_unknown_name_lists_known_names(tmp_path):
    with pytest.raises(ValueError, match="unknown data set name 'iris'.*adult.*pendigits"):
        load_uci("iris", tmp_path)
    with pytest.raises(TypeError, match="name"):
        load_uci(3, tmp_path)


def test_missing_files_name_files_and_url(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"adult/adult.data.*archive.ics.uci.edu/ml/"
                                                r"machine-learning-databases/adult/"):
        load_uci("adult", tmp_path)
    with pytest.raises(FileNotFoundError, match=r"covtype.data.*covtype/.*download=True"):
        load_uci("cover", tmp_path)


def test_uci_available(tmp_path):
    assert not uci_available("nursery", tmp_path)
    _write(tmp_path, "nursery/nursery.data", "usual,proper,complete,1,convenient,convenient,"
                                             "nonprob,recommended,recommend\n")
    assert uci_available("nursery", tmp_path)
    X, y = load_uci("nursery", tmp_path)
    assert X.shape == (1, 8) and list(y) == ["recommend"]


def test_data_home_from_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("PRUNEKIT_DATA", str(tmp_path))
    assert uci_data_home() == tmp_path
    monkeypatch.delenv("PRUNEKIT_DATA")
    with pytest.raises(ValueError, match="PRUNEKIT_DATA"):
        uci_data_home()
    with pytest.raises(TypeError, match="data_home"):
        uci_data_home(3)


# ---------------------------------------------------------------------- synthetic lines
def _write(home, relative, text, compress=False):
    path = Path(home) / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    if compress:
        with gzip.open(str(path) + ".gz", "wt") as handle:
            handle.write(text)
    else:
        path.write_text(text)


def test_cover_lines(tmp_path):
    # covtype.data: 54 integers (10 quantitative, 4 wilderness, 40 soil type), cover type 1-7
    rows = [[2596, 51, 3, 258, 0, 510, 221, 232, 148, 6279] + [1, 0, 0, 0] + [0] * 28 + [1]
            + [0] * 11 + [5],
            [2804, 139, 9, 268, 65, 3180, 234, 238, 135, 6121] + [1, 0, 0, 0] + [0] * 12 + [1]
            + [0] * 27 + [2]]
    _write(tmp_path, "cover/covtype.data", "".join(",".join(map(str, r)) + "\n" for r in rows),
           compress=True)
    X, y = load_uci("cover", tmp_path)
    assert X.shape == (2, 54) and list(y) == ["5", "2"]
    assert X[0, 0] == 2596 and X[1, 26] == 1


def test_isolet_lines(tmp_path):
    # isolet*.data: 617 reals in [-1, 1] separated by ", ", the letter 1-26 written "1."
    def line(value, label):
        return ", ".join([f"{value:.4f}"] * 617) + f", {label}.\n"
    _write(tmp_path, "isolet/isolet1+2+3+4.data", line(-0.4394, 1) + line(0.25, 26))
    _write(tmp_path, "isolet/isolet5.data", line(1, 3))
    X, y = load_uci("isolet", tmp_path)
    assert X.shape == (3, 617) and list(y) == ["1", "26", "3"]
    assert X[0, 5] == pytest.approx(-0.4394) and X[2, 616] == 1.0


CENSUS_LINE = ("{age}, Private, 33, 29, Bachelors degree(BA AB BS), 0, Not in universe, "
               "Married-civilian spouse present, Finance insurance and real estate, "
               "Executive admin and managerial, White, All other, Female, No, Not in universe, "
               "Full-time schedules, 0, 0, 0, Joint both under 65, Not in universe, "
               "Not in universe, Householder, Householder, {weight}, {migration}, {migration}, "
               "{migration}, Not in universe under 1 year old, ?, 1, Not in universe, "
               "United-States, United-States, United-States, Native- Born in the United States, "
               "0, Not in universe, 2, 52, 95, {label}\n")


def test_census_lines(tmp_path):
    data = (CENSUS_LINE.format(age=73, weight=1700.09, migration="?", label="- 50000.")
            + CENSUS_LINE.format(age=58, weight=1053.55, migration="MSA to MSA",
                                 label="50000+."))
    test = CENSUS_LINE.format(age=18, weight=991.95, migration="NonMSA to nonMSA",
                              label="- 50000.")
    _write(tmp_path, "census/census-income.data", data, compress=True)
    _write(tmp_path, "census/census-income.test", test)
    X, y = load_uci("census", tmp_path)
    assert list(y) == ["- 50000", "50000+", "- 50000"]
    assert X.shape[0] == 3
    assert list(X[:, 0]) == [73, 58, 18]                       # age is numeric, first
    assert not np.isin(X, [1700.09, 1053.55, 991.95]).any()     # the instance weight is dropped
    # 41 attributes less the weight: 7 numeric, 33 nominal with one column per value seen:
    # one each, except the three migration codes with three values ("?" among them)
    assert X.shape[1] == 7 + 30 + 3 * 3


def test_adult_test_quirks(tmp_path):
    train = ("39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, "
             "White, Male, 2174, 0, 40, United-States, <=50K\n\n")
    test = ("|1x3 Cross validator\n"
            "25, ?, 226802, 11th, 7, Never-married, Machine-op-inspct, Own-child, Black, Male, "
            "0, 0, 40, United-States, >50K.\n\n")
    _write(tmp_path, "adult/adult.data", train)
    _write(tmp_path, "adult/adult.test", test)
    X, y = load_uci("adult", tmp_path)
    assert list(y) == ["<=50K", ">50K"]
    # 6 numeric + 8 nominal attributes; workclass has two values here (State-gov and ?)
    assert X.shape == (2, 6 + 8 + 5)
    assert X[:, 0].tolist() == [39, 25]


def test_numeric_missing_value_is_median_plus_indicator(tmp_path):
    rows = ["?,C,A,08,00,?,S,?,000,?,?,G" + ",?" * 19 + ",COIL,{thick},0610.0,0000,?,0000,?,3\n"]
    text = "".join(rows[0].format(thick=t) for t in ["0.700", "?", "1.300", "2.000"])
    _write(tmp_path, "anneal/anneal.data", text)
    _write(tmp_path, "anneal/anneal.test", rows[0].format(thick="0.100"))
    X, _ = load_uci("anneal", tmp_path)
    thick = np.flatnonzero(np.isin(X[0], [0.7]))[0]
    assert X[:, thick].tolist() == [0.7, 1.0, 1.3, 2.0, 0.1]          # median of observed
    assert X[:, thick + 1].tolist() == [0, 1, 0, 0, 0]                # the indicator


# ---------------------------------------------------------------------- the real files
@needs_uci
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_present_uci_sets(name):
    rows, columns, counts = EXPECTED[name]
    X, y = load_uci(name, UCI_DIR)
    assert X.dtype == np.float64 and np.all(np.isfinite(X))
    assert X.shape[0] == rows == y.shape[0]
    if columns is not None:
        assert X.shape[1] == columns
    assert len(np.unique(y)) == UCI_DATASETS[name].classes
    if counts is not None:
        labels, found = np.unique(y, return_counts=True)
        assert dict(zip(labels.tolist(), found.tolist())) == counts


@needs_uci
def test_anneal_training_file_classes():
    _, y = load_uci("anneal", UCI_DIR)
    labels, counts = np.unique(y[:798], return_counts=True)   # anneal.data comes first
    assert dict(zip(labels.tolist(), counts.tolist())) == {"1": 8, "2": 88, "3": 608, "5": 60,
                                                           "U": 34}


@needs_uci
def test_mushroom_missing_values_are_a_category():
    X, _ = load_uci("mushroom", UCI_DIR)
    # every nominal attribute contributes exactly one 1 per row: 22 attributes
    assert np.all(X.sum(axis=1) == 22)
    assert 2480 in X.sum(axis=0)                 # the stalk-root "?" column


# ---------------------------------------------------------------------- fetching (network mocked)
def test_download_through_openml_one_hot_encodes_nominal_columns(tmp_path, monkeypatch):
    import sklearn.datasets
    from sklearn.utils import Bunch

    def fake_fetch_openml(data_id, data_home, as_frame, parser):
        assert data_id == 4535 and as_frame is False
        data = np.array([[73.0, 0.0, 1700.09], [58.0, 1.0, 1053.55], [18.0, np.nan, 991.95]])
        return Bunch(data=data, target=np.array(["- 50000.", "50000+.", "- 50000."]),
                     feature_names=["AAGE", "ACLSWKR", "MARSUPWT"],
                     categories={"ACLSWKR": ["Private", "Self-employed"]})

    monkeypatch.setattr(sklearn.datasets, "fetch_openml", fake_fetch_openml)
    X, y = load_uci("census", tmp_path, download=True)
    assert list(y) == ["- 50000", "50000+", "- 50000"]
    # age, then one column per category code seen, the missing code "?" included; no weight
    assert X.tolist() == [[73, 1, 0, 0], [58, 0, 1, 0], [18, 0, 0, 1]]


def test_download_cover_through_fetch_covtype(tmp_path, monkeypatch):
    import sklearn.datasets

    def fake_fetch_covtype(data_home, return_X_y):
        return np.arange(108, dtype=float).reshape(2, 54), np.array([5, 2])

    monkeypatch.setattr(sklearn.datasets, "fetch_covtype", fake_fetch_covtype)
    X, y = load_uci("cover", tmp_path, download=True)
    assert X.shape == (2, 54) and list(y) == ["5", "2"]
    with pytest.raises(FileNotFoundError, match="adult"):
        load_uci("adult", tmp_path, download=True)      # no download route for the others
