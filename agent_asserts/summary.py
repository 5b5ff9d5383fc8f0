"""The text summary of results: ``str(case_result)``.

The first line holds the verdict, the case name, the tally and the score (not for a
FAILED case, which a failed gate decided whatever the mean score); then one block per
failed or soft-failed result with its message, the closest candidate event, the mismatch
paths with expected and actual values, and (without mismatches or a message) the expected and
observed values. Rendering never raises, whatever the values' ``repr`` does. The rows every
report renders are in :mod:`agent_asserts.result_rows`.

>>> from agent_asserts import run_case
>>> from agent_asserts.testing import demo_record
>>> print(run_case(demo_record(), lambda ctx: ctx.called_tool("refunds_lookup", count=2),
...                name="refund"))
FAILED refund: 1 check: 1 failed
  FAILED [gate] called_tool('refunds_lookup', count=2)
    matched 1 tool calls of 1 'refunds_lookup' calls, expected exactly 2
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from agent_asserts._text import escape_controls, safe_str
from agent_asserts.matching import render
from agent_asserts.status import Status, Verdict

if TYPE_CHECKING:
    from agent_asserts.results import AssertionResult, CaseResult

_TALLY = (
    (Status.PASS, "passed"),
    (Status.FAIL, "failed"),
    (Status.INVALID, "invalid"),
    (Status.EVALUATOR_ERROR, "evaluator error"),
    (Status.NOT_APPLICABLE, "not applicable"),
)
_WORD = {
    Status.FAIL: "FAILED",
    Status.INVALID: "INVALID",
    Status.EVALUATOR_ERROR: "ERROR",
}


def _render(value: Any) -> str:
    return render(value)  # never raises: a broken repr becomes the safe_repr placeholder


def mean_score(results: Sequence[AssertionResult]) -> float | None:
    """Mean score of the evaluated (``PASS``/``FAIL``) results; None when there are none.

    >>> from agent_asserts.results import AssertionResult
    >>> mean_score([AssertionResult(name="a", status="pass", score=1.0),
    ...             AssertionResult(name="b", status="fail", score=0.5)])
    0.75
    """
    scores = [r.score for r in results if r.evaluated]
    return sum(scores) / len(scores) if scores else None


def tally(results: tuple[AssertionResult, ...]) -> str:
    """``"3 checks: 2 passed, 1 failed"``: counts by status, zero counts left out.

    >>> tally(())
    '0 checks'
    """
    n = len(results)
    head = f"{n} check" + ("" if n == 1 else "s")
    parts = []
    for status, word in _TALLY:
        count = sum(1 for r in results if r.status is status)
        if count:
            plural = "s" if status is Status.EVALUATOR_ERROR and count > 1 else ""
            parts.append(f"{count} {word}{plural}")
    return f"{head}: {', '.join(parts)}" if parts else head


def header(case: CaseResult) -> str:
    """The first line of the summary.

    >>> from agent_asserts.results import CaseResult
    >>> header(CaseResult(name="c", verdict="skipped"))
    'SKIPPED c: 0 checks'
    """
    line = f"{case.verdict.value.upper()} {case.name}: {tally(case.results)}"
    score = case.score
    if score is None or case.verdict is Verdict.FAILED:  # a failed gate decides, not the mean
        return line
    return f"{line}; score {score:.2f}"


def result_title(result: AssertionResult) -> str:
    """``called_tool('refund', count=1)``, prefixed by the result name when a dialect or the
    user renamed it, and followed by the label.

    >>> from agent_asserts.results import AssertionResult
    >>> r = AssertionResult(name="tool_executed:x", status="fail", score=0.0,
    ...                     description="called_tool('x')", label="safety")
    >>> result_title(r)
    "tool_executed:x: called_tool('x') (label: safety)"
    """
    title = result.description or result.name
    # The method is the last call of the description: state('/a').equals(1) -> equals.
    method = title.rsplit(").", 1)[-1].split("(", 1)[0]
    if result.description and not (result.name == method or result.name.startswith(method + ":")):
        title = f"{result.name}: {title}"
    return f"{title} (label: {result.label})" if result.label else title


def result_block(result: AssertionResult, indent: str = "  ") -> list[str]:
    """The lines that explain one failed result.

    >>> from agent_asserts import EvalContext
    >>> from agent_asserts.testing import demo_record
    >>> result_block(EvalContext(demo_record()).max_steps(2).result)
    ['  FAILED [gate] max_steps(2)', '    expected at most 2 steps, got 4']
    """
    inner = indent + "  "
    word = _WORD.get(result.status, "FAILED")
    lines = [f"{indent}{word} [{result.severity.value}] {result_title(result)}"]
    if result.evaluated and (result.threshold is not None or 0.0 < result.score < 1.0):
        need = 1.0 if result.threshold is None else result.threshold
        lines.append(f"{inner}score {result.score:.2f}, needs {need:.2f}")
    if result.message:
        lines.extend(inner + part for part in result.message.splitlines())
    if result.closest is not None:
        lines.append(f"{inner}closest candidate: event {result.closest}")
    if result.mismatches:
        pad = inner + ("  " if result.closest is not None else "")
        lines.extend(pad + _mismatch_text(m) for m in result.mismatches)
    elif result.status is Status.FAIL and not result.message:
        if result.expected is not None:
            lines.append(f"{inner}expected: {_render(result.expected)}")
        if result.observed is not None:
            lines.append(f"{inner}got: {_render(result.observed)}")
    return lines


def _mismatch_text(mismatch: Any) -> str:
    return safe_str(mismatch)


def render_case(case: CaseResult) -> str:
    """The whole summary (see the module docstring).

    >>> from agent_asserts import EvalContext
    >>> from agent_asserts.testing import demo_record
    >>> ctx = EvalContext(demo_record(), name="refund"); _ = ctx.max_steps(2)
    >>> print(render_case(ctx.result()))
    FAILED refund: 1 check: 1 failed
      FAILED [gate] max_steps(2)
        expected at most 2 steps, got 4
    """
    lines = [header(case)]
    if case.error:
        lines.append(f"  error: {case.error}")
    if case.skip_reason is not None:
        lines.append(f"  skipped: {case.skip_reason}")
    if not case.results and case.error is None and case.skip_reason is None:
        lines.append("  warning: no assertions were recorded")
    for result in case.results:
        if result.failed:
            lines.extend(result_block(result))
    return escape_controls("\n".join(lines))  # record and suite data shown, never acting


__all__ = [
    "header",
    "mean_score",
    "render_case",
    "result_block",
    "result_title",
    "tally",
]
