"""Selectors: *which events* a check looks at, shared by every family — and the three ways
to write one: ``on.*``, a plain name (:func:`as_selector`), a data mapping
(:func:`selector_from_data`).

``on.tool(...)``, ``on.message(...)``, ``on.memory_set(...)``, ``on.memory_cleared(...)``,
``on.skill(...)``, ``on.block(...)``, ``on.subagent(...)`` and ``on.event(...)`` build
:class:`Selector` objects. A selector names the narrowest record index that can hold its
events (``candidates``), so a check costs O(matching events), and explains a non-matching
event as a list of mismatches (for the "closest candidate" of a failure).

>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.builder().tool("lookup", arguments={"id": 7}).build()
>>> sel = on.tool("lookup", arguments={"id": 7})
>>> [rec.events[i].event_id for i in sel.select(rec)]
['e0']

**Selector mappings as data** (:func:`selector_from_data`, the inverse of
``Selector.to_data()``): used for check fields typed ``Selector`` (``before:``, ``next:``,
``sequencing``, ``event``, ``judge.evidence``…) when their value is a mapping, by the
suite-file loaders and by the converter of :mod:`agent_asserts.serialization` alike; a plain
string stays a string and the check reads it as usual. Each form builds the selector through
its public constructor (``on.*``):

* ``{tool: name, arguments: …, result: …, is_error: …, source: …}``
* ``{message: {actor, text, utter_name, buttons}}``
* ``{memory_set: name}`` or ``{memory_set: {name, value}}``, ``{memory_cleared: name}`` or
  ``{memory_cleared: {name}}`` (every form also takes ``agent``; ``tool`` also ``outcome``)
* ``{skill_<transition>: {skill_id, step_id}}``, ``{ordered_block_<transition>: {…}}``
* ``{subagent: name}`` or ``{subagent: {name, status}}``, ``{event: {kind, event_type, …}}``

>>> selector_from_data({"tool": "refunds_issue", "arguments": {"amount": 42}})
on.tool('refunds_issue', arguments={'amount': 42})
>>> selector_from_data({"skill_activated": {"skill_id": "refund"}})
on.skill('activated', 'refund')

**The protocol** (:class:`Selector`), its shared helpers and the generic ``on.event``:

:class:`Selector` is the base of every ``on.*`` selector. :class:`EventSelector` picks any
event by kind, event type and envelope fields.

>>> rec = TrialRecord.builder().event("audit", operation_ref="op-7").build()
>>> EventSelector(kind="audit", filters={"operation_ref": "op-7"}).select(rec)
[0]

**Memory, skill and ordered-block lifecycles, delegations** (``on.memory_set``,
``on.memory_cleared``, ``on.skill``, ``on.block``, ``on.subagent``):

>>> rec = TrialRecord.builder().memory_set("refund.order_id", "A1").build()
>>> MemorySetSelector("refund.order_id", "A1").select(rec)
[0]

**Tool calls and messages** (``on.tool``, ``on.message``) and unrecorded arguments:

A call without recorded arguments (``ToolCallPayload.arguments`` is ``MISSING``) neither
matches nor fails an argument matcher: the result of a check may depend on it. Checks are
evaluated with such calls treated as *not* matching (the default) and, when the record has
any, again with them treated as matching (:func:`unrecorded_as_matching`); a check whose
status differs between the two is ``invalid`` ("arguments not recorded"), never a fail.

>>> rec = TrialRecord.builder().tool("lookup", arguments={"id": 1}).build()
>>> [str(m) for m in ToolSelector("lookup", arguments={"id": 2}).explain(rec.events[0])]
['$.arguments.id: expected 2, got 1']
"""

from __future__ import annotations

import abc
import contextlib
import operator
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from typing import Any, ClassVar, cast

import attrs

from agent_asserts._boundary import guard
from agent_asserts._text import did_you_mean, unknown_key_message
from agent_asserts._values import MISSING
from agent_asserts.matching import M, Matcher, Mismatch, as_matcher, render, value_to_data
from agent_asserts.record import (
    BlockPayload,
    Button,
    DelegationPayload,
    Event,
    MemoryPayload,
    MessagePayload,
    SkillPayload,
    ToolCallPayload,
    TrialRecord,
)
from agent_asserts.record.event import (
    BLOCK_TRANSITIONS,
    ENVELOPE_FIELDS,
    SKILL_TRANSITIONS,
    STR_ENVELOPE_FIELDS,
    TOOL_OUTCOMES,
)

# The protocol, its shared helpers and on.event.

ENVELOPE_FILTERS = (
    *(field for field in ENVELOPE_FIELDS if field not in ("kind", "event_type")),
    "entity_ref",
)
"""The keyword filters of ``on.event``: every envelope field of the record (``kind`` and
``event_type`` are its own parameters), plus ``entity_ref`` (membership in ``entity_refs``).
``entity_refs`` compares the whole list, ``payload`` matches partially."""


