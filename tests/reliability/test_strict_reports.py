"""Reports are written whatever the text holds, as strict JSON that reads back (issue 25).

A lone surrogate (``"\\ud800"``, a legal JSON escape) in a record or a suite once crashed the
JSON, HTML, text and Markdown reports (nothing written); non-finite floats were written as
bare ``NaN``/``Infinity``. Both now have a documented lossless form (docs/serialization.md).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_asserts import TrialRecord
from agent_asserts._values import from_strict_json, strict_json
from agent_asserts.loaders import loads
from agent_asserts.report import formats, write_report
from agent_asserts.report.json_report import render_json
from agent_asserts.results import AssertionResult, CaseResult, EvaluatorInfo
from agent_asserts.serialization import read_json_report

pytest_plugins = ["pytester"]


def _refuse(name: str) -> Any:
    raise AssertionError(f"bare {name} in the report")


def _strict(text: str) -> Any:
    return json.loads(text, parse_constant=_refuse)


SURROGATE_RECORD = (
    '{"events": [{"kind": "message", "actor_ref": "user", "payload": {"text": "hi \\ud800"}},'
    ' {"kind": "message", "actor_ref": "agent", "payload": {"text": "ok \\udfff"}}],'
    ' "metadata": {"m": "\\udc00"}}'
)
SURROGATE_SUITE = (
    '{"name": "s\\ud800", "checks": [{"expect": {"value": "reply", "includes": "\\ud800"}}]}'
)


@pytest.mark.parametrize("fmt", ["text", "json", "junit", "markdown", "html"])
def test_a_lone_surrogate_in_a_record_and_a_suite_is_written_in_every_format(
    tmp_path: Path, fmt: str
) -> None:
    record = TrialRecord.from_dict(json.loads(SURROGATE_RECORD))
    results = loads(SURROGATE_SUITE).evaluate(record)
    out = write_report(tmp_path / "report", results, fmt=fmt, records=[record] * len(results))
    text = out.read_text(encoding="utf-8")  # valid UTF-8: the file was written
    assert "\\ud800" in text or fmt == "junit"
    assert set(formats()) >= {"text", "json", "junit", "markdown", "html"}


def test_the_json_report_reads_lone_surrogates_back_as_they_were() -> None:
    record = TrialRecord.from_dict(json.loads(SURROGATE_RECORD))
    results = loads(SURROGATE_SUITE).evaluate(record)
    text = render_json(results, records=[record] * len(results))
    (row,) = read_json_report(text)
    assert row.case.name == results[0].name and "\ud800" in row.case.name
    assert row.record is not None and row.record.to_dict() == record.to_dict()


def _nonfinite_record() -> TrialRecord:
    args = {"v": math.nan, "w": math.inf, "x": -math.inf, "y": {"$float": "NaN"}, "z": 1.5}
    return TrialRecord.builder().tool("t", args, result=[math.nan]).build()


def test_record_to_dict_is_strict_json_and_loads_back() -> None:
    record = _nonfinite_record()
    data = record.to_dict()
    arguments = data["events"][0]["payload"]["arguments"]
    assert arguments == {
        "v": {"$float": "NaN"},
        "w": {"$float": "Infinity"},
        "x": {"$float": "-Infinity"},
        "y": {"$float": {"$float": "NaN"}},
        "z": 1.5,
    }
    text = json.dumps(data, allow_nan=False)  # strict JSON: no bare NaN/Infinity
    back = TrialRecord.from_dict(json.loads(text))
    values = back.events[0].payload.arguments  # type: ignore[union-attr]
    assert math.isnan(values["v"]) and values["w"] == math.inf and values["x"] == -math.inf
    assert values["y"] == {"$float": "NaN"} and values["z"] == 1.5
    assert back.to_dict() == data


def test_the_json_report_is_strict_and_reads_non_finite_floats_back() -> None:
    record = _nonfinite_record()
    result = AssertionResult(
        name="x", status="fail", score=0.0, expected=math.inf, observed={"$float": "NaN"},
        evaluator=EvaluatorInfo(details={"d": math.nan}),
    )  # fmt: skip
    case = CaseResult("c", "failed", results=[result], metadata={"m": -math.inf})
    text = render_json([case], records=[record])
    doc = _strict(text)
    assert doc["cases"][0]["results"][0]["expected"] == {"$float": "Infinity"}
    (row,) = read_json_report(text)
    back = row.case.results[0]
    assert back.expected == math.inf and back.observed == {"$float": "NaN"}
    assert math.isnan(back.evaluator.details["d"]) and row.case.metadata == {"m": -math.inf}
    assert row.record is not None and row.record.to_dict() == record.to_dict()


def _containers(inner: Any) -> Any:
    keys = st.sampled_from(["$float", "a", "NaN"]) | st.text(max_size=3)
    return st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3)


json_values: Any = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text()
    | st.sampled_from(["NaN", "Infinity", "$float"]),
    _containers,
    max_leaves=12,
)  # fmt: skip


@given(json_values)
def test_the_strict_form_is_strict_json_and_lossless(value: Any) -> None:
    text = json.dumps(strict_json(value), allow_nan=False)
    back = from_strict_json(json.loads(text))
    assert json.dumps(back, sort_keys=True) == json.dumps(value, sort_keys=True)


@pytest.mark.parametrize("suffix", ["json", "html"])
def test_the_pytest_report_is_written_with_a_lone_surrogate_in_the_record(
    pytester: pytest.Pytester, suffix: str
) -> None:
    # the session report was not written (UnicodeEncodeError at the end of the session)
    pytester.makeini("[pytest]\nagent_asserts_suites = suites/*.json\n")
    (pytester.path / "suites").mkdir()
    (pytester.path / "runs").mkdir()
    (pytester.path / "runs" / "run.json").write_text(SURROGATE_RECORD, encoding="utf-8")
    (pytester.path / "suites" / "s.json").write_text(
        '{"name": "s", "record": "../runs/run.json", "checks": [{"expect": {"value": "reply", '
        '"includes": "\\ud800"}}]}',
        encoding="utf-8",
    )
    report = pytester.path / f"report.{suffix}"
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        f"--agent-asserts-report={report}",
        "--agent-asserts-embed-records",  # the record data is in the report only when asked
        timeout=180,
    )
    result.assert_outcomes(failed=1)
    text = report.read_text(encoding="utf-8")
    assert "\\ud800" in text
    if suffix == "json":
        (row,) = read_json_report(text)
        assert row.record is not None and "\ud800" in row.record.events[0].payload.text  # type: ignore[union-attr]
