"""The conversation checks (skills, blocks, memory, messages, turns) through the fluent API."""

from __future__ import annotations

import pytest

from agent_asserts import EvalContext, M, TrialRecord, on
from agent_asserts.checks import all_checks
from agent_asserts.checks.conversation import (
    BlockEntered,
    BotDidNotUtter,
    BotUttered,
    MemoryWasCleared,
    MemoryWasNotSet,
    MemoryWasSet,
    SkillActivated,
    SkillCancelled,
    ToolsWithinOneTurn,
)


def status(handle: object) -> str:
    return handle.result.status.value  # type: ignore[attr-defined]


# -- skills and ordered blocks --------------------------------------------------------------


def lifecycle_record() -> TrialRecord:
    return (
        TrialRecord.builder()
        .user("my card is damaged")
        .skill("activated", "card_replace")
        .block("entered", "card_replace", "main")
        .block("completed", "card_replace", "main", step_id="submit")
        .skill("interrupted", "card_replace", step_id="autonomous")
        .skill("resumed", "card_replace", step_id="autonomous")
        .skill("cancelled", "card_replace", step_id="confirm")
        .build()
    )


def test_skill_checks_and_result_names() -> None:
    ctx = EvalContext(lifecycle_record())
    handle = ctx.skill_activated("card_replace")
    assert handle.result.name == "skill_activated:card_replace"
    assert handle.result.evidence == ("e1",)
    assert status(ctx.skill_completed("card_replace")) == "fail"
    assert status(ctx.skill_cancelled("card_replace")) == "pass"
    assert status(ctx.skill_cancelled("card_replace", step_id="confirm")) == "pass"
    assert status(ctx.skill_cancelled("card_replace", "autonomous")) == "fail"
    assert status(ctx.skill_interrupted("card_replace", "autonomous")) == "pass"
    assert status(ctx.skill_resumed("card_replace")) == "pass"
    assert status(ctx.skill_activated("other")) == "fail"


def test_block_checks() -> None:
    ctx = EvalContext(lifecycle_record())
    handle = ctx.ordered_block_entered("card_replace", "main")
    assert handle.result.name == "ordered_block_entered:card_replace.main"
    assert handle.result.passed
    assert status(ctx.ordered_block_completed("card_replace", "main", step_id="submit")) == "pass"
    assert status(ctx.ordered_block_completed("card_replace", "main", "other")) == "fail"
    assert status(ctx.ordered_block_cancelled("card_replace", "main")) == "fail"
    assert status(ctx.ordered_block_interrupted("card_replace", "main")) == "fail"
    assert status(ctx.ordered_block_resumed("card_replace", "main")) == "fail"


def test_block_event_never_satisfies_a_skill_check_nor_the_reverse() -> None:
    block_only = TrialRecord.builder().block("completed", "card_replace", "main").build()
    skill_only = TrialRecord.builder().skill("completed", "main").build()
    assert status(EvalContext(block_only).skill_completed("card_replace")) == "fail"
    assert status(EvalContext(skill_only).ordered_block_completed("main", "main")) == "fail"


def test_step_id_is_rejected_where_the_seed_rejects_it() -> None:
    with pytest.raises(TypeError):
        SkillActivated("a", step_id="x")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        BlockEntered("a", "b", step_id="x")  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="'skill_id' must not be empty"):
        SkillActivated("")


def test_lifecycle_failure_carries_the_closest_event() -> None:
    rec = (
        TrialRecord.builder()
        .skill("activated", "card_replace")
        .skill("cancelled", "card_replace", step_id="confirm")
        .build()
    )
    out = SkillCancelled("card_replace", step_id="autonomous").evaluate(rec)
    assert out.message == (
        "skill 'card_replace' was not cancelled at step 'autonomous' (2 skill events; closest e1)"
    )
    assert out.closest == "e1"
    assert [str(m) for m in out.mismatches] == ["$.step_id: expected 'autonomous', got 'confirm'"]


