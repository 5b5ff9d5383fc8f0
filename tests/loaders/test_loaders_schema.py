"""The native JSON Schema: generated from the check classes, shipped, and valid for the docs."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest

from agent_asserts.loaders.nodes import to_plain
from agent_asserts.loaders.schema import SCHEMA_PATH, load_schema, native_schema, schema_text
from agent_asserts.loaders.source import parse_file
from agent_asserts.loaders.suite import check_signatures

ROOT = Path(__file__).parents[2]
EXAMPLES = sorted(p for p in (ROOT / "docs" / "examples").iterdir() if ".suite." in p.name)
BROKEN = Path(__file__).parent / "data" / "broken"


def validator() -> object:
    return jsonschema.Draft202012Validator(load_schema())


def test_shipped_schema_is_the_generated_one() -> None:
    # After adding a check class: python -m agent_asserts.loaders.schema
    assert SCHEMA_PATH.read_text(encoding="utf-8") == schema_text()


def test_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(native_schema())


def test_every_check_has_a_definition() -> None:
    defs = native_schema()["$defs"]
    assert {f"check.{m}" for m in check_signatures()} <= set(defs)


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_docs_examples_are_valid(path: Path) -> None:
    errors = list(validator().iter_errors(to_plain(parse_file(path))))  # type: ignore[attr-defined]
    assert errors == []


@pytest.mark.parametrize(
    "name",
    ["typos.yml", "wrong_types.yml", "nulls.yml", "yaml11_scalars.yml", "cases_and_checks.yml"],
)
def test_broken_shapes_are_invalid(name: str) -> None:
    from agent_asserts.loaders.collector import ProblemCollector
    from agent_asserts.loaders.source import read_yaml

    node = read_yaml((BROKEN / name).read_text(), ProblemCollector(name))
    assert node is not None
    assert not validator().is_valid(to_plain(node))  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "entry",
    [
        {"max_steps": 3},
        {"max_steps": {"n": 3}, "severity": "soft", "at_least": 0.5},
        "succeeded",
        {"tool_order": ["a", "b"]},
        {"tool_order": "a"},
        {"followed_by": ["a", "b"]},
        {"output_equals": {"$regex": "x"}},
        {"output_equals": {"expected": {"a": 1}}},
        {"called_tool": {"name": "x", "count": {"between": [1, 2]}}},
        {"expect": {"value": "reply", "includes": "x", "at_least": 0.5}},
        {"called_tool": ["refunds_lookup", {"orderId": "A1049"}]},
        {"event": ["audit", None, 2]},
        {"memory_was_set": ["a.x", {"name": "a.y", "value": 1}]},
        {"memory_was_cleared": [{"name": "a.x"}, "a.y"]},
    ],
)
def test_valid_entries(entry: object) -> None:
    assert validator().is_valid({"checks": [entry]})  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "entry",
    [
        {"max_steps": "3"},
        {"max_step": 3},
        {"max_steps": 3, "severity": "hard"},
        {"output_equals": {"a": 1}},
        {"followed_by": ["a", "b", "c"]},
        {"expect": {"value": "reply"}},
        {"expect": {"value": "reply", "includes": "x", "equals": "y"}},
        {"called_tool": {"name": "x", "count": 1.5}},
        "max_steps",
        {"called_tool": ["a", None, None, None, 1, "extra"]},
        {"event": ["audit", "a callable", 2]},
        {"memory_was_set": []},
        {"memory_was_set": [["a.x", 1]]},
        {"memory_was_cleared": [{"name": "a.x", "value": 1}]},
    ],
)
def test_invalid_entries(entry: object) -> None:
    assert not validator().is_valid({"checks": [entry]})  # type: ignore[attr-defined]
