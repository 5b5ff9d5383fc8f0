"""``BatchResult``: the results of one suite (or case function) over many records.

By default it keeps every case result in input order, with the position and source of its
record, and renders the report (through :mod:`agent_asserts._reporting`: the report renderers
are an edge above batches). Whether or not it keeps them, it counts them as they come
(:class:`BatchSummary`: verdicts, failed checks, k-of-N tallies per case name), which is all a
batch run with ``keep_results=False`` holds: its memory does not grow with the batch.

>>> from agent_asserts.results import CaseResult
>>> b = BatchResult((CaseResult("a", "passed"), CaseResult("a", "failed")), (0, 1))
>>> b.pass_rate, b.passed, b.verdict_counts()["failed"]
(0.5, False, 1)
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import attrs

from agent_asserts._reporting import report_layer
from agent_asserts.record import TrialRecord
from agent_asserts.results import VERDICT_ORDER, CaseResult, ReportRow, Verdict
from agent_asserts.trials import TrialsResult

_VALUES: tuple[str, ...] = tuple(v.value for v in VERDICT_ORDER)

CaseSummary = tuple[str, Verdict, tuple[str, ...]]
"""What a batch counts of one case: its name, its verdict and the names of its failed results
(what a worker sends back when the batch does not keep the results)."""

NOT_KEPT = (
    "this batch kept no case results (evaluate_many(..., keep_results=False)): it has no "
    "report rows; use keep_results=True, or on_result= to receive every result as it comes"
)


def case_summary(case: CaseResult) -> CaseSummary:
    """What a batch counts of ``case``.

    >>> from agent_asserts.results import AssertionResult
    >>> bad = AssertionResult(name="max_steps:3", status="fail", score=0.0)
    >>> case_summary(CaseResult("c", "failed", results=(bad,)))
    ('c', <Verdict.FAILED: 'failed'>, ('max_steps:3',))
    """
    return case.name, case.verdict, tuple(r.name for r in case.results if r.failed)


@attrs.frozen
class BatchSummary:
    """The counts of a batch's cases (kept whether or not the cases are).

    Attributes:
        cases: How many cases were evaluated.
        verdicts: Cases per verdict value, in report order (``failed``, ``scored``,
            ``skipped``, ``passed``).
        failures: Failed results (``FAIL``, ``INVALID``, ``EVALUATOR_ERROR``) per result
            name, most frequent first (ties by name).
        trials: Per case name, in the order first seen: (cases, skipped, passed).

    >>> summary = BatchSummary.of([CaseResult("a", "passed"), CaseResult("a", "skipped")])
    >>> summary.cases, summary.verdicts["passed"], summary.trials
    (2, 1, {'a': (2, 1, 1)})
    """

    cases: int = 0
    verdicts: Mapping[str, int] = attrs.field(factory=lambda: dict.fromkeys(_VALUES, 0))
    failures: Mapping[str, int] = attrs.field(factory=dict)
    trials: Mapping[str, tuple[int, int, int]] = attrs.field(factory=dict)

    @classmethod
    def of(cls, cases: Iterable[CaseResult]) -> BatchSummary:
        """The counts of ``cases``."""
        tally = Tally()
        for case in cases:
            tally.add(case_summary(case))
        return tally.summary()


class Tally:
    """Counts cases one by one into a :class:`BatchSummary`.

    >>> tally = Tally()
    >>> tally.add(("a", Verdict.FAILED, ("max_steps:3",)))
    >>> tally.summary().failures
    {'max_steps:3': 1}
    """

    def __init__(self) -> None:
        self.verdicts: Counter[Verdict] = Counter()
        self.failures: Counter[str] = Counter()
        self.names: dict[str, list[int]] = {}

    def add(self, case: CaseSummary) -> None:
        """Count one case."""
        name, verdict, failed = case
        self.verdicts[verdict] += 1
        self.failures.update(failed)
        counts = self.names.get(name)
        if counts is None:
            counts = self.names[name] = [0, 0, 0]
        counts[0] += 1
        counts[1] += verdict is Verdict.SKIPPED
        counts[2] += verdict is Verdict.PASSED

    def summary(self) -> BatchSummary:
        """The counts so far."""
        failures = sorted(self.failures.items(), key=lambda item: (-item[1], item[0]))
        return BatchSummary(
            cases=sum(self.verdicts.values()),
            verdicts={v.value: self.verdicts[v] for v in VERDICT_ORDER},
            failures=dict(failures),
            trials={
                name: (n, skipped, passed) for name, (n, skipped, passed) in self.names.items()
            },
        )


@attrs.frozen
class BatchResult:
    """The results of :func:`~agent_asserts.batch.evaluate_many`.

    Attributes:
        cases: One result per (record, case), ordered by record, then by case; empty when
            the batch ran with ``keep_results=False``.
        record_indexes: For each case, the position of its record in the input (empty
            with ``keep_results=False``).
        sources: One label per input record (its path, or None; empty with
            ``keep_results=False``).
        records: The input records when ``keep_records=True`` was given, else None.
        summary: The counts of the cases (computed from ``cases`` unless given): what
            ``len()``, ``pass_rate``, ``passed``, ``verdict_counts()``, ``failure_counts()``
            and ``trials()`` read.
    """

    cases: tuple[CaseResult, ...]
    record_indexes: tuple[int, ...]
    sources: tuple[str | None, ...] = ()
    records: tuple[TrialRecord | None, ...] | None = None
    summary: BatchSummary = attrs.field(kw_only=True)

    @summary.default
    def _summary_of_cases(self) -> BatchSummary:
        return BatchSummary.of(self.cases)

    @property
    def kept(self) -> bool:
        """Whether the batch holds its case results (False after ``keep_results=False``,
        when it only counted them).

        >>> BatchResult((), ()).kept
        True
        """
        return len(self.cases) == self.summary.cases

    def __len__(self) -> int:
        return self.summary.cases

    def __iter__(self) -> Iterator[CaseResult]:
        return iter(self.cases)

    @property
    def pass_rate(self) -> float:
        """The fraction of cases whose verdict is ``PASSED`` (0.0 for an empty batch)."""
        summary = self.summary
        return summary.verdicts["passed"] / summary.cases if summary.cases else 0.0

    @property
    def passed(self) -> bool:
        """True when every case passed (and there is at least one)."""
        summary = self.summary
        return bool(summary.cases) and summary.verdicts["passed"] == summary.cases

    def verdict_counts(self) -> dict[str, int]:
        """How many cases have each verdict (``failed``, ``scored``, ``skipped``, ``passed``)."""
        return dict(self.summary.verdicts)

    def failure_counts(self) -> dict[str, int]:
        """How many failed results (``FAIL``, ``INVALID``, ``EVALUATOR_ERROR``) each check had,
        by result name, most frequent first (ties by name).

        >>> from agent_asserts.results import AssertionResult, CaseResult
        >>> bad = AssertionResult(name="max_steps:3", status="fail", score=0.0)
        >>> BatchResult((CaseResult("c", "failed", results=(bad,)),), (0,)).failure_counts()
        {'max_steps:3': 1}
        """
        return dict(self.summary.failures)

    def trials(self, pass_rate: float = 1.0) -> dict[str, TrialsResult]:
        """The cases grouped by name, each group judged by the k-of-N rule (from the counts
        alone, with no ``trials`` kept, when the batch did not keep its results).

        >>> from agent_asserts.results import CaseResult
        >>> b = BatchResult((CaseResult("a", "passed"), CaseResult("a", "failed")), (0, 1))
        >>> b.trials(0.5)["a"].verdict.value
        'passed'
        """
        if not self.kept:
            return {
                name: TrialsResult.from_counts(n, skipped, passed, pass_rate)
                for name, (n, skipped, passed) in self.summary.trials.items()
            }
        groups: dict[str, list[CaseResult]] = {}
        for case in self.cases:
            groups.setdefault(case.name, []).append(case)
        return {name: TrialsResult.from_cases(group, pass_rate) for name, group in groups.items()}

    def report_rows(self) -> tuple[ReportRow, ...]:
        """The report rows: each case with its record (when kept) and its source.

        Raises:
            ValueError: The batch kept no case results (``keep_results=False``).
        """
        if not self.kept:
            raise ValueError(NOT_KEPT)

        def record(i: int) -> TrialRecord | None:
            return self.records[i] if self.records is not None and i < len(self.records) else None

        def source(i: int) -> str | None:
            return self.sources[i] if i < len(self.sources) else None

        return tuple(
            ReportRow(case, record(i), source(i))
            for case, i in zip(self.cases, self.record_indexes, strict=True)
        )

    def render(self, fmt: str = "text", **options: Any) -> str:
        """The report in ``fmt`` (``text``, ``json``, ``junit``, ``markdown``, ``html``)."""
        return report_layer().render(self, fmt, **options)

    def write(self, path: str | os.PathLike[str], fmt: str | None = None) -> Path:
        """Write the report to ``path`` (format from the extension unless ``fmt`` is given)."""
        return report_layer().write(path, self, fmt=fmt)

    def to_dict(self) -> dict[str, Any]:
        """The JSON report's data (see docs/reports.md)."""
        return report_layer().report_dict(self.report_rows())

    def __str__(self) -> str:
        if not self.kept:  # the text report's last line, from the counts
            n, verdicts = self.summary.cases, self.summary.verdicts
            order = ("passed", "failed", "scored", "skipped")
            counts = ", ".join(f"{verdicts[v]} {v}" for v in order if verdicts[v])
            rate = f": {counts}; pass rate {self.pass_rate:.1%}" if n else ""
            return f"{n} case{'' if n == 1 else 's'}{rate} (results not kept)"
        return self.render("text")

    def _repr_html_(self) -> str:
        return report_layer().html_fragment(self)


__all__ = ["BatchResult", "BatchSummary", "CaseSummary", "Tally", "case_summary"]
