"""skip_judged: judged checks become not_applicable; the deterministic checks decide."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_asserts import evaluate_many
from agent_asserts.cli import main
from agent_asserts.loaders import loads
from agent_asserts.testing import DEMO_RECORD, demo_record

SUITE = """
name: refund
checks:
  - succeeded
  - judge: the agent was polite
  - max_steps: 10
"""


def test_without_judge_the_judged_check_fails_the_case() -> None:
    (case,) = loads(SUITE).evaluate(demo_record())
    assert case.verdict.value == "failed"


def test_skip_judged_on_suite_evaluate() -> None:
    (case,) = loads(SUITE).evaluate(demo_record(), skip_judged=True)
    assert case.verdict.value == "passed"
    judged = case.results[1]
    assert (judged.name, judged.status.value, judged.message) == (
        "judge:the agent was polite",
        "not_applicable",
        "judged check not run",
    )
    assert str(case).splitlines()[0] == (
        "PASSED refund: 3 checks: 2 passed, 1 not applicable; score 1.00"
    )


def test_deterministic_failures_still_decide() -> None:
    suite = loads("checks: [{judge: polite}, {max_steps: 1}]")
    (case,) = suite.evaluate(demo_record(), skip_judged=True)
    assert case.verdict.value == "failed"


def test_skip_judged_in_evaluate_many() -> None:
    batch = evaluate_many([demo_record(), demo_record()], loads(SUITE), skip_judged=True)
    assert [c.verdict.value for c in batch.cases] == ["passed", "passed"]
    with pytest.raises(TypeError) as info:
        evaluate_many([demo_record()], lambda ctx: None, skip_judged=True)
    assert str(info.value) == (
        "'skip_judged' applies to a Suite or a Case; a case function decides its own "
        "ctx.judge() calls"
    )


def test_cli_skip_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("suite.yml").write_text(SUITE)
    Path("run.json").write_text(json.dumps(DEMO_RECORD))
    assert main(["check", "suite.yml", "--record", "run.json"]) == 1
    capsys.readouterr()
    assert main(["check", "suite.yml", "--record", "run.json", "--skip-judged"]) == 0
    out = capsys.readouterr().out
    assert "PASSED refund: 3 checks: 2 passed, 1 not applicable; score 1.00" in out


def test_pytest_skip_judged(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yml", suite=SUITE.replace("name: refund", "name: refund\nrecord: run.json"))
    pytester.makefile(".json", run=json.dumps(DEMO_RECORD))
    pytester.makeini("[pytest]\nagent_asserts_suites = suite.yml\n")
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(failed=1)
    pytester.runpytest("-p", "no:cacheprovider", "--skip-judged").assert_outcomes(passed=1)
