"""What every trace adapter needs, written once: a :class:`TraceBuilder` that pairs calls with
results, parses JSON-string arguments, groups parallel calls, sums usage and derives the run
status; the readers of tool-call arguments and JSON-looking text (``parse_arguments``,
``json_or_text``, ``count``, shared with the span formats); small readers for timestamps; the
reading of trace files (one JSON document or JSON Lines); and :func:`record_of`, which makes an
adapter's record with the record's constructors (each value checked once).

Pairing: a result goes to the open call with its id; failing that, to the earliest open call of
the same name (a call or result without an id pairs by name and order). A call that never gets
a result is kept with ``outcome: "pending"``; a result that matches no call (its call trimmed
from the history) is a call whose arguments are not recorded, with the result's outcome and
``unpaired: True``. Every event lists the input positions it was made from in
``payload.trace_items``.

>>> b = TraceBuilder()
>>> _ = b.message("user", "refund A1", where="[0]")
>>> g = b.group()
>>> _ = b.call("lookup", '{"id": "A1"}', call_id="c1", group=g, where="[1].tool_calls[0]")
>>> _ = b.call("refund", '{"id": ', call_id="c2", group=g, where="[1].tool_calls[1]")
>>> _ = b.result("timeout", call_id="c2", is_error=True, where="[2]")
>>> _ = b.message("agent", "Sorry", where="[3]")
>>> rec = b.build()
>>> [(e.payload.name, e.payload.outcome, e.group_id) for e in rec.tool_calls]
[('lookup', 'pending', 'g1'), ('refund', 'failed', 'g1')]
>>> rec.tool_calls[1].payload.arguments_raw, [str(p) for p in rec.parse_errors]
('{"id": ', ['[1].tool_calls[1]: arguments are not valid JSON: Expecting value (column 8)'])
>>> rec.status, rec.reply
('incomplete', 'Sorry')

**Arguments.** Tool-call arguments as recorded: an object, a JSON string, or text that is not
JSON.

>>> parse_arguments('{"order_id": "A1049"}')
({'order_id': 'A1049'}, None, None)
>>> arguments, raw, problem = parse_arguments('{"order_id": "A1049"')
>>> arguments is MISSING, raw
(True, '{"order_id": "A1049"')
>>> print(problem)
arguments are not valid JSON: Expecting ',' delimiter (column 21)

**Trace files.** One JSON document, or JSON Lines (one document per line).

>>> import pathlib, tempfile
>>> tmp = tempfile.TemporaryDirectory(); path = pathlib.Path(tmp.name, "t.jsonl")
>>> _ = path.write_text('{"a": 1}\\n\\n{"a": 2}\\n')
>>> read_documents(path, "otel"); tmp.cleanup()
[{'a': 1}, {'a': 2}]
"""

from __future__ import annotations

import ast
import json
import math
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import UTC, datetime
from typing import Any, Final

from agent_asserts._values import MAX_DEPTH, MISSING
from agent_asserts.errors import AgentAssertsError
from agent_asserts.record.declared_tools import DeclaredTool
from agent_asserts.record.decoding import TOP_LEVEL_KEYS
from agent_asserts.record.errors import ParseError, Problem, RecordError
from agent_asserts.record.event import (
    DELEGATION_MODES,
    ENVELOPE_FIELDS,
    ERROR_OUTCOMES,
    KIND_EVENT_TYPES,
    PAYLOAD_KEYS,
    PAYLOAD_TYPES,
    STR_ENVELOPE_FIELDS,
    TOOL_OUTCOMES,
    USAGE_COUNTERS,
    DelegationPayload,
    Event,
    GuardrailPayload,
    MemoryPayload,
    MessagePayload,
    ModelCallPayload,
    ReasoningPayload,
    ToolCallPayload,
    TurnTracker,
    Usage,
    opens_turn,
)
from agent_asserts.record.parsing import load_json, parse_json, read_text, strict_loads
from agent_asserts.record.trial import TrialRecord
from agent_asserts.record.validators import OWN_EXTRA_KEYS, warn_suspicious

INVALID_JSON_KEY: Final = "INVALID_JSON"
"""The key Pydantic AI wraps argument text that is not JSON in (``{"INVALID_JSON": "…"}``)."""


def parse_arguments(value: Any) -> tuple[Any, str | None, str | None]:
    """``(arguments, arguments_raw, problem)`` for an arguments value.

    A JSON string is parsed; text that is not JSON gives ``MISSING`` arguments, the text as
    ``arguments_raw`` and a problem to record as a parse error. An empty string is ``{}``.
    Pydantic AI's ``{"INVALID_JSON": text}`` wrapper is read as the text it wraps.

    >>> parse_arguments({"INVALID_JSON": "{oops"})[0] is MISSING
    True
    >>> parse_arguments("")
    ({}, None, None)
    """
    if type(value) is not str:
        if isinstance(value, Mapping) and set(value) == {INVALID_JSON_KEY}:
            value = value[INVALID_JSON_KEY]
            if not isinstance(value, str):
                return MISSING, None, "arguments are not valid JSON"
        if not isinstance(value, str):
            return value, None, None
    if not value.strip():
        return {}, None, None
    try:
        parsed = _loads(value)
    except json.JSONDecodeError as exc:
        return MISSING, value, f"arguments are not valid JSON: {exc.msg} (column {exc.colno})"
    except RecursionError:
        return MISSING, value, "arguments are not valid JSON: nested too deeply"
    except ValueError as exc:  # NaN / Infinity, or an integer longer than Python converts
        reason = str(exc) if str(exc).endswith(_NOT_JSON) else "a number too long to read"
        return MISSING, value, f"arguments are not valid JSON: {reason}"
    if type(parsed) is dict and INVALID_JSON_KEY in parsed and len(parsed) == 1:
        return parse_arguments(parsed)
    return parsed, None, None


_NOT_JSON: Final = "is not a JSON value"


def _no_constant(name: str) -> Any:
    """Refuse a number JSON has not (``NaN``, ``Infinity``, ``-Infinity``)."""
    raise ValueError(f"{name} {_NOT_JSON}")


_DECODER: Final = json.JSONDecoder(parse_constant=_no_constant)
_BOM: Final = "Unexpected UTF-8 BOM (decode using utf-8-sig)"


def _loads(text: str) -> Any:
    """``json.loads(text, parse_constant=_no_constant)`` with one decoder made once (``loads``
    makes a decoder per call when given an option), the same errors included.

    >>> _loads('{"a": [1]}')
    {'a': [1]}
    >>> _loads("\ufeff{}")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    json.decoder.JSONDecodeError: Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 ...
    """
    if text.startswith("\ufeff"):
        raise json.JSONDecodeError(_BOM, text, 0)
    return _DECODER.decode(text)


