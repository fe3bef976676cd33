"""Data sets: synthetic generators that install with the library, and the UCI benchmark loaders.

The generators (:func:`make_boolean_dnf`, :func:`make_led24`) need nothing but numpy, so the
book builds anywhere offline. :func:`load_uci` reads the UCI files used by Kääriäinen,
Malinen & Elomaa (2004, Sec. 6) from a directory given by an argument or by the environment
variable ``PRUNEKIT_DATA``; :data:`UCI_DATASETS` lists them. (The result tables the book's
chapters print ship with the book's package: ``pdtbook.results.load_results``.)
"""

from __future__ import annotations

import csv
import functools
import gzip
import io
import numbers
import os
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from prunekit.validation import (
    as_array,
    check_bool,
    check_callable,
    check_count,
    check_probability,
    check_random_state,
    is_binary,
)

__all__ = ["make_boolean_dnf", "dnf_labels", "dnf_true_error", "cube",
           "LED_SEGMENTS", "make_led24", "led_bayes_error",
           "UCIDataset", "UCI_DATASETS", "load_uci", "uci_data_home", "uci_available"]

DEFAULT_TERMS = ((0, 1), (2, 3, 4))


def make_boolean_dnf(n_samples: int, n_features: int = 10, terms=DEFAULT_TERMS,
                     noise: float = 0.1, random_state=None):
    """Uniform points of the cube {0,1}^d labelled by a DNF formula, with label noise.

    The clean label is 1 when at least one term holds (a term is a conjunction of the listed
    features being 1); each label is then flipped independently with probability ``noise``.
    The Bayes classifier is the formula itself and the Bayes risk is exactly ``noise``.

    Parameters
    ----------
    n_samples : int
        Number of examples m.
    n_features : int, default 10
        Dimension d of the cube; features not in any term are irrelevant.
    terms : sequence of sequences of int
        The conjunctions of the formula, by feature index.
    noise : float, default 0.1
        Label-flip probability in [0, 1/2).
    random_state : None, int, RandomState or Generator

    Returns
    -------
    X : ndarray of shape (n_samples, n_features), values 0 and 1
    y : ndarray of shape (n_samples,), values 0 and 1

    Examples
    --------
    >>> import prunekit as pk
    >>> X, y = pk.datasets.make_boolean_dnf(500, random_state=0)
    >>> X.shape, float(y.mean())
    ((500, 10), 0.382)
    >>> float((y != pk.datasets.dnf_labels(X)).mean())  # flipped labels
    0.086
    """
    n_samples = check_count(n_samples, "n_samples", minimum=1)
    n_features = check_count(n_features, "n_features", minimum=1)
    noise = _check_noise(noise)
    terms = _check_terms(terms, n_features)
    rng = check_random_state(random_state, legacy=True)
    X = rng.randint(0, 2, size=(n_samples, n_features))
    flip = rng.random_sample(n_samples) < noise
    return X, _dnf_labels(X, terms) ^ flip.astype(int)


def _check_noise(noise) -> float:
    """A label- or attribute-flip probability in [0, 1/2), as the generators take."""
    noise = check_probability(noise, "noise", open_interval=False)
    if noise >= 0.5:
        raise ValueError(f"noise must be below 1/2, got {noise}.")
    return noise


def _check_terms(terms, n_features: int) -> list[list[int]]:
    """A DNF formula: a non-empty sequence of non-empty sequences of feature indices."""
    message = (f"terms must be a non-empty sequence of non-empty sequences of feature indices "
               f"in [0, {n_features}), such as ((0, 1), (2, 3, 4))")
    if isinstance(terms, (str, bytes)) or not hasattr(terms, "__iter__"):
        raise TypeError(f"{message}; got {type(terms).__name__} {terms!r}.")
    terms = list(terms)
    checked = []
    for term in terms:
        if isinstance(term, (str, bytes)) or not hasattr(term, "__iter__"):
            raise TypeError(f"{message}; got the term {term!r}.")
        term = list(term)
        if any(isinstance(j, (bool, np.bool_)) or not isinstance(j, numbers.Integral)
               for j in term):
            raise TypeError(f"{message}; got the term {term!r}, which holds a non-integer.")
        checked.append([int(j) for j in term])
    if not checked or any(not term or min(term) < 0 or max(term) >= n_features
                          for term in checked):
        raise ValueError(f"{message}; got {terms!r}.")
    return checked


