"""``matches_trajectory`` (trajectory family): the run's tool calls compared with a reference
trajectory.

The two sides of ``matches_trajectory`` as columns: the run's calls and the reference's.

:func:`read_calls` reads only what the modes need of a record's tool calls — the positions of
each tool name and the event ids come from the record's index; the blocks (parallel groups)
are read for the ordered modes, the arguments and their hash keys for the tools some reference
call compares. On a large run the events lie far apart in memory, so reading less of them is
what keeps the exact modes linear. :class:`References` holds the reference calls' names, keys
and per-name indexes, built once with the check.

>>> calls = Calls.of([Call("a", {"x": 1}, 0), Call("b", {}, 1)])
>>> dict(calls.by_name), calls.event_id(1), calls.argument(0)
({'a': [0], 'b': [1]}, 'e1', {'x': 1})

Pair reference calls with actual calls: the two alignments behind ``matches_trajectory``.

Both take the two sides as columns (:mod:`agent_asserts.checks.trajectory_match`) and return,
for each reference call, the position of the actual call it is paired with (``-1`` for none).
Calls whose reference has a hash key (the ``exact`` and ``ignore`` modes) are paired through
one dictionary per tool name whose entries chain the calls of equal key (no container per key:
the cost stays O(n) and allocation-light on large runs); the other modes compare candidates of
the same tool name and use maximum bipartite matching, so an early loose reference call never
takes the only partner of a later strict one.

>>> specs = [CallSpec.build({"name": "A"}, "exact", 0),
...          CallSpec.build({"name": "A", "arguments": {"x": 1}}, "superset", 1)]
>>> actual = Calls.of([Call("A", {"x": 1}, 0), Call("A", {"x": 2}, 1)])
>>> unordered_pairs(References(specs), actual), ordered_pairs(References(specs), actual)
([1, 0], [0, -1])

``matches_trajectory``: compare the run's tool calls with a reference trajectory.

``order`` says how the two lists must correspond:

* ``strict``: the same calls in the same order (calls that share a ``group_id`` — parallel
  calls of one model response — may come in any order among themselves);
* ``in_order``: the reference is a subsequence of the run (other calls may come between);
* ``unordered``: the same calls, as a multiset;
* ``subset``: every call of the run appears in the reference;
* ``superset``: every reference call appears in the run.

``arguments`` (and, per tool, ``tools={"name": mode}``) says when arguments match (see the
reference side below). The score is the F1 of the matched calls:
precision over the run's calls, recall over the reference's (a call the mode does not require
never counts against it), both in the result's details; the check passes only on a full match.

>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.builder().tool("lookup", {"id": 1}).tool("issue", {"amount": 40}).build()
>>> out = MatchesTrajectory([("lookup", {"id": 1}), ("issue", {"amount": 42})]).evaluate(rec)
>>> print(out.message)
the run does not match the reference (order 'strict', arguments 'exact'): 1 missing,
1 unexpected; matched 1 of 2 reference calls
  = ref[0] lookup({'id': 1}) at e0
  - ref[1] issue({'amount': 42}) missing
      closest e1: $.arguments.amount: expected 42, got 40
  + e1 issue({'amount': 40}) unexpected
>>> round(out.score, 2), out.details["precision"], out.details["recall"]
(0.5, 0.5, 0.5)

The reference side: reference calls and argument modes.

A reference is a list of ``{"name": ..., "arguments": ...}`` mappings (``arguments`` optional:
absent means any arguments), of ``(name, arguments)`` pairs, of plain tool names, or a
:class:`~agent_asserts.record.TrialRecord` whose tool calls are the reference. It is kept as a
tuple of plain mappings, so the check prints, compares and serializes like any other.

An argument mode says when a call's actual arguments match the reference's:

* ``"exact"``: deep equality (no extra keys on either side; matchers inside the reference
  delegate to themselves);
* ``"superset"``: the actual arguments hold every reference key (the default partial match);
* ``"subset"``: every actual key appears in the reference (``M.subset_of``);
* ``"ignore"``: only the tool name counts;
* a matcher: the actual arguments match it (the reference's arguments are not used);
* a callable ``fn(expected, actual) -> bool``: a comparator of your own.

>>> normalize_reference([("lookup", {"id": 1}), "issue", {"name": "notify"}])
({'name': 'lookup', 'arguments': {'id': 1}}, {'name': 'issue'}, {'name': 'notify'})
>>> spec = CallSpec.build({"name": "lookup", "arguments": {"id": 1}}, "superset")
>>> spec.compatible({"id": 1, "extra": True}), spec.key is None
(True, True)
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import compress, islice, repeat
from operator import eq
from typing import Any, ClassVar, Final, Literal, NamedTuple

import attrs

from agent_asserts._text import LazyText, unknown_key_message
from agent_asserts._values import MISSING
from agent_asserts.checks import register
from agent_asserts.checks.base import Check, given_fields_first
from agent_asserts.checks.selection import alias_hint
from agent_asserts.matching import Matcher, MatcherError, Mismatch, render
from agent_asserts.matching.structural import (
    ExactMatcher,
    SubsetOfMatcher,
    exact_value,
    explain_exact,
    explain_value,
    match_value,
    maximum_matching,
)
from agent_asserts.matching.values import data_key, is_list
from agent_asserts.outcome import Outcome, missing_surface
from agent_asserts.record import ToolCallPayload, TrialRecord
from agent_asserts.status import Status

# The reference side: reference calls and argument modes.

ARGUMENT_MODES: Final = ("exact", "subset", "superset", "ignore")
"""The named argument modes."""

ORDER_MODES: Final = ("strict", "in_order", "unordered", "subset", "superset")
"""The order modes of ``matches_trajectory``."""


class _AnyArguments:
    """The type of :data:`ANY_ARGUMENTS`; there is exactly one instance, in every process.

    The key is compared by identity (``key is ANY_ARGUMENTS``), and checks carry their
    compiled keys to the workers of a process pool or Dask: unpickling gives back the one
    instance (``__reduce__`` names it), so a reference call without arguments matches the
    same calls on every executor. No actual call's key (a JSON text or a data key) equals it.

    >>> import pickle
    >>> pickle.loads(pickle.dumps(ANY_ARGUMENTS)) is ANY_ARGUMENTS
    True
    """

    _instance: _AnyArguments | None = None

    def __new__(cls) -> _AnyArguments:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "ANY_ARGUMENTS"

    def __reduce__(self) -> str:
        return "ANY_ARGUMENTS"

    def __copy__(self) -> _AnyArguments:
        return self

    def __deepcopy__(self, memo: object) -> _AnyArguments:
        return self


ANY_ARGUMENTS: Final = _AnyArguments()
"""The hash key of a reference call that accepts any arguments of its tool."""

_REFERENCE_KEYS: Final = ("name", "arguments")


def _reference_call(item: Any, index: int) -> dict[str, Any]:
    where = f"reference[{index}]"
    call: dict[str, Any]
    if isinstance(item, str):
        call = {"name": item}  # checked below: an empty name would not load back
    elif isinstance(item, Mapping):
        unknown = [k for k in item if k not in _REFERENCE_KEYS]
        if unknown:
            raise ValueError(f"{where}: {unknown_key_message(str(unknown[0]), _REFERENCE_KEYS)}")
        if "name" not in item:
            raise ValueError(f"{where}: needs a 'name' (got {render(item)})")
        call = {"name": item["name"]}
        if "arguments" in item:
            call["arguments"] = item["arguments"]
    elif is_list(item) and len(item) == 2:
        call = {"name": item[0], "arguments": item[1]}
    else:
        raise TypeError(
            f"{where}: must be a tool name, a {{name, arguments}} mapping or a "
            f"(name, arguments) pair (got {render(item)})"
        )
    if not isinstance(call["name"], str) or not call["name"]:
        raise TypeError(f"{where}.name: must be a non-empty string (got {render(call['name'])})")
    return call


def normalize_reference(reference: Any) -> tuple[dict[str, Any], ...]:
    """The reference as a tuple of ``{"name", "arguments"?}`` mappings (an attrs converter).

    Args:
        reference: A list of mappings, pairs or names, or a ``TrialRecord``.

    Returns:
        The reference calls.

    Raises:
        TypeError: ``reference`` or one of its items has the wrong type.
        ValueError: an item has an unknown key or no name.

    >>> normalize_reference([{"name": "a", "args": {}}])
    Traceback (most recent call last):
    ...
    ValueError: reference[0]: unknown key 'args' (did you mean 'arguments'?)
    """
    if isinstance(reference, TrialRecord):
        calls: list[dict[str, Any]] = []
        for event in reference.tool_calls:
            payload = event.payload
            if isinstance(payload, ToolCallPayload):
                call: dict[str, Any] = {"name": payload.name}
                if payload.arguments is not MISSING:
                    call["arguments"] = payload.arguments
                calls.append(call)
        return tuple(calls)
    if isinstance(reference, str | bytes | Mapping) or not is_list(reference):
        raise TypeError(
            "matches_trajectory() parameter 'reference' takes a list of {name, arguments} "
            f"mappings, (name, arguments) pairs or tool names, or a TrialRecord "
            f"(got {render(reference)})"
        )
    calls = []
    for i, item in enumerate(reference):
        # the common item, a plain {name, arguments} dict with a string name, without the
        # general path's ABC checks; anything else takes that path (and its error messages)
        if type(item) is dict and len(item) == 2 and "arguments" in item:
            name = item.get("name")
            if type(name) is str and name:
                calls.append({"name": name, "arguments": item["arguments"]})
                continue
        calls.append(_reference_call(item, i))
    return tuple(calls)


def check_argument_mode(value: Any, where: str) -> None:
    """Raise ``TypeError``/``ValueError`` unless ``value`` is an argument mode.

    >>> check_argument_mode("partial", "arguments")
    Traceback (most recent call last):
    ...
    ValueError: matches_trajectory() parameter 'arguments' takes 'exact', 'subset', 'superset',
    'ignore', a matcher or a callable (got 'partial')
    """
    if isinstance(value, Matcher) or (callable(value) and not isinstance(value, str)):
        return
    accepted = "'exact', 'subset', 'superset', 'ignore', a matcher or a callable"
    text = f"matches_trajectory() parameter {where!r} takes {accepted} (got {render(value)})"
    if isinstance(value, str):
        if value not in ARGUMENT_MODES:
            raise ValueError(text)
        return
    raise TypeError(text)


def mode_text(mode: Any) -> str:
    """A mode as the failure message shows it.

    >>> mode_text("exact"), mode_text(len)
    ("'exact'", 'len')
    """
    if isinstance(mode, str | Matcher):
        return repr(mode)
    return str(getattr(mode, "__name__", None) or render(mode))


def has_matcher(value: Any) -> bool:
    """Whether a matcher occurs anywhere inside ``value``.

    >>> from agent_asserts import M
    >>> has_matcher({"a": [1, {"b": M.gt(1)}]}), has_matcher({"a": [1]})
    (True, False)
    """
    if isinstance(value, Matcher):
        return True
    if isinstance(value, Mapping):
        return any(has_matcher(v) for v in value.values())
    if is_list(value):
        return any(has_matcher(v) for v in value)
    return False


def _integral_floats(value: Any) -> Any:
    t = type(value)
    if t is float:
        return int(value) if value.is_integer() else value
    if t is dict:
        return {k: _integral_floats(v) for k, v in value.items()}
    if t is list or t is tuple:
        return [_integral_floats(v) for v in value]
    return value


def canonical_key(value: Any) -> str | None:
    """Canonical JSON text, equal for values that are deeply, strictly equal (``2 == 2.0``,
    ``True != 1``, key order ignored); None for a value that is not plain JSON (a matcher).

    The text is built by the C JSON encoder and allocates no container the garbage collector
    must track, which keeps the exact modes linear on large runs. Only a text that could hold
    an integral float (``.0`` or ``e+``) is re-encoded with those floats made ints.

    >>> canonical_key({"b": [1, 2.0], "a": True}) == canonical_key({"a": True, "b": [1.0, 2]})
    True
    >>> canonical_key(1) == canonical_key(True), canonical_key(float("nan"))
    (False, None)
    """
    try:
        try:
            text = "".join(_encode_unchecked(value, 0))
        except RecursionError:  # a cycle (ValueError here) or nesting deeper than the stack
            text = _dumps(value)
        if ".0" in text or "e+" in text:
            text = _dumps(_integral_floats(value))
    except (TypeError, ValueError):
        return None
    return text


def reference_key(arguments: Any, mode: Any) -> Any:
    """The hash key of a reference call's arguments under ``mode`` (see :attr:`CallSpec.key`):
    :data:`ANY_ARGUMENTS` when any arguments match, None when the mode needs a predicate.

    >>> reference_key({"a": 1.0}, "exact"), reference_key(MISSING, "exact")
    ('{"a":1}', ANY_ARGUMENTS)
    >>> reference_key({"a": 1}, "superset") is None
    True
    """
    if arguments is MISSING or mode == "ignore":
        return ANY_ARGUMENTS
    if mode == "exact":
        key = canonical_key(arguments)
        if key is None and not has_matcher(arguments):
            return data_key(arguments)
        return key
    return None


def actual_key(arguments: Any) -> Any:
    """The hash key of an actual call's arguments, comparable with :attr:`CallSpec.key`.

    >>> actual_key({"a": 1}) == CallSpec.build({"name": "t", "arguments": {"a": 1.0}}, "exact").key
    True
    """
    key = canonical_key(arguments)
    return data_key(arguments) if key is None else key


_encode: Final = json.JSONEncoder(sort_keys=True, separators=(",", ":"), allow_nan=False).encode
_make_encoder: Final[Any] = getattr(json.encoder, "c_make_encoder", None)  # None: no C speedups
_escape: Final = json.encoder.encode_basestring_ascii


def _not_json(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _unchecked_chunks(value: Any, indent: int) -> Any:
    return (_encode(value),)  # without the C speedups: the encoder's own markers table


_encode_unchecked: Final[Any] = (
    _unchecked_chunks
    if _make_encoder is None
    else _make_encoder(None, _not_json, _escape, None, ":", ",", True, False, False)
)
"""One C encoder for every call: no ``markers`` table (a cycle recurses until
``RecursionError``), so it keeps no state between calls and costs no allocation to make."""


def _dumps(value: Any) -> str:
    """``_encode(value)`` without the Python layer of ``JSONEncoder.encode`` (it builds a new C
    encoder on every call); a fresh ``markers`` table per call keeps the circular-reference
    check."""
    if _make_encoder is None:
        return _encode(value)
    encoder = _make_encoder({}, _not_json, _escape, None, ":", ",", True, False, False)
    return "".join(encoder(value, 0))


class CallSpec:
    """One reference call compiled for matching.

    ``key`` is a hashable key when equality of keys decides a match (the ``exact`` mode over
    plain arguments: the canonical :func:`~agent_asserts.matching.values.data_key`;
    :data:`ANY_ARGUMENTS` when any arguments match); None when the mode needs a predicate.
    """

    __slots__ = ("arguments", "index", "key", "mode", "name")

    def __init__(self, index: int, name: str, arguments: Any, mode: Any, key: Any) -> None:
        self.index, self.name, self.arguments, self.mode, self.key = (
            index, name, arguments, mode, key,
        )  # fmt: skip

    def __repr__(self) -> str:
        return f"CallSpec({self.index}, {self.text()}, mode={mode_text(self.mode)})"

    @classmethod
    def build(cls, call: Mapping[str, Any], mode: Any, index: int = 0) -> CallSpec:
        """Compile one reference call under ``mode``.

        >>> CallSpec.build({"name": "a"}, "exact").key
        ANY_ARGUMENTS
        """
        arguments = call.get("arguments", MISSING)
        return cls(index, call["name"], arguments, mode, reference_key(arguments, mode))

    def compatible(self, actual: Any) -> bool:
        """Whether actual arguments match this call (``MatcherError`` when a predicate raises).

        >>> CallSpec.build({"name": "a", "arguments": {"x": 1}}, "subset").compatible({})
        True
        """
        if self.key is ANY_ARGUMENTS:
            return True
        mode = self.mode
        if isinstance(mode, Matcher):
            return mode.matches(actual)
        if mode == "exact":
            return exact_value(self.arguments, actual)
        if mode == "superset":
            return match_value(self.arguments, actual)
        if mode == "subset":
            return _subset(self.arguments).matches(actual)
        comparator: Callable[[Any, Any], Any] = mode
        try:
            return bool(comparator(self.arguments, actual))
        except Exception as exc:
            raise MatcherError(mode_text(mode), exc) from exc

    def explain(self, actual: Any, path: str) -> list[Mismatch]:
        """Why actual arguments do not match (empty when they do).

        >>> [str(m) for m in CallSpec.build({"name": "a", "arguments": {"x": 1}}, "exact")
        ...     .explain({"x": 2}, "$.arguments")]
        ['$.arguments.x: expected 1, got 2']
        """
        if self.key is ANY_ARGUMENTS:
            return []
        mode = self.mode
        if isinstance(mode, Matcher):
            return mode.explain(actual, path)
        if mode == "exact":
            return explain_exact(self.arguments, actual, path)
        if mode == "superset":
            return explain_value(self.arguments, actual, path)
        if mode == "subset":
            return _subset(self.arguments).explain(actual, path)
        if self.compatible(actual):
            return []
        reason = f"{mode_text(mode)} rejected {render(actual)} (expected {render(self.arguments)})"
        return [Mismatch(path, self.arguments, actual, reason)]

    def text(self) -> str:
        """``name(arguments)`` or ``name(…)`` when any arguments match.

        >>> CallSpec.build({"name": "a", "arguments": {"x": 1}}, "exact").text()
        "a({'x': 1})"
        """
        if self.arguments is MISSING:
            return f"{self.name}(…)"
        return f"{self.name}({render(self.arguments)})"


def _subset(arguments: Any) -> Matcher:
    if isinstance(arguments, Mapping):
        return SubsetOfMatcher(arguments)
    return ExactMatcher(arguments)


# The run's side, the alignments and the check.

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


def _chains(keys: list[Any], acts: Sequence[int]) -> tuple[dict[Any, int], list[int]]:
    """For the calls ``acts`` (indexes into ``keys``): the first position in ``acts`` of each
    key, and for each position the next position of the same key (-1 at the end)."""
    head: dict[Any, int] = {}
    following = [-1] * len(acts)
    for k in range(len(acts) - 1, -1, -1):
        key = keys[acts[k]]
        following[k] = head.get(key, -1)
        head[key] = k
    return head, following


def unordered_pairs(references: References, actual: Calls) -> list[int]:
    """A maximum one-to-one pairing, ignoring order.

    >>> from agent_asserts.checks.trajectory_match import Call
    >>> refs = References([CallSpec.build({"name": "b"}, "exact")])
    >>> unordered_pairs(refs, Calls.of([Call("a", {}, 0)]))
    [-1]
    """
    pairs = [-1] * len(references)
    taken = _pair_by_key(references, actual, pairs)
    for name, ref_ids in references.by_name.items():
        acts = actual.by_name.get(name, ())
        if not acts:
            continue
        if name not in references.all_keyed:
            _pair_by_matching(references.specs, actual, ref_ids, acts, pairs)
            continue
        any_ids = references.any_ids.get(name)
        if any_ids:  # the calls left, in order, to the calls that take any arguments
            free = [j for j in acts if not taken[j]] if name in references.keyed_ids else acts
            for i, j in zip(any_ids, free, strict=False):
                pairs[i] = j
    return pairs


def _pair_by_key(references: References, actual: Calls, pairs: list[int]) -> bytearray:
    """Pair each reference call that has a key (of a name whose calls all have one) with the
    first untaken call of its name and key; the calls taken, by position.

    The reference calls are taken in their order (on a match, the run's: the keys on both
    sides are read as they lie in memory). The first untaken call of the name is tried first
    (on a match it is the one); else the calls of equal key are chained, for that name only.
    """
    taken = bytearray(actual.size)
    if not references.keyed_ids:
        return taken
    all_keyed, by_name, actual_keys = references.all_keyed, actual.by_name, actual.keys
    first: dict[str, int] = {}  # per name: its first untaken call (an index into its calls)
    chains: dict[str, tuple[dict[Any, int], list[int]]] = {}
    for i, (name, key) in enumerate(zip(references.names, references.keys, strict=True)):
        if key is None or key is ANY_ARGUMENTS or name not in all_keyed:
            continue
        acts = by_name.get(name, ())
        f = first.get(name, 0)
        while f < len(acts) and taken[acts[f]]:
            f += 1
        first[name] = f
        if f == len(acts):
            continue
        if actual_keys[acts[f]] == key:
            k = f
        else:
            chain = chains.get(name)
            if chain is None:
                chain = chains[name] = _chains(actual_keys, acts)
            head, following = chain
            k = head.get(key, -1)
            while k >= 0 and taken[acts[k]]:  # taken as a first untaken call
                k = following[k]
            if k < 0:
                head[key] = -1
                continue
            head[key] = following[k]
        j = pairs[i] = acts[k]
        taken[j] = 1
    return taken


def _pair_by_matching(
    specs: Sequence[CallSpec],
    actual: Calls,
    ref_ids: list[int],
    acts: Sequence[int],
    pairs: list[int],
) -> None:
    adjacency = [
        [k for k, j in enumerate(acts) if specs[i].compatible(actual.argument(j))] for i in ref_ids
    ]
    taken = [False] * len(acts)
    greedy = [-1] * len(ref_ids)
    for u, options in enumerate(adjacency):
        for k in options:
            if not taken[k]:
                greedy[u] = k
                taken[k] = True
                break
    matching = maximum_matching(adjacency, len(acts), greedy)
    for u, k in enumerate(matching):
        if k >= 0:
            pairs[ref_ids[u]] = acts[k]


def ordered_pairs(references: References, actual: Calls) -> list[int]:
    """Pair the reference, in order, with a subsequence of the run (earliest match first).

    A later reference call must be paired with a call of the same block or a later one, so
    calls of one parallel group may match in any order. A reference call with no partner is
    skipped (left ``-1``) and the rest continue from where the run was.

    >>> from agent_asserts.checks.trajectory_match import Call
    >>> refs = References([CallSpec.build({"name": n}, "exact", i) for i, n in enumerate("ba")])
    >>> ordered_pairs(refs, Calls.of([Call("a", {}, 0), Call("b", {}, 1)]))
    [1, -1]
    >>> ordered_pairs(refs, Calls.of([Call("a", {}, 0), Call("b", {}, 0)]))
    [1, 0]
    """
    if actual.single_blocks:
        return _pairs_after_last(references, actual)
    return _Aligner(references, actual).run()


def _pairs_after_last(references: References, actual: Calls) -> list[int]:
    """:func:`ordered_pairs` when every block is one call (no parallel group in the run): a
    reference call pairs with the first compatible call after the last paired one, so no
    block, no "used" mark and no re-pairing is needed. Each name keeps a pointer to its first
    call after the last pair (moved past a call when it is paired, by binary search only when
    a pair of another name went past it), and the calls of a key are chained only for a name
    whose next call has another key. Same pairs as the general :class:`_Aligner`.

    >>> from agent_asserts.checks.trajectory_match import Call
    >>> refs = References([CallSpec.build({"name": "a", "arguments": {"x": x}}, "exact", i)
    ...                    for i, x in enumerate([2, 1, 2])])
    >>> run = Calls.of([Call("a", {"x": x}, j) for j, x in enumerate([1, 2, 1])])
    >>> _pairs_after_last(refs, run)
    [1, 2, -1]
    """
    pairs = [-1] * len(references)
    by_name, keys = actual.by_name, actual.keys
    pointer: dict[str, int] = {}  # per name: the first of its calls after the last pair
    chains: dict[str, tuple[dict[Any, int], list[int]]] = {}
    last = -1
    for i, (name, key) in enumerate(zip(references.names, references.keys, strict=True)):
        acts = by_name.get(name, ())
        p = pointer.get(name, 0)
        if p < len(acts) and acts[p] <= last:
            p = bisect_right(acts, last, p + 1)
        if p == len(acts):
            pointer[name] = p
            continue
        k = p
        if key is None:  # a predicate mode: the first compatible call after the last pair
            spec, argument = references.specs[i], actual.argument
            k = next((k for k in range(p, len(acts)) if spec.compatible(argument(acts[k]))), -1)
        elif key is not ANY_ARGUMENTS and keys[acts[p]] != key:
            chain = chains.get(name)
            if chain is None:
                chain = chains[name] = _chains(keys, acts)
            head, following = chain
            k = head.get(key, -1)
            while k >= 0 and acts[k] <= last:
                k = following[k]
            head[key] = k
        if k >= 0:
            pairs[i] = last = acts[k]
            p = k + 1
        pointer[name] = p
    return pairs


class _Aligner:
    def __init__(self, references: References, actual: Calls) -> None:
        self.references = references
        self.specs = references.specs
        self.actual = actual
        self.blocks = actual.blocks
        self.used = bytearray(actual.size)
        self.pairs = [-1] * len(references)
        self.by_name = actual.by_name
        self.pointer: dict[str, int] = {}
        self.chains: dict[str, tuple[dict[Any, int], list[int]]] = {}
        self.positions = actual.positions
        self.starts = actual.block_starts
        self.block = -1
        self.block_refs: list[int] = []

    def _next(self, i: int, name: str, key: Any) -> int:
        """The first unused call compatible with reference ``i`` in the current block or
        later, or -1."""
        used, blocks, block = self.used, self.blocks, self.block
        acts = self.by_name.get(name, ())
        if key is None or key is ANY_ARGUMENTS:
            p = self.pointer.get(name, 0)
            while p < len(acts) and (used[acts[p]] or blocks[acts[p]] < block):
                p += 1
            self.pointer[name] = p
            if key is not None:
                return acts[p] if p < len(acts) else -1
            spec = self.specs[i]
            for j in acts[p:]:
                if not used[j] and spec.compatible(self.actual.argument(j)):
                    return j
            return -1
        chains = self.chains.get(name)
        if chains is None:
            chains = self.chains[name] = _chains(self.actual.keys, acts)
        head, following = chains
        k = head.get(key, -1)
        while k >= 0 and (used[acts[k]] or blocks[acts[k]] < block):
            k = following[k]
        head[key] = k
        return acts[k] if k >= 0 else -1

    def _reassign(self, i: int) -> bool:
        """Fit reference ``i`` into the current block by re-pairing the block's references."""
        start, end = self.starts[self.block], self.starts[self.block + 1]
        if end - start < 2:  # a block of one call (every block, without parallel groups)
            return False
        members = list(self.positions[start:end])
        refs = [*self.block_refs, i]
        adjacency = [
            [k for k, j in enumerate(members) if self._fits(r, j)] for r in refs
        ]  # fmt: skip
        if not any(self.used[members[k]] for k in adjacency[-1]):
            return False
        matching = maximum_matching(adjacency, len(members))
        if -1 in matching:
            return False
        for r in self.block_refs:
            self.used[self.pairs[r]] = 0
        for r, k in zip(refs, matching, strict=True):
            self.pairs[r] = members[k]
            self.used[members[k]] = 1
        self.block_refs.append(i)
        return True

    def _fits(self, r: int, j: int) -> bool:
        spec = self.specs[r]
        return self.actual.name(j) == spec.name and spec.compatible(self.actual.argument(j))

    def run(self) -> list[int]:
        blocks = self.blocks
        references = self.references
        for i, (name, key) in enumerate(zip(references.names, references.keys, strict=True)):
            j = self._next(i, name, key)
            if j >= 0 and blocks[j] == self.block:
                self.block_refs.append(i)
            elif self.block >= 0 and self._reassign(i):
                continue
            elif j >= 0:
                self.block = blocks[j]
                self.block_refs = [i]
            else:
                continue
            self.pairs[i] = j
            self.used[j] = 1
        return self.pairs


