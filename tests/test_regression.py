"""Regression trees: RegressionTree against scikit-learn's DecisionTreeRegressor, cost
complexity under squared error against brute force and against scikit-learn's
cost_complexity_pruning_path, alpha chosen on folds and on a hold-out sample, and
PrunedTreeRegressor against scikit-learn's estimator checks."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.tree import DecisionTreeRegressor
from sklearn.utils.estimator_checks import parametrize_with_checks

import prunekit as pk


def _sample(seed, m=60, d=3, ties=False):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, (m, d)).astype(float) if ties else rng.normal(size=(m, d))
    y = np.sin(2 * X[:, 0]) + X[:, 1] ** 2 + rng.normal(scale=0.3, size=m)
    if ties:
        y = np.round(y)                      # repeated targets: pure leaves, equal links
    return X, y


def _grown(seed, max_leaf_nodes=None, ties=False, m=60):
    X, y = _sample(seed, m=m, ties=ties)
    reg = DecisionTreeRegressor(max_leaf_nodes=max_leaf_nodes, random_state=0).fit(X, y)
    return reg, pk.RegressionTree.from_sklearn(reg, X, y), X, y


# ---------------------------------------------------------------------- the tree
def test_a_regression_tree_predicts_and_routes_as_scikit_learn():
    reg, tree, X, y = _grown(0)
    Z = np.random.default_rng(1).normal(size=(200, 3))
    assert np.array_equal(tree.apply(Z), reg.apply(Z.astype(np.float32)))
    assert np.allclose(tree.predict(Z), reg.predict(Z), rtol=1e-12)
    assert np.allclose(tree.value, reg.tree_.value[:, 0, 0], rtol=1e-12)
    # R(t) = impurity * weighted_n_node_samples: the node's sum of squared deviations
    assert np.allclose(tree.leaf_errors(),
                       reg.tree_.impurity * reg.tree_.weighted_n_node_samples,
                       rtol=1e-9, atol=1e-9)
    assert tree.error(X, y) == pytest.approx(np.mean((reg.predict(X) - y) ** 2))


def test_node_moments_are_each_nodes_own_sample_statistics():
    _, tree, X, y = _grown(2, max_leaf_nodes=6)
    Z, target = _sample(3, m=40)
    moments = tree.node_moments(Z, target)
    leaf = tree.apply(Z)
    for v in range(tree.n_nodes):
        inside = np.isin(leaf, tree.subtree(v))
        w = inside.sum()
        assert moments[v, 0] == w
        if w:
            mean = target[inside].mean()
            assert moments[v, 1] == pytest.approx(mean)
            assert moments[v, 2] == pytest.approx(((target[inside] - mean) ** 2).sum())
            # leaf errors around the growing mean, not the sample's own
            assert tree.leaf_errors(moments)[v] == pytest.approx(
                ((target[inside] - tree.value[v]) ** 2).sum())


def test_a_pure_node_has_no_squared_error_whatever_its_target():
    X = np.array([[0.0], [0.0], [1.0], [1.0]])
    y = np.array([1e8 + 0.1] * 2 + [3.0] * 2)
    tree = pk.RegressionTree.from_arrays([1, -1, -1], [2, -1, -1], feature=[0, -1, -1],
                                         threshold=[0.5, 0, 0], X=X, y=y)
    assert tree.leaf_errors()[1:].tolist() == [0.0, 0.0]


def test_integer_weights_are_repeated_examples():
    X, y = _sample(4, m=50)
    w = np.random.default_rng(5).integers(0, 4, len(y))
    reg = DecisionTreeRegressor(random_state=0).fit(X, y, sample_weight=w)
    weighted = pk.RegressionTree.from_sklearn(reg, X, y, sample_weight=w)
    repeated = pk.RegressionTree.from_sklearn(reg, np.repeat(X, w, 0), np.repeat(y, w))
    assert weighted.weighted and not repeated.weighted
    assert np.allclose(weighted.moments, repeated.moments)
    assert np.array_equal(pk.cost_complexity_path(weighted).n_leaves,
                          pk.cost_complexity_path(repeated).n_leaves)


def test_a_pruning_of_a_regression_tree_is_a_regression_tree():
    _, tree, X, y = _grown(6)
    pruning = pk.cost_complexity(tree, 0.05)
    small = pruning.to_tree()
    assert isinstance(small, pk.RegressionTree) and small.n_leaves == pruning.n_leaves
    assert np.array_equal(small.predict(X), pruning.predict(X))
    assert pruning.errors() == pytest.approx(np.sum((pruning.predict(X) - y) ** 2))
    with pytest.raises(ValueError, match="labels must be None"):
        pk.Pruning(tree, pruning.kept, labels=np.zeros(tree.n_nodes, int))


def test_classification_only_methods_refuse_a_regression_tree():
    _, tree, X, y = _grown(7, max_leaf_nodes=5)
    for prune in (lambda: pk.minimum_error(tree), lambda: pk.pessimistic(tree),
                  lambda: pk.kearns_mansour(tree, X, y)):
        with pytest.raises(TypeError, match="classification Tree for this method"):
            prune()
    with pytest.raises(TypeError, match="regressor"):
        pk.Tree.from_sklearn(DecisionTreeRegressor().fit(X, y), X, y)
    with pytest.raises(TypeError, match="tree regressor"):
        pk.RegressionTree.from_sklearn(pk.Pruning.full(tree), X, y)


def test_a_sample_the_estimator_was_not_fitted_on_is_refused():
    reg, _, X, y = _grown(8)
    with pytest.raises(ValueError, match="another sample"):
        pk.RegressionTree.from_sklearn(reg, X, y + 1)


# ---------------------------------------------------------------------- cost complexity
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), leaves=st.integers(2, 9), ties=st.booleans())
def test_cost_complexity_is_the_smallest_minimiser_over_every_pruning(seed, leaves, ties):
    _, tree, _, _ = _grown(seed, max_leaf_nodes=leaves, ties=ties, m=40)
    prunings = list(pk.all_prunings(tree))
    sse = np.array([p.errors() for p in prunings])
    sizes = np.array([p.n_leaves for p in prunings])
    path = pk.cost_complexity_path(tree)
    betas = np.append((path.alphas[:-1] + path.alphas[1:]) / 2, path.alphas[-1] * 2 + 1)
    for alpha in np.concatenate([path.alphas, betas]):
        cost = sse / tree.n_samples + alpha * sizes
        best = cost.min()
        tolerance = 1e-9 * (1 + abs(best))
        chosen = pk.cost_complexity(tree, alpha)
        assert chosen.errors() / tree.n_samples + alpha * chosen.n_leaves <= best + tolerance
    # between breakpoints the minimiser is unique up to rounding: it is the chosen one
    for alpha in betas:
        cost = sse / tree.n_samples + alpha * sizes
        assert pk.cost_complexity(tree, alpha) == prunings[int(np.argmin(cost))]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), m=st.integers(20, 120))
def test_the_path_is_scikit_learns_cost_complexity_pruning_path(seed, m):
    """Continuous targets: weakest links that tie exactly (as repeated targets make them)
    differ by rounding, in scikit-learn's sums and in ours, and either may split them."""
    reg, tree, X, y = _grown(seed, m=m)
    theirs = reg.cost_complexity_pruning_path(X, y)
    for risk in ("error", "impurity"):
        path = pk.cost_complexity_path(tree, risk)
        assert np.allclose(path.alphas, np.unique(theirs.ccp_alphas), rtol=1e-9, atol=1e-12)
    # between two alphas, the same subtree as a DecisionTreeRegressor(ccp_alpha=...)
    path = pk.cost_complexity_path(tree)
    for beta in np.append((path.alphas[:-1] + path.alphas[1:]) / 2, path.alphas[-1] + 1):
        pruned = DecisionTreeRegressor(random_state=0, ccp_alpha=beta).fit(X, y)
        ours = path.pruning_at(beta)
        assert ours.n_leaves == pruned.get_n_leaves()
        assert np.allclose(ours.predict(X), pruned.predict(X), rtol=1e-12)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), leaves=st.integers(2, 9), ties=st.booleans())
