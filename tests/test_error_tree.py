"""One error tree: every exception class defined in ``agent_asserts`` derives from
``AgentAssertsError`` (keeping its built-in base), except the few listed here with a reason."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import unittest

import pytest

import agent_asserts
from agent_asserts import AgentAssertsError, CaseResult, assert_passed
from agent_asserts.errors import RecordWarning

NOT_IN_THE_TREE = {
    "agent_asserts._deadline.TimeLimitExceeded": (
        "a BaseException on purpose, so that no `except Exception` in user code run under a "
        "time limit can swallow it; the runner turns it into the case's timeout result"
    ),
    "agent_asserts.errors.RecordWarning": (
        "a warning category (issued with warnings.warn, never raised)"
    ),
}


def _exception_classes() -> dict[str, type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    modules = pkgutil.walk_packages(agent_asserts.__path__, prefix="agent_asserts.")
    for info in modules:
        module = importlib.import_module(info.name)
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, BaseException) and obj.__module__ == module.__name__:
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return found


def test_every_exception_class_of_the_library_is_an_agent_asserts_error() -> None:
    classes = _exception_classes()
    outside = sorted(
        name
        for name, cls in classes.items()
        if not issubclass(cls, AgentAssertsError) and name not in NOT_IN_THE_TREE
    )
    assert outside == []
    assert set(NOT_IN_THE_TREE) <= set(classes)  # the exemptions are real classes
    assert len(classes) > 20  # the walk found the library's exceptions


@pytest.mark.parametrize(
    ("path", "builtin"),
    [
        ("agent_asserts.errors.LoadError", ValueError),
        ("agent_asserts.errors.Unavailable", ImportError),
        ("agent_asserts.errors.RecordLacks", Exception),
        ("agent_asserts.record.RecordError", ValueError),
        ("agent_asserts.contract.ContractError", ValueError),
        ("agent_asserts.matching.MatcherError", Exception),
        ("agent_asserts.matching.OperatorError", ValueError),
        ("agent_asserts.judges.JudgeError", Exception),
        ("agent_asserts.judges.JudgeResponseError", Exception),
        ("agent_asserts.judges.JudgeTimeout", Exception),
        ("agent_asserts.judges.EvidenceError", ValueError),
        ("agent_asserts.runner.CaseFailed", AssertionError),
        ("agent_asserts.runner.CaseSkipped", unittest.SkipTest),
        ("agent_asserts.results.RequirementFailed", Exception),
        ("agent_asserts.results.Skipped", Exception),
        ("agent_asserts.context.CaseTimeout", Exception),
        ("agent_asserts.contract.relations.EvaluatorFailed", Exception),
    ],
)
def test_each_public_exception_keeps_its_builtin_base_and_joins_the_tree(
    path: str, builtin: type[BaseException]
) -> None:
    module_name, _, name = path.rpartition(".")
    cls = getattr(importlib.import_module(module_name), name)
    assert issubclass(cls, AgentAssertsError)
    assert issubclass(cls, builtin)


def test_the_exemptions_stay_outside_for_their_reason() -> None:
    from agent_asserts._deadline import TimeLimitExceeded

    assert not issubclass(TimeLimitExceeded, Exception)
    assert issubclass(RecordWarning, UserWarning)


def test_assert_passed_raises_errors_of_the_tree() -> None:
    with pytest.raises(AgentAssertsError) as failed:
        assert_passed(CaseResult("refund", "failed"))
    assert type(failed.value).__name__ == "CaseFailed"
    assert isinstance(failed.value, AssertionError)
    with pytest.raises(AgentAssertsError) as skipped:
        assert_passed(CaseResult("refund", "skipped", skip_reason="no sandbox"))
    assert isinstance(skipped.value, unittest.SkipTest)
    assert str(skipped.value) == "no sandbox"


def test_pytest_still_reports_case_failed_as_a_failure_and_case_skipped_as_a_skip(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        """
        from agent_asserts import CaseResult, assert_passed

        def test_failed():
            assert_passed(CaseResult("refund", "failed"))

        def test_skipped():
            assert_passed(CaseResult("refund", "skipped", skip_reason="no sandbox"))
        """
    )
    result = pytester.runpytest("-p", "no:cacheprovider", "-rs")
    result.assert_outcomes(failed=1, skipped=1)
    result.stdout.fnmatch_lines(["*SKIPPED*no sandbox*"])
