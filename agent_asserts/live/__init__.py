"""Live evaluation: the suites that gate CI, checked on traces as they complete.

* :class:`EvaluatingSpanProcessor` (extra ``otel``): an OpenTelemetry SDK span processor.
* :class:`agent_asserts.live.openai_agents.EvaluatingTracingProcessor` (extra
  ``openai-agents``): the same for the OpenAI Agents SDK's tracing.
* :class:`LiveStats`: the counters both expose as ``processor.stats``.
* ``agent-asserts watch``: the same on record files as they appear (``agent_asserts.cli.watch``).

Importing this package imports no tracing library; the processor classes import theirs. This
module is what both processors share: what is evaluated and emitted, the open traces, the
counters, the engine that evaluates each closed trace, and the processors' common base.

>>> from agent_asserts.live import LiveStats
>>> LiveStats().evaluated
0

**What is evaluated** (:class:`LiveSuite`). ``suite`` may be a loaded
:class:`~agent_asserts.loaders.Suite`, a suite file path, or a case function ``fn(ctx)``. A
suite file that cannot be loaded does not raise: every trace then gets one ``FAILED`` case
carrying an ``evaluator_error`` result that names the problem, so the application's tracing
goes on and the problem is visible where the verdicts are.

>>> from agent_asserts.testing import demo_record
>>> live = LiveSuite(lambda ctx: ctx.succeeded())
>>> [(r.name, r.verdict.value) for r in live.evaluate(demo_record())]
[('<lambda>', 'passed')]
>>> [r.results[0].status.value for r in LiveSuite("missing.yaml").evaluate(demo_record())]
['evaluator_error']

**What is emitted** for each case result: the ``gen_ai.evaluation.result`` event. The names
come from the OpenTelemetry GenAI semantic conventions (the evaluation event and its
``gen_ai.evaluation.*`` attributes, now kept in the semantic-conventions-genai repository);
``error.type`` is the general convention's attribute. Where the conventions leave a choice,
we chose (see docs/live.md): the label is the verdict, the score the case's mean score (left
out when no check was evaluated), the explanation the first failure line.

>>> from agent_asserts.results import AssertionResult, CaseResult
>>> bad = AssertionResult(name="stopped()", status="fail", score=0.0,
...                       message="expected status 'stopped', got 'completed'")
>>> evaluation_attributes(CaseResult("refund", "failed", results=(bad,)))
{'gen_ai.evaluation.name': 'refund', 'gen_ai.evaluation.score.label': 'failed', 'gen_ai.evaluation.score.value': 0.0, 'gen_ai.evaluation.explanation': "stopped(): expected status 'stopped', got 'completed'"}

**Open traces** (:class:`TraceBuffer`). A trace closes when its root span ends (``reason``
None), when it is the least recently active of more than ``max_open_traces`` open traces
(``"evicted"``), when it holds ``max_spans_per_trace`` spans (``"span_limit"``: a trace that
never ends holds no more), when no span came for ``trace_timeout`` seconds (``"timeout"``),
or when everything is drained at shutdown or flush (``"shutdown"``). The ids of recently
closed traces are remembered (as many as ``max_open_traces``), so a span that ends after its
trace was evaluated is counted as late instead of opening a second, rootless evaluation of
the same trace. The buffer is not thread-safe on its own: the engine calls it under its lock.

**Counters** (:class:`LiveStats`, a snapshot readable at any time, taken from
:class:`Counters`).

**The engine** (:class:`LiveEngine`). A processor tells the engine each ended span (``span_ended``)
with its trace id and whether it is the trace's root; the engine closes traces, turns each closed
trace into a record through ``build_record``, evaluates the suite on it (inline, or on the executor,
where at most ``max_queued_traces`` traces wait: a trace past that bound is not evaluated and its
cases say so, counted in ``dropped``), marks the results of an incomplete trace
(:func:`mark_incomplete`), counts everything, and delivers each case
result to ``on_result`` and ``emit``. Each case has a hard time limit (``timeout`` seconds, default
60, ``None``: none; the mechanism of ``run_case``): a case past it is ``FAILED`` naming the check
that was running, and the next case and trace are still evaluated. Nothing raised by a check, the
suite, the adapter, ``on_result`` or ``emit`` reaches the thread that ended the span.

**The processors' base** (:class:`LiveProcessor`). A processor subclasses it with the span
type of its tracing library, names its ``record_format``, and implements two methods:
``_document(closed_trace)`` (the trace as a document of that format) and
``_emit_events(closed_trace, results)`` (the results back into the trace).

>>> buf = TraceBuffer(max_open_traces=1, trace_timeout=60.0)
>>> buf.add("t1", "span a", root=False, now=0.0)
[]
>>> [(c.trace_id, c.spans, c.reason) for c in buf.add("t2", "span b", root=False, now=1.0)]
[('t1', ['span a'], 'evicted')]
>>> [(c.trace_id, c.reason) for c in buf.add("t2", "root", root=True, now=2.0)]
[('t2', None)]
>>> buf.add("t2", "late", root=False, now=3.0), buf.late
([], 1)
>>> stats = LiveStats(traces_seen=3, evaluated=2, open_traces=1)
>>> stats.traces_seen, stats.evicted, stats.to_dict()["open_traces"]
(3, 0, 1)
>>> from agent_asserts.record import TrialRecord
>>> seen = []
>>> engine = LiveEngine(lambda ctx: ctx.succeeded(), build_record=lambda trace:
...     TrialRecord(status="completed"), on_result=seen.append)
>>> engine.span_ended("t1", "root span", root=True)
>>> [(r.verdict.value, r.metadata["trace_id"]) for r in seen], engine.stats.evaluated
([('passed', 't1')], 1)
>>> engine.shutdown()
>>> class Demo(LiveProcessor[str]):
...     record_format = "native"
...     def _document(self, closed): return {"steps": len(closed.spans)}
...     def _emit_events(self, closed, results): print("emit", [r.name for r in results])
>>> demo = Demo(lambda ctx: ctx.max_steps(2))
>>> demo._engine.span_ended("t1", "root", root=True)
emit ['<lambda>']
>>> demo.stats.evaluated
1
"""  # noqa: E501

