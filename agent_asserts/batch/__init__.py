"""Batches: ``evaluate_many`` over any number of records, and the ``BatchResult`` it returns.

>>> from agent_asserts.batch import evaluate_many
>>> from agent_asserts.testing import demo_record
>>> evaluate_many([demo_record()], lambda ctx: ctx.max_steps(10)).pass_rate
1.0

This module runs a batch: one suite (or case function) over many records, lazily, on any
executor, and what a worker runs on one input; :mod:`agent_asserts.batch.pool` sends the
inputs to the executor's workers and survives dead ones, :mod:`agent_asserts.batch.result`
holds what comes back.

:func:`evaluate_many` pulls records from any iterable only as fast as they are evaluated (at
most about twice the executor's worker count in flight), so a generator over a large JSONL
file (:func:`iter_jsonl`) is never loaded at once. Any ``concurrent.futures.Executor`` works
(thread or process pools, Dask's executor, one over Ray tasks); with a process pool, the case
function must be a module-level function and the records and results are pickled. The result is a
:class:`~agent_asserts.batch.result.BatchResult` (re-exported here).

Given ``agent_asserts.iter_records(path)`` and an executor that is not a thread pool, the
records are not read here: the lines of its JSON Lines files go to the workers as bytes, with
their file and line number, and each worker turns its lines into records
(``RecordStream.line_records``). A line a worker cannot read is read again here, so its error
is raised here as iterating the records would raise it, in the same order.

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

import codecs
import functools
import json
import os
import textwrap
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

import attrs

from agent_asserts._deadline import check_limit
from agent_asserts._files import open_input
from agent_asserts.batch.pool import chunked_outcomes, default_chunk_size, pooled_outcomes
from agent_asserts.batch.result import BatchResult, BatchSummary, CaseSummary, Tally, case_summary
from agent_asserts.errors import LoadError
from agent_asserts.record import RecordError, TrialRecord
from agent_asserts.record.parsing import strict_loads
from agent_asserts.record.reading import RecordStream, refusal
from agent_asserts.results import CaseResult, Verdict
from agent_asserts.runner import load_within, run_case

if TYPE_CHECKING:
    from agent_asserts.context import EvalContext

KILL_MARGIN = 5.0  # seconds past a task's time limits before its worker process is killed


class CaseLike(Protocol):
    """What a batch needs of a case (a loaded ``agent_asserts.loaders.Case``)."""

    name: str
    entries: Any

    def evaluate(self, record: TrialRecord, *, judge: Any = None) -> CaseResult:
        """The case's result on one record."""
        ...


class SuiteLike(Protocol):
    """What a batch needs of a suite (a loaded ``agent_asserts.loaders.Suite``)."""

    @property
    def cases(self) -> Sequence[CaseLike]:
        """The cases, in file order."""
        ...


@attrs.frozen
class SourcedRecord:
    """A record input with the label reports show for it (e.g. ``runs.jsonl:3``).

    ``data`` is what :func:`load_record` reads (a record, its dict or a path); ``error``, when
    set, says why the input could not even be read (a bad JSON line, an empty file), and
    loading it raises ``ValueError(error)``: the batch reports it as a ``FAILED`` case.

    >>> load_record(SourcedRecord("runs.jsonl:1", {"events": []})).events
    ()
    >>> load_record(SourcedRecord("runs.jsonl:2", error="invalid JSON: Expecting value"))
    Traceback (most recent call last):
    ...
    ValueError: invalid JSON: Expecting value
    """

    source: str
    data: Any = None
    error: str | None = None
    format: str = "auto"


class StreamLine(NamedTuple):
    """One line of a JSON Lines file of a :class:`~agent_asserts.record.reading.RecordStream`,
    on its way to a worker that reads its records there."""

    name: str
    number: int
    raw: bytes


