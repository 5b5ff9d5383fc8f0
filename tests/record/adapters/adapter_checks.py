"""What every trace adapter must get right, checked the same way on every format's fixture."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from agent_asserts import TrialRecord
from agent_asserts.loaders import load

FIXTURES = Path(__file__).parent / "fixtures"

SUITE = {
    "name": "refund run",
    "checks": [
        {"called_tool": {"name": "lookup_order", "arguments": {"order_id": "A1049"}}},
        {"called_tool": {"name": "issue_refund", "is_error": True}},
        {"message_includes": "gateway timed out"},
        "succeeded",
        {"total_tokens_at_most": 1000},
        {"called_tool": "cancel_order"},
    ],
}
"""The same suite on every format's standard run: five passes and one failure."""

VERDICTS = ["pass", "pass", "pass", "pass", "pass", "fail"]
PARTIAL_USAGE_VERDICTS = ["pass", "pass", "pass", "pass", "invalid", "fail"]
"""The suite on a run where only some model calls carry usage (a history with the final
response beside it): the token budget is ``invalid``, never judged on part of the run."""


def fixture(format_name: str, name: str = "refund_run.json") -> Path:
    return FIXTURES / format_name / name


def suite_verdicts(record: TrialRecord) -> list[str]:
    (case,) = load(SUITE).evaluate(record)
    return [r.status.value for r in case.results]


def tool(record: TrialRecord, name: str):  # type: ignore[no-untyped-def]
    (event,) = [e for e in record.tool_calls if e.payload.name == name]
    return event


def assert_standard_run(
    record: TrialRecord,
    *,
    subagent: bool = True,
    reasoning: bool = True,
    invalid_arguments: bool = True,
    timestamps: bool = False,
    partial_usage: bool = False,
) -> None:
    """The standard refund run, as every adapter must read it (``partial_usage``: only some
    model calls carry usage, so the run has none and the token budget is ``invalid``)."""
    assert suite_verdicts(record) == (PARTIAL_USAGE_VERDICTS if partial_usage else VERDICTS)
    lookup, refund = tool(record, "lookup_order"), tool(record, "issue_refund")
    assert lookup.payload.outcome == "succeeded"
    assert lookup.payload.result == {"status": "paid"}
    assert refund.payload.outcome == "failed" and refund.payload.is_error
    assert "gateway timed out" in (refund.payload.error_message or "")
    assert lookup.group_id is not None and lookup.group_id == refund.group_id
    models = [e for e in record.events if e.kind == "model_call"]
    assert len(models) >= 2
    assert any(e.payload.usage is not None for e in models)
    if partial_usage:
        assert record.usage is None and record.run_usage is None
        assert any(e.payload.usage is None for e in models)
    else:
        assert record.usage is not None and record.usage.total_tokens
    assert record.status == "completed"
    assert "gateway timed out" in (record.reply or "")
    # tool results never open a turn: one user message, one turn
    assert [e.turn for e in record.events if e.kind == "message" and e.actor_ref == "user"] == [1]
    assert max(e.turn or 0 for e in record.events) == 1
    if reasoning:
        assert any(e.kind == "reasoning" for e in record.events)
    if subagent:
        (handoff,) = [e for e in record.events if e.kind == "delegation"]
        assert handoff.payload.subagent == "billing"
        assert record.events[-1].agent == "billing"
        assert lookup.agent is None
    if invalid_arguments:
        notify = tool(record, "notify_customer")
        assert notify.payload.arguments_raw == '{"order_id": '
        assert any("arguments are not valid JSON" in p.reason for p in record.parse_errors)
    if timestamps:
        times = [e.wall_time for e in record.events if e.wall_time is not None]
        assert times and all(isinstance(t, float) and t > 1e9 for t in times)


def covered(record: TrialRecord) -> set[str]:
    """Every input position an event was made from, or a parse error names."""
    seen: set[str] = set()
    for event in record.events:
        payload = event.payload
        items = payload.get("trace_items") if isinstance(payload, dict) else None
        if items is None:
            items = getattr(payload, "extra", {}).get("trace_items", [])
        seen.update(items)
    seen.update(error.position for error in record.parse_errors)
    return seen


def assert_conserved(record: TrialRecord, positions: Iterable[str]) -> None:
    """Every input item is an event, part of one, or a parse error."""
    missing = sorted(set(positions) - covered(record))
    assert not missing, f"input items lost: {missing}"


def load_json(path: Path) -> object:
    return json.loads(path.read_text(encoding="utf-8"))
