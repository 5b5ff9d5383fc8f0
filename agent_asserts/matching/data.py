"""Turning values that may contain matchers into plain YAML/JSON data (``$``-operator form).

A mapping key that starts with ``$`` is an operator in the data form, so a *literal* key that
starts with ``$`` is written with one more ``$`` (``$name`` → ``$$name``); ``from_data`` undoes it.

>>> from agent_asserts.matching import M
>>> value_to_data({"amount": M.gt(3), "$ref": "x", "tags": ("a",)})
{'amount': {'$gt': 3}, '$$ref': 'x', 'tags': ['a']}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agent_asserts._values import MISSING
from agent_asserts.matching.base import Matcher
from agent_asserts.matching.values import is_list


def escape_key(key: Any) -> Any:
    """Escape a literal mapping key for the data form (``$x`` → ``$$x``).

    Args:
        key: A mapping key.

    Returns:
        The key as written in data.

    >>> escape_key("$name"), escape_key("name"), escape_key(1)
    ('$$name', 'name', 1)
    """
    if isinstance(key, str) and key.startswith("$"):
        return "$" + key
    return key


def unescape_key(key: Any) -> Any:
    """Undo :func:`escape_key` on a plain (non-operator) data key (``$$x`` → ``$x``).

    Args:
        key: A key read from data.

    Returns:
        The literal key.

    >>> unescape_key("$$name"), unescape_key("name")
    ('$name', 'name')
    """
    if isinstance(key, str) and key.startswith("$$"):
        return key[1:]
    return key


def value_to_data(value: Any) -> Any:
    """Turn a value that may contain matchers into plain data.

    Matchers become their ``$``-operator form (:meth:`Matcher.to_data`), tuples become lists,
    literal ``$`` keys are escaped as ``$$``; other values are returned as they are.

    Args:
        value: A plain value, a matcher, or a structure containing matchers.

    Returns:
        Data that ``from_data`` turns back into an equal value.

    Raises:
        TypeError: For ``MISSING`` (write ``M.absent()``) and for ``M.satisfies``.

    >>> from agent_asserts.matching import M
    >>> value_to_data([M.regex("^A"), {"n": 1}])
    [{'$regex': '^A'}, {'n': 1}]
    """
    if isinstance(value, Matcher):
        return value.to_data()
    if isinstance(value, Mapping):
        return {escape_key(k): value_to_data(v) for k, v in value.items()}
    if is_list(value):
        return [value_to_data(item) for item in value]
    if value is MISSING:
        raise TypeError("MISSING has no YAML/JSON form; write M.absent() to expect no value")
    return value


__all__ = ["escape_key", "unescape_key", "value_to_data"]
