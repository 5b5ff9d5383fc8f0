"""Selectors written inline in fluent calls (``ctx.sequencing(on.memory_set("x"), ...)``): each
call builds its own selectors, equal to the last call's, and a bad one raises on every call."""

from __future__ import annotations

import pytest

from agent_asserts import EvalContext, M, TrialRecord, on


def test_a_bad_step_raises_every_time() -> None:
    ctx = EvalContext(TrialRecord.builder().tool("a").build())
    for _ in range(2):
        with pytest.raises(TypeError, match=r"'selectors\[1\]' must be"):
            ctx.sequencing("a", 5)  # type: ignore[arg-type]
    assert ctx.sequencing(on.tool("a")).result.passed


def test_inline_selectors_are_equal_and_decide_alike() -> None:
    record = TrialRecord.builder().memory_set("refund.order_id", "A1").tool("refunds_issue").build()
    ctx = EvalContext(record)
    results = [
        ctx.sequencing(on.memory_set("refund.order_id", M.regex("^A")), "refunds_issue").result
        for _ in range(2)
    ]
    assert results[0] == results[1]
    assert results[0].passed
    assert on.memory_set("x", 1) == on.memory_set("x", 1)
    assert on.tool("a", arguments={"id": M.regex("^A")}) == on.tool(
        "a", arguments={"id": M.regex("^A")}
    )
