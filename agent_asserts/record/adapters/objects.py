"""Objects the SDKs hand you, as the plain data the formats read.

``TrialRecord.from_trace`` and ``iter_records`` take what a library gives a user, without
``model_dump()`` glue: :func:`plain_data` runs before format detection and turns such objects
(also inside lists and dicts: ``ChatCompletionMessage`` objects mixed into a message list, a
LangGraph state holding ``BaseMessage`` objects) into the JSON data the adapters read:

* a pydantic model (OpenAI, Anthropic, LangChain, google-genai, MCP types):
  ``model_dump(mode="json", by_alias=True, exclude_none=True)``, the wire spelling;
* pydantic-ai messages and run results: the JSON ``ModelMessagesTypeAdapter`` writes
  (``result.all_messages()`` for a run result);
* an MLflow ``Trace`` (what ``mlflow.get_trace`` gives): its ``to_dict()``;
* OpenTelemetry SDK spans (``ReadableSpan``, what ``InMemorySpanExporter`` gives): one OTLP/JSON
  document for a sequence of them; ``span.to_json()`` text (or its parsed dict) likewise;
* OpenAI Agents SDK traces and spans: their ``export()``; a run result: ``to_input_list()``;
* an MCP ``SessionMessage``: its JSON-RPC message;
* a LangSmith ``Run`` or ``RunTree``: its fields and its ``child_runs``;
* any other dataclass: its fields; a ``datetime`` or ``date``: its ISO text; a ``UUID``: its
  text; an ``Enum``: its value.

An object of no known kind is a :class:`~agent_asserts.record.errors.RecordError` naming its
type, where it was and the nearest form the library reads. Nothing here imports an SDK unless
the object comes from it: the dispatch is by the object's own module and methods.

>>> import dataclasses
>>> @dataclasses.dataclass
... class Turn:
...     role: str
...     content: str
>>> plain_data([Turn("user", "hi"), {"role": "assistant", "content": "hello"}])
[{'role': 'user', 'content': 'hi'}, {'role': 'assistant', 'content': 'hello'}]
>>> plain_data({"messages": [object()]})
Traceback (most recent call last):
...
agent_asserts.record.errors.RecordError: invalid record: 1 problem(s)
  $.messages[0]: cannot read an object of type 'object' (builtins.object) as trace data: pass JSON data (dicts, lists, strings, numbers) or an object of a supported SDK (docs/traces.md, "Objects from the SDKs")
"""  # noqa: E501

from __future__ import annotations

import base64
import dataclasses
import json
import types
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from enum import Enum
from typing import TYPE_CHECKING, Any, Final
from uuid import UUID

from agent_asserts._values import MAX_DEPTH
from agent_asserts.record.errors import Problem, RecordError
from agent_asserts.record.validators import child

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import ReadableSpan
    from opentelemetry.trace import SpanContext

_SCALARS: Final = (str, int, float, bool, type(None))
_IS_REMOTE_KNOWN: Final = 0x100
_IS_REMOTE: Final = 0x200
_KINDS: Final = {"INTERNAL": 1, "SERVER": 2, "CLIENT": 3, "PRODUCER": 4, "CONSUMER": 5}
_STATUS: Final = {"UNSET": 0, "OK": 1, "ERROR": 2}
_HINT: Final = (
    "pass JSON data (dicts, lists, strings, numbers) or an object of a supported SDK "
    '(docs/traces.md, "Objects from the SDKs")'
)


def plain_data(data: Any, *, source: str | None = None) -> Any:
    """``data`` with every SDK object in it turned into the plain data the formats read (see
    the module docs); plain data comes back as it is (the same object).

    Args:
        data: Parsed JSON data, an SDK object, or a list or dict holding some.
        source: A name shown in the error.

    Raises:
        RecordError: An object of no known kind (naming its type, its JSON path and what to
            pass instead), or one its library could not turn into data.

    >>> data = {"messages": [{"role": "user", "content": "hi"}]}
    >>> plain_data(data) is data
    True
    """
    data = _plain(data, "$", 1, source)
    if _is_span_json(data):
        return span_json_to_otlp([data])
    if type(data) is list and data and all(_is_span_json(item) for item in data):
        return span_json_to_otlp(data)
    return data


def _plain(value: Any, path: str, level: int, source: str | None) -> Any:
    kind = type(value)
    if kind in _SCALARS:
        return value
    if level > MAX_DEPTH:  # left to the depth check that reads it next
        return value
    if kind is dict or kind is list:
        return _container(value, path, level, source)
    if isinstance(value, Mapping):
        return {
            key: _plain(item, child(path, key), level + 1, source) for key, item in value.items()
        }
    if isinstance(value, list | tuple):
        if value and all(_is_otel_span(item) for item in value):
            return spans_to_otlp(value)
        return [_plain(item, child(path, i), level + 1, source) for i, item in enumerate(value)]
    converted = _object(value, path, source)
    return _plain(converted, path, level, source)