def dnf_labels(X, terms=DEFAULT_TERMS) -> np.ndarray:
    """The noise-free labels of a DNF formula: 1 where at least one term has all its features 1.

    Parameters
    ----------
    X : array-like of shape (m, d), values 0 and 1 (or booleans)
    terms : sequence of sequences of int
        The conjunctions of the formula, by feature index in [0, d).

    Examples
    --------
    With the default formula, x0 x1 or x2 x3 x4:

    >>> import prunekit as pk
    >>> X = [[1, 1, 0, 0, 0], [0, 0, 1, 1, 1], [1, 0, 1, 0, 1]]
    >>> pk.datasets.dnf_labels(X).tolist()
    [1, 1, 0]
    """
    X = as_array(X, "X", ndim=2, dtype=None, min_length=0, what="(n_samples, n_features)")
    if not is_binary(X):
        raise ValueError("X must hold the binary features 0 and 1 (points of the cube).")
    return _dnf_labels(X, _check_terms(terms, X.shape[1]))


def _dnf_labels(X: np.ndarray, terms) -> np.ndarray:
    """:func:`dnf_labels` of a checked binary ``X`` and checked ``terms``."""
    clean = np.zeros(X.shape[0], dtype=bool)
    for term in terms:
        clean |= X[:, term].astype(bool).all(axis=1)
    return clean.astype(int)


@functools.lru_cache(maxsize=8)
def _labelled_cube(n_features: int, terms: tuple) -> tuple[np.ndarray, np.ndarray]:
    """The points of the cube and the formula's clean labels on them, read-only.

    :func:`dnf_true_error` evaluates many classifiers on the same cube (every pruning of
    every sample of a chapter), so the 2^d points and their labels are built once per
    (d, terms) and kept.
    """
    points = cube(n_features)
    labels = _dnf_labels(points, [list(term) for term in terms])
    points.flags.writeable = labels.flags.writeable = False
    return points, labels


def cube(n_features: int) -> np.ndarray:
    """All 2^d points of {0,1}^d, one per row (d at most 20).

    Examples
    --------
    >>> import prunekit as pk
    >>> pk.datasets.cube(2).tolist()
    [[0, 0], [0, 1], [1, 0], [1, 1]]
    """
    n_features = check_count(n_features, "n_features", minimum=1)
    if n_features > 20:
        raise ValueError(f"n_features must be at most 20 to enumerate the cube, got {n_features}.")
    codes = np.arange(2 ** n_features)[:, None]
    return (codes >> np.arange(n_features)[::-1]) & 1


def dnf_true_error(predict, n_features: int = 10, terms=DEFAULT_TERMS, noise: float = 0.1) -> float:
    """Exact true error L_D(h) of a classifier under :func:`make_boolean_dnf`'s distribution.

    The distribution is uniform on the cube and flips the formula's label with probability
    ``noise``, so a classifier h that disagrees with the formula on a fraction q of the cube
    has L_D(h) = noise + (1 - 2 noise) q. The cube is enumerated, so no sampling error.

    Parameters
    ----------
    predict : callable
        Maps an (2^d, d) array of points to their predicted labels, e.g. ``tree.predict``.
    n_features, terms, noise
        The parameters the data were generated with (``noise`` in [0, 1/2)).

    Examples
    --------
    >>> import prunekit as pk
    >>> X, y = pk.datasets.make_boolean_dnf(200, random_state=0)
    >>> round(pk.datasets.dnf_true_error(pk.id3(X, y).predict), 4)
    0.2
    >>> pk.datasets.dnf_true_error(pk.datasets.dnf_labels)  # Bayes risk
    0.1
    """
    check_callable(predict, "predict", "that maps points of the cube to labels")
    noise = _check_noise(noise)
    n_features = check_count(n_features, "n_features", minimum=1)
    terms = tuple(map(tuple, _check_terms(terms, n_features)))
    points, labels = _labelled_cube(n_features, terms)
    predicted = np.asarray(predict(points))
    if predicted.shape != labels.shape:
        raise ValueError(f"predict must return one label per point: called on the "
                         f"{len(points)} points of the cube, it returned shape "
                         f"{predicted.shape}.")
    if not is_binary(predicted):
        raise ValueError("predict must return the labels 0 and 1 of the formula's classes.")
    disagreement = np.mean(predicted != labels)
    return float(noise + (1 - 2 * noise) * disagreement)