def call_repr(prefix: str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> str:
    """``prefix(arg, key=value)`` with values rendered like Python literals.

    >>> call_repr("on.tool", ["a"], {"arguments": {"x": 1}, "source": None})
    "on.tool('a', arguments={'x': 1})"
    """
    parts = [render(a) for a in args]
    parts += [f"{k}={render(v)}" for k, v in kwargs.items() if v is not None and v is not MISSING]
    return f"{prefix}({', '.join(parts)})"


def _check_str(name: str, value: Any, *, optional: bool = True) -> None:
    """A string (or None when ``optional``), else a ``TypeError`` naming the argument.

    >>> _check_str("kind", 5)
    Traceback (most recent call last):
    ...
    TypeError: 'kind' must be a string or None (got 5)
    """
    if isinstance(value, str) or (optional and value is None):
        return
    raise TypeError(f"'{name}' must be a string{' or None' if optional else ''} (got {value!r})")


def _check_name(name: str, value: Any) -> None:
    """A non-empty string: a ``TypeError`` for another type, a ``ValueError`` for ``""``.

    >>> _check_name("skill_id", "")
    Traceback (most recent call last):
    ...
    ValueError: 'skill_id' must be a non-empty string (got '')
    """
    if not isinstance(value, str) or not value:
        error = ValueError if isinstance(value, str) else TypeError
        raise error(f"'{name}' must be a non-empty string (got {value!r})")


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_str_list(value: Any) -> bool:
    return isinstance(value, list | tuple) and all(
        isinstance(item, str | Matcher) for item in value
    )


_FILTER_TYPES: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "event_id": ("a string or a matcher", lambda v: isinstance(v, str)),
    "duration": ("a number, None or a matcher", lambda v: v is None or _is_number(v)),
    "wall_time": (
        "a string, a number, None or a matcher",
        lambda v: v is None or isinstance(v, str) or _is_number(v),
    ),
    "monotonic_time": ("a number, None or a matcher", lambda v: v is None or _is_number(v)),
    "turn": ("an int or a matcher", lambda v: isinstance(v, int) and not isinstance(v, bool)),
    "entity_refs": ("a list of strings or a matcher", _is_str_list),
    "entity_ref": ("a string or a matcher", lambda v: isinstance(v, str)),
    "payload": ("a mapping or a matcher", lambda v: isinstance(v, Mapping)),
    **{
        field: ("a string, None or a matcher", lambda v: v is None or isinstance(v, str))
        for field in STR_ENVELOPE_FIELDS
    },
}
"""What each ``on.event`` filter takes when it is not a matcher: the JSON type of its field."""


def _check_filter(key: str, value: Any) -> None:
    """A filter value of its field's JSON type, or a matcher (``M.gt(10)``).

    >>> _check_filter("turn", "1")
    Traceback (most recent call last):
    ...
    TypeError: 'turn' must be an int or a matcher (got '1')
    """
    what, valid = _FILTER_TYPES[key]
    if not isinstance(value, Matcher) and not valid(value):
        raise TypeError(f"'{key}' must be {what} (got {value!r})")


def _optional_matcher(value: Any) -> Matcher | None:
    return None if value is None else as_matcher(value)


def _check_choice(name: str, value: Any, choices: Sequence[str]) -> None:
    if value not in choices:
        allowed = ", ".join(repr(c) for c in choices)
        raise ValueError(f"'{name}' must be one of {allowed} (got {value!r})")


def _mismatch(path: str, expected: Any, actual: Any) -> Mismatch:
    return Mismatch(path, expected, actual, f"expected {render(expected)}, got {render(actual)}")


class Selector(abc.ABC):
    """Which events a check reads. Subclasses are frozen attrs classes."""

    __argument_text__ = "Selector (on.*)"  # how an argument-type error names what it accepts

    index_kind: ClassVar[str | None] = None

    def candidates(self, record: TrialRecord) -> Sequence[int]:
        """Positions that could match, from the narrowest index available."""
        if self.index_kind is None:
            return range(len(record.events))
        return record.positions_of_kind(self.index_kind)

    def matches(self, event: Event) -> bool:
        """True when ``event`` is selected: the ``agent`` filter of the selector (when it has
        one), then its own fields (:meth:`matches_fields`)."""
        agent = getattr(self, "agent", None)
        if agent is not None and event.agent != agent:
            return False
        return self.matches_fields(event)

    def matches_fields(self, event: Event) -> bool:
        """True when ``event`` matches the selector's own fields (``agent`` apart)."""
        raise NotImplementedError

    def explain(self, event: Event) -> list[Mismatch]:
        """Why ``event`` is not selected (empty when it is): the ``agent`` filter of the
        selector (when it has one), then its own fields (:meth:`explain_fields`)."""
        found = self.explain_fields(event)
        agent = getattr(self, "agent", None)
        if agent is not None and event.agent != agent:
            found.insert(0, _mismatch("$.agent", agent, event.agent))
        return found

    def explain_fields(self, event: Event) -> list[Mismatch]:
        """Why ``event`` does not match the selector's own fields (``agent`` apart)."""
        raise NotImplementedError

    def agent_data(self, data: dict[str, Any]) -> dict[str, Any]:
        """``data`` (a selector's mapping form) with its ``agent`` added when set."""
        agent = getattr(self, "agent", None)
        if agent is not None:
            data["agent"] = agent
        return data

    @abc.abstractmethod
    def to_data(self) -> Any:
        """The YAML/JSON form of the selector."""

    def select(self, record: TrialRecord) -> list[int]:
        """Positions of the selected events, in record order."""
        if self.takes_every_candidate():
            return list(self.candidates(record))
        events = record.events
        return [i for i in self.candidates(record) if self.matches(events[i])]

    def takes_every_candidate(self) -> bool:
        """True when every one of :meth:`candidates` is selected (an index holds the answer:
        ``on.tool(name)`` and its per-name index), so callers need not read the events.

        >>> EventSelector("audit", filters={"phase": "x"}).takes_every_candidate()
        False
        """
        return False

    def closest(
        self, record: TrialRecord, positions: Iterable[int] | None = None
    ) -> tuple[Event, list[Mismatch]] | None:
        """The event with the fewest mismatches (earliest on ties), or None when there is none.

        Args:
            record: The record.
            positions: The events to choose from; by default the selector's candidates.

        >>> rec = TrialRecord.builder().event("audit").event("audit", phase="x").build()
        >>> EventSelector("audit", filters={"phase": "x"}).closest(rec, [0])[0].event_id
        'e0'
        """
        best: tuple[Event, list[Mismatch]] | None = None
        for i in self.candidates(record) if positions is None else positions:
            event = record.events[i]
            found = self.explain(event)
            if best is None or len(found) < len(best[1]):
                best = (event, found)
                if not found:
                    break
        return best

    def describe(self) -> str:
        """Human-readable form, the same as ``repr``.

        >>> EventSelector("audit").describe()
        "on.event('audit')"
        """
        return repr(self)


