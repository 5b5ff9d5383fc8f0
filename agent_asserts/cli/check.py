"""``agent-asserts check``: run suites on records and report, and stop cleanly on Ctrl-C.

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
"""

from __future__ import annotations

import argparse
import os
import signal
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Final

import attrs

from agent_asserts._text import escape_controls
from agent_asserts.batch import load_error_text, load_record, unloadable_cases
from agent_asserts.cli.support import (
    Progress,
    as_suite_input,
    iter_record_inputs,
    judge_of,
    limit_keywords,
    record_files,
    scan_records,
    use_color,
)
from agent_asserts.loaders import load
from agent_asserts.record import RecordError
from agent_asserts.record.adapters import get_format
from agent_asserts.report import ReportRow, format_for_path, render, tally_line, write_report
from agent_asserts.results import Verdict

if TYPE_CHECKING:
    from agent_asserts.loaders import Suite
    from agent_asserts.record import TrialRecord
    from agent_asserts.report import ReportRow


# -- check -------------------------------------------------------------------------------------

EXIT_OK, EXIT_FAILED, EXIT_INPUT = 0, 1, 2


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
    args: argparse.Namespace, suites: list[Suite], judge: Any, keep: bool,
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
            err.write(f"note: {path}: skipped, it is a suite file, not a record\n")
        if not found and not scan.dangling:
            rows += problems.add(f"no record file matches {spec!r}", source=spec)
        files.extend(scan.records)
    names = [case.name for suite in suites for case in suite.cases]
    known = None if any(f.suffix == ".jsonl" for f in files) else len(files)
    progress = problems.progress = Progress(known, err)
    for item in iter_record_inputs(files, args.record_format):
        try:
            record = load_record(item)
        except Exception as exc:
            error = load_error_text("the record", item.source, exc)
            rows += problems.add(error, source=item.source, names=names)
            continue
        finally:
            progress.advance()
        for suite in suites:
            rows.extend(
                ReportRow(r, record if keep else None, item.source)
                for r in suite.evaluate(record, judge=judge, **limit_keywords(args))
            )
    progress.close()
    problems.progress = None
    return rows


def _on_own_records(
    args: argparse.Namespace,
    suites: list[Suite],
    judge: Any,
    keep: bool,
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
            try:
                record = cache.get(source) or case.load_record()
            except Exception as exc:
                error = load_error_text("the record", source, exc)
                rows += problems.add(error, source=source, names=[case.name])
                continue
            cache[source] = record
            rows.append(
                ReportRow(
                    case.evaluate(record, judge=judge, **limit_keywords(args)),
                    record if keep else None,
                    source,
                )
            )
    return rows


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


def _report_format(args: argparse.Namespace) -> str:
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
        fmt = _report_format(args)
    except ValueError as exc:
        problems.add(str(exc))
        return EXIT_INPUT
    try:
        judge = judge_of(args)
    except ValueError as exc:
        problems.add(str(exc))
        return EXIT_INPUT
    if args.record_format != "auto":
        try:
            get_format(args.record_format)
        except RecordError as exc:
            problems.add(f"--record-format: {exc.problems[0].message}")
            return EXIT_INPUT
    keep = fmt in ("html", "json")
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
        out.write(f"{rule}\n{tally_line([r.case for r in rows])}\n")
        out.write(f"report written to {args.output}\n")
    else:
        options: dict[str, Any] = {"color": use_color(out)} if fmt == "text" else {}
        text = render(rows, fmt, **options).rstrip("\n")
        if fmt == "text":  # the rule just above the closing tally line
            body, _, tally = text.rpartition("\n")
            text = f"{body}\n{rule}\n{tally}" if body else f"{rule}\n{tally}"
        out.write(text + "\n")
    return code


# -- interrupt ---------------------------------------------------------------------------------

EXIT_INTERRUPTED: Final = 130


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
                where = f", report written to {args.output}"
            except OSError as exc:
                where = f", the report could not be written: {exc.strerror or exc}"
        else:
            options: dict[str, Any] = {"title": INTERRUPTED_TITLE}
            text = render(rows, fmt, **options)
            out.write(text if text.endswith("\n") else text + "\n")
        n = len(rows)
        err.write(f"interrupted: {n} case{'s' if n != 1 else ''} finished{where}\n")
        err.flush()
    return EXIT_INTERRUPTED


__all__ = [
    "EXIT_FAILED",
    "EXIT_INPUT",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "INTERRUPTED_TITLE",
    "Problems",
    "exit_code",
    "exit_rule",
    "load_suites",
    "report_interrupted",
    "run_check",
    "sigint_ignored",
]
