"""The one nesting-depth limit for data given to the library (records, suites, matchers).

Decoding and matching walk data recursively; data nested deeper than Python's recursion limit
would raise ``RecursionError`` from deep inside. :func:`too_deep` finds, without recursion,
the first container nested deeper than :data:`MAX_DEPTH`, so the caller can refuse the data
with its own error naming where.

>>> too_deep({"a": [[1]]}, limit=2)
('a', 0)
>>> too_deep({"a": [1]}, limit=2) is None
True
>>> json_path(("a", 0))
'$.a[0]'
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Final

MAX_DEPTH: Final = 200
"""How deeply containers (mappings, lists, tuples) may be nested in a record, in Python data
given to ``load()``, and in the values a matcher compares (the outermost container is level 1)."""


_SCALARS: Final = frozenset({str, int, float, bool, type(None)})


def _children(value: Any) -> Iterator[tuple[str | int, Any]] | None:
    kind = type(value)
    if kind in _SCALARS:  # exact types first: most values are JSON scalars, dicts and lists
        return None
    if kind is dict:
        return ((str(key), child) for key, child in value.items())
    if kind is list or kind is tuple:
        return enumerate(value)
    if isinstance(value, Mapping):
        return ((str(key), child) for key, child in value.items())
    if isinstance(value, list | tuple):
        return enumerate(value)
    return None


def too_deep(value: Any, limit: int = MAX_DEPTH) -> tuple[str | int, ...] | None:
    """The key path of the first container nested deeper than ``limit``, or None (a cycle is
    infinitely deep, so it is found too).

    The depth is measured level by level (each container visited once, exact types first);
    only data found too deep is walked again, in document order, for the path.

    >>> too_deep([[1], [[2]]], limit=2)
    (1, 0)
    """
    if not _is_container(value):
        return None
    level = [value]
    depth = 1
    while level:
        if depth > limit:
            return _first_too_deep(value, limit)
        inner: list[Any] = []
        add = inner.append
        for item in level:
            shape = type(item)
            mapped = shape is dict or (shape is not list and isinstance(item, Mapping))
            for child in item.values() if mapped else item:
                kind = type(child)
                if kind is dict or kind is list or (kind not in _SCALARS and _is_container(child)):
                    add(child)
        level = inner
        depth += 1
    return None


def _is_container(value: Any) -> bool:
    kind = type(value)
    if kind is dict or kind is list or kind is tuple:
        return True
    return kind not in _SCALARS and isinstance(value, Mapping | list | tuple)


def _first_too_deep(value: Any, limit: int) -> tuple[str | int, ...] | None:
    """The key path of the first container (in document order) nested deeper than ``limit``."""
    first = _children(value)
    if first is None:
        return None
    path: list[str | int] = []
    stack = [first]
    while stack:
        step = next(stack[-1], None)
        if step is None:
            stack.pop()
            if path:
                path.pop()
            continue
        key, child = step
        children = _children(child)
        if children is not None:
            if len(stack) >= limit:
                return (*path, key)
            stack.append(children)
            path.append(key)
    return None


def capped(value: Any, limit: int) -> Any:
    """``value`` with every container nested deeper than ``limit`` replaced by a note saying
    so; ``value`` itself when it is not that deep (the usual case, one walk).

    For data a record keeps as evidence of what it could not read (a parse error's item), so
    that the record written out stays within the depth its reader accepts.

    >>> capped([[["x"]]], 2)
    [['… (nested deeper than 2 levels: not kept)']]
    >>> capped({"a": 1}, 2)
    {'a': 1}
    """
    if too_deep(value, limit) is None:
        return value
    return _cut(value, limit, 1)


def _cut(value: Any, limit: int, depth: int) -> Any:
    if not _is_container(value):
        return value
    if depth > limit:
        return f"… (nested deeper than {limit} levels: not kept)"
    if isinstance(value, Mapping):
        return {key: _cut(child, limit, depth + 1) for key, child in value.items()}
    return [_cut(child, limit, depth + 1) for child in value]


def json_path(parts: tuple[str | int, ...], root: str = "$") -> str:
    """A key path as a JSON path."""
    return root + "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in parts)


def depth_message(limit: int = MAX_DEPTH) -> str:
    """The problem text of data nested too deeply.

    >>> depth_message(3)
    'nested more than 3 levels deep (the limit of nesting)'
    """
    return f"nested more than {limit} levels deep (the limit of nesting)"


__all__ = ["MAX_DEPTH", "capped", "depth_message", "json_path", "too_deep"]
