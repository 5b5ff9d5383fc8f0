"""``has_matching``: each left item has a right item with equal ``on`` fields.

The right side is indexed once by its ``on`` keys (a dict from key to positions), so the
relation costs O(left + right) (times a log factor for a ``within`` bound), never a nested scan.
A left item without a partner is explained by its closest candidate: the right item sharing
the most ``on`` fields or, with one field (or none shared), the nearest right item (by
``monotonic_time``, else record order); ``closest`` is that candidate's event id and the
mismatches name each ``on`` field that differed on it.

>>> from agent_asserts.contract.bindings import Bound
>>> from agent_asserts.record import Event
>>> m = [Event("mutation", {}, "e0", operation_ref="op-7", actor_ref="agent")]
>>> a = [Event("audit", {}, "e1", operation_ref="op-8", actor_ref="agent")]
>>> left = Bound("mutations", False, tuple(m), ("e0",), tuple(m), (0,), (), 1)
>>> right = Bound("audits", False, tuple(a), ("e1",), tuple(a), (1,), (), 1)
>>> print(has_matching(left, right, ("operation_ref", "actor_ref"), None)[0].reason)
... # doctest: +NORMALIZE_WHITESPACE
no 'audits' item has the same operation_ref, actor_ref;
closest e1 differs on operation_ref (expected 'op-7', got 'op-8')
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence
from typing import Any

from agent_asserts._values import MISSING
from agent_asserts.contract.bindings import Bound
from agent_asserts.contract.durations import format_within
from agent_asserts.contract.keys import Key, OnKeys, each_keyed, shown, times
from agent_asserts.contract.paths import hash_key
from agent_asserts.contract.verdicts import ItemVerdict
from agent_asserts.matching import Mismatch

MAX_SUBSET_FIELDS = 6
"""Up to this many ``on`` fields, the closest candidate is the one sharing the most fields."""


def _event_id(bound: Bound, index: int) -> str | None:
    """The event id of a right item, or None when it is not an event (a delta entry)."""
    return bound.labels[index] if bound.events[index] is not None else None


class _Order:
    """Finds the right item nearest to a left item: by ``monotonic_time`` when both record
    one, else by record order, else the first right item (built once, bisected per item)."""

    def __init__(self, right: Bound) -> None:
        self.by_time = self._sorted([None if e is None else e.monotonic_time for e in right.events])
        self.by_order = self._sorted(list(right.positions))

    @staticmethod
    def _sorted(values: list[Any]) -> tuple[list[float], list[int]] | None:
        if not values or any(v is None for v in values):
            return None
        order = sorted(range(len(values)), key=values.__getitem__)
        return [float(values[i]) for i in order], order

    @staticmethod
    def _bisect(table: tuple[list[float], list[int]], at: float) -> int:
        keys, order = table
        best = bisect.bisect_left(keys, at)
        if best == len(keys) or (best > 0 and at - keys[best - 1] <= keys[best] - at):
            best -= 1
        return order[best]

    def nearest(self, left: Bound, n: int) -> int:
        event = left.events[n]
        t = None if event is None else event.monotonic_time
        if t is not None and self.by_time is not None:
            return self._bisect(self.by_time, float(t))
        position = left.positions[n]
        if position is not None and self.by_order is not None:
            return self._bisect(self.by_order, float(position))
        return 0


class _Closest:
    """Explains a left key with no exact match: the closest candidate is the right item
    sharing the most ``on`` fields, else (one field, or no field shared) the nearest one."""

    def __init__(self, keys: OnKeys, left: Bound, right: Bound, hashed: list[list[Any]]) -> None:
        self.keys = keys
        self.left = left
        self.right = right
        self.hashed = hashed
        n = len(keys.on)
        sizes = range(n - 1, 0, -1) if n <= MAX_SUBSET_FIELDS else [1]
        self.subsets = [s for size in sizes for s in itertools.combinations(range(n), size)]
        self.index: dict[tuple[int, ...], dict[Key, int]] = {}
        self.order: _Order | None = None

    def _table(self, subset: tuple[int, ...]) -> dict[Key, int]:
        table = self.index.get(subset)
        if table is None:
            table = {}
            for i, values in enumerate(self.hashed):
                key = tuple(values[j] for j in subset)
                if MISSING not in key:
                    table.setdefault(key, i)
            self.index[subset] = table
        return table

    def _sharing(self, values: list[Any]) -> int | None:
        for subset in self.subsets:
            hit = self._table(subset).get(tuple(hash_key(values[j]) for j in subset))
            if hit is not None:
                return hit
        return None

    def explain(self, n: int, label: str, values: list[Any]) -> ItemVerdict:
        fields = ", ".join(self.keys.on)
        name = self.right.name
        if not self.right.items:
            return ItemVerdict(label, False, f"selection {name!r} is empty")
        hit = self._sharing(values)
        nearest = hit is None
        if hit is None:
            self.order = self.order or _Order(self.right)
            hit = self.order.nearest(self.left, n)
        other = self.keys.raw(self.right.items[hit])
        mismatches = [
            Mismatch(f"$.{field}", mine, theirs, f"expected {shown(mine)}, got {shown(theirs)}")
            for field, mine, theirs in zip(self.keys.on, values, other, strict=True)
            if theirs is MISSING or hash_key(mine) != hash_key(theirs)
        ]
        differs = ", ".join(
            f"{m.path[2:]} (expected {shown(m.expected)}, got {shown(m.actual)})"
            for m in mismatches
        )
        candidate = self.right.labels[hit] + (" (the nearest)" if nearest else "")
        lead = (
            f"no {name!r} item shares any of {fields} with it"
            if nearest and len(values) > 1
            else f"no {name!r} item has the same {fields}"
        )
        reason = f"{lead}; closest {candidate} differs on {differs}"
        return ItemVerdict(label, False, reason, mismatches, _event_id(self.right, hit))


def has_matching(
    left: Bound, right: Bound, on: Sequence[str], within: float | None
) -> list[ItemVerdict]:
    """Each left item has a right item with equal ``on`` fields (and, with ``within``, no more
    than that many seconds away in either direction).

    Args:
        left: The items that each need a partner.
        right: The candidate partners.
        on: The fields a partner must record equally.
        within: The most seconds between an item and its partner, or None for no bound.

    Returns:
        One verdict per left item.

    Raises:
        RecordLacks: ``within`` is set and an event has no ``monotonic_time``.
    """
    keys = OnKeys(on)
    left_times = times(left, "has_matching with within") if within is not None else []
    right_times = times(right, "has_matching with within") if within is not None else []
    hashed = [keys.hashed(item) for item in right.items]
    index: dict[Key, list[int]] = {}
    for i, values in enumerate(hashed):
        key, _ = keys.key_of(values)
        if key is not None:
            index.setdefault(key, []).append(i)
    ordered: dict[Key, list[float]] = {}  # per key, the times of its bucket, sorted once
    if within is not None:
        for key, bucket in index.items():
            bucket.sort(key=right_times.__getitem__)
            ordered[key] = [right_times[i] for i in bucket]
    closest: _Closest | None = None

    def judge(n: int, label: str, key: Key) -> ItemVerdict:
        nonlocal closest
        found = index.get(key)
        if found is None:
            closest = closest or _Closest(keys, left, right, hashed)
            return closest.explain(n, label, keys.raw(left.items[n]))
        if within is None:
            cid = right.labels[found[0]]
            reason = f"has a matching {right.name!r} item {cid}"
            return ItemVerdict(label, True, reason, closest=_event_id(right, found[0]))
        return _nearest(label, left_times[n], found, ordered[key], right, within)

    unkeyed = f", so no {right.name!r} item can match it"
    return each_keyed(left, keys, judge, unkeyed=unkeyed)


def _nearest(
    label: str, t: float, bucket: list[int], ordered: list[float], right: Bound, within: float
) -> ItemVerdict:
    best = bisect.bisect_left(ordered, t)  # the first at or after t; the one before may be nearer
    if best == len(ordered) or (best > 0 and t - ordered[best - 1] <= ordered[best] - t):
        best -= 1
    distance = abs(ordered[best] - t)
    cid = right.labels[bucket[best]]
    if distance <= within:
        reason = f"has a matching {right.name!r} item {cid} ({distance:g}s away)"
        return ItemVerdict(label, True, reason, closest=cid)
    reason = (
        f"the nearest {right.name!r} item with the same keys, {cid}, is {distance:g}s away "
        f"(more than {format_within(within)})"
    )
    mismatch = Mismatch(
        "$.monotonic_time", f"within {format_within(within)} of {t:g}", ordered[best], reason
    )
    return ItemVerdict(label, False, reason, (mismatch,), cid)


__all__ = ["MAX_SUBSET_FIELDS", "has_matching"]
