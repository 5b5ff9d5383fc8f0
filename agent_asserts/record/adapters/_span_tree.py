"""Span trees: what the span-tree formats (``otel``, ``openai-agents``, ``langfuse``,
``langsmith``, ``mlflow``, ``openinference``) share, from their spans to one record.

**Spans** and what they mean, the formats' shared vocabulary. A :class:`Span` is
format-neutral: what those adapters read from their input before building a record.

>>> span = Span("a1", None, "invoke_agent refund", "spans[0]", start=1.5, end=2.0)
>>> span.duration
0.5

**Steps.** What one span *means*: the interpretation each span-tree adapter gives its spans.
A :class:`Step` is a span read by its format's rules: an agent run, a model call, a tool call,
a handoff, a guardrail, or something else. The second half of this module turns a trace's steps
into a record the same way for every span format.

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

**From steps to a record.** A trace's interpreted spans (:class:`Step`) → one record, the same
way for every span format.

* Events follow the spans' **start** order; each span's event has the span id as its id, its
  start as ``wall_time`` (epoch seconds), ``end - start`` as ``duration``, and the event of its
  nearest ancestor span that became an event as ``parent_id``.
* **Agents.** The first top-level agent span is the root agent (its events have ``agent``
  None); every event inside another agent span names that agent. A nested agent span is a
  ``delegation`` with ``mode`` ``tool`` (control returns); a handoff span, or a later
  top-level agent span no handoff named, is a ``delegation`` with ``mode`` ``handoff``.
* **Model spans** become ``model_call`` events with usage; their output messages give agent
  ``message``, ``reasoning`` and tool calls; their input messages give the user messages (the
  trace's first model call: all of them; later ones: those after the last assistant message,
  as each call repeats the history) and tool results. A sub-agent's input is its
  delegation's ``input``, never a user turn. Tool results never open a turn.
* **Tool calls** are the tool spans; a tool call a model asked for that has no tool span is an
  event of its own, after the model call. A call and its span are paired by call id, else by
  name and order within the agent; the calls of one model response share a ``group_id`` (the
  model call's event id).
* Usage is the sum over model calls only (never an agent's aggregate too), and only when every
  model call carries usage (a partial sum is no run usage: token budgets are ``invalid``).
* A trace whose model spans record no messages records no reply: its ``surfaces`` leave out
  ``message`` and ``reasoning``.
* The status comes from the run: ``failed`` when the root span ended in error, ``incomplete``
  when a call is still pending, else ``completed`` (:func:`run_status`).
* Any shape is read in time linear in the span count: ancestors are worked out once, in one
  parent-first pass without recursion (:func:`forest`); a parent link that would
  close a cycle is cut and reported.

>>> steps = [Step(Span("a", None, "agent", "[0]", 0.0, 2.0), "agent", agent=AgentInfo("bot")),
...          Step(Span("t", "a", "lookup", "[1]", 0.5, 1.0), "tool", tool=ToolInfo("lookup"))]
>>> [(e.kind, e.event_id, e.wall_time) for e in build_record(steps).events]
[('tool_call', 't', 0.5)]

**Pairing** (:class:`Pairing`): which model request each tool span (or handoff) answers: by
call id, else by name and order within the agent (the OpenAI Agents SDK and Langfuse record no
call id on their tool spans).

>>> ask = {"role": "assistant", "parts": [{"type": "tool_call", "name": "lookup", "id": "c1"}]}
>>> steps = [Step(Span("m", None, "chat", "[0]"), "model", model=ModelInfo(output=(ask,))),
...          Step(Span("t", None, "lookup", "[1]"), "tool", tool=ToolInfo("lookup"))]
>>> pairing = Pairing(lambda step: None)
>>> pairing.plan(steps)
>>> pairing.part_span
{('m', 0): 't'}

**Assembly** (:class:`Assembly`): the event list of one trace, assembled step by step by the
rules above. **Finishing** (:func:`finish`): the record of an assembled trace: the root
agent's part, status, usage, and the decoding that turns any event the record model rejects
into a parse error at its span.
"""

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, Final

import attrs

