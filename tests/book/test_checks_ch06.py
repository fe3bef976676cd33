"""The checks of Chapter 6's exercises: correct answers pass with one line; wrong solutions
(mutants: the usual mistakes, an argument ignored, an input changed in place, a wrong type) are
rejected, each with the hint that names its mistake and no other; the reference answers agree
with the library, and the claims of the proof exercise hold."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

import prunekit as pk
from prunekit.bounds import eta
from prunekit.rademacher import draw_signs, growing_errors, relabelled_leaf_errors
from prunekit.tree import leaf_errors
from checking import (
    assert_hint, assert_one_type_policy, failure, failure_message, ignoring, mutating,
    not_implemented,
)

from pdtbook.checks import ARRAY_HINT, NUMPY_INT_HINT, ch06

PENALTY_HINTS = [hint for _, hint in ch06._penalty_variants(ch06.BY_HAND_LOSSES,
                                                             ch06.BY_HAND_SIGNS)]
RELABEL_HINTS = [hint for _, hint in ch06._RELABEL_MISTAKES]
MCDIARMID_HINTS = [hint for _, hint in ch06._MCDIARMID_MISTAKES]


# ---------------------------------------------------------------------- solutions and mutants
def empirical_penalty(losses, signs, absolute=True, mean=True, worst=True, correct=False):
    losses = np.asarray(losses, dtype=float)
    sums = (1 - losses if correct else losses) @ signs
    sums = np.abs(sums) if absolute else sums
    sums = sums / len(signs) if mean else sums
    return float(sums.max() if worst else sums.mean())


def flip(y, signs, where=1):
    return np.where(signs == where, 1 - y, y)


def relabelled_errors(predictions, y, signs, mistake=None):
    if mistake == "two-class complement":
        z = np.where(signs == 1, 1 - y, y)
        return int(np.sum(predictions != z))
    if mistake == "plain":
        return int(np.sum(predictions != y))
    if mistake == "only plus":
        return int(np.sum((signs == 1) & (predictions == y)))
    if mistake == "only minus":
        return int(np.sum((signs == -1) & (predictions != y)))
    where = -1 if mistake == "where -1" else 1
    return int(np.sum(np.where(signs == where, predictions == y, predictions != y)))


def k_rep_table(left, right, leaf_growing, leaf_pruning, k, mistake=None):
    table = np.full(k + 1, np.inf)
    if left is not None:
        for i in range(k + 1):
            if mistake == "sum not min":
                table[i] = left[i] + right[i]
            else:
                table[i] = min(left[u] + right[i - u] for u in range(i + 1))
    if mistake == "leaf everywhere":
        return np.minimum(table, leaf_pruning)
    if mistake == "no leaf" or leaf_growing > k:
        return table
    if mistake == "leaf only at g":
        table[leaf_growing] = min(table[leaf_growing], leaf_pruning)
        return table
    table[leaf_growing:] = np.minimum(table[leaf_growing:], leaf_pruning)
    return table


def mcdiarmid_deviation(delta, c, mistake=None):
    squares = float(np.sum(np.asarray(c) ** 2))
    if mistake == "one tail":
        return math.sqrt(math.log(1 / delta) * squares / 2)
    if mistake == "no half":
        return math.sqrt(math.log(2 / delta) * squares)
    if mistake == "norm":
        return math.sqrt(math.log(2 / delta) * math.sqrt(squares) / 2)
    if mistake == "sum":
        return math.sqrt(math.log(2 / delta) * float(np.sum(c)) / 2)
    if mistake == "no root":
        return math.log(2 / delta) * squares / 2
    return math.sqrt(math.log(2 / delta) * squares / 2)


def test_correct_answers_pass_with_one_line(capsys):
    ch06.check_penalty_by_hand(lambda: 1 / 3)
    ch06.check_penalty_by_hand(lambda: Fraction(1, 3))       # "a number": a fraction is fine
    ch06.check_empirical_penalty(empirical_penalty)
    ch06.check_flip(flip)
    ch06.check_relabelled_errors(relabelled_errors)
    ch06.check_k_rep_table(k_rep_table)
    ch06.check_mcdiarmid_deviation(mcdiarmid_deviation)
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["✓ penalty_by_hand: all 1 checks passed.",
                     "✓ penalty_by_hand: all 1 checks passed.",
                     "✓ empirical_penalty: all 6 checks passed.", "✓ flip: all 4 checks passed.",
                     "✓ relabelled_errors: all 6 checks passed.",
                     "✓ k_rep_table: all 8 checks passed.",
                     "✓ mcdiarmid_deviation: all 11 checks passed."]


def test_not_implemented_answers_fail_with_the_standard_message():
    for check in (ch06.check_penalty_by_hand, ch06.check_empirical_penalty, ch06.check_flip,
                  ch06.check_relabelled_errors, ch06.check_k_rep_table,
                  ch06.check_mcdiarmid_deviation):
        assert "is not implemented yet" in failure_message(check, not_implemented)


# ---------------------------------------------------------------------- Exercise 6.1
@pytest.mark.parametrize("value, hint", [
    (1 / 6, PENALTY_HINTS[0]),          # no absolute value: max(-1, +1, -2) / 6
    (2.0, PENALTY_HINTS[1]),            # not divided by m
    (2 / 9, PENALTY_HINTS[2]),          # the mean of 1/6, 1/6, 2/6
    (Fraction(1, 2), PENALTY_HINTS[3]),  # the correct predictions: |-3| / 6
    (2 / 3, "for each classifier add sigma_i over the examples it gets wrong, divide by m = 6, "
            "take absolute values and then the largest."),
], ids=["no absolute value", "no division", "mean", "correct predictions", "other"])
def test_penalty_by_hand_mistakes_get_their_hint(value, hint):
    error = assert_hint(ch06.check_penalty_by_hand, lambda: value, hint)
    assert "explain_penalty_by_hand()" in str(error) and "h1:" not in str(error)


def test_penalty_by_hand_types_and_explanation(capsys):
    assert "should return the penalty, a number" in failure_message(
        ch06.check_penalty_by_hand, lambda: "1/6")
    ch06.explain_penalty_by_hand()
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "h1: wrong on i = [1, 4, 6], signed sum -1 +1 -1 = -1, |-1| / 6 = 0.1667"
    assert out[2] == "h3: wrong on i = [1, 2], signed sum -1 -1 = -2, |-2| / 6 = 0.3333"
    assert out[-1] == "penalty: the largest, 0.3333"


def test_the_hand_table_tells_every_mistake_apart():
    """Each usual mistake of Exercise 6.1 (a) gives a value of its own on the table."""
    values = [value for value, _ in ch06._penalty_variants(ch06.BY_HAND_LOSSES,
                                                           ch06.BY_HAND_SIGNS)]
    right = ch06.empirical_penalty_reference(ch06.BY_HAND_LOSSES, ch06.BY_HAND_SIGNS)
    assert len({round(v, 12) for v in values + [right]}) == len(values) + 1


@pytest.mark.parametrize("changes, hint", list(zip(
    [dict(absolute=False), dict(mean=False), dict(worst=False), dict(correct=True)],
    PENALTY_HINTS)), ids=str)
def test_empirical_penalty_mistakes_get_their_hint(changes, hint):
    assert_hint(ch06.check_empirical_penalty, lambda L, r: empirical_penalty(L, r, **changes),
                hint)


def test_empirical_penalty_types_arguments_and_inputs():
    check = ch06.check_empirical_penalty
    assert "return a single number" in failure_message(
        check, lambda L, r: np.array([empirical_penalty(L, r)]))
    cases = ch06.penalty_cases()
    for position in (0, 1):
        failure(check, ignoring(empirical_penalty, position, cases[0][position + 1]))
    assert "changed its argument `losses` in place" in failure_message(
        check, mutating(empirical_penalty, 0))


# ---------------------------------------------------------------------- Exercise 6.2
@pytest.mark.parametrize("wrong, hint", [
    (lambda y, r: flip(y, r, where=-1), "flip the labels where the sign is +1 (sigma_i = +1 asks "
                                        "h to err on example i)."),
    (lambda y, r: 1 - y, "flip only where signs == 1; keep y where signs == -1."),
    (lambda y, r: y.copy(), "z_i = 1 - y_i where signs[i] == 1, and z_i = y_i otherwise."),
], ids=["where -1", "everywhere", "nowhere"])
def test_flip_mistakes_get_their_hint(wrong, hint):
    assert_hint(ch06.check_flip, wrong, hint)


def test_flip_types_and_inputs():
    check = ch06.check_flip
    assert "one label per example" in failure_message(check, lambda y, r: flip(y, r)[:-1])
    assert "it should return a NumPy array" in failure_message(
        check, lambda y, r: flip(y, r).tolist())
    assert "the labels should be integers" in failure_message(
        check, lambda y, r: flip(y, r).astype(float))

    def in_place(y, signs):
        y[signs == 1] = 1 - y[signs == 1]
        return y

    assert "changed its argument `y` in place" in failure_message(check, in_place)
    first = ch06.relabel_cases()[0]
    for position in (0, 1):
        failure(check, ignoring(flip, position, first[position + 2]))


@pytest.mark.parametrize("mistake, hint", list(zip(
    ["where -1", "two-class complement", "plain", "only plus", "only minus"], RELABEL_HINTS)),
    ids=str)
def test_relabelled_errors_mistakes_get_their_hint(mistake, hint):
    # the two-class complement 1 - y on three classes was once told "you relabelled where
    # sigma_i = -1"
    assert_hint(ch06.check_relabelled_errors,
                lambda p, y, r: relabelled_errors(p, y, r, mistake), hint)


def test_relabelled_errors_types_arguments_and_inputs():
    check = ch06.check_relabelled_errors
    message = failure_message(check, lambda p, y, r: float(relabelled_errors(p, y, r)))
    assert "a float; it should return a number of errors, an int" in message
    # np.sum without int(...): the statement asks for an int
    error = assert_hint(check, lambda p, y, r: np.int64(relabelled_errors(p, y, r)),
                        NUMPY_INT_HINT)
    assert "returned 5, of type numpy.int64; it should return a number of errors, an int " \
           "(Python's int, not NumPy's)." in str(error)
    cases = ch06.relabel_cases()
    for position in range(3):
        failure(check, ignoring(relabelled_errors, position, cases[0][position + 1]))
    assert "changed its argument `predictions` in place" in failure_message(
        check, mutating(relabelled_errors, 0))


# ---------------------------------------------------------------------- Exercise 6.3
@pytest.mark.parametrize("mistake", list(ch06._K_REP_HINTS))
def test_k_rep_table_mistakes_get_their_hint(mistake):
    assert_hint(ch06.check_k_rep_table, lambda *a: k_rep_table(*a, mistake=mistake),
                ch06._K_REP_HINTS[mistake])


def test_k_rep_table_types_arguments_and_inputs():
    check = ch06.check_k_rep_table
    assert "k + 1" in failure_message(check, lambda *a: k_rep_table(*a)[:-1])
    assert "it should return a NumPy array of numbers" in failure_message(
        check, lambda *a: k_rep_table(*a).tolist())

    def aliasing(left, right, leaf_growing, leaf_pruning, k):
        table = k_rep_table(left, right, leaf_growing, leaf_pruning, k)
        if left is not None:          # table = left, then filled in: the child's table changes
            left[:] = table
        return table

    assert "changed its argument `left` in place" in failure_message(check, aliasing)
    cases = ch06.k_rep_cases()
    for position in (2, 3, 4):        # leaf_growing, leaf_pruning or k fixed
        failure(check, ignoring(k_rep_table, position, cases[2][position + 1]))


# ---------------------------------------------------------------------- Exercise 6.4
@pytest.mark.parametrize("mistake, hint", list(zip(
    ["one tail", "no half", "norm", "sum", "no root"], MCDIARMID_HINTS)), ids=str)
def test_mcdiarmid_mistakes_get_their_hint(mistake, hint):
    assert_hint(ch06.check_mcdiarmid_deviation,
                lambda d, c: mcdiarmid_deviation(d, c, mistake), hint)


def test_mcdiarmid_types_and_arguments():
    check = ch06.check_mcdiarmid_deviation
    assert "a deviation, a float" in failure_message(
        check, lambda d, c: str(mcdiarmid_deviation(d, c)))
    # np.asarray(...) of the result: a 0-d array, not the float the statement asks for
    error = assert_hint(check, lambda d, c: np.asarray(mcdiarmid_deviation(d, c)),
                        ARRAY_HINT)
    assert "returned a 0-dimensional NumPy array, array(1.3581); it should return a " \
           "deviation, a float." in str(error)
    first = ch06.mcdiarmid_cases()[1]
    for position in (0, 1):
        failure(check, ignoring(mcdiarmid_deviation, position, first[position]))
    assert "changed its argument `c` in place" in failure_message(
        check, mutating(mcdiarmid_deviation, 1))


# ---------------------------------------------------------------------- references vs library
@pytest.fixture(scope="module")
def grown():
    X, y = make_classification(700, 5, n_informative=3, n_classes=3, flip_y=0.2, random_state=7)
    clf = DecisionTreeClassifier(max_leaf_nodes=8, random_state=0).fit(X[:400], y[:400])
    return pk.Tree.from_sklearn(clf, X[:400], y[:400]), X[400:], y[400:]


def test_reference_penalty_over_all_prunings_is_the_library_penalty(grown):
    tree, X, y = grown
    losses = np.array([p.predict(X) != y for p in pk.all_prunings(tree)], dtype=int)
    for signs in draw_signs(len(y), 0, n_draws=10):
        assert ch06.empirical_penalty_reference(losses, signs) == pytest.approx(
            pk.rademacher_penalty(tree, X, y, signs=signs))
    assert ch06.empirical_penalty_reference(ch06.BY_HAND_LOSSES, ch06.BY_HAND_SIGNS) == pytest.approx(1 / 3)


def test_reference_relabelled_errors_are_the_library_leaf_errors(grown):
    tree, X, y = grown
    signs = draw_signs(len(y), 1)
    errors_z, errors_zbar = relabelled_leaf_errors(tree, X, y, signs)
    root_label = np.full(len(y), tree.labels[0])
    assert ch06.relabelled_errors_reference(root_label, y, signs) == errors_z[0]
    assert ch06.relabelled_errors_reference(root_label, y, -signs) == errors_zbar[0]
    # the identity behind the recipe: err_z = m_+ - sum_i sigma_i l_i
    for p in pk.all_prunings(tree):
        predictions = p.predict(X)
        assert ch06.relabelled_errors_reference(predictions, y, signs) == (
            np.sum(signs == 1) - np.sum(signs * (predictions != y)))


def test_reference_k_rep_tables_give_the_library_k_rep(grown):
    tree, X, y = grown
    counts = tree.node_counts(X, y)
    grow_err, prune_err = growing_errors(tree), leaf_errors(counts, tree.labels)
    floor = int(grow_err[tree.is_leaf].sum())
    for k in (floor, floor + 3, floor + 15, tree.n_samples):
        tables = {}
        for v in pk.tree.postorder(tree):
            children = (None, None) if tree.is_leaf[v] else (tables[tree.left[v]], tables[tree.right[v]])
            tables[v] = ch06.k_rep_table_reference(*children, int(grow_err[v]), float(prune_err[v]), k)
        assert tables[0][k] == pk.k_reduced_error(tree, X, y, k).errors(counts)


def test_proof_exercise_claims_hold_numerically(grown):
    tree, X, y = grown
    n = len(y)
    assert ch06.mcdiarmid_deviation_reference(0.01, np.full(n, 2 / n)) == pytest.approx(2 * eta(n, 0.01))
    assert ch06.mcdiarmid_deviation_reference(0.01, np.full(n, 1 / n)) == pytest.approx(eta(n, 0.01))
    # one replaced pair moves the penalty by at most 2/n
    rng = np.random.default_rng(0)
    signs = draw_signs(n, rng)
    base = pk.rademacher_penalty(tree, X, y, signs=signs)
    for _ in range(100):
        i, j = rng.integers(n, size=2)
        X2, y2, r2 = X.copy(), y.copy(), signs.copy()
        X2[i], y2[i], r2[i] = X[j], y[j], -signs[i]
        assert abs(pk.rademacher_penalty(tree, X2, y2, signs=r2) - base) <= 2 / n + 1e-12


# ---------------------------------------------------------------------- one type policy
TYPED = {
    "6.1a": (ch06.check_penalty_by_hand, lambda: 1 / 3, None, np.float64, ()),
    "6.1b": (ch06.check_empirical_penalty, empirical_penalty, None, np.float64, ()),
    # the statement asks for a Python int: NumPy's are refused with their own hint
    "6.3": (ch06.check_relabelled_errors, relabelled_errors, None, None, ()),
    "6.4": (ch06.check_mcdiarmid_deviation, mcdiarmid_deviation, None, np.float64, ()),
}


@pytest.mark.parametrize("exercise", TYPED)
def test_a_0d_array_is_refused_and_a_numpy_scalar_accepted(exercise, capsys):
    """One policy in every check: NumPy scalars are numbers, 0-d arrays are not."""
    assert_one_type_policy(capsys, *TYPED[exercise])
