"""PrunedTreeClassifier with every pruner: scikit-learn's checks, model selection in a
pipeline, probabilities, paths, importances, sparse input, held-out pruning samples, text
export, and pruners that return the wrong thing."""

import inspect
import math
import re
import warnings

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from scipy import sparse
from sklearn.base import clone
from sklearn.compose import ColumnTransformer
from sklearn.datasets import load_iris, make_classification
from sklearn.model_selection import GridSearchCV, train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder
from sklearn.tree import DecisionTreeClassifier
from sklearn.tree import export_text as sklearn_export_text
from sklearn.utils.estimator_checks import parametrize_with_checks

import prunekit as pk
from prunekit.k_reduced_error_pruning import growing_error_budget

# One of each pruner (the default classifier's pruner is the cross-validated one).
PRUNERS = [pk.CostComplexityPruner(alpha=0.01), pk.KearnsMansourPruner(),
           pk.NobelPruner(), pk.NobelPruner(case="independent"),
           pk.KReducedErrorPruner(), pk.RademacherBoundPruner(n_draws=5),
           pk.PessimisticPruner(), pk.PessimisticPruner(order="bottom-up"),
           pk.MinimumErrorPruner(), pk.MinimumErrorPruner(m=2.0),
           pk.CriticalValuePruner(), pk.ReducedErrorPruner(prune_size=0.25),
           pk.ReducedErrorPruner(labels="pruning"),
           pk.ErrorBasedPruner(), pk.ErrorBasedPruner(subtree_raising=False)]


def _classifiers():
    return ([pk.PrunedTreeClassifier(random_state=0),
             pk.PrunedTreeClassifier(grower=DecisionTreeClassifier(max_leaf_nodes=10,
                                                                   max_features=0.8),
                                     random_state=0)]
            + [pk.PrunedTreeClassifier(pruner=clone(pruner), random_state=0)
               for pruner in PRUNERS])


# scikit-learn's checks of sample_weight (1.9)
WEIGHT_CHECKS = ("check_sample_weights_pandas_series", "check_sample_weights_not_an_array",
                 "check_sample_weights_list", "check_sample_weights_shape",
                 "check_sample_weights_not_overwritten", "check_all_zero_sample_weights_error",
                 "check_classifiers_one_label_sample_weights",
                 "check_sample_weight_equivalence_on_dense_data",
                 "check_sample_weight_equivalence_on_sparse_data")


def _expected_failures(estimator) -> dict:
    """scikit-learn's weight checks that cannot pass, and why: a pruner whose bound counts
    examples refuses weights; and a pruner that holds out a pruning sample or
    cross-validates splits the rows, so a weight of 2 is not a repeated row there."""
    pruner = estimator.pruner or pk.CrossValidatedCostComplexityPruner()
    names = WEIGHT_CHECKS
    if pruner._weights_refused:
        return {name: "the pruner refuses weights: " + pruner._weights_refused
                for name in names + ("check_class_weight_classifiers",)}
    expected = {}
    if isinstance(pruner, (pk.ReducedErrorPruner, pk.MinimumErrorPruner)):
        # class weights 1000 and 0.0001 on a tree grown to pure leaves (the check sets
        # min_weight_fraction_leaf only on estimators that have it)
        expected["check_class_weight_classifiers"] = (
            "keeps pure leaves of weight 0.0001: REP where no pruning example contradicts "
            "them, MEP since its m counts examples, not weight")
    if pruner.uses_pruning_sample() or isinstance(
            pruner, pk.CrossValidatedCostComplexityPruner):
        expected.update({name: "hold-out and folds split rows: a weight of 2 is not a "
                         "repeated row" for name in names
                         if name.startswith("check_sample_weight_equivalence")})
    return expected


# The default (10-fold cross-validation inside every fit) takes about a quarter of the time.
@parametrize_with_checks(_classifiers(), expected_failed_checks=_expected_failures)
def test_scikit_learn_estimator_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)       # small samples: fewer folds
        check(estimator)


@pytest.fixture(scope="module")
def data():
    return make_classification(400, 6, n_informative=4, flip_y=0.2, random_state=0)


def _fitted(pruner, X, y, **options):
    options.setdefault("random_state", 0)
    return pk.PrunedTreeClassifier(pruner=pruner, **options).fit(X, y)


# ---------------------------------------------------------------------- the default pruner
def test_the_default_is_cost_complexity_with_alpha_by_cross_validation(data):
    X, y = data
    model = pk.PrunedTreeClassifier(random_state=0)
    assert model.get_params()["pruner"] is None
    model.fit(X, y)
    assert isinstance(model.pruner_, pk.CrossValidatedCostComplexityPruner)
    assert model.pruner is None                           # fit does not change it
    selection = pk.cross_validate_alpha(X, y, DecisionTreeClassifier(random_state=0), cv=10,
                                        random_state=0)
    assert model.pruner_.alpha_ == selection.alpha_best                   # the 0-SE rule
    assert model.pruner_.selection_.path.alphas.tolist() == selection.path.alphas.tolist()
    assert model.pruning_ == pk.cost_complexity(model.tree_, selection.alpha_best)
    one_se = _fitted(pk.CrossValidatedCostComplexityPruner(rule="1-SE"), X, y)
    assert one_se.pruner_.alpha_ == selection.alpha_one_se
    # the grower's settings reach the folds' trees
    shallow = _fitted(pk.CrossValidatedCostComplexityPruner(cv=5), X, y, max_depth=3)
    by_hand = pk.cross_validate_alpha(X, y, DecisionTreeClassifier(max_depth=3, random_state=0),
                                      cv=5, random_state=0)
    assert shallow.pruner_.alpha_ == by_hand.alpha_best