def _json_value(text: str) -> Any:
    """The JSON value of ``text``, or ``MISSING`` (not JSON, a non-finite number, a number
    too long or a document too deep to read)."""
    try:
        return _loads(text)
    except (ValueError, RecursionError):  # a JSONDecodeError, NaN, a number too long
        return MISSING


def json_or_text(value: Any) -> Any:
    """A recorded value: text holding a JSON object or array parsed, anything else as it is
    (text with ``NaN`` or ``Infinity``, which JSON has not, stays text).

    >>> json_or_text('{"status": "paid"}'), json_or_text("paid"), json_or_text("[oops")
    ({'status': 'paid'}, 'paid', '[oops')
    >>> json_or_text('{"v": NaN}')
    '{"v": NaN}'
    """
    if isinstance(value, str) and value.lstrip()[:1] in ("{", "["):
        parsed = _json_value(value)
        return value if parsed is MISSING else parsed
    return value


LITERAL_LIMIT: Final = 1_000_000
"""The longest tool-result text read as a Python literal (longer text stays text)."""
_LITERAL_DEPTH: Final = 100
"""The deepest bracket nesting read as a Python literal (deeper text stays text)."""


def _bracket_depth(text: str) -> int:
    depth = deepest = 0
    for char in text:
        if char in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in ")]}":
            depth -= 1
    return deepest


