"""The parent rebuilds a chunk's results with the garbage collector paused, and leaves the
collector as it found it (enabled or not), also when rebuilding fails."""

from __future__ import annotations

import gc
import pickle
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from agent_asserts import EvalContext, evaluate_many
from agent_asserts.batch import chunks


def one_check(ctx: EvalContext) -> None:
    ctx.max_steps(3)


RECORDS = [{"steps": i % 5, "events": []} for i in range(40)]


@pytest.fixture
def collector_state() -> Iterator[None]:
    enabled = gc.isenabled()
    yield
    if enabled:
        gc.enable()
    else:
        gc.disable()


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_left_as_it_was(enabled: bool, collector_state: None) -> None:
    (gc.enable if enabled else gc.disable)()
    seen: list[bool] = []
    rebuild = chunks.unpack_cases

    def spying(packed: tuple[object, ...]) -> object:
        seen.append(gc.isenabled())
        return rebuild(packed)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as patch, ThreadPoolExecutor(2) as pool:
        patch.setattr(chunks, "unpack_cases", spying)
        batch = evaluate_many(RECORDS, one_check, executor=pool, chunk_size=8)
    assert batch.cases == evaluate_many(RECORDS, one_check).cases
    assert seen == [False] * len(RECORDS)  # paused while rebuilding
    assert gc.isenabled() is enabled


def test_a_chunk_that_cannot_be_rebuilt_reenables_the_collector(collector_state: None) -> None:
    gc.enable()
    with pytest.raises(pickle.UnpicklingError):
        chunks._unpacked(b"not a pickle")
    assert gc.isenabled()
