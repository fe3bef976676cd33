"""The base classes of prunekit's pruners: :class:`Pruner` and :class:`HoldoutPruner`.

A pruner is a small scikit-learn estimator-like object that holds one pruning method's
parameters and maps a grown :class:`~prunekit.Tree` to a :class:`~prunekit.Pruning`;
:class:`~prunekit.PrunedTreeClassifier` grows a tree and prunes it with one. Every method has
its pruner in its own module, next to its function (:class:`~prunekit.PessimisticPruner` in
:mod:`prunekit.pessimistic_pruning` beside :func:`~prunekit.pessimistic`, ...). A pruner's
constructor takes its function's parameters, with the same defaults, as keyword arguments
(``tests/test_estimator.py`` compares every pruner's signature with its function's), and its
parameters are checked by the same declared checks as the function's (``_parameter_checks``,
see ``prunekit._parameters``).

Two kinds of pruner exist. Most judge the tree on the sample it was grown on (cost-complexity,
Kearns-Mansour, Nobel's same-sample penalty, pessimistic, minimum-error and error-based
pruning). Those that need an independent pruning sample (reduced-error, k-REP, the Rademacher
bound, Nobel's independent-sample penalty and critical-value pruning) derive from
:class:`HoldoutPruner`: the classifier then splits its training data, stratified and seeded,
into a growing part and a pruning part of ``prune_size``, grows the tree on the first and hands
the pruner the second, ``X_prune, y_prune``.
"""

from __future__ import annotations

import inspect
import math
import numbers
import warnings

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.model_selection import train_test_split
from sklearn.utils import _safe_indexing

from prunekit._parameters import checked_where_used, describe, validate_parameters
from prunekit.tree import Pruning, Tree, check_tree
from prunekit.validation import check_random_state

__all__ = ["Pruner", "HoldoutPruner", "pruning_sample_counts"]


