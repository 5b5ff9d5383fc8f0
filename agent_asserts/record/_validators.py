"""Small validators shared by the decoder and the builder: each returns a problem message.

Every function returns None when the value is valid, else the message of the problem (the
text that follows the JSON path in a :class:`~agent_asserts.record.errors.Problem`).

>>> must_be_int("four")
"must be an integer (got 'four')"
>>> must_be_int(True) is None
False
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Final

from agent_asserts._depth import MAX_DEPTH
from agent_asserts._text import did_you_mean, safe_repr
from agent_asserts.errors import AgentAssertsError

_MAX_REPR = 60


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while building millions of acyclic objects.

    The collector would only rescan the new objects again and again (none of them can be in
    a reference cycle); it is re-enabled afterwards if it was enabled before.

    >>> with paused_gc():
    ...     rows = [{"n": i} for i in range(3)]
    >>> import gc; gc.isenabled()
    True
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def got(value: Any) -> str:
    """A short repr of a bad value, for messages (never raises).

    >>> got("x" * 100)[-6:]
    "xx...'"
    """
    text = safe_repr(value)
    if len(text) > _MAX_REPR:
        keep = _MAX_REPR - 4
        text = text[:keep] + "..." + text[-1]
    return text


def child(path: str, key: Any) -> str:
    """The JSON path of ``key`` under ``path``: ``.key`` for identifiers, else ``['key']``.

    >>> child("$", "events"), child("$.state", "a b"), child("$.events", 3)
    ('$.events', "$.state['a b']", '$.events[3]')
    """
    if isinstance(key, int) and not isinstance(key, bool):
        return f"{path}[{key}]"
    if isinstance(key, str) and key.isidentifier():
        return f"{path}.{key}"
    return f"{path}[{key!r}]"


def unknown_key(key: Any, known: Iterable[str]) -> str:
    """The message for an unknown key, with a "did you mean" hint when one is close.

    >>> unknown_key("tpyo", ["type", "kind"])
    "unknown key (did you mean 'type'?)"
    >>> unknown_key("zzz", ["type"])
    'unknown key'
    """
    if isinstance(key, str):
        return "unknown key" + did_you_mean(key, known, cutoff=0.5)
    return "unknown key"


def one_of(allowed: Iterable[str]) -> str:
    """``'a', 'b', 'c'`` for messages.

    >>> one_of(("set", "clear"))
    "'set', 'clear'"
    """
    return ", ".join(repr(item) for item in allowed)


def must_be_str(value: Any, *, non_empty: bool = False) -> str | None:
    """Check a string (optionally non-empty).

    >>> must_be_str(3)
    'must be a string (got 3)'
    >>> must_be_str("", non_empty=True)
    "must be a non-empty string (got '')"
    """
    if type(value) is str or isinstance(value, str):
        if non_empty and not value:
            return f"must be a non-empty string (got {got(value)})"
        return None
    return f"must be a string (got {got(value)})"


def must_be_int(value: Any, *, minimum: int | None = 0) -> str | None:
    """Check an integer (never a bool, never a float) no smaller than ``minimum``.

    >>> must_be_int(-1)
    'must be a non-negative integer (got -1)'
    >>> must_be_int(4.0)
    'must be an integer (got 4.0)'
    """
    if type(value) is not int and (not isinstance(value, int) or isinstance(value, bool)):
        return f"must be an integer (got {got(value)})"
    if minimum is not None and value < minimum:
        if minimum == 0:
            return f"must be a non-negative integer (got {got(value)})"
        return f"must be an integer >= {minimum} (got {got(value)})"
    return None


def must_be_number(value: Any) -> str | None:
    """Check a JSON number (int or float, never a bool).

    >>> must_be_number("1.5")
    "must be a number (got '1.5')"
    >>> must_be_number(2) is None
    True
    """
    if isinstance(value, int | float) and not isinstance(value, bool):
        return None
    return f"must be a number (got {got(value)})"


def must_be_duration(value: Any) -> str | None:
    """Check a duration: a finite number of seconds, >= 0 (never a bool).

    >>> must_be_duration(-0.5)
    'must be a non-negative number of seconds (got -0.5)'
    >>> must_be_duration(1.25) is None
    True
    """
    if isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value < float("inf"):
        return None
    return f"must be a non-negative number of seconds (got {got(value)})"


def must_be_bool(value: Any) -> str | None:
    """Check a boolean.

    >>> must_be_bool(0)
    'must be a boolean (got 0)'
    """
    if isinstance(value, bool):
        return None
    return f"must be a boolean (got {got(value)})"


def must_be_object(value: Any) -> str | None:
    """Check a JSON object (a mapping).

    >>> must_be_object([])
    'must be an object (got [])'
    """
    if isinstance(value, Mapping):
        return None
    return f"must be an object (got {got(value)})"


def must_be_list(value: Any) -> str | None:
    """Check a JSON array (a list or tuple).

    >>> must_be_list("abc")
    "must be a list (got 'abc')"
    """
    if isinstance(value, list | tuple):
        return None
    return f"must be a list (got {got(value)})"


_SCALARS: Final[frozenset[type]] = frozenset({str, int, float, bool, type(None)})


class NotJSON(AgentAssertsError):
    """Raised by :func:`fast_copy` on anything unusual (then :func:`json_copy` explains it).

    >>> fast_copy({1: 2})
    Traceback (most recent call last):
    ...
    agent_asserts.record._validators.NotJSON
    """


def scalar_types() -> frozenset[type]:
    """The types of JSON scalars (exact types, no subclasses).

    >>> bool in scalar_types()
    True
    """
    return _SCALARS


def fast_copy(value: Any, levels: int = MAX_DEPTH) -> Any:
    """Copy JSON data (dicts, lists, scalars), raising :class:`NotJSON` on anything else, or
    on containers nested more than ``levels`` deep (``value`` itself is level 1), so that data
    nested past :data:`~agent_asserts._depth.MAX_DEPTH` never reaches Python's recursion limit.

    >>> fast_copy({"a": [1, {"b": None}]})
    {'a': [1, {'b': None}]}
    >>> fast_copy({"a": [1, {"b": None}]}, levels=2)
    Traceback (most recent call last):
    ...
    agent_asserts.record._validators.NotJSON
    """
    kind = type(value)
    if kind is dict:
        if levels < 1:
            raise NotJSON
        levels -= 1
        out = {}
        for key, item in value.items():
            if type(key) is not str:
                raise NotJSON
            out[key] = item if type(item) in _SCALARS else fast_copy(item, levels)
        return out
    if kind is list:
        if levels < 1:
            raise NotJSON
        levels -= 1
        return [item if type(item) in _SCALARS else fast_copy(item, levels) for item in value]
    if kind in _SCALARS:
        return value
    raise NotJSON


def fits(value: Any, levels: int = MAX_DEPTH) -> bool:
    """Whether :func:`fast_copy` would copy ``value`` (JSON data nested at most ``levels``
    deep), found without copying anything.

    >>> fits({"a": [1, {"b": None}]}), fits({"a": [1, {"b": None}]}, levels=2), fits({1: 2})
    (True, False, False)
    """
    kind = type(value)
    if kind is dict:
        if levels < 1:
            return False
        levels -= 1
        for key, item in value.items():
            if type(key) is not str or (type(item) not in _SCALARS and not fits(item, levels)):
                return False
        return True
    if kind is list:
        if levels < 1:
            return False
        levels -= 1
        return all(type(item) in _SCALARS or fits(item, levels) for item in value)
    return kind in _SCALARS


def json_copy(value: Any, path: str, problems: list[tuple[str, str]]) -> Any:
    """A copy of ``value`` as plain JSON data (dicts, lists, scalars); tuples become lists.

    Anything else (a set, an object, a non-string dict key) is reported in ``problems`` as
    ``(path, message)`` pairs.

    >>> problems: list[tuple[str, str]] = []
    >>> json_copy({"a": (1, 2)}, "$.x", problems)
    {'a': [1, 2]}
    >>> json_copy({"a": {1}}, "$.x", problems); problems
    {'a': None}
    [('$.x.a', 'must be JSON data (got set {1})')]
    """
    if type(value) in _SCALARS:
        return value
    try:
        return fast_copy(value)
    except NotJSON:
        return _slow_copy(value, path, problems)


def _slow_copy(value: Any, path: str, problems: list[tuple[str, str]]) -> Any:
    kind = type(value)
    if value is None or kind is str or kind is int or kind is float or kind is bool:
        return value
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                problems.append((path, f"keys must be strings (got {got(key)})"))
                continue
            out[key] = _slow_copy(item, child(path, key), problems)
        return out
    if isinstance(value, list | tuple):
        return [_slow_copy(item, child(path, i), problems) for i, item in enumerate(value)]
    if isinstance(value, str | int | float):
        return value
    problems.append((path, f"must be JSON data (got {kind.__name__} {got(value)})"))
    return None


__all__ = [
    "NotJSON",
    "child",
    "fast_copy",
    "fits",
    "got",
    "json_copy",
    "must_be_bool",
    "must_be_duration",
    "must_be_int",
    "must_be_list",
    "must_be_number",
    "must_be_object",
    "must_be_str",
    "one_of",
    "paused_gc",
    "scalar_types",
    "unknown_key",
]
