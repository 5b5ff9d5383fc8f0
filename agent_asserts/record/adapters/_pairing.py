"""Which model request each tool span (or handoff) answers: by call id, else by name and order
within the agent (the OpenAI Agents SDK and Langfuse record no call id on their tool spans).

>>> from agent_asserts.record.adapters._spans import Span
>>> from agent_asserts.record.adapters._steps import ModelInfo, Step, ToolInfo
>>> ask = {"role": "assistant", "parts": [{"type": "tool_call", "name": "lookup", "id": "c1"}]}
>>> steps = [Step(Span("m", None, "chat", "[0]"), "model", model=ModelInfo(output=(ask,))),
...          Step(Span("t", None, "lookup", "[1]"), "tool", tool=ToolInfo("lookup"))]
>>> pairing = Pairing(lambda step: None)
>>> pairing.plan(steps)
>>> pairing.part_span
{('m', 0): 't'}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from agent_asserts.record.adapters._steps import ModelInfo, Step, ToolInfo

PartKey = tuple[str, int]
"""A model's tool_call part: (model span id, index among the tool_call parts of its output)."""

_Open = tuple[PartKey, Mapping[str, Any], str | None]


class Pairing:
    """The pairs of one trace, planned before any event is built.

    Attributes:
        part_span: A model's tool_call part → the tool (or handoff) span that answers it.
        span_part: The reverse, with the part itself.
        handoff_targets: Agents that a handoff span named.
        handoff_calls: Call ids of the model requests that were handoffs.
    """

    def __init__(self, scope_of: Callable[[Step], str | None]) -> None:
        self.scope_of = scope_of
        self.part_span: dict[PartKey, str] = {}
        self.span_part: dict[str, tuple[PartKey, Mapping[str, Any]]] = {}
        self.handoff_targets: set[str] = set()
        self.handoff_calls: set[str] = set()

    def plan(self, steps: list[Step]) -> None:
        """Pair every tool and handoff step with the request it answers (steps in start order)."""
        open_parts: list[_Open] = []
        for step in steps:
            scope = self.scope_of(step)
            if step.role == "handoff" and step.handoff is not None:
                self.handoff_targets.add(step.handoff[1])
                self._pair(step, _handoff_part(open_parts, step.handoff[1], scope), open_parts)
            elif step.role == "model" and step.model is not None:
                for index, part in enumerate(tool_parts(step.model)):
                    open_parts.append(((step.span.span_id, index), part, scope))
            elif step.role == "tool" and step.tool is not None:
                self._pair(step, _find_part(open_parts, step.tool, scope), open_parts)

    def _pair(self, step: Step, match: _Open | None, open_parts: list[_Open]) -> None:
        if match is None:
            return
        if step.role == "handoff" and isinstance(match[1].get("id"), str):
            self.handoff_calls.add(match[1]["id"])
        open_parts.remove(match)
        self.part_span[match[0]] = step.span.span_id
        self.span_part[step.span.span_id] = (match[0], match[1])

    def model_span_of(self, step: Step) -> str | None:
        """The span id of the model call whose request ``step`` answers, or None."""
        pair = self.span_part.get(step.span.span_id)
        return None if pair is None else pair[0][0]


def tool_parts(model: ModelInfo) -> list[Mapping[str, Any]]:
    """The tool_call parts of a model call's output, in order."""
    return [
        part
        for message in model.output
        for part in message.get("parts") or ()
        if isinstance(part, Mapping) and part.get("type") == "tool_call"
    ]


def _find_part(open_parts: list[_Open], tool: ToolInfo, scope: str | None) -> _Open | None:
    if tool.call_id is not None:
        by_id = next((p for p in open_parts if p[1].get("id") == tool.call_id), None)
        if by_id is not None:
            return by_id
        if any(p[1].get("id") is not None for p in open_parts if p[2] == scope):
            return None
    return next((p for p in open_parts if p[2] == scope and p[1].get("name") == tool.name), None)


def _handoff_part(open_parts: list[_Open], agent: str, scope: str | None) -> _Open | None:
    """The ``transfer_to_<agent>`` call (the OpenAI Agents SDK's handoff tool) a handoff answers."""
    expected = "transfer_to_" + "_".join(agent.lower().split())
    candidates = [
        p
        for p in open_parts
        if p[2] == scope and str(p[1].get("name", "")).startswith("transfer_to_")
    ]
    return next(
        (p for p in candidates if p[1].get("name") == expected),
        candidates[0] if candidates else None,
    )


__all__ = ["Pairing", "PartKey", "tool_parts"]
