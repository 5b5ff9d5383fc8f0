"""The logic behind :mod:`agent_asserts.pytest_plugin`, imported only when a test uses it:
the ``agent_eval`` fixture, case verdicts as test outcomes, suite files as test items, and the
session's terminal summary and report file.

The ``agent_eval`` fixture: a factory of evaluation contexts tied to the running test.

>>> from agent_asserts.testing import DEMO_RECORD
>>> coerce_record(DEMO_RECORD).reply
'Refund issued for order A1049'

From case verdicts to test outcomes, once the test body has run.

:func:`conclude` runs inside the plugin's ``pytest_runtest_call`` wrapper (not at teardown,
which pytest would report as an error): a ``FAILED`` case fails the test with its summary
(summary line first), a ``SKIPPED`` case skips it, ``SCORED`` and ``PASSED`` let it pass.
``RequirementFailed`` and ``Skipped`` raised by ``ctx.require()`` / ``ctx.skip()``, and the
``CaseFailed`` / ``CaseSkipped`` of ``assert_passed()``, are turned into the same outcomes.
Any other exception keeps its own failure; the contexts' cases are still recorded, with the
exception as their error.

Suite files as test items (opt-in with the ini option ``agent_asserts_suites``).

Each case of each suite file matching one of the globs (relative to the rootdir, ``**``
allowed) becomes one test item named after the case; the case runs on the record its file
names (``record:``). A file that does not load becomes one failing item, ``load_error``, whose
failure text is the :class:`~agent_asserts.loaders.LoadError` with every problem and its
position; the session goes on. That item, and a case whose record cannot be read, count as
``FAILED`` cases (with the error) in the terminal summary and the report file.

The end of a session: the ``agent_asserts`` terminal summary section and the report file.

The cases arrive as JSON data on the test reports (so they cross from xdist workers to the
controller) and are rebuilt into report rows here.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs
import pytest

from agent_asserts._files import outside, outside_text
from agent_asserts._text import escape_controls
from agent_asserts._values import MISSING
from agent_asserts.batch import load_error_text, load_record, unloadable_cases
from agent_asserts.cli import MAX_SECONDS
from agent_asserts.context import EvalContext
from agent_asserts.loaders import load
from agent_asserts.pytest_plugin import CONTEXTS, RESULTS
from agent_asserts.record import TrialRecord
from agent_asserts.report import (
    ReportRow,
    format_for_path,
    tally_line,
    write_report,
)
from agent_asserts.report.junit import case_properties
from agent_asserts.results import CaseResult, RequirementFailed, Skipped, Verdict, result_title
from agent_asserts.runner import CaseFailed, CaseSkipped, load_within
from agent_asserts.serialization import case_from_dict

if TYPE_CHECKING:
    from agent_asserts.loaders import Case
    from agent_asserts.record import TrialRecord


# -- the agent_eval fixture ------------------------------------------------------------------------


def coerce_record(
    record: TrialRecord | Mapping[str, Any] | str | os.PathLike[str],
    format: str = "auto",
    *,
    initial_state: Any = None,
    final_state: Any = None,
) -> TrialRecord:
    """A record from a record, trace data (a canonical dict or any registered format) or a
    path to a file holding one run, read in ``format`` (``"auto"``: detected); the states,
    when given (data or a JSON file path), replace the record's."""
    trial = load_record(record, format)
    if initial_state is None and final_state is None:
        return trial
    return trial.with_state(
        initial_state=MISSING if initial_state is None else initial_state,
        final_state=MISSING if final_state is None else final_state,
    )


def resolve_relative(record: Any, test_dir: Path, cwd: Path | None = None) -> Any:
    """A relative record path resolved against the test file's folder, then the current
    folder; anything else as given.

    Raises:
        FileNotFoundError: a relative path found in neither folder (the message names both).

    >>> resolve_relative("nope.json", Path("/tests"), Path("/work"))
    Traceback (most recent call last):
    ...
    FileNotFoundError: agent_eval: no record file 'nope.json': looked for /tests/nope.json ...
    and /work/nope.json (the current folder)
    """
    if not isinstance(record, str | os.PathLike) or Path(record).is_absolute():
        return record
    here = Path.cwd() if cwd is None else cwd
    for base in (test_dir, here):
        candidate = base / record
        if candidate.exists():
            return candidate
    raise FileNotFoundError(
        f"agent_eval: no record file {os.fspath(record)!r}: looked for {test_dir / record} "
        f"(the test file's folder) and {here / record} (the current folder)"
    )


