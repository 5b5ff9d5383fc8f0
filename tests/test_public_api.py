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
