"""The checks of Chapter 8's exercises: correct answers pass with one line; wrong solutions
(mutants: the usual mistakes, an argument ignored, an input changed in place, a wrong type) are
rejected, each with the hint that names its mistake and no other; the exercises worked by hand
never show the worked answer on a wrong attempt (explain_* prints it).

The correct answers follow the solution notebook (``exercises/solutions/08-classic-heuristics.ipynb``);
each takes keyword switches that turn it into one of the usual mistakes.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import beta, norm

import prunekit as pk
from checking import assert_hint, assert_one_type_policy, failure, ignoring
from checking import failure_message as _message
from checking import not_implemented as _todo
from prunekit.datasets import cube, dnf_labels
from prunekit.error_based_pruning import upper_confidence_limit

from pdtbook.checks import CheckFailed, ch08

LIMIT_HINTS = [hint for _, hint in ch08._limit_mistakes(1, 16, 0.25, zero_extra=True)]
M_ERROR_HINTS = [hint for _, hint in ch08._m_error_variants(np.array([8, 2]), 2.0,
                                                             np.full(2, 0.5))]


# ---------------------------------------------------------------------- Exercise 8.1 (a)
def _by_hand(z, sign=1.0):
    """U_0.25(2, 10) by Wilson's formula with the given z (sign -1: the lower end)."""
    f, n = 0.25, 10
    s = math.sqrt(f / n - f * f / n + z * z / (4 * n * n))
    return (f + z * z / (2 * n) + sign * z * s) / (1 + z * z / n)


def test_ucf_by_hand_passes_with_a_table_value(capsys):
    ch08.check_ucf_by_hand(lambda: 0.3519)          # z = 0.6745 from a four-digit table
    ch08.check_ucf_by_hand(lambda: np.float64(upper_confidence_limit(2, 10, 0.25)))
    assert capsys.readouterr().out == "✓ ucf_by_hand: all 1 checks passed.\n" * 2


@pytest.mark.parametrize("z", [0.67, 0.68, 0.6745])
def test_ucf_by_hand_accepts_z_from_a_two_decimal_table(z, capsys):
    # Exercise 8.1 (a) says: answers within 0.001 pass, which covers z read as 0.67 or 0.68
    assert ch08.BY_HAND_TOLERANCE == 0.001
    value = _by_hand(z)
    assert abs(value - upper_confidence_limit(2, 10, 0.25)) < ch08.BY_HAND_TOLERANCE
    ch08.check_ucf_by_hand(lambda: round(value, 4))
    assert capsys.readouterr().out == "✓ ucf_by_hand: all 1 checks passed.\n"


def test_ucf_by_hand_tolerance_still_rejects_the_usual_slips():
    right = upper_confidence_limit(2, 10, 0.25)
    slips = [wrong for wrong, _ in ch08._limit_mistakes(2, 10, 0.25)
             if not math.isclose(wrong, right, abs_tol=2e-4)]
    assert slips and all(abs(wrong - right) > 2 * ch08.BY_HAND_TOLERANCE for wrong in slips)
    # C4.5's own table value z = 0.6925 is not what the exercise asks for
    failure(ch08.check_ucf_by_hand, lambda: _by_hand(0.6925))


def test_ucf_by_hand_lower_end_names_both_causes():
    # the lower end of the interval and a negative z give the same number: the hint says so
    lower = _by_hand(norm.ppf(0.75), sign=-1.0)
    assert math.isclose(lower, _by_hand(norm.ppf(0.25)))
    assert_hint(ch08.check_ucf_by_hand, lambda: lower, ch08.LOWER_END_HINT)
    assert_hint(ch08.check_ucf_by_hand, lambda: round(lower, 4), ch08.LOWER_END_HINT)


@pytest.mark.parametrize("value, hint", [
    (0.2, "that is the training error rate e / N"),
    (0.25, "only the corrected rate f = (e + 1/2) / N"),
    (3.5186, "return the limit as a rate"),
    (float(beta.ppf(0.75, 3, 8)), "exact (Clopper-Pearson) binomial limit"),
    (None, "a negative z, Phi^(-1)(CF)"),
    (None, "not the two-sided"),
    (None, "continuity correction"),
])
def test_ucf_by_hand_wrong_attempts_hide_the_answer(value, hint):
    if value is None:        # recomputed with the wrong z or without the correction
        z = {"a negative z, Phi^(-1)(CF)": norm.ppf(0.25), "not the two-sided": norm.ppf(0.875),
             "continuity correction": norm.ppf(0.75)}[hint]
        f = 0.2 if hint == "continuity correction" else 0.25
        value = (f + z * z / 20 + z * math.sqrt(f / 10 - f * f / 10 + z * z / 400)) / (1 + z * z / 10)
    for attempt in range(2):       # a second wrong attempt does not give the answer either
        message = _message(ch08.check_ucf_by_hand, lambda: value)
        assert hint in message and "explain_ucf_by_hand()" in message
        assert "0.3519" not in message and "0.3518" not in message


