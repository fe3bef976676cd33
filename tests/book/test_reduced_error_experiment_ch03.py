"""The experiment of chapter 3: REP against the pruning share, and against cost complexity.

``pruning_share_experiment`` must do what the chapter says it does: for every seed, hold out
a stratified test set, give a stratified share of the rest to pruning, grow a tree to purity
on the remainder and prune it by REP; compare both leaf labellings at one share; and choose
cost-complexity pruning's alpha by cross-validation on the same training data.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, make_classification
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier

import prunekit as pk
from pdtbook.experiments import SHARE_EXPERIMENT_KEYS, pruning_share_experiment

X, y = make_classification(150, 5, n_informative=3, flip_y=0.2, random_state=0)


@pytest.fixture(scope="module")
def runs():
    return pruning_share_experiment(X, y, [0.2, 0.5], seeds=[3, 4, 5], cv=3)


def test_shapes_and_keys(runs):
    assert tuple(runs) == SHARE_EXPERIMENT_KEYS
    assert runs["rep_error"].shape == runs["rep_nodes"].shape == (3, 2)
    for key in SHARE_EXPERIMENT_KEYS[2:]:
        assert runs[key].shape == (3,), key
    for key, values in runs.items():
        assert values.dtype == float
        if key.endswith("_error"):
            assert np.all((0 <= values) & (values <= 1)), key
        else:
            assert np.all(values >= 1) and np.all(values % 2 == 1), key   # binary trees


def _split(seed):
    return train_test_split(X, y, test_size=0.3, stratify=y, random_state=seed)


def _grown_at(seed, fraction):
    """The grown tree and the pruning sample of one run."""
    X_train, _, y_train, _ = _split(seed)
    X_grow, X_prune, y_grow, y_prune = train_test_split(
        X_train, y_train, test_size=fraction, stratify=y_train, random_state=seed)
    clf = DecisionTreeClassifier(random_state=seed).fit(X_grow, y_grow)
    return pk.Tree.from_sklearn(clf, X_grow, y_grow), X_prune, y_prune


def test_one_run_by_hand(runs):
    seed, fraction = 4, 0.5
    X_train, X_test, y_train, y_test = _split(seed)
    pruned = pk.reduced_error(*_grown_at(seed, fraction))
    assert runs["rep_error"][1, 1] == pruned.error(X_test, y_test)
    assert runs["rep_nodes"][1, 1] == pruned.n_nodes
    selection = pk.cross_validate_alpha(X_train, y_train, cv=3, random_state=seed)
    assert runs["ccp_error"][1] == selection.path.pruning(selection.best).error(X_test, y_test)
    assert runs["ccp_1se_nodes"][1] == selection.path.pruning(selection.one_se).n_nodes
    assert runs["unpruned_nodes"][1] == selection.path.tree.n_nodes


def test_the_comparison_share_and_the_labellings():
    runs = pruning_share_experiment(X, y, [1 / 3, 0.6], seeds=[0, 1], cv=3)
    # with share = 1/3 among the fractions, REP with growing labels is the same run
    assert np.array_equal(runs["growing_labels_error"], runs["rep_error"][:, 0])
    assert np.array_equal(runs["growing_labels_nodes"], runs["rep_nodes"][:, 0])
    other = pruning_share_experiment(X, y, [0.6], seeds=[0, 1], share=0.6, cv=3)
    assert np.array_equal(other["growing_labels_error"], runs["rep_error"][:, 1])
    # the pruning sample's labels are a different run on the same split
    labelled = [pk.reduced_error(*_grown_at(seed, 1 / 3), labels="pruning") for seed in (0, 1)]
    assert runs["pruning_labels_nodes"].tolist() == [p.n_nodes for p in labelled]


def test_the_chapter_numbers_for_the_breast_cancer_data():
    runs = pruning_share_experiment(*load_breast_cancer(return_X_y=True), [0.4], seeds=range(20))
    assert round(runs["rep_error"].mean(), 4) == 0.0632
    assert round(runs["rep_nodes"].mean(), 1) == 9.2
    assert round(runs["ccp_error"].mean(), 4) == 0.0623


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(X=X[:, 0]), ValueError, "X"),
    (dict(y=y[:-1]), ValueError, "y"),
    (dict(fractions=[0.2, 1.0]), ValueError, r"fractions\[1\] must lie in \(0, 1\)"),
    (dict(fractions=0.2), TypeError, "fractions must be a sequence"),
    (dict(fractions=[]), ValueError, "fractions must hold at least one"),
    (dict(seeds=[0, -1]), ValueError, r"seeds\[1\] must be at least 0"),
    (dict(seeds=[0.5]), TypeError, r"seeds\[0\] must be an integer"),
    (dict(seeds=7), TypeError, "seeds must be a sequence"),
    (dict(seeds=[]), ValueError, "seeds must hold at least one"),
    (dict(test_size=0), ValueError, "test_size"),
    (dict(share=1.5), ValueError, "share"),
    (dict(cv=1), ValueError, "cv must be at least 2"),
])
def test_bad_arguments_are_refused_by_name(kwargs, error, message):
    arguments = dict(X=X, y=y, fractions=[0.3], seeds=[0], cv=3)
    arguments.update(kwargs)
    with pytest.raises(error, match=message):
        pruning_share_experiment(**arguments)
