"""Did you mean, from the record: the names a record holds, nearest first.

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

from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from agent_asserts._distance import edit_distance
from agent_asserts.record import DelegationPayload, SkillPayload
from agent_asserts.record.validators import alias_of

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord

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


__all__ = ["LIMIT", "alias_hint", "held_hint", "nearest", "record_names"]
