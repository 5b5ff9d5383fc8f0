"""The ``agent-asserts`` command (also ``python -m agent_asserts``): its parser and dispatch,
``main`` the entry point; one module per subcommand group (:mod:`agent_asserts.cli.check`,
:mod:`agent_asserts.cli.mining`, :mod:`agent_asserts.cli.watch`), and what they share
(:mod:`agent_asserts.cli.support`).

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

>>> import argparse
>>> parser = argparse.ArgumentParser(); add_time_limits(parser)
>>> args = parser.parse_args([])
>>> args.timeout, args.judge_timeout
(60.0, None)
>>> parser.parse_args(["--timeout", "0"]).timeout is None
True

>>> build_parser().prog
'agent-asserts'

This module holds only the parser: ``--help`` and a usage error import no more than the
report format names. The subcommand that runs is imported then, from :data:`COMMANDS`.
"""

from __future__ import annotations

import argparse
import importlib
import math
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any, Final, NoReturn

from agent_asserts._deadline import DEFAULT_CASE_TIMEOUT
from agent_asserts._text import escape_controls
from agent_asserts._version import __version__
from agent_asserts.report import formats

EXIT_OK: Final = 0
"""Everything passed (``SCORED`` counts as passing unless ``--fail-on scored``)."""
EXIT_FAILED: Final = 1
"""A case failed."""
EXIT_INPUT: Final = 2
"""An input could not be loaded, or the report could not be written (also a usage error)."""
EXIT_INTERRUPTED: Final = 130
"""Stopped by Ctrl-C (128 + SIGINT, the shell's convention)."""

COMMANDS: Final[dict[str, tuple[str, str]]] = {
    "check": ("agent_asserts.cli.check", "run_check"),
    "record": ("agent_asserts.cli.check", "run_record"),
    "validate": ("agent_asserts.cli.check", "run_validate"),
    "schema": ("agent_asserts.cli.check", "run_schema"),
    "convert": ("agent_asserts.cli.check", "run_convert"),
    "watch": ("agent_asserts.cli.watch", "run_watch"),
    "scan": ("agent_asserts.cli.mining", "run_scan"),
    "infer": ("agent_asserts.cli.mining", "run_infer"),
    "compare": ("agent_asserts.cli.mining", "run_compare"),
}
"""Subcommand → (module, function ``(args, out, err) -> exit code``), imported when it runs."""

# -- the parser ------------------------------------------------------------------------------

FORMAT_CHOICES = ("text", "json", "junit", "html", "markdown")
"""The built-in report formats, in the order ``--help`` lists them."""


