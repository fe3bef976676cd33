"""Cost-complexity pruning (Chapter 2): weakest links, the alpha path, choosing alpha.

Breiman, Friedman, Olshen & Stone (1984): for alpha >= 0 the cost-complexity of a pruning P is

    R_alpha(P) = R(P) + alpha |P~|,

with R(P) the sum of the leaf risks R(t) = r(t) p(t) and |P~| the number of leaves. As alpha
grows, the smallest minimiser of R_alpha shrinks through a nested sequence T1 > T2 > ... > {root},
found by repeatedly collapsing the *weakest link*, the internal node t of the current tree with
the smallest

    g(t) = (R(t) - R(T_t)) / (|T_t~| - 1).

:func:`cost_complexity_path` computes the whole sequence with a priority queue keyed by g and
updates along the ancestors of each collapsed node: O(n log n) plus the ancestor walks, instead
of rescanning every node at every step as scikit-learn's ``ccp_pruning_path`` does (quadratic).

Alpha is chosen by V-fold cross-validation (Breiman et al. 1984, Sec. 3.4;
:func:`cross_validate_alpha`) or on a hold-out sample (:func:`holdout_alpha`).
:class:`CostComplexityPruner` (a fixed alpha) and :class:`CrossValidatedCostComplexityPruner`
(alpha by cross-validation, the default of :class:`~prunekit.PrunedTreeClassifier`) are the
method for the classifier.
"""

from __future__ import annotations

import heapq
import numbers
import warnings
from dataclasses import dataclass

import numpy as np
from sklearn.base import is_regressor

from prunekit.validation import (
    as_array,
    check_choice,
    check_count,
    check_labels,
    check_real,
    check_sample_weight,
    random_state_for_scikit_learn,
)
from prunekit._deprecation import renamed_parameter
from prunekit._parameters import check_parameters, checked_where_used, constraint
from prunekit.impurity import GROWER_CRITERIA, counts_impurity
from prunekit.path import PruningPath, leaf_intervals, sum_per_step
from prunekit.pruner import Pruner, pruning_sample_counts
from prunekit.regression_tree import check_targets
from prunekit.tree import Pruning, ReadOnlyArrays, Tree, _estimator_weights, _grow, check_tree

__all__ = ["RISKS", "leaf_risks", "collapse_alphas", "CostComplexityPath", "cost_complexity_path",
           "cost_complexity", "AlphaSelection", "cross_validate_alpha", "choose_steps", "holdout_alpha",
           "RULES", "CostComplexityPruner", "CrossValidatedCostComplexityPruner"]

RISKS = ("error", "impurity")


def _check_alpha(alpha, name: str = "alpha") -> float:
    return check_real(alpha, name, minimum=0)


#: The checks of the parameters of :func:`cost_complexity`, which
#: :class:`CostComplexityPruner` shares.
_CCP_PARAMETERS = {"alpha": _check_alpha, "risk": constraint(check_choice, options=RISKS)}


def _node_impurity(tree: Tree) -> np.ndarray:
    """The grower's impurity of every node: the tree's own, or else from its counts."""
    if tree.impurity is not None:
        return np.asarray(tree.impurity, dtype=float)
    if isinstance(tree, Tree) and tree.criterion in GROWER_CRITERIA:
        return counts_impurity(tree.counts, tree.criterion)
    raise ValueError(
        "risk='impurity' needs the split impurity of the tree's grower, and this tree has "
        "none (it was built with Tree.from_arrays, or by a grower with an unknown criterion "
        f"{tree.criterion!r}); use risk='error'."
    )


def leaf_risks(tree: Tree, risk: str = "error") -> np.ndarray:
    """R(t) of every node t as a leaf, as a fraction of the growing sample.

    Parameters
    ----------
    tree : Tree
    risk : {"error", "impurity"}
        ``"error"``: Breiman's misclassification risk R(t) = r(t) p(t), with r(t) = 1 - max_k
        p(k | t) the error rate of the majority label and p(t) = m_t / m. ``"impurity"``: the
        grower's impurity i(t) weighted by p(t), as scikit-learn's ``ccp_alpha`` uses.

    Returns
    -------
    ndarray of shape (n_nodes,)
    """
    check_tree(tree, regression=True)
    risk = check_choice(risk, "risk", RISKS)
    reached = tree._reached()
    m = tree.n_samples or 1           # the total weight of a weighted tree
    if risk == "error":
        return tree.leaf_errors().astype(float) / m
    return _node_impurity(tree) * reached / m


@dataclass(frozen=True, eq=False, repr=False)
class CostComplexityPath(PruningPath):
    """The nested sequence of cost-complexity prunings T1 > T2 > ... > {root}.

    It stores one number per node -- the alpha above which the node is no longer internal --
    and builds any step's :class:`~prunekit.Pruning` on demand; it never materialises the
    whole sequence. It is a sequence (:class:`~prunekit.path.PruningPath`, shared with
    :class:`~prunekit.CriticalValuePath`): ``path[k]`` is ``(alphas[k], path.pruning(k))``.

    Attributes
    ----------
    tree : Tree
    risk : str
    node_alpha : ndarray of shape (n_nodes,)
        For an internal node, the alpha at which it becomes a leaf or is cut away (the smallest
        collapse alpha on its path from the root); ``inf`` at the tree's leaves.
    alphas : ndarray of shape (n_steps,)
        The distinct alphas, increasing, starting with 0: step k's tree T_{k+1} is the smallest
        minimiser of R_alpha for alpha in [alphas[k], alphas[k+1]).
    n_leaves : ndarray of shape (n_steps,)
        Number of leaves of each step's tree.
    risks : ndarray of shape (n_steps,)
        R(T) of each step's tree.

    The arrays are read-only.
    """

    _NODE_VALUES = "node_alpha"
    _STEP_VALUES = "alphas"
    _PARAMETER = "alpha"
    _PARAMETER_MINIMUM = 0
    _PARAMETER_FINITE = True
    _DESCRIBED_BY = "risk"

    tree: Tree
    risk: str
    node_alpha: np.ndarray
    alphas: np.ndarray
    n_leaves: np.ndarray
    risks: np.ndarray

    def step(self, alpha) -> int:
        """Index of the step whose tree minimises R_alpha (the smallest minimiser)."""
        return super().step(alpha)

    def pruning_at(self, alpha) -> Pruning:
        """The smallest minimiser of R_alpha (the same as :func:`cost_complexity`)."""
        return super().pruning_at(alpha)


