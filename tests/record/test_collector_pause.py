"""The garbage collector is paused while a record is parsed and built, and only then."""

from __future__ import annotations

import gc
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent_asserts import TrialRecord, iter_records
from agent_asserts.record.errors import RecordError
from agent_asserts.record.parsing import collector_paused, paused_records


def run(calls: int) -> dict[str, object]:
    messages: list[dict[str, object]] = [{"role": "user", "content": "refund A1"}]
    for i in range(calls):
        call = {"id": f"c{i}", "type": "function",
                "function": {"name": "lookup", "arguments": json.dumps({"i": i})}}  # fmt: skip
        messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        messages.append({"role": "tool", "tool_call_id": f"c{i}", "content": '{"ok": true}'})
    messages.append({"role": "assistant", "content": "done"})
    return {"messages": messages}


@pytest.fixture
def collections() -> Iterator[list[int]]:
    """The generation of each collection that ran while the test did."""
    seen: list[int] = []

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.callbacks.append(callback)
    try:
        yield seen
    finally:
        gc.callbacks.remove(callback)


def test_a_big_run_is_built_without_the_collectors_passes(collections: list[int]) -> None:
    TrialRecord.from_trace(run(2))  # the adapter's modules imported before the count
    data = run(3_000)  # ~9,000 events: over a hundred collections when nothing pauses them
    gc.collect()
    collections.clear()
    record = TrialRecord.from_trace(data)
    assert len(record.tool_calls) == 3_000
    assert len(collections) <= 1  # the one the new objects start, once the pause has ended
    assert gc.isenabled()


def test_a_file_is_parsed_and_built_paused_and_the_collector_is_back_after(
    tmp_path: Path, collections: list[int]
) -> None:
    file = tmp_path / "run.json"
    file.write_text(json.dumps(run(3_000)))
    TrialRecord.from_trace(run(2))
    gc.collect()
    collections.clear()
    TrialRecord.load(file)
    assert len(collections) <= 2  # one after the parse's pause, one after the record's
    assert gc.isenabled()


def test_the_collector_is_back_after_a_record_that_fails(tmp_path: Path) -> None:
    file = tmp_path / "run.json"
    file.write_text('{"events": [{"kind": "memory", "event_type": "write"}]}')
    with pytest.raises(RecordError):
        TrialRecord.load(file)
    assert gc.isenabled()
    with pytest.raises(RecordError):
        TrialRecord.from_trace("{not json")
    assert gc.isenabled()


def test_a_program_that_turned_the_collector_off_keeps_it_off(tmp_path: Path) -> None:
    file = tmp_path / "run.json"
    file.write_text(json.dumps(run(5)))
    gc.disable()
    try:
        TrialRecord.load(file)
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_loop_over_the_records_runs_with_the_collector_on(tmp_path: Path) -> None:
    lines = tmp_path / "runs.jsonl"
    lines.write_text("\n".join(json.dumps(run(3)) for _ in range(5)) + "\n")
    states = [gc.isenabled() for _ in iter_records(lines)]
    assert states == [True] * 5


def test_paused_records_ends_the_pause_before_each_record_is_handed_over() -> None:
    def made() -> Iterator[bool]:
        yield gc.isenabled()
        yield gc.isenabled()

    assert [(inside, gc.isenabled()) for inside in paused_records(made())] == [(False, True)] * 2


def test_nested_pauses_turn_the_collector_on_once_the_outer_one_ends() -> None:
    with collector_paused():
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_loads_in_many_threads_leave_the_collector_on(tmp_path: Path) -> None:
    file = tmp_path / "run.json"
    file.write_text(json.dumps(run(50)))
    errors: list[BaseException] = []

    def load() -> None:
        try:
            for _ in range(20):
                TrialRecord.load(file)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=load) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert gc.isenabled()


def test_an_interrupt_that_lands_while_a_pause_ends_is_raised_once_it_has_ended(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real_enable = gc.enable
    calls: list[int] = []

    def enable() -> None:  # the first call is interrupted before it turns the collector on
        calls.append(1)
        if len(calls) == 1:
            raise KeyboardInterrupt
        real_enable()

    monkeypatch.setattr(gc, "enable", enable)
    with pytest.raises(KeyboardInterrupt), collector_paused():
        pass
    assert gc.isenabled()
    assert len(calls) == 2
