"""Events of any kind: ``called_subagent``, ``event``, ``not_event``, ``event_order``,
``events_satisfy``.

A plain string where a selector is expected is an event *kind* here (``"audit"`` is
``on.event("audit")``). A Python callable (``predicate``, ``events_satisfy``'s ``fn``) that
raises makes the result ``evaluator_error``, never a crash of the case.

>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.builder().event("mutation").event("audit").build()
>>> EventOrder("mutation", "audit").evaluate(rec).message
'found 2 steps in order: e0, e1'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from agent_asserts._text import LazyText
from agent_asserts._values import MISSING
from agent_asserts.checks import register
from agent_asserts.checks.base import Check, given_fields_first
from agent_asserts.checks.selection import (
    closest_fields,
    count_outcome,
    count_validator,
    event_ids,
    exact_count_as_int,
    held_hint,
    id_list,
    selector_surface,
    selector_validator,
)
from agent_asserts.checks.sequencing import Sequencing
from agent_asserts.matching import Count, Mismatch
from agent_asserts.matching.values import plural
from agent_asserts.outcome import Outcome, missing_surface
from agent_asserts.record import DelegationPayload
from agent_asserts.selectors import EventSelector, Selector, SubagentSelector, as_selector
from agent_asserts.status import Status

if TYPE_CHECKING:
    from agent_asserts.record import Event, TrialRecord


def _callable_name(fn: Callable[..., Any]) -> str:
    return str(getattr(fn, "__name__", None) or repr(fn))


def _callable_validator(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not callable(value):
        raise TypeError(f"'{attribute.name}' must be a callable (got {value!r})")


def _error_text(what: str, exc: BaseException) -> str:
    return f"{what} raised {type(exc).__name__}: {exc}"


def _delegations_text(n: int, name: str, expected: str) -> str:
    return f"matched {plural(n, 'completed delegation')} to {name!r} (expected {expected})"


def _events_text(n: int, described: str, expected: str) -> str:
    return f"matched {plural(n, 'event')} {described} (expected {expected})"


@attrs.frozen(slots=False, repr=False, eq=False)
class _KindSelectorCheck(Check):
    """A check whose first argument is a selector, or a plain string read as an event kind."""

    selector: Selector | str = attrs.field(validator=selector_validator("kind"))

    positional: ClassVar[tuple[str, ...]] = ("selector",)

    @given_fields_first
    def _select_events(self) -> Selector:
        """The selector of ``selector``: each subclass keeps it in a ``_selector`` field after
        its own fields."""
        return as_selector(self.selector, default="kind", name="selector")

    def primary(self) -> Any:
        """The kind (``event:audit``), else the selector's description."""
        if isinstance(self.selector, str):
            return self.selector
        if isinstance(self.selector, EventSelector) and self.selector.kind is not None:
            return self.selector.kind
        return self.selector.describe()


