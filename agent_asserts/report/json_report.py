"""The JSON report: a stable, documented schema (``schema_version`` 1), lossless for results.

Top level: ``schema_version``, ``generator``, ``title``, ``summary`` (counts by verdict,
``pass_rate``, mean ``score``; ``suites_not_loaded`` when suite files could not be loaded, whose
entries in ``cases`` are not counted as cases), ``records`` (each ``{"source", "data"}`` where
``data`` is the canonical record dict or null) and ``cases`` (each ``CaseResult.to_dict()``
plus ``record``, the index of its entry in ``records`` or null). Records shared by several
cases appear once. The text is strict JSON whatever the data holds: a non-finite float is written
``{"$float": "NaN"}`` (``"Infinity"``, ``"-Infinity"``) and a lone surrogate as its ``\\uXXXX``
escape; both read back as they were (docs/serialization.md).
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

from collections.abc import Callable, Sequence
from json.encoder import INFINITY, encode_basestring
from typing import TYPE_CHECKING, Any

from agent_asserts._values import strict_json
from agent_asserts._version import __version__
from agent_asserts.report import renders_rows
from agent_asserts.result_rows import ReportRow, pass_rate, unloaded_suite, verdict_counts
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
        case = converter.unstructure(row.case)
        for result in case["results"]:  # the one raw mapping (values pass through to_jsonable)
            result["evaluator"]["details"] = strict_json(result["evaluator"]["details"])
        cases.append({**case, "record": position})
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


@renders_rows
def render_json(rows: Sequence[ReportRow], title: str | None) -> str:
    """Render the JSON report (2-space indented, UTF-8 text, trailing newline)."""
    return indented_json(report_dict(rows, title=title)) + "\n"


def indented_json(value: Any) -> str:
    """``json.dumps(value, indent=2, ensure_ascii=False)``, the same text, about 3x faster.

    With ``indent``, the standard library leaves its C encoder for a generator per container
    level; this is one recursive walk appending to a list. It is here because a report embeds
    every record: for 1,000 runs of the end-to-end job the report is 32 MB, which
    ``json.dumps`` takes 1.41 s to write and this 0.47 s; ``agent-asserts check --output
    report.json`` on those runs went from 4.50 to 3.96 s CPU, **12 %** of the job
    (docs/design/architecture.md, "Fast paths kept, and why").
    ``tests/test_report_registry.py`` checks the text equals ``json.dumps``' on arbitrary
    JSON data. Keys are converted as ``json`` converts them; a value ``json``
    cannot write raises the same ``TypeError``.

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
    out: list[str] = []
    add = out.append
    encode: Callable[[str], str] = encode_basestring

    def walk(item: Any, pad: str) -> None:
        if isinstance(item, str):
            add(encode(item))
        elif item is None:
            add("null")
        elif item is True:
            add("true")
        elif item is False:
            add("false")
        elif isinstance(item, int):
            add(int.__repr__(item))
        elif isinstance(item, float):
            add(_float_text(item))
        elif isinstance(item, list | tuple):
            if not item:
                add("[]")
                return
            inner = pad + "  "
            add("[" + inner)
            for index, element in enumerate(item):
                if index:
                    add("," + inner)
                walk(element, inner)
            add(pad + "]")
        elif isinstance(item, dict):
            if not item:
                add("{}")
                return
            inner = pad + "  "
            add("{" + inner)
            for index, (key, element) in enumerate(item.items()):
                if index:
                    add("," + inner)
                add(encode(_key_text(key)) + ": ")
                walk(element, inner)
            add(pad + "}")
        else:
            raise TypeError(f"Object of type {item.__class__.__name__} is not JSON serializable")

    walk(value, "\n")
    return "".join(out)


def _float_text(value: float) -> str:
    if value != value:
        return "NaN"
    if value == INFINITY:
        return "Infinity"
    if value == -INFINITY:
        return "-Infinity"
    return float.__repr__(value)


def _key_text(key: Any) -> str:
    """A mapping key as ``json`` writes it (it refuses other keys with this message)."""
    if isinstance(key, str):
        return key
    if isinstance(key, float):
        return _float_text(key)
    if key is True:
        return "true"
    if key is False:
        return "false"
    if key is None:
        return "null"
    if isinstance(key, int):
        return int.__repr__(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {key.__class__.__name__}")


__all__ = ["SCHEMA_VERSION", "indented_json", "render_json", "report_dict"]
