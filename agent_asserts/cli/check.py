"""The subcommands that read suites and records: ``check`` (and a clean stop on Ctrl-C),
``validate``, ``schema``, ``convert`` and ``record``.

``agent-asserts check``: run suites on records and report.

Every suite runs on every record given with ``--record``; without ``--record``, each case
runs on the record its suite file names. Whatever can be loaded is evaluated and reported.
Whatever cannot (a suite file, a record, a line of a ``.jsonl`` file, a ``--record`` that
matches nothing or reads no record) is printed on stderr, makes the exit code 2, and is in the
report too: as ``FAILED`` cases whose ``error`` says why and whose source names the input,
built as :func:`~agent_asserts.batch.evaluate_many` builds them for unloadable records.

Ctrl-C during ``agent-asserts check``: stop cleanly, report what finished, exit 130.

The cases that finished before the interrupt are reported as usual (``--output`` written
atomically, or the report on stdout) under the title :data:`INTERRUPTED_TITLE`, one line goes
to stderr, and the exit code is :data:`EXIT_INTERRUPTED` (128 + SIGINT, the shell's
convention). A second Ctrl-C while the report is being written is ignored.

``agent-asserts record PATH [--format NAME] [--json]``: show a trace as the checks see it.

Every run of ``PATH`` (a file or folder in any registered format) is read as ``check`` would
read it, then printed: a table of its events (id, kind, agent, turn, name, outcome, duration)
and its parse errors, or with ``--json`` the canonical record (a JSON array when there are
several runs). Exit 0 when everything was read, 2 when the input cannot be read or holds
no run.

>>> import json, pathlib, tempfile
>>> path = pathlib.Path(tempfile.mkdtemp()) / "run.json"
>>> _ = path.write_text(json.dumps({"detailed_trace": ["User Query: hi", "Agent Text: hello"]}))
>>> main_record([str(path)])  # doctest: +ELLIPSIS +NORMALIZE_WHITESPACE
run.json: 2 events, status -, reply 'hello', format ces
id  kind     agent  turn  name   outcome  duration
e0  message  -      1     hi     -        -
e1  message  -      1     hello  -        -
0
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import os
import signal
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Final, NamedTuple

import attrs

from agent_asserts._files import outside, outside_text
from agent_asserts._text import CONTROL, escape_controls, json_escape_controls
from agent_asserts.batch import load_error_text, load_record, unloadable_cases
from agent_asserts.cli import EXIT_FAILED, EXIT_INPUT, EXIT_INTERRUPTED, EXIT_OK, build_parser
from agent_asserts.cli.support import (
    Progress,
    as_suite_input,
    format_problem,
    iter_record_inputs,
    judge_of,
    limit_keywords,
    record_files,
    scan_records,
    use_color,
)
from agent_asserts.loaders import load, schema
from agent_asserts.record import TrialRecord
from agent_asserts.record.event import Event
from agent_asserts.record.reading import folder_files, iter_records
from agent_asserts.report import ReportRow, format_for_path, render, tally_line, write_report
from agent_asserts.results import CaseResult, Verdict, unloaded_suite
from agent_asserts.runner import load_within

if TYPE_CHECKING:
    from agent_asserts.loaders import Suite
    from agent_asserts.record import TrialRecord
    from agent_asserts.report import ReportRow


# -- check -----------------------------------------------------------------------------------------


def _line(value: object) -> str:
    """A name or reason for one line of terminal output, control characters (newlines too)
    escaped (:func:`agent_asserts._text.escape_controls`, the one rule for terminal output).

    >>> _line("runs/\\x1b[2Ja.json")
    'runs/\\\\x1b[2Ja.json'
    """
    return escape_controls(str(value), keep_newlines=False)


class Problems:
    """Input problems: printed to stderr as they are found (above the progress bar, when one
    is drawn), counted for the exit code, and turned into report rows."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.count = 0
        self.progress: Progress | None = None

    def add(
        self, text: str, *, source: str | None = None, names: Iterable[str] = ()
    ) -> list[ReportRow]:
        """Report one problem; return its report rows: one ``FAILED`` case per name in
        ``names`` (the cases that could not run), or one named after ``source``."""
        self.count += 1
        line = f"error: {escape_controls(text)}\n"
        if self.progress is not None:
            self.progress.write(line)
        else:
            self.stream.write(line)
        return [ReportRow(c, None, source) for c in unloadable_cases(text, names, source)]


