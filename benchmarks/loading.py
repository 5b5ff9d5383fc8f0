"""Loading benchmark: records against ``json.loads``, suites against PyYAML's C loader.

Record (``record_dict``: a refund conversation of 32 events spread through filler events of other
kinds, 100,000 events in all, written to a file):

* time: ``TrialRecord.load(path)`` vs reading the same file and ``json.loads`` of its text with
  the standard library, side by side (CPU time, medians). Target ≤ 2×. ``load`` stays strict:
  duplicate keys, ``NaN`` and huge integers are still rejected with their paths (checked here
  before timing).
* for information (no target): ``TrialRecord.from_dict`` of the parsed data vs ``json.loads`` of
  the text.
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

from agent_asserts import RecordError, TrialRecord

FILLER_KINDS = ("step", "ui_event", "artifact")


def core_events() -> list[dict[str, Any]]:
    """The matching events: the same at every size."""
    ev: list[dict[str, Any]] = [
        {"kind": "message", "actor_ref": "user", "payload": {"text": "refund A1049"}},
        {"kind": "skill", "event_type": "activated", "payload": {"skill_id": "refund"}},
        {
            "kind": "ordered_block",
            "event_type": "entered",
            "payload": {"skill_id": "refund", "block_id": "main"},
        },
    ]
    for i in range(20):
        ev.append(
            {
                "kind": "tool_call",
                "payload": {
                    "name": "refunds_lookup",
                    "arguments": {"orderId": f"A{1040 + i}", "items": [{"sku": "S1", "qty": 1}]},
                    "result": {"refundable": True},
                },
            }
        )
    ev += [
        {
            "kind": "memory",
            "event_type": "set",
            "payload": {"name": "refund.order_id", "value": "A1049"},
        },
        {"kind": "memory", "event_type": "clear", "payload": {"name": "refund.draft_id"}},
        {"kind": "delegation", "event_type": "completed", "payload": {"subagent": "researcher"}},
        {"kind": "message", "actor_ref": "agent", "payload": {"text": "Shall I refund A1049?"}},
        {"kind": "message", "actor_ref": "user", "payload": {"text": "yes"}},
        {
            "kind": "tool_call",
            "payload": {"name": "refunds_issue", "arguments": {"orderId": "A1049", "amount": 42}},
        },
        {
            "kind": "mutation",
            "operation_ref": "op-7",
            "actor_ref": "agent",
            "entity_refs": ["order:A1049"],
            "status": "succeeded",
            "monotonic_time": 10.0,
            "payload": {},
        },
        {
            "kind": "audit",
            "operation_ref": "op-7",
            "actor_ref": "agent",
            "entity_refs": ["order:A1049"],
            "monotonic_time": 11.0,
            "payload": {"text": "refund"},
        },
        {"kind": "message", "actor_ref": "agent", "payload": {"text": "Refund issued for A1049"}},
    ]
    return ev


def record_dict(size: int) -> dict[str, Any]:
    """A record of ``size`` events: the core spread evenly through filler events."""
    core = core_events()
    filler = size - len(core)
    step = max(1, filler // (len(core) + 1))
    events: list[dict[str, Any]] = []
    f = 0
    for event in core:
        for _ in range(step):
            if f < filler:
                events.append({"kind": FILLER_KINDS[f % 3], "payload": {"i": f}})
                f += 1
        events.append(event)
    while f < filler:
        events.append({"kind": FILLER_KINDS[f % 3], "payload": {"i": f}})
        f += 1
    return {
        "initial_state": {"orders": {"A1049": {"status": "paid"}}},
        "final_state": {"orders": {"A1049": {"status": "refunded"}}},
        "status": "completed",
        "steps": 12,
        "usage": {"input_tokens": 900, "output_tokens": 120},
        "events": events,
    }


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