class Pruner(BaseEstimator):
    """Base class of the pruners :class:`~prunekit.PrunedTreeClassifier` accepts.

    A pruner's constructor takes only its parameters, as keyword arguments (so
    ``get_params``/``set_params`` and ``clone`` work), and :meth:`~prunekit.Pruner.prune`
    maps a grown :class:`~prunekit.Tree` and a sample to a :class:`~prunekit.Pruning` of that
    same tree. A pruner that changes the tree itself
    (subtree raising) does so in :meth:`restructure`, which the classifier calls first. A
    pruner is also a function: ``pruner(tree, X, y)`` restructures and prunes in one call.

    A pruner defined for weighted counts takes ``sample_weight=None`` as a last parameter of
    :meth:`~prunekit.Pruner.prune` (and of :meth:`restructure` if it restructures): the
    weights of the sample it is given. The classifier fits with weights (``sample_weight``,
    ``class_weight``) only with such a pruner; the tree it passes then holds weighted
    counts (:attr:`Tree.weighted <prunekit.Tree.weighted>`).

    Pruners that choose something from the data (an alpha, a budget) record it in
    attributes ending in ``_`` when they prune; the classifier prunes with a copy of its
    pruner, kept as ``pruner_``, so those attributes can be read there.

    Examples
    --------
    A pruner of one's own: a subclass whose constructor takes its parameters as keyword
    arguments, and whose ``prune`` returns a pruning of the tree it is given. This one cuts
    the tree below a given depth:

    >>> import prunekit as pk
    >>> class DepthPruner(pk.Pruner):
    ...     def __init__(self, *, depth=2):
    ...         self.depth = depth
    ...     def prune(self, tree, X_prune, y_prune):
    ...         deep = tree.depth >= self.depth
    ...         return pk.Pruning.from_collapsed(tree, deep)
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> clf = pk.PrunedTreeClassifier(pruner=DepthPruner(depth=2))
    >>> clf = clf.fit(X, y)
    >>> clf.get_depth(), clf.get_n_leaves()
    (2, 3)
    """

    #: The pruning function whose parameters and defaults the constructor takes (the
    #: sample arguments aside); ``None`` for a pruner that is no function's.
    _function = None
    #: A check ``check(value, name) -> value`` for every constructor parameter, the
    #: function's own shared with it (``prunekit._parameters.validate_parameters``).
    _parameter_checks: dict = {}
    #: Parameters that may hold arrays; every other parameter takes a single value.
    _array_parameters = ()
    #: Why the method refuses weights, for the classifier's message (a pruner takes them
    #: when its ``prune`` has a ``sample_weight`` parameter).
    _weights_refused = None

    def uses_pruning_sample(self) -> bool:
        """Whether the pruner needs a pruning sample independent of the growing sample.

        The classifier then holds one out (:meth:`HoldoutPruner.split`) and passes it to
        :meth:`~prunekit.Pruner.prune`; otherwise it passes the growing sample.
        """
        return False

    def restructure(self, tree: Tree, X, y, **weights) -> Tree:
        """Return the tree to prune; by default ``tree`` itself.

        Parameters
        ----------
        tree : Tree
            The grown tree.
        X, y : ndarray
            Its growing sample.
        **weights
            ``sample_weight``, the growing sample's weights, in a weighted fit.
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

    def __call__(self, tree: Tree, X=None, y=None, **weights) -> Pruning:
        """Restructure and prune ``tree``, like a pruner function (``pk.reduced_error``...).

        Parameters
        ----------
        tree : Tree
        X, y : array-like, optional
            The sample :meth:`~prunekit.Pruner.prune` takes (the pruning sample for a pruner
            that uses one).
        **weights
            ``sample_weight``, that sample's weights, for a pruner that takes them.

        Returns
        -------
        Pruning
            A pruning of :meth:`restructure`'s tree, which is ``tree`` itself except for
            subtree raising.
        """
        if weights:
            _check_takes_weights(self)
        return self.prune(self.restructure(tree, X, y, **weights), X, y, **weights)

    def _prune_grown(self, tree: Tree, X, y, grower, **weights) -> Pruning:
        """The classifier's call: :meth:`~prunekit.Pruner.prune`, told the unfitted
        ``grower`` that grew ``tree`` (with the classifier's seed as its ``random_state``);
        ``weights`` is ``{"sample_weight": w}`` for a weighted fit, else empty."""
        return self.prune(tree, X, y, **weights)

    def _seed(self, fallback):
        """The pruner's own ``random_state``, or ``fallback`` when it has none."""
        own = getattr(self, "random_state", None)
        return fallback if own is None else own

    def _check_parameters(self) -> dict:
        """Check every parameter with ``_parameter_checks``; return the checked values.

        Run when the pruner prunes and when the classifier fits (before it grows the tree),
        so that a bad parameter fails early, with the message its function would give.
        """
        return validate_parameters(type(self).__name__, self._parameter_checks,
                                   self.get_params(deep=False), self._array_parameters)


def pruning_sample_counts(tree: Tree, X_prune, y_prune, *, why: str | None = None,
                          sample_weight=None) -> np.ndarray:
    """Class counts of the pruning sample ``(X_prune, y_prune)`` at every node of ``tree``.

    What every method that judges a tree on a pruning sample does first, in one place: check
    the sample, with messages that name ``X_prune`` and ``y_prune``, and count it at every
    node (:meth:`Tree.node_counts <prunekit.Tree.node_counts>`, the statistics of Kearns &
    Mansour 1998, Sec. 3).

    Parameters
    ----------
    tree : Tree
    X_prune : array-like of shape (m, n_features)
    y_prune : array-like of shape (m,)
        Labels, each one of the tree's classes.
    why : str, optional
        Why the method needs the sample: when ``X_prune`` or ``y_prune`` is ``None``, the
        ``ValueError`` says "X_prune is required: " (or "y_prune ...") followed by it.
    sample_weight : array-like of shape (m,), optional
        Weights of the pruning examples: the counts are then sums of weights.

    Returns
    -------
    ndarray of shape (n_nodes, n_classes)
        ``counts[v, k]``: the pruning examples of class ``tree.classes_[k]`` reaching node v.
    """
    check_tree(tree)
    if why is not None and (X_prune is None or y_prune is None):
        raise ValueError(f"{'X_prune' if X_prune is None else 'y_prune'} is required: {why}")
    return tree.node_counts(X_prune, y_prune, sample_weight=sample_weight,
                            names=("X_prune", "y_prune"))


def _check_takes_weights(pruner: Pruner) -> None:
    """Refuse weights for a pruner whose ``prune`` has no ``sample_weight`` parameter."""
    if "sample_weight" in inspect.signature(pruner.prune).parameters:
        return
    name = type(pruner).__name__
    why = pruner._weights_refused or "its prune method has no sample_weight parameter"
    raise ValueError(f"{name} does not take weights (sample_weight or class_weight): {why}. "
                     "Prune with a method defined for weighted counts (cost complexity, "
                     "reduced error, PEP, MEP, CVP, error-based), or fit without weights.")


def _check_prune_size(size, name: str):
    """A share in (0, 1) (a float) or a number >= 1 (an int) of examples to hold out."""
    if isinstance(size, bool) or not isinstance(size, numbers.Real):
        raise TypeError(f"{name} must be a float in (0, 1) or an int >= 1, got "
                        f"{type(size).__name__}.")
    if isinstance(size, numbers.Integral):
        if int(size) < 1:
            raise ValueError(f"{name} must be at least 1 example, got {int(size)}.")
    elif not 0 < size < 1:
        raise ValueError(f"{name} must be a float in (0, 1) or an int >= 1, got "
                         f"{describe(size)}.")
    return size


class HoldoutPruner(Pruner):
    """Base class of the pruners that choose their pruning on a separate pruning sample.

    Parameters
    ----------
    prune_size : float in (0, 1) or int >= 1
        Share (float) or number (int) of the training examples the classifier holds out as
        the pruning sample; the tree is grown on the rest.
    random_state : int, RandomState or None
        Seeds the split; ``None`` takes the classifier's ``random_state``.

    Examples
    --------
    A pruner of one's own that judges on the held-out sample, here by choosing the
    cost-complexity alpha with the fewest hold-out errors:

    >>> import prunekit as pk
    >>> class HoldoutAlpha(pk.HoldoutPruner):
    ...     def prune(self, tree, X_prune, y_prune):
    ...         chosen = pk.holdout_alpha(tree, X_prune, y_prune)
    ...         alpha = chosen.alpha_best
    ...         return pk.cost_complexity(tree, alpha)
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> clf = pk.PrunedTreeClassifier(pruner=HoldoutAlpha(),
    ...                               random_state=0)
    >>> clf.fit(X, y).get_n_leaves()
    3
    """

    _parameter_checks = {"prune_size": _check_prune_size, "random_state": checked_where_used}
    #: The fewest pruning examples the method works with.
    _min_prune = 1

    def __init__(self, *, prune_size=0.3, random_state=None):
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

        Examples
        --------
        >>> import prunekit as pk
        >>> from sklearn.datasets import load_iris
        >>> X, y = load_iris(return_X_y=True)
        >>> pruner = pk.ReducedErrorPruner(prune_size=0.3, random_state=0)
        >>> X_grow, X_prune, y_grow, y_prune = pruner.split(X, y)
        >>> len(y_grow), np.bincount(y_prune).tolist()
        (105, [15, 15, 15])
        """
        y_array = np.asarray(y)
        n_prune = self._n_prune(len(y_array))
        seed = self._seed(random_state)
        parts = _stratified_split(y_array, n_prune, check_random_state(seed, legacy=True))
        if parts is None:
            return train_test_split(X, y, test_size=n_prune, random_state=seed)
        grow, prune = parts
        return (_safe_indexing(X, grow), _safe_indexing(X, prune), _safe_indexing(y, grow),
                _safe_indexing(y, prune))

    def _n_prune(self, n: int) -> int:
        """The number of examples ``prune_size`` holds out of ``n``."""
        size = _check_prune_size(self.prune_size, "prune_size")
        if isinstance(size, numbers.Integral):
            n_prune = int(size)
        else:
            n_prune = math.ceil(size * n)
            if n_prune < self._min_prune < n:
                warnings.warn(f"{type(self).__name__} needs at least {self._min_prune} pruning "
                              f"examples; prune_size={size:g} of {n} gives {n_prune}, so "
                              f"{self._min_prune} are held out.", UserWarning, stacklevel=4)
                n_prune = self._min_prune
        if n_prune >= n:
            raise ValueError(
                f"prune_size={describe(size)} holds out {n_prune} of n_samples={n} examples, "
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
            f"{single.size} class(es) have a single example (e.g. {describe(single[0])}); "
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
