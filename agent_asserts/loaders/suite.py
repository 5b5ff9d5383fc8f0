"""The suite model: what a load produces, a :class:`Suite` of :class:`Case` objects holding
check objects, the check methods a suite file may name, and the native form a suite is written
back in.

A case is data: its checks are the same objects the fluent API builds, each in a
:class:`CheckEntry` with the severity, threshold, label and result name the file gave it.
Evaluating a case runs every entry through ``EvalContext.record_check`` inside ``run_case``.

>>> from agent_asserts.checks.traces import MaxSteps
>>> from agent_asserts.testing import demo_record
>>> case = Case("budget", (CheckEntry(MaxSteps(10)), CheckEntry(MaxSteps(1), severity="soft")))
>>> case.evaluate(demo_record()).verdict
<Verdict.SCORED: 'scored'>

The methods a suite file may name come from the check registry and ``VALUE_CHECKS``
(:func:`check_signatures`, :func:`expect_signatures`), with the sibling keys beside them; the
native dialect (:mod:`agent_asserts.loaders.native`) reads entries with them, and the native
writer compacts entries with the same signatures.

>>> sorted(set(check_signatures()) & {"called_tool", "max_steps"})
['called_tool', 'max_steps']
>>> "includes" in expect_signatures(), SIBLINGS
(True, ('severity', 'at_least', 'label', 'name'))

The native form of a loaded suite is what ``Suite.to_dict()`` and ``Case.to_dict()`` write: any
suite, loaded from any dialect, is written back as the native dialect, each entry as its fluent
method, compact when the check has a single positional value.

>>> from agent_asserts.loaders import loads
>>> suite = loads("{name: refunds, checks: [{not_called_tool: refunds_cancel}]}")
>>> suite_to_data(suite)
{'name': 'refunds', 'checks': [{'not_called_tool': 'refunds_cancel'}]}
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from agent_asserts._values import depth_message, format_path, too_deep
from agent_asserts.batch import load_error_text, unloadable_cases
from agent_asserts.checks import all_checks, registry_version
from agent_asserts.checks.data import (
    EXPECT_SOURCES,
    Signature,
    build_check,
    expect_signatures,
    signature,
)
from agent_asserts.checks.expectations import VALUE_CHECKS
from agent_asserts.checks.semantic import not_run_if_judged
from agent_asserts.context import CaseTimeout
from agent_asserts.loaders.collector import ProblemCollector, report_exception
from agent_asserts.loaders.nodes import MappingNode, Node, has_invalid
from agent_asserts.record import TrialRecord
from agent_asserts.results import CaseResult, RequirementFailed, Severity, Skipped
from agent_asserts.runner import run_case

if TYPE_CHECKING:
    from agent_asserts.checks.base import Check
    from agent_asserts.context import EvalContext
    from agent_asserts.record import TrialRecord


SIBLINGS = ("severity", "at_least", "label", "name")
"""Keys beside a check method (inside ``expect:`` for value expectations)."""


def check_signatures() -> dict[str, Signature]:
    """Every registered check method that can be written in a suite file, by name (as the
    registry stands now: a check registered after a first load is seen)."""
    return _check_signatures(registry_version())


@functools.lru_cache(maxsize=1)
def _check_signatures(version: int) -> dict[str, Signature]:
    sigs = {name: signature(cls) for name, cls in all_checks().items()}
    return {name: sig for name, sig in sigs.items() if sig.yaml_ok}


def python_only_methods() -> frozenset[str]:
    """Registered methods that need a Python callable (``events_satisfy``…)."""
    return _python_only_methods(registry_version())


@functools.lru_cache(maxsize=1)
def _python_only_methods(version: int) -> frozenset[str]:
    every = {**all_checks(), **VALUE_CHECKS}
    return frozenset(name for name, cls in every.items() if not signature(cls).yaml_ok)


def read_siblings(entry: MappingNode, problems: ProblemCollector) -> dict[str, Any]:
    """``severity``, ``at_least`` (→ threshold), ``label`` and ``name`` of an entry."""
    out: dict[str, Any] = {}
    if "severity" in entry.items:
        out["severity"] = problems.expect_choice(entry.items["severity"], ("gate", "soft"))
    if "at_least" in entry.items:
        node = entry.items["at_least"]
        value = problems.expect_number(node)
        if value is not None and not 0.0 <= value <= 1.0:
            problems.add(node, f"must be between 0 and 1 (got {value})")
        out["threshold"] = None if value is None else float(value)
    if "label" in entry.items:
        out["label"] = problems.expect_str(entry.items["label"])
    if "name" in entry.items:
        out["name"] = problems.expect_str(entry.items["name"], non_empty=True)
    return out


def construct(
    sig: Signature, kwargs: dict[str, Any], where: Node, problems: ProblemCollector
) -> Any:
    """Build the check with :func:`~agent_asserts.checks.data.build_check` (as the converter
    of :mod:`agent_asserts.serialization` does); a ``TypeError``/``ValueError`` it raises
    becomes a problem."""
    try:
        return build_check(sig, kwargs)
    except (TypeError, ValueError) as exc:
        report_exception(exc, where, problems)
        return None


def entry_to_data(entry: CheckEntry) -> Any:
    """The native form of one entry; compact when the check has a single positional value.

    >>> from agent_asserts.checks.traces import MaxSteps
    >>> from agent_asserts.checks.outcome import Succeeded
    >>> from agent_asserts.loaders.suite import CheckEntry
    >>> entry_to_data(CheckEntry(MaxSteps(5))), entry_to_data(CheckEntry(MaxSteps(5), label="x"))
    ({'max_steps': 5}, {'max_steps': 5, 'label': 'x'})
    >>> entry_to_data(CheckEntry(Succeeded())), entry_to_data(CheckEntry(Succeeded(), name="ok"))
    ('succeeded', {'succeeded': None, 'name': 'ok'})
    """
    data = entry.check.to_data()
    ((method, args),) = data.items()
    siblings: dict[str, Any] = {}
    if entry.severity is not None:
        siblings["severity"] = entry.severity.value
    if entry.threshold is not None:
        siblings["at_least"] = entry.threshold
    if entry.label is not None:
        siblings["label"] = entry.label
    if entry.name is not None:
        siblings["name"] = entry.name
    if method == "expect":
        return {"expect": {**args, **siblings}}
    compact = _compact(method, args)
    if compact is None and not siblings:
        return method
    return {method: compact, **siblings}


def _compact(method: str, args: Any) -> Any:
    """``{n: 5}`` → ``5`` and ``{names: [a, b]}`` → ``[a, b]`` when that reads back the same."""
    sig = check_signatures().get(method)
    if sig is None or not isinstance(args, Mapping):
        return args
    if not args:
        return None
    if len(args) == 1:
        ((key, value),) = args.items()
        if sig.varargs == key and not sig.call_positional:
            return value
        single = sig.call_positional[:1] == (key,) and not sig.varargs
        if single and not isinstance(value, Mapping | list):
            return value
    return args


def case_to_data(case: Case, *, base_dir: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """The native form of one case: ``name``, ``record``, ``metadata`` and ``checks``.

    >>> from agent_asserts.loaders import loads
    >>> suite = loads("{name: refund, metadata: {tags: [smoke]}, checks: [succeeded]}")
    >>> case_to_data(suite.cases[0])
    {'name': 'refund', 'metadata': {'tags': ['smoke']}, 'checks': ['succeeded']}
    """
    out: dict[str, Any] = {"name": case.name}
    if case.record_path is not None:
        out["record"] = _relative(case.record_path, base_dir)
    if case.record_format != "auto":
        out["record_format"] = case.record_format
    if case.metadata:
        out["metadata"] = dict(case.metadata)
    out.update(case.native_fields())
    out["checks"] = [entry_to_data(entry) for entry in case.entries]
    return out


def suite_to_data(
    suite: Suite, *, base_dir: str | os.PathLike[str] | None = None
) -> dict[str, Any]:
    """The native form of a suite: the single-case form when it has one case of its name.

    >>> from agent_asserts.loaders import loads
    >>> suite_to_data(loads("{name: refund, checks: [succeeded]}"))
    {'name': 'refund', 'checks': ['succeeded']}
    """
    if len(suite.cases) == 1 and suite.cases[0].name == suite.name:
        return case_to_data(suite.cases[0], base_dir=base_dir)
    cases = [case_to_data(case, base_dir=base_dir) for case in suite.cases]
    return {"name": suite.name, "cases": cases}


def _loadable(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` when a loader reads it back; a suite file holds at most ``MAX_DEPTH`` levels,
    so a check built in Python around a value nested nearly that deep cannot be written.

    Raises:
        ValueError: Naming the first key path past the limit.
    """
    where = too_deep(data)
    if where is not None:
        raise ValueError(
            f"{format_path(where)}: {depth_message()} once written as a suite document, "
            "which would not load back"
        )
    return data


