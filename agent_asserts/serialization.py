"""JSON round-trips: the cattrs :data:`converter`, :func:`case_from_dict`, :func:`read_json_report`.

:data:`converter` is a preconfigured :class:`cattrs.Converter` that unstructures the public
attrs types to JSON-ready data and structures them back: ``TrialRecord``, ``Event``, every
payload type, ``Usage``, ``DeclaredTool``, every check class, ``AssertionResult``,
``CaseResult``, ``EvaluatorInfo``, ``LogEntry`` and ``Mismatch``. Records and events are
structured through the record decoder, so bad data raises :class:`~agent_asserts.RecordError`
naming the JSON path of each problem; checks through :mod:`agent_asserts.checks.data` (their
suite-file form; :class:`CheckDataError` for bad data, :class:`UnserializableCheck` for a check
holding a callable). See docs/serialization.md.

>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.builder().user("hi").agent("hello").build()
>>> converter.structure(json.loads(json.dumps(converter.unstructure(rec))), TrialRecord) == rec
True

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
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Final

import attrs
import cattrs

from agent_asserts._reporting import JSON_SCHEMA_VERSION
from agent_asserts._values import from_strict_json, to_jsonable
from agent_asserts.checks import Check
from agent_asserts.checks.data import (
    CheckDataError,
    UnserializableCheck,
    check_from_data,
    check_to_data,
)
from agent_asserts.matching import Mismatch
from agent_asserts.record import (
    BlockPayload,
    Button,
    DeclaredTool,
    DelegationPayload,
    Event,
    GuardrailPayload,
    MemoryPayload,
    MessagePayload,
    ModelCallPayload,
    Problem,
    ReasoningPayload,
    RecordError,
    SkillPayload,
    ToolCallPayload,
    TrialRecord,
    Usage,
)
from agent_asserts.record.declared_tools import decode_tools
from agent_asserts.record.decoding import decode_event, decode_payload, decode_usage
from agent_asserts.record.event import TurnTracker
from agent_asserts.record.validators import Problems
from agent_asserts.results import AssertionResult, CaseResult, EvaluatorInfo, LogEntry, ReportRow


def case_from_dict(data: Mapping[str, Any]) -> CaseResult:
    """Rebuild a :class:`CaseResult` from its ``to_dict()`` form (as in a JSON report): the
    same as ``converter.structure(data, CaseResult)``.

    Values that JSON could not hold come back as their JSON rendering; mismatches come back
    as :class:`~agent_asserts.matching.Mismatch` objects, so the summary reads the same.

    >>> from agent_asserts.results import CaseResult
    >>> case_from_dict(CaseResult("a", "skipped", skip_reason="no sandbox").to_dict()).skip_reason
    'no sandbox'
    """
    return converter.structure(data, CaseResult)


def _log_to_dict(entry: LogEntry) -> dict[str, Any]:
    return {"message": entry.message, "context": to_jsonable(entry.context)}


def _log_from_dict(data: Mapping[str, Any], _cls: type[Any]) -> LogEntry:
    return LogEntry(data["message"], dict(data.get("context") or {}))


def _mismatch_from_dict(data: Any, _cls: type[Any]) -> Any:
    if isinstance(data, Mapping) and "path" in data:
        return Mismatch(
            data["path"], data.get("expected"), data.get("actual"), data.get("reason", "")
        )
    return data


def _result_structurer(conv: cattrs.Converter) -> Callable[[Any, type[Any]], AssertionResult]:
    def structure(data: Mapping[str, Any], _cls: type[Any]) -> AssertionResult:
        fields: dict[str, Any] = {
            key: data[key]
            for key in ("name", "status", "score", "severity", "threshold", "label", "message",
                        "expected", "observed", "closest", "evidence", "description")
            if key in data
        }  # fmt: skip
        fields["mismatches"] = [conv.structure(m, Mismatch) for m in data.get("mismatches", ())]
        evaluator = data.get("evaluator")
        info = conv.structure(evaluator, EvaluatorInfo) if evaluator else EvaluatorInfo()
        fields["evaluator"] = info
        # A judge's own `passed` may decide the status against the score; reports written
        # before `score_decides` was stored say so through the judge's recorded verdict.
        judge_passed = info.details.get("judge_passed")
        fields["score_decides"] = bool(data.get("score_decides", judge_passed is None))
        return AssertionResult(**fields)

    return structure


def _case_structurer(conv: cattrs.Converter) -> Callable[[Any, type[Any]], CaseResult]:
    def structure(data: Mapping[str, Any], _cls: type[Any]) -> CaseResult:
        data = from_strict_json(data)
        return CaseResult(
            name=data["name"],
            verdict=data["verdict"],
            results=[conv.structure(r, AssertionResult) for r in data.get("results", ())],
            error=data.get("error"),
            skip_reason=data.get("skip_reason"),
            logs=[conv.structure(e, LogEntry) for e in data.get("logs", ())],
            metadata=dict(data.get("metadata") or {}),
        )

    return structure


_PAYLOAD_KINDS: Final[dict[type[Any], str]] = {
    MessagePayload: "message",
    ToolCallPayload: "tool_call",
    MemoryPayload: "memory",
    SkillPayload: "skill",
    BlockPayload: "ordered_block",
    DelegationPayload: "delegation",
    ModelCallPayload: "model_call",
    ReasoningPayload: "reasoning",
    GuardrailPayload: "guardrail",
}
"""Each typed payload class and the event kind whose decoder builds it."""


def _decoded(value: Any, problems: Problems) -> Any:
    """``value`` when decoding found no problem, else a :class:`RecordError` with them all."""
    if problems or value is None:
        raise RecordError([Problem(path, message) for path, message in problems])
    return value


def _structure_event(data: Any, _cls: type[Any]) -> Event:
    problems: Problems = []
    event = _decoded(decode_event(data, 0, problems, TurnTracker(), {}), problems)
    # Outside a record an event has no turns to derive: an absent turn stays absent.
    if "turn" not in data:
        event = attrs.evolve(event, turn=None)
    return event  # type: ignore[no-any-return]


def _payload_structurer(kind: str) -> Callable[[Any, type[Any]], Any]:
    def structure(data: Any, _cls: type[Any]) -> Any:
        problems: Problems = []
        if not isinstance(data, Mapping):
            problems.append(("$", f"must be an object (got {type(data).__name__})"))
            return _decoded(None, problems)
        return _decoded(decode_payload(kind, data, "$", problems), problems)

    return structure


def _structure_with(
    decode: Callable[[Any, str, Problems], Any],
) -> Callable[[Any, type[Any]], Any]:
    def structure(data: Any, _cls: type[Any]) -> Any:
        problems: Problems = []
        return _decoded(decode(data, "$", problems), problems)

    return structure


def _structure_tool(data: Any, _cls: type[Any]) -> DeclaredTool:
    problems: Problems = []
    tools = decode_tools([data], problems, "$")
    return _decoded(tools[0] if tools else None, problems)  # type: ignore[no-any-return]


def _build_converter() -> cattrs.Converter:
    conv = cattrs.Converter()
    conv.register_unstructure_hook(TrialRecord, TrialRecord.to_dict)
    conv.register_structure_hook(TrialRecord, lambda data, _cls: TrialRecord.from_dict(data))
    conv.register_unstructure_hook(Event, Event.to_dict)
    conv.register_structure_hook(Event, _structure_event)
    for cls, kind in _PAYLOAD_KINDS.items():
        conv.register_unstructure_hook(cls, cls.to_dict)
        conv.register_structure_hook(cls, _payload_structurer(kind))
    conv.register_unstructure_hook(Button, Button.to_dict)
    conv.register_unstructure_hook(Usage, Usage.to_dict)
    conv.register_structure_hook(Usage, _structure_with(decode_usage))
    conv.register_unstructure_hook(DeclaredTool, DeclaredTool.to_dict)
    conv.register_structure_hook(DeclaredTool, _structure_tool)
    conv.register_unstructure_hook(AssertionResult, AssertionResult.to_dict)
    conv.register_structure_hook(AssertionResult, _result_structurer(conv))
    conv.register_unstructure_hook(CaseResult, CaseResult.to_dict)
    conv.register_structure_hook(CaseResult, _case_structurer(conv))
    conv.register_unstructure_hook(EvaluatorInfo, EvaluatorInfo.to_dict)
    conv.register_structure_hook(EvaluatorInfo, lambda data, _cls: EvaluatorInfo(**data))
    conv.register_unstructure_hook(LogEntry, _log_to_dict)
    conv.register_structure_hook(LogEntry, _log_from_dict)
    conv.register_unstructure_hook(Mismatch, to_jsonable)
    conv.register_structure_hook(Mismatch, _mismatch_from_dict)
    conv.register_unstructure_hook_func(_is_check, check_to_data)
    conv.register_structure_hook_func(_is_check, check_from_data)
    return conv


def _is_check(cls: Any) -> bool:
    return isinstance(cls, type) and issubclass(cls, Check)


converter: Final[cattrs.Converter] = _build_converter()
"""The preconfigured converter: ``converter.unstructure(x)`` is JSON-ready, and
``converter.structure(data, type(x)) == x`` for the public record and result types.

