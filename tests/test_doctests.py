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


#: The widest example line the Library reference's code box shows without scrolling at
#: 1280 px (the browser test measures the box itself).
EXAMPLE_WIDTH = 72


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_fit_the_references_code_box(name):
    wide = [f"{test.name}: {line}" for test in
            doctest.DocTestFinder().find(importlib.import_module(name))
            for example in test.examples
            for line in (">>> " + example.source).splitlines()
            if len(line) > EXAMPLE_WIDTH]
    assert not wide, f"example lines over {EXAMPLE_WIDTH} characters: {wide}"
