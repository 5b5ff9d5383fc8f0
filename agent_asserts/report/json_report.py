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

from collections.abc import Callable, Iterable, Sequence
from itertools import repeat
from json.encoder import INFINITY, encode_basestring
from typing import Any

from agent_asserts._reporting import JSON_SCHEMA_VERSION
from agent_asserts._values import strict_json
from agent_asserts._version import __version__
from agent_asserts.report import renders_rows
from agent_asserts.result_rows import ReportRow, pass_rate, unloaded_suite, verdict_counts
from agent_asserts.summary import mean_score

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
    """``json.dumps(value, indent=2, ensure_ascii=False)``, the same text, about 2x faster.

    With ``indent``, the standard library leaves its C encoder for a generator per container
    level; this is one recursive walk over the containers appending to a list, each scalar
    written where its container is walked (no call per value) and each key's text made once.
    A report with ``--embed-records`` of the 1,000 runs of the end-to-end job (34 MB) is
    written in 0.60–0.65 s instead of 1.43–1.51 s, about 12 % of that ``agent-asserts check``
    (docs/design/architecture.md, "Fast paths kept, and why").
    ``tests/test_report_registry.py`` checks the text equals ``json.dumps``' on arbitrary JSON
    data. Keys are converted as ``json`` converts them; a value ``json``
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
    keys: dict[str, str] = {}  # a string key's text, written once per report

    def key_text(key: Any) -> str:  # a key met for the first time (or not a string)
        text = encode(_key_text(key)) + ": "
        if type(key) is str:
            keys[key] = text
        return text

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
        elif isinstance(item, list | tuple | dict):
            mapping = isinstance(item, dict)
            if not item:
                add("{}" if mapping else "[]")
                return
            inner = pad + "  "
            between = ("{" if mapping else "[") + inner
            # one loop writes the elements of both kinds: a list's come with no key
            pairs: Iterable[tuple[Any, Any]] = (
                item.items() if isinstance(item, dict) else zip(repeat(None), item)
            )
            for key, element in pairs:
                if mapping:
                    text = keys.get(key) if type(key) is str else None
                    add(between + (text if text is not None else key_text(key)))
                else:
                    add(between)
                between = "," + inner
                kind = type(element)  # the scalars written here, without a call
                if kind is str:
                    add(encode(element))
                elif element is None:
                    add("null")
                elif element is True:
                    add("true")
                elif element is False:
                    add("false")
                elif kind is int:
                    add(int.__repr__(element))
                elif kind is float:
                    add(_float_text(element))
                else:
                    walk(element, inner)
            add(pad + ("}" if mapping else "]"))
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