def _format_choices() -> tuple[str, ...]:
    """The built-in formats, then those added by ``register_renderer`` before the parser."""
    return (*FORMAT_CHOICES, *(name for name in formats() if name not in FORMAT_CHOICES))


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors show control characters as escapes (argparse
    echoes unrecognised arguments as typed)."""

    def error(self, message: str) -> NoReturn:
        super().error(escape_controls(message))


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the command (usage errors escaped: nothing in them acts on a
    terminal).

    >>> build_parser().parse_args(["schema", "\\x1b[2J"])
    Traceback (most recent call last):
    ...
    SystemExit: 2
    """
    parser = _Parser(
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
    add_report_options(check, "also exit 1 when a case is SCORED (a soft check failed)")
    add_judge_option(check)
    check.add_argument(
        "--skip-judged", action="store_true",
        help="run only deterministic checks: judged checks are not_applicable (not run)",
    )  # fmt: skip
    add_record_format(
        check, "the trace format of --record files (default: auto, detected from the data)"
    )
    check.add_argument(
        "--allow-records-from", action="append", default=[], metavar="DIR",
        help="also read a suite's record: files in DIR (repeatable); default: only files "
        "inside the suite's own folder",
    )  # fmt: skip
    check.add_argument(
        "--embed-records", action="store_true",
        help="embed each record's data in a JSON or HTML report (default: only its source)",
    )  # fmt: skip
    _add_record_parser(commands)
    add_time_limits(check)
    validate = commands.add_parser("validate", help="load suite files and report every problem")
    validate.add_argument("suites", nargs="+", metavar="SUITE")
    commands.add_parser("schema", help="print the native dialect's JSON Schema")
    convert = commands.add_parser("convert", help="print a suite in another dialect")
    convert.add_argument("suite", metavar="SUITE")
    convert.add_argument("--to", choices=("native",), default="native", help="target dialect")
    _add_watch_parser(commands)
    _add_scan_parser(commands)
    _add_infer_parser(commands)
    _add_compare_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command with ``argv`` (default ``sys.argv[1:]``) and return the exit code.

    Usage errors exit 2 (through ``SystemExit``, as argparse does).
    """
    args: argparse.Namespace | None = None
    out, err = sys.stdout, sys.stderr
    try:
        args = build_parser().parse_args(argv)
        return _run(args, out, err)
    except KeyboardInterrupt:  # anywhere else: one line, no traceback
        command = f" {args.command}" if args is not None else ""
        err.write(f"interrupted: agent-asserts{command} stopped\n")
        return EXIT_INTERRUPTED


def _run(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    module, name = COMMANDS[args.command]
    command: Callable[[argparse.Namespace, IO[str], IO[str]], int]
    command = getattr(importlib.import_module(module), name)
    return command(args, out, err)


def _add_record_parser(commands: Any) -> None:
    """Add the ``record`` subcommand to the command's subparsers."""
    record = commands.add_parser("record", help="print a trace file as the checks see it")
    record.add_argument("path", metavar="PATH", help="a trace file or a folder of them")
    record.add_argument(
        "--format", default="auto", metavar="NAME",
        help="the trace format (default: auto, detected from the data)",
    )  # fmt: skip
    record.add_argument("--json", action="store_true", help="print the canonical record(s)")


def _add_scan_parser(commands: Any) -> None:
    """Add the ``scan`` subcommand to the command's subparsers."""
    scan = commands.add_parser("scan", help="findings over traces, with no suite (docs/scan.md)")
    scan.add_argument("runs", nargs="+", metavar="RUNS", help="trace files, folders or globs")
    scan.add_argument("--config", metavar="FILE", help="a YAML/JSON file with a 'scan:' table")
    for flag, severity in (("--ignore", "off"), ("--soft", "soft"), ("--gate", "gate")):
        scan.add_argument(
            flag, action="append", default=[], metavar="FINDING", dest=f"as_{severity}",
            help=f"make FINDING {severity} (repeatable; the names are in docs/scan.md)",
        )  # fmt: skip
    scan.add_argument("--loop-times", type=int, default=None, metavar="K",
                      help="calls in a row that make a loop (default 3)")  # fmt: skip
    scan.add_argument("--outlier-k", type=float, default=None, metavar="K",
                      help="outlier bound: median + K x spread (default 3.5)")  # fmt: skip
    add_report_options(scan, "also exit 1 when a soft finding fired (a case is SCORED)")
    add_record_format(scan)


def add_report_options(parser: argparse.ArgumentParser, fail_on_help: str) -> None:
    """Add the report options ``check`` and ``scan`` share: ``--format``, ``--output``,
    ``--fail-on``."""
    parser.add_argument(
        "--format", choices=_format_choices(), default=None,
        help="report format (default: from --output's extension, else text)",
    )  # fmt: skip
    parser.add_argument("--output", metavar="FILE", help="write the report to FILE")
    parser.add_argument("--fail-on", choices=("scored",), default=None, help=fail_on_help)


def add_record_format(
    parser: argparse.ArgumentParser,
    help: str = "the trace format (default: auto, detected from the data)",
) -> None:
    """Add ``--record-format NAME`` (default ``auto``) to ``parser``."""
    parser.add_argument("--record-format", default="auto", metavar="NAME", help=help)


def number_in(
    low: float, high: float, *, wording: str, open_low: bool = False, open_high: bool = False
) -> Callable[[str], float]:
    """An argparse type: a number between ``low`` and ``high`` (open ends excluded); its error
    is ``must be {wording} (got '...')``.

    >>> share = number_in(0, 1, wording="a share of the runs in (0, 1]", open_low=True)
    >>> share("0.9")
    0.9
    >>> share("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be a share of the runs in (0, 1] (got '0')
    """

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        above = value > low if open_low else value >= low
        below = value < high if open_high else value <= high
        if not (above and below) or math.isnan(value):
            raise argparse.ArgumentTypeError(f"must be {wording} (got {text!r})")
        return value

    return parse


_share = number_in(0, 1, wording="a share of the runs in (0, 1]", open_low=True)
_margin = number_in(1, math.inf, wording="a number >= 1", open_high=True)
_open_share = number_in(0, 1, wording="in (0, 1)", open_low=True, open_high=True)
_effect = number_in(0, 1, wording="a share in [0, 1]")


def _add_infer_parser(commands: Any) -> None:
    """Add the ``infer`` subcommand to the command's subparsers."""
    infer = commands.add_parser(
        "infer", help="mine a suite from trusted runs (docs/from-traces.md)"
    )
    infer.add_argument("runs", nargs="+", metavar="RUNS", help="trace files, folders or globs")
    infer.add_argument("-o", "--output", metavar="FILE",
                       help="write the suite to FILE (.yml or .json)")  # fmt: skip
    infer.add_argument(
        "--min-support", type=_share, default=1.0, metavar="P",
        help="also add, as soft checks, checks that held in at least this share of the runs",
    )  # fmt: skip
    infer.add_argument("--margin", type=_margin, default=1.2, metavar="M",
                       help="budgets: the observed maximum times M (default 1.2)")  # fmt: skip
    infer.add_argument("--group-by", metavar="KEY", default=None,
                       help="one case per value of this metadata key (a scenario)")  # fmt: skip
    add_record_format(infer)


def _add_compare_parser(commands: Any) -> None:
    """Add the ``compare`` subcommand to the command's subparsers."""
    compare = commands.add_parser(
        "compare", help="two batches side by side: pass rates, flips, regressions"
    )
    compare.add_argument("base", metavar="BASE", help="a JSON report, or runs with --suite")
    compare.add_argument("candidate", metavar="CANDIDATE", help="the same for the candidate")
    compare.add_argument("--suite", action="append", default=[], metavar="SUITE",
                         help="check the runs of both with this suite (repeatable)")  # fmt: skip
    compare.add_argument("--alpha", type=_open_share, default=0.05, metavar="A",
                         help="significance level of a regression (default 0.05)")  # fmt: skip
    compare.add_argument("--min-effect", type=_effect, default=0.0, metavar="D",
                         help="smallest fall in pass rate that counts (0.05 = 5 pts)")  # fmt: skip
    compare.add_argument("--format", choices=("markdown", "json", "html"), default=None,
                         help="default: from --output's extension, else markdown")  # fmt: skip
    compare.add_argument("--output", metavar="FILE", help="write the comparison to FILE")
    add_record_format(compare, "the trace format of the runs (default: auto)")


def _add_watch_parser(commands: Any) -> None:
    """Add the ``watch`` subcommand to the command's subparsers."""
    watch = commands.add_parser("watch", help="evaluate record files as they appear")
    watch.add_argument("suite", metavar="SUITE", help="the suite file")
    watch.add_argument("--record-dir", required=True, metavar="DIR", help="the folder to watch")
    watch.add_argument("--format", default="auto", metavar="NAME",
                       help="the record format (default: detected per document)")  # fmt: skip
    watch.add_argument("--output", metavar="FILE.jsonl",
                       help="append results here (default: standard output)")  # fmt: skip
    watch.add_argument("--interval", type=float, default=1.0, metavar="SECONDS",
                       help="seconds between polls (default 1)")  # fmt: skip
    watch.add_argument("--max-polls", type=int, default=None, metavar="N",
                       help="stop after N polls (default: until Ctrl-C)")  # fmt: skip
    add_judge_option(watch)
    add_time_limits(watch)


# -- the options check and watch share ------------------------------------------------------

DEFAULT_TIMEOUT: Final = DEFAULT_CASE_TIMEOUT


MAX_SECONDS: Final = 1e9
"""The longest time limit taken (about 31 years; the system's interval timer takes no more than
about 9.2e9 seconds): a longer one is a usage error, like a negative one."""


def seconds(text: str) -> float | None:
    """A number of seconds from 0 to :data:`MAX_SECONDS`; 0 means no limit.

    >>> seconds("2.5"), seconds("0")
    (2.5, None)
    >>> seconds("1e300")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be at most 1000000000 seconds, about 31 years (got '1e300')
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number of seconds >= 0 (got {text!r})")
    if value > MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            f"must be at most {MAX_SECONDS:.0f} seconds, about 31 years (got {text!r})"
        )
    return value or None


def add_time_limits(parser: argparse.ArgumentParser) -> None:
    """Add ``--timeout`` (default 60) and ``--judge-timeout`` (default none) to ``parser``."""
    parser.add_argument(
        "--timeout", type=seconds, default=DEFAULT_TIMEOUT, metavar="SECONDS",
        help="hard time limit of each case (default 60; 0: none); a case past it is FAILED",
    )  # fmt: skip
    parser.add_argument(
        "--judge-timeout", type=seconds, default=None, metavar="SECONDS",
        help="time limit of each judge call (past it the judged check is an evaluator_error)",
    )  # fmt: skip


def add_judge_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--judge MODULE:CALLABLE`` (read with ``cli.support.import_judge``) to ``parser``.

    >>> parser = argparse.ArgumentParser(); add_judge_option(parser)
    >>> parser.parse_args(["--judge", "my_judges:polite"]).judge
    'my_judges:polite'
    """
    parser.add_argument("--judge", metavar="MODULE:CALLABLE", help="the judge for semantic checks")


__all__ = [
    "COMMANDS",
    "DEFAULT_TIMEOUT",
    "EXIT_FAILED",
    "EXIT_INPUT",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "FORMAT_CHOICES",
    "MAX_SECONDS",
    "add_judge_option",
    "add_time_limits",
    "build_parser",
    "main",
    "seconds",
]
