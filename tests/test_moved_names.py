"""The names that moved keep working at their old addresses until 0.4, with a warning.

``prunekit.heuristics`` was split into one module per method; k-REP left
``prunekit.rademacher`` for ``prunekit.k_reduced_error_pruning``; the pruners left
``prunekit.estimator`` for the modules of their methods (their base classes for
``prunekit.pruner``); the pruning template left ``prunekit.growing`` for
``prunekit.bottom_up_pruning``. Each old address gives the very object of the new one and a
``DeprecationWarning`` that names the new module and the line that used the old address. The
library itself uses none of them.
"""

import ast
import importlib
import pickle
import re
import sys
from pathlib import Path

import pytest

import prunekit as pk

PACKAGE = Path(pk.__file__).resolve().parent

HEURISTICS = {
    "prunekit.error_based_pruning": [
        "upper_confidence_limit", "estimated_errors", "collapse", "error_based",
        "error_based_raising", "_normal_inverse",
        "_added_errors", "_node_estimates"],
    "prunekit.pessimistic_pruning": [
        "PEP_ORDERS", "PessimisticErrors", "pessimistic_errors", "pessimistic_standard_error",
        "pessimistic"],
    "prunekit.minimum_error_pruning": [
        "MinimumErrorEstimates", "m_estimate_error", "minimum_error_estimates",
        "minimum_error"],
    "prunekit.critical_value_pruning": [
        "SELECTION_MEASURES", "split_measure", "CriticalValuePath", "critical_value_path",
        "critical_value"],
}

# Names that left a module that stays, by old module; each warning names the new one.
MOVED = {
    "prunekit.rademacher": ["growing_errors_of_tree", "growing_error_budget", "min_plus_merge",
                            "k_reduced_error", "k_reduced_error_frontier"],
    "prunekit.estimator": ["Pruner", "HoldoutPruner", "CostComplexityPruner",
                           "CrossValidatedCostComplexityPruner", "RULES", "KearnsMansourPruner",
                           "NobelPruner", "KReducedErrorPruner", "RademacherBoundPruner",
                           "PessimisticPruner", "MinimumErrorPruner", "ErrorBasedPruner",
                           "CriticalValuePruner", "ReducedErrorPruner"],
    "prunekit.growing": ["bottom_up_prune", "TemplateStep"],
}


def _fresh_import_of_heuristics():
    """Import prunekit.heuristics as for the first time (its warning is given on import)."""
    sys.modules.pop("prunekit.heuristics", None)
    if "heuristics" in vars(pk):
        delattr(pk, "heuristics")
    return importlib.import_module("prunekit.heuristics")


def test_the_heuristics_module_gives_every_name_from_its_new_module_and_warns():
    with pytest.warns(DeprecationWarning) as record:
        old = _fresh_import_of_heuristics()
    message = str(record[0].message)
    assert message.startswith("prunekit.heuristics is deprecated; import from "
                              "prunekit.error_based_pruning, prunekit.pessimistic_pruning")
    assert message.endswith("it will be removed in 0.4.")
    for module, names in HEURISTICS.items():
        new = importlib.import_module(module)
        for name in names:
            assert getattr(old, name) is getattr(new, name), name
    public = [name for names in HEURISTICS.values() for name in names if name[0] != "_"]
    assert sorted(old.__all__) == sorted(public)


def test_the_warning_names_the_line_that_imports_the_old_module():
    for statement in ("import prunekit.heuristics", "from prunekit import heuristics",
                      "from prunekit.heuristics import collapse",
                      "import importlib; importlib.import_module('prunekit.heuristics')"):
        sys.modules.pop("prunekit.heuristics", None)
        vars(pk).pop("heuristics", None)
        with pytest.warns(DeprecationWarning) as record:
            exec(compile(statement, __file__, "exec"), {})
        assert [Path(w.filename) for w in record] == [Path(__file__)], statement


def test_prunekit_heuristics_is_still_an_attribute_of_the_package():
    sys.modules.pop("prunekit.heuristics", None)
    vars(pk).pop("heuristics", None)
    with pytest.warns(DeprecationWarning, match="prunekit.heuristics is deprecated") as record:
        collapse = pk.heuristics.collapse
    assert Path(record[0].filename) == Path(__file__)
    assert collapse is importlib.import_module("prunekit.error_based_pruning").collapse
    with pytest.raises(AttributeError, match="no attribute 'heuristic'"):
        pk.heuristic                                                    # noqa: B018


@pytest.mark.parametrize("old, name", [(old, name) for old, names in MOVED.items()
                                       for name in names])
def test_a_name_that_left_a_module_is_still_there_with_a_warning(old, name):
    module = importlib.import_module(old)
    with pytest.warns(DeprecationWarning) as record:
        value = getattr(module, name)
    found = re.fullmatch(rf"{old}\.{name} is deprecated; import it from (prunekit\.\w+); "
                         rf"{old} will stop providing it in 0\.4\.", str(record[0].message))
    assert found, str(record[0].message)
    new = found.group(1)
    assert new != old and value is getattr(importlib.import_module(new), name)
    assert name in importlib.import_module(new).__all__
    assert Path(record[0].filename) == Path(__file__)
    assert name not in getattr(module, "__all__", ())
    with pytest.warns(DeprecationWarning):
        exec(f"from {old} import {name}", {})


def test_other_names_are_still_unknown():
    for old in MOVED:
        with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
            getattr(importlib.import_module(old), "no_such_name")


def test_an_object_pickled_under_the_old_address_loads():
    """A pickle names a class by module and name: one pickled before the move still loads."""
    with pytest.warns(DeprecationWarning, match="prunekit.estimator.ErrorBasedPruner"):
        cls = pickle.loads(b"cprunekit.estimator\nErrorBasedPruner\n.")
    assert cls is pk.ErrorBasedPruner


def _deprecated_imports(path: Path) -> list[str]:
    """The imports of an old address in one module's source."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "prunekit.heuristics" or (
                    node.module == "prunekit" and any(a.name == "heuristics" for a in node.names)):
                found.append(f"line {node.lineno}: from {node.module} import ...")
            for alias in node.names:
                if alias.name in MOVED.get(node.module, ()):
                    found.append(f"line {node.lineno}: from {node.module} import {alias.name}")
        elif isinstance(node, ast.Import):
            found += [f"line {node.lineno}: import {alias.name}" for alias in node.names
                      if alias.name == "prunekit.heuristics"]
    return found


def test_the_library_uses_no_old_address():
    offending = {str(path.relative_to(PACKAGE.parent)): found
                 for path in sorted(PACKAGE.glob("*.py")) if path.name != "heuristics.py"
                 if (found := _deprecated_imports(path))}
    assert offending == {}


def test_the_check_sees_every_form_of_old_import(tmp_path):
    source = tmp_path / "example.py"
    source.write_text("import prunekit.heuristics\n"
                      "from prunekit import heuristics, tree\n"
                      "from prunekit.heuristics import collapse\n"
                      "from prunekit.rademacher import draw_signs, k_reduced_error\n"
                      "from prunekit.estimator import PrunedTreeClassifier\n"
                      "from prunekit.estimator import NobelPruner\n")
    found = _deprecated_imports(source)
    assert [line.split(":")[0] for line in found] == ["line 1", "line 2", "line 3", "line 4",
                                                      "line 6"]
