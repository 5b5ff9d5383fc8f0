"""The shipped JSON Schema of the record: equal to the generated one, every field described,
and it accepts every valid record and rejects invalid ones (checked with jsonschema)."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from agent_asserts.record import TrialRecord
from agent_asserts.record.schema import SCHEMA_PATH, record_schema, schema_text
from agent_asserts.testing import demo_record


def test_shipped_file_is_generated() -> None:
    assert SCHEMA_PATH.read_text(encoding="utf-8") == schema_text()


def _properties(node: Any) -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = []
    if isinstance(node, dict):
        for key, value in node.get("properties", {}).items():
            found.append((key, value))
        for value in node.values():
            found.extend(_properties(value))
    elif isinstance(node, list):
        for value in node:
            found.extend(_properties(value))
    return found


def test_every_field_is_documented() -> None:
    schema = record_schema()
    undocumented = [
        key
        for key, value in _properties(schema["properties"]) + _properties(schema["$defs"])
        if isinstance(value, dict)
        and "$ref" not in value
        and not value.get("description")
        and set(value) - {"enum", "const"}
    ]
    assert undocumented == []


def test_the_schema_is_valid_and_accepts_records() -> None:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    full = TrialRecord.builder().user("hi").model_call("m", {"input_tokens": 3}).reasoning(
        "think", redacted=True).tool("t", arguments_raw="{", outcome="retried", group_id="g",
        duration=0.5, agent="b").guardrail("pii", True).subagent("b", from_agent="a",
        mode="tool").build(usage={"total_tokens": 3, "cached": 1},
        tools=[{"name": "t", "parameters": {"type": "object"}}])  # fmt: skip
    for rec in (demo_record(), full):
        assert list(validator.iter_errors(rec.to_dict())) == []


@pytest.mark.parametrize(
    "data",
    [
        {"events": [{"kind": "tool_call", "payload": {"name": "t", "outcome": "lost"}}]},
        {"events": [{"kind": "x", "duration": -1}]},
        {"tools": [{"name": "t", "desc": "x"}]},
        {"events": [{"kind": "memory", "payload": {"name": "a"}}]},
        {"usage": {"cached": -1}},
    ],
)
def test_the_schema_rejects_invalid_records(data: Any) -> None:
    validator = jsonschema.Draft202012Validator(record_schema())
    assert list(validator.iter_errors(data)) != []
    with pytest.raises(ValueError, match="invalid record"):
        TrialRecord.from_dict(data)
