"""Read JSON with the standard library when PyYAML is not installed.

Syntax errors keep their line and column; everything found later (duplicate keys, and the
dialect's own problems) names the key path only, since :mod:`json` does not report where a
value was written.

>>> from agent_asserts.loaders.collector import ProblemCollector
>>> problems = ProblemCollector("s.json")
>>> read_json('{"a": 1, "a": 2}', problems) is not None
True
>>> print(problems.error())
s.json: duplicate key 'a'
>>> problems = ProblemCollector("s.json")
>>> read_json('{"a": 1,\\n "b" 2}', problems) is None
True
>>> print(problems.error())
s.json:2:6: invalid JSON: Expecting ':' delimiter
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from agent_asserts.errors import AgentAssertsError
from agent_asserts.loaders.nodes import MappingNode, Node, PathPart, ScalarNode, SequenceNode

if TYPE_CHECKING:
    from agent_asserts.loaders.collector import ProblemCollector


class _Pairs(list[tuple[str, Any]]):
    """A JSON object as its list of pairs, so duplicate keys survive parsing."""


class _NotJson(AgentAssertsError, ValueError):
    pass


def _reject_constant(name: str) -> Any:
    raise _NotJson(f"{name} is not a JSON value")


def read_json(text: str, problems: ProblemCollector) -> Node | None:
    """Parse JSON text into nodes without positions; syntax errors keep theirs.

    >>> from agent_asserts.loaders.collector import ProblemCollector
    >>> node = read_json('{"checks": ["succeeded"]}', ProblemCollector("s.json"))
    >>> node.items["checks"].path_str, node.items["checks"].line
    ('checks', None)
    """
    try:
        data = json.loads(text, object_pairs_hook=_Pairs, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        problems.add_at(exc.lineno, exc.colno, "", f"invalid JSON: {exc.msg}")
        return None
    except _NotJson as exc:
        problems.add(None, f"invalid JSON: {exc}")
        return None
    except RecursionError:
        problems.add(None, "invalid JSON: the document is nested too deeply")
        return None
    try:
        return _build(data, (), problems)
    except RecursionError:  # parsed, but too deep to build
        problems.add(None, "invalid JSON: the document is nested too deeply")
        return None


def _build(value: Any, path: tuple[PathPart, ...], problems: ProblemCollector) -> Node:
    file = problems.file
    if isinstance(value, _Pairs):
        items: dict[str, Node] = {}
        keys: dict[str, ScalarNode] = {}
        for key, child in value:
            if key in items:
                mapping = MappingNode(file, None, None, path, {}, {})
                problems.add(mapping, f"duplicate key {key!r}")
                continue
            keys[key] = ScalarNode(file, None, None, (*path, key), key)
            items[key] = _build(child, (*path, key), problems)
        return MappingNode(file, None, None, path, items, keys)
    if isinstance(value, list):
        children = tuple(_build(child, (*path, i), problems) for i, child in enumerate(value))
        return SequenceNode(file, None, None, path, children)
    return ScalarNode(file, None, None, path, value)


def is_json(text: str) -> bool:
    """True when ``text`` is valid JSON (used to work around PyYAML limits on JSON input).

    >>> is_json('{"a": [1]}'), is_json("a: 1")
    (True, False)
    """
    try:
        json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        return False
    return True


__all__ = ["is_json", "read_json"]