class Kept(NamedTuple):
    """What a report needs kept of each finished case, besides the case: its record (only
    ``--embed-records``), and whether the report shows the message and description of every
    result (``all_texts``: the JSON and HTML reports) or only of the failed ones (every
    other built-in format: the summary's blocks).

    A result renders its message and description on first read (a lazy text); until then the
    text keeps what it is made from, often events of the case's record, so a report of 1,000
    runs kept the records alive to the end (30,500 of the 34,600 events of the end-to-end
    job, walked again and again by the garbage collector). The texts the report shows are
    rendered as each case finishes, once, as the report would have, and the record goes.

    >>> from agent_asserts._text import LazyText
    >>> from agent_asserts.results import AssertionResult
    >>> from agent_asserts.testing import demo_record
    >>> rendered = []
    >>> lazy = LazyText(lambda: rendered.append("now") or "matched 1 tool calls")
    >>> case = CaseResult("c", "passed", results=[AssertionResult("x", "pass", 1.0, message=lazy)])
    >>> row = Kept(records=False, all_texts=False).row(case, demo_record(), "run.json")
    >>> rendered, row.record, row.source
    ([], None, 'run.json')
    >>> _ = Kept(records=False, all_texts=True).row(case, demo_record(), "run.json")
    >>> rendered
    ['now']
    """

    records: bool
    all_texts: bool

    def row(self, case: CaseResult, record: TrialRecord, source: str | None) -> ReportRow:
        """The report row of ``case``, evaluated on ``record`` read from ``source``."""
        for result in case.results:
            if self.all_texts or result.failed:  # each read renders a text, kept alone
                result.message  # noqa: B018
                result.description  # noqa: B018
        return ReportRow(case, record if self.records else None, source)


def load_suites(
    paths: list[str], judge: Any, problems: Problems, rows: list[ReportRow] | None = None
) -> list[Suite]:
    """Load every suite file; each one that fails is a problem (and a row in ``rows``, when
    given), the others still load."""
    suites = []
    for path in paths:
        try:
            suites.append(load(path, judge=judge))
        except Exception as exc:  # one broken file never stops the others
            failed = problems.add(load_error_text("the suite", path, exc), source=path)
            if rows is not None:  # labelled as a suite in the report ('suite:', not 'record:')
                rows.extend(attrs.evolve(row, case=as_suite_input(row.case)) for row in failed)
    return suites


def _on_given_records(
    args: argparse.Namespace, suites: list[Suite], judge: Any, keep: Kept,
    problems: Problems, err: IO[str], rows: list[ReportRow],
) -> list[ReportRow]:  # fmt: skip
    files = []
    for spec in args.record:
        found = record_files(spec)
        scan = scan_records(found, [spec], args.suites)
        for path in scan.dangling:
            target = os.readlink(path)
            rows += problems.add(
                f"{path}: dangling symlink (its target {target} does not exist)", source=str(path)
            )
        for path in scan.suites:
            err.write(f"note: {_line(path)}: skipped, it is a suite file, not a record\n")
        if not found and not scan.dangling:
            rows += problems.add(f"no record file matches {spec!r}", source=spec)
        files.extend(scan.records)
    names = [case.name for suite in suites for case in suite.cases]
    known = None if any(f.suffix == ".jsonl" for f in files) else len(files)
    progress = problems.progress = Progress(known, err)
    for item in iter_record_inputs(files, args.record_format, timeout=args.timeout):
        try:  # a run of a whole file was read by its input, inside the time limit
            record = (
                item.data
                if isinstance(item.data, TrialRecord)
                else load_within(
                    functools.partial(load_record, item), limit_keywords(args)["timeout"]
                )
            )
        except Exception as exc:
            error = load_error_text("the record", item.source, exc)
            rows += problems.add(error, source=item.source, names=names)
            continue
        finally:
            progress.advance()
        for suite in suites:
            rows.extend(
                keep.row(r, record, item.source)
                for r in suite.evaluate(record, judge=judge, **limit_keywords(args))
            )
    progress.close()
    problems.progress = None
    return rows


