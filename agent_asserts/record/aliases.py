"""Payload keys that look like a misnamed field: ``args`` for ``arguments``, ``output`` for
``result``…

A typed payload keeps the keys it does not know in ``extra``, so nothing is lost; but a tool
call written with ``args`` then has no ``arguments``, and an arguments check fails with
``$.arguments.a: missing key`` while the data sits under ``args``. When a payload's ``extra``
holds a known alias or a near miss of one of its fields (and that field itself is absent),
decoding emits a :class:`~agent_asserts.errors.RecordWarning` naming the path and the field,
and the checks that compare that field mention it on a failure.

>>> suspicious_keys({"name": "t", "args": {}}, frozenset({"name", "arguments", "result"}))
[('args', 'arguments')]
>>> suspicious_keys({"name": "t", "reslt": 1}, frozenset({"name", "arguments", "result"}))
[('reslt', 'result')]
>>> suspicious_keys({"name": "t", "vendor": 1}, frozenset({"name", "arguments"}))
[]
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping
from typing import Any, Final

from agent_asserts._text import edit_distance
from agent_asserts.errors import RecordWarning

ALIASES: Final[Mapping[str, tuple[str, ...]]] = {
    "args": ("arguments",),
    "input": ("arguments",),
    "inputs": ("arguments",),
    "parameters": ("arguments",),
    "params": ("arguments",),
    "kwargs": ("arguments",),
    "tool_input": ("arguments",),
    "output": ("result",),
    "outputs": ("result",),
    "response": ("result",),
    "return": ("result",),
    "tool_output": ("result",),
    "tool": ("name",),
    "tool_name": ("name",),
    "function": ("name",),
    "error": ("is_error", "error_message"),
    "content": ("text",),
    "message": ("text",),
    "key": ("name",),
    "slot": ("name",),
    "skill": ("skill_id",),
    "block": ("block_id",),
    "agent": ("subagent",),
}
"""Known aliases, each with the fields it may stand for (the first one the payload has wins)."""


def near_miss(key: str, fields: Iterable[str]) -> str | None:
    """The field ``key`` is a typo of: same first letter, at most two edits away (one for
    short names), not a different word that merely shares letters (``resource``/``source``).

    >>> near_miss("argments", ["arguments"]), near_miss("resource", ["source"])
    ('arguments', None)
    """
    best: tuple[int, str] | None = None
    for field in fields:
        if len(key) < 3 or key[0] != field[0]:
            continue
        distance = edit_distance(key, field)
        if 0 < distance <= (1 if len(field) <= 4 else 2) and (best is None or distance < best[0]):
            best = (distance, field)
    return None if best is None else best[1]


def suspicious_keys(raw: Mapping[str, Any], known: frozenset[str]) -> list[tuple[str, str]]:
    """``(key, field)`` for each unknown key of ``raw`` that looks like an absent field.

    Args:
        raw: The payload as written.
        known: The payload type's field names.

    Returns:
        The suspicious keys, in the order written.
    """
    out: list[tuple[str, str]] = []
    for key in raw:
        if key in known or not isinstance(key, str):
            continue
        field = next((f for f in ALIASES.get(key, ()) if f in known), None)
        if field is None:
            field = near_miss(key, known)
        if field is not None and field not in raw:
            out.append((key, field))
    return out


def alias_message(path: str, key: str, field: str) -> str:
    """The warning text.

    >>> alias_message("$.events[0].payload", "args", "arguments")
    "$.events[0].payload.args: unknown key kept in 'extra'; it looks like 'arguments' (rename it)"
    """
    return f"{path}.{key}: unknown key kept in 'extra'; it looks like {field!r} (rename it)"


def warn_suspicious(raw: Mapping[str, Any], known: frozenset[str], path: str) -> None:
    """Emit one :class:`RecordWarning` per suspicious key of ``raw``.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_suspicious({"params": {}}, frozenset({"name", "arguments"}), "$.p")
    >>> [str(w.message) for w in caught]
    ["$.p.params: unknown key kept in 'extra'; it looks like 'arguments' (rename it)"]
    """
    for key, field in suspicious_keys(raw, known):
        warnings.warn(alias_message(path, key, field), RecordWarning, stacklevel=2)


def alias_of(extra: Mapping[str, Any], field: str) -> str | None:
    """The key of ``extra`` that looks like ``field`` (an alias or a near miss), or None.

    >>> alias_of({"args": {"a": 1}}, "arguments"), alias_of({"x": 1}, "arguments")
    ('args', None)
    """
    for key in extra:
        if not isinstance(key, str):
            continue
        if field in ALIASES.get(key, ()) or near_miss(key, [field]) == field:
            return key
    return None


__all__ = [
    "ALIASES",
    "alias_message",
    "alias_of",
    "near_miss",
    "suspicious_keys",
    "warn_suspicious",
]
