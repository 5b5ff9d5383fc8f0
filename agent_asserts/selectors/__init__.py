"""Selectors: *which events* a check looks at, shared by every family.

``on.tool(...)``, ``on.message(...)``, ``on.memory_set(...)``, ``on.memory_cleared(...)``,
``on.skill(...)``, ``on.block(...)``, ``on.subagent(...)`` and ``on.event(...)`` build
:class:`Selector` objects. A selector names the narrowest record index that can hold its
events (``candidates``), so a check costs O(matching events), and explains a non-matching
event as a list of mismatches (for the "closest candidate" of a failure).

>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.builder().tool("lookup", arguments={"id": 7}).build()
>>> sel = on.tool("lookup", arguments={"id": 7})
>>> [rec.events[i].event_id for i in sel.select(rec)]
['e0']
"""

from __future__ import annotations

from typing import Any

from agent_asserts._boundary import guard
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


class on:  # noqa: N801 - a namespace read as a word: on.tool(...)
    """Selector constructors (``from agent_asserts import on``).

    >>> on.tool("refund")
    on.tool('refund')
    >>> on.event("audit", operation_ref="op-7")
    on.event('audit', operation_ref='op-7')
    """

    tool = ToolSelector
    message = MessageSelector
    memory_set = MemorySetSelector
    memory_cleared = MemoryClearedSelector
    skill = SkillSelector
    block = BlockSelector
    subagent = SubagentSelector

    @staticmethod
    def event(kind: str | None = None, event_type: str | None = None, **filters: Any) -> Selector:
        """Events by kind, event type and envelope fields (``payload=`` matches partially).

        >>> on.event("audit").kind
        'audit'
        """
        return EventSelector(kind=kind, event_type=event_type, filters=filters)


guard(on, "on")


def as_selector(
    value: Selector | str, *, default: str = "tool", name: str | None = None
) -> Selector:
    """A selector, or a plain string read as a tool name (``default="tool"``) or a kind.

    Args:
        value: The selector or string.
        default: What a string means: ``"tool"`` (a tool name) or ``"kind"`` (an event kind).
        name: The parameter (and position) ``value`` was given as, named in the error
            (``calls[1]``).

    Raises:
        TypeError: ``value`` is neither a selector nor a string.

    >>> as_selector("lookup")
    on.tool('lookup')
    >>> as_selector("audit", default="kind")
    on.event('audit')
    >>> as_selector(5, name="calls[1]")
    Traceback (most recent call last):
    ...
    TypeError: 'calls[1]' must be a selector (on.*) or a tool name (got 5)
    """
    if isinstance(value, Selector):
        return value
    if isinstance(value, str):
        if default == "tool":
            return ToolSelector(value)
        if default == "kind":
            return EventSelector(kind=value)
        raise ValueError(f"'default' must be 'tool' or 'kind' (got {default!r})")
    what = "an event kind" if default == "kind" else "a tool name"
    hint = "; give several steps as separate arguments" if isinstance(value, list | tuple) else ""
    if name is None:
        raise TypeError(f"expected a selector (on.*) or {what}, got {value!r}{hint}")
    raise TypeError(f"'{name}' must be a selector (on.*) or {what} (got {value!r}){hint}")


__all__ = ["Selector", "as_selector", "on"]
