"""Values a frozen check or selector computes once and keeps: its selector, its texts.

Checks and selectors are frozen, so what they derive from their own fields never changes; a
check built once and recorded many times (``checks.memo.built``) derives it once. The value is
kept in the instance's ``__dict__`` (every check and selector has one), outside the attrs
fields: it takes no part in equality, ``repr`` or pickling (an unpickled copy derives it again).

>>> from agent_asserts.checks.traces import StepCount
>>> check = StepCount(3)
>>> kept(check, "_twice", lambda n: n * 2, check.n), kept(check, "_twice", lambda n: 0, 1)
(6, 6)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def kept(instance: Any, key: str, derive: Callable[..., T], *args: Any) -> T:
    """``instance``'s kept ``key``, derived with ``derive(*args)`` on first use."""
    value = instance.__dict__.get(key)
    if value is None:
        value = instance.__dict__[key] = derive(*args)
    return value  # type: ignore[no-any-return]


__all__ = ["kept"]