# ---------------------------------------------------------------------- LED-24
#: Segments of the seven-segment display lit for each digit 0-9, in the order of the UCI LED
#: generator (Breiman et al. 1984, Sec. 2.6): top, upper left, upper right, middle, lower
#: left, lower right, bottom.
LED_SEGMENTS = np.array([
    [1, 1, 1, 0, 1, 1, 1],   # 0
    [0, 0, 1, 0, 0, 1, 0],   # 1
    [1, 0, 1, 1, 1, 0, 1],   # 2
    [1, 0, 1, 1, 0, 1, 1],   # 3
    [0, 1, 1, 1, 0, 1, 0],   # 4
    [1, 1, 0, 1, 0, 1, 1],   # 5
    [1, 1, 0, 1, 1, 1, 1],   # 6
    [1, 0, 1, 0, 0, 1, 0],   # 7
    [1, 1, 1, 1, 1, 1, 1],   # 8
    [1, 1, 1, 1, 0, 1, 1],   # 9
], dtype=np.int8)

_LED_IRRELEVANT = 17


def make_led24(n_samples: int, noise: float = 0.1, random_state=None):
    """The LED-24 problem with attribute noise (Breiman et al. 1984; "LED 24-10" at 10 %).

    A digit 0-9 is drawn uniformly; its seven display segments (:data:`LED_SEGMENTS`) are
    followed by 17 irrelevant attributes, each a fair coin; then every one of the 24
    attributes is flipped independently with probability ``noise``. (Flipping a fair coin
    leaves it a fair coin, so this is the UCI generator, which adds the noise to the seven
    segments only.) Kääriäinen, Malinen & Elomaa (2004, Sec. 6.1) use 300,000 examples with
    10 % noise.

    Parameters
    ----------
    n_samples : int
        Number of examples, at least 1.
    noise : float, default 0.1
        Flip probability of every attribute, in [0, 1/2).
    random_state : None, int, RandomState or Generator

    Returns
    -------
    X : ndarray of int8, shape (n_samples, 24), values 0 and 1
        Columns 0-6 are the segments, columns 7-23 the irrelevant attributes.
    y : ndarray of int64, shape (n_samples,)
        The digit.

    Examples
    --------
    >>> import prunekit as pk
    >>> X, y = pk.datasets.make_led24(1000, random_state=0)
    >>> X.shape, y[:8].tolist()
    ((1000, 24), [5, 0, 3, 3, 7, 9, 3, 5])
    """
    n_samples = check_count(n_samples, "n_samples", minimum=1)
    noise = _check_noise(noise)
    rng = check_random_state(random_state, legacy=True)
    y = rng.randint(0, 10, size=n_samples)
    clean = np.hstack([LED_SEGMENTS[y],
                       rng.randint(0, 2, size=(n_samples, _LED_IRRELEVANT)).astype(np.int8)])
    flips = rng.random_sample(clean.shape) < noise
    return clean ^ flips.astype(np.int8), y.astype(np.int64)


def led_bayes_error(noise: float = 0.1) -> float:
    """Bayes risk of :func:`make_led24`'s distribution, computed exactly.

    The irrelevant attributes carry no information, so the Bayes classifier looks at the
    seven segments only. Each of the 2^7 patterns x has P(x | d) = p^h (1 - p)^(7 - h) with h
    its Hamming distance to digit d's segments; the risk is 1 - sum_x max_d P(d) P(x | d)
    with P(d) = 1/10. At 10 % noise it is about 0.26 (Breiman et al. 1984, Sec. 2.6).

    Parameters
    ----------
    noise : float in [0, 1/2), default 0.1
        The flip probability, as :func:`make_led24` takes it.

    Examples
    --------
    >>> import prunekit as pk
    >>> round(pk.datasets.led_bayes_error(0.1), 4)
    0.26
    >>> pk.datasets.led_bayes_error(0.0)           # no noise: no error
    0.0
    """
    noise = _check_noise(noise)
    patterns = cube(7)
    hamming = (patterns[:, None, :] != LED_SEGMENTS[None, :, :]).sum(axis=2)   # (128, 10)
    likelihood = noise ** hamming * (1 - noise) ** (7 - hamming)
    return float(1 - likelihood.max(axis=1).sum() / 10)


