"""RecordBuilder (docs/record.md)."""

from __future__ import annotations

from typing import Any

import pytest

from agent_asserts import MISSING
from agent_asserts.record import (
    BlockPayload,
    Button,
    DelegationPayload,
    MemoryPayload,
    MessagePayload,
    RecordBuilder,
    SkillPayload,
    ToolCallPayload,
    TrialRecord,
    Usage,
)


def test_every_method_returns_the_builder_and_builds_the_example() -> None:
    b = TrialRecord.builder(initial_state={"orders": {"A1049": {"status": "paid"}}})
    assert b.user("refund A1049") is b
    assert b.tool("refunds_lookup", {"orderId": "A1049"}, result={"refundable": True}) is b
    assert b.memory_set("refund.order_id", "A1049") is b
    assert b.memory_clear("refund.draft_id") is b
    assert b.skill("activated", "refund") is b
    assert b.block("entered", "refund", "main") is b
    assert b.subagent("researcher") is b
    assert (
        b.agent(
            "Refund issued",
            utter_name="utter_refund_done",
            buttons=[{"title": "OK", "payload": "/ok"}],
        )
        is b
    )
    assert (
        b.event(
            "mutation",
            operation_ref="op-7",
            actor_ref="agent",
            entity_refs=["order:A1049"],
            status="succeeded",
        )
        is b
    )
    assert b.event("audit", payload={"text": "refund"}, monotonic_time=12.4) is b
    rec = b.build(
        final_state={"orders": {"A1049": {"status": "refunded"}}},
        status="completed",
        steps=4,
        usage={"input_tokens": 900, "output_tokens": 120},
    )
    assert [e.event_id for e in rec.events] == [f"e{i}" for i in range(10)]
    assert {e.turn for e in rec.events} == {1}
    assert rec.events[1].payload == ToolCallPayload(
        "refunds_lookup", {"orderId": "A1049"}, {"refundable": True}
    )
    assert rec.events[2].event_type == "set"
    assert rec.events[3].payload == MemoryPayload("refund.draft_id", MISSING)
    assert rec.events[3].event_type == "clear"
    assert (rec.events[4].event_type, rec.events[4].payload) == (
        "activated",
        SkillPayload("refund"),
    )
    assert rec.events[5].payload == BlockPayload("refund", "main")
    assert (rec.events[6].event_type, rec.events[6].payload) == (
        "completed",
        DelegationPayload("researcher"),
    )
    assert rec.events[7].payload == MessagePayload(
        "Refund issued", "utter_refund_done", (Button("OK", "/ok"),)
    )
    assert rec.events[8].entity_refs == ("order:A1049",)
    assert rec.reply == "Refund issued"
    assert rec.usage == Usage(900, 120, 1020)
    assert [str(d) for d in rec.delta or ()] == [
        "changed /orders/A1049/status: 'paid' -> 'refunded'"
    ]
    assert TrialRecord.from_dict(rec.to_dict()) == rec


def test_turns_start_at_one_and_before_user_is_zero() -> None:
    rec = RecordBuilder().agent("welcome").user("a").agent("b").user("c").tool("t").build()
    assert [e.turn for e in rec.events] == [0, 1, 1, 2, 2]


@pytest.mark.parametrize("text", ["/cmd", "/session_start", "", "   ", '/choose{"x": 1}'])
def test_empty_and_slash_user_messages_stay_in_the_turn(text: str) -> None:
    rec = RecordBuilder().user(text).agent("welcome").user("a").user(text).tool("t").build()
    assert [e.turn for e in rec.events] == [0, 0, 1, 1, 1]


def test_builder_and_from_dict_give_the_same_turns() -> None:
    built = (
        RecordBuilder()
        .user("/session_start")
        .agent("welcome")
        .user("refund A1")
        .tool("lookup")
        .user('/choose{"id": 1}')
        .user("")
        .event("message", payload={"text": "a user message via event()"}, actor_ref="user")
        .user("from someone else", actor_ref="supervisor")
        .agent("done")
        .user("next", turn=7)
        .agent("ok")
        .user("again")
        .build()
    )
    data = built.to_dict()
    for position, event in enumerate(data["events"]):
        if position != 9:  # the explicit turn=7 stays; the others are derived again
            del event["turn"]
    derived = TrialRecord.from_dict(data)
    assert [e.turn for e in built.events] == [0, 0, 1, 1, 1, 1, 2, 2, 2, 7, 7, 8]
    assert [e.turn for e in derived.events] == [e.turn for e in built.events]


def test_explicit_turn_sets_the_current_turn() -> None:
    rec = RecordBuilder().user("a", turn=4).agent("b").user("c").build()
    assert [e.turn for e in rec.events] == [4, 4, 5]


def test_user_actor_and_envelope_kwargs() -> None:
    rec = (
        RecordBuilder()
        .user("hi", event_id="u1", wall_time=1.5, surface="chat", audience="agent")
        .build()
    )
    event = rec.events[0]
    assert (event.event_id, event.actor_ref, event.wall_time, event.surface) == (
        "u1",
        "user",
        1.5,
        "chat",
    )


def test_subagent_status_and_output() -> None:
    rec = RecordBuilder().subagent("r", status="failed", output={"err": 1}).build()
    assert rec.events[0].event_type == "failed"
    assert rec.events[0].payload == DelegationPayload("r", {"err": 1})


def test_tool_defaults_and_mcp() -> None:
    rec = RecordBuilder().tool("t", source="mcp", mcp_server="files", call_id="c1").build()
    payload = rec.events[0].payload
    assert payload == ToolCallPayload("t", MISSING, None, False, "mcp", "files", None, "c1")


