"""The ``claude-code`` adapter: Claude Code session transcripts and Claude Agent SDK
``stream-json`` output (fixtures written from the documented and observed line schema)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from adapter_checks import assert_conserved, assert_standard_run, fixture

from agent_asserts import RecordError, TrialRecord
from agent_asserts.record.adapters import claude_code, detect
from agent_asserts.record.reading import iter_records

SHAPES = ["refund_session.jsonl", "agent_sdk_stream.jsonl"]


def _lines(name: str) -> list[dict[str, Any]]:
    text = fixture("claude-code", name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


def test_a_session_transcript_through_load_auto() -> None:
    record = TrialRecord.load(fixture("claude-code", SHAPES[0]))
    assert_standard_run(record, subagent=False, invalid_arguments=False, timestamps=True)
    models = [e for e in record.events if e.kind == "model_call"]
    assert len(models) == 4  # msg_01Aa's three lines are one response
    assert models[0].payload.usage.input_tokens == 100  # the last line's usage, cache counted
    assert record.usage is not None and record.usage.total_tokens == 525
    (handoff,) = [e for e in record.events if e.kind == "delegation"]
    assert (handoff.payload.subagent, handoff.payload.mode) == ("billing", "tool")
    assert handoff.payload.extra["input"] == "Is a refund over 40 allowed for order A1049?"
    billing = [e for e in record.events if e.agent == "billing"]
    assert [e.kind for e in billing] == ["model_call", "message"]
    assert [
        e.payload.text for e in record.events if e.kind == "message" and e.actor_ref == "user"
    ] == ["Refund order A1049"]


def test_agent_sdk_stream_json_through_iter_records() -> None:
    (record,) = iter_records(fixture("claude-code", SHAPES[1]))
    lookup = next(e for e in record.tool_calls if e.payload.name == "mcp__shop__lookup_order")
    assert (lookup.payload.mcp_server, lookup.payload.result) == ("shop", {"status": "paid"})
    refund = next(e for e in record.tool_calls if e.payload.name == "mcp__shop__issue_refund")
    assert refund.payload.outcome == "failed" and lookup.group_id == refund.group_id is not None
    assert record.usage is not None and record.usage.total_tokens == 495
    assert record.usage.reported_by == claude_code.REPORTED_BY
    assert record.metadata["num_turns"] == 4 and record.status == "completed"
    assert [t.name for t in record.tools or ()][:2] == ["Task", "Bash"]
    assert next(e for e in record.events if e.kind == "delegation").payload.subagent == "billing"


@pytest.mark.parametrize("name", SHAPES)
def test_conservation_every_block_and_text_line_reaches_the_record(name: str) -> None:
    lines = _lines(name)
    positions = []
    for index, line in enumerate(lines):
        if line["type"] not in ("user", "assistant"):
            continue
        content = line["message"]["content"]
        if isinstance(content, str):
            positions.append(f"$[{index}].message")
        else:
            positions.extend(f"$[{index}].message.content[{j}]" for j in range(len(content)))
    assert_conserved(claude_code.to_record(lines), positions)


def test_each_line_of_a_file_is_detected_and_the_file_is_read_whole() -> None:
    for name in SHAPES:
        lines = _lines(name)
        assert all(detect(line) == "claude-code" for line in lines)
        assert detect(lines) == "claude-code"


def test_an_errored_result_fails_the_run_and_max_turns_leaves_it_incomplete() -> None:
    lines = _lines(SHAPES[1])
    failed = copy.deepcopy(lines)
    failed[-1].update(is_error=True, subtype="error_during_execution")
    assert claude_code.to_record(failed).status == "failed"
    stopped = copy.deepcopy(lines)
    stopped[-1]["subtype"] = "error_max_turns"
    assert claude_code.to_record(stopped).status == "incomplete"
    silent = copy.deepcopy(lines)
    del silent[-2]  # the last assistant line: the result's text is the reply
    assert claude_code.to_record(silent).reply == silent[-1]["result"]


def test_api_errors_bad_lines_and_several_sessions(tmp_path: Path) -> None:
    lines = _lines(SHAPES[0])
    error = copy.deepcopy(lines[-2])
    error["isApiErrorMessage"] = True
    error["message"].update(id="msg_err", content=[{"type": "text", "text": "API Error: 529"}])
    other = [{**line, "sessionId": "other"} for line in copy.deepcopy(lines[1:2])]
    data = [
        *lines,
        error,
        {"type": "user", "uuid": "x", "sessionId": lines[1]["sessionId"]},
        *other,
    ]
    first, second = claude_code.to_records(data)
    failed = [e for e in first.events if e.kind == "model_call" and e.payload.is_error]
    assert [e.payload.error_message for e in failed] == ["API Error: 529"]
    assert [p.reason for p in first.parse_errors] == ["a user line without a message object"]
    assert second.metadata["session_id"] == "other"
    with pytest.raises(RecordError, match="2 sessions"):
        claude_code.to_record(data)
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in data) + "\n", encoding="utf-8")
    assert len(list(iter_records(path))) == 2
    with pytest.raises(RecordError, match="expected Claude Code transcript lines"):
        list(claude_code.to_records("x"))
