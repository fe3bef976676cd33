"""Checks for the exercises of Chapter 3: reduced-error pruning.

Each ``check_*`` function takes the student's function, runs it on fixed, seeded cases and
compares the answers with the library: :func:`prunekit.reduced_error_pruning.best_subtree_errors`,
:func:`prunekit.reduced_error_pruning` and :func:`prunekit.all_prunings`. When an answer is wrong, the
usual mistakes are recomputed on the same case; if one of them reproduces the student's answer,
the hint names it.

Reduced-error pruning as empirical risk minimisation over the prunings of a tree follows
Kääriäinen, Malinen & Elomaa (2004, Sec. 3).
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import numpy as np

from prunekit.reduced_error_pruning import best_subtree_errors, reduced_error, reduced_error_steps
from prunekit.tree import leaf_errors
from prunekit.tree import Pruning, Tree, all_prunings, postorder

from pdtbook.checks import Checker, close, describe, fail, float_answer, int_answer

__all__ = [
    "check_rep_collapse", "rep_collapse_cases", "hand_tree", "check_removed_by_rep",
    "explain_removed_by_rep",
    "minimiser_cases", "check_minimisers", "check_rep_test_error", "rep_test_error_cases",
    "rep_experiment",
]


# ---------------------------------------------------------------------- Exercise 3.1
def _grown_case(seed: int, m_grow: int, m_prune: int, n_classes: int, max_leaf_nodes: int,
                second: bool = False):
    """A grown tree and the errors as a leaf of a pruning sample of size ``m_prune`` (with
    ``second``, of another pruning sample of that size from the same distribution)."""
    from sklearn.datasets import make_classification
    from sklearn.tree import DecisionTreeClassifier

    X, y = make_classification(m_grow + 2 * m_prune, 6, n_informative=4, n_redundant=0,
                               n_classes=n_classes, flip_y=0.25, random_state=seed)
    clf = DecisionTreeClassifier(max_leaf_nodes=max_leaf_nodes, random_state=seed)
    clf.fit(X[:m_grow], y[:m_grow])
    tree = Tree.from_sklearn(clf, X[:m_grow], y[:m_grow])
    prune = slice(m_grow + m_prune, None) if second else slice(m_grow, m_grow + m_prune)
    counts = tree.node_counts(X[prune], y[prune])
    return tree, leaf_errors(counts, tree.labels)


def _tie_tree() -> tuple[Tree, np.ndarray]:
    """A stump below the root whose split fixes no pruning error (a tie) and an unreached node."""
    tree = Tree.from_arrays([1, 3, 5, -1, -1, -1, -1], [2, 4, 6, -1, -1, -1, -1],
                            [[9, 9], [6, 3], [3, 6], [5, 0], [1, 3], [0, 4], [3, 2]])
    return tree, np.array([4, 2, 3, 1, 1, 0, 3])


def _children_first_tree() -> tuple[Tree, np.ndarray]:
    """A tree whose nodes are not numbered parents first: node 5 is the parent of nodes 1 and
    2, and node 1 of nodes 3 and 4, so visiting the nodes from n - 1 down to 0 decides node 5
    before its child 1. Node 1 keeps its split (2 errors below it instead of 4), and node 5 then
    keeps its own (4 instead of 5); judged with node 1 as a leaf, node 5 would be collapsed."""
    tree = Tree.from_arrays([5, 3, -1, -1, -1, 1, -1], [6, 4, -1, -1, -1, 2, -1],
                            [[14, 10], [6, 4], [3, 3], [5, 0], [1, 4], [9, 7], [5, 3]])
    return tree, np.array([9, 4, 2, 1, 1, 5, 2])


def rep_collapse_cases() -> list[tuple[str, Tree, np.ndarray]]:
    """The cases of :func:`check_rep_collapse`: (description, tree, errors as a leaf)."""
    cases = [
        ("a single leaf", Tree.from_arrays([-1], [-1], [[3, 2]]), np.array([2])),
        ("a hand-built tree with ties and an unreached node", *_tie_tree()),
        ("a hand-built tree whose nodes are not numbered parents first", *_children_first_tree()),
    ]
    for seed, (m_grow, m_prune, k, leaves) in enumerate(
            [(200, 100, 2, 12), (300, 40, 2, 25), (400, 200, 3, 40), (600, 60, 3, 60),
             (1000, 500, 2, 120)]):
        tree, errors = _grown_case(seed, m_grow, m_prune, k, leaves)
        cases.append((f"a tree with {tree.n_nodes} nodes grown on {m_grow} examples, "
                      f"{m_prune} pruning examples, {k} classes (seed {seed})", tree, errors))
    # the same tree with the errors of another pruning sample: only errors_as_leaf changes
    tree, other = _grown_case(1, 300, 40, 2, 25, second=True)
    cases.append(("the tree of seed 1 with the errors of another pruning sample of 40", tree,
                  other))
    return cases


def _collapse_variant(tree: Tree, errors: np.ndarray, mistake: str) -> np.ndarray:
    """The collapse mask of one of the usual wrong passes."""
    if mistake == "growing":
        errors = leaf_errors(tree.counts, tree.labels)
        mistake = "correct"
    errors = np.asarray(errors, dtype=np.int64)
    if mistake == "inverted":
        _, collapse = best_subtree_errors(tree, errors)
        return ~collapse
    best = errors.copy()
    collapse = tree.is_leaf.copy()
    order = range(tree.n_nodes - 1, -1, -1) if mistake == "index order" else postorder(tree)
    for v in [v for v in order if not tree.is_leaf[v]]:
        left, right = tree.left[v], tree.right[v]
        if mistake == "one level":
            below = errors[left] + errors[right]
        elif mistake == "whole subtree":
            nodes = tree.subtree(v)
            below = errors[nodes[tree.is_leaf[nodes]]].sum()
        else:
            below = best[left] + best[right]
        collapse[v] = errors[v] < below if mistake == "strict" else errors[v] <= below
        best[v] = min(errors[v], below)
    return collapse


_COLLAPSE_HINTS = {
    "strict": "ties go to the leaf: collapse v when its errors as a leaf are at most (<=) the "
              "fewest errors below it. A tie that keeps the split adds nodes without fixing an "
              "error, so the pruning is not the smallest one.",
    "one level": "compare the node's errors as a leaf with the fewest errors of a pruning of the "
                 "subtree below it, best[left] + best[right], final by the time v is decided: "
                 "visit children before parents (e.g. prunekit.tree.postorder), and do not "
                 "compare with the children's errors as leaves.",
    "whole subtree": "compare the node's errors as a leaf with the fewest errors of a pruning of "
                     "the subtree below it, not with the errors of the unpruned subtree T_v: parts "
                     "of T_v may have been collapsed already.",
    "index order": "visit children before parents with prunekit.tree.postorder(tree). Counting "
                   "down from n - 1 to 0 is a postorder only when every parent has a smaller "
                   "index than its children, which a tree need not satisfy: here a node was "
                   "decided before the nodes below it.",
    "inverted": "return True where the node becomes a leaf (collapse), False where its split is "
                "kept.",
    "growing": "use the errors you are given, errors_as_leaf (the pruning sample's), not errors "
               "computed from tree.counts (the growing sample's).",
}


def _as_pruning(tree: Tree, answer, call: str) -> Pruning:
    __tracebackhide__ = True
    if not isinstance(answer, np.ndarray) or answer.dtype != bool:
        kind = (f"an array of dtype {answer.dtype}" if isinstance(answer, np.ndarray)
                else describe(answer))
        fail(f"{call} returned {kind}; it should return a boolean NumPy array, True at the nodes "
             f"that become leaves.",
             "allocate the result with np.zeros(tree.n_nodes, dtype=bool) (or copy "
             "tree.is_leaf) and set the entries of the internal nodes.")
    if answer.shape != (tree.n_nodes,):
        fail(f"{call} returned a boolean array of shape {answer.shape}; it should have one "
             f"entry per node, shape ({tree.n_nodes},).",
             "allocate the result with np.zeros(tree.n_nodes, dtype=bool) (or copy "
             "tree.is_leaf) and set the entries of the internal nodes.")
    return Pruning.from_collapsed(tree, answer)


def _collapse_hint(student: Callable) -> str:
    """The hint of the mistake whose pruning is the student's on every case."""
    cases = rep_collapse_cases()
    answers = []
    for _, tree, errors in cases:
        try:
            answer = student(copy.deepcopy(tree), errors.copy())
            answers.append(Pruning.from_collapsed(tree, answer)
                           if isinstance(answer, np.ndarray) and answer.dtype == bool
                           and answer.shape == (tree.n_nodes,) else None)
        except Exception:
            answers.append(None)
    for mistake, text in _COLLAPSE_HINTS.items():
        explains, differs = True, False
        for (_, tree, errors), got in zip(cases, answers):
            if got is None:
                continue
            variant = Pruning.from_collapsed(tree, _collapse_variant(tree, errors, mistake))
            right = Pruning.from_collapsed(tree, best_subtree_errors(tree, errors)[1])
            explains = explains and variant == got
            differs = differs or variant != right
        if explains and differs:
            return text
    return ("at every internal node, bottom-up: below = best[left] + best[right]; "
            "collapse when errors[v] <= below; best[v] = min(errors[v], below).")


