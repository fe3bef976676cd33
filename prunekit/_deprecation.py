"""The deprecation path of names that moved to another module, and of renamed parameters.

A name keeps working at its old address until version :data:`REMOVAL`, with a
``DeprecationWarning`` that names its new module: a whole module that was split
(:func:`warn_module_moved`, called from the old module's top level) or single names that
left a module that stays (:func:`moved_names`, the old module's ``__getattr__``). A renamed
parameter keeps its old keyword (:func:`renamed_parameter`), and a renamed value of a
parameter its old spelling (:func:`warn_renamed_value`), with a warning that gives the new
spelling and names the caller's line.
"""

from __future__ import annotations

import functools
import importlib
import os
import sys
import warnings

__all__ = ["REMOVAL", "warn_module_moved", "moved_names", "renamed_parameter",
           "warn_renamed_value"]

#: The version that removes the old addresses.
REMOVAL = "0.4"


def _importer(frame):
    """The frame above ``frame`` that ``warnings.warn`` counts: the import system's bootstrap
    frames are skipped (as ``warnings`` skips them)."""
    frame = frame.f_back
    while frame is not None and ("importlib" in frame.f_code.co_filename
                                 and "_bootstrap" in frame.f_code.co_filename):
        frame = frame.f_back
    return frame


def warn_module_moved(old: str, new: list[str]) -> None:
    """Warn that module ``old`` is deprecated in favour of the modules ``new``.

    Called from the top level of ``old``, so it runs once, when ``old`` is first imported;
    the warning names the line that imports it, as a warning from a function names its
    caller: past the import system (which ``warnings`` skips itself, but for
    ``importlib.import_module``) and past ``prunekit.__getattr__``, which imports ``old`` for
    ``prunekit.<old>``.
    """
    # stacklevel 1 is this function, 2 the old module's top level, 3 the code importing it
    level, frame = 3, _importer(sys._getframe(1))
    while frame is not None and (frame.f_code.co_filename == importlib.__file__
                                 or frame.f_globals.get("__name__") == "prunekit"):
        level, frame = level + 1, _importer(frame)
    warnings.warn(f"{old} is deprecated; import from {', '.join(new)}; it will be removed in "
                  f"{REMOVAL}.", DeprecationWarning, stacklevel=level)


def moved_names(module: str, moves: dict[str, str]):
    """A module ``__getattr__`` that still gives the names that left ``module``.

    Parameters
    ----------
    module : str
        The old module's name.
    moves : dict
        The new module of every name that left, or ``"module:new_name"`` for a name that
        was renamed as well (a renamed constant: ``"prunekit.optimal:OPTIMAL_RISKS"``).

    Returns
    -------
    callable
        ``__getattr__(name)``: the name from its new module, with a ``DeprecationWarning``
        that says where to import it from; an ``AttributeError`` for any other name.
    """
    def __getattr__(name: str):
        if name not in moves:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        new_module, _, new_name = moves[name].partition(":")
        if new_name:
            advice = f"use {new_module}.{new_name}"
        else:
            new_name, advice = name, f"import it from {new_module}"
        warnings.warn(f"{module}.{name} is deprecated; {advice}; {module} will "
                      f"stop providing it in {REMOVAL}.", DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(new_module), new_name)
    return __getattr__


_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _caller_outside_the_library() -> int:
    """The ``stacklevel`` that makes a warning given by the function calling this one name
    the first line outside prunekit: the user's call, however deep in the library the old
    spelling was found."""
    level, frame = 1, sys._getframe(1)
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE):
        level, frame = level + 1, frame.f_back
    return level


def renamed_parameter(old: str, new: str):
    """A decorator: the parameter ``new`` of the function is still accepted under its former
    keyword ``old`` until :data:`REMOVAL`, with a ``DeprecationWarning`` giving the new one.

    The function's signature (``inspect.signature``, the documentation) shows ``new`` only.
    """
    def decorate(function):
        # a constructor is named by its class, as it is called
        name = function.__qualname__.removesuffix(".__init__")

        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            if old in kwargs:
                if new in kwargs:
                    raise TypeError(f"{name}() got both {old}= and {new}=; {old} "
                                    f"is the former name of {new}: give {new}= only.")
                warnings.warn(f"{name}(): the parameter {old} is now called "
                              f"{new}; write {new}= instead of {old}=, which will stop "
                              f"working in {REMOVAL}.", DeprecationWarning,
                              stacklevel=_caller_outside_the_library())
                kwargs[new] = kwargs.pop(old)
            return function(*args, **kwargs)
        return wrapper
    return decorate


def warn_renamed_value(parameter: str, old: str, new: str) -> str:
    """Warn that the value ``old`` of ``parameter`` is now spelt ``new``; return ``new``.

    The warning names the first line outside prunekit, the call that passed ``old``.
    """
    warnings.warn(f"{parameter}={old!r} is deprecated; write {parameter}={new!r}. {old!r} "
                  f"will stop working in {REMOVAL}.", DeprecationWarning,
                  stacklevel=_caller_outside_the_library())
    return new
