"""The ``openinference`` adapter: OpenInference spans as Phoenix's flat rows (written from
its documented span-dataframe layout, from the ``otel`` OpenInference fixture)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from adapter_checks import assert_standard_run, fixture, load_json

from agent_asserts import RecordError, TrialRecord
from agent_asserts.record.adapters import openinference, otel
from agent_asserts.record.reading import iter_records


def _rows() -> list[dict[str, Any]]:
    data = load_json(fixture("openinference", "phoenix_spans.json"))
    assert isinstance(data, list)
    return data


def _plain(record: TrialRecord) -> list[dict[str, Any]]:
    events = record.to_dict()["events"]
    for event in events:
        event["payload"].pop("trace_items", None)
        for key in ("wall_time", "duration"):
            event[key] = round(event.get(key) or 0.0, 4)
    return events


def test_standard_run_through_load_auto() -> None:
    record = TrialRecord.load(fixture("openinference", "phoenix_spans.json"))
    assert_standard_run(
        record, subagent=False, reasoning=False, invalid_arguments=False, timestamps=True
    )
    asked = [e.payload for e in record.tool_calls if e.payload.name == "ask_policy"]
    assert asked[0].arguments_raw == '{"question": "refund over 40?"'
    assert [p.reason.split(":")[0] for p in record.parse_errors] == ["arguments are not valid JSON"]
    assert record.metadata["trace_id"] == "5b8efff798038103d269b633813fc60c"


def test_the_rows_read_as_the_same_spans_read_as_otlp() -> None:
    rows = openinference.to_record(_rows())
    spans = otel.to_record(load_json(fixture("otel", "openinference.json")))
    assert _plain(rows) == _plain(spans)
    assert rows.usage == spans.usage and rows.status == spans.status


def test_conservation_every_row_is_an_event_or_the_record_itself() -> None:
    rows = _rows()
    record = openinference.to_record(rows)
    ids = {e.event_id for e in record.events}
    missing = [r["name"] for r in rows if r["context.span_id"] not in ids]
    assert missing == ["refund_agent"]  # the root agent is the record itself


def test_json_lines_are_read_whole_and_nested_attributes_too(tmp_path: Path) -> None:
    rows = _rows()
    nested = copy.deepcopy(rows)
    for row in nested:
        inner = {
            k.removeprefix("attributes."): row.pop(k)
            for k in list(row)
            if k.startswith("attributes.")
        }
        row["attributes"] = inner
    path = tmp_path / "spans.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in nested), encoding="utf-8")
    (record,) = iter_records(path)
    assert _plain(record) == _plain(openinference.to_record(rows))


def test_bad_rows_are_parse_errors_and_traces_are_split() -> None:
    rows = copy.deepcopy(_rows())
    rows.append(
        {
            "name": "x",
            "span_kind": "TOOL",
            "context.span_id": "",
            "context.trace_id": rows[0]["context.trace_id"],
        }
    )
    other = {**copy.deepcopy(rows[2]), "context.trace_id": "t2", "parent_id": None}
    record, second = openinference.to_records([*rows, other])
    assert "a span row needs a 'context.span_id'" in [p.reason for p in record.parse_errors]
    assert second.metadata["trace_id"] == "t2" and len(second.tool_calls) == 1
    with pytest.raises(RecordError, match="2 traces"):
        openinference.to_record([*rows, other])
    with pytest.raises(RecordError, match="expected a list of OpenInference span rows"):
        list(openinference.to_records("rows"))
