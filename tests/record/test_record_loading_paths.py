"""The faster loading paths keep every error: depth measured while events decode, a large
single-run file parsed once instead of sampled first."""

from __future__ import annotations

import contextlib
import gc
import json
from pathlib import Path

import pytest

from agent_asserts import TrialRecord, iter_records
from agent_asserts._values import MAX_DEPTH, depth_message
from agent_asserts.record import RecordError, reading
from agent_asserts.record.decoding import decode_event
from agent_asserts.record.event import TurnTracker
from agent_asserts.record.parsing import cannot_stream, parse_json, sample, sample_of


def _nested(depth: int) -> object:
    value: object = "x"
    for _ in range(depth):
        value = [value]
    return value


def _only_problem(data: object) -> str:
    with pytest.raises(RecordError) as info:
        TrialRecord.from_dict(data)
    (problem,) = info.value.problems
    return str(problem)


@pytest.mark.parametrize("depth", [300, 100_000])
def test_a_deep_value_in_a_fast_path_payload_is_the_depth_error(depth: int) -> None:
    call = {"kind": "tool_call", "payload": {"name": "f", "arguments": _nested(depth)}}
    data = {"events": [{"kind": "step"}, call]}
    # record 1, events 2, event 3, payload 4, arguments 5: level 201 is 196 items further
    assert _only_problem(data) == (
        "$.events[1].payload.arguments" + "[0]" * 196 + ": " + depth_message()
    )


def test_a_deep_payload_of_a_free_kind_is_the_depth_error() -> None:
    data = {"events": [{"kind": "step", "payload": {"x": _nested(500)}}]}
    assert _only_problem(data) == "$.events[0].payload.x" + "[0]" * 196 + ": " + depth_message()


def test_a_deep_value_in_an_event_the_fast_path_refuses_is_the_depth_error() -> None:
    data = {"events": [{"kind": "step", "turn": _nested(1_000)}]}
    assert _only_problem(data) == "$.events[0].turn" + "[0]" * 197 + ": " + depth_message()


def test_the_depth_error_replaces_the_other_problems_found_before_it() -> None:
    data = {
        "stauts": 1,
        "steps": "x",
        "events": [{"kind": 3}, {"kind": "s", "payload": {"a": _nested(300)}}],
    }
    assert _only_problem(data) == "$.events[1].payload.a" + "[0]" * 196 + ": " + depth_message()


def test_the_first_deep_container_of_the_record_is_named() -> None:
    events = [{"kind": "s", "payload": {"a": _nested(300)}}]
    assert _only_problem({"metadata": {"b": _nested(300)}, "events": events}).startswith(
        "$.metadata.b[0]"
    )
    assert _only_problem({"events": events, "metadata": {"b": _nested(300)}}).startswith(
        "$.events[0].payload.a[0]"
    )


def test_a_self_referencing_payload_is_the_depth_error() -> None:
    loop: list[object] = []
    loop.append(loop)
    problem = _only_problem(
        {
            "events": [
                {"kind": "memory", "event_type": "set", "payload": {"name": "m", "value": loop}}
            ]
        }
    )
    assert problem == "$.events[0].payload.value" + "[0]" * 196 + ": " + depth_message()


def test_payloads_at_the_depth_limit_still_decode() -> None:
    value = _nested(MAX_DEPTH - 4)  # its deepest list at level 200
    record = TrialRecord.from_dict(
        {
            "events": [
                {"kind": "tool_call", "payload": {"name": "f", "arguments": value}},
                {"kind": "step", "payload": {"x": value}},
            ]
        }
    )
    assert record.events[0].payload.arguments == value
    assert record.events[1].payload == {"x": value}


def _big(tmp_path: Path, text: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(reading, "STREAM_ABOVE", 10)
    path = tmp_path / "run.json"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_large_record_file_is_read_whole_and_equals_from_dict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = {"status": "done", "events": [{"kind": "step", "payload": {"i": i}} for i in range(50)]}
    path = _big(tmp_path, "\ufeff\n " + json.dumps(data), monkeypatch)
    assert cannot_stream(path, ["evalCases", "eval_cases"])
    assert TrialRecord.load(path) == TrialRecord.from_dict(data)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '{"status": "ok", "events": [{"kind": "step"},, ]}',
            "char *: $.events[1]: invalid JSON: Expecting value",
        ),
        ('{"events": [{"kind": "step", "kind": "x"}]}', "$.events[0].kind: duplicate key"),
        (
            '{"events": [{"kind": "step", "payload": {"x": NaN}}]}',
            "$.events[0].payload.x: invalid JSON: NaN is not a JSON value",
        ),
    ],
)
def test_a_large_file_that_does_not_parse_reports_as_the_sampling_pass_did(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, message: str
) -> None:
    path = _big(tmp_path, text, monkeypatch)
    with pytest.raises(RecordError) as info:
        TrialRecord.load(path)
    (problem,) = info.value.problems
    before, _, after = f"{path}: {message}".partition("*")
    assert str(problem).startswith(before) and str(problem).endswith(after)


