"""The time-limit options of ``agent-asserts check``: ``--timeout`` and ``--judge-timeout``.

>>> import argparse
>>> parser = argparse.ArgumentParser(); add_time_limits(parser)
>>> args = parser.parse_args([])
>>> args.timeout, args.judge_timeout
(60.0, None)
>>> parser.parse_args(["--timeout", "0"]).timeout is None
True
"""

from __future__ import annotations

import argparse
from typing import Final

from agent_asserts._deadline import DEFAULT_CASE_TIMEOUT

DEFAULT_TIMEOUT: Final = DEFAULT_CASE_TIMEOUT


def seconds(text: str) -> float | None:
    """A number of seconds >= 0; 0 means no limit.

    >>> seconds("2.5"), seconds("0")
    (2.5, None)
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number of seconds >= 0 (got {text!r})")
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


__all__ = ["DEFAULT_TIMEOUT", "add_time_limits", "seconds"]
