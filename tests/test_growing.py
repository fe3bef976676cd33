"""Chapter 1's module: gain measures, ID3, threshold splits, the pruning template, the MDL bound."""

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

import prunekit as pk
from prunekit import bounds, growing
from prunekit.datasets import make_boolean_dnf


@given(st.floats(0, 1))
def test_measures_match_the_binary_formulas(a):
    p = np.array([1 - a, a])
    assert growing.train_error_impurity(p) == pytest.approx(min(a, 1 - a))
    expected = 0.0 if a in (0, 1) else -a * np.log(a) - (1 - a) * np.log(1 - a)
    assert growing.entropy(p) == pytest.approx(expected, abs=1e-12)
    assert growing.gini(p) == pytest.approx(2 * a * (1 - a))


@given(st.lists(st.integers(0, 20), min_size=2, max_size=2),
       st.lists(st.integers(0, 20), min_size=2, max_size=2),
       st.sampled_from(["train_error", "entropy", "gini"]))
def test_gain_is_the_books_formula(left, right, criterion):
    C = growing.IMPURITY_FUNCTIONS[criterion]
    n_l, n_r = sum(left), sum(right)
    n = n_l + n_r
    if n == 0:
        return
    def c(counts):
        s = sum(counts)
        return C(np.array([counts[0], counts[1]]) / s) if s else 0.0
    expected = c([left[0] + right[0], left[1] + right[1]]) - (n_l / n * c(left) + n_r / n * c(right))
    assert growing.gain(left, right, criterion) == pytest.approx(expected, abs=1e-12)
    assert growing.gain(left, right, criterion) >= -1e-12  # concavity: splitting never hurts


def test_unknown_criterion():
    with pytest.raises(ValueError, match="criterion must be one of"):
        growing.gain([1, 2], [2, 1], "entropy2")


def test_id3_on_a_consistent_boolean_sample():
    X, y = make_boolean_dnf(300, 8, noise=0.0, random_state=0)
    for criterion in growing.IMPURITY_FUNCTIONS:
        tree = pk.id3(X, y, criterion)
        assert tree.error(X, y) == 0
        # a feature is tested at most once on every root-to-leaf path
        for leaf in np.flatnonzero(tree.is_leaf):
            path, v = [], tree.parent[leaf]
            while v != -1:
                path.append(tree.feature[v])
                v = tree.parent[v]
            assert len(path) == len(set(path))


def test_id3_root_split_is_the_argmax_gain():
    X, y = make_boolean_dnf(500, 6, noise=0.2, random_state=1)
    tree = pk.id3(X, y, "gini")
    onehot = np.eye(2, dtype=int)[y]
    gains = [growing.gain(onehot[X[:, i] == 0].sum(0), onehot[X[:, i] == 1].sum(0), "gini")
             for i in range(6)]
    assert tree.feature[0] == int(np.argmax(gains))
    np.testing.assert_array_equal(tree.counts[tree.left[0]], onehot[X[:, tree.feature[0]] == 0].sum(0))


def recursive_id3(X, y, criterion, max_depth):
    """ID3 as Sec. 18.2 writes it, one node at a time: the tree's nodes in preorder as
    ``(class counts, split feature or -1)``."""
    classes = np.unique(y)
    nodes = []

    def grow(rows, features, depth):
        counts = np.array([np.sum(y[rows] == c) for c in classes])
        nodes.append([counts, -1])
        node = nodes[-1]
        if np.count_nonzero(counts) <= 1 or depth >= max_depth or not features:
            return
        candidates = [i for i in features if 0 < X[rows, i].sum() < len(rows)]
        if not candidates:
            return
        sides = {i: [np.array([np.sum(y[rows][X[rows, i] == v] == c) for c in classes])
                     for v in (0, 1)] for i in candidates}
        gains = [growing.gain(*sides[i], criterion) for i in candidates]
        best = candidates[int(np.argmax(gains))]
        node[1] = best
        rest = [i for i in features if i != best]
        grow(rows[X[rows, best] == 0], rest, depth + 1)
        grow(rows[X[rows, best] == 1], rest, depth + 1)

    grow(np.arange(len(y)), list(range(X.shape[1])), 0)
    return nodes


