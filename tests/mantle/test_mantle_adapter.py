"""The Mantle tracker events adapter: both row forms, decoding, parse errors, conservation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_asserts import MISSING, EvalContext, RecordError, TrialRecord
from agent_asserts.record import (
    BlockPayload,
    Button,
    MemoryPayload,
    MessagePayload,
    SkillPayload,
    ToolCallPayload,
)
from agent_asserts.record.adapters import mantle

DATA = Path(__file__).parent / "data"


def test_flat_events_map_onto_typed_events() -> None:
    rec = mantle.to_record(
        [
            {"event": "user", "timestamp": 1.5, "text": "my card is damaged"},
            {
                "event": "bot",
                "text": "Which card?",
                "data": {"buttons": [{"title": "Visa", "payload": "/visa"}, {"title": "Other"}]},
                "metadata": {"utter_action": "utter_ask_card"},
            },
            {"event": "skill_activated", "skill_id": "card_replace"},
            {"event": "skill_cancelled", "skill_id": "card_replace", "step_id": "autonomous"},
            {"event": "ordered_block_entered", "skill_id": "card_replace", "block_id": "main"},
            {"event": "memory_set", "key": "card_replace.reason", "value": "damaged"},
            {"event": "memory_cleared", "key": "card_replace.draft"},
            {
                "event": "tool_executed",
                "tool_name": "submit_transfer",
                "arguments": {"amount": 5},
                "source": "mcp",
                "mcp_server": "banking",
                "result": {"ok": False},
                "is_error": True,
                "error_message": "declined",
                "metadata": {"skill_id": "card_replace"},
            },
        ]
    )
    events = rec.events
    assert [(e.kind, e.event_type, e.actor_ref, e.turn) for e in events] == [
        ("message", None, "user", 1),
        ("message", None, "agent", 1),
        ("skill", "activated", None, 1),
        ("skill", "cancelled", None, 1),
        ("ordered_block", "entered", None, 1),
        ("memory", "set", None, 1),
        ("memory", "clear", None, 1),
        ("tool_call", None, None, 1),
    ]
    assert events[0].wall_time == 1.5
    assert events[0].payload == MessagePayload("my card is damaged")
    bot = events[1].payload
    assert isinstance(bot, MessagePayload)
    assert bot.utter_name == "utter_ask_card"
    assert bot.buttons == (Button("Visa", "/visa"), Button("Other"))
    assert events[3].payload == SkillPayload("card_replace", "autonomous")
    assert events[4].payload == BlockPayload("card_replace", "main")
    assert events[5].payload == MemoryPayload("card_replace.reason", "damaged")
    assert events[6].payload == MemoryPayload("card_replace.draft", MISSING)
    tool = events[7].payload
    assert isinstance(tool, ToolCallPayload)
    assert (tool.name, tool.arguments, tool.source, tool.mcp_server) == (
        "submit_transfer",
        {"amount": 5},
        "mcp",
        "banking",
    )
    assert (tool.is_error, tool.error_message, tool.skill_id, tool.result) == (
        True,
        "declined",
        "card_replace",
        {"ok": False},
    )
    assert rec.parse_errors == ()
    assert rec.surfaces == mantle.MANTLE_SURFACES


def test_nested_form_decodes_json_string_fields() -> None:
    rec = mantle.to_record(
        [
            {
                "conversation_id": "c-1",
                "timestamp": "2025-01-01T10:00:00Z",
                "event_id": "ev-7",
                "sequence": 7,
                "memory_set": {"key": "project.flag", "value_json": "true"},
            },
            {
                "conversation_id": "c-1",
                "sequence": 8,
                "tool_executed": {
                    "tool_name": "order_replacement",
                    "source": "local",
                    "arguments_json": '{"shipping": "standard"}',
                    "result_json": "[1, 2]",
                    "metadata": {"skill_id": "card_replace"},
                },
            },
        ]
    )
    first, second = rec.events
    assert first.event_id == "ev-7"
    assert first.correlation_id == "c-1"
    assert first.wall_time == "2025-01-01T10:00:00Z"
    assert first.payload == MemoryPayload("project.flag", True, {"sequence": 7})
    assert isinstance(second.payload, ToolCallPayload)
    assert second.payload.arguments == {"shipping": "standard"}
    assert second.payload.result == [1, 2]
    assert second.payload.skill_id == "card_replace"
    assert EvalContext(rec).memory_was_set("project.flag", True).result.passed


def test_unknown_event_types_are_kept_as_generic_events() -> None:
    rec = mantle.to_record(
        [
            {"event": "session_started", "metadata": {"channel": "web"}},
            {"event": "message", "text": "clashes with a typed kind"},
            {"sequence": 3, "restart": {"reason": "timeout"}},
        ]
    )
    assert [(e.kind, e.payload) for e in rec.events] == [
        ("session_started", {"metadata": {"channel": "web"}}),
        ("mantle_message", {"text": "clashes with a typed kind"}),
        ("restart", {"reason": "timeout", "sequence": 3}),
    ]
    assert EvalContext(rec).event("session_started").result.passed


def test_undecodable_rows_become_parse_errors() -> None:
    rows: list[Any] = [
        7,
        {"event": ""},
        {"sequence": 1, "user": {"text": "a"}, "bot": {"text": "b"}},
        {"sequence": 2},
        {"event": "memory_set", "key": "a.b"},
        {"event": "tool_executed", "tool_name": "t", "source": "remote"},
        {"event": "tool_executed", "tool_name": "t", "arguments_json": "{oops"},
        {"event": "bot", "data": {"buttons": [{"payload": "/x"}]}},
        {"event": "skill_completed"},
        {"event": "user", "text": 3},
    ]
    rec = mantle.to_record(rows, source="run.json")
    assert rec.events == ()
    assert [str(p) for p in rec.parse_errors] == [
        "run.json:[0]: a tracker event must be an object (got int)",
        "run.json:[1]: 'event' must be a non-empty string (got '')",
        "run.json:[2]: expected 'event' or exactly one payload key (found 'user', 'bot')",
        "run.json:[3]: expected 'event' or exactly one payload key (found none)",
        "run.json:[4]: memory_set: 'value' (or 'value_json') is missing",
        "run.json:[5]: tool_executed: 'source' must be 'local' or 'mcp' (got 'remote')",
        "run.json:[6]: tool_executed: 'arguments_json' is not valid JSON: Expecting property name"
        " enclosed in double quotes",
        "run.json:[7]: bot: 'data.buttons[0]' must be {title, payload} (got {'payload': '/x'})",
        "run.json:[8]: skill_completed: 'skill_id' must be a non-empty string (got nothing)",
        "run.json:[9]: user: 'text' must be a string (got 3)",
    ]
    assert rec.parse_errors[0].item == 7
    assert EvalContext(rec).trace_parsed().result.status.value == "fail"


def test_turns_follow_mantles_rule() -> None:
    rec = mantle.to_record(
        [
            {"event": "user", "text": "/session_start"},
            {"event": "bot", "text": "Hi"},
            {"event": "user", "text": "replace my card"},
            {"event": "tool_executed", "tool_name": "a", "source": "local"},
            {"event": "user", "text": "/choose_card"},
            {"event": "tool_executed", "tool_name": "b", "source": "local"},
            {"event": "user", "text": ""},
            {"event": "user", "text": "thanks"},
        ]
    )
    assert [e.turn for e in rec.events] == [0, 0, 1, 1, 1, 1, 1, 2]
    assert EvalContext(rec).tools_within_one_turn("a", "b", allow_extra_calls=False).result.passed


def test_event_ids_are_kept_and_made_unique() -> None:
    rec = mantle.to_record(
        [
            {"event": "user", "text": "a", "event_id": "e1"},
            {"event": "user", "text": "b"},
            {"event": "user", "text": "c", "event_id": "e1"},
            {"event": "user", "text": "d", "event_id": 42},
        ]
    )
    ids = [e.event_id for e in rec.events]
    assert ids[0] == "e1" and ids[3] == "42"
    assert len(set(ids)) == 4


def test_tracker_dump_and_bad_top_level() -> None:
    rec = mantle.to_record({"sender_id": "u1", "events": [{"event": "bot", "text": "Hi"}]})
    assert rec.metadata == {"sender_id": "u1"}
    assert rec.reply == "Hi"
    with pytest.raises(RecordError, match="expected a list of Mantle tracker events"):
        mantle.to_record({"events": "nope"})


def test_read_json_array_dump_and_lines(tmp_path: Path) -> None:
    rows = [{"event": "user", "text": "hi"}, {"event": "bot", "text": "yo"}]
    array = tmp_path / "run.json"
    array.write_text(json.dumps(rows, indent=2))
    assert mantle.read(array).reply == "yo"
    dump = tmp_path / "dump.json"
    dump.write_text(json.dumps({"events": rows}, indent=2))
    assert len(mantle.read(dump).events) == 2
    lines = tmp_path / "run.jsonl"
    lines.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    assert len(mantle.read(lines).events) == 2
    broken = tmp_path / "broken.json"
    broken.write_text('[{"event": "user"},\n {"event": }]')
    with pytest.raises(RecordError) as info:
        mantle.read(broken)
    assert str(info.value).splitlines()[1] == f"  {broken}:2:12: invalid JSON: Expecting value"


def test_read_is_strict_json(tmp_path: Path) -> None:
    dump = tmp_path / "dump.json"
    dump.write_text('{"events": [{"event": "user", "text": "a", "text": "b"}]}')
    with pytest.raises(RecordError) as info:
        mantle.read(dump)
    assert str(info.value) == (
        f"invalid record: 1 problem(s)\n  {dump}: $.events[0].text: duplicate key"
    )
    array = tmp_path / "run.json"
    array.write_text('[{"event": "user", "timestamp": NaN}]')
    with pytest.raises(RecordError) as info:
        mantle.read(array)
    assert str(info.value).splitlines()[1] == (
        f"  {array}: $[0].timestamp: invalid JSON: NaN is not a JSON value"
    )
    lines = tmp_path / "run.jsonl"
    lines.write_text(
        '{"event": "user", "text": "hi"}\n{"event": "bot", "text": "a", "text": "b"}\n'
        '{"event": "bot", "text": "x", "timestamp": Infinity}\n'
    )
    rec = mantle.read(lines)
    assert [str(p) for p in rec.parse_errors] == [
        f"{lines}:line 2: not JSON: $.text: duplicate key",
        f"{lines}:line 3: not JSON: $.timestamp: Infinity is not a JSON value",
    ]
    assert len(rec.events) == 1


def test_mixed_lines_file_conserves_every_row() -> None:
    path = DATA / "tracker_mixed.jsonl"
    rec = mantle.read(path)
    rows = [line for line in path.read_text().splitlines() if line.strip()]
    assert len(rec.events) + len(rec.parse_errors) == len(rows)
    assert [str(p) for p in rec.parse_errors] == [
        f"{path}:line 4: not JSON: Expecting ',' delimiter (column 45)",
        f"{path}:line 7: expected 'event' or exactly one payload key (found none)",
    ]
    assert [e.kind for e in rec.events] == [
        "message", "message", "memory", "tool_call", "session_started", "skill", "message",
    ]  # fmt: skip
    ctx = EvalContext(rec)
    assert ctx.memory_was_set("card_replace.reason", "damaged").result.passed
    assert ctx.called_tool("order_replacement", {"shipping": "standard"}).result.passed


_scalar = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5))
_json = st.recursive(
    _scalar,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)
_types = st.sampled_from(
    ["user", "bot", "memory_set", "memory_cleared", "tool_executed", "skill_activated",
     "ordered_block_entered", "session_started", ""]
)  # fmt: skip
_fields = st.dictionaries(
    st.sampled_from(
        ["text", "key", "value", "value_json", "tool_name", "source", "arguments",
         "arguments_json", "is_error", "skill_id", "block_id", "step_id", "data", "metadata"]
    ),
    _json,
    max_size=5,
)  # fmt: skip
_flat = st.builds(lambda kind, fields: {**fields, "event": kind}, _types, _fields)
_nested = st.builds(
    lambda kind, fields, seq: {"sequence": seq, kind or "x": fields},
    _types,
    _fields,
    st.integers(0, 9),
)
_row = st.one_of(_flat, _nested, _json)


@settings(max_examples=300, deadline=None)
@given(st.lists(_row, max_size=12))
def test_conservation_every_row_is_an_event_or_a_parse_error(rows: list[Any]) -> None:
    rec = mantle.to_record(rows)
    assert len(rec.events) + len(rec.parse_errors) == len(rows)
    positions = {p.position for p in rec.parse_errors}
    assert len(positions) == len(rec.parse_errors)
    assert len({e.event_id for e in rec.events}) == len(rec.events)
    again = TrialRecord.from_dict(json.loads(json.dumps(rec.to_dict(), default=str)))
    assert len(again.events) == len(rec.events)
