"""Loading benchmark: records against ``json.loads``, suites against PyYAML's C loader.

Record (the foundation benchmark's record of 100,000 events, written to a file):

* time: ``TrialRecord.load(path)`` vs reading the same file and ``json.loads`` of its text with
  the standard library, side by side (CPU time, medians). Target ≤ 2×. ``load`` stays strict:
  duplicate keys, ``NaN`` and huge integers are still rejected with their paths (checked here
  before timing).
* for information (no target): ``TrialRecord.load(path)`` followed by the first full read of
  ``record.events`` (the load builds no ``Event``: it checks the events and keeps the parsed
  objects; the first read builds them, see ``agent_asserts.record._lazy_events``), against the
  same read + ``json.loads``; and ``TrialRecord.from_dict`` of the parsed data vs
  ``json.loads`` of the text.
* memory retained: the bytes ``tracemalloc`` sees held by the loaded record vs by the
  ``json.loads`` objects of the same file. Target ≤ 1.5×.

Suite (a native suite file of N cases, 3 checks each): ``agent_asserts.loaders.load(path)``
vs ``yaml.load(text, Loader=yaml.CSafeLoader)`` of the same file, side by side. Target ≤ 3×,
at 1,000 and 100,000 cases.

Usage: ``python benchmarks/loading.py [--events 100000] [--cases 1000,100000]``.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import Targets, fmt, side_by_side
from foundation import record_dict

from agent_asserts import RecordError, TrialRecord


def retained(make: Any) -> int:
    """Bytes still allocated after ``make()`` returns, while its result is alive."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = make()
        gc.collect()
        size = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    del kept
    return size


def read_events(record: TrialRecord) -> TrialRecord:
    """The record, its events read (built, for a record loaded lazily)."""
    _ = record.events
    return record


def still_strict(folder: Path) -> None:
    """Duplicate keys, NaN and a huge integer are RecordErrors naming their path."""
    bad = {
        "dup": '{"events": [], "steps": 1, "steps": 2}',
        "nan": '{"events": [{"kind": "step", "payload": {"x": NaN}}]}',
        "huge": '{"events": [], "steps": ' + "9" * 5000 + "}",
    }
    for name, text in bad.items():
        path = folder / f"{name}.json"
        path.write_text(text)
        try:
            TrialRecord.load(path)
        except RecordError as exc:
            print(f"  strict: {name}: {' | '.join(str(exc).splitlines())[:110]}")
        else:
            raise AssertionError(f"{name}: TrialRecord.load accepted it")


def suite_text(cases: int) -> str:
    lines = ["name: many", "cases:"]
    for i in range(cases):
        lines += [
            f"  - name: case {i}",
            "    checks:",
            f"      - called_tool: {{name: lookup, arguments: {{id: A{i}}}}}",
            "      - not_called_tool: cancel",
            "      - max_tool_calls: 5",
        ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--cases", default="1000,100000")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    targets = Targets()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        still_strict(folder)
        path = folder / "record.json"
        path.write_text(json.dumps(record_dict(args.events)))
        print(f"\n== record of {args.events:,} events ({path.stat().st_size / 1e6:.1f} MB)")
        ours, theirs = side_by_side(
            [lambda: TrialRecord.load(path), lambda: json.loads(path.read_text())],
            rounds=args.rounds,
            budget=0.0,
        )
        ratio = ours / theirs
        print(f"  TrialRecord.load {fmt(ours)}   json.loads {fmt(theirs)}")
        targets.check("record load time", ratio <= 2, f"{ratio:.2f}× json.loads (target ≤ 2×)")
        read, parsed = side_by_side(
            [lambda: TrialRecord.load(path).events, lambda: json.loads(path.read_text())],
            rounds=args.rounds,
            budget=0.0,
        )
        print(
            f"  (no target) TrialRecord.load + first full read of events {fmt(read)}, "
            f"json.loads {fmt(parsed)}: {read / parsed:.2f}×"
        )
        data = json.loads(path.read_text())
        text = path.read_text()
        decoded, parsed = side_by_side(
            [lambda: TrialRecord.from_dict(data), lambda: json.loads(text)],
            rounds=args.rounds,
            budget=0.0,
        )
        print(
            f"  (no target) TrialRecord.from_dict of the parsed data {fmt(decoded)}, "
            f"json.loads of the text {fmt(parsed)}: {decoded / parsed:.2f}×"
        )
        ours_b = retained(lambda: TrialRecord.load(path))
        theirs_b = retained(lambda: json.loads(path.read_text()))
        ratio = ours_b / theirs_b
        print(
            f"  retained: record {ours_b / 1e6:.1f} MB ({ours_b / args.events:.0f} B/event), "
            f"json.loads {theirs_b / 1e6:.1f} MB ({theirs_b / args.events:.0f} B/event)"
        )
        targets.check("record memory", ratio <= 1.5, f"{ratio:.2f}× json.loads (target ≤ 1.5×)")
        read_b = retained(lambda: read_events(TrialRecord.load(path)))
        print(
            f"  (no target) retained once the events are read: {read_b / 1e6:.1f} MB "
            f"({read_b / args.events:.0f} B/event), {read_b / theirs_b:.2f}× json.loads"
        )

        try:
            import yaml
        except ImportError:
            print("\n(PyYAML not installed: the suite comparison needs the yaml extra)")
            return targets.exit_code()
        from agent_asserts.loaders import load

        for cases in (int(c) for c in args.cases.split(",")):
            suite_path = folder / f"suite{cases}.yaml"
            suite_path.write_text(suite_text(cases))
            rounds = args.rounds if cases <= 10_000 else 1
            print(f"\n== native suite of {cases:,} cases, 3 checks each ({rounds} rounds)")
            t0 = time.perf_counter()
            try:
                load(suite_path)
            except Exception as exc:  # report it as a missed target, keep the other figures
                first = str(exc).splitlines()[0][-100:]
                targets.check(f"suite load, {cases:,} cases", False, f"load failed: {first}")
                continue
            ours, theirs = side_by_side(
                [
                    lambda p=suite_path: load(p),
                    lambda p=suite_path: yaml.load(p.read_text(), Loader=yaml.CSafeLoader),
                ],
                rounds=rounds,
                budget=0.0,
            )
            ratio = ours / theirs
            print(f"  loaders.load {fmt(ours)}   yaml CSafeLoader {fmt(theirs)}")
            print(f"  (measured in {time.perf_counter() - t0:.0f} s)")
            targets.check(
                f"suite load, {cases:,} cases", ratio <= 3, f"{ratio:.2f}× PyYAML C (target ≤ 3×)"
            )
    return targets.exit_code()


if __name__ == "__main__":
    raise SystemExit(main())
