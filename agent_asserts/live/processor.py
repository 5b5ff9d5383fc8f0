"""What both live processors share on top of the engine: their options and their counters.

A processor subclasses :class:`LiveProcessor` with the span type of its tracing library, names
its ``record_format``, and implements two methods: ``_document(closed_trace)`` (the trace as a
document of that format) and ``_emit_events(closed_trace, results)`` (the results back into
the trace).

>>> class Demo(LiveProcessor[str]):
...     record_format = "native"
...     def _document(self, closed): return {"steps": len(closed.spans)}
...     def _emit_events(self, closed, results): print("emit", [r.name for r in results])
>>> demo = Demo(lambda ctx: ctx.max_steps(2))
>>> demo._engine.span_ended("t1", "root", root=True)
emit ['<lambda>']
>>> demo.stats.evaluated
1
"""

from __future__ import annotations

import abc
import concurrent.futures
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypedDict

from agent_asserts._deadline import DEFAULT_CASE_TIMEOUT
from agent_asserts.live.buffer import ClosedTrace, S
from agent_asserts.live.engine import LiveEngine, OnResult
from agent_asserts.live.evaluation import SuiteLike, one_record
from agent_asserts.live.stats import LiveStats

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord
    from agent_asserts.results import CaseResult

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


class LiveProcessor(abc.ABC, Generic[S]):
    """The options every live processor takes, validated, and its engine and counters.

    ``to_record`` reads the trace's document (default: the registered ``record_format``);
    ``timeout`` is each case's hard time limit in seconds (default 60, ``None``: none).
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


__all__ = ["EMIT_CHOICES", "LiveOptions", "LiveProcessor"]
