"""Selectors answered by a record's indexes alone: a tool name, an event kind.

``on.tool("refund")`` selects exactly the record's per-name index of ``refund`` calls, and
``on.event("audit")`` its per-kind index of ``audit`` events: no event needs reading. A check
whose selectors are all of that sort describes them by an *index plan* — one ``(table, key)``
per selector, ``("tools", name)`` or ``("kinds", kind)`` — which is hashable, so what the check
derives from the positions can be kept on the record's index (:meth:`RecordIndex.derive`) under
a key that names the plan: the record never changes, and the plan is all the check reads.

>>> from agent_asserts.record import TrialRecord
>>> from agent_asserts.selectors import on
>>> index_plan([on.tool("lookup"), on.event("audit")])
(('tools', 'lookup'), ('kinds', 'audit'))
>>> index_plan([on.tool("lookup", arguments={"id": 1})])
()
>>> rec = TrialRecord.builder().tool("lookup").event("audit").tool("lookup").build()
>>> planned_positions(rec.index, ("tools", "lookup"))
(0, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from agent_asserts.selectors.calls import EventSelector, Selector, ToolSelector

if TYPE_CHECKING:
    from agent_asserts.record.index import RecordIndex

Plan = tuple[tuple[str, str], ...]
"""One ``(table, key)`` per selector: ``("tools", name)`` or ``("kinds", kind)``."""


def plan_entry(selector: Selector) -> tuple[str, str] | None:
    """``(table, key)`` when ``selector`` selects exactly one index's positions, else None.

    Only the two selector classes themselves (a subclass may select otherwise), and only
    when the selector says it takes every candidate (no field to read on the events).

    >>> plan_entry(ToolSelector("a")), plan_entry(ToolSelector("a|b")), plan_entry(EventSelector())
    (('tools', 'a'), None, None)
    """
    kind = type(selector)
    if kind is ToolSelector and selector.takes_every_candidate():
        return ("tools", cast(ToolSelector, selector).names[0])
    if kind is EventSelector and selector.takes_every_candidate():
        return ("kinds", cast(str, cast(EventSelector, selector).kind))
    return None


def index_plan(selectors: Sequence[Selector]) -> Plan:
    """The plan of ``selectors``; ``()`` when one of them reads the events.

    >>> index_plan([ToolSelector("a"), ToolSelector("a", is_error=True)])
    ()
    """
    plan = []
    for selector in selectors:
        entry = plan_entry(selector)
        if entry is None:
            return ()
        plan.append(entry)
    return tuple(plan)


def planned_positions(index: RecordIndex, entry: tuple[str, str]) -> tuple[int, ...]:
    """The positions the plan entry ``entry`` selects: one index lookup.

    >>> from agent_asserts.record import TrialRecord
    >>> planned_positions(TrialRecord.builder().user("hi").build().index, ("kinds", "message"))
    (0,)
    """
    table, key = entry
    return (index.tools if table == "tools" else index.kinds).get(key, ())


__all__ = ["Plan", "index_plan", "plan_entry", "planned_positions"]
