"""The record of an assembled trace: the root agent's part, status, usage, and the decoding
that turns any event the record model rejects into a parse error at its span."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from agent_asserts.record.errors import RecordError
from agent_asserts.record.trial import TrialRecord

if TYPE_CHECKING:
    from agent_asserts.record.adapters._assemble import Assembly
    from agent_asserts.record.adapters._spans import Span
    from agent_asserts.record.adapters._steps import AgentInfo


def finish(
    assembly: Assembly, metadata: dict[str, Any], fallback: AgentInfo | None = None
) -> TrialRecord:
    """The record: the root agent names the run, its error fails it; usage sums model calls."""
    root = assembly.tree.root
    if root is not None and root.agent is not None:
        metadata.setdefault("agent", root.agent.name)
        _run_messages(assembly, root.agent, root.span)
    if fallback is not None:
        _run_messages(assembly, fallback, None)
    data: dict[str, Any] = {"events": assembly.events, "metadata": metadata}
    failed = root is not None and root.span.error
    data["status"] = "failed" if failed else "completed"
    if root is not None and failed:
        data["errors"] = [{"span_id": root.span.span_id, "message": root.span.error_message}]
    if assembly.usage:
        usage = dict(assembly.usage)
        if assembly.reported_by:
            usage["reported_by"] = "; ".join(sorted(assembly.reported_by))
        data["usage"] = usage
    return decode_record(
        data, assembly.positions, assembly.parse_error, assembly.errors, assembly.source
    )


def _run_messages(assembly: Assembly, info: AgentInfo, span: Span | None) -> None:
    """The run's input and output as messages when no model call recorded them."""
    span_id = span.span_id if span is not None else "run"
    position = span.position if span is not None else "$"
    root_messages = [e for e in assembly.events if "agent" not in e and e["kind"] == "message"]
    has_user = any(e.get("actor_ref") == "user" for e in root_messages)
    has_agent = any(e.get("actor_ref") == "agent" for e in root_messages)
    if isinstance(info.input, str) and info.input and not has_user:
        event: dict[str, Any] = {"event_id": f"{span_id}.input", "kind": "message"}
        event.update(actor_ref="user", payload={"text": info.input})
        if span is not None and span.start is not None:
            event["wall_time"] = span.start
        assembly.events.insert(0, event)
        assembly.positions.insert(0, position)
    if isinstance(info.output, str) and info.output and not has_agent:
        event = {"event_id": f"{span_id}.output", "kind": "message"}
        event.update(actor_ref="agent", payload={"text": info.output})
        if span is not None and span.end is not None:
            event["wall_time"] = span.end
        assembly.events.append(event)
        assembly.positions.append(position)


def decode_record(
    data: dict[str, Any],
    positions: list[str],
    parse_error: Callable[[str, str, Any], None],
    errors: list[dict[str, Any]],
    source: str | None,
) -> TrialRecord:
    """``TrialRecord.from_dict(data)``; an event it rejects becomes a parse error at the
    position it came from (``positions[i]`` for ``data["events"][i]``), and the rest is read.

    Raises:
        RecordError: A problem outside the events (left to the record model's message).
    """
    events = data["events"]
    while True:
        data["parse_errors"] = list(errors)
        try:
            return TrialRecord.from_dict(data, source=source)
        except RecordError as exc:
            found = {_event_index(p.path) for p in exc.problems}
            bad = sorted((i for i in found if i is not None), reverse=True)
            if not bad:
                raise
            for index in bad:
                problems = [p.message for p in exc.problems if _event_index(p.path) == index]
                parse_error(positions.pop(index), "; ".join(problems), events.pop(index))


def _event_index(path: str) -> int | None:
    if not path.startswith("$.events["):
        return None
    return int(path[len("$.events[") :].split("]", 1)[0])


__all__ = ["decode_record", "finish"]
