"""Per-kind, per-tool, per-memory-name and per-id indexes of a record, built in one pass.

>>> from agent_asserts.record.event import Event
>>> from agent_asserts.record.payloads import ToolCallPayload
>>> idx = RecordIndex.build([Event("tool_call", ToolCallPayload("search"), "e0", turn=1)])
>>> idx.tools["search"], idx.kinds["tool_call"], idx.ids["e0"], idx.turns, idx.event_ids
((0,), (0,), 0, (1,), ('e0',))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

from agent_asserts.record.event import Event
from agent_asserts.record.payloads import MemoryPayload, ToolCallPayload


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
            memory).

    >>> RecordIndex.build([]).kinds
    {}
    """

    kinds: Mapping[str, tuple[int, ...]]
    tools: Mapping[str, tuple[int, ...]]
    memory: Mapping[str, tuple[int, ...]]
    ids: Mapping[str, int]
    turns: tuple[int, ...]
    event_ids: tuple[str, ...] = ()

    @classmethod
    def build(cls, events: Sequence[Event]) -> RecordIndex:
        """Index ``events`` in a single pass.

        Args:
            events: The record's events, in order.

        Returns:
            The index.

        >>> from agent_asserts.record.payloads import MemoryPayload
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
            event_ids=tuple(event_ids),
        )


__all__ = ["RecordIndex"]