def _relative(path: Path, base_dir: str | os.PathLike[str] | None) -> str:
    if base_dir is None:
        return path.as_posix()
    try:
        return Path(os.path.relpath(path, base_dir)).as_posix()
    except ValueError:  # another drive on Windows
        return path.as_posix()


def _severity(value: Severity | str | None) -> Severity | None:
    return None if value is None else Severity(value)


def _entries(value: Iterable[CheckEntry]) -> tuple[CheckEntry, ...]:
    return tuple(value)


def _cases(value: Iterable[Case]) -> tuple[Case, ...]:
    """The cases as a tuple; two cases of one name are refused (results, reports and the
    suite's ``to_dict()`` name cases, and a suite file refuses duplicates)."""
    cases = tuple(value)
    seen: set[str] = set()
    for index, case in enumerate(cases):
        name = getattr(case, "name", None)
        if name in seen:
            raise ValueError(f"cases[{index}]: duplicate case name {name!r}")
        if isinstance(name, str):
            seen.add(name)
    return cases


@attrs.frozen
class CheckEntry:
    """One check of a case with how its result is recorded.

    Attributes:
        check: The check object (as built by the fluent API).
        name: Overrides the result name (default: the check's ``default_name()``).
        severity: ``gate`` or ``soft`` (default: the check's own default).
        threshold: The ``at_least`` score threshold.
        label: A free label for reports.
    """

    check: Check
    name: str | None = None
    severity: Severity | None = attrs.field(default=None, converter=_severity)
    threshold: float | None = None
    label: str | None = None

    def record(self, ctx: EvalContext) -> None:
        """Evaluate the check in ``ctx`` and record its result with this entry's options.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.checks.traces import MaxSteps
        >>> from agent_asserts.testing import demo_record
        >>> ctx = EvalContext(demo_record())
        >>> CheckEntry(MaxSteps(2), severity="soft", label="budget").record(ctx)
        >>> r = ctx.results[0]; r.passed, r.severity.value, r.label
        (False, 'soft', 'budget')
        """
        ctx.record_check(
            self.check,
            name=self.name,
            severity=self.severity,
            threshold=self.threshold,
            label=self.label,
        )


