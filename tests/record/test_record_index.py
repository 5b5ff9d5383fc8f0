"""Indexes: built once, in one pass, on first use."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_asserts.record import TrialRecord
from agent_asserts.record.event import Event
from agent_asserts.record.trial import RecordIndex, _laid_together


@pytest.fixture
def record() -> TrialRecord:
    return (
        TrialRecord.builder()
        .user("hi")
        .tool("search", {"q": "a"})
        .memory_set("x", 1)
        .tool("lookup")
        .memory_clear("x")
        .tool("search", {"q": "b"})
        .event("audit", payload={"text": "t"}, event_id="audit-1")
        .agent("done")
        .build()
    )


def test_positions(record: TrialRecord) -> None:
    assert record.positions_of_kind("tool_call") == (1, 3, 5)
    assert record.positions_of_kind("message") == (0, 7)
    assert record.positions_of_kind("nothing") == ()
    assert record.tool_positions("search") == (1, 5)
    assert record.tool_positions("missing") == ()
    assert record.memory_positions("x") == (2, 4)
    assert record.memory_positions("y") == ()
    assert record.position_of("audit-1") == 6
    assert record.position_of("e0") == 0
    assert [e.payload.name for e in record.tool_calls] == ["search", "lookup", "search"]  # type: ignore[union-attr]


def test_position_of_unknown_id(record: TrialRecord) -> None:
    with pytest.raises(KeyError, match="no event with id 'nope'"):
        record.position_of("nope")


def test_index_built_once(record: TrialRecord, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    original = RecordIndex.build.__func__  # type: ignore[attr-defined]

    def counting(cls: type[RecordIndex], events: object) -> RecordIndex:
        calls.append(1)
        return original(cls, events)  # type: ignore[no-any-return]

    monkeypatch.setattr(RecordIndex, "build", classmethod(counting))
    fresh = TrialRecord(events=record.events)
    assert calls == [1]  # built when the record is made
    fresh.build_indexes()
    fresh.positions_of_kind("tool_call")
    fresh.tool_positions("search")
    fresh.memory_positions("x")
    fresh.user_turns()
    assert calls == [1]


def test_records_uses_surfaces_and_events() -> None:
    rec = TrialRecord.from_dict({"surfaces": ["message"], "events": [{"kind": "audit"}]})
    assert rec.records("message")
    assert rec.records("audit")
    assert not rec.records("memory")
    assert TrialRecord().records("anything")


def test_index_scales_linearly() -> None:
    events = [{"kind": "tool_call", "payload": {"name": f"t{i % 7}"}} for i in range(20_000)]
    rec = TrialRecord.from_dict({"events": events})
    assert len(rec.tool_positions("t3")) == len(range(3, 20_000, 7))
    assert rec.position_of("e19999") == 19_999


@given(st.lists(st.text(max_size=6), max_size=30))
def test_event_id_column_equals_every_event_id(ids: list[str]) -> None:
    # ids laid together by one split: any text, NUL and the empty id included, stays the same
    events = [Event("audit", None, event_id) for event_id in ids]
    index = RecordIndex.build(events)
    assert index.event_ids == tuple(ids)
    assert all(type(i) is str for i in index.event_ids)


def test_event_id_column_holds_equal_copies() -> None:
    rec = TrialRecord.builder()
    for i in range(1_000):
        rec = rec.tool(f"t{i % 7}", {"i": i})
    record = rec.build()
    ids = record.index.event_ids
    assert ids == tuple(event.event_id for event in record.events)
    assert [i for i, e in zip(ids, record.events, strict=True) if i is e.event_id] == []
    assert _laid_together(["a\x00b", "c"]) == ("a\x00b", "c")  # a NUL in an id: the ids as given


def test_event_id_column_of_an_id_that_is_not_a_string() -> None:
    # an Event made by hand with another type of id: the index keeps it as given
    record = TrialRecord(events=[Event("audit", None, 7), Event("audit", None, "e1")])  # type: ignore[arg-type]
    assert record.index.event_ids == (7, "e1")
