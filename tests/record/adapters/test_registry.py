"""The record-format registry: formats(), detect(), register_format()."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import attrs
import pytest

from agent_asserts import TrialRecord
from agent_asserts.record import RecordError
from agent_asserts.record.adapters import (
    detect,
    formats,
    get_format,
    records_from_data,
    register_format,
    unregister_format,
)


def _is_shout(data: Any) -> bool:
    return isinstance(data, dict) and "shout" in data


def _records(data: Any, **options: Any) -> Iterator[TrialRecord]:
    for text in data["shout"]:
        yield TrialRecord.builder().agent(text.upper()).build(status="completed")


@pytest.fixture
def shout() -> Iterator[str]:
    register_format("shout", detect=_is_shout, to_records=_records)
    yield "shout"
    unregister_format("shout")


def test_builtin_formats_are_listed_in_order() -> None:
    assert formats()[:3] == ("native", "mantle", "ces")


def test_detect_names_each_builtin_format_from_its_shape() -> None:
    assert detect({"events": [{"kind": "message", "payload": {"text": "hi"}}]}) == "native"
    assert detect({}) == "native"
    assert detect([{"event": "user", "text": "hi"}]) == "mantle"
    assert detect({"sender_id": "u", "events": [{"event": "bot", "text": "x"}]}) == "mantle"
    assert detect({"detailed_trace": ["Agent Text: hi"]}) == "ces"


def test_no_match_names_the_keys_looked_at_and_the_candidates() -> None:
    with pytest.raises(RecordError) as info:
        detect({"messages": 1, "model": "x"}, source="run.json")
    (problem,) = info.value.problems
    assert problem.source == "run.json"
    assert problem.message.startswith(
        "cannot tell the trace format: no format matches (looked at top-level keys "
        "'messages', 'model'); known formats: native, mantle, ces"
    )
    assert problem.message.endswith("; pass format=NAME")


def test_several_matches_name_every_candidate(shout: str) -> None:
    register_format("shout2", detect=_is_shout, to_records=_records)
    try:
        with pytest.raises(RecordError) as info:
            detect({"shout": ["a"]})
        assert info.value.problems[0].message == (
            "cannot tell the trace format: several formats match: shout, shout2 "
            "(looked at top-level keys 'shout'); pass format=NAME"
        )
    finally:
        unregister_format("shout2")


def test_register_format_from_outside_is_detected_and_read(shout: str) -> None:
    assert "shout" in formats()
    assert detect({"shout": ["hi"]}) == "shout"
    records = list(records_from_data({"shout": ["a", "b"]}))
    assert [r.reply for r in records] == ["A", "B"]
    assert [r.reply for r in records_from_data({"shout": ["c"]}, "shout")] == ["C"]


def test_register_format_rejects_bad_names_and_duplicates(shout: str) -> None:
    with pytest.raises(ValueError, match="already registered"):
        register_format("shout", detect=lambda d: False, to_records=_records)
    for bad in ("auto", "Shout", "", "1x", "a b"):
        with pytest.raises(ValueError, match="a format name is lower-case"):
            register_format(bad, detect=lambda d: False, to_records=_records)
    with pytest.raises(ValueError, match="must be callables"):
        register_format("ok", detect=None, to_records=_records)  # type: ignore[arg-type]
    replaced = register_format("shout", detect=lambda d: False, to_records=_records, replace=True)
    assert get_format("shout") is replaced


def test_unknown_format_name_suggests_the_closest() -> None:
    with pytest.raises(
        RecordError, match=r"unknown trace format 'mantel' \(did you mean 'mantle'\?\)"
    ):
        get_format("mantel")
    with pytest.raises(KeyError):
        unregister_format("never-registered")


def test_detection_is_from_shape_not_file_name() -> None:
    # the same data detects the same whatever source name is given
    assert detect({"detailed_trace": []}, source="openai_chat.json") == "ces"


def test_a_format_may_own_a_file_suffix_read_only_by_its_reader(tmp_path: Path) -> None:
    import zipfile

    from agent_asserts import iter_records

    def read_archive(path: Path, **options: Any) -> Iterator[TrialRecord]:
        with zipfile.ZipFile(path) as archive:
            for member in sorted(archive.namelist()):
                yield TrialRecord.builder().agent(archive.read(member).decode()).build()

    with pytest.raises(ValueError, match="files= needs read_records"):
        register_format("zipped", detect=lambda d: False, to_records=_never, files=(".zz",))
    register_format(
        "zipped", detect=lambda d: False, to_records=_never, read_records=read_archive,
        files=(".zz",),
    )  # fmt: skip
    try:
        path = tmp_path / "runs.zz"
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr("a.txt", "first")
            archive.writestr("b.txt", "second")
        (tmp_path / "notes.txt").write_text("not read")
        assert [r.reply for r in iter_records(path)] == ["first", "second"]
        assert [r.reply for r in iter_records(tmp_path)] == ["first", "second"]
        assert {r.metadata["format"] for r in iter_records(tmp_path)} == {"zipped"}
        raw = iter_records(tmp_path).raw_lines()
        assert raw is not None
        assert [getattr(r, "reply", None) for r in raw] == ["first", "second"]
    finally:
        unregister_format("zipped")
    assert [f for f in formats() if f == "zipped"] == []


def _never(data: Any, **options: Any) -> Iterator[TrialRecord]:
    raise AssertionError("a file the format reads alone is never parsed as JSON")


_TAGGED_RUNS: dict[str, Any] = {
    "openai-chat": {
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": "yo"},
        ],
        "model": "m",
        "format": "old",
    },
    "anthropic": {
        "system": "be brief",
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": [{"type": "text", "text": "yo"}]},
        ],
    },
    "langchain": [{"type": "human", "content": "hi"}, {"type": "ai", "content": "yo"}],
    "openai-responses": {
        "input": [
            {"type": "message", "role": "user", "content": "go"},
            {"type": "function_call", "call_id": "a", "name": "x", "arguments": "{}"},
        ],
        "note": "kept",
    },
    "ces": {"detailed_trace": ["User Text: hi", "Agent Text: yo"], "format": "old", "passed": True},
    "deepeval": {"input": "hi", "actual_output": "yo", "tools_called": [{"name": "t"}]},
}  # fmt: skip


_FIXTURES: Final = Path(__file__).parent / "fixtures"
_TAGGED_FILES: Final = {
    "mcp": "mcp/refund_run.json",
    "openai-agents-run": "openai-agents-run/run_state.json",
    "gemini": "gemini/refund_run.json",
}


@pytest.mark.parametrize("name", sorted({*_TAGGED_RUNS, *_TAGGED_FILES}))
def test_an_adapter_that_tags_its_records_gives_what_the_reader_gave_after(name: str) -> None:
    spec = get_format(name)
    if name in _TAGGED_FILES:
        data = json.loads((_FIXTURES / _TAGGED_FILES[name]).read_text(encoding="utf-8"))
    else:
        data = _TAGGED_RUNS[name]
    assert spec.tags_records
    (plain,) = spec.to_records(data, source=None)
    assert "format" not in plain.metadata or plain.metadata["format"] == "old"
    expected = attrs.evolve(plain, metadata={**plain.metadata, "format": name})
    read = TrialRecord.from_trace(data, name)
    assert read == expected
    assert list(read.metadata) == list(expected.metadata)
    assert TrialRecord.from_trace(data).metadata["format"] == name


def test_a_format_that_does_not_tag_gets_the_name_from_the_reader(shout: str) -> None:
    assert not get_format(shout).tags_records
    assert TrialRecord.from_trace({"shout": ["a"]}).metadata == {"format": "shout"}
