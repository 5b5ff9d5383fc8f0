"""Write the traces of the tutorial docs/from-traces.md: two versions of a refund agent.

``python docs/examples/tutorial_runs.py DIR`` writes ``DIR/v1/run_NN.json`` (30 runs of the
version in production, which behaves) and ``DIR/v2/run_NN.json`` (30 runs of a new version,
which sometimes skips the policy check and sometimes loops on the order lookup). Each file is
an OpenAI Chat Completions conversation (``messages`` with ``tool_calls`` and ``tool``
messages, plus ``usage``), the shape an application logs from the OpenAI SDK. The runs are
deterministic: the same command writes the same files.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

REASONS = ("damaged", "late", "wrong item")


def conversation(seed: int, *, version: int) -> dict[str, Any]:
    """One run of the refund agent, as an OpenAI Chat conversation."""
    rng = random.Random(seed * 7 + version)
    order = f"A{rng.randint(1000, 9999)}"
    amount = round(rng.uniform(10, 250), 2)
    reason = rng.choice(REASONS)
    calls: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
    lookups = 3 if version == 2 and seed % 10 == 3 else 1  # v2 loops on the lookup
    for _ in range(lookups):
        calls.append(
            ("lookup_order", {"order_id": order}, {"status": "delivered", "total": amount})
        )
    if not (version == 2 and seed % 5 in (1, 2)):  # v2 skips the policy check in 2 runs of 5
        calls.append(("check_policy", {"order_id": order, "reason": reason}, {"refundable": True}))
    calls.append(
        ("issue_refund", {"order_id": order, "amount": amount}, {"refund_id": f"R{seed:03d}"})
    )
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "You are the refund agent of Example Shop."},
        {"role": "user", "content": f"Order {order} arrived {reason}. I want my money back."},
    ]
    for i, (name, arguments, result) in enumerate(calls):
        call_id = f"call_{seed}_{i}"
        messages.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": call_id, "type": "function",
             "function": {"name": name, "arguments": json.dumps(arguments)}}]})  # fmt: skip
        messages.append({"role": "tool", "tool_call_id": call_id, "content": json.dumps(result)})
    messages.append(
        {"role": "assistant", "content": f"I have refunded {amount} for order {order}."}
    )
    prompt = 600 + 150 * len(calls) + rng.randint(0, 80)
    completion = 40 + 25 * len(calls) + rng.randint(0, 20)
    return {
        "messages": messages,
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        },
    }


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python docs/examples/tutorial_runs.py DIR", file=sys.stderr)
        return 2
    root = Path(argv[0])
    for version in (1, 2):
        folder = root / f"v{version}"
        folder.mkdir(parents=True, exist_ok=True)
        for seed in range(30):
            path = folder / f"run_{seed:02d}.json"
            path.write_text(json.dumps(conversation(seed, version=version), indent=1) + "\n")
    print(f"wrote 30 runs of v1 and 30 runs of v2 under {root}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
