"""``agent-asserts check``: run suites on records and report.

Every suite runs on every record given with ``--record``; without ``--record``, each case
runs on the record its suite file names. Whatever can be loaded is evaluated and reported;
whatever cannot is reported on stderr and makes the exit code 2.
"""

from __future__ import annotations

import argparse
import os
from typing import IO, TYPE_CHECKING, Any

from agent_asserts.cli_support import Progress, import_judge, iter_record_inputs, record_files
from agent_asserts.results import Verdict

if TYPE_CHECKING:
    from agent_asserts.loaders import Suite
    from agent_asserts.record import TrialRecord
    from agent_asserts.report import ReportRow

EXIT_OK, EXIT_FAILED, EXIT_INPUT = 0, 1, 2


class Problems:
    """Input problems: printed to stderr as they are found, counted for the exit code."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.count = 0

    def add(self, text: str) -> None:
        """Report one problem."""
        self.count += 1
        self.stream.write(f"error: {text}\n")


def load_suites(paths: list[str], judge: Any, problems: Problems) -> list[Suite]:
    """Load every suite file; each one that fails is a problem, the others still load."""
    from agent_asserts.loaders import LoadError, load

    suites = []
    for path in paths:
        try:
            suites.append(load(path, judge=judge))
        except LoadError as exc:
            problems.add(f"cannot load {path}:\n{exc}")
        except (OSError, ImportError, ValueError, TypeError) as exc:
            problems.add(f"cannot load {path}: {exc}")
    return suites


def _on_given_records(
    args: argparse.Namespace, suites: list[Suite], judge: Any, keep: bool,
    problems: Problems, err: IO[str],
) -> list[ReportRow]:  # fmt: skip
    from agent_asserts.report import ReportRow

    files = []
    for spec in args.record:
        found = record_files(spec)
        if not found:
            problems.add(f"no record file matches {spec!r}")
        files.extend(found)
    known = None if any(f.suffix == ".jsonl" for f in files) else len(files)
    progress = Progress(known, err)
    rows: list[ReportRow] = []
    for item in iter_record_inputs(files):
        try:
            record = item.read()
        except Exception as exc:
            problems.add(f"cannot load the record {item.source}: {exc}")
            continue
        finally:
            progress.advance()
        for suite in suites:
            rows.extend(
                ReportRow(r, record if keep else None, item.source)
                for r in suite.evaluate(record, judge=judge)
            )
    progress.close()
    return rows


def _on_own_records(
    suites: list[Suite], judge: Any, keep: bool, problems: Problems
) -> list[ReportRow]:
    from agent_asserts.report import ReportRow

    rows = []
    cache: dict[str, TrialRecord] = {}
    for suite in suites:
        for case in suite.cases:
            if case.record_path is None:
                problems.add(
                    f"{suite.source or suite.name}: case {case.name!r} names no record file "
                    "(add 'record:' to the suite or give --record)"
                )
                continue
            source = os.fspath(case.record_path)
            try:
                record = cache.get(source) or case.load_record()
            except Exception as exc:
                problems.add(f"cannot load the record {source} of case {case.name!r}: {exc}")
                continue
            cache[source] = record
            rows.append(
                ReportRow(case.evaluate(record, judge=judge), record if keep else None, source)
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


def run_check(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """The ``check`` subcommand."""
    from agent_asserts.cli_support import use_color
    from agent_asserts.report import EXTENSIONS, render, tally_line, write_report

    problems = Problems(err)
    judge = None
    if args.judge:
        try:
            judge = import_judge(args.judge)
        except (ImportError, ValueError) as exc:
            problems.add(str(exc))
            return EXIT_INPUT
    fmt = args.format
    if fmt is None:
        suffix = os.path.splitext(args.output)[1].lower() if args.output else ""
        fmt = EXTENSIONS.get(suffix, "text")
    keep = fmt in ("html", "json")
    suites = load_suites(args.suites, judge, problems)
    if args.record:
        rows = _on_given_records(args, suites, judge, keep, problems, err)
    else:
        rows = _on_own_records(suites, judge, keep, problems)
    if args.output:
        write_report(args.output, rows, fmt=fmt)
        out.write(f"{tally_line([r.case for r in rows])}\nreport written to {args.output}\n")
    else:
        options: dict[str, Any] = {"color": use_color(out)} if fmt == "text" else {}
        text = render(rows, fmt, **options)
        out.write(text if text.endswith("\n") else text + "\n")
    return exit_code(rows, problems.count, args.fail_on == "scored")


__all__ = [
    "EXIT_FAILED",
    "EXIT_INPUT",
    "EXIT_OK",
    "Problems",
    "exit_code",
    "load_suites",
    "run_check",
]
