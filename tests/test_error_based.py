"""C4.5's error-based pruning as Weka's J48 does it: U_CF, collapse, pruning, subtree raising.

The comparison with the real J48 is in test_j48.py; here the estimate is checked against its
defining equations, and the pruning against a transcription of J48's recursive procedure
(``C45PruneableClassifierTree``) on small trees, with ties set up on purpose.
"""

import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.special import ndtri
from sklearn.tree import DecisionTreeClassifier

import prunekit as pk
from prunekit import error_based_pruning as ebp
from strategies import random_trees

from pdtbook.weka import first_difference, structure


def z_of(confidence):
    """The normal quantile J48 uses: Phi^{-1}(1 - CF), CF and 1 - CF in float32."""
    return float(ndtri(float(np.float32(1) - np.float32(confidence))))


# ---------------------------------------------------------------------- the estimate U_CF
@given(st.integers(1, 5000), st.sampled_from([0.25, 0.1, 0.05, 0.5, 0.01, 0.4]))
def test_no_errors_is_the_exact_binomial_limit(n, confidence):
    # e = 0: U solves (1 - U)^N = CF, the probability of no error in N trials
    u = ebp.upper_confidence_limit(0, n, confidence)
    assert (1 - u) ** n == pytest.approx(float(np.float32(confidence)), rel=1e-9)


@given(st.integers(2, 5000), st.data(), st.sampled_from([0.25, 0.1, 0.05, 0.5, 0.01]))
def test_wilson_upper_limit_with_continuity_correction(n, data, confidence):
    # 1 <= e < N - 1/2: U is the upper root of (U - f)^2 = z^2 U (1 - U) / N, f = (e + 1/2)/N
    e = data.draw(st.integers(1, n - 1))
    u = ebp.upper_confidence_limit(e, n, confidence)
    f, z = (e + 0.5) / n, z_of(confidence)
    assert u >= f
    assert (u - f) ** 2 == pytest.approx(z * z * u * (1 - u) / n, rel=1e-9, abs=1e-15)


@given(st.integers(1, 200), st.floats(0, 1, exclude_max=True))
def test_fractional_errors_below_one_interpolate(n, e):
    at_zero, at_one = ebp.estimated_errors(0, n), ebp.estimated_errors(1, n)
    assert ebp.estimated_errors(e, n) == pytest.approx(at_zero + e * (at_one - at_zero),
                                                     rel=1e-12, abs=1e-12)


@given(st.integers(1, 100), st.data())
def test_errors_near_n_give_the_whole_leaf(n, data):
    e = data.draw(st.floats(max(n - 0.5, 1.0), n) if n >= 1.5 else st.just(float(n)))
    assert ebp.estimated_errors(e, n) == pytest.approx(n, abs=1e-12)
    assert ebp.upper_confidence_limit(e, n) == pytest.approx(1.0)


@given(st.integers(1, 300), st.data())
def test_limit_is_monotone(n, data):
    e = data.draw(st.integers(0, n))
    u = [ebp.upper_confidence_limit(e, n, cf) for cf in (0.01, 0.05, 0.1, 0.25, 0.5)]
    assert all(a >= b - 1e-12 for a, b in zip(u, u[1:]))  # more confidence, higher limit
    assert u[-1] >= e / n - 1e-12
    if e < n:
        assert ebp.upper_confidence_limit(e + 1, n) >= ebp.upper_confidence_limit(e, n)


def test_half_confidence_adds_half_an_error_and_above_half_adds_none():
    # CF = 0.5: z = 0, so U = (e + 1/2)/N, the continuity correction alone
    assert ebp.estimated_errors(3, 20, 0.5) == pytest.approx(3.5, abs=1e-12)
    assert ebp.estimated_errors(0, 20, 0.5) == pytest.approx(20 * (1 - 0.5 ** (1 / 20)))
    with pytest.warns(UserWarning, match="above 0.5"):
        assert ebp.estimated_errors(3, 20, 0.7) == 3.0
    with pytest.warns(UserWarning, match="above 0.5"):
        assert ebp.upper_confidence_limit(0, 20, 0.9) == 0.0


