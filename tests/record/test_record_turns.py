"""Turn derivation (docs/record.md)."""

from __future__ import annotations

from typing import Any

import pytest

from agent_asserts.record import Event, MessagePayload, TrialRecord
from agent_asserts.record.event import derive_turns, opens_turn


def user(text: str, **kw: Any) -> dict[str, Any]:
    return {"kind": "message", "actor_ref": "user", "payload": {"text": text}, **kw}


def agent(text: str = "ok", **kw: Any) -> dict[str, Any]:
    return {"kind": "message", "actor_ref": "agent", "payload": {"text": text}, **kw}


def turns_of(*events: dict[str, Any]) -> list[int | None]:
    return [e.turn for e in TrialRecord.from_dict({"events": list(events)}).events]


def test_zero_before_first_user_message() -> None:
    assert turns_of(agent("welcome"), {"kind": "step"}, user("hi"), agent()) == [0, 0, 1, 1]


def test_each_real_user_message_opens_a_turn() -> None:
    assert turns_of(
        user("a"), agent(), user("b"), {"kind": "tool_call", "payload": {"name": "t"}}
    ) == [
        1,
        1,
        2,
        2,
    ]


@pytest.mark.parametrize("text", ["", "   ", "/session_start", "/ok", " /restart"])
def test_empty_and_slash_messages_stay_in_the_turn(text: str) -> None:
    assert turns_of(user("a"), user(text), agent()) == [1, 1, 1]


def test_button_payload_does_not_open_a_turn() -> None:
    assert turns_of(user("hi"), agent(), user('/choose{"x": 1}'), user("thanks")) == [1, 1, 1, 2]


def test_explicit_turns_win_and_set_the_current_turn() -> None:
    assert turns_of(user("a", turn=5), agent(), user("b"), agent(turn=2), agent()) == [
        5,
        5,
        6,
        2,
        2,
    ]


def test_non_user_actor_does_not_open_a_turn() -> None:
    other = {"kind": "message", "actor_ref": "customer", "payload": {"text": "hi"}}
    assert turns_of(other, user("x")) == [0, 1]


def test_derived_turns_are_stored_and_round_trip() -> None:
    rec = TrialRecord.from_dict({"events": [user("a"), agent()]})
    data = rec.to_dict()
    assert [e["turn"] for e in data["events"]] == [1, 1]
    assert TrialRecord.from_dict(data) == rec


def test_direct_construction_derives_missing_turns() -> None:
    events = (
        Event("message", MessagePayload("hi"), "e0", actor_ref="user"),
        Event("message", MessagePayload("yo"), "e1", actor_ref="agent", turn=9),
        Event("step", {}, "e2"),
    )
    assert [e.turn for e in TrialRecord(events=events).events] == [1, 9, 9]


def test_derive_turns_keeps_events_that_have_turns() -> None:
    event = Event("step", {}, "e0", turn=3)
    assert derive_turns([event])[0] is event


def test_opens_turn_with_mapping_payload() -> None:
    assert opens_turn("message", "user", {"text": "hello"})
    assert not opens_turn("message", "user", {"text": 3})
    assert not opens_turn("message", "user", "text")
    assert not opens_turn("tool_call", "user", MessagePayload("x"))


def test_user_turns() -> None:
    rec = TrialRecord.from_dict({"events": [agent(), user("a"), user("b", turn=7)]})
    assert rec.user_turns() == (0, 1, 7)