def _literal_data(value: Any) -> Any:
    """A Python literal's value as JSON data (tuples as lists), or ``MISSING`` when it holds
    what JSON has not (sets, bytes, complex or non-finite numbers, non-string keys)."""
    if value is None or isinstance(value, bool | str | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else MISSING
    if isinstance(value, list | tuple):
        items = [_literal_data(item) for item in value]
        return MISSING if any(item is MISSING for item in items) else items
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            data = _literal_data(item)
            if not isinstance(key, str) or data is MISSING:
                return MISSING
            out[key] = data
        return out
    return MISSING


def python_literal(text: str) -> Any:
    """The JSON data of text written as a Python literal (``repr`` of a dict or list:
    ``{'refundable': True}``), read with :func:`ast.literal_eval` — never evaluated — or
    ``MISSING`` when it is not one, holds what JSON has not, is longer than
    :data:`LITERAL_LIMIT` or nests brackets deeper than 100 levels.

    >>> python_literal("{'refundable': True, 'amount': 42, 'ids': (1, 2)}")
    {'refundable': True, 'amount': 42, 'ids': [1, 2]}
    >>> python_literal("{'a': __import__('os')}"), python_literal("{1, 2}")
    (MISSING, MISSING)
    """
    if len(text) > LITERAL_LIMIT or _bracket_depth(text) > _LITERAL_DEPTH:
        return MISSING
    try:
        value = ast.literal_eval(text.strip())
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return MISSING
    if not isinstance(value, dict | list | tuple):
        return MISSING
    return _literal_data(value)


def result_as_written(value: Any) -> tuple[Any, str | None]:
    """``(result, raw)`` for a tool result as a trace writes it: text holding a JSON object or
    array, or a Python ``dict``/``list`` literal (what the OpenAI Agents SDK writes with
    ``str()``), becomes that value and ``raw`` is the text; anything else is kept as it is
    (``raw`` None).

    >>> result_as_written("{'refundable': True, 'amount': 42}")
    ({'refundable': True, 'amount': 42}, "{'refundable': True, 'amount': 42}")
    >>> result_as_written('[1, 2]'), result_as_written("paid"), result_as_written({"a": 1})
    (([1, 2], '[1, 2]'), ('paid', None), ({'a': 1}, None))
    """
    if not isinstance(value, str) or value.lstrip()[:1] not in ("{", "["):
        return value, None
    try:  # _json_value: the text starts with a bracket, so with no byte-order mark
        parsed = _DECODER.decode(value)
    except (ValueError, RecursionError):  # a JSONDecodeError, NaN, a number too long
        parsed = MISSING
    if parsed is MISSING:
        parsed = python_literal(value)
    return (value, None) if parsed is MISSING else (parsed, value)


def count(value: Any) -> int | None:
    """A token count: a non-negative integer (an integral float or digit string too), else None.

    >>> count(12), count("12"), count(12.0), count(-1), count(True), count("x")
    (12, 12, 12, None, None, None)
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    return value if isinstance(value, int) and value >= 0 else None


def read_documents(path: str | os.PathLike[str], format_name: str) -> Any:
    """The file's JSON document, or the list of its JSON Lines documents.

    Raises:
        RecordError: The file is not UTF-8, or is neither JSON nor JSON Lines (naming the
            line and the format being read).
    """
    name, text = read_text(path)
    try:
        return strict_loads(text, name)
    except json.JSONDecodeError:
        pass
    documents = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            documents.append(parse_json(line))
        except RecordError as exc:
            reason = "; ".join(problem.message for problem in exc.problems)
            message = f"not a {format_name} JSON document or JSON Lines file: {reason}"
            raise RecordError([Problem(f"line {number}", message, name)]) from None
    return documents


def only_record(records: Iterable[TrialRecord], what: str, source: str | None) -> TrialRecord:
    """The one record of a document that holds one run (an empty one is an empty record).

    Raises:
        RecordError: The document holds several runs (``what``: ``traces``, ``histories``),
            naming their number and :func:`to_records`.

    >>> only_record([], "traces", None).events
    ()
    >>> only_record([TrialRecord(), TrialRecord()], "traces", "t.json")
    Traceback (most recent call last):
    ...
    agent_asserts.record.errors.RecordError: invalid record: 1 problem(s)
      t.json: $: the data holds 2 traces; read them with to_records() or iter_records()
    """
    found = list(records)
    if len(found) == 1:
        return found[0]
    if not found:
        return TrialRecord()
    message = f"the data holds {len(found)} {what}; read them with to_records() or iter_records()"
    raise RecordError([Problem("$", message, source)])


Where = str | Iterable[str]
"""One input position (``messages[3].tool_calls[0]``) or several."""

UNKNOWN_TOOL: Final = "<unknown>"
"""The name of a tool result whose call and name are both unknown."""


def seconds(value: Any, *, unit: str = "s") -> float | None:
    """A timestamp as epoch seconds: ISO 8601 text (UTC when it names no zone) or a number in
    ``unit`` (``s``, ``ms``, ``us``, ``ns``; numeric strings too). None for None.

    Raises:
        ValueError: A value that is no timestamp.

    >>> seconds("2026-01-02T03:04:05Z"), seconds(1767323045), seconds("1767323045000", unit="ms")
    (1767323045.0, 1767323045.0, 1767323045.0)
    """
    if value is None:
        return None
    scale = {"s": 1, "ms": 1e3, "us": 1e6, "ns": 1e9}[unit]
    if isinstance(value, bool):
        raise ValueError(f"not a timestamp: {value!r}")
    if isinstance(value, int | float):
        if not math.isfinite(value):
            raise ValueError(f"not a timestamp: {value!r}")
        return value / scale if scale != 1 else float(value)
    if isinstance(value, str):
        text = value.strip()
        try:
            return float(text) / scale
        except ValueError:
            pass
        try:
            moment = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
        except ValueError:
            raise ValueError(f"not a timestamp: {value!r}") from None
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        return moment.timestamp()
    raise ValueError(f"not a timestamp: {value!r}")


def usage(
    input_tokens: Any = None, output_tokens: Any = None, total_tokens: Any = None, **details: Any
) -> dict[str, Any] | None:
    """A canonical usage mapping from whatever counters are integers (others are left out);
    None when there is none.

    >>> usage(120, 30, cached_input_tokens=100, audio=None)
    {'input_tokens': 120, 'output_tokens': 30, 'details': {'cached_input_tokens': 100}}
    >>> usage(None, None) is None
    True
    """
    out: dict[str, Any] = {}
    for key, value in (
        ("input_tokens", input_tokens),
        ("output_tokens", output_tokens),
        ("total_tokens", total_tokens),
    ):
        count = _count(value)
        if count is not None:
            out[key] = count
    extra = {key: c for key, value in details.items() if (c := _count(value)) is not None}
    if extra:
        out["details"] = extra
    return out or None


def content_text(
    content: Any, types: tuple[str, ...] = ("text", "input_text", "output_text")
) -> str:
    """The text of a message content: a string, or the joined text of a list of parts (strings
    or ``{"type": "text", "text": ...}``); other parts are left out.

    >>> content_text([{"type": "text", "text": "a"}, {"type": "image"}, "b"]), content_text(None)
    ('a\\nb', '')
    """
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, Mapping) and part.get("type") in types:
                text = part.get("text")
                if isinstance(text, str):
                    parts.append(text)
        return "\n".join(parts)
    return ""


ERROR_PREFIXES: Final = ("Error:", "Error ", "ERROR:", "error:")
"""Tool output starting with one of these is read as a failure by formats without an error
flag (OpenAI Chat and Responses, MCP-less logs); an adapter option turns it off."""


def tool_error(result: Any) -> str | None:
    """The error message a tool result carries by convention, or None: text starting with
    ``Error:`` (:data:`ERROR_PREFIXES`), or an object whose only key is ``error`` or that has
    ``error`` and no ``output``/``result``.

    >>> tool_error("Error: gateway timed out"), tool_error({"error": "boom"}), tool_error("ok")
    ('Error: gateway timed out', 'boom', None)
    """
    if isinstance(result, str):
        return result if result.lstrip().startswith(ERROR_PREFIXES) else None
    if (
        (type(result) is dict or isinstance(result, Mapping))
        and result.get("error") not in (None, "")
        and not result.keys() & {"output", "result"}
    ):
        error = result["error"]
        return error if isinstance(error, str) else json.dumps(error)
    return None


def openai_usage(raw: Any) -> dict[str, Any] | None:
    """Usage in OpenAI's shapes (Chat ``prompt_tokens``/``completion_tokens``, Responses
    ``input_tokens``/``output_tokens``, with their ``*_details``): cached and reasoning counts
    go to ``details`` (``cached_input_tokens``, ``reasoning_tokens``…).

    >>> openai_usage({"prompt_tokens": 200, "completion_tokens": 15,
    ...               "prompt_tokens_details": {"cached_tokens": 100}})
    {'input_tokens': 200, 'output_tokens': 15, 'details': {'cached_input_tokens': 100}}
    >>> openai_usage({"prompt_tokens": 5, "prompt_tokens_details": "n/a"})
    {'input_tokens': 5}
    """
    if not (type(raw) is dict or isinstance(raw, Mapping)):
        return None
    details: dict[str, Any] = {}
    for key in ("prompt_tokens_details", "input_tokens_details"):  # a detail not an object:
        for name, value in mapping(raw.get(key)).items():  # no counters in it
            details["cached_input_tokens" if name == "cached_tokens" else f"input_{name}"] = value
    for key in ("completion_tokens_details", "output_tokens_details"):
        for name, value in mapping(raw.get(key)).items():
            details[name if name == "reasoning_tokens" else f"output_{name}"] = value
    return usage(
        raw.get("prompt_tokens", raw.get("input_tokens")),
        raw.get("completion_tokens", raw.get("output_tokens")),
        raw.get("total_tokens"),
        **{k: v for k, v in details.items() if v and k not in USAGE_COUNTERS},
    )


def mapping(value: Any) -> Mapping[str, Any]:
    """``value`` when it is a mapping, else an empty one (for reading optional objects).

    >>> mapping({"a": 1}), mapping(None)
    ({'a': 1}, {})
    """
    if value is None:  # the commonest absent object: no ABC check
        return {}
    return value if type(value) is dict or isinstance(value, Mapping) else {}


def items(value: Any) -> list[Any]:
    """``value`` when it is a list, else an empty one.

    >>> items([1]), items("x")
    ([1], [])
    """
    return value if isinstance(value, list) else []


def tool_definitions(
    raw: Any, *, schema: str = "parameters", inside: str | None = None
) -> list[dict[str, Any]] | None:
    """Declared tools as ``record.tools`` entries (``name``, ``description``, ``parameters``):
    each item of ``raw`` (or its ``inside`` object) with a string ``name``, its JSON Schema read
    from the key ``schema``. None when ``raw`` is not a list.

    >>> tool_definitions([{"name": "t", "input_schema": {"type": "object"}}], schema="input_schema")
    [{'name': 't', 'parameters': {'type': 'object'}}]
    >>> tool_definitions([{"type": "function", "function": {"name": "f"}}], inside="function")
    [{'name': 'f'}]
    """
    if not isinstance(raw, list):
        return None
    out = []
    for item in raw:
        tool = mapping(mapping(item).get(inside)) if inside else mapping(item)
        if isinstance(tool.get("name"), str):
            entry: dict[str, Any] = {"name": tool["name"]}
            if "description" in tool:
                entry["description"] = tool["description"]
            if schema in tool:
                entry["parameters"] = tool[schema]
            out.append(entry)
    return out


def read_with(
    to_records: Callable[..., Iterator[TrialRecord]], path: str | os.PathLike[str], **options: Any
) -> TrialRecord:
    """The first run ``to_records`` reads from a JSON file (strictly parsed; ``source`` the
    file name unless given): the body of an adapter's ``read``."""
    name, data = load_json(path)
    options.setdefault("source", name)
    return next(to_records(data, **options))