def test_ucf_by_hand_explanation_shows_the_computation(capsys):
    ch08.explain_ucf_by_hand()
    out = capsys.readouterr().out
    assert "z = Phi^(-1)(0.75) = 0.6745, f = (2 + 1/2) / 10 = 0.25" in out
    assert out.rstrip().endswith("= 0.3519")


def test_ucf_by_hand_types_and_missing():
    assert "not implemented yet" in _message(ch08.check_ucf_by_hand, _todo)
    assert "should return the upper limit, a number" in _message(
        ch08.check_ucf_by_hand, lambda: "0.35")
    assert "should return the upper limit" in _message(ch08.check_ucf_by_hand, lambda: [0.35])


# ---------------------------------------------------------------------- Exercise 8.1 (b)
def upper_limit(e, n, confidence, *, z_of=lambda cf: norm.ppf(1 - cf), correction=0.5,
                zero_case=True, top_case=True, count=False, sign=1.0):
    """C4.5's U_CF(e, N), or one of the usual wrong variants (sign=-1: the lower end)."""
    z = z_of(confidence)
    if zero_case and e == 0:
        value = 1 - confidence ** (1 / n)
    elif top_case and e + 0.5 >= n:
        value = 1.0
    else:
        f = (e + correction) / n
        spread = math.sqrt(max(f / n - f * f / n + z * z / (4 * n * n), 0))
        value = (f + z * z / (2 * n) + sign * z * spread) / (1 + z * z / n)
    return float(value * n if count else value)


def test_upper_limit_passes(capsys):
    ch08.check_upper_limit(upper_limit)
    ch08.check_upper_limit(lambda e, n, cf: upper_confidence_limit(e, n, cf))
    assert capsys.readouterr().out == "✓ upper_limit: all 10 checks passed.\n" * 2


def test_upper_limit_cases_vary_every_argument():
    cases = [args for _, args in ch08.upper_limit_cases()]
    assert len({e for e, _, _ in cases}) >= 5
    assert len({n for _, n, _ in cases}) >= 5
    assert {cf for _, _, cf in cases} >= {0.01, 0.05, 0.1, 0.25, 0.5}
    assert any(e == 0 for e, _, _ in cases) and any(e + 0.5 >= n for e, n, _ in cases)


@pytest.mark.parametrize("changes, hint", [
    (dict(z_of=norm.ppf), LIMIT_HINTS[0]),
    (dict(z_of=lambda cf: norm.ppf(1 - cf / 2)), LIMIT_HINTS[1]),
    (dict(correction=0.0), LIMIT_HINTS[2]),
    (dict(count=True), LIMIT_HINTS[3]),
    (dict(zero_case=False), LIMIT_HINTS[7]),
    (dict(top_case=False), LIMIT_HINTS[8]),
    (dict(sign=-1.0), ch08.LOWER_END_HINT),
    (dict(z_of=lambda cf: 0.6745), ch08.FIXED_Z_HINT),
    (dict(z_of=lambda cf: norm.ppf(0.75)), ch08.FIXED_Z_HINT),
], ids=lambda v: str(v)[:20])
def test_upper_limit_mistakes(changes, hint):
    assert_hint(ch08.check_upper_limit, lambda e, n, cf: upper_limit(e, n, cf, **changes), hint)


def test_upper_limit_lower_end_and_negative_z_get_the_same_hint_naming_both():
    assert LIMIT_HINTS[0] == ch08.LOWER_END_HINT
    assert "minus sign" in ch08.LOWER_END_HINT and "Phi^(-1)(CF)" in ch08.LOWER_END_HINT
    for e, n, cf in [args for _, args in ch08.upper_limit_cases()]:
        assert math.isclose(upper_limit(e, n, cf, sign=-1.0),
                            upper_limit(e, n, cf, z_of=norm.ppf), abs_tol=1e-12)