from __future__ import annotations

import abc
import concurrent.futures
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeAlias, TypedDict, TypeVar

import attrs

from agent_asserts._deadline import DEFAULT_CASE_TIMEOUT, check_limit
from agent_asserts.batch import load_error_text
from agent_asserts.integrations import Checks
from agent_asserts.loaders import Suite
from agent_asserts.record import Problem, RecordError
from agent_asserts.record.adapters import records_from_data
from agent_asserts.results import AssertionResult, CaseResult, Status, Verdict, VerdictResolver
from agent_asserts.runner import load_within

if TYPE_CHECKING:
    from agent_asserts.context import EvalContext
    from agent_asserts.live.otel import EvaluatingSpanProcessor
    from agent_asserts.record import TrialRecord


# -- what is evaluated and what is emitted ---------------------------------------------------------

SuiteLike: TypeAlias = "Suite | str | os.PathLike[str] | Callable[[EvalContext], Any]"

INCOMPLETE_REASONS = {
    "evicted": "evicted before its root span ended (max_open_traces reached)",
    "timeout": "evaluated after trace_timeout with no new span, its root span not ended",
    "span_limit": "evaluated at max_spans_per_trace spans, its root span not ended",
    "shutdown": "evaluated at shutdown or force_flush, its root span not ended",
}
"""Why a trace was evaluated before it was complete (``metadata["incomplete"]`` values)."""


def one_record(document: Any, format: str) -> TrialRecord:
    """The one run of ``document`` read as record format ``format`` (through the registry).

    Raises:
        RecordError: Unknown format, unreadable document, or not exactly one run in it.

    >>> one_record({"events": [], "steps": 2}, "native").steps
    2
    """
    records = list(records_from_data(document, format))
    if len(records) != 1:
        problem = Problem("$", f"expected one run in the {format} document, found {len(records)}")
        raise RecordError([problem])
    return records[0]


