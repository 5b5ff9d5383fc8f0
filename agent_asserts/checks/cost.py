"""Steps and cost: ``step_count``, ``max_steps``, ``total_tokens_at_most``.

These always carry a message, whether they pass or fail (seed 004), and are ``invalid`` when
the record has no step count or token usage.

>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.from_dict({"events": [], "usage": {"input_tokens": 200, "output_tokens": 50}})
>>> TotalTokensAtMost(200).evaluate(rec).message
'used 250 tokens, limit 200'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

import attrs

from agent_asserts.checks.base import Check
from agent_asserts.checks.registry import register
from agent_asserts.matching.values import plural
from agent_asserts.outcome import Outcome

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord


def int_at_least(minimum: int) -> Callable[[object, attrs.Attribute[int], int], None]:
    """An attrs validator: a whole number >= ``minimum`` (a bool is not a number here).

    >>> MaxSteps(-1)
    Traceback (most recent call last):
    ...
    ValueError: 'n' must be >= 0 (got -1)
    """

    def validate(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"'{attribute.name}' must be an int (got {value!r})")
        if value < minimum:
            raise ValueError(f"'{attribute.name}' must be >= {minimum} (got {value!r})")

    return validate


non_negative_int = int_at_least(0)
"""attrs validator: a whole number >= 0."""


@register
@attrs.frozen
class StepCount(Check):
    """The run took exactly ``n`` steps: message ``expected {n} steps, got {actual}`` ("1 step").

    >>> from agent_asserts.record import TrialRecord
    >>> StepCount(2).evaluate(TrialRecord.from_dict({"steps": 2, "events": []})).status.value
    'pass'
    """

    n: int = attrs.field(validator=non_negative_int)
    method: ClassVar[str] = "step_count"
    positional: ClassVar[tuple[str, ...]] = ("n",)

    def evaluate(self, record: TrialRecord) -> Outcome:
        if record.steps is None:
            return Outcome.invalid("the record has no step count")
        return Outcome.of(
            record.steps == self.n,
            message=f"expected {plural(self.n, 'step')}, got {record.steps}",
            expected=self.n,
            observed=record.steps,
        )


@register
@attrs.frozen
class MaxSteps(Check):
    """The run took at most ``n`` steps: message ``expected at most {n} steps, got {actual}``.

    >>> from agent_asserts.record import TrialRecord
    >>> MaxSteps(6).evaluate(TrialRecord.from_dict({"steps": 7, "events": []})).message
    'expected at most 6 steps, got 7'
    """

    n: int = attrs.field(validator=non_negative_int)
    method: ClassVar[str] = "max_steps"
    positional: ClassVar[tuple[str, ...]] = ("n",)

    def evaluate(self, record: TrialRecord) -> Outcome:
        if record.steps is None:
            return Outcome.invalid("the record has no step count")
        return Outcome.of(
            record.steps <= self.n,
            message=f"expected at most {plural(self.n, 'step')}, got {record.steps}",
            expected=self.n,
            observed=record.steps,
        )


@register
@attrs.frozen
class TotalTokensAtMost(Check):
    """Total token usage is at most ``n``: message ``used {actual} tokens, limit {n}``.

    A ``usage`` without ``total_tokens`` and without both ``input_tokens`` and
    ``output_tokens`` (from which the total is derived) has no total: the result is
    ``invalid``, saying which counts it has. A given ``total_tokens`` is taken as recorded,
    even when it differs from input + output (providers count cached and reasoning tokens
    differently).

    >>> from agent_asserts.record import TrialRecord
    >>> TotalTokensAtMost(10).evaluate(TrialRecord.from_dict({"events": []})).message
    'the record has no token usage'
    >>> only_input = TrialRecord.from_dict({"usage": {"input_tokens": 5}})
    >>> TotalTokensAtMost(10).evaluate(only_input).message
    'the record has no total token count (usage has input_tokens only)'
    """

    n: int = attrs.field(validator=non_negative_int)
    method: ClassVar[str] = "total_tokens_at_most"
    positional: ClassVar[tuple[str, ...]] = ("n",)

    def evaluate(self, record: TrialRecord) -> Outcome:
        usage = record.usage
        if usage is None:
            return Outcome.invalid("the record has no token usage")
        total = usage.total_tokens
        if total is None:
            counts = [k for k, v in usage.to_dict().items() if v is not None]
            has = f"has {' and '.join(counts)} only" if counts else "has no counts"
            return Outcome.invalid(f"the record has no total token count (usage {has})")
        return Outcome.of(
            total <= self.n,
            message=f"used {total} tokens, limit {self.n}",
            expected=self.n,
            observed=total,
        )


__all__ = ["MaxSteps", "StepCount", "TotalTokensAtMost"]
