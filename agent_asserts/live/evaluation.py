"""What a live processor evaluates and what it emits: the suite, the incomplete-trace rule, the
errors, and the ``gen_ai.evaluation.result`` event of each case result.

``suite`` may be a loaded :class:`~agent_asserts.loaders.Suite`, a suite file path, or a case
function ``fn(ctx)``. A suite file that cannot be loaded does not raise: every trace then gets
one ``FAILED`` case carrying an ``evaluator_error`` result that names the problem, so the
application's tracing goes on and the problem is visible where the verdicts are.

>>> from agent_asserts.testing import demo_record
>>> live = LiveSuite(lambda ctx: ctx.succeeded())
>>> [(r.name, r.verdict.value) for r in live.evaluate(demo_record())]
[('<lambda>', 'passed')]
>>> [r.results[0].status.value for r in LiveSuite("missing.yaml").evaluate(demo_record())]
['evaluator_error']

**What is emitted** for each case result: the ``gen_ai.evaluation.result`` event. The names
come from the OpenTelemetry GenAI semantic conventions (the evaluation event and its
``gen_ai.evaluation.*`` attributes, now kept in the semantic-conventions-genai repository);
``error.type`` is the general convention's attribute. Where the conventions leave a choice,
we chose (see docs/live.md): the label is the verdict, the score the case's mean score (left
out when no check was evaluated), the explanation the first failure line.

>>> from agent_asserts.results import AssertionResult, CaseResult
>>> bad = AssertionResult(name="stopped()", status="fail", score=0.0,
...                       message="expected status 'stopped', got 'completed'")
>>> evaluation_attributes(CaseResult("refund", "failed", results=(bad,)))
{'gen_ai.evaluation.name': 'refund', 'gen_ai.evaluation.score.label': 'failed', 'gen_ai.evaluation.score.value': 0.0, 'gen_ai.evaluation.explanation': "stopped(): expected status 'stopped', got 'completed'"}
"""  # noqa: E501

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

import attrs

from agent_asserts.batch import load_error_text
from agent_asserts.integrations import Checks
from agent_asserts.loaders import Suite
from agent_asserts.record import Problem, RecordError
from agent_asserts.record.adapters import records_from_data
from agent_asserts.results import AssertionResult, CaseResult, Status, Verdict, VerdictResolver

if TYPE_CHECKING:
    from agent_asserts.context import EvalContext
    from agent_asserts.record import TrialRecord

SuiteLike: TypeAlias = "Suite | str | os.PathLike[str] | Callable[[EvalContext], Any]"

INCOMPLETE_REASONS = {
    "evicted": "evicted before its root span ended (max_open_traces reached)",
    "timeout": "evaluated after trace_timeout with no new span, its root span not ended",
    "span_limit": "evaluated at max_spans_per_trace spans, its root span not ended",
    "shutdown": "evaluated at shutdown or force_flush, its root span not ended",
}
"""Why a trace was evaluated before it was complete (``metadata["incomplete"]`` values)."""


def one_record(document: Any, format: str) -> TrialRecord:
    """The one run of ``document`` read as record format ``format`` (through the registry).

    Raises:
        RecordError: Unknown format, unreadable document, or not exactly one run in it.

    >>> one_record({"events": [], "steps": 2}, "native").steps
    2
    """
    records = list(records_from_data(document, format))
    if len(records) != 1:
        problem = Problem("$", f"expected one run in the {format} document, found {len(records)}")
        raise RecordError([problem])
    return records[0]


def error_cases(name: str, error: str, metadata: dict[str, Any] | None = None) -> list[CaseResult]:
    """One ``FAILED`` case carrying ``error`` as an ``evaluator_error`` result.

    >>> case = error_cases("live", "cannot load the suite s.yaml: no such file")[0]
    >>> case.verdict.value, case.results[0].status.value, case.error
    ('failed', 'evaluator_error', 'cannot load the suite s.yaml: no such file')
    """
    result = AssertionResult(name="evaluation", status=Status.EVALUATOR_ERROR, score=0.0,
                             message=error)  # fmt: skip
    return [CaseResult(name, Verdict.FAILED, results=(result,), error=error,
                       metadata=dict(metadata or {}))]  # fmt: skip


def has_error(case: CaseResult) -> bool:
    """Whether ``case`` carries an evaluator error (its own ``error`` or a result's status).

    >>> has_error(error_cases("c", "boom")[0]), has_error(CaseResult("c", "passed"))
    (True, False)
    """
    return case.error is not None or any(r.status is Status.EVALUATOR_ERROR for r in case.results)


def _incomplete_result(result: AssertionResult, reason: str, spans: int) -> AssertionResult:
    if not result.evaluated:
        return result
    word = "pass" if result.passed else "fail"
    seen = f"on the {spans} span{'s' if spans != 1 else ''} seen it would {word}"
    detail = f": {result.message}" if result.message else ""
    message = f"the trace is incomplete ({INCOMPLETE_REASONS[reason]}); {seen}{detail}"
    return attrs.evolve(result, status=Status.INVALID, score=0.0, message=message)


