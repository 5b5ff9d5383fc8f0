"""The HTML report and the record timeline it shows.

The HTML report: one self-contained file (no scripts, no external assets).

A case table with verdict filters (CSS-only radio buttons), each case a ``<details>`` row that
expands to its summary, its results (status, severity, score, message, mismatch paths,
evidence links) and, when the record is given, the record's timeline with the events the
results cite highlighted, and the record's state changes. Every piece of data is escaped.
:func:`render_html_fragment` is the same view without the page around it (used by
``_repr_html_`` in notebooks).

>>> from agent_asserts import run_case
>>> from agent_asserts.testing import demo_record
>>> record = demo_record()
>>> case = run_case(record, lambda ctx: ctx.called_tool("refunds_issue", arguments={"amount": 40}))
>>> page = render_html([case], records=[record])
>>> page.startswith("<!DOCTYPE html>"), 'data-verdict="failed"' in page, "aa-cited-failed" in page
(True, True, True)

The record side of the HTML report: one line per event, and which results cite it.

>>> from agent_asserts.testing import demo_record
>>> for event in demo_record().events[:2]:
...     print(describe_event(event))
user: 'Please refund A1049'
refunds_lookup(orderId='A1049') → {'refundable': True, 'amount': 42}
"""

from __future__ import annotations

import html
import itertools
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agent_asserts._text import escape_controls
from agent_asserts._values import MISSING
from agent_asserts.matching import render
from agent_asserts.record.event import (
    BlockPayload,
    DelegationPayload,
    MemoryPayload,
    MessagePayload,
    SkillPayload,
    ToolCallPayload,
)
from agent_asserts.report import escape_surrogates
from agent_asserts.results import (
    VERDICT_ORDER,
    Cases,
    ReportRow,
    result_title,
    rows_of,
    tally,
    tally_line,
    verdict_counts,
)
from agent_asserts.status import Verdict

if TYPE_CHECKING:
    from agent_asserts.record import Event, TrialRecord
    from agent_asserts.results import AssertionResult, CaseResult


# -- the HTML report -------------------------------------------------------------------------------

_FRAGMENTS = itertools.count(1)


AUTO_OPEN_LIMIT = 10


def esc(value: Any) -> str:
    """HTML-escape ``value`` (non-strings through the safe ``render``), quotes included.

    >>> esc("<b a='1'>")
    '&lt;b a=&#x27;1&#x27;&gt;'
    """
    text = value if isinstance(value, str) else render(value, 200)
    return html.escape(escape_controls(text), quote=True)


@lru_cache(maxsize=1)
def stylesheet() -> str:
    """The report's CSS (shipped as ``agent_asserts/report/assets/report.css``)."""
    return Path(__file__).with_name("assets").joinpath("report.css").read_text(encoding="utf-8")


def _filters(prefix: str, rows: Sequence[ReportRow]) -> list[str]:
    counts = verdict_counts(r.case for r in rows)
    choices = [("all", len(rows))] + [(v.value, counts[v]) for v in VERDICT_ORDER]
    inputs = [
        f'<input type="radio" class="aa-f aa-f-{name}" name="{prefix}-filter" '
        f'id="{prefix}-{name}"{" checked" if name == "all" else ""}>'
        for name, _ in choices
    ]
    labels = [
        f'<label class="aa-fl aa-fl-{name}" for="{prefix}-{name}">{name} <b>{n}</b></label>'
        for name, n in choices
    ]
    return [*inputs, '<nav class="aa-filters">', *labels, "</nav>"]


def _mismatches(result: AssertionResult) -> str:
    if not result.mismatches:
        return ""
    items = []
    for m in result.mismatches:
        path, reason = getattr(m, "path", None), getattr(m, "reason", None)
        if isinstance(path, str) and isinstance(reason, str):
            items.append(f"<li><code>{esc(path)}</code>: {esc(reason)}</li>")
        else:
            items.append(f"<li>{esc(m)}</li>")
    return f'<ul class="aa-mm">{"".join(items)}</ul>'