def _payload_data(event: Event) -> Any:
    payload = event.payload
    to_dict = getattr(payload, "to_dict", None)
    return to_dict() if callable(to_dict) else payload


def _field_value(event: Event, key: str) -> Any:
    """An envelope field as JSON data (``entity_refs`` as a list, ``payload`` as a dict)."""
    if key == "payload":
        return _payload_data(event)
    if key == "entity_refs":
        return list(event.entity_refs)
    return getattr(event, key)


# filters that are not a plain envelope value (see _field_value and _field_matches)
_NOT_QUICK = frozenset({"payload", "entity_ref", "entity_refs"})


@attrs.frozen(repr=False)
class EventSelector(Selector):
    """Events by kind, event type and envelope fields; ``payload`` matches partially,
    ``entity_ref`` is membership in ``entity_refs``, ``entity_refs`` compares the whole list.

    >>> EventSelector(kind="audit", filters={"operation_ref": "op-7"})
    on.event('audit', operation_ref='op-7')
    >>> from agent_asserts.matching import M
    >>> rec = TrialRecord.builder().event("audit", monotonic_time=12.4).build()
    >>> EventSelector(filters={"monotonic_time": M.gt(10)}).select(rec)
    [0]
    """

    kind: str | None = None
    event_type: str | None = None
    filters: Mapping[str, Any] = attrs.field(factory=dict, converter=dict)
    # derived once, when the selector is built (after the arguments above are validated)
    _matchers: dict[str, Matcher] = attrs.field(init=False, eq=False)
    # Fast path: when every filter is a plain string on an envelope field (strict equality),
    # one attrgetter reads them all and a tuple comparison decides.
    _quick: tuple[Callable[[Event], Any], Any] | None = attrs.field(init=False, eq=False)

    @_matchers.default
    def _validated_matchers(self) -> dict[str, Matcher]:
        _check_str("kind", self.kind)
        _check_str("event_type", self.event_type)
        matchers: dict[str, Matcher] = {}
        for key, value in self.filters.items():
            if key not in ENVELOPE_FILTERS:
                hint = did_you_mean(key, ENVELOPE_FILTERS)
                raise ValueError(f"unknown event filter {key!r}{hint}")
            _check_filter(key, value)
            matchers[key] = as_matcher(value)
        return matchers

    @_quick.default
    def _quick_reader(self) -> tuple[Callable[[Event], Any], Any] | None:
        plain = {k: v for k, v in self.filters.items() if type(v) is str and k not in _NOT_QUICK}
        if not plain or len(plain) != len(self.filters):
            return None
        keys = tuple(plain)
        wanted = plain[keys[0]] if len(keys) == 1 else tuple(plain.values())
        return (operator.attrgetter(*keys), wanted)

    def select(self, record: TrialRecord) -> list[int]:
        if self._quick is None or self.event_type is not None:
            return super().select(record)
        read, wanted = self._quick
        events = record.events
        if self.kind is None:
            return [i for i, event in enumerate(events) if read(event) == wanted]
        return [i for i in record.positions_of_kind(self.kind) if read(events[i]) == wanted]

    @property
    def index_kind(self) -> str | None:  # type: ignore[override]
        return self.kind

    def takes_every_candidate(self) -> bool:
        # a kind alone: the per-kind index holds exactly the selected events
        return self.kind is not None and self.event_type is None and not self.filters

    def __repr__(self) -> str:
        args = [self.kind] if self.kind is not None else []
        kwargs: dict[str, Any] = {} if self.kind is not None else {"kind": None}
        kwargs["event_type"] = self.event_type
        kwargs.update(self.filters)
        return call_repr("on.event", args, kwargs)

    def matches(self, event: Event) -> bool:
        if self.kind is not None and event.kind != self.kind:
            return False
        if self.event_type is not None and event.event_type != self.event_type:
            return False
        return all(self._field_matches(event, k, m) for k, m in self._matchers.items())

    @staticmethod
    def _field_matches(event: Event, key: str, matcher: Matcher) -> bool:
        if key == "entity_ref":
            return any(matcher.matches(ref) for ref in event.entity_refs)
        return matcher.matches(_field_value(event, key))

    def explain(self, event: Event) -> list[Mismatch]:
        found: list[Mismatch] = []
        if self.kind is not None and event.kind != self.kind:
            found.append(_mismatch("$.kind", self.kind, event.kind))
        if self.event_type is not None and event.event_type != self.event_type:
            found.append(_mismatch("$.event_type", self.event_type, event.event_type))
        for key, matcher in self._matchers.items():
            if key == "entity_ref":
                if not self._field_matches(event, key, matcher):
                    refs = list(event.entity_refs)
                    reason = f"expected an entity ref {matcher.describe()}, got {render(refs)}"
                    found.append(Mismatch("$.entity_refs", matcher, refs, reason))
            else:
                found += matcher.explain(_field_value(event, key), f"$.{key}")
        return found

    def to_data(self) -> Any:
        body: dict[str, Any] = {}
        if self.kind is not None:
            body["kind"] = self.kind
        if self.event_type is not None:
            body["event_type"] = self.event_type
        body.update({k: value_to_data(v) for k, v in self.filters.items()})
        return {"event": body}


def check_agent(value: Any) -> None:
    """The ``agent=`` filter of every selector: a non-empty string or None (any agent).

    >>> check_agent("")
    Traceback (most recent call last):
    ...
    ValueError: 'agent' must be a non-empty string (got '')
    """
    if value is not None:
        _check_name("agent", value)


# Memory, skill and ordered-block lifecycles, delegations.


