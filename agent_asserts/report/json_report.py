"""The JSON report: a stable, documented schema (``schema_version`` 1), lossless for results.

Top level: ``schema_version``, ``generator``, ``title``, ``summary`` (counts by verdict,
``pass_rate``, mean ``score``; ``suites_not_loaded`` when suite files could not be loaded, whose
entries in ``cases`` are not counted as cases), ``records`` (each ``{"source", "data"}`` where
``data`` is the canonical record dict or null) and ``cases`` (each ``CaseResult.to_dict()``
plus ``record``, the index of its entry in ``records`` or null). Records shared by several
cases appear once. The text is strict JSON whatever the data holds: a non-finite float is written
``{"$float": "NaN"}`` (``"Infinity"``, ``"-Infinity"``) and a lone surrogate as its ``\\uXXXX``
escape; both read back as they were (docs/serialization.md).
Cases and records are written by their ``to_dict()`` (what
:data:`agent_asserts.serialization.converter` unstructures them with, without importing it),
and :func:`agent_asserts.serialization.read_json_report` turns the document back into report
rows. See docs/reports.md.

>>> import json
>>> from agent_asserts.results import CaseResult
>>> doc = json.loads(render_json([CaseResult("a", "passed")], sources=["r.json"]))
>>> doc["schema_version"], doc["summary"]["passed"], doc["cases"][0]["record"]
(1, 1, 0)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from agent_asserts._reporting import JSON_SCHEMA_VERSION
from agent_asserts._values import strict_json
from agent_asserts._version import __version__
from agent_asserts.report import renders_rows
from agent_asserts.results import ReportRow, mean_score, pass_rate, unloaded_suite, verdict_counts

SCHEMA_VERSION = JSON_SCHEMA_VERSION


def report_dict(rows: Sequence[ReportRow], *, title: str | None = None) -> dict[str, Any]:
    """The report as JSON data (see the module docstring for the schema)."""
    records: list[dict[str, Any]] = []
    index: dict[tuple[int, str | None], int] = {}
    cases: list[dict[str, Any]] = []
    for row in rows:
        position: int | None = None
        if row.record is not None or row.source is not None:
            key = (id(row.record) if row.record is not None else 0, row.source)
            if key not in index:
                index[key] = len(records)
                data = row.record.to_dict() if row.record is not None else None
                records.append({"source": row.source, "data": data})
            position = index[key]
        cases.append({**row.case.to_dict(), "record": position})
    _strict_details(cases)
    results = [r for row in rows for r in row.case.results]
    counted = [row.case for row in rows if not unloaded_suite(row.case)]
    counts = verdict_counts(counted)
    summary = {
        "cases": len(counted),
        **{v.value: n for v, n in counts.items()},
        "pass_rate": pass_rate(counted),
        "score": mean_score(results),
    }
    if len(counted) != len(rows):  # suites that could not be loaded: not cases
        summary["suites_not_loaded"] = len(rows) - len(counted)
    return {
        "schema_version": SCHEMA_VERSION,
        "generator": f"agent_asserts {__version__}",
        "title": title,
        "summary": summary,
        "records": records,
        "cases": cases,
    }


def _strict_details(cases: list[dict[str, Any]]) -> None:
    """Each result's ``evaluator.details`` (the one raw mapping: every other value went through
    ``to_jsonable``) in its strict-JSON form, in place. All the details are looked at in one
    :func:`~agent_asserts._values.strict_json` call, which hands back the same list when
    nothing needs changing (the common case); else each is converted on its own."""
    evaluators = [result["evaluator"] for case in cases for result in case["results"]]
    details = [evaluator["details"] for evaluator in evaluators]
    if strict_json(details) is details:
        return
    for evaluator in evaluators:
        evaluator["details"] = strict_json(evaluator["details"])


@renders_rows
def render_json(rows: Sequence[ReportRow], title: str | None) -> str:
    """Render the JSON report (2-space indented, UTF-8 text, trailing newline)."""
    return indented_json(report_dict(rows, title=title)) + "\n"


def indented_json(value: Any) -> str:
    """The report's text: ``json.dumps(value, indent=2, ensure_ascii=False)``.

    One name for the format every JSON report is written in (2-space indents, UTF-8 kept as
    is); a value ``json`` cannot write raises ``json``'s ``TypeError``.

    >>> print(indented_json({"a": [1, 2.5, None], "b": {}, "c": "é"}))
    {
      "a": [
        1,
        2.5,
        null
      ],
      "b": {},
      "c": "é"
    }
    """
    return json.dumps(value, indent=2, ensure_ascii=False)


__all__ = ["SCHEMA_VERSION", "indented_json", "render_json", "report_dict"]
