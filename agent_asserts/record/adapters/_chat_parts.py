"""Chat messages of every span format in one shape: the GenAI conventions' parts form.

``{"role": ..., "parts": [{"type": "text", "content": ...}, {"type": "tool_call", "id", "name",
"arguments"}, {"type": "tool_call_response", "id", "response"}, {"type": "reasoning",
"content"}]}``. Chat-Completions-shaped messages (OpenAI Agents ``generation`` spans, Langfuse
generations, the deprecated GenAI events, OpenInference's flattened attributes) are turned into
it, so the span-tree builder reads one shape.

>>> to_parts({"role": "tool", "tool_call_id": "c1", "content": "ok"})
{'role': 'tool', 'parts': [{'type': 'tool_call_response', 'id': 'c1', 'response': 'ok'}]}
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, Final

_INDEXED: Final = re.compile(r"(\d+)\.(.+)")
_NESTED: Final = re.compile(r"(.+?)\.\d+\.")


def _text(content: Any) -> str | None:
    """The text of a content value: a string, or the text parts of a list of blocks."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [
            block.get("text", block.get("content"))
            for block in content
            if isinstance(block, Mapping)
            and block.get("type") in ("text", "input_text", "output_text", None)
        ]
        texts = [text for text in texts if isinstance(text, str)]
        return "".join(texts) if texts else None
    return None


def _call_part(call: Mapping[str, Any]) -> dict[str, Any]:
    function = call.get("function")
    source = function if isinstance(function, Mapping) else call
    part: dict[str, Any] = {"type": "tool_call", "name": source.get("name")}
    if call.get("id") is not None:
        part["id"] = call.get("id")
    if "arguments" in source:
        part["arguments"] = source["arguments"]
    elif "args" in source:
        part["arguments"] = source["args"]
    return part


def to_parts(message: Any) -> dict[str, Any] | None:
    """One message as ``{role, parts}``; a message already in parts form is returned as is.

    Returns None for something that is not a message (not an object, or without a role).

    >>> to_parts({"role": "assistant", "content": None, "tool_calls": [
    ...     {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]})
    {'role': 'assistant',
     'parts': [{'type': 'tool_call', 'name': 'f', 'id': 'c1', 'arguments': '{}'}]}
    """
    if not isinstance(message, Mapping):
        return None
    role = message.get("role")
    if not isinstance(role, str):
        return None
    if isinstance(message.get("parts"), list):
        return {"role": role, "parts": list(message["parts"])}
    parts: list[dict[str, Any]] = []
    call_id = message.get("tool_call_id", message.get("id") if role == "tool" else None)
    content = message.get("content")
    if role == "tool" or (call_id is not None and role in ("function", "tool")):
        response = content if _text(content) is None else _text(content)
        parts.append({"type": "tool_call_response", "id": call_id, "response": response})
        return {"role": "tool", "parts": parts}
    reasoning = message.get("reasoning_content", message.get("reasoning"))
    if isinstance(reasoning, str) and reasoning:
        parts.append({"type": "reasoning", "content": reasoning})
    text = _text(content)
    if text:
        parts.append({"type": "text", "content": text})
    calls = message.get("tool_calls")
    for call in calls if isinstance(calls, list) else ():
        if isinstance(call, Mapping):
            parts.append(_call_part(call))
    if isinstance(message.get("function_call"), Mapping):
        parts.append(_call_part(message["function_call"]))
    return {"role": role, "parts": parts}


def messages(value: Any) -> list[dict[str, Any]] | None:
    """Messages (JSON text, a list, one message, or ``{"messages": [...]}``) in parts form.

    Returns None when the value holds no messages. Raises ``ValueError`` for invalid JSON.

    >>> messages('[{"role": "user", "content": "hi"}]')
    [{'role': 'user', 'parts': [{'type': 'text', 'content': 'hi'}]}]
    """
    if isinstance(value, str):
        stripped = value.lstrip()
        if not stripped.startswith(("[", "{")):
            return None
        value = json.loads(value)
    if isinstance(value, Mapping) and isinstance(value.get("messages"), list):
        value = value["messages"]
    if isinstance(value, Mapping):
        value = [value]
    if not isinstance(value, list):
        return None
    out = [part for part in (to_parts(item) for item in value) if part is not None]
    return out if out else None


def unflatten(attributes: Mapping[str, Any], prefix: str) -> list[dict[str, Any]]:
    """Flattened list attributes (``llm.input_messages.0.message.role``…) as a list of dicts.

    >>> unflatten({"p.1.x": 2, "p.0.x": 1, "p.0.y.0.z": 3}, "p.")
    [{'x': 1, 'y': [{'z': 3}]}, {'x': 2}]
    """
    groups: dict[int, dict[str, Any]] = {}
    for key, value in attributes.items():
        if key.startswith(prefix):
            match = _INDEXED.fullmatch(key[len(prefix) :])
            if match:
                groups.setdefault(int(match.group(1)), {})[match.group(2)] = value
    out = []
    for index in sorted(groups):
        item: dict[str, Any] = {}
        lists: set[str] = set()
        for key, value in groups[index].items():
            nested = _NESTED.match(key)
            if nested:
                lists.add(nested.group(1))
            else:
                item[key] = value
        for head in sorted(lists):
            item[head] = unflatten(groups[index], f"{head}.")
        out.append(item)
    return out


def strip_prefixes(item: Mapping[str, Any], *prefixes: str) -> dict[str, Any]:
    """Keys without the first matching prefix, recursively into lists of dicts.

    >>> strip_prefixes({"message.role": "user", "message.tool_calls": [{"tool_call.id": "c"}]},
    ...                "message.", "tool_call.")
    {'role': 'user', 'tool_calls': [{'id': 'c'}]}
    """
    out: dict[str, Any] = {}
    for key, value in item.items():
        for prefix in prefixes:
            if key.startswith(prefix):
                key = key[len(prefix) :]
                break
        if isinstance(value, list):
            value = [
                strip_prefixes(entry, *prefixes) if isinstance(entry, Mapping) else entry
                for entry in value
            ]
        out[key] = value
    return out


def openinference_messages(attributes: Mapping[str, Any], which: str) -> list[dict[str, Any]]:
    """OpenInference's ``llm.{input,output}_messages.N.message.*`` attributes in parts form.

    >>> openinference_messages({"llm.output_messages.0.message.role": "assistant",
    ...                         "llm.output_messages.0.message.content": "Done"}, "output")
    [{'role': 'assistant', 'parts': [{'type': 'text', 'content': 'Done'}]}]
    """
    out = []
    for item in unflatten(attributes, f"llm.{which}_messages."):
        message = strip_prefixes(item, "message.", "tool_call.", "message_content.")
        calls = []
        for call in message.get("tool_calls") or ():
            function = {
                "name": call.get("function.name"),
                "arguments": call.get("function.arguments"),
            }
            calls.append({"id": call.get("id"), "function": function})
        if calls:
            message["tool_calls"] = calls
        if "content" not in message and message.get("contents"):
            message["content"] = message["contents"]
        parts = to_parts(message)
        if parts is not None:
            out.append(parts)
    return out


__all__ = ["messages", "openinference_messages", "strip_prefixes", "to_parts", "unflatten"]