def collapse_alphas(tree: Tree, risk: np.ndarray) -> np.ndarray:
    """The alpha at which each node is collapsed: the weakest-link pruning of
    Breiman et al. (1984), computed with a priority queue.

    Nodes are popped in order of g(t) = (R(t) - R(T_t)) / (|T_t~| - 1).
    Collapsing a node only raises the g of its ancestors (a weakest link has
    the smallest ratio, and removing it from an ancestor's ratio cannot lower
    it), so a queued key is a lower bound: a popped node whose g has grown
    since is queued again with its new g. Returns ``inf`` for nodes that are
    cut away with an ancestor before they are collapsed themselves, and for
    leaves.
    """
    check_tree(tree, regression=True)
    risk = as_array(risk, "risk", ndim=1)
    if len(risk) != tree.n_nodes:
        raise ValueError(f"risk must have one entry per node "
                         f"({tree.n_nodes}), got {len(risk)}.")
    n_nodes = tree.n_nodes
    is_leaf = tree.is_leaf
    branch = tree.sum_over_leaves(risk)
    leaves = tree.sum_over_leaves(is_leaf.astype(np.int64))
    preorder, size = _preorder(tree)
    position = np.empty(n_nodes, dtype=np.int64)
    position[preorder] = np.arange(n_nodes)
    # by preorder position: removed with an ancestor
    cut = np.zeros(n_nodes, dtype=bool)
    inner = np.flatnonzero(~is_leaf)
    g_inner = (risk[inner] - branch[inner]) / (leaves[inner] - 1)
    queue = list(zip(g_inner.tolist(), inner.tolist()))
    heapq.heapify(queue)
    branch_, leaves_, risk_ = branch.tolist(), leaves.tolist(), risk.tolist()
    parent = tree.parent.tolist()
    position_, size_ = position.tolist(), size.tolist()
    collapse = np.full(n_nodes, np.inf)
    last = 0.0
    pop, push = heapq.heappop, heapq.heappush
    while queue:
        key, t = pop(queue)
        if leaves_[t] == 1 or cut[position_[t]]:
            continue
        g = (risk_[t] - branch_[t]) / (leaves_[t] - 1)
        if g > key:
            push(queue, (g, t))
            continue
        last = g = max(g, last)        # guards against rounding errors
        collapse[t] = g
        start = position_[t]
        cut[start + 1:start + size_[t]] = True
        risk_gain, leaves_lost = risk_[t] - branch_[t], leaves_[t] - 1
        branch_[t], leaves_[t] = risk_[t], 1
        a = parent[t]
        while a != -1:
            branch_[a] += risk_gain
            leaves_[a] -= leaves_lost
            a = parent[a]
    return collapse


def _preorder(tree: Tree) -> tuple[np.ndarray, np.ndarray]:
    """Nodes in preorder (each subtree is a contiguous run) and subtree sizes."""
    order, stack = [], [0]
    left, right, is_leaf = tree.left.tolist(), tree.right.tolist(), tree.is_leaf.tolist()
    while stack:
        v = stack.pop()
        order.append(v)
        if not is_leaf[v]:
            stack.append(right[v])
            stack.append(left[v])
    leaves = tree.sum_over_leaves(tree.is_leaf.astype(np.int64))
    return np.array(order), 2 * leaves - 1      # a binary tree with L leaves has 2L - 1 nodes


def cost_complexity_path(tree: Tree, risk: str = "error") -> CostComplexityPath:
    """The weakest-link sequence of cost-complexity prunings and its alphas.

    Breiman et al. (1984): starting from T1, the smallest pruning with R(T1) = R(T) (alpha = 0),
    repeatedly collapse the internal nodes with the smallest g(t); tied weakest links are
    collapsed together, so each step has its own alpha. With ``risk="impurity"`` on a
    tree from ``Tree.from_sklearn`` the distinct alphas are scikit-learn's
    ``cost_complexity_pruning_path`` alphas.

    Parameters
    ----------
    tree : Tree
    risk : {"error", "impurity"}, default "error"
        The leaf risk R(t); see :func:`leaf_risks`.

    Returns
    -------
    CostComplexityPath

    Examples
    --------
    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> path = pk.cost_complexity_path(pk.grow_tree(X, y))
    >>> path.n_leaves.tolist()
    [22, 16, 13, 9, 7, 6, 4, 2, 1]
    >>> path.pruning_at(0.01).n_leaves
    4
    """
    risks = leaf_risks(tree, risk)
    risk = check_choice(risk, "risk", RISKS)
    if risk == "error":
        # Integer error counts make tied g values exactly equal; rescale afterwards.
        collapse = collapse_alphas(tree, tree.leaf_errors().astype(float)) / (tree.n_samples or 1)
    else:
        collapse = collapse_alphas(tree, risks)
    node_alpha = collapse.copy()
    for level in tree.levels[1:]:
        node_alpha[level] = np.minimum(node_alpha[level], node_alpha[tree.parent[level]])
    node_alpha[tree.is_leaf] = np.inf
    alphas = np.unique(np.concatenate([[0.0], node_alpha[~tree.is_leaf]]))
    intervals = leaf_intervals(tree, node_alpha, alphas)
    n_leaves = np.rint(sum_per_step(intervals, np.ones(tree.n_nodes), len(alphas)))
    return CostComplexityPath(tree, risk, node_alpha, alphas, n_leaves.astype(np.int64),
                              sum_per_step(intervals, risks, len(alphas)))


