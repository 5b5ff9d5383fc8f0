"""The pytest plugin, run in inner sessions with pytester: fixture, outcomes, summary, reports."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

# Imported here so pytester's in-process sessions (which restore sys.modules after each run)
# find them loaded instead of importing and assertion-rewriting them again on every run.
import agent_asserts.batch
import agent_asserts.pytest_support
import agent_asserts.report.html_report
import agent_asserts.report.json_report
import agent_asserts.report.junit
import agent_asserts.report.text
import agent_asserts.testing  # noqa: F401
from agent_asserts.report.junit import render_junit
from agent_asserts.serialization import read_json_report

pytest_plugins = ["pytester"]
QUIET = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest")  # nothing to re-import per run


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest(*QUIET, *args)


VERDICT_TESTS = """
from agent_asserts.testing import demo_record

def test_passed(agent_eval):
    agent_eval(demo_record()).called_tool("refunds_lookup")

def test_failed(agent_eval):
    ctx = agent_eval(demo_record())
    ctx.called_tool("refunds_issue", arguments={"amount": 40})

def test_scored(agent_eval):
    ctx = agent_eval(demo_record())
    ctx.called_tool("refunds_lookup")
    ctx.max_steps(1).soft()

def test_skipped(agent_eval):
    agent_eval(demo_record()).skip("no sandbox")
"""


def test_each_verdict_gives_its_test_outcome(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_verdicts=VERDICT_TESTS)
    result = run(pytester, "-rs")
    result.assert_outcomes(passed=2, failed=1, skipped=1)
    result.stdout.fnmatch_lines(
        [
            "*_ test_failed _*",
            "FAILED test_failed: 1 check: 1 failed",
            "  FAILED [gate] called_tool('refunds_issue', arguments={'amount': 40})",
            "    matched 0 tool calls of 1 'refunds_issue' calls, expected at least 1",
            "    closest candidate: event e3",
            "      $.arguments.amount: expected 40, got 42",
            "*= agent_asserts =*",
            "4 cases: 1 passed, 1 failed, 1 scored, 1 skipped; pass rate 25.0%",
            "1 soft failure; mean score *",
            "FAILED test_verdicts.py::test_failed: failed: called_tool(*",
            "SCORED test_verdicts.py::test_scored: score 0.50; soft failures: max_steps(1)",
            "SKIPPED test_verdicts.py::test_skipped: no sandbox",
            "SKIPPED [[]1] test_verdicts.py:*: no sandbox",
        ]
    )
    assert "Traceback" not in result.stdout.str()


def test_require_skip_and_several_contexts(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        from agent_asserts.testing import demo_record

        def test_require(agent_eval):
            ctx = agent_eval(demo_record())
            ctx.require("has a reply", ctx.record.reply is None, "the agent replied")
            raise RuntimeError("never reached")

        def test_skip_after_checks(agent_eval):
            ctx = agent_eval(demo_record())
            ctx.called_tool("refunds_lookup")
            ctx.skip("sandbox down")

        def test_two_contexts(agent_eval):
            first = agent_eval(demo_record())
            second = agent_eval(demo_record(), name="second")
            first.called_tool("refunds_lookup")
            second.used_no_tools()
            assert (first.name, second.name) == ("test_two_contexts", "second")

        def test_third_context_named_after_the_test(agent_eval):
            agent_eval(demo_record()); agent_eval(demo_record())
            assert agent_eval(demo_record()).name.endswith("#3")

        def test_foreign_error_keeps_its_traceback(agent_eval):
            agent_eval(demo_record()).called_tool("refunds_lookup")
            assert 1 == 2, "plain assert"
        """
    )
    result = run(pytester)
    result.assert_outcomes(passed=1, failed=3, skipped=1)
    text = result.stdout.str()
    assert "never reached" not in text
    result.stdout.fnmatch_lines(
        [
            "FAILED test_require: 1 check: 1 failed",
            "  FAILED [gate] has a reply: check('has a reply')",
            "    the agent replied",
        ]
    )
    result.stdout.fnmatch_lines(["FAILED second: 1 check: 1 failed"])
    result.stdout.fnmatch_lines(["E       AssertionError: plain assert"])
    result.stdout.fnmatch_lines(["*test_foreign_error_keeps_its_traceback*error: AssertionError*"])


