"""pandas DataFrames as data: they work wherever a matrix does, and their column names travel
into Tree.feature_names, plot_tree's split labels and PrunedTreeClassifier.feature_names_in_."""

import copy
import pickle
import warnings
from unittest import SkipTest

import matplotlib
import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.estimator_checks import (
    check_dataframe_column_names_consistency,
    check_estimators_data_not_an_array,
)

import prunekit as pk

matplotlib.use("Agg")

PRUNERS = [None, pk.CostComplexityPruner(alpha=0.01), pk.PessimisticPruner(),
           pk.MinimumErrorPruner(), pk.CriticalValuePruner(), pk.ReducedErrorPruner(prune_size=0.25),
           pk.ErrorBasedPruner(), pk.ErrorBasedPruner(subtree_raising=False)]


@pytest.fixture(scope="module")
def frame():
    data = load_breast_cancer(as_frame=True)
    X = data.data.iloc[:, :8]
    return X, pd.Series(np.where(data.target == 1, "benign", "malignant"), name="diagnosis")


@pytest.fixture(scope="module")
def fitted(frame):
    X, y = frame
    return DecisionTreeClassifier(max_depth=4, random_state=0).fit(X, y)


def test_from_sklearn_takes_the_estimator_s_feature_names(frame, fitted):
    X, y = frame
    tree = pk.Tree.from_sklearn(fitted, X, y)
    assert tree.feature_names == tuple(X.columns)
    plain = pk.Tree.from_sklearn(fitted, X.to_numpy(), y.to_numpy())
    assert plain.feature_names == tuple(X.columns)       # from feature_names_in_
    np.testing.assert_array_equal(tree.counts, plain.counts)
    np.testing.assert_array_equal(tree.predict(X), fitted.predict(X))
    np.testing.assert_array_equal(tree.predict(X), tree.predict(X.to_numpy()))


def test_from_sklearn_takes_a_dataframe_s_names_when_the_estimator_has_none(frame):
    X, y = frame
    estimator = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X.to_numpy(), y)
    assert pk.Tree.from_sklearn(estimator, X, y).feature_names == tuple(X.columns)
    assert pk.Tree.from_sklearn(estimator, X.to_numpy(), y).feature_names is None
    numbered = X.set_axis(range(X.shape[1]), axis=1)      # non-string columns carry no names
    assert pk.Tree.from_sklearn(estimator, numbered, y).feature_names is None


def test_from_sklearn_refuses_a_dataframe_with_other_names(frame, fitted):
    X, y = frame
    renamed = X.set_axis([f"c{j}" for j in range(X.shape[1])], axis=1)
    with pytest.raises(ValueError, match="feature_names_in_"):
        pk.Tree.from_sklearn(fitted, renamed, y)


def test_feature_names_are_immutable_and_survive_pickle_and_deepcopy(frame, fitted):
    X, y = frame
    tree = pk.Tree.from_sklearn(fitted, X, y)
    assert isinstance(tree.feature_names, tuple)
    with pytest.raises(AttributeError, match="immutable"):
        tree.feature_names = ("a",) * tree.n_features
    for clone in (pickle.loads(pickle.dumps(tree)), copy.deepcopy(tree), copy.copy(tree)):
        assert clone.feature_names == tree.feature_names
        np.testing.assert_array_equal(clone.predict(X), tree.predict(X))


def test_a_tree_pickled_without_names_loads_without_names(frame, fitted):
    X, y = frame
    tree = pk.Tree.from_sklearn(fitted, X, y)
    state = tree.__getstate__()
    del state["feature_names"]
    old = pk.Tree.__new__(pk.Tree)
    old.__setstate__(state)
    assert old.feature_names is None
    np.testing.assert_array_equal(old.counts, tree.counts)


def test_with_feature_names_and_from_arrays_validate_the_names():
    tree = pk.Tree.from_arrays([1, -1, -1], [2, -1, -1], [[3, 2], [3, 0], [0, 2]],
                               feature=[1, -1, -1], threshold=[0.5, np.nan, np.nan],
                               feature_names=["age", "height"])
    assert tree.feature_names == ("age", "height")
    renamed = tree.with_feature_names(["a", "b"])
    assert renamed.feature_names == ("a", "b") and tree.feature_names == ("age", "height")
    assert renamed.with_feature_names(None).feature_names is None
    with pytest.raises(ValueError, match="one name per feature"):
        tree.with_feature_names(["a"])
    with pytest.raises(TypeError, match="strings"):
        tree.with_feature_names(["a", 2])
    with pytest.raises(TypeError, match="sequence of strings"):
        tree.with_feature_names("ab")
    with pytest.raises(ValueError, match="split rules"):
        pk.Tree.from_arrays([1, -1, -1], [2, -1, -1], [[3, 2], [3, 0], [0, 2]],
                            feature_names=["a"])