def error_cases(name: str, error: str, metadata: dict[str, Any] | None = None) -> list[CaseResult]:
    """One ``FAILED`` case carrying ``error`` as an ``evaluator_error`` result.

    >>> case = error_cases("live", "cannot load the suite s.yaml: no such file")[0]
    >>> case.verdict.value, case.results[0].status.value, case.error
    ('failed', 'evaluator_error', 'cannot load the suite s.yaml: no such file')
    """
    result = AssertionResult(name="evaluation", status=Status.EVALUATOR_ERROR, score=0.0,
                             message=error)  # fmt: skip
    return [CaseResult(name, Verdict.FAILED, results=(result,), error=error,
                       metadata=dict(metadata or {}))]  # fmt: skip


def has_error(case: CaseResult) -> bool:
    """Whether ``case`` carries an evaluator error (its own ``error`` or a result's status).

    >>> has_error(error_cases("c", "boom")[0]), has_error(CaseResult("c", "passed"))
    (True, False)
    """
    return case.error is not None or any(r.status is Status.EVALUATOR_ERROR for r in case.results)


def _incomplete_result(result: AssertionResult, reason: str, spans: int) -> AssertionResult:
    if not result.evaluated:
        return result
    word = "pass" if result.passed else "fail"
    seen = f"on the {spans} span{'s' if spans != 1 else ''} seen it would {word}"
    detail = f": {result.message}" if result.message else ""
    message = f"the trace is incomplete ({INCOMPLETE_REASONS[reason]}); {seen}{detail}"
    return attrs.evolve(result, status=Status.INVALID, score=0.0, message=message)


def mark_incomplete(case: CaseResult, reason: str, spans: int) -> CaseResult:
    """``case`` as evaluated on an incomplete trace: it never passes.

    Every evaluated result (``pass`` or ``fail``) becomes ``invalid``: what was missing could
    change it either way (a call not yet seen, a reply not yet given). Its message keeps what it
    would have been on the spans seen, so a violation seen before eviction stays visible.
    ``metadata["incomplete"]`` is ``reason``.

    >>> ok = AssertionResult(name="succeeded", status="pass", score=1.0)
    >>> case = mark_incomplete(CaseResult("c", "passed", results=(ok,)), "evicted", 3)
    >>> case.verdict.value, case.metadata["incomplete"], case.results[0].status.value
    ('failed', 'evicted', 'invalid')
    >>> print(case.results[0].message)
    the trace is incomplete (evicted before its root span ended (max_open_traces reached)); on the 3 spans seen it would pass
    """  # noqa: E501
    results = tuple(_incomplete_result(r, reason, spans) for r in case.results)
    verdict = VerdictResolver().resolve(
        results, error=case.error is not None, skipped=case.skip_reason is not None
    )
    metadata = {**case.metadata, "incomplete": reason}
    return attrs.evolve(case, results=results, verdict=verdict, metadata=metadata)


class LiveSuite:
    """The suite a live processor evaluates; :meth:`evaluate` never raises."""

    def __init__(self, suite: SuiteLike) -> None:
        self.load_error: str | None = None
        self.checks: Checks | None = None
        if isinstance(suite, str | os.PathLike):
            self.name = Path(suite).stem or "live"
            try:
                self.checks = Checks.of(suite, name=self.name)
            except Exception as exc:  # reported by every evaluation, never raised
                self.load_error = load_error_text("the suite", os.fspath(suite), exc)
        elif isinstance(suite, Suite) or callable(suite):
            name = suite.name if isinstance(suite, Suite) else getattr(suite, "__name__", None)
            self.name = name or "case"
            self.checks = Checks.of(suite, name=self.name)
        else:
            raise TypeError(
                "'suite' must be a loaded Suite, a suite file path or a case function "
                f"(got {type(suite).__name__})"
            )

    def evaluate(self, record: TrialRecord, timeout: float | None = None) -> list[CaseResult]:
        """Every case's result on ``record`` (an error becomes an ``evaluator_error`` case).

        ``timeout`` is each case's hard time limit in seconds (see ``run_case``): a case past
        it is ``FAILED`` naming the check that was running, the next case still runs.

        >>> import time
        >>> from agent_asserts.testing import demo_record
        >>> slow = LiveSuite(lambda ctx: time.sleep(5))
        >>> slow.evaluate(demo_record(), timeout=0.05)[0].error
        'TimeLimitExceeded: the case passed its time limit of 0.05s (outside any check)'
        """
        if self.checks is None:
            return error_cases(self.name, self.load_error or "the suite could not be loaded")
        try:
            return self.checks.evaluate(record, timeout=timeout)
        except Exception as exc:  # a raising suite never breaks the span pipeline
            return error_cases(self.name, f"evaluation raised {type(exc).__name__}: {exc}")