from agent_asserts._values import MISSING
from agent_asserts.record.adapters.toolkit import parse_arguments, record_of
from agent_asserts.record.errors import ParseError, RecordError
from agent_asserts.record.trial import TrialRecord


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


PartKey = tuple[str, int]
"""A model's tool_call part: (model span id, index among the tool_call parts of its output)."""

_Open = tuple[PartKey, Mapping[str, Any], str | None]


class _OpenParts:
    """The requests no span answered yet, in order, indexed by call id, by agent scope and name,
    and by scope for handoff calls: each look-up is constant time (amortized), so pairing a trace
    is linear in its calls whatever their number per model response."""

    def __init__(self) -> None:
        self._alive: dict[PartKey, _Open] = {}
        self._by_id: dict[str, deque[_Open]] = {}
        self._by_name: dict[tuple[str | None, str], deque[_Open]] = {}
        self._transfers: dict[str | None, deque[_Open]] = {}
        self._with_id: dict[str | None, int] = {}  # scope -> open requests that carry an id

    def add(self, item: _Open) -> None:
        key, part, scope = item
        self._alive[key] = item
        call_id, name = part.get("id"), part.get("name")
        if isinstance(call_id, str):
            self._by_id.setdefault(call_id, deque()).append(item)
        if call_id is not None:
            self._with_id[scope] = self._with_id.get(scope, 0) + 1
        if isinstance(name, str):
            self._by_name.setdefault((scope, name), deque()).append(item)
            if name.startswith("transfer_to_"):
                self._transfers.setdefault(scope, deque()).append(item)

    def remove(self, item: _Open) -> None:
        del self._alive[item[0]]
        if item[1].get("id") is not None:
            self._with_id[item[2]] -= 1

    def _first(self, queue: deque[_Open] | None) -> _Open | None:
        while queue and queue[0][0] not in self._alive:
            queue.popleft()
        return queue[0] if queue else None

    def find(self, tool: ToolInfo, scope: str | None) -> _Open | None:
        """The request a tool span answers: by call id, else by name and order in its agent."""
        if tool.call_id is not None:
            for call_id in (tool.call_id, *tool.call_ids):
                by_id = self._first(self._by_id.get(call_id))
                if by_id is not None:
                    return by_id
            if self._with_id.get(scope, 0):
                return None
        return self._first(self._by_name.get((scope, tool.name)))

    def handoff(self, agent: str, scope: str | None) -> _Open | None:
        """The ``transfer_to_<agent>`` call (the OpenAI Agents SDK's handoff tool) a handoff
        answers, else the first open transfer call of its agent."""
        expected = "transfer_to_" + "_".join(agent.lower().split())
        exact = self._first(self._by_name.get((scope, expected)))
        return exact if exact is not None else self._first(self._transfers.get(scope))


class Pairing:
    """The pairs of one trace, planned before any event is built.

    Attributes:
        part_span: A model's tool_call part → the tool (or handoff) span that answers it.
        span_part: The reverse, with the part itself.
        handoff_targets: Agents that a handoff span named.
        handoff_calls: Call ids of the model requests that were handoffs.
    """

    def __init__(self, scope_of: Callable[[Step], str | None]) -> None:
        self.scope_of = scope_of
        self.part_span: dict[PartKey, str] = {}
        self.span_part: dict[str, tuple[PartKey, Mapping[str, Any]]] = {}
        self.handoff_targets: set[str] = set()
        self.handoff_calls: set[str] = set()

    def plan(self, steps: list[Step]) -> None:
        """Pair every tool and handoff step with the request it answers (steps in start order)."""
        open_parts = _OpenParts()
        for step in steps:
            scope = self.scope_of(step)
            if step.role == "handoff" and step.handoff is not None:
                self.handoff_targets.add(step.handoff[1])
                self._pair(step, open_parts.handoff(step.handoff[1], scope), open_parts)
            elif step.role == "model" and step.model is not None:
                for index, part in enumerate(tool_parts(step.model)):
                    open_parts.add(((step.span.span_id, index), part, scope))
            elif step.role == "tool" and step.tool is not None:
                self._pair(step, open_parts.find(step.tool, scope), open_parts)

    def _pair(self, step: Step, match: _Open | None, open_parts: _OpenParts) -> None:
        if match is None:
            return
        if step.role == "handoff" and isinstance(match[1].get("id"), str):
            self.handoff_calls.add(match[1]["id"])
        open_parts.remove(match)
        self.part_span[match[0]] = step.span.span_id
        self.span_part[step.span.span_id] = (match[0], match[1])

    def model_span_of(self, step: Step) -> str | None:
        """The span id of the model call whose request ``step`` answers, or None."""
        pair = self.span_part.get(step.span.span_id)
        return None if pair is None else pair[0][0]