Order = Literal["strict", "in_order", "unordered", "subset", "superset"]


SHOWN_ROWS = 20


"""The most diff rows a failure message shows (matched rows only when everything fits)."""


CLOSEST_SCAN = 200


"""The most same-name calls scanned for the closest candidate of a missing reference call."""


def _validate_order(_: Any, __: Any, value: Any) -> None:
    if value not in ORDER_MODES:
        accepted = ", ".join(repr(m) for m in ORDER_MODES)
        kind = ValueError if isinstance(value, str) else TypeError
        raise kind(
            f"matches_trajectory() parameter 'order' takes one of {accepted} (got {render(value)})"
        )


def _validate_arguments(_: Any, __: Any, value: Any) -> None:
    check_argument_mode(value, "arguments")


def _validate_tools(_: Any, __: Any, value: Any) -> None:
    if value is None:
        return
    if not isinstance(value, Mapping):
        raise TypeError(
            "matches_trajectory() parameter 'tools' takes a mapping of tool names to argument "
            f"modes (got {render(value)})"
        )
    for name, mode in value.items():
        if not isinstance(name, str):
            raise TypeError(
                f"matches_trajectory() parameter 'tools' keys are tool names (got {name!r})"
            )
        check_argument_mode(mode, f"tools[{name!r}]")


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class MatchesTrajectory(Check):
    """The run's tool calls match ``reference`` under ``order`` and ``arguments``.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().tool("a", {"x": 1}).tool("b").build()
    >>> print(MatchesTrajectory(["b", "a"], order="unordered").evaluate(rec).message)
    matched 2 of 2 reference calls and 2 of 2 calls of the run
    (order 'unordered', arguments 'exact')
    """

    reference: Any = attrs.field(converter=normalize_reference)
    order: Order = attrs.field(default="strict", kw_only=True, validator=_validate_order)
    arguments: Any = attrs.field(default="exact", kw_only=True, validator=_validate_arguments)
    tools: Mapping[str, Any] | None = attrs.field(
        default=None, kw_only=True, validator=_validate_tools
    )
    _references: References = attrs.field(init=False, eq=False, repr=False)

    method: ClassVar[str] = "matches_trajectory"
    positional: ClassVar[tuple[str, ...]] = ("reference",)

    @_references.default
    @given_fields_first
    def _compile_references(self) -> References:
        return References.compile(self.reference, self.arguments, self.tools)

    def primary(self) -> Any:
        return MISSING

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = missing_surface(record, "tool_call")
        if invalid is not None:
            return invalid
        references = self._references
        positions = record.positions_of_kind("tool_call")
        # one pass over the calls: on a large run each event is far from the last in memory
        ordered = self.order in ("strict", "in_order")
        index = record.index
        group_of = record.groups.group_of if ordered else {}
        actual = read_calls(record.events, index.event_ids, positions, index.tools, group_of,
                            references.compared, set(references.keyed_ids), ordered=ordered,
                            tool_payload=ToolCallPayload)  # fmt: skip
        if isinstance(actual, int):
            event = record.events[actual]
            hint = alias_hint(record, [actual], ["arguments"])
            name = event.payload.name if isinstance(event.payload, ToolCallPayload) else ""
            return Outcome.invalid(
                f"tool call {event.event_id} ({name!r}) has no recorded arguments to compare" + hint
            )
        try:
            pairs = (ordered_pairs if ordered else unordered_pairs)(references, actual)
        except MatcherError as exc:
            return Outcome.error(str(exc))
        return self._outcome(record, references, actual, pairs)

    def _outcome(
        self, record: TrialRecord, references: References, actual: Calls, pairs: list[int]
    ) -> Outcome:
        counts_missing = self.order != "subset"
        counts_unexpected = self.order in ("strict", "unordered", "subset")
        unpaired = _positions_of(pairs, -1)
        missing = unpaired if counts_missing else []
        unexpected: list[int] = []
        if counts_unexpected:
            unpaired_calls = bytearray(actual.size + 1)  # pairs' -1 entries land on the last
            deque(map(unpaired_calls.__setitem__, actual.positions, repeat(1)), maxlen=0)
            deque(map(unpaired_calls.__setitem__, pairs, repeat(0)), maxlen=0)  # loops in C
            unexpected = _positions_of(unpaired_calls, 1)
        matched = len(pairs) - len(unpaired)
        precision = (len(actual) - len(unexpected)) / len(actual) if actual else 1.0
        total = len(references)
        recall = (total - len(missing)) / total if total else 1.0
        f1 = 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
        passed = not missing and not unexpected
        modes = f"(order {self.order!r}, arguments {mode_text(self.arguments)})"
        details = {
            "precision": precision,
            "recall": recall,
            "f1": f1,
            "matched": matched,
            "missing": missing[:100],
            "unexpected": list(actual.event_ids(unexpected[:100])),
        }
        evidence = actual.event_ids([j for j in pairs if j >= 0] if unpaired else pairs)
        if passed:
            message = (
                f"matched {matched} of {total} reference calls and "
                f"{len(actual) - len(unexpected)} of {len(actual)} calls of the run {modes}"
            )
            return Outcome(Status.PASS, 1.0, message, details=details, evidence=evidence)
        problems = []
        if missing:
            problems.append(f"{len(missing)} missing")
        if unexpected:
            problems.append(f"{len(unexpected)} unexpected")
        head = (
            f"the run does not match the reference {modes}: {', '.join(problems)}; "
            f"matched {matched} of {total} reference calls"
        )
        # the diff is written when the message is first read (a job that reads only the
        # status never pays for it; pickling or a report reads it)
        diff = _Diff(record, references, actual, pairs)
        text = LazyText(diff.message, head, missing, unexpected, matched)
        return Outcome(
            Status.FAIL,
            f1,
            text,
            expected=total,
            observed=len(actual),
            details=details,
            evidence=evidence,
        )