def _evidence(result: AssertionResult, anchors: dict[str, str]) -> str:
    links = []
    keys = ([result.closest] if result.closest is not None else []) + [
        evidence_key(e) for e in result.evidence
    ]
    for key in dict.fromkeys(keys):
        role = " (closest)" if key == result.closest else ""
        if key in anchors:
            links.append(
                f'<a class="aa-ev-link" href="#{anchors[key]}"><code>{esc(key)}</code>{role}</a>'
            )
        else:
            links.append(f'<code class="aa-ev-link">{esc(key)}</code>{role}')
    return f'<div class="aa-evidence">evidence: {" ".join(links)}</div>' if links else ""


def _results_table(row: ReportRow, anchors: dict[str, str]) -> list[str]:
    if not row.case.results:
        return ['<p class="aa-empty">no assertions were recorded</p>']
    out = [
        '<table class="aa-results"><thead><tr><th>status</th><th>severity</th><th>check</th>'
        '<th class="aa-num">score</th><th>details</th></tr></thead><tbody>'
    ]
    for result in row.case.results:
        status = result.status.value
        need = "" if result.threshold is None else f" / {result.threshold:.2f}"
        message = f'<div class="aa-msg">{esc(result.message)}</div>' if result.message else ""
        out.append(
            f'<tr class="aa-r aa-r-{"failed" if result.failed else "ok"}">'
            f'<td class="aa-{esc(status)}">{esc(status)}</td><td>{esc(result.severity.value)}</td>'
            f"<td><code>{esc(result_title(result))}</code></td>"
            f'<td class="aa-num">{result.score:.2f}{need}</td>'
            f"<td>{message}{_mismatches(result)}{_evidence(result, anchors)}</td></tr>"
        )
    out.append("</tbody></table>")
    return out


def _timeline(row: ReportRow, anchor: str, record: TrialRecord) -> list[str]:
    cited = citations(row.case)
    failing = row.case.verdict is not Verdict.PASSED
    out = [
        f'<details class="aa-timeline"{" open" if failing else ""}>'
        f"<summary><h3>timeline: {len(record.events)} events</h3></summary>"
        '<ol class="aa-events">'
    ]
    for position in shown_positions(record, cited):
        if position is None:
            out.append('<li class="aa-gap">…</li>')
            continue
        event = record.events[position]
        notes = cited.get(event.event_id, [])
        classes = "aa-ev"
        if notes:
            classes += " aa-cited-failed" if any(f for _, _, f in notes) else " aa-cited"
        kind = event.kind + (f" {event.event_type}" if event.event_type else "")
        turn = "" if event.turn is None else f"turn {event.turn}"
        out.append(
            f'<li id="{anchor}-e{position}" class="{classes}"><span class="aa-eid">'
            f'{esc(event.event_id)}</span><span class="aa-turn">{turn}</span><span class="aa-kind">'
            f'{esc(kind)}</span><span class="aa-desc">{esc(describe_event(event))}</span>'
        )
        for role in ("closest", "evidence"):
            names = [name for name, r, _ in notes if r == role]
            if names:
                tone = "" if any(f for _, r, f in notes if r == role) else " aa-cite-ok"
                listed = ", ".join(esc(n) for n in dict.fromkeys(names))
                out.append(f'<span class="aa-cite{tone}">{role} of {listed}</span>')
        out.append("</li>")
    out.append("</ol></details>")
    delta = record.delta
    if delta:
        out.append('<h3>state changes</h3><ul class="aa-delta">')
        for entry in delta:
            notes = cited.get(entry.path, [])
            tone = (
                ("aa-cited-failed" if any(f for _, _, f in notes) else "aa-cited") if notes else ""
            )
            out.append(f'<li class="{tone}"><code>{esc(str(entry))}</code></li>')
        out.append("</ul>")
    return out


