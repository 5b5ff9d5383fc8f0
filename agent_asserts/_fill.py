"""Build a frozen attrs instance from values that are already valid, without its ``__init__``.

For hot paths only (a fluent call's result, a batch's results coming back from a worker): the
caller has checked what the class's converters and validators would check, and hands the
attribute values in field order. attrs' own ``__init__`` sets the slots one by one through
``object.__setattr__`` too; this skips the converter and validator calls.

A class whose slots are all declared by one plain base class (attrs reuses a base's
``__slots__`` and adds none of its own) is filled faster still: the values are stored into a
mutable twin of the same layout (plain attribute stores, no call per slot) whose ``__class__``
is then set to the frozen class. The object is the same either way.

>>> import attrs
>>> @attrs.frozen
... class Point:
...     x: int
...     y: int = attrs.field(converter=int)
>>> filler(Point)((1, 2))
Point(x=1, y=2)
>>> class _PairSlots:
...     __slots__ = ("a", "b", "__weakref__")
>>> @attrs.frozen
... class Pair(_PairSlots):
...     a: int
...     b: str
>>> twin_of(Pair) is not None, filler(Pair)((1, "x")) == Pair(1, "x")
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import attrs

T = TypeVar("T")


def twin_of(cls: type) -> type | None:
    """A mutable class of ``cls``'s exact layout whose instances may become ``cls`` instances
    (``instance.__class__ = cls``), or None when ``cls`` declares slots of its own."""
    fields = attrs.fields(cls)
    owners: set[Any] = {getattr(cls.__dict__.get(f.name), "__objclass__", None) for f in fields}
    if len(owners) != 1:
        return None
    (base,) = owners
    if not isinstance(base, type) or base is cls or cls.__basicsize__ != base.__basicsize__:
        return None
    twin = type(f"_{cls.__name__}Filling", (base,), {"__slots__": (), "__module__": __name__})
    try:  # CPython refuses the assignment between layouts it does not see as the same
        setattr(object.__new__(twin), "__class__", cls)  # noqa: B010
    except TypeError:
        return None
    return twin


def filler(cls: type[T]) -> Callable[[Sequence[Any]], T]:
    """A function that makes a ``cls`` from its attribute values, in field order."""
    fields = attrs.fields(cls)  # type: ignore[arg-type]
    twin = twin_of(cls)
    scope: dict[str, Any] = {"new": object.__new__, "cls": cls, "twin": twin}
    lines = [
        "def fill(values):",
        f"    ({', '.join(f'v{i}' for i in range(len(fields)))},) = values",
    ]
    # unrolled like attrs' own generated __init__ (a loop over the fields costs a third more)
    if twin is not None:
        lines.append("    instance = new(twin)")
        lines.extend(f"    instance.{field.name} = v{i}" for i, field in enumerate(fields))
        lines.append("    instance.__class__ = cls")
    else:
        lines.append("    instance = new(cls)")
        for i, field in enumerate(fields):
            scope[f"set{i}"] = cls.__dict__[field.name].__set__
            lines.append(f"    set{i}(instance, v{i})")
    lines.append("    return instance")
    exec("\n".join(lines), scope)
    return scope["fill"]  # type: ignore[no-any-return]


__all__ = ["filler", "twin_of"]
