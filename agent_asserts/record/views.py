"""Views of a record: the events of one agent, as a record of their own.

>>> from agent_asserts.record import TrialRecord
>>> rec = (TrialRecord.builder().event("agent_run", agent="billing", event_id="run")
...        .tool("refund", {}, parent_id="run").tool("notify", {}).build())
>>> [e.event_id for e in agent_view(rec, "billing").events]
['run', 'e1']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from agent_asserts.record.payloads import MessagePayload

if TYPE_CHECKING:
    from agent_asserts.record.trial import TrialRecord


def agent_positions(record: TrialRecord, name: str) -> list[int]:
    """Positions of the events of agent ``name`` and of their descendants (``parent_id``).

    >>> from agent_asserts.record import TrialRecord
    >>> agent_positions(TrialRecord.builder().user("hi").build(), "billing")
    []
    """
    events = record.events
    parent_of = {e.event_id: e.parent_id for e in events if e.parent_id is not None}
    agent_of = {e.event_id: e.agent for e in events}
    memo: dict[str, bool] = {}

    def belongs(event_id: str) -> bool:
        walked: list[str] = []
        seen: set[str] = set()
        node: str | None = event_id
        while node is not None and node not in memo and node not in seen:
            if agent_of.get(node) == name:
                memo[node] = True
                break
            walked.append(node)
            seen.add(node)
            node = parent_of.get(node)
        answer = memo.get(node, False) if node is not None else False
        for item in walked:
            memo[item] = answer
        return answer

    return [p for p, e in enumerate(events) if belongs(e.event_id)]


def agent_view(record: TrialRecord, name: str) -> TrialRecord:
    """The record of agent ``name`` (see :meth:`TrialRecord.for_agent`).

    >>> from agent_asserts.record import TrialRecord
    >>> agent_view(TrialRecord.builder().agent("hi", agent="b").build(), "b").reply
    'hi'
    """
    events = tuple(record.events[p] for p in agent_positions(record, name))
    reply = None
    for event in reversed(events):
        payload = event.payload
        if (
            event.actor_ref == "agent"
            and event.agent == name
            and isinstance(payload, MessagePayload)
        ):
            reply = payload.text
            break
    return attrs.evolve(record, events=events, reply=reply, usage=None, steps=None, status=None)


__all__ = ["agent_positions", "agent_view"]
