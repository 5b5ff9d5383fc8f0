"""Chunked batches: records go to an executor's workers in chunks, the suite once per worker.

Submitting one task per record costs a round trip, a pickled suite and a pickled result per
record, more than a small record's evaluation. For executors whose workers are other processes
or machines (a process pool, Dask, Ray), :func:`chunked_outcomes` sends ``chunk_size`` records
per task; the suite (with the judge) is pickled once in this process and each worker unpickles
it once, keeping it by digest (:class:`ShippedTarget`); results come back as compact tuples
(:mod:`agent_asserts.batch.compact`). A thread pool shares memory, so it keeps one record per
task unless ``chunk_size`` is given.

The defaults were chosen with ``benchmarks/batches.py`` (throughput and CPU per record over chunk
sizes on 10,000 small records): :data:`DEFAULT_CHUNK_SIZE` for a process pool (64: 64 to 512
cost the same CPU, and a smaller chunk leaves less work on one worker at the end), and
:data:`DISTRIBUTED_CHUNK_SIZE` for any other executor (Dask, Ray), whose scheduler costs about
a millisecond of CPU per task (256: the CPU bound of Dask's ratio on two cores rises from
about 1.35 at 64 to about 1.65).

>>> list(chunked(range(5), 2))
[[0, 1], [2, 3], [4]]
"""

from __future__ import annotations

import functools
import gc
import hashlib
import pickle
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, Final

from agent_asserts.batch.compact import PackedCase, pack_cases, unpack_cases
from agent_asserts.batch.recovery import pooled_outcomes

DEFAULT_CHUNK_SIZE: Final = 64
DISTRIBUTED_CHUNK_SIZE: Final = 256
_KEPT: Final = 8
_unpickled: OrderedDict[bytes, Any] = OrderedDict()

# (packed cases, the record when kept, else None) for each record of a chunk
PackedOutcome = tuple[PackedCase, Any]
# evaluate_one(item, target, judge, keep) -> (case results, kept record)
Evaluate = Callable[[Any, Any, Any, bool], tuple[tuple[Any, ...], Any]]


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


class ShippedTarget:
    """A suite (or case function) and judge pickled once; unpickled once per worker process.

    When they cannot be pickled with :mod:`pickle` (a lambda), the objects themselves travel
    and the executor serializes them its own way (Dask and Ray use cloudpickle).

    >>> from agent_asserts.testing import demo_record
    >>> shipped = ShippedTarget(len, None)
    >>> shipped.resolve() == (len, None), shipped.resolve()[0] is shipped.resolve()[0]
    (True, True)
    """

    def __init__(self, target: Any, judge: Any) -> None:
        try:
            self.data: bytes | None = pickle.dumps((target, judge), pickle.HIGHEST_PROTOCOL)
            self.digest = hashlib.blake2b(self.data, digest_size=16).digest()
            self.objects: tuple[Any, Any] | None = None
        except Exception:
            self.data, self.digest, self.objects = None, b"", (target, judge)

    def __getstate__(self) -> dict[str, Any]:
        return {"data": self.data, "digest": self.digest, "objects": self.objects}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def resolve(self) -> tuple[Any, Any]:
        """(target, judge), unpickled at most once per process for the same bytes."""
        if self.objects is not None:
            return self.objects
        found = _unpickled.get(self.digest)
        if found is None:
            assert self.data is not None
            found = pickle.loads(self.data)
            _unpickled[self.digest] = found
            while len(_unpickled) > _KEPT:
                _unpickled.popitem(last=False)
        return found  # type: ignore[no-any-return]


def evaluate_chunk(items: bytes, shipped: ShippedTarget, keep: bool, evaluate: Evaluate) -> bytes:
    """Evaluate the target on every record input of the pickled list ``items`` (runs in a
    worker) with ``evaluate`` (``batch.evaluate.evaluate_one``, a module-level function that
    travels by name); the pickled list of (packed cases, kept record or None), one per input.

    Both directions travel as bytes: an executor then moves one opaque blob per chunk (Dask,
    for one, hashes task arguments; hashing bytes is cheap, walking 64 records is not).
    """
    target, judge = shipped.resolve()
    shared: dict[Any, Any] = {}
    out: list[PackedOutcome] = []
    for item in pickle.loads(items):
        results, record = evaluate(item, target, judge, keep)
        out.append((pack_cases(results, shared), record))
    return pickle.dumps(out, pickle.HIGHEST_PROTOCOL)


def default_chunk_size(executor: Executor) -> int:
    """1 for a thread pool (nothing is pickled), :data:`DEFAULT_CHUNK_SIZE` for a process pool,
    :data:`DISTRIBUTED_CHUNK_SIZE` for any other executor (Dask's, one over Ray tasks).

    >>> from concurrent.futures import ProcessPoolExecutor
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
    keep: bool,
    executor: Executor,
    evaluate: Evaluate,
    *,
    chunk_size: int,
    max_chunks: int,
    failed: Callable[[Any, str], tuple[tuple[Any, ...], Any]] | None = None,
    deadline: float | None = None,
) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """(case results, kept record) per record, in input order, ``max_chunks`` chunks in flight.

    Chunks go through :func:`~agent_asserts.batch.recovery.pooled_outcomes`: when a worker
    dies, the records of the chunks in flight are ``failed(item, reason)`` and a new pool
    takes the rest; ``deadline`` (seconds per chunk) kills a process pool's stuck workers.
    """
    shipped = ShippedTarget(target, judge)
    task = functools.partial(evaluate_chunk, shipped=shipped, keep=keep, evaluate=evaluate)
    blobs = (pickle.dumps(chunk, pickle.HIGHEST_PROTOCOL) for chunk in chunked(items, chunk_size))

    def failed_chunk(data: bytes, reason: str) -> Any:
        if failed is None:
            raise BrokenExecutor(reason)
        return [failed(item, reason) for item in pickle.loads(data)]  # a list, not bytes

    for blob in pooled_outcomes(
        blobs, task, executor, limit=max_chunks, failed=failed_chunk, deadline=deadline
    ):
        if isinstance(blob, list):  # the records of a chunk that could not be evaluated
            yield from blob
            continue
        yield from _unpacked(blob)


def _unpacked(blob: bytes) -> list[tuple[tuple[Any, ...], Any]]:
    """The outcomes of a chunk, rebuilt with the garbage collector paused.

    Rebuilding allocates a few thousand objects that all stay alive (the batch keeps them), so
    the collections their allocation would trigger find nothing to free; with the results of
    earlier chunks alive too, they cost the parent about as much as the rebuilding itself.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        return [(unpack_cases(packed), record) for packed, record in pickle.loads(blob)]
    finally:
        if enabled:
            gc.enable()


__all__ = [
    "DEFAULT_CHUNK_SIZE",
    "DISTRIBUTED_CHUNK_SIZE",
    "ShippedTarget",
    "chunked",
    "chunked_outcomes",
    "default_chunk_size",
    "evaluate_chunk",
]
