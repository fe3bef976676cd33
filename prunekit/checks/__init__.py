"""Automatic feedback for the exercise notebooks.

Every chapter's exercises have a module here (``prunekit.checks.ch01``, ...) whose
``check_*`` functions call the student's function on fixed, seeded cases, compare the answers
with the library, and either print one line ``✓ <name>: all N checks passed.`` or raise
:class:`CheckFailed` with a message that says what is wrong and how to look for the mistake.

The building blocks for writing such checks:

* :class:`Checker` -- runs the student's function (:meth:`Checker.call`), turns a missing
  implementation or an exception of the student's code into a :class:`CheckFailed` that names
  the inputs, counts the cases and prints the success line (:meth:`Checker.passed`);
* :func:`fail` and :func:`failure_message` -- the ``✗ ... / Hint: ...`` message format;
* :func:`describe` and :func:`call_text` -- short, deterministic text for values and calls;
* :func:`as_number` -- accepts a scalar answer (Python or NumPy) and rejects anything else;
* :func:`time_limit` -- a generous wall-clock limit, so that a far too slow implementation
  gets a hint instead of hanging the notebook.

Output is deterministic (no timings, no memory addresses): the exercise solutions are tested
with ``pytest --nbval``, which compares every printed line.
"""

from __future__ import annotations

import contextlib
import copy
import math
import numbers
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Any, NoReturn

import numpy as np

from prunekit.tree import Tree

__all__ = [
    "CheckFailed", "Checker", "fail", "failure_message", "describe", "call_text",
    "as_number", "close", "time_limit", "TimeLimitExceeded", "random_tree",
]

NOT_IMPLEMENTED = "replace `raise NotImplementedError()` with your code."


class CheckFailed(AssertionError):
    """A check of an exercise failed.

    The message has the form ``✗ <what is wrong>`` followed, where the check can tell, by a
    line ``Hint: <where to look>``. ``hint`` holds the hint alone (or ``None``).
    """

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.hint = hint


def failure_message(what: str, hint: str | None = None) -> str:
    """The text of a failed check: ``✗ what`` and, if given, ``Hint: hint`` on a new line."""
    text = f"✗ {what}"
    if hint:
        text += f"\nHint: {hint}"
    return text


def fail(what: str, hint: str | None = None) -> NoReturn:
    """Raise :class:`CheckFailed` with the message ``✗ what`` and an optional hint."""
    __tracebackhide__ = True
    raise CheckFailed(failure_message(what, hint), hint)


# ---------------------------------------------------------------------- describing values
def describe(value: Any, max_items: int = 12) -> str:
    """A short, deterministic text for a value shown in a message.

    Floats get 6 significant digits, arrays and lists are printed as lists (cut in the
    middle when longer than ``max_items``, with their length), strings are quoted.
    """
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        value = float(value)
        if math.isnan(value) or math.isinf(value):
            return str(value)
        return f"{value:.6g}"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, tuple):
        inner = ", ".join(describe(v, max_items) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, (list, np.ndarray)):
        items = list(value) if isinstance(value, list) else value.tolist()
        if len(items) <= max_items:
            return "[" + ", ".join(describe(v, max_items) for v in items) + "]"
        half = max_items // 2
        head = ", ".join(describe(v, max_items) for v in items[:half])
        tail = ", ".join(describe(v, max_items) for v in items[-half:])
        return f"[{head}, ..., {tail}] ({len(items)} values)"
    if value is None:
        return "None"
    return type(value).__name__


def call_text(name: str, args: tuple = (), kwargs: dict | None = None) -> str:
    """``name(arg, ..., key=value)`` with every value shortened by :func:`describe`."""
    parts = [describe(a) for a in args]
    parts += [f"{k}={describe(v)}" for k, v in (kwargs or {}).items()]
    return f"{name}({', '.join(parts)})"


def as_number(value: Any, call: str, what: str = "a number") -> float:
    """Convert a scalar answer (Python or NumPy, or a 0-d array) to float, or fail.

    ``call`` is the text of the call that returned ``value`` (see :func:`call_text`).
    """
    __tracebackhide__ = True
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        if isinstance(value, np.ndarray) and value.size == 1:
            fail(f"{call} returned an array of shape {value.shape}; it should return {what}.",
                 "return a single number, e.g. with float(...) around the result.")
        fail(f"{call} returned {describe(value)} (of type {type(value).__name__}); "
             f"it should return {what}.",
             "check the return statement of your function.")
    return float(value)


def close(value: float, expected: float, tol: float = 1e-9) -> bool:
    """Whether two finite numbers agree up to an absolute and relative tolerance ``tol``."""
    if not (math.isfinite(value) and math.isfinite(expected)):
        return value == expected
    return abs(value - expected) <= tol * max(1.0, abs(expected))


