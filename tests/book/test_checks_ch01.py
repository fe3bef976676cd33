"""The checks of Chapter 1's exercises: correct answers pass with one line; wrong solutions
(mutants: the usual mistakes, an argument ignored, an input changed in place, a wrong type, a
quadratic scan) are rejected, each with the hint that names its mistake and no other."""

from __future__ import annotations

import math
import signal
import time

import numpy as np
import pytest

import prunekit as pk
from checking import (
    assert_hint, failure, failure_message, ignoring, mutating, not_implemented, retyped,
)

from pdtbook.checks import ARRAY_HINT, SLOW_HINT, ch01

GAIN_HINTS = [hint for _, hint in ch01._GAIN_MISTAKES]
MDL_HINTS = [hint for _, hint in ch01._MDL_MISTAKES]
THRESHOLD_HINTS = [hint for _, hint in ch01._THRESHOLD_GAIN_MISTAKES]


# ---------------------------------------------------------------------- Exercise 1.1
def _entropy(a, log=np.log):
    return 0.0 if a in (0, 1) else -a * log(a) - (1 - a) * log(1 - a)


def _gini(a):
    return 2 * a * (1 - a)


def information_gain(x, y, *, C=_entropy, weights="fraction", before=True, after=True,
                     joint=False, sign=1):
    """The information gain of the solution notebook, or a usual wrong variant."""
    m = len(y)
    result = C(np.mean(y)) if before else 0.0
    for side in (0, 1):
        on = x == side
        if not on.any():
            continue
        share = np.sum(y[on]) / m if joint else np.mean(y[on])
        weight = {"fraction": np.mean(on), "none": 1.0, "half": 0.5, "counts": on.sum(),
                  "swapped": np.mean(~on)}[weights]
        if after:
            result -= weight * C(share)
    return float(sign * result)


def test_information_gain_passes(capsys):
    ch01.check_information_gain(information_gain)
    ch01.check_information_gain(lambda x, y: np.float64(information_gain(x, y)))
    assert capsys.readouterr().out == "✓ information_gain: all 8 checks passed.\n" * 2


@pytest.mark.parametrize("changes, hint", [
    (dict(C=lambda a: _entropy(a, np.log2)), GAIN_HINTS[0]),
    (dict(C=lambda a: _entropy(a, np.log10)), GAIN_HINTS[1]),
    (dict(weights="none"), GAIN_HINTS[2]),
    (dict(weights="half"), GAIN_HINTS[3]),
    (dict(weights="counts"), GAIN_HINTS[4]),
    (dict(weights="swapped"), GAIN_HINTS[5]),
    (dict(joint=True), GAIN_HINTS[6]),
    (dict(before=False), GAIN_HINTS[7]),
    (dict(before=False, sign=-1), GAIN_HINTS[8]),
    (dict(after=False), GAIN_HINTS[9]),
    (dict(sign=-1), GAIN_HINTS[10]),
    (dict(C=_gini), GAIN_HINTS[11]),
    (dict(C=lambda a: min(a, 1 - a)), GAIN_HINTS[12]),
], ids=lambda v: v if isinstance(v, str) and len(v) < 20 else None)
def test_information_gain_mistakes_get_their_hint(changes, hint):
    assert_hint(ch01.check_information_gain, lambda x, y: information_gain(x, y, **changes), hint)


def test_information_gain_edge_case_hints():
    def naive(x, y):
        def entropy(a):
            return -a * np.log(a) - (1 - a) * np.log(1 - a)
        q = np.mean(x)
        with np.errstate(all="ignore"):
            return float(entropy(np.mean(y)) - q * entropy(np.mean(y[x == 1]))
                         - (1 - q) * entropy(np.mean(y[x == 0])))

    assert "0 log 0 = 0" in failure(ch01.check_information_gain, naive).hint
    empty = lambda x, y: information_gain(x, y) if x.any() and not x.all() else float("nan")
    assert "one side of the split is empty" in failure(ch01.check_information_gain, empty).hint