def test_the_default_fit_grows_the_tree_and_computes_its_path_once(data, monkeypatch):
    """One tree on all the data and one per fold (11 for 10 folds), each with one path; the
    cross-validation table is that of the classifier's own tree."""
    import prunekit.cost_complexity_pruning as ccp
    import prunekit.estimator as estimator

    def counting(function, calls):
        def counted(*args, **kwargs):
            calls.append(args[0])
            return function(*args, **kwargs)
        return counted

    X, y = data
    grown, paths = [], []
    for module in (estimator, ccp):
        monkeypatch.setattr(module, "_grow", counting(module._grow, grown))
    monkeypatch.setattr(ccp, "cost_complexity_path", counting(ccp.cost_complexity_path, paths))
    model = pk.PrunedTreeClassifier(random_state=0).fit(X, y)
    assert len(grown) == 11 and len(paths) == 11
    assert paths[0] is model.tree_ and model.pruner_.selection_.path.tree is model.tree_
    assert len({id(grower) for grower in grown}) == 1     # the classifier's grower, every time


def test_the_cross_validated_pruner_is_a_pruner_like_the_others(data):
    """prune(tree, X_prune, y_prune), given the growing sample as the classifier gives it to
    the pruners that use no pruning sample; the folds' grower is the grower parameter."""
    X, y = data
    grower = DecisionTreeClassifier(max_depth=4, random_state=3)
    tree = pk.Tree.from_sklearn(clone(grower).fit(X, y), X, y)
    pruner = pk.CrossValidatedCostComplexityPruner(grower=grower, cv=5, random_state=1)
    selection = pk.cross_validate_alpha(X, y, grower, cv=5, random_state=1)
    assert pruner.prune(tree, X, y) == pk.cost_complexity(tree, selection.alpha_best)
    assert pruner.selection_.error.tolist() == selection.error.tolist()
    assert pruner(tree, X, y) == pruner.prune(tree, X, y)
    with pytest.raises(ValueError, match="the sample tree was grown on, 400 examples; got 399"):
        pruner.prune(tree, X[1:], y[1:])
    with pytest.raises(ValueError, match="X_prune is required"):
        pruner.prune(tree, None, y)
    # in a classifier the classifier's grower grows the folds' trees: no second grower
    with pytest.raises(ValueError, match="grower must be None in a PrunedTreeClassifier"):
        _fitted(pruner, X, y)
    searched = GridSearchCV(pk.PrunedTreeClassifier(random_state=0),
                            {"pruner__cv": [3, 4]}, cv=2).fit(X, y)
    assert searched.best_estimator_.pruner_.grower is None


def test_no_classifier_can_change_the_default_of_another(data):
    """The default pruner is None, resolved at fit: nothing is shared between classifiers."""
    X, y = data
    first = pk.PrunedTreeClassifier(random_state=0).fit(X, y)
    first.pruner_.set_params(cv=3)                 # the fitted copy of the default
    model = pk.PrunedTreeClassifier().set_params(pruner__cv=3, pruner__rule="0-SE")
    assert (model.pruner.cv, model.pruner.rule) == (3, "0-SE")
    assert pk.PrunedTreeClassifier().pruner is None
    assert pk.PrunedTreeClassifier(random_state=0).fit(X, y).pruner_.cv == 10
    search = GridSearchCV(pk.PrunedTreeClassifier(random_state=0),
                          {"pruner__rule": ["0-SE", "1-SE"], "pruner__cv": [3, 5]}, cv=3)
    search.fit(X, y)
    assert search.best_params_["pruner__cv"] in (3, 5)
    assert pk.PrunedTreeClassifier().pruner is None
    with pytest.raises(ValueError, match="Invalid parameter 'alpha'"):
        pk.PrunedTreeClassifier().set_params(pruner__alpha=0.1)


def test_any_decision_tree_classifier_can_grow_the_tree(data):
    """grower=: scikit-learn's own parameters, one source each; the folds' trees of the
    default pruner are grown by the same grower."""
    X, y = data
    grower = DecisionTreeClassifier(max_leaf_nodes=12, min_samples_split=10,
                                    min_impurity_decrease=1e-3, splitter="random",
                                    max_features=4)
    model = pk.PrunedTreeClassifier(grower=grower, random_state=0).fit(X, y)
    assert model.tree_.n_leaves <= 12 and grower.random_state is None     # cloned
    same = pk.PrunedTreeClassifier(grower=clone(grower).set_params(random_state=7),
                                   random_state=0).fit(X, y)
    direct = pk.Tree.from_sklearn(clone(grower).set_params(random_state=7).fit(X, y), X, y)
    assert same.tree_ == direct                       # the grower's own seed wins
    shortcut = pk.PrunedTreeClassifier(max_depth=3, criterion="entropy", random_state=0)
    explicit = pk.PrunedTreeClassifier(grower=DecisionTreeClassifier(max_depth=3,
                                                                    criterion="entropy"),
                                       random_state=0)
    assert shortcut.fit(X, y).pruning_ == explicit.fit(X, y).pruning_
    search = GridSearchCV(explicit, {"grower__max_leaf_nodes": [4, 8]}, cv=3).fit(X, y)
    assert search.best_params_["grower__max_leaf_nodes"] in (4, 8)
    with pytest.raises(ValueError, match=r"got a grower and criterion='entropy', max_depth=3"
                                         r": set criterion, max_depth on the grower"):
        pk.PrunedTreeClassifier(grower=DecisionTreeClassifier(), max_depth=3,
                                criterion="entropy").fit(X, y)
    with pytest.raises(TypeError, match="grower must be an unfitted scikit-learn tree"):
        pk.PrunedTreeClassifier(grower=pk.CostComplexityPruner()).fit(X, y)
    with pytest.raises(ValueError, match="class_weight='balanced' and a grower with "
                                         "class_weight='balanced': give it once"):
        pk.PrunedTreeClassifier(grower=DecisionTreeClassifier(class_weight="balanced"),
                                class_weight="balanced").fit(X, y)


def test_the_former_keyword_estimator_of_the_cross_validated_pruner_is_grower(data):
    X, y = data
    grower = DecisionTreeClassifier(max_depth=3, random_state=0)
    with pytest.warns(DeprecationWarning, match=r"^CrossValidatedCostComplexityPruner\(\): "
                                                r"the parameter estimator is now called grower"):
        pruner = pk.CrossValidatedCostComplexityPruner(estimator=grower)
    assert pruner.grower is grower and "estimator" not in pruner.get_params()
    with pytest.warns(DeprecationWarning, match=r"^cross_validate_alpha\(\): the parameter "
                                                r"estimator is now called grower"):
        old = pk.cross_validate_alpha(X, y, estimator=grower, cv=3)
    assert old.error.tolist() == pk.cross_validate_alpha(X, y, grower, cv=3).error.tolist()