class EvalFactory:
    """``agent_eval(record, format="auto", *, judge=None, name=None, initial_state=None,
    final_state=None) -> EvalContext``; ``record`` is a record, trace data or a file path.

    Each call makes a new context (several per test are allowed); the first is named after
    the test, the next ones ``<test>#2``, ``<test>#3``… unless ``name`` is given. When the
    test body returns, every context's case decides the test outcome.
    """

    def __init__(self, node: pytest.Item) -> None:
        self._node = node

    def __call__(
        self,
        record: TrialRecord | Mapping[str, Any] | str | os.PathLike[str],
        format: str = "auto",
        *,
        judge: Any = None,
        name: str | None = None,
        initial_state: Any = None,
        final_state: Any = None,
    ) -> EvalContext:
        contexts = self._node.stash.setdefault(CONTEXTS, [])
        record = resolve_relative(record, Path(self._node.path).parent)
        trial = coerce_record(record, format, initial_state=initial_state, final_state=final_state)
        if name is None:
            name = self._node.name if not contexts else f"{self._node.name}#{len(contexts) + 1}"
        ctx = EvalContext(trial, judge=judge, name=name)
        contexts.append((ctx, trial))
        return ctx

    def __repr__(self) -> str:
        return f"<agent_eval for {self._node.nodeid}>"


