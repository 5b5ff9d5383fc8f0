"""cxas trajectory checks: last_tool, every_call, followed_by, terminal_tool, ended_session,
trace_parsed, confirmation_requested."""

from __future__ import annotations

import pytest

from agent_asserts.checks.trajectory import (
    ConfirmationRequested,
    EndedSession,
    EveryCall,
    FollowedBy,
    LastTool,
    TerminalTool,
    TraceParsed,
)
from agent_asserts.matching import M
from agent_asserts.record import ParseError, TrialRecord
from agent_asserts.results import Status
from agent_asserts.selectors import on

NO_TOOLS = TrialRecord.from_dict({"events": [], "surfaces": ["message"]})


def tools(*names: str) -> TrialRecord:
    b = TrialRecord.builder()
    for name in names:
        b.tool(name)
    return b.build()


class TestLastTool:
    def test_pass(self) -> None:
        out = LastTool("refund").evaluate(tools("lookup", "refund"))
        assert out.status is Status.PASS
        assert out.message == "the last tool call was 'refund' at e1"
        assert out.evidence == ("e1",)

    def test_fail_names_the_last_call(self) -> None:
        out = LastTool("lookup").evaluate(tools("lookup", "refund"))
        assert out.status is Status.FAIL
        assert out.message == (
            "the last tool call was 'refund' at e1, which does not match on.tool('lookup')"
        )
        assert out.closest == "e1"
        assert [m.path for m in out.mismatches] == ["$.name"]

    def test_arguments(self) -> None:
        rec = TrialRecord.builder().tool("refund", arguments={"amount": 40}).build()
        out = LastTool("refund", arguments={"amount": 42}).evaluate(rec)
        assert out.status is Status.FAIL
        assert [str(m) for m in out.mismatches] == ["$.arguments.amount: expected 42, got 40"]

    def test_no_tool_ran_fails(self) -> None:
        out = LastTool("refund").evaluate(TrialRecord.builder().agent("hi").build())
        assert out.status is Status.FAIL
        assert out.message == "no tool was called, expected on.tool('refund') last"

    def test_missing_surface(self) -> None:
        assert LastTool("refund").evaluate(NO_TOOLS).status is Status.INVALID

    def test_forms(self) -> None:
        check = LastTool("refund", {"amount": 1})
        assert check.default_name() == "last_tool:refund"
        assert check.describe() == "last_tool('refund', arguments={'amount': 1})"
        assert check.to_data() == {"last_tool": {"name": "refund", "arguments": {"amount": 1}}}


class TestEndedSession:
    def test_pass(self) -> None:
        rec = TrialRecord.builder().tool("lookup").tool("end_session", arguments={"r": 1}).build()
        assert EndedSession().evaluate(rec).status is Status.PASS
        assert EndedSession({"r": 1}).evaluate(rec).status is Status.PASS

    def test_fail_on_arguments_or_other_last_tool(self) -> None:
        rec = TrialRecord.builder().tool("end_session", arguments={"r": 1}).tool("x").build()
        assert EndedSession().evaluate(rec).status is Status.FAIL
        rec = TrialRecord.builder().tool("end_session", arguments={"r": 1}).build()
        assert EndedSession({"r": 2}).evaluate(rec).closest == "e0"

    def test_custom_tool(self) -> None:
        assert EndedSession(tool="hang_up").evaluate(tools("hang_up")).status is Status.PASS

    def test_no_tool_fails(self) -> None:
        assert EndedSession().evaluate(tools()).status is Status.FAIL

    def test_forms(self) -> None:
        assert EndedSession().default_name() == "ended_session"
        assert EndedSession().describe() == "ended_session()"
        check = EndedSession({"r": 1}, tool="hang_up")
        assert check.describe() == "ended_session(arguments={'r': 1}, tool='hang_up')"
        assert check.to_data() == {"ended_session": {"arguments": {"r": 1}, "tool": "hang_up"}}


