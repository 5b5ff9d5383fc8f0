"""Issue 25, item 14: an unloadable suite was counted as a failed case in the report files.

``agent-asserts check`` turns a suite file that cannot be loaded into a ``FAILED`` entry marked
``metadata["input"] == "suite"`` (so a report file says why the exit status is 2). Every
summary counts it as a suite that could not be loaded, never as a case: the tally line of the
text, Markdown and HTML reports (and of the terminal), the JSON ``summary`` and JUnit's counts.
"""

from __future__ import annotations

import html
import json
import xml.etree.ElementTree as ET

from agent_asserts.report import render
from agent_asserts.results import CaseResult, ReportRow, tally_line

SUITE = CaseResult(
    "broken.yml", "failed", error="cannot load the suite broken.yml: oops",
    metadata={"source": "broken.yml", "input": "suite"},
)  # fmt: skip
ROWS = [
    ReportRow(CaseResult("a", "passed"), None, "runs/a.json"),
    ReportRow(CaseResult("b", "failed", error="boom"), None, "runs/b.json"),
    ReportRow(SUITE, None, "broken.yml"),
]
TALLY = "2 cases: 1 passed, 1 failed; pass rate 50.0%; 1 suite could not be loaded"


def test_the_tally_line_counts_the_suite_apart() -> None:
    assert tally_line([row.case for row in ROWS]) == TALLY
    assert tally_line([SUITE]) == "0 cases; 1 suite could not be loaded"
    assert tally_line([SUITE, SUITE]) == "0 cases; 2 suites could not be loaded"


def test_the_json_summary_counts_the_suite_apart() -> None:
    doc = json.loads(render(ROWS, "json"))
    assert doc["summary"] | {"score": None} == {
        "cases": 2, "passed": 1, "failed": 1, "scored": 0, "skipped": 0, "pass_rate": 0.5,
        "score": None, "suites_not_loaded": 1,
    }  # fmt: skip
    assert [c["name"] for c in doc["cases"]] == ["a", "b", "broken.yml"]  # still reported
    plain = json.loads(render(ROWS[:2], "json"))["summary"]
    assert "suites_not_loaded" not in plain  # a report without one is as it was


def test_junit_counts_the_suite_as_an_error() -> None:
    root = ET.fromstring(render(ROWS, "junit"))
    counts = {k: root.get(k) for k in ("tests", "failures", "errors", "skipped")}
    assert counts == {"tests": "3", "failures": "1", "errors": "1", "skipped": "0"}
    cases = {case.get("name"): case for case in root.iter("testcase")}
    error = cases["broken.yml"].find("error")
    assert error is not None and error.get("type") == "agent_asserts.suite"
    assert cases["broken.yml"].find("failure") is None
    assert cases["b"].find("failure") is not None


def test_text_markdown_and_html_tallies_agree() -> None:
    assert render(ROWS, "text").endswith("\n" + TALLY)
    assert render(ROWS, "text").count("suite: broken.yml") == 1
    assert render(ROWS, "markdown").startswith(f"## agent_asserts: {TALLY}\n")
    assert TALLY in html.unescape(render(ROWS, "html"))
