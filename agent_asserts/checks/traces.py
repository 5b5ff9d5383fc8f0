"""The traces family: what a run's trace measures (steps, tokens, durations, model calls) and its
call facts (parallel calls, declared tool schemas, denied calls).

Steps and cost: ``step_count``, ``max_steps``, ``total_tokens_at_most``.

These always carry a message, whether they pass or fail (seed 004), and are ``invalid`` when
the record has no step count or token usage.

>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.from_dict({"events": [], "usage": {"input_tokens": 200, "output_tokens": 50}})
>>> TotalTokensAtMost(200).evaluate(rec).message
'used 250 tokens, limit 200'

Checks over what real traces carry: durations, model calls, tokens, parallel calls,
declared tools and call outcomes.

``duration_at_most``, ``run_duration_at_most``, ``model_calls_at_most``, ``tokens_at_most``,
``parallel_calls``, ``tool_arguments_valid`` (in :mod:`agent_asserts.checks.traces`) and
``no_denied_calls``. Each is ``invalid`` when the record lacks what it needs (times, usage,
the ``model_call`` or ``tool_call`` surface), never a vacuous pass.

>>> from agent_asserts.record import TrialRecord
>>> b = TrialRecord.builder().tool("lookup", {}, duration=0.4)
>>> rec = b.tool("refund", {}, duration=2.5).build()
>>> DurationAtMost("refund", 2).evaluate(rec).message
"1 of 1 event on.tool('refund') took longer than 2 s; slowest: e1 took 2.5 s"

``tool_arguments_valid``: every call's arguments are valid against the JSON Schema of the
tool the record declares (top-level ``tools``). Needs the ``jsonschema`` extra.

>>> from agent_asserts.record import TrialRecord
>>> tools = [{"name": "refund", "parameters": {"type": "object",
...     "properties": {"amount": {"type": "number"}}, "required": ["amount"]}}]
>>> rec = TrialRecord.builder().tool("refund", {"amount": "ten"}).build(tools=tools)
>>> ToolArgumentsValid().evaluate(rec).message
"1 of 1 call has invalid arguments: e0 ('refund') $.amount: 'ten' is not of type 'number'"
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from agent_asserts._values import MISSING
from agent_asserts.checks import register
from agent_asserts.checks.base import Check, given_fields_first
from agent_asserts.checks.selection import event_ids, id_list, selector_surface, selector_validator
from agent_asserts.matching import Mismatch
from agent_asserts.matching.values import plural
from agent_asserts.outcome import Outcome, missing_surface
from agent_asserts.record import ToolCallPayload
from agent_asserts.record.trial import model_calls_without_usage
from agent_asserts.selectors import Selector, as_selector

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord


def int_at_least(minimum: int) -> Callable[[object, attrs.Attribute[int], int], None]:
    """An attrs validator: a whole number >= ``minimum`` (a bool is not a number here).

    >>> MaxSteps(-1)
    Traceback (most recent call last):
    ...
    ValueError: 'n' must be >= 0 (got -1)
    """

    def validate(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"'{attribute.name}' must be an int (got {value!r})")
        if value < minimum:
            raise ValueError(f"'{attribute.name}' must be >= {minimum} (got {value!r})")

    return validate


non_negative_int = int_at_least(0)


"""attrs validator: a whole number >= 0."""


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class StepCount(Check):
    """The run took exactly ``n`` steps: message ``expected {n} steps, got {actual}`` ("1 step").

    >>> from agent_asserts.record import TrialRecord
    >>> StepCount(2).evaluate(TrialRecord.from_dict({"steps": 2, "events": []})).status.value
    'pass'
    """

    n: int = attrs.field(validator=non_negative_int)
    method: ClassVar[str] = "step_count"
    positional: ClassVar[tuple[str, ...]] = ("n",)

    def evaluate(self, record: TrialRecord) -> Outcome:
        if record.steps is None:
            return Outcome.invalid("the record has no step count")
        return Outcome.of(
            record.steps == self.n,
            message=f"expected {plural(self.n, 'step')}, got {record.steps}",
            expected=self.n,
            observed=record.steps,
        )


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class MaxSteps(Check):
    """The run took at most ``n`` steps: message ``expected at most {n} steps, got {actual}``.

    >>> from agent_asserts.record import TrialRecord
    >>> MaxSteps(6).evaluate(TrialRecord.from_dict({"steps": 7, "events": []})).message
    'expected at most 6 steps, got 7'
    """

    n: int = attrs.field(validator=non_negative_int)
    method: ClassVar[str] = "max_steps"
    positional: ClassVar[tuple[str, ...]] = ("n",)

    def evaluate(self, record: TrialRecord) -> Outcome:
        if record.steps is None:
            return Outcome.invalid("the record has no step count")
        return Outcome.of(
            record.steps <= self.n,
            message=f"expected at most {plural(self.n, 'step')}, got {record.steps}",
            expected=self.n,
            observed=record.steps,
        )


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class TotalTokensAtMost(Check):
    """Total token usage is at most ``n``: message ``used {actual} tokens, limit {n}``.

    The usage is the recorded run usage, else the sum over the ``model_call`` events (the
    message says so) — only when every model call carries usage: otherwise the result is
    ``invalid`` ("2 of 3 model calls carry no usage"), never judged on part of the run.
    A ``usage`` without ``total_tokens`` and without both ``input_tokens`` and
    ``output_tokens`` (from which the total is derived) has no total: the result is
    ``invalid``, saying which counts it has. A given ``total_tokens`` is taken as recorded,
    even when it differs from input + output (providers count cached and reasoning tokens
    differently).

    >>> from agent_asserts.record import TrialRecord
    >>> TotalTokensAtMost(10).evaluate(TrialRecord.from_dict({"events": []})).message
    'the record has no token usage'
    >>> only_input = TrialRecord.from_dict({"usage": {"input_tokens": 5}})
    >>> TotalTokensAtMost(10).evaluate(only_input).message
    'the record has no total token count (usage has input_tokens only)'
    >>> b = TrialRecord.builder().model_call("m").model_call("m")
    >>> partial = b.model_call("m", {"input_tokens": 200, "output_tokens": 75}).build()
    >>> TotalTokensAtMost(500).evaluate(partial).message
    '2 of 3 model calls carry no usage'
    """

    n: int = attrs.field(validator=non_negative_int)
    method: ClassVar[str] = "total_tokens_at_most"
    positional: ClassVar[tuple[str, ...]] = ("n",)

    def evaluate(self, record: TrialRecord) -> Outcome:
        usage = record.run_usage
        if usage is None:
            return no_usage(record)
        summed = "" if record.usage is not None else f" ({usage.reported_by})"
        total = usage.total_tokens
        if total is None:
            counts = [k for k, v in usage.to_dict().items() if v is not None]
            has = f"has {' and '.join(counts)} only" if counts else "has no counts"
            return Outcome.invalid(f"the record has no total token count (usage {has})")
        return Outcome.of(
            total <= self.n,
            message=f"used {total} tokens, limit {self.n}{summed}",
            expected=self.n,
            observed=total,
        )


def no_usage(record: TrialRecord) -> Outcome:
    """``invalid`` for a record without run usage: how many of its model calls carry none
    (a sum over part of the run would undercount), else that it has no token usage.

    >>> from agent_asserts.record import TrialRecord
    >>> no_usage(TrialRecord.builder().model_call("m").build()).message
    '1 of 1 model call carries no usage'
    """
    without, total = model_calls_without_usage(record.events)
    if without:
        verb = "carries" if without == 1 else "carry"
        return Outcome.invalid(f"{without} of {plural(total, 'model call')} {verb} no usage")
    return Outcome.invalid("the record has no token usage")


def seconds_text(value: float) -> str:
    """Seconds for messages: ``2.5 s``, ``2 s``.

    >>> seconds_text(2.0), seconds_text(0.125)
    ('2 s', '0.125 s')
    """
    return f"{value:g} s"


def _positions_where(
    record: TrialRecord, kind: str, keep: Callable[[Any], bool]
) -> Outcome | list[int]:
    """The positions of the ``kind`` events whose payload ``keep`` accepts; ``invalid`` when
    the record did not record that kind."""
    invalid = missing_surface(record, kind)
    if invalid is not None:
        return invalid
    events = record.events
    return [p for p in record.positions_of_kind(kind) if keep(events[p].payload)]


def _seconds(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"'{attribute.name}' must be a number of seconds (got {value!r})")
    if not 0 <= value < float("inf"):
        raise ValueError(f"'{attribute.name}' must be >= 0 seconds (got {value!r})")


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class DurationAtMost(Check):
    """Every event matching ``selector`` (a string is a tool name) lasted at most ``seconds``;
    the evidence names the slowest. No matching event passes; a matching event without a
    ``duration`` makes the result ``invalid``.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().tool("lookup", {}).build()
    >>> DurationAtMost("lookup", 1).evaluate(rec).message
    "the record has no duration for e0 (on.tool('lookup'))"
    """

    selector: Selector | str = attrs.field(validator=selector_validator("tool"))
    seconds: int | float = attrs.field(validator=_seconds)
    _selector: Selector = attrs.field(init=False, eq=False, repr=False)

    method: ClassVar[str] = "duration_at_most"
    positional: ClassVar[tuple[str, ...]] = ("selector", "seconds")

    @_selector.default
    @given_fields_first
    def _select_events(self) -> Selector:
        return as_selector(self.selector, default="tool")

    def primary(self) -> Any:
        return self.selector if isinstance(self.selector, str) else self._selector.describe()

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = selector_surface(record, self._selector)
        if invalid is not None:
            return invalid
        what = self._selector.describe()
        positions = self._selector.select(record)
        if not positions:
            return Outcome.of(True, message=f"no event matched {what}", observed=0)
        events = record.events
        untimed = [p for p in positions if events[p].duration is None]
        if untimed:
            ids = id_list(event_ids(record, untimed))
            return Outcome.invalid(f"the record has no duration for {ids} ({what})")
        slowest = max(positions, key=lambda p: events[p].duration or 0.0)
        took = events[slowest].duration or 0.0
        slow_id = events[slowest].event_id
        details = {"slowest": slow_id, "seconds": took}
        over = [p for p in positions if (events[p].duration or 0.0) > self.seconds]
        limit = seconds_text(self.seconds)
        if not over:
            text = (
                f"all {plural(len(positions), 'event')} {what} took at most {limit};"
                f" slowest: {slow_id} took {seconds_text(took)}"
            )
            return Outcome.of(
                True, message=text, evidence=(slow_id,), observed=took, details=details
            )
        text = (
            f"{len(over)} of {plural(len(positions), 'event')} {what} took longer than {limit};"
            f" slowest: {slow_id} took {seconds_text(took)}"
        )
        slow = event_ids(record, over)
        return Outcome.of(
            False,
            message=text,
            evidence=slow,
            expected=self.seconds,
            observed=took,
            details=details,
        )


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class RunDurationAtMost(Check):
    """The run lasted at most ``seconds``: from its first event's time to its last event's
    end (time + ``duration``). ``invalid`` when the record has no times.

    >>> from agent_asserts.record import TrialRecord
    >>> b = TrialRecord.builder().user("hi", monotonic_time=1.0)
    >>> rec = b.agent("yo", monotonic_time=9.5).build()
    >>> RunDurationAtMost(5).evaluate(rec).message
    'the run took 8.5 s, limit 5 s'
    """

    seconds: int | float = attrs.field(validator=_seconds)

    method: ClassVar[str] = "run_duration_at_most"
    positional: ClassVar[tuple[str, ...]] = ("seconds",)

    def evaluate(self, record: TrialRecord) -> Outcome:
        timeline = record.timeline
        if timeline.unreadable:
            ids = id_list(event_ids(record, timeline.unreadable))
            return Outcome.invalid(f"the record has wall_time values that are not ISO times: {ids}")
        took = timeline.duration
        if took is None:
            return Outcome.invalid("the record has no event times (wall_time or monotonic_time)")
        text = f"the run took {seconds_text(took)}, limit {seconds_text(self.seconds)}"
        return Outcome.of(took <= self.seconds, message=text, expected=self.seconds, observed=took)


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class ModelCallsAtMost(Check):
    """At most ``n`` ``model_call`` events (of ``model`` when given). ``invalid`` when the
    record's harness did not record model calls.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().model_call("gpt-4o").model_call("gpt-4o-mini").build()
    >>> ModelCallsAtMost(1, model="gpt-4o").evaluate(rec).message
    "made 1 call to model 'gpt-4o', limit 1"
    """

    n: int = attrs.field(validator=non_negative_int)
    model: str | None = None

    method: ClassVar[str] = "model_calls_at_most"
    positional: ClassVar[tuple[str, ...]] = ("n", "model")

    def evaluate(self, record: TrialRecord) -> Outcome:
        positions: Outcome | list[int]
        if self.model is None:  # every model call: the index is the answer
            invalid = missing_surface(record, "model_call")
            if invalid is not None:
                return invalid
            positions = list(record.positions_of_kind("model_call"))
        else:
            positions = _positions_where(
                record,
                "model_call",
                lambda payload: getattr(payload, "model", None) == self.model,
            )
            if isinstance(positions, Outcome):
                return positions
        made = len(positions)
        if self.model is None:
            text = f"made {plural(made, 'model call')}, limit {self.n}"
        else:
            text = f"made {plural(made, 'call')} to model {self.model!r}, limit {self.n}"
        ids = event_ids(record, positions)
        return Outcome.of(
            made <= self.n, message=text, expected=self.n, observed=made, evidence=ids
        )


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class TokensAtMost(Check):
    """The run used at most ``n`` of ``counter``: any ``Usage`` counter (``input_tokens``,
    ``output_tokens``, ``total_tokens``) or ``details`` key (``cached_input_tokens``…). The
    usage is the recorded run usage, else the sum over the ``model_call`` events (the message
    says so). ``invalid`` when the usage or the counter was not recorded.

    >>> from agent_asserts.record import TrialRecord
    >>> usage = {"input_tokens": 90, "details": {"reasoning_tokens": 40}}
    >>> rec = TrialRecord.from_dict({"usage": usage})
    >>> TokensAtMost(30, counter="reasoning_tokens").evaluate(rec).message
    'used 40 reasoning_tokens, limit 30'
    """

    n: int = attrs.field(validator=non_negative_int)
    counter: str = "total_tokens"

    method: ClassVar[str] = "tokens_at_most"
    positional: ClassVar[tuple[str, ...]] = ("n", "counter")

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.counter, str) or not self.counter:
            raise TypeError(f"'counter' must be a counter name (got {self.counter!r})")

    def evaluate(self, record: TrialRecord) -> Outcome:
        usage = record.run_usage
        if usage is None:
            return no_usage(record)
        used = usage.counter(self.counter)
        summed = "" if record.usage is not None else f" ({usage.reported_by})"
        if used is None:
            known = [k for k, v in usage.to_dict().items() if isinstance(v, int)]
            known += list(usage.details)
            has = ", ".join(known) if known else "no counts"
            return Outcome.invalid(
                f"the record has no {self.counter!r} count{summed} (usage has {has})"
            )
        text = f"used {used} {self.counter}, limit {self.n}{summed}"
        return Outcome.of(used <= self.n, message=text, expected=self.n, observed=used)


def _two_names(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if len(value) < 2:
        raise ValueError("parallel_calls() needs at least two tool names")
    for name in value:
        if not isinstance(name, str) or not name:
            raise TypeError(f"'names' must be tool names (got {name!r})")


@register
@attrs.frozen(init=False, slots=False, repr=False, eq=False)
class ParallelCalls(Check):
    """The named tools were called in one group (the same ``group_id``: issued together).

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().tool("a", {}, group_id="r1").tool("b", {}).build()
    >>> ParallelCalls("a", "b").evaluate(rec).message
    "no group holds calls of 'a', 'b' (a: e0 in group 'r1'; b: e1 in no group)"
    """

    names: tuple[str, ...] = attrs.field(validator=_two_names)

    method: ClassVar[str] = "parallel_calls"
    varargs: ClassVar[str | None] = "names"

    def __init__(self, *names: str) -> None:
        self.__attrs_init__(names=tuple(names))

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = missing_surface(record, "tool_call")
        if invalid is not None:
            return invalid
        events = record.events
        by_group: dict[str, dict[str, int]] = {}
        for name in self.names:
            for p in record.tool_positions(name):
                group = events[p].group_id
                if group is not None:
                    by_group.setdefault(group, {}).setdefault(name, p)
        wanted = ", ".join(repr(n) for n in self.names)
        for group, found in by_group.items():
            if len(found) == len(set(self.names)):
                ids = tuple(events[p].event_id for p in found.values())
                text = f"{wanted} were called together in group {group!r}: {', '.join(ids)}"
                return Outcome.of(True, message=text, evidence=ids, details={"group": group})
        where = []
        for name in self.names:
            calls = record.tool_positions(name)
            if not calls:
                where.append(f"{name}: never called")
                continue
            first = events[calls[0]]
            group_text = "no group" if first.group_id is None else f"group {first.group_id!r}"
            where.append(f"{name}: {first.event_id} in {group_text}")
        return Outcome.of(False, message=f"no group holds calls of {wanted} ({'; '.join(where)})")


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class NoDeniedCalls(Check):
    """No tool call was denied (``outcome: denied``); ``on.tool(..., outcome=...)`` selects
    the other outcomes.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().tool("refund", {}, outcome="denied").build()
    >>> NoDeniedCalls().evaluate(rec).message
    "1 call was denied: e0 ('refund')"
    """

    method: ClassVar[str] = "no_denied_calls"

    def evaluate(self, record: TrialRecord) -> Outcome:
        denied = _positions_where(
            record, "tool_call", lambda payload: getattr(payload, "outcome", None) == "denied"
        )
        if isinstance(denied, Outcome):
            return denied
        events = record.events
        if not denied:
            return Outcome.of(True, message="no tool call was denied", observed=0)
        named = ", ".join(
            f"{events[p].event_id} ({getattr(events[p].payload, 'name', '?')!r})" for p in denied
        )
        verb = "call was" if len(denied) == 1 else "calls were"
        return Outcome.of(
            False,
            message=f"{len(denied)} {verb} denied: {named}",
            evidence=event_ids(record, denied),
            observed=len(denied),
        )


JSONSCHEMA_EXTRA = (
    "tool_arguments_valid needs the jsonschema package: pip install 'agent-asserts[jsonschema]'"
)


def _path(parts: Any) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts)


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class ToolArgumentsValid(Check):
    """Every call (of ``name``, or of every tool) has arguments valid against the declared
    tool's ``parameters`` schema. ``invalid`` when the record declares no tools, when a called
    tool is not declared or declares no parameters, when a schema is not a valid JSON Schema,
    or when a call's arguments were not recorded.

    >>> from agent_asserts.record import TrialRecord
    >>> b = TrialRecord.builder().tool("lookup", {}).tool("refund", {})
    >>> rec = b.build(tools=[{"name": "lookup"}])
    >>> ToolArgumentsValid().evaluate(rec).message
    "calls of undeclared tools: 'refund' (declared: 'lookup')"
    """

    name: str | None = None

    method: ClassVar[str] = "tool_arguments_valid"
    positional: ClassVar[tuple[str, ...]] = ("name",)

    def __attrs_post_init__(self) -> None:
        if self.name is not None and (not isinstance(self.name, str) or not self.name):
            raise TypeError(f"'name' must be a tool name or None (got {self.name!r})")

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = missing_surface(record, "tool_call")
        if invalid is not None:
            return invalid
        if not record.tools:
            return Outcome.invalid("the record declares no tools")
        declared = {tool.name: tool for tool in record.tools}
        events = record.events
        calls = (
            record.positions_of_kind("tool_call")
            if self.name is None
            else record.tool_positions(self.name)
        )
        names = [getattr(events[p].payload, "name", "") for p in calls]
        undeclared = sorted({n for n in names if n not in declared})
        if undeclared:
            listed = ", ".join(repr(n) for n in undeclared)
            known = ", ".join(repr(n) for n in declared)
            return Outcome.invalid(f"calls of undeclared tools: {listed} (declared: {known})")
        if not calls:
            what = "no tool was called" if self.name is None else f"{self.name!r} was never called"
            return Outcome.of(True, message=what, observed=0)
        unrecorded = [
            p for p in calls if getattr(events[p].payload, "arguments", MISSING) is MISSING
        ]
        if unrecorded:
            ids = ", ".join(event_ids(record, unrecorded))
            return Outcome.invalid(f"arguments not recorded: {ids}")
        try:
            import jsonschema
        except ImportError:
            return Outcome.invalid(JSONSCHEMA_EXTRA)
        validators: dict[str, Any] = {}
        for tool_name in dict.fromkeys(names):
            schema = declared[tool_name].parameters
            if schema is None:
                return Outcome.invalid(f"tool {tool_name!r} declares no parameters schema")
            cls = jsonschema.validators.validator_for(schema)
            try:
                cls.check_schema(schema)
            except jsonschema.SchemaError as exc:
                return Outcome.invalid(
                    f"the parameters of tool {tool_name!r} are not a valid JSON Schema:"
                    f" {exc.message}"
                )
            validators[tool_name] = cls(schema)
        bad: list[tuple[int, list[Mismatch]]] = []
        for p, tool_name in zip(calls, names, strict=True):
            payload = events[p].payload
            arguments = payload.arguments if isinstance(payload, ToolCallPayload) else None
            errors = sorted(
                validators[tool_name].iter_errors(arguments), key=lambda e: list(map(str, e.path))
            )
            if errors:
                found = [Mismatch(_path(e.path), e.schema, e.instance, e.message) for e in errors]
                bad.append((p, found))
        total = plural(len(calls), "call")
        if not bad:
            text = f"the arguments of {total} are valid against the declared schemas"
            return Outcome.of(True, message=text, evidence=event_ids(record, calls))
        first, mismatches = bad[0]
        first_event = events[first]
        head = f"{first_event.event_id} ({names[calls.index(first)]!r}) {mismatches[0]}"
        verb = "has" if len(bad) == 1 else "have"
        return Outcome.of(
            False,
            message=f"{len(bad)} of {total} {verb} invalid arguments: {head}",
            evidence=event_ids(record, [p for p, _ in bad]),
            closest=first_event.event_id,
            mismatches=mismatches,
            observed=len(bad),
        )


__all__ = [
    "JSONSCHEMA_EXTRA",
    "DurationAtMost",
    "MaxSteps",
    "ModelCallsAtMost",
    "NoDeniedCalls",
    "ParallelCalls",
    "RunDurationAtMost",
    "StepCount",
    "TokensAtMost",
    "ToolArgumentsValid",
    "TotalTokensAtMost",
    "no_usage",
    "seconds_text",
]
