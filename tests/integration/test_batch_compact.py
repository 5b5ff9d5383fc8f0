"""Compact results rebuilt in the parent: equal to the worker's, the evaluator info of a
result without details shared as in a serial run, details kept as they were."""

from __future__ import annotations

import pickle

import attrs

from agent_asserts import EvalContext, TrialRecord, run_case
from agent_asserts.batch.compact import pack_cases, unpack_cases
from agent_asserts.context import plain_info


def case(ctx: EvalContext) -> None:
    ctx.succeeded()
    ctx.confirmation_requested("refund", "(?i)shall i")  # reports details


def test_rebuilt_results_share_the_plain_info_and_keep_details() -> None:
    record = TrialRecord.builder().agent("Shall I refund?").user("yes").tool("refund").build()
    serial = run_case(record, case)
    (rebuilt,) = unpack_cases(pickle.loads(pickle.dumps(pack_cases([serial]))))
    assert rebuilt == serial
    plain, detailed = rebuilt.results
    assert plain.evaluator is plain_info("deterministic") is serial.results[0].evaluator
    assert detailed.evaluator.details == serial.results[1].evaluator.details != {}
    assert detailed.evaluator is not plain_info("deterministic")


def test_an_info_of_another_version_is_not_replaced_by_the_shared_one() -> None:
    other = attrs.evolve(plain_info("deterministic"), version="agent_asserts 0.0.1")
    serial = run_case(TrialRecord.builder().build(), case)
    moved = attrs.evolve(serial, results=(attrs.evolve(serial.results[0], evaluator=other),))
    (rebuilt,) = unpack_cases(pickle.loads(pickle.dumps(pack_cases([moved]))))
    assert rebuilt.results[0].evaluator == other
    assert rebuilt.results[0].evaluator is not plain_info("deterministic")
