"""Tests of prunekit.bounds: values, the corrections to the papers, and bad input."""

import math

import numpy as np
import pytest
from scipy.integrate import quad

import prunekit as pk
from prunekit import bounds
from prunekit.bounds import nobel_delta, nobel_delta_independent, nobel_estimation_term


# ---------------------------------------------------------------------- Nobel (2002), Theorem 1
@pytest.mark.parametrize("n, d", [(4, 1), (1000, 12), (10**6, 2)])
def test_nobel_remainder_does_not_depend_on_k(n, d):
    same = [nobel_estimation_term(k, n, d) - 2 * nobel_delta(k, n, d) for k in (1, 3, 17, 501)]
    np.testing.assert_allclose(same, 6 * math.sqrt(2) / math.sqrt(d * n * math.log(n)))
    indep = [nobel_estimation_term(k, n, case="independent") - 2 * nobel_delta_independent(k, n)
             for k in (1, 3, 17, 501)]
    np.testing.assert_allclose(indep, 3 / (2 * math.sqrt(n * math.log(2))))
    assert bounds.nobel_remainder(n, d) == pytest.approx(same[0])
    assert bounds.nobel_remainder(n, case="independent") == pytest.approx(indep[0])
    ks = np.array([1, 5, 9])
    np.testing.assert_allclose(nobel_estimation_term(ks, n, d),
                               2 * nobel_delta(ks, n, d) + same[0])


def _tail_integral(log_tail, u):
    """int_u^inf min(1, exp(log_tail(t))) dt, the bound on E(Z - u)_+ of Nobel's Lemma 3."""
    value, _ = quad(lambda t: math.exp(min(0.0, log_tail(t))), u, np.inf, limit=200)
    return value


@pytest.mark.parametrize("k, n, d", [(1, 4, 1), (3, 100, 2), (17, 1000, 12), (5, 10**5, 3)])
def test_lemma_3_terms(k, n, d):
    # same data: P(Z > t) <= 2^k n^(kd) exp(-n t^2 / 32) (Lemma 2), u = Delta(k, n)
    same = _tail_integral(
        lambda t: k * math.log(2) + k * d * math.log(n) - n * t * t / 32, nobel_delta(k, n, d))
    assert same <= 2 * math.sqrt(2) / (k**2.5 * math.sqrt(d * n * math.log(n))) * (1 + 1e-9)
    # independent data: P(Z >= t) <= 2^(2k+1) exp(-2 n t^2), u = Delta'(k, n), eq. (13)
    indep = _tail_integral(lambda t: (2 * k + 1) * math.log(2) - 2 * n * t * t,
                           nobel_delta_independent(k, n))
    assert indep <= 1 / (2 * k**2 * math.sqrt(k * n * math.log(2))) * (1 + 1e-9)


@pytest.mark.parametrize("k, n, d", [(1, 4, 1), (17, 1000, 12), (63, 10**6, 2)])
def test_remainder_covers_the_proof_and_the_printed_term_does_not(k, n, d):
    scale = 2 * math.sqrt(2) / math.sqrt(d * n * math.log(n))
    zeta = sum(j**-2.5 for j in range(1, 200_000)) + 2 / 3 * 200_000**-1.5   # sum_j j^(-5/2)
    # eq. (17) at the comparison size k, plus eq. (18): a sum over every size j >= 1
    proof = scale / k**2.5 + scale * zeta
    assert proof <= bounds.nobel_remainder(n, d)
    # the printed 4 sqrt(2) / sqrt(d k n log n) for eq. (18) is below its own first term
    printed_18 = 4 * math.sqrt(2) / math.sqrt(d * k * n * math.log(n))
    assert (printed_18 < scale) == (k > 4)
    indep_scale = 1 / (2 * math.sqrt(n * math.log(2)))
    assert indep_scale / k**2.5 + indep_scale * zeta <= bounds.nobel_remainder(
        n, case="independent")


# ------------------------------------------------------- Kääriäinen et al. (2004), Sec. 6.1
def _complete_tree(depth):
    """A complete binary tree of the given depth, with counts of two classes."""
    n_internal = 2**depth - 1
    n_nodes = 2 * n_internal + 1
    left = [2 * v + 1 if v < n_internal else -1 for v in range(n_nodes)]
    right = [2 * v + 2 if v < n_internal else -1 for v in range(n_nodes)]
    counts = np.zeros((n_nodes, 2), dtype=np.int64)
    for v in range(n_nodes - 1, -1, -1):
        counts[v] = [1 + v % 3, 1 + v % 2] if left[v] == -1 else counts[left[v]] + counts[right[v]]
    return pk.Tree.from_arrays(left, right, counts)


