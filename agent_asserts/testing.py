"""Helpers for tests and examples (users' own tests may use them too).

>>> demo_record().reply
'Refund issued for order A1049'
"""

from __future__ import annotations

from typing import Any

from agent_asserts.record import TrialRecord

DEMO_RECORD: dict[str, Any] = {
    "initial_state": {"orders": {"A1049": {"status": "paid", "amount": 42}}},
    "final_state": {"orders": {"A1049": {"status": "refunded", "amount": 42}}},
    "status": "completed",
    "steps": 4,
    "usage": {"input_tokens": 900, "output_tokens": 120},
    "surfaces": ["message", "tool_call", "memory", "skill", "ordered_block", "delegation"],
    "events": [
        {"kind": "message", "actor_ref": "user", "payload": {"text": "Please refund A1049"}},
        {
            "kind": "tool_call",
            "payload": {
                "name": "refunds_lookup",
                "arguments": {"orderId": "A1049"},
                "result": {"refundable": True, "amount": 42},
            },
        },
        {
            "kind": "memory",
            "event_type": "set",
            "payload": {"name": "refund.order_id", "value": "A1049"},
        },
        {
            "kind": "tool_call",
            "payload": {
                "name": "refunds_issue",
                "arguments": {"orderId": "A1049", "amount": 42},
                "result": {"refund_id": "R-1"},
            },
        },
        {
            "kind": "message",
            "actor_ref": "agent",
            "payload": {"text": "Refund issued for order A1049", "utter_name": "utter_refund_done"},
        },
    ],
}


def demo_record() -> TrialRecord:
    """A small refund run: a user asks, two tools run, the agent replies; the order is refunded.

    >>> [e.kind for e in demo_record().events]
    ['message', 'tool_call', 'memory', 'tool_call', 'message']
    """
    return TrialRecord.from_dict(DEMO_RECORD)


__all__ = ["DEMO_RECORD", "demo_record"]
