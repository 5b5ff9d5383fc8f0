"""An MCP JSON-RPC log → :class:`~agent_asserts.record.TrialRecord` (``mcp``).

Reads the JSON-RPC 2.0 messages of one MCP session: a list, ``{"messages": [...]}``, or a
JSON Lines file (one message a line: the whole file is one run). JSON data only; the MCP SDK
is not imported.

========================================  ===================================================
MCP                                       record
========================================  ===================================================
``tools/call`` request                    ``tool_call``, ``source`` ``mcp``, ``name`` /
                                          ``arguments`` from ``params``, ``call_id`` = the
                                          JSON-RPC ``id``; requests sent while another is
                                          unanswered share a ``group_id`` (parallel)
its ``result``                            ``result`` = ``structuredContent``, else the text
                                          content (JSON text parsed); ``content`` kept
                                          beside a ``structuredContent``
``result.isError``                        ``failed``, ``error_message`` = the text (the
                                          SDK's snake_case dump is read too)
JSON-RPC ``error``                        ``failed``, ``error_type`` = the code,
                                          ``error_message`` = its message
``resultType: input_required``            the call stays ``pending``
``initialize`` result ``serverInfo``,     ``mcp_server`` of every call (else the ``server``
a result's ``_meta`` server info (2.x)    option)
``tools/list`` result                     ``record.tools``
any other message                         an ``mcp`` event (method, params / result)
========================================  ===================================================

>>> rec = to_record([
...     {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
...      "params": {"name": "refund", "arguments": {"id": "A1"}}},
...     {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "timed out"}],
...                                             "isError": True}},
... ], server="billing")
>>> call = rec.tool_calls[0].payload
>>> call.source, call.mcp_server, call.outcome, call.error_message
('mcp', 'billing', 'failed', 'timed out')
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from typing import Any, Final

from agent_asserts.record.adapters.toolkit import (
    TraceBuilder,
    content_text,
    item_list,
    json_or_text,
    tool_definitions,
)
from agent_asserts.record.errors import RecordError
from agent_asserts.record.parsing import parse_json, read_text
from agent_asserts.record.trial import TrialRecord

FORMAT: Final = "mcp"
"""The name this module is registered under (the record-format registry finds it)."""
ORDER: Final = 90
"""Its place among the built-in formats (their listing and error-message order)."""
TAGS_RECORDS: Final = True
"""``to_records`` takes ``format_name`` (the readers' ``metadata["format"]``)."""

_SCAN: Final = 50
SERVER_INFO: Final = "io.modelcontextprotocol/serverInfo"
"""The ``_meta`` key of every result naming the server (protocol 2026-07-28, MCP SDK 2.x)."""


def _is_message(item: Any) -> bool:
    return (type(item) is dict or isinstance(item, Mapping)) and item.get("jsonrpc") == "2.0"


def _messages(data: Any) -> Any:
    return (
        data.get("messages")
        if (type(data) is dict or isinstance(data, Mapping)) and "messages" in data
        else data
    )


def detect(data: Any) -> bool:
    """Whether ``data`` is a JSON-RPC 2.0 log (or one message: a JSON Lines file's first line).

    >>> detect([{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {}}])
    True
    >>> detect({"jsonrpc": "2.0", "method": "notifications/initialized"}), detect([{"id": 1}])
    (True, False)
    """
    if _is_message(data):
        return True
    items = _messages(data)
    return isinstance(items, list) and bool(items) and all(_is_message(i) for i in items[:_SCAN])


def _key(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, str | int):
        return None
    return str(value)


class _Reader:
    def __init__(
        self, source: str | None, server: str | None, format_name: str | None = None
    ) -> None:
        self.b = TraceBuilder(source=source, format_name=format_name)
        self.server = server
        self.pending: dict[str, tuple[str, dict[str, Any] | None]] = {}  # id → method, event
        self.group: str | None = None
        self.tools: list[dict[str, Any]] | None = None
        self.calls: list[dict[str, Any]] = []

    def item(self, where: str, item: Any) -> None:
        if not _is_message(item):
            self.b.error(where, "not a JSON-RPC 2.0 message", item)
            return
        method = item.get("method")
        key = _key(item.get("id"))
        if isinstance(method, str):
            if method == "tools/call" and key is not None:
                self.request(where, item, key)
            else:
                event = self.b.add(
                    "mcp", {"method": method, "params": item.get("params")}, where=where
                )
                if key is not None:
                    self.pending[key] = (method, event)
        elif "result" in item or "error" in item:
            self.response(where, item, key)
        else:
            self.b.error(where, "a JSON-RPC message with neither a method nor a result", item)

    def server_info(self, method: str, result: Any) -> None:
        """The server's name, the first one given: an ``initialize`` result's ``serverInfo``
        (protocol up to 2025-11-25), or the ``_meta`` every result carries from 2026-07-28 on
        (``server/discover`` and after)."""
        if self.server is not None or not isinstance(result, Mapping):
            return
        info = result.get("serverInfo") if method == "initialize" else None
        meta = result.get("_meta")
        if info is None and isinstance(meta, Mapping):
            info = meta.get(SERVER_INFO)
        if isinstance(info, Mapping) and isinstance(info.get("name"), str) and info["name"]:
            self.server = info["name"]

    def request(self, where: str, item: Mapping[str, Any], key: str) -> None:
        params = item.get("params")
        name = params.get("name") if isinstance(params, Mapping) else None
        if not isinstance(name, str) or not name:
            self.b.error(where, "a tools/call request without params.name", item)
            return
        assert isinstance(params, Mapping)
        if not any(m == "tools/call" for m, _ in self.pending.values()):
            self.group = self.b.group()
        extra = {"meta": params["_meta"]} if isinstance(params.get("_meta"), Mapping) else None
        event = self.b.call(
            name,
            params.get("arguments", {}),
            where=where,
            call_id=key,
            group=self.group,
            source="mcp",
            extra=extra,
        )
        self.calls.append(event)
        self.pending[key] = ("tools/call", event)

    def response(self, where: str, item: Mapping[str, Any], key: str | None) -> None:
        method, event = self.pending.pop(key, ("", None)) if key is not None else ("", None)
        self.server_info(method, item.get("result"))
        if method != "tools/call":
            result = item.get("result")
            if method == "tools/list" and isinstance(result, Mapping):
                self.tools = tool_definitions(result.get("tools"), schema="inputSchema")
            body = {"method": method or None, "result": result, "error": item.get("error")}
            if event is not None:
                event["payload"].update(
                    {k: v for k, v in body.items() if v is not None and k != "method"}
                )
                event["payload"]["trace_items"].append(where)
            else:
                self.b.add("mcp", {k: v for k, v in body.items() if v is not None}, where=where)
            return
        error = item.get("error")
        if isinstance(error, Mapping):
            self.b.result(
                None,
                where=where,
                call_id=key,
                is_error=True,
                error_message=str(error.get("message", "")),
                error_type=str(error.get("code")) if error.get("code") is not None else None,
                extra={"error_data": error["data"]} if "data" in error else None,
            )
            return
        result = item.get("result")
        if not isinstance(result, Mapping):
            self.b.error(where, "a tools/call result must be an object", item)
            return
        content = result.get("content")
        text = content_text(content) if isinstance(content, list) else None
        structured = next(
            (k for k in ("structuredContent", "structured_content") if k in result), None
        )
        value = result[structured] if structured else json_or_text(text)
        extra = {"content": content} if structured and content else None
        if result.get("resultType", result.get("result_type")) == "input_required":
            self.b.result(value, where=where, call_id=key, outcome="pending", extra=extra)
            return
        failed = result.get("isError", result.get("is_error")) is True
        self.b.result(
            value,
            where=where,
            call_id=key,
            is_error=failed,
            error_message=text if failed else None,
            extra=extra,
        )


def to_records(
    data: Any, *, source: str | None = None, server: str | None = None, **options: Any
) -> Iterator[TrialRecord]:
    """The one run of an MCP session log (see the module docs); ``server`` names the MCP
    server when the log has no ``initialize`` result. The option ``format_name`` (the readers
    pass it) is named in the record's ``metadata["format"]``.

    Raises:
        RecordError: ``data`` holds no message list.
    """
    messages = item_list(
        [data] if _is_message(data) else _messages(data), "JSON-RPC messages", source
    )
    reader = _Reader(source, server, options.get("format_name"))
    prefix = "$.messages" if isinstance(data, Mapping) and "messages" in data else "$"
    for index, item in enumerate(messages):
        reader.item(f"{prefix}[{index}]", item)
    if reader.server is not None:
        for event in reader.calls:
            event["payload"]["mcp_server"] = reader.server
    metadata = (
        {k: v for k, v in data.items() if k != "messages"}
        if isinstance(data, Mapping) and "messages" in data
        else None
    )
    status = (
        "incomplete" if any(m == "tools/call" for m, _ in reader.pending.values()) else "completed"
    )
    # a tool log records calls only: no messages, so the reply is not recorded (MISSING)
    yield reader.b.build(status=status, metadata=metadata, tools=reader.tools, surfaces=SURFACES)


SURFACES: Final = ("tool_call", "mcp")
"""The kinds an MCP log records: no messages (the reply is not recorded), no model calls."""


def read_records(path: str | os.PathLike[str], **options: Any) -> Iterator[TrialRecord]:
    """The one run of a log file: one JSON document, or JSON Lines (one message a line; a line
    that is not JSON is a parse error at its line)."""
    name, text = read_text(path)
    options.setdefault("source", name)
    try:
        yield from to_records(parse_json(text, name), **options)
        return
    except RecordError:
        if not text.lstrip().startswith("{"):
            raise
    messages: list[Any] = []
    bad: list[dict[str, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                messages.append(json.loads(line))
            except ValueError as exc:
                bad.append(
                    {"position": f"line {number}", "reason": f"not JSON: {exc}", "item": line}
                )
    record = next(to_records(messages, **options))
    if bad:
        errors = [*record.to_dict().get("parse_errors", []), *bad]
        record = TrialRecord.from_dict({**record.to_dict(), "parse_errors": errors}, source=name)
    yield record


def to_record(data: Any, **options: Any) -> TrialRecord:
    """The record of an MCP session log (``to_records``' one run)."""
    return next(to_records(data, **options))


def read(path: str | os.PathLike[str], **options: Any) -> TrialRecord:
    """Read an MCP session log from a JSON or JSON Lines file."""
    return next(read_records(path, **options))


__all__ = ["detect", "read", "read_records", "to_record", "to_records"]
