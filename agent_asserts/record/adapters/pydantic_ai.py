"""Pydantic AI message history (``ModelMessagesTypeAdapter`` JSON) →
:class:`~agent_asserts.record.TrialRecord`.

The history is a list of ``{"kind": "request" | "response", "parts": [...]}``. The mapping:

===================================  ==============================================================
part (``part_kind``)                 record
===================================  ==============================================================
``user-prompt``                      ``message`` from ``user`` (opens a turn); ``wall_time``
``system-prompt``, instructions      ``message`` from ``system`` (no turn, never the reply)
a response                           ``model_call``: ``model_name``, ``provider_name``,
                                     ``finish_reason``, usage (``input_tokens`` include cache
                                     reads and writes, which are in ``details``)
``text``                             ``message`` from ``agent`` (the last is the reply)
``thinking``                         ``reasoning`` (``redacted`` when only a signature is kept)
``tool-call``, ``builtin-tool-call``  ``tool_call``: ``tool_name``, ``args`` (an object or JSON
                                     text, parsed; invalid text kept in ``arguments_raw``),
                                     ``tool_call_id``; the calls of one response share a
                                     ``group_id``
``tool-return``                      the call's ``result``; ``outcome`` (``success`` →
                                     ``succeeded``, ``failed``, ``denied``, ``interrupted``,
                                     ``retried``), ``is_error`` unless a success
``retry-prompt`` with a tool         the call failed and the model is asked to retry:
                                     ``outcome`` ``retried``, ``error_message`` (validation
                                     errors joined)
``retry-prompt`` without a tool      ``record.errors`` (the output failed validation)
===================================  ==============================================================

A return is paired with its call by ``tool_call_id`` (else by tool name and order); a call
without one keeps ``outcome`` ``pending``, a return without a call is a ``tool_call`` of its
own, ``pending`` too. Tool returns travel in requests but never make a user message. The
history has no agent names, so a sub-agent run inside a tool is not visible.

>>> rec = to_record([
...     {"kind": "request", "parts": [{"part_kind": "user-prompt", "content": "Refund A1049"}]},
...     {"kind": "response", "model_name": "gpt-4o", "parts": [
...         {"part_kind": "tool-call", "tool_name": "lookup", "args": '{"id": 7}',
...          "tool_call_id": "c1"}]},
...     {"kind": "request", "parts": [{"part_kind": "tool-return", "tool_name": "lookup",
...                                   "content": "paid", "tool_call_id": "c1"}]},
...     {"kind": "response", "parts": [{"part_kind": "text", "content": "Paid."}]}])
>>> call = rec.tool_calls[0].payload
>>> call.arguments, call.result, call.outcome, rec.reply
({'id': 7}, 'paid', 'succeeded', 'Paid.')
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any, Final

from agent_asserts.record.adapters._arguments import count, parse_arguments
from agent_asserts.record.adapters._finish import decode_record
from agent_asserts.record.adapters._spans import iso_seconds
from agent_asserts.record.adapters._trace_files import only_record, read_documents
from agent_asserts.record.errors import Problem, RecordError
from agent_asserts.record.payloads import ERROR_OUTCOMES, TOOL_OUTCOMES
from agent_asserts.record.trial import TrialRecord

NAME = "pydantic-ai"
REPORTED_BY: Final = (
    "Pydantic AI: input_tokens include cache_read_tokens and cache_write_tokens (in details)"
)
_OUTCOMES: Final = {"success": "succeeded"}
_USAGE_COUNTS: Final = ("input_tokens", "output_tokens")
_SYSTEM_PARTS: Final = ("system-prompt", "instruction", "instructions")


def _is_message(item: Any) -> bool:
    return (
        isinstance(item, Mapping)
        and item.get("kind") in ("request", "response")
        and isinstance(item.get("parts"), list)
    )


def detect(data: Any) -> bool:
    """Whether ``data`` is a Pydantic AI message history (or a list of histories).

    >>> detect([{"kind": "request", "parts": []}]), detect([{"role": "user"}])
    (True, False)
    """
    if isinstance(data, list) and data and isinstance(data[0], list):
        data = data[0]
    return isinstance(data, list) and bool(data) and all(_is_message(m) for m in data[:20])


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(item for item in content if isinstance(item, str))
    return ""


def _error_text(content: Any) -> str:
    """A retry prompt's content: text, or Pydantic ``ErrorDetails`` joined as ``loc: msg``."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        lines = []
        for detail in content:
            if isinstance(detail, Mapping):
                where = detail.get("loc")
                loc = ".".join(str(part) for part in where) if isinstance(where, list) else ""
                message = str(detail.get("msg", ""))
                lines.append(f"{loc}: {message}" if loc else message)
        return "; ".join(lines)
    return str(content)


