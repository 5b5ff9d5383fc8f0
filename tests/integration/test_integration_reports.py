"""The report formats: structure (HTML through html.parser), escaping, round trips."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from agent_asserts import AssertionResult, CaseResult, EvalContext, TrialRecord, run_case
from agent_asserts.report import format_for_path, render, rows_of, write_report
from agent_asserts.report.html_report import render_html, render_html_fragment
from agent_asserts.serialization import case_from_dict, read_json_report
from agent_asserts.testing import demo_record

EVIL = "<script>alert('x')</script> & \"q\""


def cases_and_records() -> tuple[list[CaseResult], list[TrialRecord]]:
    record = demo_record()

    def failing(ctx: EvalContext) -> None:
        ctx.called_tool("refunds_issue", arguments={"amount": 40})
        ctx.state("/orders/A1049/status").equals("paid")
        ctx.max_steps(2).soft()

    def scored(ctx: EvalContext) -> None:
        ctx.called_tool("refunds_lookup")
        ctx.max_steps(2).soft()
        ctx.log("note", detail=EVIL)

    def skipped(ctx: EvalContext) -> None:
        ctx.skip("no sandbox")

    def passing(ctx: EvalContext) -> None:
        ctx.called_tool("refunds_lookup")

    runs = [
        run_case(record, failing, name=EVIL),
        run_case(record, scored),
        run_case(record, skipped),
        run_case(record, passing),
    ]
    return runs, [record] * 4


class Tree(HTMLParser):
    """Elements with their attributes and the text inside each, plus nesting checks."""

    VOID = frozenset({"meta", "input", "br", "img", "link", "hr"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None], list[str]]] = []
        self.stack: list[tuple[str, list[str]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        texts: list[str] = []
        self.elements.append((tag, dict(attrs), texts))
        if tag not in self.VOID:
            self.stack.append((tag, texts))

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1][0] == tag, f"unbalanced </{tag}>"
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        for _, texts in self.stack:
            texts.append(data)

    def find(self, tag: str, cls: str | None = None) -> list[tuple[dict[str, str | None], str]]:
        return [
            (attrs, "".join(texts))
            for t, attrs, texts in self.elements
            if t == tag and (cls is None or cls in (attrs.get("class") or "").split())
        ]


def parse(page: str) -> Tree:
    tree = Tree()
    tree.feed(page)
    tree.close()
    assert not tree.stack, f"unclosed elements: {[t for t, _ in tree.stack]}"
    return tree


def test_html_report_structure() -> None:
    cases, records = cases_and_records()
    tree = parse(render_html(cases, records=records, sources=["a.json", None, None, "d.json"]))
    rows = tree.find("details", "aa-case")
    assert [a["data-verdict"] for a, _ in rows] == ["failed", "scored", "skipped", "passed"]
    assert [("open" in a) for a, _ in rows] == [True, True, True, False]
    filters = tree.find("input", "aa-f")
    assert [a["id"] for a, _ in filters] == [
        f"aa-{v}" for v in ("all", "failed", "scored", "skipped", "passed")
    ]
    assert {a["for"] for a, _ in tree.find("label", "aa-fl")} == {a["id"] for a, _ in filters}
    failed_body = rows[0][1]
    assert "$.arguments.amount" in failed_body and "expected 40, got 42" in failed_body
    timeline = tree.find("li", "aa-ev")
    assert len(timeline) == 5 * 4
    cited = [a["id"] for a, _ in tree.find("li", "aa-cited-failed") if "id" in a]
    assert "aa-c0-e3" in cited
    links = {a["href"] for a, _ in tree.find("a", "aa-ev-link")}
    assert "#aa-c0-e3" in links and all(
        h and h[1:] in {a.get("id") for _, a, _ in tree.elements} for h in links
    )
    assert any("changed /orders/A1049/status" in text for _, text in tree.find("li"))


def test_html_is_self_contained_and_escapes_everything() -> None:
    cases, records = cases_and_records()
    page = render_html(cases, records=records, sources=[EVIL, None, None, None], title=EVIL)
    tree = parse(page)
    assert not tree.find("script") and not tree.find("link") and not tree.find("img")
    assert all(not a.get("src") for _, a, _ in tree.elements)
    hrefs = [a["href"] for t, a, _ in tree.elements if t == "a"]
    assert hrefs and all(h and h.startswith("#") for h in hrefs)
    assert tree.find("title")[0][1] == EVIL
    assert "<script>" not in page
    assert EVIL in "".join(tree.text)


def test_html_never_crashes_on_broken_values() -> None:
    class Broken:
        def __repr__(self) -> str:
            raise RuntimeError("no repr")

    bad = AssertionResult(
        name="x",
        status="fail",
        score=0.0,
        expected=Broken(),
        observed=Broken(),
        evidence=(Broken(),),
        mismatches=(Broken(),),
    )
    case = CaseResult("broken", "failed", results=(bad,))
    tree = parse(render_html([case]))
    assert "repr failed" in "".join(tree.text)
    assert "repr failed" in render([case], "json") and "broken" in render([case], "junit")


def test_repr_html_of_a_case_is_the_same_view() -> None:
    cases, _ = cases_and_records()
    fragment = cases[0]._repr_html_()
    tree = parse(fragment)
    assert len(tree.find("details", "aa-case")) == 1
    assert tree.find("style") and not tree.find("html")
    assert render_html_fragment(cases[:1], id_prefix="p") != render_html_fragment(cases[:1])


def test_json_report_is_lossless_and_documented_shape(tmp_path: Path) -> None:
    cases, records = cases_and_records()
    path = write_report(tmp_path / "r.json", cases, records=records, sources=["a", "a", "b", None])
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert set(doc) == {"schema_version", "generator", "title", "summary", "records", "cases"}
    assert doc["schema_version"] == 1
    assert doc["summary"] == {
        "cases": 4,
        "failed": 1,
        "scored": 1,
        "skipped": 1,
        "passed": 1,
        "pass_rate": 0.25,
        "score": doc["summary"]["score"],
    }
    assert [c["record"] for c in doc["cases"]] == [0, 0, 1, 2]
    assert doc["records"][0]["data"] == records[0].to_dict()
    rows = read_json_report(path)
    assert [r.case.to_dict() for r in rows] == [c.to_dict() for c in cases]
    assert [str(r.case) for r in rows] == [str(c) for c in cases]
    assert rows[3].record == records[0] and rows[3].source is None
    assert read_json_report(path.read_text(encoding="utf-8"))[0].source == "a"
    with pytest.raises(ValueError, match="schema_version"):
        read_json_report('{"schema_version": 99}')


def test_case_from_dict_round_trips_the_summary() -> None:
    cases, _ = cases_and_records()
    for case in cases:
        again = case_from_dict(json.loads(json.dumps(case.to_dict())))
        assert str(again) == str(case) and again.verdict is case.verdict


def test_junit_report_matches_pytest_structure() -> None:
    cases, _ = cases_and_records()
    root = ET.fromstring(render(cases, "junit", sources=["a.json", None, None, None]))
    assert root.tag == "testsuites"
    (suite,) = list(root)
    assert suite.tag == "testsuite"
    assert (suite.get("tests"), suite.get("failures"), suite.get("skipped")) == ("4", "1", "1")
    testcases = suite.findall("testcase")
    assert [t.get("name") for t in testcases][1:] == ["scored", "skipped", "passing"]
    assert testcases[0].get("classname") == "a.json"
    failure = testcases[0].find("failure")
    assert failure is not None and failure.text == str(cases[0])
    assert failure.get("message") == str(cases[0]).splitlines()[0]
    assert testcases[2].find("skipped").get("message") == "no sandbox"  # type: ignore[union-attr]
    props = {p.get("name"): p.get("value") for p in testcases[1].iter("property")}
    assert props["agent_asserts.verdict"] == "scored"
    assert props["agent_asserts.score"] == f"{cases[1].score:.4f}"
    assert "agent_asserts.score:max_steps:2" in props


def test_junit_escapes_characters_xml_cannot_hold() -> None:
    text = render([CaseResult("bad\x00name\x1b", "passed")], "junit")
    assert ET.fromstring(text).find(".//testcase").get("name") == "bad\\x00name\\x1b"  # type: ignore[union-attr]


def test_markdown_report() -> None:
    cases, _ = cases_and_records()
    text = render(cases, "markdown", sources=["a|b.json", None, None, None])
    lines = text.splitlines()
    assert (
        lines[0]
        == "## agent_asserts: 4 cases: 1 passed, 1 failed, 1 scored, 1 skipped; pass rate 25.0%"
    )
    table = [line for line in lines if line.startswith("| ")]
    assert len(table) == 2 + 4 and table[2].startswith("| ❌ failed | &lt;script&gt;")
    assert "a\\|b.json" in table[2]
    assert text.count("<details>") == 3
    outside_fences = text.split("```")[::2]  # a fenced summary is shown as text, never markup
    assert not any("<script>" in part for part in outside_fences)
    assert "<summary>❌ &lt;script&gt;" in text


def test_text_report_and_formats() -> None:
    cases, _ = cases_and_records()
    text = render(cases, "text", sources=["a.json", None, None, None])
    assert text.splitlines()[0] == str(cases[0]).splitlines()[0]
    assert text.splitlines()[1] == "  record: a.json"
    assert text.endswith("4 cases: 1 passed, 1 failed, 1 scored, 1 skipped; pass rate 25.0%")
    assert "\x1b[1;31mFAILED" in render(cases, "text", color=True)
    assert [format_for_path(p) for p in ("a.json", "a.xml", "a.html", "a.md", "a.txt")] == [
        "json",
        "junit",
        "html",
        "markdown",
        "text",
    ]
    with pytest.raises(ValueError, match="cannot tell the report format"):
        format_for_path("a.pdf")
    with pytest.raises(ValueError, match="unknown report format"):
        render(cases, "pdf")


def test_rows_of_checks_lengths() -> None:
    cases, _ = cases_and_records()
    with pytest.raises(ValueError, match="one entry per case"):
        rows_of(cases, sources=["x"])
    with pytest.raises(TypeError):
        rows_of([object()])  # type: ignore[list-item]


def test_empty_reports_render(tmp_path: Path) -> None:
    for name in ("r.json", "r.xml", "r.html", "r.md", "r.txt"):
        assert write_report(tmp_path / name, []).stat().st_size > 0
    assert parse(render_html([])).find("p", "aa-empty")