@pytest.mark.parametrize("z", [0.6745, float(norm.ppf(0.75))])
def test_upper_limit_fixed_z_is_reported_where_it_is_wrong(z):
    message = _message(ch08.check_upper_limit,
                       lambda e, n, cf: upper_limit(e, n, cf, z_of=lambda _: z))
    # the first case shown has CF != 0.25, where a z copied from part (a) is wrong
    first = message.splitlines()[0]
    assert first.startswith("✗ upper_limit(5, 20, 0.01) returned")
    cases = ch08.upper_limit_cases()
    assert cases[0][1][2] != 0.25 and cases[0][1][0] + 0.5 < cases[0][1][1] and cases[0][1][0]


def test_upper_limit_uses_every_argument_and_returns_a_float():
    first = ch08.upper_limit_cases()[3][1]
    for position in range(3):
        failure(ch08.check_upper_limit, ignoring(upper_limit, position, first[position]))
    # 1 for e + 1/2 >= N, as an int
    message = _message(ch08.check_upper_limit,
                       lambda e, n, cf: 1 if e + 0.5 >= n else upper_limit(e, n, cf))
    assert "returned 1, an int; it should return the upper limit, a float" in message
    mixed_up = lambda e, n, cf: 1 - (1 - cf) ** (1 / n) if e == 0 else upper_limit(e, n, cf)
    assert_hint(ch08.check_upper_limit, mixed_up, LIMIT_HINTS[-1])


def test_upper_limit_exact_binomial_and_wrong_types():
    def exact(e, n, cf):
        return float(beta.ppf(1 - cf, e + 1, n - e)) if e < n else 1.0
    assert_hint(ch08.check_upper_limit, exact, LIMIT_HINTS[4])
    assert "not implemented yet" in _message(ch08.check_upper_limit, _todo)
    assert "return a single number" in _message(
        ch08.check_upper_limit, lambda e, n, cf: np.array([upper_limit(e, n, cf)]))
    message = _message(ch08.check_upper_limit, lambda e, n, cf: 1 / (e - 5))
    assert "upper_limit(5, 20, 0.01) raised ZeroDivisionError" in message


# ---------------------------------------------------------------------- Exercise 8.2
RIGHT_PEP = {1: (5.5, 4.0, 1.86, "prune"), 2: (5.5, 2.5, 1.48, "keep")}


def test_pep_test_passes(capsys):
    tree = ch08.pep_tree()
    ch08.check_pep_test(RIGHT_PEP.__getitem__, tree)
    # exact values, NumPy numbers and another spelling of the decision pass as well
    from prunekit.pessimistic_pruning import pessimistic_errors
    numbers = pessimistic_errors(tree)
    ch08.check_pep_test(lambda v: (numbers.as_leaf[v], np.float64(numbers.subtree[v]),
                                   numbers.standard_error[v],
                                   " PRUNE " if numbers.prune[v] else "Keep"), tree)
    assert capsys.readouterr().out == "✓ pep_test: all 2 checks passed.\n" * 2


def test_pep_test_agrees_with_the_library():
    tree = ch08.pep_tree()
    assert np.flatnonzero(pk.pessimistic(tree).kept).tolist() == [0, 1, 2, 5, 6, 7, 8]
    from prunekit.pessimistic_pruning import pessimistic_errors
    numbers = pessimistic_errors(tree)
    for v, (leaf, subtree, se, decision) in RIGHT_PEP.items():
        assert numbers.as_leaf[v] == leaf and numbers.subtree[v] == subtree
        assert abs(numbers.standard_error[v] - se) < 0.005
        assert numbers.prune[v] == (decision == "prune")


@pytest.mark.parametrize("answers, hint", [
    ({1: (5.5, 3.5, 1.76, "prune")}, "not a single 1/2"),                       # one half only
    ({1: (5.5, 4.0, 1.86, "keep")}, "the test allows one standard error"),       # no SE
    ({1: (5.5, 4.0, math.sqrt(4 * 46 / 50), "prune")},
     "the standard error uses m_v"),                                             # SE with m = 50
    ({2: (5.5, 3.5, math.sqrt(3.5 * 16.5 / 20), "keep")}, "1/2 per leaf of T_v, not per node"),
    ({1: (5.0, 4.0, 1.86, "prune")}, "the leaf's count is corrected as well"),
    ({1: (5.5, 3.0, math.sqrt(3 * 27 / 30), "prune")}, "the subtree's count is corrected too"),
    ({2: (5.5, 2.5, 1.48, "prune")}, "keep otherwise"),                         # reversed
])
def test_pep_test_mistakes_get_hints_and_no_worked_answer(answers, hint):
    given = {**RIGHT_PEP, **answers}
    for attempt in range(2):
        message = _message(ch08.check_pep_test, given.__getitem__)
        assert hint in message and "explain_pep_test()" in message
        assert "m_v = " not in message and "->" not in message


