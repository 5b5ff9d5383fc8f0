"""MLflow traces → :class:`~agent_asserts.record.TrialRecord` (``mlflow``), one per trace.

Reads ``Trace.to_json()`` / ``Trace.to_dict()`` (``{"info": {...}, "data": {"spans": [...]}}``)
of MLflow 3 (spans in the OTel-like shape: ``span_id``/``parent_span_id`` in base64,
``start_time_unix_nano``, ``status.code``) and of MLflow 2 (``context.span_id``/``parent_id``
in hex, ``start_time`` in nanoseconds, ``status_code``), or a list of such traces. Every span
attribute is JSON text, as MLflow writes it. JSON data only; MLflow is not imported.

========================================  ===================================================
span (``mlflow.spanType``)                record
========================================  ===================================================
the root span (unless a model or tool)    the root agent (``metadata.agent``); its inputs /
                                          outputs (or the trace's request / response) give
                                          the user message and the reply when no model span
                                          records them; its error fails the run
``CHAT_MODEL``, ``LLM``                   ``model_call``: usage from ``mlflow.chat.tokenUsage``
                                          or the outputs (OpenAI ``usage``, LangChain
                                          ``usage_metadata``); messages from the inputs and
                                          outputs (OpenAI or LangChain) give user and agent
                                          messages and the calls asked for
``TOOL``                                  ``tool_call``: the span name, inputs → arguments,
                                          outputs → result; status ERROR → failed with the
                                          ``exception`` event's type and message
``AGENT`` below the root                  a ``delegation`` (``mode`` ``tool``)
other types (``CHAIN``, ``RETRIEVER``…)   a ``span`` event (type, name, inputs, outputs)
========================================  ===================================================

>>> rec = to_record({"info": {"trace_id": "tr-1", "state": "OK"}, "data": {"spans": [
...     {"span_id": "AAAAAAAAAAE=", "parent_span_id": None, "name": "agent",
...      "start_time_unix_nano": 1, "end_time_unix_nano": 3, "status": {"code": "STATUS_CODE_OK"},
...      "attributes": {"mlflow.spanType": '"AGENT"', "mlflow.spanInputs": '"Refund A1"'}},
...     {"span_id": "AAAAAAAAAAI=", "parent_span_id": "AAAAAAAAAAE=", "name": "refund",
...      "start_time_unix_nano": 2, "end_time_unix_nano": 3,
...      "status": {"code": "STATUS_CODE_ERROR", "message": "gateway timed out"},
...      "attributes": {"mlflow.spanType": '"TOOL"', "mlflow.spanInputs": '{"id": "A1"}'}}]}})
>>> call = rec.tool_calls[0].payload
>>> call.arguments, call.outcome, call.error_message, rec.events[0].payload.text
({'id': 'A1'}, 'failed', 'gateway timed out', 'Refund A1')
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from typing import Any, Final

from agent_asserts._values import MISSING
from agent_asserts.record.adapters._span_tree import (
    AgentInfo,
    ModelInfo,
    Span,
    SpanEvent,
    Step,
    ToolInfo,
    build_record,
)
from agent_asserts.record.adapters.langsmith import io_messages, io_text, io_usage
from agent_asserts.record.adapters.otel import BadSpan, otlp_id, seconds
from agent_asserts.record.adapters.toolkit import (
    items,
    json_or_text,
    mapping,
    only_record,
    openai_usage,
    parse_arguments,
    read_documents,
)
from agent_asserts.record.errors import Problem, RecordError
from agent_asserts.record.trial import TrialRecord

FORMAT: Final = "mlflow"
"""The name this module is registered under (the record-format registry finds it)."""
ORDER: Final = 180
"""Its place among the built-in formats (their listing and error-message order)."""

REPORTED_BY: Final = "MLflow chat spans: as the traced model reported it"
MODEL_TYPES: Final = frozenset({"CHAT_MODEL", "LLM"})
"""The ``mlflow.spanType`` values of a model call."""


def _is_trace(item: Any) -> bool:
    return (
        (type(item) is dict or isinstance(item, Mapping))
        and isinstance(item.get("info"), Mapping)
        and isinstance(item.get("data"), Mapping)
        and isinstance(item["data"].get("spans"), list)
    )


def detect(data: Any) -> bool:
    """Whether ``data`` is an MLflow trace (``Trace.to_dict()``) or a list of them.

    >>> detect({"info": {"trace_id": "tr-1"}, "data": {"spans": []}}), detect({"info": {}})
    (True, False)
    """
    if isinstance(data, list):
        return bool(data) and all(_is_trace(item) for item in data[:20])
    return _is_trace(data)


def _attribute(value: Any) -> Any:
    """An attribute as MLflow wrote it (JSON text), decoded; text that is not JSON as is."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except (json.JSONDecodeError, RecursionError):
            return value
    return value


