"""Run every benchmark in this folder and report which targets were met.

Discovery (the convention every benchmark follows, see README.md): each ``benchmarks/*.py`` whose
name does not start with ``_`` (helpers such as ``_harness.py``) and is not this script is a
benchmark. It runs as ``python benchmarks/NAME.py`` from the repository root with no arguments
(its defaults are the sizes its targets are stated for), prints its figures and the ratio against
each target, and exits 0 when every target was met, non-zero when one was missed.

Each script runs in its own interpreter, one after the other (the machine has 2 cores; running
them side by side would make them measure each other). The summary lists every script with its
exit status and wall time, and repeats the lines of missed targets (lines containing
``MISSED``). The exit status is 0 only when every script exited 0. ``end_to_end.py``, the
performance contract, runs with a longer timeout (``TIMEOUTS``).

Usage: ``python benchmarks/run_all.py [--only a,b] [--skip c] [--timeout SECONDS]``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# Scripts whose full size takes longer than the default per-script timeout (seconds):
# end_to_end.py is the performance contract (the CI job with its peers, 100,000 runs at scale,
# growth to 10,000 calls, cold start), about 40 minutes on a 2-core machine.
TIMEOUTS = {"end_to_end": 7200.0}


def discover(folder: Path = HERE) -> list[Path]:
    """The benchmark scripts of ``folder``, by name."""
    return sorted(
        p for p in folder.glob("*.py") if not p.name.startswith("_") and p.name != "run_all.py"
    )


def run_one(script: Path, timeout: float) -> tuple[int, float, list[str]]:
    """Run ``script``, streaming its output; (exit status, wall seconds, missed-target lines)."""
    start = time.perf_counter()
    missed: list[str] = []
    with subprocess.Popen(
        [sys.executable, str(script)],
        cwd=HERE.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    ) as proc:
        assert proc.stdout is not None
        try:
            for line in proc.stdout:
                print(line, end="", flush=True)
                if "MISSED" in line:
                    missed.append(line.strip())
                if time.perf_counter() - start > timeout:
                    proc.kill()
                    missed.append(f"timed out after {timeout:.0f} s")
                    break
        finally:
            code = proc.wait()
    return code, time.perf_counter() - start, missed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="comma-separated script names to run")
    parser.add_argument("--skip", default="", help="comma-separated script names to leave out")
    parser.add_argument("--timeout", type=float, default=1800.0, help="per script, seconds")
    args = parser.parse_args(argv)
    only = {n.removesuffix(".py") for n in args.only.split(",") if n}
    skip = {n.removesuffix(".py") for n in args.skip.split(",") if n}
    scripts = [s for s in discover() if (not only or s.stem in only) and s.stem not in skip]
    summary: list[tuple[str, int, float, list[str]]] = []
    for script in scripts:
        print(f"\n##### {script.name}", flush=True)
        code, seconds, missed = run_one(script, max(args.timeout, TIMEOUTS.get(script.stem, 0.0)))
        summary.append((script.name, code, seconds, missed))
    print("\n##### summary")
    for name, code, seconds, missed in summary:
        state = "met" if code == 0 else f"MISSED (exit {code})"
        print(f"  {name:32} {state:18} {seconds:8.1f} s")
        for line in missed:
            print(f"      {line}")
    failed = [name for name, code, _, _ in summary if code != 0]
    print(f"\n{len(summary) - len(failed)} of {len(summary)} benchmarks met every target")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
