"""OpenInference spans as flat rows → :class:`~agent_asserts.record.TrialRecord`
(``openinference``), one per trace.

Reads spans the way Arize Phoenix exports them (``get_spans_dataframe()`` written as JSON
records, or its span rows from the REST API): one object per span with ``name``,
``span_kind``, ``parent_id``, ``start_time``, ``end_time``, ``status_code``,
``status_message``, ``events``, ``context.span_id``, ``context.trace_id`` and the attributes
flattened into ``attributes.*`` keys (``attributes.tool.name``, ``attributes.input.value``,
``attributes.llm.token_count.prompt``…; message lists as lists of ``message.*`` objects, or
flattened further as ``attributes.llm.input_messages.0.message.role``). A nested
``attributes`` object is read too. Each span means what it means in ``otel`` (OpenInference
conventions, :func:`~agent_asserts.record.adapters.otel.interpret`); the record is built by the
shared span-tree builder. JSON data only; Phoenix is not imported.

>>> rows = [
...     {"name": "agent", "span_kind": "AGENT", "parent_id": None, "context.span_id": "a1",
...      "context.trace_id": "t1", "attributes.input.value": "Refund A1"},
...     {"name": "refund", "span_kind": "TOOL", "parent_id": "a1", "context.span_id": "b2",
...      "context.trace_id": "t1", "status_code": "ERROR", "status_message": "timed out",
...      "attributes.tool.name": "refund", "attributes.input.value": '{"id": "A1"}'}]
>>> rec = to_record(rows)
>>> call = rec.tool_calls[0].payload
>>> call.arguments, call.outcome, call.error_message, rec.events[0].payload.text
({'id': 'A1'}, 'failed', 'timed out', 'Refund A1')
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any, Final

from agent_asserts.record.adapters._span_tree import (
    Span,
    SpanEvent,
    Step,
    build_record,
    iso_seconds,
)
from agent_asserts.record.adapters.otel import interpret
from agent_asserts.record.adapters.toolkit import items, mapping, only_record, read_documents
from agent_asserts.record.errors import Problem, RecordError
from agent_asserts.record.trial import TrialRecord

FORMAT: Final = "openinference"
"""The name this module is registered under (the record-format registry finds it)."""
ORDER: Final = 190
"""Its place among the built-in formats (their listing and error-message order)."""

PREFIX: Final = "attributes."
"""The prefix of the flattened attribute keys of a row."""
_SCAN: Final = 20


def _is_row(item: Any) -> bool:
    return (
        (type(item) is dict or isinstance(item, Mapping))
        and "context.span_id" in item
        and ("span_kind" in item or any(str(key).startswith(PREFIX) for key in item))
    )


def detect(data: Any) -> bool:
    """Whether ``data`` is a list of OpenInference span rows (Phoenix's flat export), or one
    row (the first line of a JSON Lines file).

    >>> detect([{"name": "x", "span_kind": "LLM", "context.span_id": "a"}])
    True
    >>> detect([{"name": "x", "spanId": "a"}]), detect({"context.span_id": "a"})
    (False, False)
    """
    if isinstance(data, list):
        return bool(data) and all(_is_row(item) for item in data[:_SCAN])
    return _is_row(data)


def flatten(prefix: str, value: Any, out: dict[str, Any]) -> None:
    """``value`` under ``prefix`` as OTel's flat attribute keys: a list of objects becomes
    ``prefix.N.key`` keys (recursively), a nested object ``prefix.key`` keys.

    >>> found = {}
    >>> flatten("llm.input_messages", [{"message.role": "user", "message.contents": [
    ...     {"message_content.text": "hi"}]}], found)
    >>> sorted(found)
    ['llm.input_messages.0.message.contents.0.message_content.text',
     'llm.input_messages.0.message.role']
    """
    if isinstance(value, Mapping):
        for key, inner in value.items():
            flatten(f"{prefix}.{key}" if prefix else str(key), inner, out)
    elif isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
        for index, inner in enumerate(value):
            flatten(f"{prefix}.{index}", inner, out)
    else:
        out[prefix] = value


def _time(value: Any) -> float | None:
    """ISO text, or an epoch number (pandas writes milliseconds; seconds to nanoseconds are
    told by size)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        for scale, above in ((1e9, 1e17), (1e6, 1e14), (1e3, 1e11)):
            if value > above:
                return value / scale
        return float(value)
    return iso_seconds(value)


def decode_row(row: Any, where: str) -> Span:
    """One row as a :class:`Span` (its attributes unflattened back into OTel's flat keys).

    Raises:
        ValueError: The row has no ``context.span_id``.
    """
    if not isinstance(row, Mapping) or row.get("context.span_id") in (None, ""):
        raise ValueError("a span row needs a 'context.span_id'")
    attributes: dict[str, Any] = {}
    flatten("", mapping(row.get("attributes")), attributes)
    for key, value in row.items():
        if str(key).startswith(PREFIX) and value is not None:
            flatten(str(key)[len(PREFIX) :], value, attributes)
    kind = row.get("span_kind")
    if isinstance(kind, str) and kind:
        attributes.setdefault("openinference.span.kind", kind)
    status = str(row.get("status_code") or "").upper()
    message = row.get("status_message")
    events = tuple(
        SpanEvent(
            str(mapping(event).get("name")),
            _time(mapping(event).get("timestamp")),
            dict(mapping(mapping(event).get("attributes"))),
        )
        for event in items(row.get("events"))
    )
    parent = row.get("parent_id")
    trace = row.get("context.trace_id")
    return Span(
        span_id=str(row["context.span_id"]),
        parent_id=str(parent) if parent not in (None, "") else None,
        name=str(row.get("name") or kind or "span"),
        position=where,
        start=_time(row.get("start_time")),
        end=_time(row.get("end_time")),
        trace_id=str(trace) if trace is not None else None,
        attributes=attributes,
        events=events,
        error=status == "ERROR",
        error_message=str(message) if status == "ERROR" and message else None,
        kind=str(kind) if kind is not None else None,
    )


def to_records(data: Any, *, source: str | None = None) -> Iterator[TrialRecord]:
    """One record per ``context.trace_id``, in the order the traces first appear.

    Raises:
        RecordError: ``data`` is not a list of rows.
    """
    data = [data] if isinstance(data, Mapping) else data
    if not isinstance(data, list):
        message = f"expected a list of OpenInference span rows (got {type(data).__name__})"
        raise RecordError([Problem("$", message, source)])
    traces: dict[str | None, list[tuple[str, Any]]] = {}
    for index, row in enumerate(data):
        trace = row.get("context.trace_id") if isinstance(row, Mapping) else None
        traces.setdefault(str(trace) if trace is not None else None, []).append(
            (f"$[{index}]", row)
        )
    for trace_id, rows in traces.items():
        steps: list[Step] = []
        errors: list[tuple[str, str, Any]] = []
        for where, row in rows:
            try:
                steps.append(interpret(decode_row(row, where)))
            except (ValueError, TypeError, AttributeError) as exc:
                reason = str(exc) if isinstance(exc, ValueError) else f"unreadable row: {exc}"
                errors.append((where, reason, row))
        metadata = {"trace_id": trace_id} if trace_id is not None else {}
        yield build_record(steps, source=source, metadata=metadata, parse_errors=errors)


def to_record(data: Any, *, source: str | None = None) -> TrialRecord:
    """The record of rows holding one trace.

    Raises:
        RecordError: Not span rows, or several traces (use :func:`to_records`).
    """
    return only_record(to_records(data, source=source), "traces", source)


def read_records(
    path: str | os.PathLike[str], *, source: str | None = None, **options: Any
) -> Iterator[TrialRecord]:
    """The records of a file of span rows: JSON records, or JSON Lines read whole (a trace's
    rows are spread over the lines)."""
    yield from to_records(read_documents(path, FORMAT), source=source or os.fspath(path))


def read(path: str | os.PathLike[str], **options: Any) -> TrialRecord:
    """The record of a file of span rows holding one trace."""
    return only_record(read_records(path, **options), "traces", options.get("source"))


__all__ = [
    "PREFIX",
    "decode_row",
    "detect",
    "flatten",
    "read",
    "read_records",
    "to_record",
    "to_records",
]
