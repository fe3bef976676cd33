"""PrunedTreeClassifier with every pruner: scikit-learn's checks, model selection, held-out
pruning samples, and pruners that return the wrong thing."""

import math

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.model_selection import GridSearchCV, train_test_split
from sklearn.utils.estimator_checks import parametrize_with_checks

import prunekit as pk

PRUNERS = [pk.PessimisticPruner(), pk.PessimisticPruner(order="bottom-up"),
           pk.MinimumErrorPruner(), pk.MinimumErrorPruner(m=2.0),
           pk.CriticalValuePruner(), pk.ReducedErrorPruner(prune_size=0.25),
           pk.ErrorBasedPruner(), pk.ErrorBasedPruner(subtree_raising=False)]


@parametrize_with_checks([pk.PrunedTreeClassifier(pruner, random_state=0) for pruner in PRUNERS])
def test_scikit_learn_estimator_checks(estimator, check):
    check(estimator)


@pytest.fixture(scope="module")
def data():
    return make_classification(400, 6, n_informative=4, flip_y=0.2, random_state=0)


def test_each_pruner_gives_the_function_s_pruning(data):
    X, y = data
    cases = [
        (pk.PessimisticPruner(), lambda t: pk.pessimistic(t)),
        (pk.PessimisticPruner(order="bottom-up"), lambda t: pk.pessimistic(t, order="bottom-up")),
        (pk.MinimumErrorPruner(), lambda t: pk.minimum_error(t)),
        (pk.MinimumErrorPruner(m=3, prior=[0.3, 0.7]),
         lambda t: pk.minimum_error(t, m=3, prior=[0.3, 0.7])),
        (pk.ErrorBasedPruner(confidence=0.1, subtree_raising=False),
         lambda t: pk.error_based(t, confidence=0.1)),
    ]
    for pruner, function in cases:
        fitted = pk.PrunedTreeClassifier(pruner, random_state=0).fit(X, y)
        assert fitted.tree_.n_samples == len(y)
        assert fitted.pruning_ == function(fitted.tree_)
        np.testing.assert_array_equal(fitted.predict(X), fitted.pruning_.predict(X))


def test_subtree_raising_replaces_the_tree(data):
    X, y = data
    fitted = pk.PrunedTreeClassifier(pk.ErrorBasedPruner(confidence=0.25), random_state=0).fit(X, y)
    grown = pk.PrunedTreeClassifier(pk.CostComplexityPruner(), random_state=0).fit(X, y).tree_
    raised = pk.error_based_raising(grown, X, y, confidence=0.25)
    assert fitted.pruning_ == pk.Pruning.full(fitted.tree_)
    np.testing.assert_array_equal(fitted.tree_.counts, raised.counts)
    np.testing.assert_array_equal(fitted.tree_.left, raised.left)
    np.testing.assert_array_equal(fitted.predict(X), raised.predict(X))


def test_holdout_pruners_grow_on_one_part_and_prune_on_the_other(data):
    X, y = data
    for pruner, function in ((pk.CriticalValuePruner(measure="gini", prune_size=0.25),
                              lambda t, Xp, yp: pk.critical_value(t, Xp, yp, measure="gini")),
                             (pk.ReducedErrorPruner(prune_size=100),
                              lambda t, Xp, yp: pk.reduced_error(t, Xp, yp))):
        fitted = pk.PrunedTreeClassifier(pruner, random_state=3).fit(X, y)
        n_prune = pruner.prune_size if isinstance(pruner.prune_size, int) else math.ceil(
            pruner.prune_size * len(y))
        X_grow, X_prune, y_grow, y_prune = train_test_split(X, y, test_size=n_prune,
                                                            random_state=3)
        assert fitted.tree_.n_samples == len(y) - n_prune
        np.testing.assert_array_equal(fitted.tree_.counts, fitted.tree_.node_counts(X_grow, y_grow))
        assert fitted.pruning_ == function(fitted.tree_, X_prune, y_prune)


def test_the_split_is_seeded(data):
    X, y = data
    def counts(pruner, seed):
        return pk.PrunedTreeClassifier(pruner, random_state=seed).fit(X, y).tree_.counts[0]
    # without its own random_state the pruner takes the classifier's
    np.testing.assert_array_equal(counts(pk.CriticalValuePruner(), 0),
                                  counts(pk.CriticalValuePruner(), 0))
    assert not np.array_equal(counts(pk.CriticalValuePruner(), 0),
                              counts(pk.CriticalValuePruner(), 1))
    # its own random_state wins over the classifier's
    np.testing.assert_array_equal(counts(pk.CriticalValuePruner(random_state=5), 0),
                                  counts(pk.CriticalValuePruner(random_state=5), 1))


