"""Seed 002's examples run as written: the audit requirement and a state/message relation."""

from __future__ import annotations

from typing import Any

import pytest

from agent_asserts import EvalContext, evaluate_contract
from agent_asserts.loaders import loads
from agent_asserts.record import TrialRecord
from agent_asserts.results import Severity, Status

SEED_AUDIT = """\
bind:
  mutations:
    from: trace
    where:
      kind: mutation
      status: succeeded

  audits:
    from: trace
    where:
      kind: audit

require:
  quantifier: every
  op: has_matching
  left: mutations
  right: audits
  on: [operation_ref, actor_ref, entity_ref]
  within: 2s
"""


def _record(*, audit_op: str = "op-7", audit_time: float = 12.4) -> TrialRecord:
    return TrialRecord.from_dict(
        {
            "events": [
                {"kind": "message", "actor_ref": "user", "payload": {"text": "refund A1049"}},
                {
                    "kind": "mutation",
                    "operation_ref": "op-7",
                    "actor_ref": "agent",
                    "entity_refs": ["order:A1049"],
                    "status": "succeeded",
                    "monotonic_time": 11.0,
                    "payload": {},
                },
                {
                    "kind": "mutation",
                    "operation_ref": "op-9",
                    "actor_ref": "agent",
                    "entity_refs": ["order:B7"],
                    "status": "failed",
                    "monotonic_time": 11.5,
                    "payload": {},
                },
                {
                    "kind": "audit",
                    "operation_ref": audit_op,
                    "actor_ref": "agent",
                    "entity_refs": ["order:A1049"],
                    "monotonic_time": audit_time,
                    "payload": {"text": "refund"},
                },
            ]
        }
    )


def _run(record: TrialRecord) -> Any:
    (result,) = loads(SEED_AUDIT, name="audit.yml").evaluate(record)[0].results
    return result


def test_seed_audit_example_loads_as_written_and_passes() -> None:
    suite = loads(SEED_AUDIT, name="audit.yml")
    assert suite.dialect == "contract"
    result = _run(_record())
    assert result.status is Status.PASS
    assert result.name == "audit"  # the bare form takes the contract's name, the file's stem
    assert result.severity is Severity.GATE
    assert result.evaluator.details["severity"] == "high"
    assert result.evidence == ("e1", "e3")  # the failed mutation is not selected


def test_an_audit_naming_another_operation_fails_naming_event_and_field() -> None:
    result = _run(_record(audit_op="op-8"))
    assert result.status is Status.FAIL
    assert result.message == (
        "1 of 1 item of 'mutations' fails (has a matching 'audits' item on operation_ref, "
        "actor_ref, entity_ref within 2s): e1: no 'audits' item has the same operation_ref, "
        "actor_ref, entity_ref; closest e3 differs on operation_ref (expected 'op-7', got 'op-8')"
    )
    assert result.closest == "e3"
    assert [(m.path, m.expected, m.actual) for m in result.mismatches] == [
        ("$.operation_ref", "op-7", "op-8")
    ]
    assert result.observed["violations"][0]["item"] == "e1"


def test_an_audit_after_within_fails() -> None:
    result = _run(_record(audit_time=13.5))
    assert result.status is Status.FAIL
    assert "e1: the nearest 'audits' item with the same keys, e3, is 2.5s away" in result.message
    assert result.closest == "e3"


@pytest.mark.parametrize("audit_time", [13.0, 9.0])
def test_within_is_inclusive_and_applies_in_either_direction(audit_time: float) -> None:
    assert _run(_record(audit_time=audit_time)).status is Status.PASS


STATE_AND_MESSAGE = {
    "contract": "refund confirmed",
    "assertions": [
        {
            "id": "order-refunded",
            "bind": {"status": {"from": "final_state", "path": "/orders/A1049/status"}},
            "require": {"op": "equals", "left": "status", "right": "refunded"},
        },
        {
            "id": "agent-names-the-order",
            "severity": "medium",
            "bind": {
                "replies": {
                    "from": "trace",
                    "where": {"kind": "message", "actor_ref": "agent"},
                    "extract": "payload.text",
                }
            },
            "require": {
                "quantifier": "some",
                "op": "contains",
                "left": "replies",
                "right": "A1049",
            },
        },
    ],
}


def _refund_record(reply: str, status: str = "refunded") -> TrialRecord:
    return TrialRecord.from_dict(
        {
            "initial_state": {"orders": {"A1049": {"status": "paid"}}},
            "final_state": {"orders": {"A1049": {"status": status}}},
            "events": [
                {"kind": "message", "actor_ref": "user", "payload": {"text": "refund A1049"}},
                {"kind": "message", "actor_ref": "agent", "payload": {"text": "Looking..."}},
                {"kind": "message", "actor_ref": "agent", "payload": {"text": reply}},
            ],
        }
    )


def test_final_state_value_and_an_agent_message_agree() -> None:
    results = evaluate_contract(_refund_record("Refund issued for A1049"), STATE_AND_MESSAGE)
    assert [(r.name, r.status.value, r.severity.value) for r in results] == [
        ("order-refunded", "pass", "gate"),
        ("agent-names-the-order", "pass", "soft"),
    ]
    assert results[0].evidence == ("final_state#/orders/A1049/status",)
    assert results[1].evidence == ("e1", "e2")


def test_state_and_message_failures_name_the_path_and_the_messages() -> None:
    results = evaluate_contract(_refund_record("Refund issued", "paid"), STATE_AND_MESSAGE)
    assert [r.status.value for r in results] == ["fail", "fail"]
    assert results[0].message == (
        "'status' (final_state#/orders/A1049/status) fails (equals 'refunded'): "
        "$: expected 'refunded', got 'paid'"
    )
    assert results[1].message == (
        "no item of 'replies' (2) contains 'A1049': "
        "e1: $: expected a value containing 'A1049', got 'Looking...'; "
        "e2: $: expected a value containing 'A1049', got 'Refund issued'"
    )


def test_ctx_contract_records_one_result_per_assertion() -> None:
    ctx = EvalContext(_refund_record("Refund issued", "paid"))
    handles = ctx.contract(STATE_AND_MESSAGE)
    assert [h.result.name for h in handles] == ["order-refunded", "agent-names-the-order"]
    assert ctx.verdict().value == "failed"
    soft_only = EvalContext(_refund_record("Refund issued"))
    soft_only.contract(STATE_AND_MESSAGE)
    assert soft_only.verdict().value == "scored"