def test_information_gain_types_arguments_and_inputs():
    check = ch01.check_information_gain
    # an int where a float is asked for (a pure sample gives 0)
    as_int = lambda x, y: 0 if y.min() == y.max() else information_gain(x, y)
    message = failure_message(check, as_int)
    assert "returned 0, an int; it should return the gain, a float" in message
    assert "return a single number" in failure_message(
        check, lambda x, y: np.array([information_gain(x, y)]))
    # a 0-d array prints like a number but is not the float the statement asks for
    error = assert_hint(check, lambda x, y: np.array(information_gain(x, y)),
                        ARRAY_HINT)
    assert "returned a 0-dimensional NumPy array, array(0.0863046); it should return the gain, " \
           "a float." in str(error)
    assert "should return the gain, a float" in failure_message(
        check, lambda x, y: str(information_gain(x, y)))
    cases = ch01.information_gain_cases()
    for position in (0, 1):   # a function ignoring x, or y, fails
        failure(check, ignoring(information_gain, position, cases[0][position + 1]))
    message = failure_message(check, mutating(information_gain, 0))
    assert "changed its argument `x` in place" in message
    assert "changed its argument `y` in place" in failure_message(check, mutating(information_gain, 1))


def test_information_gain_not_implemented_and_crashing():
    assert failure_message(ch01.check_information_gain, not_implemented) == (
        "✗ information_gain is not implemented yet: replace `raise NotImplementedError()` with "
        "your code.")
    assert "not a function" in failure_message(ch01.check_information_gain, 0.5)


# ---------------------------------------------------------------------- Exercise 1.2
def best_threshold(x, y, *, C=_gini, on_point=False, equal_values=False, last=False,
                   weights="fraction", where=0.5, labels="sorted", counts="before"):
    """The sort-once scan of the solution notebook, or a usual wrong variant."""
    order = np.argsort(x, kind="stable")
    xs = x[order]
    ys = y[order] if labels == "sorted" else y      # "unsorted": y not reordered with x
    m = len(xs)
    n_left = np.arange(1, m)
    n_right = m - n_left
    # "through": the ones up to and including the next example, one too far
    ones_left = np.cumsum(ys)[:-1] if counts == "before" else np.cumsum(ys)[1:]
    ones_right = ys.sum() - ones_left
    scale = {"fraction": 1 / m, "counts": 1.0, "none": None}[weights]
    with np.errstate(all="ignore"):
        if scale is None:
            after = C(ones_left / n_left) + C(ones_right / n_right)
        else:
            after = (n_left * C(ones_left / n_left) + n_right * C(ones_right / n_right)) * scale
        gains = C(ys.mean()) - after
    valid = np.ones(m - 1, bool) if equal_values else xs[1:] > xs[:-1]
    if not valid.any():
        return None, 0.0
    gains = np.where(valid, gains, -np.inf)
    best = np.flatnonzero(gains == gains.max())
    i = int(best[-1] if last else best[0])
    threshold = xs[i] if on_point else xs[i] + where * (xs[i + 1] - xs[i])
    return float(threshold), float(gains[i])


def quadratic_numpy(x, y):
    """One pass over the sample per candidate threshold: O(m^2), with NumPy."""
    values = np.unique(x)
    best, best_gain = None, -1.0
    for a, b in zip(values[:-1], values[1:]):
        left = x <= (a + b) / 2
        n_left = left.sum()
        p_left, p_right = y[left].mean(), y[~left].mean()
        g = _gini(y.mean()) - (n_left * _gini(p_left) + (len(y) - n_left) * _gini(p_right)) / len(y)
        if g > best_gain + 1e-12:
            best, best_gain = float((a + b) / 2), float(g)
    return (best, best_gain) if best is not None else (None, 0.0)


