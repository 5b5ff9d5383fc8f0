"""The commands that start from traces rather than a suite: ``scan`` (findings, docs/scan.md),
``infer`` (a suite mined from trusted runs) and ``compare`` (two batches, statistically;
docs/from-traces.md).

``scan`` reads every trace twice, once for the batch's outlier bounds and once for the
findings, so memory stays flat whatever the number of runs; the report is the one ``check``
writes, one case per run, and a last line counts the runs each finding fired on. ``infer``
reads the runs into memory (every mined check is evaluated on every run) and writes a native
suite file.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import IO, Any

from agent_asserts._files import write_atomic
from agent_asserts.batch import load_error_text, load_record
from agent_asserts.cli import EXIT_FAILED, EXIT_INPUT, EXIT_OK
from agent_asserts.cli.check import Problems, exit_code, exit_rule, load_suites, report_format
from agent_asserts.cli.support import format_problem, iter_record_inputs, record_files, use_color
from agent_asserts.comparison import compare
from agent_asserts.errors import LoadError
from agent_asserts.findings import ScanConfig, batch_bounds, findings_fired, run_metrics
from agent_asserts.findings import scan_record as scan_one
from agent_asserts.matching.values import plural
from agent_asserts.mining import infer
from agent_asserts.report import ReportRow, render, tally_line, write_report
from agent_asserts.serialization import read_json_report


def known_record_format(args: argparse.Namespace, problems: Problems) -> bool:
    """False (and a problem) when ``--record-format`` names no registered format."""
    unknown = format_problem(args.record_format)
    if unknown is not None:
        problems.add(f"--record-format: {unknown}")
    return unknown is None


def written(path: str, text: str, what: str, problems: Problems) -> bool:
    """Write ``text`` to ``path`` atomically; False (and a problem naming ``what``) when it
    cannot be written."""
    try:
        write_atomic(Path(path), text)
    except OSError as exc:
        problems.add(f"cannot write {what} to {path}: {exc.strerror or exc}")
        return False
    return True


def trace_files(specs: list[str], problems: Problems, rows: list[ReportRow]) -> list[Path]:
    """The trace files of file, folder and glob ``specs``; one that matches none is a problem
    (and a row in ``rows``)."""
    files: list[Path] = []
    for spec in specs:
        found = record_files(spec)
        if not found:
            rows += problems.add(f"no trace file matches {spec!r}", source=spec)
        files.extend(found)
    return files


def scan_config(args: argparse.Namespace) -> ScanConfig:
    """The configuration of the command line: the ``--config`` file, then the flags.

    Raises:
        LoadError: the config file's problems, with their positions.
        ValueError: an unknown finding name or a bad setting on the command line.
    """
    config = ScanConfig.load(args.config) if args.config else ScanConfig()
    for severity in ("off", "soft", "gate"):
        names = getattr(args, f"as_{severity}")
        config = config.with_severity(names, severity)
    settings: dict[str, Any] = {}
    if args.loop_times is not None:
        settings["loop_times"] = args.loop_times
    if args.outlier_k is not None:
        settings["outlier_k"] = args.outlier_k
    if settings:
        config = ScanConfig(**{**_fields(config), **settings})
    return config


def _fields(config: ScanConfig) -> dict[str, Any]:
    return {
        "severities": config.severities,
        "loop_times": config.loop_times,
        "loop_longest": config.loop_longest,
        "acknowledged": config.acknowledged,
        "outlier_k": config.outlier_k,
        "outlier_min_runs": config.outlier_min_runs,
    }


def run_scan(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """The ``scan`` subcommand."""
    problems = Problems(err)
    try:
        fmt = report_format(args)
        config = scan_config(args)
    except (LoadError, ValueError) as exc:
        problems.add(str(exc))
        return EXIT_INPUT
    if not known_record_format(args, problems):
        return EXIT_INPUT
    rows: list[ReportRow] = []
    files = trace_files(args.runs, problems, rows)
    # first pass: the batch's metrics (a trace that does not load is reported in the second)
    metrics = []
    for item in iter_record_inputs(files, args.record_format):
        try:
            metrics.append(run_metrics(load_record(item)))
        except Exception:
            continue
    bounds = batch_bounds(metrics, k=config.outlier_k, min_runs=config.outlier_min_runs)
    keep = fmt in ("html", "json")
    for item in iter_record_inputs(files, args.record_format):
        try:
            record = load_record(item)
        except Exception as exc:  # one unreadable trace never stops the others
            rows += problems.add(
                load_error_text("the record", item.source, exc), source=item.source
            )
            continue
        case = scan_one(record, config=config, bounds=bounds, name=item.source)
        rows.append(ReportRow(case, record if keep else None, item.source))
    code = exit_code(rows, problems.count, args.fail_on == "scored")
    rule = exit_rule(code, rows, args.fail_on == "scored")
    fired = findings_fired(row.case for row in rows)
    summary = "findings: " + (
        ", ".join(f"{name} in {n} of {len(rows)} runs" for name, n in fired.items()) or "none"
    )
    if args.output:
        try:
            write_report(args.output, rows, fmt=fmt)
        except OSError as exc:
            problems.add(f"cannot write the report to {args.output}: {exc.strerror or exc}")
            return EXIT_INPUT
        out.write(f"{rule}\n{tally_line([r.case for r in rows])}\n{summary}\n")
        out.write(f"report written to {os.fspath(args.output)}\n")
        return code
    options: dict[str, Any] = {"color": use_color(out)} if fmt == "text" else {}
    text = render(rows, fmt, **options).rstrip("\n")
    if fmt == "text":
        body, _, tally = text.rpartition("\n")
        text = f"{body}\n{rule}\n{tally}\n{summary}" if body else f"{rule}\n{tally}\n{summary}"
    out.write(text + "\n")
    return code


def run_infer(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """The ``infer`` subcommand."""
    problems = Problems(err)
    if not known_record_format(args, problems):
        return EXIT_INPUT
    files = trace_files(args.runs, problems, [])
    records = []
    for item in iter_record_inputs(files, args.record_format):
        try:
            records.append(load_record(item))
        except Exception as exc:  # one unreadable trace never stops the others
            problems.add(load_error_text("the record", item.source, exc))
    if not records:
        problems.add("no run could be read: nothing to infer from")
        return EXIT_INPUT
    try:
        suite = infer(
            records, min_support=args.min_support, margin=args.margin, group_by=args.group_by
        )
    except ValueError as exc:
        problems.add(str(exc))
        return EXIT_INPUT
    json_out = bool(args.output) and Path(args.output).suffix.lower() == ".json"
    text = suite.to_json() if json_out else suite.to_yaml()
    checks = sum(len(case.checks) for case in suite.cases)
    cases = plural(len(suite.cases), "case")
    summary = f"inferred {plural(checks, 'check')} in {cases} from {plural(len(records), 'run')}"
    if args.output:
        if not written(args.output, text, "the suite", problems):
            return EXIT_INPUT
        out.write(f"{summary}; written to {os.fspath(args.output)}\n")
    else:
        out.write(text)
        err.write(summary + "\n")
    return EXIT_INPUT if problems.count else EXIT_OK


def _batch(
    spec: str, args: argparse.Namespace, suites: list[Any], problems: Problems
) -> list[ReportRow] | None:
    """The rows of one side of ``compare``: a JSON report, or the suites over a run folder."""
    path = Path(spec)
    if path.is_file() and path.suffix.lower() == ".json" and not args.suite:
        try:
            return list(read_json_report(path))
        except (OSError, ValueError) as exc:
            problems.add(f"{spec}: cannot read the JSON report: {exc}")
            return None
    if not args.suite:
        problems.add(f"{spec}: not a JSON report; give --suite SUITE to check a folder of runs")
        return None
    files = trace_files([spec], problems, [])
    if not files:
        return None
    rows: list[ReportRow] = []
    for item in iter_record_inputs(files, args.record_format):
        try:
            record = load_record(item)
        except Exception as exc:  # one unreadable trace never stops the others
            problems.add(load_error_text("the record", item.source, exc))
            continue
        for suite in suites:
            rows.extend(ReportRow(case, None, item.source) for case in suite.evaluate(record))
    return rows


def run_compare(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """The ``compare`` subcommand."""
    problems = Problems(err)
    if not known_record_format(args, problems):
        return EXIT_INPUT
    fmt = args.format or _compare_format(args.output)
    suites = load_suites(args.suite, None, problems) if args.suite else []
    if args.suite and not suites:
        return EXIT_INPUT
    base = _batch(args.base, args, suites, problems)
    candidate = _batch(args.candidate, args, suites, problems)
    if base is None or candidate is None:
        return EXIT_INPUT
    try:
        result = compare(
            base,
            candidate,
            alpha=args.alpha,
            min_effect=args.min_effect,
            base_label=args.base,
            candidate_label=args.candidate,
        )
    except ValueError as exc:
        problems.add(str(exc))
        return EXIT_INPUT
    if fmt == "json":
        text = result.to_json()
    elif fmt == "html":
        text = result.html([r.case for r in base], [r.case for r in candidate])
    else:
        text = result.markdown()
    if args.output:
        if not written(args.output, text, "the comparison", problems):
            return EXIT_INPUT
        n = len(result.regressions)
        out.write(f"{plural(n, 'regression') if n else 'no regression'}; "
                  f"written to {os.fspath(args.output)}\n")  # fmt: skip
    else:
        out.write(text)
    if problems.count:
        return EXIT_INPUT
    return EXIT_FAILED if result.regressions else EXIT_OK


def _compare_format(output: str | None) -> str:
    suffix = Path(output).suffix.lower() if output else ""
    return {".json": "json", ".html": "html", ".htm": "html"}.get(suffix, "markdown")


__all__ = [
    "known_record_format",
    "run_compare",
    "run_infer",
    "run_scan",
    "scan_config",
    "trace_files",
    "written",
]
