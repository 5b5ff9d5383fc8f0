"""Selector mappings as data: the inverse of ``Selector.to_data()``.

Used for check fields typed ``Selector`` (``before:``, ``next:``, ``sequencing``, ``event``,
``judge.evidence``…) when their value is a mapping, by the suite-file loaders and by the
converter of :mod:`agent_asserts.serialization` alike; a plain string stays a string and the
check reads it as usual. Each form builds the selector through its public constructor (``on.*``):

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

from agent_asserts._text import did_you_mean, unknown_key_message
from agent_asserts.record.event import BLOCK_TRANSITIONS, SKILL_TRANSITIONS
from agent_asserts.selectors import on

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


__all__ = ["selector_from_data"]
