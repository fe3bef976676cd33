"""Automatic feedback for the exercise notebooks.

Every chapter's exercises have a module here (``pdtbook.checks.ch01``, ...) whose
``check_*`` functions call the student's function on fixed, seeded cases, compare the answers
with the library, and either print one line ``✓ <name>: all N checks passed.`` or raise
:class:`CheckFailed` with a message that says what is wrong and how to look for the mistake.

The building blocks for writing such checks:

* :class:`Checker` -- runs the student's function (:meth:`Checker.call`), turns a missing
  implementation or an exception of the student's code into a :class:`CheckFailed` that names
  the inputs, counts the cases and prints the success line (:meth:`Checker.passed`);
* :func:`fail` and :func:`failure_message` -- the ``✗ ... / Hint: ...`` message format;
* :func:`describe` and :func:`call_text` -- short, deterministic text for values and calls;
* :func:`as_number`, :func:`as_float`, :func:`as_int` -- accept a scalar answer of the type the
  exercise asks for (Python or NumPy, or only Python's ``float`` and ``int`` where the
  statement says so) and reject anything else with a message saying so;
  :func:`is_python_int` tells a Python ``int`` from a NumPy integer;
* :func:`number_answer`, :func:`float_answer`, :func:`int_answer` -- the same with the one
  policy of the exercise checks: a numeric answer is a Python number or a NumPy scalar
  (``np.float64``, ``np.int64``), a :class:`fractions.Fraction` only where the statement
  welcomes fractions, and never a 0-dimensional NumPy array, which is refused everywhere with
  :data:`ARRAY_HINT`;
* :func:`distinct` -- rejects a list that names the same item twice;
* :func:`python_ints` -- rejects a list that holds anything but Python ``int`` values;
* :func:`expect_close_float` -- one case of an exercise whose answer is a single float:
  call, accept a float, compare with the reference;
* :func:`time_limit` -- a generous wall-clock limit, so that a far too slow implementation
  gets a hint instead of hanging the notebook.

:meth:`Checker.call` also fails when the student's function changes one of its arguments in
place (it compares every argument after the call with a copy taken before it).

Exercises worked by hand (a decision or a number per question) do not print the worked
solution when an answer is wrong, which would give the answer away: each has an ``explain_*``
function in its chapter's module that prints the worked numbers on request.

Output is deterministic (no timings, no memory addresses): the exercise solutions are tested
with ``pytest --nbval``, which compares every printed line.
"""

from __future__ import annotations

import contextlib
import copy
import inspect
import math
import numbers
import signal
import threading
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any, NoReturn

import numpy as np

from prunekit.tree import Tree
from prunekit.validation import check_random_state

__all__ = [
    "CheckFailed", "Checker", "fail", "failure_message", "describe", "call_text",
    "as_number", "as_float", "as_int", "distinct", "close", "time_limit", "TimeLimitExceeded",
    "random_tree", "SLOW_HINT", "NUMPY_INT_HINT", "explaining_mistake", "is_python_int",
    "expect_close_float", "python_ints", "mistake_variants", "ARRAY_HINT", "not_an_array",
    "number_answer", "float_answer", "int_answer",
]

NOT_IMPLEMENTED = "replace `raise NotImplementedError()` with your code."

NUMPY_INT_HINT = ("return a Python int: NumPy's sums, indexing and np.flatnonzero give NumPy "
                  "integers (numpy.int64), which are a different type; int(...) converts one.")

ARRAY_HINT = ("return a number, not a NumPy array: x.item() turns a 0-dimensional array x into "
              "a Python number (so do float(x) and int(x)); np.array(x) and np.asarray(x) of a "
              "number give such an array.")

SLOW_HINT = ("a reasonable implementation finishes this case in a few seconds; look for work "
             "that is repeated far more often than needed (a loop inside a loop over the data).")


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


