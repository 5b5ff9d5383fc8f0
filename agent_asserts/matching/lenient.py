"""``M.lenient(value)``: the cxas value-matching rules (used by the cxas loader).

Rules, tried at every level of the expected value:

* a matcher inside the value delegates to itself (strict rules below it);
* ``"*"`` matches any non-empty string/list/mapping and any other non-null value;
* a mapping matches a mapping (or a string holding a JSON object) as a subset, recursively;
* a list matches a list (or a string holding a JSON array) of the same length, element-wise;
* a bool matches a bool or a case-insensitive ``"true"``/``"false"`` string (and vice versa);
* a number matches a number or a numeric string numerically (``2`` ~ ``2.0`` ~ ``"2"``; and
  vice versa); two strings compare as strings (``"2"`` is not ``"2.0"``, ``"007"`` is not
  ``"7"``); bools are never numbers;
* ``None`` matches only ``None``; a missing key never matches (except a matcher accepting
  ``MISSING`` such as ``M.absent()``).

At the root only, a ``{"result": …}`` envelope around the actual value is transparent: when the
value does not match as it is, the actual is a mapping with a ``"result"`` key, and the expected
value is not a mapping with a ``"result"`` key, the expected value is matched against the
envelope's ``result`` (the explanation's paths then go through ``$.result``).

>>> from agent_asserts.matching import M
>>> M.lenient({"qty": 2, "ok": True, "id": "*"}).matches({"qty": "2.0", "ok": "TRUE", "id": 7})
True
>>> M.lenient({"order_id": "*"}).matches({"result": '{"order_id": "A1"}'})
True
>>> [str(m) for m in M.lenient({"quantity": 2}).explain({"quantity": "three"})]
["$.quantity: expected 2 (lenient: numeric), got 'three'"]
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

import attrs

from agent_asserts._values import MISSING
from agent_asserts.matching.base import (
    ROOT,
    Matcher,
    Mismatch,
    describe_value,
    index_path,
    key_path,
)
from agent_asserts.matching.data import value_to_data
from agent_asserts.matching.depth import parse_json_text, within_depth
from agent_asserts.matching.simple import is_non_empty
from agent_asserts.matching.values import data_key, is_list, is_number, plural, render, strict_equal

_NUMBER: Final = re.compile(r"\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*")
_INTEGER: Final = re.compile(r"\s*[-+]?\d+\s*")


def _number_of(value: Any) -> Any:
    """The numeric value of a number or a numeric string, else None."""
    if is_number(value):
        return value
    if isinstance(value, str) and _NUMBER.fullmatch(value):
        return int(value) if _INTEGER.fullmatch(value) else float(value)
    return None


def _bool_of(value: Any) -> bool | None:
    """The bool value of a bool or a ``"true"``/``"false"`` string (any case), else None."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        return {"true": True, "false": False}.get(value.lower())
    return None


def _scalar(expected: Any, actual: Any) -> tuple[bool, str]:
    """Compare two scalars by the lenient rules; return (matched, rule name)."""
    text = isinstance(expected, str)
    if isinstance(expected, bool) or (
        text and isinstance(actual, bool) and _bool_of(expected) is not None
    ):
        want, got = _bool_of(expected), _bool_of(actual)
        return want is not None and want == got, "bool"
    if is_number(expected) or (text and is_number(actual) and _number_of(expected) is not None):
        want_n, got_n = _number_of(expected), _number_of(actual)
        return want_n is not None and got_n is not None and bool(want_n == got_n), "numeric"
    if expected is None:
        return actual is None, "null"
    if isinstance(expected, str):
        return isinstance(actual, str) and expected == actual, "string"
    return strict_equal(expected, actual), "strict"


def _parsed(actual: Any, want_mapping: bool) -> Any:
    """Parse a string holding a JSON object (or array) when that is what is expected."""
    if isinstance(actual, str):
        value, problem = parse_json_text(actual)
        if problem:
            return actual
        if isinstance(value, dict) if want_mapping else isinstance(value, list):
            return value
    return actual


def _fail(out: list[Mismatch] | None, path: str, expected: Any, actual: Any, reason: str) -> bool:
    if out is not None:
        out.append(Mismatch(path, expected, actual, reason))
    return False


