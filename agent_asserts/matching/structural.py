"""The default comparison rules (partial mappings, element-wise lists, strict scalars), and the
structural matchers ``M.partial``, ``M.exact`` and ``M.subset_of``.

``as_matcher`` is the one place where a plain expected value becomes a matcher; ``matches`` and
``explain`` apply the same rules without building matcher objects for plain values (the fast
path of ``called_tool``).

>>> matches({"a": 1}, {"a": 1, "b": 2}), matches([1, 2], [1, 2, 3]), matches(True, 1)
(True, False, False)
>>> [str(m) for m in explain({"a": {"b": 42}}, {"a": {"b": 40}})]
['$.a.b: expected 42, got 40']

``M.subset_of(mapping)`` is the mirror of the default partial match: there every *expected*
key must be present in the actual mapping; here every *actual* key must appear in the expected
mapping, with a value that matches the expected one under the default rules. Expected keys the
actual mapping lacks are fine, so ``{}`` is a subset of anything.

>>> from agent_asserts.matching import M
>>> M.subset_of({"id": "A1", "reason": "dup"}).matches({"id": "A1"})
True
>>> [str(m) for m in M.subset_of({"id": "A1"}).explain({"id": "A1", "amount": 5})]
['$.amount: unexpected key (got 5); allowed keys: id']
"""

from __future__ import annotations

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
from agent_asserts.matching.values import (
    data_key,
    is_list,
    plural,
    render,
    strict_equal,
    within_depth,
)

_PLAIN: Final = frozenset({str, int, float, bool, type(None)})


def match_value(expected: Any, actual: Any) -> bool:
    """Apply the default rules and answer only yes or no (no mismatch objects are built).

    Args:
        expected: A matcher, a mapping (partial), a list (element-wise) or a scalar (strict).
        actual: The actual value.

    Returns:
        Whether ``actual`` matches.

    >>> match_value({"a": [1, 2.0]}, {"a": [1, 2], "b": 0})
    True
    """
    te = type(expected)
    if te in _PLAIN:
        if type(actual) is te:
            return bool(expected == actual)
        return strict_equal(expected, actual)
    if te is dict:
        return _match_mapping(expected, actual)
    if isinstance(expected, Matcher):
        return bool(expected.matches(actual))
    if is_list(expected):
        return _match_list(expected, actual)
    if isinstance(expected, Mapping):
        return _match_mapping(expected, actual)
    return strict_equal(expected, actual)


def _match_mapping(expected: Mapping[Any, Any], actual: Any) -> bool:
    if type(actual) is not dict and not isinstance(actual, Mapping):
        return False
    get = actual.get
    for key, value in expected.items():
        got = get(key, MISSING)
        tv = type(value)
        if tv in _PLAIN:
            if type(got) is tv:
                if got != value:
                    return False
            elif not strict_equal(value, got):
                return False
        elif not match_value(value, got):
            return False
    return True


def _match_list(expected: Any, actual: Any) -> bool:
    if not is_list(actual) or len(actual) != len(expected):
        return False
    return all(map(match_value, expected, actual))


def explain_value(expected: Any, actual: Any, path: str = ROOT) -> list[Mismatch]:
    """Apply the default rules and list every mismatch (empty when ``actual`` matches).

    Args:
        expected: A matcher, a mapping (partial), a list (element-wise) or a scalar (strict).
        actual: The actual value.
        path: The path of ``actual``.

    Returns:
        The mismatches.

    >>> [str(m) for m in explain_value({"a": 42, "b": 1}, {"b": 2})]
    ['$.a: missing key (expected 42)', '$.b: expected 1, got 2']
    """
    te = type(expected)  # plain JSON types first: no ABC isinstance checks for them
    if te in _PLAIN:
        if type(actual) is te and expected == actual:
            return []
    elif te is dict:
        return _explain_mapping(expected, actual, path, exact=False)
    elif isinstance(expected, Matcher):
        return expected.explain(actual, path)
    if isinstance(expected, Mapping):
        return _explain_mapping(expected, actual, path, exact=False)
    if is_list(expected):
        return _explain_list(expected, actual, path, exact=False)
    if strict_equal(expected, actual):
        return []
    return [Mismatch(path, expected, actual, f"expected {render(expected)}, got {render(actual)}")]


