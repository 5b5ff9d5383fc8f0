"""``matches_trajectory`` benchmark: linear in the exact argument modes.

For each size (1,000 to 100,000 tool calls over 20 tool names, every call with its own
arguments, the same generator at every size) and each order mode, it times
``MatchesTrajectory(reference, order=…, arguments=…).evaluate(record)`` with the run itself as
the reference (a full match, the case a passing test pays) and with the last call swapped to
the front of the reference (a failing strict/in-order comparison that must still align
everything). The sizes of a mode are interleaved: each of 5 rounds times every size once, so
a change of load on the (shared) machine hits the small and the large size alike; each figure
is the median of its rounds, in CPU time. A sample is one untimed evaluation (so every size
starts from the caches its own evaluation leaves, not from the last size's) and then as many
timed evaluations as make 10,000 calls (10 at 1,000 calls, one from 10,000 on), per
evaluation. The garbage collector is paused while timing, at every size, as ``timeit`` does (a
full collection scans the whole heap, record included, so its cost is not the check's); it
collects between modes. The growth exponent of a mode is the slope of log(time) against
log(size) between the smallest and the largest size: 1.0 is linear, 2.0 quadratic. The
exponent of the best round of each size (the statistic of the first version of this script,
which timed the sizes one after the other) is printed beside it.

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
ROUNDS = 5
BATCH_CALLS = 10_000  # a sample times at least this many calls' worth of evaluations
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


def _sample(fn: Any, repeat: int) -> float:
    """CPU seconds per call of ``fn`` over ``repeat`` calls, after one untimed call."""
    fn()
    t0 = time.process_time()
    for _ in range(repeat):
        fn()
    return (time.process_time() - t0) / repeat


def samples(
    sizes: tuple[int, ...] = SIZES, rounds: int = ROUNDS
) -> dict[tuple[str, str, str], dict[int, list[float]]]:
    """Seconds per evaluation of every round, by (order, arguments, case) and size; case is
    ``match`` or ``moved`` (the last call moved to the front of the reference). The sizes of
    a mode are interleaved round by round; the collector is paused while timing."""
    built = {n: build(n) for n in sizes}
    out: dict[tuple[str, str, str], dict[int, list[float]]] = {}
    for order in ORDERS:
        for arguments in ARGUMENT_MODES:
            for case in ("match", "moved"):
                runs = []
                for n in sizes:
                    record, reference = built[n]
                    ref = reference if case == "match" else [reference[-1], *reference[:-1]]
                    check = MatchesTrajectory(ref, order=order, arguments=arguments)
                    if case == "match" and check.evaluate(record).status.value != "pass":
                        raise SystemExit(f"{order}/{arguments}/{case}: expected a pass")
                    runs.append((n, lambda c=check, r=record: c.evaluate(r)))
                by_size: dict[int, list[float]] = {n: [] for n in sizes}
                gc.collect()
                gc.disable()  # as timeit does, at every size
                try:
                    for _ in range(rounds):
                        for n, run in runs:
                            by_size[n].append(_sample(run, max(1, BATCH_CALLS // n)))
                finally:
                    gc.enable()
                out[(order, arguments, case)] = by_size
    return out


def measure(sizes: tuple[int, ...] = SIZES) -> dict[tuple[str, str, str], dict[int, float]]:
    """Seconds per evaluation (the median of the rounds of :func:`samples`), by (order,
    arguments, case) and size."""
    return {
        key: {n: statistics.median(times) for n, times in by_size.items()}
        for key, by_size in samples(sizes).items()
    }


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
    rounds = samples(sizes)
    figures = {
        key: {n: statistics.median(times) for n, times in by_size.items()}
        for key, by_size in rounds.items()
    }
    targets = Targets()
    header = " | ".join(f"{n:,}" for n in sizes)
    print(f"CPU time per evaluation, median of {ROUNDS} interleaved rounds")
    print(f"| order | arguments | case | {header} | exponent | (of the best) |")
    print("| --- | --- | --- |" + " --- |" * len(sizes) + " --- | --- |")
    for (order, arguments, case), by_size in figures.items():
        cells = " | ".join(fmt(by_size[n]) for n in sizes)
        best = exponent({n: min(times) for n, times in rounds[(order, arguments, case)].items()})
        slopes = f"{exponent(by_size):.2f} | {best:.2f}"
        print(f"| {order} | {arguments} | {case} | {cells} | {slopes} |")
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