def tool_parts(model: ModelInfo) -> list[Mapping[str, Any]]:
    """The tool_call parts of a model call's output, in order."""
    return [
        part
        for message in model.output
        for part in message.get("parts") or ()
        if isinstance(part, Mapping) and part.get("type") == "tool_call"
    ]


_SPEAKERS: Final = {"user": "user", "human": "user", "system": "system", "developer": "system"}
"""Input roles that become messages (tool results are never messages, so never open a turn)."""


class Assembly:
    """Drafts of canonical event dicts, the pairing of calls and results, usage and errors."""

    def __init__(self, tree: _Tree, *, source: str | None) -> None:
        self.tree = tree
        self.source = source
        self.events: list[dict[str, Any]] = []
        self.positions: list[str] = []  # where each event came from (for parse errors)
        self.owners: list[Step] = []  # the step each event came from (for its parent_id)
        self.errors: list[dict[str, Any]] = []
        self.event_of: dict[str, str] = {}  # span id -> event id
        self.calls: dict[str, dict[str, Any]] = {}  # call id -> tool_call draft
        self.pairing = Pairing(tree.scope_id)
        self.seen_model = False  # whether a model call was added already
        self.usage: dict[str, Any] = {}
        self.without_usage = 0  # model calls that carry no usage
        self.with_messages = False  # whether any model call records messages
        self.reported_by: set[str] = set()
        self.counter = 0

    # -- events -----------------------------------------------------------------------------

    def _group(self, step: Step) -> str | None:
        model_span = self.pairing.model_span_of(step)
        return None if model_span is None else self.event_of.get(model_span)

    def parse_error(self, where: str, reason: str, item: Any = None) -> None:
        self.errors.append(ParseError(where, reason, item, self.source).to_dict())

    def _emit(self, step: Step, event: dict[str, Any], *, primary: bool = False) -> str:
        span = step.span
        if primary:
            event_id = span.span_id
            if span.duration is not None:
                event["duration"] = span.duration
        else:
            self.counter += 1
            event_id = f"{span.span_id}.{self.counter}"
        event["event_id"] = event_id
        if "wall_time" not in event and span.start is not None:
            event["wall_time"] = span.start
        self.owners.append(step)
        if step.conversation_id is not None:
            event["correlation_id"] = step.conversation_id
        self.events.append(event)
        self.positions.append(span.position)
        if primary:
            self.event_of[span.span_id] = event_id
        return event_id

    def link_parents(self) -> None:
        """Give every event the event of its step's nearest ancestor span that became one."""
        found = self.tree.event_parents(self.event_of)
        for event, step in zip(self.events, self.owners, strict=True):
            parent_span = self.tree.parent(step)
            if parent_span is not None:
                parent = self.event_of.get(parent_span, found.get(parent_span))
                if parent is not None:
                    event["parent_id"] = parent
        self.owners = []

    def _agent(self, step: Step, event: dict[str, Any]) -> dict[str, Any]:
        name = self.tree.agent_name(step) if step.role != "agent" else None
        if step.role == "agent":
            scope = self.tree.agent_ancestor(step)
            name = None if scope is None else self.tree.agent_name(scope)
        if name is not None:
            event["agent"] = name
        return event

    def add(self, step: Step) -> None:
        for where, reason, item in step.problems:
            self.parse_error(where, reason, item)
        handler = getattr(self, f"_add_{step.role}")
        try:
            handler(step)
        except (TypeError, AttributeError, ValueError, RecursionError) as exc:
            reason = f"unreadable {step.role} span: {type(exc).__name__}: {exc}"
            self.parse_error(step.span.position, reason, None)

    def _add_agent(self, step: Step) -> None:
        info = step.agent
        if info is None or step is self.tree.root:
            return
        parent = self.tree.agent_ancestor(step)
        if parent is None and info.name in self.pairing.handoff_targets:
            return
        root = self.tree.root
        from_step = parent if parent is not None else root
        payload: dict[str, Any] = {"subagent": info.name}
        if from_step is not None and from_step.agent is not None:
            payload["from_agent"] = from_step.agent.name
        payload["mode"] = "tool" if parent is not None else "handoff"
        if info.output is not None:
            payload["output"] = info.output
        if info.input is not None:
            payload["input"] = info.input
        event_type = "failed" if step.span.error else "completed"
        event = {"kind": "delegation", "event_type": event_type, "payload": payload}
        self._emit(step, self._agent(step, event), primary=True)

    def _add_handoff(self, step: Step) -> None:
        if step.handoff is None:
            return
        from_agent, to_agent = step.handoff
        payload: dict[str, Any] = {"subagent": to_agent, "mode": "handoff"}
        if from_agent is not None:
            payload["from_agent"] = from_agent
        event: dict[str, Any] = {
            "kind": "delegation",
            "event_type": "transferred",
            "payload": payload,
        }
        if (group := self._group(step)) is not None:
            event["group_id"] = group
        self._emit(step, self._agent(step, event), primary=True)

    def _add_guardrail(self, step: Step) -> None:
        if step.guardrail is None:
            return
        name, triggered, output = step.guardrail
        payload: dict[str, Any] = {"name": name, "triggered": triggered}
        if output is not None:
            payload["output"] = output
        self._emit(step, self._agent(step, {"kind": "guardrail", "payload": payload}), primary=True)

    def _add_other(self, step: Step) -> None:
        payload = dict(step.payload) or {"name": step.span.name}
        self._emit(step, self._agent(step, {"kind": "span", "payload": payload}), primary=True)

    def _add_tool(self, step: Step) -> None:
        tool = step.tool
        if tool is None:
            return
        pair = self.pairing.span_part.get(step.span.span_id)
        call_id = tool.call_id
        group = None
        if pair is not None:
            (model_span, _), part = pair
            group = self.event_of.get(model_span)
            if isinstance(part.get("id"), str) and (call_id is None or part["id"] in tool.call_ids):
                call_id = part["id"]
            if tool.arguments is MISSING and tool.arguments_raw is None and "arguments" in part:
                tool = _with_arguments(tool, part["arguments"], step, self)
        event = self._tool_event(tool, call_id, step)
        if group is not None:
            event["group_id"] = group
        self._emit(step, self._agent(step, event), primary=True)

    def _tool_event(self, tool: ToolInfo, call_id: str | None, step: Step) -> dict[str, Any]:
        payload: dict[str, Any] = {"name": tool.name}
        if tool.arguments is not MISSING:
            payload["arguments"] = tool.arguments
        if tool.arguments_raw is not None:
            payload["arguments_raw"] = tool.arguments_raw
        if tool.result is not None:
            payload["result"] = tool.result
        if tool.result_raw is not None:
            payload["result_raw"] = tool.result_raw
        payload["is_error"] = tool.is_error
        if tool.outcome is not None:
            payload["outcome"] = tool.outcome
        if tool.mcp_server is not None:
            payload["source"] = "mcp"
            payload["mcp_server"] = tool.mcp_server
        if call_id is not None:
            payload["call_id"] = call_id
        if tool.error_type is not None:
            payload["error_type"] = tool.error_type
        if tool.error_message is not None:
            payload["error_message"] = tool.error_message
        event = {"kind": "tool_call", "payload": payload}
        if call_id is not None:
            self.calls[call_id] = payload
        return event

    def _add_model(self, step: Step) -> None:
        model = step.model
        if model is None:
            return
        first = not self.seen_model
        self.seen_model = True
        self._inputs(step, model, first=first, sub_agent=self.tree.nested(step))
        model_id = self._emit(step, self._agent(step, self._model_event(step, model)), primary=True)
        self._outputs(step, model, model_id)

    def _model_event(self, step: Step, model: ModelInfo) -> dict[str, Any]:
        payload: dict[str, Any] = {}
        for key in ("model", "provider", "finish_reason"):
            if getattr(model, key) is not None:
                payload[key] = getattr(model, key)
        usage = _usage(model)
        if usage:
            payload["usage"] = usage
            self._add_usage(usage)
        else:
            self.without_usage += 1
        self.with_messages = self.with_messages or bool(model.input or model.output)
        payload["is_error"] = step.span.error
        if step.span.error and step.span.error_message is not None:
            payload["error_message"] = step.span.error_message
        return {"kind": "model_call", "payload": payload}

    def _add_usage(self, usage: Mapping[str, Any]) -> None:
        for key in ("input_tokens", "output_tokens", "total_tokens"):
            if key in usage:
                self.usage[key] = self.usage.get(key, 0) + usage[key]
        for key, value in (usage.get("details") or {}).items():
            details = self.usage.setdefault("details", {})
            details[key] = details.get(key, 0) + value
        if usage.get("reported_by"):
            self.reported_by.add(usage["reported_by"])

    def _inputs(self, step: Step, model: ModelInfo, *, first: bool, sub_agent: bool) -> None:
        messages = list(model.input)
        if first and model.system and not any(m.get("role") == "system" for m in messages):
            messages.insert(
                0, {"role": "system", "parts": [{"type": "text", "content": model.system}]}
            )
        if not first:
            last = max(
                (i for i, m in enumerate(messages) if m.get("role") == "assistant"), default=-1
            )
            messages = messages[last + 1 :]
        for message in messages:
            role = message.get("role")
            parts = [p for p in message.get("parts") or () if isinstance(p, Mapping)]
            for part in parts:
                if part.get("type") == "tool_call_response":
                    self._result(step, part)
            text = "".join(
                p["content"]
                for p in parts
                if p.get("type") == "text" and isinstance(p.get("content"), str)
            )
            speaker = _SPEAKERS.get(role) if isinstance(role, str) else None
            if speaker is not None and text and not sub_agent:
                event = {"kind": "message", "actor_ref": speaker, "payload": {"text": text}}
                self._emit(step, self._agent(step, event))

    def _result(self, step: Step, part: Mapping[str, Any]) -> None:
        call_id = part.get("id") if isinstance(part.get("id"), str) else None
        if call_id in self.pairing.handoff_calls:
            return  # the handoff's own acknowledgement: the delegation event stands for it
        response = part.get("response", part.get("result"))
        payload = self.calls.get(call_id) if isinstance(call_id, str) else None
        if payload is None:
            name = part.get("name") if isinstance(part.get("name"), str) else "<unknown>"
            event: dict[str, Any] = {"kind": "tool_call", "payload": {"name": name}}
            if response is not None:
                event["payload"]["result"] = response
            # a result whose request is not in the trace (a trimmed history): a call whose
            # arguments are not recorded, with the result's outcome, as the message formats do
            event["payload"]["outcome"] = "succeeded"
            event["payload"]["unpaired"] = True
            if isinstance(call_id, str):
                event["payload"]["call_id"] = call_id
            self._emit(step, self._agent(step, event))
            return
        if payload.get("outcome") == "pending":
            payload["outcome"] = "succeeded"
        if "result" not in payload and response is not None and not payload.get("is_error"):
            payload["result"] = response

    def _outputs(self, step: Step, model: ModelInfo, model_id: str) -> None:
        index = -1
        end = step.span.end
        for message in model.output:
            for part in message.get("parts") or ():
                if not isinstance(part, Mapping):
                    continue
                kind = part.get("type")
                if kind in ("reasoning", "thinking"):
                    text = part.get("content")
                    event = {
                        "kind": "reasoning",
                        "payload": {"text": text if isinstance(text, str) else ""},
                    }
                    self._emit(step, self._agent(step, _at(event, end)))
                elif kind == "text" and isinstance(part.get("content"), str):
                    event = {
                        "kind": "message",
                        "actor_ref": "agent",
                        "payload": {"text": part["content"]},
                    }
                    self._emit(step, self._agent(step, _at(event, end)))
                elif kind == "tool_call":
                    index += 1
                    if (step.span.span_id, index) not in self.pairing.part_span:
                        self._unspanned_call(step, part, model_id)

    def _unspanned_call(self, step: Step, part: Mapping[str, Any], model_id: str) -> None:
        name = part.get("name")
        tool = ToolInfo(name if isinstance(name, str) and name else "unknown")
        if "arguments" in part:
            tool = _with_arguments(tool, part["arguments"], step, self)
        call_id = part.get("id") if isinstance(part.get("id"), str) else None
        event = self._tool_event(tool, call_id, step)
        event["payload"]["outcome"] = "pending"
        event["group_id"] = model_id
        self._emit(step, self._agent(step, event))


