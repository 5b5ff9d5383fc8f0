"""Judged checks on demand: a judged check replaced by one that says it was not run.

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

from agent_asserts.checks.base import Check
from agent_asserts.outcome import Outcome

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord

NOT_RUN = "judged check not run"
"""The message of a judged check skipped on demand."""


def is_judged(check: Check) -> bool:
    """Whether ``check`` needs a judge (its ``evaluator_type`` is ``semantic``).

    >>> from agent_asserts.checks.cost import MaxSteps
    >>> from agent_asserts.checks.semantic import JudgeCheck
    >>> is_judged(JudgeCheck("polite")), is_judged(MaxSteps(3))
    (True, False)
    """
    return getattr(check, "evaluator_type", None) == "semantic"


@attrs.frozen
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

    >>> from agent_asserts.checks.cost import MaxSteps
    >>> not_run_if_judged(MaxSteps(3))
    MaxSteps(n=3)
    """
    return JudgedNotRun(check) if is_judged(check) else check


__all__ = ["NOT_RUN", "JudgedNotRun", "is_judged", "not_run_if_judged"]
