"""What an OTel span means, under the GenAI semantic conventions (v1.31 to current, deprecated
names included), OpenInference, and Pydantic AI's instrumentation (versions 2 to 6).

>>> from agent_asserts.record.adapters._spans import Span
>>> step = interpret(Span("s", None, "running tool", "spans[0]", attributes={
...     "gen_ai.tool.name": "lookup", "tool_arguments": '{"id": 1}', "tool_response": "ok"}))
>>> step.role, step.tool.arguments, step.tool.result
('tool', {'id': 1}, 'ok')
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from agent_asserts._values import MISSING
from agent_asserts.record.adapters._arguments import count, json_or_text, parse_arguments
from agent_asserts.record.adapters._chat_parts import messages, openinference_messages, unflatten
from agent_asserts.record.adapters._spans import Span
from agent_asserts.record.adapters._steps import AgentInfo, ModelInfo, Step, ToolInfo

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
        name = span.name.removeprefix("execute_tool ").strip() or span.name
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
    call_id = _first(attributes, "gen_ai.tool.call.id", "tool.id", "tool_call.id")
    server = _first(attributes, "mcp.server.name", "gen_ai.tool.mcp.server")
    tool = ToolInfo(
        name=name,
        call_id=str(call_id) if call_id is not None else None,
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


__all__ = ["MODEL_OPERATIONS", "REPORTED_BY", "interpret", "role_of"]
