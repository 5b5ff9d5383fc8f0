"""Small attrs converters shared by the data classes of every layer.

>>> as_tuple(x for x in "ab")
('a', 'b')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from agent_asserts.status import Severity, Status


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


__all__ = ["as_severity", "as_status", "as_tuple", "check_unit_interval", "unit_interval"]
