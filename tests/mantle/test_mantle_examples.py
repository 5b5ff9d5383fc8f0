"""Every example of the Mantle assertions reference, loaded as written, on a record that
satisfies it and on one that must fail; plus a whole scenario file with its tracker."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agent_asserts import TrialRecord, Verdict
from agent_asserts.loaders import LoadError, load, loads
from agent_asserts.loaders.mantle import MantleCase
from agent_asserts.matching import M
from agent_asserts.record.adapters import mantle

DATA = Path(__file__).parent / "data"
SEED = DATA / "seed"


def user(text: str) -> dict[str, Any]:
    return {"event": "user", "text": text}


def bot(text: str, utter: str | None = None) -> dict[str, Any]:
    row: dict[str, Any] = {"event": "bot", "text": text}
    if utter is not None:
        row["metadata"] = {"utter_action": utter}
    return row


def skill(transition: str, skill_id: str = "card_replace") -> dict[str, Any]:
    return {"event": f"skill_{transition}", "skill_id": skill_id}


def tool(name: str, source: str = "local", **fields: Any) -> dict[str, Any]:
    return {"event": "tool_executed", "tool_name": name, "source": source, **fields}


def memory(key: str, value: Any = None, *, clear: bool = False) -> dict[str, Any]:
    if clear:
        return {"event": "memory_cleared", "key": key}
    return {"event": "memory_set", "key": key, "value": value}


def run(example: str, rows: list[dict[str, Any]]) -> list[tuple[str, str]]:
    suite = load(SEED / f"{example}.yml")
    assert suite.dialect == "mantle"
    result = suite.evaluate(mantle.to_record(rows))[0]
    return [(r.name, r.status.value) for r in result.results]


EXAMPLES: dict[str, tuple[list[dict[str, Any]], list[dict[str, Any]], list[tuple[str, str]]]] = {
    "skills": (
        [user("my card broke"), skill("activated"), skill("completed")],
        [user("my card broke"), skill("activated"), skill("cancelled")],
        [("skill_activated:card_replace", "pass"), ("skill_completed:card_replace", "fail")],
    ),
    "ordered_block": (
        [skill("activated"), {"event": "ordered_block_entered", "skill_id": "card_replace",
                              "block_id": "main"}],
        [skill("activated"), {"event": "ordered_block_entered", "skill_id": "card_replace",
                              "block_id": "submit"}],
        [("ordered_block_entered:card_replace.main", "fail")],
    ),
    "memory": (
        [
            memory("card_replace.replacement_reason", "damaged"),
            memory("card_replace.selected_card_id", "c-1"),
            memory("card_replace.draft_order_id", "D-1"),
            memory("card_replace.draft_order_id", clear=True),
        ],
        [
            memory("card_replace.replacement_reason", "lost"),
            memory("card_replace.selected_card_id", "c-1"),
            memory("card_replace.fraud_review", True),
        ],
        [
            ("memory_was_set:card_replace.replacement_reason", "fail"),
            ("memory_was_set:card_replace.selected_card_id", "pass"),
            ("memory_was_not_set:card_replace.fraud_review", "fail"),
            ("memory_was_cleared:card_replace.draft_order_id", "fail"),
        ],
    ),
    "tool_executed": (
        [
            tool("order_replacement", arguments={"shipping": "standard", "card": "c-1"},
                 metadata={"skill_id": "card_replace"}),
            tool("submit_transfer", "mcp", mcp_server="banking", arguments={"amount": 5}),
        ],
        [
            tool("order_replacement", arguments={"shipping": "express"},
                 metadata={"skill_id": "card_replace"}),
            tool("submit_transfer", "local"),
        ],
        [("tool_executed:order_replacement", "fail"), ("tool_executed:submit_transfer", "fail")],
    ),
    "tools_within_one_turn": (
        [user("replace it"), tool("check_balance"), tool("set_fields"),
         tool("order_replacement"), tool("complete_skill")],
        [user("replace it"), tool("check_balance"), tool("search_knowledge"),
         tool("order_replacement")],
        [("tools_within_one_turn", "fail")],
    ),
    "agent_messages": (
        [user("hi"), bot("Your replacement has been ordered.", "utter_done")],
        [user("hi"), bot("Sorry, I cannot help with that.", "utter_cannot_help")],
        [("bot_uttered", "fail"), ("bot_did_not_utter", "fail")],
    ),
    "sequencing": (
        [memory("card_replace.replacement_reason", "damaged"), tool("order_replacement"),
         skill("completed")],
        [tool("order_replacement"), memory("card_replace.replacement_reason", "damaged"),
         skill("completed")],
        [("sequencing", "fail")],
    ),
}  # fmt: skip


@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_seed_example_passes_on_a_matching_record(example: str) -> None:
    good, _, _ = EXAMPLES[example]
    results = run(example, good)
    assert results, example
    assert all(status == "pass" for _, status in results), results


@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_seed_example_fails_on_a_record_that_breaks_it(example: str) -> None:
    _, bad, expected = EXAMPLES[example]
    assert run(example, bad) == expected


def test_failure_messages_point_at_the_problem() -> None:
    suite = load(SEED / "tools_within_one_turn.yml")
    _, bad, _ = EXAMPLES["tools_within_one_turn"]
    result = suite.evaluate(mantle.to_record(bad))[0]
    assert result.verdict is Verdict.FAILED
    assert result.results[0].message == (
        "no turn has every listed call: turn 1: extra runs not allowed: 'search_knowledge' (e2)"
    )
    suite = load(SEED / "memory.yml")
    _, bad, _ = EXAMPLES["memory"]
    first = suite.evaluate(mantle.to_record(bad))[0].results[0]
    assert first.message == (
        "'card_replace.replacement_reason' was written 1 time, never with 'damaged' (closest e0)"
    )
    assert [str(m) for m in first.mismatches] == ["$.value: expected 'damaged', got 'lost'"]


def test_whole_scenario_with_its_tracker_file() -> None:
    suite = load(DATA / "card_replace_damaged.yml")
    (case,) = suite.cases
    assert isinstance(case, MantleCase)
    assert case.name == "Card replacement for a damaged card"
    assert case.metadata["initial_slots"] == {"project.customer_authenticated": True}
    (result,) = suite.evaluate_all()
    statuses = {r.name: (r.status.value, r.severity.value) for r in result.results}
    judge = "judge:The agent confirms that the replacement card was ordered"
    assert statuses.pop(judge) == ("invalid", "gate")
    assert all(s == ("pass", "gate") for s in statuses.values()), statuses
    assert list(statuses) == [
        "skill_activated:card_replace",
        "skill_completed:card_replace",
        "ordered_block_entered:card_replace.main",
        "memory_was_set:card_replace.replacement_reason",
        "memory_was_set:card_replace.selected_card_id",
        "memory_was_not_set:card_replace.fraud_review",
        "memory_was_cleared:card_replace.draft_order_id",
        "tool_executed:order_replacement",
        "tools_within_one_turn",
        "bot_uttered",
        "bot_did_not_utter",
        "sequencing",
    ]
    assert result.verdict is Verdict.FAILED  # the criterion is a gate and no judge is set


def test_criteria_are_judged_as_gates() -> None:
    from agent_asserts.judges import JudgeResponse

    seen: list[str] = []

    def judge(request: Any) -> JudgeResponse:
        seen.append(request.criterion)
        return JudgeResponse(0.2, passed=False, explanation="not confirmed")

    suite = load(DATA / "card_replace_damaged.yml", judge=judge)
    (result,) = suite.evaluate_all()
    last = result.results[-1]
    assert (last.status.value, last.severity.value) == ("fail", "gate")
    assert seen == ["The agent confirms that the replacement card was ordered"]
    assert result.verdict is Verdict.FAILED


def test_initial_slots_become_initial_memory() -> None:
    suite = load(DATA / "card_replace_damaged.yml")
    (case,) = suite.cases
    seen: list[Any] = []
    from agent_asserts import EvalContext

    original = EvalContext.record_check

    def spy(self: EvalContext, *args: Any, **kwargs: Any) -> Any:
        seen.append(self.record.initial_state)
        return original(self, *args, **kwargs)

    EvalContext.record_check = spy  # type: ignore[method-assign]
    try:
        case.evaluate(TrialRecord())
        case.evaluate(TrialRecord(initial_state={"memory": {"x.y": 1}}))
    finally:
        EvalContext.record_check = original  # type: ignore[method-assign]
    assert seen[0] == {"memory": {"project.customer_authenticated": True}}
    assert seen[-1] == {"memory": {"x.y": 1}}


def test_bare_goals_forms() -> None:
    as_list = load({"goals": [{"skill_activated": {"skill_id": "a"}}]})
    as_mapping = load({"goals": {"assertions": [{"skill_activated": {"skill_id": "a"}}],
                                 "criteria": ["polite"]}})  # fmt: skip
    assert as_list.dialect == as_mapping.dialect == "mantle"
    assert [c.default_name() for c in as_mapping.cases[0].checks] == [
        "skill_activated:a",
        "judge:polite",
    ]


def test_tool_executed_arguments_use_strict_deep_equality() -> None:
    suite = load({"assertions": [{"tool_executed": {
        "tool_name": "t", "source": "local", "arguments": {"x": None, "flag": True},
    }}]})  # fmt: skip

    def status(arguments: dict[str, Any]) -> str:
        rec = mantle.to_record([tool("t", arguments=arguments)])
        return suite.evaluate(rec)[0].results[0].status.value

    assert status({"x": None, "flag": True, "other": 1}) == "pass"
    assert status({"flag": True}) == "fail"  # an absent key never equals null
    assert status({"x": None, "flag": "true"}) == "fail"
    assert status({"x": None, "flag": 1}) == "fail"


def test_tool_executed_arguments_take_operators_and_the_dollar_escape() -> None:
    suite = loads(
        "assertions:\n"
        "  - tool_executed:\n"
        "      tool_name: t\n"
        "      source: local\n"
        "      arguments: {id: {$regex: '^A'}, $$ref: {$$id: 1}, n: {$gt: 2}}\n"
    )
    (check,) = suite.cases[0].checks
    assert check.arguments == {
        "id": M.regex("^A"),
        "$ref": M.exact({"$id": 1}),
        "n": M.gt(2),
    }

    def status(arguments: dict[str, Any]) -> str:
        rec = mantle.to_record([tool("t", arguments=arguments)])
        return suite.evaluate(rec)[0].results[0].status.value

    assert status({"id": "A1049", "$ref": {"$id": 1}, "n": 3}) == "pass"
    assert status({"id": "B1049", "$ref": {"$id": 1}, "n": 3}) == "fail"
    assert status({"id": {"$regex": "^A"}, "$ref": {"$id": 1}, "n": 3}) == "fail"
    assert status({"id": "A1", "$ref": {"$id": 1, "extra": 2}, "n": 3}) == "fail"  # exact


def test_tool_executed_operator_problems_have_positions() -> None:
    with pytest.raises(LoadError) as info:
        loads(
            "assertions:\n"
            "  - tool_executed:\n"
            "      tool_name: t\n"
            "      source: local\n"
            "      arguments: {id: {$regx: '^A'}, n: {$regex: '(A'}}\n",
            name="s.yml",
        )
    assert str(info.value).splitlines() == [
        "s.yml:5:31: assertions[0].tool_executed.arguments.id.$regx: unknown operator '$regx' "
        "(did you mean '$regex'?)",
        "s.yml:5:50: assertions[0].tool_executed.arguments.n.$regex: invalid regular expression "
        "'(A': missing ), unterminated subpattern at position 0",
    ]


def test_pinned_semantics_through_the_dialect() -> None:
    suite = load(
        {
            "assertions": [
                {"tools_within_one_turn": {"allow_extra_calls": False, "calls": [
                    {"tool_executed": {"tool_name": "A", "source": "local"}},
                    {"tool_executed": {"tool_name": "A", "source": "local", "arguments": {"x": 1}}},
                ]}},
                {"bot_did_not_utter": {"text_matches": "Cannot"}},
                {"memory_was_set": [{"name": "p.flag", "value": True}]},
                {"memory_was_not_set": [{"name": "p.v", "value": "x"}]},
                {"tool_executed": {"tool_name": "submit", "source": "local"}},
            ]
        }
    )  # fmt: skip
    rec = mantle.to_record(
        [
            user("/session_start"),
            tool("submit", "mcp", mcp_server="bank"),
            user("go"),
            tool("A", arguments={"x": 1}),
            tool("listen"),
            tool("A", arguments={"x": 2}),
            bot("Sorry, I cannot help"),
            memory("p.flag", 1),
            memory("p.v", "x"),
            memory("p.v", "y"),
        ]
    )
    results = [(r.name, r.status.value) for r in suite.evaluate(rec)[0].results]
    assert results == [
        ("tools_within_one_turn", "pass"),
        ("bot_did_not_utter", "pass"),
        ("memory_was_set:p.flag", "fail"),
        ("memory_was_not_set:p.v", "pass"),
        ("tool_executed:submit", "fail"),
    ]


MCP_CANCEL_SCENARIO = """
assertions:
  - tools_within_one_turn:
      allow_extra_calls: false
      calls:
        - tool_executed: {tool_name: A, source: local}
        - tool_executed: {tool_name: B, source: local}
