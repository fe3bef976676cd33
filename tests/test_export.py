"""A pruned tree out of prunekit: ``to_sklearn`` gives a fitted scikit-learn tree that
predicts as prunekit does, and the tools that take scikit-learn trees take it (scikit-learn's
own plots and exports, SHAP, skl2onnx with onnxruntime, dtreeviz). ``export_text`` is
tested with the classifier in ``test_estimator.py``."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.tree import DecisionTreeClassifier, export_graphviz, export_text, plot_tree

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