def test_grid_search_over_alpha_with_a_cost_complexity_pruner(data):
    X, y = data
    model = pk.PrunedTreeClassifier(pruner=pk.CostComplexityPruner(), random_state=0)
    search = GridSearchCV(model,
                          {"pruner__alpha": [0.0, 0.005, 0.02]}, cv=3).fit(X, y)
    assert search.best_params_["pruner__alpha"] in (0.0, 0.005, 0.02)


CATEGORIES = ["colour", "size", "country", "occupation"]


def _frame(n, seed):
    """A DataFrame with four categorical columns (two of them noise, with many values, so
    that one-hot encoding them is sparse) and two numeric ones, and a binary label."""
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({
        "colour": rng.choice(["red", "green", "blue", "grey"], n),
        "size": rng.choice(["S", "M", "L"], n, p=[0.5, 0.3, 0.2]),
        "country": rng.choice([f"country {k}" for k in range(20)], n),
        "occupation": rng.choice([f"job {k}" for k in range(12)], n),
        "age": rng.integers(18, 90, n).astype(float),
        "income": rng.lognormal(10, 1, n)})
    score = ((frame["colour"] == "red") * 1.5 + (frame["size"] == "L") + frame["age"] / 40
             + rng.normal(0, 0.8, n))
    return frame, np.where(score > 2.0, ">50K", "<=50K")


def test_a_pipeline_with_one_hot_encoding_in_a_roc_auc_grid_search():
    X, y = _frame(1500, 0)
    encode = ColumnTransformer([("categories", OneHotEncoder(), CATEGORIES)],
                               remainder="passthrough")
    assert sparse.issparse(encode.fit_transform(X))          # OneHotEncoder's default output
    pipeline = make_pipeline(encode, pk.PrunedTreeClassifier(random_state=0))
    search = GridSearchCV(pipeline, {"prunedtreeclassifier__pruner__rule": ["0-SE", "1-SE"]},
                          scoring="roc_auc", cv=3).fit(X, y)
    assert 0.6 < search.best_score_ <= 1
    proba = search.predict_proba(X)
    assert proba.shape == (len(y), 2) and np.allclose(proba.sum(axis=1), 1)
    text = pk.export_text(search.best_estimator_[-1],
                          feature_names=encode.get_feature_names_out())
    assert "categories__" in text and "class: " in text


# ---------------------------------------------------------------------- every pruner
def test_each_pruner_gives_the_function_s_pruning(data):
    X, y = data
    cases = [
        (pk.CostComplexityPruner(alpha=0.01, risk="impurity"),
         lambda t: pk.cost_complexity(t, 0.01, "impurity")),
        (pk.KearnsMansourPruner(delta=0.1, c=0.5), lambda t: pk.kearns_mansour(t, delta=0.1, c=0.5)),
        (pk.KearnsMansourPruner(form="finite", log_paths=lambda l: l * math.log(6),
                                log_trees=lambda s: s * math.log(12)),
         lambda t: pk.kearns_mansour(t, form="finite", log_paths=lambda l: l * math.log(6),
                                     log_trees=lambda s: s * math.log(12))),
        (pk.NobelPruner(method="ccp"), lambda t: pk.nobel(t, case="same", method="ccp")),
        (pk.PessimisticPruner(), lambda t: pk.pessimistic(t)),
        (pk.PessimisticPruner(order="bottom-up"), lambda t: pk.pessimistic(t, order="bottom-up")),
        (pk.MinimumErrorPruner(), lambda t: pk.minimum_error(t)),
        (pk.MinimumErrorPruner(m=3, prior=[0.3, 0.7]),
         lambda t: pk.minimum_error(t, m=3, prior=[0.3, 0.7])),
        (pk.ErrorBasedPruner(confidence=0.1, subtree_raising=False),
         lambda t: pk.error_based(t, confidence=0.1)),
    ]
    for pruner, function in cases:
        fitted = _fitted(pruner, X, y)
        assert not pruner.uses_pruning_sample()
        assert fitted.tree_.n_samples == len(y)
        assert fitted.pruning_ == function(fitted.tree_)
        assert pruner(fitted.tree_) == fitted.pruning_           # a pruner is a function
        np.testing.assert_array_equal(fitted.predict(X), fitted.pruning_.predict(X))


def test_holdout_pruners_grow_on_one_part_and_prune_on_the_other(data):
    X, y = data
    cases = [
        (pk.CriticalValuePruner(measure="gini", prune_size=0.25),
         lambda t, Xp, yp: pk.critical_value(t, Xp, yp, measure="gini")),
        (pk.ReducedErrorPruner(prune_size=100), lambda t, Xp, yp: pk.reduced_error(t, Xp, yp)),
        (pk.NobelPruner(case="independent"),
         lambda t, Xp, yp: pk.nobel(t, case="independent", X_prune=Xp, y_prune=yp)),
        (pk.KReducedErrorPruner(k=40), lambda t, Xp, yp: pk.k_reduced_error(t, Xp, yp, 40)),
    ]
    for pruner, function in cases:
        fitted = _fitted(pruner, X, y, random_state=3, min_samples_leaf=2)
        X_grow, X_prune, y_grow, y_prune = pruner.split(X, y, 3)
        n_prune = pruner.prune_size if isinstance(pruner.prune_size, int) else math.ceil(
            pruner.prune_size * len(y))
        assert pruner.uses_pruning_sample() and len(y_prune) == n_prune
        assert fitted.tree_.n_samples == len(y) - n_prune
        np.testing.assert_array_equal(fitted.tree_.counts, fitted.tree_.node_counts(X_grow, y_grow))
        assert fitted.pruning_ == function(fitted.tree_, X_prune, y_prune)


