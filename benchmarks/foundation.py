"""Foundation benchmark: record loading, index building, and ~30 checks across the families.

Builds records of 1,000 / 10,000 / 100,000 / 1,000,000 events that hold the *same* matching
events (a refund conversation) padded with filler events of other kinds, then reports:

* time to decode the record from JSON text (``json.loads`` + ``TrialRecord.from_dict``);
* time to build the indexes (timed separately, ``record.build_indexes()``);
* time per check (best of several runs, ``check.evaluate(record)``);
* ratio (a): per check, its cost on the 100,000-event record over its cost on the 1,000-event
  record (target below 2 for checks that select by kind or tool name);
* ratio (b): ``called_tool`` with partial arguments over a hand-written Python loop that gets
  the same per-name list of calls as plain dicts and does the same comparison (target below 3).

Usage: ``python benchmarks/foundation.py [--sizes 1000,10000,100000,1000000]``.
"""

from __future__ import annotations

import argparse
import gc
import json
import time
from collections.abc import Callable
from typing import Any

from _harness import fmt

from agent_asserts import EvalContext, M, TrialRecord, on
from agent_asserts.checks.base import Check

FILLER_KINDS = ("step", "ui_event", "artifact")
# Checks that must look at every event (or the whole state), with the reason.
LINEAR = {
    "events_satisfy": "the predicate receives the whole event list",
    "not_event(kind=None)": "no kind to index by: every event is a candidate",
}


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


class _Capture(EvalContext):
    """An EvalContext whose fluent methods return the check they build instead of running it."""

    def record_check(self, check: Check, **_: Any) -> Any:  # type: ignore[override]
        return check


def suite() -> list[tuple[str, Callable[[EvalContext], Any]]]:
    """About 30 checks across the families, built through the fluent API."""
    lookups = on.tool("refunds_lookup")
    items = [
        (
            "called_tool(partial args)",
            lambda c: c.called_tool("refunds_lookup", arguments={"orderId": "A1049"}),
        ),
        ("called_tool(count)", lambda c: c.called_tool("refunds_lookup", count=20)),
        ("not_called_tool", lambda c: c.not_called_tool("refunds_cancel")),
        ("not_called_tool(before)", lambda c: c.not_called_tool("refunds_issue", before=lookups)),
        ("tool_order", lambda c: c.tool_order("refunds_lookup", "refunds_issue")),
        ("used_no_tools", lambda c: c.used_no_tools()),
        ("max_tool_calls", lambda c: c.max_tool_calls(100)),
        ("no_failed_actions", lambda c: c.no_failed_actions()),
        ("last_tool", lambda c: c.last_tool("refunds_issue")),
        (
            "every_call",
            lambda c: c.every_call("refunds_lookup", arguments={"orderId": M.regex("^A")}),
        ),
        ("followed_by", lambda c: c.followed_by("refunds_lookup", "refunds_issue")),
        ("terminal_tool", lambda c: c.terminal_tool("refunds_issue")),
        (
            "confirmation_requested",
            lambda c: c.confirmation_requested("refunds_issue", "(?i)shall i"),
        ),
        ("called_subagent", lambda c: c.called_subagent("researcher")),
        ("event(kind)", lambda c: c.event("audit")),
        ("event(envelope)", lambda c: c.event(on.event("audit", operation_ref="op-7"))),
        ("not_event", lambda c: c.not_event("error")),
        ("not_event(kind=None)", lambda c: c.not_event(on.event(operation_ref="op-9"))),
        ("event_order", lambda c: c.event_order("mutation", "audit")),
        (
            "events_satisfy",
            lambda c: c.events_satisfy(lambda evs: all(e.kind != "error" for e in evs)),
        ),
        ("step_count", lambda c: c.step_count(12)),
        ("total_tokens_at_most", lambda c: c.total_tokens_at_most(4000)),
        ("changed", lambda c: c.changed("/orders/A1049/status", after="refunded")),
        ("only_changed", lambda c: c.only_changed("/orders/A1049")),
        ("sequencing", lambda c: c.sequencing(on.memory_set("refund.order_id"), "refunds_issue")),
        ("memory_was_set", lambda c: c.memory_was_set("refund.order_id", "A1049")),
        ("memory_was_cleared", lambda c: c.memory_was_cleared("refund.draft_id")),
        ("skill_activated", lambda c: c.skill_activated("refund")),
        ("ordered_block_entered", lambda c: c.ordered_block_entered("refund", "main")),
        ("bot_uttered", lambda c: c.bot_uttered(text_matches="Refund issued")),
        ("message_includes", lambda c: c.message_includes("A1049")),
        ("duration_at_most", lambda c: c.duration_at_most("refunds_issue", 5)),
        ("model_calls_at_most", lambda c: c.model_calls_at_most(5)),
        ("tokens_at_most", lambda c: c.tokens_at_most(4000, counter="input_tokens")),
        ("parallel_calls", lambda c: c.parallel_calls("refunds_lookup", "refunds_issue")),
        ("tool_arguments_valid", lambda c: c.tool_arguments_valid("refunds_issue")),
        ("no_denied_calls", lambda c: c.no_denied_calls()),
    ]
    return items


