"""The default comparison rules (partial mappings, element-wise lists, strict scalars), and the
matchers of structure: ``M.partial``, ``M.exact``, ``M.subset_of``, and the container matchers
``M.contains``, ``M.unordered`` and ``M.json``.

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

The container matchers: ``M.contains``, ``M.unordered`` (bag match) and ``M.json``, with the
maximum bipartite matching ``M.unordered`` pairs items by.

>>> M.contains("A10").matches("order A1049"), M.contains(2).matches([1, 2.0])
(True, True)
>>> M.unordered([M.anything(), 1]).matches([1, 2])
True

Greedy first-fit can miss a perfect assignment: with expected ``[M.anything(), 1]`` and actual
``[1, 2]``, first-fit gives ``1`` to ``M.anything()`` and leaves nothing for ``1``. Augmenting
paths (:func:`maximum_matching`) re-assign earlier choices, so a perfect matching is found
whenever one exists.

>>> maximum_matching([[0, 1], [0]], 2)
[1, 0]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
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
    parse_json_text,
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
    if not (type(value) is dict or isinstance(value, Mapping) or is_list(value)):
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
    kind = type(value)
    if kind is dict or kind is list:  # the usual expected values, before the ABC tests
        return PartialMatcher(value)
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


# Container matchers: M.contains, M.unordered (with maximum_matching), M.json.

NOT_A_CONTAINER = " (not a string, list or mapping)"


@attrs.frozen(repr=False)
class ContainsMatcher(Matcher):
    """``M.contains(x)``: a substring, a list item, or a mapping key.

    * a string contains ``x`` when ``x`` is a string and a substring of it;
    * a list contains ``x`` when some item matches ``x`` under the default rules (so ``x`` may
      be a matcher or a partial mapping; ``True`` never matches ``1``);
    * a mapping contains ``x`` when it has the key ``x`` (a matcher ``x`` matches keys).

    >>> from agent_asserts.matching import M
    >>> M.contains(True).matches([1]), M.contains({"sku": "X"}).matches([{"sku": "X", "n": 1}])
    (False, True)
    >>> M.contains("id").matches({"id": 1}), M.contains("a").matches(5)
    (True, False)
    """

    item: Any = attrs.field(eq=data_key, validator=within_depth)

    def matches(self, actual: Any) -> bool:
        item = self.item
        if isinstance(actual, str):
            return isinstance(item, str) and item in actual
        if is_list(actual):
            return any(match_value(item, element) for element in actual)
        if isinstance(actual, Mapping):
            if isinstance(item, str):
                return item in actual
            if isinstance(item, Matcher):
                return any(item.matches(key) for key in actual)
            return any(strict_equal(item, key) for key in actual)
        return False

    def explain(self, actual: Any, path: str = ROOT) -> list[Mismatch]:
        if self.matches(actual):
            return []
        container = isinstance(actual, str | Mapping) or is_list(actual)
        return self._fail(actual, path, "" if container else NOT_A_CONTAINER)

    def describe(self) -> str:
        return f"a value containing {describe_value(self.item)}"

    def to_data(self) -> Any:
        return {"$contains": value_to_data(self.item)}

    def __repr__(self) -> str:
        return f"M.contains({self.item!r})"


def _to_tuple(value: Any) -> Any:
    return tuple(value) if is_list(value) else value


def _validate_items(_: Any, __: Any, value: Any) -> None:
    if not is_list(value):
        raise ValueError(f"M.unordered() takes a list (got {render(value)})")
    within_depth(_, __, value)


@attrs.frozen(repr=False)
class UnorderedMatcher(Matcher):
    """``M.unordered(items)``: a bag match — same length, and a one-to-one pairing of expected
    items (matched by the default rules) with actual items, found by maximum bipartite matching.

    >>> from agent_asserts.matching import M
    >>> [m.reason for m in M.unordered([1, 1]).explain([1, 2])]
    ['no partner for expected item [1] (1)']
    """

    items: tuple[Any, ...] = attrs.field(
        eq=data_key, converter=_to_tuple, validator=_validate_items
    )

    def _pairing(self, actual: Any) -> list[int]:
        expected = self.items
        n = len(expected)
        taken = [False] * n
        greedy = [-1] * n
        for i, want in enumerate(expected):
            for j in range(n):
                if not taken[j] and match_value(want, actual[j]):
                    greedy[i] = j
                    taken[j] = True
                    break
        if -1 not in greedy:
            return greedy
        adjacency = [[j for j in range(n) if match_value(want, actual[j])] for want in expected]
        return maximum_matching(adjacency, n, greedy)

    def matches(self, actual: Any) -> bool:
        if not is_list(actual) or len(actual) != len(self.items):
            return False
        return -1 not in self._pairing(actual)

    def explain(self, actual: Any, path: str = ROOT) -> list[Mismatch]:
        if not is_list(actual):
            return [Mismatch(path, self, actual, f"expected a list, got {render(actual)}")]
        if len(actual) != len(self.items):
            reason = f"expected {plural(len(self.items), 'item')}, got {len(actual)}"
            return [Mismatch(path, self, actual, reason)]
        pairing = self._pairing(actual)
        return [
            Mismatch(
                path, want, actual, f"no partner for expected item [{i}] ({describe_value(want)})"
            )
            for i, (want, j) in enumerate(zip(self.items, pairing, strict=True))
            if j < 0
        ]

    def describe(self) -> str:
        return f"the items {render(list(self.items), 200)} in any order"

    def to_data(self) -> Any:
        return {"$unordered": [value_to_data(item) for item in self.items]}

    def __repr__(self) -> str:
        return f"M.unordered({list(self.items)!r})"


@attrs.frozen(repr=False)
class JsonMatcher(Matcher):
    """``M.json(expected)``: parse a JSON string (or bytes), then match the parsed value.

    >>> from agent_asserts.matching import M
    >>> M.json({"ok": True}).matches('{"ok": true, "id": 7}')
    True
    >>> print(M.json({"ok": True}).explain("{oops")[0].reason)
    expected JSON text of {'ok': True}, got '{oops' (invalid JSON: Expecting property name ...)
    """

    expected: Any = attrs.field(eq=data_key, validator=within_depth)

    def _parse(self, actual: Any) -> tuple[Any, str]:
        if not isinstance(actual, str | bytes | bytearray):
            return MISSING, " (not a string)"
        return parse_json_text(actual)

    def matches(self, actual: Any) -> bool:
        parsed, note = self._parse(actual)
        return not note and match_value(self.expected, parsed)

    def explain(self, actual: Any, path: str = ROOT) -> list[Mismatch]:
        parsed, note = self._parse(actual)
        if note:
            return self._fail(actual, path, note)
        return explain_value(self.expected, parsed, path)

    def describe(self) -> str:
        return f"JSON text of {describe_value(self.expected)}"

    def to_data(self) -> Any:
        return {"$json": value_to_data(self.expected)}

    def __repr__(self) -> str:
        return f"M.json({self.expected!r})"


def maximum_matching(
    adjacency: Sequence[Sequence[int]],
    n_right: int,
    initial: Sequence[int] | None = None,
) -> list[int]:
    """Find a maximum matching in a bipartite graph.

    Each left vertex ``u`` is tried in order; a breadth-first search over alternating paths
    finds the shortest augmenting path from it (Kuhn's algorithm, iterative, so deep graphs
    need no recursion). Runs in O(V·E).

    Args:
        adjacency: For each left vertex, the right vertices it may be matched with.
        n_right: The number of right vertices.
        initial: An optional valid starting matching (right vertex per left vertex, ``-1`` for
            none), e.g. a greedy one; it is extended, never made smaller.

    Returns:
        For each left vertex, its matched right vertex, or ``-1`` when it has none.

    >>> maximum_matching([[0], [0, 1], [1, 2]], 3)
    [0, 1, 2]
    >>> maximum_matching([[0], [0]], 1)
    [0, -1]
    """
    match_left = list(initial) if initial is not None else [-1] * len(adjacency)
    match_right = [-1] * n_right
    for u, v in enumerate(match_left):
        if v >= 0:
            match_right[v] = u
    for u in range(len(adjacency)):
        if match_left[u] < 0:
            _augment(u, adjacency, match_left, match_right)
    return match_left


def _augment(
    start: int,
    adjacency: Sequence[Sequence[int]],
    match_left: list[int],
    match_right: list[int],
) -> bool:
    parent: dict[int, int] = {}  # right vertex -> the left vertex it was reached from
    seen_left = {start}
    queue = deque([start])
    free = -1
    while queue and free < 0:
        u = queue.popleft()
        for v in adjacency[u]:
            if v in parent:
                continue
            parent[v] = u
            owner = match_right[v]
            if owner < 0:
                free = v
                break
            if owner not in seen_left:
                seen_left.add(owner)
                queue.append(owner)
    if free < 0:
        return False
    v = free
    while True:
        u = parent[v]
        previous = match_left[u]
        match_left[u] = v
        match_right[v] = u
        if u == start:
            return True
        v = previous


__all__ = [
    "ContainsMatcher",
    "ExactMatcher",
    "JsonMatcher",
    "PartialMatcher",
    "SubsetOfMatcher",
    "UnorderedMatcher",
    "as_matcher",
    "exact_value",
    "explain",
    "explain_exact",
    "explain_value",
    "match_value",
    "matches",
    "maximum_matching",
]
