"""Benchmark: ``has_matching`` of 100,000 mutations against 100,000 audits (target < 5 s).

Every succeeded mutation must have an audit with the same operation, actor and entity within
2 s (seed 002's audit requirement). The right side is indexed by its ``on`` keys, so the cost
is linear in the two selections. One mutation in 10,000 is left unaudited, so the failure path
(closest candidate, differing field) is measured too.

A second measure covers the worst case for the index: every item shares one ``on`` key
(``actor_ref``), so the time bound alone separates candidates (a sorted search inside the one
group, never a nested scan).

Run: ``python benchmarks/contract_has_matching.py [N]`` (default N = 100000).
"""

from __future__ import annotations

import sys
import time

from agent_asserts.record import Event, TrialRecord
from agent_asserts.runner import evaluate_contract

CONTRACT = {
    "contract": "refunds are audited",
    "assertions": [
        {
            "id": "every-mutation-audited",
            "severity": "critical",
            "bind": {
                "mutations": {
                    "from": "trace",
                    "where": {"kind": "mutation", "status": "succeeded"},
                },
                "audits": {"from": "trace", "where": {"kind": "audit"}},
            },
            "require": {
                "quantifier": "every",
                "op": "has_matching",
                "left": "mutations",
                "right": "audits",
                "on": ["operation_ref", "actor_ref", "entity_ref"],
                "within": "2s",
            },
        }
    ],
}


def build_record(n: int) -> TrialRecord:
    """``n`` mutations, each followed by its audit (every 10,000th names another operation)."""
    events: list[Event] = []
    for i in range(n):
        t = i * 0.01
        actor, refs = f"agent-{i % 7}", (f"order:A{i}",)
        events.append(
            Event(
                "mutation",
                {"amount": i},
                f"m{i}",
                operation_ref=f"op-{i}",
                status="succeeded",
                monotonic_time=t,
                actor_ref=actor,
                entity_refs=refs,
            )
        )
        op = f"op-{i}" if i % 10_000 else f"op-x{i}"
        events.append(
            Event(
                "audit",
                {"text": "refund"},
                f"a{i}",
                operation_ref=op,
                monotonic_time=t + 0.5,
                actor_ref=actor,
                entity_refs=refs,
            )
        )
    return TrialRecord(events=events, surfaces=["mutation", "audit"])


def main(n: int) -> float:
    start = time.perf_counter()
    record = build_record(n)
    record.build_indexes()
    built = time.perf_counter() - start
    start = time.perf_counter()
    (result,) = evaluate_contract(record, CONTRACT)
    elapsed = time.perf_counter() - start
    violations = len(result.observed["violations"])
    print(f"record of {2 * n:,} events built in {built:.2f} s (not part of the measure)")
    print(
        f"has_matching {n:,} mutations x {n:,} audits: {elapsed:.2f} s "
        f"({result.status.value}, {violations} violations)"
    )
    print(result.message[:160] + ("…" if len(result.message) > 160 else ""))
    shared_key(n)
    return elapsed


def shared_key(n: int) -> float:
    """Every mutation and audit shares one ``on`` key; only ``within`` tells them apart."""
    events = []
    for i in range(n):
        for kind, offset in (("mutation", 0.0), ("audit", 0.5)):
            events.append(
                Event(
                    kind=kind,
                    payload={},
                    event_id=f"{kind[0]}{i}",
                    actor_ref="agent",
                    status="succeeded",
                    monotonic_time=i + offset,
                )
            )
    record = TrialRecord(events=tuple(events))
    record.build_indexes()
    contract = {
        "bind": CONTRACT["assertions"][0]["bind"],  # type: ignore[index]
        "require": {"op": "has_matching", "left": "mutations", "right": "audits",
                    "on": ["actor_ref"], "within": 1},
    }  # fmt: skip
    start = time.perf_counter()
    (result,) = evaluate_contract(record, contract)
    elapsed = time.perf_counter() - start
    print(
        f"has_matching with one shared key, {n:,} x {n:,}: {elapsed:.2f} s ({result.status.value})"
    )
    return elapsed


if __name__ == "__main__":
    seconds = main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000)
    met = seconds < 5.0
    print(f"  [{'ok' if met else 'MISSED'}] has_matching: {seconds:.2f} s (target < 5 s)")
    raise SystemExit(0 if met else 1)
