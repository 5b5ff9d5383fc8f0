"""Value relations, tested item by item: the testers that equals, contains, matches_schema
and the matchers build (:mod:`agent_asserts.contract.operators` says which op builds which).

Each left item is tested against ``right`` (a literal, possibly with ``$``-operator matchers, or
the value of a ``{$bind: name}`` binding); the verdict names what the item lacked, as
mismatch paths into it (``$.payload.text: …``).

>>> from agent_asserts.matching import M
>>> test = matcher_tester(M.contains("A1049"))
>>> v = test("Refund for B7", "e4")
>>> v.ok, v.reason
(False, "$: expected a value containing 'A1049', got 'Refund for B7'")
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agent_asserts.contract.matchers import get_matcher, registered_matchers
from agent_asserts.contract.verdicts import ItemVerdict, shortened
from agent_asserts.errors import AgentAssertsError, RecordLacks, Unavailable
from agent_asserts.matching import Matcher, Mismatch, render

JSONSCHEMA_MISSING = str(
    Unavailable("matches_schema needs the optional jsonschema package", extra="jsonschema")
)
SHOWN_MISMATCHES = 3


class EvaluatorFailed(AgentAssertsError):
    """A custom matcher or the judge failed; the result is ``evaluator_error``.

    >>> EvaluatorFailed("boom", force_gate=True).force_gate
    True
    """

    def __init__(self, message: str, *, force_gate: bool = False) -> None:
        super().__init__(message)
        self.force_gate = force_gate


def _from_mismatches(label: str, found: list[Mismatch], form: Any) -> ItemVerdict:
    if not found:
        return ItemVerdict(label, True, f"got {render(form)}")
    reason = shortened([str(m) for m in found], most=SHOWN_MISMATCHES)
    return ItemVerdict(label, False, reason, found)


def schema_validator(schema: Any) -> Any:
    """A jsonschema validator for ``schema``; :class:`RecordLacks` without the extra."""
    try:
        import jsonschema
    except ImportError:
        raise RecordLacks(JSONSCHEMA_MISSING) from None
    cls = jsonschema.validators.validator_for(schema)
    try:
        cls.check_schema(schema)
    except jsonschema.SchemaError as exc:
        raise RecordLacks(f"the schema in right is not valid: {exc.message}") from None
    return cls(schema)


def _schema_mismatches(validator: Any, form: Any) -> list[Mismatch]:
    found = []
    for error in sorted(validator.iter_errors(form), key=lambda e: list(map(str, e.path))):
        path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.path)
        found.append(Mismatch(path, error.schema, error.instance, error.message))
    return found


Tester = Callable[[Any, str], ItemVerdict]
"""Tests one item: ``(form, label) -> ItemVerdict``; a satisfied item's reason shows its value
(what ``none`` reports), and ``closest`` stays None (``right`` is a literal, not a candidate)."""


def matcher_tester(matcher: Matcher) -> Tester:
    """The per-item test of a value relation that a matcher decides (``equals``,
    ``contains``, ``matcher: exact`` or ``structural``).

    The test raises :class:`EvaluatorFailed` when the matcher raises (a ``M.satisfies``
    predicate, say).

    >>> from agent_asserts.matching import M
    >>> matcher_tester(M.contains("A1049"))("Refund for A1049", "e4").ok
    True
    """

    def test(form: Any, label: str) -> ItemVerdict:
        try:
            found = matcher.explain(form)
        except Exception as exc:
            message = f"a matcher raised {type(exc).__name__}: {exc} ({label})"
            raise EvaluatorFailed(message) from exc
        return _from_mismatches(label, found, form)

    return test


def schema_tester(schema: Any) -> Tester:
    """The per-item test of ``matches_schema``.

    Raises:
        RecordLacks: jsonschema is not installed, or ``schema`` is not a valid schema.
    """
    validator = schema_validator(schema)

    def test(form: Any, label: str) -> ItemVerdict:
        return _from_mismatches(label, _schema_mismatches(validator, form), form)

    return test


def custom_tester(name: str, right: Any) -> Tester:
    """The per-item test of ``matcher: custom``: the function registered as ``name``.

    Raises:
        RecordLacks: No custom matcher is registered as ``name``.

    The test raises :class:`EvaluatorFailed` when the function raises or returns something
    not a bool.

    >>> custom_tester("no_such_matcher", None)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    agent_asserts.errors.RecordLacks: no custom matcher is registered as 'no_such_matcher' ...
    """
    fn = get_matcher(name)
    if fn is None:
        known = ", ".join(repr(n) for n in registered_matchers()) or "none"
        raise RecordLacks(
            f"no custom matcher is registered as {name!r} (registered: {known}); "
            f"call register_matcher({name!r}, fn)"
        )

    def test(form: Any, label: str) -> ItemVerdict:
        try:
            answer = fn(form, right)
        except Exception as exc:
            raise EvaluatorFailed(
                f"custom matcher {name!r} raised {type(exc).__name__}: {exc} ({label})"
            ) from exc
        if not isinstance(answer, bool):
            raise EvaluatorFailed(
                f"custom matcher {name!r} returned {answer!r} for {label}; "
                f"it must return True or False"
            )
        if answer:
            return ItemVerdict(label, True, f"custom matcher {name!r} returned True")
        reason = f"custom matcher {name!r} returned False"
        return ItemVerdict(label, False, reason, (Mismatch("$", right, form, reason),))

    return test


__all__ = [
    "JSONSCHEMA_MISSING",
    "EvaluatorFailed",
    "Tester",
    "custom_tester",
    "matcher_tester",
    "schema_tester",
    "schema_validator",
]
