"""Our checks as an MLflow GenAI scorer (``pip install 'agent-asserts[mlflow]'``).

:func:`agent_asserts_scorer` makes an MLflow ``Scorer`` (the ``mlflow.genai.scorers.scorer``
form) from a case function ``fn(ctx)``, a loaded suite, or the path of a suite file. MLflow
calls it with the row's ``trace``, ``outputs`` and ``expectations`` (directly, or from
``mlflow.genai.evaluate``); it reads the run from the trace — the ``mlflow`` format of
docs/traces.md: tool spans are the tool calls, model spans the model calls — or from
``outputs`` when there is no trace (any run the adapters read: a message list, a
``TrialRecord``…), runs the checks and returns one ``Feedback`` per check plus ``verdict``:

* a gate check: ``True``/``False``, the rationale its message with the evidence;
* a soft check: its score (0.0 to 1.0);
* ``invalid`` or ``evaluator_error``: ``False``, the rationale starting ``invalid:`` (never a
  pass);
* ``verdict``: ``True`` when every gate check passed, the rationale the case summary.

A row's ``expectations`` reach the checks as ``ctx.record.metadata["expectations"]``: a
reference trajectory given there is what ``ctx.matches_trajectory`` compares with.

docs/integrations.md has the full example and what MLflow shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs
from mlflow.entities import AssessmentSource, Feedback, Trace
from mlflow.genai.scorers import Scorer, scorer

from agent_asserts.errors import AgentAssertsError
from agent_asserts.integrations import Checks, Grade, grades, merged, read_run, unique_name
from agent_asserts.record import TrialRecord
from agent_asserts.results import CaseResult

_ROOT_ONLY = 1
"""The spans of the trace ``mlflow.genai.evaluate`` makes for a row without one: its root
span, holding the row's inputs and outputs and no step of a run."""


def run_of(trace: Trace | None, outputs: Any = None, *, format: str = "auto") -> TrialRecord:
    """The record of a row's run: its trace, else its ``outputs``.

    The trace is read (format ``mlflow``) unless it is the single-span trace MLflow makes for a
    row given without one and ``outputs`` is a run (``format`` is the format of ``outputs``).

    Raises:
        RecordError: neither the trace nor ``outputs`` is a run the adapters read.
        ValueError: there is neither a trace nor ``outputs``.
    """
    if trace is not None and (outputs is None or len(trace.data.spans) > _ROOT_ONLY):
        return read_run(trace, format="mlflow")
    if outputs is None:
        raise ValueError("agent_asserts scorer: the row has no trace and no outputs to read")
    try:
        return read_run(outputs, format=format)
    except (AgentAssertsError, TypeError, ValueError):
        if trace is None:
            raise
        return read_run(trace, format="mlflow")


def with_expectations(record: TrialRecord, expectations: Mapping[str, Any] | None) -> TrialRecord:
    """``record`` with the row's expectations in ``metadata["expectations"]`` (where a check
    reads a reference trajectory)."""
    if not expectations:
        return record
    metadata = {**record.metadata, "expectations": dict(expectations)}
    return attrs.evolve(record, metadata=metadata)


def feedback_of(grade: Grade, source: AssessmentSource) -> Feedback:
    """One result as an MLflow ``Feedback``: a gate check's pass (``False`` when ``invalid``),
    a soft check's score; the reason as its rationale, status and severity in its metadata."""
    return Feedback(
        name=grade.name,
        value=grade.value,
        rationale=grade.reason,
        source=source,
        metadata={"status": grade.status, "severity": grade.severity},
    )


def feedbacks_of(case: CaseResult, source: AssessmentSource) -> list[Feedback]:
    """One ``Feedback`` per result of ``case`` (names made unique) and its ``verdict``.

    >>> from agent_asserts.integrations import Checks
    >>> from agent_asserts.testing import demo_record
    >>> [case] = Checks.of(lambda ctx: ctx.called_tool("refunds_issue")).evaluate(demo_record())
    >>> source = AssessmentSource(source_type="CODE", source_id="agent_asserts")
    >>> [(f.name, f.value, f.rationale) for f in feedbacks_of(case, source)]
    [('called_tool:refunds_issue', True, 'matched 1 tool calls (evidence: e3)'), ('verdict', True, 'PASSED <lambda>: 1 check: 1 passed; score 1.00')]
    """  # noqa: E501
    out: list[Feedback] = []
    taken: set[str] = set()
    for grade in grades(case, verdict=True):
        name = unique_name(taken, grade.name)
        taken.add(name)
        out.append(feedback_of(attrs.evolve(grade, name=name), source))
    return out


def agent_asserts_scorer(
    checks: Any,
    *,
    name: str = "agent_asserts",
    format: str = "auto",
    timeout: float | None = None,
) -> Scorer:
    """An MLflow scorer that runs ``checks`` (a case function, a ``Suite`` or a suite file's
    path) on each row's run.

    Args:
        checks: What to check.
        name: The scorer's name (MLflow's name for it, and for its errors).
        format: The trace format of ``outputs`` when they are read (default: detected).
        timeout: The case's time limit in seconds (default: none).

    Raises:
        TypeError: ``checks`` is none of these.
        LoadError: the suite file has problems (each with its position).

    >>> checked = agent_asserts_scorer("docs/examples/refunds.suite.yml", name="refunds")
    >>> checked.name
    'refunds'
    """
    loaded = Checks.of(checks)
    source = AssessmentSource(source_type="CODE", source_id=name)

    def agent_asserts(
        outputs: Any = None,
        expectations: dict[str, Any] | None = None,
        trace: Trace | None = None,
    ) -> list[Feedback]:
        record = with_expectations(run_of(trace, outputs, format=format), expectations)
        case = merged(loaded.evaluate(record, timeout=timeout), loaded.name)
        return feedbacks_of(case, source)

    return scorer(agent_asserts, name=name)


__all__ = ["agent_asserts_scorer", "feedback_of", "feedbacks_of", "run_of", "with_expectations"]
