"""What a live processor emits for each case result: the ``gen_ai.evaluation.result`` event.

The names come from the OpenTelemetry GenAI semantic conventions (the evaluation event and its
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

from typing import TYPE_CHECKING, Any

from agent_asserts.live.evaluation import has_error

if TYPE_CHECKING:
    from agent_asserts.results import CaseResult

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


__all__ = ["EVENT_NAME", "SCOPE_NAME", "SPAN_NAME", "evaluation_attributes", "first_failure"]
