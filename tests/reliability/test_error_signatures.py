"""The wrong error types of issue 25 (Medium 12, the suite, contract, Mantle and matcher ones):
each is now the documented error naming where the problem is (docs/errors.md)."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from agent_asserts import evaluate_contract
from agent_asserts.contract import ContractError
from agent_asserts.contract.grammar import format_within, parse_within
from agent_asserts.loaders import LoadError, load, loads
from agent_asserts.matching import M
from agent_asserts.record import RecordError
from agent_asserts.record.reading import iter_records
from agent_asserts.testing import demo_record

TOO_DEEP = "nested more than 200 levels deep (the limit of nesting)"


def _nest(levels: int, mapping: bool) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = {"a": value} if mapping else [value]
    return value


def _load_error(text: str, dialect: str) -> str:
    with pytest.raises(LoadError) as caught:
        loads(text, dialect=dialect)
    return str(caught.value)


MANTLE = "scenario:\n  name: s\n  goals:\n"


@pytest.mark.parametrize("blank", ['"   "', '"\\t"'])
def test_a_whitespace_only_mantle_criterion_is_a_load_error(blank: str) -> None:
    # was TypeError from JudgeCheck
    text = MANTLE + f"    criteria:\n      - {blank}\n"
    assert _load_error(text, "mantle") == (
        "<string>:5:9: scenario.goals.criteria[0]: must not be blank (it is only whitespace)"
    )


@pytest.mark.parametrize(
    ("step", "where"),
    [
        ("steps:\n      - goal: '  '", "5:15: evals[0].steps[0].goal"),
        ("steps:\n      - success_criteria: ' '", "5:27: evals[0].steps[0].success_criteria"),
        ("expectations: ['  ']", "4:20: evals[0].expectations[0]"),
    ],
)
def test_a_whitespace_only_cxas_criterion_is_a_load_error(step: str, where: str) -> None:
    text = f"name: s\nevals:\n  - name: e\n    {step}\n"
    assert _load_error(text, "cxas") == (
        f"<string>:{where}: must not be blank (it is only whitespace)"
    )


def test_a_whitespace_only_sop_judge_criterion_is_a_load_error() -> None:
    text = "name: s\nchecks:\n  - type: llm_judge\n    criterion: '  '\n"
    assert _load_error(text, "sop").endswith("must not be blank (it is only whitespace)")


@pytest.mark.parametrize("key", ["skill_activated", "skill_completed", "ordered_block_entered"])
def test_a_tagged_mantle_skill_id_is_a_load_error_not_a_missing_argument(key: str) -> None:
    # was TypeError "SkillActivated.__init__() missing 1 required positional argument"
    block = "\n          block_id: b" if key.startswith("ordered") else ""
    text = MANTLE + f"    assertions:\n      - {key}:\n          skill_id: !x y{block}\n"
    assert _load_error(text, "mantle") == (
        f"<string>:6:21: scenario.goals.assertions[0].{key}.skill_id: unsupported tag '!x'"
    )


def test_a_5000_digit_integer_in_a_json_suite_is_a_load_error() -> None:
    text = '{"name": "s", "checks": [{"max_steps": ' + "1" * 5000 + "}]}"
    assert _load_error(text, "native") == (
        "<string>:1:40: checks[0].max_steps: a number of 5000 digits is too long "
        "(the limit is 4300 digits)"
    )


def test_a_5000_digit_integer_in_a_json_suite_file_is_a_load_error(tmp_path: Path) -> None:
    # was ValueError from json.loads (the .json file path; text was already refused)
    path = tmp_path / "suite.json"
    path.write_text('{"name": "s",\n "checks": [{"max_steps": ' + "1" * 5000 + "}]}")
    with pytest.raises(LoadError) as caught:
        load(path)
    assert str(caught.value) == (
        f"{path}:2:27: a number of 5000 digits is too long (the limit is 4300 digits)"
    )


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ({"name": 10**5000, "checks": []}, "name: a number of 5001 digits"),
        ({"checks": [{"max_steps": -(10**4300)}]}, "checks[0].max_steps: a number of 4301 digits"),
    ],
)
def test_a_5000_digit_python_integer_given_to_load_is_a_load_error(
    data: dict[str, object], where: str
) -> None:
    # was ValueError ("Exceeds the limit (4300 digits) for integer string conversion")
    with pytest.raises(LoadError) as caught:
        load(data)
    assert str(caught.value) == f"<data>: {where} is too long (the limit is 4300 digits)"


CONTRACT = """bind:
  calls: {from: trace, where: {kind: tool_call}}
  replies: {from: trace, where: {kind: message, actor_ref: agent}}
