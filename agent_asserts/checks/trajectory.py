"""The shape of the trajectory (trajectory family): how the calls follow one another and end, and
confirmation before a consequential tool.

Trajectory checks of the cxas family: ``last_tool``, ``every_call``, ``followed_by``,
``terminal_tool``, ``ended_session``, ``trace_parsed``, ``confirmation_requested``.

A tool that was never called makes ``every_call``, ``followed_by`` and ``terminal_tool`` pass
with a message saying so, and ``confirmation_requested`` ``not_applicable``
(``ConfirmationRequested`` lives in :mod:`agent_asserts.checks.trajectory`; it is
re-exported here).

>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.builder().tool("end_session").tool("lookup").build()
>>> TerminalTool("end_session").evaluate(rec).message
"tool call e1 ('lookup') came after 'end_session' at e0"

``confirmation_requested``: the agent asked before it ran a consequential tool.

Part of the cxas trajectory family (re-exported by :mod:`agent_asserts.checks.trajectory`);
it reads both the tool calls and the agent's messages.

>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.builder().user("buy it").tool("create_order").build()
>>> ConfirmationRequested("create_order", "(?i)shall i").evaluate(rec).status.value
'fail'
"""

from __future__ import annotations

import abc
import bisect
import itertools
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

import attrs

from agent_asserts._text import LazyText
from agent_asserts._values import MISSING
from agent_asserts.checks import register
from agent_asserts.checks.base import Check, given_fields_first
from agent_asserts.checks.outcome import regex_validator
from agent_asserts.checks.selection import (
    AGENT_MESSAGES,
    calls_named,
    event_ids,
    id_list,
    parallel_note,
    selector_surface,
    selector_validator,
    tool_name,
)
from agent_asserts.checks.traces import int_at_least
from agent_asserts.matching import M, render
from agent_asserts.matching.scalar import compile_regex, search
from agent_asserts.matching.values import plural
from agent_asserts.outcome import Outcome, missing_surface
from agent_asserts.record import MessagePayload
from agent_asserts.selectors import MessageSelector, Selector, ToolSelector, as_selector

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord


def parallel_calls_with(record: TrialRecord, position: int) -> list[int]:
    """The other tool calls issued in parallel with the event at ``position`` (same group).

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().tool("a", group_id="r").tool("b", group_id="r").build()
    >>> parallel_calls_with(rec, 1)
    [0]
    """
    groups = record.groups
    if position not in groups.group_of:
        return []
    calls = record.positions_of_kind("tool_call")
    low = bisect.bisect_left(calls, groups.start(position))
    high = bisect.bisect_right(calls, groups.end(position))
    return [p for p in calls[low:high] if groups.parallel(position, p)]


def _last_tool_outcome(record: TrialRecord, selector: ToolSelector) -> Outcome:
    invalid = missing_surface(record, "tool_call")
    if invalid is not None:
        return invalid
    calls = record.positions_of_kind("tool_call")
    if not calls:
        return Outcome.of(False, message=f"no tool was called, expected {selector!r} last")
    last = record.events[calls[-1]]
    name = tool_name(record, calls[-1])
    mismatches = selector.explain(last)
    head = f"the last tool call was {name!r} at {last.event_id}"
    together = parallel_calls_with(record, calls[-1])
    if together:
        ids = ", ".join(record.events[p].event_id for p in together)
        return Outcome.of(
            False,
            message=f"{head}, issued in parallel with {ids} (group {last.group_id!r}):"
            " no single call came last",
            evidence=(last.event_id, *(record.events[p].event_id for p in together)),
            observed=name,
        )
    if not mismatches:
        return Outcome.of(True, message=head, evidence=(last.event_id,), observed=name)
    return Outcome.of(
        False,
        message=f"{head}, which does not match {selector!r}",
        evidence=(last.event_id,),
        observed=name,
        closest=last.event_id,
        mismatches=mismatches,
    )