def _chain_tree(n_internal):
    """Every internal node has a leaf on the left and the rest of the tree on the right."""
    left, right = [], []
    for v in range(n_internal):
        left += [2 * v + 1, -1]
        right += [2 * v + 2, -1]
    left.append(-1)
    right.append(-1)
    n_nodes = len(left)
    counts = np.zeros((n_nodes, 2), dtype=np.int64)
    for v in range(n_nodes - 1, -1, -1):
        counts[v] = [1, v % 2 + 1] if left[v] == -1 else counts[left[v]] + counts[right[v]]
    return pk.Tree.from_arrays(left, right, counts)


def test_occam_prunings_value():
    value = 0.1 + math.sqrt((100 * math.log(2) + math.log(100)) / 2000)
    assert bounds.occam_prunings(0.1, 2**100, 1000, 0.01) == pytest.approx(value)
    # Python integers far beyond any float are taken exactly
    huge = bounds.occam_prunings(0.0, 2**5000, 10**6, 0.05)
    assert huge == pytest.approx(math.sqrt((5000 * math.log(2) + math.log(20)) / (2 * 10**6)))
    both = bounds.occam_prunings([0.1, 0.2], [3, 10**400], 1000, 0.01)
    assert both.shape == (2,) and both[0] < both[1]
    assert bounds.occam_prunings(0.1, np.array([1, 7]), 1000, 0.01).shape == (2,)
    # with 2^(|T|/4) prunings the two Occam values coincide
    assert bounds.occam_prunings(0.1, 2**100, 1000, 0.01) == pytest.approx(
        bounds.occam(0.1, 400, 1000, 0.01))


def test_log2_prunings_is_exact_and_never_overflows():
    small = _complete_tree(2)
    assert bounds.log2_prunings(small) == pytest.approx(math.log2(pk.count_prunings(small)))
    big = _complete_tree(12)                     # 8191 nodes
    assert pk.count_prunings(big) > 2**1100       # far beyond the largest float
    # N(depth) = 1 + N(depth - 1)^2, in log space
    log2_n = 0.0
    for _ in range(12):
        log2_n = 2 * log2_n + math.log2(1 + 2.0**(-2 * log2_n))
    assert bounds.log2_prunings(big) == pytest.approx(log2_n, rel=1e-12)
    assert np.isfinite(bounds.occam_prunings(0.1, pk.count_prunings(big), 10**6, 0.01))
    with pytest.raises(TypeError, match="tree must be a prunekit Tree"):
        bounds.log2_prunings(8191)


def test_the_quarter_code_is_too_short_for_bushy_trees_and_too_long_for_chains():
    # Kraft: |P(T)| codes of b bits each exist only if |P(T)| <= 2^b
    for depth in range(3, 10):
        bushy = _complete_tree(depth)
        assert bounds.log2_prunings(bushy) > bushy.n_nodes / 4
        assert pk.count_prunings(bushy) * 2.0**(-bushy.n_nodes / 4) > 1    # weights sum > 1
        assert (bounds.occam_prunings(0.1, pk.count_prunings(bushy), 1000, 0.01)
                > bounds.occam(0.1, bushy.n_nodes, 1000, 0.01))
    chain = _chain_tree(40)
    assert pk.count_prunings(chain) == 41
    assert bounds.log2_prunings(chain) < chain.n_nodes / 4
    assert (bounds.occam_prunings(0.1, pk.count_prunings(chain), 1000, 0.01)
            < bounds.occam(0.1, chain.n_nodes, 1000, 0.01))


def test_five_eta_falls_below_a_tenth_at_about_6620_pruning_examples():
    # chapter 6: with delta = 0.01, 5 eta(delta, m) < 0.1 exactly from m = 6623 on
    crossing = math.floor(25 * math.log(200) / (2 * 0.1**2)) + 1
    assert crossing == 6623
    assert 5 * bounds.eta(crossing, 0.01) < 0.1 <= 5 * bounds.eta(crossing - 1, 0.01)


# ---------------------------------------------------------------------- bad input
GOOD = {
    "description_length": dict(n_nodes=7, n_features=4),
    "mdl": dict(train_error=0.1, n_nodes=7, n_features=4, n_samples=100, delta=0.05),
    "nobel_delta": dict(k=7, n_samples=100, n_features=3),
    "nobel_delta_independent": dict(k=7, n_samples=100),
    "nobel_remainder": dict(n_samples=100, n_features=3, case="same"),
    "nobel_estimation_term": dict(k=7, n_samples=100, n_features=3, case="same"),
    "eta": dict(n_samples=100, delta=0.05),
    "rademacher": dict(train_error=0.1, penalty=0.05, n_samples=100, delta=0.05),
    "occam": dict(train_error=0.1, n_nodes=31, n_samples=100, delta=0.05),
    "occam_prunings": dict(train_error=0.1, n_prunings=677, n_samples=100, delta=0.05),
}

RATE = [("x", TypeError), (None, TypeError), (True, TypeError), (np.nan, ValueError),
        (np.inf, ValueError), (-0.1, ValueError), (1.5, ValueError), ([0.1, np.nan], ValueError),
        (["a", "b"], TypeError), (1 + 2j, TypeError)]
