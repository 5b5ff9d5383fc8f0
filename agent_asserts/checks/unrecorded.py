"""Deciding a check over tool calls whose arguments were not recorded.

:func:`decide_unrecorded` evaluates a check a second time with those calls treated as matching
every argument matcher (:mod:`agent_asserts.selectors.calls`); when the two evaluations
disagree, the record cannot decide the check and the outcome is ``invalid``.

>>> from agent_asserts.checks.tools import CalledTool
>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.builder().tool("lookup").build()
>>> check = CalledTool("lookup", arguments={"id": 1})
>>> decide_unrecorded(check, rec, check.evaluate(rec)).message
"arguments not recorded: the result depends on the arguments of e0 ('lookup')"
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agent_asserts.checks.base import Check
from agent_asserts.checks.suggest_names import alias_hint
from agent_asserts.outcome import Outcome
from agent_asserts.selectors.calls import unrecorded_as_matching
from agent_asserts.status import Status

if TYPE_CHECKING:
    from agent_asserts.judges import Judge
    from agent_asserts.record import TrialRecord

_DECIDED = (Status.PASS, Status.FAIL)
_SHOWN = 5


def decide_unrecorded(
    check: Check, record: TrialRecord, outcome: Outcome, judge: Judge | None = None
) -> Outcome:
    """``outcome``, or ``invalid`` when calls without recorded arguments could change it.

    Args:
        check: The check that produced ``outcome``.
        record: The record it was evaluated over.
        outcome: Its outcome with unrecorded arguments treated as not matching.
        judge: The judge the check was run with.

    Returns:
        The outcome to record.

    >>> from agent_asserts.checks.tools import NotCalledTool
    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().tool("refund", {"amount": 5}).build()
    >>> check = NotCalledTool("refund", {"amount": 9})
    >>> decide_unrecorded(check, rec, check.evaluate(rec)).status.value
    'pass'
    """
    unknown = record.unrecorded_arguments
    if not unknown or outcome.status not in _DECIDED or check.evaluator_type != "deterministic":
        return outcome
    with unrecorded_as_matching():
        other = check.run(record, judge=judge)
    if other.status is outcome.status:
        return outcome
    events = record.events
    names = _tool_names(check)
    relevant = [p for p in unknown if getattr(events[p].payload, "name", None) in names]
    unknown = tuple(relevant) or unknown
    named = [
        f"{events[p].event_id} ({getattr(events[p].payload, 'name', '?')!r})"
        for p in unknown[:_SHOWN]
    ]
    more = f" and {len(unknown) - _SHOWN} more" if len(unknown) > _SHOWN else ""
    which = "the arguments of " + ", ".join(named) + more
    return Outcome.invalid(
        f"arguments not recorded: the result depends on {which}"
        + alias_hint(record, unknown, ["arguments"]),
        evidence=tuple(events[p].event_id for p in unknown),
        details={"if_not_matching": outcome.status.value, "if_matching": other.status.value},
    )


def _tool_names(check: Check) -> set[str]:
    """The tool names a check names (``name``, ``names``, ``tool``; ``a|b`` split)."""
    found: set[str] = set()
    values = [getattr(check, attr, None) for attr in ("name", "tool")]
    values.extend(getattr(check, "names", None) or ())
    for value in values:
        if isinstance(value, str):
            found.update(part.strip() for part in value.split("|"))
    return found


__all__ = ["decide_unrecorded"]