def test_k_rep_takes_the_paper_s_budget_and_refuses_an_impossible_one(data):
    X, y = data
    fitted = _fitted(pk.KReducedErrorPruner(), X, y, min_samples_leaf=3)
    errors = fitted.tree_.n_samples - fitted.tree_.counts[fitted.tree_.is_leaf].max(axis=1).sum()
    assert errors > 0 and fitted.pruner_.k_ == math.floor(1.1 * errors + 1e-9)
    _, X_prune, _, y_prune = fitted.pruner_.split(X, y, 0)
    assert fitted.pruning_ == pk.k_reduced_error(fitted.tree_, X_prune, y_prune,
                                                 fitted.pruner_.k_)
    with pytest.raises(ValueError, match=r"k=1 errors .* the k-REP class is empty"):
        _fitted(pk.KReducedErrorPruner(k=1), X, y, min_samples_leaf=3)
    with pytest.raises(ValueError, match="c must be >= 1"):
        _fitted(pk.KReducedErrorPruner(c=0.5), X, y)


def test_the_rademacher_bound_pruner_keeps_the_budget_of_smallest_bound(data):
    X, y = data
    fitted = _fitted(pk.RademacherBoundPruner(n_budgets=6, n_draws=10), X, y, min_samples_leaf=2)
    pruner, tree = fitted.pruner_, fitted.tree_
    _, X_prune, _, y_prune = pruner.split(X, y, 0)
    budgets = pruner.budgets_
    assert budgets[0] == pk.k_reduced_error_pruning.growing_errors_of_tree(tree)
    assert budgets[-1] == tree.n_samples - tree.counts[0].max()          # every pruning
    assert np.all(np.diff(budgets) > 0) and np.all(np.diff(pruner.penalties_) >= 0)
    signs = pk.rademacher.draw_signs(len(y_prune), 0, 10)
    m, k = len(y_prune), pruner.k_
    chosen = pk.k_reduced_error(tree, X_prune, y_prune, k)
    penalty = pk.rademacher_penalty(tree, X_prune, y_prune, signs=signs, k=k).mean()
    bound = pk.bounds.rademacher(chosen.error(X_prune, y_prune), penalty, m, 0.01 / len(budgets))
    assert fitted.pruning_ == chosen and pruner.bound_ == pytest.approx(bound)
    assert pruner.bound_ == pruner.bounds_.min() and k == budgets[np.argmin(pruner.bounds_)]


def test_subtree_raising_replaces_the_tree(data):
    X, y = data
    fitted = _fitted(pk.ErrorBasedPruner(confidence=0.25), X, y)
    grown = _fitted(pk.CostComplexityPruner(), X, y).tree_
    raised = pk.error_based_raising(grown, X, y, confidence=0.25)
    assert fitted.pruning_ == pk.Pruning.full(fitted.tree_)
    np.testing.assert_array_equal(fitted.tree_.counts, raised.counts)
    np.testing.assert_array_equal(fitted.tree_.left, raised.left)
    np.testing.assert_array_equal(fitted.predict(X), raised.predict(X))
    assert fitted.feature_importances_.sum() == pytest.approx(1)


# ---------------------------------------------------------------------- the hold-out split
def test_the_split_is_stratified_and_keeps_every_class_in_both_parts():
    y = np.repeat([0, 1, 2, 3, 4], [900, 80, 10, 7, 3])          # page-blocks-like
    X = np.arange(len(y), dtype=float).reshape(-1, 1)
    for seed in range(20):
        for size in (0.3, 0.05, 30):
            pruner = pk.ReducedErrorPruner(prune_size=size)
            X_grow, X_prune, y_grow, y_prune = pruner.split(X, y, seed)
            assert set(y_grow) == set(y_prune) == set(range(5))
            assert len(y_prune) == (size if isinstance(size, int) else math.ceil(size * 1000))
            np.testing.assert_array_equal(np.sort(np.concatenate([X_grow, X_prune])[:, 0]),
                                          X[:, 0])
    _, _, _, y_prune = pk.ReducedErrorPruner(prune_size=0.3).split(X, y, 0)
    np.testing.assert_array_equal(np.bincount(y_prune), [270, 24, 3, 2, 1])


def test_the_split_falls_back_with_a_warning_when_a_class_is_too_small(data):
    X, y = data
    y = y.copy()
    y[7] = 2                                                     # a single example of class 2
    with pytest.warns(UserWarning, match="single example"):
        fitted = _fitted(pk.ReducedErrorPruner(prune_size=120), X, y)
    assert fitted.classes_.tolist() == [0, 1, 2] and fitted.tree_.counts[0, 2] == 1
    y_many = np.arange(len(y)) % 50                             # 50 classes, 8 examples each
    with pytest.warns(UserWarning, match="not stratified"):
        pk.ReducedErrorPruner(prune_size=10).split(X, y_many, 0)


def test_the_split_is_seeded(data):
    X, y = data
    def counts(pruner, seed):
        return _fitted(pruner, X, y, random_state=seed).tree_.counts[0]
    # without its own random_state the pruner takes the classifier's
    np.testing.assert_array_equal(counts(pk.CriticalValuePruner(), 0),
                                  counts(pk.CriticalValuePruner(), 0))
    assert not np.array_equal(_fitted(pk.CriticalValuePruner(), X, y, random_state=0).tree_.left,
                              _fitted(pk.CriticalValuePruner(), X, y, random_state=1).tree_.left)
    # its own random_state wins over the classifier's
    np.testing.assert_array_equal(counts(pk.CriticalValuePruner(random_state=5), 0),
                                  counts(pk.CriticalValuePruner(random_state=5), 1))


# ---------------------------------------------------------------------- what a model offers
@pytest.mark.parametrize("pruner", [None, pk.NobelPruner(case="independent"),
                                    pk.ReducedErrorPruner(labels="pruning"),
                                    pk.KearnsMansourPruner(c=0.2), pk.ErrorBasedPruner()],
                         ids=lambda p: type(p).__name__ if p else "default")
