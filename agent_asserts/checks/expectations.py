"""Value expectations (``ctx.expect``/``ctx.state``): where the value is read from and what it is
tested with.

Where a value expectation reads its value: a literal, a record field, or a state path.

>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.from_dict({"events": [], "reply": "done", "final_state": {"a": {"b": 1}}})
>>> RecordField("reply").resolve(rec)
'done'
>>> StatePath("/a/b").resolve(rec)
1
>>> StatePath("/a/zzz").resolve(rec)
MISSING

Value expectations: ``includes``, ``equals``, ``matches``, ``similarity``, ``satisfies``.

Each reads one value from a :mod:`source <agent_asserts.checks.expectations>` (a literal given to
``ctx.expect(x)``, a record field, or a state path for ``ctx.state(path)``). A state path that
does not exist gives ``MISSING``, which only ``M.absent()`` (or a matcher accepting it)
matches; any other expectation on it is ``invalid`` naming the path. A literal ``MISSING`` (the
``reply`` of a record whose trace does not record messages) is ``invalid`` the same way.

>>> from agent_asserts.record import TrialRecord
>>> silent = TrialRecord(surfaces=["tool_call"])
>>> Includes(LiteralValue(silent.reply), "refund").evaluate(silent).message
'the value is MISSING: the trace does not record it'
>>> Includes(RecordField("reply"), "refund").evaluate(silent).message
'the trace does not record the reply'

>>> from agent_asserts.checks.expectations import LiteralValue
>>> Similarity(LiteralValue("kitten"), "sitting").evaluate(None).score
0.5714285714285714
"""

from __future__ import annotations

import abc
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from agent_asserts._values import MISSING
from agent_asserts.checks.base import Check, argument_to_data, given_fields_first
from agent_asserts.errors import RecordLacks
from agent_asserts.matching import M, Matcher, as_matcher, render, similarity, value_to_data
from agent_asserts.outcome import Outcome
from agent_asserts.record import parse_pointer, resolve
from agent_asserts.status import Severity

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord


NOT_RECORDED = "the value is MISSING: the trace does not record it"
"""Why an expectation on a literal ``MISSING`` is ``invalid``: ``ctx.expect(record.reply)`` on a
record whose trace does not record the reply (see docs/record.md)."""

RECORD_FIELDS = (
    "reply",
    "status",
    "steps",
    "errors",
    "usage.input_tokens",
    "usage.output_tokens",
    "usage.total_tokens",
)


class ValueSource(abc.ABC):
    """A place a value comes from."""

    @abc.abstractmethod
    def resolve(self, record: TrialRecord | None) -> Any:
        """The value (``MISSING`` for an absent state path); raises :class:`RecordLacks`.

        >>> from agent_asserts.testing import demo_record
        >>> StatePath("/orders/A1049/status", initial=True).resolve(demo_record())
        'paid'
        """

    @abc.abstractmethod
    def label(self) -> str | None:
        """What names the result after the colon (``reply``, ``/orders/A1/status``), if any.

        >>> RecordField("reply").label(), LiteralValue(42).label()
        ('reply', None)
        """

    def call_prefix(self) -> str:
        """How the call that reads this source starts in a description: ``state('/a').``.

        >>> StatePath("/a").call_prefix(), LiteralValue(1).call_prefix()
        ("state('/a').", '')
        """
        return ""

    @abc.abstractmethod
    def to_data(self) -> dict[str, Any]:
        """The keys of the native ``expect:`` mapping that name this source.

        >>> StatePath("/orders/A1049/status", initial=True).to_data()
        {'value': '/orders/A1049/status', 'initial': True}
        """


@attrs.frozen
class LiteralValue(ValueSource):
    """A value given directly: ``ctx.expect(run.reply)``.

    >>> LiteralValue(3).resolve(None)
    3
    """

    value: Any

    def resolve(self, record: TrialRecord | None) -> Any:
        return self.value

    def label(self) -> str | None:
        return None

    def to_data(self) -> dict[str, Any]:
        return {"literal": value_to_data(self.value)}


@attrs.frozen
class RecordField(ValueSource):
    """A run-level field of the record: one of :data:`RECORD_FIELDS`.

    >>> RecordField("usage.total_tokens").label()
    'usage.total_tokens'
    """

    name: str = attrs.field()

    @name.validator
    def _known(self, attribute: attrs.Attribute[str], value: str) -> None:
        if value not in RECORD_FIELDS:
            allowed = ", ".join(repr(f) for f in RECORD_FIELDS)
            raise ValueError(
                f"'value' must be one of {allowed} or a JSON Pointer into final_state "
                f"(got {value!r})"
            )

    def resolve(self, record: TrialRecord | None) -> Any:
        if record is None:
            raise RecordLacks("no record to read from")
        if self.name.startswith("usage."):
            usage = record.usage
            value = None if usage is None else getattr(usage, self.name.split(".", 1)[1])
            if value is None:
                raise RecordLacks(f"the record has no {self.name}")
            return value
        value = getattr(record, self.name)
        if value is MISSING:  # the reply of a record that records no messages
            raise RecordLacks(f"the trace does not record the {self.name}")
        if value is None:
            raise RecordLacks(f"the record has no {self.name}")
        return list(value) if self.name == "errors" else value

    def label(self) -> str | None:
        return self.name

    def call_prefix(self) -> str:
        return f"expect({self.name})."

    def to_data(self) -> dict[str, Any]:
        return {"value": self.name}