def cost_complexity(tree: Tree, alpha, risk: str = "error") -> Pruning:
    """The smallest pruning minimising R_alpha(P) = R(P) + alpha |P~|.

    Parameters
    ----------
    tree : Tree
    alpha : float
        Complexity parameter, finite and >= 0.
    risk : {"error", "impurity"}, default "error"

    Returns
    -------
    Pruning
        Among the minimisers of R_alpha, the one with the fewest nodes (it is unique:
        Breiman et al. 1984, Prop. 10.7).

    Examples
    --------
    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> tree = pk.grow_tree(X, y)
    >>> tree.n_leaves, pk.cost_complexity(tree, 0.01).n_leaves
    (22, 4)
    """
    check_tree(tree, regression=True)
    alpha, risk = check_parameters(_CCP_PARAMETERS, alpha=alpha, risk=risk)
    return cost_complexity_path(tree, risk).pruning_at(alpha)


# ---------------------------------------------------------------------- choosing alpha
@dataclass(frozen=True, eq=False)
class AlphaSelection(ReadOnlyArrays):
    """Estimated error of every step of a cost-complexity path, and the alphas chosen.

    Attributes
    ----------
    path : CostComplexityPath
        The path of the tree grown on all the data.
    betas : ndarray of shape (n_steps,)
        The alpha each step is evaluated at: the geometric midpoints sqrt(alpha_k alpha_{k+1})
        for cross-validation (Breiman et al. 1984, Sec. 3.4.2), ``inf`` for the last step.
    error : ndarray of shape (n_steps,)
        Estimated misclassification rate of each step's tree (cross-validated or hold-out);
        its mean squared error for a regression tree.
    standard_error : ndarray of shape (n_steps,)
        Its standard error, sqrt(e (1 - e) / m) for an error rate e estimated on m examples;
        for a regression tree, sqrt(v / m) with v the variance of the m squared errors.
    best : int
        The 0-SE choice: the step of smallest estimated error (the smallest tree on ties).
    one_se : int
        The 1-SE choice: the smallest tree whose error is within one standard error of the
        best (the choice rpart's documentation recommends; rpart itself prunes at
        cp = 0.01 unless told otherwise).
    method : str

    The arrays are read-only.
    """

    path: CostComplexityPath
    betas: np.ndarray
    error: np.ndarray
    standard_error: np.ndarray
    best: int
    one_se: int
    method: str

    @property
    def alpha_best(self) -> float:
        """The alpha of the 0-SE choice."""
        return float(self.path.alphas[self.best])

    @property
    def alpha_one_se(self) -> float:
        """The alpha of the 1-SE choice."""
        return float(self.path.alphas[self.one_se])

    def table(self) -> str:
        """The selection as a text table: step, alpha, leaves, error, standard error, choice."""
        lines = [f"{'step':>4} {'alpha':>10} {'leaves':>7} {self.method + ' error':>16} "
                 f"{'SE':>7}  choice"]
        for k, (alpha, leaves, error, se) in enumerate(zip(
                self.path.alphas, self.path.n_leaves, self.error, self.standard_error)):
            mark = " ".join(name for name, index in (("0-SE", self.best), ("1-SE", self.one_se))
                            if index == k)
            lines.append(f"{k:>4} {alpha:>10.5f} {leaves:>7} {error:>16.4f} {se:>7.4f}  {mark}")
        return "\n".join(lines)


def choose_steps(error: np.ndarray, standard_error: np.ndarray) -> tuple[int, int]:
    """The steps of a path the 0-SE and 1-SE rules choose (Breiman et al. 1984, Sec. 3.4.3).

    ``error`` and ``standard_error`` hold each step's estimated error and its standard error,
    steps in order of growing alpha. The 0-SE step is the last of least error (the smallest
    tree among the best); the 1-SE step is the last whose error is within one standard error
    of it. Returns the two indices.

    Examples
    --------
    >>> error = np.array([0.30, 0.20, 0.21, 0.35])
    >>> choose_steps(error, np.full(4, 0.02))
    (1, 2)
    """
    error = as_array(error, "error", ndim=1)
    standard_error = as_array(standard_error, "standard_error", ndim=1)
    if error.size == 0 or standard_error.shape != error.shape:
        raise ValueError(f"error and standard_error must hold one value per step, the same "
                         f"number (at least one), got {error.size} and {standard_error.size}.")
    best = int(np.flatnonzero(error == error.min())[-1])
    within = np.flatnonzero(error <= error[best] + standard_error[best])
    return best, int(within[-1])