@pytest.mark.parametrize(
    ("text", "streamable"),
    [
        ('{"evalCases": []}', True),
        ('{"eval\\u0043ases": []}', True),  # an escaped letter
        ('{"eval\\u0063ases": []}', True),  # an escape of a letter of another key: cautious
        ('{"a": "\\u00e9\\n\\"", "events": []}', False),  # escapes json.dumps writes
        ('  [{"status": "ok"}]', True),  # a top-level array
        ('"text"', True),  # not an object: the sampling pass says what it is
    ],
)
def test_only_an_object_spelling_no_runs_key_is_read_whole(
    tmp_path: Path, text: str, streamable: bool
) -> None:
    path = tmp_path / "doc.json"
    path.write_text(text)
    assert cannot_stream(path, ["", "evalCases", "eval_cases"]) is not streamable


@pytest.mark.parametrize("key", ['a"b', "a\\b", "a/b", "a\nb", "é", "\U0001f600"])
def test_every_spelling_of_a_runs_key_is_found(tmp_path: Path, key: str) -> None:
    units = key.encode("utf-16-be")
    upper = "".join(
        f"\\u{int.from_bytes(units[i : i + 2], 'big'):04X}" for i in range(0, len(units), 2)
    )
    path = tmp_path / "doc.json"
    for spelled in (json.dumps(key), json.dumps(key, ensure_ascii=False), f'"{upper}"'):
        path.write_text("{" + spelled + ": []}", encoding="utf-8")
        assert not cannot_stream(path, [key]), spelled


def test_sample_of_parsed_data_is_the_stream_sample(tmp_path: Path) -> None:
    data = {"a": [1, [2, 3, 4, 5], {"b": list(range(9))}, 6], "c": {"d": [[1] * 5] * 5}, "e": []}
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(data))
    with path.open() as handle:
        assert sample_of(data) == sample(handle)


@pytest.mark.parametrize(
    "raw",
    [
        {"kind": "step"},
        {"kind": "step", "payload": {"i": [1, {"j": None}]}},
        {
            "kind": "skill",
            "event_type": "activated",
            "event_id": "s",
            "turn": 3,
            "payload": {"skill_id": "refund"},
        },
        {"kind": "message", "payload": {"text": "hi"}},
        {"kind": "tool_call", "turn": 0, "payload": {"name": "f", "arguments": {"a": 1}}},
    ],
)
def test_a_plain_event_decodes_alone_as_in_a_record(raw: dict[str, object]) -> None:
    in_record = TrialRecord.from_dict({"events": [raw]}).events[0]
    problems: list[tuple[str, str]] = []
    alone = decode_event(raw, 0, problems, TurnTracker(), {})
    assert problems == [] and alone is not None
    assert alone == in_record and repr(alone) == repr(in_record)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"a": ' + "9" * 5000 + "}", "$.a: invalid JSON: an integer of 5000 digits is too long"),
        ('[1, {"b": -' + "9" * 4400 + "}]", "$[1].b: invalid JSON: an integer of 4400 digits"),
    ],
)
def test_a_huge_integer_is_still_found_by_its_path(text: str, problem: str) -> None:
    with pytest.raises(RecordError) as info:
        parse_json(text, "run.json")
    (found,) = info.value.problems
    assert str(found).startswith(f"run.json: {problem}")


def test_a_huge_integer_before_a_syntax_error_reports_the_syntax_error() -> None:
    with pytest.raises(RecordError) as info:
        parse_json('{"a": ' + "9" * 5000 + ", }", "run.json")
    assert [str(p) for p in info.value.problems] == [
        "run.json:1:5009: invalid JSON: Expecting property name enclosed in double quotes"
    ]


def test_loading_leaves_the_garbage_collector_as_it_found_it(tmp_path: Path) -> None:
    from agent_asserts.errors import LoadError
    from agent_asserts.loaders import loads

    path = tmp_path / "run.json"
    for text in ('{"events": [{"kind": "step"}]}', '{"events": [{"kind": 3}]}'):
        path.write_text(text)
        for enabled in (True, False):
            (gc.enable if enabled else gc.disable)()
            try:
                with contextlib.suppress(RecordError):
                    TrialRecord.load(path)
                assert gc.isenabled() is enabled
            finally:
                gc.enable()
    for suite in ("checks: [{max_steps: 5}]", "checks: [{max_stepz: 5}]"):
        with contextlib.suppress(LoadError):
            loads(suite)
        assert gc.isenabled()


@pytest.mark.parametrize("shape", ["object", "array"])
def test_a_large_file_with_one_bad_byte_names_its_position(tmp_path: Path, shape: str) -> None:
    event = '{"kind": "step", "payload": {"text": "%s"}}' % ("é" * 100)
    body = '{"events": [' + ",".join([event] * 6000) + "]}"
    raw = (body if shape == "object" else f"[{body}]").encode()
    assert len(raw) > reading.STREAM_ABOVE
    bad = len(raw) // 2 + 1
    raw = raw[:bad] + b"\xff" + raw[bad + 1 :]
    with pytest.raises(UnicodeDecodeError) as decoding:
        raw.decode()
    path = tmp_path / "big.json"
    path.write_bytes(raw)
    with pytest.raises(RecordError) as caught:
        list(iter_records(path))
    where = decoding.value.start  # the byte a whole-file decode names
    assert where in (bad - 1, bad)
    assert [str(p) for p in caught.value.problems] == [f"{path}: not UTF-8 text (byte {where})"]