def _case(row: ReportRow, index: int, prefix: str, open_: bool) -> list[str]:
    case = row.case
    verdict = case.verdict.value
    anchor = f"{prefix}-c{index}"
    score = "" if case.score is None else f"{case.score:.2f}"
    anchors: dict[str, str] = {}
    if row.record is not None:
        anchors = {e.event_id: f"{anchor}-e{i}" for i, e in enumerate(row.record.events)}
    opened = " open" if open_ else ""
    out = [
        f'<details class="aa-case" data-verdict="{verdict}" id="{anchor}"{opened}>'
        f'<summary class="aa-row" role="row"><span class="aa-badge aa-{verdict}">{verdict.upper()}'
        f'</span><span class="aa-name">{esc(case.name)}</span><span class="aa-src">'
        f'{esc(row.source or "")}</span><span class="aa-checks">{esc(tally(case.results))}</span>'
        f'<span class="aa-score">{score}</span></summary><div class="aa-body">',
        f'<pre class="aa-summary">{esc(str(case))}</pre>',
        "<h3>results</h3>",
        *_results_table(row, anchors),
    ]
    if case.logs:
        out.append('<h3>logs</h3><ul class="aa-logs">')
        out.extend(f"<li>{esc(str(entry))}</li>" for entry in case.logs)
        out.append("</ul>")
    if row.record is not None:
        out.extend(_timeline(row, anchor, row.record))
    out.append("</div></details>")
    return out


def render_html_fragment(
    cases: Cases,
    *,
    records: Sequence[TrialRecord | None] | None = None,
    sources: Sequence[str | None] | None = None,
    title: str | None = None,
    id_prefix: str | None = None,
    open_cases: bool | None = None,
) -> str:
    """The report view without ``<html>`` around it: a ``<style>`` and one ``div.aa-report``.

    Args:
        cases: Case results (see :func:`agent_asserts.report.rows_of`).
        records: One record (or None) per case: shows its timeline and state changes.
        sources: One source label per case.
        title: The heading (default ``agent_asserts report``).
        id_prefix: Prefix of element ids (default: unique per call in this process).
        open_cases: Expand every case (True), none (False), or by default the cases that did
            not pass when there are at most 10 cases, and a lone case always.
    """
    rows = rows_of(cases, records=records, sources=sources)
    prefix = id_prefix or f"aa{next(_FRAGMENTS)}"
    out = [
        f"<style>{stylesheet()}</style>",
        f'<div class="aa-report" id="{esc(prefix)}">',
        f"<header><h1>{esc(title or 'agent_asserts report')}</h1>"
        f'<p class="aa-tally">{esc(tally_line([r.case for r in rows]))}</p></header>',
        *_filters(esc(prefix), rows),
        '<div class="aa-cases" role="table"><div class="aa-row aa-header" role="row">'
        "<span>verdict</span><span>case</span><span>record</span><span>checks</span>"
        '<span class="aa-score">score</span></div>',
    ]
    for index, row in enumerate(rows):
        if open_cases is None:
            open_ = len(rows) == 1 or (
                len(rows) <= AUTO_OPEN_LIMIT and row.case.verdict is not Verdict.PASSED
            )
        else:
            open_ = open_cases
        out.extend(_case(row, index, esc(prefix), open_))
    if not rows:
        out.append('<p class="aa-empty">no cases</p>')
    out.append("</div></div>")
    return escape_surrogates("\n".join(out))


def render_html(
    cases: Cases,
    *,
    records: Sequence[TrialRecord | None] | None = None,
    sources: Sequence[str | None] | None = None,
    title: str | None = None,
    open_cases: bool | None = None,
) -> str:
    """The whole self-contained HTML page (see :func:`render_html_fragment` for the arguments)."""
    heading = title or "agent_asserts report"
    body = render_html_fragment(
        cases, records=records, sources=sources, title=heading, id_prefix="aa",
        open_cases=open_cases,
    )  # fmt: skip
    return escape_surrogates(
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(heading)}</title>\n</head>\n<body>\n{body}\n</body>\n</html>\n"
    )


# -- the record timeline ---------------------------------------------------------------------------

LIMIT = 200


MAX_EVENTS = 500


CONTEXT = 3


