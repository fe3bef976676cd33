"""The checks of Chapter 11's exercises: correct answers pass with one line; wrong solutions
(mutants: the usual mistakes, an argument ignored, an input changed in place, a wrong type) are
rejected, each with the hint that names its mistake.

The correct answers follow the solution notebook
(``exercises/solutions/11-regression-trees.ipynb``); the references of the checks are compared
with prunekit's own computations.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import prunekit as pk
from checking import assert_hint, failure, ignoring, mutating, retyped
from checking import failure_message as _message
from checking import not_implemented as _todo

from pdtbook.checks import ARRAY_HINT, ch11


# ---------------------------------------------------------------------- Exercise 11.1
def leaf_risk(y, n_total):
    y = np.asarray(y, dtype=float)
    return float(np.sum((y - y.mean()) ** 2) / n_total)


def test_leaf_risk_passes_and_is_the_trees_risk(capsys):
    ch11.check_leaf_risk(leaf_risk)
    assert capsys.readouterr().out == "✓ leaf_risk: all 6 checks passed.\n"
    from sklearn.tree import DecisionTreeRegressor
    rng = np.random.default_rng(0)
    X, y = rng.uniform(size=(60, 1)), rng.normal(size=60)
    tree = pk.RegressionTree.from_sklearn(
        DecisionTreeRegressor(max_leaf_nodes=4).fit(X, y), X, y)
    leaf = tree.apply(X)
    for v in np.flatnonzero(tree.is_leaf):
        assert leaf_risk(y[leaf == v], 60) == pytest.approx(tree.leaf_errors()[v] / 60)


@pytest.mark.parametrize("changes, hint", [
    (dict(mean=True), ch11.MEAN_HINT),
    (dict(naive=True), ch11.NAIVE_HINT),
])
def test_leaf_risk_mistakes(changes, hint):
    assert_hint(ch11.check_leaf_risk, lambda y, n: ch11._leaf_risk(y, n, **changes), hint)


def test_leaf_risk_accepts_other_stable_computations():
    """Any computation that subtracts the mean before squaring passes, also near 1e8: NumPy's
    variance, Welford's one-pass update, a plain Python loop."""
    def welford(y, n_total):
        mean = total = 0.0
        for k, value in enumerate(y, start=1):
            step = value - mean
            mean += step / k
            total += step * (value - mean)
        return total / n_total

    for stable in (lambda y, n: float(np.var(y) * len(y) / n), welford,
                   lambda y, n: sum((v - sum(y) / len(y)) ** 2 for v in y) / n):
        ch11.check_leaf_risk(stable)


def test_leaf_risk_types_and_arguments():
    assert_hint(ch11.check_leaf_risk, retyped(leaf_risk, np.array), ARRAY_HINT)
    failure(ch11.check_leaf_risk, ignoring(leaf_risk, 1, 10))
    failure(ch11.check_leaf_risk, mutating(leaf_risk, 0))
    assert "not implemented" in _message(ch11.check_leaf_risk, _todo)


# ---------------------------------------------------------------------- Exercise 11.2
def weakest_links(tree):
    """A recursion from the root, as a student may write it."""
    risk = tree.moments[:, 2] / tree.n_samples
    links = np.full(tree.n_nodes, np.inf)

    def branch(v):                       # (risk of the leaves below v, their number)
        if tree.is_leaf[v]:
            return risk[v], 1
        (r_left, n_left), (r_right, n_right) = branch(tree.left[v]), branch(tree.right[v])
        links[v] = (risk[v] - r_left - r_right) / (n_left + n_right - 1)
        return r_left + r_right, n_left + n_right

    branch(0)
    return links


def test_weakest_links_pass_and_give_the_paths_first_alpha(capsys):
    ch11.check_weakest_links(weakest_links)
    assert capsys.readouterr().out == "✓ weakest_links: all 12 checks passed.\n"
    for tree in ch11.regression_trees():
        links = ch11.reference_weakest_links(tree)
        path = pk.cost_complexity_path(tree)
        first = path.alphas[1] if path.alphas.size > 1 else math.inf
        assert links.min() == pytest.approx(first) or links.min() <= 1e-12


@pytest.mark.parametrize("changes, hint", [
    (dict(denominator="leaves"), ch11.DENOMINATOR_HINT),
    (dict(denominator="nodes - 1"), ch11.NODES_HINT),
    (dict(scale="node"), ch11.NODE_MEAN_HINT),
    (dict(branch="mean"), ch11.BRANCH_MEAN_HINT),
    (dict(branch="children"), ch11.CHILDREN_HINT),
])
def test_weakest_links_mistakes(changes, hint):
    assert_hint(ch11.check_weakest_links,
                lambda tree: ch11.reference_weakest_links(tree, **changes), hint)


def test_weakest_links_mistakes_as_a_student_writes_them():
    """The mistakes written out, not through the reference: the branch's mean risk, and the
    drop of each node's own split."""
    def mean_branch(tree):
        risk = tree.moments[:, 2] / tree.n_samples
        links = np.full(tree.n_nodes, np.inf)

        def branch(v):
            if tree.is_leaf[v]:
                return [risk[v]]
            below = branch(tree.left[v]) + branch(tree.right[v])
            links[v] = (risk[v] - np.mean(below)) / (len(below) - 1)
            return below

        branch(0)
        return links

    def own_split(tree):
        risk = tree.moments[:, 2] / tree.n_samples
        inner = np.flatnonzero(~tree.is_leaf)
        links = np.full(tree.n_nodes, np.inf)
        links[inner] = risk[inner] - risk[tree.left[inner]] - risk[tree.right[inner]]
        return links

    assert_hint(ch11.check_weakest_links, mean_branch, ch11.BRANCH_MEAN_HINT)
    assert_hint(ch11.check_weakest_links, own_split, ch11.CHILDREN_HINT)


