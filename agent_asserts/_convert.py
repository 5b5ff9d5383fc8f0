"""Small attrs converters shared by the data classes of every layer.

>>> as_tuple(x for x in "ab")
('a', 'b')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

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


__all__ = ["as_severity", "as_status", "as_tuple"]