def quadratic_python(x, y):
    x, y = x.tolist(), y.tolist()
    best, best_gain = None, -1.0

    def C(labels):
        a = sum(labels) / len(labels)
        return 2 * a * (1 - a)

    values = sorted(set(x))
    for a, b in zip(values, values[1:]):
        theta = (a + b) / 2
        left = [label for value, label in zip(x, y) if value <= theta]
        right = [label for value, label in zip(x, y) if value > theta]
        g = C(y) - (len(left) * C(left) + len(right) * C(right)) / len(y)
        if g > best_gain + 1e-12:
            best, best_gain = theta, g
    return (best, best_gain) if best is not None else (None, 0.0)


def test_best_threshold_passes(capsys):
    ch01.check_best_threshold(best_threshold)
    assert capsys.readouterr().out == "✓ best_threshold: all 12 checks passed.\n"


@pytest.mark.parametrize("changes, hint", [
    (dict(on_point=True), "your threshold is on a data point (3); put it halfway between the two "
                          "consecutive distinct values, (3 + 4) / 2."),
    (dict(where=0.25), "your threshold splits the sample correctly but is not halfway between "
                       "3 and 4: return their midpoint."),
    (dict(last=True), "several thresholds reach the best gain here; return the smallest of them."),
    (dict(C=lambda a: a * (1 - a)),
     "your gain is half the right one: the Gini index is C(a) = 2a(1 - a), with the factor 2."),
    (dict(C=np.vectorize(_entropy)), "this is the information gain (entropy); this exercise asks "
                                     "for the Gini index, C(a) = 2a(1 - a)."),
    (dict(weights="counts"), "it looks as if each side's C was weighted by its number of "
                             "examples: divide by m to use the fraction of examples on that side."),
    (dict(weights="none"), "it looks as if the two sides' C were not weighted: multiply each by "
                           "the fraction of examples on that side."),
    # on the first case both slips give half the best gain: not the factor 2 of the Gini index
    (dict(labels="unsorted"), THRESHOLD_HINTS[2]),
    (dict(counts="through"), THRESHOLD_HINTS[3]),
])
def test_best_threshold_mistakes_get_their_hint(changes, hint):
    assert_hint(ch01.check_best_threshold, lambda x, y: best_threshold(x, y, **changes), hint)


def test_best_threshold_equal_values_and_constant_samples():
    error = failure(ch01.check_best_threshold,
                    lambda x, y: best_threshold(x, y, equal_values=True))
    assert "A threshold between two equal values is not a split" in error.hint
    constant = lambda x, y: (float(x[0]), 0.0) if len(set(x.tolist())) < 2 else best_threshold(x, y)
    assert "return (None, 0.0)" in failure(ch01.check_best_threshold, constant).hint


def test_best_threshold_types_and_inputs():
    check = ch01.check_best_threshold
    assert "a pair (threshold, gain)" in failure_message(
        check, lambda x, y: list(best_threshold(x, y)))
    assert "a pair (threshold, gain)" in failure_message(
        check, lambda x, y: best_threshold(x, y)[:1])
    message = failure_message(check, lambda x, y: (best_threshold(x, y)[0], 0)
                              if len(set(x.tolist())) < 2 else best_threshold(x, y))
    assert "an int; it should return a pair (threshold, gain) with a float as gain" in message

    def sorts_in_place(x, y):
        x.sort()
        return best_threshold(x, y)

    message = failure_message(check, sorts_in_place)
    assert "changed its argument `x` in place" in message and ".sort()" in message
    cases = ch01.best_threshold_cases()
    for position in (0, 1):
        failure(check, ignoring(best_threshold, position, cases[0][position + 1]))


def test_best_threshold_stops_a_quadratic_numpy_scan():
    """One NumPy pass per threshold: about a million passes over a million examples."""
    handler = signal.getsignal(signal.SIGALRM)
    start = time.monotonic()
    error = assert_hint(ch01.check_best_threshold, quadratic_numpy, ch01.SORT_ONCE_HINT,
                        time_limit=3)
    assert f"m = {ch01.LARGE_M:,} distinct values" not in str(error)   # the call is shortened
    assert "was still running after 3 seconds" in str(error)
    assert time.monotonic() - start < 30
    assert signal.getsignal(signal.SIGALRM) == handler


