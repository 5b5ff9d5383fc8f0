"""OTLP/JSON decoding: typed attribute values, hex or base64 ids, integer or named enums,
nanosecond times as strings or integers.

Both shapes found in the wild are read: the OTLP/JSON specification's (hex ids, integer enums)
and protobuf ``MessageToDict``'s (base64 ids, enum names such as ``SPAN_KIND_CLIENT``).

>>> any_value({"intValue": "120"}), any_value({"arrayValue": {"values": [{"boolValue": True}]}})
(120, [True])
>>> otlp_id("MaFdqZhgZlQ="), otlp_id("31A15DA998606654")
('31a15da998606654', '31a15da998606654')
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator, Mapping
from typing import Any, Final

from agent_asserts.errors import AgentAssertsError
from agent_asserts.record.adapters._spans import Span, SpanEvent

SPAN_KINDS: Final = ("unspecified", "internal", "server", "client", "producer", "consumer")
"""OTel span kinds by their protobuf number."""

_HEX: Final = re.compile(r"[0-9a-fA-F]+")
_ID_BYTES: Final = (8, 16)


class BadSpan(AgentAssertsError, ValueError):
    """Why one span (or one of its parts) could not be read."""


def any_value(value: Any) -> Any:
    """An OTLP ``AnyValue`` as plain data (``intValue`` strings become ints).

    A plain JSON value (an exporter that writes attributes as a dict) is returned as it is.

    >>> any_value({"kvlistValue": {"values": [{"key": "a", "value": {"doubleValue": 1.5}}]}})
    {'a': 1.5}
    >>> any_value({}) is None
    True
    """
    if not isinstance(value, Mapping):
        return value
    if "stringValue" in value:
        return value["stringValue"]
    if "intValue" in value:
        raw = value["intValue"]
        try:
            return int(raw)
        except (TypeError, ValueError):
            raise BadSpan(f"intValue {raw!r} is not an integer") from None
    for key in ("boolValue", "doubleValue", "bytesValue"):
        if key in value:
            return value[key]
    if "arrayValue" in value:
        return [any_value(item) for item in _values(value["arrayValue"])]
    if "kvlistValue" in value:
        return attributes(_values(value["kvlistValue"]))
    if not value:
        return None
    return dict(value)


def _values(container: Any) -> list[Any]:
    values = container.get("values") if isinstance(container, Mapping) else None
    if values is not None and not isinstance(values, list):
        raise BadSpan(f"'values' must be a list (got {type(values).__name__})")
    return values or []


def attributes(raw: Any) -> dict[str, Any]:
    """A list of OTLP ``KeyValue`` (or an already plain mapping) as a dict.

    >>> attributes([{"key": "gen_ai.tool.name", "value": {"stringValue": "lookup"}}])
    {'gen_ai.tool.name': 'lookup'}
    """
    if raw is None:
        return {}
    if isinstance(raw, Mapping):
        return {str(key): any_value(value) for key, value in raw.items()}
    if not isinstance(raw, list):
        raise BadSpan(f"attributes must be a list of key/value objects (got {type(raw).__name__})")
    out: dict[str, Any] = {}
    for item in raw:
        if not isinstance(item, Mapping) or not isinstance(item.get("key"), str):
            raise BadSpan(f"an attribute must be an object with a string 'key' (got {item!r:.60})")
        out[item["key"]] = any_value(item.get("value"))
    return out


def otlp_id(value: Any) -> str | None:
    """A trace or span id as lower-case hex: from hex, base64 or an integer; None when empty.

    >>> otlp_id(""), otlp_id(4367525491550366967)
    (None, '3c9c914b5f52acf7')
    """
    if value is None or value == "":
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:016x}" if value < 2**64 else f"{value:032x}"
    if not isinstance(value, str):
        raise BadSpan(f"an id must be a string (got {type(value).__name__})")
    if len(value) in (16, 32) and _HEX.fullmatch(value):
        return value.lower()
    try:
        decoded = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        decoded = b""
    if len(decoded) in _ID_BYTES:
        return decoded.hex()
    raise BadSpan(f"the id {value!r} is neither hex nor base64 of 8 or 16 bytes")


def seconds(value: Any) -> float | None:
    """Epoch nanoseconds (a string or an integer) as epoch seconds; None when absent or 0.

    >>> seconds("1796080522579726488")
    1796080522.5797267
    """
    if value is None or value in ("", 0, "0"):
        return None
    try:
        return int(value) / 1e9
    except (TypeError, ValueError):
        raise BadSpan(f"the time {value!r} is not a number of nanoseconds") from None


def enum_name(value: Any, names: tuple[str, ...], prefix: str) -> str | None:
    """An OTLP enum as its short lower-case name, from its number or its protobuf name.

    >>> enum_name("SPAN_KIND_CLIENT", SPAN_KINDS, "SPAN_KIND_"), enum_name(1, SPAN_KINDS, "")
    ('client', 'internal')
    """
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return names[value] if 0 <= value < len(names) else str(value)
    if isinstance(value, str):
        return value.removeprefix(prefix).lower()
    raise BadSpan(f"expected an enum number or name (got {value!r:.40})")


def _status(raw: Any) -> tuple[bool, str | None]:
    if not isinstance(raw, Mapping):
        return False, None
    code = enum_name(raw.get("code"), ("unset", "ok", "error"), "STATUS_CODE_")
    message = raw.get("message")
    return code == "error", message if isinstance(message, str) and message else None


class Broken:
    """A container that is not what OTLP/JSON says it is, in place of its spans."""

    def __init__(self, reason: str) -> None:
        self.reason = reason


def decode_span(raw: Any, position: str, resource: Mapping[str, Any], scope: str | None) -> Span:
    """One OTLP/JSON span as a :class:`Span`.

    Raises:
        BadSpan: The span lacks an id or a name, or a field has the wrong shape.

    >>> span = decode_span({"spanId": "AAAAAAAAAAE=", "name": "chat", "kind": 3,
    ...                     "startTimeUnixNano": "2000000000"}, "spans[0]", {}, None)
    >>> span.span_id, span.kind, span.start
    ('0000000000000001', 'client', 2.0)
    """
    if isinstance(raw, Broken):
        raise BadSpan(raw.reason)
    if not isinstance(raw, Mapping):
        raise BadSpan(f"a span must be an object (got {type(raw).__name__})")
    try:
        return _decode(raw, position, resource, scope)
    except BadSpan:
        raise
    except (TypeError, AttributeError, ValueError) as exc:
        raise BadSpan(f"unreadable span: {type(exc).__name__}: {exc}") from None


def _decode(raw: Mapping[str, Any], position: str, resource: Mapping[str, Any], scope: Any) -> Span:
    span_id = otlp_id(raw.get("spanId", raw.get("span_id")))
    name = raw.get("name")
    if span_id is None:
        raise BadSpan("the span has no spanId")
    if not isinstance(name, str):
        raise BadSpan("the span has no name")
    error, message = _status(raw.get("status"))
    events = []
    if not isinstance(raw.get("events") or [], list):
        raise BadSpan("events must be a list")
    for event in raw.get("events") or ():
        if not isinstance(event, Mapping):
            raise BadSpan(f"a span event must be an object (got {type(event).__name__})")
        time = seconds(event.get("timeUnixNano"))
        events.append(
            SpanEvent(str(event.get("name", "")), time, attributes(event.get("attributes")))
        )
    return Span(
        span_id=span_id,
        parent_id=otlp_id(raw.get("parentSpanId", raw.get("parent_span_id"))),
        name=name,
        position=position,
        start=seconds(raw.get("startTimeUnixNano")),
        end=seconds(raw.get("endTimeUnixNano")),
        trace_id=otlp_id(raw.get("traceId", raw.get("trace_id"))),
        attributes=attributes(raw.get("attributes")),
        events=tuple(events),
        error=error,
        error_message=message,
        kind=enum_name(raw.get("kind"), SPAN_KINDS, "SPAN_KIND_"),
        resource=resource,
        scope=scope if isinstance(scope, str) else None,
    )


def iter_raw_spans(data: Any, where: str = "") -> Iterator[tuple[str, Any, dict[str, Any], Any]]:
    """``(position, span, resource attributes, scope)`` for every span of an OTLP/JSON export.

    ``data`` is an ``ExportTraceServiceRequest`` (``{"resourceSpans": [...]}``, older files
    say ``instrumentationLibrarySpans``), a list of them (a collector's file, line by line), or
    a ``{"resourceSpans"…}`` already split into one resource.

    >>> export = {"resourceSpans": [{"scopeSpans": [{"spans": [{"name": "x"}]}]}]}
    >>> [(where, span["name"]) for where, span, _, _ in iter_raw_spans(export)]
    [('resourceSpans[0].scopeSpans[0].spans[0]', 'x')]
    """
    if isinstance(data, list):
        for index, item in enumerate(data):
            yield from iter_raw_spans(item, f"{where}[{index}].")
        return
    if not isinstance(data, Mapping):
        yield where.rstrip("."), Broken("an export must be an object"), {}, None
        return
    for r_index, resource_spans in enumerate(_list(data.get("resourceSpans"))):
        r_where = f"{where}resourceSpans[{r_index}]"
        if not isinstance(resource_spans, Mapping):
            yield r_where, Broken("resourceSpans items must be objects"), {}, None
            continue
        resource = resource_spans.get("resource")
        try:
            raw_attributes = resource.get("attributes") if isinstance(resource, Mapping) else None
            resource_attributes = attributes(raw_attributes)
        except BadSpan as exc:
            yield f"{r_where}.resource", Broken(str(exc)), {}, None
            resource_attributes = {}
        key = "scopeSpans" if "scopeSpans" in resource_spans else "instrumentationLibrarySpans"
        for s_index, scope_spans in enumerate(_list(resource_spans.get(key))):
            s_where = f"{r_where}.{key}[{s_index}]"
            if not isinstance(scope_spans, Mapping):
                yield s_where, Broken(f"{key} items must be objects"), {}, None
                continue
            scope = scope_spans.get("scope") or scope_spans.get("instrumentationLibrary")
            name = scope.get("name") if isinstance(scope, Mapping) else None
            for index, span in enumerate(_list(scope_spans.get("spans"))):
                yield f"{s_where}.spans[{index}]", span, resource_attributes, name


def _list(value: Any) -> list[Any]:
    """A list, or the one malformed item that stands for a value that should be a list."""
    if value is None:
        return []
    return value if isinstance(value, list) else [Broken(f"expected a list (got {value!r:.40})")]


__all__ = [
    "SPAN_KINDS",
    "BadSpan",
    "Broken",
    "any_value",
    "attributes",
    "decode_span",
    "enum_name",
    "iter_raw_spans",
    "otlp_id",
    "seconds",
]
