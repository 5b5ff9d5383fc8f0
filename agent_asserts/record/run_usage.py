"""The run's token usage: as recorded, or the sum over its ``model_call`` events.

>>> from agent_asserts.record import TrialRecord
>>> rec = (TrialRecord.builder().model_call("m", {"input_tokens": 5, "output_tokens": 1})
...        .model_call("m", {"input_tokens": 7, "output_tokens": 2}).build())
>>> sum_model_calls(rec.events)
Usage(input_tokens=12, output_tokens=3, total_tokens=15, reported_by='sum over 2 model_call events')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from agent_asserts.record.model_payloads import ModelCallPayload
from agent_asserts.record.usage import USAGE_COUNTERS, Usage

if TYPE_CHECKING:
    from agent_asserts.record.event import Event


def sum_model_calls(events: Sequence[Event]) -> Usage | None:
    """The sum of the usage of every ``model_call`` event, or None when there is none or one
    of them has no usage (a partial sum would undercount).

    A counter (or ``details`` key) is summed only when every call has it; ``reported_by``
    says the usage is a sum.

    >>> from agent_asserts.record import TrialRecord
    >>> sum_model_calls(TrialRecord.builder().model_call("m").build().events) is None
    True
    """
    usages: list[Usage] = []
    for event in events:
        payload = event.payload
        if isinstance(payload, ModelCallPayload):
            if payload.usage is None:
                return None
            usages.append(payload.usage)
    if not usages:
        return None
    counts: list[int | None] = []
    for name in USAGE_COUNTERS:
        values = [getattr(u, name) for u in usages]
        counts.append(None if None in values else sum(values))
    keys = set(usages[0].details).intersection(*(u.details for u in usages[1:]))
    details = {key: sum(u.details[key] for u in usages) for key in sorted(keys)}
    noun = "event" if len(usages) == 1 else "events"
    return Usage(
        input_tokens=counts[0],
        output_tokens=counts[1],
        total_tokens=counts[2],
        details=details,
        reported_by=f"sum over {len(usages)} model_call {noun}",
    )


__all__ = ["sum_model_calls"]