# ---------------------------------------------------------------------- time limit
class TimeLimitExceeded(BaseException):
    """Raised inside the student's code when :func:`time_limit` runs out.

    A ``BaseException``, like ``KeyboardInterrupt``, so that an ``except Exception`` in the
    code being timed does not swallow it.
    """


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Interrupt the block with :class:`TimeLimitExceeded` after ``seconds`` of wall time.

    Uses a Unix interval timer, so it works only in the main thread of a Unix process (as in
    a Jupyter kernel); elsewhere the block runs without a limit. Meant for generous limits
    (many times the running time of a reasonable implementation), never for measuring speed.
    """
    usable = (hasattr(signal, "setitimer")
              and threading.current_thread() is threading.main_thread())
    if not usable:
        yield
        return

    def on_alarm(signum, frame):
        raise TimeLimitExceeded(f"still running after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL if previous is None else previous)


# ---------------------------------------------------------------------- running checks
class Checker:
    """Runs one student function on a series of cases and reports the result.

    Parameters
    ----------
    name : str
        Name of the student's function, as written in the exercise.
    func : callable
        The student's function.

    Examples
    --------
    >>> def double(x):
    ...     return 2 * x
    >>> check = Checker("double", double)
    >>> check.expect(check.call(3) == 6, "double(3) should be 6.")
    >>> check.passed()
    ✓ double: all 1 checks passed.
    """

    def __init__(self, name: str, func: Callable):
        __tracebackhide__ = True
        self.name = name
        self.func = func
        self.count = 0
        if not callable(func):
            fail(f"{name} is not a function (it is {describe(func)}).",
                 f"run the cell that defines {name} and do not reuse its name for a value.")

    def call(self, *args, label: str | None = None, seconds: float | None = None, **kwargs):
        """Call the student's function on copies of the arguments and return its answer.

        A ``NotImplementedError`` becomes "<name> is not implemented yet"; any other
        exception becomes a :class:`CheckFailed` naming the call (or ``label``, a short
        description of the inputs) and the exception, chained to it so that the traceback
        still leads to the failing line of the student's code. With ``seconds``, a call
        still running after that many seconds fails with a hint about its speed.
        """
        __tracebackhide__ = True
        shown = label or call_text(self.name, args, kwargs)
        args, kwargs = copy.deepcopy(args), copy.deepcopy(kwargs)
        limit = time_limit(seconds) if seconds is not None else contextlib.nullcontext()
        try:
            with limit:
                return self.func(*args, **kwargs)
        except NotImplementedError:
            raise CheckFailed(
                failure_message(f"{self.name} is not implemented yet: {NOT_IMPLEMENTED}")
            ) from None
        except TimeLimitExceeded:
            hint = (f"a single sort followed by one pass (or one cumulative sum) is enough; "
                    f"recomputing something over the whole sample for every candidate makes "
                    f"{self.name} quadratic in m.")
            raise CheckFailed(
                failure_message(f"{shown} was still running after {seconds:g} seconds.", hint),
                hint) from None
        except CheckFailed:
            raise
        except Exception as exc:  # the student's code raised: report it with the inputs
            hint = "the traceback above shows the line of your code that raised it."
            raise CheckFailed(
                failure_message(f"{shown} raised {type(exc).__name__}: {exc}", hint), hint
            ) from exc

    def expect(self, ok: bool, what: str = "", hint: str | Callable[[], str] | None = None) -> None:
        """Count one check; fail with ``what`` and ``hint`` unless ``ok``.

        ``hint`` may be a function of no arguments, called only when the check fails (to
        diagnose the mistake).
        """
        __tracebackhide__ = True
        if not ok:
            fail(what, hint() if callable(hint) else hint)
        self.count += 1

    def passed(self) -> None:
        """Print the success line ``✓ <name>: all N checks passed.``"""
        print(f"✓ {self.name}: all {self.count} checks passed.")


def random_tree(rng: np.random.Generator, n_leaves: int, n_classes: int = 2,
                max_count: int = 5) -> Tree:
    """A random tree: the shape grows by splitting a random leaf, leaf counts are random
    (at least one example per leaf) and internal counts are the sums of their children's."""
    left, right = [-1], [-1]
    for _ in range(n_leaves - 1):
        leaves = [v for v in range(len(left)) if left[v] == -1]
        v = int(rng.choice(leaves))
        left[v], right[v] = len(left), len(left) + 1
        left += [-1, -1]
        right += [-1, -1]
    counts = np.zeros((len(left), n_classes), dtype=int)
    for v in range(len(left) - 1, -1, -1):        # children have larger indices than parents
        if left[v] == -1:
            counts[v] = rng.integers(0, max_count + 1, n_classes)
            counts[v, rng.integers(n_classes)] += 1
        else:
            counts[v] = counts[left[v]] + counts[right[v]]
    return Tree.from_arrays(left, right, counts)
