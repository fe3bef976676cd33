"""Weights across the library: weighted counts (``Tree.weighted``) and every pruner that takes
them, against their meaning (an integer weight w is the example repeated w times), and the
classifier's ``class_weight`` and ``sample_weight``."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import make_classification
from sklearn.metrics import balanced_accuracy_score
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.class_weight import compute_sample_weight
from strategies import random_trees

import prunekit as pk


def _recounted(tree, X, y, weights=None):
    """``tree``'s shape and split rules with the class counts of ``(X, y, weights)``."""
    counts = tree.node_counts(X, y, sample_weight=weights)
    return pk.Tree.from_arrays(tree.left, tree.right, counts, tree.feature, tree.threshold,
                               n_features=tree.n_features, weighted=weights is not None)


@st.composite
def weighted_samples(draw):
    """A random tree, a sample of 40 examples with integer weights 0-3, and the same sample
    with each example repeated as many times as its weight."""
    tree = draw(random_trees(max_leaves=10))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    X = rng.uniform(-1.2, 1.2, size=(40, tree.n_features))
    y = rng.integers(0, tree.n_classes, 40)
    w = rng.integers(0, 4, 40)
    if w.sum() == 0:
        w[0] = 1
    return tree, X, y, w, np.repeat(X, w, axis=0), np.repeat(y, w)


# The pruners that judge the growing counts, as functions of a tree.
SAME_SAMPLE = {
    "cost complexity": lambda t: pk.cost_complexity(t, 0.05),
    "PEP top-down": lambda t: pk.pessimistic(t),
    "PEP bottom-up": lambda t: pk.pessimistic(t, order="bottom-up"),
    "MEP Laplace": lambda t: pk.minimum_error(t),
    "MEP m=2": lambda t: pk.minimum_error(t, m=2.0),
    "error-based": lambda t: pk.error_based(t),
}


@settings(max_examples=60, deadline=None)
@given(weighted_samples())
def test_integer_weights_prune_as_repeated_examples(sample):
    tree, X, y, w, X_rep, y_rep = sample
    weighted, repeated = _recounted(tree, X, y, w), _recounted(tree, X_rep, y_rep)
    assert weighted.weighted and not repeated.weighted
    np.testing.assert_array_equal(weighted.counts, repeated.counts)
    for name, prune in SAME_SAMPLE.items():
        np.testing.assert_array_equal(prune(weighted).kept, prune(repeated).kept, name)
    np.testing.assert_array_equal(pk.cost_complexity_path(weighted).alphas,
                                  pk.cost_complexity_path(repeated).alphas)
    raised_w = pk.error_based_raising(weighted, X, y, sample_weight=w)
    raised_r = pk.error_based_raising(repeated, X_rep, y_rep)
    assert raised_w.weighted
    np.testing.assert_array_equal(raised_w.counts, raised_r.counts)
    np.testing.assert_array_equal(raised_w.left, raised_r.left)
    # the pruning sample's weights, on a tree grown without them
    for labels in ("growing", "pruning"):
        assert (pk.reduced_error(tree, X, y, labels, sample_weight=w)
                == pk.reduced_error(tree, X_rep, y_rep, labels))
    assert (pk.critical_value(tree, X, y, sample_weight=w)
            == pk.critical_value(tree, X_rep, y_rep))
    chosen_w = pk.holdout_alpha(tree, X, y, sample_weight=w)
    chosen_r = pk.holdout_alpha(tree, X_rep, y_rep)
    np.testing.assert_allclose(chosen_w.error, chosen_r.error)
    assert chosen_w.best == chosen_r.best


