"""Batches on an executor: records go to its workers in chunks, and a dead worker loses nothing.

**Chunks.** Submitting one task per record costs a round trip, a pickled suite and a pickled
result per record, more than a small record's evaluation. For executors whose workers are other
processes or machines (a process pool, Dask, Ray), :func:`chunked_outcomes` sends
``chunk_size`` inputs per task; the suite (with the judge) is pickled once, in this process,
and each chunk carries those bytes. Both directions travel as bytes (an executor then moves one
opaque blob per chunk: Dask, for one, hashes task arguments; hashing bytes is cheap, walking 64
records is not). A thread pool shares memory, so it keeps one record per task unless
``chunk_size`` is given.

The defaults were chosen with ``benchmarks/batches.py`` (throughput and CPU per record over
chunk sizes on 10,000 small records): :data:`DEFAULT_CHUNK_SIZE` for a process pool (64: 64 to
512 cost the same CPU, and a smaller chunk leaves less work on one worker at the end), and
:data:`DISTRIBUTED_CHUNK_SIZE` for any other executor (Dask, Ray), whose scheduler costs about
a millisecond of CPU per task (256: the CPU bound of Dask's ratio on two cores rises from
about 1.35 at 64 to about 1.65).

**Dead workers.** :func:`pooled_outcomes` submits one task per input to an executor, at most
``limit`` in flight, and yields the outcomes in input order. A task fails when its pool breaks
(a worker process died: ``os._exit``, a segfault, the OOM killer —
``concurrent.futures.BrokenExecutor``) or when it raises (Dask's ``KilledWorker``, an input
that cannot be pickled, a result too deep to pickle). Then:

- every result that had already finished is kept;
- a broken ``ProcessPoolExecutor`` is replaced by a new pool of the same kind and size
  (another executor cannot be re-created: the rest is ``FAILED`` at once, ``NO_RESTART``);
- each input whose task failed, and each input of the tasks in flight in the broken pool, is
  re-run one record per task, **alone** on the pool, one after the other: a record that still
  fails alone is the one that fails, and becomes ``FAILED`` cases whose error gives the
  reason (``BROKEN_POOL``, ``KILLED``, ``RAISED``); every other record keeps its result —
  a dead worker loses exactly its own record, whatever the chunk size;
- after ``max_restarts`` broken pools in a row with no task finished in between, every
  remaining input is ``FAILED`` (``GAVE_UP``): a batch never hangs.

With a ``deadline`` (seconds; a case's time limit times its case count, plus a margin), a
task of a process pool that has not finished by then is stopped by killing the pool's
workers: the in-worker time limit (see :mod:`agent_asserts._deadline`) stops almost every
case, and this backstop stops the rest (a C call that ignores signals).

>>> list(chunked(range(5), 2))
[[0, 1], [2, 3], [4]]
>>> from concurrent.futures import ThreadPoolExecutor
>>> def task(item):
...     return item * 2
>>> with ThreadPoolExecutor(2) as pool:
...     list(pooled_outcomes([1, 2, 3], task, pool, limit=2, failed=lambda item, why: why))
[2, 4, 6]
"""

from __future__ import annotations

import functools
import pickle
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import BrokenExecutor, Executor, Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, Final, TypeVar, cast

DEFAULT_CHUNK_SIZE: Final = 64
DISTRIBUTED_CHUNK_SIZE: Final = 256
T = TypeVar("T")
MAX_RESTARTS: Final = 3
DRAIN_WAIT: Final = 5.0  # seconds a broken pool gets to fail its queued tasks
BROKEN_POOL: Final = (
    "the worker process evaluating this record died ({reason}); the pool was restarted "
    "for the remaining records"
)
KILLED: Final = "its worker process was killed after {seconds:g}s (the batch's time limit)"
GAVE_UP: Final = (
    "not evaluated: the worker pool broke {count} times (the limit), so the remaining "
    "records were not submitted"
)
NO_RESTART: Final = "not evaluated: the executor broke ({reason}) and a {kind} cannot be restarted"
RAISED: Final = "this record could not be evaluated on the executor ({error})"

# evaluate(item, target, judge) -> the item's outcome (any picklable value)
Evaluate = Callable[[Any, Any, Any], Any]


