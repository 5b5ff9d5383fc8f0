"""Results and verdicts: what the evaluator concluded.

One :class:`AssertionResult` per recorded check, one :class:`CaseResult` per case, and the
:class:`VerdictResolver` that turns the first into the second (seed 004's table, extended with
the statuses of seed 002).

>>> r = AssertionResult(name="used_no_tools", status=Status.FAIL, score=0.0)
>>> r.failed, r.severity
(True, <Severity.GATE: 'gate'>)
>>> VerdictResolver().resolve([r])
<Verdict.FAILED: 'failed'>

``str(case_result)`` is the text summary (:func:`render_case`, at the end): the first line
holds the verdict, the case name, the tally and the score (not for a FAILED case, which a
failed gate decided whatever the mean score); then one block per failed or soft-failed result
with its message, the closest candidate event, the mismatch paths with expected and actual
values, and (without mismatches or a message) the expected and observed values. Rendering
never raises, whatever the values' ``repr`` does.

The rows every report renders (at the very end): :class:`ReportRow` pairs one case result
with the record it was evaluated on (optional: the HTML timeline and the JSON ``records`` need
it) and a source label (a record file, a test node id); :func:`rows_of` accepts what users have
at hand (one case, a list, a ``BatchResult``, rows already built); :func:`tally_line` counts
cases by verdict. The report renderers (:mod:`agent_asserts.report`, an edge) read these; the
results and batches below them use them without importing a renderer.

>>> tally_line([CaseResult("a", "passed"), CaseResult("b", "failed")])
'2 cases: 1 passed, 1 failed; pass rate 50.0%'

>>> from agent_asserts import run_case
>>> from agent_asserts.testing import demo_record
>>> print(run_case(demo_record(), lambda ctx: ctx.called_tool("refunds_lookup", count=2),
...                name="refund"))
FAILED refund: 1 check: 1 failed
  FAILED [gate] called_tool('refunds_lookup', count=2)
    matched 1 tool calls of 1 'refunds_lookup' calls, expected exactly 2
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, cast, runtime_checkable

import attrs

from agent_asserts._reporting import report_layer
from agent_asserts._text import LazyText, alias_repr, escape_controls, safe_str, settle, text_of
from agent_asserts._values import as_severity, as_status, as_tuple, check_unit_interval, to_jsonable
from agent_asserts._version import __version__
from agent_asserts.errors import AgentAssertsError
from agent_asserts.matching import render
from agent_asserts.status import (
    EVALUATED_STATUSES,
    FAILING_STATUSES,
    Severity,
    Status,
    Verdict,
)

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord


class RequirementFailed(AgentAssertsError):
    """Raised by ``EvalContext.require()`` when its condition is false; stops the case.

    >>> str(RequirementFailed("fixture", "no reply"))
    "requirement 'fixture' failed: no reply"
    """

    def __init__(self, name: str, message: str = "") -> None:
        self.name = name
        self.message = message
        text = f"requirement {name!r} failed"
        super().__init__(f"{text}: {message}" if message else text)


class Skipped(AgentAssertsError):
    """Raised by ``EvalContext.skip()``; the runner turns it into a ``SKIPPED`` verdict.

    >>> Skipped("no sandbox").reason
    'no sandbox'
    """

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


@attrs.frozen(slots=False)
class EvaluatorInfo:
    """Who evaluated a result: ``type`` is deterministic, semantic or custom.

    >>> EvaluatorInfo().type
    'deterministic'
    """

    type: str = "deterministic"
    version: str = f"agent_asserts {__version__}"
    details: Mapping[str, Any] = attrs.field(factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form.

        >>> EvaluatorInfo(details={"model": "m"}).to_dict()["details"]
        {'model': 'm'}
        """
        return {"type": self.type, "version": self.version, "details": dict(self.details)}


@attrs.frozen
class LogEntry:
    """A diagnostic left by ``EvalContext.log()``; it never affects the verdict.

    >>> str(LogEntry("branch", {"taken": "a"}))
    "branch {'taken': 'a'}"
    """

    message: str
    context: Mapping[str, Any] = attrs.field(factory=dict)

    def __str__(self) -> str:
        if not self.context:
            return self.message
        items = ", ".join(f"{key!r}: {render(value)}" for key, value in self.context.items())
        return f"{self.message} {{{items}}}"


