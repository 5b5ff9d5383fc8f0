"""The Markdown report, for CI step summaries (``$GITHUB_STEP_SUMMARY``) and PR comments.

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
from agent_asserts.report._model import renders_rows
from agent_asserts.result_rows import VERDICT_ORDER, ReportRow, tally_line
from agent_asserts.status import Verdict
from agent_asserts.summary import tally

if TYPE_CHECKING:
    pass

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


__all__ = ["ICONS", "cell", "fence", "render_markdown"]
