"""A scikit-learn classifier that grows a tree and prunes it with any prunekit pruner.

``PrunedTreeClassifier()`` grows a scikit-learn ``DecisionTreeClassifier`` and prunes it the
way the book recommends: cost-complexity pruning with alpha chosen by 10-fold
cross-validation and the 1-SE rule (:class:`CrossValidatedCostComplexityPruner`).
``PrunedTreeClassifier(pruner=CostComplexityPruner(alpha=0.01))`` prunes at a fixed alpha
instead; every pruner of the book has such a class. Pruners are small estimator-like objects
with their own parameters, so model selection reaches them with scikit-learn's
nested-parameter syntax, e.g.
``GridSearchCV(PrunedTreeClassifier(CostComplexityPruner()), {"pruner__alpha": [0.001, 0.01]})``
or ``GridSearchCV(PrunedTreeClassifier(), {"pruner__rule": ["0-SE", "1-SE"]})``.

Two kinds of pruner exist. Most judge the tree on the sample it was grown on (cost-complexity,
Kearns-Mansour, Nobel's same-sample penalty, pessimistic, minimum-error and error-based
pruning). Those that need an independent pruning sample (reduced-error, k-REP, the Rademacher
bound, Nobel's independent-sample penalty and critical-value pruning) derive from
:class:`HoldoutPruner`: the classifier then splits its training data, stratified and seeded,
into a growing part and a pruning part of ``prune_size``, grows the tree on the first and hands
the pruner the second, ``X_prune, y_prune``.
"""

from __future__ import annotations

import math
import numbers
import warnings

import numpy as np
from scipy import sparse
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils import _safe_indexing, check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from prunekit._validation import check_choice, check_count, check_probability, check_real
from prunekit.bounds import rademacher as rademacher_bound
from prunekit.cost_complexity_pruning import cost_complexity, cross_validate_alpha, leaf_risks
from prunekit.heuristics import (
    critical_value,
    error_based,
    error_based_raising,
    minimum_error,
    pessimistic,
)
from prunekit.kearns_mansour_pruning import kearns_mansour
from prunekit.nobel_pruning import nobel
from prunekit.rademacher import (
    draw_signs,
    growing_error_budget,
    growing_errors_of_tree,
    k_reduced_error,
    rademacher_penalty,
)
from prunekit.reduced_error_pruning import reduced_error
from prunekit.tree import Pruning, Tree

__all__ = ["Pruner", "HoldoutPruner", "CostComplexityPruner",
           "CrossValidatedCostComplexityPruner", "KearnsMansourPruner", "NobelPruner",
           "PessimisticPruner", "MinimumErrorPruner", "ErrorBasedPruner",
           "CriticalValuePruner", "ReducedErrorPruner", "KReducedErrorPruner",
           "RademacherBoundPruner", "PrunedTreeClassifier"]

#: The rules :class:`CrossValidatedCostComplexityPruner` chooses alpha with.
RULES = ("1-SE", "0-SE")

# Largest number of matrix cells densified at once when a sparse sample is routed.
_BLOCK_CELLS = 2**22

_ALPHA_SCALE = """With ``risk="error"`` alpha is a misclassification rate per leaf (Breiman's
    R(t) = r(t)p(t)): a branch is kept only while it saves more than alpha * m training errors
    per extra leaf, so it is not on the scale of scikit-learn's ``ccp_alpha``, which weighs
    the grower's impurity (Gini or entropy) instead; ``risk="impurity"`` is exactly
    ``ccp_alpha``'s scale (the same value gives scikit-learn's tree)."""


# ---------------------------------------------------------------------- messages
def _describe(value) -> str:
    """A short description of ``value`` for an error message (never a whole array's repr)."""
    shape = getattr(value, "shape", None)
    if isinstance(shape, tuple) and len(shape) > 0:
        return f"a {type(value).__name__} of shape {shape}"
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:57]}..."


def _check_single_values(owner: str, params: dict, arrays=()) -> None:
    """Refuse an array where a parameter takes one value (a swapped argument, typically)."""
    for name, value in params.items():
        if name not in arrays and np.ndim(value) > 0 and hasattr(value, "shape"):
            raise TypeError(f"{owner}: {name} must be a single value, got {_describe(value)}.")


