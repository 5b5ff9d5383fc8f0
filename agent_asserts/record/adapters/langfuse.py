"""Langfuse traces (trace / observations export) → :class:`~agent_asserts.record.TrialRecord`.

Reads both shapes of the public API: a full trace (``GET /api/public/traces/{id}``: the trace
with its ``observations``; a list of such traces is one record each) and the v2 observations
list (``GET /api/public/v2/observations``: ``{"data": [observation, …]}``, whose ``input`` and
``output`` are JSON text; one record per ``traceId``). Times are ISO strings (read as epoch
seconds); observations may come in any order. The mapping:

=========================  ===================================================================
observation ``type``       record
=========================  ===================================================================
``GENERATION``             ``model_call`` (``model``, usage from ``usageDetails``, else the
                           v1 ``usage``); its ``input``/``output`` give the user and agent
                           ``message`` events and the calls it asked for: Chat-Completions-like
                           messages (a LangChain message's ``additional_kwargs.tool_calls``
                           too; tool *definitions* are never calls), GenAI parts, plain text,
                           an OpenAI ``Response`` object or Gemini ``contents`` (read by the
                           ``openai_responses`` and ``gemini`` adapters)
``TOOL``                   ``tool_call``: the tool from ``metadata.attributes``
                           (``gen_ai.tool.name``, ``tool.name``), else the observation's name
                           without its span prefix (``execute_tool x``, ``running tool: x``);
                           ``input`` → arguments (JSON text parsed; invalid text kept in
                           ``arguments_raw``), ``output`` → result (both else from the
                           attributes), ``level: ERROR`` → ``is_error``/``outcome`` ``failed``
                           with ``statusMessage``; ``metadata.tool_call_id`` or
                           ``gen_ai.tool.call.id`` (a list of ids too) → ``call_id``
``AGENT``                  the root agent (``metadata.agent``), or a ``delegation`` when it
                           runs inside another agent
``GUARDRAIL``              ``guardrail`` (``triggered`` when the level is ERROR or WARNING)
``SPAN``, ``EVENT``, …     a ``span`` event (type, name, input, output)
=========================  ===================================================================

A TOOL observation is paired with the call of a generation's output by its call id when it
has one, else by name and order. The trace's ``sessionId`` is every event's
``correlation_id``; its ``input``/``output`` stand for the user message and the reply when no
generation records them. What is not understood is a parse error.

>>> rec = to_record({"id": "t1", "input": "Refund A1049", "observations": [
...     {"id": "o1", "traceId": "t1", "type": "TOOL", "name": "lookup_order",
...      "startTime": "2026-08-01T12:00:01Z", "endTime": "2026-08-01T12:00:02Z",
...      "input": {"order_id": "A1049"}, "level": "ERROR", "statusMessage": "timeout"}]})
>>> call = rec.tool_calls[0].payload
>>> call.arguments, call.is_error, call.error_message, rec.events[0].payload.text
({'order_id': 'A1049'}, True, 'timeout', 'Refund A1049')
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any, Final

from agent_asserts._values import MISSING
from agent_asserts.record.adapters import gemini, openai_responses
from agent_asserts.record.adapters._span_tree import (
    AgentInfo,
    ModelInfo,
    Span,
    Step,
    ToolInfo,
    build_record,
    call_ids,
    iso_seconds,
    messages,
    tool_of_span_name,
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

FORMAT: Final = "langfuse"
"""The name this module is registered under (the record-format registry finds it)."""
ORDER: Final = 130
"""Its place among the built-in formats (their listing and error-message order)."""

REPORTED_BY: Final = "Langfuse usageDetails: input as the ingesting SDK reported it"
_USAGE_KEYS: Final = {"input": "input_tokens", "output": "output_tokens", "total": "total_tokens"}
_TYPES: Final = frozenset(
    {
        "SPAN",
        "GENERATION",
        "EVENT",
        "AGENT",
        "TOOL",
        "CHAIN",
        "RETRIEVER",
        "EVALUATOR",
        "EMBEDDING",
        "GUARDRAIL",
    }
)


def _is_observation(item: Any) -> bool:
    kind = item.get("type") if isinstance(item, Mapping) else None
    return (
        isinstance(item, Mapping) and "traceId" in item and isinstance(kind, str) and kind in _TYPES
    )


def _is_trace(item: Any) -> bool:
    return (type(item) is dict or isinstance(item, Mapping)) and isinstance(
        item.get("observations"), list
    )


def detect(data: Any) -> bool:
    """Whether ``data`` is a Langfuse trace, a list of traces, or an observations export.

    >>> detect({"id": "t", "observations": []}), detect({"data": [{"object": "trace"}]})
    (True, False)
    """
    if (type(data) is dict or isinstance(data, Mapping)) and isinstance(data.get("data"), list):
        data = data["data"]
    if isinstance(data, list):
        return bool(data) and all(_is_trace(i) or _is_observation(i) for i in data[:20])
    return _is_trace(data)


def _usage(raw: Mapping[str, Any]) -> tuple[int | None, int | None, dict[str, int]]:
    usage = raw.get("usageDetails") or raw.get("usage") or {}
    if not isinstance(usage, Mapping):
        return None, None, {}
    counts = {
        _USAGE_KEYS.get(str(key), str(key)): number
        for key, value in usage.items()
        if (number := count(value)) is not None
    }
    details = {k: v for k, v in counts.items() if k not in _USAGE_KEYS.values()}
    return counts.get("input_tokens"), counts.get("output_tokens"), details


def attributes(raw: Mapping[str, Any]) -> Mapping[str, Any]:
    """The span attributes Langfuse keeps on an observation ingested through OpenTelemetry
    (``metadata.attributes``), or an empty mapping.

    >>> attributes({"metadata": {"attributes": {"gen_ai.tool.name": "lookup"}}})
    {'gen_ai.tool.name': 'lookup'}
    """
    metadata = json_or_text(raw.get("metadata"))  # JSON text in the v2 observations list
    found = json_or_text(metadata.get("attributes")) if isinstance(metadata, Mapping) else None
    return found if isinstance(found, Mapping) else {}


def _first(values: Mapping[str, Any], *keys: str) -> Any:
    return next((values[key] for key in keys if values.get(key) not in (None, "")), None)


def _is_response(value: Any) -> bool:
    """An OpenAI Responses ``Response`` object as data."""
    return (
        isinstance(value, Mapping)
        and value.get("object") == "response"
        and isinstance(value.get("output"), list)
    )


_GEMINI_PARTS: Final = frozenset(
    {"text", "function_call", "functionCall", "function_response", "functionResponse", "thought"}
)


def _is_gemini(value: Any) -> bool:
    """Gemini ``contents`` (a list of ``{role, parts: [{text | function_call…}]}``), a request
    ``{"contents": [...]}`` or a ``GenerateContentResponse`` (``candidates``)."""
    if isinstance(value, Mapping):
        return isinstance(value.get("contents"), list) or isinstance(value.get("candidates"), list)
    if not isinstance(value, list) or not value:
        return False
    return all(
        isinstance(item, Mapping)
        and isinstance(item.get("parts"), list)
        and any(
            isinstance(part, Mapping) and "type" not in part and part.keys() & _GEMINI_PARTS
            for part in item["parts"]
        )
        for item in value
    )


def _record_messages(record: TrialRecord) -> list[dict[str, Any]]:
    """A record's messages, reasoning, tool calls and results, in parts form."""
    out: list[dict[str, Any]] = []

    def add(role: str, part: dict[str, Any]) -> None:
        if out and out[-1]["role"] == role and role == "assistant":
            out[-1]["parts"].append(part)
        else:
            out.append({"role": role, "parts": [part]})

    for event in record.events:
        payload: Any = event.payload
        if event.kind == "message" and event.actor_ref in ("user", "system", "agent"):
            role = "assistant" if event.actor_ref == "agent" else str(event.actor_ref)
            add(role, {"type": "text", "content": payload.text})
        elif event.kind == "reasoning":
            text = payload.text or payload.summary
            add("assistant", {"type": "reasoning", "content": text or ""})
        elif event.kind == "tool_call":
            call: dict[str, Any] = {"type": "tool_call", "name": payload.name}
            if payload.call_id is not None:
                call["id"] = payload.call_id
            if payload.arguments is not MISSING:
                call["arguments"] = payload.arguments
            add("assistant", call)
            if payload.outcome != "pending":
                response = {"type": "tool_call_response", "id": payload.call_id}
                response["response"] = payload.result
                out.append({"role": "tool", "parts": [response]})
    return out