def chunked(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    """Consecutive lists of ``size`` items (the last may be shorter), pulled lazily."""
    chunk: list[Any] = []
    for item in items:
        chunk.append(item)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def shipped(target: Any, judge: Any) -> bytes | tuple[Any, Any]:
    """``(target, judge)`` pickled once, for every chunk to carry; the objects themselves
    when :mod:`pickle` cannot carry them (a lambda): the executor then serializes them its
    own way (Dask and Ray use cloudpickle).

    >>> isinstance(shipped(len, None), bytes), shipped(lambda ctx: None, None)[1]
    (True, None)
    """
    try:
        return pickle.dumps((target, judge), pickle.HIGHEST_PROTOCOL)
    except Exception:
        return (target, judge)


def evaluate_chunk(items: bytes, target: bytes | tuple[Any, Any], evaluate: Evaluate) -> bytes:
    """The pickled list of ``evaluate(item, target, judge)`` for every input of the pickled
    list ``items`` (runs in a worker); ``target`` is what :func:`shipped` gave and
    ``evaluate`` a module-level function (it travels by name).

    >>> out = evaluate_chunk(pickle.dumps([1, 2]), shipped(abs, None), lambda i, t, j: t(-i))
    >>> pickle.loads(out)
    [1, 2]
    """
    fn, judge = pickle.loads(target) if isinstance(target, bytes) else target
    outcomes = [evaluate(item, fn, judge) for item in pickle.loads(items)]
    return pickle.dumps(outcomes, pickle.HIGHEST_PROTOCOL)


def default_chunk_size(executor: Executor) -> int:
    """1 for a thread pool (nothing is pickled), :data:`DEFAULT_CHUNK_SIZE` for a process pool,
    :data:`DISTRIBUTED_CHUNK_SIZE` for any other executor (Dask's, one over Ray tasks).

    >>> from concurrent.futures import ProcessPoolExecutor
    >>> [default_chunk_size(e) for e in (ThreadPoolExecutor(1), ProcessPoolExecutor(1), object())]
    [1, 64, 256]
    """
    if isinstance(executor, ThreadPoolExecutor):
        return 1
    return DEFAULT_CHUNK_SIZE if _is_process_pool(executor) else DISTRIBUTED_CHUNK_SIZE


def _is_process_pool(executor: object) -> bool:
    """Whether ``executor`` is a ``ProcessPoolExecutor``. Its module (and ``multiprocessing``,
    ~25 ms) is imported here, when a batch has an executor, not by every ``agent-asserts
    check`` and ``import agent_asserts.batch``."""
    from concurrent.futures import ProcessPoolExecutor

    return isinstance(executor, ProcessPoolExecutor)


def chunked_outcomes(
    items: Iterable[Any],
    target: Any,
    judge: Any,
    executor: Executor,
    evaluate: Evaluate,
    *,
    chunk_size: int,
    max_chunks: int,
    failed: Callable[[Any, str], Any] | None = None,
    deadline: float | None = None,
    margin: float = 0.0,
) -> Iterator[Any]:
    """``evaluate(item, target, judge)`` per input, in input order, ``max_chunks`` chunks of
    ``chunk_size`` inputs in flight.

    Chunks go through :func:`pooled_outcomes`, pickled as they are submitted. A chunk whose
    task fails (its worker died, it raised, it could not be pickled) is re-run one input per
    task, alone on the pool, so only the input that fails alone is ``failed(item, reason)``.
    ``deadline`` is seconds per input: a task of ``n`` inputs may take ``n * deadline +
    margin`` before a process pool's stuck workers are killed.
    """
    task = functools.partial(evaluate_chunk, target=shipped(target, judge), evaluate=evaluate)

    def failed_chunk(chunk: list[Any], reason: str) -> list[Any]:
        if failed is None:
            raise BrokenExecutor(reason)
        return [failed(item, reason) for item in chunk]

    def seconds(chunk: list[Any]) -> float | None:
        return None if deadline is None else deadline * len(chunk) + margin

    for outcome in pooled_outcomes(
        chunked(items, chunk_size), task, executor, limit=max_chunks, failed=failed_chunk,
        deadline=seconds, split=_one_each, argument=_pickled,
    ):  # fmt: skip
        yield from outcome if isinstance(outcome, list) else pickle.loads(cast(bytes, outcome))


def _one_each(chunk: list[Any]) -> list[list[Any]]:
    return [[item] for item in chunk]


def _pickled(chunk: list[Any]) -> bytes:
    return pickle.dumps(chunk, pickle.HIGHEST_PROTOCOL)


def _restart(executor: Executor) -> Executor | None:
    from concurrent.futures import ProcessPoolExecutor  # see _is_process_pool

    if isinstance(executor, ProcessPoolExecutor):
        context = getattr(executor, "_mp_context", None)
        return ProcessPoolExecutor(max_workers=getattr(executor, "_max_workers", None),
                                   mp_context=context)  # fmt: skip
    return None


def _kill_workers(executor: Executor) -> bool:
    processes = getattr(executor, "_processes", None) or {}
    for process in list(processes.values()):
        process.kill()
    return bool(processes)


class _Task:
    """One input on its way through :func:`pooled_outcomes`: its future (None until it is
    submitted), whether it is a re-run, and its outcome once known."""

    __slots__ = ("done", "future", "item", "outcome", "rerun")

    def __init__(self, item: Any, future: Future[Any] | None = None, rerun: bool = False) -> None:
        self.item, self.future, self.rerun = item, future, rerun
        self.done = False
        self.outcome: Any = None

    def finish(self, outcome: Any) -> None:
        self.done, self.outcome, self.future = True, outcome, None


def error_text(exc: BaseException, limit: int = 300) -> str:
    """``Type: message`` of an exception, at most ``limit`` characters of message.

    >>> error_text(RecursionError("maximum recursion depth exceeded while pickling an object"))
    'RecursionError: maximum recursion depth exceeded while pickling an object'
    >>> len(error_text(ValueError("x" * 1000)))
    313
    """
    text = str(exc)
    if len(text) > limit:
        text = text[:limit] + "…"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def pooled_outcomes(
    items: Iterable[Any],
    task: Callable[[Any], T],
    executor: Executor,
    *,
    limit: int,
    failed: Callable[[Any, str], T],
    max_restarts: int = MAX_RESTARTS,
    deadline: float | Callable[[Any], float | None] | None = None,
    split: Callable[[Any], list[Any]] | None = None,
    argument: Callable[[Any], Any] | None = None,
) -> Iterator[T]:
    """``task(item)`` for every item on ``executor``, in input order, surviving broken pools.

    A task that fails — its pool broke (a worker died, or was killed past ``deadline``), or it
    raised — is re-run: ``split(item)``'s parts (default: the item itself), each submitted
    alone, one after the other, once nothing else is in flight, so a pool that breaks then
    broke because of that part. What fails that way (or raises) alone is ``failed(part,
    reason)``; every other part keeps its result. The tasks in flight in a broken pool that
    had finished keep their results; the others are re-run the same way.

    Args:
        items: The inputs, pulled lazily.
        task: The picklable function evaluated in the workers.
        executor: The pool; replacement pools this function starts are shut down by it.
        limit: The most tasks in flight at once.
        failed: Builds the outcome that stands for an item which could not be evaluated,
            from the item and the reason.
        max_restarts: How many broken pools in a row (with no task finished in between) are
            replaced before giving up: the remaining items are ``failed`` (``GAVE_UP``).
        deadline: Seconds a task may take before the process pool's workers are killed (or
            a function of the item giving them).
        split: The parts of an item whose task failed, each re-run as a task of its own.
        argument: What is submitted for an item (default: the item); when it raises (an
            item that cannot be pickled), the item's task failed with that error.
    """
    pool, owned, breaks = executor, False, 0
    ahead: deque[_Task] = deque()
    iterator = iter(items)
    given_up: str | None = None

    def submit(item: Any) -> Future[Any]:
        try:
            return pool.submit(task, item if argument is None else argument(item))
        except Exception as exc:  # a broken pool, an item that cannot be pickled
            return _failed_future(exc)

    def parts(entry: _Task) -> list[_Task]:
        pieces = [entry.item] if split is None else split(entry.item)
        return [_Task(piece, rerun=True) for piece in pieces]

    def final(entry: _Task) -> bool:  # a failure of this entry is its own
        return entry.rerun or (split is not None and len(split(entry.item)) <= 1)

    def seconds(item: Any) -> float | None:
        return deadline(item) if callable(deadline) else deadline

    def settle(wait: Callable[[_Task], Any]) -> BrokenExecutor | None:
        """Wait for every task in flight (finished ones keep their result, the others are
        replaced by their parts, re-run alone); the pool's break, if one was seen."""
        broke: BrokenExecutor | None = None
        out: list[_Task] = []
        while ahead:
            entry = ahead.popleft()
            if entry.done or entry.future is None:
                out.append(entry)
                continue
            try:
                entry.finish(wait(entry))
            except Exception as exc:  # broken, timed out or raised: re-run alone
                if isinstance(exc, BrokenExecutor):
                    broke = broke or exc
                out.extend(parts(entry))
            else:
                out.append(entry)
        ahead.extend(out)
        return broke

    def restart(exc: BrokenExecutor) -> None:
        """A new pool for the rest, or give up (the tasks not run yet are failed)."""
        nonlocal pool, owned, breaks, given_up
        reason = str(exc) or type(exc).__name__
        breaks += 1
        if owned:
            pool.shutdown(wait=False, cancel_futures=True)
        new = _restart(pool) if breaks <= max_restarts else None
        if new is not None:
            pool, owned = new, True
            return
        kind = type(pool).__name__
        given_up = (GAVE_UP.format(count=breaks) if breaks > max_restarts
                    else NO_RESTART.format(reason=reason, kind=kind))  # fmt: skip
        for waiting in ahead:  # in flight in the broken pool: its reason
            if not waiting.done:
                waiting.finish(failed(waiting.item, BROKEN_POOL.format(reason=reason)))

    flying = queued = 0  # entries in flight; entries waiting to be re-run alone
    try:
        while True:
            if given_up is None and queued == 0:
                while flying < limit:
                    item = next(iterator, _END)
                    if item is _END:
                        break
                    ahead.append(_Task(item, submit(item)))
                    flying += 1
            if not ahead:
                if given_up is not None:
                    for item in iterator:  # gave up: the rest is reported, never dropped
                        yield failed(item, given_up)
                return
            entry = ahead[0]
            if entry.done:
                ahead.popleft()
                yield entry.outcome
                continue
            if entry.future is None:
                entry.future = submit(entry.item)
                queued, flying = queued - 1, flying + 1
            alone = flying == 1
            try:
                outcome = _result(entry.future, pool, seconds(entry.item))
            except BrokenExecutor as exc:
                killed = getattr(exc, "killed_after", None)
                why = (BROKEN_POOL.format(reason=str(exc) or type(exc).__name__)
                       if killed is None else KILLED.format(seconds=killed))  # fmt: skip
                ahead.popleft()
                if final(entry) and alone:
                    entry.finish(failed(entry.item, why))
                    ahead.appendleft(entry)
                else:
                    ahead.extendleft(reversed(parts(entry)))
                settle(lambda e: cast("Future[Any]", e.future).result(timeout=DRAIN_WAIT))
                restart(exc)
                flying, queued = 0, sum(not e.done for e in ahead)
            except Exception as exc:  # the task raised (or its item could not be pickled)
                ahead.popleft()
                flying -= 1
                if final(entry):
                    yield failed(entry.item, RAISED.format(error=error_text(exc)))
                    continue
                # its parts run alone: first let the tasks in flight finish (on Dask, a task
                # beside a part whose worker dies could be blamed for it)
                ahead.extendleft(reversed(parts(entry)))
                broke = settle(
                    lambda e: _result(cast("Future[Any]", e.future), pool, seconds(e.item))
                )
                if broke is not None:
                    restart(broke)
                flying, queued = 0, sum(not e.done for e in ahead)
            else:
                breaks = 0
                ahead.popleft()
                flying -= 1
                yield outcome
    finally:
        for entry in ahead:
            if entry.future is not None:
                entry.future.cancel()
        if owned:
            pool.shutdown(wait=False, cancel_futures=True)


def _result(future: Future[T], pool: Executor, deadline: float | None) -> T:
    if deadline is None or not _is_process_pool(pool):
        return future.result()
    try:
        return future.result(timeout=deadline)
    except FutureTimeout:
        if not _kill_workers(pool):
            return future.result()
    try:
        return future.result(timeout=deadline)
    except BrokenExecutor as exc:
        exc.killed_after = deadline  # type: ignore[attr-defined]
        raise


def _failed_future(exc: BaseException) -> Future[Any]:
    future: Future[Any] = Future()
    future.set_exception(exc)
    return future


_END: Final = object()

__all__ = [
    "BROKEN_POOL",
    "DEFAULT_CHUNK_SIZE",
    "DISTRIBUTED_CHUNK_SIZE",
    "GAVE_UP",
    "KILLED",
    "MAX_RESTARTS",
    "NO_RESTART",
    "RAISED",
    "chunked",
    "chunked_outcomes",
    "default_chunk_size",
    "error_text",
    "evaluate_chunk",
    "pooled_outcomes",
    "shipped",
]