class _LastToolCheck(Check):
    """``last_tool`` and ``ended_session``: the last call matches ``on.tool`` of the tool the
    subclass names, with ``arguments``. Each (attrs) subclass declares, after its own fields,
    ``_selector`` made by :meth:`_select_last` (annotated here for the type checker only)."""

    arguments: Any
    _selector: ToolSelector

    @abc.abstractmethod
    def tool_name(self) -> str:
        """The tool the last call must be."""

    @given_fields_first
    def _select_last(self) -> ToolSelector:
        return ToolSelector(self.tool_name(), self.arguments)

    def evaluate(self, record: TrialRecord) -> Outcome:
        return _last_tool_outcome(record, self._selector)


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class LastTool(_LastToolCheck):
    """The last tool call matches ``on.tool(name, arguments=arguments)``; no call fails.

    >>> from agent_asserts.record import TrialRecord
    >>> LastTool("refund").evaluate(TrialRecord.builder().tool("refund").build()).message
    "the last tool call was 'refund' at e0"
    """

    name: str
    arguments: Any = None
    _selector: ToolSelector = attrs.field(
        init=False,
        eq=False,
        repr=False,
        default=attrs.Factory(_LastToolCheck._select_last, takes_self=True),
    )

    method: ClassVar[str] = "last_tool"
    yaml_positional: ClassVar[tuple[str, ...]] = ("name", "arguments")
    positional: ClassVar[tuple[str, ...]] = ("name",)

    def tool_name(self) -> str:
        return self.name


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class EndedSession(_LastToolCheck):
    """The last tool call is ``tool`` (``end_session`` by default) with these arguments.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().tool("end_session", arguments={"reason": "done"}).build()
    >>> EndedSession({"reason": "done"}).evaluate(rec).status.value
    'pass'
    """

    arguments: Any = None
    tool: str = attrs.field(default="end_session", kw_only=True)
    _selector: ToolSelector = attrs.field(
        init=False,
        eq=False,
        repr=False,
        default=attrs.Factory(_LastToolCheck._select_last, takes_self=True),
    )

    method: ClassVar[str] = "ended_session"
    yaml_positional: ClassVar[tuple[str, ...]] = ("arguments",)

    def tool_name(self) -> str:
        return self.tool


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class EveryCall(Check):
    """Every call of ``name`` matches ``arguments`` and ``result``; never called passes.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().tool("pay", arguments={"amount": 5}).build()
    >>> EveryCall("refund", arguments={"amount": 5}).evaluate(rec).message
    "'refund' was never called"
    """

    name: str
    arguments: Any = None
    result: Any = None
    _selector: ToolSelector = attrs.field(init=False, eq=False, repr=False)

    method: ClassVar[str] = "every_call"
    yaml_positional: ClassVar[tuple[str, ...]] = ("name", "arguments", "result")
    positional: ClassVar[tuple[str, ...]] = ("name",)

    @_selector.default
    @given_fields_first
    def _select_calls(self) -> ToolSelector:
        if self.arguments is None and self.result is None:
            raise ValueError("every_call() needs 'arguments' or 'result': it would check nothing")
        return ToolSelector(self.name, self.arguments, self.result)

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = missing_surface(record, "tool_call")
        if invalid is not None:
            return invalid
        positions = self._selector.candidates(record)
        if not positions:
            return Outcome.of(True, message=f"{self.name!r} was never called", observed=0)
        events = record.events
        selector = self._selector
        # explain() only the calls that do not match (it is empty exactly when they do)
        matched = selector.select(record)
        bad = []
        if len(matched) < len(positions):
            taken = set(matched)
            bad = [(p, selector.explain(events[p])) for p in positions if p not in taken]
        if not bad:
            text = LazyText(_all_match_text, len(positions), self.name, selector)
            return Outcome.of(True, message=text, evidence=event_ids(record, positions))
        total = plural(len(positions), "call")
        closest, mismatches = min(bad, key=lambda item: len(item[1]))
        ids = event_ids(record, (p for p, _ in bad))
        return Outcome.of(
            False,
            message=f"{len(bad)} of {total} of {self.name!r} do not match: {id_list(ids)}",
            evidence=ids,
            closest=events[closest].event_id,
            mismatches=mismatches,
            observed=len(bad),
        )


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class FollowedBy(Check):
    """Every call of ``name`` (matching ``arguments``) is followed, later, by an event that
    matches ``next`` (a selector, or a tool name). Never called passes. An event issued in
    parallel with the call (same ``group_id``) does not follow it.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().tool("check").tool("create").tool("check").build()
    >>> FollowedBy("check", "create").evaluate(rec).message
    "1 of 2 calls of 'check' not followed by on.tool('create'): e2"
    """

    name: str
    next: Selector | str = attrs.field(validator=selector_validator("tool"))
    arguments: Any = attrs.field(default=None, kw_only=True)
    _selector: ToolSelector = attrs.field(init=False, eq=False, repr=False)
    _next: Selector = attrs.field(init=False, eq=False, repr=False)

    method: ClassVar[str] = "followed_by"
    positional: ClassVar[tuple[str, ...]] = ("name", "next")

    @_selector.default
    @given_fields_first
    def _select_calls(self) -> ToolSelector:
        return ToolSelector(self.name, self.arguments)

    @_next.default
    @given_fields_first
    def _select_next(self) -> Selector:
        return as_selector(self.next, default="tool")

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = selector_surface(record, self._selector, self._next)
        if invalid is not None:
            return invalid
        found = _follow(record, self)
        if found is None:
            never = f"{self.name!r} was never called"
            if self.arguments is not None:
                never = f"{self.name!r} was never called with {render(self.arguments)}"
            return Outcome.of(True, message=never, observed=0)
        n_calls, pairs, alone, followers, evidence = found
        nxt = self._next.describe()
        if not alone:
            text = LazyText(_all_followed_text, n_calls, self.name, nxt)
            return Outcome.of(True, message=text, evidence=evidence, details={"pairs": pairs})
        groups = record.groups
        total = plural(n_calls, "call")
        ids = event_ids(record, alone)
        note = ""
        for p in alone:
            beside = [f for f in followers if groups.parallel(p, f)]
            if beside:
                note = parallel_note(record, beside[0], p)
                break
        return Outcome.of(
            False,
            message=f"{len(alone)} of {total} of {self.name!r} not followed by {nxt}: "
            f"{id_list(ids)}{note}",
            evidence=ids,
            observed=len(alone),
            details={"pairs": pairs},
        )


