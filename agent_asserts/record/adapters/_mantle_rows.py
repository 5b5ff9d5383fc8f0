"""Decoding one Mantle tracker row (flat or nested form) into an :class:`Event`.

Used by :mod:`agent_asserts.record.adapters.mantle`, which documents the mapping. A row that
cannot be decoded raises :class:`Undecodable` with the reason its parse error shows.

>>> decode_row({"event": "memory_cleared", "key": "a.b"}, "e0").event_type
'clear'
>>> try:
...     decode_row({"sequence": 1}, "e0")
... except Undecodable as exc:
...     print(exc)
expected 'event' or exactly one payload key (found none)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from agent_asserts._values import MISSING
from agent_asserts.errors import AgentAssertsError
from agent_asserts.record.event import (
    BLOCK_TRANSITIONS,
    PAYLOAD_KEYS,
    PAYLOAD_TYPES,
    SKILL_TRANSITIONS,
    TOOL_SOURCES,
    BlockPayload,
    Button,
    Event,
    MemoryPayload,
    MessagePayload,
    SkillPayload,
    ToolCallPayload,
)

ENVELOPE_KEYS: Final = frozenset(
    {"conversation_id", "timestamp", "event_id", "sequence", "metadata", "sender_id"}
)
"""Keys of the nested form's envelope; any other key holding a mapping is the payload."""


class Undecodable(AgentAssertsError):
    """A row that cannot become an event (its message is the parse error's reason)."""


def _str(fields: Mapping[str, Any], key: str, *, required: bool = True) -> str | None:
    value = fields.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or (required and not value):
        got = "nothing" if key not in fields else repr(value)
        raise Undecodable(f"{key!r} must be a non-empty string (got {got})")
    return value


def _split(row: Mapping[str, Any]) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """The event type, its fields and its envelope, for either row form."""
    if "event" in row:
        kind = row["event"]
        if not isinstance(kind, str) or not kind:
            raise Undecodable(f"'event' must be a non-empty string (got {kind!r})")
        envelope = {k: v for k, v in row.items() if k in ENVELOPE_KEYS}
        fields = {k: v for k, v in row.items() if k not in ENVELOPE_KEYS and k != "event"}
        return kind, fields, envelope
    payloads = [k for k, v in row.items() if k not in ENVELOPE_KEYS and isinstance(v, Mapping)]
    if len(payloads) != 1:
        found = ", ".join(repr(k) for k in payloads) or "none"
        raise Undecodable(f"expected 'event' or exactly one payload key (found {found})")
    kind = payloads[0]
    if not kind:
        raise Undecodable("the payload key must be a non-empty event type")
    envelope = {k: v for k, v in row.items() if k != kind}
    return kind, dict(row[kind]), envelope


def _decode_json_fields(fields: dict[str, Any]) -> None:
    for key in [k for k in fields if k.endswith("_json") and len(k) > 5]:
        text = fields.pop(key)
        target = key[:-5]
        if not isinstance(text, str):
            raise Undecodable(f"{key!r} must be a JSON string (got {text!r})")
        if target in fields:
            raise Undecodable(f"both {target!r} and {key!r} are given")
        try:
            fields[target] = json.loads(text)
        except json.JSONDecodeError as exc:
            raise Undecodable(f"{key!r} is not valid JSON: {exc.msg}") from None