def check_rep_collapse(rep_collapse: Callable) -> None:
    """Check Exercise 3.1, ``rep_collapse(tree, errors_as_leaf)``: a boolean array, True at the
    nodes the bottom-up pass of reduced-error pruning collapses; collapsing them must give the
    pruning of :func:`prunekit.reduced_error_pruning.best_subtree_errors`. ``errors_as_leaf`` must be
    left as it was."""
    __tracebackhide__ = True
    check = Checker("rep_collapse", rep_collapse)
    for description, tree, errors in rep_collapse_cases():
        call = f"rep_collapse(<{description}>, errors_as_leaf)"
        answer = check.call(tree, errors.copy(), label=call)
        got = _as_pruning(tree, answer, call)
        _, collapse = best_subtree_errors(tree, errors)
        expected = Pruning.from_collapsed(tree, collapse)
        fewest = int(errors[expected.leaves].sum())
        check.expect(
            got == expected,
            f"{call}: collapsing your nodes keeps {got.n_nodes} nodes with "
            f"{int(errors[got.leaves].sum())} pruning errors, but the smallest pruning with the "
            f"fewest errors ({fewest}) has {expected.n_nodes} nodes.",
            lambda: _collapse_hint(rep_collapse))
    check.passed()


# ---------------------------------------------------------------------- Exercise 3.2
def hand_tree() -> tuple[Tree, np.ndarray, np.ndarray]:
    """The tree of Exercise 3.2, over four binary features, and its pruning sample."""
    nan = np.nan
    tree = Tree.from_arrays(
        left=[1, 3, 5, -1, 7, 9, -1, -1, -1, -1, -1],
        right=[2, 4, 6, -1, 8, 10, -1, -1, -1, -1, -1],
        counts=[[52, 45], [30, 17], [22, 28], [20, 2], [10, 15], [8, 23], [14, 5], [1, 12],
                [9, 3], [2, 20], [6, 3]],
        feature=[0, 1, 3, -1, 2, 1, -1, -1, -1, -1, -1],
        threshold=[0.5, 0.5, 0.5, nan, 0.5, 0.5, nan, nan, nan, nan, nan],
        n_features=4,
    )
    rows = ([[0, 0, 0, 0]] * 6 + [[0, 0, 1, 1]] * 1            # node 3: 6 of class 0, 1 of class 1
            + [[0, 1, 0, 0]] * 4                              # node 7: 1 of class 0, 3 of class 1
            + [[0, 1, 1, 1]] * 4                              # node 8: 2 and 2
            + [[1, 0, 0, 1]] * 6)                             # node 6: 5 and 1
    labels = [0] * 6 + [1] + [0] + [1] * 3 + [0, 0, 1, 1] + [0] * 5 + [1]
    return tree, np.array(rows, dtype=float), np.array(labels)