def test_probabilities_agree_with_the_predictions(pruner):
    X, y = load_iris(return_X_y=True)
    X = X + np.random.default_rng(0).normal(0, 0.3, X.shape)        # overlapping classes
    fitted = _fitted(pruner, X, y, min_samples_leaf=3)
    proba = fitted.predict_proba(X)
    assert proba.shape == (len(y), 3) and np.allclose(proba.sum(axis=1), 1)
    np.testing.assert_array_equal(fitted.classes_[np.argmax(proba, axis=1)], fitted.predict(X))
    with np.errstate(divide="ignore"):
        np.testing.assert_allclose(fitted.predict_log_proba(X), np.log(proba))
    leaf = fitted.apply(X)
    tree = fitted.tree_
    growing = tree.counts[leaf] / tree.counts[leaf].sum(axis=1, keepdims=True)
    same = np.argmax(growing, axis=1) == fitted.pruning_.labels[leaf]
    np.testing.assert_allclose(proba[same], growing[same])       # growing frequencies


def test_apply_and_decision_path_follow_the_pruning(data):
    X, y = data
    fitted = _fitted(pk.CostComplexityPruner(alpha=0.01), X, y)
    tree, pruning = fitted.tree_, fitted.pruning_
    leaf = fitted.apply(X)
    np.testing.assert_array_equal(leaf, pruning.apply(X))
    assert np.all(pruning.is_leaf[leaf])
    path = fitted.decision_path(X)
    assert sparse.isspmatrix_csr(path) and path.shape == (len(y), tree.n_nodes)
    for i in (0, 1, 17, 399):
        nodes, v = [], leaf[i]
        while v != -1:
            nodes.append(v)
            v = tree.parent[v]
        assert sorted(path[i].indices.tolist()) == sorted(nodes)
    assert not path[:, ~pruning.kept].nnz                         # only kept nodes
    assert fitted.get_depth() == pruning.depth and fitted.get_n_leaves() == pruning.n_leaves
    # unpruned, everything is scikit-learn's
    full = _fitted(pk.CostComplexityPruner(alpha=0.0, risk="impurity"), X, y)
    sk = DecisionTreeClassifier(random_state=0).fit(X, y)
    np.testing.assert_array_equal(full.apply(X), sk.apply(X))
    assert (full.decision_path(X) != sk.decision_path(X)).nnz == 0
    assert (full.get_depth(), full.get_n_leaves()) == (sk.get_depth(), sk.get_n_leaves())


def test_feature_importances_are_scikit_learn_s_on_an_unpruned_tree(data):
    X, y = data
    for criterion in ("gini", "entropy"):
        full = _fitted(pk.CostComplexityPruner(alpha=0.0, risk="impurity"), X, y,
                       criterion=criterion)
        sk = DecisionTreeClassifier(criterion=criterion, random_state=0).fit(X, y)
        np.testing.assert_allclose(full.feature_importances_, sk.feature_importances_,
                                   atol=1e-12)
    pruned = _fitted(pk.CostComplexityPruner(alpha=0.02), X, y)
    used = np.unique(pruned.tree_.feature[pruned.pruning_.kept & ~pruned.pruning_.is_leaf])
    assert pruned.feature_importances_.sum() == pytest.approx(1)
    assert set(np.flatnonzero(pruned.feature_importances_)) <= set(used)
    root = _fitted(pk.CostComplexityPruner(alpha=1.0), X, y)
    np.testing.assert_array_equal(root.feature_importances_, np.zeros(X.shape[1]))


@pytest.mark.parametrize("pruner", [None, pk.ReducedErrorPruner(), pk.ErrorBasedPruner()],
                         ids=lambda p: type(p).__name__ if p else "default")
def test_sparse_input_gives_the_dense_answers(pruner):
    X, y = _frame(600, 1)
    encoded = ColumnTransformer([("c", OneHotEncoder(), CATEGORIES)],
                                remainder="passthrough").fit_transform(X)
    dense = encoded.toarray()
    reference = _fitted(pruner, dense, y)
    for matrix in (sparse.csr_matrix(encoded), sparse.csc_matrix(encoded),
                   sparse.csr_array(encoded)):
        fitted = _fitted(pruner, matrix, y)
        assert fitted.tree_ == reference.tree_ and fitted.pruning_.kept.tolist() == \
            reference.pruning_.kept.tolist()
        for method in ("predict", "predict_proba", "apply"):
            np.testing.assert_array_equal(getattr(fitted, method)(matrix),
                                          getattr(reference, method)(dense))
        assert (fitted.decision_path(matrix) != reference.decision_path(dense)).nnz == 0