COUNTED_OUTCOMES = ("completed", "transferred")
"""The delegation outcomes ``called_subagent`` counts."""


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class CalledSubagent(Check):
    """The number of *completed* delegations to sub-agent ``name`` satisfies ``count`` (None:
    at least one).

    A delegation counts when its outcome (``event_type``) is ``completed``, as seed 004's
    ``calledSubagent`` counts ``SubagentCompleted`` events, or ``transferred`` (a hand-off that
    took place, as the CES adapter records agent transfers); a failed delegation is the closest
    candidate of a failure. ``on.subagent(name)`` matches any outcome.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().subagent("researcher").subagent("writer", "failed").build()
    >>> CalledSubagent("researcher").evaluate(rec).message
    "matched 1 completed delegation to 'researcher' (expected at least 1)"
    >>> out = CalledSubagent("writer").evaluate(rec)
    >>> out.status.value, out.closest, [str(m) for m in out.mismatches]
    ('fail', 'e1', ["$.event_type: expected one of 'completed', 'transferred', got 'failed'"])
    """

    name: str
    count: int | Count | None = attrs.field(
        default=None, converter=exact_count_as_int, validator=count_validator
    )
    _selector: SubagentSelector = attrs.field(init=False, eq=False, repr=False)

    method: ClassVar[str] = "called_subagent"
    yaml_positional: ClassVar[tuple[str, ...]] = ("name", "count")
    positional: ClassVar[tuple[str, ...]] = ("name",)

    @_selector.default
    @given_fields_first
    def _select_delegations(self) -> SubagentSelector:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"'name' must be a non-empty sub-agent name (got {self.name!r})")
        return SubagentSelector(self.name, status=COUNTED_OUTCOMES)

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = missing_surface(record, "delegation")
        if invalid is not None:
            return invalid
        count = Count.of(self.count)
        expected = count.describe()
        selector = self._selector
        matched = selector.select(record)
        text = LazyText(_delegations_text, len(matched), self.name, expected)
        outcome = count_outcome(record, selector, count, matched, message=text, expected=expected)
        if outcome.status is not Status.FAIL:
            return outcome
        # A delegation to this sub-agent with another outcome is the closest candidate.
        taken = set(matched)
        events = record.events
        named = [
            p
            for p in selector.candidates(record)
            if p not in taken and getattr(events[p].payload, "subagent", None) == self.name
        ]
        closest = selector.closest(record, named) if named else None
        if not named and not matched:
            hint = held_hint(record, "agent", self.name)
            outcome = attrs.evolve(outcome, message=outcome.message + hint)
        return attrs.evolve(outcome, **closest_fields(closest)) if closest else outcome


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class EventCheck(_KindSelectorCheck):
    """The number of events matching ``selector`` (and ``predicate``) satisfies ``count``.

    ``selector`` is a selector or a kind; ``predicate`` is a Python callable on the
    :class:`~agent_asserts.record.Event` (it has no YAML form); if it raises, the result is
    ``evaluator_error``. ``count`` None means at least one.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().event("audit", payload={"text": "refund"}).build()
    >>> check = EventCheck("audit", predicate=lambda e: "refund" in e.payload["text"])
    >>> check.default_name(), check.evaluate(rec).message
    ('event:audit', "matched 1 event on.event('audit') (expected at least 1)")
    """

    predicate: Callable[[Event], Any] | None = attrs.field(
        default=None, validator=attrs.validators.optional(_callable_validator)
    )
    count: int | Count | None = attrs.field(
        default=None, converter=exact_count_as_int, validator=count_validator
    )
    _selector: Selector = attrs.field(
        init=False,
        eq=False,
        repr=False,
        default=attrs.Factory(_KindSelectorCheck._select_events, takes_self=True),
    )

    method: ClassVar[str] = "event"
    yaml_positional: ClassVar[tuple[str, ...]] = ("selector", "predicate", "count")

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = selector_surface(record, self._selector)
        if invalid is not None:
            return invalid
        selected = self._selector.select(record)
        matched = selected
        rejected: list[int] = []
        if self.predicate is not None:
            matched = []
            for p in selected:
                event = record.events[p]
                try:
                    keep = bool(self.predicate(event))
                except Exception as exc:
                    what = f"predicate {_callable_name(self.predicate)} on {event.event_id}"
                    return Outcome.error(_error_text(what, exc), evidence=(event.event_id,))
                (matched if keep else rejected).append(p)
        count = Count.of(self.count)
        expected = count.describe()
        passed = count.matches(len(matched))
        if passed:
            lazy = LazyText(_events_text, len(matched), self._selector.describe(), expected)
            return Outcome.of(True, lazy, expected, len(matched), event_ids(record, matched))
        text = _events_text(len(matched), self._selector.describe(), expected)
        kind = getattr(self._selector, "kind", None)
        if not passed and not selected and isinstance(kind, str) and kind not in record.index.kinds:
            text += held_hint(record, "kind", kind)
        fields: dict[str, Any] = {
            "message": text,
            "expected": count.describe(),
            "observed": len(matched),
        }
        if passed or matched:
            return Outcome.of(passed, evidence=event_ids(record, matched), **fields)
        if rejected and self.predicate is not None:
            first = record.events[rejected[0]]
            name = _callable_name(self.predicate)
            why = Mismatch("$", name, MISSING, f"the predicate {name} returned a false value")
            return Outcome.of(
                False,
                evidence=event_ids(record, rejected),
                closest=first.event_id,
                mismatches=(why,),
                **fields,
            )
        closest = self._selector.closest(record)
        evidence = () if closest is None else (closest[0].event_id,)
        return Outcome.of(False, evidence=evidence, **closest_fields(closest), **fields)


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class NotEvent(_KindSelectorCheck):
    """No event matches ``selector`` (a selector or a kind).

    >>> from agent_asserts.record import TrialRecord
    >>> NotEvent("ui_event").evaluate(TrialRecord.builder().event("audit").build()).message
    "no event matched on.event('ui_event')"
    """

    _selector: Selector = attrs.field(
        init=False,
        eq=False,
        repr=False,
        default=attrs.Factory(_KindSelectorCheck._select_events, takes_self=True),
    )

    method: ClassVar[str] = "not_event"

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = selector_surface(record, self._selector)
        if invalid is not None:
            return invalid
        matched = self._selector.select(record)
        described = self._selector.describe()
        if not matched:
            return Outcome.of(True, message=f"no event matched {described}", observed=0)
        ids = event_ids(record, matched)
        text = f"{plural(len(ids), 'event')} matched {described}: {id_list(ids)}"
        return Outcome.of(False, message=text, evidence=ids, observed=len(ids))