def _read_record(path: Path, format: str = "auto") -> TrialRecord:
    return TrialRecord.load(path, format)


@attrs.frozen
class Case:
    """One case of a suite: a name, its check entries, an optional record file and metadata.

    ``judge`` (from ``load(judge=...)``) and ``record_reader`` (how ``record_path`` is read;
    default ``TrialRecord.load``, a dialect may set an adapter's ``read``) do not take part in
    equality. ``record_format`` (``record_format:`` in the suite file) names the record file's
    trace format; when not ``auto`` it is read with ``TrialRecord.load(path, record_format)``.
    """

    name: str
    entries: tuple[CheckEntry, ...] = attrs.field(default=(), converter=_entries)
    record_path: Path | None = None
    metadata: Mapping[str, Any] = attrs.field(factory=dict)
    judge: Any = attrs.field(default=None, eq=False, repr=False)
    record_reader: Callable[[Path], TrialRecord] | None = attrs.field(
        default=None, eq=False, repr=False
    )
    record_format: str = "auto"

    @property
    def checks(self) -> tuple[Check, ...]:
        """The check objects of the entries, in order.

        >>> from agent_asserts.loaders import loads
        >>> loads("checks: [succeeded, {max_steps: 2}]").cases[0].checks
        (Succeeded(), MaxSteps(n=2))
        """
        return tuple(entry.check for entry in self.entries)

    def prepare(self, record: TrialRecord) -> TrialRecord:
        """The record this case's checks read: ``record`` itself (a dialect's case may add
        what its scenario declares, e.g. Mantle's initial memory).

        >>> from agent_asserts.loaders import loads
        >>> from agent_asserts.testing import demo_record
        >>> rec = demo_record()
        >>> loads("checks: [succeeded]").cases[0].prepare(rec) is rec
        True
        """
        return record

    def native_fields(self) -> dict[str, Any]:
        """The keys this case's native form holds beside ``name``, ``record``,
        ``record_format``, ``metadata`` and ``checks``: none for a plain case (a dialect's case
        that prepares its record (:meth:`prepare`) writes what it adds, e.g. Mantle's
        ``initial_memory``), so that the native form loads back as the same case.

        >>> from agent_asserts.loaders import loads
        >>> loads("checks: [succeeded]").cases[0].native_fields()
        {}
        """
        return {}

    def without_judged(self) -> Case:
        """This case with every judged check replaced by one that is ``not_applicable``
        ("judged check not run"; see :mod:`agent_asserts.checks.semantic`).

        >>> from agent_asserts.loaders import loads
        >>> case = loads("checks: [succeeded, {judge: polite}]").cases[0].without_judged()
        >>> [type(c).__name__ for c in case.checks]
        ['Succeeded', 'JudgedNotRun']
        """
        entries = [attrs.evolve(e, check=not_run_if_judged(e.check)) for e in self.entries]
        return attrs.evolve(self, entries=entries)

    def evaluate(
        self,
        record: TrialRecord,
        *,
        judge: Any = None,
        timeout: float | None = None,
        judge_timeout: float | None = None,
        skip_judged: bool = False,
    ) -> CaseResult:
        """Run every entry on ``record``; one check that raises never stops the others.

        ``timeout`` is the case's hard time limit and ``judge_timeout`` bounds each judge
        call (see ``run_case`` and docs/reliability.md). ``skip_judged=True`` runs only the
        deterministic checks: each judged one is recorded as ``not_applicable`` ("judged check
        not run").

        >>> from agent_asserts.loaders import loads
        >>> from agent_asserts.testing import demo_record
        >>> case = loads("{name: refund, checks: [succeeded, {max_steps: 2}]}").cases[0]
        >>> r = case.evaluate(demo_record())
        >>> r.name, r.verdict.value, [x.passed for x in r.results]
        ('refund', 'failed', [True, False])
        """

        entries = self.without_judged().entries if skip_judged else self.entries

        def body(ctx: EvalContext) -> None:
            for entry in entries:
                try:
                    entry.record(ctx)
                except (RequirementFailed, Skipped, CaseTimeout):
                    raise
                except Exception as exc:  # recording itself failed: keep the others going
                    ctx.check(
                        entry.name or entry.check.default_name(),
                        False,
                        f"could not record the check: {type(exc).__name__}: {exc}",
                    )

        result = run_case(
            self.prepare(record),
            body,
            judge=judge or self.judge,
            name=self.name,
            timeout=timeout,
            judge_timeout=judge_timeout,
        )
        if self.metadata:
            result = attrs.evolve(result, metadata={**result.metadata, **self.metadata})
        return result

    def load_record(self) -> TrialRecord:
        """Read this case's ``record_path`` (``ValueError`` when the case names none).

        >>> from agent_asserts.loaders import loads
        >>> loads("{name: refund, checks: [succeeded]}").cases[0].load_record()
        Traceback (most recent call last):
        ...
        ValueError: case 'refund' names no record file (add 'record:')
        """
        if self.record_path is None:
            raise ValueError(f"case {self.name!r} names no record file (add 'record:')")
        if self.record_format != "auto" or self.record_reader is None:
            return _read_record(self.record_path, self.record_format)
        return self.record_reader(self.record_path)

    def to_dict(self, *, base_dir: str | os.PathLike[str] | None = None) -> dict[str, Any]:
        """The native-dialect form of this case (record path relative to ``base_dir``).

        Raises:
            ValueError: A value nested so deeply that the document would pass the limit of
                nesting, and so not load back (naming its key path).

        >>> from agent_asserts.loaders import loads
        >>> case = loads("{name: refund, record: runs/ok.json, checks: [succeeded]}").cases[0]
        >>> case.to_dict(base_dir="runs")
        {'name': 'refund', 'record': 'ok.json', 'checks': ['succeeded']}
        """
        return _loadable(case_to_data(self, base_dir=base_dir))


