"""Views of a record: per-agent records, time, run usage; ``ctx.agent(name)``."""

from __future__ import annotations

from agent_asserts import EvalContext, TrialRecord, Usage


def multi_agent() -> TrialRecord:
    b = TrialRecord.builder(initial_state={"orders": {"A1": "paid"}})
    b.user("refund A1")
    b.subagent("billing", mode="handoff", event_id="d1")
    b.event("agent_run", event_id="run", agent="billing")
    b.model_call("gpt-4o", {"input_tokens": 10, "output_tokens": 2}, parent_id="run",
                 event_id="m1")  # fmt: skip
    b.tool("refund", {"id": "A1"}, parent_id="m1")
    b.agent("Billing: refunded", agent="billing")
    b.tool("notify", {})
    b.agent("All done")
    return b.build(final_state={"orders": {"A1": "refunded"}}, status="completed")


def test_for_agent_keeps_the_agent_and_its_descendants() -> None:
    rec = multi_agent()
    view = rec.for_agent("billing")
    assert [e.event_id for e in view.events] == ["run", "m1", "e4", "e5"]
    assert view.initial_state is rec.initial_state
    assert view.final_state is rec.final_state
    assert view.reply == "Billing: refunded"
    assert rec.reply == "All done"
    assert [e.event_id for e in rec.for_agent("nobody").events] == []


def test_ctx_agent_records_into_the_same_case_with_prefixed_names() -> None:
    ctx = EvalContext(multi_agent())
    billing = ctx.agent("billing")
    billing.called_tool("refund")
    billing.not_called_tool("notify")
    billing.check("custom", True)
    ctx.called_tool("notify")
    assert [(r.name, r.status.value) for r in ctx.results] == [
        ("agent(billing).called_tool:refund", "pass"),
        ("agent(billing).not_called_tool:notify", "pass"),
        ("agent(billing).custom", "pass"),
        ("called_tool:notify", "pass"),
    ]
    assert ctx.result().passed


def test_run_usage_is_recorded_or_summed() -> None:
    rec = multi_agent()
    assert rec.run_usage == Usage(10, 2, details={}, reported_by="sum over 1 model_call event")
    recorded = (
        TrialRecord.builder().model_call("m", {"total_tokens": 5}).build(usage={"total_tokens": 9})
    )
    assert recorded.run_usage == recorded.usage
    partial = TrialRecord.builder().model_call("m", {"total_tokens": 5}).model_call("m").build()
    assert partial.run_usage is None


def test_time_views() -> None:
    rec = TrialRecord.builder().user("a", wall_time=100).tool("t", {}, wall_time=101.5,
                                                               duration=2).build()  # fmt: skip
    assert rec.elapsed(rec.events[1]) == 1.5
    assert rec.duration == 3.5
    untimed = TrialRecord.builder().user("a").build()
    assert untimed.elapsed(untimed.events[0]) is None
    assert untimed.duration is None
