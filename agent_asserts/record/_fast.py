"""The fast path of event decoding, for events that are valid as written: a check, then a build.

:func:`fast_valid` checks the common, valid event without creating anything (it only advances
the turn tracker, and says which id the event has: whether that id is unique is the caller's
check) and says False as soon as anything needs a closer look;
:func:`agent_asserts.record.decode` then runs the thorough decoder on that event, which reports
the problems (or decodes the unusual but valid event). :func:`fast_build` makes the ``Event``
of a checked event — at once for ``TrialRecord.from_dict`` (copying the payload's values, which
the caller owns), or on first read of ``events`` for a record loaded from a file (sharing them
with the parsed data, which nothing else holds; see :mod:`agent_asserts.record._lazy_events`).
Both paths must produce events equal to the thorough decoder's for valid input (property tests
check it).

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
from agent_asserts._values import MISSING
from agent_asserts.record._validators import fast_copy, fits, scalar_types
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
from agent_asserts.record.turns import TurnTracker

Copy = Callable[[Any], Any]
"""How a checked payload value gets into the built event: copied, or kept as is."""

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
# value 5: the fast path leaves an event holding anything deeper to the thorough decoder
_PAYLOAD_LEVELS: Final = MAX_DEPTH - 3
_VALUE_LEVELS: Final = MAX_DEPTH - 4
_new = object.__new__


def _fits(value: Any) -> bool:
    return type(value) in _SCALARS or fits(value, _VALUE_LEVELS)


def copied(value: Any) -> Any:
    """A payload value of a checked event, copied (the caller keeps the original).

    >>> data = {"a": [1]}; copied(data) == data and copied(data) is not data
    True
    """
    return value if type(value) in _SCALARS else fast_copy(value, _VALUE_LEVELS)


def kept(value: Any) -> Any:
    """A payload value of a checked event, kept as is (nothing else holds the parsed data).

    >>> data = {"a": [1]}; kept(data) is data
    True
    """
    return value


# -- payload checks: True when the fast path can build the payload ----------------------------


def _message_ok(raw: dict[str, Any], event_type: Any) -> bool:
    if not raw.keys() <= _MESSAGE_KEYS:
        return False
    utter_name = raw.get("utter_name")
    return type(raw.get("text", "")) is str and (utter_name is None or type(utter_name) is str)


def _tool_ok(raw: dict[str, Any], event_type: Any) -> bool:
    if not raw.keys() <= _TOOL_KEYS:
        return False
    get = raw.get
    name = get("name")
    source = get("source", "local")
    return (
        type(name) is str
        and bool(name)
        and type(get("is_error", False)) is bool
        and (source == "local" or source == "mcp")
        and _fits(get("arguments"))
        and _fits(get("result"))
    )


def _memory_ok(raw: dict[str, Any], event_type: Any) -> bool:
    name = raw.get("name")
    value = raw.get("value", MISSING)
    return (
        raw.keys() <= _MEMORY_KEYS
        and type(name) is str
        and bool(name)
        and (value is MISSING) == (event_type == "clear")
        and (value is MISSING or _fits(value))
    )


def _skill_ok(raw: dict[str, Any], event_type: Any) -> bool:
    skill_id = raw.get("skill_id")
    step_id = raw.get("step_id")
    return (
        raw.keys() <= _SKILL_KEYS
        and type(skill_id) is str
        and bool(skill_id)
        and (step_id is None or type(step_id) is str)
    )


def _block_ok(raw: dict[str, Any], event_type: Any) -> bool:
    skill_id = raw.get("skill_id")
    block_id = raw.get("block_id")
    step_id = raw.get("step_id")
    return (
        raw.keys() <= _BLOCK_KEYS
        and type(skill_id) is str
        and bool(skill_id)
        and type(block_id) is str
        and bool(block_id)
        and (step_id is None or type(step_id) is str)
    )


def _delegation_ok(raw: dict[str, Any], event_type: Any) -> bool:
    subagent = raw.get("subagent")
    return (
        raw.keys() <= _DELEGATION_KEYS
        and type(subagent) is str
        and bool(subagent)
        and _fits(raw.get("output"))
    )


def _thorough(raw: dict[str, Any], event_type: Any) -> bool:
    return False  # kinds the fast path leaves to the thorough decoder


_CHECKS: Final[dict[str, Callable[[dict[str, Any], Any], bool]]] = {
    "message": _message_ok,
    "tool_call": _tool_ok,
    "memory": _memory_ok,
    "skill": _skill_ok,
    "ordered_block": _block_ok,
    "delegation": _delegation_ok,
    "model_call": _thorough,
    "reasoning": _thorough,
    "guardrail": _thorough,
}

# -- payload builds: of a payload its check accepted --------------------------------------------


def _message(raw: dict[str, Any], event_type: Any, copy: Copy) -> Any:
    return MessagePayload(raw.get("text", ""), raw.get("utter_name"), (), {})


def _tool(raw: dict[str, Any], event_type: Any, copy: Copy) -> Any:
    get = raw.get
    arguments = get("arguments", MISSING)
    is_error = get("is_error", False)
    return ToolCallPayload(
        raw["name"],
        arguments if arguments is MISSING else copy(arguments),
        copy(get("result")),
        is_error,
        get("source", "local"),
        None,
        None,
        None,
        None,
        {},
        "failed" if is_error else "succeeded",
    )


def _memory(raw: dict[str, Any], event_type: Any, copy: Copy) -> Any:
    value = raw.get("value", MISSING)
    return MemoryPayload(raw["name"], value if value is MISSING else copy(value), {})


def _skill(raw: dict[str, Any], event_type: Any, copy: Copy) -> Any:
    return SkillPayload(raw["skill_id"], raw.get("step_id"), {})


def _block(raw: dict[str, Any], event_type: Any, copy: Copy) -> Any:
    return BlockPayload(raw["skill_id"], raw["block_id"], raw.get("step_id"), {})


def _delegation(raw: dict[str, Any], event_type: Any, copy: Copy) -> Any:
    return DelegationPayload(raw["subagent"], copy(raw.get("output")), {})


_BUILDS: Final[dict[str, Callable[[dict[str, Any], Any, Copy], Any]]] = {
    "message": _message,
    "tool_call": _tool,
    "memory": _memory,
    "skill": _skill,
    "ordered_block": _block,
    "delegation": _delegation,
}


def fast_valid(raw: Any, position: int, tracker: TurnTracker) -> bool | str:
    """Whether a plainly valid event can take the fast path: False means "use the thorough
    decoder"; True, valid with its id assigned by position (``e{position}``); a string, valid
    with that explicit id. Whether the id is unique is the caller's to check (with the ids
    seen so far); the check creates nothing. When it accepts the event it has advanced
    ``tracker`` to the event's turn (a caller that then finds a duplicate id puts it back).

    Args:
        raw: The event object.
        position: Its index in ``events``.
        tracker: The turn tracker of this pass (``tracker.current`` is then the event's turn).

    >>> tracker = TurnTracker()
    >>> fast_valid({"kind": "message", "actor_ref": "user", "payload": {"text": "hi"}},
    ...            0, tracker), tracker.current
    (True, 1)
    >>> fast_valid({"kind": "step", "event_id": "s1"}, 1, tracker)
    's1'
    >>> fast_valid({"kind": "memory", "event_type": "write", "payload": {}}, 2, tracker)
    False
    """
    if type(raw) is not dict:
        return False
    get = raw.get
    kind = get("kind")
    keys = raw.keys()
    # an event as to_dict writes the plainest ones: every other envelope field None
    plain = keys <= _PLAIN_SET
    if type(kind) is not str or not kind or not (plain or keys <= _ENVELOPE_SET):
        return False
    event_type = get("event_type")
    if event_type is None:
        if kind in KIND_EVENT_TYPES:
            return False
    elif type(event_type) is not str or event_type not in KIND_EVENT_TYPES.get(kind, (event_type,)):
        return False
    if not plain:
        for name, value in raw.items():
            if value is not None and type(value) is not str and name in _STR_SET:
                return False
        wall_time = get("wall_time")
        if (
            wall_time is not None
            and type(wall_time) is not str
            and type(wall_time) not in (int, float)
        ):
            return False
        monotonic_time = get("monotonic_time")
        if monotonic_time is not None and type(monotonic_time) not in (int, float):
            return False
        duration = get("duration")
        if duration is not None and (
            type(duration) not in (int, float) or not 0 <= duration < _INF
        ):
            return False
        entity_refs = get("entity_refs")
        if entity_refs is not None and not (
            type(entity_refs) is list and all(type(ref) is str for ref in entity_refs)
        ):
            return False
    turn = get("turn")
    if turn is not None and (type(turn) is not int or turn < 0):
        return False
    raw_payload = get("payload", MISSING)
    if raw_payload is MISSING:
        raw_payload = {}
    elif type(raw_payload) is not dict:
        return False
    check = _CHECKS.get(kind)
    if check is None:  # a plain JSON object (fits(raw_payload, _PAYLOAD_LEVELS), unrolled once)
        for key, value in raw_payload.items():
            if type(key) is not str or (
                type(value) not in _SCALARS and not fits(value, _VALUE_LEVELS)
            ):
                return False
    elif not check(raw_payload, event_type):
        return False
    event_id = get("event_id")
    if event_id is None:
        event_id = True
    elif type(event_id) is not str or not event_id:
        return False
    if turn is None:
        if kind == "message" and not plain and get("actor_ref") == "user":
            text = raw_payload.get("text", "").strip()
            if text and text[0] != "/":
                tracker.current += 1
    else:
        tracker.current = turn
    return event_id


def fast_build(raw: dict[str, Any], position: int, turn: int, copy: Copy) -> Event:
    """The ``Event`` of an event :func:`fast_valid` accepted, with its ``turn``.

    Args:
        raw: The event object.
        position: Its index in ``events`` (for the id assigned by position).
        turn: Its turn (``tracker.current`` after :func:`fast_valid`).
        copy: :func:`copied` (the caller keeps the data) or :func:`kept` (nothing else holds it).

    >>> fast_build({"kind": "step", "payload": {"i": 1}}, 3, 0, kept)  # doctest: +ELLIPSIS
    Event(kind='step', payload={'i': 1}, event_id='e3', event_type=None, ...)
    """
    get = raw.get
    kind = raw["kind"]
    event_type = get("event_type")
    if event_type is None and kind == "delegation":
        event_type = "completed"
    raw_payload = get("payload")
    if raw_payload is None:
        raw_payload = {}
    build = _BUILDS.get(kind)
    event = _new(Event)
    _K(event, kind)
    _P(
        event,
        (raw_payload if copy is kept else fast_copy(raw_payload, _PAYLOAD_LEVELS))
        if build is None
        else build(raw_payload, event_type, copy),
    )
    _I(event, get("event_id") or f"e{position}")
    _ET(event, event_type)
    _TU(event, turn)
    if raw.keys() <= _PLAIN_SET:
        _ER(event, ())
        for unset in _UNSET:
            unset(event, None)
        return event
    entity_refs = get("entity_refs")
    _WT(event, get("wall_time"))
    _MT(event, get("monotonic_time"))
    _AR(event, get("actor_ref"))
    _SU(event, get("surface"))
    _AU(event, get("audience"))
    _PH(event, get("phase"))
    _ER(event, () if entity_refs is None else tuple(entity_refs))
    _OR(event, get("operation_ref"))
    _CI(event, get("correlation_id"))
    _CB(event, get("caused_by_event_id"))
    _ST(event, get("status"))
    _DU(event, get("duration"))
    _PA(event, get("parent_id"))
    _GR(event, get("group_id"))
    _AG(event, get("agent"))
    return event


def fast_event(raw: Any, position: int, tracker: TurnTracker, seen: dict[str, int]) -> Event | None:
    """One event through the fast path: :func:`fast_valid`, its id checked against (and added
    to) ``seen``, then :func:`fast_build` copying its values; None means "use the thorough
    decoder". (:func:`~agent_asserts.record._event_decode.check_events` does the same for a
    whole list, keeping the ids only once it needs them.)

    Args:
        raw: The event object.
        position: Its index in ``events``.
        tracker: The :class:`~agent_asserts.record.turns.TurnTracker` of this pass (only
            advanced when an event is returned).
        seen: Event ids seen so far, with their positions.

    Returns:
        The event, or None.

    >>> raw = {"kind": "memory", "event_type": "write", "payload": {}}
    >>> fast_event(raw, 0, TurnTracker(), {}) is None
    True
    """
    turn = tracker.current
    found = fast_valid(raw, position, tracker)
    if found is False:
        return None
    if seen.setdefault(f"e{position}" if found is True else found, position) != position:
        tracker.current = turn
        return None
    return fast_build(raw, position, tracker.current, copied)


__all__ = ["Copy", "copied", "fast_build", "fast_event", "fast_valid", "kept"]
