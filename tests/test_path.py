"""The two pruning paths share one class (prunekit.path.PruningPath) and behave the same."""

import copy
import pickle

import numpy as np
import pytest
from hypothesis import given

import prunekit as pk
from prunekit.validation import OutOfRangeError
from prunekit.path import PruningPath
from strategies import random_trees


def notes_tree():
    """A 7-node tree whose two paths have several steps."""
    return pk.Tree.from_arrays([1, 3, 5, -1, -1, -1, -1], [2, 4, 6, -1, -1, -1, -1],
                               [[8, 8], [7, 2], [1, 6], [6, 0], [1, 2], [0, 5], [1, 1]])


def paths(tree):
    return {"cost-complexity": pk.cost_complexity_path(tree),
            "critical-value": pk.critical_value_path(tree, "gini")}


PATHS = pytest.mark.parametrize("kind", ["cost-complexity", "critical-value"])


@PATHS
def test_a_path_is_a_sequence_of_thresholds_and_prunings(kind):
    path = paths(notes_tree())[kind]
    assert isinstance(path, PruningPath)
    assert len(path) == len(path.thresholds) == len(path.n_leaves) >= 2
    pairs = list(path)
    assert len(pairs) == len(path)
    for k, (threshold, pruning) in enumerate(pairs):
        assert threshold == path.thresholds[k] and isinstance(threshold, float)
        assert pruning == path.pruning(k) and pruning.n_leaves == path.n_leaves[k]
    assert path[0] == pairs[0] and path[-1] == pairs[-1]
    assert path[-1][1].n_nodes == 1
    assert path[1:] == pairs[1:] and path[::-1] == pairs[::-1]


@PATHS
def test_negative_steps_count_from_the_end(kind):
    path = paths(notes_tree())[kind]
    for k in range(1, len(path) + 1):
        assert path.pruning(-k) == path.pruning(len(path) - k)
        assert path[-k] == path[len(path) - k]
    assert path.pruning(np.int64(-1)) == path.pruning(len(path) - 1)


@PATHS
@pytest.mark.parametrize("step", [lambda n: n, lambda n: -n - 1, lambda n: 10 * n])
def test_a_step_out_of_range_is_one_error_for_both(kind, step):
    path = paths(notes_tree())[kind]
    n = len(path)
    message = rf"step must be in \[{-n}, {n}\), got {step(n)}\."
    for call in (lambda: path[step(n)], lambda: path.pruning(step(n))):
        with pytest.raises(OutOfRangeError, match=message) as info:
            call()
        assert isinstance(info.value, IndexError) and isinstance(info.value, ValueError)


@PATHS
@pytest.mark.parametrize("step", [1.0, True, "0", None])
def test_a_step_that_is_not_an_integer_is_a_type_error(kind, step):
    path = paths(notes_tree())[kind]
    for call in (lambda: path[step], lambda: path.pruning(step)):
        with pytest.raises(TypeError, match="step must be an integer"):
            call()


@PATHS
def test_pruning_at_a_value_is_the_pruning_of_its_step(kind):
    path = paths(notes_tree())[kind]
    for k, threshold in enumerate(path.thresholds.tolist()):
        if np.isfinite(threshold):
            assert path.step(threshold) == k
            assert path.pruning_at(threshold) == path.pruning(k)
        if k + 1 < len(path):
            between = (max(threshold, 0.0) + path.thresholds[k + 1]) / 2
            assert path.pruning_at(between) == path.pruning(k)
    assert path.pruning_at(1e9) == path.pruning(-1)


def test_each_path_checks_its_parameter():
    cc, cv = paths(notes_tree()).values()
    with pytest.raises(ValueError, match="alpha must be >= 0"):
        cc.step(-0.5)
    with pytest.raises(ValueError, match="alpha must be a finite number, not NaN"):
        cc.pruning_at(float("nan"))
    with pytest.raises(ValueError, match="alpha must be a finite number, got inf"):
        cc.step(float("inf"))
    with pytest.raises(TypeError, match="alpha must be a real number"):
        cc.step("0.1")
    assert cv.step(-np.inf) == 0 and cv.step(-0.5) == 0 and cv.step(np.inf) == len(cv) - 1
    with pytest.raises(ValueError, match="critical_value must be a number, not NaN"):
        cv.pruning_at(float("nan"))
    with pytest.raises(TypeError, match="critical_value must be a real number"):
        cv.step(None)


@PATHS
def test_sums_over_the_steps_are_checked_alike(kind):
    tree = notes_tree()
    path = paths(tree)[kind]
    for bad, error in ((np.ones(3), ValueError), (["a"] * tree.n_nodes, TypeError),
                       (np.full(tree.n_nodes, np.nan), ValueError)):
        with pytest.raises(error, match="node_values"):
            path.per_step(bad)
    for bad, error in ((np.ones((3, 2)), ValueError), (-tree.counts, ValueError),
                       (tree.counts + 0.5, ValueError)):        # weights, not sums
        with pytest.raises(error, match="counts"):
            path.errors(bad)
    assert path.errors(tree.counts).tolist() == [p.errors() for _, p in path]
    np.testing.assert_array_equal(path.per_step(np.ones(tree.n_nodes)), path.n_leaves)


@given(random_trees(max_leaves=8))
def test_both_paths_are_nested_and_end_at_the_root(tree):
    for path in paths(tree).values():
        prunings = [p for _, p in path]
        assert prunings[-1].n_nodes == 1
        assert all(np.all(a.kept >= b.kept) for a, b in zip(prunings, prunings[1:]))
        assert [p.n_leaves for p in prunings] == path.n_leaves.tolist()
        first, last = path.leaf_intervals()
        for k, pruning in enumerate(prunings):
            np.testing.assert_array_equal((first <= k) & (k < last), pruning.is_leaf)


@PATHS
def test_a_path_survives_pickling_and_copying_with_read_only_arrays(kind):
    path = paths(notes_tree())[kind]
    for twin in (pickle.loads(pickle.dumps(path)), copy.deepcopy(path)):
        assert repr(twin) == repr(path) and len(twin) == len(path)
        assert [p for _, p in twin] == [p for _, p in path]
        for array in (twin.node_values, twin.thresholds, twin.n_leaves):
            with pytest.raises(ValueError):
                array.flags.writeable = True


def test_the_paths_print_their_parameter():
    cc, cv = paths(notes_tree()).values()
    assert repr(cc) == f"CostComplexityPath(risk='error', n_steps={len(cc)}, " \
                       f"n_leaves {cc.n_leaves[0]} -> {cc.n_leaves[-1]})"
    assert repr(cv) == f"CriticalValuePath(measure='gini', n_steps={len(cv)}, " \
                       f"n_leaves {cv.n_leaves[0]} -> {cv.n_leaves[-1]})"


def test_a_path_refuses_arrays_of_the_wrong_shape():
    tree = notes_tree()
    with pytest.raises(ValueError, match="node_alpha must have one value per node"):
        pk.CostComplexityPath(tree, "error", np.zeros(3), np.zeros(2), np.ones(2, int),
                              np.zeros(2))
    with pytest.raises(ValueError, match="critical_values and n_leaves"):
        pk.CriticalValuePath(tree, "gini", np.zeros(7), np.zeros(7), np.zeros(2),
                             np.ones(3, int))
    with pytest.raises(TypeError, match="prunekit Tree"):
        pk.CriticalValuePath("tree", "gini", np.zeros(7), np.zeros(7), np.zeros(2),
                             np.ones(2, int))
