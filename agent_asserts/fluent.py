"""The fluent methods of :class:`~agent_asserts.context.EvalContext`, one class per family.

Each method is one line: build the check object named after it and record it. The check
classes hold all the logic (and are shared with every loader); the docs pages per family
(``docs/checks-*.md``) show each method at work.

>>> from agent_asserts import EvalContext
>>> from agent_asserts.testing import demo_record
>>> EvalContext(demo_record()).called_tool("refunds_issue").result.message
'matched 1 tool calls'
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from agent_asserts._missing import MISSING
from agent_asserts.checks import (
    cost,
    events,
    lifecycle,
    memory,
    messages,
    outcome,
    sequencing,
    state,
    tools,
    trajectory,
    turns,
)
from agent_asserts.matching import ANY, Count

if TYPE_CHECKING:
    from agent_asserts.checks.base import Check
    from agent_asserts.handles import AssertionHandle
    from agent_asserts.matching import Matcher
    from agent_asserts.record import Button, Event
    from agent_asserts.selector_kinds import ToolSelector
    from agent_asserts.selectors import Selector

CountLike = int | Count | None


class _Recorder(abc.ABC):
    @abc.abstractmethod
    def record_check(self, check: Check) -> AssertionHandle:
        """Evaluate and record one check."""


class OutcomeMethods(_Recorder):
    """``succeeded``, ``stopped``, ``message_includes``, ``output_equals``, ``output_matches``."""

    def succeeded(self) -> AssertionHandle:
        """The run's status is ``completed``."""
        return self.record_check(outcome.Succeeded())

    def stopped(self) -> AssertionHandle:
        """The run's status is ``stopped``."""
        return self.record_check(outcome.Stopped())

    def message_includes(self, text: str) -> AssertionHandle:
        """The reply contains ``text``."""
        return self.record_check(outcome.MessageIncludes(text))

    def output_equals(self, expected: Any) -> AssertionHandle:
        """The reply matches ``expected`` (a string or a matcher)."""
        return self.record_check(outcome.OutputEquals(expected))

    def output_matches(self, pattern: str) -> AssertionHandle:
        """A regular expression is found in the reply."""
        return self.record_check(outcome.OutputMatches(pattern))


class TrajectoryMethods(_Recorder):
    """Tool calls: which, with what, how often, in which order, and how the run ended."""

    def called_tool(
        self,
        name: str,
        arguments: Any = None,
        result: Any = None,
        is_error: bool | None = None,
        count: CountLike = None,
        *,
        source: str | None = None,
        mcp_server: str | None = None,
        skill_id: str | None = None,
    ) -> AssertionHandle:
        """Calls of ``name`` matching the given fields, counted against ``count``."""
        check = tools.CalledTool(
            name, arguments, result, is_error, count,
            source=source, mcp_server=mcp_server, skill_id=skill_id,
        )  # fmt: skip
        return self.record_check(check)

    def not_called_tool(
        self, name: str, arguments: Any = None, *, before: Selector | str | None = None
    ) -> AssertionHandle:
        """No matching call (before the first ``before`` event, when given)."""
        return self.record_check(tools.NotCalledTool(name, arguments, before=before))

    def tool_order(self, *names: str, contiguous: bool = False) -> AssertionHandle:
        """The names (``"a|b"`` alternatives) occur in this order among the tool calls."""
        return self.record_check(sequencing.ToolOrder(*names, contiguous=contiguous))

    def used_no_tools(self) -> AssertionHandle:
        """No tool was called."""
        return self.record_check(tools.UsedNoTools())

    def max_tool_calls(self, n: int) -> AssertionHandle:
        """At most ``n`` tool calls."""
        return self.record_check(tools.MaxToolCalls(n))

    def no_failed_actions(self) -> AssertionHandle:
        """No tool call failed and the run recorded no errors."""
        return self.record_check(tools.NoFailedActions())

    def last_tool(self, name: str, arguments: Any = None) -> AssertionHandle:
        """The last tool call is ``name`` (with matching arguments)."""
        return self.record_check(trajectory.LastTool(name, arguments))

    def every_call(self, name: str, arguments: Any = None, result: Any = None) -> AssertionHandle:
        """Every call of ``name`` matches (passes when it was never called)."""
        return self.record_check(trajectory.EveryCall(name, arguments, result))

    def followed_by(
        self, name: str, next: Selector | str, *, arguments: Any = None
    ) -> AssertionHandle:
        """Every call of ``name`` is later followed by an event matching ``next``."""
        return self.record_check(trajectory.FollowedBy(name, next, arguments=arguments))

    def terminal_tool(self, name: str) -> AssertionHandle:
        """``name`` ran at most once and no tool call came after it."""
        return self.record_check(trajectory.TerminalTool(name))

    def ended_session(self, arguments: Any = None, *, tool: str = "end_session") -> AssertionHandle:
        """The last tool call is the session-ending tool, with matching arguments."""
        return self.record_check(trajectory.EndedSession(arguments, tool=tool))

    def trace_parsed(self) -> AssertionHandle:
        """The record has no parse errors."""
        return self.record_check(trajectory.TraceParsed())

    def confirmation_requested(
        self, before_tool: str, pattern: str, within_last_n_turns: int = 4
    ) -> AssertionHandle:
        """Each call of ``before_tool`` was preceded by an agent message matching ``pattern``."""
        check = trajectory.ConfirmationRequested(before_tool, pattern, within_last_n_turns)
        return self.record_check(check)