def test_pep_test_children_as_the_leaves_of_t_v_is_not_blamed_on_the_rule():
    # at node 2 the grown subtree has three leaves (7, 8, 6); taking v's children 5 and 6 as
    # its leaves gives e'(T_v) = 3 + 1 + 1 = 5, and Quinlan's rule then prunes
    children = (5.5, 5.0, math.sqrt(5 * 15 / 20), "prune")
    for answer in (children, (5.5, 5.0, 1.94, "prune"), (5.5, 5.0, 1.94, "keep")):
        error = assert_hint(ch08.check_pep_test, {**RIGHT_PEP, 2: answer}.__getitem__,
                            ch08._PEP_HINTS["children"])
        assert "e'(T_v) and SE" in str(error)


@pytest.mark.parametrize("answer", [(5.5, 6.0, 2.0, "keep"), (5.5, 9.0, 2.18, "prune")])
def test_pep_test_wrong_numbers_never_get_a_hint_about_the_rule(answer):
    # wrong numbers that no listed mistake reproduces get the general hint, whatever the
    # decision: a hint names a cause only when the cause reproduces the answer
    error = failure(ch08.check_pep_test, {**RIGHT_PEP, 2: answer}.__getitem__)
    rule_hints = [ch08._PEP_HINTS[name] for name in ch08._PEP_RULE_MISTAKES]
    assert error.hint not in rule_hints and error.hint.startswith("e'(v) = e(v) + 1/2")


def test_pep_test_wrong_part_and_explanation(capsys):
    wrong = {**RIGHT_PEP, 1: (5.5, 4.0, 1.86, "keep")}.__getitem__
    message = _message(ch08.check_pep_test, wrong)
    assert "pep_test(1) returned (5.5, 4, 1.86, 'keep'): the decision is not right at node 1." in message
    ch08.explain_pep_test()
    out = capsys.readouterr().out.splitlines()
    assert out == ["node 1: m_v = 30, e'(v) = 5.5, e'(T_v) = 4, SE = 1.862; 5.5 <= 5.862  ->  prune",
                   "node 2: m_v = 20, e'(v) = 5.5, e'(T_v) = 2.5, SE = 1.479; 5.5 > 3.979  ->  keep"]


def test_pep_test_rejects_wrong_types():
    assert "a tuple of four values" in _message(ch08.check_pep_test, lambda v: "prune")
    assert "a tuple of four values" in _message(ch08.check_pep_test, lambda v: (5.5, 4.0, 1.86))
    message = _message(ch08.check_pep_test, lambda v: (*RIGHT_PEP[v][:3], True))
    assert "it should be 'prune' or 'keep'" in message
    message = _message(ch08.check_pep_test, lambda v: ("5.5", *RIGHT_PEP[v][1:]))
    assert "a number for each of e'(v), e'(T_v) and SE" in message
    assert "not implemented yet" in _message(ch08.check_pep_test, _todo)


def test_pep_test_varies_the_node():
    assert len(ch08.PEP_NODES) == 2
    decisions = {RIGHT_PEP[v][3] for v in ch08.PEP_NODES}
    assert decisions == {"prune", "keep"}


# ---------------------------------------------------------------------- Exercise 8.3
def m_error(counts, m, prior, *, mistake=None):
    """The m-estimate of a leaf's error rate, or one of the usual wrong variants."""
    n = counts.sum()
    if mistake == "largest p":
        return float(1 - ((counts + m * prior) / (n + m)).max())
    y = int(np.argmax(counts))
    if mistake == "last of ties":
        y = len(counts) - 1 - int(np.argmax(counts[::-1]))
    if mistake == "prior not complemented":
        return float((n - counts[y] + m * prior[y]) / (n + m))
    if mistake == "laplace":
        return float((n - counts[y] + len(counts) - 1) / (n + len(counts)))
    if mistake == "probability":
        return float((counts[y] + m * prior[y]) / (n + m))
    if mistake == "in place":
        counts += 0                      # harmless ...
        counts[y] -= counts[y]           # ... and now it is not
        return float((n - (n - counts.sum()) + m * (1 - prior[y])) / (n + m))
    if mistake == "normalised prior":
        prior /= prior.sum() * 2
        return float((n - counts[y] + m * (1 - 2 * prior[y])) / (n + m))
    return float((n - counts[y] + m * (1 - prior[y])) / (n + m))


