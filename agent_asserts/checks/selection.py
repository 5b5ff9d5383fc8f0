"""What the check families share about selected events: validators, evidence ids, the closest
candidate of a failure, the count verdict, and the names a record holds (for "did you mean").

What the check families share about selected events: argument validators, evidence ids,
the "closest candidate" of a failure and the count-versus-``Count`` verdict.

>>> from agent_asserts.record import TrialRecord
>>> from agent_asserts.selectors import on
>>> rec = TrialRecord.builder().tool("a", arguments={"x": 1}).tool("a", arguments={}).build()
>>> out = count_outcome(rec, on.tool("a", arguments={"x": 2}), Count.of(None))
>>> out.status.value, out.closest, [str(m) for m in out.mismatches]
('fail', 'e0', ['$.arguments.x: expected 2, got 1'])

Did you mean, from the record: the names a record holds, nearest first.

When a selector matches nothing because a name is misspelt, the failure lists the names of
that kind the record does hold (tools, memory keys, skills, agents, event kinds): at most ten,
nearest first by edit distance, ties in alphabetical order.

>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.builder().tool("refunds_lookup").tool("refunds_issue").build()
>>> nearest("refunds_cancel", record_names(rec, "tool"))
['refunds_issue', 'refunds_lookup']
>>> held_hint(rec, "tool", "refunds_cancel")
"; tools called, nearest first: 'refunds_issue', 'refunds_lookup'"
>>> held_hint(TrialRecord.builder().build(), "tool", "x")
'; no tool was called'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Final

import attrs

from agent_asserts._text import edit_distance
from agent_asserts.matching import Count
from agent_asserts.outcome import Outcome, missing_surface
from agent_asserts.record import DelegationPayload, SkillPayload, ToolCallPayload
from agent_asserts.record.validators import alias_of
from agent_asserts.selectors import MessageSelector, Selector, as_selector

if TYPE_CHECKING:
    from agent_asserts.matching import Mismatch
    from agent_asserts.record import Event, TrialRecord


AGENT_MESSAGES = MessageSelector(actor="agent")


"""The agent's messages, ``on.message(actor="agent")``: what ``bot_uttered``,
``bot_did_not_utter`` and ``confirmation_requested`` read (user messages never count)."""


def exact_count_as_int(value: Any) -> Any:
    """attrs converter: ``Count.exactly(n)`` becomes ``n``, its one canonical spelling, so two
    spellings of one check compare equal and the data form (an int) reads back equal.

    >>> from agent_asserts.checks.tools import CalledTool
    >>> CalledTool("refunds_issue", count=Count.exactly(1)) == CalledTool("refunds_issue", count=1)
    True
    """
    if isinstance(value, Count) and value.kind == "exactly":
        return value.low
    return value


def count_validator(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    """attrs validator: ``None`` (at least one), a whole number >= 0, or a ``Count``.

    >>> from agent_asserts.checks.tools import CalledTool
    >>> CalledTool("refunds_issue", count="2")
    Traceback (most recent call last):
    ...
    TypeError: 'count' must be an int, a Count or None (got '2')
    """
    if value is None or isinstance(value, Count):
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"'{attribute.name}' must be an int, a Count or None (got {value!r})")
    if value < 0:
        raise ValueError(f"'{attribute.name}' must be >= 0 (got {value!r})")


def bool_validator(name: str) -> Any:
    """An attrs validator: the field holds a bool (``TypeError`` naming it otherwise).

    >>> import attrs
    >>> @attrs.frozen
    ... class T:
    ...     total: bool = attrs.field(default=False, validator=bool_validator("total"))
    >>> T(total=1)
    Traceback (most recent call last):
    ...
    TypeError: 'total' must be True or False (got 1)
    """

    def validate(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
        if not isinstance(value, bool):
            raise TypeError(f"{name!r} must be True or False (got {value!r})")

    return validate


def selector_validator(default: str) -> Any:
    """attrs validator factory: None, a selector, or a string read as a tool name or kind.

    >>> from agent_asserts.checks.tools import NotCalledTool
    >>> NotCalledTool("refunds_issue", before=3)
    Traceback (most recent call last):
    ...
    TypeError: 'before' must be a selector (on.*) or a tool name (got 3)
    """

    def validate(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
        if value is None:
            return
        if not isinstance(value, Selector | str):
            what = "a tool name" if default == "tool" else "an event kind"
            raise TypeError(
                f"'{attribute.name}' must be a selector (on.*) or {what} (got {value!r})"
            )
        as_selector(value, default=default)  # validates tool names / kinds when built

    return validate


def selector_surface(record: TrialRecord, *selectors: Selector) -> Outcome | None:
    """``INVALID`` when a kind the selectors read was not recorded, else None.

    >>> from agent_asserts.record import TrialRecord
    >>> from agent_asserts.selectors import on
    >>> rec = TrialRecord.from_dict({"events": [], "surfaces": ["message"]})
    >>> selector_surface(rec, on.tool("a")).status.value
    'invalid'
    """
    if record.surfaces is None:  # every kind counts as recorded (see missing_surface)
        return None
    kinds = [s.index_kind for s in selectors if s.index_kind is not None]
    return missing_surface(record, *dict.fromkeys(kinds))


def event_ids(record: TrialRecord, positions: Iterable[int]) -> tuple[str, ...]:
    """The event ids at ``positions`` of ``record.events``, in the given order.

    >>> from agent_asserts.record import TrialRecord
    >>> event_ids(TrialRecord.builder().tool("a").tool("b").build(), [1])
    ('e1',)
    """
    events = record.events  # a comprehension: 1.6× (2 ids) to 3.4× (1,000) the map/attrgetter
    return tuple([events[p].event_id for p in positions])


def id_list(ids: Sequence[str], limit: int = 5) -> str:
    """``e1, e4, e9`` with ``…`` past ``limit`` ids.

    >>> id_list(["e1", "e2"]), id_list([f"e{i}" for i in range(7)], limit=2)
    ('e1, e2', 'e0, e1, … (7 in all)')
    """
    if len(ids) <= limit:
        return ", ".join(ids)
    return ", ".join(ids[:limit]) + f", … ({len(ids)} in all)"


def tool_call_names(record: TrialRecord) -> tuple[str, ...]:
    """The names of the record's tool calls, in order.

    >>> from agent_asserts.record import TrialRecord
    >>> tool_call_names(TrialRecord.builder().tool("a").user("hi").tool("b").build())
    ('a', 'b')
    """
    return tuple(
        [
            payload.name if isinstance(payload := event.payload, ToolCallPayload) else "?"
            for event in record.tool_calls  # the tool_call events, in order
        ]
    )


def tool_name(record: TrialRecord, position: int) -> str:
    """The name of the tool call at ``position`` (``'?'`` for a non-tool event).

    >>> from agent_asserts.record import TrialRecord
    >>> tool_name(TrialRecord.builder().tool("a").user("hi").build(), 1)
    '?'
    """
    payload = record.events[position].payload
    return payload.name if isinstance(payload, ToolCallPayload) else "?"


def calls_named(record: TrialRecord, positions: Sequence[int]) -> str:
    """The calls at ``positions`` as ``e3 ('refund'), e5 ('lookup')``.

    >>> from agent_asserts.record import TrialRecord
    >>> calls_named(TrialRecord.builder().tool("a").tool("b").build(), [1])
    "e1 ('b')"
    """
    return ", ".join(f"{record.events[p].event_id} ({tool_name(record, p)!r})" for p in positions)


def closest_miss(
    record: TrialRecord, selector: Selector, matched: Sequence[int]
) -> tuple[Event, list[Mismatch]] | None:
    """Among the selector's candidates that did *not* match, the one with the fewest
    mismatches (earliest on ties); None when every candidate matched or there is none.

    >>> from agent_asserts.record import TrialRecord
    >>> from agent_asserts.selectors import on
    >>> rec = TrialRecord.builder().tool("a", arguments={"x": 1}).tool("a", arguments={}).build()
    >>> event, found = closest_miss(rec, on.tool("a", arguments={"x": 1}), [0])
    >>> event.event_id, [m.path for m in found]
    ('e1', ['$.arguments.x'])
    """
    skip = set(matched)
    return selector.closest(record, [p for p in selector.candidates(record) if p not in skip])


def closest_fields(closest: tuple[Event, list[Mismatch]] | None) -> dict[str, Any]:
    """The ``closest`` and ``mismatches`` fields of a failed ``Outcome`` (none for None).

    >>> closest_fields(None)
    {}
    """
    if closest is None:
        return {}
    event, mismatches = closest
    return {"closest": event.event_id, "mismatches": mismatches}


def count_outcome(
    record: TrialRecord,
    selector: Selector,
    count: Count,
    matched: Sequence[int] | None = None,
    *,
    ids: tuple[str, ...] | None = None,
    **fields: Any,
) -> Outcome:
    """Pass when the number of events ``selector`` picks satisfies ``count``.

    ``expected`` and ``observed`` are the count and the number matched; the evidence is the
    matched events (on a failure with none, the candidates), and a failure carries the
    closest candidate that did not match.

    Args:
        record: The record.
        selector: Which events count.
        count: How many there must be.
        matched: The positions ``selector`` picks, when the caller has them already.
        ids: Their event ids, when the caller has them already.
        **fields: More ``Outcome`` fields (``message``, ``details``).

    Returns:
        The outcome.

    >>> from agent_asserts.record import TrialRecord
    >>> from agent_asserts.selectors import on
    >>> rec = TrialRecord.builder().tool("a").build()
    >>> count_outcome(rec, on.tool("a"), Count.of(1), message="one call").status.value
    'pass'
    """
    matched = selector.select(record) if matched is None else matched
    if "expected" not in fields:
        fields["expected"] = count.describe()
    fields.setdefault("observed", len(matched))
    if count.matches(len(matched)):
        return Outcome.of(
            True, evidence=event_ids(record, matched) if ids is None else ids, **fields
        )
    evidence = event_ids(record, matched or selector.candidates(record))
    closest = closest_miss(record, selector, matched)
    return Outcome.of(False, evidence=evidence, **closest_fields(closest), **fields)


def parallel_note(record: TrialRecord, position: int, other: int) -> str:
    """``; e2 matched but was issued in parallel with e1 (group 'r1')`` for failure messages.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().tool("a", group_id="r1").tool("b", group_id="r1").build()
    >>> parallel_note(rec, 1, 0)
    "; e1 matched but was issued in parallel with e0 (group 'r1')"
    """
    events = record.events
    group = events[position].group_id
    return (
        f"; {events[position].event_id} matched but was issued in parallel with"
        f" {events[other].event_id} (group {group!r})"
    )


LIMIT: Final = 10


"""The most names a hint lists."""


_WORDS: Final = {
    "tool": ("tools called", "no tool was called"),
    "memory": ("memory keys written", "no memory key was written"),
    "skill": ("skills recorded", "no skill event was recorded"),
    "agent": ("sub-agents recorded", "no sub-agent was recorded"),
    "kind": ("event kinds recorded", "no event was recorded"),
}


def nearest(word: str, names: Iterable[str], limit: int = LIMIT) -> list[str]:
    """``names`` sorted by edit distance to ``word`` (then alphabetically), at most ``limit``.

    >>> nearest("stpe", ["step", "audit", "steps"], limit=2)
    ['step', 'steps']
    """
    return sorted(set(names), key=lambda n: (edit_distance(word, n), n))[:limit]


def record_names(record: TrialRecord, kind: str) -> list[str]:
    """The names of ``kind`` (``tool``, ``memory``, ``skill``, ``agent`` or ``kind``) the
    record holds.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().memory_set("a.b", 1).subagent("researcher").build()
    >>> record_names(rec, "memory"), record_names(rec, "agent"), record_names(rec, "kind")
    (['a.b'], ['researcher'], ['delegation', 'memory'])
    """
    index = record.index
    if kind == "tool":
        return list(index.tools)
    if kind == "memory":
        return list(index.memory)
    if kind == "kind":
        return sorted(index.kinds)
    names: list[str] = []
    source = "skill" if kind == "skill" else "delegation"
    for position in index.kinds.get(source, ()):
        payload = record.events[position].payload
        if isinstance(payload, SkillPayload):
            names.append(payload.skill_id)
        elif isinstance(payload, DelegationPayload):
            names.append(payload.subagent)
    return list(dict.fromkeys(names))


def alias_hint(record: TrialRecord, positions: Iterable[int], fields: Iterable[str]) -> str:
    """``; e0 has 'args' in its payload: did you mean 'arguments'?`` for the first event at
    ``positions`` whose payload keeps, in ``extra``, a key that looks like one of ``fields``.

    >>> import warnings
    >>> from agent_asserts.record import TrialRecord
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     rec = TrialRecord.from_dict({"events": [
    ...         {"kind": "tool_call", "payload": {"name": "t", "args": {"a": 1}}}]})
    >>> alias_hint(rec, [0], ["arguments"])
    "; e0 has 'args' in its payload: did you mean 'arguments'?"
    """
    wanted = tuple(fields)
    for position in positions:
        event = record.events[position]
        extra = getattr(event.payload, "extra", None)
        if not extra:
            continue
        for field in wanted:
            key = alias_of(extra, field)
            if key is not None:
                return f"; {event.event_id} has {key!r} in its payload: did you mean {field!r}?"
    return ""


def held_hint(record: TrialRecord, kind: str, word: str) -> str:
    """``; tools called, nearest first: 'a', 'b'`` (or ``; no tool was called``; for the
    other kinds nothing when the record holds none).

    >>> from agent_asserts.record import TrialRecord
    >>> held_hint(TrialRecord.builder().memory_set("refund.id", 1).build(), "memory", "refund.ID")
    "; memory keys written, nearest first: 'refund.id'"
    """
    some, none = _WORDS[kind]
    names = record_names(record, kind)
    if not names:
        return f"; {none}" if kind == "tool" else ""
    shown = nearest(word, names)
    more = f" (and {len(names) - len(shown)} more)" if len(names) > len(shown) else ""
    return f"; {some}, nearest first: " + ", ".join(repr(n) for n in shown) + more


__all__ = [
    "AGENT_MESSAGES",
    "LIMIT",
    "alias_hint",
    "bool_validator",
    "calls_named",
    "closest_fields",
    "closest_miss",
    "count_outcome",
    "count_validator",
    "event_ids",
    "exact_count_as_int",
    "held_hint",
    "id_list",
    "nearest",
    "parallel_note",
    "record_names",
    "selector_surface",
    "selector_validator",
    "tool_name",
]