# ---------------------------------------------------------------------- UCI loaders
_UCI = "https://archive.ics.uci.edu/ml/machine-learning-databases/"
_PMLB = "https://github.com/EpistasisLab/pmlb/raw/master/datasets/"
ENV_VAR = "PRUNEKIT_DATA"


@dataclass(frozen=True)
class UCIDataset:
    """How one UCI data set of Kääriäinen, Malinen & Elomaa (2004, Table 1) is stored and read.

    Attributes
    ----------
    name : str
        Key in :data:`UCI_DATASETS` and argument of :func:`load_uci`.
    paper_name : str
        The name in the paper's Table 1.
    files : tuple of str
        Paths relative to the data directory; their rows are pooled (the paper splits all the
        data at random, so a UCI train/test division is not kept). A file may also be stored
        gzip-compressed, with ``.gz`` appended.
    url : str
        Where to download the files.
    fmt : str
        ``"csv"`` (comma-separated, spaces after commas ignored), ``"whitespace"`` (runs of
        blanks) or ``"pmlb"`` (PMLB's gzipped tab-separated file with a header row and a
        ``target`` column).
    label : int
        Column of the class label: 0 (first) or -1 (last).
    numeric : tuple of int or "all"
        Columns (of the attributes, label removed, before ``drop``) read as numbers; the
        others are nominal.
    drop : tuple of int
        Attribute columns not used for learning (identifiers, sample weights).
    skip_lines : tuple of (str, int)
        Lines to skip at the top of a file (``adult.test`` starts with ``|1x3 Cross validator``).
    decode : tuple of (str, tuple of str), optional
        PMLB integer codes mapped back to UCI values: ``("features", ...)``, ``("target", ...)``.
    fetch : str or None
        How a reader with internet access can get the data without the files:
        ``"covtype"`` (``sklearn.datasets.fetch_covtype``) or ``"openml:ID"``.
    classes : int
        Number of classes.
    """

    name: str
    paper_name: str
    files: tuple
    url: str
    fmt: str = "csv"
    label: int = -1
    numeric: object = ()
    drop: tuple = ()
    skip_lines: tuple = ()
    decode: tuple = ()
    fetch: str | None = None
    classes: int = 2


#: The UCI data sets :func:`load_uci` reads, by name: a :class:`UCIDataset` each.
UCI_DATASETS = {spec.name: spec for spec in [
    UCIDataset("adult", "ADULT", ("adult/adult.data", "adult/adult.test"), _UCI + "adult/",
               numeric=(0, 2, 4, 10, 11, 12), skip_lines=(("adult/adult.test", 1),)),
    UCIDataset("anneal", "ANNEAL", ("anneal/anneal.data", "anneal/anneal.test"),
               _UCI + "annealing/", numeric=(3, 4, 8, 32, 33, 34), classes=5),
    UCIDataset("census", "CENSUS", ("census/census-income.data", "census/census-income.test"),
               _UCI + "census-income-mld/", numeric=(0, 5, 16, 17, 18, 24, 30, 39), drop=(24,),
               fetch="openml:4535"),
    UCIDataset("connect-4", "CONNECT", ("connect-4/connect_4.tsv.gz",),
               _PMLB + "connect_4/ (PMLB's copy of " + _UCI + "connect-4/)", fmt="pmlb",
               decode=(("features", ("b", "o", "x")), ("target", ("draw", "loss", "win"))),
               classes=3),
    UCIDataset("cover", "COVER", ("cover/covtype.data",), _UCI + "covtype/", numeric="all",
               fetch="covtype", classes=7),
    UCIDataset("isolet", "ISOLET", ("isolet/isolet1+2+3+4.data", "isolet/isolet5.data"),
               _UCI + "isolet/", numeric="all", fetch="openml:300", classes=26),
    UCIDataset("krkopt", "KROPT", ("krkopt/krkopt.data",), _UCI + "chess/king-rook-vs-king/",
               numeric=(1, 3, 5), classes=18),
    UCIDataset("letter", "LETTER", ("letter/letter-recognition.data",),
               _UCI + "letter-recognition/", label=0, numeric="all", classes=26),
    UCIDataset("mushroom", "MUSHROOM", ("mushroom/agaricus-lepiota.data",),
               _UCI + "mushroom/", label=0),
    UCIDataset("musk", "MUSK", ("musk/clean2.tsv.gz",),
               _PMLB + "clean2/ (PMLB's copy of " + _UCI + "musk/)", fmt="pmlb",
               numeric="all", drop=(0, 1)),
    UCIDataset("nursery", "NURSERY", ("nursery/nursery.data",), _UCI + "nursery/", classes=5),
    UCIDataset("optdigits", "OPTDIGITS", ("optdigits/optdigits.tra", "optdigits/optdigits.tes"),
               _UCI + "optdigits/", numeric="all", classes=10),
    UCIDataset("page-blocks", "PAGE-BLOCKS", ("page-blocks/page-blocks.data",),
               _UCI + "page-blocks/ (page-blocks.data.Z, decompress it)", fmt="whitespace",
               numeric="all", classes=5),
    UCIDataset("pendigits", "PEN-DIGITS", ("pendigits/pendigits.tra", "pendigits/pendigits.tes"),
               _UCI + "pendigits/", numeric="all", classes=10),
]}


