"""Relations between two selections: ``has_matching``, ``precedes``, ``follows_within``.

The right side is indexed once by its ``on`` keys (a dict from key to positions or times), so
each relation costs O(left + right) (times a log factor for the time bounds), never a nested
scan. An ``on`` field an item does not record matches nothing: attribution needs the reference.

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

from agent_asserts._missing import MISSING
from agent_asserts.contract.bindings import Bound, Unavailable
from agent_asserts.contract.durations import format_within
from agent_asserts.contract.paths import (
    EVENT_FIELDS,
    SET_FIELDS,
    field_value,
    hash_key,
    parse_item_path,
)
from agent_asserts.contract.verdicts import ItemVerdict
from agent_asserts.matching import Mismatch, render
from agent_asserts.record import Event

MAX_SUBSET_FIELDS = 6
"""Up to this many ``on`` fields, the closest candidate is the one sharing the most fields."""

Key = tuple[Any, ...]


class _Keys:
    """Reads the ``on`` fields of items: raw values (for messages) and hashable keys."""

    def __init__(self, on: Sequence[str]) -> None:
        self.on = tuple(on)
        self.parts = [() if f in SET_FIELDS else parse_item_path(f) for f in self.on]
        self.direct = all(f in EVENT_FIELDS or f in SET_FIELDS for f in self.on)
        self.sets = [f in SET_FIELDS for f in self.on]

    def raw(self, item: Any) -> list[Any]:
        """The field values (``MISSING`` where the item records none)."""
        if self.direct and type(item) is Event:
            values = []
            for field in self.on:
                if field in SET_FIELDS:
                    refs = item.entity_refs
                    values.append(frozenset(refs) if refs else MISSING)
                else:
                    value = getattr(item, field)
                    values.append(MISSING if value is None else value)
            return values
        values = []
        for field, parts in zip(self.on, self.parts, strict=True):
            value = field_value(item, field, parts)
            values.append(MISSING if value is None else value)
        return values

    def hashed(self, item: Any) -> list[Any]:
        """Per field, the hashable key, or ``MISSING`` where the item records none."""
        if not (self.direct and type(item) is Event):
            return [v if v is MISSING else hash_key(v) for v in self.raw(item)]
        out: list[Any] = []
        for field, is_set in zip(self.on, self.sets, strict=True):  # the fast path for events
            if is_set:
                refs = item.entity_refs
                out.append(frozenset(refs) if refs else MISSING)
            else:
                value = getattr(item, field)
                out.append(MISSING if value is None else hash_key(value))
        return out

    def key(self, item: Any) -> tuple[Key | None, str | None]:
        """The hashable key, or None and the first field the item does not record."""
        return self.key_of(self.hashed(item))

    def key_of(self, hashed: list[Any]) -> tuple[Key | None, str | None]:
        """:meth:`key` from already hashed values."""
        if MISSING in hashed:
            return None, self.on[next(i for i, v in enumerate(hashed) if v is MISSING)]
        return tuple(hashed), None


def _shown(value: Any) -> str:
    return render(sorted(value) if isinstance(value, frozenset) else value)


def _times(bound: Bound, op: str) -> list[float]:
    times: list[float] = []
    missing: list[str] = []
    for event, label in zip(bound.events, bound.labels, strict=True):
        t = None if event is None else event.monotonic_time
        if t is None:
            missing.append(label)
        else:
            times.append(float(t))
    if missing:
        shown = ", ".join(missing[:10]) + (
            f", … and {len(missing) - 10} more" if len(missing) > 10 else ""
        )
        raise Unavailable(
            f"{op} needs monotonic_time on every event; {bound.name!r} has events without "
            f"one: {shown}"
        )
    return times


class _Closest:
    """Finds, for a left key with no exact match, the right item sharing the most fields."""

    def __init__(self, keys: _Keys, right: Bound, hashed: list[list[Any]]) -> None:
        self.keys = keys
        self.right = right
        self.hashed = hashed
        n = len(keys.on)
        sizes = range(n - 1, 0, -1) if n <= MAX_SUBSET_FIELDS else [1]
        self.subsets = [s for size in sizes for s in itertools.combinations(range(n), size)]
        self.index: dict[tuple[int, ...], dict[Key, int]] = {}

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

    def explain(self, label: str, values: list[Any]) -> ItemVerdict:
        fields = ", ".join(self.keys.on)
        name = self.right.name
        if not self.right.items:
            return ItemVerdict(label, False, f"selection {name!r} is empty")
        for subset in self.subsets:
            hit = self._table(subset).get(tuple(hash_key(values[j]) for j in subset))
            if hit is None:
                continue
            other = self.keys.raw(self.right.items[hit])
            mismatches = [
                Mismatch(
                    f"$.{field}", mine, theirs, f"expected {_shown(mine)}, got {_shown(theirs)}"
                )
                for field, mine, theirs in zip(self.keys.on, values, other, strict=True)
                if theirs is MISSING or hash_key(mine) != hash_key(theirs)
            ]
            differs = ", ".join(
                f"{m.path[2:]} (expected {_shown(m.expected)}, got {_shown(m.actual)})"
                for m in mismatches
            )
            cid = self.right.labels[hit]
            return ItemVerdict(
                label,
                False,
                f"no {name!r} item has the same {fields}; closest {cid} differs on {differs}",
                mismatches,
                cid,
            )
        if len(values) == 1:
            shown = _shown(values[0])
            return ItemVerdict(label, False, f"no {name!r} item has the same {fields} ({shown})")
        return ItemVerdict(label, False, f"no {name!r} item shares any of {fields} with it")


def has_matching(
    left: Bound, right: Bound, on: Sequence[str], within: float | None
) -> list[ItemVerdict]:
    """Each left item has a right item with equal ``on`` fields (and, with ``within``, no more
    than that many seconds away in either direction).

    Raises:
        Unavailable: ``within`` is set and an event has no ``monotonic_time``.
    """
    keys = _Keys(on)
    left_times = _times(left, "has_matching with within") if within is not None else []
    right_times = _times(right, "has_matching with within") if within is not None else []
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
    out: list[ItemVerdict] = []
    for n, item in enumerate(left.items):
        label = left.labels[n]
        key, lacking = keys.key(item)
        if key is None:
            out.append(
                ItemVerdict(
                    label, False, f"it records no {lacking}, so no {right.name!r} item can match it"
                )
            )
            continue
        found = index.get(key)
        if found is None:
            closest = closest or _Closest(keys, right, hashed)
            out.append(closest.explain(label, keys.raw(item)))
        elif within is None:
            out.append(ItemVerdict(label, True, closest=right.labels[found[0]]))
        else:
            out.append(_nearest(label, left_times[n], found, ordered[key], right, within))
    return out


def _nearest(
    label: str, t: float, bucket: list[int], ordered: list[float], right: Bound, within: float
) -> ItemVerdict:
    best = bisect.bisect_left(ordered, t)  # the first at or after t; the one before may be nearer
    if best == len(ordered) or (best > 0 and t - ordered[best - 1] <= ordered[best] - t):
        best -= 1
    distance = abs(ordered[best] - t)
    cid = right.labels[bucket[best]]
    if distance <= within:
        return ItemVerdict(label, True, closest=cid)
    reason = (
        f"the nearest {right.name!r} item with the same keys, {cid}, is {distance:g}s away "
        f"(more than {format_within(within)})"
    )
    mismatch = Mismatch(
        "$.monotonic_time", f"within {format_within(within)} of {t:g}", ordered[best], reason
    )
    return ItemVerdict(label, False, reason, (mismatch,), cid)


def _grouped(keys: _Keys | None, right: Bound) -> dict[Key, list[int]]:
    groups: dict[Key, list[int]] = {}
    for i, item in enumerate(right.items):
        key: Key | None = () if keys is None else keys.key(item)[0]
        if key is not None:
            groups.setdefault(key, []).append(i)
    return groups


def precedes(left: Bound, right: Bound, on: Sequence[str]) -> list[ItemVerdict]:
    """Each left event occurs (in record order) before some right event (with equal ``on``)."""
    keys = _Keys(on) if on else None
    last: dict[Key, int] = {}
    for key, members in _grouped(keys, right).items():
        last[key] = max(members, key=lambda i: right.positions[i] or 0)
    same = f" with the same {', '.join(on)}" if on else ""
    out: list[ItemVerdict] = []
    for n, item in enumerate(left.items):
        label = left.labels[n]
        wanted: Key | None = ()
        if keys is not None:
            wanted, lacking = keys.key(item)
            if wanted is None:
                out.append(ItemVerdict(label, False, f"it records no {lacking}"))
                continue
        found = last.get(wanted) if wanted is not None else None
        if found is None:
            out.append(ItemVerdict(label, False, f"no {right.name!r} item{same} exists"))
        elif (right.positions[found] or 0) > (left.positions[n] or 0):
            out.append(ItemVerdict(label, True, closest=right.labels[found]))
        else:
            cid = right.labels[found]
            out.append(
                ItemVerdict(
                    label,
                    False,
                    f"no {right.name!r} item{same} occurs after it (the last one is {cid})",
                    closest=cid,
                )
            )
    return out


def follows_within(
    left: Bound, right: Bound, on: Sequence[str], within: float
) -> list[ItemVerdict]:
    """Each left event is followed (in record order) by some right event (with equal ``on``)
    whose ``monotonic_time`` is at most ``within`` seconds later.

    Raises:
        Unavailable: An event on either side has no ``monotonic_time``.
    """
    left_times = _times(left, "follows_within")
    right_times = _times(right, "follows_within")
    keys = _Keys(on) if on else None
    tables: dict[Key, tuple[list[int], list[int]]] = {}
    for key, members in _grouped(keys, right).items():
        members.sort(key=lambda i: right.positions[i] or 0)
        earliest = members[:]  # suffix minimum of time: the earliest right item from j on
        for j in range(len(members) - 2, -1, -1):
            if right_times[earliest[j + 1]] <= right_times[members[j]]:
                earliest[j] = earliest[j + 1]
        tables[key] = ([right.positions[i] or 0 for i in members], earliest)
    same = f" with the same {', '.join(on)}" if on else ""
    bound = format_within(within)
    out: list[ItemVerdict] = []
    for n, item in enumerate(left.items):
        label = left.labels[n]
        wanted: Key | None = ()
        if keys is not None:
            wanted, lacking = keys.key(item)
            if wanted is None:
                out.append(ItemVerdict(label, False, f"it records no {lacking}"))
                continue
        table = tables.get(wanted) if wanted is not None else None
        at = -1 if table is None else bisect.bisect_right(table[0], left.positions[n] or 0)
        if table is None or at >= len(table[0]):
            out.append(ItemVerdict(label, False, f"no {right.name!r} item{same} follows it"))
            continue
        first = table[1][at]
        delay = right_times[first] - left_times[n]
        cid = right.labels[first]
        if delay <= within:
            out.append(ItemVerdict(label, True, closest=cid))
        else:
            reason = (
                f"the earliest {right.name!r} item{same} after it, {cid}, follows after "
                f"{delay:g}s (more than {bound})"
            )
            mismatch = Mismatch(
                "$.monotonic_time",
                f"at most {left_times[n] + within:g}",
                right_times[first],
                reason,
            )
            out.append(ItemVerdict(label, False, reason, (mismatch,), cid))
    return out


__all__ = ["MAX_SUBSET_FIELDS", "follows_within", "has_matching", "precedes"]
