"""The contract grammar (seed 002): its words, time bounds, and paths into selected items.

The words are here, in one place; the operators (``op`` and ``matcher``) are the keys of the
tables in :mod:`agent_asserts.contract.relations`.

>>> SOURCES[0], QUANTIFIERS, SEVERITIES[0]
('trace', ('every', 'some', 'none'), 'critical')

Time bounds: ``within: 500ms | 2s | 1.5m | <seconds>``.

>>> parse_within("500ms"), parse_within("2s"), parse_within("1.5m"), parse_within(3)
(0.5, 2.0, 90.0, 3.0)
>>> format_within(0.5), format_within(90.0)
('500ms', '90s')

Paths into selected items (``payload.arguments.amount``), ``extract`` and ``on`` fields.

An item path is dotted (``payload.items[0].sku``) or a JSON Pointer (``/payload/items/0/sku``);
it is read in an item's dict form (``Event.to_dict()``, ``DeltaEntry.to_dict()``, or the value
itself). ``entity_ref`` (and ``entity_refs``) in ``on:`` compares the refs as a set.

>>> parse_item_path("payload.items[0].sku")
('payload', 'items', 0, 'sku')
>>> read_path({"payload": {"items": [{"sku": "A-1"}]}}, ("payload", "items", 0, "sku"))
'A-1'
>>> parse_extract("set(payload.order_id)")
Extract(kind='set', path=('payload', 'order_id'))
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from decimal import Decimal
from typing import Any, Final

import attrs

from agent_asserts._text import did_you_mean
from agent_asserts._values import MISSING
from agent_asserts.record import DeltaEntry, Event, parse_pointer
from agent_asserts.record.event import ENVELOPE_FIELDS
from agent_asserts.selectors import ENVELOPE_FILTERS

SOURCES: Final = ("trace", "initial_state", "final_state", "delta")
STATE_SOURCES: Final = ("initial_state", "final_state")
QUANTIFIERS: Final = ("every", "some", "none")
SEVERITIES: Final = ("critical", "high", "medium", "low")
GATE_SEVERITIES: Final = ("critical", "high")
TRACE_WHERE: Final = ("kind", "event_type", *ENVELOPE_FILTERS)
DELTA_WHERE: Final = ("path", "op")
DELTA_OPS: Final = ("added", "removed", "changed")
BINDING_KEYS: Final = ("from", "where", "path", "extract")

REQUIRE_KEYS: Final = (
    "quantifier",
    "op",
    "left",
    "right",
    "on",
    "within",
    "matcher",
    "grounding",
    "custom",
)

ASSERTION_KEYS: Final = ("id", "severity", "when", "bind", "require", "allow_empty")
CONDITION_KEYS: Final = ("bind", "require")
CONTRACT_KEYS: Final = ("contract", "name", "assertions")
BIND_OPERATOR: Final = "$bind"


@attrs.frozen
class BindRef:
    """``{$bind: name}`` in ``right``: the value of another binding instead of a literal.

    >>> BindRef("refund_ids").to_data()
    {'$bind': 'refund_ids'}
    """

    name: str

    def to_data(self) -> dict[str, Any]:
        """The YAML/JSON form."""
        return {BIND_OPERATOR: self.name}


_DURATION = re.compile(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*(ms|s|m)\s*\Z")
_FACTORS = {"ms": 0.001, "s": 1.0, "m": 60.0}
FORMS = "a duration such as '500ms', '2s', '1.5m' or a number of seconds"


def parse_within(value: object) -> float:
    """Seconds from a duration string or a number of seconds (an inclusive bound, >= 0).

    Args:
        value: ``"500ms"``, ``"2s"``, ``"1.5m"``, or an int/float of seconds.

    Returns:
        The bound in seconds.

    Raises:
        ValueError: Anything else (a negative number, an unknown unit, a boolean).

    >>> parse_within("2 h")
    Traceback (most recent call last):
    ...
    ValueError: must be a duration such as '500ms', '2s', '1.5m' or a number of seconds (got '2 h')
    """
    seconds: float | None = None
    if isinstance(value, int | float) and not isinstance(value, bool):
        seconds = float(value)
    elif isinstance(value, str):
        match = _DURATION.match(value)
        if match is not None:
            seconds = float(match.group(1)) * _FACTORS[match.group(2)]
    if seconds is None or math.isnan(seconds) or math.isinf(seconds) or seconds < 0:
        raise ValueError(f"must be {FORMS} (got {value!r})")
    return seconds + 0.0  # -0.0 is 0.0


def format_within(seconds: float) -> str:
    """The shortest exact text for a bound: whole milliseconds below a second, else seconds.

    Args:
        seconds: A bound in seconds.

    Returns:
        Text that :func:`parse_within` reads back to the same number.

    >>> format_within(2.0), format_within(0.25), format_within(1.25)
    ('2s', '250ms', '1.25s')
    >>> format_within(1e20), parse_within(format_within(1e20)) == 1e20
    ('100000000000000000000s', True)
    """
    seconds += 0.0  # -0.0 is 0.0
    if 0 < seconds < 1:
        millis = seconds * 1000
        if float(round(millis)) == millis and parse_within(f"{round(millis)}ms") == seconds:
            return f"{round(millis)}ms"
    short = f"{seconds:g}s"
    if "e" not in short and parse_within(short) == seconds:
        return short
    return f"{Decimal(repr(seconds)):f}s"  # every digit, never an exponent (1e20, 1e-07)


ItemPath = tuple[str | int, ...]
_DOTTED = re.compile(r"[^.\[\]()]+|\[\d+\]")
_WHOLE = re.compile(r"[^.\[\]()]+(?:\.[^.\[\]()]+|\[\d+\])*\Z")
_SET = re.compile(r"set\((.*)\)\Z", re.DOTALL)
SET_FIELDS = frozenset({"entity_ref", "entity_refs"})
EVENT_FIELDS = frozenset(ENVELOPE_FIELDS) - SET_FIELDS - {"payload"}
"""Envelope fields read straight off an :class:`Event` (``on: [operation_ref]``)."""


def parse_item_path(text: str) -> ItemPath:
    """Split a dotted path or a JSON Pointer into keys and list indexes.

    Args:
        text: ``payload.arguments.amount``, ``items[2].sku`` or ``/payload/arguments/amount``.

    Returns:
        The parts (list indexes of the dotted form are ints).

    Raises:
        ValueError: An empty or malformed path.

    >>> parse_item_path("/payload/a~1b"), parse_item_path("entity_refs[1]")
    (('payload', 'a/b'), ('entity_refs', 1))
    >>> parse_item_path("a..b")
    Traceback (most recent call last):
    ...
    ValueError: must be a path such as 'payload.arguments.amount' (got 'a..b')

    A dotted path never holds ``(`` or ``)`` (``set(payload`` is a mistake, not a key); a
    JSON Pointer may hold any character.
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"must be a path such as 'payload.arguments.amount' (got {text!r})")
    if text.startswith("/"):
        return parse_pointer(text)
    if not _WHOLE.match(text):
        raise ValueError(f"must be a path such as 'payload.arguments.amount' (got {text!r})")
    return tuple(
        int(token[1:-1]) if token.startswith("[") else token for token in _DOTTED.findall(text)
    )