# ---------------------------------------------------------------------- alpha's scale
def test_alpha_of_the_impurity_criterion_is_scikit_learn_s_ccp_alpha(data):
    X, y = data
    path = DecisionTreeClassifier(random_state=0).cost_complexity_pruning_path(X, y)
    alphas = path.ccp_alphas[:-1] + np.diff(path.ccp_alphas) / 2      # inside each step
    for alpha in alphas[:: max(1, len(alphas) // 6)]:
        ours = _fitted(pk.CostComplexityPruner(alpha=alpha, risk="impurity"), X, y)
        sk = DecisionTreeClassifier(ccp_alpha=alpha, random_state=0).fit(X, y)
        assert ours.get_n_leaves() == sk.get_n_leaves()
        np.testing.assert_array_equal(ours.predict(X), sk.predict(X))
        by_error = _fitted(pk.CostComplexityPruner(alpha=alpha, risk="error"), X, y)
        _check_every_kept_branch_pays(by_error, alpha)
    middle = alphas[len(alphas) // 2]                    # the same number, another tree
    by_error = _fitted(pk.CostComplexityPruner(alpha=middle, risk="error"), X, y)
    by_impurity = _fitted(pk.CostComplexityPruner(alpha=middle, risk="impurity"), X, y)
    assert by_error.get_n_leaves() != by_impurity.get_n_leaves()


def _check_every_kept_branch_pays(fitted, alpha):
    """The docstrings' claim: with criterion="error" a kept branch saves more than
    alpha * m training errors per extra leaf."""
    tree, pruning = fitted.tree_, fitted.pruning_
    as_leaf = tree.counts.sum(axis=1) - tree.counts.max(axis=1)
    for v in np.flatnonzero(pruning.kept & ~pruning.is_leaf):
        leaves = [u for u in tree.subtree(v) if pruning.is_leaf[u]]
        saved = as_leaf[v] - as_leaf[leaves].sum()
        assert saved > alpha * tree.n_samples * (len(leaves) - 1)


def test_alpha_of_the_error_criterion_on_a_stump():
    # the stump saves 4 - 2 = 2 of m = 10 errors with one extra leaf: alpha = 2 / 10
    stump = pk.Tree.from_arrays([1, -1, -1], [2, -1, -1], [[6, 4], [5, 1], [1, 3]],
                                feature=[0, -1, -1], threshold=[0.5, 0, 0])
    assert pk.CostComplexityPruner(alpha=0.19)(stump).n_leaves == 2
    assert pk.CostComplexityPruner(alpha=0.2)(stump).n_leaves == 1


# ---------------------------------------------------------------------- text and drawing
def test_export_text_on_a_hand_checked_tree():
    tree = pk.Tree.from_arrays(
        [1, -1, 3, -1, -1], [2, -1, 4, -1, -1], [[6, 5], [4, 0], [2, 5], [2, 1], [0, 4]],
        feature=[1, -1, 0, -1, -1], threshold=[2.5, 0, 0.125, 0, 0], classes=["no", "yes"],
        feature_names=["weight", "height"])
    assert pk.export_text(tree) == (
        "|--- height <= 2.50\n"
        "|   |--- class: no\n"
        "|--- height >  2.50\n"
        "|   |--- weight <= 0.12\n"
        "|   |   |--- class: no\n"
        "|   |--- weight >  0.12\n"
        "|   |   |--- class: yes\n")
    collapsed = pk.Pruning.from_collapsed(tree, [2])
    assert pk.export_text(collapsed, show_counts=True, decimals=1, spacing=2) == (
        "|-- height <= 2.5\n"
        "|  |-- counts: [4, 0] class: no\n"
        "|-- height >  2.5\n"
        "|  |-- counts: [2, 5] class: yes\n")
    assert pk.export_text(tree, max_depth=0, class_names=["N", "Y"]).splitlines()[1:] == [
        "|   |--- class: N", "|--- height >  2.50", "|   |--- truncated branch of depth 2"]


def test_export_text_of_an_unpruned_tree_is_scikit_learn_s():
    X, y = load_iris(return_X_y=True)
    sk = DecisionTreeClassifier(random_state=0).fit(X, y)
    tree = pk.Tree.from_sklearn(sk, X, y)
    for options in ({}, {"max_depth": 2}, {"feature_names": list("abcd"), "decimals": 4}):
        assert pk.export_text(tree, **options) == sklearn_export_text(sk, **options)
    fitted = _fitted(pk.CostComplexityPruner(alpha=0.02), X, y)
    assert pk.export_text(fitted) == pk.export_text(fitted.pruning_)
    assert pk.export_text(fitted).count("class:") == fitted.get_n_leaves()


def test_plot_tree_draws_a_classifier_s_kept_tree(data):
    X, y = data
    fitted = _fitted(pk.CostComplexityPruner(alpha=0.01), X, y)
    _, ax = plt.subplots()
    pk.plot_tree(fitted, ax=ax)
    assert len(ax.texts) == fitted.pruning_.n_nodes < fitted.tree_.n_nodes
    with pytest.raises(ValueError, match="pruning must be None"):
        pk.plot_tree(fitted, fitted.pruning_)
    with pytest.raises(Exception, match="not fitted"):
        pk.plot_tree(pk.PrunedTreeClassifier())


# ---------------------------------------------------------------------- refusals
def test_bad_fit_arguments_are_refused_with_what_to_do(data):
    X, y = data
    model = pk.PrunedTreeClassifier(pruner=pk.CostComplexityPruner())
    with pytest.raises(ValueError, match="sample_weight must be non-negative"):
        model.fit(X, y, sample_weight=-np.ones(len(y)))
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        model.fit(X, y, weights=1)
    frame = pd.DataFrame(X, columns=[f"f{j}" for j in range(X.shape[1])])
    frame.iloc[5, 2] = np.inf
    with pytest.raises(ValueError, match=r"infinity in column 2 \('f2'\).*or NaN"):
        model.fit(frame, y)
    fitted = model.fit(X, y)
    with pytest.raises(ValueError, match="infinity in column"):
        fitted.predict_proba(sparse.csr_matrix(np.where(X > 2, np.inf, X)))


def _with_missing_values(X, y, share=0.15, seed=0):
    """X with a share of its values missing, and a feature whose missingness predicts y."""
    rng = np.random.default_rng(seed)
    X = X.copy()
    X[rng.random(X.shape) < share] = np.nan
    X[y == 1, 0] = np.where(rng.random(np.count_nonzero(y == 1)) < 0.3, np.nan,
                            X[y == 1, 0])
    return X


def test_missing_values_are_handled_as_scikit_learn_handles_them(data):
    """Unpruned (alpha 0), the classifier is scikit-learn's tree grown on data with NaN,
    to the prediction; every pruner prunes such a tree, and to_sklearn keeps the routing."""
    X, y = data
    X = _with_missing_values(X, y)
    X_test = _with_missing_values(*make_classification(200, 6, n_informative=4,
                                                       random_state=1), seed=1)
    unpruned = _fitted(pk.CostComplexityPruner(alpha=0.0), X, y)
    reference = DecisionTreeClassifier(random_state=0).fit(X, y)
    assert np.array_equal(unpruned.predict(X_test), reference.predict(X_test))
    assert np.array_equal(unpruned.predict_proba(X_test), reference.predict_proba(X_test))
    for pruner in [None, *PRUNERS]:
        model = _fitted(clone(pruner) if pruner is not None else None, X, y)
        exported = model.to_sklearn()
        assert np.array_equal(exported.predict(X_test), model.predict(X_test))
        assert np.allclose(model.predict_proba(X_test).sum(axis=1), 1)
    sparse_rows = sparse.csr_matrix(np.nan_to_num(X_test, nan=0.0))
    assert model.predict(sparse_rows).shape == (200,)


def test_error_messages_do_not_print_whole_data_frames(data):
    X, y = data
    frame = pd.DataFrame(X)
    calls = [lambda: pk.PrunedTreeClassifier(pruner=pk.ErrorBasedPruner(subtree_raising=frame)),
             lambda: pk.PrunedTreeClassifier(pruner=pk.CostComplexityPruner(alpha=frame)),
             lambda: pk.PrunedTreeClassifier(pruner=pk.CriticalValuePruner(measure=frame)),
             lambda: pk.PrunedTreeClassifier(pruner=pk.CostComplexityPruner(), max_depth=frame),
             lambda: pk.PrunedTreeClassifier(pruner=frame)]
    for call in calls:
        with pytest.raises((TypeError, ValueError)) as error:
            call().fit(X, y)
        assert len(str(error.value)) < 300 and "\n" not in str(error.value)


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
        pk.PrunedTreeClassifier(pruner=ReturnsNone()).fit(X, y)
    with pytest.raises(ValueError, match="PrunesAnotherTree.prune returned a Pruning of another tree"):
        pk.PrunedTreeClassifier(pruner=PrunesAnotherTree()).fit(X, y)
    with pytest.raises(TypeError, match="restructure must return a prunekit Tree, got str"):
        pk.PrunedTreeClassifier(pruner=RestructuresIntoNothing()).fit(X, y)
    with pytest.raises(NotImplementedError, match="Pruner does not define prune"):
        pk.PrunedTreeClassifier(pruner=pk.Pruner()).fit(X, y)
    with pytest.raises(TypeError, match="pruner must be a prunekit Pruner"):
        pk.PrunedTreeClassifier(pruner="ccp").fit(X, y)
    with pytest.raises(TypeError, match=r"pass ReducedErrorPruner\(\) instead"):
        pk.PrunedTreeClassifier(pruner=pk.ReducedErrorPruner).fit(X, y)


def test_model_selection_reaches_the_pruner_parameters(data):
    X, y = data
    grids = [
        (pk.MinimumErrorPruner(), {"pruner__m": [None, 0.5, 8.0]}),
        (pk.ErrorBasedPruner(), {"pruner__confidence": [0.05, 0.25, 0.5],
                                 "pruner__subtree_raising": [False, True]}),
        (pk.CriticalValuePruner(), {"pruner__measure": ["entropy", "chi2"],
                                    "pruner__prune_size": [0.2, 0.4]}),
        (pk.KearnsMansourPruner(), {"pruner__c": [0.1, 0.5], "pruner__delta": [0.05, 0.2]}),
        (pk.NobelPruner(), {"pruner__case": ["same", "independent"]}),
        (pk.KReducedErrorPruner(), {"pruner__c": [1.0, 1.5]}),
    ]
    for pruner, grid in grids:
        search = GridSearchCV(pk.PrunedTreeClassifier(pruner=pruner, random_state=0,
                                                      min_samples_leaf=2), grid, cv=3,
                              error_score="raise")
        search.fit(X, y)
        for name, values in grid.items():
            assert search.best_params_[name] in values
        assert len(search.cv_results_["params"]) == math.prod(len(v) for v in grid.values())


def test_bad_pruner_parameters(data):
    X, y = data
    for size in (0, 0.0, 1.0, -0.2, 400, 1000):
        with pytest.raises(ValueError, match="prune_size"):
            pk.PrunedTreeClassifier(pruner=pk.CriticalValuePruner(prune_size=size)).fit(X, y)
    for size in ("0.3", None, True):
        with pytest.raises(TypeError, match="prune_size must be a float in"):
            pk.PrunedTreeClassifier(pruner=pk.ReducedErrorPruner(prune_size=size)).fit(X, y)
    with pytest.raises(ValueError, match="m must be a finite number"):
        pk.PrunedTreeClassifier(pruner=pk.MinimumErrorPruner(m=-1)).fit(X, y)
    with pytest.raises(ValueError, match="measure must be one of"):
        pk.PrunedTreeClassifier(pruner=pk.CriticalValuePruner(measure="gain")).fit(X, y)
    with pytest.raises(ValueError, match="confidence"):
        pk.PrunedTreeClassifier(pruner=pk.ErrorBasedPruner(confidence=1.5)).fit(X, y)
    with pytest.raises(TypeError, match="subtree_raising must be True or False"):
        pk.PrunedTreeClassifier(pruner=pk.ErrorBasedPruner(subtree_raising="yes")).fit(X, y)
    with pytest.raises(ValueError, match="n_samples=1"):
        pk.PrunedTreeClassifier(pruner=pk.CriticalValuePruner()).fit(X[:1], y[:1])
    two_se = pk.CrossValidatedCostComplexityPruner(rule="2-SE")
    with pytest.raises(ValueError, match="rule must be one of"):
        pk.PrunedTreeClassifier(pruner=two_se).fit(X, y)
    with pytest.raises(ValueError, match="case must be one of"):
        pk.PrunedTreeClassifier(pruner=pk.NobelPruner(case="other")).fit(X, y)
    with pytest.raises(TypeError, match="form='boolean' takes"):
        pk.PrunedTreeClassifier(pruner=pk.KearnsMansourPruner(vc_paths=len)).fit(X, y)
    with pytest.raises(ValueError, match="n_budgets must be at least 2"):
        pk.PrunedTreeClassifier(pruner=pk.RademacherBoundPruner(n_budgets=1)).fit(X, y)
    with pytest.raises(ValueError, match="n_samples=3"):
        pk.PrunedTreeClassifier(pruner=pk.NobelPruner()).fit(X[:3], y[:3])


# ---------------------------------------------------------------------- one source of parameters
PRUNER_CLASSES = sorted((value for value in vars(pk).values()
                         if isinstance(value, type) and issubclass(value, pk.Pruner)
                         and value not in (pk.Pruner, pk.HoldoutPruner)),
                        key=lambda cls: cls.__name__)
# The samples a pruning function takes, which the classifier hands to the pruner.
SAMPLES = {"tree", "X", "y", "X_prune", "y_prune", "sample_weight"}
# A pruner's parameters that its function does not have, each pruner's own: the classifier's
# hold-out split, and the parameters listed here.
OWN_PARAMETERS = {
    "CrossValidatedCostComplexityPruner": {"rule"},       # 1-SE or 0-SE, chosen on the table
    "ErrorBasedPruner": {"subtree_raising"},               # error_based or error_based_raising
    "KReducedErrorPruner": {"c"},                          # k=None: growing_error_budget's c
    # kearns_mansour takes the penalty's arguments as **penalty_args
    "KearnsMansourPruner": {"n_features", "log_paths", "log_trees", "vc_paths", "vc_trees"},
}


def test_the_scan_sees_every_pruner():
    assert len(PRUNER_CLASSES) == 12
    assert [cls for cls in PRUNER_CLASSES if cls._function is None] == [pk.RademacherBoundPruner]


@pytest.mark.parametrize("cls", [cls for cls in PRUNER_CLASSES if cls._function is not None],
                         ids=lambda cls: cls.__name__)
def test_a_pruner_takes_its_function_s_parameters_with_their_defaults(cls):
    """The one source of a pruner's parameters is its function's signature: every parameter
    of the function (the samples aside) is a constructor parameter with the same default
    (a default of the pruner's own where the function has none: alpha, k); the pruner's
    other parameters are the hold-out split's and those listed in OWN_PARAMETERS."""
    init = inspect.signature(cls.__init__).parameters
    function = inspect.signature(cls._function).parameters
    shared = [name for name, parameter in function.items() if name not in SAMPLES
              and parameter.kind is not parameter.VAR_KEYWORD]
    for name in shared:
        assert name in init, f"{cls.__name__} lacks {cls._function.__name__}'s {name}"
        default = function[name].default
        if name == "random_state":                     # None: the classifier's random_state
            assert init[name].default is None
        elif default is not inspect.Parameter.empty:
            assert init[name].default == default, (cls.__name__, name)
    holdout = {"prune_size", "random_state"} if issubclass(cls, pk.HoldoutPruner) else set()
    own = set(init) - {"self"} - set(shared)
    assert own == holdout | OWN_PARAMETERS.get(cls.__name__, set())
    if cls is pk.KReducedErrorPruner:
        assert init["c"].default == inspect.signature(growing_error_budget).parameters[
            "c"].default


@pytest.mark.parametrize("cls", PRUNER_CLASSES + [pk.HoldoutPruner, pk.PrunedTreeClassifier],
                         ids=lambda cls: cls.__name__)
def test_constructor_arguments_are_keyword_only(cls):
    parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
    assert parameters and all(p.kind is p.KEYWORD_ONLY for p in parameters)
    with pytest.raises(TypeError, match="positional argument"):
        cls(parameters[0].default)


@pytest.mark.parametrize("cls", PRUNER_CLASSES + [pk.PrunedTreeClassifier],
                         ids=lambda cls: cls.__name__)
def test_every_parameter_has_one_declared_check(cls):
    assert set(cls._parameter_checks) == set(cls().get_params(deep=False))


def _call_function(cls, tree, X, y, params):
    """``cls._function`` on the tree and the sample it requires, with ``params`` and the
    pruner's defaults for its other required arguments."""
    function = inspect.signature(cls._function).parameters
    defaults = cls().get_params()
    required = {name: defaults[name] for name, p in function.items()
                if p.default is p.empty and p.kind is not p.VAR_KEYWORD
                and name not in SAMPLES and name not in params}
    if "tree" not in function:                           # cross_validate_alpha(X, y, ...)
        return cls._function(X, y, **required, **params)
    needs_sample = "X_prune" in function and function["X_prune"].default is inspect.Parameter.empty
    return cls._function(tree, *([X, y] if needs_sample else []), **required, **params)


@pytest.mark.parametrize("cls", [cls for cls in PRUNER_CLASSES if cls._function is not None],
                         ids=lambda cls: cls.__name__)
def test_a_bad_parameter_gets_the_function_s_message_from_the_pruner(cls, data):
    """The pruner checks its parameters with its function's declared checks, so a value of no
    valid type gets the same error, with the same message, from both."""
    X, y = data
    tree = _fitted(pk.CostComplexityPruner(), X, y, max_depth=4).tree_
    bad = type("BadType", (), {})()
    function = inspect.signature(cls._function).parameters
    for name in set(function) & set(cls().get_params()) - SAMPLES:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with pytest.raises((TypeError, ValueError)) as expected:
                _call_function(cls, tree, X, y, {name: bad})
            with pytest.raises(type(expected.value), match=re.escape(str(expected.value))):
                cls(**{name: bad})(tree, X, y)


def test_the_pruner_checks_its_parameters_before_the_tree_is_grown(data, monkeypatch):
    X, y = data
    monkeypatch.setattr("prunekit.estimator._grow",
                        lambda *args: pytest.fail("the tree was grown before the check"))
    for pruner in (pk.PessimisticPruner(order="sideways"), pk.KReducedErrorPruner(c=0.5),
                   pk.CrossValidatedCostComplexityPruner(cv=1), pk.NobelPruner(method="x"),
                   pk.KearnsMansourPruner(n_features=0), pk.ReducedErrorPruner(labels="x")):
        with pytest.raises(ValueError, match=r"must be (one of|at least|>=)"):
            pk.PrunedTreeClassifier(pruner=pruner).fit(X, y)


class PrunesToTheRootBelowDepth(pk.Pruner):
    """A user's pruner that declares no checks of its parameters."""

    def __init__(self, *, depth=1):
        self.depth = depth

    def prune(self, tree, X_prune=None, y_prune=None):
        return pk.Pruning.from_collapsed(tree, tree.depth >= self.depth)


def test_a_user_s_pruner_needs_no_declared_checks(data):
    X, y = data
    fitted = pk.PrunedTreeClassifier(pruner=PrunesToTheRootBelowDepth(depth=2)).fit(X, y)
    assert fitted.get_depth() <= 2
    with pytest.raises(TypeError, match="PrunesToTheRootBelowDepth: depth must be a single"):
        pk.PrunedTreeClassifier(pruner=PrunesToTheRootBelowDepth(depth=np.ones(3))).fit(X, y)
