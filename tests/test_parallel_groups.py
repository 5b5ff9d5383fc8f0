"""Events sharing a ``group_id`` have no order among them: every order-sensitive check holds
only when the later step's group comes strictly after, and says when two calls were parallel."""

from __future__ import annotations

from agent_asserts import EvalContext, TrialRecord, on


def parallel_then_reply() -> TrialRecord:
    """lookup (e1) and refund (e2) issued together by one model response, then notify (e3)."""
    return (
        TrialRecord.builder()
        .user("refund A1")
        .tool("lookup", {"id": "A1"}, group_id="r1")
        .tool("refund", {"id": "A1"}, group_id="r1")
        .tool("notify", {})
        .agent("done")
        .build()
    )


def sequential() -> TrialRecord:
    return (
        TrialRecord.builder()
        .user("refund A1")
        .tool("lookup", {"id": "A1"})
        .tool("refund", {"id": "A1"})
        .tool("notify", {})
        .agent("done")
        .build()
    )


NOTE = "; e2 matched but was issued in parallel with e1 (group 'r1')"


def test_tool_order() -> None:
    ctx = EvalContext(parallel_then_reply())
    assert ctx.tool_order("lookup", "refund").result.message == (
        "step 2 'refund' was not found after e1 (step 1 'lookup')" + NOTE
    )
    assert ctx.tool_order("lookup", "notify").result.passed
    assert ctx.tool_order("refund", "notify").result.passed
    assert EvalContext(sequential()).tool_order("lookup", "refund").result.passed


def test_tool_order_contiguous() -> None:
    ctx = EvalContext(parallel_then_reply())
    result = ctx.tool_order("lookup", "refund", contiguous=True).result
    assert result.status.value == "fail"
    assert result.message == "step 2 'refund' was not found right after e1 (step 1 'lookup')" + NOTE
    assert ctx.tool_order("refund", "notify", contiguous=True).result.passed
    assert EvalContext(sequential()).tool_order("lookup", "refund", contiguous=True).result.passed


def test_sequencing() -> None:
    ctx = EvalContext(parallel_then_reply())
    assert ctx.sequencing("refund", "lookup").result.message == (
        "step 2 'lookup' was not found after e2 (step 1 'refund');"
        " e1 matched but was issued in parallel with e2 (group 'r1')"
    )
    assert ctx.sequencing(on.message(actor="user"), "refund", "notify").result.passed


def test_event_order() -> None:
    ctx = EvalContext(parallel_then_reply())
    result = ctx.event_order(on.tool("lookup"), on.tool("refund")).result
    assert result.message == (
        "step 2 on.tool('refund') was not found after e1 (step 1 on.tool('lookup'))" + NOTE
    )
    assert EvalContext(sequential()).event_order(on.tool("lookup"), on.tool("refund")).result.passed


def test_followed_by() -> None:
    ctx = EvalContext(parallel_then_reply())
    assert ctx.followed_by("lookup", "refund").result.message == (
        "1 of 1 call of 'lookup' not followed by on.tool('refund'): e1" + NOTE
    )
    assert ctx.followed_by("lookup", "notify").result.passed
    assert EvalContext(sequential()).followed_by("lookup", "refund").result.passed


def test_not_called_tool_before() -> None:
    ctx = EvalContext(parallel_then_reply())
    result = ctx.not_called_tool("refund", before="lookup").result
    assert result.message == (
        "1 call matched on.tool('refund') (e2) before on.tool('lookup') at e1" + NOTE
    )
    assert EvalContext(sequential()).not_called_tool("refund", before="lookup").result.passed


def test_last_tool_and_terminal_tool_and_ended_session() -> None:
    rec = (
        TrialRecord.builder()
        .tool("lookup")
        .tool("end_session", {}, group_id="r2")
        .tool("notify", group_id="r2")
        .build()
    )
    ctx = EvalContext(rec)
    assert ctx.last_tool("notify").result.message == (
        "the last tool call was 'notify' at e2, issued in parallel with e1 (group 'r2'):"
        " no single call came last"
    )
    assert ctx.terminal_tool("end_session").result.message == (
        "tool call e2 ('notify') was issued in parallel with 'end_session' at e1 (group 'r2')"
    )
    assert ctx.ended_session().result.status.value == "fail"
    alone = TrialRecord.builder().tool("lookup", group_id="r1").tool("end_session", {}).build()
    assert EvalContext(alone).ended_session().result.passed
    assert EvalContext(alone).terminal_tool("end_session").result.passed


def test_tools_within_one_turn_ordered() -> None:
    ctx = EvalContext(parallel_then_reply())
    assert not ctx.tools_within_one_turn(
        "lookup", "refund", allow_extra_calls=True, ordered=True
    ).result.passed
    assert ctx.tools_within_one_turn(
        "lookup", "refund", allow_extra_calls=True, ordered=False
    ).result.passed
    assert (
        EvalContext(sequential())
        .tools_within_one_turn("lookup", "refund", allow_extra_calls=True, ordered=True)
        .result.passed
    )


def test_records_without_groups_keep_their_order() -> None:
    rec = sequential()
    assert rec.groups.spans == {}
    assert rec.groups.precedes(1, 2)
