"""``M.loose(value)``: the SOP ``equals`` operator — compare JavaScript ``String()`` forms.

Both sides are turned into text the way JavaScript's ``String()`` does, then compared exactly:
strings stay as they are, ``True`` → ``"true"``, ``None`` → ``"null"``, ``2.0`` → ``"2"``,
``1.5`` → ``"1.5"``, ``1e21`` → ``"1e+21"``; mappings and lists become compact
``JSON.stringify`` text (``{"a":1,"b":[true,null]}``, keys in their order) instead of
JavaScript's ``[object Object]``. A missing value (``MISSING``, JavaScript ``undefined``)
never matches.

>>> from agent_asserts.matching import M
>>> M.loose("123").matches(123), M.loose(True).matches("true"), M.loose(2).matches(2.0)
(True, True, True)
>>> M.loose("2.0").matches(2.0)
False
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

import attrs

from agent_asserts._missing import MISSING
from agent_asserts.matching.base import ROOT, Matcher, Mismatch
from agent_asserts.matching.data import value_to_data
from agent_asserts.matching.depth import nested_too_deeply, within_depth
from agent_asserts.matching.values import data_key, is_list, is_number, render


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


__all__ = ["LooseMatcher", "js_number", "js_string"]
