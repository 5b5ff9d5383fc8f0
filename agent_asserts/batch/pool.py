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
``limit`` in flight, and yields the outcomes in input order. When the pool breaks (a worker
process died: ``os._exit``, a segfault, the OOM killer — ``concurrent.futures.BrokenExecutor``):

- every result that had already finished is kept;
- each input whose task was in flight in the broken pool becomes ``FAILED`` cases whose
  error gives the reason (``BROKEN_POOL``);
- a new pool of the same kind and size is started for the rest (a ``ProcessPoolExecutor``
  can be re-created; another executor cannot, and then the rest is ``FAILED`` at once);
- after ``max_restarts`` restarts, every remaining input is ``FAILED`` (``GAVE_UP``).

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
from concurrent.futures import (
    BrokenExecutor,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
)
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, Final, TypeVar

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

    >>> [default_chunk_size(e) for e in (ThreadPoolExecutor(1), ProcessPoolExecutor(1), object())]
    [1, 64, 256]
    """
    if isinstance(executor, ThreadPoolExecutor):
        return 1
    return (
        DEFAULT_CHUNK_SIZE if isinstance(executor, ProcessPoolExecutor) else DISTRIBUTED_CHUNK_SIZE
    )


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
) -> Iterator[Any]:
    """``evaluate(item, target, judge)`` per input, in input order, ``max_chunks`` chunks of
    ``chunk_size`` inputs in flight.

    Chunks go through :func:`pooled_outcomes`: when a worker dies, the inputs of the chunks
    in flight are ``failed(item, reason)`` and a new pool takes the rest; ``deadline``
    (seconds per chunk) kills a process pool's stuck workers.
    """
    task = functools.partial(evaluate_chunk, target=shipped(target, judge), evaluate=evaluate)
    blobs = (pickle.dumps(chunk, pickle.HIGHEST_PROTOCOL) for chunk in chunked(items, chunk_size))

    def failed_chunk(data: bytes, reason: str) -> Any:
        if failed is None:
            raise BrokenExecutor(reason)
        return [failed(item, reason) for item in pickle.loads(data)]  # a list, not bytes

    for blob in pooled_outcomes(
        blobs, task, executor, limit=max_chunks, failed=failed_chunk, deadline=deadline
    ):
        yield from blob if isinstance(blob, list) else pickle.loads(blob)


def _restart(executor: Executor) -> Executor | None:
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


def pooled_outcomes(
    items: Iterable[Any],
    task: Callable[[Any], T],
    executor: Executor,
    *,
    limit: int,
    failed: Callable[[Any, str], T],
    max_restarts: int = MAX_RESTARTS,
    deadline: float | None = None,
) -> Iterator[T]:
    """``task(item)`` for every item on ``executor``, in input order, surviving broken pools.

    Args:
        items: The inputs, pulled lazily.
        task: The picklable function evaluated in the workers.
        executor: The pool; replacement pools this function starts are shut down by it.
        limit: The most tasks in flight at once.
        failed: Builds the outcome that stands for an item which could not be evaluated,
            from the item and the reason.
        max_restarts: How many broken pools are replaced before giving up.
        deadline: Seconds a task may take before the process pool's workers are killed.
    """
    pool, owned, restarts = executor, False, 0
    pending: deque[tuple[Any, Future[T]]] = deque()
    iterator = iter(items)
    broken: str | None = None
    try:
        while True:
            while broken is None and len(pending) < limit:
                item = next(iterator, _END)
                if item is _END:
                    break
                try:
                    pending.append((item, pool.submit(task, item)))
                except BrokenExecutor as exc:
                    pending.append((item, _broken_future(exc)))
                    break
            if not pending:
                if broken is None:
                    return
                for item in iterator:  # gave up: the rest is reported, never dropped
                    yield failed(item, broken)
                return
            item, future = pending.popleft()
            try:
                outcome = _result(future, pool, deadline)
            except BrokenExecutor as exc:
                reason = str(exc) or type(exc).__name__
                killed = getattr(exc, "killed_after", None)
            else:
                yield outcome
                continue
            yield failed(item, BROKEN_POOL.format(reason=reason) if killed is None
                         else KILLED.format(seconds=killed))  # fmt: skip
            yield from _drain(pending, failed, reason)
            if owned:
                pool.shutdown(wait=False, cancel_futures=True)
            replacement = _restart(pool) if restarts < max_restarts else None
            if replacement is None:
                kind = type(pool).__name__
                broken = (GAVE_UP.format(count=restarts + 1) if restarts >= max_restarts
                          else NO_RESTART.format(reason=reason, kind=kind))  # fmt: skip
            else:
                pool, owned, restarts = replacement, True, restarts + 1
    finally:
        for _, future in pending:
            future.cancel()
        if owned:
            pool.shutdown(wait=False, cancel_futures=True)


def _drain(
    pending: deque[tuple[Any, Future[T]]], failed: Callable[[Any, str], T], reason: str
) -> Iterator[T]:
    """The tasks queued in the broken pool: finished ones keep their result."""
    while pending:
        item, future = pending.popleft()
        try:
            outcome = future.result(timeout=DRAIN_WAIT)
        except (BrokenExecutor, FutureTimeout):
            outcome = failed(item, BROKEN_POOL.format(reason=reason))
        yield outcome


def _result(future: Future[T], pool: Executor, deadline: float | None) -> T:
    if deadline is None or not isinstance(pool, ProcessPoolExecutor):
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


def _broken_future(exc: BaseException) -> Future[Any]:
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
    "chunked",
    "chunked_outcomes",
    "default_chunk_size",
    "evaluate_chunk",
    "pooled_outcomes",
    "shipped",
]
