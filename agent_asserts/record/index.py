"""The indexes of a record's events, built in one pass: positions by kind, tool, memory name and
id (:class:`RecordIndex`), and the spans of the parallel groups (:class:`GroupSpans`).

Events sharing a ``group_id`` have no order among them: an event *strictly precedes* another
when its group (itself, when it has no ``group_id``) ends before the other's group starts.
Order-sensitive checks use :class:`GroupSpans` to say "after" that way, so two tool calls
issued in one model response are never ordered.

>>> idx = RecordIndex.build([Event("tool_call", ToolCallPayload("search"), "e0", turn=1)])
>>> idx.tools["search"], idx.kinds["tool_call"], idx.ids["e0"], idx.turns, idx.event_ids
((0,), (0,), 0, (1,), ('e0',))
>>> from agent_asserts.record import TrialRecord
>>> rec = (TrialRecord.builder().tool("a", group_id="r1").tool("b", group_id="r1")
...        .tool("c").build())
>>> spans = rec.groups
>>> spans.precedes(0, 1), spans.precedes(0, 2), spans.parallel(0, 1)
(False, True, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

from agent_asserts.record.event import Event, MemoryPayload, ToolCallPayload


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
                tools.setdefault(payload.name, []).append(position)
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


__all__ = [
    "GroupSpans",
    "RecordIndex",
]