def test_m_error_passes(capsys):
    ch08.check_m_error(m_error)
    ch08.check_m_error(lambda c, m, p: np.float64(pk.minimum_error_pruning.m_estimate_error(c, m, p)))
    assert capsys.readouterr().out == "✓ m_error: all 10 checks passed.\n" * 2


def test_m_error_cases_vary_every_argument_and_test_ties():
    cases = ch08.m_error_cases()
    assert len({len(c) for _, c, _, _ in cases}) == 2                     # 2 and 3 classes
    assert len({m for _, _, m, _ in cases}) >= 5 and any(m == 0 for _, _, m, _ in cases)
    assert len({tuple(p) for _, _, _, p in cases}) >= 5
    ties = [(c, p) for _, c, _, p in cases if np.sum(c == c.max()) > 1]
    assert ties and any(p[np.argmax(c)] < p[len(c) - 1] for c, p in ties)


@pytest.mark.parametrize("mistake, hint", [
    ("largest p", M_ERROR_HINTS[0]),
    ("last of ties", M_ERROR_HINTS[7]),
    ("prior not complemented", M_ERROR_HINTS[1]),
    ("laplace", M_ERROR_HINTS[2]),
    ("probability", M_ERROR_HINTS[6]),
])
def test_m_error_mistakes(mistake, hint):
    assert_hint(ch08.check_m_error, lambda c, m, p: m_error(c, m, p, mistake=mistake), hint)


def test_m_error_uses_every_argument():
    first = ch08.m_error_cases()[1]
    for position in range(3):
        failure(ch08.check_m_error, ignoring(m_error, position, first[position + 1]))


def test_m_error_must_not_modify_its_inputs():
    def in_place(counts, m, prior):
        return m_error(counts, m, prior, mistake="in place")

    def normalised(counts, m, prior):
        return m_error(counts, m, prior, mistake="normalised prior")

    message = _message(ch08.check_m_error, in_place)
    assert "changed its argument `counts` in place" in message
    assert "changed its argument `prior` in place" in _message(ch08.check_m_error, normalised)


def test_m_error_types():
    assert "not implemented yet" in _message(ch08.check_m_error, _todo)
    assert "should return the estimated error rate, a float" in _message(
        ch08.check_m_error, lambda c, m, p: None)
    assert "return a single number" in _message(
        ch08.check_m_error, lambda c, m, p: np.array([m_error(c, m, p)]))


# ---------------------------------------------------------------------- Exercise 8.4
POINTS = cube(ch08.COVERAGE_FEATURES)
CLEAN = dnf_labels(POINTS, ch08.COVERAGE_TERMS)
NOISE = ch08.COVERAGE_NOISE


def coverage(tree, counts, confidence, *, mistake=None):
    """The share of reached leaves whose true error rate is at most U_CF, or a wrong variant."""
    leaf_of = tree.apply(POINTS)
    covered, reached = 0, 0
    for v in np.flatnonzero(tree.is_leaf):
        n = counts[v].sum()
        if n == 0:
            if mistake == "unreached":
                reached += 1
            continue
        q = np.mean(tree.labels[v] != CLEAN[leaf_of == v])
        true_rate = q if mistake == "no noise" else NOISE + (1 - 2 * NOISE) * q
        e = n - (counts[v].max() if mistake == "majority" else counts[v, tree.labels[v]])
        if mistake == "growing counts":
            n, e = tree.counts[v].sum(), tree.counts[v].sum() - tree.counts[v].max()
        if mistake == "training":
            true_rate = e / n
        limit = upper_confidence_limit(e, n, confidence)
        if mistake == "count":
            limit *= n
        covered += true_rate <= limit
        reached += 1
    if mistake == "in place":
        counts[:] = 0
    return float(covered / reached)


