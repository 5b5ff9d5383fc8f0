"""Comparing two batches of results: is the candidate agent significantly worse than the base?

:func:`compare` takes the case results of two batches (two JSON reports, or the results of one
suite over two folders of runs) and, for every check and for the cases as a whole, gives the
two pass rates with their Wilson intervals, the difference with Newcombe's interval (the
hybrid score interval, his method 10), the one-sided p-value of Fisher's exact test that the
candidate passes less often, and the flips: the cases, matched by their id (source and name),
that passed in the base and fail in the candidate, and back. A **regression** is a check (or
the cases) whose pass rate fell with ``p < alpha`` by at least ``min_effect``. Cases that
appear several times in a batch are repeated trials: their pass@k and pass^k come from the
trials API (:class:`~agent_asserts.trials.TrialsResult`).

A case passes when its verdict is ``PASSED`` (as in the trials API); a check's result passes
when its status is ``pass``, and ``not_applicable`` and skipped results are left out of its
rate (``invalid`` and ``evaluator_error`` count as not passing).

>>> from agent_asserts.results import AssertionResult, CaseResult
>>> def case(i, ok):
...     status, score = ("pass", 1.0) if ok else ("fail", 0.0)
...     r = AssertionResult(name="called_tool:refund", status=status, score=score)
...     return CaseResult(f"run{i}", "passed" if ok else "failed", results=(r,))
>>> base = [case(i, True) for i in range(40)]
>>> candidate = [case(i, i % 3 != 0) for i in range(40)]
>>> result = compare(base, candidate)
>>> [(row.name, row.base.k, row.candidate.k, row.regression) for row in result.rows]
[('all cases', 40, 26, True), ('called_tool:refund', 40, 26, True)]
>>> f"{result.rows[0].p_value:.3g}"  # C(40, 26) / C(80, 66)
'1.54e-05'
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Iterable, Sequence
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any, Final

import attrs

from agent_asserts.report.html_report import render_html_fragment
from agent_asserts.results import CaseResult, ReportRow, Verdict
from agent_asserts.status import Status
from agent_asserts.trials import TrialsResult

if TYPE_CHECKING:
    from agent_asserts.results import Cases

Z95: Final = 1.959963984540054
"""The two-sided 95 % normal quantile."""

ALL_CASES: Final = "all cases"
_LEFT_OUT: Final = frozenset({Status.NOT_APPLICABLE})


# -- the statistics ---------------------------------------------------------------------------


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for ``k`` successes of ``n`` (no continuity correction).

    >>> [round(x, 4) for x in wilson(81, 263)]  # Newcombe (1998), single proportion, method 3
    [0.2553, 0.3662]
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    scale = 1 + z * z / n
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def newcombe(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> tuple[float, float]:
    """Newcombe's hybrid score interval for ``k1/n1 − k2/n2`` (his method 10).

    >>> [round(x, 4) for x in newcombe(56, 70, 48, 80)]  # Newcombe (1998), example (a)
    [0.0524, 0.3339]
    """
    p1 = k1 / n1 if n1 else 0.0
    p2 = k2 / n2 if n2 else 0.0
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return max(-1.0, low), min(1.0, high)


def _log_hypergeometric(x: int, k_total: int, n1: int, n2: int) -> float:
    """log P(X = x): x successes in the first group of n1, k_total in all, groups n1 and n2."""
    return _log_comb(n1, x) + _log_comb(n2, k_total - x) - _log_comb(n1 + n2, k_total)


def _log_comb(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def fisher_exact(k1: int, n1: int, k2: int, n2: int, alternative: str = "greater") -> float:
    """Fisher's exact test of the 2×2 table (``k1`` of ``n1`` against ``k2`` of ``n2``).

    ``alternative``: ``greater`` (the first rate is higher: the one-sided p-value of a fall
    from the first group to the second), ``less``, or ``two-sided`` (the tables no more likely
    than the one observed).

    >>> round(fisher_exact(3, 4, 1, 4), 4), round(fisher_exact(3, 4, 1, 4, "two-sided"), 4)
    (0.2429, 0.4857)
    """
    if alternative not in ("greater", "less", "two-sided"):
        raise ValueError(
            f"'alternative' must be 'greater', 'less' or 'two-sided' (got {alternative!r})"
        )
    total = k1 + k2
    low, high = max(0, total - n2), min(total, n1)
    if n1 + n2 == 0 or low == high:
        return 1.0
    logs = {x: _log_hypergeometric(x, total, n1, n2) for x in range(low, high + 1)}
    if alternative == "greater":
        chosen = [x for x in logs if x >= k1]
    elif alternative == "less":
        chosen = [x for x in logs if x <= k1]
    else:
        observed = logs[k1] + 1e-7 * max(1.0, abs(logs[k1]))  # ties within rounding count
        chosen = [x for x, v in logs.items() if v <= observed]
    top = max(logs[x] for x in chosen)
    return min(1.0, math.exp(top) * sum(math.exp(logs[x] - top) for x in chosen))


# -- comparing two batches ----------------------------------------------------------------------


@attrs.frozen
class Rate:
    """``k`` passes of ``n``, with its Wilson 95 % interval."""

    k: int
    n: int

    @property
    def rate(self) -> float | None:
        """``k / n``, or None when ``n`` is 0."""
        return self.k / self.n if self.n else None

    @property
    def interval(self) -> tuple[float, float]:
        """The Wilson 95 % interval."""
        return wilson(self.k, self.n)

    def text(self) -> str:
        """``26/40 (65.0 %)``.

        >>> Rate(26, 40).text(), Rate(0, 0).text()
        ('26/40 (65.0 %)', '0/0')
        """
        return f"{self.k}/{self.n} ({100 * self.k / self.n:.1f} %)" if self.n else "0/0"


@attrs.frozen
class RateChange:
    """One row of a comparison: a check (or ``all cases``) in the two batches.

    Attributes:
        name: The result name (``called_tool:refund``) or ``all cases``.
        base, candidate: The pass counts of each batch.
        difference: candidate rate − base rate (None when a side has no result).
        interval: Newcombe's 95 % interval of the difference.
        p_value: Fisher's exact test, one-sided: the candidate passes less often.
        regression: ``p_value < alpha`` and the rate fell by at least ``min_effect``.
        to_fail, to_pass: the ids of the cases (in both batches) that flipped.
    """

    name: str
    base: Rate
    candidate: Rate
    difference: float | None
    interval: tuple[float, float] | None
    p_value: float
    regression: bool
    to_fail: tuple[str, ...] = ()
    to_pass: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of the row."""
        return {
            "name": self.name,
            "base": {"passed": self.base.k, "total": self.base.n, "rate": self.base.rate,
                     "interval": list(self.base.interval)},
            "candidate": {"passed": self.candidate.k, "total": self.candidate.n,
                          "rate": self.candidate.rate, "interval": list(self.candidate.interval)},
            "difference": self.difference,
            "interval": None if self.interval is None else list(self.interval),
            "p_value": self.p_value,
            "regression": self.regression,
            "flips": {"to_fail": list(self.to_fail), "to_pass": list(self.to_pass)},
        }  # fmt: skip