@given(st.integers(2, 120), st.integers(1, 7), st.integers(2, 4), st.integers(0, 2**32 - 1),
       st.sampled_from(["train_error", "entropy", "gini"]),
       st.sampled_from([None, 1, 2, 4]))
def test_id3_grown_by_depth_is_the_recursive_definition(m, d, K, seed, criterion, max_depth):
    rng = np.random.default_rng(seed)
    X = (rng.random((m, d)) < rng.random(d)).astype(float)
    y = (X[:, :2].sum(axis=1).astype(int) + (rng.random(m) < 0.3)) % K
    if len(np.unique(y)) < 2:
        return
    tree = pk.id3(X, y, criterion, max_depth)
    expected = recursive_id3(X, y, criterion, np.inf if max_depth is None else max_depth)
    assert [(c.tolist(), f) for c, f in expected] == \
        [(c.tolist(), int(f)) for c, f in zip(tree.counts, tree.feature)]


def test_id3_max_depth_and_bad_input():
    X, y = make_boolean_dnf(200, 6, random_state=2)
    assert pk.id3(X, y, max_depth=2).max_depth == 2
    assert pk.id3(X, y, max_depth=0).n_nodes == 1
    with pytest.raises(ValueError, match="binary features"):
        pk.id3(X + 0.5, y)
    with pytest.raises(ValueError, match="max_depth must be at least 0"):
        pk.id3(X, y, max_depth=-1)
    with pytest.raises(ValueError, match="continuous"):
        pk.id3(X, y + 0.5)


def brute_force_split(X, y, criterion, min_samples_leaf=1):
    """Score every threshold of every feature directly: O(d m^2). Returns the best gain, its
    feature and its threshold, halfway between two consecutive distinct values."""
    classes = np.unique(y)
    best = (-np.inf, None, None)
    for j in range(X.shape[1]):
        values = np.unique(X[:, j])
        for low, high in zip(values[:-1], values[1:]):
            left = X[:, j] <= low
            if min(left.sum(), (~left).sum()) < min_samples_leaf:
                continue
            g = growing.gain([np.sum(y[left] == c) for c in classes],
                             [np.sum(y[~left] == c) for c in classes], criterion)
            if g > best[0] + 1e-12:
                best = (g, j, (low + high) / 2)
    return best


@given(st.integers(0, 10**6), st.sampled_from(["train_error", "entropy", "gini"]),
       st.integers(1, 3))
def test_threshold_search_finds_the_best_split(seed, criterion, min_samples_leaf):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 6, size=(25, 3)).astype(float)  # many repeated values
    y = rng.integers(0, 3, size=25)
    if len(np.unique(y)) < 2:
        return
    split = growing.best_threshold_split(X, y, criterion, min_samples_leaf)
    g, j, threshold = brute_force_split(X, y, criterion, min_samples_leaf)
    if j is None:
        assert split.feature == -1
        return
    assert split.gain == pytest.approx(g, abs=1e-12)
    left = X[:, split.feature] <= split.threshold
    classes = np.unique(y)
    assert growing.gain([np.sum(y[left] == c) for c in classes],
                        [np.sum(y[~left] == c) for c in classes], criterion) == pytest.approx(g)
    if split.n_best == 1:
        assert (split.feature, split.threshold) == (j, threshold)


@pytest.mark.parametrize("seed", range(15))
@pytest.mark.parametrize("max_depth, criterion", [(None, "gini"), (3, "entropy"),
                                                  (3, "log_loss")])
def test_grow_tree_matches_sklearn_except_at_ties(seed, max_depth, criterion):
    X, y = make_classification(300, 5, n_informative=3, n_classes=3, random_state=seed)
    ours = pk.grow_tree(X, y, criterion, max_depth=max_depth)
    sk = DecisionTreeClassifier(criterion=criterion, max_depth=max_depth,
                                random_state=seed).fit(X, y)
    assert ours.criterion == pk.Tree.from_sklearn(sk, X, y).criterion == criterion
    agreement = growing.compare_splits(ours, pk.Tree.from_sklearn(sk, X, y), X, y, criterion)
    assert agreement.identical or agreement.tied
    if agreement.identical:
        np.testing.assert_array_equal(ours.predict(X), sk.predict(X))