def _at(event: dict[str, Any], time: float | None) -> dict[str, Any]:
    if time is not None:
        event["wall_time"] = time
    return event


def _with_arguments(tool: ToolInfo, value: Any, step: Step, assembly: Assembly) -> ToolInfo:
    arguments, raw, problem = parse_arguments(value)
    if problem is not None:
        assembly.parse_error(f"{step.span.position}: {tool.name} arguments", problem, raw)
    return attrs.evolve(tool, arguments=arguments, arguments_raw=raw)


def _usage(model: ModelInfo) -> dict[str, Any]:
    usage: dict[str, Any] = {}
    if model.input_tokens is not None:
        usage["input_tokens"] = model.input_tokens
    if model.output_tokens is not None:
        usage["output_tokens"] = model.output_tokens
    if model.input_tokens is not None and model.output_tokens is not None:
        usage["total_tokens"] = model.input_tokens + model.output_tokens
    if model.details:
        usage["details"] = dict(model.details)
    if usage and model.reported_by:
        usage["reported_by"] = model.reported_by
    return usage


def finish(
    assembly: Assembly, metadata: dict[str, Any], fallback: AgentInfo | None = None
) -> TrialRecord:
    """The record: the root agent names the run, its error fails it; usage sums model calls."""
    assembly.link_parents()
    root = assembly.tree.root
    if root is not None and root.agent is not None:
        metadata.setdefault("agent", root.agent.name)
        _run_messages(assembly, root.agent, root.span)
    if fallback is not None:
        _run_messages(assembly, fallback, None)
    data: dict[str, Any] = {"events": assembly.events, "metadata": metadata}
    data["status"], errors = run_status(assembly)
    if errors:
        data["errors"] = errors
    if not assembly.with_messages and not any(e["kind"] == "message" for e in assembly.events):
        data["surfaces"] = list(SURFACES_WITHOUT_MESSAGES)  # so the reply is not recorded
    if assembly.usage and not assembly.without_usage:  # a partial sum is no run usage
        usage = dict(assembly.usage)
        if assembly.reported_by:
            usage["reported_by"] = "; ".join(sorted(assembly.reported_by))
        data["usage"] = usage
    return decode_record(
        data, assembly.positions, assembly.parse_error, assembly.errors, assembly.source
    )


