"""Shared helpers for the benchmark scripts: side-by-side timing, figures and targets.

Every ratio is measured *interleaved in one run*: the two sides alternate round by round and
each side's figure is the median of its rounds, so a load spike on the (shared) machine hits
both sides alike instead of skewing one of them. Times are CPU time of this process
(``time.process_time``), which other processes' load disturbs less than wall time.

A script records each target with :meth:`Targets.check` and returns :meth:`Targets.exit_code`
from its ``main()``; ``run_all.py`` runs every script and reports the misses.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

Clock = Callable[[], float]


def fmt(seconds: float) -> str:
    """A duration with a readable unit: ``fmt(0.0000123) == '12.30 µs'``."""
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.2f} µs"


def calibrate(fn: Callable[[], Any], budget: float, *, clock: Clock = time.perf_counter) -> int:
    """How many calls of ``fn`` fill about ``budget`` seconds (at least 1)."""
    number = 1
    while True:
        t0 = clock()
        for _ in range(number):
            fn()
        spent = clock() - t0
        if spent >= budget / 4 or number >= 1_000_000:
            return max(1, int(number * budget / max(spent, 1e-9)))
        number *= 4


def side_by_side(
    sides: Sequence[Callable[[], Any]],
    *,
    rounds: int = 15,
    budget: float = 0.004,
    setup: Callable[[int], Any] | None = None,
    clock: Clock = time.process_time,
) -> list[float]:
    """Median seconds per call of each side, the sides interleaved round by round.

    Each round runs every side once (the order rotates between rounds) for a calibrated
    number of calls; ``setup(i)``, when given, runs before side ``i``'s batch, untimed.
    """
    numbers = []
    for i, fn in enumerate(sides):
        if setup is not None:
            setup(i)
        numbers.append(calibrate(fn, budget))
    samples: list[list[float]] = [[] for _ in sides]
    order = list(range(len(sides)))
    for r in range(rounds):
        for i in order[r % len(order) :] + order[: r % len(order)]:
            if setup is not None:
                setup(i)
            fn, number = sides[i], numbers[i]
            t0 = clock()
            for _ in range(number):
                fn()
            samples[i].append((clock() - t0) / number)
    return [statistics.median(s) for s in samples]


class Targets:
    """Collects target checks; ``exit_code()`` is 1 when any was missed."""

    def __init__(self) -> None:
        self.missed: list[str] = []
        self.met = 0

    def check(self, label: str, ok: bool, detail: str) -> bool:
        """Print ``label: detail`` with ``ok`` or ``MISSED`` and remember the outcome."""
        print(f"  [{'ok' if ok else 'MISSED'}] {label}: {detail}")
        if ok:
            self.met += 1
        else:
            self.missed.append(label)
        return ok

    def exit_code(self) -> int:
        """Print the tally; 0 when every target was met."""
        total = self.met + len(self.missed)
        if self.missed:
            print(f"\n{len(self.missed)} of {total} targets missed: {', '.join(self.missed)}")
            return 1
        print(f"\nall {total} targets met")
        return 0
