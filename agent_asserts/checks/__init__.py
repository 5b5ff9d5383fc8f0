"""The check families: one frozen attrs class per concept, ``evaluate(record) -> Outcome``, and
the registry of check classes by fluent method name (the check extension point).

A family is named once — its check module(s), its fluent mixin (:mod:`agent_asserts.fluent`)
and its docs page (``docs/checks-<family>.md``): outcome (``outcome``), trajectory (``tools``,
``trajectory``, ``sequencing``, ``trajectory_match``), events
(``events``), traces (``traces``), state (``state``) and conversation (``conversation``);
``expectations``, ``semantic`` and ``contract`` hold what ``ctx.expect``/``ctx.state``,
``judge`` and ``contract`` build. The fluent methods of
:class:`~agent_asserts.context.EvalContext` and every loader build these same objects;
:func:`all_checks` lists them by method name; :func:`register_check` adds one.

The registry. One declaration, ``@register_check`` on a frozen attrs
:class:`~agent_asserts.checks.Check` subclass with a ``method`` name, gives the native dialect
key (``checks: [{method: ...}]``) and the entry of the native JSON Schema (``agent-asserts
schema``); every dialect that maps onto the method name builds the same class. In Python,
``ctx.record_check(MyCheck(...))`` records it; a check of this package also has an
``EvalContext`` method of the same name, parameters and defaults
(``tests/checks/test_parity.py`` fails otherwise). The family modules use the same decorator
under its short name :func:`register`; :func:`all_checks` imports the families and returns the
table.

>>> "step_count" in all_checks()
True
"""

from __future__ import annotations

import importlib
from typing import TypeVar

from agent_asserts._registry import Registry
from agent_asserts.checks.base import Check
from agent_asserts.outcome import Outcome

FAMILIES = (
    "outcome",
    "tools",
    "trajectory",
    "sequencing",
    "trajectory_match",
    "events",
    "traces",
    "state",
    "conversation",
    "semantic",
    "contract",
)


def _import_families() -> None:
    for family in FAMILIES:
        importlib.import_module(f"agent_asserts.checks.{family}")


CHECKS: Registry[type[Check]] = Registry("check class", load=_import_families)
"""The check classes by method name, in the one :class:`~agent_asserts._registry.Registry`;
its first read imports every family module."""

C = TypeVar("C", bound=type[Check])


def register(cls: C) -> C:
    """Class decorator: file ``cls`` under its ``method`` name.

    A class of this library's own modules is filed as it is defined (its module is being
    imported, perhaps by the table's first read); any other class after the table holds
    the built-in ones, so it cannot take a built-in method name.

    >>> import attrs
    >>> @register
    ... @attrs.frozen
    ... class Demo(Check):
    ...     method = "demo_check"
    ...     def evaluate(self, record): ...
    >>> CHECKS.remove("demo_check") is Demo
    True
    """
    if not cls.method:
        raise ValueError(f"{cls.__name__} has no 'method' name")
    if cls.__module__.startswith("agent_asserts.checks."):
        CHECKS.add_builtin(cls.method, cls)
        return cls
    existing = CHECKS.get(cls.method)
    if existing is not None and existing.__qualname__ != cls.__qualname__:
        raise ValueError(f"two check classes claim method {cls.method!r}")
    CHECKS.add(cls.method, cls)
    return cls


register_check = register
"""The public name of :func:`register`: declare a check class (see the module docstring).

>>> import attrs
>>> from agent_asserts import EvalContext
>>> from agent_asserts.checks import Check, Outcome, register_check, unregister_check
>>> from agent_asserts.loaders import loads
>>> from agent_asserts.testing import demo_record
>>> @register_check
... @attrs.frozen
... class RepliedPolitely(Check):
...     method = "replied_politely"
...     positional = ("word",)
...     word: str = "please"
...     def evaluate(self, record):
...         said = self.word in (record.reply or "")
...         return Outcome.from_bool(said, message="" if said else f"no {self.word!r}")
>>> EvalContext(demo_record()).record_check(RepliedPolitely("Refund")).result.passed
True
>>> suite = loads("checks: [{replied_politely: issued}]")
>>> [r.status.value for r in suite.evaluate(demo_record())[0].results]
['pass']
>>> unregister_check("replied_politely") is RepliedPolitely
True
"""


def unregister_check(method: str) -> type[Check]:
    """Remove the check class filed under ``method`` and return it (for tests and plugins).

    Raises:
        KeyError: No check class is filed under ``method``.

    >>> unregister_check("no_such_check")
    Traceback (most recent call last):
    ...
    KeyError: "no check class is registered under 'no_such_check'"
    """
    try:
        return CHECKS.remove(method)
    except KeyError:
        raise KeyError(f"no check class is registered under {method!r}") from None


def registry_version() -> int:
    """A number that changes whenever a check class is registered or removed: what is
    derived from the table (the loaders' signatures) is cached under it.

    >>> import attrs
    >>> before = registry_version()
    >>> @register
    ... @attrs.frozen
    ... class Demo(Check):
    ...     method = "demo_version_check"
    ...     def evaluate(self, record): ...
    >>> registry_version() > before
    True
    >>> _ = unregister_check("demo_version_check")
    """
    return CHECKS.version


def all_checks() -> dict[str, type[Check]]:
    """The method → class table, every family module imported.

    >>> all_checks()["called_tool"].__name__
    'CalledTool'
    """
    return dict(CHECKS.items())


__all__ = ["Check", "Outcome", "all_checks", "register_check", "unregister_check"]
