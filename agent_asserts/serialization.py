"""Reading results back from their JSON form: :func:`case_from_dict`, :func:`read_json_report`.

The JSON report (:mod:`agent_asserts.report.json_report`) writes each case as
``CaseResult.to_dict()``; this module turns such documents back into result objects, so a
report written by one run can be re-rendered (JUnit, HTML) or compared by another.

>>> import json
>>> from agent_asserts.report.json_report import render_json
>>> from agent_asserts.results import CaseResult
>>> read_json_report(render_json([CaseResult("a", "passed")], sources=["r.json"]))[0].source
'r.json'
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agent_asserts.matching import Mismatch
from agent_asserts.record import TrialRecord
from agent_asserts.report._model import ReportRow
from agent_asserts.report.json_report import SCHEMA_VERSION
from agent_asserts.results import AssertionResult, CaseResult, EvaluatorInfo, LogEntry


def case_from_dict(data: Mapping[str, Any]) -> CaseResult:
    """Rebuild a :class:`CaseResult` from its ``to_dict()`` form (as in a JSON report).

    Values that JSON could not hold come back as their JSON rendering; mismatches come back
    as :class:`~agent_asserts.matching.Mismatch` objects, so the summary reads the same.

    >>> from agent_asserts.results import CaseResult
    >>> case_from_dict(CaseResult("a", "skipped", skip_reason="no sandbox").to_dict()).skip_reason
    'no sandbox'
    """
    fields: dict[str, Any] = {
        "name": data["name"],
        "verdict": data["verdict"],
        "results": [_result_from_dict(r) for r in data.get("results", ())],
        "error": data.get("error"),
        "skip_reason": data.get("skip_reason"),
        "logs": [
            LogEntry(e["message"], dict(e.get("context") or {})) for e in data.get("logs", ())
        ],
        "metadata": dict(data.get("metadata") or {}),
    }
    return CaseResult(**fields)


def _result_from_dict(data: Mapping[str, Any]) -> AssertionResult:
    evaluator = data.get("evaluator") or {}
    fields: dict[str, Any] = {
        key: data[key]
        for key in ("name", "status", "score", "severity", "threshold", "label", "message",
                    "expected", "observed", "closest", "evidence", "description")
        if key in data
    }  # fmt: skip
    fields["mismatches"] = [
        Mismatch(m["path"], m.get("expected"), m.get("actual"), m.get("reason", ""))
        if isinstance(m, Mapping) and "path" in m
        else m
        for m in data.get("mismatches", ())
    ]
    fields["evaluator"] = EvaluatorInfo(**evaluator) if evaluator else EvaluatorInfo()
    # A judge's own `passed` may decide the status against the score; reports written before
    # `score_decides` was stored say so through the judge's recorded verdict.
    judge_passed = fields["evaluator"].details.get("judge_passed")
    fields["score_decides"] = bool(data.get("score_decides", judge_passed is None))
    return AssertionResult(**fields)


def read_json_report(source: str | os.PathLike[str]) -> tuple[ReportRow, ...]:
    """The rows of a JSON report given as text or as a path to the file.

    Raises:
        ValueError: The document is not a JSON report of a known ``schema_version``.
    """
    text = source if isinstance(source, str) and source.lstrip().startswith("{") else None
    if text is None:
        text = Path(source).read_text(encoding="utf-8")
    doc = json.loads(text)
    if not isinstance(doc, dict) or doc.get("schema_version") != SCHEMA_VERSION:
        raise ValueError(f"not an agent_asserts JSON report of schema_version {SCHEMA_VERSION}")
    built: list[tuple[TrialRecord | None, str | None]] = []
    for entry in doc.get("records", ()):
        data = entry.get("data")
        built.append((None if data is None else TrialRecord.from_dict(data), entry.get("source")))
    rows = []
    for case in doc.get("cases", ()):
        position = case.get("record")
        record, src = built[position] if position is not None else (None, None)
        rows.append(ReportRow(case_from_dict(case), record, src))
    return tuple(rows)


__all__ = ["case_from_dict", "read_json_report"]
