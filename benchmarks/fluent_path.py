"""Fluent-path benchmark: every check through ``ctx.*`` exactly as users call it vs a hand loop.

For each check of the foundation benchmark (``foundation.suite()``) and of the performance
issue's table (``ctx.contract`` bind → require in addition), one side calls the fluent method on
an :class:`EvalContext` (building the check, evaluating it and recording its result, as a test
does) and the other runs a hand-written loop over the same record as plain ``json.loads`` data
with per-kind and per-tool lists prepared once (the record's indexes are built once too), doing
the same comparison and returning a boolean. Both sides alternate round by round (medians).

Target per check: fluent ≤ 3 × hand loop, or ≤ hand loop + 5 µs where 3 × would be under that.

Usage: ``python benchmarks/fluent_path.py [--sizes 1000,100000] [--rounds 15] [--only NAME]``.
"""

from __future__ import annotations

import argparse
import bisect
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import Targets, fmt, side_by_side
from foundation import record_dict, suite

from agent_asserts import EvalContext, TrialRecord

CONTRACT = {
    "bind": {"s": {"from": "final_state", "path": "/orders/A1049/status"}},
    "require": {"op": "equals", "left": "s", "right": "refunded"},
}


class Plain:
    """The record as ``json.loads`` data, with the lists a hand loop would prepare once."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.events: list[dict[str, Any]] = data["events"]
        self.by_kind: dict[str, list[tuple[int, dict[str, Any]]]] = {}
        self.by_tool: dict[str, list[tuple[int, dict[str, Any]]]] = {}
        for i, event in enumerate(self.events):
            self.by_kind.setdefault(event["kind"], []).append((i, event))
            if event["kind"] == "tool_call":
                self.by_tool.setdefault(event["payload"]["name"], []).append((i, event))
        self.tool_positions = {n: [i for i, _ in calls] for n, calls in self.by_tool.items()}


def _pointer(doc: Any, path: str) -> Any:
    for part in path.strip("/").split("/"):
        doc = doc[part]
    return doc


def _diff(a: Any, b: Any, path: str, out: list[str]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in a.keys() | b.keys():
            if key not in a or key not in b:
                out.append(f"{path}/{key}")
            else:
                _diff(a[key], b[key], f"{path}/{key}", out)
    elif a != b or type(a) is not type(b):
        out.append(path)


def _agent_texts(p: Plain) -> list[tuple[int, str]]:
    return [
        (i, e["payload"]["text"])
        for i, e in p.by_kind.get("message", ())
        if e.get("actor_ref") == "agent"
    ]


def hand_loops() -> dict[str, Callable[[Plain], bool]]:
    """One hand-written loop per check name, returning the check's pass/fail."""
    starts_a = re.compile("^A")
    shall_i = re.compile("(?i)shall i")
    refund_issued = re.compile("Refund issued")
    expected = {"orderId": "A1049"}

    def called_partial(p: Plain) -> bool:
        n = 0
        for _, call in p.by_tool.get("refunds_lookup", ()):
            args = call["payload"].get("arguments", {})
            if all(
                k in args and args[k] == v and type(args[k]) is type(v) for k, v in expected.items()
            ):
                n += 1
        return n > 0

    def not_called_before(p: Plain) -> bool:
        first = p.tool_positions["refunds_lookup"][0]
        return not any(i < first for i in p.tool_positions.get("refunds_issue", ()))

    def tool_order(p: Plain) -> bool:
        first = p.tool_positions["refunds_lookup"][0]
        issues = p.tool_positions.get("refunds_issue", [])
        return bisect.bisect_right(issues, first) < len(issues)

    def every_call(p: Plain) -> bool:
        return all(
            isinstance(a := e["payload"]["arguments"].get("orderId"), str) and starts_a.search(a)
            for _, e in p.by_tool.get("refunds_lookup", ())
        )

    def terminal_tool(p: Plain) -> bool:
        calls = p.by_kind["tool_call"]
        return (
            len(p.by_tool.get("refunds_issue", ())) <= 1
            and calls[-1][1]["payload"]["name"] == "refunds_issue"
        )

    def confirmation(p: Plain) -> bool:
        texts = _agent_texts(p)
        for pos in p.tool_positions.get("refunds_issue", ()):
            before = [t for i, t in texts if i < pos][-4:]
            if not any(shall_i.search(t) for t in before):
                return False
        return True

    def event_order(p: Plain) -> bool:
        first = p.by_kind["mutation"][0][0]
        return any(i > first for i, _ in p.by_kind.get("audit", ()))

    def changed(p: Plain) -> bool:
        path = "/orders/A1049/status"
        before = _pointer(p.data["initial_state"], path)
        after = _pointer(p.data["final_state"], path)
        return before != after and after == "refunded"

    def only_changed(p: Plain) -> bool:
        out: list[str] = []
        _diff(p.data["initial_state"], p.data["final_state"], "", out)
        return all(c == "/orders/A1049" or c.startswith("/orders/A1049/") for c in out)

    def sequencing(p: Plain) -> bool:
        sets = [
            i
            for i, e in p.by_kind.get("memory", ())
            if e.get("event_type") == "set" and e["payload"]["name"] == "refund.order_id"
        ]
        return bool(sets) and any(i > sets[0] for i in p.tool_positions.get("refunds_issue", ()))

    def message_includes(p: Plain) -> bool:
        texts = _agent_texts(p)
        return bool(texts) and "A1049" in texts[-1][1]

    def contract(p: Plain) -> bool:
        try:
            return _pointer(p.data["final_state"], "/orders/A1049/status") == "refunded"
        except (KeyError, TypeError):
            return False

    def duration_at_most(p: Plain) -> bool:
        durations = [e.get("duration") for _, e in p.by_tool.get("refunds_issue", ())]
        return None not in durations and all(d <= 5 for d in durations)

    def parallel_calls(p: Plain) -> bool:
        names = ("refunds_lookup", "refunds_issue")
        groups = [{e.get("group_id") for _, e in p.by_tool.get(n, ())} - {None} for n in names]
        return bool(set.intersection(*groups))

    def tool_arguments_valid(p: Plain) -> bool:
        # the record declares no tools: the check answers "invalid" from that alone
        return bool(p.data.get("tools")) and bool(p.by_tool.get("refunds_issue"))

    usage = lambda p: p.data["usage"]["input_tokens"] + p.data["usage"]["output_tokens"] <= 4000  # noqa: E731
    return {
        "called_tool(partial args)": called_partial,
        "called_tool(count)": lambda p: len(p.by_tool.get("refunds_lookup", ())) == 20,
        "not_called_tool": lambda p: "refunds_cancel" not in p.by_tool,
        "not_called_tool(before)": not_called_before,
        "tool_order": tool_order,
        "used_no_tools": lambda p: not p.by_kind.get("tool_call"),
        "max_tool_calls": lambda p: len(p.by_kind.get("tool_call", ())) <= 100,
        "no_failed_actions": lambda p: (
            "error" not in p.by_kind
            and not any(e["payload"].get("is_error") for _, e in p.by_kind.get("tool_call", ()))
        ),
        "last_tool": lambda p: p.by_kind["tool_call"][-1][1]["payload"]["name"] == "refunds_issue",
        "every_call": every_call,
        "followed_by": lambda p: (
            p.tool_positions["refunds_issue"][-1] > p.tool_positions["refunds_lookup"][-1]
        ),
        "terminal_tool": terminal_tool,
        "confirmation_requested": confirmation,
        "called_subagent": lambda p: any(
            e.get("event_type") == "completed" and e["payload"].get("subagent") == "researcher"
            for _, e in p.by_kind.get("delegation", ())
        ),
        "event(kind)": lambda p: bool(p.by_kind.get("audit")),
        "event(envelope)": lambda p: any(
            e.get("operation_ref") == "op-7" for _, e in p.by_kind.get("audit", ())
        ),
        "not_event": lambda p: "error" not in p.by_kind,
        "not_event(kind=None)": lambda p: (
            not any(e.get("operation_ref") == "op-9" for e in p.events)
        ),
        "event_order": event_order,
        "events_satisfy": lambda p: all(e["kind"] != "error" for e in p.events),
        "step_count": lambda p: p.data["steps"] == 12,
        "total_tokens_at_most": usage,
        "changed": changed,
        "only_changed": only_changed,
        "sequencing": sequencing,
        "memory_was_set": lambda p: any(
            e.get("event_type") == "set"
            and e["payload"]["name"] == "refund.order_id"
            and e["payload"].get("value") == "A1049"
            for _, e in p.by_kind.get("memory", ())
        ),
        "memory_was_cleared": lambda p: any(
            e.get("event_type") == "clear" and e["payload"]["name"] == "refund.draft_id"
            for _, e in p.by_kind.get("memory", ())
        ),
        "skill_activated": lambda p: any(
            e.get("event_type") == "activated" and e["payload"]["skill_id"] == "refund"
            for _, e in p.by_kind.get("skill", ())
        ),
        "ordered_block_entered": lambda p: any(
            e.get("event_type") == "entered"
            and e["payload"]["skill_id"] == "refund"
            and e["payload"]["block_id"] == "main"
            for _, e in p.by_kind.get("ordered_block", ())
        ),
        "bot_uttered": lambda p: any(refund_issued.search(t) for _, t in _agent_texts(p)),
        "message_includes": message_includes,
        "duration_at_most": duration_at_most,
        "model_calls_at_most": lambda p: len(p.by_kind.get("model_call", ())) <= 5,
        "tokens_at_most": lambda p: p.data["usage"]["input_tokens"] <= 4000,
        "parallel_calls": parallel_calls,
        "tool_arguments_valid": tool_arguments_valid,
        "no_denied_calls": lambda p: (
            not any(
                e["payload"].get("outcome") == "denied" for _, e in p.by_kind.get("tool_call", ())
            )
        ),
        "contract": contract,
    }