EVENT_NAME = "gen_ai.evaluation.result"
"""The event's name (GenAI semantic conventions)."""
SPAN_NAME = "gen_ai.evaluation"
"""The name of the short span that carries the events (our choice: see docs/live.md)."""
SCOPE_NAME = "agent_asserts.live"
"""The instrumentation scope of that span; the processors ignore spans of this scope."""


def first_failure(result: CaseResult) -> str | None:
    """The first line that explains why ``result`` did not pass, or None when it passed.

    The case's own error first, then the first failed result as ``name: first message line``.

    >>> from agent_asserts.results import CaseResult
    >>> first_failure(CaseResult("c", "failed", error="ValueError: boom\\nmore"))
    'ValueError: boom'
    """
    if result.error:
        return result.error.splitlines()[0]
    for assertion in result.results:
        if assertion.failed:
            line = assertion.message.splitlines()[0] if assertion.message else ""
            return f"{assertion.name}: {line}" if line else f"{assertion.name}: {assertion.status}"
    return None


def evaluation_attributes(result: CaseResult) -> dict[str, Any]:
    """The attributes of one ``gen_ai.evaluation.result`` event (see the module docstring)."""
    attributes: dict[str, Any] = {
        "gen_ai.evaluation.name": result.name,
        "gen_ai.evaluation.score.label": result.verdict.value,
    }
    score = result.score
    if score is not None:
        attributes["gen_ai.evaluation.score.value"] = float(score)
    explanation = first_failure(result)
    if explanation is not None:
        attributes["gen_ai.evaluation.explanation"] = explanation
    if has_error(result):
        attributes["error.type"] = "evaluator_error"
    incomplete = result.metadata.get("incomplete")
    if incomplete:
        attributes["agent_asserts.incomplete"] = str(incomplete)
    return attributes


# -- open traces, counters, the engine, the processors' base ---------------------------------------

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


DEFAULT_MAX_SPANS = 10_000
"""The default ``max_spans_per_trace``: the most spans one open trace holds."""

DEFAULT_MAX_QUEUED = 1_000
"""The default ``max_queued_traces``: the most closed traces waiting for the executor."""

DROPPED = (
    "trace {trace_id} was not evaluated: {queued} traces were already waiting for the executor "
    "(max_queued_traces)"
)


class TraceBuffer(Generic[S]):
    """Spans per open trace, least recently active first.

    >>> buf = TraceBuffer(max_open_traces=5, trace_timeout=60.0, max_spans_per_trace=2)
    >>> buf.add("t", "a", root=False, now=0.0)
    []
    >>> [(c.spans, c.reason) for c in buf.add("t", "b", root=False, now=1.0)]
    [(['a', 'b'], 'span_limit')]
    >>> buf.add("t", "c", root=False, now=2.0), buf.late
    ([], 1)
    """

    def __init__(
        self,
        *,
        max_open_traces: int,
        trace_timeout: float,
        max_spans_per_trace: int = DEFAULT_MAX_SPANS,
    ) -> None:
        self.max_open_traces = max_open_traces
        self.trace_timeout = trace_timeout
        self.max_spans_per_trace = max_spans_per_trace
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
        elif len(entry.spans) >= self.max_spans_per_trace:
            closed.append(self._close(trace_id, "span_limit"))
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


COUNTERS = (
    "traces_seen",
    "evaluated",
    "evicted",
    "span_limited",
    "timed_out",
    "failed_verdicts",
    "evaluation_errors",
    "delivery_errors",
    "late_spans",
    "dropped",
)
"""The names of the counters, in the order :meth:`LiveStats.to_dict` lists them."""