def exact_value(expected: Any, actual: Any) -> bool:
    """Deep equality: like the default rules, but a mapping may not have extra keys.

    Args:
        expected: The expected value (matchers inside it delegate to themselves).
        actual: The actual value.

    Returns:
        Whether ``actual`` equals ``expected``.

    >>> exact_value({"a": 1}, {"a": 1}), exact_value({"a": 1}, {"a": 1, "b": 2})
    (True, False)
    """
    te = type(expected)  # plain JSON types first: no ABC isinstance checks for them
    if te in _PLAIN:
        return bool(expected == actual) if type(actual) is te else strict_equal(expected, actual)
    if te is not dict and isinstance(expected, Matcher):
        return expected.matches(actual)
    if te is dict or isinstance(expected, Mapping):
        if type(actual) is not dict and not isinstance(actual, Mapping):
            return False
        for key, value in expected.items():
            if not exact_value(value, actual.get(key, MISSING)):
                return False
        return all(key in expected for key in actual)
    if is_list(expected):
        if not is_list(actual) or len(actual) != len(expected):
            return False
        return all(map(exact_value, expected, actual))
    return strict_equal(expected, actual)


def explain_exact(expected: Any, actual: Any, path: str = ROOT) -> list[Mismatch]:
    """List why ``actual`` is not deeply equal to ``expected`` (see :func:`exact_value`).

    Args:
        expected: The expected value.
        actual: The actual value.
        path: The path of ``actual``.

    Returns:
        The mismatches.

    >>> [str(m) for m in explain_exact({"a": 1}, {"a": 1, "b": 2})]
    ['$.b: unexpected key (got 2)']
    """
    if isinstance(expected, Matcher):
        return expected.explain(actual, path)
    if isinstance(expected, Mapping):
        return _explain_mapping(expected, actual, path, exact=True)
    if is_list(expected):
        return _explain_list(expected, actual, path, exact=True)
    if strict_equal(expected, actual):
        return []
    return [Mismatch(path, expected, actual, f"expected {render(expected)}, got {render(actual)}")]


def _explain_mapping(
    expected: Mapping[Any, Any], actual: Any, path: str, *, exact: bool
) -> list[Mismatch]:
    if type(actual) is not dict and not isinstance(actual, Mapping):
        return [Mismatch(path, expected, actual, f"expected a mapping, got {render(actual)}")]
    check = exact_value if exact else match_value
    recurse = explain_exact if exact else explain_value
    out: list[Mismatch] = []
    for key, value in expected.items():
        got = actual.get(key, MISSING)
        child = key_path(path, key)
        if got is MISSING:
            if not check(value, MISSING):
                reason = f"missing key (expected {describe_value(value)})"
                out.append(Mismatch(child, value, MISSING, reason))
        else:
            out.extend(recurse(value, got, child))
    if exact:
        for key, got in actual.items():
            if key not in expected:
                reason = f"unexpected key (got {render(got)})"
                out.append(Mismatch(key_path(path, key), MISSING, got, reason))
    return out


def _explain_list(expected: Any, actual: Any, path: str, *, exact: bool) -> list[Mismatch]:
    if not is_list(actual):
        return [Mismatch(path, expected, actual, f"expected a list, got {render(actual)}")]
    if len(actual) != len(expected):
        reason = f"expected {plural(len(expected), 'item')}, got {len(actual)}"
        return [Mismatch(path, expected, actual, reason)]
    recurse = explain_exact if exact else explain_value
    out: list[Mismatch] = []
    for index, (want, got) in enumerate(zip(expected, actual, strict=True)):
        out.extend(recurse(want, got, index_path(path, index)))
    return out


def _validate_partial(_: Any, __: Any, value: Any) -> None:
    if not (isinstance(value, Mapping) or is_list(value)):
        raise ValueError(f"M.partial() takes a mapping or a list (got {render(value)})")
    within_depth(_, __, value)


@attrs.frozen(repr=False)
class PartialMatcher(Matcher):
    """``M.partial(value)``: the default rules made explicit for a mapping or a list.

    >>> from agent_asserts.matching import M
    >>> M.partial({"id": "A1"}).matches({"id": "A1", "extra": True})
    True
    """

    value: Any = attrs.field(eq=data_key, validator=_validate_partial)

    def matches(self, actual: Any) -> bool:
        if type(self.value) is not dict and is_list(self.value):
            return _match_list(self.value, actual)
        return _match_mapping(self.value, actual)

    def explain(self, actual: Any, path: str = ROOT) -> list[Mismatch]:
        return explain_value(self.value, actual, path)

    def describe(self) -> str:
        return render(self.value)

    def to_data(self) -> Any:
        return {"$partial": value_to_data(self.value)}

    def __repr__(self) -> str:
        return f"M.partial({self.value!r})"