def read_path(value: Any, path: ItemPath) -> Any:
    """The value at ``path`` inside ``value``, or ``MISSING``.

    >>> read_path({"a": [1, 2]}, ("a", "1")), read_path({"a": 1}, ("b",))
    (2, MISSING)
    """
    current = value
    for part in path:
        if isinstance(current, Mapping):
            current = current.get(str(part), MISSING)
        elif isinstance(current, list | tuple):
            index = part if isinstance(part, int) else _index(part)
            if index is None or not 0 <= index < len(current):
                return MISSING
            current = current[index]
        else:
            return MISSING
        if current is MISSING:
            return MISSING
    return current


def _index(token: str) -> int | None:
    if token.isascii() and token.isdigit() and (token == "0" or not token.startswith("0")):
        return int(token)
    return None


def item_form(item: Any) -> Any:
    """What a relation sees of an item: an event's or delta entry's dict form, else the value.

    >>> item_form(DeltaEntry("/a", "added", after=1))
    {'path': '/a', 'op': 'added', 'after': 1}
    """
    if isinstance(item, Event | DeltaEntry):
        return item.to_dict()
    return item


@attrs.frozen
class Extract:
    """A parsed ``extract:``: ``kind`` is path, count, first, last or set.

    >>> Extract("count").single
    True
    """

    kind: str
    path: ItemPath | None = None

    @property
    def single(self) -> bool:
        """``count``, ``first`` and ``last`` give one value; a path or ``set(...)`` a selection."""
        return self.kind in ("count", "first", "last")