RecordInput = TrialRecord | Mapping[str, Any] | str | os.PathLike[str] | SourcedRecord
Target = Callable[["EvalContext"], Any]
Outcome = tuple[tuple[CaseResult, ...], TrialRecord | None]
# (the cases, or what the batch counts of them, and the record when kept) per record of an input;
# None for a stream line the worker could not read (this process reads it again)
RecordOutcome = tuple[tuple[CaseResult, ...] | tuple[CaseSummary, ...], TrialRecord | None]
Outcomes = list[RecordOutcome] | None


def load_record(item: RecordInput, format: str = "auto") -> TrialRecord:
    """A record from a record, parsed trace data (a canonical record dict, or any registered
    format), a path to a file holding one run, or an object an SDK hands you (what
    ``TrialRecord.from_trace`` accepts: a run result, a list of SDK messages, a tuple of
    OpenTelemetry spans…), read in ``format`` (``"auto"`` detects it).

    >>> load_record({"events": []}).events
    ()
    >>> load_record({"detailed_trace": ["Agent Text: hi"]}).reply
    'hi'
    >>> try:
    ...     load_record(3.5)
    ... except TypeError as exc:
    ...     print(exc)  # doctest: +NORMALIZE_WHITESPACE
    expected a TrialRecord, trace data, a path, a JSON text as bytes or an object an SDK
    hands you (got float)
    """
    if isinstance(item, TrialRecord):
        return item
    if isinstance(item, SourcedRecord):
        if item.error is not None:
            raise ValueError(item.error)
        return load_record(item.data, item.format if item.format != "auto" else format)
    if isinstance(item, Mapping | list):
        return TrialRecord.from_trace(item, format)
    if isinstance(item, str | os.PathLike):
        return TrialRecord.load(item, format)
    if isinstance(item, bytes):
        return TrialRecord.from_trace(parse_line(item), format)
    if item is None or isinstance(item, bool | int | float | str):
        raise TypeError(
            "expected a TrialRecord, trace data, a path, a JSON text as bytes or an object an "
            f"SDK hands you (got {type(item).__name__})"
        )
    # an SDK object (a run result, a tuple of spans…): the objects step of from_trace reads
    # it, or says what it is and what to pass instead
    return TrialRecord.from_trace(item, format)


def parse_line(raw: bytes) -> Any:
    """One JSON Lines line (bytes, UTF-8), read as strictly as ``TrialRecord.load`` reads a
    file; ``ValueError`` with the reason :func:`iter_jsonl` reports.

    >>> parse_line(b'{"steps": 1}')
    {'steps': 1}
    >>> parse_line(b'{"steps": 1, "steps": 2}')
    Traceback (most recent call last):
    ...
    ValueError: $.steps: duplicate key
    """
    try:
        return strict_loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8: {exc}") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"invalid JSON: {exc}") from None
    except RecordError as exc:
        raise ValueError("; ".join(map(str, exc.problems))) from None


def source_of(item: object) -> str | None:
    """The label a record input shows in reports: its path (or its ``SourcedRecord`` label),
    else None.

    >>> source_of("runs/a.json"), source_of({}), source_of(SourcedRecord("r.jsonl:2", {}))
    ('runs/a.json', None, 'r.jsonl:2')
    """
    if isinstance(item, SourcedRecord):
        return item.source
    return os.fspath(item) if isinstance(item, str | os.PathLike) else None


def load_error_text(what: str, source: str | None, exc: BaseException) -> str:
    """Why an input could not be loaded: ``cannot load WHAT SOURCE: reason``.

    The problems of a :class:`~agent_asserts.loaders.LoadError` follow on their own,
    indented lines (each with its position); an exception other than ``ValueError`` or
    ``OSError`` is named by its type.

    >>> load_error_text("the record", "r.json", ValueError("invalid record"))
    'cannot load the record r.json: invalid record'
    >>> load_error_text("the record", None, KeyError("events"))
    "cannot load the record: KeyError: 'events'"
    """
    where = f" {source}" if source else ""
    if isinstance(exc, LoadError):
        return f"cannot load {what}{where}:\n" + textwrap.indent(str(exc), "  ")
    text = str(exc)
    if not isinstance(exc, ValueError | OSError) or not text:
        text = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return f"cannot load {what}{where}: {text}"


