"""Cost-complexity pruning: the worked example, brute force, scikit-learn, CV, the estimator."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.datasets import load_breast_cancer, make_classification
from sklearn.model_selection import GridSearchCV, KFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

import prunekit as pk
from prunekit.cost_complexity_pruning import leaf_risks
from strategies import random_trees


def notes_example():
    """The 16-record tree of the lecture notes: root (8, 8) -> leaf (4, 0) and t2 (4, 8);
    t2 -> leaf (0, 6) and t3 (4, 2); t3 -> leaves (4, 0) and (0, 2)."""
    return pk.Tree.from_arrays([1, -1, 3, -1, 5, -1, -1], [2, -1, 4, -1, 6, -1, -1],
                               [[8, 8], [4, 0], [4, 8], [0, 6], [4, 2], [4, 0], [0, 2]])


def test_the_notes_worked_example():
    tree = notes_example()
    path = pk.cost_complexity_path(tree)
    assert [Fraction(a).limit_denominator(64) for a in path.alphas] == [0, Fraction(1, 8), Fraction(1, 4)]
    assert path.n_leaves.tolist() == [4, 2, 1]
    np.testing.assert_allclose(path.risks, [0, 4 / 16, 8 / 16])
    # t2 and t3 tie at g = 1/8 and are collapsed together
    assert path.node_alpha[2] == path.node_alpha[4] == 1 / 8 and path.node_alpha[0] == 1 / 4
    assert path.pruning(1) == pk.Pruning.from_collapsed(tree, [2])
    assert path.pruning(-1) == pk.Pruning.root_only(tree)
    assert pk.cost_complexity(tree, 0.1) == pk.Pruning.full(tree)
    assert pk.cost_complexity(tree, 0.125) == path.pruning(1)
    assert pk.cost_complexity(tree, 0.3).n_nodes == 1


def brute_force_smallest_minimiser(tree, risk, alpha):
    best = None
    for pruning in pk.all_prunings(tree):
        value = risk[pruning.leaves].sum() + alpha * pruning.n_leaves
        key = (round(value, 12), pruning.n_nodes)
        if best is None or key < best[0]:
            best = (key, pruning)
    return best[1]


@given(random_trees(max_leaves=7), st.lists(st.floats(0, 0.6), max_size=3))
def test_cost_complexity_is_the_smallest_minimiser(tree, extra_alphas):
    risk = leaf_risks(tree)
    path = pk.cost_complexity_path(tree)
    mids = (path.alphas[:-1] + path.alphas[1:]) / 2
    for alpha in np.concatenate([path.alphas, mids, extra_alphas]):
        assert pk.cost_complexity(tree, alpha) == brute_force_smallest_minimiser(tree, risk, alpha)


@given(random_trees(max_leaves=10))
def test_path_is_nested_and_consistent(tree):
    path = pk.cost_complexity_path(tree)
    risk = leaf_risks(tree)
    assert path.alphas[0] == 0 and np.all(np.diff(path.alphas) > 0)
    assert np.all(np.diff(path.n_leaves) < 0) and path.n_leaves[-1] == 1
    prunings = [path.pruning(k) for k in range(len(path))]
    for k, pruning in enumerate(prunings):
        assert pruning.n_leaves == path.n_leaves[k]
        assert risk[pruning.leaves].sum() == pytest.approx(path.risks[k])
        assert path.errors(tree.counts)[k] == pruning.errors()
    for bigger, smaller in zip(prunings, prunings[1:]):
        assert np.all(bigger.kept >= smaller.kept)
    # T1 keeps the full tree's risk, and no smaller pruning does
    full_risk = risk[tree.is_leaf].sum()
    assert path.risks[0] == pytest.approx(full_risk)
    if count := [p for p in pk.all_prunings(tree, limit=10**5)
                 if risk[p.leaves].sum() <= full_risk + 1e-12]:
        assert min(p.n_nodes for p in count) == prunings[0].n_nodes


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_impurity_path_equals_scikit_learn(seed, criterion):
    X, y = make_classification(300, 6, n_informative=4, n_classes=2 + seed % 3, flip_y=0.2,
                               random_state=seed)
    clf = DecisionTreeClassifier(criterion=criterion, random_state=seed).fit(X, y)
    path = pk.cost_complexity_path(pk.Tree.from_sklearn(clf, X, y), "impurity")
    reference = np.unique(clf.cost_complexity_pruning_path(X, y).ccp_alphas)
    assert len(path.alphas) == len(reference)
    np.testing.assert_allclose(path.alphas, reference, rtol=1e-9, atol=1e-15)
    for alpha in (path.alphas[:-1] + path.alphas[1:]) / 2:
        ours = path.pruning_at(alpha)
        theirs = DecisionTreeClassifier(criterion=criterion, random_state=seed,
                                        ccp_alpha=alpha).fit(X, y)
        assert ours.n_leaves == theirs.get_n_leaves()
        np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


def test_error_and_impurity_paths_differ():
    X, y = make_classification(400, 6, flip_y=0.3, random_state=0)
    clf = DecisionTreeClassifier(min_samples_leaf=10, random_state=0).fit(X, y)
    tree = pk.Tree.from_sklearn(clf, X, y)
    by_error = pk.cost_complexity_path(tree, "error")
    by_impurity = pk.cost_complexity_path(tree, "impurity")
    # every split lowers the impurity, so the impurity path starts at the full tree; with
    # impure leaves, many splits fix no training error, and the misclassification path
    # starts at the smaller T1 where they are gone
    assert by_impurity.n_leaves[0] == tree.n_leaves
    assert by_error.n_leaves[0] < tree.n_leaves


def test_impurity_of_prunekit_grown_trees():
    X, y = make_classification(200, 4, random_state=1)
    ours = pk.grow_tree(X, y, "gini")
    sk = DecisionTreeClassifier(random_state=1).fit(X, y)
    reference = pk.cost_complexity_path(pk.Tree.from_sklearn(sk, X, y), "impurity")
    if pk.growing.compare_splits(ours, pk.Tree.from_sklearn(sk, X, y), X, y).identical:
        np.testing.assert_allclose(pk.cost_complexity_path(ours, "impurity").alphas,
                                   reference.alphas)


def test_cross_validation_by_hand():
    X, y = make_classification(300, 5, flip_y=0.2, random_state=3)
    folds = KFold(5, shuffle=True, random_state=0)
    selection = pk.cross_validate_alpha(X, y, cv=folds)
    path = selection.path
    errors = np.zeros(len(path))
    for train, test in folds.split(X, y):
        fold_tree = pk.Tree.from_sklearn(DecisionTreeClassifier(random_state=0).fit(X[train], y[train]),
                                         X[train], y[train])
        fold_path = pk.cost_complexity_path(fold_tree)
        for k, beta in enumerate(selection.betas):
            pruning = fold_path.pruning(-1) if np.isinf(beta) else fold_path.pruning_at(beta)
            errors[k] += np.sum(pruning.predict(X[test]) != y[test])
    np.testing.assert_allclose(selection.error, errors / len(y))
    assert selection.betas[0] == 0
    np.testing.assert_allclose(selection.betas[1:-1], np.sqrt(path.alphas[1:-1] * path.alphas[2:]))
    best, one_se = selection.best, selection.one_se
    assert selection.error[best] == selection.error.min() and one_se >= best
    assert selection.error[one_se] <= selection.error[best] + selection.standard_error[best]
    assert "0-SE" in selection.table() and "1-SE" in selection.table()
    again = pk.cross_validate_alpha(X, y, cv=folds)
    np.testing.assert_array_equal(again.error, selection.error)


def test_holdout_selection():
    X, y = make_classification(400, 5, flip_y=0.2, random_state=4)
    tree = pk.Tree.from_sklearn(DecisionTreeClassifier(random_state=0).fit(X[:250], y[:250]),
                                X[:250], y[:250])
    selection = pk.holdout_alpha(tree, X[250:], y[250:])
    for k in range(len(selection.path)):
        assert selection.error[k] == pytest.approx(selection.path.pruning(k).error(X[250:], y[250:]))
    assert selection.alpha_one_se >= selection.alpha_best


@pytest.mark.parametrize("alpha, error", [(-0.1, ValueError), (np.nan, ValueError),
                                          (np.inf, ValueError), ("0.1", TypeError)])
def test_bad_alpha(alpha, error):
    with pytest.raises(error, match="alpha"):
        pk.cost_complexity(notes_example(), alpha)


def test_bad_risk_and_tree():
    tree = notes_example()
    with pytest.raises(ValueError, match="risk must be one of"):
        pk.cost_complexity_path(tree, "gini")
    with pytest.raises(ValueError, match="risk='impurity' needs the split impurity"):
        pk.cost_complexity_path(tree, "impurity")
    with pytest.raises(TypeError, match="prunekit Tree"):
        pk.cost_complexity_path("tree")
    path = pk.cost_complexity_path(tree)
    with pytest.raises(IndexError, match="step"):
        path.pruning(3)
    with pytest.raises(ValueError, match="cv must be at least 2"):
        pk.cross_validate_alpha(*make_classification(50, 3, n_informative=2, n_redundant=0,
                                                     random_state=0), cv=1)


def test_a_deep_chain_of_nodes():
    """A caterpillar tree (depth ~ n/2): every internal node has a leaf as its left child."""
    n = 4001
    left = [v + 1 if v % 2 == 0 and v < n - 1 else -1 for v in range(n)]
    right = [v + 2 if v % 2 == 0 and v < n - 1 else -1 for v in range(n)]
    counts = np.zeros((n, 2), int)
    rng = np.random.default_rng(0)
    for v in range(n - 1, -1, -1):
        counts[v] = rng.integers(0, 5, 2) if left[v] == -1 else counts[left[v]] + counts[right[v]]
    tree = pk.Tree.from_arrays(left, right, counts)
    assert tree.max_depth == n // 2
    path = pk.cost_complexity_path(tree)
    assert path.n_leaves[-1] == 1 and np.all(np.diff(path.n_leaves) < 0)


# ---------------------------------------------------------------------- the estimator
def test_estimator_in_model_selection():
    X, y = make_classification(300, 6, flip_y=0.2, random_state=0)
    model = pk.PrunedTreeClassifier(pruner=pk.CostComplexityPruner(), random_state=0)
    search = GridSearchCV(model,
                          {"pruner__alpha": [0.0, 0.005, 0.02], "pruner__risk": ["error"]},
                          cv=3).fit(X, y)
    assert search.best_params_["pruner__alpha"] in (0.0, 0.005, 0.02)
    pipeline = make_pipeline(StandardScaler(), pk.PrunedTreeClassifier(random_state=0))
    scores = cross_val_score(pipeline, X, y, cv=3)
    assert scores.shape == (3,) and np.all((0 <= scores) & (scores <= 1))
    fitted = pk.PrunedTreeClassifier(pruner=pk.CostComplexityPruner(alpha=0.02),
                                     random_state=0).fit(X, y)
    assert fitted.pruning_ == pk.cost_complexity(fitted.tree_, 0.02)
    np.testing.assert_array_equal(fitted.predict(X), fitted.pruning_.predict(X))
    with pytest.raises(TypeError, match="pruner must be a prunekit Pruner"):
        pk.PrunedTreeClassifier(pruner="ccp").fit(X, y)


# ---------------------------------------------------------------------- scoring and n_jobs
def test_any_scorer_can_choose_alpha():
    """scoring=: each fold scores every step's tree; accuracy gives nearly Breiman's count
    (the mean over folds weighs the folds equally), balanced accuracy keeps rare classes."""
    from sklearn.metrics import balanced_accuracy_score, make_scorer

    X, y = load_breast_cancer(return_X_y=True)
    counted = pk.cross_validate_alpha(X, y, cv=5)
    scored = pk.cross_validate_alpha(X, y, cv=5, scoring="accuracy")
    assert np.allclose(scored.error, counted.error, atol=2e-3)
    assert scored.method == "CV accuracy"
    by_hand = pk.cross_validate_alpha(X, y, cv=5, scoring=make_scorer(balanced_accuracy_score))
    named = pk.cross_validate_alpha(X, y, cv=5, scoring="balanced_accuracy")
    assert by_hand.error.tolist() == named.error.tolist()
    # with three folds of a rare class, balanced accuracy keeps the splits that find it
    rng = np.random.default_rng(0)
    X_rare = rng.normal(size=(600, 4))
    y_rare = np.where((X_rare[:, 0] > 1.6) & (rng.random(600) < 0.8), 1, 0)
    y_rare[rng.random(600) < 0.05] ^= 1
    plain = pk.cross_validate_alpha(X_rare, y_rare, cv=3)
    balanced = pk.cross_validate_alpha(X_rare, y_rare, cv=3, scoring="balanced_accuracy")
    assert balanced.path.n_leaves[balanced.best] >= plain.path.n_leaves[plain.best]
    assert np.all(balanced.standard_error >= 0)


def test_parallel_folds_give_the_same_selection():
    X, y = load_breast_cancer(return_X_y=True)
    serial = pk.cross_validate_alpha(X, y, cv=4)
    parallel = pk.cross_validate_alpha(X, y, cv=4, n_jobs=2)
    assert serial.error.tolist() == parallel.error.tolist()
    pruner = pk.CrossValidatedCostComplexityPruner(cv=4, n_jobs=2, scoring="balanced_accuracy")
    model = pk.PrunedTreeClassifier(pruner=pruner, random_state=0).fit(X, y)
    assert model.pruner_.selection_.method == "CV balanced_accuracy"


@pytest.mark.parametrize("options, error, match", [
    (dict(scoring="acuracy"), ValueError, "scoring must be None, a callable or one of"),
    (dict(scoring=3), TypeError, "scoring must be None, a scorer name or a callable"),
    (dict(n_jobs=0), ValueError, "n_jobs must be None or a nonzero int"),
    (dict(n_jobs=1.5), ValueError, "n_jobs must be None or a nonzero int"),
])
def test_bad_scoring_and_n_jobs(options, error, match):
    X, y = load_breast_cancer(return_X_y=True)
    with pytest.raises(error, match=match):
        pk.cross_validate_alpha(X, y, cv=3, **options)
    with pytest.raises(error, match=match):
        pk.PrunedTreeClassifier(pruner=pk.CrossValidatedCostComplexityPruner(**options)
                                ).fit(X, y)