def _removed(pruning: Pruning) -> set[int]:
    return set(np.flatnonzero(~pruning.kept).tolist())


def _as_node_set(answer, call: str) -> set[int]:
    __tracebackhide__ = True
    if not isinstance(answer, (set, frozenset)):
        fail(f"{call} returned {describe(answer)} (of type {type(answer).__name__}); it should "
             f"return a set of node indices.",
             "e.g. `return {7, 8}`; return set() if nothing is removed.")
    if not all(isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))
               for v in answer):
        fail(f"{call} returned {describe(sorted(answer, key=str))}; it should contain node "
             f"indices (integers).", "e.g. `return {7, 8}`.")
    return {int(v) for v in answer}


_REMOVED_HINTS = {
    "strict": "at a tie (the node as a leaf makes exactly as many pruning errors as the best "
              "pruning below it) reduced-error pruning collapses the node.",
    "unreached": "a node that no pruning example reaches makes no pruning error either way, "
                 "so the smallest most accurate pruning collapses it too.",
    "leaves": "a collapsed node stays in the pruning, as a leaf; only the nodes below it are "
              "removed.",
    "pruning labels": "use the growing sample's labels (the majority of the counts in the "
                      "tree), not the pruning sample's majority at each node.",
    "kept": "return the nodes that are removed, not the ones that are kept.",
}