@attrs.frozen
class TrialsChange:
    """A case run several times in both batches: its trials' pass@1, pass@k and pass^k."""

    case: str
    k: int
    base: TrialsResult
    candidate: TrialsResult

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {
            "case": self.case,
            "k": self.k,
            **{
                side: {
                    "passes": t.passes,
                    "trials": t.n,
                    "pass@1": t.pass_at_k(1),
                    f"pass@{self.k}": t.pass_at_k(self.k),
                    f"pass^{self.k}": t.pass_hat_k(self.k),
                }
                for side, t in (("base", self.base), ("candidate", self.candidate))
            },
        }


@attrs.frozen
class Comparison:
    """The result of :func:`compare`: one row for the cases, then one per check."""

    rows: tuple[RateChange, ...]
    trials: tuple[TrialsChange, ...]
    alpha: float
    min_effect: float
    base_label: str = "base"
    candidate_label: str = "candidate"

    @property
    def regressions(self) -> tuple[RateChange, ...]:
        """The rows that regressed."""
        return tuple(row for row in self.rows if row.regression)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (docs/from-traces.md shows it)."""
        return {
            "base": self.base_label,
            "candidate": self.candidate_label,
            "alpha": self.alpha,
            "min_effect": self.min_effect,
            "regressions": [row.name for row in self.regressions],
            "rows": [row.to_dict() for row in self.rows],
            "trials": [t.to_dict() for t in self.trials],
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as indented JSON text."""
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"

    def markdown(self) -> str:
        """A Markdown table fit for a pull-request comment, regressions first.

        >>> from agent_asserts.results import CaseResult
        >>> print(compare([CaseResult("a", "passed")], [CaseResult("a", "failed")]).markdown())
        ... # doctest: +NORMALIZE_WHITESPACE
        **No regression** (α = 0.05, minimum effect 0 points): 1 of 1 rows fell, none significantly.
        <BLANKLINE>
        | check | base | candidate | change | 95 % interval | p | flips |
        | --- | --- | --- | --- | --- | --- | --- |
        | all cases | 1/1 (100.0 %) | 0/1 (0.0 %) | -100.0 pts | -100.0 to +12.2 | 0.5 | 1 to fail |
        """
        fell = [r for r in self.rows if r.difference is not None and r.difference < 0]
        effect = f"minimum effect {_points(100 * self.min_effect)} points"
        if self.regressions:
            names = ", ".join(f"`{_cell(r.name)}`" for r in self.regressions)
            head = (
                f"**{len(self.regressions)} regression{'s' if len(self.regressions) > 1 else ''}**"
                f" (α = {self.alpha:g}, {effect}): {names}."
            )
        else:
            head = (
                f"**No regression** (α = {self.alpha:g}, {effect}): {len(fell)} of "
                f"{len(self.rows)} rows fell, none significantly."
            )
        lines = [
            head,
            "",
            "| check | base | candidate | change | 95 % interval | p | flips |",
            "| --- | --- | --- | --- | --- | --- | --- |",
        ]
        ordered = sorted(self.rows, key=lambda r: (not r.regression, r.name != ALL_CASES))
        for r in ordered:
            mark = "**⚠ " + _cell(r.name) + "**" if r.regression else _cell(r.name)
            change = "—" if r.difference is None else f"{100 * r.difference:+.1f} pts"
            interval = "—" if r.interval is None else (
                f"{100 * r.interval[0]:+.1f} to {100 * r.interval[1]:+.1f}"
            )  # fmt: skip
            flips = ", ".join(
                part
                for part in (
                    f"{len(r.to_fail)} to fail" if r.to_fail else "",
                    f"{len(r.to_pass)} to pass" if r.to_pass else "",
                )
                if part
            )
            lines.append(
                f"| {mark} | {r.base.text()} | {r.candidate.text()} | {change} | {interval} "
                f"| {_p(r.p_value)} | {flips or '—'} |"
            )
        if self.trials:
            k = self.trials[0].k
            lines += [
                "",
                f"Repeated trials (k = {k}): pass@1, pass@{k}, pass^{k} — base → candidate",
                "",
                f"| case | pass@1 | pass@{k} | pass^{k} |",
                "| --- | --- | --- | --- |",
            ]
            for t in self.trials:
                cells = [
                    f"{t.base.pass_at_k(n):.2f} → {t.candidate.pass_at_k(n):.2f}" for n in (1, k)
                ]
                hat = f"{t.base.pass_hat_k(k):.2f} → {t.candidate.pass_hat_k(k):.2f}"
                lines.append(f"| {_cell(t.case)} | {cells[0]} | {cells[1]} | {hat} |")
        return "\n".join(lines) + "\n"

    def html(self, base: Cases | None = None, candidate: Cases | None = None) -> str:
        """A self-contained HTML page: the comparison table, then the two reports side by side
        (when their cases are given)."""
        rows = []
        for r in sorted(self.rows, key=lambda r: (not r.regression, r.name != ALL_CASES)):
            change = "—" if r.difference is None else f"{100 * r.difference:+.1f} pts"
            style = ' class="regression"' if r.regression else ""
            rows.append(
                f"<tr{style}><td>{html.escape(r.name)}</td><td>{r.base.text()}</td>"
                f"<td>{r.candidate.text()}</td><td>{change}</td><td>{_p(r.p_value)}</td>"
                f"<td>{len(r.to_fail)} / {len(r.to_pass)}</td></tr>"
            )
        sides = ""
        if base is not None and candidate is not None:
            left = render_html_fragment(base, title=self.base_label, id_prefix="base")
            right = render_html_fragment(candidate, title=self.candidate_label, id_prefix="cand")
            sides = f'<div class="sides"><div>{left}</div><div>{right}</div></div>'
        verdict = f"{len(self.regressions)} regression(s)" if self.regressions else "no regression"
        return (
            '<!DOCTYPE html><html><head><meta charset="utf-8">'
            f"<title>{html.escape(self.base_label)} vs {html.escape(self.candidate_label)}</title>"
            "<style>body{font-family:system-ui,sans-serif;margin:1.5em}"
            "table.cmp{border-collapse:collapse}table.cmp td,table.cmp th{border:1px solid #ccc;"
            "padding:.25em .6em}tr.regression{background:#fde2e2}"
            ".sides{display:grid;grid-template-columns:1fr 1fr;gap:1em}</style></head><body>"
            f"<h1>{html.escape(self.base_label)} → {html.escape(self.candidate_label)}: "
            f"{verdict}</h1><p>α = {self.alpha:g}, minimum effect "
            f"{_points(100 * self.min_effect)} points; p: Fisher's exact test, one-sided.</p>"
            '<table class="cmp"><tr><th>check</th><th>base</th><th>candidate</th>'
            "<th>change</th><th>p</th><th>flips to fail / to pass</th></tr>"
            + "".join(rows)
            + f"</table>{sides}</body></html>\n"
        )


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _points(value: float) -> str:
    return f"{value:g}"


