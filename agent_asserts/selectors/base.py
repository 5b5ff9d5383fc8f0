"""The selector protocol, its shared helpers, and the generic selector ``on.event``.

:class:`Selector` is the base of every ``on.*`` selector (the concrete ones are in
:mod:`.calls` and :mod:`.conversation`, which both build on this module).
:class:`EventSelector` picks any event by kind, event type and envelope
fields.

>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.builder().event("audit", operation_ref="op-7").build()
>>> EventSelector(kind="audit", filters={"operation_ref": "op-7"}).select(rec)
[0]
"""

from __future__ import annotations

import abc
import operator
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar

import attrs

from agent_asserts._text import did_you_mean
from agent_asserts._values import MISSING
from agent_asserts.matching import Matcher, Mismatch, as_matcher, render, value_to_data
from agent_asserts.record import Event, TrialRecord
from agent_asserts.record.event import ENVELOPE_FIELDS, STR_ENVELOPE_FIELDS

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


__all__ = [
    "ENVELOPE_FILTERS",
    "EventSelector",
    "Selector",
    "call_repr",
    "check_agent",
]