SURFACES_WITHOUT_MESSAGES: Final = ("delegation", "guardrail", "model_call", "span", "tool_call")
"""What a span tree records when no span records messages (the OpenAI Agents SDK's default
model, GenAI content capture off): the record's ``surfaces``, so that reply and message checks
are ``invalid`` ("the trace does not record the reply"), never failed."""


def run_status(assembly: Assembly) -> tuple[str, list[dict[str, Any]]]:
    """The run's status and errors, from the run itself: ``failed`` when its root span (the root
    agent's, else any top-level span's) ended in error; ``incomplete`` when a tool call is still
    pending (a request no span or result answered); else ``completed``."""
    tree = assembly.tree
    roots = (
        [tree.root]
        if tree.root is not None
        else [step for step in tree.by_id.values() if tree.parent(step) is None]
    )
    errors = [
        {"span_id": step.span.span_id, "message": step.span.error_message}
        for step in roots
        if step.span.error
    ]
    if errors:
        return "failed", errors
    pending = any(
        event["kind"] == "tool_call" and event["payload"].get("outcome") == "pending"
        for event in assembly.events
    )
    return ("incomplete" if pending else "completed"), []


def _run_messages(assembly: Assembly, info: AgentInfo, span: Span | None) -> None:
    """The run's input and output as messages when no model call recorded them."""
    span_id = span.span_id if span is not None else "run"
    position = span.position if span is not None else "$"
    root_messages = [e for e in assembly.events if "agent" not in e and e["kind"] == "message"]
    has_user = any(e.get("actor_ref") == "user" for e in root_messages)
    has_agent = any(e.get("actor_ref") == "agent" for e in root_messages)
    if isinstance(info.input, str) and info.input and not has_user:
        event: dict[str, Any] = {"event_id": f"{span_id}.input", "kind": "message"}
        event.update(actor_ref="user", payload={"text": info.input})
        if span is not None and span.start is not None:
            event["wall_time"] = span.start
        assembly.events.insert(0, event)
        assembly.positions.insert(0, position)
    if isinstance(info.output, str) and info.output and not has_agent:
        event = {"event_id": f"{span_id}.output", "kind": "message"}
        event.update(actor_ref="agent", payload={"text": info.output})
        if span is not None and span.end is not None:
            event["wall_time"] = span.end
        assembly.events.append(event)
        assembly.positions.append(position)


