"""The fixed penalty c sigma^2 |T| log(n) / n for regression trees: the noise variance
estimated from the leaves, the pruning against brute force over all prunings, and a
piecewise-constant function whose pieces it recovers."""

import math

import numpy as np
import pytest
from sklearn.tree import DecisionTreeRegressor

import prunekit as pk


def _grown(seed, m=80, min_samples_leaf=2, max_leaf_nodes=None):
    rng = np.random.default_rng(seed)
    X = rng.uniform(size=(m, 2))
    y = np.where(X[:, 0] < 0.5, 0.0, 2.0) + rng.normal(size=m)
    grower = DecisionTreeRegressor(min_samples_leaf=min_samples_leaf,
                                   max_leaf_nodes=max_leaf_nodes, random_state=0)
    return pk.RegressionTree.from_sklearn(grower.fit(X, y), X, y), X, y


def test_the_residual_variance_is_the_leaves_squared_errors_over_n_minus_leaves():
    tree, X, y = _grown(0)
    leaf = tree.apply(X)
    means = {v: y[leaf == v].mean() for v in np.unique(leaf)}
    squared = sum((y[i] - means[leaf[i]]) ** 2 for i in range(len(y)))
    expected = squared / (len(y) - tree.n_leaves)
    assert pk.residual_variance(tree) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("constant", [0.5, 2.0])
def test_the_pruning_minimises_the_penalised_risk_over_all_prunings(seed, constant):
    tree, _, _ = _grown(seed, m=40, max_leaf_nodes=8)
    sigma2 = pk.residual_variance(tree)
    pruned = pk.gey_nedelec(tree, constant=constant)
    n = tree.n_samples
    per_leaf = constant * sigma2 * math.log(n) / n

    def objective(pruning):
        return pruning.errors() / n + per_leaf * pruning.n_leaves

    best = min(objective(p) for p in pk.all_prunings(tree))
    assert objective(pruned) == pytest.approx(best, rel=1e-12, abs=1e-15)
    assert pruned.n_leaves == min(p.n_leaves for p in pk.all_prunings(tree)
                                  if objective(p) <= best * (1 + 1e-12) + 1e-15)


def test_it_recovers_the_pieces_of_a_step_function():
    """Four constant pieces, unit noise: the penalty with the known variance, and with the
    estimated one, prunes a tree of dozens of leaves back to the four pieces."""
    rng = np.random.default_rng(0)
    X = rng.uniform(size=(4000, 1))
    y = 3.0 * np.floor(4 * X[:, 0]) + rng.normal(size=4000)
    grower = DecisionTreeRegressor(min_samples_leaf=10, random_state=0).fit(X, y)
    tree = pk.RegressionTree.from_sklearn(grower, X, y)
    assert tree.n_leaves > 50
    assert pk.gey_nedelec(tree, sigma2=1.0).n_leaves == 4
    assert pk.gey_nedelec(tree).n_leaves == 4
    # a little below 1: the grown leaves were fitted to the noise as well
    assert 0.85 < pk.residual_variance(tree) < 1.0


def test_the_pruner_records_its_variance_and_alpha_and_prunes_as_the_function():
    tree, X, y = _grown(1)
    pruner = pk.GeyNedelecPruner(constant=1.0)
    pruning = pruner(tree, X, y)
    assert pruning == pk.gey_nedelec(tree, constant=1.0)
    assert pruner.sigma2_ == pk.residual_variance(tree)
    assert pruner.alpha_ == pk.gey_nedelec_alpha(tree.n_samples, pruner.sigma2_, 1.0)
    assert pruning == pk.cost_complexity(tree, pruner.alpha_)
