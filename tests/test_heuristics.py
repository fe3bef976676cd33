"""Pessimistic, minimum-error and critical-value pruning: worked examples, properties, bad input."""

import math
from decimal import Decimal, getcontext
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import prunekit as pk
from prunekit import critical_value_pruning as cvp
from prunekit import minimum_error_pruning as mep
from prunekit import pessimistic_pruning as pep
from strategies import random_trees

getcontext().prec = 60


def stump(left, right):
    """A root with two leaves of the given class counts."""
    left = np.asarray(left)
    right = np.asarray(right)
    return pk.Tree.from_arrays([1, -1, -1], [2, -1, -1], [left + right, left, right])


def two_level_tree():
    """Root (2, 2) -> A (2, 1) and leaf B (0, 1); A -> leaves (0, 1) and (2, 0)."""
    return pk.Tree.from_arrays([1, 3, -1, -1, -1], [2, 4, -1, -1, -1],
                               [[2, 2], [2, 1], [0, 1], [0, 1], [2, 0]])


def cvp_tree():
    """Root (4, 4) splits x0 <= 0.5 into L (3, 1) and R (1, 3); L splits x1 <= 0.5 into (3, 0)
    and (0, 1); R splits x1 <= 0.5 into (1, 1) and (0, 2)."""
    left = [1, 3, 5, -1, -1, -1, -1]
    right = [2, 4, 6, -1, -1, -1, -1]
    counts = [[4, 4], [3, 1], [1, 3], [3, 0], [0, 1], [1, 1], [0, 2]]
    feature = [0, 1, 1, -1, -1, -1, -1]
    threshold = [0.5, 0.5, 0.5, np.nan, np.nan, np.nan, np.nan]
    return pk.Tree.from_arrays(left, right, counts, feature, threshold)


def kept_nodes(pruning):
    return set(np.flatnonzero(pruning.kept).tolist())


# ---------------------------------------------------------------------- PEP, worked by hand
def test_pessimistic_worked_examples():
    # Node (14, 6), N = 20, children (12, 2) and (2, 4): e(t) = 6, n'(t) = 6.5;
    # subtree errors 2 + 2 = 4 over 2 leaves, n'(T) = 5, SE = sqrt(5 * 15 / 20) = 1.936;
    # 6.5 <= 5 + 1.936 = 6.936, so the stump becomes a leaf.
    pruned = stump([12, 2], [2, 4])
    numbers = pep.pessimistic_errors(pruned)
    assert numbers.as_leaf[0] == 6.5 and numbers.subtree[0] == 5.0
    assert numbers.standard_error[0] == pytest.approx(math.sqrt(3.75))
    assert numbers.prune[0] and pk.pessimistic(pruned).n_nodes == 1
    # Children (13, 0) and (1, 6): subtree errors 1, n'(T) = 2, SE = sqrt(2 * 18 / 20) = 1.342;
    # 6.5 > 3.342, so the split stays.
    kept = stump([13, 0], [1, 6])
    assert not pep.pessimistic_errors(kept).prune[0] and pk.pessimistic(kept).n_nodes == 3


def test_pessimistic_tie_prunes():
    # Node (8, 4), N = 12, children (6, 0) and (2, 4): n'(t) = 4 + 1/2 = 4.5; n'(T) = 2 + 2/2 = 3,
    # SE = sqrt(3 * 9 / 12) = sqrt(2.25) = 1.5, and 4.5 <= 3 + 1.5 holds with equality: Quinlan's
    # rule says "<=", so the node is pruned.
    tree = stump([6, 0], [2, 4])
    numbers = pep.pessimistic_errors(tree)
    assert numbers.as_leaf[0] == numbers.subtree[0] + numbers.standard_error[0] == 4.5
    assert pk.pessimistic(tree).n_nodes == 1
    assert pk.pessimistic(tree, order="bottom-up").n_nodes == 1


def test_pessimistic_top_down_and_bottom_up_differ():
    # Top-down: the root (2, 2) has n'(t) = 2 + 1/2 = 2.5 against its three leaves,
    # n'(T) = 0 + 3/2 = 1.5, SE = sqrt(1.5 * 2.5 / 4) = 0.968: 2.5 > 2.468, keep. Then A (2, 1):
    # n'(A) = 1.5 against n'(T_A) = 0 + 2/2 = 1, SE = sqrt(1 * 2 / 3) = 0.816: 1.5 <= 1.816,
    # prune. Result: the root with leaves A and B.
    # Bottom-up: A is pruned first; then the root faces the pruned subtree {A, B}:
    # n'(T) = 1 + 0 + 2/2 = 2, SE = sqrt(2 * 2 / 4) = 1, and 2.5 <= 3: the root is pruned too.
    tree = two_level_tree()
    assert kept_nodes(pk.pessimistic(tree)) == {0, 1, 2}
    assert kept_nodes(pk.pessimistic(tree, order="bottom-up")) == {0}
    assert pk.pessimistic(tree) == pk.pessimistic(tree, order="top-down")