def test_empty_leaf_and_array_input():
    assert ebp.estimated_errors(0, 0) == 0.0
    e = np.array([[0, 1, 2], [0, 0, 5]])
    n = np.array([[1, 4, 10], [0, 3, 5]])
    out = ebp.estimated_errors(e, n, 0.1)
    assert isinstance(out, np.ndarray) and out.shape == (2, 3)
    for idx in np.ndindex(e.shape):
        assert out[idx] == ebp.estimated_errors(int(e[idx]), int(n[idx]), 0.1)
    assert isinstance(ebp.estimated_errors(1, 4), float)


def test_normal_quantile_agrees_with_scipy():
    # Weka's Cephes ndtri and scipy's agree to rounding (they differ in the last bit only)
    y = np.concatenate([np.linspace(1e-6, 1 - 1e-6, 2001), np.logspace(-300, -1, 300),
                        1 - np.float32([0.25, 0.1, 0.05, 0.5, 0.01]).astype(float)])
    ours = np.array([ebp._normal_inverse(float(v)) for v in y])
    assert np.allclose(ours, ndtri(y), rtol=4e-15, atol=1e-15)
    assert ebp._normal_inverse(0.5) == 0.0
    with pytest.raises(ValueError, match=r"\(0, 1\)"):
        ebp._normal_inverse(1.0)


@pytest.mark.parametrize("confidence", [0, 1, -0.1, 1.5, float("nan"), float("inf"), 1e-50])
def test_confidence_outside_the_open_interval(confidence):
    for call in (lambda: ebp.estimated_errors(1, 5, confidence),
                 lambda: ebp.upper_confidence_limit(1, 5, confidence),
                 lambda: pk.error_based(stump_tree(), confidence)):
        with pytest.raises(ValueError, match=r"confidence must lie in \(0, 1\).*above 0.5"):
            call()


@pytest.mark.parametrize("confidence", [True, "0.25", None, [0.25]])
def test_confidence_of_the_wrong_type(confidence):
    with pytest.raises(TypeError, match="confidence"):
        pk.error_based(stump_tree(), confidence)


def test_bad_error_counts():
    with pytest.raises(ValueError, match="errors must not exceed n"):
        ebp.estimated_errors(5, 4)
    with pytest.raises(ValueError, match="non-negative"):
        ebp.estimated_errors(-1, 4)
    with pytest.raises(ValueError, match="finite"):
        ebp.upper_confidence_limit(1, np.inf)
    with pytest.raises(ValueError, match="n must be positive"):
        ebp.upper_confidence_limit(0, 0)
    with pytest.raises(TypeError, match="errors"):
        ebp.estimated_errors("one", 4)


# ---------------------------------------------------------------------- a transcription of J48
def sm_or_eq(a, b):
    return a - b < 1e-6 or a <= b