def _container(value: Any, path: str, level: int, source: str | None) -> Any:
    """A dict or list whose items may hold objects: copied only where one is found."""
    mapping = type(value) is dict
    if not mapping and value and all(_is_otel_span(item) for item in value):
        return spans_to_otlp(value)
    out: Any = None  # the copy (a dict or a list), made at the first item that changes
    for key, item in value.items() if mapping else enumerate(value):
        if type(item) in _SCALARS:
            continue
        new = _plain(item, child(path, key), level + 1, source)
        if new is not item:
            if out is None:
                out = dict(value) if mapping else list(value)
            out[key] = new
    return value if out is None else out


def _package(value: Any) -> str:
    return (type(value).__module__ or "").partition(".")[0]


def _object(value: Any, path: str, source: str | None) -> Any:
    """One object of an SDK as data (what it holds is converted by the caller next)."""
    if isinstance(value, date):  # a datetime too: ISO text, which every adapter reads
        return value.isoformat()
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, Enum):
        return value.value
    package = _package(value)
    try:
        if package == "pydantic_ai":
            return _pydantic_ai(value)
        if package == "agents" and callable(getattr(value, "to_input_list", None)):
            return value.to_input_list()  # a run result: the Responses items of the run
        if package == "agents" and callable(getattr(value, "export", None)):
            return value.export()  # a trace or a span: what the SDK posts to its ingest
        if package == "langsmith" and hasattr(value, "child_runs"):
            return _langsmith_run(value)  # a Run or RunTree: a RunTree leaves its children out
        if package == "mcp" and dataclasses.is_dataclass(value) and hasattr(value, "message"):
            return value.message  # a SessionMessage: its JSON-RPC message
        if package == "mlflow" and callable(getattr(value, "to_dict", None)):
            return value.to_dict()  # a Trace: what Trace.to_json() writes
        if _is_otel_span(value):
            return spans_to_otlp([value])
        if callable(getattr(type(value), "model_dump", None)) and hasattr(
            type(value), "model_fields"
        ):
            return value.model_dump(mode="json", by_alias=True, exclude_none=True)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    except RecordError:
        raise
    except Exception as exc:  # the library's own conversion failed on this object
        message = (
            f"cannot turn the {_type_name(value)} object into data: {type(exc).__name__}: {exc}"
        )
        raise RecordError([Problem(path, message, source)]) from None
    raise RecordError([Problem(path, _unknown(value), source)])


def _pydantic_ai(value: Any) -> Any:
    from pydantic_ai.messages import ModelMessagesTypeAdapter

    if callable(getattr(value, "all_messages", None)):  # AgentRunResult, StreamedRunResult
        value = value.all_messages()
        return ModelMessagesTypeAdapter.dump_python(list(value), mode="json")
    if dataclasses.is_dataclass(value) and hasattr(value, "parts"):  # a ModelMessage
        messages: list[Any] = [value]
        return ModelMessagesTypeAdapter.dump_python(messages, mode="json")[0]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    raise RecordError([Problem("$", _unknown(value))])


def _langsmith_run(run: Any) -> dict[str, Any]:
    """A LangSmith ``Run`` or ``RunTree`` with its ``child_runs``, which ``RunTree``'s dump
    leaves out (they stay objects here: the caller converts them the same way). Field names,
    not aliases: ``session_name`` and ``session_id``, as the API writes them."""
    data: dict[str, Any] = run.model_dump(mode="json", exclude_none=True)
    children = getattr(run, "child_runs", None)
    if children:
        data["child_runs"] = list(children)
    return data


def _type_name(value: Any) -> str:
    kind = type(value)
    return f"{kind.__qualname__!r} ({kind.__module__}.{kind.__qualname__})"


def _unknown(value: Any) -> str:
    """The message for an object of no known kind, with the nearest form that is read."""
    name = f"cannot read an object of type {_type_name(value)} as trace data"
    if isinstance(value, bytes | bytearray):
        hint = "decode the JSON text (a str is read as JSON text), or pass a file as a pathlib.Path"
    elif isinstance(value, set | frozenset):
        hint = "pass a list"
    elif isinstance(value, types.GeneratorType) or (
        isinstance(value, Iterable) and not isinstance(value, Sequence)
    ):
        hint = "pass a list of its items (list(...))"
    else:
        method = next(
            (m for m in ("to_dict", "model_dump", "dict", "export", "to_json", "json")
             if _has_method(value, m)),
            None,
        )  # fmt: skip
        hint = f"pass its {method}() (it has one), or {_HINT[5:]}" if method else _HINT
    return f"{name}: {hint}"


