"""Field readers shared by the payload decoders: each appends ``(path, message)`` problems.

>>> problems: Problems = []
>>> required_str({}, "name", "$.p", problems), problems
(None, [('$.p.name', 'required field missing')])
>>> optional_bool({"redacted": 1}, "redacted", "$.p", []) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from agent_asserts._values import MISSING
from agent_asserts.record._validators import (
    child,
    json_copy,
    must_be_bool,
    must_be_str,
    one_of,
)
from agent_asserts.record.aliases import warn_suspicious
from agent_asserts.record.payloads import ERROR_OUTCOMES

Problems = list[tuple[str, str]]
MISSING_FIELD: Final = "required field missing"


def extra_keys(raw: Mapping[str, Any], known: frozenset[str], path: str, problems: Problems) -> Any:
    """A JSON copy of the keys of ``raw`` outside ``known`` (the payload's ``extra``).

    >>> extra_keys({"name": "t", "vendor": 1}, frozenset({"name"}), "$", [])
    {'vendor': 1}
    """
    if raw.keys() <= known:
        return {}
    warn_suspicious(raw, known, path)
    return json_copy({key: value for key, value in raw.items() if key not in known}, path, problems)


def required_str(raw: Mapping[str, Any], key: str, path: str, problems: Problems) -> Any:
    """A required non-empty string (None after a problem)."""
    value = raw.get(key, MISSING)
    if value is MISSING:
        problems.append((child(path, key), MISSING_FIELD))
        return None
    message = must_be_str(value, non_empty=True)
    if message is not None:
        problems.append((child(path, key), message))
        return None
    return value


def optional_str(raw: Mapping[str, Any], key: str, path: str, problems: Problems) -> Any:
    """An optional string: None when absent or null (None after a problem)."""
    value = raw.get(key)
    if value is None or type(value) is str:
        return value
    message = must_be_str(value)
    if message is not None:
        problems.append((child(path, key), message))
        return None
    return value


def optional_bool(
    raw: Mapping[str, Any], key: str, path: str, problems: Problems, default: Any = False
) -> Any:
    """An optional boolean: ``default`` when absent (None after a problem)."""
    value = raw.get(key, MISSING)
    if value is MISSING:
        return default
    if value is True or value is False:
        return value
    problems.append((child(path, key), must_be_bool(value) or ""))
    return None


def optional_choice(
    raw: Mapping[str, Any], key: str, allowed: tuple[str, ...], path: str, problems: Problems
) -> Any:
    """An optional string from ``allowed``: None when absent or null.

    >>> problems: Problems = []
    >>> optional_choice({"mode": "push"}, "mode", ("handoff", "tool"), "$", problems), problems
    (None, [('$.mode', "must be one of 'handoff', 'tool' (got 'push')")])
    """
    value = raw.get(key)
    if value is None or value in allowed:
        return value
    message = must_be_str(value) or f"must be one of {one_of(allowed)} (got {value!r})"
    problems.append((child(path, key), message))
    return None


def resolve_outcome(is_error: Any, outcome: str | None) -> tuple[bool, str, str | None]:
    """The ``(is_error, outcome)`` of a tool call, each derived from the other when absent.

    ``is_error`` is ``MISSING`` when not given, ``outcome`` None. The third item is the
    problem message when both are given and contradict each other.

    >>> resolve_outcome(MISSING, "retried")
    (True, 'retried', None)
    >>> resolve_outcome(True, None)
    (True, 'failed', None)
    >>> resolve_outcome(True, "denied")[2]
    "true contradicts outcome 'denied' (is_error is true exactly for 'failed' and 'retried')"
    """
    if outcome is None:
        flag = is_error is True
        return flag, "failed" if flag else "succeeded", None
    implied = outcome in ERROR_OUTCOMES
    if is_error is MISSING or is_error is implied:
        return implied, outcome, None
    message = (
        f"{str(is_error).lower()} contradicts outcome {outcome!r} (is_error is true exactly"
        " for 'failed' and 'retried')"
    )
    return bool(is_error), outcome, message


__all__ = [
    "MISSING_FIELD",
    "Problems",
    "extra_keys",
    "optional_bool",
    "optional_choice",
    "optional_str",
    "required_str",
    "resolve_outcome",
]
