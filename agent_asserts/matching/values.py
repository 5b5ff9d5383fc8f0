"""Plain values: JSON typing, strict equality, safe rendering, the nesting limit, similarity.

These are the leaves every matcher builds on. JSON has one number type, so ``2 == 2.0``; a
bool is its own type, so ``True`` never equals ``1``; a list and a tuple are both "a list".

>>> strict_equal(2, 2.0), strict_equal(True, 1), strict_equal([1, "a"], (1, "a"))
(True, False, True)
>>> render("x" * 100)[-3:]
'xx…'

**The nesting limit** (:data:`~agent_asserts._values.MAX_DEPTH`, 200 levels). Matchers walk
values recursively; a value nested deeper than Python's recursion limit would raise
``RecursionError`` from deep inside. So:

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

**Text similarity** (:func:`similarity`): ``1 - levenshtein(a, b) / max(len(a), len(b))``
over Unicode code points, not bytes, so ``"café"`` and ``"cafe"`` differ by one edit out of
four characters.

>>> similarity("café", "cafe")
0.75
"""

from __future__ import annotations

import json
import numbers
import types
import unicodedata
from collections.abc import Mapping
from typing import Any, Final

from agent_asserts._text import edit_distance, safe_repr
from agent_asserts._values import MISSING, depth_message, json_path, too_deep

MAX_RENDER: Final = 80
"""Longest text :func:`render` returns (including the ``…``)."""


_SCALAR_TYPES: Final = frozenset({str, int, float, bool, type(None)})


def is_number(value: object) -> bool:
    """Tell whether ``value`` is a JSON number (a real number that is not a bool).

    Args:
        value: Any value.

    Returns:
        True for ints, floats and other real numbers; False for bools and everything else.

    >>> is_number(2), is_number(2.5), is_number(True), is_number("2")
    (True, True, False, False)
    """
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def is_list(value: object) -> bool:
    """Tell whether ``value`` is a JSON list (a ``list`` or a ``tuple``).

    Args:
        value: Any value.

    Returns:
        True for lists and tuples.

    >>> is_list([1]), is_list((1,)), is_list("ab")
    (True, True, False)
    """
    return isinstance(value, list | tuple)


def json_kind(value: object) -> str:
    """Name the JSON type of a value, as used in failure reasons.

    Args:
        value: Any value.

    Returns:
        ``"a bool"``, ``"a number"``, ``"a string"``, ``"null"``, ``"a list"``,
        ``"a mapping"``, ``"missing"``, or ``"a <type name>"`` for anything else.

    >>> json_kind(True), json_kind(1.5), json_kind({}), json_kind(None)
    ('a bool', 'a number', 'a mapping', 'null')
    """
    if isinstance(value, bool):
        return "a bool"
    if is_number(value):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if value is None:
        return "null"
    if is_list(value):
        return "a list"
    if isinstance(value, Mapping):
        return "a mapping"
    if value is MISSING:
        return "missing"
    return f"a {type(value).__name__}"


def strict_equal(a: Any, b: Any) -> bool:
    """Compare two plain values with JSON-typed strict equality.

    A bool equals only a bool, a number only a number (``2 == 2.0``), a string only a string;
    lists (and tuples) are equal when they have the same length and equal items; mappings when
    they have the same keys and equal values. ``MISSING`` equals only itself. Values of any other
    type fall back to ``==`` (an ``==`` that raises counts as unequal).

    Args:
        a: One value.
        b: The other value.

    Returns:
        Whether the values are equal.

    >>> strict_equal(True, 1), strict_equal(5, "5"), strict_equal({"a": [1.0]}, {"a": [1]})
    (False, False, True)
    """
    ta = type(a)
    if ta is type(b) and ta in _SCALAR_TYPES:
        return bool(a == b)
    if isinstance(a, bool) or isinstance(b, bool):
        return False
    if is_number(a):
        return is_number(b) and bool(a == b)
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str) and a == b
    if a is None or b is None or a is MISSING or b is MISSING:
        return a is b
    if is_list(a):
        return is_list(b) and len(a) == len(b) and all(map(strict_equal, a, b))
    if isinstance(a, Mapping):
        if not isinstance(b, Mapping) or len(a) != len(b):
            return False
        for key, value in a.items():
            other = b.get(key, MISSING)
            if other is MISSING or not strict_equal(value, other):
                return False
        return True
    if is_number(b) or is_list(b) or isinstance(b, Mapping):
        return False
    try:
        return bool(a == b)
    except Exception:
        return False


