"""LangChain agentevals' trajectory match, run in its own environment for a side-by-side ratio.

agentevals (and the LangChain packages it needs) is not a dependency of agent_asserts, so it
is installed in a virtual environment of its own under the temporary directory
(``agent_asserts-bench/agentevals-venv``, kept for later runs), with ``pip install
agentevals``. When that fails (no package index reachable, no ``venv`` module),
:func:`agentevals_python` returns None and the reason, and the benchmark reports our figures
alone.

The child (:data:`CHILD`, run by that environment's Python) builds the same tool calls as
:func:`trajectory_match.build` as OpenAI chat messages (one assistant message per call, its
arguments as JSON text, which is what agentevals reads) and times
``create_trajectory_match_evaluator(trajectory_match_mode=MODE, tool_args_match_mode="exact")``
on them with the same calls as the reference: CPU time, the garbage collector paused, as
``_best`` in ``trajectory_match.py`` does. It prints one JSON object: mode → [seconds, score].
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

VENV = Path(tempfile.gettempdir()) / "agent_asserts-bench" / "agentevals-venv"
INSTALL_TIMEOUT = 600.0  # seconds for pip to install agentevals and its dependencies

CHILD = r"""
import gc, json, sys, time
from agentevals.trajectory.match import create_trajectory_match_evaluator

n, modes = int(sys.argv[1]), sys.argv[2].split(",")
messages = []
for i in range(n):
    name = f"tool_{i % 20}"
    arguments = {"i": i, "query": f"q{i % 97}", "flags": [i % 2 == 0, None]}
    messages.append({"role": "assistant", "content": "", "tool_calls": [{
        "id": f"c{i}", "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments)},
    }]})
out = {}
for mode in modes:
    evaluator = create_trajectory_match_evaluator(
        trajectory_match_mode=mode, tool_args_match_mode="exact"
    )
    gc.collect()
    gc.disable()
    t0 = time.process_time()
    result = evaluator(outputs=messages, reference_outputs=messages)
    seconds = time.process_time() - t0
    gc.enable()
    out[mode] = [seconds, result["score"]]
print(json.dumps(out))
"""


def _python(env_dir: Path) -> Path:
    return env_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _has_agentevals(python: Path) -> bool:
    if not python.exists():
        return False
    probe = subprocess.run(
        [str(python), "-c", "import agentevals.trajectory.match"],
        capture_output=True,
        check=False,
    )
    return probe.returncode == 0


def agentevals_python(env_dir: Path = VENV) -> tuple[Path | None, str]:
    """(the Python of an environment that has agentevals, "") or (None, why not).

    Creates the environment and installs agentevals on first use; later runs reuse it.
    """
    python = _python(env_dir)
    if _has_agentevals(python):
        return python, ""
    try:
        if not python.exists():
            env_dir.parent.mkdir(parents=True, exist_ok=True)
            venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
        install = subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", "agentevals"],
            capture_output=True,
            text=True,
            timeout=INSTALL_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return None, f"could not create its environment in {env_dir}: {exc}"
    if install.returncode != 0 or not _has_agentevals(python):
        lines = (install.stderr or install.stdout).strip().splitlines()
        last = [line for line in lines if not line.startswith("WARNING")][-1:] or ["(no output)"]
        return None, f"pip install agentevals failed (exit {install.returncode}): {last[0]}"
    return python, ""


def time_agentevals(python: Path, n: int, modes: tuple[str, ...]) -> dict[str, tuple[float, bool]]:
    """CPU seconds of one agentevals trajectory match per mode on ``n`` calls, and its score."""
    done = subprocess.run(
        [str(python), "-c", CHILD, str(n), ",".join(modes)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "LANGSMITH_TRACING": "false"},
    )
    data = json.loads(done.stdout.strip().splitlines()[-1])
    return {mode: (float(seconds), bool(score)) for mode, (seconds, score) in data.items()}


if __name__ == "__main__":  # python benchmarks/_agentevals.py: install and time 1,000 calls
    found, why = agentevals_python()
    print(found or why)
    if found is not None:
        print(time_agentevals(found, int(sys.argv[1]) if len(sys.argv) > 1 else 1000, ("subset",)))