# -- case verdicts as test outcomes ----------------------------------------------------------------

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
    when asked (``--agent-asserts-embed-records``) and the session's report file shows them
    (``.html``, ``.json``)."""
    path = item.config.getoption("agent_asserts_report", None)
    with_records = (
        bool(item.config.getoption("agent_asserts_embed_records", False))
        and bool(path)
        and str(path).lower().endswith((".html", ".htm", ".json"))
    )
    return [
        {
            "case": entry.case.to_dict(),
            "source": item.nodeid,
            "record": entry.record.to_dict() if with_records and entry.record is not None else None,
        }
        for entry in cases
    ]


# -- suite files as test items ---------------------------------------------------------------------

_MATCHED = pytest.StashKey[frozenset[Path]]()


def matched_files(config: pytest.Config, patterns: Sequence[str]) -> frozenset[Path]:
    """Every file the globs match under the rootdir (computed once per session)."""
    found = config.stash.get(_MATCHED, None)
    if found is None:
        root = config.rootpath
        found = frozenset(
            p.resolve() for pattern in patterns for p in root.glob(pattern) if p.is_file()
        )
        config.stash[_MATCHED] = found
    return found


def collect_suite_file(
    file_path: Path, parent: pytest.Collector, patterns: Sequence[str]
) -> SuiteFile | None:
    """The collector of ``file_path`` when one of the globs matches it, else None."""
    if file_path.suffix == ".py" or file_path.resolve() not in matched_files(
        parent.config, patterns
    ):
        return None
    suite_file: SuiteFile = SuiteFile.from_parent(parent, path=file_path)
    return suite_file


class SuiteFile(pytest.File):
    """A suite file: one :class:`SuiteItem` per case, or one :class:`LoadErrorItem`."""

    def collect(self) -> Iterator[pytest.Item]:
        try:
            suite = load(self.path)
        except Exception as exc:  # a broken file is one failing item, never a crash
            message = load_error_text("the suite", self.path.name, exc)
            yield LoadErrorItem.from_parent(self, name="load_error", message=message)
            return
        seen: dict[str, int] = {}
        for case in suite.cases:
            seen[case.name] = seen.get(case.name, 0) + 1
            name = case.name if seen[case.name] == 1 else f"{case.name}[{seen[case.name]}]"
            yield SuiteItem.from_parent(self, name=name, case=case)


def case_timeout(config: pytest.Config) -> float | None:
    """The ``agent_asserts_timeout`` ini option: seconds, ``0`` for no limit.

    Raises:
        pytest.UsageError: It is not a number of seconds >= 0.
    """
    text = str(config.getini("agent_asserts_timeout")).strip()
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < float("inf"):
        raise pytest.UsageError(
            f"agent_asserts_timeout: must be a number of seconds >= 0 (got {text!r})"
        )
    if value > MAX_SECONDS:
        raise pytest.UsageError(
            f"agent_asserts_timeout: must be at most {MAX_SECONDS:.0f} seconds, about 31 years "
            f"(got {text!r})"
        )
    return value or None


class SuiteItem(pytest.Item):
    """One case of a suite file, run on the record its file names: a file inside the suite
    file's folder or pytest's rootdir, or in a folder ``--agent-asserts-allow-records-from``
    names (any other is the item's failure, never read)."""

    def __init__(self, *, case: Case, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case

    def runtest(self) -> None:
        source = None if self.case.record_path is None else str(self.case.record_path)
        allowed = self.config.getoption("agent_asserts_allow_records_from", None) or []
        roots = [self.path.parent, self.config.rootpath, *map(Path, allowed)]
        timeout = case_timeout(self.config)
        try:
            if self.case.record_path is not None and outside(self.case.record_path, roots):
                option = "--agent-asserts-allow-records-from"
                raise ValueError(outside_text(os.fspath(self.case.record_path), roots, option))
            record = load_within(self.case.load_record, timeout)
        except Exception as exc:
            error = load_error_text("the record", source, exc)
        else:
            skip = bool(self.config.getoption("agent_asserts_skip_judged", False))
            result = self.case.evaluate(record, timeout=timeout, skip_judged=skip)
            self.stash.setdefault(RESULTS, []).append(CaseEntry(result, record))
            return
        # Outside the except block: the failure is shown once, not chained to the error.
        fail_unloadable(self, error, source)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, self.name


class LoadErrorItem(pytest.Item):
    """The one failing item of a suite file that could not be loaded."""

    def __init__(self, *, message: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.message = message

    def runtest(self) -> None:
        fail_unloadable(self, self.message, self.parent.nodeid if self.parent else None)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, self.name


def fail_unloadable(item: pytest.Item, error: str, source: str | None) -> None:
    """Fail ``item`` with ``error``, recording it as a ``FAILED`` case named after the item
    (built as ``evaluate_many`` builds the cases of unloadable records), so the terminal
    summary and the report file count it like any other case."""
    item.stash.setdefault(RESULTS, []).extend(
        CaseEntry(case) for case in unloadable_cases(error, [item.name], source)
    )
    pytest.fail(escape_controls(error), pytrace=False)  # printed on the terminal as it is


# -- the session's summary and report file ---------------------------------------------------------

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
    """One line about a case that did not pass: verdict, source, score, what failed (control
    characters escaped).

    >>> from agent_asserts.results import CaseResult
    >>> case_line(ReportRow(CaseResult("a\\x1b[2J", "failed", error="boom"), None, None))
    'FAILED a\\\\x1b[2J: error: boom'
    """
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
    line = f"{case.verdict.value.upper()} {where}:{score}{detail}".rstrip(":; ")
    return escape_controls(line)  # names, sources and errors are data: nothing acts on a terminal


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
        reporter.line(f"report written to {escape_controls(str(written))}")
    problem = config.stash.get(_PROBLEM, None)
    if problem is not None:
        reporter.line(escape_controls(problem), red=True)


__all__ = [
    "CaseEntry",
    "EvalFactory",
    "LoadErrorItem",
    "SuiteFile",
    "SuiteItem",
    "case_line",
    "coerce_record",
    "collect_suite_file",
    "conclude",
    "fail_unloadable",
    "finished_cases",
    "matched_files",
    "payload",
    "properties",
    "rows_from_payloads",
    "terminal_summary",
    "write_session_report",
]