>>> from agent_asserts.results import CaseResult
>>> converter.structure(converter.unstructure(CaseResult("c", "passed")), CaseResult).verdict
<Verdict.PASSED: 'passed'>
"""


def read_json_report(source: str | os.PathLike[str]) -> tuple[ReportRow, ...]:
    """The rows of a JSON report given as text or as a path to the file.

    Raises:
        ValueError: The document is not a JSON report of a known ``schema_version``.
    """
    text = source if isinstance(source, str) and source.lstrip().startswith("{") else None
    if text is None:
        text = Path(source).read_text(encoding="utf-8")
    doc = json.loads(text)
    if not isinstance(doc, dict) or doc.get("schema_version") != JSON_SCHEMA_VERSION:
        version = JSON_SCHEMA_VERSION
        raise ValueError(f"not an agent_asserts JSON report of schema_version {version}")
    built: list[tuple[TrialRecord | None, str | None]] = []
    for entry in doc.get("records", ()):
        data = entry.get("data")
        record = None if data is None else converter.structure(data, TrialRecord)
        built.append((record, entry.get("source")))
    rows = []
    for case in doc.get("cases", ()):
        position = case.get("record")
        record, src = built[position] if position is not None else (None, None)
        rows.append(ReportRow(converter.structure(case, CaseResult), record, src))
    return tuple(rows)


__all__ = [
    "CheckDataError",
    "UnserializableCheck",
    "case_from_dict",
    "converter",
    "read_json_report",
]
