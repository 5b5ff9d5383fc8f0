"""The vocabulary every layer shares: how a check came out (:class:`Status`), what a failure
does to its case (:class:`Severity`) and how a case came out (:class:`Verdict`).
:mod:`agent_asserts.results` re-exports all three.

>>> Status.PASS in FAILING_STATUSES
False
"""

from __future__ import annotations

import enum


class Status(enum.StrEnum):
    """How a check came out.

    >>> Status("not_applicable") is Status.NOT_APPLICABLE
    True
    """

    PASS = "pass"
    FAIL = "fail"
    NOT_APPLICABLE = "not_applicable"
    INVALID = "invalid"
    EVALUATOR_ERROR = "evaluator_error"


FAILING_STATUSES = frozenset({Status.FAIL, Status.INVALID, Status.EVALUATOR_ERROR})
EVALUATED_STATUSES = frozenset({Status.PASS, Status.FAIL})


class Severity(enum.StrEnum):
    """What a failed result does to its case: ``GATE`` fails it, ``SOFT`` only scores it.

    >>> Severity("soft")
    <Severity.SOFT: 'soft'>
    """

    GATE = "gate"
    SOFT = "soft"


class Verdict(enum.StrEnum):
    """The verdict of a case.

    >>> Verdict.SCORED.value
    'scored'
    """

    PASSED = "passed"
    FAILED = "failed"
    SCORED = "scored"
    SKIPPED = "skipped"


__all__ = ["EVALUATED_STATUSES", "FAILING_STATUSES", "Severity", "Status", "Verdict"]