def test_weakest_links_shapes_and_leaves():
    failure(ch11.check_weakest_links, lambda tree: weakest_links(tree)[1:])
    failure(ch11.check_weakest_links,
            lambda tree: np.where(tree.is_leaf, 0.0, weakest_links(tree)))
    failure(ch11.check_weakest_links, lambda tree: "links")
    assert "not implemented" in _message(ch11.check_weakest_links, _todo)


# ---------------------------------------------------------------------- Exercise 11.3
def one_se_step(losses):
    losses = np.asarray(losses, dtype=float)
    means = losses.mean(axis=1)
    best = int(np.flatnonzero(means == means.min())[-1])
    error = math.sqrt(losses[best].var() / losses.shape[1])
    return int(np.flatnonzero(means <= means[best] + error)[-1])


def test_one_se_step_passes_and_is_prunekits_rule(capsys):
    ch11.check_one_se_step(one_se_step)
    assert capsys.readouterr().out == "✓ one_se_step: all 5 checks passed.\n"
    # on a hold-out sample, prunekit's 1-SE choice is the same step
    rng = np.random.default_rng(7)
    X = rng.uniform(size=(400, 2))
    y = np.sin(5 * X[:, 0]) + rng.normal(size=400)
    from sklearn.tree import DecisionTreeRegressor
    tree = pk.RegressionTree.from_sklearn(
        DecisionTreeRegressor(min_samples_leaf=5, random_state=0).fit(X[:250], y[:250]),
        X[:250], y[:250])
    path = pk.cost_complexity_path(tree)
    losses = np.array([(path.pruning(k).predict(X[250:]) - y[250:]) ** 2
                       for k in range(len(path))])
    selection = pk.holdout_alpha(tree, X[250:], y[250:])
    assert one_se_step(losses) == selection.one_se
    assert ch11.reference_one_se_step(losses, se="zero") == selection.best


@pytest.mark.parametrize("changes, hint", [
    (dict(se="zero"), ch11.ZERO_SE_HINT),
    (dict(se="no sqrt"), ch11.SQRT_HINT),
    (dict(se="over N"), ch11.SQRT_HINT),
    (dict(pick="largest"), ch11.LARGEST_HINT),
    (dict(whose="each"), ch11.EACH_SE_HINT),
])
def test_one_se_step_mistakes(changes, hint):
    assert_hint(ch11.check_one_se_step,
                lambda losses: ch11.reference_one_se_step(losses, **changes), hint)


def test_one_se_step_with_each_steps_own_error():
    def each(losses):
        losses = np.asarray(losses, dtype=float)
        means = losses.mean(axis=1)
        errors = losses.std(axis=1) / math.sqrt(losses.shape[1])
        return int(np.flatnonzero(means - errors <= means.min())[-1])

    assert_hint(ch11.check_one_se_step, each, ch11.EACH_SE_HINT)


def test_one_se_step_accepts_the_one_pass_variance_and_a_first_minimum():
    """prunekit's own standard error, sqrt((mean(e^2) - mean(e)^2) / N), and the first of
    tied minima give the same steps on the check's cases: no case is that close."""
    def one_pass(losses):
        losses = np.asarray(losses, dtype=float)
        means = losses.mean(axis=1)
        best = int(np.argmin(means))
        second = (losses[best] ** 2).mean()
        error = math.sqrt(max(second - means[best] ** 2, 0.0) / losses.shape[1])
        return int(np.flatnonzero(means <= means[best] + error)[-1])

    ch11.check_one_se_step(one_pass)


def test_one_se_step_types():
    assert_hint(ch11.check_one_se_step, retyped(one_se_step, np.array), ARRAY_HINT)
    failure(ch11.check_one_se_step, retyped(one_se_step, float))
    failure(ch11.check_one_se_step, mutating(one_se_step, 0))


# ---------------------------------------------------------------------- Exercise 11.4
def penalty_alpha(n, sigma2, c):
    return c * sigma2 * math.log(n) / n


def test_penalty_alpha_passes(capsys):
    ch11.check_penalty_alpha(penalty_alpha)
    assert capsys.readouterr().out == "✓ penalty_alpha: all 5 checks passed.\n"


@pytest.mark.parametrize("changes, hint", [
    (dict(log=math.log10), ch11.LOG_HINT),
    (dict(log=math.log2), ch11.LOG_HINT),
    (dict(variance=False), ch11.SIGMA_HINT),
    (dict(per_example=False), ch11.PER_EXAMPLE_HINT),
])
def test_penalty_alpha_mistakes(changes, hint):
    assert_hint(ch11.check_penalty_alpha,
                lambda n, s, c: ch11._penalty(n, s, c, **changes), hint)


def test_penalty_alpha_arguments():
    failure(ch11.check_penalty_alpha, ignoring(penalty_alpha, 2, 2.0))
    failure(ch11.check_penalty_alpha, lambda n, s, c: penalty_alpha(n, s, c) * 2)
    assert "not implemented" in _message(ch11.check_penalty_alpha, _todo)