@register
@attrs.frozen(init=False, slots=False, repr=False, eq=False)
class EventOrder(Sequencing):
    """Events matching the selectors occur in this order (strings are kinds).

    ``sequencing`` with kinds for plain strings: each step strictly after the previous step's
    event. ``event_order()`` without selectors is a ``ValueError``.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().event("audit").event("mutation").build()
    >>> EventOrder("mutation", "audit").evaluate(rec).message
    "step 2 'audit' was not found after e1 (step 1 'mutation')"
    >>> EventOrder()
    Traceback (most recent call last):
    ...
    ValueError: event_order() needs at least one selector: a check that checks nothing
    """

    method: ClassVar[str] = "event_order"
    step_default: ClassVar[str] = "kind"


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class EventsSatisfy(Check):
    """``fn(events)`` (the record's events as a tuple) returns a true value.

    Python-only (a callable has no YAML form). If ``fn`` raises, the result is
    ``evaluator_error``.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().tool("a").tool("b").build()
    >>> def two_events(events):
    ...     return len(events) == 2
    >>> check = EventsSatisfy(two_events)
    >>> check.default_name(), check.evaluate(rec).message
    ('events_satisfy:two_events', 'two_events returned True')
    """

    fn: Callable[[tuple[Event, ...]], Any] = attrs.field(validator=_callable_validator)

    method: ClassVar[str] = "events_satisfy"
    positional: ClassVar[tuple[str, ...]] = ("fn",)
    python_only: ClassVar[bool] = True

    def primary(self) -> Any:
        name = getattr(self.fn, "__name__", None)
        return name if isinstance(name, str) and name.isidentifier() else MISSING

    def evaluate(self, record: TrialRecord) -> Outcome:
        name = _callable_name(self.fn)
        events = record.events
        try:
            value = self.fn(events)
        except Exception as exc:
            return Outcome.error(_error_text(name, exc))
        return Outcome.of(
            bool(value),
            message=f"{name} returned {value!r}"[:200],
            observed=value if isinstance(value, bool | int | float | str) else repr(value),
            evidence=tuple(e.event_id for e in events),
        )


def delegation_cycle(edges: Sequence[tuple[str, str, int]]) -> list[int] | None:
    """The positions of the delegations that close the first cycle among ``edges``
    (``(from_agent, to_agent, position)``), in the cycle's order from its earliest delegation,
    or None.

    >>> delegation_cycle([("a", "b", 0), ("b", "c", 1), ("c", "a", 2)])
    [0, 1, 2]
    >>> delegation_cycle([("a", "b", 0), ("a", "c", 1)]) is None
    True
    """
    # the agent each agent was first delegated to from, by position: a walk back from the
    # target of each new edge finds whether its source is reachable from it
    out: dict[str, list[tuple[str, int]]] = {}
    for source, target, position in edges:
        out.setdefault(source, []).append((target, position))
        # is `source` reachable from `target` over the edges so far?  (iterative search)
        seen = {target}
        stack: list[tuple[str, list[int]]] = [(target, [position])]
        while stack:
            agent, path = stack.pop()
            if agent == source:
                first = path.index(min(path))
                return path[first:] + path[:first]
            for nxt, p in out.get(agent, ()):
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, [*path, p]))
    return None


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class NoDelegationCycle(Check):
    """No agent delegates, directly or through others, back to an agent that delegated to it.

    It reads the ``from_agent`` of each delegation; a record whose delegations do not say who
    delegated makes it ``invalid``.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.from_dict({"events": [
    ...     {"kind": "delegation", "event_type": "completed",
    ...      "payload": {"subagent": "b", "from_agent": "a"}},
    ...     {"kind": "delegation", "event_type": "completed",
    ...      "payload": {"subagent": "a", "from_agent": "b"}}]})
    >>> NoDelegationCycle().evaluate(rec).message
    "delegation cycle 'a' -> 'b' -> 'a': e0, e1"
    """

    method: ClassVar[str] = "no_delegation_cycle"

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = missing_surface(record, "delegation")
        if invalid is not None:
            return invalid
        events = record.events
        positions = record.positions_of_kind("delegation")
        edges: list[tuple[str, str, int]] = []
        for p in positions:
            payload = events[p].payload
            if isinstance(payload, DelegationPayload) and payload.from_agent is not None:
                edges.append((payload.from_agent, payload.subagent, p))
        if positions and not edges:
            return Outcome.invalid("the record's delegations do not say which agent delegated")
        cycle = delegation_cycle(edges)
        if cycle is None:
            return Outcome.of(
                True, message=f"no cycle among {plural(len(positions), 'delegation')}"
            )
        hops = {p: (source, target) for source, target, p in edges}
        agents = [hops[cycle[0]][0]] + [hops[p][1] for p in cycle]
        path = " -> ".join(repr(a) for a in agents)
        ids = event_ids(record, cycle)
        return Outcome.of(False, message=f"delegation cycle {path}: {id_list(ids)}", evidence=ids)


__all__ = [
    "CalledSubagent",
    "EventCheck",
    "EventOrder",
    "EventsSatisfy",
    "NoDelegationCycle",
    "NotEvent",
    "delegation_cycle",
]
