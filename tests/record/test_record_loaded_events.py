"""A record loaded from a file has its events built at load, by the one decoder.

The loaded record is the one ``from_dict`` builds: equal, same ``repr``, ``to_dict``, pickles,
copies, ``evolve``; a malformed event fails at load with the same error; ``events`` is an
attribute like any other (``vars``, ``dir``).
"""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from record_strategies import record_dicts

from agent_asserts import RecordError, TrialRecord, iter_records

DATA: dict[str, Any] = {
    "initial_state": {"orders": {"A1": "paid"}},
    "final_state": {"orders": {"A1": "refunded"}},
    "status": "completed",
    "events": [
        {"kind": "message", "actor_ref": "user", "payload": {"text": "refund A1"}},
        {"kind": "tool_call", "payload": {"name": "refund", "arguments": {"id": "A1"}}},
        {"kind": "step", "payload": {"i": [1, {"j": None}]}},
        {"kind": "audit", "entity_refs": ["order:A1"], "parent_id": "e1", "payload": {}},
        {"kind": "model_call", "payload": {"model": "m"}},  # the thorough decoder's
        {"kind": "message", "actor_ref": "agent", "payload": {"text": "Done"}},
    ],
}


@pytest.fixture
def path(tmp_path: Path) -> Path:
    file = tmp_path / "run.json"
    file.write_text(json.dumps(DATA))
    return file


def test_events_are_built_at_load_and_shown_like_any_attribute(path: Path) -> None:
    rec = TrialRecord.load(path)
    assert "events" in vars(rec) and "events" in dir(rec)
    assert (rec.status, rec.initial_state, rec.explicit_reply) == (
        "completed",
        {"orders": {"A1": "paid"}},
        None,
    )
    events = vars(rec)["events"]
    assert rec.events is events
    assert [e.event_id for e in events] == ["e0", "e1", "e2", "e3", "e4", "e5"]
    assert [e.turn for e in events] == [1, 1, 1, 1, 1, 1]


def test_a_loaded_record_equals_the_from_dict_one_in_every_view(path: Path) -> None:
    eager = TrialRecord.from_dict(DATA)
    for read in (
        lambda r: r,
        repr,
        lambda r: r.to_dict(),
        lambda r: r.index.kinds,
        lambda r: r.reply,
        lambda r: [str(d) for d in r.delta],
        lambda r: pickle.loads(pickle.dumps(r)),
        copy.copy,
        copy.deepcopy,
        lambda r: attrs.evolve(r, status="failed"),
        lambda r: r.with_state(final_state={"orders": {}}),
        lambda r: r.for_agent("x"),
        attrs.asdict,
    ):
        assert read(TrialRecord.load(path)) == read(eager)


def test_hashing_a_loaded_record_behaves_as_the_from_dict_one(path: Path) -> None:
    # a record is unhashable (its metadata is a dict): hashing says so, as for the eager one
    for rec in (TrialRecord.load(path), TrialRecord.from_dict(DATA)):
        with pytest.raises(TypeError, match="unhashable type: 'dict'"):
            hash(rec)


def test_a_pickle_or_copy_of_a_loaded_record_has_equal_events(path: Path) -> None:
    rec = TrialRecord.load(path)
    for twin in (pickle.loads(pickle.dumps(rec)), copy.copy(rec), copy.deepcopy(rec)):
        assert twin.events == rec.events
        assert twin == rec


def test_with_state_keeps_the_events(path: Path) -> None:
    rec = TrialRecord.load(path, final_state={"orders": {}})
    assert rec.final_state == {"orders": {}}
    assert rec.events == TrialRecord.from_dict(DATA).events


def test_every_file_reader_reads_equal_records(tmp_path: Path) -> None:
    lines = tmp_path / "runs.jsonl"
    lines.write_text(json.dumps(DATA) + "\n" + json.dumps(DATA) + "\n")
    array = tmp_path / "runs.json"
    array.write_text(json.dumps([DATA, DATA]))
    eager = TrialRecord.from_dict(DATA)
    for source in (lines, array):
        records = list(iter_records(source))
        assert records == [eager, eager]


def test_other_missing_attributes_still_raise_the_usual_error(path: Path) -> None:
    rec = TrialRecord.load(path)
    with pytest.raises(AttributeError) as info:
        _ = rec.evnts  # type: ignore[attr-defined]
    assert str(info.value) == "'TrialRecord' object has no attribute 'evnts'"
    assert not hasattr(rec, "evnts")
    assert str(info.value) == str(_missing_attribute(TrialRecord.from_dict(DATA)))


