"""``TrialRecord``: what happened in one run (S0, T, Sf, and the derived D), with the values
derived from it when it is made — the reply, the delta, the indexes (positions by kind, tool,
memory name and id; the spans of parallel groups), the timeline (when each
event started), the run's usage (as recorded, or the sum over its ``model_call`` events) — and
the view of one agent.

>>> rec = TrialRecord.from_dict({
...     "initial_state": {"orders": {"A1": "paid"}},
...     "final_state": {"orders": {"A1": "refunded"}},
...     "events": [
...         {"kind": "message", "actor_ref": "user", "payload": {"text": "refund A1"}},
...         {"kind": "tool_call", "payload": {"name": "refund", "arguments": {"id": "A1"}}},
...         {"kind": "message", "actor_ref": "agent", "payload": {"text": "Done"}},
...     ],
... })
>>> rec.reply, rec.tool_positions("refund"), [str(d) for d in rec.delta]
('Done', (1,), ["changed /orders/A1: 'paid' -> 'refunded'"])
>>> rec = (TrialRecord.builder().model_call("m", {"input_tokens": 5, "output_tokens": 1})
...        .model_call("m", {"input_tokens": 7, "output_tokens": 2}).build())
>>> sum_model_calls(rec.events)
Usage(input_tokens=12, output_tokens=3, total_tokens=15, reported_by='sum over 2 model_call events')
>>> rec = (TrialRecord.builder().event("agent_run", agent="billing", event_id="run")
...        .tool("refund", {}, parent_id="run").tool("notify", {}).build())
>>> [e.event_id for e in agent_view(rec, "billing").events]
['run', 'e1']
>>> rec = (TrialRecord.builder().user("hi", wall_time="2026-05-01T10:00:00Z")
...        .tool("lookup", {}, wall_time="2026-05-01T10:00:02Z", duration=1.5).build())
>>> rec.timeline.elapsed(1), rec.timeline.duration
(2.0, 3.5)
>>> idx = RecordIndex.build([Event("tool_call", ToolCallPayload("search"), "e0", turn=1)])
>>> idx.tools["search"], idx.kinds["tool_call"], idx.ids["e0"], idx.turns, idx.event_ids
((0,), (0,), 0, (1,), ('e0',))
>>> rec = (TrialRecord.builder().tool("a", group_id="r1").tool("b", group_id="r1")
...        .tool("c").build())
>>> rec.groups.precedes(0, 1), rec.groups.precedes(0, 2), rec.groups.parallel(0, 1)
(False, True, True)
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from agent_asserts._values import MISSING, _Missing, from_strict_json, strict_json
from agent_asserts.record.declared_tools import DeclaredTool
from agent_asserts.record.decoding import decode_record
from agent_asserts.record.delta import DeltaEntry, compute_delta
from agent_asserts.record.errors import ParseError
from agent_asserts.record.event import (
    USAGE_COUNTERS,
    Event,
    MemoryPayload,
    MessagePayload,
    ModelCallPayload,
    ToolCallPayload,
    Usage,
    derive_turns,
)

if TYPE_CHECKING:
    from agent_asserts.record.builder import RecordBuilder


# The indexes of a record's events, built in one pass: positions by kind, tool, memory name and
# id (RecordIndex), and the spans of the parallel groups (GroupSpans). Events sharing a
# ``group_id`` have no order among them: an event *strictly precedes* another when its group
# (itself, when it has no ``group_id``) ends before the other's group starts. Order-sensitive
# checks use GroupSpans to say "after" that way, so two tool calls issued in one model response
# are never ordered.


@attrs.frozen
class GroupSpans:
    """The first and last position of every parallel group of a record.

    Attributes:
        spans: ``group_id`` → ``(first position, last position)``.
        group_of: Position → ``group_id``, for the events that have one.
    """

    spans: dict[str, tuple[int, int]]
    group_of: dict[int, str]

    @classmethod
    def build(cls, events: Sequence[Event]) -> GroupSpans:
        """Scan the events once.

        >>> GroupSpans.build(()).spans
        {}
        """
        spans: dict[str, tuple[int, int]] = {}
        group_of: dict[int, str] = {}
        for position, event in enumerate(events):
            group = event.group_id
            if group is not None:
                group_of[position] = group
                first = spans.get(group)
                spans[group] = (position, position) if first is None else (first[0], position)
        return cls(spans, group_of)

    def start(self, position: int) -> int:
        """Where the group of the event at ``position`` starts (the position itself alone).

        >>> GroupSpans({"g": (1, 3)}, {1: "g", 3: "g"}).start(3)
        1
        """
        group = self.group_of.get(position)
        return position if group is None else self.spans[group][0]

    def end(self, position: int) -> int:
        """Where the group of the event at ``position`` ends (the position itself alone).

        >>> GroupSpans({"g": (1, 3)}, {1: "g", 3: "g"}).end(1)
        3
        """
        group = self.group_of.get(position)
        return position if group is None else self.spans[group][1]

    def precedes(self, earlier: int, later: int) -> bool:
        """True when the event at ``earlier`` strictly precedes the one at ``later``.

        >>> GroupSpans({}, {}).precedes(1, 2)
        True
        """
        if not self.group_of:
            return earlier < later
        return self.end(earlier) < self.start(later)

    def parallel(self, a: int, b: int) -> bool:
        """True when two different events share a group.

        >>> GroupSpans({"g": (0, 1)}, {0: "g", 1: "g"}).parallel(0, 1)
        True
        """
        group = self.group_of.get(a)
        return a != b and group is not None and self.group_of.get(b) == group


@attrs.frozen
class RecordIndex:
    """Positions of events (indexes into ``record.events``), grouped for O(matches) lookups.

    Attributes:
        kinds: Positions of each kind.
        tools: Positions of the ``tool_call`` events of each tool name.
        memory: Positions of the ``memory`` events (set and clear) of each memory name.
        ids: Position of each event id.
        turns: Sorted turn numbers that have events.
        event_ids: The id of each event, by position (a check listing the ids of many events
            reads this column, not each event: on a large record the events lie far apart in
            memory). The ids are equal copies laid out one after another (see
            :func:`_laid_together`).

    >>> RecordIndex.build([]).kinds
    {}
    """

    kinds: Mapping[str, tuple[int, ...]]
    tools: Mapping[str, tuple[int, ...]]
    memory: Mapping[str, tuple[int, ...]]
    ids: Mapping[str, int]
    turns: tuple[int, ...]
    event_ids: tuple[str, ...] = ()

    def tool_ids(self, name: str) -> tuple[str, ...]:
        """The event ids of the calls of tool ``name``, in order.

        >>> from agent_asserts.record.event import ToolCallPayload
        >>> events = [Event("tool_call", ToolCallPayload(n), f"e{i}") for i, n in enumerate("aba")]
        >>> RecordIndex.build(events).tool_ids("a"), RecordIndex.build(events).tool_ids("c")
        (('e0', 'e2'), ())
        """
        return self.ids_at(self.tools.get(name, ()))

    def ids_at(self, positions: Sequence[int]) -> tuple[str, ...]:
        """The event ids at ``positions``, in the given order.

        >>> RecordIndex.build([Event("step", {}, "s0"), Event("step", {}, "s1")]).ids_at([1, 0])
        ('s1', 's0')
        """
        column = self.event_ids
        return tuple([column[p] for p in positions])

    @classmethod
    def build(cls, events: Sequence[Event]) -> RecordIndex:
        """Index ``events`` in a single pass.

        Args:
            events: The record's events, in order.

        Returns:
            The index.

        >>> from agent_asserts.record.event import MemoryPayload
        >>> event = Event("memory", MemoryPayload("a", 1), "m", event_type="set")
        >>> RecordIndex.build([event]).memory
        {'a': (0,)}
        """
        kinds: dict[str, list[int]] = {}
        tools: dict[str, list[int]] = {}
        memory: dict[str, list[int]] = {}
        ids: dict[str, int] = {}
        turns: set[int] = set()
        event_ids: list[str] = []
        for position, event in enumerate(events):
            bucket = kinds.get(event.kind)
            if bucket is None:
                kinds[event.kind] = [position]
            else:
                bucket.append(position)
            event_id = event.event_id
            event_ids.append(event_id)
            if event_id not in ids:
                ids[event_id] = position
            if event.turn is not None:
                turns.add(event.turn)
            payload = event.payload
            if isinstance(payload, ToolCallPayload):
                bucket = tools.get(payload.name)
                if bucket is None:
                    tools[payload.name] = [position]
                else:
                    bucket.append(position)
            elif isinstance(payload, MemoryPayload):
                memory.setdefault(payload.name, []).append(position)
        return cls(
            kinds={kind: tuple(p) for kind, p in kinds.items()},
            tools={name: tuple(p) for name, p in tools.items()},
            memory={name: tuple(p) for name, p in memory.items()},
            ids=ids,
            turns=tuple(sorted(turns)),
            event_ids=_laid_together(event_ids),
        )


def _laid_together(ids: list[str]) -> tuple[str, ...]:
    r"""Equal copies of ``ids`` allocated one after another (``ids`` as given when one holds
    NUL or is not a string).

    A record's event ids lie among its events, one per few hundred bytes: on a large record a
    check that lists every id (the evidence of ``matches_trajectory``) touches as many scattered
    cache lines, twice (building its tuple and freeing it), and its time per id grows with the
    record. Copies made by one ``split`` lie together, so that touches one run of memory.

    >>> ids = _laid_together(["e0", "e1"])
    >>> ids, _laid_together(["a\x00b", "c"]), _laid_together([])
    (('e0', 'e1'), ('a\x00b', 'c'), ())
    """
    try:
        parts = "\x00".join(ids).split("\x00")
    except TypeError:  # an id that is not a string (an Event made by hand): the ids as given
        return tuple(ids)
    return tuple(parts) if len(parts) == len(ids) else tuple(ids)


# Time views of a record: when each event started, relative to the run's first event. An
# event's time is its ``wall_time`` (ISO 8601 text or epoch seconds) when the record has wall
# times, else its ``monotonic_time``; the two are never mixed. The run lasts from the earliest
# event time to the latest end (time + ``duration``).


def _seconds(value: str | float | None) -> float | None:
    if value is None:
        return None
    if not isinstance(value, str):
        return float(value)
    text = value.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        moment = dt.datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return moment.timestamp()


@attrs.frozen
class Timeline:
    """The start time (seconds) of every timed event and the run's bounds.

    Attributes:
        basis: ``"wall_time"``, ``"monotonic_time"``, or None when no event has a time.
        starts: Position → start time in seconds, for the events that have one.
        unreadable: Positions whose ``wall_time`` is text that is not an ISO 8601 time.
        start: The earliest start, or None.
        end: The latest end (start + duration), or None.
    """

    basis: str | None
    starts: dict[int, float]
    unreadable: tuple[int, ...]
    start: float | None
    end: float | None

    @classmethod
    def build(cls, events: Sequence[Event]) -> Timeline:
        """Read the times of ``events`` once.

        >>> Timeline.build(()).basis is None
        True
        """
        basis = None
        if any(e.wall_time is not None for e in events):
            basis = "wall_time"
        elif any(e.monotonic_time is not None for e in events):
            basis = "monotonic_time"
        starts: dict[int, float] = {}
        unreadable: list[int] = []
        end: float | None = None
        if basis is not None:
            for position, event in enumerate(events):
                raw = event.wall_time if basis == "wall_time" else event.monotonic_time
                seconds = _seconds(raw)
                if seconds is None:
                    if raw is not None:
                        unreadable.append(position)
                    continue
                starts[position] = seconds
                finish = seconds + (event.duration or 0.0)
                end = finish if end is None else max(end, finish)
        start = min(starts.values()) if starts else None
        return cls(basis, starts, tuple(unreadable), start, end)

    def elapsed(self, position: int) -> float | None:
        """Seconds from the run's first event to the start of the event at ``position``.

        >>> Timeline("monotonic_time", {0: 5.0, 2: 7.5}, (), 5.0, 7.5).elapsed(2)
        2.5
        """
        at = self.starts.get(position)
        return None if at is None or self.start is None else at - self.start

    @property
    def duration(self) -> float | None:
        """How long the run lasted (first start to last end), or None without times.

        >>> Timeline(None, {}, (), None, None).duration is None
        True
        """
        if self.start is None or self.end is None:
            return None
        return self.end - self.start


def sum_model_calls(events: Sequence[Event]) -> Usage | None:
    """The sum of the usage of every ``model_call`` event, or None when there is none or one
    of them has no usage (a partial sum would undercount).

    A counter (or ``details`` key) is summed only when every call has it; ``reported_by``
    says the usage is a sum.

    >>> from agent_asserts.record import TrialRecord
    >>> sum_model_calls(TrialRecord.builder().model_call("m").build().events) is None
    True
    """
    usages: list[Usage] = []
    for event in events:
        payload = event.payload
        if isinstance(payload, ModelCallPayload):
            if payload.usage is None:
                return None
            usages.append(payload.usage)
    if not usages:
        return None
    counts: list[int | None] = []
    for name in USAGE_COUNTERS:
        values = [getattr(u, name) for u in usages]
        counts.append(None if None in values else sum(values))
    keys = set(usages[0].details).intersection(*(u.details for u in usages[1:]))
    details = {key: sum(u.details[key] for u in usages) for key in sorted(keys)}
    noun = "event" if len(usages) == 1 else "events"
    return Usage(
        input_tokens=counts[0],
        output_tokens=counts[1],
        total_tokens=counts[2],
        details=details,
        reported_by=f"sum over {len(usages)} model_call {noun}",
    )


def model_calls_without_usage(events: Sequence[Event]) -> tuple[int, int]:
    """``(without, total)``: how many ``model_call`` events carry no usage, of how many.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().model_call("m").model_call("m", {"total_tokens": 3}).build()
    >>> model_calls_without_usage(rec.events)
    (1, 2)
    """
    without = total = 0
    for event in events:
        payload = event.payload
        if isinstance(payload, ModelCallPayload):
            total += 1
            without += payload.usage is None
    return without, total


def agent_positions(record: TrialRecord, name: str) -> list[int]:
    """Positions of the events of agent ``name`` and of their descendants (``parent_id``).

    >>> from agent_asserts.record import TrialRecord
    >>> agent_positions(TrialRecord.builder().user("hi").build(), "billing")
    []
    """
    events = record.events
    parent_of = {e.event_id: e.parent_id for e in events if e.parent_id is not None}
    agent_of = {e.event_id: e.agent for e in events}
    memo: dict[str, bool] = {}

    def belongs(event_id: str) -> bool:
        walked: list[str] = []
        seen: set[str] = set()
        node: str | None = event_id
        while node is not None and node not in memo and node not in seen:
            if agent_of.get(node) == name:
                memo[node] = True
                break
            walked.append(node)
            seen.add(node)
            node = parent_of.get(node)
        answer = memo.get(node, False) if node is not None else False
        for item in walked:
            memo[item] = answer
        return answer

    return [p for p, e in enumerate(events) if belongs(e.event_id)]


def agent_view(record: TrialRecord, name: str) -> TrialRecord:
    """The record of agent ``name`` (see :meth:`TrialRecord.for_agent`).

    >>> from agent_asserts.record import TrialRecord
    >>> agent_view(TrialRecord.builder().agent("hi", agent="b").build(), "b").reply
    'hi'
    """
    events = tuple(record.events[p] for p in agent_positions(record, name))
    reply = None
    for event in reversed(events):
        payload = event.payload
        if (
            event.actor_ref == "agent"
            and event.agent == name
            and isinstance(payload, MessagePayload)
        ):
            reply = payload.text
            break
    return attrs.evolve(record, events=events, reply=reply, usage=None, steps=None, status=None)


def _to_events(events: Iterable[Event]) -> tuple[Event, ...]:
    events = tuple(events)
    for event in events:
        if event.turn is None:
            return derive_turns(events)
    return events


def _to_errors(errors: Iterable[Any]) -> tuple[Any, ...]:
    return tuple(errors)


def _to_parse_errors(errors: Iterable[ParseError]) -> tuple[ParseError, ...]:
    return tuple(errors)


def _to_tools(tools: Iterable[DeclaredTool] | None) -> tuple[DeclaredTool, ...] | None:
    return None if tools is None else tuple(tools)


def _to_surfaces(surfaces: Iterable[str] | None) -> frozenset[str] | None:
    return None if surfaces is None else frozenset(surfaces)


@attrs.frozen(slots=False)
class TrialRecord:
    """The evidence of one run: initial state, events, final state, run-level data.

    Build one with :meth:`from_dict`, :meth:`load` or :meth:`builder`. Derived values (the
    reply, the delta, the indexes, the timeline…) are computed when the record is made, from
    its fields (a record never changes). Events without a ``turn`` get a derived one (see
    :func:`~agent_asserts.record.event.derive_turns`).

    Attributes:
        events: The events in order of occurrence.
        initial_state: S0 (JSON data), or None when not recorded.
        final_state: Sf (JSON data), or None when not recorded.
        status: The run's final status (``completed``, ``stopped``…), or None.
        explicit_reply: The reply given explicitly (constructor argument ``reply``), or None.
        steps: The number of agent steps, or None.
        usage: Token usage, or None.
        errors: Errors the harness recorded (JSON data).
        surfaces: The kinds the harness recorded, or None for "every kind".
        parse_errors: Items an adapter could not decode.
        metadata: Free JSON data about the run.
        tools: The tools the agent was offered, or None when not recorded.
        reply: The explicit reply, else the text of the last agent message; without either,
            None when the record records messages (the agent sent no reply) and ``MISSING``
            when it does not (its ``surfaces`` leave out ``message``: the trace does not
            record the reply).
        delta: D, the changes from ``initial_state`` to ``final_state``; None if either is
            missing.
        index: The record's indexes (:class:`RecordIndex`).
        tool_calls: Every ``tool_call`` event, in order.
        timeline: The times of the events (a :class:`Timeline`).
        run_usage: ``usage`` as recorded, else the sum over the ``model_call`` events
            (``reported_by`` says so), else None.
        unrecorded_arguments: Positions of the tool calls whose arguments were not recorded.
        groups: The parallel groups (``group_id``) of the events: events of one group have
            no order among them (see :class:`GroupSpans`).

    >>> rec = TrialRecord(events=(), status="completed", reply="ok")
    >>> rec.reply, rec.explicit_reply, rec.delta
    ('ok', 'ok', None)
    """

    events: tuple[Event, ...] = attrs.field(default=(), converter=_to_events)
    initial_state: Any = None
    final_state: Any = None
    status: str | None = None
    explicit_reply: str | None = attrs.field(default=None, alias="reply")
    steps: int | None = None
    usage: Usage | None = None
    errors: tuple[Any, ...] = attrs.field(default=(), converter=_to_errors)
    surfaces: frozenset[str] | None = attrs.field(default=None, converter=_to_surfaces)
    parse_errors: tuple[ParseError, ...] = attrs.field(default=(), converter=_to_parse_errors)
    metadata: Mapping[str, Any] = attrs.field(factory=dict)
    tools: tuple[DeclaredTool, ...] | None = attrs.field(default=None, converter=_to_tools)

    # -- derived values, computed from the fields above when the record is made ---------------

    index: RecordIndex = attrs.field(init=False, eq=False, repr=False)
    reply: str | _Missing | None = attrs.field(init=False, eq=False, repr=False)
    delta: tuple[DeltaEntry, ...] | None = attrs.field(init=False, eq=False, repr=False)
    tool_calls: tuple[Event, ...] = attrs.field(init=False, eq=False, repr=False)
    timeline: Timeline = attrs.field(init=False, eq=False, repr=False)
    run_usage: Usage | None = attrs.field(init=False, eq=False, repr=False)
    unrecorded_arguments: tuple[int, ...] = attrs.field(init=False, eq=False, repr=False)
    groups: GroupSpans = attrs.field(init=False, eq=False, repr=False)

    @index.default
    def _index(self) -> RecordIndex:
        """The indexes, built in one pass over the events.

        >>> TrialRecord.builder().user("hi").build().index.kinds
        {'message': (0,)}
        """
        return RecordIndex.build(self.events)

    @reply.default
    def _reply(self) -> str | _Missing | None:
        """The explicit reply, else the text of the last agent message, else None — or
        ``MISSING`` when the record does not record messages.

        >>> TrialRecord.builder().agent("a").agent("b").build().reply
        'b'
        >>> TrialRecord().reply, TrialRecord(surfaces=["tool_call"]).reply
        (None, MISSING)
        """
        if self.explicit_reply is not None:
            return self.explicit_reply
        events = self.events
        for position in reversed(self.index.kinds.get("message", ())):
            event = events[position]
            if event.actor_ref == "agent" and isinstance(event.payload, MessagePayload):
                return event.payload.text
        return None if self.records("message") else MISSING

    @delta.default
    def _delta(self) -> tuple[DeltaEntry, ...] | None:
        """D: the changes from ``initial_state`` to ``final_state``; None if either is missing.

        >>> TrialRecord(initial_state={"a": 1}, final_state={"a": 2}).delta
        (DeltaEntry(path='/a', op='changed', before=1, after=2),)
        """
        if self.initial_state is None or self.final_state is None:
            return None
        return compute_delta(self.initial_state, self.final_state)

    @tool_calls.default
    def _tool_calls(self) -> tuple[Event, ...]:
        """Every ``tool_call`` event, in order.

        >>> [e.payload.name for e in TrialRecord.builder().tool("a").tool("b").build().tool_calls]
        ['a', 'b']
        """
        events = self.events
        return tuple([events[p] for p in self.index.kinds.get("tool_call", ())])

    @timeline.default
    def _timeline(self) -> Timeline:
        """The times of the events (a :class:`Timeline`).

        >>> TrialRecord.builder().user("a", monotonic_time=2.0).build().timeline.start
        2.0
        """
        return Timeline.build(self.events)

    @run_usage.default
    def _run_usage(self) -> Usage | None:
        """The run's usage: ``usage`` as recorded, else the sum over the ``model_call``
        events (``reported_by`` says so), else None.

        >>> TrialRecord.builder().model_call("m", {"total_tokens": 4}).build().run_usage
        Usage(input_tokens=None, output_tokens=None, total_tokens=4,
              reported_by='sum over 1 model_call event')
        """
        return self.usage if self.usage is not None else sum_model_calls(self.events)

    @unrecorded_arguments.default
    def _unrecorded_arguments(self) -> tuple[int, ...]:
        """Positions of the tool calls whose arguments were not recorded (``MISSING``).

        >>> TrialRecord.builder().tool("a", {}).tool("b").build().unrecorded_arguments
        (1,)
        """
        events = self.events
        return tuple(
            p
            for p in self.index.kinds.get("tool_call", ())
            if getattr(events[p].payload, "arguments", None) is MISSING
        )

    @groups.default
    def _groups(self) -> GroupSpans:
        """The parallel groups (``group_id``) of the events.

        >>> TrialRecord.builder().tool("a", group_id="r1").build().groups.spans
        {'r1': (0, 0)}
        """
        return GroupSpans.build(self.events)

    # -- constructors -------------------------------------------------------------------------

    @classmethod
    def from_dict(cls, data: Any, *, source: str | None = None) -> TrialRecord:
        """Validate and decode the canonical dict form.

        Args:
            data: The parsed JSON document.
            source: A file name to mention in problems (used by :meth:`load`).

        Returns:
            The record.

        Raises:
            RecordError: Listing every problem with its JSON path.

        >>> TrialRecord.from_dict({"events": [{"kind": "memory", "event_type": "write",
        ...                                    "payload": {"name": "a"}}]})
        Traceback (most recent call last):
        ...
        agent_asserts.record.errors.RecordError: invalid record: 1 problem(s)
          $.events[0].event_type: must be one of 'set', 'clear' for kind 'memory' (got 'write')
        """
        return cls(**decode_record(from_strict_json(data), source))

    @classmethod
    def load(
        cls,
        path: str | os.PathLike[str],
        format: str = "auto",
        *,
        initial_state: Any = None,
        final_state: Any = None,
    ) -> TrialRecord:
        """Read the one run of a file: a canonical record, or a trace in any registered format
        (detected from the data's shape with ``format="auto"``).

        Args:
            path: The file (UTF-8 JSON, or JSON Lines).
            format: A name of :func:`agent_asserts.record.adapters.formats`, or ``"auto"``.
            initial_state: S0 to set (data, or a JSON file path), None to keep the record's.
            final_state: Sf likewise.

        Returns:
            The record.

        Raises:
            RecordError: Invalid JSON (naming file, line and column), JSON that :mod:`json`
                would accept but is ambiguous or not JSON — a duplicate key in a canonical
                record (a foreign trace keeps the last value, with a ``RecordWarning``) or a
                ``NaN`` / ``Infinity`` constant (each naming its JSON path), an integer too long to
                convert, a document nested too deeply — an invalid record (every problem
                naming the file), a format that cannot be told, or a file holding several
                runs (read those with :func:`agent_asserts.iter_records`).
            OSError: The file cannot be read.

        >>> import json, pathlib, tempfile
        >>> file = pathlib.Path(tempfile.mkdtemp()) / "run.json"
        >>> _ = file.write_text('{"steps": 2\\n "status": "ok"}')
        >>> TrialRecord.load(file)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        agent_asserts.record.errors.RecordError: invalid record: 1 problem(s)
          ...run.json:2:2: invalid JSON: Expecting ',' delimiter
        """
        from agent_asserts.record.reading import load_one

        return load_one(path, format, initial_state=initial_state, final_state=final_state)

    @classmethod
    def from_trace(
        cls, data: Any, format: str = "auto", *, initial_state: Any = None, final_state: Any = None
    ) -> TrialRecord:
        """The one run of trace data, in any registered format.

        Args:
            data: Data parsed from JSON; the objects the SDKs hand you (OpenAI, Anthropic,
                LangChain messages and LangGraph state, pydantic-ai messages and run results,
                OpenTelemetry spans, Agents SDK traces and run results, google-genai contents,
                MCP messages; docs/traces.md, "Objects from the SDKs"), alone or in lists and
                dicts; a ``str``, read as JSON text (never as a path); or a file as an
                ``os.PathLike``.
            format: A name of :func:`agent_asserts.record.adapters.formats`, or ``"auto"``.
            initial_state: S0 to set (data, or a JSON file path), None to keep the record's.
            final_state: Sf likewise.

        Raises:
            RecordError: An object of no known kind (its type, where it was, what to pass), a
                ``str`` that is not JSON, a format that cannot be told, an invalid run, or
                data holding several runs.

        >>> TrialRecord.from_trace({"detailed_trace": ["Agent Text: hi"]}).reply
        'hi'
        >>> TrialRecord.from_trace('{"detailed_trace": ["Agent Text: hi"]}').metadata
        {'format': 'ces'}
        """
        from agent_asserts.record.reading import from_trace

        return from_trace(data, format, initial_state=initial_state, final_state=final_state)

    def with_state(
        self, *, initial_state: Any = MISSING, final_state: Any = MISSING
    ) -> TrialRecord:
        """A copy with S0 and/or Sf replaced (data, or a JSON file path); the rest unchanged.

        >>> rec = TrialRecord().with_state(initial_state={"a": 1}, final_state={"a": 2})
        >>> [str(d) for d in rec.delta]
        ['changed /a: 1 -> 2']
        """
        from agent_asserts.record.reading import state_value

        changes: dict[str, Any] = {}
        if initial_state is not MISSING:
            changes["initial_state"] = state_value(initial_state, "initial_state")
        if final_state is not MISSING:
            changes["final_state"] = state_value(final_state, "final_state")
        return attrs.evolve(self, **changes)

    @staticmethod
    def builder(initial_state: Any = None) -> RecordBuilder:
        """A :class:`RecordBuilder` for writing a record in code.

        >>> TrialRecord.builder().user("hi").agent("hello").build().reply
        'hello'
        """
        from agent_asserts.record.builder import RecordBuilder

        return RecordBuilder(initial_state=initial_state)

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form (``TrialRecord.from_dict(r.to_dict()) == r``).

        Absent values (None, empty ``errors``/``parse_errors``/``metadata``) are omitted;
        ``reply`` is the explicit reply only; ``surfaces`` is sorted. Values are shared with
        the record, not copied, except that a non-finite float is written in its strict-JSON
        form ``{"$float": "NaN"}`` (docs/serialization.md), which ``from_dict`` reads back.

        >>> TrialRecord(steps=3, surfaces=["tool_call", "message"]).to_dict()
        {'steps': 3, 'surfaces': ['message', 'tool_call'], 'events': []}
        """
        out: dict[str, Any] = {}
        if self.initial_state is not None:
            out["initial_state"] = self.initial_state
        if self.final_state is not None:
            out["final_state"] = self.final_state
        if self.status is not None:
            out["status"] = self.status
        if self.explicit_reply is not None:
            out["reply"] = self.explicit_reply
        if self.steps is not None:
            out["steps"] = self.steps
        if self.usage is not None:
            out["usage"] = self.usage.to_dict()
        if self.errors:
            out["errors"] = list(self.errors)
        if self.surfaces is not None:
            out["surfaces"] = sorted(self.surfaces)
        out["events"] = [event.to_dict() for event in self.events]
        if self.tools is not None:
            out["tools"] = [tool.to_dict() for tool in self.tools]
        if self.parse_errors:
            out["parse_errors"] = [error.to_dict() for error in self.parse_errors]
        if self.metadata:
            out["metadata"] = dict(self.metadata)
        return strict_json(out)  # type: ignore[no-any-return]

    # -- derived values -----------------------------------------------------------------------

    def elapsed(self, event: Event | int) -> float | None:
        """Seconds from the run's first event to ``event`` (an event or its position); None
        when the record or the event has no time.

        >>> rec = TrialRecord.builder().user("a", wall_time=10).agent("b", wall_time=12.5).build()
        >>> rec.elapsed(rec.events[1])
        2.5
        """
        position = event if isinstance(event, int) else self.position_of(event.event_id)
        return self.timeline.elapsed(position)

    @property
    def duration(self) -> float | None:
        """How long the run lasted: first event's time to the last event's end (time +
        ``duration``); None when no event has a time.

        >>> TrialRecord.builder().user("a", wall_time=10).tool("t", {}, wall_time=11, duration=4
        ...     ).build().duration
        5.0
        """
        return self.timeline.duration

    def for_agent(self, name: str) -> TrialRecord:
        """The record of one agent: its events (``agent == name``) and their descendants
        through ``parent_id``, sharing S0, Sf, ``tools`` and ``surfaces``; ``reply`` is that
        agent's last message, run-level ``usage`` the sum of its model calls.

        >>> rec = TrialRecord.builder().tool("a", {}).tool("b", {}, agent="billing").build()
        >>> [e.payload.name for e in rec.for_agent("billing").events]
        ['b']
        """
        return agent_view(self, name)

    def build_indexes(self) -> None:
        """Build the indexes now: they are built when the record is made, so this does
        nothing (kept for callers that warm records up).

        >>> TrialRecord().build_indexes()
        """

    def positions_of_kind(self, kind: str) -> tuple[int, ...]:
        """Positions (in ``events``) of the events of ``kind``.

        >>> TrialRecord.builder().user("hi").tool("t").build().positions_of_kind("tool_call")
        (1,)
        """
        return self.index.kinds.get(kind, ())

    def tool_positions(self, name: str) -> tuple[int, ...]:
        """Positions of the ``tool_call`` events of tool ``name``.

        >>> TrialRecord.builder().tool("a").tool("b").tool("a").build().tool_positions("a")
        (0, 2)
        """
        return self.index.tools.get(name, ())

    def memory_positions(self, name: str) -> tuple[int, ...]:
        """Positions of the ``memory`` events (sets and clears) of memory ``name``.

        >>> b = TrialRecord.builder().memory_set("x", 1).memory_clear("x")
        >>> b.build().memory_positions("x")
        (0, 1)
        """
        return self.index.memory.get(name, ())

    def position_of(self, event_id: str) -> int:
        """The position of the event with id ``event_id``.

        Raises:
            KeyError: No event has that id.

        >>> TrialRecord.builder().user("hi").agent("yo").build().position_of("e1")
        1
        """
        try:
            return self.index.ids[event_id]
        except KeyError:
            raise KeyError(f"no event with id {event_id!r}") from None

    def user_turns(self) -> tuple[int, ...]:
        """The sorted turn numbers that have events.

        >>> TrialRecord.builder().agent("hello").user("a").user("b").build().user_turns()
        (0, 1, 2)
        """
        return self.index.turns

    def records(self, kind: str) -> bool:
        """Whether the harness recorded events of ``kind``.

        True when ``surfaces`` is None, names ``kind``, or an event of ``kind`` exists.

        >>> rec = TrialRecord(surfaces=["tool_call"])
        >>> rec.records("tool_call"), rec.records("memory"), TrialRecord().records("memory")
        (True, False, True)
        """
        if self.surfaces is None or kind in self.surfaces:
            return True
        return bool(self.positions_of_kind(kind))


__all__ = [
    "GroupSpans",
    "RecordIndex",
    "Timeline",
    "TrialRecord",
    "agent_positions",
    "agent_view",
    "model_calls_without_usage",
    "sum_model_calls",
]