def decode_record(
    data: dict[str, Any],
    positions: list[str],
    parse_error: Callable[[str, str, Any], None],
    errors: list[dict[str, Any]],
    source: str | None,
) -> TrialRecord:
    """``TrialRecord.from_dict(data)``; an event it rejects becomes a parse error at the
    position it came from (``positions[i]`` for ``data["events"][i]``), and the rest is read.

    Raises:
        RecordError: A problem outside the events (left to the record model's message).
    """
    events = data["events"]
    while True:
        data["parse_errors"] = list(errors)
        try:
            return record_of(data, source)
        except RecordError as exc:
            found = {_event_index(p.path) for p in exc.problems}
            bad = sorted((i for i in found if i is not None), reverse=True)
            if not bad:
                raise
            dropped: dict[str, Any] = {}
            for index in bad:
                problems = [p.message for p in exc.problems if _event_index(p.path) == index]
                event = events.pop(index)
                if isinstance(event, Mapping) and isinstance(event.get("event_id"), str):
                    dropped[event["event_id"]] = event.get("parent_id")
                parse_error(positions.pop(index), "; ".join(problems), event)
            _reattach(events, dropped)


def _reattach(events: list[Any], dropped: Mapping[str, Any]) -> None:
    """Give the children of dropped events the parent of the nearest event that stays, so one
    rejected span never takes its descendants with it (nor costs a decoding round per level)."""
    kept = {e.get("event_id") for e in events if isinstance(e, Mapping)}
    final: dict[str, Any] = {}
    for start in dropped:
        path, node = [], start
        while node in dropped and node not in kept and node not in final and node not in path:
            path.append(node)
            node = dropped[node]
        target = final.get(node, node if node not in path else None)
        for item in path:
            final[item] = target
    for event in events:
        if isinstance(event, dict) and event.get("parent_id") in final:
            parent = final[event["parent_id"]]
            if parent is None:
                del event["parent_id"]
            else:
                event["parent_id"] = parent


