"""Claude Code / Claude Agent SDK transcripts → :class:`~agent_asserts.record.TrialRecord`
(``claude-code``).

Reads the JSON Lines a Claude Code session writes (``~/.claude/projects/<project>/<session>.jsonl``,
sub-agent files ``agent-<id>.jsonl`` too) and the ``stream-json`` output of ``claude -p`` and
the Claude Agent SDK (``system``/``assistant``/``user``/``result`` lines). One record per
session (``sessionId`` / ``session_id``); a file is read whole (:func:`read_records`), so the
first line only has to be a transcript line. JSON data only; no SDK is imported. There is no
official schema: the mapping follows the lines Claude Code writes (see docs/traces.md).

========================================  ===================================================
line                                      record
========================================  ===================================================
``user``, text content                    ``message`` ``user`` (``isMeta`` and
                                          ``isCompactSummary`` lines, which Claude Code
                                          injects: ``system``)
``user``, ``tool_result`` blocks          the call's result (``tool_use_id``); ``is_error``
                                          → ``failed`` with the text as ``error_message``
``assistant`` lines of one ``message.id`` one ``model_call`` (model, usage and stop reason
                                          of the response's last line; Claude Code writes a
                                          response one content block per line); ``thinking``
                                          → ``reasoning``, ``text`` → ``agent`` message,
                                          ``tool_use`` → ``tool_call`` (the calls of one
                                          response share a ``group_id``)
``isApiErrorMessage`` assistant line      a failed ``model_call`` (its text the error)
``isSidechain`` / ``parent_tool_use_id``  a sub-agent: a ``delegation`` (``mode`` ``tool``,
                                          its prompt as ``input``; the name is the
                                          launching ``Task``/``Agent`` call's
                                          ``subagent_type``), then its events with ``agent``
``result`` (stream-json)                  the run's usage, status (``is_error`` → failed;
                                          ``error_max_turns`` → incomplete) and, when no
                                          assistant line has it, the reply
``system`` ``init`` (stream-json)         ``metadata.model``, ``record.tools`` (names)
========================================  ===================================================

>>> rec = to_record([
...     {"type": "user", "uuid": "u1", "sessionId": "s1",
...      "message": {"role": "user", "content": "Refund A1"}},
...     {"type": "assistant", "uuid": "a1", "sessionId": "s1", "message": {"id": "m1",
...      "role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "refund",
...      "input": {"id": "A1"}}]}},
...     {"type": "user", "uuid": "u2", "sessionId": "s1", "message": {"role": "user",
...      "content": [{"type": "tool_result", "tool_use_id": "t1", "is_error": True,
...      "content": "gateway timed out"}]}},
...     {"type": "assistant", "uuid": "a2", "sessionId": "s1", "message": {"id": "m2",
...      "role": "assistant", "content": [{"type": "text", "text": "It failed."}]}}])
>>> call = rec.tool_calls[0].payload
>>> call.arguments, call.outcome, call.error_message, rec.reply, rec.metadata["session_id"]
({'id': 'A1'}, 'failed', 'gateway timed out', 'It failed.', 's1')
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any, Final

from agent_asserts.record.adapters._span_tree import iso_seconds
from agent_asserts.record.adapters.anthropic import anthropic_usage
from agent_asserts.record.adapters.toolkit import (
    TraceBuilder,
    content_text,
    items,
    json_or_text,
    mapping,
    only_record,
    read_documents,
)
from agent_asserts.record.errors import Problem, RecordError
from agent_asserts.record.trial import TrialRecord

FORMAT: Final = "claude-code"
"""The name this module is registered under (the record-format registry finds it)."""
ORDER: Final = 160
"""Its place among the built-in formats (their listing and error-message order)."""

LINE_TYPES: Final = frozenset(
    {
        "user",
        "assistant",
        "system",
        "summary",
        "result",
        "queue-operation",
        "file-history-snapshot",
        "progress",
        "permission-mode",
        "attachment",
    }
)
"""The ``type`` of the lines a Claude Code transcript or a ``stream-json`` output holds."""
REPORTED_BY: Final = "Claude Code result usage (the whole run)"
SUB_AGENT_TOOLS: Final = frozenset({"Task", "Agent"})
"""The tools that launch a sub-agent (``input.subagent_type``, ``input.prompt``)."""
_IDS: Final = ("uuid", "sessionId", "session_id", "leafUuid")
_SCAN: Final = 20


def _is_line(item: Any) -> bool:
    kind = item.get("type") if (type(item) is dict or isinstance(item, Mapping)) else None
    return (
        isinstance(kind, str)
        and kind in LINE_TYPES
        and any(key in item for key in _IDS)
        and "role" not in item
    )


def detect(data: Any) -> bool:
    """Whether ``data`` is a transcript line (the first line of a file) or a list of them.

    >>> detect({"type": "user", "uuid": "u1", "sessionId": "s", "message": {"content": "hi"}})
    True
    >>> detect([{"type": "user", "message": {"content": "hi"}}])
    False
    """
    if isinstance(data, list):
        return bool(data) and all(_is_line(item) for item in data[:_SCAN])
    return _is_line(data)


def _session(line: Mapping[str, Any]) -> str | None:
    session = line.get("sessionId", line.get("session_id"))
    return str(session) if session is not None else None


class _Reader:
    def __init__(self, source: str | None) -> None:
        self.b = TraceBuilder(source=source)
        self.models: dict[str, dict[str, Any]] = {}  # message id -> model_call draft
        self.last_usage: dict[str, Any] = {}  # message id -> the usage of its last line
        self.groups: dict[str, str] = {}  # message id -> group of its calls
        self.launches: dict[str, Mapping[str, Any]] = {}  # Task call id -> its input
        self.prompts: dict[str, str] = {}  # Task prompt -> sub-agent name
        self.agent_of: dict[str, str | None] = {}  # line uuid -> agent
        self.started: set[str] = set()  # sub-agents whose delegation was written
        self.opened: tuple[str, dict[str, Any]] | None = None  # a delegation's line, event
        self.result: Mapping[str, Any] = {}
        self.metadata: dict[str, Any] = {}
        self.tools: list[dict[str, Any]] | None = None

    # -- agents ----------------------------------------------------------------------------

    def agent(self, where: str, line: Mapping[str, Any]) -> str | None:
        """The sub-agent a line belongs to (None: the main agent); a sub-agent's first line
        writes its delegation."""
        parent_call = line.get("parent_tool_use_id")
        if isinstance(parent_call, str):
            launch = self.launches.get(parent_call, {})
            name = str(launch.get("subagent_type") or f"agent {parent_call}")
            self.start(where, name, launch.get("prompt"), key=parent_call)
            return name
        if line.get("isSidechain") is not True:
            return None
        parent = line.get("parentUuid")
        if isinstance(parent, str) and parent in self.agent_of:
            return self.agent_of[parent]
        text = content_text(mapping(line.get("message")).get("content")) or None
        name = self.prompts.get(text or "") or (
            f"agent-{line['agentId']}" if line.get("agentId") is not None else "sidechain"
        )
        self.start(where, name, text, key=str(line.get("uuid") or where))
        return name

    def start(self, where: str, name: str, prompt: Any, *, key: str) -> None:
        if key in self.started:
            return
        self.started.add(key)
        event = self.b.delegation(name, where=where, mode="tool")
        self.opened = (where, event)
        if isinstance(prompt, str) and prompt:
            event["payload"]["input"] = prompt

    # -- lines -----------------------------------------------------------------------------

    def line(self, where: str, line: Any) -> None:
        if not _is_line(line):
            self.b.error(where, "not a Claude Code transcript line (type and session ids)", line)
            return
        kind = line["type"]
        if kind == "result":
            self.result = line
        elif kind == "system" and line.get("subtype") == "init":
            self.init(line)
        elif kind in ("user", "assistant"):
            message = line.get("message")
            if not isinstance(message, Mapping):
                self.b.error(where, f"a {kind} line without a message object", line)
                return
            agent = self.agent(where, line)
            if isinstance(line.get("uuid"), str):
                self.agent_of[line["uuid"]] = agent
            if kind == "user":
                self.user(where, line, message, agent)
            else:
                self.assistant(where, line, message, agent)

    def init(self, line: Mapping[str, Any]) -> None:
        if isinstance(line.get("model"), str):
            self.metadata["model"] = line["model"]
        names = [name for name in items(line.get("tools")) if isinstance(name, str)]
        if names:
            self.tools = [{"name": name} for name in names]

    def user(
        self, where: str, line: Mapping[str, Any], message: Mapping[str, Any], agent: str | None
    ) -> None:
        content = message.get("content")
        time = _time(line)
        blocks = content if isinstance(content, list) else []
        results = [b for b in blocks if isinstance(b, Mapping) and b.get("type") == "tool_result"]
        for index, block in enumerate(blocks):
            if block in results:
                self.tool_result(f"{where}.message.content[{index}]", block, time)
        text = content_text(content)
        if not text and results:
            return
        places = [f"{where}.message"] + [
            f"{where}.message.content[{index}]"
            for index, block in enumerate(blocks)
            if block not in results
        ]
        if agent is not None and self.opened is not None and self.opened[0] == where:
            # a sub-agent's prompt: its delegation's input, not a user turn
            self.opened[1]["payload"]["trace_items"].extend(places)
            return
        injected = line.get("isMeta") is True or line.get("isCompactSummary") is True
        actor = "system" if injected or agent is not None else "user"
        self.b.message(actor, text, where=places, agent=agent, wall_time=time)

    def tool_result(self, where: str, block: Mapping[str, Any], time: float | None) -> None:
        content = block.get("content")
        text = content_text(content) if isinstance(content, list) else content
        error = block.get("is_error") is True
        call_id = block.get("tool_use_id")
        self.b.result(
            None if error else json_or_text(text),
            where=where,
            call_id=call_id if isinstance(call_id, str) else None,
            is_error=error,
            error_message=str(text) if error else None,
            wall_time=time,
        )

    def assistant(
        self, where: str, line: Mapping[str, Any], message: Mapping[str, Any], agent: str | None
    ) -> None:
        message_id = str(message.get("id") or line.get("uuid") or where)
        model = self.models.get(message_id)
        if model is None:
            error = None
            if line.get("isApiErrorMessage") is True:
                error = content_text(message.get("content")) or "API error"
            model = self.b.model_call(
                where=f"{where}.message",
                model=message.get("model") if isinstance(message.get("model"), str) else None,
                error_message=error,
                agent=agent,
                wall_time=_time(line),
            )
            self.models[message_id] = model
            self.groups[message_id] = self.b.group()
            if error is not None:
                return
        else:
            model["payload"]["trace_items"].append(f"{where}.message")
        found = anthropic_usage(message.get("usage"))
        if found:
            self.last_usage[message_id] = found
        if isinstance(message.get("stop_reason"), str):
            model["payload"]["finish_reason"] = message["stop_reason"]
        content = message.get("content")
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        for index, block in enumerate(items(content)):
            at = f"{where}.message.content[{index}]"
            self.block(at, block, model["event_id"], self.groups[message_id], agent, _time(line))

    def block(
        self,
        where: str,
        block: Any,
        parent: str,
        group: str,
        agent: str | None,
        time: float | None,
    ) -> None:
        kind = block.get("type") if isinstance(block, Mapping) else None
        envelope: dict[str, Any] = {"parent_id": parent, "agent": agent, "wall_time": time}
        if kind == "text":
            self.b.message("agent", str(block.get("text", "")), where=where, **envelope)
        elif kind == "thinking":
            self.b.reasoning(str(block.get("thinking", "")), where=where, **envelope)
        elif kind == "redacted_thinking":
            self.b.reasoning(where=where, redacted=True, **envelope)
        elif kind in ("tool_use", "server_tool_use", "mcp_tool_use"):
            self.call(where, block, group, envelope)
        else:
            self.b.error(where, f"unknown assistant content block {kind!r}", block)

    def call(
        self, where: str, block: Mapping[str, Any], group: str, envelope: dict[str, Any]
    ) -> None:
        name = block.get("name")
        if not isinstance(name, str) or not name:
            self.b.error(where, "a tool_use block without a name", block)
            return
        call_id = block.get("id") if isinstance(block.get("id"), str) else None
        arguments = block.get("input", {})
        if name in SUB_AGENT_TOOLS and isinstance(arguments, Mapping):
            if call_id is not None:
                self.launches[call_id] = arguments
            prompt, kind = arguments.get("prompt"), arguments.get("subagent_type")
            if isinstance(prompt, str) and isinstance(kind, str):
                self.prompts[prompt] = kind
        server = name.split("__")[1] if name.startswith("mcp__") and name.count("__") >= 2 else None
        self.b.call(
            name,
            arguments,
            where=where,
            call_id=call_id,
            group=group,
            source="mcp" if server else "local",
            mcp_server=server,
            **envelope,
        )

    # -- the record ------------------------------------------------------------------------

    def build(self, session: str | None) -> TrialRecord:
        total: dict[str, Any] = {}
        for message_id, found in self.last_usage.items():
            self.models[message_id]["payload"]["usage"] = found
            for key in ("input_tokens", "output_tokens", "total_tokens"):
                if key in found:
                    total[key] = total.get(key, 0) + found[key]
        run_usage: dict[str, Any] | None = None
        if total:
            run_usage = {**total, "reported_by": "the sum over the model calls"}
        status = None
        errors: list[dict[str, Any]] = []
        result = self.result
        if result:
            run_usage = anthropic_usage(result.get("usage")) or run_usage
            if run_usage is not None and "reported_by" not in run_usage:
                run_usage = {**run_usage, "reported_by": REPORTED_BY}
            reply = result.get("result")
            said = any(
                e["kind"] == "message" and e.get("actor_ref") == "agent" and "agent" not in e
                for e in self.b.events
            )
            if isinstance(reply, str) and reply and not said:
                self.b.message("agent", reply, where="result")
            if result.get("is_error") is True:
                errors.append({"message": str(result.get("subtype") or "error"), "type": "result"})
            elif str(result.get("subtype", "")).startswith("error"):
                status = "incomplete"
            for key in ("num_turns", "total_cost_usd", "duration_ms", "subtype"):
                if result.get(key) is not None:
                    self.metadata[key] = result[key]
        if session is not None:
            self.metadata["session_id"] = session
        return self.b.build(
            status=status,
            usage=run_usage,
            errors=errors,
            metadata=self.metadata,
            tools=self.tools,
        )


def _time(line: Mapping[str, Any]) -> float | None:
    return iso_seconds(line.get("timestamp"))


def to_records(data: Any, *, source: str | None = None, **options: Any) -> Iterator[TrialRecord]:
    """One record per session of a transcript (a list of lines, or one line).

    Raises:
        RecordError: ``data`` is neither a line nor a list.

    >>> line = {"type": "user", "uuid": "u", "message": {"role": "user", "content": "hi"}}
    >>> [r.metadata["session_id"] for r in to_records([{**line, "sessionId": "a"},
    ...                                                {**line, "sessionId": "b"}])]
    ['a', 'b']
    """
    lines = [data] if isinstance(data, Mapping) else data
    if not isinstance(lines, list):
        message = f"expected Claude Code transcript lines (got {type(data).__name__})"
        raise RecordError([Problem("$", message, source)])
    found_ids = (_session(line) for line in lines if isinstance(line, Mapping))
    session = next((found for found in found_ids if found is not None), None)
    sessions: dict[str | None, list[tuple[str, Any]]] = {}
    for index, line in enumerate(lines):
        where = "$" if lines is not data else f"$[{index}]"
        own = _session(line) if isinstance(line, Mapping) else None
        session = own if own is not None else session  # a line without one stays in its session
        sessions.setdefault(session, []).append((where, line))
    for session, found in sessions.items():
        reader = _Reader(source)
        for where, line in found:
            reader.line(where, line)
        yield reader.build(session)


def to_record(data: Any, *, source: str | None = None) -> TrialRecord:
    """The record of a transcript holding one session.

    Raises:
        RecordError: Not transcript lines, or several sessions (use :func:`to_records`).
    """
    return only_record(to_records(data, source=source), "sessions", source)


def read_records(
    path: str | os.PathLike[str], *, source: str | None = None, **options: Any
) -> Iterator[TrialRecord]:
    """The records of a transcript file (JSON Lines, read whole; one record per session)."""
    data = read_documents(path, FORMAT)
    yield from to_records(data, source=source or os.fspath(path))


def read(path: str | os.PathLike[str], **options: Any) -> TrialRecord:
    """The record of a transcript file holding one session."""
    return only_record(read_records(path, **options), "sessions", options.get("source"))


__all__ = [
    "LINE_TYPES",
    "REPORTED_BY",
    "SUB_AGENT_TOOLS",
    "detect",
    "read",
    "read_records",
    "to_record",
    "to_records",
]