def _missing_attribute(rec: TrialRecord) -> AttributeError:
    try:
        _ = rec.evnts  # type: ignore[attr-defined]
    except AttributeError as exc:
        return exc
    raise AssertionError("no AttributeError")


@pytest.mark.parametrize(
    ("event", "problem"),
    [
        ({"kind": "memory", "event_type": "write"}, "$.events[40000].event_type: must be one of"),
        ({"kind": "step", "event_id": "e7"}, "$.events[40000].event_id: duplicate event id 'e7'"),
        ({"kind": "step", "parent_id": "nope"}, "$.events[40000].parent_id: no event has id"),
        ({"kind": "tool_call", "payload": {"name": ""}}, "$.events[40000].payload.name: must"),
    ],
)
def test_a_malformed_event_fails_at_load_with_the_from_dict_error(
    tmp_path: Path, event: dict[str, Any], problem: str
) -> None:
    data = {"events": [{"kind": "step", "payload": {"i": i}} for i in range(50_000)]}
    data["events"][40_000] = event
    file = tmp_path / "run.json"
    file.write_text(json.dumps(data))
    with pytest.raises(RecordError) as loaded:
        TrialRecord.load(file)
    with pytest.raises(RecordError) as decoded:
        TrialRecord.from_dict(data, source=str(file))
    assert str(loaded.value) == str(decoded.value)
    assert problem in str(loaded.value)


@settings(max_examples=150, deadline=None)
@given(record_dicts())
def test_parsed_data_and_from_dict_give_equal_records(data: dict[str, Any]) -> None:
    parsed = TrialRecord.from_trace(json.dumps(data), format="native")  # JSON text read here
    decoded = TrialRecord.from_dict(data)
    assert repr(parsed) == repr(decoded)
    assert parsed == decoded
    assert parsed.to_dict() == decoded.to_dict()


def _dup(at: int, event_id: str, first: int, assigned: str = "") -> str:
    return (
        f"$.events[{at}].event_id: duplicate event id '{event_id}'{assigned}"
        f" (already used by $.events[{first}])"
    )


@pytest.mark.parametrize(
    ("events", "problems"),
    [
        ([{"kind": "a"}, {"kind": "a", "event_id": "e0"}], [_dup(1, "e0", 0)]),
        (
            [{"kind": "a", "event_id": "e1"}, {"kind": "a"}],
            [_dup(1, "e1", 0, " (assigned by position)")],
        ),
        (
            [{"kind": "a"}, {"kind": "a"}, {"kind": "a", "parent_id": "e5"}],
            ["$.events[2].parent_id: no event has id 'e5'"],
        ),
        (
            [{"kind": "a", "parent_id": "e1"}, {"kind": "a", "parent_id": "e0"}],
            ["$.events[0].parent_id: parent_id cycle: 'e0' -> 'e1' -> 'e0'"],
        ),
        (
            [
                {"kind": "a"},
                {"kind": "a", "event_id": "x"},
                {"kind": "a"},
                {"kind": "a", "event_id": "e2"},
            ],
            [_dup(3, "e2", 2)],
        ),
        (
            [
                {"kind": "tool_call", "payload": {"name": "t", "call_id": "c"}},
                {"kind": "a", "event_id": "e0"},
                {"kind": "a", "parent_id": "e0"},
            ],
            [_dup(1, "e0", 0)],
        ),
        (
            [
                {"kind": "a"},
                {"kind": "a", "event_id": "e3"},
                {"kind": "a"},
                {"kind": "a"},
                {"kind": "a", "event_id": "e3"},
            ],
            [_dup(3, "e3", 1, " (assigned by position)"), _dup(4, "e3", 1)],
        ),
    ],
)
def test_ids_assigned_by_position_and_explicit_ones_are_checked_together(
    tmp_path: Path, events: list[dict[str, Any]], problems: list[str]
) -> None:
    # ids assigned by position and explicit ones share one namespace: every mix finds the
    # same duplicates, whether decoded from data or loaded from a file
    file = tmp_path / "run.json"
    file.write_text(json.dumps({"events": events}))
    for load in (lambda: TrialRecord.from_dict({"events": events}), lambda: TrialRecord.load(file)):
        with pytest.raises(RecordError) as info:
            load()
        assert [f"{p.path}: {p.message}" for p in info.value.problems] == problems


def test_a_parent_named_by_its_assigned_id_is_found() -> None:
    rec = TrialRecord.from_dict({"events": [{"kind": "a"}, {"kind": "a", "parent_id": "e0"}]})
    assert [(e.event_id, e.parent_id) for e in rec.events] == [("e0", None), ("e1", "e0")]
