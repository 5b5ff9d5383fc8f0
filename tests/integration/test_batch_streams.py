"""``evaluate_many(iter_records(path), ..., executor=...)``: the workers read the lines of the
JSON Lines files; results, sources, kept records and errors are those of a serial run, and
this process reads no line unless a worker could not."""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from agent_asserts import EvalContext, evaluate_many, iter_records
from agent_asserts.record import RecordError
from agent_asserts.record.reading import RecordStream


def refund_case(ctx: EvalContext) -> None:
    ctx.called_tool("refund", arguments={"amount": 42})
    ctx.max_steps(3).soft()


def done(ctx: EvalContext) -> None:
    ctx.state("/done").equals(True)


def run(i: int) -> dict[str, object]:
    call = {"name": "refund", "arguments": {"amount": 42 if i % 3 else 40}}
    return {"steps": i % 5, "events": [{"kind": "tool_call", "payload": call}]}


def write_runs(path: Path, n: int, bad: dict[int, bytes] | None = None) -> Path:
    lines = [json.dumps(run(i)).encode() for i in range(n)]
    for index, text in (bad or {}).items():
        lines[index] = text
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


@pytest.fixture
def pool() -> Iterator[ProcessPoolExecutor]:
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as executor:
        executor.submit(int).result()  # the workers exist before a test patches anything
        yield executor


def test_the_workers_read_the_lines_and_give_the_serial_results(
    tmp_path: Path, pool: ProcessPoolExecutor, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_runs(tmp_path / "runs.jsonl", 150, {7: b"   ", 20: b""})
    serial = evaluate_many(iter_records(path), refund_case, keep_records=True)
    read_here: list[object] = []
    original = RecordStream.line_records

    def counted(*args: object, **kwargs: object) -> object:
        read_here.append(args[0])
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(RecordStream, "line_records", staticmethod(counted))
    stream = iter_records(path)
    pooled = evaluate_many(stream, refund_case, executor=pool, keep_records=True, chunk_size=16)
    assert read_here == []  # no line was read in this process
    assert len(pooled.cases) == 148
    assert pooled.cases == serial.cases
    assert pooled.record_indexes == serial.record_indexes
    assert pooled.sources == serial.sources
    assert pooled.records == serial.records
    assert next(stream, None) is None  # the batch used the stream up, as iterating does


def test_a_bad_line_raises_the_serial_error_after_the_lines_before_it(
    tmp_path: Path, pool: ProcessPoolExecutor
) -> None:
    path = write_runs(tmp_path / "runs.jsonl", 100, {60: b'{"steps": [oops'})
    with pytest.raises(RecordError) as serial:
        evaluate_many(iter_records(path), refund_case)
    seen: list[str] = []
    with pytest.raises(RecordError) as pooled:
        evaluate_many(iter_records(path), refund_case, executor=pool, chunk_size=8,
                      on_result=lambda case: seen.append(case.verdict.value))  # fmt: skip
    assert str(pooled.value) == str(serial.value)
    assert f"{path}:61" in str(pooled.value)
    assert len(seen) == 60  # every record before the bad line, none after it


def test_states_and_folders_mixing_line_files_and_documents(
    tmp_path: Path, pool: ProcessPoolExecutor
) -> None:
    runs = tmp_path / "runs"
    runs.mkdir()
    write_runs(runs / "a.jsonl", 30)
    (runs / "b.json").write_text(json.dumps(run(1)), encoding="utf-8")
    write_runs(runs / "c.jsonl", 20)
    state = tmp_path / "final.json"
    state.write_text('{"done": true}', encoding="utf-8")

    serial = evaluate_many(iter_records(runs, final_state=state), done, keep_records=True)
    pooled = evaluate_many(iter_records(runs, final_state=state), done, executor=pool,
                           keep_records=True, chunk_size=4)  # fmt: skip
    assert len(pooled.cases) == 51 and pooled.passed
    assert pooled.cases == serial.cases
    assert pooled.records == serial.records


def test_a_started_stream_is_read_here(tmp_path: Path, pool: ProcessPoolExecutor) -> None:
    path = write_runs(tmp_path / "runs.jsonl", 20)
    stream = iter_records(path)
    first = next(stream)
    assert stream.started and stream.raw_lines() is None
    pooled = evaluate_many(stream, refund_case, executor=pool)
    assert len(pooled.cases) == 19
    assert pooled.cases == evaluate_many(iter_records(path), refund_case).cases[1:]
    assert first.steps == 0


def test_iter_records_keeps_where_it_reads_from(tmp_path: Path) -> None:
    path = write_runs(tmp_path / "runs.jsonl", 3)
    stream = iter_records(path, "native", initial_state={"n": 0})
    assert (stream.source, stream.format, stream.initial_state) == (path, "native", {"n": 0})
    assert [r.initial_state for r in stream] == [{"n": 0}] * 3
