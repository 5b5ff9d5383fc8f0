"""LoadProblem / LoadError formatting and the ProblemCollector's wording."""

from __future__ import annotations

import pickle

import pytest

from agent_asserts.loaders.collector import (
    LoadError,
    LoadProblem,
    ProblemCollector,
    unknown_key_message,
)
from agent_asserts.loaders.nodes import MappingNode, from_plain
from agent_asserts.loaders.source import parse_text


def test_problem_text_and_sorting() -> None:
    err = LoadError(
        [
            LoadProblem(
                "s.yml",
                14,
                9,
                "goals.assertions[2].tool_executed.source",
                "must be 'local' or 'mcp' (got 'remote')",
            ),
            LoadProblem("s.yml", 3, 1, "", "first"),
            LoadProblem("s.yml", 3, 1, "", "first"),
            LoadProblem("s.yml", 3, 7, "a", "second"),
        ]
    )
    assert str(err) == (
        "s.yml:3:1: first\n"
        "s.yml:3:7: a: second\n"
        "s.yml:14:9: goals.assertions[2].tool_executed.source: "
        "must be 'local' or 'mcp' (got 'remote')"
    )
    assert isinstance(err, ValueError)
    assert len(err.problems) == 3


def test_load_error_pickles() -> None:
    err = LoadError([LoadProblem("s.yml", 1, 2, "a", "b")])
    again = pickle.loads(pickle.dumps(err))
    assert again.problems == err.problems
    assert str(again) == str(err)


def test_unknown_key_messages() -> None:
    assert unknown_key_message("tool_nme", ["tool_name", "source"]) == (
        "unknown key 'tool_nme' (did you mean 'tool_name'?)"
    )
    assert unknown_key_message("zz", ["a"]) == "unknown key 'zz' (expected 'a')"
    many = [f"key{i}" for i in range(20)]
    assert unknown_key_message("zz", many) == "unknown key 'zz'"


def collect(text: str) -> tuple[MappingNode, ProblemCollector]:
    doc = parse_text(text, file="s.yml")
    assert isinstance(doc, MappingNode)
    return doc, ProblemCollector("s.yml")


def test_accessor_wording() -> None:
    doc, p = collect(
        "s: 3\nl: a\nm: [1]\nn: null\ni: 1.5\nb: yes\nc: remote\nc3: x\nnum: '3'\ne: ''\n"
        "neg: -2\nok: [x]\n"
    )
    assert p.expect_str(doc.get("s")) is None
    assert p.expect_list(doc.get("l")) is None
    assert p.expect_mapping(doc.get("m")) is None
    assert p.expect_str(doc.get("n")) is None
    assert p.expect_int(doc.get("i")) is None
    assert p.expect_bool(doc.get("b")) is None
    assert p.expect_choice(doc.get("c"), ["local", "mcp"]) is None
    assert p.expect_choice(doc.get("c3"), ["a", "b", "c"]) is None
    assert p.expect_number(doc.get("num")) is None
    assert p.expect_str(doc.get("e"), non_empty=True) is None
    assert p.expect_int(doc.get("neg"), minimum=0) is None
    assert p.expect_list(doc.get("ok"), non_empty=True) is not None
    assert p.expect_str(doc.get("absent")) is None  # absent: no problem
    assert str(p.error()) == (
        "s.yml:1:4: s: must be a string (got 3)\n"
        "s.yml:2:4: l: must be a list (got 'a')\n"
        "s.yml:3:4: m: must be a mapping (got a list)\n"
        "s.yml:4:4: n: is required (got null)\n"
        "s.yml:5:4: i: must be an integer (got 1.5)\n"
        "s.yml:6:4: b: must be true or false (got 'yes'; only true and false are booleans)\n"
        "s.yml:7:4: c: must be 'local' or 'mcp' (got 'remote')\n"
        "s.yml:8:5: c3: must be one of 'a', 'b', 'c' (got 'x')\n"
        "s.yml:9:6: num: must be a number (got '3')\n"
        "s.yml:10:4: e: must not be empty\n"
        "s.yml:11:6: neg: must be >= 0 (got -2)"
    )


def test_booleans_are_not_numbers() -> None:
    doc, p = collect("t: true\n")
    assert p.expect_int(doc.get("t")) is None
    assert p.expect_number(doc.get("t")) is None
    assert [pr.message for pr in p.problems] == [
        "must be an integer (got true)",
        "must be a number (got true)",
    ]


def test_check_keys_reports_missing_and_unknown_at_the_key() -> None:
    doc, p = collect("checks:\n  - tool_nme: x\n    sourc: mcp\n")
    entry = doc.get("checks").items[0]  # type: ignore[union-attr]
    assert isinstance(entry, MappingNode)
    assert not p.check_keys(entry, required=["tool_name"], optional=["source", "count"])
    assert str(p.error()) == (
        "s.yml:2:5: checks[0]: required key 'tool_name' missing\n"
        "s.yml:2:5: checks[0]: unknown key 'tool_nme' (did you mean 'tool_name'?)\n"
        "s.yml:3:5: checks[0]: unknown key 'sourc' (did you mean 'source'?)"
    )


def test_list_accepts_a_scalar_when_asked() -> None:
    p = ProblemCollector("<data>")
    items = p.expect_list(from_plain({"a": "x"}).get("a"), allow_scalar=True)  # type: ignore[union-attr]
    assert items is not None and [i.path_str for i in items] == ["a"]
    assert p.expect_list(from_plain(None), allow_scalar=True) is None
    assert str(p.error()) == "<data>: is required (got null)"


def test_raise_if_any() -> None:
    p = ProblemCollector("s.yml")
    p.raise_if_any()
    p.add(None, "boom")
    with pytest.raises(LoadError, match=r"^s\.yml: boom$"):
        p.raise_if_any()
