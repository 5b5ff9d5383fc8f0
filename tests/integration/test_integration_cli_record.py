"""``agent-asserts record`` (issue #23 item 6, issue #25 item 14): every file of a folder read,
each run named by its file (``FILE#N`` in a file holding several), an unreadable file reported
while the others are still printed (exit 2), the trace format shown, nothing that acts on a
terminal printed raw."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import agent_asserts
from agent_asserts import TrialRecord, iter_records
from agent_asserts.cli import main
from agent_asserts.loaders import load
from agent_asserts.testing import DEMO_RECORD

CES = {"detailed_trace": ["User Query: refund A1", "Agent Text: Done"]}
# a screen clear, a window title, BEL, a carriage return, NEL, a C1 CSI, the line separator,
# a right-to-left override and an isolate
HOSTILE = "x\x1b[2J\x1b]0;pwned\x07\rfake\x85nel\x9bc1\u2028ls\u202eevil\u2066iso"
ACTING = set("\x1b\x07\r\x85\x9b\u2028\u202e\u2066")


@pytest.fixture
def runs(tmp_path: Path) -> Path:
    folder = tmp_path / "runs"
    folder.mkdir()
    (folder / "a.json").write_text(json.dumps(DEMO_RECORD))
    (folder / "b.json").write_text(json.dumps([CES, CES]))
    (folder / "c.json").write_text("{oops")
    (folder / "d.jsonl").write_text(json.dumps(CES) + "\n" + json.dumps(DEMO_RECORD) + "\n")
    (folder / "notes.txt").write_text("not a record")
    return folder


def _headers(out: str) -> list[str]:
    return [line.split(":")[0] for line in out.splitlines() if ": " in line and " events" in line]


def test_every_file_is_read_and_each_run_named_by_its_file(
    runs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["record", str(runs)]) == 2  # c.json cannot be read
    out, err = capsys.readouterr()
    assert _headers(out) == ["a.json", "b.json#1", "b.json#2", "d.jsonl#1", "d.jsonl#2"]
    assert err == (
        f"agent-asserts record: cannot read {runs / 'c.json'}: invalid record: 1 problem(s)\n"
        f"  {runs / 'c.json'}:1:2: invalid JSON: Expecting property name enclosed in double "
        "quotes\n"
    )
    (runs / "c.json").unlink()
    assert main(["record", str(runs)]) == 0
    assert "#" not in _headers(capsys.readouterr().out)[0]


def test_json_gives_every_run_of_every_readable_file(
    runs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["record", str(runs), "--json"]) == 2
    out, err = capsys.readouterr()
    assert len(json.loads(out)) == 5 and "cannot read" in err
    assert main(["record", str(runs / "a.json"), "--json"]) == 0
    shown = TrialRecord.from_dict(json.loads(capsys.readouterr().out))
    assert shown == TrialRecord.from_dict(DEMO_RECORD)


def test_a_file_failing_after_its_first_runs_keeps_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = tmp_path / "runs.jsonl"
    lines.write_text(json.dumps(CES) + "\n" + json.dumps(CES) + "\n{oops\n")
    assert main(["record", str(lines)]) == 2
    out, err = capsys.readouterr()
    assert _headers(out) == ["runs.jsonl#1", "runs.jsonl#2"]
    assert err.startswith(f"agent-asserts record: cannot read {lines}: ")
    assert f"{lines}:3:1:2: invalid JSON" in err


def test_the_format_is_shown_per_file(runs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["record", str(runs / "b.json"), "--format", "ces"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "b.json#1: 2 events, status -, reply 'Done', format ces"
    for file in ("a.json", "b.json", "d.jsonl"):  # as the reader recorded it, when it did
        assert main(["record", str(runs / file)]) == 0
        headers = [line for line in capsys.readouterr().out.splitlines() if " events" in line]
        formats = [r.metadata.get("format") for r in iter_records(runs / file)]
        assert [h.rpartition(", format ")[2] if ", format " in h else None for h in headers] == (
            formats
        )


def test_empty_and_missing_inputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["record", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"agent-asserts record: {tmp_path}: no record file\n"
    (tmp_path / "empty.jsonl").write_text("\n")
    (tmp_path / "run.json").write_text(json.dumps(CES))
    assert main(["record", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert err == f"agent-asserts record: {tmp_path / 'empty.jsonl'}: no run was read\n"
    assert out.startswith("run.json: 2 events")
    assert main(["record", str(tmp_path / "gone.json")]) == 2
    assert "no such file or folder" in capsys.readouterr().err
    assert main(["record", str(tmp_path), "--format", "nope"]) == 2
    assert capsys.readouterr().err.startswith("agent-asserts record: --format: unknown ")


def _hostile_record() -> dict[str, object]:
    record = TrialRecord.builder().agent(HOSTILE).tool(HOSTILE, result=HOSTILE).build()
    return {**record.to_dict(), "reply": HOSTILE, "status": HOSTILE}


def test_record_prints_nothing_that_acts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "runs"
    folder.mkdir()
    (folder / f"{HOSTILE}.json").write_text(json.dumps(_hostile_record()))
    (folder / f"bad{HOSTILE}.json").write_text('{"reply": 1, "' + HOSTILE + '": 2}')
    assert main(["record", str(folder)]) == 2
    out, err = capsys.readouterr()
    assert not ACTING & set(out + err), sorted(ACTING & set(out + err))
    assert "\\x1b]0;pwned\\x07" in out and "\\u202eevil" in out and "\\x1b" in err
    assert main(["record", str(folder), "--json"]) == 2
    out = capsys.readouterr().out
    assert not ACTING & set(out)
    assert json.loads(out)["reply"] == HOSTILE  # the same data, written with escapes


def test_validate_and_convert_print_nothing_that_acts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = tmp_path / f"s{HOSTILE}.json"
    suite.write_text(json.dumps({"name": HOSTILE, "checks": [{"called_tool": HOSTILE}]}))
    assert main(["validate", str(suite)]) == 0
    out, err = capsys.readouterr()
    assert not ACTING & set(out + err), sorted(ACTING & set(out + err))
    assert out.startswith("ok: ") and "\\x1b]0;pwned\\x07" in out
    assert main(["convert", str(suite)]) == 0
    out, err = capsys.readouterr()
    assert not ACTING & set(out + err), sorted(ACTING & set(out + err))
    assert load(yaml.safe_load(out)) == load(suite)  # escaped in YAML: the same suite
    assert main(["check", str(suite), "--record", str(suite)]) == 0  # the suite as a --record
    out, err = capsys.readouterr()
    assert not ACTING & set(out + err) and "skipped, it is a suite file" in err


def test_usage_errors_print_nothing_that_acts(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["schema", HOSTILE])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert not ACTING & set(err) and "unrecognized arguments: x\\x1b[2J" in err


def test_every_json_file_of_the_tests_is_read_or_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tests = Path(__file__).parents[1]
    files = sorted(p for s in ("*.json", "*.jsonl", "*.ndjson") for p in tests.rglob(s))
    for number, file in enumerate(files):  # traces, suites, broken files: one folder
        (tmp_path / f"{number:03d}-{file.name}").write_bytes(file.read_bytes())
    assert main(["record", str(tmp_path)]) in (0, 2)
    out, err = capsys.readouterr()
    printed = {
        line.split(":")[0].partition("#")[0] for line in out.splitlines() if " events" in line
    }
    reported = {line.removeprefix("agent-asserts record: ").removeprefix("cannot read ")
                .split(":")[0] for line in err.splitlines()
                if line.startswith("agent-asserts record: ")}  # fmt: skip
    assert len(files) >= 20
    assert printed | {Path(p).name for p in reported} == {p.name for p in tmp_path.iterdir()}


def test_a_lone_surrogate_is_printed_as_its_escape(tmp_path: Path) -> None:
    run = tmp_path / "run.json"  # "\ud800" is a legal JSON escape: a lone surrogate in the data
    run.write_text('{"reply": "a\\ud800b", "events": [{"kind": "tool_call", "actor_ref": "agent",'
                   ' "payload": {"name": "t\\udfff", "outcome": "succeeded"}}]}')  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(Path(agent_asserts.__file__).parents[1]),
           "PYTHONIOENCODING": "utf-8"}  # fmt: skip
    for extra in ([], ["--json"]):
        done = subprocess.run([sys.executable, "-m", "agent_asserts", "record", str(run), *extra],
                              capture_output=True, env=env, timeout=60)  # fmt: skip
        assert done.returncode == 0, done.stderr.decode()
        text = done.stdout.decode("utf-8")  # strict: whole UTF-8
        assert "\\ud800" in text and "\\udfff" in text
        if extra:
            assert json.loads(text)["reply"] == "a\ud800b"  # the same data
