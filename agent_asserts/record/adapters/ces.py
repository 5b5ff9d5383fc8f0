"""CES simulation results (cxas ``SimulationEvals``) as trial records.

A simulation result is a dict whose ``detailed_trace`` is a list of strings; each string holds
one or more lines (joined with ``\\n``) of these forms:

* ``User Query: TEXT`` (and the simulator's own ``User: TEXT``) → a user message;
* ``Agent Text: TEXT`` → an agent message (a line without a label that follows a message line
  of the same string continues that message's text);
* ``Tool Call: NAME with args {…}`` → a tool call (``with args`` may be absent: ``{}``);
* ``Tool Response: NAME with result …`` → the result of the most recent call of ``NAME`` that
  has no result yet; without one, a result-only tool call noted with ``unpaired: True``;
* ``Agent Transfer: Transferred to X`` → a ``delegation`` event (``event_type`` ``transferred``);
* ``Custom Payload: {…}`` → an event of kind ``custom_payload`` with payload ``{"value": …}``.

A label may carry a note (``Agent Text (Diag):``, ``Tool Call [Billing Agent]:``), kept in the
payload as ``note`` / ``agent``. The ``{…}`` parts are Python literals (single quotes, ``True``,
``None``) read with :func:`ast.literal_eval` — never ``eval`` — and turned into JSON data. Tool
resource names (``projects/…/tools/NAME``) become ``NAME`` (the full name is kept as
``resource``). Each event's payload lists the lines it was made from in ``trace_lines``. A line
that cannot be decoded becomes a :class:`~agent_asserts.record.ParseError` with its position
(``detailed_trace[3]``, or ``detailed_trace[3] line 2`` in a string of several lines); blank
lines carry nothing and are skipped. A user line opens a turn unless it follows another user
line (the simulator's ``User:`` and the agent's ``User Query:`` echo one utterance). Every other
key of the result dict is kept in ``record.metadata``; ``error`` also goes to ``record.errors``.

>>> rec = to_record({"passed": True, "detailed_trace": [
...     "User Query: book ITEM-42",
...     "Tool Call: projects/p/apps/a/tools/check_availability with args {'item_id': 'ITEM-42'}",
...     "Tool Response: check_availability with result {'result': {'status': 'available'}}",
...     "Agent Text: It is available.",
... ]})
>>> call = rec.tool_calls[0].payload
>>> call.name, call.arguments, call.result
('check_availability', {'item_id': 'ITEM-42'}, {'result': {'status': 'available'}})
>>> call.extra["trace_lines"]
['detailed_trace[1]', 'detailed_trace[2]']
>>> rec.reply, rec.metadata, rec.parse_errors
('It is available.', {'passed': True}, ())
"""

from __future__ import annotations

import ast
import json
import math
import os
import re
from collections.abc import Iterator, Mapping
from typing import Any, Final

from agent_asserts._values import to_jsonable
from agent_asserts.errors import AgentAssertsError
from agent_asserts.record.adapters.toolkit import record_of
from agent_asserts.record.errors import Problem, RecordError
from agent_asserts.record.parsing import load_json
from agent_asserts.record.trial import TrialRecord

FORMAT: Final = "ces"
"""The name this module is registered under (the record-format registry finds it)."""
ORDER: Final = 30
"""Its place among the built-in formats (their listing and error-message order)."""
TAGS_RECORDS: Final = True
"""``to_records`` takes ``format_name`` (the readers' ``metadata["format"]``)."""

TRACE_KEY: Final = "detailed_trace"
SURFACES: Final = ("message", "tool_call", "delegation", "custom_payload")
LABELS: Final = (
    "User Query",
    "User",
    "Agent Text",
    "Tool Call",
    "Tool Response",
    "Agent Transfer",
    "Custom Payload",
)
_LINE: Final = re.compile(
    r"(?P<label>User Query|User|Agent Text|Tool Call|Tool Response|Agent Transfer|Custom Payload)"
    r"(?:\s*\[(?P<agent>[^\]]*)\]|\s*\((?P<note>[^)]*)\))?:[ \t]?(?P<body>.*)",
    re.DOTALL,
)
_TRANSFER: Final = "Transferred to "


