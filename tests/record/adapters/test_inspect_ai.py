"""The ``inspect-ai`` adapter: ``.json`` and ``.eval`` logs written by Inspect AI itself."""

from __future__ import annotations

import copy
import zipfile
from pathlib import Path
from typing import Any

import format_runs
import pytest
from adapter_checks import assert_conserved, assert_standard_run, fixture, load_json, suite_verdicts

from agent_asserts import MISSING, RecordError, TrialRecord
from agent_asserts.record.adapters import inspect_ai

pytest.importorskip("inspect_ai")


def _log() -> dict[str, Any]:
    data = load_json(fixture("inspect-ai"))
    assert isinstance(data, dict)
    return data


def test_standard_run_of_a_json_log_through_load_auto() -> None:
    record = TrialRecord.load(fixture("inspect-ai"))
    assert_standard_run(
        record, subagent=False, reasoning=False, invalid_arguments=False, timestamps=True
    )
    refund = next(e for e in record.tool_calls if e.payload.name == "issue_refund").payload
    assert (refund.error_message, refund.error_type) == (format_runs.GATEWAY_ERROR, "unknown")
    assert record.usage is not None and record.usage.total_tokens == 295
    assert record.metadata["sample_id"] == "refund-1" and record.metadata["task"] == "refund"
    assert record.metadata["scores"]["includes"]["value"] == "C"


def test_standard_run_of_an_eval_archive() -> None:
    path = fixture("inspect-ai", "refund_run.eval")
    record = TrialRecord.load(path, format="inspect-ai")
    assert TrialRecord.load(path) == record  # detected: .eval files are this format's
    assert_standard_run(record, subagent=False, reasoning=False, invalid_arguments=False)
    (same,) = inspect_ai.read_records(path)
    assert same.to_dict()["events"] == record.to_dict()["events"]


def test_conservation_every_message_model_and_tool_event_reaches_the_record() -> None:
    data = _log()
    (sample,) = data["samples"]
    positions = [f"$.samples[0].messages[{i}]" for i in range(len(sample["messages"]))]
    positions += [
        f"$.samples[0].events[{i}]"
        for i, event in enumerate(sample["events"])
        if event["event"] in ("model", "tool")
    ]
    assert_conserved(inspect_ai.to_record(data), positions)


def test_a_live_eval_of_the_real_library_reads_like_the_fixture(tmp_path: Path) -> None:
    path = format_runs.inspect_log(str(tmp_path), "eval")
    (live,) = inspect_ai.read_records(path)
    assert suite_verdicts(live) == suite_verdicts(TrialRecord.load(fixture("inspect-ai")))


def test_one_record_per_sample_and_a_sample_error_fails_its_run() -> None:
    data = _log()
    broken = copy.deepcopy(data["samples"][0])
    broken.update(id="refund-2", error={"message": "RuntimeError: sandbox died", "traceback": ""})
    data["samples"].append(broken)
    first, second = inspect_ai.to_records(data)
    assert (first.status, second.status) == ("completed", "failed")
    assert second.errors[0]["message"] == "RuntimeError: sandbox died"
    with pytest.raises(RecordError, match="2 samples"):
        inspect_ai.to_record(data)


def test_events_no_message_records_are_kept() -> None:
    data = _log()
    sample = data["samples"][0]
    sample["messages"] = sample["messages"][:1]
    record = inspect_ai.to_record(data)
    assert [(e.kind, getattr(e.payload, "name", None)) for e in record.events[1:]] == [
        ("tool_call", "lookup_order"),
        ("tool_call", "issue_refund"),
        ("model_call", None),
        ("model_call", None),
    ]
    assert record.tool_calls[1].payload.outcome == "failed"


def test_unparsed_arguments_and_bad_messages_are_parse_errors() -> None:
    data = _log()
    messages = data["samples"][0]["messages"]
    messages[1]["tool_calls"][0]["parse_error"] = "Expecting value"
    messages.append({"content": "no role"})
    record = inspect_ai.to_record(data)
    assert [p.reason for p in record.parse_errors] == [
        "arguments are not valid JSON: Expecting value",
        "not an Inspect chat message (a role and content)",
    ]
    assert record.tool_calls[0].payload.arguments is MISSING


def test_a_broken_archive_names_the_member(tmp_path: Path) -> None:
    path = tmp_path / "bad.eval"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("header.json", '{"version": 2, "eval": {"task": "t"}}')
        archive.writestr("samples/1_epoch_1.json", "{oops")
    with pytest.raises(RecordError, match=r"bad.eval: samples/1_epoch_1.json:1:2: invalid JSON"):
        list(inspect_ai.read_records(path))
    with pytest.raises(RecordError, match="expected an Inspect eval log"):
        list(inspect_ai.to_records({"eval": {}}))


def test_model_events_whose_output_inspect_moved_to_attachments_still_match() -> None:
    data = _log()
    sample = data["samples"][0]
    last = [e for e in sample["events"] if e["event"] == "model"][-1]
    message = last["output"]["choices"][0]["message"]
    sample["attachments"] = {"d41d8cd9": message["content"]}
    message["content"] = "attachment://d41d8cd9"
    record = inspect_ai.to_record(data)
    models = [e for e in record.events if e.kind == "model_call"]
    assert len(models) == 2 and models[-1].payload.usage.total_tokens == 175
