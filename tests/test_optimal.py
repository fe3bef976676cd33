"""Optimal trees: the solvers against an exhaustive referee, against pruning, and bad input."""

import importlib.util
import sys
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_breast_cancer

import prunekit as pk
from prunekit.cost_complexity_pruning import leaf_risks
from prunekit.optimal import (
    _PESSIMISTIC_DIFFERS,
    _build,
    _Sample,
    OutOfTimeError,
    count_branches,
    count_trees,
    dynamic_program_optimal_tree,
    exhaustive_optimal_tree,
)

FEW = settings(max_examples=60)
HAS_STREED = importlib.util.find_spec("pystreed") is not None
needs_streed = pytest.mark.skipif(not HAS_STREED, reason="needs STreeD: pip install pystreed "
                                  "(requirements.txt has it)")


@st.composite
def binary_problems(draw, max_features=4, max_depth=2):
    """Binary features, two or three classes, a depth and an alpha (often a multiple of 1/m,
    where ties between trees are exact)."""
    m = draw(st.integers(1, 24))
    p = draw(st.integers(1, max_features))
    X = np.array(draw(st.lists(st.lists(st.integers(0, 1), min_size=p, max_size=p),
                               min_size=m, max_size=m)))
    y = np.array(draw(st.lists(st.integers(0, draw(st.integers(1, 2))), min_size=m,
                               max_size=m)))
    depth = draw(st.integers(0, max_depth if p > 3 else max_depth + 1))
    alpha = draw(st.one_of(st.integers(0, 4).map(lambda k: k / m),
                           st.floats(0, 0.3, allow_nan=False)))
    return X, y, depth, alpha


@st.composite
def real_problems(draw):
    m = draw(st.integers(2, 30))
    p = draw(st.integers(1, 3))
    X = np.array(draw(st.lists(st.lists(st.integers(0, 5), min_size=p, max_size=p),
                               min_size=m, max_size=m)), dtype=float)
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=m, max_size=m)))
    assume(np.ptp(X, axis=0).max() > 0)
    return X, y, draw(st.integers(1, 3)), draw(st.floats(0, 0.2, allow_nan=False))


# ---------------------------------------------------------------------- the objective
def test_penalized_risk_is_cost_complexitys_objective():
    """The lecture notes' tree: R_alpha of every step of the path, in the path's units."""
    tree = pk.Tree.from_arrays([1, -1, 3, -1, 5, -1, -1], [2, -1, 4, -1, 6, -1, -1],
                               [[8, 8], [4, 0], [4, 8], [0, 6], [4, 2], [4, 0], [0, 2]])
    path = pk.cost_complexity_path(tree)
    for alpha in (0.0, 0.1, 0.125, 0.2, 0.3):
        pruning = pk.cost_complexity(tree, alpha)
        step = path.step(alpha)
        assert pk.penalized_risk(pruning, alpha) == pytest.approx(
            path.risks[step] + alpha * path.n_leaves[step])
    assert pk.penalized_risk(tree, 0.125) == 0.5
    assert pk.penalized_risk(pk.Pruning.root_only(tree), 0.125) == 0.625


def test_penalized_risk_pessimistic_is_j48s_estimate():
    tree = pk.Tree.from_arrays([1, -1, -1], [2, -1, -1], [[10, 6], [9, 1], [1, 5]])
    expected = (pk.error_based_pruning.estimated_errors(1, 10)
                + pk.error_based_pruning.estimated_errors(1, 6))
    assert pk.penalized_risk(tree, 0.01, risk="pessimistic") == pytest.approx(
        expected / 16 + 0.02)
    relabelled = pk.Pruning(tree, [True, True, True], labels=[0, 1, 0])
    assert pk.penalized_risk(relabelled, 0) == pytest.approx(14 / 16)   # 9 + 5 errors


# ---------------------------------------------------------------------- the referee
def test_count_trees():
    assert [count_trees(1, d) for d in range(4)] == [1, 2, 5, 26]
    assert count_trees(4, 3) == 1 + 4 * (1 + 4 * 25) ** 2
    assert count_trees(4, 3, n_classes=1) == count_trees(4, 3)


