"""Batches: one suite (or case function) over many records, lazily, on any executor.

:func:`evaluate_many` pulls records from any iterable only as fast as they are evaluated (at
most about twice the executor's worker count in flight), so a generator over a large JSONL
file (:func:`iter_jsonl`) is never loaded at once. Any ``concurrent.futures.Executor`` works
(thread or process pools, Dask's or Ray's executors); with a process pool, the case function
must be a module-level function and the records and results are pickled.

>>> from agent_asserts.record import TrialRecord
>>> runs = [TrialRecord.builder().tool("lookup").build(), TrialRecord.builder().build()]
>>> def uses_lookup(ctx):
...     ctx.called_tool("lookup")
>>> batch = evaluate_many(runs, uses_lookup)
>>> [c.verdict.value for c in batch.cases], batch.pass_rate, batch.failure_counts()
(['passed', 'failed'], 0.5, {'called_tool:lookup': 1})
>>> print(batch.trials(pass_rate=0.5)["uses_lookup"])
PASSED: 1/2 trials passed (1 required at pass_rate 0.5)
"""

from __future__ import annotations

import json
import os
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from agent_asserts.record import TrialRecord
from agent_asserts.results import CaseResult, Verdict

if TYPE_CHECKING:
    from agent_asserts.context import EvalContext
    from agent_asserts.loaders import Case, Suite
    from agent_asserts.report import ReportRow
    from agent_asserts.trials import TrialsResult

RecordInput = TrialRecord | Mapping[str, Any] | str | os.PathLike[str]
Target = Callable[["EvalContext"], Any]
Outcome = tuple[tuple[CaseResult, ...], TrialRecord | None]


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
        if not self.cases:
            return 0.0
        return sum(1 for c in self.cases if c.verdict is Verdict.PASSED) / len(self.cases)

    @property
    def passed(self) -> bool:
        """True when every case passed (and there is at least one)."""
        return bool(self.cases) and all(c.verdict is Verdict.PASSED for c in self.cases)

    def verdict_counts(self) -> dict[str, int]:
        """How many cases have each verdict (``failed``, ``scored``, ``skipped``, ``passed``)."""
        from agent_asserts.report import verdict_counts

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
        from agent_asserts.trials import TrialsResult

        groups: dict[str, list[CaseResult]] = {}
        for case in self.cases:
            groups.setdefault(case.name, []).append(case)
        return {name: TrialsResult.from_cases(group, pass_rate) for name, group in groups.items()}

    def report_rows(self) -> tuple[ReportRow, ...]:
        """The report rows: each case with its record (when kept) and its source."""
        from agent_asserts.report import ReportRow

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
        from agent_asserts.report import render

        return render(self, fmt, **options)

    def write(self, path: str | os.PathLike[str], fmt: str | None = None) -> Path:
        """Write the report to ``path`` (format from the extension unless ``fmt`` is given)."""
        from agent_asserts.report import write_report

        return write_report(path, self, fmt=fmt)

    def to_dict(self) -> dict[str, Any]:
        """The JSON report's data (see docs/reports.md)."""
        from agent_asserts.report.json_report import report_dict

        return report_dict(self.report_rows())

    def __str__(self) -> str:
        return self.render("text")

    def _repr_html_(self) -> str:
        from agent_asserts.report.html_report import render_html_fragment

        return render_html_fragment(self)


def load_record(item: RecordInput) -> TrialRecord:
    """A record from a record, its canonical dict, or a path to a JSON record file.

    >>> load_record({"events": []}).events
    ()
    """
    if isinstance(item, TrialRecord):
        return item
    if isinstance(item, Mapping):
        return TrialRecord.from_dict(item)
    if isinstance(item, str | os.PathLike):
        return TrialRecord.load(item)
    raise TypeError(f"expected a TrialRecord, a mapping or a path (got {type(item).__name__})")


def source_of(item: object) -> str | None:
    """The label a record input shows in reports: its path, else None.

    >>> source_of("runs/a.json"), source_of({})
    ('runs/a.json', None)
    """
    return os.fspath(item) if isinstance(item, str | os.PathLike) else None


def iter_jsonl(path: str | os.PathLike[str]) -> Iterator[dict[str, Any]]:
    """The records of a JSON Lines file, one parsed line at a time (blank lines skipped).

    Raises:
        ValueError: A line is not valid JSON (``file:line: reason``).

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = pathlib.Path(d, "runs.jsonl")
    ...     _ = p.write_text('{"events": []}\\n\\n{"steps": 1}\\n')
    ...     [sorted(r) for r in iter_jsonl(p)]
    [['events'], ['steps']]
    """
    with Path(path).open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{os.fspath(path)}:{number}: invalid JSON: {exc.msg}") from None
            yield data


