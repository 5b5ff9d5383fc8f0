"""Ctrl-C during ``agent-asserts check``: stop cleanly, report what finished, exit 130.

The cases that finished before the interrupt are reported as usual (``--output`` written
atomically, or the report on stdout) under the title :data:`INTERRUPTED_TITLE`, one line goes
to stderr, and the exit code is :data:`EXIT_INTERRUPTED` (128 + SIGINT, the shell's
convention). A second Ctrl-C while the report is being written is ignored.
"""

from __future__ import annotations

import argparse
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, TYPE_CHECKING, Any, Final

from agent_asserts.report import ReportRow, render, write_report

if TYPE_CHECKING:
    from agent_asserts.cli.check import Problems

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


__all__ = ["EXIT_INTERRUPTED", "INTERRUPTED_TITLE", "report_interrupted", "sigint_ignored"]
