"""OpenTelemetry traces (OTLP/JSON) → :class:`~agent_asserts.record.TrialRecord`, one per trace.

Reads the spans of agent runs as the GenAI semantic conventions describe them (v1.31 to the
current ones, deprecated attribute names included: ``gen_ai.system``,
``gen_ai.usage.prompt_tokens``, message *events* as well as the ``gen_ai.input.messages`` /
``gen_ai.output.messages`` attributes), as OpenInference (Arize Phoenix) describes them
(``openinference.span.kind``, ``llm.*``, ``tool.*``, flattened message lists), and as Pydantic
AI's instrumentation writes them (versions 2 to 6: ``agent run`` / ``running tool`` /
``tool_arguments`` as well as ``invoke_agent`` / ``execute_tool``).

Both OTLP/JSON shapes are read: the specification's (hex ids, integer enums) and protobuf
``MessageToDict``'s (base64 ids, enum names); ``intValue`` strings; nanosecond times (to
seconds); spans in any order (exports list them as they *ended*). The mapping:

=======================================  =========================================================
span                                     record
=======================================  =========================================================
``execute_tool`` / ``running tool`` /    ``tool_call``: ``gen_ai.tool.name``, call id,
OpenInference ``TOOL``                   arguments (``gen_ai.tool.call.arguments``,
                                         ``tool_arguments``, ``input.value``; JSON text parsed),
                                         result; status ERROR / ``error.type`` → ``is_error``,
                                         ``outcome`` (``retried`` for a Pydantic AI retry),
                                         ``error_type``, ``error_message``
inference (``chat …``, ``LLM``)          ``model_call`` with usage; its messages give user and
                                         agent ``message``, ``reasoning`` and the tool calls that
                                         have no tool span
``invoke_agent`` / ``agent run`` /       the root agent (record ``metadata.agent``); nested: a
``AGENT``                                ``delegation`` (``mode`` ``tool``); events inside name
                                         the ``agent``
OpenInference ``GUARDRAIL``              ``guardrail``
anything else                            a ``span`` event (name and attributes)
=======================================  =========================================================

>>> export = {"resourceSpans": [{"scopeSpans": [{"spans": [
...     {"traceId": "0af7651916cd43dd8448eb211c80319c", "spanId": "b7ad6b7169203331",
...      "name": "execute_tool lookup_order", "startTimeUnixNano": "1700000000000000000",
...      "endTimeUnixNano": "1700000000500000000", "attributes": [
...         {"key": "gen_ai.operation.name", "value": {"stringValue": "execute_tool"}},
...         {"key": "gen_ai.tool.call.arguments", "value": {"stringValue": "{\\"id\\": 7}"}}]}]}]}]}
>>> call = to_record(export).tool_calls[0]
>>> call.payload.name, call.payload.arguments, call.wall_time, call.duration
('lookup_order', {'id': 7}, 1700000000.0, 0.5)

**OTLP/JSON decoding**: typed attribute values, hex or base64 ids, integer or named enums,
nanosecond times as strings or integers.

Both shapes found in the wild are read: the OTLP/JSON specification's (hex ids, integer enums)
and protobuf ``MessageToDict``'s (base64 ids, enum names such as ``SPAN_KIND_CLIENT``).

>>> any_value({"intValue": "120"}), any_value({"arrayValue": {"values": [{"boolValue": True}]}})
(120, [True])
>>> otlp_id("MaFdqZhgZlQ="), otlp_id("31A15DA998606654")
('31a15da998606654', '31a15da998606654')

**Interpreting a span**: what an OTel span means, under the GenAI semantic conventions (v1.31
to current, deprecated names included), OpenInference, and Pydantic AI's instrumentation
(versions 2 to 6).

>>> from agent_asserts.record.adapters._span_tree import Span
>>> step = interpret(Span("s", None, "running tool", "spans[0]", attributes={
...     "gen_ai.tool.name": "lookup", "tool_arguments": '{"id": 1}', "tool_response": "ok"}))
>>> step.role, step.tool.arguments, step.tool.result
('tool', {'id': 1}, 'ok')
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Final

from agent_asserts._text import safe_repr
from agent_asserts._values import MISSING
from agent_asserts.errors import AgentAssertsError
from agent_asserts.record.adapters._span_tree import (
    AgentInfo,
    ModelInfo,
    Span,
    SpanEvent,
    Step,
    ToolInfo,
    build_record,
    call_ids,
    messages,
    openinference_messages,
    tool_of_span_name,
    unflatten,
)
from agent_asserts.record.adapters.toolkit import (
    count,
    json_or_text,
    only_record,
    parse_arguments,
    read_documents,
)
from agent_asserts.record.errors import Problem, RecordError
from agent_asserts.record.trial import TrialRecord

SPAN_KINDS: Final = ("unspecified", "internal", "server", "client", "producer", "consumer")
"""OTel span kinds by their protobuf number."""

_HEX: Final = re.compile(r"[0-9a-fA-F]+")
_ID_BYTES: Final = (8, 16)


class BadSpan(AgentAssertsError, ValueError):
    """Why one span (or one of its parts) could not be read."""


def any_value(value: Any) -> Any:
    """An OTLP ``AnyValue`` as plain data (``intValue`` strings become ints).

    A plain JSON value (an exporter that writes attributes as a dict) is returned as it is.

    >>> any_value({"kvlistValue": {"values": [{"key": "a", "value": {"doubleValue": 1.5}}]}})
    {'a': 1.5}
    >>> any_value({}) is None
    True
    """
    if not isinstance(value, Mapping):
        return value
    if "stringValue" in value:
        return value["stringValue"]
    if "intValue" in value:
        raw = value["intValue"]
        try:
            if isinstance(raw, bool):
                raise TypeError(raw)
            return int(raw)
        except (TypeError, ValueError, OverflowError):
            raise BadSpan(f"intValue {safe_repr(raw)[:60]} is not an integer") from None
    for key in ("boolValue", "doubleValue", "bytesValue"):
        if key in value:
            return value[key]
    if "arrayValue" in value:
        return [any_value(item) for item in _values(value["arrayValue"])]
    if "kvlistValue" in value:
        return attributes(_values(value["kvlistValue"]))
    if not value:
        return None
    return dict(value)


def _values(container: Any) -> list[Any]:
    values = container.get("values") if isinstance(container, Mapping) else None
    if values is not None and not isinstance(values, list):
        raise BadSpan(f"'values' must be a list (got {type(values).__name__})")
    return values or []


def attributes(raw: Any) -> dict[str, Any]:
    """A list of OTLP ``KeyValue`` (or an already plain mapping) as a dict.

    >>> attributes([{"key": "gen_ai.tool.name", "value": {"stringValue": "lookup"}}])
    {'gen_ai.tool.name': 'lookup'}
    """
    if raw is None:
        return {}
    if isinstance(raw, Mapping):
        return {str(key): any_value(value) for key, value in raw.items()}
    if not isinstance(raw, list):
        raise BadSpan(f"attributes must be a list of key/value objects (got {type(raw).__name__})")
    out: dict[str, Any] = {}
    for item in raw:
        if not isinstance(item, Mapping) or not isinstance(item.get("key"), str):
            raise BadSpan(f"an attribute must be an object with a string 'key' (got {item!r:.60})")
        out[item["key"]] = any_value(item.get("value"))
    return out


def otlp_id(value: Any) -> str | None:
    """A trace or span id as lower-case hex: from hex, base64 or an integer; None when empty.

    >>> otlp_id(""), otlp_id(4367525491550366967)
    (None, '3c9c914b5f52acf7')
    """
    if value is None or value == "":
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:016x}" if value < 2**64 else f"{value:032x}"
    if not isinstance(value, str):
        raise BadSpan(f"an id must be a string (got {type(value).__name__})")
    if len(value) in (16, 32) and _HEX.fullmatch(value):
        return value.lower()
    try:
        decoded = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        decoded = b""
    if len(decoded) in _ID_BYTES:
        return decoded.hex()
    raise BadSpan(f"the id {value!r} is neither hex nor base64 of 8 or 16 bytes")


def seconds(value: Any) -> float | None:
    """Epoch nanoseconds (a string or an integer) as epoch seconds; None when absent or 0.

    >>> seconds("1796080522579726488")
    1796080522.5797267
    >>> seconds(float("inf"))
    Traceback (most recent call last):
      ...
    agent_asserts.record.adapters.otel.BadSpan: the time inf is not a number of nanoseconds
    """
    if value is None or value in ("", 0, "0"):
        return None
    try:
        if isinstance(value, bool):
            raise TypeError(value)
        return int(value) / 1e9
    except (TypeError, ValueError, OverflowError):
        raise BadSpan(f"the time {safe_repr(value)[:60]} is not a number of nanoseconds") from None


def enum_name(value: Any, names: tuple[str, ...], prefix: str) -> str | None:
    """An OTLP enum as its short lower-case name, from its number or its protobuf name.

    >>> enum_name("SPAN_KIND_CLIENT", SPAN_KINDS, "SPAN_KIND_"), enum_name(1, SPAN_KINDS, "")
    ('client', 'internal')
    """
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return names[value] if 0 <= value < len(names) else str(value)
    if isinstance(value, str):
        return value.removeprefix(prefix).lower()
    raise BadSpan(f"expected an enum number or name (got {value!r:.40})")


def _status(raw: Any) -> tuple[bool, str | None]:
    if not isinstance(raw, Mapping):
        return False, None
    code = enum_name(raw.get("code"), ("unset", "ok", "error"), "STATUS_CODE_")
    message = raw.get("message")
    return code == "error", message if isinstance(message, str) and message else None


class Broken:
    """A container that is not what OTLP/JSON says it is, in place of its spans."""

    def __init__(self, reason: str) -> None:
        self.reason = reason


def decode_span(raw: Any, position: str, resource: Mapping[str, Any], scope: str | None) -> Span:
    """One OTLP/JSON span as a :class:`Span`.

    Raises:
        BadSpan: The span lacks an id or a name, or a field has the wrong shape.

    >>> span = decode_span({"spanId": "AAAAAAAAAAE=", "name": "chat", "kind": 3,
    ...                     "startTimeUnixNano": "2000000000"}, "spans[0]", {}, None)
    >>> span.span_id, span.kind, span.start
    ('0000000000000001', 'client', 2.0)
    """
    if isinstance(raw, Broken):
        raise BadSpan(raw.reason)
    if not isinstance(raw, Mapping):
        raise BadSpan(f"a span must be an object (got {type(raw).__name__})")
    try:
        return _decode(raw, position, resource, scope)
    except BadSpan:
        raise
    except (TypeError, AttributeError, ValueError, RecursionError) as exc:
        raise BadSpan(f"unreadable span: {type(exc).__name__}: {exc}") from None


def _decode(raw: Mapping[str, Any], position: str, resource: Mapping[str, Any], scope: Any) -> Span:
    span_id = otlp_id(raw.get("spanId", raw.get("span_id")))
    name = raw.get("name")
    if span_id is None:
        raise BadSpan("the span has no spanId")
    if not isinstance(name, str):
        raise BadSpan("the span has no name")
    error, message = _status(raw.get("status"))
    events = []
    if not isinstance(raw.get("events") or [], list):
        raise BadSpan("events must be a list")
    for event in raw.get("events") or ():
        if not isinstance(event, Mapping):
            raise BadSpan(f"a span event must be an object (got {type(event).__name__})")
        time = seconds(event.get("timeUnixNano"))
        events.append(
            SpanEvent(str(event.get("name", "")), time, attributes(event.get("attributes")))
        )
    return Span(
        span_id=span_id,
        parent_id=otlp_id(raw.get("parentSpanId", raw.get("parent_span_id"))),
        name=name,
        position=position,
        start=seconds(raw.get("startTimeUnixNano")),
        end=seconds(raw.get("endTimeUnixNano")),
        trace_id=otlp_id(raw.get("traceId", raw.get("trace_id"))),
        attributes=attributes(raw.get("attributes")),
        events=tuple(events),
        error=error,
        error_message=message,
        kind=enum_name(raw.get("kind"), SPAN_KINDS, "SPAN_KIND_"),
        resource=resource,
        scope=scope if isinstance(scope, str) else None,
    )


def iter_raw_spans(data: Any, where: str = "") -> Iterator[tuple[str, Any, dict[str, Any], Any]]:
    """``(position, span, resource attributes, scope)`` for every span of an OTLP/JSON export.

    ``data`` is an ``ExportTraceServiceRequest`` (``{"resourceSpans": [...]}``, older files
    say ``instrumentationLibrarySpans``), a list of them (a collector's file, line by line), or
    a ``{"resourceSpans"…}`` already split into one resource.

    >>> export = {"resourceSpans": [{"scopeSpans": [{"spans": [{"name": "x"}]}]}]}
    >>> [(where, span["name"]) for where, span, _, _ in iter_raw_spans(export)]
    [('resourceSpans[0].scopeSpans[0].spans[0]', 'x')]
    """
    if isinstance(data, list) and not where:  # a collector's file: one export per line
        for index, item in enumerate(data):
            yield from iter_raw_spans(item, f"[{index}].")
        return
    if not isinstance(data, Mapping):
        yield where.rstrip("."), Broken("an export must be an object"), {}, None
        return
    for r_index, resource_spans in enumerate(_list(data.get("resourceSpans"))):
        r_where = f"{where}resourceSpans[{r_index}]"
        if not isinstance(resource_spans, Mapping):
            yield r_where, Broken("resourceSpans items must be objects"), {}, None
            continue
        resource = resource_spans.get("resource")
        try:
            raw_attributes = resource.get("attributes") if isinstance(resource, Mapping) else None
            resource_attributes = attributes(raw_attributes)
        except (BadSpan, RecursionError) as exc:
            yield f"{r_where}.resource", Broken(str(exc)), {}, None
            resource_attributes = {}
        key = "scopeSpans" if "scopeSpans" in resource_spans else "instrumentationLibrarySpans"
        for s_index, scope_spans in enumerate(_list(resource_spans.get(key))):
            s_where = f"{r_where}.{key}[{s_index}]"
            if not isinstance(scope_spans, Mapping):
                yield s_where, Broken(f"{key} items must be objects"), {}, None
                continue
            scope = scope_spans.get("scope") or scope_spans.get("instrumentationLibrary")
            name = scope.get("name") if isinstance(scope, Mapping) else None
            for index, span in enumerate(_list(scope_spans.get("spans"))):
                yield f"{s_where}.spans[{index}]", span, resource_attributes, name


def _list(value: Any) -> list[Any]:
    """A list, or the one malformed item that stands for a value that should be a list."""
    if value is None:
        return []
    return value if isinstance(value, list) else [Broken(f"expected a list (got {value!r:.40})")]


MODEL_OPERATIONS: Final = frozenset(
    {"chat", "text_completion", "generate_content", "completion", "responses"}
)
"""``gen_ai.operation.name`` values of an inference span."""

REPORTED_BY: Final = (
    "OpenTelemetry GenAI conventions: input_tokens include cached tokens "
    "(cache_read_input_tokens and cache_creation_input_tokens in details)"
)
_OI_REPORTED_BY: Final = (
    "OpenInference: prompt tokens include cached tokens (cache_read, cache_write in details)"
)
_DETAILS: Final = {
    "gen_ai.usage.cache_read.input_tokens": "cache_read_input_tokens",
    "gen_ai.usage.cache_creation.input_tokens": "cache_creation_input_tokens",
    "gen_ai.usage.reasoning.output_tokens": "reasoning_output_tokens",
    "llm.token_count.prompt_details.cache_read": "cache_read_input_tokens",
    "llm.token_count.prompt_details.cache_write": "cache_creation_input_tokens",
    "llm.token_count.prompt_details.audio": "audio_input_tokens",
    "llm.token_count.completion_details.reasoning": "reasoning_output_tokens",
    "llm.token_count.completion_details.audio": "audio_output_tokens",
}
_EVENT_ROLES: Final = {
    "gen_ai.system.message": "system",
    "gen_ai.user.message": "user",
    "gen_ai.assistant.message": "assistant",
    "gen_ai.tool.message": "tool",
}


def _first(attributes: Mapping[str, Any], *keys: str) -> Any:
    return next((attributes[key] for key in keys if attributes.get(key) is not None), None)


def role_of(span: Span) -> str:
    """``agent``, ``model``, ``tool``, ``guardrail`` or ``other``, from attributes and name.

    >>> role_of(Span("s", None, "execute_tool lookup", "p")), role_of(Span("s", None, "GET /", "p"))
    ('tool', 'other')
    """
    attributes = span.attributes
    operation = attributes.get("gen_ai.operation.name")
    oi_kind = str(attributes.get("openinference.span.kind", "")).upper()
    name = span.name
    if operation == "execute_tool" or oi_kind == "TOOL" or name == "running tool":
        return "tool"
    if name.startswith("execute_tool "):
        return "tool"
    if operation == "invoke_agent" or oi_kind == "AGENT" or name == "agent run":
        return "agent"
    if name.startswith("invoke_agent "):
        return "agent"
    if operation in MODEL_OPERATIONS or oi_kind == "LLM":
        return "model"
    if oi_kind == "GUARDRAIL":
        return "guardrail"
    return "other"


def _exception(span: Span) -> tuple[str | None, str | None]:
    for event in span.events:
        if event.name in ("exception", "gen_ai.client.operation.exception"):
            kind = event.attributes.get("exception.type")
            message = event.attributes.get("exception.message")
            return (kind if isinstance(kind, str) else None), (
                message if isinstance(message, str) else None
            )
    return None, None


def _value(value: Any, mime: Any = None) -> Any:
    """A recorded value: JSON text parsed (when it parses), plain text as it is."""
    return value if mime not in (None, "application/json") else json_or_text(value)


def _tool(span: Span) -> tuple[ToolInfo, list[tuple[str, str, Any]]]:
    attributes = span.attributes
    name = _first(attributes, "gen_ai.tool.name", "tool.name", "tool_call.function.name")
    if not isinstance(name, str) or not name:
        name = tool_of_span_name(span.name) or span.name
    raw_args = _first(
        attributes, "gen_ai.tool.call.arguments", "tool_arguments", "input.value", "tool.arguments"
    )
    problems: list[tuple[str, str, Any]] = []
    arguments: Any = MISSING
    arguments_raw = None
    if raw_args is not None:
        arguments, arguments_raw, problem = parse_arguments(raw_args)
        if problem is not None:
            problems.append((f"{span.position}: {name} arguments", problem, arguments_raw))
    result = _first(attributes, "gen_ai.tool.call.result", "tool_response", "output.value")
    result = _value(result, attributes.get("output.mime_type"))
    error_type, exception_message = _exception(span)
    error_type = _first(attributes, "error.type") or error_type
    error = span.error or attributes.get("error.type") is not None
    outcome = "succeeded"
    error_message = None
    if error:
        outcome = "retried" if "pydantic_ai.tool.retry.cause" in attributes else "failed"
        error_message = span.error_message or exception_message
        if error_message is None and isinstance(result, str):
            error_message = result
        result = None if error_message == result else result
    ids = call_ids(_first(attributes, "gen_ai.tool.call.id", "tool.id", "tool_call.id"))
    server = _first(attributes, "mcp.server.name", "gen_ai.tool.mcp.server")
    tool = ToolInfo(
        name=name,
        call_id=ids[-1] if ids else None,
        call_ids=ids[:-1],
        arguments=arguments,
        arguments_raw=arguments_raw,
        result=result,
        is_error=error,
        outcome=outcome,
        error_type=str(error_type) if error_type is not None else None,
        error_message=error_message,
        mcp_server=server if isinstance(server, str) else None,
    )
    return tool, problems


def _message_attribute(span: Span, key: str, problems: list[tuple[str, str, Any]]) -> Any:
    value = span.attributes.get(key)
    if value is None:
        return None
    try:
        return messages(value)
    except (json.JSONDecodeError, RecursionError) as exc:
        problems.append((f"{span.position}.attributes[{key}]", f"not JSON: {exc}", value))
        return None


def _event_messages(span: Span) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The pre-v1.37 GenAI message events recorded on the span, as input and output messages."""
    inputs: list[dict[str, Any]] = []
    outputs: list[dict[str, Any]] = []
    for event in span.events:
        attributes = dict(event.attributes)
        body = attributes.pop("gen_ai.event.content", None)
        if isinstance(body, str):
            try:
                body = json.loads(body)
            except json.JSONDecodeError:
                body = {"content": body}
        fields = dict(body) if isinstance(body, Mapping) else {}
        fields.update({k: v for k, v in attributes.items() if not k.startswith("gen_ai.")})
        for key in ("message", "tool_calls"):
            fields[key] = json_or_text(fields.get(key))
        if event.name == "gen_ai.choice":
            message = fields["message"] if isinstance(fields.get("message"), Mapping) else fields
            outputs.extend(messages({**dict(message), "role": "assistant"}) or ())
        elif event.name in _EVENT_ROLES:
            fields["role"] = _EVENT_ROLES[event.name]
            if fields["role"] == "tool":
                fields["content"] = json_or_text(fields.get("content"))
            inputs.extend(messages({k: v for k, v in fields.items() if v is not None}) or ())
        elif event.name == "gen_ai.client.inference.operation.details":
            inputs.extend(messages(attributes.get("gen_ai.input.messages")) or ())
            outputs.extend(messages(attributes.get("gen_ai.output.messages")) or ())
    return inputs, outputs


def _flattened(attributes: Mapping[str, Any], prefix: str) -> list[dict[str, Any]]:
    """Pre-v1.28 ``gen_ai.prompt.N.*`` / ``gen_ai.completion.N.*`` attributes as messages."""
    out: list[dict[str, Any]] = []
    for item in unflatten(attributes, prefix):
        if "role" in item:
            out.extend(messages(item) or ())
    return out


def _model(span: Span) -> tuple[ModelInfo, list[tuple[str, str, Any]]]:
    a = span.attributes
    problems: list[tuple[str, str, Any]] = []
    inputs = _message_attribute(span, "gen_ai.input.messages", problems)
    outputs = _message_attribute(span, "gen_ai.output.messages", problems)
    if inputs is None and outputs is None:
        inputs, outputs = _event_messages(span)
        if not inputs and not outputs:
            inputs = openinference_messages(a, "input") or _flattened(a, "gen_ai.prompt.")
            outputs = openinference_messages(a, "output") or _flattened(a, "gen_ai.completion.")
    reasons = a.get("gen_ai.response.finish_reasons")
    if isinstance(reasons, list):
        reasons = reasons[0] if reasons else None
    details = {
        name: count(a[key]) for key, name in _DETAILS.items() if count(a.get(key)) is not None
    }
    openinference = "llm.token_count.prompt" in a or "llm.token_count.completion" in a
    model = ModelInfo(
        model=_first(a, "gen_ai.response.model", "gen_ai.request.model", "llm.model_name"),
        provider=_first(a, "gen_ai.provider.name", "gen_ai.system", "llm.provider", "llm.system"),
        finish_reason=reasons if isinstance(reasons, str) else None,
        input_tokens=count(
            _first(
                a,
                "gen_ai.usage.input_tokens",
                "gen_ai.usage.prompt_tokens",
                "llm.token_count.prompt",
            )
        ),
        output_tokens=count(
            _first(
                a,
                "gen_ai.usage.output_tokens",
                "gen_ai.usage.completion_tokens",
                "llm.token_count.completion",
            )
        ),
        details={k: v for k, v in details.items() if v is not None},
        reported_by=_OI_REPORTED_BY if openinference else REPORTED_BY,
        input=tuple(inputs or ()),
        output=tuple(outputs or ()),
        response_id=_first(a, "gen_ai.response.id"),
        system=_instructions(a.get("gen_ai.system_instructions")),
    )
    return model, problems


def _instructions(value: Any) -> str | None:
    """``gen_ai.system_instructions`` (parts as JSON text, or plain text) as text."""
    parts = json_or_text(value)
    if isinstance(parts, str):
        return parts or None
    if isinstance(parts, list):
        texts = [p.get("content") for p in parts if isinstance(p, Mapping)]
        return "".join(t for t in texts if isinstance(t, str)) or None
    return None


def _agent(span: Span) -> AgentInfo:
    a = span.attributes
    name = _first(a, "gen_ai.agent.name", "agent_name", "agent.name")
    if not isinstance(name, str) or not name:
        name = span.name.removeprefix("invoke_agent ").strip() or span.name
    output = _first(a, "final_result", "output.value")
    user = _first(a, "input.value")
    return AgentInfo(
        name=name,
        input=user if isinstance(user, str) else None,
        output=_value(output, a.get("output.mime_type")) if output is not None else None,
    )


def interpret(span: Span) -> Step:
    """The :class:`Step` of one OTel span.

    >>> step = interpret(Span("s", None, "chat gpt-4o", "p", attributes={
    ...     "gen_ai.operation.name": "chat", "gen_ai.usage.input_tokens": 12}))
    >>> step.role, step.model.input_tokens
    ('model', 12)
    """
    role = role_of(span)
    conversation = _first(span.attributes, "gen_ai.conversation.id", "session.id")
    conversation = str(conversation) if conversation is not None else None
    if role == "tool":
        tool, problems = _tool(span)
        return Step(span, role, tool=tool, problems=tuple(problems), conversation_id=conversation)
    if role == "model":
        model, problems = _model(span)
        return Step(span, role, model=model, problems=tuple(problems), conversation_id=conversation)
    if role == "agent":
        return Step(span, role, agent=_agent(span), conversation_id=conversation)
    if role == "guardrail":
        a = span.attributes
        triggered = bool(span.error) or str(a.get("guardrail.triggered", "")).lower() == "true"
        output = _value(a.get("output.value"), a.get("output.mime_type"))
        guardrail = (span.name, triggered, output)
        return Step(span, role, guardrail=guardrail, conversation_id=conversation)
    payload = {"name": span.name, "attributes": dict(span.attributes)}
    return Step(span, "other", payload=payload, conversation_id=conversation)


FORMAT: Final = "otel"
"""The name this module is registered under (the record-format registry finds it)."""
ORDER: Final = 100
"""Its place among the built-in formats (their listing and error-message order)."""

NAME = "otel"


def detect(data: Any) -> bool:
    """Whether ``data`` is an OTLP/JSON trace export (or a list of them, or of OTLP spans).

    >>> detect({"resourceSpans": []}), detect({"messages": []})
    (True, False)
    """
    if isinstance(data, list) and data:
        data = data[0]
        if isinstance(data, Mapping) and "spanId" in data and "traceId" in data:
            return True
    return (type(data) is dict or isinstance(data, Mapping)) and isinstance(
        data.get("resourceSpans"), list
    )


def _raw_spans(data: Any) -> Iterator[tuple[str, Any, dict[str, Any], Any]]:
    if isinstance(data, list) and data and isinstance(data[0], Mapping) and "spanId" in data[0]:
        for index, span in enumerate(data):
            yield f"[{index}]", span, {}, None
        return
    if not detect(data):
        keys = sorted(data)[:8] if isinstance(data, Mapping) else type(data).__name__
        message = f"expected an OTLP/JSON export {{'resourceSpans': [...]}} (got {keys})"
        raise RecordError([Problem("$", message)])
    yield from iter_raw_spans(data)


def _trace_key(raw: Any) -> str | None:
    try:
        return otlp_id(raw.get("traceId")) if isinstance(raw, Mapping) else None
    except BadSpan:
        return None


def to_records(data: Any, *, source: str | None = None) -> Iterator[TrialRecord]:
    """One record per trace id, in the order the traces first appear.

    >>> span = {"spanId": "b7ad6b7169203331", "name": "x"}
    >>> export = {"resourceSpans": [{"scopeSpans": [{"spans": [
    ...     {**span, "traceId": "0af7651916cd43dd8448eb211c80319c"},
    ...     {**span, "traceId": "1af7651916cd43dd8448eb211c80319c"}]}]}]}
    >>> [r.metadata["trace_id"][:4] for r in to_records(export)]
    ['0af7', '1af7']
    """
    traces: dict[str | None, list[tuple[str, Any, dict[str, Any], Any]]] = {}
    for item in _raw_spans(data):
        traces.setdefault(_trace_key(item[1]), []).append(item)
    for trace_id, items in traces.items():
        yield _record(items, trace_id, source)


def _record(
    items: Iterable[tuple[str, Any, dict[str, Any], Any]], trace_id: str | None, source: str | None
) -> TrialRecord:
    steps: list[Step] = []
    errors: list[tuple[str, str, Any]] = []
    services: set[str] = set()
    for position, raw, resource, scope in items:
        try:
            span = decode_span(raw, position, resource, scope)
        except BadSpan as exc:
            errors.append((position, str(exc), None if isinstance(raw, Broken) else raw))
            continue
        if isinstance(resource.get("service.name"), str):
            services.add(resource["service.name"])
        try:
            steps.append(interpret(span))
        except (TypeError, AttributeError, ValueError, RecursionError) as exc:
            errors.append((position, f"unreadable span: {type(exc).__name__}: {exc}", raw))
    metadata: dict[str, Any] = {}
    if trace_id is not None:
        metadata["trace_id"] = trace_id
    if services:
        metadata["service"] = sorted(services)[0] if len(services) == 1 else sorted(services)
    return build_record(steps, source=source, metadata=metadata, parse_errors=errors)


def to_record(data: Any, *, source: str | None = None) -> TrialRecord:
    """The record of an export holding one trace.

    Raises:
        RecordError: ``data`` is not an OTLP/JSON export, or it holds several traces (read
            those with :func:`to_records`).
    """
    return only_record(to_records(data, source=source), "traces", source)


def from_spans(
    spans: Iterable[Mapping[str, Any]],
    *,
    resource: Mapping[str, Any] | list[Any] | None = None,
    scope: str | None = None,
    source: str | None = None,
) -> TrialRecord:
    """The record of one trace from OTLP/JSON-shaped span dicts (the spans of one trace id).

    This is the function for a span processor that buffers a trace's spans: each span is a
    dict as in an OTLP/JSON export (``spanId``, ``parentSpanId``, ``name``,
    ``startTimeUnixNano``, ``attributes`` as key/value list or a plain dict, ``status``…).

    Args:
        spans: The trace's spans, in any order.
        resource: The resource attributes (key/value list or dict), if known.
        scope: The instrumentation scope's name, if known.
        source: A name shown in parse errors.

    >>> rec = from_spans([{"spanId": "00000000000000a1", "name": "invoke_agent bot",
    ...                    "attributes": {"gen_ai.operation.name": "invoke_agent"}}],
    ...                  resource={"service.name": "shop"})
    >>> rec.metadata
    {'service': 'shop', 'agent': 'bot'}
    """
    resource_attributes = attributes(resource) if resource is not None else {}
    items = [(f"spans[{i}]", span, resource_attributes, scope) for i, span in enumerate(spans)]
    trace_id = next((key for key in (_trace_key(item[1]) for item in items) if key), None)
    return _record(items, trace_id, source)


def read(path: str | os.PathLike[str], **options: Any) -> TrialRecord:
    """The record of an OTLP/JSON file holding one trace (JSON, or JSON Lines of exports)."""
    return to_record(read_documents(path, NAME), **options)


__all__ = ["NAME", "detect", "from_spans", "read", "to_record", "to_records"]