def as_float(value: Any, call: str, what: str = "a float", *, array_ok: bool = True) -> float:
    """Accept a float answer (Python ``float`` or a NumPy floating scalar), or fail.

    Integers are refused although their value might be right: the exercise asks for a float,
    and ``min(1, x)`` or ``0`` where ``0.0`` was meant are the usual ways an int slips out.
    With ``array_ok=False`` a 0-dimensional NumPy array (what ``np.array(x)`` or
    ``np.asarray(x)`` of a number gives) is refused too: it prints like a number but is not a
    float.
    """
    __tracebackhide__ = True
    if isinstance(value, np.ndarray) and value.ndim == 0:
        if not array_ok:
            fail(f"{call} returned a 0-dimensional NumPy array, array({describe(value)}); it "
                 f"should return {what}.",
                 "return a Python float, not an array: float(...) around the result converts "
                 "it (np.array(x) and np.asarray(x) of a number give a 0-d array).")
        value = value[()]
    if isinstance(value, (float, np.floating)):
        return float(value)
    if isinstance(value, (numbers.Integral, np.integer)) and not isinstance(value, (bool, np.bool_)):
        fail(f"{call} returned {describe(value)}, an {type(value).__name__}; it should return "
             f"{what}.",
             "return a float, e.g. float(...) around the result (min(1, x) and a literal 0 "
             "give an int).")
    if isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_)):
        fail(f"{call} returned {describe(value)} (of type {type(value).__name__}); it should "
             f"return {what}.", "return a float, e.g. float(...) around the result.")
    return as_number(value, call, what)


def as_int(value: Any, call: str, what: str = "an integer", *, numpy_ok: bool = True) -> int:
    """Accept an integer answer (Python ``int`` or a NumPy integer scalar), or fail.

    Floats are refused even when their value is a whole number, and so are booleans. With
    ``numpy_ok=False`` only a Python ``int`` is accepted: NumPy integer scalars and
    0-dimensional arrays are refused with a hint saying so.
    """
    __tracebackhide__ = True
    if not numpy_ok and isinstance(value, (np.integer, np.ndarray)) and np.ndim(value) == 0 \
            and np.asarray(value).dtype.kind in "iu":
        kind = ("a 0-dimensional NumPy array" if isinstance(value, np.ndarray)
                else f"of type numpy.{type(value).__name__}")
        fail(f"{call} returned {describe(value)}, {kind}; it should return {what} (Python's "
             f"int, not NumPy's).",
             "return a Python int, not an array: int(...) converts it."
             if isinstance(value, np.ndarray) else NUMPY_INT_HINT)
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, (bool, np.bool_)):
        fail(f"{call} returned {value!r}, a boolean; it should return {what}.",
             "return the count itself, an int.")
    if isinstance(value, (numbers.Integral, np.integer)):
        return int(value)
    if isinstance(value, (numbers.Real, np.floating)):
        fail(f"{call} returned {describe(value)}, a {type(value).__name__}; it should return "
             f"{what}.",
             "return an int, e.g. int(...) around the result (a NumPy sum or a division gives "
             "a float).")
    fail(f"{call} returned {describe(value)} (of type {type(value).__name__}); it should "
         f"return {what}.", "check the return statement of your function.")


def not_an_array(value: Any, call: str, what: str = "a number") -> None:
    """Fail with :data:`ARRAY_HINT` if ``value`` is a 0-dimensional NumPy array.

    Such an array (what ``np.array(x)`` or ``np.asarray(x)`` of a number gives) prints like a
    number but is not one: every check of a numeric answer refuses it, with the same hint.

    Examples
    --------
    >>> not_an_array(0.5, "f()")
    >>> try:
    ...     not_an_array(np.array(0.5), "f()", "a float")
    ... except CheckFailed as error:
    ...     print(error.hint == ARRAY_HINT)
    True
    """
    __tracebackhide__ = True
    if isinstance(value, np.ndarray) and value.ndim == 0:
        fail(f"{call} returned a 0-dimensional NumPy array, array({describe(value)}); it should "
             f"return {what}.", ARRAY_HINT)


def number_answer(value: Any, call: str, what: str = "a number", *,
                  fractions: bool = False) -> float:
    """Accept a numeric answer of any kind the checks accept, as a float, or fail.

    A Python ``int`` or ``float`` or a NumPy scalar is accepted; a
    :class:`fractions.Fraction` only with ``fractions=True`` (where the statement welcomes
    fractions); a 0-dimensional array never (:func:`not_an_array`). A Python ``int`` too large
    for a float becomes an infinity of its sign.
    """
    __tracebackhide__ = True
    not_an_array(value, call, what)
    if isinstance(value, Fraction) and not fractions:
        fail(f"{call} returned the Fraction {value}; it should return {what}.",
             "return a float: float(...) converts a Fraction.")
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            return float(value)
        except OverflowError:
            return math.inf if value > 0 else -math.inf
    return as_number(value, call, what)