def test_pessimistic_on_counts_beyond_int64_cubes():
    # N = 12,000,000: the exact test switches to Python integers and still decides as Quinlan's
    # rule does: n'(t) = 4e6 + 0.5 against n'(T) = 2e6 + 1 and SE = sqrt(2e6 * 1e7 / 1.2e7).
    tree = stump([6_000_000, 0], [2_000_000, 4_000_000])
    for order in pep.PEP_ORDERS:
        assert pk.pessimistic(tree, order=order) == reference_pessimistic(tree, order)
    assert pk.pessimistic(tree).n_nodes == 3


def test_pessimistic_standard_error_helper():
    assert pep.pessimistic_standard_error(3, 12) == 1.5
    assert pep.pessimistic_standard_error(5, 4) == 0.0      # variance clipped at 0
    assert pep.pessimistic_standard_error(0.5, 0) == 0.0    # no examples
    np.testing.assert_allclose(pep.pessimistic_standard_error([3, 1], [12, 2]), [1.5, 1 / math.sqrt(2)])
    with pytest.raises(ValueError, match="non-negative"):
        pep.pessimistic_standard_error(-1, 3)


def reference_pessimistic(tree, order):
    """Quinlan's rule by recursion, with square roots in 60-digit decimals."""
    counts, labels = tree.counts, tree.labels

    def errors(v):
        return int(counts[v].sum() - counts[v, labels[v]])

    def passes(v, subtree_errors, n_leaves):
        n = int(counts[v].sum())
        leaf = Decimal(errors(v)) + Decimal("0.5")
        below = Decimal(subtree_errors) + Decimal(n_leaves) / 2
        se = ((below * (n - below)) / n).max(Decimal(0)).sqrt() if n else Decimal(0)
        return leaf <= below + se

    def leaves_below(v):
        if tree.is_leaf[v]:
            return [v]
        return leaves_below(int(tree.left[v])) + leaves_below(int(tree.right[v]))

    collapsed = set()
    if order == "top-down":
        def visit(v):
            if tree.is_leaf[v]:
                return
            below = leaves_below(v)
            if passes(v, sum(errors(s) for s in below), len(below)):
                collapsed.add(v)
            else:
                visit(int(tree.left[v]))
                visit(int(tree.right[v]))
        visit(0)
    else:
        def visit(v):  # returns (errors, leaves) of the pruned subtree
            if tree.is_leaf[v]:
                return errors(v), 1
            e1, l1 = visit(int(tree.left[v]))
            e2, l2 = visit(int(tree.right[v]))
            if passes(v, e1 + e2, l1 + l2):
                collapsed.add(v)
                return errors(v), 1
            return e1 + e2, l1 + l2
        visit(0)
    return pk.Pruning.from_collapsed(tree, sorted(collapsed))


@given(random_trees(max_leaves=9), st.sampled_from(pep.PEP_ORDERS))
def test_pessimistic_matches_the_rule_by_recursion(tree, order):
    assert pk.pessimistic(tree, order=order) == reference_pessimistic(tree, order)


@given(random_trees(max_leaves=9))
def test_top_down_pessimistic_prunes_the_highest_passing_nodes(tree):
    pruning = pk.pessimistic(tree)
    test = pep.pessimistic_errors(tree).prune
    inner = ~tree.is_leaf
    # every split the pruning keeps fails the test against the whole subtree below it ...
    assert not np.any(test[pruning.kept & inner & ~pruning.is_leaf])
    # ... every node it turns into a leaf passes it ...
    assert np.all(test[pruning.is_leaf & inner])
    # ... and no node below a pruned node is kept, whatever its own test says
    for v in np.flatnonzero(pruning.is_leaf & inner):
        assert not pruning.kept[tree.subtree(v)[1:]].any()