def _every_classifier(p, depth, k):
    """Every labelled tree of depth <= depth on p features, as nested tuples."""
    yield from (("leaf", label) for label in range(k))
    if depth:
        smaller = list(_every_classifier(p, depth - 1, k))
        yield from ((j, a, b) for j in range(p) for a in smaller for b in smaller)


@pytest.mark.parametrize("p, depth, k", [(1, 2, 2), (2, 2, 2), (2, 1, 3), (3, 2, 2)])
def test_count_trees_with_labels_counts_every_labelled_tree(p, depth, k):
    assert count_trees(p, depth, n_classes=k) == len(set(_every_classifier(p, depth, k)))


@pytest.mark.parametrize("p", [1, 2, 3, 5])
def test_count_branches_counts_the_distinct_sets_of_tests(p):
    """Branches of depth <= D: the sets of at most D (feature, value) tests, no feature
    twice, found by extending every branch by one test D times."""
    branches = {frozenset()}
    for depth in range(p + 2):
        assert count_branches(p, depth) == len(branches)
        branches |= {b | {(j, v)} for b in branches for j in range(p) for v in (0, 1)
                     if j not in {f for f, _ in b}}
    assert count_branches(p, p + 5) == 3 ** p


def test_count_branches_grows_by_at_most_2p_plus_1_per_level():
    """Where the issue of growth lies: trees square, branches multiply by at most 2p + 1."""
    assert count_branches(24, 5) == 1_547_489 and count_branches(24, 6) == 10_161_633
    for p in (2, 16, 24, 240):
        for depth in range(1, 8):
            assert count_branches(p, depth) <= (2 * p + 1) * count_branches(p, depth - 1)


@FEW
@given(binary_problems())
def test_the_leaf_bound_changes_the_work_not_the_value(problem):
    X, y, depth, alpha = problem
    with_bound, without = {}, {}
    a = dynamic_program_optimal_tree(X, y, max_depth=depth, alpha=alpha, report=with_bound)
    b = dynamic_program_optimal_tree(X, y, max_depth=depth, alpha=alpha, leaf_bound=False,
                                     report=without)
    assert pk.penalized_risk(a, alpha) == pytest.approx(pk.penalized_risk(b, alpha))
    assert 1 <= with_bound["subproblems"] <= without["subproblems"]
    assert without["subproblems"] <= (depth + 1) * count_branches(X.shape[1], depth)


def test_the_referee_sees_the_exclusive_or():
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 3)
    y = X[:, 0] ^ X[:, 1]
    value, tree = exhaustive_optimal_tree(X, y, max_depth=2, alpha=0.05)
    assert value == pytest.approx(0.2) and tree.n_leaves == 4
    value, tree = exhaustive_optimal_tree(X, y, max_depth=2, alpha=0.2)
    assert value == pytest.approx(0.7) and tree.n_leaves == 1
    # the greedy tree's first split gains nothing, but pruning keeps the full tree here
    greedy = pk.id3(X, y, criterion="train_error", max_depth=2)
    assert pk.penalized_risk(pk.cost_complexity(greedy, 0.05), 0.05) >= 0.2


@FEW
@given(binary_problems(), st.sampled_from(["error", "pessimistic"]))
def test_dynamic_program_equals_the_referee(problem, risk):
    X, y, depth, alpha = problem
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value, referee = exhaustive_optimal_tree(X, y, max_depth=depth, alpha=alpha,
                                                 risk=risk)
        tree = dynamic_program_optimal_tree(X, y, max_depth=depth, alpha=alpha,
                                            risk=risk)
    assert pk.penalized_risk(referee, alpha, risk=risk) == pytest.approx(value)
    assert pk.penalized_risk(tree, alpha, risk=risk) == pytest.approx(value)
    assert tree.max_depth <= depth and np.array_equal(tree.node_counts(X, y), tree.counts)


@needs_streed
@FEW
@given(binary_problems())
def test_streed_equals_the_referee(problem):
    X, y, depth, alpha = problem
    assume(np.ptp(X, axis=0).max() > 0)
    value, _ = exhaustive_optimal_tree(X, y, max_depth=depth, alpha=alpha)
    tree = pk.optimal_tree(X, y, max_depth=depth, alpha=alpha)
    assert pk.penalized_risk(tree, alpha) == pytest.approx(value)
    assert tree.max_depth <= depth and np.array_equal(tree.node_counts(X, y), tree.counts)


