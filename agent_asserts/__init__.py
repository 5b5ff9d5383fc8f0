"""agent_asserts: deterministic assertions over recorded AI-agent runs.

One trial record (state before, events, state after, derived delta), one set of checks,
results with evidence. Public names are imported lazily on first use, so
``import agent_asserts`` stays fast and imports nothing beyond the core dependencies.

>>> from agent_asserts import EvalContext, TrialRecord
>>> rec = TrialRecord.builder().user("refund A1049").tool("refunds_lookup").build(steps=2)
>>> EvalContext(rec).called_tool("refunds_lookup").result.passed
True
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from agent_asserts import _reporting
from agent_asserts._version import __version__

if TYPE_CHECKING:
    from agent_asserts._values import MISSING
    from agent_asserts.batch import BatchResult, evaluate_many
    from agent_asserts.comparison import compare
    from agent_asserts.context import EvalContext
    from agent_asserts.contract import register_matcher
    from agent_asserts.errors import AgentAssertsError, RecordWarning
    from agent_asserts.findings import ScanConfig, scan
    from agent_asserts.fluent.handles import AssertionHandle, ValueExpectation
    from agent_asserts.matching import ANY, Count, M, Mismatch, explain, matches
    from agent_asserts.mining import infer
    from agent_asserts.record import (
        BlockPayload,
        Button,
        DeclaredTool,
        DelegationPayload,
        DeltaEntry,
        Event,
        GuardrailPayload,
        MemoryPayload,
        MessagePayload,
        ModelCallPayload,
        ParseError,
        ReasoningPayload,
        RecordBuilder,
        RecordError,
        SkillPayload,
        ToolCallPayload,
        TrialRecord,
        Usage,
    )
    from agent_asserts.record.reading import iter_records
    from agent_asserts.results import (
        AssertionResult,
        CaseResult,
        RequirementFailed,
        Severity,
        Skipped,
        Status,
        Verdict,
    )
    from agent_asserts.runner import assert_passed, evaluate_contract, run_case
    from agent_asserts.selectors import on
    from agent_asserts.trials import TrialsResult, run_trials

_EXPORTS: dict[str, str] = {
    "MISSING": "agent_asserts._values",
    "AgentAssertsError": "agent_asserts.errors",
    "RecordWarning": "agent_asserts.errors",
    "EvalContext": "agent_asserts.context",
    "assert_passed": "agent_asserts.runner",
    "evaluate_many": "agent_asserts.batch",
    "BatchResult": "agent_asserts.batch",
    "evaluate_contract": "agent_asserts.runner",
    "register_matcher": "agent_asserts.contract",
    "AssertionHandle": "agent_asserts.fluent.handles",
    "ValueExpectation": "agent_asserts.fluent.handles",
    "ANY": "agent_asserts.matching",
    "M": "agent_asserts.matching",
    "Count": "agent_asserts.matching",
    "Mismatch": "agent_asserts.matching",
    "explain": "agent_asserts.matching",
    "matches": "agent_asserts.matching",
    "BlockPayload": "agent_asserts.record",
    "Button": "agent_asserts.record",
    "DeclaredTool": "agent_asserts.record",
    "DelegationPayload": "agent_asserts.record",
    "GuardrailPayload": "agent_asserts.record",
    "ModelCallPayload": "agent_asserts.record",
    "ReasoningPayload": "agent_asserts.record",
    "DeltaEntry": "agent_asserts.record",
    "Event": "agent_asserts.record",
    "MemoryPayload": "agent_asserts.record",
    "MessagePayload": "agent_asserts.record",
    "ParseError": "agent_asserts.record",
    "RecordBuilder": "agent_asserts.record",
    "RecordError": "agent_asserts.record",
    "SkillPayload": "agent_asserts.record",
    "ToolCallPayload": "agent_asserts.record",
    "TrialRecord": "agent_asserts.record",
    "Usage": "agent_asserts.record",
    "AssertionResult": "agent_asserts.results",
    "CaseResult": "agent_asserts.results",
    "RequirementFailed": "agent_asserts.results",
    "Severity": "agent_asserts.results",
    "Skipped": "agent_asserts.results",
    "Status": "agent_asserts.results",
    "Verdict": "agent_asserts.results",
    "run_case": "agent_asserts.runner",
    "on": "agent_asserts.selectors",
    "iter_records": "agent_asserts.record.reading",
    "run_trials": "agent_asserts.trials",
    "TrialsResult": "agent_asserts.trials",
    "scan": "agent_asserts.findings",
    "ScanConfig": "agent_asserts.findings",
    "infer": "agent_asserts.mining",
    "compare": "agent_asserts.comparison",
}


def _report_layer() -> _reporting.ReportLayer:
    """The report renderers for the results and batches below them (see ``_reporting``)."""
    from agent_asserts.report import render, write_report
    from agent_asserts.report.json_report import report_dict

    return _reporting.ReportLayer(render, write_report, _html_fragment, report_dict)


def _html_fragment(cases: Any, **options: Any) -> str:
    """``render_html_fragment(cases, **options)``: the HTML report (the largest renderer, with
    its assets) is imported when a notebook first shows a result, not by every report."""
    from agent_asserts.report.html_report import render_html_fragment

    return render_html_fragment(cases, **options)


_reporting.install(_report_layer)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'agent_asserts' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


__all__ = [
    "ANY",
    "MISSING",
    "AgentAssertsError",
    "AssertionHandle",
    "AssertionResult",
    "BatchResult",
    "BlockPayload",
    "Button",
    "CaseResult",
    "Count",
    "DeclaredTool",
    "DelegationPayload",
    "DeltaEntry",
    "EvalContext",
    "Event",
    "GuardrailPayload",
    "M",
    "MemoryPayload",
    "MessagePayload",
    "Mismatch",
    "ModelCallPayload",
    "ParseError",
    "ReasoningPayload",
    "RecordBuilder",
    "RecordError",
    "RecordWarning",
    "RequirementFailed",
    "ScanConfig",
    "Severity",
    "SkillPayload",
    "Skipped",
    "Status",
    "ToolCallPayload",
    "TrialRecord",
    "TrialsResult",
    "Usage",
    "ValueExpectation",
    "Verdict",
    "__version__",
    "assert_passed",
    "compare",
    "evaluate_contract",
    "evaluate_many",
    "explain",
    "infer",
    "iter_records",
    "matches",
    "on",
    "register_matcher",
    "run_case",
    "run_trials",
    "scan",
]