def _removed_variants(tree: Tree, X, y) -> dict[str, set[int]]:
    rep = reduced_error(tree, X, y)
    counts = tree.node_counts(X, y)
    reached = counts.sum(axis=1) > 0
    as_leaf = leaf_errors(counts, tree.labels)
    return {
        "right": _removed(rep),
        "strict": _removed(Pruning.from_collapsed(tree, _collapse_variant(tree, as_leaf, "strict"))),
        "unreached": _removed(Pruning.from_collapsed(tree, rep.is_leaf & reached)),
        "leaves": _removed(rep) | set(np.flatnonzero(rep.is_leaf & ~tree.is_leaf).tolist()),
        "pruning labels": _removed(reduced_error(tree, X, y, labels="pruning")),
        "kept": set(np.flatnonzero(rep.kept).tolist()),
    }


def check_removed_by_rep(removed_by_rep: Callable) -> None:
    """Check Exercise 3.2: ``removed_by_rep()`` returns the set of nodes of :func:`hand_tree`'s
    tree that reduced-error pruning (leaf labels from the growing sample) removes.

    A wrong answer gets a hint about its mistake but not the worked pass, which gives the
    answer away; :func:`explain_removed_by_rep` prints that.
    """
    __tracebackhide__ = True
    check = Checker("removed_by_rep", removed_by_rep)
    tree, X, y = hand_tree()
    answer = _as_node_set(check.call(label="removed_by_rep()"), "removed_by_rep()")
    variants = _removed_variants(tree, X, y)
    expected = variants["right"]
    if answer != expected:
        hint = next((_REMOVED_HINTS[k] for k, v in variants.items()
                     if k != "right" and v == answer and v != expected),
                    "work bottom-up from the pruning sample's counts printed above: at every "
                    "internal node compare its errors as a leaf with the fewest errors of the "
                    "subtrees below it.")
        fail(f"removed_by_rep() returned {describe(sorted(answer))}, which is not the set of "
             f"nodes reduced-error pruning removes. (explain_removed_by_rep() prints the pass "
             f"worked out node by node, and with it the answer.)", hint)
    check.expect(True)
    check.passed()


