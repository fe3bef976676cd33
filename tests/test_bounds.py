"""Tests of prunekit.bounds: values, the corrections to the papers, and bad input."""

import math

import numpy as np
import pytest
from scipy.integrate import quad

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
