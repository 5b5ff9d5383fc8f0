"""TrialRecord: from_dict/to_dict/load, derived values, round trip."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from record_strategies import record_dicts

from agent_asserts.record import (
    Button,
    Event,
    MessagePayload,
    ParseError,
    RecordError,
    ToolCallPayload,
    TrialRecord,
    Usage,
)

EXAMPLE: dict[str, Any] = {
    "initial_state": {"orders": {"A1049": {"status": "paid"}}},
    "final_state": {"orders": {"A1049": {"status": "refunded"}}},
    "status": "completed",
    "reply": "Refund issued for order A1049",
    "steps": 4,
    "usage": {"input_tokens": 900, "output_tokens": 120, "total_tokens": 1020},
    "errors": [],
    "surfaces": [
        "message",
        "tool_call",
        "memory",
        "skill",
        "ordered_block",
        "delegation",
        "mutation",
        "audit",
    ],
    "events": [
        {"kind": "message", "actor_ref": "user", "turn": 1, "payload": {"text": "refund A1049"}},
        {
            "kind": "tool_call",
            "turn": 1,
            "payload": {
                "name": "refunds_lookup",
                "arguments": {"orderId": "A1049"},
                "result": {"refundable": True},
                "is_error": False,
                "source": "local",
            },
        },
        {
            "kind": "memory",
            "event_type": "set",
            "payload": {"name": "refund.order_id", "value": "A1049"},
        },
        {"kind": "memory", "event_type": "clear", "payload": {"name": "refund.draft_id"}},
        {"kind": "skill", "event_type": "activated", "payload": {"skill_id": "refund"}},
        {
            "kind": "ordered_block",
            "event_type": "entered",
            "payload": {"skill_id": "refund", "block_id": "main"},
        },
        {"kind": "delegation", "event_type": "completed", "payload": {"subagent": "researcher"}},
        {
            "kind": "message",
            "actor_ref": "agent",
            "turn": 1,
            "payload": {
                "text": "Refund issued",
                "utter_name": "utter_refund_done",
                "buttons": [{"title": "OK", "payload": "/ok"}],
            },
        },
        {
            "kind": "mutation",
            "operation_ref": "op-7",
            "actor_ref": "agent",
            "entity_refs": ["order:A1049"],
            "status": "succeeded",
            "payload": {},
        },
        {
            "kind": "audit",
            "operation_ref": "op-7",
            "actor_ref": "agent",
            "entity_refs": ["order:A1049"],
            "monotonic_time": 12.4,
            "payload": {"text": "refund"},
        },
    ],
}


def test_api_example_decodes() -> None:
    rec = TrialRecord.from_dict(EXAMPLE)
    assert len(rec.events) == 10
    assert [e.event_id for e in rec.events] == [f"e{i}" for i in range(10)]
    assert rec.events[1].payload == ToolCallPayload(
        "refunds_lookup", {"orderId": "A1049"}, {"refundable": True}
    )
    assert rec.events[7].payload == MessagePayload(
        "Refund issued", "utter_refund_done", (Button("OK", "/ok"),)
    )
    assert rec.events[9].payload == {"text": "refund"}
    assert rec.reply == "Refund issued for order A1049"
    assert rec.usage == Usage(900, 120, 1020)
    assert rec.surfaces is not None and "audit" in rec.surfaces
    assert rec.delta is not None and len(rec.delta) == 1
    assert TrialRecord.from_dict(rec.to_dict()) == rec


def test_from_dict_does_not_share_input_containers() -> None:
    data = {
        "initial_state": {"a": [1]},
        "events": [{"kind": "tool_call", "payload": {"name": "t", "arguments": {"x": 1}}}],
    }
    rec = TrialRecord.from_dict(data)
    data["initial_state"]["a"].append(2)  # type: ignore[index]
    data["events"][0]["payload"]["arguments"]["x"] = 2  # type: ignore[index]
    assert rec.initial_state == {"a": [1]}
    assert rec.tool_calls[0].payload.arguments == {"x": 1}  # type: ignore[union-attr]


def test_empty_record() -> None:
    rec = TrialRecord.from_dict({})
    assert rec == TrialRecord()
    assert rec.to_dict() == {"events": []}
    assert (rec.reply, rec.delta, rec.usage, rec.steps, rec.surfaces) == (
        None,
        None,
        None,
        None,
        None,
    )


def test_reply_defaults_to_last_agent_message() -> None:
    rec = TrialRecord.from_dict(
        {
            "events": [
                {"kind": "message", "actor_ref": "agent", "payload": {"text": "first"}},
                {"kind": "message", "actor_ref": "agent", "payload": {"text": "last"}},
                {"kind": "message", "actor_ref": "user", "payload": {"text": "bye"}},
                {"kind": "message", "actor_ref": "researcher", "payload": {"text": "not me"}},
            ]
        }
    )
    assert rec.reply == "last"
    assert rec.explicit_reply is None
    assert "reply" not in rec.to_dict()
    assert (
        TrialRecord.from_dict({"events": [{"kind": "message", "actor_ref": "user"}]}).reply is None
    )


def test_usage_total_defaults_when_decoded() -> None:
    rec = TrialRecord.from_dict({"usage": {"input_tokens": 3, "output_tokens": 4}})
    assert rec.usage == Usage(3, 4, 7)
    assert TrialRecord.from_dict({"usage": {"input_tokens": 3}}).usage == Usage(3)


def test_null_optional_values_mean_absent() -> None:
    rec = TrialRecord.from_dict(
        {
            "status": None,
            "reply": None,
            "steps": None,
            "usage": None,
            "surfaces": None,
            "final_state": None,
        }
    )
    assert rec == TrialRecord()


def test_surfaces_and_parse_errors_and_metadata() -> None:
    rec = TrialRecord.from_dict(
        {
            "surfaces": ["tool_call", "message"],
            "parse_errors": [{"position": "line 3", "reason": "bad", "item": "{x"}],
            "metadata": {"harness": "v1"},
            "errors": [{"type": "timeout"}],
        }
    )
    assert rec.surfaces == frozenset({"tool_call", "message"})
    assert rec.parse_errors == (ParseError("line 3", "bad", "{x"),)
    assert rec.metadata == {"harness": "v1"}
    assert rec.errors == ({"type": "timeout"},)
    assert rec.to_dict()["surfaces"] == ["message", "tool_call"]
    assert TrialRecord.from_dict(rec.to_dict()) == rec


def test_cached_values_are_computed_once() -> None:
    rec = TrialRecord.builder().agent("hi").build()
    assert rec.reply is rec.reply
    assert rec.tool_calls is rec.tool_calls
    assert rec.index is rec.index


def test_record_is_frozen_and_picklable() -> None:
    rec = TrialRecord.from_dict(EXAMPLE)
    with pytest.raises(AttributeError):
        rec.status = "x"  # type: ignore[misc]
    rec.build_indexes()
    clone = pickle.loads(pickle.dumps(rec))
    assert clone == rec
    assert clone.tool_positions("refunds_lookup") == (1,)


def test_direct_construction() -> None:
    rec = TrialRecord(
        events=[Event("step", {}, "s1")],
        reply="r",
        surfaces=["step"],
        errors=["e"],
    )
    assert rec.events[0].turn == 0
    assert rec.explicit_reply == "r"
    assert rec.surfaces == frozenset({"step"})
    assert rec.errors == ("e",)


def test_load(tmp_path: Path) -> None:
    file = tmp_path / "run.json"
    file.write_text(json.dumps(EXAMPLE), encoding="utf-8")
    assert TrialRecord.load(file) == TrialRecord.from_dict(EXAMPLE)
    assert TrialRecord.load(str(file)) == TrialRecord.from_dict(EXAMPLE)


def test_load_json_syntax_error_names_file_line_and_column(tmp_path: Path) -> None:
    file = tmp_path / "bad.json"
    file.write_text('{\n  "steps": 4,\n  "status": }\n', encoding="utf-8")
    with pytest.raises(RecordError) as info:
        TrialRecord.load(file)
    assert str(info.value) == (
        f"invalid record: 1 problem(s)\n  {file}:3:13: invalid JSON: Expecting value"
    )
    assert info.value.problems[0].path == ""
    assert info.value.problems[0].source == f"{file}:3:13"


def test_load_problems_name_the_file(tmp_path: Path) -> None:
    file = tmp_path / "bad.json"
    file.write_text('{"steps": "four", "events": [{"payload": {}}]}', encoding="utf-8")
    with pytest.raises(RecordError) as info:
        TrialRecord.load(file)
    assert str(info.value) == (
        "invalid record: 2 problem(s)\n"
        f"  {file}: $.steps: must be an integer (got 'four')\n"
        f"  {file}: $.events[0].kind: required field missing"
    )


@pytest.mark.parametrize(
    ("text", "problems"),
    [
        ('{"steps": 1, "steps": 2}', ["$.steps: duplicate key"]),
        (
            '{"events": [{"kind": "audit", "payload": {"a": 1, "a": 2, "a": 3}, "kind": "x"}],'
            ' "odd key": 1, "odd key": 2}',
            [
                "$.events[0].kind: duplicate key",
                "$.events[0].payload.a: duplicate key",
                "$['odd key']: duplicate key",
            ],
        ),
        (
            '{"final_state": {"a": NaN, "b": [Infinity, -Infinity]}}',
            [
                "$.final_state.a: invalid JSON: NaN is not a JSON value",
                "$.final_state.b[0]: invalid JSON: Infinity is not a JSON value",
                "$.final_state.b[1]: invalid JSON: -Infinity is not a JSON value",
            ],
        ),
        (
            '{"final_state": {"x": 1e999}}',
            ["$.final_state.x: invalid JSON: the number 1e999 is too large"],
        ),
        (
            '{"steps": ' + "9" * 5000 + "}",
            ["$.steps: invalid JSON: an integer of 5000 digits is too long (the limit is 4300)"],
        ),
        ("[" * 100_000, ["invalid JSON: the document is nested too deeply"]),
    ],
)
def test_load_rejects_what_json_accepts_quietly(
    tmp_path: Path, text: str, problems: list[str]
) -> None:
    file = tmp_path / "run.json"
    file.write_text(text, encoding="utf-8")
    with pytest.raises(RecordError) as info:
        TrialRecord.load(file)
    assert str(info.value) == "\n".join(
        [f"invalid record: {len(problems)} problem(s)", *(f"  {file}: {p}" for p in problems)]
    )


def test_load_not_utf8(tmp_path: Path) -> None:
    file = tmp_path / "bin.json"
    file.write_bytes(b'{"status": "\xff"}')
    with pytest.raises(RecordError, match="not UTF-8 text"):
        TrialRecord.load(file)


def test_load_missing_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        TrialRecord.load(tmp_path / "nope.json")


@settings(max_examples=150)
@given(record_dicts())
def test_round_trip(data: dict[str, Any]) -> None:
    rec = TrialRecord.from_dict(data)
    assert TrialRecord.from_dict(rec.to_dict()) == rec
    assert TrialRecord.from_dict(json.loads(json.dumps(rec.to_dict()))) == rec
    assert rec.to_dict() == TrialRecord.from_dict(rec.to_dict()).to_dict()


@settings(max_examples=50)
@given(record_dicts())
def test_builder_and_indexes_agree_with_events(data: dict[str, Any]) -> None:
    rec = TrialRecord.from_dict(data)
    for position, event in enumerate(rec.events):
        assert position in rec.positions_of_kind(event.kind)
        assert rec.position_of(event.event_id) == position
        assert event.turn is not None
        assert event.turn in rec.user_turns()


def test_public_names() -> None:
    import agent_asserts.record as record

    assert sorted(record.__all__) == sorted(
        [
            "TrialRecord",
            "RecordBuilder",
            "Event",
            "RecordError",
            "Problem",
            "Usage",
            "DeltaEntry",
            "ParseError",
            "Button",
            "MessagePayload",
            "ToolCallPayload",
            "MemoryPayload",
            "SkillPayload",
            "BlockPayload",
            "DelegationPayload",
            "ModelCallPayload",
            "ReasoningPayload",
            "GuardrailPayload",
            "DeclaredTool",
            "compute_delta",
            "escape_token",
            "parse_pointer",
            "resolve",
            "join",
        ]
    )
    for name in record.__all__:
        assert getattr(record, name) is not None
