"""LangChain / LangGraph messages → :class:`~agent_asserts.record.TrialRecord` (``langchain``).

Three spellings of a message list, mixed freely: the ``lc`` serialisation (``dumpd``:
``{"lc": 1, "type": "constructor", "id": [..., "AIMessage"], "kwargs": {...}}``), the
``messages_to_dict`` form (``{"type": "ai", "data": {...}}``) and plain dicts
(``message.model_dump()``: ``{"type": "ai", "content": ...}``); a LangGraph state
``{"messages": [...]}`` too. JSON data only; LangChain is not imported.

========================================  ===================================================
LangChain                                 record
========================================  ===================================================
``human``                                 ``message`` ``user``
``system``                                ``message`` with ``actor_ref`` ``system``
``ai``                                    ``model_call`` (``response_metadata.model_name``,
                                          ``finish_reason``, ``usage_metadata``); reasoning
                                          blocks / ``additional_kwargs.reasoning_content`` →
                                          ``reasoning``; text → ``agent`` message;
                                          ``tool_calls`` → ``tool_call`` (shared
                                          ``group_id``); ``invalid_tool_calls`` →
                                          ``tool_call`` with ``arguments_raw`` and a parse
                                          error; ``name`` → ``agent`` (a change → delegation)
``tool`` (``tool_call_id``)               the call's result; ``status: error`` → ``failed``;
                                          ``artifact`` kept
``usage_metadata``                        usage; ``input_token_details`` /
                                          ``output_token_details`` in ``details``
========================================  ===================================================

>>> rec = to_record([
...     {"type": "human", "data": {"content": "Refund A1", "type": "human"}},
...     {"type": "ai", "data": {"content": "", "type": "ai", "tool_calls": [
...         {"name": "refund", "args": {"id": "A1"}, "id": "c1", "type": "tool_call"}]}},
...     {"type": "tool", "data": {"content": "gateway timed out", "type": "tool",
...                               "tool_call_id": "c1", "status": "error"}},
...     {"type": "ai", "data": {"content": "It failed.", "type": "ai"}},
... ])
>>> rec.tool_calls[0].payload.outcome, rec.reply
('failed', 'It failed.')
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any, Final

from agent_asserts.record.adapters.toolkit import (
    TraceBuilder,
    content_text,
    item_list,
    items,
    mapping,
    read_with,
    result_as_written,
    usage,
)
from agent_asserts.record.trial import TrialRecord

FORMAT: Final = "langchain"
"""The name this module is registered under (the record-format registry finds it)."""
ORDER: Final = 80
"""Its place among the built-in formats (their listing and error-message order)."""
TAGS_RECORDS: Final = True
"""``to_records`` takes ``format_name`` (the readers' ``metadata["format"]``)."""

TYPES: Final = {
    "human": "human",
    "HumanMessage": "human",
    "HumanMessageChunk": "human",
    "ai": "ai",
    "AIMessage": "ai",
    "AIMessageChunk": "ai",
    "tool": "tool",
    "ToolMessage": "tool",
    "ToolMessageChunk": "tool",
    "system": "system",
    "SystemMessage": "system",
    "SystemMessageChunk": "system",
    "function": "function",
    "FunctionMessage": "function",
    "chat": "chat",
    "ChatMessage": "chat",
}
"""LangChain message types (and class names) → the kind read."""
_SCAN: Final = 50


def unwrap(item: Any) -> tuple[str, Mapping[str, Any]] | None:
    """``(kind, fields)`` of a message in any of the three spellings, or None.

    >>> unwrap({"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages",
    ...         "HumanMessage"], "kwargs": {"content": "hi"}})
    ('human', {'content': 'hi'})
    >>> unwrap({"type": "ai", "data": {"content": "x"}}), unwrap({"role": "user"})
    (('ai', {'content': 'x'}), None)
    """
    if not (type(item) is dict or isinstance(item, Mapping)):
        return None
    if "lc" in item and isinstance(item.get("id"), list) and item["id"]:
        kind = TYPES.get(str(item["id"][-1]))
        kwargs = item.get("kwargs")
        return (kind, kwargs) if kind and isinstance(kwargs, Mapping) else None
    kind = TYPES.get(str(item.get("type")))
    if kind is None:
        return None
    data = item.get("data")
    if isinstance(data, Mapping) and "content" not in item:
        return kind, data
    return (kind, item) if "content" in item else None


def _messages(data: Any) -> Any:
    return (
        data.get("messages")
        if (type(data) is dict or isinstance(data, Mapping)) and "messages" in data
        else data
    )


def detect(data: Any) -> bool:
    """Whether ``data`` is a list of LangChain messages (any spelling) or a state with one.

    >>> detect([{"type": "human", "content": "hi"}]), detect({"messages": [{"role": "user"}]})
    (True, False)
    """
    items = _messages(data)
    if not isinstance(items, list) or not items:
        return False
    return all(unwrap(item) is not None for item in items[:_SCAN])


def langchain_usage(raw: Any) -> dict[str, Any] | None:
    """``usage_metadata`` as usage; token details flattened into ``details``.

    >>> langchain_usage({"input_tokens": 120, "output_tokens": 30,
    ...                  "input_token_details": {"cache_read": 100}})
    {'input_tokens': 120, 'output_tokens': 30, 'details': {'input_cache_read': 100}}
    >>> langchain_usage({"input_tokens": 1, "output_token_details": ["reasoning"]})
    {'input_tokens': 1}
    """
    if not isinstance(raw, Mapping):
        return None
    details: dict[str, Any] = {}
    for side in ("input", "output"):  # details that are no object hold no counters
        for key, value in mapping(raw.get(f"{side}_token_details")).items():
            if f"{side}_{key}" not in ("input_tokens", "output_tokens"):
                details[f"{side}_{key}"] = value
    return usage(
        raw.get("input_tokens"), raw.get("output_tokens"), raw.get("total_tokens"), **details
    )


class _Reader:
    def __init__(self, source: str | None, format_name: str | None = None) -> None:
        self.b = TraceBuilder(source=source, format_name=format_name)

    def item(self, where: str, item: Any) -> None:
        found = unwrap(item)
        if found is None:
            self.b.error(where, "not a LangChain message (lc, {type, data} or plain)", item)
            return
        kind, fields = found
        if kind == "ai":
            self.ai(where, fields)
        elif kind in ("tool", "function"):
            self.tool(where, fields)
        elif kind == "chat":
            role = fields.get("role")
            actor = (
                "agent"
                if role in ("assistant", "ai")
                else "user"
                if role in ("user", "human")
                else "system"
            )
            self.b.message(actor, content_text(fields.get("content")), where=where)
        else:
            self.b.message(
                "user" if kind == "human" else "system",
                content_text(fields.get("content")),
                where=where,
            )

    def ai(self, where: str, fields: Mapping[str, Any]) -> None:
        name = fields.get("name")
        self.b.switch_agent(name if isinstance(name, str) and name else None, where=where)
        meta = mapping(fields.get("response_metadata"))
        info: dict[str, Any] = {
            "model": meta.get("model_name") or meta.get("model"),
            "finish_reason": meta.get("finish_reason") or meta.get("stop_reason"),
            "usage": langchain_usage(fields.get("usage_metadata")),
            "agent": self.b.agent,
        }
        model = self.b.model_call(where=where, **{k: v for k, v in info.items() if v is not None})
        envelope = {"parent_id": model["event_id"], "agent": self.b.agent}
        envelope = {k: v for k, v in envelope.items() if v is not None}
        extra = mapping(fields.get("additional_kwargs"))
        if isinstance(extra.get("reasoning_content"), str) and extra["reasoning_content"]:
            self.b.reasoning(
                extra["reasoning_content"], where=f"{where}.additional_kwargs", **envelope
            )
        content = fields.get("content")
        if isinstance(content, list):
            for index, block in enumerate(content):
                kind = block.get("type") if isinstance(block, Mapping) else None
                if kind in ("thinking", "reasoning") and isinstance(block, Mapping):
                    text = block.get("thinking") or block.get("reasoning") or block.get("text")
                    self.b.reasoning(
                        text if isinstance(text, str) else None,
                        where=f"{where}.content[{index}]",
                        **envelope,
                    )
        text = content_text(content)
        if text:
            self.b.message("agent", text, where=f"{where}.content", **envelope)
        calls = items(fields.get("tool_calls"))
        invalid = items(fields.get("invalid_tool_calls"))
        group = self.b.group() if len(calls) + len(invalid) > 1 else None
        for index, call in enumerate(calls):
            self.call(f"{where}.tool_calls[{index}]", call, group, envelope, None)
        for index, call in enumerate(invalid):
            error = call.get("error") if isinstance(call, Mapping) else None
            self.call(f"{where}.invalid_tool_calls[{index}]", call, group, envelope, error)

    def call(
        self, where: str, call: Any, group: str | None, envelope: dict[str, Any], error: Any
    ) -> None:
        name = call.get("name") if isinstance(call, Mapping) else None
        if not isinstance(name, str) or not name:
            self.b.error(where, "a tool call without a name", call)
            return
        assert isinstance(call, Mapping)
        arguments = call.get("args", {})
        extra: dict[str, Any] | None = None
        if error is not None or ".invalid_tool_calls[" in where:
            extra = {"invalid_tool_call": True}
        if isinstance(error, str) and error:
            extra = {**(extra or {}), "invalid_error": error}
        call_id = call.get("id") if isinstance(call.get("id"), str) else None
        self.b.call(
            name, arguments, where=where, call_id=call_id, group=group, extra=extra, **envelope
        )

    def tool(self, where: str, fields: Mapping[str, Any]) -> None:
        content = fields.get("content")
        text = content_text(content) if isinstance(content, list) else content
        failed = fields.get("status") == "error"
        extra = {"artifact": fields["artifact"]} if fields.get("artifact") is not None else None
        call_id = fields.get("tool_call_id")
        name = fields.get("name")
        result, raw = result_as_written(text)
        self.b.result(
            result,
            result_raw=raw,
            where=where,
            call_id=call_id if isinstance(call_id, str) else None,
            name=name if isinstance(name, str) else None,
            is_error=failed,
            error_message=text if failed and isinstance(text, str) else None,
            extra=extra,
        )


def to_records(data: Any, *, source: str | None = None, **options: Any) -> Iterator[TrialRecord]:
    """The one run of a LangChain message list (see the module docs). The option
    ``format_name`` (the readers pass it) is named in the record's ``metadata["format"]``.

    Raises:
        RecordError: ``data`` holds no message list.
    """
    messages = item_list(_messages(data), "LangChain messages", source)
    reader = _Reader(source, options.get("format_name"))
    prefix = "$" if messages is data else "$.messages"
    for index, item in enumerate(messages):
        reader.item(f"{prefix}[{index}]", item)
    metadata = (
        {k: v for k, v in data.items() if k != "messages"} if isinstance(data, Mapping) else None
    )
    yield reader.b.build(metadata=metadata)


def to_record(data: Any, **options: Any) -> TrialRecord:
    """The record of a LangChain message list (``to_records``' one run)."""
    return next(to_records(data, **options))


def read(path: str | os.PathLike[str], **options: Any) -> TrialRecord:
    """Read a LangChain message list from a JSON file."""
    return read_with(to_records, path, **options)


__all__ = ["TYPES", "detect", "langchain_usage", "read", "to_record", "to_records", "unwrap"]
