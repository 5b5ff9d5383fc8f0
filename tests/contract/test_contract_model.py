"""The contract objects: building in Python, the dict form, validation of every key."""

from __future__ import annotations

from typing import Any

import pytest

from agent_asserts.contract import (
    Binding,
    BindRef,
    Condition,
    Contract,
    ContractAssertion,
    ContractError,
    Requirement,
)
from agent_asserts.contract.grammar import (
    format_within,
    parse_extract,
    parse_item_path,
    parse_within,
)
from agent_asserts.matching import M
from agent_asserts.results import Severity


def _assertion(**changes: Any) -> ContractAssertion:
    fields: dict[str, Any] = {
        "id": "every-mutation-audited",
        "bind": (
            Binding("mutations", "trace", where={"kind": "mutation", "status": "succeeded"}),
            Binding("audits", "trace", where={"kind": "audit"}),
        ),
        "require": Requirement(
            "has_matching", "mutations", "audits", on=("operation_ref", "entity_ref"), within=2
        ),
    }
    fields.update(changes)
    return ContractAssertion(**fields)


def test_python_objects_round_trip_through_the_dict_form() -> None:
    contract = Contract(
        "refunds",
        [
            _assertion(severity="critical"),
            ContractAssertion(
                "refund-amount",
                bind=[
                    Binding(
                        "calls",
                        "trace",
                        where={"payload": {"name": M.regex("^refund")}},
                        extract="payload.arguments.amount",
                    ),
                    Binding("limit", "initial_state", path="/limits/refund"),
                    Binding("changes", "delta", where={"path": "/orders", "op": ["changed"]}),
                ],
                require=Requirement("matcher", "calls", M.le(100), matcher="structural"),
                when=Condition(Requirement("count_at_most", "changes", 3)),
                severity="low",
                allow_empty=True,
            ),
            ContractAssertion(
                "same-as-limit",
                bind=[
                    Binding("calls", "trace", extract="set(payload.amount)"),
                    Binding("limit", "initial_state", path="/limits/refund"),
                ],
                require=Requirement("contains", "calls", BindRef("limit"), quantifier="none"),
            ),
        ],
    )
    data = contract.to_dict()
    assert data["assertions"][1]["bind"]["calls"]["where"] == {
        "payload": {"name": {"$regex": "^refund"}}
    }
    assert data["assertions"][1]["require"]["right"] == {"$le": 100}
    assert data["assertions"][2]["require"]["right"] == {"$bind": "limit"}
    assert data["assertions"][0]["require"]["within"] == "2s"
    assert Contract.from_dict(data) == contract


def test_severity_words_map_to_gate_and_soft() -> None:
    words = {w: _assertion(severity=w).gate_severity for w in ("critical", "high", "medium", "low")}
    assert words == {
        "critical": Severity.GATE,
        "high": Severity.GATE,
        "medium": Severity.SOFT,
        "low": Severity.SOFT,
    }
    assert _assertion().severity == "high"


def test_python_objects_check_themselves() -> None:
    with pytest.raises(ContractError) as caught:
        _assertion(require=Requirement("has_matching", "mutatons", "audits", on=("operation_ref",)))
    assert str(caught.value) == (
        "require.left: 'mutatons' is not bound (bound: 'audits', 'mutations')"
    )
    with pytest.raises(ContractError, match=r"^within: must be a duration"):
        Requirement("follows_within", "a", "b", within="soon")
    with pytest.raises(ContractError, match=r"^from: must be one of 'trace'"):
        Binding("x", "log")
    with pytest.raises(ContractError, match="'refunded' is used twice"):
        Contract("c", [_assertion(id="refunded"), _assertion(id="refunded")])


def test_from_dict_collects_every_problem_of_a_contract() -> None:
    data = {
        "contract": "refunds",
        "assertions": [
            {
                "id": "a",
                "severity": "urgent",
                "bind": {
                    "mutations": {"from": "trace", "where": {"knd": "mutation"}},
                    "audits": {"from": "trace"},
                },
                "require": {
                    "op": "has_matching",
                    "left": "mutatons",
                    "right": "audits",
                    "on": ["operation_ref"],
                    "within": "2 sec",
                    "quantifer": "every",
                },
            },
            {"id": "b", "bind": [], "require": {"op": "precedes", "left": "x"}},
            {
                "id": "c",
                "bind": {"s": {"from": "final_state", "path": "/a"}},
                "require": {"op": "matcher", "left": "s", "right": 1, "matcher": "fuzzy"},
            },
        ],
    }
    with pytest.raises(ContractError) as caught:
        Contract.from_dict(data)
    assert str(caught.value).splitlines() == [
        "9 problems in the contract:",
        "  assertions[0].severity: must be one of 'critical', 'high', 'medium', 'low' "
        "(got 'urgent')",
        "  assertions[0].bind.mutations.where: unknown key 'knd' (did you mean 'kind'?)",
        "  assertions[0].require: unknown key 'quantifer' (did you mean 'quantifier'?)",
        "  assertions[0].require.left: 'mutatons' is not bound (bound: 'audits', 'mutations')",
        "  assertions[0].require.within: must be a duration such as '500ms', '2s', '1.5m' or a "
        "number of seconds (got '2 sec')",
        "  assertions[1].bind: must be a mapping (got a list)",
        "  assertions[1].require.left: 'x' is not bound (bound: none)",
        "  assertions[1].require: required key 'right' missing",
        "  assertions[2].require.matcher: must be one of 'exact', 'structural', 'semantic', "
        "'grounded_semantic', 'custom' (got 'fuzzy')",
    ]