def _split_labels(ax) -> list[str]:
    first_lines = (text.get_text().split("\n")[0] for text in ax.texts)
    return [line for line in first_lines if line.endswith("?")]


def test_plot_tree_labels_the_splits_with_the_column_names(frame, fitted):
    import matplotlib.pyplot as plt

    X, y = frame
    tree = pk.Tree.from_sklearn(fitted, X, y)
    figure, ax = plt.subplots()
    pk.plot_tree(tree, ax=ax)
    rules = _split_labels(ax)
    used = {X.columns[j] for j in tree.feature[~tree.is_leaf]}
    assert rules and all(any(r.startswith(name + " ") for name in used) for r in rules)
    ax.clear()
    pk.plot_tree(tree.with_feature_names(None), ax=ax)
    assert all(r.startswith("x") for r in _split_labels(ax))
    ax.clear()
    pk.plot_tree(tree, ax=ax, feature_names=[f"f{j}" for j in range(tree.n_features)])
    assert all(r.startswith("f") for r in _split_labels(ax))
    plt.close(figure)


@pytest.mark.parametrize("pruner", PRUNERS, ids=lambda p: type(p).__name__ if p else "default")
def test_estimator_on_a_dataframe(frame, pruner):
    X, y = frame
    kwargs = dict(max_depth=6, random_state=0)
    model = pk.PrunedTreeClassifier(pruner=pruner, **kwargs).fit(X, y)
    np.testing.assert_array_equal(model.feature_names_in_, X.columns.to_numpy())
    assert model.tree_.feature_names == tuple(X.columns)
    plain = pk.PrunedTreeClassifier(pruner=copy.deepcopy(pruner), **kwargs).fit(X.to_numpy(), y)
    assert not hasattr(plain, "feature_names_in_") and plain.tree_.feature_names is None
    np.testing.assert_array_equal(model.predict(X), plain.predict(X.to_numpy()))
    assert model.pruning_.tree is model.tree_
    with pytest.raises(ValueError, match="feature names"):
        model.predict(X[X.columns[::-1]])
    refit = model.fit(X.to_numpy(), y)                     # refitting forgets the names
    assert not hasattr(refit, "feature_names_in_") and refit.tree_.feature_names is None


def test_library_functions_accept_dataframes(frame, fitted):
    X, y = frame
    tree = pk.Tree.from_sklearn(fitted, X, y)
    Xa, ya = X.to_numpy(), y.to_numpy()
    for function in (
            lambda X, y: pk.reduced_error(tree, X, y),
            lambda X, y: pk.critical_value(tree, X, y),
            lambda X, y: pk.kearns_mansour(tree, X_prune=X, y_prune=y),
            lambda X, y: pk.nobel(tree, case="independent", X_prune=X, y_prune=y),
            lambda X, y: pk.k_reduced_error(tree, X, y, 14),
            lambda X, y: pk.cost_complexity(
                tree, pk.holdout_alpha(tree, X, y).alpha_best)):
        pruning = function(X, y)
        assert pruning == function(Xa, ya)
        np.testing.assert_array_equal(pruning.predict(X), pruning.predict(Xa))
        assert pruning.error(X, y) == pruning.error(Xa, ya)
    assert tree.error(X, y) == tree.error(Xa, ya)
    np.testing.assert_array_equal(tree.apply(X), tree.apply(Xa))
    np.testing.assert_array_equal(tree.node_counts(X, y), tree.node_counts(Xa, ya))
    assert (pk.rademacher_penalty(tree, X, y, random_state=0)
            == pk.rademacher_penalty(tree, Xa, ya, random_state=0))
    raised = pk.error_based_raising(tree, X, y)
    np.testing.assert_array_equal(raised.predict(X), raised.predict(Xa))
    grown = pk.grow_tree(X, y, max_depth=3)
    np.testing.assert_array_equal(grown.counts, pk.grow_tree(Xa, ya, max_depth=3).counts)


@pytest.mark.parametrize("check", [check_dataframe_column_names_consistency,
                                   lambda name, est: check_estimators_data_not_an_array(
                                       name, est, *_check_data(), "PandasDataframe")],
                         ids=["column_names_consistency", "data_not_an_array"])
def test_scikit_learn_s_dataframe_checks_run(check):
    """The estimator checks' DataFrame cases run (pandas is installed), not skip, and pass."""
    for pruner in PRUNERS:
        estimator = pk.PrunedTreeClassifier(pruner=pruner, random_state=0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            try:
                check("PrunedTreeClassifier", estimator)
            except SkipTest as skipped:
                pytest.fail(f"the check was skipped: {skipped}")


def _check_data():
    rng = np.random.RandomState(0)
    X = rng.uniform(size=(60, 3))
    return X, (X[:, 0] > 0.5).astype(int)
