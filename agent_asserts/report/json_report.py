"""The JSON report: a stable, documented schema (``schema_version`` 1), lossless for results.

Top level: ``schema_version``, ``generator``, ``title``, ``summary`` (counts by verdict,
``pass_rate``, mean ``score``), ``records`` (each ``{"source", "data"}`` where ``data`` is the
canonical record dict or null) and ``cases`` (each ``CaseResult.to_dict()`` plus ``record``,
the index of its entry in ``records`` or null). Records shared by several cases appear once.
Cases and records are written by :data:`agent_asserts.serialization.converter`, which
:func:`agent_asserts.serialization.read_json_report` uses to turn the document back into report
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
from typing import TYPE_CHECKING, Any

from agent_asserts._version import __version__
from agent_asserts.report import renders_rows
from agent_asserts.result_rows import ReportRow, pass_rate, verdict_counts
from agent_asserts.serialization import JSON_SCHEMA_VERSION, converter
from agent_asserts.summary import mean_score

if TYPE_CHECKING:
    pass

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
                data = converter.unstructure(row.record) if row.record is not None else None
                records.append({"source": row.source, "data": data})
            position = index[key]
        cases.append({**converter.unstructure(row.case), "record": position})
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


@renders_rows
def render_json(rows: Sequence[ReportRow], title: str | None) -> str:
    """Render the JSON report (2-space indented, UTF-8 text, trailing newline)."""
    return json.dumps(report_dict(rows, title=title), indent=2, ensure_ascii=False) + "\n"


__all__ = ["SCHEMA_VERSION", "render_json", "report_dict"]