def float_answer(value: Any, call: str, what: str = "a float") -> float:
    """Accept a float answer (Python ``float`` or a NumPy floating scalar), or fail.

    As :func:`as_float` with ``array_ok=False``, but a 0-dimensional array gets the common
    :data:`ARRAY_HINT` (:func:`not_an_array`).
    """
    __tracebackhide__ = True
    not_an_array(value, call, what)
    return as_float(value, call, what, array_ok=False)


def int_answer(value: Any, call: str, what: str = "an integer", *,
               numpy_ok: bool = True) -> int:
    """Accept an integer answer (Python ``int``, or a NumPy integer unless ``numpy_ok`` is
    false), or fail; a 0-dimensional array gets :data:`ARRAY_HINT` (:func:`not_an_array`)."""
    __tracebackhide__ = True
    not_an_array(value, call, what)
    return as_int(value, call, what, numpy_ok=numpy_ok)


def is_python_int(value: Any) -> bool:
    """Whether ``value`` is a Python ``int`` (not a bool, not a NumPy integer)."""
    return isinstance(value, int) and not isinstance(value, bool)


def distinct(items: list, call: str, noun: str = "item") -> None:
    """Fail if ``items`` (hashable) names the same ``noun`` more than once."""
    __tracebackhide__ = True
    seen = set()
    for item in items:
        if item in seen:
            shown = f" ({describe(item)})" if isinstance(item, (numbers.Number, str)) else ""
            fail(f"{call} lists the same {noun} more than once{shown}.",
                 f"each {noun} should appear once: do not add one that is already there.")
        seen.add(item)


def python_ints(items: list, call: str, shown: str, not_ints: str, hint: str,
                numpy_hint: str) -> None:
    """Fail unless every item of ``items`` is a Python ``int`` (not a bool, not NumPy's).

    Parameters
    ----------
    items : list
        The student's list, e.g. of node indices.
    call : str
        How the call is shown in messages.
    shown : str
        How the list is shown after "returned", e.g. ``"the nodes [1, 2]"``.
    not_ints : str
        What the list should hold, ending the message when an item is not an integer at all.
    hint : str
        The hint when an item is not an integer (a float, a bool, a string, ...).
    numpy_hint : str
        The hint when the items are integers but some are NumPy's.

    Examples
    --------
    >>> python_ints([1, 2], "f()", "[1, 2]", "it should hold ints.",
    ...             "", "")
    >>> python_ints([1, 2.0], "f()", "[1, 2.0]", "not ints.", "use ints.",
    ...             "")
    Traceback (most recent call last):
    ...
    pdtbook.checks.CheckFailed: ✗ f() returned [1, 2.0]; not ints.
    Hint: use ints.
    """
    __tracebackhide__ = True
    if not all(isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))
               for v in items):
        fail(f"{call} returned {shown}; {not_ints}", hint)
    if not all(is_python_int(v) for v in items):
        odd = next(v for v in items if not is_python_int(v))
        fail(f"{call} returned {shown}, among them {describe(odd)} of type "
             f"numpy.{type(odd).__name__}; the list should hold Python ints.", numpy_hint)


def close(value: float, expected: float, tol: float = 1e-9) -> bool:
    """Whether two finite numbers agree up to an absolute and relative tolerance ``tol``."""
    if not (math.isfinite(value) and math.isfinite(expected)):
        return value == expected
    return abs(value - expected) <= tol * max(1.0, abs(expected))


