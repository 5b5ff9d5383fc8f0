"""Reports and contracts on fuzzed data.

Every report format renders any results over any record (odd text: lone surrogates, controls,
bidi; non-finite floats; deep values), the JSON report is strict JSON that reads back to the
same cases, and ``evaluate_contract`` on a contract mutated from the docs' and tests' contracts
raises only ``ContractError`` (a spec that is not a mapping: the documented ``TypeError``)."""

from __future__ import annotations

import json
from typing import Any

from fuzz_seeds import ODD_TEXT, mutated, suite_seeds
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuzz_inputs import json_data

from agent_asserts import TrialRecord, evaluate_contract
from agent_asserts.contract import ContractError
from agent_asserts.report import formats, render
from agent_asserts.results import AssertionResult, CaseResult, EvaluatorInfo
from agent_asserts.serialization import read_json_report
from agent_asserts.testing import demo_record

EXAMPLES = settings(max_examples=30, suppress_health_check=list(HealthCheck), deadline=None)
FORMATS = formats()[:5]  # the built-in ones
RECORD = demo_record()
odd_text = st.one_of(st.text(max_size=8), st.sampled_from(ODD_TEXT))
odd_values = st.one_of(
    json_data, odd_text,
    st.sampled_from([float("nan"), float("inf"), -float("inf"), {"$float": "NaN"}, 10**40]),
)  # fmt: skip
STATUSES = [("pass", 1.0), ("fail", 0.0), ("invalid", 0.0), ("evaluator_error", 0.0)]


def _result(status: tuple[str, float], **fields: Any) -> AssertionResult:
    return AssertionResult(status=status[0], score=status[1], **fields)


results = st.builds(
    _result,
    st.sampled_from(STATUSES),
    name=odd_text,
    message=odd_text,
    expected=odd_values,
    observed=odd_values,
    evaluator=st.builds(EvaluatorInfo, details=st.dictionaries(odd_text, odd_values, max_size=2)),
)
cases = st.builds(
    CaseResult,
    name=odd_text,
    verdict=st.sampled_from(["passed", "failed", "skipped"]),
    results=st.lists(results, max_size=3),
    error=st.one_of(st.none(), odd_text),
    metadata=st.dictionaries(odd_text, odd_values, max_size=2),
)


def _record(reply: str, arguments: dict[str, Any]) -> TrialRecord:
    return TrialRecord.builder().user(reply).tool("t", arguments).agent(reply).build()


def renders_every_format(rows: list[CaseResult], reply: str, arguments: dict[str, Any]) -> None:
    record = _record(reply, arguments)
    records = [record] * len(rows)
    for fmt in FORMATS:
        text = render(rows, fmt, records=records, sources=["run.json"] * len(rows))
        text.encode("utf-8")  # a file can hold it
    text = render(rows, "json", records=records)
    json.loads(text, parse_constant=lambda name: 1 / 0)  # strict: no bare NaN/Infinity
    back = read_json_report(text)
    assert [row.case.name for row in back] == [case.name for case in rows]
    assert all(row.record is not None for row in back) or not rows
    for row in back:
        assert row.record is not None
        again = json.dumps(row.record.to_dict(), allow_nan=False, sort_keys=True)
        assert again == json.dumps(record.to_dict(), allow_nan=False, sort_keys=True)


CONTRACT_KEYS = ("require", "assertions", "contract", "bind")
contract_seeds = tuple(
    doc for doc in suite_seeds() if isinstance(doc, dict) and any(k in doc for k in CONTRACT_KEYS)
)
contracts = st.one_of(mutated(contract_seeds), json_data)


def evaluates_contracts(spec: Any) -> None:
    try:
        found = evaluate_contract(RECORD, spec)
    except ContractError:
        return
    except TypeError:  # documented: a spec that is neither a Contract nor a mapping
        if isinstance(spec, dict):
            raise
        return
    assert all(isinstance(result, AssertionResult) for result in found)


arguments = st.dictionaries(st.text(max_size=3), odd_values, max_size=3)


@EXAMPLES
@given(st.lists(cases, max_size=3), odd_text, arguments)
def test_every_format_renders_any_results_and_the_json_report_reads_back(
    rows: list[CaseResult], reply: str, args: dict[str, Any]
) -> None:
    renders_every_format(rows, reply, args)


@EXAMPLES
@given(contracts)
def test_evaluate_contract_raises_only_contract_errors(spec: Any) -> None:
    evaluates_contracts(spec)


def test_there_are_contract_seeds_to_mutate() -> None:
    assert len(contract_seeds) >= 5


PROPERTIES = [
    ("reports: every format", st.tuples(st.lists(cases, max_size=3), odd_text, arguments),
     renders_every_format),
    ("contracts: evaluate_contract", st.tuples(contracts), evaluates_contracts),
]  # fmt: skip
