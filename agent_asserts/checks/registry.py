"""The registry of check classes by fluent method name.

Each family module decorates its classes with :func:`register`; :func:`all_checks` imports the
families and returns the table the native dialect and its JSON Schema are built from.

>>> "step_count" in all_checks()
True
"""

from __future__ import annotations

import importlib
from typing import TypeVar

from agent_asserts.checks.base import Check

CHECKS: dict[str, type[Check]] = {}
FAMILIES = (
    "outcome",
    "tools",
    "trajectory",
    "confirmation",
    "events",
    "sequencing",
    "cost",
    "state",
    "values",
    "memory",
    "lifecycle",
    "messages",
    "turns",
    "semantic",
    "contract",
)

C = TypeVar("C", bound=type[Check])


def register(cls: C) -> C:
    """Class decorator: file ``cls`` under its ``method`` name.

    >>> import attrs
    >>> @register
    ... @attrs.frozen
    ... class Demo(Check):
    ...     method = "demo_check"
    ...     def evaluate(self, record): ...
    >>> CHECKS.pop("demo_check") is Demo
    True
    """
    if not cls.method:
        raise ValueError(f"{cls.__name__} has no 'method' name")
    existing = CHECKS.get(cls.method)
    if existing is not None and existing.__qualname__ != cls.__qualname__:
        raise ValueError(f"two check classes claim method {cls.method!r}")
    CHECKS[cls.method] = cls
    return cls


def all_checks() -> dict[str, type[Check]]:
    """Import every family module present and return the method → class table.

    >>> all_checks()["called_tool"].__name__
    'CalledTool'
    """
    for family in FAMILIES:
        try:
            importlib.import_module(f"agent_asserts.checks.{family}")
        except ModuleNotFoundError as exc:
            if exc.name != f"agent_asserts.checks.{family}":
                raise
    return dict(CHECKS)


__all__ = ["CHECKS", "all_checks", "register"]
