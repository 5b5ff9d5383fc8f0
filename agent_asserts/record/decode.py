"""Validation and decoding of the canonical dict form of a record, collecting every problem.

:func:`decode_record` is what ``TrialRecord.from_dict`` uses: it returns the keyword arguments
of ``TrialRecord`` or raises one :class:`RecordError` that lists every problem with its JSON
path.

>>> decode_record({"steps": "four", "stauts": "ok"})
Traceback (most recent call last):
...
agent_asserts.record.errors.RecordError: invalid record: 2 problem(s)
  $.stauts: unknown key (did you mean 'status'?)
  $.steps: must be an integer (got 'four')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from agent_asserts._missing import MISSING
from agent_asserts.record._checks import (
    child,
    json_copy,
    must_be_int,
    must_be_list,
    must_be_number,
    must_be_object,
    must_be_str,
    one_of,
    paused_gc,
    unknown_key,
)
from agent_asserts.record._fast import fast_event
from agent_asserts.record._payload_decode import Problems, decode_payload
from agent_asserts.record.errors import Problem, RecordError
from agent_asserts.record.event import ENVELOPE_FIELDS, Event
from agent_asserts.record.parse_errors import ParseError
from agent_asserts.record.payloads import BLOCK_TRANSITIONS, MEMORY_EVENT_TYPES, SKILL_TRANSITIONS
from agent_asserts.record.turns import TurnTracker, opens_turn
from agent_asserts.record.usage import Usage

TOP_LEVEL_KEYS: Final = (
    "initial_state",
    "final_state",
    "status",
    "reply",
    "steps",
    "usage",
    "errors",
    "surfaces",
    "events",
    "parse_errors",
    "metadata",
)
"""The keys of a record in its canonical JSON form."""

_TOP_LEVEL_SET: Final = frozenset(TOP_LEVEL_KEYS)
_ENVELOPE_SET: Final = frozenset(ENVELOPE_FIELDS)
_USAGE_KEYS: Final = ("input_tokens", "output_tokens", "total_tokens")
_PARSE_ERROR_KEYS: Final = ("position", "reason", "item", "source")
_STR_FIELDS: Final = (
    "actor_ref",
    "surface",
    "audience",
    "phase",
    "operation_ref",
    "correlation_id",
    "caused_by_event_id",
    "status",
)
_STR_SET: Final = frozenset(_STR_FIELDS)
_EVENT_TYPES: Final[Mapping[str, tuple[str, ...]]] = {
    "memory": MEMORY_EVENT_TYPES,
    "skill": SKILL_TRANSITIONS,
    "ordered_block": BLOCK_TRANSITIONS,
}
_MISSING_FIELD: Final = "required field missing"
_NOT_FREE: Final = frozenset({*_EVENT_TYPES, "delegation"})


def _unknown_keys(raw: Mapping[Any, Any], known: Any, path: str, problems: Problems) -> None:
    for key in raw:
        if key not in known:
            problems.append((child(path, key), unknown_key(key, sorted(known))))


def _check_event_type(kind: Any, event_type: Any, path: str, problems: Problems) -> Any:
    allowed = _EVENT_TYPES.get(kind) if type(kind) is str else None
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


def _decode_event(
    raw: Any,
    position: int,
    problems: Problems,
    tracker: TurnTracker,
    seen: dict[str, int],
) -> Event | None:
    path = f"$.events[{position}]"
    if not isinstance(raw, Mapping):
        problems.append((path, must_be_object(raw) or ""))
        return None
    before = len(problems)
    if not raw.keys() <= _ENVELOPE_SET:
        _unknown_keys(raw, _ENVELOPE_SET, path, problems)
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
    )


def decode_events(raw: Any, problems: Problems) -> tuple[Event, ...]:
    """Decode the ``events`` list: ids assigned, turns derived, every problem collected.

    Args:
        raw: The value of ``events``.
        problems: Where problems are appended as ``(path, message)``.

    Returns:
        The events (incomplete when problems were found).

    >>> raw = [{"kind": "message", "actor_ref": "user", "payload": {"text": "hi"}}]
    >>> events = decode_events(raw, [])
    >>> events[0].event_id, events[0].turn
    ('e0', 1)
    """
    if (message := must_be_list(raw)) is not None:
        problems.append(("$.events", message))
        return ()
    tracker = TurnTracker()
    seen: dict[str, int] = {}
    out: list[Event] = []
    append = out.append
    with paused_gc():
        for position, item in enumerate(raw):
            event = fast_event(item, position, tracker, seen)
            if event is None:
                event = _decode_event(item, position, problems, tracker, seen)
                if event is None:
                    continue
            append(event)
    return tuple(out)


def _optional(
    data: Mapping[str, Any], key: str, check: Any, problems: Problems, path: str = "$"
) -> Any:
    value = data.get(key)
    if value is not None and (message := check(value)) is not None:
        problems.append((child(path, key), message))
        return None
    return value


def _usage(raw: Any, problems: Problems) -> Usage | None:
    if raw is None:
        return None
    if (message := must_be_object(raw)) is not None:
        problems.append(("$.usage", message))
        return None
    before = len(problems)
    _unknown_keys(raw, _USAGE_KEYS, "$.usage", problems)
    counts = [_optional(raw, key, must_be_int, problems, "$.usage") for key in _USAGE_KEYS]
    return Usage(*counts) if len(problems) == before else None


def _string_list(raw: Any, path: str, problems: Problems) -> list[str]:
    if (message := must_be_list(raw)) is not None:
        problems.append((path, message))
        return []
    for i, item in enumerate(raw):
        if (message := must_be_str(item)) is not None:
            problems.append((child(path, i), message))
    return list(raw)


def _parse_errors(raw: Any, problems: Problems) -> tuple[ParseError, ...]:
    if (message := must_be_list(raw)) is not None:
        problems.append(("$.parse_errors", message))
        return ()
    out: list[ParseError] = []
    for i, item in enumerate(raw):
        path = f"$.parse_errors[{i}]"
        if (message := must_be_object(item)) is not None:
            problems.append((path, message))
            continue
        before = len(problems)
        _unknown_keys(item, _PARSE_ERROR_KEYS, path, problems)
        fields: list[Any] = []
        for key in ("position", "reason"):
            value = item.get(key, MISSING)
            if value is MISSING:
                problems.append((child(path, key), _MISSING_FIELD))
            elif (message := must_be_str(value)) is not None:
                problems.append((child(path, key), message))
            fields.append(value)
        item_value = json_copy(item.get("item"), child(path, "item"), problems)
        source = item.get("source")
        if source is not None and (message := must_be_str(source)) is not None:
            problems.append((child(path, "source"), message))
        if len(problems) == before:
            out.append(ParseError(fields[0], fields[1], item_value, source))
    return tuple(out)


def decode_record(data: Any, source: str | None = None) -> dict[str, Any]:
    """Validate a record's dict form and decode it into ``TrialRecord`` keyword arguments.

    Args:
        data: The parsed JSON document.
        source: The file it came from (named in every problem), or None.

    Returns:
        The keyword arguments of ``TrialRecord``.

    Raises:
        RecordError: With every problem found, each with its JSON path.

    >>> sorted(decode_record({"events": [], "steps": 2}))  # doctest: +NORMALIZE_WHITESPACE
    ['errors', 'events', 'final_state', 'initial_state', 'metadata', 'parse_errors', 'reply',
     'status', 'steps', 'surfaces', 'usage']
    """
    problems: Problems = []
    if not isinstance(data, Mapping):
        problems.append(("$", must_be_object(data) or ""))
        raise RecordError(Problem(p, m, source) for p, m in problems)
    _unknown_keys(data, _TOP_LEVEL_SET, "$", problems)
    initial_state = json_copy(data.get("initial_state"), "$.initial_state", problems)
    final_state = json_copy(data.get("final_state"), "$.final_state", problems)
    status = _optional(data, "status", must_be_str, problems)
    reply = _optional(data, "reply", must_be_str, problems)
    steps = _optional(data, "steps", must_be_int, problems)
    usage = _usage(data.get("usage"), problems)
    errors: Any = data.get("errors", ())
    if (message := must_be_list(errors)) is not None:
        problems.append(("$.errors", message))
        errors = ()
    errors = tuple(json_copy(list(errors), "$.errors", problems))
    surfaces_raw = data.get("surfaces")
    surfaces = None
    if surfaces_raw is not None:
        surfaces = frozenset(_string_list(surfaces_raw, "$.surfaces", problems))
    events = decode_events(data.get("events", ()), problems)
    parse_errors = _parse_errors(data.get("parse_errors", ()), problems)
    metadata: Any = data.get("metadata", {})
    if (message := must_be_object(metadata)) is not None:
        problems.append(("$.metadata", message))
        metadata = {}
    metadata = json_copy(metadata, "$.metadata", problems)
    if problems:
        raise RecordError(Problem(p, m, source) for p, m in problems)
    return {
        "events": events,
        "initial_state": initial_state,
        "final_state": final_state,
        "status": status,
        "reply": reply,
        "steps": steps,
        "usage": usage,
        "errors": errors,
        "surfaces": surfaces,
        "parse_errors": parse_errors,
        "metadata": metadata,
    }


__all__ = ["TOP_LEVEL_KEYS", "decode_events", "decode_record"]
