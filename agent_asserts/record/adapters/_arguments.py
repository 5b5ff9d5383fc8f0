"""Tool-call arguments as recorded: an object, a JSON string, or text that is not JSON.

>>> parse_arguments('{"order_id": "A1049"}')
({'order_id': 'A1049'}, None, None)
>>> arguments, raw, problem = parse_arguments('{"order_id": "A1049"')
>>> arguments is MISSING, raw
(True, '{"order_id": "A1049"')
>>> print(problem)
arguments are not valid JSON: Expecting ',' delimiter (column 21)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from agent_asserts._values import MISSING

INVALID_JSON_KEY: Final = "INVALID_JSON"
"""The key Pydantic AI wraps argument text that is not JSON in (``{"INVALID_JSON": "…"}``)."""


def parse_arguments(value: Any) -> tuple[Any, str | None, str | None]:
    """``(arguments, arguments_raw, problem)`` for an arguments value.

    A JSON string is parsed; text that is not JSON gives ``MISSING`` arguments, the text as
    ``arguments_raw`` and a problem to record as a parse error. An empty string is ``{}``.
    Pydantic AI's ``{"INVALID_JSON": text}`` wrapper is read as the text it wraps.

    >>> parse_arguments({"INVALID_JSON": "{oops"})[0] is MISSING
    True
    >>> parse_arguments("")
    ({}, None, None)
    """
    if isinstance(value, Mapping) and set(value) == {INVALID_JSON_KEY}:
        value = value[INVALID_JSON_KEY]
        if not isinstance(value, str):
            return MISSING, None, "arguments are not valid JSON"
    if not isinstance(value, str):
        return value, None, None
    if not value.strip():
        return {}, None, None
    try:
        parsed = json.loads(value)
    except json.JSONDecodeError as exc:
        return MISSING, value, f"arguments are not valid JSON: {exc.msg} (column {exc.colno})"
    except RecursionError:
        return MISSING, value, "arguments are not valid JSON: nested too deeply"
    if isinstance(parsed, Mapping) and set(parsed) == {INVALID_JSON_KEY}:
        return parse_arguments(parsed)
    return parsed, None, None


def json_or_text(value: Any) -> Any:
    """A recorded value: text holding a JSON object or array parsed, anything else as it is.

    >>> json_or_text('{"status": "paid"}'), json_or_text("paid"), json_or_text("[oops")
    ({'status': 'paid'}, 'paid', '[oops')
    """
    if isinstance(value, str) and value.lstrip()[:1] in ("{", "["):
        try:
            return json.loads(value)
        except (json.JSONDecodeError, RecursionError):
            return value
    return value


def count(value: Any) -> int | None:
    """A token count: a non-negative integer (an integral float or digit string too), else None.

    >>> count(12), count("12"), count(12.0), count(-1), count(True), count("x")
    (12, 12, 12, None, None, None)
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    return value if isinstance(value, int) and value >= 0 else None


__all__ = ["INVALID_JSON_KEY", "count", "json_or_text", "parse_arguments"]
