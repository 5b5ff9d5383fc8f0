"""How good is an inferred suite? Measured by mutation (issue #26).

From trusted runs, ``infer`` mines a suite. Then, from each trusted run, mutants are derived —
a call dropped, two dependent calls swapped, one argument value changed, a call to a tool the
runs never use added, the steps doubled — and the suite is evaluated on the trusted runs (it
must pass 100 % of them) and on the mutants (it should fail at least 90 % of them). A mutant
"fails" when a gate check of the suite fails on it.

Two sets of runs: generated customer-support runs (a refund flow with reads in a free order,
ids, amounts, e-mail addresses and templates that vary), and the repository's example runs
(``docs/examples/refund_run.json`` and ``docs/examples/runs/``). A third figure times
``infer`` on 10,000 generated runs in this process (one core).

Usage: ``python benchmarks/infer_mutation.py [--runs 200] [--timing-runs 10000] [--quick]``.
Prints the figures and the per-mutation kill rates; records them in benchmarks/README.md by
hand.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _harness import Targets  # noqa: E402

from agent_asserts import TrialRecord  # noqa: E402
from agent_asserts.mining import MinedSuite, infer  # noqa: E402
from agent_asserts.record.reading import iter_records  # noqa: E402

Data = dict[str, Any]
TOOLS = ("lookup_order", "lookup_customer", "check_policy", "issue_refund", "send_email")
NEVER_USED = "delete_account"


def trusted_run(n: int) -> Data:
    """One trusted run as native record data, deterministic for ``n``."""
    rng = random.Random(n)
    order = f"A{rng.randint(1000, 9999)}"
    email = f"{rng.choice(['ann', 'bob', 'cy', 'dee'])}{n}@{rng.choice(['shop.io', 'mail.com'])}"
    amount = round(rng.uniform(5, 300), 2)
    reads: list[tuple[str, Data]] = [
        ("lookup_order", {"order_id": order}),
        ("lookup_customer", {"email": email}),
        ("check_policy", {"order_id": order, "reason": rng.choice(["damaged", "late", "wrong"])}),
    ]
    rng.shuffle(reads)  # the reads come in any order
    if rng.random() < 0.2:  # a retried read
        reads.insert(rng.randrange(len(reads) + 1), ("lookup_order", {"order_id": order}))
    calls: list[tuple[str, Data]] = [
        *reads,
        ("issue_refund", {"order_id": order, "amount": amount, "currency": "USD"}),
        ("send_email", {"to": email, "template": rng.choice(["refund_ok", "refund_partial"])}),
    ]
    events: list[Data] = [
        {"kind": "message", "actor_ref": "user", "payload": {"text": f"refund {order}"}}
    ]
    for name, arguments in calls:
        events.append(
            {
                "kind": "tool_call",
                "payload": {"name": name, "arguments": arguments, "result": {"ok": True}},
            }
        )
    events.append(
        {"kind": "memory", "event_type": "set", "payload": {"name": "refund.order", "value": order}}
    )
    events.append(
        {"kind": "message", "actor_ref": "agent", "payload": {"text": f"Refunded {amount}."}}
    )
    return {
        "events": events,
        "status": "completed",
        "steps": len(calls) + rng.randint(1, 3),
        "usage": {"input_tokens": rng.randint(900, 1400), "output_tokens": rng.randint(80, 200)},
        "initial_state": {"orders": {order: {"status": "paid", "refunded": 0}}},
        "final_state": {"orders": {order: {"status": "refunded", "refunded": amount}}},
        "tools": [{"name": t} for t in (*TOOLS, NEVER_USED)],
    }


# -- the mutations -------------------------------------------------------------------------------


def _call_positions(data: Data) -> list[int]:
    return [i for i, e in enumerate(data["events"]) if e["kind"] == "tool_call"]


def drop_call(data: Data, rng: random.Random) -> Data:
    """A call dropped."""
    i = rng.choice(_call_positions(data))
    return {**data, "events": [e for k, e in enumerate(data["events"]) if k != i]}


def swap_dependent(data: Data, rng: random.Random) -> Data:
    """Two dependent calls swapped: a read and the refund that uses it, or the refund and the
    e-mail that reports it."""
    names = {data["events"][i]["payload"]["name"]: i for i in _call_positions(data)}
    first, second = rng.choice(
        [(r, "issue_refund") for r in ("lookup_order", "check_policy", "lookup_customer")]
        + [("issue_refund", "send_email")]
    )
    events = list(data["events"])
    i, j = names[first], names[second]
    events[i], events[j] = events[j], events[i]
    return {**data, "events": events}


def change_argument(data: Data, rng: random.Random) -> Data:
    """One argument value changed to one the agent would not send (another shape or range)."""
    events = json.loads(json.dumps(data["events"]))
    i = rng.choice(_call_positions(data))
    arguments = events[i]["payload"]["arguments"]
    key = rng.choice(sorted(arguments))
    value = arguments[key]
    if isinstance(value, bool):
        arguments[key] = not value
    elif isinstance(value, int | float):
        arguments[key] = value * 10 + 1000
    else:
        arguments[key] = "see previous message"
    return {**data, "events": events}


def add_unused_tool(data: Data, rng: random.Random) -> Data:
    """A call to a tool the trusted runs never use (declared or not)."""
    name = rng.choice([NEVER_USED, "export_database"])
    events = list(data["events"])
    at = rng.choice(_call_positions(data))
    events.insert(at, {"kind": "tool_call", "payload": {"name": name, "arguments": {}}})
    return {**data, "events": events}


def double_steps(data: Data, rng: random.Random) -> Data:
    """The steps doubled."""
    return {**data, "steps": data["steps"] * 2}


MUTATIONS: dict[str, Callable[[Data, random.Random], Data]] = {
    "drop a call": drop_call,
    "swap two dependent calls": swap_dependent,
    "change one argument value": change_argument,
    "add a call to an unused tool": add_unused_tool,
    "double the steps": double_steps,
}


# -- measuring -----------------------------------------------------------------------------------


def measure(
    label: str,
    trusted: list[Data],
    mutations: dict[str, Callable[..., Data]],
    targets: Targets,
) -> None:
    """Mine from ``trusted``, print the pass rate on them and the kill rate per mutation."""
    records = [TrialRecord.from_dict(d) for d in trusted]
    suite: MinedSuite = infer(records)
    passed = suite.evaluate_all(records)
    checks = sum(len(c.checks) for c in suite.cases)
    print(f"\n{label}: {len(records)} trusted runs, {checks} checks inferred")
    share = 100 * sum(passed) / len(passed)
    print(f"  trusted runs passing:  {sum(passed)}/{len(passed)} ({share:.1f} %)")
    rng = random.Random(26)
    killed_all = total_all = 0
    for name, mutate in mutations.items():
        mutants = [TrialRecord.from_dict(_renumbered(mutate(d, rng))) for d in trusted]
        failed = [not ok for ok in suite.evaluate_all(mutants)]
        killed_all += sum(failed)
        total_all += len(failed)
        share = 100 * sum(failed) / len(failed)
        print(f"  {name:<30} failed {sum(failed)}/{len(failed)} ({share:.1f} %)")
    rate = 100 * killed_all / total_all
    print(f"  all mutants:           failed {killed_all}/{total_all} ({rate:.1f} %)")
    targets.check(f"{label}: the suite passes every trusted run", all(passed), f"{share:.1f} %")
    targets.check(f"{label}: the suite fails >= 90 % of the mutants", rate >= 90, f"{rate:.1f} %")


def _renumbered(data: Data) -> Data:
    """The mutant with its event ids derived again from the positions (calls moved)."""
    events = [{k: v for k, v in e.items() if k != "event_id"} for e in data["events"]]
    return {**data, "events": events}


def example_runs() -> list[Data]:
    """The repository's example runs, as native data."""
    paths = [
        ROOT / "docs/examples/refund_run.json",
        *sorted((ROOT / "docs/examples/runs").glob("*.json")),
    ]
    return [r.to_dict() for p in paths for r in iter_records(p)]