def explain_removed_by_rep() -> None:
    """Print the worked solution of Exercise 3.2: at every internal node, in the order of the
    pass, e(v) with the growing label, the fewest errors below it, and the decision."""
    tree, X, y = hand_tree()
    print(f"{'node':>4} {'e(v)':>5} {'fewest below':>13}  decision")
    for step in reduced_error_steps(tree, X, y):
        relation = "<=" if step.prune else ">"
        tie = "  (a tie)" if step.errors_as_leaf == step.errors_below else ""
        print(f"{step.node:>4} {step.errors_as_leaf:>5} {step.errors_below:>13}  "
              f"{step.errors_as_leaf} {relation} {step.errors_below}: "
              f"{'collapse' if step.prune else 'keep'}{tie}")
    removed = sorted(_removed(reduced_error(tree, X, y)))
    print(f"removed: {removed}")


# ---------------------------------------------------------------------- Exercise 3.3
def minimiser_cases() -> list[tuple[str, Tree, np.ndarray, np.ndarray]]:
    """The cases of :func:`check_minimisers`: (description, tree, X_prune, y_prune)."""
    from sklearn.datasets import make_classification
    from sklearn.tree import DecisionTreeClassifier

    cases = []
    tree, X, y = hand_tree()
    cases.append(("the tree of Exercise 3.2", tree, X, y))
    for seed, (m_prune, leaves) in enumerate([(30, 6), (12, 8), (60, 9), (8, 7), (25, 10)]):
        X, y = make_classification(120 + 2 * m_prune, 4, n_informative=3, n_redundant=0,
                                   flip_y=0.3, random_state=seed)
        clf = DecisionTreeClassifier(max_leaf_nodes=leaves, random_state=seed).fit(X[:120], y[:120])
        tree = Tree.from_sklearn(clf, X[:120], y[:120])
        cases.append((f"a grown tree with {tree.n_nodes} nodes, {m_prune} pruning examples "
                      f"(seed {seed})", tree, X[120:120 + m_prune], y[120:120 + m_prune]))
        if seed == 2:   # the same tree with another pruning sample: only X_prune, y_prune change
            cases.append((f"the same tree, another pruning sample of {m_prune} (seed {seed})",
                          tree, X[120 + m_prune:], y[120 + m_prune:]))
    return cases


def _as_prunings(answer, tree: Tree, call: str) -> list[bytes]:
    """The node masks of the student's list of prunings, after checking its type."""
    __tracebackhide__ = True
    if not isinstance(answer, list):
        fail(f"{call} returned {describe(answer)} (of type {type(answer).__name__}); it should "
             f"return a list of prunings.",
             "collect the minimisers in a list: [p for p in pk.all_prunings(tree) if ...].")
    if not all(isinstance(p, Pruning) for p in answer):
        fail(f"{call} should return a list of prunekit Pruning objects.",
             "keep the Pruning objects that pk.all_prunings(tree) yields.")
    if any(p.tree.n_nodes != tree.n_nodes for p in answer):
        fail(f"{call} returned a pruning of another tree.",
             "enumerate the prunings of the tree you are given: pk.all_prunings(tree).")
    masks = [p.kept.tobytes() for p in answer]
    if len(set(masks)) < len(masks):
        fail(f"{call} lists the same pruning more than once.",
             "each pruning with the fewest errors should appear once: pk.all_prunings yields "
             "every pruning exactly once, so keep each one at most once.")
    return masks


