"""SOP assertion operators, field paths, the catalog resolver and the pinned behaviours."""

from __future__ import annotations

from typing import Any

import pytest

from agent_asserts.loaders import LoadError, load
from agent_asserts.loaders.sop import default_resolver, field_path, nest, op_matcher
from agent_asserts.matching import M
from agent_asserts.record import TrialRecord
from agent_asserts.results import AssertionResult

MISSING_FIELD = object()


def one(kind: str, assertions: dict[str, Any], *calls: Any) -> AssertionResult:
    doc = [{"type": kind, "toolSlug": "t", "assertions": assertions}]
    builder = TrialRecord.builder()
    for value in calls:
        if kind == "tool_input_contains":
            builder.tool("t", value)
        else:
            builder.tool("t", {}, result=value)
    (result,) = load(doc).cases[0].evaluate(builder.build()).results
    return result


def field(kind: str, spec: dict[str, Any], value: Any) -> str:
    actual = {} if value is MISSING_FIELD else {"f": value}
    return one(kind, {"f": spec}, actual).status.value


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (0, "pass"),
        (False, "pass"),
        ("", "pass"),
        ([], "pass"),
        ("x", "pass"),
        (None, "fail"),
        (MISSING_FIELD, "fail"),
    ],
)
def test_exists(value: Any, expected: str) -> None:
    for kind in ("tool_input_contains", "tool_output_contains"):
        assert field(kind, {"op": "exists"}, value) == expected


def test_exists_explains_a_null_clearly() -> None:
    result = one("tool_input_contains", {"f": {"op": "exists"}}, {"f": None})
    assert [str(m) for m in result.mismatches] == [
        "$.arguments.f: expected a value that is present and not null, got None"
    ]


@pytest.mark.parametrize(
    ("want", "value", "expected"),
    [
        (123, "123", "pass"),
        ("123", 123, "pass"),
        (True, "true", "pass"),
        ("true", True, "pass"),
        ("True", True, "fail"),
        (2, 2.0, "pass"),
        ("2", 2.0, "pass"),
        ("2.0", 2.0, "fail"),
        (1.5, "1.5", "pass"),
        ("null", None, "pass"),
        ("x", MISSING_FIELD, "fail"),
        ("US", "us", "fail"),
    ],
)
def test_equals_compares_javascript_string_forms(want: Any, value: Any, expected: str) -> None:
    for kind in ("tool_input_contains", "tool_output_contains"):
        assert field(kind, {"op": "equals", "value": want}, value) == expected


@pytest.mark.parametrize(
    ("op", "bound", "value", "expected"),
    [
        ("gt", 5, 6, "pass"),
        ("gt", 5, "6", "pass"),
        ("gt", 5, " 6.5 ", "pass"),
        ("gt", 5, "1e3", "pass"),
        ("gt", 5, 5, "fail"),
        ("gt", 5, "abc", "fail"),
        ("gt", 5, True, "fail"),
        ("gt", 5, None, "fail"),
        ("gt", 5, "", "fail"),
        ("lt", 5, "4", "pass"),
        ("lt", 5.5, 5, "pass"),
        ("lt", 5, "5", "fail"),
        ("lt", 5, [1], "fail"),
        ("lt", 5, MISSING_FIELD, "fail"),
    ],
)
def test_gt_and_lt_are_numeric(op: str, bound: float, value: Any, expected: str) -> None:
    assert field("tool_input_contains", {"op": op, "value": bound}, value) == expected


@pytest.mark.parametrize(
    ("value", "expected"), [("A-1049", "pass"), ("B-1", "fail"), (1049, "fail"), (None, "fail")]
)
def test_matches(value: Any, expected: str) -> None:
    assert field("tool_input_contains", {"op": "matches", "pattern": "^A-\\d+"}, value) == expected


@pytest.mark.parametrize(
    ("op", "spec", "value", "expected"),
    [
        ("contains", {"value": "gift"}, "a gift card", "pass"),
        ("contains", {"value": "gift"}, ["gift"], "pass"),
        ("contains", {"value": "gift"}, "card", "fail"),
        ("not_in", {"values": ["shipped", "delivered"]}, "paid", "pass"),
        ("not_in", {"values": ["shipped", "delivered"]}, None, "pass"),
        ("not_in", {"values": ["shipped", "delivered"]}, "delivered", "fail"),
        ("not_in", {"values": [1, "x"]}, "1", "fail"),
        ("not_in", {"values": ["shipped"]}, MISSING_FIELD, "fail"),
    ],
)
def test_output_ops(op: str, spec: dict[str, Any], value: Any, expected: str) -> None:
    assert field("tool_output_contains", {"op": op, **spec}, value) == expected


def test_dotted_paths_and_json_pointers() -> None:
    assert field_path("a.b.c") == ("a", "b", "c")
    assert field_path("/a.b/c~1d~0") == ("a.b", "c/d~")
    arguments = {"address": {"zip": "94103", "geo": {"lat": 1}}, "a.b": {"c": 2}}
    assertions = {
        "address.zip": {"op": "matches", "pattern": "^\\d{5}$"},
        "address": {"op": "exists"},
        "address.geo.lat": {"op": "lt", "value": 2},
        "/a.b/c": {"op": "equals", "value": "2"},
    }
    assert one("tool_input_contains", assertions, arguments).status.value == "pass"
    assert nest(
        [
            (field_path(k), op_matcher(v["op"], v.get("value", v.get("pattern"))))
            for k, v in assertions.items()
        ]
    ) == {
        "address": M.all_of(
            M.not_in(None),
            {"zip": M.regex("^\\d{5}$"), "geo": {"lat": M.any_of(M.lt(2), M.json(M.lt(2)))}},
        ),
        "a.b": {"c": M.loose("2")},
    }
    result = one("tool_input_contains", assertions, {"address": "94103", "a.b": {"c": 3}})
    assert [str(m) for m in result.mismatches] == [
        "$.arguments.address: expected a mapping, got '94103'",
        "$.arguments['a.b'].c: expected a value whose string form is '2', got 3 (string form '3')",
    ]


