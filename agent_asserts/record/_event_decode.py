"""Decoding of the ``events`` list of a record (part of :mod:`agent_asserts.record.decode`).

Each event first takes the fast path (:mod:`agent_asserts.record._fast`); an event it does not
accept is decoded here thoroughly, with every problem collected as a ``(path, message)`` pair.
Payloads are decoded by :mod:`agent_asserts.record._payload_decode`.

>>> [e.kind for e in decode_events([{"kind": "audit"}, {"kind": "audit", "turn": 2}], [])]
['audit', 'audit']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from agent_asserts._depth import MAX_DEPTH, too_deep
from agent_asserts._values import MISSING
from agent_asserts.errors import AgentAssertsError
from agent_asserts.record._fast import Copy, copied, fast_build, fast_valid
from agent_asserts.record._links import parent_problems
from agent_asserts.record._payload_decode import decode_payload
from agent_asserts.record._payload_fields import Problems
from agent_asserts.record._validators import (
    child,
    must_be_duration,
    must_be_int,
    must_be_list,
    must_be_number,
    must_be_object,
    must_be_str,
    one_of,
    paused_gc,
    unknown_key,
)
from agent_asserts.record.event import ENVELOPE_FIELDS, STR_ENVELOPE_FIELDS, Event
from agent_asserts.record.payloads import KIND_EVENT_TYPES
from agent_asserts.record.turns import TurnTracker, opens_turn

_ENVELOPE_SET: Final = frozenset(ENVELOPE_FIELDS)
_STR_SET: Final = frozenset(STR_ENVELOPE_FIELDS)
_MISSING_FIELD: Final = "required field missing"
_NOT_FREE: Final = frozenset({*KIND_EVENT_TYPES, "delegation"})
_EVENT_LEVELS: Final = MAX_DEPTH - 2  # an event is level 3 of a record


class EventTooDeep(AgentAssertsError):
    """An event holds data nested past :data:`~agent_asserts._depth.MAX_DEPTH` (the record
    decoder then reports the first such container of the whole record)."""


def unknown_keys(raw: Mapping[Any, Any], known: Any, path: str, problems: Problems) -> None:
    """Add an "unknown key" problem (with a suggestion) for each key of ``raw`` not in ``known``.

    >>> problems: Problems = []
    >>> unknown_keys({"knd": 1}, ("kind",), "$", problems); problems
    [('$.knd', "unknown key (did you mean 'kind'?)")]
    """
    for key in raw:
        if key not in known:
            problems.append((child(path, key), unknown_key(key, sorted(known))))


def _check_event_type(kind: Any, event_type: Any, path: str, problems: Problems) -> Any:
    allowed = KIND_EVENT_TYPES.get(kind) if type(kind) is str else None
    if event_type is None:
        if allowed is not None:
            problems.append((child(path, "event_type"), _MISSING_FIELD))
        return "completed" if kind == "delegation" else None
    if type(event_type) is not str and (message := must_be_str(event_type)) is not None:
        problems.append((child(path, "event_type"), message))
    elif allowed is not None and event_type not in allowed:
        problems.append(
            (
                child(path, "event_type"),
                f"must be one of {one_of(allowed)} for kind {kind!r} (got {event_type!r})",
            )
        )
    return event_type


def decode_event(
    raw: Any,
    position: int,
    problems: Problems,
    tracker: TurnTracker,
    seen: dict[str, int],
) -> Event | None:
    """Decode one event thoroughly, adding every problem it has; None when it has any.

    Args:
        raw: The event object.
        position: Its index in ``events``.
        problems: Where problems are appended as ``(path, message)``.
        tracker: The turn tracker of this pass.
        seen: Event ids seen so far, with their positions.

    Returns:
        The event, or None.

    >>> problems: Problems = []
    >>> raw = {"kind": "skill", "payload": {"skill_id": "a"}}
    >>> decode_event(raw, 0, problems, TurnTracker(), {})
    >>> problems
    [('$.events[0].event_type', 'required field missing')]
    """
    path = f"$.events[{position}]"
    if not isinstance(raw, Mapping):
        problems.append((path, must_be_object(raw) or ""))
        return None
    before = len(problems)
    if not raw.keys() <= _ENVELOPE_SET:
        unknown_keys(raw, _ENVELOPE_SET, path, problems)
    get = raw.get
    event_id = get("event_id")
    if event_id is None:
        event_id = f"e{position}"
        assigned = " (assigned by position)"
    else:
        assigned = ""
        if (message := must_be_str(event_id, non_empty=True)) is not None:
            problems.append((child(path, "event_id"), message))
            event_id = None
    if event_id is not None:
        first = seen.setdefault(event_id, position)
        if first != position:
            problems.append(
                (
                    child(path, "event_id"),
                    f"duplicate event id {event_id!r}{assigned}"
                    f" (already used by $.events[{first}])",
                )
            )
    wall_time = get("wall_time")
    if wall_time is not None and type(wall_time) is not str and must_be_number(wall_time):
        problems.append(
            (child(path, "wall_time"), f"must be a string or a number (got {wall_time!r})")
        )
    monotonic_time = get("monotonic_time")
    if monotonic_time is not None and (message := must_be_number(monotonic_time)) is not None:
        problems.append((child(path, "monotonic_time"), message))
    for name, value in raw.items():
        if (
            value is not None
            and type(value) is not str
            and name in _STR_SET
            and (message := must_be_str(value))
        ):
            problems.append((child(path, name), message))
    turn = get("turn")
    if turn is not None and (message := must_be_int(turn)) is not None:
        problems.append((child(path, "turn"), message))
        turn = None
    duration = get("duration")
    if duration is not None and (message := must_be_duration(duration)) is not None:
        problems.append((child(path, "duration"), message))
    kind = get("kind", MISSING)
    if kind is MISSING:
        problems.append((child(path, "kind"), _MISSING_FIELD))
    elif type(kind) is not str or not kind:
        problems.append((child(path, "kind"), must_be_str(kind, non_empty=True) or ""))
    event_type = get("event_type")
    if not (
        type(kind) is str
        and kind not in _NOT_FREE
        and (event_type is None or type(event_type) is str)
    ):
        event_type = _check_event_type(kind, event_type, path, problems)
    entity_refs: tuple[str, ...] = ()
    raw_refs = get("entity_refs")
    if raw_refs is not None:
        rpath = child(path, "entity_refs")
        if (message := must_be_list(raw_refs)) is not None:
            problems.append((rpath, message))
        else:
            for i, ref in enumerate(raw_refs):
                if (message := must_be_str(ref)) is not None:
                    problems.append((child(rpath, i), message))
            entity_refs = tuple(raw_refs)
    raw_payload = get("payload", MISSING)
    ppath = path + ".payload"
    payload: Any = None
    if raw_payload is MISSING:
        raw_payload = {}
    if type(raw_payload) is not dict and (message := must_be_object(raw_payload)) is not None:
        problems.append((ppath, message))
    elif type(kind) is str and kind:
        payload = decode_payload(kind, raw_payload, ppath, problems, event_type)
    if len(problems) != before:
        return None
    actor_ref = get("actor_ref")
    opens = kind == "message" and actor_ref == "user" and opens_turn(kind, actor_ref, payload)
    return Event(
        kind,
        payload,
        event_id,  # type: ignore[arg-type]
        event_type,
        wall_time,
        monotonic_time,
        actor_ref,
        get("surface"),
        get("audience"),
        tracker.assign(turn, opens),
        get("phase"),
        entity_refs,
        get("operation_ref"),
        get("correlation_id"),
        get("caused_by_event_id"),
        get("status"),
        duration,
        get("parent_id"),
        get("group_id"),
        get("agent"),
    )


Plan = list[int | Event | None]
"""What :func:`check_events` found for each event, by position: its turn (an event the fast
path checked, to build with :func:`build_events`), its ``Event`` (decoded thoroughly), or None
(invalid: its problems were reported)."""


def _assigned(count: int) -> dict[str, int]:
    """The ids of the first ``count`` events when each was assigned by position."""
    return {f"e{position}": position for position in range(count)}


def check_events(raw: Any, problems: Problems, copy: Copy | None = None) -> Plan:
    """Check the ``events`` list — ids assigned, turns derived, every problem collected —
    building only the events the fast path leaves to the thorough decoder (or, given
    ``copy``, every event at once).

    Args:
        raw: The value of ``events``.
        problems: Where problems are appended as ``(path, message)``.
        copy: None to leave the events the fast path accepts unbuilt (their turns in the
            plan), else how :func:`~agent_asserts.record._fast.fast_build` builds them now.

    Returns:
        The plan of the events (see :data:`Plan`); empty when ``raw`` is not a list.

    Raises:
        EventTooDeep: An event nested past the depth limit (the fast path checks the depth
            of what it accepts; an event it leaves to the thorough decoder is measured first).

    >>> plan = check_events([{"kind": "step"}, {"kind": "audit", "entity_refs": ("a",)}], [])
    >>> [type(step).__name__ for step in plan]
    ['int', 'Event']
    """
    if (message := must_be_list(raw)) is not None:
        problems.append(("$.events", message))
        return []
    tracker = TurnTracker()
    # the ids seen so far with their positions; None while every event so far took the fast
    # path with its id assigned by position (e0, e1…: unique, so no need to keep them yet)
    seen: dict[str, int] | None = None
    plan: Plan = []
    links: list[tuple[int, str, str]] = []
    append = plan.append
    valid = fast_valid
    build = fast_build
    with paused_gc():
        for position, item in enumerate(raw):
            before = tracker.current
            found = valid(item, position, tracker)  # False, True (id by position) or the id
            if found is not False and (found is not True or seen is not None):
                if seen is None:  # the first explicit id: keep the ids from now on
                    seen = _assigned(position)
                if (
                    seen.setdefault(f"e{position}" if found is True else found, position)
                    != position
                ):
                    tracker.current = before  # a duplicate: the thorough decoder reports it
                    found = False
            if found is not False:
                turn = tracker.current
                append(turn if copy is None else build(item, position, turn, copy))
                if "parent_id" in item and (parent_id := item["parent_id"]) is not None:
                    links.append((position, f"e{position}" if found is True else found, parent_id))
                continue
            if seen is None:
                seen = _assigned(position)
            if too_deep(item, _EVENT_LEVELS) is not None:
                raise EventTooDeep
            event = decode_event(item, position, problems, tracker, seen)
            append(event)
            if event is not None and event.parent_id is not None:
                links.append((position, event.event_id, event.parent_id))
    if links:
        problems.extend(parent_problems(links, _assigned(len(plan)) if seen is None else seen))
    return plan


def build_events(raw: Any, plan: Plan, copy: Copy) -> tuple[Event, ...]:
    """The events of a checked ``events`` list (the invalid ones left out).

    Args:
        raw: The value of ``events``, as :func:`check_events` checked it.
        plan: What it returned.
        copy: :func:`~agent_asserts.record._fast.copied` when the caller keeps ``raw``,
            :func:`~agent_asserts.record._fast.kept` when nothing else holds it.

    >>> raw = [{"kind": "step"}]
    >>> build_events(raw, check_events(raw, []), copied)[0].event_id
    'e0'
    """
    build = fast_build
    with paused_gc():
        events: list[Any] = [
            build(item, position, step, copy) if type(step) is int else step
            for position, (item, step) in enumerate(zip(raw, plan, strict=True))
        ]
    if None in events:
        return tuple(event for event in events if event is not None)
    return tuple(events)


def decode_events(raw: Any, problems: Problems) -> tuple[Event, ...]:
    """Decode the ``events`` list: ids assigned, turns derived, every problem collected.

    Args:
        raw: The value of ``events``.
        problems: Where problems are appended as ``(path, message)``.

    Returns:
        The events (incomplete when problems were found).

    Raises:
        EventTooDeep: See :func:`check_events`.

    >>> raw = [{"kind": "message", "actor_ref": "user", "payload": {"text": "hi"}}]
    >>> events = decode_events(raw, [])
    >>> events[0].event_id, events[0].turn
    ('e0', 1)
    """
    events: list[Any] = check_events(raw, problems, copied)  # Events, None for invalid ones
    if None in events:
        return tuple(event for event in events if event is not None)
    return tuple(events)


__all__ = [
    "EventTooDeep",
    "Plan",
    "build_events",
    "check_events",
    "decode_event",
    "decode_events",
    "unknown_keys",
]