def test_grow_tree_identical_on_tie_free_samples():
    identical = 0
    for seed in range(10):
        X, y = make_classification(400, 4, n_informative=3, n_redundant=0, random_state=seed)
        ours = pk.grow_tree(X, y, max_depth=2, min_samples_leaf=20)
        sk = DecisionTreeClassifier(max_depth=2, min_samples_leaf=20, random_state=seed).fit(X, y)
        identical += growing.compare_splits(ours, pk.Tree.from_sklearn(sk, X, y), X, y,
                                            min_samples_leaf=20).identical
    assert identical >= 8


def test_grow_tree_options():
    X, y = make_classification(200, 4, random_state=0)
    tree = pk.grow_tree(X, y, min_samples_leaf=10)
    assert tree.counts[tree.is_leaf].sum(axis=1).min() >= 10
    assert pk.grow_tree(X, y, max_depth=3).max_depth <= 3
    assert pk.grow_tree(X, y).error(X, y) == 0


# ---------------------------------------------------------------------- MDL and the template
def test_mdl_bound_value():
    value = bounds.mdl(0.1, n_nodes=7, n_features=10, n_samples=1000, delta=0.05)
    expected = 0.1 + np.sqrt((8 * np.log2(13) + np.log(40)) / 2000)
    assert value == pytest.approx(expected)
    sizes = np.arange(1, 50, 2)
    assert np.all(np.diff(bounds.mdl(0.0, sizes, 10, 1000)) > 0)
    assert bounds.description_length(1, 1) == pytest.approx(2 * 2)


@pytest.mark.parametrize("kwargs, error", [
    (dict(delta=0), ValueError), (dict(delta=1.5), ValueError), (dict(delta="x"), TypeError),
    (dict(n_samples=0), ValueError), (dict(n_features=0), ValueError),
    (dict(train_error=1.5), ValueError), (dict(n_nodes=0), ValueError),
])
def test_mdl_bad_input(kwargs, error):
    args = dict(train_error=0.1, n_nodes=3, n_features=4, n_samples=100, delta=0.1)
    args.update(kwargs)
    with pytest.raises(error, match=next(iter(kwargs))):
        bounds.mdl(**args)


def test_template_never_worsens_the_objective():
    for seed in range(5):
        X, y = make_boolean_dnf(400, 8, noise=0.15, random_state=seed)
        tree = pk.id3(X, y)
        pruned, steps = pk.bottom_up_prune(tree, X, y, return_steps=True)
        value = lambda t: bounds.mdl(t.error(X, y), t.n_nodes, 8, len(y))
        assert value(pruned) <= value(tree)
        assert steps[-1].objective == pytest.approx(value(pruned))
        assert steps[-1].n_nodes == pruned.n_nodes
        objectives = [s.objective for s in steps]
        assert all(b <= a + 1e-12 for a, b in zip(objectives, objectives[1:]))
        np.testing.assert_array_equal(pruned.counts[0], np.bincount(y, minlength=2))


def test_template_extremes():
    X, y = make_boolean_dnf(300, 6, noise=0.1, random_state=0)
    tree = pk.id3(X, y)
    leaf = pk.bottom_up_prune(tree, X, y, objective=lambda err, n: err + n)
    assert leaf.n_nodes == 1 and leaf.predict(X[:1])[0] == np.bincount(y).argmax()
    same = pk.bottom_up_prune(tree, X, y, objective=lambda err, n: err)
    assert same.error(X, y) <= tree.error(X, y)


