"""``assert_passed``: turn a case result into a test outcome, in any test framework.

A ``FAILED`` case raises :class:`CaseFailed` (an ``AssertionError``) whose text is the case
summary, summary line first; a ``SKIPPED`` case raises :class:`CaseSkipped` (a
``unittest.SkipTest``, which pytest and unittest both report as a skip); ``PASSED`` returns,
and so does ``SCORED`` unless ``fail_on_scored=True``.

>>> from agent_asserts import run_case
>>> from agent_asserts.testing import demo_record
>>> assert_passed(run_case(demo_record(), lambda ctx: ctx.max_steps(2), name="budget"))
Traceback (most recent call last):
...
agent_asserts.assertions.CaseFailed: FAILED budget: 1 check: 1 failed; score 0.00
  FAILED [gate] max_steps(2)
    expected at most 2 steps, got 4...
"""

from __future__ import annotations

import unittest
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agent_asserts.results import CaseResult


class CaseFailed(AssertionError):
    """A case did not pass; ``str()`` is its summary and ``case`` the :class:`CaseResult`."""

    def __init__(self, case: CaseResult) -> None:
        self.case = case
        super().__init__(str(case))

    def __reduce__(self) -> tuple[type[CaseFailed], tuple[CaseResult]]:
        return (type(self), (self.case,))


class CaseSkipped(unittest.SkipTest):
    """A case was skipped; ``str()`` is the skip reason and ``case`` the :class:`CaseResult`."""

    def __init__(self, case: CaseResult) -> None:
        self.case = case
        super().__init__(case.skip_reason or f"case {case.name!r} was skipped")

    def __reduce__(self) -> tuple[type[CaseSkipped], tuple[CaseResult]]:
        return (type(self), (self.case,))


def assert_passed(case_result: CaseResult, *, fail_on_scored: bool = False) -> None:
    """Raise unless ``case_result`` passed.

    Args:
        case_result: The result of ``run_case``, ``Case.evaluate``…
        fail_on_scored: Treat a ``SCORED`` case (a soft check failed) as a failure.

    Raises:
        CaseFailed: The case is ``FAILED`` (or ``SCORED`` with ``fail_on_scored``).
        CaseSkipped: The case is ``SKIPPED``.
        TypeError: ``case_result`` is not a ``CaseResult``.

    >>> from agent_asserts.results import CaseResult
    >>> assert_passed(CaseResult("c", "scored"))
    >>> assert_passed(CaseResult("c", "skipped", skip_reason="no sandbox"))
    Traceback (most recent call last):
    ...
    agent_asserts.assertions.CaseSkipped: no sandbox
    """
    from agent_asserts.results import CaseResult, Verdict

    if not isinstance(case_result, CaseResult):
        raise TypeError(f"'case_result' must be a CaseResult (got {type(case_result).__name__})")
    verdict = case_result.verdict
    if verdict is Verdict.FAILED or (verdict is Verdict.SCORED and fail_on_scored):
        raise CaseFailed(case_result)
    if verdict is Verdict.SKIPPED:
        raise CaseSkipped(case_result)


__all__ = ["CaseFailed", "CaseSkipped", "assert_passed"]
