"""Time bounds: ``within: 500ms | 2s | 1.5m | <seconds>``.

>>> parse_within("500ms"), parse_within("2s"), parse_within("1.5m"), parse_within(3)
(0.5, 2.0, 90.0, 3.0)
>>> format_within(0.5), format_within(90.0)
('500ms', '90s')
"""

from __future__ import annotations

import math
import re

_DURATION = re.compile(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*(ms|s|m)\s*\Z")
_FACTORS = {"ms": 0.001, "s": 1.0, "m": 60.0}
FORMS = "a duration such as '500ms', '2s', '1.5m' or a number of seconds"


def parse_within(value: object) -> float:
    """Seconds from a duration string or a number of seconds (an inclusive bound, >= 0).

    Args:
        value: ``"500ms"``, ``"2s"``, ``"1.5m"``, or an int/float of seconds.

    Returns:
        The bound in seconds.

    Raises:
        ValueError: Anything else (a negative number, an unknown unit, a boolean).

    >>> parse_within("2 h")
    Traceback (most recent call last):
    ...
    ValueError: must be a duration such as '500ms', '2s', '1.5m' or a number of seconds (got '2 h')
    """
    seconds: float | None = None
    if isinstance(value, int | float) and not isinstance(value, bool):
        seconds = float(value)
    elif isinstance(value, str):
        match = _DURATION.match(value)
        if match is not None:
            seconds = float(match.group(1)) * _FACTORS[match.group(2)]
    if seconds is None or math.isnan(seconds) or math.isinf(seconds) or seconds < 0:
        raise ValueError(f"must be {FORMS} (got {value!r})")
    return seconds


def format_within(seconds: float) -> str:
    """The shortest exact text for a bound: whole milliseconds below a second, else seconds.

    Args:
        seconds: A bound in seconds.

    Returns:
        Text that :func:`parse_within` reads back to the same number.

    >>> format_within(2.0), format_within(0.25), format_within(1.25)
    ('2s', '250ms', '1.25s')
    """
    if 0 < seconds < 1:
        millis = seconds * 1000
        if float(round(millis)) == millis and parse_within(f"{round(millis)}ms") == seconds:
            return f"{round(millis)}ms"
    return f"{seconds:g}s" if parse_within(f"{seconds:g}s") == seconds else f"{seconds!r}s"


__all__ = ["FORMS", "format_within", "parse_within"]
