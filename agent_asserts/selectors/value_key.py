"""Checks built once per distinct steps *by value*: ``ctx.sequencing(on.memory_set("x"), …)``.

``on.memory_set("refund.order_id")`` written inside a fluent call is a new selector on every
call, and the construction cache (:func:`~agent_asserts.selectors.memo.built`) keys a selector
by identity, so a check built from it would be built and validated again each time.
:func:`built_by_steps` keys each step by value first — a string as itself, one of this
package's selectors by its class and the content of its init fields
(:func:`selector_key`) — and returns the check built the first time for the same steps.
A step without a value key (a custom selector, one holding a dict or a callable) leaves the
call to :func:`built`, exactly as before; a call that raises is never cached.

>>> from agent_asserts.checks.sequencing import Sequencing
>>> from agent_asserts.selectors import on
>>> first = built_by_steps(Sequencing, (on.memory_set("refund.order_id"), "refunds_issue"))
>>> built_by_steps(Sequencing, (on.memory_set("refund.order_id"), "refunds_issue")) is first
True
>>> selector_key(on.tool("a")) == selector_key(on.tool(" a"))
False
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, TypeVar

from agent_asserts.matching.content_key import NotKeyable, content_part, frozen_fields
from agent_asserts.selectors.base import Selector
from agent_asserts.selectors.memo import built

C = TypeVar("C")

_PACKAGE: Final = "agent_asserts.selectors."
_LIMIT: Final = 1024
_UNSEEN: Final = ("<a type not seen yet>",)
# per selector type: the names of its init fields, or None when it has no value key
_fields_of: dict[type, tuple[str, ...] | None] = {}
_by_steps: dict[Any, Any] = {}


def _fields(kind: type) -> tuple[str, ...] | None:
    fields = _fields_of[kind] = frozen_fields(kind, _PACKAGE, Selector)
    return fields


def selector_key(selector: Any) -> tuple[Any, ...] | None:
    """``(class, field contents…)`` of one of this package's frozen selectors whose fields
    are plain values, tuples or matchers of such values; None for any other selector.

    >>> from agent_asserts.selectors import on
    >>> selector_key(on.memory_set("x")) == selector_key(on.memory_set("x"))
    True
    """
    kind = type(selector)
    fields = _fields_of.get(kind, _UNSEEN)
    if fields is _UNSEEN:
        fields = _fields(kind)
    if fields is None:
        return None
    parts: list[Any] = [kind]
    try:
        for name in fields:
            value = getattr(selector, name)
            parts.append(value if type(value) is str else content_part(value, 0, True))
    except NotKeyable:
        return None
    return tuple(parts)


def built_by_steps(cls: Callable[..., C], steps: Sequence[Any]) -> C:
    """``built(cls, *steps)``, the same object again for steps equal by value.

    >>> from agent_asserts.checks.sequencing import Sequencing
    >>> built_by_steps(Sequencing, ("a", "b")).describe()
    "sequencing('a', 'b')"
    """
    key: list[Any] = [cls]
    for step in steps:
        if type(step) is str:
            key.append(step)
            continue
        part = selector_key(step)
        if part is None:
            return built(cls, *steps)
        key.append(part)
    found = _by_steps.get(whole := tuple(key))
    if found is None:
        found = built(cls, *steps)
        if len(_by_steps) >= _LIMIT:
            _by_steps.clear()
        _by_steps[whole] = found
    return found


__all__ = ["built_by_steps", "selector_key"]