@FEW
@given(real_problems())
def test_never_above_the_best_pruning_of_a_greedy_tree(problem):
    """On the same binary features, every pruning of a tree of depth <= D is a candidate."""
    X, y, depth, alpha = problem
    b = pk.binarize(X)
    B = b.transform(X)
    greedy = pk.grow_tree(B, y, max_depth=depth)
    pruning = pk.cost_complexity(greedy, alpha)
    path = pk.cost_complexity_path(greedy)
    step = path.step(alpha)
    assert pk.penalized_risk(pruning, alpha) == pytest.approx(
        path.risks[step] + alpha * path.n_leaves[step])
    best = pk.optimal_tree(X, y, max_depth=depth, alpha=alpha, solver="dp", binarization=b)
    assert pk.penalized_risk(best, alpha) <= pk.penalized_risk(pruning, alpha) + 1e-12
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pessimistic = pk.optimal_tree(X, y, max_depth=depth, alpha=alpha, solver="dp",
                                      risk="pessimistic", binarization=b)
    for candidate in (pk.error_based(greedy), pruning, pk.Pruning.full(greedy)):
        assert (pk.penalized_risk(pessimistic, alpha, risk="pessimistic")
                <= pk.penalized_risk(candidate, alpha, risk="pessimistic") + 1e-12)
    if HAS_STREED:
        streed = pk.optimal_tree(X, y, max_depth=depth, alpha=alpha, binarization=b)
        assert pk.penalized_risk(streed, alpha) == pytest.approx(pk.penalized_risk(best, alpha))


@needs_streed
def test_streed_and_the_dynamic_program_agree_on_breast_cancer():
    X, y = load_breast_cancer(return_X_y=True)
    b = pk.binarize(X[:, :10], max_thresholds=3)
    for depth, alpha in ((1, 0.0), (2, 0.0), (2, 0.01), (2, 1 / len(y))):
        ours = pk.optimal_tree(X[:, :10], y, max_depth=depth, alpha=alpha, solver="dp",
                               binarization=b)
        theirs = pk.optimal_tree(X[:, :10], y, max_depth=depth, alpha=alpha, binarization=b)
        assert pk.penalized_risk(ours, alpha) == pytest.approx(pk.penalized_risk(theirs, alpha))
        assert np.array_equal(theirs.node_counts(X[:, :10], y), theirs.counts)


@needs_streed
def test_three_classes_and_string_labels():
    rng = np.random.RandomState(0)
    X = rng.randint(0, 4, size=(40, 3)).astype(float)
    y = np.array(["a", "b", "c"])[(X[:, 0] + X[:, 1] + rng.randint(0, 2, 40)).astype(int) % 3]
    for solver in ("dp", "streed"):
        tree = pk.optimal_tree(X, y, max_depth=2, alpha=0.01, solver=solver)
        assert tree.classes_.tolist() == ["a", "b", "c"]
        assert set(tree.predict(X)) <= {"a", "b", "c"}
    assert pk.penalized_risk(pk.optimal_tree(X, y, max_depth=2, alpha=0.01), 0.01) == \
        pytest.approx(pk.penalized_risk(tree, 0.01))


@needs_streed
def test_alpha_at_least_one_gives_a_leaf():
    X, y = np.arange(10.0).reshape(-1, 1), np.arange(10) % 2
    assert pk.optimal_tree(X, y, max_depth=3, alpha=1.0).n_leaves == 1
    assert pk.optimal_tree(X, y, max_depth=3, alpha=0.0).n_leaves == 8


@pytest.mark.parametrize("solver", ["dp", pytest.param("streed", marks=needs_streed)])
def test_one_class_or_depth_zero_gives_a_leaf(solver):
    X = np.arange(8.0).reshape(-1, 1)
    tree = pk.optimal_tree(X, np.zeros(8, dtype=int), max_depth=3, alpha=0, solver=solver)
    assert tree.n_leaves == 1 and tree.counts.tolist() == [[8]]
    tree = pk.optimal_tree(X, np.arange(8) % 2, max_depth=0, alpha=0, solver=solver)
    assert tree.n_leaves == 1 and tree.counts.tolist() == [[4, 4]]


