"""Text rendered on first use: what a passing check keeps instead of a formatted message.

A :class:`LazyText` holds a function and its arguments; ``str()`` renders it once and keeps the
text. Result fields that accept one (``AssertionResult.message``/``description``,
``Outcome.message``) render it when read, so a result nobody reads never formats its text.
Pickling, copying and comparing see the rendered text, never the function.

>>> calls = []
>>> text = LazyText(lambda n: calls.append(n) or f"matched {n} calls", 3)
>>> len(calls)
0
>>> str(text), str(text), calls
('matched 3 calls', 'matched 3 calls', [3])
>>> text_of(text), text_of("plain")
('matched 3 calls', 'plain')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class LazyText:
    """``fn(*args)`` rendered on the first ``str()`` and kept."""

    __slots__ = ("_args", "_fn", "_text")

    def __init__(self, fn: Callable[..., str], *args: Any) -> None:
        self._fn = fn
        self._args = args
        self._text: str | None = None

    def __str__(self) -> str:
        text = self._text
        if text is None:
            text = self._text = self._fn(*self._args)
            self._fn = self._args = None  # type: ignore[assignment]  # let them go
        return text

    def __repr__(self) -> str:
        return repr(str(self))

    def __eq__(self, other: object) -> bool:
        return str(self) == text_of(other) if isinstance(other, str | LazyText) else NotImplemented

    def __hash__(self) -> int:
        return hash(str(self))

    def __reduce__(self) -> tuple[type[str], tuple[str]]:
        return (str, (str(self),))


def text_of(value: Any) -> Any:
    """The text of a :class:`LazyText`, anything else unchanged (an attrs ``eq`` key too).

    >>> text_of(LazyText(str.upper, "ok"))
    'OK'
    """
    return str(value) if type(value) is LazyText else value


def settle(instance: object, field: str) -> str:
    """The text of a field that may hold a :class:`LazyText` (the field is left as it is: the
    :class:`LazyText` keeps its own rendered text).

    >>> class Holder:
    ...     def __init__(self) -> None:
    ...         self.note = LazyText(str.upper, "ok")
    >>> settle(Holder(), "note")
    'OK'
    """
    return text_of(getattr(instance, field))  # type: ignore[no-any-return]


def alias_repr(instance: Any) -> str:
    """The attrs repr, naming private text fields by their public alias (``message=``).

    >>> from agent_asserts.results import AssertionResult
    >>> alias_repr(AssertionResult("x", "pass", 1.0, message=LazyText(str, "ok")))[:60]
    "AssertionResult(name='x', status=<Status.PASS: 'pass'>, scor"
    """
    import attrs

    fields = attrs.fields(type(instance))
    shown = ", ".join(f"{f.alias}={getattr(instance, f.alias or f.name)!r}" for f in fields)
    return f"{type(instance).__name__}({shown})"


__all__ = ["LazyText", "alias_repr", "settle", "text_of"]
