"""The ``agent-asserts`` command (also ``python -m agent_asserts``).

Subcommands: ``check`` (run suites on records and report), ``record`` (print a trace file as
the checks see it), ``validate`` (load suite files and report every problem of every file),
``schema`` (print the native dialect's JSON Schema), ``convert`` (print a suite of any dialect
in the native one) and ``watch`` (evaluate record files as they appear; see
:mod:`agent_asserts.cli.watch`). Exit codes: 0 everything passed (``SCORED`` counts as passing
unless ``--fail-on scored``), 1 a case failed, 2 an input could not be loaded or the report
could not be written (everything that could be loaded is still evaluated and reported, and
each input that could not is in the report as ``FAILED`` cases carrying the load error). See
docs/cli.md.

>>> main(["schema"]) == 0  # doctest: +ELLIPSIS
{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
...
True
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import IO

from agent_asserts._version import __version__
from agent_asserts.cli import watch
from agent_asserts.cli.check import EXIT_INPUT, EXIT_OK, Problems, load_suites, run_check
from agent_asserts.cli.interrupt import EXIT_INTERRUPTED
from agent_asserts.cli.limits import add_judge_option, add_time_limits
from agent_asserts.cli.record import add_record_parser, run_record
from agent_asserts.loaders import schema
from agent_asserts.report import formats

FORMAT_CHOICES = ("text", "json", "junit", "html", "markdown")
"""The built-in report formats, in the order ``--help`` lists them."""


def _format_choices() -> tuple[str, ...]:
    """The built-in formats, then those added by ``register_renderer`` before the parser."""
    return (*FORMAT_CHOICES, *(name for name in formats() if name not in FORMAT_CHOICES))


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the command."""
    parser = argparse.ArgumentParser(
        prog="agent-asserts",
        description="Check recorded AI-agent runs against suite files.",
    )
    parser.add_argument("--version", action="version", version=f"agent_asserts {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    check = commands.add_parser("check", help="run suites on records and report")
    check.add_argument("suites", nargs="+", metavar="SUITE", help="suite files")
    check.add_argument(
        "--record", action="append", default=[], metavar="FILE|DIR|GLOB",
        help="records to check (repeatable); default: the records the suites name",
    )  # fmt: skip
    check.add_argument(
        "--format", choices=_format_choices(), default=None,
        help="report format (default: from --output's extension, else text)",
    )  # fmt: skip
    check.add_argument("--output", metavar="FILE", help="write the report to FILE")
    check.add_argument(
        "--fail-on", choices=("scored",), default=None,
        help="also exit 1 when a case is SCORED (a soft check failed)",
    )  # fmt: skip
    add_judge_option(check)
    check.add_argument(
        "--skip-judged", action="store_true",
        help="run only deterministic checks: judged checks are not_applicable (not run)",
    )  # fmt: skip
    check.add_argument(
        "--record-format", default="auto", metavar="NAME",
        help="the trace format of --record files (default: auto, detected from the data)",
    )  # fmt: skip
    add_record_parser(commands)
    add_time_limits(check)
    validate = commands.add_parser("validate", help="load suite files and report every problem")
    validate.add_argument("suites", nargs="+", metavar="SUITE")
    commands.add_parser("schema", help="print the native dialect's JSON Schema")
    convert = commands.add_parser("convert", help="print a suite in another dialect")
    convert.add_argument("suite", metavar="SUITE")
    convert.add_argument("--to", choices=("native",), default="native", help="target dialect")
    watch.add_parser(commands)
    return parser


def run_validate(paths: list[str], out: IO[str]) -> int:
    """Load every file; print ``ok`` or every problem of each; exit 2 when one is invalid."""
    bad = Problems(out)
    for path in paths:
        before = bad.count
        suites = load_suites([path], None, bad)
        if bad.count == before:
            suite = suites[0]
            n = len(suite.cases)
            out.write(f"ok: {path} ({suite.dialect}, {n} case{'s' if n != 1 else ''})\n")
    valid = len(paths) - bad.count
    out.write(
        f"{len(paths)} file{'s' if len(paths) != 1 else ''}: {valid} valid, {bad.count} invalid\n"
    )
    return EXIT_INPUT if bad.count else EXIT_OK


def run_schema(out: IO[str]) -> int:
    """Print the native JSON Schema (the shipped file, or generated when it is absent)."""
    if schema.SCHEMA_PATH.is_file():
        out.write(schema.SCHEMA_PATH.read_text(encoding="utf-8"))
    else:
        out.write(schema.schema_text())
    return EXIT_OK


def run_convert(path: str, out: IO[str], err: IO[str]) -> int:
    """Print the suite in the native dialect: YAML when PyYAML is installed, else JSON."""
    problems = Problems(err)
    suites = load_suites([path], None, problems)
    if not suites:
        return EXIT_INPUT
    data = suites[0].to_dict()
    try:
        import yaml
    except ImportError:
        out.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    else:
        out.write(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command with ``argv`` (default ``sys.argv[1:]``) and return the exit code.

    Usage errors exit 2 (through ``SystemExit``, as argparse does).
    """
    args = build_parser().parse_args(argv)
    out, err = sys.stdout, sys.stderr
    try:
        return _run(args, out, err)
    except KeyboardInterrupt:  # anywhere else: one line, no traceback
        err.write(f"interrupted: agent-asserts {args.command} stopped\n")
        return EXIT_INTERRUPTED


def _run(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    if args.command == "check":
        return run_check(args, out, err)
    if args.command == "record":
        return run_record(args, out, err)
    if args.command == "validate":
        return run_validate(args.suites, out)
    if args.command == "schema":
        return run_schema(out)
    if args.command == "watch":
        return watch.run_watch(args, out, err)
    return run_convert(args.suite, out, err)


__all__ = ["FORMAT_CHOICES", "build_parser", "main", "run_convert", "run_schema", "run_validate"]
