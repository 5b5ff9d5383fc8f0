"""Our checks as a DeepEval metric (``pip install 'agent-asserts[deepeval]'``).

:class:`AgentAssertsMetric` is a DeepEval ``BaseMetric``: give it a case function ``fn(ctx)``,
a loaded suite, or the path of a suite file. ``measure(test_case)`` reads the run from the
``LLMTestCase`` — ``input`` the user's message, ``tools_called`` the tool calls (name,
``input_parameters``, ``output``), ``actual_output`` the reply, the token counts the usage
(the ``deepeval`` trace format, docs/traces.md) — or, when the test case's ``metadata`` holds
a trace under ``"agent_asserts_trace"`` (a :class:`~agent_asserts.record.TrialRecord`, any
trace the adapters read), that trace, which wins over ``tools_called``. ``expected_tools`` is
the reference trajectory: ``record.metadata["expected_tools"]`` for the checks, and one more
gate check, ``matches_trajectory`` (order ``strict``, arguments ``exact`` unless told
otherwise), named ``expected_tools/…``.

Then ``success`` is the gate verdict (``PASSED`` or ``SCORED``: never a threshold on a
score), ``score`` the case's score (the mean of the checks' scores), ``reason`` the summary
with the evidence, ``score_breakdown`` each check's score and ``grades`` each check's full
result. ``invalid`` is never a pass: an invalid gate check fails the metric, and the summary
says ``invalid``. No model, no network, no API key (docs/integrations.md says which DeepEval
settings keep it offline).
"""

from __future__ import annotations

from typing import Any, Final

import attrs
from deepeval.metrics import BaseMetric
from deepeval.test_case import LLMTestCase

from agent_asserts.integrations import (
    Checks,
    Grade,
    check_trajectory_modes,
    grades,
    merged,
    read_run,
    trajectory_case,
    verdict_grade,
)
from agent_asserts.record import TrialRecord
from agent_asserts.record.adapters.deepeval import reference_of
from agent_asserts.results import CaseResult

TRACE_KEY: Final = "agent_asserts_trace"
"""The key of a test case's ``metadata`` that carries the run's trace (it wins over
``tools_called``)."""

REFERENCE_CASE: Final = "expected_tools"
"""The name of the case that matches the run against ``expected_tools``."""


