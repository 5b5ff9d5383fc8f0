"""A record loaded from a file checks its events at load and builds them on first read.

The lazily loaded record must be indistinguishable from the one ``from_dict`` builds eagerly:
equal, same ``repr``, ``to_dict``, pickles, copies, ``evolve``; a malformed record still fails
at load with the same error; threads reading a fresh record at once get one tuple.
"""

from __future__ import annotations

import copy
import json
import os
import pickle
import signal
import threading
import time
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from record_strategies import event_dicts, record_dicts

from agent_asserts import RecordError, TrialRecord, iter_records
from agent_asserts.record._event_decode import check_events
from agent_asserts.record._fast import copied, fast_build, fast_valid, kept
from agent_asserts.record._lazy_events import PendingEvents, is_pending
from agent_asserts.record.turns import TurnTracker

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


def test_events_are_not_built_until_read_and_then_once(path: Path) -> None:
    rec = TrialRecord.load(path)
    assert is_pending(rec)
    assert (rec.status, rec.initial_state, rec.explicit_reply) == (
        "completed",
        {"orders": {"A1": "paid"}},
        None,
    )
    assert is_pending(rec)
    events = rec.events
    assert not is_pending(rec)
    assert rec.events is events
    assert [e.event_id for e in events] == ["e0", "e1", "e2", "e3", "e4", "e5"]
    assert [e.turn for e in events] == [1, 1, 1, 1, 1, 1]


def test_a_lazily_loaded_record_equals_the_eager_one_in_every_view(path: Path) -> None:
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


def test_hashing_a_lazily_loaded_record_behaves_as_the_eager_one(path: Path) -> None:
    # a record is unhashable (its metadata is a dict): hashing says so, as for the eager one
    for rec in (TrialRecord.load(path), TrialRecord.from_dict(DATA)):
        with pytest.raises(TypeError, match="unhashable type: 'dict'"):
            hash(rec)


def test_a_pickle_or_copy_of_a_record_not_read_yet_stays_lazy_and_builds_its_own(
    path: Path,
) -> None:
    rec = TrialRecord.load(path)
    for twin in (pickle.loads(pickle.dumps(rec)), copy.copy(rec), copy.deepcopy(rec)):
        assert is_pending(twin)
        assert twin.events == rec.events
        assert twin.events is not rec.events
    read = TrialRecord.load(path)
    _ = read.events
    assert not is_pending(pickle.loads(pickle.dumps(read)))


def test_with_state_keeps_the_events_unbuilt(path: Path) -> None:
    rec = TrialRecord.load(path, final_state={"orders": {}})
    assert is_pending(rec)
    assert rec.final_state == {"orders": {}}
    assert rec.events == TrialRecord.from_dict(DATA).events


def test_every_file_reader_defers_and_reads_equal_records(tmp_path: Path) -> None:
    lines = tmp_path / "runs.jsonl"
    lines.write_text(json.dumps(DATA) + "\n" + json.dumps(DATA) + "\n")
    array = tmp_path / "runs.json"
    array.write_text(json.dumps([DATA, DATA]))
    eager = TrialRecord.from_dict(DATA)
    for source in (lines, array):
        records = list(iter_records(source))
        assert all(is_pending(r) for r in records)
        assert records == [eager, eager]