def test_assert_passed(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import unittest
        from agent_asserts import run_case
        from agent_asserts.runner import assert_passed
        from agent_asserts.testing import demo_record

        def test_fails():
            assert_passed(run_case(demo_record(), lambda ctx: ctx.max_steps(2), name="budget"))

        def test_scored_passes():
            assert_passed(run_case(demo_record(), lambda ctx: ctx.max_steps(2).soft()))

        def test_scored_fails_when_asked():
            case = run_case(demo_record(), lambda ctx: ctx.max_steps(2).soft(), name="strict")
            assert_passed(case, fail_on_scored=True)

        def test_skips():
            assert_passed(run_case(demo_record(), lambda ctx: ctx.skip("later"), name="s"))

        class TestUnittest(unittest.TestCase):
            def test_in_unittest(self):
                assert_passed(run_case(demo_record(), lambda ctx: ctx.max_steps(2), name="u"))
        """
    )
    result = run(pytester, "-rs")
    result.assert_outcomes(passed=1, failed=3, skipped=1)
    result.stdout.fnmatch_lines(["FAILED budget: 1 check: 1 failed"])
    result.stdout.fnmatch_lines(["SCORED strict: 1 check: 1 failed; score 0.00"])
    result.stdout.fnmatch_lines(["SKIPPED [[]1] test_assert_passed.py:*: later"])
    result.stdout.fnmatch_lines(["*CaseFailed: FAILED u: 1 check: 1 failed*"])


def test_an_unrelated_session_is_untouched(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_plain="""
        import sys

        def test_plain():
            loaded = {m for m in sys.modules if m.startswith("agent_asserts")}
            light = {"agent_asserts", "agent_asserts._version", "agent_asserts._reporting",
                     "agent_asserts.pytest_plugin"}
            assert loaded <= light, loaded
            assert "yaml" not in sys.modules

        def test_skip():
            import pytest
            pytest.skip("own skip")

        def test_fail():
            assert 1 == 2
        """
    )
    result = pytester.runpytest_subprocess(*QUIET, "-rA")
    result.assert_outcomes(passed=1, skipped=1, failed=1)
    without = pytester.runpytest_subprocess(*QUIET, "-rA", "-p", "no:agent_asserts")

    def comparable(lines: list[str]) -> list[str]:
        return [
            line
            for line in lines
            if not line.startswith(("plugins:", "running:", "=====")) and "basetemp" not in line
        ]

    assert comparable(result.outlines) == comparable(without.outlines)
    assert not [line for line in result.outlines if "agent_asserts" in line]


def test_junitxml_gets_verdicts_and_scores_as_properties(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_verdicts=VERDICT_TESTS)
    result = run(pytester, "--junitxml=junit.xml", "--agent-asserts-report=r.json")
    result.assert_outcomes(passed=2, failed=1, skipped=1)
    root = ET.parse(pytester.path / "junit.xml").getroot()
    props = {
        case.get("name"): [(p.get("name"), p.get("value")) for p in case.iter("property")]
        for case in root.iter("testcase")
    }
    assert props["test_scored"] == [
        ("agent_asserts.case", "test_scored"),
        ("agent_asserts.verdict", "scored"),
        ("agent_asserts.score", "0.5000"),
        ("agent_asserts.score:called_tool:refunds_lookup", "1.0000"),
        ("agent_asserts.score:max_steps:1", "0.0000"),
    ]
    # The properties the package's own JUnit report gives the same case.
    own = ET.fromstring(render_junit(read_json_report(pytester.path / "r.json")))
    scored = next(c for c in own.iter("testcase") if c.get("name") == "test_scored")
    assert props["test_scored"][1:] == [
        (p.get("name"), p.get("value")) for p in scored.iter("property")
    ]
    assert ("agent_asserts.verdict", "skipped") in props["test_skipped"]
    failure = next(c for c in root.iter("testcase") if c.get("name") == "test_failed").find(
        "failure"
    )
    assert failure is not None and failure.text is not None
    assert failure.text.startswith("FAILED test_failed: 1 check: 1 failed")


@pytest.mark.parametrize("name", ["r.json", "r.xml", "r.html", "r.md", "r.txt"])
def test_report_option_writes_every_format(pytester: pytest.Pytester, name: str) -> None:
    pytester.makepyfile(test_verdicts=VERDICT_TESTS)
    result = run(pytester, f"--agent-asserts-report=out/{name}", "--agent-asserts-embed-records")
    result.assert_outcomes(passed=2, failed=1, skipped=1)
    path = pytester.path / "out" / name
    result.stdout.fnmatch_lines([f"report written to {path}"])
    text = path.read_text(encoding="utf-8")
    assert text.count("test_verdicts.py::test_") >= 4 or name == "r.txt"
    if name == "r.json":
        doc = json.loads(text)
        assert doc["summary"]["cases"] == 4 and doc["records"][0]["data"]["events"]
    if name == "r.html":
        assert text.count('class="aa-case"') == 4 and "aa-events" in text
    if name == "r.txt":
        assert text.endswith("4 cases: 1 passed, 1 failed, 1 scored, 1 skipped; pass rate 25.0%")


def test_report_option_with_a_bad_extension_is_a_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_verdicts=VERDICT_TESTS)
    result = run(pytester, "--agent-asserts-report=r.pdf")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert result.errlines == [
        "ERROR: --agent-asserts-report: cannot tell the report format of 'r.pdf' (use one of "
        ".htm, .html, .json, .markdown, .md, .text, .txt, .xml)",
        "",
    ]
    assert not (pytester.path / "r.pdf").exists()


def test_an_unwritable_report_path_is_reported_not_raised(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_verdicts=VERDICT_TESTS)
    (pytester.path / "afile").write_text("", encoding="utf-8")
    result = run(pytester, "--agent-asserts-report=afile/r.json")
    result.assert_outcomes(passed=2, failed=1, skipped=1)
    result.stdout.fnmatch_lines(["could not write the report afile/r.json: *Not a directory*"])
    assert result.ret == pytest.ExitCode.TESTS_FAILED


@pytest.mark.parametrize("name", ["r.json", "r.html"])
def test_record_data_is_embedded_only_when_asked(pytester: pytest.Pytester, name: str) -> None:
    pytester.makepyfile(test_verdicts=VERDICT_TESTS)
    run(pytester, f"--agent-asserts-report={name}").assert_outcomes(passed=2, failed=1, skipped=1)
    text = (pytester.path / name).read_text(encoding="utf-8")
    assert "refunds_lookup" in text  # the case's check names the tool ...
    if name == "r.json":  # ... the record's data is not there
        assert all(r["data"] is None for r in json.loads(text)["records"])
    else:
        assert '<ol class="aa-events">' not in text
