"""The naming rule of the public API (README, "The library").

A pruner function is named after its method (``pk.reduced_error`` performs reduced-error
pruning); a module that implements one method carries the suffix ``_pruning``; no module shares
its name with a function, so ``import prunekit.X as m`` always gives a module.
"""

import importlib
import pkgutil
import re
import types
from pathlib import Path

import prunekit as pk

MODULES = sorted(name for _, name, _ in pkgutil.iter_modules(pk.__path__))
README = Path(__file__).resolve().parents[1] / "README.md"


def test_no_public_name_is_also_a_module_name():
    for name in pk.__all__:
        value = getattr(pk, name)
        if name in MODULES:
            assert isinstance(value, types.ModuleType), (
                f"prunekit.{name} is a {type(value).__name__} and a module")


def test_import_as_gives_the_module():
    for name in MODULES:
        module = importlib.import_module(f"prunekit.{name}")
        assert isinstance(module, types.ModuleType)
        assert module.__name__ == f"prunekit.{name}"


def test_every_exported_name_exists_and_is_listed_in_all():
    for name in pk.__all__:
        assert hasattr(pk, name), name
    for module in ("error_based_pruning", "pessimistic_pruning", "minimum_error_pruning",
                   "critical_value_pruning", "k_reduced_error_pruning", "rademacher", "bounds"):
        mod = importlib.import_module(f"prunekit.{module}")
        for name in getattr(mod, "__all__", []):
            assert hasattr(mod, name), f"prunekit.{module}.{name}"


def test_readme_names_every_pruner_module_and_function():
    text = README.read_text(encoding="utf-8")
    section = text.split("## The library", 1)[1].split("\n## ", 1)[0]
    for name in MODULES:
        if name.endswith("_pruning"):
            assert f"prunekit.{name}" in section, name
    functions = [n for n in pk.__all__
                 if callable(getattr(pk, n)) and n[0].islower()
                 and not isinstance(getattr(pk, n), types.ModuleType)]
    missing = [n for n in functions if not re.search(rf"\bpk\.{n}\b", section)]
    assert not missing, f"README library section lacks {missing}"
