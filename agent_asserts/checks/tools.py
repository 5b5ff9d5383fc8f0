"""Tool calls (trajectory family): which tools were called, how often, and deciding a check over
calls whose arguments were not recorded.

Tool calls, the foundation trajectory checks: ``called_tool``, ``not_called_tool``,
``used_no_tools``, ``max_tool_calls``, ``no_failed_actions``.

Every check here reads the record's per-tool-name index, so it touches only the calls it
could match, and is ``invalid`` when the record's harness did not record tool calls.

>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.builder().tool("lookup", arguments={"id": "A1049"}).build()
>>> CalledTool("lookup", arguments={"id": "A1049"}).evaluate(rec).message
'matched 1 tool calls'

Deciding a check over tool calls whose arguments were not recorded.

:func:`decide_unrecorded` evaluates a check a second time with those calls treated as matching
every argument matcher (:mod:`agent_asserts.selectors`); when the two evaluations
disagree, the record cannot decide the check and the outcome is ``invalid``.

>>> from agent_asserts.checks.tools import CalledTool
>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.builder().tool("lookup").build()
>>> check = CalledTool("lookup", arguments={"id": 1})
>>> decide_unrecorded(check, rec, check.evaluate(rec)).message
"arguments not recorded: the result depends on the arguments of e0 ('lookup')"
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from agent_asserts._text import LazyText
from agent_asserts.checks import register
from agent_asserts.checks.base import Check, given_fields_first
from agent_asserts.checks.selection import (
    alias_hint,
    bool_validator,
    calls_named,
    count_outcome,
    count_validator,
    event_ids,
    exact_count_as_int,
    held_hint,
    id_list,
    parallel_note,
    selector_surface,
    selector_validator,
    tool_name,
)
from agent_asserts.checks.traces import non_negative_int
from agent_asserts.matching import Count
from agent_asserts.matching.values import plural
from agent_asserts.outcome import Outcome, missing_surface
from agent_asserts.record import ToolCallPayload
from agent_asserts.selectors import (
    Selector,
    ToolSelector,
    as_selector,
    check_arguments,
    unrecorded_as_matching,
)
from agent_asserts.status import Status

if TYPE_CHECKING:
    from agent_asserts.judges import Judge
    from agent_asserts.record import TrialRecord


def arguments_validator(instance: Check, attribute: attrs.Attribute[Any], value: Any) -> None:
    """An attrs validator: expected ``arguments`` are not a string (see ``check_arguments``)."""
    if isinstance(value, str | bytes):  # what check_arguments refuses; anything else passes
        check_arguments(instance.method, value)


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class CalledTool(Check):
    """The number of calls matching ``on.tool(name, …)`` satisfies ``count``.

    ``count`` is an int (exactly), a ``Count`` or None (at least one); it counts the *matching*
    calls. With ``total=True`` it counts every call of ``name`` instead, and the other fields
    must still match at least one call ("exactly once in total, and with these arguments").
    The message starts with the seed's words, ``matched {n} tool calls``, passing or failing; a
    failure goes on ``of {total} '{name}' calls, expected {count}`` and carries the closest call
    of that name that did not match (fewest mismatches), when there is one.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = (
    ...     TrialRecord.builder()
    ...     .tool("lookup", arguments={"id": "A1049"})
    ...     .tool("lookup", arguments={"id": "A1049"})
    ...     .build()
    ... )
    >>> out = CalledTool("lookup", arguments={"id": "A1049"}, count=1).evaluate(rec)
    >>> out.status.value, out.message, out.evidence
    ('fail', "matched 2 tool calls of 2 'lookup' calls, expected exactly 1", ('e0', 'e1'))
    """

    name: str
    arguments: Any = attrs.field(default=None, validator=arguments_validator)
    result: Any = None
    is_error: bool | None = None
    count: int | Count | None = attrs.field(
        default=None, converter=exact_count_as_int, validator=count_validator
    )
    source: str | None = attrs.field(default=None, kw_only=True)
    mcp_server: str | None = attrs.field(default=None, kw_only=True)
    skill_id: str | None = attrs.field(default=None, kw_only=True)
    total: bool = attrs.field(default=False, kw_only=True, validator=bool_validator("total"))
    _selector: ToolSelector = attrs.field(init=False, eq=False, repr=False)

    method: ClassVar[str] = "called_tool"
    yaml_positional: ClassVar[tuple[str, ...]] = (
        "name",
        "arguments",
        "result",
        "is_error",
        "count",
    )
    positional: ClassVar[tuple[str, ...]] = ("name",)

    @_selector.default
    @given_fields_first
    def _select_calls(self) -> ToolSelector:
        if (
            self.result is None
            and self.is_error is None
            and self.source is None
            and self.mcp_server is None
            and self.skill_id is None
        ):  # the usual check: the argument check then reads two arguments, not seven
            return ToolSelector(self.name, self.arguments)
        return ToolSelector(  # by place: the argument check reads no keywords
            self.name,
            self.arguments,
            self.result,
            self.is_error,
            self.source,
            self.mcp_server,
            self.skill_id,
        )

    def evaluate(self, record: TrialRecord) -> Outcome:
        # surfaces None: every kind counts as recorded (missing_surface's own first test)
        invalid = None if record.surfaces is None else missing_surface(record, "tool_call")
        if invalid is not None:
            return invalid
        count = Count.of(self.count)
        expected = count.describe()
        selector = self._selector
        if not self.total and selector.takes_every_candidate():
            # by name alone the per-name index is the answer, and its ids are kept on it
            index = record.index
            n = len(index.tools.get(selector.names[0], ()))
            if count.matches(n):
                return Outcome.of(
                    True,
                    message=f"matched {n} tool calls",
                    evidence=index.tool_ids(selector.names[0]),
                    expected=expected,
                    observed=n,
                    details={"selector": selector.describe()},
                )
        matched = selector.select(record)
        every = record.tool_positions(self.name)
        details = {"selector": self._selector.describe()}
        counted: Sequence[int] = every if self.total else matched
        passed = count.matches(len(counted))
        if self.total and every and not matched:  # the fields must match at least one call
            passed = False
        if passed:
            return Outcome.of(
                True,
                message=f"matched {len(matched)} tool calls",
                evidence=event_ids(record, matched or counted),
                expected=expected,
                observed=len(counted),
                details=details,
            )
        in_total = " in total" if self.total else ""
        message = (
            f"matched {len(matched)} tool calls of {len(every)} {self.name!r} calls, "
            f"expected {count.describe()}{in_total}"
        )
        if not every:
            message += held_hint(record, "tool", self.name)
        fields = [f for f in ("arguments", "result") if getattr(self, f) is not None]
        if fields and len(matched) < len(every):
            message += alias_hint(record, every, fields)
        outcome = count_outcome(
            record, self._selector, count, matched, message=message, details=details
        )
        return attrs.evolve(outcome, status=Status.FAIL, score=0.0)


def _none_matched(selector: Selector) -> str:
    return f"no call matched {selector.describe()}"


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class NotCalledTool(Check):
    """No call matches ``on.tool(name, arguments)`` — or, with ``before``, none comes before
    the first event matching ``before`` (a selector, or a plain string = a tool name).

    When the ``before`` marker never occurs, any matching call fails the check. A call issued
    in parallel with the marker (same ``group_id``) is not after it, so it fails the check.

    >>> from agent_asserts.record import TrialRecord
    >>> from agent_asserts import on
    >>> rec = (
    ...     TrialRecord.builder()
    ...     .tool("check_availability", result={"status": "available"})
    ...     .tool("create_order")
    ...     .build()
    ... )
    >>> marker = on.tool("check_availability", result={"status": "available"})
    >>> NotCalledTool("create_order", before=marker).evaluate(rec).status.value
    'pass'
    """

    name: str
    arguments: Any = attrs.field(default=None, validator=arguments_validator)
    before: Selector | str | None = attrs.field(
        default=None, kw_only=True, validator=selector_validator("tool")
    )
    _selector: ToolSelector = attrs.field(init=False, eq=False, repr=False)
    _marker: Selector | None = attrs.field(init=False, eq=False, repr=False)

    method: ClassVar[str] = "not_called_tool"
    yaml_positional: ClassVar[tuple[str, ...]] = ("name", "arguments")
    positional: ClassVar[tuple[str, ...]] = ("name",)

    @_selector.default
    @given_fields_first
    def _select_calls(self) -> ToolSelector:
        return ToolSelector(self.name, self.arguments)

    @_marker.default
    @given_fields_first
    def _select_marker(self) -> Selector | None:
        return None if self.before is None else as_selector(self.before, default="tool")

    def evaluate(self, record: TrialRecord) -> Outcome:
        if record.surfaces is not None:  # else every kind counts as recorded
            selectors = [self._selector] if self._marker is None else [self._selector, self._marker]
            invalid = selector_surface(record, *selectors)
            if invalid is not None:
                return invalid
        if self._marker is None:
            calls = self._selector.select(record)
            if not calls:  # the selector is described when the message is read
                return Outcome.of(True, message=LazyText(_none_matched, self._selector), observed=0)
            calls_text = self._selector.describe()
            ids = event_ids(record, calls)
            text = f"{plural(len(calls), 'call')} matched {calls_text}: {id_list(ids)}"
            return Outcome.of(False, message=text, evidence=ids, observed=len(calls))
        calls_text = self._selector.describe()
        marker, early, evidence = _before(record, self._selector, self._marker)
        marker_text = self._marker.describe()
        if not early:
            if marker is None:
                text = f"no call matched {calls_text} (and {marker_text} never occurred)"
                return Outcome.of(True, message=text, observed=0)
            text = f"no call matched {calls_text} before {marker_text} at {evidence[0]}"
            return Outcome.of(True, message=text, evidence=evidence, observed=0)
        ids = event_ids(record, early)
        head = f"{plural(len(early), 'call')} matched {calls_text} ({id_list(ids)})"
        if marker is None:
            text = f"{head} and {marker_text} never occurred"
            return Outcome.of(False, message=text, evidence=ids, observed=len(early))
        marker_id = record.events[marker].event_id
        text = f"{head} before {marker_text} at {marker_id}"
        groups = record.groups
        beside = [p for p in early if groups.parallel(marker, p)]
        if beside:
            text += parallel_note(record, beside[0], marker)
        return Outcome.of(False, message=text, evidence=(*ids, marker_id), observed=len(early))


def _before(
    record: TrialRecord, calls: Selector, marker: Selector
) -> tuple[int | None, tuple[int, ...], tuple[str, ...]]:
    """The position of the first event ``marker`` selects (None when there is none), the
    positions of the ``calls`` that do not come after it, and the evidence of a pass (the
    marker's id, then the ids of every call)."""
    positions = calls.select(record)
    hits = marker.select(record)
    if not hits:
        return None, tuple(positions), ()
    first = hits[0]
    groups = record.groups
    early = tuple(p for p in positions if not groups.precedes(first, p))
    return first, early, (record.events[first].event_id, *event_ids(record, positions))


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class UsedNoTools(Check):
    """The run made no tool call at all.

    >>> from agent_asserts.record import TrialRecord
    >>> UsedNoTools().evaluate(TrialRecord.builder().tool("a").build()).message
    'made 1 tool call, expected none'
    """

    method: ClassVar[str] = "used_no_tools"

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = missing_surface(record, "tool_call")
        if invalid is not None:
            return invalid
        n = len(record.tool_calls)
        if n == 0:
            return Outcome.of(True, message="made no tool calls", observed=0, expected=0)
        ids = tuple(e.event_id for e in record.tool_calls)
        text = f"made {plural(n, 'tool call')}, expected none"
        return Outcome.of(False, message=text, evidence=ids, observed=n, expected=0)


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class MaxToolCalls(Check):
    """The run made at most ``n`` tool calls: message ``made {k} tool calls, limit {n}``.

    >>> from agent_asserts.record import TrialRecord
    >>> MaxToolCalls(1).evaluate(TrialRecord.builder().tool("a").tool("b").build()).message
    'made 2 tool calls, limit 1'
    """

    n: int = attrs.field(validator=non_negative_int)
    method: ClassVar[str] = "max_tool_calls"
    positional: ClassVar[tuple[str, ...]] = ("n",)

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = missing_surface(record, "tool_call")
        if invalid is not None:
            return invalid
        calls = record.tool_calls
        return Outcome.of(
            len(calls) <= self.n,
            message=f"made {plural(len(calls), 'tool call')}, limit {self.n}",
            expected=self.n,
            observed=len(calls),
            evidence=tuple(e.event_id for e in calls),
        )


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class NoFailedActions(Check):
    """No tool call has ``is_error`` set and the record lists no run errors.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().tool("pay", is_error=True).build()
    >>> NoFailedActions().evaluate(rec).message
    '1 failed tool call (e0)'
    """

    method: ClassVar[str] = "no_failed_actions"

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = missing_surface(record, "tool_call")
        if invalid is not None:
            return invalid
        failed = [
            e.event_id
            for e in record.tool_calls
            if isinstance(e.payload, ToolCallPayload) and e.payload.is_error
        ]
        errors = tuple(record.errors)
        if not failed and not errors:
            return Outcome.of(True, message="no failed tool calls and no run errors")
        parts = []
        if failed:
            parts.append(f"{plural(len(failed), 'failed tool call')} ({id_list(failed)})")
        if errors:
            shown = "; ".join(str(e) for e in errors[:3])
            parts.append(f"{plural(len(errors), 'run error')}: {shown}")
        return Outcome.of(
            False,
            message=" and ".join(parts),
            evidence=tuple(failed),
            observed={"failed_tool_calls": failed, "errors": list(errors)},
        )


def _tool_names_or_none(value: Any) -> tuple[str, ...] | None:
    """attrs converter: None, or tool names (a list or tuple of non-empty strings)."""
    if value is None:
        return None
    if isinstance(value, str) or not isinstance(value, list | tuple):
        raise TypeError(f"'tools' must be a list of tool names or None (got {value!r})")
    for name in value:
        if not isinstance(name, str) or not name:
            raise TypeError(f"'tools' must be a list of tool names (got {name!r} in it)")
    return tuple(value)


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class OnlyDeclaredTools(Check):
    """Every tool call names a declared tool: one of ``tools`` when given (the suite declares
    them), else one of the tools the record declares (the tools the agent was offered).

    Without ``tools``, ``invalid`` when the record does not say which tools were offered.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.from_dict({"tools": [{"name": "lookup"}], "events": [
    ...     {"kind": "tool_call", "payload": {"name": "refund", "arguments": {}}}]})
    >>> OnlyDeclaredTools().evaluate(rec).message
    "1 call of an undeclared tool: e0 ('refund'); declared: 'lookup'"
    >>> OnlyDeclaredTools(["lookup", "refund"]).evaluate(rec).message
    'all 1 call name a declared tool'
    """

    tools: tuple[str, ...] | None = attrs.field(default=None, converter=_tool_names_or_none)

    method: ClassVar[str] = "only_declared_tools"
    positional: ClassVar[tuple[str, ...]] = ("tools",)

    def default_name(self) -> str:
        """``only_declared_tools`` (the list of tools is in the check's description).

        >>> OnlyDeclaredTools(["a", "b"]).default_name()
        'only_declared_tools'
        """
        return self.method

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = missing_surface(record, "tool_call")
        if invalid is not None:
            return invalid
        if self.tools is not None:
            declared = set(self.tools)
        elif record.tools is None:
            return Outcome.invalid("the record does not say which tools were declared")
        else:
            declared = {tool.name for tool in record.tools}
        calls = record.positions_of_kind("tool_call")
        foreign = [p for p in calls if tool_name(record, p) not in declared]
        if not foreign:
            text = f"all {plural(len(calls), 'call')} name a declared tool"
            return Outcome.of(True, message=text, observed=0)
        shown = calls_named(record, foreign)
        known = ", ".join(repr(n) for n in sorted(declared)) or "none"
        text = f"{plural(len(foreign), 'call')} of an undeclared tool: {shown}; declared: {known}"
        ids = event_ids(record, foreign)
        return Outcome.of(False, message=text, evidence=ids, observed=len(foreign))


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


__all__ = [
    "CalledTool",
    "MaxToolCalls",
    "NoFailedActions",
    "NotCalledTool",
    "OnlyDeclaredTools",
    "UsedNoTools",
    "decide_unrecorded",
]