def test_lifecycle_surfaces() -> None:
    rec = TrialRecord.from_dict({"events": [], "surfaces": ["message"]})
    ctx = EvalContext(rec)
    assert status(ctx.skill_activated("a")) == "invalid"
    assert status(ctx.ordered_block_entered("a", "b")) == "invalid"


def test_every_method_is_registered_under_its_name() -> None:
    table = all_checks()
    for method in (
        "skill_activated", "skill_completed", "skill_cancelled", "skill_interrupted",
        "skill_resumed", "ordered_block_entered", "ordered_block_completed",
        "ordered_block_cancelled", "ordered_block_interrupted", "ordered_block_resumed",
        "memory_was_set", "memory_was_not_set", "memory_was_cleared", "bot_uttered",
        "bot_did_not_utter", "tools_within_one_turn",
    ):  # fmt: skip
        assert table[method].method == method


# -- memory ---------------------------------------------------------------------------------


def test_a_write_of_1_does_not_satisfy_value_true() -> None:
    rec = TrialRecord.builder().memory_set("project.flag", 1).build()
    ctx = EvalContext(rec)
    handle = ctx.memory_was_set("project.flag", True)
    assert handle.result.name == "memory_was_set:project.flag"
    assert status(handle) == "fail"
    assert handle.result.closest == "e0"
    assert status(ctx.memory_was_set("project.flag", 1)) == "pass"
    assert status(ctx.memory_was_set("project.flag", "1")) == "fail"


def test_memory_values_are_strict_objects_ignore_key_order_lists_keep_order() -> None:
    rec = (
        TrialRecord.builder()
        .memory_set("a.obj", {"x": 1, "y": [1, 2]})
        .memory_set("a.n", 5)
        .build()
    )
    ctx = EvalContext(rec)
    assert status(ctx.memory_was_set("a.obj", {"y": [1, 2], "x": 1})) == "pass"
    assert status(ctx.memory_was_set("a.obj", {"y": [2, 1], "x": 1})) == "fail"
    assert status(ctx.memory_was_set("a.obj", {"x": 1})) == "fail"  # exact, not partial
    assert status(ctx.memory_was_set("a.n", "5")) == "fail"
    assert status(ctx.memory_was_set("a.n", 5.0)) == "pass"  # JSON has one number type
    assert status(ctx.memory_was_set("a.n", M.gt(3))) == "pass"  # a matcher is used as is


def test_null_value_is_a_build_time_error() -> None:
    for cls in (MemoryWasSet, MemoryWasNotSet):
        with pytest.raises(ValueError, match="null is not accepted"):
            cls("a.b", None)


def test_set_with_value_passes_on_any_write_of_it() -> None:
    rec = TrialRecord.builder().memory_set("a.x", "x").memory_set("a.x", "y").build()
    assert status(EvalContext(rec).memory_was_set("a.x", "x")) == "pass"


def test_not_set_with_value_looks_at_the_last_write_only() -> None:
    rec = TrialRecord.builder().memory_set("a.x", "x").memory_set("a.x", "y").build()
    ctx = EvalContext(rec)
    assert status(ctx.memory_was_not_set("a.x", "x")) == "pass"
    assert status(ctx.memory_was_not_set("a.x", "y")) == "fail"
    assert status(ctx.memory_was_not_set("a.x")) == "fail"
    assert status(ctx.memory_was_not_set("a.other")) == "pass"


def test_written_then_cleared() -> None:
    rec = TrialRecord.builder().memory_set("a.d", "v").memory_clear("a.d").build()
    ctx = EvalContext(rec)
    assert status(ctx.memory_was_set("a.d")) == "pass"
    assert status(ctx.memory_was_cleared("a.d")) == "pass"
    assert status(ctx.memory_was_not_set("a.d")) == "fail"
    # clears do not count as writes: the last *write* still had the value
    assert status(ctx.memory_was_not_set("a.d", "v")) == "fail"


def test_a_clear_alone_is_not_a_write() -> None:
    rec = TrialRecord.builder().memory_clear("a.d").build()
    ctx = EvalContext(rec)
    assert status(ctx.memory_was_set("a.d")) == "fail"
    assert status(ctx.memory_was_not_set("a.d")) == "pass"
    assert ctx.memory_was_cleared("a.other").result.message == (
        "'a.other' was never cleared; memory keys written, nearest first: 'a.d'"
    )