class TestEveryCall:
    def record(self) -> TrialRecord:
        return (
            TrialRecord.builder()
            .tool("pay", arguments={"currency": "EUR", "amount": 5})
            .tool("pay", arguments={"currency": "USD", "amount": 5})
            .tool("pay", arguments={"currency": "USD", "amount": 6})
            .build()
        )

    def test_fail_lists_the_bad_calls_and_the_closest(self) -> None:
        out = EveryCall("pay", arguments={"currency": "EUR", "amount": 5}).evaluate(self.record())
        assert out.status is Status.FAIL
        assert out.message == "2 of 3 calls of 'pay' do not match: e1, e2"
        assert out.evidence == ("e1", "e2")
        assert out.closest == "e1"
        assert [m.path for m in out.mismatches] == ["$.arguments.currency"]

    def test_pass(self) -> None:
        out = EveryCall("pay", arguments={"amount": M.gt(0)}).evaluate(self.record())
        assert out.status is Status.PASS
        assert out.evidence == ("e0", "e1", "e2")

    def test_never_called_passes_with_message(self) -> None:
        out = EveryCall("refund", arguments={"a": 1}).evaluate(self.record())
        assert out.status is Status.PASS
        assert out.message == "'refund' was never called"

    def test_result(self) -> None:
        rec = TrialRecord.builder().tool("a", result={"ok": True}).tool("a", result={}).build()
        out = EveryCall("a", result={"ok": True}).evaluate(rec)
        assert out.evidence == ("e1",)
        assert str(out.mismatches[0]).startswith("$.result.ok")

    def test_checks_something(self) -> None:
        with pytest.raises(ValueError, match="needs 'arguments' or 'result'"):
            EveryCall("a")

    def test_forms(self) -> None:
        check = EveryCall("pay", {"amount": 5})
        assert check.default_name() == "every_call:pay"
        assert check.describe() == "every_call('pay', arguments={'amount': 5})"
        assert EveryCall("a", result=1).evaluate(NO_TOOLS).status is Status.INVALID


class TestFollowedBy:
    def test_pinned_check_create_check_fails(self) -> None:
        out = FollowedBy("check", "create").evaluate(tools("check", "create", "check"))
        assert out.status is Status.FAIL
        assert out.message == "1 of 2 calls of 'check' not followed by on.tool('create'): e2"
        assert out.evidence == ("e2",)
        assert out.details["pairs"] == {"e0": "e1"}

    def test_pass_pairs_calls_with_followers(self) -> None:
        out = FollowedBy("check", "create").evaluate(tools("check", "check", "x", "create"))
        assert out.status is Status.PASS
        assert out.message == "all 2 calls of 'check' followed by on.tool('create')"
        assert out.evidence == ("e0", "e3", "e1")
        assert out.details["pairs"] == {"e0": "e3", "e1": "e3"}

    def test_follower_must_come_strictly_later(self) -> None:
        assert FollowedBy("a", "a").evaluate(tools("a")).status is Status.FAIL
        assert FollowedBy("a", "a").evaluate(tools("a", "a")).status is Status.FAIL
        assert FollowedBy("a", on.tool("a|b")).evaluate(tools("a", "b")).status is Status.PASS

    def test_never_called_passes_with_message(self) -> None:
        out = FollowedBy("check", "create").evaluate(tools("create"))
        assert out.status is Status.PASS
        assert out.message == "'check' was never called"
        rec = TrialRecord.builder().tool("check", arguments={"id": 1}).build()
        out = FollowedBy("check", "create", arguments={"id": 2}).evaluate(rec)
        assert out.message == "'check' was never called with {'id': 2}"

    def test_next_of_another_kind(self) -> None:
        rec = TrialRecord.builder().tool("refund").agent("Refund issued").build()
        check = FollowedBy("refund", on.message(text="issued"))
        assert check.evaluate(rec).status is Status.PASS

    def test_invalid_when_surface_missing(self) -> None:
        rec = TrialRecord.builder().tool("refund").build(surfaces=["tool_call"])
        check = FollowedBy("refund", on.message(text="issued"))
        assert check.evaluate(rec).status is Status.INVALID

    def test_forms(self) -> None:
        check = FollowedBy("check", "create", arguments={"id": 1})
        assert check.default_name() == "followed_by:check"
        assert check.describe() == "followed_by('check', 'create', arguments={'id': 1})"
        assert check.to_data() == {
            "followed_by": {"name": "check", "next": "create", "arguments": {"id": 1}}
        }
        with pytest.raises(TypeError, match="'next'"):
            FollowedBy("a", 3)  # type: ignore[arg-type]