def fluent_calls() -> list[tuple[str, Callable[[EvalContext], Any]]]:
    """The foundation suite's fluent calls plus the issue table's ``ctx.contract``."""
    return [*suite(), ("contract", lambda c: c.contract(CONTRACT))]


def within_target(fluent: float, hand: float) -> tuple[bool, str]:
    """Fluent ≤ 3 × hand, or ≤ hand + 5 µs; the figure shown is the ratio and the excess."""
    ratio = fluent / hand if hand > 0 else float("inf")
    ok = fluent <= max(3 * hand, hand + 5e-6)
    return ok, f"{ratio:6.2f}× (+{fmt(fluent - hand)})"


def measure(
    record: TrialRecord,
    plain: Plain,
    call: Callable[[EvalContext], Any],
    loop: Callable[[Plain], bool],
    rounds: int,
) -> tuple[float, float]:
    """(fluent, hand loop) median CPU seconds per call; each fluent batch gets a new context."""
    holder = [EvalContext(record)]

    def fresh(i: int) -> None:
        holder[0] = EvalContext(record)

    fluent_s, hand_s = side_by_side(
        [lambda: call(holder[0]), lambda: loop(plain)], rounds=rounds, setup=fresh
    )
    return fluent_s, hand_s


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,100000")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--only", default=None, help="run the checks whose name contains this")
    args = parser.parse_args(argv)
    loops = hand_loops()
    targets = Targets()
    for size in (int(s) for s in args.sizes.split(",")):
        data = record_dict(size)
        text = json.dumps(data)
        record = TrialRecord.from_dict(json.loads(text))
        record.build_indexes()
        plain = Plain(json.loads(text))
        print(f"\n== {size:,} events: fluent ctx.* call vs hand loop (CPU time, medians)")
        print(f"  {'check':28} {'fluent':>11} {'hand loop':>11}   ratio")
        for name, call in fluent_calls():
            if args.only and args.only not in name:
                continue
            fluent_s, hand_s = measure(record, plain, call, loops[name], args.rounds)
            ok, figure = within_target(fluent_s, hand_s)
            targets.check(f"{size}:{name}", ok, f"{fmt(fluent_s):>11} {fmt(hand_s):>11}   {figure}")
    return targets.exit_code()


if __name__ == "__main__":
    raise SystemExit(main())
