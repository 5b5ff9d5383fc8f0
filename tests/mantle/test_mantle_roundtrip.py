"""A Mantle suite saved in the native form (``Suite.to_dict()``) loads back to the same checks
and gives the same results: the dialect builds nothing the native form cannot say."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_asserts.loaders import Suite, load
from agent_asserts.record.adapters import mantle

DATA = Path(__file__).parent / "data"


def as_native(suite: Suite) -> Suite:
    return load(suite.to_dict(), dialect="native")


@pytest.mark.parametrize(
    "path", [*sorted((DATA / "seed").glob("*.yml")), DATA / "card_replace_damaged.yml"],
    ids=lambda p: p.stem,
)  # fmt: skip
def test_native_round_trip_gives_the_same_results(path: Path) -> None:
    suite = load(path)
    native = as_native(suite)
    assert [c.checks for c in native.cases] == [c.checks for c in suite.cases]
    record = mantle.read(DATA / "card_replace_damaged.jsonl")
    before = [(r.name, r.status, r.severity, r.message) for r in suite.evaluate(record)[0].results]
    after = [(r.name, r.status, r.severity, r.message) for r in native.evaluate(record)[0].results]
    assert after == before