def test_template_can_lift_a_subtree():
    # root splits on x0 uselessly; its right subtree (a split on x1) is all we need
    X = np.array(list(itertools.product([0, 1], repeat=2)) * 5)
    y = X[:, 1]
    tree = pk.Tree.from_arrays(
        [1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
        pk.Tree.from_arrays([1, -1, 3, -1, -1], [2, -1, 4, -1, -1],
                            np.zeros((5, 2), int), [0, -1, 1, -1, -1],
                            [0.5, 0, 0.5, 0, 0]).node_counts(X, y),
        [0, -1, 1, -1, -1], [0.5, 0, 0.5, 0, 0])
    assert tree.error(X, y) == 0.25  # the left leaf predicts one class for both x1 values
    pruned, steps = pk.bottom_up_prune(tree, X, y, objective=lambda err, n: err + 0.001 * n,
                                       return_steps=True)
    assert steps[-1].choice == "right subtree"
    assert pruned.n_nodes == 3 and pruned.error(X, y) == 0 and pruned.feature[0] == 1


def test_template_bad_input():
    X, y = make_boolean_dnf(50, 6, random_state=0)
    tree = pk.id3(X, y)
    with pytest.raises(TypeError, match="prunekit Tree"):
        pk.bottom_up_prune("tree", X, y)
    with pytest.raises(TypeError, match="objective"):
        pk.bottom_up_prune(tree, X, y, objective=3)
    with pytest.raises(ValueError, match="different lengths"):
        pk.bottom_up_prune(tree, X, y[:-1])


def test_boolean_dnf_data():
    X, y = make_boolean_dnf(20000, 10, noise=0.1, random_state=0)
    clean = (X[:, 0] & X[:, 1]) | (X[:, 2] & X[:, 3] & X[:, 4])
    assert np.mean(clean != y) == pytest.approx(0.1, abs=0.01)
    X2, y2 = make_boolean_dnf(20000, 10, noise=0.1, random_state=0)
    np.testing.assert_array_equal(X, X2)
    with pytest.raises(ValueError, match="noise"):
        make_boolean_dnf(10, noise=0.7)
    with pytest.raises(ValueError, match="terms"):
        make_boolean_dnf(10, 3, terms=[(0, 5)])


def test_exact_true_error_matches_a_large_sample():
    from prunekit.datasets import cube, dnf_true_error

    assert cube(3).tolist()[:3] == [[0, 0, 0], [0, 0, 1], [0, 1, 0]] and len(cube(8)) == 256
    X, y = make_boolean_dnf(400, 8, noise=0.2, random_state=0)
    tree = pk.id3(X, y)
    exact = dnf_true_error(tree.predict, 8, noise=0.2)
    X_big, y_big = make_boolean_dnf(200_000, 8, noise=0.2, random_state=1)
    assert tree.error(X_big, y_big) == pytest.approx(exact, abs=0.005)
    bayes = dnf_true_error(lambda Z: (Z[:, 0] & Z[:, 1]) | (Z[:, 2] & Z[:, 3] & Z[:, 4]), 8, noise=0.2)
    assert bayes == pytest.approx(0.2)


def test_exact_true_error_builds_the_cube_once_and_protects_it():
    from prunekit.datasets import _labelled_cube, dnf_true_error

    terms = ((0, 1), (2, 3))
    seen = []

    def predict(Z):
        seen.append(Z)
        return Z[:, 0] & Z[:, 1]

    first = dnf_true_error(predict, 7, terms, 0.1)
    hits = _labelled_cube.cache_info().hits
    assert dnf_true_error(predict, 7, [[0, 1], [2, 3]], 0.1) == first
    assert _labelled_cube.cache_info().hits == hits + 1
    assert seen[0] is seen[1] and not seen[0].flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        dnf_true_error(lambda Z: Z.__setitem__(0, 1), 7, terms, 0.1)
    assert dnf_true_error(predict, 7, terms, 0.1) == first


@pytest.mark.parametrize("criterion", ["entropy", "gini", "train_error"])
def test_the_gain_from_the_node_total_is_the_same_number(criterion):
    from prunekit.growing import _criterion_function, _gain, gain

    rng = np.random.default_rng(5)
    total = rng.integers(0, 40, size=3)
    left = np.stack([rng.integers(0, t + 1, size=50) for t in total], axis=-1)
    right = total - left
    C = _criterion_function(criterion)
    np.testing.assert_array_equal(_gain(left, right, C, total), _gain(left, right, C))
    np.testing.assert_array_equal(_gain(left, right, C, total),
                                  gain(left, right, criterion))


# ---------------------------------------------------------------------- the criterion
GROWERS = {
    "gain": lambda **kw: growing.gain([[3, 1], [2, 2]], [[1, 3], [0, 4]], **kw),
    "id3": lambda **kw: pk.id3(*make_boolean_dnf(200, 6, random_state=1), max_depth=3, **kw),
    "best_threshold_split": lambda **kw: growing.best_threshold_split(*_real_sample(), **kw),
    "grow_tree": lambda **kw: pk.grow_tree(*_real_sample(), max_depth=3, **kw),
    "compare_splits": lambda **kw: growing.compare_splits(
        pk.grow_tree(*_real_sample(), max_depth=2), pk.grow_tree(*_real_sample(), max_depth=3),
        *_real_sample(), **kw),
}


def _real_sample():
    return make_classification(120, 4, n_informative=3, n_redundant=0, random_state=3)


def _same(a, b):
    if isinstance(a, pk.Tree):
        return all(np.array_equal(getattr(a, name), getattr(b, name), equal_nan=True)
                   for name in ("left", "right", "feature", "threshold", "counts"))
    return np.array_equal(np.asarray(a), np.asarray(b)) if isinstance(a, np.ndarray) else a == b


@pytest.mark.parametrize("name", GROWERS)
def test_the_growers_criterion_has_scikit_learns_values(name):
    import inspect

    function = getattr(growing, name)
    parameters = inspect.signature(function).parameters
    assert "criterion" in parameters and "measure" not in parameters
    entropy = GROWERS[name](criterion="entropy")
    assert _same(GROWERS[name](criterion="log_loss"), entropy)      # scikit-learn's synonym
    with pytest.raises(ValueError, match=r"criterion must be one of \['entropy', 'gini', "
                                         r"'log_loss', 'train_error'\] or a callable"):
        GROWERS[name](criterion="informaton")


@pytest.mark.parametrize("name", GROWERS)
def test_the_former_keyword_measure_works_until_0_4_with_a_warning(name):
    with pytest.warns(DeprecationWarning) as record:
        old = GROWERS[name](measure="gini")
    assert len(record) == 1
    assert str(record[0].message) == (f"{name}(): the parameter measure is now called "
                                      "criterion; write criterion= instead of measure=, which "
                                      "will stop working in 0.4.")
    assert record[0].filename == __file__                  # the line that used the old keyword
    assert _same(old, GROWERS[name](criterion="gini"))
    with pytest.raises(TypeError, match="got both measure= and criterion="):
        GROWERS[name](measure="gini", criterion="gini")


@pytest.mark.parametrize("name", GROWERS)
def test_the_former_value_information_is_entropy_until_0_4_with_a_warning(name):
    with pytest.warns(DeprecationWarning) as record:
        old = GROWERS[name](criterion="information")
    assert len(record) == 1                                 # once, not once per node
    assert str(record[0].message) == ("criterion='information' is deprecated; write "
                                      "criterion='entropy'. 'information' will stop working "
                                      "in 0.4.")
    assert record[0].filename == __file__
    assert _same(old, GROWERS[name](criterion="entropy"))
    if isinstance(old, pk.Tree):
        assert old.criterion == "entropy"


def test_a_grown_tree_keeps_its_criterion():
    X, y = make_boolean_dnf(100, 5, random_state=0)
    assert pk.id3(X, y).criterion == "entropy"
    assert pk.id3(X, y, "log_loss").criterion == "log_loss"
    assert pk.grow_tree(X, y).criterion == "gini"
    assert pk.grow_tree(X, y, growing.gini).criterion == "gini"

    def half_gini(p):
        return growing.gini(p) / 2

    assert pk.grow_tree(X, y, half_gini).criterion == "half_gini"
    # the entropy criteria give the impurity-based cost-complexity path scikit-learn's does
    path = pk.cost_complexity_path(pk.id3(X, y, "entropy"), risk="impurity")
    assert len(path) >= 1
