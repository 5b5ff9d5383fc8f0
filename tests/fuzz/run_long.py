"""The fuzz properties of ``tests/fuzz``, run long: ``python tests/fuzz/run_long.py [N]``.

Every ``PROPERTIES`` entry of the ``test_fuzz_*`` modules — ``(name, strategy of argument
tuples, body)`` — runs ``N`` examples (default 5,000). A crash is any exception the body lets
out (the bodies let out only what is not documented); each is counted, not shrunk, so a long
run goes on after one. Prints the examples and crashes per property and the distinct crash
sites, and exits non-zero when any crashed. ``--samples DIR`` adds a folder of trace files to
the adapters' seeds (e.g. ``~/traces/samples``); ``--only TEXT`` runs the
properties whose name contains it. The last recorded run is in docs/reliability.md.
"""

from __future__ import annotations

import argparse
import collections
import importlib
import os
import reprlib
import sys
import time
import traceback
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings

HERE = Path(__file__).resolve().parent
MODULES = ["test_fuzz_inputs", "test_fuzz_loaders", "test_fuzz_matchers", "test_fuzz_adapters",
           "test_fuzz_roundtrips", "test_fuzz_reports", "test_fuzz_objects"]  # fmt: skip


_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxstring, _SHORT.maxother = 8, 60, 60


def _site(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if "agent_asserts" in f.filename] or frames
    last = ours[-1]
    return f"{type(exc).__name__} at {last.filename.rsplit('agent_asserts/', 1)[-1]}:{last.lineno}"


def run(name: str, strategy: Any, body: Any, examples: int) -> int:
    crashes: collections.Counter[str] = collections.Counter()
    samples: dict[str, str] = {}

    @settings(max_examples=examples, suppress_health_check=list(HealthCheck), deadline=None,
              database=None)  # fmt: skip
    @given(strategy)
    def prop(args: Any) -> None:
        try:
            body(*args)
        except Exception as exc:
            site = _site(exc)
            crashes[site] += 1
            shown = _SHORT.repr(args)  # bounded in depth: an input may be nested 20,000 deep
            samples.setdefault(site, f"{str(exc)[:160]!r} on {shown[:240]}")

    started = time.monotonic()
    prop()
    total = sum(crashes.values())
    print(f"{name}: {examples} examples, {total} crashes ({time.monotonic() - started:.0f} s)")
    for site, count in crashes.most_common(8):
        print(f"  {count} × {site}\n      {samples[site]}")
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("examples", nargs="?", type=int, default=5000)
    parser.add_argument("--samples", action="append", default=[])
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    if args.samples:
        os.environ["AGENT_ASSERTS_FUZZ_SAMPLES"] = os.pathsep.join(args.samples)
    sys.path.insert(0, str(HERE))
    total = 0
    for module_name in MODULES:
        for name, strategy, body in importlib.import_module(module_name).PROPERTIES:
            if args.only in name:
                total += run(name, strategy, body, args.examples)
    print(f"total crashes: {total}")
    return 1 if total else 0


if __name__ == "__main__":
    raise SystemExit(main())
