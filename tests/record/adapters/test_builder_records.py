"""The adapters make their records with the record's constructors (``toolkit.record_of``: each
value checked once), and what they make is what ``TrialRecord.from_dict`` makes of the same
canonical dict: on every fixture of the formats built that way (the trace builder's and the
span-tree formats), and on canonical dicts it does not vouch for (wrong types, contradictions),
where ``from_dict`` names the problem."""

from __future__ import annotations

import copy
import warnings
from pathlib import Path
from typing import Any

import pytest
from adapter_checks import FIXTURES, load_json

from agent_asserts import RecordError, TrialRecord
from agent_asserts.record.adapters import _span_tree, records_from_data, toolkit
from agent_asserts.record.event import PAYLOAD_KEYS
from agent_asserts.record.validators import OWN_EXTRA_KEYS, suspicious_keys

DIRECT_FORMATS = (
    "openai-chat",
    "anthropic",
    "openai-responses",
    "gemini",
    "langchain",
    "mcp",
    "otel",
    "openai-agents",
    "pydantic-ai",
    "langfuse",
)
FILES = sorted(p for p in FIXTURES.glob("*/*.json") if p.parent.name in DIRECT_FORMATS)


def _built(path: Path, monkeypatch: pytest.MonkeyPatch) -> list[tuple[dict[str, Any], Any]]:
    """Each canonical dict the adapter assembled while reading ``path``, with its record; the
    record's own decoding (``from_dict``) is refused, so every record was built directly."""
    seen: list[tuple[dict[str, Any], Any]] = []
    direct = toolkit.record_of

    def spy(data: dict[str, Any], source: str | None = None) -> TrialRecord:
        snapshot = copy.deepcopy(data)
        record = direct(data, source)
        seen.append((snapshot, record))
        return record

    def refused(data: Any, *, source: str | None = None) -> TrialRecord:
        raise AssertionError(f"from_dict was called for {path}")

    for module in (toolkit, _span_tree):
        monkeypatch.setattr(module, "record_of", spy)
    with monkeypatch.context() as patch:
        patch.setattr(TrialRecord, "from_dict", refused)
        list(records_from_data(load_json(path), path.parent.name, source=path.name))
    return seen


def test_there_are_fixtures_of_every_format_built_directly() -> None:
    assert {p.parent.name for p in FILES} == set(DIRECT_FORMATS)


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_adapter_makes_what_from_dict_makes(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = _built(path, monkeypatch)
    assert built
    for data, record in built:
        assert record == TrialRecord.from_dict(data, source=path.name)


CALL = {"kind": "tool_call", "event_id": "e0", "payload": {"name": "t", "arguments": {"a": 1}}}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"events": [], "status": 3}, "$.status: must be a string (got 3)"),
        (
            {"events": [{**CALL, "payload": {**CALL["payload"], "arguments": {"a": {1}}}}]},
            "$.events[0].payload.arguments.a: must be JSON data (got set {1})",
        ),
        (
            {"events": [{**CALL, "payload": {"name": "t", "is_error": True, "outcome": "denied"}}]},
            "$.events[0].payload.is_error: true contradicts outcome 'denied'",
        ),
        (
            {"events": [{"kind": "model_call", "event_id": "e0", "payload": {"model": 5}}]},
            "$.events[0].payload.model: must be a string (got 5)",
        ),
        ({"events": [{**CALL, "parent_id": "e9"}]}, "$.events[0].parent_id: no event has id 'e9'"),
        ({"events": [CALL, CALL]}, "$.events[1].event_id: duplicate event id 'e0'"),
    ],
)
def test_what_the_builder_does_not_vouch_for_gets_the_record_s_own_error(
    data: dict[str, Any], message: str
) -> None:
    with pytest.raises(RecordError) as direct:
        toolkit.record_of(copy.deepcopy(data), "run.json")
    with pytest.raises(RecordError) as decoded:
        TrialRecord.from_dict(data, source="run.json")
    assert str(direct.value) == str(decoded.value)
    assert message in str(direct.value)


def test_a_value_nested_too_deep_gets_the_record_s_depth_error() -> None:
    deep: Any = 1
    for _ in range(250):
        deep = [deep]
    data = {"events": [{**CALL, "payload": {"name": "t", "arguments": {"a": deep}}}]}
    with pytest.raises(RecordError) as direct:
        toolkit.record_of(copy.deepcopy(data))
    with pytest.raises(RecordError) as decoded:
        TrialRecord.from_dict(data)
    assert str(direct.value) == str(decoded.value)


def test_a_suspicious_extra_key_warns_as_from_dict_does() -> None:
    data = {"events": [{**CALL, "payload": {"name": "t", "params": {}}}]}
    with warnings.catch_warnings(record=True) as direct:
        warnings.simplefilter("always")
        record = toolkit.record_of(copy.deepcopy(data))
    with warnings.catch_warnings(record=True) as decoded:
        warnings.simplefilter("always")
        expected = TrialRecord.from_dict(data)
    assert record == expected
    assert [str(w.message) for w in direct] == [str(w.message) for w in decoded]
    assert direct


def test_the_key_every_builder_event_carries_is_never_suspicious() -> None:
    assert "trace_items" in OWN_EXTRA_KEYS
    for keys in PAYLOAD_KEYS.values():
        assert not list(suspicious_keys(dict.fromkeys(OWN_EXTRA_KEYS), frozenset(keys)))
