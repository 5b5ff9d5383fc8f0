"""Ten broken SOP files: every problem of each is reported at once, with its position."""
# ruff: noqa: E501 - the expected problem texts are whole lines

from __future__ import annotations

from pathlib import Path

import pytest
from broken_files import broken_file_tests

from agent_asserts.loaders import LoadError, loads

DATA = Path(__file__).parent / "data"

BROKEN = [
    (
        "broken_01_unknown_type.yaml",
        [
            "FILE:1:9: [0].type: unknown type 'tool_caled' (did you mean 'tool_called'?)",
            "FILE:3:9: [1].type: unknown type 'llm_judges' (did you mean 'llm_judge'?)",
        ],
    ),
    (
        "broken_02_missing_keys.yaml",
        [
            "FILE:1:3: [0]: required key 'assertions' missing",
            "FILE:3:3: [1]: required key 'sequence' missing",
            "FILE:5:3: [2]: required key 'pattern' missing",
            "FILE:7:3: [3]: required key 'type' missing",
        ],
    ),
    (
        "broken_03_unknown_keys.yaml",
        [
            "FILE:1:3: [0]: required key 'toolSlug' missing",
            "FILE:2:3: [0]: unknown key 'toolslug' (did you mean 'toolSlug'?)",
            "FILE:3:3: [1]: required key 'toolSlugs' missing",
            "FILE:4:3: [1]: unknown key 'toolSlug' (did you mean 'toolSlugs'?)",
            "FILE:7:3: [2]: unknown key 'catalogSlugs' (did you mean 'catalogSlug'?)",
        ],
    ),
    (
        "broken_04_ops.yaml",
        [
            "FILE:4:10: [0].assertions.zip: required key 'op' missing",
            "FILE:6:20: [0].assertions.order_id.op: must be a string (got 7)",
            "FILE:7:16: [0].assertions.note.op: must be one of 'exists', 'equals', 'matches', 'gt', 'lt', 'contains' (got 'not_in')",
            "FILE:11:17: [1].assertions.total.op: must be one of 'exists', 'equals', 'contains', 'not_in' (got 'gt')",
        ],
    ),
    (
        "broken_05_values.yaml",
        [
            "FILE:4:30: [0].assertions.zip.value: must be a string, number or boolean (got a list)",
            "FILE:5:31: [0].assertions.quantity.value: must be a number (got '5')",
            "FILE:6:38: [0].assertions.order_id.pattern: invalid regular expression '(unclosed': missing ), unterminated subpattern at position 0",
            "FILE:7:28: [0].assertions.total.value: is required (got null)",
            "FILE:11:34: [1].assertions.status.values: must not be empty",
            "FILE:12:33: [1].assertions.tags.value: must be a string (got 3)",
        ],
    ),
    (
        "broken_06_assertion_keys.yaml",
        [
            "FILE:4:13: [0].assertions.status: required key 'value' missing",
            "FILE:4:26: [0].assertions.status: unknown key 'values' (did you mean 'value'?)",
            "FILE:5:22: [0].assertions.id: unknown key 'value' (expected 'op')",
            "FILE:6:16: [0].assertions.note.op: must be one of 'exists', 'equals', 'contains', 'not_in' (got 'matches')",
        ],
    ),
    (
        "broken_07_fields.yaml",
        [
            "FILE:4:5: [0].assertions: invalid field path 'address..zip' (an empty key)",
            "FILE:5:5: [0].assertions: invalid field path 'address.' (an empty key)",
            "FILE:6:5: [0].assertions: invalid field path '/' (an empty key)",
            "FILE:9:15: [1].assertions: must not be empty",
            "FILE:12:15: [2].assertions: must be a mapping (got a list)",
        ],
    ),
    (
        "broken_08_types.yaml",
        [
            "FILE:3:15: checks[0].toolSlug: must be a string (got 5)",
            "FILE:5:15: checks[1].sequence: must not be empty",
            "FILE:6:17: checks[1].contiguous: must be true or false (got 'yes'; only true and false are booleans)",
            "FILE:10:23: checks[2].withinLastNTurns: must be >= 1 (got 0)",
            "FILE:12:16: checks[3].toolSlugs: must be a list (got 'complete_cart')",
            "FILE:14:27: checks[4].sequence[1]: must not be empty",
            "FILE:15:18: checks[4].catalogSlug: must be a string (got 3)",
        ],
    ),
    (
        "broken_09_document.yaml",
        [
            "FILE:1:1: unknown key 'nmae' (did you mean 'name'?)",
            "FILE:3:5: checks[0]: must be a mapping (got 'tool_called get_order')",
            "FILE:6:11: checks[2].type: is required (got null)",
        ],
    ),
    (
        "broken_10_judge.json",
        [
            "FILE:2:38: [0].criterion: must not be empty",
            "FILE:2:52: [0].rubric: must be a string (got 3)",
            "FILE:2:64: [0].model: is required (got null)",
            "FILE:4:15: [1].pattern: invalid regular expression '(confirm': missing ), unterminated subpattern at position 0",
            "FILE:5:52: [2]: duplicate key 'toolSlug' (first defined at line 5, column 27)",
        ],
    ),
]


test_broken_file_reports_every_problem, test_there_are_ten_broken_files = broken_file_tests(
    DATA, BROKEN
)


def test_a_document_mixing_cxas_and_sop_entries_is_read_as_sop() -> None:
    text = "- {type: tool_called, toolSlug: a}\n- {type: last_tool, tool: b}\n"
    with pytest.raises(LoadError) as caught:
        loads(text)
    assert str(caught.value) == (
        "<string>:2:10: [1].type: unknown type 'last_tool' (expected one of 'tool_called', "
        "'tool_sequence', 'tool_input_contains', 'tool_output_contains', 'no_tool_called', "
        "'confirmation_requested', 'llm_judge')"
    )
