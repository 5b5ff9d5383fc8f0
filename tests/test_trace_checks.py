"""The checks of the traces family (docs/checks-traces.md): each with passing, failing and
invalid records, exact messages, and the same check from a suite file (native key)."""

from __future__ import annotations

from typing import Any

import pytest

from agent_asserts import EvalContext, TrialRecord, on
from agent_asserts.loaders import loads

TOOLS = [
    {"name": "lookup", "parameters": {"type": "object", "properties": {"id": {"type": "string"}},
                                      "required": ["id"]}},
    {"name": "refund", "parameters": {"type": "object",
                                      "properties": {"amount": {"type": "number"}}}},
]  # fmt: skip


def trace() -> TrialRecord:
    b = TrialRecord.builder()
    b.user("refund A1", wall_time="2026-05-01T10:00:00Z")
    b.model_call(
        "gpt-4o",
        {"input_tokens": 900, "output_tokens": 40, "details": {"cached_input_tokens": 512}},
        wall_time="2026-05-01T10:00:01Z",
        duration=0.8,
    )
    b.tool("lookup", {"id": "A1"}, group_id="r1", wall_time="2026-05-01T10:00:02Z", duration=0.5)
    b.tool("refund", {"amount": 42}, group_id="r1", wall_time="2026-05-01T10:00:02Z", duration=2.5)
    b.model_call("gpt-4o-mini", {"input_tokens": 100, "output_tokens": 10, "details": {}},
                 wall_time="2026-05-01T10:00:05Z", duration=0.5)  # fmt: skip
    b.agent("Refunded", wall_time="2026-05-01T10:00:06Z")
    return b.build(tools=TOOLS)


def bare() -> TrialRecord:
    return TrialRecord.builder().user("hi").tool("lookup", {"id": "A1"}).agent("ok").build()


def status_message(handle: Any) -> tuple[str, str]:
    return handle.result.status.value, handle.result.message


def test_duration_at_most() -> None:
    ctx = EvalContext(trace())
    assert status_message(ctx.duration_at_most("lookup", 1)) == (
        "pass",
        "all 1 event on.tool('lookup') took at most 1 s; slowest: e2 took 0.5 s",
    )
    assert status_message(ctx.duration_at_most(on.event("tool_call"), 2)) == (
        "fail",
        "1 of 2 events on.event('tool_call') took longer than 2 s; slowest: e3 took 2.5 s",
    )
    assert ctx.results[-1].evidence == ("e3",)
    assert status_message(EvalContext(bare()).duration_at_most("lookup", 1)) == (
        "invalid",
        "the record has no duration for e1 (on.tool('lookup'))",
    )
    assert status_message(ctx.duration_at_most("notify", 1)) == (
        "pass", "no event matched on.tool('notify')")  # fmt: skip


def test_run_duration_at_most() -> None:
    ctx = EvalContext(trace())
    assert trace().duration == 6.0
    assert trace().elapsed(trace().events[3]) == 2.0
    assert status_message(ctx.run_duration_at_most(10)) == ("pass", "the run took 6 s, limit 10 s")
    assert status_message(ctx.run_duration_at_most(5.5)) == (
        "fail",
        "the run took 6 s, limit 5.5 s",
    )
    assert status_message(EvalContext(bare()).run_duration_at_most(5)) == (
        "invalid",
        "the record has no event times (wall_time or monotonic_time)",
    )
    odd = TrialRecord.builder().user("hi", wall_time="yesterday").build()
    assert status_message(EvalContext(odd).run_duration_at_most(5)) == (
        "invalid", "the record has wall_time values that are not ISO times: e0")  # fmt: skip


def test_model_calls_at_most() -> None:
    ctx = EvalContext(trace())
    assert status_message(ctx.model_calls_at_most(2)) == ("pass", "made 2 model calls, limit 2")
    assert status_message(ctx.model_calls_at_most(0, model="gpt-4o")) == (
        "fail",
        "made 1 call to model 'gpt-4o', limit 0",
    )
    no_surface = TrialRecord.from_dict({"surfaces": ["tool_call"], "events": []})
    assert status_message(EvalContext(no_surface).model_calls_at_most(1)) == (
        "invalid", "the record has no 'model_call' surface (recorded: 'tool_call')")  # fmt: skip


def test_tokens_at_most() -> None:
    ctx = EvalContext(trace())
    assert status_message(ctx.tokens_at_most(2000)) == (
        "pass",
        "used 1050 total_tokens, limit 2000 (sum over 2 model_call events)",
    )
    assert status_message(ctx.tokens_at_most(500, counter="input_tokens")) == (
        "fail",
        "used 1000 input_tokens, limit 500 (sum over 2 model_call events)",
    )
    assert status_message(ctx.tokens_at_most(5, counter="cached_input_tokens")) == (
        "invalid",
        "the record has no 'cached_input_tokens' count (sum over 2 model_call events)"
        " (usage has input_tokens, output_tokens, total_tokens)",
    )
    recorded = TrialRecord.from_dict({"usage": {"input_tokens": 5, "cached_tokens": 3}})
    assert status_message(EvalContext(recorded).tokens_at_most(2, counter="cached_tokens")) == (
        "fail",
        "used 3 cached_tokens, limit 2",
    )
    assert status_message(EvalContext(bare()).tokens_at_most(5)) == (
        "invalid", "the record has no token usage")  # fmt: skip