class TestTerminalTool:
    def test_pinned_tool_after_end_session_fails(self) -> None:
        out = TerminalTool("end_session").evaluate(tools("end_session", "lookup"))
        assert out.status is Status.FAIL
        assert out.message == "tool call e1 ('lookup') came after 'end_session' at e0"
        assert out.evidence == ("e0", "e1")

    def test_pinned_two_calls_fail(self) -> None:
        out = TerminalTool("end_session").evaluate(tools("end_session", "x", "end_session"))
        assert out.status is Status.FAIL
        assert out.message == "'end_session' was called 2 times: e0, e2"
        assert out.evidence == ("e0", "e2")

    def test_pass(self) -> None:
        rec = TrialRecord.builder().tool("lookup").tool("end_session").agent("bye").build()
        out = TerminalTool("end_session").evaluate(rec)
        assert out.status is Status.PASS
        assert out.message == "'end_session' at e1 was the last tool call"

    def test_never_called_passes_with_message(self) -> None:
        out = TerminalTool("end_session").evaluate(tools("lookup"))
        assert out.status is Status.PASS
        assert out.message == "'end_session' was never called"

    def test_forms(self) -> None:
        assert TerminalTool("end_session").default_name() == "terminal_tool:end_session"
        assert TerminalTool("end_session").evaluate(NO_TOOLS).status is Status.INVALID


class TestTraceParsed:
    def test_pass(self) -> None:
        out = TraceParsed().evaluate(tools("a"))
        assert out.status is Status.PASS
        assert out.message == "the trace parsed without errors"

    def test_fail_quotes_the_errors(self) -> None:
        errors = (ParseError("line 3", "not JSON"), ParseError("events[4]", "no kind", source="t"))
        rec = TrialRecord(events=(), parse_errors=errors)  # type: ignore[arg-type]
        out = TraceParsed().evaluate(rec)
        assert out.status is Status.FAIL
        assert out.message == (
            "2 trace items could not be parsed: line 3: not JSON; t:events[4]: no kind"
        )
        assert out.evidence == ("line 3: not JSON", "t:events[4]: no kind")

    def test_forms(self) -> None:
        assert TraceParsed().default_name() == "trace_parsed"
        assert TraceParsed().to_data() == {"trace_parsed": {}}