_Followed = tuple[int, dict[str, str], tuple[int, ...], tuple[int, ...], tuple[str, ...]]


def _follow(record: TrialRecord, check: FollowedBy) -> _Followed | None:
    """(calls, the call id → follower id pairs, the calls not followed, the followers, the
    pass evidence) of ``check`` on ``record``; None when ``name`` was never called."""
    calls = check._selector.select(record)
    if not calls:
        return None
    followers = check._next.select(record)
    pairs: dict[str, str] = {}
    alone: list[int] = []
    groups = record.groups
    events = record.events
    n_calls = len(calls)
    if not groups.group_of:  # no parallel groups: "after" is a plain position comparison
        found = len(followers)
        for p in calls:
            i = bisect.bisect_right(followers, p)
            if i < found:
                pairs[events[p].event_id] = events[followers[i]].event_id
            else:
                alone.append(p)
        calls = []  # decided
    for p in calls:
        end = groups.end(p)
        i = bisect.bisect_right(followers, end)
        while i < len(followers) and groups.start(followers[i]) <= end:
            i += 1  # in a group that began before this call's group ended: not after it
        if i < len(followers):
            pairs[record.events[p].event_id] = record.events[followers[i]].event_id
        else:
            alone.append(p)
    evidence = tuple(dict.fromkeys(itertools.chain.from_iterable(pairs.items())))
    return n_calls, pairs, tuple(alone), tuple(followers), evidence


def _all_match_text(calls: int, name: str, selector: Selector) -> str:
    return f"all {plural(calls, 'call')} of {name!r} match {selector.describe()}"