require: {op: follows_within, left: calls, right: replies, within: %s}
"""


@pytest.mark.parametrize(("within", "text"), [("1e20", "100000000000000000000s"),
                                              ("-0.0", "0s"), ("1e-7", "0.0000001s")])  # fmt: skip
def test_a_contract_within_of_any_finite_size_evaluates_and_writes_back(
    within: str, text: str
) -> None:
    # was ValueError from format_within ('1e+20s' did not read back) in evaluate and to_dict
    suite = loads(CONTRACT % within, dialect="contract")
    (case,) = suite.evaluate(demo_record())
    assert case.results[0].status.value in ("pass", "fail", "invalid")
    (entry,) = [e for e in suite.cases[0].entries if hasattr(e.check, "assertion")]
    data = entry.check.to_data()  # type: ignore[attr-defined]
    assert data["contract"]["require"]["within"] == text
    assert parse_within(format_within(float(within))) == float(within)


@pytest.mark.parametrize("mapping", [True, False])
@pytest.mark.parametrize("levels", [600, 100_000])
def test_a_contract_value_nested_too_deeply_is_a_contract_error(levels: int, mapping: bool) -> None:
    # was RecursionError from evaluate_contract (matching.from_data walked it first)
    spec = {
        "bind": {"status": {"from": "final_state", "path": "/orders"}},
        "require": {"op": "equals", "left": "status", "right": _nest(levels, mapping)},
    }
    with pytest.raises(ContractError) as caught:
        evaluate_contract(demo_record(), spec)
    assert str(caught.value).endswith(TOO_DEEP)
    assert str(caught.value).startswith("require.right" + (".a" if mapping else "[0]"))


@pytest.mark.parametrize("mapping", [True, False])
def test_matchers_answer_on_100000_deep_python_data(mapping: bool) -> None:
    deep = _nest(100_000, mapping)
    for matcher in (M.exact({"a": 1}), M.partial({"a": 1}), M.lenient([1]), M.contains(1),
                    M.unordered([1]), M.json({"a": 1}), M.not_(1), M.any_of(1, [1])):  # fmt: skip
        assert matcher.matches(deep) is (matcher.describe().startswith("not"))
        assert (matcher.explain(deep) == []) is matcher.matches(deep)


def _write(path: Path, rows: list[Any], *, lines: bool) -> Path:
    text = "\n".join(json.dumps(r) for r in rows) if lines else json.dumps(rows)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("fmt", ["mantle", "auto"])
def test_a_mantle_document_nested_too_deeply_is_a_record_error(tmp_path: Path, fmt: str) -> None:
    # was a 600-level value in the record: RecursionError when pickled (a process pool)
    rows = [{"event": "user", "text": "hi"},
            {"event": "tool_executed", "tool_name": "x", "source": "local",
             "arguments": _nest(600, False)}]  # fmt: skip
    path = _write(tmp_path / "run.json", rows, lines=False)
    with pytest.raises(RecordError) as caught:
        list(iter_records(path, fmt))
    assert str(caught.value).endswith(TOO_DEEP)
    assert f"{path}: $[1].arguments[0]" in str(caught.value)


def test_a_mantle_line_nested_too_deeply_is_a_parse_error_of_its_line(tmp_path: Path) -> None:
    rows = [{"event": "user", "text": "hi"},
            {"event": "tool_executed", "tool_name": "x", "source": "local",
             "arguments": _nest(600, True)},
            {"event": "bot", "text": "done"}]  # fmt: skip
    (record,) = iter_records(_write(tmp_path / "run.jsonl", rows, lines=True), "mantle")
    assert [e.kind for e in record.events] == ["message", "message"]
    (error,) = record.parse_errors
    assert error.position == "line 2" and error.reason.endswith(TOO_DEEP)
    assert pickle.loads(pickle.dumps(record)) == record  # a process pool can send it


@pytest.mark.parametrize(
    ("place", "path"),
    [("id", "id"), ("left", "require.left"), ("where", "bind.s.where"),
     ("extract", "bind.s.extract")],
)  # fmt: skip
def test_a_contract_key_nested_20000_deep_is_a_contract_error(place: str, path: str) -> None:
    # was RecursionError from the repr of the value in a problem message (long fuzz run)
    deep = _nest(20_000, False)
    spec: dict[str, Any] = {
        "id": "a",
        "bind": {"s": {"from": "trace", "where": {"kind": "tool_call"}}},
        "require": {"op": "equals", "left": "s", "right": 1},
    }
    if place in ("id",):
        spec["id"] = deep
    elif place == "left":
        spec["require"]["left"] = deep
    else:
        spec["bind"]["s"][place] = deep
    with pytest.raises(ContractError) as caught:
        evaluate_contract(demo_record(), spec)
    assert str(caught.value).startswith(path + "[0][0]")
    assert str(caught.value).endswith(TOO_DEEP)
