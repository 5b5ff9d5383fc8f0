"""Event checks: called_subagent, event, not_event, event_order, events_satisfy."""

from __future__ import annotations

from typing import Any

import pytest

from agent_asserts.checks.events import (
    CalledSubagent,
    EventCheck,
    EventOrder,
    EventsSatisfy,
    NotEvent,
)
from agent_asserts.matching import Count
from agent_asserts.record import Event, TrialRecord
from agent_asserts.results import Status
from agent_asserts.selectors import on


def audit_record() -> TrialRecord:
    return (
        TrialRecord.builder()
        .user("refund A1049")
        .tool("refund", arguments={"id": "A1049"})
        .event("mutation", payload={"op": "refund"}, operation_ref="op-7", status="succeeded")
        .event("audit", payload={"text": "refund"}, operation_ref="op-7")
        .subagent("researcher")
        .subagent("writer", status="failed")
        .build()
    )


class TestCalledSubagent:
    def test_pass(self) -> None:
        out = CalledSubagent("researcher").evaluate(audit_record())
        assert out.status is Status.PASS
        assert out.message == "matched 1 completed delegation to 'researcher' (expected at least 1)"
        assert out.evidence == ("e4",)

    def test_count(self) -> None:
        out = CalledSubagent("researcher", count=2).evaluate(audit_record())
        assert out.status is Status.FAIL
        assert out.message == "matched 1 completed delegation to 'researcher' (expected exactly 2)"
        assert out.evidence == ("e4",)
        assert CalledSubagent("researcher", Count.at_most(1)).evaluate(audit_record()).score == 1

    def test_fail_with_closest(self) -> None:
        out = CalledSubagent("planner").evaluate(audit_record())
        assert out.status is Status.FAIL
        assert out.closest == "e4"
        assert [str(m) for m in out.mismatches] == [
            "$.subagent: expected 'planner', got 'researcher'"
        ]
        assert out.evidence == ("e4", "e5")

    def test_only_completed_delegations_count(self) -> None:
        out = CalledSubagent("writer").evaluate(audit_record())
        assert out.status is Status.FAIL
        assert out.message == "matched 0 completed delegations to 'writer' (expected at least 1)"
        assert out.closest == "e5"
        assert [str(m) for m in out.mismatches] == [
            "$.event_type: expected one of 'completed', 'transferred', got 'failed'"
        ]
        rec = (
            TrialRecord.builder()
            .subagent("writer")
            .subagent("writer", status="failed")
            .subagent("writer", status="cancelled")
            .build()
        )
        out = CalledSubagent("writer", count=1).evaluate(rec)
        assert (out.status, out.evidence) == (Status.PASS, ("e0",))
        absent = TrialRecord.from_dict(
            {"events": [{"kind": "delegation", "payload": {"subagent": "writer"}}]}
        )
        assert CalledSubagent("writer").evaluate(absent).status is Status.PASS

    def test_on_subagent_matches_any_outcome(self) -> None:
        rec = audit_record()
        assert on.subagent("writer").select(rec) == [5]
        assert on.subagent("writer", status="failed").select(rec) == [5]
        assert on.subagent("writer", status="completed").select(rec) == []
        assert EventCheck(on.subagent("writer")).evaluate(rec).status is Status.PASS

    def test_missing_surface(self) -> None:
        rec = TrialRecord.builder().tool("a").build(surfaces=["tool_call"])
        assert CalledSubagent("researcher").evaluate(rec).status is Status.INVALID

    def test_forms(self) -> None:
        check = CalledSubagent("researcher", 1)
        assert check.default_name() == "called_subagent:researcher"
        assert check.describe() == "called_subagent('researcher', count=1)"
        assert check.to_data() == {"called_subagent": {"name": "researcher", "count": 1}}
        with pytest.raises(ValueError, match="'name'"):
            CalledSubagent("")