def test_one_call_must_satisfy_every_assertion_and_failures_list_the_closest_call() -> None:
    assertions = {
        "a": {"op": "equals", "value": 1},
        "b": {"op": "equals", "value": 2},
        "c": {"op": "exists"},
    }
    split = one("tool_input_contains", assertions, {"a": 1, "b": 0, "c": 1}, {"a": 0, "b": 2})
    assert split.status.value == "fail"
    assert split.closest == "e0"
    assert [m.path for m in split.mismatches] == ["$.arguments.b"]
    worst = one("tool_input_contains", assertions, {"a": 5, "b": 6})
    assert [str(m) for m in worst.mismatches] == [
        "$.arguments.a: expected a value whose string form is '1', got 5 (string form '5')",
        "$.arguments.b: expected a value whose string form is '2', got 6 (string form '6')",
        "$.arguments.c: missing key (expected a value that is present and not null)",
    ]
    assert one("tool_input_contains", assertions, {"a": 0}, {"a": "1", "b": 2.0, "c": 0}).passed


def test_the_catalog_resolver() -> None:
    assert default_resolver("shopify", "get_order") == "shopify_get_order"
    doc = [
        {"type": "tool_called", "toolSlug": "get_order", "catalogSlug": "shopify"},
        {"type": "tool_called", "toolSlug": "get_order"},
    ]
    seen: list[tuple[str | None, str]] = []

    def resolver(catalog: str | None, slug: str) -> str:
        seen.append((catalog, slug))
        return f"{catalog or 'default'}.{slug}"

    checks = load(doc, tool_resolver=resolver).cases[0].checks
    assert [c.describe() for c in checks] == [
        "called_tool('shopify.get_order')",
        "called_tool('default.get_order')",
    ]
    assert seen == [("shopify", "get_order"), (None, "get_order")]


def test_a_resolver_that_fails_is_a_load_problem() -> None:
    def broken(catalog: str | None, slug: str) -> str:
        raise ValueError(f"unknown catalog {catalog!r}")

    with pytest.raises(LoadError) as caught:
        load([{"type": "tool_called", "toolSlug": "a", "catalogSlug": "zz"}], tool_resolver=broken)
    assert str(caught.value) == (
        "<data>: [0]: tool_resolver raised ValueError for 'a': unknown catalog 'zz'"
    )
    with pytest.raises(LoadError) as caught:
        load([{"type": "tool_called", "toolSlug": "a"}], tool_resolver=lambda c, s: None)
    assert str(caught.value) == "<data>: [0]: tool_resolver returned None for 'a'"


SEQUENCE = [
    {
        "type": "tool_sequence",
        "sequence": ["get_order|look_up_order", "set_delivery_address"],
        "contiguous": True,
    }
]


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        (["get_order", "set_delivery_address"], "pass"),
        (["look_up_order", "set_delivery_address"], "pass"),
        (["get_order", "lookup_customer", "set_delivery_address"], "fail"),
        (["look_up_order", "get_order", "x", "get_order", "set_delivery_address"], "pass"),
        (["set_delivery_address", "get_order"], "fail"),
    ],
)
def test_contiguous_tool_sequence_with_alternatives(names: list[str], expected: str) -> None:
    builder = TrialRecord.builder()
    for name in names:
        builder.tool(name).agent("…")
    (result,) = load(SEQUENCE).cases[0].evaluate(builder.build()).results
    assert result.status.value == expected


def test_non_contiguous_sequence_allows_tools_between() -> None:
    doc = [{**SEQUENCE[0], "contiguous": False}]
    rec = TrialRecord.builder().tool("get_order").tool("x").tool("set_delivery_address").build()
    assert load(doc).cases[0].evaluate(rec).results[0].status.value == "pass"


def test_llm_judge_accepts_catalog_slug_and_keeps_it_as_case_metadata() -> None:
    suite = load([{"type": "llm_judge", "criterion": "polite", "catalogSlug": "shopify"}])
    (case,) = suite.cases
    assert case.metadata == {"llm_judge_catalogs": {"llm_judge:polite": "shopify"}}
    assert [e.name for e in case.entries] == ["llm_judge:polite"]


def test_matches_takes_value_as_the_pattern_and_input_takes_contains() -> None:
    # modelguide's own implementation and tests accept both (docs/decisions.md)
    from agent_asserts.loaders import load
    from agent_asserts.record import TrialRecord

    suite = load(
        [
            {
                "type": "tool_input_contains",
                "toolSlug": "set_address",
                "assertions": {
                    "zip": {"op": "matches", "value": "^[0-9]{5}$"},
                    "name": {"op": "contains", "value": "Ada"},
                },
            }
        ],
        dialect="sop",
    )
    ok = TrialRecord.builder().tool("set_address", {"zip": "94103", "name": "Ada L."}).build()
    bad = TrialRecord.builder().tool("set_address", {"zip": "9410", "name": "Bob"}).build()
    assert [c.verdict.value for c in suite.evaluate(ok)] == ["passed"]
    (case,) = suite.evaluate(bad)
    assert [str(m) for m in case.results[0].mismatches] == [
        "$.arguments.zip: expected a match of '^[0-9]{5}$', got '9410'",
        "$.arguments.name: expected a value containing 'Ada', got 'Bob'",
    ]