def _positions_of(items: list[int] | bytearray, value: int) -> list[int]:
    """The positions of ``value`` in ``items``: by the C search of ``index``/``find``, one
    call per position found, when there are few; in one C pass (``compress``) when there are
    many (every call of a badly failing run), where a call per position would cost more.

    >>> _positions_of([3, -1, 2, -1], -1), _positions_of(bytearray(b"\\x01\\x00"), 0)
    ([1, 3], [1])
    """
    if isinstance(items, bytearray):
        position = items.find(value)
        hits = items.count(value) if position >= 0 else 0  # counts in C, memchr-fast
    else:
        try:
            position = items.index(value)
        except ValueError:
            return []
        hits = items.count(value)
    if hits * 3 > len(items):
        return list(compress(range(len(items)), map(eq, items, repeat(value))))
    found: list[int] = []
    if isinstance(items, bytearray):
        while position >= 0:
            found.append(position)
            position = items.find(value, position + 1)
        return found
    try:
        while True:
            found.append(position)
            position = items.index(value, position + 1)
    except ValueError:
        return found


class _Diff:
    """The aligned diff of a failing comparison, written on demand (:meth:`message`)."""

    def __init__(
        self,
        record: TrialRecord,
        references: References,
        actual: Calls,
        pairs: list[int],
    ) -> None:
        self.record = record
        self.references, self.actual, self.pairs = references, actual, pairs
        self.specs: Sequence[CallSpec] = ()
        self.owner: list[int] = []
        self.by_name: Mapping[str, Sequence[int]] = {}

    def message(self, head: str, missing: list[int], unexpected: list[int], matched: int) -> str:
        """``head`` and the rows of the diff, one per line."""
        self.specs = self.references.specs
        return "\n".join([head, *self.rows(missing, unexpected, matched)])

    def _call_text(self, j: int) -> str:
        arguments = self.actual.argument(j)
        return f"{self.actual.event_id(j)} {self.actual.name(j)}({render(arguments)})"

    def rows(self, missing: list[int], unexpected: list[int], matched: int) -> list[str]:
        """The aligned diff: ``=`` matched, ``-`` missing, ``+`` unexpected, in run order
        (every row when they fit in :data:`SHOWN_ROWS`, else the first differences).

        Only the rows shown are made: the counts are known (``matched`` pairs, and when
        ``missing`` is given every unpaired reference call is in it).
        """
        different = len(missing) + len(unexpected)
        aligned = self._aligned(bool(missing), unexpected)
        if matched + different <= SHOWN_ROWS:
            rows = list(aligned)
        else:
            rows = list(islice((row for row in aligned if row[0] != "="), SHOWN_ROWS))
        extra = different - sum(1 for sign, _ in rows if sign != "=")
        if any(sign == "-" for sign, _ in rows):  # the owner of a call paired elsewhere
            self.owner = [-1] * (self.actual.size + 1)  # unpaired (-1) entries land on the last
            deque(map(self.owner.__setitem__, self.pairs, range(len(self.pairs))), maxlen=0)
        self.by_name = self.actual.by_name
        lines = [line for row in rows for line in self._row(*row)]
        if extra:
            lines.append(f"  … and {extra} more differences")
        return lines

    def _aligned(self, show_missing: bool, unexpected: list[int]) -> Iterator[tuple[str, int]]:
        # ``unexpected`` is in run order; when missing calls count, every unpaired reference
        # call is one
        k = 0
        for i, j in enumerate(self.pairs):
            if j >= 0:
                while k < len(unexpected) and unexpected[k] < j:
                    yield ("+", unexpected[k])
                    k += 1
                yield ("=", i)
            elif show_missing:
                yield ("-", i)
        for j in unexpected[k:]:
            yield ("+", j)

    def _row(self, sign: str, index: int) -> list[str]:
        if sign == "+":
            return [f"  + {self._call_text(index)} unexpected"]
        spec = self.specs[index]
        if sign == "=":
            return [f"  = ref[{index}] {spec.text()} at {self.actual.event_id(self.pairs[index])}"]
        lines = [f"  - ref[{index}] {spec.text()} missing"]
        same_name = self.by_name.get(spec.name, [])
        if not same_name:
            lines.append(f"      no call of {spec.name!r} in the run")
            return lines
        candidates = same_name[:CLOSEST_SCAN]
        for j in candidates:
            if spec.compatible(self.actual.argument(j)):
                owner = self.owner[j]
                taken = "" if owner < 0 else f", paired with ref[{owner}]"
                where = self.actual.event_id(j)
                lines.append(f"      a matching call ran out of order at {where}{taken}")
                return lines
        best = min(candidates, key=lambda j: len(spec.explain(self.actual.argument(j), "$")))
        mismatches = spec.explain(self.actual.argument(best), "$.arguments")
        where = self.actual.event_id(best)
        first = f": {mismatches[0]}" if mismatches else ""
        hint = alias_hint(self.record, [best], ["arguments"])
        lines.append(f"      closest {where}{first}{hint}")
        lines.extend(f"        {m}" for m in mismatches[1:5])
        return lines


__all__ = [
    "ANY_ARGUMENTS",
    "ARGUMENT_MODES",
    "ORDER_MODES",
    "Call",
    "CallSpec",
    "Calls",
    "MatchesTrajectory",
    "References",
    "actual_key",
    "canonical_key",
    "check_argument_mode",
    "has_matcher",
    "mode_text",
    "normalize_reference",
    "ordered_pairs",
    "read_calls",
    "reference_key",
    "unordered_pairs",
]
