"""The ``on`` keys of a relation between two selections, read once per item.

``has_matching``, ``precedes`` and ``follows_within`` all pair a left item with right items that
record equal ``on`` fields. :class:`OnKeys` reads those fields (raw for messages, hashable for
indexes), :func:`grouped` indexes the right side once, and :func:`each_keyed` judges every left
item by its key. An ``on`` field an item does not record matches nothing.

>>> from agent_asserts.record import Event
>>> keys = OnKeys(("operation_ref",))
>>> keys.key(Event("audit", {}, "e1", operation_ref="op-7")), keys.key(Event("audit", {}, "e2"))
((('op-7',), None), (None, 'operation_ref'))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from agent_asserts._values import MISSING
from agent_asserts.contract.bindings import Bound
from agent_asserts.contract.paths import (
    EVENT_FIELDS,
    SET_FIELDS,
    field_value,
    hash_key,
    parse_item_path,
)
from agent_asserts.contract.verdicts import ItemVerdict, shortened
from agent_asserts.errors import RecordLacks
from agent_asserts.matching import render
from agent_asserts.record import Event

Key = tuple[Any, ...]
"""The hashable values of an item's ``on`` fields, in ``on`` order."""


def _same(value: Any) -> Any:
    return value


class OnKeys:
    """Reads the ``on`` fields of items: raw values (for messages) and hashable keys.

    >>> OnKeys(("entity_ref", "turn")).raw(Event("audit", {}, "e1", entity_refs=("order:A1",)))
    [frozenset({'order:A1'}), MISSING]
    """

    def __init__(self, on: Sequence[str]) -> None:
        self.on = tuple(on)
        self.parts = [() if f in SET_FIELDS else parse_item_path(f) for f in self.on]
        self.direct = all(f in EVENT_FIELDS or f in SET_FIELDS for f in self.on)
        self.sets = [f in SET_FIELDS for f in self.on]

    def _read(self, item: Any, convert: Callable[[Any], Any]) -> list[Any]:
        out: list[Any] = []
        if self.direct and type(item) is Event:  # the fast path for events
            for field, is_set in zip(self.on, self.sets, strict=True):
                if is_set:
                    refs = item.entity_refs
                    out.append(frozenset(refs) if refs else MISSING)
                else:
                    value = getattr(item, field)
                    out.append(MISSING if value is None else convert(value))
            return out
        for field, parts in zip(self.on, self.parts, strict=True):
            value = field_value(item, field, parts)
            out.append(MISSING if value is None or value is MISSING else convert(value))
        return out

    def raw(self, item: Any) -> list[Any]:
        """The field values (``MISSING`` where the item records none)."""
        return self._read(item, _same)

    def hashed(self, item: Any) -> list[Any]:
        """Per field, the hashable key, or ``MISSING`` where the item records none."""
        return self._read(item, hash_key)

    def key(self, item: Any) -> tuple[Key | None, str | None]:
        """The hashable key, or None and the first field the item does not record."""
        return self.key_of(self.hashed(item))

    def key_of(self, hashed: list[Any]) -> tuple[Key | None, str | None]:
        """:meth:`key` from already hashed values."""
        if MISSING in hashed:
            return None, self.on[next(i for i, v in enumerate(hashed) if v is MISSING)]
        return tuple(hashed), None


def grouped(keys: OnKeys | None, right: Bound) -> dict[Key, list[int]]:
    """Per key, the indexes of the right items having it (one group ``()`` without ``on``).

    >>> right = Bound("b", False, ("x", "y"), ("e1", "e2"), (None, None), (0, 1), (), 2)
    >>> grouped(None, right)
    {(): [0, 1]}
    """
    groups: dict[Key, list[int]] = {}
    for i, item in enumerate(right.items):
        key: Key | None = () if keys is None else keys.key(item)[0]
        if key is not None:
            groups.setdefault(key, []).append(i)
    return groups


def each_keyed(
    left: Bound,
    keys: OnKeys | None,
    judge: Callable[[int, str, Key], ItemVerdict],
    *,
    unkeyed: str = "",
) -> list[ItemVerdict]:
    """One verdict per left item: ``judge(index, label, key)``, or a failure for an item that
    does not record an ``on`` field (``it records no turn`` followed by ``unkeyed``).

    >>> left = Bound("a", False, ("x",), ("e1",), (None,), (0,), (), 1)
    >>> each_keyed(left, None, lambda n, label, key: ItemVerdict(label, True))[0].ok
    True
    """
    out: list[ItemVerdict] = []
    for n, item in enumerate(left.items):
        label = left.labels[n]
        if keys is None:
            out.append(judge(n, label, ()))
            continue
        key, lacking = keys.key(item)
        if key is None:
            out.append(ItemVerdict(label, False, f"it records no {lacking}{unkeyed}"))
        else:
            out.append(judge(n, label, key))
    return out


def times(bound: Bound, op: str) -> list[float]:
    """The ``monotonic_time`` of each item's event.

    Raises:
        RecordLacks: An event has no ``monotonic_time`` (or an item no event).

    >>> times(Bound("b", False, ("x",), ("e1",), (Event("a", {}, "e1", monotonic_time=2),),
    ...             (0,), (), 1), "follows_within")
    [2.0]
    """
    out: list[float] = []
    missing: list[str] = []
    for event, label in zip(bound.events, bound.labels, strict=True):
        t = None if event is None else event.monotonic_time
        if t is None:
            missing.append(label)
        else:
            out.append(float(t))
    if missing:
        raise RecordLacks(
            f"{op} needs monotonic_time on every event; {bound.name!r} has events without "
            f"one: {shortened(missing, ', ')}"
        )
    return out


def shown(value: Any) -> str:
    """A field value in a message (sets sorted).

    >>> shown(frozenset({"b", "a"}))
    "['a', 'b']"
    """
    return render(sorted(value) if isinstance(value, frozenset) else value)


__all__ = ["Key", "OnKeys", "each_keyed", "grouped", "shown", "times"]
