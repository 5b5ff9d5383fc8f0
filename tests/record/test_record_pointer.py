"""JSON Pointer helpers (RFC 6901)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_asserts import MISSING
from agent_asserts.record import escape_token, join, parse_pointer, resolve
from agent_asserts.record.delta import unescape_token

DOC = {
    "foo": ["bar", "baz"],
    "": 0,
    "a/b": 1,
    "c%d": 2,
    "e^f": 3,
    "g|h": 4,
    "i\\j": 5,
    'k"l': 6,
    " ": 7,
    "m~n": 8,
}


@pytest.mark.parametrize(
    ("pointer", "expected"),
    [
        ("", DOC),
        ("/foo", ["bar", "baz"]),
        ("/foo/0", "bar"),
        ("/", 0),
        ("/a~1b", 1),
        ("/c%d", 2),
        ("/e^f", 3),
        ("/g|h", 4),
        ("/i\\j", 5),
        ('/k"l', 6),
        ("/ ", 7),
        ("/m~0n", 8),
    ],
)
def test_rfc6901_examples(pointer: str, expected: object) -> None:
    assert resolve(DOC, pointer) == expected


@pytest.mark.parametrize(
    "pointer", ["/foo/2", "/foo/-", "/foo/01", "/foo/x", "/nope", "/foo/0/deeper", "/foo/-1"]
)
def test_absent_paths_resolve_to_missing(pointer: str) -> None:
    assert resolve(DOC, pointer) is MISSING


def test_null_value_is_not_missing() -> None:
    assert resolve({"a": None}, "/a") is None


def test_escape_order_matters() -> None:
    assert escape_token("~1") == "~01"
    assert unescape_token("~01") == "~1"
    assert parse_pointer("/~01") == ("~1",)


@pytest.mark.parametrize("pointer", ["a", "#/a", "~"])
def test_pointer_must_start_with_slash(pointer: str) -> None:
    with pytest.raises(ValueError, match="must be '' or start with '/'"):
        parse_pointer(pointer)


@pytest.mark.parametrize("pointer", ["/a~", "/a~2", "/~x"])
def test_invalid_escape(pointer: str) -> None:
    with pytest.raises(ValueError, match="invalid escape"):
        parse_pointer(pointer)


def test_non_string_pointer() -> None:
    with pytest.raises(TypeError):
        parse_pointer(3)  # type: ignore[arg-type]


def test_join() -> None:
    assert join("", "") == "/"
    assert join("/a", "b/c") == "/a/b~1c"
    assert join("/a", 0) == "/a/0"


@given(st.lists(st.text(max_size=5), max_size=5))
def test_join_and_parse_round_trip(tokens: list[str]) -> None:
    pointer = ""
    for token in tokens:
        pointer = join(pointer, token)
    assert parse_pointer(pointer) == tuple(tokens)


@given(st.text())
def test_escape_round_trip(token: str) -> None:
    escaped = escape_token(token)
    assert "/" not in escaped
    assert unescape_token(escaped) == token