@settings(max_examples=40, deadline=None)
@given(weighted_samples(), st.sampled_from([2.0**-10, 0.25, 0.5, 4.0, 2.0**20]))
def test_scaling_the_weights_changes_no_choice_made_on_error_rates(sample, scale):
    """Cost complexity compares error rates, REP and CVP least-error prunings: weights
    times a constant choose the same pruning (a power of two, so that floating point keeps
    every tie; fractional weights tie as their floating-point sums do)."""
    tree, X, y, w, _, _ = sample
    scaled = w * scale
    weighted, rescaled = _recounted(tree, X, y, w), _recounted(tree, X, y, scaled)
    for alpha in (0.0, 0.02, 0.1):
        np.testing.assert_array_equal(pk.cost_complexity(weighted, alpha).kept,
                                      pk.cost_complexity(rescaled, alpha).kept)
    assert (pk.reduced_error(tree, X, y, sample_weight=w)
            == pk.reduced_error(tree, X, y, sample_weight=scaled))
    assert (pk.critical_value(tree, X, y, sample_weight=w)
            == pk.critical_value(tree, X, y, sample_weight=scaled))


def test_weights_are_rounded_so_that_their_sums_are_exact():
    raw = np.random.default_rng(0).uniform(0, 3, 1000)
    assert (raw[0] + raw[1]) + raw[2] != raw[0] + (raw[1] + raw[2])
    w = pk.validation.check_sample_weight(raw, 1000)
    np.testing.assert_allclose(w, raw, rtol=0, atol=1e-12)
    for i in range(998):                               # any order of additions
        assert (w[i] + w[i + 1]) + w[i + 2] == w[i] + (w[i + 1] + w[i + 2])
    assert w.sum() == np.sort(w).sum() == w[::-1].cumsum()[-1]
    tree = pk.Tree.from_arrays([1, -1, -1], [2, -1, -1], [[1, 1], [1, 0], [0, 1]],
                               feature=[0, -1, -1], threshold=[0.5, 0, 0])
    X, y = [[0.0], [0.0], [1.0], [1.0]], [0, 1, 1, 0]
    # the root errs on the two of class 0 as a leaf of class 1, the leaves on one each
    assert pk.reduced_error(tree, X, y, labels="pruning",
                            sample_weight=[0.5, 0.3, 0.1, 0.7]).n_leaves == 1


# ---------------------------------------------------------------------- the bounds refuse
@pytest.mark.parametrize("prune", [
    lambda t, X, y: pk.kearns_mansour(t),
    lambda t, X, y: pk.nobel(t),
    lambda t, X, y: pk.best_pruning_by_size(t),
    lambda t, X, y: pk.k_reduced_error(t, X, y, k=2),
    lambda t, X, y: pk.rademacher_penalty(t, X, y, random_state=0),
], ids=["Kearns-Mansour", "Nobel", "best by size", "k-REP", "Rademacher"])
def test_the_pruners_whose_bounds_count_examples_refuse_a_weighted_tree(prune):
    X, y = make_classification(200, 4, random_state=0)
    grower = DecisionTreeClassifier(max_depth=4, class_weight="balanced", random_state=0)
    tree = pk.Tree.from_sklearn(grower.fit(X, y), X, y)
    with pytest.raises(ValueError, match="does not take weights: its bound is stated for a "
                                         "number of examples"):
        prune(tree, X, y)


@pytest.mark.parametrize("pruner", [pk.KearnsMansourPruner(), pk.NobelPruner(),
                                    pk.KReducedErrorPruner(), pk.RademacherBoundPruner()],
                         ids=lambda p: type(p).__name__)
def test_the_classifier_refuses_weights_for_them_before_growing(pruner):
    X, y = make_classification(100, 4, random_state=0)
    model = pk.PrunedTreeClassifier(pruner=pruner, class_weight="balanced")
    with pytest.raises(ValueError, match=f"{type(pruner).__name__} does not take weights"):
        model.fit(X, y)
    with pytest.raises(ValueError, match="stated for a number of examples"):
        model.set_params(class_weight=None).fit(X, y, sample_weight=np.ones(100))


def test_a_pruner_of_one_s_own_without_sample_weight_is_refused_weights_by_name():
    class DepthPruner(pk.Pruner):
        def prune(self, tree, X_prune, y_prune):
            return pk.Pruning.from_collapsed(tree, tree.depth >= 2)

    X, y = make_classification(100, 4, random_state=0)
    model = pk.PrunedTreeClassifier(pruner=DepthPruner())
    assert model.fit(X, y).get_depth() == 2
    with pytest.raises(ValueError, match="its prune method has no sample_weight parameter"):
        model.fit(X, y, sample_weight=np.ones(100))