# ---------------------------------------------------------------------- base classes
class Pruner(BaseEstimator):
    """Base class of the pruners :class:`PrunedTreeClassifier` accepts.

    A pruner's constructor takes only its parameters (so ``get_params``/``set_params`` and
    ``clone`` work), and :meth:`~prunekit.Pruner.prune` maps a grown :class:`~prunekit.Tree` and a sample to a
    :class:`~prunekit.Pruning` of that same tree. A pruner that changes the tree itself
    (subtree raising) does so in :meth:`restructure`, which the classifier calls first. A
    pruner is also a function: ``pruner(tree, X, y)`` restructures and prunes in one call.

    Pruners that choose something from the data (an alpha, a budget) record it in
    attributes ending in ``_`` when they prune; the classifier prunes with a copy of its
    pruner, kept as ``pruner_``, so those attributes can be read there.
    """

    #: Parameters that may hold arrays; every other parameter takes a single value.
    _array_parameters = ()

    def uses_pruning_sample(self) -> bool:
        """Whether the pruner needs a pruning sample independent of the growing sample.

        The classifier then holds one out (:meth:`HoldoutPruner.split`) and passes it to
        :meth:`~prunekit.Pruner.prune`; otherwise it passes the growing sample.
        """
        return False

    def restructure(self, tree: Tree, X, y) -> Tree:
        """Return the tree to prune; by default ``tree`` itself.

        Parameters
        ----------
        tree : Tree
            The grown tree.
        X, y : ndarray
            Its growing sample.
        """
        return tree

    def prune(self, tree: Tree, X_prune, y_prune) -> Pruning:
        """Return a pruning of ``tree``.

        ``(X_prune, y_prune)`` is the pruning sample for a pruner that uses one
        (:meth:`~prunekit.Pruner.uses_pruning_sample`); the others are given the growing
        sample, which most of them do not need.
        """
        raise NotImplementedError(
            f"{type(self).__name__} does not define prune(tree, X_prune, y_prune); a Pruner "
            "subclass "
            "must return a prunekit Pruning of the tree it is given."
        )

    def __call__(self, tree: Tree, X=None, y=None) -> Pruning:
        """Restructure and prune ``tree``, like a pruner function (``pk.reduced_error``...).

        Parameters
        ----------
        tree : Tree
        X, y : array-like, optional
            The sample :meth:`~prunekit.Pruner.prune` takes (the pruning sample for a pruner that uses one).

        Returns
        -------
        Pruning
            A pruning of :meth:`restructure`'s tree, which is ``tree`` itself except for
            subtree raising.
        """
        return self.prune(self.restructure(tree, X, y), X, y)

    def _prune_grown(self, tree: Tree, X, y, grower) -> Pruning:
        """The classifier's call: :meth:`~prunekit.Pruner.prune`, told the unfitted ``grower`` that grew
        ``tree`` (with the classifier's seed as its ``random_state``)."""
        return self.prune(tree, X, y)

    def _seed(self, fallback):
        """The pruner's own ``random_state``, or ``fallback`` when it has none."""
        own = getattr(self, "random_state", None)
        return fallback if own is None else own

    def _check_parameters(self) -> None:
        _check_single_values(type(self).__name__, self.get_params(deep=False),
                             self._array_parameters)


class HoldoutPruner(Pruner):
    """Base class of the pruners that choose their pruning on a separate pruning sample.

    Parameters
    ----------
    prune_size : float in (0, 1) or int >= 1
        Share (float) or number (int) of the training examples the classifier holds out as
        the pruning sample; the tree is grown on the rest.
    random_state : int, RandomState or None
        Seeds the split; ``None`` takes the classifier's ``random_state``.
    """

    #: The fewest pruning examples the method works with.
    _min_prune = 1

    def __init__(self, prune_size=0.3, random_state=None):
        self.prune_size = prune_size
        self.random_state = random_state

    def uses_pruning_sample(self) -> bool:
        return True

    def split(self, X, y, random_state=None):
        """Split ``(X, y)`` into a growing and a pruning sample, stratified by class.

        Every class with at least two examples gets at least one in each part, and the
        parts keep the class proportions as closely as whole numbers allow. A class with a
        single example goes to the growing sample, with a warning (the pruning sample then
        lacks it); when the pruning part is too small to hold an example of every such class
        (or the growing part is), the split is not stratified, with a warning.

        Parameters
        ----------
        X : array-like of shape (m, d)
        y : array-like of shape (m,)
        random_state : int, RandomState or None
            Used when the pruner has no ``random_state`` of its own.

        Returns
        -------
        X_grow, X_prune, y_grow, y_prune
            Rows of ``X`` and ``y`` in their original order.
        """
        y_array = np.asarray(y)
        n_prune = self._n_prune(len(y_array))
        seed = self._seed(random_state)
        parts = _stratified_split(y_array, n_prune, check_random_state(seed))
        if parts is None:
            return train_test_split(X, y, test_size=n_prune, random_state=seed)
        grow, prune = parts
        return (_safe_indexing(X, grow), _safe_indexing(X, prune), _safe_indexing(y, grow),
                _safe_indexing(y, prune))

    def _n_prune(self, n: int) -> int:
        """The number of examples ``prune_size`` holds out of ``n``."""
        size = self.prune_size
        if isinstance(size, bool) or not isinstance(size, numbers.Real):
            raise TypeError(f"prune_size must be a float in (0, 1) or an int >= 1, got "
                            f"{type(size).__name__}.")
        if isinstance(size, numbers.Integral):
            n_prune = int(size)
            if n_prune < 1:
                raise ValueError(f"prune_size must be at least 1 example, got {n_prune}.")
        else:
            if not 0 < size < 1:
                raise ValueError(f"prune_size must be a float in (0, 1) or an int >= 1, got "
                                 f"{_describe(size)}.")
            n_prune = math.ceil(size * n)
            if n_prune < self._min_prune < n:
                warnings.warn(f"{type(self).__name__} needs at least {self._min_prune} pruning "
                              f"examples; prune_size={size:g} of {n} gives {n_prune}, so "
                              f"{self._min_prune} are held out.", UserWarning, stacklevel=4)
                n_prune = self._min_prune
        if n_prune >= n:
            raise ValueError(
                f"prune_size={_describe(size)} holds out {n_prune} of n_samples={n} examples, "
                "leaving none to grow the tree on; give more data or a smaller prune_size."
            )
        return n_prune


