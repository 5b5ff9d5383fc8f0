"""Values: the missing marker, key paths, the JSON form of any value, attrs converters.

The ``MISSING`` sentinel: "no value here", distinct from JSON ``null`` (``None``).

>>> from agent_asserts import MISSING
>>> MISSING
MISSING
>>> bool(MISSING)
False

Key paths as text: the one way a problem's place in a document is written.

Used by the suite-file loaders (``goals.assertions[2].source``) and by contract problems
(``assertions[0].require.left``), so both point at a key the same way.

>>> format_path(("assertions", 0, "bind", "my audits"))
"assertions[0].bind['my audits']"

Turn result values (matchers, mismatches, delta entries, events…) into JSON data.

Used by the ``to_dict()`` of results so that reports are lossless for what JSON can hold and
readable for the rest (a Python callable becomes its repr).

>>> to_jsonable({"a": (1, 2), "b": {3}})
{'a': [1, 2], 'b': [3]}

Small attrs converters shared by the data classes of every layer.

>>> as_tuple(x for x in "ab")
('a', 'b')

The one nesting-depth limit for data given to the library (records, suites, matchers).
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

import enum
import json
import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Final, Literal

import attrs

from agent_asserts._text import safe_repr
from agent_asserts.status import Severity, Status

# -- the missing marker ----------------------------------------------------------------------------


class _Missing:
    """The type of :data:`MISSING`; there is exactly one instance."""

    _instance: _Missing | None = None

    def __new__(cls) -> _Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> Literal[False]:
        return False

    def __reduce__(self) -> str:
        return "MISSING"

    def __copy__(self) -> _Missing:
        return self

    def __deepcopy__(self, memo: object) -> _Missing:
        return self


MISSING: Final = _Missing()
"""An absent value: a missing key, a memory clear, a state path that does not exist."""


# -- key paths -------------------------------------------------------------------------------------

PathPart = str | int
"""One step of a key path: a mapping key or a list index."""


_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$-]*\Z")


def format_path(path: Sequence[PathPart]) -> str:
    """``goals.assertions[2].source``; odd keys are quoted (``changed['/a b']``).

    Args:
        path: Mapping keys and list indexes from the document root.

    Returns:
        The text; ``''`` for the document itself.

    >>> format_path(("goals", "assertions", 2, "tool_executed", "source"))
    'goals.assertions[2].tool_executed.source'
    >>> format_path(("state", "/orders/A1", 0))
    "state['/orders/A1'][0]"
    >>> format_path(())
    ''
    """
    out: list[str] = []
    for part in path:
        if isinstance(part, int):
            out.append(f"[{part}]")
        elif _IDENTIFIER.match(part):
            out.append(f".{part}" if out else part)
        else:
            out.append(f"[{part!r}]")
    return "".join(out)


# -- the JSON form of a value ----------------------------------------------------------------------


def to_jsonable(value: Any) -> Any:
    """A JSON-serialisable rendering of ``value``.

    ``MISSING`` becomes ``{"$absent": true}`` (the matcher operator for "no value"); objects with
    ``to_dict()`` or ``to_data()`` use it; attrs classes become their field dicts; anything else
    unknown becomes its ``repr``. Non-finite floats take their lossless strict-JSON form
    (:func:`strict_json`).

    >>> to_jsonable(MISSING)
    {'$absent': True}
    >>> to_jsonable(float("nan"))
    {'$float': 'NaN'}
    """
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else {FLOAT_KEY: _FLOAT_NAMES[repr(value)]}
    if value is MISSING:
        return {"$absent": True}
    if isinstance(value, enum.Enum):
        return to_jsonable(value.value)
    if isinstance(value, Mapping):
        out = {str(k): to_jsonable(v) for k, v in value.items()}
        return {FLOAT_KEY: out} if len(out) == 1 and FLOAT_KEY in out else out
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value, key=repr) if isinstance(value, set | frozenset) else value
        return [to_jsonable(v) for v in items]
    for method in ("to_dict", "to_data"):
        fn = getattr(value, method, None)
        if callable(fn):
            try:
                return to_jsonable(fn())
            except TypeError:
                break
    fields = getattr(type(value), "__attrs_attrs__", None)
    if fields is not None and not callable(value):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in fields}
    return safe_repr(value)


# -- strict JSON: non-finite floats ----------------------------------------------------------------

FLOAT_KEY: Final = "$float"
"""The key of the strict-JSON form of a non-finite float: ``{"$float": "NaN"}``."""

_FLOAT_NAMES: Final = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}
_FLOATS: Final = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def strict_json(value: Any) -> Any:
    """``value`` with what strict JSON cannot hold in its lossless form (docs/serialization.md).

    A non-finite float becomes ``{"$float": "NaN"}`` (``"Infinity"``, ``"-Infinity"``); a
    mapping whose only key is ``"$float"`` is itself wrapped in one, so it reads back as
    written. :func:`from_strict_json` undoes it. Containers with nothing to change come back
    as the same objects (nothing is copied); data nested past the limit of nesting is left
    as it is (whoever reads it refuses it).

    >>> strict_json({"a": [float("inf"), 1.5], "b": {"$float": "NaN"}})
    {'a': [{'$float': 'Infinity'}, 1.5], 'b': {'$float': {'$float': 'NaN'}}}
    >>> data = {"a": [1, "x"]}
    >>> strict_json(data) is data
    True
    """
    text = _json_text(value)
    if text is not None and FLOAT_KEY not in text and "NaN" not in text and "Infinity" not in text:
        return value  # the common case, found at the C encoder's speed
    return _to_strict(value, 0)


def _json_text(value: Any) -> str | None:
    """``json.dumps(value)``, or None when it cannot be written as it is."""
    try:
        return json.dumps(value, check_circular=False)
    except (TypeError, ValueError, RecursionError):
        return None


def _to_strict(value: Any, _depth: int) -> Any:
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is float or isinstance(value, float):
        return value if value - value == 0 else {FLOAT_KEY: _FLOAT_NAMES[repr(float(value))]}
    if _depth > _MAX_WALK:
        return value
    if isinstance(value, Mapping):
        changed = {}
        for key, child in value.items():
            new = _to_strict(child, _depth + 1)
            if new is not child:
                changed[key] = new
        if len(value) == 1 and FLOAT_KEY in value:
            return {FLOAT_KEY: {FLOAT_KEY: changed.get(FLOAT_KEY, value[FLOAT_KEY])}}
        return {**value, **changed} if changed else value
    if isinstance(value, list | tuple):
        items = [_to_strict(child, _depth + 1) for child in value]
        if any(new is not old for new, old in zip(items, value, strict=True)):
            return items if isinstance(value, list) else tuple(items)
    return value


def from_strict_json(value: Any) -> Any:
    """The value :func:`strict_json` was given: ``{"$float": "NaN"}`` is a NaN again and a
    wrapped ``{"$float": {"$float": x}}`` the mapping ``{"$float": x}``. Any other data comes
    back as it is (the same objects when nothing changes).

    >>> from_strict_json([{"$float": "-Infinity"}, {"$float": {"$float": "NaN"}}, {"$float": 1}])
    [-inf, {'$float': 'NaN'}, {'$float': 1}]
    >>> import math
    >>> math.isnan(from_strict_json(strict_json(float("nan"))))
    True
    """
    text = _json_text(value)
    if text is not None and FLOAT_KEY not in text:
        return value
    return _from_strict(value, 0)


def _from_strict(value: Any, _depth: int) -> Any:
    kind = type(value)
    if kind is str or kind is int or kind is float or kind is bool or value is None:
        return value
    if _depth > _MAX_WALK:
        return value
    if isinstance(value, Mapping):
        if len(value) == 1 and FLOAT_KEY in value:
            inner = value[FLOAT_KEY]
            if type(inner) is str and inner in _FLOATS:
                return _FLOATS[inner]
            if isinstance(inner, Mapping) and len(inner) == 1 and FLOAT_KEY in inner:
                return {FLOAT_KEY: _from_strict(inner[FLOAT_KEY], _depth + 2)}
        changed = {}
        for key, child in value.items():
            new = _from_strict(child, _depth + 1)
            if new is not child:
                changed[key] = new
        return {**value, **changed} if changed else value
    if isinstance(value, list | tuple):
        items = [_from_strict(child, _depth + 1) for child in value]
        if any(new is not old for new, old in zip(items, value, strict=True)):
            return items if isinstance(value, list) else tuple(items)
    return value


_MAX_WALK: Final = 250
"""How deep :func:`strict_json` and :func:`from_strict_json` go (past the 200 levels data may
be nested): deeper data is refused by whoever reads it, so it is left as it is."""


# -- attrs converters ------------------------------------------------------------------------------


def as_tuple(items: Iterable[Any]) -> tuple[Any, ...]:
    """attrs converter: any iterable to a tuple (typed for mypy, unlike ``tuple`` itself).

    >>> as_tuple([1, 2])
    (1, 2)
    """
    return items if type(items) is tuple else tuple(items)


def as_status(value: Any) -> Status:
    """attrs converter: a :class:`Status` (a status passes through without an enum lookup).

    >>> as_status("pass")
    <Status.PASS: 'pass'>
    """
    return value if type(value) is Status else Status(value)


def as_severity(value: Any) -> Severity:
    """attrs converter: a :class:`Severity` (a severity passes through).

    >>> as_severity("soft")
    <Severity.SOFT: 'soft'>
    """
    return value if type(value) is Severity else Severity(value)


def check_unit_interval(name: str, value: float | None) -> None:
    """Raise unless ``value`` is None or a number in [0, 1] (``TypeError`` for a non-number,
    a bool included; ``ValueError`` outside the interval), naming ``name``.

    >>> check_unit_interval("threshold", 1.5)
    Traceback (most recent call last):
    ...
    ValueError: 'threshold' must be in [0, 1] (got 1.5)
    """
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"'{name}' must be a number in [0, 1] (got {value!r})")
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"'{name}' must be in [0, 1] (got {value!r})")


def unit_interval(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    """attrs validator: :func:`check_unit_interval` under the field's name."""
    check_unit_interval(attribute.name, value)


# The nesting-depth limit ----------------------------------------------------------------

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


__all__ = [
    "FLOAT_KEY",
    "MAX_DEPTH",
    "MISSING",
    "PathPart",
    "as_severity",
    "as_status",
    "as_tuple",
    "capped",
    "check_unit_interval",
    "depth_message",
    "format_path",
    "from_strict_json",
    "json_path",
    "strict_json",
    "to_jsonable",
    "too_deep",
    "unit_interval",
]
