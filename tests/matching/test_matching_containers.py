"""Tests for M.contains, M.unordered (maximum bipartite matching) and M.json."""

from __future__ import annotations

from typing import Any

import pytest

from agent_asserts._values import MISSING
from agent_asserts.matching import M, Matcher
from agent_asserts.matching.structural import maximum_matching


def reasons(m: Matcher, actual: Any) -> list[str]:
    return [str(x) for x in m.explain(actual)]


# -- contains -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("item", "actual", "result"),
    [
        ("A10", "order A1049", True),
        ("a10", "order A1049", False),
        ("", "", True),
        (1, "a1b", False),
        (2, [1, 2.0], True),
        (1, [True], False),
        (True, [1], False),
        (0, [False], False),
        ({"sku": "X"}, [{"sku": "X", "n": 1}], True),
        (M.gt(2), [1, 3], True),
        (M.gt(5), [1, 3], False),
        ("id", {"id": 1}, True),
        ("x", {"id": 1}, False),
        (M.regex("^i"), {"id": 1}, True),
        (1, {1: "a"}, True),
        (True, {1: "a"}, False),
        ("a", 5, False),
        ("a", None, False),
        ("a", MISSING, False),
    ],
)
def test_contains(item: Any, actual: Any, result: bool) -> None:
    assert M.contains(item).matches(actual) is result
    assert (M.contains(item).explain(actual) == []) is result


def test_contains_reasons() -> None:
    assert reasons(M.contains("x"), "abc") == ["$: expected a value containing 'x', got 'abc'"]
    assert reasons(M.contains("x"), 5) == [
        "$: expected a value containing 'x', got 5 (not a string, list or mapping)"
    ]
    assert reasons(M.contains(M.gt(5)), [1]) == [
        "$: expected a value containing a number > 5, got [1]"
    ]


# -- unordered ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("items", "actual"),
    [
        ([M.anything(), 1], [1, 2]),
        ([M.gt(0), M.gt(1), M.gt(2)], [3, 2, 1]),
        ([{"a": 1}, {"a": 1, "b": 2}], [{"a": 1, "b": 2}, {"a": 1}]),
        ([M.non_empty(), "x"], ["x", "y"]),
        ([M.regex("a"), M.regex("ab"), M.regex("abc")], ["abc", "ab", "a"]),
    ],
)
def test_unordered_finds_a_perfect_matching_where_first_fit_fails(
    items: list[Any], actual: list[Any]
) -> None:
    assert M.unordered(items).matches(actual)
    assert M.unordered(items).explain(actual) == []


def test_unordered_basics() -> None:
    assert M.unordered([1, 2, 3]).matches([3, 1, 2])
    assert M.unordered([]).matches([])
    assert M.unordered([1, 1]).matches([1, 1])
    assert not M.unordered([1, 1]).matches([1, 2])
    assert not M.unordered([True]).matches([1])
    assert M.unordered((1, 2)).matches((2, 1))


def test_unordered_reasons_name_unpartnered_items() -> None:
    assert reasons(M.unordered([1, 1]), [1, 2]) == ["$: no partner for expected item [1] (1)"]
    assert reasons(M.unordered([M.gt(5), 1, M.gt(6)]), [1, 2, 3]) == [
        "$: no partner for expected item [0] (a number > 5)",
        "$: no partner for expected item [2] (a number > 6)",
    ]
    assert reasons(M.unordered([1, 2]), [1]) == ["$: expected 2 items, got 1"]
    assert reasons(M.unordered([1]), "1") == ["$: expected a list, got '1'"]


def test_unordered_validation() -> None:
    with pytest.raises(TypeError, match=r"^M.unordered\(\): 'items' must be sequence, got str"):
        M.unordered("ab")  # type: ignore[arg-type]


def test_unordered_where_greedy_fails_at_scale() -> None:
    n = 200
    items = [M.ge(i) for i in range(n)]
    assert M.unordered(items).matches(list(range(n - 1, -1, -1)))
    assert not M.unordered(items).matches([*range(n - 1, 0, -1), -1])


def test_maximum_matching_long_augmenting_path_needs_no_recursion() -> None:
    n = 5000
    adjacency = [[u, u + 1] for u in range(n - 1)] + [[0]]
    initial = [*range(n - 1), -1]
    assert maximum_matching(adjacency, n, initial) == [*range(1, n), 0]


def test_maximum_matching_augments_initial_matching() -> None:
    # chain: greedy [0->0, 1->1] blocks 2, which only fits 0
    adjacency = [[0, 1], [1, 2], [0]]
    assert sorted(maximum_matching(adjacency, 3, [0, 1, -1])) == [0, 1, 2]
    assert maximum_matching([[], [0]], 1) == [-1, 0]


# -- json ---------------------------------------------------------------------------------


def test_json() -> None:
    m = M.json({"ok": True})
    assert m.matches('{"ok": true, "n": 1}')
    assert m.matches(b'{"ok": true}')
    assert not m.matches('{"ok": 1}')
    assert not m.matches({"ok": True})
    assert reasons(m, '{"ok": 1}') == ["$.ok: expected True, got 1"]
    assert reasons(m, {"ok": True}) == [
        "$: expected JSON text of {'ok': True}, got {'ok': True} (not a string)"
    ]
    assert reasons(m, "nope") == [
        "$: expected JSON text of {'ok': True}, got 'nope' "
        "(invalid JSON: Expecting value: line 1 column 1 (char 0))"
    ]
    assert M.json(M.regex("^a")).matches('"abc"')
    assert M.json([1, 2]).matches("[1, 2]")
    assert not M.json(None).matches(MISSING)