def test_reduced_error_is_the_smallest_pruning_of_least_pruning_error(seed, leaves, ties):
    _, tree, _, _ = _grown(seed, max_leaf_nodes=leaves, ties=ties, m=40)
    Z, target = _sample(seed + 1, m=30, ties=ties)
    moments = tree.node_moments(Z, target)
    prunings = list(pk.all_prunings(tree))
    sse = np.array([p.errors(moments) for p in prunings])
    assert np.allclose(sse, [np.sum((p.predict(Z) - target) ** 2) for p in prunings])
    chosen = pk.reduced_error(tree, Z, target)
    tolerance = 1e-9 * (1 + sse.min())
    assert chosen.errors(moments) <= sse.min() + tolerance
    assert chosen.n_nodes == min(p.n_nodes for p, e in zip(prunings, sse)
                                 if e <= sse.min() + tolerance)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), leaves=st.integers(2, 9), pruning_sample=st.booleans())
def test_the_best_pruning_of_every_size_over_every_pruning(seed, leaves, pruning_sample):
    _, tree, _, _ = _grown(seed, max_leaf_nodes=leaves, m=40)
    moments = tree.node_moments(*_sample(seed + 1, m=30)) if pruning_sample else None
    profile = pk.best_pruning_by_size(tree, moments)
    prunings = list(pk.all_prunings(tree))
    for size in range(1, tree.n_leaves + 1):
        least = min(p.errors(moments) for p in prunings if p.n_leaves == size)
        assert profile.errors[size - 1] == pytest.approx(least, rel=1e-9, abs=1e-9)
        found = profile.pruning(size)
        assert found.n_leaves == size
        assert found.errors(moments) == pytest.approx(least, rel=1e-9, abs=1e-9)