class J48Node:
    """``C45PruneableClassifierTree`` on Python objects, recursively, for small trees.

    Each node holds its training examples (indices); a leaf's distribution is their class
    counts. The methods follow Weka 3.6's collapse, prune, getEstimatedErrors,
    getEstimatedErrorsForBranch and newDistribution.
    """

    def __init__(self, tree, v, X, codes, samples, cf):
        self.X, self.codes, self.cf, self.k = X, codes, cf, tree.n_classes
        self.samples = samples
        self.leaf = bool(tree.is_leaf[v])
        self.feature, self.threshold = int(tree.feature[v]), float(tree.threshold[v])
        self.sons = []
        if not self.leaf:
            left = self.goes_left(samples)
            self.sons = [J48Node(tree, int(tree.left[v]), X, codes, samples[left], cf),
                         J48Node(tree, int(tree.right[v]), X, codes, samples[~left], cf)]

    def goes_left(self, samples):
        return self.X[samples, self.feature] <= self.threshold

    def counts(self, samples=None):
        samples = self.samples if samples is None else samples
        return np.bincount(self.codes[samples], minlength=self.k)

    def estimate(self, counts):
        # the leaf estimate itself is tested above; here the tree logic is under test
        return float(ebp._node_estimates(counts[None, :], np.float32(self.cf))[0])

    def training_errors(self):
        if self.leaf:
            counts = self.counts()
            return counts.sum() - counts.max()
        return sum(son.training_errors() for son in self.sons)

    def collapse(self):
        if self.leaf:
            return
        counts = self.counts()
        if self.training_errors() >= counts.sum() - counts.max() - 1e-3:
            self.leaf, self.sons = True, []
        else:
            for son in self.sons:
                son.collapse()

    def estimated_errors(self):
        if self.leaf:
            return self.estimate(self.counts())
        errors = 0.0
        for son in self.sons:
            errors = errors + son.estimated_errors()
        return errors

    def errors_for_branch(self, samples):
        if self.leaf:
            return self.estimate(self.counts(samples))
        left = self.goes_left(samples)
        errors = 0.0
        for son, part in zip(self.sons, (samples[left], samples[~left])):
            errors = errors + son.errors_for_branch(part)
        return errors

    def new_distribution(self, samples):
        self.samples = samples
        if not self.leaf:
            left = self.goes_left(samples)
            self.sons[0].new_distribution(samples[left])
            self.sons[1].new_distribution(samples[~left])

    def prune(self, raising):
        if self.leaf:
            return
        for son in self.sons:
            son.prune(raising)
        sizes = [len(son.samples) for son in self.sons]
        largest = 1 if sizes[1] >= sizes[0] else 0  # maxBag: the last largest bag
        as_branch = (self.sons[largest].errors_for_branch(self.samples) if raising
                     else float("inf"))
        as_leaf = self.estimate(self.counts())
        as_tree = self.estimated_errors()
        if sm_or_eq(as_leaf, as_tree + 0.1) and sm_or_eq(as_leaf, as_branch + 0.1):
            self.leaf, self.sons = True, []
            return
        if sm_or_eq(as_branch, as_tree + 0.1):
            branch = self.sons[largest]
            self.feature, self.threshold = branch.feature, branch.threshold
            self.leaf, self.sons = branch.leaf, branch.sons
            self.new_distribution(self.samples)
            self.prune(raising)

    def structure(self, depth=0):
        counts = tuple(int(c) for c in self.counts())
        if self.leaf:
            return [(depth, -1, None, counts)]
        rows = [(depth, self.feature, self.threshold, counts)]
        for son in self.sons:
            rows += son.structure(depth + 1)
        return rows


def j48_reference(tree, X, y, confidence, raising):
    codes = np.searchsorted(tree.classes_, y)
    root = J48Node(tree, 0, np.asarray(X, dtype=float), codes, np.arange(len(y)),
                   confidence)
    root.collapse()
    root.prune(raising)
    return root.structure()


def data_for_counts(tree):
    """Examples that reach every leaf of ``tree`` with its class counts (for counts-only trees)."""
    X, y = [], []
    for v in np.flatnonzero(tree.is_leaf):
        path, u = [], v
        while tree.parent[u] >= 0:
            p = tree.parent[u]
            path.append((p, tree.left[p] == u))
            u = p
        x = np.zeros(tree.n_features)
        lower = np.full(tree.n_features, -np.inf)
        upper = np.full(tree.n_features, np.inf)
        for p, is_left in path:
            f, t = tree.feature[p], tree.threshold[p]
            if is_left:
                upper[f] = min(upper[f], t)
            else:
                lower[f] = max(lower[f], t)
        if np.any(lower >= upper):
            return None  # an unreachable leaf: the random thresholds contradict each other
        for f in range(tree.n_features):
            x[f] = (upper[f] if np.isfinite(upper[f]) else
                    lower[f] + 1 if np.isfinite(lower[f]) else 0.0)
        for k, count in enumerate(tree.counts[v]):
            X += [x] * int(count)
            y += [k] * int(count)
    return np.array(X), np.array(y)


# ---------------------------------------------------------------------- collapse
def test_collapse_cuts_splits_that_fix_no_training_error():
    # root (6, 4): A (5, 1) splits into (3, 0) and (2, 1) -- both still predict class 0, one
    # error either way, so A collapses; B (1, 3) splits into (1, 0) and (0, 3), fixing its
    # error, so B and the root stay.
    tree = pk.Tree.from_arrays([1, 3, 5, -1, -1, -1, -1], [2, 4, 6, -1, -1, -1, -1],
                               [[6, 4], [5, 1], [1, 3], [3, 0], [2, 1], [1, 0], [0, 3]])
    collapsed = ebp.collapse(tree)
    assert np.flatnonzero(collapsed.kept).tolist() == [0, 1, 2, 5, 6]
    assert np.flatnonzero(collapsed.is_leaf).tolist() == [1, 5, 6]


