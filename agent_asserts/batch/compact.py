"""Compact results for the trip back from a worker: plain tuples instead of result objects.

A pickled :class:`~agent_asserts.results.CaseResult` carries a class reference, an evaluator
object and a copy of every repeated text for each of its results. :func:`pack_cases` keeps only
the values, with equal texts (check names, descriptions, evaluator types) shared through one
table per chunk, so that pickle writes each of them once; :func:`unpack_cases` rebuilds equal
results without re-running the validation they passed in the worker.

>>> from agent_asserts.results import AssertionResult, CaseResult
>>> ok = AssertionResult(name="used_no_tools", status="pass", score=1.0, message="no calls")
>>> case = CaseResult(name="demo", verdict="passed", results=(ok,))
>>> unpack_cases(pack_cases((case,))) == (case,)
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import attrs

from agent_asserts._fill import filler
from agent_asserts.context import plain_info
from agent_asserts.results import AssertionResult, CaseResult, EvaluatorInfo, LogEntry

PackedCase = tuple[Any, ...]

_fill_case = filler(CaseResult)


def _result_unpacker() -> Callable[[tuple[Any, ...]], AssertionResult]:
    """``unpack(values)``: the :class:`AssertionResult` of one packed tuple, its
    :class:`EvaluatorInfo` built inline (one call per result; no slicing, no converters), or
    the shared one of its type (``context.plain_info``) for a result that reports no details,
    as in the worker."""
    fields = [f.name for f in attrs.fields(AssertionResult)]
    info_fields = [f.name for f in attrs.fields(EvaluatorInfo)]
    assert fields[12] == "evaluator" and info_fields == ["type", "version", "details"]
    scope: dict[str, Any] = {
        "new": object.__new__, "R": AssertionResult, "I": EvaluatorInfo, "plain": plain_info
    }  # fmt: skip
    names = [f"v{i}" for i in range(len(fields))]
    lines = [
        "def unpack(values):",
        f"    ({', '.join(names)},) = values",
        "    kind, version, details = v12",
        "    shared = plain(kind)",
        "    if details is None and shared.version == version:",
        "        v12 = shared",  # the one info of its type, as evaluate_one gave it
        "    else:",
        "        info = new(I)",
        "        set_i0(info, kind)",
        "        set_i1(info, version)",
        "        set_i2(info, {} if details is None else details)",
        "        v12 = info",
        "    result = new(R)",
    ]
    for i, name in enumerate(info_fields):
        scope[f"set_i{i}"] = EvaluatorInfo.__dict__[name].__set__
    for i, name in enumerate(fields):
        scope[f"set{i}"] = AssertionResult.__dict__[name].__set__
        lines.append(f"    set{i}(result, v{i})")
    lines.append("    return result")
    exec("\n".join(lines), scope)
    return scope["unpack"]  # type: ignore[no-any-return]


_unpack_result = _result_unpacker()


def _pack_result(r: AssertionResult, shared: dict[Any, Any]) -> tuple[Any, ...]:
    info = r.evaluator
    details = None if info is plain_info(info.type) else dict(info.details)  # None: shared
    return (
        shared.setdefault(r.name, r.name), r.status, r.score, r.severity, r.threshold, r.label,
        r.message, r.expected, r.observed, r.mismatches, r.closest, r.evidence,
        (shared.setdefault(info.type, info.type), shared.setdefault(info.version, info.version),
         details),
        shared.setdefault(r.description, r.description), r.score_decides,
    )  # fmt: skip


def pack_cases(cases: Iterable[CaseResult], shared: dict[Any, Any] | None = None) -> PackedCase:
    """The cases as plain tuples (what a worker sends back); ``shared`` is the text table of
    the chunk (equal texts become one object, written once by pickle)."""
    table: dict[Any, Any] = {} if shared is None else shared
    return tuple(
        (
            table.setdefault(c.name, c.name),
            c.verdict,
            tuple(_pack_result(r, table) for r in c.results),
            c.error,
            c.skip_reason,
            tuple((e.message, dict(e.context)) for e in c.logs) or None,
            dict(c.metadata) or None,
        )
        for c in cases
    )


def unpack_cases(packed: PackedCase) -> tuple[CaseResult, ...]:
    """The cases :func:`pack_cases` packed, rebuilt equal."""
    return tuple(
        _fill_case((
            name,
            verdict,
            tuple(map(_unpack_result, results)),
            error,
            skip_reason,
            tuple(LogEntry(m, c) for m, c in logs) if logs else (),
            metadata or {},
        ))
        for name, verdict, results, error, skip_reason, logs, metadata in packed
    )  # fmt: skip


__all__ = ["PackedCase", "pack_cases", "unpack_cases"]