class _Undecodable(AgentAssertsError, ValueError):
    """Why one line could not be decoded."""


def _json_data(value: Any, where: str) -> Any:
    """A Python literal as JSON data: tuples become lists, scalar keys become strings."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise _Undecodable(f"{where}: {value!r} is not a JSON number")
        return value
    if isinstance(value, list | tuple):
        return [_json_data(item, where) for item in value]
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                if not (key is None or isinstance(key, bool | int | float)):
                    raise _Undecodable(f"{where}: the key {key!r} is not a JSON key")
                key = json.dumps(key)
            out[key] = _json_data(item, where)
        return out
    raise _Undecodable(f"{where}: {value!r:.60} is not JSON data")


def _literal(text: str, where: str) -> Any:
    """Read a Python literal safely (``ast.literal_eval``) and turn it into JSON data."""
    try:
        value = ast.literal_eval(text.strip())
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError) as exc:
        reason = type(exc).__name__ if not str(exc) else str(exc).splitlines()[0]
        reason = _AST_NODE.sub(lambda m: _node_text(text.strip(), m.group(1)), reason)
        raise _Undecodable(f"{where}: not a Python literal ({reason})") from None
    return _json_data(value, where)


_AST_NODE: Final = re.compile(r"<ast\.(\w+) object at 0x[0-9a-fA-F]+>")
"""How ``ast.literal_eval`` names the node it rejects (with a memory address)."""


def _node_text(text: str, kind: str) -> str:
    """The rejected node named by its source text and type (never a memory address).

    >>> _node_text("{'a': Decimal('2')}", "Call")
    "Decimal('2') (a Call)"
    >>> _node_text("[1, os.sep]", "Attribute")
    'os.sep (an Attribute)'
    """
    article = "an" if kind[:1] in "AEIOU" else "a"
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return f"{article} {kind}"
    stack: list[ast.AST] = [tree.body]
    while stack:  # depth first, in source order: the node literal_eval meets first
        node = stack.pop()
        if type(node).__name__ == kind:
            segment = ast.get_source_segment(text, node) or ""
            if len(segment) > 60:
                segment = segment[:59] + "…"
            return f"{segment} ({article} {kind})" if segment else f"{article} {kind}"
        stack.extend(reversed(list(ast.iter_child_nodes(node))))
    return f"{article} {kind}"


def tool_name(name: str) -> str:
    """The tool's short name: the last segment of a ``…/tools/NAME`` resource name.

    >>> tool_name("projects/p/locations/us/apps/a/tools/create_order"), tool_name("lookup")
    ('create_order', 'lookup')
    """
    parts = name.strip().split("/")
    if len(parts) >= 2 and parts[-2] == "tools" and parts[-1]:
        return parts[-1]
    return name.strip()


class _Reader:
    """One pass over the trace lines, building canonical event dicts in order."""

    def __init__(self, source: str | None) -> None:
        self.source = source
        self.events: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.warnings: list[str] = []
        self.open_calls: dict[str, list[dict[str, Any]]] = {}
        self.turn = 0
        self.text_event: dict[str, Any] | None = None  # the message a bare line continues

    def entry(self, index: int, entry: Any) -> None:
        self.text_event = None
        if not isinstance(entry, str):
            self.error(f"{TRACE_KEY}[{index}]", "a trace entry must be a string", entry)
            return
        lines = [line.rstrip("\r") for line in entry.split("\n")]
        for number, line in enumerate(lines, start=1):
            where = f"{TRACE_KEY}[{index}]"
            if len(lines) > 1:
                where = f"{where} line {number}"
            self.line(where, line)

    def line(self, where: str, line: str) -> None:
        match = _LINE.match(line.lstrip())
        if match is None:
            if self.text_event is not None:
                payload = self.text_event["payload"]
                payload["text"] = f"{payload['text']}\n{line}"
                if line.strip():
                    payload["trace_lines"].append(where)
            elif line.strip():
                expected = ", ".join(f"'{label}:'" for label in LABELS)
                self.error(where, f"not a CES trace line (expected one of {expected})", line)
            return
        label, body = match["label"], match["body"]
        extra: dict[str, Any] = {}
        if match["agent"] is not None:
            extra["agent"] = match["agent"].strip()
        if match["note"] is not None:
            extra["note"] = match["note"].strip()
        self.text_event = None
        try:
            if label in ("User Query", "User"):
                self.message("user", body, where, extra, label)
            elif label == "Agent Text":
                self.message("agent", body, where, extra, label)
            elif label == "Tool Call":
                self.call(body, where, extra)
            elif label == "Tool Response":
                self.response(body, where, extra)
            elif label == "Agent Transfer":
                self.transfer(body, where, extra)
            else:
                value = _literal(body, "custom payload")
                self.add({"kind": "custom_payload", "payload": {"value": value, **extra}}, where)
        except _Undecodable as exc:
            self.error(where, str(exc), line)

    def add(self, event: dict[str, Any], where: str) -> dict[str, Any]:
        event["payload"]["trace_lines"] = [where]
        event["turn"] = self.turn
        self.events.append(event)
        return event

    def error(self, where: str, reason: str, item: Any) -> None:
        error: dict[str, Any] = {"position": where, "reason": reason, "item": to_jsonable(item)}
        if self.source is not None:
            error["source"] = self.source
        self.errors.append(error)

    def message(self, actor: str, text: str, where: str, extra: dict[str, Any], label: str) -> None:
        if actor == "user":
            last = self.events[-1] if self.events else None
            if not (last and last["kind"] == "message" and last["actor_ref"] == "user"):
                self.turn += 1
        if label == "User":
            extra["label"] = label
        event = {"kind": "message", "actor_ref": actor, "payload": {"text": text, **extra}}
        self.text_event = self.add(event, where)

    def call(self, body: str, where: str, extra: dict[str, Any]) -> None:
        head, found, raw = f" {body.strip()}".partition(" with args ")
        name = head.strip()
        if not name:
            raise _Undecodable("a tool call needs a tool name ('NAME with args {...}')")
        arguments = _literal(raw, "call arguments") if found else {}
        payload = {"name": tool_name(name), "arguments": arguments, **extra}
        if tool_name(name) != name:
            payload["resource"] = name
        event = self.add({"kind": "tool_call", "actor_ref": "agent", "payload": payload}, where)
        self.open_calls.setdefault(payload["name"], []).append(event)

    def response(self, body: str, where: str, extra: dict[str, Any]) -> None:
        head, found, raw = f" {body.strip()}".partition(" with result ")
        if not found or not head.strip():
            raise _Undecodable("a tool response reads 'NAME with result VALUE'")
        name = tool_name(head)
        result = _literal(raw, "response result")
        waiting = self.open_calls.get(name)
        if waiting:
            payload = waiting.pop()["payload"]
            payload["result"] = result
            payload["trace_lines"].append(where)
            return
        payload = {"name": name, "arguments": {}, "result": result, "unpaired": True, **extra}
        if name != head.strip():
            payload["resource"] = head.strip()
        self.add({"kind": "tool_call", "actor_ref": "agent", "payload": payload}, where)
        self.warnings.append(f"{where}: response of {name!r} has no call before it to pair with")

    def transfer(self, body: str, where: str, extra: dict[str, Any]) -> None:
        target = body.strip()
        if target.startswith(_TRANSFER.strip()):
            target = target[len(_TRANSFER.strip()) :].strip()
        if not target:
            raise _Undecodable("an agent transfer names no agent ('Transferred to NAME')")
        payload = {"subagent": target, **extra}
        event = {"kind": "delegation", "event_type": "transferred", "payload": payload}
        self.add(event, where)


def to_record(data: Mapping[str, Any], *, source: str | None = None) -> TrialRecord:
    """Turn a CES simulation result dict into a :class:`TrialRecord`.

    Args:
        data: The result dict (``detailed_trace`` and any other keys).
        source: A file name shown in the parse errors (``read`` passes the path).

    Returns:
        The record: events in trace order, the parse errors, the other keys as metadata,
        ``surfaces`` the kinds a CES trace can hold (none without a ``detailed_trace``).

    Raises:
        RecordError: ``data`` is not a mapping.

    >>> rec = to_record({"detailed_trace": ["Tool Call: pay with args {'amount': Decimal('2')}"]})
    >>> print(rec.parse_errors[0].reason)  # doctest: +NORMALIZE_WHITESPACE
    call arguments: not a Python literal
      (malformed node or string on line 1: Decimal('2') (a Call))
    """
    return _record(data, source, None)


def _record(data: Mapping[str, Any], source: str | None, format_name: str | None) -> TrialRecord:
    """:func:`to_record`, naming ``format_name`` (when given) in ``metadata["format"]``."""
    if not isinstance(data, Mapping):
        raise RecordError([Problem("$", f"a CES result must be a mapping (got {data!r:.60})")])
    reader = _Reader(source)
    trace = data.get(TRACE_KEY)
    surfaces: tuple[str, ...] = SURFACES
    if trace is None:
        reader.error(TRACE_KEY, "the result has no detailed_trace", None)
        surfaces = ()
    elif isinstance(trace, str) or not isinstance(trace, list | tuple):
        reader.error(TRACE_KEY, "detailed_trace must be a list of strings", trace)
        surfaces = ()
    else:
        for index, entry in enumerate(trace):
            reader.entry(index, entry)
    metadata = {str(k): to_jsonable(v) for k, v in data.items() if k != TRACE_KEY}
    if reader.warnings:
        metadata["ces_warnings"] = reader.warnings
    if format_name is not None:
        metadata["format"] = format_name
    canonical: dict[str, Any] = {
        "surfaces": list(surfaces),
        "events": reader.events,
        "parse_errors": reader.errors,
        "metadata": metadata,
    }
    error = data.get("error")
    if error is not None:
        canonical["errors"] = [to_jsonable(error)]
    return record_of(canonical, source)


RUNS: Final = ("",)
"""A top-level array of simulation results holds one run per item."""


def detect(data: Any) -> bool:
    """Whether ``data`` is a CES simulation result (a mapping with ``detailed_trace``) or a
    list of them.

    >>> detect({"detailed_trace": []}), detect([{"detailed_trace": []}]), detect({"trace": []})
    (True, True, False)
    """
    if isinstance(data, list):
        return bool(data) and all(isinstance(d, Mapping) and TRACE_KEY in d for d in data[:3])
    return (type(data) is dict or isinstance(data, Mapping)) and TRACE_KEY in data


def to_records(data: Any, *, source: str | None = None, **options: Any) -> Iterator[TrialRecord]:
    """One record per simulation result (``data`` is one result or a list of them). The
    option ``format_name`` (the readers pass it) is named in the record's
    ``metadata["format"]``.

    >>> [r.reply for r in to_records([{"detailed_trace": ["Agent Text: a"]},
    ...                               {"detailed_trace": ["Agent Text: b"]}])]
    ['a', 'b']
    """
    for item in data if isinstance(data, list) else [data]:
        yield _record(item, source, options.get("format_name"))


def read(path: str | os.PathLike[str], **options: Any) -> TrialRecord:
    """Read a CES simulation result from a JSON file (one result dict).

    Args:
        path: The file.
        **options: Passed to :func:`to_record` (``source`` defaults to the path).

    Raises:
        RecordError: The file is not UTF-8 or not strict JSON (a syntax error, a duplicate key,
            ``NaN``; as ``TrialRecord.load``), or not a result dict.
        OSError: The file cannot be read.

    >>> import json, pathlib, tempfile
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "sim.json"
    >>> _ = file.write_text(json.dumps({"detailed_trace": ["Agent Text: hi"]}))
    >>> read(file).reply
    'hi'
    """
    name, data = load_json(path)
    options.setdefault("source", name)
    return to_record(data, **options)


__all__ = ["LABELS", "RUNS", "SURFACES", "detect", "read", "to_record", "to_records", "tool_name"]