def _on_own_records(
    args: argparse.Namespace,
    suites: list[Suite],
    judge: Any,
    keep: Kept,
    problems: Problems,
    rows: list[ReportRow],
) -> list[ReportRow]:
    cache: dict[str, TrialRecord] = {}
    for suite in suites:
        for case in suite.cases:
            if case.record_path is None:
                rows += problems.add(
                    f"{suite.source or suite.name}: case {case.name!r} names no record file "
                    "(add 'record:' to the suite or give --record)",
                    source=suite.source, names=[case.name],
                )  # fmt: skip
                continue
            source = os.fspath(case.record_path)
            roots = record_roots(suite, args)
            if outside(case.record_path, roots):
                where = f"{suite.source or suite.name}: case {case.name!r}"
                rows += problems.add(
                    f"{where}: {outside_text(source, roots)}",
                    source=source, names=[case.name],
                )  # fmt: skip
                continue
            try:
                record = cache.get(source) or load_within(
                    case.load_record, limit_keywords(args)["timeout"]
                )
            except Exception as exc:
                error = load_error_text("the record", source, exc)
                rows += problems.add(error, source=source, names=[case.name])
                continue
            cache[source] = record
            rows.append(
                keep.row(case.evaluate(record, judge=judge, **limit_keywords(args)), record, source)
            )
    return rows


def case_rows(rows: list[ReportRow]) -> list[ReportRow]:
    """The rows of cases, without those of unloadable suites (``metadata["input"] ==
    "suite"``): what the terminal shows and counts, the suites' errors being on stderr once.
    A report written to a file, or in a format other than text, keeps them (labelled
    ``suite:``), so the file says why the exit status is 2.

    >>> from agent_asserts.results import CaseResult
    >>> bad = ReportRow(CaseResult("s.yml", "failed", metadata={"input": "suite"}), None, "s.yml")
    >>> case_rows([bad, ReportRow(CaseResult("a", "passed"), None, None)])[0].case.name
    'a'
    """
    return [row for row in rows if not unloaded_suite(row.case)]


def record_roots(suite: Suite, args: argparse.Namespace) -> list[Path]:
    """The folders a suite's ``record:`` files may be in: the suite file's folder (the current
    folder for a suite without a file), then each ``--allow-records-from``.

    >>> from agent_asserts.loaders import Suite
    >>> args = argparse.Namespace(allow_records_from=["/data/runs"])
    >>> [p.as_posix() for p in record_roots(Suite("s", (), source="suites/a.yml"), args)]
    ['suites', '/data/runs']
    """
    own = Path(suite.source).parent if suite.source else Path()
    return [own, *map(Path, getattr(args, "allow_records_from", None) or ())]


def exit_code(rows: list[ReportRow], problems: int, fail_on_scored: bool) -> int:
    """2 when an input could not be loaded, else 1 when a case failed (or scored, with
    ``--fail-on scored``), else 0.

    >>> exit_code([], 0, False), exit_code([], 1, False)
    (0, 2)
    """
    if problems:
        return EXIT_INPUT
    failing = {Verdict.FAILED, Verdict.SCORED} if fail_on_scored else {Verdict.FAILED}
    return EXIT_FAILED if any(r.case.verdict in failing for r in rows) else EXIT_OK


def exit_rule(code: int, rows: list[ReportRow], fail_on_scored: bool) -> str:
    """The line that says why the exit status is what it is.

    >>> exit_rule(0, [], False)
    'exit status 0: no case FAILED (SCORED cases exit 0 unless --fail-on scored)'
    """
    if code == EXIT_INPUT:
        return "exit status 2: an input could not be loaded or written"
    if fail_on_scored:
        bad = sum(1 for r in rows if r.case.verdict in (Verdict.FAILED, Verdict.SCORED))
        if code == EXIT_FAILED:
            cases = f"{bad} case{'s' if bad != 1 else ''}"
            return f"exit status 1: {cases} FAILED or SCORED (--fail-on scored)"
        return "exit status 0: no case FAILED or SCORED (--fail-on scored)"
    if code == EXIT_FAILED:
        bad = sum(1 for r in rows if r.case.verdict is Verdict.FAILED)
        return f"exit status 1: {bad} case{'s' if bad != 1 else ''} FAILED"
    return "exit status 0: no case FAILED (SCORED cases exit 0 unless --fail-on scored)"


