"""The contract dialect: loading, every problem with its position, and the native round trip."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_asserts import EvalContext, evaluate_contract
from agent_asserts.contract import Contract
from agent_asserts.loaders import LoadError, load, loads
from agent_asserts.loaders.contract import load_contract
from agent_asserts.record import TrialRecord

DATA = Path(__file__).parent / "data"

BROKEN: dict[str, list[str]] = {
    "bad_binding.yml": [
        (
            "{file}:2:21: bind.mutations.from: must be one of 'trace', 'initial_state', "
            "'final_state', 'delta' (got 'traces'; did you mean 'trace'?)"
        ),
        "{file}:3:33: bind.audits.where: unknown key 'kindd' (did you mean 'kind'?)",
        (
            "{file}:3:71: bind.audits.where.payload.text.$regx: unknown operator '$regx' "
            "(did you mean '$regex'?)"
        ),
    ],
    "bad_paths.yml": [
        (
            "{file}:2:57: bind.ids.extract: set() takes a path such as "
            "'set(payload.order_id)' (got 'set()')"
        ),
        (
            "{file}:3:38: bind.state.path: JSON Pointer must be '' or start with '/' (got "
            "'orders/A1049')"
        ),
        (
            "{file}:3:61: bind.state.extract: does not apply to initial_state (a state "
            "binding is one value)"
        ),
        "{file}:4:48: require.right: must be a whole number >= 0 (got -1)",
        (
            "{file}:4:60: require.within: does not apply to count_at_most (only "
            "follows_within and has_matching)"
        ),
    ],
    "bad_quantifier.yml": [
        ("{file}:4:15: require.quantifier: must be one of 'every', 'some', 'none' (got 'all')"),
    ],
    "bad_within.yml": [
        (
            "{file}:8:11: require.within: must be a duration such as '500ms', '2s', '1.5m' "
            "or a number of seconds (got '2 sec')"
        ),
    ],
    "duplicate_ids.yml": [
        (
            "{file}:4:15: assertions[0].severity: must be one of 'critical', 'high', "
            "'medium', 'low' (got 'urgent')"
        ),
        "{file}:7:9: assertions[1].id: 'refunded' is used twice (also assertions[0])",
        (
            "{file}:8:18: assertions[1].allow_empty: must be true or false (got 'yes'; only "
            "true and false are booleans)"
        ),
    ],
    "missing_on.json": [
        (
            "{file}:10:18: assertions[0].require.on: has_matching needs on: [fields] (the "
            "fields that must be equal)"
        ),
        (
            "{file}:10:71: assertions[0].require.right: has_matching compares events in "
            "time: 'audits' must be a trace binding without extract (or with first/last)"
        ),
    ],
    "quantifier_on_value.yml": [
        (
            "{file}:5:15: require.quantifier: applies to selections; 'status' is one value "
            "(a final_state path)"
        ),
        ("{file}:8:18: require.right.$bind: 'cuont' is not bound (bound: 'count', 'status')"),
    ],
    "unbound_left.yml": [
        (
            "{file}:9:13: assertions[0].require.left: 'mutatons' is not bound (bound: "
            "'audits', 'mutations')"
        ),
        (
            "{file}:10:14: assertions[0].require.right: 'audit' is not bound (bound: "
            "'audits', 'mutations')"
        ),
    ],
    "unknown_keys.yml": [
        "{file}:4:5: assertions[0]: unknown key 'severty' (did you mean 'severity'?)",
        "{file}:8:7: assertions[0].require: required key 'right' missing",
        "{file}:10:7: assertions[0].require: unknown key 'rigth' (did you mean 'right'?)",
    ],
    "unknown_op.yml": [
        (
            "{file}:6:19: assertions[0].require.op: must be one of 'equals', 'contains', "
            "'matches_schema', 'count_at_most', 'precedes', 'follows_within', "
            "'has_matching', 'matcher' (got 'equal'; did you mean 'equals'?)"
        ),
    ],
}


def test_the_ten_broken_files_cover_the_grammar() -> None:
    assert sorted(p.name for p in (DATA / "broken").iterdir()) == sorted(BROKEN)


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_contract_file_reports_every_problem_with_its_position(name: str) -> None:
    path = DATA / "broken" / name
    with pytest.raises(LoadError) as caught:
        load(path)
    assert str(caught.value).splitlines() == [line.format(file=path) for line in BROKEN[name]]
    with pytest.raises(LoadError) as again:
        load_contract(path)
    assert str(again.value) == str(caught.value)


AUDIT_FILE = """\
contract: refunds are audited
record: run.json
assertions:
  - id: every-mutation-audited
    severity: critical
    bind:
      mutations: {from: trace, where: {kind: mutation, status: succeeded}}
      audits:    {from: trace, where: {kind: audit}}
    require:
      quantifier: every
      op: has_matching
      left: mutations
      right: audits
      on: [operation_ref, actor_ref, entity_ref]
      within: 2s
  - id: at-most-one-refund
    severity: low
    bind:
      refunds: {from: trace, where: {kind: mutation}}
    require: {op: count_at_most, left: refunds, right: 1}