def test_parallel_calls() -> None:
    ctx = EvalContext(trace())
    assert status_message(ctx.parallel_calls("lookup", "refund")) == (
        "pass",
        "'lookup', 'refund' were called together in group 'r1': e2, e3",
    )
    assert status_message(EvalContext(bare()).parallel_calls("lookup", "refund")) == (
        "fail",
        "no group holds calls of 'lookup', 'refund' (lookup: e1 in no group; refund: never called)",
    )
    no_surface = TrialRecord.from_dict({"surfaces": ["message"], "events": []})
    assert status_message(EvalContext(no_surface).parallel_calls("a", "b"))[0] == "invalid"
    with pytest.raises(ValueError, match="at least two tool names"):
        ctx.parallel_calls("lookup")  # fmt: skip


def test_tool_arguments_valid() -> None:
    ctx = EvalContext(trace())
    assert status_message(ctx.tool_arguments_valid()) == (
        "pass",
        "the arguments of 2 calls are valid against the declared schemas",
    )
    bad = TrialRecord.builder().tool("lookup", {"id": 7}).tool("refund", {}).build(tools=TOOLS)
    assert status_message(EvalContext(bad).tool_arguments_valid()) == (
        "fail",
        "1 of 2 calls has invalid arguments: e0 ('lookup') $.id: 7 is not of type 'string'",
    )
    assert EvalContext(bad).tool_arguments_valid("refund").result.passed
    assert status_message(EvalContext(bare()).tool_arguments_valid()) == (
        "invalid",
        "the record declares no tools",
    )
    undeclared = (
        TrialRecord.builder()
        .tool("lookup", {"id": "A"})
        .tool("cancel", {})
        .tool("zap", {})
        .build(tools=TOOLS)
    )
    assert status_message(EvalContext(undeclared).tool_arguments_valid()) == (
        "invalid",
        "calls of undeclared tools: 'cancel', 'zap' (declared: 'lookup', 'refund')",
    )
    unrecorded = TrialRecord.builder().tool("lookup").build(tools=TOOLS)
    assert status_message(EvalContext(unrecorded).tool_arguments_valid()) == (
        "invalid",
        "arguments not recorded: e0",
    )
    no_schema = TrialRecord.builder().tool("lookup", {}).build(tools=[{"name": "lookup"}])
    assert status_message(EvalContext(no_schema).tool_arguments_valid()) == (
        "invalid",
        "tool 'lookup' declares no parameters schema",
    )
    broken = (
        TrialRecord.builder()
        .tool("lookup", {})
        .build(tools=[{"name": "lookup", "parameters": {"type": 5}}])
    )
    assert status_message(EvalContext(broken).tool_arguments_valid())[0] == "invalid"  # fmt: skip


def test_no_denied_calls() -> None:
    ctx = EvalContext(trace())
    assert status_message(ctx.no_denied_calls()) == ("pass", "no tool call was denied")
    denied = (
        TrialRecord.builder()
        .tool("refund", {}, outcome="denied")
        .tool("cancel", {}, outcome="denied")
        .tool("lookup", {})
        .build()
    )
    assert status_message(EvalContext(denied).no_denied_calls()) == (
        "fail",
        "2 calls were denied: e0 ('refund'), e1 ('cancel')",
    )
    no_surface = TrialRecord.from_dict({"surfaces": ["message"], "events": []})
    assert status_message(EvalContext(no_surface).no_denied_calls())[0] == "invalid"
    selected = on.tool("refund", outcome="denied")
    assert EvalContext(denied).event(selected, count=1).result.passed


SUITE = """
checks:
  - duration_at_most: [lookup, 1]
  - run_duration_at_most: 10
  - model_calls_at_most: {n: 1, model: gpt-4o}
  - tokens_at_most: {n: 600, counter: input_tokens}
  - parallel_calls: [lookup, refund]
  - tool_arguments_valid
  - no_denied_calls
"""


def test_native_keys_give_the_same_results() -> None:
    result = loads(SUITE).cases[0].evaluate(trace())
    assert [(r.name, r.status.value) for r in result.results] == [
        ("duration_at_most:lookup", "pass"),
        ("run_duration_at_most:10", "pass"),
        ("model_calls_at_most:1", "pass"),
        ("tokens_at_most:600", "fail"),
        ("parallel_calls", "pass"),
        ("tool_arguments_valid", "pass"),
        ("no_denied_calls", "pass"),
    ]
