"""One vocabulary across the library and the book's package (README, "One vocabulary").

Read from the signatures of every public function and class of the core (``prunekit``) and of
the book's package (``pdtbook``): the pruning sample is ``X_prune, y_prune``, right after the
tree; the growing sample ``X, y``; randomness ``random_state``, read by one helper,
:func:`prunekit.validation.check_random_state`; ``delta`` is the last parameter of a bound and
has a default; a grower's impurity is ``criterion``, with scikit-learn's values; the risk of
cost-complexity pruning and of optimal trees is ``risk``; ``objective`` is the
pruning template's function of (error, size) only; ``measure`` is critical-value pruning's split-selection
measure and nothing else. Across both packages, private modules included, one upper-case
module constant name means one thing: no two modules define a constant of the same name.
"""

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import numpy as np
import pytest

import pdtbook
import prunekit
from prunekit import validation
from sklearn.utils import check_random_state as sklearn_random_state

FORBIDDEN = {
    "rng": "random_state", "seed": "random_state", "X_val": "X_prune", "y_val": "y_prune",
    "X_pruning": "X_prune", "y_pruning": "y_prune",
}

# Parameters that keep a forbidden name, each for a reason.
ALLOWED = {
    # mirrors the student's rep_test_error(fraction, seed), which the check compares with it
    # argument for argument (Exercise 3.4); one integer, not a source of randomness
    ("pdtbook.checks.ch03.rep_experiment", "seed"),
}

# Functions of a tree that take its growing sample (or any sample), not a pruning sample.
GROWING_SAMPLE = {
    "prunekit.error_based_pruning.error_based_raising",     # re-routes the growing sample
    "prunekit.bottom_up_pruning.bottom_up_prune",   # the template judges on the training sample
    "prunekit.tree.Tree.node_counts",               # counts of any sample
    "prunekit.growing.compare_splits",              # the splits a grower makes on its sample
    "prunekit.pruner.Pruner.restructure",           # raising re-routes the growing sample
    "prunekit.error_based_pruning.ErrorBasedPruner.restructure",
    "prunekit.cost_complexity_pruning.CrossValidatedCostComplexityPruner.prune",  # grows trees
    "pdtbook.checks.ch01.explain_template_choice",  # Exercise 1.4: the template's training set
    "pdtbook.figures.ch05.plot_partitions",         # the sample drawn over the tree's cells
}

# The values of a grower's criterion: scikit-learn's, and the book's training error.
CRITERIA = {"gini", "entropy", "log_loss", "train_error"}

# The one module whose parameter "measure" is critical-value pruning's selection measure.
# The one module where ``objective`` is a name: the pruning template's function of (error,
# size) and the value it gave at each step.
OBJECTIVE_MODULE = "prunekit.bottom_up_pruning."
MEASURE_MODULE = "prunekit.critical_value_pruning."


def _modules(package):
    """The public modules of ``package`` (no module whose dotted name has a part with "_")."""
    yield package
    for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
        if "._" not in info.name:
            yield importlib.import_module(info.name)


def _public_callables(package):
    seen = set()
    for module in _modules(package):
        for name, value in vars(module).items():
            if name.startswith("_") or getattr(value, "__module__", None) != module.__name__:
                continue
            if inspect.isclass(value):
                targets = [(f"{module.__name__}.{name}", value.__init__)]
                targets += [(f"{module.__name__}.{name}.{attribute}", method)
                            for attribute, method in vars(value).items()
                            if inspect.isfunction(method) and not attribute.startswith("_")]
            elif inspect.isfunction(value):
                targets = [(f"{module.__name__}.{name}", value)]
            else:
                continue
            for qualified, function in targets:
                if qualified not in seen and inspect.isfunction(function):
                    seen.add(qualified)
                    yield qualified, inspect.signature(function)


SIGNATURES = dict(_public_callables(prunekit))
BOOK_SIGNATURES = dict(_public_callables(pdtbook))
EVERY_SIGNATURE = {**SIGNATURES, **BOOK_SIGNATURES}


def _names(signature):
    return [name for name in signature.parameters if name != "self"]


def test_the_scan_sees_the_library_and_the_book():
    assert "prunekit.rademacher.rademacher_penalty" in SIGNATURES
    assert "prunekit.estimator.PrunedTreeClassifier" in SIGNATURES
    assert len(SIGNATURES) > 100
    assert {"pdtbook.checks.ch02.first_tree_claim", "pdtbook.checks.random_tree",
            "pdtbook.experiments.pruning_share_experiment"} <= set(BOOK_SIGNATURES)
    assert len(BOOK_SIGNATURES) > 100
    assert not set(SIGNATURES) & set(BOOK_SIGNATURES)


