"""Findings with no suite: what is wrong in a batch of runs before anyone writes a check.

:func:`scan` runs a fixed set of *findings* on every record: each is an ordinary check of the
library (``no_loops``, ``no_pending_calls``, ``no_ignored_errors``, ``only_declared_tools``,
``tool_arguments_valid``, ``ended_with_reply``, ``ended_without_error``,
``no_delegation_cycle``) or an outlier bound computed over the batch (steps, tool calls,
tokens, duration above the median plus ``k`` times the scaled median absolute deviation). Each
record gives one :class:`~agent_asserts.results.CaseResult` whose results are named after the
findings, with their evidence ids, so every report format renders them and the verdict
resolver decides: a gate finding that fires fails the case (``agent-asserts scan`` then exits
1), a soft one scores it.

A finding the trace cannot decide (a run with no status, a record that declares no tools) is
``invalid`` with the reason, like any check, but it never fails a scan: it is recorded soft.
Findings that need something the record does not have at all are not run on it (see
:data:`FINDINGS`). Every finding can be switched off or made soft or gate by name
(:class:`ScanConfig`, ``--ignore``/``--soft``/``--gate``, or a ``scan:`` table in a YAML or
JSON file). docs/scan.md lists the findings with an example each.

>>> from agent_asserts.record import TrialRecord
>>> loop = TrialRecord.builder().tool("search", {"q": "x"}).tool("search", {"q": "x"})
>>> rec = loop.tool("search", {"q": "x"}).agent("done").build(status="completed")
>>> [case] = scan([rec])
>>> case.verdict.value, [r.name for r in case.results if r.failed]
('failed', ['loop'])
"""

from __future__ import annotations

import math
import os
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

import attrs

from agent_asserts._text import did_you_mean
from agent_asserts._values import MISSING
from agent_asserts.checks.base import Check
from agent_asserts.checks.events import NoDelegationCycle
from agent_asserts.checks.outcome import EndedWithoutError, EndedWithReply
from agent_asserts.checks.tools import MaxToolCalls, OnlyDeclaredTools
from agent_asserts.checks.traces import (
    MaxSteps,
    RunDurationAtMost,
    ToolArgumentsValid,
    TotalTokensAtMost,
)
from agent_asserts.checks.trajectory import (
    ACKNOWLEDGED,
    NoIgnoredErrors,
    NoLoops,
    NoPendingCalls,
)
from agent_asserts.context import EvalContext
from agent_asserts.loaders.collector import ProblemCollector
from agent_asserts.loaders.nodes import MappingNode, Node, ScalarNode
from agent_asserts.loaders.source import parse_data, parse_file
from agent_asserts.matching.scalar import compile_regex
from agent_asserts.outcome import Outcome
from agent_asserts.results import CaseResult
from agent_asserts.status import Status

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord

SEVERITIES: Final = ("gate", "soft", "off")
METRICS: Final = ("steps", "tool_calls", "tokens", "duration")
MAD_SCALE: Final = 1.4826  # the median absolute deviation of a normal sample, in sigmas
MEAN_DEVIATION_SCALE: Final = math.sqrt(math.pi / 2)  # the same for the mean absolute deviation


# -- the metrics of a run and the batch's bounds -----------------------------------------------


def run_metrics(record: TrialRecord) -> dict[str, float | None]:
    """The four numbers outliers are looked for in; None where the record does not say.

    ``tokens`` is the run's total token count (recorded, or the sum over the model calls);
    ``duration`` the time from the first event to the end of the last, in seconds.

    >>> from agent_asserts.testing import demo_record
    >>> run_metrics(demo_record())
    {'steps': 4, 'tool_calls': 2, 'tokens': 1020, 'duration': None}
    """
    usage = record.run_usage
    tokens = None if usage is None else usage.total_tokens
    recorded = record.surfaces is None or "tool_call" in record.surfaces
    timeline = record.timeline
    return {
        "steps": record.steps,
        "tool_calls": len(record.tool_calls) if recorded else None,
        "tokens": tokens,
        "duration": None if timeline.unreadable else timeline.duration,
    }