def _p(value: float) -> str:
    return "1" if value >= 0.9995 else f"{value:.3g}"


def case_ids(rows: Sequence[ReportRow]) -> list[str]:
    """The id of each row's case: its source, relative to the folder all the batch's sources
    share, and the case's name — so that ``base/run7.json`` and ``candidate/run7.json`` match.

    >>> from agent_asserts.results import CaseResult
    >>> rows = [ReportRow(CaseResult("c", "passed"), None, f"runs/v2/r{i}.json") for i in (1, 2)]
    >>> case_ids(rows)
    ['r1.json::c', 'r2.json::c']
    """
    sources = [row.source for row in rows if row.source]
    parts = [PurePosixPath(s.replace("\\", "/")).parts for s in sources]
    common = 0
    if parts:
        shortest = min(len(p) for p in parts)
        while common < shortest - 1 and len({p[common] for p in parts}) == 1:
            common += 1
    out = []
    for row in rows:
        if not row.source:
            out.append(row.case.name)
            continue
        rest = PurePosixPath(row.source.replace("\\", "/")).parts[common:]
        out.append(f"{'/'.join(rest)}::{row.case.name}")
    return out


def _rows_of(cases: Cases | Iterable[ReportRow]) -> list[ReportRow]:
    if isinstance(cases, CaseResult):
        return [ReportRow(cases, None, None)]
    out = []
    for item in cases:  # type: ignore[union-attr]
        out.append(item if isinstance(item, ReportRow) else ReportRow(item, None, None))
    return out


