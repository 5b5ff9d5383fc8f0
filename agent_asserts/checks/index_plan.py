"""Selectors whose selection a record's indexes can keep: a tool name, an event kind.

``on.tool("refund")`` selects exactly the record's per-name index of ``refund`` calls, and
``on.event("audit")`` its per-kind index of ``audit`` events: no event needs reading;
``on.event("audit", operation_ref="op-7")`` reads only the ``audit`` events, comparing plain
strings. A check whose selectors are all of these sorts describes them by an *index plan* —
one hashable entry per selector, naming what it selects (``("tools", name)``,
``("kinds", kind)``, ``("events", kind, event_type, filters)``) — so what the check derives
from their positions can be kept on the record's index (:meth:`RecordIndex.derive`) under a
key that names the plan: the record never changes, and the plan is all the check reads.

>>> from agent_asserts.record import TrialRecord
>>> from agent_asserts.selectors import on
>>> index_plan([on.tool("lookup"), on.event("audit")])
(('tools', 'lookup'), ('kinds', 'audit'))
>>> index_plan([on.tool("lookup", arguments={"id": 1})])
()
>>> rec = TrialRecord.builder().tool("lookup").event("audit").tool("lookup").build()
>>> selected(rec, on.tool("lookup"), ("tools", "lookup"))
((0, 2), ('e0', 'e2'))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import attrs

from agent_asserts._missing import MISSING
from agent_asserts.selectors.calls import (
    BlockSelector,
    EventSelector,
    MemoryClearedSelector,
    MemorySetSelector,
    MessageSelector,
    Selector,
    SkillSelector,
    SubagentSelector,
    ToolSelector,
)

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord

Plan = tuple[tuple[Any, ...], ...]
"""One :func:`plan_entry` per selector."""


def plan_entry(selector: Selector) -> tuple[Any, ...] | None:
    """What ``selector`` selects, as a hashable entry; None when a field holds more than
    plain values (a matcher, a mapping), or when it reads every event (nothing an index
    would keep: no kind).

    Only this package's selector classes themselves (a subclass may select otherwise): a
    tool name alone is ``("tools", name)``, a kind alone ``("kinds", kind)``, plain-string
    envelope filters ``("events", kind, event_type, filters)``, any other selector its class
    and field values. Stricter than :func:`~agent_asserts.selectors.base.selector_key`
    (which keys matchers by content, to reuse a check): what a matcher or a mapping selects
    can depend on the evaluation's options (``unrecorded_as_matching``), so such a selection
    is never kept on the record.

    >>> plan_entry(ToolSelector("a")), plan_entry(EventSelector())
    (('tools', 'a'), None)
    >>> plan_entry(EventSelector("audit", filters={"operation_ref": "op-7"}))
    ('events', 'audit', None, (('operation_ref', 'op-7'),))
    >>> plan_entry(ToolSelector("a", arguments={"x": 1})) is None
    True
    """
    kind = type(selector)
    if kind is EventSelector:
        events = cast(EventSelector, selector)
        if events.kind is None:
            return None
        if events.takes_every_candidate():
            return ("kinds", events.kind)
        if events._quick is not None:  # plain strings on envelope fields, compared strictly
            return ("events", events.kind, events.event_type, tuple(events.filters.items()))
        return None
    names = _FIELDS.get(kind)
    if names is None:
        return None
    if kind is ToolSelector and selector.takes_every_candidate():
        return ("tools", cast(ToolSelector, selector).names[0])
    values = tuple([_typed(getattr(selector, name)) for name in names])
    return None if None in values else ("fields", kind, values)


def _typed(value: Any) -> tuple[Any, ...] | None:
    """``(type, value)`` for a plain value (``True == 1`` and hash alike, so the type is
    kept), a tuple item by item; None for anything else."""
    kind = type(value)
    if kind in _PLAIN:
        return (kind, value)
    if kind is tuple:
        items = tuple(map(_typed, value))
        return None if None in items else (tuple, items)
    return None


_PLAIN = frozenset({str, int, bool, type(None), type(MISSING)})
# the selectors whose selection depends on their init fields alone, and those fields
_FIELDS: dict[type, tuple[str, ...]] = {
    kind: tuple(field.name for field in attrs.fields(kind) if field.init)
    for kind in (
        ToolSelector,
        MessageSelector,
        MemorySetSelector,
        MemoryClearedSelector,
        SkillSelector,
        BlockSelector,
        SubagentSelector,
    )
}


def index_plan(selectors: Sequence[Selector]) -> Plan:
    """The plan of ``selectors``; ``()`` when one of them has no entry.

    >>> index_plan([ToolSelector("a"), ToolSelector("a", arguments={"x": 1})])
    ()
    """
    plan = []
    for selector in selectors:
        entry = plan_entry(selector)
        if entry is None:
            return ()
        plan.append(entry)
    return tuple(plan)


def selected(
    record: TrialRecord, selector: Selector, entry: tuple[Any, ...]
) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The positions ``selector`` selects and their event ids, kept on the record's index
    under its plan ``entry``.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().user("hi").event("audit").build()
    >>> selected(rec, EventSelector("audit"), ("kinds", "audit"))
    ((1,), ('e1',))
    """
    return record.index.derive(("selected", entry), _selected, record, selector)


def _selected(record: TrialRecord, selector: Selector) -> tuple[tuple[int, ...], tuple[str, ...]]:
    positions = tuple(selector.select(record))
    return positions, record.index.ids_at(positions)


__all__ = ["Plan", "index_plan", "plan_entry", "selected"]
