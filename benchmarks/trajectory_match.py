"""``matches_trajectory`` benchmark: linear in the exact argument modes.

For each size (1,000 to 100,000 tool calls over 20 tool names, every call with its own
arguments) and each order mode, it times ``MatchesTrajectory(reference, order=…,
arguments=…).evaluate(record)`` with the run itself as the reference (a full match, the case a
passing test pays) and with the last call swapped to the front of the reference (a failing
strict/in-order comparison that must still align everything). Each figure is the best of 3
rounds of CPU time with the garbage collector paused during the timed call, as ``timeit``
does (a full collection scans the whole heap, record included, so its cost is not the
check's). The growth exponent of a mode is the slope of log(time) against log(size)
between the smallest and the largest size: 1.0 is linear, 2.0 quadratic.

Target: growth exponent ≤ 1.1 for every order mode in the ``exact`` and ``ignore`` argument
modes.

Then, side by side at 10,000 calls, ``unordered``, ``subset`` and ``superset`` in the ``exact``
argument mode against LangChain agentevals' ``create_trajectory_match_evaluator`` on the same
calls (both a full match; each side's call takes the reference, so building the check is timed
with its evaluation; CPU time, 3 interleaved rounds, medians): agentevals is installed in
its own environment on first use (``_agentevals.py``). Target: ours ≥ 50 × faster. When
agentevals cannot be installed the script says why and reports our figures alone.

``measure()`` returns the figures as data (``{(order, arguments, case): {size: seconds}}``) for
other scripts (``run_all.py`` comparisons); ``main()`` prints them and checks the target.

Usage: ``python benchmarks/trajectory_match.py [--sizes 1000,10000,100000]
[--agentevals-calls 10000] [--no-agentevals]``.
"""

from __future__ import annotations

import argparse
import gc
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _agentevals import agentevals_python, time_agentevals
from _harness import Targets, fmt

from agent_asserts import TrialRecord
from agent_asserts.checks.trajectory_match import MatchesTrajectory

ORDERS = ("strict", "in_order", "unordered", "subset", "superset")
ARGUMENT_MODES = ("exact", "ignore")
SIZES = (1_000, 10_000, 100_000)
TARGET_EXPONENT = 1.1
AGENTEVALS_MODES = ("unordered", "subset", "superset")
TARGET_SPEEDUP = 50.0


def build(n: int) -> tuple[TrialRecord, list[dict[str, Any]]]:
    """A record of ``n`` tool calls and the same calls as a reference list."""
    builder = TrialRecord.builder()
    reference: list[dict[str, Any]] = []
    for i in range(n):
        name = f"tool_{i % 20}"
        arguments = {"i": i, "query": f"q{i % 97}", "flags": [i % 2 == 0, None]}
        builder.tool(name, arguments=arguments)
        reference.append({"name": name, "arguments": arguments})
    record = builder.build()
    record.build_indexes()
    _ = record.tool_calls
    return record, reference


def _best(fn: Any, rounds: int = 3) -> float:
    best = math.inf
    gc.collect()
    gc.disable()  # as timeit does: a collection's cost depends on the whole heap, not the check
    try:
        for _ in range(rounds):
            t0 = time.process_time()
            fn()
            best = min(best, time.process_time() - t0)
    finally:
        gc.enable()
    return best


def measure(sizes: tuple[int, ...] = SIZES) -> dict[tuple[str, str, str], dict[int, float]]:
    """Seconds per evaluation, by (order, arguments, case) and size; case is ``match`` or
    ``moved`` (the last call moved to the front of the reference)."""
    out: dict[tuple[str, str, str], dict[int, float]] = {}
    for n in sizes:
        record, reference = build(n)
        moved = [reference[-1], *reference[:-1]]
        for order in ORDERS:
            for arguments in ARGUMENT_MODES:
                for case, ref in (("match", reference), ("moved", moved)):
                    check = MatchesTrajectory(ref, order=order, arguments=arguments)
                    expected = "pass" if case == "match" or order not in ("strict",) else "fail"
                    status = check.evaluate(record).status.value
                    if case == "match" and status != expected:
                        raise SystemExit(f"{order}/{arguments}/{case}: expected {expected}")
                    seconds = _best(lambda check=check, record=record: check.evaluate(record))
                    out.setdefault((order, arguments, case), {})[n] = seconds
    return out


def exponent(figures: dict[int, float]) -> float:
    """The slope of log(time) over log(size) between the smallest and the largest size."""
    low, high = min(figures), max(figures)
    return math.log(figures[high] / figures[low]) / math.log(high / low)


def compare_agentevals(n: int, targets: Targets, rounds: int = 3) -> None:
    """Ours vs agentevals at ``n`` calls, exact arguments, interleaved rounds (medians)."""
    print(f"\n== vs LangChain agentevals, {n:,} calls, exact arguments (CPU, median of {rounds})")
    python, why = agentevals_python()
    if python is None:
        print(f"  agentevals is not available here ({why}); our figures are above")
        return
    record, reference = build(n)
    ours: dict[str, list[float]] = {m: [] for m in AGENTEVALS_MODES}
    theirs: dict[str, list[float]] = {m: [] for m in AGENTEVALS_MODES}
    for _ in range(rounds):
        for mode, (seconds, score) in time_agentevals(python, n, AGENTEVALS_MODES).items():
            if not score:
                raise SystemExit(f"agentevals {mode}: expected a match of the same calls")
            theirs[mode].append(seconds)
        for mode in AGENTEVALS_MODES:
            # built inside the timed call, as agentevals takes the reference in its call
            def run(mode: str = mode) -> Any:
                return MatchesTrajectory(reference, order=mode, arguments="exact").evaluate(record)

            if run().status.value != "pass":
                raise SystemExit(f"matches_trajectory {mode}: expected a match")
            ours[mode].append(_best(run, rounds=1))
    for mode in AGENTEVALS_MODES:
        mine, other = statistics.median(ours[mode]), statistics.median(theirs[mode])
        ratio = other / mine
        print(f"  {mode:10} matches_trajectory {fmt(mine):>10}   agentevals {fmt(other):>10}")
        targets.check(
            f"vs agentevals {mode}",
            ratio >= TARGET_SPEEDUP,
            f"{ratio:,.0f}× faster (target ≥ {TARGET_SPEEDUP:.0f}×)",
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(str(s) for s in SIZES))
    parser.add_argument("--agentevals-calls", type=int, default=10_000)
    parser.add_argument("--no-agentevals", action="store_true")
    args = parser.parse_args(argv)
    sizes = tuple(int(s) for s in args.sizes.split(","))
    figures = measure(sizes)
    targets = Targets()
    header = " | ".join(f"{n:,}" for n in sizes)
    print(f"| order | arguments | case | {header} | exponent |")
    print("| --- | --- | --- |" + " --- |" * len(sizes) + " --- |")
    for (order, arguments, case), by_size in figures.items():
        cells = " | ".join(fmt(by_size[n]) for n in sizes)
        print(f"| {order} | {arguments} | {case} | {cells} | {exponent(by_size):.2f} |")
    print()
    for (order, arguments, case), by_size in figures.items():
        value = exponent(by_size)
        label = f"growth {order}/{arguments}/{case}"
        targets.check(label, value <= TARGET_EXPONENT, f"{value:.2f} (target ≤ {TARGET_EXPONENT})")
    if not args.no_agentevals:
        compare_agentevals(args.agentevals_calls, targets)
    return targets.exit_code()


if __name__ == "__main__":
    raise SystemExit(main())
