"""Every ``on.*`` selector takes ``agent=``; ``on.tool`` takes ``outcome=``; their data forms
round-trip through suite files."""

from __future__ import annotations

import pytest

from agent_asserts import EvalContext, TrialRecord, on
from agent_asserts.selectors import Selector, selector_from_data


def record() -> TrialRecord:
    return (
        TrialRecord.builder()
        .tool("refund", {}, agent="billing", outcome="denied")
        .tool("refund", {})
        .memory_set("x.y", 1, agent="billing")
        .memory_clear("x.y", agent="billing")
        .subagent("billing", agent="triage")
        .skill("activated", "refund", agent="billing")
        .block("entered", "refund", "main", agent="billing")
        .agent("done", agent="billing")
        .build()
    )


SELECTORS: list[tuple[Selector, list[int]]] = [
    (on.tool("refund", agent="billing"), [0]),
    (on.tool("refund", outcome="denied"), [0]),
    (on.tool("refund", outcome="succeeded"), [1]),
    (on.memory_set("x.y", agent="billing"), [2]),
    (on.memory_cleared("x.y", agent="billing"), [3]),
    (on.subagent("billing", agent="triage"), [4]),
    (on.skill("activated", "refund", agent="billing"), [5]),
    (on.block("entered", "refund", "main", agent="billing"), [6]),
    (on.message(agent="billing"), [7]),
    (on.event(agent="billing"), [0, 2, 3, 5, 6, 7]),
    (on.memory_set("x.y", agent="root"), []),
]


@pytest.mark.parametrize(("selector", "positions"), SELECTORS, ids=[repr(s) for s, _ in SELECTORS])
def test_agent_and_outcome_filters(selector: Selector, positions: list[int]) -> None:
    assert selector.select(record()) == positions
    if "event" not in selector.to_data():
        assert selector_from_data(selector.to_data()) == selector


def test_explain_names_the_agent() -> None:
    found = on.tool("refund", agent="triage").explain(record().events[0])
    assert [str(m) for m in found] == ["$.agent: expected 'triage', got 'billing'"]


def test_bad_filters_are_errors() -> None:
    with pytest.raises(ValueError, match="'agent' must be a non-empty string"):
        on.message(agent="")
    with pytest.raises(ValueError, match="'outcome' must be one of 'succeeded'"):
        on.tool("refund", outcome="lost")


def test_checks_take_agent_selectors() -> None:
    ctx = EvalContext(record())
    assert ctx.called_tool("refund", count=2).result.passed
    assert ctx.event(on.tool("refund", agent="billing", outcome="denied"), count=1).result.passed
    assert ctx.not_event(on.tool("refund", agent="triage")).result.passed