@attrs.frozen(repr=False)
class MemorySetSelector(Selector):
    """Writes to one memory key (``scope.field``), optionally of one value (strict).

    >>> MemorySetSelector("a.b", 5)
    on.memory_set('a.b', 5)
    """

    name: str
    value: Any = MISSING
    agent: str | None = attrs.field(default=None, kw_only=True)
    # derived once, when the selector is built (after the arguments above are validated)
    _value: Matcher | None = attrs.field(init=False, eq=False)

    index_kind: ClassVar[str | None] = "memory"

    @_value.default
    def _validated_value(self) -> Matcher | None:
        check_agent(self.agent)
        _check_memory_name(self.name)
        if self.value is None:
            raise ValueError("'value' must not be None: null is not accepted as a memory value")
        if self.value is MISSING:
            return None
        return self.value if isinstance(self.value, Matcher) else M.exact(self.value)

    def __repr__(self) -> str:
        args = [self.name] if self.value is MISSING else [self.name, self.value]
        return call_repr("on.memory_set", args, {"agent": self.agent})

    def candidates(self, record: TrialRecord) -> Sequence[int]:
        return record.memory_positions(self.name)

    def matches_fields(self, event: Event) -> bool:
        p = event.payload
        return (
            isinstance(p, MemoryPayload)
            and event.event_type == "set"
            and p.name == self.name
            and (self._value is None or self._value.matches(p.value))
        )

    def explain_fields(self, event: Event) -> list[Mismatch]:
        p = event.payload
        if not isinstance(p, MemoryPayload):
            return [_mismatch("$.kind", "memory", event.kind)]
        found: list[Mismatch] = []
        if event.event_type != "set":
            found.append(_mismatch("$.event_type", "set", event.event_type))
        if p.name != self.name:
            found.append(_mismatch("$.name", self.name, p.name))
        if self._value is not None:
            found += self._value.explain(p.value, "$.value")
        return found

    def to_data(self) -> Any:
        if self.value is MISSING and self.agent is None:
            return {"memory_set": self.name}
        body: dict[str, Any] = {"name": self.name}
        if self.value is not MISSING:
            body["value"] = value_to_data(self.value)
        return {"memory_set": self.agent_data(body)}


def _check_memory_name(name: Any) -> None:
    if not isinstance(name, str) or not name:
        raise ValueError(f"'name' must be a memory key 'scope.field' (got {name!r})")


@attrs.frozen(repr=False)
class MemoryClearedSelector(Selector):
    """Clears of one memory key.

    >>> MemoryClearedSelector("a.b")
    on.memory_cleared('a.b')
    """

    name: str
    agent: str | None = attrs.field(default=None, kw_only=True)

    index_kind: ClassVar[str | None] = "memory"

    def __attrs_post_init__(self) -> None:
        check_agent(self.agent)
        _check_memory_name(self.name)

    def __repr__(self) -> str:
        return call_repr("on.memory_cleared", [self.name], {"agent": self.agent})

    def candidates(self, record: TrialRecord) -> Sequence[int]:
        return record.memory_positions(self.name)

    def matches_fields(self, event: Event) -> bool:
        p = event.payload
        return isinstance(p, MemoryPayload) and event.event_type == "clear" and p.name == self.name

    def explain_fields(self, event: Event) -> list[Mismatch]:
        p = event.payload
        if not isinstance(p, MemoryPayload):
            return [_mismatch("$.kind", "memory", event.kind)]
        found = []
        if event.event_type != "clear":
            found.append(_mismatch("$.event_type", "clear", event.event_type))
        if p.name != self.name:
            found.append(_mismatch("$.name", self.name, p.name))
        return found

    def to_data(self) -> Any:
        if self.agent is None:
            return {"memory_cleared": self.name}
        return {"memory_cleared": {"name": self.name, "agent": self.agent}}


class _LifecycleSelector(Selector):
    """Skill and ordered-block selectors: an event of ``index_kind`` at ``transition`` whose
    payload (a ``payload_type``) has each of ``matched_fields`` that is set (not None)."""

    transition: str
    payload_type: ClassVar[type]
    matched_fields: ClassVar[tuple[str, ...]]

    def _wanted(self) -> list[tuple[str, Any]]:
        wanted = ((name, getattr(self, name)) for name in self.matched_fields)
        return [(name, value) for name, value in wanted if value is not None]

    def matches_fields(self, event: Event) -> bool:
        p = event.payload
        return (
            isinstance(p, self.payload_type)
            and event.event_type == self.transition
            and all(getattr(p, name) == want for name, want in self._wanted())
        )

    def explain_fields(self, event: Event) -> list[Mismatch]:
        if not isinstance(event.payload, self.payload_type):
            return [_mismatch("$.kind", self.index_kind, event.kind)]
        found = []
        if event.event_type != self.transition:
            found.append(_mismatch("$.event_type", self.transition, event.event_type))
        for name, want in self._wanted():
            have = getattr(event.payload, name, MISSING)
            if have != want:
                found.append(_mismatch(f"$.{name}", want, have))
        return found

    def to_data(self) -> Any:
        body = dict(self._wanted())
        return {f"{self.index_kind}_{self.transition}": self.agent_data(body)}


@attrs.frozen(repr=False)
class SkillSelector(_LifecycleSelector):
    """Skill lifecycle events; ``step_id`` narrows cancelled/interrupted/resumed only.

    >>> SkillSelector("activated", "card_replace")
    on.skill('activated', 'card_replace')
    """

    transition: str
    skill_id: str
    step_id: str | None = None
    agent: str | None = attrs.field(default=None, kw_only=True)

    index_kind: ClassVar[str | None] = "skill"
    payload_type: ClassVar[type] = SkillPayload
    matched_fields: ClassVar[tuple[str, ...]] = ("skill_id", "step_id")

    def __attrs_post_init__(self) -> None:
        check_agent(self.agent)
        _check_choice("transition", self.transition, SKILL_TRANSITIONS)
        _check_name("skill_id", self.skill_id)
        _check_str("step_id", self.step_id)
        if self.step_id is not None and self.transition in ("activated", "completed"):
            raise ValueError(f"'step_id' is not allowed for skill {self.transition!r} events")

    def __repr__(self) -> str:
        return call_repr(
            "on.skill",
            [self.transition, self.skill_id],
            {"step_id": self.step_id, "agent": self.agent},
        )