# ---------------------------------------------------------------------- MEP, worked by hand
def test_minimum_error_worked_examples():
    # Laplace, k = 2. Node (6, 4), N = 10: static E = (10 - 6 + 2 - 1) / (10 + 2) = 5/12.
    # Children (5, 0): (5 - 5 + 1) / 7 = 1/7; (1, 4): (5 - 4 + 1) / 7 = 2/7.
    # Dynamic = 5/10 * 1/7 + 5/10 * 2/7 = 3/14 < 5/12: keep the split.
    kept = stump([5, 0], [1, 4])
    estimates = mep.minimum_error_estimates(kept)
    assert estimates.static[0] == pytest.approx(5 / 12)
    assert estimates.dynamic[0] == pytest.approx(3 / 14)
    assert pk.minimum_error(kept).n_nodes == 3
    # Node (7, 3): static (10 - 7 + 1) / 12 = 1/3; children (4, 2): (6 - 4 + 1) / 8 = 3/8 and
    # (3, 1): (4 - 3 + 1) / 6 = 1/3; dynamic = 6/10 * 3/8 + 4/10 * 1/3 = 0.3583 > 1/3: prune.
    pruned = stump([4, 2], [3, 1])
    assert mep.minimum_error_estimates(pruned).dynamic[0] == pytest.approx(0.225 + 0.4 / 3)
    assert pk.minimum_error(pruned).n_nodes == 1


def test_m_estimate_worked_example():
    # Node (6, 4) with children (5, 0) and (1, 4); m = 8, prior = root frequencies (0.6, 0.4).
    # Static: (10 - 6 + 8 * 0.4) / 18 = 7.2 / 18 = 0.4.
    # Children: (5 - 5 + 3.2) / 13 = 3.2/13; (1, 4) predicts class 1: (5 - 4 + 8 * 0.6) / 13 =
    # 5.8/13. Dynamic = 0.5 * 3.2/13 + 0.5 * 5.8/13 = 4.5/13 = 0.346 < 0.4: keep.
    tree = stump([5, 0], [1, 4])
    estimates = mep.minimum_error_estimates(tree, m=8)
    assert estimates.static[0] == pytest.approx(0.4)
    assert estimates.dynamic[0] == pytest.approx(4.5 / 13)
    np.testing.assert_allclose(estimates.prior, [0.6, 0.4])
    assert pk.minimum_error(tree, m=8).n_nodes == 3
    # A heavier prior pulls every estimate towards 1 - pi: with m = 40 the static error is
    # (4 + 16) / 50 = 0.4 and the dynamic one 0.5 (5 - 5 + 16) / 45 + 0.5 (1 + 24) / 45 = 0.4556.
    assert mep.minimum_error_estimates(tree, m=40).dynamic[0] == pytest.approx(20.5 / 45)
    assert pk.minimum_error(tree, m=40).n_nodes == 1
    assert mep.m_estimate_error([1, 4], m=8, prior=[0.6, 0.4]) == pytest.approx(5.8 / 13)


def test_minimum_error_tie_prunes():
    # Node (2, 2) with children (1, 1) and (1, 1), Laplace: N E(t) = 4 * 3/6 = 2 and the
    # children give 2 * 2/4 + 2 * 2/4 = 2: equal, and ties go to the leaf.
    tree = stump([1, 1], [1, 1])
    assert pk.minimum_error(tree).n_nodes == 1
    # (2, 2) -> (1, 1), (2, 2) ties as well: 6 * 4/8 = 3 against 2 * 2/4 + 4 * 3/6 = 3.
    tree = pk.Tree.from_arrays([1, -1, -1], [2, -1, -1], [[3, 3], [1, 1], [2, 2]])
    estimates = mep.minimum_error_estimates(tree)
    assert estimates.static[0] == estimates.dynamic[0] == 0.5
    assert estimates.prune[0] and pk.minimum_error(tree).n_nodes == 1


def test_laplace_is_the_m_estimate_with_m_k_and_uniform_prior():
    tree = cvp_tree()
    assert pk.minimum_error(tree) == pk.minimum_error(tree, m=2, prior=[0.5, 0.5])
    counts = np.array([[3, 1, 0], [0, 0, 0], [2, 2, 5]])
    np.testing.assert_allclose(mep.m_estimate_error(counts),
                               mep.m_estimate_error(counts, m=3, prior=[1 / 3] * 3))
    # (N - n_c + k - 1) / (N + k) row by row
    np.testing.assert_allclose(mep.m_estimate_error(counts), [(4 - 3 + 2) / 7, 2 / 3, (9 - 5 + 2) / 12])
    # m = 0 is the training error rate
    assert mep.m_estimate_error([3, 1], m=0, prior=[0.5, 0.5]) == 0.25


