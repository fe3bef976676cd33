"""Kearns & Mansour's bottom-up pruning on the training sample (Chapter 4).

Kearns & Mansour (1998) prune a tree with the *same* sample S it was grown on, in one
bottom-up pass. When every marker of the subtree below a node v has arrived at v, the subtree
T_v* that remains there is replaced by the best leaf if and only if (their rule (1))

    eps_v(T_v*) + alpha(m_v, s_v, l_v, delta) >= eps_v(empty),

where eps_v are local training error rates on the m_v examples reaching v, s_v is the number of
nodes of T_v*, l_v the depth of v, and alpha a penalty from local uniform convergence
(:func:`penalty`, their forms (2), (3) and (4)). :func:`kearns_mansour_global` is the global
rule of their Sec. 3 they contrast it with. :class:`KearnsMansourPruner` is the method for
:class:`~prunekit.PrunedTreeClassifier`.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from prunekit.validation import (
    check_broadcastable,
    check_bool,
    check_callable,
    check_choice,
    check_count,
    check_numbers,
    check_probability,
    check_real,
)
from prunekit._parameters import check_parameters, constraint, optional
from prunekit.pruner import Pruner, pruning_sample_counts
from prunekit.reduced_error_pruning import pruning_labels
from prunekit.tree import Pruning, Tree, check_tree, postorder

__all__ = ["FORMS", "penalty", "kearns_mansour", "kearns_mansour_global",
           "KearnsMansourPruner"]

FORMS = ("boolean", "finite", "vc")

# the keyword arguments each form of the penalty takes
_FORM_ARGS = {"boolean": ("n_features",), "finite": ("log_paths", "log_trees"),
              "vc": ("vc_paths", "vc_trees")}


def _check_c(c, name: str = "c") -> float:
    return check_real(c, name, minimum=0)


#: The checks of the parameters of :func:`kearns_mansour`, which :class:`KearnsMansourPruner`
#: shares; those of the penalty's keyword arguments are the form's, in the pass.
_KM_PARAMETERS = {"delta": constraint(check_probability), "c": _check_c,
                  "form": constraint(check_choice, options=FORMS),
                  "cap": constraint(check_bool)}


def _complexity_term(function, name: str, values: np.ndarray) -> np.ndarray:
    """``function`` applied to every entry of ``values``; each result must be a number >= 0."""
    check_callable(function, name)
    try:
        result = np.vectorize(function, otypes=[float])(values)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{name} must return a number for every argument; {name}("
                        f"{values.flat[0]:g}) failed: {error}") from None
    bad = ~np.isfinite(result) | (result < 0)
    if bad.any():
        raise ValueError(f"{name} must return a finite number >= 0 (a logarithm of a number "
                         f"of sets, or a VC dimension), got {name}({values[bad].flat[0]:g}) = "
                         f"{result[bad].flat[0]!r}.")
    return result


def penalty(m_v, s_v, l_v, delta: float, m: int, *, c: float = 1.0, form: str = "boolean",
            n_features: int | None = None, log_paths: Callable | None = None,
            log_trees: Callable | None = None, vc_paths: Callable | None = None,
            vc_trees: Callable | None = None, cap: bool = True):
    """The local penalty alpha(m_v, s_v, l_v, delta) of Kearns & Mansour (1998), Sec. 3.

    Parameters
    ----------
    m_v : int or array
        Number of examples reaching the node.
    s_v : int or array
        Number of nodes of the subtree T_v* at the node.
    l_v : int or array
        Depth of the node (the root has depth 0).
    delta : float in (0, 1)
        Confidence parameter.
    m : int
        Size of the whole sample S.
    c : float >= 0, default 1.0
        The constant in front (the paper's c, or c' for form (3)).
    form : {"boolean", "finite", "vc"}, default "boolean"
        ``"boolean"``, eq. (3): single-variable tests on {0,1}^n,
        c sqrt(((l_v + s_v) log n + log(m / delta)) / m_v), with n = ``n_features``.
        ``"finite"``, eq. (2): a finite test class,
        c sqrt((log|PATHS(l_v)| + log|TREES(s_v)| + log(m / delta)) / m_v), with the two
        logarithms given by ``log_paths(l)`` and ``log_trees(s)``.
        ``"vc"``, eq. (4): c sqrt(((d_l + d_s) log(2m) + log(m / delta)) / m_v), with the VC
        dimensions d_l = ``vc_paths(l)`` of PATHS(l) and d_s = ``vc_trees(s)`` of TREES(s).
    cap : bool, default True
        Cap the penalty at 1, as the paper allows (a larger penalty prunes the same); a node
        no example reaches (m_v = 0) then gets penalty 1.

    Returns
    -------
    float or ndarray

    Raises
    ------
    ValueError, TypeError
        For a ``delta`` outside (0, 1), a negative or non-finite ``c``, ``m_v`` outside
        [0, m], ``s_v`` not a whole number >= 1, ``l_v`` not a whole number >= 0, shapes that
        do not broadcast, ``m`` not an integer >= 1, an unknown ``form``, a missing or
        invalid argument of the chosen form, or ``cap`` not a bool.

    Examples
    --------
    A node that 100 of m = 1000 examples reach, at depth 2, with a subtree of 5 nodes, over
    10 boolean tests:

    >>> round(penalty(100, 5, 2, 0.05, 1000, n_features=10), 4)
    0.5101
    """
    delta, c, form, cap = check_parameters(_KM_PARAMETERS, delta=delta, c=c, form=form,
                                           cap=cap)
    m = check_count(m, "m", minimum=1)
    m_v = check_numbers(m_v, "m_v", minimum=0)
    s_v = check_numbers(s_v, "s_v", minimum=1, whole=True)
    l_v = check_numbers(l_v, "l_v", minimum=0, whole=True)
    if m_v.size and m_v.max() > m * (1 + 1e-12):
        raise ValueError(f"m_v (examples reaching the node) cannot exceed m={m}, the size of "
                         f"the whole sample, got {m_v.max():g}.")
    check_broadcastable(m_v=m_v, s_v=s_v, l_v=l_v)
    if form == "boolean":
        if n_features is None:
            raise ValueError("form='boolean' needs n_features, the number n of boolean tests.")
        n_features = check_count(n_features, "n_features", minimum=1)
    elif form == "finite":
        if log_paths is None or log_trees is None:
            raise ValueError("form='finite' needs log_paths(l) and log_trees(s).")
    elif vc_paths is None or vc_trees is None:
        raise ValueError("form='vc' needs vc_paths(l) and vc_trees(s).")
    return _penalty(m_v, s_v, l_v, delta, m, c, form, n_features, log_paths, log_trees,
                    vc_paths, vc_trees, cap)


def _penalty(m_v, s_v, l_v, delta, m, c, form, n_features, log_paths, log_trees, vc_paths,
             vc_trees, cap):
    """:func:`penalty` on validated arguments (``m_v``, ``s_v``, ``l_v`` float arrays)."""
    if form == "boolean":
        complexity = (l_v + s_v) * np.log(n_features)
    elif form == "finite":
        complexity = (_complexity_term(log_paths, "log_paths", l_v)
                      + _complexity_term(log_trees, "log_trees", s_v))
    else:
        complexity = (_complexity_term(vc_paths, "vc_paths", l_v)
                      + _complexity_term(vc_trees, "vc_trees", s_v)) * np.log(2 * m)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = c * np.sqrt((complexity + np.log(m / delta)) / m_v)
    value = np.where(m_v > 0, value, np.inf if c > 0 else 0.0)
    if cap:
        value = np.minimum(value, 1.0)
    return float(value) if value.ndim == 0 else value


def _sample_counts(tree: Tree, X_prune, y_prune) -> np.ndarray:
    """The counts of the sample S the pass judges on: the growing counts by default."""
    check_tree(tree).require_unweighted("Kearns & Mansour's pruning")
    if X_prune is None and y_prune is None:
        return tree.counts
    return pruning_sample_counts(tree, X_prune, y_prune, why="give both X_prune and y_prune, "
                                 "or neither (then the growing counts are used).")


def kearns_mansour(tree: Tree, X_prune=None, y_prune=None, *, delta: float = 0.05,
                   c: float = 1.0, form: str = "boolean", cap: bool = True,
                   **penalty_args) -> Pruning:
    """Kearns & Mansour's single bottom-up pass with the local rule (1).

    Parameters
    ----------
    tree : Tree
    X_prune, y_prune : array-like, optional
        The sample S the pass judges on; by default the growing sample, through the tree's
        counts. With another sample, the "best leaf" at each node is that sample's majority
        class there.
    delta : float in (0, 1), default 0.05
    c : float >= 0, default 1.0
        With c = 0 the rule prunes whenever the best leaf is at least as accurate as T_v*:
        exactly reduced-error pruning run on the same sample.
    form : {"boolean", "finite", "vc"}, default "boolean"
        The penalty's form, eq. (3), (2) or (4); see :func:`penalty`. For ``"boolean"`` the
        number of tests n defaults to the tree's number of features.
    cap : bool, default True
        Cap the penalty at 1.
    **penalty_args
        ``n_features`` (form "boolean", an integer >= 1), ``log_paths``/``log_trees`` (form
        "finite") or ``vc_paths``/``vc_trees`` (form "vc"); no others.

    Returns
    -------
    Pruning

    Raises
    ------
    ValueError, TypeError
        For an invalid ``delta``, ``c``, ``form`` or ``cap``, a keyword argument that the
        chosen form does not take (its value would be ignored), or an invalid value of one
        it does take (see :func:`penalty`).

    Examples
    --------
    On a noisy boolean formula, with the boolean form of the penalty:

    >>> import prunekit as pk
    >>> X, y = pk.datasets.make_boolean_dnf(1000, random_state=0)
    >>> tree = pk.grow_tree(X, y)
    >>> tree.n_leaves, pk.kearns_mansour(tree).n_leaves
    (268, 3)
    >>> pk.kearns_mansour(tree, c=0.1).n_leaves
    9
    """
    delta, c, form, cap = check_parameters(_KM_PARAMETERS, delta=delta, c=c, form=form,
                                           cap=cap)
    unknown = sorted(set(penalty_args) - set(_FORM_ARGS[form]))
    if unknown:
        raise TypeError(f"form={form!r} takes the keyword arguments "
                        f"{', '.join(_FORM_ARGS[form])}; got {', '.join(unknown)}, which it "
                        "would ignore.")
    counts = _sample_counts(tree, X_prune, y_prune)
    labels = tree.labels if X_prune is None else pruning_labels(tree, counts, "pruning")
    if form == "boolean":
        if penalty_args.get("n_features") is None:
            if tree.n_features is None:
                raise ValueError("form='boolean' needs n_features, the number n of boolean "
                                 "tests; this tree has no features (built from counts only): "
                                 "pass n_features.")
            penalty_args["n_features"] = tree.n_features
        penalty_args["n_features"] = check_count(penalty_args["n_features"], "n_features",
                                                 minimum=1)
    else:
        for name in _FORM_ARGS[form]:
            if penalty_args.get(name) is None:
                raise ValueError(f"form={form!r} needs {' and '.join(_FORM_ARGS[form])}.")
            check_callable(penalty_args[name], name)
    m = int(counts[0].sum())
    if m == 0:
        raise ValueError("the sample is empty: no example reaches the root.")
    arguments = {name: penalty_args.get(name) for name in
                 ("n_features", "log_paths", "log_trees", "vc_paths", "vc_trees")}
    reached = counts.sum(axis=1)
    as_leaf = tree.leaf_errors(counts, labels)
    errors = as_leaf.astype(np.int64).copy()        # errors of T_v* on S_v, once v is done
    size = np.ones(tree.n_nodes, dtype=np.int64)    # nodes of T_v*
    collapse = tree.is_leaf.copy()
    for level in reversed(tree.levels[:-1]):
        inner = level[~tree.is_leaf[level]]
        below = errors[tree.left[inner]] + errors[tree.right[inner]]
        s_v = 1 + size[tree.left[inner]] + size[tree.right[inner]]
        alpha = _penalty(reached[inner].astype(float), s_v.astype(float),
                         tree.depth[inner].astype(float), delta, m, c, form, cap=cap,
                         **arguments)
        # rule (1) in counts: errors(T_v*) + alpha m_v >= errors(best leaf)
        prune = below + alpha * reached[inner] >= as_leaf[inner]
        collapse[inner] = prune
        errors[inner] = np.where(prune, as_leaf[inner], below)
        size[inner] = np.where(prune, 1, s_v)
    return Pruning.from_collapsed(tree, collapse, labels=labels)


def kearns_mansour_global(tree: Tree, X_prune=None, y_prune=None, *, delta: float = 0.05,
                          c: float = 1.0, n_features: int | None = None) -> Pruning:
    """The "global" bottom-up rule that Kearns & Mansour (1998, Sec. 3) contrast with theirs.

    Visit the nodes bottom-up (children first, left subtree before right); at v, prune T_v*
    when the penalised error of the whole current tree T* does not get worse:

        eps(T* - T_v*) + beta(|T* - T_v*|) <= eps(T*) + beta(|T*|),

    with the global penalty beta(s) = c sqrt((s log n + log(m / delta)) / m), the form (3) of
    the local penalty for the root (depth 0, all m examples). The difference in penalty between
    T* and T* - T_v* shrinks as T* grows, so a large subtree can survive inside a large tree
    even when it would be pruned on its own.

    Parameters
    ----------
    tree : Tree
    X_prune, y_prune : array-like, optional
        The sample the rule judges on; by default the growing sample.
    delta : float in (0, 1), default 0.05
    c : float >= 0, default 1.0
    n_features : int >= 1, optional
        The number n of boolean tests; default the tree's number of features.

    Returns
    -------
    Pruning

    Examples
    --------
    >>> import prunekit as pk
    >>> X, y = pk.datasets.make_boolean_dnf(1000, random_state=0)
    >>> tree = pk.grow_tree(X, y)
    >>> local = pk.kearns_mansour(tree)
    >>> local.n_leaves, pk.kearns_mansour_global(tree).n_leaves
    (3, 9)
    """
    delta, c = check_parameters(_KM_PARAMETERS, delta=delta, c=c)
    counts = _sample_counts(tree, X_prune, y_prune)
    m = int(counts[0].sum())
    if m == 0:
        raise ValueError("the sample is empty: no example reaches the root.")
    n = tree.n_features if n_features is None else n_features
    if n is None:
        raise ValueError("the global penalty needs n_features, the number n of boolean tests; "
                         "this tree has no features (built from counts only): pass n_features.")
    n = check_count(n, "n_features", minimum=1)

    def beta(size):
        return c * np.sqrt((size * np.log(n) + np.log(m / delta)) / m)

    labels = tree.labels if X_prune is None else pruning_labels(tree, counts, "pruning")
    as_leaf = tree.leaf_errors(counts, labels).tolist()
    errors, size = list(as_leaf), [1] * tree.n_nodes
    total_errors, total_size = sum(as_leaf[v] for v in np.flatnonzero(tree.is_leaf)), tree.n_nodes
    collapse = tree.is_leaf.copy()
    left, right = tree.left.tolist(), tree.right.tolist()
    for v in postorder(tree):
        if left[v] == -1:
            continue
        sub_errors = errors[left[v]] + errors[right[v]]
        sub_size = 1 + size[left[v]] + size[right[v]]
        pruned_errors = total_errors - sub_errors + as_leaf[v]
        pruned_size = total_size - sub_size + 1
        if pruned_errors / m + beta(pruned_size) <= total_errors / m + beta(total_size):
            collapse[v] = True
            errors[v], size[v] = as_leaf[v], 1
            total_errors, total_size = pruned_errors, pruned_size
        else:
            errors[v], size[v] = sub_errors, sub_size
    return Pruning.from_collapsed(tree, collapse, labels=labels)


# ---------------------------------------------------------------------- the pruner
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

    Examples
    --------
    >>> import prunekit as pk
    >>> X, y = pk.datasets.make_boolean_dnf(1000, random_state=0)
    >>> pruner = pk.KearnsMansourPruner(c=0.1)
    >>> clf = pk.PrunedTreeClassifier(pruner=pruner, random_state=0)
    >>> clf = clf.fit(X, y)
    >>> clf.tree_.n_leaves, clf.get_n_leaves()
    (265, 9)
    """

    _weights_refused = "its bound is stated for a number of examples"
    _function = staticmethod(kearns_mansour)
    # the keyword arguments of the penalty's forms, checked as kearns_mansour checks them
    _parameter_checks = {**_KM_PARAMETERS,
                         "n_features": optional(constraint(check_count, minimum=1)),
                         **{name: optional(check_callable) for name in
                            ("log_paths", "log_trees", "vc_paths", "vc_trees")}}

    def __init__(self, *, delta=0.05, c=1.0, form="boolean", cap=True, n_features=None,
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
        self._check_parameters()
        options = {name: getattr(self, name) for name in
                   ("n_features", "log_paths", "log_trees", "vc_paths", "vc_trees")
                   if getattr(self, name) is not None}
        return kearns_mansour(tree, delta=self.delta, c=self.c, form=self.form, cap=self.cap,
                              **options)