def best_of(fn: Callable[[], Any], *, repeat: int = 9, budget: float = 0.3) -> float:
    """Best per-call time in seconds over ``repeat`` rounds of enough calls to fill ``budget``."""
    t0 = time.perf_counter()
    fn()
    once = max(time.perf_counter() - t0, 1e-7)
    number = max(1, min(10_000, int(budget / once / repeat)))
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t0) / number)
    return best


def hand_loop(data: dict[str, Any]) -> Callable[[], int]:
    """The hand-written baseline for ratio (b): per-name list of plain dicts, same comparison."""
    by_name: dict[str, list[dict[str, Any]]] = {}
    for event in data["events"]:
        if event["kind"] == "tool_call":
            by_name.setdefault(event["payload"]["name"], []).append(event["payload"])
    expected = {"orderId": "A1049"}

    def run() -> int:
        n = 0
        for call in by_name.get("refunds_lookup", ()):
            args = call.get("arguments", {})
            if all(
                k in args and args[k] == v and type(args[k]) is type(v) for k, v in expected.items()
            ):
                n += 1
        return n

    return run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000,1000000")
    sizes = [int(s) for s in parser.parse_args().sizes.split(",")]
    builder = _Capture(TrialRecord.from_dict({"events": []}))
    checks = []
    for name, make in suite():
        try:
            checks.append((name, make(builder)))
        except AttributeError as exc:  # a family not built yet
            print(f"skipped {name}: {exc}")
    per_size: dict[int, dict[str, float]] = {}
    missed: list[str] = []
    for size in sizes:
        data = record_dict(size)
        text = json.dumps(data)
        gc.collect()
        t0 = time.perf_counter()
        record = TrialRecord.from_dict(json.loads(text))
        load = time.perf_counter() - t0
        t0 = time.perf_counter()
        record.build_indexes()
        index = time.perf_counter() - t0
        print(f"\n== {size:,} events: load {fmt(load)}, indexes {fmt(index)}")
        timings = {}
        for name, check in checks:
            outcome = check.evaluate(record)
            timings[name] = best_of(lambda check=check, record=record: check.evaluate(record))
            print(f"  {name:28} {fmt(timings[name]):>10}  {outcome.status.value}")
        per_size[size] = timings
        if size == 100_000 or size == sizes[-1]:
            ratio_b = timings["called_tool(partial args)"] / best_of(hand_loop(data))
            print(f"  ratio (b) called_tool / hand loop: {ratio_b:.2f} (target < 3)")
            if ratio_b >= 3:
                missed.append(f"ratio (b) at {size:,}")
        record = data = text = None  # type: ignore[assignment]
    if 1000 in per_size and 100_000 in per_size:
        print("\n== ratio (a): cost on 100,000 events / cost on 1,000 events (target < 2)")
        for name, _ in checks:
            ratio = per_size[100_000][name] / per_size[1000][name]
            note = f"  O(N): {LINEAR[name]}" if name in LINEAR else ""
            flag = "" if ratio < 2 or name in LINEAR else "  <-- over target"
            print(f"  {name:28} {ratio:6.2f}{flag}{note}")
            if flag:
                missed.append(f"ratio (a) {name}")
    print(f"\n{len(missed)} targets missed: {', '.join(missed)}" if missed else "\nall targets met")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
