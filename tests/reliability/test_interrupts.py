"""Finding 7: Ctrl-C during ``check`` stops cleanly: exit 130, the finished cases reported."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

SLOW_JUDGE = """
import time

from agent_asserts.judges import JudgeResponse

def judge(request):
    if "slow" in request.criterion:
        print("judging", flush=True)
        time.sleep(60)
    return JudgeResponse(1.0)
"""


def _project(tmp_path: Path) -> None:
    (tmp_path / "slowjudge.py").write_text(SLOW_JUDGE)
    (tmp_path / "run.json").write_text(json.dumps({"events": [], "reply": "hi"}))
    (tmp_path / "suite.yaml").write_text(
        "record: run.json\ncases:\n"
        "  - {name: first, checks: [used_no_tools]}\n"
        "  - {name: second, checks: [used_no_tools]}\n"
        "  - {name: stuck, checks: [{judge: slow}]}\n"
        "  - {name: never, checks: [used_no_tools]}\n"
    )


@pytest.mark.parametrize("output", [True, False])
def test_ctrl_c_reports_the_finished_cases_and_exits_130(tmp_path: Path, output: bool) -> None:
    _project(tmp_path)
    command = [sys.executable, "-u", "-m", "agent_asserts", "check", "suite.yaml",
               "--judge", "slowjudge:judge", "--format", "json"]  # fmt: skip
    if output:
        command += ["--output", "report.json"]
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    process = subprocess.Popen(command, cwd=tmp_path, env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    assert process.stdout is not None
    assert process.stdout.readline() == "judging\n"  # the third case is running
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=30)
    assert process.returncode == 130, (stdout, stderr)
    assert "Traceback" not in stderr, (stdout[:300], stderr[-300:])
    assert stderr.splitlines() == [
        "interrupted: 2 cases finished" + (", report written to report.json" if output else "")
    ]
    text = (tmp_path / "report.json").read_text() if output else stdout
    report = json.loads(text)
    assert report["title"] == "interrupted (Ctrl-C): only the cases that finished are reported"
    assert [c["name"] for c in report["cases"]] == ["first", "second"]