def _event_index(path: str) -> int | None:
    if not path.startswith("$.events["):
        return None
    return int(path[len("$.events[") :].split("]", 1)[0])


class _Tree:
    """Parent links, agent scopes and the root agent of one trace.

    Worked out once, in one pass over the spans in parent-first order (:func:`forest`): every
    question about a span's ancestors is then a look-up, so a trace is read in time linear in
    its span count whatever the tree's depth, and without recursion. A parent link that would
    close a cycle is cut (:attr:`cut` lists those spans), the same way as for the start order
    (:func:`start_positions`): walking the steps in their input order.
    """

    def __init__(self, steps: Sequence[Step], ordered: Sequence[Step]) -> None:
        self.by_id = {step.span.span_id: step for step in steps}
        links = {span_id: step.span.parent_id for span_id, step in self.by_id.items()}
        self.parent_of, self.order = forest(links)
        self.cut = [
            step
            for span_id, step in self.by_id.items()
            if self.parent_of[span_id] is None and links[span_id] in self.by_id
        ]
        self._scope: dict[str, Step | None] = {}  # span id -> nearest agent ancestor
        for span_id in self.order:
            parent = self.parent_of[span_id]
            self._scope[span_id] = None if parent is None else self._scope_below(parent)
        self.root: Step | None = next(
            (s for s in ordered if s.role == "agent" and self.agent_ancestor(s) is None), None
        )

    def _scope_below(self, parent: str) -> Step | None:
        """The agent that a child of ``parent`` runs in."""
        up = self.by_id[parent]
        return up if up.role == "agent" else self._scope[parent]

    def parent(self, step: Step) -> str | None:
        """The id of the step's parent span (None: a top-level span)."""
        span_id = step.span.span_id
        if self.by_id.get(span_id) is step:
            return self.parent_of[span_id]
        parent = step.span.parent_id  # a step whose id another step of the trace reuses
        return parent if parent in self.by_id and parent != span_id else None

    def agent_ancestor(self, step: Step) -> Step | None:
        """The nearest agent span above ``step`` (None: it runs in no agent)."""
        parent = self.parent(step)
        return None if parent is None else self._scope_below(parent)

    def agent_name(self, step: Step) -> str | None:
        """The agent a step belongs to (None: the root agent)."""
        scope = step if step.role == "agent" else self.agent_ancestor(step)
        if scope is None or scope is self.root or scope.agent is None:
            return None
        return scope.agent.name

    def nested(self, step: Step) -> bool:
        """Whether a step runs inside an agent that itself runs inside another agent."""
        scope = self.agent_ancestor(step)
        return scope is not None and self.agent_ancestor(scope) is not None

    def scope_id(self, step: Step) -> str | None:
        scope = self.agent_ancestor(step)
        return None if scope is None else scope.span.span_id

    def event_parents(self, event_of: Mapping[str, str]) -> dict[str, str | None]:
        """Span id -> the event of its nearest ancestor span that became an event."""
        found: dict[str, str | None] = {}
        for span_id in self.order:
            parent = self.parent_of[span_id]
            found[span_id] = None if parent is None else event_of.get(parent, found[parent])
        return found


