"""Tree and Pruning: agreement with scikit-learn, invariants, immutability, bad input."""

import copy
import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.datasets import make_classification
from sklearn.exceptions import NotFittedError
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor, ExtraTreeClassifier

from prunekit import Pruning, Tree, all_prunings, count_prunings
from prunekit.tree import leaf_errors
from strategies import random_trees


def fitted(seed, n_samples=400, n_classes=3, **tree_args):
    X, y = make_classification(n_samples, 6, n_informative=4, n_classes=n_classes,
                               flip_y=0.2, random_state=seed)
    clf = DecisionTreeClassifier(random_state=seed, **tree_args).fit(X, y)
    return clf, X, y


@pytest.mark.parametrize("seed", range(12))
def test_from_sklearn_agrees_with_sklearn(seed):
    clf, X, y = fitted(seed, max_depth=None if seed % 2 else 5)
    tree = Tree.from_sklearn(clf, X, y)
    X_new, y_new = make_classification(300, 6, n_informative=4, n_classes=3, random_state=99)
    assert tree.n_nodes == clf.tree_.node_count
    assert tree.n_leaves == clf.get_n_leaves()
    assert tree.max_depth == clf.get_depth()
    np.testing.assert_array_equal(tree.apply(X_new), clf.apply(X_new))
    np.testing.assert_array_equal(tree.predict(X_new), clf.predict(X_new))
    path = clf.decision_path(X_new).toarray()
    counts = tree.node_counts(X_new, y_new)
    for k, label in enumerate(clf.classes_):
        np.testing.assert_array_equal(counts[:, k], path[y_new == label].sum(axis=0))
    # growing counts: the estimator's own sample counts and class fractions
    np.testing.assert_array_equal(tree.counts.sum(axis=1), clf.tree_.n_node_samples)
    np.testing.assert_allclose(tree.counts / tree.counts.sum(1, keepdims=True),
                               clf.tree_.value[:, 0, :])
    assert tree.criterion == "gini"
    np.testing.assert_array_equal(tree.impurity, clf.tree_.impurity)


@pytest.mark.parametrize("seed", range(6))
def test_compiled_and_numpy_routing_agree(seed):
    # from_sklearn routes with scikit-learn's compiled tree; the same arrays without it route
    # level by level in NumPy. Both must stop at the same node, for the tree and for prunings.
    clf, X, y = fitted(seed)
    tree = Tree.from_sklearn(clf, X, y)
    plain = Tree.from_arrays(tree.left, tree.right, tree.counts, tree.feature, tree.threshold,
                             classes=tree.classes_, n_features=tree.n_features)
    X_new = make_classification(500, 6, random_state=seed + 50)[0].astype(np.float32)
    np.testing.assert_array_equal(tree.apply(X_new), plain.apply(X_new))
    rng = np.random.default_rng(seed)
    inner = np.flatnonzero(~tree.is_leaf)
    for _ in range(5):
        collapsed = rng.choice(inner, size=min(3, len(inner)), replace=False)
        pruned = Pruning.from_collapsed(tree, collapsed)
        same = Pruning.from_collapsed(plain, collapsed)
        np.testing.assert_array_equal(pruned.apply(X_new), same.apply(X_new))
        assert pruned.kept[pruned.apply(X_new)].all() and pruned.is_leaf[pruned.apply(X_new)].all()
    restored = pickle.loads(pickle.dumps(tree))
    np.testing.assert_array_equal(restored.apply(X_new), tree.apply(X_new))


def test_string_labels_and_extra_tree():
    X, y = make_classification(200, 4, random_state=1)
    labels = np.array(["no", "yes"])[y]
    clf = ExtraTreeClassifier(random_state=0).fit(X, labels)
    tree = Tree.from_sklearn(clf, X, labels)
    np.testing.assert_array_equal(tree.predict(X), clf.predict(X))
    assert list(tree.classes_) == ["no", "yes"]
    assert tree.error(X, labels) == pytest.approx(1 - clf.score(X, labels))


