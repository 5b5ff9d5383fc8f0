"""Position-carrying document nodes, shared by the YAML and JSON readers and every dialect.

A node knows the file it came from, its 1-based line and column (``None`` when unknown) and its
key path from the document root. Mappings also keep their keys as nodes, so a problem about a
key points at the key.

A suite's text is first read quickly, into nodes without positions, key paths or key nodes, one
node standing for every equal string, small integer, boolean and null of the document
(:func:`~agent_asserts.loaders.source.read_json_quick`); the text is read again the full way as
soon as a problem is found. So a dialect must not tell places apart by their nodes' identity or
equality, only by where it found them.

>>> doc = from_plain({"checks": [{"max_steps": 3}]}, file="<data>")
>>> item = doc.get("checks").items[0]
>>> item.path_str, item.where
('checks[0]', '<data>')
>>> to_plain(doc)
{'checks': [{'max_steps': 3}]}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import attrs

from agent_asserts._values import PathPart, format_path


class _Invalid:
    """The value of a node whose problem was already reported (a bad tag, say)."""

    def __repr__(self) -> str:
        return "INVALID"


INVALID: Final = _Invalid()
"""Stands for a value that could not be read; accessors skip it without a second problem."""

Scalar = str | int | float | bool | None | _Invalid


@attrs.frozen
class Node:
    """Base of the three node kinds: where a value was written."""

    file: str
    line: int | None
    col: int | None
    path: tuple[PathPart, ...]

    @property
    def path_str(self) -> str:
        """The key path as text (see :func:`format_path`).

        >>> from agent_asserts.loaders.source import parse_text
        >>> parse_text("{cases: [{checks: [succeeded]}]}").items["cases"].items[0].path_str
        'cases[0]'
        """
        return format_path(self.path)

    @property
    def where(self) -> str:
        """``file:line:col`` (or ``file`` when the position is unknown).

        >>> from agent_asserts.loaders.source import parse_text
        >>> parse_text("{name: x, checks: []}", file="s.yml").items["checks"].where
        's.yml:1:19'
        """
        if self.line is None:
            return self.file
        return f"{self.file}:{self.line}:{self.col}"


@attrs.frozen
class ScalarNode(Node):
    """A string, number, boolean or null."""

    value: Scalar


@attrs.frozen
class MappingNode(Node):
    """A mapping with string keys; ``keys`` holds each key's own node (its position)."""

    items: Mapping[str, Node]
    keys: Mapping[str, ScalarNode]

    def get(self, key: str) -> Node | None:
        """The value node under ``key``, or None when absent.

        >>> from_plain({"a": 1}).get("b") is None
        True
        """
        return self.items.get(key)

    def key_node(self, key: str) -> Node:
        """The node of ``key`` itself (for problems about the key), else the mapping.

        >>> from agent_asserts.loaders.source import parse_text
        >>> doc = parse_text("{a: 1, b: 2}")
        >>> doc.key_node("b").col, doc.key_node("missing").col
        (8, 1)
        """
        return self.keys.get(key, self)


@attrs.frozen
class SequenceNode(Node):
    """A list."""

    items: tuple[Node, ...]


def to_plain(node: Node) -> Any:
    """The plain Python value of ``node``: dicts, lists, str, int, float, bool, None.

    >>> to_plain(from_plain([1, {"a": None}]))
    [1, {'a': None}]
    """
    if isinstance(node, MappingNode):
        return {key: to_plain(child) for key, child in node.items.items()}
    if isinstance(node, SequenceNode):
        return [to_plain(child) for child in node.items]
    if isinstance(node, ScalarNode):
        return node.value
    raise TypeError(f"not a document node: {node!r}")


def from_plain(value: Any, *, file: str = "<data>", path: tuple[PathPart, ...] = ()) -> Node:
    """Nodes without positions for already parsed data (problems then name key paths only).

    Mapping keys that are not strings are turned into strings; tuples count as lists. Values
    that are not JSON data (a matcher object, say) stay as they are in a :class:`ScalarNode`.

    >>> from_plain({"a": [True]}).get("a").items[0].path_str
    'a[0]'
    """
    if isinstance(value, Mapping):
        items: dict[str, Node] = {}
        keys: dict[str, ScalarNode] = {}
        for raw_key, child in value.items():
            key = raw_key if isinstance(raw_key, str) else str(raw_key)
            keys[key] = ScalarNode(file, None, None, (*path, key), key)
            items[key] = from_plain(child, file=file, path=(*path, key))
        return MappingNode(file, None, None, path, items, keys)
    if isinstance(value, list | tuple):
        children = tuple(
            from_plain(child, file=file, path=(*path, i)) for i, child in enumerate(value)
        )
        return SequenceNode(file, None, None, path, children)
    return ScalarNode(file, None, None, path, value)


def descend(node: Node, relative: tuple[PathPart, ...]) -> Node:
    """The deepest node along ``relative`` below ``node`` (stops where the path leaves it).

    >>> doc = from_plain({"a": [{"b": 1}]})
    >>> descend(doc, ("a", 0, "b")).path_str, descend(doc, ("a", 5)).path_str
    ('a[0].b', 'a')
    """
    current = node
    for part in relative:
        child = _child(current, part)
        if child is None:
            break
        current = child
    return current


def _child(node: Node, part: PathPart) -> Node | None:
    if isinstance(node, MappingNode) and isinstance(part, str):
        return node.items.get(part)
    if isinstance(node, SequenceNode) and isinstance(part, int) and 0 <= part < len(node.items):
        return node.items[part]
    return None


def has_invalid(node: Node | None) -> bool:
    """True when a value below ``node`` could not be read (its problem is already reported).

    >>> has_invalid(from_plain({"a": [1, INVALID]})), has_invalid(from_plain({"a": 1}))
    (True, False)
    """
    if isinstance(node, ScalarNode):
        return node.value is INVALID
    if isinstance(node, MappingNode):
        return any(has_invalid(child) for child in node.items.values())
    if isinstance(node, SequenceNode):
        return any(has_invalid(child) for child in node.items)
    return False


def describe_value(node: Node) -> str:
    """A short rendering of a node's value for ``(got …)`` in messages.

    >>> [describe_value(from_plain(v)) for v in (None, True, "a", 3, [1], {})]
    ['null', 'true', "'a'", '3', 'a list', 'a mapping']
    """
    if isinstance(node, MappingNode):
        return "a mapping"
    if isinstance(node, SequenceNode):
        return "a list"
    value = node.value if isinstance(node, ScalarNode) else node
    if value is INVALID:
        return "an invalid value"
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    text = repr(value)
    return text if len(text) <= 60 else text[:56] + "...'"


__all__ = [
    "INVALID",
    "MappingNode",
    "Node",
    "PathPart",
    "Scalar",
    "ScalarNode",
    "SequenceNode",
    "descend",
    "describe_value",
    "format_path",
    "from_plain",
    "has_invalid",
    "to_plain",
]