@attrs.frozen
class Suite:
    """The cases of one suite file, in file order.

    Attributes:
        name: The suite's ``name:`` or the file's stem.
        cases: The cases.
        source: The file it was loaded from (None for text or data).
        dialect: The dialect it was written in.
    """

    name: str
    cases: tuple[Case, ...] = attrs.field(converter=_cases)
    source: str | None = attrs.field(default=None, eq=False)
    dialect: str = attrs.field(default="native", eq=False)

    def without_judged(self) -> Suite:
        """This suite with every judged check replaced by a ``not_applicable`` one.

        >>> from agent_asserts.loaders import loads
        >>> from agent_asserts.testing import demo_record
        >>> suite = loads("checks: [succeeded, {judge: polite}]").without_judged()
        >>> [(r.status.value, r.message) for r in suite.evaluate(demo_record())[0].results]
        [('pass', "status is 'completed'"), ('not_applicable', 'judged check not run')]
        """
        return attrs.evolve(self, cases=[case.without_judged() for case in self.cases])

    def evaluate(
        self,
        record: TrialRecord,
        *,
        judge: Any = None,
        timeout: float | None = None,
        judge_timeout: float | None = None,
        skip_judged: bool = False,
    ) -> list[CaseResult]:
        """Run every case on ``record``; one result per case, in file order.

        ``timeout`` is each case's hard time limit: a case past it is ``FAILED`` and the
        next case still runs (see :meth:`Case.evaluate`). ``skip_judged=True`` records each
        judged check as ``not_applicable`` ("judged check not run"), so the deterministic
        checks decide.

        >>> from agent_asserts.loaders import loads
        >>> from agent_asserts.testing import demo_record
        >>> suite = loads("cases: [{name: ok, checks: [succeeded]}, {name: x, checks: [stopped]}]")
        >>> [(r.name, r.verdict.value) for r in suite.evaluate(demo_record())]
        [('ok', 'passed'), ('x', 'failed')]
        """
        return [
            case.evaluate(
                record,
                judge=judge,
                timeout=timeout,
                judge_timeout=judge_timeout,
                skip_judged=skip_judged,
            )
            for case in self.cases
        ]

    def evaluate_all(self, *, judge: Any = None, skip_judged: bool = False) -> list[CaseResult]:
        """Run every case on its own ``record:`` file, in file order.

        A case without a record file, or whose record cannot be read, gives a ``FAILED``
        result carrying the error; the other cases still run.

        >>> import json, pathlib, tempfile
        >>> from agent_asserts.loaders import load
        >>> from agent_asserts.testing import DEMO_RECORD
        >>> tmp = tempfile.TemporaryDirectory(); run = pathlib.Path(tmp.name, "run.json")
        >>> _ = run.write_text(json.dumps(DEMO_RECORD))
        >>> suite = load({"cases": [{"name": "ok", "record": str(run), "checks": ["succeeded"]},
        ...                         {"name": "no record", "checks": ["succeeded"]}]})
        >>> for r in suite.evaluate_all():
        ...     print(r.name, r.verdict.value, r.error)
        ok passed None
        no record failed cannot load the record: case 'no record' names no record file (add ...)
        >>> tmp.cleanup()
        """
        results: list[CaseResult] = []
        for case in self.cases:
            try:
                record = case.load_record()
            except Exception as exc:
                source = None if case.record_path is None else os.fspath(case.record_path)
                error = load_error_text("the record", source, exc)
                results.extend(unloadable_cases(error, [case.name], source))
                continue
            results.append(case.evaluate(record, judge=judge, skip_judged=skip_judged))
        return results

    def to_dict(self, *, base_dir: str | os.PathLike[str] | None = None) -> dict[str, Any]:
        """The native-dialect form (``record:`` paths relative to ``base_dir``, by default the
        suite file's directory), ready for ``yaml.safe_dump`` or ``json.dump``; it loads back
        equal (``load(suite.to_dict()) == suite``).

        Raises:
            ValueError: A value nested so deeply that the document would pass the limit of
                nesting, and so not load back (naming its key path).

        >>> from agent_asserts.loaders import loads
        >>> suite = loads("{record: runs/ok.json, cases: [{name: a, checks: [succeeded]}]}")
        >>> suite.to_dict(base_dir="runs")
        {'name': 'suite', 'cases': [{'name': 'a', 'record': 'ok.json', 'checks': ['succeeded']}]}
        """
        if base_dir is None and self.source is not None:
            base_dir = Path(self.source).parent
        return _loadable(suite_to_data(self, base_dir=base_dir))


__all__ = [
    "EXPECT_SOURCES",
    "SIBLINGS",
    "Case",
    "CheckEntry",
    "Suite",
    "case_to_data",
    "check_signatures",
    "construct",
    "entry_to_data",
    "expect_signatures",
    "has_invalid",
    "python_only_methods",
    "read_siblings",
    "suite_to_data",
]
