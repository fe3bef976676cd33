"""The generic bottom-up pruning template of Shalev-Shwartz & Ben-David (2014), Sec. 18.2.2.

Chapter 1 of the book. The template visits the nodes of a tree from the leaves up and, at each
internal node, replaces the current tree by the best of: the node as a leaf of each class, the
node replaced by its left or its right subtree, or the tree as it is, judged by an objective
f(T', m) of the training error and the number of nodes -- by default the MDL bound (18.1),
:func:`prunekit.bounds.mdl` (:func:`bottom_up_prune`). Replacing a node by a subtree moves the
subtree up, so the template's result need not be a pruning of the tree (a subtree sharing its
root), the class every later chapter optimises over; it is a new :class:`~prunekit.Tree`.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from prunekit.validation import check_bool, check_callable, check_probability
from prunekit.bounds import mdl
from prunekit.tree import Tree, check_tree, postorder

__all__ = ["TemplateStep", "bottom_up_prune"]


@dataclass(frozen=True)
class TemplateStep:
    """One step of :func:`bottom_up_prune`: what replaced a node, and the objective after."""

    node: int
    choice: str
    n_nodes: int
    train_error: float
    objective: float


def bottom_up_prune(tree: Tree, X, y, objective=None, delta: float = 0.05,
                    return_steps: bool = False):
    """The generic bottom-up pruning template of Shalev-Shwartz & Ben-David (2014), Sec. 18.2.2.

    Visit the nodes from the leaves up; at each internal node j choose, among "replace j by a
    leaf of class c" (for every class c; the book's leaf 0 and leaf 1), "replace j by its left
    subtree", "replace j by its right subtree" and "keep the current tree", the tree T' that
    minimises f(T', m), and continue with it.

    Replacing a node by one of its subtrees moves that subtree up, so the result need not be
    a *pruning* of the input tree (a subtree sharing its root) -- the class the later
    chapters optimise over. The result is therefore a new :class:`Tree`.

    Parameters
    ----------
    tree : Tree
        The tree to prune; it must have split rules.
    X, y : array-like
        The training sample S on which f is evaluated.
    objective : callable (train_error, n_nodes) -> float, optional
        The function f(T', m), given the training error L_S(T') and the number of nodes of
        T'. Default: the MDL bound (18.1), :func:`prunekit.bounds.mdl`, with d the number of
        features, m = len(X) and ``delta``.
    delta : float, default 0.05
        Confidence of the default objective.
    return_steps : bool, default False
        Also return the list of :class:`TemplateStep` taken, one per visited node.

    Returns
    -------
    Tree, or (Tree, list of TemplateStep)
        The pruned tree. Its counts are those of (X, y); each leaf keeps the label it had
        (a leaf created by the template has the class chosen for it).

    Notes
    -----
    Ties in f go to the tree with fewer nodes, then to the order leaf (by class), left
    subtree, right subtree, keep.

    Examples
    --------
    ID3's tree of a noisy DNF formula, pruned against the MDL bound:

    >>> import prunekit as pk
    >>> X, y = pk.datasets.make_boolean_dnf(200, random_state=0)
    >>> tree = pk.id3(X, y)
    >>> pruned = pk.bottom_up_prune(tree, X, y)
    >>> tree.n_nodes, pruned.n_nodes, round(pruned.error(X, y), 3)
    (103, 11, 0.115)
    """
    check_tree(tree)
    tree.require_split_rules()
    delta = check_probability(delta, "delta")
    return_steps = check_bool(return_steps, "return_steps")
    X, y = tree.check_sample(X, y)
    m = X.shape[0]
    if objective is None:
        n_features = tree.n_features

        def objective(train_error, n_nodes):
            return mdl(train_error, n_nodes, n_features, m, delta)
    else:
        objective = _checked_objective(
            check_callable(objective, "objective", "f(train_error, n_nodes)"))
    wrong_label = tree.classes_[:, None] != y[None, :]      # (K, m): a class-c leaf errs here
    state = _TemplateState(tree, X, wrong_label)
    steps = []
    for j in postorder(tree):
        if tree.is_leaf[j]:
            continue
        rows = state.rows_reaching(j)
        size_j, errors_j = state.size(j), state.errors(j, rows)
        candidates = [(f"leaf {c}", ("leaf", k), 1, int(wrong_label[k, rows].sum()))
                      for k, c in enumerate(tree.classes_.tolist())]
        for side, child in (("left", state.left[j]), ("right", state.right[j])):
            candidates.append((f"{side} subtree", ("move", child), state.size(child),
                               state.errors(child, rows)))
        candidates.append(("keep", ("keep", None), size_j, errors_j))
        scored = []
        for order, (name, action, size, errors) in enumerate(candidates):
            n_nodes = state.n_nodes - size_j + size
            error = (state.n_errors - errors_j + errors) / m
            scored.append((objective(error, n_nodes), n_nodes, order, name, action, error, errors))
        value, n_nodes, _, name, action, error, errors = min(scored, key=lambda s: s[:3])
        state.apply(j, action, n_nodes, state.n_errors - errors_j + errors)
        steps.append(TemplateStep(int(j), name, int(n_nodes), float(error), float(value)))
    result = state.to_tree(X, y)
    return (result, steps) if return_steps else result


def _checked_objective(function):
    """Wrap a user's objective so that a result that is not a number names ``objective``."""
    def f(train_error, n_nodes):
        value = function(train_error, n_nodes)
        if isinstance(value, np.ndarray) and value.ndim == 0:
            value = value[()]
        if (isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real)
                or np.isnan(value)):
            raise TypeError(f"objective must return a real number (not NaN), got {value!r} "
                            f"for train_error={train_error!r}, n_nodes={n_nodes!r}.")
        return float(value)
    return f