@given(random_trees())
def test_structure_invariants(tree):
    assert tree.parent[0] == -1
    inner = np.flatnonzero(~tree.is_leaf)
    np.testing.assert_array_equal(tree.parent[tree.left[inner]], inner)
    np.testing.assert_array_equal(tree.depth[tree.right[inner]], tree.depth[inner] + 1)
    assert tree.n_leaves == tree.n_nodes - len(inner) == len(inner) + 1
    np.testing.assert_array_equal(tree.counts[inner],
                                  tree.counts[tree.left[inner]] + tree.counts[tree.right[inner]])
    assert sorted(np.concatenate(tree.levels).tolist()) == list(range(tree.n_nodes))
    assert sorted(tree.subtree(0).tolist()) == list(range(tree.n_nodes))


@given(random_trees(), st.integers(0, 2**31 - 1))
def test_node_counts_are_path_counts(tree, seed):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1.5, 1.5, size=(40, tree.n_features))
    y = rng.integers(0, tree.n_classes, size=40)
    counts = tree.node_counts(X, y)
    leaves = tree.apply(X)
    for v in range(tree.n_nodes):
        below = np.isin(leaves, tree.subtree(v))
        np.testing.assert_array_equal(counts[v], np.bincount(y[below], minlength=tree.n_classes))


@given(random_trees(max_leaves=6))
def test_enumeration_matches_count_and_is_distinct(tree):
    prunings = list(all_prunings(tree))
    assert len(prunings) == count_prunings(tree) == len(set(prunings))
    assert Pruning.full(tree) in prunings and Pruning.root_only(tree) in prunings
    for p in prunings:
        assert p.n_nodes == 2 * p.n_leaves - 1
        # collapsing a pruning's internal leaves gives it back
        collapsed = p.is_leaf & ~tree.is_leaf
        assert Pruning.from_collapsed(tree, collapsed) == p


@given(random_trees(max_leaves=6))
def test_prunings_of_an_equal_copy_are_equal(tree):
    for twin in (copy.deepcopy(tree), pickle.loads(pickle.dumps(tree))):
        assert twin is not tree and twin == tree and hash(twin) == hash(tree)
        for p in all_prunings(tree):
            same = Pruning(twin, p.kept)
            assert same == p and hash(same) == hash(p)
    assert tree != "tree"


def test_trees_that_differ_are_not_equal():
    tree = Tree.from_arrays([1, -1, -1], [2, -1, -1], [[3, 2], [3, 0], [0, 2]],
                            feature=[0, -1, -1], threshold=[0.5, np.nan, np.nan])
    other_counts = Tree.from_arrays([1, -1, -1], [2, -1, -1], [[3, 3], [3, 0], [0, 3]],
                                    feature=[0, -1, -1], threshold=[0.5, np.nan, np.nan])
    other_rule = Tree.from_arrays([1, -1, -1], [2, -1, -1], [[3, 2], [3, 0], [0, 2]],
                                  feature=[0, -1, -1], threshold=[0.7, np.nan, np.nan])
    assert tree != other_counts and tree != other_rule
    assert Pruning.full(tree) != Pruning.full(other_rule)
    assert Pruning.root_only(tree) != Pruning.full(tree)


@given(random_trees(), st.integers(0, 2**31 - 1))
def test_pruning_predicts_like_its_leaves(tree, seed):
    rng = np.random.default_rng(seed)
    collapsed = rng.random(tree.n_nodes) < 0.3
    pruning = Pruning.from_collapsed(tree, collapsed)
    X = rng.uniform(-1.5, 1.5, size=(30, tree.n_features))
    y = rng.integers(0, tree.n_classes, size=30)
    leaf = pruning.apply(X)
    assert pruning.is_leaf[leaf].all()
    np.testing.assert_array_equal(pruning.predict(X), tree.labels[leaf])
    # every example's pruning leaf lies on its path in the full tree
    full_leaf = tree.apply(X)
    for x_leaf, p_leaf in zip(full_leaf, leaf):
        assert x_leaf in tree.subtree(p_leaf)
    counts = tree.node_counts(X, y)
    assert pruning.errors(counts) == int(np.sum(pruning.predict(X) != y))
    assert pruning.error(X, y) == pytest.approx(pruning.errors(counts) / len(y))


