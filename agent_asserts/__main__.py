"""``python -m agent_asserts`` and the ``agent-asserts`` console script: :func:`run`, the
command (see :mod:`agent_asserts.cli`) with Ctrl-C handled from its first instruction.

Ctrl-C at any moment after :func:`run` starts — while the command's modules are still being
imported too — prints one line on stderr and exits 130 (128 + SIGINT), never a traceback and
never death by the signal.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Sequence
from typing import Final

EXIT_INTERRUPTED: Final = 130
"""Stopped by Ctrl-C (128 + SIGINT); the same as ``agent_asserts.cli.EXIT_INTERRUPTED``."""


def run(argv: Sequence[str] | None = None) -> int:
    """Run the ``agent-asserts`` command with ``argv`` (default ``sys.argv[1:]``); return the
    exit code. The command's modules are imported here, inside the Ctrl-C handling; run as the
    process's command (``argv`` None), Ctrl-C is ignored once the exit code is decided, so
    the process exits with it rather than by the signal while it shuts down.

    >>> run(["schema"])  # doctest: +ELLIPSIS
    {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
    ...
    0
    """
    try:
        from agent_asserts.cli import main  # the heavy imports: inside the handling

        code = main(argv)
    except KeyboardInterrupt:  # before the command's own handling took over
        sys.stderr.write("interrupted: agent-asserts stopped\n")
        code = EXIT_INTERRUPTED
    if argv is None:  # the process's own command: its exit status is decided, the process
        _ignore_sigint()  # only exits now (a Ctrl-C here would kill it by the signal)
        if code == EXIT_INTERRUPTED:
            _exit_interrupted()
    return code


def _exit_interrupted() -> None:
    """End the process with :data:`EXIT_INTERRUPTED` now, its output flushed.

    A Ctrl-C caught while the command's modules were being imported could still end the
    process by the signal (exit status -2 instead of 130) during the interpreter's shutdown:
    2 of 10 tries at one moment of the import, measured with the timing of
    ``tests/reliability/test_interrupts.py``; never once the process ends itself here.
    Nothing is left to finish at this point: the command wrote what it had (reports are
    written atomically) or had not started.
    """
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(EXIT_INTERRUPTED)


def _ignore_sigint() -> None:
    with contextlib.suppress(ValueError):  # not the main thread: nothing to do
        signal.signal(signal.SIGINT, signal.SIG_IGN)


if __name__ == "__main__":
    sys.exit(run())
