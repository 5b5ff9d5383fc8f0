"""Selectors: *which events* a check looks at, shared by every family — and the three ways
to write one: ``on.*``, a plain name (:func:`as_selector`), a data mapping
(:func:`selector_from_data`).

``on.tool(...)``, ``on.message(...)``, ``on.memory_set(...)``, ``on.memory_cleared(...)``,
``on.skill(...)``, ``on.block(...)``, ``on.subagent(...)`` and ``on.event(...)`` build
:class:`Selector` objects. A selector names the narrowest record index that can hold its
events (``candidates``), so a check costs O(matching events), and explains a non-matching
event as a list of mismatches (for the "closest candidate" of a failure).

>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.builder().tool("lookup", arguments={"id": 7}).build()
>>> sel = on.tool("lookup", arguments={"id": 7})
>>> [rec.events[i].event_id for i in sel.select(rec)]
['e0']

**Selector mappings as data** (:func:`selector_from_data`, the inverse of
``Selector.to_data()``): used for check fields typed ``Selector`` (``before:``, ``next:``,
``sequencing``, ``event``, ``judge.evidence``…) when their value is a mapping, by the
suite-file loaders and by the converter of :mod:`agent_asserts.serialization` alike; a plain
string stays a string and the check reads it as usual. Each form builds the selector through
its public constructor (``on.*``):

* ``{tool: name, arguments: …, result: …, is_error: …, source: …}``
* ``{message: {actor, text, utter_name, buttons}}``
* ``{memory_set: name}`` or ``{memory_set: {name, value}}``, ``{memory_cleared: name}`` or
  ``{memory_cleared: {name}}`` (every form also takes ``agent``; ``tool`` also ``outcome``)
* ``{skill_<transition>: {skill_id, step_id}}``, ``{ordered_block_<transition>: {…}}``
* ``{subagent: name}`` or ``{subagent: {name, status}}``, ``{event: {kind, event_type, …}}``

>>> selector_from_data({"tool": "refunds_issue", "arguments": {"amount": 42}})
on.tool('refunds_issue', arguments={'amount': 42})
>>> selector_from_data({"skill_activated": {"skill_id": "refund"}})
on.skill('activated', 'refund')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from agent_asserts._boundary import guard
from agent_asserts._text import did_you_mean, unknown_key_message
from agent_asserts.record.event import BLOCK_TRANSITIONS, SKILL_TRANSITIONS
from agent_asserts.selectors.calls import (
    BlockSelector,
    EventSelector,
    MemoryClearedSelector,
    MemorySetSelector,
    MessageSelector,
    Selector,
    SkillSelector,
    SubagentSelector,
    ToolSelector,
)


class on:  # noqa: N801 - a namespace read as a word: on.tool(...)
    """Selector constructors (``from agent_asserts import on``).

    >>> on.tool("refund")
    on.tool('refund')
    >>> on.event("audit", operation_ref="op-7")
    on.event('audit', operation_ref='op-7')
    """

    tool = ToolSelector
    message = MessageSelector
    memory_set = MemorySetSelector
    memory_cleared = MemoryClearedSelector
    skill = SkillSelector
    block = BlockSelector
    subagent = SubagentSelector

    @staticmethod
    def event(kind: str | None = None, event_type: str | None = None, **filters: Any) -> Selector:
        """Events by kind, event type and envelope fields (``payload=`` matches partially).

        >>> on.event("audit").kind
        'audit'
        """
        return EventSelector(kind=kind, event_type=event_type, filters=filters)


guard(on, "on")


def as_selector(
    value: Selector | str, *, default: str = "tool", name: str | None = None
) -> Selector:
    """A selector, or a plain string read as a tool name (``default="tool"``) or a kind.

    Args:
        value: The selector or string.
        default: What a string means: ``"tool"`` (a tool name) or ``"kind"`` (an event kind).
        name: The parameter (and position) ``value`` was given as, named in the error
            (``calls[1]``).

    Raises:
        TypeError: ``value`` is neither a selector nor a string.

    >>> as_selector("lookup")
    on.tool('lookup')
    >>> as_selector("audit", default="kind")
    on.event('audit')
    >>> as_selector(5, name="calls[1]")
    Traceback (most recent call last):
    ...
    TypeError: 'calls[1]' must be a selector (on.*) or a tool name (got 5)
    """
    if isinstance(value, Selector):
        return value
    if isinstance(value, str):
        if default == "tool":
            return ToolSelector(value)
        if default == "kind":
            return EventSelector(kind=value)
        raise ValueError(f"'default' must be 'tool' or 'kind' (got {default!r})")
    what = "an event kind" if default == "kind" else "a tool name"
    hint = "; give several steps as separate arguments" if isinstance(value, list | tuple) else ""
    if name is None:
        raise TypeError(f"expected a selector (on.*) or {what}, got {value!r}{hint}")
    raise TypeError(f"'{name}' must be a selector (on.*) or {what} (got {value!r}){hint}")


_FORMS = ("tool", "message", "memory_set", "memory_cleared", "subagent", "event")


def _kinds() -> list[str]:
    return [
        *_FORMS,
        *(f"skill_{t}" for t in SKILL_TRANSITIONS),
        *(f"ordered_block_{t}" for t in BLOCK_TRANSITIONS),
    ]


def selector_from_data(data: Mapping[str, Any]) -> Any:
    """The selector written as ``data`` (values may already hold matchers).

    Raises:
        ValueError: An unknown form (with a suggestion) or a bad shape.
        TypeError: Arguments the selector's constructor does not take.

    >>> selector_from_data({"tool": "refunds_issue", "arguments": {"amount": 42}})
    on.tool('refunds_issue', arguments={'amount': 42})
    >>> selector_from_data({"tol": "refunds_issue"})
    Traceback (most recent call last):
    ...
    ValueError: unknown selector 'tol' (did you mean 'tool'?)
    """
    if "tool" in data:
        rest = {k: v for k, v in data.items() if k != "tool"}
        return on.tool(data["tool"], **_keywords(on.tool, rest, fixed=("name",)))
    if len(data) != 1:
        raise ValueError(f"a selector mapping has one key, one of {', '.join(_kinds())}")
    ((key, body),) = data.items()
    if key not in _kinds():
        raise ValueError(f"unknown selector {key!r}{did_you_mean(key, _kinds())}")
    named = {
        "memory_set": on.memory_set,
        "memory_cleared": on.memory_cleared,
        "subagent": on.subagent,
    }
    if key in named:
        make = named[key]
        return make(**_keywords(make, body)) if isinstance(body, Mapping) else make(body)
    if not isinstance(body, Mapping):
        raise ValueError(f"{key!r} takes a mapping (got {body!r})")
    if key == "message":
        return on.message(**_keywords(on.message, body))
    if key == "event":
        return on.event(**body)
    if key.startswith("skill_"):
        return on.skill(key.removeprefix("skill_"), **_keywords(on.skill, body, ("transition",)))
    transition = key.removeprefix("ordered_block_")
    return on.block(transition, **_keywords(on.block, body, ("transition",)))


def _keywords(cls: Any, body: Mapping[str, Any], fixed: tuple[str, ...] = ()) -> dict[str, Any]:
    """``body`` as keyword arguments of the attrs class ``cls``; unknown keys are errors."""
    allowed = [
        f.name
        for f in attrs.fields(cls)
        if f.init and not f.name.startswith("_") and f.name not in fixed
    ]
    for key in body:
        if key not in allowed:
            raise ValueError(unknown_key_message(str(key), allowed))
    return dict(body)


# selector_from_data is importable from here but not a star export (as before, when it lived in
# a submodule of its own)
__all__ = ["Selector", "as_selector", "on"]