def test_collapse_judges_whole_subtrees():
    # The root (4, 2) splits into (2, 1) and (2, 1), which fixes no error, but each child
    # splits into (2, 0) and (0, 1): the subtree fixes both errors, so nothing collapses.
    # When the lower splits are useless too, the whole tree collapses into the root.
    useful = pk.Tree.from_arrays([1, 3, 5, -1, -1, -1, -1], [2, 4, 6, -1, -1, -1, -1],
                                 [[4, 2], [2, 1], [2, 1], [2, 0], [0, 1], [2, 0], [0, 1]])
    assert ebp.collapse(useful).n_nodes == 7
    useless = pk.Tree.from_arrays([1, 3, 5, -1, -1, -1, -1], [2, 4, 6, -1, -1, -1, -1],
                                  [[4, 2], [2, 1], [2, 1], [1, 1], [1, 0], [1, 1], [1, 0]])
    assert ebp.collapse(useless).n_nodes == 1


@given(random_trees(max_leaves=10))
def test_collapse_keeps_exactly_the_nodes_below_error_reducing_ancestors(tree):
    errors = tree.counts.sum(axis=1) - tree.counts.max(axis=1)
    useful = np.zeros(tree.n_nodes, dtype=bool)
    for v in np.flatnonzero(~tree.is_leaf):
        below = tree.subtree(v)
        useful[v] = errors[below[tree.is_leaf[below]]].sum() < errors[v]
    collapsed = ebp.collapse(tree)
    for v in range(tree.n_nodes):
        ancestors, u = [], v
        while tree.parent[u] >= 0:
            u = tree.parent[u]
            ancestors.append(u)
        assert collapsed.kept[v] == all(useful[a] for a in ancestors)


# ---------------------------------------------------------------------- error_based against J48's recursion
@given(random_trees(max_leaves=12, max_count=8), st.sampled_from([0.25, 0.1, 0.05, 0.5]))
def test_error_based_is_j48_without_raising(tree, confidence):
    data = data_for_counts(tree)
    if data is None:
        return
    X, y = data
    assert structure(pk.error_based(tree, confidence)) == j48_reference(tree, X, y,
                                                                         confidence, False)


@st.composite
def grown_trees(draw):
    """A scikit-learn tree grown to purity on small random data, with its data."""
    n = draw(st.integers(8, 60))
    d = draw(st.integers(1, 3))
    k = draw(st.integers(2, 3))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))
    X = rng.integers(0, draw(st.integers(2, 6)), size=(n, d)).astype(float)
    y = rng.integers(0, k, size=n)
    clf = DecisionTreeClassifier(random_state=0).fit(X, y)
    return pk.Tree.from_sklearn(clf, X, y), X, y


@given(grown_trees(), st.sampled_from([0.25, 0.1, 0.05, 0.5]))
def test_error_based_raising_is_j48_with_raising(grown, confidence):
    tree, X, y = grown
    raised = pk.error_based_raising(tree, X, y, confidence)
    assert structure(raised) == j48_reference(tree, X, y, confidence, True)
    assert np.array_equal(raised.node_counts(X, y), raised.counts)


@given(grown_trees(), st.sampled_from([0.25, 0.1]))
def test_error_based_on_grown_trees_is_j48_without_raising(grown, confidence):
    tree, X, y = grown
    assert structure(pk.error_based(tree, confidence)) == j48_reference(tree, X, y,
                                                                         confidence, False)


# ---------------------------------------------------------------------- ties, set up on purpose
def stump_tree():
    return pk.Tree.from_arrays([1, -1, -1], [2, -1, -1], [[6, 4], [5, 1], [1, 3]],
                               [0, -1, -1], [0.5, np.nan, np.nan])


def stub_estimates(monkeypatch, values):
    """Make the leaf estimate of a node a chosen number, looked up by its class counts."""
    def fake(counts, cf):
        return np.array([values[tuple(int(c) for c in row)] for row in np.atleast_2d(counts)])
    monkeypatch.setattr(ebp, "_node_estimates", fake)


@pytest.mark.parametrize("excess, pruned", [
    (0.0, True),      # E(t) = E(T_t) + 0.1: the leaf
    (-0.05, True),    # the leaf is better
    (5e-7, True),     # worse by less than Weka's 1e-6: still equal
    (2e-6, False),    # worse by more: the subtree stays
])
def test_leaf_against_subtree_tolerance(monkeypatch, excess, pruned):
    subtree = 1.0 + 1.0
    stub_estimates(monkeypatch, {(6, 4): subtree + 0.1 + excess, (5, 1): 1.0, (1, 3): 1.0})
    assert (pk.error_based(stump_tree()).n_nodes == 1) == pruned