def report_format(args: argparse.Namespace) -> str:
    """``--format``, else the format ``--output``'s extension names, else text.

    Raises:
        ValueError: ``--output`` has an extension no format uses (and no ``--format``).
    """
    if args.format is not None:
        return str(args.format)
    if args.output is None:
        return "text"
    try:
        return format_for_path(args.output)
    except ValueError as exc:
        raise ValueError(f"--output: {exc}, or give --format") from None


def run_check(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """The ``check`` subcommand."""
    problems = Problems(err)
    try:
        fmt = report_format(args)
    except ValueError as exc:
        problems.add(str(exc))
        return EXIT_INPUT
    try:
        judge = judge_of(args)
    except ValueError as exc:
        problems.add(str(exc))
        return EXIT_INPUT
    unknown = format_problem(args.record_format)
    if unknown is not None:
        problems.add(f"--record-format: {unknown}")
        return EXIT_INPUT
    all_texts = fmt in ("html", "json")
    keep = Kept(all_texts and bool(getattr(args, "embed_records", False)), all_texts)
    rows: list[ReportRow] = []
    try:  # Ctrl-C: the finished cases are still reported, marked as interrupted
        suites = load_suites(args.suites, judge, problems, rows)
        if getattr(args, "skip_judged", False):
            suites = [suite.without_judged() for suite in suites]
        if args.record:
            _on_given_records(args, suites, judge, keep, problems, err, rows)
        else:
            _on_own_records(args, suites, judge, keep, problems, rows)
    except KeyboardInterrupt:
        return report_interrupted(args, fmt, rows, out, err, problems)
    code = exit_code(rows, problems.count, args.fail_on == "scored")
    rule = exit_rule(code, rows, args.fail_on == "scored")
    if args.output:
        try:
            write_report(args.output, rows, fmt=fmt)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            if exc.filename and Path(os.fspath(exc.filename)) != Path(args.output):
                reason += f": {os.fspath(exc.filename)}"
            problems.add(f"cannot write the report to {args.output}: {reason}")
            return EXIT_INPUT
        out.write(f"{rule}\n{tally_line([r.case for r in rows])}\n")  # suites counted apart
        out.write(f"report written to {_line(args.output)}\n")
    else:
        options: dict[str, Any] = {"color": use_color(out)} if fmt == "text" else {}
        shown = case_rows(rows) if fmt == "text" else rows
        text = render(shown, fmt, **options).rstrip("\n")
        if fmt == "text":  # the rule just above the closing tally line, which counts the
            body, _, tally = text.rpartition("\n")  # unloadable suites too (not as cases)
            tally = tally_line([r.case for r in rows])
            text = f"{body}\n{rule}\n{tally}" if body else f"{rule}\n{tally}"
        out.write(text + "\n")
    return code


# -- Ctrl-C during check ---------------------------------------------------------------------------


INTERRUPTED_TITLE: Final = "interrupted (Ctrl-C): only the cases that finished are reported"


@contextmanager
def sigint_ignored() -> Iterator[None]:
    """Ignore SIGINT inside the block (main thread only; elsewhere a no-op)."""
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def report_interrupted(
    args: argparse.Namespace,
    fmt: str,
    rows: list[ReportRow],
    out: IO[str],
    err: IO[str],
    problems: Problems,
) -> int:
    """Report the finished ``rows`` as interrupted; print one line; return 130."""
    with sigint_ignored():
        if problems.progress is not None:
            problems.progress.close()
            problems.progress = None
        where = ""
        if args.output:
            try:
                write_report(args.output, rows, fmt=fmt, title=INTERRUPTED_TITLE)
                where = f", report written to {_line(args.output)}"
            except OSError as exc:
                where = f", the report could not be written: {_line(exc.strerror or exc)}"
        else:
            options: dict[str, Any] = {"title": INTERRUPTED_TITLE}
            text = render(case_rows(rows) if fmt == "text" else rows, fmt, **options)
            out.write(text if text.endswith("\n") else text + "\n")
        n = len(case_rows(rows))
        err.write(f"interrupted: {n} case{'s' if n != 1 else ''} finished{where}\n")
        err.flush()
    return EXIT_INTERRUPTED


# -- validate, schema, convert ----------------------------------------------------------------


def run_validate(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """``validate``: load every file; print ``ok`` or every problem of each; exit 2 when one is
    invalid."""
    paths: list[str] = args.suites
    bad = Problems(out)
    for path in paths:
        before = bad.count
        suites = load_suites([path], None, bad)
        if bad.count == before:
            suite = suites[0]
            n = len(suite.cases)
            out.write(f"ok: {_line(path)} ({suite.dialect}, {n} case{'s' if n != 1 else ''})\n")
    valid = len(paths) - bad.count
    out.write(
        f"{len(paths)} file{'s' if len(paths) != 1 else ''}: {valid} valid, {bad.count} invalid\n"
    )
    return EXIT_INPUT if bad.count else EXIT_OK


def run_schema(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """``schema``: print the native JSON Schema (the shipped file, else generated)."""
    if schema.SCHEMA_PATH.is_file():
        out.write(schema.SCHEMA_PATH.read_text(encoding="utf-8"))
    else:
        out.write(schema.schema_text())
    return EXIT_OK


def run_convert(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """``convert``: print the suite in the native dialect: YAML when PyYAML is installed, else
    JSON."""
    problems = Problems(err)
    suites = load_suites([args.suite], None, problems)
    if not suites:
        return EXIT_INPUT
    data = suites[0].to_dict()
    try:
        import yaml
    except ImportError:
        out.write(json_escape_controls(json.dumps(data, indent=2, ensure_ascii=False)) + "\n")
    else:
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
        if CONTROL.search(text):  # YAML writes them raw: every non-ASCII character escaped
            text = yaml.safe_dump(data, sort_keys=False, allow_unicode=False)
        out.write(text)
    return EXIT_OK


# -- record ------------------------------------------------------------------------------------

COLUMNS = ("id", "kind", "agent", "turn", "name", "outcome", "duration")


NAME_WIDTH = 40


def _short(text: str) -> str:
    text = escape_controls(" ".join(text.split()), keep_newlines=False)
    return text if len(text) <= NAME_WIDTH else text[: NAME_WIDTH - 1] + "…"


def event_name(event: Event) -> str:
    """What the table shows as an event's name: the tool, the text, the model, the sub-agent
    (control characters escaped, at most :data:`NAME_WIDTH` characters).

    >>> event_name(TrialRecord.builder().tool("refund").build().events[0])
    'refund'
    >>> event_name(TrialRecord.builder().tool("\\x1b]0;owned\\x07refund").build().events[0])
    '\\\\x1b]0;owned\\\\x07refund'
    """
    payload = event.payload
    for attribute in ("name", "subagent", "model", "skill_id", "text", "summary"):
        value = getattr(payload, attribute, None)
        if value is None and isinstance(payload, dict):
            value = payload.get(attribute)
        if isinstance(value, str) and value:
            return _short(value)
    return _cell(event.event_type)


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}s"
    return escape_controls(str(value), keep_newlines=False)


def event_row(event: Event) -> tuple[str, ...]:
    """One table row: id, kind, agent, turn, name, outcome, duration (every cell escaped)."""
    outcome = getattr(event.payload, "outcome", None)
    if outcome is None and event.kind == "delegation":
        outcome = event.event_type
    duration = getattr(event, "duration", None)
    return (
        _cell(event.event_id),
        _cell(event.kind),
        _cell(getattr(event, "agent", None)),
        _cell(event.turn),
        event_name(event),
        _cell(outcome),
        _cell(float(duration) if duration is not None else None),
    )


def table(record: TrialRecord) -> str:
    """The events of a record as aligned columns, then its parse errors."""
    rows = [COLUMNS, *(event_row(e) for e in record.events)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
    lines = [
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows
    ]
    if record.parse_errors:
        lines.append(f"parse errors ({len(record.parse_errors)}):")
        lines.extend(f"  {escape_controls(str(error))}" for error in record.parse_errors)
    return "\n".join(lines)


def record_format(record: TrialRecord, format: str = "auto") -> str | None:
    """The trace format a record was read in: ``metadata["format"]`` (set by the reader for a
    detected format), else the format named on the command line, else None (not known).

    >>> record_format(TrialRecord.from_dict({"metadata": {"format": "ces"}}))
    'ces'
    >>> record_format(TrialRecord.from_dict({}), "native"), record_format(TrialRecord.from_dict({}))
    ('native', None)
    """
    named = record.metadata.get("format")
    if isinstance(named, str) and named:
        return named
    return None if format == "auto" else format


def _header(label: str, record: TrialRecord, format: str = "auto") -> str:
    reply = record.reply
    shown = repr(_short(reply)) if isinstance(reply, str) else "-"
    status = _cell(record.status)
    line = f"{label}: {len(record.events)} events, status {status}, reply {shown}"
    found = record_format(record, format)
    return line if found is None else f"{line}, format {_cell(found)}"


def _record_files(path: Path) -> list[Path]:
    """The files ``record`` reads: ``path``, or the record files of the folder ``path``."""
    return folder_files(path) if path.is_dir() else [path]


def _file_runs(file: Path, format: str) -> Iterator[tuple[int, bool, TrialRecord]]:
    """(position, whether the file holds several runs, record) for each run of ``file``."""
    records = iter_records(file, format)
    ahead = [r for r in (next(records, None), next(records, None)) if r is not None]
    several = len(ahead) > 1
    for position, record in enumerate(itertools.chain(ahead, records), 1):
        yield position, several, record


class _JsonRuns:
    """``record --json``: one canonical record, or a JSON array when there are several (every
    control character JSON allows raw written as an escape)."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out
        self.pending: str | None = None
        self.count = 0

    def add(self, record: TrialRecord) -> None:
        text = json_escape_controls(json.dumps(record.to_dict(), indent=2, ensure_ascii=False))
        self.count += 1
        if self.count == 1:
            self.pending = text
            return
        if self.pending is not None:
            self.out.write("[\n" + self.pending)
            self.pending = None
        self.out.write(",\n" + text)

    def close(self) -> None:
        if self.pending is not None:
            self.out.write(self.pending + "\n")
        elif self.count:
            self.out.write("\n]\n")


def run_record(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """The ``record`` subcommand: every run of every file, named by file (``FILE#N`` in a file
    holding several); a file that cannot be read is reported on stderr and the others are still
    printed. 0 when every file was read, 2 when one could not be (or no run was read)."""
    path = Path(args.path)
    shown = _line(args.path)
    if not path.exists() and not path.is_symlink():
        err.write(f"agent-asserts record: {shown}: no such file or folder\n")
        return EXIT_INPUT
    unknown = format_problem(args.format)
    if unknown is not None:  # said once, not once per file
        err.write(f"agent-asserts record: --format: {_line(unknown)}\n")
        return EXIT_INPUT
    files = _record_files(path)
    json_runs = _JsonRuns(out) if args.json else None
    count = failed = 0
    for file in files:
        name = file.name if file != path else path.name
        before = count
        try:
            for position, several, record in _file_runs(file, args.format):
                count += 1
                if json_runs is not None:
                    json_runs.add(record)
                    continue
                label = _line(f"{name}#{position}" if several else name)
                out.write(("" if count == 1 else "\n") + _header(label, record, args.format) + "\n")
                out.write(table(record) + "\n")
        except Exception as exc:  # one unreadable file never stops the others
            failed += 1
            reason = str(exc) if isinstance(exc, ValueError | OSError) else f"{exc!r}"
            err.write(
                f"agent-asserts record: cannot read {_line(file)}: {escape_controls(reason)}\n"
            )
        else:
            if count == before:  # read, but it holds no run: said, never skipped silently
                failed += 1
                err.write(f"agent-asserts record: {_line(file)}: no run was read\n")
    if json_runs is not None:
        json_runs.close()
    if not files:
        err.write(f"agent-asserts record: {shown}: no record file\n")
        return EXIT_INPUT
    return EXIT_INPUT if failed else EXIT_OK


def main_record(argv: Sequence[str]) -> int:
    """Run ``agent-asserts record`` with ``argv`` (for tests and doctests)."""
    args = build_parser().parse_args(["record", *argv])
    return run_record(args, sys.stdout, sys.stderr)


__all__ = [
    "COLUMNS",
    "EXIT_FAILED",
    "EXIT_INPUT",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "INTERRUPTED_TITLE",
    "NAME_WIDTH",
    "Problems",
    "case_rows",
    "event_name",
    "event_row",
    "exit_code",
    "exit_rule",
    "load_suites",
    "main_record",
    "record_format",
    "record_roots",
    "report_format",
    "report_interrupted",
    "run_check",
    "run_convert",
    "run_record",
    "run_schema",
    "run_validate",
    "sigint_ignored",
    "table",
]