def _all_followed_text(calls: int, name: str, nxt: str) -> str:
    return f"all {plural(calls, 'call')} of {name!r} followed by {nxt}"


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class TerminalTool(Check):
    """``name`` is called at most once and no tool call comes after it; never called passes.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().tool("end_session").tool("end_session").build()
    >>> TerminalTool("end_session").evaluate(rec).message
    "'end_session' was called 2 times: e0, e1"
    """

    name: str
    _selector: ToolSelector = attrs.field(init=False, eq=False, repr=False)

    method: ClassVar[str] = "terminal_tool"
    positional: ClassVar[tuple[str, ...]] = ("name",)

    @_selector.default
    @given_fields_first
    def _select_calls(self) -> ToolSelector:
        return ToolSelector(self.name)

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = missing_surface(record, "tool_call")
        if invalid is not None:
            return invalid
        positions = self._selector.candidates(record)
        if not positions:
            return Outcome.of(True, message=f"{self.name!r} was never called", observed=0)
        ids = event_ids(record, positions)
        if len(positions) > 1:
            text = f"{self.name!r} was called {len(positions)} times: {id_list(ids)}"
            return Outcome.of(False, message=text, evidence=ids, observed=len(positions))
        calls = record.positions_of_kind("tool_call")
        together = parallel_calls_with(record, positions[0])
        if together:
            other = record.events[together[0]]
            text = (
                f"tool call {other.event_id} ({tool_name(record, together[0])!r}) was issued in"
                f" parallel with {self.name!r} at {ids[0]} (group {other.group_id!r})"
            )
            return Outcome.of(False, message=text, evidence=(ids[0], other.event_id), observed=1)
        i = bisect.bisect_right(calls, positions[0])
        if i == len(calls):
            text = f"{self.name!r} at {ids[0]} was the last tool call"
            return Outcome.of(True, message=text, evidence=ids, observed=1)
        later = calls[i]
        later_id = record.events[later].event_id
        text = (
            f"tool call {later_id} ({tool_name(record, later)!r}) came after "
            f"{self.name!r} at {ids[0]}"
        )
        return Outcome.of(False, message=text, evidence=(ids[0], later_id), observed=1)


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class TraceParsed(Check):
    """Every item of the source trace was decoded (``record.parse_errors`` is empty).

    >>> from agent_asserts.record import TrialRecord
    >>> TraceParsed().evaluate(TrialRecord.from_dict({"events": []})).message
    'the trace parsed without errors'
    """

    method: ClassVar[str] = "trace_parsed"

    def evaluate(self, record: TrialRecord) -> Outcome:
        errors = [str(e) for e in record.parse_errors]
        if not errors:
            return Outcome.of(True, message="the trace parsed without errors", observed=0)
        shown = "; ".join(errors[:5]) + ("; …" if len(errors) > 5 else "")
        text = f"{plural(len(errors), 'trace item')} could not be parsed: {shown}"
        return Outcome.of(False, message=text, evidence=tuple(errors), observed=len(errors))


@register
@attrs.frozen(slots=False, repr=False, eq=False)
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
    @given_fields_first
    def _select_calls(self) -> ToolSelector:
        return ToolSelector(self.before_tool)

    @_confirmation.default
    @given_fields_first
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


