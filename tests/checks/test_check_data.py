"""Every check class round-trips through its data form and the cattrs converter.

``REPRESENTATIVES`` holds one instance per registered check class (and per value
expectation), built with non-default arguments: selectors, matchers and counts in their
object forms. A newly registered check fails
:func:`test_every_registered_check_has_a_representative` until it is added here, so "every
check round-trips" stays true.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_asserts import Count, M, on
from agent_asserts.checks import Check, all_checks
from agent_asserts.checks.contract import ContractCheck
from agent_asserts.checks.conversation import (
    LIFECYCLE_CHECKS,
    BotDidNotUtter,
    BotUttered,
    MemoryWasCleared,
    MemoryWasNotSet,
    MemoryWasSet,
    ToolsWithinOneTurn,
)
from agent_asserts.checks.data import (
    CheckDataError,
    UnserializableCheck,
    check_from_data,
    check_to_data,
)
from agent_asserts.checks.events import (
    CalledSubagent,
    EventCheck,
    EventOrder,
    EventsSatisfy,
    NoDelegationCycle,
    NotEvent,
)
from agent_asserts.checks.expectations import (
    VALUE_CHECKS,
    Equals,
    Includes,
    LiteralValue,
    Matches,
    RecordField,
    Satisfies,
    Similarity,
    StatePath,
)
from agent_asserts.checks.outcome import (
    EndedWithoutError,
    EndedWithReply,
    MessageIncludes,
    OutputEquals,
    OutputMatches,
    Stopped,
    Succeeded,
)
from agent_asserts.checks.semantic import JudgeCheck
from agent_asserts.checks.sequencing import Sequencing, ToolOrder
from agent_asserts.checks.state import Changed, OnlyChanged, Unchanged
from agent_asserts.checks.tools import (
    CalledTool,
    MaxToolCalls,
    NoFailedActions,
    NotCalledTool,
    OnlyDeclaredTools,
    UsedNoTools,
)
from agent_asserts.checks.traces import (
    DurationAtMost,
    MaxSteps,
    ModelCallsAtMost,
    NoDeniedCalls,
    ParallelCalls,
    RunDurationAtMost,
    StepCount,
    TokensAtMost,
    ToolArgumentsValid,
    TotalTokensAtMost,
)
from agent_asserts.checks.trajectory import (
    ConfirmationRequested,
    EndedSession,
    EveryCall,
    FollowedBy,
    LastTool,
    NoIgnoredErrors,
    NoLoops,
    NoPendingCalls,
    TerminalTool,
    TraceParsed,
)
from agent_asserts.checks.trajectory_match import MatchesTrajectory
from agent_asserts.serialization import converter

ASSERTION = {
    "id": "no-refund-twice",
    "bind": {"n": {"from": "trace", "extract": "count"}},
    "require": {"op": "equals", "left": "n", "right": 0},
}

REPRESENTATIVES: list[Check] = [
    CalledTool(
        "refunds_issue",
        arguments={"amount": M.between(1, 100), "$ref": "literal"},
        result={"ok": True},
        is_error=False,
        count=Count.at_most(1),
        source="mcp",
        mcp_server="payments",
    ),
    NotCalledTool("refunds_cancel", before=on.tool("refunds_issue", arguments={"x": M.gt(1)})),
    MaxToolCalls(5),
    UsedNoTools(),
    NoFailedActions(),
    EveryCall("lookup", arguments={"id": M.regex("^A")}),
    FollowedBy("lookup", on.memory_set("order.id")),
    LastTool("refunds_issue", arguments={"amount": 5}),
    TerminalTool("end_session"),
    EndedSession(arguments={"reason": "done"}),
    TraceParsed(),
    MatchesTrajectory(["lookup", "issue"], order="unordered", arguments="ignore"),
    ToolOrder("lookup", "issue", contiguous=True),
    Sequencing("lookup", on.skill("activated", "refund"), on.message(actor="user")),
    EventOrder(on.event("audit"), "tool_call"),
    EventCheck(on.subagent("researcher"), count=Count.exactly(2)),
    NotEvent(on.block("entered", "refund", "verify")),
    CalledSubagent("researcher", count=Count.at_least(1)),
    ConfirmationRequested("refunds_issue", "(?i)confirm", within_last_n_turns=2),
    MaxSteps(10),
    StepCount(4),
    TotalTokensAtMost(5000),
    Changed("/orders/A1/status", before="paid", after=M.one_of("refunded", "void"), op="changed"),
    Unchanged("/orders/A1/total"),
    OnlyChanged("/orders/A1/status", "/audit"),
    MemoryWasSet("refund.order_id", M.regex("^A")),
    MemoryWasNotSet("refund.amount"),
    MemoryWasCleared("refund.draft"),
    BotUttered(utter_name="utter_done", text_matches=M.regex("(?i)refund")),
    BotDidNotUtter(text_matches="sorry", buttons=({"title": "yes", "payload": "/yes"},)),
    ToolsWithinOneTurn("lookup", on.tool("issue"), allow_extra_calls=False, ordered=True),
    Succeeded(),
    Stopped(),
    OutputEquals({"status": "ok", "n": M.gt(0)}),
    OutputMatches("^Refund"),
    MessageIncludes("A1049"),
    JudgeCheck(
        "the reply is polite",
        rubric="1 = rude",
        evidence=on.message(actor="agent"),
        threshold=0.8,
        model="judge-1",
    ),
    ContractCheck(ASSERTION),
    DurationAtMost(on.tool("lookup"), 1.5),
    RunDurationAtMost(30),
    ModelCallsAtMost(3, model="gpt-4o"),
    TokensAtMost(1000, counter="output"),
    NoDeniedCalls(),
    ParallelCalls("lookup", "search"),
    ToolArgumentsValid("lookup"),
    NoLoops(4, longest=2),
    NoPendingCalls(),
    NoIgnoredErrors("(?i)sorry"),
    OnlyDeclaredTools(["lookup", "issue"]),
    NoDelegationCycle(),
    EndedWithReply(),
    EndedWithoutError(),
    *(
        cls(*(("refund", "verify", "s1")[: len(cls.positional)]))
        for cls in LIFECYCLE_CHECKS.values()
    ),
    Includes(RecordField("reply"), "A1049"),
    Equals(StatePath("/orders/A1/status", initial=True), M.one_of("paid", "new")),
    Matches(LiteralValue({"a": M.gt(1)}), M.regex("x")),
    Similarity(RecordField("reply"), "Refund issued"),
]


def _ids(value: Any) -> str:
    return value.method


def test_every_registered_check_has_a_representative() -> None:
    covered = {type(check) for check in REPRESENTATIVES}
    ours = {c for c in all_checks().values() if c.__module__.startswith("agent_asserts.")}
    missing = {c.__name__ for c in (ours | set(VALUE_CHECKS.values())) - covered}
    assert missing == {"EventsSatisfy", "Satisfies"}  # they hold a callable: see below


@pytest.mark.parametrize("check", REPRESENTATIVES, ids=_ids)
def test_round_trip_through_json(check: Check) -> None:
    text = json.dumps(converter.unstructure(check))
    assert converter.structure(json.loads(text), Check) == check
    assert converter.structure(json.loads(text), type(check)) == check
    assert converter.unstructure(check) == check.to_data()


@pytest.mark.parametrize("check", REPRESENTATIVES, ids=_ids)
def test_the_data_form_is_the_suite_file_form(check: Check) -> None:
    from agent_asserts.loaders import load

    suite = load({"checks": [check_to_data(check)]})
    assert suite.cases[0].checks == (check,)


def test_a_list_of_checks_round_trips() -> None:
    data = converter.unstructure(REPRESENTATIVES)
    assert converter.structure(json.loads(json.dumps(data)), list[Check]) == REPRESENTATIVES


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
        ),
        max_leaves=10,
    )
)
def test_any_json_argument_value_round_trips(value: Any) -> None:
    check = CalledTool("t", arguments={"v": value}, result=value)
    again = converter.structure(json.loads(json.dumps(converter.unstructure(check))), Check)
    assert again == check


def test_a_check_holding_a_callable_has_no_data_form() -> None:
    with pytest.raises(UnserializableCheck) as caught:
        converter.unstructure(EventsSatisfy(len))
    assert str(caught.value) == (
        "EventsSatisfy (events_satisfy) cannot be written as data: its field 'fn' holds a "
        "Python callable (<built-in function len>)"
    )
    assert caught.value.field == "fn"


def test_an_event_check_with_a_predicate_names_the_field() -> None:
    with pytest.raises(UnserializableCheck, match="its field 'predicate' holds a Python callable"):
        converter.unstructure(EventCheck("audit", predicate=bool))


def test_a_satisfies_expectation_names_its_expected_field() -> None:
    with pytest.raises(UnserializableCheck, match=r"Satisfies \(satisfies\) .* field 'expected'"):
        converter.unstructure(Satisfies(RecordField("reply"), str.isupper))


def test_a_satisfies_matcher_names_the_field_holding_it() -> None:
    with pytest.raises(UnserializableCheck, match=r"field 'arguments' cannot: M\.satisfies"):
        converter.unstructure(CalledTool("t", arguments={"a": M.satisfies(bool)}))


def test_structuring_bad_data_names_each_problem_at_its_path() -> None:
    with pytest.raises(CheckDataError) as caught:
        converter.structure({"called_tool": {"nme": "x", "count": "two", "is_error": 1}}, Check)
    assert str(caught.value).splitlines() == [
        "$.called_tool: unknown key 'nme' (did you mean 'name'?)",
        "$.called_tool.count: a count is an int, {at_least: n}, {at_most: n} or "
        "{between: [low, high]} (got 'two')",
        "$.called_tool.is_error: must be a boolean (got 1)",
        "$.called_tool: required key 'name' missing",
    ]
    assert [p.path for p in caught.value.problems][:2] == ["$.called_tool", "$.called_tool.count"]


def test_structuring_as_another_check_class_is_refused() -> None:
    with pytest.raises(CheckDataError, match="is a 'max_steps' check, not a CalledTool"):
        converter.structure({"max_steps": {"n": 3}}, CalledTool)


def test_a_bare_method_name_is_a_check_without_arguments() -> None:
    assert check_from_data("succeeded") == Succeeded()
    assert check_from_data({"used_no_tools": None}) == UsedNoTools()


def test_a_check_registered_from_outside_round_trips_with_no_more_code() -> None:
    import attrs

    from agent_asserts.checks import Outcome, register_check, unregister_check

    @attrs.frozen
    class RepliedWith(Check):
        method = "replied_with_words"
        positional = ("words",)
        words: tuple[str, ...]
        count: Count | int | None = None

        def evaluate(self, record: Any) -> Outcome:
            return Outcome.of(True)

    register_check(RepliedWith)
    try:
        check = RepliedWith(("refund", "issued"), count=Count.at_least(2))
        data = converter.unstructure(check)
        assert data == {
            "replied_with_words": {"words": ["refund", "issued"], "count": {"at_least": 2}}
        }
        assert converter.structure(json.loads(json.dumps(data)), Check) == check
    finally:
        unregister_check("replied_with_words")
    with pytest.raises(CheckDataError, match="unknown check 'replied_with_words'"):
        converter.structure(data, Check)


def test_problems_inside_a_contract_or_an_operator_are_at_their_own_paths() -> None:
    assertion = {**ASSERTION, "require": {"op": "eqals", "left": "n", "right": 0}}
    with pytest.raises(CheckDataError) as caught:
        converter.structure({"contract": assertion}, Check)
    assert [p.path for p in caught.value.problems] == ["$.contract.require.op"]
    with pytest.raises(CheckDataError) as caught:
        converter.structure({"called_tool": {"name": "x", "arguments": {"a": {"$regx": 1}}}}, Check)
    assert str(caught.value) == (
        "$.called_tool.arguments.a['$regx']: unknown operator '$regx' (did you mean '$regex'?)"
    )