def _selection(path, betas, losses, n_examples, method, weights=None) -> AlphaSelection:
    """Breiman et al.'s estimate from every step's total loss on ``n_examples`` examples,
    and its standard error; with ``weights`` (the examples' weights, as counted), the loss
    is divided by their total weight m and the standard error takes Kish's effective number
    of examples.

    ``losses`` holds the misclassified examples of every step (or their weight), whose
    standard error is binomial, sqrt(e (1 - e) / m); or, for a regression tree, two rows,
    the sums of the squared errors and of their squares, whose standard error is
    sqrt((mean(e^2) - mean(e)^2) / m) (Breiman et al. 1984, ch. 8)."""
    m = n_examples if weights is None else weights.sum()
    n = n_examples if weights is None else _effective_size(weights)
    if np.ndim(losses) == 2:
        error, second = losses[0] / m, losses[1] / m
        standard_error = np.sqrt(np.maximum(second - error**2, 0.0) / n)
    else:
        error = losses / m
        standard_error = np.sqrt(error * (1 - error) / n)
    best, one_se = choose_steps(error, standard_error)
    return AlphaSelection(path, betas, error, standard_error, best, one_se, method)


def _effective_size(weights: np.ndarray) -> float:
    """Kish's effective sample size (sum w)^2 / sum w^2 of weighted examples: m when all
    weights are equal, smaller the more unequal they are; the m of a standard error."""
    total = weights.sum()
    return float(total**2 / max(np.dot(weights, weights), np.finfo(float).tiny))


# The grower of the folds' trees, formerly "estimator" (removed in 0.4): "grower" as in
# PrunedTreeClassifier.
_renamed_estimator = renamed_parameter("estimator", "grower")


@_renamed_estimator
def cross_validate_alpha(X, y, grower=None, *, cv=10, risk: str = "error", scoring=None,
                         n_jobs=None, random_state=0, sample_weight=None) -> AlphaSelection:
    """Choose alpha by V-fold cross-validation, as Breiman et al. (1984, Sec. 3.4.2) do.

    Grow a tree on all of (X, y) and compute its path alpha_1 = 0 < alpha_2 < ... < alpha_K.
    Step k is represented by beta_k = sqrt(alpha_k alpha_{k+1}), the geometric midpoint of the
    alphas for which its tree is optimal (beta_K = inf). For each fold v, grow a tree on the
    other folds, prune it at every beta_k and count its errors on fold v (its squared errors,
    for a regression tree); the cross-validated error of step k is the total over folds
    divided by m.

    Parameters
    ----------
    X : array-like of shape (m, d)
        Finite numbers.
    y : array-like of shape (m,)
        Class labels, or numbers for a regression grower.
    grower : unfitted scikit-learn tree, optional
        How trees are grown: a ``DecisionTreeClassifier`` or ``ExtraTreeClassifier`` (its
        ``class_weight``, if any, weighs the examples as ``sample_weight`` does), or a
        ``DecisionTreeRegressor`` or ``ExtraTreeRegressor`` for regression trees, whose
        errors are squared errors (Breiman et al. 1984, ch. 8); default
        ``DecisionTreeClassifier(random_state=random_state)``.
    cv : int or scikit-learn splitter, default 10
        Number of folds, at least 2 and at most m (stratified for classification, plain
        ``KFold`` for regression, shuffled with ``random_state``), or a splitter object.
    risk : {"error", "impurity"}, default "error"
    scoring : str, callable or None, default None
        None: Breiman's estimate, the errors counted over all folds. Otherwise a
        scikit-learn scorer (a name such as ``"balanced_accuracy"``, or a callable
        ``scorer(estimator, X, y)``), computed on each fold for every step's tree (given as
        a scikit-learn tree, :func:`prunekit.to_sklearn`); the selection's ``error`` is then
        1 minus the mean score over the folds, and its standard error the folds' standard
        deviation over sqrt(V).
    n_jobs : int or None, default None
        Folds grown and scored in parallel (joblib; None is one, -1 every core).
    random_state : int, default 0
    sample_weight : array-like of shape (m,), optional
        Example weights: the trees are grown with them and each fold's errors are the
        weight of its misclassified examples, divided by the total weight; the standard
        error takes Kish's effective number of examples, (sum w)^2 / sum w^2. A scorer is
        given each fold's weights.

    Returns
    -------
    AlphaSelection

    Examples
    --------
    The 0-SE and 1-SE choices of 5-fold cross-validation, and their numbers of leaves:

    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> selection = pk.cross_validate_alpha(X, y, cv=5)
    >>> round(selection.alpha_one_se, 4)
    0.0026
    >>> steps = [selection.best, selection.one_se]
    >>> selection.path.n_leaves[steps].tolist()
    [9, 7]
    """
    risk = check_choice(risk, "risk", RISKS)
    scoring = _check_scoring(scoring)
    n_jobs = _check_n_jobs(n_jobs)
    random_state = random_state_for_scikit_learn(random_state)
    grower = _check_grower(grower)
    regression = grower is not None and is_regressor(grower)
    X, y = _labelled_sample(X, y, regression=regression)
    grower = _grower_or_default(grower, random_state)
    grower, weights = _class_weights_as_sample_weights(grower, y, sample_weight)
    folds = _splitter(cv, y, random_state, regression=regression)
    path = cost_complexity_path(_grow(grower, X, y, sample_weight=weights), risk)
    return _cross_validated(path, X, y, grower, folds, scoring, n_jobs, weights)


