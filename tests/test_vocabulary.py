"""One vocabulary across the core library (README, "One vocabulary").

Read from the signatures of every public function and class of the core: the pruning sample
is ``X_prune, y_prune``, right after the tree; the growing sample ``X, y``; randomness
``random_state``; ``delta`` is the last parameter of a bound and has a default; the risk of
cost-complexity pruning is ``risk`` (``criterion`` names a grower's split criterion only).
Across the whole package, private modules included, one upper-case module constant name means
one thing: no two modules define a constant of the same name.
"""

import ast
import importlib
import inspect
import pkgutil

import pytest

import prunekit

FORBIDDEN = {
    "rng": "random_state", "seed": "random_state", "X_val": "X_prune", "y_val": "y_prune",
    "X_pruning": "X_prune", "y_pruning": "y_prune",
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
}


def _core_modules():
    for info in pkgutil.walk_packages(prunekit.__path__, "prunekit."):
        if not info.name.startswith("pdtbook") and "._" not in info.name:
            yield importlib.import_module(info.name)


def _public_callables():
    seen = set()
    for module in _core_modules():
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


SIGNATURES = dict(_public_callables())


def _names(signature):
    return [name for name in signature.parameters if name != "self"]


def test_the_scan_sees_the_library():
    assert "prunekit.rademacher.rademacher_penalty" in SIGNATURES
    assert "prunekit.estimator.PrunedTreeClassifier" in SIGNATURES
    assert len(SIGNATURES) > 100


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_one_vocabulary(name):
    parameters = _names(SIGNATURES[name])
    for wrong, right in FORBIDDEN.items():
        assert wrong not in parameters, f"{name}: call {wrong!r} {right!r}"
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
        default = SIGNATURES[name].parameters["criterion"].default
        assert default not in ("error", "impurity"), (
            f"{name}: a cost-complexity risk is called 'risk', not 'criterion'")


@pytest.mark.parametrize("name", sorted(n for n in SIGNATURES if n.startswith("prunekit.bounds.")
                                        and "delta" in _names(SIGNATURES[n])))
def test_delta_is_the_last_parameter_of_a_bound_and_has_a_default(name):
    signature = SIGNATURES[name]
    assert _names(signature)[-1] == "delta", name
    assert signature.parameters["delta"].default == 0.05, name


def _module_constants():
    """Per upper-case name, the modules of the whole package whose top level assigns it."""
    assigned = {}
    for info in pkgutil.walk_packages(prunekit.__path__, "prunekit."):
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


def test_the_constant_scan_sees_the_package():
    assert {"RISKS", "PEP_ORDERS", "IMPURITY_FUNCTIONS"} <= set(CONSTANTS)


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