def render(value: object, limit: int = MAX_RENDER) -> str:
    """Render a value for a failure message: its ``repr``, made safe and short.

    A ``repr`` that raises is replaced by ``<TypeName object (repr failed: Error)>``; text longer
    than ``limit`` characters is cut and ends with ``…``.

    Args:
        value: Anything.
        limit: The longest text to return.

    Returns:
        Repr-like text, at most ``limit`` characters.

    >>> render("other"), render([1, None, True])
    ("'other'", '[1, None, True]')
    >>> class Broken:
    ...     def __repr__(self) -> str:
    ...         raise RuntimeError("no")
    >>> render(Broken())
    '<Broken object (repr failed: RuntimeError)>'
    >>> render(lambda v: v), render(len)
    ('<lambda>', 'len')
    >>> deep: list[object] = []
    >>> for _ in range(300): deep = [deep]
    >>> render(deep, limit=200)
    '<list nested more than 200 levels deep (the limit of nesting)>'
    """
    kind = type(value)
    if kind is str or kind is float or kind is bool or value is None:
        text = repr(value)  # never raises, never nested
    elif kind is dict or kind is list or kind is tuple:
        too = too_deep(value) is not None
        text = f"<{kind.__name__} {depth_message()}>" if too else safe_repr(value)
    elif isinstance(value, types.FunctionType | types.BuiltinFunctionType | types.MethodType):
        # Functions by name: their default repr carries a memory address, which would make
        # messages differ from run to run.
        return getattr(value, "__name__", None) or "<function>"
    elif isinstance(value, Mapping | list | tuple) and too_deep(value) is not None:
        text = f"<{type(value).__name__} {depth_message()}>"
    else:
        text = safe_repr(value)
    if len(text) > limit:
        text = text[: max(limit - 1, 0)] + "…"
    return text


def data_key(value: Any) -> Any:
    """Build a hashable key that compares like :func:`strict_equal` (used for matcher equality).

    Matchers stay themselves; bools, numbers and strings are tagged with their JSON type;
    lists become tagged tuples and mappings tagged frozensets, so key order does not matter.

    Args:
        value: A plain value that may contain matchers.

    Returns:
        A hashable key.

    >>> data_key(True) == data_key(1), data_key([1, 2]) == data_key((1.0, 2))
    (False, True)
    """
    if isinstance(value, bool):
        return ("bool", value)
    if is_number(value):
        return ("number", value)
    if isinstance(value, str):
        return ("string", value)
    if is_list(value):
        return ("list", tuple(data_key(item) for item in value))
    if isinstance(value, Mapping):
        return ("mapping", frozenset((data_key(k), data_key(v)) for k, v in value.items()))
    try:
        hash(value)
    except TypeError:
        return ("unhashable", type(value).__name__, render(value, limit=10_000))
    return ("other", value)


def plural(n: int, word: str) -> str:
    """Format a count with its noun: ``1 item``, ``2 items``.

    Args:
        n: The count.
        word: The singular noun.

    Returns:
        The count and the (possibly pluralized) noun.

    >>> plural(1, "item"), plural(3, "item")
    ('1 item', '3 items')
    """
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


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


def similarity(a: str, b: str) -> float:
    """Compare two texts: 1.0 when equal, 0.0 when nothing is shared.

    Args:
        a: One text.
        b: The other text.

    Both texts are first put in Unicode normal form NFC, so a letter written with a combining
    accent (``"e\\u0301"``) and the same precomposed letter (``"é"``) count as one character.

    Returns:
        ``1 - Levenshtein.distance(a, b) / max(len(a), len(b))``; 1.0 when both are empty.

    Raises:
        TypeError: When ``a`` or ``b`` is not a string.

    >>> similarity("kitten", "sitting"), similarity("", ""), similarity("abc", "")
    (0.5714285714285714, 1.0, 0.0)
    >>> similarity("caf\\u00e9", "cafe\\u0301")
    1.0
    """
    if not isinstance(a, str) or not isinstance(b, str):
        raise TypeError(
            f"similarity() compares two strings (got {type(a).__name__} and {type(b).__name__})"
        )
    a, b = unicodedata.normalize("NFC", a), unicodedata.normalize("NFC", b)
    longest = max(len(a), len(b))
    if longest == 0:
        return 1.0
    distance = edit_distance(a, b)
    return 1.0 - distance / longest


__all__ = [
    "MAX_RENDER",
    "data_key",
    "each_within_depth",
    "is_list",
    "is_number",
    "json_kind",
    "nested_too_deeply",
    "parse_json_text",
    "plural",
    "render",
    "similarity",
    "strict_equal",
    "within_depth",
]