@attrs.frozen(repr=False)
class ExactMatcher(Matcher):
    """``M.exact(value)``: deep equality (no extra keys; key order ignored; list order kept).

    >>> from agent_asserts.matching import M
    >>> M.exact({"id": "A1"}).matches({"id": "A1", "extra": True})
    False
    """

    value: Any = attrs.field(eq=data_key, validator=within_depth)

    def matches(self, actual: Any) -> bool:
        return exact_value(self.value, actual)

    def explain(self, actual: Any, path: str = ROOT) -> list[Mismatch]:
        return explain_exact(self.value, actual, path)

    def describe(self) -> str:
        return render(self.value)

    def to_data(self) -> Any:
        return {"$exact": value_to_data(self.value)}

    def __repr__(self) -> str:
        return f"M.exact({self.value!r})"


def as_matcher(value: Any) -> Matcher:
    """Turn an expected value into a matcher by the default rules (the one place they live).

    A matcher is returned as is; a mapping or a list becomes ``M.partial(value)``; anything
    else ``M.exact(value)`` (strict JSON-typed equality).

    Args:
        value: The expected value.

    Returns:
        The matcher.

    >>> as_matcher({"a": 1}), as_matcher(5), as_matcher(as_matcher(5))
    (M.partial({'a': 1}), M.exact(5), M.exact(5))
    """
    if isinstance(value, Matcher):
        return value
    if isinstance(value, Mapping) or is_list(value):
        return PartialMatcher(value)
    return ExactMatcher(value)


def matches(expected: Any, actual: Any) -> bool:
    """Tell whether ``actual`` matches ``expected`` under the default rules.

    Args:
        expected: A matcher or a plain value (mapping: partial; list: element-wise; scalar:
            strict JSON-typed equality).
        actual: The actual value.

    Returns:
        True exactly when :func:`explain` returns an empty list.

    >>> matches(2, 2.0), matches({"a": None}, {}), matches({"a": 1}, {"a": 1, "b": 2})
    (True, False, True)
    """
    return match_value(expected, actual)


def explain(expected: Any, actual: Any, path: str = ROOT) -> list[Mismatch]:
    """List why ``actual`` does not match ``expected`` under the default rules.

    Args:
        expected: A matcher or a plain value.
        actual: The actual value.
        path: The path of ``actual`` (``$`` by default).

    Returns:
        The mismatches, empty on a match.

    >>> [str(m) for m in explain([1, 2], [1, 2, 3])]
    ['$: expected 2 items, got 3']
    """
    return explain_value(expected, actual, path)


def _validate_mapping(_: Any, __: Any, value: Any) -> None:
    if not isinstance(value, Mapping):
        raise TypeError(f"M.subset_of() takes a mapping (got {render(value)})")
    within_depth(_, __, value)


@attrs.frozen(repr=False)
class SubsetOfMatcher(Matcher):
    """``M.subset_of(mapping)``: every actual key is one of ``mapping``'s, its value matching.

    >>> from agent_asserts.matching import M
    >>> M.subset_of({"a": 1}).matches({"a": 2}), M.subset_of({"a": 1}).matches("x")
    (False, False)
    """

    value: Mapping[Any, Any] = attrs.field(eq=data_key, validator=_validate_mapping)

    def matches(self, actual: Any) -> bool:
        if not isinstance(actual, Mapping):
            return False
        expected = self.value
        for key, got in actual.items():
            if key not in expected or not match_value(expected[key], got):
                return False
        return True

    def explain(self, actual: Any, path: str = ROOT) -> list[Mismatch]:
        if not isinstance(actual, Mapping):
            return [Mismatch(path, self, actual, f"expected a mapping, got {render(actual)}")]
        expected = self.value
        out: list[Mismatch] = []
        allowed = ", ".join(str(k) for k in expected) or "none"
        for key, got in actual.items():
            child = key_path(path, key)
            if key not in expected:
                reason = f"unexpected key (got {render(got)}); allowed keys: {allowed}"
                out.append(Mismatch(child, MISSING_KEY, got, reason))
            else:
                out.extend(explain_value(expected[key], got, child))
        return out

    def describe(self) -> str:
        return f"a subset of {render(self.value)}"

    def to_data(self) -> Any:
        return {"$subset_of": value_to_data(self.value)}

    def __repr__(self) -> str:
        return f"M.subset_of({self.value!r})"


MISSING_KEY = "<no such expected key>"
"""The ``expected`` of a mismatch for an actual key the expected mapping does not have."""


__all__ = [
    "ExactMatcher",
    "PartialMatcher",
    "SubsetOfMatcher",
    "as_matcher",
    "exact_value",
    "explain",
    "explain_exact",
    "explain_value",
    "match_value",
    "matches",
]
