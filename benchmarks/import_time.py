"""Import benchmark: the top-level import and the first fluent call, in fresh subprocesses.

Each of 10 fresh interpreters (``python -c``) times, with ``time.perf_counter`` inside the child,
``from agent_asserts import EvalContext, M, on, run_case, TrialRecord`` and then the first
``ctx.called_tool(...)`` on a small record (what a test pays the first time it asserts).
Interpreter start-up is not included. Figures are medians of the 10 runs.

The children run with the library's bytecode cached, as in an installed package (``pip install``
compiles it): ``PYTHONDONTWRITEBYTECODE`` is removed from their environment, so the warm-up run
writes the ``.pyc`` files. With it set (as in some shells and CI images) every child would
compile the sources again, which roughly doubles the import time.

Targets: import ≤ 150 ms; the first ``ctx.called_tool`` ≤ 50 ms more.

Usage: ``python benchmarks/import_time.py [--runs 10]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import Targets, fmt

CHILD = """
import json, time
t0, c0 = time.perf_counter(), time.process_time()
from agent_asserts import EvalContext, M, on, run_case, TrialRecord
t1, c1 = time.perf_counter(), time.process_time()
record = TrialRecord.from_dict({"events": [
    {"kind": "tool_call", "payload": {"name": "refunds_issue", "arguments": {"orderId": "A1049"}}}
]})
ctx = EvalContext(record)
ctx.called_tool("refunds_issue", arguments={"orderId": "A1049"})
t2 = time.perf_counter()
print(json.dumps([t1 - t0, t2 - t1, c1 - c0]))
"""


def one_run() -> tuple[float, float, float]:
    """(import seconds, first-call seconds, import CPU seconds) in a fresh interpreter."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    out = subprocess.run(
        [sys.executable, "-c", CHILD],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    ).stdout
    imported, first_call, cpu = json.loads(out.strip().splitlines()[-1])
    return imported, first_call, cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args(argv)
    one_run()  # warm the file-system cache and the .pyc files
    runs = [one_run() for _ in range(args.runs)]
    imported = statistics.median(r[0] for r in runs)
    first_call = statistics.median(r[1] for r in runs)
    cpu = statistics.median(r[2] for r in runs)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"== import and first call, fresh interpreters, median of {args.runs}")
    print(f"  import CPU time {fmt(cpu)} (wall time waits for the CPU on a busy machine;")
    print(f"  load average {load:.2f} on {os.cpu_count()} cores — the targets are for an idle one)")
    targets = Targets()
    targets.check(
        "import", imported <= 0.150, f"{fmt(imported)} (target ≤ 150 ms, {imported / 0.150:.2f}×)"
    )
    targets.check(
        "first ctx.called_tool",
        first_call <= 0.050,
        f"{fmt(first_call)} more (target ≤ 50 ms, {first_call / 0.050:.2f}×)",
    )
    return targets.exit_code()


if __name__ == "__main__":
    raise SystemExit(main())