@needs_streed
def test_the_library_works_on_an_optimal_tree():
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    tree = pk.optimal_tree(X, y, max_depth=2, alpha=0.005, max_thresholds=4)
    assert tree.feature_names == tuple(X.columns)
    assert np.array_equal(tree.node_counts(X, y), tree.counts)
    assert pk.Pruning.full(tree).errors() == np.count_nonzero(tree.predict(X) != y)
    pk.plot_tree(tree)
    assert "worst" in pk.export_text(tree) or "mean" in pk.export_text(tree)
    assert pk.cost_complexity(tree, 0.005).n_leaves == tree.n_leaves   # nothing to prune


# ---------------------------------------------------------------------- binary features
def test_binarize_gives_chapter_ones_candidate_thresholds():
    X = np.array([[1.0, 7.0], [2.0, 7.0], [2.0, 7.0], [5.0, 7.0]])
    b = pk.binarize(X)
    assert b.feature.tolist() == [0, 0] and b.threshold.tolist() == [1.5, 3.5]
    assert b.n_binary == 2 and b.n_features == 2
    assert b.transform(X).tolist() == [[0, 0], [1, 0], [1, 0], [1, 1]]
    assert b.names() == ["x[0] > 1.5", "x[0] > 3.5"]
    split = pk.growing.best_threshold_split(X, [0, 1, 1, 1])
    assert split.threshold in b.threshold.tolist()


def test_max_thresholds_keeps_candidates_near_the_quantiles():
    X = np.arange(100.0).reshape(-1, 1)
    b = pk.binarize(X, max_thresholds=3)
    assert b.threshold.tolist() == [24.5, 49.5, 74.5]
    assert set(b.threshold) <= set(pk.binarize(X).threshold)
    assert pk.binarize(X, max_thresholds=500).n_binary == 99


def test_to_original_routes_as_the_binary_tree():
    rng = np.random.RandomState(1)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    b = pk.binarize(X, max_thresholds=5)
    binary = pk.grow_tree(b.transform(X), y, max_depth=3)
    tree = b.to_original(binary)
    assert np.array_equal(tree.apply(X), binary.apply(b.transform(X)))
    assert np.array_equal(tree.node_counts(X, y), binary.counts)
    inner = ~tree.is_leaf
    assert set(tree.threshold[inner]) <= set(b.threshold)


def quinlan_estimated_errors(counts, cf=0.25):
    """e + addErrs(N, e) as C4.5 release 8 (stats.c) and STreeD's AccuracyFlex compute it:
    z interpolated in C4.5's table, 0.67 (N - e) added when e + 1/2 >= N."""
    n, e = counts.sum(), counts.sum() - counts.max()
    z = 0.84 + (0.25 - 0.84) * (cf - 0.2) / 0.2            # between CF = 0.2 and 0.4
    if e == 0:
        return n * (1 - cf ** (1 / n))
    if e + 0.5 >= n:
        return e + 0.67 * (n - e)
    bound = (e + 0.5 + z * z / 2 + z * np.sqrt((e + 0.5) * (1 - (e + 0.5) / n) + z * z / 4))
    return bound / (n + z * z) * n


@needs_streed
def test_the_pessimistic_objective_differs_from_streeds():
    """pystreed's "pessimistic-binomial" is Quinlan's C4.5 formula, not J48's: on this sample
    its best depth-1 tree is a leaf, while J48's estimate is smaller for the split."""
    import pystreed

    X = np.array([[0, 0, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1],
                  [1, 1, 0, 1, 1, 1, 1, 0, 1, 0, 1, 0, 1, 1, 0, 0]]).T
    y = np.array([1, 0, 0, 1, 0, 1, 0, 1, 1, 1, 1, 1, 0, 0, 1, 0])
    solver = pystreed.STreeDClassifier("accuracy-flex", accuracy_objective="pessimistic-binomial",
                                       max_depth=1, confidence_coefficient=0.25)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        solver.fit(X, y)
    assert solver.get_n_leaves() == 1
    ours = dynamic_program_optimal_tree(X, y, max_depth=1, alpha=0, risk="pessimistic")
    assert ours.n_leaves == 2
    leaf = _build(None, _Sample(X, y, 2), np.arange(2), 2)
    assert (pk.penalized_risk(ours, 0, risk="pessimistic")
            < pk.penalized_risk(leaf, 0, risk="pessimistic"))
    # and with C4.5's own formula, which STreeD computes, the leaf is the better one
    split = sum(quinlan_estimated_errors(np.bincount(y[X[:, 0] == side])) for side in (0, 1))
    assert quinlan_estimated_errors(np.bincount(y)) < split
    with pytest.raises(ValueError, match="solver='dp'"):
        pk.optimal_tree(X, y, max_depth=1, alpha=0, risk="pessimistic")