def _class_weights_as_sample_weights(grower, y, sample_weight):
    """The grower without ``class_weight`` and each example's weight with it: its class's
    weight (computed on all of ``y``, as scikit-learn does) times ``sample_weight``, so that
    every fold weighs an example as the whole sample does; ``None`` without weights."""
    from sklearn.base import clone

    weights = _estimator_weights(grower, y, sample_weight)
    if grower.get_params().get("class_weight") is not None:
        grower = clone(grower).set_params(class_weight=None)
    return grower, weights


def _cross_validated(path: CostComplexityPath, X, y, grower, folds, scoring=None,
                     n_jobs=None, weights=None) -> AlphaSelection:
    """The V-fold cross-validated error of every step of ``path`` (Breiman et al. 1984,
    Sec. 3.4.2), the path of the tree ``grower`` grows on all of the checked sample
    ``(X, y)``; ``folds`` is a scikit-learn splitter, ``scoring`` None (errors counted) or a
    checked scorer name or callable, ``weights`` the examples' weights or None. The one implementation
    of :func:`cross_validate_alpha`, which grows that tree, and of
    :class:`CrossValidatedCostComplexityPruner`, which is given it."""
    from sklearn.metrics import get_scorer

    betas = np.append(np.sqrt(path.alphas[:-1] * path.alphas[1:]), np.inf)
    scorer = None if scoring is None else get_scorer(scoring)
    arguments = [(X, y, train, test, grower, path.risk, betas, scorer, weights)
                 for train, test in folds.split(X, y)]
    if n_jobs is None or n_jobs == 1:
        # in this process, whatever joblib backend is active: the caller may itself be a
        # task of a pool (a Dask worker of the book's study), which must not wait on it
        per_fold = [_fold_result(*args) for args in arguments]
    else:
        from joblib import Parallel, delayed

        per_fold = Parallel(n_jobs=n_jobs)(delayed(_fold_result)(*args) for args in arguments)
    if scorer is None:
        return _selection(path, betas, np.sum(per_fold, axis=0), len(y), "CV", weights)
    scores = np.array(per_fold)                              # (folds, steps)
    error = 1 - scores.mean(axis=0)
    standard_error = scores.std(axis=0, ddof=1) / np.sqrt(len(scores))
    best, one_se = choose_steps(error, standard_error)
    name = scoring if isinstance(scoring, str) else getattr(scoring, "__name__", "score")
    name = f"CV {name}"
    return AlphaSelection(path, betas, error, standard_error, best, one_se, name)


def _fold_result(X, y, train, test, grower, risk, betas, scorer, weights=None) -> np.ndarray:
    """One fold: the test errors of every step (betas), or with ``scorer`` their scores;
    with ``weights``, the weight of the misclassified examples and weighted scores."""
    from prunekit.export import to_sklearn

    train_weights, test_weights = ((None, None) if weights is None
                                   else (weights[train], weights[test]))
    fold_path = cost_complexity_path(
        _grow(grower, X[train], y[train], sample_weight=train_weights), risk)
    steps = np.searchsorted(fold_path.alphas, betas, side="right") - 1
    tree = fold_path.tree
    if scorer is not None:
        given = {} if weights is None else {"sample_weight": test_weights}
        score = {step: scorer(to_sklearn(fold_path.pruning(step)), X[test], y[test], **given)
                 for step in np.unique(steps)}
        return np.array([score[step] for step in steps], dtype=np.float64)
    if not isinstance(tree, Tree):
        return step_losses(fold_path, X[test], y[test], steps, test_weights)
    known = np.isin(y[test], tree.classes_)
    test_weights = np.ones(len(test)) if test_weights is None else test_weights
    errors = np.full(len(betas), test_weights[~known].sum(), dtype=np.float64)
    if known.any():
        counts = tree.node_counts(X[test][known], y[test][known],
                                  sample_weight=None if weights is None
                                  else test_weights[known])
        errors += fold_path.errors(counts)[steps]
    return errors


def step_losses(path, X, y, steps, sample_weight=None) -> np.ndarray:
    """The squared errors of the steps ``steps`` of a regression tree's path on ``(X, y)``.

    A node is a leaf of the steps from the first whose alpha reaches its ``node_alpha`` (step
    0 for a leaf of the tree) to the last before its parent's, so an example's loss at a node
    counts for a contiguous range of steps. Every example is routed once to its leaf of the
    tree, its loss at each node on the way back to the root is added at the start of that
    node's range and subtracted at its end, and a cumulative sum over the steps gives every
    step's total: O(m depth + steps) work, not O(m steps).

    Parameters
    ----------
    path : PruningPath
        The path of a :class:`~prunekit.RegressionTree`.
    X, y : ndarray
        A checked sample and its targets.
    steps : ndarray of int
        Step indices, repeats allowed.
    sample_weight : ndarray, optional

    Returns
    -------
    ndarray of shape (2, len(steps))
        For every step, the sum of (weighted) squared errors w (y - yhat)^2 and the sum of
        w (y - yhat)^4, from which the standard error of a selection is computed.
    """
    tree = path.tree
    n_steps = len(path.alphas)
    first = np.where(tree.is_leaf, 0,
                     np.searchsorted(path.alphas, path.node_alpha, side="left"))
    parent = tree.parent
    last = np.where(parent >= 0, first[np.maximum(parent, 0)], n_steps)
    value = tree.value
    weights = np.ones(len(y)) if sample_weight is None else sample_weight
    node = tree.apply(X, check_input=False)
    changes = np.zeros((2, n_steps + 1))
    while node.size:
        squared = (y - value[node]) ** 2
        for row, loss in enumerate((weights * squared, weights * squared**2)):
            changes[row] += (np.bincount(first[node], loss, n_steps + 1)
                             - np.bincount(last[node], loss, n_steps + 1))
        above = parent[node] >= 0
        node, y, weights = parent[node][above], y[above], weights[above]
    return np.cumsum(changes[:, :n_steps], axis=1)[:, steps]


