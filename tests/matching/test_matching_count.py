"""Tests for Count."""

from __future__ import annotations

from typing import Any

import pytest

from agent_asserts.matching import Count, MatcherError


def test_factories_and_matches() -> None:
    assert Count.exactly(2).matches(2)
    assert not Count.exactly(2).matches(3)
    assert Count.at_least(2).matches(5)
    assert not Count.at_least(2).matches(1)
    assert Count.at_most(2).matches(0)
    assert not Count.at_most(2).matches(3)
    assert Count.between(1, 3).matches(1)
    assert Count.between(1, 3).matches(3)
    assert not Count.between(1, 3).matches(4)
    assert Count.satisfies(lambda n: n % 2 == 0).matches(4)


def test_of() -> None:
    assert Count.of(None) == Count.at_least(1)
    assert Count.of(3) == Count.exactly(3)
    assert Count.of(0) == Count.exactly(0)
    c = Count.between(1, 2)
    assert Count.of(c) is c


@pytest.mark.parametrize("bad", [-1, True, False, 1.5, "2"])
def test_of_rejects(bad: Any) -> None:
    with pytest.raises(ValueError, match="int >= 0"):
        Count.of(bad)


@pytest.mark.parametrize(
    "build",
    [
        lambda: Count.exactly(-1),
        lambda: Count.at_least(True),
        lambda: Count.at_most(-2),
        lambda: Count.between(3, 1),
        lambda: Count.between(-1, 1),
        lambda: Count.satisfies(5),  # type: ignore[arg-type]
    ],
)
def test_validation(build: Any) -> None:
    with pytest.raises(ValueError, match="Count"):
        build()


def is_odd(n: int) -> bool:
    return n % 2 == 1


def test_describe_and_repr() -> None:
    cases = [
        (Count.exactly(1), "exactly 1", "Count.exactly(1)"),
        (Count.at_least(2), "at least 2", "Count.at_least(2)"),
        (Count.at_most(3), "at most 3", "Count.at_most(3)"),
        (Count.between(1, 3), "between 1 and 3", "Count.between(1, 3)"),
        (Count.satisfies(is_odd), "a count satisfying is_odd", "Count.satisfies(is_odd)"),
    ]
    for count, description, text in cases:
        assert count.describe() == description
        assert repr(count) == text


def test_to_data_round_trip() -> None:
    for count, data in [
        (Count.exactly(1), 1),
        (Count.at_least(2), {"at_least": 2}),
        (Count.at_most(3), {"at_most": 3}),
        (Count.between(1, 3), {"between": [1, 3]}),
    ]:
        assert count.to_data() == data
        assert Count.from_data(data) == count
    assert Count.from_data(None) == Count.at_least(1)
    with pytest.raises(TypeError, match="no YAML/JSON form"):
        Count.satisfies(is_odd).to_data()
    with pytest.raises(ValueError, match="a count is an int"):
        Count.from_data({"atleast": 1})


def test_satisfies_raising() -> None:
    def boom(n: int) -> bool:
        raise RuntimeError("x")

    with pytest.raises(MatcherError, match=r"Count.satisfies\(.*boom\) raised RuntimeError: x"):
        Count.satisfies(boom).matches(1)
