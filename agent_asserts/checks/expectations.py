"""Value expectations: ``includes``, ``equals``, ``matches``, ``similarity``, ``satisfies``.

Each reads one value from a :mod:`source <agent_asserts.checks.sources>` (a literal given to
``ctx.expect(x)``, a record field, or a state path for ``ctx.state(path)``). A state path that
does not exist gives ``MISSING``, which only ``M.absent()`` (or a matcher accepting it)
matches; any other expectation on it is ``invalid`` naming the path.

>>> from agent_asserts.checks.sources import LiteralValue
>>> Similarity(LiteralValue("kitten"), "sitting").evaluate(None).score
0.5714285714285714
"""

from __future__ import annotations

import abc
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from agent_asserts._missing import MISSING
from agent_asserts.checks.base import Check
from agent_asserts.checks.serialize import argument_to_data
from agent_asserts.checks.sources import ValueSource
from agent_asserts.errors import RecordLacks
from agent_asserts.matching import M, Matcher, as_matcher, render, similarity
from agent_asserts.outcome import Outcome
from agent_asserts.status import Severity

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord


class ValueCheck(Check):
    """Base of the value expectations: resolve the source, then :meth:`test` the value."""

    source: ValueSource
    positional: ClassVar[tuple[str, ...]] = ("expected",)
    tests_missing: ClassVar[bool] = False

    def primary(self) -> Any:
        label = self.source.label()
        return MISSING if label is None else label

    def evaluate(self, record: TrialRecord | None) -> Outcome:
        try:
            value = self.source.resolve(record)
        except RecordLacks as exc:
            return Outcome.invalid(str(exc))
        label = self.source.label()
        evidence: tuple[str, ...] = () if label is None else (label,)
        if value is MISSING:
            # Only an expectation built to accept absence (M.absent(), M.anything()) may pass on
            # a path that does not exist; anything else could not be evaluated.
            outcome = self.test(value) if self.tests_missing else None
            if outcome is not None and outcome.status.value == "pass":
                return attrs.evolve(outcome, evidence=evidence)
            return Outcome.invalid(f"the path {label!r} does not exist", evidence=evidence)
        return attrs.evolve(self.test(value), evidence=evidence)

    @abc.abstractmethod
    def test(self, value: Any) -> Outcome:
        """Test one resolved value.

        >>> from agent_asserts.checks.sources import LiteralValue
        >>> Includes(LiteralValue(None), "Refund").test("Refund issued").status
        <Status.PASS: 'pass'>
        """

    def describe(self) -> str:
        args = ", ".join(
            f"{k}={render(v)}" if k != "expected" else render(v)
            for k, v in self.arguments().items()
            if k != "source"
        )
        return f"{self.source.call_prefix()}{self.method}({args})"

    def to_data(self) -> Any:
        data: dict[str, Any] = dict(self.source.to_data())
        for key, value in self.arguments().items():
            if key == "source":
                continue
            data[self.method if key == "expected" else key] = argument_to_data(value)
        return {"expect": data}


@attrs.frozen
class Includes(ValueCheck):
    """A string contains ``expected``, or a list holds an element deeply equal to it.

    >>> from agent_asserts.checks.sources import LiteralValue
    >>> Includes(LiteralValue([1, True]), 1).evaluate(None).status.value
    'pass'
    """

    source: ValueSource
    expected: Any
    method: ClassVar[str] = "includes"

    def test(self, value: Any) -> Outcome:
        if isinstance(value, str):
            if not isinstance(self.expected, str):
                return Outcome.of(
                    False, message=f"cannot look for {render(self.expected)} in a string"
                )
            ok = self.expected in value
        elif isinstance(value, list | tuple):
            exact = M.exact(self.expected)
            ok = any(exact.matches(item) for item in value)
        else:
            return Outcome.of(
                False, message=f"includes needs a string or a list, got {render(value)}"
            )
        return Outcome.of(ok, expected=self.expected, observed=value)


