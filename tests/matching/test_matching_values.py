"""Tests for agent_asserts.matching.values: strict equality, JSON kinds, rendering."""

from __future__ import annotations

from typing import Any

import pytest

from agent_asserts._values import MISSING
from agent_asserts.matching import M, render, strict_equal
from agent_asserts.matching.values import data_key, json_kind, plural


@pytest.mark.parametrize(
    ("a", "b", "equal"),
    [
        (2, 2.0, True),
        (True, True, True),
        (True, 1, False),
        (1, True, False),
        (False, 0, False),
        (0.0, False, False),
        (True, "true", False),
        (5, "5", False),
        ("a", "a", True),
        (None, None, True),
        (None, MISSING, False),
        (MISSING, MISSING, True),
        ([1, 2], (1, 2), True),
        ([1, 2], [2, 1], False),
        ([True], [1], False),
        ({"a": [True]}, {"a": [1]}, False),
        ({"a": 1, "b": 2}, {"b": 2, "a": 1.0}, True),
        ({"a": 1}, {"a": 1, "b": 2}, False),
        ({"a": None}, {"b": None}, False),
        ([], {}, False),
        (float("nan"), float("nan"), False),
    ],
)
def test_strict_equal(a: object, b: object, equal: bool) -> None:
    assert strict_equal(a, b) is equal
    assert strict_equal(b, a) is equal


def test_strict_equal_other_types_fall_back_to_eq() -> None:
    class Weird:
        def __eq__(self, other: object) -> bool:
            raise RuntimeError("no")

        __hash__ = object.__hash__

    w = Weird()
    assert strict_equal(w, w) is False
    assert strict_equal({1, 2}, {2, 1}) is True


def test_json_kind() -> None:
    values: list[Any] = [True, 1, "s", None, [1], {}, MISSING, {1}]
    assert [json_kind(v) for v in values] == [
        "a bool",
        "a number",
        "a string",
        "null",
        "a list",
        "a mapping",
        "missing",
        "a set",
    ]


def test_render_truncates_with_ellipsis() -> None:
    text = render(list(range(100)))
    assert len(text) == 80
    assert text.endswith("…")
    assert render("short") == "'short'"


def test_render_survives_broken_repr() -> None:
    class Broken:
        def __repr__(self) -> str:
            raise ValueError("boom")

    assert render(Broken()) == "<Broken object (repr failed: ValueError)>"
    assert render([Broken()]) == "<list object (repr failed: ValueError)>"


def test_render_shows_matchers_and_missing() -> None:
    assert render({"a": M.gt(1)}) == "{'a': M.gt(1)}"
    assert render(MISSING) == "MISSING"


def test_data_key_is_json_typed() -> None:
    assert data_key(True) != data_key(1)
    assert data_key(2) == data_key(2.0)
    assert data_key({"a": [1], "b": 2}) == data_key({"b": 2, "a": (1,)})
    assert hash(data_key({"x": {"y": [1, 2]}})) == hash(data_key({"x": {"y": (1, 2)}}))
    assert data_key([{1, 2}])  # unhashable values still give a key


def test_plural() -> None:
    assert plural(0, "item") == "0 items"
    assert plural(1, "item") == "1 item"
