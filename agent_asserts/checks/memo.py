"""Checks built once per distinct plain arguments: the fluent path's construction cache.

A fluent call builds a check and validates its arguments. Called again with the same plain
arguments (strings, integers, booleans, ``None`` and the ``MISSING``/``ANY`` markers, in
tuples), :func:`built` returns the check built the first time: checks are frozen, so sharing
one is safe, and nothing is validated twice. Any other argument (a dict, a float, a selector,
a callable) builds a new check each time, exactly as a direct call does; an argument that fails
validation raises every time, as before, and is never cached.

>>> from agent_asserts.checks.cost import StepCount
>>> built(StepCount, 3) is built(StepCount, 3), built(StepCount, 3) == StepCount(3)
(True, True)
>>> built(StepCount, True)
Traceback (most recent call last):
...
TypeError: 'n' must be an int (got True)
"""

from __future__ import annotations

from typing import Any, Final, TypeVar

from agent_asserts._missing import MISSING
from agent_asserts.matching.namespace import ANY

C = TypeVar("C")

_PLAIN: Final = frozenset({str, int, bool, type(None)})
_FLAT: Final = frozenset({str, int, bool, type(None), type(MISSING)})
_LIMIT: Final = 4096
_built: dict[Any, Any] = {}


def _plain(value: Any) -> bool:
    kind = type(value)
    if kind in _PLAIN or value is MISSING or value is ANY:
        return True
    return kind is tuple and all(_plain(v) for v in value)


def _typed(value: Any) -> Any:
    # True == 1 and hash alike: the key carries each value's type so they never share a check.
    if type(value) is tuple:
        return tuple(_typed(v) for v in value)
    return (type(value), value)


def built(cls: type[C], *args: Any, **kwargs: Any) -> C:
    """``cls(*args, **kwargs)``, the same object again for the same plain arguments.

    >>> from agent_asserts.checks.tools import NotCalledTool
    >>> built(NotCalledTool, "refunds_cancel").describe()
    "not_called_tool('refunds_cancel')"
    """
    types = (*map(type, args), *map(type, kwargs.values()))
    if _FLAT.issuperset(types):
        # flat plain values: the key carries each value's type (True == 1 and hash alike)
        key: Any = (cls, args, tuple(kwargs.items()), types)
        check = _built.get(key)
        return _keep(key, cls(*args, **kwargs)) if check is None else check
    if not (all(_plain(a) for a in args) and all(_plain(v) for v in kwargs.values())):
        return cls(*args, **kwargs)
    key = (cls, _typed(args), tuple((k, _typed(v)) for k, v in kwargs.items()), "typed")
    check = _built.get(key)
    return _keep(key, cls(*args, **kwargs)) if check is None else check


def _keep(key: Any, check: C) -> C:
    if len(_built) >= _LIMIT:
        _built.clear()
    _built[key] = check
    return check


__all__ = ["built"]