def test_reduced_error_of_a_regression_tree_keeps_growing_means():
    _, tree, X, y = _grown(14)
    with pytest.raises(ValueError, match="labels must be 'growing'"):
        pk.reduced_error(tree, X, y, labels="pruning")
    # on its own growing sample REP keeps every split that lowers the squared error
    assert pk.reduced_error(tree, X, y).n_leaves == tree.n_leaves


# ---------------------------------------------------------------------- choosing alpha
def test_the_hold_out_error_of_every_step_is_its_mean_squared_error():
    _, tree, _, _ = _grown(9)
    Z, target = _sample(10, m=80)
    selection = pk.holdout_alpha(tree, Z, target)
    path = selection.path
    errors = [path.pruning(k).error(Z, target) for k in range(len(path))]
    assert np.allclose(selection.error, errors)
    squared = [(path.pruning(k).predict(Z) - target) ** 2 for k in range(len(path))]
    assert np.allclose(selection.standard_error,
                       [e.std() / np.sqrt(len(e)) for e in squared])
    assert selection.error[selection.best] == pytest.approx(min(errors))


def test_cross_validated_error_counts_every_example_once():
    from sklearn.model_selection import KFold

    X, y = _sample(11, m=90)
    grower = DecisionTreeRegressor(random_state=0)
    selection = pk.cross_validate_alpha(X, y, grower, cv=3, random_state=0)
    path, betas = selection.path, selection.betas
    squared = np.zeros((len(path), len(y)))
    for train, test in KFold(3, shuffle=True, random_state=0).split(X):
        fold = pk.RegressionTree.from_sklearn(
            DecisionTreeRegressor(random_state=0).fit(X[train], y[train]),
            X[train], y[train])
        fold_path = pk.cost_complexity_path(fold)
        for k, beta in enumerate(betas):
            alpha = beta if np.isfinite(beta) else fold_path.alphas[-1]
            squared[k, test] = (fold_path.pruning_at(alpha).predict(X[test]) - y[test]) ** 2
    assert np.allclose(selection.error, squared.mean(axis=1))
    assert np.allclose(selection.standard_error, squared.std(axis=1) / np.sqrt(len(y)))


# ---------------------------------------------------------------------- the estimator
def test_the_regressor_prunes_with_the_one_se_rule_by_default():
    X, y = _sample(12, m=200)
    model = pk.PrunedTreeRegressor(random_state=0).fit(X, y)
    selection = pk.cross_validate_alpha(X, y, DecisionTreeRegressor(random_state=0),
                                        random_state=0)
    assert model.pruner_.rule == "1-SE"
    assert model.pruner_.alpha_ == selection.alpha_one_se
    assert model.pruning_ == pk.cost_complexity(model.tree_, selection.alpha_one_se)
    assert np.array_equal(model.predict(X), model.pruning_.predict(X))
    assert model.get_n_leaves() < model.tree_.n_leaves


def test_the_regressor_holds_out_a_pruning_sample_for_reduced_error():
    X, y = _sample(15, m=300)
    model = pk.PrunedTreeRegressor(pruner=pk.ReducedErrorPruner(prune_size=0.25),
                                   random_state=0).fit(X, y)
    assert model.tree_.n_samples == 225
    assert model.get_n_leaves() < model.tree_.n_leaves


def test_the_regressor_refuses_classification_pruners():
    X, y = _sample(13)
    with pytest.raises(TypeError, match="defined for regression trees"):
        pk.PrunedTreeRegressor(pruner=pk.PessimisticPruner()).fit(X, y)


def _regressors():
    return [pk.PrunedTreeRegressor(random_state=0),
            pk.PrunedTreeRegressor(pruner=pk.CostComplexityPruner(alpha=0.01),
                                   random_state=0),
            pk.PrunedTreeRegressor(pruner=pk.ReducedErrorPruner(), random_state=0),
            pk.PrunedTreeRegressor(pruner=pk.GeyNedelecPruner(), min_samples_leaf=3,
                                   random_state=0)]


