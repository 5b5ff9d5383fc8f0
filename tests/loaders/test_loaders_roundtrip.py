"""Suite.to_dict(): native → objects → native gives equal objects (and equal results)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from agent_asserts.loaders import load, loads
from agent_asserts.testing import demo_record

EXAMPLES = Path(__file__).parents[2] / "docs" / "examples"
SUITES = sorted(p for p in EXAMPLES.iterdir() if ".suite." in p.name)


@pytest.mark.parametrize("path", SUITES, ids=[p.name for p in SUITES])
def test_round_trip_through_data(path: Path) -> None:
    suite = load(path)
    data = suite.to_dict()
    again = load(data)  # record paths stay as written: relative to the working directory
    assert again.name == suite.name
    assert [(c.name, c.entries, c.metadata) for c in again.cases] == [
        (c.name, c.entries, c.metadata) for c in suite.cases
    ]
    assert [c.record_path for c in again.cases] == [
        None if c.record_path is None else c.record_path.relative_to(path.parent)
        for c in suite.cases
    ]
    assert again.to_dict() == data


@pytest.mark.parametrize("path", SUITES, ids=[p.name for p in SUITES])
def test_round_trip_through_a_yaml_file(path: Path, tmp_path: Path) -> None:
    suite = load(path)
    target = path.parent / f"_roundtrip_{path.stem}.yml"
    try:
        target.write_text(yaml.safe_dump(suite.to_dict(), sort_keys=False, allow_unicode=True))
        again = load(target)
    finally:
        target.unlink(missing_ok=True)
    assert again == suite
    record = demo_record()
    assert [r.to_dict() for r in again.evaluate(record)] == [
        r.to_dict() for r in suite.evaluate(record)
    ]


def test_json_dump_of_the_native_form() -> None:
    suite = loads("checks:\n  - called_tool: {name: x, arguments: {a: {$gt: 1}, $$lit: 2}}\n")
    text = json.dumps(suite.to_dict())
    assert loads(text, name="s.json") == suite


def test_single_and_multi_case_forms() -> None:
    single = loads("name: s\nrecord: r.json\nchecks: [succeeded]\n")
    assert single.to_dict() == {"name": "s", "record": "r.json", "checks": ["succeeded"]}
    multi = loads("name: m\ncases:\n  - {name: a, checks: [{max_steps: 2}]}\n")
    assert multi.to_dict() == {"name": "m", "cases": [{"name": "a", "checks": [{"max_steps": 2}]}]}