def _arguments(arguments: Any) -> str:
    if isinstance(arguments, Mapping):
        return ", ".join(f"{k}={render(v, 60)}" for k, v in arguments.items())
    return "" if arguments is None else render(arguments, 80)


def describe_event(event: Event) -> str:
    """A one-line description of an event for the timeline (never raises)."""
    try:
        return _describe(event)
    except Exception as exc:  # a report must never crash on odd data
        return f"<unrenderable event: {type(exc).__name__}>"


def _describe(event: Event) -> str:
    p = event.payload
    if isinstance(p, ToolCallPayload):
        text = f"{p.name}({_arguments(p.arguments)})"
        if p.is_error:
            text += " raised " + render(p.error_message or p.result, 80)
        elif p.result is not None:
            text += " → " + render(p.result, 80)
        return text
    if isinstance(p, MessagePayload):
        text = f"{event.actor_ref or 'message'}: {render(p.text, LIMIT)}"
        if p.utter_name:
            text += f" [{p.utter_name}]"
        if p.buttons:
            text += " buttons: " + ", ".join(b.title for b in p.buttons)
        return text
    if isinstance(p, MemoryPayload):
        value = "" if p.value is MISSING else " = " + render(p.value, 80)
        return f"{event.event_type or 'memory'} {p.name}{value}"
    if isinstance(p, SkillPayload):
        step = f" (step {p.step_id})" if p.step_id else ""
        return f"skill {event.event_type or ''} {p.skill_id}{step}"
    if isinstance(p, BlockPayload):
        step = f" (step {p.step_id})" if p.step_id else ""
        return f"block {event.event_type or ''} {p.skill_id}/{p.block_id}{step}"
    if isinstance(p, DelegationPayload):
        return f"sub-agent {p.subagent} {event.event_type or 'completed'}"
    return render(p, LIMIT)


def evidence_key(item: Any) -> str:
    """The text that identifies an evidence item: an event id, a JSON Pointer, a delta path.

    >>> evidence_key("e3"), evidence_key({"path": "/a", "op": "added"})
    ('e3', '/a')
    """
    if isinstance(item, str):
        return item
    path = item.get("path") if isinstance(item, Mapping) else getattr(item, "path", None)
    return path if isinstance(path, str) else render(item, 80)


def citations(case: CaseResult) -> dict[str, list[tuple[str, str, bool]]]:
    """For each evidence key, the results that cite it: ``(result name, role, failed)``.

    ``role`` is ``closest`` (the closest candidate of a failed check) or ``evidence``.
    """
    cited: dict[str, list[tuple[str, str, bool]]] = {}
    for result in case.results:
        if result.closest is not None:
            cited.setdefault(result.closest, []).append((result.name, "closest", result.failed))
        for item in result.evidence:
            key = evidence_key(item)
            if key != result.closest:
                cited.setdefault(key, []).append((result.name, "evidence", result.failed))
    return cited


def shown_positions(record: TrialRecord, cited: Iterable[str]) -> list[int | None]:
    """Positions of the events to show; ``None`` marks a gap of hidden events.

    Every event is shown up to ``MAX_EVENTS``; past that, the first ``CONTEXT * 5`` events and
    the cited ones with ``CONTEXT`` neighbours on each side.
    """
    n = len(record.events)
    if n <= MAX_EVENTS:
        return list(range(n))
    keep = set(range(min(n, CONTEXT * 5)))
    ids = set(cited)
    for position, event in enumerate(record.events):
        if event.event_id in ids:
            keep.update(range(max(0, position - CONTEXT), min(n, position + CONTEXT + 1)))
    shown: list[int | None] = []
    previous = -1
    for position in sorted(keep):
        if position != previous + 1:
            shown.append(None)
        shown.append(position)
        previous = position
    if previous != n - 1:
        shown.append(None)
    return shown


__all__ = [
    "citations",
    "describe_event",
    "esc",
    "evidence_key",
    "render_html",
    "render_html_fragment",
    "shown_positions",
    "stylesheet",
]
