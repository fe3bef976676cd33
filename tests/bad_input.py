"""What the bad-input tables of the core (tests/test_bad_input.py) and of the book layer
(tests/book/test_bad_input_book.py) share: the sample objects their calls use, and the checks
that a call raises a clear error, that a valid call is accepted, and that a table names every
public function of its modules.
"""

import re
import warnings

import matplotlib.pyplot as plt
import pandas as pd
import pytest
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

import prunekit as pk
from prunekit.validation import OutOfRangeError

nan, inf = float("nan"), float("inf")
X, y = make_classification(80, 3, n_informative=2, n_redundant=0, random_state=0)
clf = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
T = pk.Tree.from_sklearn(clf, X, y)                                    # a grown tree
C = pk.Tree.from_arrays([1, -1, -1], [2, -1, -1], [[3, 2], [3, 0], [0, 2]])  # counts only
P = pk.Pruning.full(T)
path = pk.cost_complexity_path(T)
sel = pk.holdout_alpha(T, X, y)
TOY = pd.DataFrame([dict(dataset=d, split=0, method=m, test_error=e)   # results of a study
                    for d, errors in (("d1", (0.1, 0.2, 0.3)), ("d2", (0.2, 0.1, 0.3)))
                    for m, e in zip(("rep", "pep", "forest"), errors)])


def mentions(message: str, word: str) -> bool:
    """Whether the message contains ``word`` (a whole word when it is a single letter)."""
    if len(word) == 1:
        return re.search(rf"\b{re.escape(word)}\b", message) is not None
    return word.lower() in message.lower()


def assert_clear_error(call, f, error, word):
    """``call(f)`` raises ``error``, a ValueError/TypeError-like exception whose message
    mentions ``word`` (never a bare KeyError or a decoding error)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(error) as info:
            call(f)
    plt.close("all")
    assert isinstance(info.value, (ValueError, TypeError, AttributeError, FileNotFoundError))
    assert not isinstance(info.value, (KeyError, UnicodeDecodeError)), info.value
    if isinstance(info.value, IndexError):
        assert isinstance(info.value, OutOfRangeError)
    message = str(info.value)
    assert message and mentions(message, word), message


def assert_accepted(call, f):
    """``call(f)`` runs without an error."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        call(f)
    plt.close("all")


def uncovered(labels: str, modules) -> list[str]:
    """The public functions of ``modules`` whose names no label of a table mentions."""
    return [f"{module.__name__}.{name}" for module in modules for name in module.__all__
            if callable(getattr(module, name)) and not isinstance(getattr(module, name), type)
            and name not in labels]


def table_tests(bad_input, valid_input):
    """The two tests of a table, parametrised by its rows: every bad call gets a clear error
    (:func:`assert_clear_error`), every valid call is accepted. Both use a fixture ``f``
    (what the calls draw into or read) that the test module defines."""

    @pytest.mark.parametrize("call, error, word",
                             [pytest.param(c, e, w, id=i) for i, c, e, w in bad_input])
    def test_bad_input_gets_a_clear_error(f, call, error, word):
        assert_clear_error(call, f, error, word)

    @pytest.mark.parametrize("call", [pytest.param(c, id=i) for i, c in valid_input])
    def test_valid_input_is_accepted(f, call):
        assert_accepted(call, f)

    return test_bad_input_gets_a_clear_error, test_valid_input_is_accepted
