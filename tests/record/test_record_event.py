"""Event envelope and typed payloads."""

from __future__ import annotations

import attrs
import pytest

from agent_asserts import MISSING
from agent_asserts.record import (
    BlockPayload,
    Button,
    DelegationPayload,
    Event,
    MemoryPayload,
    MessagePayload,
    ParseError,
    SkillPayload,
    ToolCallPayload,
    Usage,
)
from agent_asserts.record.event import ENVELOPE_FIELDS, payload_to_dict


def test_event_to_dict_full_envelope_in_canonical_order() -> None:
    event = Event(
        "mutation",
        {"op": "refund"},
        "e7",
        event_type="update",
        wall_time="2024-05-01T10:00:00Z",
        monotonic_time=12.5,
        actor_ref="agent",
        surface="api",
        audience="internal",
        turn=2,
        phase="act",
        entity_refs=("order:A1",),
        operation_ref="op-7",
        correlation_id="c1",
        caused_by_event_id="e6",
        status="succeeded",
        duration=0.25,
        parent_id="e5",
        group_id="g1",
        agent="researcher",
    )
    data = event.to_dict()
    assert list(data) == list(ENVELOPE_FIELDS)
    assert data["entity_refs"] == ["order:A1"]
    assert data["payload"] == {"op": "refund"}


def test_event_to_dict_omits_none_and_keeps_payload() -> None:
    assert Event("step", {}, "e0").to_dict() == {"event_id": "e0", "kind": "step", "payload": {}}


def test_event_is_frozen() -> None:
    event = Event("step", {}, "e0")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        event.kind = "other"  # type: ignore[misc]


def test_event_fields_match_the_fast_constructor() -> None:
    assert [f.name for f in attrs.fields(Event)] == [
        "kind",
        "payload",
        "event_id",
        "event_type",
        "wall_time",
        "monotonic_time",
        "actor_ref",
        "surface",
        "audience",
        "turn",
        "phase",
        "entity_refs",
        "operation_ref",
        "correlation_id",
        "caused_by_event_id",
        "status",
        "duration",
        "parent_id",
        "group_id",
        "agent",
    ]
    assert set(ENVELOPE_FIELDS) == {f.name for f in attrs.fields(Event)}


def test_payload_to_dict_defaults_and_extra() -> None:
    assert MessagePayload().to_dict() == {"text": ""}
    assert MessagePayload("a", extra={"lang": "en"}).to_dict() == {"lang": "en", "text": "a"}
    assert ToolCallPayload("t", None, result=0).to_dict() == {
        "name": "t",
        "arguments": None,
        "result": 0,
        "is_error": False,
        "source": "local",
    }
    full = ToolCallPayload(
        "t", {}, None, True, "mcp", "srv", "sk", "c1", "boom", extra={"latency": 3}
    ).to_dict()
    assert full == {
        "latency": 3,
        "name": "t",
        "arguments": {},
        "is_error": True,
        "source": "mcp",
        "mcp_server": "srv",
        "skill_id": "sk",
        "call_id": "c1",
        "error_message": "boom",
    }
    assert MemoryPayload("m").value is MISSING
    assert MemoryPayload("m", None).to_dict() == {"name": "m", "value": None}
    assert SkillPayload("s", "p").to_dict() == {"skill_id": "s", "step_id": "p"}
    assert BlockPayload("s", "b").to_dict() == {"skill_id": "s", "block_id": "b"}
    assert DelegationPayload("r", output=[1]).to_dict() == {"subagent": "r", "output": [1]}
    assert Button("OK", "/ok").to_dict() == {"title": "OK", "payload": "/ok"}


def test_known_fields_win_over_extra() -> None:
    assert SkillPayload("s", extra={"skill_id": "other"}).to_dict() == {"skill_id": "s"}


def test_payload_to_dict_copies_plain_mappings() -> None:
    raw = {"a": 1}
    out = payload_to_dict(raw)
    assert out == raw
    assert out is not raw


def test_usage_total_defaults() -> None:
    assert Usage(2, 3).total_tokens == 5
    assert Usage(2).total_tokens is None
    assert Usage(2, 3, 10).total_tokens == 10
    assert Usage().to_dict() == {}


def test_parse_error_str_and_dict() -> None:
    error = ParseError("events[2]", "bad", item={"x": 1}, source="t.json")
    assert str(error) == "t.json:events[2]: bad"
    assert error.to_dict() == {
        "position": "events[2]",
        "reason": "bad",
        "item": {"x": 1},
        "source": "t.json",
    }