def exact_m_objective(tree, pruning, m, prior):
    """Sum over the leaves of N(s) E(s), in fractions."""
    total = Fraction(0)
    for v in pruning.leaves:
        n = int(tree.counts[v].sum())
        if n == 0:
            continue
        y = int(tree.labels[v])
        total += n * (n - int(tree.counts[v, y]) + m * (1 - prior[y])) / (n + m)
    return total


@given(random_trees(max_leaves=7, max_classes=3),
       st.sampled_from([None, 0, 0.5, 1, 2, 3.5, 10]), st.booleans())
def test_minimum_error_minimises_the_estimated_errors_exactly(tree, m, own_prior):
    k = tree.n_classes
    if m is None:
        m_exact, prior = Fraction(k), [Fraction(1, k)] * k
        result = pk.minimum_error(tree)
    else:
        # The prior in exact arithmetic: the given weights, or the root's class frequencies
        # (the default), so that ties in the objective are exact ties.
        weights = np.arange(1, k + 1) if own_prior else tree.counts[0]
        total = int(weights.sum())
        prior_float = weights / weights.sum() if own_prior else None
        result = pk.minimum_error(tree, m=m, prior=prior_float)
        m_exact = Fraction(m)
        prior = ([Fraction(int(w), total) for w in weights] if total
                 else [Fraction(1, k)] * k)
    values = [(exact_m_objective(tree, p, m_exact, prior), p.n_nodes, p)
              for p in pk.all_prunings(tree)]
    best = min(v for v, _, _ in values)
    smallest = min((size, i) for i, (v, size, _) in enumerate(values) if v == best)
    assert exact_m_objective(tree, result, m_exact, prior) == best
    assert result == values[smallest[1]][2]


# ---------------------------------------------------------------------- CVP, worked by hand
def test_split_measures_worked_example():
    # Root (4, 4) -> (3, 1), (1, 3). Gini: 0.5 - 1/2 * 0.375 - 1/2 * 0.375 = 0.125.
    # Information gain: 1 - H(1/4) = 1 - 0.8113 = 0.1887 bits; split information 1 bit, so the
    # gain ratio is the same. Chi-square: every expected cell is 2, every |O - E| is 1:
    # 4 * 1/2 = 2. G = 2 (3 ln 1.5 + ln 0.5 + ln 0.5 + 3 ln 1.5) = 12 ln 1.5 - 4 ln 2 = 2.093.
    # L = (3, 1) -> (3, 0), (0, 1): Gini gain 0.375; R = (1, 3) -> (1, 1), (0, 2):
    # 0.375 - 1/2 * 0.5 = 0.125.
    tree = cvp_tree()
    gain = 1 + 0.25 * math.log2(0.25) + 0.75 * math.log2(0.75)
    expected = {
        "gini": [0.125, 0.375, 0.125],
        "entropy": [gain, -(0.25 * math.log2(0.25) + 0.75 * math.log2(0.75)), 0.8113 - 0.5],
        "chi2": [2.0, 4.0, 4 / 3],
        "g_statistic": [12 * math.log(1.5) - 4 * math.log(2)],
    }
    for measure, values in expected.items():
        np.testing.assert_allclose(cvp.split_measure(tree, measure)[:len(values)], values,
                                   atol=1e-4, err_msg=measure)
    np.testing.assert_allclose(cvp.split_measure(tree, "gain_ratio")[0], gain)
    assert np.all(np.isnan(cvp.split_measure(tree, "gini")[3:]))