@attrs.frozen
class Bound:
    """The outlier bound of one metric over a batch: ``median + k × spread``.

    ``spread`` is the median absolute deviation scaled to a standard deviation (× 1.4826);
    when more than half the runs have the same value (a deviation of 0), the mean absolute
    deviation scaled likewise (× √(π/2)) stands in, so that a few runs far from an otherwise
    constant batch still stand out.

    >>> Bound.of("steps", [4, 5, 5, 6, 5, 30], k=3.5)
    Bound(metric='steps', limit=7.0, median=5.0, spread=0.74..., runs=6, k=3.5)
    """

    metric: str
    limit: float
    median: float
    spread: float
    runs: int
    k: float = 3.5

    @classmethod
    def of(cls, metric: str, values: Sequence[float], *, k: float) -> Bound | None:
        """The bound over ``values``, or None when they are all equal (no outlier possible)."""
        median = statistics.median(values)
        deviations = [abs(v - median) for v in values]
        spread = MAD_SCALE * statistics.median(deviations)
        if spread == 0:
            spread = MEAN_DEVIATION_SCALE * statistics.fmean(deviations)
        if spread == 0:
            return None
        limit = median + k * spread
        if metric != "duration":
            limit = float(math.floor(limit))
        return cls(metric, limit, median, spread, len(values), k)

    def __repr__(self) -> str:
        return (
            f"Bound(metric={self.metric!r}, limit={self.limit!r}, median={self.median!r}, "
            f"spread={self.spread:.2f}..., runs={self.runs}, k={self.k})"
        )


def batch_bounds(
    metrics: Iterable[Mapping[str, float | None]], *, k: float = 3.5, min_runs: int = 5
) -> dict[str, Bound]:
    """The outlier bound of each metric known for at least ``min_runs`` runs of the batch.

    >>> runs = [{"steps": s, "tool_calls": None, "tokens": None, "duration": None}
    ...         for s in (3, 4, 4, 5, 4, 20)]
    >>> {m: b.limit for m, b in batch_bounds(runs).items()}
    {'steps': 6.0}
    """
    values: dict[str, list[float]] = {m: [] for m in METRICS}
    for run in metrics:
        for m in METRICS:
            v = run.get(m)
            if v is not None:
                values[m].append(v)
    bounds = {}
    for m, known in values.items():
        if len(known) >= min_runs:
            bound = Bound.of(m, known, k=k)
            if bound is not None:
                bounds[m] = bound
    return bounds


@attrs.frozen
class Outlier(Check):
    """A run's metric is at most the batch's outlier ``bound`` (the budget check of that metric,
    its message followed by the batch figures).

    >>> from agent_asserts.testing import demo_record
    >>> check = Outlier(Bound("steps", 3.0, 2.0, 0.5, 9, k=2))
    >>> out = check.evaluate(demo_record())
    >>> check.describe(), out.status.value
    ('max_steps(3)', 'fail')
    >>> out.message
    'expected at most 3 steps, got 4 (the batch of 9 runs: median 2 + 2 × spread 0.5)'
    """

    bound: Bound
    method: ClassVar[str] = "outlier"

    def budget(self) -> Check:
        """The budget check the bound is evaluated with."""
        return budget_check(self.bound.metric, self.bound.limit)

    def describe(self) -> str:
        """The budget check's call (``max_steps(12)``)."""
        return self.budget().describe()

    def to_data(self) -> Any:
        """The budget check's native form (a suite can keep the bound)."""
        return self.budget().to_data()

    def evaluate(self, record: TrialRecord) -> Outcome:
        outcome = self.budget().evaluate(record)
        b = self.bound
        note = (
            f" (the batch of {b.runs} runs: median {number_text(b.median)} + {number_text(b.k)} × "
            f"spread {number_text(round(b.spread, 2))})"
        )
        return attrs.evolve(outcome, message=f"{outcome.message}{note}")


def number_text(value: float) -> str:
    """A number as a person writes it: ``4``, not ``4.0``; ``0.74``.

    >>> number_text(4.0), number_text(0.74)
    ('4', '0.74')
    """
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def budget_check(metric: str, limit: float) -> Check:
    """The budget check of a run metric (:data:`METRICS`) at ``limit``: ``max_steps``,
    ``max_tool_calls``, ``total_tokens_at_most`` (whole numbers) or ``run_duration_at_most``.

    >>> budget_check("tool_calls", 12.0).describe(), budget_check("duration", 2.5).describe()
    ('max_tool_calls(12)', 'run_duration_at_most(2.5)')
    """
    if metric == "steps":
        return MaxSteps(int(limit))
    if metric == "tool_calls":
        return MaxToolCalls(int(limit))
    if metric == "tokens":
        return TotalTokensAtMost(int(limit))
    if metric == "duration":
        return RunDurationAtMost(limit)
    raise ValueError(f"unknown run metric {metric!r} (one of {', '.join(METRICS)})")


# -- the findings ----------------------------------------------------------------------------


Builder = Callable[["ScanConfig", Mapping[str, Bound], "TrialRecord"], Check | None]