def _messages_of(value: Any, where: str, problems: list[Any]) -> list[dict[str, Any]]:
    """A generation's ``input`` or ``output`` in parts form: Chat-Completions-like messages,
    an OpenAI ``Response`` object or Gemini contents (read by those formats' own adapters)."""
    value = json_or_text(value)
    reader = openai_responses if _is_response(value) else gemini if _is_gemini(value) else None
    if reader is None:
        try:
            found = messages(value) or []
        except (ValueError, RecursionError) as exc:
            problems.append((where, f"not JSON: {exc}", value))
            return []
        if not found and value not in (None, "", [], {}) and not isinstance(value, str):
            problems.append((where, "no messages read from it", value))
        return found
    try:
        record = reader.to_record(value)
    except RecordError as exc:
        problems.append((where, f"not read as {reader.FORMAT}: {exc}", value))
        return []
    for error in record.parse_errors:
        problems.append((f"{where}: {error.position}", error.reason, error.item))
    return _record_messages(record)


def _model(raw: Mapping[str, Any], problems: list[Any], where: str) -> ModelInfo:
    input_tokens, output_tokens, details = _usage(raw)
    found = {}
    for key, role in (("input", "user"), ("output", "assistant")):
        value = raw.get(key)
        if isinstance(value, str) and value.strip() and value.lstrip()[0] not in "[{":
            found[key] = [{"role": role, "parts": [{"type": "text", "content": value}]}]
        else:
            found[key] = _messages_of(value, f"{where}.{key}", problems)
    if input_tokens == 0 and output_tokens == 0 and not details:
        input_tokens = output_tokens = None
    return ModelInfo(
        model=raw.get("model") if isinstance(raw.get("model"), str) else None,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        details=details,
        reported_by=REPORTED_BY,
        input=tuple(found["input"]),
        output=tuple(found["output"]),
    )


