"""A trace's interpreted spans (:class:`Step`) → one record, the same way for every span format.

* Events follow the spans' **start** order; each span's event has the span id as its id, its
  start as ``wall_time`` (epoch seconds), ``end - start`` as ``duration``, and the event of its
  nearest ancestor span that became an event as ``parent_id``.
* **Agents.** The first top-level agent span is the root agent (its events have ``agent``
  None); every event inside another agent span names that agent. A nested agent span is a
  ``delegation`` with ``mode`` ``tool`` (control returns); a handoff span, or a later
  top-level agent span no handoff named, is a ``delegation`` with ``mode`` ``handoff``.
* **Model spans** become ``model_call`` events with usage; their output messages give agent
  ``message``, ``reasoning`` and tool calls; their input messages give the user messages (the
  trace's first model call: all of them; later ones: those after the last assistant message,
  as each call repeats the history) and tool results. A sub-agent's input is its
  delegation's ``input``, never a user turn. Tool results never open a turn.
* **Tool calls** are the tool spans; a tool call a model asked for that has no tool span is an
  event of its own, after the model call. A call and its span are paired by call id, else by
  name and order within the agent; the calls of one model response share a ``group_id`` (the
  model call's event id).
* Usage is the sum over model calls only (never an agent's aggregate too).

>>> from agent_asserts.record.adapters._spans import Span
>>> from agent_asserts.record.adapters._steps import AgentInfo, Step, ToolInfo
>>> steps = [Step(Span("a", None, "agent", "[0]", 0.0, 2.0), "agent", agent=AgentInfo("bot")),
...          Step(Span("t", "a", "lookup", "[1]", 0.5, 1.0), "tool", tool=ToolInfo("lookup"))]
>>> [(e.kind, e.event_id, e.wall_time) for e in build_record(steps).events]
[('tool_call', 't', 0.5)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from agent_asserts.record.adapters._assemble import Assembly
from agent_asserts.record.adapters._finish import finish
from agent_asserts.record.adapters._spans import start_order
from agent_asserts.record.adapters._steps import AgentInfo, Step
from agent_asserts.record.trial import TrialRecord


class _Tree:
    """Parent links, agent scopes and the root agent of one trace."""

    def __init__(self, steps: Sequence[Step]) -> None:
        self.by_id = {step.span.span_id: step for step in steps}
        self.root: Step | None = None
        for step in steps:
            if step.role == "agent" and self.agent_ancestor(step) is None:
                self.root = step
                break

    def ancestors(self, step: Step) -> Iterable[Step]:
        seen = {step.span.span_id}
        parent = step.span.parent_id
        while parent is not None and parent not in seen and parent in self.by_id:
            seen.add(parent)
            found = self.by_id[parent]
            yield found
            parent = found.span.parent_id

    def agent_ancestor(self, step: Step) -> Step | None:
        return next((a for a in self.ancestors(step) if a.role == "agent"), None)

    def agent_name(self, step: Step) -> str | None:
        """The agent a step belongs to (None: the root agent)."""
        scope = step if step.role == "agent" else self.agent_ancestor(step)
        if scope is None or scope is self.root or scope.agent is None:
            return None
        return scope.agent.name

    def nested(self, step: Step) -> bool:
        """Whether a step runs inside an agent that itself runs inside another agent."""
        scope = self.agent_ancestor(step)
        return scope is not None and self.agent_ancestor(scope) is not None

    def scope_id(self, step: Step) -> str | None:
        scope = self.agent_ancestor(step)
        return None if scope is None else scope.span.span_id


def build_record(
    steps: Sequence[Step],
    *,
    source: str | None = None,
    metadata: Mapping[str, Any] | None = None,
    parse_errors: Sequence[tuple[str, str, Any]] = (),
    fallback: AgentInfo | None = None,
) -> TrialRecord:
    """One record from a trace's steps (any order), plus the parse errors already found.

    Args:
        steps: The trace's interpreted spans.
        source: A file name shown in parse errors.
        metadata: Record metadata (the trace id, the service…).
        parse_errors: ``(where, reason, item)`` of spans that could not be read at all.
        fallback: The run's input and output when no agent span records them (a Langfuse
            trace's own ``input``/``output``).
    """
    ordered = _by_start(steps)
    tree = _Tree(ordered)
    assembly = Assembly(tree, source=source)
    for where, reason, item in parse_errors:
        assembly.parse_error(where, reason, item)
    assembly.pairing.plan(ordered)
    for step in ordered:
        assembly.add(step)
    return finish(assembly, dict(metadata or {}), fallback)


def _by_start(steps: Sequence[Step]) -> list[Step]:
    by_span = {id(step.span): step for step in steps}
    return [by_span[id(span)] for span in start_order([step.span for step in steps])]


__all__ = ["build_record"]