def test_best_threshold_stops_a_pure_python_quadratic_scan():
    message = failure_message(ch01.check_best_threshold, quadratic_python, time_limit=0.5)
    assert "was still running after 0.5 seconds" in message and "quadratic" in message


def test_running_out_of_memory_gets_the_sort_once_hint():
    def broadcasting(x, y):
        if len(x) > 1000:   # what x[:, None] <= x[None, :] does on a million values
            raise MemoryError("Unable to allocate 931. GiB")
        return best_threshold(x, y)

    error = assert_hint(ch01.check_best_threshold, broadcasting, ch01.SORT_ONCE_HINT)
    assert "ran out of memory" in str(error)


def test_best_threshold_cases_have_unambiguous_answers():
    """Random cases have a unique best split; the tie case ties exactly."""
    for description, x, y in ch01.best_threshold_cases():
        split = pk.growing.best_threshold_split(x[:, None], y, "gini")
        if "tie" in description:
            assert split.n_best == 2 and split.gain > 0
        elif "pure" not in description and split.feature >= 0:
            assert split.n_best == 1, description


# ---------------------------------------------------------------------- Exercise 1.3
def mdl_bound(e, n, d, m, delta=0.05, *, plus=1, bits=lambda d: math.log2(d + 3),
              conf=lambda delta: math.log(2 / delta), twice=2, root=math.sqrt, error=True):
    return float((e if error else 0.0)
                 + root(((n + plus) * bits(d) + conf(delta)) / (twice * m)))


def test_mdl_bound_passes(capsys):
    ch01.check_mdl_bound(mdl_bound)
    ch01.check_mdl_bound(pk.bounds.mdl)
    assert capsys.readouterr().out == "✓ mdl_bound: all 5 checks passed.\n" * 2


@pytest.mark.parametrize("changes, hint", [
    (dict(plus=0), MDL_HINTS[0]),
    (dict(bits=lambda d: math.log(d + 3)), MDL_HINTS[1]),
    (dict(conf=lambda delta: math.log2(2 / delta)), MDL_HINTS[2]),
    (dict(conf=lambda delta: math.log(1 / delta)), MDL_HINTS[3]),
    (dict(bits=lambda d: math.log2(d)), MDL_HINTS[4]),
    (dict(bits=lambda d: math.log2(d + 2)), MDL_HINTS[5]),
    (dict(twice=1), MDL_HINTS[6]),
    (dict(root=lambda v: v), MDL_HINTS[7]),
    (dict(error=False), MDL_HINTS[8]),
])
def test_mdl_bound_mistakes_get_their_hint(changes, hint):
    assert_hint(ch01.check_mdl_bound, lambda *args: mdl_bound(*args, **changes), hint)


@pytest.mark.parametrize("position", range(5))
def test_mdl_bound_uses_every_argument(position):
    first = ch01.mdl_bound_cases()[0]
    failure(ch01.check_mdl_bound, ignoring(mdl_bound, position, first[position]))


def test_mdl_bound_types_and_crashes():
    assert "should return the bound, a float" in failure_message(
        ch01.check_mdl_bound, lambda *args: f"{mdl_bound(*args)}")
    message = failure_message(ch01.check_mdl_bound, lambda *args: 1 / 0)
    assert "mdl_bound(0.1, 7, 10, 300, 0.05) raised ZeroDivisionError" in message


@pytest.fixture(scope="module")
def dnf_trees():
    X, y = pk.datasets.make_boolean_dnf(300, n_features=10, noise=0.1, random_state=0)
    return X, y, pk.id3(X, y), pk.id3(X, y, max_depth=2)


def _tree_bounds(*, n=None, errors=False, fixed_delta=None, order=1, given=None):
    """A solution of Exercise 1.3 (b), or one of its usual mistakes; ``given=(full, shallow,
    X, y)`` uses those trees and that sample whatever the call passes (hard-coded values)."""
    def bound(tree, X, y, delta):
        m, d = X.shape
        e = tree.error(X, y) * (m if errors else 1)
        size = tree.n_nodes if n is None else getattr(tree, n)
        return mdl_bound(e, size, d, m, fixed_delta or delta)

    def tree_bounds(full_tree, shallow_tree, X, y, delta=0.05):
        if given is not None:
            full_tree, shallow_tree, X, y = given
        return (bound(full_tree, X, y, delta), bound(shallow_tree, X, y, delta))[::order]
    return tree_bounds