@attrs.frozen
class Finding:
    """One kind of finding: its name, default severity, what it means, and how its check is
    built for a record (None: the finding does not apply to that record)."""

    name: str
    severity: str
    description: str
    build: Builder = attrs.field(repr=False)


def _declared(record: TrialRecord) -> bool:
    return record.tools is not None


def _records_reply(record: TrialRecord) -> bool:
    return record.reply is not MISSING


def _outlier(metric: str) -> Builder:
    def build(config: ScanConfig, bounds: Mapping[str, Bound], record: TrialRecord) -> Check | None:
        bound = bounds.get(metric)
        if bound is None or run_metrics(record)[metric] is None:
            return None
        return Outlier(bound)

    return build


FINDINGS: Final[Mapping[str, Finding]] = {
    f.name: f
    for f in (
        Finding(
            "loop",
            "gate",
            "the same call (tool and arguments) made k times in a row, or a cycle of calls "
            "repeated k times in a row",
            lambda c, b, r: NoLoops(c.loop_times, longest=c.loop_longest),
        ),
        Finding(
            "pending_call",
            "gate",
            "a tool call that was never answered",
            lambda c, b, r: NoPendingCalls(),
        ),
        Finding(
            "ignored_error",
            "gate",
            "a failed call after which the agent neither retried nor said so",
            lambda c, b, r: NoIgnoredErrors(c.acknowledged),
        ),
        Finding(
            "undeclared_tool",
            "gate",
            "a call of a tool the record does not declare (only when it declares tools)",
            lambda c, b, r: OnlyDeclaredTools() if _declared(r) else None,
        ),
        Finding(
            "invalid_arguments",
            "gate",
            "arguments invalid against the declared tool's schema (only when tools are declared)",
            lambda c, b, r: ToolArgumentsValid() if _declared(r) else None,
        ),
        Finding(
            "no_reply",
            "gate",
            "the run ended without a reply (only when the trace records messages)",
            lambda c, b, r: EndedWithReply() if _records_reply(r) else None,
        ),
        Finding(
            "error_status",
            "gate",
            "the run ended with an error status or recorded run errors (only when the record "
            "has a status or run errors)",
            lambda c, b, r: EndedWithoutError() if r.status is not None or r.errors else None,
        ),
        Finding(
            "delegation_cycle",
            "gate",
            "an agent delegated back to an agent that delegated to it "
            "(only when the run delegates)",
            lambda c, b, r: NoDelegationCycle() if r.positions_of_kind("delegation") else None,
        ),
        Finding("outlier_steps", "soft", "steps above the batch's bound", _outlier("steps")),
        Finding(
            "outlier_tool_calls",
            "soft",
            "tool calls above the batch's bound",
            _outlier("tool_calls"),
        ),
        Finding("outlier_tokens", "soft", "tokens above the batch's bound", _outlier("tokens")),
        Finding(
            "outlier_duration",
            "soft",
            "duration above the batch's bound",
            _outlier("duration"),
        ),
    )
}
"""Every finding by name, in report order."""


# -- configuration ---------------------------------------------------------------------------


def _known_finding(name: str) -> str:
    if name not in FINDINGS:
        raise ValueError(f"unknown finding {name!r}{did_you_mean(name, FINDINGS)}")
    return name


def _severities(value: Mapping[str, str]) -> dict[str, str]:
    out = {}
    for name, severity in value.items():
        _known_finding(name)
        if severity not in SEVERITIES:
            raise ValueError(
                f"finding {name!r}: severity must be one of 'gate', 'soft', 'off' "
                f"(got {severity!r})"
            )
        out[name] = severity
    return out


