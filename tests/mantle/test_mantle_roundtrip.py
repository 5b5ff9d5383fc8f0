"""A Mantle suite saved in the native form (``Suite.to_dict()``) loads back to the same checks
and gives the same results: the dialect builds nothing the native form cannot say."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from agent_asserts import TrialRecord
from agent_asserts.loaders import Case, LoadError, Suite, load, loads
from agent_asserts.loaders.mantle import MantleCase
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


def test_a_scenario_with_initial_slots_loads_back_equal_and_keeps_its_initial_memory() -> None:
    # found by tests/fuzz/test_fuzz_roundtrips.py with a random seed: the native form dropped
    # setup.initial_slots, so the case loaded back as a plain Case that seeded no memory
    suite = load(DATA / "card_replace_damaged.yml")
    data = suite.to_dict()  # record: relative to the suite file's folder
    (written,) = data.get("cases", [data])
    assert written["initial_memory"] == {"project.customer_authenticated": True}
    native = load(data, dialect="native")  # data: its record path is taken as written
    (loaded,) = suite.cases
    assert native.cases == (attrs.evolve(loaded, record_path=Path(written["record"])),)
    (case,) = native.cases
    assert isinstance(case, MantleCase)
    prepared = case.prepare(TrialRecord())
    assert prepared.initial_state == {"memory": {"project.customer_authenticated": True}}


def test_a_scenario_without_initial_slots_is_a_plain_case_and_loads_back_equal() -> None:
    doc = {
        "scenario": {"name": "s", "goals": {"assertions": [{"skill_activated": {"skill_id": "a"}}]}}
    }
    suite = load(doc)
    assert type(suite.cases[0]) is Case
    assert "initial_memory" not in suite.to_dict()
    assert as_native(suite) == suite


def test_native_initial_memory_must_be_a_mapping() -> None:
    with pytest.raises(LoadError) as info:
        loads("name: c\ninitial_memory: [a]\nchecks: [succeeded]\n")
    assert str(info.value) == ("<string>:2:17: initial_memory: must be a mapping (got a list)")