# ---------------------------------------------------------------------- bad input
X4 = np.array([[0.0, 1.0], [1.0, 2.0], [2.0, 3.0], [3.0, 5.0]])
Y4 = np.array([0, 1, 1, 0])


@pytest.mark.parametrize("call, error, match", [
    (lambda: pk.binarize(np.ones((5, 3))), ValueError, "every feature is constant"),
    (lambda: pk.binarize(np.ones((5, 0))), ValueError, "no binary feature"),
    (lambda: pk.binarize([[np.nan, 1.0]]), ValueError, "NaN"),
    (lambda: pk.binarize(X4, max_thresholds=0), ValueError, "max_thresholds must be at least"),
    (lambda: pk.binarize(X4, max_thresholds=2.5), TypeError, "max_thresholds must be an integer"),
    (lambda: pk.binarize(X4).transform(np.ones((2, 3))), ValueError, "2 features"),
    (lambda: pk.binarize(X4).to_original(pk.grow_tree(np.tile(X4 + 10, 3), Y4)), ValueError,
     "binary features between 0 and 1"),
    (lambda: pk.binarize(X4).to_original(pk.id3(np.eye(3, dtype=int), [0, 1, 1])), ValueError,
     "tree on the 6 binary features"),
    (lambda: pk.binarize(X4).to_original("tree"), TypeError, "prunekit Tree"),
    (lambda: pk.optimal_tree(np.ones((4, 2)), Y4, max_depth=2, alpha=0, solver="dp"),
     ValueError, "every feature is constant"),
    (lambda: pk.optimal_tree(X4 * np.nan, Y4, max_depth=2, alpha=0), ValueError, "NaN"),
    (lambda: pk.optimal_tree(X4, [0.5, 1.5, 0.2, 0.1], max_depth=2, alpha=0), ValueError,
     "y must hold class labels"),
    (lambda: pk.optimal_tree(X4, Y4[:3], max_depth=2, alpha=0), ValueError,
     "different lengths"),
    (lambda: pk.optimal_tree(X4, Y4, max_depth=21, alpha=0), ValueError,
     "max_depth must be at most 20"),
    (lambda: pk.optimal_tree(X4, Y4, max_depth=-1, alpha=0), ValueError,
     "max_depth must be at least 0"),
    (lambda: pk.optimal_tree(X4, Y4, max_depth=2, alpha=-0.1), ValueError, "alpha must be >= 0"),
    (lambda: pk.optimal_tree(X4, Y4, max_depth=2, alpha=np.inf), ValueError, "alpha must be a"),
    (lambda: pk.optimal_tree(X4, Y4, max_depth=2, alpha=0, risk="gini"), ValueError,
     "risk must be one of 'error', 'pessimistic'"),
    (lambda: pk.optimal_tree(X4, Y4, max_depth=2, alpha=0, solver="cplex"), ValueError,
     "solver must be one of 'streed', 'dp'"),
    (lambda: pk.optimal_tree(X4, Y4, max_depth=2, alpha=0, time_limit=0), ValueError,
     "time_limit must be > 0"),
    (lambda: pk.optimal_tree(X4, Y4, max_depth=2, alpha=0, risk="pessimistic",
                             confidence=1.5, solver="dp"), ValueError, "confidence must lie"),
    (lambda: pk.optimal_tree(X4, Y4, max_depth=2, alpha=0, risk="pessimistic"),
     ValueError, "Quinlan's C4.5"),
    (lambda: pk.optimal_tree(X4, Y4, max_depth=2, alpha=0, binarization="x > 1"), TypeError,
     "binarization must be a Binarization"),
    (lambda: pk.optimal_tree(X4, Y4, max_depth=2, alpha=0, binarization=pk.binarize(X4),
                             max_thresholds=3), ValueError, "not both"),
    (lambda: pk.optimal_tree(X4, Y4, max_depth=2, alpha=0,
                             binarization=pk.binarize(X4[:, :1])), ValueError, "1 features"),
    (lambda: dynamic_program_optimal_tree(X4, Y4, max_depth=2, alpha=0), ValueError,
     "X must hold binary features"),
    (lambda: exhaustive_optimal_tree(np.eye(4, dtype=int), Y4, max_depth=3, alpha=0,
                                     limit=1000), ValueError, "more than limit=1000"),
    (lambda: pk.penalized_risk("tree", 0.1), TypeError, "prunekit Tree"),
    (lambda: pk.penalized_risk(pk.grow_tree(X4, Y4), -1), ValueError, "alpha must be >= 0"),
    (lambda: pk.penalized_risk(pk.grow_tree(X4, Y4), 0, risk="gini"), ValueError,
     "risk must be one of"),
    (lambda: count_trees(-1, 2), ValueError, "n_features must be at least 0"),
])
def test_bad_input_gets_a_clear_error(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_a_solver_out_of_time_raises_naming_the_limit():
    X, y = load_breast_cancer(return_X_y=True)
    with pytest.raises(ValueError, match=r"did not finish within time_limit=0.05 seconds"):
        pk.optimal_tree(X, y, max_depth=3, alpha=0, solver="dp", time_limit=0.05,
                        max_thresholds=20)
    if not HAS_STREED:
        return
    with pytest.raises(ValueError, match=r"STreeD did not prove a tree optimal within "
                                         r"time_limit=0.05 seconds \(max_depth=4"):
        pk.optimal_tree(X, y, max_depth=4, alpha=0, time_limit=0.05, max_thresholds=20)


def test_out_of_time_the_error_holds_the_best_tree_found():
    """STreeD keeps its best tree so far, which is returned with the error, not as the
    answer; the pure-Python dynamic program keeps none."""
    X, y = load_breast_cancer(return_X_y=True)
    with pytest.raises(OutOfTimeError) as info:
        pk.optimal_tree(X, y, max_depth=3, alpha=0, solver="dp", time_limit=0.05,
                        max_thresholds=20)
    assert info.value.tree is None
    if not HAS_STREED:
        return
    with pytest.raises(OutOfTimeError) as info:
        pk.optimal_tree(X, y, max_depth=4, alpha=0.001, time_limit=0.3, max_thresholds=20)
    found = info.value.tree
    assert found is not None and found.max_depth <= 4 and found.n_features == X.shape[1]
    assert np.array_equal(found.node_counts(X, y), found.counts)


def test_without_pystreed_the_error_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "pystreed", None)
    with pytest.raises(ImportError, match="pip install pystreed"):
        pk.optimal_tree(X4, Y4, max_depth=2, alpha=0)
    assert pk.optimal_tree(X4, Y4, max_depth=2, alpha=0, solver="dp").n_leaves == 3


