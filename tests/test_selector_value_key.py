"""``ctx.sequencing`` with ``on.*`` selectors written inline reuses the check built for the
same steps by value, and that check behaves exactly as a new one."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_asserts import EvalContext, M, TrialRecord, on
from agent_asserts.checks.sequencing import Sequencing
from agent_asserts.selectors.value_key import built_by_steps, selector_key

steps = st.one_of(
    st.sampled_from(["a", "b", " a", "a|b"]),
    st.builds(on.tool, st.sampled_from(["a", "b", " a"]), is_error=st.sampled_from([None, True])),
    st.builds(on.memory_set, st.sampled_from(["x", "y"]), st.sampled_from([1, True, 1.0, "1"])),
    st.builds(on.memory_cleared, st.sampled_from(["x", "y"])),
    st.builds(on.message, text=st.sampled_from([None, "hi", M.regex("^h")])),
    st.builds(on.tool, st.just("a"), arguments=st.just({"id": 1})),  # no value key
)
events = st.lists(
    st.sampled_from(["tool a", "tool b", "set x 1", "set x True", "set y 1", "clear x", "hi"]),
    max_size=6,
)


def _record(items: list[str]) -> TrialRecord:
    builder = TrialRecord.builder()
    for item in items:
        word, *rest = item.split()
        if word == "tool":
            builder.tool(rest[0])
        elif word == "set":
            builder.memory_set(rest[0], 1 if rest[1] == "1" else True)
        elif word == "clear":
            builder.memory_clear(rest[0])
        else:
            builder.agent(item)
    return builder.build()


@given(st.lists(steps, min_size=1, max_size=3), events)
def test_a_check_reused_by_value_behaves_as_a_new_one(chosen: list[Any], items: list[str]) -> None:
    record = _record(items)
    fresh = Sequencing(*chosen)
    reused = built_by_steps(Sequencing, tuple(chosen))
    assert reused == fresh
    assert reused.describe() == fresh.describe()
    assert reused.evaluate(record) == fresh.evaluate(record)


def test_equal_steps_share_one_check_and_different_ones_do_not() -> None:
    first = built_by_steps(Sequencing, (on.memory_set("x"), "issue"))
    assert built_by_steps(Sequencing, (on.memory_set("x"), "issue")) is first
    assert built_by_steps(Sequencing, (on.memory_set("x", 1), "issue")) is not first
    assert built_by_steps(Sequencing, (on.memory_set("x", 1), "issue")) is not (
        built_by_steps(Sequencing, (on.memory_set("x", True), "issue"))
    )
    assert selector_key(on.tool("a")) != selector_key(on.tool(" a"))
    assert selector_key(on.tool("a", arguments={"id": 1})) is None


def test_a_bad_step_raises_every_time() -> None:
    ctx = EvalContext(TrialRecord.builder().tool("a").build())
    for _ in range(2):
        with pytest.raises(TypeError, match=r"'selectors\[1\]' must be"):
            ctx.sequencing("a", 5)  # type: ignore[arg-type]
    assert ctx.sequencing(on.tool("a")).result.passed
