"""The events family of :class:`~agent_asserts.context.EvalContext`: any event, steps, tokens.

>>> from agent_asserts import EvalContext
>>> from agent_asserts.testing import demo_record
>>> EvalContext(demo_record()).max_steps(5).result.passed
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from agent_asserts.checks import cost, events
from agent_asserts.fluent.recorder import CountLike, Recorder

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

    def step_count(self, n: int) -> AssertionHandle:
        """Exactly ``n`` steps (``"expected 2 steps, got 3"``).

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).step_count(2).result.message
        'expected 2 steps, got 4'
        """
        return self._record(cost.StepCount(n))

    def max_steps(self, n: int) -> AssertionHandle:
        """At most ``n`` steps.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).max_steps(5).result.message
        'expected at most 5 steps, got 4'
        """
        return self._record(cost.MaxSteps(n))

    def total_tokens_at_most(self, n: int) -> AssertionHandle:
        """At most ``n`` tokens in total (``"used 5000 tokens, limit 4000"``).

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).total_tokens_at_most(1000).result.message
        'used 1020 tokens, limit 1000'
        """
        return self._record(cost.TotalTokensAtMost(n))


__all__ = ["EventMethods"]