@given(random_trees(), st.integers(0, 2**31 - 1))
def test_leaf_errors_of_every_node(tree, seed):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1.5, 1.5, size=(30, tree.n_features))
    y = rng.integers(0, tree.n_classes, size=30)
    counts = tree.node_counts(X, y)
    labels = rng.integers(0, tree.n_classes, size=tree.n_nodes)
    nodes = np.arange(tree.n_nodes)
    for sample, marks in ((tree.counts, tree.labels), (counts, tree.labels), (counts, labels)):
        expected = sample.sum(axis=1) - sample[nodes, marks]
        np.testing.assert_array_equal(tree.leaf_errors(sample, marks), expected)
        np.testing.assert_array_equal(leaf_errors(sample, marks), expected)
    np.testing.assert_array_equal(tree.leaf_errors(), leaf_errors(tree.counts, tree.labels))
    np.testing.assert_array_equal(tree.leaf_errors(counts), tree.leaf_errors(counts, tree.labels))
    assert tree.leaf_errors().dtype == np.int64
    for collapsed in (np.zeros(tree.n_nodes, bool), rng.random(tree.n_nodes) < 0.4):
        pruning = Pruning.from_collapsed(tree, collapsed, labels)
        assert pruning.errors(counts) == tree.leaf_errors(counts, labels)[pruning.is_leaf].sum()


@given(random_trees(), st.integers(0, 2**31 - 1))
def test_highest_marked_maps_leaves_to_the_leaves_of_a_pruning(tree, seed):
    rng = np.random.default_rng(seed)
    pruning = Pruning.from_collapsed(tree, rng.random(tree.n_nodes) < 0.4)
    X = rng.uniform(-1.5, 1.5, size=(30, tree.n_features))
    marked = pruning.is_leaf | tree.is_leaf
    np.testing.assert_array_equal(tree.highest_marked(marked)[tree.apply(X)], pruning.apply(X))


def test_the_checks_for_arguments_that_refer_to_a_tree():
    clf, X, y = fitted(0, max_depth=4)
    tree = Tree.from_sklearn(clf, X, y)
    assert tree.dtype is np.float32
    assert Tree.from_arrays([-1], [-1], [[1, 2]]).dtype is np.float64
    assert tree.check_node(np.int64(3)) == 3
    assert tree.check_sample_counts(tree.counts).tolist() == tree.counts.tolist()
    assert tree.check_leaf_labels(tree.labels.tolist()).tolist() == tree.labels.tolist()
    Xc, yc = tree.check_sample(X.tolist(), y)
    assert Xc.dtype == np.float32 and Xc.shape == X.shape and yc.shape == y.shape
    np.testing.assert_array_equal(tree.apply(Xc, check_input=False), tree.apply(X))
    tree.require_split_rules()
    with pytest.raises(ValueError, match="X_prune has 5 features"):
        tree.node_counts(X[:, :5], y, names=("X_prune", "y_prune"))
    with pytest.raises(ValueError, match="node must be a node of the tree"):
        tree.check_node(tree.n_nodes)


def test_labels_are_majority_with_ties_to_smallest_class():
    tree = Tree.from_arrays([1, -1, -1], [2, -1, -1], [[3, 3, 0], [1, 2, 0], [2, 1, 0]])
    np.testing.assert_array_equal(tree.labels, [0, 1, 0])
    assert Pruning.root_only(tree).errors() == 3
    assert Pruning.full(tree).errors() == 2


def test_tree_and_pruning_are_immutable():
    clf, X, y = fitted(0, max_depth=4)
    tree = Tree.from_sklearn(clf, X, y)
    with pytest.raises(AttributeError):
        tree.left = tree.right
    with pytest.raises(ValueError):
        tree.counts[0, 0] = 5
    with pytest.raises(ValueError):
        tree.threshold[0] = 0.0
    pruning = Pruning.full(tree)
    with pytest.raises(ValueError):
        pruning.kept[1] = False
    with pytest.raises(AttributeError):
        pruning.tree = None
    before = tree.counts.copy()
    tree.node_counts(X, y)
    Pruning.from_collapsed(tree, [1]).error(X, y)
    np.testing.assert_array_equal(tree.counts, before)


def test_tree_copies_its_input():
    left, right = np.array([1, -1, -1]), np.array([2, -1, -1])
    counts = np.array([[2, 1], [2, 0], [0, 1]])
    tree = Tree.from_arrays(left, right, counts)
    counts[0, 0] = 100
    left[0] = -1
    assert tree.counts[0, 0] == 2 and tree.left[0] == 1


# ---------------------------------------------------------------------- bad input
@pytest.fixture(scope="module")
def sk_tree():
    clf, X, y = fitted(3, max_depth=4)
    return Tree.from_sklearn(clf, X, y), X, y


