"""The fast path of event decoding, for events that are valid as written.

:func:`fast_event` decodes the common, valid event with as little work as possible and returns
None as soon as anything needs a closer look; :func:`agent_asserts.record.decode` then runs
the thorough decoder on that event, which reports the problems (or decodes the unusual but
valid event). Both must produce equal events for valid input (a property test checks it).

>>> from agent_asserts.record.turns import TurnTracker
>>> raw = {"kind": "tool_call", "payload": {"name": "search", "arguments": {"q": "x"}}}
>>> fast_event(raw, 0, TurnTracker(), {}).payload.name
'search'
>>> fast_event({"kind": 3}, 0, TurnTracker(), {}) is None
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import attrs

from agent_asserts._depth import MAX_DEPTH
from agent_asserts._missing import MISSING
from agent_asserts.record._validators import NotJSON, fast_copy, scalar_types
from agent_asserts.record.event import ENVELOPE_FIELDS, STR_ENVELOPE_FIELDS, Event
from agent_asserts.record.payloads import (
    KIND_EVENT_TYPES,
    PAYLOAD_KEYS,
    BlockPayload,
    DelegationPayload,
    MemoryPayload,
    MessagePayload,
    SkillPayload,
    ToolCallPayload,
)

_ENVELOPE_SET: Final = frozenset(ENVELOPE_FIELDS)
_STR_SET: Final = frozenset(STR_ENVELOPE_FIELDS)
# the only fields of the plainest events (as TrialRecord.to_dict writes them)
_PLAIN_SET: Final = frozenset({"kind", "event_type", "event_id", "turn", "payload"})
# the fast path takes the common fields only (no buttons, no optional tool fields)
_MESSAGE_KEYS: Final = frozenset({"text", "utter_name"})
_TOOL_KEYS: Final = frozenset({"name", "arguments", "result", "is_error", "source"})
_MEMORY_KEYS: Final = frozenset(PAYLOAD_KEYS["memory"])
_SKILL_KEYS: Final = frozenset(PAYLOAD_KEYS["skill"])
_BLOCK_KEYS: Final = frozenset(PAYLOAD_KEYS["ordered_block"])
_DELEGATION_KEYS: Final = frozenset({"subagent", "output"})
_SCALARS: Final = scalar_types()

# Event has no validators or converters, so filling its slots directly is equivalent to
# calling attrs' __init__ (which sets them one by one through object.__setattr__), and
# about a third faster on millions of events.
_SETTERS: Final = tuple(Event.__dict__[a.name].__set__ for a in attrs.fields(Event))
(_K, _P, _I, _ET, _WT, _MT, _AR, _SU, _AU, _TU, _PH, _ER, _OR, _CI, _CB, _ST) = _SETTERS[:16]
(_DU, _PA, _GR, _AG) = _SETTERS[16:]
# the setters of the fields a plain event leaves None
_UNSET: Final = tuple(
    setter
    for setter, name in zip(_SETTERS, attrs.fields_dict(Event), strict=True)
    if name not in _PLAIN_SET and name != "entity_refs"
)
_INF: Final = float("inf")
# a record is level 1 of nesting, its events list 2, an event 3, a payload 4, a payload's
# value 5: copies stop (NotJSON, so the thorough decoder gets the event) past MAX_DEPTH
_PAYLOAD_LEVELS: Final = MAX_DEPTH - 3
_VALUE_LEVELS: Final = MAX_DEPTH - 4
_new = object.__new__


def _copy(value: Any) -> Any:
    return value if type(value) in _SCALARS else fast_copy(value, _VALUE_LEVELS)


def _message(raw: dict[str, Any], event_type: Any) -> Any:
    if not raw.keys() <= _MESSAGE_KEYS:
        return None
    text = raw.get("text", "")
    utter_name = raw.get("utter_name")
    if type(text) is not str or (utter_name is not None and type(utter_name) is not str):
        return None
    return MessagePayload(text, utter_name, (), {})


def _tool(raw: dict[str, Any], event_type: Any) -> Any:
    if not raw.keys() <= _TOOL_KEYS:
        return None
    get = raw.get
    name = get("name")
    is_error = get("is_error", False)
    source = get("source", "local")
    if (
        type(name) is not str
        or not name
        or type(is_error) is not bool
        or (source != "local" and source != "mcp")
    ):
        return None
    arguments = get("arguments", MISSING)
    if arguments is not MISSING:
        arguments = _copy(arguments)
    return ToolCallPayload(
        name,
        arguments,
        _copy(get("result")),
        is_error,
        source,
        None,
        None,
        None,
        None,
        {},
        "failed" if is_error else "succeeded",
    )


def _memory(raw: dict[str, Any], event_type: Any) -> Any:
    name = raw.get("name")
    value = raw.get("value", MISSING)
    if (
        not raw.keys() <= _MEMORY_KEYS
        or type(name) is not str
        or not name
        or (value is MISSING) != (event_type == "clear")
    ):
        return None
    return MemoryPayload(name, value if value is MISSING else _copy(value), {})


def _skill(raw: dict[str, Any], event_type: Any) -> Any:
    skill_id = raw.get("skill_id")
    step_id = raw.get("step_id")
    if (
        not raw.keys() <= _SKILL_KEYS
        or type(skill_id) is not str
        or not skill_id
        or (step_id is not None and type(step_id) is not str)
    ):
        return None
    return SkillPayload(skill_id, step_id, {})


def _block(raw: dict[str, Any], event_type: Any) -> Any:
    skill_id = raw.get("skill_id")
    block_id = raw.get("block_id")
    step_id = raw.get("step_id")
    if (
        not raw.keys() <= _BLOCK_KEYS
        or type(skill_id) is not str
        or not skill_id
        or type(block_id) is not str
        or not block_id
        or (step_id is not None and type(step_id) is not str)
    ):
        return None
    return BlockPayload(skill_id, block_id, step_id, {})


def _delegation(raw: dict[str, Any], event_type: Any) -> Any:
    subagent = raw.get("subagent")
    if not raw.keys() <= _DELEGATION_KEYS or type(subagent) is not str or not subagent:
        return None
    return DelegationPayload(subagent, _copy(raw.get("output")), {})


def _thorough(raw: dict[str, Any], event_type: Any) -> Any:
    return None  # kinds the fast path leaves to the thorough decoder


_PAYLOADS: Final[dict[str, Callable[[dict[str, Any], Any], Any]]] = {
    "message": _message,
    "tool_call": _tool,
    "memory": _memory,
    "skill": _skill,
    "ordered_block": _block,
    "delegation": _delegation,
    "model_call": _thorough,
    "reasoning": _thorough,
    "guardrail": _thorough,
}


def fast_event(raw: Any, position: int, tracker: Any, seen: dict[str, int]) -> Event | None:
    """Decode a plainly valid event quickly; None means "use the thorough decoder".

    Args:
        raw: The event object.
        position: Its index in ``events``.
        tracker: The :class:`~agent_asserts.record.turns.TurnTracker` of this pass (only
            advanced when an event is returned).
        seen: Event ids seen so far, with their positions.

    Returns:
        The event, or None.

    >>> fast_event({"kind": "memory", "event_type": "write", "payload": {}}, 0, None, {}) is None
    True
    """
    try:
        return fast_event_unchecked(raw, position, tracker, seen)
    except NotJSON:
        return None


def fast_event_unchecked(
    raw: Any, position: int, tracker: Any, seen: dict[str, int]
) -> Event | None:
    """:func:`fast_event`, raising :class:`~agent_asserts.record._validators.NotJSON` where
    that returns None for data that is not JSON (one call less per event for a loop that
    catches it)."""
    if type(raw) is not dict:
        return None
    get = raw.get
    kind = get("kind")
    keys = raw.keys()
    if type(kind) is not str or not kind or not keys <= _ENVELOPE_SET:
        return None
    event_type = get("event_type")
    if event_type is None:
        if kind in KIND_EVENT_TYPES:
            return None
        if kind == "delegation":
            event_type = "completed"
    elif type(event_type) is not str or event_type not in KIND_EVENT_TYPES.get(kind, (event_type,)):
        return None
    # an event as to_dict writes the plainest ones: every other envelope field None
    plain = keys <= _PLAIN_SET
    if not plain:
        for name, value in raw.items():
            if value is not None and type(value) is not str and name in _STR_SET:
                return None
        wall_time = get("wall_time")
        if (
            wall_time is not None
            and type(wall_time) is not str
            and type(wall_time) not in (int, float)
        ):
            return None
        monotonic_time = get("monotonic_time")
        if monotonic_time is not None and type(monotonic_time) not in (int, float):
            return None
        duration = get("duration")
        if duration is not None and (
            type(duration) not in (int, float) or not 0 <= duration < _INF
        ):
            return None
        entity_refs = get("entity_refs")
        if entity_refs is None:
            entity_refs = ()
        elif type(entity_refs) is list and all(type(ref) is str for ref in entity_refs):
            entity_refs = tuple(entity_refs)
        else:
            return None
    turn = get("turn")
    if turn is not None and (type(turn) is not int or turn < 0):
        return None
    raw_payload = get("payload", MISSING)
    if raw_payload is MISSING:
        raw_payload = {}
    elif type(raw_payload) is not dict:
        return None
    decoder = _PAYLOADS.get(kind)
    payload = (
        fast_copy(raw_payload, _PAYLOAD_LEVELS)
        if decoder is None
        else decoder(raw_payload, event_type)
    )
    if payload is None:
        return None
    event_id = get("event_id")
    if event_id is None:
        event_id = f"e{position}"
    elif type(event_id) is not str or not event_id:
        return None
    if seen.setdefault(event_id, position) != position:
        return None
    actor_ref = None if plain else get("actor_ref")
    if turn is None:
        if kind == "message" and actor_ref == "user":
            text = payload.text.strip()
            if text and text[0] != "/":
                tracker.current += 1
        turn = tracker.current
    else:
        tracker.current = turn
    event = _new(Event)
    _K(event, kind)
    _P(event, payload)
    _I(event, event_id)
    _ET(event, event_type)
    _TU(event, turn)
    if plain:
        _ER(event, ())
        for unset in _UNSET:
            unset(event, None)
        return event
    _WT(event, wall_time)
    _MT(event, monotonic_time)
    _AR(event, actor_ref)
    _SU(event, get("surface"))
    _AU(event, get("audience"))
    _PH(event, get("phase"))
    _ER(event, entity_refs)
    _OR(event, get("operation_ref"))
    _CI(event, get("correlation_id"))
    _CB(event, get("caused_by_event_id"))
    _ST(event, get("status"))
    _DU(event, duration)
    _PA(event, get("parent_id"))
    _GR(event, get("group_id"))
    _AG(event, get("agent"))
    return event


__all__ = ["fast_event", "fast_event_unchecked"]
