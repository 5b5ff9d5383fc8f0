"""Batches: one suite (or case function) over many records, lazily, on any executor.

:func:`evaluate_many` pulls records from any iterable only as fast as they are evaluated (at
most about twice the executor's worker count in flight), so a generator over a large JSONL
file (:func:`iter_jsonl`) is never loaded at once. Any ``concurrent.futures.Executor`` works
(thread or process pools, Dask's or Ray's executors); with a process pool, the case function
must be a module-level function and the records and results are pickled. The result is a
:class:`~agent_asserts.batch_result.BatchResult` (re-exported here).

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
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agent_asserts.batch_result import BatchResult
from agent_asserts.record import TrialRecord
from agent_asserts.results import CaseResult, Verdict

if TYPE_CHECKING:
    from agent_asserts.context import EvalContext
    from agent_asserts.loaders import Case, Suite

RecordInput = TrialRecord | Mapping[str, Any] | str | os.PathLike[str]
Target = Callable[["EvalContext"], Any]
Outcome = tuple[tuple[CaseResult, ...], TrialRecord | None]


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
