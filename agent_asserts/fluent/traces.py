"""The traces family of :class:`~agent_asserts.context.EvalContext`: steps, tokens, durations,
model calls, parallel calls, declared tools and denied calls (``docs/checks-traces.md``,
classes in :mod:`agent_asserts.checks.traces`).

>>> from agent_asserts import EvalContext, TrialRecord
>>> rec = TrialRecord.builder().tool("refund", {}, outcome="denied").build()
>>> EvalContext(rec).no_denied_calls().result.message
"1 call was denied: e0 ('refund')"
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agent_asserts.checks import traces
from agent_asserts.fluent.recording import Recorder

if TYPE_CHECKING:
    from agent_asserts.fluent.handles import AssertionHandle
    from agent_asserts.selectors import Selector


class TraceMethods(Recorder):
    """What a run's trace measures and its call facts."""

    def step_count(self, n: int) -> AssertionHandle:
        """Exactly ``n`` steps (``"expected 2 steps, got 3"``).

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).step_count(2).result.message
        'expected 2 steps, got 4'
        """
        return self._record(traces.StepCount(n))

    def max_steps(self, n: int) -> AssertionHandle:
        """At most ``n`` steps.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).max_steps(5).result.message
        'expected at most 5 steps, got 4'
        """
        return self._record(traces.MaxSteps(n))

    def total_tokens_at_most(self, n: int) -> AssertionHandle:
        """At most ``n`` tokens in total (``"used 5000 tokens, limit 4000"``).

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).total_tokens_at_most(1000).result.message
        'used 1020 tokens, limit 1000'
        """
        return self._record(traces.TotalTokensAtMost(n))

    def duration_at_most(self, selector: Selector | str, seconds: float) -> AssertionHandle:
        """Every event matching ``selector`` (a string is a tool name) lasted at most
        ``seconds``; the evidence names the slowest.

        >>> from agent_asserts import EvalContext, TrialRecord
        >>> rec = TrialRecord.builder().tool("lookup", {}, duration=0.25).build()
        >>> EvalContext(rec).duration_at_most("lookup", 1).result.message
        "all 1 event on.tool('lookup') took at most 1 s; slowest: e0 took 0.25 s"
        """
        return self._record(traces.DurationAtMost(selector, seconds))

    def run_duration_at_most(self, seconds: float) -> AssertionHandle:
        """The run lasted at most ``seconds`` (first event's time to last event's end).

        >>> from agent_asserts import EvalContext, TrialRecord
        >>> b = TrialRecord.builder().user("hi", monotonic_time=0.0)
        >>> rec = b.agent("yo", monotonic_time=3.0).build()
        >>> EvalContext(rec).run_duration_at_most(5).result.message
        'the run took 3 s, limit 5 s'
        """
        return self._record(traces.RunDurationAtMost(seconds))

    def model_calls_at_most(self, n: int, model: str | None = None) -> AssertionHandle:
        """At most ``n`` model calls (of ``model`` when given).

        >>> from agent_asserts import EvalContext, TrialRecord
        >>> rec = TrialRecord.builder().model_call("gpt-4o").model_call("gpt-4o").build()
        >>> EvalContext(rec).model_calls_at_most(1).result.message
        'made 2 model calls, limit 1'
        """
        return self._record(traces.ModelCallsAtMost(n, model))

    def tokens_at_most(self, n: int, counter: str = "total_tokens") -> AssertionHandle:
        """At most ``n`` of ``counter`` (a ``Usage`` field or ``details`` key) over the run.

        >>> from agent_asserts import EvalContext, TrialRecord
        >>> usage = {"input_tokens": 80, "output_tokens": 20}
        >>> rec = TrialRecord.builder().model_call("m", usage).build()
        >>> EvalContext(rec).tokens_at_most(50, counter="input_tokens").result.message
        'used 80 input_tokens, limit 50 (sum over 1 model_call event)'
        """
        return self._record(traces.TokensAtMost(n, counter))

    def parallel_calls(self, *names: str) -> AssertionHandle:
        """The named tools were called in one group (issued together).

        >>> from agent_asserts import EvalContext, TrialRecord
        >>> b = TrialRecord.builder().tool("a", {}, group_id="r1")
        >>> rec = b.tool("b", {}, group_id="r1").build()
        >>> EvalContext(rec).parallel_calls("a", "b").result.message
        "'a', 'b' were called together in group 'r1': e0, e1"
        """
        return self._record(traces.ParallelCalls(*names))

    def tool_arguments_valid(self, name: str | None = None) -> AssertionHandle:
        """Every call (of ``name``, or all) has arguments valid against its declared schema.

        >>> from agent_asserts import EvalContext, TrialRecord
        >>> rec = TrialRecord.builder().tool("lookup", {"id": "A1"}).build(
        ...     tools=[{"name": "lookup", "parameters": {"type": "object"}}])
        >>> EvalContext(rec).tool_arguments_valid().result.message
        'the arguments of 1 call are valid against the declared schemas'
        """
        return self._record(traces.ToolArgumentsValid(name))

    def no_denied_calls(self) -> AssertionHandle:
        """No tool call was denied (``outcome: denied``).

        >>> from agent_asserts import EvalContext, TrialRecord
        >>> EvalContext(TrialRecord.builder().tool("a", {}).build()).no_denied_calls().result.passed
        True
        """
        return self._record(traces.NoDeniedCalls())


__all__ = ["TraceMethods"]
