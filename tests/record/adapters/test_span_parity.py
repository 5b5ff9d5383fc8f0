"""Every span-format fixture: detected by shape (no false match), read with ``format="auto"``,
and given the same verdicts by the same suite."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from span_fixtures import REPLY, all_fixture_files, fixture_path, span_cases

from agent_asserts import EvalContext, TrialRecord
from agent_asserts.record.adapters import detect, formats


def _suite(rec: TrialRecord) -> list[tuple[str, str]]:
    """The same checks on every format's record of the reference scenario."""
    ctx = EvalContext(rec)
    ctx.called_tool("lookup_order", arguments={"order_id": "A1049"})
    ctx.called_tool("issue_refund", arguments={"order_id": "A1049", "amount": 42.0})
    ctx.not_called_tool("cancel_order")
    ctx.tool_order("lookup_order", "ask_policy")
    ctx.tool_order("lookup_order", "issue_refund")  # parallel: neither comes after the other
    ctx.no_failed_actions()
    ctx.message_includes("payment gateway timed out")
    ctx.total_tokens_at_most(100_000)
    ctx.total_tokens_at_most(100)
    ctx.trace_parsed()
    ctx.succeeded()
    return [(result.name, result.status.value) for result in ctx.results]


def _load(fmt: str, name: str) -> TrialRecord:
    return TrialRecord.load(fixture_path(fmt, name), format="auto")


@pytest.mark.parametrize(("fmt", "path"), all_fixture_files(), ids=lambda v: str(v)[-40:])
def test_every_fixture_is_detected_as_its_own_format_only(fmt: str, path: Path) -> None:
    assert fmt in formats()
    data = json.loads(path.read_text(encoding="utf-8"))
    assert detect(data) == fmt


@pytest.mark.parametrize(("fmt", "name"), span_cases())
def test_auto_loading_reads_the_reference_run(fmt: str, name: str) -> None:
    rec = _load(fmt, name)
    names = [e.payload.name for e in rec.tool_calls]
    assert names[:2] in (["lookup_order", "issue_refund"], ["issue_refund", "lookup_order"])
    assert names[2:] == ["ask_policy", "ask_policy"]
    assert rec.reply == REPLY
    assert rec.usage is not None and rec.usage.total_tokens
    assert [p.reason.split(":")[0] for p in rec.parse_errors] == ["arguments are not valid JSON"]


def test_the_same_suite_gives_the_same_verdicts_on_every_format() -> None:
    verdicts: dict[str, Any] = {}
    for fmt, name in span_cases():
        verdicts[f"{fmt}/{name}"] = _suite(_load(fmt, name))
    first = next(iter(verdicts.values()))
    assert all(v == first for v in verdicts.values()), json.dumps(verdicts, indent=1)
    assert first == [
        ("called_tool:lookup_order", "pass"),
        ("called_tool:issue_refund", "pass"),
        ("not_called_tool:cancel_order", "pass"),
        ("tool_order", "pass"),  # lookup_order then ask_policy
        ("tool_order", "fail"),  # lookup_order and issue_refund were parallel
        ("no_failed_actions", "fail"),
        ("message_includes:payment gateway timed out", "pass"),
        ("total_tokens_at_most:100000", "pass"),
        ("total_tokens_at_most:100", "fail"),
        ("trace_parsed", "fail"),
        ("succeeded", "pass"),
    ]


MESSAGE_FORMAT_FIXTURES = [("openai-chat", "refund_run.json")]
"""The message-list formats' fixtures of the same reference run (adapters of part 1)."""


def _reference_suite(rec: TrialRecord) -> list[tuple[str, str]]:
    """The checks on the facts every fixture of the reference run shares (no ``ask_policy``)."""
    ctx = EvalContext(rec)
    ctx.called_tool("lookup_order", arguments={"order_id": "A1049"})
    ctx.called_tool("issue_refund", arguments={"order_id": "A1049", "amount": 42.0})
    ctx.not_called_tool("cancel_order")
    ctx.tool_order("lookup_order", "issue_refund")  # parallel
    ctx.no_failed_actions()
    ctx.message_includes("payment gateway timed out")
    ctx.total_tokens_at_most(100_000)
    ctx.total_tokens_at_most(100)
    ctx.trace_parsed()
    ctx.succeeded()
    return [(result.name, result.status.value) for result in ctx.results]


@pytest.mark.parametrize(
    ("fmt", "name"), [*span_cases(), *MESSAGE_FORMAT_FIXTURES], ids=lambda v: str(v)
)
def test_span_and_message_formats_agree_on_the_reference_run(fmt: str, name: str) -> None:
    assert [status for _, status in _reference_suite(_load(fmt, name))] == [
        "pass", "pass", "pass", "fail", "fail", "pass", "pass", "fail", "fail", "pass"
    ]  # fmt: skip
