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

from agent_asserts.record.adapters.toolkit import (
    TraceBuilder,
    count,
    only_record,
    read_documents,
    seconds,
    usage,
)
from agent_asserts.record.errors import Problem, RecordError
from agent_asserts.record.event import TOOL_OUTCOMES
from agent_asserts.record.trial import TrialRecord

FORMAT: Final = "pydantic-ai"
"""The name this module is registered under (the record-format registry finds it)."""
ORDER: Final = 120
"""Its place among the built-in formats (their listing and error-message order)."""

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


def _when(part: Mapping[str, Any], fallback: Any = None) -> float | None:
    stamp = part.get("timestamp", fallback)
    try:
        return seconds(stamp) if isinstance(stamp, str) else None
    except ValueError:
        return None


def _usage(raw: Any) -> dict[str, Any] | None:
    """A response's usage: cache reads and writes are inside ``input_tokens`` (and in details)."""
    if not isinstance(raw, Mapping):
        return None
    details = {str(k): v for k, v in raw.items() if k not in _USAGE_COUNTS and count(v)}
    found = usage(raw.get("input_tokens"), raw.get("output_tokens"), **details)
    if found is not None:
        if "input_tokens" in found and "output_tokens" in found:
            found["total_tokens"] = found["input_tokens"] + found["output_tokens"]
        found["reported_by"] = REPORTED_BY
    return found


class _History:
    """One history read message by message into the shared :class:`TraceBuilder`."""

    def __init__(self, source: str | None) -> None:
        self.builder = TraceBuilder(source=source)
        self.run_errors: list[Any] = []

    def request(self, message: Mapping[str, Any], where: str) -> None:
        b = self.builder
        if isinstance(message.get("instructions"), str) and message["instructions"]:
            b.message("system", message["instructions"], where=f"{where}.instructions")
        for index, part in enumerate(message["parts"]):
            here = f"{where}.parts[{index}]"
            kind = part.get("part_kind") if isinstance(part, Mapping) else None
            if kind == "user-prompt":
                b.message("user", _text(part.get("content")), where=here, wall_time=_when(part))
            elif kind in _SYSTEM_PARTS and isinstance(part.get("content"), str):
                b.message("system", part["content"], where=here, wall_time=_when(part))
            elif kind in ("tool-return", "builtin-tool-return", "native-tool-return"):
                self.tool_return(part, here)
            elif kind == "retry-prompt":
                self.retry_prompt(part, here)
            else:
                b.error(here, f"unsupported request part {kind!r}", part)

    def tool_return(self, part: Mapping[str, Any], where: str) -> None:
        raw = part.get("outcome")
        outcome = raw if isinstance(raw, str) else "success"
        outcome = _OUTCOMES.get(outcome, outcome if outcome in TOOL_OUTCOMES else "failed")
        failed = outcome != "succeeded"
        retry = part.get("retry")
        cause = retry.get("cause") if isinstance(retry, Mapping) else None
        self.builder.result(
            None if failed else part.get("content"),
            where=where,
            call_id=_string(part.get("tool_call_id")),
            name=_string(part.get("tool_name")),
            outcome=outcome,
            error_message=(_error_text(part.get("content")) or outcome) if failed else None,
            error_type=cause if failed and isinstance(cause, str) else None,
        )

    def retry_prompt(self, part: Mapping[str, Any], where: str) -> None:
        if not part.get("tool_name"):
            self.run_errors.append({"retry_prompt": _error_text(part.get("content"))})
            return
        self.builder.result(
            where=where,
            call_id=_string(part.get("tool_call_id")),
            name=_string(part.get("tool_name")),
            outcome="retried",
            error_message=_error_text(part.get("content")),
        )

    def response(self, message: Mapping[str, Any], where: str) -> None:
        b = self.builder
        when = _when(message)
        b.model_call(
            where=where,
            model=_string(message.get("model_name")),
            provider=_string(message.get("provider_name")),
            usage=_usage(message.get("usage")),
            finish_reason=_string(message.get("finish_reason")),
            wall_time=when,
        )
        group = b.group()
        for index, part in enumerate(message["parts"]):
            here = f"{where}.parts[{index}]"
            kind = part.get("part_kind") if isinstance(part, Mapping) else None
            if kind == "text":
                b.message("agent", _text(part.get("content")), where=here, wall_time=when)
            elif kind == "thinking":
                text = _text(part.get("content"))
                redacted = not text and bool(part.get("signature"))
                b.reasoning(text, where=here, redacted=redacted, wall_time=when)
            elif kind in ("tool-call", "builtin-tool-call", "native-tool-call"):
                b.call(
                    str(part.get("tool_name") or "unknown"),
                    part.get("args") if "args" in part else {},
                    where=here,
                    call_id=_string(part.get("tool_call_id")),
                    group=group,
                    extra={"builtin": True} if kind != "tool-call" else None,
                    wall_time=when,
                )
            else:
                b.error(here, f"unsupported response part {kind!r}", part)


def _string(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _history(messages: list[Any], where: str, source: str | None) -> TrialRecord:
    history = _History(source)
    for index, message in enumerate(messages):
        here = f"{where}[{index}]"
        if not _is_message(message):
            reason = "not a Pydantic AI message (kind request/response with parts)"
            history.builder.error(here, reason, message)
        elif message["kind"] == "request":
            history.request(message, here)
        else:
            history.response(message, here)
    pending = any(
        event["kind"] == "tool_call" and event["payload"].get("outcome", "pending") == "pending"
        for event in history.builder.events  # (a call no result answered has no outcome yet)
    )
    # retry prompts are errors the run recovered from: they never fail it on their own
    status = "incomplete" if pending else "completed"
    return history.builder.build(status=status, errors=history.run_errors)


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