class AgentAssertsMetric(BaseMetric):  # type: ignore[no-untyped-call]  # its __init_subclass__
    """Run agent_asserts checks on the run of each DeepEval test case.

    Args:
        checks: A case function ``fn(ctx)``, a ``Suite``, or the path of a suite file.
        trajectory_order: The order mode of the ``expected_tools`` check (``strict``,
            ``in_order``, ``unordered``, ``subset``, ``superset``); None: no such check
            (the reference is still in ``record.metadata["expected_tools"]``).
        trajectory_arguments: Its argument mode (``exact``, ``superset``, ``subset``,
            ``ignore``, a matcher or a comparator).
        timeout: The case's time limit in seconds (default: none).
        name: The metric's name in DeepEval's report (default: the function's or suite's).
        async_mode: Whether DeepEval calls :meth:`a_measure` (both run the same checks).
        verbose_mode: Print each check's result (DeepEval's verbose logs).

    Raises:
        TypeError: ``checks`` is none of these.
        LoadError: the suite file has problems (each with its position).
        ValueError: an unknown ``trajectory_order`` or ``trajectory_arguments``.

    >>> from deepeval.test_case import LLMTestCase, ToolCall
    >>> metric = AgentAssertsMetric(lambda ctx: ctx.called_tool("refund", {"id": "A1"}),
    ...                             name="refund")
    >>> case = LLMTestCase(input="Refund A1", actual_output="Done.",
    ...                    tools_called=[ToolCall(name="refund", input_parameters={"id": "A2"})])
    >>> metric.measure(case), metric.is_successful()
    (0.0, False)
    >>> print(metric.reason)
    FAILED refund: 1 check: 1 failed
      FAILED [gate] called_tool('refund', arguments={'id': 'A1'})
        matched 0 tool calls of 1 'refund' calls, expected at least 1
        closest candidate: event e1
          $.arguments.id: expected 'A1', got 'A2'
    """

    def __init__(
        self,
        checks: Any,
        *,
        trajectory_order: str | None = "strict",
        trajectory_arguments: Any = "exact",
        timeout: float | None = None,
        name: str | None = None,
        async_mode: bool = True,
        verbose_mode: bool = False,
    ) -> None:
        # DeepEval copies a metric for each test case from the attributes named like the
        # constructor's parameters: the loaded checks are kept under ``checks`` (not reloaded)
        self.checks = checks if isinstance(checks, Checks) else Checks.of(checks, name=name)
        if trajectory_order is not None:  # the modes are checked now, not at the first case
            check_trajectory_modes(trajectory_order, trajectory_arguments)
        self.trajectory_order = trajectory_order
        self.trajectory_arguments = trajectory_arguments
        self.timeout = timeout
        self.name = name
        self.async_mode = async_mode
        self.verbose_mode = verbose_mode
        self.threshold = 1.0  # DeepEval asks for one; ``success`` is the gate verdict
        self.include_reason = True
        self.evaluation_model = "deterministic"  # no model: shown in DeepEval's report
        self.evaluation_cost = 0.0
        self.score_breakdown = {}
        self.grades: list[Grade] = []
        self.case: CaseResult | None = None

    @property
    def __name__(self) -> str:  # DeepEval's name for a metric
        return self.name or self.checks.name

    def measure(self, test_case: LLMTestCase, *args: Any, **kwargs: Any) -> float:
        """Run the checks on the test case's run; returns the score (``success`` says whether
        every gate check passed).

        Raises:
            RecordError: the test case's run cannot be read (the error names where).
        """
        self.error = None
        case = self.evaluate(test_case)
        verdict = verdict_grade(case)
        self.case = case
        self.grades = grades(case)
        self.success = verdict.passed
        self.score = case.score if case.score is not None else float(verdict.passed)
        self.reason = verdict.reason
        self.score_breakdown = {
            g.name: g.score if g.score is not None else 0.0 for g in self.grades
        }
        self.verbose_logs = "\n".join(
            f"{g.name}: {g.status} ({g.severity}): {g.reason}" for g in self.grades
        )
        if self.verbose_mode:
            print(self.verbose_logs)
        return self.score

    async def a_measure(self, test_case: LLMTestCase, *args: Any, **kwargs: Any) -> float:
        """:meth:`measure` (the checks are deterministic and need no model: nothing to await)."""
        return self.measure(test_case, *args, **kwargs)

    def is_successful(self) -> bool:
        """The gate verdict of the last :meth:`measure` (False after an error, or before)."""
        return self.error is None and self.success is True

    def evaluate(self, test_case: LLMTestCase) -> CaseResult:
        """The case result of the test case's run: the checks, and the ``expected_tools``
        check when the test case gives them."""
        reference = reference_of(test_case.expected_tools) if test_case.expected_tools else None
        record = record_of(test_case, reference)
        cases = self.checks.evaluate(record, timeout=self.timeout)
        if reference is not None and self.trajectory_order is not None:
            cases.append(
                trajectory_case(
                    record,
                    reference,
                    order=self.trajectory_order,
                    arguments=self.trajectory_arguments,
                    name=REFERENCE_CASE,
                    timeout=self.timeout,
                )
            )
        return merged(cases, self.__name__)


def record_of(test_case: LLMTestCase, reference: list[dict[str, Any]] | None = None) -> TrialRecord:
    """The record of a test case's run: the trace in its ``metadata["agent_asserts_trace"]``
    when there is one, else the test case itself (``tools_called``, ``input``,
    ``actual_output``…); ``reference`` (``expected_tools``) in its ``metadata``.

    Raises:
        RecordError: the trace or the test case cannot be read (naming where).
    """
    extra = test_case.metadata or {}
    if TRACE_KEY in extra:
        record = read_run(extra[TRACE_KEY])
    else:
        # the metadata as given (its objects are read, or named in the error, like any data)
        data = test_case.model_dump(
            mode="json", by_alias=True, exclude_none=True, exclude={"metadata"}
        )
        if extra:
            data["metadata"] = extra
        record = read_run(data, format="deepeval")
    if reference is not None and record.metadata.get("expected_tools") != reference:
        record = attrs.evolve(record, metadata={**record.metadata, "expected_tools": reference})
    return record


__all__ = ["REFERENCE_CASE", "TRACE_KEY", "AgentAssertsMetric", "record_of"]