def test_critical_value_worked_example():
    # Gini measures: root 0.125, L 0.375, R 0.125, so M*(root) = M*(L) = 0.375, M*(R) = 0.125.
    # Critical values -inf (whole tree), 0.125 (R collapses; the root stays although its own
    # measure does not exceed 0.125, since L's does), 0.375 (the root alone).
    tree = cvp_tree()
    path = pk.critical_value_path(tree, "gini")
    assert path.critical_values.tolist() == [-np.inf, 0.125, 0.375]
    assert path.n_leaves.tolist() == [4, 3, 1]
    assert [kept_nodes(p) for _, p in path] == [set(range(7)), {0, 1, 2, 3, 4}, {0}]
    assert path.pruning_at(0.2) == path.pruning(1) and path.pruning_at(0.0) == path.pruning(0)
    assert path.step(10.0) == 2
    # Pruning sample: (0, 0) class 0 and (0, 1) class 1 are right in every tree but the root
    # alone (which says 0); (1, 0) class 1 reaches R's left leaf (1, 1), labelled 0: wrong in
    # the whole tree, right once R is a leaf (label 1), wrong again at the root alone.
    # Errors per step: 1, 0, 2 -> step 1.
    X = [[0, 0], [0, 1], [1, 0]]
    y = [0, 1, 1]
    assert path.errors(tree.node_counts(X, y)).tolist() == [1, 0, 2]
    assert pk.critical_value(tree, X, y, "gini") == path.pruning(1)
    # Ties go to the smaller tree: one example of class 0 at (0, 0) is right everywhere.
    assert pk.critical_value(tree, [[0, 0]], [0], "gini") == path.pruning(2)


def test_critical_value_measure_of_the_grower():
    from sklearn.datasets import make_classification
    from sklearn.tree import DecisionTreeClassifier
    X, y = make_classification(300, 5, random_state=0)
    for criterion, measure in (("gini", "gini"), ("entropy", "entropy"), ("log_loss", "entropy")):
        clf = DecisionTreeClassifier(criterion=criterion, random_state=0).fit(X, y)
        tree = pk.Tree.from_sklearn(clf, X, y)
        path = pk.critical_value_path(tree, "criterion")
        assert path.measure == measure
        np.testing.assert_array_equal(path.node_value, pk.critical_value_path(tree, measure).node_value)
    with pytest.raises(ValueError, match="growing criterion"):
        pk.critical_value_path(cvp_tree(), "criterion")


def reference_cvp_kept(tree, measures, cv):
    """Mingers' rule from its words: keep a split while it or a split below it exceeds cv."""
    def exceeds(v):
        if tree.is_leaf[v]:
            return False
        return measures[v] > cv or exceeds(int(tree.left[v])) or exceeds(int(tree.right[v]))
    kept, stack = {0}, [0]
    while stack:
        v = stack.pop()
        if exceeds(v):
            for child in (int(tree.left[v]), int(tree.right[v])):
                kept.add(child)
                stack.append(child)
    return kept


@given(random_trees(max_leaves=9, max_classes=3), st.sampled_from(cvp.SELECTION_MEASURES[:-1]))
def test_critical_value_path_is_nested_and_follows_the_rule(tree, measure):
    path = pk.critical_value_path(tree, measure)
    prunings = [p for _, p in path]
    assert prunings[0] == pk.Pruning.full(tree) and prunings[-1].n_nodes == 1
    assert np.all(np.diff(path.critical_values) > 0)
    assert np.all(np.diff(path.n_leaves) < 0)
    for a, b in zip(prunings, prunings[1:]):
        assert np.all(a.kept >= b.kept)          # nested
    for (cv, pruning), n_leaves in zip(path, path.n_leaves):
        assert pruning.n_leaves == n_leaves
        assert kept_nodes(pruning) == reference_cvp_kept(tree, path.measures, cv)
    assert path.errors(tree.counts).tolist() == [p.errors() for p in prunings]


@given(random_trees(max_leaves=8), st.integers(0, 2**32 - 1))
def test_critical_value_picks_the_smallest_most_accurate_step(tree, seed):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1.2, 1.2, size=(30, tree.n_features))
    y = rng.integers(0, tree.n_classes, 30)
    path = pk.critical_value_path(tree)
    errors = [p.error(X, y) for _, p in path]
    best = max(j for j, e in enumerate(errors) if e == min(errors))
    assert pk.critical_value(tree, X, y) == path.pruning(best)


def test_critical_value_path_is_a_lazy_sequence():
    tree = cvp_tree()
    path = pk.critical_value_path(tree, "chi2")
    assert len(path) == 3 and path[-1][1].n_nodes == 1
    assert [cv for cv, _ in path[1:]] == path.critical_values[1:].tolist()
    assert "chi2" in repr(path)
    with pytest.raises(IndexError, match="step"):
        path[3]
    with pytest.raises(TypeError, match="step"):
        path["0"]
    with pytest.raises(ValueError, match="NaN"):
        path.pruning_at(float("nan"))
    with pytest.raises(ValueError, match="counts"):
        path.errors(np.zeros((2, 2)))
    single = pk.Tree.from_arrays([-1], [-1], [[2, 1]])
    assert len(pk.critical_value_path(single)) == 1