@attrs.frozen
class LiveStats:
    """What a live processor has done so far (a consistent snapshot, taken under its lock).

    Attributes:
        traces_seen: Traces with at least one span buffered.
        evaluated: Traces evaluated (complete, evicted, timed out or flushed).
        evicted: Traces evaluated early because ``max_open_traces`` were open.
        span_limited: Traces evaluated early because they held ``max_spans_per_trace`` spans.
        timed_out: Traces evaluated because no span came for ``trace_timeout`` seconds.
        failed_verdicts: Case results whose verdict was ``FAILED``.
        evaluation_errors: Case results that carry an evaluator error (a check or case that
            raised, a suite that could not load, a trace the adapter could not read).
        delivery_errors: Calls to ``on_result`` or emissions that raised (counted, never
            propagated).
        late_spans: Spans that ended after their trace was evaluated (not evaluated again).
        dropped: Traces not evaluated because ``max_queued_traces`` traces were already
            waiting for the executor (each case of each says so, through ``on_result``).
        open_traces: Traces buffered now.
    """

    traces_seen: int = 0
    evaluated: int = 0
    evicted: int = 0
    span_limited: int = 0
    timed_out: int = 0
    failed_verdicts: int = 0
    evaluation_errors: int = 0
    delivery_errors: int = 0
    late_spans: int = 0
    dropped: int = 0
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


OnResult = Callable[["CaseResult"], Any]
Emit = Callable[[ClosedTrace[Any], "list[CaseResult]"], Any]


