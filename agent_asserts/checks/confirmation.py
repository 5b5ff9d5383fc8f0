"""``confirmation_requested``: the agent asked before it ran a consequential tool.

Part of the cxas trajectory family (re-exported by :mod:`agent_asserts.checks.trajectory`);
it reads both the tool calls and the agent's messages.

>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.builder().user("buy it").tool("create_order").build()
>>> ConfirmationRequested("create_order", "(?i)shall i").evaluate(rec).status.value
'fail'
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from agent_asserts._lazy import LazyText
from agent_asserts.checks.base import Check
from agent_asserts.checks.cost import int_at_least
from agent_asserts.checks.outcome import regex_validator
from agent_asserts.checks.registry import register
from agent_asserts.checks.selection import AGENT_MESSAGES
from agent_asserts.matching import M, render
from agent_asserts.outcome import Outcome, missing_surface
from agent_asserts.record import MessagePayload
from agent_asserts.selectors.calls import MessageSelector, ToolSelector

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord


@register
@attrs.frozen
class ConfirmationRequested(Check):
    """Before every call of ``before_tool``, an agent message matching ``pattern`` (regex
    search) came in the ``within_last_n_turns`` turns that end with the call's turn.

    ``not_applicable`` when the tool never ran. The message quotes the messages looked at.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = (
    ...     TrialRecord.builder()
    ...     .user("buy it").agent("Shall I place the order?")
    ...     .user("yes").tool("create_order")
    ...     .build()
    ... )
    >>> ConfirmationRequested("create_order", "(?i)shall i").evaluate(rec).status.value
    'pass'
    """

    before_tool: str
    pattern: str = attrs.field(validator=regex_validator)
    within_last_n_turns: int = attrs.field(default=4, validator=int_at_least(1))
    _selector: ToolSelector = attrs.field(init=False, eq=False, repr=False)
    _confirmation: MessageSelector = attrs.field(init=False, eq=False, repr=False)

    method: ClassVar[str] = "confirmation_requested"
    yaml_positional: ClassVar[tuple[str, ...]] = ("before_tool", "pattern", "within_last_n_turns")
    positional: ClassVar[tuple[str, ...]] = ("before_tool", "pattern")

    @_selector.default
    def _select_calls(self) -> ToolSelector:
        attrs.validate(self)  # the given fields' own messages come first
        return ToolSelector(self.before_tool)

    @_confirmation.default
    def _select_confirmations(self) -> MessageSelector:
        # on.message(actor="agent", text=M.regex(pattern))
        return MessageSelector(actor="agent", text=M.regex(self.pattern))

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = missing_surface(record, "tool_call", "message")
        if invalid is not None:
            return invalid
        calls = self._selector.candidates(record)
        if not calls:
            return Outcome.not_applicable(f"{self.before_tool!r} never ran")
        confirmed, failures, evidence_ids = _confirm(record, self, calls)
        if failures:
            return Outcome.of(
                False,
                message="; ".join(failures),
                evidence=evidence_ids,
                details={"confirmed": confirmed},
            )
        text = LazyText(_confirmed_text, self.before_tool, confirmed)
        return Outcome.of(
            True, message=text, evidence=evidence_ids, details={"confirmed": dict(confirmed)}
        )


_Confirmation = tuple[dict[str, str], tuple[str, ...], tuple[str, ...]]


def _confirm(
    record: TrialRecord, check: ConfirmationRequested, calls: Sequence[int]
) -> _Confirmation:
    """(the call id → confirming message id pairs, the failures in words, the evidence) of
    ``check`` on ``record``."""
    events = record.events
    agent = AGENT_MESSAGES.select(record)
    confirmed: dict[str, str] = {}
    failures: list[str] = []
    evidence: list[str] = []
    for call in calls:
        turn = events[call].turn or 0
        low = max(turn - check.within_last_n_turns + 1, 0)
        window = [
            p
            for p in agent[: bisect.bisect_left(agent, call)]
            if low <= (events[p].turn or 0) <= turn
        ]
        hit = next((p for p in reversed(window) if check._confirmation.matches(events[p])), None)
        call_id = events[call].event_id
        if hit is not None:
            confirmed[call_id] = events[hit].event_id
            evidence += [events[hit].event_id, call_id]
            continue
        looked = ", ".join(
            f"{render(_text(events[p].payload))} ({events[p].event_id})" for p in window
        )
        failures.append(
            f"call {call_id} (turn {turn}) has no agent message matching "
            f"{render(check.pattern)} in turns {low}..{turn} before it; "
            f"looked at: {looked or 'no agent messages'}"
        )
        evidence += [call_id, *(events[p].event_id for p in window)]
    return confirmed, tuple(failures), tuple(dict.fromkeys(evidence))


def _confirmed_text(tool: str, confirmed: dict[str, str]) -> str:
    quoted = ", ".join(f"{c} after {m}" for c, m in confirmed.items())
    return f"every call of {tool!r} was confirmed: {quoted}"


def _text(payload: Any) -> str:
    return payload.text if isinstance(payload, MessagePayload) else ""


__all__ = ["ConfirmationRequested"]
