"""``agent-asserts watch``: files as they appear, JSON Lines as they grow, Ctrl-C."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agent_asserts.cli import build_parser, main
from agent_asserts.cli.watch import run_watch
from agent_asserts.testing import DEMO_RECORD

SUITE = "cases: [{name: ok, checks: [succeeded]}, {name: short, checks: [{max_steps: 1}]}]\n"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "suite.yaml").write_text(SUITE)
    (tmp_path / "runs").mkdir()
    return tmp_path


def args(folder: Path, *extra: str) -> argparse.Namespace:
    return build_parser().parse_args(
        ["watch", str(folder / "suite.yaml"), "--record-dir", str(folder / "runs"),
         "--output", str(folder / "out.jsonl"), "--interval", "0", *extra]
    )  # fmt: skip


def results(folder: Path) -> list[tuple[str, str, str]]:
    lines = (folder / "out.jsonl").read_text().splitlines()
    return [
        (r["name"], r["verdict"], Path(r["metadata"]["source"]).name)
        for r in map(json.loads, lines)
    ]


def scripted(steps: list[Callable[[], None]]) -> Callable[[float], None]:
    """A ``sleep`` that runs the next step between two polls."""

    def sleep(seconds: float) -> None:
        steps.pop(0)()

    return sleep


def test_a_json_file_is_evaluated_once_it_has_settled(folder: Path, capsys: Any) -> None:
    run = folder / "runs" / "a.json"
    run.write_text(json.dumps(DEMO_RECORD))
    code = run_watch(args(folder, "--max-polls", "3"), *std())
    assert code == 0
    assert results(folder) == [("ok", "passed", "a.json"), ("short", "failed", "a.json")]


def test_a_file_that_keeps_changing_waits(folder: Path) -> None:
    run = folder / "runs" / "a.json"
    run.write_text('{"events": [')
    steps = [lambda: run.write_text(json.dumps(DEMO_RECORD)), lambda: None, lambda: None]
    code = run_watch(args(folder, "--max-polls", "4"), *std(), sleep=scripted(steps))
    assert code == 0
    assert [r[1] for r in results(folder)] == ["passed", "failed"]


def test_jsonl_lines_are_evaluated_as_they_are_appended(folder: Path) -> None:
    log = folder / "runs" / "live.jsonl"
    line = json.dumps(DEMO_RECORD)
    log.write_text(line + "\n" + line[:20])  # the second line is still being written

    def finish() -> None:
        with log.open("a") as handle:
            handle.write(line[20:] + "\n\n" + '{"steps": 1}\n')

    code = run_watch(args(folder, "--max-polls", "2"), *std(), sleep=scripted([finish]))
    assert code == 0
    assert [(r[1], r[2]) for r in results(folder)] == [
        ("passed", "live.jsonl:1"), ("failed", "live.jsonl:1"),
        ("passed", "live.jsonl:2"), ("failed", "live.jsonl:2"),
        ("failed", "live.jsonl:4"), ("passed", "live.jsonl:4"),
    ]  # fmt: skip


def test_a_bad_line_is_a_failed_case_and_the_rest_go_on(folder: Path) -> None:
    (folder / "runs" / "live.jsonl").write_text('{oops\n{"steps": 1}\n')
    assert run_watch(args(folder, "--max-polls", "1"), *std()) == 0
    rows = [json.loads(x) for x in (folder / "out.jsonl").read_text().splitlines()]
    assert [(r["name"], r["metadata"]["source"][-12:]) for r in rows] == [
        ("ok", "live.jsonl:1"), ("short", "live.jsonl:1"),
        ("ok", "live.jsonl:2"), ("short", "live.jsonl:2"),
    ]  # fmt: skip
    assert rows[0]["error"].startswith(f"cannot load the record {folder / 'runs' / 'live.jsonl'}:1")


def test_a_rotated_jsonl_file_is_read_again_from_its_start(folder: Path) -> None:
    log = folder / "runs" / "live.jsonl"
    log.write_text(json.dumps(DEMO_RECORD) + "\n")
    steps = [lambda: log.write_text('{"steps": 1}\n')]
    assert run_watch(args(folder, "--max-polls", "2"), *std(), sleep=scripted(steps)) == 0
    assert [r[1] for r in results(folder)] == ["passed", "failed", "failed", "passed"]


def test_hidden_and_temporary_files_are_skipped(folder: Path) -> None:
    (folder / "runs" / ".a.json").write_text("{}")
    (folder / "runs" / "b.json.tmp").write_text("{}")
    (folder / "runs" / "notes.txt").write_text("hello")
    assert run_watch(args(folder, "--max-polls", "3"), *std()) == 0
    assert (folder / "out.jsonl").read_text() == ""


def test_ctrl_c_stops_with_130_one_line_and_the_output_intact(folder: Path) -> None:
    (folder / "runs" / "live.jsonl").write_text(json.dumps(DEMO_RECORD) + "\n")

    def interrupt(seconds: float) -> None:
        raise KeyboardInterrupt

    out, err = std()
    assert run_watch(args(folder), out, err, sleep=interrupt) == 130
    assert err.getvalue() == "watch stopped: 1 records, 2 results written\n"
    assert len(results(folder)) == 2


def test_results_go_to_stdout_without_output(folder: Path, capsys: Any) -> None:
    (folder / "runs" / "live.jsonl").write_text('{"steps": 1}\n')
    code = main(["watch", str(folder / "suite.yaml"), "--record-dir", str(folder / "runs"),
                 "--interval", "0", "--max-polls", "1"])  # fmt: skip
    assert code == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(x)["verdict"] for x in lines] == ["failed", "passed"]


def test_output_is_appended_to(folder: Path) -> None:
    (folder / "out.jsonl").write_text('{"earlier": true}\n')
    (folder / "runs" / "live.jsonl").write_text('{"steps": 1}\n')
    assert run_watch(args(folder, "--max-polls", "1"), *std()) == 0
    assert (folder / "out.jsonl").read_text().splitlines()[0] == '{"earlier": true}'
    assert len((folder / "out.jsonl").read_text().splitlines()) == 3


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda f: (f / "suite.yaml").write_text("cases: [{name: x, checks: [nope]}]"),
         "error: cannot load the suite "),
        (lambda f: (f / "runs").rmdir(), "error: --record-dir "),
    ],
)  # fmt: skip
def test_bad_inputs_exit_2(folder: Path, change: Any, message: str) -> None:
    change(folder)
    out, err = std()
    assert run_watch(args(folder, "--max-polls", "1"), out, err) == 2
    assert err.getvalue().startswith(message)


def test_an_unknown_format_exits_2(folder: Path) -> None:
    out, err = std()
    assert run_watch(args(folder, "--max-polls", "1", "--format", "nope"), out, err) == 2
    assert err.getvalue().startswith("error: --format nope: unknown trace format 'nope'")


def std() -> tuple[Any, Any]:
    import io

    return io.StringIO(), io.StringIO()


def test_bad_interval_or_polls_exit_2(folder: Path) -> None:
    out, err = std()
    assert run_watch(args(folder, "--interval", "-1", "--max-polls", "1"), out, err) == 2
    assert err.getvalue() == "error: --interval must be >= 0 seconds and --max-polls >= 1\n"


def test_ctrl_c_in_a_real_process(folder: Path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    (folder / "runs" / "live.jsonl").write_text(json.dumps(DEMO_RECORD) + "\n")
    output = folder / "out.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "agent_asserts", "watch", str(folder / "suite.yaml"),
         "--record-dir", str(folder / "runs"), "--output", str(output), "--interval", "0.05"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while not (output.exists() and output.read_text().count("\n") == 2):
        assert time.monotonic() < deadline, "no results written"
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert (proc.returncode, out) == (130, "")
    assert err == "watch stopped: 1 records, 2 results written\n"
    assert [json.loads(line)["verdict"] for line in output.read_text().splitlines()] == [
        "passed", "failed",
    ]  # fmt: skip