def compare(
    base: Cases | Iterable[ReportRow],
    candidate: Cases | Iterable[ReportRow],
    *,
    alpha: float = 0.05,
    min_effect: float = 0.0,
    base_label: str = "base",
    candidate_label: str = "candidate",
) -> Comparison:
    """Compare two batches of case results (or report rows, which carry the record's source).

    Args:
        base, candidate: The two batches.
        alpha: The significance level of a regression (default 0.05).
        min_effect: The smallest fall in pass rate (a share, 0.05 = 5 points) that counts.
        base_label, candidate_label: The names shown in the reports.

    Raises:
        ValueError: ``alpha`` not in (0, 1) or ``min_effect`` not in [0, 1].
    """
    if isinstance(alpha, bool) or not 0 < alpha < 1:
        raise ValueError(f"'alpha' must be in (0, 1) (got {alpha!r})")
    if isinstance(min_effect, bool) or not 0 <= min_effect <= 1:
        raise ValueError(f"'min_effect' must be a share in [0, 1] (got {min_effect!r})")
    sides = (_rows_of(base), _rows_of(candidate))
    # per case id: its verdicts; per check name: per case id, its statuses
    verdicts: list[dict[str, list[bool]]] = [{}, {}]
    checks: list[dict[str, dict[str, list[bool]]]] = [{}, {}]
    trials: list[dict[str, list[CaseResult]]] = [{}, {}]
    for side, rows in enumerate(sides):
        ids = case_ids(rows)
        for row, case_id in zip(rows, ids, strict=True):
            verdicts[side].setdefault(case_id, []).append(row.case.verdict is Verdict.PASSED)
            trials[side].setdefault(case_id, []).append(row.case)
            seen: dict[str, int] = {}
            for result in row.case.results:
                seen[result.name] = seen.get(result.name, 0) + 1
                if result.status in _LEFT_OUT:
                    continue
                name = (
                    result.name if seen[result.name] == 1 else f"{result.name}#{seen[result.name]}"
                )
                per_case = checks[side].setdefault(name, {})
                per_case.setdefault(case_id, []).append(result.status is Status.PASS)
    out = [_change(ALL_CASES, verdicts[0], verdicts[1], alpha, min_effect)]
    for name in sorted(set(checks[0]) | set(checks[1])):
        out.append(
            _change(name, checks[0].get(name, {}), checks[1].get(name, {}), alpha, min_effect)
        )
    repeated = []
    for case_id in sorted(set(trials[0]) & set(trials[1])):
        k = min(len(trials[0][case_id]), len(trials[1][case_id]))
        if k > 1:
            repeated.append(
                TrialsChange(
                    case_id,
                    k,
                    TrialsResult.from_cases(trials[0][case_id]),
                    TrialsResult.from_cases(trials[1][case_id]),
                )
            )
    return Comparison(tuple(out), tuple(repeated), alpha, min_effect, base_label, candidate_label)