@attrs.frozen
class StatePath(ValueSource):
    """The value at a JSON Pointer into the final (or, with ``initial``, initial) state.

    >>> StatePath("/orders/A1049/status", initial=True).label()
    'initial_state/orders/A1049/status'
    """

    pointer: str = attrs.field()
    initial: bool = False

    @pointer.validator
    def _valid(self, attribute: attrs.Attribute[str], value: str) -> None:
        parse_pointer(value)

    def resolve(self, record: TrialRecord | None) -> Any:
        if record is None:
            raise RecordLacks("no record to read from")
        which = "initial_state" if self.initial else "final_state"
        state = record.initial_state if self.initial else record.final_state
        if state is None:
            raise RecordLacks(f"the record has no {which}")
        return resolve(state, self.pointer)

    def label(self) -> str | None:
        return ("initial_state" if self.initial else "") + self.pointer

    def call_prefix(self) -> str:
        initial = ", initial=True" if self.initial else ""
        return f"state({self.pointer!r}{initial})."

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"value": self.pointer}
        if self.initial:
            data["initial"] = True
        return data


def source_for(value: str, *, initial: bool = False) -> ValueSource:
    """The source the native dialect's ``expect.value`` names.

    >>> source_for("/a/b")
    StatePath(pointer='/a/b', initial=False)
    >>> source_for("reply")
    RecordField(name='reply')
    """
    if value.startswith("/") or value == "":
        return StatePath(value, initial=initial)
    if initial:
        raise ValueError("'initial' applies only to a JSON Pointer 'value'")
    return RecordField(value)


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
            if label is None:  # a literal MISSING: ``expect(record.reply)`` without messages
                return Outcome.invalid(NOT_RECORDED)
            return Outcome.invalid(f"the path {label!r} does not exist", evidence=evidence)
        return attrs.evolve(self.test(value), evidence=evidence)

    @abc.abstractmethod
    def test(self, value: Any) -> Outcome:
        """Test one resolved value.

        >>> from agent_asserts.checks.expectations import LiteralValue
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


@attrs.frozen(slots=False, repr=False, eq=False)
class Includes(ValueCheck):
    """A string contains ``expected``, or a list holds an element deeply equal to it.

    >>> from agent_asserts.checks.expectations import LiteralValue
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


@attrs.frozen(slots=False, repr=False, eq=False)
class _MatcherCheck(ValueCheck):
    """``equals`` and ``matches``: the value is tested with the matcher ``expected`` gives."""

    source: ValueSource
    expected: Any
    tests_missing: ClassVar[bool] = True
    _matcher: Matcher = attrs.field(init=False, eq=False, repr=False)

    @_matcher.default
    @given_fields_first
    def _build(self) -> Matcher:
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


@attrs.frozen(slots=False, repr=False, eq=False)
class Equals(_MatcherCheck):
    """The value matches ``expected`` under the default rules (partial mappings, strict scalars).

    >>> from agent_asserts.checks.expectations import LiteralValue
    >>> Equals(LiteralValue({"a": 1, "b": 2}), {"a": 1}).evaluate(None).status.value
    'pass'
    """

    method: ClassVar[str] = "equals"

    def build_matcher(self) -> Matcher:
        return as_matcher(self.expected)


@attrs.frozen(slots=False, repr=False, eq=False)
class Matches(_MatcherCheck):
    """The value matches a regular expression (a string) or a matcher.

    >>> from agent_asserts.checks.expectations import LiteralValue
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


@attrs.frozen(slots=False, repr=False, eq=False)
class Similarity(ValueCheck):
    """``1 - levenshtein / max(len)`` in characters; soft by default; passes at 1.0 unless
    a threshold is set with ``.at_least()``.

    >>> from agent_asserts.checks.expectations import LiteralValue
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


@attrs.frozen(slots=False, repr=False, eq=False)
class Satisfies(ValueCheck):
    """A Python predicate over the value; a predicate that raises is ``evaluator_error``.

    >>> from agent_asserts.checks.expectations import LiteralValue
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


__all__ = [
    "NOT_RECORDED",
    "RECORD_FIELDS",
    "VALUE_CHECKS",
    "Equals",
    "Includes",
    "LiteralValue",
    "Matches",
    "RecordField",
    "RecordLacks",
    "Satisfies",
    "Similarity",
    "StatePath",
    "ValueCheck",
    "ValueSource",
    "source_for",
]