def build_record(
    steps: Sequence[Step],
    *,
    source: str | None = None,
    metadata: Mapping[str, Any] | None = None,
    parse_errors: Sequence[tuple[str, str, Any]] = (),
    fallback: AgentInfo | None = None,
) -> TrialRecord:
    """One record from a trace's steps (any order), plus the parse errors already found.

    Args:
        steps: The trace's interpreted spans.
        source: A file name shown in parse errors.
        metadata: Record metadata (the trace id, the service…).
        parse_errors: ``(where, reason, item)`` of spans that could not be read at all.
        fallback: The run's input and output when no agent span records them (a Langfuse
            trace's own ``input``/``output``).
    """
    ordered = _by_start(steps)
    tree = _Tree(steps, ordered)
    assembly = Assembly(tree, source=source)
    for where, reason, item in parse_errors:
        assembly.parse_error(where, reason, item)
    for step in tree.cut:
        reason = f"its parent {step.span.parent_id!r} closes a cycle of parent links"
        assembly.parse_error(step.span.position, reason + ": read as a top-level span")
    assembly.pairing.plan(ordered)
    for step in ordered:
        assembly.add(step)
    return finish(assembly, dict(metadata or {}), fallback)


def _by_start(steps: Sequence[Step]) -> list[Step]:
    return [steps[index] for index in start_positions([step.span for step in steps])]


__all__ = [
    "ROLES",
    "SURFACES_WITHOUT_MESSAGES",
    "TOOL_SPAN_PREFIXES",
    "AgentInfo",
    "Assembly",
    "ModelInfo",
    "Pairing",
    "PartKey",
    "Span",
    "SpanEvent",
    "Step",
    "ToolInfo",
    "build_record",
    "call_ids",
    "decode_record",
    "finish",
    "forest",
    "is_tool_definition",
    "iso_seconds",
    "messages",
    "openinference_messages",
    "run_status",
    "start_order",
    "start_positions",
    "strip_prefixes",
    "to_parts",
    "tool_of_span_name",
    "tool_parts",
    "unflatten",
]
