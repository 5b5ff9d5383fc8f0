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

from agent_asserts._depth import MAX_DEPTH, depth_message, json_path, too_deep
from agent_asserts._values import MISSING
from agent_asserts.record._event_decode import (
    EventTooDeep,
    check_events,
    decode_events,
    unknown_keys,
)
from agent_asserts.record._fast import copied
from agent_asserts.record._lazy_events import PendingEvents
from agent_asserts.record._model_payload_decode import decode_usage
from agent_asserts.record._payload_fields import Problems
from agent_asserts.record._validators import (
    child,
    json_copy,
    must_be_int,
    must_be_list,
    must_be_object,
    must_be_str,
)
from agent_asserts.record.declared_tools import decode_tools
from agent_asserts.record.errors import Problem, RecordError
from agent_asserts.record.parse_errors import ParseError

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
    "tools",
    "parse_errors",
    "metadata",
)
"""The keys of a record in its canonical JSON form."""

_TOP_LEVEL_SET: Final = frozenset(TOP_LEVEL_KEYS)
_PARSE_ERROR_KEYS: Final = ("position", "reason", "item", "source")
_MISSING_FIELD: Final = "required field missing"


def _optional(
    data: Mapping[str, Any], key: str, check: Any, problems: Problems, path: str = "$"
) -> Any:
    value = data.get(key)
    if value is not None and (message := check(value)) is not None:
        problems.append((child(path, key), message))
        return None
    return value


def _string_list(raw: Any, path: str, problems: Problems) -> list[str]:
    if (message := must_be_list(raw)) is not None:
        problems.append((path, message))
        return []
    for i, item in enumerate(raw):
        if (message := must_be_str(item)) is not None:
            problems.append((child(path, i), message))
    return [item for item in raw if isinstance(item, str)]  # the rest is reported above


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
        unknown_keys(item, _PARSE_ERROR_KEYS, path, problems)
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


def _deep_outside_events(data: Mapping[str, Any]) -> bool:
    """Whether a member of the record other than its events list (whose events are measured
    as they are decoded, see :func:`decode_events`) is nested past the depth limit."""
    for key, value in data.items():
        if key == "events" and type(value) in (list, tuple):
            continue
        if too_deep(value, MAX_DEPTH - 1) is not None:
            return True
    return False


def _too_deep(data: Mapping[str, Any], source: str | None) -> RecordError:
    """The error naming the first container of the record nested past the depth limit."""
    deep = too_deep(data) or ()
    return RecordError([Problem(json_path(deep), depth_message(), source)])


def decode_record(data: Any, source: str | None = None, *, lazy: bool = False) -> dict[str, Any]:
    """Validate a record's dict form and decode it into ``TrialRecord`` keyword arguments.

    Args:
        data: The parsed JSON document.
        source: The file it came from (named in every problem), or None.
        lazy: Check the events but leave them unbuilt: ``events`` is then a
            :class:`~agent_asserts.record._lazy_events.PendingEvents` sharing the objects of
            ``data`` (which the caller must hand over: it parsed them and keeps no other
            reference), or ``()`` when there are none.

    Returns:
        The keyword arguments of ``TrialRecord``.

    Raises:
        RecordError: With every problem found, each with its JSON path.

    >>> sorted(decode_record({"events": [], "steps": 2}))  # doctest: +NORMALIZE_WHITESPACE
    ['errors', 'events', 'final_state', 'initial_state', 'metadata', 'parse_errors', 'reply',
     'status', 'steps', 'surfaces', 'tools', 'usage']
    """
    problems: Problems = []
    if not isinstance(data, Mapping):
        problems.append(("$", must_be_object(data) or ""))
        raise RecordError(Problem(p, m, source) for p, m in problems)
    if _deep_outside_events(data):
        raise _too_deep(data, source)
    unknown_keys(data, _TOP_LEVEL_SET, "$", problems)
    initial_state = json_copy(data.get("initial_state"), "$.initial_state", problems)
    final_state = json_copy(data.get("final_state"), "$.final_state", problems)
    status = _optional(data, "status", must_be_str, problems)
    reply = _optional(data, "reply", must_be_str, problems)
    steps = _optional(data, "steps", must_be_int, problems)
    usage = decode_usage(data.get("usage"), "$.usage", problems)
    errors: Any = data.get("errors", ())
    if (message := must_be_list(errors)) is not None:
        problems.append(("$.errors", message))
        errors = ()
    errors = tuple(json_copy(list(errors), "$.errors", problems))
    surfaces_raw = data.get("surfaces")
    surfaces = None
    if surfaces_raw is not None:
        surfaces = frozenset(_string_list(surfaces_raw, "$.surfaces", problems))
    raw_events = data.get("events", ())
    try:
        plan = check_events(raw_events, problems, None if lazy else copied)
    except EventTooDeep:
        raise _too_deep(data, source) from None
    tools_raw = data.get("tools")
    tools = None if tools_raw is None else decode_tools(tools_raw, problems)
    parse_errors = _parse_errors(data.get("parse_errors", ()), problems)
    metadata: Any = data.get("metadata", {})
    if (message := must_be_object(metadata)) is not None:
        problems.append(("$.metadata", message))
        metadata = {}
    metadata = json_copy(metadata, "$.metadata", problems)
    if problems:
        raise RecordError(Problem(p, m, source) for p, m in problems)
    events: Any = ()
    if plan:
        events = PendingEvents(raw_events, plan) if lazy else tuple(plan)
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
        "tools": tools,
    }


__all__ = ["TOP_LEVEL_KEYS", "decode_events", "decode_record"]