def _metadata(fields: dict[str, Any], envelope: Mapping[str, Any]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for source in (envelope.get("metadata"), fields.get("metadata")):
        if isinstance(source, Mapping):
            merged.update(source)
        elif source is not None:
            raise Undecodable(f"'metadata' must be an object (got {source!r})")
    return merged


def _buttons(data: Any) -> tuple[Button, ...]:
    if data is None:
        return ()
    if not isinstance(data, Mapping):
        raise Undecodable(f"'data' must be an object (got {data!r})")
    raw = data.get("buttons") or []
    if not isinstance(raw, list):
        raise Undecodable(f"'data.buttons' must be a list (got {raw!r})")
    out = []
    for i, item in enumerate(raw):
        title = item.get("title") if isinstance(item, Mapping) else None
        payload = item.get("payload") if isinstance(item, Mapping) else None
        if not isinstance(title, str) or not (payload is None or isinstance(payload, str)):
            raise Undecodable(f"'data.buttons[{i}]' must be {{title, payload}} (got {item!r})")
        out.append(Button(title, payload))
    return tuple(out)


RESERVED: Final[Mapping[str, tuple[str, ...]]] = {
    kind: PAYLOAD_KEYS[kind]
    for kind in ("message", "memory", "tool_call", "skill", "ordered_block")
}
"""Canonical payload keys per kind: a Mantle field of that name kept in ``extra`` gets a
``mantle_`` prefix, so it never reads back as the typed field."""

_TOOL_FIELDS: Final = (
    "tool_name",
    "source",
    "is_error",
    "arguments",
    "result",
    "skill_id",
    "mcp_server",
    "error_message",
    "call_id",
)


def _extra(
    kind: str, fields: Mapping[str, Any], used: tuple[str, ...], rest: Mapping[str, Any]
) -> dict[str, Any]:
    """The fields not mapped onto the typed payload (and the envelope's leftovers)."""
    reserved = RESERVED.get(kind, ())
    out: dict[str, Any] = {}
    for key, value in fields.items():
        if key not in used:
            out[f"mantle_{key}" if key in reserved else key] = value
    for key, value in rest.items():
        out[f"envelope_{key}" if key in out or key in reserved else key] = value
    return out


def _payload(
    kind: str, fields: dict[str, Any], meta: dict[str, Any], rest: dict[str, Any]
) -> tuple[str, Any, str | None]:
    """``(record kind, payload, event_type)`` for one decoded Mantle event."""
    if meta:
        rest = {"metadata": meta, **rest}
    fields.pop("metadata", None)
    if kind in ("user", "bot"):
        text = fields.get("text")
        if text is not None and not isinstance(text, str):
            raise Undecodable(f"'text' must be a string (got {text!r})")
        extra = _extra("message", fields, ("text",), rest)
        if kind == "user":
            return "message", MessagePayload(text or "", extra=extra), None
        utter = meta.get("utter_action")
        utter_name = utter if isinstance(utter, str) else None
        buttons = _buttons(fields.get("data"))
        return "message", MessagePayload(text or "", utter_name, buttons, extra), None
    if kind in ("memory_set", "memory_cleared"):
        name = str(_str(fields, "key"))
        if kind == "memory_cleared":
            return (
                "memory",
                MemoryPayload(name, MISSING, _extra("memory", fields, ("key",), rest)),
                "clear",
            )
        if "value" not in fields:
            raise Undecodable("'value' (or 'value_json') is missing")
        extra = _extra("memory", fields, ("key", "value"), rest)
        return "memory", MemoryPayload(name, fields["value"], extra), "set"
    if kind == "tool_executed":
        return (
            "tool_call",
            _tool(fields, meta, _extra("tool_call", fields, _TOOL_FIELDS, rest)),
            None,
        )
    if kind.startswith("skill_") and kind[6:] in SKILL_TRANSITIONS:
        skill_id, step_id = _str(fields, "skill_id"), _str(fields, "step_id", required=False)
        extra = _extra("skill", fields, ("skill_id", "step_id"), rest)
        return "skill", SkillPayload(str(skill_id), step_id, extra), kind[6:]
    if kind.startswith("ordered_block_") and kind[14:] in BLOCK_TRANSITIONS:
        skill_id, block_id = _str(fields, "skill_id"), _str(fields, "block_id")
        step_id = _str(fields, "step_id", required=False)
        extra = _extra("ordered_block", fields, ("skill_id", "block_id", "step_id"), rest)
        return (
            "ordered_block",
            BlockPayload(str(skill_id), str(block_id), step_id, extra),
            kind[14:],
        )
    generic = f"mantle_{kind}" if kind in PAYLOAD_TYPES else kind
    return generic, _extra(generic, fields, (), rest), None


def _tool(fields: dict[str, Any], meta: dict[str, Any], extra: dict[str, Any]) -> ToolCallPayload:
    name = str(_str(fields, "tool_name"))
    source = fields.get("source", "local")
    if source not in TOOL_SOURCES:
        raise Undecodable(f"'source' must be 'local' or 'mcp' (got {source!r})")
    is_error = fields.get("is_error", False)
    if not isinstance(is_error, bool):
        raise Undecodable(f"'is_error' must be true or false (got {is_error!r})")
    arguments = fields.get("arguments")
    skill_id = meta.get("skill_id", fields.get("skill_id"))
    if skill_id is not None and not isinstance(skill_id, str):
        raise Undecodable(f"'metadata.skill_id' must be a string (got {skill_id!r})")
    optional = {key: _str(fields, key, required=False) for key in _TOOL_FIELDS[6:]}
    return ToolCallPayload(
        name,
        {} if arguments is None else arguments,
        fields.get("result"),
        is_error,
        source,
        optional["mcp_server"],
        skill_id,
        optional["call_id"],
        optional["error_message"],
        extra,
    )


def decode_row(row: Any, event_id: str) -> Event:
    """The event of one tracker row (``Undecodable`` when it cannot be decoded)."""
    if not isinstance(row, Mapping):
        raise Undecodable(f"a tracker event must be an object (got {type(row).__name__})")
    kind, fields, envelope = _split(row)
    _decode_json_fields(fields)
    meta = _metadata(fields, envelope)
    mapped = ("timestamp", "event_id", "conversation_id", "metadata")
    rest = {k: v for k, v in envelope.items() if k not in mapped}
    record_kind, payload, event_type = _payload(kind, fields, meta, rest)
    stamp = envelope.get("timestamp")
    conversation = envelope.get("conversation_id")
    return Event(
        record_kind,
        payload,
        event_id,
        event_type=event_type,
        wall_time=stamp if isinstance(stamp, str | int | float) and stamp is not True else None,
        actor_ref={"user": "user", "bot": "agent"}.get(kind),
        correlation_id=conversation if isinstance(conversation, str) else None,
    )


__all__ = ["ENVELOPE_KEYS", "RESERVED", "Undecodable", "decode_row"]