class EventMethods(_Recorder):
    """Sub-agents, any event, event order, and the step and token budgets."""

    def called_subagent(self, name: str, count: CountLike = None) -> AssertionHandle:
        """Delegations to ``name``, counted against ``count``."""
        return self.record_check(events.CalledSubagent(name, count))

    def event(
        self,
        selector: Selector | str,
        predicate: Callable[[Event], bool] | None = None,
        count: CountLike = None,
    ) -> AssertionHandle:
        """Events matching ``selector`` (a string is a kind) and ``predicate``."""
        return self.record_check(events.EventCheck(selector, predicate, count))

    def not_event(self, selector: Selector | str) -> AssertionHandle:
        """No event matches ``selector``."""
        return self.record_check(events.NotEvent(selector))

    def event_order(self, *selectors: Selector | str) -> AssertionHandle:
        """Events matching the selectors occur in this order."""
        return self.record_check(events.EventOrder(*selectors))

    def events_satisfy(self, fn: Callable[[Sequence[Event]], bool]) -> AssertionHandle:
        """A Python predicate over all the events."""
        return self.record_check(events.EventsSatisfy(fn))

    def step_count(self, n: int) -> AssertionHandle:
        """Exactly ``n`` steps (``"expected 2 steps, got 3"``)."""
        return self.record_check(cost.StepCount(n))

    def max_steps(self, n: int) -> AssertionHandle:
        """At most ``n`` steps."""
        return self.record_check(cost.MaxSteps(n))

    def total_tokens_at_most(self, n: int) -> AssertionHandle:
        """At most ``n`` tokens in total (``"used 5000 tokens, limit 4000"``)."""
        return self.record_check(cost.TotalTokensAtMost(n))