class TestEventCheck:
    def test_kind_string(self) -> None:
        out = EventCheck("audit").evaluate(audit_record())
        assert out.status is Status.PASS
        assert out.message == "matched 1 event on.event('audit') (expected at least 1)"
        assert out.evidence == ("e3",)

    def test_selector_and_count(self) -> None:
        sel = on.event(operation_ref="op-7")
        assert EventCheck(sel, count=2).evaluate(audit_record()).evidence == ("e2", "e3")
        assert EventCheck(sel, count=1).evaluate(audit_record()).status is Status.FAIL

    def test_predicate(self) -> None:
        def is_refund(event: Event) -> bool:
            return bool(event.payload["text"] == "refund")  # type: ignore[index]

        out = EventCheck("audit", is_refund).evaluate(audit_record())
        assert out.status is Status.PASS

    def test_predicate_rejection_is_the_closest(self) -> None:
        def never(event: Event) -> bool:
            return False

        out = EventCheck("audit", never).evaluate(audit_record())
        assert out.status is Status.FAIL
        assert out.closest == "e3"
        assert out.evidence == ("e3",)
        assert "predicate" in out.mismatches[0].reason

    def test_predicate_raising_is_evaluator_error(self) -> None:
        def boom(event: Event) -> bool:
            raise KeyError("nope")

        out = EventCheck("audit", boom).evaluate(audit_record())
        assert out.status is Status.EVALUATOR_ERROR
        assert out.message.endswith("raised KeyError: 'nope'")
        assert out.evidence == ("e3",)

    def test_empty_selection_fails_with_closest(self) -> None:
        out = EventCheck(on.event("audit", operation_ref="op-9")).evaluate(audit_record())
        assert out.status is Status.FAIL
        assert out.closest == "e3"
        assert [m.path for m in out.mismatches] == ["$.operation_ref"]
        assert EventCheck("ui_event").evaluate(audit_record()).closest is None

    def test_missing_surface(self) -> None:
        rec = TrialRecord.builder().tool("a").build(surfaces=["tool_call"])
        assert EventCheck("audit").evaluate(rec).status is Status.INVALID

    def test_forms(self) -> None:
        assert EventCheck("audit").default_name() == "event:audit"
        assert EventCheck(on.event("audit", status="ok")).default_name() == "event:audit"
        assert EventCheck(on.tool("a")).default_name() == "event:on.tool('a')"
        assert EventCheck("audit", count=2).describe() == "event('audit', count=2)"
        assert EventCheck("audit").to_data() == {"event": {"selector": "audit"}}
        assert EventCheck.python_only is False
        with pytest.raises(TypeError, match="'predicate' must be a callable"):
            EventCheck("audit", predicate=3)  # type: ignore[arg-type]


class TestNotEvent:
    def test_pass_and_fail(self) -> None:
        out = NotEvent("ui_event").evaluate(audit_record())
        assert out.status is Status.PASS
        assert out.message == "no event matched on.event('ui_event')"
        out = NotEvent(on.event(operation_ref="op-7")).evaluate(audit_record())
        assert out.status is Status.FAIL
        assert out.message == "2 events matched on.event(operation_ref='op-7'): e2, e3"
        assert out.evidence == ("e2", "e3")

    def test_forms(self) -> None:
        assert NotEvent("audit").default_name() == "not_event:audit"
        assert NotEvent("audit").describe() == "not_event('audit')"


class TestEventOrder:
    def test_pass(self) -> None:
        out = EventOrder("mutation", "audit").evaluate(audit_record())
        assert out.status is Status.PASS
        assert out.message == "found 2 steps in order: e2, e3"
        assert out.evidence == ("e2", "e3")

    def test_fail_names_the_missing_step(self) -> None:
        out = EventOrder("audit", "mutation").evaluate(audit_record())
        assert out.status is Status.FAIL
        assert out.message == "step 2 'mutation' was not found after e3 (step 1 'audit')"
        assert out.evidence == ("e3",)
        assert out.details["missing_step"] == 2

    def test_selectors_and_first_step_missing(self) -> None:
        out = EventOrder(on.tool("refund"), "audit").evaluate(audit_record())
        assert out.status is Status.PASS
        out = EventOrder("ui_event", "audit").evaluate(audit_record())
        assert out.message == "step 1 'ui_event' was not found"

    def test_empty_is_a_build_error(self) -> None:
        with pytest.raises(ValueError, match="event_order\\(\\) needs at least one selector"):
            EventOrder()

    def test_forms(self) -> None:
        check = EventOrder("mutation", on.event("audit", operation_ref="op-7"))
        assert check.default_name() == "event_order"
        assert (
            check.describe() == "event_order('mutation', on.event('audit', operation_ref='op-7'))"
        )
        assert check.to_data() == {
            "event_order": {
                "selectors": ["mutation", {"event": {"kind": "audit", "operation_ref": "op-7"}}]
            }
        }
        assert check == EventOrder("mutation", on.event("audit", operation_ref="op-7"))
        assert check.selectors[0] == "mutation"


