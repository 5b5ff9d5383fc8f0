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

from collections.abc import Iterable
from typing import Any

from agent_asserts._fill import filler
from agent_asserts.results import AssertionResult, CaseResult, EvaluatorInfo, LogEntry

PackedCase = tuple[Any, ...]

_fill_result = filler(AssertionResult)
_fill_info = filler(EvaluatorInfo)


def _pack_result(r: AssertionResult, shared: dict[Any, Any]) -> tuple[Any, ...]:
    info = r.evaluator
    details = dict(info.details) if info.details else None
    return (
        shared.setdefault(r.name, r.name), r.status, r.score, r.severity, r.threshold, r.label,
        r.message, r.expected, r.observed, r.mismatches, r.closest, r.evidence,
        (shared.setdefault(info.type, info.type), shared.setdefault(info.version, info.version),
         details),
        shared.setdefault(r.description, r.description), r.score_decides,
    )  # fmt: skip


def _unpack_result(values: tuple[Any, ...]) -> AssertionResult:
    kind, version, details = values[12]
    info = _fill_info((kind, version, details if details is not None else {}))
    return _fill_result((*values[:12], info, *values[13:]))


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
        CaseResult(
            name,
            verdict,
            tuple(_unpack_result(r) for r in results),
            error,
            skip_reason,
            tuple(LogEntry(m, c) for m, c in logs or ()),
            metadata or {},
        )
        for name, verdict, results, error, skip_reason, logs, metadata in packed
    )


__all__ = ["PackedCase", "pack_cases", "unpack_cases"]
