"""``watch --output`` appends whole lines only, creates the file 0644, and reports a full disk
as the documented error (issue 25: a torn JSON line, a traceback, a file made 0755)."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agent_asserts.cli import main
from agent_asserts.testing import DEMO_RECORD

SUITE = "cases: [{name: ok, checks: [succeeded]}, {name: short, checks: [{max_steps: 1}]}]\n"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "suite.yaml").write_text(SUITE)
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "a.jsonl").write_text("".join(json.dumps(DEMO_RECORD) + "\n" for _ in range(20)))
    return tmp_path


def watch_args(folder: Path, output: str) -> list[str]:
    return ["watch", str(folder / "suite.yaml"), "--record-dir", str(folder / "runs"),
            "--output", output, "--interval", "0", "--max-polls", "1"]  # fmt: skip


def test_the_output_file_is_created_with_mode_0644(folder: Path) -> None:
    out = folder / "out.jsonl"
    umask = os.umask(0o022)
    try:
        assert main(watch_args(folder, str(out))) == 0
    finally:
        os.umask(umask)
    assert oct(out.stat().st_mode & 0o777) == "0o644"
    assert len(out.read_text().splitlines()) == 40


def test_a_full_disk_is_the_documented_error_not_a_traceback(folder: Path, capsys: Any) -> None:
    code = main(watch_args(folder, "/dev/full"))
    err = capsys.readouterr().err
    assert code == 2
    assert err.splitlines() == [
        "error: cannot write --output /dev/full: No space left on device",
        "watch stopped: 1 records, 0 results written",
    ]


def _limit_file_size(size: int) -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


def test_a_write_that_fails_part_way_leaves_no_torn_line(folder: Path) -> None:
    """The file system takes part of a line, then refuses the rest (here a file size limit,
    as a full disk does): the part is cut off again, the file holds whole lines only."""
    out = folder / "out.jsonl"
    whole = main(watch_args(folder, str(folder / "whole.jsonl")))
    line_size = len((folder / "whole.jsonl").read_bytes().splitlines(keepends=True)[0])
    limit = 5 * line_size + line_size // 2  # the sixth line is cut in the middle
    done = subprocess.run(
        [sys.executable, "-m", "agent_asserts", *watch_args(folder, str(out))],
        capture_output=True, text=True, timeout=120,
        preexec_fn=lambda: _limit_file_size(limit),
    )  # fmt: skip
    assert whole == 0
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines()[0] == (f"error: cannot write --output {out}: File too large")
    data = out.read_bytes()
    assert data.endswith(b"\n")
    lines = data.splitlines()
    assert len(lines) == 5
    assert [json.loads(line)["name"] for line in lines] == ["ok", "short"] * 2 + ["ok"]


def test_acting_characters_are_written_as_escapes() -> None:
    # a result line on the terminal never carries a raw line separator, C1 or bidi control
    import io

    from agent_asserts.cli.watch import ResultWriter

    out = io.StringIO()
    writer = ResultWriter(None, out)
    writer.write({"name": "a\u2028b\x85c\u202ed", "text": "\x1b[31mred"})
    writer.close()
    line = out.getvalue()
    assert line == '{"name": "a\\u2028b\\u0085c\\u202ed", "text": "\\u001b[31mred"}\n'
    assert json.loads(line) == {"name": "a\u2028b\x85c\u202ed", "text": "\x1b[31mred"}
