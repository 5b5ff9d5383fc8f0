"""The semantic family: judged checks, and judged checks replaced by ones that say they were not
run.

The semantic family: ``judge(criterion, *, rubric, evidence, threshold, model)``.

A :class:`JudgeCheck` asks the context's judge to grade the record (or an evidence selection)
against a criterion. Severity rules (seed 004), which ``EvalContext.record_check`` applies
through :meth:`JudgeCheck.severity_for` and the outcome's ``force_gate``:

* a judge is configured → SOFT by default (``.gate()`` makes it a gate);
* no judge → ``invalid`` "no judge configured", GATE by default;
* the judge raised, or returned a malformed response → ``evaluator_error``, always GATE,
  whatever ``.soft()`` said.

>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.builder().user("refund A1").agent("Refund issued.").build()
>>> check = JudgeCheck("the agent confirmed the refund")
>>> check.run(rec).message, check.severity_for(None).value
('no judge configured', 'gate')

Judged checks on demand: a judged check replaced by one that says it was not run.

``skip_judged=True`` (``Suite.evaluate``, ``evaluate_many``, ``agent-asserts check
--skip-judged``, pytest ``--skip-judged``) swaps every judged check of a suite — one whose
``evaluator_type`` is ``semantic``: a ``judge`` check, a Mantle ``criteria``, a cxas
``expectations`` entry, an SOP ``llm_judge``, a judged contract assertion — for a
:class:`JudgedNotRun` that keeps its name and description and is ``not_applicable``
("judged check not run"), so the deterministic checks decide the verdict.

>>> from agent_asserts.checks.semantic import JudgeCheck
>>> from agent_asserts.testing import demo_record
>>> check = not_run_if_judged(JudgeCheck("polite"))
>>> check.default_name(), check.evaluate(demo_record()).message
('judge:polite', 'judged check not run')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from agent_asserts._values import unit_interval
from agent_asserts.checks import register
from agent_asserts.checks.base import Check
from agent_asserts.judges import (
    TEMPLATE_VERSION,
    Evidence,
    EvidenceError,
    JudgeRequest,
    JudgeResponse,
    JudgeResponseError,
    build_request,
    call_judge,
    normalize_evidence,
)
from agent_asserts.outcome import Outcome
from agent_asserts.status import Severity, Status

if TYPE_CHECKING:
    from agent_asserts.judges import Judge
    from agent_asserts.record import TrialRecord


def _criterion(instance: object, attribute: attrs.Attribute[str], value: str) -> None:
    if not isinstance(value, str) or not value.strip():
        raise TypeError(f"'criterion' must be a non-empty str (got {value!r})")


def _optional_str(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value is not None and not isinstance(value, str):
        raise TypeError(f"'{attribute.name}' must be a str or None (got {value!r})")


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class JudgeCheck(Check):
    """The judge grades the evidence against ``criterion``; result name ``judge:{criterion}``.

    ``threshold`` (when given) decides the status from the score; otherwise the judge's
    ``passed`` decides when it gives one, and a bare score must reach 1.0.

    >>> from agent_asserts.judges import JudgeResponse
    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().agent("Sorry for the delay.").build()
    >>> check = JudgeCheck("the agent apologised", threshold=0.7)
    >>> outcome = check.run(rec, judge=lambda request: JudgeResponse(0.8, explanation="yes"))
    >>> outcome.status.value, outcome.score, outcome.evaluator["explanation"]
    ('pass', 0.8, 'yes')
    """

    criterion: str = attrs.field(validator=_criterion)
    rubric: str | None = attrs.field(default=None, validator=_optional_str, kw_only=True)
    evidence: Evidence = attrs.field(default=None, converter=normalize_evidence, kw_only=True)
    threshold: float | None = attrs.field(default=None, validator=unit_interval, kw_only=True)
    model: str | None = attrs.field(default=None, validator=_optional_str, kw_only=True)
    method: ClassVar[str] = "judge"
    positional: ClassVar[tuple[str, ...]] = ("criterion",)
    default_severity: ClassVar[Severity] = Severity.SOFT
    evaluator_type: ClassVar[str] = "semantic"

    def severity_for(self, judge: Judge | None) -> Severity:
        """The default severity: SOFT with a judge configured, GATE without one.

        >>> JudgeCheck("x").severity_for(None), JudgeCheck("x").severity_for(print)
        (<Severity.GATE: 'gate'>, <Severity.SOFT: 'soft'>)
        """
        return Severity.GATE if judge is None else Severity.SOFT

    def own_threshold(self) -> float | None:
        """The ``threshold=`` the score was graded against, which the result carries.

        >>> JudgeCheck("x", threshold=0.7).own_threshold(), JudgeCheck("x").own_threshold()
        (0.7, None)
        """
        return self.threshold

    def evaluate(self, record: TrialRecord) -> Outcome:
        """Without the context's judge: always ``invalid`` ("no judge configured")."""
        return self.run(record)

    def run(self, record: TrialRecord, *, judge: Judge | None = None) -> Outcome:
        """Render the request, call ``judge`` and turn its response into an outcome."""
        info = self._info()
        if judge is None:
            return Outcome.invalid("no judge configured", evaluator=info)
        try:
            request = build_request(
                record,
                self.criterion,
                rubric=self.rubric,
                evidence=self.evidence,
                model=self.model,
            )
        except EvidenceError as exc:
            return Outcome.invalid(str(exc), evaluator=info)
        info["evidence"] = "record" if self.evidence is None else "selection"
        try:
            response = call_judge(judge, request)
        except JudgeResponseError as exc:
            return self._error(f"the judge returned an invalid response: {exc}", info, request)
        except Exception as exc:
            return self._error(f"the judge raised {type(exc).__name__}: {exc}", info, request)
        return self._decide(response, request, info)

    def _info(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "template_version": TEMPLATE_VERSION,
            "threshold": self.threshold,
        }

    def _error(self, message: str, info: dict[str, Any], request: JudgeRequest) -> Outcome:
        return Outcome.error(
            message,
            expected=self.criterion,
            evidence=request.event_ids,
            evaluator=info,
            force_gate=True,
        )

    def _decide(
        self, response: JudgeResponse, request: JudgeRequest, info: dict[str, Any]
    ) -> Outcome:
        metadata = dict(response.metadata)
        info.update(
            model=metadata.get("model", self.model),
            explanation=response.explanation,
            metadata=metadata,
            judge_passed=response.passed,
        )
        limit = 1.0 if self.threshold is None else self.threshold
        by_judge = self.threshold is None and response.passed is not None
        passed = bool(response.passed) if by_judge else response.score >= limit
        decided = "the judge's verdict" if by_judge else f"threshold {limit:g}"
        message = f"judge score {response.score:.2f} ({decided})"
        if response.explanation:
            message = f"{message}: {response.explanation}"
        fields: dict[str, Any] = {
            "message": message,
            "expected": self.criterion,
            "observed": {"score": response.score, "passed": response.passed},
            "evidence": request.event_ids,
            "evaluator": info,
            "passed_by_judge": by_judge,
        }
        return Outcome(Status.PASS if passed else Status.FAIL, float(response.score), **fields)


