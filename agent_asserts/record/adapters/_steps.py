"""What one span *means*: the interpretation each span-tree adapter gives its spans.

A :class:`Step` is a span read by its format's rules: an agent run, a model call, a tool call,
a handoff, a guardrail, or something else. :mod:`._span_tree` turns a trace's steps into a
record the same way for every span format.

>>> from agent_asserts.record.adapters._spans import Span
>>> step = Step(Span("s1", None, "execute_tool lookup", "spans[0]"), "tool",
...             tool=ToolInfo("lookup", call_id="c1", arguments={"id": 1}))
>>> step.tool.name, step.role
('lookup', 'tool')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import attrs

from agent_asserts._values import MISSING
from agent_asserts.record.adapters._spans import Span

ROLES: Final = ("agent", "model", "tool", "handoff", "guardrail", "other")
"""What a span can be."""


@attrs.frozen
class ToolInfo:
    """A tool call read from a span.

    ``arguments`` is ``MISSING`` when the span does not record them (they are Opt-In in OTel);
    ``arguments_raw`` keeps argument text that is not valid JSON.
    """

    name: str
    call_id: str | None = None
    arguments: Any = MISSING
    arguments_raw: str | None = None
    result: Any = None
    is_error: bool = False
    outcome: str | None = None
    error_type: str | None = None
    error_message: str | None = None
    mcp_server: str | None = None


@attrs.frozen
class ModelInfo:
    """A model (inference) call read from a span, with its messages in parts form."""

    model: str | None = None
    provider: str | None = None
    finish_reason: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    details: Mapping[str, int] = attrs.field(factory=dict)
    reported_by: str | None = None
    input: tuple[Mapping[str, Any], ...] = ()
    output: tuple[Mapping[str, Any], ...] = ()
    system: str | None = None
    response_id: str | None = None


@attrs.frozen
class AgentInfo:
    """An agent run read from a span: its name, and its input and output when recorded."""

    name: str
    input: str | None = None
    output: Any = None
    handoffs: tuple[str, ...] = ()


@attrs.frozen
class Step:
    """One span and what it means.

    Attributes:
        span: The span.
        role: One of :data:`ROLES`.
        agent: For an agent span.
        model: For a model span.
        tool: For a tool span.
        handoff: ``(from_agent, to_agent)`` for a handoff span.
        guardrail: ``(name, triggered, output)`` for a guardrail span.
        problems: ``(where, reason, item)`` of the parts of the span that could not be read.
        conversation_id: The conversation the span belongs to, if recorded.
        payload: What an ``other`` span keeps (its name and attributes).
    """

    span: Span
    role: str
    agent: AgentInfo | None = None
    model: ModelInfo | None = None
    tool: ToolInfo | None = None
    handoff: tuple[str | None, str] | None = None
    guardrail: tuple[str, bool, Any] | None = None
    problems: tuple[tuple[str, str, Any], ...] = ()
    conversation_id: str | None = None
    payload: Mapping[str, Any] = attrs.field(factory=dict)


__all__ = ["ROLES", "AgentInfo", "ModelInfo", "Step", "ToolInfo"]