def test_every_exception_is_still_needed():
    for name, parameter in ALLOWED:
        assert parameter in _names(EVERY_SIGNATURE[name]), (name, parameter)
    for name in GROWING_SAMPLE:
        assert name in EVERY_SIGNATURE, name


@pytest.mark.parametrize("name", sorted(EVERY_SIGNATURE))
def test_one_vocabulary(name):
    parameters = _names(EVERY_SIGNATURE[name])
    for wrong, right in FORBIDDEN.items():
        assert wrong not in parameters or (name, wrong) in ALLOWED, (
            f"{name}: call {wrong!r} {right!r}")
    for first, second in (("X", "y"), ("X_prune", "y_prune")):
        if first in parameters and second in parameters:
            assert parameters[parameters.index(first) + 1] == second, (
                f"{name}: {first} must be followed by {second}")
    if "X_prune" in parameters and parameters[0] == "tree":
        assert parameters.index("X_prune") == 1, (
            f"{name}: the pruning sample comes right after the tree")
    if parameters[:2] == ["tree", "X"] or (parameters[:1] == ["tree"] and "X" in parameters):
        assert name in GROWING_SAMPLE, (
            f"{name}: a sample given with a tree is the pruning sample, X_prune, y_prune")
    if "criterion" in parameters:
        default = EVERY_SIGNATURE[name].parameters["criterion"].default
        assert default not in ("error", "impurity"), (
            f"{name}: a cost-complexity risk is called 'risk', not 'criterion'")
        assert default in (inspect.Parameter.empty, None) or default in CRITERIA, (
            f"{name}: a grower's criterion takes scikit-learn's values {sorted(CRITERIA)}, "
            f"not {default!r}")
    if "measure" in parameters:
        assert name.startswith(MEASURE_MODULE), (
            f"{name}: 'measure' is critical-value pruning's selection measure only; a "
            f"grower's impurity is 'criterion'")
    if "objective" in parameters:
        assert name.startswith(OBJECTIVE_MODULE), (
            f"{name}: 'objective' is the pruning template's function of (error, size) only; "
            f"a leaf's risk is 'risk'")


@pytest.mark.parametrize("name", sorted(n for n in SIGNATURES if n.startswith("prunekit.bounds.")
                                        and "delta" in _names(SIGNATURES[n])))
def test_delta_is_the_last_parameter_of_a_bound_and_has_a_default(name):
    signature = SIGNATURES[name]
    assert _names(signature)[-1] == "delta", name
    assert signature.parameters["delta"].default == 0.05, name


# ---------------------------------------------------------------------- randomness
def test_check_random_state_reads_every_random_state_of_scikit_learn():
    """An int seeds numpy.random.default_rng, so every draw prunekit made from a seed is the
    same; a Generator or a RandomState is drawn from; None is numpy's global generator."""
    check = validation.check_random_state
    assert check(3).integers(10**9) == np.random.default_rng(3).integers(10**9)
    generator = np.random.default_rng(4)
    assert check(generator) is generator
    legacy = np.random.RandomState(5)
    assert check(legacy).bit_generator is legacy._bit_generator
    assert check(None).bit_generator is np.random.get_bit_generator()
    # legacy=True: scikit-learn's RandomState, which the data sets draw from
    assert check(3, legacy=True).randint(10**9) == np.random.RandomState(3).randint(10**9)
    assert check(legacy, legacy=True) is legacy
    assert check(None, legacy=True) is sklearn_random_state(None)
    assert check(generator, legacy=True)._bit_generator is generator.bit_generator
    assert validation.check_seed(3).randint(10**9) == np.random.RandomState(3).randint(10**9)
    for bad in ("0", 1.0, True, np.random.SeedSequence(0), [0]):
        for legacy_option in (False, True):
            with pytest.raises(TypeError, match="random_state must be None, an int seed"):
                check(bad, legacy=legacy_option)
            with pytest.raises(ValueError):                 # as scikit-learn's check raises
                check(bad, legacy=legacy_option)
    with pytest.raises(ValueError, match="random_state must be a non-negative seed, got -1"):
        check(-1)


