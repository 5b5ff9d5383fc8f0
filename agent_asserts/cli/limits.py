"""The evaluation options that ``agent-asserts check`` and ``watch`` share: the time limits
(``--timeout``, ``--judge-timeout``) and the judge (``--judge``).

Both subcommands add them with :func:`add_time_limits` and :func:`add_judge_option` and pass
:func:`limit_keywords` to ``Suite.evaluate``/``Case.evaluate`` (so ``run_case`` enforces them).

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
from typing import Any, Final

from agent_asserts._deadline import DEFAULT_CASE_TIMEOUT
from agent_asserts.cli.support import import_judge

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


def add_judge_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--judge MODULE:CALLABLE`` (read with ``cli.support.import_judge``) to ``parser``.

    >>> parser = argparse.ArgumentParser(); add_judge_option(parser)
    >>> parser.parse_args(["--judge", "my_judges:polite"]).judge
    'my_judges:polite'
    """
    parser.add_argument("--judge", metavar="MODULE:CALLABLE", help="the judge for semantic checks")


def judge_of(args: argparse.Namespace) -> Any:
    """The judge ``--judge`` names (None without it).

    Raises:
        ValueError: it cannot be imported (``--judge SPEC: reason``, whatever the module raised).

    >>> judge_of(argparse.Namespace(judge=None)) is None
    True
    >>> judge_of(argparse.Namespace(judge="os:sep"))
    Traceback (most recent call last):
    ...
    ValueError: --judge os:sep: 'sep' of os is not callable (got str)
    """
    spec = getattr(args, "judge", None)
    if not spec:
        return None
    try:
        return import_judge(spec)
    except Exception as exc:  # whatever the module raised: reported, never a traceback
        raise ValueError(f"--judge {spec}: {exc}") from exc


def limit_keywords(args: argparse.Namespace) -> dict[str, Any]:
    """The ``timeout``/``judge_timeout`` keywords given on the command line.

    >>> limit_keywords(argparse.Namespace(timeout=2.0, judge_timeout=None))
    {'timeout': 2.0, 'judge_timeout': None}
    """
    return {
        "timeout": getattr(args, "timeout", None),
        "judge_timeout": getattr(args, "judge_timeout", None),
    }


__all__ = [
    "DEFAULT_TIMEOUT",
    "add_judge_option",
    "add_time_limits",
    "judge_of",
    "limit_keywords",
    "seconds",
]
