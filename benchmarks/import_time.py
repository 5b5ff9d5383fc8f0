"""Import benchmark: the top-level import and the first fluent call, in fresh subprocesses.

Each of 10 fresh interpreters (``python -c``) times, with ``time.perf_counter`` inside the child,
``from agent_asserts import EvalContext, M, on, run_case, TrialRecord`` and then the first
``ctx.called_tool(...)`` on a small record (what a test pays the first time it asserts).
Interpreter start-up is not included. Figures are medians of the 10 runs.

Targets: import ≤ 150 ms; the first ``ctx.called_tool`` ≤ 50 ms more.

Usage: ``python benchmarks/import_time.py [--runs 10]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import Targets, fmt

CHILD = """
import json, time
t0 = time.perf_counter()
from agent_asserts import EvalContext, M, on, run_case, TrialRecord
t1 = time.perf_counter()
record = TrialRecord.from_dict({"events": [
    {"kind": "tool_call", "payload": {"name": "refunds_issue", "arguments": {"orderId": "A1049"}}}
]})
ctx = EvalContext(record)
ctx.called_tool("refunds_issue", arguments={"orderId": "A1049"})
t2 = time.perf_counter()
print(json.dumps([t1 - t0, t2 - t1]))
"""


def one_run() -> tuple[float, float]:
    """(import seconds, first-call seconds) measured in a fresh interpreter."""
    out = subprocess.run(
        [sys.executable, "-c", CHILD],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    imported, first_call = json.loads(out.strip().splitlines()[-1])
    return imported, first_call


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args(argv)
    one_run()  # warm the file-system cache and the .pyc files
    runs = [one_run() for _ in range(args.runs)]
    imported = statistics.median(r[0] for r in runs)
    first_call = statistics.median(r[1] for r in runs)
    print(f"== import and first call, fresh interpreters, median of {args.runs}")
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
