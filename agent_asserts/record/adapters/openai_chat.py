"""OpenAI Chat Completions messages → :class:`~agent_asserts.record.TrialRecord` (``openai-chat``).

Reads a list of messages, ``{"messages": [...], "response": ChatCompletion, "usage": ...}``,
or a list mixing messages and ``chat.completion`` objects (each completion's message is the
assistant's turn, with its model, usage and ``created`` time). JSON data only; the SDK is not
imported.

========================================  ===================================================
OpenAI Chat                               record
========================================  ===================================================
``user`` message                          ``message`` ``user`` (text parts joined)
``system`` / ``developer`` message        ``message`` with ``actor_ref`` ``system``
``assistant`` message                     ``model_call`` (model, usage, finish reason when a
                                          completion gives them), then ``reasoning``
                                          (``reasoning_content``/``reasoning``), the text as
                                          an ``agent`` message, and one ``tool_call`` per
                                          ``tool_calls[]`` (parallel ones share a ``group_id``)
``tool_calls[].function.arguments``       parsed JSON; invalid JSON → ``arguments_raw`` + a
                                          parse error
``tool`` message (``tool_call_id``)       the call's ``result`` (JSON or Python-literal text
                                          read as a value, the text in ``result_raw``); text
                                          starting ``Error:`` or ``{"error": …}`` → ``failed``
                                          (``detect_errors=False`` turns this off: the format
                                          has no error flag)
``function_call`` / ``function`` role     a call without id, paired by name and order
``assistant.name``                        the ``agent``; a change of name → ``delegation``
``usage`` / completion ``usage``          usage (cached / reasoning counts in ``details``)
========================================  ===================================================

>>> rec = to_record([
...     {"role": "user", "content": "Refund A1"},
...     {"role": "assistant", "content": None, "tool_calls": [
...         {"id": "c1", "type": "function",
...          "function": {"name": "refund", "arguments": "{\\"id\\": \\"A1\\"}"}}]},
...     {"role": "tool", "tool_call_id": "c1", "content": "Error: gateway timed out"},
...     {"role": "assistant", "content": "Sorry, it failed."},
... ])
>>> call = rec.tool_calls[0].payload
>>> call.arguments, call.outcome, call.error_message, rec.reply, rec.status
({'id': 'A1'}, 'failed', 'Error: gateway timed out', 'Sorry, it failed.', 'completed')
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any, Final

from agent_asserts._values import MISSING
from agent_asserts.record.adapters.toolkit import (
    TraceBuilder,
    content_text,
    item_list,
    openai_usage,
    read_with,
    result_as_written,
    tool_definitions,
    tool_error,
)
from agent_asserts.record.trial import TrialRecord

FORMAT: Final = "openai-chat"
"""The name this module is registered under (the record-format registry finds it)."""
ORDER: Final = 40
"""Its place among the built-in formats (their listing and error-message order)."""
TAGS_RECORDS: Final = True
"""``to_records`` takes ``format_name`` (the readers' ``metadata["format"]``)."""

ROLES: Final = frozenset({"system", "developer", "user", "assistant", "tool", "function"})
_MARKERS: Final = frozenset({"tool_calls", "tool_call_id", "function_call", "refusal"})
_SCAN: Final = 50


def _is_completion(item: Any) -> bool:
    return (type(item) is dict or isinstance(item, Mapping)) and item.get(
        "object"
    ) == "chat.completion"


def _is_message(item: Any) -> bool:
    return _role(item) is not None


def _role(item: Any) -> str | None:
    """The role of an OpenAI Chat message, None when ``item`` is not one."""
    if type(item) is not dict and not isinstance(item, Mapping):  # exact dicts: no ABC check
        return None
    role = item.get("role")
    if isinstance(role, str) and role in ROLES and "parts" not in item and "type" not in item:
        return role
    return None


_CHAT_PARTS: Final = ("text", "image_url", "input_audio", "file", "refusal")


def _anthropic_like(item: Mapping[str, Any]) -> bool:
    content = item.get("content")
    return isinstance(content, list) and any(
        (type(p) is dict or isinstance(p, Mapping)) and p.get("type") not in _CHAT_PARTS
        for p in content
    )


def _messages(data: Any) -> Any:
    if (
        (type(data) is dict or isinstance(data, Mapping))
        and "messages" in data
        and not data.keys() & {"lc", "kwargs"}
    ):
        return data["messages"]
    return data


def detect(data: Any) -> bool:
    """Whether ``data`` is an OpenAI Chat history: messages with OpenAI roles (``content``,
    not Gemini ``parts``), no Anthropic-only content blocks, or ``chat.completion`` objects.

    >>> detect([{"role": "user", "content": "hi"}]), detect({"messages": [{"role": "tool"}]})
    (True, True)
    >>> detect([{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "x"}]}])
    False
    """
    if _is_completion(data):
        return True
    mapped = type(data) is dict or isinstance(data, Mapping)
    if mapped and "system" in data:  # Anthropic's request shape
        return False
    items = _messages(data)
    if not isinstance(items, list) or not items:
        return False
    for item in items[:_SCAN]:  # one pass: a message without Anthropic blocks, or a completion
        if type(item) is dict:  # exact dicts (parsed JSON): the tests of _role, read once
            role = item.get("role")
            if (
                isinstance(role, str)
                and role in ROLES
                and "parts" not in item
                and "type" not in item
            ):
                if isinstance(item.get("content"), list) and _anthropic_like(item):
                    return False
                continue
        if _is_message(item):
            if _anthropic_like(item):
                return False
        elif not _is_completion(item):
            return False
    return True


class _Reader:
    def __init__(
        self, source: str | None, detect_errors: bool, format_name: str | None = None
    ) -> None:
        self.b = TraceBuilder(source=source, format_name=format_name)
        self.detect_errors = detect_errors
        self.last_text: str | None = None

    def item(self, where: str, item: Any) -> None:
        if type(item) is dict:  # exact dicts (parsed JSON): _is_completion and _role inline
            role = item.get("role")
            if (
                item.get("object") == "chat.completion"
                or not isinstance(role, str)
                or role not in ROLES
                or "parts" in item
                or "type" in item
            ):
                role = None
        else:
            role = None if _is_completion(item) else _role(item)
        if role is None:
            if _is_completion(item):
                self.completion(where, item)
            else:
                self.b.error(where, "not an OpenAI Chat message (a role and content)", item)
        else:
            if role == "tool" or role == "function":
                self.tool_result(where, item)
            elif role == "assistant":
                self.assistant(where, item, {})
            elif role == "user":
                self.b.message("user", content_text(item.get("content")), where=where)
            else:  # system, developer
                self.b.message("system", content_text(item.get("content")), where=where)

    def completion(self, where: str, item: Mapping[str, Any]) -> None:
        choices = item.get("choices")
        choice = choices[0] if isinstance(choices, list) and choices else None
        message = choice.get("message") if isinstance(choice, Mapping) else None
        info = {
            "model": item.get("model"),
            "usage": openai_usage(item.get("usage")),
            "finish_reason": choice.get("finish_reason") if isinstance(choice, Mapping) else None,
            "wall_time": self.b.time(item.get("created"), where=f"{where}.created"),
        }
        if not isinstance(message, Mapping):
            self.b.error(f"{where}.choices", "a completion without a message", item.get("choices"))
            return
        self.assistant(where, message, info)

    def assistant(self, where: str, item: Mapping[str, Any], info: Mapping[str, Any]) -> None:
        name = item.get("name")
        b = self.b
        if isinstance(name, str) or b.agent is not None:  # else no agent before or now
            b.switch_agent(name if isinstance(name, str) else None, where=where)
        agent = b.agent
        if info:
            model = b.model_call(
                where=where, agent=agent, **{k: v for k, v in info.items() if v is not None}
            )
        else:
            model = b.model_call(where=where, agent=agent)
        for key in ("reasoning_content", "reasoning"):
            if isinstance(item.get(key), str) and item[key]:
                self.b.reasoning(
                    item[key], where=f"{where}.{key}", agent=agent, parent_id=model["event_id"]
                )
        parent = model["event_id"]
        content = item.get("content")
        text = content if type(content) is str or content is None else content_text(content)
        text = text or ""  # a tool-calling turn's null content: no call
        refusal = item.get("refusal")
        if text:
            b.message("agent", text, where=f"{where}.content", agent=agent, parent_id=parent)
        elif isinstance(refusal, str) and refusal:
            event = b.message("agent", refusal, where=f"{where}.refusal", agent=agent)
            event["payload"]["refusal"] = True
        calls = item.get("tool_calls")
        if isinstance(calls, list):
            group = b.group() if len(calls) > 1 else None
            for index, call in enumerate(calls):
                self.call(f"{where}.tool_calls[{index}]", call, group, agent, parent)
        legacy = item.get("function_call")
        if legacy is not None and isinstance(legacy, Mapping):
            self.call(f"{where}.function_call", {"function": legacy}, None, agent, parent)

    def call(
        self, where: str, call: Any, group: str | None, agent: str | None, parent: str
    ) -> None:
        if type(call) is not dict and not isinstance(call, Mapping):
            self.b.error(where, "a tool call must be an object", call)
            return
        function: Any = call.get("function") or call.get("custom")
        mapped = type(function) is dict or isinstance(function, Mapping)
        name = function.get("name") if mapped else None
        if not isinstance(name, str) or not name:
            self.b.error(where, "a tool call without a function name", call)
            return
        if "custom" in call:
            arguments: Any = {"input": function.get("input")}
        else:
            arguments = function.get("arguments", MISSING)
        call_id = call.get("id")
        if not isinstance(call_id, str):
            call_id = None
        self.b.call(
            name,
            arguments,
            where=where,
            call_id=call_id,
            group=group,
            agent=agent,
            parent_id=parent,
        )

    def tool_result(self, where: str, item: Mapping[str, Any]) -> None:
        content = item.get("content")
        result, raw = result_as_written(
            content_text(content) if isinstance(content, list) else content
        )
        error = tool_error(result) if self.detect_errors else None
        call_id = item.get("tool_call_id")
        name = item.get("name")
        self.b.result(
            result,
            where=where,
            call_id=call_id if isinstance(call_id, str) else None,
            name=name if isinstance(name, str) else None,
            is_error=error is not None,
            error_message=error,
            result_raw=raw,
        )


def to_records(
    data: Any, *, source: str | None = None, detect_errors: bool = True, **options: Any
) -> Iterator[TrialRecord]:
    """The one run of an OpenAI Chat history (see the module docs). The option
    ``format_name`` (the readers pass it) is named in the record's ``metadata["format"]``.

    Raises:
        RecordError: ``data`` holds no message list.
    """
    messages = item_list(_messages(data), "OpenAI Chat messages", source, single=_is_completion)
    reader = _Reader(source, detect_errors, options.get("format_name"))
    prefix = "$.messages" if messages is not data else "$"
    for index, item in enumerate(messages):
        reader.item(f"{prefix}[{index}]", item)
    usage = None
    mapped = type(data) is dict or isinstance(data, Mapping)  # exact dicts: no ABC check
    if mapped:
        response = data.get("response")
        if response is not None and isinstance(response, Mapping) and _is_completion(response):
            _final_response(reader, response)
        usage = openai_usage(data.get("usage"))
    metadata = (
        {k: v for k, v in data.items() if k not in ("messages", "response", "usage", "tools")}
        if mapped
        else None
    )
    tools = tool_definitions(data.get("tools"), inside="function") if mapped else None
    yield reader.b.build(usage=usage, metadata=metadata, tools=tools)


def _final_response(reader: _Reader, response: Mapping[str, Any]) -> None:
    """The ``response`` beside a history: when its message is the history's last agent
    message, it only adds the model, usage and finish reason to that model call (the usage of
    that one call, not of the run); otherwise it is the next assistant turn."""
    events = reader.b.events
    last = next((e for e in reversed(events) if e["kind"] == "message"), None)
    model = next((e for e in reversed(events) if e["kind"] == "model_call"), None)
    choices = response.get("choices")
    first = choices[0] if isinstance(choices, list) and choices else None
    choice: Mapping[str, Any] = first if isinstance(first, Mapping) else {}
    message = choice.get("message")
    said = content_text(message.get("content") if isinstance(message, Mapping) else None)
    if last is None or model is None or last.get("actor_ref") != "agent":
        reader.completion("$.response", response)
        return
    if said != last["payload"]["text"]:
        reader.completion("$.response", response)
        return
    usage = openai_usage(response.get("usage"))
    found = {
        "model": response.get("model"),
        "finish_reason": choice.get("finish_reason"),
    }
    model["payload"].update({k: v for k, v in found.items() if v is not None})
    if usage:
        reader.b.usage_of(model, usage)
    model["payload"]["trace_items"].append("$.response")


def to_record(data: Any, **options: Any) -> TrialRecord:
    """The record of an OpenAI Chat history (``to_records``' one run)."""
    return next(to_records(data, **options))


def read(path: str | os.PathLike[str], **options: Any) -> TrialRecord:
    """Read an OpenAI Chat history from a JSON file."""
    return read_with(to_records, path, **options)


__all__ = ["ROLES", "detect", "read", "to_record", "to_records"]
