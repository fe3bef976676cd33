"""The examples in the library's docstrings run and print what they show (doctest)."""

import doctest
import importlib
import pkgutil

import pytest

import prunekit

MODULES = sorted(info.name for info in pkgutil.walk_packages(prunekit.__path__, "prunekit."))


def test_some_docstrings_have_examples():
    examples = sum(len(test.examples) for name in MODULES
                   for test in doctest.DocTestFinder().find(importlib.import_module(name)))
    assert examples >= 10


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS,
                             verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed"
