"""A format-neutral span: what the span-tree adapters (``otel``, ``openai-agents``, ``langfuse``)
read from their input before building a record.

>>> span = Span("a1", None, "invoke_agent refund", "spans[0]", start=1.5, end=2.0)
>>> span.duration
0.5
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import attrs


@attrs.frozen
class SpanEvent:
    """A timed event recorded on a span (an OTel ``exception`` event, a log event…).

    >>> SpanEvent("exception", 1.0, {"exception.message": "boom"}).attributes["exception.message"]
    'boom'
    """

    name: str
    time: float | None = None
    attributes: Mapping[str, Any] = attrs.field(factory=dict)


@attrs.frozen
class Span:
    """One span of a trace, with times in epoch seconds and ids as strings.

    Attributes:
        span_id: The span's id (unique within its trace).
        parent_id: The parent span's id, or None for a root.
        name: The span's name.
        position: Where the span was in the input (``resourceSpans[0]…spans[3]``).
        start: Start time in epoch seconds, or None.
        end: End time in epoch seconds, or None.
        trace_id: The trace the span belongs to, or None.
        attributes: The span's attributes as plain JSON data.
        events: The span's events.
        error: Whether the span ended in error.
        error_message: The error's description, if any.
        kind: The span kind (``internal``, ``client``…) or the format's type of the span.
        resource: The attributes of the resource that emitted the span.
        scope: The instrumentation scope's name, or None.

    >>> Span("b", "a", "execute_tool lookup", "spans[1]").parent_id
    'a'
    """

    span_id: str
    parent_id: str | None
    name: str
    position: str
    start: float | None = None
    end: float | None = None
    trace_id: str | None = None
    attributes: Mapping[str, Any] = attrs.field(factory=dict)
    events: tuple[SpanEvent, ...] = ()
    error: bool = False
    error_message: str | None = None
    kind: str | None = None
    resource: Mapping[str, Any] = attrs.field(factory=dict)
    scope: str | None = None

    @property
    def duration(self) -> float | None:
        """``end - start`` in seconds (never negative), or None when a time is missing.

        >>> Span("a", None, "x", "p", start=2.0, end=1.0).duration
        0.0
        """
        if self.start is None or self.end is None:
            return None
        return max(0.0, self.end - self.start)


def start_order(spans: list[Span]) -> list[Span]:
    """The spans by start time; a tie goes to the parent, then to the span that ended first,
    then to the smaller id — never to the input order, which exports do not keep.

    A span without a start time keeps its place after the span before it in the input.

    >>> spans = [Span("b", None, "b", "p1", start=2.0), Span("a", None, "a", "p0", start=1.0),
    ...          Span("c", "a", "c", "p2", start=1.0)]
    >>> [s.span_id for s in start_order(spans)]
    ['a', 'c', 'b']
    """
    parents = {span.span_id: span.parent_id for span in spans}

    def depth(span: Span) -> int:
        seen, parent = {span.span_id}, span.parent_id
        while parent is not None and parent in parents and parent not in seen:
            seen.add(parent)
            parent = parents[parent]
        return len(seen)

    keyed = []
    last = float("-inf")
    for index, span in enumerate(spans):
        if span.start is not None:
            last = span.start
        start = span.start if span.start is not None else last
        end = span.end if span.end is not None else float("inf")
        keyed.append(((start, depth(span), end, span.span_id, index), span))
    return [span for _, span in sorted(keyed, key=lambda item: item[0])]


def iso_seconds(value: Any) -> float | None:
    """An ISO 8601 time (``Z`` or an offset; naive means UTC) as epoch seconds, else None.

    >>> iso_seconds("2026-08-01T12:00:01.500Z"), iso_seconds("yesterday")
    (1785585601.5, None)
    """
    if not isinstance(value, str) or not value:
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


__all__ = ["Span", "SpanEvent", "iso_seconds", "start_order"]