def mark_incomplete(case: CaseResult, reason: str, spans: int) -> CaseResult:
    """``case`` as evaluated on an incomplete trace: it never passes.

    Every evaluated result (``pass`` or ``fail``) becomes ``invalid``: what was missing could
    change it either way (a call not yet seen, a reply not yet given). Its message keeps what it
    would have been on the spans seen, so a violation seen before eviction stays visible.
    ``metadata["incomplete"]`` is ``reason``.

    >>> ok = AssertionResult(name="succeeded", status="pass", score=1.0)
    >>> case = mark_incomplete(CaseResult("c", "passed", results=(ok,)), "evicted", 3)
    >>> case.verdict.value, case.metadata["incomplete"], case.results[0].status.value
    ('failed', 'evicted', 'invalid')
    >>> print(case.results[0].message)
    the trace is incomplete (evicted before its root span ended (max_open_traces reached)); on the 3 spans seen it would pass
    """  # noqa: E501
    results = tuple(_incomplete_result(r, reason, spans) for r in case.results)
    verdict = VerdictResolver().resolve(
        results, error=case.error is not None, skipped=case.skip_reason is not None
    )
    metadata = {**case.metadata, "incomplete": reason}
    return attrs.evolve(case, results=results, verdict=verdict, metadata=metadata)


class LiveSuite:
    """The suite a live processor evaluates; :meth:`evaluate` never raises."""

    def __init__(self, suite: SuiteLike) -> None:
        self.load_error: str | None = None
        self.checks: Checks | None = None
        if isinstance(suite, str | os.PathLike):
            self.name = Path(suite).stem or "live"
            try:
                self.checks = Checks.of(suite, name=self.name)
            except Exception as exc:  # reported by every evaluation, never raised
                self.load_error = load_error_text("the suite", os.fspath(suite), exc)
        elif isinstance(suite, Suite) or callable(suite):
            name = suite.name if isinstance(suite, Suite) else getattr(suite, "__name__", None)
            self.name = name or "case"
            self.checks = Checks.of(suite, name=self.name)
        else:
            raise TypeError(
                "'suite' must be a loaded Suite, a suite file path or a case function "
                f"(got {type(suite).__name__})"
            )

    def evaluate(self, record: TrialRecord, timeout: float | None = None) -> list[CaseResult]:
        """Every case's result on ``record`` (an error becomes an ``evaluator_error`` case).

        ``timeout`` is each case's hard time limit in seconds (see ``run_case``): a case past
        it is ``FAILED`` naming the check that was running, the next case still runs.

        >>> import time
        >>> from agent_asserts.testing import demo_record
        >>> slow = LiveSuite(lambda ctx: time.sleep(5))
        >>> slow.evaluate(demo_record(), timeout=0.05)[0].error
        'TimeLimitExceeded: the case passed its time limit of 0.05s (outside any check)'
        """
        if self.checks is None:
            return error_cases(self.name, self.load_error or "the suite could not be loaded")
        try:
            return self.checks.evaluate(record, timeout=timeout)
        except Exception as exc:  # a raising suite never breaks the span pipeline
            return error_cases(self.name, f"evaluation raised {type(exc).__name__}: {exc}")


EVENT_NAME = "gen_ai.evaluation.result"
"""The event's name (GenAI semantic conventions)."""
SPAN_NAME = "gen_ai.evaluation"
"""The name of the short span that carries the events (our choice: see docs/live.md)."""
SCOPE_NAME = "agent_asserts.live"
"""The instrumentation scope of that span; the processors ignore spans of this scope."""


def first_failure(result: CaseResult) -> str | None:
    """The first line that explains why ``result`` did not pass, or None when it passed.

    The case's own error first, then the first failed result as ``name: first message line``.

    >>> from agent_asserts.results import CaseResult
    >>> first_failure(CaseResult("c", "failed", error="ValueError: boom\\nmore"))
    'ValueError: boom'
    """
    if result.error:
        return result.error.splitlines()[0]
    for assertion in result.results:
        if assertion.failed:
            line = assertion.message.splitlines()[0] if assertion.message else ""
            return f"{assertion.name}: {line}" if line else f"{assertion.name}: {assertion.status}"
    return None


def evaluation_attributes(result: CaseResult) -> dict[str, Any]:
    """The attributes of one ``gen_ai.evaluation.result`` event (see the module docstring)."""
    attributes: dict[str, Any] = {
        "gen_ai.evaluation.name": result.name,
        "gen_ai.evaluation.score.label": result.verdict.value,
    }
    score = result.score
    if score is not None:
        attributes["gen_ai.evaluation.score.value"] = float(score)
    explanation = first_failure(result)
    if explanation is not None:
        attributes["gen_ai.evaluation.explanation"] = explanation
    if has_error(result):
        attributes["error.type"] = "evaluator_error"
    incomplete = result.metadata.get("incomplete")
    if incomplete:
        attributes["agent_asserts.incomplete"] = str(incomplete)
    return attributes


__all__ = [
    "EVENT_NAME",
    "INCOMPLETE_REASONS",
    "SCOPE_NAME",
    "SPAN_NAME",
    "LiveSuite",
    "SuiteLike",
    "error_cases",
    "evaluation_attributes",
    "first_failure",
    "has_error",
    "mark_incomplete",
    "one_record",
]
