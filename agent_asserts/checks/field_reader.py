"""Read one check field's value by its :class:`~agent_asserts.checks.signatures.TypeSpec`.

:func:`read_value` is the one walk over a field's type, for the suite-file loader (nodes with
positions) and for the cattrs converter (plain data with JSON paths): the value is a handle of
a :class:`~agent_asserts.checks.located.Reading`, which says what it holds and takes the
problems. Typed scalars are checked, lists read item by item, a union picks the option its
shape fits, counts and selectors go through their data forms, values of type ``Any`` through
the ``$``-operators.

>>> from agent_asserts.checks.located import DataReading
>>> problems: list[tuple[str, str]] = []
>>> data = DataReading(problems)
>>> read_value(({"between": [1, 3]}, "$.count"), TypeSpec("count"), data)
Count.between(1, 3)
>>> read_value(({"tol": "x"}, "$.before"), TypeSpec("selector"), data)
>>> read_value((-1, "$.count"), TypeSpec("count", nullable=True), data)
>>> problems
[('$.before', "unknown selector 'tol' (did you mean 'tool'?)"), \
('$.count', 'a count takes an int >= 0 (got -1)')]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from agent_asserts._suggest import choice_list, unknown_key_message
from agent_asserts.checks.located import IS_LIST, IS_MAPPING, UNREADABLE, Reading
from agent_asserts.checks.signatures import TypeSpec
from agent_asserts.matching import Count, OperatorError, from_data
from agent_asserts.selectors import selector_from_data

L = TypeVar("L")
ANY = TypeSpec("any")
COUNT_KEYS = ("at_least", "at_most", "between", "exactly")


def read_value(at: L, spec: TypeSpec, via: Reading[L]) -> Any:
    """The value at ``at`` as ``spec`` says; on a problem, ``None`` (and the problem reported
    through ``via``). A ``null`` is ``None`` for a nullable type (and, where ``via`` holds
    written data, for ``any`` and ``data``), else ``is required (got null)``.

    >>> from agent_asserts.checks.located import DataReading
    >>> problems: list[tuple[str, str]] = []
    >>> read_value(([1], "$.names"), TypeSpec("list", item=TypeSpec("str")), DataReading(problems))
    (None,)
    >>> problems
    [('$.names[0]', 'must be a string (got 1)')]
    """
    value = via.peek(at)
    if value is None:
        if spec.nullable or (via.NULL_IS_A_VALUE and spec.kind in ("any", "data")):
            return None
        via.problem(at, "is required (got null)")
        return None
    if value is UNREADABLE:
        return None
    return _READERS.get(spec.kind, _any)(at, value, spec, via)


def _str(at: L, value: Any, spec: TypeSpec, via: Reading[L]) -> Any:
    if isinstance(value, str):
        return value
    via.wrong_type(at, "str", "a string")
    return None


def _int(at: L, value: Any, spec: TypeSpec, via: Reading[L]) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    via.wrong_type(at, "int", "an integer")
    return None


def _float(at: L, value: Any, spec: TypeSpec, via: Reading[L]) -> Any:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    via.wrong_type(at, "float", "a number")
    return None


def _bool(at: L, value: Any, spec: TypeSpec, via: Reading[L]) -> Any:
    if isinstance(value, bool):
        return value
    via.wrong_type(at, "bool", via.words("boolean"))
    return None


def _choice(at: L, value: Any, spec: TypeSpec, via: Reading[L]) -> Any:
    if value in spec.choices:
        return value
    via.wrong_type(at, "choice", choice_list(list(spec.choices)))
    return None


def _list(at: L, value: Any, spec: TypeSpec, via: Reading[L]) -> Any:
    if value is not IS_LIST:
        via.wrong_type(at, "list", "a list")
        return None
    item = spec.item or ANY
    return tuple(read_value(one, item, via) for one in via.items_of(at))


def _union(at: L, value: Any, spec: TypeSpec, via: Reading[L]) -> Any:
    """The first option whose shape fits the value (lists for list options, etc.)."""
    shape = [] if value is IS_LIST else {} if value is IS_MAPPING else value
    for option in spec.options:
        if option.fits(shape):
            return read_value(at, option, via)
    return read_value(at, spec.options[0], via) if spec.options else None


def _count(at: L, value: Any, spec: TypeSpec, via: Reading[L]) -> Any:
    """An int >= 0 as it is, a count mapping as a :class:`Count`."""
    if value is IS_MAPPING:
        keys = via.keys_of(at)
        unknown = [str(key) for key in keys if key not in COUNT_KEYS]
        for key in unknown:
            via.key_problem(at, key, unknown_key_message(key, COUNT_KEYS))
        if unknown:
            return None
        if len(keys) != 1:
            via.problem(at, f"{via.words('not a count')} (got {len(keys)} keys)")
            return None
        try:
            return Count.from_data(via.plain(at))
        except (TypeError, ValueError) as exc:
            via.problem(at, str(exc))
            return None
    if isinstance(value, int) and not isinstance(value, bool):
        if value >= 0:
            return value
        via.problem(at, f"{via.words('negative count')} (got {via.got(at)})")
        return None
    via.problem(at, f"{via.words('not a count')} (got {via.got(at)})")
    return None


def _selector(at: L, value: Any, spec: TypeSpec, via: Reading[L]) -> Any:
    """A plain string as the check reads it (a tool name or a kind), or a selector mapping."""
    if isinstance(value, str):
        return value
    if value is not IS_MAPPING:
        via.wrong_type(at, "selector", "a name or a selector mapping")
        return None
    try:
        return selector_from_data(from_data(via.plain(at)))
    except (TypeError, ValueError) as exc:
        via.raised(at, exc)
        return None


def _data(at: L, value: Any, spec: TypeSpec, via: Reading[L]) -> Any:
    """An object of the library in its data form: the check's own converter reads it."""
    return via.plain(at)


def _callable(at: L, value: Any, spec: TypeSpec, via: Reading[L]) -> Any:
    via.problem(at, via.words("callable"))
    return None


def _any(at: L, value: Any, spec: TypeSpec, via: Reading[L]) -> Any:
    """Any value, ``$``-operator mappings turned into matchers."""
    try:
        return from_data(via.plain(at))
    except (OperatorError, TypeError, ValueError) as exc:
        via.raised(at, exc)
        return None


_READERS: dict[str, Callable[[Any, Any, TypeSpec, Reading[Any]], Any]] = {
    "str": _str,
    "int": _int,
    "float": _float,
    "bool": _bool,
    "choice": _choice,
    "list": _list,
    "union": _union,
    "count": _count,
    "selector": _selector,
    "data": _data,
    "callable": _callable,
}


__all__ = ["COUNT_KEYS", "read_value"]
