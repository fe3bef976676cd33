"""prunekit.impurity: the one implementation of the impurity measures, and its users."""

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

import prunekit as pk
from prunekit import critical_value_pruning, growing, impurity


def test_the_growers_measures_are_the_impurity_modules():
    assert growing.entropy is impurity.entropy
    assert growing.gini is impurity.gini
    assert growing.train_error_impurity is impurity.train_error_impurity
    assert growing.IMPURITY_FUNCTIONS == {"train_error": impurity.train_error_impurity,
                                          "entropy": impurity.entropy, "gini": impurity.gini}
    assert list(growing.IMPURITY_FUNCTIONS) == ["train_error", "entropy", "gini"]  # Chapter 1
    message = r"IMPURITY_FUNCTIONS\['information'\] is deprecated; write .*\['entropy'\]"
    with pytest.warns(DeprecationWarning, match=message) as record:
        assert growing.IMPURITY_FUNCTIONS["information"] is impurity.entropy
    assert record[0].filename == __file__
    assert "information" not in growing.IMPURITY_FUNCTIONS
    with pytest.raises(KeyError):
        growing.IMPURITY_FUNCTIONS["log_loss"]                      # noqa: B018


def test_the_criteria_are_scikit_learns():
    assert impurity.GROWER_CRITERIA == {"gini": "gini", "entropy": "entropy",
                                        "log_loss": "entropy"}
    assert set(impurity.GROWER_CRITERIA) <= set(growing.IMPURITY_FUNCTIONS) | {"log_loss"}


def test_measures_on_proportions():
    p = np.array([[0.5, 0.5], [1.0, 0.0], [0.25, 0.75], [0.0, 0.0]])
    np.testing.assert_allclose(impurity.entropy(p), [np.log(2), 0, 0.5623351446188083, 0])
    np.testing.assert_allclose(impurity.gini(p), [0.5, 0, 0.375, 1])
    np.testing.assert_allclose(impurity.train_error_impurity(p), [0.5, 0, 0.25, 1])


def test_unchecked_gives_the_same_values_without_the_check():
    p = np.random.default_rng(0).dirichlet([1, 1, 1], 20)
    for measure in (impurity.entropy, impurity.gini, impurity.train_error_impurity):
        np.testing.assert_array_equal(impurity.unchecked(measure)(p), measure(p))
    assert impurity.unchecked(np.mean) is None
    assert impurity.unchecked(criterion=impurity.gini) is impurity._gini
    with pytest.warns(DeprecationWarning, match="the parameter measure is now called criterion"):
        assert impurity.unchecked(measure=impurity.gini) is impurity._gini


@pytest.mark.parametrize("criterion", ["gini", "entropy", "log_loss"])
def test_counts_impurity_is_scikit_learns(criterion):
    X, y = make_classification(300, 4, n_classes=3, n_informative=3, n_redundant=0,
                               random_state=0)
    tree = pk.Tree.from_sklearn(
        DecisionTreeClassifier(criterion=criterion, random_state=0).fit(X, y), X, y)
    np.testing.assert_allclose(impurity.counts_impurity(tree.counts, criterion),
                               tree.impurity, atol=1e-12)


def test_counts_impurity_of_an_empty_row_is_zero():
    counts = np.array([[0, 0], [2, 2], [3, 0]])
    np.testing.assert_array_equal(impurity.counts_impurity(counts, "gini"), [0, 0.5, 0])
    np.testing.assert_array_equal(impurity.counts_impurity(counts, "entropy"), [0, 1, 0])
    assert not np.signbit(impurity.counts_impurity(counts, "entropy")).any()


def test_the_former_criterion_information_is_entropy_until_0_4_with_a_warning():
    counts = np.array([[0, 0], [2, 2], [3, 1]])
    with pytest.warns(DeprecationWarning, match="criterion='information' is deprecated; "
                                                "write criterion='entropy'") as record:
        old = impurity.counts_impurity(counts, "information")
    assert record[0].filename == __file__
    np.testing.assert_array_equal(old, impurity.counts_impurity(counts, "entropy"))


def test_counts_impurity_names_a_bad_criterion():
    with pytest.raises(ValueError, match="criterion must be one of"):
        impurity.counts_impurity(np.ones((2, 2)), "train_error")


def test_cost_complexity_and_critical_values_use_the_growers_impurity():
    """A tree without the grower's impurities gets them from its counts, as scikit-learn's."""
    X, y = make_classification(200, 4, random_state=1)
    for criterion in ("gini", "entropy"):
        clf = DecisionTreeClassifier(criterion=criterion, max_depth=4, random_state=0).fit(X, y)
        tree = pk.Tree.from_sklearn(clf, X, y)
        bare = pk.Tree(tree.left, tree.right, tree.counts, feature=tree.feature,
                       threshold=tree.threshold, criterion=criterion)
        np.testing.assert_allclose(pk.cost_complexity_path(bare, "impurity").alphas,
                                   pk.cost_complexity_path(tree, "impurity").alphas,
                                   atol=1e-12)
        gain = critical_value_pruning.split_measure(tree, criterion)
        inner = ~tree.is_leaf
        n = tree.counts.sum(axis=1)
        below = (n[tree.left[inner]] * tree.impurity[tree.left[inner]]
                 + n[tree.right[inner]] * tree.impurity[tree.right[inner]]) / n[inner]
        np.testing.assert_allclose(gain[inner], tree.impurity[inner] - below, atol=1e-12)
