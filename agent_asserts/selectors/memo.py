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

>>> from agent_asserts.checks.traces import StepCount
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

from agent_asserts._values import MISSING
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


def _is_selector_type(kind: type) -> bool:
    known = _selector_types.get(kind)
    if known is None:  # an ABC subclass check once per type
        known = _selector_types[kind] = issubclass(kind, Selector)
    return known


_LIMIT: Final = 4096
# the types _typed keys directly: the flat ones, and every selector type seen (by its id)
_BY_ID: set[Any] = set(_FLAT)
# key -> (the built object, the selectors its key names by identity: kept alive with it, so
# their ids are not reused while the entry exists)
_built: dict[Any, tuple[Any, tuple[Any, ...]]] = {}


class _NotPlain(AgentAssertsError):
    """An argument that is not plain: the object is built without the cache."""


def _part(value: Any, same: list[Any]) -> Any:
    """``value``'s part of a key: typed (``True == 1`` and hash alike, so the type is kept),
    a selector by identity (its type and id; the object goes into ``same``), a tuple part by
    part, a dict, a list or a matcher by its content; ``_NotPlain`` for anything else."""
    kind = type(value)
    if kind in _FLAT or value is ANY:
        return (kind, value)
    if kind is tuple:
        return tuple([_part(item, same) for item in value])
    if _is_selector_type(kind):  # a frozen selector: the same object always selects the same events
        same.append(value)
        return (kind, id(value))
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
    # Flat values only (the common call): a key of the values and their exact types, in one of
    # three shapes that never compare equal to each other or to the keys of _typed.
    if kwargs:
        values = (*args, *kwargs.values())
        types = tuple(map(type, values))
        if _FLAT.issuperset(types):
            key: Any = (cls, tuple(kwargs), values, types)  # the names tell where args end
            kept = _built.get(key)
            return _keep(key, cls(*args, **kwargs), ()) if kept is None else kept[0]
    elif len(args) == 1:  # one value: (cls, value, its type), no tuples built
        kind = type(args[0])
        if kind in _FLAT:
            key = (cls, args[0], kind)
            kept = _built.get(key)
            return _keep(key, cls(*args), ()) if kept is None else kept[0]
        types = (kind,)
    else:
        types = tuple(map(type, args))
        if _FLAT.issuperset(types):
            key = (cls, args, types)
            kept = _built.get(key)
            return _keep(key, cls(*args), ()) if kept is None else kept[0]
    return _typed(cls, args, kwargs, types)


def _typed(cls: Callable[..., C], args: Any, kwargs: dict[str, Any], types: Any) -> C:
    """:func:`built` for arguments that are not all flat: a selector by identity, a tuple, a
    dict, a list or a matcher by content; a number with a fraction, a set, bytes or a
    callable builds a new object every time."""
    if _COPIED.isdisjoint(types) and (_BY_ID.issuperset(types) or _learn(types)):
        # flat values and selectors only (the common call with a selector): by the identity of
        # every value once seen twice (the entry keeps them alive, and all of them are
        # immutable), else by the values with each selector by its id and every type (a
        # selector type among them keeps that key apart from the flat keys of built())
        values = (*args, *kwargs.values())
        names = tuple(kwargs)
        same_key = (cls, names, tuple(map(id, values)), "same")
        kept = _built.get(same_key)
        if kept is not None:
            return kept[0]  # type: ignore[no-any-return]
        pairs = zip(values, types, strict=True)
        key: Any = (cls, names, tuple([v if t in _FLAT else id(v) for v, t in pairs]), types)
        kept = _built.get(key)
        if kept is None:  # first seen: by value only (a selector made anew for every call
            # never comes back, so its identity key would only fill the cache)
            selectors = tuple([value for value in values if type(value) not in _FLAT])
            return _keep(key, cls(*args, **kwargs), selectors)
        check: C = kept[0]
        return _keep(same_key, check, values)  # seen again: by identity from now on
    return _by_parts(cls, args, kwargs, types)


def _learn(types: tuple[type, ...]) -> bool:
    """Add the selector types among ``types`` to ``_BY_ID``; True when all of them are in it."""
    for kind in types:
        if kind not in _BY_ID and _is_selector_type(kind):
            _BY_ID.add(kind)
    return _BY_ID.issuperset(types)


def _by_parts(cls: Callable[..., C], args: Any, kwargs: dict[str, Any], types: Any) -> C:
    """:func:`_typed` for a tuple, a dict, a list or a matcher among the arguments: a key of
    typed parts (a dict, a list or a matcher by content)."""
    same: list[Any] = []
    plain = _UNPLAIN.isdisjoint(types)
    if plain:
        try:
            # a flat value as itself (``types`` keeps its type), any other by its typed part
            pairs = zip(args, types, strict=False)  # types: the args', then the keywords'
            parts = tuple([v if t in _FLAT else _part(v, same) for v, t in pairs])
            named = tuple([(name, _part(value, same)) for name, value in kwargs.items()])
        except _NotPlain:
            plain = False
    if not plain:  # outside the handler: an error of cls(...) is raised without context
        return cls(*args, **kwargs)
    key = (cls, parts, named, types, "typed")  # five items: no other key has that shape
    kept = _built.get(key)
    if kept is not None:
        return kept[0]  # type: ignore[no-any-return]
    if _COPIED.isdisjoint(types):
        return _keep(key, cls(*args, **kwargs), tuple(same))
    # built from copies: the caller keeps the originals
    copied = {name: private_copy(value) for name, value in kwargs.items()}
    return _keep(key, cls(*map(private_copy, args), **copied), tuple(same))


def _keep(key: Any, check: C, same: tuple[Any, ...]) -> C:
    if len(_built) >= _LIMIT:
        _built.clear()
    _built[key] = (check, same)
    return check


__all__ = ["built"]
