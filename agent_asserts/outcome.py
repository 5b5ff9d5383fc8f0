"""What one evaluation of a check found: :class:`Outcome`, below both the checks and contracts.

Every check's ``evaluate(record)`` and every contract requirement returns an :class:`Outcome`;
the recorder turns it into an ``AssertionResult``. :func:`missing_surface` is the one wording of
"the record did not record what this check needs" (an ``INVALID`` outcome, never a pass or fail).

>>> Outcome.of(True, message="matched 1 tool call").status
<Status.PASS: 'pass'>
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import attrs

from agent_asserts._text import LazyText, alias_repr, text_of
from agent_asserts._values import MISSING, as_status, as_tuple
from agent_asserts.status import Status

if TYPE_CHECKING:
    from agent_asserts.matching import Mismatch
    from agent_asserts.record import TrialRecord


@attrs.frozen(repr=False, slots=False)
class Outcome:
    """What one evaluation of a check found: status, score, message and evidence.

    ``message`` may be a :class:`~agent_asserts._text.LazyText`, rendered when first read (the
    recorded result keeps it unrendered until then). The recorded result's ``evaluator`` takes
    ``evaluator`` (what the evaluator reports of itself: a judge's model, its verdict) and
    ``details`` (anything else) as its details, and ``evaluator_type`` as its type when set
    (else the check's). ``force_gate`` makes the result gate its case whatever its severity
    (a judge that failed); ``passed_by_judge`` says the judge's own verdict decided the status,
    not the score.

    >>> Outcome.of(False, message="matched 0 tool calls").status
    <Status.FAIL: 'fail'>
    """

    status: Status = attrs.field(converter=as_status)
    score: float
    _message: str | LazyText = attrs.field(default="", alias="message", eq=text_of)
    expected: Any = None
    observed: Any = None
    evidence: tuple[Any, ...] = attrs.field(default=(), converter=as_tuple)
    mismatches: tuple[Mismatch, ...] = attrs.field(default=(), converter=as_tuple)
    closest: str | None = None
    details: Mapping[str, Any] = attrs.field(factory=dict)
    evaluator: Mapping[str, Any] = attrs.field(factory=dict)
    evaluator_type: str | None = None
    force_gate: bool = False
    passed_by_judge: bool = False

    @property
    def message(self) -> str:
        """What the evaluation found, in words (a lazy text is rendered on first read).

        >>> Outcome.of(True, message=LazyText(str.format, "matched {} calls", 2)).message
        'matched 2 calls'
        """
        message = self._message
        return message if type(message) is str else str(message)

    @property
    def plain(self) -> bool:
        """True when the outcome carries no details, evaluator report, evaluator type, forced
        gate or judge verdict: the recorder then has nothing of it to merge.

        >>> Outcome.of(True).plain, Outcome.of(True, details={"n": 1}).plain
        (True, False)
        """
        return not (
            self.details
            or self.evaluator
            or self.evaluator_type
            or self.force_gate
            or self.passed_by_judge
        )

    def __repr__(self) -> str:
        return alias_repr(self)

    @classmethod
    def of(
        cls,
        passed: bool,
        message: str | LazyText = "",
        expected: Any = None,
        observed: Any = None,
        evidence: Any = (),
        details: Any = MISSING,
        **fields: Any,
    ) -> Outcome:
        """A ``PASS`` (score 1) or ``FAIL`` (score 0) outcome.

        >>> Outcome.of(True).score
        1.0
        """
        status, score = (Status.PASS, 1.0) if passed else (Status.FAIL, 0.0)
        if not fields:  # by place: the fields in their declared order
            if details is MISSING:
                return cls(status, score, message, expected, observed, evidence)
            return cls(status, score, message, expected, observed, evidence, (), None, details)
        if details is not MISSING:
            fields["details"] = details
        return cls(status, score, message, expected, observed, evidence, **fields)

    def replace(self, **changes: Any) -> Outcome:
        """A copy with ``changes`` (by public name, ``message`` too).

        >>> Outcome.of(True, message="ok").replace(evidence=["e1"]).evidence
        ('e1',)
        """
        return attrs.evolve(self, **changes)

    @classmethod
    def scored(cls, score: float, **fields: Any) -> Outcome:
        """An outcome with a continuous score; passes at 1.0 until a threshold is set.

        >>> Outcome.scored(0.5).status
        <Status.FAIL: 'fail'>
        """
        return cls(Status.PASS if score >= 1.0 else Status.FAIL, score, **fields)

    @classmethod
    def invalid(cls, message: str, **fields: Any) -> Outcome:
        """The check could not be evaluated (a missing surface, path or run-level value).

        >>> Outcome.invalid("the record has no step count").status
        <Status.INVALID: 'invalid'>
        """
        return cls(Status.INVALID, 0.0, message=message, **fields)

    @classmethod
    def error(cls, message: str, **fields: Any) -> Outcome:
        """The evaluator itself failed (a predicate or judge raised).

        >>> Outcome.error("predicate raised ValueError: x").status
        <Status.EVALUATOR_ERROR: 'evaluator_error'>
        """
        return cls(Status.EVALUATOR_ERROR, 0.0, message=message, **fields)

    @classmethod
    def not_applicable(cls, message: str, **fields: Any) -> Outcome:
        """The check's condition did not hold, so it says nothing about this record.

        >>> Outcome.not_applicable("tool never ran").status
        <Status.NOT_APPLICABLE: 'not_applicable'>
        """
        return cls(Status.NOT_APPLICABLE, 0.0, message=message, **fields)


def missing_surface(record: TrialRecord, *kinds: str) -> Outcome | None:
    """``INVALID`` when the record's harness did not record one of ``kinds``, else None.

    The message lists what the record did record as :meth:`TrialRecord.records` sees it: its
    ``surfaces`` and every kind present in its events.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.from_dict({"events": [{"kind": "audit"}], "surfaces": ["message"]})
    >>> missing_surface(rec, "tool_call").message
    "the record has no 'tool_call' surface (recorded: 'audit', 'message')"
    """
    if record.surfaces is None:  # the record claims no surfaces: every kind counts as recorded
        return None
    for kind in kinds:
        if not record.records(kind):
            present = set(record.surfaces or ()) | set(record.index.kinds)
            recorded = ", ".join(repr(s) for s in sorted(present))
            return Outcome.invalid(
                f"the record has no {kind!r} surface (recorded: {recorded or 'nothing'})"
            )
    return None


__all__ = ["Outcome", "missing_surface"]
