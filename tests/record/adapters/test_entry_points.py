"""Every entry point reads traces through one function: load, from_trace, iter_records,
with_state, evaluate_many, suites' record_format, the CLI and the pytest fixture."""

from __future__ import annotations

import io
import json
import tracemalloc
from pathlib import Path

import pytest

import agent_asserts.record.reading as reading
from agent_asserts import TrialRecord, evaluate_many, iter_records
from agent_asserts.cli import main
from agent_asserts.loaders import load, loads
from agent_asserts.record import RecordError
from agent_asserts.record.parsing import iter_runs, sample

CES = {"detailed_trace": [
    "User Query: refund A1", "Tool Call: refund with args {'id': 'A1'}",
    "Tool Response: refund with result {'ok': True}", "Agent Text: Done"]}  # fmt: skip
NATIVE = {"status": "completed", "events": [
    {"kind": "message", "actor_ref": "agent", "payload": {"text": "hi"}}]}  # fmt: skip


def _write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_load_detects_the_format(tmp_path: Path) -> None:
    rec = TrialRecord.load(_write(tmp_path / "sim.json", CES))
    assert rec.reply == "Done"
    assert rec.tool_calls[0].payload.result == {"ok": True}
    assert TrialRecord.load(_write(tmp_path / "run.json", NATIVE)).status == "completed"


def test_load_with_a_named_format_and_states(tmp_path: Path) -> None:
    state = _write(tmp_path / "s0.json", {"orders": {"A1": "paid"}})
    rec = TrialRecord.load(
        _write(tmp_path / "sim.json", CES), "ces",
        initial_state=state, final_state={"orders": {"A1": "refunded"}},
    )  # fmt: skip
    assert rec.initial_state == {"orders": {"A1": "paid"}}
    assert [str(d) for d in rec.delta] == ["changed /orders/A1: 'paid' -> 'refunded'"]


def test_load_rejects_a_file_of_several_runs(tmp_path: Path) -> None:
    path = _write(tmp_path / "many.json", [CES, CES])
    with pytest.raises(RecordError) as info:
        TrialRecord.load(path)
    assert str(info.value.problems[0]) == (
        f"{path}: $: holds several runs: read them with agent_asserts.iter_records(...)"
    )
    assert len(list(iter_records(path))) == 2


def test_load_names_the_keys_when_no_format_matches(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match=r"no format matches \(looked at top-level keys 'foo'\)"):
        TrialRecord.load(_write(tmp_path / "x.json", {"foo": 1}))


def test_a_canonical_typo_keeps_the_canonical_message() -> None:
    with pytest.raises(RecordError, match=r"\$\.evnts: unknown key \(did you mean 'events'\?\)"):
        TrialRecord.from_trace({"status": "completed", "evnts": []})


def test_from_trace_and_with_state() -> None:
    rec = TrialRecord.from_trace(CES, final_state={"done": True})
    assert rec.final_state == {"done": True} and rec.initial_state is None
    again = rec.with_state(initial_state={"done": False})
    assert again.final_state == {"done": True} and again.initial_state == {"done": False}
    assert rec.initial_state is None  # a new record; the old one unchanged
    assert again.with_state(final_state=None).final_state is None