def test_tree_bounds_passes(dnf_trees, capsys):
    X, y, full, shallow = dnf_trees
    ch01.check_tree_bounds(_tree_bounds(), X, y, mdl_bound=mdl_bound)
    assert capsys.readouterr().out == "✓ tree_bounds: all 10 checks passed.\n"


def test_tree_bounds_cases_vary_the_trees_and_the_sample(dnf_trees):
    X, y, full, shallow = dnf_trees
    cases = ch01.tree_bound_cases(X, y)
    assert len({(c[1].n_nodes, c[2].n_nodes, c[3].shape) for c in cases}) == 3
    bounds = {tuple(mdl_bound(t.error(X_, y_), t.n_nodes, X_.shape[1], len(X_)) for t in c[1:3])
              for c in cases for X_, y_ in [c[3:5]]}
    assert len(bounds) == 3


@pytest.mark.parametrize("changes, hint", [
    (dict(order=-1), "the two bounds are swapped: return the full tree's first."),
    (dict(n="n_leaves"), "n in eq. (18.1) counts all the nodes of the tree (tree.n_nodes), not "
                         "only its leaves."),
    (dict(errors=True), "L_S(h) is an error rate (tree.error(X, y)), not a number of errors."),
    (dict(n="max_depth"), "n in eq. (18.1) is the number of nodes (tree.n_nodes), not the depth."),
    (dict(fixed_delta=0.05), "this is the bound for delta = 0.05, but the call asked for another "
                             "delta: pass the argument delta on to mdl_bound."),
])
def test_tree_bounds_mistakes_get_their_hint(dnf_trees, changes, hint):
    X, y, full, shallow = dnf_trees
    assert_hint(ch01.check_tree_bounds, _tree_bounds(**changes), hint, X, y)


def test_tree_bounds_with_the_printed_sizes_and_errors_is_rejected(dnf_trees):
    """The sizes and training errors printed in the notebook, hard-coded."""
    X, y, full, shallow = dnf_trees
    assert (full.n_nodes, full.error(X, y), shallow.n_nodes, shallow.error(X, y)) == (
        135, 0.03, 7, 0.14)

    def hard_coded(full_tree, shallow_tree, X, y, delta=0.05):
        return (mdl_bound(0.03, 135, 10, 300, delta), mdl_bound(0.14, 7, 10, 300, delta))

    error = assert_hint(ch01.check_tree_bounds, hard_coded, ch01.TREE_BOUNDS_GIVEN_HINT, X, y)
    assert "the call passed other trees and another sample" in error.hint
    assert "must use the trees and the sample it is given" in error.hint


@pytest.mark.parametrize("given", ["trees", "sample", "both"])
def test_tree_bounds_reading_the_notebook_variables_is_rejected(dnf_trees, given):
    """Reading the notebook's trees and sample gives their bounds (the hint of the hard-coded
    answer); reading only the trees or only the sample mixes a tree with a sample of another
    number of features (the check's other samples have 6 and 12, the notebook's 10), which the
    library refuses."""
    X, y, full, shallow = dnf_trees
    wrong = _tree_bounds()

    def reads_globals(full_tree, shallow_tree, X_arg, y_arg, delta=0.05):
        trees = (full, shallow) if given != "sample" else (full_tree, shallow_tree)
        sample = (X, y) if given != "trees" else (X_arg, y_arg)
        return wrong(*trees, *sample, delta)

    if given == "both":
        assert_hint(ch01.check_tree_bounds, reads_globals, ch01.TREE_BOUNDS_GIVEN_HINT, X, y)
    else:
        message = failure_message(ch01.check_tree_bounds, reads_globals, X, y)
        assert " raised ValueError: X has " in message