def tool_name(raw: Mapping[str, Any]) -> str:
    """A TOOL observation's tool: the span attribute (GenAI ``gen_ai.tool.name``, OpenInference
    ``tool.name``), else the observation's name without the span-name prefix.

    >>> tool_name({"name": "running tool: get_pun_suggestion"})
    'get_pun_suggestion'
    """
    found = _first(attributes(raw), "gen_ai.tool.name", "tool.name", "tool_call.function.name")
    if isinstance(found, str):
        return found
    name = str(raw.get("name") or "unknown")
    return tool_of_span_name(name) or name


def _outcome(error: bool, found: Mapping[str, Any]) -> str:
    """``retried`` for a Pydantic AI tool the model was asked to call again, as in ``otel``."""
    if not error:
        return "succeeded"
    return "retried" if "pydantic_ai.tool.retry.cause" in found else "failed"


def _tool(raw: Mapping[str, Any], error: bool, problems: list[Any], where: str) -> ToolInfo:
    name = tool_name(raw)
    found = attributes(raw)
    given = raw.get("input")
    if given is None:
        given = _first(found, "gen_ai.tool.call.arguments", "tool_arguments", "input.value")
    arguments, arguments_raw, problem = parse_arguments(given)
    if given is None:
        arguments = MISSING
    if problem is not None:
        problems.append((f"{where}.input", problem, arguments_raw))
    result = raw.get("output")
    if result is None:
        result = _first(found, "gen_ai.tool.call.result", "tool_response", "output.value")
    metadata = json_or_text(raw.get("metadata"))
    ids = call_ids(metadata.get("tool_call_id") if isinstance(metadata, Mapping) else None)
    ids = ids or call_ids(_first(found, "gen_ai.tool.call.id", "tool_call.id", "tool.id"))
    message = raw.get("statusMessage")
    return ToolInfo(
        name=name,
        call_id=ids[-1] if ids else None,
        call_ids=ids[:-1],
        arguments=arguments,
        arguments_raw=arguments_raw,
        result=json_or_text(result),
        is_error=error,
        outcome=_outcome(error, found),
        error_message=str(message) if error and message is not None else None,
    )