def uci_data_home(data_home=None) -> Path:
    """The directory the UCI files are read from: ``data_home``, else ``$PRUNEKIT_DATA``."""
    if data_home is None:
        data_home = os.environ.get(ENV_VAR)
        if not data_home:
            raise ValueError(
                f"data_home is not given and the environment variable {ENV_VAR} is not set: "
                "pass the directory that holds the UCI files (one folder per data set, e.g. "
                "adult/adult.data)."
            )
    if not isinstance(data_home, (str, os.PathLike)):
        raise TypeError(f"data_home must be a path, got {type(data_home).__name__}.")
    if not str(data_home):
        raise ValueError("data_home must be a directory, got the empty string.")
    home = Path(data_home)
    if home.exists() and not home.is_dir():
        raise ValueError(f"data_home must be a directory, but {home} is a file.")
    return home


def uci_available(name: str, data_home=None) -> bool:
    """Whether every file of the UCI data set ``name`` is in ``data_home`` (or ``$PRUNEKIT_DATA``).

    Examples
    --------
    >>> import prunekit as pk
    >>> pk.datasets.uci_available("adult", "no-such-directory")
    False
    """
    spec = _spec(name)
    home = uci_data_home(data_home)
    return all(_find(home, relative) is not None for relative in spec.files)


def _spec(name) -> UCIDataset:
    if not isinstance(name, str):
        raise TypeError(f"name must be a string, got {type(name).__name__}.")
    if name not in UCI_DATASETS:
        raise ValueError(
            f"unknown data set name {name!r}; the known UCI data sets are "
            f"{', '.join(sorted(UCI_DATASETS))} (and make_led24 generates LED 24-10)."
        )
    return UCI_DATASETS[name]


def _find(home: Path, relative: str) -> Path | None:
    for candidate in (home / relative, home / (relative + ".gz")):
        if candidate.is_file():
            return candidate
    return None


def _open_text(path: Path):
    if path.suffix == ".gz":
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8", newline="")
    return open(path, encoding="utf-8", newline="")


def _read_rows(path: Path, spec: UCIDataset, skip: int) -> tuple[list[list[str]], list | None]:
    """Rows of one file as lists of stripped strings (blank lines dropped), and its header."""
    try:
        with _open_text(path) as handle:
            lines = handle.read().splitlines()[skip:]
    except (OSError, EOFError, zlib.error) as error:      # gzip.BadGzipFile is an OSError
        raise ValueError(f"{path}: the file cannot be read ({type(error).__name__}: {error}); "
                         f"it is damaged or not {'gzip-compressed' if path.suffix == '.gz' else 'a text file'}. "
                         f"Download it again from {spec.url}.") from error
    except UnicodeDecodeError as error:
        raise ValueError(f"{path}: the file is not UTF-8 text ({error}); download it again "
                         f"from {spec.url}.") from error
    lines = [line for line in lines if line.strip()]
    if not lines:
        raise ValueError(f"{path}: the file has no data rows; download it again from "
                         f"{spec.url}.")
    header = None
    if spec.fmt == "pmlb":
        header, lines = lines[0].split("\t"), lines[1:]
        rows = [line.split("\t") for line in lines]
    elif spec.fmt == "whitespace":
        rows = [line.split() for line in lines]
    else:
        rows = list(csv.reader(lines, skipinitialspace=True))
    return [[cell.strip() for cell in row] for row in rows], header


