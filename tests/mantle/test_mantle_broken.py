"""Ten broken Mantle scenario files: every problem of each reported at once, with position."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_asserts import on
from agent_asserts.loaders import LoadError, load, loads

BROKEN = Path(__file__).parent / "data" / "broken"

# The complete LoadError text of each file, one problem a line (line:column: key path: message).
EXPECTED: dict[str, str] = {
    "01_unknown_keys.yml": (
        "01_unknown_keys.yml:2:5: assertions[0]: unknown assertion 'skill_activate' "
        "(did you mean 'skill_activated'?)\n"
        "01_unknown_keys.yml:5:7: assertions[1].skill_completed: required key "
        "'skill_id' missing\n"
        "01_unknown_keys.yml:5:7: assertions[1].skill_completed: unknown key 'skil_id' "
        "(did you mean 'skill_id'?)\n"
        "01_unknown_keys.yml:6:5: assertions[2]: unknown assertion 'tool_excuted' (did "
        "you mean 'tool_executed'?)\n"
    ),
    "02_step_id_rejected.yml": (
        "02_step_id_rejected.yml:4:7: assertions[0].skill_activated: 'step_id' is not "
        "allowed in skill_activated\n"
        "02_step_id_rejected.yml:7:7: assertions[1].skill_completed: 'step_id' is not "
        "allowed in skill_completed\n"
        "02_step_id_rejected.yml:11:7: assertions[2].ordered_block_entered: 'step_id' "
        "is not allowed in ordered_block_entered\n"
        "02_step_id_rejected.yml:14:16: assertions[3].skill_cancelled.step_id: must be "
        "a string (got 3)\n"
    ),
    "03_tool_source.yml": (
        "03_tool_source.yml:4:15: assertions[0].tool_executed.source: must be 'local' "
        "or 'mcp' (got 'remote')\n"
        "03_tool_source.yml:6:7: assertions[1].tool_executed: required key 'tool_name' "
        "missing\n"
        "03_tool_source.yml:7:17: assertions[1].tool_executed.is_error: must be true "
        "or false (got 'yes'; only true and false are booleans)\n"
        "03_tool_source.yml:9:7: assertions[2].tool_executed: required key 'source' "
        "missing\n"
        "03_tool_source.yml:10:18: assertions[2].tool_executed.arguments: must be a "
        "mapping (got a list)\n"
    ),
    "04_mcp_server.yml": (
        "04_mcp_server.yml:3:7: assertions[0].tool_executed: required key 'mcp_server' "
        "missing (source is 'mcp')\n"
        "04_mcp_server.yml:8:7: assertions[1].tool_executed: 'mcp_server' is not "
        "allowed when 'source' is 'local'\n"
    ),
    "05_memory.yml": (
        "05_memory.yml:3:7: assertions[0].memory_was_set: must be a list (got a "
        "mapping)\n"
        "05_memory.yml:4:25: assertions[1].memory_was_not_set: must not be empty\n"
        "05_memory.yml:7:9: assertions[2].memory_was_cleared[0]: 'value' is not "
        "allowed in memory_was_cleared: a clear has no value\n"
        "05_memory.yml:10:16: assertions[3].memory_was_set[0].value: must not be null: "
        "null is not accepted as a memory value\n"
        "05_memory.yml:11:9: assertions[3].memory_was_set[1]: required key 'name' "
        "missing\n"
    ),
    "06_sequencing.yml": (
        "06_sequencing.yml:3:9: assertions[0].sequencing[0]: memory_was_not_set is not "
        "allowed inside sequencing (steps are skill, ordered-block, tool_executed, "
        "memory_was_set, memory_was_cleared or bot_uttered)\n"
        "06_sequencing.yml:5:11: assertions[0].sequencing[1].memory_was_set: inside "
        "sequencing, memory_was_set takes the key name as a string (got a list)\n"
        "06_sequencing.yml:7:11: assertions[0].sequencing[2].memory_was_cleared: "
        "inside sequencing, memory_was_cleared takes the key name as a string (got a "
        "mapping)\n"
        "06_sequencing.yml:9:9: assertions[0].sequencing[3]: tools_within_one_turn is "
        "not allowed inside sequencing (steps are skill, ordered-block, tool_executed, "
        "memory_was_set, memory_was_cleared or bot_uttered)\n"
        "06_sequencing.yml:14:17: assertions[1].sequencing: must not be empty\n"
    ),
    "07_tools_within_one_turn.yml": (
        "07_tools_within_one_turn.yml:3:7: assertions[0].tools_within_one_turn: "
        "required key 'allow_extra_calls' missing\n"
        "07_tools_within_one_turn.yml:3:16: "
        "assertions[0].tools_within_one_turn.ordered: must be true or false (got "
        "'yes'; only true and false are booleans)\n"
        "07_tools_within_one_turn.yml:5:9: assertions[0].tools_within_one_turn.calls: "
        "needs at least two calls (got 1)\n"
        "07_tools_within_one_turn.yml:11:11: "
        "assertions[1].tools_within_one_turn.calls[0]: a call is a 'tool_executed' "
        "entry (got 'skill_activated')\n"
        "07_tools_within_one_turn.yml:14:24: "
        "assertions[1].tools_within_one_turn.calls[1].tool_executed.tool_name: "
        "'set_fields' is one of Mantle's lifecycle tools, which tools_within_one_turn "
        "does not count: this call could never match\n"
    ),
    "08_agent_messages.yml": (
        "08_agent_messages.yml:2:18: assertions[0].bot_uttered: set at least one of "
        "'utter_name', 'text_matches', 'buttons'\n"
        "08_agent_messages.yml:4:21: assertions[1].bot_uttered.text_matches: invalid "
        "regular expression 'replacement (ordered': missing ), unterminated subpattern "
        "at position 12\n"
        "08_agent_messages.yml:7:11: assertions[2].bot_did_not_utter.buttons[0]: "
        "required key 'title' missing\n"
        "08_agent_messages.yml:9:20: "
        "assertions[2].bot_did_not_utter.buttons[1].payload: must be a string (got 5)\n"
        "08_agent_messages.yml:10:7: assertions[2].bot_did_not_utter: unknown key "
        "'utter' (did you mean 'utter_name'?)\n"
    ),
    "09_scenario_shape.yml": (
        "09_scenario_shape.yml:2:3: scenario: required key 'goals' missing\n"
        "09_scenario_shape.yml:2:9: scenario.name: must be a string (got 3)\n"
        "09_scenario_shape.yml:5:20: scenario.setup.initial_slots: must be a mapping "
        "(got a list)\n"
        "09_scenario_shape.yml:6:3: scenario: unknown key 'goal' (did you mean "
        "'goals'?)\n"
    ),
    "10_entry_shape.yml": (
        "10_entry_shape.yml:6:9: scenario.goals.criteria[1]: must be a string (got 42)\n"
        "10_entry_shape.yml:8:26: scenario.goals.assertions[0].skill_activated: must "
        "be a mapping (got 'card_replace')\n"
        "10_entry_shape.yml:9:9: scenario.goals.assertions[1]: an assertion has "
        "exactly one key (got 'skill_activated', 'skill_completed')\n"
        "10_entry_shape.yml:13:9: scenario.goals.assertions[2]: must be a mapping (got "
        "'bot_uttered')\n"
        "10_entry_shape.yml:14:31: scenario.goals.assertions[3].tools_within_one_turn: "
        "is required (got null)\n"
    ),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_broken_file_reports_every_problem(name: str) -> None:
    path = BROKEN / name
    with pytest.raises(LoadError) as info:
        loads(path.read_text(), name=name)
    assert str(info.value) + "\n" == EXPECTED[name]


def test_there_are_ten_broken_files() -> None:
    assert sorted(p.name for p in BROKEN.glob("*.yml")) == sorted(EXPECTED)
    assert len(EXPECTED) == 10


def test_loading_by_path_names_the_file() -> None:
    path = BROKEN / "04_mcp_server.yml"
    with pytest.raises(LoadError) as info:
        load(path, dialect="mantle")
    first = info.value.problems[0]
    assert (first.file, first.line, first.col) == (str(path), 3, 7)


def test_parsed_data_reports_key_paths_without_positions() -> None:
    with pytest.raises(LoadError) as info:
        load({"assertions": [{"memory_was_cleared": [{"name": "a.b", "value": 1}]}]})
    assert str(info.value) == (
        "<data>: assertions[0].memory_was_cleared[0]: "
        "'value' is not allowed in memory_was_cleared: a clear has no value"
    )


def test_tool_rules_are_the_selectors_reported_at_their_key() -> None:
    # the loader does not re-implement ToolSelector's rules: it reports its error, at the key
    # the error is about, together with the other problems of the file
    with pytest.raises(ValueError, match="mcp_server") as selector_error:
        on.tool("x", source="local", mcp_server="m")
    with pytest.raises(LoadError) as info:
        loads(
            "assertions:\n"
            "  - tool_executed: {tool_name: x, source: local, mcp_server: m, is_error: maybe}\n"
            "  - tool_executed: {tool_name: 'a|', source: local}\n",
            name="s.yml",
        )
    assert str(info.value).splitlines() == [
        f"s.yml:2:50: assertions[0].tool_executed: {selector_error.value}",
        "s.yml:2:75: assertions[0].tool_executed.is_error: must be true or false (got 'maybe'; "
        "only true and false are booleans)",
        "s.yml:3:21: assertions[1].tool_executed: 'name' has an empty alternative (got 'a|')",
    ]