def check_minimisers(minimisers: Callable) -> None:
    """Check Exercise 3.3: ``minimisers(tree, X_prune, y_prune)`` lists every pruning of the tree
    with the fewest pruning errors, each once (found by enumeration); then test the claim that
    the pruning of :func:`prunekit.reduced_error_pruning` is contained in each of them, and print what
    was tested."""
    __tracebackhide__ = True
    check = Checker("minimisers", minimisers)
    n_minimisers = 0
    cases = minimiser_cases()
    for description, tree, X, y in cases:
        call = f"minimisers(<{description}>, X_prune, y_prune)"
        masks = _as_prunings(check.call(tree, X, y, label=call), tree, call)
        everything = list(all_prunings(tree))
        counts = tree.node_counts(X, y)
        errors = [p.errors(counts) for p in everything]
        fewest = min(errors)
        # the student's prunings belong to a copy of the tree: compare their node masks
        expected = {p.kept.tobytes() for p, e in zip(everything, errors) if e == fewest}
        got = set(masks)

        def hint(got=got, everything=everything, expected=expected):
            grow = [p.errors() for p in everything]
            by_growing = {p.kept.tobytes() for p, e in zip(everything, grow) if e == min(grow)}
            if got == by_growing:
                return ("count the errors on the pruning sample (X_prune, y_prune), e.g. "
                        "np.sum(p.predict(X_prune) != y_prune); p.errors() without arguments counts "
                        "them on the growing sample.")
            if len(got) == 1 and got < expected:
                return "return every pruning with the fewest errors, not only one of them."
            if got > expected:
                return ("keep only the prunings whose number of pruning errors equals the "
                        "minimum over all prunings.")
            return "enumerate pk.all_prunings(tree) and keep those with the fewest pruning errors."

        check.expect(got == expected,
                     f"{call} returned {len(got)} prunings; {len(expected)} prunings have the "
                     f"fewest pruning errors ({fewest}).", hint)
        rep = reduced_error(tree, X, y)
        minimal = [p for p, e in zip(everything, errors) if e == fewest]
        if not all(np.all(rep.kept <= p.kept) for p in minimal) or rep not in minimal:
            raise RuntimeError("the claim of Exercise 3.3 failed on " + description)
        n_minimisers += len(expected)
    check.passed()
    print(f"  on these {len(cases)} cases, the {n_minimisers} minimisers all contain "
          f"the pruning of pk.reduced_error.")


# ---------------------------------------------------------------------- Exercise 3.4
def rep_experiment(fraction: float, seed: int, *, swap: bool = False, stratify: bool = True,
                   labels: str = "growing", measure_on: str = "test", size: str = "nodes",
                   grown_on_all: bool = False) -> tuple[float, int]:
    """Exercise 3.4's experiment on the breast-cancer data, or one of its usual wrong variants.

    Hold out 30% as a test set (stratified, ``random_state=seed``), split the rest into a
    pruning part of the given ``fraction`` and a growing part (stratified, ``random_state=seed``),
    grow ``DecisionTreeClassifier(random_state=seed)`` on the growing part, prune it with
    :func:`prunekit.reduced_error_pruning`, and return its test error and number of nodes.

    The parameters mirror the function the student writes, ``rep_test_error(fraction, seed)``,
    which the check calls and compares with this one argument for argument; so ``seed`` keeps
    the exercise's name instead of ``random_state``. It is one integer, passed as
    ``random_state`` to both splits and to the grower.
    """
    from sklearn.datasets import load_breast_cancer
    from sklearn.model_selection import train_test_split
    from sklearn.tree import DecisionTreeClassifier

    X, y = load_breast_cancer(return_X_y=True)
    X_rest, X_test, y_rest, y_test = train_test_split(
        X, y, test_size=0.3, stratify=y if stratify else None, random_state=seed)
    X_grow, X_prune, y_grow, y_prune = train_test_split(
        X_rest, y_rest, test_size=fraction, stratify=y_rest if stratify else None,
        random_state=seed)
    if swap:
        X_grow, X_prune, y_grow, y_prune = X_prune, X_grow, y_prune, y_grow
    if grown_on_all:
        X_grow, y_grow = X_rest, y_rest
    from prunekit.tree import Tree as _Tree

    tree = _Tree.from_sklearn(DecisionTreeClassifier(random_state=seed).fit(X_grow, y_grow),
                              X_grow, y_grow)
    pruned = reduced_error(tree, X_prune, y_prune, labels=labels)
    X_eval, y_eval = (X_test, y_test) if measure_on == "test" else (X_prune, y_prune)
    return pruned.error(X_eval, y_eval), pruned.n_nodes if size == "nodes" else pruned.n_leaves


