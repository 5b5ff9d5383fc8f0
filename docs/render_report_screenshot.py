"""Render a real HTML report in headless Chromium to ``docs/report-screenshot.png``.

Run it with ``python docs/render_report_screenshot.py [OUTPUT.png]``. It checks six recorded
refund runs with one case function through ``evaluate_many``, writes the HTML report to a
temporary directory and screenshots it with Debian's ``chromium`` package
(``apt-get install chromium``). The test suite never needs Chromium.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from agent_asserts import EvalContext, M, TrialRecord
from agent_asserts.batch import evaluate_many
from agent_asserts.report import ReportRow, write_report

HERE = Path(__file__).resolve().parent
OUTPUT = HERE / "report-screenshot.png"
CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--hide-scrollbars",
)  # fmt: skip


def refund_run(
    order: str, amount: int, *, steps: int = 4, issued: int | None = None
) -> TrialRecord:
    """One recorded refund run; ``issued`` is the amount the agent actually refunded."""
    b = TrialRecord.builder(initial_state={"orders": {order: {"status": "paid", "amount": amount}}})
    b.user(f"Please refund order {order}")
    b.tool(
        "refunds_lookup",
        arguments={"orderId": order},
        result={"refundable": True, "amount": amount},
    )
    b.memory_set("refund.order_id", order)
    b.tool("refunds_issue", arguments={"orderId": order, "amount": issued or amount},
           result={"refund_id": "R-" + order[1:]})  # fmt: skip
    b.agent(f"Refund issued for order {order}", utter_name="utter_refund_done")
    final = {"orders": {order: {"status": "refunded", "amount": amount}}}
    return b.build(final_state=final, status="completed", steps=steps,
                   usage={"input_tokens": 900, "output_tokens": 120})  # fmt: skip


def refund_is_correct(ctx: EvalContext) -> None:
    """The case every run is checked with."""
    if ctx.record.metadata.get("sandbox") is False:
        ctx.skip("the payment sandbox was down for this run")
    order = ctx.record.tool_calls[0].payload.arguments["orderId"]
    amount = ctx.record.initial_state["orders"][order]["amount"]
    ctx.called_tool("refunds_lookup", arguments={"orderId": M.regex(r"^A\d+$")}, count=1)
    ctx.tool_order("refunds_lookup", "refunds_issue")
    ctx.called_tool("refunds_issue", arguments={"orderId": order, "amount": amount})
    ctx.state(f"/orders/{order}/status").equals("refunded")
    ctx.memory_was_set("refund.order_id", order)
    ctx.max_steps(4).soft().label("efficiency")


def runs() -> list[tuple[str, TrialRecord]]:
    """The recorded runs, each with the file name it would have on disk."""
    import attrs

    skipped = attrs.evolve(refund_run("A1053", 12), metadata={"sandbox": False})
    return [
        ("runs/refund-A1049.json", refund_run("A1049", 42, issued=40)),
        ("runs/refund-A1050.json", refund_run("A1050", 18)),
        ("runs/refund-A1051.json", refund_run("A1051", 99, steps=6)),
        ("runs/refund-A1052.json", refund_run("A1052", 7)),
        ("runs/refund-A1053.json", skipped),
        ("runs/refund-A1054.json", refund_run("A1054", 230)),
    ]


def main(output: Path = OUTPUT) -> Path:
    """Write the report, screenshot it to ``output`` and return that path."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("chromium is not installed (Debian: apt-get install chromium)")
    named = runs()
    batch = evaluate_many([record for _, record in named], refund_is_correct, keep_records=True)
    rows = [
        ReportRow(case, record, source)
        for case, (source, record) in zip(batch.cases, named, strict=True)
    ]
    with tempfile.TemporaryDirectory() as tmp:
        page = write_report(Path(tmp, "report.html"), rows, title="refund runs, nightly")
        profile = Path(tmp, "profile")
        command = [
            chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}",
            f"--screenshot={output}", "--window-size=1200,1250", page.as_uri(),
        ]  # fmt: skip
        subprocess.run(command, check=True, capture_output=True, timeout=120)
    return output


if __name__ == "__main__":
    print(main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUTPUT))