# ---------------------------------------------------------------------- the classifier
@pytest.fixture(scope="module")
def imbalanced():
    return make_classification(600, 6, n_informative=4, weights=[0.9, 0.1], flip_y=0.05,
                               random_state=1)


@pytest.mark.parametrize("pruner", [None, pk.CostComplexityPruner(alpha=0.005),
                                    pk.ReducedErrorPruner(), pk.PessimisticPruner(),
                                    pk.ErrorBasedPruner()],
                         ids=lambda p: type(p).__name__)
def test_class_weight_is_sample_weight_by_class(imbalanced, pruner):
    X, y = imbalanced
    by_class = pk.PrunedTreeClassifier(pruner=pruner, class_weight="balanced",
                                       random_state=0).fit(X, y)
    by_example = pk.PrunedTreeClassifier(pruner=pruner, random_state=0).fit(
        X, y, sample_weight=compute_sample_weight("balanced", y))
    assert by_class.tree_.weighted and by_class.tree_ == by_example.tree_
    assert by_class.pruning_ == by_example.pruning_
    np.testing.assert_array_equal(by_class.predict_proba(X), by_example.predict_proba(X))
    # and the pruned tree goes back to scikit-learn with its weighted leaves
    np.testing.assert_allclose(by_class.to_sklearn().predict_proba(X), by_class.predict_proba(X))


def test_a_grower_s_class_weight_weighs_the_pruning_too(imbalanced):
    X, y = imbalanced
    grower = DecisionTreeClassifier(class_weight="balanced")
    own = pk.PrunedTreeClassifier(grower=grower, random_state=0).fit(X, y)
    given = pk.PrunedTreeClassifier(class_weight="balanced", random_state=0).fit(X, y)
    assert own.pruning_ == given.pruning_


def test_balanced_weights_find_the_rare_class(imbalanced):
    X, y = imbalanced
    X_test, y_test = X[400:], y[400:]
    plain = pk.PrunedTreeClassifier(random_state=0).fit(X[:400], y[:400])
    balanced = pk.PrunedTreeClassifier(class_weight="balanced", random_state=0).fit(
        X[:400], y[:400])
    rare = y_test == 1
    assert (balanced.predict(X_test[rare]) == 1).mean() > (plain.predict(X_test[rare]) == 1).mean()
    assert (balanced_accuracy_score(y_test, balanced.predict(X_test))
            > balanced_accuracy_score(y_test, plain.predict(X_test)))


def test_unit_weights_change_nothing_in_cross_validation(imbalanced):
    X, y = imbalanced
    plain = pk.cross_validate_alpha(X, y, cv=5)
    unit = pk.cross_validate_alpha(X, y, cv=5, sample_weight=np.ones(len(y)))
    np.testing.assert_allclose(unit.error, plain.error)
    np.testing.assert_allclose(unit.standard_error, plain.standard_error)
    scored = pk.cross_validate_alpha(X, y, cv=5, scoring="balanced_accuracy",
                                     sample_weight=np.ones(len(y)))
    assert scored.best == pk.cross_validate_alpha(X, y, cv=5,
                                                  scoring="balanced_accuracy").best


def test_a_pruner_called_as_a_function_takes_the_weights_of_its_sample(imbalanced):
    X, y = imbalanced
    w = 1.5 * compute_sample_weight("balanced", y)         # 1.5 x the examples
    grower = DecisionTreeClassifier(random_state=0)
    tree = pk.Tree.from_sklearn(grower.fit(X, y, sample_weight=w), X, y, sample_weight=w)
    pruner = pk.CrossValidatedCostComplexityPruner(grower=grower, cv=5, random_state=0)
    pruning = pruner(tree, X, y, sample_weight=w)
    selection = pk.cross_validate_alpha(X, y, grower, cv=5, sample_weight=w)
    assert pruner.alpha_ == selection.alpha_best and pruning.n_leaves < tree.n_leaves
    with pytest.raises(ValueError, match="must be the sample tree was grown on"):
        pruner(tree, X, y)
    with pytest.raises(ValueError, match="NobelPruner does not take weights"):
        pk.NobelPruner()(tree, X, y, sample_weight=w)
