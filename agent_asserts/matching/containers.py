"""Container matchers: ``M.contains``, ``M.unordered`` (bag match) and ``M.json``, with the
maximum bipartite matching ``M.unordered`` pairs items by.

>>> from agent_asserts.matching import M
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
from typing import Any

import attrs

from agent_asserts._values import MISSING
from agent_asserts.matching.base import ROOT, Matcher, Mismatch, describe_value, value_to_data
from agent_asserts.matching.structural import explain_value, match_value
from agent_asserts.matching.values import (
    data_key,
    is_list,
    parse_json_text,
    plural,
    render,
    strict_equal,
    within_depth,
)

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


__all__ = ["ContainsMatcher", "JsonMatcher", "UnorderedMatcher", "maximum_matching"]
