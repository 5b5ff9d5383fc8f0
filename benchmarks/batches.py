"""Batch benchmark: ``evaluate_many`` on 10,000 small records, serial vs 2 workers.

Two phases, each interleaving serial rounds with rounds on one executor (wall-clock medians;
parallelism is about wall time): a ``ProcessPoolExecutor(2)``, then Dask distributed,
``Client(LocalCluster(n_workers=2, threads_per_worker=1)).get_executor()`` (skipped with a note
when the ``dask`` extra is not installed). Each executor is started, and warmed up with one
small batch, before its rounds; the cluster lives only during its own phase (its scheduler runs
in this process, and its threads would take CPU from the other rounds). A case function of 10
checks runs on each record, given as a canonical record dict (the workers build the records, as
they would from a JSON Lines file). Before the rounds, each executor's throughput is measured
over chunk sizes, to show why the default chunk sizes of a batch, ``DEFAULT_CHUNK_SIZE`` (process
pool) and ``DISTRIBUTED_CHUNK_SIZE`` (Dask, Ray), are what they are.

Targets: process pool of 2 ≥ 1.6 × serial throughput; Dask with 2 workers ≥ 1.3 × serial.
Both need two otherwise idle cores; on a machine shared with other jobs the ratios are lower.

So that a run on a busy machine still says something, each side's CPU time per record is
printed too: this process's (all its threads) and, on Linux, the workers' (from
``/proc/PID/stat``; Dask's through ``client.run``). ``2 × serial CPU / (parent + workers CPU)``
is what two idle cores could give at most when nothing waits: the *CPU bound* of the ratio. A
wall-clock ratio far below its CPU bound means waiting (for a busy core, or in the pipeline).

Usage: ``python benchmarks/batches.py [--records 10000] [--rounds 3]``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
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
from agent_asserts.batch.pool import DEFAULT_CHUNK_SIZE, DISTRIBUTED_CHUNK_SIZE


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


def _proc_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def workers_cpu(executor: Any) -> float | None:
    """CPU seconds used so far by the executor's worker processes (None: cannot tell)."""
    processes = getattr(executor, "_processes", None)
    try:
        if processes is not None:
            return sum(_proc_cpu(pid) for pid in list(processes))
        client = getattr(executor, "_client", None)
        if client is not None:
            return float(sum(client.run(time.process_time).values()))
    except (OSError, ValueError, IndexError):
        return None
    return None if executor is not None else 0.0


def run_side(executor: Any, run: Callable[[], Any]) -> tuple[float, float, float | None]:
    """(wall seconds, this process's CPU seconds, the workers' CPU seconds or None)."""
    before = workers_cpu(executor)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    run()
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    after = workers_cpu(executor)
    return wall, cpu, (None if before is None or after is None else after - before)


def sweep(records: list[Any], executor: Any, sizes: tuple[int, ...], default: int) -> None:
    """One run per chunk size: wall time, throughput, and this process's and the workers' CPU."""
    for size in sizes:
        wall, cpu, workers = run_side(executor, lambda size=size: evaluate_many(
            records, ten_checks, executor=executor, chunk_size=size
        ))  # fmt: skip
        n = len(records)
        spent = "" if workers is None else f", workers {fmt(workers / n)}"
        mark = "  <- default" if size == default else ""
        print(
            f"  chunk_size={size:<4} {fmt(wall):>10} ({n / wall:,.0f}/s); CPU per record: "
            f"this process {fmt(cpu / n)}{spent}{mark}"
        )


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
        print(f"== chunk size, process pool of 2, {args.records:,} records (one run each)")
        sweep(records, pool, (1, 16, 64, 256), DEFAULT_CHUNK_SIZE)
        compare(records, "process pool of 2", pool, args.rounds, 1.6, targets)
    # the cluster only lives for its own phase: its scheduler runs in this process, and its
    # threads would take CPU from the other sides' rounds
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        print("  (dask distributed not installed: pip install 'agent-asserts[dask]')")
        return targets.exit_code()
    with (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True) as cluster,
        Client(cluster) as client,
    ):
        dask_executor = client.get_executor()
        evaluate_many(records[:200], ten_checks, executor=dask_executor)
        print(f"\n== chunk size, dask LocalCluster(2), {args.records:,} records (one run each)")
        sweep(records, dask_executor, (64, 256, 1024), DISTRIBUTED_CHUNK_SIZE)
        compare(records, "dask LocalCluster(2)", dask_executor, args.rounds, 1.3, targets)
    return targets.exit_code()


def compare(
    records: list[Any], name: str, executor: Any, rounds: int, target: float, targets: Targets
) -> None:
    """Serial and ``executor`` alternately, ``rounds`` rounds each; medians, CPU, the target."""
    sides: dict[str, tuple[Executor | None, list[tuple[float, float, float | None]]]] = {
        "serial": (None, []),
        name: (executor, []),
    }
    print(f"\n== {len(records):,} records x 10 checks, serial vs {name}, {rounds} rounds")
    for r in range(rounds):
        names = list(sides)
        for side in names[r % 2 :] + names[: r % 2]:
            ex, samples = sides[side]
            samples.append(
                run_side(ex, lambda ex=ex: evaluate_many(records, ten_checks, executor=ex))
            )
    n = len(records)
    medians = {side: statistics.median(w for w, _, _ in s) for side, (_, s) in sides.items()}
    cpus: dict[str, float | None] = {}
    for side, (_, samples) in sides.items():
        seconds = medians[side]
        print(
            f"  {side:22} {fmt(seconds):>10}  {fmt(seconds / n)} per record  ({n / seconds:,.0f}/s)"
        )
        parent = statistics.median(c for _, c, _ in samples) / n
        spent = [w for _, _, w in samples]
        workers = None if None in spent else statistics.median(spent) / n  # type: ignore[type-var]
        cpus[side] = None if workers is None else parent + workers
        shown = "" if workers is None or side == "serial" else f", workers {fmt(workers)}"
        print(f"  {'':22} CPU per record: this process {fmt(parent)}{shown}")
    serial_cpu, total = cpus["serial"], cpus[name]
    if serial_cpu is not None and total:
        print(f"  CPU bound of the ratio on 2 idle cores {2 * serial_cpu / total:.2f}×")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"  (load average {load:.2f} on {os.cpu_count()} cores)")
    ratio = medians["serial"] / medians[name]
    targets.check(name, ratio >= target, f"{ratio:.2f}× serial (target ≥ {target}×)")


if __name__ == "__main__":
    raise SystemExit(main())
