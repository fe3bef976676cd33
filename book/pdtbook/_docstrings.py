"""Docstring sections that several functions of the book layer share, written once.

The chapter figures all take the book's ``width`` and ``fontsize`` and return a figure; the
runners' ``main`` functions all take the command line's arguments and return an exit status.
:func:`shared_sections` puts such a section, written once, into each docstring that names it.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["shared_sections"]


def shared_sections(**sections: str) -> Callable:
    """A decorator that puts shared sections into a function's docstring.

    Each line of the docstring that holds only ``{name}``, for a keyword ``name`` of this
    call, is replaced by the lines of ``sections[name]``, indented as that line is.

    Parameters
    ----------
    **sections : str
        The text of each section, by name, without indentation.

    Returns
    -------
    callable
        The decorator; it returns the function it decorates, with the sections in place.

    Raises
    ------
    ValueError
        If the docstring does not name every section given (a misspelt name).

    Examples
    --------
    >>> @shared_sections(returns="Returns\\n-------\\nint")
    ... def f():
    ...     '''Zero.
    ...
    ...     {returns}
    ...     '''
    ...     return 0
    >>> import inspect
    >>> print(inspect.getdoc(f))
    Zero.
    <BLANKLINE>
    Returns
    -------
    int
    """
    def decorate(function: Callable) -> Callable:
        lines, unused = [], set(sections)
        for line in (function.__doc__ or "").split("\n"):
            name = line.strip()[1:-1] if line.strip().startswith("{") else None
            if name in sections and line.strip() == "{" + name + "}":
                indent = line[:len(line) - len(line.lstrip())]
                lines.extend(indent + text if text else "" for text in sections[name].split("\n"))
                unused.discard(name)
            else:
                lines.append(line)
        if unused:
            raise ValueError(f"the docstring of {function.__qualname__} has no line "
                             f"{{{sorted(unused)[0]}}}.")
        function.__doc__ = "\n".join(lines)
        return function

    return decorate
