"""Check a recorded refund run in Python and print the verdict and the failures.

Run it with ``python docs/examples/check_refund.py``; it exits 1 when the case failed.
"""

from __future__ import annotations

import sys
from pathlib import Path

from agent_asserts import EvalContext, M, TrialRecord, run_case

RUN = Path(__file__).with_name("refund_run.json")


def refund_is_issued_correctly(ctx: EvalContext) -> None:
    """The refund is looked up, then issued for the full amount, and the order is refunded."""
    ctx.called_tool("refunds_lookup", arguments={"orderId": M.regex(r"^A\d+$")}, count=1)
    ctx.tool_order("refunds_lookup", "refunds_issue")
    ctx.called_tool("refunds_issue", arguments={"orderId": "A1049", "amount": 42})
    ctx.not_called_tool("refunds_cancel")
    ctx.state("/orders/A1049/status").equals("refunded")
    ctx.only_changed("/orders/A1049/status")
    ctx.expect(ctx.record.reply).similarity("Your refund for order A1049 was issued").at_least(0.8)
    ctx.max_steps(4).soft().label("efficiency")
    ctx.total_tokens_at_most(4000)


def main() -> int:
    record = TrialRecord.load(RUN)
    result = run_case(record, refund_is_issued_correctly)
    print(result)
    return 0 if result.verdict.value in ("passed", "scored") else 1


if __name__ == "__main__":
    sys.exit(main())
