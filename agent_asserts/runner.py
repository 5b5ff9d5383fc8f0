"""``run_case``: run a case function over one record and resolve its verdict.

>>> from agent_asserts import run_case
>>> from agent_asserts.testing import demo_record
>>> def case(ctx):
...     ctx.called_tool("refunds_lookup")
...     ctx.max_tool_calls(1).soft()
>>> run_case(demo_record(), case).verdict
<Verdict.SCORED: 'scored'>
"""

from __future__ import annotations

import time
import unittest
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from agent_asserts.checks.contract import contract_checks
from agent_asserts.context import CaseTimeout, EvalContext, outcome_to_result, run_check
from agent_asserts.results import AssertionResult, CaseResult, RequirementFailed, Skipped, Verdict

if TYPE_CHECKING:
    from agent_asserts.judges import Judge
    from agent_asserts.record import TrialRecord

CaseFn = Callable[[EvalContext], Any]


def _describe_error(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def run_case(
    record: TrialRecord,
    fn: CaseFn,
    *,
    judge: Judge | None = None,
    timeout: float | None = None,
    name: str | None = None,
) -> CaseResult:
    """Run ``fn(ctx)`` on ``record`` and return the :class:`CaseResult`.

    ``require()`` stops the case and its recorded gate decides; ``skip()`` gives ``SKIPPED``
    (unless a gate already failed); any other exception, or passing the cooperative
    ``timeout`` (seconds, checked at every context call and once ``fn`` returns), gives
    ``FAILED`` with ``error`` set — even after ``skip()``.

    >>> from agent_asserts.testing import demo_record
    >>> run_case(demo_record(), lambda ctx: 1 / 0).error
    'ZeroDivisionError: division by zero'
    """
    if timeout is not None and (
        isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout < 0
    ):
        raise ValueError(f"'timeout' must be a number of seconds >= 0 (got {timeout!r})")
    case_name = name or getattr(fn, "__name__", None) or "case"
    deadline = None if timeout is None else time.monotonic() + timeout
    ctx = EvalContext(record, judge=judge, name=case_name, deadline=deadline)
    error: str | None = None
    try:
        fn(ctx)
        ctx.check_deadline()
    except RequirementFailed:
        pass
    except Skipped as exc:
        ctx.skip_reason = exc.reason
        try:
            ctx.check_deadline()
        except CaseTimeout:
            error = f"CaseTimeout: the case passed its cooperative timeout of {timeout}s"
    except CaseTimeout:
        error = f"CaseTimeout: the case passed its cooperative timeout of {timeout}s"
    except Exception as exc:
        error = _describe_error(exc)
    return ctx.result(error=error)


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
    agent_asserts.runner.CaseSkipped: no sandbox
    """
    if not isinstance(case_result, CaseResult):
        raise TypeError(f"'case_result' must be a CaseResult (got {type(case_result).__name__})")
    verdict = case_result.verdict
    if verdict is Verdict.FAILED or (verdict is Verdict.SCORED and fail_on_scored):
        raise CaseFailed(case_result)
    if verdict is Verdict.SKIPPED:
        raise CaseSkipped(case_result)


def evaluate_contract(
    record: TrialRecord, spec: Any, *, judge: Judge | None = None
) -> list[AssertionResult]:
    """Evaluate every assertion of a contract over ``record``, without an ``EvalContext``.

    Args:
        record: The trial record.
        spec: A :class:`~agent_asserts.contract.Contract`, its dict form, or the ``Suite`` that
            ``agent_asserts.loaders.load()`` gives for a contract file (a file is read at the
            edge: ``agent_asserts.loaders.load_contract(path)``).
        judge: The judge for ``semantic`` / ``grounded_semantic`` matchers.

    Returns:
        One result per assertion, named by its ``id``, in contract order; severity GATE for
        critical/high and SOFT for medium/low.

    >>> from agent_asserts.testing import demo_record
    >>> results = evaluate_contract(demo_record(), {
    ...     "bind": {"status": {"from": "final_state", "path": "/orders/A1049/status"}},
    ...     "require": {"op": "equals", "left": "status", "right": "refunded"}})
    >>> [(r.name, r.status.value, r.severity.value, r.evaluator.details["severity"])
    ...  for r in results]
    [('contract', 'pass', 'gate', 'high')]
    """
    results = []
    for check in contract_checks(spec):
        outcome = run_check(check, record, judge=judge)
        severity = check.assertion.gate_severity
        results.append(
            outcome_to_result(check, outcome, name=check.assertion.id, severity=severity)
        )
    return results


__all__ = ["CaseFailed", "CaseSkipped", "assert_passed", "evaluate_contract", "run_case"]
