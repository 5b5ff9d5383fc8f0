"""Batch benchmark: ``evaluate_many`` on 10,000 small records, serial vs 2 workers.

Three ways, interleaved round by round (wall-clock medians; parallelism is about wall time):
serially; on a ``ProcessPoolExecutor(2)``; on Dask distributed,
``Client(LocalCluster(n_workers=2, threads_per_worker=1)).get_executor()`` (skipped with a note
when the ``dask`` extra is not installed). The pool and the cluster are started, and warmed up
with one small batch, before the timed rounds. A case function of 10 checks runs on each record,
given as a canonical record dict (the workers build the records, as they would from a JSON
Lines file). Before the rounds, the process pool's throughput is measured over chunk sizes to
show why ``batch.chunks.DEFAULT_CHUNK_SIZE`` is what it is.

Targets: process pool of 2 ≥ 1.6 × serial throughput; Dask with 2 workers ≥ 1.3 × serial.
Both need two otherwise idle cores; on a machine shared with other jobs the ratios are lower.

Usage: ``python benchmarks/batches.py [--records 10000] [--rounds 3]``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import Targets, fmt

from agent_asserts import EvalContext, evaluate_many
from agent_asserts.batch.chunks import DEFAULT_CHUNK_SIZE


def small_record(i: int) -> dict[str, Any]:
    """A small record (~10 events) as a canonical dict; every 7th one fails a check."""
    amount = 42 if i % 7 else 40
    return {
        "status": "completed",
        "steps": 4,
        "events": [
            {"kind": "message", "actor_ref": "user", "payload": {"text": f"refund A{i}"}},
            {"kind": "tool_call", "payload": {"name": "lookup", "arguments": {"id": f"A{i}"}}},
            {
                "kind": "memory",
                "event_type": "set",
                "payload": {"name": "order", "value": f"A{i}"},
            },
            {"kind": "message", "actor_ref": "agent", "payload": {"text": "Shall I refund?"}},
            {"kind": "message", "actor_ref": "user", "payload": {"text": "yes"}},
            {
                "kind": "tool_call",
                "payload": {"name": "refund", "arguments": {"id": f"A{i}", "amount": amount}},
            },
            {"kind": "message", "actor_ref": "agent", "payload": {"text": f"Refunded A{i}"}},
        ],
    }


def ten_checks(ctx: EvalContext) -> None:
    """The case: 10 checks across the families (module level, so a process pool can pickle it)."""
    ctx.called_tool("refund", arguments={"amount": 42})
    ctx.not_called_tool("cancel")
    ctx.tool_order("lookup", "refund")
    ctx.max_tool_calls(5)
    ctx.succeeded()
    ctx.message_includes("Refunded")
    ctx.max_steps(10).soft()
    ctx.memory_was_set("order")
    ctx.confirmation_requested("refund", "(?i)shall i")
    ctx.no_failed_actions()


def timed(run: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    run()
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    records = [small_record(i) for i in range(args.records)]
    targets = Targets()
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        evaluate_many(records[:200], ten_checks, executor=pool)  # start and warm the workers
        expected = evaluate_many(records[:500], ten_checks)
        assert evaluate_many(records[:500], ten_checks, executor=pool).cases == expected.cases

        print(f"== chunk size, process pool of 2, {args.records:,} records (wall, one run each)")
        for size in (1, 16, 64, 256):
            seconds = timed(lambda size=size: evaluate_many(
                records, ten_checks, executor=pool, chunk_size=size
            ))  # fmt: skip
            mark = "  <- default" if size == DEFAULT_CHUNK_SIZE else ""
            print(
                f"  chunk_size={size:<4} {fmt(seconds):>10} ({args.records / seconds:,.0f}/s){mark}"
            )

        sides: dict[str, tuple[Executor | None, list[float]]] = {
            "serial": (None, []),
            "process pool of 2": (pool, []),
        }
        client = cluster = None
        try:
            from distributed import Client, LocalCluster

            cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True)
            client = Client(cluster)
            dask_executor = client.get_executor()
            evaluate_many(records[:200], ten_checks, executor=dask_executor)
            sides["dask LocalCluster(2)"] = (dask_executor, [])
        except ImportError:
            print("  (dask distributed not installed: pip install 'agent-asserts[dask]')")

        print(f"\n== {args.records:,} records x 10 checks, wall time, {args.rounds} rounds")
        for r in range(args.rounds):
            names = list(sides)
            for name in names[r % len(names) :] + names[: r % len(names)]:
                executor, samples = sides[name]
                samples.append(
                    timed(lambda ex=executor: evaluate_many(records, ten_checks, executor=ex))
                )
        medians = {name: statistics.median(s) for name, (_, s) in sides.items()}
        for name, seconds in medians.items():
            per = seconds / args.records
            rate = args.records / seconds
            print(f"  {name:22} {fmt(seconds):>10}  {fmt(per)} per record  ({rate:,.0f}/s)")
        serial = medians["serial"]
        pool_ratio = serial / medians["process pool of 2"]
        targets.check(
            "process pool of 2", pool_ratio >= 1.6, f"{pool_ratio:.2f}× serial (target ≥ 1.6×)"
        )
        if "dask LocalCluster(2)" in medians:
            dask_ratio = serial / medians["dask LocalCluster(2)"]
            targets.check(
                "dask LocalCluster(2)",
                dask_ratio >= 1.3,
                f"{dask_ratio:.2f}× serial (target ≥ 1.3×)",
            )
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    return targets.exit_code()


if __name__ == "__main__":
    raise SystemExit(main())