def unloadable_cases(
    error: str, names: Iterable[str] = (), source: str | None = None
) -> tuple[CaseResult, ...]:
    """The ``FAILED`` cases that stand for an input that could not be loaded: one per case
    name (the cases that could not run), or one named after ``source`` when there are none.
    Each carries ``error`` and, in its metadata, the ``source``.

    >>> [(c.name, c.verdict.value, c.metadata) for c in unloadable_cases("bad", (), "r.jsonl:2")]
    [('r.jsonl:2', 'failed', {'source': 'r.jsonl:2'})]
    """
    metadata = {"source": source} if source else {}
    return tuple(
        CaseResult(name, Verdict.FAILED, error=error, metadata=dict(metadata))
        for name in (list(names) or [source or "input"])
    )


def iter_jsonl(
    path: str | os.PathLike[str], *, sources: bool = False, parse: bool = True
) -> Iterator[dict[str, Any] | SourcedRecord]:
    """The records of a JSON Lines file, one parsed line at a time (blank lines skipped).

    A line that is not valid JSON (or not UTF-8) does not stop the reading: it is yielded as
    a :class:`SourcedRecord` labelled ``file:line`` whose ``error`` is the JSON error, which
    :func:`evaluate_many` reports as a ``FAILED`` case while the other lines are evaluated.
    Lines are read as strictly as ``TrialRecord.load`` reads a file: a duplicate key or a
    ``NaN`` is such an error too (``$.steps: duplicate key``).
    With ``sources=True`` every line comes as a ``SourcedRecord`` labelled ``file:line``.

    With ``parse=False`` the lines are not parsed here: every line comes as a
    ``SourcedRecord`` labelled ``file:line`` whose ``data`` is the line's bytes, parsed (with
    the same errors, as ``FAILED`` cases) where the record is evaluated — in the workers of
    an executor, so that the process reading the file does not parse every record itself.

    Raises:
        OSError: The file cannot be opened.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = pathlib.Path(d, "runs.jsonl")
    ...     _ = p.write_text('{"events": []}\\n\\n{"steps": 1}\\n{oops\\n')
    ...     rows = list(iter_jsonl(p))
    ...     raw = list(iter_jsonl(p, parse=False))
    >>> [sorted(r) for r in rows[:2]], rows[2].source.endswith("runs.jsonl:4")
    ([['events'], ['steps']], True)
    >>> rows[2].error
    'invalid JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)'
    >>> [r.data for r in raw], [r.source.rpartition(":")[2] for r in raw]
    ([b'{"events": []}\\n', b'{"steps": 1}\\n', b'{oops\\n'], ['1', '3', '4'])
    """
    refuse = refusal(os.fspath(path))
    with open_input(path, refuse, whole=False) as handle:
        for number, raw in enumerate(handle, 1):
            source = f"{os.fspath(path)}:{number}"
            if number == 1 and raw.startswith(codecs.BOM_UTF8):
                raw = raw[len(codecs.BOM_UTF8) :]
            if _blank(raw):
                continue
            if not parse:
                yield SourcedRecord(source, raw)
                continue
            try:
                data = parse_line(raw)
            except ValueError as exc:
                yield SourcedRecord(source, error=str(exc))
            else:
                yield SourcedRecord(source, data) if sources else data


def _blank(raw: bytes) -> bool:
    """A line of whitespace only (any Unicode whitespace, as ``str.strip`` sees it)."""
    if raw.isascii():
        return not raw.strip()
    try:
        return not raw.decode("utf-8").strip()
    except UnicodeDecodeError:
        return False


def case_names(target: Any) -> list[str]:
    """The case names a target produces (a suite's cases, a case, a function's name)."""
    cases = getattr(target, "cases", None)
    if cases is not None:
        return [c.name for c in cases]
    name = getattr(target, "name", None) if hasattr(target, "entries") else None
    return [name or getattr(target, "__name__", None) or "case"]


