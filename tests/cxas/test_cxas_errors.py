"""Ten broken cxas files: every problem of each is reported at once, with its position."""
# ruff: noqa: E501 - the expected problem texts are whole lines

from __future__ import annotations

from pathlib import Path

import pytest
from broken_files import broken_file_tests

from agent_asserts.loaders import LoadError, load
from agent_asserts.loaders.cxas import apply_to_result

DATA = Path(__file__).parent / "data"

BROKEN = [
    (
        "broken_01_unknown_operator.yaml",
        [
            "FILE:4:15: evals[0].tool_expectations[0].type: unknown operator 'tool_caled' (did you mean 'tool_called'?)",
        ],
    ),
    (
        "broken_02_missing_keys.yaml",
        [
            "FILE:2:5: tool_expectations[0]: required key 'args' missing",
            "FILE:4:5: tool_expectations[1]: required key 'next' missing",
            "FILE:6:5: tool_expectations[2]: required key 'type' missing",
        ],
    ),
    (
        "broken_03_unknown_keys.yaml",
        [
            "FILE:3:3: [0]: unknown key 'args' (expected one of 'type', 'tool', 'min')",
            "FILE:6:3: [1]: unknown key 'min' (expected 'type' or 'tool')",
            "FILE:7:3: [2]: required key 'result' missing",
            "FILE:9:3: [2]: unknown key 'reslt' (did you mean 'result'?)",
        ],
    ),
    (
        "broken_04_wrong_types.yaml",
        [
            "FILE:3:11: evals[0].tags: must be a list (got 'P0')",
            "FILE:6:15: evals[0].tool_expectations[0].tool: must be a string (got 42)",
            "FILE:7:14: evals[0].tool_expectations[0].min: must be an integer (got 'one')",
            "FILE:10:15: evals[0].tool_expectations[1].args: must be a mapping (got a list)",
            "FILE:11:14: evals[0].tool_expectations[1].min: must be >= 1 (got 0)",
            "FILE:13:15: evals[0].tool_expectations[2].args: is required (got null)",
        ],
    ),
    (
        "broken_05_markers.yaml",
        [
            "FILE:6:7: tool_expectations[0].before: unknown key 'reslt' (did you mean 'result'?)",
            "FILE:10:7: tool_expectations[1].next: required key 'tool' missing",
            "FILE:13:11: tool_expectations[2].next: must be a string (got a list)",
        ],
    ),
    (
        "broken_06_evals.yaml",
        [
            "FILE:1:1: unknown key 'nmae' (did you mean 'name'?)",
            "FILE:3:5: evals[0]: required key 'name' missing",
            "FILE:5:5: evals[1]: must be a mapping (got 'just a string')",
            "FILE:7:5: evals[2]: unknown key 'tool_expectation' (did you mean 'tool_expectations'?)",
        ],
    ),
    (
        "broken_07_steps.yaml",
        [
            "FILE:4:15: evals[0].steps[0].goal: must be a string (got 3)",
            "FILE:5:27: evals[0].steps[0].success_criteria: must not be empty",
            "FILE:6:20: evals[0].steps[0].max_turns: must be >= 0 (got -1)",
            "FILE:7:9: evals[0].steps[1]: unknown key 'gaol' (did you mean 'goal'?)",
            "FILE:8:9: evals[0].steps[2]: must be a mapping (got 'just a goal')",
            "FILE:11:9: evals[0].expectations[1]: must be a string (got a mapping)",
        ],
    ),
    (
        "broken_08_operators.yaml",
        [
            "FILE:4:18: [0].args.id.$regex: invalid regular expression '(unclosed': missing ), unterminated subpattern at position 0",
            "FILE:5:18: [0].args.name.$gtt: unknown operator '$gtt' (did you mean '$gt'?)",
            "FILE:6:3: [1]: every_call needs 'args' or 'result' (it would check nothing)",
        ],
    ),
    (
        "broken_09_entries.json",
        [
            "FILE:6:9: evals[0].tool_expectations[0]: must be a mapping (got 'tool_called')",
            "FILE:7:18: evals[0].tool_expectations[1].type: must be a string (got 7)",
            "FILE:8:39: evals[0].tool_expectations[2].tool: must not be empty",
            "FILE:9:74: evals[0].tool_expectations[3]: unknown key 'reason' (expected one of 'type', 'args', 'tool')",
            "FILE:13:13: record: must be a string (got 5)",
        ],
    ),
    (
        "broken_10_shapes.yaml",
        [
            "FILE:2:8: evals: must not be empty",
            "FILE:3:1: unknown key 'tool_expectations' (expected one of 'evals', 'name', 'record')",
        ],
    ),
]


test_broken_file_reports_every_problem, test_there_are_ten_broken_files = broken_file_tests(
    DATA, BROKEN
)


def test_parsed_data_reports_key_paths() -> None:
    with pytest.raises(LoadError) as caught:
        load([{"type": "last_tool"}, {"type": "handof"}])
    assert str(caught.value) == (
        "<data>: [0]: required key 'tool' missing\n"
        "<data>: [1].type: unknown operator 'handof' (did you mean 'handoff'?)"
    )


def test_apply_to_result_rejects_malformed_expectations() -> None:
    case = {"name": "x", "tool_expectations": [{"type": "tool_input", "tool": "a", "min": 0}]}
    result = {"passed": True, "detailed_trace": []}
    with pytest.raises(LoadError) as caught:
        apply_to_result(case, result)
    assert str(caught.value) == (
        "<test_case>: tool_expectations[0]: required key 'args' missing\n"
        "<test_case>: tool_expectations[0].min: must be >= 1 (got 0)"
    )
    assert result == {"passed": True, "detailed_trace": []}