@pytest.mark.parametrize("bad, match", [
    (np.inf, "infinity"),
    (-np.inf, "infinity"),
])
def test_infinite_X(sk_tree, bad, match):
    """Infinity is refused; NaN is a missing value (see the tests of missing values)."""
    tree, X, y = sk_tree
    X = X.copy()
    X[3, 2] = bad
    for call in (tree.predict, tree.apply, Pruning.full(tree).predict):
        with pytest.raises(ValueError, match=match):
            call(X)
    with pytest.raises(ValueError, match=match):
        tree.node_counts(X, y)


def test_lengths_features_and_empty(sk_tree):
    tree, X, y = sk_tree
    with pytest.raises(ValueError, match="different lengths"):
        tree.node_counts(X, y[:-1])
    with pytest.raises(ValueError, match="different lengths"):
        tree.error(X[:5], y)
    with pytest.raises(ValueError, match="X has 5 features, but the tree was grown on 6"):
        tree.predict(X[:, :5])
    with pytest.raises(ValueError, match="0 sample"):
        tree.predict(X[:0])
    with pytest.raises(ValueError, match="0 sample"):
        tree.node_counts(X[:0], y[:0])


def test_unseen_labels(sk_tree):
    tree, X, y = sk_tree
    y_new = y.copy()
    y_new[:10] = 7
    with pytest.raises(ValueError, match=r"labels \[7\] that the tree never saw"):
        tree.node_counts(X, y_new)
    # for the error rate such examples are simply misclassified
    wrong = tree.predict(X) != y_new
    assert tree.error(X, y_new) == pytest.approx(wrong.mean())
    assert tree.error(X, y_new) > tree.error(X, y)


def test_from_sklearn_bad_estimators():
    X, y = make_classification(50, 4, random_state=0)
    with pytest.raises(NotFittedError):
        Tree.from_sklearn(DecisionTreeClassifier(), X, y)
    with pytest.raises(TypeError, match="classifier"):
        Tree.from_sklearn(DecisionTreeRegressor().fit(X, y), X, y)
    with pytest.raises(TypeError, match="scikit-learn tree classifier"):
        Tree.from_sklearn("tree", X, y)
    clf = DecisionTreeClassifier().fit(X, y)
    with pytest.raises(ValueError, match="X has 3 features"):
        Tree.from_sklearn(clf, X[:, :3], y)
    with pytest.raises(ValueError, match="never saw"):
        Tree.from_sklearn(clf, X, y + 5)


def test_from_sklearn_counts_classes_the_estimator_never_saw():
    X, y = make_classification(200, 5, n_informative=3, n_classes=3, random_state=0)
    grow = y != 1  # the growing sample lacks class 1
    clf = DecisionTreeClassifier(random_state=0).fit(X[grow], y[grow])
    tree = Tree.from_sklearn(clf, X[grow], y[grow], classes=[0, 1, 2])
    assert list(tree.classes_) == [0, 1, 2]
    assert tree.counts[:, 1].sum() == 0
    np.testing.assert_array_equal(tree.predict(X), clf.predict(X))
    assert tree.node_counts(X, y)[0, 1] == np.sum(y == 1)
    assert tree.error(X, y) == pytest.approx(np.mean(clf.predict(X) != y))
    with pytest.raises(ValueError, match="every label of estimator.classes_"):
        Tree.from_sklearn(clf, X[grow], y[grow], classes=[0, 1])


@pytest.mark.parametrize("left, right, counts, match", [
    ([1, -1, -1], [-1, -1, -1], [[1, 1], [1, 0], [0, 1]], "node 0 has one child"),
    ([1, 0, -1], [2, 0, -1], [[1, 1], [1, 1], [0, 1]], "root .* appears as a child"),
    ([1, -1, -1, 4, -1], [2, -1, -1, 3, -1], [[1, 1], [1, 0], [0, 1], [0, 0], [0, 0]],
     "parents|not reachable"),
    ([1, -1, -1, -1], [2, -1, -1, -1], [[1, 1], [1, 0], [0, 1], [0, 0]], "not reachable"),
    ([1, 3, 3, -1, -1], [2, 4, 4, -1, -1], [[2, 1], [1, 0], [1, 1], [0, 0], [0, 0]],
     "node 3 has 2 parents"),
    ([1, -1, -1], [5, -1, -1], [[1, 1], [1, 0], [0, 1]], "outside"),
    ([1, -1, -1], [2, -1, -1], [[1, 1], [1, 0]], "one row per node"),
    ([1, -1, -1], [2, -1, -1], [[1, -1], [1, 0], [0, -1]], "non-negative"),
    ([1, -1, -1], [2, -1, -1], [[2, 2], [1, 0], [0, 1]], "not the sum"),
    ([1, -1, -1], [2, -1, -1], [[1.5, 1], [1.5, 0], [0, 1]], "integer"),
    ([1, -1], [2, -1, -1], [[1, 1], [1, 0], [0, 1]], "same length"),
])
def test_from_arrays_rejects_non_trees(left, right, counts, match):
    with pytest.raises((ValueError, TypeError), match=match):
        Tree.from_arrays(left, right, counts)


