"""OpenAI Responses API items → :class:`~agent_asserts.record.TrialRecord` (``openai-responses``).

Reads a list of input/output items, ``{"input": [...], "response": Response}``, a ``Response``
(``{"object": "response", "output": [...]}``), or a list mixing items and ``Response``
objects. JSON data only; the SDK is not imported.

=========================================  ==================================================
Responses                                  record
=========================================  ==================================================
``message`` role ``user``                  ``message`` ``user`` (``input_text`` parts joined)
``message`` role ``system``/``developer``  ``message`` with ``actor_ref`` ``system``
consecutive output items (or a             one ``model_call`` (a ``Response`` gives model,
``Response``'s ``output``)                 usage, ``created_at``, its status)
``reasoning``                              ``reasoning`` (summary and content text)
``message`` role ``assistant``             ``agent`` message (``output_text`` parts joined)
``function_call`` / ``custom_tool_call``   ``tool_call`` (``call_id``; arguments parsed; the
                                           calls of one response share a ``group_id``)
``function_call_output``                   the call's ``result``; ``Error:`` text or
                                           ``{"error": …}`` → ``failed`` (a convention:
                                           ``detect_errors=False`` turns it off)
``mcp_call``                               ``tool_call`` ``source`` ``mcp``, ``mcp_server`` =
                                           ``server_label``; ``error``/``status: failed`` →
                                           ``failed`` with the error's ``type`` as
                                           ``error_type``
hosted calls (``web_search_call``…)        ``tool_call`` named by the item type, ``failed``
                                           when its status is ``failed``
=========================================  ==================================================

>>> rec = to_record([
...     {"type": "message", "role": "user", "content": "Refund A1"},
...     {"type": "function_call", "call_id": "c1", "name": "refund", "arguments": '{"id": "A1"}'},
...     {"type": "function_call_output", "call_id": "c1", "output": "Error: timed out"},
...     {"type": "message", "role": "assistant",
...      "content": [{"type": "output_text", "text": "No."}]},
... ])
>>> rec.tool_calls[0].payload.outcome, rec.reply, [e.kind for e in rec.events]
('failed', 'No.', ['message', 'model_call', 'tool_call', 'model_call', 'message'])
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
    mapping,
    openai_usage,
    read_with,
    result_as_written,
    tool_error,
)
from agent_asserts.record.trial import TrialRecord

FORMAT: Final = "openai-responses"
"""The name this module is registered under (the record-format registry finds it)."""
ORDER: Final = 60
"""Its place among the built-in formats (their listing and error-message order)."""
TAGS_RECORDS: Final = True
"""``to_records`` takes ``format_name`` (the readers' ``metadata["format"]``)."""

OUTPUT_ITEMS: Final = frozenset(
    {
        "function_call",
        "custom_tool_call",
        "reasoning",
        "mcp_call",
        "web_search_call",
        "file_search_call",
        "code_interpreter_call",
        "computer_call",
        "image_generation_call",
        "local_shell_call",
        "shell_call",
        "apply_patch_call",
        "mcp_list_tools",
        "mcp_approval_request",
    }
)
"""Item types a model response produces (an assistant ``message`` too)."""
RESULT_ITEMS: Final = frozenset(
    {
        "function_call_output",
        "custom_tool_call_output",
        "computer_call_output",
        "local_shell_call_output",
        "shell_call_output",
        "apply_patch_call_output",
        "mcp_approval_response",
    }
)
_CALLS: Final = frozenset({"function_call", "custom_tool_call"})
_ANTHROPIC: Final = frozenset({"stop_reason", "model", "usage"})
_SCAN: Final = 50


def _is_response(item: Any) -> bool:
    return (type(item) is dict or isinstance(item, Mapping)) and item.get("object") == "response"


def _type(item: Any) -> str | None:
    kind = item.get("type") if isinstance(item, Mapping) else None
    return kind if isinstance(kind, str) else None


def _is_item(item: Any) -> bool:
    kind = _type(item)
    if kind == "message":  # an Anthropic Message has a model and a stop reason
        return isinstance(item, Mapping) and "role" in item and not item.keys() & _ANTHROPIC
    return kind in OUTPUT_ITEMS or kind in RESULT_ITEMS or kind == "item_reference"


def _items(data: Any) -> Any:
    if (
        (type(data) is dict or isinstance(data, Mapping))
        and "input" in data
        and not _is_response(data)
    ):
        return data["input"]
    return data


def detect(data: Any) -> bool:
    """Whether ``data`` is Responses API data: typed items (``function_call``,
    ``function_call_output``, ``reasoning``, ``message`` with a role…) or ``Response`` objects.

    >>> detect([{"type": "function_call_output", "call_id": "c", "output": "ok"}])
    True
    >>> detect([{"role": "user", "content": "hi"}]), detect({"object": "response", "output": []})
    (False, True)
    """
    if _is_response(data):
        return True
    items = _items(data)
    if not isinstance(items, list) or not items:
        return False
    sample = items[:_SCAN]
    typed = [i for i in sample if _is_item(i) or _is_response(i)]
    loose = [i for i in sample if isinstance(i, Mapping) and i.get("role") and "type" not in i]
    return bool(typed) and len(typed) + len(loose) == len(sample)


class _Reader:
    def __init__(
        self, source: str | None, detect_errors: bool, format_name: str | None = None
    ) -> None:
        self.b = TraceBuilder(source=source, format_name=format_name)
        self.detect_errors = detect_errors
        self.model: dict[str, Any] | None = None  # the open model call
        self.group: str | None = None

    def close(self) -> None:
        self.model = None
        self.group = None

    def open(self, where: str, **info: Any) -> str:
        if self.model is None:
            self.model = self.b.model_call(
                where=where, **{k: v for k, v in info.items() if v is not None}
            )
            self.group = self.b.group()
        else:
            self.model["payload"]["trace_items"].append(where)
        return str(self.model["event_id"])

    def item(self, where: str, item: Any) -> None:
        if _is_response(item):
            self.response(where, item)
            return
        kind = _type(item)
        role = item.get("role") if isinstance(item, Mapping) else None
        if (kind == "message" or (kind is None and role)) and isinstance(item, Mapping):
            self.message(where, item, role)
        elif kind in OUTPUT_ITEMS and isinstance(item, Mapping):
            self.output(where, item, self.open(where))
        elif kind in RESULT_ITEMS and isinstance(item, Mapping):
            self.close()
            self.result(where, item)
        elif kind == "item_reference":
            self.b.error(where, "an item_reference: the item it names is not in the data", item)
        else:
            self.b.error(where, "not a Responses API item (a known type)", item)

    def message(self, where: str, item: Mapping[str, Any], role: Any) -> None:
        text = content_text(item.get("content"))
        if role == "assistant":
            parent = self.open(where)
            self.b.message("agent", text, where=f"{where}.content", parent_id=parent)
            if item.get("phase") is not None:
                self.b.events[-1]["payload"]["phase"] = item["phase"]
        elif role in ("user", "system", "developer"):
            self.close()
            self.b.message("user" if role == "user" else "system", text, where=where)
        else:
            self.b.error(where, f"a message with an unknown role {role!r}", item)

    def response(self, where: str, item: Mapping[str, Any]) -> None:
        self.close()
        status = item.get("status")
        error = mapping(item.get("error"))
        self.open(
            where,
            model=item.get("model"),
            usage=openai_usage(item.get("usage")),
            wall_time=self.b.time(item.get("created_at"), where=f"{where}.created_at"),
            error_message=error.get("message") if status == "failed" else None,
            error_type=error.get("code") if status == "failed" else None,
        )
        assert self.model is not None
        started, ended = item.get("created_at"), item.get("completed_at")
        if isinstance(started, int | float) and isinstance(ended, int | float) and ended >= started:
            self.model["duration"] = float(ended - started)
        output = item.get("output")
        if not isinstance(output, list):
            self.b.error(f"{where}.output", "a response without an output list", output)
            output = []
        for index, entry in enumerate(output):
            self.item(f"{where}.output[{index}]", entry)
        self.close()

    def output(self, where: str, item: Mapping[str, Any], parent: str) -> None:
        kind = item["type"]
        if kind == "reasoning":
            summary = "\n".join(content_text(item.get("summary"), ("summary_text",)).split("\n"))
            text = content_text(item.get("content"), ("reasoning_text", "text"))
            redacted = not text and not summary and "encrypted_content" in item
            self.b.reasoning(
                text or None,
                summary=summary or None,
                redacted=redacted,
                where=where,
                parent_id=parent,
            )
        elif kind in _CALLS:
            name = item.get("name")
            if not isinstance(name, str) or not name:
                self.b.error(where, "a call without a name", item)
                return
            arguments = (
                item.get("arguments", MISSING)
                if kind == "function_call"
                else {"input": item.get("input")}
            )
            self.b.call(
                name,
                arguments,
                where=where,
                call_id=_str(item.get("call_id")),
                group=self.group,
                parent_id=parent,
            )
        elif kind == "mcp_call":
            self.mcp(where, item, parent)
        else:
            self.hosted(where, item, parent)

    def mcp(self, where: str, item: Mapping[str, Any], parent: str) -> None:
        name = item.get("name")
        if not isinstance(name, str) or not name:
            self.b.error(where, "an mcp_call without a name", item)
            return
        call_id = _str(item.get("id"))
        self.b.call(
            name,
            item.get("arguments", MISSING),
            where=where,
            call_id=call_id,
            group=self.group,
            source="mcp",
            mcp_server=_str(item.get("server_label")),
            parent_id=parent,
        )
        error = item.get("error")
        failed = error is not None or item.get("status") == "failed"
        message = None
        if isinstance(error, Mapping):
            message = error.get("message") or content_text(error.get("content")) or None
        elif isinstance(error, str):
            message = error
        if item.get("status") in ("in_progress", "calling") and error is None:
            return  # still pending
        result, raw = result_as_written(item.get("output"))
        self.b.result(
            result,
            result_raw=raw,
            where=where,
            call_id=call_id,
            name=name,
            is_error=failed,
            error_message=message,
            error_type=error.get("type") if isinstance(error, Mapping) else None,
        )
        self.b.events[-1]["payload"]["trace_items"].pop()  # the same item, listed once

    def hosted(self, where: str, item: Mapping[str, Any], parent: str) -> None:
        kind = item["type"]
        arguments = {k: v for k, v in item.items() if k not in ("type", "id", "status", "call_id")}
        call_id = _str(item.get("call_id")) or _str(item.get("id"))
        event = self.b.call(
            kind, arguments, where=where, call_id=call_id, group=self.group, parent_id=parent
        )
        status = item.get("status")
        if status in ("completed", "failed", "incomplete"):
            self.b.result(
                None,
                where=where,
                call_id=call_id,
                name=kind,
                is_error=status == "failed",
                outcome="failed" if status in ("failed", "incomplete") else None,
            )
            event["payload"]["trace_items"].pop()

    def result(self, where: str, item: Mapping[str, Any]) -> None:
        output = item.get("output")
        result, raw = result_as_written(
            content_text(output) if isinstance(output, list) else output
        )
        error = tool_error(result) if self.detect_errors else None
        self.b.result(
            result,
            result_raw=raw,
            where=where,
            call_id=_str(item.get("call_id")),
            name=_str(item.get("name")),
            is_error=error is not None,
            error_message=error,
        )


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def to_records(
    data: Any, *, source: str | None = None, detect_errors: bool = True, **options: Any
) -> Iterator[TrialRecord]:
    """The one run of Responses API items (see the module docs). The option
    ``format_name`` (the readers pass it) is named in the record's ``metadata["format"]``.

    Raises:
        RecordError: ``data`` holds no item list.
    """
    reader = _Reader(source, detect_errors, options.get("format_name"))
    if _is_response(data):
        reader.response("$", data)
    else:
        items = item_list(_items(data), "Responses API items", source)
        prefix = "$" if items is data else "$.input"
        for index, item in enumerate(items):
            reader.item(f"{prefix}[{index}]", item)
    status = metadata = None
    if isinstance(data, Mapping) and "input" in data and not _is_response(data):
        response = mapping(data.get("response"))
        if _is_response(response):
            reader.response("$.response", response)
            status = response.get("status") if response.get("status") == "failed" else None
        metadata = {k: v for k, v in data.items() if k not in ("input", "response")}
    yield reader.b.build(status=status, metadata=metadata)


def to_record(data: Any, **options: Any) -> TrialRecord:
    """The record of Responses API items (``to_records``' one run)."""
    return next(to_records(data, **options))


def read(path: str | os.PathLike[str], **options: Any) -> TrialRecord:
    """Read Responses API items from a JSON file."""
    return read_with(to_records, path, **options)


__all__ = ["OUTPUT_ITEMS", "RESULT_ITEMS", "detect", "read", "to_record", "to_records"]
