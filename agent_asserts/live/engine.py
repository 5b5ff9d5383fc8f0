"""The machinery both live processors share: buffer, timeouts, executor, evaluation, delivery.

A processor tells the engine each ended span (``span_ended``) with its trace id and whether it
is the trace's root; the engine closes traces (see :mod:`agent_asserts.live.buffer`), turns
each closed trace into a record through ``build_record``, evaluates the suite on it, marks the
results of an incomplete trace (:func:`~agent_asserts.live.evaluation.mark_incomplete`), counts
everything in :class:`~agent_asserts.live.stats.LiveStats`, and delivers each case result to
``on_result`` and ``emit``. Each case has a hard time limit (``timeout`` seconds, default
60, ``None``: none; the mechanism of ``run_case``): a case past it is ``FAILED`` naming the
check that was running, and the next case and trace are still evaluated. Nothing raised by a
check, the suite, the adapter, ``on_result`` or ``emit`` reaches the thread that ended the span.

>>> from agent_asserts.record import TrialRecord
>>> seen = []
>>> engine = LiveEngine(lambda ctx: ctx.succeeded(), build_record=lambda trace:
...     TrialRecord(status="completed"), on_result=seen.append)
>>> engine.span_ended("t1", "root span", root=True)
>>> [(r.verdict.value, r.metadata["trace_id"]) for r in seen], engine.stats.evaluated
([('passed', 't1')], 1)
>>> engine.shutdown()
"""

from __future__ import annotations

import concurrent.futures
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic

import attrs

from agent_asserts._deadline import DEFAULT_CASE_TIMEOUT, check_limit
from agent_asserts.live.buffer import ClosedTrace, S, TraceBuffer
from agent_asserts.live.evaluation import (
    LiveSuite,
    SuiteLike,
    error_cases,
    has_error,
    mark_incomplete,
)
from agent_asserts.live.stats import Counters, LiveStats
from agent_asserts.results import Verdict

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord
    from agent_asserts.results import CaseResult

OnResult = Callable[["CaseResult"], Any]
Emit = Callable[[ClosedTrace[Any], "list[CaseResult]"], Any]


def check_options(max_open_traces: Any, trace_timeout: Any) -> None:
    """Reject bounds that are not numbers ≥ 1 (traces) and > 0 (seconds), naming them.

    >>> check_options(0, 1.0)
    Traceback (most recent call last):
    ...
    ValueError: 'max_open_traces' must be an int >= 1 (got 0)
    """
    if isinstance(max_open_traces, bool) or not isinstance(max_open_traces, int):
        raise TypeError(f"'max_open_traces' must be an int >= 1 (got {max_open_traces!r})")
    if max_open_traces < 1:
        raise ValueError(f"'max_open_traces' must be an int >= 1 (got {max_open_traces!r})")
    if isinstance(trace_timeout, bool) or not isinstance(trace_timeout, int | float):
        raise TypeError(f"'trace_timeout' must be a number of seconds > 0 (got {trace_timeout!r})")
    if not trace_timeout > 0:
        raise ValueError(f"'trace_timeout' must be a number of seconds > 0 (got {trace_timeout!r})")