def _change(
    name: str,
    base: dict[str, list[bool]],
    candidate: dict[str, list[bool]],
    alpha: float,
    min_effect: float,
) -> RateChange:
    b = Rate(sum(sum(v) for v in base.values()), sum(len(v) for v in base.values()))
    c = Rate(sum(sum(v) for v in candidate.values()), sum(len(v) for v in candidate.values()))
    if b.n and c.n:
        difference = c.k / c.n - b.k / b.n
        low, high = newcombe(c.k, c.n, b.k, b.n)
        p_value = fisher_exact(b.k, b.n, c.k, c.n, "greater")
        regression = p_value < alpha and -difference >= min_effect and difference < 0
        interval: tuple[float, float] | None = (low, high)
    else:
        difference, interval, p_value, regression = None, None, 1.0, False
    to_fail, to_pass = [], []
    for case_id in sorted(set(base) & set(candidate)):
        was, now = all(base[case_id]), all(candidate[case_id])
        if was and not now:
            to_fail.append(case_id)
        elif now and not was:
            to_pass.append(case_id)
    return RateChange(
        name, b, c, difference, interval, p_value, regression, tuple(to_fail), tuple(to_pass)
    )


__all__ = [
    "ALL_CASES",
    "Comparison",
    "Rate",
    "RateChange",
    "TrialsChange",
    "case_ids",
    "compare",
    "fisher_exact",
    "newcombe",
    "wilson",
]
