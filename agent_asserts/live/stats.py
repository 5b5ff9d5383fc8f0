"""The counters of a live processor: :class:`LiveStats`, a snapshot readable at any time.

>>> stats = LiveStats(traces_seen=3, evaluated=2, open_traces=1)
>>> stats.traces_seen, stats.evicted, stats.to_dict()["open_traces"]
(3, 0, 1)
"""

from __future__ import annotations

import threading
from typing import Any

import attrs

COUNTERS = (
    "traces_seen",
    "evaluated",
    "evicted",
    "timed_out",
    "failed_verdicts",
    "evaluation_errors",
    "delivery_errors",
    "late_spans",
)
"""The names of the counters, in the order :meth:`LiveStats.to_dict` lists them."""


@attrs.frozen
class LiveStats:
    """What a live processor has done so far (a consistent snapshot, taken under its lock).

    Attributes:
        traces_seen: Traces with at least one span buffered.
        evaluated: Traces evaluated (complete, evicted, timed out or flushed).
        evicted: Traces evaluated early because ``max_open_traces`` were open.
        timed_out: Traces evaluated because no span came for ``trace_timeout`` seconds.
        failed_verdicts: Case results whose verdict was ``FAILED``.
        evaluation_errors: Case results that carry an evaluator error (a check or case that
            raised, a suite that could not load, a trace the adapter could not read).
        delivery_errors: Calls to ``on_result`` or emissions that raised (counted, never
            propagated).
        late_spans: Spans that ended after their trace was evaluated (not evaluated again).
        open_traces: Traces buffered now.
    """

    traces_seen: int = 0
    evaluated: int = 0
    evicted: int = 0
    timed_out: int = 0
    failed_verdicts: int = 0
    evaluation_errors: int = 0
    delivery_errors: int = 0
    late_spans: int = 0
    open_traces: int = 0

    def to_dict(self) -> dict[str, int]:
        """Every counter by name.

        >>> LiveStats(evaluated=1).to_dict()["evaluated"]
        1
        """
        return {name: getattr(self, name) for name in (*COUNTERS, "open_traces")}


class Counters:
    """The mutable, thread-safe counters behind :class:`LiveStats`.

    >>> counters = Counters()
    >>> counters.add(evaluated=2, evicted=1)
    >>> counters.snapshot(open_traces=0).evaluated
    2
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._values = dict.fromkeys(COUNTERS, 0)

    def add(self, **amounts: int) -> None:
        """Add to the named counters (an unknown name is a ``KeyError``)."""
        with self._lock:
            for name, amount in amounts.items():
                self._values[name] += amount

    def snapshot(self, *, open_traces: int) -> LiveStats:
        """The counters now, with the number of open traces given by the buffer."""
        with self._lock:
            values: dict[str, Any] = dict(self._values)
        return LiveStats(**values, open_traces=open_traces)


__all__ = ["COUNTERS", "Counters", "LiveStats"]