class TestConfirmationRequested:
    def test_pass_quotes_the_pairs(self) -> None:
        rec = (
            TrialRecord.builder()
            .user("buy the blue one")
            .agent("Shall I place the order?")
            .user("yes")
            .tool("create_order")
            .build()
        )
        out = ConfirmationRequested("create_order", "(?i)shall i").evaluate(rec)
        assert out.status is Status.PASS
        assert out.message == "every call of 'create_order' was confirmed: e3 after e1"
        assert out.evidence == ("e1", "e3")
        assert out.details["confirmed"] == {"e3": "e1"}

    @pytest.mark.parametrize(
        "pattern", ["(?i)shall i", "Shall I", "^Shall", "order\\?$", "SHALL", "^place", "yes"]
    )
    def test_messages_and_regex_rules_are_the_shared_selectors(self, pattern: str) -> None:
        # the agent's messages and the regex search of on.message(actor="agent", text=...)
        rec = (
            TrialRecord.builder()
            .user("yes")
            .agent("Shall I place the order?")
            .tool("create_order")
            .build()
        )
        selected = bool(on.message(actor="agent", text=M.regex(pattern)).select(rec))
        out = ConfirmationRequested("create_order", pattern).evaluate(rec)
        assert (out.status is Status.PASS) == selected
        assert selected == (pattern in ("(?i)shall i", "Shall I", "^Shall", "order\\?$"))

    def test_never_ran_is_not_applicable(self) -> None:
        out = ConfirmationRequested("create_order", "confirm").evaluate(tools("lookup"))
        assert out.status is Status.NOT_APPLICABLE
        assert out.message == "'create_order' never ran"

    def test_fail_quotes_messages_looked_at(self) -> None:
        rec = (
            TrialRecord.builder()
            .user("buy")
            .agent("Here are the options")
            .user("the blue one")
            .tool("create_order")
            .build()
        )
        out = ConfirmationRequested("create_order", "confirm").evaluate(rec)
        assert out.status is Status.FAIL
        assert out.message == (
            "call e3 (turn 2) has no agent message matching 'confirm' in turns 0..2 before it; "
            "looked at: 'Here are the options' (e1)"
        )
        assert out.evidence == ("e3", "e1")

    def test_window_of_turns(self) -> None:
        b = TrialRecord.builder().user("t1").agent("Please confirm the order")
        for turn in range(2, 6):
            b.user(f"t{turn}").agent("ok")
        rec = b.tool("create_order").build()  # the call is in turn 5
        assert rec.events[-1].turn == 5
        assert ConfirmationRequested("create_order", "confirm", 5).evaluate(rec).status == "pass"
        out = ConfirmationRequested("create_order", "confirm", 4).evaluate(rec)
        assert out.status is Status.FAIL
        assert "in turns 2..5" in out.message
        assert "'Please confirm the order'" not in out.message

    def test_message_after_the_call_does_not_count(self) -> None:
        rec = TrialRecord.builder().user("buy").tool("create_order").agent("confirm?").build()
        out = ConfirmationRequested("create_order", "confirm").evaluate(rec)
        assert out.status is Status.FAIL
        assert out.message.endswith("looked at: no agent messages")

    def test_every_call_needs_its_own_confirmation(self) -> None:
        rec = (
            TrialRecord.builder()
            .user("buy")
            .agent("confirm?")
            .tool("create_order")
            .user("another")
            .user("and")
            .user("more")
            .user("later")
            .tool("create_order")
            .build()
        )
        out = ConfirmationRequested("create_order", "confirm", within_last_n_turns=2).evaluate(rec)
        assert out.status is Status.FAIL
        assert out.details["confirmed"] == {"e2": "e1"}
        assert "call e7 (turn 5)" in out.message

    def test_user_messages_do_not_count(self) -> None:
        rec = TrialRecord.builder().user("confirm").tool("create_order").build()
        out = ConfirmationRequested("create_order", "confirm").evaluate(rec)
        assert out.status is Status.FAIL

    def test_invalid(self) -> None:
        rec = TrialRecord.builder().tool("create_order").build(surfaces=["tool_call"])
        assert ConfirmationRequested("create_order", "x").evaluate(rec).status is Status.INVALID
        with pytest.raises(ValueError, match="invalid regular expression") as info:
            ConfirmationRequested("create_order", "(")
        assert str(info.value) == (
            "'pattern': invalid regular expression '(': missing ), unterminated subpattern at "
            "position 0"
        )
        with pytest.raises(ValueError, match="'within_last_n_turns' must be >= 1"):
            ConfirmationRequested("create_order", "x", 0)

    def test_forms(self) -> None:
        check = ConfirmationRequested("create_order", "confirm", within_last_n_turns=2)
        assert check.default_name() == "confirmation_requested:create_order"
        assert check.describe() == (
            "confirmation_requested('create_order', 'confirm', within_last_n_turns=2)"
        )
        assert check.to_data() == {
            "confirmation_requested": {
                "before_tool": "create_order",
                "pattern": "confirm",
                "within_last_n_turns": 2,
            }
        }
