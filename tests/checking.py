"""Helpers for the tests of the exercise checks."""

import pytest

from prunekit.checks import CheckFailed


def failure_message(check, func, *args, **kwargs) -> str:
    """Run ``check(func, ...)``, which must fail, and return its message."""
    with pytest.raises(CheckFailed) as info:
        check(func, *args, **kwargs)
    message = str(info.value)
    assert message.startswith("✗ ")
    return message