@attrs.frozen(repr=False)
class BlockSelector(_LifecycleSelector):
    """Ordered-block lifecycle events; ``step_id`` is not allowed on ``entered``.

    >>> BlockSelector("entered", "card_replace", "main")
    on.block('entered', 'card_replace', 'main')
    """

    transition: str
    skill_id: str
    block_id: str
    step_id: str | None = None
    agent: str | None = attrs.field(default=None, kw_only=True)

    index_kind: ClassVar[str | None] = "ordered_block"
    payload_type: ClassVar[type] = BlockPayload
    matched_fields: ClassVar[tuple[str, ...]] = ("skill_id", "block_id", "step_id")

    def __attrs_post_init__(self) -> None:
        check_agent(self.agent)
        _check_choice("transition", self.transition, BLOCK_TRANSITIONS)
        _check_name("skill_id", self.skill_id)
        _check_name("block_id", self.block_id)
        _check_str("step_id", self.step_id)
        if self.step_id is not None and self.transition == "entered":
            raise ValueError("'step_id' is not allowed for ordered-block 'entered' events")

    def __repr__(self) -> str:
        args = [self.transition, self.skill_id, self.block_id]
        return call_repr("on.block", args, {"step_id": self.step_id, "agent": self.agent})


def _outcomes(value: Any) -> Any:
    return tuple(value) if isinstance(value, list | tuple) else value


@attrs.frozen(repr=False)
class SubagentSelector(Selector):
    """Delegations to a sub-agent; ``status`` narrows to one outcome (``completed``…) or to
    any of several (a list).

    >>> SubagentSelector("researcher")
    on.subagent('researcher')
    >>> SubagentSelector("r", status=["completed", "transferred"]).status
    ('completed', 'transferred')
    """

    name: str
    status: str | tuple[str, ...] | None = attrs.field(default=None, converter=_outcomes)
    agent: str | None = attrs.field(default=None, kw_only=True)

    index_kind: ClassVar[str | None] = "delegation"

    def __attrs_post_init__(self) -> None:
        check_agent(self.agent)
        _check_name("name", self.name)
        if isinstance(self.status, tuple):
            if not self.status:
                raise ValueError("'status' must name at least one outcome")
            for i, outcome in enumerate(self.status):
                _check_str(f"status[{i}]", outcome, optional=False)
        else:
            _check_str("status", self.status)

    @property
    def outcomes(self) -> tuple[str, ...] | None:
        """The accepted outcomes, or None for any."""
        if self.status is None:
            return None
        return self.status if isinstance(self.status, tuple) else (self.status,)

    def __repr__(self) -> str:
        return call_repr("on.subagent", [self.name], {"status": self.status, "agent": self.agent})

    def matches_fields(self, event: Event) -> bool:
        p = event.payload
        return (
            isinstance(p, DelegationPayload)
            and p.subagent == self.name
            and (self.outcomes is None or event.event_type in self.outcomes)
        )

    def explain_fields(self, event: Event) -> list[Mismatch]:
        p = event.payload
        if not isinstance(p, DelegationPayload):
            return [_mismatch("$.kind", "delegation", event.kind)]
        found = []
        if p.subagent != self.name:
            found.append(_mismatch("$.subagent", self.name, p.subagent))
        outcomes = self.outcomes
        if outcomes is not None and event.event_type not in outcomes:
            if len(outcomes) == 1:
                found.append(_mismatch("$.event_type", outcomes[0], event.event_type))
            else:
                wanted = ", ".join(repr(o) for o in outcomes)
                reason = f"expected one of {wanted}, got {render(event.event_type)}"
                found.append(Mismatch("$.event_type", outcomes, event.event_type, reason))
        return found

    def to_data(self) -> Any:
        if self.status is None and self.agent is None:
            return {"subagent": self.name}
        body: dict[str, Any] = {"name": self.name}
        if self.status is not None:
            body["status"] = list(self.status) if isinstance(self.status, tuple) else self.status
        return {"subagent": self.agent_data(body)}


# Tool calls, messages and unrecorded arguments.

_UNRECORDED_MATCH: ContextVar[bool] = ContextVar("unrecorded_arguments_match", default=False)


def unrecorded_match() -> bool:
    """Whether a call without recorded arguments counts as matching an argument matcher now.

    >>> unrecorded_match()
    False
    >>> with unrecorded_as_matching():
    ...     unrecorded_match()
    True
    """
    return _UNRECORDED_MATCH.get()


@contextlib.contextmanager
def unrecorded_as_matching() -> Iterator[None]:
    """Within the block, calls without recorded arguments match every argument matcher.

    >>> with unrecorded_as_matching():
    ...     pass
    """
    token = _UNRECORDED_MATCH.set(True)
    try:
        yield
    finally:
        _UNRECORDED_MATCH.reset(token)


def check_arguments(method: str, value: Any) -> None:
    """Raise ``TypeError`` when expected tool ``arguments`` are a string (a mapping, a list, a
    matcher or None are accepted); ``key=value`` text gets the mapping to write instead.

    >>> check_arguments("called_tool", "orderId=A1049")
    Traceback (most recent call last):
    ...
    TypeError: called_tool() parameter 'arguments' takes a mapping, ... not a string
    (got 'orderId=A1049'; did you mean {'orderId': 'A1049'}?)
    """
    if not isinstance(value, str | bytes):
        return
    hint = ""
    if isinstance(value, str) and "=" in value:
        pairs = [part.split("=", 1) for part in value.replace(";", ",").split(",") if part]
        if all(len(p) == 2 and p[0].strip() for p in pairs):
            guess = {k.strip(): v.strip() for k, v in pairs}
            hint = f"; did you mean {guess!r}?"
    raise TypeError(
        f"{method}() parameter 'arguments' takes a mapping, a list, a matcher or None, "
        f"not a string (got {value!r}{hint})"
    )


