"""The ``mlflow`` adapter: MLflow 3 traces made with MLflow's own classes, and the MLflow 2
shape written from its documented schema."""

from __future__ import annotations

import base64
import copy
from typing import Any

import format_runs
import pytest
from adapter_checks import assert_standard_run, fixture, load_json, suite_verdicts

from agent_asserts import RecordError, TrialRecord
from agent_asserts.record.adapters import detect
from agent_asserts.record.adapters import mlflow as mlflow_format

pytest.importorskip("mlflow")

SHAPES = ["trace_v3.json", "trace_v2.json"]


def _trace(name: str) -> dict[str, Any]:
    data = load_json(fixture("mlflow", name))
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize("name", SHAPES)
def test_standard_run_through_load_auto(name: str) -> None:
    record = TrialRecord.load(fixture("mlflow", name))
    assert_standard_run(
        record, subagent=False, reasoning=False, invalid_arguments=False, timestamps=True
    )
    refund = next(e for e in record.tool_calls if e.payload.name == "issue_refund").payload
    assert (refund.error_type, refund.call_id) == ("TimeoutError", "call_2")
    assert record.usage is not None and record.usage.total_tokens == 295
    assert record.metadata["agent"] == "refund_agent"


def _span_id(span: dict[str, Any]) -> str:
    if "span_id" in span:
        return base64.b64decode(span["span_id"]).hex()
    return str(span["context"]["span_id"])[2:]


@pytest.mark.parametrize("name", SHAPES)
def test_conservation_every_span_is_an_event_or_the_record_itself(name: str) -> None:
    data = _trace(name)
    record = mlflow_format.to_record(data)
    ids = {e.event_id for e in record.events}
    missing = [s["name"] for s in data["data"]["spans"] if _span_id(s) not in ids]
    assert missing == ["refund_agent"]  # the root span is the record itself


def test_a_live_trace_of_the_real_library_reads_like_the_fixture() -> None:
    live = format_runs.mlflow_trace()
    assert detect(live) == "mlflow"
    assert suite_verdicts(mlflow_format.to_record(live)) == suite_verdicts(
        TrialRecord.load(fixture("mlflow", SHAPES[0]))
    )


def test_the_trace_request_and_response_stand_in_without_model_spans() -> None:
    data = copy.deepcopy(_trace("trace_v2.json"))
    spans = data["data"]["spans"]
    data["data"]["spans"] = [s for s in spans if s["name"] != "ChatOpenAI"]
    root = next(s for s in data["data"]["spans"] if s["parent_id"] is None)
    del root["attributes"]["mlflow.spanInputs"], root["attributes"]["mlflow.spanOutputs"]
    record = mlflow_format.to_record(data)
    assert record.events[0].payload.text == "Refund order A1049"
    assert record.reply == format_runs.REPLY and record.usage is None


def test_bad_spans_are_parse_errors_and_several_traces_one_record_each() -> None:
    data = copy.deepcopy(_trace("trace_v3.json"))
    data["data"]["spans"].append({"name": "no id"})
    data["data"]["spans"].append({"span_id": "AAAAAAAAAAk=", "start_time_unix_nano": "soon"})
    record = mlflow_format.to_record(data)
    assert [p.reason for p in record.parse_errors] == [
        "a span without a span_id",
        "the time 'soon' is not a number of nanoseconds",
    ]
    other = copy.deepcopy(_trace("trace_v3.json"))
    other["info"]["trace_id"] = "tr-2"
    records = list(mlflow_format.to_records([data, other]))
    assert [r.metadata["trace_id"] for r in records][1] == "tr-2"
    with pytest.raises(RecordError, match="2 traces"):
        mlflow_format.to_record([data, other])