def evaluate_one(
    item: Any,
    target: Any,
    judge: Any = None,
    keep: bool = False,
    format: str = "auto",
    timeout: float | None = None,
    judge_timeout: float | None = None,
) -> Outcome:
    """Evaluate ``target`` on one record input (runs in the executor's workers).

    A record that cannot be loaded gives one ``FAILED`` result per case, carrying the error;
    ``timeout`` is each case's hard time limit, ``judge_timeout`` each judge call's.
    """
    try:
        record = load_within(functools.partial(load_record, item, format), timeout)
    except Exception as exc:
        source = source_of(item)
        error = load_error_text("the record", source, exc)
        return unloadable_cases(error, case_names(target), source), None
    limits: dict[str, Any] = {"timeout": timeout, "judge_timeout": judge_timeout}
    if hasattr(target, "cases"):
        results = tuple(case.evaluate(record, judge=judge, **limits) for case in target.cases)
    elif hasattr(target, "entries") and hasattr(target, "evaluate"):
        results = (target.evaluate(record, judge=judge, **limits),)
    else:
        results = (run_case(record, target, judge=judge, **limits),)
    return results, (record if keep else None)


def evaluate_input(
    item: Any,
    target: Any,
    judge: Any = None,
    *,
    keep: bool = False,
    full: bool = True,
    format: str = "auto",
    limits: tuple[float | None, float | None] = (None, None),
    lines: tuple[str, Mapping[str, Any]] = ("auto", {}),
) -> Outcomes:
    """The outcome of every record of one input (runs in the executor's workers): one for a
    record input, those of its runs for a :class:`StreamLine` (read in ``lines``' format, with
    its state changes), None for a stream line that cannot be read here. ``full=False`` sends
    back what the batch counts of each case (:func:`~agent_asserts.batch.result.case_summary`)
    instead of the case.
    """
    if isinstance(item, StreamLine):
        try:
            records: list[Any] | None = RecordStream.line_records(item, *lines, whole=False)
        except Exception:  # read again (and raised) where the records are pulled
            return None
        if records is None:
            return None
    else:
        records = [item]
    outcomes: list[RecordOutcome] = []
    for record in records:
        results, kept = evaluate_one(record, target, judge, keep, format, *limits)
        outcomes.append((results if full else tuple(map(case_summary, results)), kept))
    return outcomes


def _workers(executor: Executor) -> int:
    count = getattr(executor, "_max_workers", None)
    return count if isinstance(count, int) and count > 0 else (os.cpu_count() or 1)