@attrs.frozen(repr=False)
class ToolSelector(Selector):
    """Tool calls by name (``"a|b"`` for alternatives) and, optionally, partial arguments etc.

    >>> ToolSelector("a|b").names
    ('a', 'b')
    """

    __argument_text__ = "ToolSelector (on.tool)"

    name: str
    arguments: Any = None
    result: Any = None
    is_error: bool | None = None
    source: str | None = None
    mcp_server: str | None = None
    skill_id: str | None = None
    agent: str | None = attrs.field(default=None, kw_only=True)
    outcome: str | None = attrs.field(default=None, kw_only=True)
    # derived once, when the selector is built (after every argument above is validated)
    names: tuple[str, ...] = attrs.field(init=False, eq=False)
    _arguments: Matcher | None = attrs.field(init=False, eq=False)
    _result: Matcher | None = attrs.field(init=False, eq=False)
    # how select() reads the record: _BY_NAME_ONLY (by name alone: the per-name index holds
    # exactly the selected calls), _BY_NAME_AND_VALUES (by one name and arguments/result only:
    # the per-name index, reading only those two) or _BY_FIELDS (every field of a candidate)
    _plan: int = attrs.field(init=False, eq=False)

    index_kind: ClassVar[str | None] = "tool_call"

    @names.default
    def _validated_names(self) -> tuple[str, ...]:
        if self.agent is not None:
            check_agent(self.agent)
        if self.outcome is not None:
            _check_choice("outcome", self.outcome, TOOL_OUTCOMES)
        name = self.name
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"'name' must be a non-empty tool name (got {name!r})")
        if isinstance(self.arguments, str | bytes):  # what check_arguments refuses
            check_arguments("on.tool", self.arguments)
        if self.source is not None:
            _check_choice("source", self.source, ("local", "mcp"))
        if self.mcp_server is not None and self.source == "local":
            raise ValueError("'mcp_server' is not allowed when 'source' is 'local'")
        if self.is_error is not None and not isinstance(self.is_error, bool):
            raise TypeError(f"'is_error' must be a bool or None (got {self.is_error!r})")
        if self.mcp_server is not None:
            _check_str("mcp_server", self.mcp_server)
        if self.skill_id is not None:
            _check_str("skill_id", self.skill_id)
        if "|" not in name:
            return (name.strip(),)  # one name (not empty: checked above)
        names = tuple(part.strip() for part in name.split("|"))
        if any(not part for part in names):
            raise ValueError(f"'name' has an empty alternative (got {self.name!r})")
        return names

    @_arguments.default
    def _arguments_matcher(self) -> Matcher | None:
        arguments = self.arguments
        return None if arguments is None else as_matcher(arguments)

    @_result.default
    def _result_matcher(self) -> Matcher | None:
        result = self.result
        return None if result is None else as_matcher(result)

    @_plan.default
    def _select_plan(self) -> int:
        if not (  # _TOOL_KEYWORDS[2:] are all None
            len(self.names) == 1
            and self.is_error is None
            and self.source is None
            and self.mcp_server is None
            and self.skill_id is None
            and self.outcome is None
            and self.agent is None
        ):
            return _BY_FIELDS
        if self.arguments is None and self.result is None:
            return _BY_NAME_ONLY
        return _BY_NAME_AND_VALUES

    def __repr__(self) -> str:
        # call_repr("on.tool", [name], {field: value...}) written out: the text of a passing
        # called_tool's details, so it is made for every such check
        parts = [render(self.name)]
        for field in _TOOL_KEYWORDS:
            value = getattr(self, field)
            if value is not None and value is not MISSING:
                parts.append(f"{field}={render(value)}")
        return f"on.tool({', '.join(parts)})"

    def candidates(self, record: TrialRecord) -> Sequence[int]:
        if len(self.names) == 1:
            return record.tool_positions(self.names[0])
        merged: list[int] = []
        for name in dict.fromkeys(self.names):
            merged.extend(record.tool_positions(name))
        return sorted(merged)

    def takes_every_candidate(self) -> bool:
        # By name alone, the per-name index is the answer: it holds exactly the tool calls of
        # that name, so no call needs reading.
        return self._plan == _BY_NAME_ONLY

    def select(self, record: TrialRecord) -> list[int]:
        plan = self._plan
        if plan == _BY_NAME_ONLY:
            return list(record.tool_positions(self.names[0]))
        if plan == _BY_FIELDS:
            return super().select(record)
        # matches_fields() inlined over the per-name index: the name holds, only the arguments
        # and the result are read
        events = record.events
        arguments, result = self._arguments, self._result
        unrecorded = unrecorded_match()
        out = []
        for i in record.tool_positions(self.names[0]):
            p = cast(ToolCallPayload, events[i].payload)  # the per-name index holds tool calls
            if arguments is not None:
                if p.arguments is MISSING:  # not recorded: see unrecorded_match()
                    if not unrecorded:
                        continue
                elif not arguments.matches(p.arguments):
                    continue
            if result is None or result.matches(p.result):
                out.append(i)
        return out

    def matches_fields(self, event: Event) -> bool:
        p = event.payload
        if not isinstance(p, ToolCallPayload) or p.name not in self.names:
            return False
        if self.is_error is not None and p.is_error is not self.is_error:
            return False
        if self.outcome is not None and p.outcome != self.outcome:
            return False
        if self.source is not None and p.source != self.source:
            return False
        if self.mcp_server is not None and p.mcp_server != self.mcp_server:
            return False
        if self.skill_id is not None and p.skill_id != self.skill_id:
            return False
        if self._arguments is not None:
            if p.arguments is MISSING:  # not recorded: see unrecorded_match()
                if not unrecorded_match():
                    return False
            elif not self._arguments.matches(p.arguments):
                return False
        return self._result is None or self._result.matches(p.result)

    def explain_fields(self, event: Event) -> list[Mismatch]:
        p = event.payload
        if not isinstance(p, ToolCallPayload):
            return [_mismatch("$.kind", "tool_call", event.kind)]
        found: list[Mismatch] = []
        if p.name not in self.names:
            found.append(_mismatch("$.name", self.name, p.name))
        for field in ("is_error", "outcome", "source", "mcp_server", "skill_id"):
            want = getattr(self, field)
            if want is not None and getattr(p, field) != want:
                found.append(_mismatch(f"$.{field}", want, getattr(p, field)))
        if self._arguments is not None:
            if p.arguments is MISSING:
                if not unrecorded_match():
                    found.append(
                        Mismatch("$.arguments", self._arguments, MISSING, "arguments not recorded")
                    )
            else:
                found += self._arguments.explain(p.arguments, "$.arguments")
        if self._result is not None:
            found += self._result.explain(p.result, "$.result")
        return found

    def to_data(self) -> Any:
        out: dict[str, Any] = {"tool": self.name}
        for field in _TOOL_KEYWORDS:
            value = getattr(self, field)
            if value is not None:
                out[field] = value_to_data(value)
        return out


