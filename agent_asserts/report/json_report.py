"""The JSON report: a stable, documented schema (``schema_version`` 1), lossless for results.

Top level: ``schema_version``, ``generator``, ``title``, ``summary`` (counts by verdict,
``pass_rate``, mean ``score``), ``records`` (each ``{"source", "data"}`` where ``data`` is the
canonical record dict or null) and ``cases`` (each ``CaseResult.to_dict()`` plus ``record``,
the index of its entry in ``records`` or null). Records shared by several cases appear once.
:func:`read_json_report` turns the document back into report rows. See docs/reports.md.

>>> import json
>>> from agent_asserts.results import CaseResult
>>> doc = json.loads(render_json([CaseResult("a", "passed")], sources=["r.json"]))
>>> doc["schema_version"], doc["summary"]["passed"], doc["cases"][0]["record"]
(1, 1, 0)
>>> read_json_report(json.dumps(doc))[0].source
'r.json'
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agent_asserts._version import __version__
from agent_asserts.report._model import (
    Cases,
    ReportRow,
    case_from_dict,
    pass_rate,
    rows_of,
    verdict_counts,
)
from agent_asserts.results import mean_score

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord

SCHEMA_VERSION = 1


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
    results = [r for row in rows for r in row.case.results]
    counts = verdict_counts(row.case for row in rows)
    return {
        "schema_version": SCHEMA_VERSION,
        "generator": f"agent_asserts {__version__}",
        "title": title,
        "summary": {
            "cases": len(rows),
            **{v.value: n for v, n in counts.items()},
            "pass_rate": pass_rate([row.case for row in rows]),
            "score": mean_score(results),
        },
        "records": records,
        "cases": cases,
    }


def render_json(
    cases: Cases,
    *,
    records: Sequence[TrialRecord | None] | None = None,
    sources: Sequence[str | None] | None = None,
    title: str | None = None,
) -> str:
    """Render the JSON report (2-space indented, UTF-8 text, trailing newline)."""
    rows = rows_of(cases, records=records, sources=sources)
    return json.dumps(report_dict(rows, title=title), indent=2, ensure_ascii=False) + "\n"


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
    from agent_asserts.record import TrialRecord

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


__all__ = ["SCHEMA_VERSION", "read_json_report", "render_json", "report_dict"]