class _TemplateState:
    """The current tree of the template, as mutable child arrays over the original nodes."""

    def __init__(self, tree: Tree, X: np.ndarray, wrong_label: np.ndarray):
        self.tree, self.X, self.wrong_label = tree, X, wrong_label
        self.left, self.right = tree.left.copy(), tree.right.copy()
        self.labels = tree.labels.copy()
        self.root = 0
        self.n_nodes = tree.n_nodes
        self.n_errors = self.errors(0, np.arange(X.shape[0]))

    def route(self, start: int, rows: np.ndarray, stop: int = -1) -> np.ndarray:
        """Node where each row, sent down from ``start``, reaches a leaf (or ``stop``)."""
        node = np.full(rows.size, start, dtype=np.intp)
        active = np.arange(rows.size)
        while active.size:
            current = node[active]
            moving = (self.left[current] != -1) & (current != stop)
            active, current = active[moving], current[moving]
            value = self.X[rows[active], self.tree.feature[current]]
            goes_left = (value <= self.tree.threshold[current]) | (
                np.isnan(value) & self.tree.missing_go_to_left[current])
            node[active] = np.where(goes_left, self.left[current], self.right[current])
        return node

    def rows_reaching(self, j: int) -> np.ndarray:
        rows = np.arange(self.X.shape[0])
        return rows[self.route(self.root, rows, stop=j) == j]

    def errors(self, start: int, rows: np.ndarray) -> int:
        leaves = self.route(start, rows)
        return int(self.wrong_label[self.labels[leaves], rows].sum())

    def size(self, v: int) -> int:
        size, stack = 0, [v]
        while stack:
            u = stack.pop()
            size += 1
            if self.left[u] != -1:
                stack.extend((self.left[u], self.right[u]))
        return size

    def apply(self, j: int, action, n_nodes: int, n_errors: int) -> None:
        kind, value = action
        if kind == "leaf":
            self.left[j] = self.right[j] = -1
            self.labels[j] = value
        elif kind == "move":
            parent = next((u for u in range(len(self.left))
                           if self.left[u] == j or self.right[u] == j), None)
            if parent is None:
                self.root = value
            elif self.left[parent] == j:
                self.left[parent] = value
            else:
                self.right[parent] = value
        self.n_nodes, self.n_errors = n_nodes, n_errors

    def to_tree(self, X: np.ndarray, y: np.ndarray) -> Tree:
        old = []
        stack = [self.root]
        while stack:                       # preorder, left subtree first
            u = stack.pop()
            old.append(u)
            if self.left[u] != -1:
                stack.extend((self.right[u], self.left[u]))
        new = {u: i for i, u in enumerate(old)}
        old = np.array(old)
        left = np.array([new.get(int(self.left[u]), -1) for u in old])
        right = np.array([new.get(int(self.right[u]), -1) for u in old])
        tree = self.tree
        missing_go_to_left = tree.missing_go_to_left[old]         # the Tree clears leaves
        shell = Tree(left, right, np.zeros((len(old), tree.n_classes), int),
                     feature=tree.feature[old], threshold=tree.threshold[old],
                     classes=tree.classes_, n_features=tree.n_features, dtype=tree.dtype,
                     missing_go_to_left=missing_go_to_left)
        return Tree(left, right, shell.node_counts(X, y), feature=shell.feature,
                    threshold=shell.threshold, labels=self.labels[old], classes=tree.classes_,
                    n_features=tree.n_features, criterion=tree.criterion, dtype=tree.dtype,
                    missing_go_to_left=missing_go_to_left)