def _stratified_split(y: np.ndarray, n_prune: int, rng: np.random.RandomState):
    """Indices (growing, pruning) of a stratified split, or ``None`` when none is possible.

    Class c of m_c examples sends about n_prune * m_c / m of them to the pruning part (the
    largest remainders get the leftover examples), and at least one to each part when
    m_c >= 2; a class with one example stays in the growing part.
    """
    classes, codes = np.unique(y, return_inverse=True)
    sizes = np.bincount(codes)
    low = (sizes >= 2).astype(np.int64)
    high = np.where(sizes >= 2, sizes - 1, 0)
    if not low.sum() <= n_prune <= high.sum():
        warnings.warn(
            f"the pruning sample of {n_prune} examples and the growing sample of "
            f"{len(y) - n_prune} cannot both hold an example of each of the "
            f"{int(low.sum())} classes with two or more examples, so the split into growing "
            "and pruning samples is not stratified; give more data or another prune_size.",
            UserWarning, stacklevel=4)
        return None
    single = classes[sizes == 1]
    if single.size:
        warnings.warn(
            f"{single.size} class(es) have a single example (e.g. {_describe(single[0])}); "
            "it goes to the growing sample, so the pruning sample has none of it.",
            UserWarning, stacklevel=4)
    target = n_prune * sizes / len(y)
    take = np.clip(np.floor(target).astype(np.int64), low, high)
    remainder = target - take
    while take.sum() != n_prune:           # at most about 2 x n_classes steps
        if take.sum() < n_prune:
            c = np.argmax(np.where(take < high, remainder, -np.inf))
            take[c], remainder[c] = take[c] + 1, remainder[c] - 1
        else:
            c = np.argmin(np.where(take > low, remainder, np.inf))
            take[c], remainder[c] = take[c] - 1, remainder[c] + 1
    order = rng.permutation(len(y))
    order = order[np.argsort(codes[order], kind="stable")]     # by class, shuffled within
    start = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    rank = np.arange(len(y)) - start[codes[order]]
    to_prune = np.zeros(len(y), dtype=bool)
    to_prune[order[rank < take[codes[order]]]] = True
    return np.flatnonzero(~to_prune), np.flatnonzero(to_prune)


