"""A fixed penalty linear in the size for regression trees (Chapter 11).

Under squared error, Gey & Nedelec (2005) show that penalised pruning of a CART regression tree
needs a penalty whose dominant term is |T| log(n) / n times the noise variance sigma^2, linear
in the number of leaves |T| as in CART's cost complexity (Nobel 2002, Sec. III, contrasts it
with the square root of |T| for 0-1 loss). Donoho (1997) uses a cost of the same order,
sigma^2 log(n) / n per leaf, for dyadic CART. Minimising

    R(T) + c sigma^2 |T| log(n) / n,        R(T) = (sum of squared errors of T's leaves) / n,

over the prunings T of the grown tree is cost-complexity pruning at the one alpha
c sigma^2 log(n) / n, so no resampling is needed once sigma^2 and the constant c are fixed.
The constant defaults to 2, the risk-inflation cost 2 sigma^2 log(p) per parameter of Foster &
George (1994), with the leaves as the parameters and n in place of p. When sigma^2 is not
known it is estimated from the grown tree: its leaves' squared errors divided by n minus the
number of leaves, as for a regression on the leaves' indicators. It counts what the leaves'
means miss of the regression function as noise too, and it is 0 for a tree grown to one
example per leaf, which is refused. :class:`GeyNedelecPruner` is the method for
:class:`~prunekit.PrunedTreeRegressor`.
"""

from __future__ import annotations

import math

from prunekit._parameters import check_parameters, constraint, optional
from prunekit.cost_complexity_pruning import cost_complexity
from prunekit.pruner import Pruner
from prunekit.regression_tree import RegressionTree
from prunekit.tree import Pruning
from prunekit.validation import check_real

__all__ = ["residual_variance", "gey_nedelec_alpha", "gey_nedelec", "GeyNedelecPruner"]

#: The checks of the parameters of :func:`gey_nedelec`, which :class:`GeyNedelecPruner` shares.
_PENALTY_PARAMETERS = {
    "constant": constraint(check_real, minimum=0),
    "sigma2": optional(constraint(check_real, minimum=0)),
}


def _check_regression_tree(tree, name: str = "tree") -> RegressionTree:
    if not isinstance(tree, RegressionTree):
        raise TypeError(f"{name} must be a prunekit RegressionTree: the penalty is one for "
                        f"squared error; got {type(tree).__name__}.")
    return tree


def residual_variance(tree: RegressionTree) -> float:
    """The noise variance estimated from a grown regression tree's leaves.

    sigma^2 = (sum over the leaves of the squared deviations from the leaf means) / (n - |T|),
    with n the growing sample's size (its total weight for a weighted tree) and |T| the number
    of leaves: the residual variance of a least-squares fit on the leaves' indicators.

    Parameters
    ----------
    tree : RegressionTree

    Returns
    -------
    float

    Raises
    ------
    ValueError
        When n <= |T| (a tree with a leaf per example leaves no residual to estimate from).

    Examples
    --------
    >>> import prunekit as pk
    >>> from sklearn.tree import DecisionTreeRegressor
    >>> X, y = [[0], [1], [2], [3]], [0.0, 2.0, 10.0, 12.0]
    >>> grower = DecisionTreeRegressor(max_depth=1).fit(X, y)
    >>> tree = pk.RegressionTree.from_sklearn(grower, X, y)
    >>> float(pk.residual_variance(tree))   # (2 + 2) / (4 - 2)
    2.0
    """
    tree = _check_regression_tree(tree)
    n, leaves = tree.n_samples, tree.n_leaves
    if n <= leaves:
        raise ValueError(
            f"the tree has {leaves} leaves for {n} sample{'' if n == 1 else 's'}, so no "
            "residual is left to estimate the noise variance from; grow it with "
            "min_samples_leaf of 2 or more, or pass sigma2.")
    return float(tree.leaf_errors()[tree.is_leaf].sum() / (n - leaves))