# ---------------------------------------------------------------------- bad input
def test_bad_m_and_prior():
    tree = cvp_tree()
    for m in (-1, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="m must be a finite number >= 0"):
            pk.minimum_error(tree, m=m)
    for m in ("2", True):
        with pytest.raises(TypeError, match="m must be a real number"):
            pk.minimum_error(tree, m=m)
    for prior, message in (([0.5, 0.3, 0.2], "one probability per class"),
                           ([0.7, 0.7], "probability vector"),
                           ([1.5, -0.5], "probability vector"),
                           ([float("nan"), 1.0], "probability vector"),
                           ("ab", "prior")):
        with pytest.raises((ValueError, TypeError), match=message):
            pk.minimum_error(tree, m=2, prior=prior)
    with pytest.raises(ValueError, match="prior is used only with the m-estimate"):
        pk.minimum_error(tree, prior=[0.5, 0.5])
    with pytest.raises(ValueError, match="prior is required with m"):
        mep.m_estimate_error([3, 1], m=2)
    with pytest.raises(ValueError, match="label"):
        mep.m_estimate_error([3, 1], label=2)
    with pytest.raises(ValueError, match="counts"):
        mep.m_estimate_error([3, -1])


def test_unknown_measure_and_order():
    tree = cvp_tree()
    for call in (lambda: pk.critical_value_path(tree, "gain"),
                 lambda: cvp.split_measure(tree, "Gini"),
                 lambda: pk.critical_value(tree, [[0, 0]], [0], measure=None)):
        with pytest.raises(ValueError, match=r"measure must be one of \('entropy', 'gini', "
                                             r"'gain_ratio', 'chi2', 'g_statistic', 'criterion'\)"):
            call()
    with pytest.raises(ValueError, match="order must be one of"):
        pk.pessimistic(tree, order="sideways")


def test_pruning_samples_where_none_is_taken_or_one_is_missing():
    tree = cvp_tree()
    X, y = [[0, 0], [1, 1]], [0, 1]
    with pytest.raises(TypeError, match="positional argument"):
        pk.pessimistic(tree, X, y)
    with pytest.raises(TypeError, match="X_prune"):
        pk.pessimistic(tree, X_prune=X)
    with pytest.raises(TypeError, match="takes no pruning sample"):
        pk.minimum_error(tree, X, y)
    with pytest.raises(ValueError, match="X_prune is required"):
        pk.critical_value(tree, None, y)
    with pytest.raises(ValueError, match="y_prune is required"):
        pk.critical_value(tree, X, None)
    with pytest.raises(TypeError, match="missing 2 required positional arguments: 'X_prune' and 'y_prune'"):
        pk.critical_value(tree)
    with pytest.raises(ValueError, match="X_prune has 3 features, but the tree was grown on 2"):
        pk.critical_value(tree, [[0, 0, 0]], [0])
    with pytest.raises(ValueError, match="y_prune"):
        pk.critical_value(tree, X, [0])
    with pytest.raises(ValueError, match="never saw"):
        pk.critical_value(tree, X, [0, 7])
    counts_only = pk.Tree.from_arrays([1, -1, -1], [2, -1, -1], [[2, 1], [2, 0], [0, 1]])
    with pytest.raises(ValueError, match="no split rules"):
        pk.critical_value(counts_only, X, y)


def test_not_a_tree():
    for call in (pk.pessimistic, pk.minimum_error, pk.critical_value_path, pep.pessimistic_errors,
                 mep.minimum_error_estimates, cvp.split_measure):
        with pytest.raises(TypeError, match="tree must be a prunekit Tree"):
            call("tree")
    with pytest.raises(TypeError, match="tree must be a prunekit Tree"):
        pk.critical_value("tree", [[0]], [0])


def test_nodes_without_examples():
    # A hand-built tree whose right leaf holds no growing example: every rule prunes it, and
    # no estimate divides by zero.
    tree = stump([3, 1], [0, 0])
    with np.errstate(all="raise"):
        assert pk.pessimistic(tree).n_nodes == 1
        assert pk.minimum_error(tree, m=0).n_nodes == 1
        assert pk.minimum_error(tree).n_nodes == 1
        for measure in cvp.SELECTION_MEASURES[:-1]:
            assert cvp.split_measure(tree, measure)[0] == 0.0
    assert np.isnan(mep.m_estimate_error([0, 0], m=0, prior=[0.5, 0.5]))
