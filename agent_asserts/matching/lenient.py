"""The seed systems' loose value comparisons: ``M.lenient`` (cxas) and ``M.loose`` (SOP).

``M.lenient(value)``: the cxas value-matching rules (used by the cxas loader), tried at every
level of the expected value:

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

``M.loose(value)``: the SOP ``equals`` operator — compare JavaScript ``String()`` forms. Both
sides are turned into text the way JavaScript's ``String()`` does, then compared exactly:
strings stay as they are, ``True`` → ``"true"``, ``None`` → ``"null"``, ``2.0`` → ``"2"``,
``1.5`` → ``"1.5"``, ``1e21`` → ``"1e+21"``; mappings and lists become compact
``JSON.stringify`` text (``{"a":1,"b":[true,null]}``, keys in their order) instead of
JavaScript's ``[object Object]``. A missing value (``MISSING``, JavaScript ``undefined``)
never matches.

>>> M.loose("123").matches(123), M.loose(True).matches("true"), M.loose(2).matches(2.0)
(True, True, True)
>>> M.loose("2.0").matches(2.0)
False
"""

from __future__ import annotations

import json
import math
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
    value_to_data,
)
from agent_asserts.matching.scalar import is_non_empty
from agent_asserts.matching.values import (
    data_key,
    is_list,
    is_number,
    nested_too_deeply,
    parse_json_text,
    plural,
    render,
    strict_equal,
    within_depth,
)

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


def js_number(value: float | int) -> str:
    """Format a number like JavaScript's ``Number.prototype.toString()``.

    Args:
        value: An int or a float.

    Returns:
        The JavaScript text.

    >>> js_number(2.0), js_number(1.5), js_number(1e21), js_number(1e-7), js_number(-0.0)
    ('2', '1.5', '1e+21', '1e-7', '0')
    >>> js_number(123456789012.5), js_number(0.000001), js_number(float("inf"))
    ('123456789012.5', '0.000001', 'Infinity')
    """
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    from decimal import Decimal  # imported on first use: not with every EvalContext

    # repr() gives the shortest digits that round-trip, as JavaScript does
    _, digit_tuple, exponent = Decimal(repr(abs(value))).as_tuple()
    digits = "".join(map(str, digit_tuple)).lstrip("0")
    if not isinstance(exponent, int):  # pragma: no cover - finite values only
        return str(value)
    stripped = digits.rstrip("0")
    exponent += len(digits) - len(stripped)
    digits = stripped
    k = len(digits)
    n = k + exponent  # value = 0.digits × 10**n
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * (-n) + digits
    else:
        exponent = n - 1
        exp = f"e{'+' if exponent >= 0 else '-'}{abs(exponent)}"
        text = (digits if k == 1 else digits[0] + "." + digits[1:]) + exp
    return sign + text


def _stringify(value: Any) -> str:
    """Compact ``JSON.stringify`` text of a value (numbers in JavaScript form)."""
    if value is None or value is MISSING:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if is_number(value):
        number = value if isinstance(value, int) else float(value)
        return js_number(number) if math.isfinite(number) else "null"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if is_list(value):
        return "[" + ",".join(_stringify(item) for item in value) + "]"
    if isinstance(value, Mapping):
        items = (
            f"{json.dumps(str(k), ensure_ascii=False)}:{_stringify(v)}" for k, v in value.items()
        )
        return "{" + ",".join(items) + "}"
    return json.dumps(str(value), ensure_ascii=False)


def js_string(value: Any) -> str | None:
    """The JavaScript ``String()`` form used by ``M.loose`` (JSON text for mappings and lists).

    Args:
        value: Any value.

    Returns:
        The text, or None for ``MISSING`` (``undefined`` never matches).

    >>> js_string(True), js_string(None), js_string(2.0), js_string({"a": [1.0, None]})
    ('true', 'null', '2', '{"a":[1,null]}')
    """
    if value is MISSING or nested_too_deeply(value):
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping) or is_list(value) or value is None or isinstance(value, bool):
        return _stringify(value)
    if is_number(value):
        return js_number(value if isinstance(value, int) else float(value))
    return str(value)


def _check_data(value: Any) -> None:
    if isinstance(value, Matcher) or value is MISSING:
        raise ValueError(f"M.loose() takes a plain JSON value (got {render(value)})")
    if isinstance(value, Mapping):
        for item in value.values():
            _check_data(item)
    elif is_list(value):
        for item in value:
            _check_data(item)


@attrs.frozen(repr=False)
class LooseMatcher(Matcher):
    """``M.loose(value)``: ``String(actual) === String(value)`` (see the module documentation).

    >>> from agent_asserts.matching import M
    >>> M.loose(None).explain("nil")[0].reason
    "expected a value whose string form is 'null', got 'nil'"
    >>> M.loose("124").explain(123)[0].reason
    "expected a value whose string form is '124', got 123 (string form '123')"
    """

    value: Any = attrs.field(eq=data_key)
    text: str = attrs.field(init=False, eq=False)

    @text.default
    def _validated_text(self) -> str:
        within_depth(self, None, self.value)
        _check_data(self.value)
        return js_string(self.value)  # type: ignore[return-value]  # never MISSING here

    def matches(self, actual: Any) -> bool:
        return js_string(actual) == self.text

    def explain(self, actual: Any, path: str = ROOT) -> list[Mismatch]:
        if self.matches(actual):
            return []
        text = js_string(actual)
        note = "" if text is None or isinstance(actual, str) else f" (string form {text!r})"
        return self._fail(actual, path, note)

    def describe(self) -> str:
        return f"a value whose string form is {self.text!r}"

    def to_data(self) -> Any:
        return {"$loose": value_to_data(self.value)}

    def __repr__(self) -> str:
        return f"M.loose({self.value!r})"


__all__ = ["LenientMatcher", "LooseMatcher", "js_number", "js_string", "lenient_check"]
