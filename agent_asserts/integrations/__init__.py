"""Our checks inside the evaluation frameworks people already run (docs/integrations.md).

Every integration goes through the two pieces of this module, so that a check says the same
thing in every framework:

* :func:`read_run` turns whatever the framework hands over — a :class:`TrialRecord`, an agent
  run result, a message list, any trace the adapters read (docs/traces.md) — into a record;
* :class:`Checks` runs what the user gave — a case function ``fn(ctx)``, a loaded
  :class:`~agent_asserts.loaders.Suite` or the path of a suite file — on that record, and
  :func:`grades` maps each result to one framework-neutral :class:`Grade`: a name, whether it
  passed, a score, a reason with the evidence, and its severity.

Severities keep their meaning in every framework: a gate result is an assertion (it passes or
fails the case), a soft result a score; ``invalid`` and ``evaluator_error`` are never reported
as a pass — where a framework has no such state, they are a failure whose reason starts with
``invalid:``.

>>> from agent_asserts.testing import demo_record
>>> checks = Checks.of(lambda ctx: ctx.called_tool("refunds_issue"))
>>> [case] = checks.evaluate(demo_record())
>>> [(g.name, g.passed, g.reason) for g in grades(case)]
[('called_tool:refunds_issue', True, 'matched 1 tool calls (evidence: e3)')]
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Container, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from agent_asserts.checks.trajectory_match import MatchesTrajectory
from agent_asserts.fluent.handles import failure_text
from agent_asserts.loaders import Suite, load
from agent_asserts.record import TrialRecord
from agent_asserts.results import AssertionResult, CaseResult, Verdict
from agent_asserts.runner import run_case
from agent_asserts.status import Severity, Status

if TYPE_CHECKING:
    from agent_asserts.context import EvalContext

_FAILED = frozenset({Status.FAIL, Status.INVALID, Status.EVALUATOR_ERROR})


@attrs.frozen
class Grade:
    """One result as a framework shows it.

    Attributes:
        name: The result name (``called_tool:refund``), or ``verdict`` for the case.
        passed: False for ``fail``, ``invalid`` and ``evaluator_error``.
        score: The result's score (1.0/0.0 for a plain check), or None.
        reason: The message, with the evidence ids; ``invalid: …`` for an invalid result.
        evidence: The evidence event ids.
        status: The result's status value (``pass``, ``fail``, ``invalid``…).
        severity: ``gate`` (an assertion) or ``soft`` (a score).
    """

    name: str
    passed: bool
    score: float | None
    reason: str
    evidence: tuple[str, ...] = ()
    status: str = "pass"
    severity: str = "gate"

    @property
    def assertion(self) -> bool:
        """True for a gate result (reported as pass/fail), False for a soft one (a score)."""
        return self.severity == Severity.GATE.value

    @property
    def value(self) -> bool | float:
        """The one value of a framework that shows one per result: a gate result's
        ``passed``, a soft result's score (an invalid soft result, which has none, ``False``).

        >>> Grade("x", True, 0.5, "", severity="soft").value
        0.5
        """
        if not self.assertion and self.score is not None:
            return self.score
        return self.passed


def reason_of(result: AssertionResult) -> str:
    """The reason a framework shows for ``result``: its message and evidence ids.

    >>> reason_of(AssertionResult(name="x", status="invalid", score=None, message="no status"))
    'invalid: no status'
    """
    text = failure_text(result) or result.status.value
    if result.status in (Status.INVALID, Status.EVALUATOR_ERROR):
        text = f"{result.status.value}: {text}"
    if result.evidence:
        text += f" (evidence: {', '.join(map(str, result.evidence))})"
    return text


def grades(case: CaseResult, *, verdict: bool = False) -> list[Grade]:
    """One :class:`Grade` per result of ``case`` (and, with ``verdict``, one for the case).

    The case's grade is named ``verdict``: it passes when the verdict is ``PASSED`` or
    ``SCORED`` (every gate passed), its score is the case's score and its reason the summary.
    """
    out = [
        Grade(
            name=r.name,
            passed=r.status not in _FAILED,
            score=r.score,
            reason=reason_of(r),
            evidence=tuple(map(str, r.evidence)),
            status=r.status.value,
            severity=r.severity.value,
        )
        for r in case.results
    ]
    if verdict:
        out.append(verdict_grade(case))
    return out


def verdict_grade(case: CaseResult) -> Grade:
    """The case as one grade: passed unless ``FAILED`` (or skipped), reason the summary."""
    passed = case.verdict in (Verdict.PASSED, Verdict.SCORED)
    return Grade(
        name="verdict",
        passed=passed,
        score=case.score,
        reason=str(case),
        status=case.verdict.value,
        severity="gate",
    )


def unique_name(taken: Container[str], name: str) -> str:
    """``name``, or ``name#2``, ``name#3``… when it is taken: the key of a result in a
    framework that keys results by name (two checks may share one).

    >>> unique_name({"called_tool:refund", "called_tool:refund#2"}, "called_tool:refund")
    'called_tool:refund#3'
    """
    if name not in taken:
        return name
    n = 2
    while f"{name}#{n}" in taken:
        n += 1
    return f"{name}#{n}"


def read_run(value: Any, *, format: str = "auto") -> TrialRecord:
    """The record of a run handed over by a framework.

    A :class:`TrialRecord` is used as it is; a pydantic-ai run result by its message history;
    anything else goes through :meth:`TrialRecord.from_trace` (every format of
    docs/traces.md, and the objects the SDKs hand you).

    Raises:
        RecordError: the value is no run the adapters read (the error says what is accepted).
    """
    if isinstance(value, TrialRecord):
        return value
    history = getattr(value, "all_messages_json", None)
    if callable(history):  # a pydantic-ai AgentRunResult / StreamedRunResult
        value = json.loads(history())
    return TrialRecord.from_trace(value, format)


def check_trajectory_modes(order: str, arguments: Any, tools: Any = None) -> None:
    """Refuse a reference-trajectory mode now, with ``matches_trajectory``'s own error, rather
    than at the first case an integration checks.

    >>> check_trajectory_modes("sideways", "exact")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: matches_trajectory() parameter 'order' takes one of 'strict', ... (got 'sideways')
    """
    MatchesTrajectory((), order=order, arguments=arguments, tools=tools)  # type: ignore[arg-type]


def trajectory_case(
    record: TrialRecord,
    reference: Any,
    *,
    order: str,
    arguments: Any,
    tools: Any = None,
    name: str,
    timeout: float | None = None,
    missing: str | None = None,
) -> CaseResult:
    """The case of an integration's reference-trajectory check: ``matches_trajectory`` of
    ``reference`` on ``record`` — or, when the framework gave no readable reference
    (``missing`` says why), an ``invalid`` result of that name with the reason.

    >>> from agent_asserts.testing import demo_record
    >>> case = trajectory_case(demo_record(), None, order="strict", arguments="exact",
    ...                        name="reference", missing="no reference trajectory")
    >>> [(r.name, r.status.value, r.message) for r in case.results]
    [('matches_trajectory', 'invalid', 'no reference trajectory')]
    """

    def check(ctx: EvalContext) -> None:
        if missing is not None:
            ctx.add_result(
                AssertionResult(
                    name="matches_trajectory", status=Status.INVALID, score=0.0, message=missing
                )
            )
        else:
            ctx.matches_trajectory(reference, order=order, arguments=arguments, tools=tools)  # type: ignore[arg-type]

    return run_case(record, check, name=name, timeout=timeout)


CaseFn = Callable[["EvalContext"], Any]


@attrs.frozen
class Checks:
    """What the user asked to check: a case function, a suite, or a suite file (loaded once).

    The one such class: the framework integrations and the live processors
    (:class:`~agent_asserts.live.LiveSuite`) run their checks through it.

    >>> from agent_asserts.testing import demo_record
    >>> checks = Checks.of("docs/examples/refunds.suite.yml")
    >>> [c.verdict.value for c in checks.evaluate(demo_record())]
    ['passed', 'passed']
    """

    suite: Suite | None = None
    fn: CaseFn | None = None
    name: str = "agent_asserts"

    @classmethod
    def of(cls, spec: Any, *, name: str | None = None) -> Checks:
        """Checks from a case function, a :class:`~agent_asserts.loaders.Suite`, or the path
        of a suite file.

        Raises:
            TypeError: ``spec`` is none of these.
            LoadError: the suite file has problems (each with its position).
        """
        if isinstance(spec, str | os.PathLike):
            suite = load(spec)
            return cls(suite=suite, name=name or suite.name)
        if isinstance(spec, Suite):
            return cls(suite=spec, name=name or spec.name)
        if callable(spec):
            label = name or getattr(spec, "__name__", None)
            return cls(fn=spec, name=label if isinstance(label, str) else "agent_asserts")
        raise TypeError(
            "checks must be a case function fn(ctx), a Suite or the path of a suite file "
            f"(got {type(spec).__name__})"
        )

    def evaluate(self, record: TrialRecord, *, timeout: float | None = None) -> list[CaseResult]:
        """The case results on ``record``: one per case of the suite, or the function's one."""
        if self.suite is not None:
            return list(self.suite.evaluate(record, timeout=timeout))
        assert self.fn is not None
        return [run_case(record, self.fn, name=self.name, timeout=timeout)]


def merged(cases: Sequence[CaseResult], name: str) -> CaseResult:
    """Several cases as one (every result, prefixed by its case when there are several), with
    the worst verdict: what a framework that takes one result per sample shows."""
    if len(cases) == 1:
        return cases[0]
    results = tuple(attrs.evolve(r, name=f"{c.name}/{r.name}") for c in cases for r in c.results)
    order = (Verdict.FAILED, Verdict.SCORED, Verdict.SKIPPED, Verdict.PASSED)
    worst = min((c.verdict for c in cases), key=order.index, default=Verdict.PASSED)
    errors = "; ".join(c.error for c in cases if c.error) or None
    return CaseResult(name, worst, results=results, error=errors)


__all__ = [
    "CaseFn",
    "Checks",
    "Grade",
    "check_trajectory_modes",
    "grades",
    "merged",
    "read_run",
    "reason_of",
    "trajectory_case",
    "unique_name",
    "verdict_grade",
]