_BY_FIELDS, _BY_NAME_AND_VALUES, _BY_NAME_ONLY = 0, 1, 2  # ToolSelector._plan

_TOOL_KEYWORDS = (
    "arguments",
    "result",
    "is_error",
    "source",
    "mcp_server",
    "skill_id",
    "outcome",
    "agent",
)


def _as_button(value: Any) -> Button:
    if isinstance(value, Button):
        return value
    if isinstance(value, Mapping) and "title" in value and set(value) <= {"title", "payload"}:
        return Button(title=value["title"], payload=value.get("payload"))
    raise ValueError(f"a button is {{'title': ..., 'payload': ... (optional)}} (got {value!r})")


def _as_buttons(values: Iterable[Any] | None) -> tuple[Button, ...] | None:
    return None if values is None else tuple(_as_button(x) for x in values)


@attrs.frozen(repr=False)
class MessageSelector(Selector):
    """Messages by speaker (``actor``; None for any), text, response name and buttons.

    A plain string ``text`` is a regular expression searched anywhere in the text; a matcher
    is applied to the whole text. Every expected button must be carried by the message; an
    expected button without ``payload`` matches any payload.

    >>> MessageSelector(text="refund").describe()
    "on.message(actor='agent', text='refund')"
    """

    actor: str | None = "agent"
    text: Any = None
    utter_name: str | None = None
    buttons: tuple[Button, ...] | None = attrs.field(
        default=None,
        converter=_as_buttons,
    )
    agent: str | None = attrs.field(default=None, kw_only=True)
    # derived once, when the selector is built (after the arguments above are validated)
    _text: Matcher | None = attrs.field(init=False, eq=False)

    index_kind: ClassVar[str | None] = "message"

    @_text.default
    def _validated_text(self) -> Matcher | None:
        check_agent(self.agent)
        _check_str("actor", self.actor)
        _check_str("utter_name", self.utter_name)
        if self.text is not None and not isinstance(self.text, str | Matcher):
            raise TypeError(
                f"'text' must be a regular expression (a string), a matcher or None "
                f"(got {self.text!r})"
            )
        matcher = M.regex(self.text) if isinstance(self.text, str) else self.text
        return _optional_matcher(matcher)

    def __repr__(self) -> str:
        buttons = None if self.buttons is None else [_button_data(b) for b in self.buttons]
        return call_repr(
            "on.message",
            [],
            {
                "actor": self.actor,
                "text": self.text,
                "utter_name": self.utter_name,
                "buttons": buttons,
                "agent": self.agent,
            },
        )

    def select(self, record: TrialRecord) -> list[int]:
        if self.agent is not None or self.buttons is not None:
            return super().select(record)
        # matches_fields() inlined over the message index (no call per message)
        events = record.events
        actor, utter, text = self.actor, self.utter_name, self._text
        out = []
        for i in record.positions_of_kind("message"):
            event = events[i]
            p = event.payload
            if (
                isinstance(p, MessagePayload)
                and (actor is None or event.actor_ref == actor)
                and (utter is None or p.utter_name == utter)
                and (text is None or text.matches(p.text))
            ):
                out.append(i)
        return out

    def matches_fields(self, event: Event) -> bool:
        # explain_fields() without building its mismatches: the same tests, stopping at the first
        p = event.payload
        if not isinstance(p, MessagePayload):
            return False
        if self.actor is not None and event.actor_ref != self.actor:
            return False
        if self.utter_name is not None and p.utter_name != self.utter_name:
            return False
        if self._text is not None and not self._text.matches(p.text):
            return False
        return all(
            any(_button_matches(want, have) for have in p.buttons) for want in self.buttons or ()
        )

    def explain_fields(self, event: Event) -> list[Mismatch]:
        p = event.payload
        if not isinstance(p, MessagePayload):
            return [_mismatch("$.kind", "message", event.kind)]
        found: list[Mismatch] = []
        if self.actor is not None and event.actor_ref != self.actor:
            found.append(_mismatch("$.actor_ref", self.actor, event.actor_ref))
        if self.utter_name is not None and p.utter_name != self.utter_name:
            found.append(_mismatch("$.utter_name", self.utter_name, p.utter_name))
        if self._text is not None:
            found += self._text.explain(p.text, "$.text")
        for i, want in enumerate(self.buttons or ()):
            if not any(_button_matches(want, have) for have in p.buttons):
                reason = f"expected a button {render(_button_data(want))}, none carried matches"
                found.append(Mismatch(f"$.buttons[{i}]", _button_data(want), MISSING, reason))
        return found

    def to_data(self) -> Any:
        out: dict[str, Any] = {"message": {"actor": self.actor}}
        body = out["message"]
        if self.text is not None:
            body["text"] = value_to_data(self.text)
        if self.utter_name is not None:
            body["utter_name"] = self.utter_name
        if self.buttons is not None:
            body["buttons"] = [_button_data(b) for b in self.buttons]
        self.agent_data(body)
        return out