def test_tree_bounds_reports_a_wrong_mdl_bound_and_types(dnf_trees):
    X, y, full, shallow = dnf_trees
    wrong = lambda e, n, d, m, delta=0.05: mdl_bound(e, n, d, m, delta, plus=0)

    def answer(full_tree, shallow_tree, X, y, delta=0.05):
        m, d = X.shape
        return (wrong(full_tree.error(X, y), full_tree.n_nodes, d, m, delta),
                mdl_bound(shallow_tree.error(X, y), shallow_tree.n_nodes, d, m, delta))

    error = failure(ch01.check_tree_bounds, answer, X, y, mdl_bound=wrong)
    assert error.hint == ("your mdl_bound does not agree with eq. (18.1) yet: make it pass its "
                          "check first.")
    correct = _tree_bounds()
    assert "should return a pair" in failure_message(
        ch01.check_tree_bounds, lambda *args, **kwargs: list(correct(*args, **kwargs)), X, y)
    message = failure_message(ch01.check_tree_bounds, mutating(correct, 2), X, y)
    assert "changed its argument `X` in place" in message


# ---------------------------------------------------------------------- Exercise 1.4
@pytest.fixture(scope="module")
def small_template_tree():
    X = np.array([[0, 0, 0], [0, 0, 1], [0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 0],
                  [0, 1, 1], [0, 1, 1], [0, 1, 1], [1, 0, 0], [1, 0, 1], [1, 1, 0],
                  [1, 1, 1], [1, 1, 0], [1, 1, 1], [1, 1, 1]], dtype=float)
    y = np.array([0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0, 1, 1, 1, 1, 1])
    tree = pk.Tree.from_arrays(
        [1, 2, -1, 4, -1, -1, -1], [6, 3, -1, 5, -1, -1, -1],
        [[7, 9], [5, 4], [4, 0], [1, 4], [0, 2], [1, 2], [2, 5]],
        feature=[0, 1, -1, 2, -1, -1, -1], threshold=[0.5, 0.5, np.nan, 0.5, np.nan, np.nan, np.nan])
    return tree, X, y


ANSWERS_14 = {3: "leaf 1", 1: "keep", 0: "left subtree"}


def test_template_choice_passes(small_template_tree, capsys):
    tree, X, y = small_template_tree
    ch01.check_template_choice(ANSWERS_14.__getitem__, tree, X, y)
    ch01.check_template_choice(lambda node: f" {ANSWERS_14[node].upper()} ", tree, X, y)
    assert capsys.readouterr().out == "✓ template_choice: all 3 checks passed.\n" * 2


@pytest.mark.parametrize("node, answer, hint", [
    # "right subtree" at node 3 gives the same tree as "leaf 1": the stated order decides
    (3, "right subtree", ch01.TEMPLATE_TIE_HINT),
    (3, "left subtree", ch01.TEMPLATE_TIE_HINT),
    (3, "keep", "another option makes as many training errors as yours with fewer nodes, and f "
                "charges for every node."),
    (1, "leaf 0", "your option saves nodes, but the training errors it adds cost more: each "
                  "error adds 1/m = 1/16 to f, each node only 0.01."),
    (0, "keep", "replacing a node by one of its subtrees sends all the examples that reach the "
                "node through that subtree: count its errors on all of them, not only on the "
                "examples that reached it before."),
])
def test_template_choice_mistakes_get_their_hint(small_template_tree, node, answer, hint):
    tree, X, y = small_template_tree
    error = assert_hint(ch01.check_template_choice, {**ANSWERS_14, node: answer}.__getitem__,
                        hint, tree, X, y)
    message = str(error)
    assert f"template_choice({node}) returned {answer!r}, which is not the option" in message
    # the worked options, which give the answer away, are not shown
    assert "f =" not in message and "<- the template's choice" not in message
    assert repr(ANSWERS_14[node]) not in message