@pytest.mark.parametrize("function", [pk.penalized_risk, pk.optimal_tree,
                                      dynamic_program_optimal_tree, exhaustive_optimal_tree])
def test_the_former_keyword_objective_works_until_0_4_with_a_warning(function):
    """The leaf risk was ``objective=``; it is ``risk=``, as in cost-complexity pruning."""
    import inspect

    X, y = np.array([[0, 1], [1, 0], [1, 1], [0, 0]]), np.array([0, 1, 1, 0])
    if function is pk.penalized_risk:
        call = lambda **risk: function(pk.grow_tree(X, y), 0.1, **risk)  # noqa: E731
    else:
        extra = dict(solver="dp") if function is pk.optimal_tree else {}
        call = lambda **risk: function(X, y, max_depth=1, alpha=0.1,  # noqa: E731
                                       **extra, **risk)
    assert "risk" in inspect.signature(function).parameters
    assert "objective" not in inspect.signature(function).parameters
    with pytest.warns(DeprecationWarning) as record:
        old = call(objective="pessimistic")
    assert str(record[0].message) == (f"{function.__name__}(): the parameter objective is now "
                                      "called risk; write risk= instead of objective=, which "
                                      "will stop working in 0.4.")
    assert record[0].filename == __file__
    new = call(risk="pessimistic")
    if isinstance(new, tuple):
        assert old[0] == new[0]
    elif isinstance(new, float):
        assert old == new
    else:
        assert old.n_leaves == new.n_leaves
    with pytest.raises(TypeError, match="got both objective= and risk="):
        call(objective="error", risk="error")


