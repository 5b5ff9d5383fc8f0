"""The text reports: plain text (with optional colour) and Markdown.

The text report: the summary of every case (``str(case_result)``), then one tally line.

Each case keeps its summary line first; the record it ran on follows on a ``record:`` line.
With ``color=True`` the verdict words are coloured with ANSI codes (the command line does
that only on a terminal, and never when ``NO_COLOR`` is set).

>>> from agent_asserts.results import CaseResult
>>> print(render_text([CaseResult("a", "passed"), CaseResult("b", "skipped", skip_reason="x")],
...                   sources=["runs/1.json", None]))
PASSED a: 0 checks
  record: runs/1.json
  warning: no assertions were recorded
SKIPPED b: 0 checks
  skipped: x
<BLANKLINE>
2 cases: 1 passed, 1 skipped; pass rate 50.0%

The Markdown report, for CI step summaries (``$GITHUB_STEP_SUMMARY``) and PR comments.

A heading with the tally, a table of the cases (failed first, then scored, skipped and
passed, each group in input order), then one collapsed ``<details>`` block per case that did
not pass, holding its summary in a code fence. Table cells are HTML-escaped, so a case name
cannot inject markup.

>>> from agent_asserts.results import CaseResult
>>> print(render_markdown([CaseResult("a|b", "passed")]))
## agent_asserts: 1 case: 1 passed; pass rate 100.0%
<BLANKLINE>
| verdict | case | record | checks | score |
| --- | --- | --- | --- | --- |
| ✅ passed | a\\|b |  | 0 checks |  |
<BLANKLINE>
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from agent_asserts._text import escape_controls
from agent_asserts.report import escape_surrogates, renders_rows
from agent_asserts.results import VERDICT_ORDER, Cases, ReportRow, rows_of, tally, tally_line
from agent_asserts.status import Verdict

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord


# -- the text report -------------------------------------------------------------------------------

_COLORS = {
    "PASSED": "32",  # green
    "FAILED": "31",  # red
    "INVALID": "31",
    "ERROR": "31",
    "SCORED": "33",  # yellow
    "SKIPPED": "36",  # cyan
}


_WORD = re.compile(r"^(\s*)(PASSED|FAILED|SCORED|SKIPPED|INVALID|ERROR)\b", re.MULTILINE)


def colorize(text: str) -> str:
    """Colour the verdict and status words that start a line (bold red ``FAILED``…).

    >>> colorize("FAILED x") == "\\x1b[1;31mFAILED\\x1b[0m x"
    True
    """
    return _WORD.sub(
        lambda m: f"{m.group(1)}\x1b[1;{_COLORS[m.group(2)]}m{m.group(2)}\x1b[0m", text
    )


def row_text(row: ReportRow) -> str:
    """The summary of one row's case, with a ``record:`` line after its first line
    (``suite:`` for an unloadable suite, whose case metadata has ``input: suite``)."""
    summary = str(row.case)
    if row.source is None:
        return summary
    label = "suite" if row.case.metadata.get("input") == "suite" else "record"
    first, newline, rest = summary.partition("\n")
    return f"{first}\n  {label}: {row.source}" + (newline + rest if newline else "")


def render_text(
    cases: Cases,
    *,
    records: Sequence[TrialRecord | None] | None = None,
    sources: Sequence[str | None] | None = None,
    title: str | None = None,
    color: bool = False,
) -> str:
    """Render the text report.

    Args:
        cases: Case results (see :func:`agent_asserts.report.rows_of`).
        records: Unused by this format (accepted so every renderer has one signature).
        sources: One source label per case.
        title: A first line to print above the cases, if given.
        color: Colour verdict words with ANSI codes.
    """
    rows = rows_of(cases, records=records, sources=sources)
    parts = [title] if title else []
    parts.extend(row_text(r) for r in rows)
    body = "\n".join(parts)
    tally = tally_line([r.case for r in rows])
    text = escape_surrogates(escape_controls(f"{body}\n\n{tally}" if body else tally))
    return colorize(text) if color else text


# -- the Markdown report ---------------------------------------------------------------------------

ICONS = {
    Verdict.PASSED: "✅",
    Verdict.FAILED: "❌",
    Verdict.SCORED: "⚠️",
    Verdict.SKIPPED: "⏭️",
}


def cell(text: str) -> str:
    """One table cell: HTML-escaped, pipes escaped, on one line.

    >>> cell("a|<b>\\nc")
    'a\\\\|&lt;b&gt; c'
    """
    text = escape_controls(" ".join(text.split()), keep_newlines=False)
    return html.escape(text, quote=False).replace("|", "\\|")


def fence(text: str) -> str:
    """``text`` in a code fence longer than any run of backticks inside it.

    >>> fence("x")
    '```text\\nx\\n```'
    """
    text = escape_controls(text)
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    ticks = "`" * max(3, longest + 1)
    return f"{ticks}text\n{text}\n{ticks}"


def _order(rows: Sequence[ReportRow]) -> list[ReportRow]:
    rank = {v: i for i, v in enumerate(VERDICT_ORDER)}
    return sorted(rows, key=lambda r: rank[r.case.verdict])


@renders_rows
def render_markdown(rows: Sequence[ReportRow], title: str | None) -> str:
    """Render the Markdown report (``title`` replaces ``agent_asserts`` in the heading)."""
    rows = _order(rows)
    heading = cell(title or "agent_asserts")
    lines = [f"## {heading}: {tally_line([r.case for r in rows])}", ""]
    if rows:
        lines += ["| verdict | case | record | checks | score |", "| --- | --- | --- | --- | --- |"]
    for row in rows:
        case = row.case
        score = "" if case.score is None else f"{case.score:.2f}"
        lines.append(
            f"| {ICONS[case.verdict]} {case.verdict.value} | {cell(case.name)} "
            f"| {cell(row.source or '')} | {cell(tally(case.results))} | {score} |"
        )
    details = [r for r in rows if r.case.verdict is not Verdict.PASSED]
    for row in details:
        label = cell(row.case.name) + (f" ({cell(row.source)})" if row.source else "")
        lines += [
            "",
            f"<details><summary>{ICONS[row.case.verdict]} {label}</summary>",
            "",
            fence(str(row.case)),
            "",
            "</details>",
        ]
    return "\n".join(lines) + "\n"


__all__ = ["ICONS", "cell", "colorize", "fence", "render_markdown", "render_text", "row_text"]