def test_template_choice_explanation_and_shapes(small_template_tree, capsys):
    tree, X, y = small_template_tree
    ch01.explain_template_choice(tree, X, y)
    out = capsys.readouterr().out
    assert out.count("<- the template's choice") == 3
    assert "f = 1/16 + 0.01 × 3 = 0.0925   <- the template's choice" in out
    ch01.explain_template_choice(tree, X, y, node=1)
    assert capsys.readouterr().out.startswith("node 1: the current tree has 5 nodes")
    message = failure_message(ch01.check_template_choice, lambda node: "prune", tree, X, y)
    assert "'leaf 0', 'leaf 1', 'left subtree', 'right subtree', 'keep'" in message


def test_template_explanation_agrees_with_the_library():
    """The table explain_template_choice prints replays the template; its minimum is the
    library's step."""
    rng = np.random.default_rng(7)
    for trial in range(30):
        X = rng.integers(0, 3, size=(40, 3)).astype(float)
        y = (X[:, 0] + rng.integers(0, 2, size=40) > 1.5).astype(int)
        tree = pk.grow_tree(X, y, max_depth=int(rng.integers(2, 5)))
        if tree.n_nodes == 1:
            continue
        penalty = float(rng.choice([0.0, 0.01, 0.03, 0.1]))
        _, steps = pk.bottom_up_prune(tree, X, y, objective=lambda e, n: e + penalty * n,
                                      return_steps=True)
        for step in steps:
            rows, size, _ = ch01._template_rows(tree, X, y, steps, step.node, penalty)
            assert min(rows)[3] == step.choice
            assert next(r for r in rows if r[3] == step.choice)[1] == step.n_nodes


def test_every_check_rejects_a_missing_function(small_template_tree, dnf_trees):
    tree, X, y = small_template_tree
    X3, y3 = dnf_trees[:2]
    for check, args in ((ch01.check_information_gain, ()), (ch01.check_best_threshold, ()),
                        (ch01.check_mdl_bound, ()), (ch01.check_tree_bounds, (X3, y3)),
                        (ch01.check_template_choice, (tree, X, y))):
        assert "is not implemented yet" in failure_message(check, not_implemented, *args)
    assert SLOW_HINT != ch01.SORT_ONCE_HINT


def test_averaged_sides_are_not_mistaken_for_a_split_between_equal_values():
    """Weights 1/2 can give a larger gain than any real split; on a sample with equal values
    that is still the weighting mistake, not a threshold between equal values."""
    assert_hint(ch01.check_best_threshold, _half_weights,
                "it looks as if the two sides' C were averaged with weights 1/2: weight each "
                "side by the fraction of examples on it.")


def _half_weights(x, y):
    order = np.argsort(x, kind="stable")
    xs, ys = x[order], y[order]
    m = len(xs)
    n_left = np.arange(1, m)
    ones_left = np.cumsum(ys)[:-1]
    gains = _gini(ys.mean()) - 0.5 * (_gini(ones_left / n_left)
                                      + _gini((ys.sum() - ones_left) / (m - n_left)))
    valid = xs[1:] > xs[:-1]
    if not valid.any():
        return None, 0.0
    gains = np.where(valid, gains, -np.inf)
    i = int(np.argmax(gains))
    return float((xs[i] + xs[i + 1]) / 2), float(gains[i])


def test_template_choice_ties_in_f_go_to_the_smaller_tree(small_template_tree):
    tree, X, y = small_template_tree
    _, steps = pk.bottom_up_prune(tree, X, y, objective=lambda e, n: e, return_steps=True)
    answers = {step.node: step.choice for step in steps}
    assert answers[3] == "leaf 1"            # "keep" has the same f = 3/16 with 7 nodes
    assert_hint(ch01.check_template_choice, {**answers, 3: "keep"}.__getitem__,
                "your option has the same f as an option with fewer nodes; the statement breaks "
                "ties in f towards the tree with fewer nodes.", tree, X, y, penalty=0.0)


