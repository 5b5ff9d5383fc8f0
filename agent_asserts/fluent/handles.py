"""``AssertionHandle`` and ``ValueExpectation``: the objects fluent calls return.

A handle points at one recorded result; ``.gate()``, ``.soft()``, ``.at_least(t)`` and
``.label(s)`` replace that result in its context with an evolved copy (results are immutable).

>>> from agent_asserts import EvalContext
>>> from agent_asserts.testing import demo_record
>>> ctx = EvalContext(demo_record())
>>> ctx.max_tool_calls(1).soft().label("efficiency").result.severity.value
'soft'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Self

import attrs

from agent_asserts._boundary import guard
from agent_asserts.checks.expectations import (
    Equals,
    Includes,
    Matches,
    Satisfies,
    Similarity,
    ValueSource,
)
from agent_asserts.results import AssertionResult, Severity, Status

if TYPE_CHECKING:
    from agent_asserts.context import EvalContext

_TRUTHY = frozenset({Status.PASS, Status.NOT_APPLICABLE})


class AssertionHandle:
    """A handle on the result a fluent call just recorded."""

    def __init__(self, ctx: EvalContext, index: int) -> None:
        self._ctx = ctx
        self._index = index

    @property
    def result(self) -> AssertionResult:
        """The current form of the recorded result.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).step_count(4).result.message
        'expected 4 steps, got 4'
        """
        return self._ctx._results[self._index]

    def _change(self, change: Callable[[AssertionResult], AssertionResult]) -> None:
        if self._index < 0:
            raise LookupError(
                "no result has been recorded on this value yet: call includes(), equals(), "
                "matches(), similarity() or satisfies() before gate/soft/at_least/label"
            )
        self._ctx._replace(self._index, change)

    def gate(self) -> Self:
        """Make a failure of this result fail the case.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).expect("a").similarity("b").gate().result.severity.value
        'gate'
        """
        self._change(lambda r: attrs.evolve(r, severity=Severity.GATE))
        return self

    def soft(self) -> Self:
        """Make a failure of this result only score the case (a judge error stays a gate).

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).used_no_tools().soft().result.severity.value
        'soft'
        """
        if self._index not in self._ctx._forced_gates:
            self._change(lambda r: attrs.evolve(r, severity=Severity.SOFT))
        return self

    def at_least(self, threshold: float) -> Self:
        """Pass once the score reaches ``threshold`` (in [0, 1]); ``at_least(0.0)`` always passes.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> ctx = EvalContext(demo_record())
        >>> ctx.expect("kitten").similarity("sitting").at_least(0.5).result.passed
        True
        """
        self._change(lambda r: r.with_threshold(threshold))
        return self

    def label(self, text: str) -> Self:
        """Attach a label (shown in summaries and reports).

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).succeeded().label("outcome").result.label
        'outcome'
        """
        if not isinstance(text, str):
            raise TypeError(f"'text' must be a string (got {text!r})")
        self._change(lambda r: attrs.evolve(r, label=text))
        return self

    def __bool__(self) -> bool:
        """True only when the result passed or is not applicable, so ``assert handle`` works.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> ctx = EvalContext(demo_record())
        >>> bool(ctx.called_tool("refunds_issue")), bool(ctx.called_tool("refunds_cancel"))
        (True, False)
        """
        return self.result.status in _TRUTHY

    def __repr__(self) -> str:
        """The name, status and severity; on a failure also its message and closest candidate,
        on one line (pytest shows it under a failed ``assert handle``).

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> ctx = EvalContext(demo_record())
        >>> ctx.max_steps(2)
        <AssertionHandle max_steps:2 fail [gate]: expected at most 2 steps, got 4>
        >>> ctx.called_tool("refunds_issue", {"amount": 40})  # doctest: +NORMALIZE_WHITESPACE
        <AssertionHandle called_tool:refunds_issue fail [gate]: matched 0 tool calls
        of 1 'refunds_issue' calls, expected at least 1; closest e3: $.arguments.amount:
        expected 40, got 42>
        """
        r = self.result
        head = f"<AssertionHandle {r.name} {r.status.value} [{r.severity.value}]"
        if r.status in _TRUTHY:
            return head + ">"
        text = failure_text(r)
        return head + (f": {text}" if text else "") + ">"


def failure_text(result: AssertionResult) -> str:
    """A result's message on one line, then its closest candidate and first mismatches.

    >>> from agent_asserts import EvalContext
    >>> from agent_asserts.testing import demo_record
    >>> r = EvalContext(demo_record()).called_tool("refunds_issue", {"amount": 40}).result
    >>> failure_text(r)  # doctest: +NORMALIZE_WHITESPACE
    "matched 0 tool calls of 1 'refunds_issue' calls, expected at least 1; closest e3:
    $.arguments.amount: expected 40, got 42"
    """
    r = result
    parts = [" ".join(line.strip() for line in r.message.splitlines())] if r.message else []
    if r.closest is not None or r.mismatches:
        shown = "; ".join(str(m) for m in r.mismatches[:3])
        where = f"closest {r.closest}" if r.closest is not None else "mismatches"
        parts.append(f"{where}: {shown}" if shown else where)
    return "; ".join(parts)


class ValueExpectation(AssertionHandle):
    """``ctx.expect(value)`` / ``ctx.state(path)``: each call records its own result, and
    ``.gate()/.soft()/.at_least()/.label()`` apply to the most recent one.

    >>> from agent_asserts import EvalContext
    >>> from agent_asserts.testing import demo_record
    >>> ctx = EvalContext(demo_record())
    >>> e = ctx.expect("Refund issued").includes("Refund").similarity("Refund issued!")
    >>> [(r.name, r.severity.value) for r in ctx.results]
    [('includes', 'gate'), ('similarity', 'soft')]
    """

    def __init__(self, ctx: EvalContext, source: ValueSource) -> None:
        super().__init__(ctx, -1)
        self._source = source

    @property
    def result(self) -> AssertionResult:
        """The result of the most recent expectation (``LookupError`` before the first).

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).expect("ok").result
        Traceback (most recent call last):
        ...
        LookupError: no result has been recorded on this value yet
        """
        if self._index < 0:
            raise LookupError("no result has been recorded on this value yet")
        return super().result

    def _record(self, check: Any) -> Self:
        self._index = self._ctx._record(check)._index
        return self

    def includes(self, expected: Any) -> Self:
        """Substring of a string, or an element (deeply equal, strict types) of a list.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> r = EvalContext(demo_record()).expect([1, 2]).includes(True).result
        >>> r.name, r.passed
        ('includes', False)
        """
        return self._record(Includes(self._source, expected))

    def equals(self, expected: Any) -> Self:
        """The default matching rules (partial mappings, strict scalars, matchers).

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> ctx = EvalContext(demo_record())
        >>> ctx.expect({"id": "A1049", "amount": 42}).equals({"id": "A1049"}).result.passed
        True
        """
        return self._record(Equals(self._source, expected))

    def matches(self, pattern: Any) -> Self:
        """A regular expression (searched) or a matcher.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> ctx = EvalContext(demo_record())
        >>> ctx.expect(ctx.record.reply).matches(r"A\\d{4}").result.status.value
        'pass'
        """
        return self._record(Matches(self._source, pattern))

    def similarity(self, text: str) -> Self:
        """Levenshtein similarity in characters; soft by default.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> r = EvalContext(demo_record()).expect("kitten").similarity("sitting").result
        >>> round(r.score, 2), r.passed, r.severity.value
        (0.57, False, 'soft')
        """
        return self._record(Similarity(self._source, text))

    def satisfies(self, fn: Callable[[Any], bool]) -> Self:
        """A Python predicate over the value.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> ctx = EvalContext(demo_record())
        >>> ctx.state("/orders/A1049/amount").satisfies(lambda v: v > 0).result.passed
        True
        """
        return self._record(Satisfies(self._source, fn))

    def __repr__(self) -> str:
        if self._index < 0:
            return f"<ValueExpectation {self._source!r}>"
        return super().__repr__()


guard(AssertionHandle, "AssertionHandle")
guard(ValueExpectation, "ValueExpectation")

__all__ = ["AssertionHandle", "ValueExpectation", "failure_text"]