def test_memory_surface_missing_is_invalid_never_a_vacuous_pass() -> None:
    rec = TrialRecord.from_dict({"events": [], "surfaces": ["message"]})
    for check in (MemoryWasNotSet("a.b"), MemoryWasSet("a.b"), MemoryWasCleared("a.b")):
        assert check.evaluate(rec).status.value == "invalid"


# -- agent messages -------------------------------------------------------------------------


def messages_record() -> TrialRecord:
    return (
        TrialRecord.builder()
        .user("help")
        .agent("Sorry, I cannot help", utter_name="utter_cannot_help")
        .agent("Pick one", utter_name="utter_pick", buttons=[{"title": "Yes", "payload": "/y"}])
        .build()
    )


def test_bot_did_not_utter_text_matches_is_case_sensitive() -> None:
    ctx = EvalContext(messages_record())
    assert status(ctx.bot_did_not_utter(text_matches="Cannot")) == "pass"
    assert status(ctx.bot_did_not_utter(text_matches="cannot")) == "fail"


def test_bot_uttered_one_message_must_match_every_field() -> None:
    ctx = EvalContext(messages_record())
    # each field matches some message, but no single message matches both
    handle = ctx.bot_uttered(text_matches="cannot", utter_name="utter_pick")
    assert handle.result.name == "bot_uttered"
    assert status(handle) == "fail"
    assert status(ctx.bot_uttered(text_matches="cannot", utter_name="utter_cannot_help")) == "pass"
    assert status(ctx.bot_did_not_utter(text_matches="cannot", utter_name="utter_pick")) == "pass"


def test_bot_uttered_buttons() -> None:
    ctx = EvalContext(messages_record())
    assert status(ctx.bot_uttered(buttons=[{"title": "Yes"}])) == "pass"
    assert status(ctx.bot_uttered(buttons=[{"title": "Yes", "payload": "/y"}])) == "pass"
    assert status(ctx.bot_uttered(buttons=[{"title": "Yes", "payload": "/n"}])) == "fail"
    assert status(ctx.bot_uttered(buttons=[{"title": "Yes"}, {"title": "No"}])) == "fail"


def test_user_messages_never_count() -> None:
    rec = TrialRecord.builder().user("I cannot log in").build()
    assert status(EvalContext(rec).bot_uttered(text_matches="cannot")) == "fail"


def test_message_checks_need_a_field_and_a_valid_regex() -> None:
    for cls in (BotUttered, BotDidNotUtter):
        with pytest.raises(ValueError, match="at least one of"):
            cls()
    with pytest.raises(ValueError, match="invalid regular expression") as info:
        BotUttered(text_matches="(")
    assert str(info.value) == (
        "'text_matches': invalid regular expression '(': missing ), unterminated subpattern at "
        "position 0"
    )
    with pytest.raises(ValueError, match="'buttons' must not be empty"):
        BotUttered(buttons=[])


# -- tools within one turn ------------------------------------------------------------------


def test_unordered_uses_maximum_bipartite_matching() -> None:
    rec = TrialRecord.builder().user("go").tool("A", {"x": 1}).tool("A", {"x": 2}).build()
    ctx = EvalContext(rec)
    handle = ctx.tools_within_one_turn("A", on.tool("A", {"x": 1}), allow_extra_calls=False)
    assert handle.result.name == "tools_within_one_turn"
    assert status(handle) == "pass"
    # a greedy first fit would give A{x:1} to "A" and miss the second call
    ordered = ctx.tools_within_one_turn(
        "A", on.tool("A", {"x": 1}), allow_extra_calls=False, ordered=True
    )
    assert status(ordered) == "fail"
    assert "on.tool('A', arguments={'x': 1}) not found after e1" in ordered.result.message