def item_list(
    value: Any, what: str, source: str | None, *, single: Callable[[Any], bool] | None = None
) -> list[Any]:
    """``value`` as a run's list of items: a list as it is, one item ``single`` recognises
    (a whole response object) as a list of it; anything else is a ``RecordError`` at ``$``
    (``expected a list of {what}``).

    >>> item_list({"type": "message"}, "messages", None, single=lambda v: "type" in v)
    [{'type': 'message'}]
    >>> item_list(3, "Anthropic messages", "run.json")
    Traceback (most recent call last):
    ...
    agent_asserts.record.errors.RecordError: invalid record: 1 problem(s)
      run.json: $: expected a list of Anthropic messages
    """
    if single is not None and single(value):
        return [value]
    if not isinstance(value, list):
        raise RecordError([Problem("$", f"expected a list of {what}", source)])
    return value


def _count(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return value if isinstance(value, int) and value >= 0 else None


SUMMED: Final = "the sum over the model calls"
"""The ``reported_by`` of a run usage an adapter summed over its model calls."""


def summed_usage(usages: Iterable[Mapping[str, Any] | None]) -> dict[str, Any] | None:
    """A run's usage as the sum of its model calls' usage mappings (canonical, as
    :func:`usage` makes them) — only when **every** model call carries usage: a sum over some
    of them would undercount, so then (and when there is no model call) None. A named counter
    is summed only when every call has it (as ``record.run_usage`` does); ``details`` counters
    a call leaves out count as zero (adapters leave out zero counts). The one rule for every
    adapter, message lists and span trees alike (docs/record.md, *Partial data*).

    >>> summed_usage([{"input_tokens": 9, "output_tokens": 1}, {"input_tokens": 5}])
    {'input_tokens': 14, 'reported_by': 'the sum over the model calls'}
    >>> print(summed_usage([{"input_tokens": 9}, None]), summed_usage([]))
    None None
    """
    given = list(usages)
    parts = [part for part in given if part]
    if not parts or len(parts) < len(given):
        return None
    total: dict[str, Any] = {}
    for part in parts:
        _add_usage(total, part)
    for key in USAGE_COUNTERS:
        if key in total and not all(key in part for part in parts):
            del total[key]
    return {**total, "reported_by": SUMMED} if total else None


def _add_usage(total: dict[str, Any], part: Mapping[str, Any]) -> None:
    for key in ("input_tokens", "output_tokens", "total_tokens"):
        if key in part:
            total[key] = total.get(key, 0) + part[key]
    for key, value in part.get("details", {}).items():
        details = total.setdefault("details", {})
        details[key] = details.get(key, 0) + value


def _positions(where: Where) -> list[str]:
    return [where] if isinstance(where, str) else list(where)


class TraceBuilder:
    """Collects the canonical events of one run, then builds the :class:`TrialRecord`.

    Every method takes ``where`` (the input position or positions the event comes from) and
    envelope fields as keywords (``agent``, ``wall_time``, ``duration``, ``turn``,
    ``parent_id``, ``correlation_id``…); each returns the event's canonical dict, whose
    ``event_id`` (``e0``, ``e1``…) other events may name as ``parent_id``.

    Args:
        source: A file name shown in parse errors.
        format_name: The format to name in the record's ``metadata["format"]`` (what the
            readers give every record of a foreign format), or None to name none.

    >>> TraceBuilder(format_name="openai-chat").build(metadata={"run": 1}).metadata
    {'run': 1, 'format': 'openai-chat'}
    """

    def __init__(self, *, source: str | None = None, format_name: str | None = None) -> None:
        self.source = source
        self.format_name = format_name
        self.events: list[dict[str, Any]] = []
        self.parse_errors: list[dict[str, Any]] = []
        self._open: list[dict[str, Any]] = []
        self._groups = 0
        self.agent: str | None = None

    # -- events ------------------------------------------------------------------------------

    def add(
        self, kind: str, payload: dict[str, Any], *, where: Where, **envelope: Any
    ) -> dict[str, Any]:
        """An event of any kind (payload a plain mapping).

        >>> TraceBuilder().add("guardrail", {"name": "pii"}, where="[0]")
        {'kind': 'guardrail', 'event_id': 'e0', 'payload': {'name': 'pii', 'trace_items': ['[0]']}}
        """
        return self._add(kind, {**payload}, where, envelope)

    def _add(
        self, kind: str, payload: dict[str, Any], where: Where, envelope: Mapping[str, Any]
    ) -> dict[str, Any]:
        """:meth:`add` of a payload the builder made (its own dict, not copied again)."""
        payload["trace_items"] = [where] if type(where) is str else _positions(where)
        event: dict[str, Any] = {"kind": kind, "event_id": f"e{len(self.events)}"}
        for key, value in envelope.items():
            if value is not None:
                event[key] = value
        event["payload"] = payload
        self.events.append(event)
        return event

    def message(self, actor: str, text: str, *, where: Where, **envelope: Any) -> dict[str, Any]:
        """A message spoken by ``actor`` (``user``, ``agent``, ``system``…)."""
        return self._add("message", {"text": text}, where, {"actor_ref": actor, **envelope})

    def model_call(
        self,
        *,
        where: Where,
        model: str | None = None,
        provider: str | None = None,
        usage: Mapping[str, Any] | None = None,
        finish_reason: str | None = None,
        error_message: str | None = None,
        error_type: str | None = None,
        **envelope: Any,
    ) -> dict[str, Any]:
        """A model call; its usage counts towards the run's usage (unless the run gives one).
        The run's usage is that sum only when every model call carries usage."""
        payload: dict[str, Any] = {}
        if model is not None:
            payload["model"] = model
        if provider is not None:
            payload["provider"] = provider
        if finish_reason is not None:
            payload["finish_reason"] = finish_reason
        if error_message is not None:
            payload["error_message"] = error_message
        if error_type is not None:
            payload["error_type"] = error_type
        if usage:
            payload["usage"] = dict(usage)
        if error_message is not None or error_type is not None:
            payload["is_error"] = True
        return self._add("model_call", payload, where, envelope)

    def usage_of(self, event: Mapping[str, Any], usage: Mapping[str, Any] | None) -> None:
        """Give a model call made earlier (one of :meth:`model_call`'s events) the usage the
        trace reports after it (a final response beside the history); a call that already
        carries usage keeps it.

        >>> b = TraceBuilder()
        >>> call = b.model_call(where="[0]")
        >>> b.usage_of(call, {"input_tokens": 3, "output_tokens": 1})
        >>> b.build().usage.total_tokens
        4
        """
        payload = event["payload"]
        if not usage or "usage" in payload or event.get("kind") != "model_call":
            return
        payload["usage"] = dict(usage)

    def reasoning(
        self,
        text: str | None = None,
        *,
        where: Where,
        summary: str | None = None,
        redacted: bool = False,
        **envelope: Any,
    ) -> dict[str, Any]:
        """A reasoning / thinking block (its text, a summary, or redacted)."""
        payload: dict[str, Any] = {"redacted": redacted} if redacted else {}
        if text is not None:
            payload["text"] = text
        if summary is not None:
            payload["summary"] = summary
        return self._add("reasoning", payload, where, envelope)

    def delegation(
        self,
        subagent: str,
        *,
        where: Where,
        status: str = "completed",
        from_agent: str | None = None,
        mode: str | None = None,
        output: Any = None,
        **envelope: Any,
    ) -> dict[str, Any]:
        """A hand-off to (``mode="handoff"``) or a call of (``mode="tool"``) a sub-agent."""
        payload: dict[str, Any] = {"subagent": subagent}
        for key, value in (("from_agent", from_agent), ("mode", mode), ("output", output)):
            if value is not None:
                payload[key] = value
        return self._add("delegation", payload, where, {"event_type": status, **envelope})

    def switch_agent(self, agent: str | None, *, where: Where, mode: str = "handoff") -> None:
        """Note the agent now acting: when it changes to a named agent, a ``delegation`` event
        from the previous one (``from_agent``; None is the root agent)."""
        if agent is not None and agent != self.agent:
            status = "transferred" if mode == "handoff" else "completed"
            self.delegation(
                agent,
                where=where,
                status=status,
                from_agent=self.agent,
                mode=mode,
                agent=self.agent,
            )
        self.agent = agent

    def group(self) -> str:
        """A new group id for the calls of one model response (kept only when two or more
        events carry it)."""
        self._groups += 1
        return f"g{self._groups}"

    def call(
        self,
        name: str,
        arguments: Any = MISSING,
        *,
        where: Where,
        call_id: str | None = None,
        group: str | None = None,
        source: str = "local",
        mcp_server: str | None = None,
        extra: Mapping[str, Any] | None = None,
        **envelope: Any,
    ) -> dict[str, Any]:
        """A tool call, open until :meth:`result` pairs it. ``arguments`` may be data or a JSON
        string; ``MISSING`` means not recorded; invalid JSON is kept in ``arguments_raw`` and
        becomes a parse error at ``where``."""
        positions = where if type(where) is str else _positions(where)
        payload: dict[str, Any] = {"name": name, "source": source}
        if extra:
            payload.update(extra)
        parsed, raw, problem = parse_arguments(arguments)
        if parsed is not MISSING:
            payload["arguments"] = parsed
        if raw is not None:
            payload["arguments_raw"] = raw
        if problem is not None:
            self.error(positions if type(positions) is str else positions[0], problem, raw)
        if call_id is not None:
            payload["call_id"] = call_id
        if mcp_server is not None:
            payload["mcp_server"] = mcp_server
        event = self._add("tool_call", payload, positions, {"group_id": group, **envelope})
        self._open.append(event)
        return event

    def _find(self, call_id: str | None, name: str | None) -> dict[str, Any] | None:
        if call_id is not None:
            for event in self._open:
                if event["payload"].get("call_id") == call_id:
                    return event
            if name is None:  # an id that names no call, and no name to go by
                return None
        for event in self._open:
            payload = event["payload"]
            if call_id is not None and payload.get("call_id") is not None:
                continue
            if name is None or payload["name"] == name:
                return event
        return None

    def result(
        self,
        result: Any = None,
        *,
        where: Where,
        call_id: str | None = None,
        name: str | None = None,
        is_error: bool = False,
        error_message: str | None = None,
        error_type: str | None = None,
        outcome: str | None = None,
        wall_time: float | None = None,
        extra: Mapping[str, Any] | None = None,
        result_raw: str | None = None,
    ) -> dict[str, Any]:
        """The result of a call: paired by ``call_id``, else by ``name`` and order.
        ``outcome`` defaults to ``failed``/``succeeded`` from ``is_error``; ``result_raw`` is
        the text the result was read from (see :func:`result_as_written`).

        A result without a matching call (its call trimmed from the history: a context window,
        LangGraph's ``trim_messages``) is a tool call of its own whose arguments are not
        recorded, with the result's outcome and ``unpaired: True``:

        >>> b = TraceBuilder()
        >>> _ = b.result("Error: timed out", call_id="c9", is_error=True, where="[0]")
        >>> call = b.build().tool_calls[0].payload
        >>> call.name, call.arguments, call.outcome, call.extra["unpaired"]
        ('<unknown>', MISSING, 'failed', True)
        """
        event = self._find(call_id, name)
        fields: dict[str, Any] = {"result": result}
        if extra:
            fields.update(extra)
        if result_raw is not None:
            fields["result_raw"] = result_raw
        if error_message is not None:
            fields["error_message"] = error_message
        if error_type is not None:
            fields["error_type"] = error_type
        outcome = outcome or ("failed" if is_error else "succeeded")
        fields["is_error"] = outcome in ERROR_OUTCOMES
        fields["outcome"] = outcome
        if event is None:
            fields["unpaired"] = True
            if call_id is not None:
                fields["call_id"] = call_id
            return self._add("tool_call", {"name": name or UNKNOWN_TOOL, **fields}, where, {})
        self._open.remove(event)
        payload = event["payload"]
        payload.update(fields)
        if type(where) is str:
            payload["trace_items"].append(where)
        else:
            payload["trace_items"].extend(where)
        started = event.get("wall_time")
        if isinstance(started, int | float) and wall_time is not None and wall_time >= started:
            event.setdefault("duration", wall_time - started)
        return event

    def error(self, where: str, reason: str, item: Any = None) -> None:
        """An input item that could not be read (kept on the record's ``parse_errors``)."""
        self.parse_errors.append(ParseError(where, reason, item, self.source).to_dict())

    def time(self, value: Any, *, where: str, unit: str = "s") -> float | None:
        """:func:`seconds` of a timestamp the trace gives at ``where``; None when absent. A
        value that is no timestamp (``true``, ``"soon"``, an infinite number) is None and a
        parse error, never an exception.

        >>> b = TraceBuilder()
        >>> b.time(1767323045, where="$.created"), b.time(True, where="$.created")
        (1767323045.0, None)
        >>> [str(p) for p in b.build().parse_errors]
        ['$.created: not a timestamp: True']
        """
        try:
            return seconds(value, unit=unit)
        except ValueError as exc:
            self.error(where, str(exc), value)
            return None

    # -- the record --------------------------------------------------------------------------

    def derived_status(self, errors: Iterable[Any] = ()) -> str:
        """``failed`` when the run has errors, ``incomplete`` when a call has no result or the
        run does not end with an agent message, else ``completed``."""
        if list(errors):
            return "failed"
        if self._open:
            return "incomplete"
        for event in reversed(self.events):
            if event["kind"] == "message":
                return "completed" if event.get("actor_ref") == "agent" else "incomplete"
        return "incomplete"

    def build(
        self,
        *,
        status: str | None = None,
        usage: Mapping[str, Any] | None = None,
        errors: Iterable[Any] = (),
        metadata: Mapping[str, Any] | None = None,
        tools: Iterable[Mapping[str, Any]] | None = None,
        initial_state: Any = None,
        final_state: Any = None,
        surfaces: Iterable[str] | None = None,
    ) -> TrialRecord:
        """The record: open calls marked ``pending``, single-member groups dropped, the run's
        usage (when not given) the sum over model calls if every model call carries usage —
        otherwise none, so that a token budget is ``invalid`` rather than judged on part of
        the run — the status derived when not given. ``surfaces``: the kinds the format
        records, when it records fewer than all (a format without messages records no reply).

        >>> b = TraceBuilder()
        >>> _ = b.model_call(where="[0]")
        >>> _ = b.model_call(where="[1]", usage={"input_tokens": 9, "output_tokens": 1})
        >>> print(b.build().usage)
        None
        """
        errors = list(errors)
        status = status or self.derived_status(errors)
        for event in self._open:
            event["payload"].setdefault("outcome", "pending")
        counts: dict[str, int] = {}
        for event in self.events:
            if "group_id" in event:
                counts[event["group_id"]] = counts.get(event["group_id"], 0) + 1
        if 1 in counts.values():  # a group of one event is no group
            for event in self.events:
                if counts.get(event.get("group_id", ""), 0) == 1:
                    del event["group_id"]
        data: dict[str, Any] = {"events": self.events, "status": status}
        run_usage = dict(usage) if usage else None
        if run_usage is None:
            calls = (e["payload"].get("usage") for e in self.events if e["kind"] == "model_call")
            run_usage = summed_usage(calls)
        if run_usage:
            data["usage"] = run_usage
        if errors:
            data["errors"] = errors
        if self.parse_errors:
            data["parse_errors"] = self.parse_errors
        if self.format_name is not None:
            data["metadata"] = {**(metadata or {}), "format": self.format_name}
        elif metadata:
            data["metadata"] = dict(metadata)
        if tools is not None:
            data["tools"] = list(tools)
        if initial_state is not None:
            data["initial_state"] = initial_state
        if final_state is not None:
            data["final_state"] = final_state
        if surfaces is not None:
            data["surfaces"] = sorted(surfaces)
        return record_of(data, self.source)


# -- the record, built directly --------------------------------------------------------------


class _Recheck(AgentAssertsError):
    """A value the builder does not vouch for: :func:`record_of` leaves the whole record to
    ``TrialRecord.from_dict``, which names the problem at its JSON path."""


_DEEPEST: Final = MAX_DEPTH - 10
"""How deep a value may nest to be copied here; deeper ones (arguments parsed from text) are
left to the record's own depth check and its message."""

_TOP_KEYS: Final = frozenset(TOP_LEVEL_KEYS)
_EVENT_KEYS: Final = frozenset(ENVELOPE_FIELDS) - {"entity_refs"}
_STR_KEYS: Final = frozenset(STR_ENVELOPE_FIELDS)
_MESSAGE_KEYS: Final = frozenset(PAYLOAD_KEYS["message"])
_TOOL_KEYS: Final = frozenset(PAYLOAD_KEYS["tool_call"])
_TOOL_STR_KEYS: Final = frozenset(
    {"mcp_server", "skill_id", "call_id", "error_message", "error_type", "arguments_raw"}
)
_MODEL_KEYS: Final = frozenset(PAYLOAD_KEYS["model_call"])
_REASONING_KEYS: Final = frozenset(PAYLOAD_KEYS["reasoning"])
_DELEGATION_KEYS: Final = frozenset(PAYLOAD_KEYS["delegation"])
_GUARDRAIL_KEYS: Final = frozenset(PAYLOAD_KEYS["guardrail"])
_USAGE_KEYS: Final = frozenset({"input_tokens", "output_tokens", "total_tokens"})
_CONSTRAINED: Final = frozenset(KIND_EVENT_TYPES) - {"memory"}
"""Kinds whose ``event_type`` the record constrains, other than ``memory`` (the builder makes
none of them)."""
_MEMORY_KEYS: Final = frozenset(PAYLOAD_KEYS["memory"])


def _plain(value: Any, levels: int = _DEEPEST) -> Any:
    """A copy of JSON data (dicts with string keys, lists, scalars: exact types)."""
    kind = type(value)
    if kind is str or kind is int or kind is float or kind is bool or value is None:
        return value
    if levels < 1:
        raise _Recheck
    if kind is dict:
        out = {}
        for key, item in value.items():
            if type(key) is not str:
                raise _Recheck
            out[key] = item if type(item) in _SCALAR_TYPES else _plain(item, levels - 1)
        return out
    if kind is list:
        for item in value:
            if type(item) not in _SCALAR_TYPES:
                return [
                    item if type(item) in _SCALAR_TYPES else _plain(item, levels - 1)
                    for item in value
                ]
        return value[:]  # scalars only (the positions of ``trace_items``): copied whole
    raise _Recheck


_SCALAR_TYPES: Final = frozenset({str, int, float, bool, type(None)})
"""The types :func:`_plain` keeps as they are (a scalar inside a container needs no call)."""


def _text(value: Any, *, empty: bool = True) -> Any:
    """``value`` when it is None or a string (a non-empty one unless ``empty``)."""
    if value is None or (type(value) is str and (empty or value)):
        return value
    raise _Recheck


def _counter(value: Any) -> int:
    if type(value) is int and value >= 0:
        return value
    raise _Recheck


def _extra(raw: dict[str, Any], known: frozenset[str], position: int) -> dict[str, Any]:
    """The keys of the payload of event ``position`` outside its fields, as the record keeps
    them (warning on a key that looks like a misspelt field, as the record's decoding does)."""
    extra = {}
    for key, value in raw.items():  # a loop, not a comprehension: no function call
        if key not in known:
            extra[key] = value if type(value) in _SCALAR_TYPES else _plain(value)
    if not extra.keys() <= OWN_EXTRA_KEYS:  # the library's own extra keys are never asked about
        warn_suspicious(raw, known, f"$.events[{position}].payload")
    return extra


def _usage(raw: Any) -> Usage | None:
    if raw is None:
        return None
    if type(raw) is not dict or not raw.keys() <= _USAGE_KEYS | {"details", "reported_by"}:
        raise _Recheck
    details = raw.get("details", {})
    if type(details) is not dict or not all(type(key) is str for key in details):
        raise _Recheck
    return Usage(
        input_tokens=None if raw.get("input_tokens") is None else _counter(raw["input_tokens"]),
        output_tokens=None if raw.get("output_tokens") is None else _counter(raw["output_tokens"]),
        total_tokens=None if raw.get("total_tokens") is None else _counter(raw["total_tokens"]),
        details={key: _counter(value) for key, value in details.items()},
        reported_by=_text(raw.get("reported_by")),
    )


def _flag(value: Any) -> bool:
    if value is True or value is False:
        return value
    raise _Recheck


def _tool_call(raw: dict[str, Any], position: int) -> ToolCallPayload:
    arguments = raw.get("arguments", MISSING)
    if arguments is not MISSING:
        arguments = _plain(arguments)
    is_error = raw.get("is_error", MISSING)
    if is_error is not MISSING and is_error is not True and is_error is not False:
        raise _Recheck
    outcome = raw.get("outcome")
    if outcome is None:
        implied = is_error is True
        outcome = "failed" if implied else "succeeded"
    else:
        if outcome not in TOOL_OUTCOMES:
            raise _Recheck
        implied = outcome in ERROR_OUTCOMES
        if is_error is not MISSING and is_error is not implied:
            raise _Recheck  # a contradiction: the record names it
    source = raw.get("source", "local")
    if source != "local" and source != "mcp":
        raise _Recheck
    for key in raw.keys() & _TOOL_STR_KEYS:  # only the string fields present are looked at
        value = raw[key]
        if value is not None and type(value) is not str:
            raise _Recheck
    get = raw.get
    arguments_raw = get("arguments_raw")
    if arguments_raw is not None and arguments is not MISSING:
        raise _Recheck
    name = get("name")
    if type(name) is not str or not name:
        raise _Recheck
    result = get("result")
    return ToolCallPayload(
        name,
        arguments,
        result if type(result) is str or result is None else _plain(result),
        implied,
        source,
        get("mcp_server"),
        get("skill_id"),
        get("call_id"),
        get("error_message"),
        _extra(raw, _TOOL_KEYS, position),
        outcome,
        get("error_type"),
        arguments_raw,
    )


def _recheck() -> Any:
    raise _Recheck


def _memory(raw: dict[str, Any], position: int, event_type: Any) -> MemoryPayload:
    value = raw.get("value", MISSING)
    if value is MISSING:
        if event_type != "clear":
            raise _Recheck
    elif event_type != "set":
        raise _Recheck
    else:
        value = _plain(value)
    name = _text(raw.get("name"), empty=False) or _recheck()
    return MemoryPayload(name, value, _extra(raw, _MEMORY_KEYS, position))


def _payload(kind: str, raw: Any, position: int, event_type: Any) -> Any:
    if type(raw) is not dict:
        raise _Recheck
    if kind == "tool_call":
        return _tool_call(raw, position)
    if kind == "memory":
        return _memory(raw, position, event_type)
    if kind == "message":
        if "buttons" in raw or type(raw.get("text", "")) is not str:
            raise _Recheck
        text = raw.get("text", "")
        return MessagePayload(
            text, _text(raw.get("utter_name")), (), _extra(raw, _MESSAGE_KEYS, position)
        )
    if kind == "model_call":
        if raw.keys().isdisjoint(_MODEL_KEYS):  # a call the trace tells nothing about
            return ModelCallPayload(extra=_extra(raw, _MODEL_KEYS, position))
        return ModelCallPayload(
            _text(raw.get("model")),
            _text(raw.get("provider")),
            _usage(raw.get("usage")),
            _text(raw.get("finish_reason")),
            _flag(raw.get("is_error", False)),
            _text(raw.get("error_message")),
            _text(raw.get("error_type")),
            _extra(raw, _MODEL_KEYS, position),
        )
    if kind == "reasoning":
        return ReasoningPayload(
            _text(raw.get("text")),
            _text(raw.get("summary")),
            _flag(raw.get("redacted", False)),
            _extra(raw, _REASONING_KEYS, position),
        )
    if kind == "delegation":
        mode = raw.get("mode")
        if mode is not None and mode not in DELEGATION_MODES:
            raise _Recheck
        return DelegationPayload(
            _text(raw.get("subagent"), empty=False) or _recheck(),
            _plain(raw.get("output")),
            _extra(raw, _DELEGATION_KEYS, position),
            _text(raw.get("from_agent")),
            mode,
        )
    if kind == "guardrail":
        return GuardrailPayload(
            _text(raw.get("name"), empty=False) or _recheck(),
            _flag(raw.get("triggered")),
            _plain(raw.get("output")),
            _extra(raw, _GUARDRAIL_KEYS, position),
        )
    if kind in PAYLOAD_TYPES:  # a typed kind the builder does not make: the record decodes it
        raise _Recheck
    return _plain(raw)


_USUAL_KEYS: Final = frozenset(
    {"kind", "event_id", "payload", "actor_ref", "parent_id", "group_id", "agent"}
)
"""The envelope keys the builders write on most events; any other key is read by
:func:`_rare`."""
_RARE_STR_KEYS: Final = _STR_KEYS - _USUAL_KEYS
_NO_RARE: Final = (None,) * 12


def _rare(raw: dict[str, Any]) -> tuple[Any, ...]:
    """An event's envelope fields other than :data:`_USUAL_KEYS`, checked: ``wall_time``,
    ``monotonic_time``, ``duration``, ``turn``, ``event_type``, ``surface``, ``audience``,
    ``phase``, ``operation_ref``, ``correlation_id``, ``caused_by_event_id``, ``status``."""
    get = raw.get
    for key in raw.keys() & _RARE_STR_KEYS:  # each a string or None
        value = raw[key]
        if value is not None and type(value) is not str:
            raise _Recheck
    wall_time = get("wall_time")
    if not (wall_time is None or type(wall_time) in (str, int, float)):
        raise _Recheck
    monotonic_time = get("monotonic_time")
    if not (monotonic_time is None or type(monotonic_time) in (int, float)):
        raise _Recheck
    duration = get("duration")
    if duration is not None and not (type(duration) in (int, float) and 0 <= duration < math.inf):
        raise _Recheck
    turn = get("turn")
    if turn is not None:
        _counter(turn)
    return (
        wall_time,
        monotonic_time,
        duration,
        turn,
        _text(get("event_type")),
        get("surface"),
        get("audience"),
        get("phase"),
        get("operation_ref"),
        get("correlation_id"),
        get("caused_by_event_id"),
        get("status"),
    )


def _events(raw_events: list[Any]) -> list[Event]:
    tracker = TurnTracker()
    ids: set[str] = set()
    out = []
    for position, raw in enumerate(raw_events):
        if type(raw) is not dict:
            raise _Recheck
        usual_only = raw.keys() <= _USUAL_KEYS  # the commonest event: no rare field to read
        if not usual_only and not raw.keys() <= _EVENT_KEYS:
            raise _Recheck
        get = raw.get
        kind = get("kind")
        event_id = get("event_id")
        if type(kind) is not str or not kind or kind in _CONSTRAINED:
            raise _Recheck
        if type(event_id) is not str or not event_id or event_id in ids:
            raise _Recheck
        ids.add(event_id)
        actor_ref = get("actor_ref")
        parent_id = get("parent_id")
        group_id = get("group_id")
        agent = get("agent")
        if (
            (actor_ref is not None and type(actor_ref) is not str)
            or (parent_id is not None and type(parent_id) is not str)
            or (group_id is not None and type(group_id) is not str)
            or (agent is not None and type(agent) is not str)
        ):
            raise _Recheck
        if (parent_id is not None and parent_id not in ids) or parent_id == event_id:
            raise _Recheck  # only links to an earlier event are vouched for (no cycle)
        rare = _NO_RARE if usual_only else _rare(raw)
        event_type = rare[4]
        if event_type is None and kind == "delegation":
            event_type = "completed"
        raw_payload = get("payload", MISSING)  # no empty dict made for the default
        if raw_payload is MISSING:
            raw_payload = {}
        payload = _payload(kind, raw_payload, position, event_type)
        opens = kind == "message" and actor_ref == "user" and opens_turn(kind, actor_ref, payload)
        if usual_only:  # every rare field None: no need to read them from ``rare``
            event = Event(
                kind,
                payload,
                event_id,
                event_type,
                None,
                None,
                actor_ref,
                None,
                None,
                tracker.assign(None, opens),
                None,
                (),
                None,
                None,
                None,
                None,
                None,
                parent_id,
                group_id,
                agent,
            )
        else:
            event = Event(
                kind,
                payload,
                event_id,
                event_type,
                rare[0],
                rare[1],
                actor_ref,
                rare[5],
                rare[6],
                tracker.assign(rare[3], opens),
                rare[7],
                (),
                rare[8],
                rare[9],
                rare[10],
                rare[11],
                rare[2],
                parent_id,
                group_id,
                agent,
            )
        out.append(event)
    return out


def _tools(raw: Any) -> list[DeclaredTool] | None:
    if raw is None:
        return None
    if type(raw) is not list:
        raise _Recheck
    names: set[str] = set()
    out = []
    for item in raw:
        if type(item) is not dict or not item.keys() <= {"name", "description", "parameters"}:
            raise _Recheck
        name = _text(item.get("name"), empty=False)
        if name is None or name in names:
            raise _Recheck
        names.add(name)
        parameters = item.get("parameters")
        if parameters is not None and type(parameters) is not dict:
            raise _Recheck
        out.append(DeclaredTool(name, _text(item.get("description")), _plain(parameters)))
    return out


def _parse_errors(raw: list[Any]) -> list[ParseError]:
    out = []
    for item in raw:
        if type(item) is not dict or not item.keys() <= {"position", "reason", "item", "source"}:
            raise _Recheck
        position, reason = item.get("position"), item.get("reason")
        if type(position) is not str or type(reason) is not str:
            raise _Recheck
        out.append(
            ParseError(position, reason, _plain(item.get("item")), _text(item.get("source")))
        )
    return out


def _surfaces(raw: Any) -> frozenset[str] | None:
    if raw is None:
        return None
    if type(raw) is not list or not all(type(item) is str for item in raw):
        raise _Recheck
    return frozenset(raw)


def record_of(data: dict[str, Any], source: str | None = None) -> TrialRecord:
    """The record of a canonical record dict an adapter assembled (a :class:`TraceBuilder`, the
    span-tree assembly, CES), made with the record's constructors (each value checked and copied
    once). Anything the builder does not
    vouch for (a value of the wrong type, a contradiction, a typed kind it does not make) is
    left to ``TrialRecord.from_dict``, whose ``RecordError`` names the problem at its JSON path:
    the result is always what ``from_dict`` makes of ``data``.

    >>> data = {"events": [{"kind": "message", "event_id": "e0", "actor_ref": "user",
    ...                     "payload": {"text": "hi"}}], "status": "completed"}
    >>> record_of(data) == TrialRecord.from_dict(data)
    True
    >>> record_of({"events": [], "status": 3})
    Traceback (most recent call last):
    ...
    agent_asserts.record.errors.RecordError: invalid record: 1 problem(s)
      $.status: must be a string (got 3)
    """
    try:
        if type(data) is not dict or not data.keys() <= _TOP_KEYS:
            raise _Recheck
        metadata = data.get("metadata", {})
        errors = data.get("errors", [])
        if type(metadata) is not dict or type(errors) is not list:
            raise _Recheck
        events = data.get("events", [])
        if type(events) is not list:
            raise _Recheck
        return TrialRecord(
            events=_events(events),
            initial_state=_plain(data.get("initial_state")),
            final_state=_plain(data.get("final_state")),
            status=_text(data.get("status")),
            reply=_text(data.get("reply")),
            steps=None if data.get("steps") is None else _counter(data["steps"]),
            surfaces=_surfaces(data.get("surfaces")),
            usage=_usage(data.get("usage")),
            errors=_plain(errors),
            parse_errors=_parse_errors(data.get("parse_errors", [])),
            metadata=_plain(metadata),
            tools=_tools(data.get("tools")),
        )
    except _Recheck:
        return TrialRecord.from_dict(data, source=source)


__all__ = [
    "ERROR_PREFIXES",
    "SUMMED",
    "UNKNOWN_TOOL",
    "TraceBuilder",
    "Where",
    "content_text",
    "items",
    "json_or_text",
    "mapping",
    "openai_usage",
    "parse_arguments",
    "python_literal",
    "read_with",
    "result_as_written",
    "seconds",
    "summed_usage",
    "tool_definitions",
    "tool_error",
    "usage",
]
