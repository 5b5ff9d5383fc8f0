"""docs/from-traces.md runs as written: every ``$`` command of its ``console`` blocks is run in
order, in a fresh folder, and prints exactly the output the tutorial shows."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TUTORIAL = ROOT / "docs" / "from-traces.md"
BLOCK = re.compile(r"```console\n(.*?)```", re.S)


def steps(text: str) -> list[tuple[str, str]]:
    """The tutorial's commands (a ``$`` line and its ``>`` continuation lines) with the output
    shown under each."""
    out: list[tuple[str, list[str]]] = []
    for block in BLOCK.findall(text):
        for line in block.splitlines():
            if line.startswith("$ "):
                out.append((line[2:], []))
            elif line.startswith("> ") and out and not out[-1][1]:
                out[-1] = (f"{out[-1][0]}\n{line[2:]}", [])
            elif out:
                out[-1][1].append(line)
    return [(command, "\n".join(lines).strip("\n")) for command, lines in out]


def run_all(workdir: Path) -> list[tuple[str, str, str]]:
    """Run every command in ``workdir``; (command, shown output, actual output)."""
    (workdir / "docs" / "examples").mkdir(parents=True)
    shutil.copy(ROOT / "docs/examples/tutorial_runs.py", workdir / "docs/examples")
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": str(ROOT),
        "COLUMNS": "100",
        "NO_COLOR": "1",
    }
    results = []
    for command, shown in steps(TUTORIAL.read_text(encoding="utf-8")):
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=workdir,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        results.append((command, shown, (done.stdout + done.stderr).strip("\n")))
    return results


def test_the_tutorial_has_its_five_steps() -> None:
    commands = [command for command, _ in steps(TUTORIAL.read_text(encoding="utf-8"))]
    for word in ("scan", "infer", "check", "compare"):
        assert any(f"agent-asserts {word}" in c for c in commands), word


def test_every_command_prints_what_the_tutorial_shows(tmp_path: Path) -> None:
    for command, shown, actual in run_all(tmp_path):
        assert actual == shown, f"$ {command}"


if __name__ == "__main__":  # print the actual outputs (to update the tutorial after a change)
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        for command, _, actual in run_all(Path(folder)):
            print(f"$ {command}\n{actual}\n")
