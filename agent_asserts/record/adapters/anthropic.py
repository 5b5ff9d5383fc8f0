"""Anthropic Messages → :class:`~agent_asserts.record.TrialRecord` (``anthropic``).

Reads a list of messages, a request ``{"system": ..., "messages": [...], "tools": [...]}`` with
an optional final ``"response"`` (a ``Message``), or a list mixing messages and ``Message``
objects (``{"type": "message", ...}``: the assistant's turn with its model, usage and stop
reason). JSON data only; the SDK is not imported.

=========================================  ==================================================
Anthropic                                  record
=========================================  ==================================================
user ``text`` (or string content)          ``message`` ``user``; a user message holding only
                                           tool results is no message (it opens no turn)
``system``                                 ``message`` with ``actor_ref`` ``system``
assistant message / ``Message``            ``model_call`` (model, usage, stop reason), then
                                           per block: ``thinking`` → ``reasoning``,
                                           ``redacted_thinking`` → ``reasoning`` redacted,
                                           ``text`` → ``agent`` message, ``tool_use`` →
                                           ``tool_call`` (several share a ``group_id``)
``tool_result``                            the call's result; ``is_error`` → ``failed`` with
                                           the text as ``error_message``
``mcp_tool_use`` / ``mcp_tool_result``     a ``tool_call`` with ``source`` ``mcp`` and
                                           ``mcp_server`` = ``server_name``
``server_tool_use`` / ``*_tool_result``    a ``tool_call`` (``server_tool: True``); an
                                           ``*_error`` content → ``failed``, its
                                           ``error_code`` as ``error_type``
``usage``                                  ``input_tokens`` + cache reads + cache writes (as
                                           the GenAI conventions count them), the cache
                                           counts also in ``details``
=========================================  ==================================================

>>> rec = to_record([
...     {"role": "user", "content": "Refund A1"},
...     {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "refund",
...                                        "input": {"id": "A1"}}]},
...     {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1",
...                                   "is_error": True, "content": "gateway timed out"}]},
...     {"role": "assistant", "content": "It failed."},
... ])
>>> call = rec.tool_calls[0].payload
>>> call.outcome, call.error_message, rec.reply, [e.turn for e in rec.events]
('failed', 'gateway timed out', 'It failed.', [1, 1, 1, 1, 1])
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any, Final

from agent_asserts.record.adapters.toolkit import (
    TraceBuilder,
    content_text,
    count,
    item_list,
    read_with,
    result_as_written,
    tool_definitions,
    usage,
)
from agent_asserts.record.trial import TrialRecord

FORMAT: Final = "anthropic"
"""The name this module is registered under (the record-format registry finds it)."""
ORDER: Final = 50
"""Its place among the built-in formats (their listing and error-message order)."""
TAGS_RECORDS: Final = True
"""``to_records`` takes ``format_name`` (the readers' ``metadata["format"]``)."""

MARKER_BLOCKS: Final = frozenset(
    {
        "tool_use",
        "tool_result",
        "thinking",
        "redacted_thinking",
        "server_tool_use",
        "mcp_tool_use",
        "mcp_tool_result",
        "document",
        "search_result",
        "container_upload",
    }
)
"""Content block types only Anthropic uses (any ``*_tool_result`` too)."""
_CALLS: Final = ("tool_use", "server_tool_use", "mcp_tool_use")
_SCAN: Final = 50


def _is_response(item: Any) -> bool:
    return (
        (type(item) is dict or isinstance(item, Mapping))
        and item.get("type") == "message"
        and "content" in item
    )


def _is_message(item: Any) -> bool:
    return (
        (type(item) is dict or isinstance(item, Mapping))
        and item.get("role") in ("user", "assistant")
        and ("content" in item)
    )


def _blocks(item: Mapping[str, Any]) -> list[Any]:
    content = item.get("content")
    return content if isinstance(content, list) else []


def _marked(item: Mapping[str, Any]) -> bool:
    if _is_response(item):
        return True
    for block in _blocks(item):
        kind = block.get("type") if isinstance(block, Mapping) else None
        if isinstance(kind, str) and (kind in MARKER_BLOCKS or kind.endswith("_tool_result")):
            return True
        if kind == "image" and isinstance(block, Mapping) and "source" in block:
            return True
    return False


def _messages(data: Any) -> Any:
    return (
        data.get("messages")
        if (type(data) is dict or isinstance(data, Mapping)) and "messages" in data
        else data
    )


def detect(data: Any) -> bool:
    """Whether ``data`` is an Anthropic conversation: ``user``/``assistant`` messages (or
    ``Message`` objects) with an Anthropic-only content block, or a request with a top-level
    ``system`` beside its messages.

    >>> detect([{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t"}]}])
    True
    >>> detect([{"role": "user", "content": "hi"}]), detect({"system": "x", "messages": []})
    (False, False)
    """
    if _is_response(data):
        return True
    items = _messages(data)
    if not isinstance(items, list) or not items:
        return False
    sample = items[:_SCAN]
    if not all(_is_message(i) or _is_response(i) for i in sample):
        return False
    request = isinstance(data, Mapping) and "system" in data
    return request or any(_marked(i) for i in sample)


def anthropic_usage(raw: Any) -> dict[str, Any] | None:
    """Usage counted as the GenAI conventions do: input = input + cache reads + cache writes.

    >>> anthropic_usage({"input_tokens": 10, "output_tokens": 5, "cache_read_input_tokens": 90})
    {'input_tokens': 100, 'output_tokens': 5, 'details': {'cache_read_input_tokens': 90}}
    >>> anthropic_usage({"input_tokens": True, "cache_read_input_tokens": True,
    ...                  "server_tool_use": {"input_tokens": 3, "web_search_requests": 1}})
    {'details': {'web_search_requests': 1}}
    """
    if not isinstance(raw, Mapping):
        return None
    keys = ("cache_read_input_tokens", "cache_creation_input_tokens")
    cache: dict[str, int] = {k: c for k in keys if (c := count(raw.get(k)))}
    given = count(raw.get("input_tokens"))
    total_in = given + sum(cache.values()) if given is not None else None
    server = raw.get("server_tool_use")
    counters: dict[str, Any] = {
        str(key): value
        for key, value in (server.items() if isinstance(server, Mapping) else ())
        if key not in ("input_tokens", "output_tokens", "total_tokens")
    }
    counters.update(cache)
    return usage(total_in, raw.get("output_tokens"), **counters)


class _Reader:
    def __init__(self, source: str | None, format_name: str | None = None) -> None:
        self.b = TraceBuilder(source=source, format_name=format_name)

    def item(self, where: str, item: Any) -> None:
        if _is_response(item) or (_is_message(item) and item["role"] == "assistant"):
            self.assistant(where, item)
        elif _is_message(item):
            self.user(where, item)
        else:
            self.b.error(where, "not an Anthropic message (role user/assistant and content)", item)

    def user(self, where: str, item: Mapping[str, Any]) -> None:
        content = item.get("content")
        if isinstance(content, str):
            self.b.message("user", content, where=where)
            return
        if not isinstance(content, list):
            self.b.error(
                f"{where}.content", "content must be a string or a list of blocks", content
            )
            return
        texts, places = [], [where]
        for index, block in enumerate(content):
            at = f"{where}.content[{index}]"
            kind = block.get("type") if isinstance(block, Mapping) else None
            if not isinstance(kind, str):
                self.b.error(at, "a content block without a type", block)
            elif kind.endswith("tool_result"):
                self.result(at, block)
            else:
                places.append(at)
                if kind == "text" and isinstance(block.get("text"), str):
                    texts.append(block["text"])
        if len(places) > 1:  # something besides tool results: the user spoke
            self.b.message("user", "\n".join(texts), where=places)

    def assistant(self, where: str, item: Mapping[str, Any]) -> None:
        info: dict[str, Any] = {
            "model": item.get("model"),
            "usage": anthropic_usage(item.get("usage")),
            "finish_reason": item.get("stop_reason"),
        }
        model = self.b.model_call(where=where, **{k: v for k, v in info.items() if v is not None})
        parent = model["event_id"]
        content = item.get("content")
        if isinstance(content, str):
            self.b.message("agent", content, where=f"{where}.content", parent_id=parent)
            return
        blocks = content if isinstance(content, list) else []
        calls = [b for b in blocks if isinstance(b, Mapping) and b.get("type") in _CALLS]
        group = self.b.group() if len(calls) > 1 else None
        for index, block in enumerate(blocks):
            at = f"{where}.content[{index}]"
            kind = block.get("type") if isinstance(block, Mapping) else None
            if kind == "text":
                self.b.message("agent", str(block.get("text", "")), where=at, parent_id=parent)
            elif kind == "thinking":
                self.b.reasoning(str(block.get("thinking", "")), where=at, parent_id=parent)
            elif kind == "redacted_thinking":
                self.b.reasoning(where=at, redacted=True, parent_id=parent)
            elif kind in _CALLS:
                self.call(at, block, group, parent)
            elif isinstance(kind, str) and kind.endswith("tool_result"):
                self.result(at, block)  # server tool results come in the assistant turn
            else:
                self.b.error(at, f"unknown assistant content block {kind!r}", block)

    def call(self, where: str, block: Mapping[str, Any], group: str | None, parent: str) -> None:
        name = block.get("name")
        if not isinstance(name, str) or not name:
            self.b.error(where, "a tool_use block without a name", block)
            return
        kind = block["type"]
        server = block.get("server_name") if kind == "mcp_tool_use" else None
        extra = {"server_tool": True} if kind == "server_tool_use" else None
        if isinstance(block.get("caller"), Mapping):
            extra = {**(extra or {}), "caller": block["caller"]}
        self.b.call(
            name,
            block.get("input", {}),
            where=where,
            call_id=block.get("id") if isinstance(block.get("id"), str) else None,
            group=group,
            source="mcp" if kind == "mcp_tool_use" else "local",
            mcp_server=server if isinstance(server, str) else None,
            extra=extra,
            parent_id=parent,
        )

    def result(self, where: str, block: Mapping[str, Any]) -> None:
        content = block.get("content")
        error_type = None
        raw: str | None = None
        text: Any
        if isinstance(content, Mapping) and str(content.get("type", "")).endswith("_error"):
            error_type = content.get("error_code")
            text = str(error_type or content.get("type"))
            result: Any = content
            is_error = True
        else:
            text = content_text(content) if isinstance(content, list) else content
            result, raw = result_as_written(text) if isinstance(text, str) else (content, None)
            is_error = block.get("is_error") is True
        call_id = block.get("tool_use_id")
        self.b.result(
            result,
            result_raw=raw,
            where=where,
            call_id=call_id if isinstance(call_id, str) else None,
            is_error=is_error,
            error_message=text if is_error and isinstance(text, str) else None,
            error_type=error_type if isinstance(error_type, str) else None,
        )


def to_records(data: Any, *, source: str | None = None, **options: Any) -> Iterator[TrialRecord]:
    """The one run of an Anthropic conversation (see the module docs). The option
    ``format_name`` (the readers pass it) is named in the record's ``metadata["format"]``.

    Raises:
        RecordError: ``data`` holds no message list.
    """
    messages = item_list(_messages(data), "Anthropic messages", source, single=_is_response)
    reader = _Reader(source, options.get("format_name"))
    request = isinstance(data, Mapping) and "messages" in data
    if request:
        system = data.get("system")
        if system is not None:
            text = content_text(system) if isinstance(system, list) else str(system)
            reader.b.message("system", text, where="$.system")
    prefix = "$.messages" if request else "$"
    for index, item in enumerate(messages):
        reader.item(f"{prefix}[{index}]", item)
    metadata = tools = None
    if request:
        response = data.get("response")
        if _is_response(response):
            reader.assistant("$.response", response)
        skip = {"messages", "system", "response", "tools"}
        metadata = {k: v for k, v in data.items() if k not in skip}
        tools = tool_definitions(data.get("tools"), schema="input_schema")
    yield reader.b.build(metadata=metadata, tools=tools)


def to_record(data: Any, **options: Any) -> TrialRecord:
    """The record of an Anthropic conversation (``to_records``' one run)."""
    return next(to_records(data, **options))


def read(path: str | os.PathLike[str], **options: Any) -> TrialRecord:
    """Read an Anthropic conversation from a JSON file."""
    return read_with(to_records, path, **options)


__all__ = ["MARKER_BLOCKS", "anthropic_usage", "detect", "read", "to_record", "to_records"]
