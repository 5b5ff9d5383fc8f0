"""The record side of the HTML report: one line per event, and which results cite it.

>>> from agent_asserts.testing import demo_record
>>> for event in demo_record().events[:2]:
...     print(describe_event(event))
user: 'Please refund A1049'
refunds_lookup(orderId='A1049') → {'refundable': True, 'amount': 42}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from agent_asserts._missing import MISSING
from agent_asserts.matching import render
from agent_asserts.record.event import (
    BlockPayload,
    DelegationPayload,
    MemoryPayload,
    MessagePayload,
    SkillPayload,
    ToolCallPayload,
)

if TYPE_CHECKING:
    from agent_asserts.record import Event, TrialRecord
    from agent_asserts.results import CaseResult

LIMIT = 200
MAX_EVENTS = 500
CONTEXT = 3


def _arguments(arguments: Any) -> str:
    if isinstance(arguments, Mapping):
        return ", ".join(f"{k}={render(v, 60)}" for k, v in arguments.items())
    return "" if arguments is None else render(arguments, 80)


def describe_event(event: Event) -> str:
    """A one-line description of an event for the timeline (never raises)."""
    try:
        return _describe(event)
    except Exception as exc:  # a report must never crash on odd data
        return f"<unrenderable event: {type(exc).__name__}>"


def _describe(event: Event) -> str:
    p = event.payload
    if isinstance(p, ToolCallPayload):
        text = f"{p.name}({_arguments(p.arguments)})"
        if p.is_error:
            text += " raised " + render(p.error_message or p.result, 80)
        elif p.result is not None:
            text += " → " + render(p.result, 80)
        return text
    if isinstance(p, MessagePayload):
        text = f"{event.actor_ref or 'message'}: {render(p.text, LIMIT)}"
        if p.utter_name:
            text += f" [{p.utter_name}]"
        if p.buttons:
            text += " buttons: " + ", ".join(b.title for b in p.buttons)
        return text
    if isinstance(p, MemoryPayload):
        value = "" if p.value is MISSING else " = " + render(p.value, 80)
        return f"{event.event_type or 'memory'} {p.name}{value}"
    if isinstance(p, SkillPayload):
        step = f" (step {p.step_id})" if p.step_id else ""
        return f"skill {event.event_type or ''} {p.skill_id}{step}"
    if isinstance(p, BlockPayload):
        step = f" (step {p.step_id})" if p.step_id else ""
        return f"block {event.event_type or ''} {p.skill_id}/{p.block_id}{step}"
    if isinstance(p, DelegationPayload):
        return f"sub-agent {p.subagent} {event.event_type or 'completed'}"
    return render(p, LIMIT)


def evidence_key(item: Any) -> str:
    """The text that identifies an evidence item: an event id, a JSON Pointer, a delta path.

    >>> evidence_key("e3"), evidence_key({"path": "/a", "op": "added"})
    ('e3', '/a')
    """
    if isinstance(item, str):
        return item
    path = item.get("path") if isinstance(item, Mapping) else getattr(item, "path", None)
    return path if isinstance(path, str) else render(item, 80)


def citations(case: CaseResult) -> dict[str, list[tuple[str, str, bool]]]:
    """For each evidence key, the results that cite it: ``(result name, role, failed)``.

    ``role`` is ``closest`` (the closest candidate of a failed check) or ``evidence``.
    """
    cited: dict[str, list[tuple[str, str, bool]]] = {}
    for result in case.results:
        if result.closest is not None:
            cited.setdefault(result.closest, []).append((result.name, "closest", result.failed))
        for item in result.evidence:
            key = evidence_key(item)
            if key != result.closest:
                cited.setdefault(key, []).append((result.name, "evidence", result.failed))
    return cited


def shown_positions(record: TrialRecord, cited: Iterable[str]) -> list[int | None]:
    """Positions of the events to show; ``None`` marks a gap of hidden events.

    Every event is shown up to ``MAX_EVENTS``; past that, the first ``CONTEXT * 5`` events and
    the cited ones with ``CONTEXT`` neighbours on each side.
    """
    n = len(record.events)
    if n <= MAX_EVENTS:
        return list(range(n))
    keep = set(range(min(n, CONTEXT * 5)))
    ids = set(cited)
    for position, event in enumerate(record.events):
        if event.event_id in ids:
            keep.update(range(max(0, position - CONTEXT), min(n, position + CONTEXT + 1)))
    shown: list[int | None] = []
    previous = -1
    for position in sorted(keep):
        if position != previous + 1:
            shown.append(None)
        shown.append(position)
        previous = position
    if previous != n - 1:
        shown.append(None)
    return shown


__all__ = ["citations", "describe_event", "evidence_key", "shown_positions"]