def _check_scoring(scoring, name: str = "scoring"):
    """None, a scikit-learn scorer name, or a callable scorer(estimator, X, y)."""
    from sklearn.metrics import get_scorer_names

    if scoring is None:
        return None
    if isinstance(scoring, str):
        if scoring not in get_scorer_names():
            raise ValueError(f"{name} must be None, a callable or one of scikit-learn's "
                             f"scorer names (sklearn.metrics.get_scorer_names()), such as "
                             f"'accuracy' or 'balanced_accuracy'; got {scoring!r}.")
        return scoring
    if callable(scoring):
        return scoring
    raise TypeError(f"{name} must be None, a scorer name or a callable scorer(estimator, X, "
                    f"y), got {type(scoring).__name__}.")


def _check_n_jobs(n_jobs, name: str = "n_jobs"):
    """None, or a nonzero int (joblib's convention: -1 for every core)."""
    if n_jobs is None:
        return None
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral) or n_jobs == 0:
        raise ValueError(f"{name} must be None or a nonzero int (-1: every core), got "
                         f"{n_jobs!r}.")
    return int(n_jobs)


def _labelled_sample(X, y, names=("X", "y"), *, regression: bool = False):
    """The sample cross-validation splits, checked: numbers (NaN for a missing value) and
    class labels, or real targets for a ``regression`` tree."""
    from sklearn.utils.multiclass import type_of_target

    X = as_array(X, names[0], ndim=2, dtype="numeric", what="(n_samples, n_features)",
                 allow_nan=True)
    if regression:
        return X, check_targets(y, X.shape[0], name=names[1])
    y = check_labels(y, X.shape[0], name=names[1])
    kind = type_of_target(y)
    if kind not in ("binary", "multiclass"):
        raise ValueError(f"{names[1]} must hold class labels; its values look {kind}.")
    return X, y


def _check_grower(grower, name: str = "grower"):
    """None (the default grower), or an unfitted scikit-learn tree (a classifier, or a
    regressor for a regression tree)."""
    from sklearn.base import is_classifier
    from sklearn.tree import BaseDecisionTree

    if grower is None:
        return None
    if isinstance(grower, type):
        raise TypeError(f"{name} must be a scikit-learn tree classifier object, got the class "
                        f"{grower.__name__}; pass {grower.__name__}() instead.")
    if not (isinstance(grower, BaseDecisionTree)
            and (is_classifier(grower) or is_regressor(grower))):
        raise TypeError(f"{name} must be an unfitted scikit-learn tree "
                        "(DecisionTreeClassifier, ExtraTreeClassifier or, for a regression "
                        f"tree, DecisionTreeRegressor), got {type(grower).__name__}.")
    return grower


def _grower_or_default(grower, random_state, *, regression: bool = False):
    """``grower``, or for None ``DecisionTreeClassifier(random_state=random_state)``
    (``DecisionTreeRegressor`` for a ``regression`` tree)."""
    from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

    if grower is not None:
        return grower
    default = DecisionTreeRegressor if regression else DecisionTreeClassifier
    return default(random_state=random_state)


def _splitter(cv, y, random_state, *, regression: bool = False):
    """The folds: ``cv`` folds shuffled with ``random_state`` (at most one per example;
    stratified for class labels), or the scikit-learn splitter ``cv``."""
    from sklearn.model_selection import KFold, StratifiedKFold, check_cv

    cv = _check_folds(cv, "cv")
    if isinstance(cv, numbers.Integral):
        splitter = KFold if regression else StratifiedKFold
        return splitter(check_count(cv, "cv", minimum=2, maximum=len(y)), shuffle=True,
                        random_state=random_state)
    try:
        return check_cv(cv, y, classifier=not regression)
    except (ValueError, TypeError) as error:
        raise type(error)(f"cv must be a number of folds or a scikit-learn splitter: "
                          f"{error}") from None


def holdout_alpha(tree: Tree, X_prune, y_prune, risk: str = "error", *,
                  sample_weight=None) -> AlphaSelection:
    """Choose alpha on a hold-out sample: the error of every step of the tree's path on it.

    Parameters
    ----------
    tree : Tree
        Grown on the training part only.
    X_prune, y_prune : array-like
        The hold-out (pruning) sample; its labels must be classes the tree knows.
    risk : {"error", "impurity"}, default "error"
    sample_weight : array-like of shape (m,), optional
        Weights of the pruning examples: the error of a step is then the weight of its
        misclassified examples over the total, and its standard error takes Kish's
        effective number of examples.

    Examples
    --------
    Grow on half the rows; the other half chooses alpha:

    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> tree = pk.grow_tree(X[::2], y[::2])
    >>> alpha = pk.holdout_alpha(tree, X[1::2], y[1::2]).alpha_best
    >>> round(alpha, 4), pk.cost_complexity(tree, alpha).n_leaves
    (0.007, 3)
    """
    path = cost_complexity_path(tree, risk)
    if not isinstance(tree, Tree):
        X, y = tree.check_sample(X_prune, y_prune, names=("X_prune", "y_prune"))
        weights = check_sample_weight(sample_weight, len(y))
        losses = step_losses(path, X, y, np.arange(len(path)), weights)
        return _selection(path, path.alphas.copy(), losses, len(y), "hold-out", weights)
    counts = pruning_sample_counts(tree, X_prune, y_prune, sample_weight=sample_weight)
    errors = path.errors(counts).astype(float)
    m = np.shape(y_prune)[0]                 # checked when counted
    weights = None if sample_weight is None else check_sample_weight(sample_weight, m)
    return _selection(path, path.alphas.copy(), errors, m, "hold-out", weights)


