"""Validation of the canonical dict form: every problem, with its JSON path, exact text."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import pytest
from hypothesis import given
from record_strategies import event_dicts

from agent_asserts.record import Problem, RecordError, TrialRecord
from agent_asserts.record.decoding import decode_event as _decode_event
from agent_asserts.record.event import TurnTracker


def error_text(data: Any) -> str:
    with pytest.raises(RecordError) as info:
        TrialRecord.from_dict(data)
    return str(info.value)


def lines(*problems: str) -> str:
    return "\n".join([f"invalid record: {len(problems)} problem(s)", *(f"  {p}" for p in problems)])


def ev(**fields: Any) -> dict[str, Any]:
    return {"events": [fields]}


CASES: list[tuple[str, Any, str]] = [
    ("top level list", [], lines("$: must be an object (got [])")),
    ("top level string", "record", lines("$: must be an object (got 'record')")),
    ("top level null", None, lines("$: must be an object (got None)")),
    ("events not a list", {"events": {}}, lines("$.events: must be a list (got {})")),
    ("events null", {"events": None}, lines("$.events: must be a list (got None)")),
    ("events string", {"events": "abc"}, lines("$.events: must be a list (got 'abc')")),
    (
        "unknown key with hint",
        {"stauts": "ok"},
        lines("$.stauts: unknown key (did you mean 'status'?)"),
    ),
    ("unknown key no hint", {"zzz": 1}, lines("$.zzz: unknown key")),
    ("odd unknown key", {"a b": 1}, lines("$['a b']: unknown key")),
    ("steps string", {"steps": "four"}, lines("$.steps: must be an integer (got 'four')")),
    ("steps bool", {"steps": True}, lines("$.steps: must be an integer (got True)")),
    ("steps float", {"steps": 4.0}, lines("$.steps: must be an integer (got 4.0)")),
    ("steps negative", {"steps": -1}, lines("$.steps: must be a non-negative integer (got -1)")),
    ("status", {"status": False}, lines("$.status: must be a string (got False)")),
    ("reply", {"reply": ["a"]}, lines("$.reply: must be a string (got ['a'])")),
    ("usage list", {"usage": [1]}, lines("$.usage: must be an object (got [1])")),
    (
        "usage fields",
        {"usage": {"input_tokens": "9", "ouput_tokens": 3, "total_tokens": False}},
        lines(
            "$.usage.ouput_tokens: unknown key (did you mean 'output_tokens'?)",
            "$.usage.input_tokens: must be an integer (got '9')",
            "$.usage.total_tokens: must be an integer (got False)",
        ),
    ),
    ("errors null", {"errors": None}, lines("$.errors: must be a list (got None)")),
    ("errors item", {"errors": [{1}]}, lines("$.errors[0]: must be JSON data (got set {1})")),
    (
        "surfaces string",
        {"surfaces": "tool_call"},
        lines("$.surfaces: must be a list (got 'tool_call')"),
    ),
    ("surfaces item", {"surfaces": ["a", 2]}, lines("$.surfaces[1]: must be a string (got 2)")),
    ("metadata", {"metadata": []}, lines("$.metadata: must be an object (got [])")),
    (
        "state not JSON",
        {"initial_state": {"a": {"b": object}}, "final_state": {1: 2}},
        lines(
            "$.initial_state.a.b: must be JSON data (got type <class 'object'>)",
            "$.final_state: keys must be strings (got 1)",
        ),
    ),
    (
        "parse errors",
        {"parse_errors": [{"position": 1, "why": "x"}, "x"]},
        lines(
            "$.parse_errors[0].why: unknown key",
            "$.parse_errors[0].position: must be a string (got 1)",
            "$.parse_errors[0].reason: required field missing",
            "$.parse_errors[1]: must be an object (got 'x')",
        ),
    ),
    ("event not object", {"events": [5]}, lines("$.events[0]: must be an object (got 5)")),
    ("event null", {"events": [None]}, lines("$.events[0]: must be an object (got None)")),
    ("kind missing", ev(payload={}), lines("$.events[0].kind: required field missing")),
    ("kind null", ev(kind=None), lines("$.events[0].kind: must be a string (got None)")),
    ("kind empty", ev(kind=""), lines("$.events[0].kind: must be a non-empty string (got '')")),
    ("kind list", ev(kind=["a"]), lines("$.events[0].kind: must be a string (got ['a'])")),
    (
        "unknown envelope key",
        ev(kind="audit", tunr=1),
        lines("$.events[0].tunr: unknown key (did you mean 'turn'?)"),
    ),
    (
        "memory event type",
        ev(kind="memory", event_type="write", payload={"name": "a"}),
        lines(
            "$.events[0].event_type: must be one of 'set', 'clear' for kind 'memory' (got 'write')"
        ),
    ),
    (
        "memory event type missing",
        ev(kind="memory", payload={"name": "a", "value": 1}),
        lines("$.events[0].event_type: required field missing"),
    ),
    (
        "skill event type",
        ev(kind="skill", event_type="started", payload={"skill_id": "s"}),
        lines(
            "$.events[0].event_type: must be one of 'activated', 'completed', 'cancelled', "
            "'interrupted', 'resumed' for kind 'skill' (got 'started')"
        ),
    ),
    (
        "block event type",
        ev(
            kind="ordered_block", event_type="activated", payload={"skill_id": "s", "block_id": "b"}
        ),
        lines(
            "$.events[0].event_type: must be one of 'entered', 'completed', 'cancelled', "
            "'interrupted', 'resumed' for kind 'ordered_block' (got 'activated')"
        ),
    ),
    (
        "event type not a string",
        ev(kind="audit", event_type=3),
        lines("$.events[0].event_type: must be a string (got 3)"),
    ),
    (
        "envelope types",
        ev(
            kind="audit",
            event_id=7,
            wall_time=True,
            monotonic_time="1",
            actor_ref=1,
            turn="1",
            entity_refs="order:1",
            payload=None,
        ),
        lines(
            "$.events[0].event_id: must be a string (got 7)",
            "$.events[0].wall_time: must be a string or a number (got True)",
            "$.events[0].monotonic_time: must be a number (got '1')",
            "$.events[0].actor_ref: must be a string (got 1)",
            "$.events[0].turn: must be an integer (got '1')",
            "$.events[0].entity_refs: must be a list (got 'order:1')",
            "$.events[0].payload: must be an object (got None)",
        ),
    ),
    (
        "turn negative and bool",
        {"events": [{"kind": "a", "turn": -2}, {"kind": "a", "turn": False}]},
        lines(
            "$.events[0].turn: must be a non-negative integer (got -2)",
            "$.events[1].turn: must be an integer (got False)",
        ),
    ),
    (
        "entity ref item",
        ev(kind="audit", entity_refs=["a", None]),
        lines("$.events[0].entity_refs[1]: must be a string (got None)"),
    ),
    (
        "empty event id",
        ev(kind="a", event_id=""),
        lines("$.events[0].event_id: must be a non-empty string (got '')"),
    ),
    (
        "duplicate ids",
        {"events": [{"kind": "a", "event_id": "x"}, {"kind": "a", "event_id": "x"}]},
        lines("$.events[1].event_id: duplicate event id 'x' (already used by $.events[0])"),
    ),
    (
        "assigned id collides",
        {"events": [{"kind": "a", "event_id": "e1"}, {"kind": "a"}]},
        lines(
            "$.events[1].event_id: duplicate event id 'e1' (assigned by position)"
            " (already used by $.events[0])"
        ),
    ),
    (
        "tool name missing",
        ev(kind="tool_call", payload={"arguments": {}}),
        lines("$.events[0].payload.name: required field missing"),
    ),
    (
        "tool without payload",
        ev(kind="tool_call"),
        lines("$.events[0].payload.name: required field missing"),
    ),
    (
        "tool fields",
        ev(
            kind="tool_call",
            payload={
                "name": 3,
                "arguments": {1: 2},
                "is_error": "no",
                "source": "remote",
                "mcp_server": 1,
                "call_id": [],
            },
        ),
        lines(
            "$.events[0].payload.name: must be a string (got 3)",
            "$.events[0].payload.arguments: keys must be strings (got 1)",
            "$.events[0].payload.is_error: must be a boolean (got 'no')",
            "$.events[0].payload.source: must be one of 'local', 'mcp' (got 'remote')",
            "$.events[0].payload.mcp_server: must be a string (got 1)",
            "$.events[0].payload.call_id: must be a string (got [])",
        ),
    ),
    (
        "tool null source and is_error",
        ev(kind="tool_call", payload={"name": "t", "source": None, "is_error": None}),
        lines(
            "$.events[0].payload.is_error: must be a boolean (got None)",
            "$.events[0].payload.source: must be a string (got None)",
        ),
    ),
    (
        "memory values",
        {
            "events": [
                {"kind": "memory", "event_type": "set", "payload": {"name": "a"}},
                {"kind": "memory", "event_type": "clear", "payload": {"name": "a", "value": 1}},
                {"kind": "memory", "event_type": "set", "payload": {"value": 1}},
            ]
        },
        lines(
            "$.events[0].payload.value: required field missing",
            "$.events[1].payload.value: not allowed for event_type 'clear'",
            "$.events[2].payload.name: required field missing",
        ),
    ),
    (
        "message fields",
        ev(
            kind="message",
            payload={
                "text": None,
                "utter_name": 1,
                "buttons": [{"titel": "x"}, 3, {"title": "a", "payload": 1}],
            },
        ),
        lines(
            "$.events[0].payload.text: must be a string (got None)",
            "$.events[0].payload.utter_name: must be a string (got 1)",
            "$.events[0].payload.buttons[0].titel: unknown key (did you mean 'title'?)",
            "$.events[0].payload.buttons[0].title: required field missing",
            "$.events[0].payload.buttons[1]: must be an object (got 3)",
            "$.events[0].payload.buttons[2].payload: must be a string (got 1)",
        ),
    ),
    (
        "buttons not a list",
        ev(kind="message", payload={"buttons": "OK"}),
        lines("$.events[0].payload.buttons: must be a list (got 'OK')"),
    ),
    (
        "skill and block and delegation",
        {
            "events": [
                {
                    "kind": "skill",
                    "event_type": "activated",
                    "payload": {"skill_id": "", "step_id": 1},
                },
                {"kind": "ordered_block", "event_type": "entered", "payload": {}},
                {"kind": "delegation", "payload": {"subagent": 3}},
            ]
        },
        lines(
            "$.events[0].payload.skill_id: must be a non-empty string (got '')",
            "$.events[0].payload.step_id: must be a string (got 1)",
            "$.events[1].payload.skill_id: required field missing",
            "$.events[1].payload.block_id: required field missing",
            "$.events[2].payload.subagent: must be a string (got 3)",
        ),
    ),
    (
        "extra payload key not JSON",
        ev(kind="message", payload={"text": "a", "blob": b"x"}),
        lines("$.events[0].payload.blob: must be JSON data (got bytes b'x')"),
    ),
    (
        "custom payload not JSON",
        ev(kind="audit", payload={"when": {1.5}}),
        lines("$.events[0].payload.when: must be JSON data (got set {1.5})"),
    ),
    (
        "long values are shortened",
        {"status": ["x" * 100]},
        lines("$.status: must be a string (got ['" + "x" * 54 + "...])"),
    ),
    (
        "every problem at once",
        {
            "tpyo": 1,
            "steps": "four",
            "events": [
                {"kind": "message", "payload": {"text": "hi"}},
                {"kind": "memory", "event_type": "write", "payload": {"name": "a"}},
                {"payload": {}},
                {"kind": "tool_call", "payload": {"name": "t"}},
                {"kind": "tool_call", "payload": {"arguments": {}}},
            ],
        },
        lines(
            "$.tpyo: unknown key",
            "$.steps: must be an integer (got 'four')",
            "$.events[1].event_type: must be one of 'set', 'clear' for kind 'memory' (got 'write')",
            "$.events[2].kind: required field missing",
            "$.events[4].payload.name: required field missing",
        ),
    ),
]


@pytest.mark.parametrize(("data", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_malformed_records(data: Any, expected: str) -> None:
    assert error_text(data) == expected


def test_problems_are_structured() -> None:
    with pytest.raises(RecordError) as info:
        TrialRecord.from_dict({"events": [{"kind": "tool_call", "payload": {}}], "steps": "x"})
    assert info.value.problems == (
        Problem("$.steps", "must be an integer (got 'x')"),
        Problem("$.events[0].payload.name", "required field missing"),
    )
    assert isinstance(info.value, ValueError)


def test_record_error_pickles() -> None:
    import pickle

    error = RecordError([Problem("$.a", "bad")])
    clone = pickle.loads(pickle.dumps(error))
    assert clone.problems == error.problems
    assert str(clone) == str(error)


def test_mappings_and_tuples_are_accepted() -> None:
    data = OrderedDict(
        events=(OrderedDict(kind="tool_call", payload={"name": "t", "arguments": {"l": (1, 2)}}),)
    )
    rec = TrialRecord.from_dict(data)
    assert rec.tool_calls[0].payload.arguments == {"l": [1, 2]}  # type: ignore[union-attr]


def test_unknown_payload_keys_go_to_extra() -> None:
    rec = TrialRecord.from_dict(
        {"events": [{"kind": "tool_call", "payload": {"name": "t", "latency_ms": 12}}]}
    )
    assert rec.tool_calls[0].payload.extra == {"latency_ms": 12}  # type: ignore[union-attr]
    assert rec.to_dict()["events"][0]["payload"]["latency_ms"] == 12


def test_delegation_event_type_defaults_to_completed() -> None:
    rec = TrialRecord.from_dict({"events": [{"kind": "delegation", "payload": {"subagent": "r"}}]})
    assert rec.events[0].event_type == "completed"


def test_numbers_for_times_are_kept() -> None:
    rec = TrialRecord.from_dict(
        {"events": [{"kind": "a", "wall_time": 1700000000, "monotonic_time": 3}]}
    )
    assert (rec.events[0].wall_time, rec.events[0].monotonic_time) == (1700000000, 3)


@given(event_dicts())
def test_a_valid_event_decodes_and_its_dict_form_decodes_to_it(raw: dict[str, Any]) -> None:
    problems: list[tuple[str, str]] = []
    event = _decode_event(raw, 4, problems, TurnTracker(), {})
    assert problems == [] and event is not None
    again = _decode_event(event.to_dict(), 4, problems, TurnTracker(), {})
    assert problems == [] and again == event


@pytest.mark.parametrize(
    "raw",
    [
        {"kind": "message", "payload": {"text": "hi", "buttons": []}},
        {"kind": "tool_call", "payload": {"name": "t", "arguments": (1,)}},
        {"kind": "tool_call", "payload": {"name": "t", "call_id": "c"}},
        {"kind": "audit", "wall_time": 1.5, "entity_refs": ("a",)},
        OrderedDict(kind="audit"),
    ],
)
def test_unusual_but_valid_events_decode(raw: dict[str, Any]) -> None:
    problems: list[tuple[str, str]] = []
    assert _decode_event(raw, 0, problems, TurnTracker(), {}) is not None
    assert problems == []
    TrialRecord.from_dict({"events": [raw]})
