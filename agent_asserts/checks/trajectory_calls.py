"""The two sides of ``matches_trajectory`` as columns: the run's calls and the reference's.

:func:`read_calls` reads only what the modes need of a record's tool calls — the positions of
each tool name and the event ids come from the record's index; the blocks (parallel groups)
are read for the ordered modes, the arguments and their hash keys for the tools some reference
call compares. On a large run the events lie far apart in memory, so reading less of them is
what keeps the exact modes linear. :class:`References` holds the reference calls' names, keys
and per-name indexes, built once with the check.

>>> calls = Calls.of([Call("a", {"x": 1}, 0), Call("b", {}, 1)])
>>> dict(calls.by_name), calls.event_id(1), calls.argument(0)
({'a': [0], 'b': [1]}, 'e1', {'x': 1})
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from agent_asserts._values import MISSING
from agent_asserts.checks.trajectory_reference import (
    ANY_ARGUMENTS,
    CallSpec,
    actual_key,
    reference_key,
)

_UNREAD: Any = object()  # the arguments of a call no reference call compares


class Call(NamedTuple):
    """One actual tool call: its name, arguments and block (calls of one parallel group share
    a block; every other call is a block of its own; blocks are numbered in order)."""

    name: str
    arguments: Any
    block: int


class _Payload(NamedTuple):
    name: str
    arguments: Any


class _Event(NamedTuple):
    event_id: str
    payload: _Payload


class Calls:
    """The run's tool calls, named by their positions in ``record.events`` (see
    :func:`read_calls`; :meth:`of` builds one from a list of :class:`Call`).

    ``by_name`` holds the positions of each tool name (the record's own index: nothing is read
    per call to build it); ``blocks`` (the block of each call, by position) and
    ``block_starts`` (where each block starts in ``positions``, and where the last ends) are
    made only for the ordered modes (``blocks`` only when some event has a parallel group),
    and ``keys`` and the arguments only for the names some reference call compares. The rest
    is read from the events when a message needs it.
    """

    __slots__ = (
        "_arguments",
        "_events",
        "_ids",
        "_names",
        "block_starts",
        "blocks",
        "by_name",
        "keys",
        "positions",
    )

    def __init__(
        self,
        events: Sequence[Any],
        ids: Sequence[str],
        positions: Sequence[int],
        by_name: Mapping[str, Sequence[int]],
        blocks: tuple[list[int], Sequence[int]] | None,
        arguments: list[Any] | None,
        keys: list[Any] | None,
    ) -> None:
        self._events, self._ids, self.positions, self.by_name = events, ids, positions, by_name
        self.blocks: list[int] = blocks[0] if blocks is not None else []
        self.block_starts: Sequence[int] = blocks[1] if blocks is not None else ()
        self._arguments = arguments
        self.keys: list[Any] = keys if keys is not None else []

    @classmethod
    def of(cls, calls: Sequence[Call]) -> Calls:
        """The calls of a list (call ``j`` at position ``j``, id ``e{j}``), every one's
        arguments read and hashed, for the ordered and the unordered modes.

        >>> Calls.of([Call("a", {"x": 1}, 0)]).keys
        ['{"x":1}']
        """
        events = [_Event(f"e{j}", _Payload(c.name, c.arguments)) for j, c in enumerate(calls)]
        group_of = {j: f"b{c.block}" for j, c in enumerate(calls)}
        by_name: dict[str, list[int]] = {}
        for j, call in enumerate(calls):
            by_name.setdefault(call.name, []).append(j)
        names = set(by_name)
        ids = [event.event_id for event in events]
        out = read_calls(events, ids, range(len(calls)), by_name, group_of, names, names,
                         ordered=True, tool_payload=_Payload)  # fmt: skip
        if isinstance(out, int):
            raise ValueError(f"call {out} has no arguments")
        return out

    def __len__(self) -> int:
        return len(self.positions)

    @property
    def single_blocks(self) -> bool:
        """Whether every block is one call (no two calls in one parallel group), which the
        ordered alignment can use: "the same block or later" is then "after the last pair".

        >>> Calls.of([Call("a", {}, 0), Call("b", {}, 1)]).single_blocks
        True
        >>> Calls.of([Call("a", {}, 0), Call("b", {}, 0)]).single_blocks
        False
        """
        return len(self.block_starts) == len(self.positions) + 1

    @property
    def size(self) -> int:
        """How many events the record holds (positions are below it)."""
        return len(self._events)

    def event_id(self, p: int) -> str:
        """The event id of the call at position ``p``.

        >>> Calls.of([Call("a", {"x": 1}, 0)]).event_id(0)
        'e0'
        """
        return self._ids[p]

    def event_ids(self, positions: Iterable[int]) -> tuple[str, ...]:
        """The event ids of the calls at ``positions`` (from the record's column of ids, in C:
        no event is read)."""
        return tuple(map(self._ids.__getitem__, positions))

    def name(self, p: int) -> str:
        """The tool name of the call at position ``p`` (``""`` for a payload of another type).

        >>> Calls.of([Call("a", {"x": 1}, 0)]).name(0)
        'a'
        """
        return str(getattr(self._events[p].payload, "name", ""))

    def argument(self, p: int) -> Any:
        """The arguments of the call at position ``p``.

        >>> Calls.of([Call("a", {"x": 1}, 0)]).argument(0)
        {'x': 1}
        """
        value = _UNREAD if self._arguments is None else self._arguments[p]
        if value is _UNREAD:
            return getattr(self._events[p].payload, "arguments", MISSING)
        return value


def read_calls(
    events: Sequence[Any],
    ids: Sequence[str],
    positions: Sequence[int],
    by_name: Mapping[str, Sequence[int]],
    group_of: Mapping[int, str],
    compared: set[str],
    keyed: set[str],
    *,
    ordered: bool,
    tool_payload: type[Any],
) -> Calls | int:
    """The tool calls of a record; the position of the first call of a ``compared`` name whose
    arguments were not recorded, instead, when there is one.

    Only what the modes need is read: the blocks for the ordered modes (from the parallel
    groups, no event read; without a group every call is a block of its own), the arguments
    and their keys for the ``compared`` names (one pass over their calls). On a large run each
    event lies far from the previous one in memory; the pairing itself reads lists.

    Args:
        events: The record's events.
        ids: Their event ids, by position (the record's index).
        positions: The positions of its tool calls, in order.
        by_name: The positions of the calls of each tool name (the record's index).
        group_of: The parallel group of each event that has one, by position (the record's
            ``groups``: the blocks are found without reading the events).
        compared: The names whose arguments some reference call compares.
        keyed: The names whose arguments get a hash key.
        ordered: Whether to read the blocks (parallel groups) the ordered modes need.
        tool_payload: The tool-call payload type.
    """
    blocks = _blocks(len(events), positions, group_of) if ordered else None
    arguments: list[Any] | None = None
    keys: list[Any] | None = None
    if compared:
        arguments, keys = [_UNREAD] * len(events), [None] * len(events)
        read: Sequence[int] = [p for name in compared for p in by_name.get(name, ())]
        if 2 * len(read) >= len(positions):
            read = positions  # most calls: read them in run order, as they lie in memory
        for position in read:
            payload = events[position].payload
            if type(payload) is not tool_payload or payload.name not in compared:
                continue
            value = payload.arguments
            if value is MISSING:
                return min(p for p in read if _unrecorded(events[p].payload, tool_payload))
            arguments[position] = value
            if payload.name in keyed:
                keys[position] = actual_key(value)
    return Calls(events, ids, positions, by_name, blocks, arguments, keys)


def _blocks(
    size: int, positions: Sequence[int], group_of: Mapping[int, str]
) -> tuple[list[int], Sequence[int]]:
    """The block of each call (by position) and where each block starts in ``positions``
    (one more entry: the end). Consecutive calls of one group share a block. Without any
    group, no block list is made (:attr:`Calls.single_blocks` says every block is one call).

    >>> _blocks(4, [0, 1, 3], {1: "g", 3: "g"})
    ([0, 1, 0, 1], [0, 1, 3])
    >>> _blocks(3, [0, 2], {})
    ([], range(0, 3))
    """
    if not group_of:  # no parallel group: every call is a block of its own
        return [], range(len(positions) + 1)
    blocks = [0] * size
    starts: list[int] = []
    previous = None
    for k, position in enumerate(positions):
        group = group_of.get(position)
        if group is None or group != previous:
            starts.append(k)
        previous = group
        blocks[position] = len(starts) - 1
    starts.append(len(positions))
    return blocks, starts


def _unrecorded(payload: Any, tool_payload: type[Any]) -> bool:
    return type(payload) is tool_payload and payload.arguments is MISSING


class References:
    """The reference calls as columns, built once with the check: their names, hash keys, and
    for each name the indexes of its calls that compare by key and of those that take any
    arguments (so pairing reads lists, not one object per call). Built from specs, or by
    :meth:`compile` from the reference calls, whose specs are then made only when asked for
    (a predicate mode or a failure message): a passing exact comparison never makes them.

    >>> from agent_asserts.checks.trajectory_reference import CallSpec
    >>> refs = References([CallSpec.build({"name": "a"}, "exact"),
    ...                    CallSpec.build({"name": "a", "arguments": {}}, "exact")])
    >>> refs.by_name, refs.any_ids, refs.keyed_ids, refs.all_keyed, refs.compared
    ({'a': [0, 1]}, {'a': [0]}, {'a': [1]}, {'a'}, {'a'})
    """

    __slots__ = ("_calls", "_made", "_mode", "_tools", "all_keyed", "any_ids", "by_name",
                 "compared", "keyed_ids", "keys", "names")  # fmt: skip

    def __init__(self, specs: Sequence[CallSpec]) -> None:
        self._made: tuple[CallSpec, ...] | None = tuple(specs)
        self._calls: Sequence[Mapping[str, Any]] = ()
        self._mode: Any = None
        self._tools: Mapping[str, Any] | None = None
        self._index([s.name for s in specs], [s.key for s in specs])

    @classmethod
    def compile(
        cls, calls: Sequence[Mapping[str, Any]], mode: Any, tools: Mapping[str, Any] | None
    ) -> References:
        """The columns of the reference ``calls`` under argument ``mode`` (``tools``: the
        modes of some tool names).

        >>> refs = References.compile([{"name": "a", "arguments": {"x": 1}}], "exact",
        ...                           {"b": "ignore"})
        >>> refs.keys, refs.specs
        (['{"x":1}'], (CallSpec(0, a({'x': 1}), mode='exact'),))
        """
        self = cls.__new__(cls)
        self._made, self._calls, self._mode, self._tools = None, calls, mode, tools
        names = [call["name"] for call in calls]
        if tools:
            modes = map(self.mode_of, names)
            keys = list(map(reference_key, (c.get("arguments", MISSING) for c in calls), modes))
        else:
            keys = [reference_key(call.get("arguments", MISSING), mode) for call in calls]
        self._index(names, keys)
        return self

    def _index(self, names: list[str], keys: list[Any]) -> None:
        # one string object per tool name (the first of its calls'): the ordered alignment
        # reads a name per reference call, and the calls' own strings lie far apart in memory
        first: dict[str, str] = {}
        self.names = [first.setdefault(name, name) for name in names]
        self.keys = keys
        self.by_name: dict[str, list[int]] = {}
        self.any_ids: dict[str, list[int]] = {}
        self.keyed_ids: dict[str, list[int]] = {}
        unkeyed: set[str] = set()
        for i, (name, key) in enumerate(zip(names, keys, strict=True)):
            self.by_name.setdefault(name, []).append(i)
            if key is ANY_ARGUMENTS:
                self.any_ids.setdefault(name, []).append(i)
            elif key is not None:
                self.keyed_ids.setdefault(name, []).append(i)
            else:
                unkeyed.add(name)
        self.all_keyed = set(self.by_name) - unkeyed
        self.compared = unkeyed.union(self.keyed_ids)  # the names whose arguments count

    def mode_of(self, name: str) -> Any:
        """The argument mode of the calls of tool ``name``."""
        if self._tools is not None and name in self._tools:
            return self._tools[name]
        return self._mode

    @property
    def specs(self) -> tuple[CallSpec, ...]:
        """One :class:`CallSpec` per reference call (made on first use by :meth:`compile`'s)."""
        if self._made is None:
            self._made = tuple(
                CallSpec(i, name, call.get("arguments", MISSING), self.mode_of(name), key)
                for i, (call, name, key) in enumerate(
                    zip(self._calls, self.names, self.keys, strict=True)
                )
            )
        return self._made

    def __len__(self) -> int:
        return len(self.names)


__all__ = ["Call", "Calls", "References", "read_calls"]
