"""Read-back of judge-decided results, CES transfers as delegations, a BOM in JSON Lines."""

from __future__ import annotations

from pathlib import Path

from agent_asserts import EvalContext, Status, run_case
from agent_asserts.batch import iter_jsonl
from agent_asserts.judges import JudgeResponse
from agent_asserts.record.adapters import ces
from agent_asserts.report.json_report import render_json
from agent_asserts.serialization import read_json_report
from agent_asserts.testing import demo_record


def test_a_result_decided_by_the_judge_reads_back_from_the_json_report() -> None:
    case = run_case(
        demo_record(),
        lambda ctx: ctx.judge("polite"),
        judge=lambda request: JudgeResponse(0.4, passed=True),
    )
    (result,) = case.results
    assert (result.status, result.score, result.score_decides) == (Status.PASS, 0.4, False)
    (row,) = read_json_report(render_json([case]))
    assert row.case.results == case.results


def test_a_ces_agent_transfer_counts_as_a_called_subagent() -> None:
    rec = ces.to_record(
        {"detailed_trace": ["User Query: hi", "Agent Transfer: Transferred to Billing Agent"]}
    )
    result = EvalContext(rec).called_subagent("Billing Agent").result
    assert result.status is Status.PASS
    assert (
        result.message == "matched 1 completed delegation to 'Billing Agent' (expected at least 1)"
    )


def test_iter_jsonl_accepts_a_byte_order_mark_on_the_first_line(tmp_path: Path) -> None:
    path = tmp_path / "b.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"events": []}\n{"events": [], "steps": 2}\n')
    assert list(iter_jsonl(path)) == [{"events": []}, {"events": [], "steps": 2}]
