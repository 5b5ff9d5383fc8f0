"""Property: a record using every new field round-trips through from_dict/to_dict, and the
builder makes the same record."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_asserts import MISSING
from agent_asserts.record import TrialRecord

names = st.text("abcdefgh_", min_size=1, max_size=6)
counts = st.integers(min_value=0, max_value=10_000)
maybe = st.none() | names
usage = st.fixed_dictionaries(
    {},
    optional={
        "input_tokens": counts,
        "output_tokens": counts,
        "total_tokens": counts,
        "details": st.dictionaries(names, counts, max_size=3),
        "reported_by": names,
    },
)
envelope = st.fixed_dictionaries(
    {},
    optional={
        "duration": st.floats(min_value=0, max_value=1e6, allow_nan=False),
        "group_id": names,
        "agent": names,
        "wall_time": st.floats(min_value=0, max_value=2e9, allow_nan=False)
        | st.just("2026-05-01T10:00:00Z"),
    },
)
outcomes = st.sampled_from(["succeeded", "failed", "retried", "denied", "interrupted", "pending"])


@st.composite
def events(draw: Any) -> dict[str, Any]:
    kind = draw(
        st.sampled_from(["tool_call", "model_call", "reasoning", "guardrail", "delegation"])
    )
    if kind == "tool_call":
        payload: dict[str, Any] = {"name": draw(names), "outcome": draw(outcomes)}
        if draw(st.booleans()):
            payload["arguments"] = draw(st.dictionaries(names, counts, max_size=2))
        elif draw(st.booleans()):
            payload["arguments_raw"] = draw(st.text(max_size=8))
        if draw(st.booleans()):
            payload["error_type"] = draw(names)
    elif kind == "model_call":
        payload = {"model": draw(maybe), "usage": draw(usage), "finish_reason": draw(maybe)}
    elif kind == "reasoning":
        payload = {"summary": draw(maybe), "redacted": draw(st.booleans())}
    elif kind == "guardrail":
        payload = {"name": draw(names), "triggered": draw(st.booleans())}
    else:
        payload = {"subagent": draw(names), "from_agent": draw(maybe),
                   "mode": draw(st.sampled_from(["handoff", "tool"]))}  # fmt: skip
    return {"kind": kind, **draw(envelope), "payload": payload}


@st.composite
def records(draw: Any) -> dict[str, Any]:
    items = draw(st.lists(events(), max_size=6))
    for i, item in enumerate(items):
        item["event_id"] = f"x{i}"
        if i and draw(st.booleans()):
            item["parent_id"] = f"x{draw(st.integers(0, i - 1))}"
    data: dict[str, Any] = {"events": items, "usage": draw(usage)}
    tools = draw(st.lists(names, unique=True, max_size=3))
    data["tools"] = [{"name": n, "parameters": {"type": "object"}} for n in tools]
    return data


@settings(max_examples=60)
@given(records())
def test_round_trip(data: dict[str, Any]) -> None:
    rec = TrialRecord.from_dict(data)
    again = TrialRecord.from_dict(rec.to_dict())
    assert again == rec
    assert again.to_dict() == rec.to_dict()


@settings(max_examples=60)
@given(records())
def test_builder_makes_the_same_record(data: dict[str, Any]) -> None:
    rec = TrialRecord.from_dict(data)
    b = TrialRecord.builder()
    for event in rec.events:
        env = {k: getattr(event, k) for k in ("event_id", "duration", "group_id", "agent",
                                               "wall_time", "parent_id", "turn")}  # fmt: skip
        env = {k: v for k, v in env.items() if v is not None}
        p = event.payload
        if event.kind == "tool_call":
            arguments = None if p.arguments is MISSING else p.arguments
            b.tool(p.name, arguments, outcome=p.outcome, error_type=p.error_type,
                   arguments_raw=p.arguments_raw, **env)  # fmt: skip
        elif event.kind == "model_call":
            b.model_call(p.model, p.usage, finish_reason=p.finish_reason, **env)
        elif event.kind == "reasoning":
            b.reasoning(p.text, p.summary, p.redacted, **env)
        elif event.kind == "guardrail":
            b.guardrail(p.name, p.triggered, p.output, **env)
        else:
            b.subagent(p.subagent, event.event_type, p.output, p.from_agent, p.mode, **env)
    built = b.build(usage=rec.usage, tools=rec.tools)
    assert built == rec


def test_a_parse_error_item_near_the_depth_limit_still_loads_back() -> None:
    # a JSON Lines line nested 198 deep loads (the limit is 200), but as a parse error's item
    # it sits three levels deeper in the record: the part past the limit is replaced by a note
    from agent_asserts.record import ParseError, TrialRecord

    deep: object = "x"
    for _ in range(198):
        deep = [deep]
    record = TrialRecord(parse_errors=(ParseError("line 2", "not a run", item=deep),))
    back = TrialRecord.from_dict(record.to_dict())
    assert back.parse_errors[0].position == "line 2"
    kept = back.parse_errors[0].item
    for _ in range(196):
        kept = kept[0]
    assert kept == ["… (nested deeper than 197 levels: not kept)"]
