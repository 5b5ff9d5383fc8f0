"""``iter_records`` streams a multi-run file of 10,000 runs in bounded memory.

Writes two files of 10,000 runs of the refund conversation (two tool calls, one failing, a
reply, usage): an ADK eval set (one JSON document, ``evalCases`` of 10,000 cases, streamed by
the stdlib-only splitter) and an OpenAI Chat JSON Lines file (one run per line). For each it
reads every record through ``agent_asserts.iter_records`` and measures, with ``tracemalloc``,
the peak of Python memory during the read, the file size, and the time.

Targets: every run is read, and the peak stays below 2 MB whatever the number of runs (a
whole-file load needs several times the file size: about 8x for the eval set).

    python benchmarks/iter_records_memory.py [--runs 10000]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _harness import Targets

from agent_asserts import iter_records

REPLY = "I couldn't issue the refund: the payment gateway timed out."


def eval_case(n: int) -> dict[str, object]:
    return {
        "evalId": f"case-{n}",
        "sessionInput": {"appName": "refunds", "userId": f"u{n}", "state": {"order": f"A{n}"}},
        "conversation": [
            {
                "invocationId": f"inv-{n}",
                "userContent": {"role": "user", "parts": [{"text": f"Refund order A{n}"}]},
                "finalResponse": {"role": "model", "parts": [{"text": REPLY}]},
                "intermediateData": {
                    "toolUses": [
                        {"id": "c1", "name": "lookup_order", "args": {"order_id": f"A{n}"}},
                        {"id": "c2", "name": "issue_refund", "args": {"order_id": f"A{n}"}},
                    ],
                    "toolResponses": [
                        {"id": "c1", "name": "lookup_order", "response": {"status": "paid"}},
                        {
                            "id": "c2",
                            "name": "issue_refund",
                            "response": {"error": "gateway timed out"},
                        },
                    ],
                },
            }
        ],
    }


def chat_run(n: int) -> dict[str, object]:
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": "issue_refund", "arguments": json.dumps({"order_id": f"A{n}"})},
    }
    return {
        "messages": [
            {"role": "user", "content": f"Refund order A{n}"},
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "c1", "content": "Error: gateway timed out"},
            {"role": "assistant", "content": REPLY},
        ],
        "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
    }


def write_files(folder: Path, runs: int) -> tuple[Path, Path]:
    evalset = folder / "refunds.evalset.json"
    with evalset.open("w", encoding="utf-8") as out:
        out.write('{"evalSetId": "refunds", "name": "refunds", "evalCases": [')
        for n in range(runs):
            out.write(("," if n else "") + json.dumps(eval_case(n)))
        out.write("]}")
    lines = folder / "chats.jsonl"
    with lines.open("w", encoding="utf-8") as out:
        for n in range(runs):
            out.write(json.dumps(chat_run(n)) + "\n")
    return evalset, lines


def measure(path: Path) -> tuple[int, int, float, int]:
    """(records read, peak bytes, seconds, failing calls seen); modules are imported first (a
    warm-up read of the first run), so the peak is the reading's own."""
    next(iter_records(path))
    tracemalloc.start()
    started = time.perf_counter()
    count = failed = 0
    for record in iter_records(path):
        count += 1
        failed += sum(1 for e in record.tool_calls if e.payload.outcome == "failed")
    seconds = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return count, peak, seconds, failed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10_000)
    args = parser.parse_args()
    targets = Targets()
    with tempfile.TemporaryDirectory() as tmp:
        for path in write_files(Path(tmp), args.runs):
            size = path.stat().st_size
            count, peak, seconds, failed = measure(path)
            print(
                f"{path.name}: {size / 1e6:.1f} MB, {count} records in {seconds:.1f} s "
                f"({count / seconds:,.0f} runs/s), peak {peak / 1e6:.2f} MB "
                f"({peak / size:.1%} of the file)"
            )
            targets.check(
                f"{path.name}: every run read",
                count == args.runs and failed == count,
                f"{count} records, {failed} failing calls",
            )
            targets.check(f"{path.name}: peak < 2 MB", peak < 2e6, f"{peak / 1e6:.2f} MB")
    return targets.exit_code()


if __name__ == "__main__":
    raise SystemExit(main())