def test_the_former_constant_objectives_is_optimal_risks_until_0_4():
    import prunekit.optimal as optimal

    with pytest.warns(DeprecationWarning, match="prunekit.optimal.OBJECTIVES is deprecated; "
                                                "use prunekit.optimal.OPTIMAL_RISKS"):
        assert optimal.OBJECTIVES is optimal.OPTIMAL_RISKS
    with pytest.raises(AttributeError, match="no attribute 'OBJECTIVE'"):
        optimal.OBJECTIVE                                               # noqa: B018


# ---------------------------------------------------------------------- memory and the estimator
def test_a_problem_too_large_for_memory_is_refused_before_the_solver_starts():
    """Breast cancer with every threshold at depth 2 once took 11.7 GB and died."""
    X, y = load_breast_cancer(return_X_y=True)
    with pytest.raises(MemoryError, match=r"about 41.9 GiB for 15,310 binary features and 2 "
                                          r"classes .* lower max_thresholds"):
        pk.optimal_tree(X, y, max_depth=2, alpha=0.01)
    with pytest.raises(MemoryError, match="memory_limit=0.0 GiB"):
        pk.optimal_tree(X, y, max_depth=2, alpha=0.01, max_thresholds=2, memory_limit=0)
    with pytest.raises(ValueError, match="memory_limit must be >= 0"):
        pk.optimal_tree(X, y, max_depth=2, alpha=0.01, max_thresholds=2, memory_limit=-1)


@pytest.mark.skipif(not HAS_STREED, reason="needs STreeD: pip install pystreed")
def test_the_optimal_tree_classifier_is_optimal_tree_behind_scikit_learns_interface():
    from sklearn.model_selection import GridSearchCV

    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    clf = pk.OptimalTreeClassifier(max_depth=2, alpha=0.005, max_thresholds=8).fit(X, y)
    tree = pk.optimal_tree(X, y, max_depth=2, alpha=0.005, max_thresholds=8)
    assert clf.tree_ == tree and clf.tree_.feature_names == tuple(X.columns)
    assert np.array_equal(clf.predict(X), tree.predict(X))
    proba = clf.predict_proba(X)
    assert np.array_equal(clf.classes_[proba.argmax(axis=1)], clf.predict(X))
    assert (clf.get_depth(), clf.get_n_leaves()) == (tree.max_depth, tree.n_leaves)
    assert np.array_equal(clf.to_sklearn().predict(X), clf.predict(X))
    search = GridSearchCV(pk.OptimalTreeClassifier(max_thresholds=4),
                          {"max_depth": [1, 2], "alpha": [0.001, 0.02]}, cv=3).fit(X, y)
    assert search.best_params_["max_depth"] in (1, 2)
    with pytest.raises(MemoryError, match="lower max_thresholds"):
        pk.OptimalTreeClassifier(max_thresholds=None).fit(X, y)
    with pytest.raises(ValueError, match="solver must be one of"):
        pk.OptimalTreeClassifier(solver="cplex").fit(X, y)


@pytest.mark.skipif(not HAS_STREED, reason="needs STreeD: pip install pystreed")
@pytest.mark.parametrize("options", [{}, {"solver": "dp", "risk": "pessimistic",
                                          "max_depth": 2, "max_thresholds": 4}])
def test_scikit_learn_estimator_checks_of_the_optimal_tree_classifier(options):
    from sklearn.utils.estimator_checks import check_estimator

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check_estimator(pk.OptimalTreeClassifier(**options))