"""

RUN = {
    "events": [
        {
            "kind": "mutation",
            "operation_ref": "op-7",
            "actor_ref": "agent",
            "entity_refs": ["order:A1049"],
            "status": "succeeded",
            "monotonic_time": 1.0,
            "payload": {},
        },
        {
            "kind": "audit",
            "operation_ref": "op-7",
            "actor_ref": "agent",
            "entity_refs": ["order:A1049"],
            "monotonic_time": 1.2,
            "payload": {"text": "refund"},
        },
    ]
}


@pytest.fixture
def audit_file(tmp_path: Path) -> Path:
    (tmp_path / "run.json").write_text(json.dumps(RUN))
    path = tmp_path / "audit.yml"
    path.write_text(AUDIT_FILE)
    return path


def test_contract_file_loads_as_one_case_with_its_record(audit_file: Path) -> None:
    suite = load(audit_file)
    assert suite.dialect == "contract"
    assert suite.name == "refunds are audited"
    (case,) = suite.cases
    assert [e.check.default_name() for e in case.entries] == [
        "every-mutation-audited",
        "at-most-one-refund",
    ]
    (result,) = suite.evaluate_all()
    assert result.verdict.value == "passed"
    assert [(r.name, r.severity.value) for r in result.results] == [
        ("every-mutation-audited", "gate"),
        ("at-most-one-refund", "soft"),
    ]
    failing = suite.evaluate(TrialRecord.from_dict({"events": RUN["events"][:1]}))[0]
    assert failing.verdict.value == "failed"


def test_on_stays_a_string_key_in_yaml(audit_file: Path) -> None:
    contract = load_contract(audit_file)
    assert contract.assertions[0].require.on == ("operation_ref", "actor_ref", "entity_ref")


def test_a_yaml_1_1_reader_turning_on_into_true_is_named() -> None:
    data = {
        "bind": {"a": {"from": "trace"}, "b": {"from": "trace"}},
        "require": {"op": "has_matching", "left": "a", "right": "b", True: ["x"]},
    }
    with pytest.raises(ValueError, match=r"YAML 1\.1 reads a bare on: as true"):
        Contract.from_dict(data)


def test_evaluate_contract_and_ctx_contract_take_a_loaded_file(audit_file: Path) -> None:
    record = TrialRecord.from_dict(RUN)
    results = evaluate_contract(record, load_contract(audit_file))
    assert [r.status.value for r in results] == ["pass", "pass"]
    ctx = EvalContext(record)
    assert [h.result.name for h in ctx.contract(load_contract(str(audit_file)))] == [
        "every-mutation-audited",
        "at-most-one-refund",
    ]


def test_a_path_is_read_at_the_edge_not_by_evaluate_contract(audit_file: Path) -> None:
    record = TrialRecord.from_dict(RUN)
    message = (
        "a contract spec is a Contract, its dict form or a Suite loaded from a contract file "
        f"(got a path, {str(audit_file)!r}: read it with agent_asserts.loaders.load_contract(path))"
    )
    with pytest.raises(TypeError) as info:
        evaluate_contract(record, audit_file)
    assert str(info.value) == message
    with pytest.raises(TypeError) as info:
        EvalContext(record).contract(str(audit_file))
    assert str(info.value) == message


def test_bare_assertion_is_named_after_the_file_stem(tmp_path: Path) -> None:
    path = tmp_path / "refund_state.yml"
    path.write_text(
        "bind: {s: {from: final_state, path: /a}}\nrequire: {op: equals, left: s, right: 1}\n"
    )
    (result,) = evaluate_contract(
        TrialRecord.from_dict({"final_state": {"a": 1}}), load_contract(path)
    )
    assert (result.name, result.status.value) == ("refund_state", "pass")


def test_assertions_with_bind_and_require_are_detected_as_a_contract() -> None:
    text = (
        "assertions:\n"
        "  - id: a\n"
        "    bind: {s: {from: final_state, path: /a}}\n"
        "    require: {op: equals, left: s, right: 1}\n"
    )
    suite = loads(text, name="c.yml")
    assert (suite.dialect, suite.name) == ("contract", "c")


def test_dict_round_trip_keeps_every_key() -> None:
    contract = load_contract_text(AUDIT_FILE)
    again = Contract.from_dict(contract.to_dict())
    assert again == contract
    assert again.to_dict()["assertions"][0]["require"]["within"] == "2s"


def load_contract_text(text: str) -> Contract:
    suite = loads(text, name="audit.yml")
    return Contract(suite.name, [e.check.assertion for e in suite.cases[0].entries])  # type: ignore[attr-defined]


def test_native_round_trip_gives_the_same_results(audit_file: Path) -> None:
    suite = load(audit_file)
    native = suite.to_dict()
    again = load(native, dialect="native")
    record = TrialRecord.from_dict({**RUN, "events": RUN["events"][:1]})
    first = [r.to_dict() for r in suite.evaluate(record)[0].results]
    second = [r.to_dict() for r in again.evaluate(record)[0].results]
    assert first == second
    assert [r["status"] for r in first] == ["fail", "pass"]


def test_a_native_contract_entry_reports_problems_at_their_positions() -> None:
    text = (
        "checks:\n"
        "  - contract:\n"
        "      id: a\n"
        "      bind: {}\n"
        "      require: {op: equals, left: x, right: 1}\n"
    )
    with pytest.raises(LoadError) as caught:
        loads(text, name="n.yml")
    assert (
        str(caught.value)
        == "n.yml:5:35: checks[0].contract.require.left: 'x' is not bound (bound: none)"
    )


TWO_TRACES = (
    "bind:\n  m: {from: trace, where: {kind: mutation}}\n  a: {from: trace, where: {kind: audit}}\n"
)


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        (
            "bind: {m: {from: trace, extract: 'set(payload'}}\n"
            "require: {op: equals, left: m, right: 1}\n",
            [
                "c.yml:1:34: bind.m.extract: set( needs its closing ')': set(<path>) "
                "(got 'set(payload')"
            ],
        ),
        (
            "bind: {m: {from: trace, extract: payload.a(b)}}\n"
            "require: {op: equals, left: m, right: 1}\n",
            [
                "c.yml:1:34: bind.m.extract: must be count, first, last, set(<path>) or a path "
                "such as 'payload.arguments.amount' (got 'payload.a(b)')"
            ],
        ),
        (
            "bind: {m: {from: trace, extract: set(Payload.x)}}\n"
            "require: {op: equals, left: m, right: 1}\n",
            [
                "c.yml:1:34: bind.m.extract: unknown event field 'Payload' (did you mean "
                "'payload'?); a path into an event starts with an envelope field or payload"
            ],
        ),
        (
            TWO_TRACES + "require: {op: has_matching, left: m, right: a, on: [operation_rf]}\n",
            [
                "c.yml:4:53: require.on[0]: unknown event field 'operation_rf' (did you mean "
                "'operation_ref'?); an on field of events is an envelope field, entity_ref or a "
                "payload path"
            ],
        ),
        (
            TWO_TRACES + "require: {op: follows_within, left: m, right: a, within: null}\n",
            ["c.yml:4:58: require.within: is required (got null)"],
        ),
        (
            "bind: {m: {from: trace, where: {turn: '1'}}}\n"
            "require: {quantifier: some, op: equals, left: m, right: 1}\n",
            ["c.yml:1:39: bind.m.where.turn: must be an integer (got '1')"],
        ),
        (
            "bind: {m: {from: trace, where: null}}\nrequire: {op: equals, left: m, right: 1}\n",
            ["c.yml:1:32: bind.m.where: is required (got null)"],
        ),
        (
            "bind:\n"
            "  m: {from: trace, where: {payload: null, turn: null}, extract: null}\n"
            "  s: {from: final_state, path: null}\n"
            "require: {quantifier: null, op: equals, left: m, right: null}\n",
            [
                "c.yml:2:37: bind.m.where.payload: is required (got null)",
                "c.yml:2:49: bind.m.where.turn: is required (got null)",
                "c.yml:2:65: bind.m.extract: is required (got null)",
                "c.yml:3:32: bind.s.path: is required (got null)",
                "c.yml:4:23: require.quantifier: is required (got null)",
            ],
        ),
    ],
)
def test_mistakes_that_only_showed_at_evaluation_are_load_errors(
    text: str, lines: list[str]
) -> None:
    with pytest.raises(LoadError) as caught:
        loads(text, name="c.yml")
    assert str(caught.value).splitlines() == lines


def test_paths_into_extracted_values_and_right_null_stay_accepted() -> None:
    extracted = loads(
        "bind: {m: {from: trace, extract: payload.x}, a: {from: trace, extract: payload}}\n"
        "require: {op: has_matching, left: m, right: a, on: [order_id]}\n"
    )
    assert extracted.cases[0].checks
    literal = loads(
        "bind: {s: {from: final_state, path: /a}}\nrequire: {op: equals, left: s, right: null}\n"
    )
    record = TrialRecord.from_dict({"events": [], "final_state": {"a": None}})
    (result,) = literal.evaluate(record)[0].results
    assert result.status.value == "pass"