def example_mutations(trusted: list[Data]) -> dict[str, Callable[[Data, random.Random], Data]]:
    """The mutations that apply to the example runs (which have their own tools)."""

    def swap_any(data: Data, rng: random.Random) -> Data:
        positions = _call_positions(data)
        events = list(data["events"])
        i, j = positions[0], positions[-1]
        events[i], events[j] = events[j], events[i]
        return {**data, "events": events}

    def double(data: Data, rng: random.Random) -> Data:
        steps = data.get("steps") or len(_call_positions(data))
        return {**data, "steps": steps * 2}

    return {
        "drop a call": drop_call,
        "swap two dependent calls": swap_any,
        "change one argument value": change_argument,
        "add a call to an unused tool": add_unused_tool,
        "double the steps": double,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200, help="trusted generated runs")
    parser.add_argument("--timing-runs", type=int, default=10_000, help="runs infer is timed on")
    parser.add_argument("--quick", action="store_true", help="50 runs, timing on 1,000")
    args = parser.parse_args()
    if args.quick:
        args.runs, args.timing_runs = 50, 1000
    targets = Targets()
    measure("generated runs", [trusted_run(n) for n in range(args.runs)], MUTATIONS, targets)
    examples = example_runs()
    measure("example runs", examples, example_mutations(examples), targets)
    records = [TrialRecord.from_dict(trusted_run(n)) for n in range(args.timing_runs)]
    start = time.process_time()
    suite = infer(records)
    took = time.process_time() - start
    checks = sum(len(c.checks) for c in suite.cases)
    print(f"\ninfer on {len(records):,} runs (in memory): {took:.2f} s CPU ({checks} checks)")
    if len(records) >= 10_000:
        targets.check("infer on 10,000 runs in <= 30 s on one core", took <= 30, f"{took:.2f} s")
    return targets.exit_code()


if __name__ == "__main__":
    raise SystemExit(main())