def gey_nedelec_alpha(n, sigma2, constant=2.0) -> float:
    """The cost per leaf c sigma^2 log(n) / n (Gey & Nedelec 2005; Nobel 2002, Sec. III).

    Parameters
    ----------
    n : float
        Size of the sample the risk is measured on, at least 1.
    sigma2 : float
        Noise variance (a variance, not a standard deviation), >= 0.
    constant : float, default 2.0
        The constant c, >= 0.

    Returns
    -------
    float
        The alpha of :func:`prunekit.cost_complexity` on scikit-learn's scale (the risk is
        the mean squared error).

    Examples
    --------
    >>> import prunekit as pk
    >>> round(pk.gey_nedelec_alpha(1000, 4.0), 6)   # 2 * 4 * log(1000)/1000
    0.055262
    """
    n = check_real(n, "n", minimum=1)
    sigma2, constant = check_parameters(_PENALTY_PARAMETERS, sigma2=sigma2,
                                        constant=constant)
    if sigma2 is None:
        raise TypeError("sigma2 must be a number, got None.")
    return constant * sigma2 * math.log(n) / n


def gey_nedelec(tree: RegressionTree, *, constant=2.0, sigma2=None) -> Pruning:
    """Prune a regression tree with the fixed penalty c sigma^2 |T| log(n) / n.

    Parameters
    ----------
    tree : RegressionTree
    constant : float, default 2.0
        The constant c of the penalty.
    sigma2 : float or None, default None
        The noise variance; None estimates it by :func:`residual_variance`.

    Returns
    -------
    Pruning
        The smallest pruning minimising R(T) + c sigma^2 |T| log(n) / n, that is
        :func:`prunekit.cost_complexity` at :func:`gey_nedelec_alpha`.

    Examples
    --------
    >>> import prunekit as pk
    >>> from sklearn.datasets import make_friedman1
    >>> from sklearn.tree import DecisionTreeRegressor
    >>> X, y = make_friedman1(n_samples=500, noise=1.0,
    ...                       random_state=0)
    >>> grower = DecisionTreeRegressor(min_samples_leaf=5, random_state=0)
    >>> tree = pk.RegressionTree.from_sklearn(grower.fit(X, y), X, y)
    >>> tree.n_leaves, pk.gey_nedelec(tree, sigma2=1.0).n_leaves
    (80, 62)
    """
    constant, sigma2 = check_parameters(_PENALTY_PARAMETERS, constant=constant,
                                        sigma2=sigma2)
    tree = _check_regression_tree(tree)
    return cost_complexity(tree, _penalty(tree, constant, sigma2)[1])


def _penalty(tree: RegressionTree, constant: float, sigma2) -> tuple[float, float]:
    """The noise variance (:func:`residual_variance` when ``sigma2`` is None) and the cost
    per leaf of the checked ``tree``'s penalty."""
    sigma2 = residual_variance(tree) if sigma2 is None else float(sigma2)
    return sigma2, gey_nedelec_alpha(tree.n_samples, sigma2, constant)


class GeyNedelecPruner(Pruner):
    """Pruning with the fixed penalty c sigma^2 |T| log(n) / n (see :func:`gey_nedelec`).

    Parameters
    ----------
    constant : float, default 2.0
    sigma2 : float or None, default None
        None estimates the noise variance from each grown tree (:func:`residual_variance`).

    Attributes
    ----------
    sigma2_ : float
        The noise variance used at the last prune.
    alpha_ : float
        The cost per leaf used at the last prune (:func:`gey_nedelec_alpha`).

    Examples
    --------
    >>> import prunekit as pk
    >>> from sklearn.datasets import make_friedman1
    >>> X, y = make_friedman1(n_samples=500, noise=1.0,
    ...                       random_state=0)
    >>> reg = pk.PrunedTreeRegressor(pruner=pk.GeyNedelecPruner(),
    ...                              min_samples_leaf=5, random_state=0)
    >>> reg = reg.fit(X, y)
    >>> reg.tree_.n_leaves, reg.get_n_leaves()
    (80, 40)
    """

    _function = staticmethod(gey_nedelec)
    _parameter_checks = _PENALTY_PARAMETERS

    def __init__(self, *, constant=2.0, sigma2=None):
        self.constant = constant
        self.sigma2 = sigma2

    def prune(self, tree: RegressionTree, X_prune=None, y_prune=None,
              sample_weight=None) -> Pruning:
        """Prune ``tree`` with the penalty; the sample is not needed (a tree grown with
        weights holds weighted moments)."""
        self._check_parameters()
        tree = _check_regression_tree(tree)
        self.sigma2_, self.alpha_ = _penalty(tree, self.constant, self.sigma2)
        return cost_complexity(tree, self.alpha_)