# ---------------------------------------------------------------------- the pruners
#: The rules :class:`CrossValidatedCostComplexityPruner` chooses alpha with.
RULES = ("1-SE", "0-SE")

_ALPHA_SCALE = """With ``risk="error"`` alpha is a misclassification rate per leaf (Breiman's
    R(t) = r(t)p(t)): a branch is kept only while it saves more than alpha * m training errors
    per extra leaf, so it is not on the scale of scikit-learn's ``ccp_alpha``, which weighs
    the grower's impurity (Gini or entropy) instead; ``risk="impurity"`` is exactly
    ``ccp_alpha``'s scale (the same value gives scikit-learn's tree)."""


def _check_folds(cv, name: str):
    """A number of folds, at least 2, or a scikit-learn splitter (checked with the data)."""
    if isinstance(cv, (bool, np.bool_)):
        raise TypeError(f"{name} must be a number of folds or a scikit-learn splitter, got a "
                        "bool.")
    if isinstance(cv, numbers.Integral):
        return check_count(cv, name, minimum=2)
    return cv


class CostComplexityPruner(Pruner):
    __doc__ = f"""Cost-complexity pruning at a fixed alpha (Breiman et al. 1984; see
    :func:`prunekit.cost_complexity`).

    {_ALPHA_SCALE}

    Parameters
    ----------
    alpha : float, default 0.0
        Complexity parameter; 0 gives T1, the smallest pruning with the tree's own risk.
    risk : {{"error", "impurity"}}, default "error"
        The leaf risk R(t) (:func:`prunekit.cost_complexity_pruning.leaf_risks`).

    Examples
    --------
    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> pruner = pk.CostComplexityPruner(alpha=0.01)
    >>> clf = pk.PrunedTreeClassifier(pruner=pruner, random_state=0)
    >>> clf = clf.fit(X, y)
    >>> clf.tree_.n_leaves, clf.get_n_leaves()
    (22, 4)
    """

    _function = staticmethod(cost_complexity)
    _parameter_checks = _CCP_PARAMETERS

    def __init__(self, *, alpha=0.0, risk="error"):
        self.alpha = alpha
        self.risk = risk

    def prune(self, tree: Tree, X_prune=None, y_prune=None, sample_weight=None) -> Pruning:
        """Prune ``tree`` at ``alpha``; the sample and its weights are not needed (a tree
        grown with weights holds weighted counts)."""
        self._check_parameters()
        return cost_complexity(tree, self.alpha, self.risk)


