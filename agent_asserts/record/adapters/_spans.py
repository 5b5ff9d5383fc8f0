"""Spans and what they mean: the shared vocabulary of the span-tree formats (``otel``,
``openai-agents``, ``langfuse``).

A :class:`Span` is format-neutral: what those adapters read from their input before building
a record.

>>> span = Span("a1", None, "invoke_agent refund", "spans[0]", start=1.5, end=2.0)
>>> span.duration
0.5

**Steps.** What one span *means*: the interpretation each span-tree adapter gives its spans.
A :class:`Step` is a span read by its format's rules: an agent run, a model call, a tool call,
a handoff, a guardrail, or something else. :mod:`._span_tree` turns a trace's steps into a
record the same way for every span format.

>>> step = Step(Span("s1", None, "execute_tool lookup", "spans[0]"), "tool",
...             tool=ToolInfo("lookup", call_id="c1", arguments={"id": 1}))
>>> step.tool.name, step.role
('lookup', 'tool')

**Chat parts.** Chat messages of every span format in one shape: the GenAI conventions' parts form.

``{"role": ..., "parts": [{"type": "text", "content": ...}, {"type": "tool_call", "id", "name",
"arguments"}, {"type": "tool_call_response", "id", "response"}, {"type": "reasoning",
"content"}]}``. Chat-Completions-shaped messages (OpenAI Agents ``generation`` spans, Langfuse
generations, the deprecated GenAI events, OpenInference's flattened attributes) are turned into
it, so the span-tree builder reads one shape.

>>> to_parts({"role": "tool", "tool_call_id": "c1", "content": "ok"})
{'role': 'tool', 'parts': [{'type': 'tool_call_response', 'id': 'c1', 'response': 'ok'}]}
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, Final

import attrs

from agent_asserts._values import MISSING


@attrs.frozen
class SpanEvent:
    """A timed event recorded on a span (an OTel ``exception`` event, a log event…).

    >>> SpanEvent("exception", 1.0, {"exception.message": "boom"}).attributes["exception.message"]
    'boom'
    """

    name: str
    time: float | None = None
    attributes: Mapping[str, Any] = attrs.field(factory=dict)


@attrs.frozen
class Span:
    """One span of a trace, with times in epoch seconds and ids as strings.

    Attributes:
        span_id: The span's id (unique within its trace).
        parent_id: The parent span's id, or None for a root.
        name: The span's name.
        position: Where the span was in the input (``resourceSpans[0]…spans[3]``).
        start: Start time in epoch seconds, or None.
        end: End time in epoch seconds, or None.
        trace_id: The trace the span belongs to, or None.
        attributes: The span's attributes as plain JSON data.
        events: The span's events.
        error: Whether the span ended in error.
        error_message: The error's description, if any.
        kind: The span kind (``internal``, ``client``…) or the format's type of the span.
        resource: The attributes of the resource that emitted the span.
        scope: The instrumentation scope's name, or None.

    >>> Span("b", "a", "execute_tool lookup", "spans[1]").parent_id
    'a'
    """

    span_id: str
    parent_id: str | None
    name: str
    position: str
    start: float | None = None
    end: float | None = None
    trace_id: str | None = None
    attributes: Mapping[str, Any] = attrs.field(factory=dict)
    events: tuple[SpanEvent, ...] = ()
    error: bool = False
    error_message: str | None = None
    kind: str | None = None
    resource: Mapping[str, Any] = attrs.field(factory=dict)
    scope: str | None = None

    @property
    def duration(self) -> float | None:
        """``end - start`` in seconds (never negative), or None when a time is missing.

        >>> Span("a", None, "x", "p", start=2.0, end=1.0).duration
        0.0
        """
        if self.start is None or self.end is None:
            return None
        return max(0.0, self.end - self.start)


def start_order(spans: list[Span]) -> list[Span]:
    """The spans in :func:`start_positions` order.

    >>> spans = [Span("b", None, "b", "p1", start=2.0), Span("a", None, "a", "p0", start=1.0)]
    >>> [s.span_id for s in start_order(spans)]
    ['a', 'b']
    """
    return [spans[index] for index in start_positions(spans)]


def start_positions(spans: list[Span]) -> list[int]:
    """The positions of the spans by start time; a tie goes to the parent, then to the span that
    ended first, then to the smaller id — never to the input order, which exports do not keep.

    A span without a start time keeps its place after the span before it in the input.

    >>> spans = [Span("b", None, "b", "p1", start=2.0), Span("a", None, "a", "p0", start=1.0),
    ...          Span("c", "a", "c", "p2", start=1.0)]
    >>> start_positions(spans)
    [1, 2, 0]
    """
    parents, order = forest({span.span_id: span.parent_id for span in spans})
    depths: dict[str, int] = {}
    for span_id in order:
        parent = parents[span_id]
        depths[span_id] = 1 if parent is None else depths[parent] + 1
    keyed = []
    last = float("-inf")
    for index, span in enumerate(spans):
        if span.start is not None:
            last = span.start
        start = span.start if span.start is not None else last
        end = span.end if span.end is not None else float("inf")
        keyed.append((start, depths[span.span_id], end, span.span_id, index))
    return [key[-1] for key in sorted(keyed)]


def forest(parents: Mapping[str, str | None]) -> tuple[dict[str, str | None], list[str]]:
    """Parent links as a forest, and the ids in an order where every parent comes first.

    A link to an id that is not in ``parents`` (or to the span itself) is no link; a link that
    would close a cycle is cut (the span that closes it, walking the ids in ``parents``' order,
    becomes a root). One pass over the links, without recursion: linear whatever the depth.

    >>> forest({"c": "b", "b": "a", "a": None})
    ({'c': 'b', 'b': 'a', 'a': None}, ['a', 'b', 'c'])
    >>> forest({"a": "b", "b": "a", "x": "gone"})[0]
    {'a': 'b', 'b': None, 'x': None}
    """
    links: dict[str, str | None] = {}
    order: list[str] = []
    placed: set[str] = set()
    for start in parents:
        path: list[str] = []
        on_path: set[str] = set()
        node: str | None = start
        while node is not None and node not in placed:
            path.append(node)
            on_path.add(node)
            parent = parents[node]
            if parent is not None and (parent not in parents or parent in on_path):
                parent = None
            links[node] = parent
            node = parent
        placed.update(path)
        order.extend(reversed(path))
    return links, order


TOOL_SPAN_PREFIXES: Final = ("execute_tool ", "running tool: ", "running tool ")
"""How instrumentations name a tool's span: the GenAI conventions (``execute_tool {name}``) and
Logfire's message (``running tool: {name}``)."""