def _button_data(button: Button) -> dict[str, Any]:
    data: dict[str, Any] = {"title": button.title}
    if button.payload is not None:
        data["payload"] = button.payload
    return data


def _button_matches(want: Button, have: Button) -> bool:
    return want.title == have.title and (want.payload is None or want.payload == have.payload)


# The ways to write a selector: on.*, a plain name, a data mapping.


class on:  # noqa: N801 - a namespace read as a word: on.tool(...)
    """Selector constructors (``from agent_asserts import on``).

    >>> on.tool("refund")
    on.tool('refund')
    >>> on.event("audit", operation_ref="op-7")
    on.event('audit', operation_ref='op-7')
    """

    tool = ToolSelector
    message = MessageSelector
    memory_set = MemorySetSelector
    memory_cleared = MemoryClearedSelector
    skill = SkillSelector
    block = BlockSelector
    subagent = SubagentSelector

    @staticmethod
    def event(kind: str | None = None, event_type: str | None = None, **filters: Any) -> Selector:
        """Events by kind, event type and envelope fields (``payload=`` matches partially).

        >>> on.event("audit").kind
        'audit'
        """
        return EventSelector(kind=kind, event_type=event_type, filters=filters)


guard(on, "on")


def as_selector(
    value: Selector | str, *, default: str = "tool", name: str | None = None
) -> Selector:
    """A selector, or a plain string read as a tool name (``default="tool"``) or a kind.

    Args:
        value: The selector or string.
        default: What a string means: ``"tool"`` (a tool name) or ``"kind"`` (an event kind).
        name: The parameter (and position) ``value`` was given as, named in the error
            (``calls[1]``).

    Raises:
        TypeError: ``value`` is neither a selector nor a string.

    >>> as_selector("lookup")
    on.tool('lookup')
    >>> as_selector("audit", default="kind")
    on.event('audit')
    >>> as_selector(5, name="calls[1]")
    Traceback (most recent call last):
    ...
    TypeError: 'calls[1]' must be a selector (on.*) or a tool name (got 5)
    """
    if isinstance(value, Selector):
        return value
    if isinstance(value, str):
        if default == "tool":
            return ToolSelector(value)
        if default == "kind":
            return EventSelector(kind=value)
        raise ValueError(f"'default' must be 'tool' or 'kind' (got {default!r})")
    what = "an event kind" if default == "kind" else "a tool name"
    hint = "; give several steps as separate arguments" if isinstance(value, list | tuple) else ""
    if name is None:
        raise TypeError(f"expected a selector (on.*) or {what}, got {value!r}{hint}")
    raise TypeError(f"'{name}' must be a selector (on.*) or {what} (got {value!r}){hint}")


_FORMS = ("tool", "message", "memory_set", "memory_cleared", "subagent", "event")


def _kinds() -> list[str]:
    return [
        *_FORMS,
        *(f"skill_{t}" for t in SKILL_TRANSITIONS),
        *(f"ordered_block_{t}" for t in BLOCK_TRANSITIONS),
    ]


def selector_from_data(data: Mapping[str, Any]) -> Any:
    """The selector written as ``data`` (values may already hold matchers).

    Raises:
        ValueError: An unknown form (with a suggestion) or a bad shape.
        TypeError: Arguments the selector's constructor does not take.

    >>> selector_from_data({"tool": "refunds_issue", "arguments": {"amount": 42}})
    on.tool('refunds_issue', arguments={'amount': 42})
    >>> selector_from_data({"tol": "refunds_issue"})
    Traceback (most recent call last):
    ...
    ValueError: unknown selector 'tol' (did you mean 'tool'?)
    """
    if "tool" in data:
        rest = {k: v for k, v in data.items() if k != "tool"}
        return on.tool(data["tool"], **_keywords(on.tool, rest, fixed=("name",)))
    if len(data) != 1:
        raise ValueError(f"a selector mapping has one key, one of {', '.join(_kinds())}")
    ((key, body),) = data.items()
    if key not in _kinds():
        raise ValueError(f"unknown selector {key!r}{did_you_mean(key, _kinds())}")
    named = {
        "memory_set": on.memory_set,
        "memory_cleared": on.memory_cleared,
        "subagent": on.subagent,
    }
    if key in named:
        make = named[key]
        return make(**_keywords(make, body)) if isinstance(body, Mapping) else make(body)
    if not isinstance(body, Mapping):
        raise ValueError(f"{key!r} takes a mapping (got {body!r})")
    if key == "message":
        return on.message(**_keywords(on.message, body))
    if key == "event":
        return on.event(**body)
    if key.startswith("skill_"):
        return on.skill(key.removeprefix("skill_"), **_keywords(on.skill, body, ("transition",)))
    transition = key.removeprefix("ordered_block_")
    return on.block(transition, **_keywords(on.block, body, ("transition",)))


def _keywords(cls: Any, body: Mapping[str, Any], fixed: tuple[str, ...] = ()) -> dict[str, Any]:
    """``body`` as keyword arguments of the attrs class ``cls``; unknown keys are errors."""
    allowed = [
        f.name
        for f in attrs.fields(cls)
        if f.init and not f.name.startswith("_") and f.name not in fixed
    ]
    for key in body:
        if key not in allowed:
            raise ValueError(unknown_key_message(str(key), allowed))
    return dict(body)


# selector_from_data is importable from here but not a star export (as before, when it lived in
# a submodule of its own)


__all__ = ["Selector", "as_selector", "on"]