def step(raw: Mapping[str, Any], where: str, trace: Mapping[str, Any]) -> Step:
    """The :class:`Step` of one observation.

    Raises:
        ValueError: The observation has no string ``id``.
    """
    if not isinstance(raw, Mapping) or not isinstance(raw.get("id"), str):
        raise ValueError("an observation needs to be an object with a string 'id'")
    kind = str(raw.get("type"))
    level = raw.get("level")
    error = level == "ERROR"
    message = raw.get("statusMessage")
    parent = raw.get("parentObservationId")
    span = Span(
        span_id=raw["id"],
        parent_id=parent if isinstance(parent, str) else None,
        name=str(raw.get("name") or kind),
        position=where,
        start=iso_seconds(raw.get("startTime")),
        end=iso_seconds(raw.get("endTime")),
        trace_id=raw.get("traceId") if isinstance(raw.get("traceId"), str) else None,
        error=error,
        error_message=str(message) if error and message is not None else None,
        kind=kind,
    )
    session = raw.get("sessionId", trace.get("sessionId"))
    conversation = str(session) if session is not None else None
    problems: list[Any] = []
    if kind == "GENERATION":
        model = _model(raw, problems, where)
        return Step(
            span, "model", model=model, problems=tuple(problems), conversation_id=conversation
        )
    if kind == "TOOL":
        tool = _tool(raw, error, problems, where)
        return Step(span, "tool", tool=tool, problems=tuple(problems), conversation_id=conversation)
    if kind == "AGENT":
        output = json_or_text(raw.get("output"))
        user = _text(raw.get("input"), f"{where}.input", [])  # the trace's input stands in
        info = AgentInfo(span.name, input=user, output=output)
        return Step(span, "agent", agent=info, conversation_id=conversation)
    if kind == "GUARDRAIL":
        guardrail = (span.name, level in ("ERROR", "WARNING"), json_or_text(raw.get("output")))
        return Step(span, "guardrail", guardrail=guardrail, conversation_id=conversation)
    payload = {"type": kind, "name": span.name}
    for key in ("input", "output", "level", "statusMessage"):
        if raw.get(key) is not None:
            payload[key] = json_or_text(raw[key])
    return Step(span, "other", payload=payload, conversation_id=conversation)


def _text(value: Any, where: str, errors: list[Any]) -> str | None:
    """The user's or the agent's text in a trace's ``input`` / ``output``: text, messages (the
    last one's text), or an object with one text field (``{"input": …}``, the decorator's
    ``{"args": [text], "kwargs": {}}``); anything else is a parse error (it is not read)."""
    value = json_or_text(value)
    if value is None or isinstance(value, str):
        return value or None
    found = _messages_of(value, where, [])
    texts = [
        part.get("content")
        for message in found[-1:]
        for part in message.get("parts") or ()
        if part.get("type") == "text" and isinstance(part.get("content"), str)
    ]
    if texts:
        return "".join(texts) or None
    if isinstance(value, Mapping):
        strings = [v for v in value.values() if isinstance(v, str) and v]
        args = value.get("args")
        if not strings and isinstance(args, list) and len(args) == 1 and isinstance(args[0], str):
            strings = args
        if len(strings) == 1:
            return str(strings[0])
    if found or value in ([], {}):
        return None
    errors.append((where, "not read as a message: no text in it", value))
    return None


