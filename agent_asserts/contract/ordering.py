"""Order relations between two selections: ``precedes`` and ``follows_within``.

The right side is grouped once by its ``on`` keys (see :mod:`agent_asserts.contract.keys`), so
each relation costs O(left + right) (times a log factor for the time bound), never a nested
scan. ``has_matching`` lives in :mod:`agent_asserts.contract.pairing` and is re-exported here.

>>> from agent_asserts.contract.bindings import Bound
>>> from agent_asserts.record import Event
>>> a = (Event("audit", {}, "e1", operation_ref="op-7"),)
>>> m = (Event("mutation", {}, "e2", operation_ref="op-7"),)
>>> left = Bound("audits", False, a, ("e1",), a, (1,), (), 1)
>>> right = Bound("mutations", False, m, ("e2",), m, (0,), (), 1)
>>> print(precedes(left, right, ("operation_ref",))[0].reason)
no 'mutations' item with the same operation_ref occurs after it (the last one is e2)
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from agent_asserts.contract.bindings import Bound
from agent_asserts.contract.durations import format_within
from agent_asserts.contract.keys import Key, OnKeys, each_keyed, grouped, times
from agent_asserts.contract.pairing import MAX_SUBSET_FIELDS, has_matching
from agent_asserts.contract.verdicts import ItemVerdict
from agent_asserts.matching import Mismatch


def _same_text(on: Sequence[str]) -> str:
    return f" with the same {', '.join(on)}" if on else ""


def precedes(left: Bound, right: Bound, on: Sequence[str]) -> list[ItemVerdict]:
    """Each left event occurs (in record order) before some right event (with equal ``on``).

    Args:
        left: The events that must come first.
        right: The events that must come after them.
        on: The fields the two events must record equally (none: any right event).

    Returns:
        One verdict per left item.
    """
    keys = OnKeys(on) if on else None
    last: dict[Key, int] = {}
    for key, members in grouped(keys, right).items():
        last[key] = max(members, key=lambda i: right.positions[i] or 0)
    same = _same_text(on)

    def judge(n: int, label: str, key: Key) -> ItemVerdict:
        found = last.get(key)
        if found is None:
            return ItemVerdict(label, False, f"no {right.name!r} item{same} exists")
        cid = right.labels[found]
        if (right.positions[found] or 0) > (left.positions[n] or 0):
            return ItemVerdict(
                label, True, f"{right.name!r} item {cid} occurs after it", closest=cid
            )
        reason = f"no {right.name!r} item{same} occurs after it (the last one is {cid})"
        return ItemVerdict(label, False, reason, closest=cid)

    return each_keyed(left, keys, judge)


def follows_within(
    left: Bound, right: Bound, on: Sequence[str], within: float
) -> list[ItemVerdict]:
    """Each left event is followed (in record order) by some right event (with equal ``on``)
    whose ``monotonic_time`` is at most ``within`` seconds later.

    Args:
        left: The events that must be followed.
        right: The events that must follow them.
        on: The fields the two events must record equally (none: any right event).
        within: The most seconds between a left event and the right event following it.

    Returns:
        One verdict per left item.

    Raises:
        RecordLacks: An event on either side has no ``monotonic_time``.
    """
    left_times = times(left, "follows_within")
    right_times = times(right, "follows_within")
    keys = OnKeys(on) if on else None
    tables: dict[Key, tuple[list[int], list[int]]] = {}
    for key, members in grouped(keys, right).items():
        members.sort(key=lambda i: right.positions[i] or 0)
        earliest = members[:]  # suffix minimum of time: the earliest right item from j on
        for j in range(len(members) - 2, -1, -1):
            if right_times[earliest[j + 1]] <= right_times[members[j]]:
                earliest[j] = earliest[j + 1]
        tables[key] = ([right.positions[i] or 0 for i in members], earliest)
    same = _same_text(on)
    bound = format_within(within)

    def judge(n: int, label: str, key: Key) -> ItemVerdict:
        table = tables.get(key)
        at = -1 if table is None else bisect.bisect_right(table[0], left.positions[n] or 0)
        if table is None or at >= len(table[0]):
            return ItemVerdict(label, False, f"no {right.name!r} item{same} follows it")
        first = table[1][at]
        delay = right_times[first] - left_times[n]
        cid = right.labels[first]
        if delay <= within:
            reason = f"{right.name!r} item {cid} follows it after {delay:g}s"
            return ItemVerdict(label, True, reason, closest=cid)
        reason = (
            f"the earliest {right.name!r} item{same} after it, {cid}, follows after "
            f"{delay:g}s (more than {bound})"
        )
        at_most = f"at most {left_times[n] + within:g}"
        mismatch = Mismatch("$.monotonic_time", at_most, right_times[first], reason)
        return ItemVerdict(label, False, reason, (mismatch,), cid)

    return each_keyed(left, keys, judge)


__all__ = ["MAX_SUBSET_FIELDS", "follows_within", "has_matching", "precedes"]