def _pooled_rows(home: Path, spec: UCIDataset) -> list[list[str]]:
    found = {relative: _find(home, relative) for relative in spec.files}
    missing = [relative for relative, path in found.items() if path is None]
    if missing:
        hint = (f" Or call load_uci({spec.name!r}, download=True) with internet access."
                if spec.fetch else "")
        raise FileNotFoundError(
            f"{spec.paper_name} needs the file(s) {', '.join(missing)} under {home} (each may "
            f"also be gzip-compressed with .gz appended). Download them from {spec.url}.{hint}"
        )
    rows = []
    width = None
    skips = dict(spec.skip_lines)
    for relative, path in found.items():
        part, header = _read_rows(path, spec, skips.get(relative, 0))
        if header is not None and header[-1] != "target":
            raise ValueError(
                f"{path}: expected PMLB's header ending in 'target', got {header[-1]!r}.")
        if not part:
            raise ValueError(f"{path}: the file has a header but no data rows.")
        rows.extend(part)
        lengths = {len(row) for row in part}
        if len(lengths | ({width} if width else set())) != 1:
            raise ValueError(f"{path}: rows have different numbers of fields {sorted(lengths)}.")
        width = len(part[0])
    return rows


def _decode(values: np.ndarray, codes: tuple) -> np.ndarray:
    index = values.astype(np.int64)
    if index.min() < 0 or index.max() >= len(codes):
        raise ValueError(f"PMLB codes outside 0..{len(codes) - 1}.")
    return np.asarray(codes)[index]


def _numeric_block(column: np.ndarray) -> np.ndarray:
    """A numeric column; a missing value ``?`` becomes the column median plus an indicator."""
    missing = column == "?"
    values = np.where(missing, "nan", column).astype(np.float64)
    if not missing.any():
        return values[:, None]
    values[missing] = np.median(values[~missing]) if (~missing).any() else 0.0
    return np.column_stack([values, missing.astype(np.float64)])


def _one_hot(column: np.ndarray) -> np.ndarray:
    """A nominal column as one 0/1 column per value (``?`` is a value of its own)."""
    values, codes = np.unique(column, return_inverse=True)
    block = np.zeros((column.size, values.size))
    block[np.arange(column.size), codes] = 1.0
    return block


def _encode(table: np.ndarray, spec: UCIDataset):
    """Split a table of strings into (X, y) by the data set's spec."""
    label_col = spec.label % table.shape[1]
    y = table[:, label_col]
    attributes = np.delete(table, label_col, axis=1)
    decode = dict(spec.decode)
    if "target" in decode:
        y = _decode(y.astype(float), decode["target"])
    y = np.char.rstrip(y.astype(str), ".")            # adult.test and isolet: "<=50K.", "1."
    numeric = (range(attributes.shape[1]) if spec.numeric == "all" else spec.numeric)
    blocks = []
    for j in range(attributes.shape[1]):
        if j in spec.drop:
            continue
        column = attributes[:, j]
        if "features" in decode:
            column = _decode(column.astype(float), decode["features"])
        blocks.append(_numeric_block(column) if j in numeric else _one_hot(column))
    return np.hstack(blocks), y