def test_a_class_only_in_the_pruning_sample_is_counted(data):
    X, y = data
    y = y.copy()
    y[7] = 2            # a single example of class 2
    _, X_prune, _, _ = train_test_split(X, y, test_size=120, random_state=0)
    assert any(np.array_equal(row, X[7]) for row in X_prune)
    fitted = pk.PrunedTreeClassifier(pk.ReducedErrorPruner(prune_size=120), random_state=0).fit(X, y)
    assert fitted.tree_.n_classes == 3 and fitted.classes_.tolist() == [0, 1, 2]
    assert fitted.tree_.counts[0, 2] == 0


def test_model_selection_reaches_the_pruner_parameters(data):
    X, y = data
    grids = [
        (pk.MinimumErrorPruner(), {"pruner__m": [None, 0.5, 8.0]}),
        (pk.ErrorBasedPruner(), {"pruner__confidence": [0.05, 0.25, 0.5],
                                 "pruner__subtree_raising": [False, True]}),
        (pk.CriticalValuePruner(), {"pruner__measure": ["entropy", "chi2"],
                                    "pruner__prune_size": [0.2, 0.4]}),
        (pk.PessimisticPruner(), {"pruner__order": ["top-down", "bottom-up"]}),
    ]
    for pruner, grid in grids:
        search = GridSearchCV(pk.PrunedTreeClassifier(pruner, random_state=0), grid, cv=3)
        search.fit(X, y)
        for name, values in grid.items():
            assert search.best_params_[name] in values
        assert len(search.cv_results_["params"]) == math.prod(len(v) for v in grid.values())


class ReturnsNone(pk.Pruner):
    def prune(self, tree, X, y):
        return None


class PrunesAnotherTree(pk.Pruner):
    def prune(self, tree, X, y):
        other = pk.Tree.from_arrays(tree.left, tree.right, tree.counts, tree.feature,
                                    tree.threshold, classes=tree.classes_)
        return pk.Pruning.full(other)


class RestructuresIntoNothing(pk.Pruner):
    def restructure(self, tree, X, y):
        return "tree"

    def prune(self, tree, X, y):
        return pk.Pruning.full(tree)


def test_fit_refuses_pruners_that_return_the_wrong_thing(data):
    X, y = data
    with pytest.raises(TypeError, match="ReturnsNone.prune must return a prunekit Pruning, got NoneType"):
        pk.PrunedTreeClassifier(ReturnsNone()).fit(X, y)
    with pytest.raises(ValueError, match="PrunesAnotherTree.prune returned a Pruning of another tree"):
        pk.PrunedTreeClassifier(PrunesAnotherTree()).fit(X, y)
    with pytest.raises(TypeError, match="restructure must return a prunekit Tree, got str"):
        pk.PrunedTreeClassifier(RestructuresIntoNothing()).fit(X, y)
    with pytest.raises(NotImplementedError, match="Pruner does not define prune"):
        pk.PrunedTreeClassifier(pk.Pruner()).fit(X, y)


def test_bad_pruner_parameters(data):
    X, y = data
    for size in (0, 0.0, 1.0, -0.2, 400, 1000):
        with pytest.raises(ValueError, match="prune_size"):
            pk.PrunedTreeClassifier(pk.CriticalValuePruner(prune_size=size)).fit(X, y)
    for size in ("0.3", None, True):
        with pytest.raises(TypeError, match="prune_size must be a float in"):
            pk.PrunedTreeClassifier(pk.ReducedErrorPruner(prune_size=size)).fit(X, y)
    with pytest.raises(ValueError, match="m must be a finite number"):
        pk.PrunedTreeClassifier(pk.MinimumErrorPruner(m=-1)).fit(X, y)
    with pytest.raises(ValueError, match="measure must be one of"):
        pk.PrunedTreeClassifier(pk.CriticalValuePruner(measure="gain")).fit(X, y)
    with pytest.raises(ValueError, match="confidence"):
        pk.PrunedTreeClassifier(pk.ErrorBasedPruner(confidence=1.5)).fit(X, y)
    with pytest.raises(TypeError, match="subtree_raising must be True or False"):
        pk.PrunedTreeClassifier(pk.ErrorBasedPruner(subtree_raising="yes")).fit(X, y)
    with pytest.raises(ValueError, match="n_samples=1"):
        pk.PrunedTreeClassifier(pk.CriticalValuePruner()).fit(X[:1], y[:1])
