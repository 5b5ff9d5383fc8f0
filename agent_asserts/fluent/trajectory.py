"""The trajectory family of :class:`~agent_asserts.context.EvalContext`: the tool calls
(``docs/checks-trajectory.md``, classes in :mod:`agent_asserts.checks.tools`,
:mod:`~agent_asserts.checks.trajectory`, :mod:`~agent_asserts.checks.sequencing` and
:mod:`~agent_asserts.checks.trajectory_match`).

>>> from agent_asserts import EvalContext
>>> from agent_asserts.testing import demo_record
>>> EvalContext(demo_record()).called_tool("refunds_issue").result.message
'matched 1 tool calls'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from agent_asserts.checks import sequencing, tools, trajectory, trajectory_match
from agent_asserts.checks.tools import OnlyDeclaredTools
from agent_asserts.fluent.recording import CountLike, Recorder

if TYPE_CHECKING:
    from agent_asserts.fluent.handles import AssertionHandle
    from agent_asserts.selectors import Selector


class TrajectoryMethods(Recorder):
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
        total: bool = False,
    ) -> AssertionHandle:
        """Calls of ``name`` matching the given fields, counted against ``count``.

        ``count`` counts the matching calls; ``total=True`` counts every call of ``name``
        (the fields must then match at least one of them).

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> ctx = EvalContext(demo_record())
        >>> ctx.called_tool("refunds_issue", arguments={"amount": 42}, count=1).result.message
        'matched 1 tool calls'
        """
        check = tools.CalledTool(
            name,
            arguments,
            result,
            is_error,
            count,
            source=source,
            mcp_server=mcp_server,
            skill_id=skill_id,
            total=total,
        )
        return self._record(check)

    def not_called_tool(
        self, name: str, arguments: Any = None, *, before: Selector | str | None = None
    ) -> AssertionHandle:
        """No matching call (before the first ``before`` event, when given).

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> ctx = EvalContext(demo_record())
        >>> ctx.not_called_tool("refunds_issue", before="refunds_lookup").result.message
        "no call matched on.tool('refunds_issue') before on.tool('refunds_lookup') at e1"
        """
        return self._record(tools.NotCalledTool(name, arguments, before=before))

    def tool_order(self, *names: str, contiguous: bool = False) -> AssertionHandle:
        """The names (``"a|b"`` alternatives) occur in this order among the tool calls.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).tool_order("refunds_lookup", "refunds_issue").result.message
        'found 2 steps in order: e1, e3'
        """
        return self._record(sequencing.ToolOrder(*names, contiguous=contiguous))

    def used_no_tools(self) -> AssertionHandle:
        """No tool was called.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).used_no_tools().result.message
        'made 2 tool calls, expected none'
        """
        return self._record(tools.UsedNoTools())

    def max_tool_calls(self, n: int) -> AssertionHandle:
        """At most ``n`` tool calls.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).max_tool_calls(1).result.message
        'made 2 tool calls, limit 1'
        """
        return self._record(tools.MaxToolCalls(n))

    def no_failed_actions(self) -> AssertionHandle:
        """No tool call failed and the run recorded no errors.

        >>> from agent_asserts import EvalContext, TrialRecord
        >>> rec = TrialRecord.builder().tool("refunds_issue", is_error=True).build()
        >>> EvalContext(rec).no_failed_actions().result.message
        '1 failed tool call (e0)'
        """
        return self._record(tools.NoFailedActions())

    def last_tool(self, name: str, arguments: Any = None) -> AssertionHandle:
        """The last tool call is ``name`` (with matching arguments).

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> ctx = EvalContext(demo_record())
        >>> ctx.last_tool("refunds_issue", {"orderId": "A1049"}).result.message
        "the last tool call was 'refunds_issue' at e3"
        """
        return self._record(trajectory.LastTool(name, arguments))

    def every_call(self, name: str, arguments: Any = None, result: Any = None) -> AssertionHandle:
        """Every call of ``name`` matches (passes when it was never called).

        >>> from agent_asserts import EvalContext, M
        >>> from agent_asserts.testing import demo_record
        >>> ctx = EvalContext(demo_record())
        >>> ctx.every_call("refunds_issue", {"amount": M.gt(0)}).result.passed
        True
        """
        return self._record(trajectory.EveryCall(name, arguments, result))

    def followed_by(
        self, name: str, next: Selector | str, *, arguments: Any = None
    ) -> AssertionHandle:
        """Every call of ``name`` is later followed by an event matching ``next``.

        >>> from agent_asserts import EvalContext, on
        >>> from agent_asserts.testing import demo_record
        >>> ctx = EvalContext(demo_record())
        >>> ctx.followed_by("refunds_lookup", on.tool("refunds_issue")).result.message
        "all 1 call of 'refunds_lookup' followed by on.tool('refunds_issue')"
        """
        return self._record(trajectory.FollowedBy(name, next, arguments=arguments))

    def terminal_tool(self, name: str) -> AssertionHandle:
        """``name`` ran at most once and no tool call came after it.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).terminal_tool("refunds_lookup").result.message
        "tool call e3 ('refunds_issue') came after 'refunds_lookup' at e1"
        """
        return self._record(trajectory.TerminalTool(name))

    def ended_session(self, arguments: Any = None, *, tool: str = "end_session") -> AssertionHandle:
        """The last tool call is the session-ending tool, with matching arguments.

        >>> from agent_asserts import EvalContext, TrialRecord
        >>> rec = TrialRecord.builder().tool("end_session", {"reason": "done"}).build()
        >>> EvalContext(rec).ended_session({"reason": "done"}).result.message
        "the last tool call was 'end_session' at e0"
        """
        return self._record(trajectory.EndedSession(arguments, tool=tool))

    def matches_trajectory(
        self,
        reference: Any,
        *,
        order: trajectory_match.Order = "strict",
        arguments: Any = "exact",
        tools: Mapping[str, Any] | None = None,
    ) -> AssertionHandle:
        """The tool calls match a reference trajectory (see ``docs/checks-trajectory.md``).

        ``order``: ``strict``, ``in_order``, ``unordered``, ``subset`` or ``superset``;
        ``arguments``: ``exact``, ``subset``, ``superset``, ``ignore``, a matcher or a
        comparator ``fn(expected, actual)``; ``tools`` overrides ``arguments`` per tool name.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> ctx = EvalContext(demo_record())
        >>> handle = ctx.matches_trajectory(["refunds_lookup", "refunds_issue"], arguments="ignore")
        >>> print(handle.result.message)
        matched 2 of 2 reference calls and 2 of 2 calls of the run
        (order 'strict', arguments 'ignore')
        """
        check = trajectory_match.MatchesTrajectory(
            reference, order=order, arguments=arguments, tools=tools
        )
        return self._record(check)

    def trace_parsed(self) -> AssertionHandle:
        """The record has no parse errors.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).trace_parsed().result.message
        'the trace parsed without errors'
        """
        return self._record(trajectory.TraceParsed())

    def confirmation_requested(
        self, before_tool: str, pattern: str, within_last_n_turns: int = 4
    ) -> AssertionHandle:
        """Each call of ``before_tool`` was preceded by an agent message matching ``pattern``.

        >>> from agent_asserts import EvalContext, TrialRecord
        >>> rec = TrialRecord.builder().agent("Please confirm").user("yes").tool("refund").build()
        >>> EvalContext(rec).confirmation_requested("refund", "(?i)confirm").result.message
        "every call of 'refund' was confirmed: e2 after e0"
        """
        check = trajectory.ConfirmationRequested(before_tool, pattern, within_last_n_turns)
        return self._record(check)

    def sequencing(self, *selectors: Selector | str) -> AssertionHandle:
        """Each selector matches an event strictly after the previous one's.

        >>> from agent_asserts import EvalContext, on
        >>> from agent_asserts.testing import demo_record
        >>> steps = ("refunds_lookup", on.memory_set("refund.order_id"), "refunds_issue")
        >>> EvalContext(demo_record()).sequencing(*steps).result.message
        'found 3 steps in order: e1, e2, e3'
        """
        return self._record(sequencing.Sequencing(*selectors))

    def no_loops(self, times: int = 3, *, longest: int = 4) -> AssertionHandle:
        """No call repeated ``times`` times in a row with the same arguments, and no cycle of
        up to ``longest`` calls repeated ``times`` times in a row.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).no_loops().result.message
        'no call or cycle of calls repeated 3 times in a row'
        """
        return self._record(trajectory.NoLoops(times, longest=longest))

    def no_pending_calls(self) -> AssertionHandle:
        """Every tool call was answered (none is ``pending``).

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).no_pending_calls().result.message
        'all 2 calls answered'
        """
        return self._record(trajectory.NoPendingCalls())

    def no_ignored_errors(self, acknowledged: str = trajectory.ACKNOWLEDGED) -> AssertionHandle:
        """After each failed call the agent retried that tool or said so (``acknowledged``).

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).no_ignored_errors().result.message
        'no failed tool call'
        """
        return self._record(trajectory.NoIgnoredErrors(acknowledged))

    def only_declared_tools(self, tools: Sequence[str] | None = None) -> AssertionHandle:
        """Every call names one of ``tools``, or (without them) a tool the record declares.

        >>> from agent_asserts import EvalContext, TrialRecord
        >>> rec = TrialRecord.from_dict({"tools": [{"name": "a"}], "events": []})
        >>> EvalContext(rec).only_declared_tools().result.message
        'all 0 calls name a declared tool'
        """
        return self._record(OnlyDeclaredTools(tools))


__all__ = ["TrajectoryMethods"]
