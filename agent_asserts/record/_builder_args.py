"""Argument checks of :class:`~agent_asserts.record.builder.RecordBuilder`.

Each check raises ``ValueError`` naming the argument, the value and what was expected.

>>> check_envelope("user", {"turn": 2, "entity_refs": ["order:1"]}, ())
{'turn': 2, 'entity_refs': ('order:1',)}
>>> choice("source", "remote", ("local", "mcp"))
Traceback (most recent call last):
...
ValueError: 'source' must be one of 'local', 'mcp' (got 'remote')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final, TypedDict

from agent_asserts._suggest import did_you_mean
from agent_asserts.record.declared_tools import DeclaredTool, decode_tools
from agent_asserts.record.decoding import decode_payload, decode_usage, parent_problems
from agent_asserts.record.errors import Problem, RecordError
from agent_asserts.record.event import STR_ENVELOPE_FIELDS, Event
from agent_asserts.record.payloads import PAYLOAD_TYPES, Button, Payload
from agent_asserts.record.usage import Usage
from agent_asserts.record.validators import (
    json_copy,
    must_be_duration,
    must_be_int,
    must_be_list,
    must_be_number,
    must_be_str,
    one_of,
)


class CommonEnvelope(TypedDict, total=False):
    event_id: str
    wall_time: str | float | None
    monotonic_time: float | None
    actor_ref: str | None
    surface: str | None
    audience: str | None
    turn: int | None
    phase: str | None
    entity_refs: Iterable[str]
    operation_ref: str | None
    correlation_id: str | None
    caused_by_event_id: str | None
    duration: float | None
    parent_id: str | None
    group_id: str | None
    agent: str | None


class StatusEnvelope(CommonEnvelope, total=False):
    status: str | None


class Envelope(StatusEnvelope, total=False):
    """The envelope fields the builder methods accept as keyword arguments.

    ``event_type`` is fixed by ``memory_set``/``memory_clear``/``skill``/``block``/
    ``subagent`` (and a parameter of ``event``); ``status`` is ``subagent``'s outcome
    parameter there.

    >>> "turn" in Envelope.__optional_keys__
    True
    >>> check_envelope("agent", {"surface": "chat", "turn": 3}, ())["surface"]
    'chat'
    """

    event_type: str | None


ENVELOPE_KEYS: Final = tuple(sorted(Envelope.__optional_keys__))
_STR_KEYS: Final = ("event_type", *STR_ENVELOPE_FIELDS)


def check(name: str, message: str | None) -> None:
    if message is not None:
        raise ValueError(f"{name!r} {message}")


def as_json(name: str, value: Any) -> Any:
    problems: list[tuple[str, str]] = []
    copied = json_copy(value, name, problems)
    if problems:
        path, message = problems[0]
        raise ValueError(f"{path!r} {message}")
    return copied


def choice(name: str, value: Any, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise ValueError(f"{name!r} must be one of {one_of(allowed)} (got {value!r})")
    result: str = value
    return result


def as_button(value: Any) -> Button:
    if isinstance(value, Button):
        return value
    if isinstance(value, Mapping) and set(value) <= {"title", "payload"} and "title" in value:
        check("buttons", must_be_str(value["title"]))
        payload = value.get("payload")
        if payload is not None:
            check("buttons", must_be_str(payload))
        return Button(value["title"], payload)
    raise ValueError(
        f"'buttons' items must be Button objects or {{'title': ..., 'payload': ...}} mappings"
        f" (got {value!r})"
    )


def as_payload(kind: str, payload: Any, event_type: str | None) -> Payload:
    """The payload of ``RecordBuilder.event``: a typed payload of ``kind`` as it is, else a
    mapping (None is ``{}``) decoded like the payload of a record file.

    >>> as_payload("skill", {"skill_id": "refund"}, "activated")
    SkillPayload(skill_id='refund', step_id=None, extra={})
    >>> as_payload("audit", [1], None)
    Traceback (most recent call last):
    ...
    ValueError: 'payload' must be a mapping for kind 'audit' (got [1])
    """
    typed = PAYLOAD_TYPES.get(kind)
    if typed is not None and isinstance(payload, typed):
        return payload
    raw = {} if payload is None else payload
    if not isinstance(raw, Mapping):
        raise ValueError(f"'payload' must be a mapping for kind {kind!r} (got {raw!r})")
    problems: list[tuple[str, str]] = []
    decoded = decode_payload(kind, raw, "payload", problems, event_type)
    if problems or decoded is None:
        raise ValueError("; ".join(f"{path!r} {message}" for path, message in problems))
    return decoded


def as_usage(usage: Usage | Mapping[str, Any] | None) -> Usage | None:
    """A ``Usage`` from itself, a mapping in the canonical form (any further non-negative
    integer counter goes to ``details``), or None.

    >>> as_usage({"input_tokens": 2, "output_tokens": 1})
    Usage(input_tokens=2, output_tokens=1, total_tokens=3)
    >>> as_usage({"input_tokens": 2, "reasoning_tokens": 1}).details
    {'reasoning_tokens': 1}
    """
    if usage is None or isinstance(usage, Usage):
        return usage
    if not isinstance(usage, Mapping):
        raise ValueError(f"'usage' must be a Usage or a mapping (got {usage!r})")
    problems: list[tuple[str, str]] = []
    decoded = decode_usage(usage, "usage", problems)
    if problems or decoded is None:
        raise ValueError("; ".join(f"{path!r} {message}" for path, message in problems))
    return decoded


def as_tools(tools: Any) -> tuple[DeclaredTool, ...]:
    """The declared tools of ``build(tools=...)``: ``DeclaredTool`` objects or mappings in the
    canonical form.

    >>> as_tools([{"name": "search"}])
    (DeclaredTool(name='search', description=None, parameters=None),)
    >>> as_tools([{"name": ""}])
    Traceback (most recent call last):
    ...
    ValueError: 'tools[0].name' must be a non-empty string (got '')
    """
    items = as_list("tools", tools)
    raw = [item.to_dict() if isinstance(item, DeclaredTool) else item for item in items]
    problems: list[tuple[str, str]] = []
    decoded = decode_tools(raw, problems, "tools")
    if problems:
        raise ValueError("; ".join(f"{path!r} {message}" for path, message in problems))
    return decoded


def check_links(events: tuple[Event, ...]) -> None:
    """Raise :class:`RecordError` when a ``parent_id`` names no other event or makes a cycle.

    >>> check_links(())
    """
    links = [(i, e.event_id, e.parent_id) for i, e in enumerate(events) if e.parent_id is not None]
    if links:
        problems = parent_problems(links, {e.event_id: i for i, e in enumerate(events)})
        if problems:
            raise RecordError(Problem(path, message) for path, message in problems)


def as_list(name: str, value: Any) -> list[Any]:
    """An iterable argument as a list; a string, bytes, a mapping or a non-iterable is a
    ``TypeError`` naming the argument (``list("boom")`` would be four characters).

    >>> as_list("errors", ("timeout",))
    ['timeout']
    >>> as_list("errors", "boom")
    Traceback (most recent call last):
    ...
    TypeError: 'errors' must be a list (got 'boom')
    """
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Iterable):
        raise TypeError(f"{name!r} {must_be_list(value)}")
    return list(value)


def as_surfaces(surfaces: Iterable[str]) -> frozenset[str]:
    """The recorded surfaces as a set of strings (a lone string is a mistake).

    >>> as_surfaces("message")
    Traceback (most recent call last):
    ...
    TypeError: 'surfaces' must be a list (got 'message')
    """
    found = frozenset(as_list("surfaces", surfaces))
    for surface in found:
        check("surfaces", must_be_str(surface))
    return found


def check_envelope(
    method: str, envelope: Mapping[str, Any], fixed: tuple[str, ...]
) -> dict[str, Any]:
    """Check the envelope keyword arguments of a builder method.

    Args:
        method: The method's name, for messages.
        envelope: The keyword arguments.
        fixed: Envelope keys the method sets itself (passing them is a ``TypeError``).

    Returns:
        The fields, with ``entity_refs`` as a tuple when given.

    Raises:
        TypeError: An unknown or fixed keyword argument.
        ValueError: A value of the wrong type.

    >>> check_envelope("agent", {"tunr": 1}, ())
    Traceback (most recent call last):
    ...
    TypeError: agent() got an unexpected keyword argument 'tunr' (did you mean 'turn'?)
    """
    for key in envelope:
        if key not in ENVELOPE_KEYS or key in fixed:
            if key in fixed:
                hint = f" ({method}() sets {key!r} itself)"
            else:
                hint = did_you_mean(key, ENVELOPE_KEYS, cutoff=0.5)
            raise TypeError(f"{method}() got an unexpected keyword argument {key!r}{hint}")
    fields = dict(envelope)
    for key in _STR_KEYS:
        if fields.get(key) is not None:
            check(key, must_be_str(fields[key]))
    if fields.get("wall_time") is not None and not isinstance(fields["wall_time"], str):
        check("wall_time", must_be_number(fields["wall_time"]))
    if fields.get("monotonic_time") is not None:
        check("monotonic_time", must_be_number(fields["monotonic_time"]))
    if fields.get("duration") is not None:
        check("duration", must_be_duration(fields["duration"]))
    entity_refs = fields.pop("entity_refs", ())
    if isinstance(entity_refs, str | Mapping):
        raise ValueError(f"'entity_refs' must be a list of strings (got {entity_refs!r})")
    entity_refs = tuple(entity_refs)
    for ref in entity_refs:
        check("entity_refs", must_be_str(ref))
    fields["entity_refs"] = entity_refs
    if fields.get("turn") is not None:
        check("turn", must_be_int(fields["turn"]))
    return fields


__all__ = [
    "ENVELOPE_KEYS",
    "CommonEnvelope",
    "Envelope",
    "StatusEnvelope",
    "as_button",
    "as_json",
    "as_payload",
    "as_surfaces",
    "as_tools",
    "as_usage",
    "check",
    "check_envelope",
    "check_links",
    "choice",
]