def parse_extract(text: str) -> Extract:
    """Read ``extract: <path> | count | first | last | set(<path>)``.

    Raises:
        ValueError: A malformed path or an empty ``set()``.

    >>> parse_extract("first"), parse_extract("payload.amount")
    (Extract(kind='first', path=None), Extract(kind='path', path=('payload', 'amount')))
    >>> parse_extract("set(payload")
    Traceback (most recent call last):
    ...
    ValueError: set( needs its closing ')': set(<path>) (got 'set(payload')
    """
    if text in ("count", "first", "last"):
        return Extract(text)
    match = _SET.match(text) if isinstance(text, str) else None
    if match is None and isinstance(text, str) and text.startswith("set("):
        raise ValueError(f"set( needs its closing ')': set(<path>) (got {text!r})")
    if match is not None:
        try:
            return Extract("set", parse_item_path(match.group(1).strip()))
        except ValueError:
            raise ValueError(
                f"set() takes a path such as 'set(payload.order_id)' (got {text!r})"
            ) from None
    try:
        return Extract("path", parse_item_path(text))
    except ValueError:
        raise ValueError(
            f"must be count, first, last, set(<path>) or a path such as "
            f"'payload.arguments.amount' (got {text!r})"
        ) from None


def event_path_problem(path: ItemPath, *, on: bool = False) -> str | None:
    """The problem of a path into an event, or None: its first part must be an envelope field
    or ``payload`` (or, in ``on:``, ``entity_ref``).

    Args:
        path: The parsed path (``extract`` or an ``on`` field).
        on: The path is an ``on`` field (``entity_ref`` is then allowed too).

    >>> print(event_path_problem(("Payload", "x")))  # doctest: +NORMALIZE_WHITESPACE
    unknown event field 'Payload' (did you mean 'payload'?);
    a path into an event starts with an envelope field or payload
    >>> print(event_path_problem(("operation_rf",), on=True))  # doctest: +NORMALIZE_WHITESPACE
    unknown event field 'operation_rf' (did you mean 'operation_ref'?);
    an on field of events is an envelope field, entity_ref or a payload path
    >>> event_path_problem(("payload", "text")) is None
    True
    """
    allowed = (*ENVELOPE_FIELDS, "entity_ref") if on else ENVELOPE_FIELDS
    first = path[0] if path else ""
    if isinstance(first, str) and first in allowed:
        return None
    hint = did_you_mean(str(first), allowed)
    rule = (
        "an on field of events is an envelope field, entity_ref or a payload path"
        if on
        else "a path into an event starts with an envelope field or payload"
    )
    return f"unknown event field {str(first)!r}{hint}; {rule}"


def field_value(item: Any, field: str, parts: ItemPath) -> Any:
    """The value of one ``on`` field of an item (``MISSING`` or ``None`` when not recorded).

    ``entity_ref`` / ``entity_refs`` give a frozenset; envelope fields are read from the event
    directly (fast); anything else is read as a path in the item's dict form.

    >>> e = Event("audit", {}, "e1", operation_ref="op-7", entity_refs=("order:A1",))
    >>> field_value(e, "operation_ref", ("operation_ref",)), field_value(e, "entity_ref", ())
    ('op-7', frozenset({'order:A1'}))
    """
    if isinstance(item, Event):
        if field in SET_FIELDS:
            return frozenset(item.entity_refs) if item.entity_refs else MISSING
        if field in EVENT_FIELDS:
            return getattr(item, field)
    elif field in SET_FIELDS and isinstance(item, Mapping):
        refs = item.get("entity_refs", MISSING)
        if isinstance(refs, list | tuple) and refs:
            return frozenset(hash_key(r) for r in refs)
        return MISSING
    return read_path(item_form(item), parts)


def hash_key(value: Any) -> Any:
    """A hashable key with JSON equality: ``True`` never equals ``1``, ``2`` equals ``2.0``.

    >>> hash_key(True) == hash_key(1), hash_key(2) == hash_key(2.0), hash_key({"a": [1]})
    (False, True, ('json', '{"a": [1]}'))
    """
    kind = type(value)
    if kind is str or kind is int or kind is float or kind is frozenset:
        return value
    if kind is bool:
        return ("bool", value)
    if value is None or isinstance(value, str | int | float | frozenset):
        return value
    try:
        return ("json", json.dumps(value, sort_keys=True, default=repr))
    except (TypeError, ValueError):
        return ("repr", repr(value))


__all__ = [
    "ASSERTION_KEYS",
    "BINDING_KEYS",
    "BIND_OPERATOR",
    "CONDITION_KEYS",
    "CONTRACT_KEYS",
    "DELTA_OPS",
    "DELTA_WHERE",
    "EVENT_FIELDS",
    "FORMS",
    "GATE_SEVERITIES",
    "QUANTIFIERS",
    "REQUIRE_KEYS",
    "SET_FIELDS",
    "SEVERITIES",
    "SOURCES",
    "STATE_SOURCES",
    "TRACE_WHERE",
    "BindRef",
    "Extract",
    "ItemPath",
    "event_path_problem",
    "field_value",
    "format_within",
    "hash_key",
    "item_form",
    "parse_extract",
    "parse_item_path",
    "parse_within",
    "read_path",
]
