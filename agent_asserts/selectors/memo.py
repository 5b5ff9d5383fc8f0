"""Checks and selectors built once per distinct plain arguments: the fluent path's
construction cache.

A fluent call builds a check (and often a selector, ``on.tool(...)``) and validates its
arguments. Called again with the same plain arguments (strings, integers, booleans, ``None``
and the ``MISSING``/``ANY`` markers, in tuples) or the same selector object, :func:`built`
returns the object built the first time: checks and selectors are frozen, so sharing one is
safe, and nothing is validated twice. An expected value written inline — a dict, a list, an
``M.*`` matcher — is keyed by its content (:mod:`agent_asserts.matching.content_key`) and the
object is built from a private copy of it, so a dict changed after the call changes nothing.
Any other argument (a float, a set, a callable, a value nested too deeply) builds a new object
each time, exactly as a direct call does; an argument that fails validation raises every
time, as before, and is never cached. (``checks.memo.built`` is this function.)

>>> from agent_asserts.checks.cost import StepCount
>>> built(StepCount, 3) is built(StepCount, 3), built(StepCount, 3) == StepCount(3)
(True, True)
>>> built(StepCount, True)
Traceback (most recent call last):
...
TypeError: 'n' must be an int (got True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar

from agent_asserts._missing import MISSING
from agent_asserts.errors import AgentAssertsError
from agent_asserts.matching.content_key import NotKeyable, content_part, private_copy
from agent_asserts.matching.namespace import ANY
from agent_asserts.selectors.base import Selector

C = TypeVar("C")

_UNPLAIN: Final = frozenset({set, float, bytes})
_COPIED: Final = frozenset({dict, list})  # keyed by content, built from a private copy
# ANY's class has no fields: every instance is the same constraint
_FLAT: Final = frozenset({str, int, bool, type(None), type(MISSING), type(ANY)})
_selector_types: dict[type, bool] = {}


def _is_selector(value: Any) -> bool:
    kind = type(value)
    known = _selector_types.get(kind)
    if known is None:  # an ABC isinstance check once per type
        known = _selector_types[kind] = issubclass(kind, Selector)
    return known


_LIMIT: Final = 4096
_built: dict[Any, Any] = {}


class _Same:
    """A key part that is one object, by identity (a frozen selector: the same object always
    selects the same events); the key holds it, so its id is never reused meanwhile."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return type(other) is _Same and other.value is self.value

    def __hash__(self) -> int:
        return id(self.value)


class _NotPlain(AgentAssertsError):
    """An argument that is not plain: the object is built without the cache."""


def _part(value: Any) -> Any:
    """``value``'s part of a key: typed (``True == 1`` and hash alike, so the type is kept),
    a selector by identity, a tuple part by part, a dict, a list or a matcher by its content;
    ``_NotPlain`` for anything else."""
    kind = type(value)
    if kind in _FLAT or value is ANY:
        return (kind, value)
    if kind is tuple:
        return tuple(map(_part, value))
    if _is_selector(value):
        return _Same(value)
    try:
        return content_part(value)
    except NotKeyable:
        raise _NotPlain from None


def built(cls: Callable[..., C], *args: Any, **kwargs: Any) -> C:
    """``cls(*args, **kwargs)``, the same object again for the same plain arguments.

    >>> from agent_asserts.checks.tools import NotCalledTool
    >>> built(NotCalledTool, "refunds_cancel").describe()
    "not_called_tool('refunds_cancel')"
    """
    if not kwargs:  # the common call: positional flat values only (a key of its own shape)
        types = tuple(map(type, args))
        if _FLAT.issuperset(types):
            key: Any = (cls, args, types)
            check = _built.get(key)
            return _keep(key, cls(*args)) if check is None else check
    types = (*map(type, args), *map(type, kwargs.values()))
    if _FLAT.issuperset(types):
        # flat plain values: the key carries each value's type (True == 1 and hash alike)
        key = (cls, args, tuple(kwargs.items()), types)
    elif _UNPLAIN.isdisjoint(types):
        try:
            parts = tuple(map(_part, args))
            key = (cls, parts, tuple([(k, _part(v)) for k, v in kwargs.items()]), "typed")
        except _NotPlain:
            return cls(*args, **kwargs)
        if not _COPIED.isdisjoint(types):  # built from copies: the caller keeps the originals
            check = _built.get(key)
            if check is None:
                copied = {name: private_copy(value) for name, value in kwargs.items()}
                check = _keep(key, cls(*map(private_copy, args), **copied))
            return check
    else:  # a number with a fraction, a set, bytes: built every time
        return cls(*args, **kwargs)
    check = _built.get(key)
    return _keep(key, cls(*args, **kwargs)) if check is None else check


def _keep(key: Any, check: C) -> C:
    if len(_built) >= _LIMIT:
        _built.clear()
    _built[key] = check
    return check


__all__ = ["built"]