def test_coverage_passes(capsys):
    ch08.check_coverage(coverage)
    assert capsys.readouterr().out == "✓ coverage: all 6 checks passed.\n"


def test_coverage_cases_vary_every_argument():
    cases = ch08.coverage_cases()
    assert len({(m, seed) for _, m, seed, _, _ in cases}) >= 4           # trees
    assert {fresh for *_, fresh in cases} == {True, False}               # counts
    assert len({cf for _, _, _, cf, _ in cases}) >= 4                     # confidence
    # the fresh cases have unreached leaves (the stated rule matters) and leaves whose fresh
    # majority is not the tree's label (the errors of the label matter)
    for _, m, seed, _, fresh in cases:
        tree, counts = ch08._coverage_case(m, seed, fresh)
        leaves = tree.is_leaf
        if fresh:
            assert np.any(counts[leaves].sum(axis=1) == 0)
            assert np.any(counts[leaves].argmax(axis=1) != tree.labels[leaves])


@pytest.mark.parametrize("mistake, hint", [
    ("training", ch08._COVERAGE_HINTS["training"]),
    ("no noise", ch08._COVERAGE_HINTS["no noise"]),
    ("count", ch08._COVERAGE_HINTS["count"]),
    ("majority", ch08._COVERAGE_HINTS["majority"]),
    ("growing counts", ch08._COVERAGE_HINTS["growing counts"]),
    ("unreached", ch08._COVERAGE_HINTS["unreached covered"]),
])
def test_coverage_mistakes(mistake, hint):
    assert_hint(ch08.check_coverage, lambda t, c, cf: coverage(t, c, cf, mistake=mistake), hint)


def test_coverage_uses_every_argument():
    _, m, seed, cf, fresh = ch08.coverage_cases()[0]
    tree, counts = ch08._coverage_case(m, seed, fresh)
    for position, value in ((0, tree), (1, counts), (2, cf)):
        failure(ch08.check_coverage, ignoring(coverage, position, value))


def test_coverage_must_not_modify_the_counts_and_types():
    def in_place(tree, counts, confidence):
        return coverage(tree, counts, confidence, mistake="in place")

    message = _message(ch08.check_coverage, in_place)
    assert "changed its argument `counts` in place" in message
    assert "not implemented yet" in _message(ch08.check_coverage, _todo)
    assert "a fraction of leaves, a float" in _message(ch08.check_coverage,
                                                       lambda t, c, cf: "most")


def test_leaf_true_error_rates_by_enumeration():
    tree, _ = ch08._coverage_case(300, 0, False)
    rates = ch08.leaf_true_error_rates(tree)
    leaf_of = tree.apply(POINTS)
    for v in np.flatnonzero(tree.is_leaf)[:10]:
        here = leaf_of == v
        wrong = tree.labels[v] != CLEAN[here]
        # a point is misclassified with probability 1 - noise where the label is wrong
        expected = np.mean(np.where(wrong, 1 - NOISE, NOISE))
        assert math.isclose(rates[v], expected)
    assert np.all(np.isnan(rates[~tree.is_leaf]))


def test_check_failed_is_an_assertion():
    with pytest.raises(CheckFailed):
        ch08.check_m_error(_todo)


# ---------------------------------------------------------------------- one type policy
def _pep_numbers(v):
    from prunekit.pessimistic_pruning import pessimistic_errors
    numbers = pessimistic_errors(ch08.pep_tree())
    return (float(numbers.as_leaf[v]), float(numbers.subtree[v]),
            float(numbers.standard_error[v]), "prune" if numbers.prune[v] else "keep")


TYPED = {
    "8.1a": (ch08.check_ucf_by_hand, lambda: float(upper_confidence_limit(2, 10, 0.25)), None,
             np.float64, ()),
    "8.1b": (ch08.check_upper_limit, upper_limit, None, np.float64, ()),
    "8.2": (ch08.check_pep_test, _pep_numbers, 2, np.float64, ()),
    "8.3": (ch08.check_m_error, m_error, None, np.float64, ()),
    "8.4": (ch08.check_coverage, coverage, None, np.float64, ()),
}


@pytest.mark.parametrize("exercise", TYPED)
def test_a_0d_array_is_refused_and_a_numpy_scalar_accepted(exercise, capsys):
    """One policy in every check: NumPy scalars are numbers, 0-d arrays are not."""
    assert_one_type_policy(capsys, *TYPED[exercise])