class ConversationMethods(_Recorder):
    """Skills, ordered blocks, memory, agent messages, turns and sequencing (Mantle)."""

    def skill_activated(self, skill_id: str) -> AssertionHandle:
        """Skill ``skill_id`` was activated."""
        return self.record_check(lifecycle.SkillActivated(skill_id))

    def skill_completed(self, skill_id: str) -> AssertionHandle:
        """Skill ``skill_id`` completed."""
        return self.record_check(lifecycle.SkillCompleted(skill_id))

    def skill_cancelled(self, skill_id: str, step_id: str | None = None) -> AssertionHandle:
        """Skill ``skill_id`` was cancelled (at ``step_id``, when given)."""
        return self.record_check(lifecycle.SkillCancelled(skill_id, step_id))

    def skill_interrupted(self, skill_id: str, step_id: str | None = None) -> AssertionHandle:
        """Skill ``skill_id`` was interrupted (at ``step_id``, when given)."""
        return self.record_check(lifecycle.SkillInterrupted(skill_id, step_id))

    def skill_resumed(self, skill_id: str, step_id: str | None = None) -> AssertionHandle:
        """Skill ``skill_id`` was resumed (at ``step_id``, when given)."""
        return self.record_check(lifecycle.SkillResumed(skill_id, step_id))

    def ordered_block_entered(self, skill_id: str, block_id: str) -> AssertionHandle:
        """Ordered block ``block_id`` of skill ``skill_id`` was entered."""
        return self.record_check(lifecycle.BlockEntered(skill_id, block_id))

    def ordered_block_completed(
        self, skill_id: str, block_id: str, step_id: str | None = None
    ) -> AssertionHandle:
        """The ordered block completed (at ``step_id``, when given)."""
        return self.record_check(lifecycle.BlockCompleted(skill_id, block_id, step_id))

    def ordered_block_cancelled(
        self, skill_id: str, block_id: str, step_id: str | None = None
    ) -> AssertionHandle:
        """The ordered block was cancelled (at ``step_id``, when given)."""
        return self.record_check(lifecycle.BlockCancelled(skill_id, block_id, step_id))

    def ordered_block_interrupted(
        self, skill_id: str, block_id: str, step_id: str | None = None
    ) -> AssertionHandle:
        """The ordered block was interrupted (at ``step_id``, when given)."""
        return self.record_check(lifecycle.BlockInterrupted(skill_id, block_id, step_id))

    def ordered_block_resumed(
        self, skill_id: str, block_id: str, step_id: str | None = None
    ) -> AssertionHandle:
        """The ordered block was resumed (at ``step_id``, when given)."""
        return self.record_check(lifecycle.BlockResumed(skill_id, block_id, step_id))

    def memory_was_set(self, name: str, value: Any = MISSING) -> AssertionHandle:
        """Some write of memory key ``name`` (with ``value``, strictly, when given)."""
        return self.record_check(memory.MemoryWasSet(name, value))

    def memory_was_not_set(self, name: str, value: Any = MISSING) -> AssertionHandle:
        """No write of ``name``; with ``value``: its last write was not ``value``."""
        return self.record_check(memory.MemoryWasNotSet(name, value))

    def memory_was_cleared(self, name: str) -> AssertionHandle:
        """Memory key ``name`` was cleared."""
        return self.record_check(memory.MemoryWasCleared(name))

    def bot_uttered(
        self,
        *,
        utter_name: str | None = None,
        text_matches: str | Matcher | None = None,
        buttons: Sequence[Mapping[str, Any] | Button] | None = None,
    ) -> AssertionHandle:
        """One agent message matches every given field."""
        check = messages.BotUttered(
            utter_name=utter_name, text_matches=text_matches, buttons=buttons
        )
        return self.record_check(check)

    def bot_did_not_utter(
        self,
        *,
        utter_name: str | None = None,
        text_matches: str | Matcher | None = None,
        buttons: Sequence[Mapping[str, Any] | Button] | None = None,
    ) -> AssertionHandle:
        """No agent message matches every given field."""
        check = messages.BotDidNotUtter(
            utter_name=utter_name, text_matches=text_matches, buttons=buttons
        )
        return self.record_check(check)

    def tools_within_one_turn(
        self,
        *calls: ToolSelector | str,
        allow_extra_calls: bool,
        ordered: bool = False,
        ignore: Iterable[str] = (),
    ) -> AssertionHandle:
        """Every listed call ran in one user turn (each run counts toward one call)."""
        check = turns.ToolsWithinOneTurn(
            *calls, allow_extra_calls=allow_extra_calls, ordered=ordered, ignore=ignore
        )
        return self.record_check(check)

    def sequencing(self, *selectors: Selector | str) -> AssertionHandle:
        """Each selector matches an event strictly after the previous one's."""
        return self.record_check(sequencing.Sequencing(*selectors))


class StateMethods(_Recorder):
    """The world state: what changed between the initial and the final state."""

    def changed(
        self,
        path: str,
        *,
        before: Any = ANY,
        after: Any = ANY,
        op: Literal["added", "removed", "changed"] | None = None,
    ) -> AssertionHandle:
        """A delta entry at ``path`` (added, removed or changed; narrow with ``op``)."""
        return self.record_check(state.Changed(path, before=before, after=after, op=op))

    def unchanged(self, path: str) -> AssertionHandle:
        """Nothing at or below ``path`` changed."""
        return self.record_check(state.Unchanged(path))

    def only_changed(self, *paths: str) -> AssertionHandle:
        """Frame condition: every change lies at or below one of ``paths``."""
        return self.record_check(state.OnlyChanged(*paths))


__all__ = [
    "ConversationMethods",
    "EventMethods",
    "OutcomeMethods",
    "StateMethods",
    "TrajectoryMethods",
]