@pytest.mark.parametrize(
    ("require", "message"),
    [
        (
            {"op": "equals", "left": "s", "right": 1, "on": ["a"]},
            "require.on: does not apply to equals (only has_matching, precedes, follows_within)",
        ),
        (
            {"op": "has_matching", "left": "s", "right": "t", "on": ["turn", "turn"]},
            "require.on[1]: 'turn' is listed twice",
        ),
        (
            {"op": "follows_within", "left": "s", "right": "t"},
            "require: required key 'within' missing (follows_within needs a time bound)",
        ),
        (
            {"op": "count_at_most", "left": "s", "right": 1, "quantifier": "every"},
            "require.quantifier: does not apply to count_at_most (it counts the whole selection)",
        ),
        (
            {"op": "matcher", "left": "s", "right": 1, "matcher": "custom"},
            "require: matcher: custom needs custom: <name given to register_matcher>",
        ),
        (
            {"op": "matcher", "left": "s", "right": 1, "matcher": "semantic"},
            "require.right: must be the criterion text for the judge (got 1)",
        ),
        (
            {"op": "matcher", "left": "s", "right": "x", "matcher": "grounded_semantic"},
            "require.grounding: grounded_semantic needs grounding: [binding names] (got None)",
        ),
        (
            {"op": "matches_schema", "left": "s", "right": {"type": "strin"}},
            "require.right: is not a valid JSON Schema: 'strin' is not valid under any of the "
            "given schemas at ['type']",
        ),
        (
            {"op": "equals", "left": "s", "right": {"$gt": "x"}},
            "require.right.$gt: $gt takes a number (got 'x')",
        ),
        (
            {"op": "equals", "left": "s", "right": 1, "grounding": ["t"]},
            "require.grounding: does not apply to equals (only op: matcher)",
        ),
    ],
)
def test_requirement_rules(require: dict[str, Any], message: str) -> None:
    bind = {"s": {"from": "trace"}, "t": {"from": "trace"}}
    with pytest.raises(ContractError) as caught:
        Contract.from_dict({"bind": bind, "require": require})
    assert str(caught.value) == message


def test_bare_form_and_names() -> None:
    bare = {
        "bind": {"n": {"from": "trace", "extract": "count"}},
        "require": {"op": "equals", "left": "n", "right": 0},
    }
    assert Contract.from_dict(bare).assertions[0].id == "contract"
    assert Contract.from_dict(bare, name="audit").assertions[0].id == "audit"
    named = Contract.from_dict({"contract": "refunds", **bare})
    assert (named.name, named.assertions[0].id) == ("refunds", "refunds")
    with pytest.raises(ContractError, match="not both"):
        Contract.from_dict({"contract": "a", "name": "b", **bare})


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("500ms", 0.5), ("2s", 2.0), ("1.5m", 90.0), (3, 3.0), (0.25, 0.25), ("0s", 0.0)],
)
def test_within_forms(text: Any, seconds: float) -> None:
    assert parse_within(text) == seconds
    assert parse_within(format_within(seconds)) == seconds


@pytest.mark.parametrize("bad", ["2 sec", "-1s", -1, True, "1h", "", None])
def test_bad_within(bad: Any) -> None:
    with pytest.raises(ValueError, match="must be a duration"):
        parse_within(bad)


def test_extract_and_item_paths() -> None:
    assert parse_extract("set(payload.order_id)").path == ("payload", "order_id")
    assert parse_extract("count").single
    assert not parse_extract("payload.items[0].sku").single
    assert parse_item_path("/payload/items/0") == ("payload", "items", "0")
    with pytest.raises(ValueError, match="must be count, first, last, set"):
        parse_extract("payload..x")