def _has_method(value: Any, name: str) -> bool:
    """True when ``value.name`` is callable; an attribute that raises is no method (the error
    is about the object, not its hint)."""
    try:
        return callable(getattr(value, name, None))
    except Exception:
        return False


# -- OpenTelemetry SDK spans ------------------------------------------------------------------


def _is_otel_span(value: Any) -> bool:
    """A span of the OpenTelemetry SDK (``ReadableSpan`` or a subclass), without importing it."""
    return (
        _package(value) == "opentelemetry"
        and callable(getattr(value, "get_span_context", None))
        and hasattr(value, "instrumentation_scope")
    )


def any_value(value: Any) -> dict[str, Any]:
    """One attribute value as an OTLP ``AnyValue`` (``bool`` before ``int``; ints as strings).

    >>> any_value(True), any_value(3), any_value([1.5, "a"])
    ({'boolValue': True}, {'intValue': '3'}, {'arrayValue': {'values': [{'doubleValue': 1.5}, {'stringValue': 'a'}]}})
    """  # noqa: E501
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value}
    if isinstance(value, str):
        return {"stringValue": value}
    if isinstance(value, bytes):
        return {"bytesValue": base64.b64encode(value).decode("ascii")}
    if isinstance(value, Mapping):
        return {"kvlistValue": {"values": key_values(value)}}
    if isinstance(value, Sequence):
        return {"arrayValue": {"values": [any_value(item) for item in value]}}
    return {"stringValue": str(value)}