class CrossValidatedCostComplexityPruner(Pruner):
    __doc__ = f"""Cost-complexity pruning with alpha chosen by V-fold cross-validation.

    Breiman et al.'s (1984, Sec. 3.4) procedure, the one the book recommends for a single
    readable tree (Chapter 9), as :func:`prunekit.cross_validate_alpha` runs it: a tree is
    grown on each training part of the folds, the way the tree being pruned was grown, the
    error of every step of that tree's cost-complexity path is estimated, and the rule picks
    a step; the tree is then pruned at that step's alpha (:func:`prunekit.cost_complexity`).
    The tree's own path is computed once, and the tree is not grown again. This is
    :class:`~prunekit.PrunedTreeClassifier`'s default pruner.

    {_ALPHA_SCALE}

    Parameters
    ----------
    grower : unfitted scikit-learn tree classifier or None, default None
        How the trees of the folds are grown (as :func:`prunekit.cross_validate_alpha` takes
        it): the way the tree being pruned was grown. None:
        ``DecisionTreeClassifier(random_state=random_state)``. In a
        :class:`~prunekit.PrunedTreeClassifier` it stays None: the classifier's own grower
        (its ``grower``, or its ``criterion``, ``max_depth``, ``min_samples_leaf`` and
        ``random_state``) grows the tree and the folds' trees alike.
    cv : int or scikit-learn splitter, default 10
        Number of folds (stratified, shuffled with ``random_state``), at least 2, or a
        splitter object. When no class has ``cv`` examples, fewer folds are used, with a
        warning; with no class of two examples, alpha is 0.
    rule : {{"0-SE", "1-SE"}}, default "0-SE"
        ``"0-SE"``: the tree of smallest cross-validated error; ``"1-SE"``: the smallest tree
        whose cross-validated error is within one standard error of the smallest (Breiman
        et al.'s rule, the one rpart's documentation recommends). The default is the book's
        evidence: over the 28 data sets of Chapter 9, the 0-SE rule was more accurate on 17,
        as accurate on 11 and less accurate on none (Wilcoxon, Holm-adjusted p = 0.001; on
        the 16 real data sets 14-2-0), for trees a little larger (19.2 % of the unpruned
        tree's leaves on average, against 15.8 %). Choose ``"1-SE"`` for the smaller tree.
    risk : {{"error", "impurity"}}, default "error"
        The leaf risk R(t) (:func:`prunekit.cost_complexity_pruning.leaf_risks`).
    scoring : str, callable or None, default None
        What the folds estimate (:func:`prunekit.cross_validate_alpha`): None, the errors;
        or any scikit-learn scorer, e.g. ``"balanced_accuracy"`` where the rare classes
        matter.
    n_jobs : int or None, default None
        Folds grown and scored in parallel (joblib).
    random_state : int, RandomState or None, default None
        Seeds the folds; ``None`` takes the classifier's ``random_state``.

    Attributes
    ----------
    selection_ : AlphaSelection
        The cross-validation table of the last :meth:`~prunekit.Pruner.prune` (its
        ``table()`` prints it).
    alpha_ : float
        The alpha chosen.

    Examples
    --------
    >>> import prunekit as pk
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> pruner = pk.CrossValidatedCostComplexityPruner(cv=5)
    >>> clf = pk.PrunedTreeClassifier(pruner=pruner, random_state=0)
    >>> clf = clf.fit(X, y)
    >>> clf.get_n_leaves(), round(clf.pruner_.alpha_, 4)
    (9, 0.0018)
    """

    _function = staticmethod(cross_validate_alpha)
    _parameter_checks = {"grower": _check_grower, "cv": _check_folds,
                         "rule": constraint(check_choice, options=RULES),
                         "risk": _CCP_PARAMETERS["risk"], "scoring": _check_scoring,
                         "n_jobs": _check_n_jobs, "random_state": checked_where_used}

    @_renamed_estimator
    def __init__(self, *, grower=None, cv=10, rule="0-SE", risk="error", scoring=None,
                 n_jobs=None, random_state=None):
        self.grower = grower
        self.cv = cv
        self.rule = rule
        self.risk = risk
        self.scoring = scoring
        self.n_jobs = n_jobs
        self.random_state = random_state

    def prune(self, tree: Tree, X_prune, y_prune, sample_weight=None) -> Pruning:
        """Prune ``tree`` at the alpha that cross-validation on its growing sample chooses.

        Parameters
        ----------
        tree : Tree
            Grown on ``(X_prune, y_prune)`` by ``grower``.
        X_prune, y_prune : array-like
            The sample ``tree`` was grown on, which the classifier gives every pruner that
            uses no separate pruning sample (:meth:`Pruner.prune <prunekit.Pruner.prune>`):
            the folds split it.
        sample_weight : array-like of shape (m,), optional
            The weights ``tree`` was grown with (:func:`prunekit.cross_validate_alpha`).
        """
        checked = self._check_parameters()
        regression = not isinstance(check_tree(tree, regression=True), Tree)
        X, y = _labelled_sample(X_prune, y_prune, names=("X_prune", "y_prune"),
                                regression=regression)
        weights = check_sample_weight(sample_weight, len(y))
        grown_on = len(y) if weights is None else weights.sum()
        if not np.isclose(tree.n_samples, grown_on):
            raise ValueError(f"X_prune, y_prune must be the sample tree was grown on, "
                             f"{tree.n_samples:g} examples; got {grown_on:g}.")
        seed = checked["random_state"]
        grower = _grower_or_default(checked["grower"], seed, regression=regression)
        grower, weights = _class_weights_as_sample_weights(grower, y, weights)
        return self._select(tree, X, y, grower, seed, checked, weights)

    def _prune_grown(self, tree: Tree, X, y, grower, sample_weight=None) -> Pruning:
        checked = self._check_parameters()
        if checked["grower"] is not None:
            raise ValueError(
                "CrossValidatedCostComplexityPruner: grower must be None in a "
                "PrunedTreeClassifier, whose own grower grows the tree and the trees of the "
                "folds alike; give the grower to the classifier (its grower parameter).")
        return self._select(tree, X, y, grower, self._seed(grower.random_state), checked,
                            sample_weight)

    def _select(self, tree: Tree, X, y, grower, seed, checked: dict,
                weights=None) -> Pruning:
        """Cross-validate on the checked growing sample ``(X, y)`` (with its ``weights``),
        the folds' trees grown by ``grower`` and the folds shuffled with ``seed``; prune
        ``tree`` on its own path."""
        seed = random_state_for_scikit_learn(seed)
        path = cost_complexity_path(tree, checked["risk"])
        regression = not isinstance(tree, Tree)
        cv = checked["cv"] if regression else self._folds(checked["cv"], y)
        if tree.n_leaves == 1 or cv is None:       # nothing to choose, or no folds possible
            self.selection_, self.alpha_ = None, 0.0
        else:
            folds = _splitter(cv, y, seed, regression=regression)
            selection = _cross_validated(path, X, y, grower, folds,
                                         checked["scoring"], checked["n_jobs"], weights)
            self.selection_ = selection
            self.alpha_ = (selection.alpha_one_se if checked["rule"] == "1-SE"
                           else selection.alpha_best)
        return path.pruning_at(self.alpha_)

    @staticmethod
    def _folds(cv, y):
        """``cv``, with fewer folds (and a warning) when no class has ``cv`` examples, as
        stratified folds need; ``None`` when no class has two."""
        if not isinstance(cv, numbers.Integral):
            return cv
        largest = int(np.unique(np.asarray(y), return_counts=True)[1].max())
        if largest >= cv:
            return cv
        warnings.warn(
            f"cv={cv} stratified folds need a class with at least {cv} examples, and the "
            f"largest has {largest}; " + (f"using {largest} folds." if largest >= 2 else
                                          "too few to cross-validate, so alpha = 0."),
            UserWarning, stacklevel=6)          # the caller of PrunedTreeClassifier.fit
        return largest if largest >= 2 else None