# ---------------------------------------------------------------------- cost-complexity
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
    """

    def __init__(self, alpha=0.0, risk="error"):
        self.alpha = alpha
        self.risk = risk

    def prune(self, tree: Tree, X_prune=None, y_prune=None) -> Pruning:
        return cost_complexity(tree, self.alpha, self.risk)


class CrossValidatedCostComplexityPruner(Pruner):
    __doc__ = f"""Cost-complexity pruning with alpha chosen by V-fold cross-validation.

    Breiman et al.'s (1984, Sec. 3.4) procedure, the one the book recommends for a single
    readable tree (Chapter 9): :func:`prunekit.cross_validate_alpha` grows a tree on each
    training part of the folds, with the same grower settings as the classifier's tree,
    estimates the error of every step of the tree's cost-complexity path, and the rule picks
    a step; the tree is then pruned at that step's alpha (:func:`prunekit.cost_complexity`).
    This is :class:`PrunedTreeClassifier`'s default pruner.

    {_ALPHA_SCALE}

    Parameters
    ----------
    cv : int or scikit-learn splitter, default 10
        Number of folds (stratified, shuffled with ``random_state``), at least 2, or a
        splitter object. When no class has ``cv`` examples, fewer folds are used, with a
        warning; with no class of two examples, alpha is 0.
    rule : {{"1-SE", "0-SE"}}, default "1-SE"
        ``"1-SE"``: the smallest tree whose cross-validated error is within one standard
        error of the smallest (Breiman et al.'s rule, the one rpart's documentation
        recommends); ``"0-SE"``: the tree of smallest cross-validated error.
    risk : {{"error", "impurity"}}, default "error"
        The leaf risk R(t) (:func:`prunekit.cost_complexity_pruning.leaf_risks`).
    random_state : int, RandomState or None, default None
        Seeds the folds; ``None`` takes the classifier's ``random_state``.

    Attributes
    ----------
    selection_ : AlphaSelection
        The cross-validation table of the last :meth:`~prunekit.Pruner.prune` (its ``table()`` prints it).
    alpha_ : float
        The alpha chosen.
    """

    def __init__(self, cv=10, rule="1-SE", risk="error", random_state=None):
        self.cv = cv
        self.rule = rule
        self.risk = risk
        self.random_state = random_state

    def prune(self, tree: Tree, X, y, *, grower=None) -> Pruning:
        """Prune ``tree``, grown on ``(X, y)``, at the alpha that cross-validation chooses.

        Parameters
        ----------
        tree : Tree
        X, y : array-like
            The sample ``tree`` was grown on.
        grower : unfitted scikit-learn tree classifier, optional
            How ``tree`` was grown, so that the trees of the folds are grown alike; default
            ``DecisionTreeClassifier(random_state=random_state)``.
        """
        return self._select(tree, X, y, grower, self.random_state)

    def _prune_grown(self, tree: Tree, X, y, grower) -> Pruning:
        return self._select(tree, X, y, grower, self._seed(grower.random_state))

    def _select(self, tree, X, y, grower, seed) -> Pruning:
        rule = check_choice(self.rule, "rule", RULES)
        cv = self._folds(y)
        if tree.n_leaves == 1 or cv is None:       # nothing to choose, or no folds possible
            self.selection_, self.alpha_ = None, 0.0
        else:
            selection = cross_validate_alpha(X, y, grower, cv=cv, risk=self.risk,
                                             random_state=seed)
            self.selection_ = selection
            self.alpha_ = selection.alpha_one_se if rule == "1-SE" else selection.alpha_best
        return cost_complexity(tree, self.alpha_, self.risk)

    def _folds(self, y):
        """``cv``, with fewer folds (and a warning) when no class has ``cv`` examples, as
        stratified folds need; ``None`` when no class has two."""
        if isinstance(self.cv, (bool, np.bool_)) or not isinstance(self.cv, numbers.Integral):
            return self.cv
        cv = check_count(self.cv, "cv", minimum=2)
        largest = int(np.unique(np.asarray(y), return_counts=True)[1].max())
        if largest >= cv:
            return cv
        warnings.warn(
            f"cv={cv} stratified folds need a class with at least {cv} examples, and the "
            f"largest has {largest}; " + (f"using {largest} folds." if largest >= 2 else
                                          "too few to cross-validate, so alpha = 0."),
            UserWarning, stacklevel=6)          # the caller of PrunedTreeClassifier.fit
        return largest if largest >= 2 else None


# ---------------------------------------------------------------------- the seed papers
class KearnsMansourPruner(Pruner):
    """Kearns & Mansour's (1998) bottom-up pass with their local rule (1) on the growing
    sample (see :func:`prunekit.kearns_mansour`).

    Parameters
    ----------
    delta : float in (0, 1), default 0.05
    c : float >= 0, default 1.0
        The constant of the penalty alpha(m_v, s_v, l_v, delta); 0 is reduced-error pruning
        on the growing sample.
    form : {"boolean", "finite", "vc"}, default "boolean"
        The penalty's form, their eq. (3), (2) or (4).
    cap : bool, default True
        Cap the penalty at 1.
    n_features : int >= 1 or None, default None
        Form "boolean": the number n of boolean tests; default the number of features.
    log_paths, log_trees : callable or None, default None
        Form "finite" (both needed), see :func:`prunekit.kearns_mansour_pruning.penalty`.
    vc_paths, vc_trees : callable or None, default None
        Form "vc" (both needed), likewise.
    """

    def __init__(self, delta=0.05, c=1.0, form="boolean", cap=True, n_features=None,
                 log_paths=None, log_trees=None, vc_paths=None, vc_trees=None):
        self.delta = delta
        self.c = c
        self.form = form
        self.cap = cap
        self.n_features = n_features
        self.log_paths = log_paths
        self.log_trees = log_trees
        self.vc_paths = vc_paths
        self.vc_trees = vc_trees

    def prune(self, tree: Tree, X_prune=None, y_prune=None) -> Pruning:
        options = {name: getattr(self, name) for name in
                   ("n_features", "log_paths", "log_trees", "vc_paths", "vc_trees")
                   if getattr(self, name) is not None}
        return kearns_mansour(tree, delta=self.delta, c=self.c, form=self.form, cap=self.cap,
                              **options)


class NobelPruner(HoldoutPruner):
    """Nobel's (2002) square-root penalty, minimised exactly (see :func:`prunekit.nobel`).

    With ``case="same"`` the growing sample prunes (Delta of his eq. 4); with
    ``case="independent"`` the pruner is a hold-out pruner: the classifier holds out a
    pruning sample, which prunes with Delta' of eq. (7) and relabels the leaves.

    Parameters
    ----------
    case : {"same", "independent"}, default "same"
    method : {"exact", "ccp"}, default "exact"
        The exact size-indexed programme, or the paper's approximation (10).
    prune_size : float in (0, 1) or int >= 1, default 0.3
        ``case="independent"`` only; see :class:`HoldoutPruner`.
    random_state : int, RandomState or None, default None
        ``case="independent"`` only; see :class:`HoldoutPruner`.
    """

    def __init__(self, case="same", method="exact", prune_size=0.3, random_state=None):
        super().__init__(prune_size=prune_size, random_state=random_state)
        self.case = case
        self.method = method

    _min_prune = 4                  # Nobel assumes n >= 4

    def uses_pruning_sample(self) -> bool:
        return check_choice(self.case, "case", ("same", "independent")) == "independent"

    @property
    def _poor_score(self) -> bool:
        """On small samples the same-sample penalty (eq. 4) prunes to the root: with d = 2
        and n = 300 a stump must lower the training error rate by about 0.9 to pay for its
        two extra nodes."""
        return self.case == "same"

    def prune(self, tree: Tree, X_prune=None, y_prune=None) -> Pruning:
        independent = self.uses_pruning_sample()
        n = len(y_prune) if independent and hasattr(y_prune, "__len__") else tree.n_samples
        if n < self._min_prune:
            raise ValueError(f"NobelPruner needs at least 4 examples (Nobel 2002 assumes "
                             f"n >= 4) in its {'pruning' if independent else 'growing'} "
                             f"sample, got n_samples={n}.")
        if not independent:
            return nobel(tree, case="same", method=self.method)
        return nobel(tree, X_prune, y_prune, case="independent", method=self.method)


class KReducedErrorPruner(HoldoutPruner):
    """k-REP: reduced-error pruning among the prunings with at most k growing errors
    (Kääriäinen, Malinen & Elomaa 2004, Definition 4; see :func:`prunekit.k_reduced_error`).

    Parameters
    ----------
    k : int >= 0 or None, default None
        The budget of growing-sample errors. ``None``: the paper's budget (Sec. 6.1),
        k = floor(c x the errors of the grown tree on its growing sample). The paper grows
        with at least two examples per leaf (``min_samples_leaf=2``); a tree grown to pure
        leaves makes no growing errors, and then k = 0 for every c.
    c : float >= 1, default 1.1
        The paper's factor, used when ``k`` is None.
    prune_size : float in (0, 1) or int >= 1, default 0.3
    random_state : int, RandomState or None, default None
        See :class:`HoldoutPruner`.

    Attributes
    ----------
    k_ : int
        The budget of the last :meth:`~prunekit.Pruner.prune`.
    """

    def __init__(self, k=None, c=1.1, prune_size=0.3, random_state=None):
        super().__init__(prune_size=prune_size, random_state=random_state)
        self.k = k
        self.c = c

    def prune(self, tree: Tree, X_prune, y_prune) -> Pruning:
        self.k_ = self._budget(tree)
        return k_reduced_error(tree, X_prune, y_prune, self.k_)

    def _budget(self, tree: Tree) -> int:
        if self.k is not None:
            return check_count(self.k, "k")
        return growing_error_budget(growing_errors_of_tree(tree), self.c)


class RademacherBoundPruner(HoldoutPruner):
    """The k-REP pruning with the smallest Rademacher bound over a range of budgets.

    Chapter 6's selection: the classes P_k of prunings with at most k growing errors grow
    with k, from the grown tree's own growing errors (the smallest non-empty class) to the
    errors of the root as a leaf (all prunings). For ``n_budgets`` budgets spaced
    geometrically over that range, the pruner takes k-REP's pruning h_k (fewest errors on the
    pruning sample within P_k) and its Rademacher bound (Kääriäinen, Malinen & Elomaa 2004,
    Lemma 3, eq. 1)

        L_S(h_k) + 2 R_m(P_k) + 5 eta(delta / n_budgets, m),

    with R_m(P_k) the mean of the Rademacher penalty over ``n_draws`` draws of the signs (the
    same draws for every k), and keeps the pruning with the smallest bound (the smallest k on
    ties). Splitting delta over the budgets (a union bound) makes the chosen pruning's bound
    hold with probability at least 1 - delta; it does not change which pruning is chosen.

    Parameters
    ----------
    n_budgets : int >= 2, default 10
    n_draws : int >= 1, default 20
    delta : float in (0, 1), default 0.01
    prune_size : float in (0, 1) or int >= 1, default 0.3
    random_state : int, RandomState or None, default None
        Seeds the split and the signs; ``None`` takes the classifier's ``random_state``.

    Attributes
    ----------
    budgets_ : ndarray of int
        The budgets k tried.
    penalties_, bounds_ : ndarray of float
        Mean Rademacher penalty and bound of each budget.
    k_ : int
        The budget chosen.
    bound_ : float
        Its bound on the true error of the chosen pruning.
    """

    def __init__(self, n_budgets=10, n_draws=20, delta=0.01, prune_size=0.3,
                 random_state=None):
        super().__init__(prune_size=prune_size, random_state=random_state)
        self.n_budgets = n_budgets
        self.n_draws = n_draws
        self.delta = delta

    def prune(self, tree: Tree, X_prune, y_prune) -> Pruning:
        return self._select(tree, X_prune, y_prune, self.random_state)

    def _prune_grown(self, tree: Tree, X, y, grower) -> Pruning:
        return self._select(tree, X, y, self._seed(grower.random_state))

    def _select(self, tree: Tree, X_prune, y_prune, seed) -> Pruning:
        n_budgets = check_count(self.n_budgets, "n_budgets", minimum=2)
        n_draws = check_count(self.n_draws, "n_draws", minimum=1)
        delta = check_probability(self.delta, "delta")
        counts = tree.node_counts(X_prune, y_prune)
        m = int(counts[0].sum())
        signs = draw_signs(m, _signs_seed(seed), n_draws)
        budgets = _budget_grid(tree, n_budgets)
        prunings = [k_reduced_error(tree, X_prune, y_prune, int(k)) for k in budgets]
        errors = np.array([pruning.errors(counts) / m for pruning in prunings])
        penalties = np.array([rademacher_penalty(tree, X_prune, y_prune, signs=signs,
                                                 k=int(k)).mean() for k in budgets])
        bounds = np.asarray(rademacher_bound(errors, penalties, m, delta / len(budgets)))
        best = int(np.argmin(bounds))
        self.budgets_, self.penalties_, self.bounds_ = budgets, penalties, bounds
        self.k_, self.bound_ = int(budgets[best]), float(bounds[best])
        return prunings[best]


def _signs_seed(seed) -> int:
    """An integer seed for :func:`prunekit.rademacher.draw_signs` from a ``random_state``."""
    if isinstance(seed, numbers.Integral) and not isinstance(seed, bool) and seed >= 0:
        return int(seed)
    return int(check_random_state(seed).randint(np.iinfo(np.int32).max))


def _budget_grid(tree: Tree, n_budgets: int) -> np.ndarray:
    """Budgets spaced geometrically from the tree's growing errors to the root's."""
    lowest = growing_errors_of_tree(tree)
    highest = tree.n_samples - int(tree.counts[0].max())
    grid = np.rint(np.geomspace(lowest + 1, highest + 1, n_budgets)).astype(np.int64) - 1
    return np.unique(np.clip(grid, lowest, highest))


# ---------------------------------------------------------------------- the classic heuristics
class PessimisticPruner(Pruner):
    """Quinlan's (1987) pessimistic error pruning (see :func:`prunekit.pessimistic`).

    Parameters
    ----------
    order : {"top-down", "bottom-up"}, default "top-down"
        Quinlan's top-down visit, or the same test applied bottom-up.
    """

    def __init__(self, order="top-down"):
        self.order = order

    def prune(self, tree: Tree, X_prune=None, y_prune=None) -> Pruning:
        return pessimistic(tree, order=self.order)


class MinimumErrorPruner(Pruner):
    """Minimum-error pruning (see :func:`prunekit.minimum_error`).

    Parameters
    ----------
    m : float >= 0 or None, default None
        ``None``: Niblett & Bratko's (1986) Laplace estimate; otherwise Cestnik & Bratko's
        (1991) m-estimate with this m.
    prior : array-like of shape (n_classes,) or None, default None
        Prior class probabilities of the m-estimate (default: the class frequencies of the
        growing sample). Only with ``m``.
    """

    _array_parameters = ("prior",)

    def __init__(self, m=None, prior=None):
        self.m = m
        self.prior = prior

    def prune(self, tree: Tree, X_prune=None, y_prune=None) -> Pruning:
        return minimum_error(tree, m=self.m, prior=self.prior)


class ErrorBasedPruner(Pruner):
    """C4.5's error-based pruning, as Weka's J48 does it (see :func:`prunekit.error_based`).

    Parameters
    ----------
    confidence : float in (0, 1), default 0.25
        C4.5's confidence factor CF (J48's ``-C``).
    subtree_raising : bool, default True
        Also raise subtrees, J48's default: :meth:`restructure` replaces the tree by the
        raised one (:func:`prunekit.error_based_raising`, which re-routes the growing sample)
        and :meth:`~prunekit.Pruner.prune` keeps all of it. ``False`` is J48's ``-S``: collapse and prune only.
    """

    def __init__(self, confidence=0.25, subtree_raising=True):
        self.confidence = confidence
        self.subtree_raising = subtree_raising

    def _raising(self) -> bool:
        if not isinstance(self.subtree_raising, (bool, np.bool_)):
            raise TypeError(f"subtree_raising must be True or False, got "
                            f"{_describe(self.subtree_raising)}.")
        return bool(self.subtree_raising)

    def restructure(self, tree: Tree, X, y) -> Tree:
        if not self._raising():
            return tree
        return error_based_raising(tree, X, y, confidence=self.confidence)

    def prune(self, tree: Tree, X_prune=None, y_prune=None) -> Pruning:
        if self._raising():
            return Pruning.full(tree)
        return error_based(tree, confidence=self.confidence)


class CriticalValuePruner(HoldoutPruner):
    """Mingers' critical-value pruning with the critical value chosen on a held-out sample.

    See :func:`prunekit.critical_value`.

    Parameters
    ----------
    measure : str, default "entropy"
        The split measure; ``"criterion"`` uses the classifier's growing criterion.
    prune_size : float in (0, 1) or int >= 1, default 0.3
    random_state : int, RandomState or None, default None
        See :class:`HoldoutPruner`.
    """

    def __init__(self, measure="entropy", prune_size=0.3, random_state=None):
        super().__init__(prune_size=prune_size, random_state=random_state)
        self.measure = measure

    def prune(self, tree: Tree, X_prune, y_prune) -> Pruning:
        return critical_value(tree, X_prune, y_prune, measure=self.measure)


class ReducedErrorPruner(HoldoutPruner):
    """Reduced-error pruning on a held-out sample (see :func:`prunekit.reduced_error`).

    Parameters
    ----------
    prune_size : float in (0, 1) or int >= 1, default 0.3
    random_state : int, RandomState or None, default None
        See :class:`HoldoutPruner`.
    labels : {"growing", "pruning"}, default "growing"
        Leaf labels, as in :func:`prunekit.reduced_error`.
    """

    def __init__(self, prune_size=0.3, random_state=None, labels="growing"):
        super().__init__(prune_size=prune_size, random_state=random_state)
        self.labels = labels

    def prune(self, tree: Tree, X_prune, y_prune) -> Pruning:
        return reduced_error(tree, X_prune, y_prune, labels=self.labels)


# ---------------------------------------------------------------------- the classifier
class PrunedTreeClassifier(ClassifierMixin, BaseEstimator):
    """Grow a decision tree with scikit-learn, then prune it with a prunekit pruner.

    Parameters
    ----------
    pruner : Pruner or None, default None
        The pruning method. None, as scikit-learn's estimators do with their default
        objects, means a new ``CrossValidatedCostComplexityPruner()`` made at each ``fit``
        (so no classifier's default can be changed through another): cost-complexity
        pruning with alpha chosen by 10-fold cross-validation and the 1-SE rule.
        ``set_params(pruner__cv=...)`` (``pruner__rule``, ``pruner__risk``, so also
        ``GridSearchCV``) on a classifier with the default first gives it its own such
        pruner. To tune alpha yourself, pass ``CostComplexityPruner()`` and search
        ``pruner__alpha``. A pruner that uses a pruning sample makes the classifier hold one
        out (:meth:`HoldoutPruner.split`).
    criterion : {"gini", "entropy", "log_loss"}, default "gini"
        Split criterion of the grower.
    max_depth : int or None, default None
    min_samples_leaf : int, default 1
    random_state : int, RandomState or None, default None
        Seeds the grower's tie-breaking between equally good splits, and the split into
        growing and pruning samples, the folds and the Rademacher signs when the pruner has
        no ``random_state`` of its own.

    Attributes
    ----------
    tree_ : Tree
        The tree the pruning refers to: the grown tree with the class counts of its growing
        sample (all the training data, or what a hold-out pruner leaves for growing), or for
        subtree raising the raised tree.
    pruning_ : Pruning
        The pruning of ``tree_`` the classifier predicts with.
    pruner_ : Pruner
        The copy of ``pruner`` that pruned, with what it chose (e.g. ``alpha_``).
    classes_ : ndarray
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        The column names of ``X`` when it was a DataFrame with string column names (only
        then); ``tree_.feature_names`` holds them too.
    feature_importances_ : ndarray of shape (n_features,)
        Impurity-based importances of the pruned tree (see the property).

    Notes
    -----
    Sparse ``X`` (CSR or CSC) is accepted. For fitting it is densified in float32 (the
    precision the tree compares thresholds in), since the pruners count examples per node
    with prunekit's dense routing: m x d x 4 bytes. Predictions route it in blocks of rows.

    Not supported, with an error that says what to do instead: sample weights (every pruner
    counts misclassified examples) and missing values (every example must follow one branch).
    """

    def __init__(self, pruner=None, criterion="gini", max_depth=None,
                 min_samples_leaf=1, random_state=None):
        self.pruner = pruner
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.random_state = random_state

    def set_params(self, **params):
        """Set parameters; nested ``pruner__`` parameters given while ``pruner`` is None (the
        default) are set on a new ``CrossValidatedCostComplexityPruner()``, which becomes this
        classifier's pruner."""
        if (params.get("pruner", self.pruner) is None
                and any(key.startswith("pruner__") for key in params)):
            params = {"pruner": CrossValidatedCostComplexityPruner(), **params}
        return super().set_params(**params)

    # ------------------------------------------------------------------ fitting
    def fit(self, X, y, **fit_params):
        """Grow the tree on ``(X, y)`` (or its growing part) and prune it.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (m, d)
            Finite numbers; a pandas DataFrame keeps its column names.
        y : array-like of shape (m,)
            Class labels.
        **fit_params
            None are accepted; ``sample_weight`` is refused with an explanation.

        Returns
        -------
        self
        """
        _refuse_fit_params(fit_params)
        _check_single_values(type(self).__name__, {
            name: value for name, value in self.get_params(deep=False).items()
            if name != "pruner"})
        X, y = self._training_data(X, y)
        pruner = self._fresh_pruner()
        classes = np.unique(y)
        grower = DecisionTreeClassifier(criterion=self.criterion, max_depth=self.max_depth,
                                        min_samples_leaf=self.min_samples_leaf,
                                        random_state=_concrete_seed(self.random_state))
        holdout = pruner.uses_pruning_sample()
        if holdout:
            X_grow, X_prune, y_grow, y_prune = pruner.split(X, y, grower.random_state)
        else:
            X_grow, y_grow = X_prune, y_prune = X, y
        tree = self._restructured(pruner, self._grow(grower, X_grow, y_grow, classes),
                                  X_grow, y_grow)
        pruning = _checked_pruning(pruner, tree, X_prune, y_prune, grower)
        self.pruner_, self.tree_, self.pruning_ = pruner, tree, pruning
        self.classes_ = np.array(tree.classes_)
        self._proba = _leaf_probabilities(
            pruning, tree.node_counts(X_prune, y_prune) if holdout else None)
        return self

    def _training_data(self, X, y):
        X, y = validate_data(self, X, y, accept_sparse=("csr", "csc"),
                             ensure_all_finite=False)
        self._check_finite(X)
        check_classification_targets(y)
        if sparse.issparse(X):
            X = X.astype(np.float32).toarray()
        return X, y

    def _fresh_pruner(self) -> Pruner:
        pruner = CrossValidatedCostComplexityPruner() if self.pruner is None else self.pruner
        if isinstance(pruner, type) and issubclass(pruner, Pruner):
            raise TypeError(f"pruner must be a Pruner object, got the class {pruner.__name__}; "
                            f"pass {pruner.__name__}() instead.")
        if not isinstance(pruner, Pruner):
            raise TypeError(f"pruner must be a prunekit Pruner (e.g. CostComplexityPruner()), "
                            f"got {type(pruner).__name__}.")
        pruner._check_parameters()
        return clone(pruner)

    def _grow(self, grower, X, y, classes) -> Tree:
        tree = Tree.from_sklearn(clone(grower).fit(X, y), X, y, classes=classes)
        names = getattr(self, "feature_names_in_", None)       # set by validate_data
        return tree if names is None else tree.with_feature_names([str(n) for n in names])

    def _restructured(self, pruner: Pruner, grown: Tree, X, y) -> Tree:
        tree = pruner.restructure(grown, X, y)
        name = type(pruner).__name__
        if not isinstance(tree, Tree):
            raise TypeError(f"{name}.restructure must return a prunekit Tree, got "
                            f"{type(tree).__name__}.")
        if tree is not grown and not np.array_equal(tree.classes_, grown.classes_):
            raise ValueError(f"{name}.restructure returned a tree with classes "
                             f"{_describe(tree.classes_.tolist())}, not the training classes "
                             f"{_describe(grown.classes_.tolist())}.")
        if (tree is not grown and tree.feature_names is None
                and grown.feature_names is not None and tree.n_features == grown.n_features):
            tree = tree.with_feature_names(grown.feature_names)
        return tree

    # ------------------------------------------------------------------ predicting
    def _check_finite(self, X) -> None:
        """Refuse NaN and infinity, saying why and what to do."""
        values = X.data if sparse.issparse(X) else X
        if np.all(np.isfinite(values)):
            return
        if sparse.issparse(X):
            X = X.tocsc()
            column = int(np.searchsorted(X.indptr, np.flatnonzero(~np.isfinite(X.data))[0],
                                         side="right") - 1)
        else:
            column = int(np.flatnonzero(~np.all(np.isfinite(X), axis=0))[0])
        names = getattr(self, "feature_names_in_", None)
        where = f"column {column}" + ("" if names is None else f" ({names[column]!r})")
        if np.isnan(values).any():
            raise ValueError(
                f"X contains NaN (a missing value) in {where}. PrunedTreeClassifier does not "
                "handle missing values: every example must follow one branch at each split, "
                "and the pruners count the examples at every node. Impute them first, e.g. "
                "make_pipeline(SimpleImputer(), PrunedTreeClassifier()), or drop those rows.")
        raise ValueError(f"X contains infinity in {where}; every value must be finite (clip "
                         "or transform that column first).")

    def _samples(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, accept_sparse=("csr", "csc"),
                          ensure_all_finite=False)
        self._check_finite(X)
        return X

    def _leaves(self, X) -> np.ndarray:
        """The pruning leaf (a node of ``tree_``) each row of a validated ``X`` reaches."""
        if not sparse.issparse(X):
            return self.pruning_.apply(X)
        X = X.tocsr()
        rows = max(1, _BLOCK_CELLS // max(X.shape[1], 1))
        return np.concatenate([self.pruning_.apply(X[start:start + rows].astype(np.float32)
                                                   .toarray())
                               for start in range(0, X.shape[0], rows)])

    def predict(self, X):
        """Class labels predicted by the pruned tree."""
        leaf = self._leaves(self._samples(X))
        return self.classes_[self.pruning_.labels[leaf]]

    def predict_proba(self, X):
        """Class probabilities: the class frequencies at the pruning leaf each row reaches.

        The frequencies are those of the growing sample. Where a pruner relabels a leaf with
        the majority of the pruning sample (Nobel's independent case, reduced-error pruning
        with ``labels="pruning"``), that leaf's frequencies are the pruning sample's, so
        that the most probable class is always the predicted one; a leaf whose label is
        the majority of neither sample (ties, empty leaves) gets probability 1 for it.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Columns in the order of ``classes_``; rows sum to 1.
        """
        leaf = self._leaves(self._samples(X))
        return self._proba[leaf]

    def predict_log_proba(self, X):
        """The logarithm of :meth:`predict_proba` (``-inf`` for probability 0)."""
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def apply(self, X) -> np.ndarray:
        """Index, in ``tree_``, of the pruning leaf each row of ``X`` reaches."""
        return self._leaves(self._samples(X))

    def decision_path(self, X):
        """The kept nodes of ``tree_`` each row of ``X`` passes through, root to leaf.

        Returns
        -------
        scipy.sparse.csr_matrix of shape (n_samples, tree_.n_nodes)
            Entry (i, v) is 1 when row i passes through node v and v is kept by the pruning;
            the nodes the pruning removed have no entries, as in scikit-learn's
            ``decision_path`` of the pruned tree.
        """
        return _decision_paths(self.tree_, self.apply(X))

    def get_depth(self) -> int:
        """Depth of the pruned tree (0 for a single leaf)."""
        check_is_fitted(self)
        return self.pruning_.depth

    def get_n_leaves(self) -> int:
        """Number of leaves of the pruned tree."""
        check_is_fitted(self)
        return self.pruning_.n_leaves

    @property
    def feature_importances_(self) -> np.ndarray:
        """Impurity-based importances of the pruned tree, as scikit-learn defines them.

        For each feature, the total decrease of weighted impurity p(t) i(t) - p(L) i(L) -
        p(R) i(R) over the kept internal nodes t that split on it (L and R their children,
        p the share of the growing sample reaching a node), normalised to sum 1 (all zero
        for a single leaf). The impurity i is the grower's criterion (Gini by default, or
        entropy in bits) on the growing sample. On an unpruned tree it equals
        ``DecisionTreeClassifier.feature_importances_``.
        """
        check_is_fitted(self)
        return _impurity_importances(self.tree_, self.pruning_)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        tags.input_tags.sparse = True
        tags.classifier_tags.poor_score = bool(getattr(self.pruner, "_poor_score", False))
        return tags


# ---------------------------------------------------------------------- classifier helpers
def _refuse_fit_params(fit_params: dict) -> None:
    if "sample_weight" in fit_params:
        raise TypeError(
            "PrunedTreeClassifier.fit does not take sample_weight: every pruner compares "
            "numbers of misclassified examples and the bounds are stated for m examples, "
            "which weights have no meaning for. Integer weights w are the same as repeated "
            "examples: fit on np.repeat(X, w, axis=0) and np.repeat(y, w). For other weights, "
            "resample the data in proportion to them, or use scikit-learn's "
            "DecisionTreeClassifier(ccp_alpha=...), which takes weights.")
    if fit_params:
        raise TypeError(f"PrunedTreeClassifier.fit got unexpected keyword arguments "
                        f"{sorted(fit_params)}.")


def _concrete_seed(random_state):
    """An integer seed: ``random_state`` itself when it is one, else one drawn from it, so
    that the grower, the split and the folds of one fit agree."""
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        return random_state
    return int(check_random_state(random_state).randint(np.iinfo(np.int32).max))


def _checked_pruning(pruner: Pruner, tree: Tree, X, y, grower) -> Pruning:
    pruning = pruner._prune_grown(tree, X, y, grower)
    name = type(pruner).__name__
    if not isinstance(pruning, Pruning):
        raise TypeError(f"{name}.prune must return a prunekit Pruning, got "
                        f"{type(pruning).__name__}.")
    if pruning.tree is not tree:
        raise ValueError(f"{name}.prune returned a Pruning of another tree; it must prune "
                         "the tree it is given.")
    return pruning


def _frequencies(counts: np.ndarray) -> np.ndarray:
    counts = np.asarray(counts, dtype=np.float64)
    totals = counts.sum(axis=1, keepdims=True)
    return np.divide(counts, totals, out=np.zeros_like(counts), where=totals > 0)


def _leaf_probabilities(pruning: Pruning, prune_counts=None) -> np.ndarray:
    """Class probabilities of every node as a leaf of ``pruning`` (see ``predict_proba``)."""
    labels = pruning.labels
    proba = _frequencies(pruning.tree.counts)
    agrees = (proba.sum(axis=1) > 0) & (np.argmax(proba, axis=1) == labels)
    if prune_counts is not None:
        other = _frequencies(prune_counts)
        use = ~agrees & (other.sum(axis=1) > 0) & (np.argmax(other, axis=1) == labels)
        proba[use] = other[use]
        agrees |= use
    proba[~agrees] = np.eye(proba.shape[1])[labels[~agrees]]
    return proba


def _decision_paths(tree: Tree, leaf: np.ndarray) -> sparse.csr_matrix:
    """CSR indicator of the nodes from the root to each ``leaf`` (scikit-learn's layout)."""
    ends, row_of = np.unique(leaf, return_inverse=True)
    depth = tree.depth[ends]
    paths = np.full((len(ends), int(depth.max()) + 1 if len(ends) else 1), -1)
    node, level, rows = ends.copy(), depth.copy(), np.arange(len(ends))
    parent = tree.parent
    while True:
        paths[rows, level] = node
        up = level > 0
        if not up.any():
            break
        node, level = np.where(up, parent[node], node), level - up
    per_row = paths[row_of]
    indices = per_row[per_row >= 0]
    indptr = np.concatenate([[0], np.cumsum(tree.depth[leaf] + 1)])
    return sparse.csr_matrix((np.ones(len(indices), dtype=np.int64), indices, indptr),
                             shape=(len(leaf), tree.n_nodes))


def _impurity_importances(tree: Tree, pruning: Pruning) -> np.ndarray:
    """Normalised weighted-impurity decrease per feature over the kept internal nodes."""
    risk = leaf_risks(tree, "impurity")                  # p(t) i(t)
    nodes = np.flatnonzero(pruning.kept & ~pruning.is_leaf)
    decrease = risk[nodes] - risk[tree.left[nodes]] - risk[tree.right[nodes]]
    importances = np.bincount(tree.feature[nodes], weights=decrease,
                              minlength=tree.n_features).astype(np.float64)
    total = importances.sum()
    return importances / total if total > 0 else importances