def lenient_check(expected: Any, actual: Any, path: str, out: list[Mismatch] | None) -> bool:
    """Match by the lenient rules; when ``out`` is a list, append every mismatch to it.

    Args:
        expected: The expected value (plain data, possibly containing matchers).
        actual: The actual value.
        path: The path of ``actual`` (only used when ``out`` is given).
        out: None for a yes/no answer, or a list collecting the mismatches.

    Returns:
        Whether ``actual`` matches.

    >>> lenient_check({"n": 1}, {"n": "1"}, "$", None)
    True
    """
    if isinstance(expected, Matcher):
        if out is None:
            return expected.matches(actual)
        found = expected.explain(actual, path)
        out.extend(found)
        return not found
    if isinstance(expected, str) and expected == "*":
        if is_non_empty(actual):
            return True
        return _fail(
            out, path, expected, actual, f"expected '*' (lenient: wildcard), got {render(actual)}"
        )
    if isinstance(expected, Mapping):
        actual = _parsed(actual, want_mapping=True)
        if not isinstance(actual, Mapping):
            reason = f"expected a mapping (lenient: subset), got {render(actual)}"
            return _fail(out, path, expected, actual, reason)
        ok = True
        for key, value in expected.items():
            got = actual.get(key, MISSING)
            child = path if out is None else key_path(path, key)
            if got is MISSING and not (isinstance(value, Matcher) and value.matches(MISSING)):
                ok = _fail(
                    out, child, value, MISSING, f"missing key (expected {describe_value(value)})"
                )
            elif not lenient_check(value, got, child, out):
                ok = False
            if not ok and out is None:
                return False
        return ok
    if is_list(expected):
        actual = _parsed(actual, want_mapping=False)
        if not is_list(actual):
            reason = f"expected a list (lenient: element-wise), got {render(actual)}"
            return _fail(out, path, expected, actual, reason)
        if len(actual) != len(expected):
            items = plural(len(expected), "item")
            reason = f"expected {items} (lenient: element-wise), got {len(actual)}"
            return _fail(out, path, expected, actual, reason)
        ok = True
        for index, (want, got) in enumerate(zip(expected, actual, strict=True)):
            child = path if out is None else index_path(path, index)
            if not lenient_check(want, got, child, out):
                ok = False
                if out is None:
                    return False
        return ok
    matched, rule = _scalar(expected, actual)
    if matched:
        return True
    reason = f"expected {render(expected)} (lenient: {rule}), got {render(actual)}"
    return _fail(out, path, expected, actual, reason)


def _envelope(expected: Any, actual: Any) -> Any:
    """The content of a ``{"result": …}`` envelope that should be tried, else MISSING."""
    if isinstance(expected, Mapping) and "result" in expected:
        return MISSING
    if isinstance(expected, Mapping | list | tuple):
        actual = _parsed(actual, want_mapping=True)
    if isinstance(actual, Mapping) and "result" in actual:
        return actual["result"]
    return MISSING


@attrs.frozen(repr=False)
class LenientMatcher(Matcher):
    """``M.lenient(value)``: the cxas rules (see the module documentation).

    >>> from agent_asserts.matching import M
    >>> M.lenient({"is_scheduled": True}).matches({"result": {"is_scheduled": "true"}})
    True
    """

    value: Any = attrs.field(eq=data_key, validator=within_depth)

    def matches(self, actual: Any) -> bool:
        if lenient_check(self.value, actual, ROOT, None):
            return True
        inner = _envelope(self.value, actual)
        return inner is not MISSING and lenient_check(self.value, inner, ROOT, None)

    def explain(self, actual: Any, path: str = ROOT) -> list[Mismatch]:
        out: list[Mismatch] = []
        if lenient_check(self.value, actual, path, out):
            return []
        inner = _envelope(self.value, actual)
        if inner is MISSING:
            return out
        out = []
        lenient_check(self.value, inner, key_path(path, "result"), out)
        return out

    def describe(self) -> str:
        return f"{render(self.value)} (lenient)"

    def to_data(self) -> Any:
        return {"$lenient": value_to_data(self.value)}

    def __repr__(self) -> str:
        return f"M.lenient({self.value!r})"


__all__ = ["LenientMatcher", "lenient_check"]
