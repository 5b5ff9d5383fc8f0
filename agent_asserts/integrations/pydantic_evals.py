"""Our checks as a pydantic-evals evaluator (``pip install 'agent-asserts[pydantic-evals]'``).

:class:`AgentAsserts` is an ``Evaluator`` (its dataclass form): give it a case function
``fn(ctx)``, a loaded suite, or the path of a suite file. For each case of a dataset it reads
the run — the task's output when it is a run (a :class:`~agent_asserts.record.TrialRecord`, a
pydantic-ai run result, a message list, any trace the adapters read), else the OpenTelemetry
span tree pydantic-evals captured while the task ran (Pydantic AI's instrumentation) — runs
the checks on it and returns one named result per check plus the case's ``verdict``: a gate
check as an assertion (``True``/``False`` with the check's message as the reason), a soft one
as its score. ``invalid`` is never a pass: an invalid gate check is ``False`` with a reason
that starts ``invalid:``.

In a dataset file, name the suite file (relative to the working directory) and register the
type when loading::

    evaluators:
      - AgentAsserts: checks/refund.suite.yml

    Dataset.from_file("cases.yaml", custom_evaluator_types=[AgentAsserts])

docs/integrations.md has the full example and what pydantic-evals shows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic_evals.evaluators import EvaluationReason, Evaluator, EvaluatorContext

from agent_asserts.errors import AgentAssertsError
from agent_asserts.integrations import (
    Checks,
    grades,
    merged,
    read_run,
    unique_name,
    verdict_grade,
)
from agent_asserts.record import TrialRecord
from agent_asserts.record.adapters.objects import any_value


@dataclass(repr=False)
class AgentAsserts(Evaluator[Any, Any, Any]):
    """Run agent_asserts checks on the run of each case.

    Args:
        checks: A suite file's path (what a dataset file gives), a ``Suite``, or a case
            function ``fn(ctx)``.
        format: The trace format of the task's output (default: detected).
        timeout: The case's time limit in seconds (default: none).
    """

    checks: Any
    format: str = "auto"
    timeout: float | None = None
    _loaded: Checks | None = field(default=None, init=False, compare=False)

    def _checks(self) -> Checks:
        if self._loaded is None:
            self._loaded = Checks.of(self.checks)
        return self._loaded

    def evaluate(self, ctx: EvaluatorContext[Any, Any, Any]) -> dict[str, EvaluationReason]:
        """One named result per check, and ``verdict`` for the case."""
        checks = self._checks()
        record = run_of(ctx, self.format)
        case = merged(checks.evaluate(record, timeout=self.timeout), checks.name)
        out: dict[str, EvaluationReason] = {}
        for grade in grades(case):
            # a gate check is an assertion; a soft one its score (an invalid one, which has
            # no score, an assertion that fails)
            out[unique_name(out, grade.name)] = EvaluationReason(
                value=grade.value, reason=grade.reason
            )
        verdict = verdict_grade(case)
        out[unique_name(out, "verdict")] = EvaluationReason(
            value=verdict.passed, reason=verdict.reason
        )
        return out


def run_of(ctx: EvaluatorContext[Any, Any, Any], format: str = "auto") -> TrialRecord:
    """The record of the case's run: the task's output when it is a run, else the span tree.

    Raises:
        RecordError: neither the output nor the captured spans are a run the adapters read
            (the error of the output is kept, the span tree's is added to it).
    """
    output = ctx.output
    try:
        return read_run(output, format=format)
    except (AgentAssertsError, TypeError, ValueError) as output_error:
        try:
            tree = ctx.span_tree
        except Exception:
            raise output_error from None
        export = otlp_of(tree)
        if not export["resourceSpans"][0]["scopeSpans"][0]["spans"]:
            raise output_error from None
        return TrialRecord.from_trace(export, "otel")


def otlp_of(tree: Any) -> dict[str, Any]:
    """A pydantic-evals ``SpanTree`` as an OTLP/JSON export (what the ``otel`` adapter reads)."""
    spans = []
    for node in _walk(tree):
        span: dict[str, Any] = {
            "traceId": f"{node.trace_id:032x}",
            "spanId": f"{node.span_id:016x}",
            "name": node.name,
            "startTimeUnixNano": str(_nanos(node.start_timestamp)),
            "endTimeUnixNano": str(_nanos(node.end_timestamp)),
            "attributes": [
                {"key": k, "value": any_value(v)} for k, v in (node.attributes or {}).items()
            ],
        }
        if node.parent_span_id is not None:
            span["parentSpanId"] = f"{node.parent_span_id:016x}"
        status = getattr(node, "status", "unset")
        if status == "error":
            span["status"] = {"code": 2}
        elif status == "ok":
            span["status"] = {"code": 1}
        spans.append(span)
    return {"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}


def _walk(tree: Any) -> list[Any]:
    out: list[Any] = []
    stack = list(reversed(list(getattr(tree, "roots", ()))))
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(reversed(list(node.children)))
    return out


def _nanos(when: datetime) -> int:
    return int(when.timestamp() * 1_000_000_000)


__all__ = ["AgentAsserts", "otlp_of", "run_of"]