def _at_least(minimum: float) -> Callable[[object, attrs.Attribute[Any], Any], None]:
    def check(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
        if isinstance(value, bool) or not isinstance(value, int | float) or not value >= minimum:
            raise ValueError(f"{attribute.name!r} must be a number >= {minimum} (got {value!r})")
        if attribute.name != "outlier_k" and not isinstance(value, int):
            raise ValueError(f"{attribute.name!r} must be a whole number (got {value!r})")

    return check


def _pattern(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    compile_regex(value, name=attribute.name)


@attrs.frozen
class ScanConfig:
    """Which findings run, at which severity, with which settings.

    Attributes:
        severities: A finding's severity by name (``gate``, ``soft`` or ``off``), over the
            defaults of :data:`FINDINGS`.
        loop_times: ``loop``: how many times in a row make a loop (default 3).
        loop_longest: ``loop``: the longest cycle of calls looked for (default 4).
        acknowledged: ``ignored_error``: the pattern of a message that says a call failed.
        outlier_k: the outlier bound is ``median + outlier_k × spread`` (default 3.5).
        outlier_min_runs: outliers are looked for in a metric known for at least this many
            runs of the batch (default 5).

    >>> ScanConfig(severities={"loop": "soft"}).severity("loop")
    'soft'
    >>> ScanConfig(severities={"lop": "off"})
    Traceback (most recent call last):
    ...
    ValueError: unknown finding 'lop' (did you mean 'loop'?)
    """

    severities: Mapping[str, str] = attrs.field(factory=dict, converter=_severities)
    loop_times: int = attrs.field(default=3, validator=_at_least(2))
    loop_longest: int = attrs.field(default=4, validator=_at_least(1))
    acknowledged: str = attrs.field(default=ACKNOWLEDGED, validator=_pattern)
    outlier_k: float = attrs.field(default=3.5, validator=_at_least(0))
    outlier_min_runs: int = attrs.field(default=5, validator=_at_least(2))

    def severity(self, name: str) -> str:
        """The severity of finding ``name`` under this configuration."""
        return self.severities.get(name, FINDINGS[_known_finding(name)].severity)

    def with_severity(self, names: Iterable[str], severity: str) -> ScanConfig:
        """This configuration with every finding of ``names`` at ``severity``.

        >>> ScanConfig().with_severity(["loop"], "off").severity("loop")
        'off'
        """
        return attrs.evolve(self, severities={**self.severities, **dict.fromkeys(names, severity)})

    @classmethod
    def from_data(cls, data: Any) -> ScanConfig:
        """Read a ``scan:`` table (or the mapping under it) from parsed YAML/JSON data.

        >>> ScanConfig.from_data({"scan": {"loop": {"times": 4}, "no_reply": "soft"}})
        ScanConfig(severities={'no_reply': 'soft'}, loop_times=4, ...)
        """
        return _read_config(parse_data(data))

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> ScanConfig:
        """Read a YAML or JSON file holding a ``scan:`` table; its problems name the line.

        Raises:
            LoadError: every problem of the file, each with its position.
        """
        return _read_config(parse_file(path))

    def __repr__(self) -> str:
        changed = {
            a.name: getattr(self, a.name)
            for a in attrs.fields(type(self))[1:]
            if getattr(self, a.name) != a.default
        }
        shown = "".join(f", {k}={v!r}" for k, v in changed.items())
        rest = ", ..." if len(changed) < len(attrs.fields(type(self))) - 1 else ""
        return f"ScanConfig(severities={dict(self.severities)!r}{shown}{rest})"


# the settings a finding's table may hold: key -> (ScanConfig field, expected type, minimum)
_SETTINGS: Final[Mapping[str, Mapping[str, tuple[str, type | tuple[type, ...], float | None]]]] = {
    "loop": {"times": ("loop_times", int, 2), "longest": ("loop_longest", int, 1)},
    "ignored_error": {"acknowledged": ("acknowledged", str, None)},
    "outliers": {
        "k": ("outlier_k", (int, float), 0),
        "min_runs": ("outlier_min_runs", int, 2),
    },
}


def _read_config(doc: Node) -> ScanConfig:
    problems = ProblemCollector(doc.file)
    table: Node | None = doc
    if isinstance(doc, MappingNode) and "scan" in doc.items:
        table = doc.items["scan"]
    if not isinstance(table, MappingNode):
        problems.add(table, "must be a mapping of finding names (a 'scan:' table)")
        raise problems.error()
    severities: dict[str, str] = {}
    settings: dict[str, Any] = {}
    for key, node in table.items.items():
        if key not in FINDINGS and key != "outliers":
            hint = did_you_mean(key, [*FINDINGS, "outliers"])
            problems.add(table.key_node(key), f"unknown finding {key!r}{hint}")
            continue
        if isinstance(node, ScalarNode):
            if key == "outliers" or node.value not in SEVERITIES:
                expected = "a table" if key == "outliers" else "'gate', 'soft', 'off' or a table"
                problems.add(node, f"must be {expected} (got {node.value!r})")
            else:
                severities[key] = str(node.value)
            continue
        if not isinstance(node, MappingNode):
            problems.add(node, "must be a severity or a table of settings")
            continue
        allowed = _SETTINGS.get(key, {})
        for name, value in node.items.items():
            if name == "severity" and key != "outliers":
                if isinstance(value, ScalarNode) and value.value in SEVERITIES:
                    severities[key] = str(value.value)
                else:
                    problems.add(value, "must be 'gate', 'soft' or 'off'")
                continue
            if name not in allowed:
                known = ["severity", *allowed] if key != "outliers" else list(allowed)
                problems.add(
                    node.key_node(name), f"unknown setting {name!r}{did_you_mean(name, known)}"
                )
                continue
            field, kind, minimum = allowed[name]
            scalar = value.value if isinstance(value, ScalarNode) else None
            wrong = scalar is None or isinstance(scalar, bool) or not isinstance(scalar, kind)
            if wrong or (minimum is not None and not scalar >= minimum):  # type: ignore[operator]
                shown = scalar if isinstance(value, ScalarNode) else type(value).__name__
                least = "" if minimum is None else f" >= {number_text(minimum)}"
                problems.add(value, f"must be {_kind_text(kind)}{least} (got {shown!r})")
                continue
            if field == "acknowledged":
                try:
                    compile_regex(scalar, name=name)
                except ValueError as exc:
                    problems.add(value, str(exc))
                    continue
            settings[field] = scalar
    if problems:
        raise problems.error()
    try:
        return ScanConfig(severities=severities, **settings)
    except ValueError as exc:
        problems.add(table, str(exc))
        raise problems.error() from None


def _kind_text(kind: type | tuple[type, ...]) -> str:
    if kind is int:
        return "a whole number"
    if kind is str:
        return "a string"
    return "a number"


# -- running a scan --------------------------------------------------------------------------


def scan_record(
    record: TrialRecord,
    *,
    config: ScanConfig | None = None,
    bounds: Mapping[str, Bound] | None = None,
    name: str = "scan",
) -> CaseResult:
    """The findings of one record (outliers only with the batch's ``bounds``).

    >>> from agent_asserts.testing import demo_record
    >>> case = scan_record(demo_record())
    >>> case.verdict.value, len(case.results)
    ('passed', 5)
    """
    config = config or ScanConfig()
    bounds = bounds or {}
    ctx = EvalContext(record, name=name)
    for finding in FINDINGS.values():
        severity = config.severity(finding.name)
        if severity == "off":
            continue
        check = finding.build(config, bounds, record)
        if check is None:
            continue
        handle = ctx.record_check(check, name=finding.name, severity=severity)
        if handle.result.status is Status.INVALID and severity == "gate":
            handle.soft()  # the trace cannot decide it: reported, never failing the scan
    return ctx.result()


def scan(
    records: Iterable[TrialRecord],
    *,
    config: ScanConfig | None = None,
    names: Sequence[str] | None = None,
) -> list[CaseResult]:
    """Scan a batch: the findings of every record, outliers against the batch's own bounds.

    The records are read once into a list (the outlier bounds need the whole batch). ``names``
    names the cases (default ``run#1``, ``run#2``…).

    >>> from agent_asserts.record import TrialRecord
    >>> runs = [TrialRecord.builder().tool("a", {}).agent("ok").build(steps=n, status="completed")
    ...         for n in (3, 4, 4, 5, 4, 40)]
    >>> [c.verdict.value for c in scan(runs)]
    ['passed', 'passed', 'passed', 'passed', 'passed', 'scored']
    """
    config = config or ScanConfig()
    batch = list(records)
    if names is not None and len(names) != len(batch):
        raise ValueError(f"'names' gives {len(names)} names for {len(batch)} records")
    bounds = batch_bounds(
        (run_metrics(r) for r in batch), k=config.outlier_k, min_runs=config.outlier_min_runs
    )
    labels = names or [f"run#{i}" for i in range(1, len(batch) + 1)]
    return [
        scan_record(r, config=config, bounds=bounds, name=label)
        for r, label in zip(batch, labels, strict=True)
    ]


def findings_fired(cases: Iterable[CaseResult]) -> dict[str, int]:
    """How many runs each finding fired on (failed), by finding name, in report order.

    >>> from agent_asserts.record import TrialRecord
    >>> findings_fired(scan([TrialRecord.builder().tool("a", {}, outcome="pending").build()]))
    {'pending_call': 1, 'no_reply': 1}
    """
    fired: dict[str, int] = dict.fromkeys(FINDINGS, 0)
    for case in cases:
        for result in case.results:
            if result.status is Status.FAIL and result.name in fired:
                fired[result.name] += 1
    return {name: n for name, n in fired.items() if n}


__all__ = [
    "FINDINGS",
    "METRICS",
    "Bound",
    "Finding",
    "Outlier",
    "ScanConfig",
    "batch_bounds",
    "budget_check",
    "findings_fired",
    "number_text",
    "run_metrics",
    "scan",
    "scan_record",
]