NOT_RUN = "judged check not run"


"""The message of a judged check skipped on demand."""


def is_judged(check: Check) -> bool:
    """Whether ``check`` needs a judge (its ``evaluator_type`` is ``semantic``).

    >>> from agent_asserts.checks.traces import MaxSteps
    >>> from agent_asserts.checks.semantic import JudgeCheck
    >>> is_judged(JudgeCheck("polite")), is_judged(MaxSteps(3))
    (True, False)
    """
    return getattr(check, "evaluator_type", None) == "semantic"


@attrs.frozen(slots=False, repr=False, eq=False)
class JudgedNotRun(Check):
    """Stands for a judged check that was not run: ``not_applicable``, same name."""

    check: Check
    method: ClassVar[str] = "judged_not_run"
    evaluator_type: ClassVar[str] = "semantic"
    python_only: ClassVar[bool] = True

    def evaluate(self, record: TrialRecord) -> Outcome:
        return Outcome.not_applicable(NOT_RUN, details={"skipped": "judged"})

    def default_name(self) -> str:
        return self.check.default_name()

    def describe(self) -> str:
        return self.check.describe()

    def to_data(self) -> Any:
        return self.check.to_data()


def not_run_if_judged(check: Check) -> Check:
    """``JudgedNotRun(check)`` for a judged check, else ``check`` itself.

    >>> from agent_asserts.checks.traces import MaxSteps
    >>> not_run_if_judged(MaxSteps(3))
    MaxSteps(n=3)
    """
    return JudgedNotRun(check) if is_judged(check) else check


__all__ = ["NOT_RUN", "JudgeCheck", "JudgedNotRun", "is_judged", "not_run_if_judged"]