def test_from_arrays_split_rules():
    args = ([1, -1, -1], [2, -1, -1], [[2, 1], [2, 0], [0, 1]])
    with pytest.raises(ValueError, match="both feature and threshold"):
        Tree.from_arrays(*args, feature=[0, -1, -1])
    with pytest.raises(ValueError, match="finite"):
        Tree.from_arrays(*args, feature=[0, -1, -1], threshold=[np.nan, 0, 0])
    counts_only = Tree.from_arrays(*args)
    with pytest.raises(ValueError, match="no split rules"):
        counts_only.predict([[0.0]])
    assert Pruning.full(counts_only).errors() == 0
    tree = Tree.from_arrays(*args, feature=[1, -1, -1], threshold=[0.5, 0, 0])
    assert tree.n_features == 2
    np.testing.assert_array_equal(tree.predict([[9, 0], [9, 1]]), [0, 1])


def test_pruning_rejects_bad_masks():
    tree = Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
                            [[3, 2], [2, 0], [1, 2], [1, 0], [0, 2]])
    with pytest.raises(ValueError, match="keep the root"):
        Pruning(tree, np.array([False, True, True, False, False]))
    with pytest.raises(ValueError, match="exactly one child of node 0"):
        Pruning(tree, np.array([True, True, False, False, False]))
    with pytest.raises(ValueError, match="children of node 2 but not the node"):
        Pruning(tree, np.array([True, False, False, True, True]))
    with pytest.raises(ValueError, match="boolean mask"):
        Pruning(tree, np.array([1, 1, 1, 0, 0]))
    with pytest.raises(TypeError, match="prunekit Tree"):
        Pruning("tree", np.ones(5, bool))
    with pytest.raises(ValueError, match="outside"):
        Pruning.from_collapsed(tree, [7])
    p = Pruning.from_collapsed(tree, [2])
    assert (p.n_nodes, p.n_leaves, p.depth) == (3, 2, 1)
    assert list(p.leaves) == [1, 2]


def test_all_prunings_refuses_huge_trees():
    clf, X, y = fitted(0)
    tree = Tree.from_sklearn(clf, X, y)
    assert count_prunings(tree) > 10**6
    with pytest.raises(ValueError, match="prunings, more than limit"):
        next(all_prunings(tree))


def test_plot_tree_draws_a_pruning():
    import matplotlib

    matplotlib.use("Agg")
    from prunekit.plotting import plot_tree, tree_layout

    tree = Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
                            [[3, 2], [2, 0], [1, 2], [1, 0], [0, 2]],
                            [0, -1, 1, -1, -1], [0.5, 0, 0.25, 0, 0])
    xy = tree_layout(tree)
    assert list(xy[tree.is_leaf, 0]) == [0, 1, 2] and xy[2, 0] == 1.5 and xy[0, 0] == 0.75
    ax = plot_tree(tree, Pruning.from_collapsed(tree, [2]), highlight=2)
    texts = [t.get_text() for t in ax.texts]
    assert "x0 = 0?\n[3, 2]" in texts and "→ 1\n[1, 2]" in texts and "[0, 2]" in texts
    other = Tree.from_arrays([1, -1, -1], [2, -1, -1], [[1, 1], [1, 0], [0, 1]])
    with pytest.raises(ValueError, match="pruning of the tree being drawn"):
        plot_tree(tree, Pruning.full(other))


