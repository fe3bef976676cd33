"""Checks for the exercises of Chapter 11: regression trees and their pruning.

Each ``check_*`` function runs the student's function on fixed, seeded cases and compares the
answers with the library: the squared-error risk of a leaf, R(t) = SS(t) / N
(:meth:`prunekit.RegressionTree.leaf_errors`), the weakest link
g(t) = (R(t) - R(T_t)) / (|T_t~| - 1) of every internal node (Breiman et al. 1984), the 1-SE
rule with Breiman's standard error of a mean squared error (:func:`prunekit.holdout_alpha`),
and the cost per leaf c sigma^2 log(n) / n of the penalty for squared error
(:func:`prunekit.gey_nedelec_alpha`; Gey & Nedelec 2005). When an answer is wrong, the usual
mistakes are recomputed on the same cases, and a hint names one only when it reproduces the
student's answers (:func:`pdtbook.checks.explaining_mistake`).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from sklearn.tree import DecisionTreeRegressor

from prunekit.gey_nedelec_pruning import gey_nedelec_alpha
from prunekit.regression_tree import RegressionTree

from pdtbook.checks import (
    Checker, close, describe, explaining_mistake, fail, float_answer, int_answer,
    mistake_variants,
)

__all__ = [
    "leaf_risk_cases", "check_leaf_risk", "regression_trees", "reference_weakest_links",
    "check_weakest_links", "one_se_cases", "reference_one_se_step", "check_one_se_step",
    "penalty_cases", "check_penalty_alpha", "MEAN_HINT", "NAIVE_HINT", "DENOMINATOR_HINT",
    "NODE_MEAN_HINT", "NODES_HINT", "BRANCH_MEAN_HINT", "CHILDREN_HINT", "SQRT_HINT",
    "LARGEST_HINT", "ZERO_SE_HINT", "EACH_SE_HINT", "LOG_HINT", "SIGMA_HINT",
    "PER_EXAMPLE_HINT",
]


# ---------------------------------------------------------------------- Exercise 11.1
def leaf_risk_cases() -> list[tuple[np.ndarray, int]]:
    """The (targets of a leaf, size N of the whole sample) cases of :func:`check_leaf_risk`:
    small numbers, one target, a seeded normal sample, and targets near 1e8 that differ by
    less than 1, where sum(y^2) - sum(y)^2 / n loses every digit."""
    rng = np.random.default_rng(11)
    return [(np.array([1.0, 3.0]), 4), (np.array([2.0, 2.0, 2.0]), 3),
            (np.array([5.0]), 10), (rng.normal(3.0, 2.0, size=50), 200),
            (1e8 + rng.uniform(0.0, 0.5, size=40), 40), (np.array([-1.0, 0.0, 4.0]), 6)]


def _leaf_risk(y, n_total, *, mean: bool = False, naive: bool = False) -> float:
    y = np.asarray(y, dtype=float)
    if naive:
        squares = float(np.sum(y * y) - np.sum(y) ** 2 / len(y))
    else:
        squares = float(np.sum((y - y.mean()) ** 2))
    return squares / (len(y) if mean else n_total)


MEAN_HINT = ("R(t) divides the leaf's sum of squared deviations by N, the size of the whole "
             "sample, not by the leaf's own number of examples: that is what makes the risks "
             "of the leaves add up to the tree's mean squared error.")
NAIVE_HINT = ("sum(y**2) - sum(y)**2 / n subtracts two nearly equal large numbers and loses "
              "every digit when the targets are large and close together (here near 1e8): "
              "compute the mean first, then the sum of the squared deviations from it.")
_LEAF_MISTAKES = [(dict(mean=True), MEAN_HINT), (dict(naive=True), NAIVE_HINT)]


def check_leaf_risk(leaf_risk: Callable) -> None:
    """Check Exercise 11.1: ``leaf_risk(y_leaf, n_total)``, the squared-error risk
    SS(t) / N of a leaf with targets ``y_leaf`` in a sample of size ``n_total``, a float
    (relative tolerance 1e-9)."""
    __tracebackhide__ = True
    check = Checker("leaf_risk", leaf_risk)
    mistakes = mistake_variants(_leaf_risk, _LEAF_MISTAKES)
    for y, n_total in leaf_risk_cases():
        call = f"leaf_risk({describe(y)}, {n_total})"
        value = float_answer(check.call(y, n_total, label=call), call, "the risk, a float")
        expected = _leaf_risk(y, n_total)
        check.expect(close(value, expected),
                     f"{call} returned {describe(value)} but R(t) = {describe(expected)}.",
                     lambda: explaining_mistake(leaf_risk, leaf_risk_cases(), mistakes,
                                                _leaf_risk) or
                     "R(t) = sum over the leaf of (y - mean)^2, divided by N.")
    check.passed()


# ---------------------------------------------------------------------- Exercise 11.2
def regression_trees() -> list[RegressionTree]:
    """The trees of :func:`check_weakest_links`: scikit-learn's regression trees on seeded
    samples, from 3 to 14 leaves, one of them with two equal leaf means."""
    trees = []
    for seed, leaves in [(0, 3), (1, 6), (2, 14), (3, 9)]:
        rng = np.random.default_rng(seed)
        X = rng.uniform(size=(80, 2))
        y = np.sin(4 * X[:, 0]) + X[:, 1] + rng.normal(scale=0.3, size=80)
        if seed == 3:
            y = np.round(y)               # repeated targets: equal means, a zero link
        grower = DecisionTreeRegressor(max_leaf_nodes=leaves, random_state=0)
        trees.append(RegressionTree.from_sklearn(grower.fit(X, y), X, y))
    return trees


def reference_weakest_links(tree: RegressionTree, *, denominator: str = "leaves - 1",
                            scale: str = "N", branch: str = "sum") -> np.ndarray:
    """g(t) = (R(t) - R(T_t)) / (|T_t~| - 1) at every internal node of the whole tree, inf
    at the leaves. The usual mistakes: ``denominator="leaves"`` (|T_t~|) or ``"nodes - 1"``
    (the branch's nodes, 2 |T_t~| - 1, less one), ``scale="node"`` (R(t) as the node's mean
    squared deviation), ``branch="mean"`` (R(T_t) as the mean of the leaves' risks, not their
    sum) and ``branch="children"`` (the drop of t's own split, R(t) less the risks of its
    two children, as if they were leaves)."""
    squares = tree.leaf_errors()
    if scale == "node":
        squares = squares / tree.moments[:, 0]
    else:
        squares = squares / tree.n_samples
    leaves = tree.sum_over_leaves(tree.is_leaf.astype(float))
    links = np.full(tree.n_nodes, np.inf)
    inner = ~tree.is_leaf
    if branch == "children":
        below_risk = squares[tree.left[inner]] + squares[tree.right[inner]]
    else:
        below_risk = tree.sum_over_leaves(np.where(tree.is_leaf, squares, 0.0))[inner]
        if branch == "mean":
            below_risk = below_risk / leaves[inner]
    below = {"leaves - 1": leaves[inner] - 1, "leaves": leaves[inner],
             "nodes - 1": 2 * leaves[inner] - 2}[denominator]
    if branch == "children":
        below = 1.0
    links[inner] = (squares[inner] - below_risk) / below
    return links


DENOMINATOR_HINT = ("g(t) divides the risk saved by the branch by the leaves it adds, "
                    "|T_t~| - 1 (collapsing t turns |T_t~| leaves into one), not by |T_t~|.")
NODE_MEAN_HINT = ("R(t) is the node's sum of squared deviations divided by N, the size of the "
                  "whole sample (tree.n_samples), not by the node's own number of examples.")
NODES_HINT = ("|T_t~| is the number of *leaves* of the branch at t, not of all its nodes "
              "(a branch of L leaves has 2L - 1 nodes): collapsing t saves |T_t~| - 1 "
              "leaves.")
BRANCH_MEAN_HINT = ("R(T_t) is the *sum* of the risks of the leaves below t, not their mean: "
                    "every leaf's risk is already divided by N, so the risks of a branch's "
                    "leaves add up to its part of the tree's mean squared error.")
CHILDREN_HINT = ("g(t) is not the drop of t's own split, R(t) less its children's risks: "
                 "collapsing t removes the whole branch, so R(T_t) sums the risks of all "
                 "the leaves below t, and the saving is shared by the |T_t~| - 1 leaves it "
                 "removes. (The two agree only where both children are leaves.)")
_LINK_MISTAKES = [(dict(denominator="leaves"), DENOMINATOR_HINT),
                  (dict(denominator="nodes - 1"), NODES_HINT),
                  (dict(scale="node"), NODE_MEAN_HINT),
                  (dict(branch="mean"), BRANCH_MEAN_HINT),
                  (dict(branch="children"), CHILDREN_HINT)]


def check_weakest_links(weakest_links: Callable) -> None:
    """Check Exercise 11.2: ``weakest_links(tree)``, an array of g(t) for every node of a
    :class:`~prunekit.RegressionTree` (inf at the leaves), against
    :func:`reference_weakest_links` (relative tolerance 1e-9)."""
    __tracebackhide__ = True
    check = Checker("weakest_links", weakest_links)
    mistakes = mistake_variants(reference_weakest_links, _LINK_MISTAKES)
    cases = [(tree,) for tree in regression_trees()]
    for (tree,) in cases:
        call = f"weakest_links(<tree of {tree.n_leaves} leaves>)"
        answer = check.call(tree, label=call)
        try:
            links = np.asarray(answer, dtype=float)
        except (TypeError, ValueError):
            fail(f"{call} returned {describe(answer)}; it should return an array of floats.",
                 "return one number per node, np.inf at the leaves.")
        check.expect(links.shape == (tree.n_nodes,),
                     f"{call} returned shape {links.shape}; the tree has {tree.n_nodes} "
                     f"nodes.", "return one number per node, np.inf at the leaves.")
        expected = reference_weakest_links(tree)
        check.expect(bool(np.all(np.isinf(links[tree.is_leaf]) & (links[tree.is_leaf] > 0))),
                     f"{call} does not give inf at every leaf.",
                     "a leaf has no branch to collapse: give it np.inf.")
        inner = ~tree.is_leaf
        wrong = np.flatnonzero(inner & ~np.isclose(links, expected, rtol=1e-9, atol=1e-15))
        check.expect(wrong.size == 0,
                     f"{call}: at node {wrong[0] if wrong.size else 0}, g = "
                     f"{describe(links[wrong[0]] if wrong.size else 0.0)} but the weakest-link "
                     f"value is {describe(expected[wrong[0]] if wrong.size else 0.0)}.",
                     lambda: explaining_mistake(
                         weakest_links, cases, mistakes, reference_weakest_links,
                         agree=lambda a, b: np.allclose(np.asarray(a, dtype=float), b,
                                                        rtol=1e-6)) or
                     "g(t) = (R(t) - R(T_t)) / (|T_t~| - 1), with R(T_t) the sum of the "
                     "risks of the leaves below t.")
    check.passed()


# ---------------------------------------------------------------------- Exercise 11.3
def one_se_cases() -> list[tuple[np.ndarray]]:
    """The per-example squared errors of :func:`check_one_se_step`, one array of shape
    (n_steps, N) per case, steps from the largest tree to the root: seeded cases built so
    that each usual mistake picks another step (in the fourth, a step whose own standard
    error is large lies beyond the best step's), and the hold-out errors of a real path."""
    rng = np.random.default_rng(3)
    cases = []
    for means, spread in [((1.0, 0.8, 0.7, 0.74, 0.78, 0.9, 1.4), 0.6),
                          ((2.0, 1.5, 1.2, 1.21, 1.3, 1.6), 1.5),
                          ((0.5, 0.45, 0.5, 0.52, 0.6, 0.8, 1.0), 0.2)]:
        base = rng.gamma(2.0, spread / 2, size=60)
        cases.append(np.array([m * base / base.mean() + rng.normal(0, 0.02, 60) ** 2
                               for m in means]))
    rows = []
    for mean, shape in [(1.3, 2.0), (1.0, 6.0), (1.04, 6.0), (1.2, 0.3), (2.0, 3.0)]:
        spread = np.random.default_rng(4 + len(rows)).gamma(shape, size=60)
        rows.append(mean * spread / spread.mean())
    cases.append(np.array(rows))
    cases.append(_holdout_losses())
    return [(case,) for case in cases]


def _holdout_losses() -> np.ndarray:
    rng = np.random.default_rng(5)
    X = rng.uniform(size=(300, 2))
    y = 3 * (X[:, 0] > 0.5) + X[:, 1] + rng.normal(size=300)
    grower = DecisionTreeRegressor(min_samples_leaf=5, random_state=0)
    tree = RegressionTree.from_sklearn(grower.fit(X[:200], y[:200]), X[:200], y[:200])
    from prunekit.cost_complexity_pruning import cost_complexity_path

    path = cost_complexity_path(tree)
    return np.array([(path.pruning(k).predict(X[200:]) - y[200:]) ** 2
                     for k in range(len(path))])


def reference_one_se_step(losses, *, se: str = "sqrt", pick: str = "smallest",
                          whose: str = "best") -> int:
    """The 1-SE step: the last (smallest) tree whose mean loss is at most the least mean
    loss plus one standard error, sqrt(var(losses of the best step) / N); the usual mistakes
    are ``se="no sqrt"``, ``se="over N"`` (std / N), ``se="zero"`` (the 0-SE rule),
    ``pick="largest"`` and ``whose="each"`` (every step's mean less its own standard error
    compared with the least mean)."""
    losses = np.asarray(losses, dtype=float)
    means = losses.mean(axis=1)
    best = int(np.flatnonzero(means == means.min())[-1])
    n = losses.shape[1]
    variance = float(losses[best].var())
    error = {"sqrt": math.sqrt(variance / n), "no sqrt": variance / n,
             "over N": math.sqrt(variance) / n, "zero": 0.0}[se]
    if whose == "each":
        errors = np.sqrt(losses.var(axis=1) / n)
        within = np.flatnonzero(means - errors <= means[best])
    else:
        within = np.flatnonzero(means <= means[best] + error)
    return int(within[-1] if pick == "smallest" else within[0])


SQRT_HINT = ("the standard error is the square root of var(e_i) / N: without the root (or "
             "with the standard deviation divided by N instead of sqrt(N)) it is far too "
             "small, and the rule keeps almost the best tree.")
LARGEST_HINT = ("the 1-SE rule takes the *smallest* tree within one standard error of the "
                "least error: among the steps within, the last one (steps go from the largest "
                "tree to the root).")
ZERO_SE_HINT = ("that is the 0-SE choice, the step of least mean error; the 1-SE rule then "
                "moves to the smallest tree whose mean error is within one standard error.")
EACH_SE_HINT = ("the threshold is one number, the least mean error plus the standard error "
                "of *that* step, the same for every step; comparing each step's mean less its "
                "own standard error with the least mean is another rule, which lets a step "
                "whose errors vary a lot through.")
_SE_MISTAKES = [(dict(se="zero"), ZERO_SE_HINT), (dict(se="no sqrt"), SQRT_HINT),
                (dict(se="over N"), SQRT_HINT), (dict(pick="largest"), LARGEST_HINT),
                (dict(whose="each"), EACH_SE_HINT)]


def check_one_se_step(one_se_step: Callable) -> None:
    """Check Exercise 11.3: ``one_se_step(losses)``, the step index (an int) the 1-SE rule
    chooses from per-example squared errors of shape (n_steps, N)."""
    __tracebackhide__ = True
    check = Checker("one_se_step", one_se_step)
    mistakes = mistake_variants(reference_one_se_step, _SE_MISTAKES)
    for (losses,) in one_se_cases():
        call = f"one_se_step(<{losses.shape[0]} steps x {losses.shape[1]} examples>)"
        value = int_answer(check.call(losses, label=call), call, "a step index, an int")
        expected = reference_one_se_step(losses)
        check.expect(value == expected,
                     f"{call} returned step {value} but the 1-SE rule chooses step "
                     f"{expected}.",
                     lambda: explaining_mistake(one_se_step, one_se_cases(), mistakes,
                                                reference_one_se_step,
                                                agree=lambda a, b: a == b) or
                     "find the step of least mean loss, its standard error "
                     "sqrt(var / N), and the last step whose mean is within it.")
    check.passed()


# ---------------------------------------------------------------------- Exercise 11.4
def penalty_cases() -> list[tuple[float, float, float]]:
    """The (n, sigma2, c) cases of :func:`check_penalty_alpha`."""
    return [(1000, 4.0, 2.0), (250, 1.0, 1.0), (5000, 0.25, 2.0), (50, 9.0, 0.5),
            (2, 1.0, 2.0)]


def _penalty(n, sigma2, c, *, log=math.log, variance: bool = True,
             per_example: bool = True) -> float:
    scale = sigma2 if variance else math.sqrt(sigma2)
    return c * scale * log(n) / (n if per_example else 1)


LOG_HINT = "the penalty uses the natural logarithm, math.log(n), not log10 or log2."
SIGMA_HINT = ("sigma2 is already the variance sigma^2: multiply by it, not by its square "
              "root.")
PER_EXAMPLE_HINT = ("the cost per leaf is c sigma^2 log(n) / n, on the scale of the mean "
                    "squared error: divide by n.")
_ALPHA_MISTAKES = [(dict(log=math.log10), LOG_HINT), (dict(log=math.log2), LOG_HINT),
                     (dict(variance=False), SIGMA_HINT), (dict(per_example=False),
                                                          PER_EXAMPLE_HINT)]


def check_penalty_alpha(penalty_alpha: Callable) -> None:
    """Check Exercise 11.4: ``penalty_alpha(n, sigma2, c)``, the cost per leaf
    c sigma^2 log(n) / n, against :func:`prunekit.gey_nedelec_alpha`."""
    __tracebackhide__ = True
    check = Checker("penalty_alpha", penalty_alpha)
    mistakes = mistake_variants(_penalty, _ALPHA_MISTAKES)
    for n, sigma2, c in penalty_cases():
        call = f"penalty_alpha({n}, {sigma2}, {c})"
        value = float_answer(check.call(n, sigma2, c, label=call), call,
                             "the cost per leaf, a float")
        expected = gey_nedelec_alpha(n, sigma2, c)
        check.expect(close(value, expected),
                     f"{call} returned {describe(value)} but c sigma^2 log(n) / n = "
                     f"{describe(expected)}.",
                     lambda: explaining_mistake(penalty_alpha, penalty_cases(), mistakes,
                                                _penalty) or
                     "alpha = c * sigma2 * log(n) / n.")
    check.passed()
