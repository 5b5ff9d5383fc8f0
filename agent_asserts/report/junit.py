"""The JUnit XML report, shaped like pytest's ``--junitxml``.

``testsuites`` > ``testsuite`` > one ``testcase`` per case (``classname`` = the record source
or ``agent_asserts``, ``name`` = the case name). A ``FAILED`` case carries a ``failure``
element whose ``message`` is the summary line and whose text is the whole summary (a suite file
that could not be loaded, an ``error`` element of type ``agent_asserts.suite``, counted in
``errors``, not ``failures``, as pytest counts a file it cannot collect); a
``SKIPPED`` case a ``skipped`` element; ``PASSED`` and ``SCORED`` cases pass. Every case has
``properties``: ``agent_asserts.verdict``, ``agent_asserts.score`` and one
``agent_asserts.score:<result>`` per evaluated result. Characters XML 1.0 cannot hold are
written as ``\\xNN``.

>>> from agent_asserts.results import CaseResult
>>> print(render_junit([CaseResult("a", "skipped", skip_reason="no sandbox")]))
<?xml version="1.0" encoding="utf-8"?>
<testsuites name="agent_asserts" tests="1" failures="0" errors="0" skipped="1">
  <testsuite name="agent_asserts" tests="1" failures="0" errors="0" skipped="1" time="0.000">
    <testcase classname="agent_asserts" name="a" time="0.000">
      <properties>
        <property name="agent_asserts.verdict" value="skipped" />
      </properties>
      <skipped type="agent_asserts.skip" message="no sandbox" />
    </testcase>
  </testsuite>
</testsuites>
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import TYPE_CHECKING

from agent_asserts._text import escape_controls
from agent_asserts.report import renders_rows
from agent_asserts.results import ReportRow, unloaded_suite, verdict_counts
from agent_asserts.status import Verdict

if TYPE_CHECKING:
    from agent_asserts.results import CaseResult

_ILLEGAL = re.compile("[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    """``text`` with the characters XML 1.0 forbids replaced by ``\\xNN`` escapes.

    >>> xml_text("a\\x00b")
    'a\\\\x00b'
    """
    return _ILLEGAL.sub(lambda m: f"\\x{ord(m.group()):02x}", escape_controls(text))


def case_properties(case: CaseResult) -> list[tuple[str, str]]:
    """The JUnit properties of a case: ``agent_asserts.verdict``, ``agent_asserts.score`` (when
    the case has a score) and ``agent_asserts.score:<result name>`` per evaluated result. The
    pytest plugin attaches the same ones to its ``--junitxml`` test cases.

    >>> from agent_asserts.results import AssertionResult, CaseResult
    >>> ok = AssertionResult(name="max_steps:3", status="pass", score=1.0)
    >>> for name, value in case_properties(CaseResult("c", "passed", results=(ok,))):
    ...     print(name, value)
    agent_asserts.verdict passed
    agent_asserts.score 1.0000
    agent_asserts.score:max_steps:3 1.0000
    """
    pairs = [("agent_asserts.verdict", case.verdict.value)]
    if case.score is not None:
        pairs.append(("agent_asserts.score", f"{case.score:.4f}"))
    pairs += [
        (f"agent_asserts.score:{r.name}", f"{r.score:.4f}") for r in case.results if r.evaluated
    ]
    return pairs


def _testcase(row: ReportRow) -> ET.Element:
    case = row.case
    element = ET.Element(
        "testcase",
        {"classname": xml_text(row.source or "agent_asserts"), "name": xml_text(case.name),
         "time": "0.000"},
    )  # fmt: skip
    props = ET.SubElement(element, "properties")
    for name, value in case_properties(case):
        ET.SubElement(props, "property", {"name": xml_text(name), "value": xml_text(value)})
    summary = str(case)
    if case.verdict is Verdict.FAILED:
        kind = "error" if unloaded_suite(case) else "failure"  # a suite file, not a case
        failure = ET.SubElement(element, kind, {"message": xml_text(summary.partition("\n")[0])})
        if kind == "error":
            failure.set("type", "agent_asserts.suite")
        failure.text = xml_text(summary)
    elif case.verdict is Verdict.SKIPPED:
        ET.SubElement(
            element,
            "skipped",
            {"type": "agent_asserts.skip", "message": xml_text(case.skip_reason or "")},
        )
    elif case.verdict is Verdict.SCORED:
        out = ET.SubElement(element, "system-out")
        out.text = xml_text(summary)
    return element


@renders_rows
def render_junit(rows: Sequence[ReportRow], title: str | None) -> str:
    """Render the JUnit XML report (``title`` names the test suite, default ``agent_asserts``)."""
    tally = verdict_counts(r.case for r in rows)
    suites = sum(1 for r in rows if unloaded_suite(r.case))
    counts = {"tests": str(len(rows)), "failures": str(tally[Verdict.FAILED] - suites),
              "errors": str(suites), "skipped": str(tally[Verdict.SKIPPED])}  # fmt: skip
    name = xml_text(title or "agent_asserts")
    root = ET.Element("testsuites", {"name": name, **counts})
    suite = ET.SubElement(root, "testsuite", {"name": name, **counts, "time": "0.000"})
    suite.extend(_testcase(row) for row in rows)
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode", short_empty_elements=True)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + body + "\n"


__all__ = ["case_properties", "render_junit", "xml_text"]
