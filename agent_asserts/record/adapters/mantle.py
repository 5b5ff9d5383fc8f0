"""Mantle tracker events → :class:`~agent_asserts.record.TrialRecord`.

Two row forms are read, and a file may mix them:

* **flat** — ``{"event": "bot", "timestamp": …, "text": …, "metadata": {…}, …}``;
* **nested** (persisted) — an envelope (``conversation_id``, ``timestamp``, ``event_id``,
  ``sequence``, ``metadata``…) with exactly one payload key naming the event type
  (``{"sequence": 4, "memory_set": {"key": "a.b", "value_json": "true"}}``).

In both, string fields named ``*_json`` (``value_json``, ``arguments_json``, ``result_json``)
are decoded into the field without the suffix. Mapping:

========================================  ===================================================
Mantle event                              record event
========================================  ===================================================
``user``                                  ``message``, actor ``user``, ``text``
``bot``                                   ``message``, actor ``agent``; ``text``,
                                          ``data.buttons`` → buttons,
                                          ``metadata.utter_action`` → ``utter_name``
``memory_set`` / ``memory_cleared``       ``memory`` ``set`` (``key``, ``value``) / ``clear``
``tool_executed``                         ``tool_call``: ``tool_name``, ``arguments``,
                                          ``result``, ``is_error``, ``error_message``,
                                          ``source`` (default ``local``), ``mcp_server``,
                                          ``metadata.skill_id`` → ``skill_id``
``skill_<transition>``                    ``skill`` with ``skill_id``, ``step_id``
``ordered_block_<transition>``            ``ordered_block`` with ``skill_id``, ``block_id``,
                                          ``step_id``
any other type                            a generic event of that kind (``mantle_`` prefixed
                                          if it would clash with a typed kind), payload kept
========================================  ===================================================

``timestamp`` becomes ``wall_time``, ``event_id`` the event id (``e{n}`` when absent or
repeated), ``conversation_id`` the ``correlation_id``; other fields are kept in the payload's
``extra``. Events keep the input order. Turns are derived by the record with Mantle's rule (a
user event opens a turn only when its text is non-empty and does not start with ``/``). A row
that cannot be decoded becomes a :class:`~agent_asserts.record.ParseError` on the record, so
every input row is either an event or a parse error.

>>> rec = to_record([
...     {"event": "user", "text": "/session_start"},
...     {"event": "user", "text": "my card is damaged"},
...     {"conversation_id": "c1", "sequence": 3,
...      "tool_executed": {"tool_name": "order_replacement", "source": "local",
...                        "arguments_json": "{\\"shipping\\": \\"standard\\"}"}},
...     {"event": "memory_set"},
... ])
>>> [(e.kind, e.turn) for e in rec.events]
[('message', 0), ('message', 1), ('tool_call', 1)]
>>> rec.events[2].payload.arguments, [str(p) for p in rec.parse_errors]
({'shipping': 'standard'}, ["[3]: memory_set: 'key' must be a non-empty string (got nothing)"])

**Rows.** :func:`decode_row` decodes one Mantle tracker row (flat or nested form) into an
:class:`Event`, by the mapping above. A row that cannot be decoded raises :class:`Undecodable`
with the reason its parse error shows.

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
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Final

from agent_asserts._values import MISSING, depth_message, json_path, too_deep
from agent_asserts.errors import AgentAssertsError
from agent_asserts.record.adapters._registry import depth_checked
from agent_asserts.record.errors import ParseError, Problem, RecordError
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
from agent_asserts.record.parsing import parse_json, read_text, strict_loads, syntax_error
from agent_asserts.record.trial import TrialRecord

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


FORMAT: Final = "mantle"
"""The name this module is registered under (the record-format registry finds it)."""
ORDER: Final = 20
"""Its place among the built-in formats (their listing and error-message order)."""

MANTLE_SURFACES: Final = frozenset({"message", "tool_call", "memory", "skill", "ordered_block"})
"""The kinds a Mantle tracker records (a check needing another kind is ``invalid``)."""


def _own_id(row: Any) -> str | None:
    raw = row.get("event_id") if isinstance(row, Mapping) else None
    if isinstance(raw, int) and not isinstance(raw, bool):
        raw = str(raw)
    return raw if isinstance(raw, str) and raw else None


def convert(
    rows: Sequence[tuple[str, Any]], *, source: str | None = None
) -> tuple[list[Event], list[ParseError]]:
    """Decode ``(position, row)`` pairs into events and parse errors (one each per row).

    >>> events, errors = convert([("line 1", {"event": "session_started"}), ("line 2", 7)])
    >>> [e.kind for e in events], [str(p) for p in errors]
    (['session_started'], ['line 2: a tracker event must be an object (got int)'])
    """
    taken = {i for i in (_own_id(row) for _, row in rows) if i is not None}
    used: set[str] = set()
    events: list[Event] = []
    errors: list[ParseError] = []
    for position, row in rows:
        event_id = _own_id(row)
        if event_id is None or event_id in used:
            n, event_id = len(events), f"e{len(events)}"
            while event_id in taken or event_id in used:
                n += 1
                event_id = f"e{len(events)}_{n}"
        try:
            event = decode_row(row, event_id)
        except Undecodable as exc:
            kind = _kind_hint(row)
            errors.append(ParseError(position, f"{kind}{exc}", row, source))
            continue
        used.add(event_id)
        events.append(event)
    return events, errors


def _kind_hint(row: Any) -> str:
    if isinstance(row, Mapping) and isinstance(row.get("event"), str) and row["event"]:
        return f"{row['event']}: "
    return ""


def to_record(
    data: Any,
    *,
    source: str | None = None,
    surfaces: Iterable[str] | None = MANTLE_SURFACES,
    initial_state: Any = None,
) -> TrialRecord:
    """A record from tracker events already parsed from JSON.

    Args:
        data: A list of tracker events, or a tracker dump ``{"events": [...], …}`` (its other
            keys go to ``record.metadata``).
        source: A name shown in parse errors (a file name).
        surfaces: The kinds the tracker recorded (default: :data:`MANTLE_SURFACES`).
        initial_state: S0, if known (the Mantle loader puts ``setup.initial_slots`` there).

    Raises:
        RecordError: ``data`` is neither a list nor a mapping with an ``events`` list.

    >>> to_record({"sender_id": "u1", "events": [{"event": "bot", "text": "Hi"}]}).reply
    'Hi'
    """
    metadata: dict[str, Any] = {}
    if isinstance(data, Mapping) and isinstance(data.get("events"), list):
        metadata = {k: v for k, v in data.items() if k != "events"}
        data = data["events"]
    if not isinstance(data, list):
        message = "expected a list of Mantle tracker events or {'events': [...]}"
        raise RecordError([Problem("$", f"{message} (got {type(data).__name__})", source)])
    events, errors = convert([(f"[{i}]", row) for i, row in enumerate(data)], source=source)
    return _record(events, errors, surfaces, initial_state, metadata)


def read(path: str | os.PathLike[str], **options: Any) -> TrialRecord:
    """A record from a file: a JSON document (list or ``{"events": […]}``) or JSON Lines.

    A file whose text starts with ``[`` is one JSON array; one that is a single JSON object
    with an ``events`` list is a tracker dump; anything else is JSON Lines, one event per
    line (blank lines skipped), and a line that is not JSON is a parse error at its line.

    A JSON document or line is read strictly (as ``TrialRecord.load``): a duplicate key, a
    ``NaN``/``Infinity`` constant or a too long integer is a ``RecordError`` for a document
    and a parse error for a line.

    Raises:
        RecordError: A JSON array file with a syntax error (file, line and column), a JSON
            document that is not strict JSON, or a file that is not UTF-8.

    >>> import pathlib, tempfile
    >>> tmp = tempfile.TemporaryDirectory(); path = pathlib.Path(tmp.name, "tracker.jsonl")
    >>> rows = ['{"event": "user", "text": "refund A1049"}', '{"event": "bot", "text": "Done"}']
    >>> _ = path.write_text("\\n".join(rows))
    >>> rec = read(path); tmp.cleanup()
    >>> [(e.actor_ref, e.payload.text) for e in rec.events]
    [('user', 'refund A1049'), ('agent', 'Done')]
    """
    name, text = read_text(path)
    options.setdefault("source", name)
    stripped = text.lstrip()
    if stripped.startswith(("[", "{")):
        try:
            data = strict_loads(text, name)
        except json.JSONDecodeError as exc:
            if stripped.startswith("["):
                raise syntax_error(exc, name) from None
        else:
            if isinstance(data, list) or (isinstance(data, Mapping) and "events" in data):
                return next(_checked_to_records(data, **options))  # the depth limit of from_trace
    return _read_lines(text, **options)


def _read_lines(
    text: str,
    *,
    source: str | None = None,
    surfaces: Iterable[str] | None = MANTLE_SURFACES,
    initial_state: Any = None,
) -> TrialRecord:
    rows: list[tuple[str, Any]] = []
    bad: list[tuple[int, ParseError]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = parse_json(line)
            where = too_deep(row)
            if where is not None:  # one line past the limit of nesting: that line is lost
                raise RecordError([Problem(json_path(where), depth_message())])
            rows.append((f"line {number}", row))
        except RecordError as exc:
            reason = "; ".join(_line_reason(problem) for problem in exc.problems)
            bad.append((number, ParseError(f"line {number}", reason, line, source)))
    events, errors = convert(rows, source=source)
    numbered = [*bad, *((int(e.position.removeprefix("line ")), e) for e in errors)]
    ordered = [error for _, error in sorted(numbered, key=lambda item: item[0])]
    return _record(events, ordered, surfaces, initial_state, {})


def _line_reason(problem: Problem) -> str:
    """``not JSON: <what> (column N)`` for a syntax error; the path and what for the rest."""
    message = problem.message.removeprefix("invalid JSON: ")
    if problem.source:  # a syntax error: "line:column"
        return f"not JSON: {message} (column {problem.source.rpartition(':')[2]})"
    return f"not JSON: {problem.path}: {message}" if problem.path else f"not JSON: {message}"


_SAMPLE: Final = 3
_ROW_ENVELOPE: Final = frozenset({"conversation_id", "timestamp", "event_id", "sequence"})


def is_row(row: Any) -> bool:
    """Whether ``row`` has the shape of one tracker event (flat or nested form).

    >>> is_row({"event": "bot", "text": "hi"}), is_row({"sequence": 2, "bot": {"text": "hi"}})
    (True, True)
    >>> is_row({"role": "user", "content": "hi"})
    False
    """
    if not (type(row) is dict or isinstance(row, Mapping)):
        return False
    if "event" in row:
        return isinstance(row["event"], str) and "kind" not in row
    others = [key for key in row if key not in ENVELOPE_KEYS]
    return (
        len(others) == 1
        and isinstance(row[others[0]], Mapping)
        and bool(row.keys() & _ROW_ENVELOPE)
    )


def detect(data: Any) -> bool:
    """Whether ``data`` is Mantle tracker data: a list of events, a dump ``{"events": [...]}``
    with tracker events, or one event (the first line of a JSON Lines file).

    >>> detect([{"event": "user", "text": "hi"}]), detect({"events": [{"event": "bot"}]})
    (True, True)
    >>> detect({"events": [{"kind": "message", "payload": {}}]})
    False
    """
    if (type(data) is dict or isinstance(data, Mapping)) and isinstance(data.get("events"), list):
        data = data["events"]
    if isinstance(data, list):
        return bool(data) and all(is_row(row) for row in data[:_SAMPLE])
    return is_row(data)


def to_records(data: Any, **options: Any) -> Iterator[TrialRecord]:
    """The one record of a tracker document (see :func:`to_record`); one event alone is a
    run of one event.

    >>> [rec.reply for rec in to_records({"event": "bot", "text": "hi"})]
    ['hi']
    """
    yield to_record([data] if is_row(data) else data, **options)


def read_records(path: str | os.PathLike[str], **options: Any) -> Iterator[TrialRecord]:
    """The one record of a tracker file (JSON or JSON Lines; see :func:`read`).

    Data nested past the limit of nesting never reaches the record (as for
    ``TrialRecord.from_trace``): a JSON document is refused with a ``RecordError`` at its
    path, a JSON Lines line is a parse error of its line.
    """
    yield read(path, **options)


_checked_to_records: Final = depth_checked(FORMAT, to_records)


def _record(
    events: list[Event],
    errors: list[ParseError],
    surfaces: Iterable[str] | None,
    initial_state: Any,
    metadata: dict[str, Any],
) -> TrialRecord:
    fields: dict[str, Any] = {"parse_errors": tuple(errors), "metadata": metadata}
    return TrialRecord(events=events, initial_state=initial_state, surfaces=surfaces, **fields)


__all__ = [
    "ENVELOPE_KEYS",
    "MANTLE_SURFACES",
    "convert",
    "detect",
    "is_row",
    "read",
    "read_records",
    "to_record",
    "to_records",
]