class TestEventsSatisfy:
    def test_pass_and_fail(self) -> None:
        def six(events: tuple[Event, ...]) -> bool:
            return len(events) == 6

        out = EventsSatisfy(six).evaluate(audit_record())
        assert out.status is Status.PASS
        assert out.message == "six returned True"
        assert out.evidence == ("e0", "e1", "e2", "e3", "e4", "e5")
        out = EventsSatisfy(lambda events: len(events) > 10).evaluate(audit_record())
        assert out.status is Status.FAIL

    def test_receives_a_tuple(self) -> None:
        seen: list[Any] = []

        def keep(events: tuple[Event, ...]) -> bool:
            seen.append(events)
            return True

        EventsSatisfy(keep).evaluate(audit_record())
        assert isinstance(seen[0], tuple)

    def test_raising_is_evaluator_error(self) -> None:
        def broken(events: tuple[Event, ...]) -> bool:
            raise ZeroDivisionError("division by zero")

        out = EventsSatisfy(broken).evaluate(audit_record())
        assert out.status is Status.EVALUATOR_ERROR
        assert out.message.endswith("broken raised ZeroDivisionError: division by zero")

    def test_forms(self) -> None:
        def ok(events: tuple[Event, ...]) -> bool:
            return True

        assert EventsSatisfy.python_only is True
        assert EventsSatisfy(ok).default_name() == "events_satisfy:ok"
        assert EventsSatisfy(lambda e: True).default_name() == "events_satisfy"
        with pytest.raises(TypeError, match="'fn' must be a callable"):
            EventsSatisfy(None)  # type: ignore[arg-type]


class TestMissingSurfaceMessage:
    def test_recorded_lists_surfaces_and_kinds_present(self) -> None:
        rec = TrialRecord.from_dict(
            {
                "surfaces": ["message"],
                "events": [{"kind": "tool_call", "payload": {"name": "a"}}, {"kind": "audit"}],
            }
        )
        out = CalledSubagent("researcher").evaluate(rec)
        assert out.status is Status.INVALID
        assert out.message == (
            "the record has no 'delegation' surface (recorded: 'audit', 'message', 'tool_call')"
        )

    def test_nothing_recorded(self) -> None:
        rec = TrialRecord.from_dict({"surfaces": [], "events": []})
        assert CalledSubagent("r").evaluate(rec).message == (
            "the record has no 'delegation' surface (recorded: nothing)"
        )


class TestTotalTokensAtMost:
    @pytest.mark.parametrize(
        ("usage", "message"),
        [
            (None, "the record has no token usage"),
            ({}, "the record has no total token count (usage has no counts)"),
            (
                {"input_tokens": 900},
                "the record has no total token count (usage has input_tokens only)",
            ),
            (
                {"output_tokens": 120},
                "the record has no total token count (usage has output_tokens only)",
            ),
        ],
    )
    def test_no_total_is_invalid_saying_what_usage_has(
        self, usage: dict[str, int] | None, message: str
    ) -> None:
        from agent_asserts.checks.traces import TotalTokensAtMost

        out = TotalTokensAtMost(2000).evaluate(TrialRecord.from_dict({"usage": usage}))
        assert (out.status, out.message) == (Status.INVALID, message)

    def test_a_given_total_is_taken_as_recorded(self) -> None:
        from agent_asserts.checks.traces import TotalTokensAtMost

        usage = {"input_tokens": 900, "output_tokens": 120, "total_tokens": 1500}
        out = TotalTokensAtMost(1100).evaluate(TrialRecord.from_dict({"usage": usage}))
        assert (out.status, out.message) == (Status.FAIL, "used 1500 tokens, limit 1100")
