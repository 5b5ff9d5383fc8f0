"""The ``langfuse`` adapter: a full trace (observations inside) and the v2 observations list."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from span_fixtures import REPLY, load

from agent_asserts import MISSING, RecordError
from agent_asserts.record.adapters import langfuse

SHAPES = ["trace_full.json", "observations_v2.json"]


@pytest.mark.parametrize("name", SHAPES)
def test_the_reference_run_in_both_shapes(name: str) -> None:
    rec = langfuse.to_record(load("langfuse", name))
    calls = {e.payload.call_id: e for e in rec.tool_calls}
    assert calls["call_1"].payload.result == {"status": "paid"}
    refund = calls["call_2"].payload
    assert refund.is_error and refund.outcome == "failed"
    assert refund.error_message == "PaymentGatewayTimeout: gateway timed out"
    assert calls["call_1"].group_id == calls["call_2"].group_id == "obs-gen1"
    assert calls["call_3"].payload.arguments is MISSING
    assert [p.reason.split(":")[0] for p in rec.parse_errors] == ["arguments are not valid JSON"]
    delegation = next(e for e in rec.events if e.kind == "delegation")
    assert (delegation.payload.subagent, delegation.payload.mode) == ("policy_agent", "tool")
    assert delegation.parent_id == "obs-tool4"
    assert [e.payload.text for e in rec.events if e.kind == "reasoning"] == [
        "Look the order up and refund it."
    ]
    assert next(e for e in rec.events if e.kind == "guardrail").payload.name == "pii_guardrail"
    assert rec.reply == REPLY
    assert rec.usage.total_tokens == 788
    assert rec.usage.details == {"input_cached_tokens": 100}
    assert rec.metadata["trace_id"] == "lf-trace-1" and rec.metadata["agent"] == "refund_agent"
    assert {e.correlation_id for e in rec.events} == {"conv_42"}
    assert next(e for e in rec.events if e.event_id == "obs-tool2").duration == pytest.approx(0.8)


@pytest.mark.parametrize("name", SHAPES)
def test_conservation_every_observation_is_an_event_part_of_one_or_a_parse_error(
    name: str,
) -> None:
    data = load("langfuse", name)
    observations = data.get("observations") or data.get("data")
    rec = langfuse.to_record(data)
    ids = {e.event_id for e in rec.events}
    missing = [o["id"] for o in observations if o["id"] not in ids]
    assert missing == ["obs-agent"]  # the root agent is the record itself


def test_trace_input_and_output_stand_in_when_no_generation_records_them() -> None:
    trace = load("langfuse", "trace_full.json")
    trace["observations"] = [o for o in trace["observations"] if o["type"] == "TOOL"]
    rec = langfuse.to_record(trace)
    assert rec.events[0].payload.text == "Refund order A1049"
    assert rec.reply == REPLY
    assert rec.usage is None


def test_several_traces_one_record_each_and_bad_items() -> None:
    v2 = load("langfuse", "observations_v2.json")
    other = copy.deepcopy(v2["data"])
    for item in other:
        item["traceId"] = "lf-trace-2"
    data: dict[str, Any] = {"data": [*v2["data"], *other, {"id": "x"}]}
    records = list(langfuse.to_records(data))
    assert [r.metadata.get("trace_id") for r in records] == ["lf-trace-1", "lf-trace-2", None]
    assert [p.reason for p in records[2].parse_errors] == [
        "not a Langfuse observation (no traceId or unknown type)"
    ]
    traces = [load("langfuse", "trace_full.json")] * 2
    assert [r.reply for r in langfuse.to_records(traces)] == [REPLY, REPLY]
    with pytest.raises(RecordError, match="traces; read them with to_records"):
        langfuse.to_record(traces)


def test_detect() -> None:
    assert langfuse.detect(load("langfuse", "trace_full.json"))
    assert langfuse.detect(load("langfuse", "observations_v2.json"))
    assert not langfuse.detect({"data": [{"object": "trace", "id": "t"}]})
    assert not langfuse.detect({"id": "t"})