def raising_tree(equal_sizes=False):
    """Root: x0 <= 0.5. Left child A, right child B (x1 <= 0.5 into leaves B1, B2).

    A has 4 examples (3, 1) at x0 = 0, three of them with x1 = 0; B has 5: B1 (2, 1) and
    B2 (0, 2). Raising B sends A's examples to B1 (3 of class 0) and B2 (1 of class 1):
    B1 becomes (5, 1), B2 (0, 3). With ``equal_sizes`` A holds 5 examples (3, 2) and is
    split too, x1 <= 0.5 into (3, 0) and (0, 2), while B splits at x1 <= 0.75: on this
    data both splits send the same examples the same way.
    """
    rows = [(0, 0, 0)] * 3 + [(0, 1, 1)] + [(1, 0, 0)] * 2 + [(1, 0, 1)] + [(1, 1, 1)] * 2
    if equal_sizes:
        rows = [(0, 0, 0)] * 3 + [(0, 1, 1)] * 2 + [(1, 0, 0)] * 2 + [(1, 0, 1)] + \
               [(1, 1, 1)] * 2
    data = np.array(rows, dtype=float)
    X, y = data[:, :2], data[:, 2].astype(int)
    if equal_sizes:
        left, right = [1, 3, 5, -1, -1, -1, -1], [2, 4, 6, -1, -1, -1, -1]
        feature, threshold = [0, 1, 1, -1, -1, -1, -1], [0.5, 0.5, 0.75] + [np.nan] * 4
    else:
        left, right = [1, -1, 3, -1, -1], [2, -1, 4, -1, -1]
        feature, threshold = [0, -1, 1, -1, -1], [0.5, np.nan, 0.5, np.nan, np.nan]
    shell = pk.Tree.from_arrays(left, right, np.zeros((len(left), 2), int), feature, threshold)
    tree = pk.Tree.from_arrays(left, right, shell.node_counts(X, y), feature, threshold)
    return tree, X, y


# estimates that keep B's split (B: 10 as a leaf, 1 + 1 as a subtree) and A a leaf of 1:
# E(T_root) = 1 + 2 = 3
BASE = {(5, 4): 10.0, (3, 1): 1.0, (2, 3): 10.0, (2, 1): 1.0, (0, 2): 1.0}


@pytest.mark.parametrize("branch, leaf, expected", [
    (3.0 + 0.1, 10.0, "raised"),          # E_B = E(T) + 0.1: raise
    (3.0 + 0.1 + 5e-7, 10.0, "raised"),   # within 1e-6: still a raise
    (3.0 + 0.1 + 2e-6, 10.0, "kept"),     # beyond: keep the subtree
    (2.95, 2.95 + 0.1, "leaf"),           # E(t) = E_B + 0.1 <= E(T) + 0.1: the leaf wins
    (2.95, 2.95 + 0.1 + 2e-6, "raised"),  # the leaf loses to the branch by more than 1e-6
])
def test_leaf_subtree_and_branch_ties(monkeypatch, branch, leaf, expected):
    tree, X, y = raising_tree()
    values = dict(BASE)
    values[(5, 4)] = leaf
    values[(5, 1)], values[(0, 3)] = branch - 1.0, 1.0  # B1 and B2 with all the examples
    stub_estimates(monkeypatch, values)
    raised = pk.error_based_raising(tree, X, y)
    shapes = {
        "raised": [(0, 1, 0.5, (5, 4)), (1, -1, None, (5, 1)), (1, -1, None, (0, 3))],
        "kept": structure(tree),
        "leaf": [(0, -1, None, (5, 4))],
    }
    assert structure(raised) == shapes[expected]