def _close_answers(a: Any, b: Any) -> bool:
    """Whether two answers agree: numbers up to a relative 1e-6, containers elementwise."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close_answers(a[k], b[k]) for k in a)
    if isinstance(a, (tuple, list, np.ndarray)) or isinstance(b, (tuple, list, np.ndarray)):
        try:
            x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        except (TypeError, ValueError):
            return False
        return x.shape == y.shape and bool(np.allclose(x, y, rtol=1e-6, atol=1e-12,
                                                       equal_nan=True))
    try:
        return close(float(a), float(b), 1e-6)
    except (TypeError, ValueError):
        return a == b


def _usable(answer: Any) -> bool:
    """Whether an answer can be compared: not missing, and no nan (infinities are fine)."""
    if answer is None:
        return False
    try:
        return not bool(np.any(np.isnan(np.asarray(answer, dtype=float))))
    except (TypeError, ValueError):
        return isinstance(answer, dict)


def mistake_variants(function: Callable, mistakes: list[tuple[dict, str]]) -> list[tuple]:
    """The usual mistakes of a computation, as :func:`explaining_mistake` takes them.

    Parameters
    ----------
    function : callable
        The computation, with keyword arguments that switch on its usual wrong variants.
    mistakes : list of (dict, str)
        Per mistake, the keyword arguments that make ``function`` commit it, and its hint.

    Returns
    -------
    list of (callable, str)
        Per mistake, ``function`` called with those keyword arguments, and the hint.
    """
    return [(lambda *args, changes=changes: function(*args, **changes), hint)
            for changes, hint in mistakes]


def explaining_mistake(student: Callable, cases: list[tuple], mistakes: list[tuple[Callable, str]],
                       expected: Callable, agree: Callable = _close_answers) -> str | None:
    """The hint of the first mistake that explains every answer of the student's function.

    ``student`` is run again on the arguments of every case (copies, without a time limit:
    use this for cheap cases only); its answers are compared with each mistake's answers
    (``mistake(*args)``, ``None`` where the mistake is undefined). A mistake explains the
    answers if it agrees with the student on every case where both give an answer (not None,
    without nan), and differs from ``expected(*args)`` on at least one of them. Matching every
    case, not just the failing one, keeps a coincidence on one case from naming the wrong
    cause.
    """
    answers = []
    for args in cases:
        try:
            with np.errstate(all="ignore"):
                answers.append(student(*copy.deepcopy(args)))
        except Exception:
            answers.append(None)
    for mistake, hint in mistakes:
        explains, differs = True, False
        for args, answer in zip(cases, answers):
            if not _usable(answer):
                continue
            try:
                with np.errstate(all="ignore"):
                    wrong = mistake(*args)
            except Exception:
                wrong = None
            if not _usable(wrong):
                continue
            if not agree(answer, wrong):
                explains = False
                break
            if not agree(wrong, expected(*args)):
                differs = True
        if explains and differs:
            return hint
    return None


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

    def call(self, *args, label: str | None = None, seconds: float | None = None,
             slow_hint: str | None = None, **kwargs):
        """Call the student's function on copies of the arguments and return its answer.

        A ``NotImplementedError`` becomes "<name> is not implemented yet"; any other
        exception becomes a :class:`CheckFailed` naming the call (or ``label``, a short
        description of the inputs) and the exception, chained to it so that the traceback
        still leads to the failing line of the student's code. With ``seconds``, a call
        still running after that many seconds (or running out of memory) fails with
        ``slow_hint`` (default :data:`SLOW_HINT`). A call that changes one of its arguments in
        place fails too, naming the argument.
        """
        __tracebackhide__ = True
        shown = label or call_text(self.name, args, kwargs)
        args, kwargs = copy.deepcopy(args), copy.deepcopy(kwargs)
        before = copy.deepcopy((args, kwargs))
        limit = time_limit(seconds) if seconds is not None else contextlib.nullcontext()
        too_slow = None
        try:
            with limit:
                answer = self.func(*args, **kwargs)
        except NotImplementedError:
            raise CheckFailed(
                failure_message(f"{self.name} is not implemented yet: {NOT_IMPLEMENTED}")
            ) from None
        except TimeLimitExceeded:
            too_slow = f"{shown} was still running after {seconds:g} seconds."
        except MemoryError:
            if seconds is None:
                raise
            too_slow = f"{shown} ran out of memory."
        except CheckFailed:
            raise
        except Exception as exc:  # the student's code raised: report it with the inputs
            hint = "the traceback above shows the line of your code that raised it."
            raise CheckFailed(
                failure_message(f"{shown} raised {type(exc).__name__}: {exc}", hint), hint
            ) from exc
        if too_slow is not None:
            hint = slow_hint or SLOW_HINT
            raise CheckFailed(failure_message(too_slow, hint), hint) from None
        changed = _changed_argument(self.func, before, (args, kwargs))
        if changed is not None:
            hint = (f"your function must leave its inputs as they were: the caller still needs "
                    f"them. Work on a copy (e.g. np.array({changed}) or {changed}.copy()) "
                    f"instead of writing into `{changed}`; sorting in place (.sort()) writes "
                    f"into it too.")
            fail(f"{shown} changed its argument `{changed}` in place.", hint)
        return answer

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


def expect_close_float(check: Checker, args: tuple, call: str, what: str, reference: Callable,
                       quantity: str, description: str | None = None,
                       hint: Callable[[float], str] | None = None) -> float:
    """Run one case of an exercise whose answer is a single float, and count it.

    Calls the student's function on ``args`` (through :meth:`Checker.call`, labelled
    ``call``), accepts a float answer only (:func:`as_float` with ``array_ok=False``), then
    expects it to be :func:`close` to ``reference(*args)``.

    Parameters
    ----------
    check : Checker
        The checker of the student's function.
    args : tuple
        The positional arguments of the case.
    call : str
        How the call is shown in messages, e.g. ``"delta(3, 100, 2)"``.
    what : str
        What the function should return, e.g. ``"the penalty, a float"``.
    reference : callable
        The right answer, as ``reference(*args)`` (called after the student's function).
    quantity : str
        The name of the right answer in the failure message, e.g. ``"the penalty"``.
    description : str, optional
        What the case is, shown in parentheses at the end of the failure message.
    hint : callable, optional
        ``hint(value)`` gives the hint for the student's answer ``value``; called only when
        the check fails.

    Returns
    -------
    float
        The student's answer.

    Examples
    --------
    >>> check = Checker("half", lambda x: x / 2)
    >>> expect_close_float(check, (3,), "half(3)", "a float",
    ...                    lambda x: 1.5, "half of 3")
    1.5
    >>> check.passed()
    ✓ half: all 1 checks passed.
    """
    __tracebackhide__ = True
    value = float_answer(check.call(*args, label=call), call, what)
    expected = reference(*args)
    suffix = f" ({description})" if description is not None else ""
    check.expect(close(value, expected),
                 f"{call} returned {describe(value)} but {quantity} is {describe(expected)}"
                 f"{suffix}.",
                 None if hint is None else lambda: hint(value))
    return value


def _same(a: Any, b: Any) -> bool:
    """Whether ``b`` still equals ``a``, a copy taken before the student's call.

    Compares arrays (shape, dtype and values), containers element by element and prunekit's
    immutable objects attribute by attribute; anything else compares equal (it is not
    checked).
    """
    if isinstance(a, np.ndarray):
        return (isinstance(b, np.ndarray) and a.shape == b.shape and a.dtype == b.dtype
                and np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))
    if isinstance(a, (list, tuple)):
        return (type(a) is type(b) and len(a) == len(b)
                and all(_same(x, y) for x, y in zip(a, b)))
    if isinstance(a, dict):
        return (isinstance(b, dict) and a.keys() == b.keys()
                and all(_same(a[k], b[k]) for k in a))
    if isinstance(a, (set, frozenset)):
        return a == b
    if isinstance(a, (numbers.Number, str, bytes, type(None))):
        return type(a) is type(b) and (a == b or (a != a and b != b))
    state = getattr(a, "__getstate__", None)
    if hasattr(type(a), "__slots__") and state is not None and hasattr(b, "__getstate__"):
        try:
            return _same(a.__getstate__(), b.__getstate__())
        except (AttributeError, TypeError):
            return True
    return True


def _changed_argument(func: Callable, before: tuple, after: tuple) -> str | None:
    """The name of the first argument the call changed in place, or ``None``."""
    (args0, kwargs0), (args1, kwargs1) = before, after
    try:
        parameters = list(inspect.signature(func).parameters.values())
    except (TypeError, ValueError):
        parameters = []
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    names = []
    for parameter in parameters:
        if parameter.kind not in positional:
            break
        names.append(parameter.name)
    for index, (a, b) in enumerate(zip(args0, args1)):
        if not _same(a, b):
            return names[index] if index < len(names) else f"argument {index + 1}"
    for key in kwargs0:
        if not _same(kwargs0[key], kwargs1[key]):
            return key
    return None


def random_tree(random_state, n_leaves: int, n_classes: int = 2,
                max_count: int = 5) -> Tree:
    """A random tree: the shape grows by splitting a random leaf, leaf counts are random
    (at least one example per leaf) and internal counts are the sums of their children's.

    ``random_state`` is prunekit's (:func:`prunekit.validation.check_random_state`): the
    checks pass a ``numpy.random.Generator``, drawn from by every call."""
    rng = check_random_state(random_state)
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
