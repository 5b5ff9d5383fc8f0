"""Finding 1 in pytest: a collected suite case past ``agent_asserts_timeout`` fails alone."""

from __future__ import annotations

import json

import pytest

pytest_plugins = ["pytester"]

SUITE = """
record: ../runs/run.json
cases:
  - name: backtracks
    checks:
      - expect: {value: reply, matches: {$regex: "^(a|aa)+$"}}
  - name: fine
    checks: [used_no_tools]
"""


def test_a_suite_case_past_its_limit_fails_and_the_next_runs(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nagent_asserts_suites = suites/*.yaml\nagent_asserts_timeout = 1\n")
    (pytester.path / "runs").mkdir()
    (pytester.path / "runs" / "run.json").write_text(
        json.dumps({"events": [], "reply": "a" * 60 + "?"})
    )
    (pytester.path / "suites").mkdir()
    (pytester.path / "suites" / "hostile.yaml").write_text(SUITE)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", timeout=60)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        ["*TimeLimitExceeded: the case passed its time limit of 1s while running check "
         "'matches:reply'*"]
    )  # fmt: skip


def test_a_bad_agent_asserts_timeout_is_a_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nagent_asserts_suites = s/*.yaml\nagent_asserts_timeout = soon\n")
    (pytester.path / "s").mkdir()
    (pytester.path / "s" / "a.yaml").write_text("record: r.json\nchecks: [used_no_tools]\n")
    (pytester.path / "s" / "r.json").write_text('{"events": []}')
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", timeout=60)
    result.stderr.fnmatch_lines(
        ["*agent_asserts_timeout: must be a number of seconds >= 0 (got 'soon')*"]
    )