def check_options(
    max_open_traces: Any,
    trace_timeout: Any,
    max_spans_per_trace: Any = DEFAULT_MAX_SPANS,
    max_queued_traces: Any = DEFAULT_MAX_QUEUED,
) -> None:
    """Reject bounds that are not numbers ≥ 1 (traces, spans) and > 0 (seconds), naming them.

    >>> check_options(0, 1.0)
    Traceback (most recent call last):
    ...
    ValueError: 'max_open_traces' must be an int >= 1 (got 0)
    >>> check_options(1, 1.0, max_spans_per_trace=1.5)
    Traceback (most recent call last):
    ...
    TypeError: 'max_spans_per_trace' must be an int >= 1 (got 1.5)
    """
    for name, value in (
        ("max_open_traces", max_open_traces),
        ("max_spans_per_trace", max_spans_per_trace),
        ("max_queued_traces", max_queued_traces),
    ):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"'{name}' must be an int >= 1 (got {value!r})")
        if value < 1:
            raise ValueError(f"'{name}' must be an int >= 1 (got {value!r})")
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
        max_spans_per_trace: int = DEFAULT_MAX_SPANS,
        max_queued_traces: int = DEFAULT_MAX_QUEUED,
    ) -> None:
        check_options(max_open_traces, trace_timeout, max_spans_per_trace, max_queued_traces)
        self._max_queued = max_queued_traces
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
            max_open_traces=max_open_traces,
            trace_timeout=trace_timeout,
            max_spans_per_trace=max_spans_per_trace,
        )
        self._counters = Counters()
        self._pending: set[concurrent.futures.Future[None]] = set()
        self._reserved = 0  # places in the executor's queue taken by submissions under way
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
            with self._lock:  # a place in the queue, taken before submitting (outside the lock)
                queued = len(self._pending) + self._reserved
                full = queued >= self._max_queued
                if not full:
                    self._reserved += 1
            if full:  # hold nothing more: the trace's cases say so
                error = DROPPED.format(trace_id=trace.trace_id, queued=queued)
                self._deliver(trace, error_cases(self.suite.name, error), dropped=True)
                continue
            try:
                future = self._executor.submit(self.evaluate, trace)
            except Exception as exc:  # a shut-down executor: say so in a result
                with self._lock:
                    self._reserved -= 1
                error = f"the executor refused the evaluation: {type(exc).__name__}: {exc}"
                self._deliver(trace, error_cases(self.suite.name, error))
                continue
            with self._lock:
                self._reserved -= 1
                self._pending.add(future)
            future.add_done_callback(self._forget)

    def _forget(self, future: concurrent.futures.Future[None]) -> None:
        with self._lock:
            self._pending.discard(future)

    def evaluate(self, trace: ClosedTrace[S]) -> None:
        """Build the record of ``trace`` (inside the case time limit), evaluate the suite on it
        and deliver each result."""
        try:
            record = load_within(lambda: self._build_record(trace), self._timeout)
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

    def _deliver(
        self, trace: ClosedTrace[S], results: list[CaseResult], *, dropped: bool = False
    ) -> None:
        results = [
            attrs.evolve(r, metadata={**r.metadata, "trace_id": trace.trace_id}) for r in results
        ]
        self._counters.add(
            evaluated=int(not dropped),
            dropped=int(dropped),
            evicted=int(trace.reason == "evicted"),
            span_limited=int(trace.reason == "span_limit"),
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


EMIT_CHOICES = ("event", None)


class LiveOptions(TypedDict, total=False):
    """The keyword options every live processor takes (see :class:`LiveProcessor`); a
    processor with options of its own takes these as ``**options: Unpack[LiveOptions]``."""

    on_result: OnResult | None
    emit: str | None
    max_open_traces: int
    trace_timeout: float
    executor: concurrent.futures.Executor | None
    to_record: Callable[[dict[str, Any]], TrialRecord] | None
    timeout: float | None
    max_spans_per_trace: int
    max_queued_traces: int


class LiveProcessor(abc.ABC, Generic[S]):
    """The options every live processor takes, validated, and its engine and counters.

    ``to_record`` reads the trace's document (default: the registered ``record_format``);
    ``timeout`` is each case's hard time limit in seconds (default 60, ``None``: none);
    ``max_spans_per_trace`` (default 10,000) bounds the spans one open trace holds and
    ``max_queued_traces`` (default 1,000) the closed traces waiting for the executor.
    """

    record_format: ClassVar[str]

    def __init__(
        self,
        suite: SuiteLike,
        *,
        on_result: OnResult | None = None,
        emit: str | None = "event",
        max_open_traces: int = 10_000,
        trace_timeout: float = 300.0,
        executor: concurrent.futures.Executor | None = None,
        to_record: Callable[[dict[str, Any]], TrialRecord] | None = None,
        timeout: float | None = DEFAULT_CASE_TIMEOUT,
        max_spans_per_trace: int = DEFAULT_MAX_SPANS,
        max_queued_traces: int = DEFAULT_MAX_QUEUED,
    ) -> None:
        if emit not in EMIT_CHOICES:
            raise ValueError(f"'emit' must be 'event' or None (got {emit!r})")
        self._to_record = to_record or partial(one_record, format=self.record_format)
        self._engine: LiveEngine[S] = LiveEngine(
            suite,
            build_record=self._build_record,
            count_spans=self._span_count,
            on_result=on_result,
            emit=self._emit_events if emit == "event" else None,
            max_open_traces=max_open_traces,
            trace_timeout=trace_timeout,
            executor=executor,
            timeout=timeout,
            max_spans_per_trace=max_spans_per_trace,
            max_queued_traces=max_queued_traces,
        )

    @property
    def stats(self) -> LiveStats:
        """The counters now (see :class:`~agent_asserts.live.LiveStats`), from any thread."""
        return self._engine.stats

    def _build_record(self, closed: ClosedTrace[S]) -> TrialRecord:
        return self._to_record(self._document(closed))

    def _span_count(self, closed: ClosedTrace[S]) -> int:
        """How many spans of the trace were seen (what an incomplete result reports)."""
        return len(closed.spans)

    @abc.abstractmethod
    def _document(self, closed: ClosedTrace[S]) -> dict[str, Any]:
        """One closed trace as a document of ``record_format``."""

    @abc.abstractmethod
    def _emit_events(self, closed: ClosedTrace[S], results: list[CaseResult]) -> None:
        """Put ``results`` back into the trace."""


def __getattr__(name: str) -> Any:
    if name == "EvaluatingSpanProcessor":
        from agent_asserts.live.otel import EvaluatingSpanProcessor

        return EvaluatingSpanProcessor
    raise AttributeError(f"module 'agent_asserts.live' has no attribute {name!r}")


__all__ = ["EvaluatingSpanProcessor", "LiveStats"]
