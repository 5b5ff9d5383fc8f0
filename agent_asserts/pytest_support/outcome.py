"""From case verdicts to test outcomes, once the test body has run.

:func:`conclude` runs inside the plugin's ``pytest_runtest_call`` wrapper (not at teardown,
which pytest would report as an error): a ``FAILED`` case fails the test with its summary
(summary line first), a ``SKIPPED`` case skips it, ``SCORED`` and ``PASSED`` let it pass.
``RequirementFailed`` and ``Skipped`` raised by ``ctx.require()`` / ``ctx.skip()``, and the
``CaseFailed`` / ``CaseSkipped`` of ``assert_passed()``, are turned into the same outcomes.
Any other exception keeps its own failure; the contexts' cases are still recorded, with the
exception as their error.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs
import pytest

from agent_asserts.pytest_plugin import CONTEXTS, RESULTS
from agent_asserts.report.junit import case_properties
from agent_asserts.results import CaseResult, RequirementFailed, Skipped, Verdict
from agent_asserts.runner import CaseFailed, CaseSkipped

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord

_OWN = (RequirementFailed, Skipped, CaseFailed, CaseSkipped)


@attrs.frozen
class CaseEntry:
    """A finished case of a test item, with the record it ran on (when known)."""

    case: CaseResult
    record: TrialRecord | None = None


def _error_text(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def finished_cases(item: pytest.Item, exc: BaseException | None) -> list[CaseEntry]:
    """Close the item's contexts into case results (each context once) and return every case
    of the item."""
    entries = item.stash.setdefault(RESULTS, [])
    contexts = item.stash.get(CONTEXTS, [])
    item.stash[CONTEXTS] = []
    outcome_exc = isinstance(exc, pytest.skip.Exception | pytest.fail.Exception)
    for ctx, record in contexts:
        foreign = exc is not None and not isinstance(exc, _OWN) and not outcome_exc
        error = _error_text(exc) if foreign and isinstance(exc, Exception) else None
        entries.append(CaseEntry(ctx.result(error=error), record))
    if isinstance(exc, CaseFailed | CaseSkipped) and all(e.case is not exc.case for e in entries):
        entries.append(CaseEntry(exc.case))
    return entries


def properties(cases: list[CaseEntry]) -> list[tuple[str, str]]:
    """The JUnit XML properties of the cases: each case's name (``agent_asserts.case``), then
    the properties the package's JUnit report gives it (verdict, score, one score per check:
    :func:`agent_asserts.report.junit.case_properties`)."""
    out: list[tuple[str, str]] = []
    for entry in cases:
        out.append(("agent_asserts.case", entry.case.name))
        out += case_properties(entry.case)
    return out


def conclude(item: pytest.Item, exc: BaseException | None) -> None:
    """Record the item's cases and raise the test outcome they call for.

    Returns without raising when the test should keep its own outcome (it passed, or a
    foreign exception is already on its way).
    """
    cases = finished_cases(item, exc)
    item.user_properties.extend(properties(cases))
    if exc is not None and not isinstance(exc, _OWN):
        return
    failed = [e.case for e in cases if e.case.verdict is Verdict.FAILED]
    if failed:
        pytest.fail("\n\n".join(str(c) for c in failed), pytrace=False)
    skipped = [e.case for e in cases if e.case.verdict is Verdict.SKIPPED]
    if skipped:
        _skip(skipped[0].skip_reason or f"case {skipped[0].name!r} was skipped")
    if isinstance(exc, RequirementFailed | CaseFailed):  # e.g. assert_passed(fail_on_scored)
        pytest.fail(str(exc), pytrace=False)
    if isinstance(exc, Skipped | CaseSkipped):
        _skip(str(exc))


def _skip(reason: str) -> None:
    # Reported at the test's location (as a skip marker is), not at this line.
    raise pytest.skip.Exception(reason, _use_item_location=True)


def payload(item: pytest.Item, cases: list[CaseEntry]) -> list[dict[str, Any]]:
    """The cases as JSON data for the test report (crosses xdist); records are included only
    when the session's report file shows them (``.html``, ``.json``)."""
    path = item.config.getoption("agent_asserts_report", None)
    with_records = bool(path) and str(path).lower().endswith((".html", ".htm", ".json"))
    return [
        {
            "case": entry.case.to_dict(),
            "source": item.nodeid,
            "record": entry.record.to_dict() if with_records and entry.record is not None else None,
        }
        for entry in cases
    ]


__all__ = ["CaseEntry", "conclude", "finished_cases", "payload", "properties"]
