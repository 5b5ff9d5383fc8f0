"""Files as their producers wrote them: duplicate keys in a foreign format keep the last value
with a RecordWarning naming the paths (native records stay strict); a mapping that fails as
native mostly on unknown keys also says that no trace format matched."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from agent_asserts import RecordWarning, TrialRecord, iter_records
from agent_asserts.record import RecordError, reading
from agent_asserts.record.reading import RecordStream

# a tracker as Rasa's own published test tracker writes it: "metadata" twice in two events
TRACKER = """{"sender_id": "default", "events": [
  {"event": "user", "text": "refund A1049", "metadata": {}, "metadata": {"channel": "web"}},
  {"event": "bot", "text": "Done", "metadata": {"a": 1}, "timestamp": 1, "metadata": {}}
]}"""


def test_a_tracker_with_duplicate_keys_loads_with_a_warning_naming_them(tmp_path: Path) -> None:
    path = tmp_path / "tracker.json"
    path.write_text(TRACKER)
    with pytest.warns(RecordWarning) as caught:
        record = TrialRecord.load(path)
    assert [str(w.message) for w in caught] == [
        f"{path}: duplicate keys, the last value of each kept (a mantle trace is read as its "
        "producer's JSON reader reads it): $.events[0].metadata, $.events[1].metadata"
    ]
    assert [e.payload.text for e in record.events] == ["refund A1049", "Done"]
    assert record.metadata["format"] == "mantle"
    with pytest.warns(RecordWarning, match=r"^<trace text>: duplicate keys"):
        from_text = TrialRecord.from_trace(TRACKER)
    assert from_text == record.__class__(**{**_fields(record), "metadata": from_text.metadata})
    assert from_text.events == TrialRecord.from_trace(json.loads(TRACKER)).events


def _fields(record: TrialRecord) -> dict[str, object]:
    return {
        "events": record.events,
        "initial_state": record.initial_state,
        "final_state": record.final_state,
        "status": record.status,
        "reply": record.explicit_reply,
        "steps": record.steps,
        "usage": record.usage,
        "errors": record.errors,
        "surfaces": record.surfaces,
        "parse_errors": record.parse_errors,
        "tools": record.tools,
    }


def test_a_canonical_record_stays_strict(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    path.write_text('{"steps": 1, "steps": 2}')
    with pytest.raises(RecordError) as caught:
        TrialRecord.load(path)
    assert [str(p) for p in caught.value.problems] == [f"{path}: $.steps: duplicate key"]
    with pytest.raises(RecordError, match=r"<trace text>: \$\.steps: duplicate key"):
        TrialRecord.from_trace('{"steps": 1, "steps": 2}')


def test_a_json_lines_line_warns_naming_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "chats.jsonl"
    lines = [
        '[{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}]',
        '[{"role": "user", "content": "c", "content": "d"}, {"role": "assistant", "content": "e"}]',
    ]
    path.write_text("\n".join(lines) + "\n")
    with pytest.warns(RecordWarning) as caught:
        records = list(iter_records(path))
    assert [str(w.message) for w in caught] == [
        f"{path}:2: duplicate keys, the last value of each kept (a openai-chat trace is read as "
        "its producer's JSON reader reads it): $[0].content"
    ]
    assert [r.events[0].payload.text for r in records] == ["a", "d"]
    with pytest.warns(RecordWarning):
        (line,) = RecordStream.line_records((str(path), 2, lines[1].encode()))  # type: ignore[misc]
    assert line.events[0].payload.text == "d"


def test_a_streamed_export_warns_per_run_and_native_streams_stay_strict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reading, "STREAM_ABOVE", 10)
    path = tmp_path / "big.json"
    runs = ['{"detailed_trace": ["Agent Text: a"]}'] * 4
    runs[1] = '{"detailed_trace": ["Agent Text: x"], "detailed_trace": ["Agent Text: b"]}'
    runs[3] = '{"detailed_trace": ["Agent Text: x"], "detailed_trace": ["Agent Text: d"]}'
    path.write_text("[" + ", ".join(runs) + "]")
    with pytest.warns(RecordWarning) as caught:
        replies = [r.reply for r in iter_records(path)]
    assert replies == ["a", "b", "a", "d"]
    assert [str(w.message).split(": duplicate keys")[0] for w in caught] == [
        f"{path}: $[1]",
        f"{path}: $[3]",
    ]
    path.write_text('[{"reply": "a"}, {"reply": "b"}, {"reply": "c"}, {"reply": "d", "reply": 1}]')
    with pytest.raises(RecordError, match=r"\$\[3\]\.reply: duplicate key"):
        list(iter_records(path))


def test_other_json_problems_stay_errors_in_every_format(tmp_path: Path) -> None:
    path = tmp_path / "tracker.json"
    path.write_text(TRACKER.replace('"timestamp": 1', '"timestamp": NaN'))
    with pytest.raises(RecordError) as caught:
        TrialRecord.load(path)
    assert sorted(str(p) for p in caught.value.problems) == [
        f"{path}: $.events[0].metadata: duplicate key",
        f"{path}: $.events[1].metadata: duplicate key",
        f"{path}: $.events[1].timestamp: invalid JSON: NaN is not a JSON value",
    ]


def test_no_warning_without_duplicates(tmp_path: Path) -> None:
    path = tmp_path / "tracker.json"
    path.write_text(json.dumps(json.loads(TRACKER)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        TrialRecord.load(path)


def test_a_mapping_that_is_no_trace_says_no_format_matched() -> None:
    response = {"status": 200, "headers": {"content-type": "json"}, "body": "{}"}
    with pytest.raises(RecordError) as caught:
        TrialRecord.from_trace(response)
    messages = [str(p) for p in caught.value.problems]
    assert messages[:2] == ["$.headers: unknown key", "$.body: unknown key"]
    assert messages[-1].startswith(
        "$: cannot tell the trace format: no format matches (looked at top-level keys 'body', "
        "'headers', 'status'); known formats: native, "
    )
    # a typo in a canonical record keeps the canonical message alone
    with pytest.raises(RecordError) as typo:
        TrialRecord.from_trace({"status": "completed", "evnts": []})
    assert [str(p) for p in typo.value.problems] == [
        "$.evnts: unknown key (did you mean 'events'?)"
    ]


def test_a_streamed_container_warns_once_for_its_own_members(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reading, "STREAM_ABOVE", 10)
    path = tmp_path / "evalset.json"
    case = {"eval_id": "c1", "conversation": []}
    path.write_text(
        '{"eval_set_id": "a", "eval_set_id": "b", "eval_cases": ['
        + ", ".join([json.dumps(case)] * 2)
        + "]}"
    )
    with pytest.warns(RecordWarning) as caught:
        records = list(iter_records(path))
    assert len(records) == 2
    assert [str(w.message).rsplit(": ", 1)[1] for w in caught] == ["$.eval_set_id"]