def _call_key(record: TrialRecord, position: int) -> str | None:
    """The identity of a call for loop detection: its name and arguments, or None when the
    arguments were not recorded (such a call never counts as a repeat)."""
    arguments = getattr(record.events[position].payload, "arguments", MISSING)
    if arguments is MISSING:
        return None
    try:
        text = json.dumps(arguments, sort_keys=True, default=repr, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = repr(arguments)
    return f"{tool_name(record, position)}\x00{text}"


def find_loop(keys: Sequence[str | None], times: int, longest: int) -> tuple[int, int] | None:
    """The first loop in ``keys``: ``(start, length)`` of a block of ``length`` keys repeated
    ``times`` times in a row (``length`` 1: the same call ``times`` times), or None.

    Blocks of one key are looked for first; a longer block counts only when it is not itself
    one key repeated. ``None`` keys (unknown arguments) never repeat.

    >>> find_loop(["a", "b", "a", "b", "a", "b"], 3, 4)
    (0, 2)
    >>> find_loop(["a", "a", "b", "a"], 3, 4) is None
    True
    """
    n = len(keys)
    for length in range(1, longest + 1):
        span = length * (times - 1)  # positions that must equal the one `length` before
        run = 0
        for j in range(length, n):
            same = keys[j] is not None and keys[j] == keys[j - length]
            run = run + 1 if same else 0
            if run >= span:
                start = j - span - length + 1
                block = keys[start : start + length]
                if length == 1 or len(set(block)) > 1:
                    return start, length
    return None


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class NoLoops(Check):
    """No tool call repeated ``times`` times in a row with the same arguments, and no cycle of
    up to ``longest`` calls repeated ``times`` times in a row.

    A call whose arguments were not recorded never counts as a repeat (the record cannot tell).

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().tool("get", {"id": 1}).tool("get", {"id": 1}).build()
    >>> NoLoops(times=2).evaluate(rec).message
    "'get' called 2 times in a row with the same arguments: e0, e1"
    >>> rec = TrialRecord.builder().tool("a", {}).tool("b", {}).tool("a", {}).tool("b", {}).build()
    >>> NoLoops(times=2).evaluate(rec).message
    "the cycle 'a', 'b' repeated 2 times in a row: e0, e1, e2, e3"
    """

    times: int = attrs.field(default=3, validator=int_at_least(2))
    longest: int = attrs.field(default=4, validator=int_at_least(1), kw_only=True)

    method: ClassVar[str] = "no_loops"
    positional: ClassVar[tuple[str, ...]] = ("times",)

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = missing_surface(record, "tool_call")
        if invalid is not None:
            return invalid
        calls = record.positions_of_kind("tool_call")
        keys = [_call_key(record, p) for p in calls]
        found = find_loop(keys, self.times, self.longest)
        if found is None:
            text = f"no call or cycle of calls repeated {self.times} times in a row"
            return Outcome.of(True, message=text, observed=0)
        start, length = found
        looped = calls[start : start + length * self.times]
        ids = event_ids(record, looped)
        if length == 1:
            head = f"{tool_name(record, looped[0])!r} called {self.times} times in a row"
            text = f"{head} with the same arguments: {id_list(ids)}"
        else:
            names = ", ".join(repr(tool_name(record, p)) for p in looped[:length])
            text = f"the cycle {names} repeated {self.times} times in a row: {id_list(ids)}"
        return Outcome.of(False, message=text, evidence=ids, observed=len(ids))


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class NoPendingCalls(Check):
    """Every tool call was answered: none has the outcome ``pending``.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().tool("pay", outcome="pending").build()
    >>> NoPendingCalls().evaluate(rec).message
    "1 call never answered: e0 ('pay')"
    """

    method: ClassVar[str] = "no_pending_calls"

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = missing_surface(record, "tool_call")
        if invalid is not None:
            return invalid
        calls = record.positions_of_kind("tool_call")
        events = record.events
        pending = [p for p in calls if getattr(events[p].payload, "outcome", "") == "pending"]
        if not pending:
            return Outcome.of(
                True, message=f"all {plural(len(calls), 'call')} answered", observed=0
            )
        text = f"{plural(len(pending), 'call')} never answered: {calls_named(record, pending)}"
        return Outcome.of(
            False, message=text, evidence=event_ids(record, pending), observed=len(pending)
        )


ACKNOWLEDGED: Final = (
    r"(?i)\b(error|errors|fail|failed|failure|unable|could not|couldn't|cannot|can't|problem|"
    r"issue|sorry|unfortunately|went wrong|not possible|try again)\b"
)


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class NoIgnoredErrors(Check):
    """After every failed tool call the agent either called that tool again (a retry) or said
    so in a later message (one that ``acknowledged``, a regular expression, finds).

    A failed call followed by neither moved on as if it had worked. The default
    ``acknowledged`` pattern looks for words such as "error", "failed", "unable", "sorry";
    pass your own for another language or wording.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().tool("refund", is_error=True).agent("Refund done!").build()
    >>> NoIgnoredErrors().evaluate(rec).message
    "1 failed call neither retried nor acknowledged: e0 ('refund')"
    >>> rec = TrialRecord.builder().tool("refund", is_error=True).agent("Sorry, it failed").build()
    >>> NoIgnoredErrors().evaluate(rec).status.value
    'pass'
    """

    acknowledged: str = attrs.field(default=ACKNOWLEDGED, validator=regex_validator)

    method: ClassVar[str] = "no_ignored_errors"
    positional: ClassVar[tuple[str, ...]] = ("acknowledged",)

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = missing_surface(record, "tool_call")
        if invalid is not None:
            return invalid
        events = record.events
        pattern = compile_regex(self.acknowledged, name="acknowledged")
        calls = record.positions_of_kind("tool_call")
        said = [
            p
            for p in record.positions_of_kind("message")
            if events[p].actor_ref == "agent"
            and search(pattern, _text(events[p].payload)) is not None
        ]
        ignored: list[int] = []
        failed = 0
        for p in calls:
            payload = events[p].payload
            if getattr(payload, "outcome", "") != "failed":
                continue
            failed += 1
            name = tool_name(record, p)
            retried = any(tool_name(record, q) == name for q in calls if q > p)
            if not retried and bisect.bisect_right(said, p) == len(said):
                ignored.append(p)
        if not ignored:
            text = (
                "no failed tool call"
                if not failed
                else f"each of {plural(failed, 'failed call')} retried or acknowledged"
            )
            return Outcome.of(True, message=text, observed=0)
        shown = calls_named(record, ignored)
        text = f"{plural(len(ignored), 'failed call')} neither retried nor acknowledged: {shown}"
        return Outcome.of(False, message=text, evidence=event_ids(record, ignored))


__all__ = [
    "ConfirmationRequested",
    "EndedSession",
    "EveryCall",
    "FollowedBy",
    "LastTool",
    "NoIgnoredErrors",
    "NoLoops",
    "NoPendingCalls",
    "TerminalTool",
    "TraceParsed",
]