@attrs.frozen
class _MatcherCheck(ValueCheck):
    """``equals`` and ``matches``: the value is tested with the matcher ``expected`` gives."""

    source: ValueSource
    expected: Any
    tests_missing: ClassVar[bool] = True
    _matcher: Matcher = attrs.field(init=False, eq=False, repr=False)

    @_matcher.default
    def _build(self) -> Matcher:
        attrs.validate(self)  # the given fields' own messages come first
        return self.build_matcher()

    @abc.abstractmethod
    def build_matcher(self) -> Matcher:
        """The matcher of ``expected`` (raising when ``expected`` is not a valid one)."""

    def shown_expected(self) -> Any:
        """What the outcome shows as expected."""
        return self.expected

    def test(self, value: Any) -> Outcome:
        found = self._matcher.explain(value)
        return Outcome.of(
            not found, expected=self.shown_expected(), observed=value, mismatches=found
        )


@attrs.frozen
class Equals(_MatcherCheck):
    """The value matches ``expected`` under the default rules (partial mappings, strict scalars).

    >>> from agent_asserts.checks.sources import LiteralValue
    >>> Equals(LiteralValue({"a": 1, "b": 2}), {"a": 1}).evaluate(None).status.value
    'pass'
    """

    method: ClassVar[str] = "equals"

    def build_matcher(self) -> Matcher:
        return as_matcher(self.expected)


@attrs.frozen
class Matches(_MatcherCheck):
    """The value matches a regular expression (a string) or a matcher.

    >>> from agent_asserts.checks.sources import LiteralValue
    >>> Matches(LiteralValue("order #12"), r"#\\d+").evaluate(None).status.value
    'pass'
    """

    method: ClassVar[str] = "matches"

    def build_matcher(self) -> Matcher:
        expected = self.expected
        if isinstance(expected, str):
            return M.regex(expected)
        if isinstance(expected, Matcher):
            return expected
        raise TypeError(f"'pattern' must be a string or a matcher (got {expected!r})")

    def shown_expected(self) -> Any:
        return self._matcher


@attrs.frozen
class Similarity(ValueCheck):
    """``1 - levenshtein / max(len)`` in characters; soft by default; passes at 1.0 unless
    a threshold is set with ``.at_least()``.

    >>> from agent_asserts.checks.sources import LiteralValue
    >>> Similarity(LiteralValue(""), "").evaluate(None).score
    1.0
    """

    source: ValueSource
    expected: str = attrs.field()
    method: ClassVar[str] = "similarity"
    default_severity: ClassVar[Severity] = Severity.SOFT

    @expected.validator
    def _text(self, attribute: attrs.Attribute[str], value: str) -> None:
        if not isinstance(value, str):
            raise TypeError(f"'text' must be a string (got {value!r})")

    def test(self, value: Any) -> Outcome:
        if not isinstance(value, str):
            return Outcome.of(False, message=f"similarity needs a string, got {render(value)}")
        score = similarity(value, self.expected)
        return Outcome.scored(score, expected=self.expected, observed=value)


@attrs.frozen
class Satisfies(ValueCheck):
    """A Python predicate over the value; a predicate that raises is ``evaluator_error``.

    >>> from agent_asserts.checks.sources import LiteralValue
    >>> Satisfies(LiteralValue(3), lambda v: v > 2).evaluate(None).status.value
    'pass'
    """

    source: ValueSource
    expected: Callable[[Any], bool] = attrs.field()

    @expected.validator
    def _callable(self, attribute: attrs.Attribute[Any], value: Any) -> None:
        if not callable(value):
            raise TypeError(f"'fn' must be a callable (got {value!r})")

    method: ClassVar[str] = "satisfies"
    python_only: ClassVar[bool] = True

    def test(self, value: Any) -> Outcome:
        try:
            ok = self.expected(value)
        except Exception as exc:
            return Outcome.error(f"predicate raised {type(exc).__name__}: {exc}", observed=value)
        return Outcome.of(bool(ok), observed=value)


VALUE_CHECKS: dict[str, type[ValueCheck]] = {
    cls.method: cls for cls in (Includes, Equals, Matches, Similarity, Satisfies)
}

__all__ = ["VALUE_CHECKS", "Equals", "Includes", "Matches", "Satisfies", "Similarity", "ValueCheck"]
