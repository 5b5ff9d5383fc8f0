"""The ``agent-asserts`` command: the parser, the small subcommands and ``record``.

The ``agent-asserts`` command (also ``python -m agent_asserts``).

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
run.json: 2 events, status -, reply 'hello'
id  kind     agent  turn  name   outcome  duration
e0  message  -      1     hi     -        -
e1  message  -      1     hello  -        -
0
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from agent_asserts._version import __version__
from agent_asserts.cli import watch
from agent_asserts.cli.check import (
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_OK,
    Problems,
    load_suites,
    run_check,
)
from agent_asserts.cli.support import add_judge_option, add_time_limits
from agent_asserts.loaders import schema
from agent_asserts.record import TrialRecord
from agent_asserts.record.event import Event
from agent_asserts.record.reading import iter_records
from agent_asserts.report import formats

# -- main --------------------------------------------------------------------------------------

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


# -- record ------------------------------------------------------------------------------------

COLUMNS = ("id", "kind", "agent", "turn", "name", "outcome", "duration")


NAME_WIDTH = 40


def add_record_parser(commands: Any) -> None:
    """Add the ``record`` subcommand to the command's subparsers."""
    record = commands.add_parser("record", help="print a trace file as the checks see it")
    record.add_argument("path", metavar="PATH", help="a trace file or a folder of them")
    record.add_argument(
        "--format", default="auto", metavar="NAME",
        help="the trace format (default: auto, detected from the data)",
    )  # fmt: skip
    record.add_argument("--json", action="store_true", help="print the canonical record(s)")


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= NAME_WIDTH else text[: NAME_WIDTH - 1] + "…"


def event_name(event: Event) -> str:
    """What the table shows as an event's name: the tool, the text, the model, the sub-agent.

    >>> event_name(TrialRecord.builder().tool("refund").build().events[0])
    'refund'
    """
    payload = event.payload
    for attribute in ("name", "subagent", "model", "skill_id", "text", "summary"):
        value = getattr(payload, attribute, None)
        if value is None and isinstance(payload, dict):
            value = payload.get(attribute)
        if isinstance(value, str) and value:
            return _short(value)
    return event.event_type or "-"


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}s"
    return str(value)


def event_row(event: Event) -> tuple[str, ...]:
    """One table row: id, kind, agent, turn, name, outcome, duration."""
    outcome = getattr(event.payload, "outcome", None)
    if outcome is None and event.kind == "delegation":
        outcome = event.event_type
    duration = getattr(event, "duration", None)
    return (
        event.event_id,
        event.kind,
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
        lines.extend(f"  {error}" for error in record.parse_errors)
    return "\n".join(lines)


def _header(label: str, record: TrialRecord) -> str:
    reply = record.reply
    shown = repr(_short(reply)) if reply is not None else "-"
    return f"{label}: {len(record.events)} events, status {record.status or '-'}, reply {shown}"


def run_record(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """The ``record`` subcommand: 0 when every run was read, 2 when the input could not be."""
    path = Path(args.path)
    if not path.exists():
        err.write(f"agent-asserts record: {args.path}: no such file or folder\n")
        return EXIT_INPUT
    count = 0
    several = False
    try:
        records = iter_records(path, args.format)
        ahead = [r for r in (next(records, None), next(records, None)) if r is not None]
        several = len(ahead) > 1
        for count, record in enumerate(itertools.chain(ahead, records), 1):
            if args.json:
                text = json.dumps(record.to_dict(), indent=2, ensure_ascii=False)
                if several:
                    text = ("[\n" if count == 1 else ",\n") + text
                out.write(text if several else text + "\n")
            else:
                label = f"{path.name}#{count}" if several else path.name
                out.write(("" if count == 1 else "\n") + _header(label, record) + "\n")
                out.write(table(record) + "\n")
    except (ValueError, OSError) as exc:
        if args.json and several:
            out.write("\n]\n")
        err.write(f"agent-asserts record: cannot read {args.path}: {exc}\n")
        return EXIT_INPUT
    if not count:
        err.write(f"agent-asserts record: {args.path}: no run was read\n")
        return EXIT_INPUT
    if args.json and several:
        out.write("\n]\n")
    return EXIT_OK


def main_record(argv: Sequence[str]) -> int:
    """Run ``agent-asserts record`` with ``argv`` (for tests and doctests)."""
    parser = argparse.ArgumentParser(prog="agent-asserts")
    add_record_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["record", *argv])
    return run_record(args, sys.stdout, sys.stderr)


__all__ = [
    "FORMAT_CHOICES",
    "add_record_parser",
    "build_parser",
    "event_name",
    "event_row",
    "main",
    "main_record",
    "run_convert",
    "run_record",
    "run_schema",
    "run_validate",
    "table",
]
