"""The one nesting limit (:data:`~agent_asserts._depth.MAX_DEPTH`, 200 levels) in matching.

Matchers walk values recursively; a value nested deeper than Python's recursion limit would
raise ``RecursionError`` from deep inside. So:

- an **expected** value nested past the limit is refused when the matcher is built, with the
  matchers' documented ``ValueError`` (:func:`within_depth`, an attrs validator);
- an **actual** value is never refused: a matcher only walks it as deep as its (bounded)
  expected value, except where it must walk it whole — the text ``M.regex`` searches and
  ``M.loose`` compares, JSON text parsed by ``M.json`` and ``M.lenient`` — and there a value
  past the limit simply does not match (:func:`nested_too_deeply`, :func:`parse_json_text`);
  its mismatch renders it as ``<list nested more than 200 levels deep …>``.

>>> deep: list[object] = []
>>> for _ in range(300): deep = [deep]
>>> nested_too_deeply(deep), nested_too_deeply([[1]]), nested_too_deeply("[[")
(True, False, False)
>>> parse_json_text("[" * 300 + "]" * 300)[1]
' (invalid JSON: nested more than 200 levels deep (the limit of nesting))'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from agent_asserts._depth import depth_message, json_path, too_deep


def within_depth(_: Any, __: Any, value: Any) -> None:
    """An attrs validator: refuse an expected value nested past the limit, naming where.

    Raises:
        ValueError: ``expected value at $[0]…[0]: nested more than 200 levels deep …``.

    >>> within_depth(None, None, [[[1]]])
    >>> deep: list[object] = []
    >>> for _ in range(300): deep = [deep]
    >>> within_depth(None, None, {"a": deep})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: expected value at $.a[0]...[0]: nested more than 200 levels deep (the limit ...)
    """
    where = too_deep(value)
    if where is not None:
        raise ValueError(f"expected value at {json_path(where)}: {depth_message()}")


def each_within_depth(_: Any, __: Any, values: tuple[Any, ...]) -> None:
    """:func:`within_depth` for each of several expected values (``M.one_of``, ``M.all_of``…);
    the path starts with the value's position.

    >>> deep: list[object] = []
    >>> for _ in range(300): deep = [deep]
    >>> each_within_depth(None, None, (1, deep))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: expected value at $[1][0]...[0]: nested more than 200 levels deep (the limit ...)
    """
    for index, value in enumerate(values):
        where = too_deep(value)
        if where is not None:
            raise ValueError(f"expected value at {json_path((index, *where))}: {depth_message()}")


def nested_too_deeply(actual: Any) -> bool:
    """Whether ``actual`` is a container (mapping, list, tuple) nested past the limit."""
    return isinstance(actual, Mapping | list | tuple) and too_deep(actual) is not None


def parse_json_text(text: str | bytes | bytearray) -> tuple[Any, str]:
    """``(value, "")`` for JSON text within the limit, else ``(None, " (invalid JSON: …)")``.

    >>> parse_json_text('{"a": [1]}'), parse_json_text("{x")[1][:27]
    (({'a': [1]}, ''), ' (invalid JSON: Expecting p')
    """
    try:
        value = json.loads(text)
    except ValueError as exc:
        return None, f" (invalid JSON: {exc})"
    except RecursionError:
        return None, f" (invalid JSON: {depth_message()})"
    if nested_too_deeply(value):
        return None, f" (invalid JSON: {depth_message()})"
    return value, ""


__all__ = ["each_within_depth", "nested_too_deeply", "parse_json_text", "within_depth"]
