"""Suite files collected as test items through the ini option ``agent_asserts_suites``."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

# Loaded here, once: pytester's in-process sessions drop the modules they import, and the
# YAML reader keeps PyYAML objects that a re-import of ``yaml`` would invalidate.
import agent_asserts.pytest_support
import agent_asserts.report.json_report
import agent_asserts.report.text  # noqa: F401
from agent_asserts.loaders import loads
from agent_asserts.testing import DEMO_RECORD

loads("checks:\n  - used_no_tools\n")
loads('{"checks": [{"used_no_tools": null}]}', name="warm.json")
pytest_plugins = ["pytester"]
QUIET = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest")

REFUND_SUITE = """
name: refunds
record: ../runs/refund.json
cases:
  - name: looks the order up
    checks:
      - called_tool: {name: refunds_lookup, arguments: {orderId: A1049}}
  - name: issues the full amount
    checks:
      - called_tool: {name: refunds_issue, arguments: {amount: 40}}
  - name: stays short
    checks:
      - called_tool: refunds_lookup
      - max_steps: 2
        severity: soft
"""

BROKEN_SUITE = """checks:
  - called_tol: refunds_lookup
  - max_steps: nope
"""


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeini("[pytest]\nagent_asserts_suites = suites/*.yaml suites/**/*.suite.json\n")
    (pytester.path / "runs").mkdir()
    (pytester.path / "runs" / "refund.json").write_text(json.dumps(DEMO_RECORD), encoding="utf-8")
    (pytester.path / "suites").mkdir()
    (pytester.path / "suites" / "refunds.yaml").write_text(REFUND_SUITE, encoding="utf-8")
    return pytester


def test_each_case_is_one_item_named_after_the_case(project: pytest.Pytester) -> None:
    result = project.runpytest(*QUIET, "-v", "-rs")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(
        [
            "suites/refunds.yaml::looks the order up PASSED*",
            "suites/refunds.yaml::issues the full amount FAILED*",
            "suites/refunds.yaml::stays short PASSED*",
            "*_ issues the full amount _*",
            "FAILED issues the full amount: 1 check: 1 failed",
            "*$.arguments.amount: expected 40, got 42",
            "*= agent_asserts =*",
            "3 cases: 1 passed, 1 failed, 1 scored; pass rate 33.3%",
            "SCORED suites/refunds.yaml::stays short: score 0.50; soft failures: max_steps(2)",
        ]
    )


def test_a_broken_file_is_one_failing_item_with_positions(project: pytest.Pytester) -> None:
    (project.path / "suites" / "broken.yaml").write_text(BROKEN_SUITE, encoding="utf-8")
    nested = project.path / "suites" / "more"
    nested.mkdir()
    (nested / "ok.suite.json").write_text(
        json.dumps({"record": "../../runs/refund.json", "checks": [{"max_steps": 9}]}),
        encoding="utf-8",
    )
    result = project.runpytest(*QUIET)
    result.assert_outcomes(passed=3, failed=2)
    result.stdout.fnmatch_lines(
        [
            "*_ load_error _*",
            "cannot load the suite broken.yaml:",
            "*broken.yaml:2:5: checks[[]0]: unknown check 'called_tol' (did you mean*",
            "*broken.yaml:3:16: checks[[]1].max_steps: must be an integer (got 'nope')",
        ]
    )
    assert "INTERNALERROR" not in result.stdout.str() and result.ret == pytest.ExitCode.TESTS_FAILED


def test_a_case_without_a_readable_record_fails_its_item(project: pytest.Pytester) -> None:
    (project.path / "suites" / "norecord.yaml").write_text(
        "cases:\n  - name: orphan\n    checks: [used_no_tools]\n"
        "  - name: lost\n    record: nowhere.json\n    checks: [used_no_tools]\n",
        encoding="utf-8",
    )
    result = project.runpytest(*QUIET, "-v", "suites/norecord.yaml")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["*::orphan FAILED*", "*::lost FAILED*"])
    result.stdout.fnmatch_lines(["cannot load the record: case 'orphan' names no record file*"])
    result.stdout.fnmatch_lines(["cannot load the record */suites/nowhere.json: *"])


def test_unloadable_files_and_records_are_failed_cases_in_the_summary_and_report(
    project: pytest.Pytester,
) -> None:
    (project.path / "suites" / "broken.yaml").write_text(BROKEN_SUITE, encoding="utf-8")
    (project.path / "suites" / "lost.yaml").write_text(
        "record: nowhere.json\ncases:\n  - name: lost\n    checks: [used_no_tools]\n",
        encoding="utf-8",
    )
    result = project.runpytest(*QUIET, "--agent-asserts-report=r.json")
    result.assert_outcomes(passed=2, failed=3)
    lost = project.path / "suites" / "nowhere.json"
    lost_error = f"cannot load the record {lost}: [Errno 2] No such file or directory: '{lost}'"
    broken = project.path / "suites" / "broken.yaml"
    broken_error = (
        "cannot load the suite broken.yaml:\n"
        f"  {broken}:2:5: checks[0]: unknown check 'called_tol' (did you mean 'called_tool'?)\n"
        f"  {broken}:3:16: checks[1].max_steps: must be an integer (got 'nope')"
    )
    result.stdout.fnmatch_lines(
        [
            "*= agent_asserts =*",
            "5 cases: 1 passed, 3 failed, 1 scored; pass rate 20.0%",
            "FAILED suites/broken.yaml::load_error: error: cannot load the suite broken.yaml:",
            f"  {broken}:2:5: checks[[]0]: unknown check 'called_tol' (did you mean*",
            f"FAILED suites/lost.yaml::lost: error: {lost_error}",
        ]
    )
    text = result.stdout.str()
    assert "During handling" not in text and text.count(f"\n{lost_error}\n") == 1
    doc = json.loads((project.path / "r.json").read_text(encoding="utf-8"))
    sources = [r["source"] for r in doc["records"]]
    failed = [
        (sources[c["record"]], c["name"], c["error"], c["metadata"])
        for c in doc["cases"]
        if c["error"] is not None
    ]
    assert failed == [
        ("suites/broken.yaml::load_error", "load_error", broken_error,
         {"source": "suites/broken.yaml"}),
        ("suites/lost.yaml::lost", "lost", lost_error, {"source": str(lost)}),
    ]  # fmt: skip


def test_without_the_ini_option_suite_files_are_ignored(pytester: pytest.Pytester) -> None:
    (pytester.path / "refunds.yaml").write_text(REFUND_SUITE, encoding="utf-8")
    pytester.makepyfile("def test_plain():\n    pass\n")
    result = pytester.runpytest(*QUIET)
    result.assert_outcomes(passed=1)
    assert "agent_asserts" not in result.stdout.str()


def test_fixture_tests_and_suite_items_under_xdist(project: pytest.Pytester) -> None:
    (project.path / "suites" / "broken.yaml").write_text(BROKEN_SUITE, encoding="utf-8")
    project.makepyfile(
        test_fixture="""
        from agent_asserts.testing import demo_record

        def test_passed(agent_eval):
            agent_eval(demo_record()).called_tool("refunds_lookup")

        def test_failed(agent_eval):
            agent_eval(demo_record()).called_tool("refunds_issue", arguments={"amount": 40})

        def test_scored(agent_eval):
            agent_eval(demo_record()).max_tool_calls(1).soft()

        def test_skipped(agent_eval):
            agent_eval(demo_record()).skip("no sandbox")
        """
    )
    result = project.runpytest_subprocess(
        "-n", "2", *QUIET, "--agent-asserts-report=r.json", "--junitxml=j.xml",
        "--agent-asserts-embed-records",
    )  # fmt: skip
    result.assert_outcomes(passed=4, failed=3, skipped=1)
    result.stdout.fnmatch_lines(
        ["*= agent_asserts =*", "8 cases: 2 passed, 3 failed, 2 scored, 1 skipped; pass rate 25.0%"]
    )
    doc = json.loads((project.path / "r.json").read_text(encoding="utf-8"))
    assert doc["summary"]["cases"] == 8
    assert sorted(c["verdict"] for c in doc["cases"]) == [
        "failed",
        "failed",
        "failed",
        "passed",
        "passed",
        "scored",
        "scored",
        "skipped",
    ]
    with_data = [r for r in doc["records"] if r["data"] is not None]
    assert len(with_data) == 7 and all(r["data"]["events"] for r in with_data)
    root = ET.parse(project.path / "j.xml").getroot()
    names = [p.get("name") for p in root.iter("property")]
    assert names.count("agent_asserts.verdict") == 8 and names.count("agent_asserts.score") == 6


def test_an_agent_asserts_timeout_too_long_is_a_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nagent_asserts_suites = s/*.yaml\nagent_asserts_timeout = 1e300\n")
    (pytester.path / "s").mkdir()
    (pytester.path / "s" / "a.yaml").write_text("record: r.json\nchecks: [used_no_tools]\n")
    (pytester.path / "s" / "r.json").write_text('{"events": []}')
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", timeout=60)
    message = "must be at most 1000000000 seconds, about 31 years (got '1e300')"
    result.stderr.fnmatch_lines([f"*agent_asserts_timeout: {message}"])
    assert "OverflowError" not in result.stdout.str() + result.stderr.str()


def test_a_record_outside_the_project_is_not_read(pytester: pytest.Pytester) -> None:
    project = pytester.path / "project"
    (project / "suites").mkdir(parents=True)
    (project / "pytest.ini").write_text("[pytest]\nagent_asserts_suites = suites/*.yaml\n")
    secret = pytester.path / "secret.json"  # beside the project, not in it
    secret.write_text(json.dumps({"private_key": "-----BEGIN PRIVATE KEY-----"}))
    (project / "suites" / "s.yaml").write_text(
        "record: ../../secret.json\nrecord_format: mantle\nchecks: [used_no_tools]\n"
    )
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--rootdir", str(project), str(project), "--agent-asserts-report",
        str(project / "r.json"), "--agent-asserts-embed-records",
    )  # fmt: skip
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*the record */suites/../../secret.json is outside the suite's folder (*/suites) and "
         "*/project: give --agent-asserts-allow-records-from DIR to read records from another "
         "folder*"]
    )  # fmt: skip
    assert "PRIVATE KEY" not in (project / "r.json").read_text()
    allowed = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--rootdir", str(project), str(project),
        f"--agent-asserts-allow-records-from={pytester.path}",
    )  # fmt: skip
    allowed.assert_outcomes(passed=1)


def test_the_terminal_gets_no_character_that_acts(pytester: pytest.Pytester) -> None:
    hostile = "x\x1b]0;pwned\x07\r\u202e"
    pytester.makeini("[pytest]\nagent_asserts_suites = s/*.yaml\n")
    (pytester.path / "s").mkdir()
    (pytester.path / "s" / "a.yaml").write_text(
        f"record: {json.dumps(hostile + '.json')}\nchecks: [used_no_tools]\n"
    )
    result = pytester.runpytest_subprocess(*QUIET)
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "cannot load the record" in out and "x\\x1b]0;pwned\\x07\\r\\u202e.json" in out
    assert not set("\x1b\x07\r\u202e") & set(out)