class LiveEngine(Generic[S]):
    """Buffers spans per trace and evaluates each trace once (see the module docstring)."""

    def __init__(
        self,
        suite: SuiteLike,
        *,
        build_record: Callable[[ClosedTrace[S]], TrialRecord],
        on_result: OnResult | None = None,
        emit: Emit | None = None,
        max_open_traces: int = 10_000,
        trace_timeout: float = 300.0,
        executor: concurrent.futures.Executor | None = None,
        clock: Callable[[], float] = time.monotonic,
        count_spans: Callable[[ClosedTrace[S]], int] = lambda trace: len(trace.spans),
        timeout: float | None = DEFAULT_CASE_TIMEOUT,
    ) -> None:
        check_options(max_open_traces, trace_timeout)
        self._timeout = check_limit(timeout)
        self.suite = LiveSuite(suite)
        self._build_record = build_record
        self._on_result = on_result
        self._emit = emit
        self._executor = executor
        self._clock = clock
        self._count_spans = count_spans
        self._lock = threading.Lock()
        self._buffer: TraceBuffer[S] = TraceBuffer(
            max_open_traces=max_open_traces, trace_timeout=trace_timeout
        )
        self._counters = Counters()
        self._pending: set[concurrent.futures.Future[None]] = set()
        self._stop = threading.Event()
        self._sweeper: threading.Thread | None = None
        self._shut = False

    @property
    def stats(self) -> LiveStats:
        """The counters now (thread-safe, any time)."""
        with self._lock:
            open_traces = len(self._buffer)
            extra = {"traces_seen": self._buffer.opened, "late_spans": self._buffer.late}
        stats = self._counters.snapshot(open_traces=open_traces)
        return attrs.evolve(stats, **extra)

    # -- input ------------------------------------------------------------------------------

    def span_ended(self, trace_id: str, span: S, *, root: bool) -> None:
        """Buffer one ended span; evaluate what closes (inline, or on the executor)."""
        if self._shut:
            return
        now = self._clock()
        with self._lock:
            closed = self._buffer.add(trace_id, span, root=root, now=now)
            closed += self._buffer.expire(now)
        self._start_sweeper()
        self._dispatch(closed)

    def sweep(self) -> None:
        """Evaluate the traces whose ``trace_timeout`` passed (the sweeper thread calls it)."""
        with self._lock:
            closed = self._buffer.expire(self._clock())
        self._dispatch(closed)

    def force_flush(self, timeout: float | None = None) -> bool:
        """Evaluate every open trace and wait (up to ``timeout`` seconds) for the executor.

        Returns False when evaluations were still running at the timeout.
        """
        with self._lock:
            closed = self._buffer.drain()
        self._dispatch(closed)
        with self._lock:
            pending = list(self._pending)
        if not pending:
            return True
        _, not_done = concurrent.futures.wait(pending, timeout=timeout)
        return not not_done

    def shutdown(self, timeout: float | None = None) -> None:
        """Evaluate everything still open, stop the sweeper; later spans are ignored."""
        self.force_flush(timeout)
        self._shut = True
        self._stop.set()
        sweeper = self._sweeper
        if sweeper is not None and sweeper is not threading.current_thread():
            sweeper.join(timeout=5.0)

    # -- work -------------------------------------------------------------------------------

    def _start_sweeper(self) -> None:
        if self._sweeper is not None:
            return
        with self._lock:
            if self._sweeper is not None:
                return
            interval = max(0.005, min(1.0, self._buffer.trace_timeout / 4))
            self._sweeper = threading.Thread(
                target=self._sweep_loop, args=(interval,), name="agent-asserts-live", daemon=True
            )
            self._sweeper.start()

    def _sweep_loop(self, interval: float) -> None:
        while not self._stop.wait(interval):
            try:
                self.sweep()
            except Exception:  # pragma: no cover - sweep itself never raises; stay alive anyway
                self._counters.add(evaluation_errors=1)

    def _dispatch(self, closed: list[ClosedTrace[S]]) -> None:
        for trace in closed:
            if self._executor is None:
                self.evaluate(trace)
                continue
            try:
                future = self._executor.submit(self.evaluate, trace)
            except Exception as exc:  # a shut-down executor: say so in a result
                error = f"the executor refused the evaluation: {type(exc).__name__}: {exc}"
                self._deliver(trace, error_cases(self.suite.name, error))
                continue
            with self._lock:
                self._pending.add(future)
            future.add_done_callback(self._forget)

    def _forget(self, future: concurrent.futures.Future[None]) -> None:
        with self._lock:
            self._pending.discard(future)

    def evaluate(self, trace: ClosedTrace[S]) -> None:
        """Build the record of ``trace``, evaluate the suite on it and deliver each result."""
        try:
            record = self._build_record(trace)
        except Exception as exc:  # an unreadable trace is a result, never an exception
            error = f"cannot build the record of trace {trace.trace_id}: "
            results = error_cases(self.suite.name, error + f"{type(exc).__name__}: {exc}")
        else:
            if trace.reason is not None:
                record = attrs.evolve(record, metadata={**record.metadata,
                                                        "incomplete": trace.reason})  # fmt: skip
            results = self.suite.evaluate(record, self._timeout)
            if trace.reason is not None:
                spans = self._count_spans(trace)
                results = [mark_incomplete(r, trace.reason, spans) for r in results]
        self._deliver(trace, results)

    def _deliver(self, trace: ClosedTrace[S], results: list[CaseResult]) -> None:
        results = [
            attrs.evolve(r, metadata={**r.metadata, "trace_id": trace.trace_id}) for r in results
        ]
        self._counters.add(
            evaluated=1,
            evicted=int(trace.reason == "evicted"),
            timed_out=int(trace.reason == "timeout"),
            failed_verdicts=sum(r.verdict is Verdict.FAILED for r in results),
            evaluation_errors=sum(has_error(r) for r in results),
        )
        if self._on_result is not None:
            for result in results:
                try:
                    self._on_result(result)
                except Exception:
                    self._counters.add(delivery_errors=1)
        if self._emit is not None:
            try:
                self._emit(trace, results)
            except Exception:
                self._counters.add(delivery_errors=1)


__all__ = ["Emit", "LiveEngine", "OnResult", "check_options"]
