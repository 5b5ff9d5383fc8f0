"""`scan`: the findings run with no suite, their severities, the batch's outlier bounds, the
`scan:` configuration table, and the run-hygiene checks the findings are made of."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_asserts import EvalContext, TrialRecord, scan
from agent_asserts.checks.events import NoDelegationCycle, delegation_cycle
from agent_asserts.checks.outcome import EndedWithoutError, EndedWithReply
from agent_asserts.checks.tools import OnlyDeclaredTools
from agent_asserts.checks.trajectory import NoIgnoredErrors, NoLoops, NoPendingCalls, find_loop
from agent_asserts.errors import LoadError
from agent_asserts.findings import (
    FINDINGS,
    Bound,
    Outlier,
    ScanConfig,
    batch_bounds,
    findings_fired,
    run_metrics,
    scan_record,
)
from agent_asserts.status import Severity, Status, Verdict


def _run(*calls: tuple[str, dict[str, object]], reply: str | None = "done") -> TrialRecord:
    b = TrialRecord.builder().user("help")
    for name, arguments in calls:
        b = b.tool(name, arguments)
    if reply is not None:
        b = b.agent(reply)
    return b.build(status="completed")


def _result(case: object, name: str) -> object:
    [result] = [r for r in case.results if r.name == name]  # type: ignore[attr-defined]
    return result


# -- the checks ------------------------------------------------------------------------------


class TestLoops:
    def test_the_same_call_k_times_in_a_row_is_a_loop(self) -> None:
        rec = _run(("get", {"id": 1}), ("get", {"id": 1}), ("get", {"id": 1}))
        out = NoLoops().evaluate(rec)
        assert out.status is Status.FAIL
        assert out.message == "'get' called 3 times in a row with the same arguments: e1, e2, e3"
        assert out.evidence == ("e1", "e2", "e3")

    def test_other_arguments_break_the_run(self) -> None:
        rec = _run(("get", {"id": 1}), ("get", {"id": 2}), ("get", {"id": 1}))
        assert NoLoops().evaluate(rec).message == (
            "no call or cycle of calls repeated 3 times in a row"
        )

    def test_key_order_of_the_arguments_does_not_matter(self) -> None:
        rec = _run(("get", {"a": 1, "b": 2}), ("get", {"b": 2, "a": 1}))
        assert NoLoops(2).evaluate(rec).status is Status.FAIL

    def test_a_repeated_cycle_is_a_loop(self) -> None:
        calls = [("search", {"q": "x"}), ("open", {"n": 1})] * 3
        out = NoLoops().evaluate(_run(*calls))
        assert out.message == (
            "the cycle 'search', 'open' repeated 3 times in a row: e1, e2, e3, e4, e5, … (6 in all)"
        )

    def test_a_cycle_longer_than_longest_is_not_looked_for(self) -> None:
        calls = [("a", {}), ("b", {}), ("c", {})] * 3
        assert NoLoops(longest=2).evaluate(_run(*calls)).status is Status.PASS
        assert NoLoops(longest=3).evaluate(_run(*calls)).status is Status.FAIL

    def test_calls_whose_arguments_were_not_recorded_never_repeat(self) -> None:
        rec = TrialRecord.builder().tool("get").tool("get").tool("get").build()
        assert NoLoops().evaluate(rec).status is Status.PASS

    def test_find_loop_reports_the_first_block(self) -> None:
        assert find_loop(["x", "a", "a", "a"], 3, 4) == (1, 1)
        assert find_loop(["a", "a", "a", "a", "a", "a"], 3, 4) == (0, 1)
        assert find_loop([None, None, None], 3, 4) is None

    @pytest.mark.parametrize("times", [1, 0, True, 2.0])
    def test_times_must_be_a_whole_number_of_at_least_two(self, times: object) -> None:
        with pytest.raises((TypeError, ValueError), match="'times'"):
            NoLoops(times)  # type: ignore[arg-type]


class TestPendingAndIgnored:
    def test_a_call_never_answered_fails_no_pending_calls(self) -> None:
        rec = TrialRecord.builder().tool("pay", {}, outcome="pending").tool("get", {}).build()
        out = NoPendingCalls().evaluate(rec)
        assert (out.status, out.message, out.evidence) == (
            Status.FAIL,
            "1 call never answered: e0 ('pay')",
            ("e0",),
        )

    def test_answered_calls_pass(self) -> None:
        assert NoPendingCalls().evaluate(_run(("a", {}))).message == "all 1 call answered"

    def test_an_error_followed_by_a_happy_reply_is_ignored(self) -> None:
        rec = (
            TrialRecord.builder()
            .tool("refund", {"amount": 5}, is_error=True)
            .agent("Your refund is done!")
            .build()
        )
        out = NoIgnoredErrors().evaluate(rec)
        assert out.message == "1 failed call neither retried nor acknowledged: e0 ('refund')"
        assert out.evidence == ("e0",)

    def test_a_retry_or_an_apology_is_not_ignoring(self) -> None:
        retried = (
            TrialRecord.builder()
            .tool("refund", {}, is_error=True)
            .tool("refund", {})
            .agent("done")
            .build()
        )
        said = TrialRecord.builder().tool("refund", {}, is_error=True).agent("I was unable to")
        assert NoIgnoredErrors().evaluate(retried).status is Status.PASS
        assert NoIgnoredErrors().evaluate(said.build()).message == (
            "each of 1 failed call retried or acknowledged"
        )

    def test_an_acknowledgement_before_the_error_does_not_count(self) -> None:
        rec = (
            TrialRecord.builder()
            .agent("sorry for the wait")
            .tool("refund", {}, is_error=True)
            .build()
        )
        assert NoIgnoredErrors().evaluate(rec).status is Status.FAIL

    def test_the_acknowledgement_pattern_is_the_user_s(self) -> None:
        rec = TrialRecord.builder().tool("pay", {}, is_error=True).agent("Lo siento").build()
        assert NoIgnoredErrors().evaluate(rec).status is Status.FAIL
        assert NoIgnoredErrors("(?i)lo siento").evaluate(rec).status is Status.PASS

    def test_an_invalid_pattern_is_refused_with_its_name(self) -> None:
        with pytest.raises(ValueError, match="'acknowledged': invalid regular expression"):
            NoIgnoredErrors("(")


class TestDeclaredToolsAndEnding:
    def test_a_call_of_an_undeclared_tool_fails(self) -> None:
        rec = TrialRecord.from_dict(
            {
                "tools": [{"name": "lookup"}, {"name": "refund"}],
                "events": [
                    {"kind": "tool_call", "payload": {"name": "lookup", "arguments": {}}},
                    {"kind": "tool_call", "payload": {"name": "delete_all", "arguments": {}}},
                ],
            }
        )
        out = OnlyDeclaredTools().evaluate(rec)
        assert out.message == (
            "1 call of an undeclared tool: e1 ('delete_all'); declared: 'lookup', 'refund'"
        )

    def test_no_declared_tools_is_invalid_not_a_pass(self) -> None:
        out = OnlyDeclaredTools().evaluate(_run(("a", {})))
        assert (out.status, out.message) == (
            Status.INVALID,
            "the record does not say which tools were declared",
        )

    def test_ended_with_reply(self) -> None:
        assert EndedWithReply().evaluate(_run(reply="ok")).status is Status.PASS
        out = EndedWithReply().evaluate(_run(("a", {}), reply=None))
        assert (out.status, out.message) == (Status.FAIL, "the run ended without a reply")

    def test_ended_without_error(self) -> None:
        failed = TrialRecord.from_dict({"events": [], "status": "failed"})
        assert EndedWithoutError().evaluate(failed).message == "the run ended with status 'failed'"
        unknown = EndedWithoutError().evaluate(TrialRecord.from_dict({"events": []}))
        assert (unknown.status, unknown.message) == (Status.INVALID, "the record has no status")
        stopped = TrialRecord.from_dict({"events": [], "status": "stopped"})
        assert EndedWithoutError().evaluate(stopped).status is Status.PASS


class TestDelegationCycle:
    @staticmethod
    def _delegations(*pairs: tuple[str | None, str]) -> TrialRecord:
        events = [
            {
                "kind": "delegation",
                "event_type": "completed",
                "payload": {"subagent": to, **({"from_agent": fr} if fr else {})},
            }
            for fr, to in pairs
        ]
        return TrialRecord.from_dict({"events": events})

    def test_a_cycle_through_three_agents(self) -> None:
        rec = self._delegations(("a", "b"), ("b", "c"), ("c", "a"))
        out = NoDelegationCycle().evaluate(rec)
        assert out.message == "delegation cycle 'a' -> 'b' -> 'c' -> 'a': e0, e1, e2"

    def test_a_tree_of_delegations_has_no_cycle(self) -> None:
        rec = self._delegations(("a", "b"), ("a", "c"), ("c", "d"))
        assert NoDelegationCycle().evaluate(rec).message == "no cycle among 3 delegations"

    def test_delegations_that_do_not_say_who_delegated_are_invalid(self) -> None:
        out = NoDelegationCycle().evaluate(self._delegations((None, "b")))
        assert out.status is Status.INVALID

    def test_a_long_chain_is_walked_without_recursion(self) -> None:
        edges = [(f"a{i}", f"a{i + 1}", i) for i in range(5000)]
        assert delegation_cycle(edges) is None
        assert delegation_cycle([*edges, ("a5000", "a0", 5000)]) == list(range(5001))


# -- the batch -------------------------------------------------------------------------------


class TestBounds:
    def test_the_bound_is_median_plus_k_scaled_mad(self) -> None:
        bound = Bound.of("tokens", [100, 110, 120, 130, 140], k=2)
        assert bound is not None
        # median 120, MAD 10, spread 14.826, limit 120 + 29.65 -> 149 (whole tokens)
        assert (bound.median, round(bound.spread, 3), bound.limit) == (120, 14.826, 149.0)

    def test_a_constant_batch_with_one_outlier_still_has_a_bound(self) -> None:
        bound = Bound.of("steps", [4, 4, 4, 4, 4, 4, 40], k=3.5)
        assert bound is not None and bound.limit < 40

    def test_all_equal_values_have_no_bound(self) -> None:
        assert Bound.of("steps", [3, 3, 3, 3, 3], k=3.5) is None

    def test_durations_keep_fractions(self) -> None:
        bound = Bound.of("duration", [1.0, 1.5, 2.0, 2.5, 3.0], k=1)
        assert bound is not None and bound.limit == pytest.approx(2.0 + 0.5 * 1.4826)

    def test_a_metric_known_for_too_few_runs_has_no_bound(self) -> None:
        runs = [{"steps": s, "tokens": None} for s in (1, 2, 9)]
        assert batch_bounds(runs, min_runs=4) == {}
        assert set(batch_bounds(runs, min_runs=3)) == {"steps"}

    def test_run_metrics_say_none_where_the_record_is_silent(self) -> None:
        assert run_metrics(TrialRecord.from_dict({"events": []})) == {
            "steps": None,
            "tool_calls": 0,
            "tokens": None,
            "duration": None,
        }

    def test_an_outlier_is_a_soft_finding_with_the_batch_figures(self) -> None:
        runs = [
            TrialRecord.builder().agent("ok").build(steps=n, status="completed")
            for n in (3, 4, 4, 5, 4, 40)
        ]
        cases = scan(runs)
        assert [c.verdict for c in cases] == [Verdict.PASSED] * 5 + [Verdict.SCORED]
        result = _result(cases[5], "outlier_steps")
        assert result.severity is Severity.SOFT  # type: ignore[attr-defined]
        assert result.message == (  # type: ignore[attr-defined]
            "expected at most 6 steps, got 40 (the batch of 6 runs: median 4 + 3.5 × spread 0.74)"
        )

    def test_the_outlier_check_keeps_the_budget_form(self) -> None:
        check = Outlier(Bound("tokens", 900.0, 300.0, 100.0, 20, 6.0))
        assert check.describe() == "total_tokens_at_most(900)"
        assert check.to_data() == {"total_tokens_at_most": {"n": 900}}


class TestScan:
    def test_every_finding_runs_on_a_clean_run_and_passes(self) -> None:
        case = scan_record(_run(("lookup", {"id": 1})), name="clean")
        assert case.name == "clean" and case.verdict is Verdict.PASSED
        assert [r.name for r in case.results] == [
            "loop",
            "pending_call",
            "ignored_error",
            "no_reply",
            "error_status",
        ]

    def test_findings_that_need_what_the_record_lacks_are_not_run(self) -> None:
        names = [r.name for r in scan_record(_run()).results]
        assert "undeclared_tool" not in names and "delegation_cycle" not in names

    def test_a_gate_finding_fails_the_case(self) -> None:
        case = scan_record(_run(("a", {}), reply=None))
        assert case.verdict is Verdict.FAILED
        assert [r.name for r in case.results if r.failed] == ["no_reply"]

    def test_a_finding_the_trace_cannot_decide_is_invalid_and_never_fails_the_scan(self) -> None:
        # a declared tool without a parameters schema: its arguments cannot be validated
        rec = TrialRecord.from_dict(
            {
                "tools": [{"name": "lookup"}],
                "reply": "ok",
                "status": "completed",
                "events": [{"kind": "tool_call", "payload": {"name": "lookup", "arguments": {}}}],
            }
        )
        case = scan_record(rec)
        result = _result(case, "invalid_arguments")
        assert result.status is Status.INVALID  # type: ignore[attr-defined]
        assert result.message == "tool 'lookup' declares no parameters schema"  # type: ignore[attr-defined]
        assert result.severity is Severity.SOFT  # type: ignore[attr-defined]
        assert case.verdict is Verdict.SCORED

    def test_no_status_and_no_recorded_reply_are_not_findings(self) -> None:
        silent = TrialRecord.from_dict(
            {
                "surfaces": ["tool_call"],
                "events": [{"kind": "tool_call", "payload": {"name": "a", "arguments": {}}}],
            }
        )
        case = scan_record(silent)
        names = [r.name for r in case.results]
        assert "error_status" not in names and "no_reply" not in names
        assert case.verdict is Verdict.PASSED

    def test_severities_by_name(self) -> None:
        rec = _run(("a", {}), reply=None)
        soft = scan_record(rec, config=ScanConfig(severities={"no_reply": "soft"}))
        off = scan_record(rec, config=ScanConfig().with_severity(["no_reply"], "off"))
        assert soft.verdict is Verdict.SCORED
        assert off.verdict is Verdict.PASSED and "no_reply" not in [r.name for r in off.results]

    def test_findings_fired_counts_runs(self) -> None:
        cases = scan([_run(reply=None), _run(reply=None), _run()], names=["x", "y", "z"])
        assert [c.name for c in cases] == ["x", "y", "z"]
        assert findings_fired(cases) == {"no_reply": 2}

    def test_names_must_match_the_records(self) -> None:
        with pytest.raises(ValueError, match="'names' gives 1 names for 2 records"):
            scan([_run(), _run()], names=["a"])

    def test_the_checks_are_the_fluent_ones(self) -> None:
        rec = _run(("get", {"id": 1}), ("get", {"id": 1}), ("get", {"id": 1}))
        fluent = EvalContext(rec).no_loops().result
        scanned = _result(scan_record(rec), "loop")
        assert fluent.message == scanned.message  # type: ignore[attr-defined]
        assert fluent.evidence == scanned.evidence  # type: ignore[attr-defined]

    def test_every_finding_has_a_default_severity_and_a_description(self) -> None:
        for finding in FINDINGS.values():
            assert finding.severity in ("gate", "soft") and finding.description


class TestConfig:
    def test_a_scan_table_sets_severities_and_settings(self, tmp_path: Path) -> None:
        path = tmp_path / "scan.yml"
        path.write_text(
            "scan:\n"
            "  loop: {times: 4, longest: 2, severity: soft}\n"
            "  no_reply: off\n"
            "  ignored_error: {acknowledged: '(?i)desole'}\n"
            "  outliers: {k: 2.5, min_runs: 10}\n"
        )
        config = ScanConfig.load(path)
        assert (config.loop_times, config.loop_longest, config.acknowledged) == (4, 2, "(?i)desole")
        assert (config.outlier_k, config.outlier_min_runs) == (2.5, 10)
        assert config.severity("loop") == "soft" and config.severity("no_reply") == "off"

    def test_every_problem_is_reported_with_its_position(self, tmp_path: Path) -> None:
        path = tmp_path / "scan.yml"
        path.write_text(
            "scan:\n  lop: soft\n  loop: {times: three}\n  no_reply: maybe\n  outliers: {kk: 1}\n"
        )
        with pytest.raises(LoadError) as info:
            ScanConfig.load(path)
        assert [str(p) for p in info.value.problems] == [
            f"{path}:2:3: scan.lop: unknown finding 'lop' (did you mean 'loop'?)",
            f"{path}:3:17: scan.loop.times: must be a whole number >= 2 (got 'three')",
            f"{path}:4:13: scan.no_reply: must be 'gate', 'soft', 'off' or a table (got 'maybe')",
            f"{path}:5:14: scan.outliers.kk: unknown setting 'kk' (did you mean 'k'?)",
        ]

    def test_a_value_out_of_range_names_the_table(self) -> None:
        with pytest.raises(LoadError) as info:
            ScanConfig.from_data({"scan": {"loop": {"times": 1}}})
        assert str(info.value) == "<data>: scan.loop.times: must be a whole number >= 2 (got 1)"

    def test_an_invalid_pattern_is_a_load_error(self) -> None:
        with pytest.raises(LoadError) as info:
            ScanConfig.from_data({"ignored_error": {"acknowledged": "("}})
        assert str(info.value).startswith(
            "<data>: ignored_error.acknowledged: 'acknowledged': invalid regular expression '('"
        )

    def test_a_json_file_works_too(self, tmp_path: Path) -> None:
        path = tmp_path / "scan.json"
        path.write_text(json.dumps({"scan": {"pending_call": "soft"}}))
        assert ScanConfig.load(path).severity("pending_call") == "soft"