# The library's modules that still read a random_state without check_random_state, and how
# (none: every module passes it through prunekit.validation.check_random_state).
NOT_YET_SWITCHED = {}

# Calls that make a generator of a random_state other than check_random_state's.
_OTHER_READERS = {"check_seed", "default_rng", "RandomState"}


def _readers_of_randomness(path: Path) -> set[str]:
    """The ways the module at ``path`` turns a random_state into a generator: calls of
    check_seed, numpy.random.default_rng or RandomState, and imports of scikit-learn's
    check_random_state."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("sklearn"):
            if any(alias.name == "check_random_state" for alias in node.names):
                found.add("sklearn.utils.check_random_state")
        elif isinstance(node, ast.Call):
            function = node.func
            called = getattr(function, "attr", getattr(function, "id", None))
            if called in _OTHER_READERS:
                found.add(called)
    return found


def test_the_library_reads_randomness_through_check_random_state_only():
    package = Path(prunekit.__file__).parent
    readers = {path.name: found for path in sorted(package.glob("*.py"))
               if path.name != "validation.py" and (found := _readers_of_randomness(path))}
    assert {name: sorted(found) for name, found in readers.items()} == {
        name: [how] for name, how in NOT_YET_SWITCHED.items()}


@pytest.mark.parametrize("random_state", [0, np.random.default_rng(0),
                                          np.random.RandomState(0), None])
def test_the_functions_that_draw_take_every_kind_of_random_state(random_state):
    from pdtbook.checks import ch02, random_tree
    from prunekit.rademacher import draw_signs

    assert draw_signs(5, random_state).shape == (5,)
    assert random_tree(random_state, 4).n_leaves == 4
    assert ch02.first_tree_claim(n_trees=2, random_state=random_state)["trees"] == 2
    X, y = prunekit.datasets.make_boolean_dnf(120, random_state=random_state)
    assert X.shape == (120, 10)
    assert prunekit.datasets.make_led24(30, random_state=random_state)[0].shape[0] == 30
    for pruner in (None, prunekit.ReducedErrorPruner(random_state=random_state)):
        clf = prunekit.PrunedTreeClassifier(pruner=pruner, random_state=random_state)
        assert clf.fit(X, y).get_n_leaves() >= 1
    selection = prunekit.cross_validate_alpha(X, y, cv=3, random_state=random_state)
    assert 0 <= selection.best <= selection.one_se


def test_an_integer_random_state_draws_what_it_drew_before():
    """The data sets and the classifier read an integer seed as numpy's legacy RandomState."""
    X, y = prunekit.datasets.make_boolean_dnf(50, random_state=3)
    legacy = np.random.RandomState(3)
    assert np.array_equal(X, legacy.randint(0, 2, size=(50, 10)))


# ---------------------------------------------------------------------- module constants
def _module_constants():
    """Per upper-case name, the modules of both packages whose top level assigns it."""
    assigned = {}
    for package in (prunekit, pdtbook):
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            module = importlib.import_module(info.name)
            for node in ast.parse(inspect.getsource(module)).body:
                if isinstance(node, ast.Assign):
                    targets = node.targets
                elif isinstance(node, ast.AnnAssign) and node.value is not None:
                    targets = [node.target]
                else:
                    continue
                for target in targets:
                    letters = getattr(target, "id", "").replace("_", "")
                    if letters and letters.isupper():
                        assigned.setdefault(target.id, []).append(module)
    return assigned


CONSTANTS = _module_constants()


def test_the_constant_scan_sees_both_packages():
    assert {"RISKS", "PEP_ORDERS", "IMPURITY_FUNCTIONS"} <= set(CONSTANTS)
    assert any(module.__name__.startswith("pdtbook.")
               for modules in CONSTANTS.values() for module in modules)


@pytest.mark.parametrize("name", sorted(CONSTANTS))
def test_one_name_for_one_module_constant(name):
    """Two modules may share a constant's name only by sharing the object itself (a module
    that assigns ``NAME = other.NAME``); a number or a string must then be imported instead,
    since equal scalars can be one object by chance."""
    modules = CONSTANTS[name]
    if len(modules) == 1:
        return
    values = [getattr(module, name) for module in modules]
    shared = (all(value is values[0] for value in values)
              and not isinstance(values[0], (int, float, complex, str, bytes, type(None))))
    assert shared, (f"{name} is defined in {', '.join(m.__name__ for m in modules)}: name each "
                    f"for what it holds, or import it from one place")