def _hex(value: Any) -> str | None:
    """A span id: MLflow 2's hex (``0x…``) or MLflow 3's base64, as lower-case hex."""
    if isinstance(value, str) and value.startswith("0x"):
        value = value[2:]
    return otlp_id(value)


def decode_span(raw: Any, where: str) -> Span:
    """A span of either MLflow shape as a :class:`Span` (attributes decoded).

    Raises:
        BadSpan: No readable span id, or a time that is not a number of nanoseconds.
    """
    if not isinstance(raw, Mapping):
        raise BadSpan("a span must be an object")
    context = mapping(raw.get("context"))
    span_id = _hex(raw.get("span_id", context.get("span_id")))
    if span_id is None:
        raise BadSpan("a span without a span_id")
    parent = _hex(raw.get("parent_span_id", raw.get("parent_id")))
    status = mapping(raw.get("status"))
    code = str(status.get("code", raw.get("status_code", "")))
    message = status.get("message", raw.get("status_message"))
    attributes = {str(k): _attribute(v) for k, v in mapping(raw.get("attributes")).items()}
    events = tuple(
        SpanEvent(
            str(mapping(event).get("name")),
            seconds(mapping(event).get("time_unix_nano", mapping(event).get("timestamp"))),
            {str(k): _attribute(v) for k, v in mapping(mapping(event).get("attributes")).items()},
        )
        for event in items(raw.get("events"))
    )
    kind = attributes.get("mlflow.spanType")
    return Span(
        span_id=span_id,
        parent_id=parent,
        name=str(raw.get("name") or kind or "span"),
        position=where,
        start=seconds(raw.get("start_time_unix_nano", raw.get("start_time"))),
        end=seconds(raw.get("end_time_unix_nano", raw.get("end_time"))),
        attributes=attributes,
        events=events,
        error=code.endswith("ERROR"),
        error_message=str(message) if code.endswith("ERROR") and message else None,
        kind=str(kind) if kind is not None else None,
    )


def _exception(span: Span) -> tuple[str | None, str | None]:
    for event in span.events:
        if event.name == "exception":
            kind, message = (
                event.attributes.get("exception.type"),
                event.attributes.get("exception.message"),
            )
            return (str(kind) if kind else None), (str(message) if message else None)
    return None, None


def _model(span: Span) -> ModelInfo:
    a = span.attributes
    inputs, outputs = a.get("mlflow.spanInputs"), a.get("mlflow.spanOutputs")
    raw = a.get("mlflow.chat.tokenUsage")
    found = openai_usage(raw) if isinstance(raw, Mapping) else io_usage(outputs)
    found = found or {}
    chat = (
        io_messages({"messages": a["mlflow.chat.messages"]})
        if a.get("mlflow.chat.messages")
        else []
    )
    first_output = next((i for i, m in enumerate(chat) if m.get("role") == "assistant"), len(chat))
    names = [mapping(inputs).get("model"), mapping(outputs).get("model"), a.get("mlflow.llm.model")]
    return ModelInfo(
        model=next((n for n in names if isinstance(n, str) and n), None),
        provider=a.get("mlflow.llm.provider")
        if isinstance(a.get("mlflow.llm.provider"), str)
        else None,
        input_tokens=found.get("input_tokens"),
        output_tokens=found.get("output_tokens"),
        details=dict(mapping(found.get("details"))),
        reported_by=REPORTED_BY if found else None,
        input=tuple(io_messages(inputs) or chat[:first_output]),
        output=tuple(io_messages(outputs) or chat[first_output:]),
    )


def _tool(span: Span, problems: list[tuple[str, str, Any]]) -> ToolInfo:
    a = span.attributes
    inputs = a.get("mlflow.spanInputs", MISSING)
    arguments, arguments_raw, problem = (MISSING, None, None)
    if inputs is not MISSING:
        arguments, arguments_raw, problem = parse_arguments(inputs)
    if problem is not None:
        problems.append((f"{span.position}.attributes[mlflow.spanInputs]", problem, arguments_raw))
    error_type, message = _exception(span)
    result = json_or_text(a.get("mlflow.spanOutputs"))
    return ToolInfo(
        name=span.name,
        arguments=arguments,
        arguments_raw=arguments_raw,
        result=result,
        is_error=span.error,
        outcome="failed" if span.error else "succeeded",
        error_type=error_type if span.error else None,
        error_message=(span.error_message or message) if span.error else None,
    )