def test_each_run_counts_toward_one_call_only() -> None:
    rec = TrialRecord.builder().user("go").tool("A").tool("B").build()
    handle = EvalContext(rec).tools_within_one_turn("A", "A", "B", allow_extra_calls=True)
    assert status(handle) == "fail"
    assert handle.result.message == (
        "no turn has every listed call: turn 1: 'A' has no run of its own "
        "(its runs count toward other calls)"
    )


def test_calls_must_share_one_turn() -> None:
    rec = TrialRecord.builder().user("one").tool("A").user("two").tool("B").build()
    handle = EvalContext(rec).tools_within_one_turn("A", "B", allow_extra_calls=True)
    assert handle.result.message == (
        "no turn has every listed call: turn 1: no run of 'B'; turn 2: no run of 'A'"
    )


def test_an_extra_run_disqualifies_only_its_own_turn() -> None:
    rec = (
        TrialRecord.builder()
        .user("one").tool("A").tool("B").tool("C")
        .user("two").tool("B").tool("listen").tool("A")
        .build()
    )  # fmt: skip
    ctx = EvalContext(rec)
    handle = ctx.tools_within_one_turn("A", "B", allow_extra_calls=False, ignore=("listen",))
    assert handle.result.passed
    assert handle.result.message == "turn 2 has every listed call: e7, e5"
    strict = ctx.tools_within_one_turn("A", "B", allow_extra_calls=False)
    assert strict.result.message == (
        "no turn has every listed call: turn 1: extra runs not allowed: 'C' (e3); "
        "turn 2: extra runs not allowed: 'listen' (e6)"
    )
    assert status(ctx.tools_within_one_turn("A", "B", allow_extra_calls=True)) == "pass"


def test_ignored_tools_never_satisfy_a_call() -> None:
    with pytest.raises(ValueError, match="names an ignored tool"):
        ToolsWithinOneTurn("listen", "A", allow_extra_calls=True, ignore=["listen"])
    rec = TrialRecord.builder().user("go").tool("A").tool("B").build()
    check = ToolsWithinOneTurn("A", "B|listen", allow_extra_calls=True, ignore=["listen"])
    assert check.evaluate(rec).status.value == "pass"


def test_a_session_start_user_event_does_not_open_a_turn() -> None:
    rec = TrialRecord.from_dict(
        {
            "events": [
                {"kind": "message", "actor_ref": "user", "payload": {"text": "hello"}},
                {"kind": "tool_call", "payload": {"name": "A"}},
                {"kind": "message", "actor_ref": "user", "payload": {"text": "/session_start"}},
                {"kind": "tool_call", "payload": {"name": "B"}},
            ]
        }
    )
    assert [e.turn for e in rec.events] == [1, 1, 1, 1]
    assert status(EvalContext(rec).tools_within_one_turn("A", "B", allow_extra_calls=False)) == (
        "pass"
    )


def test_tools_within_one_turn_arguments() -> None:
    with pytest.raises(ValueError, match="at least two calls"):
        ToolsWithinOneTurn("A", allow_extra_calls=True)
    with pytest.raises(TypeError, match="'allow_extra_calls' must be a bool"):
        ToolsWithinOneTurn("A", "B", allow_extra_calls=None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"on\.tool"):
        ToolsWithinOneTurn("A", on.skill("activated", "x"), allow_extra_calls=True)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not one string"):
        ToolsWithinOneTurn("A", "B", allow_extra_calls=True, ignore="listen")
    rec = TrialRecord.from_dict({"events": [], "surfaces": ["message"]})
    check = ToolsWithinOneTurn("A", "B", allow_extra_calls=True)
    assert check.evaluate(rec).status.value == "invalid"
    assert check.evaluate(TrialRecord()).message == "no counted tool run in any turn"


def test_mcp_run_never_satisfies_source_local() -> None:
    rec = TrialRecord.builder().user("go").tool("submit", source="mcp", mcp_server="bank").build()
    ctx = EvalContext(rec)
    assert status(ctx.called_tool("submit", source="local")) == "fail"
    assert status(ctx.called_tool("submit", source="mcp", mcp_server="bank")) == "pass"
    local = on.tool("submit", source="local")
    assert status(ctx.tools_within_one_turn(local, "submit", allow_extra_calls=True)) == "fail"
