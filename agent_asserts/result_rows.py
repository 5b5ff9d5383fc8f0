"""The rows every report renders: one case result with its record and source.

A :class:`ReportRow` pairs one case result with the record it was evaluated on (optional:
the HTML timeline and the JSON ``records`` need it) and a source label (a record file, a test
node id); :func:`rows_of` accepts what users have at hand (one case, a list, a
``BatchResult``, rows already built); :func:`tally_line` counts cases by verdict. The report
renderers (:mod:`agent_asserts.report`, an edge) read these; the results and batches below
them use them without importing a renderer.

>>> from agent_asserts.results import CaseResult
>>> tally_line([CaseResult("a", "passed"), CaseResult("b", "failed")])
'2 cases: 1 passed, 1 failed; pass rate 50.0%'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Protocol, TypeAlias, cast, runtime_checkable

import attrs

from agent_asserts.status import Verdict

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord
    from agent_asserts.results import CaseResult

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

    >>> from agent_asserts.results import CaseResult
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

    >>> from agent_asserts.results import CaseResult
    >>> verdict_counts([CaseResult("a", "failed")])[Verdict.FAILED]
    1
    """
    counts = dict.fromkeys(VERDICT_ORDER, 0)
    for case in cases:
        counts[case.verdict] += 1
    return counts


def pass_rate(cases: Sequence[CaseResult]) -> float | None:
    """The fraction of cases whose verdict is ``PASSED`` (None without cases).

    >>> from agent_asserts.results import CaseResult
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

    >>> from agent_asserts.results import CaseResult
    >>> unloaded_suite(CaseResult("s.yml", "failed", metadata={"input": "suite"}))
    True
    """
    return case.metadata.get("input") == "suite"


def tally_line(cases: Sequence[CaseResult]) -> str:
    """``"3 cases: 2 passed, 1 failed; pass rate 66.7%"`` (zero counts left out), then how
    many suites could not be loaded, if any (:func:`unloaded_suite`; not counted as cases).

    >>> tally_line([])
    '0 cases'
    >>> from agent_asserts.results import CaseResult
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
    "VERDICT_ORDER",
    "CaseLike",
    "Cases",
    "HasRows",
    "ReportRow",
    "pass_rate",
    "rows_of",
    "tally_line",
    "unloaded_suite",
    "verdict_counts",
]
