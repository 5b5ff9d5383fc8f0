"""Expected values keyed by content: what lets the construction cache reuse a check whose
arguments were written inline (``arguments={"orderId": M.regex("^A")}``), a new dict and a
new matcher on every call.

:func:`content_part` is the key of a plain expected value — a ``dict`` with string keys, a
``list``, a ``tuple``, JSON scalars and ``M.*`` matchers made of such values — that keeps every
type (``1``, ``1.0`` and ``True`` are three keys) and the order of a mapping's keys (it shows
in descriptions and in the order of mismatches). Anything else raises :class:`NotKeyable`:
a callable, a set, a custom class, a mapping that is not exactly a ``dict``, a value nested
more than :data:`KEY_DEPTH` levels deep (or a cycle); such an argument is built every time, so
its validation errors (the depth limit included) are raised exactly as before.

:func:`private_copy` copies the containers of a keyed value (matchers, frozen, are shared): a
cached object is built from the copy, so a dict the caller changes after the call never
changes it.

>>> from agent_asserts.matching import M
>>> content_part({"id": M.regex("^A")}) == content_part({"id": M.regex("^A")})
True
>>> content_part({"n": 1}) == content_part({"n": True}), content_part({"a": 1, "b": 2}) == (
...     content_part({"b": 2, "a": 1}))
(False, False)
>>> content_part({"f": lambda x: x})
Traceback (most recent call last):
...
agent_asserts.matching.content_key.NotKeyable
"""

from __future__ import annotations

from typing import Any, Final

import attrs

from agent_asserts._values import MISSING
from agent_asserts.errors import AgentAssertsError
from agent_asserts.matching.base import Matcher
from agent_asserts.matching.count import Count

KEY_DEPTH: Final = 32
"""Containers nested deeper than this are not keyed (built every time, as before)."""

_LEAVES: Final = frozenset({int, bool, type(None), type(MISSING)})
_MODULE: Final = "agent_asserts.matching."
# per matcher type: the names of the fields it is built from, or None when it is not keyed
_fields_of: dict[type, tuple[str, ...] | None] = {}
_UNSEEN: Final = ("<a type not seen yet>",)


class NotKeyable(AgentAssertsError):
    """A value that has no content key: the object is built without the cache."""


def frozen_fields(
    kind: type, package: str, base: type | tuple[type, ...]
) -> tuple[str, ...] | None:
    """The init fields of ``kind`` when it is one of this library's own frozen attrs classes of
    ``base`` defined under ``package`` (what it is built from is all it holds); else None.

    >>> from agent_asserts.matching.scalar import RegexMatcher
    >>> frozen_fields(RegexMatcher, "agent_asserts.matching.", Matcher)
    ('pattern',)
    >>> frozen_fields(dict, "agent_asserts.matching.", Matcher) is None
    True
    """
    ours = (
        kind.__module__.startswith(package)
        and issubclass(kind, base)
        and attrs.has(kind)
        and getattr(kind.__setattr__, "__name__", "") == "_frozen_setattrs"
    )
    return tuple(f.name for f in attrs.fields(kind) if f.init) if ours else None


def _matcher_fields(kind: type) -> tuple[str, ...] | None:
    """The init fields of one of the library's own frozen matchers (or ``Count``), else None."""
    fields = _fields_of[kind] = frozen_fields(kind, _MODULE, (Matcher, Count))
    return fields


def content_part(value: Any, depth: int = 0, shared: bool = False) -> Any:
    """The content key of an expected value (see the module docstring).

    A string is its own key; every other part is a tuple that starts with a type, so no two
    different values share a key. Inside a matcher (``shared``: the cached object shares the
    matcher itself, not a copy) a dict or a list has no key: the caller could change it later.

    Raises:
        NotKeyable: ``value`` (or a part of it) has no content key.

    >>> content_part("a"), content_part(3), content_part([1.5])
    ('a', (<class 'int'>, 3), (<class 'list'>, (<class 'float'>, '0x1.8000000000000p+0')))
    """
    kind = type(value)
    if kind is str:
        return value
    if kind in _LEAVES:
        return (kind, value)
    if kind is float:  # by its bits: -0.0 and 0.0 are equal but render differently
        return (float, value.hex())
    if depth >= KEY_DEPTH:
        raise NotKeyable
    depth += 1
    parts: list[Any] = [kind]
    add = parts.append
    if kind is dict and not shared:
        for key, item in value.items():
            if type(key) is not str:
                raise NotKeyable
            add(key)
            add(item if type(item) is str else content_part(item, depth))
        return tuple(parts)
    if kind is tuple or (kind is list and not shared):
        for item in value:
            add(content_part(item, depth, shared))
        return tuple(parts)
    fields = _fields_of.get(kind, _UNSEEN)
    if fields is _UNSEEN:
        fields = _matcher_fields(kind)
    if fields is None:
        raise NotKeyable
    for name in fields:
        item = getattr(value, name)
        add(item if type(item) is str else content_part(item, depth, True))
    return tuple(parts)


def private_copy(value: Any) -> Any:
    """``value`` with its dicts and lists copied (only for a value :func:`content_part` keyed).

    >>> original = {"items": [1, 2]}
    >>> copy = private_copy(original)
    >>> copy == original, copy["items"] is original["items"]
    (True, False)
    """
    kind = type(value)
    if kind is dict:
        return {key: private_copy(item) for key, item in value.items()}
    if kind is list:
        return [private_copy(item) for item in value]
    if kind is tuple:
        return tuple(map(private_copy, value))
    return value


__all__ = ["KEY_DEPTH", "NotKeyable", "content_part", "frozen_fields", "private_copy"]
