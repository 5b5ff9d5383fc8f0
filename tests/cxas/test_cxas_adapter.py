"""The CES trace adapter: line forms, pairing, parse errors, conservation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_asserts.record import (
    DelegationPayload,
    MessagePayload,
    RecordError,
    ToolCallPayload,
    TrialRecord,
)
from agent_asserts.record.adapters import ces

TRACE = [
    "User: event: welcome",
    "User Query: event: welcome\nAgent Text: Hi! How can I help?",
    "User: I want ITEM-42",
    "User Query: I want ITEM-42\n"
    "Agent Transfer: Transferred to Orders Agent\n"
    "Tool Call: projects/p/locations/us/apps/a/tools/check_availability with args "
    "{'item_id': 'ITEM-42', 'quantity': 2.0}\n"
    "Tool Response: projects/p/locations/us/apps/a/tools/check_availability with result "
    "{'result': {'status': 'available', 'ok': True, 'note': None}}\n"
    "Agent Text: It is available. Shall I order it?",
    "User Query: yes\n"
    "Tool Call: create_order with args {'item_id': 'ITEM-42', 'confirmed': True}\n"
    "Custom Payload: {'card': {'type': 'receipt', 'items': ('ITEM-42',)}}\n"
    "Tool Response: create_order with result {'result': {'order_id': 'O-1'}}\n"
    "Agent Text: Done:\n"
    "order O-1\n"
    "\n"
    "see you",
    "Tool Call: end_session with args {'status': 'completed'}",
]


def result(trace: list[object] | None = None, **extra: object) -> dict[str, object]:
    out: dict[str, object] = {"name": "order", "passed": True, "detailed_trace": TRACE}
    if trace is not None:
        out["detailed_trace"] = trace
    out.update(extra)
    return out


def test_every_line_form_is_decoded() -> None:
    rec = ces.to_record(result())
    kinds = [(e.kind, e.actor_ref, e.turn) for e in rec.events]
    assert kinds == [
        ("message", "user", 1),
        ("message", "user", 1),
        ("message", "agent", 1),
        ("message", "user", 2),
        ("message", "user", 2),
        ("delegation", None, 2),
        ("tool_call", "agent", 2),
        ("message", "agent", 2),
        ("message", "user", 3),
        ("tool_call", "agent", 3),
        ("custom_payload", None, 3),
        ("message", "agent", 3),
        ("tool_call", "agent", 3),
    ]
    check = rec.events[6].payload
    assert isinstance(check, ToolCallPayload)
    assert check.name == "check_availability"
    assert check.arguments == {"item_id": "ITEM-42", "quantity": 2.0}
    assert check.result == {"result": {"status": "available", "ok": True, "note": None}}
    assert check.extra["resource"].endswith("/tools/check_availability")
    transfer = rec.events[5]
    assert isinstance(transfer.payload, DelegationPayload)
    assert (transfer.payload.subagent, transfer.event_type) == ("Orders Agent", "transferred")
    assert rec.events[10].payload == {
        "value": {"card": {"type": "receipt", "items": ["ITEM-42"]}},
        "trace_lines": ["detailed_trace[4] line 3"],
    }
    text = rec.events[11].payload
    assert isinstance(text, MessagePayload)
    assert text.text == "Done:\norder O-1\n\nsee you"
    assert text.extra["trace_lines"] == [
        "detailed_trace[4] line 5",
        "detailed_trace[4] line 6",
        "detailed_trace[4] line 8",
    ]
    simulator = rec.events[0].payload
    assert isinstance(simulator, MessagePayload) and simulator.extra["label"] == "User"
    assert rec.parse_errors == ()
    assert rec.metadata == {"name": "order", "passed": True}
    assert rec.surfaces == frozenset(ces.SURFACES)
    assert rec.reply == "Done:\norder O-1\n\nsee you"


def test_the_record_round_trips() -> None:
    rec = ces.to_record(result())
    assert TrialRecord.from_dict(rec.to_dict()) == rec


def test_responses_pair_with_the_most_recent_unpaired_call_of_their_name() -> None:
    rec = ces.to_record(
        result(
            [
                "Tool Call: lookup with args {'id': 1}",
                "Tool Call: lookup with args {'id': 2}",
                "Tool Call: other with args {}",
                "Tool Response: lookup with result {'n': 2}",
                "Tool Response: lookup with result {'n': 1}",
                "Tool Response: lookup with result {'n': 3}",
            ]
        )
    )
    calls = [e.payload for e in rec.tool_calls]
    assert [(c.name, c.arguments, c.result) for c in calls] == [
        ("lookup", {"id": 1}, {"n": 1}),
        ("lookup", {"id": 2}, {"n": 2}),
        ("other", {}, None),
        ("lookup", {}, {"n": 3}),
    ]
    assert calls[3].extra["unpaired"] is True
    assert rec.metadata["ces_warnings"] == [
        "detailed_trace[5]: response of 'lookup' has no call before it to pair with"
    ]
    assert rec.parse_errors == ()


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (  # the rejected node by its text and type, never a memory address
            "Tool Call: pay with args {'amount': Decimal('2')}",
            "call arguments: not a Python literal (malformed node or string on line 1: "
            "Decimal('2') (a Call))",
        ),
        (
            "Tool Call: pay with args {'a': [1, os.sep], 'b': 'x' * 3}",
            "call arguments: not a Python literal (malformed node or string on line 1: "
            "os.sep (an Attribute))",
        ),
        ("Tool Call: pay with args {'a': {1, 2}}", "call arguments: {1, 2} is not JSON data"),
        (
            "Tool Call: pay with args {(1, 2): 'x'}",
            "call arguments: the key (1, 2) is not a JSON key",
        ),
        ("Tool Call: pay with args {'a': 1e999}", "call arguments: inf is not a JSON number"),
        ("Tool Response: pay", "a tool response reads 'NAME with result VALUE'"),
        ("Tool Response: pay with result {'a': 1", "response result: not a Python literal ("),
        (
            "Custom Payload: {'a': __import__('os')}",
            "custom payload: not a Python literal (malformed node or string on line 1: "
            "__import__('os') (a Call))",
        ),
        ("Agent Transfer: Transferred to ", "an agent transfer names no agent"),
        ("Tool Call:  with args {}", "a tool call needs a tool name"),
        (
            "Something else: 42",
            "not a CES trace line (expected one of 'User Query:', 'User:', "
            "'Agent Text:', 'Tool Call:', 'Tool Response:', 'Agent Transfer:', 'Custom Payload:')",
        ),
    ],
)
def test_undecodable_lines_become_parse_errors(line: str, reason: str) -> None:
    rec = ces.to_record(result(["User Query: hi", line]), source="sim.json")
    assert [e.kind for e in rec.events] == ["message"]
    (error,) = rec.parse_errors
    assert error.position == "detailed_trace[1]"
    assert error.reason.startswith(reason)
    assert error.item == line
    assert str(error).startswith(f"sim.json:detailed_trace[1]: {reason}")


def test_literal_eval_never_runs_code(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    line = f"Tool Call: x with args {{'a': open({str(marker)!r}, 'w')}}"
    rec = ces.to_record(result([line]))
    assert not marker.exists()
    assert len(rec.parse_errors) == 1


def test_labels_with_notes_and_agents() -> None:
    rec = ces.to_record(
        result(
            [
                "Agent Text (Diag): hello",
                "Tool Call [Session Closeout Agent]: end_session",
                "Agent Transfer: Billing Agent",
            ]
        )
    )
    payloads = [e.payload for e in rec.events]
    assert isinstance(payloads[0], MessagePayload)
    assert payloads[0].extra["note"] == "Diag"
    assert isinstance(payloads[1], ToolCallPayload)
    assert (payloads[1].name, payloads[1].arguments) == ("end_session", {})
    assert payloads[1].extra["agent"] == "Session Closeout Agent"
    assert isinstance(payloads[2], DelegationPayload) and payloads[2].subagent == "Billing Agent"


def test_missing_or_malformed_traces() -> None:
    rec = ces.to_record({"name": "x", "passed": False, "error": "quota exceeded"})
    assert rec.events == () and rec.surfaces == frozenset()
    assert [str(e) for e in rec.parse_errors] == [
        "detailed_trace: the result has no detailed_trace"
    ]
    assert rec.errors == ("quota exceeded",)
    assert rec.metadata == {"name": "x", "passed": False, "error": "quota exceeded"}
    rec = ces.to_record({"detailed_trace": "User Query: hi"})
    assert [e.reason for e in rec.parse_errors] == ["detailed_trace must be a list of strings"]
    rec = ces.to_record({"detailed_trace": ["User Query: hi", 7]})
    assert [str(e) for e in rec.parse_errors] == [
        "detailed_trace[1]: a trace entry must be a string"
    ]
    with pytest.raises(RecordError, match="a CES result must be a mapping"):
        ces.to_record(["User Query: hi"])  # type: ignore[arg-type]


def test_read_a_result_file(tmp_path: Path) -> None:
    file = tmp_path / "sim.json"
    file.write_text(json.dumps(result(["Tool Call: a with args {'x': }"])))
    rec = ces.read(file)
    assert [str(e).split(": ")[0] for e in rec.parse_errors] == [f"{file}:detailed_trace[0]"]
    file.write_text("{oops")
    with pytest.raises(RecordError, match="invalid JSON"):
        ces.read(file)
    file.write_text('{"detailed_trace": [], "detailed_trace": ["Agent Text: hi"]}')
    with pytest.raises(RecordError) as info:
        ces.read(file)
    assert str(info.value) == (
        f"invalid record: 1 problem(s)\n  {file}: $.detailed_trace: duplicate key"
    )


def _lines(trace: list[object]) -> set[str]:
    """Every non-blank line of a trace, by position."""
    out: set[str] = set()
    for i, entry in enumerate(trace):
        if not isinstance(entry, str):
            out.add(f"detailed_trace[{i}]")
            continue
        lines = entry.split("\n")
        for n, line in enumerate(lines, start=1):
            if line.strip():
                out.add(f"detailed_trace[{i}]" + (f" line {n}" if len(lines) > 1 else ""))
    return out


@pytest.mark.parametrize(
    "trace",
    [
        TRACE,
        [
            "Tool Response: x with result 1",
            "Tool Call: x",
            "Tool Response: x with result 2",
            "garbage",
            "Tool Call: y with args {",
            3,
            "Agent Text: a\nb\nTool Call: z",
        ],
        ["User Query: a\n\nUser Query: b", "Custom Payload: [1, (2, 3)]", "Custom Payload: {1}"],
    ],
)
def test_conservation_every_line_is_an_event_part_of_one_or_a_parse_error(
    trace: list[object],
) -> None:
    rec = ces.to_record(result(trace))
    used: list[str] = []
    for event in rec.events:
        payload = event.payload
        extra = payload.extra if hasattr(payload, "extra") else payload
        used += extra["trace_lines"]
    used += [e.position for e in rec.parse_errors]
    assert sorted(used) == sorted(_lines(trace))
    assert len(used) == len(set(used))
