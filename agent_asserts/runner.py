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
from typing import TYPE_CHECKING, Any, TypeVar

from agent_asserts._deadline import TimeLimitExceeded, format_seconds, time_limit
from agent_asserts.checks.base import MAX_NAME_LENGTH, bounded_text
from agent_asserts.checks.contract import contract_checks
from agent_asserts.context import CaseTimeout, EvalContext, outcome_to_result, run_check
from agent_asserts.errors import AgentAssertsError
from agent_asserts.judges import timed_judge
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
    judge_timeout: float | None = None,
) -> CaseResult:
    """Run ``fn(ctx)`` on ``record`` and return the :class:`CaseResult`.

    ``require()`` stops the case and its recorded gate decides; ``skip()`` gives ``SKIPPED``
    (unless a gate already failed); any other exception gives ``FAILED`` with ``error`` set.

    ``timeout`` (seconds) is a hard limit: past it the case stops where it is (see
    :mod:`agent_asserts._deadline` for what can be interrupted in-process: Python code, the
    ``re`` engine in the main thread, the ``regex`` engine anywhere) and is ``FAILED`` with
    an error naming the limit and the check that was running — even after ``skip()``. It
    is also checked at every context call and once ``fn`` returns. ``judge_timeout`` bounds
    each judge call (past it the judged check is an ``evaluator_error`` gate).

    >>> from agent_asserts.testing import demo_record
    >>> run_case(demo_record(), lambda ctx: 1 / 0).error
    'ZeroDivisionError: division by zero'
    >>> import time
    >>> run_case(demo_record(), lambda ctx: time.sleep(5), timeout=0.05).error
    'TimeLimitExceeded: the case passed its time limit of 0.05s (outside any check)'
    """
    if timeout is not None and (
        isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout < 0
    ):
        raise ValueError(f"'timeout' must be a number of seconds >= 0 (got {timeout!r})")
    if judge is not None and judge_timeout is not None:
        judge = timed_judge(judge, judge_timeout)
    case_name = name or getattr(fn, "__name__", None) or "case"
    deadline = None if timeout is None else time.monotonic() + timeout
    ctx = EvalContext(record, judge=judge, name=case_name, deadline=deadline)
    error: str | None = None
    try:
        with time_limit(None if timeout is None else max(timeout, 1e-6)):
            error = _run(ctx, fn, timeout)
    except TimeLimitExceeded:
        error = _timeout_error(ctx, timeout)
    return ctx.result(error=error)


def _run(ctx: EvalContext, fn: CaseFn, timeout: float | None) -> str | None:
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
            return _timeout_error(ctx, timeout)
    except CaseTimeout:
        return _timeout_error(ctx, timeout)
    except Exception as exc:
        return _describe_error(exc)
    return None


def _timeout_error(ctx: EvalContext, timeout: float | None) -> str:
    """``TimeLimitExceeded: the case passed its time limit of 2s while running check 'x'``."""
    limit = format_seconds(timeout or 0.0)
    if ctx.running is None:
        where = "(outside any check)"
    else:
        check, name = ctx.running
        where = f"while running check {safe_name(name, check)!r}"
    return f"TimeLimitExceeded: the case passed its time limit of {limit} {where}"


def safe_name(name: str | None, check: Any) -> str:
    """The result name of a check that may not even be able to name itself, at most
    :data:`~agent_asserts.checks.base.MAX_NAME_LENGTH` characters (a longer one is cut and
    ends with ``…``).

    >>> from agent_asserts.checks.traces import MaxSteps
    >>> safe_name(None, MaxSteps(3)), len(safe_name("n" * 5000, MaxSteps(3)))
    ('max_steps:3', 1000)
    """
    if name is not None:
        return bounded_text(name, MAX_NAME_LENGTH)
    try:
        return bounded_text(check.default_name(), MAX_NAME_LENGTH)
    except Exception:
        return type(check).__name__


R = TypeVar("R")


class LoadTimeout(AgentAssertsError, TimeoutError):
    """Reading a record took longer than the case time limit (``limit`` seconds).

    A ``TimeoutError`` (so an ``OSError``): where a record that cannot be read becomes a
    ``FAILED`` case, it reads ``cannot load the record r.json: reading it passed the case time
    limit of 5s``.
    """

    def __init__(self, limit: float) -> None:
        self.limit = limit
        super().__init__(f"reading it passed the case time limit of {format_seconds(limit)}")

    def __reduce__(self) -> tuple[type[LoadTimeout], tuple[float]]:
        return (type(self), (self.limit,))


def load_within(load: Callable[[], R], timeout: float | None) -> R:
    """``load()`` — reading a record from a file or a trace — under the case time limit.

    Every path that reads a record and then runs cases on it with a ``timeout`` reads it with
    this, so a record that is slow to read (a hostile file, an adapter's worst case) cannot
    pass the limit either: it is a record that cannot be loaded, and each case on it is
    ``FAILED`` with the error. The cases then each have their own limit. ``timeout=None``
    arms nothing.

    Raises:
        LoadTimeout: ``load`` ran past ``timeout`` seconds (it is stopped there, as a case
            is: see :mod:`agent_asserts._deadline`).

    >>> import time
    >>> load_within(lambda: "record", 5)
    'record'
    >>> load_within(lambda: time.sleep(5), 0.05)
    Traceback (most recent call last):
    ...
    agent_asserts.runner.LoadTimeout: reading it passed the case time limit of 0.05s
    """
    if timeout is None:
        return load()
    try:
        with time_limit(max(timeout, 1e-6)):
            return load()
    except TimeLimitExceeded:
        pass
    raise LoadTimeout(timeout)


class CaseFailed(AgentAssertsError, AssertionError):
    """A case did not pass; ``str()`` is its summary and ``case`` the :class:`CaseResult`."""

    def __init__(self, case: CaseResult) -> None:
        self.case = case
        super().__init__(str(case))

    def __reduce__(self) -> tuple[type[CaseFailed], tuple[CaseResult]]:
        return (type(self), (self.case,))


class CaseSkipped(AgentAssertsError, unittest.SkipTest):
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


__all__ = [
    "CaseFailed",
    "CaseSkipped",
    "LoadTimeout",
    "assert_passed",
    "evaluate_contract",
    "load_within",
    "run_case",
]
