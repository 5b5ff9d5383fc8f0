"""The plain-string fast path of ``on.event`` selects exactly what its matchers select."""

from __future__ import annotations

import pytest

from agent_asserts import TrialRecord, on
from agent_asserts.selectors import EventSelector


def record() -> TrialRecord:
    b = TrialRecord.builder()
    b.event("audit", operation_ref="op-7", actor_ref="agent")
    b.event("audit", operation_ref="op-8", actor_ref="agent")
    b.event("mutation", operation_ref="op-7", actor_ref="user")
    b.event("mutation", phase="7")
    b.event("audit")
    return b.build()


@pytest.mark.parametrize(
    "selector",
    [
        on.event(operation_ref="op-7"),
        on.event("audit", operation_ref="op-7"),
        on.event(operation_ref="op-7", actor_ref="user"),
        on.event("mutation", phase="7"),
        on.event(operation_ref="op-9"),
        on.event("audit", event_type=None, actor_ref="agent"),
    ],
)
def test_the_fast_path_selects_what_the_matchers_select(selector: EventSelector) -> None:
    rec = record()
    assert selector._quick is not None
    expected = [i for i, event in enumerate(rec.events) if selector.matches(event)]
    assert selector.select(rec) == expected


def test_a_matcher_or_payload_filter_takes_the_general_path() -> None:
    assert on.event(payload={"x": 1})._quick is None
    assert on.event(entity_ref="order:1")._quick is None
    assert on.event(turn=1)._quick is None
