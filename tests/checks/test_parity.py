"""Parity of the check registry with the fluent API and the native JSON Schema.

Every check class registered by this package has an ``EvalContext`` method of the same name
whose parameters are the check's fields, with the same defaults, and whose positional
parameters are the order in which a YAML list fills them (``yaml_positional``); every check
with a YAML form has an entry in the shipped schema. A check added without its fluent method
(or with different defaults) fails here, as the throwaway checks below show.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Mapping
from typing import Any, ClassVar

import attrs

from agent_asserts._values import MISSING
from agent_asserts.checks import Check, Outcome, all_checks, register_check, unregister_check
from agent_asserts.checks.data import signature
from agent_asserts.context import EvalContext
from agent_asserts.loaders.schema import SCHEMA_PATH

SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def _default(value: Any) -> Any:
    return MISSING if value is inspect.Parameter.empty else value


def parity_problems(
    checks: Mapping[str, type[Check]], context: type, schema: Mapping[str, Any]
) -> list[str]:
    """What keeps each check from matching its fluent method and its schema entry."""
    problems: list[str] = []
    defs = schema.get("$defs", {})
    for method, cls in sorted(checks.items()):
        if not cls.python_only and f"check.{method}" not in defs:
            problems.append(f"{method}: no entry in the native JSON schema")
        function = getattr(context, method, None)
        if not callable(function):
            problems.append(f"{method}: {context.__name__} has no method {method!r}")
            continue
        if cls.fluent_expands:
            continue
        sig = signature(cls)
        fields = {p.name: p for p in sig.params}
        parameters = list(inspect.signature(function).parameters.values())[1:]
        positional: list[str] = []
        for p in parameters:
            if p.kind is p.VAR_POSITIONAL:
                if p.name != sig.varargs:
                    problems.append(f"{method}: *{p.name} is not the check's varargs field")
                continue
            if p.kind is p.VAR_KEYWORD or p.name not in fields:
                problems.append(f"{method}: parameter {p.name!r} is not a field of {cls.__name__}")
                continue
            if p.kind is p.POSITIONAL_OR_KEYWORD:
                positional.append(p.name)
            field_default = fields[p.name].default
            if _default(p.default) != field_default and not (
                _default(p.default) is MISSING and field_default is MISSING
            ):
                problems.append(
                    f"{method}: {p.name!r} defaults to {_default(p.default)!r} in the method, "
                    f"to {field_default!r} in {cls.__name__}"
                )
        named = {p.name for p in parameters}
        problems.extend(
            f"{method}: field {name!r} of {cls.__name__} is not a parameter of the method"
            for name in fields
            if name not in named
        )
        if positional and tuple(positional) != sig.call_positional:
            problems.append(
                f"{method}: a YAML list fills {sig.call_positional}, the method takes "
                f"{tuple(positional)} positionally (set yaml_positional)"
            )
    return problems


def test_every_check_of_the_package_has_its_fluent_method_and_schema_entry() -> None:
    ours = {m: c for m, c in all_checks().items() if c.__module__.startswith("agent_asserts.")}
    assert len(ours) > 40
    assert parity_problems(ours, EvalContext, SCHEMA) == []


@attrs.frozen
class Throwaway(Check):
    """A check registered without a fluent method or a schema entry."""

    method: ClassVar[str] = "throwaway_check"
    positional: ClassVar[tuple[str, ...]] = ("word",)
    word: str = "please"

    def evaluate(self, record: Any) -> Outcome:
        return Outcome.from_bool(True)


def test_a_check_without_its_fluent_method_fails() -> None:
    register_check(Throwaway)
    try:
        registered = {"throwaway_check": all_checks()["throwaway_check"]}
    finally:
        unregister_check("throwaway_check")
    assert parity_problems(registered, EvalContext, SCHEMA) == [
        "throwaway_check: no entry in the native JSON schema",
        "throwaway_check: EvalContext has no method 'throwaway_check'",
    ]


def test_a_fluent_method_with_other_parameters_or_defaults_fails() -> None:
    class Context(EvalContext):
        def throwaway_check(self, word: str = "thanks", loud: bool = False) -> None:
            """A method whose default and extra parameter differ from the check's fields."""

    schema = {"$defs": {"check.throwaway_check": {}}}
    assert parity_problems({"throwaway_check": Throwaway}, Context, schema) == [
        "throwaway_check: 'word' defaults to 'thanks' in the method, to 'please' in Throwaway",
        "throwaway_check: parameter 'loud' is not a field of Throwaway",
    ]


def test_a_yaml_list_order_that_differs_from_the_method_fails() -> None:
    @attrs.frozen
    class TwoFields(Check):
        method: ClassVar[str] = "two_fields"
        positional: ClassVar[tuple[str, ...]] = ("a",)
        a: str
        b: int = 0

        def evaluate(self, record: Any) -> Outcome:
            return Outcome.from_bool(True)

    class Context(EvalContext):
        def two_fields(self, a: str, b: int = 0) -> None:
            """Takes both fields positionally, but the check declares no yaml_positional."""

    schema = {"$defs": {"check.two_fields": {}}}
    assert parity_problems({"two_fields": TwoFields}, Context, schema) == [
        "two_fields: a YAML list fills ('a',), the method takes ('a', 'b') positionally "
        "(set yaml_positional)"
    ]