def _outcomes(
    items: Iterable[Any], target: Any, judge: Any, executor: Executor | None, limit: int,
    chunk_size: int | None, evaluate: Callable[..., Outcomes], timeout: float | None,
) -> Iterator[Outcomes]:  # fmt: skip
    if executor is None:
        for item in items:
            yield evaluate(item, target, judge)
        return
    per_record = None if timeout is None else timeout * len(case_names(target))

    def failed(item: Any, reason: str) -> Outcomes:
        return [(unloadable_cases(reason, case_names(target), source_of(item)), None)]

    if chunk_size is not None or not isinstance(executor, ThreadPoolExecutor):
        size = min(chunk_size or default_chunk_size(executor), limit)
        chunks = max(1, limit // size)
        yield from chunked_outcomes(
            items, target, judge, executor, evaluate, chunk_size=size, max_chunks=chunks,
            failed=failed, deadline=per_record, margin=KILL_MARGIN,
        )  # fmt: skip
        return
    task = functools.partial(evaluate, target=target, judge=judge)
    deadline = None if per_record is None else per_record + KILL_MARGIN
    yield from pooled_outcomes(items, task, executor, limit=limit, failed=failed, deadline=deadline)


def _check_arguments(
    records: Any, target: Any, skip_judged: bool, max_in_flight: Any, chunk_size: Any
) -> Any:
    """The target to evaluate, after checking every argument (``TypeError``/``ValueError``)."""
    if isinstance(records, str | bytes | os.PathLike):
        raise TypeError(
            f"'records' must be an iterable of records, record dicts or paths, not a single "
            f"path ({records!r}): pass iter_jsonl(path) for a JSON Lines file or [path] for "
            "one record file"
        )
    if isinstance(target, str | os.PathLike):
        raise TypeError(
            f"'suite_or_fn' must be a Suite, a Case or a case function, not a path "
            f"({target!r}): load the suite file first with agent_asserts.loaders.load(path)"
        )
    if not (hasattr(target, "cases") or hasattr(target, "entries") or callable(target)):
        raise TypeError(
            f"'suite_or_fn' must be a Suite, a Case or a case function (got {target!r})"
        )
    if skip_judged:
        without = getattr(target, "without_judged", None)
        if without is None:
            raise TypeError(
                "'skip_judged' applies to a Suite or a Case; a case function decides its own "
                "ctx.judge() calls"
            )
        target = without()
    if max_in_flight is not None and (isinstance(max_in_flight, bool) or max_in_flight < 1):
        raise ValueError(f"'max_in_flight' must be an int >= 1 (got {max_in_flight!r})")
    if chunk_size is not None and (isinstance(chunk_size, bool) or chunk_size < 1):
        raise ValueError(f"'chunk_size' must be an int >= 1 (got {chunk_size!r})")
    return target


def evaluate_many(
    records: Iterable[RecordInput],
    suite_or_fn: SuiteLike | CaseLike | Target,
    *,
    executor: Executor | None = None,
    judge: Any = None,
    keep_records: bool = False,
    keep_results: bool = True,
    on_result: Callable[[CaseResult], Any] | None = None,
    max_in_flight: int | None = None,
    chunk_size: int | None = None,
    format: str = "auto",
    timeout: float | None = None,
    judge_timeout: float | None = None,
    skip_judged: bool = False,
) -> BatchResult:
    """Evaluate a suite, a case or a case function on every record.

    Args:
        records: Any iterable of records, trace data (canonical record dicts, or any registered
            format) or paths to files holding one run each; it is pulled lazily (pass
            ``agent_asserts.iter_records(path)`` for a file or folder of many runs: on an
            executor that is not a thread pool, its JSON Lines files are then read by the
            workers).
        suite_or_fn: A loaded ``Suite`` (one result per case and record), a ``Case`` or a
            case function ``fn(ctx)`` (a suite file is loaded at the edge first:
            ``agent_asserts.loaders.load(path)``).
        executor: Any ``concurrent.futures.Executor``; None evaluates in this thread.
        judge: The judge for semantic checks.
        keep_records: Keep the records in the result (the HTML report then shows timelines;
            this holds every record in memory).
        keep_results: Keep every case result in the result (the default). With False the
            result only counts them (``BatchResult.summary``: verdicts, failed checks, k-of-N
            tallies), so memory does not grow with the batch; it has no report rows.
        on_result: Called with every case result, in input order, as the batch goes (kept
            or not).
        max_in_flight: Records submitted but not yet collected (default twice the executor's
            worker count, in chunks of ``chunk_size`` records for an executor that is not a
            thread pool).
        chunk_size: Records per task sent to the executor (default 1 for a thread pool, 64 for
            a process pool, 256 for Dask, Ray or any other executor; see ``batch.pool``).
        format: The format of the inputs that are data or paths (``"auto"``: detected).
        timeout: Each case's hard time limit in seconds (None: no limit); a case past it is
            ``FAILED`` naming the check that was running, the others still run. With a
            process pool, a worker still busy ``KILL_MARGIN`` seconds after its task's
            limits is killed and the pool restarted; the records of its task are re-run one
            per task, and only the record still stuck alone is ``FAILED``.
        judge_timeout: Each judge call's limit (past it: an ``evaluator_error`` gate).
        skip_judged: Run only the deterministic checks of a suite or case: each judged check
            is recorded as ``not_applicable`` ("judged check not run"). A case function's own
            ``ctx.judge()`` calls are not affected (a ``TypeError`` says so).

    Returns:
        The :class:`BatchResult`, its cases ordered by record, then by case.

    Raises:
        TypeError: ``records`` is a single path (a ``str``, ``bytes`` or ``os.PathLike``)
            rather than an iterable of inputs, or ``suite_or_fn`` is none of the above.

    >>> evaluate_many("runs.jsonl", lambda ctx: None)
    Traceback (most recent call last):
    ...
    TypeError: 'records' must be an iterable of records, ... pass iter_jsonl(path) for a JSON ...
    >>> seen = []
    >>> batch = evaluate_many([{"steps": 2}, {"steps": 9}], lambda ctx: ctx.max_steps(5),
    ...                       keep_results=False, on_result=seen.append)
    >>> len(batch), batch.cases, batch.verdict_counts(), [c.verdict.value for c in seen]
    (2, (), {'failed': 1, 'scored': 0, 'skipped': 0, 'passed': 1}, ['passed', 'failed'])
    """
    target = _check_arguments(records, suite_or_fn, skip_judged, max_in_flight, chunk_size)
    limits = (check_limit(timeout), check_limit(judge_timeout, "judge_timeout"))
    limit = max_in_flight or (2 * _workers(executor) if executor is not None else 1)
    if max_in_flight is None and executor is not None:
        chunk = chunk_size or default_chunk_size(executor)
        limit *= chunk if chunk_size is not None or chunk > 1 else 1
    full = keep_results or on_result is not None
    inputs: Iterable[Any] = records
    lines: tuple[str, Mapping[str, Any]] = ("auto", {})
    if (
        isinstance(records, RecordStream)
        and isinstance(records.source, str | os.PathLike)
        and not records.started
        and not (executor is None or isinstance(executor, ThreadPoolExecutor))
    ):
        lines = (records.format, records.state_changes())
        raw = records.raw_lines(lines[1]) or ()
        inputs = (StreamLine(*x) if isinstance(x, tuple) else x for x in raw)
    evaluate = functools.partial(
        evaluate_input, keep=keep_records, full=full, format=format, limits=limits, lines=lines
    )
    pulled: deque[Any] = deque()

    def pull() -> Iterator[Any]:
        for item in inputs:
            pulled.append(item)
            yield item

    tally = Tally()
    cases: list[CaseResult] = []
    indexes: list[int] = []
    sources: list[str | None] = []
    kept: list[TrialRecord | None] = []
    whole_file: str | None = None  # a file of events read here: its later lines are not runs
    position = 0
    for outcomes in _outcomes(
        pull(), target, judge, executor, limit, chunk_size, evaluate, limits[0]
    ):
        item = pulled.popleft()
        if isinstance(item, StreamLine):
            if item.name == whole_file:
                continue
            if outcomes is None:  # read here: raises the line's error, as iterating would
                line_records = RecordStream.line_records(item, *lines, whole=False)
                if line_records is None:
                    whole_file = item.name
                    line_records = RecordStream.line_records(item, *lines)
                outcomes = [
                    outcome
                    for record in line_records or ()
                    for outcome in evaluate(record, target, judge) or ()
                ]
        for results, record in outcomes or ():
            for case in results:
                if isinstance(case, CaseResult):
                    tally.add(case_summary(case))
                    if on_result is not None:
                        on_result(case)
                    if keep_results:
                        cases.append(case)
                        indexes.append(position)
                else:
                    tally.add(case)
            if keep_results:
                sources.append(source_of(item))
            if keep_records:
                kept.append(item if isinstance(item, TrialRecord) else record)
            position += 1
    return BatchResult(
        cases=tuple(cases),
        record_indexes=tuple(indexes),
        sources=tuple(sources),
        records=tuple(kept) if keep_records else None,
        summary=tally.summary(),
    )


__all__ = [
    "BatchResult",
    "BatchSummary",
    "SourcedRecord",
    "case_names",
    "evaluate_many",
    "evaluate_one",
    "iter_jsonl",
    "load_error_text",
    "load_record",
    "source_of",
    "unloadable_cases",
]
