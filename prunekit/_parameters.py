"""Declared parameter checks: one declaration per pruning method, shared by its function and
its :class:`~prunekit.pruner.Pruner`.

A method declares, next to its function, a dictionary from each parameter's name to a check
``check(value, name) -> value``, which returns the value (converted where needed, e.g. to a
float) or raises a ``ValueError`` or ``TypeError`` whose message names the parameter. The
function validates its arguments with :func:`check_parameters`; the method's Pruner class
declares the same checks, plus those of its own parameters, as ``_parameter_checks``, and
:func:`validate_parameters` applies them when it prunes and when
:class:`~prunekit.PrunedTreeClassifier` fits. Both paths run the same checks, so a bad value
gets the same message whichever way it is given. A check that needs the tree (a prior with
one probability per class, say) stays in the function and runs when the tree is known.
"""

from __future__ import annotations

from functools import partial

import numpy as np

__all__ = ["describe", "constraint", "optional", "checked_where_used", "check_parameters",
           "validate_parameters"]


def describe(value) -> str:
    """A short description of ``value`` for an error message (never a whole array's repr)."""
    shape = getattr(value, "shape", None)
    if isinstance(shape, tuple) and len(shape) > 0:
        return f"a {type(value).__name__} of shape {shape}"
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:57]}..."


def constraint(check, **options):
    """The check ``check(value, name, **options)`` as a check of a declaration, e.g.
    ``constraint(check_real, minimum=0)`` for a real number >= 0."""
    return partial(check, **options)


def optional(check):
    """``None``, or a value that passes ``check``."""
    def check_optional(value, name: str):
        return None if value is None else check(value, name)
    return check_optional


def checked_where_used(value, name: str):
    """No check here: the value is checked by the code it is passed to (scikit-learn's
    grower, ``check_random_state``), or by the method's function once the tree is known."""
    return value


def check_parameters(checks: dict, **values) -> tuple:
    """Validate a function's arguments with its declaration, in the order they are given.

    ``delta, c = check_parameters(_CHECKS, delta=delta, c=c)`` returns the checked values in
    that order.
    """
    return tuple(checks[name](value, name) for name, value in values.items())


def validate_parameters(owner: str, checks: dict, params: dict, arrays=()) -> dict:
    """Validate an object's parameters with its declaration; return the checked values.

    Every parameter not named in ``arrays`` must first be a single value (an array there is
    typically a swapped argument, and its repr would swamp the message); then its check runs.
    A parameter without a check (that of a user's Pruner subclass that declares none) passes
    as it is.

    Parameters
    ----------
    owner : str
        The class name, for the single-value message.
    checks : dict
        The declaration: a check for every parameter in ``params``.
    params : dict
        The parameters, as ``get_params(deep=False)`` gives them.
    arrays : sequence of str
        The parameters that may hold arrays.
    """
    for name, value in params.items():
        if name not in arrays and np.ndim(value) > 0 and hasattr(value, "shape"):
            raise TypeError(f"{owner}: {name} must be a single value, got {describe(value)}.")
    return {name: checks.get(name, checked_where_used)(value, name)
            for name, value in params.items()}