class _History:
    """The events of one history, built message by message."""

    def __init__(self, source: str | None) -> None:
        self.source = source
        self.events: list[dict[str, Any]] = []
        self.calls: dict[str, dict[str, Any]] = {}  # call id -> tool_call payload
        self.open: list[dict[str, Any]] = []  # payloads still waiting for a return
        self.errors: list[dict[str, Any]] = []
        self.run_errors: list[Any] = []
        self.usage: dict[str, Any] = {}
        self.positions: list[str] = []  # where each event came from
        self.where = "$"
        self.ids = 0

    def emit(self, event: dict[str, Any], when: Any = None) -> str:
        event_id = f"e{self.ids}"
        self.ids += 1
        event["event_id"] = event_id
        seconds = iso_seconds(when)
        if seconds is not None:
            event["wall_time"] = seconds
        self.events.append(event)
        self.positions.append(self.where)
        return event_id

    def parse_error(self, where: str, reason: str, item: Any) -> None:
        error: dict[str, Any] = {"position": where, "reason": reason, "item": item}
        if self.source is not None:
            error["source"] = self.source
        self.errors.append(error)

    def request(self, message: Mapping[str, Any], where: str) -> None:
        if isinstance(message.get("instructions"), str) and message["instructions"]:
            payload = {"text": message["instructions"]}
            self.emit({"kind": "message", "actor_ref": "system", "payload": payload})
        for index, part in enumerate(message["parts"]):
            here = f"{where}.parts[{index}]"
            kind = part.get("part_kind") if isinstance(part, Mapping) else None
            if kind == "user-prompt":
                payload = {"text": _text(part.get("content"))}
                self.emit(
                    {"kind": "message", "actor_ref": "user", "payload": payload},
                    part.get("timestamp"),
                )
            elif kind in _SYSTEM_PARTS and isinstance(part.get("content"), str):
                payload = {"text": part["content"]}
                self.emit(
                    {"kind": "message", "actor_ref": "system", "payload": payload},
                    part.get("timestamp"),
                )
            elif kind in (
                "tool-return",
                "builtin-tool-return",
                "native-tool-return",
                "retry-prompt",
            ):
                self.tool_return(part, kind, here)
            else:
                self.parse_error(here, f"unsupported request part {kind!r}", part)

    def tool_return(self, part: Mapping[str, Any], kind: str, where: str) -> None:
        name = part.get("tool_name")
        if kind == "retry-prompt" and not name:
            self.run_errors.append({"retry_prompt": _error_text(part.get("content"))})
            return
        payload = self._call_for(part)
        matched = payload is not None
        if payload is None:
            payload = {"name": str(name or "unknown"), "is_error": False, "outcome": "pending"}
            if isinstance(part.get("tool_call_id"), str):
                payload["call_id"] = part["tool_call_id"]
            self.emit({"kind": "tool_call", "payload": payload}, part.get("timestamp"))
        if kind == "retry-prompt":
            payload.update(is_error=matched, outcome="retried" if matched else "pending")
            payload["error_message"] = _error_text(part.get("content"))
            return
        raw_outcome = part.get("outcome")
        outcome = raw_outcome if isinstance(raw_outcome, str) else "success"
        outcome = _OUTCOMES.get(outcome, outcome if outcome in TOOL_OUTCOMES else "failed")
        if matched:
            payload["outcome"] = outcome
        payload["is_error"] = matched and outcome in ERROR_OUTCOMES
        if outcome == "succeeded":
            payload["result"] = part.get("content")
            return
        payload["error_message"] = _error_text(part.get("content")) or outcome
        retry = part.get("retry")
        if isinstance(retry, Mapping) and isinstance(retry.get("cause"), str):
            payload["error_type"] = retry["cause"]

    def _call_for(self, part: Mapping[str, Any]) -> dict[str, Any] | None:
        call_id = part.get("tool_call_id")
        payload = self.calls.get(call_id) if isinstance(call_id, str) else None
        if payload is None:
            payload = next((p for p in self.open if p["name"] == part.get("tool_name")), None)
        if payload is not None and payload in self.open:
            self.open.remove(payload)
        return payload

    def response(self, message: Mapping[str, Any], where: str) -> None:
        when = message.get("timestamp")
        model_id = self.emit({"kind": "model_call", "payload": self.model_payload(message)}, when)
        for index, part in enumerate(message["parts"]):
            here = f"{where}.parts[{index}]"
            kind = part.get("part_kind") if isinstance(part, Mapping) else None
            if kind == "text":
                payload = {"text": _text(part.get("content"))}
                self.emit({"kind": "message", "actor_ref": "agent", "payload": payload}, when)
            elif kind == "thinking":
                text = _text(part.get("content"))
                thought: dict[str, Any] = {"text": text}
                if not text and part.get("signature"):
                    thought["redacted"] = True
                self.emit({"kind": "reasoning", "payload": thought}, when)
            elif kind in ("tool-call", "builtin-tool-call", "native-tool-call"):
                self.tool_call(part, here, model_id, when)
            else:
                self.parse_error(here, f"unsupported response part {kind!r}", part)

    def model_payload(self, message: Mapping[str, Any]) -> dict[str, Any]:
        payload: dict[str, Any] = {}
        for key, name in (("model_name", "model"), ("provider_name", "provider")):
            if isinstance(message.get(key), str):
                payload[name] = message[key]
        if isinstance(message.get("finish_reason"), str):
            payload["finish_reason"] = message["finish_reason"]
        raw = message.get("usage")
        if isinstance(raw, Mapping):
            usage: dict[str, Any] = {
                k: value for k in _USAGE_COUNTS if (value := count(raw.get(k))) is not None
            }
            if len(usage) == 2:
                usage["total_tokens"] = usage["input_tokens"] + usage["output_tokens"]
            details = {
                str(k): value
                for k, v in raw.items()
                if k not in _USAGE_COUNTS and (value := count(v))
            }
            if details:
                usage["details"] = details
            usage["reported_by"] = REPORTED_BY
            payload["usage"] = usage
            for key, value in usage.items():
                if key in ("input_tokens", "output_tokens", "total_tokens"):
                    self.usage[key] = self.usage.get(key, 0) + value
            for key, value in details.items():
                self.usage.setdefault("details", {})
                self.usage["details"][key] = self.usage["details"].get(key, 0) + value
        return payload

    def tool_call(self, part: Mapping[str, Any], where: str, model_id: str, when: Any) -> None:
        name = str(part.get("tool_name") or "unknown")
        payload: dict[str, Any] = {"name": name}
        arguments, raw, problem = parse_arguments(part.get("args") if "args" in part else {})
        if problem is None:
            payload["arguments"] = arguments
        else:
            payload["arguments_raw"] = raw
            self.parse_error(f"{where}.args", problem, raw)
        payload["is_error"] = False
        payload["outcome"] = "pending"
        if isinstance(part.get("tool_call_id"), str):
            payload["call_id"] = part["tool_call_id"]
            self.calls[part["tool_call_id"]] = payload
        if part.get("part_kind") != "tool-call":
            payload["builtin"] = True
        self.emit({"kind": "tool_call", "group_id": model_id, "payload": payload}, when)
        self.open.append(payload)