def test_concurrent_first_reads_get_one_tuple(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    builds: list[int] = []
    build = PendingEvents.build
    start = threading.Barrier(8)

    def slow_build(self: PendingEvents) -> Any:
        builds.append(1)
        time.sleep(0.05)  # long enough for every other thread to reach the lock
        return build(self)

    monkeypatch.setattr(PendingEvents, "build", slow_build)
    rec = TrialRecord.load(path)
    seen: list[Any] = []

    def read() -> None:
        start.wait()
        seen.append(rec.events)

    threads = [threading.Thread(target=read) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(builds) == 1
    assert len(seen) == 8 and all(events is seen[0] for events in seen)


def test_other_missing_attributes_still_raise_the_usual_error(path: Path) -> None:
    rec = TrialRecord.load(path)
    with pytest.raises(AttributeError) as info:
        _ = rec.evnts  # type: ignore[attr-defined]
    assert str(info.value) == "'TrialRecord' object has no attribute 'evnts'"
    assert not hasattr(rec, "evnts") and is_pending(rec)
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
def test_a_malformed_event_still_fails_at_load_with_the_eager_error(
    tmp_path: Path, event: dict[str, Any], problem: str
) -> None:
    data = {"events": [{"kind": "step", "payload": {"i": i}} for i in range(50_000)]}
    data["events"][40_000] = event
    file = tmp_path / "run.json"
    file.write_text(json.dumps(data))
    with pytest.raises(RecordError) as lazy:
        TrialRecord.load(file)
    with pytest.raises(RecordError) as eager:
        TrialRecord.from_dict(data, source=str(file))
    assert str(lazy.value) == str(eager.value)
    assert problem in str(lazy.value)


@settings(max_examples=150, deadline=None)
@given(record_dicts())
def test_lazy_and_eager_decoding_give_equal_records(data: dict[str, Any]) -> None:
    parsed = json.loads(json.dumps(data))
    lazy = TrialRecord._from_parsed(parsed)
    eager = TrialRecord.from_dict(data)
    assert repr(lazy) == repr(eager)
    assert lazy == eager
    assert lazy.to_dict() == eager.to_dict()


@settings(max_examples=150, deadline=None)
@given(event_dicts())
def test_a_kept_build_equals_a_copied_one_and_shares_the_values(raw: dict[str, Any]) -> None:
    tracker = TurnTracker()
    if fast_valid(raw, 3, tracker) is False:
        return
    shared = fast_build(raw, 3, tracker.current, kept)
    own = fast_build(raw, 3, tracker.current, copied)
    assert shared == own and repr(shared) == repr(own)
    if "payload" in raw and raw["kind"] in {"audit", "step"}:  # kinds without a typed payload
        assert shared.payload is raw["payload"] and own.payload is not raw["payload"]


def test_check_events_builds_only_what_the_fast_path_leaves() -> None:
    problems: list[tuple[str, str]] = []
    plan = check_events(DATA["events"], problems)
    assert problems == []
    assert [type(step).__name__ for step in plan] == ["int", "int", "int", "int", "Event", "int"]


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
def test_ids_assigned_by_position_and_explicit_ones_are_checked_as_before(
    tmp_path: Path, events: list[dict[str, Any]], problems: list[str]
) -> None:
    # ids assigned by position are only kept once an explicit id (or the thorough decoder,
    # or a parent link) needs them: every mix still finds the same duplicates
    file = tmp_path / "run.json"
    file.write_text(json.dumps({"events": events}))
    for load in (lambda: TrialRecord.from_dict({"events": events}), lambda: TrialRecord.load(file)):
        with pytest.raises(RecordError) as info:
            load()
        assert [f"{p.path}: {p.message}" for p in info.value.problems] == problems


def test_a_parent_named_by_its_assigned_id_is_found() -> None:
    rec = TrialRecord._from_parsed({"events": [{"kind": "a"}, {"kind": "a", "parent_id": "e0"}]})
    assert [(e.event_id, e.parent_id) for e in rec.events] == [("e0", None), ("e1", "e0")]


def test_a_forked_child_builds_even_if_a_parent_thread_was_building(path: Path) -> None:
    from agent_asserts.record import _lazy_events

    rec = TrialRecord.load(path)
    with _lazy_events._BUILDING:  # as if another thread of the parent were building at the fork
        pid = os.fork()
        if pid == 0:  # the child: a fresh lock, so reading the events does not wait forever
            os._exit(0 if len(rec.events) == 6 else 1)
    deadline = time.monotonic() + 10
    while (done := os.waitpid(pid, os.WNOHANG)) == (0, 0) and time.monotonic() < deadline:
        time.sleep(0.01)
    if done == (0, 0):
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    assert done != (0, 0), "the child waited for the parent's lock"
    assert os.waitstatus_to_exitcode(done[1]) == 0