def key_values(attributes: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """A mapping of attributes as a list of OTLP ``KeyValue``.

    >>> key_values({"n": 1})
    [{'key': 'n', 'value': {'intValue': '1'}}]
    """
    return [{"key": str(k), "value": any_value(v)} for k, v in (attributes or {}).items()]


def _flags(context: SpanContext, parent: SpanContext | None) -> int:
    flags = int(context.trace_flags) | _IS_REMOTE_KNOWN
    return flags | _IS_REMOTE if parent is not None and parent.is_remote else flags


def span_to_otlp(span: ReadableSpan) -> dict[str, Any]:
    """One ended span of the OpenTelemetry SDK as an OTLP/JSON ``Span`` object."""
    context = span.get_span_context()
    if context is None:
        raise ValueError(f"span {span.name!r} has no span context")
    out: dict[str, Any] = {
        "traceId": format(context.trace_id, "032x"),
        "spanId": format(context.span_id, "016x"),
    }
    if span.parent is not None:
        out["parentSpanId"] = format(span.parent.span_id, "016x")
    out["name"] = span.name
    out["kind"] = span.kind.value + 1  # the SDK counts from INTERNAL = 0, OTLP from UNSPECIFIED
    out["startTimeUnixNano"] = str(span.start_time or 0)
    out["endTimeUnixNano"] = str(span.end_time or span.start_time or 0)
    out["attributes"] = key_values(span.attributes)
    if span.events:
        out["events"] = [
            {"timeUnixNano": str(e.timestamp), "name": e.name,
             "attributes": key_values(e.attributes)}
            for e in span.events
        ]  # fmt: skip
    if span.links:
        out["links"] = [
            {"traceId": format(link.context.trace_id, "032x"),
             "spanId": format(link.context.span_id, "016x"),
             "attributes": key_values(link.attributes)}
            for link in span.links
        ]  # fmt: skip
    status: dict[str, Any] = {}
    if span.status.status_code.value:
        status["code"] = span.status.status_code.value
    if span.status.description:
        status["message"] = span.status.description
    out["status"] = status
    out["flags"] = _flags(context, span.parent)
    return out


def spans_to_otlp(spans: Iterable[ReadableSpan]) -> dict[str, Any]:
    """An OTLP/JSON ``ExportTraceServiceRequest`` holding the SDK's ``spans``, grouped by
    resource and scope (what ``InMemorySpanExporter.get_finished_spans()`` gives).

    >>> from opentelemetry.sdk.trace import TracerProvider
    >>> from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    >>> from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
    >>> exporter = InMemorySpanExporter()
    >>> provider = TracerProvider()
    >>> provider.add_span_processor(SimpleSpanProcessor(exporter))
    >>> with provider.get_tracer("demo").start_as_current_span("execute_tool lookup") as span:
    ...     span.set_attribute("gen_ai.tool.name", "lookup")
    >>> doc = spans_to_otlp(exporter.get_finished_spans())
    >>> otlp_span = doc["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
    >>> otlp_span["name"], otlp_span["kind"], otlp_span["attributes"]
    ('execute_tool lookup', 1, [{'key': 'gen_ai.tool.name', 'value': {'stringValue': 'lookup'}}])
    """
    resources: dict[int, tuple[Any, dict[tuple[str, str | None], list[dict[str, Any]]]]] = {}
    for span in spans:
        resource_key = id(span.resource)  # lives for this call only
        scopes = resources.setdefault(resource_key, (span.resource, {}))[1]
        scope = span.instrumentation_scope
        scope_key = ("", None) if scope is None else (scope.name, scope.version)
        scopes.setdefault(scope_key, []).append(span_to_otlp(span))
    resource_spans = []
    for resource, scopes in resources.values():
        scope_spans = []
        for (name, version), otlp_spans in scopes.items():
            scope_data: dict[str, Any] = {"name": name}
            if version:
                scope_data["version"] = version
            scope_spans.append({"scope": scope_data, "spans": otlp_spans})
        attributes = key_values(resource.attributes if resource is not None else None)
        resource_spans.append({"resource": {"attributes": attributes}, "scopeSpans": scope_spans})
    return {"resourceSpans": resource_spans}


def _is_span_json(value: Any) -> bool:
    """A span as the SDK's ``span.to_json()`` writes it (parsed)."""
    if not isinstance(value, Mapping):
        return False
    context = value.get("context")
    return (
        isinstance(context, Mapping)
        and isinstance(context.get("span_id"), str)
        and "start_time" in value
        and "name" in value
    )


def _hex_id(value: Any) -> Any:
    return value.removeprefix("0x") if isinstance(value, str) else value


def _nanos(value: Any) -> Any:
    """ISO text (``2026-05-01T10:00:00.123456Z``) as OTLP nanoseconds; anything else as is."""
    if not isinstance(value, str):
        return value
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return value
    whole = int(moment.timestamp())
    return str(whole * 1_000_000_000 + moment.microsecond * 1000)


def _span_json_span(span: Mapping[str, Any]) -> dict[str, Any]:
    context = span["context"]
    out: dict[str, Any] = {
        "traceId": _hex_id(context.get("trace_id")),
        "spanId": _hex_id(context.get("span_id")),
    }
    if span.get("parent_id") is not None:
        out["parentSpanId"] = _hex_id(span["parent_id"])
    out["name"] = span.get("name")
    kind = span.get("kind")
    if isinstance(kind, str):
        out["kind"] = _KINDS.get(kind.rpartition(".")[2], 0)
    out["startTimeUnixNano"] = _nanos(span.get("start_time"))
    out["endTimeUnixNano"] = _nanos(span.get("end_time") or span.get("start_time"))
    attributes = span.get("attributes")
    out["attributes"] = key_values(attributes) if isinstance(attributes, Mapping) else []
    events = span.get("events")
    if isinstance(events, list) and events:
        out["events"] = [
            {"timeUnixNano": _nanos(e.get("timestamp")), "name": e.get("name"),
             "attributes": key_values(e.get("attributes") or {})}
            if isinstance(e, Mapping) else e
            for e in events
        ]  # fmt: skip
    status = span.get("status")
    if isinstance(status, Mapping):
        code = _STATUS.get(str(status.get("status_code")), 0)
        out["status"] = {
            **({"code": code} if code else {}),
            **({"message": status["description"]} if status.get("description") else {}),
        }
    return out


def span_json_to_otlp(spans: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The spans ``span.to_json()`` writes (parsed), as one OTLP/JSON document, grouped by
    resource.

    >>> doc = span_json_to_otlp([{"name": "chat gpt-4o", "context": {"trace_id": "0x0a",
    ...     "span_id": "0x0b"}, "kind": "SpanKind.CLIENT", "parent_id": None,
    ...     "start_time": "2026-05-01T10:00:00Z", "end_time": "2026-05-01T10:00:01.5Z",
    ...     "status": {"status_code": "ERROR", "description": "boom"}, "attributes": {},
    ...     "events": [], "links": [], "resource": {"attributes": {"service.name": "shop"}}}])
    >>> span = doc["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
    >>> span["spanId"], span["kind"], span["endTimeUnixNano"], span["status"]
    ('0b', 3, '1777629601500000000', {'code': 2, 'message': 'boom'})
    """
    groups: dict[str, tuple[Any, list[dict[str, Any]]]] = {}
    for span in spans:
        resource = span.get("resource")
        attributes = resource.get("attributes") if isinstance(resource, Mapping) else None
        key = json.dumps(attributes, sort_keys=True, default=str)
        groups.setdefault(key, (attributes, []))[1].append(_span_json_span(span))
    return {
        "resourceSpans": [
            {"resource": {"attributes": key_values(attributes if isinstance(attributes, Mapping)
                                                   else None)},
             "scopeSpans": [{"scope": {"name": ""}, "spans": group}]}
            for attributes, group in groups.values()
        ]
    }  # fmt: skip


__all__ = [
    "any_value",
    "key_values",
    "plain_data",
    "span_json_to_otlp",
    "span_to_otlp",
    "spans_to_otlp",
]