def test_largest_branch_tie_goes_to_the_right_child(monkeypatch):
    tree, X, y = raising_tree(equal_sizes=True)
    assert tree.counts[1].sum() == tree.counts[2].sum() == 5
    # A (3, 2) -> (3, 0), (0, 2); B (2, 3) -> (2, 1), (0, 2); both kept, E(T_root) = 4.
    # Raising A would send B's examples to (5, 1) and (0, 4); raising B, A's to (5, 1),
    # (0, 4) as well -- same counts, so only the tie rule decides which split is raised.
    values = {(5, 5): 10.0, (3, 2): 10.0, (2, 3): 10.0, (3, 0): 1.0, (0, 2): 1.0, (2, 1): 1.0,
              (5, 1): 1.0, (0, 4): 1.0}
    stub_estimates(monkeypatch, values)
    raised = pk.error_based_raising(tree, X, y)
    # J48's maxBag keeps the last of equal bags: B, the right child, is raised
    assert structure(raised)[0][:3] == (0, int(tree.feature[2]), float(tree.threshold[2]))
    reference = J48Node(tree, 0, X, y, np.arange(len(y)), 0.25)
    reference.prune(True)
    assert structure(raised) == reference.structure()


def test_raised_branch_relabels_its_leaves():
    # without stubs: a real raise, checked against the transcription
    rng = np.random.default_rng(3)
    X = rng.integers(0, 4, size=(300, 3)).astype(float)
    y = ((X[:, 0] + X[:, 1] > 3) ^ (rng.random(300) < 0.25)).astype(int)
    tree = pk.Tree.from_sklearn(DecisionTreeClassifier(random_state=0).fit(X, y), X, y)
    raised = pk.error_based_raising(tree, X, y, 0.25)
    assert first_difference(raised, pk.error_based(tree, 0.25)) is not None  # raising fired
    assert structure(raised) == j48_reference(tree, X, y, 0.25, True)


# ---------------------------------------------------------------------- bad input, deep trees
def test_raising_needs_the_growing_sample():
    tree, X, y = raising_tree()
    with pytest.raises(ValueError, match="sample the tree was grown on"):
        pk.error_based_raising(tree, X[:-1], y[:-1])
    with pytest.raises(ValueError, match="different lengths"):
        pk.error_based_raising(tree, X, y[:-1])
    counts_only = pk.Tree.from_arrays(tree.left, tree.right, tree.counts)
    with pytest.raises(ValueError, match="split rules"):
        pk.error_based_raising(counts_only, X, y)
    with pytest.raises(TypeError, match="tree must be a prunekit Tree"):
        pk.error_based("tree")


def caterpillar(depth):
    """x <= 0, x <= 1, ...: a chain of ``depth`` splits, each peeling off one example."""
    left = [-1] * (2 * depth + 1)
    right = [-1] * (2 * depth + 1)
    feature = [-1] * (2 * depth + 1)
    threshold = [np.nan] * (2 * depth + 1)
    v = 0
    for i in range(depth):
        left[v], right[v], feature[v], threshold[v] = 2 * i + 1, 2 * i + 2, 0, i + 0.5
        v = 2 * i + 2
    X = np.arange(depth + 1, dtype=float)[:, None]
    y = (np.arange(depth + 1) % 3 == 0).astype(int)
    shell = pk.Tree.from_arrays(left, right, np.zeros((len(left), 2), int), feature, threshold)
    return pk.Tree.from_arrays(left, right, shell.node_counts(X, y), feature, threshold), X, y


def test_deep_trees_need_no_recursion():
    tree, X, y = caterpillar(3000)
    assert tree.max_depth == 3000
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pruned = pk.error_based(tree, 0.5)
        raised = pk.error_based_raising(tree, X, y, 0.5)
    assert pruned.n_nodes <= tree.n_nodes and raised.n_nodes <= tree.n_nodes
    assert np.array_equal(raised.node_counts(X, y), raised.counts)
    small, X_small, y_small = caterpillar(60)
    assert structure(pk.error_based_raising(small, X_small, y_small, 0.25)) == \
        j48_reference(small, X_small, y_small, 0.25, True)


def test_pruning_is_nested_in_confidence_on_an_example():
    # smaller CF, larger estimates: on this tree the pruned trees shrink as CF falls
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 4))
    y = ((X[:, 0] > 0) ^ (rng.random(400) < 0.2)).astype(int)
    tree = pk.Tree.from_sklearn(DecisionTreeClassifier(random_state=0).fit(X, y), X, y)
    sizes = [pk.error_based(tree, cf).n_nodes for cf in (0.5, 0.25, 0.1, 0.05, 0.01)]
    assert sizes == sorted(sizes, reverse=True) and sizes[0] > sizes[-1]
    assert math.isclose(ebp.upper_confidence_limit(0, 1, 0.25), 0.75)