NODES = [("7", TypeError), (None, TypeError), (True, TypeError), (np.nan, ValueError),
         (np.inf, ValueError), (2.5, ValueError), (0, ValueError), (-3, ValueError),
         ([7, 0], ValueError), ([3, 2.5], ValueError)]
DELTA = [("0.05", TypeError), (None, TypeError), (True, TypeError), (np.nan, ValueError),
         (0.0, ValueError), (1.0, ValueError), (-0.5, ValueError), (2, ValueError)]


def _count_cases(minimum):
    return [("100", TypeError), (None, TypeError), (True, TypeError), (100.0, TypeError),
            (np.nan, TypeError), (minimum - 1, ValueError), (-5, ValueError)]


BAD = (
    [(f, "train_error", v, e) for f in ("mdl", "rademacher", "occam", "occam_prunings")
     for v, e in RATE]
    + [("rademacher", "penalty", v, e) for v, e in RATE]
    + [(f, "n_nodes", v, e) for f in ("description_length", "mdl", "occam") for v, e in NODES]
    + [(f, "k", v, e) for f in ("nobel_delta", "nobel_delta_independent",
                                "nobel_estimation_term") for v, e in NODES]
    + [(f, "delta", v, e) for f in ("mdl", "eta", "rademacher", "occam", "occam_prunings")
       for v, e in DELTA]
    + [(f, "n_features", v, e) for f in ("description_length", "mdl") for v, e in _count_cases(1)]
    + [("mdl", "n_samples", v, e) for v, e in _count_cases(1)]
    + [(f, "n_samples", v, e) for f in ("nobel_delta", "nobel_delta_independent",
                                        "nobel_remainder", "nobel_estimation_term")
       for v, e in _count_cases(4)]
    + [(f, "n_samples", v, e) for f in ("eta", "rademacher", "occam", "occam_prunings")
       for v, e in _count_cases(1)]
    + [(f, "n_features", v, e) for f in ("nobel_delta", "nobel_remainder",
                                         "nobel_estimation_term")
       for v, e in _count_cases(1) if v is not None or f == "nobel_delta"]
    + [(f, "case", v, ValueError) for f in ("nobel_remainder", "nobel_estimation_term")
       for v in ("Same", "indep", None, 1)]
    + [("occam_prunings", "n_prunings", v, e) for v, e in
       [(2.0, TypeError), ("677", TypeError), (True, TypeError), (None, TypeError),
        (0, ValueError), (-1, ValueError), ([3, 0], ValueError), ([3, 1.5], TypeError)]]
)


@pytest.mark.parametrize("function, argument, value, error", BAD,
                         ids=[f"{f}-{a}-{v!r}" for f, a, v, _ in BAD])
def test_bad_arguments_are_named(function, argument, value, error):
    kwargs = dict(GOOD[function], **{argument: value})
    name = argument.split()[0]
    with pytest.raises(error, match=rf"\b{name}\b"):
        getattr(bounds, function)(**kwargs)


@pytest.mark.parametrize("function", sorted(GOOD))
def test_good_arguments_give_finite_values(function):
    assert np.isfinite(getattr(bounds, function)(**GOOD[function]))


@pytest.mark.parametrize("function, arrays", [
    ("mdl", dict(train_error=[0.1, 0.2], n_nodes=[3, 5, 7])),
    ("rademacher", dict(train_error=[0.1, 0.2], penalty=[0.0, 0.1, 0.2])),
    ("occam", dict(train_error=[0.1, 0.2], n_nodes=[3, 5, 7])),
    ("occam_prunings", dict(train_error=[0.1, 0.2], n_prunings=[3, 5, 7])),
])
def test_arrays_that_do_not_broadcast(function, arrays):
    with pytest.raises(ValueError, match="broadcast together"):
        getattr(bounds, function)(**dict(GOOD[function], **arrays))


def test_same_case_needs_d_and_d_is_checked_in_either_case():
    with pytest.raises(ValueError, match="needs n_features"):
        bounds.nobel_estimation_term(7, 100)
    with pytest.raises(ValueError, match="needs n_features"):
        bounds.nobel_remainder(100)
    with pytest.raises(ValueError, match=r"\bn_features\b"):
        bounds.nobel_remainder(100, 0, case="independent")
    assert bounds.nobel_estimation_term(7, 100, case="independent") > 0


def test_whole_floats_and_numpy_integers_are_accepted():
    assert bounds.mdl(0.1, 7.0, 4, 100) == bounds.mdl(0.1, np.int64(7), np.int32(4), 100)
    assert bounds.nobel_delta(np.array([1.0, 3.0]), np.int64(100), 3).shape == (2,)
    assert bounds.occam_prunings(np.float32(0.1), np.int64(677), np.int64(100), 0.05) > 0