def tool_of_span_name(name: str) -> str | None:
    """The tool a span's name gives, or None when the name gives none.

    >>> tool_of_span_name("execute_tool get_weather"), tool_of_span_name("running tool: x")
    ('get_weather', 'x')
    >>> tool_of_span_name("running tool") is None
    True
    """
    for prefix in TOOL_SPAN_PREFIXES:
        if name.startswith(prefix) and name[len(prefix) :].strip():
            return name[len(prefix) :].strip()
    return None


def call_ids(value: Any) -> tuple[str, ...]:
    """A tool call id as written: a string, a number, or a list of ids (also as JSON text; the
    Microsoft Agent Framework writes ``["run_…", "call_…"]``).

    >>> call_ids('["run_1", "call_1"]'), call_ids("call_2"), call_ids(None)
    (('run_1', 'call_1'), ('call_2',), ())
    """
    if isinstance(value, str) and value.startswith("["):
        value = _json_list(value)
    items = value if isinstance(value, list) else [value]
    return tuple(text for item in items if (text := _id_text(item)) is not None)


def _id_text(value: Any) -> str | None:
    if isinstance(value, str):
        return value or None
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            return str(value)
        except ValueError:  # an integer too long to write as text
            return None
    return None


def _json_list(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return text


def iso_seconds(value: Any) -> float | None:
    """An ISO 8601 time (``Z`` or an offset; naive means UTC) as epoch seconds, else None.

    >>> iso_seconds("2026-08-01T12:00:01.500Z"), iso_seconds("yesterday")
    (1785585601.5, None)
    """
    if not isinstance(value, str) or not value:
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


ROLES: Final = ("agent", "model", "tool", "handoff", "guardrail", "other")
"""What a span can be."""


@attrs.frozen
class ToolInfo:
    """A tool call read from a span.

    ``arguments`` is ``MISSING`` when the span does not record them (they are Opt-In in OTel);
    ``arguments_raw`` keeps argument text that is not valid JSON; ``result_raw`` the text of a
    result read as a value (``toolkit.result_as_written``). ``call_ids`` are other ids the
    span gives the call (Microsoft Agent Framework writes ``["run_…", "call_…"]``): the span
    answers the request that has any of them.
    """

    name: str
    call_id: str | None = None
    arguments: Any = MISSING
    arguments_raw: str | None = None
    result: Any = None
    is_error: bool = False
    outcome: str | None = None
    error_type: str | None = None
    error_message: str | None = None
    mcp_server: str | None = None
    call_ids: tuple[str, ...] = ()
    result_raw: str | None = None


@attrs.frozen
class ModelInfo:
    """A model (inference) call read from a span, with its messages in parts form."""

    model: str | None = None
    provider: str | None = None
    finish_reason: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    details: Mapping[str, int] = attrs.field(factory=dict)
    reported_by: str | None = None
    input: tuple[Mapping[str, Any], ...] = ()
    output: tuple[Mapping[str, Any], ...] = ()
    system: str | None = None
    response_id: str | None = None


@attrs.frozen
class AgentInfo:
    """An agent run read from a span: its name, and its input and output when recorded."""

    name: str
    input: str | None = None
    output: Any = None
    handoffs: tuple[str, ...] = ()


@attrs.frozen
class Step:
    """One span and what it means.

    Attributes:
        span: The span.
        role: One of :data:`ROLES`.
        agent: For an agent span.
        model: For a model span.
        tool: For a tool span.
        handoff: ``(from_agent, to_agent)`` for a handoff span.
        guardrail: ``(name, triggered, output)`` for a guardrail span.
        problems: ``(where, reason, item)`` of the parts of the span that could not be read.
        conversation_id: The conversation the span belongs to, if recorded.
        payload: What an ``other`` span keeps (its name and attributes).
    """

    span: Span
    role: str
    agent: AgentInfo | None = None
    model: ModelInfo | None = None
    tool: ToolInfo | None = None
    handoff: tuple[str | None, str] | None = None
    guardrail: tuple[str, bool, Any] | None = None
    problems: tuple[tuple[str, str, Any], ...] = ()
    conversation_id: str | None = None
    payload: Mapping[str, Any] = attrs.field(factory=dict)


_INDEXED: Final = re.compile(r"(\d+)\.(.+)")
_NESTED: Final = re.compile(r"(.+?)\.\d+\.")


def _text(content: Any) -> str | None:
    """The text of a content value: a string, or the text parts of a list of blocks."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [
            block.get("text", block.get("content"))
            for block in content
            if isinstance(block, Mapping)
            and block.get("type") in ("text", "input_text", "output_text", None)
        ]
        texts = [text for text in texts if isinstance(text, str)]
        return "".join(texts) if texts else None
    return None


def _call_part(call: Mapping[str, Any]) -> dict[str, Any]:
    function = call.get("function")
    source = function if isinstance(function, Mapping) else call
    part: dict[str, Any] = {"type": "tool_call", "name": source.get("name")}
    if call.get("id") is not None:
        part["id"] = call.get("id")
    if "arguments" in source:
        part["arguments"] = source["arguments"]
    elif "args" in source:
        part["arguments"] = source["args"]
    return part


def to_parts(message: Any) -> dict[str, Any] | None:
    """One message as ``{role, parts}``; a message already in parts form is returned as is.

    Returns None for something that is not a message (not an object, or without a role).

    >>> to_parts({"role": "assistant", "content": None, "tool_calls": [
    ...     {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]})
    {'role': 'assistant',
     'parts': [{'type': 'tool_call', 'name': 'f', 'id': 'c1', 'arguments': '{}'}]}
    """
    if not isinstance(message, Mapping):
        return None
    role = message.get("role")
    if not isinstance(role, str):
        return None
    if isinstance(message.get("parts"), list):
        return {"role": role, "parts": list(message["parts"])}
    parts: list[dict[str, Any]] = []
    call_id = message.get("tool_call_id", message.get("id") if role == "tool" else None)
    content = message.get("content")
    if role == "tool" and call_id is None and is_tool_definition(content):
        return None  # a tool the model was offered (LangChain callbacks list them so), no result
    if role == "tool" or (call_id is not None and role in ("function", "tool")):
        response = content if _text(content) is None else _text(content)
        parts.append({"type": "tool_call_response", "id": call_id, "response": response})
        return {"role": "tool", "parts": parts}
    reasoning = message.get("reasoning_content", message.get("reasoning"))
    if isinstance(reasoning, str) and reasoning:
        parts.append({"type": "reasoning", "content": reasoning})
    text = _text(content)
    if text:
        parts.append({"type": "text", "content": text})
    extra = message.get("additional_kwargs")  # a LangChain message as its callbacks write it
    extra = extra if isinstance(extra, Mapping) else {}
    calls = message.get("tool_calls") or extra.get("tool_calls")
    for call in calls if isinstance(calls, list) else ():
        if isinstance(call, Mapping):
            parts.append(_call_part(call))
    function_call = message.get("function_call", extra.get("function_call"))
    if isinstance(function_call, Mapping):
        parts.append(_call_part(function_call))
    return {"role": role, "parts": parts}


def is_tool_definition(value: Any) -> bool:
    """Whether a value is a tool's definition (OpenAI's ``{"type": "function", "function":
    {"name", "parameters"}}`` or a bare ``{"name", "parameters"}``), as JSON text or data.

    >>> is_tool_definition({"type": "function", "function": {"name": "f", "parameters": {}}})
    True
    >>> is_tool_definition({"result": "ok"})
    False
    """
    if isinstance(value, str) and value.lstrip().startswith("{"):
        try:
            value = json.loads(value)
        except (ValueError, RecursionError):
            return False
    if not isinstance(value, Mapping):
        return False
    function = value.get("function")
    if value.get("type") == "function" and isinstance(function, Mapping):
        value = function
    return isinstance(value.get("name"), str) and isinstance(
        value.get("parameters", value.get("input_schema")), Mapping
    )


def messages(value: Any) -> list[dict[str, Any]] | None:
    """Messages (JSON text, a list, one message, or ``{"messages": [...]}``) in parts form.

    Returns None when the value holds no messages. Raises ``ValueError`` for invalid JSON.

    >>> messages('[{"role": "user", "content": "hi"}]')
    [{'role': 'user', 'parts': [{'type': 'text', 'content': 'hi'}]}]
    """
    if isinstance(value, str):
        stripped = value.lstrip()
        if not stripped.startswith(("[", "{")):
            return None
        value = json.loads(value)
    if isinstance(value, Mapping) and isinstance(value.get("messages"), list):
        value = value["messages"]
    if isinstance(value, Mapping):
        value = [value]
    if not isinstance(value, list):
        return None
    out = [part for part in (to_parts(item) for item in value) if part is not None]
    return out if out else None


NESTING: Final = 16
"""How many list levels :func:`unflatten` rebuilds (OpenInference nests three); a key nested
deeper stays a plain key of the innermost item rebuilt, so no input reaches the recursion
limit."""


def unflatten(attributes: Mapping[str, Any], prefix: str, _depth: int = 1) -> list[dict[str, Any]]:
    """Flattened list attributes (``llm.input_messages.0.message.role``…) as a list of dicts.

    >>> unflatten({"p.1.x": 2, "p.0.x": 1, "p.0.y.0.z": 3}, "p.")
    [{'x': 1, 'y': [{'z': 3}]}, {'x': 2}]
    """
    groups: dict[int, dict[str, Any]] = {}
    for key, value in attributes.items():
        if key.startswith(prefix):
            match = _INDEXED.fullmatch(key[len(prefix) :])
            if match:
                groups.setdefault(int(match.group(1)), {})[match.group(2)] = value
    out = []
    for index in sorted(groups):
        item: dict[str, Any] = {}
        lists: set[str] = set()
        for key, value in groups[index].items():
            nested = _NESTED.match(key) if _depth < NESTING else None
            if nested:
                lists.add(nested.group(1))
            else:
                item[key] = value
        for head in sorted(lists):
            item[head] = unflatten(groups[index], f"{head}.", _depth + 1)
        out.append(item)
    return out


def strip_prefixes(item: Mapping[str, Any], *prefixes: str) -> dict[str, Any]:
    """Keys without the first matching prefix, recursively into lists of dicts.

    >>> strip_prefixes({"message.role": "user", "message.tool_calls": [{"tool_call.id": "c"}]},
    ...                "message.", "tool_call.")
    {'role': 'user', 'tool_calls': [{'id': 'c'}]}
    """
    out: dict[str, Any] = {}
    for key, value in item.items():
        for prefix in prefixes:
            if key.startswith(prefix):
                key = key[len(prefix) :]
                break
        if isinstance(value, list):
            value = [
                strip_prefixes(entry, *prefixes) if isinstance(entry, Mapping) else entry
                for entry in value
            ]
        out[key] = value
    return out


def openinference_messages(attributes: Mapping[str, Any], which: str) -> list[dict[str, Any]]:
    """OpenInference's ``llm.{input,output}_messages.N.message.*`` attributes in parts form.

    >>> openinference_messages({"llm.output_messages.0.message.role": "assistant",
    ...                         "llm.output_messages.0.message.content": "Done"}, "output")
    [{'role': 'assistant', 'parts': [{'type': 'text', 'content': 'Done'}]}]
    """
    out = []
    for item in unflatten(attributes, f"llm.{which}_messages."):
        message = strip_prefixes(item, "message.", "tool_call.", "message_content.")
        calls = []
        for call in message.get("tool_calls") or ():
            function = {
                "name": call.get("function.name"),
                "arguments": call.get("function.arguments"),
            }
            calls.append({"id": call.get("id"), "function": function})
        if calls:
            message["tool_calls"] = calls
        if "content" not in message and message.get("contents"):
            message["content"] = message["contents"]
        parts = to_parts(message)
        if parts is not None:
            out.append(parts)
    return out


__all__ = [
    "ROLES",
    "TOOL_SPAN_PREFIXES",
    "AgentInfo",
    "ModelInfo",
    "Span",
    "SpanEvent",
    "Step",
    "ToolInfo",
    "call_ids",
    "forest",
    "is_tool_definition",
    "iso_seconds",
    "messages",
    "openinference_messages",
    "start_order",
    "start_positions",
    "strip_prefixes",
    "to_parts",
    "tool_of_span_name",
    "unflatten",
]
