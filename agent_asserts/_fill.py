"""Build a frozen attrs instance from its attribute values in field order.

Kept only while ``fluent.recording`` and ``batch.compact`` still import it (their owners move
to the classes' own constructors); it is a plain constructor call: no generated code and no
class swapped onto an instance.

>>> import attrs
>>> @attrs.frozen
... class Point:
...     x: int
...     y: int = attrs.field(converter=int)
>>> filler(Point)((1, "2"))
Point(x=1, y=2)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


def twin_of(cls: type) -> type | None:
    """Always None: no class has a mutable twin any more.

    >>> twin_of(int) is None
    True
    """
    return None


def filler(cls: type[T]) -> Callable[[Sequence[Any]], T]:
    """A function that makes a ``cls`` from its attribute values, in field order (its
    constructor, given them positionally)."""

    def fill(values: Sequence[Any]) -> T:
        return cls(*values)

    return fill


__all__ = ["filler", "twin_of"]