def test_event_with_known_kind_from_mapping_or_payload() -> None:
    rec = (
        RecordBuilder()
        .event("memory", "set", {"name": "a", "value": 1})
        .event("skill", "completed", SkillPayload("s"))
        .event("delegation", payload={"subagent": "x"})
        .build()
    )
    assert rec.events[0].payload == MemoryPayload("a", 1)
    assert rec.events[1].payload == SkillPayload("s")
    assert rec.events[2].event_type == "completed"


def test_builder_copies_json_and_turns_tuples_into_lists() -> None:
    args: dict[str, Any] = {"items": ("a", "b")}
    rec = RecordBuilder().tool("t", args).build()
    args["new"] = 1
    assert rec.events[0].payload.arguments == {"items": ["a", "b"]}  # type: ignore[union-attr]
    assert TrialRecord.from_dict(rec.to_dict()) == rec


def test_build_twice() -> None:
    b = RecordBuilder().user("a")
    first = b.build()
    second = b.agent("b").build()
    assert len(first.events) == 1
    assert len(second.events) == 2


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (
            lambda b: b.skill("started", "s"),
            ValueError,
            "'transition' must be one of 'activated', 'completed', 'cancelled', 'interrupted', "
            "'resumed' (got 'started')",
        ),
        (
            lambda b: b.block("activated", "s", "b"),
            ValueError,
            "'transition' must be one of 'entered', 'completed', 'cancelled', 'interrupted', "
            "'resumed' (got 'activated')",
        ),
        (lambda b: b.user(3), ValueError, "'text' must be a string (got 3)"),
        (lambda b: b.tool(""), ValueError, "'name' must be a non-empty string (got '')"),
        (lambda b: b.tool("t", is_error=1), ValueError, "'is_error' must be a boolean (got 1)"),
        (
            lambda b: b.tool("t", source="remote"),
            ValueError,
            "'source' must be one of 'local', 'mcp' (got 'remote')",
        ),
        (
            lambda b: b.tool("t", {"a": {1, 2}}),
            ValueError,
            "'arguments.a' must be JSON data (got set {1, 2})",
        ),
        (lambda b: b.memory_set("", 1), ValueError, "'name' must be a non-empty string (got '')"),
        (
            lambda b: b.user("a", turn=-1),
            ValueError,
            "'turn' must be a non-negative integer (got -1)",
        ),
        (lambda b: b.user("a", turn=True), ValueError, "'turn' must be an integer (got True)"),
        (
            lambda b: b.user("a", tunr=1),
            TypeError,
            "user() got an unexpected keyword argument 'tunr' (did you mean 'turn'?)",
        ),
        (
            lambda b: b.memory_set("a", 1, event_type="clear"),
            TypeError,
            "memory_set() got an unexpected keyword argument 'event_type' "
            "(memory_set() sets 'event_type' itself)",
        ),
        (
            lambda b: b.user("a", entity_refs="order:1"),
            ValueError,
            "'entity_refs' must be a list of strings (got 'order:1')",
        ),
        (
            lambda b: b.agent("a", buttons=[3]),
            ValueError,
            "'buttons' items must be Button objects or {'title': ..., 'payload': ...} mappings"
            " (got 3)",
        ),
        (lambda b: b.agent("a", buttons="OK"), ValueError, "'buttons' must be a list (got 'OK')"),
        (
            lambda b: b.event("memory", "write", {"name": "a"}),
            ValueError,
            "'event_type' must be one of 'set', 'clear' (got 'write')",
        ),
        (
            lambda b: b.event("tool_call", payload={"arguments": {}}),
            ValueError,
            "'payload.name' required field missing",
        ),
        (
            lambda b: b.event("audit", payload=[1]),
            ValueError,
            "'payload' must be a mapping for kind 'audit' (got [1])",
        ),
        (lambda b: b.event(""), ValueError, "'kind' must be a non-empty string (got '')"),
        (lambda b: b.build(steps="four"), ValueError, "'steps' must be an integer (got 'four')"),
        (
            lambda b: b.build(usage={"ouput_tokens": 1}),
            ValueError,
            "'usage.ouput_tokens' unknown key (did you mean 'output_tokens'?)",
        ),
        (
            lambda b: b.build(usage={"cached_tokens": "1"}),
            ValueError,
            "'usage.cached_tokens' must be an integer (got '1')",
        ),
        (
            lambda b: b.build(surfaces="message"),
            TypeError,
            "'surfaces' must be a list (got 'message')",
        ),
        (lambda b: b.build(surfaces=5), TypeError, "'surfaces' must be a list (got 5)"),
        (lambda b: b.build(errors="boom"), TypeError, "'errors' must be a list (got 'boom')"),
        (lambda b: b.build(errors=b"boom"), TypeError, "'errors' must be a list (got b'boom')"),
        (lambda b: b.build(errors=5), TypeError, "'errors' must be a list (got 5)"),
        (
            lambda b: b.build(errors={"code": 1}),
            TypeError,
            "'errors' must be a list (got {'code': 1})",
        ),
    ],
)
def test_invalid_arguments(call: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as info:
        call(RecordBuilder())
    assert str(info.value) == message


def test_duplicate_event_id() -> None:
    b = RecordBuilder().user("a", event_id="x")
    with pytest.raises(ValueError, match="'event_id' 'x' is already used"):
        b.agent("b", event_id="x")
    assert len(b.build().events) == 1


def test_invalid_initial_state() -> None:
    with pytest.raises(ValueError, match="'initial_state' must be JSON data"):
        RecordBuilder(initial_state=object())