def test_to_tree_keeps_the_kept_nodes():
    from prunekit import cross_validate_alpha
    from prunekit.datasets import make_boolean_dnf

    X, y = make_boolean_dnf(300, n_features=8, noise=0.1, random_state=0)
    selection = cross_validate_alpha(X, y, cv=5, random_state=0)
    tree = selection.path.tree
    for step in (0, selection.best, len(selection.path) - 1):
        pruning = selection.path.pruning(step)
        small = pruning.to_tree()
        assert small.n_nodes == pruning.n_nodes and small.n_leaves == pruning.n_leaves
        assert np.array_equal(small.counts, tree.counts[pruning.kept])
        X = np.random.RandomState(step).randint(0, 2, (50, tree.n_features))
        assert np.array_equal(small.predict(X), pruning.predict(X))


# ---------------------------------------------------------------------- missing values
@given(random_trees(), st.data())
def test_missing_values_go_where_the_tree_says_as_in_scikit_learn(tree, data):
    """A NaN of a node's feature goes to the child missing_go_to_left names, in prunekit's
    own routing exactly as in scikit-learn's compiled one (through to_sklearn)."""
    directions = data.draw(st.lists(st.booleans(), min_size=tree.n_nodes,
                                    max_size=tree.n_nodes))
    tree = Tree(tree.left, tree.right, tree.counts, feature=tree.feature,
                threshold=tree.threshold, n_features=tree.n_features,
                missing_go_to_left=directions)
    assert np.array_equal(tree.missing_go_to_left, np.array(directions) & ~tree.is_leaf)
    values = st.one_of(st.floats(-1.5, 1.5, width=32), st.just(np.nan))
    X = np.array(data.draw(st.lists(st.lists(values, min_size=3, max_size=3), min_size=1,
                                    max_size=20)))
    assert np.array_equal(tree.predict(X), tree.to_sklearn().predict(X))
    assert tree.node_counts(X, tree.predict(X)).sum() > 0


def test_by_default_missing_values_go_to_the_larger_child():
    """As scikit-learn sends them at a split that saw none (n_left > n_right)."""
    tree = Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
                            [[4, 4], [3, 2], [1, 2], [1, 0], [0, 2]],
                            feature=[0, -1, 1, -1, -1], threshold=[0.5, 0, 0.5, 0, 0])
    assert tree.missing_go_to_left.tolist() == [True, False, False, False, False]
    assert tree.apply([[np.nan, 0.0], [1.0, np.nan]]).tolist() == [1, 4]
    with pytest.raises(ValueError, match="X contains infinity"):
        tree.apply([[np.inf, 0.0]])
    with pytest.raises(TypeError, match="missing_go_to_left must hold booleans"):
        Tree(tree.left, tree.right, tree.counts, feature=tree.feature,
             threshold=tree.threshold, missing_go_to_left=[0, 1, 0, 0, 0])


def test_a_tree_scikit_learn_grew_on_missing_values():
    """from_sklearn reads where each split sends missing values (and the infinite threshold
    of a split that separates them from the rest); routing, pruning, pickling keep them."""
    X, y = make_classification(400, 5, n_informative=3, random_state=0)
    rng = np.random.default_rng(0)
    X[rng.random(X.shape) < 0.15] = np.nan
    X[:60, 0] = np.nan                                # a feature whose missingness tells
    y[:60] = 1
    fitted = DecisionTreeClassifier(random_state=0).fit(X, y)
    tree = Tree.from_sklearn(fitted, X, y)
    assert np.array_equal(tree.missing_go_to_left[~tree.is_leaf],
                          fitted.tree_.missing_go_to_left[~tree.is_leaf].astype(bool))
    assert np.array_equal(tree.apply(X), fitted.apply(X))
    python_routed = Pruning.full(tree).to_tree()      # no compiled tree: prunekit's routing
    assert np.array_equal(python_routed.apply(X), fitted.apply(X))
    assert python_routed == Tree.from_sklearn(fitted, X, y)
    state = pickle.loads(pickle.dumps(tree))
    assert np.array_equal(state.missing_go_to_left, tree.missing_go_to_left)
    # a tree pickled before trees had missing_go_to_left gets the default directions
    old = Tree.__new__(Tree)
    saved = tree.__getstate__()
    del saved["_missing_go_to_left"]
    old.__setstate__(saved)
    default = Tree(tree.left, tree.right, tree.counts, feature=tree.feature,
                   threshold=tree.threshold)
    assert np.array_equal(old.missing_go_to_left, default.missing_go_to_left)
