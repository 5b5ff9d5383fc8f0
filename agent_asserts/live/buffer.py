"""The open traces of a live processor: spans buffered per trace, bounded, with timeouts.

A trace closes when its root span ends (``reason`` None), when it is the least recently active
of more than ``max_open_traces`` open traces (``"evicted"``), when no span came for
``trace_timeout`` seconds (``"timeout"``), or when everything is drained at shutdown or flush
(``"shutdown"``). The ids of recently closed traces are remembered (as many as
``max_open_traces``), so a span that ends after its trace was evaluated is counted as late
instead of opening a second, rootless evaluation of the same trace.

Not thread-safe on its own: the processor calls it under its lock.

>>> buf = TraceBuffer(max_open_traces=1, trace_timeout=60.0)
>>> buf.add("t1", "span a", root=False, now=0.0)
[]
>>> [(c.trace_id, c.spans, c.reason) for c in buf.add("t2", "span b", root=False, now=1.0)]
[('t1', ['span a'], 'evicted')]
>>> [(c.trace_id, c.reason) for c in buf.add("t2", "root", root=True, now=2.0)]
[('t2', None)]
>>> buf.add("t2", "late", root=False, now=3.0), buf.late
([], 1)
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

import attrs

S = TypeVar("S")


@attrs.define
class _Open(Generic[S]):
    spans: list[S]
    last_seen: float
    root: S | None = None


@attrs.frozen
class ClosedTrace(Generic[S]):
    """A trace ready to evaluate: its spans in the order they ended, its root span when it
    ended, and why it closed early (``None`` for a complete trace)."""

    trace_id: str
    spans: list[S]
    root: S | None
    reason: str | None

    @property
    def complete(self) -> bool:
        """True when the root span ended (the trace was not closed early).

        >>> ClosedTrace("t", [], None, "timeout").complete
        False
        """
        return self.reason is None


class TraceBuffer(Generic[S]):
    """Spans per open trace, least recently active first."""

    def __init__(self, *, max_open_traces: int, trace_timeout: float) -> None:
        self.max_open_traces = max_open_traces
        self.trace_timeout = trace_timeout
        self._open: OrderedDict[str, _Open[S]] = OrderedDict()
        self._closed: OrderedDict[str, None] = OrderedDict()
        self.late = 0
        self.opened = 0

    def __len__(self) -> int:
        return len(self._open)

    def add(self, trace_id: str, span: S, *, root: bool, now: float) -> list[ClosedTrace[S]]:
        """Buffer ``span``; return the traces that close because of it (oldest first)."""
        if trace_id in self._closed:
            self.late += 1
            return []
        entry = self._open.get(trace_id)
        if entry is None:
            entry = self._open[trace_id] = _Open([], now)
            self.opened += 1
        else:
            entry.last_seen = now
            self._open.move_to_end(trace_id)
        entry.spans.append(span)
        closed: list[ClosedTrace[S]] = []
        if root:
            entry.root = span
            closed.append(self._close(trace_id, None))
        while len(self._open) > self.max_open_traces:
            closed.insert(0, self._close(next(iter(self._open)), "evicted"))
        return closed

    def expire(self, now: float) -> list[ClosedTrace[S]]:
        """Close every trace with no new span for ``trace_timeout`` seconds.

        >>> buf = TraceBuffer(max_open_traces=5, trace_timeout=10.0)
        >>> _ = buf.add("t", "a", root=False, now=0.0)
        >>> buf.expire(5.0), [c.reason for c in buf.expire(10.0)]
        ([], ['timeout'])
        """
        closed = []
        while self._open:
            trace_id, entry = next(iter(self._open.items()))
            if now - entry.last_seen < self.trace_timeout:
                break
            closed.append(self._close(trace_id, "timeout"))
        return closed

    def drain(self) -> list[ClosedTrace[S]]:
        """Close every open trace (reason ``"shutdown"``), oldest first."""
        return [self._close(trace_id, "shutdown") for trace_id in list(self._open)]

    def _close(self, trace_id: str, reason: str | None) -> ClosedTrace[S]:
        entry = self._open.pop(trace_id)
        self._closed[trace_id] = None
        while len(self._closed) > self.max_open_traces:
            self._closed.popitem(last=False)
        return ClosedTrace(trace_id, entry.spans, entry.root, reason)


__all__ = ["ClosedTrace", "TraceBuffer"]
