"""The checks of Chapter 6's exercises: correct answers pass, typical mistakes get their hint,
the reference answers agree with the library, and the claims of the proof exercise hold."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

import prunekit as pk
from prunekit.bounds import eta
from prunekit.checks import ch06
from prunekit.rademacher import draw_signs, growing_errors, relabelled_leaf_errors
from prunekit.reduced_error import leaf_errors
from checking import failure_message as _message


# ---------------------------------------------------------------------- correct answers
def empirical_penalty(losses, signs, absolute=True, mean=True, worst=True):
    sums = np.asarray(losses, dtype=float) @ signs
    sums = np.abs(sums) if absolute else sums
    sums = sums / len(signs) if mean else sums
    return float(sums.max() if worst else sums.mean())


def flip(y, signs, where=1):
    return np.where(signs == where, 1 - y, y)


def relabelled_errors(predictions, y, signs, where=1, plain=False):
    if plain:
        return int(np.sum(predictions != y))
    return int(np.sum(np.where(signs == where, predictions == y, predictions != y)))


def k_rep_table(left, right, leaf_growing, leaf_pruning, k, leaf_step=True, leaf_everywhere=False):
    table = np.full(k + 1, np.inf)
    if left is not None:
        for i in range(k + 1):
            table[i] = min(left[u] + right[i - u] for u in range(i + 1))
    start = 0 if leaf_everywhere else leaf_growing
    if leaf_step and start <= k:
        table[start:] = np.minimum(table[start:], leaf_pruning)
    return table


def mcdiarmid_deviation(delta, c, log_of=lambda d: 2 / d, half=True):
    total = float(np.sum(np.asarray(c) ** 2))
    return math.sqrt(math.log(log_of(delta)) * total / (2 if half else 1))




def test_correct_answers_pass_with_one_line(capsys):
    ch06.check_penalty_by_hand(lambda: 1 / 6)
    ch06.check_empirical_penalty(empirical_penalty)
    ch06.check_flip(flip)
    ch06.check_relabelled_errors(relabelled_errors)
    ch06.check_k_rep_table(k_rep_table)
    ch06.check_mcdiarmid_deviation(mcdiarmid_deviation)
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "✓ penalty_by_hand", "✓ empirical_penalty", "✓ flip", "✓ relabelled_errors",
        "✓ k_rep_table", "✓ mcdiarmid_deviation"]
    assert all(line.endswith("checks passed.") for line in lines)


def test_not_implemented_answers_fail_with_the_standard_message():
    def todo(*args):
        raise NotImplementedError()

    for check in (ch06.check_penalty_by_hand, ch06.check_empirical_penalty, ch06.check_flip,
                  ch06.check_relabelled_errors, ch06.check_k_rep_table,
                  ch06.check_mcdiarmid_deviation):
        assert "is not implemented yet" in _message(check, todo)


# ---------------------------------------------------------------------- hints
@pytest.mark.parametrize("value, hint", [
    (1.0, "divide the sum by m"),
    (0.5, "not the penalty"),
    ("1/6", "should return the penalty, a number"),
])
def test_penalty_by_hand_hints(value, hint):
    assert hint in _message(ch06.check_penalty_by_hand, lambda: value)


@pytest.mark.parametrize("wrong, hint", [
    (lambda L, r: empirical_penalty(L, r, absolute=False), "absolute value before the maximum"),
    (lambda L, r: empirical_penalty(L, r, mean=False), "divide the sum by m"),
    (lambda L, r: empirical_penalty(L, r, worst=False), "take the maximum over the classifiers"),
    (lambda L, r: empirical_penalty(1 - np.asarray(L), r), "correct predictions"),
    (lambda L, r: np.array([empirical_penalty(L, r)]), "return a single number"),
])
def test_empirical_penalty_hints(wrong, hint):
    assert hint in _message(ch06.check_empirical_penalty, wrong)


@pytest.mark.parametrize("wrong, hint", [
    (lambda y, r: flip(y, r, where=-1), "where the sign is +1"),
    (lambda y, r: 1 - y, "flip only where signs == 1"),
    (lambda y, r: y, "z_i = 1 - y_i"),
    (lambda y, r: flip(y, r)[:-1], "one label per example"),
])
def test_flip_hints(wrong, hint):
    assert hint in _message(ch06.check_flip, wrong)


@pytest.mark.parametrize("wrong, hint", [
    (lambda p, y, r: relabelled_errors(p, y, r, where=-1), "you relabelled where sigma_i = -1"),
    (lambda p, y, r: relabelled_errors(p, y, r, plain=True), "ordinary errors"),
    (lambda p, y, r: int(np.sum((r == 1) & (p == y))), "only the examples with sigma_i = +1"),
])
def test_relabelled_errors_hints(wrong, hint):
    assert hint in _message(ch06.check_relabelled_errors, wrong)


@pytest.mark.parametrize("wrong, hint", [
    (lambda *a: k_rep_table(*a, leaf_step=False), "step 3"),
    (lambda *a: k_rep_table(*a, leaf_everywhere=True), "only for budgets i >= leaf_growing"),
    (lambda *a: k_rep_table(*a)[:-1], "k + 1"),
])
def test_k_rep_table_hints(wrong, hint):
    assert hint in _message(ch06.check_k_rep_table, wrong)


@pytest.mark.parametrize("wrong, hint", [
    (lambda d, c: mcdiarmid_deviation(d, c, log_of=lambda x: 1 / x), "log(2 / delta)"),
    (lambda d, c: mcdiarmid_deviation(d, c, half=False), "the factor 2 divides"),
    (lambda d, c: math.sqrt(math.log(2 / d) * math.sqrt(np.sum(np.asarray(c) ** 2)) / 2),
     "sum of the squares"),
])
def test_mcdiarmid_hints(wrong, hint):
    assert hint in _message(ch06.check_mcdiarmid_deviation, wrong)


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
    assert ch06.empirical_penalty_reference(ch06.BY_HAND_LOSSES, ch06.BY_HAND_SIGNS) == pytest.approx(1 / 6)


def test_reference_relabelled_errors_are_the_library_leaf_errors(grown):
    tree, X, y = grown
    signs = draw_signs(len(y), 1)
    errors_z, errors_zbar = relabelled_leaf_errors(tree, X, y, signs)
    root_label = np.full(len(y), tree.labels[0])
    assert ch06.relabelled_errors_reference(root_label, y, signs) == errors_z[0]
    assert ch06.relabelled_errors_reference(root_label, y, -signs) == errors_zbar[0]
    # the identity behind the recipe: err_z = n_+ - sum_i r_i l_i
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
    assert ch06.mcdiarmid_deviation_reference(0.01, np.full(n, 2 / n)) == pytest.approx(2 * eta(0.01, n))
    assert ch06.mcdiarmid_deviation_reference(0.01, np.full(n, 1 / n)) == pytest.approx(eta(0.01, n))
    # one replaced pair moves the penalty by at most 2/n
    rng = np.random.default_rng(0)
    signs = draw_signs(n, rng)
    base = pk.rademacher_penalty(tree, X, y, signs=signs)
    for _ in range(100):
        i, j = rng.integers(n, size=2)
        X2, y2, r2 = X.copy(), y.copy(), signs.copy()
        X2[i], y2[i], r2[i] = X[j], y[j], -signs[i]
        assert abs(pk.rademacher_penalty(tree, X2, y2, signs=r2) - base) <= 2 / n + 1e-12
