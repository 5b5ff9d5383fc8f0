"""Argument matchers on calls whose arguments were not recorded are ``invalid``, never a fail;
a result that does not depend on those calls stands."""

from __future__ import annotations

from agent_asserts import EvalContext, TrialRecord, on
from agent_asserts.loaders import loads

MESSAGE = "arguments not recorded: the result depends on the arguments of e1 ('lookup')"


def record() -> TrialRecord:
    """lookup(id=1) recorded, a second lookup without recorded arguments, a refund with {}."""
    return TrialRecord.from_dict(
        {
            "events": [
                {"kind": "tool_call", "payload": {"name": "lookup", "arguments": {"id": 1}}},
                {"kind": "tool_call", "payload": {"name": "lookup"}},
                {"kind": "tool_call", "payload": {"name": "refund", "arguments": {}}},
            ]
        }
    )


def test_matchers_that_depend_on_unrecorded_calls_are_invalid() -> None:
    ctx = EvalContext(record())
    for handle in (
        ctx.called_tool("lookup", arguments={"id": 2}),
        ctx.not_called_tool("lookup", arguments={"id": 2}),
        ctx.every_call("lookup", arguments={"id": 1}),
        ctx.called_tool("lookup", arguments={"id": 1}, count=1),
        ctx.sequencing(on.tool("lookup", arguments={"id": 2}), "refund"),
        ctx.followed_by("lookup", "notify", arguments={"id": 2}),
    ):
        assert handle.result.status.value == "invalid", handle.result.name
        assert handle.result.message == MESSAGE


def test_results_that_do_not_depend_on_them_stand() -> None:
    ctx = EvalContext(record())
    assert ctx.called_tool("lookup", arguments={"id": 1}).result.passed
    assert ctx.called_tool("lookup").result.passed
    assert ctx.called_tool("refund", arguments={}).result.passed
    assert ctx.not_called_tool("refund", arguments={"amount": 5}).result.passed
    failed = ctx.called_tool("refund", arguments={"amount": 5}).result
    assert failed.status.value == "fail"


def test_empty_arguments_are_recorded() -> None:
    rec = TrialRecord.builder().tool("lookup", {}).build()
    result = EvalContext(rec).called_tool("lookup", arguments={"id": 1}).result
    assert result.status.value == "fail"


def test_arguments_raw_counts_as_not_recorded() -> None:
    rec = TrialRecord.builder().tool("lookup", arguments_raw="{'id': 1").build()
    assert rec.unrecorded_arguments == (0,)
    result = EvalContext(rec).called_tool("lookup", arguments={"id": 1}).result
    assert result.status.value == "invalid"
    assert result.message == (
        "arguments not recorded: the result depends on the arguments of e0 ('lookup')"
    )


def test_closest_miss_says_not_recorded() -> None:
    rec = TrialRecord.builder().tool("lookup").build()
    mismatches = on.tool("lookup", arguments={"id": 1}).explain(rec.events[0])
    assert [(m.path, m.reason) for m in mismatches] == [("$.arguments", "arguments not recorded")]


def test_suites_follow_the_same_rule() -> None:
    suite = loads("checks: [{called_tool: {name: lookup, arguments: {id: 2}}}]")
    result = suite.cases[0].evaluate(record())
    assert [(r.status.value, r.message) for r in result.results] == [("invalid", MESSAGE)]


def test_a_result_whose_call_was_trimmed_has_unrecorded_arguments() -> None:
    """An orphan result (its call cut from the history) reads as a call with the result's
    outcome and arguments not recorded: argument matchers are invalid, outcome checks stand."""
    history = [
        {"role": "user", "content": "again please"},
        {"role": "tool", "tool_call_id": "c1", "name": "lookup", "content": "Error: timed out"},
        {
            "role": "assistant",
            "tool_calls": [
                {
                    "id": "c2",
                    "type": "function",
                    "function": {"name": "lookup", "arguments": '{"id": 1}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "c2", "content": '{"status": "paid"}'},
        {"role": "assistant", "content": "It is paid."},
    ]
    rec = TrialRecord.from_trace(history, format="openai-chat")
    ctx = EvalContext(rec)
    message = "arguments not recorded: the result depends on the arguments of e1 ('lookup')"
    for handle in (
        ctx.called_tool("lookup", arguments={"id": 2}),
        ctx.every_call("lookup", arguments={"id": 1}),
    ):
        assert (handle.result.status.value, handle.result.message) == ("invalid", message)
    assert ctx.called_tool("lookup", arguments={"id": 1}).result.passed
    assert ctx.called_tool("lookup", is_error=True).result.passed
    assert [e.payload.outcome for e in rec.tool_calls] == ["failed", "succeeded"]
