"""The events family of :class:`~agent_asserts.context.EvalContext`: events of any kind
(``docs/checks-events.md``, classes in :mod:`agent_asserts.checks.events`).

>>> from agent_asserts import EvalContext
>>> from agent_asserts.testing import demo_record
>>> EvalContext(demo_record()).event("memory").result.passed
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from agent_asserts.checks import events
from agent_asserts.fluent.recording import CountLike, Recorder

if TYPE_CHECKING:
    from agent_asserts.fluent.handles import AssertionHandle
    from agent_asserts.record import Event
    from agent_asserts.selectors import Selector


class EventMethods(Recorder):
    """Sub-agents, any event, event order, and the step and token budgets."""

    def called_subagent(self, name: str, count: CountLike = None) -> AssertionHandle:
        """Completed delegations to ``name`` (outcome ``completed``), counted against ``count``.

        >>> from agent_asserts import EvalContext, Count, TrialRecord
        >>> rec = TrialRecord.builder().subagent("fraud_check").subagent("fraud_check").build()
        >>> EvalContext(rec).called_subagent("fraud_check", Count.at_most(1)).result.message
        "matched 2 completed delegations to 'fraud_check' (expected at most 1)"
        """
        return self._record(events.CalledSubagent(name, count))

    def event(
        self,
        selector: Selector | str,
        predicate: Callable[[Event], bool] | None = None,
        count: CountLike = None,
    ) -> AssertionHandle:
        """Events matching ``selector`` (a string is a kind) and ``predicate``.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).event("memory", count=1).result.message
        "matched 1 event on.event('memory') (expected exactly 1)"
        """
        return self._record(events.EventCheck(selector, predicate, count))

    def not_event(self, selector: Selector | str) -> AssertionHandle:
        """No event matches ``selector``.

        >>> from agent_asserts import EvalContext, on
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).not_event(on.tool("refunds_cancel")).result.message
        "no event matched on.tool('refunds_cancel')"
        """
        return self._record(events.NotEvent(selector))

    def event_order(self, *selectors: Selector | str) -> AssertionHandle:
        """Events matching the selectors occur in this order.

        >>> from agent_asserts import EvalContext, on
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).event_order("memory", on.tool("refunds_issue")).result.passed
        True
        """
        return self._record(events.EventOrder(*selectors))

    def events_satisfy(self, fn: Callable[[Sequence[Event]], bool]) -> AssertionHandle:
        """A Python predicate over all the events.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).events_satisfy(lambda evs: len(evs) == 5).result.passed
        True
        """
        return self._record(events.EventsSatisfy(fn))

    def no_delegation_cycle(self) -> AssertionHandle:
        """No agent delegates, directly or through others, back to one that delegated to it.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).no_delegation_cycle().result.message
        'no cycle among 0 delegations'
        """
        return self._record(events.NoDelegationCycle())


__all__ = ["EventMethods"]
