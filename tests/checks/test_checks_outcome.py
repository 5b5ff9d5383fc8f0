"""Outcome checks: succeeded, stopped, message_includes, output_equals, output_matches."""

from __future__ import annotations

import pytest

from agent_asserts.checks.outcome import (
    MessageIncludes,
    OutputEquals,
    OutputMatches,
    Stopped,
    Succeeded,
)
from agent_asserts.matching import M
from agent_asserts.record import TrialRecord
from agent_asserts.results import Status


def rec(**kwargs: object) -> TrialRecord:
    return TrialRecord.from_dict({"events": [], **kwargs})


def derived_reply_record() -> TrialRecord:
    return (
        TrialRecord.builder()
        .user("refund A1049")
        .agent("Looking it up")
        .agent("Refund issued for order A1049")
        .user("thanks")
        .build(status="completed")
    )


class TestStatus:
    def test_succeeded_passes_on_completed(self) -> None:
        out = Succeeded().evaluate(rec(status="completed"))
        assert out.status is Status.PASS
        assert out.message == "status is 'completed'"
        assert out.score == 1.0

    def test_succeeded_fails_on_other_status(self) -> None:
        out = Succeeded().evaluate(rec(status="stopped"))
        assert out.status is Status.FAIL
        assert out.message == "expected status 'completed', got 'stopped'"
        assert (out.expected, out.observed) == ("completed", "stopped")

    def test_stopped(self) -> None:
        assert Stopped().evaluate(rec(status="stopped")).status is Status.PASS
        out = Stopped().evaluate(rec(status="completed"))
        assert out.message == "expected status 'stopped', got 'completed'"

    @pytest.mark.parametrize("check", [Succeeded(), Stopped()])
    def test_missing_status_is_invalid(self, check: Succeeded | Stopped) -> None:
        out = check.evaluate(rec())
        assert out.status is Status.INVALID
        assert out.message == "the record has no status"

    def test_names_and_forms(self) -> None:
        assert Succeeded().default_name() == "succeeded"
        assert Stopped().describe() == "stopped()"
        assert Succeeded().to_data() == {"succeeded": {}}
        assert Succeeded() == Succeeded()


class TestMessageIncludes:
    def test_substring_of_explicit_reply(self) -> None:
        out = MessageIncludes("A1049").evaluate(rec(reply="Refund issued for A1049"))
        assert out.status is Status.PASS
        assert out.message == "the reply includes 'A1049'"
        assert out.evidence == ()  # an explicit reply is not an event

    def test_case_sensitive(self) -> None:
        out = MessageIncludes("refund").evaluate(rec(reply="Refund issued"))
        assert out.status is Status.FAIL
        assert out.message == "the reply does not include 'refund'"
        assert out.observed == "Refund issued"

    def test_derived_reply_points_at_last_agent_message(self) -> None:
        out = MessageIncludes("A1049").evaluate(derived_reply_record())
        assert out.status is Status.PASS
        assert out.evidence == ("e2",)

    def test_missing_reply_is_invalid(self) -> None:
        out = MessageIncludes("x").evaluate(rec())
        assert out.status is Status.INVALID
        assert out.message == "the record has no reply"

    def test_bad_arguments(self) -> None:
        with pytest.raises(ValueError, match="'text' must not be empty"):
            MessageIncludes("")
        with pytest.raises(TypeError, match="'text' must be a str"):
            MessageIncludes(3)  # type: ignore[arg-type]

    def test_names_and_forms(self) -> None:
        check = MessageIncludes("refund")
        assert check.default_name() == "message_includes:refund"
        assert check.describe() == "message_includes('refund')"
        assert check.to_data() == {"message_includes": {"text": "refund"}}


class TestOutputEquals:
    def test_strict_string(self) -> None:
        out = OutputEquals("done").evaluate(rec(reply="done"))
        assert out.status is Status.PASS
        assert out.message == "the reply equals 'done'"

    def test_mismatch_is_explained(self) -> None:
        out = OutputEquals("done").evaluate(rec(reply="Done"))
        assert out.status is Status.FAIL
        assert out.message == "the reply does not equal 'done': expected 'done', got 'Done'"
        assert [m.path for m in out.mismatches] == ["$"]

    def test_matcher_applies_itself(self) -> None:
        assert OutputEquals(M.regex("^Ref")).evaluate(rec(reply="Refund")).status is Status.PASS

    def test_missing_reply_is_invalid(self) -> None:
        assert OutputEquals("x").evaluate(rec()).message == "the record has no reply"

    def test_names_and_forms(self) -> None:
        check = OutputEquals("done")
        assert check.default_name() == "output_equals:done"
        assert check.describe() == "output_equals('done')"
        assert check.to_data() == {"output_equals": {"expected": "done"}}


class TestOutputMatches:
    def test_search_semantics(self) -> None:
        out = OutputMatches(r"A\d{4}").evaluate(rec(reply="Order A1049 refunded"))
        assert out.status is Status.PASS
        assert out.details["match"] == "A1049"
        assert out.message == r"the reply matches 'A\\d{4}'"

    def test_no_match(self) -> None:
        out = OutputMatches("^A").evaluate(rec(reply="Order A1049"))
        assert out.status is Status.FAIL
        assert out.message == "the reply does not match '^A'"

    def test_invalid_regex_raises_when_built(self) -> None:
        # the single wording of every regex argument (compile_regex, shared with M.regex)
        with pytest.raises(ValueError, match="invalid regular expression") as info:
            OutputMatches("(")
        assert str(info.value) == (
            "'pattern': invalid regular expression '(': missing ), unterminated subpattern at "
            "position 0"
        )
        with pytest.raises(TypeError, match="regular expression str"):
            OutputMatches(3)  # type: ignore[arg-type]

    def test_missing_reply_is_invalid(self) -> None:
        assert OutputMatches("x").evaluate(rec()).status is Status.INVALID

    def test_names_and_forms(self) -> None:
        check = OutputMatches("^Ref")
        assert check.default_name() == "output_matches:^Ref"
        assert check.describe() == "output_matches('^Ref')"
        assert check.to_data() == {"output_matches": {"pattern": "^Ref"}}
