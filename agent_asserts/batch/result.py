"""``BatchResult``: the results of one suite (or case function) over many records.

It keeps every case result in input order, with the position and source of its record, and
summarizes them (pass rate, verdict and failure counts, k-of-N trials) or renders the report
(through :mod:`agent_asserts._reporting`: the report renderers are an edge above batches).

>>> from agent_asserts.results import CaseResult
>>> b = BatchResult((CaseResult("a", "passed"), CaseResult("a", "failed")), (0, 1))
>>> b.pass_rate, b.passed, b.verdict_counts()["failed"]
(0.5, False, 1)
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from agent_asserts._reporting import report_layer
from agent_asserts.record import TrialRecord
from agent_asserts.result_rows import ReportRow, pass_rate, verdict_counts
from agent_asserts.results import CaseResult, Verdict
from agent_asserts.trials import TrialsResult


@attrs.frozen
class BatchResult:
    """The results of :func:`~agent_asserts.batch.evaluate_many`.

    Attributes:
        cases: One result per (record, case), ordered by record, then by case.
        record_indexes: For each case, the position of its record in the input.
        sources: One label per input record (its path, or None).
        records: The input records when ``keep_records=True`` was given, else None.
    """

    cases: tuple[CaseResult, ...]
    record_indexes: tuple[int, ...]
    sources: tuple[str | None, ...] = ()
    records: tuple[TrialRecord | None, ...] | None = None

    def __len__(self) -> int:
        return len(self.cases)

    def __iter__(self) -> Iterator[CaseResult]:
        return iter(self.cases)

    @property
    def pass_rate(self) -> float:
        """The fraction of cases whose verdict is ``PASSED`` (0.0 for an empty batch)."""
        return pass_rate(self.cases) or 0.0

    @property
    def passed(self) -> bool:
        """True when every case passed (and there is at least one)."""
        return bool(self.cases) and all(c.verdict is Verdict.PASSED for c in self.cases)

    def verdict_counts(self) -> dict[str, int]:
        """How many cases have each verdict (``failed``, ``scored``, ``skipped``, ``passed``)."""
        return {v.value: n for v, n in verdict_counts(self.cases).items()}

    def failure_counts(self) -> dict[str, int]:
        """How many failed results (``FAIL``, ``INVALID``, ``EVALUATOR_ERROR``) each check had,
        by result name, most frequent first (ties by name).

        >>> from agent_asserts.results import AssertionResult, CaseResult
        >>> bad = AssertionResult(name="max_steps:3", status="fail", score=0.0)
        >>> BatchResult((CaseResult("c", "failed", results=(bad,)),), (0,)).failure_counts()
        {'max_steps:3': 1}
        """
        counts = Counter(r.name for c in self.cases for r in c.results if r.failed)
        return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))

    def trials(self, pass_rate: float = 1.0) -> dict[str, TrialsResult]:
        """The cases grouped by name, each group judged by the k-of-N rule.

        >>> from agent_asserts.results import CaseResult
        >>> b = BatchResult((CaseResult("a", "passed"), CaseResult("a", "failed")), (0, 1))
        >>> b.trials(0.5)["a"].verdict.value
        'passed'
        """
        groups: dict[str, list[CaseResult]] = {}
        for case in self.cases:
            groups.setdefault(case.name, []).append(case)
        return {name: TrialsResult.from_cases(group, pass_rate) for name, group in groups.items()}

    def report_rows(self) -> tuple[ReportRow, ...]:
        """The report rows: each case with its record (when kept) and its source."""

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
        return self.render("text")

    def _repr_html_(self) -> str:
        return report_layer().html_fragment(self)


__all__ = ["BatchResult"]
