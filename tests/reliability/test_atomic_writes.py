"""Finding 2: a report rewritten when the disk refuses bytes is never left truncated."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from agent_asserts import TrialRecord, evaluate_many
from agent_asserts._files import write_atomic
from agent_asserts.report import write_report
from agent_asserts.results import CaseResult


def _project(tmp_path: Path) -> None:
    (tmp_path / "suite.yaml").write_text("record: run.json\nchecks: [used_no_tools]\n")
    (tmp_path / "run.json").write_text(json.dumps({"events": [], "reply": "x" * 170_000}))


def _small_file_limit(ignore_signal: bool) -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (8 * 1024, 8 * 1024))  # ulimit -f 8
    if ignore_signal:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


@pytest.mark.parametrize("ignore_signal", [False, True])
def test_a_refused_rewrite_leaves_the_previous_report_whole(
    tmp_path: Path, ignore_signal: bool
) -> None:
    _project(tmp_path)
    command = [sys.executable, "-m", "agent_asserts", "check", "suite.yaml",
               "--output", "report.json", "--embed-records"]  # fmt: skip
    first = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert first.returncode == 0, first.stderr
    before = (tmp_path / "report.json").read_bytes()
    assert len(before) > 170_000
    second = subprocess.run(
        command, cwd=tmp_path, capture_output=True, text=True, timeout=60,
        preexec_fn=lambda: _small_file_limit(ignore_signal),
    )  # fmt: skip
    assert second.returncode != 0
    assert (tmp_path / "report.json").read_bytes() == before  # old file, whole
    json.loads(before)
    if ignore_signal:  # the write failed with EFBIG: reported, and no temporary file is left
        assert "error: cannot write the report to report.json: File too large" in second.stderr
        assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json", "run.json",
                                                              "suite.yaml"]  # fmt: skip


def test_a_failing_write_keeps_the_target_and_removes_the_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "r.md"
    target.write_text("old")

    def refuse(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", refuse)
    with pytest.raises(OSError, match="No space left"):
        write_report(target, [CaseResult("a", "passed")])
    with pytest.raises(OSError, match="No space left"):
        evaluate_many([TrialRecord.builder().build()], lambda ctx: None).write(target)
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["r.md"]


def test_a_new_file_gets_ordinary_permissions_and_a_replaced_one_keeps_its_own(
    tmp_path: Path,
) -> None:
    fresh = write_atomic(tmp_path / "a.txt", "x")
    umask = os.umask(0)
    os.umask(umask)
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~umask
    os.chmod(fresh, 0o600)
    write_atomic(fresh, "y")
    assert (fresh.stat().st_mode & 0o777, fresh.read_text()) == (0o600, "y")