def test_state_file_paths_are_read_and_bad_files_are_errors(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text("{oops")
    with pytest.raises(RecordError, match="invalid JSON"):
        TrialRecord.from_trace(CES, initial_state=str(tmp_path / "bad.json"))
    assert TrialRecord.from_trace(CES, initial_state="not a path").initial_state == "not a path"


def test_iter_records_reads_jsonl_folders_and_data(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_text(json.dumps(CES) + "\n\n" + json.dumps(NATIVE) + "\n")
    _write(tmp_path / "b.json", [NATIVE, NATIVE])
    (tmp_path / "notes.txt").write_text("ignored")
    assert [r.reply for r in iter_records(tmp_path)] == ["Done", "hi", "hi", "hi"]
    assert [r.reply for r in iter_records([CES, CES])] == ["Done", "Done"]


def test_iter_records_jsonl_line_errors_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_text(json.dumps(CES) + "\n{oops\n")
    records = iter_records(path)
    assert next(records).reply == "Done"
    with pytest.raises(RecordError, match=r"runs\.jsonl:2:1:2: invalid JSON"):
        next(records)


def test_a_mantle_jsonl_file_is_one_run(tmp_path: Path) -> None:
    path = tmp_path / "tracker.jsonl"
    path.write_text('{"event": "user", "text": "hi"}\n{"event": "bot", "text": "hello"}\n')
    (rec,) = iter_records(path)
    assert rec.reply == "hello"
    assert TrialRecord.load(path).reply == "hello"


def test_iter_records_is_lazy(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_text(json.dumps(CES) + "\n")
    records = iter_records(path)
    path.write_text(json.dumps(NATIVE) + "\n")  # read only when iterated
    assert [r.reply for r in records] == ["hi"]


def test_large_files_are_streamed_run_by_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reading, "STREAM_ABOVE", 100)
    path = _write(tmp_path / "big.json", [CES] * 50)
    assert [r.reply for r in iter_records(path)] == ["Done"] * 50


def test_streamed_errors_name_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reading, "STREAM_ABOVE", 10)
    path = tmp_path / "big.json"
    path.write_text('[{"reply": "a"}, {"reply": "b", "reply": "c"}]')  # canonical: strict
    records = iter_records(path)
    next(records)
    with pytest.raises(RecordError) as info:
        next(records)
    assert str(info.value.problems[0]) == f"{path}: $[1].reply: duplicate key"


def test_the_stream_reader_keeps_memory_bounded(tmp_path: Path) -> None:
    item = json.dumps({"detailed_trace": ["Agent Text: " + "x" * 1000]})
    path = tmp_path / "big.json"
    path.write_text('{"runs": [' + ",".join([item] * 3000) + '], "id": 7}')  # ~3 MB
    tracemalloc.start()
    with path.open() as handle:
        count = sum(1 for _ in iter_runs(handle, "runs"))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert count == 3000
    assert peak < 1_000_000  # far below the file's size
    with path.open() as handle:
        shape = sample(handle, keep=1)
    assert len(shape["runs"]) == 1 and shape["id"] == 7


def test_stream_reader_handles_values_split_across_chunks() -> None:
    text = json.dumps([{"n": 12345678901234567890, "s": "é" * 70000}, 1.5e3, "x"])
    assert [v for _, v in iter_runs(io.StringIO(text), "")] == json.loads(text)
    with pytest.raises(RecordError, match="invalid JSON"):
        list(iter_runs(io.StringIO('[{"a": 1}, {"a" 2}]'), ""))


def test_evaluate_many_reads_any_format(tmp_path: Path) -> None:
    path = _write(tmp_path / "sim.json", CES)

    def refunds(ctx: object) -> None:
        ctx.called_tool("refund")  # type: ignore[attr-defined]

    batch = evaluate_many([path, CES, iter_records([CES]).__next__()], refunds, format="auto")
    assert [c.verdict.value for c in batch.cases] == ["passed"] * 3
    bad = evaluate_many([CES], refunds, format="native")
    assert "unknown key" in (bad.cases[0].error or "")


def test_suite_record_format_reads_the_record_file(tmp_path: Path) -> None:
    _write(tmp_path / "sim.json", CES)
    suite_file = tmp_path / "suite.yml"
    suite_file.write_text("record: sim.json\nrecord_format: ces\nchecks: [{called_tool: refund}]\n")
    suite = load(suite_file)
    assert suite.cases[0].record_format == "ces"
    assert [r.verdict.value for r in suite.evaluate_all()] == ["passed"]
    assert suite.to_dict()["record_format"] == "ces"


def test_suite_record_format_per_case_and_unknown_names() -> None:
    suite = loads(
        "cases:\n  - {name: a, record: x.json, record_format: ces, checks: [succeeded]}\n"
    )
    assert suite.cases[0].record_format == "ces"
    with pytest.raises(ValueError, match=r"unknown trace format 'cse' \(did you mean 'ces'\?\)"):
        loads("record: x.json\nrecord_format: cse\nchecks: [succeeded]\n")


def test_cli_check_takes_record_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = _write(tmp_path / "sim.json", CES)
    suite = tmp_path / "suite.yml"
    suite.write_text("checks: [{called_tool: refund}]\n")
    assert main(["check", str(suite), "--record", str(run), "--record-format", "ces"]) == 0
    assert main(["check", str(suite), "--record", str(run)]) == 0
    assert main(["check", str(suite), "--record", str(run), "--record-format", "nope"]) == 2
    assert "--record-format: unknown trace format 'nope'" in capsys.readouterr().err


def test_cli_check_reads_every_run_of_a_multi_run_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = _write(tmp_path / "runs.json", [CES, {"detailed_trace": ["Agent Text: no"]}])
    suite = tmp_path / "suite.yml"
    suite.write_text("checks: [{called_tool: refund}]\n")
    assert main(["check", str(suite), "--record", str(runs), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert [c["verdict"] for c in report["cases"]] == ["passed", "failed"]


def test_cli_record_prints_a_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trace = {
        "detailed_trace": [
            "User Query: refund A1",
            "Bogus",
            "Agent Transfer: Transferred to billing",
            "Agent Text: Done",
        ]
    }
    path = _write(tmp_path / "sim.json", trace)
    assert main(["record", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "sim.json: 3 events, status -, reply 'Done', format ces",
        "id  kind        agent  turn  name       outcome      duration",
        "e0  message     -      1     refund A1  -            -",
        "e1  delegation  -      1     billing    transferred  -",
        "e2  message     -      1     Done       -            -",
        "parse errors (1):",
        f"  {path}:detailed_trace[1]: not a CES trace line (expected one of 'User Query:', "
        "'User:', 'Agent Text:', 'Tool Call:', 'Tool Response:', 'Agent Transfer:', "
        "'Custom Payload:')",
    ]


def test_cli_record_json_and_unreadable_inputs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path / "sim.json", CES)
    assert main(["record", str(path), "--json", "--format", "ces"]) == 0
    assert json.loads(capsys.readouterr().out)["events"][-1]["payload"]["text"] == "Done"
    several = _write(tmp_path / "two.json", [CES, CES])
    assert main(["record", str(several), "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 2
    (tmp_path / "bad.json").write_text("{oops")
    assert main(["record", str(tmp_path / "bad.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["record", str(tmp_path / "missing.json")]) == 2
    assert main(["record", str(path), "--format", "nope"]) == 2


PYTEST_FILE = """
import json

def test_trace(agent_eval, tmp_path):
    path = tmp_path / "sim.json"
    path.write_text(json.dumps({data}))
    ctx = agent_eval(path, format="ces", final_state={{"ok": True}})
    ctx.called_tool("refund")
    ctx.state("/ok").equals(True)
"""


def test_pytest_fixture_takes_a_format(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_trace=PYTEST_FILE.format(data=repr(CES)))
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)
