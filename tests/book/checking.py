"""Helpers for the tests of the exercise checks: run a check that must fail, and build the
wrong solutions (mutants) that a check must reject."""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import pytest

from pdtbook.checks import ARRAY_HINT, CheckFailed


def failure(check, func, *args, **kwargs) -> CheckFailed:
    """Run ``check(func, ...)``, which must fail, and return its :class:`CheckFailed`."""
    with pytest.raises(CheckFailed) as info:
        check(func, *args, **kwargs)
    assert str(info.value).startswith("✗ ")
    return info.value


def failure_message(check, func, *args, **kwargs) -> str:
    """Run ``check(func, ...)``, which must fail, and return its message."""
    return str(failure(check, func, *args, **kwargs))


def assert_hint(check, func, hint: str, *args, **kwargs) -> CheckFailed:
    """``check(func, ...)`` must fail with exactly ``hint`` as its hint (so with no other)."""
    error = failure(check, func, *args, **kwargs)
    assert error.hint == hint, f"expected the hint\n  {hint!r}\ngot\n  {error.hint!r}"
    return error


def ignoring(func: Callable, position: int, value) -> Callable:
    """``func`` with its positional argument ``position`` replaced by the fixed ``value``: a
    solution that ignores that argument (e.g. hard-codes ``delta = 0.05``)."""
    @functools.wraps(func)
    def wrong(*args, **kwargs):
        args = list(args)
        args[position] = value
        return func(*args, **kwargs)
    return wrong


def mutating(func: Callable, position: int) -> Callable:
    """``func`` that, after computing its answer, writes into its argument ``position`` (an
    array or a list): a solution that changes its input in place."""
    @functools.wraps(func)
    def wrong(*args, **kwargs):
        answer = func(*args, **kwargs)
        target = args[position]
        if isinstance(target, np.ndarray):
            flat = target.reshape(-1)
            flat[0] = (not flat[0]) if target.dtype == bool else flat[0] + 1
        else:
            target.append(target[0])
        return answer
    return wrong


def not_implemented(*args, **kwargs):
    """An exercise function not written yet."""
    raise NotImplementedError()


def retyped(func: Callable, convert: Callable, item: int | None = None) -> Callable:
    """``func`` whose answer (or the item ``item`` of its tuple answer) is passed through
    ``convert``: ``np.array`` gives a 0-dimensional array, ``np.float64`` a NumPy scalar."""
    @functools.wraps(func)
    def wrong(*args, **kwargs):
        answer = func(*args, **kwargs)
        if item is None:
            return convert(answer)
        answer = list(answer)
        answer[item] = convert(answer[item])
        return tuple(answer)
    return wrong


def assert_one_type_policy(capsys, check, correct, item, scalar, args=()) -> None:
    """The checks' one policy for numbers: ``correct`` with its answer (or the item ``item``
    of it) turned into a 0-d array is refused with :data:`ARRAY_HINT`; turned into the NumPy
    scalar type ``scalar`` (unless None) it passes."""
    assert_hint(check, retyped(correct, np.array, item), ARRAY_HINT, *args)
    if scalar is not None:
        check(retyped(correct, scalar, item), *args)
        assert capsys.readouterr().out.startswith("✓ ")
