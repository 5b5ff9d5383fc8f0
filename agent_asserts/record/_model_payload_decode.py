"""Decoding of ``usage`` and of the ``model_call``, ``reasoning`` and ``guardrail`` payloads.

Part of :mod:`agent_asserts.record.decode`; each decoder appends ``(path, message)`` problems
and returns None when it found one.

>>> decode_usage({"input_tokens": 9, "cached_tokens": 4}, "$.usage", [])
Usage(input_tokens=9, output_tokens=None, total_tokens=None, details={'cached_tokens': 4})
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from agent_asserts._text import did_you_mean
from agent_asserts._values import MISSING
from agent_asserts.record._payload_fields import (
    Problems,
    extra_keys,
    optional_bool,
    optional_str,
    required_str,
)
from agent_asserts.record._validators import child, json_copy, must_be_int, must_be_object
from agent_asserts.record.model_payloads import (
    GuardrailPayload,
    ModelCallPayload,
    ReasoningPayload,
)
from agent_asserts.record.usage import USAGE_COUNTERS, Usage

_MODEL_KEYS: Final = frozenset(
    {"model", "provider", "usage", "finish_reason", "is_error", "error_message", "error_type"}
)
_REASONING_KEYS: Final = frozenset({"text", "summary", "redacted"})
_GUARDRAIL_KEYS: Final = frozenset({"name", "triggered", "output"})
_USAGE_KEYS: Final = (*USAGE_COUNTERS, "details", "reported_by")
_TYPO: Final = 0.85  # closer than this to a named key: a typo, not a further counter


def decode_usage(raw: Any, path: str, problems: Problems) -> Usage | None:
    """Decode a usage object: the named counters, ``details``, ``reported_by``; any other key
    is a further counter (a non-negative integer) kept in ``details``, unless it is a near
    miss of a named key (``ouput_tokens``): that is reported as a typo.

    >>> problems: Problems = []
    >>> decode_usage({"input_tokens": -1, "note": "x"}, "$.usage", problems); problems
    [('$.usage.input_tokens', 'must be a non-negative integer (got -1)'),
     ('$.usage.note', "must be an integer (got 'x')")]
    """
    if raw is None:
        return None
    if (message := must_be_object(raw)) is not None:
        problems.append((path, message))
        return None
    before = len(problems)
    further: list[Any] = []
    for key in raw:
        if key in _USAGE_KEYS:
            continue
        hint = did_you_mean(key, _USAGE_KEYS, cutoff=_TYPO) if isinstance(key, str) else ""
        if hint:  # a misspelt named key, not a further counter
            problems.append((child(path, key), "unknown key" + hint))
        else:
            further.append(key)
    counts: list[Any] = []
    for key in USAGE_COUNTERS:
        value = raw.get(key)
        if value is not None and (message := must_be_int(value)) is not None:
            problems.append((child(path, key), message))
        counts.append(value)
    details: dict[str, int] = {}
    raw_details = raw.get("details")
    if raw_details is not None:
        dpath = child(path, "details")
        if (message := must_be_object(raw_details)) is not None:
            problems.append((dpath, message))
        else:
            _counters(raw_details, raw_details.keys(), dpath, details, problems)
    for key in further:
        if key in details:
            problems.append((child(path, key), "also given in details"))
    _counters(raw, further, path, details, problems)
    reported_by = optional_str(raw, "reported_by", path, problems)
    if len(problems) != before:
        return None
    return Usage(
        input_tokens=counts[0],
        output_tokens=counts[1],
        total_tokens=counts[2],
        details=details,
        reported_by=reported_by,
    )


def _counters(
    raw: Mapping[str, Any], keys: Any, path: str, out: dict[str, int], problems: Problems
) -> None:
    for key in keys:
        value = raw[key]
        if not isinstance(key, str):
            problems.append((path, f"keys must be strings (got {key!r})"))
        elif (message := must_be_int(value)) is not None:
            problems.append((child(path, key), message))
        else:
            out[key] = value


def decode_model_call(raw: Mapping[str, Any], path: str, problems: Problems) -> Any:
    """Decode a ``model_call`` payload (every field optional).

    >>> decode_model_call({"model": "gpt-4o", "usage": {"total_tokens": 5}}, "$", []).usage
    Usage(input_tokens=None, output_tokens=None, total_tokens=5)
    """
    before = len(problems)
    model = optional_str(raw, "model", path, problems)
    provider = optional_str(raw, "provider", path, problems)
    usage = decode_usage(raw.get("usage"), child(path, "usage"), problems)
    finish_reason = optional_str(raw, "finish_reason", path, problems)
    is_error = optional_bool(raw, "is_error", path, problems)
    error_message = optional_str(raw, "error_message", path, problems)
    error_type = optional_str(raw, "error_type", path, problems)
    extra = extra_keys(raw, _MODEL_KEYS, path, problems)
    if len(problems) != before:
        return None
    return ModelCallPayload(
        model, provider, usage, finish_reason, is_error, error_message, error_type, extra
    )


def decode_reasoning(raw: Mapping[str, Any], path: str, problems: Problems) -> Any:
    """Decode a ``reasoning`` payload.

    >>> decode_reasoning({"summary": "s", "redacted": True}, "$", [])
    ReasoningPayload(text=None, summary='s', redacted=True, extra={})
    """
    before = len(problems)
    text = optional_str(raw, "text", path, problems)
    summary = optional_str(raw, "summary", path, problems)
    redacted = optional_bool(raw, "redacted", path, problems)
    extra = extra_keys(raw, _REASONING_KEYS, path, problems)
    if len(problems) != before:
        return None
    return ReasoningPayload(text, summary, redacted, extra)


def decode_guardrail(raw: Mapping[str, Any], path: str, problems: Problems) -> Any:
    """Decode a ``guardrail`` payload (``name`` and ``triggered`` required).

    >>> problems: Problems = []
    >>> decode_guardrail({"name": "pii"}, "$", problems); problems
    [('$.triggered', 'required field missing')]
    """
    before = len(problems)
    name = required_str(raw, "name", path, problems)
    triggered = optional_bool(raw, "triggered", path, problems, MISSING)
    if triggered is MISSING:
        problems.append((child(path, "triggered"), "required field missing"))
    output = json_copy(raw.get("output"), child(path, "output"), problems)
    extra = extra_keys(raw, _GUARDRAIL_KEYS, path, problems)
    if len(problems) != before:
        return None
    return GuardrailPayload(name, triggered, output, extra)


__all__ = ["decode_guardrail", "decode_model_call", "decode_reasoning", "decode_usage"]