def test_information_gain_infinite_value_hint():
    def unguarded_log(x, y):
        def entropy(a):
            with np.errstate(all="ignore"):
                return float(-a * np.log(a) - (1 - a) * np.log(1 - a)) if 0 < a < 1 else -np.inf
        return information_gain(x, y, C=entropy)

    assert_hint(ch01.check_information_gain, unguarded_log,
                "a logarithm of 0 slipped through: C(0) = C(1) = 0 (the convention 0 log 0 = 0).")


def test_best_threshold_remaining_hints():
    check = ch01.check_best_threshold

    def nan_gain(x, y):
        threshold, value = best_threshold(x, y)
        return (threshold, float("nan")) if threshold is not None else (None, 0.0)

    assert failure(check, nan_gain).hint.startswith("a nan usually comes from 0/0")
    none_always = lambda x, y: (None, best_threshold(x, y)[1])
    assert failure(check, none_always).hint == "return None only when all values of x are equal."

    def on_duplicate(x, y):             # the right gain, but a threshold on a repeated value
        threshold, value = best_threshold(x, y)
        values, counts = np.unique(x, return_counts=True)
        if threshold is not None and (counts > 1).any():
            below = values[values <= threshold]
            return float(below[-1]), value
        return threshold, value

    assert failure(check, on_duplicate).hint.startswith("your threshold is on a data point")

    def wrong_index(x, y):              # the threshold of the next boundary, the right gain
        order = np.argsort(x, kind="stable")
        xs = x[order]
        threshold, value = best_threshold(x, y)
        if threshold is None:
            return None, 0.0
        i = int(np.searchsorted(xs, threshold))
        return float((xs[min(i, len(xs) - 2)] + xs[min(i + 1, len(xs) - 1)]) / 2), value

    assert failure(check, wrong_index).hint.startswith("your threshold gives the gain")


# ---------------------------------------------------------------------- one type policy
TYPED = {
    "1.1": (ch01.check_information_gain, information_gain, None, ()),
    "1.2": (ch01.check_best_threshold, best_threshold, 1, ()),
    "1.3a": (ch01.check_mdl_bound, mdl_bound, None, ()),
}


@pytest.mark.parametrize("exercise", TYPED)
def test_a_0d_array_is_refused_and_a_numpy_float_accepted(exercise, capsys):
    """One policy in every check: NumPy scalars are numbers, 0-d arrays are not."""
    check, correct, item, args = TYPED[exercise]
    assert_hint(check, retyped(correct, np.array, item), ARRAY_HINT, *args)
    check(retyped(correct, np.float64, item), *args)
    assert capsys.readouterr().out.startswith("✓ ")


def literal_best_threshold(x, y):
    """A sort-once scan that follows Exercise 1.1's formula as written: weights q and 1 - q,
    the first maximum by np.argmax. On the tie case 1 - 1/3 rounds up by one ulp, so its
    argmax is the second of the two tied thresholds: a rounding, not a mistake."""
    order = np.argsort(x, kind="stable")
    xs, ys, m = x[order], y[order], len(x)
    if not (xs[1:] > xs[:-1]).any():
        return None, 0.0
    n_left = np.arange(1, m)
    ones_left = np.cumsum(ys)[:-1]
    q = n_left / m
    gains = _gini(ys.mean()) - (q * _gini(ones_left / n_left)
                                + (1 - q) * _gini((ys.sum() - ones_left) / (m - n_left)))
    gains = np.where(xs[1:] > xs[:-1], gains, -np.inf)
    i = int(np.argmax(gains))
    return float((xs[i] + xs[i + 1]) / 2), float(gains[i])


def test_best_threshold_following_the_gain_formula_literally_passes(capsys):
    x, y = np.array([5.0, 2.0, 6.0, 3.0, 1.0, 4.0]), np.array([0, 0, 0, 1, 0, 1])
    assert literal_best_threshold(x, y)[0] != pk.growing.best_threshold_split(
        x[:, None], y, "gini").threshold                  # the tie case splits the other way
    ch01.check_best_threshold(literal_best_threshold)
    assert capsys.readouterr().out == "✓ best_threshold: all 12 checks passed.\n"

