"""RecordWarning: payload keys that look like a misnamed field, at load and in failures."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from agent_asserts import EvalContext, RecordWarning, TrialRecord
from agent_asserts.checks.trajectory_match import MatchesTrajectory


def load(payload: dict[str, Any], kind: str = "tool_call") -> TrialRecord:
    return TrialRecord.from_dict({"events": [{"kind": kind, "payload": payload}]})


@pytest.mark.parametrize(
    ("key", "field"),
    [("args", "arguments"), ("input", "arguments"), ("parameters", "arguments"),
     ("params", "arguments"), ("output", "result"), ("argments", "arguments")],
)  # fmt: skip
def test_alias_key_warns_naming_path_and_field(key: str, field: str) -> None:
    with pytest.warns(RecordWarning) as caught:
        record = load({"name": "refund", key: {"a": 1}})
    assert [str(w.message) for w in caught] == [
        f"$.events[0].payload.{key}: unknown key kept in 'extra'; it looks like {field!r} "
        "(rename it)"
    ]
    assert record.events[0].payload.extra == {key: {"a": 1}}


def test_record_warning_is_a_user_warning() -> None:
    assert issubclass(RecordWarning, UserWarning)


def test_no_warning_when_the_field_is_there_or_the_key_is_unrelated() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        load({"name": "t", "arguments": {}, "input": "raw text"})
        load({"name": "t", "vendor_trace": 1})
        load({"subagent": "r", "output": 1}, kind="delegation")


def test_message_and_memory_aliases() -> None:
    with pytest.warns(RecordWarning, match=r"payload\.content: .* looks like 'text'"):
        load({"content": "hi"}, kind="message")


def _args_record() -> TrialRecord:
    with pytest.warns(RecordWarning):
        return load({"name": "refund", "args": {"a": 1}})


def test_failed_argument_check_mentions_the_alias() -> None:
    result = EvalContext(_args_record()).called_tool("refund", arguments={"a": 1}).result
    assert (result.status.value, result.message) == (
        "invalid",
        "arguments not recorded: the result depends on the arguments of e0 ('refund'); e0 has "
        "'args' in its payload: did you mean 'arguments'?",
    )


def test_trajectory_diff_mentions_the_alias() -> None:
    out = MatchesTrajectory([("refund", {"a": 1})]).evaluate(_args_record())
    assert (out.status.value, out.message) == (
        "invalid",
        "tool call e0 ('refund') has no recorded arguments to compare; e0 has 'args' in its "
        "payload: did you mean 'arguments'?",
    )