def _groups(data: Any) -> Iterator[tuple[Mapping[str, Any], list[tuple[str, Any]], list[Any]]]:
    """``(trace, [(where, observation)], errors)`` per trace."""
    prefix = "data" if isinstance(data, Mapping) and isinstance(data.get("data"), list) else ""
    items = data["data"] if prefix else data
    if _is_trace(items):
        observations = [(f"observations[{i}]", o) for i, o in enumerate(items["observations"])]
        yield items, observations, []
        return
    if not isinstance(items, list):
        keys = sorted(data)[:8] if isinstance(data, Mapping) else type(data).__name__
        message = f"expected a Langfuse trace, a list of traces or {{'data': [...]}} (got {keys})"
        raise RecordError([Problem("$", message)])
    by_trace: dict[Any, tuple[dict[str, Any], list[tuple[str, Any]], list[Any]]] = {}
    for index, item in enumerate(items):
        where = f"{prefix}[{index}]"
        if _is_trace(item):
            inner = [(f"{where}.observations[{i}]", o) for i, o in enumerate(item["observations"])]
            yield item, inner, []
            continue
        trace_id = item.get("traceId") if isinstance(item, Mapping) else None
        key = trace_id if isinstance(trace_id, str) else None
        entry = by_trace.setdefault(key, ({"id": key} if key is not None else {}, [], []))
        if _is_observation(item):
            if "sessionId" in item:
                entry[0].setdefault("sessionId", item["sessionId"])
            if "traceName" in item:
                entry[0].setdefault("name", item["traceName"])
            entry[1].append((where, item))
        else:
            entry[2].append(
                (where, "not a Langfuse observation (no traceId or unknown type)", item)
            )
    yield from by_trace.values()


def to_records(data: Any, *, source: str | None = None) -> Iterator[TrialRecord]:
    """One record per trace.

    >>> obs = {"type": "EVENT", "name": "e", "startTime": "2026-08-01T12:00:00Z"}
    >>> export = {"data": [{**obs, "id": "a", "traceId": "t1"},
    ...                    {**obs, "id": "b", "traceId": "t2"}]}
    >>> [r.metadata["trace_id"] for r in to_records(export)]
    ['t1', 't2']
    """
    for trace, observations, errors in _groups(data):
        steps = []
        for where, raw in observations:
            try:
                steps.append(step(raw, where, trace))
            except ValueError as exc:
                errors.append((where, str(exc), raw))
            except (TypeError, AttributeError, RecursionError) as exc:
                reason = f"unreadable observation: {type(exc).__name__}: {exc}"
                errors.append((where, reason, raw))
        metadata: dict[str, Any] = {}
        for key, name in (("id", "trace_id"), ("name", "trace_name"), ("sessionId", "session_id")):
            if trace.get(key) is not None:
                metadata[name] = trace[key]
        fallback = AgentInfo(
            str(trace.get("name") or "trace"),
            input=_text(trace.get("input"), "input", errors),
            output=_text(trace.get("output"), "output", errors),
        )
        yield build_record(
            steps, source=source, metadata=metadata, parse_errors=errors, fallback=fallback
        )


def to_record(data: Any, *, source: str | None = None) -> TrialRecord:
    """The record of an export holding one trace.

    Raises:
        RecordError: Not a Langfuse export, or several traces (use :func:`to_records`).
    """
    return only_record(to_records(data, source=source), "traces", source)


def read(path: str | os.PathLike[str], **options: Any) -> TrialRecord:
    """The record of a Langfuse export file (JSON, or JSON Lines of observations)."""
    return to_record(read_documents(path, FORMAT), **options)


__all__ = ["REPORTED_BY", "detect", "read", "step", "to_record", "to_records"]
