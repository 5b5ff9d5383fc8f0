"""The promised public surface (the façade, agent_asserts/__init__.py) and import hygiene."""

from __future__ import annotations

import subprocess
import sys

import agent_asserts

PUBLIC = {
    # record
    "TrialRecord", "RecordBuilder", "Event", "RecordError", "Usage", "DeltaEntry", "ParseError",
    "Button", "MessagePayload", "ToolCallPayload", "MemoryPayload", "SkillPayload",
    "BlockPayload", "DelegationPayload",
    # the record, grown (docs/record.md)
    "ModelCallPayload", "ReasoningPayload", "GuardrailPayload", "DeclaredTool",
    # checks
    "EvalContext", "AssertionHandle", "ValueExpectation", "on", "M", "Count", "ANY", "MISSING",
    "matches", "explain", "Mismatch",
    # results
    "Status", "Severity", "Verdict", "AssertionResult", "CaseResult", "run_case",
    "RequirementFailed", "Skipped",
    # later issues
    "run_trials", "TrialsResult", "evaluate_contract", "register_matcher",
    "scan", "ScanConfig", "infer", "compare",
    "evaluate_many", "BatchResult", "assert_passed",
    # turn 2
    "AgentAssertsError", "iter_records", "RecordWarning",
    "__version__",
}  # fmt: skip


def test_all_is_exactly_the_public_names() -> None:
    assert set(agent_asserts.__all__) == PUBLIC
    assert len(agent_asserts.__all__) == len(set(agent_asserts.__all__))


def test_every_public_name_resolves() -> None:
    for name in agent_asserts.__all__:
        assert getattr(agent_asserts, name) is not None, name


def test_unknown_attribute_is_an_attribute_error() -> None:
    import pytest

    with pytest.raises(AttributeError, match="has no attribute 'nope'"):
        agent_asserts.nope  # noqa: B018


# attrs ships `attr` and `attrs`; Levenshtein needs rapidfuzz and its compiled Cython runtime.
CORE = {
    "attr",
    "attrs",
    "cattrs",
    "Levenshtein",
    "rapidfuzz",
    "cython_runtime",
    "typing_extensions",
}


def test_importing_the_package_imports_only_the_core_dependencies() -> None:
    code = (
        "import sys, agent_asserts\n"
        "from agent_asserts import EvalContext, TrialRecord, M, on, run_case\n"
        "print('\\n'.join(sorted({m.split('.')[0] for m in sys.modules})))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout.split()
    stdlib = set(sys.stdlib_module_names) | {"agent_asserts", "__main__", "_distutils_hack"}
    foreign = {m for m in out if m not in stdlib and not m.startswith("_")}
    assert foreign <= CORE, foreign - CORE
    for forbidden in ("yaml", "pytest", "jsonschema", "_pytest"):
        assert forbidden not in out


def test_eval_context_imports_the_contract_judges_and_rarely_used_modules_on_first_use() -> None:
    """The cold start of a test file, ``from agent_asserts import EvalContext, TrialRecord``
    and a first check, imports neither the contract package nor the judges (``ctx.contract``
    and ``ctx.judge`` take their check classes from the check registry, whose first read
    imports them), nor the suite loaders, reports, batches or the runner, nor ``difflib`` and
    ``decimal`` (imported by the first "did you mean" and the first ``M.loose`` number)."""
    code = (
        "import sys\n"
        "from agent_asserts import EvalContext, TrialRecord\n"
        "ctx = EvalContext(TrialRecord.builder().user('hi').tool('lookup').build())\n"
        "assert ctx.called_tool('lookup').result.passed\n"
        "print(' '.join(sorted(sys.modules)))\n"
        "ctx.judge('polite')\n"
        "ctx.contract({'bind': {'n': {'from': 'trace', 'extract': 'count'}},\n"
        "              'require': {'op': 'equals', 'left': 'n', 'right': 1}})\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    first, later = (
        set(line.split())
        for line in subprocess.run(
            [sys.executable, "-c", code], check=True, capture_output=True, text=True
        ).stdout.splitlines()
    )
    deferred = {
        "agent_asserts.contract",
        "agent_asserts.judges",
        "agent_asserts.checks.contract",
        "agent_asserts.checks.semantic",
    }
    never = {
        "agent_asserts.loaders",
        "agent_asserts.report",
        "agent_asserts.batch",
        "agent_asserts.runner",
        "difflib",
        "decimal",
    }
    assert not (deferred | never) & first, (deferred | never) & first
    assert deferred <= later, deferred - later