def _history(messages: list[Any], where: str, source: str | None) -> TrialRecord:
    history = _History(source)
    for index, message in enumerate(messages):
        here = f"{where}[{index}]"
        history.where = here
        if not _is_message(message):
            history.parse_error(
                here, "not a Pydantic AI message (kind request/response with parts)", message
            )
        elif message["kind"] == "request":
            history.request(message, here)
        else:
            history.response(message, here)
    data: dict[str, Any] = {"events": history.events, "parse_errors": history.errors}
    data["status"] = "completed"
    if history.run_errors:
        data["errors"] = history.run_errors
    if history.usage:
        data["usage"] = {**history.usage, "reported_by": REPORTED_BY}
    return decode_record(data, history.positions, history.parse_error, history.errors, source)


def to_records(data: Any, *, source: str | None = None) -> Iterator[TrialRecord]:
    """One record per history: ``data`` is a history, or a list of histories.

    Raises:
        RecordError: ``data`` is not a list.
    """
    if not isinstance(data, list):
        message = f"expected a Pydantic AI message history (a list) (got {type(data).__name__})"
        raise RecordError([Problem("$", message, source)])
    if data and all(isinstance(item, list) for item in data):
        for index, history in enumerate(data):
            yield _history(history, f"[{index}]", source)
        return
    yield _history(data, "", source)


def to_record(data: Any, *, source: str | None = None) -> TrialRecord:
    """The record of one message history (a list of requests and responses)."""
    return only_record(to_records(data, source=source), "histories", source)


def read(path: str | os.PathLike[str], **options: Any) -> TrialRecord:
    """The record of a message-history JSON file."""
    return to_record(read_documents(path, NAME), **options)


__all__ = ["NAME", "REPORTED_BY", "detect", "read", "to_record", "to_records"]
