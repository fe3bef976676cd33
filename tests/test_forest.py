"""prune_forest: every tree of a fitted scikit-learn forest pruned on its own rows (bootstrap
or out-of-bag), through the forest's public estimators_samples_; the pruned forest predicts
as its pruned trees vote."""

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import ExtraTreesClassifier, RandomForestClassifier

from sklearn.utils.class_weight import compute_sample_weight

import prunekit as pk


@pytest.fixture(scope="module")
def data():
    X, y = load_breast_cancer(return_X_y=True)
    return X, np.where(y == 1, "benign", "malignant")           # labels other than 0..K-1


@pytest.fixture(scope="module")
def forest(data):
    return RandomForestClassifier(n_estimators=8, max_features="sqrt", random_state=0).fit(*data)


def _pruned_trees(forest, X, y, pruner):
    """Each tree converted and pruned by hand, the way the docstring says."""
    codes = np.searchsorted(forest.classes_, y)
    for estimator, rows in zip(forest.estimators_, forest.estimators_samples_):
        tree = pk.Tree.from_sklearn(estimator, X[rows], codes[rows].astype(float))
        if pruner.uses_pruning_sample():
            out = np.setdiff1d(np.arange(len(y)), rows)
            yield pruner.prune(tree, X[out], codes[out].astype(float))
        else:
            yield pruner(tree, X[rows], codes[rows].astype(float))


@pytest.mark.parametrize("pruner", [pk.ReducedErrorPruner(), pk.ErrorBasedPruner(),
                                    pk.CostComplexityPruner(alpha=0.01)],
                         ids=["out-of-bag REP", "EBP with raising", "fixed alpha"])
def test_the_pruned_forest_predicts_as_its_pruned_trees_vote(forest, data, pruner):
    X, y = data
    pruned = pk.prune_forest(forest, X, y, pruner=pruner)
    prunings = list(_pruned_trees(forest, X, y, pruner))
    assert [t.get_n_leaves() for t in pruned.estimators_] == [p.n_leaves for p in prunings]
    votes = np.mean([pk.Pruning.to_sklearn(p).predict_proba(X) for p in prunings], axis=0)
    assert np.allclose(pruned.predict_proba(X), votes)
    assert np.array_equal(pruned.predict(X), forest.classes_[votes.argmax(axis=1)])
    assert pruned is not forest and forest.estimators_[0].get_n_leaves() > pruned.estimators_[
        0].get_n_leaves()
    # the trees keep their parameters, so the forest's own bookkeeping still holds
    for old, new in zip(forest.estimators_, pruned.estimators_):
        assert new.get_params() == old.get_params()
    for old, new in zip(forest.estimators_samples_, pruned.estimators_samples_):
        assert np.array_equal(old, new)


def test_an_unpruned_forest_comes_back_unchanged(forest, data):
    class KeepEverything(pk.Pruner):
        def prune(self, tree, X_prune, y_prune):
            return pk.Pruning.full(tree)

    X, y = data
    same = pk.prune_forest(forest, X, y, pruner=KeepEverything())
    assert np.allclose(same.predict_proba(X), forest.predict_proba(X))


def test_the_cross_validated_pruner_grows_its_folds_like_the_forests_trees(forest, data):
    X, y = data
    pruned = pk.prune_forest(forest, X, y, pruner=pk.CrossValidatedCostComplexityPruner(cv=3))
    assert sum(t.get_n_leaves() for t in pruned.estimators_) < sum(
        t.get_n_leaves() for t in forest.estimators_)


def test_bad_forests_and_pruners_get_clear_errors(forest, data):
    X, y = data
    extra = ExtraTreesClassifier(n_estimators=2, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="saw every row .* such as ErrorBasedPruner"):
        pk.prune_forest(extra, X, y)
    assert len(pk.prune_forest(extra, X, y, pruner=pk.ErrorBasedPruner()).estimators_) == 2
    with pytest.raises(TypeError, match="forest must be a fitted scikit-learn forest"):
        pk.prune_forest(forest.estimators_[0], X, y)
    with pytest.raises(TypeError, match="pruner must be a prunekit Pruner"):
        pk.prune_forest(forest, X, y, pruner="rep")
    with pytest.raises(ValueError, match="labels the forest was not fitted on"):
        pk.prune_forest(forest, X, np.where(y == "benign", "b", "m"))
    weighted = RandomForestClassifier(n_estimators=2, class_weight="balanced",
                                      random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="NobelPruner does not take weights"):
        pk.prune_forest(weighted, X, y, pruner=pk.NobelPruner(case="independent"))
    from sklearn.exceptions import NotFittedError
    with pytest.raises(NotFittedError):
        pk.prune_forest(RandomForestClassifier(), X, y)


@pytest.mark.parametrize("class_weight", [None, "balanced", {"benign": 3, "malignant": 1}])
def test_a_weighted_forest_s_trees_are_pruned_on_weighted_out_of_bag_rows(data, class_weight):
    X, y = data
    sample_weight = np.random.default_rng(0).uniform(0.5, 2, len(y))
    forest = RandomForestClassifier(n_estimators=4, class_weight=class_weight,
                                    random_state=0).fit(X, y, sample_weight=sample_weight)
    seen = []

    class KeepEverything(pk.HoldoutPruner):
        def prune(self, tree, X_prune, y_prune, sample_weight=None):
            seen.append(sample_weight)
            return pk.Pruning.full(tree)

    same = pk.prune_forest(forest, X, y, pruner=KeepEverything(),
                           sample_weight=sample_weight)
    assert np.allclose(same.predict_proba(X), forest.predict_proba(X))
    expected = sample_weight * (1 if class_weight is None
                                else compute_sample_weight(class_weight, y))
    out_of_bag = np.setdiff1d(np.arange(len(y)), forest.estimators_samples_[0])
    np.testing.assert_allclose(seen[0], expected[out_of_bag])
    pruned = pk.prune_forest(forest, X, y, sample_weight=sample_weight)
    assert sum(t.get_n_leaves() for t in pruned.estimators_) < sum(
        t.get_n_leaves() for t in forest.estimators_)
    with pytest.raises(ValueError, match="NobelPruner does not take weights"):
        pk.prune_forest(forest, X, y, pruner=pk.NobelPruner(case="independent"),
                        sample_weight=sample_weight)


@pytest.mark.parametrize("options", [{"class_weight": "balanced_subsample"},
                                     {"class_weight": "balanced", "bootstrap": False}])
def test_a_forest_whose_trees_were_fitted_with_weights_is_refused(data, options):
    X, y = data
    forest = RandomForestClassifier(n_estimators=2, random_state=0, **options).fit(X, y)
    with pytest.raises(ValueError, match="only with bootstrap=True and a class_weight other"):
        pk.prune_forest(forest, X, y, pruner=pk.ErrorBasedPruner())
