"""A pruned tree out of prunekit: ``to_sklearn`` gives a fitted scikit-learn tree that
predicts as prunekit does, and the tools that take scikit-learn trees take it (scikit-learn's
own plots and exports, SHAP, skl2onnx with onnxruntime, dtreeviz), for classification and
regression trees. ``export_text`` is tested with the classifier in ``test_estimator.py``,
with regression trees here."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_breast_cancer, load_diabetes, load_iris
from sklearn.tree import (DecisionTreeClassifier, DecisionTreeRegressor, export_graphviz,
                          export_text, plot_tree)

import prunekit as pk
from prunekit import _sklearn_tree
from strategies import random_trees


@pytest.fixture(scope="module")
def cancer():
    return load_breast_cancer(return_X_y=True, as_frame=True)


PRUNERS = {
    "default": None,
    "cost complexity": pk.CostComplexityPruner(alpha=0.005),
    "subtree raising": pk.ErrorBasedPruner(subtree_raising=True),
    "relabelled by the pruning sample": pk.ReducedErrorPruner(labels="pruning", random_state=0),
    "Nobel, independent": pk.NobelPruner(case="independent", random_state=0),
}


@pytest.fixture(scope="module", params=sorted(PRUNERS))
def fitted(request, cancer):
    X, y = cancer
    clf = pk.PrunedTreeClassifier(pruner=PRUNERS[request.param], random_state=0).fit(X, y)
    return clf, clf.to_sklearn()


def test_the_sklearn_tree_predicts_as_the_classifier(fitted, cancer):
    X, _ = cancer
    clf, sk = fitted
    assert isinstance(sk, DecisionTreeClassifier)
    assert np.array_equal(sk.predict(X), clf.predict(X))
    assert np.array_equal(sk.predict_proba(X), clf.predict_proba(X))
    assert (sk.get_n_leaves(), sk.get_depth()) == (clf.get_n_leaves(), clf.get_depth())
    assert np.allclose(sk.feature_importances_, clf.feature_importances_)
    assert list(sk.feature_names_in_) == list(X.columns)
    assert np.array_equal(sk.classes_, clf.classes_)
    # the same leaves, numbered among the kept nodes
    kept = np.flatnonzero(clf.pruning_.kept)
    assert np.array_equal(kept[sk.apply(X)], clf.apply(X))


def test_the_grown_tree_comes_back_as_scikit_learn_grew_it(cancer):
    X, y = cancer
    grown = DecisionTreeClassifier(random_state=0).fit(X, y)
    back = pk.Tree.from_sklearn(grown, X, y).to_sklearn()
    for field in ("children_left", "children_right", "feature", "threshold", "impurity",
                  "n_node_samples", "weighted_n_node_samples", "missing_go_to_left"):
        assert np.array_equal(getattr(back.tree_, field), getattr(grown.tree_, field)), field
    assert np.allclose(back.tree_.value, grown.tree_.value)
    assert export_text(back) == export_text(grown)
    X_missing = X.copy()
    X_missing.iloc[::7, :] = np.nan             # sent where scikit-learn sends them
    assert np.array_equal(back.predict(X_missing), grown.predict(X_missing))


@settings(max_examples=80, deadline=None)
@given(random_trees(), st.data())
def test_any_pruning_of_any_tree_predicts_alike(tree, data):
    collapsed = data.draw(st.lists(st.sampled_from(range(tree.n_nodes)), max_size=3))
    pruning = pk.Pruning.from_collapsed(tree, collapsed)
    labels = data.draw(st.lists(st.integers(0, tree.n_classes - 1), min_size=tree.n_nodes,
                                max_size=tree.n_nodes))
    pruning = pk.Pruning(tree, pruning.kept, np.array(labels))          # any leaf labels
    # float32 numbers, as scikit-learn compares them, some exactly on a threshold
    X = np.array(data.draw(st.lists(st.lists(st.floats(-1.5, 1.5, width=32), min_size=3,
                                             max_size=3), min_size=1, max_size=20)))
    X[0, tree.feature[0] if tree.feature[0] >= 0 else 0] = np.float32(
        tree.threshold[0] if tree.n_nodes > 1 else 0)
    sk = pruning.to_sklearn()
    assert np.array_equal(sk.predict(X), pruning.predict(X))
    assert sk.get_n_leaves() == pruning.n_leaves and sk.get_depth() == pruning.depth
    assert np.allclose(sk.tree_.n_node_samples, pruning.to_tree().counts.sum(axis=1))


def test_without_split_rules_there_is_nothing_to_give():
    tree = pk.Tree.from_arrays([1, -1, -1], [2, -1, -1], [[3, 2], [3, 0], [0, 2]])
    with pytest.raises(ValueError, match="no split rules .* no splits to give scikit-learn"):
        tree.to_sklearn()
    with pytest.raises(TypeError, match="model must be a prunekit Pruning, Tree or fitted"):
        pk.to_sklearn(DecisionTreeClassifier())
    from sklearn.exceptions import NotFittedError
    with pytest.raises(NotFittedError):
        pk.PrunedTreeClassifier().to_sklearn()


def test_scikit_learns_node_fields_are_the_ones_written():
    """The private structure the export writes (pinned in requirements.txt): a scikit-learn
    that changes it makes the export refuse with a clear message instead of a wrong tree."""
    from sklearn.tree._tree import NODE_DTYPE

    assert tuple(NODE_DTYPE.names) == _sklearn_tree.NODE_FIELDS


def test_a_changed_node_layout_is_refused(monkeypatch):
    tree = pk.Tree.from_arrays([1, -1, -1], [2, -1, -1], [[3, 2], [3, 0], [0, 2]],
                               feature=[0, -1, -1], threshold=[0.5, 0, 0])
    monkeypatch.setattr(_sklearn_tree, "NODE_FIELDS", ("left_child", "right_child"))
    with pytest.raises(RuntimeError, match="cannot write its trees"):
        tree.to_sklearn()


# ---------------------------------------------------------------------- the tools
def test_scikit_learns_plots_and_exports_take_it(fitted):
    import matplotlib.pyplot as plt

    clf, sk = fitted
    figure, ax = plt.subplots()
    boxes = plot_tree(sk, ax=ax)
    plt.close(figure)
    assert sum("samples = " in box.get_text() for box in boxes) == clf.pruning_.n_nodes
    dot = export_graphviz(sk, feature_names=sk.feature_names_in_)
    assert dot.count("samples = ") == clf.pruning_.n_nodes
    names = list(sk.feature_names_in_)
    assert export_text(sk, feature_names=names) == pk.export_text(clf)


def test_shap_explains_it_additively(fitted, cancer):
    shap = pytest.importorskip("shap", reason="pip install -r requirements.txt")
    X, _ = cancer
    clf, sk = fitted
    sample = X.iloc[::20]
    explainer = shap.TreeExplainer(sk)
    values = explainer.shap_values(sample)                  # (rows, features, classes)
    total = values.sum(axis=1) + explainer.expected_value
    assert np.allclose(total, clf.predict_proba(sample), atol=1e-9)


def test_onnx_runs_it_with_the_same_predictions(fitted, cancer):
    pytest.importorskip("skl2onnx", reason="pip install -r requirements.txt")
    onnxruntime = pytest.importorskip("onnxruntime", reason="pip install -r requirements.txt")
    from skl2onnx import to_onnx

    X, _ = cancer
    clf, sk = fitted
    X32 = X.to_numpy(dtype=np.float32)
    sk.feature_names_in_ = None                       # onnx takes one float tensor
    del sk.feature_names_in_
    model = to_onnx(sk, X32[:1], options={id(sk): {"zipmap": False}})
    session = onnxruntime.InferenceSession(model.SerializeToString(),
                                           providers=["CPUExecutionProvider"])
    labels, proba = session.run(None, {session.get_inputs()[0].name: X32})
    assert np.array_equal(labels, clf.predict(X))
    assert np.allclose(proba, clf.predict_proba(X), atol=1e-6)


def test_dtreeviz_draws_it():
    dtreeviz = pytest.importorskip("dtreeviz", reason="pip install -r requirements.txt")
    import shutil

    if shutil.which("dot") is None:
        pytest.skip("dtreeviz draws with Graphviz's dot: make graphviz")
    X, y = load_iris(return_X_y=True)
    clf = pk.PrunedTreeClassifier(random_state=0).fit(X, y)
    names = ["sepal length", "sepal width", "petal length", "petal width"]
    model = dtreeviz.model(clf.to_sklearn(), X_train=X, y_train=y, feature_names=names,
                           target_name="species", class_names=["setosa", "versicolor",
                                                               "virginica"])
    svg = model.view(fontname="DejaVu Sans").svg()
    assert svg.lstrip().startswith("<svg")
    assert svg.count('class="edge"') == clf.pruning_.n_nodes - 1   # the pruned tree's edges


# ---------------------------------------------------------------------- regression trees
@pytest.fixture(scope="module")
def diabetes():
    return load_diabetes(return_X_y=True, as_frame=True)


@pytest.fixture(scope="module")
def regressor(diabetes):
    X, y = diabetes
    reg = pk.PrunedTreeRegressor(random_state=0).fit(X, y)
    return reg, reg.to_sklearn()


def copy_without_names(estimator):
    """A copy of a fitted estimator without ``feature_names_in_`` (for tools given arrays)."""
    import copy

    bare = copy.deepcopy(estimator)
    del bare.feature_names_in_
    return bare


def test_the_sklearn_regressor_predicts_as_the_regressor(regressor, diabetes):
    X, y = diabetes
    reg, sk = regressor
    assert isinstance(sk, DecisionTreeRegressor)
    X_missing = X.copy()
    X_missing.iloc[::5, 2] = np.nan                  # the root's right child splits on bmi
    for Z in (X, X_missing):
        assert np.array_equal(sk.predict(Z), reg.predict(Z))
        kept = np.flatnonzero(reg.pruning_.kept)
        assert np.array_equal(kept[sk.apply(Z)], reg.apply(Z))
    assert (sk.get_n_leaves(), sk.get_depth()) == (reg.get_n_leaves(), reg.get_depth())
    assert np.allclose(sk.feature_importances_, reg.feature_importances_)
    assert list(sk.feature_names_in_) == list(X.columns)
    # values are the growing means, impurities their mean squared errors
    small = reg.pruning_.to_tree()
    weight, mean, squared = small.moments.T
    assert np.array_equal(sk.tree_.value[:, 0, 0], mean)
    assert np.allclose(sk.tree_.impurity, squared / weight, rtol=1e-9)
    assert np.array_equal(sk.tree_.n_node_samples, weight)
    assert np.array_equal(sk.tree_.weighted_n_node_samples, weight)
    assert sk.score(X, y) == pytest.approx(reg.score(X, y))


def test_the_grown_regression_tree_comes_back_as_scikit_learn_grew_it(diabetes):
    X, y = diabetes
    X = X.copy()
    X.iloc[::9, [2, 8]] = np.nan                      # missing directions learnt in growing
    grown = DecisionTreeRegressor(max_depth=6, random_state=0).fit(X, y)
    tree = pk.RegressionTree.from_sklearn(grown, X, y)
    back = pk.to_sklearn(tree)
    for field in ("children_left", "children_right", "feature", "threshold", "impurity",
                  "n_node_samples", "weighted_n_node_samples", "missing_go_to_left"):
        assert np.array_equal(getattr(back.tree_, field), getattr(grown.tree_, field)), field
    assert np.allclose(back.tree_.value, grown.tree_.value, rtol=1e-12)
    assert np.allclose(back.tree_.impurity, tree.leaf_errors() / tree.moments[:, 0],
                       rtol=1e-9, atol=1e-9)
    names = list(X.columns)
    for options in ({}, {"max_depth": 2}, {"decimals": 4}):
        assert export_text(back, **options) == export_text(grown, **options)
        assert (pk.export_text(tree, **options)
                == export_text(grown, feature_names=names, **options))
    assert np.array_equal(back.predict(X), grown.predict(X))
    pruning = pk.cost_complexity(tree, 200.0)               # a pruning, as a method of it
    assert np.array_equal(pruning.to_sklearn().predict(X), pruning.predict(X))


@settings(max_examples=40, deadline=None)
@given(random_trees(), st.data())
def test_any_pruning_of_any_regression_tree_predicts_alike(shape, data):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**16)))
    m = data.draw(st.integers(1, 30))
    X = rng.uniform(-1.5, 1.5, (m, 3))
    weights = rng.uniform(0.1, 3, m) if data.draw(st.booleans()) else None
    tree = pk.RegressionTree.from_arrays(
        shape.left, shape.right, feature=shape.feature, threshold=shape.threshold, X=X,
        n_features=shape.n_features,
        y=rng.normal(size=m) * 100, sample_weight=weights)
    collapsed = data.draw(st.lists(st.sampled_from(range(tree.n_nodes)), max_size=3))
    pruning = pk.Pruning.from_collapsed(tree, collapsed)
    # float32 numbers, as scikit-learn compares them, some exactly on a threshold, some NaN
    Z = rng.uniform(-1.5, 1.5, (20, 3)).astype(np.float32).astype(np.float64)
    Z[rng.random(Z.shape) < 0.15] = np.nan
    if tree.n_nodes > 1:
        Z[0, tree.feature[0]] = np.float32(tree.threshold[0])
    sk = pk.to_sklearn(pruning)
    assert np.array_equal(sk.predict(Z), pruning.predict(Z))
    assert sk.get_n_leaves() == pruning.n_leaves and sk.get_depth() == pruning.depth
    weight = pruning.to_tree().moments[:, 0]
    assert np.array_equal(sk.tree_.weighted_n_node_samples, weight)
    assert np.array_equal(sk.tree_.n_node_samples, np.rint(weight))


def test_a_regression_tree_refuses_what_it_cannot_give(diabetes):
    from sklearn.exceptions import NotFittedError

    moments_only = pk.RegressionTree([1, -1, -1], [2, -1, -1],
                                     [[3, 2.0, 6.0], [2, 1.0, 0.0], [1, 4.0, 0.0]])
    with pytest.raises(ValueError, match="no split rules .* no splits to give scikit-learn"):
        pk.to_sklearn(moments_only)
    with pytest.raises(NotFittedError):
        pk.PrunedTreeRegressor().to_sklearn()
    with pytest.raises(TypeError, match="or a RegressionTree or fitted PrunedTreeRegressor"):
        pk.to_sklearn(DecisionTreeRegressor())
    X, y = diabetes
    tree = pk.RegressionTree.from_sklearn(
        DecisionTreeRegressor(max_depth=1).fit(X, y), X, y)
    with pytest.raises(ValueError, match="class_names must be None for a regression tree"):
        pk.export_text(tree, class_names=["low", "high"])


def test_export_text_on_a_hand_checked_regression_tree():
    # x0 <= 0.5 holds y = 1, 1, 2 (mean 4/3, mse 2/9); x1 <= 0.5 splits y = 5 | 7, 9
    X = [[0, 0], [0, 1], [0, 0], [1, 0], [1, 1], [1, 1]]
    tree = pk.RegressionTree.from_arrays(
        [1, -1, 3, -1, -1], [2, -1, 4, -1, -1], feature=[0, -1, 1, -1, -1],
        threshold=[0.5, 0, 0.5, 0, 0], X=X, y=[1, 1, 2, 5, 7, 9],
        feature_names=["dose", "age"])
    assert pk.export_text(tree) == (
        "|--- dose <= 0.50\n"
        "|   |--- value: [1.33]\n"
        "|--- dose >  0.50\n"
        "|   |--- age <= 0.50\n"
        "|   |   |--- value: [5.00]\n"
        "|   |--- age >  0.50\n"
        "|   |   |--- value: [8.00]\n")
    collapsed = pk.Pruning.from_collapsed(tree, [2])
    assert pk.export_text(collapsed, show_counts=True, decimals=1, spacing=2) == (
        "|-- dose <= 0.5\n"
        "|  |-- n: 3, mse: 0.2, value: [1.3]\n"
        "|-- dose >  0.5\n"
        "|  |-- n: 3, mse: 2.7, value: [7.0]\n")
    assert pk.export_text(tree, max_depth=0).splitlines()[-1] == (
        "|   |--- truncated branch of depth 2")
    weighted = pk.RegressionTree.from_arrays(
        [1, -1, -1], [2, -1, -1], feature=[0, -1, -1], threshold=[0.5, 0, 0],
        X=[[0], [0], [1]], y=[1, 3, 5], sample_weight=[0.5, 1.5, 2.25])
    assert pk.export_text(weighted, show_counts=True).splitlines()[1] == (
        "|   |--- n: 2.00, mse: 0.75, value: [2.50]")


def test_scikit_learns_plots_and_exports_take_the_regressor(regressor):
    import matplotlib.pyplot as plt

    reg, sk = regressor
    figure, ax = plt.subplots()
    boxes = plot_tree(sk, ax=ax)
    plt.close(figure)
    assert sum("squared_error = " in box.get_text() for box in boxes) == reg.pruning_.n_nodes
    dot = export_graphviz(sk, feature_names=sk.feature_names_in_)
    assert dot.count("samples = ") == reg.pruning_.n_nodes
    names = list(sk.feature_names_in_)
    assert export_text(sk, feature_names=names) == pk.export_text(reg)


def test_shap_explains_the_regressor_additively(regressor, diabetes):
    shap = pytest.importorskip("shap", reason="pip install -r requirements.txt")
    X, _ = diabetes
    reg, sk = regressor
    sample = X.iloc[::10]
    explainer = shap.TreeExplainer(sk)
    values = explainer.shap_values(sample)                  # (rows, features)
    total = values.sum(axis=1) + explainer.expected_value
    assert np.allclose(total, reg.predict(sample), rtol=1e-9)


def test_onnx_runs_the_regressor_with_the_same_predictions(regressor, diabetes):
    pytest.importorskip("skl2onnx", reason="pip install -r requirements.txt")
    onnxruntime = pytest.importorskip("onnxruntime", reason="pip install -r requirements.txt")
    from skl2onnx import to_onnx

    X, _ = diabetes
    reg, sk = regressor
    X32 = X.to_numpy(dtype=np.float32)
    model = to_onnx(copy_without_names(sk), X32[:1])
    runtime = onnxruntime.InferenceSession(model.SerializeToString(),
                                           providers=["CPUExecutionProvider"])
    predicted, = runtime.run(None, {runtime.get_inputs()[0].name: X32})
    assert np.allclose(predicted[:, 0], reg.predict(X), rtol=1e-6)      # in float32


def test_dtreeviz_draws_the_regressor(regressor, diabetes):
    dtreeviz = pytest.importorskip("dtreeviz", reason="pip install -r requirements.txt")
    import shutil

    if shutil.which("dot") is None:
        pytest.skip("dtreeviz draws with Graphviz's dot: make graphviz")
    X, y = diabetes
    reg, sk = regressor
    model = dtreeviz.model(copy_without_names(sk), X_train=X.to_numpy(), y_train=y.to_numpy(),
                           feature_names=list(X.columns), target_name="progression")
    svg = model.view(fontname="DejaVu Sans").svg()
    assert svg.lstrip().startswith("<svg")
    assert svg.count('class="edge"') == reg.pruning_.n_nodes - 1

