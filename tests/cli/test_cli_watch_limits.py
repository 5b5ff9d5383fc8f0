"""``agent-asserts watch --timeout/--judge-timeout/--judge``: a hostile record cannot hang it."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from agent_asserts.cli import main

PATTERN = "^([A-Za-z0-9]+\\s?)*$"  # the pattern of issue #17, as a suite writes it
HOSTILE_REPLY = "a" * 44 + "?"  # 45 characters: exponential backtracking in the re engine
REDOS_SUITE = f"cases: [{{name: redos, checks: [{{expect: {{value: reply, matches: {{$regex: {json.dumps(PATTERN)}}}}}}}]}}]\n"  # noqa: E501


def watch(folder: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """The real command, in a process of its own (its main thread, as in production)."""
    return subprocess.run(
        [sys.executable, "-m", "agent_asserts", "watch", "suite.yaml", "--record-dir", "runs",
         "--output", "out.jsonl", "--interval", "0", "--max-polls", "1", *extra],
        capture_output=True, text=True, timeout=120, cwd=folder,
    )  # fmt: skip


def rows(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (folder / "out.jsonl").read_text().splitlines()]


def test_a_catastrophic_regex_is_failed_at_the_timeout_and_the_next_record_passes(
    tmp_path: Path,
) -> None:
    (tmp_path / "suite.yaml").write_text(REDOS_SUITE)
    (tmp_path / "runs").mkdir()
    lines = [{"events": [], "reply": HOSTILE_REPLY}, {"events": [], "reply": "all good"}]
    (tmp_path / "runs" / "live.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    started = time.monotonic()
    done = watch(tmp_path, "--timeout", "0.5")
    elapsed = time.monotonic() - started
    assert elapsed < 0.5 + 10, elapsed  # the limit plus interpreter start-up, never a hang
    assert (done.returncode, done.stderr) == (0, "")
    first, second = rows(tmp_path)
    assert (first["metadata"]["source"], first["verdict"]) == ("runs/live.jsonl:1", "failed")
    assert first["error"] == (
        "TimeLimitExceeded: the case passed its time limit of 0.5s while running check "
        "'matches:reply'"
    )
    assert (second["metadata"]["source"], second["verdict"]) == ("runs/live.jsonl:2", "passed")
    assert second["error"] is None


JUDGE_MODULE = """\
import time
from agent_asserts.judges import JudgeResponse

def hangs(request):
    if "hang" in request.criterion:
        time.sleep(60)
    return JudgeResponse(score=1.0, passed=True, explanation="fine")
"""


def test_a_judge_past_judge_timeout_is_an_evaluator_error_and_the_watch_goes_on(
    tmp_path: Path,
) -> None:
    (tmp_path / "hostile_judge.py").write_text(JUDGE_MODULE)
    (tmp_path / "suite.yaml").write_text(
        "cases: [{name: stuck, checks: [{judge: {criterion: please hang}}]},\n"
        "        {name: judged, checks: [{judge: {criterion: polite}}]}]\n"
    )
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "a.jsonl").write_text('{"events": [], "reply": "hello"}\n')
    started = time.monotonic()
    done = watch(tmp_path, "--judge", "hostile_judge:hangs", "--judge-timeout", "0.3")
    assert time.monotonic() - started < 0.3 + 10
    assert (done.returncode, done.stderr) == (0, "")
    stuck, judged = rows(tmp_path)
    assert stuck["verdict"] == "failed"
    [result] = stuck["results"]
    assert (result["status"], result["severity"]) == ("evaluator_error", "gate")
    assert result["message"] == (
        "the judge raised JudgeTimeout: the judge did not answer within 0.3s"
    )
    assert judged["verdict"] == "passed"


@pytest.mark.parametrize("command", ["check", "watch"])
@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--timeout", "-1", "argument --timeout: must be a number of seconds >= 0 (got '-1')"),
        ("--timeout", "soon", "argument --timeout: not a number of seconds: 'soon'"),
        ("--timeout", "inf", "argument --timeout: must be a number of seconds >= 0 (got 'inf')"),
        ("--judge-timeout", "nan",
         "argument --judge-timeout: must be a number of seconds >= 0 (got 'nan')"),
    ],
)  # fmt: skip
def test_bad_time_limits_are_refused_by_check_and_watch(
    command: str, option: str, value: str, message: str, tmp_path: Path, capsys: Any
) -> None:
    where = ["--record-dir", str(tmp_path)] if command == "watch" else []
    with pytest.raises(SystemExit) as exc:
        main([command, str(tmp_path / "suite.yaml"), *where, option, value])
    assert exc.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == f"agent-asserts {command}: error: {message}"


def test_a_judge_that_cannot_be_imported_exits_2_before_watching(tmp_path: Path) -> None:
    (tmp_path / "suite.yaml").write_text("cases: [{name: ok, checks: [succeeded]}]\n")
    (tmp_path / "runs").mkdir()
    done = watch(tmp_path, "--judge", "os:sep")
    assert done.returncode == 2
    assert done.stderr == "error: --judge os:sep: 'sep' of os is not callable (got str)\n"
    assert not (tmp_path / "out.jsonl").exists()


@pytest.mark.parametrize("command", ["check", "watch"])
def test_check_and_watch_share_the_defaults(command: str) -> None:
    from agent_asserts.cli import build_parser

    where = ["--record-dir", "runs"] if command == "watch" else []
    args = build_parser().parse_args([command, "suite.yaml", *where])
    assert (args.timeout, args.judge_timeout, args.judge) == (60.0, None, None)
