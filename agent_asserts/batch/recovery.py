"""Batches that survive dead workers: a broken pool loses no finished result and never hangs.

:func:`pooled_outcomes` submits one task per record input to an executor, at most ``limit``
in flight, and yields the outcomes in input order. When the pool breaks (a worker process
died: ``os._exit``, a segfault, the OOM killer — ``concurrent.futures.BrokenExecutor``):

- every result that had already finished is kept;
- each record whose task was in flight in the broken pool becomes ``FAILED`` cases whose
  error gives the reason (``BROKEN_POOL``);
- a new pool of the same kind and size is started for the rest (a ``ProcessPoolExecutor``
  can be re-created; another executor cannot, and then the rest is ``FAILED`` at once);
- after ``max_restarts`` restarts, every remaining record is ``FAILED`` (``GAVE_UP``).

With a ``deadline`` (seconds; a case's time limit times its case count, plus a margin), a
task of a process pool that has not finished by then is stopped by killing the pool's
workers: the in-worker time limit (see :mod:`agent_asserts._deadline`) stops almost every
case, and this backstop stops the rest (a C call that ignores signals).

>>> from concurrent.futures import ThreadPoolExecutor
>>> def task(item):
...     return item * 2
>>> with ThreadPoolExecutor(2) as pool:
...     list(pooled_outcomes([1, 2, 3], task, pool, limit=2, failed=lambda item, why: why))
[2, 4, 6]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import BrokenExecutor, Executor, Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, Final, TypeVar

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

__all__ = ["BROKEN_POOL", "GAVE_UP", "KILLED", "MAX_RESTARTS", "NO_RESTART", "pooled_outcomes"]