def rep_test_error_cases() -> list[tuple[float, int]]:
    """The cases of :func:`check_rep_test_error`: (fraction, seed)."""
    return [(0.1, 0), (1 / 3, 1), (0.5, 2), (0.25, 3), (0.6, 4), (0.4, 6), (0.15, 7)]


_EXPERIMENT_MISTAKES = [
    (dict(swap=True), "the pruning sample is the part of size `fraction` (train_test_split's "
                      "test_size=fraction); the tree is grown on the rest."),
    (dict(stratify=False), "stratify both splits by the labels (stratify=y and stratify=y_rest)."),
    (dict(labels="pruning"), "use the default leaf labels of pk.reduced_error (labels='growing')."),
    (dict(measure_on="prune"), "measure the error on the held-out test set, not on the pruning "
                               "sample (where it is optimistic: REP minimised it)."),
    (dict(grown_on_all=True), "grow the tree on the growing part only; growing it on all the "
                              "data before the test split makes the pruning sample part of the "
                              "growing sample."),
]


def check_rep_test_error(rep_test_error: Callable) -> None:
    """Check Exercise 3.4: ``rep_test_error(fraction, seed)`` returns (test error, number of
    nodes) of :func:`rep_experiment`."""
    __tracebackhide__ = True
    check = Checker("rep_test_error", rep_test_error)
    for fraction, seed in rep_test_error_cases():
        call = f"rep_test_error({fraction:.4g}, {seed})"
        answer = check.call(fraction, seed, label=call, seconds=60)
        if not isinstance(answer, tuple) or len(answer) != 2:
            fail(f"{call} returned {describe(answer)}; it should return a pair "
                 f"(test error, number of nodes).", "e.g. `return error, pruned.n_nodes`.")
        error = float_answer(answer[0], call, "a pair whose test error is a float")
        nodes = int_answer(answer[1], call, "a pair whose number of nodes is an int")
        expected_error, expected_nodes = rep_experiment(fraction, seed)

        def hint(error=error, nodes=nodes, fraction=fraction, seed=seed,
                 expected_error=expected_error, expected_nodes=expected_nodes):
            if close(error, expected_error) and nodes != expected_nodes:
                leaves = rep_experiment(fraction, seed, size="leaves")[1]
                if nodes == leaves:
                    return "count all the nodes of the pruning (n_nodes), not only its leaves."
            if close(error, 1 - expected_error):
                return ("you returned the accuracy on the test set; return the misclassification "
                        "rate, pruning.error(X_test, y_test).")
            if close(error, expected_error * 171):
                return ("you returned the number of test errors; return the misclassification "
                        "rate, pruning.error(X_test, y_test), a fraction of the 171 test "
                        "examples.")
            for changes, text in _EXPERIMENT_MISTAKES:
                wrong = rep_experiment(fraction, seed, **changes)
                if close(error, wrong[0]) and nodes == wrong[1] and (
                        not close(wrong[0], expected_error) or wrong[1] != expected_nodes):
                    return text
            return ("follow the steps of the statement in order: split off the test set, split "
                    "the rest with test_size=fraction, grow, prune, measure.")

        check.expect(close(error, expected_error) and nodes == expected_nodes,
                     f"{call} returned ({describe(error)}, {describe(nodes)}) but the experiment "
                     f"gives ({describe(expected_error)}, {expected_nodes}).", hint)
    check.passed()