def _score_validator(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value is None or (type(value) is float and 0.0 <= value <= 1.0):
        return
    check_unit_interval(attribute.name, value)


@attrs.frozen(repr=False, slots=False)
class AssertionResult:
    """One recorded check: status, score, severity and the evidence behind it.

    For evaluated results (``PASS``/``FAIL``) the status follows the score:
    ``score >= (threshold if threshold is not None else 1.0)``. ``with_threshold`` keeps that
    true, so ``.at_least(0.0)`` always passes.

    ``message`` and ``description`` may be given as :class:`~agent_asserts._text.LazyText`
    (what the fluent path does): the text renders itself the first time it is read, so a
    result nobody reads never formats its text. Reading, comparing, pickling and ``to_dict()``
    see plain strings.

    >>> r = AssertionResult(name="similarity", status=Status.FAIL, score=0.92)
    >>> r.passed, r.with_threshold(0.9).passed
    (False, True)
    """

    name: str
    status: Status = attrs.field(converter=as_status)
    score: float = attrs.field(validator=_score_validator)
    severity: Severity = attrs.field(default=Severity.GATE, converter=as_severity)
    threshold: float | None = attrs.field(default=None, validator=_score_validator)
    label: str | None = None
    _message: str | LazyText = attrs.field(default="", alias="message", eq=text_of)
    expected: Any = None
    observed: Any = None
    mismatches: tuple[Any, ...] = attrs.field(default=(), converter=as_tuple)
    closest: str | None = None
    evidence: tuple[Any, ...] = attrs.field(default=(), converter=as_tuple)
    evaluator: EvaluatorInfo = attrs.field(factory=EvaluatorInfo)
    _description: str | LazyText = attrs.field(default="", alias="description", eq=text_of)
    score_decides: bool = True

    @property
    def message(self) -> str:
        """What the check found, in words (a lazy text renders on first read).

        >>> AssertionResult(name="x", status="pass", score=1.0, message="ok").message
        'ok'
        """
        return settle(self, "_message")

    @property
    def description(self) -> str:
        """The call that built the check, e.g. ``step_count(3)``.

        >>> AssertionResult(name="x", status="pass", score=1.0, description="x()").description
        'x()'
        """
        return settle(self, "_description")

    def __repr__(self) -> str:
        return alias_repr(self)

    def __attrs_post_init__(self) -> None:
        if self.status in EVALUATED_STATUSES and self.score_decides:  # self.evaluated
            limit = 1.0 if self.threshold is None else self.threshold
            if (self.score >= limit) != (self.status is Status.PASS):
                raise ValueError(
                    f"status {self.status.value!r} contradicts score {self.score!r} with "
                    f"threshold {self.threshold!r} (pass means score >= threshold, 1.0 if None)"
                )

    @property
    def passed(self) -> bool:
        """True for a ``PASS`` result.

        >>> AssertionResult(name="x", status="pass", score=1.0).passed
        True
        """
        return self.status is Status.PASS

    @property
    def failed(self) -> bool:
        """True for ``FAIL``, ``INVALID`` and ``EVALUATOR_ERROR``.

        >>> AssertionResult(name="x", status="invalid", score=0.0).failed
        True
        """
        return self.status in FAILING_STATUSES

    @property
    def evaluated(self) -> bool:
        """True when the check was evaluated (``PASS`` or ``FAIL``).

        >>> AssertionResult(name="x", status="not_applicable", score=0.0).evaluated
        False
        """
        return self.status in EVALUATED_STATUSES

    def with_threshold(self, threshold: float | None) -> AssertionResult:
        """A copy with ``threshold``, its status re-derived from the score.

        >>> AssertionResult(name="x", status="fail", score=0.0).with_threshold(0.0).status
        <Status.PASS: 'pass'>
        """
        check_unit_interval("threshold", threshold)
        status = self.status
        if self.evaluated and self.score_decides:
            limit = 1.0 if threshold is None else threshold
            status = Status.PASS if self.score >= limit else Status.FAIL
        return attrs.evolve(self, threshold=threshold, status=status)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (its schema is documented in docs/reports.md).

        >>> AssertionResult(name="x", status="pass", score=1.0).to_dict()["status"]
        'pass'
        """
        return {
            "name": self.name,
            "status": self.status.value,
            "score": self.score,
            "severity": self.severity.value,
            "threshold": self.threshold,
            "label": self.label,
            "message": self.message,
            "expected": to_jsonable(self.expected),
            "observed": to_jsonable(self.observed),
            "mismatches": [to_jsonable(m) for m in self.mismatches],
            "closest": self.closest,
            "evidence": [to_jsonable(e) for e in self.evidence],
            "evaluator": self.evaluator.to_dict(),
            "description": self.description,
            "score_decides": self.score_decides,
        }


class VerdictResolver:
    """Resolves a case verdict; the first rule that applies wins.

    1. an uncaught error or a passed time limit → ``FAILED``;
    2. any ``GATE`` result failed (``FAIL``, ``INVALID``, ``EVALUATOR_ERROR``) → ``FAILED``;
    3. ``skip()`` was called → ``SKIPPED``;
    4. any ``SOFT`` result failed → ``SCORED``;
    5. otherwise ``PASSED``. ``NOT_APPLICABLE`` never fails a case.

    >>> soft = AssertionResult(name="s", status="fail", score=0.5, severity="soft")
    >>> VerdictResolver().resolve([soft]), VerdictResolver().resolve([soft], skipped=True)
    (<Verdict.SCORED: 'scored'>, <Verdict.SKIPPED: 'skipped'>)
    """

    def resolve(
        self, results: Iterable[AssertionResult], *, error: bool = False, skipped: bool = False
    ) -> Verdict:
        """Apply the table above to ``results``.

        >>> gate = AssertionResult(name="g", status="fail", score=0.0)
        >>> resolve = VerdictResolver().resolve
        >>> resolve([]), resolve([gate], skipped=True), resolve([], error=True)
        (<Verdict.PASSED: 'passed'>, <Verdict.FAILED: 'failed'>, <Verdict.FAILED: 'failed'>)
        """
        if error:
            return Verdict.FAILED
        soft_failed = False
        for result in results:
            if result.status in FAILING_STATUSES:  # result.failed
                if result.severity is Severity.GATE:
                    return Verdict.FAILED
                soft_failed = True
        if skipped:
            return Verdict.SKIPPED
        return Verdict.SCORED if soft_failed else Verdict.PASSED


@attrs.frozen
class CaseResult:
    """The outcome of one case: its verdict, its results, logs and any error.

    ``str()`` gives the summary (see :func:`render_case`).

    >>> ok = AssertionResult(name="used_no_tools", status="pass", score=1.0)
    >>> print(CaseResult(name="demo", verdict=Verdict.PASSED, results=(ok,)))
    PASSED demo: 1 check: 1 passed; score 1.00
    """

    name: str
    verdict: Verdict = attrs.field(converter=Verdict)
    results: tuple[AssertionResult, ...] = attrs.field(default=(), converter=as_tuple)
    error: str | None = None
    skip_reason: str | None = None
    logs: tuple[LogEntry, ...] = attrs.field(default=(), converter=as_tuple)
    metadata: Mapping[str, Any] = attrs.field(factory=dict)

    @property
    def score(self) -> float | None:
        """Mean score of the ``PASS``/``FAIL`` results, ``None`` when there are none.

        >>> ok = AssertionResult(name="a", status="pass", score=1.0)
        >>> CaseResult("c", "passed", results=(ok,)).score, CaseResult("c", "passed").score
        (1.0, None)
        """
        return mean_score(self.results)

    @property
    def passed(self) -> bool:
        """True when the verdict is ``PASSED``.

        >>> CaseResult("c", "passed").passed, CaseResult("c", "scored").passed
        (True, False)
        """
        return self.verdict is Verdict.PASSED

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (its schema is documented in docs/reports.md).

        >>> CaseResult(name="c", verdict="passed").to_dict()["verdict"]
        'passed'
        """
        return {
            "name": self.name,
            "verdict": self.verdict.value,
            "score": self.score,
            "error": self.error,
            "skip_reason": self.skip_reason,
            "results": [r.to_dict() for r in self.results],
            "logs": [{"message": e.message, "context": to_jsonable(e.context)} for e in self.logs],
            "metadata": to_jsonable(self.metadata),
        }

    def __str__(self) -> str:
        return render_case(self)

    def _repr_html_(self) -> str:
        return report_layer().html_fragment([self])


# The text summary: str(case_result) ------------------------------------------------------

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


# -- the rows every report renders: a case with its record and source, and the counts --------

VERDICT_ORDER = (Verdict.FAILED, Verdict.SCORED, Verdict.SKIPPED, Verdict.PASSED)


@attrs.frozen
class ReportRow:
    """One case of a report.

    Attributes:
        case: The case result.
        record: The record it was evaluated on, when known (None otherwise).
        source: Where the record or the case came from (a file, a test id), or None.
    """

    case: CaseResult
    record: TrialRecord | None = None
    source: str | None = None


@runtime_checkable
class CaseLike(Protocol):
    """What a row needs of a case (a :class:`~agent_asserts.results.CaseResult`)."""

    name: str
    verdict: Verdict


@runtime_checkable
class HasRows(Protocol):
    """Anything that knows its report rows (e.g. ``BatchResult``)."""

    def report_rows(self) -> tuple[ReportRow, ...]:
        """The rows, in report order."""
        ...


Cases: TypeAlias = "CaseResult | ReportRow | HasRows | Iterable[CaseResult | ReportRow]"


def rows_of(
    cases: Cases,
    *,
    records: Sequence[TrialRecord | None] | None = None,
    sources: Sequence[str | None] | None = None,
) -> tuple[ReportRow, ...]:
    """Normalise ``cases`` into report rows.

    Args:
        cases: A case result, an iterable of case results (or rows), or an object with
            ``report_rows()``.
        records: One record (or None) per case, in the same order.
        sources: One source label (or None) per case, in the same order.

    Raises:
        ValueError: ``records`` or ``sources`` do not have one entry per case.

    >>> rows_of(CaseResult("a", "passed"))[0].case.name
    'a'
    """
    if isinstance(cases, HasRows):
        rows = list(cases.report_rows())
    elif isinstance(cases, CaseLike | ReportRow):
        rows = [_row(cases)]
    else:
        rows = [_row(c) for c in cast("Iterable[CaseResult | ReportRow]", cases)]
    for label, extra in (("records", records), ("sources", sources)):
        if extra is not None and len(extra) != len(rows):
            raise ValueError(f"'{label}' needs one entry per case ({len(rows)}, got {len(extra)})")
    if records is not None:
        rows = [attrs.evolve(r, record=rec) for r, rec in zip(rows, records, strict=True)]
    if sources is not None:
        rows = [attrs.evolve(r, source=src) for r, src in zip(rows, sources, strict=True)]
    return tuple(rows)


def _row(item: CaseResult | ReportRow) -> ReportRow:
    if isinstance(item, ReportRow):
        return item
    if isinstance(item, CaseLike):
        return ReportRow(item)
    raise TypeError(f"expected a CaseResult or a ReportRow (got {type(item).__name__})")


def verdict_counts(cases: Iterable[CaseResult]) -> dict[Verdict, int]:
    """How many cases have each verdict (every verdict present, in report order).

    >>> verdict_counts([CaseResult("a", "failed")])[Verdict.FAILED]
    1
    """
    counts = dict.fromkeys(VERDICT_ORDER, 0)
    for case in cases:
        counts[case.verdict] += 1
    return counts


def pass_rate(cases: Sequence[CaseResult]) -> float | None:
    """The fraction of cases whose verdict is ``PASSED`` (None without cases).

    >>> pass_rate([CaseResult("a", "passed"), CaseResult("b", "scored")])
    0.5
    """
    if not cases:
        return None
    return sum(1 for c in cases if c.verdict is Verdict.PASSED) / len(cases)


def unloaded_suite(case: CaseResult) -> bool:
    """True for the ``FAILED`` case that stands for a suite file that could not be loaded
    (``metadata["input"] == "suite"``, as ``agent-asserts check`` marks it): every report
    counts it as a suite that could not be loaded, not as a case.

    >>> unloaded_suite(CaseResult("s.yml", "failed", metadata={"input": "suite"}))
    True
    """
    return case.metadata.get("input") == "suite"


def tally_line(cases: Sequence[CaseResult]) -> str:
    """``"3 cases: 2 passed, 1 failed; pass rate 66.7%"`` (zero counts left out), then how
    many suites could not be loaded, if any (:func:`unloaded_suite`; not counted as cases).

    >>> tally_line([])
    '0 cases'
    >>> tally_line([CaseResult("a", "passed"),
    ...             CaseResult("s.yml", "failed", metadata={"input": "suite"})])
    '1 case: 1 passed; pass rate 100.0%; 1 suite could not be loaded'
    """
    suites = sum(1 for case in cases if unloaded_suite(case))
    if suites:
        cases = [case for case in cases if not unloaded_suite(case)]
    n = len(cases)
    head = f"{n} case" + ("" if n == 1 else "s")
    counts = verdict_counts(cases)
    parts = [f"{counts[v]} {v.value}" for v in (Verdict.PASSED, *VERDICT_ORDER[:3]) if counts[v]]
    rate = pass_rate(cases)
    line = head if rate is None else f"{head}: {', '.join(parts)}; pass rate {rate:.1%}"
    if suites:
        line += f"; {suites} suite{'s' if suites != 1 else ''} could not be loaded"
    return line


__all__ = [
    "header",
    "mean_score",
    "render_case",
    "result_block",
    "result_title",
    "tally",
]


__all__ = [
    "VERDICT_ORDER",
    "AssertionResult",
    "CaseLike",
    "CaseResult",
    "Cases",
    "EvaluatorInfo",
    "HasRows",
    "LogEntry",
    "ReportRow",
    "RequirementFailed",
    "Severity",
    "Skipped",
    "Status",
    "Verdict",
    "VerdictResolver",
    "as_severity",
    "as_status",
    "mean_score",
    "pass_rate",
    "rows_of",
    "tally_line",
    "unloaded_suite",
    "verdict_counts",
]
