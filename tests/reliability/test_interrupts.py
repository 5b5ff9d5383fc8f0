"""Finding 7: Ctrl-C during ``check`` stops cleanly: exit 130, the finished cases reported."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

import agent_asserts

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


# -- Ctrl-C from the first instruction (issue #25, item 14) ----------------------------------------

INTERRUPT_DURING_IMPORT = """
import os, signal, sys

class SignalOnImport:  # Ctrl-C while the command's modules are being imported
    def find_spec(self, name, path=None, target=None):
        if name == {module!r}:
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, SignalOnImport())
from agent_asserts.__main__ import run
sys.exit(run(["check", "suite.yaml"]))
"""


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(Path(agent_asserts.__file__).parents[1])}


@pytest.mark.parametrize(
    "module",
    ["agent_asserts.cli", "agent_asserts.report", "agent_asserts.cli.check",
     "agent_asserts.loaders", "agent_asserts.checks"],
)  # fmt: skip
def test_ctrl_c_while_the_command_is_imported_exits_130(tmp_path: Path, module: str) -> None:
    _project(tmp_path)
    code = INTERRUPT_DURING_IMPORT.format(module=module)
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=_env(),
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1] in (
        "interrupted: agent-asserts stopped",  # before the command's parser ran
        "interrupted: agent-asserts check stopped",
        "interrupted: 0 cases finished",
    )


def test_the_console_script_and_python_m_run_the_same_entry() -> None:
    pyproject = Path(agent_asserts.__file__).parents[1] / "pyproject.toml"
    scripts = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts["agent-asserts"] == "agent_asserts.__main__:run"
    main_module = Path(agent_asserts.__file__).with_name("__main__.py").read_text()
    assert "sys.exit(run())" in main_module


def test_ctrl_c_at_any_moment_exits_130_or_finishes(tmp_path: Path) -> None:
    _project(tmp_path)
    (tmp_path / "quick.yaml").write_text("record: run.json\nchecks: [used_no_tools]\n")
    codes = []
    for delay in (0.0, 0.05, 0.1, 0.2, 0.4, 0.8):  # once run() is importing the command
        process = subprocess.Popen(
            [sys.executable, "-X", "importtime", "-m", "agent_asserts", "check", "quick.yaml"],
            cwd=tmp_path, env=_env(), text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        assert process.stderr is not None
        for line in process.stderr:  # -X importtime: a line as each import ends; argparse is
            if line.split("|")[-1].strip() == "argparse":  # the first import of run()'s command
                break
        time.sleep(delay)
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=60)
        assert "Traceback" not in stderr, stderr[-500:]
        codes.append(process.returncode)
    assert set(codes) <= {0, 130}, codes  # finished before the signal, or stopped cleanly
    assert 130 in codes


_INTERRUPTED_WHILE_IMPORTING = """
import importlib
import sys
import agent_asserts.__main__ as entry

cli = importlib.import_module("agent_asserts.cli")

def interrupted(argv):  # Ctrl-C before the command's own handling took over
    print("started", flush=False)  # buffered output is flushed before the process ends
    raise KeyboardInterrupt

cli.main = interrupted
sys.exit(entry.run())
print("not reached")
"""


def test_ctrl_c_before_the_command_handles_it_ends_the_process_with_130(tmp_path: Path) -> None:
    script = tmp_path / "interrupted.py"
    script.write_text(_INTERRUPTED_WHILE_IMPORTING)
    done = subprocess.run(
        [sys.executable, str(script)], env=_env(), capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stdout, done.stderr) == (
        130,
        "started\n",
        "interrupted: agent-asserts stopped\n",
    )