"""


def test_an_mcp_tool_named_like_a_lifecycle_tool_counts_as_an_extra_run() -> None:
    from agent_asserts import TrialRecord
    from agent_asserts.loaders import loads

    suite = loads(MCP_CANCEL_SCENARIO, name="mcp_cancel")
    local = TrialRecord.builder().user("hi").tool("A").tool("cancel").tool("B").build()
    mcp = (
        TrialRecord.builder()
        .user("hi")
        .tool("A")
        .tool("cancel", source="mcp", mcp_server="bank")
        .tool("B")
        .build()
    )
    assert suite.cases[0].evaluate(local).verdict.value == "passed"
    result = suite.cases[0].evaluate(mcp)
    assert result.verdict.value == "failed"
    assert "extra runs not allowed: 'cancel' (e2)" in result.results[0].message


def test_an_mcp_call_named_like_a_lifecycle_tool_may_be_listed() -> None:
    from agent_asserts import TrialRecord
    from agent_asserts.loaders import loads

    text = """
assertions:
  - tools_within_one_turn:
      allow_extra_calls: true
      calls:
        - tool_executed: {tool_name: cancel, source: mcp, mcp_server: bank}
        - tool_executed: {tool_name: B, source: local}
"""
    suite = loads(text, name="mcp_listed")
    rec = (
        TrialRecord.builder()
        .user("hi")
        .tool("cancel", source="mcp", mcp_server="bank")
        .tool("B")
        .build()
    )
    assert suite.cases[0].evaluate(rec).verdict.value == "passed"