def _fetch(spec: UCIDataset, home: Path | None):
    """Download through scikit-learn (needs internet access); nominal columns one-hot."""
    cache = None if home is None else str(home / "scikit_learn_data")
    if spec.fetch == "covtype":
        from sklearn.datasets import fetch_covtype
        X, y = fetch_covtype(data_home=cache, return_X_y=True)
        return X.astype(np.float64), y.astype(str)
    from sklearn.datasets import fetch_openml
    bunch = fetch_openml(data_id=int(spec.fetch.split(":")[1]), data_home=cache,
                         as_frame=False, parser="liac-arff")
    X = np.asarray(bunch.data, dtype=np.float64)
    categories = bunch.categories or {}
    blocks = []
    for j, feature in enumerate(bunch.feature_names):
        if "weight" in feature.lower() or feature.lower() == "marsupwt":
            continue                                   # census: the sampling weight
        column = np.where(np.isnan(X[:, j]), "?", X[:, j].astype(str))   # "?" = missing
        blocks.append(_one_hot(column) if feature in categories else _numeric_block(column))
    return np.hstack(blocks), np.char.rstrip(np.asarray(bunch.target).astype(str), ".")


def load_uci(name: str, data_home=None, *, download: bool = False):
    """Load one of the UCI data sets of Kääriäinen, Malinen & Elomaa (2004, Table 1).

    The files are read from ``data_home`` (or the directory in the environment variable
    ``PRUNEKIT_DATA``), laid out as in :data:`UCI_DATASETS` (``adult/adult.data``, ...);
    where UCI divides a data set into a training and a test file, both are read and pooled,
    because the paper draws its own random splits from all the data.

    Encoding:

    * numeric attributes are floats; nominal ones (strings in the file, and PMLB's integer
      codes decoded back to UCI's values) are one-hot encoded, one 0/1 column per value in
      sorted order, so a binary split on a column is C4.5's binary "value versus the rest"
      split;
    * a missing value ``?`` in a nominal attribute is a value of its own (one more column);
      in a numeric attribute it is replaced by the median of the observed values and an
      extra 0/1 column marks where it was missing (none of the files here has one);
    * labels are strings as in the file, without a trailing period (``adult.test``,
      ISOLET); PMLB's codes are decoded (connect-4: draw, loss, win);
    * identifier columns (MUSK's molecule and conformation names) and CENSUS's instance
      weight are dropped.

    Parameters
    ----------
    name : str
        A key of :data:`UCI_DATASETS`.
    data_home : str or path-like, optional
        Directory of the files; default ``$PRUNEKIT_DATA``.
    download : bool, default False
        For ``cover``, ``isolet`` and ``census`` only: when the UCI files are not in
        ``data_home``, fetch the data through scikit-learn (``fetch_covtype``, or
        ``fetch_openml`` with the OpenML id in the registry), which needs internet access.

    Returns
    -------
    X : ndarray of float64, shape (n_samples, n_columns)
    y : ndarray of str, shape (n_samples,)

    Raises
    ------
    ValueError
        Unknown ``name`` (the message lists the known names), no directory given, or a file
        that cannot be read (damaged, not UTF-8, empty, or with values that do not fit the
        data set's format); the message names the file.
    FileNotFoundError
        A file is missing; the message names the files and the URL to download them from.
    """
    spec = _spec(name)
    download = check_bool(download, "download")
    try:
        home = uci_data_home(data_home)
    except ValueError:
        if download and spec.fetch and data_home is None:   # no directory at all: fetch
            return _fetch(spec, None)
        raise
    if download and spec.fetch and any(_find(home, f) is None for f in spec.files):
        return _fetch(spec, home)
    table = np.asarray(_pooled_rows(home, spec), dtype=str)
    try:
        return _encode(table, spec)
    except ValueError as error:
        files = ", ".join(str(_find(home, relative)) for relative in spec.files)
        raise ValueError(f"{spec.paper_name} ({files}): a value does not fit the data set's "
                         f"format ({error}); download the files again from {spec.url}.") from None


#: Names that left this module for the book's package (``pdtbook.results``) in 0.3, with the
#: result tables they read.
_MOVED_TO_THE_BOOK = ("RESULTS", "RESULTS_DIR", "results_path", "read_results_csv",
                      "load_results")


def __getattr__(name: str):
    if name in _MOVED_TO_THE_BOOK:
        raise AttributeError(
            f"prunekit.datasets.{name} moved, with the result tables it reads, to the book's "
            f"package in prunekit 0.3: from pdtbook.results import {name} (pip install "
            "pdtbook; see the book's README).", name=name, obj=None)
    raise AttributeError(f"module 'prunekit.datasets' has no attribute {name!r}")