def interpret(span: Span, root: bool) -> Step:
    """The :class:`Step` of one MLflow span (``root``: the trace's top span).

    >>> span = Span("a", None, "lookup", "spans[0]", attributes={"mlflow.spanType": "TOOL"})
    >>> interpret(span, root=False).role
    'tool'
    """
    a = span.attributes
    kind = str(span.kind or a.get("mlflow.spanType") or "UNKNOWN").upper()
    if kind in MODEL_TYPES:
        return Step(span, "model", model=_model(span))
    if kind == "TOOL":
        problems: list[tuple[str, str, Any]] = []
        return Step(span, "tool", tool=_tool(span, problems), problems=tuple(problems))
    if root or kind == "AGENT":
        output = a.get("mlflow.spanOutputs")
        info = AgentInfo(
            span.name, input=io_text(a.get("mlflow.spanInputs")), output=io_text(output)
        )
        return Step(span, "agent", agent=info)
    payload: dict[str, Any] = {"type": kind, "name": span.name}
    for key, name in (("mlflow.spanInputs", "inputs"), ("mlflow.spanOutputs", "outputs")):
        if a.get(key) is not None:
            payload[name] = a[key]
    return Step(span, "other", payload=payload)


def _traces(data: Any) -> Iterator[tuple[str, Mapping[str, Any]]]:
    if _is_trace(data):
        yield "$", data
        return
    if not isinstance(data, list):
        message = (
            f"expected an MLflow trace {{'info', 'data': {{'spans'}}}} (got {type(data).__name__})"
        )
        raise RecordError([Problem("$", message)])
    for index, trace in enumerate(data):
        if _is_trace(trace):
            yield f"$[{index}]", trace


def to_records(data: Any, *, source: str | None = None) -> Iterator[TrialRecord]:
    """One record per trace.

    >>> trace = {"info": {"trace_id": "tr-1"}, "data": {"spans": []}}
    >>> other = {**trace, "info": {"trace_id": "tr-2"}}
    >>> [r.metadata["trace_id"] for r in to_records([trace, other])]
    ['tr-1', 'tr-2']
    """
    for prefix, trace in _traces(data):
        info = mapping(trace.get("info"))
        spans: list[Span] = []
        errors: list[tuple[str, str, Any]] = []
        for index, raw in enumerate(trace["data"]["spans"]):
            where = f"{prefix}.data.spans[{index}]"
            try:
                spans.append(decode_span(raw, where))
            except BadSpan as exc:
                errors.append((where, str(exc), raw))
        ids = {span.span_id for span in spans}
        steps = []
        for span in spans:
            try:
                steps.append(interpret(span, root=span.parent_id not in ids))
            except (TypeError, AttributeError, ValueError) as exc:
                errors.append(
                    (span.position, f"unreadable span: {type(exc).__name__}: {exc}", None)
                )
        metadata: dict[str, Any] = {}
        trace_id = info.get("trace_id", info.get("request_id"))
        if trace_id is not None:
            metadata["trace_id"] = str(trace_id)
        state = info.get("state", info.get("status"))
        if state is not None:
            metadata["state"] = str(state)
        request = trace["data"].get("request", info.get("request_preview"))
        response = trace["data"].get("response", info.get("response_preview"))
        fallback = AgentInfo(
            "trace", input=io_text(_attribute(request)), output=io_text(_attribute(response))
        )
        yield build_record(
            steps, source=source, metadata=metadata, parse_errors=errors, fallback=fallback
        )


def to_record(data: Any, *, source: str | None = None) -> TrialRecord:
    """The record of an export holding one trace.

    Raises:
        RecordError: Not an MLflow trace, or several (use :func:`to_records`).
    """
    return only_record(to_records(data, source=source), "traces", source)


def read(path: str | os.PathLike[str], **options: Any) -> TrialRecord:
    """The record of a ``Trace.to_json()`` file (JSON, or JSON Lines of traces)."""
    return to_record(read_documents(path, FORMAT), **options)


__all__ = [
    "MODEL_TYPES",
    "REPORTED_BY",
    "decode_span",
    "detect",
    "interpret",
    "read",
    "to_record",
    "to_records",
]
