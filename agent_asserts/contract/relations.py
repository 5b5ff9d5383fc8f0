"""Value relations, tested item by item: equals, contains, matches_schema and the matchers.

Each left item is tested against ``right`` (a literal, possibly with ``$``-operator matchers, or
the value of a ``{$bind: name}`` binding); the verdict names what the item lacked, as
mismatch paths into it (``$.payload.text: …``).

>>> from agent_asserts.contract.model import Requirement
>>> test = value_tester(Requirement("contains", "m", "A1049"), "A1049")
>>> v = test("Refund for B7", "e4")
>>> v.ok, v.reason
(False, "$: expected a value containing 'A1049', got 'Refund for B7'")
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from agent_asserts.contract.durations import format_within
from agent_asserts.contract.matchers import get_matcher, registered_matchers
from agent_asserts.contract.verdicts import ItemVerdict, shortened
from agent_asserts.errors import RecordLacks, Unavailable
from agent_asserts.matching import M, Matcher, Mismatch, as_matcher, render

if TYPE_CHECKING:
    from agent_asserts.contract.model import Requirement

JSONSCHEMA_MISSING = str(
    Unavailable("matches_schema needs the optional jsonschema package", extra="jsonschema")
)
SHOWN_MISMATCHES = 3


class EvaluatorFailed(Exception):
    """A custom matcher or the judge failed; the result is ``evaluator_error``.

    >>> EvaluatorFailed("boom", force_gate=True).force_gate
    True
    """

    def __init__(self, message: str, *, force_gate: bool = False) -> None:
        super().__init__(message)
        self.force_gate = force_gate


def describe(req: Requirement, right: Any) -> str:
    """The relation in words, as failure messages use it.

    >>> from agent_asserts.contract.model import Requirement
    >>> describe(Requirement("has_matching", "m", "a", on=("operation_ref",), within=2), "a")
    "has a matching 'a' item on operation_ref within 2s"
    """
    on = f" on {', '.join(req.on)}" if req.on else ""
    within = "" if req.within is None else f" within {format_within(req.within)}"
    op = req.op
    if op == "equals":
        return f"equals {render(right)}"
    if op == "contains":
        return f"contains {render(right)}"
    if op == "matches_schema":
        return "matches the schema"
    if op == "count_at_most":
        return f"has at most {right} items"
    if op == "precedes":
        return f"occurs before some {req.right!r} item" + (
            f" with the same {', '.join(req.on)}" if req.on else ""
        )
    if op == "follows_within":
        same = f" with the same {', '.join(req.on)}" if req.on else ""
        return f"is followed by some {req.right!r} item{same}{within}"
    if op == "has_matching":
        return f"has a matching {req.right!r} item{on}{within}"
    if req.matcher == "custom":
        return f"satisfies the custom matcher {req.custom!r}"
    if req.matcher in ("semantic", "grounded_semantic"):
        return f"satisfies {right!r} (judged, {req.matcher})"
    return f"matches {render(right)} ({req.matcher})"


def _matcher(req: Requirement, right: Any) -> Matcher:
    if req.op == "contains":
        return M.contains(right)
    if req.op == "equals" or req.matcher == "exact":
        return M.exact(right)
    return as_matcher(right)


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


def value_tester(req: Requirement, right: Any) -> Tester:
    """The per-item test of a value relation, built once for the whole selection.

    Raises:
        RecordLacks: ``matches_schema`` without jsonschema, or an unregistered custom matcher.

    The returned test raises :class:`EvaluatorFailed` when a custom matcher raises or returns
    something not a bool, or a ``M.satisfies`` predicate raises.
    """
    if req.op == "matches_schema":
        validator = schema_validator(right)

        def schema_test(form: Any, label: str) -> ItemVerdict:
            return _from_mismatches(label, _schema_mismatches(validator, form), form)

        return schema_test
    if req.op == "matcher" and req.matcher == "custom":
        return _custom(req.custom or "", right)
    matcher = _matcher(req, right)

    def test(form: Any, label: str) -> ItemVerdict:
        try:
            found = matcher.explain(form)
        except Exception as exc:
            message = f"a matcher raised {type(exc).__name__}: {exc} ({label})"
            raise EvaluatorFailed(message) from exc
        return _from_mismatches(label, found, form)

    return test


def _custom(name: str, right: Any) -> Tester:
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
    "describe",
    "schema_validator",
    "value_tester",
]
