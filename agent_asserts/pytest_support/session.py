"""The end of a session: the ``agent_asserts`` terminal summary section and the report file.

The cases arrive as JSON data on the test reports (so they cross from xdist workers to the
controller) and are rebuilt into report rows here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agent_asserts.record import TrialRecord
from agent_asserts.report import (
    ReportRow,
    format_for_path,
    tally_line,
    write_report,
)
from agent_asserts.results import Verdict
from agent_asserts.serialization import case_from_dict
from agent_asserts.summary import result_title

LISTED = 20
"""Cases listed in the summary without ``-v``."""


def rows_from_payloads(payloads: list[Any]) -> list[ReportRow]:
    """Report rows from the data the test reports carried."""
    rows = []
    for payload in payloads:
        for entry in payload:
            record = entry.get("record")
            rows.append(
                ReportRow(
                    case_from_dict(entry["case"]),
                    None if record is None else TrialRecord.from_dict(record),
                    entry.get("source"),
                )
            )
    return rows


def write_session_report(config: pytest.Config, payloads: list[Any], path: str) -> Path | None:
    """Write the session's cases to ``path`` (format by extension); a bad extension or an
    unwritable path is reported in the terminal summary, never a crash."""
    target = Path(path)
    if not target.is_absolute():
        target = Path(config.invocation_params.dir, target)
    try:
        format_for_path(target)
        written = write_report(target, rows_from_payloads(payloads), title="pytest session")
    except (OSError, ValueError) as exc:
        config.stash[_PROBLEM] = f"could not write the report {path}: {exc}"
        return None
    config.stash[_WRITTEN] = written
    return written


_WRITTEN = pytest.StashKey[Path]()
_PROBLEM = pytest.StashKey[str]()


def case_line(row: ReportRow) -> str:
    """One line about a case that did not pass: verdict, source, score, what failed."""
    case = row.case
    where = row.source or case.name
    if row.source and not row.source.endswith(case.name):
        where = f"{row.source} ({case.name})"
    failed_case = case.verdict is Verdict.FAILED  # a failed gate decides, not the mean score
    score = "" if case.score is None or failed_case else f" score {case.score:.2f};"
    failed = [r for r in case.results if r.failed]
    if case.verdict is Verdict.SKIPPED:
        detail = f" {case.skip_reason or ''}"
    elif case.error:
        detail = f" error: {case.error}"
    else:
        kind = "soft failures" if case.verdict is Verdict.SCORED else "failed"
        detail = f" {kind}: " + ", ".join(result_title(r) for r in failed) if failed else ""
    return f"{case.verdict.value.upper()} {where}:{score}{detail}".rstrip(":; ")


def terminal_summary(reporter: Any, config: pytest.Config, payloads: list[Any]) -> None:
    """Write the ``agent_asserts`` section: tally, soft failures and scores, the cases that did
    not pass, and where the report went."""
    rows = rows_from_payloads(payloads)
    cases = [r.case for r in rows]
    reporter.section("agent_asserts")
    reporter.line(tally_line(cases))
    reporter.line("a FAILED case fails its test; SCORED (soft failures only) and PASSED pass")
    soft = [r for c in cases for r in c.results if r.failed and r.severity.value == "soft"]
    scores = [c.score for c in cases if c.score is not None]
    if soft or scores:
        mean = f"; mean score {sum(scores) / len(scores):.2f}" if scores else ""
        reporter.line(f"{len(soft)} soft failure{'s' if len(soft) != 1 else ''}{mean}")
    shown = [r for r in rows if r.case.verdict is not Verdict.PASSED]
    limit = None if config.getoption("verbose", 0) > 0 else LISTED
    for row in shown[:limit]:
        reporter.line(case_line(row))
    if limit is not None and len(shown) > limit:
        reporter.line(f"... and {len(shown) - limit} more (use -v to list them all)")
    written = config.stash.get(_WRITTEN, None)
    if written is not None:
        reporter.line(f"report written to {written}")
    problem = config.stash.get(_PROBLEM, None)
    if problem is not None:
        reporter.line(problem, red=True)


__all__ = ["case_line", "rows_from_payloads", "terminal_summary", "write_session_report"]