def _regression_expected_failures(estimator) -> dict:
    if estimator.pruner is None or estimator.pruner.uses_pruning_sample():
        reason = "hold-out and folds split rows: a weight of 2 is not a repeated row"
    elif estimator.min_samples_leaf > 1:
        reason = "min_samples_leaf counts rows, as scikit-learn's grower does, not weight"
    else:
        return {}
    return {name: reason for name in ("check_sample_weight_equivalence_on_dense_data",
                                      "check_sample_weight_equivalence_on_sparse_data")}


@parametrize_with_checks(_regressors(), expected_failed_checks=_regression_expected_failures)
def test_scikit_learn_estimator_checks_regression(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check(estimator)


def test_the_regressors_importances_are_the_unpruned_growers():
    X, y = _sample(16, m=200)
    model = pk.PrunedTreeRegressor(pruner=pk.CostComplexityPruner(alpha=0.0),
                                   random_state=0).fit(X, y)
    grower = DecisionTreeRegressor(random_state=0).fit(X, y)
    assert np.allclose(model.feature_importances_, grower.feature_importances_)


def test_a_classifier_given_a_quantity_suggests_the_regressor():
    X, y = _sample(17, m=100)
    with pytest.warns(UserWarning, match="PrunedTreeRegressor"):
        pk.PrunedTreeClassifier(pruner=pk.CostComplexityPruner(),
                                random_state=0).fit(X, np.round(100 * y))


def test_a_regression_tree_pickles_and_renames():
    import pickle

    _, tree, X, _ = _grown(18, max_leaf_nodes=6)
    copy = pickle.loads(pickle.dumps(tree))
    assert copy == tree and copy is not tree
    assert np.array_equal(copy.predict(X), tree.predict(X))
    named = tree.with_feature_names(["a", "b", "c"])
    assert named.feature_names == ("a", "b", "c") and tree.feature_names is None
    with pytest.raises(AttributeError, match="immutable"):
        tree.weighted = True


def test_cross_validation_takes_a_regression_scorer():
    X, y = _sample(19, m=120)
    grower = DecisionTreeRegressor(random_state=0)
    scored = pk.cross_validate_alpha(X, y, grower, cv=3, scoring="r2")
    assert scored.method == "CV r2"
    assert np.all(scored.error <= 1.5) and 0 <= scored.best < len(scored.path)


# ---------------------------------------------------------------------- prunekit's own grower
@pytest.mark.parametrize("seed", range(8))
def test_grow_tree_with_squared_error_is_scikit_learns_tree(seed):
    """Without ties between candidate splits (five or more examples per leaf keeps a node
    from isolating one example in several equivalent ways), the grower's tree is
    DecisionTreeRegressor's, node for node."""
    X, y = _sample(seed, m=300)
    for params in (dict(min_samples_leaf=5), dict(min_samples_leaf=9, max_depth=4)):
        ours = pk.grow_tree(X, y, criterion="squared_error", **params)
        sk = DecisionTreeRegressor(random_state=0, **params).fit(X, y)
        assert ours == pk.RegressionTree.from_sklearn(sk, X, y)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), m=st.integers(2, 12), leaf=st.integers(1, 3))
def test_the_squared_error_split_is_the_best_of_all_thresholds(seed, m, leaf):
    from prunekit.growing import best_squared_error_split

    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, size=(m, 2)).astype(float)
    y = rng.normal(size=m)
    split = best_squared_error_split(X, y, leaf)

    def decrease(f, t):
        left = X[:, f] <= t
        sse = lambda v: float(((v - v.mean()) ** 2).sum()) if len(v) else 0.0  # noqa: E731
        return sse(y) - sse(y[left]) - sse(y[~left])

    candidates = [decrease(f, t) for f in range(2) for t in np.unique(X[:, f])[:-1]
                  if leaf <= np.sum(X[:, f] <= t) <= m - leaf]
    if not candidates:
        assert split.feature == -1
    else:
        assert split.gain * m == pytest.approx(max(candidates), abs=1e-9)
        assert decrease(split.feature, split.threshold) == pytest.approx(max(candidates),
                                                                         abs=1e-9)


def test_the_grower_refuses_labels_for_squared_error_and_points_numbers_to_it():
    X, y = _sample(20, m=40)
    with pytest.raises(TypeError, match="y"):
        pk.grow_tree(X, np.array(["a", "b"] * 20), criterion="squared_error")
    with pytest.raises(ValueError, match="squared_error"):
        pk.grow_tree(X, y)