def case_names(target: Any) -> list[str]:
    """The case names a target produces (a suite's cases, a case, a function's name)."""
    cases = getattr(target, "cases", None)
    if cases is not None:
        return [c.name for c in cases]
    name = getattr(target, "name", None) if hasattr(target, "entries") else None
    return [name or getattr(target, "__name__", None) or "case"]


def evaluate_one(item: Any, target: Any, judge: Any = None, keep: bool = False) -> Outcome:
    """Evaluate ``target`` on one record input (runs in the executor's workers).

    A record that cannot be loaded gives one ``FAILED`` result per case, carrying the error.
    """
    try:
        record = load_record(item)
    except Exception as exc:
        where = f" {source_of(item)}" if source_of(item) else ""
        error = f"cannot load the record{where}: {type(exc).__name__}: {exc}"
        failed = tuple(CaseResult(n, Verdict.FAILED, error=error) for n in case_names(target))
        return failed, None
    if hasattr(target, "cases"):
        results = tuple(case.evaluate(record, judge=judge) for case in target.cases)
    elif hasattr(target, "entries") and hasattr(target, "evaluate"):
        results = (target.evaluate(record, judge=judge),)
    else:
        from agent_asserts.runner import run_case

        results = (run_case(record, target, judge=judge),)
    return results, (record if keep else None)


def _workers(executor: Executor) -> int:
    count = getattr(executor, "_max_workers", None)
    return count if isinstance(count, int) and count > 0 else (os.cpu_count() or 1)


def _outcomes(
    items: Iterable[Any], target: Any, judge: Any, keep: bool,
    executor: Executor | None, limit: int,
) -> Iterator[Outcome]:  # fmt: skip
    if executor is None:
        for item in items:
            yield evaluate_one(item, target, judge, keep)
        return
    pending: deque[Future[Outcome]] = deque()
    try:
        for item in items:
            pending.append(executor.submit(evaluate_one, item, target, judge, keep))
            if len(pending) >= limit:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        for future in pending:
            future.cancel()


def evaluate_many(
    records: Iterable[RecordInput],
    suite_or_fn: Suite | Case | Target | str | os.PathLike[str],
    *,
    executor: Executor | None = None,
    judge: Any = None,
    keep_records: bool = False,
    max_in_flight: int | None = None,
) -> BatchResult:
    """Evaluate a suite, a case or a case function on every record.

    Args:
        records: Any iterable of records, canonical record dicts or paths to record files;
            it is pulled lazily.
        suite_or_fn: A loaded ``Suite`` (one result per case and record), a ``Case``, a case
            function ``fn(ctx)``, or the path of a suite file.
        executor: Any ``concurrent.futures.Executor``; None evaluates in this thread.
        judge: The judge for semantic checks.
        keep_records: Keep the records in the result (the HTML report then shows timelines;
            this holds every record in memory).
        max_in_flight: Records submitted but not yet collected (default twice the executor's
            worker count).

    Returns:
        The :class:`BatchResult`, its cases ordered by record, then by case.
    """
    target: Any = suite_or_fn
    if isinstance(target, str | os.PathLike):
        from agent_asserts.loaders import load

        target = load(target, judge=judge)
    if max_in_flight is not None and (isinstance(max_in_flight, bool) or max_in_flight < 1):
        raise ValueError(f"'max_in_flight' must be an int >= 1 (got {max_in_flight!r})")
    limit = max_in_flight or (2 * _workers(executor) if executor is not None else 1)
    sources: list[str | None] = []
    originals: list[TrialRecord | None] = []

    def pulled() -> Iterator[Any]:
        for item in records:
            sources.append(source_of(item))
            if keep_records:
                originals.append(item if isinstance(item, TrialRecord) else None)
            yield item

    inputs = pulled()
    cases: list[CaseResult] = []
    indexes: list[int] = []
    kept: list[TrialRecord | None] = []
    for position, (results, record) in enumerate(
        _outcomes(inputs, target, judge, keep_records, executor, limit)
    ):
        cases.extend(results)
        indexes.extend([position] * len(results))
        if keep_records:
            kept.append(originals[position] or record)
    return BatchResult(
        cases=tuple(cases),
        record_indexes=tuple(indexes),
        sources=tuple(sources),
        records=tuple(kept) if keep_records else None,
    )


__all__ = [
    "BatchResult",
    "case_names",
    "evaluate_many",
    "evaluate_one",
    "iter_jsonl",
    "load_record",
    "source_of",
]
